//! Search behaviour through the public facade: mates, no-move positions, limits, MultiPV.

use std::sync::{Arc, Mutex};

use escaque::board::Board;
use escaque::search::{Engine, Limits, Reporter, Score, SearchInfo, SearchRequest};
use escaque::types::Move;

#[derive(Default)]
struct Capture {
    infos: Mutex<Vec<SearchInfo>>,
    best: Mutex<Vec<(Option<Move>, Option<Move>)>>,
}

impl Reporter for Capture {
    fn info(&self, info: &SearchInfo) {
        self.infos.lock().unwrap().push(info.clone());
    }
    fn best_move(&self, best: Option<Move>, ponder: Option<Move>) {
        self.best.lock().unwrap().push((best, ponder));
    }
}

fn search(fen: &str, limits: Limits, multipv: usize, searchmoves: &[&str]) -> Arc<Capture> {
    let board = Board::from_fen(fen).unwrap();
    let searchmoves: Vec<_> = searchmoves
        .iter()
        .map(|m| board.parse_uci_move(m, false).unwrap())
        .collect();
    let capture = Arc::new(Capture::default());
    let mut engine = Engine::new();
    let request = SearchRequest {
        multipv,
        root_moves: SearchRequest::root_moves(&board, &searchmoves),
        ..SearchRequest::fixed(board, Vec::new(), limits)
    };
    engine
        .search_sync(request, capture.clone())
        .expect("a finite search");
    capture
}

fn depth(d: i32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn best_uci(fen: &str, capture: &Capture) -> String {
    let board = Board::from_fen(fen).unwrap();
    let best = capture.best.lock().unwrap();
    assert_eq!(best.len(), 1, "exactly one bestmove");
    board.move_to_uci(best[0].0.unwrap(), false)
}

#[test]
fn finds_back_rank_mate() {
    let fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    let c = search(fen, depth(4), 1, &[]);
    assert_eq!(best_uci(fen, &c), "d1d8");
    assert_eq!(
        c.infos.lock().unwrap().last().unwrap().score,
        Score::Mate(1)
    );
}

#[test]
fn finds_mate_in_two() {
    // Qf7+ Kh8 Qf8# (or a rook mate): any mate within two moves.
    let fen = "6k1/pp4pp/8/8/8/8/PP3QPP/5RK1 w - - 0 1";
    let c = search(
        fen,
        Limits {
            mate: Some(2),
            ..Limits::default()
        },
        1,
        &[],
    );
    let score = c.infos.lock().unwrap().last().unwrap().score;
    assert!(
        matches!(score, Score::Mate(m) if m > 0 && m <= 2),
        "{score:?}"
    );
}

#[test]
fn checkmated_and_stalemated_roots() {
    let mated = search("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", depth(3), 1, &[]);
    assert_eq!(mated.best.lock().unwrap()[0], (None, None));
    assert_eq!(mated.infos.lock().unwrap()[0].score, Score::Mate(0));
    let stalemate = search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", depth(3), 1, &[]);
    assert_eq!(stalemate.best.lock().unwrap()[0], (None, None));
    assert_eq!(
        stalemate.infos.lock().unwrap()[0].score,
        Score::Centipawns(0)
    );
}

#[test]
fn multipv_and_searchmoves() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let c = search(fen, depth(4), 3, &[]);
    let infos = c.infos.lock().unwrap();
    let last: Vec<_> = infos.iter().filter(|i| i.depth == 4).collect();
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    let moves: std::collections::HashSet<_> = last.iter().map(|i| i.pv[0]).collect();
    assert_eq!(moves.len(), 3);
    let c = search(fen, depth(4), 1, &["a2a3"]);
    assert_eq!(best_uci(fen, &c), "a2a3");
}

#[test]
fn node_limit_is_honoured() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let c = search(
        fen,
        Limits {
            nodes: Some(5000),
            ..Limits::default()
        },
        1,
        &[],
    );
    assert_eq!(c.best.lock().unwrap().len(), 1);
    assert!(c.best.lock().unwrap()[0].0.is_some());
    // The count the search returns stops at the limit (the main thread checks it at every node)
    // once the first iteration is complete: that one always completes, so the move played was
    // searched even under `go nodes 1`.
    let nodes_of = |limits: Limits| {
        Engine::new()
            .search_sync(
                SearchRequest::fixed(Board::from_fen(fen).unwrap(), Vec::new(), limits),
                Arc::new(Capture::default()),
            )
            .expect("a finite search")
    };
    let first_iteration = nodes_of(Limits {
        depth: Some(1),
        ..Limits::default()
    });
    assert!(first_iteration > 300, "{first_iteration}");
    for limit in [0, 1, 300, 5000, 40_000] {
        let nodes = nodes_of(Limits {
            nodes: Some(limit),
            ..Limits::default()
        });
        let stop = limit.max(first_iteration);
        assert!(
            (stop..=stop + 16).contains(&nodes),
            "go nodes {limit}: {nodes} nodes (first iteration {first_iteration})"
        );
    }
}

