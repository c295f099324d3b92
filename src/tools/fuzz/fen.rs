//! FEN fuzzing: [`generate`] makes a FEN (a real or random-game position, a structured random
//! one, random tokens, each possibly mutated); [`check`] parses it and, when the parser accepts
//! it, checks the board it built: its key, its FEN round trip, move generation (at most 218
//! moves, the list and the counters agreeing, every move legal and its text reading back), every
//! child position (key, FEN round trip), perft 2 against the children's move lists, the null
//! move, the game-end rules and both evaluations.

use std::sync::Arc;

use super::{mutate, run_cases, set_context, CaseResult, Config, Problem, Rng, Summary, Target};
use crate::board::{Board, Game, START_FEN};
use crate::nnue::Network;
use crate::types::Move;

/// Positions the generators start from: the standard perft positions, Chess960 and
/// Shredder-FEN castling, en passant (legal, pinned, and impossible), promotions, the
/// 218-move position, clocks at their limits, and every FEN from issue 13's crash list.
pub const CORPUS: &[&str] = &[
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "1rkr3b/1ppn3p/3pB1n1/6q1/R2P4/4N1P1/1P5P/2KRQ1B1 b Dbd - 0 14",
    "rbbknnqr/pppppppp/8/8/8/8/PPPPPPPP/RBBKNNQR w HAha - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
    "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - -",
    "5k2/8/8/8/8/8/8/1R3KR1 w GB - 0 1",
    "1k6/8/8/8/8/8/8/RK5R w HA - 0 1",
    "6k1/8/8/8/8/8/8/R5KR w HA - 0 1",
    // Issue 13: more than 256 legal moves (refused as unreachable material), saturated
    // counters, and Chess960 castling with the option off.
    "QQQQQQrk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
    "kqqqqqqq/q6q/q6q/q6q/q3q3/q4Nqq/q4qnn/qqqq1qnK w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 b - - 65535 65535",
    "r3k2r/8/8/8/8/8/8/RK5R w AHkq - 0 1",
];

/// Tokens the mutators insert into FENs.
const TOKENS: &[&str] = &[
    "w",
    "b",
    "W",
    "B",
    "-",
    "--",
    "KQkq",
    "K",
    "Qk",
    "kq",
    "KQkqKQkq",
    "HAha",
    "AHah",
    "Hh",
    "Bb",
    "GB",
    "e3",
    "e6",
    "a3",
    "h6",
    "d3",
    "c6",
    "e4",
    "i9",
    "/",
    "8",
    "9",
    "0",
    "44",
    "8/8/8/8/8/8/8/8",
    "rnbqkbnr",
    "PPPPPPPP",
    "k7",
    "K7",
    "é",
    "ｗ",
    "\u{0}",
    "\t",
    "",
];

/// Runs a FEN campaign.
pub fn run(config: &Config) -> Summary {
    let net = Network::default_network();
    run_cases(Target::Fen, config, |_, rng| {
        let fen = generate(rng);
        set_context(Target::Fen, Some(fen.clone()));
        let mut result = CaseResult {
            inputs: 1,
            ..CaseResult::default()
        };
        match check(&fen, rng, &net) {
            Ok(accepted) => result.accepted = u64::from(accepted),
            Err(message) => {
                result.problem = Some(Problem {
                    input: fen,
                    message,
                })
            }
        }
        result
    })
}

