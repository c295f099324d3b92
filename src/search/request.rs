//! What one search is asked ([`SearchRequest`]) and the flags the controller and the search
//! threads share while it runs ([`SearchSignals`]): below the thread code, which reads both.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::limits::Limits;
use crate::board::Board;
use crate::event::Event;
use crate::types::Move;

/// Everything one search needs to know.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    pub board: Board,
    /// Keys of the game's earlier positions, oldest first (for repetition detection).
    pub history: Vec<u64>,
    pub limits: Limits,
    /// When the `go` was read: the clock runs from here.
    pub start: Instant,
    /// `Move Overhead`: milliseconds of GUI and pipe latency taken off every clock.
    pub move_overhead_ms: u64,
    /// Number of principal variations to report (MultiPV), at least 1.
    pub multipv: usize,
    /// The legal root moves to search, in move-generation order (all, or those `searchmoves`
    /// names: see [`SearchRequest::root_moves`]), built once for the whole search.
    pub root_moves: Vec<Move>,
}

impl SearchRequest {
    /// A search of `board` (after the game `history`) bounded only by `limits` (depth or nodes,
    /// no clock), one PV, every root move: what bench, datagen and tests ask for.
    pub fn fixed(board: Board, history: Vec<u64>, limits: Limits) -> SearchRequest {
        SearchRequest {
            board,
            history,
            limits,
            start: Instant::now(),
            move_overhead_ms: 0,
            multipv: 1,
            root_moves: SearchRequest::root_moves(&board, &[]),
        }
    }

    /// The root moves of `board` a search may choose from: every legal move, or those in
    /// `searchmoves` if it is not empty, in move-generation order.
    pub fn root_moves(board: &Board, searchmoves: &[Move]) -> Vec<Move> {
        let mut moves = board.legal_moves();
        if !searchmoves.is_empty() {
            moves.retain(|m| searchmoves.contains(m));
        }
        moves.to_vec()
    }
}

/// Flags shared between the controller and the search threads.
#[derive(Default)]
pub struct SearchSignals {
    /// Set to end the search now (`stop`, `quit`, or the time manager's hard limit).
    pub stop: AtomicBool,
    /// True while pondering or in `go infinite`: the search must not end (or print `bestmove`)
    /// on its own until this is cleared by `ponderhit` or the search is stopped.
    pub hold: AtomicBool,
    /// True while pondering: the time limits are not enforced yet (their clock runs from
    /// `go ponder`, so after `ponderhit` the time spent pondering counts).
    pub pondering: AtomicBool,
    /// Notified when `hold` or `stop` change: a finished search held by `go infinite` or
    /// `go ponder` sleeps on it.
    pub released: Event,
}
