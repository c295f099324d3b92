//! The UCI front end. A reader thread turns stdin into lines (raw bytes, lossy UTF-8, EOF becomes
//! `quit`) and sends them over a channel; the main thread parses each line into a
//! [`Command`] and runs it synchronously on the [`Uci`] controller. `go` hands the search to the
//! [`Engine`] and returns at once, and `go perft` and `bench` run on a thread of their own, so
//! `isready`, `stop` and `quit` are always handled within milliseconds; the search thread prints
//! `bestmove` through a [`UciReporter`]. Once `bestmove` (or a perft or bench result) is out, the
//! engine is idle: the next command never finds it busy.
//!
//! Commands that change the engine (`setoption Hash|Threads|Clear Hash`, `ucinewgame`) arriving
//! while a search runs are recorded at once and applied when the search has ended, so the
//! controller never blocks on a search that only `stop` can end (UCI-CHECKLIST item 26).
//! Malformed input of any kind gets one `info string error: …` line and changes nothing.

pub mod command;
pub mod options;
pub mod output;
pub mod score;

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub use command::{Command, Go, ParseError, StartPosition};
pub use options::{OptionValue, Options, OPTIONS};
pub use output::{Output, OutputWriter, UciReporter};

use crate::board::{Board, Game};
use crate::evaluation::Evaluation;
use crate::event::{Event, StopFlag};
use crate::search::{Engine, SearchRequest};
use crate::types::Move;

/// One event from the stdin reader.
#[derive(Debug)]
pub enum Input {
    /// A line and the moment it was read (the clock of a `go` starts then).
    Line(String, Instant),
    /// Stdin was closed (or failed): acts as `quit`.
    Eof,
    /// A search has given its `bestmove`: engine work deferred until then can be done now.
    SearchDone,
}

/// Starts the stdin reader thread. It blocks in `read_until`, so an idle engine uses no CPU.
/// Returns the input channel; its sender is for the controller's own events (`SearchDone`).
pub fn spawn_stdin_reader() -> (Sender<Input>, Receiver<Input>) {
    let (tx, rx) = mpsc::channel();
    let events = tx.clone();
    let spawned = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut reader = stdin.lock();
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(Input::Line(line, Instant::now())).is_err() {
                            return;
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            let _ = tx.send(Input::Eof);
        });
    if spawned.is_err() {
        // Without a reader there is no input: behave as if stdin were closed.
        let _ = events.send(Input::Eof);
    }
    (events, rx)
}

/// Whether the loop goes on after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Engine work postponed until the running search has ended.
#[derive(Clone, Copy, Debug)]
enum Deferred {
    /// A changed option's effect (see `options`), run with the option values current then.
    Option(options::EngineEffect),
    NewGame,
}

/// A `go perft` or `bench` running on its own thread.
struct Job {
    /// Set by `stop` (and `quit`, and a `go`): the job ends early, saying so.
    stop: Arc<StopFlag>,
    /// Set just before the job prints its result: from then on it counts as finished.
    done: Arc<Event>,
    handle: JoinHandle<()>,
}

impl Job {
    fn running(&self) -> bool {
        !self.done.is_set() && !self.handle.is_finished()
    }
}

/// A `Write` over [`Output`] that prints each line when the next one is complete: the last line
/// stays in `held`, so a job can mark itself done before its result line goes out.
struct LineBehindWriter<'a> {
    out: &'a Output,
    pending: Vec<u8>,
    held: Option<String>,
}

