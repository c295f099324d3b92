//! The win-rate model of the built-in network, written by `escaque data wdl-fit --rust`.
//! A new network needs a new fit: a test checks that the built-in network's checksum is
//! [`NETWORK_CHECKSUM`].

use super::model::WinRateModel;

/// The checksum of the network the model was fitted for (as `eval` prints it).
pub const NETWORK_CHECKSUM: u64 = 0x4f807dd851a66735;

/// The data it was fitted on.
pub const FITTED_ON: &str = "net7-s12-n5000.bin, its first 2428 games: 206997 positions";

/// `a(m)` and `b(m)`, highest power first (see [`WinRateModel`]).
pub const MODEL: WinRateModel = WinRateModel {
    a: [-1159.008807, 3373.784853, -3261.902759, 1155.709784],
    b: [-338.316100, 868.852716, -710.833808, 288.113585],
};
