//! Syzygy tablebases in the search: ranking the root moves by DTZ (or WDL) so that a won
//! endgame is converted and a drawn one is never spoiled, and WDL probes inside the tree, scored
//! below mates (see [`TB_WIN`]). The probing itself is in [`crate::syzygy`].

use std::sync::atomic::{AtomicU64, Ordering};

use super::params::{DRAW, MAX_PLY, TB_WIN};
use crate::board::Board;
use crate::syzygy::{Tablebases, Wdl};
use crate::tt::Bound as TtBound;
use crate::types::Move;

/// The UCI options that steer probing (Stockfish's names and defaults).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TbSettings {
    /// `SyzygyProbeDepth`: nodes with as many pieces as the largest table are probed only
    /// from this depth on (smaller material is probed at any depth).
    pub probe_depth: i32,
    /// `Syzygy50MoveRule`: wins and losses the fifty-move rule cancels count as draws.
    pub rule50: bool,
    /// `SyzygyProbeLimit`: no probes with more pieces than this.
    pub probe_limit: u32,
}

impl TbSettings {
    /// Stockfish's defaults (the UCI options declare these).
    pub const DEFAULT: TbSettings = TbSettings {
        probe_depth: 1,
        rule50: true,
        probe_limit: 7,
    };
}

impl Default for TbSettings {
    fn default() -> TbSettings {
        TbSettings::DEFAULT
    }
}

/// Root rank of a win that keeps it for sure; ranks count down from it by plies (Pyrrhic's
/// scale, larger than any DTZ).
const MAX_RANK: i32 = 0x40000;

/// What the tables say about the root: the moves worth searching and what they are worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootTb {
    /// The root moves that keep the best result the tables allow (for a win, those that reach
    /// the next zeroing move soonest); the search picks among them.
    pub moves: Vec<Move>,
    /// The score reported for them while the search has not found a mate.
    pub score: i32,
    /// Whether the search should still probe: only when DTZ was missing and the root wins,
    /// so that the search can tell winning lines apart (as Stockfish).
    pub probe_in_search: bool,
    /// Probes made.
    pub hits: u64,
}

/// The score of a TB result `ply` plies from the root, as the side to move there sees it, and
/// whether it is exact or only a bound (a win is at least `TB_WIN - ply`, a mate may be better).
pub fn wdl_score(wdl: Wdl, ply: usize, rule50: bool) -> (i32, TtBound) {
    let draw_band = i32::from(rule50);
    let w = wdl.signed();
    if w > draw_band {
        (TB_WIN - ply as i32, TtBound::Lower)
    } else if w < -draw_band {
        (-TB_WIN + ply as i32, TtBound::Upper)
    } else {
        // A cursed win (blessed loss) scores just above (below) a plain draw, so the search still
        // prefers it; a draw is exact.
        (DRAW + 2 * w * draw_band, TtBound::Exact)
    }
}

/// Ranks the candidate root moves with the tables: DTZ if the DTZ tables are there, WDL
/// otherwise. `None` when the tables do not cover the root or a probe fails.
pub fn rank_root(
    tb: &Tablebases,
    board: &Board,
    candidates: &[Move],
    settings: &TbSettings,
) -> Option<RootTb> {
    if candidates.is_empty()
        || !tb.covers(board)
        || board.occupied().count() > settings.probe_limit.min(tb.largest())
    {
        return None;
    }
    rank_by_dtz(tb, board, candidates, settings)
        .or_else(|| rank_by_wdl(tb, board, candidates, settings))
}

