//! The win-rate model of the built-in network, written by `escaque data wdl-fit --rust`.
//! A new network needs a new fit: a test checks that the built-in network's checksum is
//! [`NETWORK_CHECKSUM`].

use super::model::WinRateModel;

/// The checksum of the network the model was fitted for (as `eval` prints it).
pub const NETWORK_CHECKSUM: u64 = 0x8eeb8e4b17a610a9;

/// The data it was fitted on.
pub const FITTED_ON: &str =
    "net7-s12-n5000.bin, its first 17232 games (net7's; net8 is net7 fine-tuned on them): 1450933 positions";

/// `a(m)` and `b(m)`, highest power first (see [`WinRateModel`]).
pub const MODEL: WinRateModel = WinRateModel {
    a: [-1054.420379, 3088.659502, -3021.954968, 1095.449571],
    b: [-284.770056, 705.157247, -557.234565, 247.374974],
};
