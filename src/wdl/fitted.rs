//! The win-rate model of the built-in network, written by `escaque data wdl-fit --rust`.
//! A new network needs a new fit: a test checks that the built-in network's checksum is
//! [`NETWORK_CHECKSUM`].

use super::model::WinRateModel;

/// The checksum of the network the model was fitted for (as `eval` prints it).
pub const NETWORK_CHECKSUM: u64 = 0x8c1bbb801907eb53;

/// The data it was fitted on.
pub const FITTED_ON: &str = "net10-s35-n5000-g7836.bin net10-s36-n5000-g25000.bin net10-s37-n5000-g18387.bin: 4209605 positions";

/// `a(m)` and `b(m)`, highest power first (see [`WinRateModel`]).
pub const MODEL: WinRateModel = WinRateModel {
    a: [-811.582986, 2407.444363, -2478.953769, 1033.044618],
    b: [-49.594602, 7.650833, 84.838226, 99.298586],
};
