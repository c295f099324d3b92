"""Perft helpers: divide parsing, EPD suites, running escaque / reference engines."""

from __future__ import annotations

import os
import re
import subprocess
import time
from dataclasses import dataclass

_DIVIDE_RE = re.compile(r"^\s*([a-h][1-8][a-h][1-8][qrbnQRBN]?)\s*:\s*(\d+)\s*$")
_NODES_RE = re.compile(r"^\s*Nodes searched\s*:\s*(\d+)\s*$", re.IGNORECASE)

STARTPOS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# The six classic positions of https://www.chessprogramming.org/Perft_Results
# name -> (fen, default depth for perft-speed, {depth: nodes})
STANDARD_POSITIONS: dict[str, tuple[str, int, dict[int, int]]] = {
    "startpos": (STARTPOS, 7, {1: 20, 2: 400, 3: 8902, 4: 197281, 5: 4865609, 6: 119060324,
                               7: 3195901860}),
    "kiwipete": ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5,
                 {1: 48, 2: 2039, 3: 97862, 4: 4085603, 5: 193690690, 6: 8031647685}),
    "pos3": ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7,
             {1: 14, 2: 191, 3: 2812, 4: 43238, 5: 674624, 6: 11030083, 7: 178633661}),
    "pos4": ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 6,
             {1: 6, 2: 264, 3: 9467, 4: 422333, 5: 15833292, 6: 706045033}),
    "pos5": ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5,
             {1: 44, 2: 1486, 3: 62379, 4: 2103487, 5: 89941194}),
    "pos6": ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5,
             {1: 46, 2: 2079, 3: 89890, 4: 3894594, 5: 164075551, 6: 6923051137}),
}


class PerftError(Exception):
    pass


@dataclass
class Divide:
    moves: dict[str, int]
    total: int | None

    def check_consistent(self) -> None:
        if self.total is None:
            raise PerftError("no 'Nodes searched' line in perft output")
        if self.moves and sum(self.moves.values()) != self.total:
            raise PerftError(f"divide sum {sum(self.moves.values())} != Nodes searched {self.total}")


def parse_divide(text: str) -> Divide:
    """Parse Stockfish-style divide output (``e2e4: 123`` lines + ``Nodes searched: N``).

    Duplicate moves raise PerftError (a move generator bug worth reporting).
    """
    moves: dict[str, int] = {}
    total = None
    for line in text.splitlines():
        m = _DIVIDE_RE.match(line)
        if m:
            mv = m.group(1)
            mv = mv[:4] + mv[4:].lower()
            if mv in moves:
                raise PerftError(f"duplicate move {mv} in divide output")
            moves[mv] = int(m.group(2))
            continue
        m = _NODES_RE.match(line)
        if m:
            total = int(m.group(1))
    return Divide(moves, total)


def parse_epd_perft_line(line: str) -> tuple[str, dict[int, int]] | None:
    """Parse ``<FEN> ;D1 20 ;D2 400`` -> (fen, {1: 20, 2: 400}); None for blank/comment lines."""
    line = line.strip()
    if not line or line.startswith("#"):
        return None
    parts = line.split(";")
    fen = parts[0].strip()
    fields = fen.split()
    if len(fields) == 4:
        fen += " 0 1"
    elif len(fields) != 6:
        raise ValueError(f"bad FEN in EPD line: {line!r}")
    counts = {}
    for p in parts[1:]:
        p = p.strip()
        m = re.match(r"^D(\d+)\s+(\d+)$", p)
        if m:
            counts[int(m.group(1))] = int(m.group(2))
    return fen, counts


def load_epd_perft(path: str) -> list[tuple[str, dict[int, int]]]:
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = parse_epd_perft_line(line)
            if r:
                out.append(r)
    return out


