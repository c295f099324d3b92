//! The trainer's tests: gradient, learning, quantisation and resume, on small synthetic data.

use crate::board::Board;
use crate::nnue::format::QuantisedNetwork;
use crate::nnue::Architecture;
use crate::random::splitmix64;
use crate::tools::data::{GameResult, PackedPosition};

use super::batch::Features;
use super::checkpoint::Checkpoint;
use super::loss::{loss_and_power_slope, loss_and_slope, target};
use super::network::{FloatNetwork, Scratch};
use super::optimizer::cosine_lr;
use super::trainer::{TrainConfig, Trainer};

/// Material from White's view, the label of the synthetic data: linear in the features, so a
/// network can learn it, and varied enough in random games to give a real signal.
fn material(position: &PackedPosition) -> i16 {
    const VALUES: [i16; 6] = [100, 300, 320, 500, 900, 0];
    position
        .pieces()
        .map(|(_, color, piece_type)| if color == 0 { 1 } else { -1 } * VALUES[piece_type])
        .sum()
}

/// `count` positions from random games from the start position (restarted after 120 plies or
/// at the end of a game), labelled with material as the score and its sign as the result.
pub(super) fn random_positions(count: usize, seed: u64) -> Vec<PackedPosition> {
    let mut rng = seed;
    let mut positions = Vec::with_capacity(count);
    let mut board = Board::startpos();
    let mut ply = 0;
    while positions.len() < count {
        let moves = board.legal_moves();
        if moves.is_empty() || ply >= 120 {
            board = Board::startpos();
            ply = 0;
            continue;
        }
        board = board.make_move(moves[(splitmix64(&mut rng) % moves.len() as u64) as usize]);
        ply += 1;
        let unlabelled = PackedPosition::pack(&board, 0, GameResult::Draw).unwrap();
        let score = material(&unlabelled);
        let result = match score {
            s if s > 150 => GameResult::WhiteWin,
            s if s < -150 => GameResult::BlackWin,
            _ => GameResult::Draw,
        };
        positions.push(PackedPosition::pack(&board, score, result).unwrap());
    }
    positions
}

fn config(hidden: usize, epochs: usize, batch: usize, lr: f32) -> TrainConfig {
    TrainConfig {
        arch: Architecture::default(),
        hidden,
        epochs,
        batch,
        lr,
        lr_decay: 20.0,
        lambda: 0.75,
        loss_power: 2.0,
        wd: 0.01,
        seed: 7,
        threads: 2,
        init: None,
    }
}

/// Summed loss over `positions` from a plain f64 re-implementation of the network (written from
/// the formula, not from `network.rs`), so finite differences are neither drowned by f32
/// rounding nor blind to a mistake shared with the optimised forward pass.
fn reference_loss(
    arch: &Architecture,
    hidden: usize,
    params: &[f64],
    positions: &[PackedPosition],
) -> f64 {
    // With king buckets the trainer adds a shared row per piece-square to every bucket's row.
    let factor_rows = if arch.king_buckets > 1 { 768 } else { 0 };
    let (w1, rest) = params.split_at((arch.inputs() + factor_rows) * hidden);
    let (b1, rest) = rest.split_at(hidden);
    let row = |f: u16, i: usize| {
        let own = w1[f as usize * hidden + i];
        if factor_rows == 0 {
            own
        } else {
            own + w1[(arch.inputs() + f as usize % 768) * hidden + i]
        }
    };
    let (w2, b2) = rest.split_at(arch.output_buckets * 2 * hidden);
    positions
        .iter()
        .map(|p| {
            let features = Features::of(p, arch);
            let w2 = &w2[features.bucket * 2 * hidden..];
            let mut out = b2[features.bucket];
            for side in 0..2 {
                for i in 0..hidden {
                    let acc: f64 =
                        b1[i] + features.side(side).iter().map(|&f| row(f, i)).sum::<f64>();
                    out += acc.clamp(0.0, 1.0).powi(2) * w2[side * hidden + i];
                }
            }
            let prediction = 1.0 / (1.0 + (-out).exp());
            (prediction - f64::from(target(p, 0.75))).powi(2)
        })
        .sum()
}

