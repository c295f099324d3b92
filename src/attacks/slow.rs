//! Slow, obviously-correct attack generation by walking rays square by square. It builds the fast
//! tables at compile time and serves as the reference the tests check those tables against.

/// File and rank steps of the four rook directions.
pub const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// File and rank steps of the four bishop directions.
pub const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Squares attacked from square index `sq` along `directions`, each ray stopping at the first
/// occupied square (which is included).
pub const fn slider_attacks(sq: usize, occupied: u64, directions: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let mut f = (sq % 8) as i8 + df;
        let mut r = (sq / 8) as i8 + dr;
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

/// The relevant-occupancy mask of a slider: its empty-board rays without the last square of each.
pub const fn relevant_mask(sq: usize, directions: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let mut f = (sq % 8) as i8 + df;
        let mut r = (sq / 8) as i8 + dr;
        while f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8 {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
}

/// Squares reached from `sq` by the given single steps (knight or king jumps).
pub const fn leaper_attacks(sq: usize, steps: &[(i8, i8); 8]) -> u64 {
    let mut attacks = 0u64;
    let mut i = 0;
    while i < 8 {
        let f = (sq % 8) as i8 + steps[i].0;
        let r = (sq / 8) as i8 + steps[i].1;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            attacks |= 1u64 << (r * 8 + f);
        }
        i += 1;
    }
    attacks
}
