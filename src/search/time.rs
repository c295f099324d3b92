//! The time manager: every "should the search stop?" decision lives here. [`TimeManager`] is
//! made once per search from the `go` limits and answers the main search thread at two points:
//! during an iteration ([`TimeManager::out_of_time`], [`TimeManager::out_of_nodes`]: the hard
//! time limit and the node limit) and
//! after one ([`TimeManager::stop_after_iteration`]: the soft time limit, datagen's soft node
//! limit, `go mate`, a confirmed mate, the depth limit). Rules that adapt to the search (best-move
//! stability, the share of nodes on the best move) belong here too.
//!
//! The clock rules are deliberately conservative, because losing on time loses the whole game:
//! * `Move Overhead` (GUI and pipe latency) is taken off every clock and off `movetime`;
//! * one move never uses more than half of what is left after the overhead, so even a
//!   `movestogo 1` bank is not spent on a single move;
//! * the current increment is counted at most three quarters (GUIs have already added it to
//!   the clock we are given, see UCI-CHECKLIST item 56);
//! * the clock is kept above a reserve of [`RESERVE_MS`] after the move and its increment where
//!   possible: when it is lower, the engine spends about a quarter of the increment and the
//!   increments rebuild it, so a scheduling hiccup in a bullet game does not flag;
//! * in sudden death (no `movestogo`, an increment smaller than `Move Overhead`) the clock
//!   never grows back, so the reserve is 50 overheads (500 ms at the default): below it every
//!   move is played at once, and it lasts hundreds of moves;
//! * with fewer than ten increments on the clock a move spends at most half an increment
//!   (one at most), so latency charged to our clock cannot drain it move after move;
//! * every budget is at least 1 ms, so the search always returns a move even on a 1 ms clock;
//! * with a single legal move, a sixteenth of the soft limit (at most 100 ms): enough for a
//!   score and PV that agree with what the engine knows, and the time is saved (UCI-CHECKLIST
//!   item 60).

use std::time::{Duration, Instant};

use super::limits::Limits;
use super::params::{MATE, MATE_BOUND, MAX_PLY};
use crate::types::Color;

/// When the search must stop by the clock, from the `go` limits: `soft`: no new iteration after
/// it; `hard`: abort at once.
#[derive(Copy, Clone, Debug)]
struct TimeBudget {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeBudget {
    fn unlimited(start: Instant) -> TimeBudget {
        TimeBudget {
            start,
            soft: None,
            hard: None,
        }
    }
}

/// A single legal move is played after a short search (a sixteenth of the soft limit, at most
/// this): its score and PV then agree with what a real search knows (a first iteration alone
/// reported scores and mates its next searches contradicted), and the time is saved.
const SINGLE_MOVE_MAX: Duration = Duration::from_millis(100);

/// Every stop rule of one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    budget: TimeBudget,
    max_depth: i32,
    node_limit: Option<u64>,
    level_nodes: Option<u64>,
    soft_nodes: Option<u64>,
    mate_moves: Option<i32>,
    /// Whether the soft limit adapts to the search (clock games with a choice of moves; a
    /// `movetime` is spent as asked, a single legal move keeps its short search).
    adaptive: bool,
}

impl TimeManager {
    /// The rules for a search of `limits` with `root_moves` moves to choose from, for the side
    /// `stm`, whose clock started at `start` (when the `go` was read), `overhead_ms` being the
    /// `Move Overhead` option.
    pub fn new(
        limits: &Limits,
        stm: Color,
        overhead_ms: u64,
        start: Instant,
        root_moves: usize,
    ) -> TimeManager {
        let mut budget = budget(limits, stm, overhead_ms, start);
        if root_moves == 1 {
            budget.soft = budget.soft.map(|soft| (soft / 16).min(SINGLE_MOVE_MAX));
        }
        TimeManager {
            budget,
            max_depth: limits
                .depth
                .unwrap_or(MAX_PLY as i32 - 1)
                .clamp(1, MAX_PLY as i32 - 1),
            node_limit: limits.nodes,
            level_nodes: limits.level_nodes,
            soft_nodes: limits.soft_nodes,
            mate_moves: limits.mate,
            adaptive: root_moves > 1 && limits.movetime.is_none(),
        }
    }

    /// Time since the clock started.
    pub fn elapsed(&self) -> Duration {
        self.budget.start.elapsed()
    }

