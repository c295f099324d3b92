//! Legal move generation. One generator, generic over a [`MoveSink`], serves every caller: the
//! list sink expands target sets into moves, the counting sink only adds up set sizes (bulk
//! counting for perft). Const generics pick captures/promotions ("noisy"), quiets, or both.
//!
//! Legality comes from masks rather than make-and-test: in double check only the king moves; in
//! single check other pieces must capture the checker or block (`check_mask`); pinned pieces stay
//! on the line through their king; king destinations are tested with the king lifted off the
//! board; en passant is tested by replaying the occupancy change (catches the horizontal pin).

use arrayvec::ArrayVec;

use super::castle_paths::castle_path;
use super::Board;
use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::types::{Bitboard, CastleSide, Color, File, Move, MoveFlag, PieceType, Rank, Square};

/// A list of moves; 218 is the most any legal position has, and FEN validation refuses material
/// that could have more (see `check_material` in fen.rs).
pub type MoveList = ArrayVec<Move, 256>;

/// Appends `mv`; never panics. A full list drops the move (it cannot fill up in any position the
/// FEN parser accepts; debug builds assert that). `try_push` costs the same length check as
/// `push` without the panic path: `perft 6 --hash 0 --threads 1` measured the same.
#[inline(always)]
fn add(list: &mut MoveList, mv: Move) {
    let pushed = list.try_push(mv);
    debug_assert!(pushed.is_ok(), "move list overflow");
}

/// Set-wise pawn moves handed to a sink: all targets share one origin offset and one kind.
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum PawnMoves {
    /// Single pushes that do not promote.
    Push,
    /// Two-square pushes from the start rank.
    DoublePush,
    /// Diagonal captures that do not promote (en passant comes as a `special_move`).
    Capture,
    /// Single pushes onto the last rank: four moves per target (queen, knight, rook, bishop).
    PushPromotion,
    /// Captures onto the last rank: four moves per target, as for pushes.
    CapturePromotion,
}

/// Receives generated moves.
pub trait MoveSink {
    /// Normal moves of one knight, bishop, rook, queen or king from `from` to each of `targets`.
    fn piece_moves(&mut self, board: &Board, from: Square, targets: Bitboard);
    /// Pawn moves to each of `targets`, each from `to - delta`.
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, kind: PawnMoves);
    /// One en-passant or castling move.
    fn special_move(&mut self, mv: Move);
}

const PROMOTIONS: [PieceType; 4] = [
    PieceType::Queen,
    PieceType::Knight,
    PieceType::Rook,
    PieceType::Bishop,
];

impl MoveSink for MoveList {
    #[inline(always)]
    fn piece_moves(&mut self, board: &Board, from: Square, targets: Bitboard) {
        let them = board.colored(!board.side_to_move());
        for to in targets {
            let flag = if them.has(to) {
                MoveFlag::Capture
            } else {
                MoveFlag::Quiet
            };
            add(self, Move::new(from, to, flag));
        }
    }
    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, kind: PawnMoves) {
        for to in targets {
            let from = to.offset(-delta);
            match kind {
                PawnMoves::Push => add(self, Move::new(from, to, MoveFlag::Quiet)),
                PawnMoves::DoublePush => add(self, Move::new(from, to, MoveFlag::DoublePush)),
                PawnMoves::Capture => add(self, Move::new(from, to, MoveFlag::Capture)),
                PawnMoves::PushPromotion | PawnMoves::CapturePromotion => {
                    let capture = kind == PawnMoves::CapturePromotion;
                    for piece in PROMOTIONS {
                        add(
                            self,
                            Move::new(from, to, MoveFlag::promotion(piece, capture)),
                        );
                    }
                }
            }
        }
    }
    #[inline(always)]
    fn special_move(&mut self, mv: Move) {
        add(self, mv);
    }
}

/// Counts moves without building them: perft's bulk counting at the last ply.
pub(crate) struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn piece_moves(&mut self, _: &Board, _: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }
    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _: i8, kind: PawnMoves) {
        let per_target = match kind {
            PawnMoves::PushPromotion | PawnMoves::CapturePromotion => 4,
            _ => 1,
        };
        self.0 += u64::from(targets.count()) * per_target;
    }
    #[inline(always)]
    fn special_move(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Stops at the first move found: whether any legal move exists.
struct AnyMove(bool);

impl MoveSink for AnyMove {
    #[inline(always)]
    fn piece_moves(&mut self, _: &Board, _: Square, targets: Bitboard) {
        self.0 |= targets.is_nonempty();
    }
    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _: i8, _: PawnMoves) {
        self.0 |= targets.is_nonempty();
    }
    #[inline(always)]
    fn special_move(&mut self, _: Move) {
        self.0 = true;
    }
}

/// Looks for one particular move among the legal moves of its origin square.
struct FindMove {
    wanted: Move,
    found: bool,
}

