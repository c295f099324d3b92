//! The shape of a network beyond its hidden size: king-bucketed inputs, the horizontal mirror and
//! material output buckets. The file names them (see [`super::format`]), the trainer and the engine
//! compute features and buckets through this one type, so the two can never disagree.
//!
//! - **King buckets.** From each perspective the 768 piece-square inputs are repeated once per
//!   bucket, and the bucket is chosen by where that perspective's own king stands (seen from its
//!   own side: rank 1 is its back rank). A king on g1 and one on e3 then see different weights
//!   for the same pawn, which a single input set cannot express.
//! - **Mirror.** With `mirror`, a perspective whose king stands on files e–h sees the board
//!   flipped across the d/e boundary, so every king sits on files a–d and the buckets (and the
//!   data) cover half as many king squares.
//! - **Output buckets.** The output layer is repeated per material band (pieces on the board,
//!   kings included), so the net can weigh its features differently in the opening and the
//!   endgame.

/// Pieces of the 768 piece-square inputs of one bucket.
pub const INPUTS_PER_BUCKET: usize = 768;

/// Most king buckets a file may declare.
pub const MAX_KING_BUCKETS: usize = 32;

/// Output-bucket counts the material formula supports (each divides 32).
pub const OUTPUT_BUCKET_CHOICES: [usize; 5] = [1, 2, 4, 8, 16];

/// How a network's inputs and outputs are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Architecture {
    /// The bucket of each own-king square (a1 = 0, seen from the perspective's side and, with
    /// `mirror`, after the flip to files a–d).
    pub king_bucket: [u8; 64],
    /// Number of king buckets (the largest entry of `king_bucket` plus one).
    pub king_buckets: usize,
    /// Whether a perspective whose king is on files e–h sees the board mirrored.
    pub mirror: bool,
    /// Output buckets by material (one of [`OUTPUT_BUCKET_CHOICES`]).
    pub output_buckets: usize,
}

impl Default for Architecture {
    /// One bucket, no mirror, one output: net1 to net3.
    fn default() -> Self {
        Architecture {
            king_bucket: [0; 64],
            king_buckets: 1,
            mirror: false,
            output_buckets: 1,
        }
    }
}

impl Architecture {
    /// A preset layout of `king_buckets` (1, 4, 8 or 16) over the files a–d, repeated on e–h.
    /// More buckets separate the back-rank squares, where the king spends most games, more finely.
    pub fn preset(
        king_buckets: usize,
        mirror: bool,
        output_buckets: usize,
    ) -> Result<Architecture, String> {
        // Rows are ranks 1..8 from the perspective's side; columns files a..d.
        let half: [[u8; 4]; 8] = match king_buckets {
            1 => [[0; 4]; 8],
            4 => [
                [0, 0, 1, 1],
                [2, 2, 2, 2],
                [3, 3, 3, 3],
                [3, 3, 3, 3],
                [3, 3, 3, 3],
                [3, 3, 3, 3],
                [3, 3, 3, 3],
                [3, 3, 3, 3],
            ],
            8 => [
                [0, 1, 2, 3],
                [4, 4, 5, 5],
                [6, 6, 6, 6],
                [6, 6, 6, 6],
                [7, 7, 7, 7],
                [7, 7, 7, 7],
                [7, 7, 7, 7],
                [7, 7, 7, 7],
            ],
            16 => [
                [0, 1, 2, 3],
                [4, 5, 6, 7],
                [8, 8, 9, 9],
                [10, 10, 11, 11],
                [12, 12, 13, 13],
                [12, 12, 13, 13],
                [14, 14, 15, 15],
                [14, 14, 15, 15],
            ],
            n => return Err(format!("king buckets must be 1, 4, 8 or 16, got {n}")),
        };
        let mut king_bucket = [0u8; 64];
        for (square, bucket) in king_bucket.iter_mut().enumerate() {
            let (rank, file) = (square / 8, square % 8);
            *bucket = half[rank][file.min(7 - file)];
        }
        Architecture::new(king_bucket, mirror, output_buckets)
    }

    /// An architecture from its parts, checked.
    pub fn new(
        king_bucket: [u8; 64],
        mirror: bool,
        output_buckets: usize,
    ) -> Result<Architecture, String> {
        let king_buckets = usize::from(*king_bucket.iter().max().expect("64 squares")) + 1;
        if king_buckets > MAX_KING_BUCKETS {
            return Err(format!(
                "{king_buckets} king buckets, at most {MAX_KING_BUCKETS} are supported"
            ));
        }
        if let Some(missing) = (0..king_buckets).find(|&b| !king_bucket.contains(&(b as u8))) {
            return Err(format!("king bucket {missing} is used by no square"));
        }
        if !OUTPUT_BUCKET_CHOICES.contains(&output_buckets) {
            return Err(format!(
                "output buckets must be one of {OUTPUT_BUCKET_CHOICES:?}, got {output_buckets}"
            ));
        }
        Ok(Architecture {
            king_bucket,
            king_buckets,
            mirror,
            output_buckets,
        })
    }

