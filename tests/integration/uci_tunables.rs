//! The search's tunables (`src/search/params.rs`): hidden UCI options that change the search
//! when set, refuse bad values, are not listed after `uci`, and are printed for SPSA by
//! `escaque tunables`. Each test drives its own engine process (the values are process-wide).

use std::process::{Command, Stdio};

use escaque::search::params::TUNABLES;

use crate::uci_common::{binary, last_score, EngineProc, QUICK};

/// A middlegame with captures and quiet moves: every pruning rule has work to do.
const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8";

/// Runs the `setoption` lines, then a fixed-depth search of [`MIDDLEGAME`]; returns the nodes
/// of the last `info` line with a score and everything the engine said before the search.
fn nodes_to_depth(setoptions: &[&str], depth: u32) -> (u64, Vec<String>) {
    let mut e = EngineProc::start();
    e.handshake();
    for line in setoptions {
        e.send(line);
    }
    let said = e.sync();
    e.send(&format!("position fen {MIDDLEGAME}"));
    e.send(&format!("go depth {depth}"));
    let (lines, _) = e.bestmove(QUICK * 3);
    let nodes = last_score(&lines)
        .and_then(|l| l.split(" nodes ").nth(1))
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("nodes in the last info line");
    (nodes, said)
}

#[test]
fn a_tunable_set_changes_the_search() {
    let (default, said) = nodes_to_depth(&[], 9);
    assert!(said.is_empty(), "{said:?}");
    // The same default, set explicitly, searches the same tree.
    let (same, said) = nodes_to_depth(&["setoption name RfpMargin value 75"], 9);
    assert!(said.is_empty(), "{said:?}");
    assert_eq!(same, default);
    // Names are case-insensitive, as the options' are; each of these changes the tree.
    for line in [
        "setoption name rfpmargin value 20",
        "setoption name LmrDivisor value 120",
        "setoption name FpBase value 0",
    ] {
        let (changed, said) = nodes_to_depth(&[line], 9);
        assert!(said.is_empty(), "{line}: {said:?}");
        assert_ne!(changed, default, "{line} left the search as it was");
    }
}

#[test]
fn bad_values_are_refused_and_change_nothing() {
    let (default, _) = nodes_to_depth(&[], 8);
    let bad = [
        "setoption name RfpMargin value 19",
        "setoption name RfpMargin value 201",
        "setoption name RfpMargin value 99999999999999999999",
        "setoption name RfpMargin value wide",
        "setoption name RfpMargin value 1.5",
        "setoption name RfpMargin",
    ];
    let (nodes, said) = nodes_to_depth(&bad, 8);
    assert_eq!(said.len(), bad.len(), "{said:?}");
    for line in &said {
        assert!(
            line.starts_with("info string error: option 'RfpMargin'"),
            "{line}"
        );
    }
    assert!(said[0].contains("out of range (20 to 200)"), "{}", said[0]);
    assert_eq!(nodes, default, "a refused value changed the search");
}

#[test]
fn uci_does_not_list_the_tunables() {
    let mut e = EngineProc::start();
    let lines = e.handshake();
    assert!(
        lines.iter().any(|l| l.starts_with("option name Hash ")),
        "{lines:?}"
    );
    for tunable in TUNABLES {
        let needle = format!(" {} ", tunable.name.to_ascii_lowercase());
        assert!(
            !lines
                .iter()
                .any(|l| format!("{} ", l.to_ascii_lowercase()).contains(&needle)),
            "{} is listed: {lines:?}",
            tunable.name
        );
    }
}

#[test]
fn show_tunables_lists_them_for_match_runners() {
    // fastchess and scripts/match send only the options `uci` declared.
    let mut e = EngineProc::start_with_args(&["--show-tunables"]);
    let lines = e.handshake();
    assert!(
        lines.iter().any(|l| l.starts_with("option name Hash ")),
        "{lines:?}"
    );
    for tunable in TUNABLES {
        let expected = format!(
            "option name {} type spin default {} min {} max {}",
            tunable.name, tunable.default, tunable.min, tunable.max
        );
        assert!(lines.contains(&expected), "missing {expected}: {lines:?}");
    }
    e.send("setoption name RfpMargin value 80");
    assert!(e.sync().is_empty(), "{:?}", e.log);
    // With a command it is refused: it starts the UCI loop.
    let out = Command::new(binary())
        .args(["--show-tunables", "bench"])
        .output()
        .expect("binary runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: "));
}

#[test]
fn tunables_prints_the_spsa_table() {
    let out = Command::new(binary())
        .arg("tunables")
        .output()
        .expect("binary runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    // Every tuned entry; the switches (0 off, 1 on) are not tuned.
    let tuned: Vec<_> = TUNABLES.iter().filter(|t| t.is_tuned()).collect();
    assert!(tuned.len() > 20 && tuned.len() < TUNABLES.len());
    assert_eq!(lines.len(), tuned.len(), "{text}");
    for (line, tunable) in lines.iter().zip(tuned) {
        let fields: Vec<&str> = line.split(", ").collect();
        assert_eq!(fields.len(), 7, "{line}");
        assert_eq!(fields[0], tunable.name, "{line}");
        assert_eq!(fields[1], "int", "{line}");
        let numbers: Vec<i32> = fields[2..5].iter().map(|f| f.parse().unwrap()).collect();
        assert_eq!(
            numbers,
            [tunable.default, tunable.min, tunable.max],
            "{line}"
        );
        let c_end: f64 = fields[5].parse().unwrap();
        let r_end: f64 = fields[6].parse().unwrap();
        assert!(c_end > 0.0 && c_end == tunable.c_end, "{line}");
        assert_eq!(r_end, 0.002, "{line}");
    }
}

#[test]
fn tunables_ends_quietly_when_its_reader_stops() {
    // `escaque tunables | head -1`: the reader is gone before the table is written. Each line
    // then meets a broken pipe, which must end the table, not panic.
    let mut child = Command::new(binary())
        .arg("tunables")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("it exits");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?} {stderr}", out.status);
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn parameters_of_a_technique_switched_off_are_not_tuned() {
    let named = |name: &str| {
        TUNABLES
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} is a tunable"))
    };
    // Razoring lost its match and is off by default: its margin and depth are not tuned.
    assert_eq!(named("Razoring").default, 0);
    assert!(!named("RazoringMargin").is_tuned());
    assert!(!named("RazoringMaxDepth").is_tuned());
    // ProbCut is on: its margin is tuned.
    assert_eq!(named("ProbCut").default, 1);
    assert!(named("ProbCutMargin").is_tuned());
    // A weight whose default 0 turns its technique off (it lost its match) is not tuned either;
    // FpImproving, a margin whose 0 is off but whose default is on, is.
    assert_eq!(named("ContHist4Weight").default, 0);
    assert!(!named("ContHist4Weight").is_tuned());
    assert!(named("FpImproving").default > 0);
    assert!(named("FpImproving").is_tuned());
}
