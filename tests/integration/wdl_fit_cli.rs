//! `escaque data wdl-fit`, run as a user would: on a data file drawn from a known model it
//! finds that model again and writes the committed form and the plot data.

use std::process::Command;

use escaque::board::Board;
use escaque::random::splitmix64;
use escaque::tools::data::{GameResult, PackedPosition};
use escaque::wdl::{material, WinRateModel};

fn escaque(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_escaque"))
        .args(args)
        .output()
        .expect("binary runs")
}

/// Positions of five materials (16 to 78), scores from −600 to 600, results drawn from `truth`.
fn synthetic_file(truth: &WinRateModel, path: &std::path::Path) {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
        "r2qk3/pppppppp/8/8/8/8/PPPPPPPP/R2QK3 w - - 0 1",
        "r3k3/pppppppp/8/8/8/8/PPPPPPPP/R3K3 w - - 0 1",
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    ];
    let mut rng = 11u64;
    let mut bytes = Vec::new();
    for fen in fens {
        let board = Board::from_fen(fen).unwrap();
        for _ in 0..60_000 {
            let score = (splitmix64(&mut rng) % 1201) as i32 - 600;
            let win = truth.win_probability(f64::from(score), material(&board));
            let loss = truth.win_probability(-f64::from(score), material(&board));
            let r = (splitmix64(&mut rng) >> 11) as f64 / (1u64 << 53) as f64;
            let result = if r < win {
                GameResult::WhiteWin
            } else if r < win + loss {
                GameResult::BlackWin
            } else {
                GameResult::Draw
            };
            let record = PackedPosition::pack(&board, score as i16, result).unwrap();
            bytes.extend_from_slice(&record.bytes);
        }
    }
    std::fs::write(path, bytes).unwrap();
}

fn coefficients(csv: &str, name: &str) -> [f64; 4] {
    let line = csv
        .lines()
        .find_map(|l| l.strip_prefix(&format!("# {name} = ")))
        .expect("parameters in the CSV");
    let values: Vec<f64> = line.split(',').map(|v| v.parse().unwrap()).collect();
    values.try_into().unwrap()
}

#[test]
fn wdl_fit_recovers_the_model_and_writes_its_outputs() {
    let dir = std::env::temp_dir().join(format!("escaque-wdl-fit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("synthetic.bin");
    let truth = WinRateModel {
        a: [-80.0, 200.0, -100.0, 120.0],
        b: [20.0, -40.0, 50.0, 40.0],
    };
    synthetic_file(&truth, &data);
    let (rust, csv) = (dir.join("fitted.rs"), dir.join("fit.csv"));
    let out = escaque(&[
        "data",
        "wdl-fit",
        data.to_str().unwrap(),
        "--rust",
        rust.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("300000 positions;"), "{stdout}");
    assert!(stdout.contains("White's score   positions"), "{stdout}");

    let csv = std::fs::read_to_string(&csv).unwrap();
    let fitted = WinRateModel {
        a: coefficients(&csv, "a"),
        b: coefficients(&csv, "b"),
    };
    for m in [17, 26, 44, 60, 78] {
        let ((a, b), (fa, fb)) = (truth.params(m), fitted.params(m));
        assert!((fa - a).abs() < 0.05 * a, "a({m}) {fa} vs {a}");
        assert!((fb - b).abs() < 0.08 * b, "b({m}) {fb} vs {b}");
    }
    assert!(csv.lines().any(|l| l.starts_with("material_low,")), "{csv}");
    // The committed form names the built-in network by its checksum.
    let rust = std::fs::read_to_string(&rust).unwrap();
    let checksum = escaque::nnue::Network::default_network().checksum;
    assert!(
        rust.contains(&format!(
            "pub const NETWORK_CHECKSUM: u64 = 0x{checksum:016x};"
        )),
        "{rust}"
    );
    assert!(rust.contains("synthetic.bin: 300000 positions"), "{rust}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn wdl_fit_refuses_bad_input_with_a_message() {
    for args in [
        &["data", "wdl-fit"][..],
        &["data", "wdl-fit", "a.bin", "--max-score", "big"],
        &["data", "wdl-fit", "a.bin", "--max-score", "0"],
        &["data", "wdl-fit", "a.bin", "--seed", "1"],
        &["data", "wdl-fit", "a.bin", "--rust"],
    ] {
        // Arguments that do not parse: usage errors, exit status 2 (as every tool's).
        let out = escaque(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).starts_with("error: "),
            "{args:?}"
        );
    }
    for args in [
        &["data", "wdl-fit", "/nonexistent.bin"][..],
        &["data", "wdl-fit", "a.bin", "--network", "/nonexistent.nnue"],
    ] {
        // Work that cannot be done: exit status 1.
        let out = escaque(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).starts_with("error: "),
            "{args:?}"
        );
    }
}
