//! What the GUI is told about a score: the search's internal centipawns normalised by the
//! win-rate model (`cp 100` = an even chance to win at the root's material), and `wdl` from the
//! same model. Mates and tablebase wins are certain: their `score` is printed as the search
//! gives it and their `wdl` is all win or all loss. The search itself, its hash table and
//! datagen's labels never see this scale.

use crate::board::Board;
use crate::evaluation::Evaluation;
use crate::search::params::{MAX_PLY, TB_WIN_BOUND};
use crate::search::{Score, SearchInfo, TB_CENTIPAWNS};
use crate::wdl::{material, Wdl, WinRateModel};

/// The largest normalised score: below every tablebase win (`TB_CENTIPAWNS - n`), so that no
/// ordinary score reads as one.
pub const MAX_NORMALISED_CP: i32 = TB_CENTIPAWNS - MAX_PLY as i32 - 1;

/// The scale of one search's reports: the model and the root's material.
#[derive(Copy, Clone, Debug)]
pub struct ScoreScale {
    model: WinRateModel,
    material: u32,
    /// The root has no legal move and is not in check: stalemate, a certain draw.
    stalemate: bool,
    /// Whether scores are normalised: only the network the model was fitted for is on its scale;
    /// another network or the hand-crafted evaluation reports its own centipawns.
    normalised: bool,
}

impl ScoreScale {
    /// The scale for searches from `root` with `evaluation`: the built-in network's model,
    /// normalising only that network's scores.
    pub fn new(root: &Board, evaluation: &Evaluation) -> ScoreScale {
        let fitted = evaluation
            .network()
            .is_some_and(|net| net.checksum == crate::wdl::NETWORK_CHECKSUM);
        let mut scale = ScoreScale::with_model(root, crate::wdl::MODEL);
        scale.normalised = fitted;
        scale
    }

    pub fn with_model(root: &Board, model: WinRateModel) -> ScoreScale {
        ScoreScale {
            model,
            material: material(root),
            stalemate: !root.in_check() && root.legal_moves().is_empty(),
            normalised: true,
        }
    }

    /// Whether an internal score is a mate or a tablebase result (certain, not modelled; mates
    /// lie beyond the tablebase bound).
    fn is_decided(value: i32) -> bool {
        value.abs() > TB_WIN_BOUND
    }

    /// The `score` to print: normalised centipawns, or the search's mate or tablebase score.
    pub fn score(&self, info: &SearchInfo) -> Score {
        match info.score {
            Score::Centipawns(_) if !Self::is_decided(info.value) => {
                Score::Centipawns(self.normalise(info.value))
            }
            score => score,
        }
    }

    /// The `wdl` to print, for the side to move.
    pub fn wdl(&self, info: &SearchInfo) -> Wdl {
        match info.score {
            Score::Mate(moves) if moves > 0 => Wdl::WON,
            Score::Mate(_) => Wdl::LOST,
            _ if self.stalemate || info.tablebase_draw => Wdl::DRAWN,
            _ if Self::is_decided(info.value) => {
                if info.value > 0 {
                    Wdl::WON
                } else {
                    Wdl::LOST
                }
            }
            _ => self.model.wdl(info.value, self.material),
        }
    }

    /// An internal evaluation (not a search result) on the reported scale, for `eval`.
    pub fn normalise(&self, value: i32) -> i32 {
        if !self.normalised {
            return value;
        }
        self.model
            .normalise(value, self.material)
            .clamp(-MAX_NORMALISED_CP, MAX_NORMALISED_CP)
    }

    /// The model's `wdl` for an internal evaluation, for `eval`.
    pub fn model_wdl(&self, value: i32) -> Wdl {
        self.model.wdl(value, self.material)
    }

    /// The root's material count, as the model counts it.
    pub fn material(&self) -> u32 {
        self.material
    }
}

