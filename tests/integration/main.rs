//! The integration tests, built as one test program (one link instead of fourteen: see the README's
//! "Tests" section). Each file is a module named after what it tests; filter by module path, e.g.
//! `cargo test --release --test integration uci_search::` or, for the long suites that need
//! `../shared`, `cargo test --release --test integration -- --ignored perft::`.
//!
//! `tests/perft_against.rs` stays a program of its own: it has no libtest harness, because it
//! doubles as the fake UCI engine its tests run against.

mod common;
mod uci_common;

mod cli_tools;
mod fuzz;
mod movegen_props;
mod nnue;
mod perft;
mod rules;
mod search_basic;
mod search_mates;
mod search_tune;
mod syzygy;
mod uci_protocol;
mod uci_search;
mod uci_syzygy;
mod uci_tunables;
mod uci_wdl;
mod wdl_fit_cli;
