//! Perft node counts: the six classic positions and samples of the EPD suites under plain
//! `cargo test`; the whole shared suites (128 standard + 960 Chess960 positions, ../shared) are
//! ignored by default and run by `.ci/run` (`cargo test --release --test integration -- --ignored
//! perft::`).

use std::path::PathBuf;

use escaque::board::Board;
use escaque::perft::{
    divide, divide_hashed, divide_until, perft, perft_hashed, PerftError, PerftTable,
};

fn check(fen: &str, expected: &[u64]) {
    let board = Board::from_fen(fen).unwrap();
    for (i, &nodes) in expected.iter().enumerate() {
        assert_eq!(perft(&board, i as u32 + 1), nodes, "{fen} depth {}", i + 1);
    }
}

#[test]
fn start_position() {
    check(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &[20, 400, 8_902, 197_281, 4_865_609, 119_060_324],
    );
}

#[test]
fn kiwipete() {
    check(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[48, 2_039, 97_862, 4_085_603, 193_690_690],
    );
}

#[test]
fn position_3() {
    check(
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        &[14, 191, 2_812, 43_238, 674_624, 11_030_083],
    );
}

#[test]
fn position_4_and_mirror() {
    let counts = [6, 264, 9_467, 422_333, 15_833_292];
    check(
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        &counts,
    );
    check(
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        &counts,
    );
}

#[test]
fn position_5() {
    check(
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        &[44, 1_486, 62_379, 2_103_487, 89_941_194],
    );
}

#[test]
fn position_6() {
    check(
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[46, 2_079, 89_890, 3_894_594, 164_075_551],
    );
}

#[test]
fn parallel_divide_matches_serial() {
    let board =
        Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let serial = divide(&board, 4, 1);
    let parallel = divide(&board, 4, 2);
    assert_eq!(serial, parallel);
    assert_eq!(serial.iter().map(|(_, n)| n).sum::<u64>(), 4_085_603);
}

#[test]
fn hashed_perft_matches_plain_counts() {
    let start = Board::startpos();
    let kiwipete =
        Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    // A tiny table forces many replacements; a shared one across threads exercises the races.
    let table = PerftTable::new(1);
    assert_eq!(perft_hashed(&start, 6, &table), 119_060_324);
    assert_eq!(perft_hashed(&kiwipete, 5, &table), 193_690_690);
    let parallel = divide_hashed(&kiwipete, 5, 2, 16).unwrap();
    assert_eq!(parallel, divide(&kiwipete, 5, 1));
}

/// Perft with every (position, depth) count memoised in a map: a slow reference for deep perfts
/// of tiny positions, where nearly every node is a transposition.
fn memoised_perft(
    board: &Board,
    depth: u32,
    memo: &mut std::collections::HashMap<(u64, u32), u64>,
) -> u64 {
    if depth <= 1 {
        return perft(board, depth);
    }
    if let Some(&count) = memo.get(&(board.hash(), depth)) {
        return count;
    }
    let count = board
        .legal_moves()
        .iter()
        .map(|&mv| memoised_perft(&board.make_move(mv), depth - 1, memo))
        .sum();
    memo.insert((board.hash(), depth), count);
    count
}

/// Deep perfts of tiny positions finish (K v K `perft 16` once ran for hours: each position's
/// counts at different depths evicted one another) and agree with the memoised reference, with
/// a table far too small for them and with the default one.
#[test]
fn deep_perft_of_tiny_positions() {
    for (fen, depth) in [
        ("8/8/8/3k4/8/8/3K4/8 w - - 0 1", 16),
        ("8/8/8/3k4/8/8/3K4/7R w - - 0 1", 9),
    ] {
        let board = Board::from_fen(fen).unwrap();
        let expected = memoised_perft(&board, depth, &mut Default::default());
        for (threads, hash_mb) in [(1, 1), (2, 64)] {
            let counts = divide_hashed(&board, depth, threads, hash_mb).unwrap();
            let total: u64 = counts.iter().map(|(_, n)| n).sum();
            assert_eq!(total, expected, "{fen} depth {depth}, {hash_mb} MB");
        }
    }
}

/// (fen, [(depth, nodes)]) for each line of an Ethereal-style EPD (`<fen> ;D1 20 ;D2 400 ...`).
/// One EPD line: the FEN and its (depth, nodes) pairs.
type SuiteEntry = (String, Vec<(u32, u64)>);

fn parse_suite(text: &str) -> Vec<SuiteEntry> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut it = p.trim().trim_start_matches('D').split_whitespace();
                    (
                        it.next().unwrap().parse().unwrap(),
                        it.next().unwrap().parse().unwrap(),
                    )
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

/// A suite from ../shared/data/perft; a test that asks for one fails without it.
fn load_shared_suite(name: &str) -> Vec<SuiteEntry> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/perft")
        .join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => parse_suite(&text),
        Err(e) => panic!("{}: {e} (this test needs ../shared)", path.display()),
    }
}

fn check_suite(suite: &[SuiteEntry], max_depth: u32) -> usize {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut checked = 0;
    for (fen, counts) in suite {
        let board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for &(depth, nodes) in counts.iter().filter(|(d, _)| *d <= max_depth) {
            let got: u64 = divide(&board, depth, threads).iter().map(|(_, n)| n).sum();
            assert_eq!(got, nodes, "{fen} depth {depth}");
            checked += 1;
        }
    }
    checked
}