#[test]
fn gradients_match_finite_differences() {
    // 8: the plain loops only; 72: one 64-wide register block plus a remainder; then king
    // buckets with the mirror and output buckets, whose rows and biases only some positions use.
    for hidden in [8, 72] {
        check_gradients(Architecture::default(), hidden);
    }
    check_gradients(Architecture::preset(4, true, 4).unwrap(), 8);
}

#[test]
fn king_buckets_train_factorised_and_export_merged() {
    let arch = Architecture::preset(4, true, 2).unwrap();
    let mut net = FloatNetwork::new(arch, 64, 3);
    assert!(net.factorised);
    assert_eq!(net.w1().len(), (4 * 768 + 768) * 64);
    // Give the factor rows weight, so a merge that dropped or misplaced them would show.
    let inputs = arch.inputs() * 64;
    let mut state = 5u64;
    for w in &mut net.params[inputs..inputs + 768 * 64] {
        *w = ((splitmix64(&mut state) >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.2;
    }
    let merged = net.merged_w1();
    assert_eq!(merged.len(), inputs);
    // Row 768 + 5 of bucket 1 is bucket 1's own row plus factor row 5.
    let (row, factor) = (768 + 5, 5);
    for i in 0..64 {
        let expected = net.w1()[row * 64 + i] + net.w1()[inputs + factor * 64 + i];
        assert_eq!(merged[row * 64 + i], expected);
    }
    // The engine's integer network, with the factor rows folded in, evaluates as the float one.
    let positions = random_positions(600, 8);
    let quantised = net.quantise_calibrated(&positions);
    let (mean, _, _, spread) = quantisation_error(&quantised, &net, &positions);
    assert!(mean <= 8.0, "mean |integer - float| {mean} cp");
    assert!(spread > 50.0, "largest |eval| only {spread} cp");
    // Without king buckets nothing is factorised.
    assert!(!FloatNetwork::new(Architecture::default(), 64, 3).factorised);
}

fn check_gradients(arch: Architecture, hidden: usize) {
    let mut net = FloatNetwork::new(arch, hidden, 11);
    // Larger than the default initialisation, so accumulators spread across screlu's clamped
    // and active ranges and the output is far enough from 0 for every term to matter.
    let b1_start = net.w1().len();
    for (i, p) in net.params.iter_mut().enumerate() {
        *p *= if i < b1_start {
            3.0
        } else {
            8.0 * (8.0 / hidden as f32).sqrt()
        };
    }
    for b in &mut net.params[b1_start..b1_start + hidden] {
        *b = 0.35;
    }
    let buckets = arch.output_buckets;
    let b2_start = net.params.len() - buckets;
    net.params[b2_start..].fill(0.1);
    let positions = random_positions(40, 5)[30..].to_vec();

    let mut grad = vec![0.0f32; net.params.len()];
    let mut scratch = Scratch::new(hidden);
    for p in &positions {
        let features = Features::of(p, &arch);
        let out = net.forward(&features, &mut scratch);
        let (_, slope) = loss_and_slope(out, target(p, 0.75));
        net.backward(&features, &mut scratch, slope, &mut grad);
    }

    // Every bias and output weight, the W1 rows of the first position's features from both
    // perspectives (and their shared factor rows with king buckets), and a row no position
    // touches (its gradient must be exactly 0).
    let first = Features::of(&positions[0], &arch);
    let mut checked: Vec<usize> = (b1_start..net.params.len()).collect();
    for &f in first.side(0).iter().chain(first.side(1)).take(12) {
        checked.extend(f as usize * hidden..(f as usize + 1) * hidden);
        if net.factorised {
            let factor = arch.inputs() + f as usize % 768;
            checked.extend(factor * hidden..(factor + 1) * hidden);
        }
    }
    let mut touched = vec![false; arch.inputs()];
    for p in &positions {
        let features = Features::of(p, &arch);
        for &f in features.side(0).iter().chain(features.side(1)) {
            touched[f as usize] = true;
        }
    }
    let untouched = touched
        .iter()
        .position(|&t| !t)
        .expect("an inactive feature");
    checked.extend(untouched * hidden..(untouched + 1) * hidden);

    let mut params: Vec<f64> = net.params.iter().map(|&p| f64::from(p)).collect();
    // The optimised f32 forward pass agrees with the reference.
    let mut scratch = Scratch::new(hidden);
    let f32_loss: f64 = positions
        .iter()
        .map(|p| {
            let out = net.forward(&Features::of(p, &arch), &mut scratch);
            f64::from(loss_and_slope(out, target(p, 0.75)).0)
        })
        .sum();
    let reference = reference_loss(&arch, hidden, &params, &positions);
    assert!(
        (f32_loss - reference).abs() < 1e-5,
        "loss {f32_loss}, reference {reference}"
    );

    let eps = 1e-6;
    let mut nonzero = 0;
    for &i in &checked {
        let original = params[i];
        params[i] = original + eps;
        let up = reference_loss(&arch, hidden, &params, &positions);
        params[i] = original - eps;
        let down = reference_loss(&arch, hidden, &params, &positions);
        params[i] = original;
        let numeric = (up - down) / (2.0 * eps);
        let analytic = f64::from(grad[i]);
        assert!(
            (numeric - analytic).abs() <= 1e-5 + 1e-3 * numeric.abs(),
            "hidden {hidden}, parameter {i}: analytic {analytic}, numeric {numeric}"
        );
        if analytic.abs() > 1e-4 {
            nonzero += 1;
        }
    }
    // The check means something only if many gradients are far from 0.
    assert!(
        nonzero > checked.len() / 4,
        "only {nonzero} of {} gradients are non-zero",
        checked.len()
    );
}

#[test]
fn training_reduces_the_loss() {
    let data = random_positions(2000, 1);
    let mut trainer = Trainer::new(config(16, 6, 128, 0.01), &data).unwrap();
    let before = trainer.loss(&data);
    let mut epoch_losses = Vec::new();
    while !trainer.finished() {
        epoch_losses.push(trainer.run_epoch(&mut |_, _| {}).train_loss);
    }
    let after = trainer.loss(&data);
    assert!(
        after < 0.1 * before,
        "loss {before:.5} before, {after:.5} after (epochs: {epoch_losses:?})"
    );
}

/// A network trained on the synthetic data (hidden 64), as the export test's subject, and its
/// training data.
fn trained_network() -> (FloatNetwork, Vec<PackedPosition>) {
    let data = random_positions(3000, 2);
    let mut trainer = Trainer::new(config(64, 4, 64, 0.01), &data).unwrap();
    while !trainer.finished() {
        trainer.run_epoch(&mut |_, _| {});
    }
    let network = trainer.network.clone();
    drop(trainer);
    (network, data)
}

/// Mean |integer − float|, mean (integer − float) and worst |integer − float| in centipawns, and
/// the largest |float| seen; panics at a position off by more than 20 cp + 2%.
fn quantisation_error(
    quantised: &QuantisedNetwork,
    net: &FloatNetwork,
    positions: &[PackedPosition],
) -> (f32, f32, f32, f32) {
    let (mut total, mut signed, mut worst, mut spread) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
    for position in positions {
        let features = Features::of(position, &net.arch);
        let side = |s: usize| {
            features
                .side(s)
                .iter()
                .map(|&f| f as usize)
                .collect::<Vec<_>>()
        };
        let (stm, other) = (side(0), side(1));
        let integer = quantised.evaluate_features([&stm, &other], features.bucket) as f32;
        let float = net.evaluate(position);
        let diff = integer - float;
        assert!(
            diff.abs() <= 20.0 + 0.02 * float.abs(),
            "integer {integer} cp, float {float} cp for {}",
            position.to_fen()
        );
        total += diff.abs();
        signed += diff;
        worst = worst.max(diff.abs());
        spread = spread.max(float.abs());
    }
    let n = positions.len() as f32;
    (total / n, signed / n, worst, spread)
}

#[test]
fn quantised_export_matches_the_float_network() {
    let (net, training_data) = trained_network();
    let quantised = net.quantise();
    let bytes = quantised.to_bytes();
    assert_eq!(QuantisedNetwork::from_bytes(&bytes).unwrap(), quantised);

    // Positions the network never saw, from other random games.
    let positions = random_positions(2500, 99);
    // Measured (with mirrored training examples): mean |diff| 5.6 cp, mean diff -5.4 cp, worst
    // 18.4 cp; before mirroring 3.0, 1.3 and 15.5. Most of it is w2 rounded
    // to 1/QB = 1/64 (alone it gives mean 2.7, worst 12.3); W1 rounded to 1/255 adds about 1 cp
    // on average.
    let (mean, plain_signed, worst, spread) = quantisation_error(&quantised, &net, &positions);
    assert!(mean <= 8.0, "mean |integer - float| {mean} cp");
    // The comparison must cover real evaluations, not a network that outputs ~0.
    assert!(spread > 300.0, "largest |eval| only {spread} cp");
    eprintln!(
        "plain: mean |integer - float| {mean:.2} cp, mean {plain_signed:.2} cp, worst {worst:.2} cp"
    );

    // Calibrated on the training data, the mean error on unseen positions is (nearly) gone.
    let calibrated = net.quantise_calibrated(&training_data);
    assert_ne!(calibrated.output_bias, quantised.output_bias);
    let (mean, signed, worst, _) = quantisation_error(&calibrated, &net, &positions);
    // Measured: mean |diff| 2.9 cp, mean diff 0.1 cp, worst 12.6 cp.
    assert!(
        signed.abs() <= 1.0 && signed.abs() < 0.5 * plain_signed.abs(),
        "mean integer - float {signed} cp after calibration, {plain_signed} cp before"
    );
    eprintln!(
        "calibrated: mean |integer - float| {mean:.2} cp, mean {signed:.2} cp, worst {worst:.2} cp"
    );
}

#[test]
fn resuming_from_a_checkpoint_reproduces_an_uninterrupted_run() {
    let data = random_positions(1200, 3);
    let cfg = config(8, 2, 100, 0.005);

    let mut straight = Trainer::new(cfg, &data).unwrap();
    straight.run_epoch(&mut |_, _| {});
    straight.run_epoch(&mut |_, _| {});

    let mut first = Trainer::new(cfg, &data).unwrap();
    first.run_epoch(&mut |_, _| {});
    let path = std::env::temp_dir().join(format!("escaque-train-{}.ckpt", std::process::id()));
    first.checkpoint().save(&path).unwrap();
    let loaded = Checkpoint::load(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(loaded, first.checkpoint());
    let mut resumed = Trainer::resume(cfg, &data, loaded.clone()).unwrap();
    assert_eq!(resumed.epochs_done, 1);
    resumed.run_epoch(&mut |_, _| {});
    assert!(resumed.finished());
    assert_eq!(resumed.network, straight.network);
    assert_eq!(resumed.optimizer, straight.optimizer);
    assert_ne!(first.network, straight.network);

    // Damage and mismatches are errors, never panics.
    let bytes = loaded.to_bytes();
    let err = Checkpoint::from_bytes(&bytes[..bytes.len() - 5]).unwrap_err();
    assert!(err.contains("truncated"), "{err}");
    for cut in [0, 7, 20, 60] {
        assert!(Checkpoint::from_bytes(&bytes[..cut]).is_err());
    }
    let mut flipped = bytes.clone();
    flipped[200] ^= 4;
    let err = Checkpoint::from_bytes(&flipped).unwrap_err();
    assert!(err.contains("checksum"), "{err}");
    let err = Trainer::resume(TrainConfig { lr: 0.002, ..cfg }, &data, loaded.clone())
        .err()
        .unwrap();
    assert!(err.contains("--lr"), "{err}");
    for (changed, flag) in [
        (
            TrainConfig {
                lr_decay: 400.0,
                ..cfg
            },
            "--lr-decay",
        ),
        (
            TrainConfig {
                loss_power: 2.5,
                ..cfg
            },
            "--loss-power",
        ),
    ] {
        let err = Trainer::resume(changed, &data, loaded.clone())
            .err()
            .unwrap();
        assert!(err.contains(flag), "{err}");
    }
    let err = Trainer::resume(cfg, &data[1..], loaded).err().unwrap();
    assert!(err.contains("training data"), "{err}");
}

#[test]
fn a_network_read_from_its_file_trains_on_from_its_weights() {
    let (net, data) = trained_network();
    let quantised = net.quantise_calibrated(&data);
    let bytes = quantised.to_bytes();
    let rebuilt = FloatNetwork::from_quantised(&QuantisedNetwork::from_bytes(&bytes).unwrap());
    // Read back, the weights are the file's exactly, and the function is the trained one up to
    // rounding: its loss is the trained network's, far below a fresh network's.
    assert_eq!(rebuilt.quantise(), quantised);
    let cfg = TrainConfig {
        init: Some(crate::nnue::format::fnv1a64(&bytes)),
        ..config(64, 2, 64, 0.001)
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let loss = |n: &FloatNetwork| super::trainer::mean_loss(n, &data, cfg.lambda, &pool);
    let (trained, read, fresh) = (
        loss(&net),
        loss(&rebuilt),
        loss(&FloatNetwork::new(cfg.arch, 64, 1)),
    );
    assert!(
        (read - trained).abs() < 0.05 * trained && read < 0.5 * fresh,
        "trained {trained}, read back {read}, fresh {fresh}"
    );

    // A run from it starts where it stands and goes on learning.
    let mut trainer = Trainer::starting_from(cfg, &data, rebuilt.clone()).unwrap();
    assert_eq!(trainer.network, rebuilt);
    trainer.run_epoch(&mut |_, _| {});
    trainer.run_epoch(&mut |_, _| {});
    assert!(
        loss(&trainer.network) < read,
        "{} !< {read}",
        loss(&trainer.network)
    );

    // The checkpoint names the start: resuming with another start, or none, is refused.
    let checkpoint = trainer.checkpoint();
    let loaded = Checkpoint::from_bytes(&checkpoint.to_bytes()).unwrap();
    assert_eq!(loaded.settings.init, cfg.init);
    let err = Trainer::resume(TrainConfig { init: None, ..cfg }, &data, loaded.clone())
        .err()
        .unwrap();
    assert!(err.contains("--init"), "{err}");
    assert!(Trainer::resume(cfg, &data, loaded).is_ok());

    // Another shape, or a start without its checksum, is refused.
    let err = Trainer::starting_from(TrainConfig { hidden: 32, ..cfg }, &data, rebuilt.clone())
        .err()
        .unwrap();
    assert!(err.contains("starting network"), "{err}");
    assert!(Trainer::starting_from(TrainConfig { init: None, ..cfg }, &data, rebuilt).is_err());
}

#[test]
fn a_bucketed_network_read_from_its_file_gains_empty_factor_rows() {
    let arch = Architecture::preset(4, true, 2).unwrap();
    let net = FloatNetwork::new(arch, 16, 9);
    let positions = random_positions(300, 12);
    let quantised = net.quantise();
    let rebuilt = FloatNetwork::from_quantised(&quantised);
    assert!(rebuilt.factorised);
    assert_eq!(rebuilt.params.len(), FloatNetwork::param_count(&arch, 16));
    assert_eq!(rebuilt.quantise(), quantised);
    for position in &positions {
        let (a, b) = (net.evaluate(position), rebuilt.evaluate(position));
        assert!((a - b).abs() <= 3.0 + 0.01 * a.abs(), "{a} against {b}");
    }
}

#[test]
fn checkpoints_of_formats_3_and_4_are_read_with_the_settings_of_their_time() {
    let data = random_positions(300, 5);
    let trainer = Trainer::new(config(8, 1, 100, 0.005), &data).unwrap();
    let checkpoint = trainer.checkpoint();
    let v5 = checkpoint.to_bytes();
    // After the training fingerprint: format 5 has the starting network's checksum (0: random
    // weights), then the learning rate's decay and the loss power; format 4 only the checksum,
    // format 3 neither.
    let init_at = 8 + 4 + 64 + 4 + 4 + 4 + 4 + 4 + 8 + 4 + 4 + 4 + 8 + 8;
    assert_eq!(&v5[init_at..init_at + 8], &[0; 8]);
    assert_eq!(&v5[init_at + 8..init_at + 12], &20.0f32.to_le_bytes());
    assert_eq!(&v5[init_at + 12..init_at + 16], &2.0f32.to_le_bytes());
    let older = |version: u32, kept: usize| {
        let mut bytes = v5[..init_at + kept].to_vec();
        bytes.extend_from_slice(&v5[init_at + 16..v5.len() - 8]);
        bytes[8..12].copy_from_slice(&version.to_le_bytes());
        let checksum = crate::nnue::format::fnv1a64(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    };
    assert_eq!(Checkpoint::from_bytes(&older(4, 8)).unwrap(), checkpoint);
    assert_eq!(Checkpoint::from_bytes(&older(3, 0)).unwrap(), checkpoint);
    // A run of today's settings is not mistaken for one of the old defaults.
    let other = Trainer::new(
        TrainConfig {
            loss_power: 2.5,
            ..config(8, 1, 100, 0.005)
        },
        &data,
    )
    .unwrap()
    .checkpoint();
    assert_ne!(other.settings, checkpoint.settings);
    assert_eq!(Checkpoint::from_bytes(&other.to_bytes()).unwrap(), other);
    let mut v6 = v5.clone();
    v6[8..12].copy_from_slice(&6u32.to_le_bytes());
    let err = Checkpoint::from_bytes(&v6).unwrap_err();
    assert!(err.contains("version 6"), "{err}");
}

#[test]
fn the_loss_power_slope_is_the_derivative_of_its_objective() {
    let objective = |out: f64, target: f64, power: f64| {
        let p = 1.0 / (1.0 + (-out).exp());
        (p - target).abs().powf(power)
    };
    for power in [1.5f32, 2.0, 2.5, 3.0] {
        for (out, target) in [(0.3f32, 0.9f32), (-1.2, 0.1), (2.0, 0.2), (-0.4, 0.6)] {
            let (squared, slope) = loss_and_power_slope(out, target, power);
            let (o, t, pw) = (f64::from(out), f64::from(target), f64::from(power));
            let h = 1e-6;
            let numeric = (objective(o + h, t, pw) - objective(o - h, t, pw)) / (2.0 * h);
            assert!(
                (f64::from(slope) - numeric).abs() <= 1e-4 * numeric.abs().max(1e-3),
                "power {power} out {out} target {target}: {slope} against {numeric}"
            );
            // The reported loss stays the squared error whatever the power.
            assert_eq!(squared, loss_and_slope(out, target).0);
        }
    }
    // At power 2 the slope is the squared error's, bit for bit: earlier runs replay exactly.
    assert_eq!(
        loss_and_power_slope(0.37, 0.81, 2.0),
        loss_and_slope(0.37, 0.81)
    );
}

#[test]
fn the_learning_rate_decays_from_lr_to_lr_over_the_decay() {
    assert_eq!(cosine_lr(0.001, 20.0, 0.0), 0.001);
    assert!((cosine_lr(0.001, 20.0, 1.0) - 0.001 / 20.0).abs() < 1e-12);
    assert!((cosine_lr(0.001, 400.0, 1.0) - 0.001 / 400.0).abs() < 1e-12);
    assert!((cosine_lr(0.001, 400.0, 0.5) - (0.001 + 0.001 / 400.0) / 2.0).abs() < 1e-9);
}

#[test]
fn widening_keeps_the_function_and_the_new_neurons_can_learn() {
    let positions = random_positions(200, 11);
    for arch in [
        Architecture::default(),
        Architecture::preset(4, true, 8).unwrap(),
    ] {
        let mut narrow = FloatNetwork::new(arch, 8, 3);
        // Non-zero factor rows and biases, so every block of the layout is checked.
        for (i, p) in narrow.params.iter_mut().enumerate() {
            if *p == 0.0 {
                *p = ((i % 7) as f32 - 3.0) * 0.01;
            }
        }
        let wide = narrow.widened(13, 5);
        assert_eq!(wide.hidden, 13);
        assert_eq!(wide.params.len(), FloatNetwork::param_count(&arch, 13));
        for p in &positions {
            let (a, b) = (narrow.evaluate(p), wide.evaluate(p));
            assert!((a - b).abs() < 1e-3, "{a} {b}");
        }
        // The new neurons' input weights are random, so their output weights get gradients.
        let new_inputs = wide.w1()[..arch.inputs() * 13]
            .chunks_exact(13)
            .flat_map(|row| &row[8..])
            .filter(|&&w| w != 0.0)
            .count();
        assert!(new_inputs > arch.inputs() * 4, "{new_inputs}");
        assert_eq!(narrow.widened(8, 5), narrow);
    }
}

#[test]
fn king_buckets_added_to_a_plain_network_keep_its_function_and_can_learn() {
    let positions = random_positions(200, 13);
    let mut plain = FloatNetwork::new(Architecture::preset(1, false, 8).unwrap(), 8, 3);
    for (i, p) in plain.params.iter_mut().enumerate() {
        if *p == 0.0 {
            *p = ((i % 5) as f32 - 2.0) * 0.01;
        }
    }
    let arch = Architecture::preset(4, false, 8).unwrap();
    let bucketed = plain.bucketed(arch).unwrap();
    assert!(bucketed.factorised);
    assert_eq!(bucketed.arch, arch);
    assert_eq!(bucketed.params.len(), FloatNetwork::param_count(&arch, 8));
    for p in &positions {
        let (a, b) = (plain.evaluate(p), bucketed.evaluate(p));
        assert!((a - b).abs() < 1e-3, "{a} {b}");
    }
    // Training moves the bucketed rows, so the buckets come apart, and lowers the loss.
    let cfg = TrainConfig {
        arch,
        init: Some(1),
        ..config(8, 2, 50, 0.005)
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let loss = |n: &FloatNetwork| super::trainer::mean_loss(n, &positions, cfg.lambda, &pool);
    let mut trainer = Trainer::starting_from(cfg, &positions, bucketed.clone()).unwrap();
    trainer.run_epoch(&mut |_, _| {});
    trainer.run_epoch(&mut |_, _| {});
    let moved = trainer.network.params[..arch.inputs() * 8]
        .iter()
        .filter(|&&w| w != 0.0)
        .count();
    assert!(moved > 100, "{moved}");
    assert!(loss(&trainer.network) < loss(&bucketed));
    // Only unmirrored buckets of the same output layer, and only from a network without buckets.
    assert!(plain
        .bucketed(Architecture::preset(4, true, 8).unwrap())
        .is_err());
    assert!(plain
        .bucketed(Architecture::preset(4, false, 4).unwrap())
        .is_err());
    assert!(plain
        .bucketed(Architecture::preset(1, false, 8).unwrap())
        .is_err());
    assert!(bucketed
        .bucketed(Architecture::preset(8, false, 8).unwrap())
        .is_err());
    assert!(FloatNetwork::can_start(&plain.arch, &arch));
    assert!(!FloatNetwork::can_start(&arch, &plain.arch));
}
