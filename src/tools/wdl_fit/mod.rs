//! `escaque data wdl-fit`: fits the win-rate model (`crate::wdl::model`) to self-play data
//! (`fit`), prints how well it matches the data and writes the parameters the engine builds in
//! (`report`, `src/wdl/fitted.rs`).

pub mod cli;
pub mod fit;
pub mod report;
