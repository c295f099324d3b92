//! `escaque data interleave`: many files merged into one in random order, in bounded memory.
//!
//! Each next record comes from an input drawn at random with probability proportional to the
//! records it has left, so every input is spread evenly over the whole output and all run out
//! together. That alone keeps each file's own order, and a file is in game order; so the records
//! then pass through a shuffle buffer of `buffer` records (each new record takes the place of a
//! random one, which is written), scattering the positions of one game over about `buffer`
//! places. Memory: one read buffer an input plus 32 bytes a buffered record. Deterministic in the
//! seed.

use std::path::Path;

use super::packed::PackedPosition;
use super::stream::{open_all, refuse_input_as_output, RecordReader, RecordWriter};
use crate::random::splitmix64;

/// Default shuffle-buffer size: 1M records, 32 MB.
pub const DEFAULT_BUFFER: usize = 1 << 20;

/// Merges `inputs` into `output` in an order drawn from `seed`; returns the records written.
pub fn interleave(
    inputs: &[&Path],
    output: &Path,
    seed: u64,
    buffer: usize,
) -> Result<u64, String> {
    refuse_input_as_output(inputs, output)?;
    let mut readers = open_all(inputs)?;
    let mut writer = RecordWriter::create(output)?;
    let mut rng = seed;
    let mut remaining: u64 = readers.iter().map(RecordReader::remaining).sum();
    let mut shuffle_buffer: Vec<PackedPosition> = Vec::new();
    shuffle_buffer
        .try_reserve_exact(buffer.min(remaining as usize))
        .map_err(|_| format!("not enough memory for a buffer of {buffer} records"))?;
    while remaining > 0 {
        let reader = pick_weighted(&mut readers, splitmix64(&mut rng) % remaining);
        let record = reader
            .next()
            .unwrap_or_else(|| Err(format!("{}: ended early", reader.path().display())))?;
        remaining -= 1;
        if shuffle_buffer.len() < buffer {
            shuffle_buffer.push(record);
        } else if buffer == 0 {
            writer.write(&record)?;
        } else {
            let slot = (splitmix64(&mut rng) % buffer as u64) as usize;
            writer.write(&std::mem::replace(&mut shuffle_buffer[slot], record))?;
        }
    }
    super::shuffle(&mut shuffle_buffer, splitmix64(&mut rng));
    for record in &shuffle_buffer {
        writer.write(record)?;
    }
    writer.finish()
}

/// The reader that holds record number `draw` (0-based) of all those remaining, counting the
/// readers in order. A linear scan: the cost is small next to reading a record for the tens of
/// files a training set has.
fn pick_weighted(readers: &mut [RecordReader], mut draw: u64) -> &mut RecordReader {
    let last = readers.len() - 1;
    for (i, reader) in readers.iter_mut().enumerate() {
        if draw < reader.remaining() || i == last {
            return reader;
        }
        draw -= reader.remaining();
    }
    unreachable!("at least one reader")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::data::stream::tests::{record, temp_path};
    use crate::tools::data::{read_records, write_records};

    /// Three files of 30, 200 and 1 records; every record's score is unique.
    fn inputs() -> Vec<std::path::PathBuf> {
        let fens = [
            crate::board::START_FEN,
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            "6k1/8/8/8/8/8/8/R3K3 b - - 0 21",
        ];
        let mut score = 0;
        [30, 200, 1]
            .iter()
            .enumerate()
            .map(|(i, &count)| {
                let records: Vec<_> = (0..count)
                    .map(|_| {
                        score += 1;
                        record(fens[i], score)
                    })
                    .collect();
                let path = temp_path("interleave-in.bin");
                write_records(&path, &records).unwrap();
                path
            })
            .collect()
    }

    fn run(inputs: &[std::path::PathBuf], seed: u64, buffer: usize) -> Vec<PackedPosition> {
        let output = temp_path("interleave-out.bin");
        let paths: Vec<&Path> = inputs.iter().map(|p| p.as_path()).collect();
        assert_eq!(interleave(&paths, &output, seed, buffer), Ok(231));
        let records = read_records(&output).unwrap();
        std::fs::remove_file(output).unwrap();
        records
    }

    #[test]
    fn output_is_a_permutation_of_the_inputs_and_depends_only_on_the_seed() {
        let inputs = inputs();
        let mut union: Vec<[u8; 32]> = inputs
            .iter()
            .flat_map(|p| read_records(p).unwrap())
            .map(|r| r.bytes)
            .collect();
        union.sort();
        for buffer in [0, 1, 16, 1000] {
            let a = run(&inputs, 7, buffer);
            let mut bytes: Vec<[u8; 32]> = a.iter().map(|r| r.bytes).collect();
            bytes.sort();
            assert_eq!(bytes, union, "buffer {buffer}");
            assert_eq!(run(&inputs, 7, buffer), a, "same seed, buffer {buffer}");
            assert_ne!(run(&inputs, 8, buffer), a, "another seed, buffer {buffer}");
            // Records are mixed: the first file's 30 do not come out first.
            let first_file = a.iter().take(30).filter(|r| r.white_score() <= 30).count();
            assert!(first_file < 30, "buffer {buffer}");
        }
        // Without a buffer each input keeps its own order.
        let scores: Vec<i16> = run(&inputs, 3, 0)
            .iter()
            .map(|r| r.white_score())
            .filter(|&s| s > 30 && s <= 230)
            .collect();
        assert!(scores.windows(2).all(|w| w[0] < w[1]));
        for path in inputs {
            std::fs::remove_file(path).unwrap();
        }
    }

    #[test]
    fn refuses_a_truncated_input_before_writing() {
        let input = temp_path("interleave-trunc.bin");
        let output = temp_path("interleave-trunc-out.bin");
        std::fs::write(&input, [0u8; 40]).unwrap();
        let err = interleave(&[input.as_path()], &output, 1, 10).unwrap_err();
        assert!(err.contains("truncated"), "{err}");
        assert!(!output.exists());
        std::fs::remove_file(input).unwrap();
    }
}
