//! `escaque data wdl-fit <files>... [--rust FILE] [--csv FILE] [--network FILE.nnue]
//! [--max-score CP]`: fits the win-rate model to datagen files and prints it with the tables
//! that compare it to the data; `--rust` writes it as `src/wdl/fitted.rs`, `--csv` the data that
//! `scripts/plot-wdl` draws.

use std::path::PathBuf;

use super::fit::{fit, Observations};
use super::report;
use crate::tools::data::RecordReader;

/// Fits the win-rate model (the reported score's scale) to datagen files
#[derive(clap::Args, Debug)]
pub struct WdlFitArgs {
    /// Packed self-play data
    #[arg(required = true, value_name = "DATA.bin")]
    inputs: Vec<PathBuf>,
    /// Write the parameters as Rust source (src/wdl/fitted.rs)
    #[arg(long, value_name = "FILE")]
    rust: Option<PathBuf>,
    /// Write the observed and predicted rates for scripts/plot-wdl
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// The network that played the data, named in the --rust output (default: the built-in one)
    #[arg(long, value_name = "FILE.nnue")]
    network: Option<PathBuf>,
    /// Leave out positions whose |score| is above this (centipawns)
    #[arg(long, value_name = "CP", value_parser = clap::value_parser!(i32).range(1..))]
    max_score: Option<i32>,
}

impl WdlFitArgs {
    /// Runs `data wdl-fit`.
    pub fn run(self) -> Result<(), String> {
        let request = self;
        let started = std::time::Instant::now();
        let checksum = match request.network {
            None => crate::nnue::Network::default_network().checksum,
            Some(path) => crate::nnue::Network::load(&path.to_string_lossy())?.checksum,
        };
        let mut observations = Observations::default();
        let mut skipped = 0u64;
        let readers = request
            .inputs
            .iter()
            .map(|path| RecordReader::open(path))
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
        report_text!("{}", report::summary(&fitted, &observations));
        if skipped > 0 {
            report!("{skipped} positions beyond --max-score left out");
        }
        report!(
            "network {checksum:016x}; fitted in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        if let Some(path) = &request.csv {
            std::fs::write(path, report::csv(&fitted, &observations))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            report!("plot data written to {}", path.display());
        }
        if let Some(path) = &request.rust {
            let names: Vec<&str> = request
                .inputs
                .iter()
                .map(|p| p.file_name().and_then(|n| n.to_str()).unwrap_or("?"))
                .collect();
            let fitted_on = format!(
                "{}: {} positions",
                names.join(" "),
                observations.positions()
            );
            std::fs::write(path, report::rust_source(&fitted, checksum, &fitted_on))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            report!("parameters written to {}", path.display());
        }
        Ok(())
    }
}
