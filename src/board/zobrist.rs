//! Zobrist keys, generated at compile time from a fixed-seed SplitMix64 so keys are identical in
//! every build (bench signatures and stored hashes stay reproducible).

use crate::random::splitmix64;
use crate::types::{CastlingRights, Color, Piece, Square};

pub(crate) struct ZobristKeys {
    pub piece_square: [[u64; 64]; 12],
    pub castling: [u64; 16],
    pub en_passant_file: [u64; 8],
    pub black_to_move: u64,
}

const fn build() -> ZobristKeys {
    let mut state = 0x6573_6361_7175_6521; // "escaque!"
    let mut keys = ZobristKeys {
        piece_square: [[0; 64]; 12],
        castling: [0; 16],
        en_passant_file: [0; 8],
        black_to_move: 0,
    };
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            keys.piece_square[p][sq] = splitmix64(&mut state);
            sq += 1;
        }
        p += 1;
    }
    // One key per single right; a combination's key is the xor of its rights' keys.
    let singles = [
        splitmix64(&mut state),
        splitmix64(&mut state),
        splitmix64(&mut state),
        splitmix64(&mut state),
    ];
    let mut rights = 0;
    while rights < 16 {
        let mut bit = 0;
        while bit < 4 {
            if rights & (1 << bit) != 0 {
                keys.castling[rights] ^= singles[bit];
            }
            bit += 1;
        }
        rights += 1;
    }
    let mut f = 0;
    while f < 8 {
        keys.en_passant_file[f] = splitmix64(&mut state);
        f += 1;
    }
    keys.black_to_move = splitmix64(&mut state);
    keys
}

pub(crate) static KEYS: ZobristKeys = build();

#[inline(always)]
pub(crate) fn piece_square(piece: Piece, sq: Square) -> u64 {
    KEYS.piece_square[piece.index()][sq.index()]
}

#[inline(always)]
pub(crate) fn castling(rights: CastlingRights) -> u64 {
    KEYS.castling[rights.index()]
}

#[inline(always)]
pub(crate) fn en_passant(sq: Square) -> u64 {
    KEYS.en_passant_file[sq.file().index()]
}

#[inline(always)]
pub(crate) fn side(color: Color) -> u64 {
    match color {
        Color::White => 0,
        Color::Black => KEYS.black_to_move,
    }
}
