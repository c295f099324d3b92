//! Helpers shared by the integration tests: a deterministic PRNG and random-game positions.

#![allow(dead_code)]

use escaque::board::Board;

/// The crate's generator: deterministic, so a failing seed can be replayed.
pub use escaque::random::Rng;

/// Start positions for random games: standard, Kiwipete-like tactical ones and Chess960 setups.
pub const SEED_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "1rkr3b/1ppn3p/3pB1n1/6q1/R2P4/4N1P1/1P5P/2KRQ1B1 b Dbd - 0 14",
    "rbbknnqr/pppppppp/8/8/8/8/PPPPPPPP/RBBKNNQR w HAha - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
];

/// Visits every position of `games` random games of up to `max_plies` plies, biased towards
/// captures, promotions, castling and en passant so the rare rules get exercised.
pub fn for_random_positions(
    seed: u64,
    games: usize,
    max_plies: usize,
    mut visit: impl FnMut(&Board),
) {
    let mut rng = Rng::new(seed);
    for game in 0..games {
        let mut board = Board::from_fen(SEED_FENS[game % SEED_FENS.len()]).unwrap();
        for _ in 0..max_plies {
            visit(&board);
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let special: Vec<_> = moves
                .iter()
                .copied()
                .filter(|m| m.is_capture() || m.is_promotion() || m.is_castle())
                .collect();
            let mv = if !special.is_empty() && rng.below(3) == 0 {
                special[rng.below(special.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            board = board.make_move(mv);
        }
    }
}
