//! UCI protocol tests against the built binary, as a GUI would drive it: handshake, option and
//! position handling, Stockfish-style conveniences, Chess960 castling, and every kind of bad
//! input (each gets one `info string error:` line and changes nothing).

use std::time::Duration;

use crate::uci_common::{best_of, binary, EngineProc, QUICK};

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn well_formed(line: &str) {
    assert!(!line.is_empty(), "empty line");
    assert!(
        !line.starts_with(' ') && !line.ends_with(' '),
        "stray space: {line:?}"
    );
    assert!(!line.contains("  "), "double space: {line:?}");
    assert!(
        !line.contains('\r') && !line.contains('\t'),
        "control char: {line:?}"
    );
}

#[test]
fn silent_until_uci_then_full_handshake() {
    let mut e = EngineProc::start();
    assert!(
        e.collect_for(Duration::from_millis(300)).is_empty(),
        "printed before uci"
    );
    let lines = e.handshake();
    assert!(lines[0].starts_with("id name escaque"), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    for line in &lines {
        well_formed(line);
        assert!(
            line.starts_with("id ") || line.starts_with("option name "),
            "{line}"
        );
    }
    for expected in [
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 1024",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Move Overhead type spin default 10 min 0 max 5000",
        "option name Clear Hash type button",
        "option name Ponder type check default false",
        "option name UCI_Chess960 type check default false",
        "option name UCI_ShowWDL type check default false",
    ] {
        assert!(lines.iter().any(|l| l == expected), "missing {expected}");
    }
    assert!(e.sync().is_empty());
    // A stray xboard probe (Arena "Auto") and an idle stop are ignored silently.
    e.send("xboard");
    e.send("stop");
    e.send("ponderhit");
    assert!(e.sync().is_empty());
}

#[test]
fn messy_whitespace_and_line_endings() {
    let mut e = EngineProc::start();
    e.send_bytes(b"  uci \r\n");
    e.until(QUICK, |l| l == "uciok");
    e.send_bytes(b"\tposition\t startpos   moves  e2e4 \t e7e5\r\n");
    e.send_bytes(b"joho debug on\r\n");
    e.send_bytes(b"debug off\nregister later\nregister name x code y\n# comment\n\n");
    assert!(e.sync().is_empty(), "{:?}", e.log);
    assert_eq!(
        e.fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
}

#[test]
fn eof_acts_as_quit() {
    let mut e = EngineProc::start();
    e.handshake();
    e.close_stdin();
    let status = e.wait_exit(Duration::from_secs(5)).expect("exits on EOF");
    assert!(status.success());
}

#[test]
fn quit_during_search_is_fast() {
    let mut e = EngineProc::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let t = std::time::Instant::now();
    e.send("quit");
    e.wait_exit(Duration::from_secs(5)).expect("exits on quit");
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "quit took {:?}",
        t.elapsed()
    );
}

#[test]
fn position_variants() {
    let mut e = EngineProc::start();
    e.send("position startpos moves");
    assert_eq!(e.fen(), START_FEN);
    // Four-field FEN, an en-passant square with no capture possible, uppercase promotion.
    e.send("position fen 4k3/1P6/8/8/8/8/8/4K3 w - -");
    assert_eq!(e.fen(), "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    e.send("position fen 4k3/1P6/8/8/8/8/8/4K3 w - - 0 1 moves b7b8Q");
    assert_eq!(e.fen(), "1Q2k3/8/8/8/8/8/8/4K3 b - - 0 1");
    e.send("position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert!(e.sync().is_empty(), "{:?}", e.log);
    // A long game replays quickly.
    let shuffle = "g1f3 g8f6 f3g1 f6g8 ".repeat(60);
    e.send(&format!("position startpos moves {shuffle}"));
    assert!(e.sync().is_empty(), "{:?}", e.log);
    assert_eq!(
        e.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 240 121"
    );
}

#[test]
fn d_perft_and_eval() {
    let mut e = EngineProc::start();
    e.send("position fen 4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    e.send("d");
    let lines = e.until_prefix(QUICK, "Checkers:");
    assert!(lines.iter().any(|l| l.starts_with(" +---+")));
    assert!(lines
        .iter()
        .any(|l| l == "   a   b   c   d   e   f   g   h"));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Key: ") && l.len() == 21));
    assert_eq!(lines.last().map(String::as_str), Some("Checkers: e2"));
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.until_prefix(QUICK, "Nodes searched:");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 8902")
    );
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 21);
    assert_eq!(e.recv(QUICK).as_deref(), Some(""));
    e.send("go perft 0");
    let lines = e.until_prefix(QUICK, "Nodes searched:");
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 1"));
    e.recv(QUICK);
    e.send("eval");
    let lines = e.sync();
    assert!(!lines.is_empty(), "eval printed nothing");
    assert!(lines.iter().all(|l| !l.starts_with("bestmove")));
}

/// The move counters saturate: the FEN `d` prints after fullmove 65535 is one the engine accepts.
#[test]
fn saturated_move_counters_print_a_valid_fen() {
    let mut e = EngineProc::start();
    e.send("position fen 4k3/8/8/8/8/8/8/4K3 b - - 65535 65535 moves e8d8");
    assert_eq!(e.fen(), "3k4/8/8/8/8/8/8/4K3 w - - 65535 65535");
    e.send("position fen 3k4/8/8/8/8/8/8/4K3 w - - 65535 65535 moves e1e2");
    assert_eq!(e.fen(), "3k4/8/8/8/8/8/4K3/8 b - - 65535 65535");
}

#[test]
fn command_line_arguments_run_as_commands() {
    let out = std::process::Command::new(binary())
        .arg("go perft 2")
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("\nNodes searched: 400\n"), "{text}");
    let out = std::process::Command::new(binary())
        .args(["position startpos moves e2e4", "go depth 2"])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l.starts_with("bestmove ")),
        "{text}"
    );
    let out = std::process::Command::new(binary())
        .args(["go", "perft", "1"])
        .output()
        .expect("run");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Nodes searched: 20"));
    // The perft CLI is unchanged.
    let out = std::process::Command::new(binary())
        .args(["perft", "2"])
        .output()
        .expect("run");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Nodes searched: 400"));
}

