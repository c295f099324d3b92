//! The per-epoch losses of a training run as CSV beside its checkpoint
//! (`net.nnue.ckpt` → `net.nnue.losses.csv`), for `scripts/plot-training`. A resumed run keeps
//! the rows of the epochs its checkpoint holds and appends its own, so the file always tells
//! the story of the network the checkpoint holds.

use std::io::Write;
use std::path::{Path, PathBuf};

pub const HEADER: &str = "epoch,train_loss,val_loss,lr,positions_per_second,seconds,total_seconds";

/// One row: `epoch 0` is the network before training (validation loss only).
#[derive(Clone, Copy, Debug, Default)]
pub struct EpochRow {
    pub epoch: usize,
    pub train_loss: Option<f64>,
    pub val_loss: Option<f64>,
    pub lr: Option<f32>,
    pub positions_per_second: Option<f64>,
    pub seconds: Option<f64>,
    pub total_seconds: f64,
}

fn cell<T: std::fmt::Display>(value: Option<T>) -> String {
    value.map_or(String::new(), |v| v.to_string())
}

impl EpochRow {
    fn to_csv(self) -> String {
        format!(
            "{},{},{},{},{},{},{:.1}",
            self.epoch,
            cell(self.train_loss.map(|l| format!("{l:.6}"))),
            cell(self.val_loss.map(|l| format!("{l:.6}"))),
            cell(self.lr.map(|l| format!("{l:.3e}"))),
            cell(self.positions_per_second.map(|p| format!("{p:.0}"))),
            cell(self.seconds.map(|s| format!("{s:.1}"))),
            self.total_seconds
        )
    }
}

/// The CSV file of one run.
pub struct LossLog {
    path: PathBuf,
}

/// `<checkpoint without its extension>.losses.csv`.
pub fn path_for(checkpoint: &Path) -> PathBuf {
    checkpoint.with_extension("losses.csv")
}

impl LossLog {
    /// Starts the log of a run. A fresh run (`epochs_done == 0`) starts a new file; a resumed
    /// one keeps the earlier file's rows up to `epochs_done` (none if there was no file).
    pub fn open(path: PathBuf, epochs_done: usize) -> Result<LossLog, String> {
        let mut text = format!("{HEADER}\n");
        if epochs_done > 0 {
            if let Ok(old) = std::fs::read_to_string(&path) {
                for line in old.lines().skip(1) {
                    let epoch = line.split(',').next().and_then(|e| e.parse::<usize>().ok());
                    if epoch.is_some_and(|e| e <= epochs_done) {
                        text.push_str(line);
                        text.push('\n');
                    }
                }
            }
        }
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(LossLog { path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends a row (and flushes it, so a killed run keeps what it logged).
    pub fn append(&self, row: EpochRow) -> Result<(), String> {
        let error = |e: std::io::Error| format!("cannot write {}: {e}", self.path.display());
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&self.path)
            .map_err(error)?;
        writeln!(file, "{}", row.to_csv()).map_err(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_append_and_a_resumed_run_keeps_the_epochs_it_continues() {
        let path = std::env::temp_dir().join(format!("escaque-losses-{}.csv", std::process::id()));
        assert_eq!(
            path_for(Path::new("/x/net.nnue.ckpt")),
            PathBuf::from("/x/net.nnue.losses.csv")
        );
        let log = LossLog::open(path.clone(), 0).unwrap();
        log.append(EpochRow {
            val_loss: Some(0.01),
            ..EpochRow::default()
        })
        .unwrap();
        for epoch in 1..=3 {
            log.append(EpochRow {
                epoch,
                train_loss: Some(0.005 / epoch as f64),
                val_loss: Some(0.006 / epoch as f64),
                lr: Some(0.001),
                positions_per_second: Some(400_000.0),
                seconds: Some(5.0),
                total_seconds: 5.0 * epoch as f64,
            })
            .unwrap();
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], HEADER);
        assert_eq!(lines[1], "0,,0.010000,,,,0.0");
        assert_eq!(lines[2], "1,0.005000,0.006000,1.000e-3,400000,5.0,5.0");
        assert_eq!(lines.len(), 5);
        // Resumed from a checkpoint after epoch 2: epoch 3's row is dropped (it will be redone).
        LossLog::open(path.clone(), 2).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 4);
        assert!(text.lines().last().unwrap().starts_with("2,"));
        // A fresh run starts over.
        LossLog::open(path.clone(), 0).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{HEADER}\n")
        );
        std::fs::remove_file(&path).unwrap();
    }
}
