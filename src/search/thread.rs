//! Per-thread search state ([`ThreadData`]), the state all threads share for one search
//! ([`Shared`]), iterative deepening with aspiration windows and MultiPV, and the Lazy SMP driver
//! that runs helper threads over the shared transposition table.
//!
//! Lazy SMP, measured: the same build with Threads 2 against Threads 1 (scripts/match, 40 games at
//! 5+0.05 s, one game at a time on two cores) scored 63.8%, +98 ± 95 Elo.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use super::correction::CorrectionHistory;
use super::history::{Histories, PieceTo, NO_PIECE_TO};
use super::params::*;
use super::report::wdl;
use super::report::{to_uci_score, Bound, Reporter, Score, SearchInfo, SilentReporter};
use super::request::{SearchRequest, SearchSignals};
use super::tablebase::{self, RootTb, TbSettings, TreeProbes};
use super::time::TimeManager;
use crate::board::Board;
use crate::evaluation::Evaluation;
use crate::nnue::AccumulatorStack;
use crate::syzygy::Tablebases;
use crate::tt::TranspositionTable;
use crate::types::Move;

/// One ply of the search stack.
#[derive(Copy, Clone)]
pub struct StackEntry {
    pub static_eval: i32,
    pub killers: [Move; 2],
    /// The move made from this ply, as a continuation-history key.
    pub piece_to: PieceTo,
    pub null_move: bool,
    /// The move a singular-extension search at this ply leaves out (`NULL`: none).
    pub excluded: Move,
}

impl Default for StackEntry {
    fn default() -> Self {
        StackEntry {
            static_eval: -INF,
            killers: [Move::NULL; 2],
            piece_to: NO_PIECE_TO,
            null_move: false,
            excluded: Move::NULL,
        }
    }
}

/// A legal root move with what the search learned about it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    /// Score from the current iteration: `-INF` for a move that did not raise alpha or that this
    /// aspiration pass has not reached; the first move of a pass may hold an upper bound.
    pub score: i32,
    pub prev_score: i32,
    pub bound: Bound,
    pub pv: Vec<Move>,
    pub seldepth: usize,
    /// What the tablebases say the move is worth, when the root is in them: reported instead
    /// of the search's score unless the search finds a mate.
    pub tb_score: Option<i32>,
    /// Nodes the main thread spent below this move in the current iteration.
    pub nodes: u64,
}

/// What all threads of one search share.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub signals: &'a SearchSignals,
    pub request: &'a SearchRequest,
    /// Internal stop: the main thread finished (or timed out); helpers end too.
    pub abort: AtomicBool,
    pub nodes: AtomicU64,
    /// Every stop rule of this search.
    pub time: TimeManager,
    /// The Syzygy tables, if loaded, and how to probe them inside the tree.
    pub tb: TreeProbes<'a>,
}

/// Everything one search thread owns. Kept between searches so histories carry over.
pub struct ThreadData {
    pub id: usize,
    pub hist: Histories,
    /// The static evaluation's learned errors.
    pub corr: CorrectionHistory,
    pub stack: Vec<StackEntry>,
    pub pv: Vec<[Move; MAX_PLY + 1]>,
    pub pv_len: [usize; MAX_PLY + 1],
    /// Keys of the game history followed by the keys on the current search path.
    pub keys: Vec<u64>,
    pub root_len: usize,
    pub root_board: Board,
    pub root_moves: Vec<RootMove>,
    pub pv_idx: usize,
    pub nodes: u64,
    flushed: u64,
    pub seldepth: usize,
    pub stopped: bool,
    pub completed_depth: i32,
    /// What this search evaluates with, and (for a network) this thread's accumulators, one
    /// per ply.
    pub eval: Evaluation,
    pub nnue: AccumulatorStack,
}

impl ThreadData {
    /// Fresh thread data, or `None` if the memory is not there (1024 threads under a memory
    /// limit must not abort the process).
    pub fn try_new(id: usize) -> Option<ThreadData> {
        let mut keys = Vec::new();
        keys.try_reserve_exact(1024).ok()?;
        let mut stack = Vec::new();
        stack.try_reserve_exact(MAX_PLY + 8).ok()?;
        stack.resize(MAX_PLY + 8, StackEntry::default());
        Some(ThreadData {
            id,
            hist: Histories::try_new()?,
            corr: CorrectionHistory::try_new()?,
            stack,
            pv: crate::memory::try_zeroed_vec(MAX_PLY + 1)?,
            pv_len: [0; MAX_PLY + 1],
            keys,
            root_len: 0,
            root_board: Board::startpos(),
            root_moves: Vec::new(),
            pv_idx: 0,
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            stopped: false,
            completed_depth: 0,
            eval: Evaluation::default(),
            nnue: AccumulatorStack::try_new(MAX_PLY + 8)?,
        })
    }