/// Sends `bad`, expects exactly one `info string error:` line, and checks the position and the
/// engine are as before.
fn rejected(e: &mut EngineProc, bad: &[u8], fen: &str) {
    e.send_bytes(bad);
    e.send_bytes(b"\n");
    let lines = e.sync();
    assert_eq!(
        lines.len(),
        1,
        "{:?} gave {lines:?}",
        String::from_utf8_lossy(bad)
    );
    assert!(lines[0].starts_with("info string error: "), "{lines:?}");
    assert!(lines[0].len() < 400, "error line too long");
    well_formed(&lines[0]);
    assert_eq!(
        e.fen(),
        fen,
        "{:?} changed the position",
        String::from_utf8_lossy(bad)
    );
    assert!(e.alive());
}

#[test]
fn bad_input_changes_nothing() {
    let mut e = EngineProc::start();
    e.handshake();
    e.send("position startpos moves e2e4 e7e5");
    let fen = e.fen();
    let garbage: Vec<u8> = vec![0xff, 0xfe, 0x00, 0x80, b'z', 0xc3];
    let long_line = "x".repeat(100 * 1024);
    let cases: Vec<Vec<u8>> = vec![
        b"position fen 8/8/8/8 w - - 0 1".to_vec(),
        b"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0".to_vec(),
        b"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1".to_vec(),
        b"position fen 8/8/8/8/8/8/8/8 w - - 0 1".to_vec(),
        // Material no game can reach (these overflowed the move list and aborted the process).
        b"position fen QQQQQQrk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1".to_vec(),
        b"position fen kqqqqqqq/q6q/q6q/q6q/q3q3/q4Nqq/q4qnn/qqqq1qnK w - - 0 1".to_vec(),
        b"position fen".to_vec(),
        b"position".to_vec(),
        b"position somewhere".to_vec(),
        b"position startpos moves e2e4 e7e5 e1e3".to_vec(),
        b"position startpos moves e2e4 e7e5 g1f3 b8c6 e2e4".to_vec(),
        b"position startpos moves e2e4 zzzz".to_vec(),
        b"position startpos moves e2e4 e7e5 0000".to_vec(),
        b"position startpos e2e4".to_vec(),
        b"flibbertigibbet".to_vec(),
        garbage,
        long_line.into_bytes(),
        b"go wtime".to_vec(),
        b"go depth abc".to_vec(),
        b"go movetime 1.5".to_vec(),
        b"go nodes".to_vec(),
        b"go perft".to_vec(),
        b"go perft many".to_vec(),
        b"go sideways".to_vec(),
        b"go searchmoves a1a8".to_vec(),
        b"setoption name Hash value 0".to_vec(),
        b"setoption name Hash value 99999999".to_vec(),
        b"setoption name Threads value -1".to_vec(),
        b"setoption name MultiPV value lots".to_vec(),
        b"setoption name Move Overhead value 5001".to_vec(),
        b"setoption name UCI_Chess960 value perhaps".to_vec(),
        b"setoption name Ponder".to_vec(),
        b"setoption name NoSuchOption value 1".to_vec(),
        b"setoption value 3".to_vec(),
        b"debug sideways".to_vec(),
    ];
    for bad in &cases {
        rejected(&mut e, bad, &fen);
    }
    // No search was started by the bad `go` lines, and the engine still plays.
    assert!(e.log.iter().all(|l| !l.starts_with("bestmove")));
    e.send("go depth 1");
    let (_, best) = e.bestmove(QUICK);
    assert!(best.starts_with("bestmove "));
}

