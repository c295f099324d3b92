//! Everything the engine writes to the GUI goes through one [`Output`]: a lock around the sink, one
//! complete line per write, flushed at once, so lines from the search thread never interleave with
//! `readyok`. [`UciReporter`] formats the search's progress as `info` lines and its answer as
//! `bestmove`.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

use super::score::ScoreScale;
use super::Input;
use crate::board::{is_repetition_draw, Board};
use crate::search::{Bound, Reporter, Score, SearchInfo};
use crate::types::Move;

/// The locked, line-flushed output.
pub struct Output {
    sink: Mutex<Box<dyn Write + Send>>,
    /// Exit the process if the sink is closed (stdout to a GUI that went away), instead of
    /// panicking or spinning.
    exit_on_error: bool,
    /// Commands given on the command line: errors go to stderr (`error: …`), not to the GUI.
    errors_to_stderr: bool,
    /// Whether an error was reported (the command line then stops with a failure status).
    failed: AtomicBool,
}

impl Output {
    /// Standard output; a closed pipe ends the process.
    pub fn stdout() -> Arc<Output> {
        Arc::new(Output {
            sink: Mutex::new(Box::new(std::io::stdout())),
            exit_on_error: true,
            errors_to_stderr: false,
            failed: AtomicBool::new(false),
        })
    }

    /// Standard output for commands given as arguments: errors go to stderr.
    pub fn command_line() -> Arc<Output> {
        Arc::new(Output {
            sink: Mutex::new(Box::new(std::io::stdout())),
            exit_on_error: true,
            errors_to_stderr: true,
            failed: AtomicBool::new(false),
        })
    }

    /// Any sink (tests capture output this way); write errors are ignored.
    pub fn new(sink: Box<dyn Write + Send>) -> Arc<Output> {
        Arc::new(Output {
            sink: Mutex::new(sink),
            exit_on_error: false,
            errors_to_stderr: false,
            failed: AtomicBool::new(false),
        })
    }

    /// Writes `text` (one line, or several separated by `\n`) and flushes. Empty lines are
    /// dropped unless `keep_empty` (only `go perft` uses blank lines, as Stockfish does).
    fn write_lines(&self, text: &str, keep_empty: bool) {
        let mut buf = String::with_capacity(text.len() + 1);
        for line in text.lines() {
            let line = line.trim_end();
            if line.is_empty() && !keep_empty {
                continue;
            }
            buf.push_str(line);
            buf.push('\n');
        }
        if buf.is_empty() {
            return;
        }
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let result = sink.write_all(buf.as_bytes()).and_then(|()| sink.flush());
        if result.is_err() && self.exit_on_error {
            std::process::exit(0);
        }
    }

    /// One line (or several, `\n`-separated); empty lines are never printed.
    pub fn line(&self, text: &str) {
        self.write_lines(text, false);
    }

    /// Like [`Output::line`] but keeps blank lines (for the `go perft` format).
    pub fn raw(&self, text: &str) {
        self.write_lines(text, true);
    }

    /// `info string <text>` with any line breaks turned into spaces.
    pub fn info_string(&self, text: &str) {
        let flat: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        self.line(&format!("info string {}", flat.trim()));
    }

    /// `info string error: <text>` (on the command line: `error: <text>` on stderr).
    pub fn error(&self, text: &str) {
        self.failed.store(true, Ordering::Release);
        if self.errors_to_stderr {
            eprintln!("error: {text}");
        } else {
            self.info_string(&format!("error: {text}"));
        }
    }

    /// Whether an error has been reported.
    pub fn failed(&self) -> bool {
        self.failed.load(Ordering::Acquire)
    }
}

/// A `Write` adaptor over [`Output`] for code that writes free text (`bench`): complete lines
/// are printed as they arrive.
pub struct OutputWriter<'a> {
    out: &'a Output,
    pending: Vec<u8>,
}

