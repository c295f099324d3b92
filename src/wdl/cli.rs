//! `escaque data wdl-fit <files>... [--rust FILE] [--csv FILE] [--network FILE.nnue]
//! [--max-score CP]`: fits the win-rate model to datagen files and prints it with the tables
//! that compare it to the data; `--rust` writes it as `src/wdl/fitted.rs`, `--csv` the data that
//! `scripts/plot-wdl` draws.

use std::path::Path;

use super::fit::{fit, Observations};
use super::report;
use crate::data::RecordReader;

pub const USAGE: &str = "usage: escaque data wdl-fit <file>... [--rust FILE] [--csv FILE] \
     [--network FILE.nnue] [--max-score CP] (--network: the network that played the data, \
     named in the --rust output; default the built-in one)";

/// What `wdl-fit` was asked to do.
struct Request<'a> {
    inputs: Vec<&'a str>,
    rust: Option<&'a str>,
    csv: Option<&'a str>,
    network: Option<&'a str>,
    max_score: Option<i32>,
}

fn parse(args: &[String]) -> Result<Request<'_>, String> {
    let mut request = Request {
        inputs: Vec::new(),
        rust: None,
        csv: None,
        network: None,
        max_score: None,
    };
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let Some(name) = word.strip_prefix("--") else {
            request.inputs.push(word);
            continue;
        };
        let value = words
            .next()
            .ok_or_else(|| format!("--{name} needs a value ({USAGE})"))?
            .as_str();
        match name {
            "rust" => request.rust = Some(value),
            "csv" => request.csv = Some(value),
            "network" => request.network = Some(value),
            "max-score" => {
                request.max_score = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|&cp: &i32| cp > 0)
                        .ok_or_else(|| {
                            format!("--max-score needs a positive number, got '{value}'")
                        })?,
                )
            }
            _ => return Err(format!("unknown option --{name} for 'wdl-fit' ({USAGE})")),
        }
    }
    if request.inputs.is_empty() {
        return Err(format!("'wdl-fit' needs data files ({USAGE})"));
    }
    Ok(request)
}

/// Runs `data wdl-fit` (arguments after `wdl-fit`).
pub fn run(args: &[String]) -> Result<(), String> {
    let request = parse(args)?;
    let started = std::time::Instant::now();
    let checksum = match request.network {
        None => crate::nnue::Network::default_network().checksum,
        Some(path) => crate::nnue::Network::load(path)?.checksum,
    };
    let mut observations = Observations::default();
    let mut skipped = 0u64;
    let readers = request
        .inputs
        .iter()
        .map(|path| RecordReader::open(Path::new(path)))
        .collect::<Result<Vec<_>, _>>()?;
    for reader in readers {
        for record in reader {
            let record = record?;
            if request
                .max_score
                .is_some_and(|cp| i32::from(record.white_score()).abs() > cp)
            {
                skipped += 1;
                continue;
            }
            observations.add_record(&record);
        }
    }
    let fitted = fit(&observations)?;
    print!("{}", report::summary(&fitted, &observations));
    if skipped > 0 {
        println!("{skipped} positions beyond --max-score left out");
    }
    println!(
        "network {checksum:016x}; fitted in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    if let Some(path) = request.csv {
        std::fs::write(path, report::csv(&fitted, &observations))
            .map_err(|e| format!("cannot write {path}: {e}"))?;
        println!("plot data written to {path}");
    }
    if let Some(path) = request.rust {
        let names: Vec<&str> = request
            .inputs
            .iter()
            .map(|p| {
                Path::new(p)
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or(p)
            })
            .collect();
        let fitted_on = format!(
            "{}: {} positions",
            names.join(" "),
            observations.positions()
        );
        std::fs::write(path, report::rust_source(&fitted, checksum, &fitted_on))
            .map_err(|e| format!("cannot write {path}: {e}"))?;
        println!("parameters written to {path}");
    }
    Ok(())
}
