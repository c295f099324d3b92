//! The `escaque train` command line.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::tools::data::{read_all, shuffle};
use crate::tools::{number_in, threads, whole_in};

use super::checkpoint::Checkpoint;
use super::loss_log::{self, EpochRow, LossLog};
use super::network::FloatNetwork;
use super::trainer::{EpochReport, TrainConfig, Trainer};

/// Train a network on packed positions (datagen files) and write it as an EvalFile
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Packed training data
    #[arg(required = true, value_name = "DATA.bin")]
    data: Vec<PathBuf>,
    /// The network written after every epoch
    #[arg(long, default_value = "net.nnue")]
    out: PathBuf,
    /// The checkpoint written after every epoch (default: OUT.ckpt)
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    #[arg(long, default_value_t = TrainConfig::default().epochs, value_parser = whole_in(1usize, 100_000))]
    epochs: usize,
    /// Positions per batch
    #[arg(long, default_value_t = TrainConfig::default().batch, value_parser = whole_in(1usize, 1 << 24))]
    batch: usize,
    /// Adam's learning rate
    #[arg(long, default_value_t = TrainConfig::default().lr, value_parser = single_in(1e-9, 10.0))]
    lr: f32,
    /// The learning rate decays (cosine) from --lr to --lr divided by this
    #[arg(long, default_value_t = TrainConfig::default().lr_decay, value_parser = single_in(1.0, 1e6))]
    lr_decay: f32,
    /// Weight of the search score in the target (1: score only, 0: game result only)
    #[arg(long, default_value_t = TrainConfig::default().lambda, value_parser = single_in(0.0, 1.0))]
    lambda: f32,
    /// Exponent of the training loss |sigmoid(out) - target|^P (the reported losses are
    /// squared errors whatever it is)
    #[arg(long, default_value_t = TrainConfig::default().loss_power, value_parser = single_in(1.5, 4.0))]
    loss_power: f32,
    /// Weight decay
    #[arg(long, default_value_t = TrainConfig::default().wd, value_parser = single_in(0.0, 10.0))]
    wd: f32,
    /// Hidden neurons per perspective
    #[arg(long, default_value_t = TrainConfig::default().hidden, value_parser = whole_in(1usize, 4096))]
    hidden: usize,
    /// King buckets of the input features
    #[arg(long, default_value_t = 1, value_parser = whole_in(1usize, 16), value_name = "1|4|8|16")]
    king_buckets: usize,
    /// Mirror the king's half of the board (with king buckets)
    #[arg(long)]
    mirror: bool,
    /// Output buckets by piece count
    #[arg(long, default_value_t = 1, value_parser = whole_in(1usize, 16), value_name = "1|2|4|8|16")]
    output_buckets: usize,
    /// Share of the data, from its end, held out for validation
    #[arg(long, conflicts_with = "val", value_parser = number_in(0.0, 0.5))]
    val_fraction: Option<f64>,
    /// A file of validation positions instead
    #[arg(long)]
    val: Option<PathBuf>,
    #[arg(long, default_value_t = TrainConfig::default().seed)]
    seed: u64,
    /// Threads computing gradients (default: all cores)
    #[arg(long, value_parser = threads())]
    threads: Option<usize>,
    /// Go on from the checkpoint (the settings must be those it was made with)
    #[arg(long)]
    resume: bool,
    /// Start from this network's weights instead of random ones (its architecture must be the
    /// one asked for, or one without king buckets when unmirrored king buckets are asked for,
    /// and its hidden layer as wide or narrower: new neurons start random with zero output
    /// weights, new buckets as the network itself, the same function); the optimiser starts
    /// afresh
    #[arg(long, value_name = "NET.nnue")]
    init: Option<PathBuf>,
}

/// A clap value parser for an `f32` setting in `low..=high`.
pub(super) fn single_in(
    low: f64,
    high: f64,
) -> impl Fn(&str) -> Result<f32, String> + Clone + Send + Sync + 'static {
    let parse = number_in(low, high);
    move |text: &str| parse(text).map(|x| x as f32)
}

/// Everything the command line asked for.
struct Options {
    data: Vec<PathBuf>,
    out: PathBuf,
    checkpoint: Option<PathBuf>,
    val: Option<PathBuf>,
    val_fraction: Option<f64>,
    resume: bool,
    /// The starting network's weights: used when a run starts; a resumed run only checks its checksum.
    init: Option<crate::nnue::format::QuantisedNetwork>,
    config: TrainConfig,
}

