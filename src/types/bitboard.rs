use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use super::{Color, File, Rank, Square};

/// A set of squares, one bit per square (bit 0 = a1).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The 32 light squares (b1, a2, …); a1 is dark, as in [`Square::is_light`].
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);
    /// The 32 dark squares, a1 and h8 among them.
    pub const DARK_SQUARES: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }
    /// The eight squares of `file`.
    #[inline(always)]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file.index())
    }
    /// The eight squares of `rank`.
    #[inline(always)]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0xFF << (8 * rank.index()))
    }
    /// `rank` counted from `color`'s side (relative rank 0 is White's first rank, Black's eighth).
    #[inline(always)]
    pub const fn relative_rank(color: Color, rank: u8) -> Bitboard {
        Bitboard::rank(Rank::new(rank).relative_to(color))
    }
    /// No square set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// At least one square set.
    #[inline(always)]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }
    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }
    /// How many squares are set (population count).
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }
    /// More than one square set.
    #[inline(always)]
    pub const fn has_many(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }
    /// The lowest square; the set must not be empty.
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::new(self.0.trailing_zeros() as u8)
    }
    /// The highest square; the set must not be empty.
    #[inline(always)]
    pub const fn msb(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::new(63 - self.0.leading_zeros() as u8)
    }
    /// The set shifted one rank towards the opponent of `color`.
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard(self.0 << 8),
            Color::Black => Bitboard(self.0 >> 8),
        }
    }
    /// The squares that pawns of `color` on this set attack towards the a-file.
    #[inline(always)]
    pub const fn pawn_attacks_towards_a(self, color: Color) -> Bitboard {
        const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
        match color {
            Color::White => Bitboard((self.0 & NOT_A) << 7),
            Color::Black => Bitboard((self.0 & NOT_A) >> 9),
        }
    }
    /// The squares that pawns of `color` on this set attack towards the h-file.
    #[inline(always)]
    pub const fn pawn_attacks_towards_h(self, color: Color) -> Bitboard {
        const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        match color {
            Color::White => Bitboard((self.0 & NOT_H) << 9),
            Color::Black => Bitboard((self.0 & NOT_H) >> 7),
        }
    }
    /// Every square that a pawn of `color` on this set attacks (set-wise; one square's
    /// attacks are also in the table behind `attacks::pawn_attacks`).
    #[inline(always)]
    pub const fn pawn_attacks(self, color: Color) -> Bitboard {
        Bitboard(self.pawn_attacks_towards_a(color).0 | self.pawn_attacks_towards_h(color).0)
    }
    /// A copy of the set with `sq` added; `self` is unchanged.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }
    /// A copy of the set with `sq` removed; `self` is unchanged.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.lsb();
        self.0 &= self.0 - 1;
        Some(sq)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Set difference: the squares of `self` not in `rhs`.
impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let set = self.has(Square::new(rank * 8 + file));
                write!(f, "{}", if set { " X" } else { " ." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
