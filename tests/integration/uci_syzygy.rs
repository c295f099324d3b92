//! The Syzygy options through the UCI binary: declared as Stockfish declares them, a path that
//! cannot be used (missing, a file, no tables, corrupt tables) answered by one `info string`,
//! changing nothing, with the engine still working, and with the repository's 3-piece tables
//! loaded, TB wins reported as `score cp` (never `score mate`) with `tbhits`.

use std::path::PathBuf;

use crate::uci_common::{EngineProc, QUICK};

/// A KRvK win whose mate is 16 moves away: too far for a shallow search to see.
const KRVK: &str = "K7/8/6R1/8/8/4k3/8/8 w - - 0 1";

/// A scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("escaque-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Sets `SyzygyPath` and returns what the engine said before `readyok`.
fn set_path(e: &mut EngineProc, path: &str) -> Vec<String> {
    e.send(&format!("setoption name SyzygyPath value {path}"));
    let mut lines = e.sync();
    lines.retain(|l| l != "readyok");
    lines
}

/// The engine still searches: a short search ends with a legal `bestmove`.
fn still_plays(e: &mut EngineProc) -> Vec<String> {
    e.send(&format!("position fen {KRVK}"));
    e.send("go depth 4");
    let (lines, best) = e.bestmove(QUICK);
    assert!(best.starts_with("bestmove "), "{best}");
    assert_ne!(best, "bestmove (none)");
    lines
}

#[test]
fn options_are_declared_as_in_stockfish() {
    let mut e = EngineProc::start();
    let lines = e.handshake();
    for expected in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    ] {
        assert!(lines.iter().any(|l| l == expected), "{expected}: {lines:?}");
    }
}

#[test]
fn unusable_paths_get_one_info_string_and_the_engine_plays_on() {
    let mut e = EngineProc::start();
    e.handshake();
    let empty = Scratch::new("syzygy-empty");
    let corrupt = Scratch::new("syzygy-corrupt");
    std::fs::write(corrupt.0.join("KQvK.rtbw"), [0u8; 80]).unwrap();
    let truncated = Scratch::new("syzygy-truncated");
    std::fs::write(
        truncated.0.join("KRvK.rtbw"),
        [0x71, 0xe8, 0x23, 0x5d, 0, 0],
    )
    .unwrap();
    let cases = [
        ("/no/such/escaque/directory".to_string(), "does not exist"),
        (
            env!("CARGO_MANIFEST_DIR").to_string() + "/Cargo.toml",
            "is a file",
        ),
        (empty.path().to_string(), "no Syzygy tables found"),
        (corrupt.path().to_string(), "wrong magic number"),
        (truncated.path().to_string(), "not a Syzygy table's"),
    ];
    for (path, why) in cases.iter().map(|(p, w)| (p.to_string(), *w)) {
        let said = set_path(&mut e, &path);
        assert_eq!(said.len(), 1, "{path}: {said:?}");
        assert!(
            said[0].starts_with("info string error: ") && said[0].contains(why),
            "{path}: {said:?}"
        );
        let lines = still_plays(&mut e);
        assert!(lines.iter().all(|l| !l.contains("tbhits")), "{lines:?}");
    }
    // A NUL byte cannot reach the prober either.
    assert_eq!(set_path(&mut e, "a\u{0}b").len(), 1);
    assert!(set_path(&mut e, "<empty>").is_empty());
    still_plays(&mut e);
}

#[test]
fn tablebase_wins_are_reported_as_centipawns_with_tbhits() {
    // The 3-piece tables kept in the repository.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy");
    let mut e = EngineProc::start();
    e.handshake();
    let said = set_path(&mut e, &format!("/no/such/dir:{}", dir.display()));
    assert_eq!(
        said.last().map(String::as_str),
        Some("info string Found 5 tablebases (5 WDL, 5 DTZ, up to 3 pieces)"),
        "{said:?}"
    );
    let lines = still_plays(&mut e);
    let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!infos.is_empty());
    for line in &infos {
        assert!(line.contains(" score cp 19999 "), "{line}");
        assert!(line.contains(" tbhits "), "{line}");
    }
    // A drawn KPvK (the rook pawn's corner): the tables' draw, certain in `wdl`, and every line
    // carries tbhits.
    e.send("setoption name UCI_ShowWDL value true");
    e.send("position fen k7/8/8/8/8/8/P7/K7 w - - 0 1");
    e.send("go depth 4");
    let (lines, _) = e.bestmove(QUICK);
    let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!infos.is_empty(), "{lines:?}");
    for line in &infos {
        assert!(line.contains(" score cp 0 "), "{line}");
        assert!(line.contains(" wdl 0 1000 0 "), "{line}");
        assert!(line.contains(" tbhits "), "{line}");
    }
    e.send("setoption name UCI_ShowWDL value false");
    // Five pieces are beyond these tables: searched as usual, probing only after captures.
    e.send("position fen 8/8/4k3/2r5/8/8/3P3R/K7 w - - 0 1");
    e.send("go depth 6");
    let (lines, _) = e.bestmove(QUICK);
    assert!(lines.iter().all(|l| !l.contains("score mate")), "{lines:?}");
    // A refused path changes nothing: the tables stay.
    assert_eq!(set_path(&mut e, "/no/such/escaque/dir").len(), 1);
    let lines = still_plays(&mut e);
    assert!(lines.iter().any(|l| l.contains(" tbhits ")), "{lines:?}");
    // Back to no tables: no more tbhits.
    assert!(set_path(&mut e, "<empty>").is_empty());
    let lines = still_plays(&mut e);
    assert!(lines.iter().all(|l| !l.contains("tbhits")), "{lines:?}");
}
