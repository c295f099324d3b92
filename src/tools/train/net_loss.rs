//! `escaque net-loss`: networks compared on the same labelled positions.
//!
//! A held-out slice of self-play is labelled with the search scores of the network that played
//! it, so its score-target loss favours that network and its fine-tunes over a network of
//! another lineage (net8 scored 0.00348 on its own games, a from-scratch net 0.00393, yet the two
//! were within 1% of each other on the results of games neither played). The game result of
//! positions none of the candidates played (`../shared/data/tuning/debian-engines-labelled.epd`)
//! judges them on equal terms. Consecutive positions come from the same game and are not
//! independent, so each difference carries an error bar from the means of blocks of consecutive
//! positions (batch means), paired position by position against the first network.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::nnue::format::{fnv1a64, QuantisedNetwork};
use crate::tools::data::{read_lines, read_records, GameResult, PackedPosition};
use crate::tools::{threads, whole_in};

use super::batch::Features;
use super::loss::{loss_and_slope, target};
use super::network::{FloatNetwork, Scratch};

/// Compare networks by their loss on the same labelled positions (game results by default)
#[derive(clap::Args, Debug)]
pub struct NetLossArgs {
    /// Labelled positions: datagen files (`.bin`) or EPD lines with a result (`c9 "1-0";` or
    /// `[1.0]`, as `escaque tune` reads them)
    #[arg(required = true, value_name = "FILE")]
    data: Vec<PathBuf>,
    /// A network file; give several (the first is the one the others are compared with)
    #[arg(long = "net", required = true, value_name = "NET.nnue")]
    nets: Vec<PathBuf>,
    /// Weight of the search score in the target (0: the game result alone; EPD lines carry no
    /// score, so they need 0)
    #[arg(long, default_value_t = 0.0, value_parser = super::cli::single_in(0.0, 1.0))]
    lambda: f32,
    /// Consecutive positions per block of the error bar (about ten games' worth by default)
    #[arg(long, default_value_t = 1000, value_parser = whole_in(1usize, 1 << 24))]
    block: usize,
    /// Threads (default: all cores)
    #[arg(long, value_parser = threads())]
    threads: Option<usize>,
}

/// One network's result on the positions.
#[derive(Clone, Debug, PartialEq)]
pub struct NetLoss {
    pub mean: f64,
    /// Mean of (this loss − the first network's loss) and its 95% half-width; `None` for the
    /// first network, and an error bar of `None` with fewer than two whole blocks.
    pub against_first: Option<(f64, Option<f64>)>,
    /// The factor on the output that fits these positions best, and the loss with it: a network
    /// that only rescaled its scores (as a fine-tune on its own games can) gains here nothing
    /// over the one it came from, so the gap left at the best scale is what it learnt to rank.
    pub best_scale: f64,
    pub mean_at_best_scale: f64,
    pub against_first_at_best_scale: Option<(f64, Option<f64>)>,
}

impl NetLossArgs {
    pub fn run(self) -> Result<(), String> {
        let mut positions = Vec::new();
        for path in &self.data {
            let is_epd = path.extension().is_some_and(|e| e != "bin");
            if is_epd && self.lambda != 0.0 {
                return Err(format!(
                    "{} has no search scores: use --lambda 0 (the game result) with EPD",
                    path.display()
                ));
            }
            positions.extend(if is_epd {
                read_labelled_epd(path)?
            } else {
                read_records(path)?
            });
        }
        if positions.is_empty() {
            return Err("no positions to measure".to_string());
        }
        let mut networks = Vec::new();
        for path in &self.nets {
            let bytes =
                std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let quantised = QuantisedNetwork::from_bytes(&bytes)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            networks.push((path, fnv1a64(&bytes), quantised));
        }
        let threads = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
        let floats: Vec<FloatNetwork> = networks
            .iter()
            .map(|(_, _, q)| FloatNetwork::from_quantised(q))
            .collect();
        let results = compare(&floats, &positions, self.lambda, self.block, &pool);
        let target = if self.lambda == 0.0 {
            "the game result".to_string()
        } else {
            format!(
                "{} of the search score, the rest the game result",
                self.lambda
            )
        };
        report!(
            "{} positions, target: {target}; error bars 95%, from {} blocks of {} consecutive positions",
            positions.len(),
            positions.len() / self.block,
            self.block
        );
        let against = |difference: Option<(f64, Option<f64>)>| match difference {
            None => "(reference)".to_string(),
            Some((d, Some(e))) => format!("{d:+.6} ± {e:.6}"),
            Some((d, None)) => format!("{d:+.6}"),
        };
        for ((path, checksum, quantised), result) in networks.iter().zip(&results) {
            report!(
                "{}  {checksum:016x}  {}\n    loss {:.6}  {}\n    at its best scale ×{:.3}: loss {:.6}  {}",
                path.display(),
                quantised.arch.describe(quantised.hidden),
                result.mean,
                against(result.against_first),
                result.best_scale,
                result.mean_at_best_scale,
                against(result.against_first_at_best_scale),
            );
        }
        Ok(())
    }
}

