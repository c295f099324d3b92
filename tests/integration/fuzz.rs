//! The fuzz harness (`escaque::tools::fuzz`, also `escaque fuzz` for long campaigns) at CI size,
//! with fixed seeds, and issue 13's crash inputs as regression tests of the UCI controller.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use escaque::tools::fuzz::{self, Config, Target};
use escaque::uci::output::test_support::Captured;
use escaque::uci::{Output, Uci};

/// The tests run one at a time: the machine may have two cores, and the harness counts panics
/// process-wide (a failing test beside a campaign would be counted against it).
static SERIAL: Mutex<()> = Mutex::new(());

fn campaign(target: Target, seed: u64, cases: u64) -> fuzz::Summary {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let summary = fuzz::run(target, &Config::new(seed, cases));
    let failures: Vec<String> = summary.failures.iter().map(|f| f.to_string()).collect();
    assert!(summary.passed(), "{summary}\n{}", failures.join("\n\n"));
    eprintln!("{summary}");
    summary
}

#[test]
fn fen_parser_fuzz() {
    let summary = campaign(Target::Fen, 13, 40_000);
    assert_eq!(summary.inputs, 40_000);
    // Enough accepted boards for the checks on them to mean something.
    assert!(summary.accepted > 4_000, "{summary}");
}

#[test]
fn uci_fuzz() {
    let summary = campaign(Target::Uci, 13, 150);
    assert_eq!(summary.cases, 150);
    assert!(summary.inputs > 1_500, "{summary}");
    assert!(summary.accepted > summary.inputs / 4, "{summary}");
}

fn controller() -> (Uci, Captured) {
    let cap = Captured::default();
    (Uci::new(Output::new(Box::new(cap.clone()))), cap)
}

fn run(uci: &mut Uci, line: &str) {
    uci.execute(line, Instant::now());
}

/// Issue 13's inputs are in the fuzzers' corpora (so every campaign starts from them).
#[test]
fn issue_13_inputs_are_in_the_corpora() {
    for fen in [
        "QQQQQQrk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
        "kqqqqqqq/q6q/q6q/q6q/q3q3/q4Nqq/q4qnn/qqqq1qnK w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 b - - 65535 65535",
        "r3k2r/8/8/8/8/8/8/RK5R w AHkq - 0 1",
    ] {
        assert!(fuzz::fen::CORPUS.contains(&fen), "{fen}");
    }
    for line in [
        "position fen QQQQQQrk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
        "position fen kqqqqqqq/q6q/q6q/q6q/q3q3/q4Nqq/q4qnn/qqqq1qnK w - - 0 1",
        "go perft 3",
        "position fen 4k3/8/8/8/8/8/8/4K3 b - - 65535 65535 moves e8d8",
        "go wtime 7378697629483820658 movestogo 1",
        "go perft +3",
        "position fen r3k2r/8/8/8/8/8/8/RK5R w AHkq - 0 1 moves b1a1",
    ] {
        assert!(fuzz::uci::CORPUS.contains(&line), "{line}");
    }
}

/// Issue 13's crashes, in-process: each input now gets the fixed behaviour. (The same inputs
/// over pipes and on the command line are in uci_protocol.rs, rules.rs, perft.rs and the time
/// manager's unit tests.)
#[test]
fn issue_13_inputs_get_the_fixed_behaviour() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (mut uci, cap) = controller();
    // More than 256 legal moves: refused with one error line; the position stays, and
    // `go perft 3` counts the start position.
    for fen in [
        "QQQQQQrk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
        "kqqqqqqq/q6q/q6q/q6q/q3q3/q4Nqq/q4qnn/qqqq1qnK w - - 0 1",
    ] {
        run(&mut uci, &format!("position fen {fen}"));
        let text = cap.take();
        assert!(
            text.starts_with("info string error: invalid FEN") && text.lines().count() == 1,
            "{text}"
        );
        assert_eq!(uci.board().to_fen(), escaque::board::START_FEN);
        run(&mut uci, "go perft 3");
        uci.wait();
        assert!(cap.take().ends_with("\nNodes searched: 8902\n\n"));
    }
    // Saturated counters print a FEN that reads back.
    run(
        &mut uci,
        "position fen 4k3/8/8/8/8/8/8/4K3 b - - 65535 65535 moves e8d8",
    );
    assert_eq!(
        uci.board().to_fen(),
        "3k4/8/8/8/8/8/8/4K3 w - - 65535 65535"
    );
    // A huge clock with one move to go: the search thinks (it used to move at once) until
    // stopped, then plays a legal move. (From the start position: a bare-kings search may
    // reach its maximum depth and end on its own.)
    run(&mut uci, "position startpos");
    run(&mut uci, "go wtime 7378697629483820658 movestogo 1");
    std::thread::sleep(Duration::from_millis(100));
    assert!(!cap.take().contains("bestmove"));
    run(&mut uci, "stop");
    uci.wait();
    let text = cap.take();
    let best = text.lines().find(|l| l.starts_with("bestmove")).unwrap();
    let board = escaque::board::Board::startpos();
    let mv = best.split(' ').nth(1).unwrap();
    assert!(board.parse_uci_move(mv, false).is_ok(), "{best}");
    // A signed perft depth is refused.
    run(&mut uci, "go perft +3");
    let text = cap.take();
    assert!(
        text.starts_with("info string error: go perft: invalid depth '+3'"),
        "{text}"
    );
    // Chess960 castling with the option off: king-takes-rook reads and writes.
    let fen = "r3k2r/8/8/8/8/8/8/RK5R w AHkq - 0 1";
    run(&mut uci, &format!("position fen {fen} moves b1a1"));
    assert_eq!(uci.board().to_fen(), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
    run(&mut uci, &format!("position fen {fen}"));
    run(&mut uci, "go depth 1 searchmoves b1a1");
    uci.wait();
    let text = cap.take();
    assert!(text.contains("\nbestmove b1a1"), "{text}");
    uci.shutdown();
}
