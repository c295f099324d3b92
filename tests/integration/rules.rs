//! Game-ending rules and FEN validation.

use escaque::board::{Board, FenError, Game, Outcome};
use escaque::types::{Color, Square};

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(game: &mut Game, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = game.board().parse_uci_move(text, false).unwrap();
        game.play(mv);
    }
}

#[test]
fn checkmate_and_stalemate() {
    let mate = board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert!(mate.is_checkmate());
    assert!(!mate.is_stalemate());
    assert_eq!(
        Game::new(mate).outcome(),
        Some(Outcome::Checkmate {
            winner: Color::Black
        })
    );

    let stalemate = board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(stalemate.is_stalemate());
    assert!(!stalemate.is_checkmate());
    assert_eq!(Game::new(stalemate).outcome(), Some(Outcome::Stalemate));

    let check_only = board("7k/8/6K1/8/8/8/8/Q7 b - - 0 1");
    assert!(!check_only.is_checkmate() && !check_only.is_stalemate());
    assert_eq!(Game::new(check_only).outcome(), None);
}

#[test]
fn threefold_repetition_counts_same_side_to_move() {
    let mut game = Game::new(Board::startpos());
    play(&mut game, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(game.repetition_count(), 2);
    assert!(!game.is_threefold_repetition());
    play(&mut game, "g1f3 g8f6 f3g1");
    assert_eq!(
        game.repetition_count(),
        2,
        "the position after the first f3g1, Black to move"
    );
    play(&mut game, "f6g8");
    assert_eq!(game.repetition_count(), 3);
    assert_eq!(game.outcome(), Some(Outcome::ThreefoldRepetition));
}

#[test]
fn repetition_needs_same_castling_rights() {
    // The king walks out and back: same placement, but castling rights are gone.
    let mut game = Game::new(board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
    play(&mut game, "e1f1 e8f8 f1e1 f8e8 e1f1 e8f8 f1e1 f8e8");
    // Positions after the first return already lack the rights: this is only the 2nd occurrence.
    assert_eq!(game.repetition_count(), 2);
    play(&mut game, "e1f1 e8f8 f1e1 f8e8");
    assert_eq!(game.repetition_count(), 3);
}

#[test]
fn repetition_needs_same_en_passant_right() {
    // After 1.e4 (no black pawn can take) no ep right is recorded; after ...d5 with White's pawn
    // on e5 the ep right exists only the first time the position occurs.
    let mut game = Game::new(board("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"));
    play(&mut game, "d7d5");
    assert_eq!(game.board().en_passant(), Some(Square::new(43)));
    let first_key = game.board().hash();
    play(&mut game, "e1e2 e8e7 e2e1 e7e8");
    assert_eq!(game.board().en_passant(), None);
    assert_ne!(
        game.board().hash(),
        first_key,
        "same placement, but the ep right is gone"
    );
    assert_eq!(game.repetition_count(), 1);
}

#[test]
fn pseudo_en_passant_square_is_not_a_right() {
    // The ep field names d6, but the e5 pawn is pinned along the rank to the king: no right.
    let pinned = board("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    assert_eq!(pinned.en_passant(), None);
    let same_without = board("8/8/8/K2pP2r/8/8/8/7k w - - 0 1");
    assert_eq!(pinned.hash(), same_without.hash());
    // Without the pin it is a real right and a real move.
    let free = board("8/8/8/3pP3/8/8/8/K6k w - d6 0 1");
    assert_eq!(free.en_passant(), Some("d6".parse().unwrap()));
    assert!(free.parse_uci_move("e5d6", false).unwrap().is_en_passant());
}

#[test]
fn fifty_move_rule_and_mate_on_the_hundredth_ply() {
    let drawn = board("7k/8/8/8/8/8/R7/6K1 w - - 100 80");
    assert!(drawn.is_fifty_move_draw());
    assert_eq!(Game::new(drawn).outcome(), Some(Outcome::FiftyMoveRule));
    let not_yet = board("7k/8/8/8/8/8/R7/6K1 w - - 99 80");
    assert!(!not_yet.is_fifty_move_draw());
    assert_eq!(Game::new(not_yet).outcome(), None);
    // The 100th ply delivers mate: mate takes precedence.
    let mut game = Game::new(board("7k/8/6K1/8/8/8/R7/8 w - - 99 80"));
    play(&mut game, "a2a8");
    assert_eq!(game.board().halfmove_clock(), 100);
    assert!(!game.board().is_fifty_move_draw());
    assert_eq!(
        game.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );
}

/// The move counters saturate instead of wrapping (issue 13: fullmove 65535 became 0, a FEN the
/// parser refuses, and 65,536 quiet plies reset the fifty-move count), and every FEN the engine
/// prints reads back.
#[test]
fn move_counters_saturate_and_round_trip() {
    let mut game = Game::new(board("4k3/8/8/8/8/8/8/4K3 b - - 65535 65535"));
    play(&mut game, "e8d8");
    let fen = game.board().to_fen();
    assert_eq!(fen, "3k4/8/8/8/8/8/8/4K3 w - - 65535 65535");
    assert_eq!(Board::from_fen(&fen).unwrap().to_fen(), fen);
    // Knights shuffling far beyond 65,536 plies: the clock sticks at its maximum, the game
    // stays a fifty-move draw and the null move saturates too.
    let mut b = board("n3k3/8/8/8/8/8/8/N3K3 w - - 0 1");
    let cycle = ["a1b3", "a8b6", "b3a1", "b6a8"];
    for i in 0..70_000 {
        b = b.make_move(b.parse_uci_move(cycle[i % 4], false).unwrap());
    }
    assert_eq!(b.halfmove_clock(), 65535);
    assert_eq!(b.fullmove_number(), 35_001);
    assert!(b.is_fifty_move_draw());
    assert_eq!(b.make_null_move().halfmove_clock(), 65535);
    assert_eq!(Board::from_fen(&b.to_fen()).unwrap().to_fen(), b.to_fen());
    // Counters out of range or not plain digits are refused.
    for (clocks, expected) in [
        ("65536 1", FenError::BadHalfmoveClock("65536".into())),
        ("+1 1", FenError::BadHalfmoveClock("+1".into())),
        ("-1 1", FenError::BadHalfmoveClock("-1".into())),
        ("0 65536", FenError::BadFullmoveNumber("65536".into())),
        ("0 +2", FenError::BadFullmoveNumber("+2".into())),
    ] {
        let fen = format!("4k3/8/8/8/8/8/8/4K3 w - - {clocks}");
        assert_eq!(Board::from_fen(&fen).unwrap_err(), expected, "{fen}");
    }
}

#[test]
fn dead_positions() {
    let dead = [
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",        // K v K
        "8/8/4k3/8/8/3KB3/8/8 w - - 0 1",       // K+B v K
        "8/8/4k3/8/8/3KN3/8/8 b - - 0 1",       // K+N v K
        "8/8/4k3/2b5/8/3KB3/8/8 w - - 0 1",     // bishops on one colour (c5 and e3 are dark)
        "8/8/4k3/4b3/3b4/4B3/8/B2K4 w - - 0 1", // many bishops, all on dark squares
    ];
    for fen in dead {
        assert!(board(fen).is_insufficient_material(), "{fen}");
        assert_eq!(
            Game::new(board(fen)).outcome(),
            Some(Outcome::InsufficientMaterial),
            "{fen}"
        );
    }
    let alive = [
        "8/8/4k3/8/8/3KNN2/8/8 w - - 0 1", // K+NN v K: mate exists (cannot be forced)
        "8/8/4k3/3b4/8/3KB3/8/8 w - - 0 1", // bishops on both colours (d5 light, e3 dark)
        "8/8/4k3/8/8/3KB3/8/6n1 w - - 0 1", // K+B v K+N
        "8/8/4k3/8/8/3K4/4P3/8 w - - 0 1", // a pawn
        "8/8/4k3/8/8/3K4/8/7R w - - 0 1",  // a rook
    ];
    for fen in alive {
        assert!(!board(fen).is_insufficient_material(), "{fen}");
    }
}

#[test]
fn castling_rules() {
    let legal = |fen: &str, mv: &str| board(fen).parse_uci_move(mv, false).is_ok();
    let base = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert!(legal(base, "e1g1") && legal(base, "e1c1"));
    // In check: no castling.
    assert!(!legal("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1", "e1g1"));
    // Passing through an attacked square (f1) or landing on one (g1).
    assert!(!legal("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "e1g1"));
    assert!(!legal("r3k2r/8/8/8/8/8/6r1/R3K2R w KQkq - 0 1", "e1g1"));
    // b1 attacked does not matter for O-O-O (the king does not pass it), b1 occupied does.
    assert!(legal("r3k2r/8/8/8/8/8/1r6/R3K2R w KQkq - 0 1", "e1c1"));
    assert!(!legal("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", "e1c1"));
    // No right, no castling.
    assert!(!legal("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "e1g1"));
    // Moving the rook loses that right only.
    let after = board(base).make_move(board(base).parse_uci_move("h1h2", false).unwrap());
    assert_eq!(after.to_fen().split(' ').nth(2), Some("Qkq"));
    // Capturing a rook removes the opponent's right.
    let capture = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let after = capture.make_move(capture.parse_uci_move("a1a8", false).unwrap());
    assert_eq!(after.to_fen().split(' ').nth(2), Some("Kk"));
}

#[test]
fn chess960_castling() {
    // King b1, rook a1 (queen side) and rook h1; castling O-O-O puts the king on c1, rook on d1.
    let b = board("r3k2r/8/8/8/8/8/8/RK5R w HAha - 0 1");
    let mv = b.parse_uci_move("b1a1", true).unwrap();
    assert!(mv.is_castle());
    let after = b.make_move(mv);
    assert_eq!(after.to_fen(), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
    // O-O-O with king c1 (it stays) and rook b1: the rook shields c1 from the queen on a1, so
    // after castling the king would stand in check. Illegal.
    let shielded = board("4k3/8/8/8/8/8/8/qRK4R w B - 0 1");
    assert!(shielded.parse_uci_move("c1b1", true).is_err());
}

#[test]
fn chess960_castling_king_still_one_step_and_rook_on_king_target() {
    let castles = |fen: &str, mv: &str, after: &str| {
        let b = board(fen);
        let m = b
            .parse_uci_move(mv, true)
            .unwrap_or_else(|e| panic!("{fen} {mv}: {e}"));
        assert!(m.is_castle());
        assert_eq!(b.move_to_uci(m, true), mv);
        assert_eq!(
            b.make_move(m).to_fen().split(' ').next(),
            Some(after),
            "{fen} {mv}"
        );
    };
    // The king does not move (already on g1); only the rook goes h1 -> f1.
    castles(
        "4k3/8/8/8/8/8/8/6KR w H - 0 1",
        "g1h1",
        "4k3/8/8/8/8/8/8/5RK1",
    );
    // The king moves one square (f1 -> g1) and the rook h1 -> f1.
    castles(
        "4k3/8/8/8/8/8/8/5K1R w H - 0 1",
        "f1h1",
        "4k3/8/8/8/8/8/8/5RK1",
    );
    // The rook stands on the king's destination (g1) and the king on f1: they swap.
    castles(
        "4k3/8/8/8/8/8/8/5KR1 w G - 0 1",
        "f1g1",
        "4k3/8/8/8/8/8/8/5RK1",
    );
    // Queen side with the rook already on its destination (d1): only the king moves, e1 -> c1.
    castles(
        "4k3/8/8/8/8/8/8/3RK3 w D - 0 1",
        "e1d1",
        "4k3/8/8/8/8/8/8/2KR4",
    );
    // A d-file rook to the right of a b1 king is a king-side rook: king g1, rook f1.
    castles(
        "4k3/8/8/8/8/8/8/1K1R4 w D - 0 1",
        "b1d1",
        "4k3/8/8/8/8/8/8/5RK1",
    );
}

#[test]
fn promotion_letters_in_either_case() {
    let b = board("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    let lower = b.parse_uci_move("e7e8n", false).unwrap();
    assert_eq!(b.parse_uci_move("e7e8N", false), Ok(lower));
    assert_eq!(b.move_to_uci(lower, false), "e7e8n");
    assert!(b.parse_uci_move("e7e8k", false).is_err());
    assert!(
        b.parse_uci_move("e7e8", false).is_err(),
        "a promotion needs its piece"
    );
}

#[test]
fn bad_fens_are_rejected_with_reasons() {
    let cases: &[(&str, FenError)] = &[
        ("", FenError::FieldCount(0)),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
            FenError::FieldCount(3),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
            FenError::FieldCount(7),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            FenError::RankCount(7),
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            FenError::RankLength { rank: 1 },
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            FenError::BadPlacementChar('9'),
        ),
        (
            "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            FenError::BadPlacementChar('x'),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            FenError::BadSideToMove("x".into()),
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            FenError::KingCount {
                color: Color::Black,
                count: 0,
            },
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1",
            FenError::KingCount {
                color: Color::White,
                count: 2,
            },
        ),
        (
            "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w - - 0 1",
            FenError::PawnOnBackRank("h8".parse().unwrap()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNp w - - 0 1",
            FenError::PawnOnBackRank("h1".parse().unwrap()),
        ),
        ("4k3/8/8/8/8/8/8/r3K3 b - - 0 1", FenError::OpponentInCheck),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1",
            FenError::BadCastling("KQkqX".into()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1",
            FenError::BadCastling("KK".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
            FenError::CastlingPiecesMissing('K'),
        ),
        (
            "r3k3/8/8/8/8/8/8/4K2R w Q - 0 1",
            FenError::CastlingPiecesMissing('Q'),
        ),
        (
            "r3k3/8/8/8/8/8/4K3/R6R w K - 0 1",
            FenError::CastlingPiecesMissing('K'),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
            FenError::BadEnPassant("z9".into()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
            FenError::ImpossibleEnPassant("e3".parse().unwrap()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
            FenError::ImpossibleEnPassant("e6".parse().unwrap()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            FenError::BadHalfmoveClock("x".into()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            FenError::BadFullmoveNumber("0".into()),
        ),
    ];
    for (fen, expected) in cases {
        match Board::from_fen(fen) {
            Ok(_) => panic!("accepted bad FEN {fen}"),
            Err(e) => {
                assert_eq!(&e, expected, "{fen}");
                assert!(!e.to_string().is_empty());
            }
        }
    }
}

/// Material no game can reach is refused (issue 13: such positions overflowed the move list and
/// aborted the process), while the 218-move record position, which is reachable, loads.
#[test]
fn unreachable_material_is_refused() {
    let white = Color::White;
    let black = Color::Black;
    let cases: &[(&str, FenError)] = &[
        (
            "QQQQQQrk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
            FenError::TooManyPieces {
                color: white,
                count: 27,
            },
        ),
        (
            "kqqqqqqq/q6q/q6q/q6q/q3q3/q4Nqq/q4qnn/qqqq1qnK w - - 0 1",
            FenError::TooManyPieces {
                color: black,
                count: 29,
            },
        ),
        (
            "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1",
            FenError::TooManyPawns {
                color: white,
                count: 9,
            },
        ),
        // 16 pieces but 9 queens with a pawn still on the board: 8 promotions from 7 pawns.
        (
            "4k3/8/8/8/QQQQQQQQ/P7/8/Q3K3 w - - 0 1",
            FenError::TooManyPromoted {
                color: white,
                promoted: 8,
                pawns: 1,
            },
        ),
        // Three knights and eight pawns.
        (
            "1nn1k1n1/pppppppp/8/8/8/8/8/4K3 b - - 0 1",
            FenError::TooManyPromoted {
                color: black,
                promoted: 1,
                pawns: 8,
            },
        ),
        // Five queens and five pawns: 4 promoted, 3 pawns missing.
        (
            "k7/8/8/8/8/8/PPPPP3/QQQQKQRR w - - 0 1",
            FenError::TooManyPromoted {
                color: white,
                promoted: 4,
                pawns: 5,
            },
        ),
    ];
    for (fen, expected) in cases {
        let e = Board::from_fen(fen).expect_err(fen);
        assert_eq!(&e, expected, "{fen}");
        assert!(!e.to_string().is_empty());
    }
    // At the limits: the 218-move record (nine queens), four promotions for four missing pawns.
    for fen in [
        "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
        "k7/8/8/8/8/8/PPPP4/QQQQKQRR w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ] {
        Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    }
    let record = board("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1");
    assert_eq!(record.legal_moves().len(), 218);
    assert_eq!(record.count_legal_moves(), 218);
}

#[test]
fn four_field_fen_and_shredder_castling_load() {
    let four = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    assert_eq!(four.to_fen(), Board::startpos().to_fen());
    let shredder = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    assert_eq!(shredder.to_fen(), Board::startpos().to_fen());
    assert_eq!(shredder.hash(), Board::startpos().hash());
}
