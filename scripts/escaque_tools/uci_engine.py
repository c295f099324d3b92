"""A small UCI engine driver with explicit crash / stall detection.

python-chess' ``chess.engine`` is great for casual use, but for match play we
want full control over wall-clock measurement, deadlines and how a dead or
hung engine is reported, so this module talks to the engine directly:
a subprocess plus a reader thread that feeds stdout lines into a queue.
"""

from __future__ import annotations

import os
import queue
import shlex
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Iterable, Sequence


class EngineError(Exception):
    """Base class for engine failures."""


class EngineCrash(EngineError):
    """The engine process exited (or closed stdout) unexpectedly."""


class EngineStall(EngineError):
    """The engine did not answer within the deadline."""


@dataclass
class SearchInfo:
    depth: int | None = None
    score_cp: int | None = None
    score_mate: int | None = None
    nodes: int | None = None
    pv: list[str] = field(default_factory=list)

    def score_str(self) -> str:
        if self.score_mate is not None:
            return f"{'+' if self.score_mate > 0 else '-'}M{abs(self.score_mate)}"
        if self.score_cp is not None:
            return f"{self.score_cp / 100:+.2f}"
        return ""

    def own_cp(self) -> int | None:
        """Score in centipawns from the engine's own side (mates mapped to +-100000)."""
        if self.score_mate is not None:
            return 100000 if self.score_mate > 0 else -100000
        return self.score_cp


def parse_info_line(line: str, info: SearchInfo) -> None:
    """Update ``info`` from a UCI ``info ...`` line (ignores ``info string``)."""
    toks = line.split()
    if len(toks) < 2 or toks[0] != "info" or toks[1] == "string":
        return
    i = 1
    while i < len(toks):
        t = toks[i]
        try:
            if t == "depth":
                info.depth = int(toks[i + 1])
                i += 2
            elif t == "nodes":
                info.nodes = int(toks[i + 1])
                i += 2
            elif t == "score":
                kind = toks[i + 1]
                val = int(toks[i + 2])
                if kind == "cp":
                    info.score_cp, info.score_mate = val, None
                elif kind == "mate":
                    info.score_mate, info.score_cp = val, None
                i += 3
                while i < len(toks) and toks[i] in ("lowerbound", "upperbound"):
                    i += 1
            elif t == "pv":
                info.pv = toks[i + 1:]
                break
            else:
                i += 1
        except (IndexError, ValueError):
            i += 1


def split_command(cmd: str | Sequence[str]) -> list[str]:
    if isinstance(cmd, str):
        return shlex.split(cmd)
    return list(cmd)


class UciEngine:
    """Minimal UCI client.  All reads take a timeout; failures raise EngineError."""

    def __init__(self, cmd: str | Sequence[str], name: str | None = None, cwd: str | None = None,
                 stderr_path: str | None = None):
        self.argv = split_command(cmd)
        self.name = name or os.path.basename(self.argv[0])
        self.id_name: str | None = None
        self.options: dict[str, str] = {}
        self._queue: queue.Queue[str | None] = queue.Queue()
        stderr = open(stderr_path, "ab") if stderr_path else subprocess.DEVNULL
        try:
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                cwd=cwd, text=True, bufsize=1, errors="replace",
            )
        except OSError as exc:
            raise EngineCrash(f"{self.name}: cannot start {self.argv!r}: {exc}") from exc
        finally:
            if stderr_path:
                stderr.close()  # type: ignore[union-attr]
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()
        self.dead = False

    # -- low level ---------------------------------------------------------
    def _read_loop(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                self._queue.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self._queue.put(None)

    def send(self, line: str) -> None:
        if self.dead:
            raise EngineCrash(f"{self.name}: engine is not running")
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as exc:
            self.dead = True
            raise EngineCrash(f"{self.name}: write failed ({exc}); exit code {self.proc.poll()}") from exc

    def read_line(self, deadline: float) -> str:
        """Next stdout line; ``deadline`` is an absolute time.monotonic() value."""
        if self.dead:
            raise EngineCrash(f"{self.name}: engine is not running")
        remaining = deadline - time.monotonic()
        try:
            line = self._queue.get(timeout=max(0.0, remaining))
        except queue.Empty:
            raise EngineStall(f"{self.name}: no answer within the deadline") from None
        if line is None:
            self.dead = True
            try:
                code = self.proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                code = None
            raise EngineCrash(f"{self.name}: engine exited unexpectedly (exit code {code})")
        return line

    def wait_for(self, prefix: str, timeout: float) -> list[str]:
        """Read lines until one starts with ``prefix``; return all lines read (inclusive)."""
        deadline = time.monotonic() + timeout
        lines = []
        while True:
            line = self.read_line(deadline)
            lines.append(line)
            if line.startswith(prefix):
                return lines

    # -- UCI ---------------------------------------------------------------
    def uci(self, timeout: float = 10.0) -> None:
        self.send("uci")
        for line in self.wait_for("uciok", timeout):
            if line.startswith("id name "):
                self.id_name = line[len("id name "):].strip()
            elif line.startswith("option name "):
                rest = line[len("option name "):]
                name = rest.split(" type ")[0].strip()
                self.options[name.lower()] = name

    def setoption(self, name: str, value: object) -> None:
        if isinstance(value, bool):
            value = "true" if value else "false"
        self.send(f"setoption name {name} value {value}")

    def isready(self, timeout: float = 10.0) -> None:
        self.send("isready")
        self.wait_for("readyok", timeout)

    def configure(self, options: dict[str, object], timeout: float = 10.0) -> None:
        for k, v in options.items():
            self.setoption(k, v)
        self.isready(timeout)

    def position(self, fen: str | None, moves: Iterable[str]) -> None:
        base = "position startpos" if fen is None else f"position fen {fen}"
        moves = list(moves)
        self.send(base + (" moves " + " ".join(moves) if moves else ""))

    def go(self, go_args: str, timeout: float) -> tuple[str, SearchInfo, float]:
        """Send ``go <args>``; return (bestmove, last info, elapsed seconds).

        Raises EngineStall when no ``bestmove`` arrives within ``timeout`` seconds and
        EngineCrash when the process dies.
        """
        info = SearchInfo()
        start = time.monotonic()
        self.send("go " + go_args if go_args else "go")
        deadline = start + timeout
        while True:
            line = self.read_line(deadline)
            if line.startswith("info"):
                parse_info_line(line, info)
            elif line.startswith("bestmove"):
                elapsed = time.monotonic() - start
                toks = line.split()
                return (toks[1] if len(toks) > 1 else ""), info, elapsed

    def perft_text(self, fen: str | None, depth: int, timeout: float) -> tuple[str, float]:
        """Run ``go perft depth``; return the raw output up to ``Nodes searched`` and the time."""
        self.position(fen, [])
        start = time.monotonic()
        self.send(f"go perft {depth}")
        lines = self.wait_for("Nodes searched", timeout)
        elapsed = time.monotonic() - start
        return "\n".join(lines) + "\n", elapsed

    def quit(self, timeout: float = 2.0) -> None:
        if self.proc.poll() is None:
            try:
                if not self.dead:
                    self.send("quit")
            except EngineError:
                pass
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                try:
                    self.proc.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    pass
        self.dead = True
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                if f:
                    f.close()
            except OSError:
                pass

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
        self.dead = True

    def __enter__(self) -> "UciEngine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()
