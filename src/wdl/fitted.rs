//! The win-rate model of the built-in network, written by `escaque data wdl-fit --rust`.
//! A new network needs a new fit: a test checks that the built-in network's checksum is
//! [`NETWORK_CHECKSUM`].

use super::model::WinRateModel;

/// The checksum of the network the model was fitted for (as `eval` prints it).
pub const NETWORK_CHECKSUM: u64 = 0x8eeb8e4b17a610a9;

/// The data it was fitted on.
pub const FITTED_ON: &str =
    "net8-s14-n5000.bin, its first 15407 games (net8's own self-play): 1283245 positions";

/// `a(m)` and `b(m)`, highest power first (see [`WinRateModel`]).
pub const MODEL: WinRateModel = WinRateModel {
    a: [-920.841972, 2743.944864, -2768.159226, 1062.782537],
    b: [-186.023488, 416.124474, -298.517480, 188.995326],
};
