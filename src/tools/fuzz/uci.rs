//! UCI fuzzing: each case is a session of up to 40 lines sent to a fresh in-process [`Uci`]
//! controller (the one `escaque` runs, with its output captured). Lines come from a generator
//! that knows the command grammar (every command, `go` keyword and option, with random, extreme,
//! negative and malformed values, legal and illegal moves), from garbage (random tokens,
//! characters, 100 KB lines), and from byte-level edits of valid lines. Case 0 replays
//! [`CORPUS`], the lines of issue 13's crash list.
//!
//! After every line the session checks what the controller promises:
//! - an `isready` sent after it is answered with `readyok`, and neither takes long (no stall);
//! - at most one `info string error:` line per input line, exactly one for a line that does not
//!   parse, and a refused line changes neither the position nor the options;
//! - `position` sets exactly the board the rules compute from its FEN and moves, or, if those
//!   are invalid, keeps the previous one; no other command changes the position;
//! - every accepted `go` gets exactly one `bestmove`, in order, naming a legal move among the
//!   `searchmoves` (or `(none)` when there is none), with a legal `ponder` move; every PV in its
//!   `info` lines is a legal line from the root;
//! - every accepted `go perft` ends with a node count (checked against the rules' perft up to
//!   depth 3) or says it was stopped;
//! - a search that has a small depth, node or time limit ends by itself;
//! - output lines are short (a 100 KB input never comes back) and free of control characters;
//! - at the end, `stop` answers everything pending and `d` shows the position the rules expect.
//!
//! Searches are kept cheap (they run while the next lines arrive and end at the next `go`,
//! `stop` or the end of the case), and `Hash` and `Threads` values that would really allocate
//! gigabytes or start hundreds of threads are lowered (the UCI tests cover those: a 64 GB
//! `Hash` refused, 1024 `Threads` under a memory limit).

use std::collections::VecDeque;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{
    fen, mutate, run_cases, set_context, CaseResult, Config, Problem, Rng, Summary, Target, NUMBERS,
};
use crate::board::Board;
use crate::types::Move;
use crate::uci::{command, options, Command, Flow, Go, OptionValue, Output, StartPosition, Uci};

/// Issue 13's UCI inputs, and the commands around them that show what they did (case 0).
pub const CORPUS: &[&str] = &[
    "uci",
    "isready",
    // More than 256 legal moves: refused, and the position stays the start position.
    "position fen QQQQQQrk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
    "go perft 3",
    "stop",
    "position fen kqqqqqqq/q6q/q6q/q6q/q3q3/q4Nqq/q4qnn/qqqq1qnK w - - 0 1",
    "go perft 3",
    // The move counters saturate.
    "position fen 4k3/8/8/8/8/8/8/4K3 b - - 65535 65535 moves e8d8",
    "d",
    // A huge clock with one move to go.
    "go wtime 7378697629483820658 movestogo 1",
    "stop",
    // A signed perft depth.
    "go perft +3",
    // Chess960 castling written king-takes-rook, with the option off and on.
    "position fen r3k2r/8/8/8/8/8/8/RK5R w AHkq - 0 1 moves b1a1",
    "position fen r3k2r/8/8/8/8/8/8/RK5R w AHkq - 0 1",
    "go depth 1 searchmoves b1a1",
    "setoption name UCI_Chess960 value true",
    "position fen r3k2r/8/8/8/8/8/8/RK5R w AHkq - 0 1 moves b1a1",
    "go depth 2",
];

/// Tokens for garbage lines and token edits: the whole UCI vocabulary and some near misses.
const TOKENS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "perft",
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "stop",
    "ponderhit",
    "setoption",
    "name",
    "value",
    "Hash",
    "Threads",
    "MultiPV",
    "Move",
    "Overhead",
    "Clear",
    "Ponder",
    "UCI_Chess960",
    "UCI_ShowWDL",
    "Use",
    "NNUE",
    "EvalFile",
    "true",
    "false",
    "debug",
    "on",
    "off",
    "register",
    "later",
    "d",
    "eval",
    "bench",
    "help",
    "xboard",
    "protover",
    "#",
    "e2e4",
    "e7e5",
    "e7e8q",
    "a7a8N",
    "e1g1",
    "e1h1",
    "b1a1",
    "0000",
    "e2e5",
    "z9z9",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "w",
    "b",
    "KQkq",
    "-",
    "",
    "ｇｏ",
    "深さ",
    "\u{0}",
];

