//! The training loop: batches split across threads, summed gradients, one AdamW step per batch.

use std::time::Instant;

use rayon::prelude::*;

use crate::nnue::Architecture;
use crate::tools::data::PackedPosition;

use super::batch::{epoch_order, fingerprint, mirror_for, Features};
use super::checkpoint::{Checkpoint, Settings};
use super::loss::{loss_and_power_slope, loss_and_slope, target};
use super::network::{FloatNetwork, Scratch};
use super::optimizer::{cosine_lr, AdamW, ParamGroups};

/// Everything a run is configured by (see `escaque train --help` in [`super::cli`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainConfig {
    pub arch: Architecture,
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// The cosine schedule ends at `lr / lr_decay`.
    pub lr_decay: f32,
    pub lambda: f32,
    /// The exponent of the training objective `|sigmoid(out) - target|^loss_power`.
    pub loss_power: f32,
    pub wd: f32,
    pub seed: u64,
    pub threads: usize,
    /// The checksum of the network file the run starts from (`--init`), or `None` for weights
    /// drawn from `seed`.
    pub init: Option<u64>,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            arch: Architecture::default(),
            hidden: 256,
            epochs: 10,
            batch: 16384,
            lr: 0.001,
            lr_decay: 20.0,
            lambda: 0.75,
            loss_power: 2.0,
            wd: 0.01,
            seed: 1,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            init: None,
        }
    }
}

/// What one epoch did.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    /// 1-based.
    pub epoch: usize,
    /// Mean loss over the epoch's positions, measured before each batch's step.
    pub train_loss: f64,
    pub positions: usize,
    pub seconds: f64,
    /// The learning rate of the epoch's last batch.
    pub lr: f32,
}

/// A share of a batch: its own gradient buffer, so threads never contend, and its own scratch.
struct Worker {
    grad: Vec<f32>,
    scratch: Scratch,
    loss: f64,
}

impl Worker {
    fn run(
        &mut self,
        net: &FloatNetwork,
        data: &[PackedPosition],
        indices: &[u32],
        (lambda, power): (f32, f32),
        epoch: usize,
    ) {
        self.grad.fill(0.0);
        let mut loss = 0.0f64;
        for &i in indices {
            let position = &data[i as usize];
            let features =
                Features::of_oriented(position, &net.arch, mirror_for(position, i, epoch));
            let out = net.forward(&features, &mut self.scratch);
            let (sample_loss, slope) = loss_and_power_slope(out, target(position, lambda), power);
            loss += f64::from(sample_loss);
            net.backward(&features, &mut self.scratch, slope, &mut self.grad);
        }
        self.loss = loss;
    }
}

/// Parameters summed per parallel task when the workers' gradients are reduced.
const REDUCE_CHUNK: usize = 16 * 1024;

/// A training run over a fixed training set. Gradients are reduced in a fixed order over a
/// fixed split of each batch, so with the same thread count a run is bit-for-bit reproducible,
/// interrupted and resumed or not.
pub struct Trainer<'a> {
    pub config: TrainConfig,
    pub network: FloatNetwork,
    pub optimizer: AdamW,
    pub epochs_done: usize,
    train: &'a [PackedPosition],
    train_fingerprint: u64,
    workers: Vec<Worker>,
    pool: rayon::ThreadPool,
}

impl<'a> Trainer<'a> {
    /// A fresh run from a newly initialised network.
    pub fn new(config: TrainConfig, train: &'a [PackedPosition]) -> Result<Trainer<'a>, String> {
        let network = FloatNetwork::new(config.arch, config.hidden, config.seed);
        let optimizer = AdamW::new(network.params.len());
        Trainer::with_state(config, train, network, optimizer, 0)
    }

    /// A fresh run that starts from `network`'s weights (a network read from its file, whose
    /// checksum `config.init` names) instead of random ones, with a fresh optimiser: the
    /// knowledge of an earlier network carries over to new data even when the data it was
    /// trained on is gone.
    pub fn starting_from(
        config: TrainConfig,
        train: &'a [PackedPosition],
        network: FloatNetwork,
    ) -> Result<Trainer<'a>, String> {
        if (network.arch, network.hidden) != (config.arch, config.hidden) {
            return Err(format!(
                "the starting network is {}, the run asks for {}",
                network.arch.describe(network.hidden),
                config.arch.describe(config.hidden)
            ));
        }
        if config.init.is_none() {
            return Err("a run from a starting network must name its checksum".to_string());
        }
        let optimizer = AdamW::new(network.params.len());
        Trainer::with_state(config, train, network, optimizer, 0)
    }

