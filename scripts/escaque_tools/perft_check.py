"""Perft verification: escaque's CLI perft against a reference (Stockfish or python-chess).

Used by scripts/perft-check and scripts/perft-suite.
"""

from __future__ import annotations

import random
import re
import sys
from dataclasses import dataclass

from .perft import (Divide, PerftError, canonical_moves, diff_divides, parse_divide,
                    python_chess_divide, run_cli_perft)
from .uci_engine import EngineError, UciEngine


def is_shredder_castling(fen: str) -> bool:
    """True when the castling field uses file letters (Shredder-FEN), i.e. a Chess960 position."""
    fields = fen.split()
    return len(fields) > 2 and bool(re.search(r"[A-Ha-h]", fields[2].replace("-", "")))


def to_engine_fen(board, chess960: bool) -> str:  # type: ignore[no-untyped-def]
    return board.fen(shredder=True) if chess960 else board.fen()


class Reference:
    """Reference divide provider: a UCI engine supporting `go perft` or python-chess."""

    def __init__(self, spec: str, timeout: float = 600.0):
        self.spec = spec
        self.timeout = timeout
        self.engine: UciEngine | None = None
        self._chess960: bool | None = None
        if spec != "python-chess":
            self.engine = UciEngine(spec, name="reference")
            self.engine.uci()
            self.engine.isready()

    @property
    def name(self) -> str:
        if self.engine is None:
            return "python-chess"
        return self.engine.id_name or self.spec

    def divide(self, fen: str, depth: int, chess960: bool) -> Divide:
        if self.engine is None:
            return python_chess_divide(fen, depth, chess960)
        if self._chess960 != chess960:
            self.engine.setoption("UCI_Chess960", chess960)
            self.engine.isready()
            self._chess960 = chess960
        text, _ = self.engine.perft_text(fen, depth, self.timeout)
        div = parse_divide(text)
        div.check_consistent()
        return Divide(canonical_moves(fen, div.moves, chess960), div.total)

    def close(self) -> None:
        if self.engine is not None:
            self.engine.quit()


@dataclass
class Mismatch:
    root_fen: str
    root_depth: int
    path: list[str]
    fen: str
    depth: int
    diffs: list[tuple[str, int | None, int | None]]
    note: str = ""

    def report(self) -> str:
        lines = [f"MISMATCH at root {self.root_fen} depth {self.root_depth}"]
        if self.note:
            lines.append(f"  note: {self.note}")
        lines.append(f"  first differing path: {' '.join(self.path) if self.path else '(root)'}")
        lines.append(f"  position after path: {self.fen}   (remaining depth {self.depth})")
        for mv, ours, ref in self.diffs[:20]:
            if ours is None:
                lines.append(f"    {mv}: missing in escaque (reference {ref})")
            elif ref is None:
                lines.append(f"    {mv}: escaque {ours}, NOT a legal move per reference")
            else:
                lines.append(f"    {mv}: escaque {ours}, reference {ref}")
        if len(self.diffs) > 20:
            lines.append(f"    ... {len(self.diffs) - 20} more")
        return "\n".join(lines)


class Checker:
    def __init__(self, engine: str, reference: Reference | None, threads: int | None = None,
                 timeout: float | None = 600.0, verbose: bool = False):
        self.engine = engine
        self.reference = reference
        self.threads = threads
        self.timeout = timeout
        self.verbose = verbose

    def ours(self, fen: str, depth: int, chess960: bool) -> Divide:
        div, _, _ = run_cli_perft(self.engine, depth, fen, self.threads, self.timeout)
        return Divide(canonical_moves(fen, div.moves, chess960), div.total)

    def walk_down(self, fen: str, depth: int, chess960: bool, ours: Divide | None = None,
                  note: str = "") -> Mismatch | None:
        """Compare divides with the reference, descending into the first differing move.

        Returns None when escaque and the reference agree at the root.
        """
        import chess

        assert self.reference is not None
        root_fen, root_depth = fen, depth
        board = chess.Board(fen, chess960=chess960)
        path: list[str] = []
        while True:
            cur_fen = to_engine_fen(board, chess960) if path else fen
            if ours is None:
                ours = self.ours(cur_fen, depth, chess960)
            ref = self.reference.divide(cur_fen, depth, chess960)
            diffs = diff_divides(ours.moves, ref.moves)
            if not diffs and ours.total == ref.total:
                if not path:
                    return None
                return Mismatch(root_fen, root_depth, path[:-1], fen_before, depth + 1, last_diffs,
                                (note + "; " if note else "") +
                                f"children of {path[-1]} agree at depth {depth}: non-deterministic count?")
            # Count mismatches are more informative than missing moves only at depth 1;
            # prefer missing/extra moves (they are the root cause) when present.
            missing = [d for d in diffs if d[1] is None or d[2] is None]
            if missing or depth <= 1:
                return Mismatch(root_fen, root_depth, path, cur_fen, depth, diffs, note)
            mv = diffs[0][0]
            fen_before, last_diffs = cur_fen, diffs
            board.push(board.parse_uci(mv))
            path.append(mv)
            depth -= 1
            ours = None
            if self.verbose:
                print(f"  descending: {' '.join(path)} (depth {depth})", file=sys.stderr)


