//! Reading, writing and summarising files of [`PackedPosition`] records.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;

use crate::random::splitmix64;

use super::packed::{PackedPosition, RECORD_BYTES};

/// Reads every record of a data file, validating each. A length that is not a whole number of
/// records, or a record that fails validation, is an error naming the file and the record.
pub fn read_records(path: &Path) -> Result<Vec<PackedPosition>, String> {
    let mut file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?
        .len() as usize;
    if !len.is_multiple_of(RECORD_BYTES) {
        return Err(format!(
            "{} is truncated or not a data file: {len} bytes is not a multiple of {RECORD_BYTES}",
            path.display()
        ));
    }
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(len)
        .map_err(|_| format!("not enough memory to read {}", path.display()))?;
    file.read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() != len {
        return Err(format!("{} changed while it was read", path.display()));
    }
    bytes
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, chunk)| {
            let record = PackedPosition {
                bytes: chunk.try_into().expect("exact chunk"),
            };
            record
                .validate()
                .map(|()| record)
                .map_err(|e| format!("{}: record {i} is corrupt: {e}", path.display()))
        })
        .collect()
}

/// Reads several files into one list.
pub fn read_all(paths: &[&Path]) -> Result<Vec<PackedPosition>, String> {
    let mut all = Vec::new();
    for path in paths {
        all.extend(read_records(path)?);
    }
    Ok(all)
}

/// Writes records to a new file (replacing it).
pub fn write_records(path: &Path, records: &[PackedPosition]) -> Result<(), String> {
    let file = File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    let mut out = BufWriter::new(file);
    for record in records {
        out.write_all(&record.bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    out.flush()
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Reads the text form (one [`PackedPosition::to_text`] line each; blank lines and `#` comments
/// skipped).
pub fn read_text(path: &Path) -> Result<Vec<PackedPosition>, String> {
    read_lines(path, PackedPosition::from_text)
}

/// One record per line of a text file, made by `parse`; blank lines and `#` comments are
/// skipped, and a line `parse` refuses is an error naming the file and the line.
pub fn read_lines(
    path: &Path,
    mut parse: impl FnMut(&str) -> Result<PackedPosition, String>,
) -> Result<Vec<PackedPosition>, String> {
    let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut records = Vec::new();
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        records.push(parse(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?);
    }
    Ok(records)
}

/// A deterministic Fisher-Yates shuffle (splitmix64 stream from `seed`).
pub fn shuffle(records: &mut [PackedPosition], seed: u64) {
    let mut state = seed;
    for i in (1..records.len()).rev() {
        let j = (splitmix64(&mut state) % (i as u64 + 1)) as usize;
        records.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::tools::data::GameResult;

    fn temp_path(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("escaque-data-{}-{name}", std::process::id()))
    }

    #[test]
    fn truncated_and_corrupt_files_are_clear_errors() {
        let record = PackedPosition::pack(&Board::startpos(), 5, GameResult::Draw).unwrap();
        let path = temp_path("trunc.bin");
        std::fs::write(&path, &record.bytes[..20]).unwrap();
        let err = read_records(&path).unwrap_err();
        assert!(err.contains("truncated"), "{err}");
        let mut bad = record.bytes;
        bad[31] = 9;
        std::fs::write(&path, [record.bytes, bad].concat()).unwrap();
        let err = read_records(&path).unwrap_err();
        assert!(err.contains("record 1"), "{err}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn write_read_and_shuffle_keep_the_records() {
        let boards = ["4k3/8/8/8/8/8/8/4K3 w - - 0 1", crate::board::START_FEN];
        let mut records: Vec<_> = (0..50)
            .map(|i| {
                let board = Board::from_fen(boards[i % 2]).unwrap();
                PackedPosition::pack(&board, i as i16, GameResult::WhiteWin).unwrap()
            })
            .collect();
        let path = temp_path("rw.bin");
        write_records(&path, &records).unwrap();
        assert_eq!(read_records(&path).unwrap(), records);
        std::fs::remove_file(&path).unwrap();
        let before = records.clone();
        shuffle(&mut records, 7);
        assert_ne!(records, before);
        let mut scores: Vec<_> = records.iter().map(|r| r.white_score()).collect();
        scores.sort();
        assert_eq!(scores, (0..50).collect::<Vec<i16>>());
    }
}
