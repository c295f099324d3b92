//! The network evaluation as the engine computes it: incremental accumulators against a fresh
//! refresh, the vector path against the portable one, and both against the plain integer
//! reference of the file format; and the `EvalFile` option over UCI.

use crate::common::{for_random_positions, Rng};
use crate::uci_common::{EngineProc, QUICK};
use escaque::board::Board;
use escaque::nnue::format::QuantisedNetwork;
use escaque::nnue::{evaluate_board, Accumulator, AccumulatorStack, Architecture, Network};

/// Active features of `board` from each perspective, side to move first, computed the plain way
/// from the architecture's definition.
fn features(arch: &Architecture, board: &Board) -> [Vec<usize>; 2] {
    let stm = board.side_to_move().index();
    let of = |perspective: usize| {
        let king = board.king(if perspective == 0 {
            escaque::types::Color::White
        } else {
            escaque::types::Color::Black
        });
        let view = arch.view(perspective, king.index());
        board
            .occupied()
            .into_iter()
            .map(|sq| {
                let p = board.piece_on(sq).unwrap();
                view.feature(
                    perspective,
                    p.color().index(),
                    p.piece_type().index(),
                    sq.index(),
                )
            })
            .collect()
    };
    [of(stm), of(1 - stm)]
}

/// A random network of a bucketed architecture (16 mirrored king buckets, 8 output buckets), its
/// weights in the ranges the trainer produces, so the bucket and cache paths are checked too.
fn random_bucketed() -> (QuantisedNetwork, Network) {
    random_network(Architecture::preset(16, true, 8).unwrap())
}

/// A random network of `arch`, its weights in the ranges the trainer produces.
fn random_network(arch: Architecture) -> (QuantisedNetwork, Network) {
    let hidden = 128;
    let mut rng = Rng::new(0xB0C4_E7ED);
    let mut small = |range: u64, offset: i64| (rng.next_u64() % range) as i64 - offset;
    let q = QuantisedNetwork {
        arch,
        hidden,
        feature_weights: (0..arch.inputs() * hidden)
            .map(|_| small(121, 60) as i16)
            .collect(),
        feature_bias: (0..hidden).map(|_| small(201, 40) as i16).collect(),
        output_weights: (0..arch.output_buckets * 2 * hidden)
            .map(|_| small(255, 127) as i16)
            .collect(),
        output_bias: (0..arch.output_buckets)
            .map(|_| small(200_001, 100_000) as i32)
            .collect(),
    };
    let net = Network::from_bytes(&q.to_bytes()).unwrap();
    (q, net)
}

fn networks() -> Vec<(&'static str, QuantisedNetwork, Network)> {
    let default = Network::default_network();
    let (q, bucketed) = random_bucketed();
    // Unmirrored buckets (what `train --init` adds to a network without them): a king crossing
    // the d/e boundary keeps its view unless its bucket changes.
    let (uq, unmirrored) = random_network(Architecture::preset(4, false, 8).unwrap());
    vec![
        (
            "built-in",
            QuantisedNetwork::from_bytes(Network::default_bytes()).unwrap(),
            (*default).clone(),
        ),
        ("bucketed", q, bucketed),
        ("unmirrored buckets", uq, unmirrored),
    ]
}

