//! Whether a move gives check, answered without making it: the search asks this for moves it is
//! about to prune, so that quiet checks (the mates near the leaves) are never pruned blind.

use super::Board;
use crate::attacks::{bishop_attacks, pawn_attacks, piece_attacks, rook_attacks};
use crate::types::{Move, PieceType, Square};

impl Board {
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
