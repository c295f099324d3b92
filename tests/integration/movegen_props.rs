//! Properties of the move generator over many random-game positions, each checked against an
//! independent slow implementation or against another part of the library.

use crate::common;

use crate::common::for_random_positions;
use escaque::board::{Board, MoveList};
use escaque::types::{Color, Move, PieceType, Square};

/// Whether `by` attacks `target`, by looking at the mailbox and walking rays square by square:
/// shares no code with the bitboard attack tables.
fn slow_is_attacked(board: &Board, target: Square, by: Color) -> bool {
    let (tf, tr) = (target.file().index() as i32, target.rank().index() as i32);
    let piece_at = |f: i32, r: i32| {
        ((0..8).contains(&f) && (0..8).contains(&r))
            .then(|| board.piece_on(Square::new((r * 8 + f) as u8)))
            .flatten()
    };
    let is = |f, r, kinds: &[PieceType]| {
        piece_at(f, r).is_some_and(|p| p.color() == by && kinds.contains(&p.piece_type()))
    };
    let pawn_dir = if by == Color::White { -1 } else { 1 };
    if is(tf - 1, tr + pawn_dir, &[PieceType::Pawn])
        || is(tf + 1, tr + pawn_dir, &[PieceType::Pawn])
    {
        return true;
    }
    let knight = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    if knight
        .iter()
        .any(|&(df, dr)| is(tf + df, tr + dr, &[PieceType::Knight]))
    {
        return true;
    }
    for df in -1..=1 {
        for dr in -1..=1 {
            if (df, dr) != (0, 0) && is(tf + df, tr + dr, &[PieceType::King]) {
                return true;
            }
            if (df, dr) == (0, 0) {
                continue;
            }
            let sliders: &[PieceType] = if df == 0 || dr == 0 {
                &[PieceType::Rook, PieceType::Queen]
            } else {
                &[PieceType::Bishop, PieceType::Queen]
            };
            let (mut f, mut r) = (tf + df, tr + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                if let Some(p) = piece_at(f, r) {
                    if p.color() == by && sliders.contains(&p.piece_type()) {
                        return true;
                    }
                    break;
                }
                f += df;
                r += dr;
            }
        }
    }
    false
}

fn king_square(board: &Board, color: Color) -> Square {
    Square::all()
        .find(|&sq| {
            board
                .piece_on(sq)
                .is_some_and(|p| p.color() == color && p.piece_type() == PieceType::King)
        })
        .unwrap()
}

#[test]
fn generated_moves_are_legal_by_slow_check() {
    let mut positions = 0;
    for_random_positions(1, 400, 120, |board| {
        positions += 1;
        let us = board.side_to_move();
        assert_eq!(
            board.in_check(),
            slow_is_attacked(board, king_square(board, us), !us),
            "{}",
            board.to_fen()
        );
        for mv in board.legal_moves() {
            let piece = board.piece_on(mv.from()).expect("moves start from a piece");
            assert_eq!(piece.color(), us);
            if !mv.is_castle() {
                assert!(
                    board.piece_on(mv.to()).is_none_or(|p| p.color() != us),
                    "{mv:?}"
                );
            }
            let after = board.make_move(mv);
            assert!(
                !slow_is_attacked(&after, king_square(&after, us), !us),
                "{mv:?} leaves the king attacked in {}",
                board.to_fen()
            );
        }
    });
    assert!(positions > 20_000);
}

#[test]
fn noisy_plus_quiets_equals_all_and_counts_agree() {
    for_random_positions(2, 300, 100, |board| {
        let mut noisy = MoveList::new();
        let mut quiets = MoveList::new();
        board.generate_noisy(&mut noisy);
        board.generate_quiets(&mut quiets);
        assert!(noisy.iter().all(|m| m.is_noisy()));
        assert!(quiets.iter().all(|m| !m.is_noisy()));
        let mut split: Vec<u16> = noisy
            .iter()
            .chain(quiets.iter())
            .map(|m| m.bits())
            .collect();
        let mut all: Vec<u16> = board.legal_moves().iter().map(|m| m.bits()).collect();
        split.sort_unstable();
        all.sort_unstable();
        assert_eq!(split, all, "{}", board.to_fen());
        assert_eq!(board.count_legal_moves() as usize, all.len());
        assert_eq!(board.has_legal_moves(), !all.is_empty());
    });
}

