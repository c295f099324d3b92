//! How the search tells the outside world what it found. The search never prints: the UCI loop,
//! `bench` and tests each install their own [`Reporter`].

use super::params::{MATE, MATE_BOUND, TB_WIN, TB_WIN_BOUND};
use crate::types::Move;

/// A search score from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Centipawns(i32),
    /// Mate in this many moves (not plies); negative when the side to move gets mated.
    /// `Mate(0)` means the side to move is checkmated now.
    Mate(i32),
}

/// Whether a reported score is exact or only a bound (from a failed aspiration window).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One `info` line's worth of search progress.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: i32,
    pub seldepth: i32,
    /// 1-based MultiPV index.
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    /// The search's own score behind `score` (internal centipawns; mates and tablebase wins as
    /// the search counts them), for front ends that report it on another scale.
    pub value: i32,
    /// The tables prove this line a draw (a cursed win or blessed loss included): its `wdl` is
    /// certain, whatever the score's few centipawns say.
    pub tablebase_draw: bool,
    pub nodes: u64,
    pub time_ms: u64,
    /// Transposition table use, per mille.
    pub hashfull: u32,
    /// Tablebase probes that found their position, when tables are loaded.
    pub tbhits: Option<u64>,
    pub pv: Vec<Move>,
}

/// Receives search output. Implementations must be cheap and must not block for long.
pub trait Reporter: Send + Sync {
    /// Progress after an iteration (or a MultiPV line of one).
    fn info(&self, info: &SearchInfo);
    /// A free-form `info string` message.
    fn message(&self, _text: &str) {}
    /// The final answer; `None` when the root position has no legal move.
    fn best_move(&self, best: Option<Move>, ponder: Option<Move>);
}

/// A reporter that discards everything (bench, tests, datagen).
pub struct SilentReporter;

impl Reporter for SilentReporter {
    fn info(&self, _: &SearchInfo) {}
    fn best_move(&self, _: Option<Move>, _: Option<Move>) {}
}

/// Converts an internal score to the reported one: mates in moves, not plies, and a tablebase
/// win `n` plies away as `20000 - n` centipawns (Stockfish's convention), never as a mate.
pub fn to_uci_score(score: i32) -> Score {
    if score >= MATE_BOUND {
        Score::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Score::Mate(-(MATE + score) / 2)
    } else if score.abs() > TB_WIN_BOUND {
        Score::Centipawns(score.signum() * (TB_CENTIPAWNS - (TB_WIN - score.abs())))
    } else {
        Score::Centipawns(score)
    }
}

/// What a tablebase win at the root is reported as, in centipawns.
pub const TB_CENTIPAWNS: i32 = 20_000;
