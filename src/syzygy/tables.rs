//! Loaded Syzygy tables and the probes the search makes: WDL (win/draw/loss) for any position
//! the tables cover, and DTZ (distance to a zeroing move) for every legal move at the root.
//!
//! pyrrhic-rs keeps its tables in process-wide state and allows one instance at a time, so the
//! loaded set lives in a registry here: every engine in the process that names the same
//! directories shares one [`Tablebases`], and a new path replaces the old set only once no
//! search holds it.

use std::sync::{Arc, Mutex};

use pyrrhic_rs::{DtzProbeValue, Piece as TbPiece, TableBases, WdlProbeResult};

use super::adapter::EscaqueAttacks;
use super::files::{self, Scan};
use crate::board::Board;
use crate::types::{Color, Move, PieceType};

/// A position's value under perfect play, as the WDL tables give it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    Loss,
    /// Lost, but the opponent needs more than fifty moves: a draw under the fifty-move rule.
    BlessedLoss,
    Draw,
    /// Won, but only in more than fifty moves: a draw under the fifty-move rule.
    CursedWin,
    Win,
}

impl Wdl {
    /// -2 (loss) to 2 (win), the convention of the Syzygy code and of python-chess.
    pub fn signed(self) -> i32 {
        self as i32 - 2
    }
}

/// DTZ of the position after one root move, from the moving side's point of view: plies to the
/// next capture or pawn move (this move included) under best play, positive when the mover
/// wins, negative when it loses, 0 for a draw. A zeroing move counts 1 (101 when the win or
/// loss it keeps is one the fifty-move rule cancels), and so does a move that mates.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveDtz {
    pub mv: Move,
    pub dtz: i32,
}

/// One set of loaded tables.
pub struct Tablebases {
    prober: TableBases<EscaqueAttacks>,
    /// The directories as given to the prober (`:`-joined), which identifies the set.
    directories: String,
    largest: u32,
    count: usize,
    dtz_count: usize,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tablebases({}, {} tables)", self.directories, self.count)
    }
}

/// What [`load`] made of a `SyzygyPath`.
#[derive(Debug, Default)]
pub struct Loaded {
    /// `None` for an empty path (`<empty>`): play without tables.
    pub tables: Option<Arc<Tablebases>>,
    /// Problems that did not stop the loading (a missing directory among several).
    pub warnings: Vec<String>,
}

/// The set pyrrhic-rs holds now, if any; the registry keeps one reference of its own.
static LOADED: Mutex<Option<Arc<Tablebases>>> = Mutex::new(None);

/// Whether a `SyzygyPath` value means "no tables", as in Stockfish.
pub fn is_empty_path(path: &str) -> bool {
    let path = path.trim();
    path.is_empty() || path == "<empty>"
}

/// Loads the tables of `path`: directories separated by `:` (`;` on Windows). An error is one
/// line saying why nothing was loaded (no tables, a bad table file, a set still in use).
pub fn load(path: &str) -> Result<Loaded, String> {
    if is_empty_path(path) {
        release_unused();
        return Ok(Loaded::default());
    }
    let scan = check(path)?;
    let tables = open(&scan)?;
    Ok(Loaded {
        tables: Some(tables),
        warnings: scan.problems,
    })
}

/// Checks a non-empty `path` without loading anything: what [`load`] would find, or the
/// one-line reason it would refuse the path.
pub fn check(path: &str) -> Result<Scan, String> {
    if path.contains('\0') {
        return Err("SyzygyPath contains a NUL character".to_string());
    }
    let scan = files::scan(path);
    if scan.bad_files {
        return Err(format!(
            "Syzygy tables in '{path}' refused: {} (replace or remove the bad files)",
            scan.problems.join("; ")
        ));
    }
    if scan.tables.is_empty() {
        let why = if scan.problems.is_empty() {
            String::new()
        } else {
            format!(" ({})", scan.problems.join("; "))
        };
        return Err(format!("no Syzygy tables found in '{path}'{why}"));
    }
    Ok(scan)
}

/// Opens the scanned directories in pyrrhic-rs, or shares the set already open on them.
fn open(scan: &Scan) -> Result<Arc<Tablebases>, String> {
    let directories: Vec<&str> = scan.directories.iter().filter_map(|d| d.to_str()).collect();
    let directories = directories.join(":");
    let mut slot = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(current) = slot.as_ref() {
        if current.directories == directories {
            return Ok(Arc::clone(current));
        }
    }
    if let Some(current) = slot.take() {
        if Arc::strong_count(&current) > 1 {
            let busy = current.directories.clone();
            *slot = Some(current);
            return Err(format!(
                "the Syzygy tables of '{busy}' are still in use in this process; not switching"
            ));
        }
        // The last reference: this frees pyrrhic-rs's tables so it can open the new ones.
        drop(current);
    }
    let prober = TableBases::<EscaqueAttacks>::new(&directories)
        .map_err(|e| format!("the Syzygy prober could not open '{directories}': {e:?}"))?;
    let tables = Arc::new(Tablebases {
        prober,
        directories,
        // pyrrhic-rs's own count (`max_pieces`) also counts tables it did not find, so the
        // largest size comes from the files themselves.
        largest: scan.largest(),
        count: scan.tables.len(),
        dtz_count: scan.dtz_count(),
    });
    *slot = Some(Arc::clone(&tables));
    Ok(tables)
}

