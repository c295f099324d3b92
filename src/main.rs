//! The escaque binary: `escaque` alone speaks UCI on stdin/stdout; `escaque perft <depth> [fen]`
//! runs a perft from the command line.

use std::process::ExitCode;
use std::time::Instant;

use escaque::board::Board;
use escaque::perft::divide;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("perft") => run_perft(&args[1..]),
        _ => {
            eprintln!("usage: escaque perft <depth> [FEN] [--threads N]");
            ExitCode::FAILURE
        }
    }
}

fn run_perft(args: &[String]) -> ExitCode {
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut positional = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--threads" {
            match args.get(i + 1).and_then(|t| t.parse::<usize>().ok()).filter(|&t| t >= 1) {
                Some(t) => threads = t,
                None => {
                    eprintln!("error: --threads needs a positive number");
                    return ExitCode::FAILURE;
                }
            }
            i += 2;
        } else {
            positional.push(args[i].as_str());
            i += 1;
        }
    }
    let Some(depth_text) = positional.first() else {
        eprintln!("usage: escaque perft <depth> [FEN] [--threads N]");
        return ExitCode::FAILURE;
    };
    let Some(depth) = depth_text.parse::<u32>().ok().filter(|&d| d <= 20) else {
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
    let counts = divide(&board, depth, threads);
    let elapsed = start.elapsed();
    let total: u64 = if depth == 0 { 1 } else { counts.iter().map(|(_, n)| n).sum() };
    let mut out = String::new();
    for (mv, nodes) in &counts {
        out.push_str(&format!("{}: {nodes}\n", board.move_to_uci(*mv, chess960)));
    }
    println!("{out}\nNodes searched: {total}");
    let secs = elapsed.as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.1} Mnps, {threads} thread(s)",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
