//! Correction history: what the search learned about the static evaluation's error in positions
//! that share a pawn structure (and, separately, each side's non-pawn placement), added back to
//! the evaluation of the next such position.
//!
//! After a node whose search result says the static evaluation was wrong (a real score, not a
//! bound pointing the same way as the error), the entry of its pawn structure moves towards the
//! error, weighted by depth (deep results are worth more). Entries keep the error in
//! 1/[`GRAIN`] centipawns, so small corrections survive the averaging.

use crate::board::Board;
use crate::memory::{prefetch, try_zeroed_vec};
use crate::random::mix64;
use crate::types::{Color, PieceType};

/// Entries per side and table.
const SIZE: usize = 16_384;
/// Fixed-point scale of an entry: an entry of `GRAIN` corrects by one centipawn.
const GRAIN: i32 = 256;
/// The update's weight is out of this.
const WEIGHT_SCALE: i32 = 256;
/// No entry corrects by more than this many centipawns.
const MAX_CORRECTION: i32 = 96;

pub struct CorrectionHistory {
    /// `[side to move][pawn key % SIZE]`.
    pawn: Vec<i16>,
    /// `[side to move][colour][non-pawn key of that colour % SIZE]`.
    non_pawn: Vec<i16>,
    /// The position last prefetched (its hash) and its slots, so that its evaluation, which
    /// normally comes next, neither waits for the entries nor computes the keys again.
    prefetched: Option<(u64, Slots)>,
}

/// A key of both sides' pawns.
#[inline(always)]
fn pawn_key(board: &Board) -> u64 {
    mix64(board.pieces_of(Color::White, PieceType::Pawn).0)
        ^ mix64(board.pieces_of(Color::Black, PieceType::Pawn).0 ^ 0x5555_5555_5555_5555)
}

/// A key of `color`'s pieces other than pawns (king included).
#[inline(always)]
fn non_pawn_key(board: &Board, color: Color) -> u64 {
    let mut key = 0;
    for (i, piece_type) in [
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ]
    .into_iter()
    .enumerate()
    {
        key ^= mix64(board.pieces_of(color, piece_type).0 ^ (i as u64 + 1) << 56);
    }
    key
}

/// The slots one position uses: pawn, then white's and black's non-pawn entries.
#[derive(Clone, Copy)]
struct Slots([usize; 3]);

impl Slots {
    #[inline(always)]
    fn of(board: &Board) -> Slots {
        let stm = board.side_to_move().index();
        let index = |key: u64| key as usize % SIZE;
        Slots([
            stm * SIZE + index(pawn_key(board)),
            (stm * 2) * SIZE + index(non_pawn_key(board, Color::White)),
            (stm * 2 + 1) * SIZE + index(non_pawn_key(board, Color::Black)),
        ])
    }
}

impl CorrectionHistory {
    /// Empty tables, or `None` if they cannot be allocated (192 KB).
    pub fn try_new() -> Option<CorrectionHistory> {
        Some(CorrectionHistory {
            pawn: try_zeroed_vec(2 * SIZE)?,
            non_pawn: try_zeroed_vec(4 * SIZE)?,
            prefetched: None,
        })
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.pawn.fill(0);
        self.non_pawn.fill(0);
    }

    /// Starts fetching `board`'s entries into cache: the search calls it on making a move, so
    /// the child's evaluation finds them there (the loads were most of this table's cost, 7% of
    /// datagen's time, before).
    #[inline]
    pub fn prefetch(&mut self, board: &Board) {
        let slots = Slots::of(board);
        let Slots([pawn, white, black]) = slots;
        prefetch(&self.pawn[pawn]);
        prefetch(&self.non_pawn[white]);
        prefetch(&self.non_pawn[black]);
        self.prefetched = Some((board.hash(), slots));
    }

    /// `board`'s slots: those of the last prefetch if it was this position.
    #[inline]
    fn slots(&self, board: &Board) -> Slots {
        match self.prefetched {
            Some((hash, slots)) if hash == board.hash() => slots,
            _ => Slots::of(board),
        }
    }

    /// The correction for `board`, in centipawns.
    #[inline]
    pub fn correction(&self, board: &Board) -> i32 {
        let Slots([pawn, white, black]) = self.slots(board);
        // A weighted mean: each table learns the whole error on its own.
        let sum = 2 * i32::from(self.pawn[pawn])
            + i32::from(self.non_pawn[white])
            + i32::from(self.non_pawn[black]);
        sum / (4 * GRAIN)
    }

    /// Moves the entries of `board` towards `error` (search result minus static evaluation, in
    /// centipawns), learned at `depth`.
    pub fn update(&mut self, board: &Board, depth: i32, error: i32) {
        let Slots([pawn, white, black]) = Slots::of(board);
        let weight = (depth + 1).clamp(1, 16);
        let target = error.clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        let towards = |entry: &mut i16| {
            let e = i32::from(*entry);
            let moved = (e * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
            *entry = moved.clamp(-MAX_CORRECTION * GRAIN, MAX_CORRECTION * GRAIN) as i16;
        };
        towards(&mut self.pawn[pawn]);
        towards(&mut self.non_pawn[white]);
        towards(&mut self.non_pawn[black]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_the_error_of_a_pawn_structure_and_stays_bounded() {
        let mut corr = CorrectionHistory::try_new().unwrap();
        let board = Board::startpos();
        assert_eq!(corr.correction(&board), 0);
        for _ in 0..200 {
            corr.update(&board, 10, 40);
        }
        let learned = corr.correction(&board);
        assert!((35..=40).contains(&learned), "{learned}");
        for _ in 0..200 {
            corr.update(&board, 10, -10_000);
        }
        // (The integer average stops within a centipawn of its bound.)
        let saturated = corr.correction(&board);
        assert!(
            (-MAX_CORRECTION..=-MAX_CORRECTION + 1).contains(&saturated),
            "{saturated}"
        );
        // The other side to move has tables of its own.
        let black =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(corr.correction(&black), 0);
        corr.clear();
        assert_eq!(corr.correction(&board), 0);
    }

    #[test]
    fn a_prefetch_changes_no_correction() {
        let mut corr = CorrectionHistory::try_new().unwrap();
        let board = Board::startpos();
        let other =
            Board::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap();
        for _ in 0..200 {
            corr.update(&board, 10, 40);
            corr.update(&other, 10, -25);
        }
        let (learned, learned_other) = (corr.correction(&board), corr.correction(&other));
        assert!(
            learned > 30 && learned_other < -20,
            "{learned} {learned_other}"
        );
        // The slots kept by a prefetch serve only the position they were computed for.
        corr.prefetch(&other);
        assert_eq!(corr.correction(&board), learned);
        assert_eq!(corr.correction(&other), learned_other);
        corr.prefetch(&board);
        assert_eq!(corr.correction(&board), learned);
        assert_eq!(corr.correction(&other), learned_other);
    }
}
