//! `escaque perft <depth> [FEN] [--threads N] [--hash MB] [--against CMD [--timeout S]]`:
//! Stockfish's divide format on stdout (`move: nodes` lines, a blank line, `Nodes searched: N`),
//! time and speed on stderr. With `--against`, the counts are compared with another engine's
//! `go perft` instead (see `against`).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::{against, divide_hashed, format_divide};
use crate::board::Board;
use crate::uci::command::parse_unsigned;

const USAGE: &str = "usage: escaque perft <depth> [FEN] [--threads N] [--hash MB] \
     [--against \"ENGINE [ARGS]\" [--timeout SECONDS]]";

/// Default size of the subtree-count cache; `--hash 0` counts every node (pure move generation).
pub const DEFAULT_HASH_MB: usize = 64;

/// Default seconds the other engine of `--against` has to answer `uci`, `isready` and
/// `go perft 1`: far more than any working engine needs, short enough not to seem hung.
const DEFAULT_TIMEOUT_S: f64 = 10.0;

/// `--against` exits with this when the comparison could not be made, as `diff` does: 1 means
/// the counts differ, so scripts can tell a move generator bug from a broken setup.
const TROUBLE: u8 = 2;

/// The parsed command line.
struct Request {
    depth: u32,
    board: Board,
    threads: usize,
    hash_mb: usize,
    against: Option<String>,
    timeout: Duration,
}

fn parse(args: &[String]) -> Result<Request, String> {
    let mut request = Request {
        depth: 0,
        board: Board::startpos(),
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        hash_mb: DEFAULT_HASH_MB,
        against: None,
        timeout: Duration::from_secs_f64(DEFAULT_TIMEOUT_S),
    };
    let mut positional = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let flag = word.as_str();
        if !matches!(flag, "--threads" | "--hash" | "--against" | "--timeout") {
            positional.push(flag);
            continue;
        }
        let value = words.next().map(String::as_str);
        match (flag, value) {
            ("--against", Some(command)) => request.against = Some(command.to_string()),
            ("--timeout", Some(v)) => {
                request.timeout = v
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s > 0.0 && *s <= 1e6)
                    .map(Duration::from_secs_f64)
                    .ok_or(format!("--timeout needs seconds (0 to 1000000), got '{v}'"))?;
            }
            (_, v) => {
                let number = v.and_then(parse_unsigned::<usize>);
                match (flag, number) {
                    ("--threads", Some(t)) if t >= 1 => request.threads = t,
                    ("--hash", Some(mb)) if mb <= 1 << 16 => request.hash_mb = mb,
                    _ => return Err(format!("{flag} needs a number ({USAGE})")),
                }
            }
        }
    }
    let Some(depth_text) = positional.first() else {
        return Err(USAGE.to_string());
    };
    let lowest = u32::from(request.against.is_some());
    request.depth = parse_unsigned::<u32>(depth_text)
        .filter(|d| (lowest..=20).contains(d))
        .ok_or(format!(
            "invalid perft depth '{depth_text}' (expected a number from {lowest} to 20)"
        ))?;
    if positional.len() > 1 {
        let fen = positional[1..].join(" ");
        request.board = Board::from_fen(&fen).map_err(|e| format!("invalid FEN '{fen}': {e}"))?;
    }
    Ok(request)
}

/// Runs the perft command line; `args` are the words after `perft`.
pub fn run(args: &[String]) -> ExitCode {
    let against_requested = args.iter().any(|a| a == "--against");
    let request = match parse(args) {
        Ok(request) => request,
        Err(message) => {
            eprintln!("error: {message}");
            let code = if against_requested { TROUBLE } else { 1 };
            return ExitCode::from(code);
        }
    };
    match &request.against {
        Some(command) => run_against(&request, command),
        None => run_divide(&request),
    }
}

/// `--against`: 0 when the counts agree, 1 when they differ, [`TROUBLE`] on any error.
fn run_against(request: &Request, command: &str) -> ExitCode {
    let settings = against::Settings {
        depth: request.depth,
        threads: request.threads,
        hash_mb: request.hash_mb,
        timeout: request.timeout,
    };
    match against::run(&request.board, &settings, command) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(TROUBLE)
        }
    }
}

fn run_divide(request: &Request) -> ExitCode {
    let Request {
        depth,
        ref board,
        threads,
        hash_mb,
        ..
    } = *request;
    let chess960 = board.has_chess960_castling();
    let start = Instant::now();
    let counts = match divide_hashed(board, depth, threads, hash_mb) {
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
    print!("{}", format_divide(board, depth, &counts, chess960));
    let secs = elapsed.as_secs_f64();
    eprintln!(
        "time {secs:.3} s, {:.1} Mnps, {threads} thread(s), hash {hash_mb} MB",
        total as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
