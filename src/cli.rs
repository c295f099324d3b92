//! Developer subcommands of the binary that are not UCI: `tune` and `datagen`.
//! (`perft` lives in `perft::cli`; everything else on the command line runs as UCI commands.)

use std::io::Write;
use std::process::ExitCode;

use crate::datagen::{self, DatagenConfig};
use crate::tune;

const TUNE_USAGE: &str =
    "usage: escaque tune <labelled.epd> [--epochs N] [--l2 X] [--lr X] [--out FILE]";
const DATAGEN_USAGE: &str =
    "usage: escaque datagen <out.epd> [--games N] [--nodes N] [--random-plies N] [--seed S]";

/// A command line split into positional words and `--name value` pairs.
struct Args<'a> {
    positional: Vec<&'a str>,
    flags: Vec<(&'a str, &'a str)>,
}

/// `None` when a `--flag` has no value.
fn parse_flags(args: &[String]) -> Option<Args<'_>> {
    let mut parsed = Args {
        positional: Vec::new(),
        flags: Vec::new(),
    };
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if let Some(name) = word.strip_prefix("--") {
            parsed.flags.push((name, words.next()?.as_str()));
        } else {
            parsed.positional.push(word.as_str());
        }
    }
    Some(parsed)
}

fn number<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("--{flag} needs a number, got '{value}'"))
}

/// A non-negative finite number for a tuner setting.
fn finite(flag: &str, value: &str) -> Result<f64, String> {
    let x: f64 = number(flag, value)?;
    if x.is_finite() && x >= 0.0 {
        Ok(x)
    } else {
        Err(format!(
            "--{flag} needs a non-negative number, got '{value}'"
        ))
    }
}

/// `escaque tune <epd> [--epochs N] [--l2 X] [--lr X] [--out FILE]`: Texel-tunes the evaluation
/// weights on a result-labelled EPD file and writes the new `PARAMS` table as Rust source.
pub fn run_tune(args: &[String]) -> ExitCode {
    let result = (|| -> Result<(), String> {
        let Args { positional, flags } = parse_flags(args).ok_or(TUNE_USAGE)?;
        let [path] = positional[..] else {
            return Err(TUNE_USAGE.to_string());
        };
        let mut config = tune::TuneConfig::default();
        let mut out_path = "tuned-params.rs".to_string();
        for (name, value) in flags {
            match name {
                "epochs" => config.epochs = number(name, value)?,
                "l2" => config.l2 = finite(name, value)?,
                "lr" => config.lr = finite(name, value)?,
                "out" => out_path = value.to_string(),
                _ => return Err(format!("unknown option --{name} ({TUNE_USAGE})")),
            }
        }
        let epd = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        if !epd.lines().any(|line| tune::parse_line(line).is_some()) {
            return Err(format!("no labelled positions in {path}"));
        }
        let (report, weights) = tune::tune_with(&epd, &config, &mut |line| eprintln!("{line}"));
        println!("{report}");
        std::fs::write(&out_path, tune::to_rust(&weights))
            .map_err(|e| format!("cannot write {out_path}: {e}"))?;
        println!("weights written to {out_path}");
        Ok(())
    })();
    finish(result)
}

/// `escaque datagen <out.epd> [--games N] [--nodes N] [--random-plies N] [--seed S]`: self-play
/// games at a fixed node count, positions labelled with the game result, for the tuner.
pub fn run_datagen(args: &[String]) -> ExitCode {
    let result = (|| -> Result<(), String> {
        let Args { positional, flags } = parse_flags(args).ok_or(DATAGEN_USAGE)?;
        let [path] = positional[..] else {
            return Err(DATAGEN_USAGE.to_string());
        };
        let mut config = DatagenConfig::default();
        for (name, value) in flags {
            match name {
                "games" => config.games = number(name, value)?,
                "nodes" => config.nodes = number(name, value)?,
                "random-plies" => config.random_plies = number(name, value)?,
                "seed" => config.seed = number(name, value)?,
                _ => return Err(format!("unknown option --{name} ({DATAGEN_USAGE})")),
            }
        }
        let file = std::fs::File::create(path).map_err(|e| format!("cannot create {path}: {e}"))?;
        let mut out = std::io::BufWriter::new(file);
        let written = datagen::run(&mut out, &config);
        out.flush()
            .map_err(|e| format!("cannot write {path}: {e}"))?;
        println!("{written} positions written to {path}");
        Ok(())
    })();
    finish(result)
}

fn finish(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
