//! The bridge pyrrhic-rs needs to generate moves: it asks for attack sets by square index and
//! occupancy, and gets them from escaque's own tables (the same ones the move generator uses).

use pyrrhic_rs::{Color as TbColor, EngineAdapter};

use crate::attacks;
use crate::types::{Bitboard, Color, Square};

/// Answers pyrrhic-rs's attack queries from [`crate::attacks`].
#[derive(Copy, Clone, Debug)]
pub struct EscaqueAttacks;

/// pyrrhic-rs numbers squares as escaque does (A1 = 0, H1 = 7, A2 = 8); the `& 63` only keeps
/// a bad index from panicking inside the prober.
#[inline(always)]
fn square(index: u64) -> Square {
    Square::new((index & 63) as u8)
}

impl EngineAdapter for EscaqueAttacks {
    fn pawn_attacks(color: TbColor, sq: u64) -> u64 {
        let color = match color {
            TbColor::White => Color::White,
            TbColor::Black => Color::Black,
        };
        attacks::pawn_attacks(color, square(sq)).0
    }
    fn knight_attacks(sq: u64) -> u64 {
        attacks::knight_attacks(square(sq)).0
    }
    fn bishop_attacks(sq: u64, occupied: u64) -> u64 {
        attacks::bishop_attacks(square(sq), Bitboard(occupied)).0
    }
    fn rook_attacks(sq: u64, occupied: u64) -> u64 {
        attacks::rook_attacks(square(sq), Bitboard(occupied)).0
    }
    fn queen_attacks(sq: u64, occupied: u64) -> u64 {
        attacks::queen_attacks(square(sq), Bitboard(occupied)).0
    }
    fn king_attacks(sq: u64) -> u64 {
        attacks::king_attacks(square(sq)).0
    }
}
