//! The `escaque train` command line.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::cli::number;
use crate::data::{read_all, shuffle};

use super::checkpoint::Checkpoint;
use super::loss_log::{self, EpochRow, LossLog};
use super::trainer::{EpochReport, TrainConfig, Trainer};

const USAGE: &str = "usage: escaque train <data.bin> [more.bin ...] [--out net.nnue] \
[--checkpoint FILE] [--epochs N] [--batch N] [--lr X] [--lambda X] [--wd X] [--hidden N] \
[--king-buckets 1|4|8|16] [--mirror] [--output-buckets 1|2|4|8|16] \
[--val-fraction X | --val FILE] [--seed N] [--threads N] [--resume]";

/// Everything the command line asked for.
struct Options {
    data: Vec<PathBuf>,
    out: PathBuf,
    checkpoint: Option<PathBuf>,
    val: Option<PathBuf>,
    val_fraction: Option<f64>,
    resume: bool,
    config: TrainConfig,
}

/// A number that must lie in `[low, high]` (and be finite).
fn in_range(flag: &str, value: &str, low: f64, high: f64) -> Result<f64, String> {
    let x: f64 = number(flag, value)?;
    if x.is_finite() && (low..=high).contains(&x) {
        Ok(x)
    } else {
        Err(format!(
            "--{flag} must be between {low} and {high}, got '{value}'"
        ))
    }
}

fn positive_int(flag: &str, value: &str, max: usize) -> Result<usize, String> {
    let n: usize = number(flag, value)?;
    if (1..=max).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "--{flag} must be between 1 and {max}, got '{value}'"
        ))
    }
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        data: Vec::new(),
        out: PathBuf::from("net.nnue"),
        checkpoint: None,
        val: None,
        val_fraction: None,
        resume: false,
        config: TrainConfig::default(),
    };
    let c = &mut options.config;
    let (mut king_buckets, mut mirror, mut output_buckets) = (1, false, 1);
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let Some(flag) = word.strip_prefix("--") else {
            options.data.push(PathBuf::from(word));
            continue;
        };
        if flag == "resume" {
            options.resume = true;
            continue;
        }
        if flag == "mirror" {
            mirror = true;
            continue;
        }
        if flag == "help" {
            return Err(USAGE.to_string());
        }
        let value = words
            .next()
            .ok_or_else(|| format!("--{flag} needs a value\n{USAGE}"))?
            .as_str();
        match flag {
            "out" => options.out = PathBuf::from(value),
            "checkpoint" => options.checkpoint = Some(PathBuf::from(value)),
            "val" => options.val = Some(PathBuf::from(value)),
            "val-fraction" => options.val_fraction = Some(in_range(flag, value, 0.0, 0.5)?),
            "epochs" => c.epochs = positive_int(flag, value, 100_000)?,
            "batch" => c.batch = positive_int(flag, value, 1 << 24)?,
            "hidden" => c.hidden = positive_int(flag, value, 4096)?,
            "king-buckets" => king_buckets = positive_int(flag, value, 16)?,
            "output-buckets" => output_buckets = positive_int(flag, value, 16)?,
            "threads" => c.threads = positive_int(flag, value, 1024)?,
            "seed" => c.seed = number(flag, value)?,
            "lr" => c.lr = in_range(flag, value, 1e-9, 10.0)? as f32,
            "lambda" => c.lambda = in_range(flag, value, 0.0, 1.0)? as f32,
            "wd" => c.wd = in_range(flag, value, 0.0, 10.0)? as f32,
            _ => return Err(format!("unknown flag --{flag}\n{USAGE}")),
        }
    }
    c.arch = crate::nnue::Architecture::preset(king_buckets, mirror, output_buckets)?;
    if options.data.is_empty() {
        return Err(format!("no data files given\n{USAGE}"));
    }
    if options.val.is_some() && options.val_fraction.is_some() {
        return Err("give --val or --val-fraction, not both".to_string());
    }
    for path in [Some(&options.out), options.checkpoint.as_ref()]
        .into_iter()
        .flatten()
    {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !dir.is_dir() {
                return Err(format!(
                    "cannot write {}: no directory {}",
                    path.display(),
                    dir.display()
                ));
            }
        }
    }
    Ok(options)
}

