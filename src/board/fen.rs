//! FEN and X-FEN/Shredder-FEN parsing with validation, and FEN output.

use std::fmt;

use super::Board;
use crate::attacks::pawn_attacks;
use crate::types::{Bitboard, CastleSide, Color, File, Piece, PieceType, Rank, Square};

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not 4 or 6 space-separated fields.
    FieldCount(usize),
    /// The placement field does not have 8 ranks.
    RankCount(usize),
    /// A rank of the placement field does not cover exactly 8 files.
    RankLength {
        /// Position of the rank in the placement field: 0 is the first listed, rank 8.
        rank: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–8.
    BadPlacementChar(char),
    /// The side to move is not `w` or `b`.
    BadSideToMove(String),
    /// An unknown character or a repeated right in the castling field.
    BadCastling(String),
    /// A castling right whose king or rook is not where it must be.
    CastlingPiecesMissing(char),
    /// The en-passant field is not `-` or a square.
    BadEnPassant(String),
    /// An en-passant square that no double pawn push can have produced.
    ImpossibleEnPassant(Square),
    /// The halfmove clock is not a plain number 0–65535.
    BadHalfmoveClock(String),
    /// The fullmove number is not a plain number 1–65535.
    BadFullmoveNumber(String),
    /// A side has no king or more than one.
    KingCount {
        /// The side at fault.
        color: Color,
        /// Its number of kings.
        count: u32,
    },
    /// A pawn on the first or eighth rank.
    PawnOnBackRank(Square),
    /// A side has more than 8 pawns.
    TooManyPawns {
        /// The side at fault.
        color: Color,
        /// Its number of pawns.
        count: u32,
    },
    /// A side has more than 16 pieces (the king and pawns included).
    TooManyPieces {
        /// The side at fault.
        color: Color,
        /// Its number of pieces, king and pawns included.
        count: u32,
    },
    /// A side has more promoted pieces (queens beyond 1, rooks, bishops or knights beyond 2)
    /// than it has missing pawns.
    TooManyPromoted {
        /// The side at fault.
        color: Color,
        /// Its pieces beyond 1 queen and 2 each of rooks, bishops and knights.
        promoted: u32,
        /// Its number of pawns (so `8 - pawns` are missing).
        pawns: u32,
    },
    /// The side that just moved is in check.
    OpponentInCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => {
                write!(f, "expected 6 fields (or 4 without clocks), got {n}")
            }
            FenError::RankCount(n) => write!(f, "piece placement has {n} ranks, expected 8"),
            FenError::RankLength { rank } => {
                write!(
                    f,
                    "rank {} of the placement does not have 8 squares",
                    8 - rank
                )
            }
            FenError::BadPlacementChar(c) => {
                write!(f, "invalid character '{c}' in piece placement")
            }
            FenError::BadSideToMove(s) => write!(f, "side to move must be 'w' or 'b', got '{s}'"),
            FenError::BadCastling(s) => write!(f, "invalid castling field '{s}'"),
            FenError::CastlingPiecesMissing(c) => {
                write!(f, "castling right '{c}' without the king and rook in place")
            }
            FenError::BadEnPassant(s) => write!(f, "invalid en-passant field '{s}'"),
            FenError::ImpossibleEnPassant(sq) => write!(f, "impossible en-passant square {sq}"),
            FenError::BadHalfmoveClock(s) => {
                write!(f, "invalid halfmove clock '{s}' (expected 0 to 65535)")
            }
            FenError::BadFullmoveNumber(s) => {
                write!(f, "invalid fullmove number '{s}' (expected 1 to 65535)")
            }
            FenError::KingCount { color, count } => {
                write!(f, "{} has {count} kings, expected exactly 1", side(*color))
            }
            FenError::PawnOnBackRank(sq) => write!(f, "pawn on the first or last rank ({sq})"),
            FenError::TooManyPawns { color, count } => {
                write!(f, "{} has {count} pawns, at most 8 possible", side(*color))
            }
            FenError::TooManyPieces { color, count } => {
                write!(
                    f,
                    "{} has {count} pieces, at most 16 possible",
                    side(*color)
                )
            }
            FenError::TooManyPromoted {
                color,
                promoted,
                pawns,
            } => write!(
                f,
                "{} has {promoted} promoted pieces but only {} missing pawns \
                 (pieces beyond 1 queen and 2 rooks, bishops or knights need a promotion)",
                side(*color),
                8 - pawns
            ),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

fn side(color: Color) -> &'static str {
    if color == Color::White {
        "white"
    } else {
        "black"
    }
}

