//! Perft's command line (`escaque perft`) and `--against`, which compares the count with
//! another engine's `go perft` and walks down to the first difference. The counting itself is
//! the engine's (`crate::perft`, which UCI `go perft` uses too).

pub mod against;
pub mod cli;
pub mod engine;
