//! `UCI_LimitStrength` / `UCI_Elo`: a weaker engine for human opponents, made by capping the
//! nodes searched per move. Every move is still a real search (it sees what a shallow search
//! sees: no random blunders of a piece; the first iteration always completes, so every root move
//! is looked at), and the cap makes the level the same at any time control long enough for it
//! (the clock can only make it weaker).
//!
//! Calibrated against Stockfish 15.1 at the same `UCI_Elo` (Hash 16, noob_3moves both colours):
//! escaque's score at a node cap against Stockfish at a label, read as an Elo difference, puts
//! that cap on Stockfish's scale. The first five rows were played at 5+0.05 s (scripts/match),
//! the last two at 10+0.1 s (fastchess, 2 games at a time); the last is the setting 2500 at
//! 10+0.1, where the clock binds before the cap: it searched a median of 310,818 nodes a move.
//!
//! | nodes a move | Stockfish `UCI_Elo` | games | result | cap's Elo | model | residual |
//! |---|---|---|---|---|---|---|
//! | 300 | 1500 | 60 | +17 ± 86 | 1517 | 1530 | -13 |
//! | 691 | 1400 | 80 | +228 ± 98 | 1628 | 1627 | +1 |
//! | 7,734 | 2000 | 60 | -154 ± 95 | 1846 | 1908 | -62 |
//! | 11,054 | 1800 | 80 | +255 ± 92 | 2055 | 1950 | +105 |
//! | 176,777 | 2200 | 80 | +30 ± 67 | 2230 | 2272 | -42 |
//! | 250,000 | 2400 | 60 | -76 ± 79 | 2324 | 2313 | +11 |
//! | 310,818 (median) | 2500 | 60 | -140 ± 77 | 2360 | 2338 | +22 |
//!
//! The model is the weighted least-squares line through them: Elo grows by
//! [`ELO_PER_DOUBLING`] per doubling of the nodes, from [`ELO_AT_ONE_NODE`]. Every residual but
//! one (11,054 nodes, +105 ± 92) is within its 95% error. The scale ends at [`MAX_ELO`] = 2500, a
//! cap of about 1.25M nodes (0.6 s a move on one core): it binds at 40+0.4 s and longer. At
//! shorter time controls the clock binds first and the settings from about 2350 up all play
//! the engine's full strength for that clock (at 10+0.1 s, one core: 2360 ± 77 with two games
//! at a time, 2530 ± 74 against `UCI_Elo 2600` with one).

/// The lowest `UCI_Elo` (Stockfish 16's lowest; 15.1's is 1350).
pub const MIN_ELO: i64 = 1320;
/// The highest `UCI_Elo`, the end of the measured line (see above); `UCI_LimitStrength false`
/// plays at full strength, which grows with the time control and the threads.
pub const MAX_ELO: i64 = 2500;
/// The `UCI_Elo` default.
pub const DEFAULT_ELO: i64 = 1500;

/// The fitted line: Elo on Stockfish 15.1's scale = `ELO_AT_ONE_NODE + ELO_PER_DOUBLING *
/// log2(nodes)`.
const ELO_AT_ONE_NODE: f64 = 865.5;
const ELO_PER_DOUBLING: f64 = 80.7;
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
        // 176,777 played 2230, 250,000 played 2324.
        let elo_of = |nodes: f64| ELO_AT_ONE_NODE + ELO_PER_DOUBLING * nodes.log2();
        assert!((elo_of(300.0) - 1517.0).abs() < 86.0);
        assert!((elo_of(176_777.0) - 2230.0).abs() < 67.0);
        assert!((elo_of(250_000.0) - 2324.0).abs() < 79.0);
        // The top of the scale is a real but long search: about 1.25M nodes.
        assert!(
            (1_100_000..1_400_000).contains(&node_cap(MAX_ELO)),
            "{}",
            node_cap(MAX_ELO)
        );
        // A doubling of the nodes is ELO_PER_DOUBLING.
        let ratio = node_cap(1900 + ELO_PER_DOUBLING.round() as i64) as f64 / node_cap(1900) as f64;
        assert!((1.95..2.05).contains(&ratio), "{ratio}");
    }
}
