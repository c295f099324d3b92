//! escaque: a UCI chess engine. The rules (`types`, `attacks`, `board`) never depend on the search.

pub mod attacks;
pub mod bench;
pub mod board;
pub mod cli;
pub mod data;
pub mod datagen;
pub mod eval;
pub mod event;
pub mod fuzz;
pub(crate) mod memory;
pub mod nnue;
pub mod perft;
pub mod progress;
pub mod search;
pub mod syzygy;
pub mod train;
pub mod tt;
pub mod tune;
pub mod types;
pub mod uci;
pub mod wdl;
