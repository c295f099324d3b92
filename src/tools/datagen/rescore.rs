//! `escaque rescore`: the positions of a data file labelled again by a search of another depth,
//! the game results kept. A file of datagen's 5,000-node labels rescored at 20,000 nodes is the
//! same positions with deeper targets, so a trainer can compare the two on equal terms.
//!
//! Every position is searched from a cleared table and cleared histories (`new_game`), without
//! its game's earlier positions, so a label depends only on the position, the network and the
//! node limit: any thread count, and a run stopped and resumed, write the same file. The output
//! is the input's records in the input's order with the score replaced; a forced mate is written
//! as ±30,000 (datagen never keeps one, so this only happens to positions from elsewhere).
//! Beside the output a `.rescore` file names the node limit and network, and a resume with
//! other settings is refused.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

use super::game::LastResult;
use crate::evaluation::Evaluation;
use crate::search::{Engine, Limits, Score, SearchRequest};
use crate::tools::data::{read_records, PackedPosition, RECORD_BYTES};

/// The score written for a forced mate: the clamp datagen applies to centipawn scores.
const MATE_LABEL: i16 = 30_000;
/// Positions handed to a thread at a time; the writer keeps them in input order.
const CHUNK: usize = 64;

/// Settings of a rescoring run.
#[derive(Clone, Debug)]
pub struct RescoreConfig {
    /// No new iteration after this many nodes (the hard cap is 20 times this, as in datagen).
    pub soft_nodes: u64,
    pub threads: usize,
    pub hash_mb: usize,
    pub evaluation: Evaluation,
}

/// What a finished (or stopped) run did.
#[derive(Debug, PartialEq, Eq)]
pub struct RescoreSummary {
    /// Records in the output now.
    pub done: u64,
    /// Of them, written by this run.
    pub this_run: u64,
    /// Records in the input.
    pub total: u64,
}

fn settings_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".rescore");
    PathBuf::from(name)
}

fn settings(config: &RescoreConfig) -> String {
    let eval = config
        .evaluation
        .network()
        .map_or("hce".to_string(), |net| format!("{:016x}", net.checksum));
    format!("nodes={} eval={eval}\n", config.soft_nodes)
}

/// The white-view label of one position: a search from a cleared engine.
fn label(engine: &mut Engine, record: &PackedPosition, config: &RescoreConfig) -> Option<i16> {
    let board = record.to_board().ok()?;
    engine.new_game();
    let reporter = Arc::new(LastResult::default());
    let limits = Limits {
        soft_nodes: Some(config.soft_nodes),
        nodes: Some(super::hard_nodes(config.soft_nodes)),
        ..Limits::default()
    };
    engine
        .search_sync(
            SearchRequest::fixed(board, Vec::new(), limits),
            reporter.clone(),
        )
        .ok()?;
    let score = reporter.score()?;
    let stm = match score {
        Score::Centipawns(cp) => cp.clamp(-i32::from(MATE_LABEL), i32::from(MATE_LABEL)) as i16,
        Score::Mate(moves) if moves > 0 => MATE_LABEL,
        Score::Mate(_) => -MATE_LABEL,
    };
    Some(stm * board.side_to_move().sign() as i16)
}

/// The record with its score replaced.
fn relabelled(record: &PackedPosition, white_score: i16) -> PackedPosition {
    let mut bytes = record.bytes;
    bytes[29..31].copy_from_slice(&white_score.to_le_bytes());
    PackedPosition { bytes }
}