#[test]
fn bad_option_values_keep_the_old_ones() {
    let mut e = EngineProc::start();
    e.handshake();
    e.send("setoption name UCI_Chess960 value true");
    e.send("setoption name uci_chess960 value maybe");
    e.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(e.sync().len(), 1);
    // Still in 960 mode: castling is king-takes-rook.
    e.send("go depth 1 searchmoves e1h1");
    let (_, best) = e.bestmove(QUICK);
    assert_eq!(best_of(&best), "e1h1");
    // ucinewgame keeps the options.
    e.send("ucinewgame");
    e.sync();
    e.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    e.send("go depth 1 searchmoves e1h1");
    let (_, best) = e.bestmove(QUICK);
    assert_eq!(best_of(&best), "e1h1");
}

/// A Hash size within the option's range but beyond the machine's memory is refused with an
/// error instead of getting the process killed, and the engine keeps searching. Where 64 GB are
/// really free the UCI path cannot refuse; the rule itself is tested for any memory size by
/// `memory`'s unit test `tables_beyond_the_available_memory_are_refused`.
#[test]
fn hash_larger_than_memory_is_refused() {
    let available_mb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let line = m
                .lines()
                .find(|l| l.starts_with("MemAvailable:"))?
                .to_string();
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map(|kib| kib / 1024);
    if available_mb.is_none_or(|mb| mb >= 65536) {
        eprintln!(
            "skipped: this machine could really allocate 64 GB \
             (the unit test tables_beyond_the_available_memory_are_refused covers the rule)"
        );
        return;
    }
    let mut e = EngineProc::start();
    e.handshake();
    e.send("setoption name Hash value 65536");
    let lines = e.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string error: option 'Hash'"),
        "{lines:?}"
    );
    e.send("position startpos");
    e.send("go depth 3");
    let (_, best) = e.bestmove(QUICK);
    assert_ne!(best_of(&best), "(none)");
}

#[test]
fn options_any_order_and_case() {
    let mut e = EngineProc::start();
    e.handshake();
    for cmd in [
        "setoption name Threads value 2",
        "setoption name hash value 8",
        "setoption name MOVE OVERHEAD value 30",
        "setoption name Clear Hash",
        "setoption name Ponder value TRUE",
        "setoption name UCI_ShowWDL value true",
        "setoption name multipv value 1",
        "setoption name UCI_Chess960 value False",
    ] {
        e.send(cmd);
    }
    assert!(e.sync().is_empty(), "{:?}", e.log);
    e.send("ucinewgame");
    e.send("position startpos");
    e.send("go depth 3");
    let (lines, _) = e.bestmove(QUICK);
    let scored: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!scored.is_empty());
    for line in scored {
        let wdl: Vec<u32> = line
            .split(" wdl ")
            .nth(1)
            .expect("wdl shown")
            .split(' ')
            .take(3)
            .map(|t| t.parse().expect("wdl number"))
            .collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{line}");
    }
}

