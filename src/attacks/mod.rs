//! Attack tables: leapers (pawn, knight, king) as plain tables, sliders through magic bitboards
//! (or BMI2 PEXT with the `pext` feature), and line/between masks for pins and checks.
//!
//! Every table is built by `const fn` at compile time, so lookups are plain array reads with no
//! lazy-initialisation check on the hot path and nothing to run at start-up.
#![warn(missing_docs)]

mod leapers;
mod lines;
mod magic;
pub mod slow;

pub use leapers::{king_attacks, knight_attacks, pawn_attacks};
pub use lines::{between, bishop_rays, line, rook_rays};
pub use magic::{bishop_attacks, rook_attacks};

use crate::types::{Bitboard, PieceType, Square};

/// Queen attacks from `sq` given the occupied squares.
#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    bishop_attacks(sq, occupied) | rook_attacks(sq, occupied)
}

/// Attacks of a non-pawn piece type from `sq` given the occupied squares.
#[inline(always)]
pub fn piece_attacks(piece: PieceType, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece {
        PieceType::Knight => knight_attacks(sq),
        PieceType::Bishop => bishop_attacks(sq, occupied),
        PieceType::Rook => rook_attacks(sq, occupied),
        PieceType::Queen => queen_attacks(sq, occupied),
        PieceType::King => king_attacks(sq),
        PieceType::Pawn => Bitboard::EMPTY,
    }
}
