//! Accumulators: the first layer's output for both perspectives.
//!
//! The board is copy-make, so the search keeps one accumulator pair per ply. A move only records
//! what it changed (two to four pieces placed or lifted); the accumulator is computed when an
//! evaluation asks for it, from the nearest computed ply below by adding and subtracting rows,
//! so nodes that never evaluate (cut by the table, in check) cost nothing. A king move that
//! changes its side's king bucket or board half changes every feature of that perspective: that
//! perspective is then rebuilt from a per-bucket cache of the last accumulator seen there (a
//! "finny table"), which differs from the new position by a few pieces, not recomputed from
//! scratch.

use super::aligned::AlignedI16;
use super::architecture::{Architecture, View};
use super::network::Network;
use super::simd::{add_sub, add_sub_in_place};
use crate::board::Board;
use crate::types::{CastleSide, Color, Move, MoveFlag, Piece, PieceType, Square};

/// The view of `perspective` (0 White, 1 Black) on `board`: where its king stands decides it.
#[inline(always)]
fn view_of(arch: &Architecture, board: &Board, perspective: usize) -> View {
    let king = board.king(if perspective == 0 {
        Color::White
    } else {
        Color::Black
    });
    arch.view(perspective, king.index())
}

/// The output bucket of `board`.
#[inline(always)]
fn output_bucket(net: &Network, board: &Board) -> usize {
    net.arch.output_bucket(board.occupied().count() as usize)
}

/// `out = bias + Σ rows` over every piece of `board` seen from `perspective`.
fn refresh_perspective(net: &Network, board: &Board, perspective: usize, out: &mut [i16]) {
    let view = view_of(&net.arch, board, perspective);
    out.copy_from_slice(net.bias());
    for square in board.occupied() {
        let Some(piece) = board.piece_on(square) else {
            continue;
        };
        let feature = view.feature(
            perspective,
            piece.color().index(),
            piece.piece_type().index(),
            square.index(),
        );
        add_sub_in_place(out, [net.row(feature)], []);
    }
}

/// Both perspectives' accumulators computed from scratch (tests, `eval`).
#[derive(Clone, Debug)]
pub struct Accumulator {
    /// White's perspective, then Black's.
    pub values: [Vec<i16>; 2],
}

impl Accumulator {
    /// Computed from scratch.
    pub fn refresh(net: &Network, board: &Board) -> Accumulator {
        let mut values = [vec![0; net.hidden], vec![0; net.hidden]];
        for (perspective, out) in values.iter_mut().enumerate() {
            refresh_perspective(net, board, perspective, out);
        }
        Accumulator { values }
    }

    /// The network's evaluation of `board` (whose accumulator this is) in centipawns for the
    /// side to move.
    pub fn evaluate(&self, net: &Network, board: &Board) -> i32 {
        let us = board.side_to_move().index();
        net.output(
            &self.values[us],
            &self.values[1 - us],
            output_bucket(net, board),
        )
    }
}

/// A piece placed on or lifted from a square, as a feature needs it.
#[derive(Clone, Copy, Debug, Default)]
struct Placed {
    color: u8,
    piece_type: u8,
    square: u8,
}

impl Placed {
    fn new(piece: Piece, square: Square) -> Placed {
        Placed {
            color: piece.color().index() as u8,
            piece_type: piece.piece_type().index() as u8,
            square: square.index() as u8,
        }
    }

    #[inline(always)]
    fn feature(self, view: &View, perspective: usize) -> usize {
        view.feature(
            perspective,
            usize::from(self.color),
            usize::from(self.piece_type),
            usize::from(self.square),
        )
    }
}

/// What the move into a ply changed, and which of its accumulators are computed.
#[derive(Clone, Copy, Debug, Default)]
struct PlyState {
    adds: [Placed; 2],
    subs: [Placed; 2],
    add_count: u8,
    sub_count: u8,
    /// Per perspective: the move moved that side's king into another bucket or half.
    new_view: [bool; 2],
    /// Per perspective: the accumulator of this ply is up to date.
    computed: [bool; 2],
}

/// The per-bucket cache: for each perspective and each (king bucket, half) the accumulator of
/// the last position refreshed there and the pieces it holds.
struct FinnyTable {
    values: AlignedI16,
    /// `[slot][color][piece type]` bitboards of the pieces each slot's accumulator holds.
    pieces: Vec<[[u64; 6]; 2]>,
}

impl FinnyTable {
    fn slots(arch: &Architecture) -> usize {
        2 * arch.king_buckets * 2
    }