/// Each network's mean loss over `positions` and its paired difference from the first's, as
/// the network stands and with its output rescaled to fit the positions best.
pub fn compare(
    networks: &[FloatNetwork],
    positions: &[PackedPosition],
    lambda: f32,
    block: usize,
    pool: &rayon::ThreadPool,
) -> Vec<NetLoss> {
    let targets: Vec<f32> = positions.iter().map(|p| target(p, lambda)).collect();
    let outputs: Vec<Vec<f32>> = networks
        .iter()
        .map(|n| outputs(n, positions, pool))
        .collect();
    let scales: Vec<f64> = outputs.iter().map(|o| best_scale(o, &targets)).collect();
    let losses = |scale_of: &dyn Fn(usize) -> f64| -> Vec<Vec<f64>> {
        outputs
            .iter()
            .enumerate()
            .map(|(i, o)| losses_at(o, &targets, scale_of(i)))
            .collect()
    };
    let plain = losses(&|_| 1.0);
    let rescaled = losses(&|i| scales[i]);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let against = |all: &[Vec<f64>], i: usize| {
        (i > 0).then(|| {
            let diff: Vec<f64> = all[i].iter().zip(&all[0]).map(|(a, b)| a - b).collect();
            (mean(&diff), batch_means_half_width(&diff, block))
        })
    };
    (0..networks.len())
        .map(|i| NetLoss {
            mean: mean(&plain[i]),
            against_first: against(&plain, i),
            best_scale: scales[i],
            mean_at_best_scale: mean(&rescaled[i]),
            against_first_at_best_scale: against(&rescaled, i),
        })
        .collect()
}

/// The network's raw output (units of SCALE centipawns, side to move's view) for every position.
fn outputs(
    network: &FloatNetwork,
    positions: &[PackedPosition],
    pool: &rayon::ThreadPool,
) -> Vec<f32> {
    pool.install(|| {
        positions
            .par_chunks(4096)
            .flat_map_iter(|chunk| {
                let mut scratch = Scratch::new(network.hidden);
                chunk
                    .iter()
                    .map(|p| network.forward(&Features::of(p, &network.arch), &mut scratch))
                    .collect::<Vec<_>>()
            })
            .collect()
    })
}

/// The loss of each position in turn with the output multiplied by `scale`.
fn position_losses<'a>(
    outputs: &'a [f32],
    targets: &'a [f32],
    scale: f64,
) -> impl Iterator<Item = f64> + 'a {
    let scale = scale as f32;
    outputs
        .iter()
        .zip(targets)
        .map(move |(&out, &t)| f64::from(loss_and_slope(out * scale, t).0))
}

/// The loss of every position with the output multiplied by `scale`.
fn losses_at(outputs: &[f32], targets: &[f32], scale: f64) -> Vec<f64> {
    position_losses(outputs, targets, scale).collect()
}

