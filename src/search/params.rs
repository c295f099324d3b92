//! Search constants: score bounds and depth limits, and the search's margins and reductions as
//! one table of tunables ([`TUNABLES`]): each has a name (its hidden UCI option, see
//! `crate::uci::options`), a default, a range and an SPSA step, and holds its value in a static
//! that the search reads with a relaxed atomic load (as cheap as a constant in memory).
//! Switches (0 or 1) among them turn a technique off for a match with the same binary.
//! `escaque tunables` prints the tuned ones in OpenBench's SPSA input format.

use std::sync::atomic::{AtomicI32, Ordering};

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

/// History gravity limit (the tables are `i16`: not a tunable).
pub const HISTORY_MAX: i32 = 16_384;

/// One tunable search parameter. Its value is process-wide (every search thread reads it).
#[derive(Debug)]
pub struct Tunable {
    /// The name: its (hidden) UCI option and its name for SPSA.
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA's perturbation at the end of a tuning run (OpenBench's `c_end`); 0 for a switch
    /// (0 off, 1 on: a technique a match can turn off in the same binary), which is not tuned.
    pub c_end: f64,
    value: AtomicI32,
}

impl Tunable {
    const fn new(name: &'static str, default: i32, min: i32, max: i32, c_end: f64) -> Tunable {
        assert!(min <= default && default <= max);
        Tunable {
            name,
            default,
            min,
            max,
            c_end,
            value: AtomicI32::new(default),
        }
    }

    /// The current value.
    #[inline(always)]
    pub fn get(&self) -> i32 {
        self.value.load(Ordering::Relaxed)
    }

    /// Whether a switch is on (any tunable: whether it is not 0).
    #[inline(always)]
    pub fn on(&self) -> bool {
        self.get() != 0
    }

    /// Whether it is a switch (0 off, 1 on; never tuned).
    fn is_switch(&self) -> bool {
        self.c_end == 0.0 && self.min == 0 && self.max == 1
    }

    /// Whether SPSA tunes it: not a switch, not a weight that is off by default (0 at the
    /// bottom of its range, as `ContHist4Weight` after it lost its match: whether a technique
    /// comes back is for a match to decide), and not a parameter of a technique whose switch is
    /// off by default (named after it, as `RazoringMargin` after `Razoring`), which would move
    /// at random while nothing it does is played.
    pub fn is_tuned(&self) -> bool {
        self.c_end > 0.0
            && !(self.default == 0 && self.min == 0)
            && !TUNABLES.iter().any(|switch| {
                switch.is_switch() && switch.default == 0 && self.name.starts_with(switch.name)
            })
    }

    /// Sets the value (the caller checked the range: `crate::uci::options` refuses values out
    /// of it) and rebuilds the tables derived from the tunables. A search running meanwhile
    /// sees the new value from its next read.
    pub fn set(&self, value: i32) {
        debug_assert!((self.min..=self.max).contains(&value), "{}", self.name);
        self.value.store(value, Ordering::Relaxed);
        rebuild_lmr_table();
    }

    /// The line of OpenBench's SPSA input: `name, int, default, min, max, c_end, r_end`.
    pub fn spsa_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {}",
            self.name, self.default, self.min, self.max, self.c_end, SPSA_R_END
        )
    }
}

/// SPSA's learning rate at the end of a tuning run (OpenBench's `r_end`), the same for all.
pub const SPSA_R_END: f64 = 0.002;