impl<'a> LineBehindWriter<'a> {
    fn new(out: &'a Output) -> LineBehindWriter<'a> {
        LineBehindWriter {
            out,
            pending: Vec::new(),
            held: None,
        }
    }
}

impl std::io::Write for LineBehindWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let line = String::from_utf8_lossy(&line).into_owned();
            if let Some(previous) = self.held.replace(line) {
                self.out.line(&previous);
            }
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The UCI controller: owns the engine, the current game and the option values.
pub struct Uci {
    out: Arc<Output>,
    engine: Engine,
    /// The running (or last) `go perft` or `bench`.
    job: Option<Job>,
    game: Game,
    options: Options,
    deferred: Vec<Deferred>,
    /// Whether the last `go` was `infinite` or `ponder` (it will not end by itself).
    last_go_holds: bool,
    /// Where a search says it is done (into the input channel of [`Uci::run`]), so deferred
    /// engine work is done as soon as it can be, without polling.
    events: Option<Sender<Input>>,
    /// Whether `uci` lists the search's tunables too (`escaque --show-tunables`: match runners
    /// such as fastchess send only the options the engine declared).
    show_tunables: bool,
}

/// How long `quit` waits for the search thread before the process exits anyway.
const QUIT_GRACE: Duration = Duration::from_secs(2);

impl Uci {
    pub fn new(out: Arc<Output>) -> Uci {
        Uci {
            out,
            engine: Engine::new(),
            job: None,
            game: Game::new(Board::startpos()),
            options: Options::new(),
            deferred: Vec::new(),
            last_go_holds: false,
            events: None,
            show_tunables: false,
        }
    }

