//! The win-rate model of the built-in network, written by `escaque data wdl-fit --rust`.
//! A new network needs a new fit: a test checks that the built-in network's checksum is
//! [`NETWORK_CHECKSUM`].

use super::model::WinRateModel;

/// The checksum of the network the model was fitted for (as `eval` prints it).
pub const NETWORK_CHECKSUM: u64 = 0xa4af03559d52fb3e;

/// The data it was fitted on.
pub const FITTED_ON: &str = "net9-s33-n5000.bin s34-g1888.bin: 1131147 positions";

/// `a(m)` and `b(m)`, highest power first (see [`WinRateModel`]).
pub const MODEL: WinRateModel = WinRateModel {
    a: [-848.840496, 2512.644018, -2563.283353, 1029.859551],
    b: [-145.815938, 266.452042, -140.843347, 148.774434],
};
