//! The float network the trainer optimises, its forward pass and its gradient.
//!
//! `acc_p = b1 + Σ W1[f]` over the features active from perspective `p` (W1 shared by both
//! perspectives; the features depend on the architecture's king buckets), `out = Σ
//! screlu(acc_stm) · w2[b][..H] + Σ screlu(acc_other) · w2[b][H..] + b2[b]` with `b` the
//! position's output bucket and `screlu(x) = clamp(x, 0, 1)²`; the engine's evaluation is `out · SCALE` centipawns. This is
//! exactly the function [`crate::nnue::format`] evaluates in integers after quantisation.
//!
//! All parameters live in one flat vector (`W1 | b1 | w2 | b2`, the output biases last) so the optimiser, the gradient
//! reduction and the checkpoint each handle a single slice instead of four.
//!
//! **The factoriser.** With king buckets, each bucket's copy of a piece-square input sees only
//! the positions whose king stands in that bucket, so on a few million positions most rows
//! learn from few games and memorise them (4 mirrored buckets × 256 on 4.5M positions: train
//! loss 0.00114, validation 0.00295, against 0.00194 and 0.00244 without buckets). A factorised
//! network trains, after the bucketed rows, 768 more rows shared by every bucket: a piece on a
//! square adds its bucket's row and the shared row of the same piece-square. What all buckets
//! agree on is learnt once from all the data, and the bucketed rows learn only the differences.
//! Export folds the shared row into every bucket's (see [`FloatNetwork::merged_w1`]), so the
//! engine's network and file format are unchanged. Measured on those 4.5M positions it did not
//! close the gap (train 0.00105, validation 0.00300): the bucketed net memorises games through
//! capacity the data cannot yet constrain, and king buckets wait for more data.

use crate::nnue::architecture::INPUTS_PER_BUCKET;
use crate::nnue::format::SCALE;
use crate::nnue::Architecture;
use crate::random::splitmix64;
use crate::tools::data::PackedPosition;

use super::batch::{Features, MAX_ACTIVE};
use super::optimizer::WEIGHT_CLIP;

/// Width of the partial sums in the dot products: float addition is not associative, so the
/// compiler only vectorises a reduction we split into independent lanes ourselves.
const LANES: usize = 16;

/// A float network: `hidden` accumulator neurons per perspective.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub arch: Architecture,
    pub hidden: usize,
    /// Whether W1 ends with the 768 factor rows shared by all king buckets (see the module
    /// comment): true for a trained network with king buckets, false for one rebuilt from
    /// quantised weights.
    pub factorised: bool,
    /// `W1 [rows][hidden] | b1 [hidden] | w2 [buckets][2 · hidden] | b2 [buckets]`, with
    /// `rows` the architecture's inputs plus 768 when factorised.
    pub params: Vec<f32>,
}

/// Reusable per-thread buffers for one position's forward and backward pass, so the hot loop
/// never allocates.
pub struct Scratch {
    acc: [Vec<f32>; 2],
    d_acc: Vec<f32>,
}

impl Scratch {
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            acc: [vec![0.0; hidden], vec![0.0; hidden]],
            d_acc: vec![0.0; hidden],
        }
    }
}

#[inline(always)]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// `Σ screlu(acc_i) · w_i`, in [`LANES`] independent partial sums.
#[inline]
fn screlu_dot(acc: &[f32], weights: &[f32]) -> f32 {
    let mut lanes = [0f32; LANES];
    let acc_chunks = acc.chunks_exact(LANES);
    let weight_chunks = weights.chunks_exact(LANES);
    let tail: f32 = acc_chunks
        .remainder()
        .iter()
        .zip(weight_chunks.remainder())
        .map(|(&a, &w)| screlu(a) * w)
        .sum();
    for (a, w) in acc_chunks.zip(weight_chunks) {
        for ((lane, &a), &w) in lanes.iter_mut().zip(a).zip(w) {
            *lane += screlu(a) * w;
        }
    }
    lanes.iter().sum::<f32>() + tail
}

#[inline(always)]
fn add_assign(dst: &mut [f32], src: &[f32]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d += s;
    }
}

/// Accumulator columns summed in registers at a time: each block of `acc` is loaded and stored
/// once per position instead of once per active feature.
const BLOCK: usize = 64;