impl<'a> OutputWriter<'a> {
    pub fn new(out: &'a Output) -> OutputWriter<'a> {
        OutputWriter {
            out,
            pending: Vec::new(),
        }
    }
}

impl Write for OutputWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if let Some(last) = self.pending.iter().rposition(|&b| b == b'\n') {
            let complete: Vec<u8> = self.pending.drain(..=last).collect();
            self.out.line(&String::from_utf8_lossy(&complete));
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for OutputWriter<'_> {
    fn drop(&mut self) {
        if !self.pending.is_empty() {
            self.out.line(&String::from_utf8_lossy(&self.pending));
        }
    }
}

/// What the reporter of one search needs to know besides the search's own output.
pub struct UciReporter {
    out: Arc<Output>,
    /// The root position, for writing moves (castling notation depends on it).
    root: Board,
    chess960: bool,
    show_wdl: bool,
    /// How scores are reported (normalised by the win-rate model at the root's material).
    scale: ScoreScale,
    /// The root moves the search may choose from (all legal moves, or `searchmoves`).
    root_moves: Vec<Move>,
    /// Whether `bestmove` was printed (the search must call `best_move` exactly once).
    done: AtomicBool,
    /// Told when `bestmove` is out (the controller's input channel).
    on_done: Option<Sender<Input>>,
    /// Keys of the game's positions before the root, oldest first (PVs stop at a repetition).
    history: Vec<u64>,
}

impl UciReporter {
    pub fn new(
        out: Arc<Output>,
        root: Board,
        chess960: bool,
        show_wdl: bool,
        root_moves: Vec<Move>,
    ) -> UciReporter {
        UciReporter {
            out,
            scale: ScoreScale::with_model(&root, crate::wdl::MODEL),
            root,
            chess960,
            show_wdl,
            root_moves,
            done: AtomicBool::new(false),
            on_done: None,
            history: Vec::new(),
        }
    }

    /// Scores as `evaluation` is reported: normalised for the network the model was fitted
    /// for, its own centipawns otherwise (the default is the built-in network).
    pub fn with_evaluation(mut self, evaluation: &crate::evaluation::Evaluation) -> UciReporter {
        self.scale = ScoreScale::new(&self.root, evaluation);
        self
    }

    /// The game's positions before the root (keys, oldest first), for repetitions in PVs.
    pub fn with_history(mut self, history: Vec<u64>) -> UciReporter {
        self.history = history;
        self
    }

    /// Posts [`Input::SearchDone`] to `events` once `bestmove` is out.
    pub fn notify_done(mut self, events: Sender<Input>) -> UciReporter {
        self.on_done = Some(events);
        self
    }

    /// Whether `bestmove` has been printed.
    pub fn is_done(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }

    /// The `info …` line for `info` (the PV is cut at the first move that is not legal).
    pub fn format_info(&self, info: &SearchInfo) -> String {
        let mut line = format!("info depth {}", info.depth.max(0));
        if info.depth > 0 {
            line.push_str(&format!(" seldepth {}", info.seldepth.max(info.depth)));
        }
        line.push_str(&format!(" multipv {}", info.multipv.max(1)));
        match self.scale.score(info) {
            Score::Centipawns(cp) => line.push_str(&format!(" score cp {cp}")),
            Score::Mate(m) => line.push_str(&format!(" score mate {m}")),
        }
        match info.bound {
            Bound::Exact => {}
            Bound::Lower => line.push_str(" lowerbound"),
            Bound::Upper => line.push_str(" upperbound"),
        }
        if self.show_wdl {
            let wdl = self.scale.wdl(info);
            line.push_str(&format!(" wdl {} {} {}", wdl.win, wdl.draw, wdl.loss));
        }
        if info.depth > 0 || info.nodes > 0 {
            let nps = info.nodes.saturating_mul(1000) / info.time_ms.max(1);
            line.push_str(&format!(
                " nodes {} nps {nps} hashfull {}",
                info.nodes,
                info.hashfull.min(1000),
            ));
            if let Some(tbhits) = info.tbhits {
                line.push_str(&format!(" tbhits {tbhits}"));
            }
            line.push_str(&format!(" time {}", info.time_ms));
        }
        let pv = self.pv_text(&info.pv);
        if !pv.is_empty() {
            line.push_str(" pv ");
            line.push_str(&pv);
        }
        line
    }

    /// The PV as text: cut at the first move that is not legal, and after a move that ends
    /// the game by rule (fifty moves, a dead position, a repetition: once within the PV, as the
    /// search scores it, or a third time with the game's positions), since nothing after it is
    /// played (a mate or stalemate ends it by having no legal move after it).
    fn pv_text(&self, pv: &[Move]) -> String {
        let mut board = self.root;
        let mut keys = self.history.clone();
        let root_index = keys.len();
        let mut words = Vec::with_capacity(pv.len());
        for &mv in pv {
            if !board.is_legal(mv) {
                break;
            }
            words.push(board.move_to_uci(mv, self.chess960));
            keys.push(board.hash());
            board = board.make_move(mv);
            if board.is_fifty_move_or_dead_draw()
                || is_repetition_draw(board.hash(), board.halfmove_clock(), &keys, root_index)
            {
                break;
            }
        }
        words.join(" ")
    }