    /// Makes `uci` list the search's tunables as spin options after the options proper.
    pub fn show_tunables(&mut self) {
        self.show_tunables = true;
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        self.game.board()
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Runs commands from `input` until `quit` or EOF, then stops the search. `events` is a
    /// sender of the same channel: searches post [`Input::SearchDone`] through it.
    pub fn run(&mut self, events: Sender<Input>, input: &Receiver<Input>) {
        self.events = Some(events);
        loop {
            match input.recv() {
                Ok(Input::Line(line, at)) => {
                    if self.execute(&line, at) == Flow::Quit {
                        break;
                    }
                }
                Ok(Input::SearchDone) => self.settle(),
                Ok(Input::Eof) | Err(_) => break,
            }
        }
        self.shutdown();
    }

    /// Runs command-line arguments as commands (`escaque bench`, `escaque "go perft 3"`): each
    /// argument that contains a space is a command of its own, otherwise all are joined into one.
    /// A finite search is waited for; an infinite or ponder search is stopped. Stops at the
    /// first command that reports an error (give this controller [`Output::command_line`] to
    /// have errors on stderr); whether every command succeeded.
    pub fn run_args(&mut self, args: &[String]) -> bool {
        let commands: Vec<String> = if args.iter().any(|a| a.contains(char::is_whitespace)) {
            args.to_vec()
        } else {
            vec![args.join(" ")]
        };
        for command in &commands {
            let flow = self.execute(command, Instant::now());
            if flow == Flow::Quit || self.out.failed() {
                self.shutdown();
                return !self.out.failed();
            }
        }
        if self.last_go_holds {
            self.engine.stop();
        }
        self.wait();
        self.settle();
        !self.out.failed()
    }

    /// Waits until the running search (which must be one that ends by itself), perft or bench
    /// has finished.
    pub fn wait(&mut self) {
        self.engine.wait();
        self.finish_job();
    }

    /// Stops any search, perft or bench and waits (at most two seconds) for their answers.
    pub fn shutdown(&mut self) {
        self.engine.stop();
        if let Some(job) = &self.job {
            job.stop.stop();
        }
        let deadline = Instant::now() + QUIT_GRACE;
        if self.engine.wait_answered_until(deadline) {
            self.engine.wait();
        }
        if let Some(job) = &self.job {
            if job.done.wait_until(deadline) || job.handle.is_finished() {
                self.finish_job();
            }
        }
    }

    /// Joins the job thread (it has finished, or is about to once it has printed its result).
    fn finish_job(&mut self) {
        if let Some(job) = self.job.take() {
            let _ = job.handle.join();
        }
    }

    /// Stops a running `go perft` or `bench` and waits for it (it stops within milliseconds).
    fn stop_job(&mut self) {
        if let Some(job) = &self.job {
            job.stop.stop();
        }
        self.finish_job();
    }

    /// Runs `work` on a thread of its own as the current job; `work` gets the stop flag and
    /// must set `done` just before it prints its result. If no thread can be had, it runs here.
    fn start_job(
        &mut self,
        name: &str,
        work: impl FnOnce(&Arc<StopFlag>, &Event) + Send + 'static,
    ) {
        let stop = Arc::new(StopFlag::default());
        let done = Arc::new(Event::default());
        let work = Arc::new(std::sync::Mutex::new(Some(work)));
        let run = {
            let (stop, done, work) = (Arc::clone(&stop), Arc::clone(&done), Arc::clone(&work));
            move || {
                let work = work.lock().unwrap_or_else(|e| e.into_inner()).take();
                if let Some(work) = work {
                    work(&stop, &done);
                }
            }
        };
        match std::thread::Builder::new().name(name.into()).spawn(run) {
            Ok(handle) => {
                self.job = Some(Job { stop, done, handle });
            }
            Err(e) => {
                self.out.info_string(&format!(
                    "cannot start a thread for {name} ({e}); running it here, stop cannot end it"
                ));
                let work = work.lock().unwrap_or_else(|e| e.into_inner()).take();
                if let Some(work) = work {
                    work(&stop, &done);
                }
            }
        }
    }

    /// Applies deferred engine work once no search is running.
    fn settle(&mut self) {
        if self.deferred.is_empty() || self.engine.is_searching() {
            return;
        }
        self.engine.wait();
        for work in std::mem::take(&mut self.deferred) {
            self.apply_to_engine(&work);
        }
    }

    fn apply_to_engine(&mut self, work: &Deferred) {
        match work {
            Deferred::Option(effect) => match effect(&mut self.engine, &self.options) {
                Ok(lines) => lines.iter().for_each(|l| self.out.info_string(l)),
                Err(e) => self.out.error(&e),
            },
            Deferred::NewGame => self.engine.new_game(),
        }
    }

    /// Engine work: now if idle, otherwise after the search.
    fn engine_work(&mut self, work: Deferred) {
        self.settle();
        if self.engine.is_searching() {
            self.deferred.push(work);
        } else {
            self.apply_to_engine(&work);
        }
    }

    /// Parses and runs one input line. `received` is when it was read (the clock of a `go`).
    pub fn execute(&mut self, line: &str, received: Instant) -> Flow {
        match command::parse(line) {
            Ok(cmd) => self.run_command(cmd, received),
            Err(e) => {
                self.out.error(&e.to_string());
                Flow::Continue
            }
        }
    }

    fn run_command(&mut self, cmd: Command, received: Instant) -> Flow {
        if !matches!(
            cmd,
            Command::IsReady | Command::Stop | Command::PonderHit | Command::Quit
        ) {
            self.settle();
        }
        match cmd {
            Command::Uci => self.uci(),
            // The engine has no debug output: `debug on|off` is accepted and changes nothing.
            Command::Debug(_) => {}
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Register | Command::Nothing => {}
            Command::UciNewGame => self.engine_work(Deferred::NewGame),
            Command::Position { start, moves } => self.position(&start, &moves),
            Command::Go(go) => self.go(go, received),
            Command::Stop => {
                self.engine.stop();
                if let Some(job) = &self.job {
                    job.stop.stop();
                }
            }
            Command::PonderHit => self.engine.ponderhit(),
            Command::Quit => return Flow::Quit,
            Command::Display => self.display(),
            Command::Perft(depth) => self.perft(depth),
            Command::Eval => self.eval(),
            Command::Bench(depth) => self.bench(depth),
            Command::Help => self.help(),
        }
        Flow::Continue
    }

    fn uci(&self) {
        let mut text = format!(
            "id name escaque {}\nid author the escaque developers\n",
            env!("CARGO_PKG_VERSION")
        );
        for option in OPTIONS {
            text.push_str(&format!("{option}\n"));
        }
        if self.show_tunables {
            for tunable in crate::search::params::TUNABLES {
                text.push_str(&format!("{}\n", options::tunable_option_line(tunable)));
            }
        }
        text.push_str("uciok");
        self.out.line(&text);
    }

    /// `setoption`: the value is checked (a file is read) and recorded now, so a bad one is
    /// refused at once and changes nothing; its effect on the engine waits for a running search
    /// to end.
    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let (spec, value) = match options::parse_change(name, value) {
            Ok(parsed) => parsed,
            Err(options::OptionError::Unknown(_)) => return self.set_tunable(name, value),
            Err(e) => return self.out.error(&e.to_string()),
        };
        match spec.set(&mut self.options, value) {
            Ok(lines) => lines.iter().for_each(|l| self.out.info_string(l)),
            Err(e) => return self.out.error(&e),
        }
        if let Some(effect) = spec.engine {
            self.engine_work(Deferred::Option(effect));
        }
    }

