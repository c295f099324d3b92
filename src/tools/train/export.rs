//! Quantisation of the float network into the engine's integer network file.

use std::path::Path;

use crate::nnue::architecture::INPUTS_PER_BUCKET;
use crate::nnue::format::{QuantisedNetwork, QA, QB};
use crate::tools::data::PackedPosition;

use super::batch::Features;
use super::checkpoint::write_atomically;
use super::network::{FloatNetwork, Scratch};

/// Rounds to the nearest integer and saturates into `i16`. Training clips the weights so that
/// saturation never happens; it is there so a hand-made float net cannot wrap around.
fn quantise_i16(x: f32, scale: i32) -> i16 {
    (x * scale as f32).round() as i16
}

/// Positions [`FloatNetwork::quantise_calibrated`] needs at most: the mean it estimates is
/// stable to a fraction of a centipawn long before this.
pub const CALIBRATION_POSITIONS: usize = 1 << 16;

impl FloatNetwork {
    /// The integer network: `W1 · QA` (with the factor rows folded in), `b1 · QA`, `w2 · QB` (as `i16`) and `b2 · QA · QB`
    /// (as `i32`), each rounded to nearest. With QA for the accumulator and QB for the output
    /// weights, the integer inference of [`QuantisedNetwork::evaluate_features`] computes this
    /// network's output times SCALE up to rounding.
    pub fn quantise(&self) -> QuantisedNetwork {
        QuantisedNetwork {
            arch: self.arch,
            hidden: self.hidden,
            feature_weights: self
                .merged_w1()
                .iter()
                .map(|&w| quantise_i16(w, QA))
                .collect(),
            feature_bias: self.b1().iter().map(|&b| quantise_i16(b, QA)).collect(),
            output_weights: self.w2().iter().map(|&w| quantise_i16(w, QB)).collect(),
            output_bias: self
                .b2()
                .iter()
                .map(|&b| (f64::from(b) * f64::from(QA * QB)).round() as i32)
                .collect(),
        }
    }

    /// [`FloatNetwork::quantise`] with each output bias corrected for the mean rounding error
    /// over the positions of `sample` (up to [`CALIBRATION_POSITIONS`] of it) in its bucket.
    ///
    /// Rounding w2 to steps of 1/QB = 1/64 errs by up to 1/128 per weight, and since screlu
    /// outputs are never negative these errors do not average out over a position: they add up
    /// to an offset shared by most positions (a 256-neuron net trained on 190k datagen positions
    /// came out 14 cp low on average, mean |error| 14 cp; corrected, 0 cp and 6 cp). Folding
    /// the mean offset into the `i32` output bias, which has far finer steps, removes it.
    pub fn quantise_calibrated(&self, sample: &[PackedPosition]) -> QuantisedNetwork {
        let mut quantised = self.quantise();
        let sample = &sample[..sample.len().min(CALIBRATION_POSITIONS)];
        if sample.is_empty() {
            return quantised;
        }
        let rounded = FloatNetwork::dequantised(&quantised, self.b2());
        let mut scratch = Scratch::new(self.hidden);
        let buckets = self.arch.output_buckets;
        let (mut offsets, mut counts) = (vec![0f64; buckets], vec![0usize; buckets]);
        for position in sample {
            let features = Features::of(position, &self.arch);
            let exact = self.forward(&features, &mut scratch);
            offsets[features.bucket] += f64::from(exact - rounded.forward(&features, &mut scratch));
            counts[features.bucket] += 1;
        }
        for bucket in 0..buckets {
            if counts[bucket] > 0 {
                let offset = offsets[bucket] / counts[bucket] as f64;
                let bias = (f64::from(self.b2()[bucket]) + offset) * f64::from(QA * QB);
                quantised.output_bias[bucket] = bias.round() as i32;
            }
        }
        quantised
    }

    /// The float network a network file stands for, ready to train on (`escaque train --init`):
    /// the weights divided by their scales and, when the architecture trains factorised, factor
    /// rows of 0 (the same function; training then splits what the buckets share off into them).
    pub fn from_quantised(quantised: &QuantisedNetwork) -> FloatNetwork {
        let b2: Vec<f32> = quantised
            .output_bias
            .iter()
            .map(|&b| (f64::from(b) / f64::from(QA * QB)) as f32)
            .collect();
        let mut network = FloatNetwork::dequantised(quantised, &b2);
        if FloatNetwork::trains_factorised(&network.arch) {
            let w1_len = network.arch.inputs() * network.hidden;
            let factor_rows = INPUTS_PER_BUCKET * network.hidden;
            network
                .params
                .splice(w1_len..w1_len, std::iter::repeat_n(0.0, factor_rows));
            network.factorised = true;
        }
        network
    }

    /// The float network the quantised weights stand for (with the float output biases `b2`).
    fn dequantised(quantised: &QuantisedNetwork, b2: &[f32]) -> FloatNetwork {
        let scaled = |values: &[i16], scale: i32| {
            values
                .iter()
                .map(|&v| f32::from(v) / scale as f32)
                .collect::<Vec<_>>()
        };
        let mut params = scaled(&quantised.feature_weights, QA);
        params.extend(scaled(&quantised.feature_bias, QA));
        params.extend(scaled(&quantised.output_weights, QB));
        params.extend_from_slice(b2);
        FloatNetwork {
            arch: quantised.arch,
            hidden: quantised.hidden,
            factorised: false,
            params,
        }
    }

    /// Quantises (calibrated on `sample`) and writes the network file, atomically, so the
    /// engine never loads a half-written net while a run overwrites it after each epoch.
    pub fn export(&self, path: &Path, sample: &[PackedPosition]) -> Result<(), String> {
        write_atomically(path, &self.quantise_calibrated(sample).to_bytes())
    }
}