    fn slot(arch: &Architecture, perspective: usize, view: &View) -> usize {
        let bucket = view.base / super::architecture::INPUTS_PER_BUCKET;
        let half = usize::from(view.flip & 7 != 0);
        (perspective * arch.king_buckets + bucket) * 2 + half
    }
}

/// Per-ply accumulators for one search thread, computed lazily.
pub struct AccumulatorStack {
    plies: usize,
    /// The shape the buffers are laid out for (`hidden`, architecture, network checksum).
    shape: Option<(usize, Architecture, u64)>,
    /// `[ply][perspective][hidden]`.
    values: AlignedI16,
    states: Vec<PlyState>,
    finny: FinnyTable,
}

impl AccumulatorStack {
    /// Room for `plies` plies past the root, or `None` if the memory is not there (a search
    /// thread that cannot be set up is dropped, not allowed to abort the process). The buffers
    /// take their size from the first network [`AccumulatorStack::reset`] is given.
    pub fn try_new(plies: usize) -> Option<AccumulatorStack> {
        let mut states = Vec::new();
        states.try_reserve_exact(plies + 1).ok()?;
        states.resize(plies + 1, PlyState::default());
        Some(AccumulatorStack {
            plies,
            shape: None,
            values: AlignedI16::try_zeroed(0)?,
            states,
            finny: FinnyTable {
                values: AlignedI16::try_zeroed(0)?,
                pieces: Vec::new(),
            },
        })
    }

    /// Lays the buffers out for `net` if they were made for another network, and empties the
    /// cache (its accumulators are the old network's).
    fn fit(&mut self, net: &Network) {
        let shape = (net.hidden, net.arch, net.checksum);
        if self.shape == Some(shape) {
            return;
        }
        let h = net.hidden;
        let slots = FinnyTable::slots(&net.arch);
        self.values =
            AlignedI16::try_zeroed((self.plies + 1) * 2 * h).expect("memory for the accumulators");
        self.finny.values = AlignedI16::try_zeroed(slots * h).expect("memory for the cache");
        for slot in self.finny.values.as_mut_slice().chunks_exact_mut(h) {
            slot.copy_from_slice(net.bias());
        }
        self.finny.pieces = vec![[[0; 6]; 2]; slots];
        self.shape = Some(shape);
    }

    /// Sets ply 0 to the root position.
    pub fn reset(&mut self, net: &Network, root: &Board) {
        self.fit(net);
        self.states[0] = PlyState::default();
        for perspective in 0..2 {
            self.rebuild(net, root, 0, perspective);
        }
    }

    /// Records the move from `board` (the position at `ply`) into ply `ply + 1`.
    #[inline]
    pub fn push_move(&mut self, net: &Network, ply: usize, board: &Board, mv: Move) {
        let us = board.side_to_move();
        let (from, to) = (mv.from(), mv.to());
        let state = &mut self.states[ply + 1];
        *state = PlyState::default();
        let Some(moved) = board.piece_on(from) else {
            // Not a move of this position: rebuild both sides from the board when asked.
            state.new_view = [true; 2];
            return;
        };
        let mut king_to = to;
        match mv.flag() {
            MoveFlag::Castle => {
                let side = if to > from {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                };
                let (king_square, rook_square) = Board::castle_destinations(us, side);
                king_to = king_square;
                let rook = Piece::new(us, PieceType::Rook);
                state.adds = [
                    Placed::new(moved, king_square),
                    Placed::new(rook, rook_square),
                ];
                state.subs = [Placed::new(moved, from), Placed::new(rook, to)];
                (state.add_count, state.sub_count) = (2, 2);
            }
            MoveFlag::EnPassant => {
                let captured = Piece::new(!us, PieceType::Pawn);
                state.adds[0] = Placed::new(moved, to);
                state.subs = [
                    Placed::new(moved, from),
                    Placed::new(captured, to.forward(!us)),
                ];
                (state.add_count, state.sub_count) = (1, 2);
            }
            _ => {
                let placed = mv.promotion().map_or(moved, |p| Piece::new(us, p));
                state.adds[0] = Placed::new(placed, to);
                state.subs[0] = Placed::new(moved, from);
                (state.add_count, state.sub_count) = (1, 1);
                if let Some(captured) = board.piece_on(to).filter(|_| mv.is_capture()) {
                    state.subs[1] = Placed::new(captured, to);
                    state.sub_count = 2;
                }
            }
        }
        if moved.piece_type() == PieceType::King {
            let p = us.index();
            state.new_view[p] = net.arch.view(p, from.index()) != net.arch.view(p, king_to.index());
        }
    }

