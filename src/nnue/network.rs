//! The network as the engine holds it: rows aligned for SIMD, any architecture a file can name
//! (hidden size, king buckets, mirror, output buckets), and the evaluation of a pair of
//! accumulators.

use std::sync::Arc;

use once_cell::sync::Lazy;

use super::aligned::AlignedI16;
use super::architecture::Architecture;
use super::format::{QuantisedNetwork, QA, QB, SCALE};
use super::simd;

/// The default network, built into the binary.
static DEFAULT_BYTES: &[u8] = include_bytes!("default.nnue");

static DEFAULT: Lazy<Arc<Network>> = Lazy::new(|| {
    Arc::new(Network::from_bytes(DEFAULT_BYTES).expect("the embedded network is valid"))
});

/// A loaded network.
#[derive(Clone, Debug)]
pub struct Network {
    pub arch: Architecture,
    /// Neurons per perspective (a multiple of 64).
    pub hidden: usize,
    /// `[arch.inputs()][hidden]`.
    feature_weights: AlignedI16,
    feature_bias: AlignedI16,
    /// `[output buckets][side to move, other][hidden]`.
    output_weights: AlignedI16,
    output_bias: Vec<i32>,
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

    /// Parses a network file (see [`super::format`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let q = QuantisedNetwork::from_bytes(bytes)?;
        if q.hidden % 64 != 0 {
            return Err(format!(
                "network has {} hidden neurons, this build plays multiples of 64",
                q.hidden
            ));
        }
        Ok(Network::from_quantised(&q, super::format::fnv1a64(bytes)))
    }

    /// The engine's form of a parsed (or freshly quantised) network (hidden a multiple of 64,
    /// which [`Network::from_bytes`] checks).
    pub fn from_quantised(q: &QuantisedNetwork, checksum: u64) -> Network {
        Network {
            arch: q.arch,
            hidden: q.hidden,
            feature_weights: AlignedI16::from_slice(&q.feature_weights),
            feature_bias: AlignedI16::from_slice(&q.feature_bias),
            output_weights: AlignedI16::from_slice(&q.output_weights),
            output_bias: q.output_bias.clone(),
            checksum,
        }
    }

    /// Reads a network file.
    pub fn load(path: &str) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        Network::from_bytes(&bytes)
    }

    /// The architecture in one line, e.g. `(768 -> 256)x2 -> 1: 1 king bucket, 1 output bucket`.
    pub fn describe(&self) -> String {
        self.arch.describe(self.hidden)
    }

    /// The weights of input `feature`.
    #[inline(always)]
    pub fn row(&self, feature: usize) -> &[i16] {
        let h = self.hidden;
        &self.feature_weights.as_slice()[feature * h..feature * h + h]
    }

    #[inline(always)]
    pub fn bias(&self) -> &[i16] {
        self.feature_bias.as_slice()
    }

    #[inline(always)]
    fn output_row(&self, bucket: usize, side: usize) -> &[i16] {
        let h = self.hidden;
        let start = (2 * bucket + side) * h;
        &self.output_weights.as_slice()[start..start + h]
    }

    /// The evaluation in centipawns for the side to move, from its accumulator and the other's,
    /// with the output layer of `bucket`.
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let sum = simd::screlu_dot(us, self.output_row(bucket, 0))
            .wrapping_add(simd::screlu_dot(them, self.output_row(bucket, 1)));
        self.finish(sum, bucket)
    }

    /// The same as [`Network::output`] on the portable path (for tests of the SIMD path).
    pub fn output_portable(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let sum = simd::screlu_dot_portable(us, self.output_row(bucket, 0))
            .wrapping_add(simd::screlu_dot_portable(them, self.output_row(bucket, 1)));
        self.finish(sum, bucket)
    }

    #[inline(always)]
    fn finish(&self, sum: i32, bucket: usize) -> i32 {
        let out = i64::from(sum) / i64::from(QA) + i64::from(self.output_bias[bucket]);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}