/// Rescores `input` into `output`, resuming after the records `output` already holds, until
/// done or `stop` is set; `log(done, this_run, total, seconds)` about every `log_every` seconds.
pub fn rescore(
    input: &Path,
    output: &Path,
    config: &RescoreConfig,
    stop: &AtomicBool,
    log: &mut dyn FnMut(u64, u64, u64, f64),
    log_every: f64,
) -> Result<RescoreSummary, String> {
    if config.soft_nodes == 0 || config.soft_nodes > super::MAX_SOFT_NODES {
        return Err(format!(
            "--nodes must be between 1 and {}, got {}",
            super::MAX_SOFT_NODES,
            config.soft_nodes
        ));
    }
    crate::tools::data::refuse_input_as_output(&[input], output)?;
    let records = read_records(input)?;
    let total = records.len() as u64;
    let settings_file = settings_path(output);
    let wanted = settings(config);
    let existing = std::fs::metadata(output).map(|m| m.len()).unwrap_or(0);
    if existing > 0 {
        let recorded = std::fs::read_to_string(&settings_file).map_err(|_| {
            format!(
                "{} exists but has no {} file: not a rescore output",
                output.display(),
                settings_file.display()
            )
        })?;
        if recorded != wanted {
            return Err(format!(
                "{} was rescored with {}, now {}: resume with the same settings or use another \
                 file",
                output.display(),
                recorded.trim(),
                wanted.trim()
            ));
        }
    }
    std::fs::write(&settings_file, &wanted)
        .map_err(|e| format!("cannot write {}: {e}", settings_file.display()))?;
    // A record cut short by a kill is dropped; more records than the input means another input.
    let done = existing / RECORD_BYTES as u64;
    if done > total {
        return Err(format!(
            "{} holds {done} records, more than {}'s {total}: another input's output",
            output.display(),
            input.display()
        ));
    }
    let already = std::fs::read(output).unwrap_or_default();
    for (i, (old, new)) in records
        .iter()
        .zip(already.chunks_exact(RECORD_BYTES))
        .enumerate()
    {
        // Everything but the score must be the input's.
        if old.bytes[..29] != new[..29] || old.bytes[31] != new[31] {
            return Err(format!(
                "{} record {i} is not {}'s position: another input's output",
                output.display(),
                input.display()
            ));
        }
    }
    let mut file = super::open_at(output, done * RECORD_BYTES as u64)?;

    let first = done as usize;
    let chunks = (records.len() - first).div_ceil(CHUNK);
    let next_chunk = AtomicU64::new(0);
    let (sender, receiver) = mpsc::channel::<(usize, Result<Vec<PackedPosition>, String>)>();
    let start = Instant::now();
    let mut written = done;
    let mut result = Ok(());
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            let sender = sender.clone();
            let (next_chunk, records) = (&next_chunk, &records);
            scope.spawn(move || {
                let mut engine = Engine::new();
                if let Err(e) = engine.set_hash_mb(config.hash_mb) {
                    let _ = sender.send((0, Err(e)));
                    return;
                }
                engine.set_evaluation(config.evaluation.clone());
                while !stop.load(Ordering::Relaxed) {
                    let chunk = next_chunk.fetch_add(1, Ordering::Relaxed) as usize;
                    if chunk >= chunks {
                        break;
                    }
                    let begin = first + chunk * CHUNK;
                    let end = (begin + CHUNK).min(records.len());
                    let mut out = Vec::with_capacity(end - begin);
                    for (i, record) in records[begin..end].iter().enumerate() {
                        if stop.load(Ordering::Relaxed) {
                            return; // a partial chunk is never sent
                        }
                        match label(&mut engine, record, config) {
                            Some(score) => out.push(relabelled(record, score)),
                            None => {
                                let _ = sender.send((
                                    chunk,
                                    Err(format!("record {}: no search result", begin + i)),
                                ));
                                return;
                            }
                        }
                    }
                    if sender.send((chunk, Ok(out))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut pending: BTreeMap<usize, Vec<PackedPosition>> = BTreeMap::new();
        let mut next_to_write = 0usize;
        let mut last_log = Instant::now();
        for (chunk, out) in receiver {
            match out {
                Ok(out) => {
                    pending.insert(chunk, out);
                }
                Err(e) => {
                    if result.is_ok() {
                        result = Err(e);
                    }
                    stop.store(true, Ordering::Relaxed);
                }
            }
            while let Some(out) = pending.remove(&next_to_write) {
                if result.is_ok() {
                    result = super::append(&mut file, &out, output);
                    if result.is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                written += out.len() as u64;
                next_to_write += 1;
            }
            if last_log.elapsed().as_secs_f64() >= log_every {
                last_log = Instant::now();
                log(
                    written,
                    written - done,
                    total,
                    start.elapsed().as_secs_f64(),
                );
            }
        }
    });
    result?;
    Ok(RescoreSummary {
        done: written,
        this_run: written - done,
        total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::tools::data::{write_records, GameResult};

    fn temp(name: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("escaque-rs-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(settings_path(&path));
        path
    }

    fn config(nodes: u64, threads: usize) -> RescoreConfig {
        RescoreConfig {
            soft_nodes: nodes,
            threads,
            hash_mb: 2,
            evaluation: Evaluation::HandCrafted,
        }
    }

    fn run(input: &Path, output: &Path, config: &RescoreConfig) -> Result<RescoreSummary, String> {
        rescore(
            input,
            output,
            config,
            &AtomicBool::new(false),
            &mut |_, _, _, _| {},
            1e9,
        )
    }

    /// Positions with known verdicts, each labelled 0 with a draw, and enough of them to span
    /// several chunks.
    fn sample_input(name: &str) -> (PathBuf, Vec<PackedPosition>) {
        let fens = [
            // White is a queen up.
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
            // Black is a rook up, White to move.
            "4k3/8/8/8/8/8/8/r3K3 w - - 0 1",
            // The same, Black to move.
            "r3k3/8/8/8/8/8/8/4K3 b - - 0 1",
            // White mates in one (Qd8#... the back rank).
            "6k1/5ppp/8/8/8/8/8/3QK3 w - - 0 1",
        ];
        let records: Vec<PackedPosition> = (0..150)
            .map(|i| {
                let board = Board::from_fen(fens[i % fens.len()]).unwrap();
                PackedPosition::pack(&board, 0, GameResult::Draw).unwrap()
            })
            .collect();
        let path = temp(name);
        write_records(&path, &records).unwrap();
        (path, records)
    }

    #[test]
    fn labels_are_deeper_searches_and_the_rest_is_kept() {
        let (input, records) = sample_input("in1.bin");
        let output = temp("out1.bin");
        let summary = run(&input, &output, &config(2000, 2)).unwrap();
        assert_eq!(
            (summary.done, summary.this_run, summary.total),
            (150, 150, 150)
        );
        let out = read_records(&output).unwrap();
        assert_eq!(out.len(), records.len());
        for (i, (old, new)) in records.iter().zip(&out).enumerate() {
            assert_eq!(old.bytes[..29], new.bytes[..29]);
            assert_eq!(new.result(), GameResult::Draw);
            let score = new.white_score();
            match i % 4 {
                0 => assert!(score > 500, "queen up: {score}"),
                1 | 2 => assert!(score < -300, "rook down: {score}"),
                _ => assert_eq!(score, MATE_LABEL, "mate in one"),
            }
        }
        for p in [&input, &output] {
            std::fs::remove_file(p).unwrap();
        }
        std::fs::remove_file(settings_path(&output)).unwrap();
    }

    #[test]
    fn a_resumed_run_on_other_threads_writes_the_same_file() {
        let (input, _) = sample_input("in2.bin");
        let whole = temp("whole2.bin");
        run(&input, &whole, &config(300, 1)).unwrap();
        // A run stopped after some chunks (and a record cut short), resumed on two threads.
        let parts = temp("parts2.bin");
        let bytes = std::fs::read(&whole).unwrap();
        std::fs::write(&parts, &bytes[..70 * RECORD_BYTES + 5]).unwrap();
        std::fs::write(settings_path(&parts), settings(&config(300, 2))).unwrap();
        let resumed = run(&input, &parts, &config(300, 2)).unwrap();
        assert_eq!((resumed.done, resumed.this_run), (150, 80));
        assert_eq!(std::fs::read(&parts).unwrap(), bytes);
        // Resuming with another node limit, or over another file's output, is refused.
        let err = run(&input, &parts, &config(301, 2)).unwrap_err();
        assert!(err.contains("nodes=300"), "{err}");
        let (other, _) = sample_input("in2b.bin");
        let mut changed = std::fs::read(&other).unwrap();
        changed[31] = GameResult::WhiteWin as u8;
        std::fs::write(&other, changed).unwrap();
        let err = run(&other, &parts, &config(300, 2)).unwrap_err();
        assert!(err.contains("record 0"), "{err}");
        // Nor may the output be the input.
        assert!(run(&input, &input, &config(300, 1)).is_err());
        for p in [&input, &other, &whole, &parts] {
            let _ = std::fs::remove_file(p);
            let _ = std::fs::remove_file(settings_path(p));
        }
    }
}
