//! The network's inputs: 768 piece-square features seen from each side ("perspective").
//!
//! From a perspective, a piece is "ours" (0) or "theirs" (1); Black's perspective flips the board
//! vertically, so both sides see their own pieces move up the board and one set of weights serves
//! both. Index = ours/theirs × 384 + piece type (pawn 0 … king 5) × 64 + square (a1 = 0, flipped
//! by `^ 56` for Black).

/// Number of input features per perspective.
pub const INPUTS: usize = 768;

/// The feature index of a piece of `color` and `piece_type` on `square` as seen from
/// `perspective` (colours and piece types by their `index()`: White 0, Black 1; pawn 0 … king 5).
#[inline(always)]
pub const fn feature_index(
    perspective: usize,
    color: usize,
    piece_type: usize,
    square: usize,
) -> usize {
    let relative_square = if perspective == 0 {
        square
    } else {
        square ^ 56
    };
    ((color != perspective) as usize) * 384 + piece_type * 64 + relative_square
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perspectives_mirror_each_other() {
        // A white pawn on e2 seen by White is a black pawn on e7 seen by Black.
        assert_eq!(feature_index(0, 0, 0, 12), feature_index(1, 1, 0, 52));
        assert_eq!(feature_index(0, 0, 0, 12), 12);
        assert_eq!(feature_index(0, 1, 5, 60), 384 + 5 * 64 + 60);
        assert_eq!(feature_index(1, 0, 5, 4), 384 + 5 * 64 + 60);
        let mut seen = vec![false; INPUTS];
        for c in 0..2 {
            for p in 0..6 {
                for s in 0..64 {
                    let i = feature_index(1, c, p, s);
                    assert!(!seen[i]);
                    seen[i] = true;
                }
            }
        }
    }
}
