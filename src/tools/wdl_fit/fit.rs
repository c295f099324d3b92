//! Fitting the win-rate model to self-play data by maximum likelihood: every position's
//! (White's search score, material, game result) is one observation of a three-way outcome whose
//! chances the model gives. Positions are first counted per (score, material) cell, so a fit of
//! millions of positions works on some ten thousand cells.

use std::collections::HashMap;

use crate::tools::data::{GameResult, PackedPosition};
use crate::wdl::model::{
    logistic, material_x, WinRateModel, MATERIAL_BY_INDEX, MATERIAL_MAX, MATERIAL_MIN,
};

/// Results counted per (White's score, clamped material): `[losses, draws, wins]` for White.
#[derive(Default, Clone)]
pub struct Observations {
    cells: HashMap<(i32, u32), [u64; 3]>,
    positions: u64,
}

/// One cell of [`Observations`], in the form the fit iterates over.
struct Cell {
    score: f64,
    /// `[m³, m², m, 1]` of the cell's material.
    powers: [f64; 4],
    counts: [f64; 3],
}

/// The material of a packed position, as [`super::material`] counts it on a board.
pub fn record_material(record: &PackedPosition) -> u32 {
    record
        .pieces()
        .map(|(_, _, piece_type)| MATERIAL_BY_INDEX[piece_type.min(5)])
        .sum()
}

impl Observations {
    /// Counts one position: White's score, the material (clamped as the model clamps it) and
    /// the game's result.
    pub fn add(&mut self, white_score: i32, material: u32, result: GameResult) {
        let material = material.clamp(MATERIAL_MIN, MATERIAL_MAX);
        self.cells.entry((white_score, material)).or_default()[result as usize] += 1;
        self.positions += 1;
    }

    pub fn add_record(&mut self, record: &PackedPosition) {
        self.add(
            i32::from(record.white_score()),
            record_material(record),
            record.result(),
        );
    }

    /// Positions counted.
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// `[losses, draws, wins]` for White, over all positions.
    pub fn results(&self) -> [u64; 3] {
        self.cells.values().fold([0; 3], |mut total, counts| {
            for (t, c) in total.iter_mut().zip(counts) {
                *t += c;
            }
            total
        })
    }

    fn fit_cells(&self) -> Vec<Cell> {
        let mut cells: Vec<Cell> = self
            .cells
            .iter()
            .map(|(&(score, material), counts)| {
                let x = material_x(material);
                Cell {
                    score: f64::from(score),
                    powers: [x * x * x, x * x, x, 1.0],
                    counts: counts.map(|c| c as f64),
                }
            })
            .collect();
        // A fixed order, so the sums (and the fitted numbers) are the same on every run.
        cells.sort_by(|p, q| {
            (p.powers[2], p.score)
                .partial_cmp(&(q.powers[2], q.score))
                .expect("finite")
        });
        cells
    }

    /// Every (White's score, clamped material) cell with its `[losses, draws, wins]`, for the
    /// tables that compare a model with what happened.
    pub fn cells(&self) -> impl Iterator<Item = (i32, u32, [u64; 3])> + '_ {
        self.cells.iter().map(|(&(s, m), &c)| (s, m, c))
    }
}

/// What [`fit`] found.
#[derive(Clone, Debug)]
pub struct Fit {
    pub model: WinRateModel,
    /// Mean log-likelihood per position of the fitted model (natural log; 0 would be perfect).
    pub mean_log_likelihood: f64,
    /// Fisher-scoring iterations taken.
    pub iterations: u32,
}

/// The chances `[loss, draw, win]` for White and their derivatives in `a` and `b`.
struct Chances {
    p: [f64; 3],
    /// `∂p/∂a` and `∂p/∂b` for each outcome.
    grad: [[f64; 2]; 3],
}

