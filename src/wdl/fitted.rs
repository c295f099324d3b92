//! The win-rate model of the built-in network, written by `escaque data wdl-fit --rust`.
//! A new network needs a new fit: a test checks that the built-in network's checksum is
//! [`NETWORK_CHECKSUM`].

use super::model::WinRateModel;

/// The checksum of the network the model was fitted for (as `eval` prints it).
pub const NETWORK_CHECKSUM: u64 = 0x1fdb6fbeda244552;

/// The data it was fitted on.
pub const FITTED_ON: &str = "net4-s7-n5000.bin, its first 2563 games: 218405 positions";

/// `a(m)` and `b(m)`, highest power first (see [`WinRateModel`]).
pub const MODEL: WinRateModel = WinRateModel {
    a: [-1236.808283, 3580.090845, -3401.610530, 1156.409185],
    b: [-487.180488, 1257.841529, -1022.904364, 360.136465],
};
