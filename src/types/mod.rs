//! Vocabulary types of the rules: squares, colours, pieces, bitboards, moves and castling rights.
//! Nothing here knows about boards, move generation or search.
#![warn(missing_docs)]

mod bitboard;
mod castling;
mod chess_move;
mod color;
mod piece;
mod square;

pub use bitboard::Bitboard;
pub use castling::{CastleSide, CastlingRights};
pub use chess_move::{Move, MoveFlag};
pub use color::Color;
pub use piece::{Piece, PieceType};
pub use square::{File, Rank, Square};