#[test]
fn lazy_accumulators_equal_a_refresh_after_every_kind_of_move() {
    for (name, _, net) in networks() {
        let mut stack = AccumulatorStack::try_new(64).unwrap();
        let mut rng = Rng::new(0x5EED);
        let mut checked = 0;
        // From positions of random games (biased to captures, promotions, castling, Chess960
        // and en passant), random lines of up to 8 plies, evaluated at random plies only (so the
        // lazy walk replays several moves, across king moves that change bucket), then every
        // ply of the line again on the way back, as the search returns to them.
        for_random_positions(0x5EED, 150, 100, |root| {
            stack.reset(&net, root);
            let mut line = vec![*root];
            for ply in 0..8 {
                let board = line[ply];
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let kings: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|m| board.piece_on(m.from()).unwrap().piece_type().index() == 5)
                    .collect();
                let mv = if !kings.is_empty() && rng.below(3) == 0 {
                    kings[rng.below(kings.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                if !board.in_check() && rng.below(4) == 0 {
                    stack.push_null(ply);
                    line.push(board.make_null_move());
                } else {
                    stack.push_move(&net, ply, &board, mv);
                    line.push(board.make_move(mv));
                }
                if rng.below(3) == 0 {
                    let child = line[ply + 1];
                    assert_eq!(
                        stack.evaluate(&net, ply + 1, &child),
                        evaluate_board(&net, &child),
                        "{name}: {}",
                        child.to_fen()
                    );
                    checked += 1;
                }
            }
            for (ply, board) in line.iter().enumerate().rev() {
                let fresh = Accumulator::refresh(&net, board);
                for perspective in 0..2 {
                    assert_eq!(
                        stack.get(&net, ply, board, perspective),
                        &fresh.values[perspective][..],
                        "{name}: {} perspective {perspective}",
                        board.to_fen()
                    );
                }
                checked += 1;
            }
        });
        assert!(checked > 50_000, "{name}: only {checked} positions checked");
    }
}

#[test]
fn engine_inference_matches_the_integer_reference_and_the_portable_path() {
    for (name, reference, net) in networks() {
        let mut checked = 0;
        for_random_positions(0xBEEF, 60, 100, |board| {
            let acc = Accumulator::refresh(&net, board);
            let us = board.side_to_move().index();
            let bucket = net.arch.output_bucket(board.occupied().count() as usize);
            let fast = acc.evaluate(&net, board);
            let portable = net.output_portable(&acc.values[us], &acc.values[1 - us], bucket);
            let [a, b] = features(&net.arch, board);
            let exact = reference.evaluate_features([&a, &b], bucket);
            assert_eq!(fast, portable, "{name}: {}", board.to_fen());
            assert_eq!(fast, exact, "{name}: {}", board.to_fen());
            assert_eq!(fast, evaluate_board(&net, board));
            checked += 1;
        });
        assert!(checked > 3000, "{name}: only {checked} positions");
    }
}

#[test]
fn the_evaluation_is_symmetric_under_colour_flip() {
    // The network sees every position from the side to move: a colour-flipped, mirrored position
    // gets the same score.
    let (_, bucketed) = random_bucketed();
    for net in [(*Network::default_network()).clone(), bucketed] {
        let mut checked = 0;
        for_random_positions(0xF11F, 20, 60, |board| {
            if board.castling_rights().0 != 0 || board.en_passant().is_some() {
                return;
            }
            checked += 1;
            let fen = board.to_fen();
            let fields: Vec<&str> = fen.split(' ').collect();
            let flipped_rows: Vec<String> = fields[0]
                .split('/')
                .rev()
                .map(|row| {
                    row.chars()
                        .map(|c| {
                            if c.is_ascii_uppercase() {
                                c.to_ascii_lowercase()
                            } else {
                                c.to_ascii_uppercase()
                            }
                        })
                        .collect()
                })
                .collect();
            let stm = if fields[1] == "w" { "b" } else { "w" };
            let flipped = format!("{} {stm} - - 0 1", flipped_rows.join("/"));
            let flipped = Board::from_fen(&flipped).unwrap();
            assert_eq!(
                evaluate_board(&net, board),
                evaluate_board(&net, &flipped),
                "{fen}"
            );
        });
        // The positions without castling rights or en passant must not be a handful.
        assert!(checked > 500, "only {checked} positions checked");
    }
}

#[test]
fn eval_file_refuses_bad_files_and_keeps_the_network() {
    let dir = std::env::temp_dir().join(format!("escaque-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = Network::default_bytes();
    let truncated = dir.join("truncated.nnue");
    std::fs::write(&truncated, &good[..good.len() / 2]).unwrap();
    let corrupt = dir.join("corrupt.nnue");
    let mut bytes = good.to_vec();
    bytes[5000] ^= 0x40;
    std::fs::write(&corrupt, &bytes).unwrap();
    let wrong = dir.join("wrong.nnue");
    std::fs::write(&wrong, b"this is not a network").unwrap();
    let copy = dir.join("copy.nnue");
    std::fs::write(&copy, good).unwrap();

    let mut engine = EngineProc::start();
    let lines = engine.handshake();
    assert!(
        lines
            .iter()
            .any(|l| l == "option name EvalFile type string default <built-in>"),
        "{lines:?}"
    );
    engine.send("eval");
    let before = engine.until_prefix(QUICK, "Final evaluation");
    for (path, reason) in [
        (dir.join("missing.nnue"), "cannot read"),
        (truncated, "truncated"),
        (corrupt, "checksum"),
        (wrong, "magic"),
    ] {
        engine.send(&format!("setoption name EvalFile value {}", path.display()));
        let lines = engine.sync();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error:") && l.contains(reason)),
            "{path:?}: {lines:?}"
        );
        engine.send("eval");
        assert_eq!(
            engine.until_prefix(QUICK, "Final evaluation").last(),
            before.last()
        );
    }
    // A good file loads, and the engine still plays.
    engine.send(&format!("setoption name EvalFile value {}", copy.display()));
    let lines = engine.sync();
    assert!(lines.iter().any(|l| l.contains("loaded")), "{lines:?}");
    engine.send("go depth 6");
    let (_, best) = engine.bestmove(QUICK);
    assert!(best.starts_with("bestmove "), "{best}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn use_nnue_switches_between_the_network_and_the_hand_crafted_evaluation() {
    let mut engine = EngineProc::start();
    let lines = engine.handshake();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Use NNUE type check default ")),
        "{lines:?}"
    );
    let nodes_at_depth_7 = |engine: &mut EngineProc| {
        engine.send("ucinewgame");
        engine
            .send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        engine.send("go depth 7");
        let (lines, _) = engine.bestmove(QUICK);
        let last = lines
            .iter()
            .rev()
            .find(|l| l.contains(" nodes "))
            .unwrap()
            .clone();
        let words: Vec<&str> = last.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "nodes").unwrap();
        words[at + 1].parse::<u64>().unwrap()
    };
    let eval_lines = |engine: &mut EngineProc| {
        engine.send("eval");
        engine.until_prefix(QUICK, "Final evaluation")
    };
    for on in [true, false] {
        engine.send(&format!("setoption name Use NNUE value {on}"));
        let lines = eval_lines(&mut engine);
        let last = lines.last().unwrap();
        assert_eq!(last.contains("hand-crafted"), !on, "{last}");
        let value_of = |prefix: &str| {
            let line = lines.iter().find(|l| l.starts_with(prefix)).unwrap();
            line.split(':')
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap()
                .to_string()
        };
        let expected = if on {
            value_of("NNUE evaluation")
        } else {
            value_of("Hand-crafted evaluation")
        };
        assert_eq!(value_of("Final evaluation"), expected, "{lines:?}");
    }
    engine.send("setoption name Use NNUE value true");
    let with_net = nodes_at_depth_7(&mut engine);
    engine.send("setoption name Use NNUE value false");
    let without = nodes_at_depth_7(&mut engine);
    engine.send("setoption name Use NNUE value true");
    assert_eq!(nodes_at_depth_7(&mut engine), with_net);
    assert_ne!(with_net, without, "the evaluation changed nothing");
}

/// `nets/candidate.nnue` is the network the last row of `nets/README.md`'s table names by its
/// checksum, a file this build plays, in the built-in network's shape (every step fine-tunes the
/// built-in network or a candidate before it).
#[test]
fn the_committed_candidate_is_the_one_its_table_names() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/nets/README.md")).unwrap();
    fn cells(row: &str) -> Vec<&str> {
        row.trim()
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect()
    }
    // The steps table runs from its header to the first line that is not a table row; other
    // tables may follow it in the file.
    let mut lines = readme.lines().skip_while(|l| !l.starts_with("| step |"));
    let header = lines.next().expect("nets/README.md has the table of steps");
    let column = cells(header)
        .iter()
        .position(|&cell| cell == "candidate checksum")
        .expect("the table has a candidate checksum column");
    let last_row = lines
        .take_while(|l| l.starts_with('|'))
        .filter(|l| !l.starts_with("|-") && !l.starts_with("| -"))
        .last()
        .expect("nets/README.md has a row for the committed candidate");
    let cell = cells(last_row)[column];
    let checksum = u64::from_str_radix(cell.trim_matches('`').trim_start_matches("0x"), 16)
        .unwrap_or_else(|_| panic!("the last row's checksum is not hexadecimal: {cell}"));
    let candidate = Network::load(&format!("{root}/nets/candidate.nnue")).unwrap();
    assert_eq!(
        candidate.checksum, checksum,
        "nets/candidate.nnue is {:016x}, its table names {checksum:016x}",
        candidate.checksum
    );
    assert_eq!(candidate.describe(), Network::default_network().describe());
}

/// Each generation's line, `nets/line-gN.nnue` (a mean of fine-tunes of net9 on that generation's
/// games, merged with the others into a candidate), loads in the built-in network's shape, and
/// nets/README.md names it with its checksum, so a damaged or swapped file fails here rather
/// than in a merge.
#[test]
fn the_committed_lines_are_the_ones_nets_readme_names() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/nets/README.md")).unwrap();
    let mut lines: Vec<String> = std::fs::read_dir(format!("{root}/nets"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("line-") && name.ends_with(".nnue"))
        .collect();
    lines.sort();
    assert!(!lines.is_empty(), "nets/ holds no line-gN.nnue");
    for name in lines {
        let net = Network::load(&format!("{root}/nets/{name}")).unwrap();
        assert_eq!(
            net.describe(),
            Network::default_network().describe(),
            "{name}"
        );
        let named = format!("`nets/{name}` (");
        let at = readme
            .find(&named)
            .unwrap_or_else(|| panic!("nets/README.md does not name {name}"));
        let sentence: String = readme[at..].chars().take(120).collect();
        assert!(
            sentence.contains(&format!("checksum {:016x}", net.checksum)),
            "nets/README.md names {name} with another checksum than {:016x}: {sentence}",
            net.checksum
        );
    }
}

/// `nets/built-in.txt` remakes the built-in network bit for bit: its base plus the mean of its
/// lines' changes, as `escaque net-merge` computes it. So the network in the binary is what the
/// committed lines say it is, and a later candidate adds a line to this same recipe.
#[test]
fn the_built_in_network_is_the_mean_of_the_lines_nets_built_in_names() {
    use escaque::tools::train::merge::merge;
    let root = env!("CARGO_MANIFEST_DIR");
    let recipe = std::fs::read_to_string(format!("{root}/nets/built-in.txt")).unwrap();
    let read = |name: &str| {
        let bytes = std::fs::read(format!("{root}/nets/{name}"))
            .unwrap_or_else(|e| panic!("nets/built-in.txt names nets/{name}: {e}"));
        QuantisedNetwork::from_bytes(&bytes).unwrap()
    };
    // As strict as scripts/escaque_tools/lines.py: one base, each line once, files of nets/.
    let (mut base, mut names) = (None, Vec::new());
    for line in recipe.lines() {
        let words: Vec<&str> = line.split('#').next().unwrap().split_whitespace().collect();
        if let [_, name] = words.as_slice() {
            assert!(
                !name.contains('/') && name.ends_with(".nnue"),
                "nets/built-in.txt: {name} is no network file of nets/"
            );
        }
        match words.as_slice() {
            [] => {}
            ["base", name] => assert!(base.replace(*name).is_none(), "a second base: {name}"),
            ["line", name] => {
                assert!(!names.contains(name), "{name} is named twice");
                names.push(*name);
            }
            _ => panic!("nets/built-in.txt: cannot read {line:?}"),
        }
    }
    let base = read(base.expect("nets/built-in.txt names a base"));
    assert!(!names.is_empty(), "nets/built-in.txt names no line");
    let lines: Vec<QuantisedNetwork> = names.iter().map(|name| read(name)).collect();
    let merged = merge(&base, &lines, 1.0 / lines.len() as f64).unwrap();
    assert_eq!(merged.saturated, 0);
    let built_in = std::fs::read(format!("{root}/src/nnue/default.nnue")).unwrap();
    assert!(
        merged.network.to_bytes() == built_in,
        "the mean of nets/built-in.txt's lines is not src/nnue/default.nnue"
    );
}
