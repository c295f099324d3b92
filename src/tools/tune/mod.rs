//! A Texel tuner for the evaluation weights. The evaluation is linear in its weights once phase and
//! endgame scale are fixed, so each position is reduced once to its sparse feature counts
//! (White's minus Black's) and the tuner minimises the mean squared error between
//! `sigmoid(K * eval)` and the game result with Adam, in full batches.
//!
//! Input: EPD lines `<FEN> c9 "1-0";` (also `"0-1"`, `"1/2-1/2"`), or `<FEN> [1.0]`
//! (`[0.5]`, `[0.0]`).

pub mod cli;

use std::fmt::Write as _;

use rayon::prelude::*;

use crate::board::{Board, MoveList};
use crate::hce::params::{NUM_PARAMS, S, SECTIONS};
use crate::hce::{evaluate, evaluate_parts, CoefficientTrace, MAX_PHASE, PARAMS, SCALE_NORMAL};

/// One position reduced to what the linear model needs.
pub struct Entry {
    features: Vec<(u16, i16)>,
    /// Middlegame weight (phase / 24) and endgame weight ((24 - phase) / 24 * scale / 128).
    mg: f32,
    eg: f32,
    /// Result from White's point of view: 1, 0.5 or 0.
    result: f32,
}

/// Parses one labelled line; `None` for lines without a FEN or result.
pub fn parse_line(line: &str) -> Option<(Board, f32)> {
    // The result is read after the FEN only: a FEN's own `1/2` or `0-1`-like text must not count.
    let (fen_end, result) = if let Some(at) = line.find(" c9") {
        let label = line[at + 3..]
            .trim()
            .trim_end_matches(';')
            .trim_matches('"');
        let result = match label {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => return None,
        };
        (at, result)
    } else {
        let at = line.find(" [")?;
        let label = line[at + 2..].trim().strip_suffix(']')?.trim();
        let result = match label {
            "1.0" | "1" => 1.0,
            "0.0" | "0" => 0.0,
            "0.5" => 0.5,
            _ => return None,
        };
        (at, result)
    };
    let board = Board::from_fen(line[..fen_end].trim()).ok()?;
    Some((board, result))
}

/// A capture-only search (SEE-pruned, MVV ordered, evasions when in check) from `board`; returns
/// the score for the side to move and the position at the end of its principal variation.
fn qsearch(board: &Board, mut alpha: i32, beta: i32, ply: u32) -> (i32, Board) {
    const MATE: i32 = 30_000;
    let in_check = board.in_check();
    let mut list = MoveList::new();
    let mut best = (-MATE, *board);
    if in_check {
        board.generate_all(&mut list);
        if list.is_empty() {
            return (-MATE, *board);
        }
    } else {
        let stand_pat = evaluate(board);
        best = (stand_pat, *board);
        if stand_pat >= beta || ply >= 16 {
            return best;
        }
        alpha = alpha.max(stand_pat);
        board.generate_noisy(&mut list);
        list.retain(|mv| board.see_ge(*mv, 0));
        list.sort_by_key(|mv| -board.capture_gain(*mv));
    }
    for &mv in &list {
        let child = board.make_move(mv);
        let (score, leaf) = qsearch(&child, -beta, -alpha, ply + 1);
        let score = -score;
        if score > best.0 {
            best = (score, leaf);
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The quiet position a quiescence search from `board` settles in (`board` itself when standing
/// pat is best): the standard Texel preprocessing, so that the linear model is not asked to
/// explain a result from a position where material is about to change hands.
pub fn resolve(board: &Board) -> Board {
    qsearch(board, -32_000, 32_000, 0).1
}

/// Extracts the features of a position.
pub fn entry(board: &Board, result: f32) -> Entry {
    let mut trace = CoefficientTrace::default();
    let parts = evaluate_parts(board, &mut trace);
    let features = trace
        .counts
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let diff = c[0] - c[1];
            (diff != 0).then_some((i as u16, diff as i16))
        })
        .collect();
    let phase = parts.phase as f32 / MAX_PHASE as f32;
    // Known draws evaluate to zero whatever the weights.
    let phase = if parts.scale == 0 { 0.0 } else { phase };
    Entry {
        features,
        mg: phase,
        eg: (1.0 - phase) * parts.scale as f32 / SCALE_NORMAL as f32,
        result,
    }
}

impl Entry {
    /// The linear model's evaluation (White's point of view, unrounded) under integer `weights`;
    /// for the weights the engine was built with it must equal `hce::evaluate` up to rounding.
    pub fn linear_eval(&self, weights: &[S]) -> f64 {
        let w: Vec<[f64; 2]> = weights
            .iter()
            .map(|s| [f64::from(s.0), f64::from(s.1)])
            .collect();
        eval(self, &w)
    }
}

fn eval(e: &Entry, w: &[[f64; 2]]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &e.features {
        mg += w[i as usize][0] * f64::from(c);
        eg += w[i as usize][1] * f64::from(c);
    }
    mg * f64::from(e.mg) + eg * f64::from(e.eg)
}

#[inline]
fn sigmoid(k: f64, x: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * x / 400.0))
}

