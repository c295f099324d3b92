//! Syzygy endgame tablebases: finding and checking the table files, loading them once per
//! process, and probing them. The probing itself is pyrrhic-rs (a pure-Rust port of Pyrrhic,
//! itself Fathom's successor), whose move generation runs on escaque's attack tables through
//! [`adapter::EscaqueAttacks`]. This module knows the rules, never the search.

pub mod adapter;
pub mod files;
mod tables;

pub use tables::{check, is_empty_path, load, release_unused, Loaded, MoveDtz, Tablebases, Wdl};
