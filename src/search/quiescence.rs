//! Quiescence search: the tree's leaves, where only captures and promotions (all evasions in
//! check, quiet checks at the first ply where enabled) are searched until the position is quiet.

use super::alphabeta::Searcher;
use super::params::*;
use super::picker::MovePicker;
use crate::board::Board;
use crate::tt::{score_from_tt, score_to_tt, Bound as TtBound};
use crate::types::Move;

impl Searcher<'_> {
    /// Quiescence search: captures and promotions until the position is quiet (all evasions when
    /// in check), with the static evaluation as a stand-pat lower bound. `checks`: the first
    /// quiescence ply, which also tries the quiet moves that give check.
    pub(super) fn qsearch<const PV: bool>(
        &mut self,
        board: &Board,
        mut alpha: i32,
        beta: i32,
        checks: bool,
    ) -> i32 {
        let ply = self.ply;
        self.td.pv_len[ply] = ply;
        self.td.nodes += 1;
        if self.td.check_stop(self.sh) {
            return 0;
        }
        if PV {
            self.td.seldepth = self.td.seldepth.max(ply + 1);
        }
        // Only the rules the board knows: the repetition scan is the main search's, made before
        // it enters quiescence (whose moves are captures and promotions, which reset the clock,
        // and a few evasions).
        if board.is_fifty_move_or_dead_draw() {
            return DRAW;
        }
        let in_check = board.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check {
                DRAW
            } else {
                self.td.evaluate(board, ply)
            };
        }
        let key = board.hash();
        let tt = self.sh.tt.probe(key);
        let tt_score = tt.map_or(-INF, |e| score_from_tt(e.score, ply, TB_WIN_BOUND));
        if let Some(e) = tt {
            if !PV && e.bound.settles(tt_score, alpha, beta) {
                return tt_score;
            }
        }
        let mut raw_eval = -INF;
        let mut best_score = -INF;
        if !in_check {
            raw_eval = match tt {
                Some(e) if e.eval != -INF && e.eval.abs() < TB_WIN_BOUND => e.eval,
                _ => self.td.evaluate(board, ply),
            };
            best_score = self.td.corrected_eval(board, raw_eval);
            // Stand pat: the side to move can usually do at least as well as doing nothing.
            if best_score >= beta {
                if tt.is_none() {
                    self.sh.tt.store(
                        key,
                        Move::NULL,
                        score_to_tt(best_score, ply, TB_WIN_BOUND),
                        raw_eval,
                        -1,
                        TtBound::Lower,
                    );
                }
                return best_score;
            }
            alpha = alpha.max(best_score);
        }
        let orig_alpha = alpha;
        let cont = self.td.cont_keys(ply);
        // Quiet checks at the first quiescence ply (not SEE-losing ones: the SEE rule below
        // skips them): the mates and forks just past the horizon. Off by default (`QsChecks`): alone
        // it lost, −15.6 ± 20.9 on against off (400 games, 10+0.1, net4).
        let mut picker =
            MovePicker::new_qsearch(tt.map_or(Move::NULL, |e| e.mv), in_check, checks, cont);
        let mut best_move = Move::NULL;
        let mut moves = 0;
        while let Some(mv) = picker.next(board, &self.td.hist) {
            moves += 1;
            // SEE pruning: skip captures that lose material. (No delta pruning, which skipped a
            // capture whose clean gain cannot reach alpha: on the network it measured -7.5 ±
            // 38.8, 140 games (seed 104), so it was removed.)
            if !in_check && best_score > -TB_WIN_BOUND && !board.see_ge(mv, 0) {
                continue;
            }
            let moved = board.piece_on(mv.from()).expect("origin");
            let child = self.play(board, mv, moved);
            self.ply += 1;
            let score = -self.qsearch::<PV>(&child, -beta, -alpha, false);
            self.ply -= 1;
            if self.td.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    if PV {
                        self.td.update_pv(ply, mv);
                    }
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && moves == 0 {
            return -MATE + ply as i32;
        }
        let bound = TtBound::of_result(best_score, orig_alpha, beta, PV);
        self.sh.tt.store(
            key,
            best_move,
            score_to_tt(best_score, ply, TB_WIN_BOUND),
            raw_eval,
            -1,
            bound,
        );
        best_score
    }
}
