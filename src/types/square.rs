use std::fmt;

use super::Color;

/// A file (column), `a` = 0 … `h` = 7.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

/// A rank (row), rank 1 = 0 … rank 8 = 7.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl File {
    /// The a-file, index 0.
    pub const A: File = File(0);
    /// The e-file: the kings' starting file in standard chess.
    pub const E: File = File(4);
    /// The h-file, index 7.
    pub const H: File = File(7);

    /// The file with index `i`; `i` must be below 8.
    #[inline(always)]
    pub const fn new(i: u8) -> File {
        debug_assert!(i < 8);
        File(i)
    }
    /// 0 (a-file) … 7 (h-file), for tables indexed by file.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The file letter, `'a'` … `'h'`.
    pub fn to_char(self) -> char {
        (b'a' + self.0) as char
    }
    /// The file of a lower-case letter `'a'` … `'h'`; `None` for any other character (upper case
    /// included).
    pub fn from_char(c: char) -> Option<File> {
        ('a'..='h').contains(&c).then(|| File(c as u8 - b'a'))
    }
}

impl Rank {
    /// White's back rank: rank 1, index 0.
    pub const FIRST: Rank = Rank(0);
    /// Black's back rank: rank 8, index 7.
    pub const EIGHTH: Rank = Rank(7);

    /// The rank with index `i`; `i` must be below 8.
    #[inline(always)]
    pub const fn new(i: u8) -> Rank {
        debug_assert!(i < 8);
        Rank(i)
    }
    /// 0 (rank 1) … 7 (rank 8), for tables indexed by rank.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The rank as seen from `color`'s side: White's rank 2 is Black's rank 7.
    #[inline(always)]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank(7 - self.0),
        }
    }
    /// The rank digit, `'1'` … `'8'`.
    pub fn to_char(self) -> char {
        (b'1' + self.0) as char
    }
    /// The rank of a digit `'1'` … `'8'`; `None` for any other character.
    pub fn from_char(c: char) -> Option<Rank> {
        ('1'..='8').contains(&c).then(|| Rank(c as u8 - b'1'))
    }
}

/// A square, numbered a1 = 0, b1 = 1, … h8 = 63.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $i:expr),* $(,)?) => {
        impl Square {
            $(
                #[doc = concat!("Square ", stringify!($name), ", index ", stringify!($i), ".")]
                pub const $name: Square = Square($i);
            )*
        }
    };
}

#[rustfmt::skip]
square_consts!(
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
    D4 = 27, E4 = 28, D5 = 35, E5 = 36,
);

impl Square {
    /// The square with index `i` (0..64).
    #[inline(always)]
    pub const fn new(i: u8) -> Square {
        debug_assert!(i < 64);
        Square(i)
    }

    /// The square at `file` and `rank`: index `rank * 8 + file`.
    #[inline(always)]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    /// All 64 squares from a1 to h8.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// 0..64. The mask is free and proves the range to the compiler, so table lookups indexed
    /// by a square need no bounds check.
    #[inline(always)]
    pub const fn index(self) -> usize {
        (self.0 & 63) as usize
    }
    /// The column, a = 0 (the low three bits of the index).
    #[inline(always)]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }
    /// The row, rank 1 = 0 (the high three bits of the index).
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The square mirrored vertically (a1 <-> a8) when `color` is Black: for tables written from White's side.
    #[inline(always)]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => Square(self.0 ^ 56),
        }
    }

    /// The square `delta` steps away in index terms; the caller guarantees it stays on the board.
    #[inline(always)]
    pub const fn offset(self, delta: i8) -> Square {
        Square((self.0 as i8 + delta) as u8)
    }

    /// The square one step forward from `color`'s point of view; the caller guarantees it exists.
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Square {
        match color {
            Color::White => Square(self.0 + 8),
            Color::Black => Square(self.0 - 8),
        }
    }

    /// Light squares are those where file + rank is odd (a1 is dark).
    #[inline(always)]
    pub const fn is_light(self) -> bool {
        (self.0 / 8 + self.0 % 8) % 2 == 1
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Square {
    type Err = ();
    fn from_str(s: &str) -> Result<Square, ()> {
        let mut chars = s.chars();
        let file = chars.next().and_then(File::from_char).ok_or(())?;
        let rank = chars.next().and_then(Rank::from_char).ok_or(())?;
        if chars.next().is_some() {
            return Err(());
        }
        Ok(Square::from_coords(file, rank))
    }
}
