//! Self-play data generation (`escaque datagen`): games from randomised openings, every move
//! searched to a soft node limit, positions written in the packed format of [`crate::tools::data`].
//!
//! Runs are resumable: beside the output a `.progress` file records the seed, the games finished
//! and the file length after them. Games are written in index order, and game `i` depends only on
//! the seed and `i`, so a run that is stopped and resumed (or run with another thread count)
//! writes the same file as one that never stopped.

pub mod cli;
mod game;
mod progress;
pub mod rescore;
mod status;

pub use progress::run_with_progress;
pub use status::Status;

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use crate::board::Board;
use crate::evaluation::Evaluation;
use crate::search::Engine;
use crate::tools::data::{PackedPosition, RECORD_BYTES};

/// Settings of a datagen run.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Games in the whole file, counting those of earlier runs.
    pub games: u64,
    /// No new iteration after this many nodes.
    pub soft_nodes: u64,
    /// Random plies played after the book position.
    pub random_plies: usize,
    pub seed: u64,
    pub threads: usize,
    pub hash_mb: usize,
    /// Opening positions to start from (empty: the start position).
    pub book: Vec<Board>,
    /// What the games are played with (the hand-crafted evaluation unless told otherwise).
    pub evaluation: Evaluation,
}

/// The largest soft node limit accepted: a search is never unbounded.
pub const MAX_SOFT_NODES: u64 = 100_000_000;

/// The hard node cap of a search with this soft limit (datagen's and rescore's).
pub fn hard_nodes(soft_nodes: u64) -> u64 {
    soft_nodes.saturating_mul(20)
}

impl DatagenConfig {
    /// The hard node cap of one search: a deep iteration may overrun the soft limit, not forever.
    pub fn hard_nodes(&self) -> u64 {
        hard_nodes(self.soft_nodes)
    }
}

impl Default for DatagenConfig {
    fn default() -> Self {
        DatagenConfig {
            games: 1_000_000,
            soft_nodes: 5000,
            random_plies: 8,
            seed: 1,
            threads: 1,
            hash_mb: 8,
            book: Vec::new(),
            evaluation: Evaluation::HandCrafted,
        }
    }
}

/// Where a resumable run stands.
#[derive(Debug, PartialEq, Eq)]
struct Progress {
    seed: u64,
    games: u64,
    bytes: u64,
    /// The settings that shape the games: `nodes/random-plies`, so a resume cannot mix others in.
    shape: Option<String>,
}

fn shape(config: &DatagenConfig) -> String {
    let eval = config
        .evaluation
        .network()
        .map_or("hce".to_string(), |net| format!("{:016x}", net.checksum));
    format!(
        "{}/{}/{}/{eval}",
        config.soft_nodes,
        config.random_plies,
        config.book.len()
    )
}

fn progress_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".progress");
    PathBuf::from(name)
}

fn read_progress(path: &Path) -> Result<Option<Progress>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let field = |name: &str| {
        text.split_whitespace()
            .find_map(|w| w.strip_prefix(name)?.strip_prefix('=')?.parse::<u64>().ok())
            .ok_or_else(|| format!("{} is corrupt (no {name}=)", path.display()))
    };
    Ok(Some(Progress {
        seed: field("seed")?,
        games: field("games")?,
        bytes: field("bytes")?,
        shape: text
            .split_whitespace()
            .find_map(|w| w.strip_prefix("shape="))
            .map(str::to_string),
    }))
}

