//! The neural-network evaluation (NNUE): a (768 → 256)×2 → 1 network with SCReLU, its features,
//! its file format, and accumulators updated incrementally as moves are made.

mod accumulator;
pub mod features;
pub mod format;
mod network;
mod simd;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use network::{Network, Row, HIDDEN};

use crate::board::Board;

/// The network's evaluation of a position from scratch, centipawns for the side to move (tests,
/// `eval`; the search uses the incremental accumulators).
pub fn evaluate_board(net: &Network, board: &Board) -> i32 {
    Accumulator::refresh(net, board).evaluate(net, board.side_to_move())
}
