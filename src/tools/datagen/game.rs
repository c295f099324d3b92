//! One self-play game of data generation: a randomised opening, then every move searched to a
//! soft node limit, with the kept positions labelled by the search score and the game result.

use std::sync::{Arc, Mutex};

use super::DatagenConfig;
use crate::board::{Board, Game, Outcome};
use crate::random::splitmix64;
use crate::search::{Engine, Limits, Reporter, Score, SearchInfo, SearchRequest};
use crate::tools::data::{GameResult, PackedPosition};
use crate::types::{Color, Move};

/// A search score at or beyond this (centipawns, either side) for [`WIN_PLIES`] plies in a row
/// ends the game as a win: the rest would be a long, uninformative conversion.
const WIN_SCORE: i32 = 1000;
const WIN_PLIES: u32 = 5;
/// After [`DRAW_AFTER_PLY`] plies, scores within ±[`DRAW_SCORE`] for [`DRAW_PLIES`] plies in a row
/// end the game as a draw.
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: u32 = 10;
const DRAW_AFTER_PLY: usize = 80;
/// Games still going after this many plies are scored as draws.
const MAX_PLIES: usize = 400;
/// Openings whose first search is beyond this are replaced: a lost position teaches little.
const MAX_OPENING_SCORE: i32 = 1000;

/// What the engine said about one position.
#[derive(Default)]
pub(super) struct LastResult {
    score: Mutex<Option<Score>>,
    best: Mutex<Option<Move>>,
}

impl LastResult {
    /// The score of the last principal variation reported.
    pub(super) fn score(&self) -> Option<Score> {
        *self.score.lock().expect("not poisoned")
    }
}

impl Reporter for LastResult {
    fn info(&self, info: &SearchInfo) {
        if info.multipv == 1 {
            *self.score.lock().expect("not poisoned") = Some(info.score);
        }
    }
    fn best_move(&self, best: Option<Move>, _: Option<Move>) {
        *self.best.lock().expect("not poisoned") = best;
    }
}

/// The engine's best move and score (side to move's view) for a position.
fn search(engine: &mut Engine, game: &Game, config: &DatagenConfig) -> Option<(Move, Score)> {
    let reporter = Arc::new(LastResult::default());
    let limits = Limits {
        soft_nodes: Some(config.soft_nodes),
        nodes: Some(config.hard_nodes()),
        ..Limits::default()
    };
    let request = SearchRequest::fixed(*game.board(), game.history().to_vec(), limits);
    engine.search_sync(request, reporter.clone()).ok()?;
    let best = (*reporter.best.lock().expect("not poisoned"))?;
    let score = reporter.score()?;
    Some((best, score))
}

/// A random legal move, or `None` when there is none.
fn random_move(board: &Board, rng: &mut u64) -> Option<Move> {
    let moves = board.legal_moves();
    (!moves.is_empty()).then(|| moves[(splitmix64(rng) % moves.len() as u64) as usize])
}

/// The opening: a book line (if any) then `random_plies` random moves; `None` if it ended the game.
fn opening(config: &DatagenConfig, rng: &mut u64) -> Option<Game> {
    let start = if config.book.is_empty() {
        Board::startpos()
    } else {
        config.book[(splitmix64(rng) % config.book.len() as u64) as usize]
    };
    let mut game = Game::new(start);
    for _ in 0..config.random_plies {
        let mv = random_move(game.board(), rng)?;
        game.play(mv);
    }
    game.outcome().is_none().then_some(game)
}

fn white_result(outcome: Outcome) -> GameResult {
    match outcome {
        Outcome::Checkmate {
            winner: Color::White,
        } => GameResult::WhiteWin,
        Outcome::Checkmate {
            winner: Color::Black,
        } => GameResult::BlackWin,
        _ => GameResult::Draw,
    }
}

fn winner(white_positive: bool) -> GameResult {
    if white_positive {
        GameResult::WhiteWin
    } else {
        GameResult::BlackWin
    }
}

/// Plays game number `index` and returns its kept positions (possibly none). The game depends
/// only on the seed and the index, so any thread count produces the same games.
pub fn play(engine: &mut Engine, config: &DatagenConfig, index: u64) -> Vec<PackedPosition> {
    let mut rng = config.seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03);
    engine.new_game();
    // A few tries at an opening that neither ends the game nor loses outright.
    let mut game = None;
    for _ in 0..8 {
        let Some(candidate) = opening(config, &mut rng) else {
            continue;
        };
        match search(engine, &candidate, config) {
            Some((_, Score::Centipawns(cp))) if cp.abs() <= MAX_OPENING_SCORE => {
                game = Some(candidate);
                break;
            }
            _ => continue,
        }
    }
    let Some(mut game) = game else {
        return Vec::new();
    };

    let mut kept: Vec<(Board, i16)> = Vec::new();
    let mut win_streak = 0;
    let mut draw_streak = 0;
    let mut result = GameResult::Draw;
    for ply in 0..MAX_PLIES {
        if let Some(outcome) = game.outcome() {
            result = white_result(outcome);
            break;
        }
        let Some((best, score)) = search(engine, &game, config) else {
            break;
        };
        let board = *game.board();
        let sign = board.side_to_move().sign();
        let white_cp = match score {
            Score::Centipawns(cp) => cp * sign,
            // A forced mate: the game's result is known; the position is not kept.
            Score::Mate(moves) => {
                result = winner((moves > 0) == (sign > 0));
                break;
            }
        };
        if white_cp.abs() >= WIN_SCORE {
            win_streak += 1;
            if win_streak >= WIN_PLIES {
                result = winner(white_cp > 0);
                break;
            }
        } else {
            win_streak = 0;
        }
        if ply >= DRAW_AFTER_PLY && white_cp.abs() <= DRAW_SCORE {
            draw_streak += 1;
            if draw_streak >= DRAW_PLIES {
                break;
            }
        } else {
            draw_streak = 0;
        }
        if !board.in_check() && !best.is_noisy() {
            kept.push((board, white_cp.clamp(-30_000, 30_000) as i16));
        }
        game.play(best);
    }
    kept.iter()
        .filter_map(|(board, cp)| PackedPosition::pack(board, *cp, result))
        .collect()
}
