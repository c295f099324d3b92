//! The transposition table: shared by all search threads without locks. Each entry is two
//! `AtomicU64` words, the key XOR-ed with the data and the data itself; a reader accepts an entry
//! only if the XOR gives back its key, so a torn write (two threads storing at once) reads as a
//! miss, never as another position's data. Four entries share a 64-byte bucket (one cache line).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::memory::{table_bytes, LargeTable, Zeroable};
use crate::types::Move;

/// Whether a stored score is exact or a bound.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    None = 0,
    /// Fail-high: the true score is at least this.
    Lower = 1,
    /// Fail-low: the true score is at most this.
    Upper = 2,
    Exact = 3,
}

impl Bound {
    /// The bound of a search result `score` for the window it was searched with (`alpha` as
    /// the node began): a fail high is a lower bound; a score inside the window is exact only
    /// at a PV node (elsewhere the window is null, and the score an upper bound).
    #[inline(always)]
    pub fn of_result(score: i32, alpha: i32, beta: i32, pv_node: bool) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if pv_node && score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored `score` with this bound settles a search of the window `alpha..beta`:
    /// exact, a lower bound at or above beta, or an upper bound at or below alpha.
    #[inline(always)]
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
    }
}

/// What a probe returns.
#[derive(Copy, Clone, Debug)]
pub struct TtEntry {
    pub mv: Move,
    /// Score as stored (mate scores relative to this node; see [`score_from_tt`]).
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

const ENTRIES_PER_BUCKET: usize = 4;
const AGE_BITS: u64 = 5;
const AGE_CYCLE: u8 = 1 << AGE_BITS;

struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
struct Bucket {
    slots: [Slot; ENTRIES_PER_BUCKET],
}

// SAFETY: a Slot is two AtomicU64 words; all-zero words are an empty slot.
unsafe impl Zeroable for Slot {}
// SAFETY: a Bucket is Slots and nothing else (its alignment adds no padding at 64 bytes).
unsafe impl Zeroable for Bucket {}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

// Data layout: move 0-15, score 16-31 (i16), eval 32-47 (i16), depth 48-55 (u8, offset so
// qsearch depths fit), bound 56-57, age 59-63 (bit 58 unused).
#[inline(always)]
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    u64::from(mv.bits())
        | u64::from(score as i16 as u16) << 16
        | u64::from(eval as i16 as u16) << 32
        | ((depth + DEPTH_OFFSET).clamp(0, 255) as u64) << 48
        | (bound as u64) << 56
        | u64::from(age) << 59
}

const DEPTH_OFFSET: i32 = 8;

#[inline(always)]
fn unpack(data: u64) -> TtEntry {
    TtEntry {
        mv: Move::from_bits(data as u16),
        score: i32::from((data >> 16) as u16 as i16),
        eval: i32::from((data >> 32) as u16 as i16),
        depth: ((data >> 48) & 0xFF) as i32 - DEPTH_OFFSET,
        bound: match (data >> 56) & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            3 => Bound::Exact,
            _ => Bound::None,
        },
    }
}

#[inline(always)]
fn age_of(data: u64) -> u8 {
    (data >> 59) as u8
}