    /// The `bestmove …` line. A missing or illegal best move falls back to the first root move,
    /// so `(none)` appears only when there is no legal move; `ponder` is kept only when legal.
    pub fn format_best_move(&self, best: Option<Move>, ponder: Option<Move>) -> String {
        let best = best
            .filter(|&m| self.root.is_legal(m) && self.root_moves.contains(&m))
            .or_else(|| self.root_moves.first().copied());
        let Some(best) = best else {
            return "bestmove (none)".to_string();
        };
        let mut line = format!("bestmove {}", self.root.move_to_uci(best, self.chess960));
        let after = self.root.make_move(best);
        if let Some(p) = ponder.filter(|&p| after.is_legal(p)) {
            line.push_str(&format!(" ponder {}", after.move_to_uci(p, self.chess960)));
        }
        line
    }
}

impl Reporter for UciReporter {
    fn info(&self, info: &SearchInfo) {
        if self.is_done() {
            return;
        }
        self.out.line(&self.format_info(info));
    }

    fn message(&self, text: &str) {
        if !self.is_done() {
            self.out.info_string(text);
        }
    }

    fn best_move(&self, best: Option<Move>, ponder: Option<Move>) {
        if self.done.swap(true, Ordering::AcqRel) {
            return; // never two bestmoves for one go
        }
        self.out.line(&self.format_best_move(best, ponder));
        if let Some(events) = &self.on_done {
            let _ = events.send(Input::SearchDone);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::test_support::Captured;

    fn reporter(fen: &str, chess960: bool, wdl: bool) -> (UciReporter, Captured) {
        let cap = Captured::default();
        let board = Board::from_fen(fen).unwrap();
        let moves = board.legal_moves().to_vec();
        (
            UciReporter::new(
                Output::new(Box::new(cap.clone())),
                board,
                chess960,
                wdl,
                moves,
            ),
            cap,
        )
    }

    fn info(score: Score, bound: Bound, pv: Vec<Move>) -> SearchInfo {
        let value = match score {
            Score::Centipawns(cp) => cp,
            Score::Mate(m) if m > 0 => crate::search::params::MATE - (2 * m - 1),
            Score::Mate(m) => -crate::search::params::MATE - 2 * m,
        };
        SearchInfo {
            depth: 5,
            seldepth: 7,
            multipv: 1,
            score,
            bound,
            value,
            tablebase_draw: false,
            nodes: 12345,
            time_ms: 10,
            hashfull: 3,
            tbhits: None,
            pv,
        }
    }

    #[test]
    fn output_drops_empty_lines_and_trailing_spaces() {
        let cap = Captured::default();
        let out = Output::new(Box::new(cap.clone()));
        out.line("readyok  \r\n\n");
        out.info_string("a\nb");
        out.raw("x\n\ny\n");
        assert_eq!(cap.text(), "readyok\ninfo string a b\nx\n\ny\n");
    }

    #[test]
    fn info_line_layout() {
        let (r, _) = reporter(crate::board::START_FEN, false, false);
        let b = Board::startpos();
        let e4 = b.parse_uci_move("e2e4", false).unwrap();
        let e5 = b.make_move(e4).parse_uci_move("e7e5", false).unwrap();
        let line = r.format_info(&info(Score::Centipawns(31), Bound::Exact, vec![e4, e5]));
        // The search's 31 internal centipawns, normalised at the start position's material.
        let cp = crate::wdl::MODEL.normalise(31, 78);
        assert_eq!(
            line,
            format!("info depth 5 seldepth 7 multipv 1 score cp {cp} nodes 12345 nps 1234500 hashfull 3 time 10 pv e2e4 e7e5")
        );
        // An illegal PV move ends the PV.
        let line = r.format_info(&info(Score::Mate(-3), Bound::Lower, vec![e4, e4]));
        assert!(
            line.contains(" score mate -3 lowerbound ") && line.ends_with(" pv e2e4"),
            "{line}"
        );
        let line = r.format_info(&info(Score::Centipawns(0), Bound::Upper, vec![]));
        assert!(
            line.contains(" upperbound ") && !line.contains(" pv"),
            "{line}"
        );
    }

    #[test]
    fn wdl_only_when_enabled() {
        let (r, _) = reporter(crate::board::START_FEN, false, true);
        let line = r.format_info(&info(Score::Centipawns(0), Bound::Exact, vec![]));
        let wdl = crate::wdl::MODEL.wdl(0, 78);
        let expected = format!(" score cp 0 wdl {} {} {} ", wdl.win, wdl.draw, wdl.loss);
        assert!(line.contains(&expected), "{line}");
        let line = r.format_info(&info(Score::Mate(2), Bound::Exact, vec![]));
        assert!(line.contains(" score mate 2 wdl 1000 0 0 "), "{line}");
        let (r, _) = reporter(crate::board::START_FEN, false, false);
        let line = r.format_info(&info(Score::Centipawns(0), Bound::Exact, vec![]));
        assert!(!line.contains(" wdl "), "{line}");
    }

    /// A PV ends where the game would end by rule: at a repetition (once within the PV, or
    /// the third time with the game's positions) and at the fiftieth move.
    #[test]
    fn pvs_stop_at_a_draw_by_rule() {
        let fen = "6k1/8/8/8/8/8/8/R5K1 w - - 0 1";
        let board = Board::from_fen(fen).unwrap();
        let uci = |b: &Board, m: &str| b.parse_uci_move(m, false).unwrap();
        let mut pv = Vec::new();
        let mut b = board;
        for m in ["g1h1", "g8h8", "h1g1", "h8g8", "a1a2", "g8f8"] {
            let mv = uci(&b, m);
            pv.push(mv);
            b = b.make_move(mv);
        }
        let (r, _) = reporter(fen, false, false);
        let line = r.format_info(&info(Score::Centipawns(0), Bound::Exact, pv.clone()));
        assert!(line.ends_with(" pv g1h1 g8h8 h1g1 h8g8"), "{line}");
        // Fifty moves: the move that makes the hundredth quiet ply ends the PV.
        let fen = "6k1/8/8/8/8/8/8/R5K1 w - - 99 80";
        let (r, _) = reporter(fen, false, false);
        let line = r.format_info(&info(Score::Centipawns(0), Bound::Exact, pv.clone()));
        assert!(line.ends_with(" pv g1h1"), "{line}");
        // Positions from the game before the root count as the game's: seen once before, a
        // position reached by the PV is only a second occurrence; seen twice, a third.
        let fen = "6k1/8/8/8/8/8/8/R5K1 w - - 10 40";
        let root = Board::from_fen(fen).unwrap();
        let a1a2 = uci(&root, "a1a2");
        let after = root.make_move(a1a2);
        let pv = vec![a1a2, uci(&after, "g8f8")];
        let (r, _) = reporter(fen, false, false);
        let r = r.with_history(vec![after.hash()]);
        let line = r.format_info(&info(Score::Centipawns(0), Bound::Exact, pv.clone()));
        assert!(line.ends_with(" pv a1a2 g8f8"), "{line}");
        let (r, _) = reporter(fen, false, false);
        let r = r.with_history(vec![after.hash(), 0x1234, after.hash()]);
        let line = r.format_info(&info(Score::Centipawns(0), Bound::Exact, pv));
        assert!(line.ends_with(" pv a1a2"), "{line}");
    }

    #[test]
    fn bestmove_fallbacks() {
        let (r, cap) = reporter(crate::board::START_FEN, false, false);
        let b = Board::startpos();
        let e4 = b.parse_uci_move("e2e4", false).unwrap();
        let e5 = b.make_move(e4).parse_uci_move("e7e5", false).unwrap();
        assert_eq!(
            r.format_best_move(Some(e4), Some(e5)),
            "bestmove e2e4 ponder e7e5"
        );
        assert_eq!(r.format_best_move(Some(e4), Some(e4)), "bestmove e2e4");
        assert!(r.format_best_move(None, None).starts_with("bestmove "));
        assert_ne!(r.format_best_move(None, None), "bestmove (none)");
        r.best_move(Some(e4), None);
        r.best_move(Some(e4), None);
        assert_eq!(cap.text(), "bestmove e2e4\n");
    }

    #[test]
    fn no_legal_moves() {
        // The search reports the score of a position without moves (`info depth 0 score mate
        // 0` or `cp 0`); the reporter's part is `bestmove (none)`.
        let (r, cap) = reporter("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", false, false);
        r.best_move(Some(Move::NULL), None);
        assert_eq!(cap.text(), "bestmove (none)\n");
    }

    #[test]
    fn castling_notation_follows_the_option() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let b = Board::from_fen(fen).unwrap();
        let oo = b.parse_uci_move("e1h1", true).unwrap();
        let (r, _) = reporter(fen, false, false);
        assert_eq!(r.format_best_move(Some(oo), None), "bestmove e1g1");
        let (r, _) = reporter(fen, true, false);
        assert_eq!(r.format_best_move(Some(oo), None), "bestmove e1h1");
    }
}

/// An in-memory stand-in for stdout, shared by the UCI modules' unit tests and the integration
/// tests that drive the controller in-process.
pub mod test_support {
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    pub struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Captured {
        /// Everything written so far.
        pub fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
        /// Everything written since the last call, which clears it.
        pub fn take(&self) -> String {
            String::from_utf8(std::mem::take(&mut *self.0.lock().unwrap())).unwrap()
        }
    }
}
