//! The developer tools, apart from the engine: self-play data (`datagen`, and `rescore` to
//! label a file again), the data files' tools (`data`), the network trainer (`train`, with
//! `net-loss` and `net-merge`), the Texel tuner of the hand-crafted evaluation
//! (`tune`), the fuzzer (`fuzz`), perft's command line and `--against` (`perft`), and the magic
//! finder (`find-magics`). Each has a `cli.rs` with its arguments (clap's derive API) next to
//! what it runs; [`Tool`] gathers them under `escaque <tool>` (see [`crate::command_line`]).
//!
//! The engine never imports this module: the build without the `tools` feature
//! (`cargo build --release --no-default-features`) plays and leaves all of it out.

/// `println!` for what a tool reports on stdout. The report is not the work: a reader that has
/// gone (`| head`, a closed terminal) must not turn a run into a panic, so a failed write is
/// dropped. Defined before the modules below so that all of them can use it.
macro_rules! report {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// `print!` likewise, for text that ends its own lines.
macro_rules! report_text {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// `eprintln!` likewise, for progress and errors on stderr (the exit status still tells a
/// failure).
macro_rules! report_err {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

pub mod data;
pub mod datagen;
pub mod fuzz;
pub mod magics;
pub mod perft;
pub mod progress;
pub mod train;
pub mod tune;
pub mod wdl_fit;

use std::process::ExitCode;

/// `escaque <tool> ...`: every developer tool.
#[derive(clap::Subcommand, Debug)]
pub enum Tool {
    Perft(perft::cli::PerftArgs),
    Datagen(datagen::cli::DatagenArgs),
    Rescore(datagen::cli::RescoreArgs),
    #[command(subcommand)]
    Data(data::cli::DataCommand),
    Train(train::cli::TrainArgs),
    NetLoss(train::net_loss::NetLossArgs),
    NetMerge(train::merge::NetMergeArgs),
    Tune(tune::cli::TuneArgs),
    Fuzz(fuzz::cli::FuzzArgs),
    FindMagics(magics::FindMagicsArgs),
}

impl Tool {
    pub fn run(self) -> ExitCode {
        match self {
            Tool::Perft(args) => args.run(),
            Tool::Datagen(args) => finish(args.run()),
            Tool::Rescore(args) => finish(args.run()),
            Tool::Data(command) => finish(command.run()),
            Tool::Train(args) => finish(args.run()),
            Tool::NetLoss(args) => finish(args.run()),
            Tool::NetMerge(args) => finish(args.run()),
            Tool::Tune(args) => finish(args.run()),
            Tool::Fuzz(args) => args.run(),
            Tool::FindMagics(args) => finish(args.run()),
        }
    }
}

/// Exit status of a tool that ran: `error: <message>` on stderr and 1 on failure. (Bad
/// arguments never get here: clap refuses them with status 2.)
pub(crate) fn finish(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            report_err!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// A clap value parser for a whole number in `low..=high`, digits only (no sign).
pub(crate) fn whole_in<T>(
    low: T,
    high: T,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    move |text: &str| match text.parse::<T>() {
        Ok(n) if digits(text) && low <= n && n <= high => Ok(n),
        _ => Err(format!("expected a whole number from {low} to {high}")),
    }
}

/// A clap value parser for a finite number in `low..=high`.
pub(crate) fn number_in(
    low: f64,
    high: f64,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |text: &str| match text.parse::<f64>() {
        Ok(x) if x.is_finite() && low <= x && x <= high => Ok(x),
        _ if high == f64::MAX => Err(format!("expected a finite number, at least {low}")),
        _ => Err(format!("expected a number from {low} to {high}")),
    }
}

/// `--threads` of a tool: the engine's own limit (`Threads`).
pub(crate) fn threads() -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static {
    whole_in(1, crate::uci::options::MAX_THREADS as usize)
}
