//! Whether a move gives check, answered without making it: the search asks this for moves it is
//! about to prune, so that quiet checks (the mates near the leaves) are never pruned blind.

use super::Board;
use crate::attacks::{
    bishop_attacks, knight_attacks, line, pawn_attacks, piece_attacks, rook_attacks,
};
use crate::types::{Bitboard, Move, PieceType, Square};

/// What decides, for every move of one position, whether it gives check: the squares from which
/// each piece type would attack the enemy king, and our pieces whose leaving discovers a slider
/// on it. Computed once, it answers each move with a few bit tests (the search asks for many
/// moves of a node it prunes).
#[derive(Copy, Clone, Debug)]
pub struct CheckSquares {
    /// By piece type (pawn, knight, bishop, rook, queen, king): the squares attacking the king.
    direct: [Bitboard; 6],
    /// Our pieces alone between one of our sliders and the enemy king.
    discoverers: Bitboard,
    their_king: Square,
}

impl CheckSquares {
    /// Whether the legal move `mv` of `board` (the position these squares were computed for)
    /// gives check; the same answer as [`Board::gives_check`].
    #[inline]
    pub fn gives_check(&self, board: &Board, mv: Move) -> bool {
        // Castling, en passant and promotion move or remove a second piece, or make one from a
        // square that may block its own line: answered the long way.
        if mv.is_castle() || mv.is_en_passant() || mv.promotion().is_some() {
            return board.gives_check(mv);
        }
        let (from, to) = (mv.from(), mv.to());
        let Some(moved) = board.piece_on(from) else {
            return false;
        };
        // The occupancy before the move serves: a slider whose own square lay between its
        // destination and the king would already attack the king, which the side to move cannot.
        self.direct[moved.piece_type().index()].has(to)
            || (self.discoverers.has(from) && !line(from, self.their_king).has(to))
    }
}

impl Board {
    /// The [`CheckSquares`] of this position, for asking [`CheckSquares::gives_check`] of many
    /// of its moves.
    pub fn check_squares(&self) -> CheckSquares {
        let us = self.side_to_move();
        let their_king = self.king(!us);
        let occupied = self.occupied();
        let diagonal = bishop_attacks(their_king, occupied);
        let orthogonal = rook_attacks(their_king, occupied);
        let discoverers = self.slider_lines(their_king, us).1 & self.colored(us);
        CheckSquares {
            direct: [
                pawn_attacks(!us, their_king),
                knight_attacks(their_king),
                diagonal,
                orthogonal,
                diagonal | orthogonal,
                Bitboard::EMPTY,
            ],
            discoverers,
            their_king,
        }
    }

    /// Whether the legal move `mv` leaves the opponent in check (direct, discovered, by en
    /// passant or by promotion). Castling, rare and intricate, is answered by making the move.
    pub fn gives_check(&self, mv: Move) -> bool {
        if mv.is_castle() {
            return self.make_move(mv).in_check();
        }
        let us = self.side_to_move();
        let their_king = self.king(!us);
        let (from, to) = (mv.from(), mv.to());
        let Some(moved) = self.piece_on(from) else {
            return false;
        };
        let piece_type = mv.promotion().unwrap_or(moved.piece_type());
        let mut occupied = self.occupied().without(from).with(to);
        if mv.is_en_passant() {
            occupied = occupied.without(Square::new(to.index() as u8 ^ 8));
        }
        let direct = if piece_type == PieceType::Pawn {
            pawn_attacks(us, to)
        } else {
            piece_attacks(piece_type, to, occupied)
        };
        if direct.has(their_king) {
            return true;
        }
        // Discovered: one of our sliders (other than the piece that moved) now sees the king.
        let ours = self.colored(us).without(from);
        let diagonal = self.diagonal_sliders(us) & ours;
        let orthogonal = self.orthogonal_sliders(us) & ours;
        (bishop_attacks(their_king, occupied) & diagonal).is_nonempty()
            || (rook_attacks(their_king, occupied) & orthogonal).is_nonempty()
    }
}

#[cfg(test)]
mod tests {
    use crate::board::Board;

    /// Every legal move of many positions: the answer without making the move is the answer
    /// after making it.
    #[test]
    fn gives_check_agrees_with_making_the_move() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/2k5/3Pp3/8/8/4K2Q b - d3 0 1",
            "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1",
            "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            "1k6/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            "3k4/1P6/8/8/8/8/8/4K3 w - - 0 1",
            "2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
        ];
        let mut checks = 0;
        for fen in fens {
            let mut frontier = vec![Board::from_fen(fen).unwrap()];
            for _ in 0..2 {
                let mut next = Vec::new();
                for board in &frontier {
                    for &mv in board.legal_moves().iter() {
                        let child = board.make_move(mv);
                        assert_eq!(
                            board.gives_check(mv),
                            child.in_check(),
                            "{} {:?}",
                            board.to_fen(),
                            mv
                        );
                        assert_eq!(
                            board.check_squares().gives_check(board, mv),
                            child.in_check(),
                            "{} {:?}",
                            board.to_fen(),
                            mv
                        );
                        checks += usize::from(child.in_check());
                        next.push(child);
                    }
                }
                frontier = next;
            }
        }
        assert!(checks > 100, "only {checks} checking moves were compared");
    }
}