    /// The deepest iteration to search.
    pub fn max_depth(&self) -> i32 {
        self.max_depth
    }

    /// Whether a node limit is set (the main thread then counts every node against it).
    pub fn has_node_limit(&self) -> bool {
        self.node_limit.is_some() || self.level_nodes.is_some()
    }

    /// Whether, once the first iteration is complete (`first_done`), `nodes` reached the node
    /// limit (`go nodes`, datagen's hard cap) or the level's cap: stop at once. The first
    /// iteration always completes, so every move played was searched (`go nodes 0` too).
    #[inline(always)]
    pub fn out_of_nodes(&self, nodes: u64, first_done: bool) -> bool {
        first_done
            && (self.node_limit.is_some_and(|limit| nodes >= limit)
                || self.level_nodes.is_some_and(|limit| nodes >= limit))
    }

    /// Whether the hard time limit has passed: abort the iteration at once. Pondering is never
    /// out of time: the clock runs from `go ponder`, but is enforced from `ponderhit` on.
    pub fn out_of_time(&self, pondering: bool) -> bool {
        !pondering && self.budget.hard.is_some_and(|hard| self.elapsed() >= hard)
    }

    /// After an iteration of `depth` whose best score is `best` (internal units), with `nodes`
    /// searched in all: whether to stop rather than start another. The soft time limit is
    /// scaled by `soft_scale` (see [`soft_scale`]), never beyond the hard limit.
    pub fn stop_after_iteration(
        &self,
        depth: i32,
        best: i32,
        nodes: u64,
        pondering: bool,
        soft_scale: f64,
    ) -> bool {
        if depth >= self.max_depth {
            return true;
        }
        // A mate within the `go mate` limit.
        if self
            .mate_moves
            .is_some_and(|mate| best >= MATE_BOUND && (MATE - best + 1) / 2 <= mate)
        {
            return true;
        }
        if self.soft_nodes.is_some_and(|soft| nodes >= soft) {
            return true;
        }
        let soft = self.budget.soft.map(|soft| {
            if !self.adaptive {
                return soft;
            }
            let scaled = soft.mul_f64(soft_scale.clamp(MIN_SOFT_SCALE, MAX_SOFT_SCALE));
            scaled.min(self.budget.hard.unwrap_or(scaled))
        });
        if !pondering && soft.is_some_and(|soft| self.elapsed() >= soft) {
            return true;
        }
        // A forced mate found and confirmed a few plies deeper: more depth will not change it
        // (on the clock only: `go depth` and `go infinite` searches go on as asked).
        best.abs() >= MATE_BOUND
            && depth > 2 * (MATE - best.abs()) + 4
            && self.budget.soft.is_some()
    }
}

/// Bounds of the soft limit's scale.
const MIN_SOFT_SCALE: f64 = 0.4;
const MAX_SOFT_SCALE: f64 = 2.5;
/// Soft-limit factor by how many iterations in a row kept the best move (0, 1, 2, 3, 4+).
const STABILITY_SCALE: [f64; 5] = [2.2, 1.4, 1.1, 0.9, 0.75];

/// How much of the soft limit to use, from what the iterations said: more when the best move
/// keeps changing, when it took a small share of the nodes (other moves came close: its
/// refutation took work) or when the score drops (by `score_drop` centipawns since the previous
/// iteration); less when one move has been best for several iterations and took most of the
/// search. Between 0.4 and 2.5. Match against the same build with a fixed soft limit: +11.6 ±
/// 27.1 Elo, 300 games at 3+0.03 s (seed 82, LOS 80%; not resolved, kept for its positive
/// estimate).
pub fn soft_scale(stable_iterations: u32, best_share: f64, score_drop: i32) -> f64 {
    let stability = STABILITY_SCALE[(stable_iterations as usize).min(STABILITY_SCALE.len() - 1)];
    let best_share = if best_share.is_nan() {
        1.0
    } else {
        best_share.clamp(0.0, 1.0)
    };
    let share = (1.5 - best_share) * 1.35;
    let drop = (1.0 + f64::from(score_drop.clamp(-100, 100)) * 0.01).clamp(0.85, 1.5);
    (stability * share * drop).clamp(MIN_SOFT_SCALE, MAX_SOFT_SCALE)
}