#[test]
fn chess960_castling_round_trip() {
    let mut e = EngineProc::start();
    e.handshake();
    e.send("setoption name UCI_Chess960 value true");
    // King on b1, rooks on a1 and h1 (Shredder-FEN rights): O-O-O is b1a1 (king moves one
    // square, to c1), O-O is b1h1 (king to g1).
    let fen = "1k6/8/8/8/8/8/8/RK5R w HA - 0 1";
    e.send(&format!("position fen {fen} moves b1a1"));
    assert_eq!(e.fen(), "1k6/8/8/8/8/8/8/2KR3R b - - 1 1");
    e.send(&format!("position fen {fen} moves b1h1"));
    assert_eq!(e.fen(), "1k6/8/8/8/8/8/8/R4RK1 b - - 1 1");
    // King already on its destination (g1), rook on h1: O-O is g1h1 and the king does not move.
    let fen = "6k1/8/8/8/8/8/8/R5KR w HA - 0 1";
    e.send(&format!("position fen {fen} moves g1h1"));
    assert_eq!(e.fen(), "6k1/8/8/8/8/8/8/R4RK1 b - - 1 1");
    // Rook on the king's destination square: king f1, rooks b1 and g1. O-O is f1g1 (the king
    // lands where the rook stood), O-O-O is f1b1 (king to c1, rook to d1).
    let fen = "5k2/8/8/8/8/8/8/1R3KR1 w GB - 0 1";
    e.send(&format!("position fen {fen} moves f1g1"));
    assert_eq!(e.fen(), "5k2/8/8/8/8/8/8/1R3RK1 b - - 1 1");
    e.send(&format!("position fen {fen} moves f1b1"));
    assert_eq!(e.fen(), "5k2/8/8/8/8/8/8/2KR2R1 b - - 1 1");
    // The engine writes castling as king-takes-rook.
    e.send(&format!("position fen {fen}"));
    e.send("go depth 1 searchmoves f1g1");
    let (_, best) = e.bestmove(QUICK);
    assert_eq!(best_of(&best), "f1g1");
    // Standard chess: e1g1 in and out, and Shredder-FEN accepted there too.
    e.send("setoption name UCI_Chess960 value false");
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1 moves e1g1");
    assert_eq!(e.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    e.send("go depth 1 searchmoves e1c1");
    let (_, best) = e.bestmove(QUICK);
    assert_eq!(best_of(&best), "e1c1");
    // A Chess960 position with the option off: castling by a king off the e-file is written
    // king-takes-rook, since b1c1 is the king's step (issue 13), and the texts read back.
    let fen = "r3k2r/8/8/8/8/8/8/RK5R w AHkq - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("go depth 1 searchmoves b1a1");
    let (lines, best) = e.bestmove(QUICK);
    assert_eq!(best_of(&best), "b1a1");
    assert!(lines.iter().any(|l| l.contains(" pv b1a1")), "{lines:?}");
    e.send(&format!("position fen {fen} moves b1a1"));
    assert_eq!(e.fen(), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
    e.send(&format!("position fen {fen} moves b1c1"));
    assert_eq!(e.fen(), "r3k2r/8/8/8/8/8/8/R1K4R b kq - 1 1");
}

#[test]
fn no_legal_moves_gives_bestmove_none() {
    let mut e = EngineProc::start();
    // Checkmated.
    e.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go depth 5");
    let (lines, best) = e.bestmove(QUICK);
    assert_eq!(best, "bestmove (none)");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info depth 0") && l.contains("score mate 0")));
    // Stalemate.
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go wtime 1000 btime 1000");
    let (lines, best) = e.bestmove(QUICK);
    assert_eq!(best, "bestmove (none)");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info depth 0") && l.contains("score cp 0")));
    assert!(e.collect_for(Duration::from_millis(200)).is_empty());
}

#[test]
fn bench_from_the_command_line() {
    // A shallow bench keeps the test quick; `escaque bench` (default depth) is the same code.
    let out = std::process::Command::new(binary())
        .args(["bench", "2"])
        .output()
        .expect("run bench");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default();
    assert!(last.contains(" nodes ") && last.ends_with(" nps"), "{text}");
}
