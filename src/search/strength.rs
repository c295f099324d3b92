//! `UCI_LimitStrength` / `UCI_Elo`: a weaker engine for human opponents, made by capping the
//! nodes searched per move. Every move is still a real search (it sees what a shallow search
//! sees: no random blunders of a piece; the first iteration always completes, so every root move
//! is looked at), and the cap makes the level the same at any time control (the clock can only
//! make it weaker).
//!
//! Calibrated against Stockfish 15.1 at the same `UCI_Elo` (scripts/match, 5+0.05 s, Hash 16,
//! noob_3moves both colours): escaque's score at a node cap against Stockfish at a label, read as
//! an Elo difference, puts that cap on Stockfish's scale:
//!
//! | nodes a move | Stockfish `UCI_Elo` | games | result | cap's Elo | model | residual |
//! |---|---|---|---|---|---|---|
//! | 300 | 1500 | 60 | +17 ± 86 | 1517 | 1537 | -20 |
//! | 691 | 1400 | 80 | +228 ± 98 | 1628 | 1630 | -2 |
//! | 7,734 | 2000 | 60 | -154 ± 95 | 1846 | 1900 | -54 |
//! | 11,054 | 1800 | 80 | +255 ± 92 | 2055 | 1940 | +115 |
//! | 176,777 | 2200 | 80 | +30 ± 67 | 2230 | 2250 | -20 |
//!
//! The model is the weighted least-squares line through them: Elo grows by
//! [`ELO_PER_DOUBLING`] per doubling of the nodes, from [`ELO_AT_ONE_NODE`]. Every residual is
//! within its 95% error.

/// The lowest `UCI_Elo` (Stockfish 16's lowest; 15.1's is 1350).
pub const MIN_ELO: i64 = 1320;
/// The highest `UCI_Elo`: about the engine's full strength at 10+0.1 s on one core.
pub const MAX_ELO: i64 = 2300;
/// The `UCI_Elo` default.
pub const DEFAULT_ELO: i64 = 1500;

/// The fitted line: Elo on Stockfish 15.1's scale = `ELO_AT_ONE_NODE + ELO_PER_DOUBLING *
/// log2(nodes)`.
const ELO_AT_ONE_NODE: f64 = 899.2;
const ELO_PER_DOUBLING: f64 = 77.5;
/// The smallest cap (the first iteration completes regardless).
const MIN_NODES: u64 = 32;

/// The nodes a move may search at `elo` (clamped to [`MIN_ELO`], [`MAX_ELO`]).
pub fn node_cap(elo: i64) -> u64 {
    let elo = elo.clamp(MIN_ELO, MAX_ELO) as f64;
    let nodes = ((elo - ELO_AT_ONE_NODE) / ELO_PER_DOUBLING).exp2();
    (nodes as u64).max(MIN_NODES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_elo_means_more_nodes_on_the_fitted_line() {
        let mut last = 0;
        for elo in (MIN_ELO..=MAX_ELO).step_by(10) {
            let nodes = node_cap(elo);
            assert!(nodes >= last, "{elo}: {nodes}");
            last = nodes;
        }
        assert!(node_cap(MIN_ELO) >= MIN_NODES);
        assert_eq!(node_cap(0), node_cap(MIN_ELO));
        assert_eq!(node_cap(i64::MAX), node_cap(MAX_ELO));
        // The measured caps sit within their errors of the line: 300 nodes played 1517,
        // 176,777 played 2230.
        let elo_of = |nodes: f64| ELO_AT_ONE_NODE + ELO_PER_DOUBLING * nodes.log2();
        assert!((elo_of(300.0) - 1517.0).abs() < 86.0);
        assert!((elo_of(176_777.0) - 2230.0).abs() < 67.0);
        // A doubling of the nodes is ELO_PER_DOUBLING.
        let ratio = node_cap(1900 + ELO_PER_DOUBLING as i64) as f64 / node_cap(1900) as f64;
        assert!((1.95..2.05).contains(&ratio), "{ratio}");
    }
}
