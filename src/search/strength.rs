//! `UCI_LimitStrength` / `UCI_Elo`: a weaker engine for human opponents, made by capping the
//! nodes searched per move. Every move is still a real search (it sees what a shallow search
//! sees: no random blunders of a piece), and the cap makes the level the same at any time
//! control (the clock can only make it weaker).
//!
//! The model: strength grows by about [`ELO_PER_DOUBLING`] per doubling of the nodes, and
//! [`FULL_NODES`] a move plays at [`FULL_ELO`] (about what a 10+0.1 s game gives this engine
//! on one core, measured against Stockfish 15.1's `UCI_Elo` scale: 43.5% against `UCI_Elo
//! 2400`, 100 games). The constants are a first estimate, to be calibrated by matches against
//! Stockfish at the same `UCI_Elo` (issue 12).

/// The lowest `UCI_Elo` (Stockfish's lowest too).
pub const MIN_ELO: i64 = 1320;
/// The highest `UCI_Elo`: about full strength at 10+0.1 s.
pub const MAX_ELO: i64 = 2300;
/// The `UCI_Elo` default.
pub const DEFAULT_ELO: i64 = 1500;

const FULL_ELO: f64 = 2350.0;
const FULL_NODES: f64 = 500_000.0;
const ELO_PER_DOUBLING: f64 = 100.0;
/// Below this a search is too shallow to see even simple recaptures.
const MIN_NODES: u64 = 200;

/// The nodes a move may search at `elo` (clamped to [`MIN_ELO`], [`MAX_ELO`]).
pub fn node_cap(elo: i64) -> u64 {
    let elo = elo.clamp(MIN_ELO, MAX_ELO) as f64;
    let nodes = FULL_NODES * ((elo - FULL_ELO) / ELO_PER_DOUBLING).exp2();
    (nodes as u64).max(MIN_NODES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_elo_means_more_nodes() {
        let mut last = 0;
        for elo in (MIN_ELO..=MAX_ELO).step_by(20) {
            let nodes = node_cap(elo);
            assert!(nodes > last, "{elo}: {nodes}");
            last = nodes;
        }
        assert!(node_cap(MIN_ELO) >= MIN_NODES);
        assert_eq!(node_cap(0), node_cap(MIN_ELO));
        assert_eq!(node_cap(i64::MAX), node_cap(MAX_ELO));
        // A hundred Elo is a doubling.
        let ratio = node_cap(2000) as f64 / node_cap(1900) as f64;
        assert!((1.99..2.01).contains(&ratio), "{ratio}");
    }
}
