//! `escaque train`: the NNUE trainer, in pure Rust on the CPU.
//!
//! It fits the float network of [`network`] to packed positions from `escaque datagen` by
//! minimising `(sigmoid(out) − target)²`, where the target blends the search score's expected
//! score with the game result ([`loss`]), using AdamW with a cosine learning-rate decay and weight
//! clipping ([`optimizer`]). It exports the quantised network the engine loads, its output bias
//! corrected for the mean rounding error ([`export`], format in [`crate::nnue::format`]). Each
//! epoch ends with a resumable checkpoint ([`checkpoint`]) and a fresh export, so an interrupted
//! run always leaves a usable net.

pub mod batch;
pub mod checkpoint;
pub mod cli;
pub mod export;
pub mod loss;
pub mod loss_log;
pub mod merge;
pub mod net_loss;
pub mod network;
pub mod optimizer;
pub mod trainer;

pub use checkpoint::{Checkpoint, Settings};
pub use network::FloatNetwork;
pub use trainer::{EpochReport, TrainConfig, Trainer};

#[cfg(test)]
mod tests;