fn write_progress(path: &Path, p: &Progress) -> Result<(), String> {
    // Write then rename, so a kill never leaves a half-written progress file.
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(
        &tmp,
        format!(
            "seed={} games={} bytes={} shape={}\n",
            p.seed,
            p.games,
            p.bytes,
            p.shape.as_deref().unwrap_or("?")
        ),
    )
    .and_then(|()| std::fs::rename(&tmp, path))
    .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Opens an output to append to after its first `keep` bytes, dropping anything beyond them
/// (what a run that was killed wrote after its last whole unit of work).
fn open_at(path: &Path, keep: u64) -> Result<std::io::BufWriter<std::fs::File>, String> {
    use std::io::Seek;
    let file = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    file.set_len(keep)
        .map_err(|e| format!("cannot truncate {}: {e}", path.display()))?;
    let mut file = std::io::BufWriter::new(file);
    file.seek(std::io::SeekFrom::End(0))
        .map_err(|e| format!("cannot seek {}: {e}", path.display()))?;
    Ok(file)
}

/// Appends records to an output file and flushes it, so what is on disk is whole records.
fn append(file: &mut impl Write, records: &[PackedPosition], path: &Path) -> Result<(), String> {
    records
        .iter()
        .try_for_each(|r| file.write_all(&r.bytes))
        .and_then(|()| file.flush())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// What a finished run did.
#[derive(Debug)]
pub struct RunSummary {
    pub games: u64,
    pub positions: u64,
    pub resumed_from_game: u64,
}

/// Generates games into `out` until `config.games` are in the file or `stop` is set, printing
/// its [`Status`] through `log` about every `log_every` seconds.
pub fn run(
    out: &Path,
    config: &DatagenConfig,
    stop: &AtomicBool,
    log: &mut dyn FnMut(&Status),
    log_every: f64,
) -> Result<RunSummary, String> {
    if config.soft_nodes == 0 || config.soft_nodes > MAX_SOFT_NODES {
        return Err(format!(
            "--nodes must be between 1 and {MAX_SOFT_NODES}, got {}",
            config.soft_nodes
        ));
    }
    let progress_file = progress_path(out);
    let existing = std::fs::metadata(out).map(|m| m.len()).ok();
    let progress = match (read_progress(&progress_file)?, existing) {
        (Some(p), Some(len)) => {
            if p.seed != config.seed {
                return Err(format!(
                    "{} was generated with --seed {}; resume with that seed or use another file",
                    out.display(),
                    p.seed
                ));
            }
            // Files from before the eval was recorded were all made with the hand-crafted one.
            let recorded = p.shape.as_ref().map(|s| {
                if s.matches('/').count() == 2 {
                    format!("{s}/hce")
                } else {
                    s.clone()
                }
            });
            if recorded.is_some_and(|s| s != shape(config)) {
                return Err(format!(
                    "{} was generated with other settings (nodes/random-plies/book size/eval {}, \
                     now {}): resume with the same ones or use another file",
                    out.display(),
                    p.shape.as_deref().unwrap_or("?"),
                    shape(config)
                ));
            }
            if len < p.bytes || !p.bytes.is_multiple_of(RECORD_BYTES as u64) {
                return Err(format!(
                    "{} is shorter than its progress file says ({len} < {} bytes): corrupt",
                    out.display(),
                    p.bytes
                ));
            }
            p
        }
        (None, Some(len)) if len > 0 => {
            return Err(format!(
                "{} exists but has no {} file: not a resumable datagen output",
                out.display(),
                progress_file.display()
            ))
        }
        _ => Progress {
            seed: config.seed,
            games: 0,
            bytes: 0,
            shape: None,
        },
    };
    // Drop a partial game written after the last progress update.
    let mut file = open_at(out, progress.bytes)?;

    let first_game = progress.games;
    if first_game >= config.games {
        return Ok(RunSummary {
            games: 0,
            positions: 0,
            resumed_from_game: first_game,
        });
    }
    let next_game = AtomicU64::new(first_game);
    let threads = config.threads.max(1);
    let (sender, receiver) = mpsc::channel::<(u64, Vec<PackedPosition>)>();
    let start = Instant::now();
    let mut written_games = first_game;
    let mut bytes = progress.bytes;
    let mut positions = 0u64;
    let mut result = Ok(());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let next_game = &next_game;
            scope.spawn(move || {
                let mut engine = Engine::new();
                if engine.set_hash_mb(config.hash_mb).is_err() {
                    return;
                }
                engine.set_evaluation(config.evaluation.clone());
                while !stop.load(Ordering::Relaxed) {
                    let index = next_game.fetch_add(1, Ordering::Relaxed);
                    if index >= config.games {
                        break;
                    }
                    let records = game::play(&mut engine, config, index);
                    if sender.send((index, records)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Write finished games in index order.
        let mut pending: BTreeMap<u64, Vec<PackedPosition>> = BTreeMap::new();
        let mut last_log = Instant::now();
        for (index, records) in receiver {
            pending.insert(index, records);
            while let Some(records) = pending.remove(&written_games) {
                if result.is_ok() {
                    result = append(&mut file, &records, out);
                }
                written_games += 1;
                bytes += (records.len() * RECORD_BYTES) as u64;
                positions += records.len() as u64;
                if result.is_ok() {
                    result = write_progress(
                        &progress_file,
                        &Progress {
                            seed: config.seed,
                            games: written_games,
                            bytes,
                            shape: Some(shape(config)),
                        },
                    );
                }
                if result.is_err() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if last_log.elapsed().as_secs_f64() >= log_every {
                last_log = Instant::now();
                log(&Status {
                    games: written_games,
                    games_this_run: written_games - first_game,
                    total_games: config.games,
                    positions: bytes / RECORD_BYTES as u64,
                    positions_this_run: positions,
                    seconds: start.elapsed().as_secs_f64(),
                });
            }
        }
    });
    result?;
    Ok(RunSummary {
        games: written_games - first_game,
        positions,
        resumed_from_game: first_game,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::data::read_records;

    fn config(games: u64, threads: usize) -> DatagenConfig {
        DatagenConfig {
            games,
            soft_nodes: 300,
            threads,
            seed: 42,
            ..DatagenConfig::default()
        }
    }

    fn temp(name: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("escaque-dg-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(progress_path(&path));
        path
    }

    fn generate(path: &Path, config: &DatagenConfig) -> RunSummary {
        run(path, config, &AtomicBool::new(false), &mut |_| {}, 1e9).unwrap()
    }

    #[test]
    fn resumed_and_threaded_runs_write_the_same_file() {
        let whole = temp("whole.bin");
        generate(&whole, &config(4, 1));
        let records = read_records(&whole).unwrap();
        assert!(records.len() > 20, "{} positions", records.len());
        for record in &records {
            let board = record.to_board().unwrap();
            assert!(!board.in_check());
            assert!(record.white_score().abs() < 30_000);
        }

        // Two games, then resumed to four, on two threads.
        let parts = temp("parts.bin");
        assert_eq!(generate(&parts, &config(2, 2)).games, 2);
        // A half-written game after the last progress update is dropped on resume.
        let mut f = OpenOptions::new().append(true).open(&parts).unwrap();
        f.write_all(&[1u8; 40]).unwrap();
        drop(f);
        let resumed = generate(&parts, &config(4, 2));
        assert_eq!((resumed.resumed_from_game, resumed.games), (2, 2));
        assert_eq!(
            std::fs::read(&parts).unwrap(),
            std::fs::read(&whole).unwrap()
        );

        // Another seed on the same file is refused.
        let mut other = config(6, 1);
        other.seed = 7;
        let err = run(&parts, &other, &AtomicBool::new(false), &mut |_| {}, 1e9).unwrap_err();
        assert!(err.contains("--seed 42"), "{err}");
        // So are other node counts.
        let mut other = config(6, 1);
        other.soft_nodes = 301;
        let err = run(&parts, &other, &AtomicBool::new(false), &mut |_| {}, 1e9).unwrap_err();
        assert!(err.contains("other settings"), "{err}");
        for p in [whole, parts] {
            std::fs::remove_file(progress_path(&p)).unwrap();
            std::fs::remove_file(p).unwrap();
        }
    }

    #[test]
    fn the_network_can_play_the_games_and_resume_checks_it() {
        let hce = temp("hce.bin");
        generate(&hce, &config(2, 1));
        let nnue = temp("nnue.bin");
        let mut with_net = config(2, 1);
        with_net.evaluation = Evaluation::Network(crate::nnue::Network::default_network());
        generate(&nnue, &with_net);
        assert_ne!(std::fs::read(&hce).unwrap(), std::fs::read(&nnue).unwrap());
        // Resuming the network's file with the hand-crafted evaluation is refused.
        let err = run(
            &nnue,
            &config(3, 1),
            &AtomicBool::new(false),
            &mut |_| {},
            1e9,
        )
        .unwrap_err();
        assert!(err.contains("other settings"), "{err}");
        for p in [hce, nnue] {
            std::fs::remove_file(progress_path(&p)).unwrap();
            std::fs::remove_file(p).unwrap();
        }
    }

    #[test]
    fn unbounded_node_limits_are_refused() {
        let path = temp("nodes.bin");
        let mut c = config(1, 1);
        c.soft_nodes = u64::MAX;
        assert!(run(&path, &c, &AtomicBool::new(false), &mut |_| {}, 1e9).is_err());
    }
}
