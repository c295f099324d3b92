//! The position: piece placement, side to move, castling rights (Chess960-aware), en passant,
//! clocks and Zobrist key, with cached checkers and pinned pieces. Boards are small and `Copy`;
//! making a move returns a new board (copy-make), so the search keeps no undo stack.
#![warn(missing_docs)]

mod castle_paths;
mod check;
mod fen;
mod game;
mod makemove;
mod movegen;
mod notation;
mod see;
pub(crate) mod zobrist;

pub use check::CheckSquares;
pub use fen::FenError;
pub use game::{is_repetition_draw, repetitions_of, Game, Outcome};
pub use movegen::{MoveList, MoveSink, PawnMoves};
pub use notation::MoveParseError;
pub use see::SEE_VALUES;

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    rook_rays,
};
use crate::types::{
    Bitboard, CastleSide, CastlingRights, Color, File, Move, Piece, PieceType, Rank, Square,
};

/// The FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A chess position. Invariants (upheld by FEN validation and by making only legal moves): one
/// king per side, the side not to move is not in check, `mailbox` agrees with the bitboards.
#[derive(Copy, Clone, Debug)]
pub struct Board {
    pieces: [Bitboard; 6],
    colors: [Bitboard; 2],
    mailbox: [Option<Piece>; 64],
    side_to_move: Color,
    castling: CastlingRights,
    /// Files of the castling rooks, `[color][side]`; only meaningful while the right is held.
    castle_rook_files: [[File; 2]; 2],
    /// Squares of the rooks that still carry a castling right: a move touching none of them
    /// (and not a king move) cannot change the rights, which spares make_move a loop.
    castling_rooks: Bitboard,
    /// Set only when an en-passant capture is actually legal, so repetition keys follow FIDE.
    en_passant: Option<Square>,
    halfmove_clock: u16,
    fullmove_number: u16,
    key: u64,
    checkers: Bitboard,
    pinned: Bitboard,
}

impl Board {
    /// The type of the piece `mv` captures (a pawn for en passant), `None` for a non-capture.
    #[inline(always)]
    pub fn captured_type(&self, mv: Move) -> Option<PieceType> {
        if mv.is_en_passant() {
            Some(PieceType::Pawn)
        } else if mv.is_capture() {
            self.piece_on(mv.to()).map(|p| p.piece_type())
        } else {
            None
        }
    }

