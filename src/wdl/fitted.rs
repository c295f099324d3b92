//! The win-rate model of the built-in network, written by `escaque data wdl-fit --rust`.
//! A new network needs a new fit: a test checks that the built-in network's checksum is
//! [`NETWORK_CHECKSUM`].

use super::model::WinRateModel;

/// The checksum of the network the model was fitted for (as `eval` prints it).
pub const NETWORK_CHECKSUM: u64 = 0x3db1590406c4532b;

/// The data it was fitted on.
pub const FITTED_ON: &str = "net5-s9-n5000.bin, its first 2564 games: 214798 positions";

/// `a(m)` and `b(m)`, highest power first (see [`WinRateModel`]).
pub const MODEL: WinRateModel = WinRateModel {
    a: [-1086.573174, 3152.458055, -3030.300750, 1072.658032],
    b: [-234.909408, 572.502759, -452.038639, 222.000073],
};
