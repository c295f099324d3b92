//! The Lazy SMP driver: runs one search on the calling thread with helper threads over the
//! shared transposition table, and reports the best move.
//!
//! Lazy SMP, measured: the same build with Threads 2 against Threads 1 (scripts/match, 40 games at
//! 5+0.05 s, one game at a time on two cores) scored 63.8%, +98 ± 95 Elo.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::report::{Bound, Reporter, Score, SearchInfo, SilentReporter};
use super::request::{SearchRequest, SearchSignals};
use super::tablebase::{self, TbSettings, TreeProbes};
use super::thread::{Shared, ThreadData};
use super::time::TimeManager;
use crate::syzygy::Tablebases;
use crate::tt::TranspositionTable;
use crate::types::Move;

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
        let value = if request.board.in_check() {
            -super::params::MATE
        } else {
            super::params::DRAW
        };
        reporter.info(&SearchInfo {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score,
            bound: Bound::Exact,
            value,
            tablebase_draw: false,
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