impl TrainArgs {
    /// Trains (errors go to stderr as `error: …` with exit status 1).
    pub fn run(self) -> Result<(), String> {
        run(self.options()?)
    }

    /// The settings, checked as a whole.
    fn options(self) -> Result<Options, String> {
        let mut config = TrainConfig {
            epochs: self.epochs,
            batch: self.batch,
            hidden: self.hidden,
            seed: self.seed,
            lr: self.lr,
            lr_decay: self.lr_decay,
            lambda: self.lambda,
            loss_power: self.loss_power,
            wd: self.wd,
            ..TrainConfig::default()
        };
        if let Some(threads) = self.threads {
            config.threads = threads;
        }
        config.arch =
            crate::nnue::Architecture::preset(self.king_buckets, self.mirror, self.output_buckets)?;
        let init = match &self.init {
            None => None,
            Some(path) => {
                let bytes = std::fs::read(path)
                    .map_err(|e| format!("cannot read --init {}: {e}", path.display()))?;
                let network = crate::nnue::format::QuantisedNetwork::from_bytes(&bytes)
                    .map_err(|e| format!("--init {}: {e}", path.display()))?;
                if !FloatNetwork::can_start(&network.arch, &config.arch)
                    || network.hidden > config.hidden
                {
                    return Err(format!(
                        "--init {} is {}, the command line asks for {} (a network can start \
                         from one of its architecture, or one without king buckets when \
                         unmirrored buckets are asked for, as wide or narrower)",
                        path.display(),
                        network.arch.describe(network.hidden),
                        config.arch.describe(config.hidden)
                    ));
                }
                config.init = Some(crate::nnue::format::fnv1a64(&bytes));
                Some(network)
            }
        };
        for path in [Some(&self.out), self.checkpoint.as_ref()]
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
        Ok(Options {
            data: self.data,
            out: self.out,
            checkpoint: self.checkpoint,
            val: self.val,
            val_fraction: self.val_fraction,
            resume: self.resume,
            init,
            config,
        })
    }
}

/// `<out>.ckpt` unless `--checkpoint` says otherwise.
fn checkpoint_path(options: &Options) -> PathBuf {
    options.checkpoint.clone().unwrap_or_else(|| {
        let mut path = options.out.as_os_str().to_owned();
        path.push(".ckpt");
        PathBuf::from(path)
    })
}