/// A search that only `stop` could end is refused by the synchronous call instead of hanging.
#[test]
fn a_synchronous_search_refuses_infinite_and_ponder() {
    let mut engine = Engine::new();
    for limits in [
        Limits {
            infinite: true,
            ..Limits::default()
        },
        Limits {
            ponder: true,
            wtime: Some(1000),
            ..Limits::default()
        },
    ] {
        let request = SearchRequest::fixed(Board::startpos(), Vec::new(), limits);
        assert!(engine
            .search_sync(request, Arc::new(Capture::default()))
            .is_err());
    }
}

#[test]
fn fifty_move_rule_is_a_draw() {
    // A queen up, but the next move makes the hundredth quiet ply and there is no mate in one.
    let fen = "7k/8/8/8/8/8/8/K5Q1 w - - 99 80";
    let c = search(fen, depth(8), 1, &[]);
    let score = c.infos.lock().unwrap().last().unwrap().score;
    assert_eq!(score, Score::Centipawns(0));
}

#[test]
fn bench_positions_are_valid() {
    for fen in escaque::bench::POSITIONS {
        assert!(Board::from_fen(fen).is_ok(), "{fen}");
    }
}

/// Once the search has reported its best move the engine is idle, even while the search
/// thread is still winding down (issue 13: a `go perft` sent right after `bestmove` was
/// sometimes refused with "a search is running"). The reporter here keeps the search thread
/// inside `best_move` for a while after the move is out.
#[test]
fn idle_as_soon_as_the_best_move_is_out() {
    struct SlowToReturn(Mutex<std::sync::mpsc::Sender<()>>);
    impl Reporter for SlowToReturn {
        fn info(&self, _: &SearchInfo) {}
        fn best_move(&self, _: Option<Move>, _: Option<Move>) {
            let _ = self.0.lock().unwrap().send(());
            std::thread::sleep(std::time::Duration::from_millis(300));
        }
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let mut engine = Engine::new();
    let request = SearchRequest::fixed(Board::startpos(), Vec::new(), depth(3));
    engine.go(request, Arc::new(SlowToReturn(Mutex::new(tx))));
    rx.recv().unwrap();
    assert!(!engine.is_searching());
    engine.wait();
    assert!(!engine.is_searching());
}

/// A move that repeats the game's position a third time is a draw even at the horizon: a
/// depth-1 search hands its children to quiescence, which does not scan for repetitions, so the
/// scan must come first (0543302; before it the repeating move was scored as the lost position).
#[test]
fn a_repetition_at_the_horizon_is_a_draw() {
    use escaque::board::Game;
    // Two queens against a knight: everything but the repetition loses for Black.
    let start = Board::from_fen("6nk/8/8/8/8/8/8/K1QQ4 w - - 0 1").unwrap();
    let mut game = Game::new(start);
    for text in "a1a2 g8f6 a2a1 f6g8 a1a2 g8f6 a2a1".split_whitespace() {
        let mv = game.board().parse_uci_move(text, false).unwrap();
        game.play(mv);
    }
    let board = *game.board();
    let repeat = board.parse_uci_move("f6g8", false).unwrap();
    assert_eq!(
        board.make_move(repeat).hash(),
        start.hash(),
        "f6g8 returns to the start, seen twice before"
    );
    for searchmoves in [vec![repeat], Vec::new()] {
        let capture = Arc::new(Capture::default());
        let request = SearchRequest {
            root_moves: SearchRequest::root_moves(&board, &searchmoves),
            ..SearchRequest::fixed(board, game.history().to_vec(), depth(1))
        };
        Engine::new()
            .search_sync(request, capture.clone())
            .expect("a finite search");
        let score = capture.infos.lock().unwrap().last().unwrap().score;
        assert_eq!(score, Score::Centipawns(0), "searchmoves {searchmoves:?}");
        assert_eq!(capture.best.lock().unwrap()[0].0, Some(repeat));
    }
}
