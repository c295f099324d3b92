//! escaque: a UCI chess engine. The engine reads floor by floor: the rules (`types`, `attacks`,
//! `board`, which never depend on the search), the evaluation (`evaluation` chooses: the network,
//! `nnue`, or the hand-crafted fallback, `hce`), the endgame tables (`syzygy`), the transposition
//! table (`tt`), the search, and the UCI front end (`uci`, with `bench` and `perft`'s counting). `command_line` is
//! the program's command line; the developer tools live apart, in `tools` (the `tools` feature).

pub mod attacks;
pub mod bench;
pub mod board;
pub mod command_line;
pub mod evaluation;
pub mod event;
pub mod hce;
pub(crate) mod memory;
pub mod nnue;
pub mod perft;
pub mod random;
pub mod search;
pub mod syzygy;
#[cfg(feature = "tools")]
pub mod tools;
pub mod tt;
pub mod types;
pub mod uci;
pub mod wdl;
