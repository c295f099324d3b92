//! Facts about a record computed straight from its packed bytes, without building a `Board`
//! (which goes through a FEN and costs about a microsecond): the tools ask them of every record
//! of files with tens of millions.

use super::packed::PackedPosition;
use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::board::zobrist;
use crate::types::{Bitboard, CastlingRights, Color, Piece, PieceType, Square};

impl PackedPosition {
    /// The board's own Zobrist key ([`crate::board::Board::hash`]): placement, side to move,
    /// castling rights and en passant. `pack` stores the en-passant square only when a capture
    /// there is legal, which is also when the board hashes it, so the two keys agree; the
    /// clocks, score and result are not part of it.
    pub fn key(&self) -> u64 {
        let mut key = zobrist::side(self.side_to_move())
            ^ zobrist::castling(CastlingRights(self.bytes[25] & 0xF));
        for (sq, color, piece_type) in self.pieces() {
            key ^= zobrist::piece_square(piece(color, piece_type), Square::new(sq as u8));
        }
        if let Some(ep) = self.en_passant() {
            key ^= zobrist::en_passant(ep);
        }
        key
    }

    /// Whether the side to move is in check. Only meaningful for a record that passed
    /// [`PackedPosition::validate`] (one king a side).
    pub fn in_check(&self) -> bool {
        let us = self.side_to_move();
        let occupied = Bitboard(self.occupancy());
        let mut king = None;
        // Their pieces by type: pawn, knight, bishop, rook, queen, king.
        let mut theirs = [Bitboard(0); 6];
        for (sq, color, piece_type) in self.pieces() {
            let sq = Square::new(sq as u8);
            if color == us.index() {
                if piece_type == PieceType::King.index() {
                    king = Some(sq);
                }
            } else {
                theirs[piece_type] |= Bitboard::from_square(sq);
            }
        }
        let Some(king) = king else {
            return false;
        };
        let diagonal = theirs[PieceType::Bishop.index()] | theirs[PieceType::Queen.index()];
        let orthogonal = theirs[PieceType::Rook.index()] | theirs[PieceType::Queen.index()];
        let checkers = (pawn_attacks(us, king) & theirs[PieceType::Pawn.index()])
            | (knight_attacks(king) & theirs[PieceType::Knight.index()])
            | (king_attacks(king) & theirs[PieceType::King.index()])
            | (bishop_attacks(king, occupied) & diagonal)
            | (rook_attacks(king, occupied) & orthogonal);
        checkers.is_nonempty()
    }

    /// Plies played since the start of the game, from the fullmove number and the side to move
    /// (0 at the start position). Games from a book count from the book position's move number.
    pub fn game_ply(&self) -> u32 {
        let fullmove = u32::from(u16::from_le_bytes([self.bytes[27], self.bytes[28]])).max(1);
        2 * (fullmove - 1) + u32::from(self.side_to_move() == Color::Black)
    }
}

fn piece(color: usize, piece_type: usize) -> Piece {
    let color = if color == 0 {
        Color::White
    } else {
        Color::Black
    };
    Piece::new(color, PieceType::from_index(piece_type.min(5)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, MoveList};
    use crate::random::splitmix64;
    use crate::tools::data::GameResult;

    /// Positions of a few seeded random games, with en passant, castling and checks among them.
    fn random_game_boards() -> Vec<Board> {
        let mut boards = Vec::new();
        let mut state = 42;
        for _ in 0..40 {
            let mut board = Board::startpos();
            for _ in 0..120 {
                let mut moves = MoveList::new();
                board.generate_all(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let index = (splitmix64(&mut state) % moves.len() as u64) as usize;
                board = board.make_move(moves[index]);
                if board.occupied().count() <= 32 {
                    boards.push(board);
                }
            }
        }
        boards
    }

    #[test]
    fn key_check_and_ply_agree_with_the_board() {
        let boards = random_game_boards();
        let (mut checks, mut en_passants) = (0, 0);
        for board in &boards {
            let record = PackedPosition::pack(board, 0, GameResult::Draw).unwrap();
            assert_eq!(record.key(), board.hash(), "{}", board.to_fen());
            assert_eq!(record.in_check(), board.in_check(), "{}", board.to_fen());
            let expected_ply = 2 * (u32::from(board.fullmove_number()) - 1)
                + u32::from(board.side_to_move() == Color::Black);
            assert_eq!(record.game_ply(), expected_ply);
            checks += usize::from(board.in_check());
            en_passants += usize::from(board.en_passant().is_some());
        }
        // The games must exercise what the key and the check test handle specially.
        assert!(
            checks > 10 && en_passants > 0,
            "{checks} checks, {en_passants} ep"
        );
    }

    #[test]
    fn key_ignores_clocks_and_labels_only() {
        let a = Board::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let b = Board::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 7 30").unwrap();
        let c = Board::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1").unwrap();
        let d = Board::from_fen("4k3/8/8/8/8/8/8/4K2R b K - 0 1").unwrap();
        let key = |board: &Board, score| {
            PackedPosition::pack(board, score, GameResult::WhiteWin)
                .unwrap()
                .key()
        };
        assert_eq!(key(&a, 10), key(&b, -50));
        assert_ne!(key(&a, 10), key(&c, 10));
        assert_ne!(key(&a, 10), key(&d, 10));
    }
}
