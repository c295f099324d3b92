//! Self-play data generation for the tuner: games from randomised openings, each move searched to a
//! fixed node count; positions where the chosen move is quiet and the side to move is not in check
//! are written with the game's result, in the tuner's EPD format (`<FEN> c9 "1-0";`).

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::board::{Board, Game, Outcome};
use crate::search::{Engine, Limits, Reporter, Score, SearchInfo, SearchRequest, TimeBudget};
use crate::types::{Color, Move};

/// Settings of a datagen run.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies at the start of each game.
    pub random_plies: usize,
    pub seed: u64,
    pub hash_mb: usize,
}

impl Default for DatagenConfig {
    fn default() -> Self {
        DatagenConfig {
            games: 100,
            nodes: 5000,
            random_plies: 8,
            seed: 1,
            hash_mb: 16,
        }
    }
}

#[derive(Default)]
struct LastResult {
    score: Mutex<Option<Score>>,
    best: Mutex<Option<Move>>,
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

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Plays `config.games` games and writes labelled positions to `out`; returns how many.
pub fn run(out: &mut dyn Write, config: &DatagenConfig) -> usize {
    let mut engine = Engine::new();
    if let Err(e) = engine.set_hash_mb(config.hash_mb) {
        let _ = writeln!(out, "# hash: {e}");
    }
    let mut rng = config.seed.max(1);
    let mut written = 0;
    for _ in 0..config.games {
        engine.new_game();
        let mut game = Game::new(Board::startpos());
        // Random opening; restart if it ends the game.
        for _ in 0..config.random_plies {
            let moves = game.board().legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[(xorshift(&mut rng) % moves.len() as u64) as usize];
            game.play(mv);
        }
        if game.outcome().is_some() {
            continue;
        }
        let mut positions: Vec<String> = Vec::new();
        let mut decisive_plies = 0;
        let mut result: Option<f32> = None;
        for _ply in 0..400 {
            if let Some(outcome) = game.outcome() {
                result = Some(match outcome {
                    Outcome::Checkmate {
                        winner: Color::White,
                    } => 1.0,
                    Outcome::Checkmate {
                        winner: Color::Black,
                    } => 0.0,
                    _ => 0.5,
                });
                break;
            }
            let reporter = Arc::new(LastResult::default());
            let request = SearchRequest {
                board: *game.board(),
                history: game.history().to_vec(),
                limits: Limits {
                    nodes: Some(config.nodes),
                    ..Limits::default()
                },
                budget: TimeBudget::unlimited(Instant::now()),
                multipv: 1,
                searchmoves: Vec::new(),
            };
            engine.search_sync(request, reporter.clone());
            let Some(best) = *reporter.best.lock().expect("not poisoned") else {
                break;
            };
            let score = reporter
                .score
                .lock()
                .expect("not poisoned")
                .unwrap_or(Score::Centipawns(0));
            let white_cp = match score {
                Score::Centipawns(cp) => cp,
                Score::Mate(m) => {
                    if m > 0 {
                        10_000
                    } else {
                        -10_000
                    }
                }
            } * game.board().side_to_move().sign();
            // Adjudicate clear wins to save time.
            if white_cp.abs() >= 1500 {
                decisive_plies += 1;
                if decisive_plies >= 6 {
                    result = Some(if white_cp > 0 { 1.0 } else { 0.0 });
                    break;
                }
            } else {
                decisive_plies = 0;
            }
            if !game.board().in_check() && !best.is_noisy() && white_cp.abs() < 3000 {
                positions.push(game.board().to_fen());
            }
            game.play(best);
        }
        let result = result.unwrap_or(0.5);
        let label = if result == 1.0 {
            "1-0"
        } else if result == 0.0 {
            "0-1"
        } else {
            "1/2-1/2"
        };
        for fen in positions {
            let _ = writeln!(out, "{fen} c9 \"{label}\";");
            written += 1;
        }
    }
    written
}
