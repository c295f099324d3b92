//! The hand-crafted evaluation (HCE), the fallback when `Use NNUE` is off (the network in
//! `crate::nnue` is the one that plays; `crate::evaluation` chooses): a tapered
//! (middlegame/endgame) sum of linear terms whose weights are indexed through [`params`] (values
//! tuned into `weights.rs`), followed by endgame scaling for drawish material, which the network's
//! score gets too ([`scale_known_draw`]). The same code, run with a recording [`Tracer`], feeds
//! `hce::trace` (the UCI `eval` command) and the Texel tuner.

pub mod params;
mod weights;

/// The weights the engine plays with: the tuned table in `weights.rs`.
pub use weights::PARAMS;

use std::fmt::Write as _;

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::board::Board;
use crate::types::{Bitboard, Color, PieceType, Square};
use params::S;

/// The game phase at the start: knights and bishops count 1, rooks 2, queens 4.
pub const MAX_PHASE: i32 = 24;
/// Endgame scale factors are out of this.
pub const SCALE_NORMAL: i32 = 128;

/// Receives each term the evaluation adds: weight `index`, for `color`, `count` times.
pub trait Tracer {
    fn add(&mut self, index: usize, color: Color, count: i32);
}

/// The tracer the engine uses: records nothing, compiles to nothing.
pub struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: usize, _: Color, _: i32) {}
}

/// Records, per weight, how often each colour used it.
pub struct CoefficientTrace {
    pub counts: Vec<[i32; 2]>,
}

impl Default for CoefficientTrace {
    fn default() -> Self {
        CoefficientTrace {
            counts: vec![[0; 2]; params::NUM_PARAMS],
        }
    }
}

impl Tracer for CoefficientTrace {
    fn add(&mut self, index: usize, color: Color, count: i32) {
        self.counts[index][color.index()] += count;
    }
}

/// The parts of an evaluation before they are blended into one number.
#[derive(Copy, Clone, Debug)]
pub struct EvalParts {
    /// Sum of all terms, White's point of view.
    pub score: S,
    /// 0 (bare kings and pawns) ..= [`MAX_PHASE`] (all pieces on).
    pub phase: i32,
    /// Scale applied to the endgame half, out of [`SCALE_NORMAL`].
    pub scale: i32,
}

impl EvalParts {
    /// The blended score from White's point of view.
    #[inline]
    pub fn blend(&self) -> i32 {
        // A scale of zero marks a known draw (e.g. two knights against a bare king).
        if self.scale == 0 {
            return 0;
        }
        let mg = self.score.0 * self.phase;
        let eg = self.score.1 * (MAX_PHASE - self.phase) * self.scale / SCALE_NORMAL;
        (mg + eg) / MAX_PHASE
    }
}

/// The evaluation in centipawns from the side to move's point of view.
#[inline]
pub fn evaluate(board: &Board) -> i32 {
    let white = evaluate_parts(board, &mut NoTrace).blend();
    white * board.side_to_move().sign()
}

const fn build_masks() -> ([[u64; 64]; 2], [[u64; 64]; 2], [u64; 8]) {
    let mut passed = [[0u64; 64]; 2];
    let mut forward = [[0u64; 64]; 2];
    let mut adjacent = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        if f > 0 {
            adjacent[f] |= 0x0101_0101_0101_0101 << (f - 1);
        }
        if f < 7 {
            adjacent[f] |= 0x0101_0101_0101_0101 << (f + 1);
        }
        f += 1;
    }
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        let mut other = 0;
        while other < 64 {
            let (of, or) = (other % 8, other / 8);
            let near = of + 1 >= file && of <= file + 1;
            if or > rank {
                if near {
                    passed[0][sq] |= 1 << other;
                }
                if of == file {
                    forward[0][sq] |= 1 << other;
                }
            }
            if or < rank {
                if near {
                    passed[1][sq] |= 1 << other;
                }
                if of == file {
                    forward[1][sq] |= 1 << other;
                }
            }
            other += 1;
        }
        sq += 1;
    }
    (passed, forward, adjacent)
}

const MASKS: ([[u64; 64]; 2], [[u64; 64]; 2], [u64; 8]) = build_masks();
/// Squares in front of a pawn on its own and the adjacent files.
static PASSED_MASK: [[u64; 64]; 2] = MASKS.0;
/// Squares in front of a pawn on its own file.
static FORWARD_FILE: [[u64; 64]; 2] = MASKS.1;
/// The files beside a file.
static ADJACENT_FILES: [u64; 8] = MASKS.2;

