//! The squares castling needs, precomputed: which must be empty and which the king crosses.
//!
//! Working them out at each node (two spans of a rank per side, from the king and rook files)
//! was about a sixth of `perft 6 --hash 0` from the start position, where both sides keep their
//! rights for the whole tree. They depend only on the side and the king's and rook's files
//! (Chess960 included), so a table of 2 x 8 x 8 entries, for the first rank, holds them all.

use crate::types::{Bitboard, CastleSide, Rank, Square};

/// What castling with one king and rook needs, on their rank.
#[derive(Copy, Clone)]
pub(crate) struct CastlePath {
    /// Squares that must be empty: the spans king-to-destination and rook-to-destination,
    /// less the king and rook themselves.
    pub must_be_empty: Bitboard,
    /// Squares the king crosses and lands on: none may be attacked. Castling is generated only
    /// out of check, so the king's own square is left out, except when the king does not move:
    /// then lifting the rook may open the rank to it (king c1, rook b1, enemy rook a1).
    pub king_path: Bitboard,
}

/// The files the king and the rook end on: (king, rook).
pub(crate) const fn destination_files(side: CastleSide) -> (u8, u8) {
    match side {
        CastleSide::King => (6, 5),
        CastleSide::Queen => (2, 3),
    }
}

/// The squares from file `a` to file `b` inclusive, on the first rank.
const fn file_span(a: u8, b: u8) -> u64 {
    let (low, high) = if a < b { (a, b) } else { (b, a) };
    (0xFF >> (7 - high)) & (0xFF << low)
}

const fn build() -> [[[(u64, u64); 8]; 8]; 2] {
    let mut table = [[[(0, 0); 8]; 8]; 2];
    let mut side = 0;
    while side < 2 {
        let castle_side = if side == 0 {
            CastleSide::King
        } else {
            CastleSide::Queen
        };
        let (king_to, rook_to) = destination_files(castle_side);
        let mut king = 0;
        while king < 8 {
            let mut rook = 0;
            while rook < 8 {
                let king_path = file_span(king, king_to);
                let rook_path = file_span(rook, rook_to);
                let pieces = (1u64 << king) | (1u64 << rook);
                let must_be_safe = if king == king_to {
                    king_path
                } else {
                    king_path & !(1u64 << king)
                };
                table[side][king as usize][rook as usize] =
                    ((king_path | rook_path) & !pieces, must_be_safe);
                rook += 1;
            }
            king += 1;
        }
        side += 1;
    }
    table
}

static PATHS: [[[(u64, u64); 8]; 8]; 2] = build();

/// The path of castling on `side` with the king on `king` and the rook on `rook`, both on
/// `rank` (the side's first rank).
#[inline(always)]
pub(crate) fn castle_path(side: CastleSide, king: Square, rook: Square, rank: Rank) -> CastlePath {
    let (must_be_empty, king_path) = PATHS[side as usize][king.file().index()][rook.file().index()];
    let shift = 8 * rank.index();
    CastlePath {
        must_be_empty: Bitboard(must_be_empty << shift),
        king_path: Bitboard(king_path << shift),
    }
}
