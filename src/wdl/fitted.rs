//! The win-rate model of the built-in network, written by `escaque data wdl-fit --rust`.
//! A new network needs a new fit: a test checks that the built-in network's checksum is
//! [`NETWORK_CHECKSUM`].

use super::model::WinRateModel;

/// The checksum of the network the model was fitted for (as `eval` prints it).
pub const NETWORK_CHECKSUM: u64 = 0xbaa637682c062ec3;

/// The data it was fitted on.
pub const FITTED_ON: &str = "net6-s10-n5000.bin, its first 2307 games: 198192 positions";

/// `a(m)` and `b(m)`, highest power first (see [`WinRateModel`]).
pub const MODEL: WinRateModel = WinRateModel {
    a: [-1094.872420, 3188.723523, -3105.959485, 1120.639615],
    b: [-337.023561, 806.916662, -618.100451, 261.816107],
};
