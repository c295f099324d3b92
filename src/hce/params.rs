//! Every evaluation weight sits in one flat table (its values in `weights.rs`), indexed through the
//! named offsets below. Each entry is an `S` pair (middlegame, endgame) in centipawns. The Texel
//! tuner (`src/tools/tune/`) reads the same offsets and writes a replacement for `weights.rs`.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A tapered score: the middlegame and endgame halves, blended by game phase.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}
impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}
impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}
impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}
impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}
impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

/// Piece values, indexed by piece type (the king's entry stays zero).
pub const MATERIAL: usize = 0;
/// Piece-square tables, `[piece type][square from White's side]`.
pub const PST: usize = MATERIAL + 6;
/// Mobility by number of safe target squares, per piece type.
pub const MOB_KNIGHT: usize = PST + 6 * 64;
pub const MOB_BISHOP: usize = MOB_KNIGHT + 9;
pub const MOB_ROOK: usize = MOB_BISHOP + 14;
pub const MOB_QUEEN: usize = MOB_ROOK + 15;
/// Passed pawn by relative rank.
pub const PASSED: usize = MOB_QUEEN + 28;
/// Passed pawn whose stop square is free, by relative rank (on top of `PASSED`).
pub const PASSED_FREE: usize = PASSED + 8;
/// Passed pawn: their king's distance to its stop square minus ours, per relative rank weight.
pub const PASSED_KING_DIST: usize = PASSED_FREE + 8;
pub const ISOLATED: usize = PASSED_KING_DIST + 1;
pub const DOUBLED: usize = ISOLATED + 1;
pub const BACKWARD: usize = DOUBLED + 1;
/// Pawn defended by a pawn or standing beside one, by relative rank.
pub const CONNECTED: usize = BACKWARD + 1;
/// Attacks on the enemy king zone, per attacking piece type (knight … queen), per attacked square.
pub const KING_ATTACK: usize = CONNECTED + 8;
/// Own pawns in the three files in front of the king, one and two ranks ahead.
pub const KING_SHIELD: usize = KING_ATTACK + 6;
/// King on a file with no own pawn (open or half-open towards the enemy).
pub const KING_OPEN_FILE: usize = KING_SHIELD + 2;
pub const ROOK_OPEN: usize = KING_OPEN_FILE + 1;
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
pub const BISHOP_PAIR: usize = ROOK_SEMI_OPEN + 1;
/// A pawn attacking an enemy piece, by the attacked piece type.
pub const THREAT_BY_PAWN: usize = BISHOP_PAIR + 1;
/// A knight or bishop attacking an enemy piece, by the attacked piece type.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 6;
/// A rook attacking an enemy piece, by the attacked piece type.
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 6;
/// An enemy piece (not a pawn) we attack that nothing defends.
pub const HANGING: usize = THREAT_BY_ROOK + 6;
/// The side to move's bonus.
pub const TEMPO: usize = HANGING + 1;
/// Number of weights.
pub const NUM_PARAMS: usize = TEMPO + 1;

/// Names of the sections, with their offsets and lengths, for traces and the tuner's output.
pub const SECTIONS: &[(&str, usize, usize)] = &[
    ("MATERIAL", MATERIAL, 6),
    ("PST", PST, 6 * 64),
    ("MOB_KNIGHT", MOB_KNIGHT, 9),
    ("MOB_BISHOP", MOB_BISHOP, 14),
    ("MOB_ROOK", MOB_ROOK, 15),
    ("MOB_QUEEN", MOB_QUEEN, 28),
    ("PASSED", PASSED, 8),
    ("PASSED_FREE", PASSED_FREE, 8),
    ("PASSED_KING_DIST", PASSED_KING_DIST, 1),
    ("ISOLATED", ISOLATED, 1),
    ("DOUBLED", DOUBLED, 1),
    ("BACKWARD", BACKWARD, 1),
    ("CONNECTED", CONNECTED, 8),
    ("KING_ATTACK", KING_ATTACK, 6),
    ("KING_SHIELD", KING_SHIELD, 2),
    ("KING_OPEN_FILE", KING_OPEN_FILE, 1),
    ("ROOK_OPEN", ROOK_OPEN, 1),
    ("ROOK_SEMI_OPEN", ROOK_SEMI_OPEN, 1),
    ("BISHOP_PAIR", BISHOP_PAIR, 1),
    ("THREAT_BY_PAWN", THREAT_BY_PAWN, 6),
    ("THREAT_BY_MINOR", THREAT_BY_MINOR, 6),
    ("THREAT_BY_ROOK", THREAT_BY_ROOK, 6),
    ("HANGING", HANGING, 1),
    ("TEMPO", TEMPO, 1),
];
