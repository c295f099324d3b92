//! One training position in 32 bytes, the format of `escaque datagen` files.
//!
//! | bytes  | field |
//! |--------|-------|
//! | 0..8   | occupancy: a `u64` (little-endian), bit `i` set when square `i` (a1 = 0, h8 = 63) holds a piece |
//! | 8..24  | the pieces, 4 bits each in occupancy order (lowest square first, low nibble first): piece type (pawn 0 … king 5) plus 8 for black; unused nibbles are 0 |
//! | 24     | side to move in bit 7 (1 = black); en-passant square in bits 0..7 (64 = none) |
//! | 25     | castling rights: bit 0 white O-O, 1 white O-O-O, 2 black O-O, 3 black O-O-O (standard rook squares) |
//! | 26     | halfmove clock (saturated at 255) |
//! | 27..29 | fullmove number, `u16` little-endian |
//! | 29..31 | search score from White's point of view, `i16` little-endian, centipawns (never a mate score) |
//! | 31     | game result for White: 0 loss, 1 draw, 2 win |
//!
//! A file is a plain sequence of records with no header, so files concatenate with `cat` and a
//! run can append to its own output.

use crate::board::Board;
use crate::types::{Color, Piece, PieceType, Square};

/// Bytes in one record.
pub const RECORD_BYTES: usize = 32;

/// The outcome of the game a position came from, from White's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    BlackWin = 0,
    Draw = 1,
    WhiteWin = 2,
}

impl GameResult {
    /// 0, ½ or 1 for White.
    pub fn white_score(self) -> f32 {
        self as u8 as f32 / 2.0
    }
    fn from_byte(byte: u8) -> Option<GameResult> {
        match byte {
            0 => Some(GameResult::BlackWin),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWin),
            _ => None,
        }
    }
    /// `1-0`, `1/2-1/2` or `0-1`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWin => "1-0",
            GameResult::Draw => "1/2-1/2",
            GameResult::BlackWin => "0-1",
        }
    }
    pub fn from_pgn(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::WhiteWin),
            "1/2-1/2" => Some(GameResult::Draw),
            "0-1" => Some(GameResult::BlackWin),
            _ => None,
        }
    }
}

/// A position with its labels, packed into [`RECORD_BYTES`] bytes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct PackedPosition {
    pub bytes: [u8; RECORD_BYTES],
}

const NO_EP: u8 = 64;

impl PackedPosition {
    /// Packs a position with its labels. Positions with more than 32 pieces cannot be packed.
    pub fn pack(board: &Board, white_score: i16, result: GameResult) -> Option<PackedPosition> {
        let occupied = board.occupied();
        if occupied.count() > 32 {
            return None;
        }
        let mut bytes = [0u8; RECORD_BYTES];
        bytes[0..8].copy_from_slice(&occupied.0.to_le_bytes());
        for (i, sq) in occupied.into_iter().enumerate() {
            let piece = board.piece_on(sq)?;
            let nibble = piece.piece_type().index() as u8 | (piece.color().index() as u8) << 3;
            bytes[8 + i / 2] |= nibble << (4 * (i % 2));
        }
        let ep = board.en_passant().map_or(NO_EP, |sq| sq.index() as u8);
        bytes[24] = ep | (board.side_to_move().index() as u8) << 7;
        bytes[25] = board.castling_rights().0 & 0xF;
        bytes[26] = board.halfmove_clock().min(255) as u8;
        bytes[27..29].copy_from_slice(&board.fullmove_number().to_le_bytes());
        bytes[29..31].copy_from_slice(&white_score.to_le_bytes());
        bytes[31] = result as u8;
        Some(PackedPosition { bytes })
    }

    pub fn occupancy(&self) -> u64 {
        u64::from_le_bytes(self.bytes[0..8].try_into().expect("8 bytes"))
    }

