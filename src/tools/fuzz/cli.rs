//! `escaque fuzz`: a fuzzing campaign on the FEN parser or the UCI front end, from the command
//! line:
//!
//! ```sh
//! escaque fuzz --target fen --cases 1000000 --seed 1
//! escaque fuzz --target uci --seconds 180 --seed 1
//! escaque fuzz --target uci --seed 1 --first-case 4711 --cases 1
//! ```
//!
//! The last line is the summary (`fuzz fen: N inputs, 0 panics, …`); each failure is printed
//! before it with its seed, case and input, and the exit status is 1 if there was any. In the
//! release profile a panic aborts the process after the panic hook has printed the running input;
//! a build with the `test` profile (`cargo run --profile test -- fuzz …`: optimised too, with
//! debug assertions) records panics and goes on.

use std::process::ExitCode;
use std::time::Duration;

use super::{Config, Target};

/// Fuzz the FEN parser or the UCI front end with seeded random inputs
#[derive(clap::Args, Debug)]
#[command(group = clap::ArgGroup::new("budget").required(true).multiple(true))]
pub struct FuzzArgs {
    /// What to fuzz
    #[arg(long)]
    target: FuzzTarget,
    /// Inputs to run
    #[arg(long, group = "budget")]
    cases: Option<u64>,
    /// Stop after this many seconds
    #[arg(long, group = "budget")]
    seconds: Option<u64>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The first case to run (replay a failure with `--first-case N --cases 1`)
    #[arg(long, default_value_t = 0)]
    first_case: u64,
    /// Stop after this many failures
    #[arg(long, default_value_t = Config::new(1, 1).max_failures)]
    max_failures: usize,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum FuzzTarget {
    Fen,
    Uci,
}

impl FuzzArgs {
    pub fn run(self) -> ExitCode {
        let target = match self.target {
            FuzzTarget::Fen => Target::Fen,
            FuzzTarget::Uci => Target::Uci,
        };
        let mut config = Config::new(self.seed, self.cases.unwrap_or(u64::MAX));
        config.first_case = self.first_case;
        config.time_limit = self.seconds.map(Duration::from_secs);
        config.max_failures = self.max_failures;
        let summary = super::run(target, &config);
        for failure in &summary.failures {
            report!("FAILURE {failure}\n");
        }
        report!("{summary}");
        if summary.passed() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        }
    }
}
