//! `escaque perft <depth> [FEN] [--threads N] [--hash MB] [--against CMD [--timeout S]]`:
//! Stockfish's divide format on stdout (`move: nodes` lines, a blank line, `Nodes searched: N`),
//! time and speed on stderr. With `--against`, the counts are compared with another engine's
//! `go perft` instead (see `against`).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::against;
use crate::board::Board;
use crate::perft::{divide_hashed, format_divide};
use crate::tools::{number_in, threads, whole_in};
use crate::uci::options::MAX_HASH_MB;

/// Default size of the subtree-count cache; `--hash 0` counts every node (pure move generation).
pub const DEFAULT_HASH_MB: usize = 64;

pub use crate::perft::MAX_DEPTH;

/// `--against` exits with this when the comparison could not be made, as `diff` does: 1 means
/// the counts differ, so scripts can tell a move generator bug from a broken setup. Bad
/// arguments exit with it too (clap's status for them).
const TROUBLE: u8 = 2;

/// Count the leaf nodes of the legal move tree (perft), in Stockfish's divide format
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies (1 to 20; 0 counts the root alone)
    #[arg(value_parser = whole_in(0, MAX_DEPTH))]
    depth: u32,
    /// The position (6 or 4 FEN fields, one argument or several); the start position if none
    fen: Vec<String>,
    /// Threads counting (default: all cores)
    #[arg(long, value_parser = threads())]
    threads: Option<usize>,
    /// Subtree-count cache in MB (0: count every node, pure move-generation speed)
    #[arg(long, default_value_t = DEFAULT_HASH_MB, value_parser = whole_in(0, MAX_HASH_MB as usize))]
    hash: usize,
    /// Compare with this UCI engine's `go perft` ("PROGRAM [ARGS]"): exit 0 if the counts
    /// agree, 1 if they differ, 2 if no comparison could be made
    #[arg(long, value_name = "ENGINE")]
    against: Option<String>,
    /// Seconds the other engine has to answer `uci`, `isready` and `go perft 1`
    #[arg(long, requires = "against", default_value_t = 10.0, value_parser = number_in(1e-3, 1e6))]
    timeout: f64,
}

/// The parsed command line.
struct Request {
    depth: u32,
    board: Board,
    threads: usize,
    hash_mb: usize,
    timeout: Duration,
}

impl PerftArgs {
    /// Runs the count (or the comparison); bad arguments clap could not see (the FEN, depth 0
    /// with `--against`) exit with status 2 like the others.
    pub fn run(self) -> ExitCode {
        let board = if self.fen.is_empty() {
            Board::startpos()
        } else {
            let fen = self.fen.join(" ");
            match Board::from_fen(&fen) {
                Ok(board) => board,
                Err(e) => return usage_error(&format!("invalid FEN '{fen}': {e}")),
            }
        };
        if self.against.is_some() && self.depth == 0 {
            return usage_error("--against needs a depth from 1 to 20");
        }
        let request = Request {
            depth: self.depth,
            board,
            threads: self
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            hash_mb: self.hash,
            timeout: Duration::from_secs_f64(self.timeout),
        };
        match &self.against {
            Some(command) => run_against(&request, command),
            None => run_divide(&request),
        }
    }
}

fn usage_error(message: &str) -> ExitCode {
    report_err!("error: {message}\n\nFor more information, try 'escaque perft --help'.");
    ExitCode::from(TROUBLE)
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
            report_err!("error: {message}");
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
            report_err!("error: {e} (try a smaller --hash, or --hash 0)");
            return ExitCode::FAILURE;
        }
    };
    let elapsed = start.elapsed();
    let total: u64 = if depth == 0 {
        1
    } else {
        counts.iter().map(|(_, n)| n).sum()
    };
    report_text!("{}", format_divide(board, depth, &counts, chess960));
    let secs = elapsed.as_secs_f64();
    report_err!(
        "time {secs:.3} s, {:.1} Mnps, {threads} thread(s), hash {hash_mb} MB",
        total as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
