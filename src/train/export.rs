//! Quantisation of the float network into the engine's integer network file.

use std::path::Path;

use crate::nnue::format::{QuantisedNetwork, QA, QB};

use super::checkpoint::write_atomically;
use super::network::FloatNetwork;

/// Rounds to the nearest integer and saturates into `i16`. Training clips the weights so that
/// saturation never happens; it is there so a hand-made float net cannot wrap around.
fn quantise_i16(x: f32, scale: i32) -> i16 {
    (x * scale as f32).round() as i16
}

impl FloatNetwork {
    /// The integer network: `W1 · QA`, `b1 · QA`, `w2 · QB` (as `i16`) and `b2 · QA · QB`
    /// (as `i32`), each rounded to nearest. With QA for the accumulator and QB for the output
    /// weights, the integer inference of [`QuantisedNetwork::evaluate_features`] computes this
    /// network's output times SCALE up to rounding.
    pub fn quantise(&self) -> QuantisedNetwork {
        QuantisedNetwork {
            hidden: self.hidden,
            feature_weights: self.w1().iter().map(|&w| quantise_i16(w, QA)).collect(),
            feature_bias: self.b1().iter().map(|&b| quantise_i16(b, QA)).collect(),
            output_weights: self.w2().iter().map(|&w| quantise_i16(w, QB)).collect(),
            output_bias: (f64::from(self.b2()) * f64::from(QA * QB)).round() as i32,
        }
    }

    /// Quantises and writes the network file (atomically, so the engine never loads a
    /// half-written net while a run overwrites it after each epoch).
    pub fn export(&self, path: &Path) -> Result<(), String> {
        write_atomically(path, &self.quantise().to_bytes())
    }
}