/// The shared table.
pub struct TranspositionTable {
    buckets: LargeTable<Bucket>,
    age: std::sync::atomic::AtomicU8,
    /// The size asked for (the `Hash` option's value).
    megabytes: usize,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket). Aborts if memory runs out: use
    /// [`TranspositionTable::try_new`] for sizes that come from the user.
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).expect("transposition table allocation")
    }

    /// A table of about `mb` megabytes, or an error if the allocation is refused or the size is
    /// above the memory the system reports available (on Linux an over-large allocation can
    /// succeed and then get the process killed when the pages are first written).
    pub fn try_new(mb: usize) -> Result<TranspositionTable, String> {
        let bytes = table_bytes(mb)?;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let buckets =
            LargeTable::try_new(count).ok_or_else(|| format!("cannot allocate {mb} MB"))?;
        Ok(TranspositionTable {
            buckets,
            age: std::sync::atomic::AtomicU8::new(0),
            megabytes: mb.max(1),
        })
    }

    /// The size in megabytes it was made with.
    pub fn megabytes(&self) -> usize {
        self.megabytes
    }

    /// Empties every entry (`ucinewgame`, `Clear Hash`).
    pub fn clear(&self) {
        for bucket in self.buckets.iter() {
            for slot in &bucket.slots {
                write(slot, 0, 0);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks a new search: entries from earlier searches become preferred victims.
    pub fn new_search(&self) {
        let age = (self.age.load(Ordering::Relaxed) + 1) % AGE_CYCLE;
        self.age.store(age, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Hints the CPU to fetch `key`'s bucket into cache before the probe needs it.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        crate::memory::prefetch(self.bucket(key));
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in &self.bucket(key).slots {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.key_xor_data.load(Ordering::Relaxed) ^ data == key && data != 0 {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a result. Replaces the same position's entry (keeping its move if we have none)
    /// unless that entry is much deeper; otherwise evicts the shallowest, oldest entry.
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.slots[0];
        let mut victim_worth = i32::MAX;
        for slot in &bucket.slots {
            let data = slot.data.load(Ordering::Relaxed);
            let stored_key = slot.key_xor_data.load(Ordering::Relaxed) ^ data;
            if data == 0 || stored_key == key {
                let mut mv = mv;
                if data != 0 {
                    let old = unpack(data);
                    if mv.is_null() {
                        mv = old.mv;
                    }
                    // Keep a much deeper entry of the same search unless the new one is exact.
                    if bound != Bound::Exact && age_of(data) == age && old.depth > depth + 4 {
                        return;
                    }
                }
                write(slot, key, pack(mv, score, eval, depth, bound, age));
                return;
            }
            let age_diff = i32::from((AGE_CYCLE + age - age_of(data)) % AGE_CYCLE);
            let worth = unpack(data).depth - 8 * age_diff;
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        write(victim, key, pack(mv, score, eval, depth, bound, age));
    }

    /// Per-mille of the first thousand entries that belong to the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let mut used = 0u32;
        let mut seen = 0u32;
        'outer: for bucket in self.buckets.iter() {
            for slot in &bucket.slots {
                if seen == 1000 {
                    break 'outer;
                }
                seen += 1;
                let data = slot.data.load(Ordering::Relaxed);
                if data != 0 && age_of(data) == age {
                    used += 1;
                }
            }
        }
        (used * 1000).checked_div(seen).unwrap_or(0)
    }
}

#[inline(always)]
fn write(slot: &Slot, key: u64, data: u64) {
    slot.key_xor_data.store(key ^ data, Ordering::Relaxed);
    slot.data.store(data, Ordering::Relaxed);
}

/// Mate scores are stored relative to the node (distance to mate from here), so they stay right
/// when the same position is reached at another ply.
#[inline(always)]
pub fn score_to_tt(score: i32, ply: usize, mate_bound: i32) -> i32 {
    if score >= mate_bound {
        score + ply as i32
    } else if score <= -mate_bound {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a stored score back to a root-relative one at `ply`.
#[inline(always)]
pub fn score_from_tt(score: i32, ply: usize, mate_bound: i32) -> i32 {
    if score >= mate_bound {
        score - ply as i32
    } else if score <= -mate_bound {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{MoveFlag, Square};

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let mv = Move::new(Square::E2, Square::E4, MoveFlag::DoublePush);
        tt.store(0xDEAD_BEEF_1234, mv, -123, 45, 7, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF_1234).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound),
            (mv, -123, 45, 7, Bound::Lower)
        );
        assert!(tt.probe(0xDEAD_BEEF_1235).is_none());
        tt.store(0xDEAD_BEEF_1234, Move::NULL, 5, 5, -1, Bound::Exact);
        let e = tt.probe(0xDEAD_BEEF_1234).unwrap();
        assert_eq!((e.mv, e.depth), (mv, -1));
    }
}