/// The model's chances at White's score `v` with parameters `a`, `b`; `None` where they are
/// not a distribution (`a ≤ 0` leaves no room for draws, `b ≤ 0` is not a model).
fn chances(v: f64, a: f64, b: f64) -> Option<Chances> {
    if !(a > 0.0 && b > 0.0 && a.is_finite() && b.is_finite()) {
        return None;
    }
    let u = (v - a) / b;
    let t = (-v - a) / b;
    let win = logistic(u);
    let loss = logistic(t);
    // 1 − win − loss = σ(−u) − σ(t), computed without cancellation at large |v|.
    let draw = logistic_difference(-u, t);
    // σ'(x) = σ(x)·σ(−x), which keeps its precision where σ(x) is near 1.
    let dwin = win * logistic(-u);
    let dloss = loss * logistic(-t);
    let win_grad = [-dwin / b, -dwin * u / b];
    let loss_grad = [-dloss / b, -dloss * t / b];
    let draw_grad = [-win_grad[0] - loss_grad[0], -win_grad[1] - loss_grad[1]];
    Some(Chances {
        p: [loss, draw.max(0.0), win],
        grad: [loss_grad, draw_grad, win_grad],
    })
}

/// `σ(x) − σ(y)` for `x ≥ y`, accurate where both are near 0 or both near 1 (a draw's chance far
/// from an equal score).
fn logistic_difference(x: f64, y: f64) -> f64 {
    if y >= 0.0 {
        // Both near 1: (e^−y − e^−x) / ((1 + e^−x)(1 + e^−y)).
        let (ex, ey) = ((-x).exp(), (-y).exp());
        -ey * (y - x).exp_m1() / ((1.0 + ex) * (1.0 + ey))
    } else if x <= 0.0 {
        // Both near 0: σ(x) − σ(y) = σ(−y) − σ(−x).
        logistic_difference(-y, -x)
    } else {
        logistic(x) - logistic(y)
    }
}

fn cubic(c: &[f64], p: &[f64; 4]) -> f64 {
    c.iter().zip(p).map(|(c, p)| c * p).sum()
}

/// The log-likelihood of the cells under `theta` (`a` then `b` coefficients), with its gradient
/// and the Fisher information; `None` where the model is not valid on some cell.
fn evaluate(cells: &[Cell], theta: &[f64; 8]) -> Option<(f64, [f64; 8], [[f64; 8]; 8])> {
    let mut ll = 0.0;
    let mut grad = [0.0; 8];
    let mut fisher = [[0.0; 8]; 8];
    for cell in cells {
        let a = cubic(&theta[..4], &cell.powers);
        let b = cubic(&theta[4..], &cell.powers);
        let c = chances(cell.score, a, b)?;
        let total: f64 = cell.counts.iter().sum();
        let mut g2 = [0.0; 2];
        let mut f2 = [[0.0; 2]; 2];
        for ((&count, &p), dp) in cell.counts.iter().zip(&c.p).zip(&c.grad) {
            let p = p.max(1e-300);
            ll += count * p.ln();
            for (i, row) in f2.iter_mut().enumerate() {
                g2[i] += count / p * dp[i];
                for (f, dpj) in row.iter_mut().zip(dp) {
                    *f += total / p * dp[i] * dpj;
                }
            }
        }
        // Back from (a, b) to the eight coefficients: ∂a/∂θ is the powers of m for the first
        // four, ∂b/∂θ for the last four.
        let basis = |i: usize| (cell.powers[i % 4], i / 4);
        for (i, row) in fisher.iter_mut().enumerate() {
            let (pi, ki) = basis(i);
            grad[i] += g2[ki] * pi;
            for (j, f) in row.iter_mut().enumerate() {
                let (pj, kj) = basis(j);
                *f += f2[ki][kj] * pi * pj;
            }
        }
    }
    Some((ll, grad, fisher))
}