/// The most MB and threads the fuzzer lets the engine really take: larger valid values are
/// lowered to these (the parser and range checks see the original spelling everywhere else).
const MAX_HASH_MB: usize = 64;
const MAX_THREADS: usize = 4;

/// Longer than this, a command is stalled (generous: the machine may be busy).
const STALL: Duration = Duration::from_secs(5);
/// How long pending `bestmove`s and perft results may take after `stop`, or a bounded search.
const ANSWER: Duration = Duration::from_secs(10);
/// No output line may be longer (the longest legitimate ones are PVs).
const MAX_OUTPUT_LINE: usize = 2000;

/// Runs a UCI campaign.
pub fn run(config: &Config) -> Summary {
    run_cases(Target::Uci, config, |case, rng| {
        let mut session = Session::new();
        let script = (case == 0).then_some(CORPUS);
        let outcome = session.run(rng, script);
        let mut result = CaseResult {
            inputs: session.inputs,
            accepted: session.accepted,
            problem: None,
        };
        if let Err(message) = outcome {
            result.problem = Some(Problem {
                input: session.transcript.join("\n"),
                message,
            });
        }
        result
    })
}

/// A `Write` that keeps everything, shared with the session that reads it.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What an accepted `go` must be answered with.
struct PendingSearch {
    id: u64,
    board: Board,
    chess960: bool,
    /// The moves `bestmove` may name: the `searchmoves`, or every legal move.
    root_moves: Vec<Move>,
}

/// What an accepted `go perft` must be answered with.
struct PendingPerft {
    id: u64,
    board: Board,
    depth: u32,
}

/// One fuzzing session: a controller, its captured output, and what it still owes.
struct Session {
    uci: Uci,
    sink: Sink,
    /// Bytes of output already read.
    read: usize,
    searches: VecDeque<PendingSearch>,
    perfts: VecDeque<PendingPerft>,
    next_id: u64,
    /// Every line sent, for the failure report.
    transcript: Vec<String>,
    inputs: u64,
    accepted: u64,
}

impl Drop for Session {
    /// Stops whatever still runs, so a failed case leaves no search burning the CPU.
    fn drop(&mut self) {
        let uci = &mut self.uci;
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| uci.shutdown()));
    }
}

impl Session {
    fn new() -> Session {
        let sink = Sink::default();
        Session {
            uci: Uci::new(Output::new(Box::new(sink.clone()))),
            sink,
            read: 0,
            searches: VecDeque::new(),
            perfts: VecDeque::new(),
            next_id: 0,
            transcript: Vec::new(),
            inputs: 0,
            accepted: 0,
        }
    }

    /// Sends `script`, or up to 40 generated lines, then checks the end state.
    fn run(&mut self, rng: &mut Rng, script: Option<&[&str]>) -> Result<(), String> {
        let count = script.map_or_else(|| 1 + rng.below(40), <[&str]>::len);
        for i in 0..count {
            let text = match script {
                Some(lines) => lines[i].to_string(),
                None => {
                    let chess960 = self.uci.options().chess960;
                    generate_line(rng, self.uci.board(), chess960)
                }
            };
            // A line with a line break is several lines to the engine, as its reader splits
            // them.
            for line in text.split('\n') {
                let line = tame(line);
                self.transcript.push(line.clone());
                set_context(Target::Uci, Some(self.transcript.join("\n")));
                // Drawn whatever happens, so the lines that follow do not depend on timing.
                let wait = rng.one_in(3);
                if self.step(&line, wait)? == Flow::Quit {
                    self.uci.shutdown();
                    return self.settle_all();
                }
            }
        }
        self.finish()
    }