/// `<out>.ckpt` unless `--checkpoint` says otherwise.
fn checkpoint_path(options: &Options) -> PathBuf {
    options.checkpoint.clone().unwrap_or_else(|| {
        let mut path = options.out.as_os_str().to_owned();
        path.push(".ckpt");
        PathBuf::from(path)
    })
}

fn run(args: &[String]) -> Result<(), String> {
    let options = parse(args)?;
    let config = options.config;
    let started = Instant::now();
    let paths: Vec<&Path> = options.data.iter().map(PathBuf::as_path).collect();
    let mut records = read_all(&paths)?;
    // The held-out positions are the end of the data in file order: datagen writes whole games
    // in order, so they come from games the net never trains on. A random sample would share
    // games (and so game results) with the training set and flatter the validation loss.
    let (val, train) = match &options.val {
        Some(path) => (read_all(&[path.as_path()])?, &mut records[..]),
        None => {
            let fraction = options.val_fraction.unwrap_or(0.01);
            let count = (records.len() as f64 * fraction).round() as usize;
            let count = if fraction > 0.0 && records.len() > 1 {
                count.max(1)
            } else {
                count
            };
            let split = records.len() - count;
            let (train, val) = records.split_at_mut(split);
            (val.to_vec(), train)
        }
    };
    shuffle(train, config.seed);
    let train = &train[..];
    eprintln!(
        "{} training and {} validation positions ({:.1} s to load)",
        train.len(),
        val.len(),
        started.elapsed().as_secs_f64()
    );
    eprintln!("network {}", config.arch.describe(config.hidden));
    let checkpoint_path = checkpoint_path(&options);
    let mut trainer = if options.resume {
        let checkpoint = Checkpoint::load(&checkpoint_path)?;
        let trainer = Trainer::resume(config, train, checkpoint)
            .map_err(|e| format!("cannot resume from {}: {e}", checkpoint_path.display()))?;
        eprintln!(
            "resuming from {} after epoch {}",
            checkpoint_path.display(),
            trainer.epochs_done
        );
        trainer
    } else {
        Trainer::new(config, train)?
    };
    if trainer.finished() {
        trainer.network.export(&options.out, train)?;
        println!(
            "all {} epochs were already done; exported {}",
            config.epochs,
            options.out.display()
        );
        return Ok(());
    }
    let loss_log = LossLog::open(loss_log::path_for(&checkpoint_path), trainer.epochs_done)?;
    if !val.is_empty() {
        let val_loss = trainer.loss(&val);
        println!("epoch {}: val loss {:.6}", trainer.epochs_done, val_loss);
        if trainer.epochs_done == 0 {
            loss_log.append(EpochRow {
                val_loss: Some(val_loss),
                total_seconds: started.elapsed().as_secs_f64(),
                ..EpochRow::default()
            })?;
        }
    }
    while !trainer.finished() {
        let report = run_epoch_with_progress(&mut trainer, config.epochs);
        let val_loss = (!val.is_empty()).then(|| trainer.loss(&val));
        let val_text = val_loss.map_or(String::new(), |l| format!("  val loss {l:.6}"));
        println!(
            concat!(
                "epoch {}/{}: train loss {:.6}{}  lr {:.2e}  {:.0} pos/s",
                "  {:.1} s (total {:.1} s)"
            ),
            report.epoch,
            config.epochs,
            report.train_loss,
            val_text,
            report.lr,
            report.positions as f64 / report.seconds,
            report.seconds,
            started.elapsed().as_secs_f64()
        );
        trainer.checkpoint().save(&checkpoint_path)?;
        trainer.network.export(&options.out, train)?;
        loss_log.append(EpochRow {
            epoch: report.epoch,
            train_loss: Some(report.train_loss),
            val_loss,
            lr: Some(report.lr),
            positions_per_second: Some(report.positions as f64 / report.seconds),
            seconds: Some(report.seconds),
            total_seconds: started.elapsed().as_secs_f64(),
        })?;
    }
    println!(
        "wrote {} (checkpoint {}, losses {})",
        options.out.display(),
        checkpoint_path.display(),
        loss_log.path().display()
    );
    Ok(())
}

