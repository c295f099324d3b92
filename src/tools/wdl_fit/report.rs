//! How well a fitted model agrees with the data it was fitted to: observed and predicted
//! win/draw/loss rates per score bucket and per material band, the CSV that
//! `scripts/plot-wdl` draws, and the Rust source of the committed parameters.

use std::fmt::Write as _;

use super::fit::{predicted, Fit, Observations};
use crate::wdl::model::{WinRateModel, MATERIAL_MAX, MATERIAL_MIN};

/// Positions in a group, what happened to them and what the model expected, summed.
#[derive(Default, Clone, Copy)]
struct Group {
    positions: u64,
    /// `[losses, draws, wins]` for White.
    observed: [u64; 3],
    /// Sum over the positions of the model's `[loss, draw, win]` chances.
    expected: [f64; 3],
    score_sum: f64,
}

impl Group {
    fn add(&mut self, model: &WinRateModel, score: i32, material: u32, counts: [u64; 3]) {
        let n: u64 = counts.iter().sum();
        let p = predicted(model, score, material);
        self.positions += n;
        for k in 0..3 {
            self.observed[k] += counts[k];
            self.expected[k] += p[k] * n as f64;
        }
        self.score_sum += f64::from(score) * n as f64;
    }
    /// Observed and expected rates, `[loss, draw, win]`.
    fn rates(&self) -> ([f64; 3], [f64; 3]) {
        let n = self.positions.max(1) as f64;
        (
            self.observed.map(|c| c as f64 / n),
            self.expected.map(|e| e / n),
        )
    }
}

/// Bucket edges of White's score for the table (each bucket is `[edge, next edge)`).
const SCORE_EDGES: [i32; 18] = [
    -1000, -600, -400, -300, -200, -150, -100, -50, -20, 20, 50, 100, 150, 200, 300, 400, 600, 1000,
];

/// Material bands (inclusive upper ends; the first starts at the model's clamp).
const MATERIAL_BANDS: [u32; 5] = [30, 44, 58, 72, MATERIAL_MAX];

fn score_bucket(score: i32) -> usize {
    SCORE_EDGES.iter().take_while(|&&e| score >= e).count()
}

fn score_bucket_name(i: usize) -> String {
    match i {
        0 => format!("< {}", SCORE_EDGES[0]),
        i if i == SCORE_EDGES.len() => format!(">= {}", SCORE_EDGES[i - 1]),
        i => format!("{}..{}", SCORE_EDGES[i - 1], SCORE_EDGES[i]),
    }
}

fn material_band(material: u32) -> usize {
    MATERIAL_BANDS
        .iter()
        .position(|&top| material <= top)
        .unwrap_or(MATERIAL_BANDS.len() - 1)
}

fn material_band_range(i: usize) -> (u32, u32) {
    let low = if i == 0 {
        MATERIAL_MIN
    } else {
        MATERIAL_BANDS[i - 1] + 1
    };
    (low, MATERIAL_BANDS[i])
}

fn percent(x: [f64; 3]) -> String {
    format!(
        "{:5.1} {:5.1} {:5.1}",
        100.0 * x[2],
        100.0 * x[1],
        100.0 * x[0]
    )
}

/// The fit's parameters, `a(m)` and `b(m)` at some materials, and the comparison tables.
pub fn summary(fit: &Fit, observations: &Observations) -> String {
    let model = &fit.model;
    let mut text = String::new();
    let [l, d, w] = observations.results();
    let n = observations.positions().max(1) as f64;
    let _ = writeln!(
        text,
        "{} positions; results for White: win {:.1}%, draw {:.1}%, loss {:.1}%",
        observations.positions(),
        100.0 * w as f64 / n,
        100.0 * d as f64 / n,
        100.0 * l as f64 / n
    );
    let _ = writeln!(
        text,
        "fitted in {} iterations; mean log-likelihood {:.4} per position",
        fit.iterations, fit.mean_log_likelihood
    );
    let _ = writeln!(text, "a = {:?}", model.a.map(round4));
    let _ = writeln!(text, "b = {:?}", model.b.map(round4));
    let _ = writeln!(
        text,
        "\nmaterial   a(m)   b(m)   (a(m): the internal score that reads `cp 100`)"
    );
    for material in [MATERIAL_MIN, 24, 30, 40, 50, 58, 64, 70, MATERIAL_MAX] {
        let (a, b) = model.params(material);
        let _ = writeln!(text, "{material:>8} {a:6.1} {b:6.1}");
    }

    let mut by_score = [Group::default(); SCORE_EDGES.len() + 1];
    let mut by_band = [Group::default(); MATERIAL_BANDS.len()];
    let mut cells: Vec<Group> = vec![Group::default(); by_score.len() * by_band.len()];
    for (score, material, counts) in observations.cells() {
        let (s, m) = (score_bucket(score), material_band(material));
        by_score[s].add(model, score, material, counts);
        by_band[m].add(model, score, material, counts);
        cells[m * by_score.len() + s].add(model, score, material, counts);
    }
    let _ = writeln!(
        text,
        "\nWhite's score   positions   observed W D L %      model W D L %"
    );
    for (i, group) in by_score.iter().enumerate() {
        if group.positions == 0 {
            continue;
        }
        let (observed, expected) = group.rates();
        let _ = writeln!(
            text,
            "{:>13} {:>11}   {}   {}",
            score_bucket_name(i),
            group.positions,
            percent(observed),
            percent(expected)
        );
    }
    let _ = writeln!(
        text,
        "\nmaterial   positions   observed W D L %      model W D L %   worst |W error| in a score bucket"
    );
    for (band, group) in by_band.iter().enumerate() {
        if group.positions == 0 {
            continue;
        }
        let (observed, expected) = group.rates();
        let worst = (0..by_score.len())
            .map(|s| cells[band * by_score.len() + s])
            .filter(|c| c.positions >= 1000)
            .map(|c| {
                let (o, e) = c.rates();
                (o[2] - e[2]).abs()
            })
            .fold(0.0, f64::max);
        let (low, high) = material_band_range(band);
        let _ = writeln!(
            text,
            "{:>8} {:>11}   {}   {}   {:.1} points",
            format!("{low}-{high}"),
            group.positions,
            percent(observed),
            percent(expected),
            100.0 * worst
        );
    }
    // One number for the whole fit: the position-weighted mean gap between the observed and
    // predicted win and draw rates over the (material band, score bucket) cells.
    let (mut gap_win, mut gap_draw, mut weight) = (0.0, 0.0, 0.0);
    for cell in cells.iter().filter(|c| c.positions > 0) {
        let (o, e) = cell.rates();
        let w = cell.positions as f64;
        gap_win += w * (o[2] - e[2]).abs();
        gap_draw += w * (o[1] - e[1]).abs();
        weight += w;
    }
    let _ = writeln!(
        text,
        "\nmean |observed - model| over material band x score bucket cells: win {:.2} points, \
         draw {:.2} points",
        100.0 * gap_win / weight.max(1.0),
        100.0 * gap_draw / weight.max(1.0)
    );
    text
}

fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// Score bins of the CSV: 50 cp wide from −1000 to 1000.
const CSV_BIN: i32 = 50;
const CSV_RANGE: i32 = 1000;

/// The data behind the plot: per material band and 50 cp bin of White's score, the positions,
/// their mean score, and the observed and predicted rates; the parameters as `#` lines first.
pub fn csv(fit: &Fit, observations: &Observations) -> String {
    let model = &fit.model;
    let bins = (2 * CSV_RANGE / CSV_BIN) as usize;
    let mut groups = vec![Group::default(); bins * MATERIAL_BANDS.len()];
    for (score, material, counts) in observations.cells() {
        if !(-CSV_RANGE..CSV_RANGE).contains(&score) {
            continue;
        }
        let bin = ((score + CSV_RANGE) / CSV_BIN) as usize;
        groups[material_band(material) * bins + bin].add(model, score, material, counts);
    }
    let mut text = String::new();
    let _ = writeln!(text, "# escaque data wdl-fit: win-rate model");
    let _ = writeln!(text, "# a = {}", join(&model.a));
    let _ = writeln!(text, "# b = {}", join(&model.b));
    let _ = writeln!(
        text,
        "material_low,material_high,score_low,score_high,positions,mean_score,\
         win,draw,loss,model_win,model_draw,model_loss"
    );
    for (i, group) in groups.iter().enumerate() {
        if group.positions == 0 {
            continue;
        }
        let (band, bin) = (i / bins, (i % bins) as i32);
        let (low, high) = material_band_range(band);
        let (o, e) = group.rates();
        let _ = writeln!(
            text,
            "{low},{high},{},{},{},{:.1},{:.5},{:.5},{:.5},{:.5},{:.5},{:.5}",
            bin * CSV_BIN - CSV_RANGE,
            (bin + 1) * CSV_BIN - CSV_RANGE,
            group.positions,
            group.score_sum / group.positions as f64,
            o[2],
            o[1],
            o[0],
            e[2],
            e[1],
            e[0]
        );
    }
    text
}

fn join(values: &[f64; 4]) -> String {
    values
        .iter()
        .map(|v| format!("{v:.6}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// `src/wdl/fitted.rs`: the model, the network it belongs to and where it came from.
pub fn rust_source(fit: &Fit, network_checksum: u64, fitted_on: &str) -> String {
    let coefficients = |c: &[f64; 4]| {
        c.iter()
            .map(|v| format!("{v:.6}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "//! The win-rate model of the built-in network, written by `escaque data wdl-fit --rust`.\n\
         //! A new network needs a new fit: a test checks that the built-in network's checksum is\n\
         //! [`NETWORK_CHECKSUM`].\n\
         \n\
         use super::model::WinRateModel;\n\
         \n\
         /// The checksum of the network the model was fitted for (as `eval` prints it).\n\
         pub const NETWORK_CHECKSUM: u64 = 0x{network_checksum:016x};\n\
         \n\
         /// The data it was fitted on.\n\
         pub const FITTED_ON: &str = \"{}\";\n\
         \n\
         /// `a(m)` and `b(m)`, highest power first (see [`WinRateModel`]).\n\
         pub const MODEL: WinRateModel = WinRateModel {{\n    \
             a: [{}],\n    \
             b: [{}],\n\
         }};\n",
        fitted_on.replace('\\', "\\\\").replace('"', "\\\""),
        coefficients(&fit.model.a),
        coefficients(&fit.model.b),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_cover_every_score_and_material() {
        assert_eq!(score_bucket(-5000), 0);
        assert_eq!(score_bucket(0), 9);
        assert_eq!(score_bucket_name(9), "-20..20");
        assert_eq!(score_bucket(5000), SCORE_EDGES.len());
        assert_eq!(material_band(MATERIAL_MIN), 0);
        assert_eq!(material_band(58), 2);
        assert_eq!(material_band(MATERIAL_MAX), 4);
        assert_eq!(material_band_range(4), (73, 78));
    }
}