fn error(entries: &[Entry], w: &[[f64; 2]], k: f64) -> f64 {
    // Fixed chunks summed in order: the same error on any number of threads.
    let partial: Vec<f64> = entries
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|e| {
                    let d = sigmoid(k, eval(e, w)) - f64::from(e.result);
                    d * d
                })
                .sum()
        })
        .collect();
    partial.iter().sum::<f64>() / entries.len().max(1) as f64
}

/// Entries per parallel work item of the error and gradient sums.
const CHUNK: usize = 4096;

/// The gradient of the summed squared error over `entries` (not yet divided by their number):
/// one partial sum per fixed chunk on the rayon pool, added up in chunk order, so a tune gives
/// the same weights on any number of threads.
fn gradient(entries: &[Entry], w: &[[f64; 2]], k: f64) -> Vec<[f64; 2]> {
    let ln10 = std::f64::consts::LN_10;
    let partial: Vec<Vec<[f64; 2]>> = entries
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut grad = vec![[0.0f64; 2]; NUM_PARAMS];
            for e in chunk {
                let s = sigmoid(k, eval(e, w));
                let g = 2.0 * (s - f64::from(e.result)) * s * (1.0 - s) * ln10 * k / 400.0;
                let (gm, ge) = (g * f64::from(e.mg), g * f64::from(e.eg));
                for &(i, c) in &e.features {
                    grad[i as usize][0] += gm * f64::from(c);
                    grad[i as usize][1] += ge * f64::from(c);
                }
            }
            grad
        })
        .collect();
    let mut total = vec![[0.0f64; 2]; NUM_PARAMS];
    for grad in &partial {
        for (x, y) in total.iter_mut().zip(grad) {
            x[0] += y[0];
            x[1] += y[1];
        }
    }
    total
}

