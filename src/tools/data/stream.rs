//! Record-at-a-time reading and writing, for the tools that must not hold whole files in memory
//! (`dedup`, `filter`, `interleave`, `stats`).

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::packed::{PackedPosition, RECORD_BYTES};

/// Large enough that reading 32-byte records costs one system call per 32k of them.
const BUFFER_BYTES: usize = 1 << 20;

/// Reads one data file record by record, validating each; yields `Err` naming the file and the
/// record for a corrupt one, and for a file that shrank while it was read.
pub struct RecordReader {
    path: PathBuf,
    reader: BufReader<File>,
    records: u64,
    next_index: u64,
}

impl RecordReader {
    /// Opens a data file, refusing one whose length is not a whole number of records, so a
    /// truncated file is an error before anything is written.
    pub fn open(path: &Path) -> Result<RecordReader, String> {
        let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        let len = file
            .metadata()
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?
            .len();
        if !len.is_multiple_of(RECORD_BYTES as u64) {
            return Err(format!(
                "{} is truncated or not a data file: {len} bytes is not a multiple of \
                 {RECORD_BYTES}",
                path.display()
            ));
        }
        Ok(RecordReader {
            path: path.to_path_buf(),
            reader: BufReader::with_capacity(BUFFER_BYTES, file),
            records: len / RECORD_BYTES as u64,
            next_index: 0,
        })
    }

    /// Records in the file when it was opened.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Records not read yet.
    pub fn remaining(&self) -> u64 {
        self.records - self.next_index
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Iterator for RecordReader {
    type Item = Result<PackedPosition, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next_index == self.records {
            return None;
        }
        let index = self.next_index;
        self.next_index += 1;
        let mut bytes = [0u8; RECORD_BYTES];
        if let Err(e) = self.reader.read_exact(&mut bytes) {
            // Stop for good: a file that changed under us has nothing more to trust.
            self.next_index = self.records;
            return Some(Err(format!(
                "{}: cannot read record {index} (did the file change?): {e}",
                self.path.display()
            )));
        }
        let record = PackedPosition { bytes };
        Some(
            record
                .validate()
                .map(|()| record)
                .map_err(|e| format!("{}: record {index} is corrupt: {e}", self.path.display())),
        )
    }
}

/// Opens every input before anything is written, so a missing or truncated file is refused
/// without leaving a partial output behind.
pub fn open_all(paths: &[&Path]) -> Result<Vec<RecordReader>, String> {
    paths.iter().map(|path| RecordReader::open(path)).collect()
}

/// Refuses an output that is one of the inputs: creating it would truncate the file being read.
pub fn refuse_input_as_output(inputs: &[&Path], output: &Path) -> Result<(), String> {
    let Ok(output_canonical) = output.canonicalize() else {
        return Ok(()); // the output does not exist yet, so it is no input
    };
    for input in inputs {
        if input.canonicalize().is_ok_and(|c| c == output_canonical) {
            return Err(format!(
                "the output {} is also an input; write to another file",
                output.display()
            ));
        }
    }
    Ok(())
}

/// Writes records to a new file. Unless [`RecordWriter::finish`] succeeds, the file is removed
/// when the writer is dropped, so a run stopped by a corrupt input leaves no half-written output
/// that could be mistaken for a result.
pub struct RecordWriter {
    path: PathBuf,
    out: Option<BufWriter<File>>,
    written: u64,
}

impl RecordWriter {
    pub fn create(path: &Path) -> Result<RecordWriter, String> {
        let file =
            File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(RecordWriter {
            path: path.to_path_buf(),
            out: Some(BufWriter::with_capacity(BUFFER_BYTES, file)),
            written: 0,
        })
    }

    pub fn write(&mut self, record: &PackedPosition) -> Result<(), String> {
        let out = self.out.as_mut().expect("not finished");
        out.write_all(&record.bytes)
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))?;
        self.written += 1;
        Ok(())
    }

    /// Flushes the file and keeps it; returns the number of records written.
    pub fn finish(mut self) -> Result<u64, String> {
        let mut out = self.out.take().expect("finished once");
        let flushed = out
            .flush()
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()));
        if flushed.is_err() {
            let _ = std::fs::remove_file(&self.path);
        }
        flushed.map(|()| self.written)
    }
}

impl Drop for RecordWriter {
    fn drop(&mut self) {
        if self.out.take().is_some() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::Board;
    use crate::tools::data::GameResult;

    /// A path in the temporary directory that no other call (in any test thread) returns.
    pub(crate) fn temp_path(name: &str) -> PathBuf {
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        std::env::temp_dir().join(format!("escaque-data-{}-{call}-{name}", std::process::id()))
    }

    /// A record of `fen` with the given score (the score tells records of one position apart).
    pub(crate) fn record(fen: &str, score: i16) -> PackedPosition {
        let board = Board::from_fen(fen).unwrap();
        PackedPosition::pack(&board, score, GameResult::Draw).unwrap()
    }

    #[test]
    fn reader_refuses_truncated_files_and_names_corrupt_records() {
        let good = record(crate::board::START_FEN, 0);
        let path = temp_path("stream-trunc.bin");
        std::fs::write(&path, &good.bytes[..31]).unwrap();
        let err = RecordReader::open(&path).err().unwrap();
        assert!(err.contains("truncated"), "{err}");
        let mut bad = good.bytes;
        bad[31] = 3;
        std::fs::write(&path, [good.bytes, good.bytes, bad].concat()).unwrap();
        let results: Vec<_> = RecordReader::open(&path).unwrap().collect();
        assert_eq!(results.len(), 3);
        assert_eq!(results[0], Ok(good));
        assert!(results[2].as_ref().unwrap_err().contains("record 2"));
        std::fs::remove_file(&path).unwrap();
        let err = RecordReader::open(&path).err().unwrap();
        assert!(err.contains("cannot open"), "{err}");
    }

    #[test]
    fn an_unfinished_writer_removes_its_file() {
        let path = temp_path("stream-unfinished.bin");
        let mut writer = RecordWriter::create(&path).unwrap();
        writer.write(&record(crate::board::START_FEN, 0)).unwrap();
        drop(writer);
        assert!(!path.exists());
        let mut writer = RecordWriter::create(&path).unwrap();
        writer.write(&record(crate::board::START_FEN, 0)).unwrap();
        assert_eq!(writer.finish(), Ok(1));
        assert_eq!(std::fs::metadata(&path).unwrap().len(), RECORD_BYTES as u64);
        assert!(refuse_input_as_output(&[path.as_path()], &path).is_err());
        std::fs::remove_file(&path).unwrap();
    }
}
