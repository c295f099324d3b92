use super::Color;

/// A kind of piece, regardless of colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    /// Index 0, FEN `p`.
    Pawn = 0,
    /// Index 1, FEN `n`.
    Knight = 1,
    /// Index 2, FEN `b`.
    Bishop = 2,
    /// Index 3, FEN `r`.
    Rook = 3,
    /// Index 4, FEN `q`.
    Queen = 4,
    /// Index 5, FEN `k`.
    King = 5,
}

impl PieceType {
    /// All six types in index order, pawn first.
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    /// Every type but the king, cheapest first (attacker order for SEE and threat scans).
    pub const NON_KING: [PieceType; 5] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ];

    /// 0 = pawn … 5 = king, for per-type tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece type with this index (0 = pawn … 5 = king); indices above 5 wrap to king.
    #[inline(always)]
    pub const fn from_index(index: usize) -> PieceType {
        match index {
            0 => PieceType::Pawn,
            1 => PieceType::Knight,
            2 => PieceType::Bishop,
            3 => PieceType::Rook,
            4 => PieceType::Queen,
            _ => PieceType::King,
        }
    }

    /// The lower-case letter used in FEN and in UCI promotions.
    pub const fn to_char(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    /// The type of a FEN letter in either case (`n` and `N` are both a knight); `None` for any
    /// other character.
    pub fn from_char(c: char) -> Option<PieceType> {
        Some(match c.to_ascii_lowercase() {
            'p' => PieceType::Pawn,
            'n' => PieceType::Knight,
            'b' => PieceType::Bishop,
            'r' => PieceType::Rook,
            'q' => PieceType::Queen,
            'k' => PieceType::King,
            _ => return None,
        })
    }
}

/// A coloured piece, packed as `color * 6 + piece_type` so `Option<Piece>` stays one byte.
/// The variants run White pawn (0) … White king (5), then Black pawn (6) … Black king (11).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
#[rustfmt::skip]
#[allow(missing_docs)] // a colour × type table: the lines above say what each variant is
pub enum Piece {
    WhitePawn, WhiteKnight, WhiteBishop, WhiteRook, WhiteQueen, WhiteKing,
    BlackPawn, BlackKnight, BlackBishop, BlackRook, BlackQueen, BlackKing,
}

impl Piece {
    #[rustfmt::skip]
    const ALL: [Piece; 12] = [
        Piece::WhitePawn, Piece::WhiteKnight, Piece::WhiteBishop, Piece::WhiteRook, Piece::WhiteQueen, Piece::WhiteKing,
        Piece::BlackPawn, Piece::BlackKnight, Piece::BlackBishop, Piece::BlackRook, Piece::BlackQueen, Piece::BlackKing,
    ];

    /// The piece of `color` and `piece_type` (index `color * 6 + piece_type`).
    #[inline(always)]
    pub const fn new(color: Color, piece_type: PieceType) -> Piece {
        Piece::ALL[color as usize * 6 + piece_type as usize]
    }

    /// 0..12, for per-piece tables (Zobrist keys, piece-square tables, histories).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// White for the first six variants, Black for the rest.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if (self as u8) < 6 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The kind of piece, colour dropped (index % 6).
    #[inline(always)]
    pub const fn piece_type(self) -> PieceType {
        PieceType::from_index(self as usize % 6)
    }

    /// FEN letter: upper case for White.
    pub fn to_char(self) -> char {
        let c = self.piece_type().to_char();
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// The piece of a FEN letter, upper case White and lower case Black; `None` if `c` is no
    /// piece letter.
    pub fn from_char(c: char) -> Option<Piece> {
        let piece_type = PieceType::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, piece_type))
    }
}