    /// `setoption` of one of the search's hidden tunables: set at once, for every search from
    /// the next read on (they are process-wide, and only tuning sets them).
    fn set_tunable(&mut self, name: &str, value: Option<&str>) {
        match options::parse_tunable_change(name, value) {
            Ok((tunable, n)) => tunable.set(n),
            Err(e) => self.out.error(&e.to_string()),
        }
    }

    /// `position`: the whole command is checked before anything changes; a bad FEN or move
    /// leaves the previous position in place.
    fn position(&mut self, start: &StartPosition, moves: &[String]) {
        let board = match start {
            StartPosition::Startpos => Board::startpos(),
            StartPosition::Fen(fen) => match Board::from_fen(fen) {
                Ok(board) => board,
                Err(e) => {
                    self.out.error(&format!(
                        "invalid FEN '{}': {e}; position unchanged",
                        command::excerpt(fen)
                    ));
                    return;
                }
            },
        };
        let mut game = Game::new(board);
        for (i, text) in moves.iter().enumerate() {
            match game
                .board()
                .parse_uci_move(&text.to_ascii_lowercase(), self.options.chess960)
            {
                Ok(mv) => game.play(mv),
                Err(e) => {
                    self.out.error(&format!(
                        "position: {} (move {} of the list, in {}); position unchanged",
                        match e {
                            crate::board::MoveParseError::Syntax(_) =>
                                format!("cannot parse move '{}'", command::excerpt(text)),
                            crate::board::MoveParseError::Illegal(_) =>
                                format!("illegal move '{}'", command::excerpt(text)),
                        },
                        i + 1,
                        game.board().to_fen()
                    ));
                    return;
                }
            }
        }
        self.game = game;
    }

    fn go(&mut self, go: Go, received: Instant) {
        let board = *self.game.board();
        let mut searchmoves: Vec<Move> = Vec::new();
        for text in go.searchmoves.iter().filter(|t| t.as_str() != "0000") {
            match board.parse_uci_move(&text.to_ascii_lowercase(), self.options.chess960) {
                Ok(mv) if !searchmoves.contains(&mv) => searchmoves.push(mv),
                Ok(_) => {}
                Err(e) => {
                    self.out
                        .error(&format!("go searchmoves: {e}; no search started"));
                    return;
                }
            }
        }
        // A new search stops a running one (and a running perft or bench), here, once: the
        // engine work deferred until it ended is done before the new search starts.
        self.engine.stop_and_wait();
        self.stop_job();
        self.settle();
        let mut limits = go.limits;
        if self.options.limit_strength {
            limits.level_nodes = Some(crate::search::strength::node_cap(self.options.elo));
        }
        // The root list is built here, once, for the reporter and every search thread.
        let root_moves = SearchRequest::root_moves(&board, &searchmoves);
        let mut reporter = UciReporter::new(
            Arc::clone(&self.out),
            board,
            self.options.chess960,
            self.options.show_wdl,
            root_moves.clone(),
        )
        .with_evaluation(&self.options.evaluation());
        reporter = reporter.with_history(self.game.history().to_vec());
        if let Some(events) = &self.events {
            reporter = reporter.notify_done(events.clone());
        }
        let reporter = Arc::new(reporter);
        self.last_go_holds = limits.infinite || limits.ponder;
        let request = SearchRequest {
            board,
            history: self.game.history().to_vec(),
            limits,
            start: received,
            move_overhead_ms: self.options.move_overhead_ms,
            multipv: self.options.multipv.max(1),
            root_moves,
        };
        self.engine.go(request, reporter);
    }

    /// Refuses a command that needs the CPU to itself while a search, perft or bench runs.
    fn busy(&mut self, what: &str) -> bool {
        let running = if self.engine.is_searching() {
            Some("a search")
        } else if self.job.as_ref().is_some_and(Job::running) {
            Some("a go perft or bench")
        } else {
            None
        };
        match running {
            Some(running) => {
                self.out
                    .error(&format!("{what}: {running} is running (send stop first)"));
                true
            }
            None => {
                // Whatever ran has given its answer: collect its thread.
                self.engine.wait();
                self.finish_job();
                false
            }
        }
    }