/// `acc = bias + Σ w1[f]` over `features`, block by block.
#[inline]
fn accumulate(acc: &mut [f32], bias: &[f32], w1: &[f32], features: &[u16]) {
    let h = acc.len();
    let blocked = h - h % BLOCK;
    for start in (0..blocked).step_by(BLOCK) {
        let mut sums: [f32; BLOCK] = bias[start..start + BLOCK].try_into().expect("a block");
        for &f in features {
            let offset = f as usize * h + start;
            let row: &[f32; BLOCK] = w1[offset..offset + BLOCK].try_into().expect("a block");
            for (s, &w) in sums.iter_mut().zip(row) {
                *s += w;
            }
        }
        acc[start..start + BLOCK].copy_from_slice(&sums);
    }
    acc[blocked..].copy_from_slice(&bias[blocked..]);
    for &f in features {
        let offset = f as usize * h;
        add_assign(&mut acc[blocked..], &w1[offset + blocked..offset + h]);
    }
}

/// Rows of W1: the architecture's inputs, plus the shared factor rows when factorised.
fn w1_rows(arch: &Architecture, factorised: bool) -> usize {
    arch.inputs() + if factorised { INPUTS_PER_BUCKET } else { 0 }
}

impl FloatNetwork {
    /// Whether the trainer factorises this architecture: whenever it has king buckets.
    pub fn trains_factorised(arch: &Architecture) -> bool {
        arch.king_buckets > 1
    }

    /// Number of parameters of a trained network of this architecture with `hidden` neurons.
    pub fn param_count(arch: &Architecture, hidden: usize) -> usize {
        let rows = w1_rows(arch, Self::trains_factorised(arch));
        rows * hidden + hidden + arch.output_buckets * (2 * hidden + 1)
    }