    /// Forgets learned statistics (`ucinewgame`).
    pub fn clear(&mut self) {
        self.hist.clear();
        self.corr.clear();
    }

    fn prepare(&mut self, request: &SearchRequest) {
        self.root_board = request.board;
        if let Evaluation::Network(net) = &self.eval {
            self.nnue.reset(net, &request.board);
        }
        self.keys.clear();
        self.keys.extend_from_slice(&request.history);
        self.root_len = self.keys.len();
        self.stack
            .iter_mut()
            .for_each(|e| *e = StackEntry::default());
        self.nodes = 0;
        self.flushed = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.completed_depth = 0;
        self.pv_idx = 0;
        self.root_moves = request
            .root_moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                prev_score: -INF,
                nodes: 0,
                bound: Bound::Upper,
                pv: vec![mv],
                seldepth: 0,
                tb_score: None,
            })
            .collect();
    }

    /// Keeps only the root moves the tablebases allow (unless that leaves none: then
    /// `searchmoves` excluded them all, and the user's list wins).
    fn restrict_root_moves(&mut self, root_tb: &RootTb) {
        if self
            .root_moves
            .iter()
            .any(|rm| root_tb.moves.contains(&rm.mv))
        {
            self.root_moves.retain(|rm| root_tb.moves.contains(&rm.mv));
            for rm in &mut self.root_moves {
                rm.tb_score = Some(root_tb.score);
            }
        }
    }

    /// Counts a node and, every 1024 nodes, checks whether the search must stop.
    #[inline(always)]
    pub fn check_stop(&mut self, sh: &Shared) -> bool {
        if self.stopped {
            return true;
        }
        if self.id == 0 && sh.time.has_node_limit() {
            let total = sh.nodes.load(Ordering::Relaxed) + self.nodes - self.flushed;
            if sh.time.out_of_nodes(total, self.completed_depth >= 1) {
                self.stopped = true;
                return true;
            }
        }
        if self.nodes & 1023 == 0 {
            sh.nodes
                .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
            self.flushed = self.nodes;
            // Stopped from outside, by the main thread's end, or by the clock.
            self.stopped = sh.abort.load(Ordering::Relaxed)
                || sh.signals.stop.load(Ordering::Acquire)
                || (self.id == 0
                    && sh
                        .time
                        .out_of_time(sh.signals.pondering.load(Ordering::Acquire)));
        }
        self.stopped
    }

    fn flush_nodes(&mut self, sh: &Shared) {
        sh.nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Iterative deepening. The main thread (id 0) reports and manages time; helpers just search.
    pub fn iterative_deepening(&mut self, sh: &Shared, reporter: &dyn Reporter) {
        let request = sh.request;
        let max_depth = sh.time.max_depth();
        let multipv = request.multipv.clamp(1, self.root_moves.len().max(1));
        let main = self.id == 0;
        let mut effort = SearchEffort::default();
        for depth in 1..=max_depth {
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
                rm.nodes = 0;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(sh, depth, reporter);
                if self.stopped {
                    break;
                }
                self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if !main {
                continue;
            }
            self.flush_nodes(sh);
            for i in 0..multipv {
                reporter.info(&self.info(sh, i, depth));
            }
            let nodes = sh.nodes.load(Ordering::Relaxed);
            let pondering = sh.signals.pondering.load(Ordering::Acquire);
            let iteration_nodes: u64 = self.root_moves.iter().map(|rm| rm.nodes).sum();
            let best = &self.root_moves[0];
            let soft_scale = effort.next(
                best.mv,
                best.score,
                best.nodes as f64 / iteration_nodes.max(1) as f64,
            );
            if sh
                .time
                .stop_after_iteration(depth, best.score, nodes, pondering, soft_scale)
            {
                break;
            }
        }
    }

    /// Aspiration windows: search around the last score and widen on a fail. Match against the
    /// same build searching every depth with a full window, on the network (3+0.03 s, Hash 16,
    /// seed 105): +96.7 ± 40.7 Elo, 140 games (LOS 100%).
    fn aspiration(&mut self, sh: &Shared, depth: i32, reporter: &dyn Reporter) {
        let prev = self.root_moves[self.pv_idx].prev_score;
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && prev.abs() <= TB_WIN_BOUND {
            ((prev - delta).max(-INF), (prev + delta).min(INF))
        } else {
            (-INF, INF)
        };
        loop {
            // Scores from an earlier pass are stale: a move the pass does not reach (the search is
            // stopped or the root fails high) must not sort above the moves it did search.
            for rm in &mut self.root_moves[self.pv_idx + 1..] {
                rm.score = -INF;
            }
            let score = self.search_root(sh, depth, alpha, beta);
            // Stable sort: moves not (re)searched keep their order behind the best.
            self.root_moves[self.pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                return;
            }
            if score <= alpha {
                // Fail low: widen downwards, pull beta towards the middle.
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
                self.root_moves[self.pv_idx].bound = Bound::Upper;
            } else if score >= beta {
                beta = (score + delta).min(INF);
                self.root_moves[self.pv_idx].bound = Bound::Lower;
            } else {
                self.root_moves[self.pv_idx].bound = Bound::Exact;
                return;
            }
            if self.id == 0 && sh.time.elapsed() > Duration::from_secs(2) {
                self.flush_nodes(sh);
                reporter.info(&self.info(sh, self.pv_idx, depth));
            }
            delta += delta / 2;
        }
    }

    /// The `info` for MultiPV line `i` (0-based).
    pub fn info(&self, sh: &Shared, i: usize, depth: i32) -> SearchInfo {
        let rm = &self.root_moves[i];
        let mut score = if rm.score == -INF {
            rm.prev_score
        } else {
            rm.score
        };
        if let Some(tb_score) = rm.tb_score {
            if score.abs() < MATE_BOUND {
                score = tb_score;
            }
        }
        let bound = if i < self.pv_idx || rm.score == -INF {
            Bound::Exact
        } else {
            rm.bound
        };
        SearchInfo {
            depth,
            seldepth: rm.seldepth.max(1) as i32,
            multipv: i + 1,
            score: to_uci_score(score),
            bound,
            wdl: wdl(score),
            nodes: sh.nodes.load(Ordering::Relaxed),
            time_ms: sh.time.elapsed().as_millis() as u64,
            hashfull: sh.tt.hashfull(),
            tbhits: sh.tb.hits(),
            pv: rm.pv.clone(),
        }
    }
}

