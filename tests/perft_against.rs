//! `escaque perft --against`, run as a user would run it, against a fake UCI engine whose
//! `go perft` has a planted move generator bug, against escaque itself, and against engines
//! that cannot do what it needs.
//!
//! The fake engine is this test program itself, started as `<this program> fake-engine <mode>`
//! (so this target has no libtest harness: `main` picks the role). It needs nothing outside the
//! crate, is built whenever the test is, and its bug is a property of positions, as a real one
//! is, so the walk down the tree finds it at any depth.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use escaque::board::Board;
use escaque::types::{Move, PieceType};

const FAKE: &str = "fake-engine";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(FAKE) {
        fake::run(args.get(2).map_or("honest", String::as_str));
        return;
    }
    let tests: [(&str, fn()); 7] = [
        (
            "the_command_line_is_read_as_libtest_reads_it",
            the_command_line_is_read_as_libtest_reads_it,
        ),
        (
            "finds_an_underpromotion_dropped_deep_in_the_tree",
            finds_an_underpromotion_dropped_deep_in_the_tree,
        ),
        ("finds_a_dropped_en_passant", finds_a_dropped_en_passant),
        ("agrees_with_escaque_itself", agrees_with_escaque_itself),
        (
            "an_engine_without_go_perft_is_an_error_in_time",
            an_engine_without_go_perft_is_an_error_in_time,
        ),
        (
            "an_engine_that_cannot_start_or_answer_is_an_error",
            an_engine_that_cannot_start_or_answer_is_an_error,
        ),
        (
            "unreadable_divides_are_an_error",
            unreadable_divides_are_an_error,
        ),
    ];
    let selection = Selection::parse(&args[1..]);
    let selected: Vec<_> = tests
        .iter()
        .filter(|(name, _)| selection.selects(name))
        .collect();
    // `--list` as libtest answers it, for test runners that ask first (cargo nextest).
    if args.iter().any(|a| a == "--list") {
        for (name, _) in &selected {
            println!("{name}: test");
        }
        return;
    }
    println!("\nrunning {} tests", selected.len());
    for (name, test) in &selected {
        println!("test {name} ...");
        test();
        println!("test {name} ... ok");
    }
    println!("\ntest result: ok. {} passed\n", selected.len());
}

/// Which tests a command line selects, read as libtest reads it: words that are not flags are
/// filters (a name containing one, or equal to it with `--exact`), `--skip NAME` drops the names
/// containing NAME, `--ignored` selects none (no test here is ignored), and the values of the
/// other flags that take one (`--test-threads 1`) are not filters.
#[derive(Debug, Default, PartialEq)]
struct Selection {
    filters: Vec<String>,
    skips: Vec<String>,
    exact: bool,
    ignored_only: bool,
}

impl Selection {
    fn parse(args: &[String]) -> Selection {
        const WITH_VALUE: [&str; 6] = [
            "--test-threads",
            "--color",
            "--format",
            "--logfile",
            "--shuffle-seed",
            "-Z",
        ];
        let mut selection = Selection::default();
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--skip" => selection.skips.extend(args.next().cloned()),
                "--exact" => selection.exact = true,
                "--ignored" => selection.ignored_only = true,
                flag if WITH_VALUE.contains(&flag) => {
                    args.next();
                }
                flag if flag.starts_with("--skip=") => {
                    selection.skips.push(flag["--skip=".len()..].to_string())
                }
                flag if flag.starts_with('-') => {}
                filter => selection.filters.push(filter.to_string()),
            }
        }
        selection
    }

    fn selects(&self, name: &str) -> bool {
        let matches = |pattern: &String| {
            if self.exact {
                name == pattern
            } else {
                name.contains(pattern.as_str())
            }
        };
        !self.ignored_only
            && (self.filters.is_empty() || self.filters.iter().any(matches))
            && !self.skips.iter().any(matches)
    }
}