    /// Input features per perspective: 768 per king bucket.
    pub fn inputs(&self) -> usize {
        INPUTS_PER_BUCKET * self.king_buckets
    }

    /// How `perspective` (0 White, 1 Black) sees the board when its king stands on `king`: the
    /// square transform (`^ 56` for Black, `^ 7` when mirrored) folded into one XOR mask, and
    /// the first feature of the king's bucket.
    #[inline(always)]
    pub fn view(&self, perspective: usize, king: usize) -> View {
        let vertical = if perspective == 0 { 0 } else { 56 };
        let relative_king = king ^ vertical;
        let horizontal = if self.mirror && relative_king % 8 >= 4 {
            7
        } else {
            0
        };
        let bucket = usize::from(self.king_bucket[relative_king ^ horizontal]);
        View {
            flip: vertical ^ horizontal,
            base: bucket * INPUTS_PER_BUCKET,
        }
    }

    /// The output bucket of a position with `pieces` pieces on the board (kings included).
    #[inline(always)]
    pub fn output_bucket(&self, pieces: usize) -> usize {
        let per_bucket = 32 / self.output_buckets;
        (pieces.saturating_sub(2) / per_bucket).min(self.output_buckets - 1)
    }

    /// A one-line description, as `eval` and the trainer print it.
    pub fn describe(&self, hidden: usize) -> String {
        format!(
            "({} -> {hidden})x2 -> {}: {} king bucket{}{}, {} output bucket{}",
            self.inputs(),
            self.output_buckets,
            self.king_buckets,
            if self.king_buckets == 1 { "" } else { "s" },
            if self.mirror { ", mirrored" } else { "" },
            self.output_buckets,
            if self.output_buckets == 1 { "" } else { "s" },
        )
    }
}

/// One perspective's view of the board, fixed while its king stays in one bucket and half.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// XOR applied to every square (`^ 56` for Black's perspective, `^ 7` when mirrored).
    pub flip: usize,
    /// The first feature of the king's bucket.
    pub base: usize,
}

impl View {
    /// The feature of a piece of `color` and `piece_type` (White 0, Black 1; pawn 0 … king 5) on
    /// `square`, seen by `perspective`.
    #[inline(always)]
    pub fn feature(
        &self,
        perspective: usize,
        color: usize,
        piece_type: usize,
        square: usize,
    ) -> usize {
        self.base + ((color != perspective) as usize) * 384 + piece_type * 64 + (square ^ self.flip)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_view_is_the_plain_768_features() {
        let arch = Architecture::default();
        for king in 0..64 {
            for perspective in 0..2 {
                let view = arch.view(perspective, king);
                for (color, piece_type, square) in [(0, 0, 12), (1, 5, 60), (0, 3, 7)] {
                    assert_eq!(
                        view.feature(perspective, color, piece_type, square),
                        super::super::features::feature_index(
                            perspective,
                            color,
                            piece_type,
                            square
                        )
                    );
                }
            }
        }
    }

    #[test]
    fn mirrored_buckets_see_mirrored_boards_alike() {
        let arch = Architecture::preset(16, true, 8).unwrap();
        assert_eq!(arch.king_buckets, 16);
        assert_eq!(arch.inputs(), 16 * 768);
        // White king g1 and b1 (mirror images) share bucket 1, and a knight on f3 seen with the
        // king on g1 is the knight on c3 seen with the king on b1.
        let (g1, b1, f3, c3) = (6, 1, 21, 18);
        let (vg, vb) = (arch.view(0, g1), arch.view(0, b1));
        assert_eq!(vg.base, vb.base);
        assert_eq!(vg.feature(0, 0, 1, f3), vb.feature(0, 0, 1, c3));
        // Black's king on g8 with a knight on f6 is White's on g1 with one on f3, seen from the
        // other side.
        let (g8, f6) = (62, 45);
        let black = arch.view(1, g8);
        assert_eq!(black.base, vg.base);
        assert_eq!(black.feature(1, 1, 1, f6), vg.feature(0, 0, 1, f3));
        // Every feature of every view is inside the input range, and one view's are distinct.
        for king in 0..64 {
            let view = arch.view(1, king);
            let mut seen = std::collections::HashSet::new();
            for color in 0..2 {
                for piece_type in 0..6 {
                    for square in 0..64 {
                        let f = view.feature(1, color, piece_type, square);
                        assert!(f < arch.inputs());
                        assert!(seen.insert(f));
                    }
                }
            }
        }
    }

    #[test]
    fn output_buckets_follow_material() {
        let arch = Architecture::preset(1, false, 8).unwrap();
        assert_eq!(arch.output_bucket(32), 7);
        assert_eq!(arch.output_bucket(30), 7);
        assert_eq!(arch.output_bucket(29), 6);
        assert_eq!(arch.output_bucket(2), 0);
        assert_eq!(arch.output_bucket(5), 0);
        assert_eq!(arch.output_bucket(6), 1);
        assert_eq!(Architecture::default().output_bucket(32), 0);
        assert!(Architecture::preset(4, false, 3).is_err());
        assert!(Architecture::preset(5, false, 1).is_err());
    }
}