/// The scaling constant K that best fits the current weights (ternary search).
pub fn fit_k(entries: &[Entry], w: &[[f64; 2]]) -> f64 {
    let (mut lo, mut hi) = (0.1, 3.0);
    for _ in 0..40 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if error(entries, w, a) < error(entries, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Settings of a tuning run.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    pub epochs: usize,
    /// Replace each position by its quiescence-search leaf before extracting features.
    pub resolve: bool,
    /// L2 pull towards the starting weights, per weight, added to the mean squared error's
    /// gradient (in error per centipawn squared).
    pub l2: f64,
    /// Adam step size in centipawns.
    pub lr: f64,
    /// Sections (names from `SECTIONS`, or `PST_PAWN` … `PST_KING` for one piece's table) whose
    /// weights stay as they are.
    pub frozen: Vec<String>,
}

/// Which weights a tune may change.
fn tunable_mask(frozen: &[String]) -> Vec<bool> {
    let mut mask = vec![true; NUM_PARAMS];
    let pst_names = ["PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN", "KING"];
    for name in frozen {
        let range = if let Some(&(_, offset, len)) = SECTIONS.iter().find(|s| s.0 == name) {
            offset..offset + len
        } else if let Some(piece) = name
            .strip_prefix("PST_")
            .and_then(|p| pst_names.iter().position(|&n| n == p))
        {
            let start = crate::hce::params::PST + 64 * piece;
            start..start + 64
        } else {
            panic!("unknown section {name}");
        };
        for m in &mut mask[range] {
            *m = false;
        }
    }
    mask
}

impl Default for TuneConfig {
    fn default() -> Self {
        TuneConfig {
            epochs: 1000,
            resolve: true,
            l2: 1e-7,
            lr: 1.0,
            frozen: Vec::new(),
        }
    }
}

/// Tunes from the EPD text and returns a report plus the new weights rounded to integers.
/// `log` receives progress lines.
pub fn tune_with(epd: &str, config: &TuneConfig, log: &mut dyn FnMut(&str)) -> (String, Vec<S>) {
    let epochs = config.epochs;
    let lines: Vec<&str> = epd.lines().collect();
    // Rayon's collect keeps the input order, so the validation split below is the same as serial.
    let all: Vec<Entry> = lines
        .par_iter()
        .filter_map(|line| parse_line(line))
        .filter(|(b, _)| !b.in_check())
        .map(|(b, r)| {
            let b = if config.resolve { resolve(&b) } else { b };
            entry(&b, r)
        })
        .collect();
    // A fixed split: every tenth position validates.
    let (mut entries, mut validation) = (Vec::new(), Vec::new());
    for (i, e) in all.into_iter().enumerate() {
        if i % 10 == 9 {
            validation.push(e);
        } else {
            entries.push(e);
        }
    }
    if entries.is_empty() {
        // Nothing to fit: Adam's mean gradient would be NaN and zero every weight.
        return (
            "no training positions: weights unchanged".to_string(),
            PARAMS.to_vec(),
        );
    }
    let mut w: Vec<[f64; 2]> = PARAMS
        .iter()
        .map(|s| [f64::from(s.0), f64::from(s.1)])
        .collect();
    let initial = w.clone();
    let k = fit_k(&entries, &w);
    log(&format!(
        "{} training, {} validation positions; K = {k:.4}; error {:.6} / {:.6}",
        entries.len(),
        validation.len(),
        error(&entries, &w, k),
        error(&validation, &w, k)
    ));
    let (beta1, beta2, lr, eps) = (0.9, 0.999, config.lr, 1e-8);
    // A pull back towards the starting weights keeps rarely seen PST squares sane.
    let l2 = config.l2;
    let mask = tunable_mask(&config.frozen);
    let mut m = vec![[0.0f64; 2]; NUM_PARAMS];
    let mut v = vec![[0.0f64; 2]; NUM_PARAMS];
    let n = entries.len() as f64;
    for epoch in 1..=epochs {
        let grad = gradient(&entries, &w, k);
        for i in (0..NUM_PARAMS).filter(|&i| mask[i]) {
            for p in 0..2 {
                let g = grad[i][p] / n + l2 * (w[i][p] - initial[i][p]);
                m[i][p] = beta1 * m[i][p] + (1.0 - beta1) * g;
                v[i][p] = beta2 * v[i][p] + (1.0 - beta2) * g * g;
                let mh = m[i][p] / (1.0 - beta1.powi(epoch as i32));
                let vh = v[i][p] / (1.0 - beta2.powi(epoch as i32));
                w[i][p] -= lr * mh / (vh.sqrt() + eps);
            }
        }
        if epoch % 100 == 0 || epoch == epochs {
            log(&format!(
                "epoch {epoch}: error {:.6} / {:.6}",
                error(&entries, &w, k),
                error(&validation, &w, k)
            ));
        }
    }
    let weights: Vec<S> = w
        .iter()
        .map(|p| S(p[0].round() as i32, p[1].round() as i32))
        .collect();
    let mut report = String::new();
    let _ = writeln!(
        report,
        "K = {k:.4}, final error {:.6} / {:.6}",
        error(&entries, &w, k),
        error(&validation, &w, k)
    );
    (report, weights)
}

/// Rust source for the weight table, one section per line group, for `hce/weights.rs`.
pub fn to_rust(weights: &[S]) -> String {
    let mut out = String::from("#[rustfmt::skip]\npub static PARAMS: [S; NUM_PARAMS] = [\n");
    for &(name, offset, len) in SECTIONS {
        let _ = writeln!(out, "    // {name}");
        for chunk in weights[offset..offset + len].chunks(8) {
            let items: Vec<String> = chunk
                .iter()
                .map(|s| format!("S({}, {})", s.0, s.1))
                .collect();
            let _ = writeln!(out, "    {},", items.join(", "));
        }
    }
    out.push_str("];\n");
    out
}

/// A check of labelled data: the mean result per 100 cp bucket of the engine's evaluation
/// (White's view, -450 to +450), one row for White to move and one for Black. Labels must be
/// from White's point of view, so both rows rise from left to right. `mean/count` per cell.
pub fn results_by_eval_bucket(epd: &str) -> String {
    // [side to move][bucket] -> (sum of results, count)
    let mut stats = [[(0.0f64, 0u32); 9]; 2];
    let mut n = 0;
    for (board, result) in epd.lines().filter_map(parse_line) {
        n += 1;
        let white_eval = crate::hce::evaluate(&board) * board.side_to_move().sign();
        let bucket = ((white_eval + 450) / 100).clamp(0, 8) as usize;
        let cell = &mut stats[board.side_to_move().index()][bucket];
        cell.0 += f64::from(result);
        cell.1 += 1;
    }
    let mut text = format!("{n} positions\n");
    for (name, row) in ["white to move", "black to move"].iter().zip(&stats) {
        let cells: Vec<String> = row
            .iter()
            .map(|(sum, count)| format!("{:.2}/{count}", sum / f64::from((*count).max(1))))
            .collect();
        text.push_str(&format!("{name}: {}\n", cells.join(" ")));
    }
    text
}