fn the_command_line_is_read_as_libtest_reads_it() {
    let parse = |line: &str| {
        Selection::parse(
            &line
                .split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>(),
        )
    };
    let all = parse("");
    assert!(all.selects("finds_a_dropped_en_passant"));
    // The value of --test-threads is not a filter.
    assert_eq!(parse("--test-threads 1 --nocapture"), all);
    let some = parse("dropped --skip en_passant");
    assert!(some.selects("finds_an_underpromotion_dropped_deep_in_the_tree"));
    assert!(!some.selects("finds_a_dropped_en_passant"));
    assert!(!some.selects("agrees_with_escaque_itself"));
    assert!(!parse("--skip=escaque").selects("agrees_with_escaque_itself"));
    let exact = parse("--exact dropped");
    assert!(!exact.selects("finds_a_dropped_en_passant"));
    assert!(parse("--exact finds_a_dropped_en_passant").selects("finds_a_dropped_en_passant"));
    assert!(!parse("--ignored").selects("agrees_with_escaque_itself"));
}

/// The command line that starts the fake engine in `mode`.
fn fake_command(mode: &str) -> String {
    let exe = std::env::current_exe().expect("the test program's path");
    format!("'{}' {FAKE} {mode}", exe.display())
}

/// `escaque perft <args>`, with how long it took.
fn perft(args: &[&str]) -> (Output, Duration) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_escaque"))
        .arg("perft")
        .args(args)
        .output()
        .expect("escaque runs");
    (out, start.elapsed())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The lines of a mismatch report: the move path, the FEN of the last position, and the
/// totals line of each level.
struct Report {
    path: Vec<String>,
    fen: String,
    levels: Vec<String>,
    stdout: String,
}

fn read_report(out: &Output) -> Report {
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a mismatch exits with 1\n{stdout}{}",
        text(&out.stderr)
    );
    let path = stdout
        .lines()
        .find_map(|l| l.strip_prefix("path: "))
        .unwrap_or_else(|| panic!("no path line:\n{stdout}"))
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let fen = stdout
        .lines()
        .find(|l| l.starts_with("first difference "))
        .and_then(|l| l.split_once(": "))
        .unwrap_or_else(|| panic!("no position line:\n{stdout}"))
        .1
        .to_string();
    let levels = stdout
        .lines()
        .filter(|l| l.starts_with("  depth "))
        .map(str::to_string)
        .collect();
    Report {
        path,
        fen,
        levels,
        stdout,
    }
}

/// Plays `moves` (UCI) from `fen`.
fn play(fen: &str, moves: &[String]) -> Board {
    let mut board = Board::from_fen(fen).unwrap();
    for text in moves {
        board = board.make_move(board.parse_uci_move(text, false).unwrap());
    }
    board
}

fn finds_an_underpromotion_dropped_deep_in_the_tree() {
    // The b-pawn promotes at the earliest on the fifth ply: only the walk down finds that.
    let fen = "7k/8/8/1P6/8/8/8/K7 w - - 0 1";
    let (out, _) = perft(&["5", fen, "--against", &fake_command("no-underpromotion")]);
    let report = read_report(&out);
    let root = Board::from_fen(fen).unwrap();
    let ours = escaque::perft::perft(&root, 5);
    let theirs = fake::perft(&root, 5, fake::Bug::NoUnderpromotion);
    assert!(theirs < ours);
    assert!(
        report
            .stdout
            .starts_with(&format!("perft 5 differs: escaque {ours} ("))
            && report
                .stdout
                .lines()
                .next()
                .unwrap()
                .contains(&format!("FakeEngine {theirs} (")),
        "{}",
        report.stdout
    );
    // One level per ply: b5b6, a black move, b6b7, a black move, then the promotion.
    assert_eq!(report.path.len(), 5, "{}", report.stdout);
    assert_eq!((&report.path[0][..], &report.path[2][..]), ("b5b6", "b6b7"));
    assert_eq!(report.levels.len(), 5, "{}", report.stdout);
    // Each level's line has both counts of the position after the path so far.
    for (depth, line) in (1..=5).rev().zip(&report.levels) {
        let board = play(fen, &report.path[..(5 - depth) as usize]);
        let words: Vec<&str> = line.split_whitespace().collect();
        let expected = [
            "depth".to_string(),
            depth.to_string(),
            "escaque".to_string(),
            escaque::perft::perft(&board, depth).to_string(),
            "FakeEngine".to_string(),
            fake::perft(&board, depth, fake::Bug::NoUnderpromotion).to_string(),
        ];
        assert_eq!(words[..6], expected, "{}", report.stdout);
    }
    let last = play(fen, &report.path[..4]);
    assert_eq!(report.fen, last.to_fen());
    assert!(["b7b8n", "b7b8b", "b7b8r"].contains(&report.path[4].as_str()));
    for mv in ["b7b8n", "b7b8b", "b7b8r"] {
        assert!(
            report
                .stdout
                .contains(&format!("  {mv}: escaque 1, missing in FakeEngine\n")),
            "{}",
            report.stdout
        );
    }
    assert!(!report.stdout.contains("b7b8q:"), "{}", report.stdout);
}

