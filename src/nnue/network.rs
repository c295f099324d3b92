//! The network as the engine holds it: rows aligned for SIMD, and the evaluation of a pair of
//! accumulators.

use std::sync::Arc;

use once_cell::sync::Lazy;

use super::features::INPUTS;
use super::format::{QuantisedNetwork, QA, QB, SCALE};
use super::simd;

/// Hidden neurons per perspective in the networks this build plays with.
pub const HIDDEN: usize = 256;

/// A row of `HIDDEN` values, 64-byte aligned so vector loads never split a cache line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Row(pub [i16; HIDDEN]);

/// The default network, built into the binary.
static DEFAULT_BYTES: &[u8] = include_bytes!("default.nnue");

static DEFAULT: Lazy<Arc<Network>> = Lazy::new(|| {
    Arc::new(Network::from_bytes(DEFAULT_BYTES).expect("the embedded network is valid"))
});

/// A loaded network.
#[derive(Clone, Debug)]
pub struct Network {
    /// One row per input feature.
    pub(super) feature_weights: Vec<Row>,
    pub(super) feature_bias: Row,
    /// `[side to move, other]`.
    output_weights: [Row; 2],
    output_bias: i32,
    /// FNV-1a checksum of the file, shown by `eval` and `uci` so a user knows which net plays.
    pub checksum: u64,
}

impl Network {
    /// The network built into the binary.
    pub fn default_network() -> Arc<Network> {
        Arc::clone(&DEFAULT)
    }

    /// The file of the built-in network.
    pub fn default_bytes() -> &'static [u8] {
        DEFAULT_BYTES
    }

    /// Parses a network file (see [`super::format`]); refuses other hidden sizes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let q = QuantisedNetwork::from_bytes(bytes)?;
        if q.hidden != HIDDEN {
            return Err(format!(
                "network has {} hidden neurons, this build plays with {HIDDEN}",
                q.hidden
            ));
        }
        let row = |values: &[i16]| {
            let mut r = Row([0; HIDDEN]);
            r.0.copy_from_slice(values);
            r
        };
        Ok(Network {
            feature_weights: q.feature_weights.chunks_exact(HIDDEN).map(row).collect(),
            feature_bias: row(&q.feature_bias),
            output_weights: [
                row(&q.output_weights[..HIDDEN]),
                row(&q.output_weights[HIDDEN..]),
            ],
            output_bias: q.output_bias,
            checksum: super::format::fnv1a64(bytes),
        })
    }

    /// Reads a network file.
    pub fn load(path: &str) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        Network::from_bytes(&bytes)
    }

    #[inline(always)]
    pub(super) fn row(&self, feature: usize) -> &Row {
        debug_assert!(feature < INPUTS);
        &self.feature_weights[feature]
    }

    /// The evaluation in centipawns for the side to move, from its accumulator and the other's.
    #[inline]
    pub fn output(&self, us: &Row, them: &Row) -> i32 {
        let sum = simd::screlu_dot(&us.0, &self.output_weights[0].0)
            .wrapping_add(simd::screlu_dot(&them.0, &self.output_weights[1].0));
        self.finish(sum)
    }

    /// The same as [`Network::output`] on the portable path (for tests of the SIMD path).
    pub fn output_portable(&self, us: &Row, them: &Row) -> i32 {
        let sum = simd::screlu_dot_portable(&us.0, &self.output_weights[0].0).wrapping_add(
            simd::screlu_dot_portable(&them.0, &self.output_weights[1].0),
        );
        self.finish(sum)
    }

    #[inline(always)]
    fn finish(&self, sum: i32) -> i32 {
        let out = i64::from(sum) / i64::from(QA) + i64::from(self.output_bias);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}