#[inline(always)]
fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    df.max(dr)
}

struct Acc<'t, T: Tracer> {
    score: S,
    tracer: &'t mut T,
}

impl<T: Tracer> Acc<'_, T> {
    #[inline(always)]
    fn term(&mut self, color: Color, index: usize, count: i32) {
        self.score += PARAMS[index] * (count * color.sign());
        self.tracer.add(index, color, count);
    }
}

/// Runs every evaluation term, reporting each to `tracer`.
pub fn evaluate_parts<T: Tracer>(board: &Board, tracer: &mut T) -> EvalParts {
    use params::*;
    let mut acc = Acc {
        score: S(0, 0),
        tracer,
    };
    let occupied = board.occupied();
    let pawns = [
        board.pieces_of(Color::White, PieceType::Pawn),
        board.pieces_of(Color::Black, PieceType::Pawn),
    ];
    let pawn_att = [
        pawns[0].pawn_attacks(Color::White),
        pawns[1].pawn_attacks(Color::Black),
    ];
    let kings = [board.king(Color::White), board.king(Color::Black)];
    let king_zone = [
        king_attacks(kings[0]).with(kings[0]),
        king_attacks(kings[1]).with(kings[1]),
    ];
    // attacked[color][0] = all attacks; [1] = by minors; [2] = by rooks.
    let mut attacked = [
        [pawn_att[0], Bitboard::EMPTY, Bitboard::EMPTY],
        [pawn_att[1], Bitboard::EMPTY, Bitboard::EMPTY],
    ];

    for color in Color::ALL {
        let c = color.index();
        let them = !color;
        let ours = board.colored(color);
        let safe = !ours & !pawn_att[them.index()];
        let enemy_zone = king_zone[them.index()];

        for pt in PieceType::ALL {
            for sq in board.pieces_of(color, pt) {
                acc.term(color, MATERIAL + pt.index(), 1);
                acc.term(
                    color,
                    PST + pt.index() * 64 + sq.relative_to(color).index(),
                    1,
                );
                let att = match pt {
                    PieceType::Pawn | PieceType::King => continue,
                    PieceType::Knight => knight_attacks(sq),
                    PieceType::Bishop => bishop_attacks(sq, occupied),
                    PieceType::Rook => rook_attacks(sq, occupied),
                    PieceType::Queen => bishop_attacks(sq, occupied) | rook_attacks(sq, occupied),
                };
                let mobility = (att & safe).count() as usize;
                let index = match pt {
                    PieceType::Knight => MOB_KNIGHT + mobility.min(8),
                    PieceType::Bishop => MOB_BISHOP + mobility.min(13),
                    PieceType::Rook => MOB_ROOK + mobility.min(14),
                    _ => MOB_QUEEN + mobility.min(27),
                };
                acc.term(color, index, 1);
                let zone_hits = (att & enemy_zone).count() as i32;
                if zone_hits > 0 {
                    acc.term(color, KING_ATTACK + pt.index(), zone_hits);
                }
                attacked[c][0] |= att;
                match pt {
                    PieceType::Knight | PieceType::Bishop => attacked[c][1] |= att,
                    PieceType::Rook => attacked[c][2] |= att,
                    _ => {}
                }
            }
        }
        attacked[c][0] |= king_attacks(kings[c]);

        // Pawn structure.
        let own_pawns = pawns[c];
        let their_pawns = pawns[them.index()];
        for sq in own_pawns {
            let rr = sq.rank().relative_to(color).index();
            let file = sq.file().index();
            let adjacent = Bitboard(ADJACENT_FILES[file]);
            let ahead_adjacent = Bitboard(PASSED_MASK[c][sq.index()]) & adjacent;
            let stop = sq.forward(color);
            if (Bitboard(FORWARD_FILE[c][sq.index()]) & own_pawns).is_nonempty() {
                acc.term(color, DOUBLED, 1);
            } else if (Bitboard(PASSED_MASK[c][sq.index()]) & their_pawns).is_empty() {
                acc.term(color, PASSED + rr, 1);
                if !occupied.has(stop) {
                    acc.term(color, PASSED_FREE + rr, 1);
                }
                let weight = rr.saturating_sub(2) as i32;
                if weight > 0 {
                    let dist = distance(kings[them.index()], stop) - distance(kings[c], stop);
                    acc.term(color, PASSED_KING_DIST, dist * weight);
                }
            }
            if (adjacent & own_pawns).is_empty() {
                acc.term(color, ISOLATED, 1);
            } else if (adjacent & !ahead_adjacent & own_pawns).is_empty()
                && (pawn_attacks(color, stop) & their_pawns).is_nonempty()
            {
                acc.term(color, BACKWARD, 1);
            }
            let supported = (pawn_attacks(them, sq) & own_pawns).is_nonempty();
            let phalanx = (adjacent & Bitboard::rank(sq.rank()) & own_pawns).is_nonempty();
            if supported || phalanx {
                acc.term(color, CONNECTED + rr, 1);
            }
        }

        // King shelter.
        let king = kings[c];
        let kf = king.file().index();
        let shield_files = Bitboard(ADJACENT_FILES[kf]) | Bitboard::file(king.file());
        let kr = king.rank().relative_to(color).index();
        if kr < 6 {
            let rank1 = Bitboard::relative_rank(color, (kr + 1) as u8);
            let rank2 = Bitboard::relative_rank(color, (kr + 2) as u8);
            let near = (own_pawns & shield_files & rank1).count() as i32;
            let far = (own_pawns & shield_files & rank2).count() as i32;
            if near > 0 {
                acc.term(color, KING_SHIELD, near);
            }
            if far > 0 {
                acc.term(color, KING_SHIELD + 1, far);
            }
        }
        if (Bitboard::file(king.file()) & own_pawns).is_empty() {
            acc.term(color, KING_OPEN_FILE, 1);
        }

        // Rooks on open and half-open files.
        for sq in board.pieces_of(color, PieceType::Rook) {
            let file = Bitboard::file(sq.file());
            if (file & own_pawns).is_empty() {
                if (file & their_pawns).is_empty() {
                    acc.term(color, ROOK_OPEN, 1);
                } else {
                    acc.term(color, ROOK_SEMI_OPEN, 1);
                }
            }
        }
        if board.pieces_of(color, PieceType::Bishop).has_many() {
            acc.term(color, BISHOP_PAIR, 1);
        }
    }

    // Threats: needs both sides' attack maps.
    for color in Color::ALL {
        let c = color.index();
        let them = !color;
        for pt in PieceType::NON_KING {
            let targets = board.pieces_of(them, pt);
            if targets.is_empty() {
                continue;
            }
            if pt != PieceType::Pawn {
                let by_pawn = (targets & pawn_att[c]).count() as i32;
                if by_pawn > 0 {
                    acc.term(color, THREAT_BY_PAWN + pt.index(), by_pawn);
                }
            }
            let by_minor = (targets & attacked[c][1]).count() as i32;
            if by_minor > 0 {
                acc.term(color, THREAT_BY_MINOR + pt.index(), by_minor);
            }
            let by_rook = (targets & attacked[c][2]).count() as i32;
            if by_rook > 0 {
                acc.term(color, THREAT_BY_ROOK + pt.index(), by_rook);
            }
        }
        let pieces =
            board.colored(them) & !board.pieces(PieceType::Pawn) & !board.pieces(PieceType::King);
        let hanging = (pieces & attacked[c][0] & !attacked[them.index()][0]).count() as i32;
        if hanging > 0 {
            acc.term(color, HANGING, hanging);
        }
    }
    acc.term(board.side_to_move(), TEMPO, 1);

    let phase = (board.pieces(PieceType::Knight).count()
        + board.pieces(PieceType::Bishop).count()
        + 2 * board.pieces(PieceType::Rook).count()
        + 4 * board.pieces(PieceType::Queen).count())
    .min(MAX_PHASE as u32) as i32;
    let score = acc.score;
    let scale = endgame_scale(
        board,
        if score.1 >= 0 {
            Color::White
        } else {
            Color::Black
        },
    );
    EvalParts {
        score,
        phase,
        scale,
    }
}