/// What the main thread's iterations said so far, for the time manager: how many iterations in
/// a row kept the best move, and the last best score.
#[derive(Default)]
struct SearchEffort {
    best: Move,
    stable_iterations: u32,
    score: Option<i32>,
}

impl SearchEffort {
    /// Records an iteration (its best move and score, and the share of its nodes spent on that
    /// move) and returns the factor for the soft time limit (see `time::soft_scale`).
    fn next(&mut self, best: Move, score: i32, best_share: f64) -> f64 {
        if best == self.best {
            self.stable_iterations += 1;
        } else {
            self.best = best;
            self.stable_iterations = 0;
        }
        let drop = self.score.map_or(0, |previous| previous - score);
        self.score = Some(score);
        super::time::soft_scale(self.stable_iterations, best_share, drop)
    }
}

/// The Syzygy tables one search may use, and how.
#[derive(Clone, Copy, Default)]
pub struct TbUse<'a> {
    pub tables: Option<&'a Tablebases>,
    pub settings: TbSettings,
}

/// Runs one search to completion on the calling thread (with helpers for `threads > 1`) and
/// reports the best move. `pool` holds at least `threads` thread data.
pub fn run_search(
    request: &SearchRequest,
    signals: &SearchSignals,
    tt: &TranspositionTable,
    pool: &mut [ThreadData],
    reporter: &dyn Reporter,
    tb: TbUse,
) -> u64 {
    tt.new_search();
    for td in pool.iter_mut() {
        td.prepare(request);
    }
    // A root the tables cover: search only the moves that keep the best result.
    let candidates: Vec<Move> = pool[0].root_moves.iter().map(|rm| rm.mv).collect();
    let root_tb = tb
        .tables
        .and_then(|t| tablebase::rank_root(t, &request.board, &candidates, &tb.settings));
    let mut tb_cardinality = tb
        .tables
        .map_or(0, |t| t.largest().min(tb.settings.probe_limit));
    let mut root_hits = 0;
    if let Some(root_tb) = &root_tb {
        for td in pool.iter_mut() {
            td.restrict_root_moves(root_tb);
        }
        root_hits = root_tb.hits;
        if !root_tb.probe_in_search {
            tb_cardinality = 0;
        }
    }
    let sh = Shared {
        tt,
        signals,
        request,
        abort: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        time: TimeManager::new(
            &request.limits,
            request.board.side_to_move(),
            request.move_overhead_ms,
            request.start,
            pool[0].root_moves.len(),
        ),
        tb: TreeProbes {
            tables: tb.tables,
            settings: tb.settings,
            cardinality: tb_cardinality,
            hits: AtomicU64::new(root_hits),
        },
    };
    let (main, helpers) = pool.split_first_mut().expect("at least one thread");
    if main.root_moves.is_empty() {
        let score = if request.board.in_check() {
            Score::Mate(0)
        } else {
            Score::Centipawns(0)
        };
        let wdl = if request.board.in_check() {
            (0, 0, 1000)
        } else {
            (0, 1000, 0)
        };
        reporter.info(&SearchInfo {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score,
            bound: Bound::Exact,
            wdl,
            nodes: 0,
            time_ms: 0,
            hashfull: tt.hashfull(),
            tbhits: None,
            pv: Vec::new(),
        });
        wait_while_held(signals);
        reporter.best_move(None, None);
        return 0;
    }
    // Where memory is tight (an address-space limit), helpers are started one at a time and
    // wait until all are up: each first sets up its share of the allocator and reports ready,
    // so the memory check before the next one sees what it took. Otherwise they start at once.
    let careful = !memory_to_spare(helpers.len().saturating_mul(THREAD_MEMORY));
    let released = (std::sync::Mutex::new(!careful), std::sync::Condvar::new());
    std::thread::scope(|scope| {
        let wanted = helpers.len();
        let (ready_tx, ready_rx) = std::sync::mpsc::channel::<()>();
        for (started, td) in helpers.iter_mut().enumerate() {
            let sh = &sh;
            let ready = ready_tx.clone();
            let released = &released;
            let spawned = if !careful || memory_to_spare(0) {
                std::thread::Builder::new()
                    .name(format!("search {}", started + 1))
                    .spawn_scoped(scope, move || {
                        std::hint::black_box(Box::new(0u64));
                        let _ = ready.send(());
                        let (lock, go) = released;
                        let mut go_on = lock.lock().unwrap_or_else(|e| e.into_inner());
                        while !*go_on {
                            go_on = go.wait(go_on).unwrap_or_else(|e| e.into_inner());
                        }
                        drop(go_on);
                        td.iterative_deepening(sh, &SilentReporter)
                    })
                    .map_err(|e| e.to_string())
                    .and_then(|_| match careful {
                        true => ready_rx.recv().map_err(|e| e.to_string()),
                        false => Ok(()),
                    })
            } else {
                Err("memory is short".to_string())
            };
            // No more threads to be had (a limit on threads or memory): search with fewer.
            if let Err(e) = spawned {
                reporter.message(&format!(
                    "could start only {} of {} search threads ({e}); searching with {}",
                    started + 1,
                    wanted + 1,
                    started + 1
                ));
                break;
            }
        }
        *released.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
        released.1.notify_all();
        main.iterative_deepening(&sh, reporter);
        wait_while_held(signals);
        sh.abort.store(true, Ordering::Relaxed);
    });
    main.flush_nodes(&sh);
    // An interrupted iteration may have changed the best move after the last report: GUIs want
    // a final exact line whose PV starts with the best move (UCI-CHECKLIST items 49 and 50).
    if main.stopped && main.completed_depth >= 1 {
        let mut last = main.info(&sh, 0, main.completed_depth);
        last.bound = Bound::Exact;
        reporter.info(&last);
    }
    let best = main.root_moves[0].clone();
    let mut ponder = best.pv.get(1).copied();
    if ponder.is_none() {
        // Try the hash table for a reply to ponder on.
        let child = request.board.make_move(best.mv);
        ponder = tt
            .probe(child.hash())
            .map(|e| e.mv)
            .filter(|&m| child.is_legal(m));
    }
    reporter.best_move(Some(best.mv), ponder);
    sh.nodes.load(Ordering::Relaxed)
}

