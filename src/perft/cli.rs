//! `escaque perft <depth> [FEN] [--threads N] [--hash MB]`: Stockfish's divide format on stdout
//! (`move: nodes` lines, a blank line, `Nodes searched: N`), time and speed on stderr.

use std::process::ExitCode;
use std::time::Instant;

use super::divide_hashed;
use crate::board::Board;
use crate::uci::command::parse_unsigned;

const USAGE: &str = "usage: escaque perft <depth> [FEN] [--threads N] [--hash MB]";

/// Default size of the subtree-count cache; `--hash 0` counts every node (pure move generation).
pub const DEFAULT_HASH_MB: usize = 64;

/// Runs the perft command line; `args` are the words after `perft`.
pub fn run(args: &[String]) -> ExitCode {
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut hash_mb = DEFAULT_HASH_MB;
    let mut positional = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "--threads" | "--hash" => {
                let value = words.next().and_then(|v| parse_unsigned::<usize>(v));
                match (word.as_str(), value) {
                    ("--threads", Some(t)) if t >= 1 => threads = t,
                    ("--hash", Some(mb)) if mb <= 1 << 16 => hash_mb = mb,
                    _ => {
                        eprintln!("error: {word} needs a number ({USAGE})");
                        return ExitCode::FAILURE;
                    }
                }
            }
            _ => positional.push(word.as_str()),
        }
    }
    let Some(depth_text) = positional.first() else {
        eprintln!("{USAGE}");
        return ExitCode::FAILURE;
    };
    let Some(depth) = parse_unsigned::<u32>(depth_text).filter(|&d| d <= 20) else {
        eprintln!("error: invalid perft depth '{depth_text}' (expected a number from 0 to 20)");
        return ExitCode::FAILURE;
    };
    let board = if positional.len() > 1 {
        let fen = positional[1..].join(" ");
        match Board::from_fen(&fen) {
            Ok(board) => board,
            Err(e) => {
                eprintln!("error: invalid FEN '{fen}': {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        Board::startpos()
    };
    let chess960 = board.has_chess960_castling();
    let start = Instant::now();
    let counts = match divide_hashed(&board, depth, threads, hash_mb) {
        Ok(counts) => counts,
        Err(e) => {
            eprintln!("error: {e} (try a smaller --hash, or --hash 0)");
            return ExitCode::FAILURE;
        }
    };
    let elapsed = start.elapsed();
    let total: u64 = if depth == 0 {
        1
    } else {
        counts.iter().map(|(_, n)| n).sum()
    };
    let mut out = String::new();
    for (mv, nodes) in &counts {
        out.push_str(&format!("{}: {nodes}\n", board.move_to_uci(*mv, chess960)));
    }
    println!("{out}\nNodes searched: {total}");
    let secs = elapsed.as_secs_f64();
    eprintln!(
        "time {secs:.3} s, {:.1} Mnps, {threads} thread(s), hash {hash_mb} MB",
        total as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