#[test]
fn incremental_key_equals_recomputed_key() {
    for_random_positions(3, 300, 150, |board| {
        assert_eq!(board.hash(), board.compute_hash(), "{}", board.to_fen());
        if !board.in_check() {
            let null = board.make_null_move();
            assert_eq!(null.hash(), null.compute_hash());
            assert_ne!(null.hash(), board.hash());
        }
    });
}

#[test]
fn fen_round_trips() {
    for_random_positions(4, 300, 150, |board| {
        let fen = board.to_fen();
        let again = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(again.to_fen(), fen);
        assert_eq!(again.hash(), board.hash(), "{fen}");
        assert_eq!(
            again.count_legal_moves(),
            board.count_legal_moves(),
            "{fen}"
        );
    });
}

#[test]
fn is_legal_accepts_exactly_the_generated_moves() {
    // Moves collected from other positions make a pool of plausible but mostly illegal moves.
    let mut pool: Vec<Move> = Vec::new();
    for_random_positions(5, 50, 60, |board| pool.extend(board.legal_moves()));
    pool.sort_unstable_by_key(|m| m.bits());
    pool.dedup();
    for_random_positions(6, 60, 80, |board| {
        let legal = board.legal_moves();
        for &mv in &pool {
            assert_eq!(
                board.is_legal(mv),
                legal.contains(&mv),
                "{mv:?} in {}",
                board.to_fen()
            );
        }
    });
}

#[test]
fn uci_notation_round_trips() {
    for_random_positions(7, 200, 100, |board| {
        for mv in board.legal_moves() {
            for chess960 in [false, true] {
                let text = board.move_to_uci(mv, chess960);
                assert_eq!(
                    board.parse_uci_move(&text, chess960),
                    Ok(mv),
                    "{text} in {}",
                    board.to_fen()
                );
            }
        }
    });
}

/// The back rank of Chess960 start position `n` (0..960, Scharnagl's numbering).
fn chess960_back_rank(mut n: usize) -> [char; 8] {
    let mut rank = [' '; 8];
    rank[2 * (n % 4) + 1] = 'b';
    n /= 4;
    rank[2 * (n % 4)] = 'b';
    n /= 4;
    let mut place = |piece: char, mut index: usize| {
        for slot in rank.iter_mut().filter(|c| **c == ' ') {
            if index == 0 {
                *slot = piece;
                return;
            }
            index -= 1;
        }
    };
    place('q', n % 6);
    n /= 6;
    let (k1, k2) = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ][n];
    place('n', k2);
    place('n', k1);
    for piece in ['r', 'k', 'r'] {
        place(piece, 0);
    }
    rank
}

/// Every move text the engine prints reads back as the same move, in every Chess960 start
/// position and the games played from it, whatever `UCI_Chess960` says. Issue 13: with the
/// option off, castling by a king off the e-file was written king-to-destination (`b1c1` for
/// king b1, rook a1), the text of a king step, so a GUI replaying `bestmove` got another move.
#[test]
fn chess960_notation_round_trips_with_either_setting() {
    let mut rng = common::Rng::new(960);
    let mut castles = [0usize; 2];
    for n in 0..960 {
        let back: String = chess960_back_rank(n).iter().collect();
        let files: String = back
            .char_indices()
            .filter(|&(_, c)| c == 'r')
            .map(|(i, _)| (b'a' + i as u8) as char)
            .collect();
        let fen = format!(
            "{back}/pppppppp/8/8/8/8/PPPPPPPP/{} w {}{files} - 0 1",
            back.to_uppercase(),
            files.to_uppercase()
        );
        let mut board = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for _ in 0..40 {
            let moves = board.legal_moves();
            for &mv in &moves {
                for chess960 in [false, true] {
                    let text = board.move_to_uci(mv, chess960);
                    assert_eq!(
                        board.parse_uci_move(&text, chess960),
                        Ok(mv),
                        "{text} (UCI_Chess960 {chess960}) in {}",
                        board.to_fen()
                    );
                    if mv.is_castle() {
                        castles[usize::from(chess960)] += 1;
                    }
                }
            }
            if moves.is_empty() {
                break;
            }
            // Castle whenever possible, otherwise clear the back rank quickly.
            let mv = moves
                .iter()
                .copied()
                .find(|m| m.is_castle() && rng.below(2) == 0)
                .unwrap_or_else(|| moves[rng.below(moves.len())]);
            board = board.make_move(mv);
        }
    }
    assert!(castles[0] > 1000, "only {castles:?} castling moves checked");
}
