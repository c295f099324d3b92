//! From packed records to what the network consumes: active features per perspective, the
//! blended target, and the order in which an epoch visits the training set.

use crate::nnue::Architecture;
use crate::random::splitmix64;
use crate::tools::data::PackedPosition;

/// Most pieces a packed record can hold, hence most active features per perspective.
pub const MAX_ACTIVE: usize = 32;

/// The active features of one position, side to move's perspective first. Kept on the stack
/// and rebuilt per visit: extracting 32 indices is far cheaper than the 32 row additions that
/// follow, and it spares the memory a precomputed feature table would take on large data sets.
#[derive(Clone, Copy)]
pub struct Features {
    pub indices: [[u16; MAX_ACTIVE]; 2],
    pub len: usize,
    /// The output bucket (by the number of pieces).
    pub bucket: usize,
}

impl Features {
    /// Extracts the features of a record that passed validation (at most 32 pieces).
    #[inline]
    pub fn of(position: &PackedPosition, arch: &Architecture) -> Features {
        Features::of_oriented(position, arch, false)
    }

    /// The features of the position, or of its mirror image across the d/e file boundary when
    /// `mirror` is set. Without castling rights chess is symmetric under that mirror, so a
    /// mirrored position is a second, equally true training example: on a small data set it
    /// halves the over-fitting to the few games seen (see [`mirror_for`]).
    #[inline]
    pub fn of_oriented(position: &PackedPosition, arch: &Architecture, mirror: bool) -> Features {
        let flip = if mirror { 7 } else { 0 };
        let stm = position.side_to_move().index();
        let mut kings = [0usize; 2];
        let mut pieces = [(0usize, 0usize, 0usize); MAX_ACTIVE];
        let mut len = 0;
        for (square, color, piece_type) in position.pieces().take(MAX_ACTIVE) {
            let square = square ^ flip;
            if piece_type == 5 {
                kings[color & 1] = square;
            }
            pieces[len] = (square, color, piece_type);
            len += 1;
        }
        let views = [
            arch.view(stm, kings[stm]),
            arch.view(stm ^ 1, kings[stm ^ 1]),
        ];
        let mut features = Features {
            indices: [[0; MAX_ACTIVE]; 2],
            len,
            bucket: arch.output_bucket(len),
        };
        for (n, &(square, color, piece_type)) in pieces[..len].iter().enumerate() {
            features.indices[0][n] = views[0].feature(stm, color, piece_type, square) as u16;
            features.indices[1][n] = views[1].feature(stm ^ 1, color, piece_type, square) as u16;
        }
        features
    }

    /// The active features seen from `side` (0: side to move, 1: the other).
    #[inline]
    pub fn side(&self, side: usize) -> &[u16] {
        &self.indices[side][..self.len]
    }
}

/// Whether training position `index` is shown mirrored in `epoch`: half the positions without
/// castling rights each epoch, a different half the next, decided by `(index, epoch)` alone so a
/// resumed run sees the same examples.
#[inline]
pub fn mirror_for(position: &PackedPosition, index: u32, epoch: usize) -> bool {
    let no_castling = position.bytes[25] == 0;
    let mut state = u64::from(index) ^ (epoch as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    no_castling && splitmix64(&mut state) & 1 == 1
}

/// The order in which epoch `epoch` visits `n` training positions: a Fisher-Yates permutation
/// whose stream depends only on `(seed, epoch)`, so a resumed run visits exactly the batches an
/// uninterrupted one would.
pub fn epoch_order(n: usize, seed: u64, epoch: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut state = seed ^ (epoch as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03);
    for i in (1..n).rev() {
        let j = (splitmix64(&mut state) % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// An order-dependent fingerprint of a set of records, so a checkpoint can tell whether it is
/// resumed on the same training set (same files, same seed, same hold-out) without storing it.
pub fn fingerprint(records: &[PackedPosition]) -> u64 {
    records.iter().fold(0x243F_6A88_85A3_08D3, |hash, record| {
        record.bytes.chunks_exact(8).fold(hash, |h, word| {
            let w = u64::from_le_bytes(word.try_into().expect("8 bytes"));
            (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29)
        })
    })
}
