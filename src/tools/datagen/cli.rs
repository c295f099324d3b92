//! `escaque datagen`: the command line of self-play data generation.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::rescore::{rescore, RescoreConfig};
use super::{DatagenConfig, MAX_SOFT_NODES};
use crate::board::Board;
use crate::evaluation::Evaluation;
use crate::nnue::Network;
use crate::tools::{threads, whole_in};
use crate::uci::options::MAX_HASH_MB;

/// Self-play games; their positions in the packed training format, appended to OUT (a run
/// that was stopped resumes where it stopped)
#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// The packed output file
    out: PathBuf,
    /// Games in the whole file, counting those of earlier runs
    #[arg(long, default_value_t = DatagenConfig::default().games)]
    games: u64,
    /// Soft node limit of each search: no new iteration after this many nodes
    #[arg(long, default_value_t = DatagenConfig::default().soft_nodes,
          value_parser = whole_in(1, MAX_SOFT_NODES))]
    nodes: u64,
    /// Random plies played after the book position
    #[arg(long, default_value_t = DatagenConfig::default().random_plies)]
    random_plies: usize,
    #[arg(long, default_value_t = DatagenConfig::default().seed)]
    seed: u64,
    /// Games played at once, one search thread each
    #[arg(long, default_value_t = DatagenConfig::default().threads, value_parser = threads())]
    threads: usize,
    /// Hash table of each game, in MB
    #[arg(long, default_value_t = DatagenConfig::default().hash_mb,
          value_parser = whole_in(1, MAX_HASH_MB as usize))]
    hash: usize,
    /// Opening positions to start from (an EPD file; default: the start position)
    #[arg(long, value_name = "FILE.epd")]
    book: Option<PathBuf>,
    /// The evaluation that plays: hce (the hand-crafted one), nnue (the built-in network) or a
    /// network file
    #[arg(long, default_value = "hce", value_name = "hce|nnue|FILE.nnue")]
    eval: String,
}

impl DatagenArgs {
    pub fn run(self) -> Result<(), String> {
        let config = DatagenConfig {
            games: self.games,
            soft_nodes: self.nodes,
            random_plies: self.random_plies,
            seed: self.seed,
            threads: self.threads,
            hash_mb: self.hash,
            book: match &self.book {
                Some(path) => read_book(path)?,
                None => Vec::new(),
            },
            evaluation: evaluation(&self.eval)?,
        };
        let path = &self.out;
        let stop = AtomicBool::new(false);
        let summary = super::run_with_progress(path, &config, &stop)?;
        report!(
            "{} games, {} positions appended to {} (resumed at game {})",
            summary.games,
            summary.positions,
            path.display(),
            summary.resumed_from_game
        );
        Ok(())
    }
}

/// `--eval`: hce (the hand-crafted evaluation), nnue (the built-in network) or a network file.
fn evaluation(name: &str) -> Result<Evaluation, String> {
    Ok(match name {
        "hce" => Evaluation::HandCrafted,
        "nnue" => Evaluation::Network(Network::default_network()),
        path => Evaluation::Network(Arc::new(Network::load(path)?)),
    })
}

/// The positions of a data file labelled again by a search of another depth, the game results
/// kept (a run that was stopped resumes where it stopped)
#[derive(clap::Args, Debug)]
pub struct RescoreArgs {
    /// The packed input file
    input: PathBuf,
    /// The packed output file: the input's records in its order, each with the new score
    output: PathBuf,
    /// Soft node limit of each search, from a cleared table
    #[arg(long, value_parser = whole_in(1, MAX_SOFT_NODES))]
    nodes: u64,
    /// Positions searched at once, one search thread each
    #[arg(long, default_value_t = 1, value_parser = threads())]
    threads: usize,
    /// Hash table of each search thread, in MB
    #[arg(long, default_value_t = DatagenConfig::default().hash_mb,
          value_parser = whole_in(1, MAX_HASH_MB as usize))]
    hash: usize,
    /// The evaluation that searches: hce, nnue (the built-in network) or a network file
    #[arg(long, default_value = "nnue", value_name = "hce|nnue|FILE.nnue")]
    eval: String,
}

impl RescoreArgs {
    pub fn run(self) -> Result<(), String> {
        let config = RescoreConfig {
            soft_nodes: self.nodes,
            threads: self.threads,
            hash_mb: self.hash,
            evaluation: evaluation(&self.eval)?,
        };
        let log = &mut |done: u64, this_run: u64, total: u64, seconds: f64| {
            report_err!(
                "positions {done} of {total} (+{this_run} this run), {:.0} positions/s",
                this_run as f64 / seconds.max(1e-9)
            )
        };
        let summary = rescore(
            &self.input,
            &self.output,
            &config,
            &AtomicBool::new(false),
            log,
            10.0,
        )?;
        report!(
            "{} of {} positions rescored at {} nodes into {} ({} this run)",
            summary.done,
            summary.total,
            self.nodes,
            self.output.display(),
            summary.this_run
        );
        Ok(())
    }
}

/// The positions of an EPD opening book (first four FEN fields of each line).
fn read_book(path: &std::path::Path) -> Result<Vec<Board>, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let mut book = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        if fields.is_empty() {
            continue;
        }
        let board =
            Board::from_fen(&fields.join(" ")).map_err(|e| format!("{shown}:{}: {e}", n + 1))?;
        book.push(board);
    }
    if book.is_empty() {
        return Err(format!("no positions in {shown}"));
    }
    Ok(book)
}
