//! The neural-network evaluation (NNUE): `(768·K → H)×2 → 1` per output bucket with SCReLU,
//! king-bucketed inputs (see [`architecture`]), its file format, and accumulators computed lazily
//! from the moves made.

mod accumulator;
mod aligned;
pub mod architecture;
pub mod features;
pub mod format;
mod network;
pub mod simd;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use architecture::Architecture;
pub use network::Network;

use crate::board::Board;

/// The network's evaluation of a position from scratch, centipawns for the side to move (tests,
/// `eval`; the search uses the incremental accumulators).
pub fn evaluate_board(net: &Network, board: &Board) -> i32 {
    Accumulator::refresh(net, board).evaluate(net, board)
}
