//! A game: a board plus the keys of the positions before it, for the rules that need history
//! (threefold repetition) and for reporting how a game ended.

use super::Board;
use crate::types::{Color, Move};

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Checkmate { winner: Color },
    Stalemate,
    ThreefoldRepetition,
    FiftyMoveRule,
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
    pub fn new(board: Board) -> Game {
        Game {
            board,
            history: Vec::new(),
        }
    }
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
    pub fn is_threefold_repetition(&self) -> bool {
        self.repetition_count() >= 3
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
        if board.is_insufficient_material() {
            Some(Outcome::InsufficientMaterial)
        } else if board.halfmove_clock() >= 100 {
            Some(Outcome::FiftyMoveRule)
        } else if self.is_threefold_repetition() {
            Some(Outcome::ThreefoldRepetition)
        } else {
            None
        }
    }
}

/// How often `key` occurs among the last `halfmove_clock` entries of `history` with the same side
/// to move (every second entry, counting back from the second-to-last). Positions older than the
/// last capture or pawn move cannot repeat, so the scan stops there.
pub fn repetitions_of(key: u64, halfmove_clock: u16, history: &[u64]) -> usize {
    let reach = (halfmove_clock as usize).min(history.len());
    history[history.len() - reach..]
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
        .filter(|&&k| k == key)
        .count()
}