/// DTZ ranking. For the mover's DTZ `v` after a move and the halfmove clock `c`: a win ranks
/// `MAX_RANK - (v + c)`, so the fastest way to the next zeroing move ranks first, and the win
/// is kept under the fifty-move rule while `v + c <= 100`; a loss ranks lowest while it cannot
/// outlast the fifty moves and by how long it holds out when it can (Stockfish's rule).
fn rank_by_dtz(
    tb: &Tablebases,
    board: &Board,
    candidates: &[Move],
    settings: &TbSettings,
) -> Option<RootTb> {
    let (_, moves) = tb.probe_root(board)?;
    let clock = i32::from(board.halfmove_clock());
    let rank = |v: i32| -> i32 {
        if v > 0 {
            MAX_RANK - (v + clock)
        } else if v < 0 {
            if -2 * v + clock < 100 {
                -MAX_RANK
            } else {
                -MAX_RANK + (-v + clock)
            }
        } else {
            0
        }
    };
    let ranked: Vec<(Move, i32)> = moves
        .iter()
        .filter(|m| candidates.contains(&m.mv))
        .map(|m| (m.mv, rank(m.dtz)))
        .collect();
    let best = ranked.iter().map(|&(_, r)| r).max()?;
    // Ranks within 100 plies of the extremes keep the win (loss) under the fifty-move rule;
    // without the rule every win is a win.
    let bound = if settings.rule50 { MAX_RANK - 100 } else { 1 };
    let score = if best >= bound {
        TB_WIN - 1
    } else if best > 0 {
        DRAW + 2
    } else if best == 0 {
        DRAW
    } else if best > -bound {
        DRAW - 2
    } else {
        -TB_WIN + 1
    };
    Some(RootTb {
        moves: ranked
            .iter()
            .filter(|&&(_, r)| r == best)
            .map(|&(m, _)| m)
            .collect(),
        score,
        probe_in_search: false,
        hits: moves.len() as u64,
    })
}

/// WDL ranking: each move by the result it keeps, fifty-move rule applied as the option says.
fn rank_by_wdl(
    tb: &Tablebases,
    board: &Board,
    candidates: &[Move],
    settings: &TbSettings,
) -> Option<RootTb> {
    let mut ranked = Vec::with_capacity(candidates.len());
    for &mv in candidates {
        let child = board.make_move(mv);
        let wdl = tb.probe_wdl(&child)?;
        let mut v = -wdl.signed();
        if !settings.rule50 {
            v = 2 * v.signum();
        }
        ranked.push((mv, v));
    }
    let best = ranked.iter().map(|&(_, v)| v).max()?;
    let result = match best {
        2 => Wdl::Win,
        1 => Wdl::CursedWin,
        0 => Wdl::Draw,
        -1 => Wdl::BlessedLoss,
        _ => Wdl::Loss,
    };
    let (score, _) = wdl_score(result, 1, settings.rule50);
    Some(RootTb {
        moves: ranked
            .iter()
            .filter(|&&(_, v)| v == best)
            .map(|&(m, _)| m)
            .collect(),
        score,
        probe_in_search: score > DRAW,
        hits: ranked.len() as u64,
    })
}

/// What the probes inside one search's tree need: the tables, how to probe them, and the count
/// of successful probes.
#[derive(Default)]
pub struct TreeProbes<'a> {
    pub tables: Option<&'a Tablebases>,
    pub settings: TbSettings,
    /// Inner nodes with at most this many pieces are probed (0: none are).
    pub cardinality: u32,
    /// Successful probes, root included.
    pub hits: AtomicU64,
}

impl TreeProbes<'_> {
    /// The WDL probe at an inner node (Stockfish's conditions): few enough pieces, depth enough
    /// when the material is that of the largest tables, just after a capture or pawn move (the
    /// tables assume a fresh fifty-move count) and no castling rights. The score and its bound.
    #[inline]
    pub fn probe(&self, board: &Board, depth: i32, ply: usize) -> Option<(i32, TtBound)> {
        let tables = self.tables?;
        let pieces = board.occupied().count();
        if pieces > self.cardinality
            || (pieces == self.cardinality && depth < self.settings.probe_depth)
            || board.halfmove_clock() != 0
            || board.castling_rights().0 != 0
            || ply >= MAX_PLY
        {
            return None;
        }
        let wdl = tables.probe_wdl(board)?;
        self.hits.fetch_add(1, Ordering::Relaxed);
        Some(wdl_score(wdl, ply, self.settings.rule50))
    }

    /// The successful probes so far, when there are tables to probe.
    pub fn hits(&self) -> Option<u64> {
        self.tables.map(|_| self.hits.load(Ordering::Relaxed))
    }
}
