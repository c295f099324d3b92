//! Scores on the reported scale over UCI (issue 25): `score cp` normalised by the win-rate
//! model of the built-in network, `wdl` from the same model with `UCI_ShowWDL`, mates unchanged.

use crate::uci_common::{EngineProc, QUICK};
use escaque::wdl::{Wdl, MODEL};

/// `score cp N` and, if shown, `wdl W D L` of an info line.
fn score_and_wdl(line: &str) -> (Option<i32>, Option<Wdl>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .map(|i| &words[i + 1..])
    };
    let cp = after("score")
        .filter(|rest| rest[0] == "cp")
        .map(|rest| rest[1].parse().expect("cp number"));
    let wdl = after("wdl").map(|rest| {
        let n: Vec<u32> = rest[..3].iter().map(|t| t.parse().expect("wdl")).collect();
        Wdl {
            win: n[0],
            draw: n[1],
            loss: n[2],
        }
    });
    (cp, wdl)
}

/// Whether some internal score that the model normalises to `cp` at `material` has this `wdl`:
/// the two numbers must come from one model and one score.
fn model_agrees(cp: i32, wdl: Wdl, material: u32) -> bool {
    (-5000..=5000)
        .filter(|&v| MODEL.normalise(v, material) == cp)
        .any(|v| MODEL.wdl(v, material) == wdl)
}

fn search(e: &mut EngineProc, position: &str, go: &str) -> Vec<String> {
    e.send(position);
    e.send(go);
    e.bestmove(QUICK * 6).0
}

/// The done-check: a pawn up in the opening reads at least 100 cp at depth 14.
#[test]
fn a_pawn_up_in_the_opening_reads_a_pawn() {
    let mut e = EngineProc::start();
    e.handshake();
    e.send("setoption name UCI_ShowWDL value true");
    let lines = search(
        &mut e,
        "position fen rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "go depth 14",
    );
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth 14 ") && l.contains(" score "))
        .expect("a depth-14 line");
    let (cp, wdl) = score_and_wdl(last);
    let (cp, wdl) = (cp.expect("score cp"), wdl.expect("wdl shown"));
    assert!(cp >= 100, "{last}");
    assert_eq!(wdl.win + wdl.draw + wdl.loss, 1000, "{last}");
    assert!(wdl.win > wdl.loss, "{last}");
    assert!(model_agrees(cp, wdl, 77), "{last}");
}

/// Every line of a MultiPV search is on the same scale, and the scores and wdl agree.
#[test]
fn multipv_lines_share_the_scale_and_wdl_follows_the_score() {
    let mut e = EngineProc::start();
    e.handshake();
    e.send("setoption name UCI_ShowWDL value true");
    e.send("setoption name MultiPV value 4");
    let lines = search(&mut e, "position startpos moves e2e4", "go depth 8");
    let mut last_depth: Vec<(i32, Wdl)> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 8 ") && !l.contains("bound"))
        .map(|l| {
            let (cp, wdl) = score_and_wdl(l);
            let (cp, wdl) = (cp.expect("cp"), wdl.expect("wdl"));
            assert!(model_agrees(cp, wdl, 78), "{l}");
            (cp, wdl)
        })
        .collect();
    assert_eq!(last_depth.len(), 4, "{lines:?}");
    // Better scores, better chances (for the side to move, Black here).
    last_depth.sort_by_key(|(cp, _)| *cp);
    for pair in last_depth.windows(2) {
        assert!(pair[0].1.win <= pair[1].1.win, "{last_depth:?}");
        assert!(pair[0].1.loss >= pair[1].1.loss, "{last_depth:?}");
    }
}

#[test]
fn wdl_only_with_the_option_and_mates_are_unchanged() {
    let mut e = EngineProc::start();
    e.handshake();
    let mate_in_1 = "position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    let lines = search(&mut e, mate_in_1, "go depth 6");
    let scored: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(scored.iter().all(|l| !l.contains(" wdl ")), "{scored:?}");
    assert!(
        scored.last().unwrap().contains(" score mate 1 "),
        "{scored:?}"
    );
    e.send("setoption name UCI_ShowWDL value true");
    let lines = search(&mut e, mate_in_1, "go depth 6");
    let last = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
    assert!(last.contains(" score mate 1 wdl 1000 0 0 "), "{last}");
    // The side that gets mated.
    let lines = search(
        &mut e,
        "position fen k7/8/1K6/8/8/8/8/6Q1 b - - 0 1",
        "go depth 6",
    );
    let last = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
    assert!(last.contains(" score mate -1 wdl 0 0 1000 "), "{last}");
    e.send("setoption name UCI_ShowWDL value false");
    let lines = search(&mut e, "position startpos", "go depth 4");
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:?}");
}

/// What feeds training and the search stays in internal units: the search's own reports (which
/// datagen records) carry the internal score, and only the UCI line is normalised.
#[test]
fn the_search_reports_internal_units_and_uci_normalises_them() {
    use escaque::board::Board;
    use escaque::search::{Engine, Limits, Reporter, Score, SearchInfo, SearchRequest};
    use std::sync::{Arc, Mutex};

    #[derive(Default)]
    struct Last(Mutex<Option<SearchInfo>>);
    impl Reporter for Last {
        fn info(&self, info: &SearchInfo) {
            *self.0.lock().unwrap() = Some(info.clone());
        }
        fn best_move(&self, _: Option<escaque::types::Move>, _: Option<escaque::types::Move>) {}
    }

    let fen = "rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let limits = Limits {
        depth: Some(10),
        ..Limits::default()
    };
    let request = SearchRequest::fixed(Board::from_fen(fen).unwrap(), Vec::new(), limits);
    let last = Arc::new(Last::default());
    Engine::new().search_sync(request, last.clone()).unwrap();
    let info = last.0.lock().unwrap().clone().expect("an info");
    assert_eq!(info.score, Score::Centipawns(info.value));

    // The same search over UCI (one thread, a fresh hash: the same tree) reads the normalised
    // value of that internal score.
    let mut e = EngineProc::start();
    e.handshake();
    let lines = search(&mut e, &format!("position fen {fen}"), "go depth 10");
    let line = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth 10 ") && l.contains(" score "))
        .unwrap();
    assert_eq!(
        score_and_wdl(line).0,
        Some(MODEL.normalise(info.value, 77)),
        "{line}, internal {}",
        info.value
    );
    // The reported number is not the internal one (the search's score here is not 0).
    assert_ne!(info.value, 0);
    assert_ne!(MODEL.normalise(info.value, 77), info.value);
}