/// Frees the loaded set if no engine holds it any more.
pub fn release_unused() {
    let mut slot = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if slot.as_ref().is_some_and(|t| Arc::strong_count(t) == 1) {
        *slot = None;
    }
}

/// pyrrhic-rs's arguments for a position: the colour and piece bitboards, the en-passant square
/// (0 for none: a1 can never be one) and whether White is to move.
struct ProbeArgs {
    white: u64,
    black: u64,
    kings: u64,
    queens: u64,
    rooks: u64,
    bishops: u64,
    knights: u64,
    pawns: u64,
    ep: u32,
    white_to_move: bool,
}

impl ProbeArgs {
    fn new(board: &Board) -> ProbeArgs {
        ProbeArgs {
            white: board.colored(Color::White).0,
            black: board.colored(Color::Black).0,
            kings: board.pieces(PieceType::King).0,
            queens: board.pieces(PieceType::Queen).0,
            rooks: board.pieces(PieceType::Rook).0,
            bishops: board.pieces(PieceType::Bishop).0,
            knights: board.pieces(PieceType::Knight).0,
            pawns: board.pieces(PieceType::Pawn).0,
            ep: board.en_passant().map_or(0, |sq| sq.index() as u32),
            white_to_move: board.side_to_move() == Color::White,
        }
    }
}

fn wdl_of(result: WdlProbeResult) -> Wdl {
    match result {
        WdlProbeResult::Loss => Wdl::Loss,
        WdlProbeResult::BlessedLoss => Wdl::BlessedLoss,
        WdlProbeResult::Draw => Wdl::Draw,
        WdlProbeResult::CursedWin => Wdl::CursedWin,
        WdlProbeResult::Win => Wdl::Win,
    }
}

fn promotion_of(piece: TbPiece) -> Option<PieceType> {
    match piece {
        TbPiece::Queen => Some(PieceType::Queen),
        TbPiece::Rook => Some(PieceType::Rook),
        TbPiece::Bishop => Some(PieceType::Bishop),
        TbPiece::Knight => Some(PieceType::Knight),
        _ => None,
    }
}

impl Tablebases {
    /// The most pieces (kings included) of any loaded table.
    pub fn largest(&self) -> u32 {
        self.largest
    }
    /// Number of material signatures with a WDL table.
    pub fn count(&self) -> usize {
        self.count
    }
    /// Number of those that also have a DTZ table.
    pub fn dtz_count(&self) -> usize {
        self.dtz_count
    }

    /// Whether the tables can answer for this position: few enough pieces and no castling
    /// rights (the tables know nothing of castling).
    pub fn covers(&self, board: &Board) -> bool {
        board.occupied().count() <= self.largest && board.castling_rights().0 == 0
    }

    /// The WDL value for the side to move, ignoring the halfmove clock (as the tables do), or
    /// `None` where the tables cannot say.
    pub fn probe_wdl(&self, board: &Board) -> Option<Wdl> {
        if !self.covers(board) {
            return None;
        }
        let a = ProbeArgs::new(board);
        self.prober
            .probe_wdl(
                a.white,
                a.black,
                a.kings,
                a.queens,
                a.rooks,
                a.bishops,
                a.knights,
                a.pawns,
                a.ep,
                a.white_to_move,
            )
            .ok()
            .map(wdl_of)
    }

    /// The position's own DTZ (signed, the side to move's view; -1 when checkmated, 0 when
    /// stalemated, as python-chess gives them) and the DTZ after each legal move, or `None`
    /// where a table is missing. The halfmove clock is ignored: the caller applies it.
    pub fn probe_root(&self, board: &Board) -> Option<(i32, Vec<MoveDtz>)> {
        if !self.covers(board) {
            return None;
        }
        let a = ProbeArgs::new(board);
        // The prober is given a clock of 0: it only uses it to tell zeroing moves (the child's
        // clock is 0) from the rest, and to fold it into the WDL it reports, which we do not use.
        let result = self
            .prober
            .probe_root(
                a.white,
                a.black,
                a.kings,
                a.queens,
                a.rooks,
                a.bishops,
                a.knights,
                a.pawns,
                0,
                a.ep,
                a.white_to_move,
            )
            .ok()?;
        let own = match result.root {
            DtzProbeValue::Checkmate => return Some((-1, Vec::new())),
            DtzProbeValue::Stalemate => return Some((0, Vec::new())),
            DtzProbeValue::Failed => return None,
            DtzProbeValue::DtzResult(r) => signed_dtz(r.wdl, r.dtz),
        };
        let legal = board.legal_moves();
        let mut moves = Vec::with_capacity(result.num_moves);
        for value in &result.moves[..result.num_moves] {
            let DtzProbeValue::DtzResult(r) = *value else {
                return None;
            };
            let mv = legal.iter().copied().find(|m| {
                m.from().index() == usize::from(r.from_square)
                    && m.to().index() == usize::from(r.to_square)
                    && m.promotion() == promotion_of(r.promotion)
            })?;
            moves.push(MoveDtz {
                mv,
                dtz: signed_dtz(r.wdl, r.dtz),
            });
        }
        // Every legal move must have its value, or ranking by them would drop moves.
        (moves.len() == legal.len()).then_some((own, moves))
    }
}

/// pyrrhic-rs reports a DTZ as its size plus a WDL (with a clock of 0, the WDL's sign is the
/// DTZ's sign).
fn signed_dtz(wdl: WdlProbeResult, dtz: u16) -> i32 {
    let sign = wdl_of(wdl).signed().signum();
    sign * i32::from(dtz)
}