/// Solves `m · x = y` by Gaussian elimination with partial pivoting; `None` if `m` is singular.
fn solve(mut m: [[f64; 8]; 8], mut y: [f64; 8]) -> Option<[f64; 8]> {
    for col in 0..8 {
        let pivot = (col..8).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        y.swap(col, pivot);
        let (pivot_row, y_pivot) = (m[col], y[col]);
        for (row, y_row) in m.iter_mut().zip(y.iter_mut()).skip(col + 1) {
            let f = row[col] / pivot_row[col];
            for (x, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                *x -= f * p;
            }
            *y_row -= f * y_pivot;
        }
    }
    let mut x = [0.0; 8];
    for row in (0..8).rev() {
        let rest: f64 = (row + 1..8).map(|k| m[row][k] * x[k]).sum();
        x[row] = (y[row] - rest) / m[row][row];
    }
    Some(x)
}

/// Fits the model by maximum likelihood (Fisher scoring with step halving, from a constant
/// model). Errors when there are no positions or the fit cannot move from an invalid model.
pub fn fit(observations: &Observations) -> Result<Fit, String> {
    let cells = observations.fit_cells();
    if cells.is_empty() {
        return Err("no positions to fit".to_string());
    }
    // A constant model, valid at every material: an even chance at 2 pawns, 60 cp per e-fold.
    let mut theta = [0.0, 0.0, 0.0, 200.0, 0.0, 0.0, 0.0, 60.0];
    let valid = |theta: &[f64; 8]| {
        WinRateModel {
            a: theta[..4].try_into().expect("4"),
            b: theta[4..].try_into().expect("4"),
        }
        .is_valid()
    };
    let (mut ll, mut grad, mut fisher) =
        evaluate(&cells, &theta).ok_or("the starting model does not fit the data")?;
    let mut iterations = 0;
    while iterations < 500 {
        iterations += 1;
        // A little damping keeps the step defined where the information is nearly singular
        // (few positions at some material).
        let mut damped = fisher;
        for (i, row) in damped.iter_mut().enumerate() {
            row[i] *= 1.0 + 1e-9;
        }
        let Some(step) = solve(damped, grad) else {
            break;
        };
        let mut scale = 1.0;
        let mut improved = None;
        while scale > 1e-12 {
            let mut next = theta;
            for (t, s) in next.iter_mut().zip(&step) {
                *t += scale * s;
            }
            if valid(&next) {
                if let Some(result) = evaluate(&cells, &next) {
                    if result.0 >= ll {
                        improved = Some((next, result));
                        break;
                    }
                }
            }
            scale /= 2.0;
        }
        let Some((next, (next_ll, next_grad, next_fisher))) = improved else {
            break;
        };
        let gain = next_ll - ll;
        theta = next;
        (ll, grad, fisher) = (next_ll, next_grad, next_fisher);
        if gain <= 1e-10 * ll.abs().max(1.0) {
            break;
        }
    }
    Ok(Fit {
        model: WinRateModel {
            a: theta[..4].try_into().expect("4"),
            b: theta[4..].try_into().expect("4"),
        },
        mean_log_likelihood: ll / observations.positions() as f64,
        iterations,
    })
}

