//! The search, behind a small facade ([`Engine`]) that the UCI loop, `bench` and tests drive.
//! `go` starts the search on its own thread and returns at once; `stop`, `ponderhit` and `wait`
//! control it. Results leave only through a [`Reporter`].

mod alphabeta;
mod correction;
mod history;
mod iterate;
pub mod limits;
mod node;
pub mod params;
mod picker;
mod probcut;
mod quiescence;
pub mod report;
mod request;
mod smp;
pub mod strength;
pub mod tablebase;
mod thread;
pub mod time;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

pub use limits::Limits;
pub use report::{to_uci_score, Bound, Reporter, Score, SearchInfo, SilentReporter, TB_CENTIPAWNS};
pub use request::{SearchRequest, SearchSignals};
pub use tablebase::TbSettings;
pub use time::TimeManager;

use crate::evaluation::Evaluation;
use crate::event::{Event, StopFlag};
use crate::syzygy::{self, Tablebases};
use crate::tt::TranspositionTable;
use crate::types::Move;
use smp::TbUse;
use thread::ThreadData;

/// Gives every thread the search's evaluation (a network is shared, not copied).
fn set_evaluation(pool: &mut [ThreadData], evaluation: &Evaluation) {
    for td in pool {
        if !td.eval.same_as(evaluation) {
            td.eval = evaluation.clone();
        }
    }
}

/// The engine: owns the search thread, the transposition table and the options.
pub struct Engine {
    signals: Arc<SearchSignals>,
    /// The running search; hands the thread data back when it ends.
    worker: Option<JoinHandle<Vec<ThreadData>>>,
    /// Per-thread state (histories survive from one search to the next).
    pool: Vec<ThreadData>,
    tt: Arc<TranspositionTable>,
    last_nodes: Arc<AtomicU64>,
    /// Set just before the running search's `bestmove` is reported.
    answered: Arc<Event>,
    threads: usize,
    /// What the next search evaluates with.
    evaluation: Evaluation,
    /// The Syzygy tables (`SyzygyPath`), shared with every search thread, and how to probe them.
    tablebases: Option<Arc<Tablebases>>,
    tb_settings: TbSettings,
}

/// Passes reports on, and marks the search answered just before its `bestmove` goes out.
struct Answering {
    inner: Arc<dyn Reporter>,
    answered: Arc<Event>,
}

impl Reporter for Answering {
    fn info(&self, info: &SearchInfo) {
        self.inner.info(info);
    }
    fn message(&self, text: &str) {
        self.inner.message(text);
    }
    fn best_move(&self, best: Option<Move>, ponder: Option<Move>) {
        self.answered.set();
        self.inner.best_move(best, ponder);
    }
}

/// Reports nothing but the end of the search (after [`Answering`] has marked it answered), by
/// waking whoever waits on the stop flag.
struct Done(Arc<StopFlag>);

impl Reporter for Done {
    fn info(&self, _: &SearchInfo) {}
    fn best_move(&self, _: Option<Move>, _: Option<Move>) {
        self.0.notify();
    }
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    pub const DEFAULT_HASH_MB: usize = 16;

    pub fn new() -> Engine {
        Engine {
            signals: Arc::new(SearchSignals::default()),
            worker: None,
            pool: Vec::new(),
            tt: Arc::new(TranspositionTable::new(Self::DEFAULT_HASH_MB)),
            last_nodes: Arc::new(AtomicU64::new(0)),
            answered: Arc::new(Event::default()),
            threads: 1,
            evaluation: Evaluation::default(),
            tablebases: None,
            tb_settings: TbSettings::default(),
        }
    }

