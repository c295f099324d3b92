//! ProbCut: at a non-PV node, a capture that wins enough material by SEE and still holds a raised
//! beta in a reduced search proves the node would fail high, so the full search is skipped.

use super::alphabeta::Searcher;
use super::params::*;
use super::picker::MovePicker;
use crate::board::Board;
use crate::tt::{score_to_tt, Bound as TtBound};
use crate::types::Move;

impl Searcher<'_> {
    /// ProbCut at a non-PV node: the first capture or promotion whose exchange gains at
    /// least `probcut_beta - static_eval` and that holds `probcut_beta` in quiescence and then
    /// in a reduced search; its score (stored in the table as a lower bound), or `None`.
    /// `evals`: the static evaluation, corrected and raw.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn probcut(
        &mut self,
        board: &Board,
        depth: i32,
        probcut_beta: i32,
        beta: i32,
        (static_eval, raw_eval): (i32, i32),
        tt_move: Move,
        cut_node: bool,
    ) -> Option<i32> {
        let ply = self.ply;
        let key = board.hash();
        let threshold = probcut_beta - static_eval;
        let reduced = depth - PROBCUT_REDUCTION.get();
        let cont = self.td.cont_keys(ply);
        let mut picker = MovePicker::new_qsearch(tt_move, false, false, cont);
        self.td.keys.push(key);
        let mut cut = None;
        while let Some(mv) = picker.next(board, &self.td.hist) {
            if !board.see_ge(mv, threshold) {
                continue;
            }
            let moved = board.piece_on(mv.from()).expect("origin");
            let child = self.play(board, mv, moved);
            self.td.stack[ply].null_move = false;
            let mut score =
                -self.search_child::<false>(&child, 0, -probcut_beta, -probcut_beta + 1, false);
            if score >= probcut_beta && reduced > 0 {
                score = -self.search_child::<false>(
                    &child,
                    reduced,
                    -probcut_beta,
                    -probcut_beta + 1,
                    !cut_node,
                );
            }
            if self.td.stopped {
                break;
            }
            if score >= probcut_beta {
                self.sh.tt.store(
                    key,
                    mv,
                    score_to_tt(score, ply, TB_WIN_BOUND),
                    raw_eval,
                    reduced + 1,
                    TtBound::Lower,
                );
                if score.abs() < TB_WIN_BOUND {
                    cut = Some(score - (probcut_beta - beta));
                }
                break;
            }
        }
        self.td.keys.pop();
        cut
    }
}