/// The model's chances `[loss, draw, win]` for White at a cell (for the comparison tables).
pub fn predicted(model: &WinRateModel, white_score: i32, material: u32) -> [f64; 3] {
    let v = f64::from(white_score);
    let win = model.win_probability(v, material);
    let loss = model.win_probability(-v, material);
    [loss, 1.0 - win - loss, win]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::splitmix64;

    fn uniform(rng: &mut u64) -> f64 {
        (splitmix64(rng) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Positions drawn from a known model: the fit must find it again.
    fn synthetic(model: &WinRateModel, positions: usize, seed: u64) -> Observations {
        let mut rng = seed;
        let mut observations = Observations::default();
        for _ in 0..positions {
            let material = 10 + (splitmix64(&mut rng) % 70) as u32;
            let score = (splitmix64(&mut rng) % 1601) as i32 - 800;
            let [loss, _, win] = predicted(model, score, material);
            let r = uniform(&mut rng);
            let result = if r < win {
                GameResult::WhiteWin
            } else if r < win + loss {
                GameResult::BlackWin
            } else {
                GameResult::Draw
            };
            observations.add(score, material, result);
        }
        observations
    }

    #[test]
    fn the_fit_recovers_a_known_model() {
        let truth = WinRateModel {
            a: [-120.0, 250.0, -60.0, 90.0],
            b: [30.0, -50.0, 40.0, 50.0],
        };
        assert!(truth.is_valid());
        let observations = synthetic(&truth, 400_000, 7);
        assert_eq!(observations.positions(), 400_000);
        let fit = fit(&observations).unwrap();
        assert!(fit.model.is_valid());
        for material in [MATERIAL_MIN, 30, 45, 58, 70, MATERIAL_MAX] {
            let (a, b) = truth.params(material);
            let (fa, fb) = fit.model.params(material);
            assert!((fa - a).abs() < 0.04 * a, "a({material}): {fa} vs {a}");
            assert!((fb - b).abs() < 0.06 * b, "b({material}): {fb} vs {b}");
        }
        // The fitted model is at least as likely as the truth (it maximises the likelihood).
        let cells = observations.fit_cells();
        let theta = |m: &WinRateModel| {
            let mut t = [0.0; 8];
            t[..4].copy_from_slice(&m.a);
            t[4..].copy_from_slice(&m.b);
            t
        };
        let truth_ll = evaluate(&cells, &theta(&truth)).unwrap().0;
        let fit_ll = evaluate(&cells, &theta(&fit.model)).unwrap().0;
        assert!(fit_ll >= truth_ll, "{fit_ll} < {truth_ll}");
    }

    #[test]
    fn a_fit_needs_positions() {
        assert!(fit(&Observations::default()).is_err());
    }

    #[test]
    fn chances_are_a_distribution_with_the_right_derivatives() {
        for (v, a, b) in [
            (0.0, 150.0, 60.0),
            (300.0, 120.0, 80.0),
            (-2500.0, 200.0, 50.0),
        ] {
            let c = chances(v, a, b).unwrap();
            assert!((c.p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            assert!(c.p.iter().all(|&p| p >= 0.0));
            let h = 1e-6;
            let ca = chances(v, a + h, b).unwrap();
            let cb = chances(v, a, b + h).unwrap();
            for k in 0..3 {
                assert!(((ca.p[k] - c.p[k]) / h - c.grad[k][0]).abs() < 1e-6);
                assert!(((cb.p[k] - c.p[k]) / h - c.grad[k][1]).abs() < 1e-6);
            }
        }
        // Far from an equal score the draw chance is tiny but still right, not 0 or negative.
        for v in [-3000.0, 3000.0] {
            let c = chances(v, 200.0, 60.0).unwrap();
            let expected =
                (-(v.abs() - 200.0) / 60.0f64).exp() - (-(v.abs() + 200.0) / 60.0f64).exp();
            assert!((c.p[1] / expected - 1.0).abs() < 1e-9, "{v}: {}", c.p[1]);
        }
        assert!(chances(0.0, -1.0, 60.0).is_none());
        assert!(chances(0.0, 100.0, 0.0).is_none());
    }

    #[test]
    fn record_material_matches_the_board_count() {
        let board = crate::board::Board::from_fen(
            "r1bqk2r/pp3ppp/2n1pn2/8/1b1P4/2N2N2/PP3PPP/R1BQKB1R w KQkq - 0 1",
        )
        .unwrap();
        let record = PackedPosition::pack(&board, 10, GameResult::Draw).unwrap();
        assert_eq!(record_material(&record), crate::wdl::material(&board));
        assert_eq!(record_material(&record), 74);
    }
}
