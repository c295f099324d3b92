//! The float network the trainer optimises, its forward pass and its gradient.
//!
//! `acc_p = b1 + Σ W1[f]` over the features active from perspective `p` (W1 shared by both
//! perspectives), `out = Σ screlu(acc_stm) · w2[..H] + Σ screlu(acc_other) · w2[H..] + b2` with
//! `screlu(x) = clamp(x, 0, 1)²`; the engine's evaluation is `out · SCALE` centipawns. This is
//! exactly the function [`crate::nnue::format`] evaluates in integers after quantisation.
//!
//! All parameters live in one flat vector (`W1 | b1 | w2 | b2`) so the optimiser, the gradient
//! reduction and the checkpoint each handle a single slice instead of four.

use crate::data::{splitmix64, PackedPosition};
use crate::nnue::features::INPUTS;
use crate::nnue::format::SCALE;

use super::batch::Features;

/// Width of the partial sums in the dot products: float addition is not associative, so the
/// compiler only vectorises a reduction we split into independent lanes ourselves.
const LANES: usize = 16;

/// A float network: `hidden` accumulator neurons per perspective.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub hidden: usize,
    /// `W1 [INPUTS][hidden] | b1 [hidden] | w2 [2 · hidden] | b2 [1]`.
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

impl FloatNetwork {
    /// Number of parameters of a network with `hidden` neurons.
    pub fn param_count(hidden: usize) -> usize {
        INPUTS * hidden + hidden + 2 * hidden + 1
    }

    /// A freshly initialised network: W1 uniform in ±1/√768 and w2 in ±1/√(2H) (the usual
    /// fan-in scaling, so the accumulators start mostly inside screlu's active range and the
    /// output starts near 0), biases 0. Deterministic in `seed`.
    pub fn new(hidden: usize, seed: u64) -> FloatNetwork {
        let mut state = seed ^ 0x6E6E_7565_696E_6974;
        let mut uniform = |bound: f32| {
            let unit = (splitmix64(&mut state) >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * bound
        };
        let mut params = vec![0.0; Self::param_count(hidden)];
        let w1_bound = 1.0 / (INPUTS as f32).sqrt();
        let w2_bound = 1.0 / ((2 * hidden) as f32).sqrt();
        for w in &mut params[..INPUTS * hidden] {
            *w = uniform(w1_bound);
        }
        let w2_start = INPUTS * hidden + hidden;
        for w in &mut params[w2_start..w2_start + 2 * hidden] {
            *w = uniform(w2_bound);
        }
        FloatNetwork { hidden, params }
    }

    pub fn w1(&self) -> &[f32] {
        &self.params[..INPUTS * self.hidden]
    }

    pub fn b1(&self) -> &[f32] {
        let start = INPUTS * self.hidden;
        &self.params[start..start + self.hidden]
    }

    /// Side to move's output weights first, then the other side's.
    pub fn w2(&self) -> &[f32] {
        let start = INPUTS * self.hidden + self.hidden;
        &self.params[start..start + 2 * self.hidden]
    }

    pub fn b2(&self) -> f32 {
        self.params[self.params.len() - 1]
    }

    /// The index ranges of the parameters that are weights rather than biases: weight decay
    /// applies to these only, since shrinking biases towards 0 regularises nothing.
    pub fn weight_ranges(hidden: usize) -> [std::ops::Range<usize>; 2] {
        let w2_start = INPUTS * hidden + hidden;
        [0..INPUTS * hidden, w2_start..w2_start + 2 * hidden]
    }

    /// The evaluation of a position in centipawns from the side to move's view: what the engine
    /// should compute (up to quantisation) once this network is exported.
    pub fn evaluate(&self, position: &PackedPosition) -> f32 {
        let mut scratch = Scratch::new(self.hidden);
        self.forward(&Features::of(position), &mut scratch) * SCALE as f32
    }

    /// The raw output (units of SCALE centipawns); leaves the accumulators in `scratch` for
    /// [`FloatNetwork::backward`].
    #[inline]
    pub fn forward(&self, features: &Features, scratch: &mut Scratch) -> f32 {
        let h = self.hidden;
        let w1 = self.w1();
        let w2 = self.w2();
        let mut out = self.b2();
        for side in 0..2 {
            let acc = &mut scratch.acc[side];
            accumulate(acc, self.b1(), w1, features.side(side));
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
        let w2 = self.w2();
        let (grad_w1, rest) = grad.split_at_mut(INPUTS * h);
        let (grad_b1, rest) = rest.split_at_mut(h);
        let (grad_w2, grad_b2) = rest.split_at_mut(2 * h);
        grad_b2[0] += d_out;
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
            for &f in features.side(side) {
                let f = f as usize;
                add_assign(&mut grad_w1[f * h..f * h + h], d_acc);
            }
        }
    }
}