/// Refuses material no game can reach: more than 8 pawns or 16 pieces a side, or more promoted
/// pieces than missing pawns. This is also what keeps every accepted position, and every position
/// reachable from it by legal moves (a move never breaks these counts), within the capacity of
/// [`super::MoveList`]: no placement of such material has more than 218 legal moves (T. Peter's
/// 2024 computer proof searched all placements of material of this kind, not only reachable
/// positions).
fn check_material(board: &Board) -> Result<(), FenError> {
    for color in Color::ALL {
        let count = |pt| board.pieces_of(color, pt).count();
        let pawns = count(PieceType::Pawn);
        if pawns > 8 {
            return Err(FenError::TooManyPawns {
                color,
                count: pawns,
            });
        }
        let pieces = board.colored(color).count();
        if pieces > 16 {
            return Err(FenError::TooManyPieces {
                color,
                count: pieces,
            });
        }
        let promoted = count(PieceType::Queen).saturating_sub(1)
            + count(PieceType::Rook).saturating_sub(2)
            + count(PieceType::Bishop).saturating_sub(2)
            + count(PieceType::Knight).saturating_sub(2);
        if promoted > 8 - pawns {
            return Err(FenError::TooManyPromoted {
                color,
                promoted,
                pawns,
            });
        }
    }
    Ok(())
}

impl Board {
    /// Parses and validates a FEN. Accepts 6 fields or 4 (clocks default to 0 and 1), castling as
    /// `KQkq` (X-FEN: the outermost rook on that side) or as Shredder-FEN rook files (`HAha`).
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 6 && fields.len() != 4 {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut board = Board::empty();
        parse_placement(&mut board, fields[0])?;
        board.side_to_move = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::BadSideToMove(other.to_string())),
        };
        for color in Color::ALL {
            let count = board.pieces_of(color, PieceType::King).count();
            if count != 1 {
                return Err(FenError::KingCount { color, count });
            }
        }
        let back_ranks = Bitboard::rank(Rank::FIRST) | Bitboard::rank(Rank::EIGHTH);
        if let Some(sq) = (board.pieces(PieceType::Pawn) & back_ranks).next() {
            return Err(FenError::PawnOnBackRank(sq));
        }
        check_material(&board)?;
        parse_castling(&mut board, fields[2])?;
        board.update_castling_rooks();
        let en_passant = parse_en_passant(&board, fields[3])?;
        if fields.len() == 6 {
            // Digits only (no sign), within the u16 counters: every FEN `to_fen` prints (the
            // counters saturate at 65535) reads back.
            board.halfmove_clock = parse_counter(fields[4])
                .ok_or_else(|| FenError::BadHalfmoveClock(fields[4].to_string()))?;
            board.fullmove_number = parse_counter(fields[5])
                .filter(|&n| n >= 1)
                .ok_or_else(|| FenError::BadFullmoveNumber(fields[5].to_string()))?;
        }
        let them = !board.side_to_move;
        if board.is_attacked_by(board.king(them), board.side_to_move, board.occupied()) {
            return Err(FenError::OpponentInCheck);
        }
        board.update_checks_and_pins();
        // Keep the en-passant square only when a capture there is legal (as after a real move).
        if let Some(ep) = en_passant {
            let capturers =
                pawn_attacks(them, ep) & board.pieces_of(board.side_to_move, PieceType::Pawn);
            if capturers
                .into_iter()
                .any(|p| board.en_passant_is_legal(p, ep))
            {
                board.en_passant = Some(ep);
            }
        }
        board.key = board.compute_hash();
        Ok(board)
    }

    /// The position as FEN. Castling rights print as `KQkq` when the rook is the outermost one
    /// on its side (always so in standard chess), otherwise as Shredder-FEN file letters.
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_on(Square::from_coords(File::new(file), Rank::new(rank))) {
                    Some(piece) => {
                        if empty > 0 {
                            fen.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        fen.push(piece.to_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push((b'0' + empty) as char);
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push(' ');
        fen.push(self.side_to_move.to_char());
        fen.push(' ');
        let castling_start = fen.len();
        for color in Color::ALL {
            for side in CastleSide::BOTH {
                if let Some(rook) = self.castle_rook(color, side) {
                    let c = if self.outermost_rook(color, side) == Some(rook) {
                        if side == CastleSide::King {
                            'k'
                        } else {
                            'q'
                        }
                    } else {
                        rook.file().to_char()
                    };
                    fen.push(if color == Color::White {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    });
                }
            }
        }
        if fen.len() == castling_start {
            fen.push('-');
        }
        match self.en_passant {
            Some(sq) => fen.push_str(&format!(" {sq}")),
            None => fen.push_str(" -"),
        }
        fen.push_str(&format!(
            " {} {}",
            self.halfmove_clock, self.fullmove_number
        ));
        fen
    }

    /// The rook of `color` on its first rank furthest from the king towards `side`.
    fn outermost_rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        let king = self.king(color);
        let rank = Rank::FIRST.relative_to(color);
        if king.rank() != rank {
            return None;
        }
        let rooks = self.pieces_of(color, PieceType::Rook) & Bitboard::rank(rank);
        let beyond = rooks.into_iter().filter(|r| match side {
            CastleSide::King => r.file() > king.file(),
            CastleSide::Queen => r.file() < king.file(),
        });
        match side {
            CastleSide::King => beyond.max(),
            CastleSide::Queen => beyond.min(),
        }
    }
}

/// A move counter: ASCII digits only, at most 65535.
fn parse_counter(text: &str) -> Option<u16> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn parse_placement(board: &mut Board, placement: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = Rank::new(7 - i as u8);
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(skip) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += skip as u8;
            } else {
                let piece = Piece::from_char(c).ok_or(FenError::BadPlacementChar(c))?;
                if file >= 8 {
                    return Err(FenError::RankLength { rank: i });
                }
                board.put_piece(piece, Square::from_coords(File::new(file), rank));
                file += 1;
            }
            if file > 8 {
                return Err(FenError::RankLength { rank: i });
            }
        }
        if file != 8 {
            return Err(FenError::RankLength { rank: i });
        }
    }
    Ok(())
}