fn finds_a_dropped_en_passant() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (out, _) = perft(&["3", fen, "--against", &fake_command("no-ep")]);
    let report = read_report(&out);
    let (last, before) = report.path.split_last().unwrap();
    let board = play(fen, before);
    assert_eq!(report.fen, board.to_fen());
    let mv = board.parse_uci_move(last, false).unwrap();
    assert!(mv.is_en_passant(), "{}", report.stdout);
    assert!(
        report.stdout.contains(&format!("  {last}: escaque ")),
        "{}",
        report.stdout
    );
    assert!(report.stdout.contains(", missing in FakeEngine"));
}

fn agrees_with_escaque_itself() {
    let escaque = format!("'{}'", env!("CARGO_BIN_EXE_escaque"));
    for (depth, fen, nodes) in [
        (
            "4",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            197281,
        ),
        // Chess960: the other engine is put in UCI_Chess960 mode and writes castling as
        // king-takes-rook.
        (
            "3",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            12189,
        ),
    ] {
        let (out, _) = perft(&[depth, fen, "--against", &escaque, "--threads", "1"]);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
        assert!(
            stdout.starts_with(&format!("perft {depth} agrees: escaque {nodes} ("))
                && stdout.contains(&format!(" {nodes} (")),
            "{stdout}"
        );
        assert_eq!(stdout.lines().count(), 1, "{stdout}");
    }
}

/// The error an `--against` run must end with: exit status 2 and `reason` on stderr.
fn assert_trouble(out: &Output, reason: &str) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}{}", text(&out.stdout));
    assert!(
        stderr.starts_with("error: ") && stderr.contains(reason),
        "expected '{reason}' in:\n{stderr}"
    );
}

fn an_engine_without_go_perft_is_an_error_in_time() {
    let (out, took) = perft(&[
        "3",
        "--against",
        &fake_command("ignore-perft"),
        "--timeout",
        "2",
    ]);
    assert_trouble(&out, "did not send the answer to 'go perft 1'");
    assert!(text(&out.stderr).contains("within 2.0 s"));
    // Two seconds of timeout, plus starting the processes on a loaded machine.
    assert!(took < Duration::from_secs(20), "{took:?}");

    let (out, took) = perft(&["3", "--against", &fake_command("unknown")]);
    assert_trouble(
        &out,
        "FakeEngine does not support 'go perft 1': it answered 'Unknown command",
    );
    assert!(took < Duration::from_secs(8), "{took:?}");
}

fn an_engine_that_cannot_start_or_answer_is_an_error() {
    let (out, _) = perft(&["3", "--against", "/nonexistent/engine --uci"]);
    assert_trouble(&out, "cannot start '/nonexistent/engine --uci'");
    let (out, _) = perft(&["3", "--against", "sh -c 'exit 3'"]);
    // It is gone before it reads `uci` or before it answers, as the processes race.
    assert_trouble(&out, "(it exited: exit status: 3)");
    let (out, took) = perft(&["3", "--against", &fake_command("silent"), "--timeout", "1"]);
    assert_trouble(&out, "did not send uciok after uci");
    assert!(took < Duration::from_secs(15), "{took:?}");
    // Command-line mistakes under --against are trouble too, not a mismatch.
    let (out, _) = perft(&["0", "--against", "stockfish"]);
    assert_trouble(&out, "--against needs a depth from 1 to 20");
    let (out, _) = perft(&["3", "--against", "'unterminated"]);
    assert_trouble(&out, "unterminated '");
    let (out, _) = perft(&["3", "--against", "x", "--timeout", "soon"]);
    assert_trouble(&out, "invalid value 'soon' for '--timeout <TIMEOUT>'");
}

