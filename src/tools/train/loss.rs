//! The objective: squared error between the network's expected score and a blended target.

use crate::nnue::format::SCALE;
use crate::tools::data::PackedPosition;

/// The logistic function that maps the network's output (in units of SCALE centipawns) to an
/// expected score; the same scale turns search scores into expected scores, so a network that
/// fits the scores reproduces them in centipawns.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training target in expected-score space: `lambda` of the search score's expected score
/// plus `1 - lambda` of the game result. The score alone ties the net to what a shallow search
/// saw; the result alone is noisy; the blend is the usual compromise.
#[inline]
pub fn target(position: &PackedPosition, lambda: f32) -> f32 {
    let score = sigmoid(f32::from(position.stm_score()) / SCALE as f32);
    lambda * score + (1.0 - lambda) * position.stm_result()
}

/// `(sigmoid(out) - target)²` and its derivative with respect to `out`.
#[inline]
pub fn loss_and_slope(out: f32, target: f32) -> (f32, f32) {
    let p = sigmoid(out);
    let error = p - target;
    (error * error, 2.0 * error * p * (1.0 - p))
}

/// The squared error (the loss every run reports, so runs compare) and the slope of the
/// training objective `|sigmoid(out) - target|^power` with respect to `out`. A power above 2
/// weighs the positions the network gets most wrong more (Stockfish's trainer measured 2.6,
/// then 2.5, better than 2); at 2 it is [`loss_and_slope`] bit for bit.
#[inline]
pub fn loss_and_power_slope(out: f32, target: f32, power: f32) -> (f32, f32) {
    if power == 2.0 {
        return loss_and_slope(out, target);
    }
    let p = sigmoid(out);
    let error = p - target;
    let slope = power * error.abs().powf(power - 1.0) * error.signum() * p * (1.0 - p);
    (error * error, slope)
}