/// The output factor in [1/8, 8] with the least mean loss (golden-section search on its
/// logarithm: the loss of a fixed set of outputs is unimodal in the scale in practice).
fn best_scale(outputs: &[f32], targets: &[f32]) -> f64 {
    // The mean alone, without the per-position vector: this runs about 80 times.
    let loss = |log_scale: f64| {
        position_losses(outputs, targets, log_scale.exp()).sum::<f64>() / outputs.len() as f64
    };
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (-(8f64.ln()), 8f64.ln());
    let mut a = high - ratio * (high - low);
    let mut b = low + ratio * (high - low);
    let (mut fa, mut fb) = (loss(a), loss(b));
    for _ in 0..40 {
        if fa <= fb {
            high = b;
            b = a;
            fb = fa;
            a = high - ratio * (high - low);
            fa = loss(a);
        } else {
            low = a;
            a = b;
            fa = fb;
            b = low + ratio * (high - low);
            fb = loss(b);
        }
    }
    ((low + high) / 2.0).exp()
}

/// The 95% half-width of the mean of `values` from the spread of the means of whole blocks of
/// `block` consecutive values (the partial last block counts in the mean, not in the spread);
/// `None` with fewer than two blocks.
fn batch_means_half_width(values: &[f64], block: usize) -> Option<f64> {
    let means: Vec<f64> = values
        .chunks_exact(block)
        .map(|b| b.iter().sum::<f64>() / block as f64)
        .collect();
    let n = means.len();
    if n < 2 {
        return None;
    }
    let centre = means.iter().sum::<f64>() / n as f64;
    let variance = means.iter().map(|m| (m - centre).powi(2)).sum::<f64>() / (n - 1) as f64;
    Some(1.96 * (variance / n as f64).sqrt())
}