    /// Whether `color` has a piece other than pawns and its king (null-move pruning is unsafe
    /// without one: zugzwang).
    #[inline(always)]
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        (self.colored(color) & !self.pieces(PieceType::Pawn) & !self.pieces(PieceType::King))
            .is_nonempty()
    }

    /// The standard starting position.
    pub fn startpos() -> Board {
        Board::from_fen(START_FEN).expect("the start FEN is valid")
    }

    fn empty() -> Board {
        Board {
            pieces: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            mailbox: [None; 64],
            side_to_move: Color::White,
            castling: CastlingRights::NONE,
            castle_rook_files: [[File::H, File::A]; 2],
            castling_rooks: Bitboard::EMPTY,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        }
    }

    /// The colour that moves next.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }
    /// The piece on `sq`, `None` if it is empty (a mailbox read, no bitboard scan).
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq.index()]
    }
    /// All pieces of one type, both colours.
    #[inline(always)]
    pub fn pieces(&self, piece_type: PieceType) -> Bitboard {
        self.pieces[piece_type.index()]
    }
    /// All pieces of one colour.
    #[inline(always)]
    pub fn colored(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }
    /// The pieces of one colour and one type.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color, piece_type: PieceType) -> Bitboard {
        self.pieces[piece_type.index()] & self.colors[color.index()]
    }
    /// Every occupied square, both colours.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }
    /// The square of `color`'s king (a valid board has exactly one per side).
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.pieces_of(color, PieceType::King).lsb()
    }
    /// Bishops and queens of `color`.
    #[inline(always)]
    pub fn diagonal_sliders(&self, color: Color) -> Bitboard {
        (self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen)) & self.colored(color)
    }
    /// Rooks and queens of `color`.
    #[inline(always)]
    pub fn orthogonal_sliders(&self, color: Color) -> Bitboard {
        (self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen)) & self.colored(color)
    }
    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }
    /// Whether the side to move is in check (from the cached checkers).
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.is_nonempty()
    }
    /// Pieces of the side to move pinned to their own king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }
    /// The Zobrist key of placement, side to move, castling rights and (capturable) en passant.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.key
    }
    /// Plies since the last capture or pawn move, for the fifty-move rule; saturates at 65535.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }
    /// FEN's move number: 1 in the start position, incremented after each Black move; saturates
    /// at 65535.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }
    /// The en-passant target square, present only when a legal en-passant capture exists.
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }
    /// The castling rights still held (not whether castling is legal now); the rooks' squares come
    /// from [`Board::castle_rook`].
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }
    /// The square of the rook `color` may castle with on `side`, if that right is held.
    #[inline(always)]
    pub fn castle_rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        self.castling.has(color, side).then(|| {
            Square::from_coords(
                self.castle_rook_files[color.index()][side as usize],
                Rank::FIRST.relative_to(color),
            )
        })
    }

    /// All pieces of either colour attacking `sq`, with `occupied` as the blockers.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        (knight_attacks(sq) & self.pieces(PieceType::Knight))
            | (king_attacks(sq) & self.pieces(PieceType::King))
            | (pawn_attacks(Color::White, sq) & self.pieces_of(Color::Black, PieceType::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces_of(Color::White, PieceType::Pawn))
            | (bishop_attacks(sq, occupied)
                & (self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen)))
            | (rook_attacks(sq, occupied)
                & (self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen)))
    }

    /// Whether `by` attacks `sq`, with `occupied` as the blockers.
    #[inline(always)]
    pub fn is_attacked_by(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let them = self.colored(by);
        (knight_attacks(sq) & self.pieces(PieceType::Knight) & them).is_nonempty()
            || (pawn_attacks(!by, sq) & self.pieces(PieceType::Pawn) & them).is_nonempty()
            || (king_attacks(sq) & self.pieces(PieceType::King) & them).is_nonempty()
            || (bishop_attacks(sq, occupied) & self.diagonal_sliders(by)).is_nonempty()
            || (rook_attacks(sq, occupied) & self.orthogonal_sliders(by)).is_nonempty()
    }

    /// Recomputes the cached checkers and pins for the side to move.
    pub(crate) fn update_checks_and_pins(&mut self) {
        let us = self.side_to_move;
        let them = !us;
        let king = self.king(us);
        let mut checkers = (knight_attacks(king) & self.pieces_of(them, PieceType::Knight))
            | (pawn_attacks(us, king) & self.pieces_of(them, PieceType::Pawn));
        let (slider_checkers, lone_blockers) = self.slider_lines(king, them);
        checkers |= slider_checkers;
        self.checkers = checkers;
        self.pinned = lone_blockers & self.colored(us);
    }

    /// `by`'s sliders on a line through `king`: those with nothing between (they attack it), and
    /// the pieces of either colour that stand alone between one of them and it (a pin, or a
    /// discovered check waiting). Sliders on a line whatever stands between are a table read
    /// each, not a magic lookup; the squares between each one and the king then tell.
    #[inline(always)]
    pub(crate) fn slider_lines(&self, king: Square, by: Color) -> (Bitboard, Bitboard) {
        let occupied = self.occupied();
        let snipers = (bishop_rays(king) & self.diagonal_sliders(by))
            | (rook_rays(king) & self.orthogonal_sliders(by));
        let (mut attackers, mut lone_blockers) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if blockers.is_empty() {
                attackers |= Bitboard::from(sniper);
            } else if !blockers.has_many() {
                lone_blockers |= blockers;
            }
        }
        (attackers, lone_blockers)
    }

    #[inline(always)]
    fn put_piece(&mut self, piece: Piece, sq: Square) {
        let bit = Bitboard::from(sq);
        self.pieces[piece.piece_type().index()] |= bit;
        self.colors[piece.color().index()] |= bit;
        self.mailbox[sq.index()] = Some(piece);
        self.key ^= zobrist::piece_square(piece, sq);
    }

    #[inline(always)]
    fn remove_piece(&mut self, piece: Piece, sq: Square) {
        let bit = Bitboard::from(sq);
        self.pieces[piece.piece_type().index()] ^= bit;
        self.colors[piece.color().index()] ^= bit;
        self.mailbox[sq.index()] = None;
        self.key ^= zobrist::piece_square(piece, sq);
    }

    /// The key computed from scratch; equals [`Board::hash`] for every reachable position.
    pub fn compute_hash(&self) -> u64 {
        let mut key = zobrist::side(self.side_to_move) ^ zobrist::castling(self.castling);
        for sq in self.occupied() {
            if let Some(piece) = self.piece_on(sq) {
                key ^= zobrist::piece_square(piece, sq);
            }
        }
        if let Some(ep) = self.en_passant {
            key ^= zobrist::en_passant(ep);
        }
        key
    }

    /// Recomputes [`Board::castling_rooks`] from the rights and rook files.
    pub(crate) fn update_castling_rooks(&mut self) {
        self.castling_rooks = Color::ALL
            .into_iter()
            .flat_map(|color| CastleSide::BOTH.map(|side| self.castle_rook(color, side)))
            .flatten()
            .fold(Bitboard::EMPTY, |set, sq| set.with(sq));
    }

    /// Whether some castling right uses a king or rook off its standard square (e-file king,
    /// a/h-file rook): such castling can only be written king-takes-rook.
    pub fn has_chess960_castling(&self) -> bool {
        Color::ALL.into_iter().any(|color| {
            CastleSide::BOTH.into_iter().any(|side| {
                self.castle_rook(color, side).is_some_and(|rook| {
                    let rook_file = if side == CastleSide::King {
                        File::H
                    } else {
                        File::A
                    };
                    rook.file() != rook_file || self.king(color).file() != File::E
                })
            })
        })
    }

    /// Where king and rook end up when `color` castles on `side`: (king, rook).
    #[inline(always)]
    pub fn castle_destinations(color: Color, side: CastleSide) -> (Square, Square) {
        let rank = Rank::FIRST.relative_to(color);
        let (king_file, rook_file) = castle_paths::destination_files(side);
        (
            Square::from_coords(File::new(king_file), rank),
            Square::from_coords(File::new(rook_file), rank),
        )
    }

    /// Neither side can ever checkmate, whatever is played: K v K, K v K+minor, and positions
    /// whose only non-king pieces are bishops all on squares of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy_or_pawns = self.pieces(PieceType::Pawn)
            | self.pieces(PieceType::Rook)
            | self.pieces(PieceType::Queen);
        if heavy_or_pawns.is_nonempty() {
            return false;
        }
        let knights = self.pieces(PieceType::Knight);
        let bishops = self.pieces(PieceType::Bishop);
        if (knights | bishops).count() <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty()
                || (bishops & Bitboard::DARK_SQUARES).is_empty())
    }

    /// The side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_moves()
    }

    /// The side to move has no legal move and is not in check.
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && !self.has_legal_moves()
    }

    /// 100 plies without capture or pawn move, unless the move that reached it gave mate
    /// (mate takes precedence, FIDE 9.3 / 5.1).
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmove_clock >= 100 && !self.is_checkmate()
    }

    /// Drawn by a rule that needs no game history: the fifty-move rule (unless mated) or a
    /// dead position ([`Board::is_insufficient_material`]). Repetition needs the game:
    /// [`Game::outcome`], [`is_repetition_draw`].
    pub fn is_fifty_move_or_dead_draw(&self) -> bool {
        self.is_fifty_move_draw() || self.is_insufficient_material()
    }

    /// A plain-text diagram of the board, White at the bottom.
    pub fn diagram(&self) -> String {
        let mut out = String::from(" +---+---+---+---+---+---+---+---+\n");
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::from_coords(File::new(file), Rank::new(rank));
                let c = self.piece_on(sq).map_or(' ', |p| p.to_char());
                out.push_str(&format!(" | {c}"));
            }
            out.push_str(&format!(
                " | {}\n +---+---+---+---+---+---+---+---+\n",
                rank + 1
            ));
        }
        out.push_str("   a   b   c   d   e   f   g   h\n");
        out
    }

    /// A null move for the search: the side to move passes. Must not be used in check.
    pub fn make_null_move(&self) -> Board {
        debug_assert!(!self.in_check());
        let mut board = *self;
        if let Some(ep) = board.en_passant.take() {
            board.key ^= zobrist::en_passant(ep);
        }
        board.halfmove_clock = board.halfmove_clock.saturating_add(1);
        board.side_to_move = !board.side_to_move;
        board.key ^= zobrist::side(Color::Black);
        board.update_checks_and_pins();
        board
    }
}

impl Board {
    /// All legal moves in a fresh list (convenience for tools and tests).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_all(&mut list);
        list
    }
}

#[cfg(test)]
mod tests;

// Copy-make copies the board at every node: keep it within three cache lines.
const _: () = assert!(std::mem::size_of::<Board>() <= 192);
