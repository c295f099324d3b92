//! Move-ordering statistics learned during search: butterfly history (side, from, to), capture
//! history (piece, to, captured type), continuation history (previous move's piece and
//! destination, then this move's), killers and counter-moves. Every update uses "gravity": an
//! entry moves towards its bound by a fraction of the distance, so it saturates smoothly.

use super::params::{CONT_HIST_4_WEIGHT, HISTORY_MAX};
use crate::memory::try_zeroed_vec;
use crate::types::{Color, Move, Piece, PieceType, Square};

/// (piece, destination) packed as `piece * 64 + square`: the key of continuation history.
pub type PieceTo = usize;
/// No previous move (root, or after a null move).
pub const NO_PIECE_TO: PieceTo = 12 * 64;
/// The continuation-history keys of a node: the moves one, two and four plies back.
pub type ContKeys = [PieceTo; 3];

#[inline(always)]
pub fn piece_to(piece: Piece, to: Square) -> PieceTo {
    piece.index() * 64 + to.index()
}

#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    let e = i32::from(*entry);
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry = (e + bonus - e * bonus.abs() / HISTORY_MAX) as i16;
}

pub struct Histories {
    butterfly: Vec<i16>,
    capture: Vec<i16>,
    /// Indexed by previous `PieceTo` (with one extra row for "none") then current `PieceTo`.
    continuation: Vec<i16>,
    counters: Vec<Move>,
}

impl Default for Histories {
    fn default() -> Self {
        Histories::try_new().expect("history tables allocation")
    }
}

impl Histories {
    /// Empty tables, or `None` if they cannot be allocated (about 1.2 MB a search thread).
    pub fn try_new() -> Option<Histories> {
        Some(Histories {
            butterfly: try_zeroed_vec(2 * 64 * 64)?,
            capture: try_zeroed_vec(12 * 64 * 6)?,
            continuation: try_zeroed_vec((NO_PIECE_TO + 1) * NO_PIECE_TO)?,
            counters: try_zeroed_vec(NO_PIECE_TO + 1)?,
        })
    }

    /// Forgets everything (in place: nothing to allocate).
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.capture.fill(0);
        self.continuation.fill(0);
        self.counters.fill(Move::NULL);
    }

    #[inline(always)]
    fn butterfly_index(color: Color, mv: Move) -> usize {
        color.index() * 4096 + mv.from().index() * 64 + mv.to().index()
    }
    #[inline(always)]
    pub fn butterfly(&self, color: Color, mv: Move) -> i32 {
        i32::from(self.butterfly[Self::butterfly_index(color, mv)])
    }
    #[inline(always)]
    pub fn update_butterfly(&mut self, color: Color, mv: Move, bonus: i32) {
        gravity(&mut self.butterfly[Self::butterfly_index(color, mv)], bonus);
    }

    #[inline(always)]
    fn capture_index(piece: Piece, to: Square, captured: PieceType) -> usize {
        (piece.index() * 64 + to.index()) * 6 + captured.index()
    }
    #[inline(always)]
    pub fn capture(&self, piece: Piece, to: Square, captured: PieceType) -> i32 {
        i32::from(self.capture[Self::capture_index(piece, to, captured)])
    }
    #[inline(always)]
    pub fn update_capture(&mut self, piece: Piece, to: Square, captured: PieceType, bonus: i32) {
        gravity(
            &mut self.capture[Self::capture_index(piece, to, captured)],
            bonus,
        );
    }

    /// The history score of a quiet move (`moved` is the piece on its origin), the one sum move
    /// ordering and the pruning and reduction rules all use: butterfly history plus the
    /// continuation histories of the moves one and two plies back, and of the move four plies
    /// back weighted by `ContHist4Weight` percent (`cont`).
    #[inline(always)]
    pub fn quiet_score(&self, us: Color, moved: Piece, mv: Move, cont: ContKeys) -> i32 {
        let pt = piece_to(moved, mv.to());
        let four = match CONT_HIST_4_WEIGHT.get() {
            0 => 0,
            weight => self.continuation(cont[2], pt) * weight / 100,
        };
        self.butterfly(us, mv)
            + self.continuation(cont[0], pt)
            + self.continuation(cont[1], pt)
            + four
    }

    #[inline(always)]
    pub fn continuation(&self, prev: PieceTo, current: PieceTo) -> i32 {
        i32::from(self.continuation[prev * NO_PIECE_TO + current])
    }
    #[inline(always)]
    pub fn update_continuation(&mut self, prev: PieceTo, current: PieceTo, bonus: i32) {
        if prev != NO_PIECE_TO {
            gravity(&mut self.continuation[prev * NO_PIECE_TO + current], bonus);
        }
    }

    #[inline(always)]
    pub fn counter(&self, prev: PieceTo) -> Move {
        self.counters[prev]
    }
    #[inline(always)]
    pub fn set_counter(&mut self, prev: PieceTo, mv: Move) {
        if prev != NO_PIECE_TO {
            self.counters[prev] = mv;
        }
    }
}

/// The capture-history slot of a noisy move's victim; the king's slot (kings are never
/// captured) stands for "nothing", a quiet promotion.
#[inline(always)]
pub fn captured_slot(board: &crate::board::Board, mv: Move) -> PieceType {
    board.captured_type(mv).unwrap_or(PieceType::King)
}