    /// Continues the run a checkpoint was taken from; refuses one whose settings or training
    /// set differ from this run's.
    pub fn resume(
        config: TrainConfig,
        train: &'a [PackedPosition],
        checkpoint: Checkpoint,
    ) -> Result<Trainer<'a>, String> {
        let trainer = Trainer::with_state(
            config,
            train,
            checkpoint.network,
            checkpoint.optimizer,
            checkpoint.epochs_done,
        )?;
        let differences = checkpoint.settings.differences(&trainer.settings());
        if !differences.is_empty() {
            return Err(format!(
                "the checkpoint was made with different settings:\n  {}",
                differences.join("\n  ")
            ));
        }
        Ok(trainer)
    }

    fn with_state(
        config: TrainConfig,
        train: &'a [PackedPosition],
        network: FloatNetwork,
        optimizer: AdamW,
        epochs_done: usize,
    ) -> Result<Trainer<'a>, String> {
        if train.is_empty() {
            return Err("no training positions".to_string());
        }
        if train.len() > u32::MAX as usize {
            return Err(format!(
                "{} training positions: at most {} are supported",
                train.len(),
                u32::MAX
            ));
        }
        let threads = config.threads.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
        // Two shares per thread, so a thread slowed by other work on the machine has its second
        // share stolen instead of holding up the whole batch.
        let workers = (0..2 * threads)
            .map(|_| Worker {
                grad: vec![0.0; network.params.len()],
                scratch: Scratch::new(config.hidden),
                loss: 0.0,
            })
            .collect();
        Ok(Trainer {
            config,
            network,
            optimizer,
            epochs_done,
            train,
            train_fingerprint: fingerprint(train),
            workers,
            pool,
        })
    }

    /// The settings a checkpoint of this run records.
    pub fn settings(&self) -> Settings {
        let c = &self.config;
        Settings {
            arch: c.arch,
            hidden: c.hidden,
            epochs: c.epochs,
            batch: c.batch,
            seed: c.seed,
            lr: c.lr,
            lr_decay: c.lr_decay,
            lambda: c.lambda,
            loss_power: c.loss_power,
            wd: c.wd,
            train_positions: self.train.len() as u64,
            train_fingerprint: self.train_fingerprint,
            init: c.init,
        }
    }

    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            settings: self.settings(),
            epochs_done: self.epochs_done,
            network: self.network.clone(),
            optimizer: self.optimizer.clone(),
        }
    }

    pub fn finished(&self) -> bool {
        self.epochs_done >= self.config.epochs
    }

    fn batches_per_epoch(&self) -> usize {
        self.train.len().div_ceil(self.config.batch)
    }

    /// Trains one epoch. `progress(done, total)` is called after every batch with positions
    /// done so far in this epoch.
    pub fn run_epoch(&mut self, progress: &mut dyn FnMut(usize, usize)) -> EpochReport {
        let start = Instant::now();
        let order = epoch_order(self.train.len(), self.config.seed, self.epochs_done);
        let total_steps = (self.config.epochs * self.batches_per_epoch()) as f32;
        let first_step = self.epochs_done * self.batches_per_epoch();
        let decayed = FloatNetwork::weight_ranges(&self.config.arch, self.config.hidden);
        let mut loss_sum = 0.0f64;
        let mut lr = self.config.lr;
        for (b, batch) in order.chunks(self.config.batch).enumerate() {
            loss_sum += self.accumulate(batch);
            lr = cosine_lr(
                self.config.lr,
                self.config.lr_decay,
                (first_step + b) as f32 / total_steps,
            );
            self.optimizer.step(
                &mut self.network.params,
                &self.workers[0].grad,
                1.0 / batch.len() as f32,
                lr,
                self.config.wd,
                &ParamGroups {
                    decayed: &decayed,
                    unclipped: self.config.arch.output_buckets,
                },
            );
            progress(
                (b * self.config.batch + batch.len()).min(order.len()),
                order.len(),
            );
        }
        self.epochs_done += 1;
        EpochReport {
            epoch: self.epochs_done,
            train_loss: loss_sum / order.len() as f64,
            positions: order.len(),
            seconds: start.elapsed().as_secs_f64(),
            lr,
        }
    }

    /// Sums the gradient of a batch into the first worker's buffer; returns the summed loss.
    fn accumulate(&mut self, batch: &[u32]) -> f64 {
        let share = batch.len().div_ceil(self.workers.len());
        let shares = batch.len().div_ceil(share);
        let (net, data) = (&self.network, self.train);
        let objective = (self.config.lambda, self.config.loss_power);
        let epoch = self.epochs_done;
        let workers = &mut self.workers[..shares];
        self.pool.install(|| {
            workers
                .par_iter_mut()
                .zip(batch.par_chunks(share))
                .for_each(|(worker, indices)| worker.run(net, data, indices, objective, epoch));
            let (first, rest) = workers.split_at_mut(1);
            first[0]
                .grad
                .par_chunks_mut(REDUCE_CHUNK)
                .enumerate()
                .for_each(|(k, dst)| {
                    for other in rest.iter() {
                        let src = &other.grad[k * REDUCE_CHUNK..k * REDUCE_CHUNK + dst.len()];
                        for (d, &s) in dst.iter_mut().zip(src) {
                            *d += s;
                        }
                    }
                });
        });
        workers.iter().map(|w| w.loss).sum()
    }

    /// Mean loss over `positions` under the current weights (no training).
    pub fn loss(&self, positions: &[PackedPosition]) -> f64 {
        mean_loss(&self.network, positions, self.config.lambda, &self.pool)
    }
}

/// Mean loss of `network` over `positions`, computed in parallel in fixed chunks (so the
/// reported number does not depend on scheduling).
pub fn mean_loss(
    network: &FloatNetwork,
    positions: &[PackedPosition],
    lambda: f32,
    pool: &rayon::ThreadPool,
) -> f64 {
    if positions.is_empty() {
        return 0.0;
    }
    let sums: Vec<f64> = pool.install(|| {
        positions
            .par_chunks(4096)
            .map(|chunk| {
                let mut scratch = Scratch::new(network.hidden);
                chunk
                    .iter()
                    .map(|p| {
                        let out = network.forward(&Features::of(p, &network.arch), &mut scratch);
                        f64::from(loss_and_slope(out, target(p, lambda)).0)
                    })
                    .sum()
            })
            .collect()
    });
    sums.iter().sum::<f64>() / positions.len() as f64
}
