//! Perft: counts the leaf nodes of the legal move tree to a fixed depth, to verify and time the
//! move generator. The last ply is bulk-counted (moves are counted, not made). The root moves
//! can be split across threads with rayon; below the root each thread runs serially on copies.
//!
//! Optionally, subtree counts are cached in a hash table shared by all threads (as qperft and
//! other fast perft tools do): transpositions are counted once. Entries are verified with the
//! full 64-bit key, so a wrong count needs a 64-bit key collision between different positions.

use std::sync::atomic::{AtomicU64, Ordering};

pub mod cli;

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

/// A lockless table of subtree counts: each slot is two words, `key ^ data` and `data`, where
/// `data` packs the count (low 56 bits) and the depth (high 8 bits). A slot torn by a concurrent
/// write fails the xor check and reads as a miss.
pub struct PerftTable {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

impl PerftTable {
    /// A table of about `megabytes` MB (rounded down to a power of two of 16-byte slots).
    pub fn new(megabytes: usize) -> PerftTable {
        let wanted = (megabytes.max(1) << 20) / 16;
        let len = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        PerftTable {
            slots: (0..len)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            mask: len - 1,
        }
    }

    fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let slot = &self.slots[key as usize & self.mask];
        let data = slot[1].load(Ordering::Relaxed);
        let check = slot[0].load(Ordering::Relaxed);
        (check ^ data == key && data >> 56 == u64::from(depth)).then_some(data & ((1 << 56) - 1))
    }

    fn store(&self, key: u64, depth: u32, count: u64) {
        let slot = &self.slots[key as usize & self.mask];
        let data = count | u64::from(depth) << 56;
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
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
            .map(|&mv| board.make_move(mv).count_legal_moves())
            .sum()
    } else {
        moves
            .iter()
            .map(|&mv| perft_hashed(&board.make_move(mv), depth - 1, table))
            .sum()
    };
    table.store(board.hash(), depth, count);
    count
}

/// Leaf counts per root move ("divide"), in generation order. `threads` = 1 runs serially;
/// more splits the root moves over a rayon pool of that size.
pub fn divide(board: &Board, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    divide_hashed(board, depth, threads, 0)
}

/// [`divide`] with subtree counts cached in a table of `hash_mb` MB shared by all threads
/// (0: no table).
pub fn divide_hashed(
    board: &Board,
    depth: u32,
    threads: usize,
    hash_mb: usize,
) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = board.legal_moves();
    let table = (hash_mb > 0 && depth > 2).then(|| PerftTable::new(hash_mb));
    let subtree = |child: &Board, depth: u32| match &table {
        Some(table) => perft_hashed(child, depth, table),
        None => perft(child, depth),
    };
    if threads <= 1 {
        return moves
            .iter()
            .map(|&mv| (mv, subtree(&board.make_move(mv), depth - 1)))
            .collect();
    }
    // Split two plies deep (about 400 tasks from the start position instead of 20), so the last
    // big subtree does not leave the other threads idle at the end.
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
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| moves.par_iter().map(count).collect()),
        Err(_) => moves.iter().map(count).collect(),
    }
}