fn parse_castling(board: &mut Board, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let king = board.king(color);
        let rank = Rank::FIRST.relative_to(color);
        let rook = match c.to_ascii_lowercase() {
            'k' => board.outermost_rook(color, CastleSide::King),
            'q' => board.outermost_rook(color, CastleSide::Queen),
            'a'..='h' => {
                let sq = Square::from_coords(
                    File::from_char(c.to_ascii_lowercase()).unwrap_or(File::A),
                    rank,
                );
                let ok = king.rank() == rank
                    && sq != king
                    && board.piece_on(sq) == Some(Piece::new(color, PieceType::Rook));
                ok.then_some(sq)
            }
            _ => return Err(FenError::BadCastling(field.to_string())),
        };
        let rook = rook.ok_or(FenError::CastlingPiecesMissing(c))?;
        let side = if rook.file() > king.file() {
            CastleSide::King
        } else {
            CastleSide::Queen
        };
        if board.castling.has(color, side) {
            return Err(FenError::BadCastling(field.to_string()));
        }
        board.castling.add(color, side);
        board.castle_rook_files[color.index()][side as usize] = rook.file();
    }
    Ok(())
}

fn parse_en_passant(board: &Board, field: &str) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let sq: Square = field
        .parse()
        .map_err(|_| FenError::BadEnPassant(field.to_string()))?;
    let us = board.side_to_move;
    let them = !us;
    // The square a double push skipped: on rank 6 (from the mover's side), empty, with the
    // pushed pawn in front of it and its origin square empty.
    let possible = sq.rank() == Rank::new(5).relative_to(us)
        && board.piece_on(sq).is_none()
        && board.piece_on(sq.forward(us)).is_none()
        && board.piece_on(sq.forward(them)) == Some(Piece::new(them, PieceType::Pawn));
    if !possible {
        return Err(FenError::ImpossibleEnPassant(sq));
    }
    Ok(Some(sq))
}