/// Address space the engine keeps free when it sets up search threads, for what the threads
/// it already has will allocate (a thread's signal stack, small allocations): taking threads
/// and their tables until the system refuses would leave those to fail, and a failed
/// allocation aborts the process.
const MEMORY_HEADROOM: usize = 64 << 20;

/// A generous bound on the address space one more search thread takes: its stack (2 MB) and
/// the C allocator's arena for it (glibc reserves 64 MB, twice that while aligning it).
const THREAD_MEMORY: usize = 128 << 20;

/// Whether `bytes` plus [`MEMORY_HEADROOM`] can still be allocated (it is freed at once;
/// without a memory limit this is an unused mapping made and dropped, a few microseconds).
pub(super) fn memory_to_spare(bytes: usize) -> bool {
    let mut probe: Vec<u8> = Vec::new();
    let spare = probe
        .try_reserve_exact(bytes.saturating_add(MEMORY_HEADROOM))
        .is_ok();
    // Keep the allocation: an allocation that is never used may be optimised away.
    std::hint::black_box(&mut probe);
    spare
}

/// `go infinite` and `go ponder` never end on their own: sleep until `stop` or `ponderhit`.
fn wait_while_held(signals: &SearchSignals) {
    signals.released.wait_while(|| {
        signals.hold.load(Ordering::Acquire) && !signals.stop.load(Ordering::Acquire)
    });
}
