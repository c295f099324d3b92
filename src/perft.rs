//! Perft: counts the leaf nodes of the legal move tree to a fixed depth, to verify and time the
//! move generator. The last ply is bulk-counted (moves are counted, not made). The root moves
//! can be split across threads with rayon; below the root each thread runs serially on copies.

use rayon::prelude::*;

use crate::board::{Board, MoveList};
use crate::types::Move;

/// Leaf count of the move tree of depth `depth` below `board`.
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_legal_moves(),
        _ => {
            let mut moves = MoveList::new();
            board.generate_all(&mut moves);
            moves
                .iter()
                .map(|&mv| perft(&board.make_move(mv), depth - 1))
                .sum()
        }
    }
}

/// Leaf counts per root move ("divide"), in generation order. `threads` = 1 runs serially;
/// more splits the root moves over a rayon pool of that size.
pub fn divide(board: &Board, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let moves = board.legal_moves();
    let below = depth.saturating_sub(1);
    let count = |mv: &Move| (*mv, perft(&board.make_move(*mv), below));
    if depth == 0 {
        return Vec::new();
    }
    if threads <= 1 {
        return moves.iter().map(count).collect();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| moves.par_iter().map(count).collect()),
        Err(_) => moves.iter().map(count).collect(),
    }
}