    /// Starts a search and returns at once. The engine must be idle: a caller that may have a
    /// search running stops it first with [`Engine::stop_and_wait`] (the UCI controller does,
    /// and applies deferred option changes before the new search starts); the synchronous
    /// searches below always return with the engine idle.
    pub fn go(&mut self, request: SearchRequest, reporter: Arc<dyn Reporter>) {
        debug_assert!(
            self.worker.is_none(),
            "go on a busy engine: stop_and_wait first"
        );
        self.signals.stop.store(false, Ordering::Release);
        let hold = request.limits.infinite || request.limits.ponder;
        self.signals.hold.store(hold, Ordering::Release);
        self.signals
            .pondering
            .store(request.limits.ponder, Ordering::Release);
        self.answered.reset();
        let reporter: Arc<dyn Reporter> = Arc::new(Answering {
            inner: reporter,
            answered: Arc::clone(&self.answered),
        });
        let signals = Arc::clone(&self.signals);
        let tt = Arc::clone(&self.tt);
        let last_nodes = Arc::clone(&self.last_nodes);
        let threads = self.threads;
        let mut pool = std::mem::take(&mut self.pool);
        pool.truncate(threads);
        let worker_reporter = Arc::clone(&reporter);
        let worker_request = request.clone();
        // The evaluation is chosen here, once for the whole search.
        let evaluation = self.evaluation.clone();
        let (tablebases, tb_settings) = (self.tablebases.clone(), self.tb_settings);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let (request, reporter) = (worker_request, worker_reporter);
                // Thread data is allocated here, not on the controller: 1024 threads' tables
                // take seconds to clear, and `isready` must not wait for them.
                while pool.len() < threads && (pool.is_empty() || smp::memory_to_spare(0)) {
                    match ThreadData::try_new(pool.len()) {
                        Some(td) => pool.push(td),
                        None => break,
                    }
                }
                if pool.is_empty() {
                    reporter.message("error: no memory for the search; playing any legal move");
                    reporter.best_move(None, None);
                    return pool;
                }
                set_evaluation(&mut pool, &evaluation);
                if pool.len() < threads {
                    reporter.message(&format!(
                        "memory for only {} of {threads} search threads; searching with {}",
                        pool.len(),
                        pool.len()
                    ));
                }
                let tb = TbUse {
                    tables: tablebases.as_deref(),
                    settings: tb_settings,
                };
                let nodes =
                    smp::run_search(&request, &signals, &tt, &mut pool, reporter.as_ref(), tb);
                last_nodes.store(nodes, Ordering::Release);
                pool
            });
        match spawned {
            Ok(worker) => self.worker = Some(worker),
            Err(e) => {
                // No thread to be had: answer at once from a depth-1 search on this thread (a
                // search that only `stop` could end would block the controller for ever).
                reporter.message(&format!(
                    "cannot start the search thread ({e}); answering from a depth-1 search"
                ));
                let request = SearchRequest {
                    limits: Limits {
                        depth: Some(1),
                        ..Limits::default()
                    },
                    ..request
                };
                self.signals.hold.store(false, Ordering::Release);
                self.signals.pondering.store(false, Ordering::Release);
                let mut pool: Vec<ThreadData> = ThreadData::try_new(0).into_iter().collect();
                set_evaluation(&mut pool, &self.evaluation);
                if pool.is_empty() {
                    reporter.best_move(None, None);
                } else {
                    let nodes = smp::run_search(
                        &request,
                        &self.signals,
                        &self.tt,
                        &mut pool,
                        reporter.as_ref(),
                        TbUse {
                            tables: self.tablebases.as_deref(),
                            settings: self.tb_settings,
                        },
                    );
                    self.last_nodes.store(nodes, Ordering::Release);
                    self.pool = pool;
                }
            }
        }
    }

    /// Runs a search to completion on this thread's behalf and returns the nodes it searched
    /// (bench, datagen, tests). An `infinite` or `ponder` request, which only `stop` could end,
    /// is refused.
    pub fn search_sync(
        &mut self,
        request: SearchRequest,
        reporter: Arc<dyn Reporter>,
    ) -> Result<u64, String> {
        if request.limits.infinite || request.limits.ponder {
            return Err("a synchronous search cannot be infinite or pondering".to_string());
        }
        self.go(request, reporter);
        self.wait();
        Ok(self.last_nodes.load(Ordering::Acquire))
    }

    /// [`Engine::search_sync`] without a reporter that also ends when `stop` is set (it wakes
    /// the wait; nothing polls): the nodes searched, or `None` if it was stopped.
    pub fn search_until(&mut self, request: SearchRequest, stop: &Arc<StopFlag>) -> Option<u64> {
        self.go(request, Arc::new(Done(Arc::clone(stop))));
        stop.wait_while(|| !self.answered.is_set());
        if stop.is_stopped() {
            self.stop();
        }
        self.wait();
        (!stop.is_stopped()).then(|| self.last_nodes.load(Ordering::Acquire))
    }

    /// Asks the search to stop; `bestmove` follows from the search thread.
    pub fn stop(&self) {
        self.signals.hold.store(false, Ordering::Release);
        self.signals.stop.store(true, Ordering::Release);
        self.signals.released.notify();
    }

    /// Stops the running search, if any, and waits until it has given its `bestmove`.
    pub fn stop_and_wait(&mut self) {
        if self.worker.is_some() {
            self.stop();
            self.wait();
        }
    }

    /// The opponent played the move we pondered on: the search goes on under normal time rules.
    pub fn ponderhit(&self) {
        self.signals.pondering.store(false, Ordering::Release);
        self.signals.hold.store(false, Ordering::Release);
        self.signals.released.notify();
    }

    /// Waits until the running search (if any) has given its `bestmove`, or `deadline` passes;
    /// whether it has.
    pub fn wait_answered_until(&self, deadline: std::time::Instant) -> bool {
        self.worker.is_none() || self.answered.wait_until(deadline)
    }

    /// Blocks until the running search (if any) has printed its `bestmove`.
    pub fn wait(&mut self) {
        if let Some(worker) = self.worker.take() {
            if let Ok(pool) = worker.join() {
                self.pool = pool;
            }
        }
    }

    /// Whether a search is running and has not yet given its `bestmove`. Once the `bestmove` is
    /// out the engine counts as idle, although the worker may still be handing its thread data
    /// back: [`Engine::wait`] (which every change of engine state calls) then returns at once.
    /// So a command sent after `bestmove` never finds the engine busy.
    pub fn is_searching(&self) -> bool {
        self.worker.as_ref().is_some_and(|w| !w.is_finished()) && !self.answered.is_set()
    }

    /// Resizes the transposition table (waits for a running search first). If the new size
    /// cannot be had, the old size is restored, or the largest size below it that can be
    /// (every allocation here is fallible: a refused one is an error, never an abort).
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), String> {
        self.wait();
        let old_mb = self.hash_mb();
        // Free the old table first so the peak is one table, not two.
        self.tt = Arc::new(
            TranspositionTable::try_new(1)
                .map_err(|e| format!("no memory even for a 1 MB table ({e})"))?,
        );
        match TranspositionTable::try_new(mb) {
            Ok(table) => {
                self.tt = Arc::new(table);
                Ok(())
            }
            Err(e) => {
                let mut size = old_mb;
                while size > 1 {
                    if let Ok(table) = TranspositionTable::try_new(size) {
                        self.tt = Arc::new(table);
                        break;
                    }
                    size /= 2;
                }
                Err(e)
            }
        }
    }

    pub fn set_threads(&mut self, threads: usize) {
        self.wait();
        self.threads = threads.max(1);
    }

    /// `ucinewgame`: forget everything learned (hash table, histories); options stay.
    pub fn new_game(&mut self) {
        self.wait();
        self.tt.clear();
        for td in &mut self.pool {
            td.clear();
        }
    }

    /// The `Clear Hash` button: empties the transposition table.
    pub fn clear_hash(&mut self) {
        self.wait();
        self.tt.clear();
    }

    /// What the next searches evaluate with (waits for a running search first).
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.wait();
        self.evaluation = evaluation;
    }

    pub fn evaluation(&self) -> &Evaluation {
        &self.evaluation
    }

    /// `SyzygyPath`: loads the tables of `path` (directories separated by `:`), or drops them
    /// for an empty path or `<empty>`. Waits for a running search first. On success, the lines
    /// to tell the user (what was found, and any directory that was not); on failure, why. A
    /// path without usable tables changes nothing.
    pub fn set_syzygy_path(&mut self, path: &str) -> Result<Vec<String>, String> {
        self.wait();
        if !syzygy::is_empty_path(path) {
            syzygy::check(path)?;
        }
        // Let go of the old set first, so that it can be freed if a new one replaces it.
        self.tablebases = None;
        let loaded = syzygy::load(path)?;
        let mut lines = loaded.warnings;
        if let Some(tables) = &loaded.tables {
            lines.push(format!(
                "Found {} tablebases ({} WDL, {} DTZ, up to {} pieces)",
                tables.count(),
                tables.count(),
                tables.dtz_count(),
                tables.largest()
            ));
        }
        self.tablebases = loaded.tables;
        Ok(lines)
    }

    /// The loaded Syzygy tables, if any.
    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tablebases.as_ref()
    }

    /// `SyzygyProbeDepth`, `Syzygy50MoveRule` and `SyzygyProbeLimit` (waits for a running
    /// search first).
    pub fn set_tb_settings(&mut self, settings: TbSettings) {
        self.wait();
        self.tb_settings = settings;
    }

    pub fn tb_settings(&self) -> TbSettings {
        self.tb_settings
    }

    /// The transposition table's size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.tt.megabytes()
    }
    pub fn threads(&self) -> usize {
        self.threads
    }
}
