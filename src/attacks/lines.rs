use super::slow::{slider_attacks, BISHOP_DIRECTIONS, ROOK_DIRECTIONS};
use crate::types::{Bitboard, Square};

/// For each pair of squares on a common rank, file or diagonal: the whole line through both
/// (edge to edge), and the squares strictly between them. Empty for unaligned pairs.
struct LineTables {
    line: [[u64; 64]; 64],
    between: [[u64; 64]; 64],
}

const fn build() -> LineTables {
    let mut t = LineTables {
        line: [[0; 64]; 64],
        between: [[0; 64]; 64],
    };
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let bb = 1u64 << b;
            let mut kind = 0;
            while kind < 2 {
                let dirs = if kind == 0 {
                    &ROOK_DIRECTIONS
                } else {
                    &BISHOP_DIRECTIONS
                };
                if a != b && slider_attacks(a, 0, dirs) & bb != 0 {
                    t.line[a][b] = (slider_attacks(a, 0, dirs) & slider_attacks(b, 0, dirs))
                        | (1u64 << a)
                        | bb;
                    t.between[a][b] =
                        slider_attacks(a, bb, dirs) & slider_attacks(b, 1u64 << a, dirs);
                }
                kind += 1;
            }
            b += 1;
        }
        a += 1;
    }
    t
}

static LINES: LineTables = build();

/// The full line (rank, file or diagonal, edge to edge) through `a` and `b`; empty if unaligned.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.line[a.index()][b.index()])
}

/// The squares strictly between `a` and `b` on their common line; empty if unaligned or adjacent.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.between[a.index()][b.index()])
}

/// Empty-board attacks of a bishop and of a rook from each square: `[0]` diagonal, `[1]` orthogonal.
static RAYS: [[u64; 64]; 2] = {
    let mut rays = [[0; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        rays[0][sq] = slider_attacks(sq, 0, &BISHOP_DIRECTIONS);
        rays[1][sq] = slider_attacks(sq, 0, &ROOK_DIRECTIONS);
        sq += 1;
    }
    rays
};

/// The diagonals through `sq`, edge to edge, without `sq`: where a bishop or queen could reach
/// it from on an empty board. A plain table read, cheaper than a magic lookup when only a
/// candidate set is wanted.
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(RAYS[0][sq.index()])
}

/// The rank and file through `sq`, without `sq`: where a rook or queen could reach it from on an
/// empty board.
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(RAYS[1][sq.index()])
}
