//! Iterative deepening with aspiration windows and MultiPV: what each search thread runs; the
//! main thread (id 0) also reports and asks the time manager when to stop.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::alphabeta::Searcher;
use super::params::*;
use super::report::{to_uci_score, Bound, Reporter, SearchInfo};
use super::thread::{Shared, ThreadData};
use crate::types::Move;

impl ThreadData {
    /// Iterative deepening. The main thread (id 0) reports and manages time; helpers just search.
    pub fn iterative_deepening(&mut self, sh: &Shared, reporter: &dyn Reporter) {
        let request = sh.request;
        let max_depth = sh.time.max_depth();
        let multipv = request.multipv.clamp(1, self.root_moves.len().max(1));
        let main = self.id == 0;
        let mut effort = SearchEffort::default();
        for depth in 1..=max_depth {
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
                rm.nodes = 0;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(sh, depth, reporter);
                if self.stopped {
                    break;
                }
                self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if !main {
                continue;
            }
            self.flush_nodes(sh);
            for i in 0..multipv {
                reporter.info(&self.info(sh, i, depth));
            }
            let nodes = sh.nodes.load(Ordering::Relaxed);
            let pondering = sh.signals.pondering.load(Ordering::Acquire);
            let iteration_nodes: u64 = self.root_moves.iter().map(|rm| rm.nodes).sum();
            let best = &self.root_moves[0];
            let soft_scale = effort.next(
                best.mv,
                best.score,
                best.nodes as f64 / iteration_nodes.max(1) as f64,
            );
            if sh
                .time
                .stop_after_iteration(depth, best.score, nodes, pondering, soft_scale)
            {
                break;
            }
        }
    }

    /// Aspiration windows: search around the last score and widen on a fail. Match against the
    /// same build searching every depth with a full window, on the network (3+0.03 s, Hash 16,
    /// seed 105): +96.7 ± 40.7 Elo, 140 games (LOS 100%).
    fn aspiration(&mut self, sh: &Shared, depth: i32, reporter: &dyn Reporter) {
        let prev = self.root_moves[self.pv_idx].prev_score;
        let mut delta = ASPIRATION_DELTA.get();
        let (mut alpha, mut beta) =
            if depth >= ASPIRATION_MIN_DEPTH.get() && prev.abs() <= TB_WIN_BOUND {
                ((prev - delta).max(-INF), (prev + delta).min(INF))
            } else {
                (-INF, INF)
            };
        loop {
            // Scores from an earlier pass are stale: a move the pass does not reach (the search is
            // stopped or the root fails high) must not sort above the moves it did search.
            for rm in &mut self.root_moves[self.pv_idx + 1..] {
                rm.score = -INF;
            }
            let score = Searcher::new(self, sh).search_root(depth, alpha, beta);
            // Stable sort: moves not (re)searched keep their order behind the best.
            self.root_moves[self.pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                return;
            }
            if score <= alpha {
                // Fail low: widen downwards, pull beta towards the middle.
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
                self.root_moves[self.pv_idx].bound = Bound::Upper;
            } else if score >= beta {
                beta = (score + delta).min(INF);
                self.root_moves[self.pv_idx].bound = Bound::Lower;
            } else {
                self.root_moves[self.pv_idx].bound = Bound::Exact;
                return;
            }
            if self.id == 0 && sh.time.elapsed() > Duration::from_secs(2) {
                self.flush_nodes(sh);
                reporter.info(&self.info(sh, self.pv_idx, depth));
            }
            delta += delta / 2;
        }
    }

    /// The `info` for MultiPV line `i` (0-based).
    pub fn info(&self, sh: &Shared, i: usize, depth: i32) -> SearchInfo {
        let rm = &self.root_moves[i];
        let mut score = if rm.score == -INF {
            rm.prev_score
        } else {
            rm.score
        };
        let mut tablebase_draw = false;
        if let Some(tb_score) = rm.tb_score {
            if score.abs() < MATE_BOUND {
                score = tb_score;
                tablebase_draw = tb_score.abs() <= TB_WIN_BOUND;
            }
        }
        let bound = if i < self.pv_idx || rm.score == -INF {
            Bound::Exact
        } else {
            rm.bound
        };
        SearchInfo {
            depth,
            seldepth: rm.seldepth.max(1) as i32,
            multipv: i + 1,
            score: to_uci_score(score),
            bound,
            value: score,
            tablebase_draw,
            nodes: sh.nodes.load(Ordering::Relaxed),
            time_ms: sh.time.elapsed().as_millis() as u64,
            hashfull: sh.tt.hashfull(),
            tbhits: sh.tb.hits(),
            pv: rm.pv.clone(),
        }
    }
}

/// What the main thread's iterations said so far, for the time manager: how many iterations in
/// a row kept the best move, and the last best score.
#[derive(Default)]
struct SearchEffort {
    best: Move,
    stable_iterations: u32,
    score: Option<i32>,
}

impl SearchEffort {
    /// Records an iteration (its best move and score, and the share of its nodes spent on that
    /// move) and returns the factor for the soft time limit (see `time::soft_scale`).
    fn next(&mut self, best: Move, score: i32, best_share: f64) -> f64 {
        if best == self.best {
            self.stable_iterations += 1;
        } else {
            self.best = best;
            self.stable_iterations = 0;
        }
        let drop = self.score.map_or(0, |previous| previous - score);
        self.score = Some(score);
        super::time::soft_scale(self.stable_iterations, best_share, drop)
    }
}