    /// Sends one line and checks what it did.
    fn step(&mut self, line: &str, wait: bool) -> Result<Flow, String> {
        self.inputs += 1;
        let parsed = command::parse(line);
        let board_before = *self.uci.board();
        let options_before = self.uci.options().clone();
        let chess960 = options_before.chess960;
        // Expectations go in before the line runs: a fast search or perft may answer before
        // `execute` returns.
        let id = self.next_id;
        self.next_id += 1;
        let mut bounded = false;
        match &parsed {
            Ok(Command::Go(go)) => {
                bounded = is_bounded(go);
                let root_moves = root_moves(&board_before, go, chess960);
                self.searches.push_back(PendingSearch {
                    id,
                    board: board_before,
                    chess960,
                    root_moves,
                });
            }
            Ok(Command::Perft(depth)) => self.perfts.push_back(PendingPerft {
                id,
                board: board_before,
                depth: *depth,
            }),
            _ => {}
        }
        let started = Instant::now();
        let flow = self.uci.execute(line, Instant::now());
        let took = started.elapsed();
        let output = self.drain()?;
        if took > STALL {
            return Err(format!("the line took {took:?}"));
        }
        let errors = output
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .count();
        if errors > 1 {
            return Err(format!("{errors} error lines for one line: {output:?}"));
        }
        if errors == 0 {
            self.accepted += 1;
        } else {
            // A refused go or go perft owes nothing.
            self.withdraw(id, &parsed)?;
        }
        let board = *self.uci.board();
        match &parsed {
            Err(e) if errors != 1 => {
                return Err(format!("unparsable ({e}) but {errors} error lines"));
            }
            Ok(Command::Position { start, moves }) => {
                match (expected_position(start, moves, chess960), errors) {
                    (Some(expected), 0) if same_board(&board, &expected) => {}
                    (Some(expected), 0) => {
                        return Err(format!(
                            "position set '{}', the rules give '{}'",
                            board.to_fen(),
                            expected.to_fen()
                        ))
                    }
                    (Some(_), _) => return Err("a valid position was refused".to_string()),
                    (None, 0) => {
                        return Err(format!(
                            "an invalid position was accepted as '{}'",
                            board.to_fen()
                        ))
                    }
                    (None, _) => {}
                }
            }
            Ok(Command::SetOption { name, value }) => {
                let valid = options::parse_change(name, value.as_deref()).is_ok();
                if !valid && errors == 0 {
                    return Err("an invalid setoption was accepted".to_string());
                }
            }
            _ => {}
        }
        let position_command = matches!(parsed, Ok(Command::Position { .. }));
        if (errors > 0 || !position_command) && !same_board(&board, &board_before) {
            return Err(format!(
                "the position changed from '{}' to '{}'",
                board_before.to_fen(),
                board.to_fen()
            ));
        }
        if errors > 0 && self.uci.options() != &options_before {
            return Err("a refused line changed the options".to_string());
        }
        if flow == Flow::Quit {
            return Ok(flow);
        }
        self.ready()?;
        if wait && bounded && errors == 0 {
            self.wait_for(
                |s| s.searches.is_empty(),
                "a search with a small limit to end",
            )?;
        }
        if matches!(parsed, Ok(Command::Stop)) {
            self.settle_all()?;
        }
        Ok(flow)
    }

    /// `isready` is answered at once with `readyok`.
    fn ready(&mut self) -> Result<(), String> {
        let started = Instant::now();
        self.uci.execute("isready", Instant::now());
        let took = started.elapsed();
        let output = self.drain()?;
        if !output.iter().any(|l| l == "readyok") {
            return Err(format!("isready got no readyok: {output:?}"));
        }
        if took > STALL {
            return Err(format!("isready took {took:?}"));
        }
        Ok(())
    }

    /// Removes the expectation pushed for the refused line `id`.
    fn withdraw(
        &mut self,
        id: u64,
        parsed: &Result<Command, command::ParseError>,
    ) -> Result<(), String> {
        let removed = match parsed {
            Ok(Command::Go(_)) => {
                self.searches.back().is_some_and(|s| s.id == id) && {
                    self.searches.pop_back();
                    true
                }
            }
            Ok(Command::Perft(_)) => {
                self.perfts.back().is_some_and(|p| p.id == id) && {
                    self.perfts.pop_back();
                    true
                }
            }
            _ => true,
        };
        if removed {
            Ok(())
        } else {
            Err("a refused command was answered".to_string())
        }
    }

    /// Ends the session: `stop`, every pending answer arrives, `d` shows the expected position,
    /// `isready` is answered, and the controller shuts down.
    fn finish(&mut self) -> Result<(), String> {
        self.uci.execute("stop", Instant::now());
        self.settle_all()?;
        self.uci.execute("d", Instant::now());
        let output = self.drain()?;
        let expected = self.uci.board().to_fen();
        let shown = output.iter().find_map(|l| l.strip_prefix("Fen: "));
        if shown != Some(expected.as_str()) {
            return Err(format!("d shows {shown:?}, the position is '{expected}'"));
        }
        self.ready()?;
        self.uci.shutdown();
        self.drain()?;
        Ok(())
    }

