//! Accumulators: the first layer's output for both perspectives, kept up to date move by move.
//! The board is copy-make, so the search keeps one accumulator per ply and computes the child's
//! from the parent's and the move: two to four weight rows added or subtracted per perspective.

use super::features::feature_index;
use super::network::{Network, Row, HIDDEN};
use super::simd::add_sub;
use crate::board::Board;
use crate::types::{Color, Move, MoveFlag, Piece, PieceType, Square};

/// The first layer's output for White's perspective (`[0]`) and Black's (`[1]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    pub values: [Row; 2],
}

#[inline(always)]
fn feature(perspective: usize, piece: Piece, square: Square) -> usize {
    feature_index(
        perspective,
        piece.color().index(),
        piece.piece_type().index(),
        square.index(),
    )
}

impl Accumulator {
    /// Computed from scratch.
    pub fn refresh(net: &Network, board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            values: [net.feature_bias; 2],
        };
        for square in board.occupied() {
            let Some(piece) = board.piece_on(square) else {
                continue;
            };
            for (perspective, values) in acc.values.iter_mut().enumerate() {
                let row = net.row(feature(perspective, piece, square));
                let input = values.0;
                add_sub::<1, 0>(&mut values.0, &input, [&row.0], []);
            }
        }
        acc
    }

    /// The accumulator of `board.make_move(mv)`, from this one (`board`'s).
    #[inline]
    pub fn after_move(&self, net: &Network, board: &Board, mv: Move, child: &mut Accumulator) {
        let us = board.side_to_move();
        let (from, to) = (mv.from(), mv.to());
        let Some(moved) = board.piece_on(from) else {
            *child = Accumulator::refresh(net, &board.make_move(mv));
            return;
        };
        match mv.flag() {
            MoveFlag::Castle => {
                let side = if to > from {
                    crate::types::CastleSide::King
                } else {
                    crate::types::CastleSide::Queen
                };
                let (king_to, rook_to) = Board::castle_destinations(us, side);
                let rook = Piece::new(us, PieceType::Rook);
                self.apply::<2, 2>(
                    net,
                    child,
                    [(moved, king_to), (rook, rook_to)],
                    [(moved, from), (rook, to)],
                );
            }
            MoveFlag::EnPassant => {
                let captured = Piece::new(!us, PieceType::Pawn);
                self.apply::<1, 2>(
                    net,
                    child,
                    [(moved, to)],
                    [(moved, from), (captured, to.forward(!us))],
                );
            }
            _ => {
                let placed = mv.promotion().map_or(moved, |p| Piece::new(us, p));
                match board.piece_on(to).filter(|_| mv.is_capture()) {
                    Some(captured) => self.apply::<1, 2>(
                        net,
                        child,
                        [(placed, to)],
                        [(moved, from), (captured, to)],
                    ),
                    None => self.apply::<1, 1>(net, child, [(placed, to)], [(moved, from)]),
                }
            }
        }
    }

    #[inline(always)]
    fn apply<const A: usize, const S: usize>(
        &self,
        net: &Network,
        child: &mut Accumulator,
        adds: [(Piece, Square); A],
        subs: [(Piece, Square); S],
    ) {
        for perspective in 0..2 {
            let add_rows = adds.map(|(p, s)| &net.row(feature(perspective, p, s)).0);
            let sub_rows = subs.map(|(p, s)| &net.row(feature(perspective, p, s)).0);
            add_sub(
                &mut child.values[perspective].0,
                &self.values[perspective].0,
                add_rows,
                sub_rows,
            );
        }
    }

    /// The network's evaluation in centipawns for `side_to_move`.
    #[inline]
    pub fn evaluate(&self, net: &Network, side_to_move: Color) -> i32 {
        let us = side_to_move.index();
        net.output(&self.values[us], &self.values[1 - us])
    }
}

/// Per-ply accumulators for one search thread.
pub struct AccumulatorStack {
    stack: Vec<Accumulator>,
}

impl AccumulatorStack {
    /// Room for `plies` plies past the root, or `None` if the memory is not there (a search
    /// thread that cannot be set up is dropped, not allowed to abort the process).
    pub fn try_new(plies: usize) -> Option<AccumulatorStack> {
        let zero = Accumulator {
            values: [Row([0; HIDDEN]); 2],
        };
        let mut stack = Vec::new();
        stack.try_reserve_exact(plies + 1).ok()?;
        stack.resize(plies + 1, zero);
        Some(AccumulatorStack { stack })
    }

    /// Sets ply 0 to the root position.
    pub fn reset(&mut self, net: &Network, root: &Board) {
        self.stack[0] = Accumulator::refresh(net, root);
    }

    /// Sets ply `ply + 1` to the position after `mv` from `board` (the position at `ply`).
    #[inline]
    pub fn push_move(&mut self, net: &Network, ply: usize, board: &Board, mv: Move) {
        let (parents, children) = self.stack.split_at_mut(ply + 1);
        parents[ply].after_move(net, board, mv, &mut children[0]);
    }

    /// Sets ply `ply + 1` to the same pieces as `ply` (a null move).
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        self.stack[ply + 1] = self.stack[ply];
    }

    #[inline]
    pub fn evaluate(&self, net: &Network, ply: usize, side_to_move: Color) -> i32 {
        self.stack[ply].evaluate(net, side_to_move)
    }

    pub fn get(&self, ply: usize) -> &Accumulator {
        &self.stack[ply]
    }
}