fn run_suite(name: &str, max_depth: u32, expected_positions: usize) {
    let suite = load_shared_suite(name);
    assert_eq!(suite.len(), expected_positions);
    // At least one count a position: a depth filter or format change that matched nothing fails.
    let checked = check_suite(&suite, max_depth);
    assert!(
        checked >= expected_positions,
        "{name}: only {checked} counts"
    );
}

/// Every eighth line of the standard suite and every sixtieth of the Chess960 one, kept in
/// tests/data so that a fresh clone without ../shared checks castling, en passant and
/// promotion counts too (node counts are facts; the lines are Ethereal's).
#[test]
fn sample_suites_in_the_repository() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for (name, max_depth) in [
        ("perft-standard-sample.epd", 4),
        ("perft-fischer-sample.epd", 4),
    ] {
        let text = std::fs::read_to_string(dir.join(name)).expect("a file of the repository");
        let suite = parse_suite(&text);
        assert_eq!(suite.len(), 16, "{name}");
        let checked = check_suite(&suite, max_depth);
        assert_eq!(
            checked,
            16 * max_depth as usize,
            "{name}: every line to depth {max_depth}"
        );
    }
}

#[test]
#[ignore = "needs ../shared/data/perft; .ci/run runs it"]
fn standard_suite_shallow() {
    run_suite("standard.epd", 4, 128);
}

#[test]
#[ignore = "needs ../shared/data/perft; .ci/run runs it"]
fn chess960_suite_shallow() {
    run_suite("fischer.epd", 3, 960);
}

/// The whole standard suite to depth 6 (about 4.4 billion nodes).
#[test]
#[ignore = "needs ../shared/data/perft and minutes; .ci/run runs it"]
fn standard_suite_full() {
    run_suite("standard.epd", 6, 128);
}

/// The Chess960 suite to depth 5 (about 17 billion nodes).
#[test]
#[ignore = "needs ../shared/data/perft and minutes; .ci/run runs it"]
fn chess960_suite_deep() {
    run_suite("fischer.epd", 5, 960);
}

/// The perft command line refuses what it cannot count with a message and exit status 2 (bad
/// arguments, as clap's) instead of aborting.
#[test]
fn perft_cli_refuses_bad_input() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_escaque"))
            .args(args)
            .output()
            .expect("binary runs")
    };
    for (args, reason) in [
        (
            &[
                "perft",
                "3",
                "QQQQQQrk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
            ][..],
            "white has 27 pieces",
        ),
        (
            &[
                "perft",
                "3",
                "kqqqqqqq/q6q/q6q/q6q/q3q3/q4Nqq/q4qnn/qqqq1qnK w - - 0 1",
            ],
            "black has 29 pieces",
        ),
        // Digits only.
        (&["perft", "+3"], "invalid value '+3' for '<DEPTH>'"),
        (&["perft", "21"], "invalid value '21' for '<DEPTH>'"),
        (&["perft", "--help3"], "unexpected argument '--help3'"),
        (&["perft", "4", "--frobnicate"], "unexpected argument"),
        (
            &["perft", "3", "--threads", "+2"],
            "invalid value '+2' for '--threads <THREADS>'",
        ),
        (
            &["perft", "3", "--threads", "0"],
            "expected a whole number from 1 to 1024",
        ),
        (
            &["perft", "3", "--hash", "99999999"],
            "expected a whole number from 0 to 65536",
        ),
    ] {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains(reason),
            "{args:?}: {stderr}"
        );
    }
}

/// A perft table the machine cannot hold is an error with exit status 1, not an abort
/// ("memory allocation failed"): 4 GB under a 1 GB address-space limit, for a perft deep enough
/// to want all of it (the table is no larger than the depth needs).
#[test]
fn perft_cli_hash_too_large_for_memory() {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 1000000 && exec '{}' perft 9 --hash 4096 --threads 1",
            env!("CARGO_BIN_EXE_escaque")
        ))
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with("error: perft hash table: "), "{stderr}");
    // The same limit leaves room for the default table.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 1000000 && exec '{}' perft 3 --threads 1",
            env!("CARGO_BIN_EXE_escaque")
        ))
        .output()
        .expect("sh runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Nodes searched: 8902"));
}

/// A stop flag set before or during a divide ends it with `Stopped`, with or without a table.
#[test]
fn divide_until_stops() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let board = Board::startpos();
    let stop = AtomicBool::new(true);
    for hash in [0, 1] {
        for threads in [1, 2] {
            assert_eq!(
                divide_until(&board, 6, threads, hash, &stop),
                Err(PerftError::Stopped)
            );
        }
    }
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(50));
            stop.store(true, Ordering::Relaxed);
        });
        let start = std::time::Instant::now();
        // Depth 9 from the start position takes hours; the stop must end it quickly.
        assert_eq!(
            divide_until(&board, 9, 2, 0, &stop),
            Err(PerftError::Stopped)
        );
        assert!(start.elapsed() < std::time::Duration::from_secs(10));
    });
    let not_stopped = AtomicBool::new(false);
    let counts = divide_until(&board, 5, 2, 1, &not_stopped).unwrap();
    assert_eq!(counts.iter().map(|(_, n)| n).sum::<u64>(), 4_865_609);
}
