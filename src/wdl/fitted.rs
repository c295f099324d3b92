//! The win-rate model of the built-in network, written by `escaque data wdl-fit --rust`.
//! A new network needs a new fit: a test checks that the built-in network's checksum is
//! [`NETWORK_CHECKSUM`].

use super::model::WinRateModel;

/// The checksum of the network the model was fitted for (as `eval` prints it).
pub const NETWORK_CHECKSUM: u64 = 0xf123192ef1dabbc5;

/// The data it was fitted on.
pub const FITTED_ON: &str =
    "net8-s14-n5000.bin net8-s15-n5000.bin s16-g3561.bin: 4494025 positions";

/// `a(m)` and `b(m)`, highest power first (see [`WinRateModel`]).
pub const MODEL: WinRateModel = WinRateModel {
    a: [-906.732394, 2694.006947, -2717.324408, 1049.453421],
    b: [-155.093637, 330.950535, -228.048238, 171.359075],
};