    /// Records a null move into ply `ply + 1` (the same pieces).
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        self.states[ply + 1] = PlyState::default();
    }

    /// The evaluation of `board`, the position at `ply`, for its side to move.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, ply: usize, board: &Board) -> i32 {
        for perspective in 0..2 {
            self.compute(net, ply, board, perspective);
        }
        let h = net.hidden;
        let us = board.side_to_move().index();
        let values = &self.values.as_slice()[ply * 2 * h..(ply + 1) * 2 * h];
        let (white, black) = values.split_at(h);
        let (ours, theirs) = if us == 0 {
            (white, black)
        } else {
            (black, white)
        };
        net.output(ours, theirs, output_bucket(net, board))
    }

    /// The accumulator of `ply` from `perspective` (computed on demand), for tests.
    pub fn get(&mut self, net: &Network, ply: usize, board: &Board, perspective: usize) -> &[i16] {
        self.compute(net, ply, board, perspective);
        let h = net.hidden;
        let start = (ply * 2 + perspective) * h;
        &self.values.as_slice()[start..start + h]
    }

    /// Brings `perspective`'s accumulator of `ply` (whose position is `board`) up to date.
    #[inline]
    fn compute(&mut self, net: &Network, ply: usize, board: &Board, perspective: usize) {
        if self.states[ply].computed[perspective] {
            return;
        }
        // Back to the nearest computed ply; a change of view on the way means the moves in
        // between cannot be replayed on that accumulator, and the cache rebuilds this one.
        let mut base = ply;
        while !self.states[base].computed[perspective] {
            if self.states[base].new_view[perspective] || base == 0 {
                self.rebuild(net, board, ply, perspective);
                return;
            }
            base -= 1;
        }
        // No view change since `base`: the view of `board` is the view of every ply between.
        let view = view_of(&net.arch, board, perspective);
        let h = net.hidden;
        for child in base + 1..=ply {
            let state = self.states[child];
            let (before, after) = self.values.as_mut_slice().split_at_mut(child * 2 * h);
            let parent_start = ((child - 1) * 2 + perspective) * h;
            let input = &before[parent_start..parent_start + h];
            let out = &mut after[perspective * h..perspective * h + h];
            let row = |placed: Placed| net.row(placed.feature(&view, perspective));
            let (a, s) = (state.adds, state.subs);
            match (state.add_count, state.sub_count) {
                (1, 1) => add_sub(out, input, [row(a[0])], [row(s[0])]),
                (1, 2) => add_sub(out, input, [row(a[0])], [row(s[0]), row(s[1])]),
                (2, 2) => add_sub(out, input, [row(a[0]), row(a[1])], [row(s[0]), row(s[1])]),
                _ => out.copy_from_slice(input),
            }
            self.states[child].computed[perspective] = true;
        }
    }

    /// Rebuilds `perspective`'s accumulator of `ply` from the cache slot of its view: the slot
    /// is brought to `board`'s pieces by the differences alone, then copied to the ply.
    fn rebuild(&mut self, net: &Network, board: &Board, ply: usize, perspective: usize) {
        let view = view_of(&net.arch, board, perspective);
        let slot = FinnyTable::slot(&net.arch, perspective, &view);
        let h = net.hidden;
        let cached = &mut self.finny.values.as_mut_slice()[slot * h..slot * h + h];
        let held = &mut self.finny.pieces[slot];
        let mut adds = arrayvec::ArrayVec::<usize, 32>::new();
        let mut subs = arrayvec::ArrayVec::<usize, 32>::new();
        for (color, color_pieces) in held.iter_mut().enumerate() {
            let side = if color == 0 {
                Color::White
            } else {
                Color::Black
            };
            for (piece_type, bits) in color_pieces.iter_mut().enumerate() {
                let now = board.pieces_of(side, PieceType::from_index(piece_type)).0;
                let feature =
                    |square: u32| view.feature(perspective, color, piece_type, square as usize);
                let mut added = now & !*bits;
                while added != 0 {
                    adds.push(feature(added.trailing_zeros()));
                    added &= added - 1;
                }
                let mut removed = *bits & !now;
                while removed != 0 {
                    subs.push(feature(removed.trailing_zeros()));
                    removed &= removed - 1;
                }
                *bits = now;
            }
        }
        let pairs = adds.len().min(subs.len());
        for i in 0..pairs {
            add_sub_in_place(cached, [net.row(adds[i])], [net.row(subs[i])]);
        }
        for &f in &adds[pairs..] {
            add_sub_in_place(cached, [net.row(f)], []);
        }
        for &f in &subs[pairs..] {
            add_sub_in_place(cached, [], [net.row(f)]);
        }
        let start = (ply * 2 + perspective) * h;
        self.values.as_mut_slice()[start..start + h].copy_from_slice(cached);
        self.states[ply].computed[perspective] = true;
    }
}
