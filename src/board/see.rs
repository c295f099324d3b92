//! Static exchange evaluation: does a move win at least `threshold` material once all captures
//! on its destination square are played out, least valuable attacker first?

use super::Board;
use crate::attacks::{bishop_attacks, rook_attacks};
use crate::types::{Move, PieceType};

/// Piece values for exchanges (the king never gets captured).
pub const SEE_VALUES: [i32; 6] = [100, 300, 300, 500, 900, 0];

#[inline(always)]
fn value(pt: PieceType) -> i32 {
    SEE_VALUES[pt.index()]
}

impl Board {
    /// The material a move captures (promotion gain included), as seen by SEE.
    #[inline(always)]
    pub fn capture_gain(&self, mv: Move) -> i32 {
        capture_gain(self, mv)
    }

    /// Whether `mv` wins at least `threshold` in the exchange on its destination, once all
    /// captures there are played out, least valuable attacker first.
    pub fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        see_ge(self, mv, threshold)
    }
}

#[inline(always)]
fn capture_gain(board: &Board, mv: Move) -> i32 {
    let captured = if mv.is_en_passant() {
        value(PieceType::Pawn)
    } else if mv.is_capture() {
        board.piece_on(mv.to()).map_or(0, |p| value(p.piece_type()))
    } else {
        0
    };
    captured
        + mv.promotion()
            .map_or(0, |p| value(p) - value(PieceType::Pawn))
}

fn see_ge(board: &Board, mv: Move, threshold: i32) -> bool {
    if mv.is_castle() {
        return threshold <= 0;
    }
    let (from, to) = (mv.from(), mv.to());
    let mut swap = capture_gain(board, mv) - threshold;
    if swap < 0 {
        return false;
    }
    let moved = mv.promotion().unwrap_or_else(|| {
        board
            .piece_on(from)
            .map_or(PieceType::Pawn, |p| p.piece_type())
    });
    swap = value(moved) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = board.occupied().without(from).with(to);
    if mv.is_en_passant() {
        occupied = occupied.without(to.forward(!board.side_to_move()));
    }
    let diagonal = board.pieces(PieceType::Bishop) | board.pieces(PieceType::Queen);
    let orthogonal = board.pieces(PieceType::Rook) | board.pieces(PieceType::Queen);
    let mut attackers = board.attackers_to(to, occupied) & occupied;
    let mut stm = board.side_to_move();
    let mut result = 1;
    loop {
        stm = !stm;
        attackers &= occupied;
        let ours = attackers & board.colored(stm);
        if ours.is_empty() {
            break;
        }
        result ^= 1;
        let mut attacker = None;
        for pt in PieceType::NON_KING {
            let bb = ours & board.pieces(pt);
            if bb.is_nonempty() {
                attacker = Some((pt, bb.lsb()));
                break;
            }
        }
        let Some((pt, sq)) = attacker else {
            // Only the king is left: it may capture only if the other side has no attacker left.
            if (attackers & !board.colored(stm)).is_nonempty() {
                result ^= 1;
            }
            break;
        };
        swap = value(pt) - swap;
        if swap < result {
            break;
        }
        occupied = occupied.without(sq);
        if matches!(pt, PieceType::Pawn | PieceType::Bishop | PieceType::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(pt, PieceType::Rook | PieceType::Queen) {
            attackers |= rook_attacks(to, occupied) & orthogonal;
        }
    }
    result != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(fen: &str, uci: &str, threshold: i32, expected: bool) {
        let board = Board::from_fen(fen).unwrap();
        let mv = board.parse_uci_move(uci, false).unwrap();
        assert_eq!(
            board.see_ge(mv, threshold),
            expected,
            "{fen} {uci} {threshold}"
        );
    }

    #[test]
    fn exchanges() {
        // Pawn takes undefended knight.
        check("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 300, true);
        check("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 301, false);
        // Queen takes a pawn defended by a pawn: loses the queen.
        check("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 0, false);
        // Rook takes a rook defended by a rook, with our second rook behind (x-ray): even trade.
        check("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 0, true);
        check("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 1, false);
        // Quiet move to a square attacked by a pawn.
        check("4k3/8/8/2p5/8/3N4/8/4K3 w - - 0 1", "d3b4", 0, false);
        check("4k3/8/8/2p5/8/3N4/8/4K3 w - - 0 1", "d3f4", 0, true);
    }
}
