//! `escaque data dedup`: one record per position across many files, the first one kept.
//!
//! The key is the position's 64-bit Zobrist key ([`PackedPosition::key`]); two different
//! positions share one with probability about n²/2⁶⁵ (under 10⁻⁴ for 50M positions), so a
//! false duplicate is not worth a wider key. The keys seen are kept in an open-addressing table
//! sized once from the inputs' record counts (8 bytes a slot, at most 3/4 full: about 11 bytes a
//! position), far smaller than a `HashSet<u64>`.

use std::path::Path;

use super::packed::PackedPosition;
use super::stream::{open_all, refuse_input_as_output, RecordWriter};

/// A set of 64-bit keys: linear probing in a power-of-two table that never grows.
struct KeySet {
    slots: Vec<u64>,
    /// Key 0 marks an empty slot, so it is remembered apart.
    has_zero: bool,
    shift: u32,
}

impl KeySet {
    /// A set that holds `capacity` keys at most 3/4 full.
    fn with_capacity(capacity: u64) -> Result<KeySet, String> {
        let slots = (capacity + capacity / 3 + 1).next_power_of_two().max(16);
        let mut table = Vec::new();
        table
            .try_reserve_exact(slots as usize)
            .map_err(|_| format!("not enough memory for {slots} keys"))?;
        table.resize(slots as usize, 0);
        Ok(KeySet {
            slots: table,
            has_zero: false,
            shift: 64 - slots.trailing_zeros(),
        })
    }

    /// Adds `key`; false when it was already there.
    fn insert(&mut self, key: u64) -> bool {
        if key == 0 {
            return !std::mem::replace(&mut self.has_zero, true);
        }
        let mask = self.slots.len() - 1;
        // Zobrist keys are uniform, so the top bits index the table as well as any hash would.
        let mut index = (key >> self.shift) as usize;
        loop {
            match self.slots[index] {
                0 => {
                    self.slots[index] = key;
                    return true;
                }
                k if k == key => return false,
                _ => index = (index + 1) & mask,
            }
        }
    }
}

/// What [`dedup`] did.
#[derive(Debug, PartialEq, Eq)]
pub struct DedupSummary {
    pub kept: u64,
    pub dropped: u64,
}

/// Copies the records of `inputs` (in order) to `output`, dropping each whose position was
/// already seen; the first record of a position is kept.
pub fn dedup(inputs: &[&Path], output: &Path) -> Result<DedupSummary, String> {
    refuse_input_as_output(inputs, output)?;
    let readers = open_all(inputs)?;
    let total: u64 = readers.iter().map(|r| r.records()).sum();
    let mut seen = KeySet::with_capacity(total)?;
    let mut writer = RecordWriter::create(output)?;
    let mut dropped = 0;
    for reader in readers {
        for record in reader {
            let record: PackedPosition = record?;
            if seen.insert(record.key()) {
                writer.write(&record)?;
            } else {
                dropped += 1;
            }
        }
    }
    let kept = writer.finish()?;
    Ok(DedupSummary { kept, dropped })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::data::read_records;
    use crate::tools::data::stream::tests::{record, temp_path};
    use crate::tools::data::write_records;

    const A: &str = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    const B: &str = "4k3/8/8/8/8/8/8/4K2R b K - 0 1";
    const C: &str = "4k3/8/8/8/8/8/8/4K2R w - - 0 1";
    /// A's position with other clocks: the same position.
    const A_LATER: &str = "4k3/8/8/8/8/8/8/4K2R w K - 12 40";

    #[test]
    fn keeps_the_first_record_of_each_position_across_files() {
        let first = temp_path("dedup-1.bin");
        let second = temp_path("dedup-2.bin");
        let output = temp_path("dedup-out.bin");
        write_records(&first, &[record(A, 1), record(B, 2), record(A, 3)]).unwrap();
        write_records(
            &second,
            &[record(C, 4), record(A_LATER, 5), record(B, 6), record(C, 7)],
        )
        .unwrap();
        let summary = dedup(&[first.as_path(), second.as_path()], &output).unwrap();
        assert_eq!(
            summary,
            DedupSummary {
                kept: 3,
                dropped: 4
            }
        );
        let scores: Vec<i16> = read_records(&output)
            .unwrap()
            .iter()
            .map(|r| r.white_score())
            .collect();
        assert_eq!(scores, [1, 2, 4]);
        for path in [first, second, output] {
            std::fs::remove_file(path).unwrap();
        }
    }

    #[test]
    fn refuses_bad_inputs_and_leaves_no_output() {
        let good = temp_path("dedup-good.bin");
        let corrupt = temp_path("dedup-corrupt.bin");
        let output = temp_path("dedup-bad-out.bin");
        write_records(&good, &[record(A, 1), record(B, 2)]).unwrap();
        let mut bytes = std::fs::read(&good).unwrap();
        bytes[32 + 31] = 9; // second record's result byte
        std::fs::write(&corrupt, &bytes).unwrap();
        let err = dedup(&[good.as_path(), corrupt.as_path()], &output).unwrap_err();
        assert!(err.contains("record 1 is corrupt"), "{err}");
        assert!(!output.exists());
        let missing = temp_path("dedup-missing.bin");
        assert!(dedup(&[missing.as_path()], &output).is_err());
        assert!(dedup(&[good.as_path()], &good)
            .unwrap_err()
            .contains("also an input"));
        assert_eq!(read_records(&good).unwrap().len(), 2);
        for path in [good, corrupt] {
            std::fs::remove_file(path).unwrap();
        }
    }

    #[test]
    fn key_set_finds_what_it_holds() {
        let mut set = KeySet::with_capacity(1000).unwrap();
        let mut state = 5;
        let keys: Vec<u64> = (0..1000)
            .map(|_| crate::random::splitmix64(&mut state))
            .collect();
        assert!(keys.iter().all(|&k| set.insert(k)));
        assert!(keys.iter().all(|&k| !set.insert(k)));
        assert!(set.insert(0) && !set.insert(0));
        // Keys that share their top bits collide in the table and must still be told apart.
        assert!(set.insert(keys[0] ^ 1) && !set.insert(keys[0] ^ 1));
    }
}