    /// Waits until every accepted search and perft has answered.
    fn settle_all(&mut self) -> Result<(), String> {
        self.wait_for(
            |s| s.searches.is_empty() && s.perfts.is_empty(),
            "every search and perft to answer",
        )?;
        Ok(())
    }

    fn wait_for(&mut self, done: impl Fn(&Session) -> bool, what: &str) -> Result<(), String> {
        let deadline = Instant::now() + ANSWER;
        loop {
            self.drain()?;
            if done(self) {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "waited {ANSWER:?} for {what}: {} searches and {} perfts unanswered",
                    self.searches.len(),
                    self.perfts.len()
                ));
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// The complete output lines written since the last call, each checked.
    fn drain(&mut self) -> Result<Vec<String>, String> {
        let bytes = {
            let buf = self.sink.0.lock().unwrap_or_else(|e| e.into_inner());
            let Some(end) = buf[self.read..].iter().rposition(|&b| b == b'\n') else {
                return Ok(Vec::new());
            };
            let bytes = buf[self.read..self.read + end + 1].to_vec();
            self.read += end + 1;
            bytes
        };
        let text = String::from_utf8(bytes).map_err(|e| format!("output is not UTF-8: {e}"))?;
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        for line in &lines {
            self.check_output(line)
                .map_err(|e| format!("{e}\noutput line: {}", line.escape_debug()))?;
        }
        Ok(lines)
    }

    /// Checks one output line and matches answers with what is pending.
    fn check_output(&mut self, line: &str) -> Result<(), String> {
        if line.chars().count() > MAX_OUTPUT_LINE {
            return Err("an output line is too long".to_string());
        }
        if line.chars().any(char::is_control) {
            return Err("a control character in the output".to_string());
        }
        if line.starts_with("bestmove") {
            let search = self.searches.pop_front().ok_or("a bestmove without a go")?;
            return check_bestmove(line, &search);
        }
        if line.starts_with("info ") && !line.starts_with("info string") {
            let search = self.searches.front().ok_or("search info without a go")?;
            if let Some((_, pv)) = line.split_once(" pv ") {
                return check_pv(pv, search);
            }
            return Ok(());
        }
        if let Some(count) = line.strip_prefix("Nodes searched: ") {
            let perft = self
                .perfts
                .pop_front()
                .ok_or("a perft count without a go perft")?;
            let count: u64 = count.parse().map_err(|_| "a malformed perft count")?;
            if perft.depth <= 3 {
                let expected = if perft.depth == 0 {
                    1
                } else {
                    crate::perft::perft(&perft.board, perft.depth)
                };
                if count != expected {
                    return Err(format!(
                        "perft {} of '{}' gives {count}, the rules {expected}",
                        perft.depth,
                        perft.board.to_fen()
                    ));
                }
            }
            return Ok(());
        }
        if line == "info string go perft: stopped" {
            self.perfts
                .pop_front()
                .ok_or("a stopped perft without a go perft")?;
        }
        Ok(())
    }
}

/// Hash and Threads values the fuzzer must not really apply are lowered (see the module
/// comment); every other line is sent as generated.
fn tame(line: &str) -> String {
    if let Ok(Command::SetOption { name, value }) = command::parse(line) {
        if let Ok((spec, OptionValue::Spin(n))) = options::parse_change(&name, value.as_deref()) {
            match spec.name {
                "Hash" if n > MAX_HASH_MB as i64 => {
                    return format!("setoption name Hash value {MAX_HASH_MB}")
                }
                "Threads" if n > MAX_THREADS as i64 => {
                    return format!("setoption name Threads value {MAX_THREADS}")
                }
                _ => {}
            }
        }
    }
    line.to_string()
}

/// Whether a `go` ends by itself soon: not infinite or pondering, and a small depth, node or
/// time limit.
fn is_bounded(go: &Go) -> bool {
    let l = &go.limits;
    !l.infinite
        && !l.ponder
        && (l.depth.is_some_and(|d| d <= 4)
            || l.nodes.is_some_and(|n| n <= 20_000)
            || l.movetime.is_some_and(|t| t <= 50))
}

/// The moves a `go` may answer with (as the controller reads `searchmoves`: case-insensitive,
/// `0000` ignored; an unreadable one means the `go` is refused, and nothing is owed).
fn root_moves(board: &Board, go: &Go, chess960: bool) -> Vec<Move> {
    let listed: Vec<Move> = go
        .searchmoves
        .iter()
        .filter(|t| t.as_str() != "0000")
        .filter_map(|t| board.parse_uci_move(&t.to_ascii_lowercase(), chess960).ok())
        .collect();
    if listed.is_empty() {
        board.legal_moves().to_vec()
    } else {
        listed
    }
}

/// The board a `position` command describes, by the rules alone; `None` if it is invalid.
fn expected_position(start: &StartPosition, moves: &[String], chess960: bool) -> Option<Board> {
    let mut board = match start {
        StartPosition::Startpos => Board::startpos(),
        StartPosition::Fen(fen) => Board::from_fen(fen).ok()?,
    };
    for text in moves {
        let mv = board
            .parse_uci_move(&text.to_ascii_lowercase(), chess960)
            .ok()?;
        board = board.make_move(mv);
    }
    Some(board)
}

fn same_board(a: &Board, b: &Board) -> bool {
    a.to_fen() == b.to_fen() && a.hash() == b.hash()
}

fn check_bestmove(line: &str, search: &PendingSearch) -> Result<(), String> {
    let words: Vec<&str> = line.split(' ').collect();
    let (best, ponder) = match words[..] {
        ["bestmove", "(none)"] => {
            return if search.root_moves.is_empty() {
                Ok(())
            } else {
                Err("bestmove (none) with legal moves".to_string())
            };
        }
        ["bestmove", best] => (best, None),
        ["bestmove", best, "ponder", ponder] => (best, Some(ponder)),
        _ => return Err("a malformed bestmove line".to_string()),
    };
    let mv = search
        .board
        .parse_uci_move(best, search.chess960)
        .map_err(|e| format!("bestmove: {e} in '{}'", search.board.to_fen()))?;
    if !search.root_moves.contains(&mv) {
        return Err("the best move is not among the searchmoves".to_string());
    }
    if let Some(ponder) = ponder {
        let after = search.board.make_move(mv);
        after
            .parse_uci_move(ponder, search.chess960)
            .map_err(|e| format!("ponder move: {e} in '{}'", after.to_fen()))?;
    }
    Ok(())
}

/// Every PV move is legal in turn from the root, the first among the root moves.
fn check_pv(pv: &str, search: &PendingSearch) -> Result<(), String> {
    let mut board = search.board;
    for (i, text) in pv.split(' ').enumerate() {
        let mv = board
            .parse_uci_move(text, search.chess960)
            .map_err(|e| format!("pv move {}: {e} in '{}'", i + 1, board.to_fen()))?;
        if i == 0 && !search.root_moves.contains(&mv) {
            return Err("the PV starts with a move not among the searchmoves".to_string());
        }
        board = board.make_move(mv);
    }
    Ok(())
}

/// One input line: valid, nearly valid or garbage. `board` and `chess960` are the controller's
/// (they change only by `position` and `setoption`, which run synchronously, so the lines of a
/// case depend on its seed alone), so moves can be legal.
pub fn generate_line(rng: &mut Rng, board: &Board, chess960: bool) -> String {
    match rng.below(100) {
        0..=69 => valid_line(rng, board, chess960),
        70..=79 => garbage_line(rng),
        _ => {
            let mut line = valid_line(rng, board, chess960);
            for _ in 0..1 + rng.below(3) {
                line = mutate(rng, &line, TOKENS);
            }
            line
        }
    }
}

fn valid_line(rng: &mut Rng, board: &Board, chess960: bool) -> String {
    match rng.below(100) {
        0..=29 => position_line(rng, board, chess960),
        30..=59 => go_line(rng, board, chess960),
        60..=74 => setoption_line(rng),
        _ => simple_line(rng),
    }
}

fn simple_line(rng: &mut Rng) -> String {
    if rng.one_in(150) {
        return "quit".to_string();
    }
    let line = *rng.pick(&[
        "uci",
        "isready",
        "ucinewgame",
        "stop",
        "stop",
        "stop",
        "ponderhit",
        "d",
        "eval",
        "help",
        "debug on",
        "debug off",
        "debug",
        "register later",
        "register name x code y",
        "xboard",
        "protover 2",
        "# comment",
        "",
        "   ",
        "\t\r",
        "bench 1",
        "bench 2",
        "bench",
        "bench 0",
        "bench 65",
        "go perft 0",
        "go perft 1",
        "go perft 2",
        "go perft 3",
        "go perft 4",
        "go perft 20",
        "go perft 21",
        "go perft",
        "go perft -1",
        "go perft +3",
        "go",
    ]);
    // A perft or bench is refused while a search runs: often stop it first.
    if (line.starts_with("go perft") || line.starts_with("bench")) && rng.one_in(2) {
        format!("stop\n{line}")
    } else {
        line.to_string()
    }
}

/// `position startpos|fen <fen> [moves …]`: a known, random-game, random or current position,
/// usually with legal moves from it (now and then hundreds), sometimes with a bad one.
fn position_line(rng: &mut Rng, board: &Board, chess960: bool) -> String {
    let (start, start_board) = match rng.below(6) {
        0 | 1 => ("startpos".to_string(), Some(Board::startpos())),
        2 => {
            let fen = rng.pick(fen::CORPUS).to_string();
            let parsed = Board::from_fen(&fen).ok();
            (format!("fen {fen}"), parsed)
        }
        3 => {
            let b = fen::random_game(rng, 60);
            (format!("fen {}", b.to_fen()), Some(b))
        }
        4 => {
            let fen = fen::generate(rng);
            let parsed = Board::from_fen(&fen).ok();
            (format!("fen {fen}"), parsed)
        }
        _ => (format!("fen {}", board.to_fen()), Some(*board)),
    };
    let mut line = format!("position {start}");
    if rng.one_in(4) {
        return line;
    }
    line.push_str(" moves");
    if let Some(mut b) = start_board {
        let count = if rng.one_in(20) {
            rng.below(300)
        } else {
            rng.below(12)
        };
        for _ in 0..count {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = *rng.pick(&moves);
            let mut text = b.move_to_uci(mv, chess960 || rng.one_in(8));
            if rng.one_in(10) {
                text = text.to_ascii_uppercase();
            }
            line.push(' ');
            line.push_str(&text);
            b = b.make_move(mv);
        }
    }
    if rng.one_in(8) {
        line.push(' ');
        line.push_str(rng.pick::<&str>(&[
            "e2e4", "e7e5", "0000", "e1g1", "e1h1", "a1a1", "e2e4q", "xx",
        ]));
    }
    line
}

/// `go` with a random set of keywords and values; most have a small depth, node or time limit.
fn go_line(rng: &mut Rng, board: &Board, chess960: bool) -> String {
    let mut words = vec!["go".to_string()];
    let number = |rng: &mut Rng, small: &[u64]| -> String {
        if rng.one_in(4) {
            rng.pick(NUMBERS).to_string()
        } else {
            rng.pick(small).to_string()
        }
    };
    if rng.one_in(2) {
        let limit = match rng.below(3) {
            0 => format!("depth {}", number(rng, &[1, 2, 3])),
            1 => format!("nodes {}", number(rng, &[1, 10, 100, 500, 2000])),
            _ => format!("movetime {}", number(rng, &[0, 1, 2, 5])),
        };
        words.push(limit);
    }
    for _ in 0..rng.below(5) {
        let word = match rng.below(14) {
            0 => {
                let moves = board.legal_moves();
                let mut list = "searchmoves".to_string();
                for _ in 0..1 + rng.below(3) {
                    list.push(' ');
                    match moves.is_empty() || rng.one_in(6) {
                        true => list.push_str(rng.pick::<&str>(&["0000", "e2e4", "a1h8", "E2E4"])),
                        false => list.push_str(&board.move_to_uci(*rng.pick(&moves), chess960)),
                    }
                }
                list
            }
            1 => "ponder".to_string(),
            2 => "infinite".to_string(),
            3..=6 => format!(
                "{} {}",
                rng.pick(&["wtime", "btime", "winc", "binc"]),
                number(rng, &[0, 1, 5, 10, 100, 1000, 60_000])
            ),
            7 => format!("movestogo {}", number(rng, &[0, 1, 2, 40])),
            8 | 9 => format!("depth {}", number(rng, &[1, 2, 3])),
            10 => format!("nodes {}", number(rng, &[1, 100, 2000])),
            11 => format!("mate {}", number(rng, &[1, 2, 3])),
            12 => format!("movetime {}", number(rng, &[0, 1, 5])),
            _ => rng
                .pick(&[
                    "depth",
                    "wtime",
                    "nodes",
                    "searchmoves",
                    "perft",
                    "bogus",
                    "-5",
                ])
                .to_string(),
        };
        words.push(word);
    }
    words.join(" ")
}

/// `setoption` for a real option (name in any case, spaced oddly now and then) or a made-up
/// one, with a value in range, out of range, malformed or missing.
fn setoption_line(rng: &mut Rng) -> String {
    let spec = rng.pick(options::OPTIONS);
    let mut name = match rng.below(6) {
        0 => spec.name.to_ascii_lowercase(),
        1 => spec.name.to_ascii_uppercase(),
        2 => rng
            .pick(&["Hashh", "Thread", "Move  Overhead", "UCI Chess960", "nnue"])
            .to_string(),
        _ => spec.name.to_string(),
    };
    if rng.one_in(10) {
        name = name.replace(' ', "   ");
    }
    let value = match spec.kind {
        options::OptionKind::Spin { min, max, .. } => match rng.below(5) {
            0 => rng.pick(NUMBERS).to_string(),
            1 => (min - 1).to_string(),
            2 => (max + 1).to_string(),
            _ => {
                let cap = match spec.name {
                    "Hash" => MAX_HASH_MB as i64,
                    "Threads" => MAX_THREADS as i64,
                    _ => max,
                };
                rng.range(min as u64, cap.min(max) as u64).to_string()
            }
        },
        options::OptionKind::Check { .. } => rng
            .pick(&["true", "false", "TRUE", "False", "1", "0", "yes", ""])
            .to_string(),
        options::OptionKind::Button => rng.pick(&["", "now", "true"]).to_string(),
        options::OptionKind::Text { .. } => rng
            .pick(&[
                options::DEFAULT_EVAL_FILE,
                "",
                "/nonexistent/net.nnue",
                "Cargo.toml",
                "src",
                "src/nnue/default.nnue",
            ])
            .to_string(),
    };
    match rng.below(10) {
        0 => format!("setoption name {name}"),
        1 => format!("setoption value {value} name {name}"),
        2 => "setoption".to_string(),
        3 => format!("setoption name {name} value"),
        _ => format!("setoption name {name} value {value}"),
    }
}

/// Garbage: random tokens or characters, foreign scripts, control characters, or a line of
/// 10 to 100 KB.
fn garbage_line(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => (0..1 + rng.below(12))
            .map(|_| match rng.one_in(4) {
                true => rng.pick(NUMBERS).to_string(),
                false => rng.pick(TOKENS).to_string(),
            })
            .collect::<Vec<_>>()
            .join(" "),
        1 => (0..1 + rng.below(60))
            .map(|_| *rng.pick(super::CHARS))
            .collect(),
        2 => match rng.below(5) {
            0 => "x".repeat(100_000),
            1 => format!("go searchmoves {}", "e2e4 ".repeat(20_000)),
            2 => format!(
                "position startpos moves {}",
                "g1f3 g8f6 f3g1 f6g8 ".repeat(2_500)
            ),
            3 => format!("setoption name {} value 1", "a".repeat(50_000)),
            _ => format!("position fen {}", "8/".repeat(10_000)),
        },
        3 => rng
            .pick(&[
                "ｇｏ ｄｅｐｔｈ ３",
                "go 深さ 3",
                "позиция startpos",
                "position startpos moves é2é4",
                "go depth ٣",
                "setoption name Hash value ６４",
                "go wtime 1e9",
            ])
            .to_string(),
        4 => format!(
            "{} {} {}",
            rng.pick(&["go", "position", "setoption", "debug", "bench", "register"]),
            rng.pick(TOKENS),
            rng.pick(NUMBERS)
        ),
        _ => format!("\u{0}\u{1}{}\u{7}\u{1b}[2J", rng.pick(TOKENS)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(fen: &str, searchmoves: &[&str]) -> PendingSearch {
        let board = Board::from_fen(fen).unwrap();
        let go = Go {
            searchmoves: searchmoves.iter().map(|m| m.to_string()).collect(),
            ..Go::default()
        };
        PendingSearch {
            id: 0,
            board,
            chess960: false,
            root_moves: root_moves(&board, &go, false),
        }
    }

    /// The answer checks accept right answers and catch wrong ones.
    #[test]
    fn bestmove_and_pv_checks() {
        let start = pending(crate::board::START_FEN, &[]);
        assert!(check_bestmove("bestmove e2e4", &start).is_ok());
        assert!(check_bestmove("bestmove e2e4 ponder e7e5", &start).is_ok());
        for bad in [
            "bestmove e2e5",
            "bestmove e2e4 ponder e2e4",
            "bestmove (none)",
            "bestmove",
            "bestmove e2e4 e7e5",
        ] {
            assert!(check_bestmove(bad, &start).is_err(), "{bad}");
        }
        let only = pending(crate::board::START_FEN, &["G1F3", "0000"]);
        assert_eq!(only.root_moves.len(), 1);
        assert!(check_bestmove("bestmove g1f3", &only).is_ok());
        assert!(check_bestmove("bestmove e2e4", &only).is_err());
        assert!(check_pv("g1f3 e7e5 f3e5", &only).is_ok());
        assert!(check_pv("e2e4", &only).is_err());
        assert!(check_pv("g1f3 g1f3", &only).is_err());
        let mated = pending("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", &[]);
        assert!(check_bestmove("bestmove (none)", &mated).is_ok());
        assert!(check_bestmove("bestmove h8g8", &mated).is_err());
        // Chess960 castling text with the option off (issue 13).
        let c960 = pending("r3k2r/8/8/8/8/8/8/RK5R w AHkq - 0 1", &["b1a1"]);
        assert!(check_bestmove("bestmove b1a1", &c960).is_ok());
    }

    #[test]
    fn expected_positions_follow_the_rules() {
        let moves = |m: &[&str]| m.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let b = expected_position(&StartPosition::Startpos, &moves(&["E2E4", "e7e5"]), false);
        assert_eq!(
            b.unwrap().to_fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        assert!(expected_position(&StartPosition::Startpos, &moves(&["e2e5"]), false).is_none());
        let fen = StartPosition::Fen(
            "QQQQQQrk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1".to_string(),
        );
        assert!(expected_position(&fen, &[], false).is_none());
        let fen = StartPosition::Fen("4k3/8/8/8/8/8/8/4K3 b - - 65535 65535".to_string());
        let b = expected_position(&fen, &moves(&["e8d8"]), false).unwrap();
        assert_eq!(b.to_fen(), "3k4/8/8/8/8/8/8/4K3 w - - 65535 65535");
    }

    /// Values that would allocate gigabytes or start hundreds of threads are lowered; the rest
    /// pass unchanged.
    #[test]
    fn tame_lowers_only_expensive_options() {
        assert_eq!(
            tame("setoption name hash value 65536"),
            "setoption name Hash value 64"
        );
        assert_eq!(
            tame("setoption name Threads value 1024"),
            "setoption name Threads value 4"
        );
        for line in [
            "setoption name Hash value 65537",
            "setoption name Hash value 32",
            "setoption name Threads value -1",
            "go depth 3",
            "x".repeat(1000).as_str(),
        ] {
            assert_eq!(tame(line), line);
        }
    }

    /// Case 0 replays the corpus, and it passes.
    #[test]
    fn the_corpus_session_passes() {
        let mut session = Session::new();
        session
            .run(&mut Rng::new(0), Some(CORPUS))
            .unwrap_or_else(|e| panic!("{e}\n{}", session.transcript.join("\n")));
        assert_eq!(session.inputs, CORPUS.len() as u64);
    }

    /// Output that answers nothing pending, or that no GUI should get, is a failure.
    #[test]
    fn unexpected_output_is_a_failure() {
        let mut session = Session::new();
        session.step("go infinite", false).unwrap();
        assert_eq!(session.searches.len(), 1);
        session.check_output("bestmove e2e4").unwrap();
        assert!(session.check_output("bestmove e2e4").is_err());
        assert!(session.check_output("info depth 1 pv e2e4").is_err());
        assert!(session.check_output("Nodes searched: 20").is_err());
        assert!(session.check_output(&"x".repeat(3000)).is_err());
        assert!(session.check_output("info string a\u{7}b").is_err());
    }
}
