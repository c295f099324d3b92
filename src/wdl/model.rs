//! The win-rate model: the chance that the side with search score `v` (internal centipawns)
//! wins, as a function of `v` and the material on the board, in the form Stockfish has used
//! since 2022:
//!
//! `P(win | v, m) = 1 / (1 + exp((a(m) − v) / b(m)))`, and `P(loss | v, m) = P(win | −v, m)`,
//!
//! where `m` is the material count (pawn 1, knight and bishop 3, rook 5, queen 9; both sides,
//! kings not counted) clamped to 17..=78 and divided by 58, and `a`, `b` are cubics in `m`.
//! `a(m)` is the score at which a win is as likely as not at that material: the reported
//! `score cp` is `100 · v / a(m)`, so `cp 100` means a 50% chance to win whatever the material.
//! `b(m)` is how quickly the chance grows with the score.

use crate::board::Board;
use crate::types::PieceType;

/// Material counts below this (bare endgames) share its model; the start position has 78.
pub const MATERIAL_MIN: u32 = 17;
/// The start position's material, the most a game normally has.
pub const MATERIAL_MAX: u32 = 78;
/// The material the polynomials are scaled by (`m = material / 58`): Stockfish's reference, about
/// the material at move 32 of its games.
pub const MATERIAL_REFERENCE: f64 = 58.0;

/// A fitted model: the cubics `a(m)` and `b(m)`, highest power first (`a[0]·m³ + a[1]·m² +
/// a[2]·m + a[3]`, as Stockfish writes them).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WinRateModel {
    pub a: [f64; 4],
    pub b: [f64; 4],
}

/// Win, draw and loss chances in per mille for the side the score belongs to; they sum to 1000.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

impl Wdl {
    pub const WON: Wdl = Wdl {
        win: 1000,
        draw: 0,
        loss: 0,
    };
    pub const DRAWN: Wdl = Wdl {
        win: 0,
        draw: 1000,
        loss: 0,
    };
    pub const LOST: Wdl = Wdl {
        win: 0,
        draw: 0,
        loss: 1000,
    };
}

/// Material value of each piece type by `PieceType::index` (pawn 1, knight and bishop 3, rook 5,
/// queen 9; the king 0).
pub const MATERIAL_BY_INDEX: [u32; 6] = [1, 3, 3, 5, 9, 0];

/// The model's material count of a position: P + 3N + 3B + 5R + 9Q over both sides, unclamped.
pub fn material(board: &Board) -> u32 {
    MATERIAL_BY_INDEX
        .iter()
        .enumerate()
        .map(|(index, value)| value * board.pieces(PieceType::from_index(index)).count())
        .sum()
}

/// `m` of the model for a material count: clamped to [`MATERIAL_MIN`]..=[`MATERIAL_MAX`] and
/// scaled by [`MATERIAL_REFERENCE`].
pub fn material_x(material: u32) -> f64 {
    f64::from(material.clamp(MATERIAL_MIN, MATERIAL_MAX)) / MATERIAL_REFERENCE
}

fn cubic(c: &[f64; 4], x: f64) -> f64 {
    ((c[0] * x + c[1]) * x + c[2]) * x + c[3]
}

