//! Search constants: score bounds, depth limits and the pruning/reduction margins, in one place.

use once_cell::sync::Lazy;

/// Deepest ply the search reaches (the stack and PV tables are sized from it).
pub const MAX_PLY: usize = 128;
/// Mate at the root: `MATE - n` means mate in `n` plies.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Above every reachable score.
pub const INF: i32 = MATE + 1;
/// Draw score.
pub const DRAW: i32 = 0;
/// A tablebase win found at the root: `TB_WIN - n` is a win proven by the tables `n` plies from
/// the root. Below every mate, so a mate the search finds is still preferred, and above
/// [`TB_WIN_BOUND`], so it can never be mistaken for (or printed as) a mate.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores beyond this are tablebase wins or mates: stored in the hash table relative to the
/// node, like mates, and never taken for evaluations.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// Aspiration window half-width at the first try.
pub const ASPIRATION_DELTA: i32 = 20;
/// Aspiration windows are used from this depth on.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// Reverse futility: margin per depth, and the deepest depth it applies at.
pub const RFP_MARGIN: i32 = 75;
pub const RFP_MAX_DEPTH: i32 = 8;
/// Null move: minimum depth.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Futility pruning of quiets: base and per-depth margin, deepest (reduced) depth.
pub const FP_BASE: i32 = 90;
pub const FP_MARGIN: i32 = 100;
pub const FP_MAX_DEPTH: i32 = 8;
/// SEE pruning thresholds per depth (quiets: per depth squared-ish; noisy: per depth).
pub const SEE_QUIET_MARGIN: i32 = -60;
pub const SEE_NOISY_MARGIN: i32 = -90;
pub const SEE_MAX_DEPTH: i32 = 8;
/// Singular extensions: minimum depth, how far below the stored depth the entry may be, and
/// the margin below the stored score, per ply of depth, in centipawns.
pub const SE_MIN_DEPTH: i32 = 8;
pub const SE_TT_DEPTH_SLACK: i32 = 3;
pub const SE_MARGIN_PER_DEPTH: i32 = 2;
/// History divisor in late-move reductions.
pub const LMR_HISTORY_DIV: i32 = 8192;

/// History gravity limit.
pub const HISTORY_MAX: i32 = 16_384;

/// History bonus (and malus) for a move at `depth`.
#[inline(always)]
pub fn history_bonus(depth: i32) -> i32 {
    (170 * depth - 100).clamp(0, 1700)
}

/// Late-move pruning: quiets searched before the rest are skipped.
#[inline(always)]
pub fn lmp_threshold(depth: i32, improving: bool) -> usize {
    let base = 3 + depth * depth;
    (if improving { base } else { base / 2 }) as usize
}

/// Late-move reductions, `[depth][move number]`, in plies.
pub static LMR: Lazy<[[i32; 64]; 64]> = Lazy::new(|| {
    let mut table = [[0; 64]; 64];
    for (depth, row) in table.iter_mut().enumerate().skip(1) {
        for (moves, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.75 + (depth as f64).ln() * (moves as f64).ln() / 2.25) as i32;
        }
    }
    table
});

#[inline(always)]
pub fn lmr(depth: i32, moves: usize) -> i32 {
    LMR[(depth as usize).min(63)][moves.min(63)]
}