/// `score` (side to move's view), or 0 when the side it favours cannot win whatever the rest of
/// the board (two knights or a lone minor against a bare king): the evaluation of record for
/// these, whatever evaluator produced `score`.
#[inline]
pub fn scale_known_draw(board: &Board, score: i32) -> i32 {
    let stm = board.side_to_move();
    let strong = if score >= 0 { stm } else { !stm };
    if board.pieces_of(strong, PieceType::Pawn).is_empty() && endgame_scale(board, strong) == 0 {
        0
    } else {
        score
    }
}

/// Non-pawn material in pawn units (3, 3, 5, 9).
fn non_pawn_material(board: &Board, color: Color) -> i32 {
    3 * (board.pieces_of(color, PieceType::Knight).count()
        + board.pieces_of(color, PieceType::Bishop).count()) as i32
        + 5 * board.pieces_of(color, PieceType::Rook).count() as i32
        + 9 * board.pieces_of(color, PieceType::Queen).count() as i32
}

/// How much of the endgame score `strong` (the side ahead) can hope to convert, out of 128.
fn endgame_scale(board: &Board, strong: Color) -> i32 {
    let weak = !strong;
    let strong_pawns = board.pieces_of(strong, PieceType::Pawn).count();
    let npm_strong = non_pawn_material(board, strong);
    let npm_weak = non_pawn_material(board, weak);
    if strong_pawns == 0 {
        // Two knights cannot force mate against a bare king.
        let knights_only =
            board.pieces_of(strong, PieceType::Knight).count() as i32 * 3 == npm_strong;
        if knights_only
            && npm_strong <= 6
            && npm_weak == 0
            && board.pieces_of(weak, PieceType::Pawn).is_empty()
        {
            return 0;
        }
        // A lone minor cannot win; a minor's worth of extra material rarely does without pawns.
        if npm_strong < 5 {
            return 0;
        }
        if npm_strong - npm_weak <= 3 {
            return 24;
        }
    }
    // Opposite-coloured bishops: the defender blockades on the other colour.
    let wb = board.pieces_of(Color::White, PieceType::Bishop);
    let bb = board.pieces_of(Color::Black, PieceType::Bishop);
    if wb.count() == 1 && bb.count() == 1 {
        let light = Bitboard::LIGHT_SQUARES;
        let opposite = (wb & light).is_empty() != (bb & light).is_empty();
        if opposite {
            let only_bishops = npm_strong == 3 && npm_weak == 3;
            return if only_bishops { 64 } else { 100 };
        }
    }
    SCALE_NORMAL
}