/// Moves assumed to remain in a sudden-death game (no `movestogo`).
const MOVES_HORIZON: u64 = 25;
/// `movestogo` values above this are treated as this (some GUIs send the whole game's count).
const MAX_MOVES_TO_GO: u64 = 50;
/// The hard limit is at most this many times the soft limit.
const HARD_FACTOR: u64 = 5;
/// Below this many increments on the clock, a move spends at most one increment.
const LOW_CLOCK_INCREMENTS: u64 = 10;
/// What the clock should still show after the move (and its increment), in milliseconds.
pub const RESERVE_MS: u64 = 100;
/// Without an increment that pays for the latency of a move (less than `Move Overhead`) and
/// without `movestogo`, the clock never grows back: it must last however long the game does.
/// The reserve is then this many moves at `Move Overhead` each (500 ms at the default 10 ms,
/// Stockfish keeps a similar ~50 overheads): a move below it is played at once, so the reserve
/// lasts hundreds of moves at the real latency of about a millisecond. With 100 ms, a 475-ply
/// game at 10+0 flagged at move 241 (issue 24).
const SUDDEN_DEATH_RESERVE_MOVES: u64 = 50;

/// The clock budget for one search. `start` is when the `go` command was read (the clock starts
/// there); `overhead_ms` is the `Move Overhead` option; `stm` the side to move.
///
/// * `ponder` searches get the same budget as a normal search, counted from `go ponder` like
///   any other; the search enforces it only after `ponderhit`. `infinite` gets no limit at all.
/// * `movetime T`: both limits are `T - overhead` (at least 1 ms).
/// * `wtime`/`btime` (with `winc`/`binc`/`movestogo`): see the module notes. If only the
///   opponent's clock is given, ours counts as 0 ms: the engine moves at once.
/// * Otherwise (depth, nodes, mate, or nothing): no time limit.
///
/// When both `movetime` and a clock are given, the smaller budget wins.
fn budget(limits: &Limits, stm: Color, overhead_ms: u64, start: Instant) -> TimeBudget {
    if limits.infinite {
        return TimeBudget::unlimited(start);
    }
    let mut soft_hard: Option<(u64, u64)> = None;
    if let Some(movetime) = limits.movetime {
        let t = movetime.saturating_sub(overhead_ms).max(1);
        soft_hard = Some((t, t));
    }
    if limits.wtime.is_some() || limits.btime.is_some() {
        let (time, inc) = match stm {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let clock = clock_budget(
            time.unwrap_or(0),
            inc.unwrap_or(0),
            limits.movestogo,
            overhead_ms,
        );
        soft_hard = Some(match soft_hard {
            Some((s, h)) => (s.min(clock.0), h.min(clock.1)),
            None => clock,
        });
    }
    match soft_hard {
        Some((soft, hard)) => TimeBudget {
            start,
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
        },
        None => TimeBudget::unlimited(start),
    }
}

/// (soft, hard) in milliseconds for a clock of `time` ms with `inc` ms increment. Saturating
/// arithmetic throughout: a GUI may send any u64 (`wtime 7378697629483820658` once overflowed
/// the hard limit to a few milliseconds).
fn clock_budget(time: u64, inc: u64, movestogo: Option<u32>, overhead_ms: u64) -> (u64, u64) {
    let usable = time.saturating_sub(overhead_ms);
    let movestogo = movestogo.filter(|&m| m > 0);
    let sudden_death = movestogo.is_none() && inc < overhead_ms;
    let reserve = if sudden_death {
        RESERVE_MS.max(SUDDEN_DEATH_RESERVE_MOVES.saturating_mul(overhead_ms))
    } else {
        RESERVE_MS
    };
    let base = match movestogo {
        Some(mtg) => usable / (u64::from(mtg).min(MAX_MOVES_TO_GO) + 1),
        // In sudden death only what lies above the reserve is shared out, so the clock falls
        // towards the reserve geometrically and moves become instant only gradually.
        None if sudden_death => usable.saturating_sub(reserve) / MOVES_HORIZON,
        None => usable / MOVES_HORIZON,
    };
    let soft = base.saturating_add(inc.min(usable).saturating_mul(3) / 4);
    let keep_reserve = time
        .saturating_add(inc)
        .saturating_sub(reserve.saturating_add(overhead_ms));
    // Below the reserve, a quarter of the increment still buys a shallow search.
    let floor = (inc / 4).min(usable / 2).max(1);
    let mut hard = soft
        .saturating_mul(HARD_FACTOR)
        .min(usable / 2)
        .min(keep_reserve)
        .max(floor);
    let mut soft = soft;
    // With fewer than LOW_CLOCK_INCREMENTS increments on the clock, live below the increment
    // (half of it, one at most) so the clock grows back: GUI latency and a loaded machine are
    // charged to our clock on every move, and a drained clock flags on the first spike.
    if inc > 0 && usable < LOW_CLOCK_INCREMENTS.saturating_mul(inc) {
        soft = soft.min(inc / 2);
        hard = hard.min(inc).max(1);
    }
    (soft.clamp(1, hard), hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Option<Duration>) -> u64 {
        d.expect("a limit").as_millis() as u64
    }

    fn clock(wtime: u64, winc: u64, movestogo: Option<u32>) -> Limits {
        Limits {
            wtime: Some(wtime),
            winc: Some(winc),
            movestogo,
            ..Limits::default()
        }
    }

    #[test]
    fn no_clock_means_no_limit() {
        let now = Instant::now();
        for limits in [
            Limits::default(),
            Limits {
                depth: Some(5),
                ..Limits::default()
            },
            Limits {
                nodes: Some(1000),
                ..Limits::default()
            },
            Limits {
                infinite: true,
                wtime: Some(1000),
                ..Limits::default()
            },
        ] {
            let b = budget(&limits, Color::White, 10, now);
            assert!(b.soft.is_none() && b.hard.is_none(), "{limits:?}");
            assert_eq!(b.start, now);
        }
    }

    #[test]
    fn movetime_takes_off_the_overhead() {
        let limits = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        let b = budget(&limits, Color::White, 10, Instant::now());
        assert_eq!((ms(b.soft), ms(b.hard)), (990, 990));
        let limits = Limits {
            movetime: Some(5),
            ..Limits::default()
        };
        let b = budget(&limits, Color::Black, 10, Instant::now());
        assert_eq!((ms(b.soft), ms(b.hard)), (1, 1));
    }

    #[test]
    fn uses_the_side_to_moves_clock() {
        let limits = Limits {
            wtime: Some(60_000),
            btime: Some(1_000),
            winc: Some(0),
            binc: Some(0),
            ..Limits::default()
        };
        let white = budget(&limits, Color::White, 10, Instant::now());
        let black = budget(&limits, Color::Black, 10, Instant::now());
        assert!(ms(white.hard) > 10 * ms(black.hard));
    }

    #[test]
    fn missing_own_clock_moves_at_once() {
        let limits = Limits {
            btime: Some(100_000),
            ..Limits::default()
        };
        let b = budget(&limits, Color::White, 10, Instant::now());
        assert_eq!((ms(b.soft), ms(b.hard)), (1, 1));
    }

    #[test]
    fn never_more_than_half_the_usable_time() {
        for time in [
            0, 1, 5, 10, 11, 20, 50, 100, 1000, 10_000, 100_000, 10_000_000,
        ] {
            for inc in [0, 10, 100, 1000, 100_000] {
                for mtg in [None, Some(1), Some(2), Some(40), Some(1000)] {
                    let (soft, hard) = clock_budget(time, inc, mtg, 10);
                    let usable = time.saturating_sub(10);
                    assert!(
                        soft >= 1 && soft <= hard,
                        "{time} {inc} {mtg:?}: {soft} {hard}"
                    );
                    assert!(hard <= (usable / 2).max(1), "{time} {inc} {mtg:?}: {hard}");
                }
            }
        }
    }

    #[test]
    fn sudden_death_allocation() {
        // 1+0.01 s: a few tens of milliseconds per move, hard limit well within the clock.
        let (soft, hard) = clock_budget(1000, 10, None, 10);
        assert!((30..=60).contains(&soft), "{soft}");
        assert!(hard <= 495);
        // 60 s: about 2.4 s per move.
        let (soft, _) = clock_budget(60_000, 0, None, 10);
        assert!((2000..=3000).contains(&soft), "{soft}");
    }

    #[test]
    fn low_clocks_rebuild_the_reserve() {
        // Below the reserve the engine moves at once and lives on the increment.
        for time in [0, 1, 20, 60, 99] {
            let (soft, hard) = clock_budget(time, 10, None, 10);
            assert!(soft <= hard && hard <= 2, "{time}: {soft} {hard}");
        }
        // Just above it, it spends only what keeps the reserve.
        let (_, hard) = clock_budget(150, 10, None, 10);
        assert_eq!(hard, 50);
    }

    #[test]
    fn a_clock_of_few_increments_grows_back() {
        // 10+0.1 late in a game: under a second left, every move spends less than the increment.
        for time in [150, 300, 600, 900, 1000] {
            let (soft, hard) = clock_budget(time, 100, None, 10);
            assert!(soft <= 50 && hard <= 100, "{time}: {soft} {hard}");
        }
        // With ten increments or more in hand, the normal allocation applies again.
        let (soft, _) = clock_budget(2000, 100, None, 10);
        assert!(soft > 100, "{soft}");
    }

    /// Issue 24: a 475-ply game at 10+0 flagged at move 241 with a 100 ms reserve. A game of
    /// 300 moves a side (150 at 1+0), each move spending one and a half soft limits (never beyond
    /// the hard one) plus a millisecond of latency, never runs out of clock; nor one that spends the hard
    /// limit every move with the latency `Move Overhead` allows for.
    #[test]
    fn sudden_death_lasts_a_long_game() {
        for start in [1_000, 3_000, 10_000, 60_000, 300_000] {
            for (overhead, latency, hard_every_move, moves) in
                [(10, 1, false, 300), (10, 10, true, 45), (50, 5, false, 300)]
            {
                let mut clock: u64 = start;
                let moves = if start < 3_000 { moves.min(150) } else { moves };
                for m in 0..moves {
                    let (soft, hard) = clock_budget(clock, 0, None, overhead);
                    let spent = if hard_every_move {
                        hard
                    } else {
                        (3 * soft / 2).min(hard)
                    };
                    assert!(
                        spent + latency < clock,
                        "{start}+0 overhead {overhead}: flagged at move {m} ({clock} ms left)"
                    );
                    clock -= spent + latency;
                }
            }
        }
        // The reserve is for clocks that cannot grow: with an increment or movestogo it is the
        // usual 100 ms.
        assert_eq!(clock_budget(150, 10, None, 10).1, 50);
        // (with the sudden-death reserve, 300 ms would leave nothing to spend)
        assert_eq!(clock_budget(300, 0, Some(40), 10).1, 35);
        assert_eq!(clock_budget(500, 0, None, 10), (1, 1));
    }

    #[test]
    fn movestogo_one_keeps_half_the_bank() {
        let (soft, hard) = clock_budget(10_000, 0, Some(1), 10);
        assert!(hard <= 4995 && soft <= hard);
        // More moves to go: less per move.
        let (soft40, _) = clock_budget(10_000, 0, Some(40), 10);
        assert!(soft40 < soft / 10);
    }

    /// Issue 13: `go wtime 7378697629483820658 movestogo 1` moved at once (5 × soft overflowed)
    /// while a clock 58 ms smaller thought for the full time.
    #[test]
    fn huge_clocks_do_not_overflow() {
        let limits = Limits {
            wtime: Some(7_378_697_629_483_820_658),
            movestogo: Some(1),
            ..Limits::default()
        };
        let b = budget(&limits, Color::White, 10, Instant::now());
        let half = (7_378_697_629_483_820_658u64 - 10) / 2;
        assert_eq!((ms(b.soft), ms(b.hard)), (half, half));
        for time in [u64::MAX / 5, u64::MAX / 2, u64::MAX - 1, u64::MAX] {
            for inc in [0, 10, u64::MAX / 4, u64::MAX] {
                for mtg in [None, Some(1), Some(u32::MAX)] {
                    for overhead in [0, 10, 5000] {
                        let (soft, hard) = clock_budget(time, inc, mtg, overhead);
                        // Days of thinking at the very least, and never more than half.
                        assert!(
                            soft >= 86_400_000 && soft <= hard,
                            "{time} {inc} {mtg:?}: {soft} {hard}"
                        );
                        assert!(hard <= time.saturating_sub(overhead) / 2);
                    }
                }
            }
        }
    }

    /// More time on the clock never buys less thinking time.
    #[test]
    fn budgets_grow_with_the_clock() {
        let mut times: Vec<u64> = (0..64).map(|b| 1u64 << b).collect();
        times.extend((0..64).map(|b| (1u64 << b).wrapping_mul(3) / 2));
        times.extend([
            0,
            7_378_697_629_483_820_600,
            7_378_697_629_483_820_658,
            u64::MAX,
        ]);
        times.sort_unstable();
        for inc in [0, 10, 100, 1000, u64::MAX / 8, u64::MAX] {
            for mtg in [None, Some(1), Some(40)] {
                let mut last = (0, 0);
                for &time in &times {
                    let now = clock_budget(time, inc, mtg, 10);
                    assert!(
                        now.0 >= last.0 && now.1 >= last.1,
                        "{time} {inc} {mtg:?}: {now:?} after {last:?}"
                    );
                    last = now;
                }
            }
        }
    }

    /// The game `never_loses_on_time_at_one_second_plus_ten_ms` (tests/integration/uci_search.rs) plays over
    /// pipes, without the wall clock: even if every move ran to its hard limit and the GUI
    /// charged half an increment more for latency (the engine's overrun included), no clock
    /// runs out in 300 moves, from 1+0.01 s to 3+2 min, and with `movestogo` (each period's
    /// time added when it ends; no latency without an increment to pay for it).
    #[test]
    fn a_whole_game_on_hard_limits_never_flags() {
        let controls: [(u64, u64, Option<u32>); 11] = [
            (1010, 10, None),
            (10, 10, None),
            (100, 10, None),
            (3000, 20, None),
            (10_100, 100, None),
            (60_000, 600, None),
            (180_000, 2000, None),
            (1010, 10, Some(40)),
            (60_000, 0, Some(40)),
            (5_000, 0, Some(10)),
            (300, 0, Some(1)),
        ];
        for (start, inc, movestogo) in controls {
            let latency = inc / 2;
            let mut clock = start;
            for ply in 0..300u32 {
                let to_go = movestogo.map(|m| m - ply % m);
                let (_, hard) = clock_budget(clock, inc, to_go, 10);
                let used = hard + latency;
                assert!(
                    used < clock,
                    "{start}+{inc} movestogo {movestogo:?}: flagged at move {ply} ({clock} ms left, \
                     {used} used)"
                );
                clock = clock - used + inc;
                if to_go == Some(1) {
                    clock += start;
                }
            }
        }
    }

    #[test]
    fn clock_and_movetime_take_the_smaller() {
        let limits = Limits {
            movetime: Some(50),
            ..clock(100_000, 0, None)
        };
        let b = budget(&limits, Color::White, 10, Instant::now());
        assert_eq!(ms(b.hard), 40);
    }

    #[test]
    fn ponder_gets_a_normal_budget() {
        let limits = Limits {
            ponder: true,
            ..clock(10_000, 100, None)
        };
        let b = budget(&limits, Color::White, 10, Instant::now());
        assert!(b.soft.is_some() && b.hard.is_some());
    }

    #[test]
    fn soft_scale_spends_more_on_unsettled_searches() {
        // Unstable best move, small node share, dropping score: the most time.
        let unsettled = soft_scale(0, 0.3, 60);
        let settled = soft_scale(6, 0.95, -20);
        assert!(unsettled > 1.5 && settled < 0.8, "{unsettled} {settled}");
        assert!(soft_scale(2, 0.5, 0) > soft_scale(3, 0.5, 0));
        assert!(soft_scale(2, 0.4, 0) > soft_scale(2, 0.8, 0));
        assert!(soft_scale(2, 0.5, 30) > soft_scale(2, 0.5, 0));
        for stable in 0..10 {
            for share in [0.0, 0.5, 1.0, f64::NAN] {
                for drop in [-10_000, 0, 10_000] {
                    let scale = soft_scale(stable, share, drop);
                    assert!((MIN_SOFT_SCALE..=MAX_SOFT_SCALE).contains(&scale));
                }
            }
        }
    }

    #[test]
    fn only_clock_searches_with_a_choice_adapt_the_soft_limit() {
        let start = Instant::now() - Duration::from_millis(500);
        let tm =
            |limits: &Limits, moves: usize| TimeManager::new(limits, Color::White, 0, start, moves);
        // 25 s on the clock: soft 1000 ms (400 ms at the smallest scale); 500 ms have passed.
        let clock_game = clock(25_000, 0, None);
        assert!(tm(&clock_game, 20).stop_after_iteration(10, 0, 0, false, 0.25));
        assert!(!tm(&clock_game, 20).stop_after_iteration(10, 0, 0, false, 1.0));
        // A movetime is spent as asked, whatever the search says.
        let movetime = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        assert!(!tm(&movetime, 20).stop_after_iteration(10, 0, 0, false, 0.25));
    }
}
