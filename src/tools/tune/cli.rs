//! `escaque tune`: the command line of the Texel tuner.

use std::path::{Path, PathBuf};

use super::TuneConfig;
use crate::tools::number_in;

/// Texel-tune the hand-crafted evaluation's weights on a result-labelled EPD file and write
/// the new `PARAMS` table as Rust source
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct TuneArgs {
    #[command(subcommand)]
    command: Option<TuneCommand>,
    /// Labelled positions (`<FEN> c9 "1-0";` or `<FEN> [1.0]`)
    #[arg(required = true, value_name = "LABELLED.epd")]
    epd: Option<PathBuf>,
    #[arg(long, default_value_t = TuneConfig::default().epochs)]
    epochs: usize,
    /// L2 pull towards the starting weights
    #[arg(long, allow_negative_numbers = true, default_value_t = TuneConfig::default().l2, value_parser = number_in(0.0, f64::MAX))]
    l2: f64,
    /// Adam step size in centipawns
    #[arg(long, allow_negative_numbers = true, default_value_t = TuneConfig::default().lr, value_parser = number_in(0.0, f64::MAX))]
    lr: f64,
    /// 1: replace each position by its quiescence-search leaf first; 0: as given
    #[arg(long, default_value_t = u8::from(TuneConfig::default().resolve),
          value_parser = clap::value_parser!(u8).range(0..=1))]
    resolve: u8,
    /// Sections whose weights stay as they are (e.g. MATERIAL,PST_PAWN)
    #[arg(long, value_delimiter = ',', value_name = "SECTION,...")]
    freeze: Vec<String>,
    /// Where the new weights go
    #[arg(long, default_value = "tuned-params.rs")]
    out: PathBuf,
}

#[derive(clap::Subcommand, Debug)]
enum TuneCommand {
    /// Game results by evaluation bucket: checks a data file's labels
    Diagnose {
        #[arg(value_name = "LABELLED.epd")]
        epd: PathBuf,
    },
}

/// A file with at least one labelled position.
fn read(path: &Path) -> Result<String, String> {
    let epd = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !epd.lines().any(|line| super::parse_line(line).is_some()) {
        return Err(format!("no labelled positions in {}", path.display()));
    }
    Ok(epd)
}

impl TuneArgs {
    pub fn run(self) -> Result<(), String> {
        if let Some(TuneCommand::Diagnose { epd }) = &self.command {
            report_text!("{}", super::results_by_eval_bucket(&read(epd)?));
            return Ok(());
        }
        let path = self.epd.as_ref().expect("clap requires the EPD file");
        let config = TuneConfig {
            epochs: self.epochs,
            resolve: self.resolve == 1,
            l2: self.l2,
            lr: self.lr,
            frozen: self.freeze.into_iter().filter(|s| !s.is_empty()).collect(),
        };
        let epd = read(path)?;
        let (report, weights) = super::tune_with(&epd, &config, &mut |line| report_err!("{line}"));
        report!("{report}");
        let out = &self.out;
        std::fs::write(out, super::to_rust(&weights))
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        report!("weights written to {}", out.display());
        Ok(())
    }
}