    /// The pieces as (square index, colour index, piece-type index), in square order. Only
    /// meaningful for a record that passed [`PackedPosition::validate`].
    #[inline]
    pub fn pieces(&self) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        let mut occupied = self.occupancy();
        let mut i = 0;
        std::iter::from_fn(move || {
            if occupied == 0 {
                return None;
            }
            let sq = occupied.trailing_zeros() as usize;
            occupied &= occupied - 1;
            let nibble = (self.bytes[8 + i / 2] >> (4 * (i % 2))) & 0xF;
            i += 1;
            Some((sq, (nibble >> 3) as usize, (nibble & 7) as usize))
        })
    }

    pub fn side_to_move(&self) -> Color {
        if self.bytes[24] & 0x80 != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    pub fn en_passant(&self) -> Option<Square> {
        let ep = self.bytes[24] & 0x7F;
        (ep < NO_EP).then(|| Square::new(ep))
    }

    /// Search score from White's point of view (centipawns).
    pub fn white_score(&self) -> i16 {
        i16::from_le_bytes([self.bytes[29], self.bytes[30]])
    }

    /// Search score from the side to move's point of view.
    pub fn stm_score(&self) -> i16 {
        match self.side_to_move() {
            Color::White => self.white_score(),
            Color::Black => self.white_score().saturating_neg(),
        }
    }

    pub fn result(&self) -> GameResult {
        GameResult::from_byte(self.bytes[31]).unwrap_or(GameResult::Draw)
    }

    /// Game result for the side to move: 0, ½ or 1.
    pub fn stm_result(&self) -> f32 {
        match self.side_to_move() {
            Color::White => self.result().white_score(),
            Color::Black => 1.0 - self.result().white_score(),
        }
    }

    /// Number of pieces (kings included).
    pub fn piece_count(&self) -> u32 {
        self.occupancy().count_ones()
    }

    /// Checks the cheap invariants (piece codes, one king a side, labels in range) without
    /// building a board: what a trainer needs before it trusts a record.
    pub fn validate(&self) -> Result<(), String> {
        let count = self.piece_count() as usize;
        if count > 32 {
            return Err(format!("{count} pieces (at most 32)"));
        }
        let mut kings = [0; 2];
        for (i, (sq, color, piece_type)) in self.pieces().enumerate() {
            if piece_type > 5 {
                return Err(format!("bad piece code {piece_type} on square {sq}"));
            }
            if piece_type == 5 {
                kings[color] += 1;
            }
            if piece_type == 0 && !(8..56).contains(&sq) {
                return Err(format!("pawn on the back rank (square {sq})"));
            }
            debug_assert!(i < 32);
        }
        for nibble_index in count..32 {
            if (self.bytes[8 + nibble_index / 2] >> (4 * (nibble_index % 2))) & 0xF != 0 {
                return Err("stray bits after the last piece".to_string());
            }
        }
        if kings != [1, 1] {
            return Err(format!("{} white and {} black kings", kings[0], kings[1]));
        }
        if self.bytes[24] & 0x7F > NO_EP {
            return Err(format!("bad en-passant square {}", self.bytes[24] & 0x7F));
        }
        if self.bytes[25] > 0xF {
            return Err(format!("bad castling byte {}", self.bytes[25]));
        }
        if GameResult::from_byte(self.bytes[31]).is_none() {
            return Err(format!("bad result byte {}", self.bytes[31]));
        }
        Ok(())
    }

    /// The position as a FEN (standard castling notation).
    pub fn to_fen(&self) -> String {
        let mut grid: [Option<Piece>; 64] = [None; 64];
        for (sq, color, piece_type) in self.pieces() {
            let color = if color == 0 {
                Color::White
            } else {
                Color::Black
            };
            grid[sq] = Some(Piece::new(color, PieceType::from_index(piece_type.min(5))));
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match grid[rank * 8 + file] {
                    Some(piece) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(piece.to_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push(' ');
        fen.push(self.side_to_move().to_char());
        fen.push(' ');
        let rights = self.bytes[25];
        if rights & 0xF == 0 {
            fen.push('-');
        }
        for (bit, c) in [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')] {
            if rights & bit != 0 {
                fen.push(c);
            }
        }
        fen.push(' ');
        match self.en_passant() {
            Some(sq) => fen.push_str(&sq.to_string()),
            None => fen.push('-'),
        }
        let fullmove = u16::from_le_bytes([self.bytes[27], self.bytes[28]]);
        fen.push_str(&format!(" {} {}", self.bytes[26], fullmove.max(1)));
        fen
    }

    /// The position as a board (checked by the FEN parser).
    pub fn to_board(&self) -> Result<Board, String> {
        self.validate()?;
        Board::from_fen(&self.to_fen()).map_err(|e| format!("{e}"))
    }

    /// The text form, one line: `<FEN> | <white score> | <result>`.
    pub fn to_text(&self) -> String {
        format!(
            "{} | {} | {}",
            self.to_fen(),
            self.white_score(),
            self.result().pgn()
        )
    }

    /// Parses [`PackedPosition::to_text`]'s form.
    pub fn from_text(line: &str) -> Result<PackedPosition, String> {
        let mut fields = line.split('|').map(str::trim);
        let (Some(fen), Some(score), Some(result), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err("expected '<FEN> | <score> | <result>'".to_string());
        };
        let board = Board::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?;
        let score: i16 = score.parse().map_err(|_| format!("bad score '{score}'"))?;
        let result = GameResult::from_pgn(result).ok_or(format!("bad result '{result}'"))?;
        PackedPosition::pack(&board, score, result).ok_or("more than 32 pieces".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips_through_fen_and_text() {
        for fen in [
            crate::board::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/8/8/8/8/8/K6k b - - 99 300",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let packed = PackedPosition::pack(&board, -123, GameResult::BlackWin).unwrap();
            packed.validate().unwrap();
            assert_eq!(packed.to_board().unwrap().to_fen(), board.to_fen());
            assert_eq!(packed.white_score(), -123);
            assert_eq!(packed.result(), GameResult::BlackWin);
            assert_eq!(
                PackedPosition::from_text(&packed.to_text()).unwrap(),
                packed
            );
        }
    }

    #[test]
    fn stm_labels_follow_the_side_to_move() {
        let board = Board::from_fen("4k3/8/8/8/8/8/8/4K2R b K - 0 1").unwrap();
        let packed = PackedPosition::pack(&board, 300, GameResult::WhiteWin).unwrap();
        assert_eq!(packed.stm_score(), -300);
        assert_eq!(packed.stm_result(), 0.0);
    }

    #[test]
    fn corrupt_records_are_refused() {
        let board = Board::startpos();
        let good = PackedPosition::pack(&board, 0, GameResult::Draw).unwrap();
        let mut bad = good;
        bad.bytes[31] = 7;
        assert!(bad.validate().is_err());
        let mut bad = good;
        bad.bytes[8] = 0x66; // two bad piece codes
        assert!(bad.validate().is_err());
        let mut bad = good;
        bad.bytes[0..8].copy_from_slice(&0u64.to_le_bytes());
        assert!(bad.validate().is_err());
    }
}
