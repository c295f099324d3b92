//! `escaque data <command>`: inspect and transform datagen files.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::{FilterRules, DEFAULT_BUFFER};

/// Inspect and transform datagen files (datagen already drops positions in check, with a noisy
/// best move or a mate score, and its random plies; records hold no best move)
#[derive(clap::Subcommand, Debug)]
pub enum DataCommand {
    /// Counts, results, score and ply spread of packed files
    Stats {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Every record as a line of text
    Text {
        file: PathBuf,
    },
    /// Every record as an EPD line with its game result (`c9 "1-0";`), the tuner's input
    Epd {
        file: PathBuf,
    },
    /// Packs text lines (as `text` writes them) into a file
    FromText {
        input: PathBuf,
        output: PathBuf,
    },
    /// Shuffles a file's records (in memory)
    Shuffle {
        input: PathBuf,
        output: PathBuf,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Appends files into one
    Concat {
        /// The inputs, then the output
        #[arg(num_args = 2.., required = true, value_name = "IN... OUT")]
        files: Vec<PathBuf>,
    },
    /// Drops records of a position seen before (streaming)
    Dedup {
        /// The inputs, then the output
        #[arg(num_args = 2.., required = true, value_name = "IN... OUT")]
        files: Vec<PathBuf>,
    },
    /// Merges files in an order drawn from the seed, through a shuffling buffer (streaming)
    Interleave {
        /// The inputs, then the output
        #[arg(num_args = 2.., required = true, value_name = "IN... OUT")]
        files: Vec<PathBuf>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Records held in the shuffling buffer
        #[arg(long, default_value_t = DEFAULT_BUFFER)]
        buffer: usize,
    },
    /// Keeps the records that pass every rule given (streaming)
    Filter {
        /// The inputs, then the output
        #[arg(num_args = 2.., required = true, value_name = "IN... OUT")]
        files: Vec<PathBuf>,
        /// Drop records before this game ply
        #[arg(long, default_value_t = FilterRules::default().min_ply)]
        min_ply: u32,
        /// Drop records whose |score| is above this (centipawns)
        #[arg(long, value_name = "CP")]
        max_score: Option<u16>,
        /// Keep records with at least this many pieces (kings included)
        #[arg(long, default_value_t = FilterRules::default().min_pieces)]
        min_pieces: u32,
        /// Keep records with at most this many pieces (kings included)
        #[arg(long, default_value_t = FilterRules::default().max_pieces)]
        max_pieces: u32,
        /// Drop records whose side to move is in check
        #[arg(long)]
        drop_in_check: bool,
    },
    WdlFit(crate::tools::wdl_fit::cli::WdlFitArgs),
}

impl DataCommand {
    pub fn run(self) -> Result<(), String> {
        let started = Instant::now();
        match self {
            DataCommand::WdlFit(args) => args.run()?,
            DataCommand::Stats { files } => {
                report_text!("{}", super::file_statistics(&paths(&files))?);
            }
            DataCommand::Text { file } => write_lines(&file, |r| r.to_text())?,
            DataCommand::Epd { file } => write_lines(&file, |r| {
                format!("{} c9 \"{}\";", r.to_fen(), r.result().pgn())
            })?,
            DataCommand::FromText { input, output } => {
                let records = super::read_text(&input)?;
                super::write_records(&output, &records)?;
                report!(
                    "{} positions written to {}",
                    records.len(),
                    output.display()
                );
            }
            DataCommand::Shuffle {
                input,
                output,
                seed,
            } => {
                let mut records = super::read_records(&input)?;
                super::shuffle(&mut records, seed);
                super::write_records(&output, &records)?;
                report!(
                    "{} positions shuffled into {}",
                    records.len(),
                    output.display()
                );
            }
            DataCommand::Concat { files } => {
                let (inputs, output) = inputs_and_output(&files);
                let records = super::read_all(&inputs)?;
                super::write_records(output, &records)?;
                report!(
                    "{} positions written to {}",
                    records.len(),
                    output.display()
                );
            }
            DataCommand::Dedup { files } => {
                let (inputs, output) = inputs_and_output(&files);
                let summary = super::dedup(&inputs, output)?;
                report!(
                    "{} positions kept, {} duplicates dropped ({:.2}%), written to {} in {:.1} s",
                    summary.kept,
                    summary.dropped,
                    100.0 * summary.dropped as f64 / (summary.kept + summary.dropped).max(1) as f64,
                    output.display(),
                    started.elapsed().as_secs_f64()
                );
            }
            DataCommand::Interleave {
                files,
                seed,
                buffer,
            } => {
                let (inputs, output) = inputs_and_output(&files);
                let written = super::interleave(&inputs, output, seed, buffer)?;
                report!(
                    "{written} positions from {} files interleaved into {} in {:.1} s",
                    inputs.len(),
                    output.display(),
                    started.elapsed().as_secs_f64()
                );
            }
            DataCommand::Filter {
                files,
                min_ply,
                max_score,
                min_pieces,
                max_pieces,
                drop_in_check,
            } => {
                let (inputs, output) = inputs_and_output(&files);
                if min_pieces > max_pieces {
                    return Err("--min-pieces is above --max-pieces".to_string());
                }
                let rules = FilterRules {
                    min_ply,
                    max_abs_score: max_score,
                    drop_in_check,
                    min_pieces,
                    max_pieces,
                };
                let s = super::filter(&inputs, output, &rules)?;
                report!(
                    "{} positions kept, {} dropped (early ply {}, |score| {}, pieces {}, \
                     in check {}), written to {} in {:.1} s",
                    s.kept,
                    s.dropped(),
                    s.early_ply,
                    s.score,
                    s.pieces,
                    s.in_check,
                    output.display(),
                    started.elapsed().as_secs_f64()
                );
            }
        }
        Ok(())
    }
}

/// Writes one line per record of `file` to stdout (until stdout is closed).
fn write_lines(file: &Path, line: impl Fn(&super::PackedPosition) -> String) -> Result<(), String> {
    let records = super::read_records(file)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for r in &records {
        if writeln!(out, "{}", line(r)).is_err() {
            break;
        }
    }
    Ok(())
}

fn paths(files: &[PathBuf]) -> Vec<&Path> {
    files.iter().map(PathBuf::as_path).collect()
}

/// `<in>... <out>` (clap has checked there are at least two).
fn inputs_and_output(files: &[PathBuf]) -> (Vec<&Path>, &Path) {
    let (output, inputs) = files.split_last().expect("clap requires two files or more");
    (paths(inputs), output.as_path())
}
