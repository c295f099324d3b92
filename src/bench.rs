//! `bench`: a fixed set of positions searched to a fixed depth with 16 MB and one thread. The node
//! total is the search's signature (every commit that changes it says `Bench: N`).

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use crate::board::Board;
use crate::evaluation::Evaluation;
use crate::event::StopFlag;
use crate::search::{Engine, Limits, SearchRequest};

/// The depth searched when none is given.
pub const DEFAULT_DEPTH: i32 = 13;
/// The deepest `bench` (the command line and the UCI command).
pub const MAX_DEPTH: i32 = 64;

/// Openings, middlegames of every kind, and endgames from trivial to subtle.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkb1r/pp3ppp/3p1n2/2pP4/8/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 6",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkb1r/pppppp1p/5np1/8/2PP4/2N5/PP2PPPP/R1BQKBNR b KQkq - 1 3",
    "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 1 7",
    "r2q1rk1/pp1nbppp/2p1pn2/3p4/2PP1B2/2N1PN2/PPQ2PPP/R3KB1R w KQ - 4 9",
    "r1b2rk1/2q1bppp/p2ppn2/1p6/3NP3/1BN1B3/PPP2PPP/R2Q1RK1 w - - 0 12",
    "2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB2BPPP/2RQ1RK1 w - - 2 11",
    "r1bqr1k1/pp1n1pbp/2pp1np1/4p3/2PPP3/2N1BP2/PP1QN1PP/R3KB1R w KQ - 3 10",
    "3r1rk1/p4ppp/1qp1b3/2b1N3/4P3/1BP5/P4PPP/R2QR1K1 w - - 0 18",
    "r4rk1/pp3ppp/2n1b3/q1pp2B1/8/P1Q2NP1/1PP1PP1P/2KR3R w - - 0 15",
    "2kr3r/pp1q1ppp/2n1bn2/2bpp3/8/2PP1NP1/PP1NPPBP/R1BQ1RK1 w - - 4 10",
    "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 1 7",
    "6k1/pp3ppp/4p3/2P5/1P1n4/P3KP2/6PP/2R5 b - - 0 28",
    "r5k1/5ppp/1p6/p1p5/7b/1PPrqPP1/1PQ4P/R4R1K b - - 0 1",
    "3r2k1/1p3ppp/2pq4/p1n5/P6P/1P6/1PB2QP1/1K2R3 w - - 0 1",
    "2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 0 1",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "r2qkb1r/pp3ppp/2n2n2/2pp4/3P2b1/2P1PN2/PP1N1PPP/R1BQKB1R w KQkq - 1 7",
    "8/8/1p2k1p1/3p3p/1p1P1P1P/1P2PK2/8/8 w - - 3 54",
    "8/5pk1/6p1/8/8/6P1/5PK1/3R4 w - - 0 1",
    "8/3k4/8/8/8/4B3/4KN2/8 w - - 0 1",
    "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
    "8/8/3P3k/8/1p6/8/1P6/1K3n2 b - - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    "8/4k3/8/3PK3/8/8/8/8 w - - 0 1",
    "8/p7/8/1P6/K1k3p1/6P1/7P/8 w - - 0 1",
    "1r6/8/8/8/8/8/3K2k1/R7 w - - 0 1",
    "5k2/7R/4P2p/5K2/p1r2P1p/8/8/8 b - - 0 1",
    "6k1/6p1/P6p/r1N5/5p2/7P/1b3PP1/4R1K1 w - - 0 1",
    "1k6/1b6/8/8/7R/8/8/4K2R b K - 0 1",
    "2K5/k7/7p/5B2/8/8/6P1/8 w - - 0 1",
    "8/8/8/3b4/8/4k3/8/3K1B2 w - - 0 1",
    "r3kb1r/3n1pp1/p6p/2pPp2q/Pp2N3/3B2PP/1PQ2P2/R3K2R w KQkq - 0 1",
];

/// Runs the bench with the default evaluation, writes per-position lines and the final
/// `<N> nodes <M> nps` line to `out`, and returns (nodes, nps). `depth` overrides the default
/// depth.
pub fn run(out: &mut dyn Write, depth: Option<i32>) -> (u64, u64) {
    let never = Arc::new(StopFlag::default());
    run_until(out, depth, &Evaluation::default(), &never).expect("never stopped")
}

/// [`run`] with the given evaluation (the UCI loop passes what its `Use NNUE` and `EvalFile`
/// choose, so `bench` measures what would play), ending early, without the final line, once
/// `stop` is set (UCI `stop` during `bench`): `None` then.
pub fn run_until(
    out: &mut dyn Write,
    depth: Option<i32>,
    eval: &Evaluation,
    stop: &Arc<StopFlag>,
) -> Option<(u64, u64)> {
    let depth = depth.unwrap_or(DEFAULT_DEPTH).max(1);
    let mut engine = Engine::new();
    engine.set_evaluation(eval.clone());
    if let Err(e) = engine.set_hash_mb(16) {
        let _ = writeln!(out, "info string error: {e}");
    }
    engine.set_threads(1);
    let start = Instant::now();
    let mut total = 0u64;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let board = Board::from_fen(fen).expect("bench FENs are valid");
        engine.new_game();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let request = SearchRequest::fixed(board, Vec::new(), limits);
        let nodes = engine.search_until(request, stop)?;
        total += nodes;
        let _ = writeln!(out, "position {:>2}: {nodes:>10} nodes  {fen}", i + 1);
    }
    let elapsed = start.elapsed().as_secs_f64().max(1e-6);
    let nps = (total as f64 / elapsed) as u64;
    let _ = writeln!(out, "{total} nodes {nps} nps");
    Some((total, nps))
}