/// Positions of an EPD file whose lines carry a result, labelled with it (score 0). Blank lines
/// and `#` comments are skipped; any other line without a legal FEN and a result is an error
/// naming it.
pub fn read_labelled_epd(path: &Path) -> Result<Vec<PackedPosition>, String> {
    read_lines(path, |line| {
        let (board, white_score) = crate::tools::tune::parse_line(line)
            .ok_or("not a FEN with a result (`c9 \"1-0\";` or `[1.0]`)")?;
        let result = match white_score {
            s if s > 0.75 => GameResult::WhiteWin,
            s if s < 0.25 => GameResult::BlackWin,
            _ => GameResult::Draw,
        };
        PackedPosition::pack(&board, 0, result).ok_or_else(|| "more than 32 pieces".to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::Architecture;
    use crate::tools::train::tests::random_positions;

    fn pool() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
    }

    #[test]
    fn losses_match_the_trainer_and_differences_are_paired() {
        let positions = random_positions(3000, 7);
        let a = FloatNetwork::new(Architecture::default(), 16, 1);
        let b = FloatNetwork::new(Architecture::default(), 16, 2);
        let pool = pool();
        let results = compare(
            &[a.clone(), b.clone(), a.clone()],
            &positions,
            0.0,
            500,
            &pool,
        );
        let trainer_a = super::super::trainer::mean_loss(&a, &positions, 0.0, &pool);
        let trainer_b = super::super::trainer::mean_loss(&b, &positions, 0.0, &pool);
        assert!((results[0].mean - trainer_a).abs() < 1e-9);
        assert!((results[1].mean - trainer_b).abs() < 1e-9);
        assert_eq!(results[0].against_first, None);
        let (d, e) = results[1].against_first.unwrap();
        assert!((d - (trainer_b - trainer_a)).abs() < 1e-9);
        assert!(
            e.unwrap() > 0.0,
            "two different nets differ position by position"
        );
        // The same network again: zero difference and zero spread.
        assert_eq!(results[2].against_first, Some((0.0, Some(0.0))));
        assert_eq!(
            results[2].against_first_at_best_scale,
            Some((0.0, Some(0.0)))
        );
        for r in &results {
            assert!(r.mean_at_best_scale <= r.mean + 1e-12, "{r:?}");
        }
        // The target follows lambda: the score target differs from the result target here.
        let with_score = compare(&[a], &positions, 1.0, 500, &pool);
        assert!((with_score[0].mean - results[0].mean).abs() > 1e-6);
    }

    #[test]
    fn the_best_scale_undoes_a_rescaling() {
        let outputs: Vec<f32> = (0..2000).map(|i| (i as f32 - 1000.0) / 250.0).collect();
        let targets: Vec<f32> = outputs
            .iter()
            .map(|&o| super::super::loss::sigmoid(0.5 * o))
            .collect();
        let scale = best_scale(&outputs, &targets);
        assert!((scale - 0.5).abs() < 1e-4, "{scale}");
        assert!(losses_at(&outputs, &targets, scale)
            .iter()
            .all(|&l| l < 1e-10));
    }

    /// Parses and runs a `net-loss` command line, clap's refusals included.
    fn run(words: &str) -> Result<(), String> {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct NetLoss {
            #[command(flatten)]
            args: NetLossArgs,
        }
        let words = std::iter::once("net-loss").chain(words.split_whitespace());
        NetLoss::try_parse_from(words)
            .map_err(|e| e.to_string())?
            .args
            .run()
    }

    #[test]
    fn the_command_line_measures_and_refuses_bad_input() {
        let dir = std::env::temp_dir().join(format!("escaque-net-loss-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("d.bin");
        crate::tools::data::write_records(&data, &random_positions(500, 3)).unwrap();
        let epd = dir.join("d.epd");
        std::fs::write(&epd, "8/8/8/4k3/8/8/8/4K2R w K - 0 1 c9 \"1-0\";\n").unwrap();
        let net = dir.join("a.nnue");
        let network = FloatNetwork::new(Architecture::default(), 16, 1);
        network.export(&net, &random_positions(100, 4)).unwrap();
        let (d, e, n) = (data.display(), epd.display(), net.display());
        run(&format!("{d} {e} --net {n} --net {n} --block 100")).unwrap();
        for (words, expected) in [
            (format!("{e} --net {n} --lambda 0.5"), "--lambda 0"),
            (
                format!("{d} --net {}/missing.nnue", dir.display()),
                "cannot read",
            ),
            (format!("{d} --net {d}"), "d.bin"),
            (format!("{d}"), "--net"),
            (
                format!("{}/missing.bin --net {n}", dir.display()),
                "cannot open",
            ),
        ] {
            let err = run(&words).unwrap_err();
            assert!(err.contains(expected), "{words}: {err}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn batch_means_need_two_blocks_and_shrink_with_agreement() {
        assert_eq!(batch_means_half_width(&[1.0; 10], 6), None);
        assert_eq!(batch_means_half_width(&[1.0; 12], 6), Some(0.0));
        // Block means 0 and 1: s.d. √0.5, s.e. 0.5, half-width 0.98.
        let values: Vec<f64> = (0..8).map(|i| if i < 4 { 0.0 } else { 1.0 }).collect();
        assert!((batch_means_half_width(&values, 4).unwrap() - 0.98).abs() < 1e-12);
    }

    #[test]
    fn epd_lines_are_read_with_their_results_and_bad_lines_named() {
        let dir = std::env::temp_dir().join(format!("escaque-net-loss-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.epd");
        std::fs::write(
            &good,
            "# comment\n\
             rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 c9 \"1-0\";\n\n\
             8/8/8/4k3/8/8/8/4K2R w K - 0 1 [0.5]\n\
             8/8/8/4k3/8/8/8/4K2R b K - 0 1 c9 \"0-1\";\n",
        )
        .unwrap();
        let positions = read_labelled_epd(&good).unwrap();
        let results: Vec<f32> = positions.iter().map(|p| p.stm_result()).collect();
        // Side-to-move view: Black to move in a White win, White in a draw, Black in a Black win.
        assert_eq!(results, vec![0.0, 0.5, 1.0]);
        let bad = dir.join("bad.epd");
        std::fs::write(
            &bad,
            "8/8/8/4k3/8/8/8/4K2R w K - 0 1 c9 \"1-0\";\nnot a fen\n",
        )
        .unwrap();
        let err = read_labelled_epd(&bad).unwrap_err();
        assert!(err.contains("bad.epd:2"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