impl MoveSink for FindMove {
    fn piece_moves(&mut self, board: &Board, from: Square, targets: Bitboard) {
        let mut list = MoveList::new();
        list.piece_moves(board, from, targets);
        self.found |= list.contains(&self.wanted);
    }
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, kind: PawnMoves) {
        let mut list = MoveList::new();
        list.pawn_moves(targets, delta, kind);
        self.found |= list.contains(&self.wanted);
    }
    fn special_move(&mut self, mv: Move) {
        self.found |= mv == self.wanted;
    }
}

impl Board {
    /// Appends all legal moves.
    pub fn generate_all(&self, list: &mut MoveList) {
        self.generate::<_, true, true>(Bitboard::FULL, list);
    }
    /// Appends legal captures (en passant included) and all promotions.
    pub fn generate_noisy(&self, list: &mut MoveList) {
        self.generate::<_, false, true>(Bitboard::FULL, list);
    }
    /// Appends legal quiet moves: no capture, no promotion (castling included).
    pub fn generate_quiets(&self, list: &mut MoveList) {
        self.generate::<_, true, false>(Bitboard::FULL, list);
    }
    /// The number of legal moves, without building them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = MoveCounter(0);
        self.generate::<_, true, true>(Bitboard::FULL, &mut counter);
        counter.0
    }
    /// Whether the side to move has a legal move (`false`: checkmate or stalemate); builds no list.
    pub fn has_legal_moves(&self) -> bool {
        let mut any = AnyMove(false);
        self.generate::<_, true, true>(Bitboard::FULL, &mut any);
        any.0
    }
    /// Whether `mv` is legal here. For moves of unknown origin (transposition table, killers):
    /// only the moves of `mv`'s origin square are generated, so this is cheap.
    pub fn is_legal(&self, mv: Move) -> bool {
        if mv.is_null() || !self.colored(self.side_to_move()).has(mv.from()) {
            return false;
        }
        let mut finder = FindMove {
            wanted: mv,
            found: false,
        };
        self.generate::<_, true, true>(Bitboard::from(mv.from()), &mut finder);
        finder.found
    }

    /// The generator. `origins` limits which of our pieces move.
    #[inline(always)]
    pub fn generate<S: MoveSink, const QUIETS: bool, const NOISY: bool>(
        &self,
        origins: Bitboard,
        sink: &mut S,
    ) {
        let us = self.side_to_move();
        let ours = self.colored(us);
        let theirs = self.colored(!us);
        let occupied = ours | theirs;
        let king = self.king(us);
        let destinations = match (QUIETS, NOISY) {
            (true, true) => !ours,
            (false, true) => theirs,
            _ => !occupied,
        };

        // The squares next to the king tested for attacks, and those found safe: castling
        // reuses the answers.
        let mut king_tested = Bitboard::EMPTY;
        let mut king_safe = Bitboard::EMPTY;
        if origins.has(king) {
            let without_king = occupied.without(king);
            king_tested = king_attacks(king) & destinations;
            for to in king_tested {
                if !self.is_attacked_by(to, !us, without_king) {
                    king_safe |= Bitboard::from(to);
                }
            }
            sink.piece_moves(self, king, king_safe);
        }
        let checkers = self.checkers();
        if checkers.has_many() {
            return;
        }
        let check_mask = if checkers.is_empty() {
            Bitboard::FULL
        } else {
            between(king, checkers.lsb()) | checkers
        };
        let destinations = destinations & check_mask;
        let pinned = self.pinned();

        for from in self.pieces_of(us, PieceType::Knight) & (origins - pinned) {
            sink.piece_moves(self, from, knight_attacks(from) & destinations);
        }
        for from in self.diagonal_sliders(us) & origins {
            let mut targets = bishop_attacks(from, occupied) & destinations;
            if pinned.has(from) {
                targets &= line(king, from);
            }
            sink.piece_moves(self, from, targets);
        }
        for from in self.orthogonal_sliders(us) & origins {
            let mut targets = rook_attacks(from, occupied) & destinations;
            if pinned.has(from) {
                targets &= line(king, from);
            }
            sink.piece_moves(self, from, targets);
        }

        self.generate_pawn_moves::<S, QUIETS, NOISY>(origins, check_mask, sink);

        if QUIETS && checkers.is_empty() {
            self.generate_castling(origins, king_tested, king_safe, sink);
        }
    }

    #[inline(always)]
    fn generate_pawn_moves<S: MoveSink, const QUIETS: bool, const NOISY: bool>(
        &self,
        origins: Bitboard,
        check_mask: Bitboard,
        sink: &mut S,
    ) {
        let us = self.side_to_move();
        let theirs = self.colored(!us);
        let empty = !self.occupied();
        let king = self.king(us);
        let pinned = self.pinned();
        let pawns = self.pieces_of(us, PieceType::Pawn) & origins;
        let last_rank = Bitboard::relative_rank(us, 7);
        let (up, up_left, up_right): (i8, i8, i8) = match us {
            Color::White => (8, 7, 9),
            Color::Black => (-8, -9, -7),
        };

        // Pushes: a pinned pawn may push only when pinned along its own file.
        let pushers = pawns & (!pinned | Bitboard::file(king.file()));
        let single = pushers.forward(us) & empty;
        let double = (single & Bitboard::relative_rank(us, 2)).forward(us) & empty & check_mask;
        let single = single & check_mask;
        if QUIETS {
            sink.pawn_moves(single - last_rank, up, PawnMoves::Push);
            sink.pawn_moves(double, 2 * up, PawnMoves::DoublePush);
        }
        if NOISY {
            sink.pawn_moves(single & last_rank, up, PawnMoves::PushPromotion);

            // Captures: unpinned pawns set-wise, pinned ones only along their pin line.
            let targets = theirs & check_mask;
            let free = pawns - pinned;
            let (left, right) = (
                free.pawn_attacks_towards_a(us),
                free.pawn_attacks_towards_h(us),
            );
            for (captures, delta) in [(left & targets, up_left), (right & targets, up_right)] {
                sink.pawn_moves(captures - last_rank, delta, PawnMoves::Capture);
                sink.pawn_moves(captures & last_rank, delta, PawnMoves::CapturePromotion);
            }
            for from in pawns & pinned {
                let captures = pawn_attacks(us, from) & targets & line(king, from);
                for to in captures {
                    let kind = if last_rank.has(to) {
                        PawnMoves::CapturePromotion
                    } else {
                        PawnMoves::Capture
                    };
                    sink.pawn_moves(
                        Bitboard::from(to),
                        to.index() as i8 - from.index() as i8,
                        kind,
                    );
                }
            }

            if let Some(ep) = self.en_passant() {
                for from in pawn_attacks(!us, ep) & pawns {
                    if self.en_passant_is_legal(from, ep) {
                        sink.special_move(Move::new(from, ep, MoveFlag::EnPassant));
                    }
                }
            }
        }
    }

    /// Replays the occupancy change of an en-passant capture and asks whether our king would be
    /// attacked. This covers every case at once: pins (including the horizontal one through both
    /// pawns), checks the capture resolves or not.
    pub(crate) fn en_passant_is_legal(&self, from: Square, ep: Square) -> bool {
        let us = self.side_to_move();
        let them = !us;
        let captured = ep.forward(them);
        let king = self.king(us);
        let occupied = self.occupied().without(from).without(captured).with(ep);
        let their_pieces = self.colored(them).without(captured);
        let attackers = (knight_attacks(king) & self.pieces(PieceType::Knight))
            | (pawn_attacks(us, king) & self.pieces(PieceType::Pawn))
            | (bishop_attacks(king, occupied) & self.diagonal_sliders(them))
            | (rook_attacks(king, occupied) & self.orthogonal_sliders(them));
        (attackers & their_pieces).is_empty()
    }

    #[inline(always)]
    /// Castling moves. `king_tested` holds squares next to the king already tested for attacks
    /// (with the king lifted) and `king_safe` those found safe.
    ///
    /// For an empty square next to the king that answer is the one castling needs (with the
    /// rook lifted instead) whenever the rook stands on the a- or h-file: a line through the
    /// king's square to it would put the king in check, and lifting a rook on the edge opens no
    /// line to a square of its rank. That spares half the attack tests of standard castling.
    fn generate_castling<S: MoveSink>(
        &self,
        origins: Bitboard,
        king_tested: Bitboard,
        king_safe: Bitboard,
        sink: &mut S,
    ) {
        let us = self.side_to_move();
        let king = self.king(us);
        if !origins.has(king) || !self.castling_rights().has_any(us) {
            return;
        }
        for side in CastleSide::BOTH {
            let Some(rook) = self.castle_rook(us, side) else {
                continue;
            };
            let path = castle_path(side, king, rook, Rank::FIRST.relative_to(us));
            if (path.must_be_empty & self.occupied()).is_nonempty() {
                continue;
            }
            let (known, known_safe) = if matches!(rook.file(), File::A | File::H) {
                (king_tested, king_safe)
            } else {
                (Bitboard::EMPTY, Bitboard::EMPTY)
            };
            if ((path.king_path & known) - known_safe).is_nonempty() {
                continue;
            }
            // The castling rook is lifted off: it may be what shields a square on the king's path.
            let occupied = self.occupied().without(rook);
            if (path.king_path - known)
                .into_iter()
                .any(|sq| self.is_attacked_by(sq, !us, occupied))
            {
                continue;
            }
            sink.special_move(Move::new(king, rook, MoveFlag::Castle));
        }
    }
}
