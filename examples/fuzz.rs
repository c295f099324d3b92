//! Runs a fuzzing campaign on the FEN parser or the UCI front end (see `escaque::fuzz`):
//!
//! ```sh
//! cargo run --release --example fuzz -- --target fen --cases 1000000 --seed 1
//! cargo run --release --example fuzz -- --target uci --seconds 180 --seed 1
//! cargo run --release --example fuzz -- --target uci --seed 1 --first-case 4711 --cases 1
//! ```
//!
//! The last line is the summary (`fuzz fen: N inputs, 0 panics, …`); each failure is printed
//! before it with its seed, case and input, and the exit status is 1 if there was any. In the
//! release profile a panic aborts the process after the panic hook has printed the running input;
//! `--profile test` instead of `--release` (optimised too, with debug assertions) records panics
//! and goes on.

use std::process::ExitCode;
use std::time::Duration;

use escaque::fuzz::{self, Config, Target};

const USAGE: &str = "usage: fuzz --target fen|uci [--cases N] [--seconds T] [--seed S] \
                     [--first-case K] [--max-failures M]";

fn main() -> ExitCode {
    match parse(std::env::args().skip(1).collect()) {
        Ok((target, config)) => {
            let summary = fuzz::run(target, &config);
            for failure in &summary.failures {
                println!("FAILURE {failure}\n");
            }
            println!("{summary}");
            if summary.passed() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(message) => {
            eprintln!("error: {message}\n{USAGE}");
            ExitCode::FAILURE
        }
    }
}

fn parse(args: Vec<String>) -> Result<(Target, Config), String> {
    let mut target = None;
    let mut config = Config::new(1, u64::MAX);
    let mut cases_given = false;
    let mut words = args.iter();
    while let Some(flag) = words.next() {
        let value = words
            .next()
            .ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || -> Result<u64, String> {
            value
                .parse()
                .map_err(|_| format!("{flag} needs a number, got '{value}'"))
        };
        match flag.as_str() {
            "--target" => {
                target = Some(match value.as_str() {
                    "fen" => Target::Fen,
                    "uci" => Target::Uci,
                    _ => return Err(format!("unknown target '{value}'")),
                })
            }
            "--cases" => {
                config.cases = number()?;
                cases_given = true;
            }
            "--seconds" => config.time_limit = Some(Duration::from_secs(number()?)),
            "--seed" => config.seed = number()?,
            "--first-case" => config.first_case = number()?,
            "--max-failures" => config.max_failures = number()? as usize,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    let target = target.ok_or("--target is required")?;
    if !cases_given && config.time_limit.is_none() {
        return Err("give --cases or --seconds".to_string());
    }
    Ok((target, config))
}