/// Declares each tunable as a static and lists them all in [`TUNABLES`].
macro_rules! tunables {
    ($($(#[$doc:meta])* $ident:ident = $name:literal, $default:expr, $min:expr, $max:expr, $c_end:expr;)*) => {
        $(
            $(#[$doc])*
            pub static $ident: Tunable = Tunable::new($name, $default, $min, $max, $c_end);
        )*
        /// Every tunable, in the order `escaque tunables` prints them.
        pub static TUNABLES: &[&Tunable] = &[$(&$ident),*];
    };
}

tunables! {
    /// Aspiration window half-width at the first try.
    ASPIRATION_DELTA = "AspirationDelta", 20, 5, 100, 2.0;
    /// Aspiration windows are used from this depth on.
    ASPIRATION_MIN_DEPTH = "AspirationMinDepth", 4, 1, 10, 0.5;
    /// Reverse futility: margin per depth (of depth less one when improving).
    RFP_MARGIN = "RfpMargin", 75, 20, 200, 6.0;
    /// Reverse futility: the deepest depth it applies at.
    RFP_MAX_DEPTH = "RfpMaxDepth", 8, 2, 14, 0.5;
    /// Null move: minimum depth.
    NMP_MIN_DEPTH = "NmpMinDepth", 3, 1, 8, 0.5;
    /// Null move reduction: base, plus depth over the divisor, plus (eval - beta) over the eval
    /// divisor up to the eval maximum.
    NMP_BASE = "NmpBase", 3, 1, 6, 0.5;
    NMP_DEPTH_DIV = "NmpDepthDiv", 3, 1, 8, 0.5;
    NMP_EVAL_DIV = "NmpEvalDiv", 200, 50, 600, 15.0;
    NMP_EVAL_MAX = "NmpEvalMax", 3, 0, 6, 0.5;
    /// Futility pruning of quiets: base and per-depth margin, deepest (reduced) depth.
    FP_BASE = "FpBase", 90, 0, 300, 8.0;
    FP_MARGIN = "FpMargin", 100, 20, 300, 8.0;
    FP_MAX_DEPTH = "FpMaxDepth", 8, 2, 14, 0.5;
    /// Futility pruning: the margin added when the static evaluation improves (0: improving
    /// plays no part). At 50 against 0: −2.6 ± 18.9 (400 games, 10+0.1, net9), no measurable
    /// loss; SPSA sizes it.
    FP_IMPROVING = "FpImproving", 50, 0, 200, 6.0;
    /// SEE pruning thresholds per (reduced) depth: quiets, captures; the deepest depth.
    SEE_QUIET_MARGIN = "SeeQuietMargin", -60, -200, -10, 5.0;
    SEE_NOISY_MARGIN = "SeeNoisyMargin", -90, -250, -10, 6.0;
    SEE_MAX_DEPTH = "SeeMaxDepth", 8, 2, 14, 0.5;
    /// Singular extensions: minimum depth, how far below the stored depth the entry may be, and
    /// the margin below the stored score, per ply of depth, in centipawns.
    SE_MIN_DEPTH = "SeMinDepth", 8, 4, 14, 0.5;
    SE_TT_DEPTH_SLACK = "SeTtDepthSlack", 3, 1, 6, 0.5;
    SE_MARGIN_PER_DEPTH = "SeMarginPerDepth", 2, 1, 8, 0.5;
    /// Late-move reductions: `base + ln(depth) ln(moves) / divisor` plies, both in hundredths.
    LMR_BASE = "LmrBase", 75, 0, 200, 8.0;
    LMR_DIVISOR = "LmrDivisor", 225, 100, 400, 10.0;
    /// Late-move reductions: the least depth (at least 2, so that a reduced move keeps a ply:
    /// the reduction is clamped to `1..=depth - 1`), and how much quiet history is one ply.
    LMR_MIN_DEPTH = "LmrMinDepth", 3, 2, 6, 0.5;
    LMR_HISTORY_DIV = "LmrHistoryDiv", 8192, 2048, 32768, 500.0;
    /// Late quiet root moves: the table's reduction less this many plies.
    LMR_ROOT_OFFSET = "LmrRootOffset", 1, 0, 3, 0.5;
    /// History bonus (and malus) at `depth`: `mul * depth - sub`, at most `max`.
    HISTORY_BONUS_MUL = "HistoryBonusMul", 170, 50, 400, 10.0;
    HISTORY_BONUS_SUB = "HistoryBonusSub", 100, 0, 400, 10.0;
    HISTORY_BONUS_MAX = "HistoryBonusMax", 1700, 500, 4000, 100.0;
    /// Late-move pruning: `base + pct * depth^2 / 100` quiets, halved when not improving.
    LMP_BASE = "LmpBase", 3, 0, 10, 0.5;
    LMP_DEPTH_PCT = "LmpDepthPct", 100, 30, 200, 6.0;
    /// History pruning of quiets (switch): the deepest (reduced) depth, and the history below
    /// `-margin * depth` that prunes. On: on against off +2.6 ± 20.2 (400 games, 10+0.1, net9).
    HISTORY_PRUNING = "HistoryPruning", 1, 0, 1, 0.0;
    HISTORY_PRUNING_MAX_DEPTH = "HistoryPruningMaxDepth", 3, 1, 8, 0.5;
    HISTORY_PRUNING_MARGIN = "HistoryPruningMargin", 3000, 500, 8000, 200.0;
    /// Razoring (switch): the deepest depth, and the margin per depth below alpha. Off: on
    /// against off lost −8.7 ± 19.7 (400 games, 10+0.1, net9).
    RAZORING = "Razoring", 0, 0, 1, 0.0;
    RAZORING_MAX_DEPTH = "RazoringMaxDepth", 3, 1, 6, 0.5;
    RAZORING_MARGIN = "RazoringMargin", 250, 50, 800, 15.0;
    /// Late-move reductions of captures and promotions (switch): the table's reduction less
    /// the offset, less a ply per `history div` of capture history. On: on against off
    /// +9.6 ± 19.2 (400 games, 10+0.1, net9).
    NOISY_LMR = "NoisyLmr", 1, 0, 1, 0.0;
    NOISY_LMR_OFFSET = "NoisyLmrOffset", 1, 0, 3, 0.5;
    NOISY_LMR_HISTORY_DIV = "NoisyLmrHistoryDiv", 8192, 2048, 32768, 500.0;
    /// Move ordering: capture history over this, added to 8 times the victim's value.
    CAPTURE_HISTORY_ORDER_DIV = "CaptureHistoryOrderDiv", 32, 4, 128, 3.0;
    /// Continuation history of the move four plies back: its weight in the quiet history, in
    /// percent (0: not used, and not updated). Off: at 100 against 0 it lost −16.5 ± 20.9
    /// (400 games, 10+0.1, net9).
    CONT_HIST_4_WEIGHT = "ContHist4Weight", 0, 0, 200, 8.0;
    /// ProbCut (switch), its least depth, the depth it takes off the verifying search (3, not
    /// the usual 4: at 4 the mate battery's mate in four 4r3/p1k5/1pp2p2/P7/2PP1q2/2BP4/6PP/
    /// 2r3RK b comes a ply too late, at any margin from 150 to 350), and its margin above beta
    /// (less the improving margin when the static evaluation improves). On: on against off
    /// +3.5 ± 19.4 (400 games, 10+0.1, net9).
    PROBCUT = "ProbCut", 1, 0, 1, 0.0;
    PROBCUT_MIN_DEPTH = "ProbCutMinDepth", 5, 3, 10, 0.5;
    PROBCUT_REDUCTION = "ProbCutReduction", 3, 2, 6, 0.5;
    PROBCUT_MARGIN = "ProbCutMargin", 200, 80, 400, 10.0;
    PROBCUT_IMPROVING = "ProbCutImproving", 50, 0, 150, 5.0;
    /// Quiet moves that give check at the first quiescence ply (switch). Off: on against off
    /// lost, −15.6 ± 20.9 Elo (400 games, 10+0.1, net4, scripts/technique-matches).
    QS_CHECKS = "QsChecks", 0, 0, 1, 0.0;
}

/// History bonus (and malus) for a move at `depth`.
#[inline(always)]
pub fn history_bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_MUL.get() * depth - HISTORY_BONUS_SUB.get()).clamp(0, HISTORY_BONUS_MAX.get())
}

/// Late-move pruning: quiets searched before the rest are skipped.
#[inline(always)]
pub fn lmp_threshold(depth: i32, improving: bool) -> usize {
    let base = LMP_BASE.get() + LMP_DEPTH_PCT.get() * depth * depth / 100;
    (if improving { base } else { base / 2 }) as usize
}

/// Late-move reductions, `[depth][move number]`, in plies, from [`LMR_BASE`] and
/// [`LMR_DIVISOR`] (rebuilt when a tunable changes).
static LMR: Lazy<[[AtomicI32; 64]; 64]> = Lazy::new(|| {
    let table = [const { [const { AtomicI32::new(0) }; 64] }; 64];
    fill_lmr_table(&table);
    table
});

fn fill_lmr_table(table: &[[AtomicI32; 64]; 64]) {
    let base = f64::from(LMR_BASE.get()) / 100.0;
    let divisor = f64::from(LMR_DIVISOR.get()) / 100.0;
    for (depth, row) in table.iter().enumerate().skip(1) {
        for (moves, r) in row.iter().enumerate().skip(1) {
            let plies = (base + (depth as f64).ln() * (moves as f64).ln() / divisor) as i32;
            r.store(plies, Ordering::Relaxed);
        }
    }
}

fn rebuild_lmr_table() {
    fill_lmr_table(&LMR);
}

#[inline(always)]
pub fn lmr(depth: i32, moves: usize) -> i32 {
    LMR[(depth as usize).min(63)][moves.min(63)].load(Ordering::Relaxed)
}

/// The tunable named `name` (case-insensitive), if any.
pub fn find_tunable(name: &str) -> Option<&'static Tunable> {
    TUNABLES
        .iter()
        .copied()
        .find(|t| t.name.eq_ignore_ascii_case(name.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_well_formed() {
        let mut names = std::collections::HashSet::new();
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert!(
                t.c_end > 0.0 || t.is_switch(),
                "{}: neither a step for SPSA nor a switch",
                t.name
            );
            assert!(
                t.name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_uppercase())
                    && t.name.chars().all(|c| c.is_ascii_alphanumeric()),
                "{} is not CamelCase",
                t.name
            );
            assert!(
                names.insert(t.name.to_ascii_lowercase()),
                "{} twice",
                t.name
            );
        }
        // Reductions leave a reduced move at least one ply (see LMR_MIN_DEPTH).
        assert!(LMR_MIN_DEPTH.min >= 2);
        // Divisors never reach zero.
        for t in [
            &NMP_DEPTH_DIV,
            &NMP_EVAL_DIV,
            &LMR_DIVISOR,
            &LMR_HISTORY_DIV,
            &NOISY_LMR_HISTORY_DIV,
            &CAPTURE_HISTORY_ORDER_DIV,
        ] {
            assert!(t.min > 0, "{}", t.name);
        }
    }

    #[test]
    fn spsa_lines_follow_openbench() {
        assert_eq!(
            RFP_MARGIN.spsa_line(),
            "RfpMargin, int, 75, 20, 200, 6, 0.002"
        );
        assert_eq!(
            SEE_QUIET_MARGIN.spsa_line(),
            "SeeQuietMargin, int, -60, -200, -10, 5, 0.002"
        );
        assert_eq!(
            find_tunable(" rfpmargin ").map(|t| t.name),
            Some("RfpMargin")
        );
        assert!(find_tunable("Hash").is_none());
    }

    #[test]
    fn the_default_lmr_table_is_the_formula() {
        // (Read only: a test that set a tunable would change the searches of the tests that
        // run beside it in this process.)
        assert_eq!(lmr(1, 1), 0);
        assert_eq!(lmr(10, 10), (0.75 + 10f64.ln() * 10f64.ln() / 2.25) as i32);
        assert_eq!(lmr(63, 63), lmr(200, 500));
    }
}
