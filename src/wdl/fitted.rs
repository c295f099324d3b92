//! The win-rate model of the built-in network, written by `escaque data wdl-fit --rust`.
//! A new network needs a new fit: a test checks that the built-in network's checksum is
//! [`NETWORK_CHECKSUM`].

use super::model::WinRateModel;

/// The checksum of the network the model was fitted for (as `eval` prints it).
pub const NETWORK_CHECKSUM: u64 = 0x125cf860005d1e91;

/// The data it was fitted on.
pub const FITTED_ON: &str = "net3-s101-n5000.bin: 2110421 positions";

/// `a(m)` and `b(m)`, highest power first (see [`WinRateModel`]).
pub const MODEL: WinRateModel = WinRateModel {
    a: [-1293.274260, 3732.252170, -3505.230459, 1164.059443],
    b: [-594.028537, 1609.841454, -1361.474342, 442.934512],
};