    fn display(&self) {
        let board = self.game.board();
        let checkers: Vec<String> = board
            .checkers()
            .into_iter()
            .map(|sq| sq.to_string())
            .collect();
        let mut text = board.diagram();
        text.push_str(&format!("Fen: {}\n", board.to_fen()));
        text.push_str(&format!("Key: {:016X}\n", board.hash()));
        text.push_str(&format!("Checkers: {}", checkers.join(" ")));
        self.out.line(&text);
    }

    /// `go perft`: counted on the job thread; `stop` ends it early with an `info string`.
    fn perft(&mut self, depth: u32) {
        if self.busy("go perft") {
            return;
        }
        let board = *self.game.board();
        let threads = self.engine.threads();
        let chess960 = self.options.chess960;
        let out = Arc::clone(&self.out);
        self.start_job("perft", move |stop, done| {
            let result = crate::perft::divide_until(&board, depth, threads, 0, stop.flag());
            done.set();
            let counts = match result {
                Ok(counts) => counts,
                Err(crate::perft::PerftError::Stopped) => {
                    return out.info_string("go perft: stopped")
                }
                Err(e) => return out.error(&format!("go perft: {e}")),
            };
            // Stockfish ends a divide with a blank line too.
            out.raw(&(crate::perft::format_divide(&board, depth, &counts, chess960) + "\n"));
        });
    }

    fn eval(&self) {
        let board = self.game.board();
        let net = &self.options.network.0;
        let nnue = crate::nnue::evaluate_board(net, board);
        let hce = crate::hce::evaluate(board);
        let evaluation = self.options.evaluation();
        let used = evaluation.evaluate(board);
        self.out.line(&format!(
            "{}\nHand-crafted evaluation: {hce} cp (side to move)\n\
             NNUE evaluation: {nnue} cp (side to move), network checksum {:016x}\n\
             NNUE architecture: {} ({} inference)\n\
             Final evaluation ({}): {used} cp (side to move), {} cp (White)",
            crate::hce::trace(board),
            net.checksum,
            net.describe(),
            crate::nnue::simd::path_name(),
            match evaluation {
                Evaluation::Network(_) => "NNUE",
                Evaluation::HandCrafted => "hand-crafted, Use NNUE is off",
            },
            used * board.side_to_move().sign()
        ));
        self.out
            .line(&score::describe_eval(board, used, &evaluation));
    }

    /// `bench`: run on the job thread (with an engine of its own); `stop` ends it early.
    fn bench(&mut self, depth: Option<i32>) {
        if self.busy("bench") {
            return;
        }
        let out = Arc::clone(&self.out);
        let eval = self.options.evaluation();
        self.start_job("bench", move |stop, done| {
            // The position lines go out as they come; the last line (the total) after `done`.
            let mut writer = LineBehindWriter::new(&out);
            let finished = crate::bench::run_until(&mut writer, depth, &eval, stop);
            let last = writer.held.take();
            done.set();
            if let Some(line) = last {
                out.line(&line);
            }
            if finished.is_none() {
                out.info_string("bench: stopped");
            }
        });
    }