fn unreadable_divides_are_an_error() {
    let (out, _) = perft(&["2", "--against", &fake_command("bad-sum")]);
    assert_trouble(&out, "its move lines sum to");
    let (out, _) = perft(&[
        "2",
        "--against",
        &fake_command("no-total"),
        "--timeout",
        "1",
    ]);
    assert_trouble(&out, "it printed: perft 1 = 20");
}

/// A UCI engine just good enough for `perft --against`: `uci`, `isready`, `setoption name
/// UCI_Chess960`, `position` and `go perft`, the last with the bug or misbehaviour of its mode.
mod fake {
    use super::*;

    #[derive(Clone, Copy, PartialEq, Eq)]
    pub enum Bug {
        None,
        /// Knight, bishop and rook promotions are not generated.
        NoUnderpromotion,
        /// En-passant captures are not generated.
        NoEnPassant,
    }

    fn moves(board: &Board, bug: Bug) -> Vec<Move> {
        board
            .legal_moves()
            .iter()
            .copied()
            .filter(|mv| match bug {
                Bug::None => true,
                Bug::NoUnderpromotion => mv.promotion().is_none_or(|p| p == PieceType::Queen),
                Bug::NoEnPassant => !mv.is_en_passant(),
            })
            .collect()
    }

    pub fn perft(board: &Board, depth: u32, bug: Bug) -> u64 {
        match depth {
            0 => 1,
            1 => moves(board, bug).len() as u64,
            _ => moves(board, bug)
                .iter()
                .map(|&mv| perft(&board.make_move(mv), depth - 1, bug))
                .sum(),
        }
    }

    pub fn run(mode: &str) {
        let bug = match mode {
            "no-underpromotion" => Bug::NoUnderpromotion,
            "no-ep" => Bug::NoEnPassant,
            _ => Bug::None,
        };
        let mut board = Board::startpos();
        let mut chess960 = false;
        for line in std::io::stdin().lines() {
            let Ok(line) = line else { return };
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[..] {
                ["uci"] if mode == "silent" => {}
                ["uci"] => println!(
                    "id name FakeEngine\noption name UCI_Chess960 type check default false\nuciok"
                ),
                ["isready"] => println!("readyok"),
                ["setoption", "name", "UCI_Chess960", "value", on] => chess960 = on == "true",
                ["position", ref rest @ ..] => {
                    let split = rest.iter().position(|&w| w == "moves");
                    let (setup, played) = rest.split_at(split.unwrap_or(rest.len()));
                    board = match setup {
                        ["fen", fen @ ..] => Board::from_fen(&fen.join(" ")).unwrap(),
                        _ => Board::startpos(),
                    };
                    for text in played.iter().skip(1) {
                        board = board.make_move(board.parse_uci_move(text, chess960).unwrap());
                    }
                }
                ["go", "perft", depth] => {
                    let depth: u32 = depth.parse().unwrap();
                    match mode {
                        "ignore-perft" => continue,
                        "unknown" => {
                            println!("Unknown command: '{line}'. Type help for more information.");
                            continue;
                        }
                        "no-total" => {
                            println!("perft {depth} = {}", perft(&board, depth, bug));
                            continue;
                        }
                        _ => {}
                    }
                    let mut total = 0;
                    for mv in moves(&board, bug) {
                        let n = perft(&board.make_move(mv), depth - 1, bug);
                        total += n;
                        println!("{}: {n}", board.move_to_uci(mv, chess960));
                    }
                    if mode == "bad-sum" {
                        total += 1;
                    }
                    println!("\nNodes searched: {total}\n");
                }
                ["quit"] => return,
                _ => {}
            }
        }
    }
}