fn run(options: Options) -> Result<(), String> {
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
    report_err!(
        "{} training and {} validation positions ({:.1} s to load)",
        train.len(),
        val.len(),
        started.elapsed().as_secs_f64()
    );
    report_err!("network {}", config.arch.describe(config.hidden));
    let checkpoint_path = checkpoint_path(&options);
    let mut trainer = if options.resume {
        let checkpoint = Checkpoint::load(&checkpoint_path)?;
        let trainer = Trainer::resume(config, train, checkpoint)
            .map_err(|e| format!("cannot resume from {}: {e}", checkpoint_path.display()))?;
        report_err!(
            "resuming from {} after epoch {}",
            checkpoint_path.display(),
            trainer.epochs_done
        );
        trainer
    } else if let Some(network) = &options.init {
        report_err!("starting from network {:016x}", config.init.unwrap_or(0));
        let mut start = FloatNetwork::from_quantised(network);
        if start.arch != config.arch {
            report_err!(
                "king buckets added: every bucket starts as {}",
                start.arch.describe(start.hidden)
            );
            start = start.bucketed(config.arch)?;
        }
        if start.hidden < config.hidden {
            report_err!("widened from {} to {} neurons", start.hidden, config.hidden);
        }
        Trainer::starting_from(config, train, start.widened(config.hidden, config.seed))?
    } else {
        Trainer::new(config, train)?
    };
    if trainer.finished() {
        trainer.network.export(&options.out, train)?;
        report!(
            "all {} epochs were already done; exported {}",
            config.epochs,
            options.out.display()
        );
        return Ok(());
    }
    let loss_log = LossLog::open(loss_log::path_for(&checkpoint_path), trainer.epochs_done)?;
    if !val.is_empty() {
        let val_loss = trainer.loss(&val);
        report!("epoch {}: val loss {:.6}", trainer.epochs_done, val_loss);
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
        report!(
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
    report!(
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
    if !crate::tools::progress::bar_wanted() {
        let mut last_progress = Instant::now();
        return trainer.run_epoch(&mut |done, total| {
            if last_progress.elapsed() >= Duration::from_secs(10) && done < total {
                last_progress = Instant::now();
                report_err!("  {done}/{total} positions");
            }
        });
    }
    let mut bar: Option<crate::tools::progress::Bar> = None;
    let mut last_update = Instant::now();
    let report = trainer.run_epoch(&mut |done, total| {
        let bar = bar.get_or_insert_with(|| {
            crate::tools::progress::Bar::new(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::data::write_records;

    /// Parses and runs a `train` command line, clap's refusals included.
    fn run(words: &str) -> Result<(), String> {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Train {
            #[command(flatten)]
            args: TrainArgs,
        }
        let words = std::iter::once("train").chain(words.split_whitespace());
        Train::try_parse_from(words)
            .map_err(|e| e.to_string())?
            .args
            .run()
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
        run(&(format!("{common} --epochs 1"))).unwrap();
        let net = crate::nnue::format::QuantisedNetwork::from_bytes(&std::fs::read(&out).unwrap());
        assert_eq!(net.unwrap().hidden, 8);
        assert!(dir.join("n.nnue.ckpt").exists());

        let err = run(&(format!("{common} --epochs 1 --lr 0.01 --resume"))).unwrap_err();
        assert!(err.contains("--lr"), "{err}");
        // Already done: exports again and succeeds.
        run(&(format!("{common} --epochs 1 --resume"))).unwrap();

        for (bad, expected) in [
            ("--epochs 0", "--epochs"),
            ("--lambda 2", "--lambda"),
            ("--lr abc", "--lr"),
            ("--bogus 1", "unexpected argument '--bogus'"),
            ("--seed", "a value is required for '--seed"),
            ("--val x.bin --val-fraction 0.1", "cannot be used with"),
        ] {
            let err = run(&(format!("{} {bad}", data.display()))).unwrap_err();
            assert!(err.contains(expected), "{bad}: {err}");
        }
        // Starting from a network: the one just written, and never a wrong or missing one.
        let next = dir.join("m.nnue");
        let from = format!(
            "{} --out {} --hidden 8 --batch 64 --threads 1 --epochs 1",
            data.display(),
            next.display()
        );
        run(&format!("{from} --init {}", out.display())).unwrap();
        assert!(next.exists());
        let err = run(&format!(
            "{from} --init {} --resume --lr 0.5",
            out.display()
        ))
        .unwrap_err();
        assert!(err.contains("--lr"), "{err}");
        let err = run(&format!("{from} --resume")).unwrap_err();
        assert!(err.contains("--init"), "{err}");
        for (init, expected) in [
            (
                format!("{} --output-buckets 2", out.display()),
                "the command line asks for",
            ),
            (data.display().to_string(), "not an escaque network"),
            ("/nonexistent/n.nnue".to_string(), "cannot read --init"),
        ] {
            let err = run(&format!("{from} --init {init}")).unwrap_err();
            assert!(err.contains(expected), "--init {init}: {err}");
        }
        // A wider network may start from a narrower one (widened); a narrower one may not.
        let base = format!(
            "{} --out {} --batch 64 --threads 1 --epochs 1 --init {}",
            data.display(),
            next.display(),
            out.display()
        );
        run(&format!("{base} --hidden 12")).unwrap();
        let widened = std::fs::read(&next).unwrap();
        let widened = crate::nnue::format::QuantisedNetwork::from_bytes(&widened).unwrap();
        assert_eq!(widened.hidden, 12);
        let err = run(&format!("{base} --hidden 4")).unwrap_err();
        assert!(err.contains("the command line asks for"), "{err}");
        // Unmirrored king buckets may start from a network without them; mirrored ones may not.
        run(&format!("{base} --hidden 8 --king-buckets 4")).unwrap();
        let bucketed = std::fs::read(&next).unwrap();
        let bucketed = crate::nnue::format::QuantisedNetwork::from_bytes(&bucketed).unwrap();
        assert_eq!(bucketed.arch.king_buckets, 4);
        let err = run(&format!("{base} --hidden 8 --king-buckets 4 --mirror")).unwrap_err();
        assert!(err.contains("the command line asks for"), "{err}");
        let err = run("/nonexistent/data.bin").unwrap_err();
        assert!(err.contains("cannot open"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
