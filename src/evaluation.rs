//! The evaluation the search uses, chosen once per search: the network (`crate::nnue`, what
//! plays by default) or the hand-crafted evaluation (`crate::hce`, `Use NNUE false`). Known
//! draws (e.g. two knights against a bare king) score exactly 0 either way.

use std::sync::Arc;

use crate::board::Board;
use crate::nnue::Network;

/// Whether the network evaluates unless `Use NNUE` says otherwise.
pub const USE_NETWORK_BY_DEFAULT: bool = true;

/// One evaluation: what every search thread evaluates with.
#[derive(Clone)]
pub enum Evaluation {
    /// The hand-crafted evaluation.
    HandCrafted,
    /// A network (shared by the threads, not copied).
    Network(Arc<Network>),
}

impl std::fmt::Debug for Evaluation {
    /// The network by its checksum, not its weights.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Evaluation::HandCrafted => write!(f, "HandCrafted"),
            Evaluation::Network(net) => write!(f, "Network({:016x})", net.checksum),
        }
    }
}

impl Default for Evaluation {
    /// What plays unless told otherwise: the network built into the binary.
    fn default() -> Evaluation {
        Evaluation::choose(USE_NETWORK_BY_DEFAULT, &Network::default_network())
    }
}

impl Evaluation {
    /// `network` if `use_network` (`Use NNUE`), else the hand-crafted evaluation.
    pub fn choose(use_network: bool, network: &Arc<Network>) -> Evaluation {
        if use_network {
            Evaluation::Network(Arc::clone(network))
        } else {
            Evaluation::HandCrafted
        }
    }

    /// The network, if it is one.
    pub fn network(&self) -> Option<&Arc<Network>> {
        match self {
            Evaluation::Network(net) => Some(net),
            Evaluation::HandCrafted => None,
        }
    }

    /// Whether two values evaluate alike (the same network, or both hand-crafted).
    pub fn same_as(&self, other: &Evaluation) -> bool {
        match (self, other) {
            (Evaluation::Network(a), Evaluation::Network(b)) => Arc::ptr_eq(a, b),
            (Evaluation::HandCrafted, Evaluation::HandCrafted) => true,
            _ => false,
        }
    }

    /// The score of `board` for the side to move, from scratch (no accumulators: the search
    /// keeps its own, see `search::alphabeta`).
    pub fn evaluate(&self, board: &Board) -> i32 {
        match self {
            Evaluation::HandCrafted => crate::hce::evaluate(board),
            Evaluation::Network(net) => {
                crate::hce::scale_known_draw(board, crate::nnue::evaluate_board(net, board))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_value_chooses_the_evaluation() {
        let net = Network::default_network();
        let board =
            Board::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap();
        let hce = Evaluation::choose(false, &net);
        let nnue = Evaluation::choose(true, &net);
        assert!(hce.network().is_none() && nnue.same_as(&Evaluation::default()));
        assert!(!hce.same_as(&nnue));
        assert_eq!(hce.evaluate(&board), crate::hce::evaluate(&board));
        assert_eq!(
            nnue.evaluate(&board),
            crate::nnue::evaluate_board(&net, &board)
        );
        // A known draw is exactly 0 whichever evaluates.
        let draw = Board::from_fen("8/8/4k3/8/8/2NN4/4K3/8 w - - 0 1").unwrap();
        assert_eq!((hce.evaluate(&draw), nnue.evaluate(&draw)), (0, 0));
    }
}