/// A FEN to try: valid, nearly valid or garbage.
pub fn generate(rng: &mut Rng) -> String {
    let base = match rng.below(20) {
        0 => rng.pick(CORPUS).to_string(),
        1 => (0..rng.below(9))
            .map(|_| {
                if rng.one_in(3) {
                    rng.pick(super::NUMBERS).to_string()
                } else {
                    rng.pick(TOKENS).to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" "),
        2..=8 => random_game_fen(rng),
        _ => random_fen(rng),
    };
    // A third unchanged (the checks on accepted boards need valid input), the rest edited.
    let edits = if rng.one_in(3) { 0 } else { 1 + rng.below(4) };
    let mut fen = base;
    for _ in 0..edits {
        fen = mutate(rng, &fen, TOKENS);
    }
    fen
}

/// A position from a random game out of one of the corpus positions, biased towards captures,
/// promotions and castling so the rare rules come up.
pub fn random_game_fen(rng: &mut Rng) -> String {
    random_game(rng, 60).to_fen()
}

/// The board after up to `max_plies` random moves from a corpus position.
pub fn random_game(rng: &mut Rng, max_plies: usize) -> Board {
    let mut board = loop {
        if let Ok(board) = Board::from_fen(rng.pick::<&str>(CORPUS)) {
            break board;
        }
    };
    for _ in 0..rng.below(max_plies + 1) {
        let moves = board.legal_moves();
        if moves.is_empty() {
            break;
        }
        let special: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.is_capture() || m.is_promotion() || m.is_castle())
            .collect();
        let mv = if !special.is_empty() && rng.one_in(3) {
            *rng.pick(&special)
        } else {
            *rng.pick(&moves)
        };
        board = board.make_move(mv);
    }
    board
}

/// A FEN built field by field: random placement (usually one king a side, often with rooks and
/// king on the back rank so castling rights can hold, pawns sometimes on the back rank),
/// random castling letters (KQkq and Shredder files), en-passant square and counters.
pub fn random_fen(rng: &mut Rng) -> String {
    let mut squares: [Option<char>; 64] = [None; 64];
    let empty_square = |rng: &mut Rng, squares: &[Option<char>; 64], ranks: &[usize]| {
        for _ in 0..64 {
            let sq = rng.pick(ranks) * 8 + rng.below(8);
            if squares[sq].is_none() {
                return Some(sq);
            }
        }
        None
    };
    for (king, back_rank) in [('K', 0), ('k', 7)] {
        let count = match rng.below(60) {
            0 => 0,
            1 => 2,
            _ => 1,
        };
        for _ in 0..count {
            let ranks: Vec<usize> = if rng.one_in(2) {
                vec![back_rank]
            } else {
                (0..8).collect()
            };
            if let Some(sq) = empty_square(rng, &squares, &ranks) {
                squares[sq] = Some(king);
            }
        }
        // Rooks on the back rank: castling rights may name them.
        for _ in 0..rng.below(3) {
            if let Some(sq) = empty_square(rng, &squares, &[back_rank]) {
                squares[sq] = Some(if king == 'K' { 'R' } else { 'r' });
            }
        }
    }
    let most = if rng.one_in(8) { 40 } else { 20 };
    let pieces = rng.below(most);
    for _ in 0..pieces {
        let piece = *rng.pick(&[
            'P', 'P', 'P', 'N', 'B', 'R', 'Q', 'p', 'p', 'p', 'n', 'b', 'r', 'q',
        ]);
        let ranks: Vec<usize> = if piece.eq_ignore_ascii_case(&'p') && !rng.one_in(40) {
            (1..7).collect()
        } else {
            (0..8).collect()
        };
        if let Some(sq) = empty_square(rng, &squares, &ranks) {
            squares[sq] = Some(piece);
        }
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match squares[rank * 8 + file] {
                Some(piece) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(piece);
                }
                // Sometimes split a run of empty squares ("11" for "2"): still a valid FEN.
                None if empty > 0 && rng.one_in(16) => {
                    fen.push_str(&empty.to_string());
                    empty = 1;
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let white = rng.one_in(2);
    fen.push_str(if white { " w " } else { " b " });
    match rng.below(6) {
        0 | 1 => fen.push('-'),
        // Rights that may hold: K/Q or the file of a rook on the back rank of a side whose
        // king stands there too.
        2..=4 => {
            let mut rights = String::new();
            for (king, rook, rank) in [('K', 'R', 0), ('k', 'r', 7)] {
                let Some(king_file) = (0..8).find(|&f| squares[rank * 8 + f] == Some(king)) else {
                    continue;
                };
                let mut sides = [false; 2];
                for file in 0..8 {
                    let side = usize::from(file > king_file);
                    if squares[rank * 8 + file] == Some(rook) && !sides[side] && rng.one_in(2) {
                        sides[side] = true;
                        let letter = match (rng.below(3), side) {
                            (0, _) => (b'a' + file as u8) as char,
                            (_, 0) => 'q',
                            _ => 'k',
                        };
                        rights.push(if king == 'K' {
                            letter.to_ascii_uppercase()
                        } else {
                            letter
                        });
                    }
                }
            }
            fen.push_str(if rights.is_empty() { "-" } else { &rights });
        }
        _ => {
            const RIGHTS: &[u8] = b"KQkqKQkqABCDEFGHabcdefgh";
            for _ in 0..1 + rng.below(4) {
                fen.push(*rng.pick(RIGHTS) as char);
            }
        }
    }
    fen.push(' ');
    // En passant: usually none; otherwise behind a pawn that may just have moved two squares,
    // or anywhere.
    let (pawn, rank, behind, origin) = if white {
        ('p', 4, 5, 6)
    } else {
        ('P', 3, 2, 1)
    };
    let pushed: Vec<usize> = (0..8)
        .filter(|&f| {
            squares[rank * 8 + f] == Some(pawn)
                && squares[behind * 8 + f].is_none()
                && squares[origin * 8 + f].is_none()
        })
        .collect();
    if !rng.one_in(3) {
        fen.push('-');
    } else if !pushed.is_empty() && !rng.one_in(4) {
        fen.push((b'a' + *rng.pick(&pushed) as u8) as char);
        fen.push((b'1' + behind as u8) as char);
    } else {
        fen.push((b'a' + rng.below(8) as u8) as char);
        fen.push((b'1' + rng.below(8) as u8) as char);
    }
    if !rng.one_in(8) {
        let counter = |rng: &mut Rng| {
            if rng.one_in(12) {
                rng.pick(super::NUMBERS).to_string()
            } else {
                rng.range(0, 120).to_string()
            }
        };
        let half = counter(rng);
        let full = counter(rng);
        fen.push_str(&format!(" {half} {full}"));
    }
    fen
}

/// Parses `fen`; if the parser accepts it, checks the board (see the module comment). `Ok`
/// says whether it was accepted, `Err` what invariant broke.
pub fn check(fen: &str, rng: &mut Rng, net: &Arc<Network>) -> Result<bool, String> {
    match Board::from_fen(fen) {
        Ok(board) => check_board(&board, rng, net).map(|()| true),
        Err(_) => Ok(false),
    }
}

/// Whether two boards are the same position: FEN (placement, side, rights, en passant,
/// counters), key, checkers and pins.
fn same(a: &Board, b: &Board) -> bool {
    a.to_fen() == b.to_fen()
        && a.hash() == b.hash()
        && a.checkers() == b.checkers()
        && a.pinned() == b.pinned()
}

/// The board's key and FEN: the key matches one computed from scratch, and the FEN reads back
/// as the same board (with 6 fields, and with 4, which keeps the position and its key).
fn check_consistent(board: &Board, what: &str) -> Result<(), String> {
    if board.hash() != board.compute_hash() {
        return Err(format!(
            "{what}: key {:016x} differs from the recomputed {:016x}",
            board.hash(),
            board.compute_hash()
        ));
    }
    let fen = board.to_fen();
    let again = Board::from_fen(&fen)
        .map_err(|e| format!("{what}: to_fen gives '{fen}', which from_fen refuses: {e}"))?;
    if !same(board, &again) {
        return Err(format!(
            "{what}: '{fen}' reads back as a different board '{}'",
            again.to_fen()
        ));
    }
    let four: Vec<&str> = fen.split(' ').take(4).collect();
    let four = four.join(" ");
    match Board::from_fen(&four) {
        Ok(b) if b.hash() == board.hash() && b.to_fen().starts_with(&four) => Ok(()),
        Ok(b) => Err(format!(
            "{what}: 4-field '{four}' reads as '{}'",
            b.to_fen()
        )),
        Err(e) => Err(format!("{what}: 4-field '{four}' refused: {e}")),
    }
}

/// The checks on an accepted board.
pub fn check_board(board: &Board, rng: &mut Rng, net: &Arc<Network>) -> Result<(), String> {
    check_consistent(board, "the parsed board")?;
    let moves = board.legal_moves();
    if moves.len() > 218 {
        return Err(format!("{} legal moves (218 is the most)", moves.len()));
    }
    if board.count_legal_moves() != moves.len() as u64
        || board.has_legal_moves() == moves.is_empty()
    {
        return Err(format!(
            "{} moves listed, {} counted, has_legal_moves {}",
            moves.len(),
            board.count_legal_moves(),
            board.has_legal_moves()
        ));
    }
    let (mut noisy, mut quiets) = (crate::board::MoveList::new(), crate::board::MoveList::new());
    board.generate_noisy(&mut noisy);
    board.generate_quiets(&mut quiets);
    if noisy.len() + quiets.len() != moves.len() {
        return Err(format!(
            "{} noisy + {} quiet moves, but {} in all",
            noisy.len(),
            quiets.len(),
            moves.len()
        ));
    }
    let mut leaves = 0u64;
    for &mv in &moves {
        let name = board.move_to_uci(mv, true);
        if !board.is_legal(mv) {
            return Err(format!("generated move {name} is not is_legal"));
        }
        for chess960 in [false, true] {
            let text = board.move_to_uci(mv, chess960);
            if board.parse_uci_move(&text, chess960) != Ok(mv) {
                return Err(format!(
                    "move {name} written '{text}' (chess960 {chess960}) does not read back"
                ));
            }
        }
        let child = board.make_move(mv);
        check_consistent(&child, &format!("after {name}"))?;
        let replies = child.legal_moves().len();
        if replies > 218 || child.count_legal_moves() != replies as u64 {
            return Err(format!(
                "after {name}: {replies} moves listed, {} counted",
                child.count_legal_moves()
            ));
        }
        leaves += replies as u64;
    }
    let perft = crate::perft::perft(board, 2);
    if perft != leaves {
        return Err(format!(
            "perft 2 gives {perft}, the children's move lists {leaves}"
        ));
    }
    // Arbitrary move text: whatever parses must be one of the legal moves.
    for _ in 0..4 {
        let text = random_move_text(rng, board, &moves);
        for chess960 in [false, true] {
            if let Ok(mv) = board.parse_uci_move(&text, chess960) {
                if !moves.contains(&mv) {
                    return Err(format!("'{text}' parses as a move that is not legal"));
                }
            }
        }
    }
    if !board.in_check() {
        check_consistent(&board.make_null_move(), "after a null move")?;
    }
    let _ = Game::new(*board).outcome();
    let _ = (board.is_insufficient_material(), board.is_fifty_move_draw());
    let _ = (board.diagram(), board.has_chess960_castling());
    let (hce, nnue) = (
        crate::hce::evaluate(board),
        crate::nnue::evaluate_board(net, board),
    );
    if hce.abs() > 100_000 || nnue.abs() > 100_000 {
        return Err(format!("evaluations out of range: {hce} cp, {nnue} cp"));
    }
    Ok(())
}

/// Move text to try on `board`: a legal move's text, edited or not, or random squares and
/// letters.
fn random_move_text(rng: &mut Rng, board: &Board, moves: &[Move]) -> String {
    let legal = |rng: &mut Rng| match moves.is_empty() {
        true => "e2e4".to_string(),
        false => board.move_to_uci(*rng.pick(moves), rng.one_in(2)),
    };
    match rng.below(4) {
        0 => legal(rng),
        1 => {
            let text = legal(rng);
            mutate(rng, &text, &["q", "n", "k", "p", "0000", "e1g1", "e1h1"])
        }
        2 => {
            let mut text = String::new();
            for _ in 0..2 {
                text.push((b'a' + rng.below(8) as u8) as char);
                text.push((b'1' + rng.below(8) as u8) as char);
            }
            if rng.one_in(3) {
                text.push(*rng.pick(&['q', 'r', 'b', 'n', 'k', 'p', 'Q', 'N', 'x']));
            }
            text
        }
        _ => rng
            .pick(&[
                "0000", "", "e2", "e2e4e5", "e1g1", "e1c1", "e1h1", "e1a1", "é2e4", "e7e8K",
            ])
            .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every corpus position the parser accepts passes the checks; issue 13's unreachable
    /// positions are refused.
    #[test]
    fn the_corpus_passes_the_checks() {
        let net = Network::default_network();
        let mut rng = Rng::new(1);
        let mut accepted = 0;
        for fen in CORPUS {
            let ok = check(fen, &mut rng, &net).unwrap_or_else(|e| panic!("{fen}: {e}"));
            accepted += usize::from(ok);
        }
        assert_eq!(accepted, CORPUS.len() - 2);
        for fen in &CORPUS[CORPUS.len() - 4..CORPUS.len() - 2] {
            assert!(!check(fen, &mut rng, &net).unwrap());
        }
    }

    /// The generators give accepted and refused FENs both, and random boards the parser takes.
    #[test]
    fn generators_mix_valid_and_invalid_fens() {
        let mut rng = Rng::new(2);
        let accepted = (0..2000)
            .filter(|_| Board::from_fen(&generate(&mut rng)).is_ok())
            .count();
        assert!((200..1800).contains(&accepted), "{accepted}");
        let random = (0..2000)
            .filter(|_| Board::from_fen(&random_fen(&mut rng)).is_ok())
            .count();
        assert!(random > 200, "{random}");
    }
}