    /// A freshly initialised network: W1 uniform in ±1/√32 (a position has at most 32 active
    /// inputs, whatever the buckets) and w2 in ±1/√(2H) (the usual fan-in scaling, so the
    /// accumulators start mostly inside screlu's active range and the output starts near 0),
    /// biases 0; the factor rows start at 0, so a factorised network starts as the same
    /// function. Deterministic in `seed`.
    pub fn new(arch: Architecture, hidden: usize, seed: u64) -> FloatNetwork {
        let mut state = seed ^ 0x6E6E_7565_696E_6974;
        let mut uniform = |bound: f32| {
            let unit = (splitmix64(&mut state) >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * bound
        };
        let mut params = vec![0.0; Self::param_count(&arch, hidden)];
        // The bound net1 to net3 were initialised with (1/√768), kept for one bucket so their
        // recipe still gives the same weights.
        let w1_bound = if arch.king_buckets == 1 {
            1.0 / (768f32).sqrt()
        } else {
            1.0 / (32f32).sqrt() / 4.9
        };
        let w2_bound = 1.0 / ((2 * hidden) as f32).sqrt();
        let inputs = arch.inputs();
        for w in &mut params[..inputs * hidden] {
            *w = uniform(w1_bound);
        }
        let w2_start = w1_rows(&arch, Self::trains_factorised(&arch)) * hidden + hidden;
        for w in &mut params[w2_start..w2_start + arch.output_buckets * 2 * hidden] {
            *w = uniform(w2_bound);
        }
        FloatNetwork {
            arch,
            hidden,
            factorised: Self::trains_factorised(&arch),
            params,
        }
    }

    /// The same function with `hidden` neurons per perspective (at least this network's): the
    /// existing neurons keep their weights, the new ones get random input weights (as
    /// [`FloatNetwork::new`] draws them, from `seed`), zero factor rows and zero biases and
    /// output weights, so they add nothing until training grows their output weights. A wider
    /// network starts from what the narrower one learnt instead of from nothing.
    pub fn widened(&self, hidden: usize, seed: u64) -> FloatNetwork {
        assert!(hidden >= self.hidden, "a network can only be widened");
        let fresh = FloatNetwork::new(self.arch, hidden, seed);
        let (old_h, rows) = (self.hidden, w1_rows(&self.arch, self.factorised));
        let mut params = Vec::with_capacity(Self::param_count(&self.arch, hidden));
        for row in 0..rows {
            params.extend_from_slice(&self.w1()[row * old_h..][..old_h]);
            if row < self.arch.inputs() {
                params.extend_from_slice(&fresh.params[row * hidden + old_h..][..hidden - old_h]);
            } else {
                params.extend(std::iter::repeat_n(0.0, hidden - old_h));
            }
        }
        params.extend_from_slice(self.b1());
        params.extend(std::iter::repeat_n(0.0, hidden - old_h));
        for side_weights in self.w2().chunks_exact(old_h) {
            params.extend_from_slice(side_weights);
            params.extend(std::iter::repeat_n(0.0, hidden - old_h));
        }
        params.extend_from_slice(self.b2());
        FloatNetwork {
            arch: self.arch,
            hidden,
            factorised: self.factorised,
            params,
        }
    }

    /// Whether a network of architecture `from` can start a run of architecture `to`: the same
    /// one, or king buckets added to a network without them ([`FloatNetwork::bucketed`]).
    pub fn can_start(from: &Architecture, to: &Architecture) -> bool {
        from == to || Self::bucketed_arch_ok(from, to).is_ok()
    }

    fn bucketed_arch_ok(from: &Architecture, to: &Architecture) -> Result<(), String> {
        if from.king_buckets != 1 || from.mirror {
            return Err(format!(
                "king buckets can only be added to a network without buckets or mirror, not to {}",
                from.describe(1)
            ));
        }
        if to.king_buckets == 1 || to.mirror {
            // A mirrored view shows kings on files e–h a flipped board, which the unbucketed
            // network never saw: its function could not be kept.
            return Err(format!("{} is not unmirrored king buckets", to.describe(1)));
        }
        if from.output_buckets != to.output_buckets {
            return Err(format!(
                "{} output buckets, {} asked for",
                from.output_buckets, to.output_buckets
            ));
        }
        Ok(())
    }

    /// The same function with `arch`'s king buckets (unmirrored): the bucketed rows start at 0
    /// and the shared factor rows hold this network's input weights, so every bucket begins as
    /// this network and training learns only how each king placement differs from it. On a few
    /// million positions, buckets from random weights over-fit (see the module comment); this
    /// keeps the lineage's knowledge and adds the buckets as corrections to it.
    pub fn bucketed(&self, arch: Architecture) -> Result<FloatNetwork, String> {
        Self::bucketed_arch_ok(&self.arch, &arch)?;
        let h = self.hidden;
        let mut params = Vec::with_capacity(Self::param_count(&arch, h));
        params.extend(std::iter::repeat_n(0.0, arch.inputs() * h));
        params.extend_from_slice(self.w1());
        params.extend_from_slice(self.b1());
        params.extend_from_slice(self.w2());
        params.extend_from_slice(self.b2());
        debug_assert_eq!(params.len(), Self::param_count(&arch, h));
        Ok(FloatNetwork {
            arch,
            hidden: h,
            factorised: true,
            params,
        })
    }

    /// W1 as trained, the factor rows (if any) last.
    pub fn w1(&self) -> &[f32] {
        &self.params[..w1_rows(&self.arch, self.factorised) * self.hidden]
    }

    /// W1 as the engine uses it, one row per input of the architecture: each bucketed row plus
    /// the factor row of its piece-square, clipped as training clips every weight.
    pub fn merged_w1(&self) -> Vec<f32> {
        let h = self.hidden;
        let inputs = self.arch.inputs();
        let w1 = self.w1();
        if !self.factorised {
            return w1.to_vec();
        }
        let (bucketed, factors) = w1.split_at(inputs * h);
        let mut merged = bucketed.to_vec();
        for (row, weights) in merged.chunks_exact_mut(h).enumerate() {
            let factor = &factors[(row % INPUTS_PER_BUCKET) * h..][..h];
            for (w, &f) in weights.iter_mut().zip(factor) {
                *w = (*w + f).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            }
        }
        merged
    }

    pub fn b1(&self) -> &[f32] {
        let start = self.w1().len();
        &self.params[start..start + self.hidden]
    }

    /// Per output bucket, side to move's output weights first, then the other side's.
    pub fn w2(&self) -> &[f32] {
        let start = self.w1().len() + self.hidden;
        &self.params[start..start + self.arch.output_buckets * 2 * self.hidden]
    }

    /// The W1 rows `features` switch on: the features themselves and, when factorised, the
    /// factor row of each one's piece-square. Returns how many of `rows` it filled.
    #[inline]
    fn active_rows(&self, features: &[u16], rows: &mut [u16; 2 * MAX_ACTIVE]) -> usize {
        let n = features.len();
        rows[..n].copy_from_slice(features);
        if !self.factorised {
            return n;
        }
        let base = self.arch.inputs();
        for (row, &f) in rows[n..2 * n].iter_mut().zip(features) {
            *row = (base + f as usize % INPUTS_PER_BUCKET) as u16;
        }
        2 * n
    }

    /// The output biases, one per bucket.
    pub fn b2(&self) -> &[f32] {
        &self.params[self.params.len() - self.arch.output_buckets..]
    }

    /// The index ranges of the parameters that are weights rather than biases: weight decay
    /// applies to these only, since shrinking biases towards 0 regularises nothing.
    pub fn weight_ranges(arch: &Architecture, hidden: usize) -> [std::ops::Range<usize>; 2] {
        let w1_len = w1_rows(arch, Self::trains_factorised(arch)) * hidden;
        let w2_start = w1_len + hidden;
        [
            0..w1_len,
            w2_start..w2_start + arch.output_buckets * 2 * hidden,
        ]
    }

    /// The evaluation of a position in centipawns from the side to move's view: what the engine
    /// should compute (up to quantisation) once this network is exported.
    pub fn evaluate(&self, position: &PackedPosition) -> f32 {
        let mut scratch = Scratch::new(self.hidden);
        self.forward(&Features::of(position, &self.arch), &mut scratch) * SCALE as f32
    }

    /// The raw output (units of SCALE centipawns); leaves the accumulators in `scratch` for
    /// [`FloatNetwork::backward`].
    #[inline]
    pub fn forward(&self, features: &Features, scratch: &mut Scratch) -> f32 {
        let h = self.hidden;
        let w1 = self.w1();
        let w2 = &self.w2()[features.bucket * 2 * h..(features.bucket + 1) * 2 * h];
        let mut out = self.b2()[features.bucket];
        let mut rows = [0u16; 2 * MAX_ACTIVE];
        for side in 0..2 {
            let acc = &mut scratch.acc[side];
            let n = self.active_rows(features.side(side), &mut rows);
            accumulate(acc, self.b1(), w1, &rows[..n]);
            out += screlu_dot(acc, &w2[side * h..side * h + h]);
        }
        out
    }

    /// Adds `d_out · ∂out/∂params` to `grad` for the position whose [`FloatNetwork::forward`]
    /// last ran on `scratch`.
    #[inline]
    pub fn backward(
        &self,
        features: &Features,
        scratch: &mut Scratch,
        d_out: f32,
        grad: &mut [f32],
    ) {
        let h = self.hidden;
        let bucket = features.bucket;
        let w2 = &self.w2()[bucket * 2 * h..(bucket + 1) * 2 * h];
        let (grad_w1, rest) = grad.split_at_mut(self.w1().len());
        let (grad_b1, rest) = rest.split_at_mut(h);
        let (grad_w2, grad_b2) = rest.split_at_mut(self.arch.output_buckets * 2 * h);
        let grad_w2 = &mut grad_w2[bucket * 2 * h..(bucket + 1) * 2 * h];
        grad_b2[bucket] += d_out;
        for side in 0..2 {
            let acc = &scratch.acc[side];
            let d_acc = &mut scratch.d_acc;
            let weights = &w2[side * h..side * h + h];
            let grad_weights = &mut grad_w2[side * h..side * h + h];
            for (((&a, &w), g), d) in acc
                .iter()
                .zip(weights)
                .zip(grad_weights.iter_mut())
                .zip(d_acc.iter_mut())
            {
                let clamped = a.clamp(0.0, 1.0);
                *g += d_out * clamped * clamped;
                // screlu' is 2x inside (0, 1) and 0 outside, where the clamp holds it flat.
                let slope = if a > 0.0 && a < 1.0 { 2.0 * a } else { 0.0 };
                *d = d_out * w * slope;
            }
            add_assign(grad_b1, d_acc);
            let mut rows = [0u16; 2 * MAX_ACTIVE];
            let n = self.active_rows(features.side(side), &mut rows);
            for &f in &rows[..n] {
                let f = f as usize;
                add_assign(&mut grad_w1[f * h..f * h + h], d_acc);
            }
        }
    }
}
