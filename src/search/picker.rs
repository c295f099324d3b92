//! Staged move ordering: the transposition-table move first, then captures and promotions that do
//! not lose material (by SEE, ordered most valuable victim first with capture history as the tie
//! breaker), the two killers, the counter-move, quiets by history, and last the losing captures.
//! Quiescence takes the noisy moves only (with checks at its first ply, the quiet checks too).
//! Moves from outside the generator (TT, killers, counter) are checked with `Board::is_legal`.

use arrayvec::ArrayVec;

use super::history::{captured_slot, ContKeys, Histories};
use super::params::CAPTURE_HISTORY_ORDER_DIV;
use crate::board::SEE_VALUES;
use crate::board::{Board, MoveList};
use crate::types::{Move, PieceType};

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    TtMove,
    GenNoisy,
    GoodNoisy,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadNoisy,
    Done,
}

pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    /// Continuation-history keys of the moves one, two and four plies back.
    cont: ContKeys,
    moves: ArrayVec<(Move, i32), 256>,
    index: usize,
    bad: ArrayVec<Move, 256>,
    bad_index: usize,
    quiets: Quiets,
}

/// Which quiet moves a picker yields.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Quiets {
    All,
    /// Only those that give check (and no killers or counter-move), after the good captures.
    Checks,
    None,
}

impl MovePicker {
    /// A picker for the main search; `killers` and `counter` may be null.
    pub fn new(tt_move: Move, killers: [Move; 2], counter: Move, cont: ContKeys) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            killers,
            counter,
            cont,
            moves: ArrayVec::new(),
            index: 0,
            bad: ArrayVec::new(),
            bad_index: 0,
            quiets: Quiets::All,
        }
    }

    /// A picker for quiescence: noisy moves only, then with `checks` the quiet moves that give
    /// check (all moves when `in_check`).
    pub fn new_qsearch(tt_move: Move, in_check: bool, checks: bool, cont: ContKeys) -> MovePicker {
        let tt_move = if in_check || tt_move.is_noisy() {
            tt_move
        } else {
            Move::NULL
        };
        let mut picker = MovePicker::new(tt_move, [Move::NULL; 2], Move::NULL, cont);
        picker.quiets = if in_check {
            Quiets::All
        } else if checks {
            Quiets::Checks
        } else {
            Quiets::None
        };
        picker
    }

    /// The next move to search, or `None` when all are done.
    pub fn next(&mut self, board: &Board, hist: &Histories) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenNoisy;
                    if board.is_legal(self.tt_move) {
                        return Some(self.tt_move);
                    }
                    self.tt_move = Move::NULL;
                }
                Stage::GenNoisy => {
                    let mut list = MoveList::new();
                    board.generate_noisy(&mut list);
                    // In a local: read through `self` the move is reloaded after every push, a
                    // load beside the list length just stored (in the quiet loop below, the
                    // profile's hottest picker instruction; whole-process bench time 0-2% less).
                    let tt_move = self.tt_move;
                    for mv in list {
                        if mv == tt_move {
                            continue;
                        }
                        let score = noisy_score(board, mv, hist);
                        self.moves.push((mv, score));
                    }
                    self.index = 0;
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => {
                    if let Some(mv) = self.pick_best() {
                        // Under-promotions and captures that lose material wait until the end.
                        let under = mv.promotion().is_some_and(|p| p != PieceType::Queen);
                        if under || !board.see_ge(mv, 0) {
                            self.bad.push(mv);
                            continue;
                        }
                        return Some(mv);
                    }
                    self.stage = Stage::Killer1;
                }
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let [k0, k1] = self.killers;
                    let (mv, duplicate, next) = match self.stage {
                        Stage::Killer1 => (k0, false, Stage::Killer2),
                        Stage::Killer2 => (k1, k1 == k0, Stage::Counter),
                        _ => (
                            self.counter,
                            self.counter == k0 || self.counter == k1,
                            Stage::GenQuiets,
                        ),
                    };
                    self.stage = next;
                    if duplicate
                        || self.quiets != Quiets::All
                        || mv.is_null()
                        || mv.is_noisy()
                        || mv == self.tt_move
                    {
                        continue;
                    }
                    if board.is_legal(mv) {
                        return Some(mv);
                    }
                }
                Stage::GenQuiets => {
                    self.stage = Stage::Quiets;
                    self.moves.clear();
                    self.index = 0;
                    if self.quiets == Quiets::None {
                        continue;
                    }
                    let checks_only = self.quiets == Quiets::Checks;
                    let mut list = MoveList::new();
                    board.generate_quiets(&mut list);
                    let us = board.side_to_move();
                    // In locals, as in `GenNoisy`: no reload across the pushes.
                    let (tt_move, [k0, k1], counter) = (self.tt_move, self.killers, self.counter);
                    for mv in list {
                        if mv == tt_move || mv == k0 || mv == k1 || mv == counter {
                            continue;
                        }
                        if checks_only && !board.gives_check(mv) {
                            continue;
                        }
                        let moved = board
                            .piece_on(mv.from())
                            .expect("a move's origin holds a piece");
                        let score = hist.quiet_score(us, moved, mv, self.cont);
                        self.moves.push((mv, score));
                    }
                }
                Stage::Quiets => {
                    if self.quiets != Quiets::None {
                        if let Some(mv) = self.pick_best() {
                            return Some(mv);
                        }
                    }
                    self.stage = Stage::BadNoisy;
                }
                Stage::BadNoisy => {
                    if self.bad_index < self.bad.len() {
                        self.bad_index += 1;
                        return Some(self.bad[self.bad_index - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// Selection sort, one step: swaps the best remaining move to the front and returns it.
    fn pick_best(&mut self) -> Option<Move> {
        // Over a local slice with the best score kept in a register: no bounds check and no
        // reload of the best entry per step (this loop was half of the picker's time).
        let rest = self.moves.get_mut(self.index..)?;
        let (mut best, mut best_score) = (0, rest.first()?.1);
        for (i, &(_, score)) in rest.iter().enumerate().skip(1) {
            // Strictly greater: of equal scores the first stays first, as generated.
            if score > best_score {
                best = i;
                best_score = score;
            }
        }
        rest.swap(0, best);
        self.index += 1;
        Some(rest[0].0)
    }
}

/// Most valuable victim first; capture history breaks ties between similar captures.
#[inline(always)]
fn noisy_score(board: &Board, mv: Move, hist: &Histories) -> i32 {
    let captured = captured_slot(board, mv);
    let victim = SEE_VALUES[captured.index()];
    let promo = if mv.promotion() == Some(PieceType::Queen) {
        1000
    } else {
        0
    };
    let piece = board
        .piece_on(mv.from())
        .expect("a move's origin holds a piece");
    8 * (victim + promo) + hist.capture(piece, mv.to(), captured) / CAPTURE_HISTORY_ORDER_DIV.get()
}