def run_cli_perft(binary: str, depth: int, fen: str | None = None, threads: int | None = None,
                  timeout: float | None = None, hash_mb: int | None = None) -> tuple[Divide, str, float]:
    """Run ``escaque perft <depth> [FEN] [--threads N] [--hash MB]``; return (divide, stderr, wall seconds)."""
    argv = [binary, "perft", str(depth)]
    if fen is not None:
        argv.append(fen)
    if threads is not None:
        argv += ["--threads", str(threads)]
    if hash_mb is not None:
        argv += ["--hash", str(hash_mb)]
    start = time.monotonic()
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, errors="replace")
    except subprocess.TimeoutExpired as exc:
        raise PerftError(f"{' '.join(argv)}: timed out after {timeout}s") from exc
    except OSError as exc:
        raise PerftError(f"cannot run {binary}: {exc}") from exc
    elapsed = time.monotonic() - start
    if proc.returncode != 0:
        raise PerftError(f"{' '.join(argv)!r} exited with {proc.returncode}: "
                         f"{(proc.stderr or proc.stdout).strip()[:500]}")
    div = parse_divide(proc.stdout)
    div.check_consistent()
    return div, proc.stderr, elapsed


_MNPS_RE = re.compile(r"([\d.]+)\s*Mnps", re.IGNORECASE)
_NPS_RE = re.compile(r"(?<![\w.])([\d.]+)\s*nps\b|\bnps\s*[:=]?\s*([\d.]+)", re.IGNORECASE)
_TIME_MS_RE = re.compile(r"(?<![\w.])([\d.]+)\s*ms\b")
_TIME_S_RE = re.compile(r"(?<![\w.])([\d.]+)\s*s\b")


def parse_engine_timing(stderr: str) -> dict[str, float]:
    """Best-effort extraction of the engine's own timing figures from its stderr."""
    out: dict[str, float] = {}
    m = _MNPS_RE.search(stderr)
    if m:
        out["mnps"] = float(m.group(1))
    else:
        m = _NPS_RE.search(stderr)
        if m:
            out["mnps"] = float(m.group(1) or m.group(2)) / 1e6
    m = _TIME_MS_RE.search(stderr)
    if m:
        out["seconds"] = float(m.group(1)) / 1000.0
    else:
        m = _TIME_S_RE.search(stderr)
        if m:
            out["seconds"] = float(m.group(1))
    return out


# ---------------------------------------------------------------------------
# Move-notation normalisation (Chess960 castling) and python-chess reference
# ---------------------------------------------------------------------------

def canonical_moves(fen: str, moves: dict[str, int], chess960: bool) -> dict[str, int]:
    """Map every move to python-chess' canonical UCI form for this position.

    In Chess960 mode castling becomes king-takes-rook (``e1h1``) whatever form the
    engine printed; moves python-chess cannot parse are kept verbatim (they will
    show up as differences).
    """
    import chess

    board = chess.Board(fen, chess960=chess960)
    out: dict[str, int] = {}
    for mv, n in moves.items():
        key = mv
        try:
            key = board.parse_uci(mv).uci() if chess960 else board.uci(board.parse_uci(mv))
        except ValueError:
            pass
        if key in out:
            key = mv + "?dup"
        out[key] = n
    return out


def python_chess_perft(board, depth: int) -> int:  # type: ignore[no-untyped-def]
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for mv in list(board.legal_moves):
        board.push(mv)
        n += python_chess_perft(board, depth - 1)
        board.pop()
    return n


def python_chess_divide(fen: str, depth: int, chess960: bool) -> Divide:
    import chess

    board = chess.Board(fen, chess960=chess960)
    moves = {}
    for mv in list(board.legal_moves):
        key = mv.uci() if chess960 else board.uci(mv)
        board.push(mv)
        moves[key] = python_chess_perft(board, depth - 1)
        board.pop()
    return Divide(moves, sum(moves.values()))


def diff_divides(ours: dict[str, int], ref: dict[str, int]) -> list[tuple[str, int | None, int | None]]:
    """Sorted list of (move, ours, reference) for moves whose counts differ."""
    out = []
    for mv in sorted(set(ours) | set(ref)):
        a, b = ours.get(mv), ref.get(mv)
        if a != b:
            out.append((mv, a, b))
    return out


def default_shared_dir(repo_root: str) -> str:
    return os.path.normpath(os.path.join(repo_root, "..", "shared"))