    fn help(&self) {
        self.out.info_string(
            "commands: uci isready setoption ucinewgame position go stop ponderhit quit debug \
             register d eval bench [depth] go perft <depth> help; the command-line tools: \
             escaque --help",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::output::test_support::Captured;

    fn controller() -> (Uci, Captured) {
        let cap = Captured::default();
        (Uci::new(Output::new(Box::new(cap.clone()))), cap)
    }

    fn run(uci: &mut Uci, line: &str) -> Flow {
        uci.execute(line, Instant::now())
    }

    #[test]
    fn bad_position_keeps_the_previous_one() {
        let (mut uci, cap) = controller();
        run(&mut uci, "position startpos moves e2e4");
        let fen = uci.board().to_fen();
        for bad in [
            "position startpos moves e2e4 e7e5 e1e3",
            "position startpos moves e2e4 zz",
            "position fen 8/8/8 w - - 0 1",
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "position",
        ] {
            run(&mut uci, bad);
            let text = cap.take();
            assert!(
                text.starts_with("info string error: ") && text.lines().count() == 1,
                "{text}"
            );
            assert_eq!(uci.board().to_fen(), fen, "{bad}");
        }
        run(
            &mut uci,
            "position startpos moves E2E4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1",
        );
        assert_eq!(cap.take(), "");
        assert!(uci
            .board()
            .to_fen()
            .starts_with("r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 b kq"));
    }

    #[test]
    fn bad_options_keep_previous_values() {
        let (mut uci, cap) = controller();
        run(&mut uci, "setoption name MultiPV value 3");
        run(&mut uci, "setoption name move overhead value 100");
        let before = uci.options().clone();
        for bad in [
            "setoption name MultiPV value 0",
            "setoption name MultiPV value many",
            "setoption name Move Overhead value 99999",
            "setoption name UCI_Chess960 value maybe",
            "setoption name Hash",
            "setoption name Nonexistent value 3",
        ] {
            run(&mut uci, bad);
            let text = cap.take();
            assert!(
                text.starts_with("info string error: ") && text.lines().count() == 1,
                "{text}"
            );
            assert_eq!(uci.options(), &before, "{bad}");
        }
        assert_eq!((before.multipv, before.move_overhead_ms), (3, 100));
    }

    #[test]
    fn handshake_and_quit() {
        let (mut uci, cap) = controller();
        assert_eq!(run(&mut uci, "uci"), Flow::Continue);
        let text = cap.take();
        assert!(text.starts_with("id name escaque"));
        assert!(text.ends_with("uciok\n"));
        assert_eq!(run(&mut uci, "isready"), Flow::Continue);
        assert_eq!(cap.take(), "readyok\n");
        assert_eq!(run(&mut uci, "xboard"), Flow::Continue);
        assert_eq!(cap.take(), "");
        assert_eq!(run(&mut uci, "quit"), Flow::Quit);
    }

    /// `UCI_LimitStrength` caps every search at the nodes `UCI_Elo` allows, and only then.
    #[test]
    fn limit_strength_caps_the_nodes() {
        let (mut uci, cap) = controller();
        let nodes_of = |text: &str| -> u64 {
            let line = text
                .lines()
                .rfind(|l| l.starts_with("info depth"))
                .expect("an info line");
            let words: Vec<&str> = line.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "nodes").expect("nodes");
            words[at + 1].parse().unwrap()
        };
        run(&mut uci, "setoption name UCI_LimitStrength value true");
        run(&mut uci, "setoption name UCI_Elo value 1320");
        run(&mut uci, "go depth 30");
        uci.wait();
        let text = cap.take();
        let limit = crate::search::strength::node_cap(1320);
        assert!(text.contains("bestmove "), "{text}");
        assert!(nodes_of(&text) <= limit + 16, "{text}");
        // Even the weakest level completes its first iteration: every root move is looked at
        // (Kiwipete's first iteration takes several times the cap).
        run(
            &mut uci,
            "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        );
        run(&mut uci, "go depth 30");
        uci.wait();
        let text = cap.take();
        assert!(text.contains("info depth 1 "), "{text}");
        assert!(text.contains("bestmove "), "{text}");
        run(&mut uci, "setoption name UCI_LimitStrength value false");
        run(&mut uci, "position startpos");
        run(&mut uci, "go depth 6");
        uci.wait();
        assert!(nodes_of(&cap.take()) > limit + 16);
    }

    #[test]
    fn display_and_perft() {
        let (mut uci, cap) = controller();
        run(&mut uci, "position fen 4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
        run(&mut uci, "d");
        let text = cap.take();
        assert!(
            text.contains("Fen: 4k3/8/8/8/8/8/4r3/4K3 w - - 0 1\n"),
            "{text}"
        );
        assert!(
            text.contains("\nKey: ") && text.ends_with("Checkers: e2\n"),
            "{text}"
        );
        run(&mut uci, "position startpos");
        run(&mut uci, "go perft 2");
        uci.wait();
        let text = cap.take();
        assert_eq!(text.lines().filter(|l| l.contains(": 20")).count(), 20);
        assert!(text.ends_with("\nNodes searched: 400\n\n"), "{text}");
    }
}
