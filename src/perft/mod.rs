//! Perft: counts the leaf nodes of the legal move tree to a fixed depth, to verify and time the
//! move generator. The last ply is bulk-counted (moves are counted, not made). The root moves
//! can be split across threads with rayon; below the root each thread runs serially on copies.
//!
//! Optionally, subtree counts are cached in a hash table shared by all threads (as qperft and
//! other fast perft tools do): transpositions are counted once. Entries are verified with the
//! full 64-bit key, so a wrong count needs a 64-bit key collision between different positions.

use std::sync::atomic::{AtomicBool, Ordering};

mod table;

pub use table::PerftTable;

/// The deepest perft escaque counts (`go perft` and the `perft` tool): deeper counts overflow
/// no `u64` yet but take days.
pub const MAX_DEPTH: u32 = 20;

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
                .map(|&mv| with_child(board, mv, |child| perft(child, depth - 1)))
                .sum()
        }
    }
}

/// Calls `f` on the position after `mv`. The child is copied from `board` and played in place,
/// never returned by value: see [`Board::play`] for what a returned board costs.
#[inline(always)]
fn with_child<T>(board: &Board, mv: Move, f: impl FnOnce(&Board) -> T) -> T {
    let mut child = *board;
    child.play(mv);
    f(&child)
}
/// [`perft`] with subtree counts cached in `table` (nodes of depth 2 and more).
pub fn perft_hashed(board: &Board, depth: u32, table: &PerftTable) -> u64 {
    if depth <= 1 {
        return perft(board, depth);
    }
    if let Some(count) = table.probe(board.hash(), depth) {
        return count;
    }
    let mut moves = MoveList::new();
    board.generate_all(&mut moves);
    let count = if depth == 2 {
        moves
            .iter()
            .map(|&mv| with_child(board, mv, Board::count_legal_moves))
            .sum()
    } else {
        moves
            .iter()
            .map(|&mv| with_child(board, mv, |child| perft_hashed(child, depth - 1, table)))
            .sum()
    };
    table.store(board.hash(), depth, count);
    count
}

/// Why a divide did not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerftError {
    /// The subtree-count table could not be allocated.
    Memory(String),
    /// The stop flag was set.
    Stopped,
}

impl std::fmt::Display for PerftError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PerftError::Memory(e) => write!(f, "perft hash table: {e}"),
            PerftError::Stopped => write!(f, "perft stopped"),
        }
    }
}

impl std::error::Error for PerftError {}

/// Nodes this deep and deeper check the stop flag; shallower subtrees (a few million leaves at
/// most, milliseconds) run the plain counters, so the flag costs nothing measurable.
const STOP_CHECK_DEPTH: u32 = 5;

/// [`perft_hashed`] (or [`perft`] without a table) that gives up, returning a partial count,
/// once `stop` is set. Partial counts are never stored in the table.
fn perft_until(board: &Board, depth: u32, table: Option<&PerftTable>, stop: &AtomicBool) -> u64 {
    if depth < STOP_CHECK_DEPTH {
        return match table {
            Some(table) => perft_hashed(board, depth, table),
            None => perft(board, depth),
        };
    }
    if stop.load(Ordering::Relaxed) {
        return 0;
    }
    if let Some(count) = table.and_then(|t| t.probe(board.hash(), depth)) {
        return count;
    }
    let mut moves = MoveList::new();
    board.generate_all(&mut moves);
    let count = moves
        .iter()
        .map(|&mv| {
            with_child(board, mv, |child| {
                perft_until(child, depth - 1, table, stop)
            })
        })
        .sum();
    if let Some(table) = table {
        if !stop.load(Ordering::Relaxed) {
            table.store(board.hash(), depth, count);
        }
    }
    count
}

/// A divide as Stockfish prints it, the format GUIs and tools read: one `move: nodes` line per
/// root move, a blank line, `Nodes searched: N` (N is 1 at depth 0, where there are no lines).
pub fn format_divide(board: &Board, depth: u32, counts: &[(Move, u64)], chess960: bool) -> String {
    let total: u64 = if depth == 0 {
        1
    } else {
        counts.iter().map(|(_, n)| n).sum()
    };
    let mut text = String::new();
    for (mv, nodes) in counts {
        text.push_str(&format!("{}: {nodes}\n", board.move_to_uci(*mv, chess960)));
    }
    text.push_str(&format!("\nNodes searched: {total}\n"));
    text
}

/// Leaf counts per root move ("divide"), in generation order. `threads` = 1 runs serially;
/// more splits the root moves over a rayon pool of that size.
pub fn divide(board: &Board, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    divide_until(board, depth, threads, 0, &AtomicBool::new(false))
        .expect("no table to allocate and never stopped")
}

/// [`divide`] with subtree counts cached in a table of `hash_mb` MB shared by all threads
/// (0: no table); an error if the table cannot be allocated.
pub fn divide_hashed(
    board: &Board,
    depth: u32,
    threads: usize,
    hash_mb: usize,
) -> Result<Vec<(Move, u64)>, PerftError> {
    divide_until(board, depth, threads, hash_mb, &AtomicBool::new(false))
}

/// [`divide_hashed`] that ends early with [`PerftError::Stopped`] once `stop` is set (UCI `stop`
/// during `go perft`); the flag is checked at every node of depth 5 or more.
pub fn divide_until(
    board: &Board,
    depth: u32,
    threads: usize,
    hash_mb: usize,
    stop: &AtomicBool,
) -> Result<Vec<(Move, u64)>, PerftError> {
    if depth == 0 {
        return Ok(Vec::new());
    }
    let moves = board.legal_moves();
    let table = if hash_mb > 0 && depth > 2 {
        Some(PerftTable::for_perft(board, depth, hash_mb).map_err(PerftError::Memory)?)
    } else {
        None
    };
    let subtree = |child: &Board, depth: u32| perft_until(child, depth, table.as_ref(), stop);
    let serial = || -> Vec<(Move, u64)> {
        moves
            .iter()
            .map(|&mv| (mv, subtree(&board.make_move(mv), depth - 1)))
            .collect()
    };
    let pool = (threads > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .ok()
        })
        .flatten();
    let counts = match pool {
        // One thread, or no pool could be built (threads cannot be spawned): count serially.
        None => serial(),
        Some(pool) => {
            // Split two plies deep (about 400 tasks from the start position instead of 20), so
            // the last big subtree does not leave the other threads idle at the end.
            let count = |mv: &Move| {
                let child = board.make_move(*mv);
                let nodes = if depth >= 3 {
                    let replies = child.legal_moves();
                    replies
                        .par_iter()
                        .map(|&reply| subtree(&child.make_move(reply), depth - 2))
                        .sum()
                } else {
                    subtree(&child, depth - 1)
                };
                (*mv, nodes)
            };
            pool.install(|| moves.par_iter().map(count).collect())
        }
    };
    if stop.load(Ordering::Relaxed) {
        return Err(PerftError::Stopped);
    }
    Ok(counts)
}
