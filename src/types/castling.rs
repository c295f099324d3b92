use super::Color;

/// Which rook a castling move uses: the one towards the h-file or towards the a-file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CastleSide {
    /// Towards the h-file (O-O); the king ends on g, the rook on f.
    King = 0,
    /// Towards the a-file (O-O-O); the king ends on c, the rook on d.
    Queen = 1,
}

impl CastleSide {
    /// Both sides, king side first.
    pub const BOTH: [CastleSide; 2] = [CastleSide::King, CastleSide::Queen];
}

/// The four castling rights as bits: White O-O = 1, White O-O-O = 2, Black O-O = 4, Black O-O-O = 8.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(pub u8);

impl CastlingRights {
    /// No castling rights.
    pub const NONE: CastlingRights = CastlingRights(0);

    /// The bit of one right: `1 << (color * 2 + side)`, so 1, 2, 4 or 8.
    #[inline(always)]
    pub const fn bit(color: Color, side: CastleSide) -> u8 {
        1 << (color as u8 * 2 + side as u8)
    }
    /// Whether `color` still holds the right to castle on `side` (not whether castling is legal
    /// now).
    #[inline(always)]
    pub const fn has(self, color: Color, side: CastleSide) -> bool {
        self.0 & Self::bit(color, side) != 0
    }
    /// Whether `color` holds either castling right.
    #[inline(always)]
    pub const fn has_any(self, color: Color) -> bool {
        self.0 & (3 << (color as u8 * 2)) != 0
    }
    /// Grants `color` the right to castle on `side`.
    #[inline(always)]
    pub fn add(&mut self, color: Color, side: CastleSide) {
        self.0 |= Self::bit(color, side);
    }
    /// Takes away `color`'s right to castle on `side` (e.g. its rook moved or was captured).
    #[inline(always)]
    pub fn remove(&mut self, color: Color, side: CastleSide) {
        self.0 &= !Self::bit(color, side);
    }
    /// Takes away both of `color`'s rights (its king moved).
    #[inline(always)]
    pub fn remove_color(&mut self, color: Color) {
        self.0 &= !(3 << (color as u8 * 2));
    }
    /// 0..16, for the Zobrist table.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}
