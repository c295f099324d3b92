//! Per-thread search state ([`ThreadData`]: stack, PV, root moves, node count, histories) and
//! the state all threads share for one search ([`Shared`]). Iterative deepening is in
//! `iterate.rs`, the Lazy SMP driver in `smp.rs`, the tree search in `alphabeta.rs`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::correction::CorrectionHistory;
use super::history::{Histories, PieceTo, NO_PIECE_TO};
use super::params::*;
use super::report::Bound;
use super::request::{SearchRequest, SearchSignals};
use super::tablebase::{RootTb, TreeProbes};
use super::time::TimeManager;
use crate::board::Board;
use crate::evaluation::Evaluation;
use crate::nnue::AccumulatorStack;
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
    /// Where in `keys` the positions after the innermost null move on the path begin (0 when
    /// there is none): no position before a pass can be repeated after it.
    pub null_floor: usize,
    /// The depth of the iteration being searched.
    pub root_depth: i32,
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
            null_floor: 0,
            root_depth: 0,
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

    pub(super) fn prepare(&mut self, request: &SearchRequest) {
        self.root_board = request.board;
        if let Evaluation::Network(net) = &self.eval {
            self.nnue.reset(net, &request.board);
        }
        self.keys.clear();
        self.keys.extend_from_slice(&request.history);
        self.root_len = self.keys.len();
        self.null_floor = 0;
        self.root_depth = 0;
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
    pub(super) fn restrict_root_moves(&mut self, root_tb: &RootTb) {
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

    pub(super) fn flush_nodes(&mut self, sh: &Shared) {
        sh.nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }
}
