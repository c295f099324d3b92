use std::fmt;

use super::{PieceType, Square};

/// What kind of move a [`Move`] is; stored in its top four bits.
/// Value 4 marks captures and 8 promotions; in a promotion the low two bits name the piece
/// (knight 0 … queen 3). Codes 3, 6 and 7 are unused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum MoveFlag {
    /// A plain non-capture: a piece move or a single pawn push (not castling, not promoting).
    Quiet = 0,
    /// A pawn's two-square advance from its start rank.
    DoublePush = 1,
    /// Castling, encoded as the king capturing its own rook (so Chess960 needs no special case).
    Castle = 2,
    /// A capture on the destination square (not en passant, not promoting).
    Capture = 4,
    /// An en-passant capture: the destination is the empty square passed over; the captured pawn
    /// stands just behind it.
    EnPassant = 5,
    /// Push promoting to a knight.
    PromoKnight = 8,
    /// Push promoting to a bishop.
    PromoBishop = 9,
    /// Push promoting to a rook.
    PromoRook = 10,
    /// Push promoting to a queen.
    PromoQueen = 11,
    /// Capture promoting to a knight.
    PromoCaptureKnight = 12,
    /// Capture promoting to a bishop.
    PromoCaptureBishop = 13,
    /// Capture promoting to a rook.
    PromoCaptureRook = 14,
    /// Capture promoting to a queen.
    PromoCaptureQueen = 15,
}

impl MoveFlag {
    const FROM_BITS: [MoveFlag; 16] = [
        MoveFlag::Quiet,
        MoveFlag::DoublePush,
        MoveFlag::Castle,
        MoveFlag::Quiet,
        MoveFlag::Capture,
        MoveFlag::EnPassant,
        MoveFlag::Quiet,
        MoveFlag::Quiet,
        MoveFlag::PromoKnight,
        MoveFlag::PromoBishop,
        MoveFlag::PromoRook,
        MoveFlag::PromoQueen,
        MoveFlag::PromoCaptureKnight,
        MoveFlag::PromoCaptureBishop,
        MoveFlag::PromoCaptureRook,
        MoveFlag::PromoCaptureQueen,
    ];

    /// The promotion flag for `piece` (knight … queen), with or without a capture.
    #[inline(always)]
    pub const fn promotion(piece: PieceType, capture: bool) -> MoveFlag {
        let bits = 8 + (piece as u8 - 1) + if capture { 4 } else { 0 };
        MoveFlag::FROM_BITS[bits as usize]
    }
}

/// A move in 16 bits: bits 0–5 the origin square, 6–11 the destination, 12–15 a [`MoveFlag`].
/// Castling is stored as king-takes-own-rook. `Move::NULL` (all zero) means "no move".
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const _: () = assert!(std::mem::size_of::<Move>() == 2);

impl Move {
    /// The all-zero move (a1 to a1, quiet): "no move", never a legal one.
    pub const NULL: Move = Move(0);

    /// Packs origin, destination and flag; for castling `to` is the square of the castling rook.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, flag: MoveFlag) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | (flag as u16) << 12)
    }
    /// The move with these raw bits (as [`Move::bits`] gives them), unchecked: a move of unknown
    /// origin must pass [`Board::is_legal`](crate::board::Board::is_legal) before it is played.
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }
    /// The raw 16 bits (layout above), for compact storage such as the transposition table.
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }
    /// Whether this is [`Move::NULL`].
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }
    /// The origin square (bits 0–5).
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }
    /// The destination square (bits 6–11); for castling the rook's square, not the king's.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u8)
    }
    /// The kind of move (bits 12–15); the unused codes 3, 6 and 7 read as [`MoveFlag::Quiet`].
    #[inline(always)]
    pub const fn flag(self) -> MoveFlag {
        MoveFlag::FROM_BITS[(self.0 >> 12) as usize]
    }
    /// Captures, including en passant and capturing promotions.
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.0 & (4 << 12) != 0
    }
    /// Whether a pawn promotes, with or without a capture.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & (8 << 12) != 0
    }
    /// Captures and promotions: the moves quiescence search looks at.
    #[inline(always)]
    pub const fn is_noisy(self) -> bool {
        self.0 & (12 << 12) != 0
    }
    /// Castling on either side, standard or Chess960.
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == MoveFlag::Castle as u16
    }
    /// Whether this is an en-passant capture.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == MoveFlag::EnPassant as u16
    }
    /// The piece a promotion makes, if this is one.
    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceType> {
        if self.is_promotion() {
            Some(PieceType::from_index(((self.0 >> 12) & 3) as usize + 1))
        } else {
            None
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return write!(f, "0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", p.to_char())?;
        }
        if self.is_castle() {
            write!(f, "(castle)")?;
        }
        Ok(())
    }
}