/// One epoch, its progress on stderr: a bar on a terminal, a line every 10 s otherwise.
fn run_epoch_with_progress(trainer: &mut Trainer, epochs: usize) -> EpochReport {
    let epoch = trainer.epochs_done + 1;
    let started = Instant::now();
    if !crate::progress::bar_wanted() {
        let mut last_progress = Instant::now();
        return trainer.run_epoch(&mut |done, total| {
            if last_progress.elapsed() >= Duration::from_secs(10) && done < total {
                last_progress = Instant::now();
                eprintln!("  {done}/{total} positions");
            }
        });
    }
    let mut bar: Option<crate::progress::Bar> = None;
    let mut last_update = Instant::now();
    let report = trainer.run_epoch(&mut |done, total| {
        let bar = bar.get_or_insert_with(|| {
            crate::progress::Bar::new(
                &format!("epoch {epoch}/{epochs}"),
                total as u64,
                0,
                "positions",
            )
        });
        if last_update.elapsed() >= Duration::from_millis(200) || done == total {
            last_update = Instant::now();
            let rate = done as f64 / started.elapsed().as_secs_f64().max(1e-9);
            bar.update(done as u64, format!("{:.0}k positions/s", rate / 1000.0));
        }
    });
    if let Some(bar) = bar {
        bar.finish();
    }
    report
}

/// `escaque train <data.bin>...`: trains a network on packed positions (see the module docs
/// of [`crate::train`]). Errors go to stderr as `error: …` with exit status 1.
pub fn run_train(args: &[String]) -> ExitCode {
    crate::cli::finish(run(args))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::write_records;

    fn args(words: &str) -> Vec<String> {
        words.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn command_line_trains_resumes_and_rejects_bad_input() {
        let dir = std::env::temp_dir().join(format!("escaque-train-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("d.bin");
        write_records(&data, &super::super::tests::random_positions(500, 4)).unwrap();
        let out = dir.join("n.nnue");
        let common = format!(
            "{} --out {} --hidden 8 --batch 64 --threads 1 --val-fraction 0.1",
            data.display(),
            out.display()
        );
        run(&args(&format!("{common} --epochs 1"))).unwrap();
        let net = crate::nnue::format::QuantisedNetwork::from_bytes(&std::fs::read(&out).unwrap());
        assert_eq!(net.unwrap().hidden, 8);
        assert!(dir.join("n.nnue.ckpt").exists());

        let err = run(&args(&format!("{common} --epochs 1 --lr 0.01 --resume"))).unwrap_err();
        assert!(err.contains("--lr"), "{err}");
        // Already done: exports again and succeeds.
        run(&args(&format!("{common} --epochs 1 --resume"))).unwrap();

        for (bad, expected) in [
            ("--epochs 0", "--epochs"),
            ("--lambda 2", "--lambda"),
            ("--lr abc", "--lr"),
            ("--bogus 1", "unknown flag"),
            ("--seed", "needs a value"),
            ("--val x.bin --val-fraction 0.1", "not both"),
        ] {
            let err = run(&args(&format!("{} {bad}", data.display()))).unwrap_err();
            assert!(err.contains(expected), "{bad}: {err}");
        }
        let err = run(&args("/nonexistent/data.bin")).unwrap_err();
        assert!(err.contains("cannot open"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