# ---------------------------------------------------------------------------
# Random positions biased towards special moves
# ---------------------------------------------------------------------------

def random_positions(n: int, seed: int, chess960: bool = False, min_plies: int = 4,
                     max_plies: int = 120) -> list[str]:
    """``n`` distinct FENs from random play biased towards tricky moves.

    Move weights: castling x12, en passant x20, promotion x20, capture x4, check x3,
    pawn move x1.5, other x1.  Game-over positions (mate/stalemate) are kept: perft
    must return 0 / an empty divide there too.
    """
    import chess

    rng = random.Random(seed)
    seen: set[str] = set()
    out: list[str] = []
    attempts = 0
    while len(out) < n and attempts < n * 20:
        attempts += 1
        if chess960:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
        else:
            board = chess.Board()
        plies = rng.randint(min_plies, max_plies)
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            weights = []
            for mv in moves:
                w = 1.0
                if board.is_castling(mv):
                    w = 12.0
                elif board.is_en_passant(mv):
                    w = 20.0
                elif mv.promotion:
                    w = 20.0
                elif board.is_capture(mv):
                    w = 4.0
                elif board.gives_check(mv):
                    w = 3.0
                elif board.piece_type_at(mv.from_square) == chess.PAWN:
                    w = 1.5
                weights.append(w)
            board.push(rng.choices(moves, weights)[0])
            # Stop early at interesting moments sometimes.
            if board.ep_square is not None and board.has_legal_en_passant() and rng.random() < 0.3:
                break
            if board.is_check() and rng.random() < 0.1:
                break
        fen = to_engine_fen(board, chess960)
        if fen not in seen:
            seen.add(fen)
            out.append(fen)
    return out


def run_positions(checker: Checker, fens: list[str], depth: int, chess960: bool,
                  log=print) -> list[Mismatch]:  # type: ignore[no-untyped-def]
    mismatches = []
    for i, fen in enumerate(fens, 1):
        try:
            mm = checker.walk_down(fen, depth, chess960)
        except (PerftError, EngineError) as exc:
            mm = Mismatch(fen, depth, [], fen, depth, [], f"error: {exc}")
        if mm:
            mismatches.append(mm)
            log(mm.report())
        elif checker.verbose:
            log(f"[{i}/{len(fens)}] ok  {fen}")
    return mismatches


def run_epd(checker: Checker, entries: list[tuple[str, dict[int, int]]], max_depth: int,
            max_nodes: int | None, chess960: bool | None, compare_reference: bool,
            log=print) -> tuple[int, list[Mismatch]]:  # type: ignore[no-untyped-def]
    """Check EPD perft entries; returns (number of checks done, mismatches)."""
    checks = 0
    mismatches: list[Mismatch] = []
    for idx, (fen, counts) in enumerate(entries, 1):
        is960 = is_shredder_castling(fen) if chess960 is None else chess960
        depths = [d for d in sorted(counts) if d <= max_depth and (max_nodes is None or counts[d] <= max_nodes)]
        if not counts and checker.reference is not None:
            depths = [max_depth]
        for d in depths:
            checks += 1
            try:
                ours = checker.ours(fen, d, is960)
            except PerftError as exc:
                mm = Mismatch(fen, d, [], fen, d, [], f"error: {exc}")
                mismatches.append(mm)
                log(mm.report())
                break
            expected = counts.get(d)
            bad = expected is not None and ours.total != expected
            if (bad or compare_reference or expected is None) and checker.reference is not None:
                note = f"EPD says D{d} = {expected}, escaque says {ours.total}" if bad else ""
                try:
                    mm = checker.walk_down(fen, d, is960, ours, note)
                except (PerftError, EngineError) as exc:
                    mm = Mismatch(fen, d, [], fen, d, [], f"{note}; reference walk failed: {exc}")
                if mm is None and bad:
                    mm = Mismatch(fen, d, [], fen, d, [], f"{note}; but the reference agrees with escaque "
                                                          f"(EPD value wrong?)")
            elif bad:
                mm = Mismatch(fen, d, [], fen, d, [], f"EPD says D{d} = {expected}, escaque says "
                                                      f"{ours.total} (no reference engine to walk down)")
            else:
                mm = None
            if mm:
                mismatches.append(mm)
                log(mm.report())
                break  # deeper depths of a broken position add nothing
        if checker.verbose:
            log(f"[{idx}/{len(entries)}] {'ok ' if not mismatches or mismatches[-1].root_fen != fen else 'BAD'} "
                f"{fen} depths {depths}")
    return checks, mismatches
