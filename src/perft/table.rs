//! The subtree-count cache of hashed perft: a lockless table shared by all perft threads.
//!
//! Buckets of four slots fill one cache line. Each slot is two words, `key ^ data` and `data`,
//! where `data` packs the count (low 56 bits) and the depth (high 8 bits); a slot torn by a
//! concurrent write fails the xor check and reads as a miss. The key is mixed with the depth
//! before it picks a bucket, so one position's counts at different depths do not fight over one
//! slot, and a store evicts the shallowest slot of its bucket: deep counts, which save the most
//! work, stay. (With one slot per key and always-replace, K v K `perft 16` ran for hours: every
//! depth of every position overwrote the others.)

use std::sync::atomic::{AtomicU64, Ordering};

use crate::board::Board;
use crate::memory::LargeTable;

const SLOTS: usize = 4;
const COUNT_BITS: u32 = 56;
const COUNT_MASK: u64 = (1 << COUNT_BITS) - 1;
/// One bucket is one 64-byte cache line, so a probe reads one line.
const BUCKET_BYTES: usize = 64;

#[repr(align(64))]
struct Bucket([[AtomicU64; 2]; SLOTS]);

// SAFETY: a Bucket is AtomicU64 words and nothing else; all-zero words are valid (empty slots).
unsafe impl crate::memory::Zeroable for Bucket {}

const _: () = assert!(std::mem::size_of::<Bucket>() == BUCKET_BYTES);

/// A lockless table of subtree counts keyed by position and depth.
pub struct PerftTable {
    buckets: LargeTable<Bucket>,
    mask: usize,
}

/// The key a (position, depth) pair is filed under: the Zobrist key with the depth mixed in
/// (an odd multiplier spreads small depths over all bits).
#[inline(always)]
fn depth_key(key: u64, depth: u32) -> u64 {
    key ^ u64::from(depth).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl PerftTable {
    /// A table of about `megabytes` MB (rounded down to a power of two of buckets). Aborts if
    /// memory runs out: use [`PerftTable::try_new`] for sizes from the user.
    pub fn new(megabytes: usize) -> PerftTable {
        PerftTable::try_new(megabytes).expect("perft table allocation")
    }

    /// [`PerftTable::new`], or an error (not an abort) when the memory is not there.
    ///
    /// Every page is mapped here (on huge pages where the system offers them, see
    /// [`LargeTable`]), before any perft thread runs. Left to the perft, the first probe of a
    /// page maps the shared zero page and the first store then replaces it, which with several
    /// threads costs a TLB shootdown on every core per page: with two threads and 64 MB that
    /// made `perft 6` slower than with one.
    pub fn try_new(megabytes: usize) -> Result<PerftTable, String> {
        let wanted = (crate::memory::table_bytes(megabytes)? / BUCKET_BYTES).max(1);
        let len = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        let buckets = LargeTable::<Bucket>::try_new(len)
            .ok_or_else(|| format!("cannot allocate {megabytes} MB"))?;
        Ok(PerftTable {
            buckets,
            mask: len - 1,
        })
    }

    /// A table for `perft depth` from `board`: no larger than `max_megabytes`, and no larger
    /// than the counts it could hold, so a short perft does not spend its time mapping pages.
    pub fn for_perft(
        board: &Board,
        depth: u32,
        max_megabytes: usize,
    ) -> Result<PerftTable, String> {
        PerftTable::try_new(max_megabytes.min(megabytes_for(board, depth)))
    }

    /// The cached count of `depth` plies below the position with Zobrist key `key`.
    #[inline]
    pub fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let key = depth_key(key, depth);
        let bucket = &self.buckets[key as usize & self.mask];
        bucket.0.iter().find_map(|slot| {
            let data = slot[1].load(Ordering::Relaxed);
            let check = slot[0].load(Ordering::Relaxed);
            (check ^ data == key && data >> COUNT_BITS == u64::from(depth))
                .then_some(data & COUNT_MASK)
        })
    }

    /// Files `count`, evicting the shallowest slot of the bucket. A count too large for its 56
    /// bits (only from deep perfts of tiny positions) is not stored.
    #[inline]
    pub fn store(&self, key: u64, depth: u32, count: u64) {
        if count > COUNT_MASK {
            return;
        }
        let key = depth_key(key, depth);
        let bucket = &self.buckets[key as usize & self.mask];
        let victim = bucket
            .0
            .iter()
            .min_by_key(|slot| slot[1].load(Ordering::Relaxed) >> COUNT_BITS)
            .expect("a bucket has slots");
        let data = count | u64::from(depth) << COUNT_BITS;
        victim[0].store(key ^ data, Ordering::Relaxed);
        victim[1].store(data, Ordering::Relaxed);
    }
}

/// Megabytes enough for every count a `perft depth` from `board` stores (nodes with two plies or
/// more below them), estimated with the root's move count as the branching factor, doubled for
/// collisions and rounded up to a power of two. At least 1.
fn megabytes_for(board: &Board, depth: u32) -> usize {
    let branching = board.count_legal_moves().max(2);
    let nodes = branching.saturating_pow(depth.saturating_sub(2));
    let bytes = nodes.saturating_mul(2 * (BUCKET_BYTES / SLOTS) as u64);
    let bytes = bytes.checked_next_power_of_two().unwrap_or(u64::MAX);
    usize::try_from(bytes >> 20).unwrap_or(usize::MAX).max(1)
}
