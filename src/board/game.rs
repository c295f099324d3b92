//! A game: a board plus the keys of the positions before it, for the rules that need history
//! (threefold repetition) and for reporting how a game ended.

use super::Board;
use crate::types::{Color, Move};

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move is checkmated.
    Checkmate {
        /// The side that gave mate (not the side to move).
        winner: Color,
    },
    /// The side to move has no legal move and is not in check: a draw.
    Stalemate,
    /// The position occurred for the third time with the same side to move: a draw.
    ThreefoldRepetition,
    /// 100 plies without a capture or pawn move and no mate on the last: a draw.
    FiftyMoveRule,
    /// Neither side can mate whatever is played (see [`Board::is_insufficient_material`]): a draw.
    InsufficientMaterial,
}

/// A position with its history since the last irreversible move or the game start.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    /// Keys of earlier positions, oldest first (the current position's key is not included).
    history: Vec<u64>,
}

impl Game {
    /// A game starting at `board` with no history: earlier positions are unknown, so repetitions
    /// count from here.
    pub fn new(board: Board) -> Game {
        Game {
            board,
            history: Vec::new(),
        }
    }
    /// The current position.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }
    /// Keys of the positions before the current one, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }
    /// Plays a move that must be legal (see [`Board::is_legal`]).
    pub fn play(&mut self, mv: Move) {
        self.history.push(self.board.hash());
        self.board = self.board.make_move(mv);
    }
    /// How many times the current position has occurred, this time included.
    pub fn repetition_count(&self) -> usize {
        1 + repetitions_of(
            self.board.hash(),
            self.board.halfmove_clock(),
            &self.history,
        )
    }
    /// Whether the current position has occurred twice before (same side to move, since the last
    /// capture or pawn move).
    pub fn is_threefold_repetition(&self) -> bool {
        is_repetition_draw(
            self.board.hash(),
            self.board.halfmove_clock(),
            &self.history,
            self.history.len(),
        )
    }
    /// The result if the game is over by rule (checkmate first: a mate on the 100th ply wins).
    pub fn outcome(&self) -> Option<Outcome> {
        let board = &self.board;
        if !board.has_legal_moves() {
            return Some(if board.in_check() {
                Outcome::Checkmate {
                    winner: !board.side_to_move(),
                }
            } else {
                Outcome::Stalemate
            });
        }
        // The order of the reports; any of them is a draw (`is_fifty_move_or_dead_draw` and
        // `is_repetition_draw` are the rules the search applies).
        if board.is_insufficient_material() {
            Some(Outcome::InsufficientMaterial)
        } else if board.is_fifty_move_draw() {
            Some(Outcome::FiftyMoveRule)
        } else if self.is_threefold_repetition() {
            Some(Outcome::ThreefoldRepetition)
        } else {
            None
        }
    }
}

/// Where `key` occurs among the last `halfmove_clock` entries of `history` with the same side to
/// move (every second entry, counting back from the second-to-last), newest first. Positions
/// older than the last capture or pawn move cannot repeat, so the scan stops there.
fn earlier_occurrences(
    key: u64,
    halfmove_clock: u16,
    history: &[u64],
) -> impl Iterator<Item = usize> + '_ {
    let reach = (halfmove_clock as usize).min(history.len());
    (2..=reach)
        .step_by(2)
        .map(move |back| history.len() - back)
        .filter(move |&index| history[index] == key)
}

/// How often `key` occurs among the last `halfmove_clock` entries of `history` with the same
/// side to move (positions older than the last capture or pawn move cannot repeat).
pub fn repetitions_of(key: u64, halfmove_clock: u16, history: &[u64]) -> usize {
    earlier_occurrences(key, halfmove_clock, history).count()
}

/// Whether the position `key` after `history` is drawn by repetition: it occurred twice before
/// (threefold repetition), or once at or after index `tree_start` of `history`. A search passes
/// where its own tree starts: a repetition inside the tree is scored as the draw the side that
/// allowed it could claim by repeating once more; [`Game`] passes `history.len()`.
pub fn is_repetition_draw(
    key: u64,
    halfmove_clock: u16,
    history: &[u64],
    tree_start: usize,
) -> bool {
    let mut seen = 0;
    for index in earlier_occurrences(key, halfmove_clock, history) {
        seen += 1;
        if index >= tree_start || seen >= 2 {
            return true;
        }
    }
    false
}