/// `eval`'s last line: the final evaluation (internal centipawns, side to move) on the scale
/// `score cp` reports, with the model's `wdl` and what 100 cp is worth at this material.
pub fn describe_eval(board: &Board, value: i32, evaluation: &Evaluation) -> String {
    let scale = ScoreScale::new(board, evaluation);
    let normalised = scale.normalise(value);
    let white = normalised * board.side_to_move().sign();
    let Wdl { win, draw, loss } = scale.model_wdl(value);
    let (pawn, _) = scale.model.params(scale.material);
    let material = scale.material;
    format!(
        "Normalised evaluation: {normalised} cp (side to move), {white} cp (White), wdl {win} \
         {draw} {loss} (side to move); 100 cp (even chance to win) = {pawn:.0} internal cp at \
         material {material}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_shows_the_normalised_score_and_wdl() {
        let board =
            Board::from_fen("rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let line = describe_eval(&board, -24, &Evaluation::default());
        let cp = crate::wdl::MODEL.normalise(-24, 77);
        let Wdl { win, draw, loss } = crate::wdl::MODEL.wdl(-24, 77);
        assert!(
            line.starts_with(&format!(
                "Normalised evaluation: {cp} cp (side to move), {} cp (White), wdl {win} {draw} {loss} ",
                -cp
            )),
            "{line}"
        );
        assert!(line.ends_with("at material 77"), "{line}");
    }
    use crate::search::params::{MATE, TB_WIN};
    use crate::search::{to_uci_score, Bound};

    fn info(value: i32) -> SearchInfo {
        SearchInfo {
            depth: 10,
            seldepth: 12,
            multipv: 1,
            score: to_uci_score(value),
            bound: Bound::Exact,
            value,
            tablebase_draw: false,
            nodes: 1,
            time_ms: 1,
            hashfull: 0,
            tbhits: None,
            pv: Vec::new(),
        }
    }

    #[test]
    fn only_the_fitted_network_is_normalised_and_never_past_a_tablebase_win() {
        let board = Board::startpos();
        let hce = ScoreScale::new(&board, &Evaluation::HandCrafted);
        assert_eq!(hce.score(&info(150)), Score::Centipawns(150));
        assert_eq!(hce.normalise(-37), -37);
        let net = ScoreScale::new(&board, &Evaluation::default());
        assert_ne!(net.score(&info(150)), Score::Centipawns(150));
        // The largest ordinary score (the evaluation's clamp) stays below every tablebase win.
        let top = TB_WIN_BOUND;
        assert_eq!(net.score(&info(top)), Score::Centipawns(MAX_NORMALISED_CP));
        assert_eq!(
            net.score(&info(-top)),
            Score::Centipawns(-MAX_NORMALISED_CP)
        );
        assert!(MAX_NORMALISED_CP < TB_CENTIPAWNS - MAX_PLY as i32);
    }

    #[test]
    fn a_tablebase_draw_is_a_certain_draw() {
        let scale = ScoreScale::new(&Board::startpos(), &Evaluation::default());
        let mut i = info(2); // a cursed win
        assert_ne!(scale.wdl(&i), Wdl::DRAWN);
        i.tablebase_draw = true;
        assert_eq!(scale.wdl(&i), Wdl::DRAWN);
    }

    #[test]
    fn centipawns_are_normalised_by_the_model() {
        let board = Board::startpos();
        let scale = ScoreScale::new(&board, &Evaluation::default());
        let (a, _) = crate::wdl::MODEL.params(78);
        assert_eq!(scale.material(), 78);
        for value in [-500, -37, 0, 1, 78, 250] {
            let expected = (100.0 * f64::from(value) / a).round() as i32;
            assert_eq!(scale.score(&info(value)), Score::Centipawns(expected));
            let wdl = scale.wdl(&info(value));
            assert_eq!(wdl, crate::wdl::MODEL.wdl(value, 78));
            assert_eq!(wdl.win + wdl.draw + wdl.loss, 1000);
        }
    }

    #[test]
    fn mates_and_tablebase_scores_are_unchanged_and_certain() {
        let scale = ScoreScale::new(&Board::startpos(), &Evaluation::default());
        for (value, wdl) in [
            (MATE - 5, Wdl::WON),
            (-(MATE - 4), Wdl::LOST),
            (TB_WIN - 3, Wdl::WON),
            (-(TB_WIN - 1), Wdl::LOST),
        ] {
            let i = info(value);
            assert_eq!(scale.score(&i), i.score, "{value}");
            assert_eq!(scale.wdl(&i), wdl, "{value}");
        }
        assert_eq!(scale.score(&info(MATE - 5)), Score::Mate(3));
        assert_eq!(scale.score(&info(TB_WIN - 3)), Score::Centipawns(19_997));
        // Mated at the root, and stalemate: certain.
        let mated = Board::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        let mut i = info(-MATE);
        i.score = Score::Mate(0);
        assert_eq!(
            ScoreScale::new(&mated, &Evaluation::default()).wdl(&i),
            Wdl::LOST
        );
        let stalemate = Board::from_fen("7k/5Q2/8/6K1/8/8/8/8 b - - 0 1").unwrap();
        assert!(stalemate.legal_moves().is_empty() && !stalemate.in_check());
        let i = info(0);
        assert_eq!(
            ScoreScale::new(&stalemate, &Evaluation::default()).wdl(&i),
            Wdl::DRAWN
        );
        assert_eq!(
            ScoreScale::new(&stalemate, &Evaluation::default()).score(&i),
            Score::Centipawns(0)
        );
    }
}