/// A human-readable breakdown of the evaluation: each section's White and Black contributions
/// (middlegame, endgame), then phase, scale and the blended total.
pub fn trace(board: &Board) -> String {
    let mut tracer = CoefficientTrace::default();
    let parts = evaluate_parts(board, &mut tracer);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<18} {:>13} {:>13} {:>13}",
        "term", "white mg/eg", "black mg/eg", "total mg/eg"
    );
    for &(name, offset, len) in params::SECTIONS {
        let mut sums = [S(0, 0); 2];
        for (weight, counts) in PARAMS[offset..offset + len]
            .iter()
            .zip(&tracer.counts[offset..])
        {
            for (sum, &count) in sums.iter_mut().zip(counts) {
                *sum += *weight * count;
            }
        }
        if sums[0] == S(0, 0) && sums[1] == S(0, 0) {
            continue;
        }
        let total = sums[0] - sums[1];
        let _ = writeln!(
            out,
            "{:<18} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}",
            name.to_lowercase(),
            sums[0].0,
            sums[0].1,
            sums[1].0,
            sums[1].1,
            total.0,
            total.1
        );
    }
    let white = parts.blend();
    let _ = writeln!(
        out,
        "phase {} / {MAX_PHASE}, endgame scale {} / {SCALE_NORMAL}",
        parts.phase, parts.scale
    );
    let _ = writeln!(
        out,
        "total: {white} cp (White's view), {} cp (side to move)",
        white * board.side_to_move().sign()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_fen(fen: &str) -> i32 {
        evaluate(&Board::from_fen(fen).unwrap())
    }

    #[test]
    fn symmetric() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50",
        ];
        for fen in fens {
            let board = Board::from_fen(fen).unwrap();
            let mirrored = Board::from_fen(&mirror_fen(fen)).unwrap();
            assert_eq!(evaluate(&board), evaluate(&mirrored), "{fen}");
        }
    }

    /// The colour-flipped position: ranks reversed, piece and castling letters change case.
    fn mirror_fen(fen: &str) -> String {
        let swap_case = |text: &str| -> String {
            text.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let ranks: Vec<String> = fields[0].split('/').rev().map(swap_case).collect();
        let side = if fields[1] == "w" { "b" } else { "w" };
        let castling = swap_case(fields[2]);
        format!(
            "{} {side} {castling} - {} {}",
            ranks.join("/"),
            fields[4],
            fields[5]
        )
    }

    #[test]
    fn drawish_endings() {
        assert!(eval_fen("8/8/4k3/8/8/2NN4/4K3/8 w - - 0 1").abs() < 20);
        assert!(eval_fen("8/8/4k3/8/8/2Q5/4K3/8 w - - 0 1") > 500);
    }

    #[test]
    fn trace_lists_terms() {
        let text = trace(&Board::startpos());
        assert!(text.contains("material"));
        assert!(text.contains("total"));
    }
}
