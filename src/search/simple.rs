//! A placeholder search (material-only negamax with iterative deepening) so the protocol can be
//! exercised end to end; the real search replaces it.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::{Bound, Reporter, Score, SearchInfo, SearchRequest, SearchSignals};
use crate::board::{Board, MoveList};
use crate::types::{Move, PieceType};

const MATE: i32 = 30_000;

struct Context<'a> {
    signals: &'a SearchSignals,
    request: &'a SearchRequest,
    nodes: u64,
    aborted: bool,
}

impl Context<'_> {
    fn should_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes % 1024 == 0 {
            let elapsed = self.request.budget.start.elapsed();
            let timed_out = !self.signals.pondering.load(Ordering::Acquire)
                && self.request.budget.hard.is_some_and(|h| elapsed >= h);
            let node_limit = self.request.limits.nodes.is_some_and(|n| self.nodes >= n);
            self.aborted = self.signals.stop.load(Ordering::Acquire) || timed_out || node_limit;
        }
        self.aborted
    }
}

fn material(board: &Board) -> i32 {
    const VALUES: [i32; 5] = [100, 300, 320, 500, 900];
    let us = board.side_to_move();
    PieceType::ALL[..5]
        .iter()
        .zip(VALUES)
        .map(|(&pt, v)| {
            v * (board.pieces_of(us, pt).count() as i32 - board.pieces_of(!us, pt).count() as i32)
        })
        .sum()
}

fn negamax(ctx: &mut Context, board: &Board, depth: i32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
    ctx.nodes += 1;
    if ctx.should_abort() {
        return 0;
    }
    let mut moves = MoveList::new();
    board.generate_all(&mut moves);
    if moves.is_empty() {
        return if board.in_check() { -MATE + ply } else { 0 };
    }
    if depth <= 0 {
        return material(board);
    }
    for mv in moves {
        let score = -negamax(ctx, &board.make_move(mv), depth - 1, ply + 1, -beta, -alpha);
        if score > alpha {
            alpha = score;
            if alpha >= beta {
                break;
            }
        }
    }
    alpha
}

pub(super) fn search(request: &SearchRequest, signals: &SearchSignals, reporter: &dyn Reporter) {
    let board = &request.board;
    let mut root_moves = board.legal_moves();
    if !request.searchmoves.is_empty() {
        root_moves.retain(|m| request.searchmoves.contains(m));
    }
    let mut ctx = Context { signals, request, nodes: 0, aborted: false };
    let mut best: Option<Move> = root_moves.first().copied();
    if root_moves.is_empty() {
        let score = if board.in_check() { Score::Mate(0) } else { Score::Centipawns(0) };
        reporter.info(&SearchInfo {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score,
            bound: Bound::Exact,
            wdl: None,
            nodes: 0,
            time_ms: 0,
            hashfull: 0,
            pv: Vec::new(),
        });
    } else {
        let max_depth = request.limits.depth.unwrap_or(64).clamp(1, 64);
        for depth in 1..=max_depth {
            let mut alpha = -MATE - 1;
            let mut depth_best = None;
            let ordered: MoveList = best.into_iter().chain(root_moves.iter().copied().filter(|&m| Some(m) != best)).collect();
            for mv in ordered {
                let score = -negamax(&mut ctx, &board.make_move(mv), depth - 1, 1, -MATE - 1, -alpha);
                if ctx.aborted {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    depth_best = Some(mv);
                }
            }
            if ctx.aborted {
                break;
            }
            best = depth_best.or(best);
            let score = if alpha.abs() > MATE - 1000 {
                let plies = MATE - alpha.abs();
                Score::Mate(alpha.signum() * (plies + 1) / 2)
            } else {
                Score::Centipawns(alpha)
            };
            let time_ms = request.budget.start.elapsed().as_millis() as u64;
            reporter.info(&SearchInfo {
                depth,
                seldepth: depth,
                multipv: 1,
                score,
                bound: Bound::Exact,
                wdl: None,
                nodes: ctx.nodes,
                time_ms,
                hashfull: 0,
                pv: best.into_iter().collect(),
            });
            let elapsed = request.budget.start.elapsed();
            let soft_done = !signals.pondering.load(Ordering::Acquire)
                && request.budget.soft.is_some_and(|s| elapsed >= s);
            if soft_done || matches!(score, Score::Mate(_)) {
                break;
            }
        }
    }
    // `go infinite` and `go ponder` never end on their own: wait for stop or ponderhit.
    while signals.hold.load(Ordering::Acquire) && !signals.stop.load(Ordering::Acquire) {
        std::thread::sleep(Duration::from_millis(1));
    }
    reporter.best_move(best, None);
}
