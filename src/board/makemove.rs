//! Making a move on a copy of the board, with incremental Zobrist key, clocks and rights.

use super::{zobrist, Board};
use crate::attacks::pawn_attacks;
use crate::types::{Bitboard, CastleSide, Color, Move, MoveFlag, Piece, PieceType};

impl Board {
    /// The position after the legal move `mv`. Moves that are not legal here must not be passed
    /// (check them with [`Board::is_legal`] first when they come from outside the generator).
    #[inline]
    pub fn make_move(&self, mv: Move) -> Board {
        let mut board = *self;
        board.play(mv);
        board
    }

    /// [`Board::make_move`] in place: plays the legal move `mv` on this board.
    ///
    /// Hot loops copy the parent once into a local and play on that. Returning the new board
    /// from [`Board::make_move`] can cost a second copy, whose wide loads of fields `play` has
    /// just written one by one stall on store forwarding (about 9% of `perft 6 --hash 0`).
    pub fn play(&mut self, mv: Move) {
        let us = self.side_to_move;
        let them = !us;
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.piece_on(from) else {
            debug_assert!(false, "no piece on the origin of {mv:?}");
            return;
        };
        let old_castling = self.castling;

        if let Some(ep) = self.en_passant.take() {
            self.key ^= zobrist::en_passant(ep);
        }
        // Saturating: a clock that wrapped would forget the fifty-move rule and print a FEN
        // (fullmove 0) that the parser refuses.
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        let mut double_push_target = None;

        match mv.flag() {
            MoveFlag::Castle => {
                let side = if to > from {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                };
                let (king_to, rook_to) = Board::castle_destinations(us, side);
                let rook = Piece::new(us, PieceType::Rook);
                self.remove_piece(piece, from);
                self.remove_piece(rook, to);
                self.put_piece(piece, king_to);
                self.put_piece(rook, rook_to);
            }
            flag => {
                if flag == MoveFlag::EnPassant {
                    self.remove_piece(Piece::new(them, PieceType::Pawn), to.forward(them));
                } else if mv.is_capture() {
                    if let Some(captured) = self.piece_on(to) {
                        self.remove_piece(captured, to);
                    }
                }
                if mv.is_capture() || piece.piece_type() == PieceType::Pawn {
                    self.halfmove_clock = 0;
                }
                self.remove_piece(piece, from);
                let placed = mv.promotion().map_or(piece, |p| Piece::new(us, p));
                self.put_piece(placed, to);
                if flag == MoveFlag::DoublePush {
                    double_push_target = Some(from.forward(us));
                }
            }
        }

        let touches_rook =
            (self.castling_rooks & (Bitboard::from(from) | Bitboard::from(to))).is_nonempty();
        if old_castling.0 != 0 && (touches_rook || piece.piece_type() == PieceType::King) {
            if piece.piece_type() == PieceType::King {
                self.castling.remove_color(us);
            }
            for color in Color::ALL {
                for side in CastleSide::BOTH {
                    if let Some(rook) = self.castle_rook(color, side) {
                        if rook == from || rook == to {
                            self.castling.remove(color, side);
                        }
                    }
                }
            }
            self.update_castling_rooks();
            self.key ^= zobrist::castling(old_castling) ^ zobrist::castling(self.castling);
        }

        self.side_to_move = them;
        self.key ^= zobrist::side(Color::Black);
        self.update_checks_and_pins();

        // Record the en-passant square only if the reply can really capture there.
        if let Some(ep) = double_push_target {
            let capturers = pawn_attacks(us, ep) & self.pieces_of(them, PieceType::Pawn);
            if capturers
                .into_iter()
                .any(|p| self.en_passant_is_legal(p, ep))
            {
                self.en_passant = Some(ep);
                self.key ^= zobrist::en_passant(ep);
            }
        }
        debug_assert_eq!(self.key, self.compute_hash());
    }
}
