//! Training data: the packed position format that `escaque datagen` writes and `escaque train`
//! reads, and the file operations of `escaque data`.

mod file;
mod packed;

pub use file::{read_all, read_records, read_text, shuffle, splitmix64, statistics, write_records};
pub use packed::{GameResult, PackedPosition, RECORD_BYTES};
