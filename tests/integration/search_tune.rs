//! The Texel tuner as a library (`escaque tune <epd> [--epochs N] [--l2 X] [--lr X] [--resolve
//! 0|1] [--freeze MATERIAL,PST_PAWN] [--out FILE]` runs it; `escaque tune diagnose <epd>` checks a
//! data file's labels). These tests check that parsing and feature extraction work, that the tuner's linear model is the engine's evaluation, and that the weight
//! table round-trips.

use escaque::tools::tune;

#[test]
fn parses_labelled_lines() {
    let (board, result) =
        tune::parse_line("8/1N4pk/8/5p2/2bb3P/6r1/R2K4/5R2 b - - 0 76 c9 \"0-1\";").unwrap();
    assert_eq!(result, 0.0);
    assert_eq!(board.fullmove_number(), 76);

    // The result is read after the FEN only: this FEN's "P1/2K5" is not a draw label.
    let fen = "4k3/8/8/8/8/8/5PP1/2K5 w - - 0 1";
    for (line, expected) in [
        (format!("{fen} [1.0]"), 1.0),
        (format!("{fen} [0.0]"), 0.0),
        (format!("{fen} [0.5]"), 0.5),
        (format!("{fen} c9 \"1-0\";"), 1.0),
        (format!("{fen} c9 \"1/2-1/2\";"), 0.5),
    ] {
        let (board, result) = tune::parse_line(&line).unwrap();
        assert_eq!(result, expected, "{line}");
        assert_eq!(board.to_fen(), fen);
    }
    for line in [
        fen.to_string(),
        format!("{fen} c9 \"*\";"),
        format!("{fen} [2.0]"),
        "not a fen c9 \"1-0\";".to_string(),
    ] {
        assert!(tune::parse_line(&line).is_none(), "{line}");
    }
}

/// The tuner's linear model (features · weights, tapered and scaled like the engine) must be the
/// evaluation the engine plays with, or tuning optimises something else: the two agree on every
/// labelled EPD line. Returns how many were checked.
fn check_linear_model<'a>(lines: impl Iterator<Item = &'a str>) -> usize {
    use escaque::hce::{evaluate, PARAMS};
    let mut checked = 0;
    for line in lines {
        let Some((board, result)) = tune::parse_line(line) else {
            continue;
        };
        let linear = tune::entry(&board, result).linear_eval(&PARAMS);
        let engine = evaluate(&board) * board.side_to_move().sign();
        assert!(
            (linear - f64::from(engine)).abs() < 1.05,
            "{line}: tuner {linear:.2}, engine {engine}"
        );
        checked += 1;
    }
    checked
}

#[test]
#[ignore = "needs ../shared/data/tuning (CI runs it: --ignored search_tune::)"]
fn linear_model_matches_evaluate_on_the_shared_tuning_data() {
    for path in [
        "../shared/data/tuning/debian-engines-labelled.epd",
        "../shared/data/tuning/zurichess-quiet-labeled.first1000.epd",
    ] {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let checked = check_linear_model(text.lines().step_by(7).take(5000));
        assert!(checked > 100, "{path}: only {checked} positions");
    }
}

#[test]
fn linear_model_matches_evaluate() {
    use escaque::hce::{evaluate, PARAMS};
    // Positions built here, so the check runs without the data files too.
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4",
        "8/8/4k3/8/8/2NN4/4K3/8 w - - 0 1",
        "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50",
        "4k3/8/8/3b4/8/8/3PB3/4K3 w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
    ] {
        let board = escaque::board::Board::from_fen(fen).unwrap();
        let linear = tune::entry(&board, 0.5).linear_eval(&PARAMS);
        let engine = evaluate(&board) * board.side_to_move().sign();
        assert!(
            (linear - f64::from(engine)).abs() < 1.05,
            "{fen}: tuner {linear:.2}, engine {engine}"
        );
    }
}

/// Reads back the table `to_rust` writes.
fn parse_table(text: &str) -> Vec<escaque::hce::params::S> {
    use escaque::hce::params::S;
    text.split("S(")
        .skip(1)
        .map(|item| {
            let inner = &item[..item.find(')').unwrap()];
            let (mg, eg) = inner.split_once(',').unwrap();
            S(mg.trim().parse().unwrap(), eg.trim().parse().unwrap())
        })
        .collect()
}

/// `to_rust` writes every weight in table order, and a 0-epoch tune gives back the weights the
/// engine was built with, so applying a tune's output changes nothing but what was tuned.
#[test]
fn weight_table_round_trips() {
    use escaque::hce::{params::NUM_PARAMS, PARAMS};
    let text = tune::to_rust(&PARAMS);
    assert!(text.starts_with("#[rustfmt::skip]\npub static PARAMS: [S; NUM_PARAMS] = ["));
    assert_eq!(parse_table(&text), PARAMS.to_vec());
    // weights.rs is the tuner's output as written, after its header: no hand edits.
    assert!(include_str!("../../src/hce/weights.rs").ends_with(&text));
    let epd = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 c9 \"1/2-1/2\";\n\
               8/1N4pk/8/5p2/2bb3P/6r1/R2K4/5R2 b - - 0 76 c9 \"0-1\";\n";
    let config = tune::TuneConfig {
        epochs: 0,
        ..tune::TuneConfig::default()
    };
    let (_, weights) = tune::tune_with(epd, &config, &mut |_| {});
    assert_eq!(weights.len(), NUM_PARAMS);
    assert_eq!(weights, PARAMS.to_vec());
}

/// Quiescence resolve: a position with a free piece to take settles after the capture; a quiet
/// one stays as it is.
#[test]
fn resolve_takes_hanging_material() {
    use escaque::board::Board;
    let quiet = Board::startpos();
    assert_eq!(tune::resolve(&quiet).hash(), quiet.hash());
    let hanging = Board::from_fen("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1").unwrap();
    let leaf = tune::resolve(&hanging);
    assert!(leaf.pieces(escaque::types::PieceType::Queen).is_empty());
}

/// The data check `escaque tune diagnose` prints: results rise with the evaluation.
#[test]
fn results_by_eval_bucket_rise_with_the_evaluation() {
    let epd = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 c9 \"1-0\";\n\
               3qk3/8/8/8/8/8/8/4K3 b - - 0 1 c9 \"0-1\";\n\
               rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 c9 \"1/2-1/2\";\n";
    let text = tune::results_by_eval_bucket(epd);
    assert!(text.starts_with("3 positions\n"), "{text}");
    let rows: Vec<&str> = text.lines().skip(1).collect();
    // White to move: the draw near 0 and the win in the top bucket; Black to move: the loss in
    // the bottom one.
    assert!(
        rows[0].starts_with("white to move: ") && rows[0].ends_with(" 1.00/1"),
        "{text}"
    );
    assert!(rows[0].contains(" 0.50/1 "), "{text}");
    assert!(rows[1].starts_with("black to move: 0.00/1 "), "{text}");
}