/// The logistic function, 1 / (1 + e^−x).
pub fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl WinRateModel {
    /// `a(m)` and `b(m)` at a material count.
    pub fn params(&self, material: u32) -> (f64, f64) {
        let x = material_x(material);
        (cubic(&self.a, x), cubic(&self.b, x))
    }

    /// The chance (0..1) that the side with internal score `v` wins.
    pub fn win_probability(&self, v: f64, material: u32) -> f64 {
        let (a, b) = self.params(material);
        logistic((v - a) / b)
    }

    /// Win/draw/loss per mille for the side with internal score `v` (not a mate or tablebase
    /// score: those are certain, see the UCI reporter). Sums to exactly 1000.
    pub fn wdl(&self, v: i32, material: u32) -> Wdl {
        let v = f64::from(v);
        let win = (1000.0 * self.win_probability(v, material)).round() as u32;
        let loss = (1000.0 * self.win_probability(-v, material)).round() as u32;
        // With a(m) > 0 the two never add up to more than 1000 but for rounding.
        let loss = loss.min(1000 - win.min(1000));
        let win = win.min(1000);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }

    /// The internal score `v` on the reported scale: `100 · v / a(m)`, rounded, so that 100
    /// means an even chance to win at this material.
    pub fn normalise(&self, v: i32, material: u32) -> i32 {
        let (a, _) = self.params(material);
        (100.0 * f64::from(v) / a).round() as i32
    }

    /// Whether the model makes sense at every material: `a(m) > 0` (so that win and loss
    /// chances leave room for draws and `normalise` keeps the sign) and `b(m) > 0` (chances grow
    /// with the score).
    pub fn is_valid(&self) -> bool {
        (MATERIAL_MIN..=MATERIAL_MAX).all(|m| {
            let (a, b) = self.params(m);
            a.is_finite() && b.is_finite() && a > 0.0 && b > 0.0
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model with made-up but plausible numbers: a(m) from about 100 to 200, b(m) about 60.
    fn model() -> WinRateModel {
        WinRateModel {
            a: [-30.0, 80.0, 20.0, 60.0],
            b: [10.0, -20.0, 30.0, 40.0],
        }
    }

    #[test]
    fn material_counts_both_sides_without_kings() {
        assert_eq!(material(&Board::startpos()), MATERIAL_MAX);
        let pawn_up = "rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(material(&Board::from_fen(pawn_up).unwrap()), 77);
        let kpk = "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1";
        assert_eq!(material(&Board::from_fen(kpk).unwrap()), 1);
        assert_eq!(material_x(1), material_x(MATERIAL_MIN));
        assert_eq!(material_x(99), material_x(MATERIAL_MAX));
        assert!((material_x(58) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn normalised_100_is_an_even_chance_to_win() {
        let m = model();
        assert!(m.is_valid());
        for material in [MATERIAL_MIN, 30, 58, MATERIAL_MAX] {
            let (a, _) = m.params(material);
            // The score that reads 100 is a(m), and there the win chance is one half.
            assert_eq!(m.normalise(a.round() as i32, material), 100);
            assert!((m.win_probability(a, material) - 0.5).abs() < 1e-12);
            // Proportional, odd, and 0 stays 0.
            assert_eq!(m.normalise(0, material), 0);
            let v = (2.0 * a).round() as i32;
            assert_eq!(m.normalise(-v, material), -m.normalise(v, material));
            assert!((m.normalise(v, material) - 200).abs() <= 1);
        }
    }

    #[test]
    fn wdl_sums_to_1000_is_symmetric_and_monotone() {
        let m = model();
        for material in [0, MATERIAL_MIN, 40, MATERIAL_MAX, 100] {
            let mut last = m.wdl(-20_000, material);
            assert_eq!(last, Wdl::LOST);
            for v in (-20_000..=20_000).step_by(7) {
                let wdl = m.wdl(v, material);
                assert_eq!(wdl.win + wdl.draw + wdl.loss, 1000, "{v} {material}");
                assert!(wdl.win >= last.win && wdl.loss <= last.loss, "{v}");
                let mirrored = m.wdl(-v, material);
                assert_eq!((mirrored.win, mirrored.loss), (wdl.loss, wdl.win), "{v}");
                last = wdl;
            }
            assert_eq!(last, Wdl::WON);
            // Draws are likeliest at an equal score.
            let even = m.wdl(0, material);
            assert!(even.draw >= m.wdl(50, material).draw);
        }
    }

    #[test]
    fn an_invalid_model_is_recognised() {
        let mut m = model();
        m.a = [0.0, 0.0, 0.0, -1.0];
        assert!(!m.is_valid());
        let mut m = model();
        m.b = [0.0, 0.0, 1.0, -1.0];
        assert!(!m.is_valid());
    }
}
