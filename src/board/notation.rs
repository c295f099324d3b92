//! Moves in UCI long algebraic notation (`e2e4`, `e7e8q`). Castling is written king-to-destination
//! (`e1g1`) in standard chess and king-takes-rook (`e1h1`) in Chess960 mode, and also in standard
//! mode when the king is not on the e-file (a Chess960 position): `b1c1` for a king on b1
//! castling with the a1 rook would read back as the king's step to c1.

use std::fmt;

use super::Board;
use crate::types::{CastleSide, File, Move, PieceType, Square};

/// Why a move string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// Not of the form `<from><to>[promotion]`.
    Syntax(String),
    /// Well-formed but not a legal move in the position.
    Illegal(String),
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Syntax(s) => write!(f, "cannot parse move '{s}'"),
            MoveParseError::Illegal(s) => write!(f, "illegal move '{s}'"),
        }
    }
}

impl std::error::Error for MoveParseError {}

impl Board {
    /// `mv` in UCI notation; `chess960` selects king-takes-rook castling. Without it, castling
    /// is written king-to-destination only when the king stands on the e-file: then the king
    /// moves two files (or its destination holds the rook, whose text is king-takes-rook
    /// anyway), which no other move can, so the text is unique. A king elsewhere may land next
    /// to its square, where the text would be a king step's, so such castling is always written
    /// king-takes-rook (the rook's square holds our own piece: no other move goes there).
    pub fn move_to_uci(&self, mv: Move, chess960: bool) -> String {
        if mv.is_null() {
            return "0000".to_string();
        }
        let to = if mv.is_castle() && !chess960 && mv.from().file() == File::E {
            let side = if mv.to() > mv.from() {
                CastleSide::King
            } else {
                CastleSide::Queen
            };
            Board::castle_destinations(self.side_to_move(), side).0
        } else {
            mv.to()
        };
        let mut text = format!("{}{}", mv.from(), to);
        if let Some(piece) = mv.promotion() {
            text.push(piece.to_char());
        }
        text
    }

    /// Parses a UCI move and checks it is legal (promotion letters in either case). A text is
    /// read as the move [`Board::move_to_uci`] writes that way; king-takes-rook castling is also
    /// accepted when `chess960` is off.
    pub fn parse_uci_move(&self, text: &str, chess960: bool) -> Result<Move, MoveParseError> {
        let syntax = || MoveParseError::Syntax(text.to_string());
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(syntax());
        }
        let from: Square = text[0..2].parse().map_err(|_| syntax())?;
        let to: Square = text[2..4].parse().map_err(|_| syntax())?;
        let promotion = match text[4..].chars().next() {
            None => None,
            Some(c) => match PieceType::from_char(c) {
                // Upper-case letters are accepted on input (some GUIs send them); output is lower.
                Some(p) if !matches!(p, PieceType::Pawn | PieceType::King) => Some(p),
                _ => return Err(syntax()),
            },
        };
        self.legal_moves()
            .into_iter()
            .find(|&mv| {
                mv.from() == from
                    && mv.promotion() == promotion
                    && (self.move_to_uci(mv, chess960)[2..4] == text[2..4]
                        || (mv.is_castle() && mv.to() == to))
            })
            .ok_or_else(|| MoveParseError::Illegal(text.to_string()))
    }
}
