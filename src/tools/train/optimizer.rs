//! AdamW with weight clipping, and the learning-rate schedule.

use std::ops::Range;

pub const BETA1: f32 = 0.9;
pub const BETA2: f32 = 0.999;
pub const EPSILON: f32 = 1e-8;

/// Bound on every weight and accumulator bias. Quantised, `1.98 · QA` = 505 keeps an
/// accumulator of 32 features plus bias inside `i16`, and `1.98 · QB` = 127 keeps the engine's
/// `clamp(acc, 0, QA) · w2` product (at most 255 · 127) inside `i16` as well.
pub const WEIGHT_CLIP: f32 = 1.98;

/// Adam moments and step count: everything besides the weights that a resumed run needs to
/// continue exactly where it stopped.
/// Which parameters weight decay applies to (the weights, not the biases), and how many at the
/// end are left unclipped (the output biases, `i32`s when quantised).
pub struct ParamGroups<'a> {
    pub decayed: &'a [Range<usize>],
    pub unclipped: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    /// Steps taken so far (for the bias correction).
    pub t: u64,
}

impl AdamW {
    pub fn new(params: usize) -> AdamW {
        AdamW {
            m: vec![0.0; params],
            v: vec![0.0; params],
            t: 0,
        }
    }

    /// One step on `params` with gradient `grad · grad_scale` (the scale turns a batch's summed
    /// gradient into its mean without another pass). Decoupled weight decay `wd` applies to the
    /// indices in `decayed`; every parameter but the last `unclipped` (the output biases, `i32`s
    /// when quantised) is clipped to ±[`WEIGHT_CLIP`].
    pub fn step(
        &mut self,
        params: &mut [f32],
        grad: &[f32],
        grad_scale: f32,
        lr: f32,
        wd: f32,
        groups: &ParamGroups,
    ) {
        let (decayed, unclipped) = (groups.decayed, groups.unclipped);
        self.t += 1;
        let t = self.t as i32;
        let correction1 = 1.0 - BETA1.powi(t);
        let correction2 = 1.0 - BETA2.powi(t);
        let step_size = lr / correction1;
        let inv_sqrt_c2 = 1.0 / correction2.sqrt();
        let last = params.len() - unclipped;
        let mut start = 0;
        let mut update = |range: Range<usize>, decay: f32| {
            let keep = 1.0 - lr * decay;
            for (((p, &g), m), v) in params[range.clone()]
                .iter_mut()
                .zip(&grad[range.clone()])
                .zip(&mut self.m[range.clone()])
                .zip(&mut self.v[range])
            {
                let g = g * grad_scale;
                *m = BETA1 * *m + (1.0 - BETA1) * g;
                *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                let updated = *p * keep - step_size * *m / (v.sqrt() * inv_sqrt_c2 + EPSILON);
                *p = updated.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            }
        };
        for range in decayed {
            update(start..range.start, 0.0);
            update(range.clone(), wd);
            start = range.end;
        }
        update(start..last, 0.0);
        // The output biases: updated like any bias but not clipped.
        for i in last..params.len() {
            let g = grad[i] * grad_scale;
            self.m[i] = BETA1 * self.m[i] + (1.0 - BETA1) * g;
            self.v[i] = BETA2 * self.v[i] + (1.0 - BETA2) * g * g;
            params[i] -= step_size * self.m[i] / (self.v[i].sqrt() * inv_sqrt_c2 + EPSILON);
        }
    }
}

/// Cosine decay from `lr` to `lr / decay` over the whole run, evaluated per batch: no
/// step-schedule thresholds to tune, and the small final rate settles the weights before export.
/// `progress` is the fraction of all batches already done (0 to 1).
pub fn cosine_lr(lr: f32, decay: f32, progress: f32) -> f32 {
    let floor = lr / decay;
    floor + 0.5 * (lr - floor) * (1.0 + (std::f32::consts::PI * progress.clamp(0.0, 1.0)).cos())
}
