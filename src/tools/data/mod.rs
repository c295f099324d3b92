//! Training data: the packed position format that `escaque datagen` writes and `escaque train`
//! reads, and the file operations of `escaque data`.

pub mod cli;
mod dedup;
mod file;
mod filter;
mod interleave;
mod packed;
mod position;
mod stats;
mod stream;

pub use dedup::{dedup, DedupSummary};
pub use file::{read_all, read_lines, read_records, read_text, shuffle, write_records};
pub use filter::{filter, DropReason, FilterRules, FilterSummary};
pub use interleave::{interleave, DEFAULT_BUFFER};
pub use packed::{GameResult, PackedPosition, RECORD_BYTES};
pub use stats::{file_statistics, statistics, Statistics};
pub use stream::{refuse_input_as_output, RecordReader, RecordWriter};
