"""Playing one game between two UCI engines with our own clock keeping.

Used by scripts/match.  Rules applied automatically (no claims needed):
checkmate, stalemate, threefold repetition, fifty-move rule (halfmove clock
>= 100 and not mate), insufficient material.  An illegal move, a crash or a
stall loses for the offender; running out of time loses too, unless the
opponent cannot possibly mate (then it is a draw, as in FIDE rules).
"""

from __future__ import annotations

import datetime
import os
import random
import re
import shlex
from dataclasses import dataclass, field

import chess
import chess.pgn

from .uci_engine import EngineCrash, EngineError, EngineStall, UciEngine

# Result reasons -> (PGN Termination tag, is a "normal" ending)
TERMINATIONS = {
    "checkmate": "normal",
    "stalemate": "normal",
    "threefold repetition": "normal",
    "fifty-move rule": "normal",
    "insufficient material": "normal",
    "time forfeit": "time forfeit",
    "illegal move": "rules infraction",
    "crash": "abandoned",
    "stall": "stalled connection",
    "adjudication": "adjudication",
}


# ---------------------------------------------------------------------------
# Engine specs / time control / openings
# ---------------------------------------------------------------------------

@dataclass
class EngineSpec:
    name: str
    cmd: list[str]
    options: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    stderr: str | None = None

    @classmethod
    def parse(cls, tokens: list[str]) -> "EngineSpec":
        """Parse ``name=X cmd=PATH option.Hash=16 dir=DIR stderr=FILE``."""
        name = None
        cmd = None
        options: dict[str, str] = {}
        cwd = stderr = None
        for tok in tokens:
            if "=" not in tok:
                raise ValueError(f"engine token {tok!r} is not key=value")
            key, value = tok.split("=", 1)
            if key == "name":
                name = value
            elif key == "cmd":
                cmd = shlex.split(value)
            elif key.startswith("option."):
                options[key[len("option."):]] = value
            elif key == "dir":
                cwd = value
            elif key == "stderr":
                stderr = value
            else:
                raise ValueError(f"unknown engine key {key!r} (use name=, cmd=, option.X=, dir=, stderr=)")
        if not cmd:
            raise ValueError(f"engine spec {' '.join(tokens)!r} lacks cmd=")
        if name is None:
            name = os.path.basename(cmd[0])
        return cls(name, cmd, options, cwd, stderr)


@dataclass
class TimeControl:
    base: float
    inc: float

    @classmethod
    def parse(cls, text: str) -> "TimeControl":
        m = re.fullmatch(r"\s*([\d.]+)\s*(?:\+\s*([\d.]+))?\s*", text)
        if not m:
            raise ValueError(f"bad time control {text!r} (use base+inc in seconds, e.g. 10+0.1)")
        base = float(m.group(1))
        inc = float(m.group(2) or 0.0)
        if base <= 0:
            raise ValueError("time control base must be > 0")
        return cls(base, inc)

    def pgn(self) -> str:
        def f(x: float) -> str:
            return f"{x:g}"
        return f"{f(self.base)}+{f(self.inc)}" if self.inc else f(self.base)


@dataclass
class Opening:
    fen: str
    moves: list[str] = field(default_factory=list)  # UCI moves played from fen (PGN openings)
    name: str = ""


def opening_from_epd_line(line: str) -> Opening:
    fields = line.split()
    if len(fields) >= 6 and fields[4].isdigit() and fields[5].rstrip(";").isdigit():
        board = chess.Board(" ".join(fields[:6]))
    else:
        board = chess.Board()
        board.set_epd(line)
    return Opening(board.fen())


def load_openings(path: str) -> list[Opening | str]:
    """EPD (one FEN/EPD per line) or PGN (mainline moves of each game) openings.

    EPD lines are returned unparsed (parsing 100k+ FENs is slow); choose_openings()
    parses the ones it picks.
    """
    if path.lower().endswith(".pgn"):
        out: list[Opening | str] = []
        with open(path, encoding="utf-8", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                board = game.board()
                moves = [mv.uci() for mv in game.mainline_moves()]
                out.append(Opening(board.fen(), moves, game.headers.get("Opening", "")))
        return out
    with open(path, encoding="utf-8") as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.lstrip().startswith("#")]


def choose_openings(openings: list[Opening | str], count: int, seed: int) -> list[Opening]:
    """``count`` openings in random order (without repetition while possible)."""
    rng = random.Random(seed)
    if not openings:
        return [Opening(chess.STARTING_FEN)] * count
    out: list[Opening] = []
    while len(out) < count:
        for i in rng.sample(range(len(openings)), min(count - len(out), len(openings))):
            o = openings[i]
            out.append(o if isinstance(o, Opening) else opening_from_epd_line(o))
    return out


# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------

def rules_outcome(board: chess.Board) -> tuple[str, str] | None:
    """(result, reason) if the game is over by the rules, else None.

    Claimable draws (threefold, fifty moves) are applied automatically.
    """
    if board.is_checkmate():
        return ("0-1" if board.turn == chess.WHITE else "1-0"), "checkmate"
    if not any(board.generate_legal_moves()):
        return "1/2-1/2", "stalemate"
    if board.is_insufficient_material():
        return "1/2-1/2", "insufficient material"
    if board.halfmove_clock >= 100:
        return "1/2-1/2", "fifty-move rule"
    if board.is_repetition(3):
        return "1/2-1/2", "threefold repetition"
    return None


def loss_for(color: chess.Color) -> str:
    return "0-1" if color == chess.WHITE else "1-0"


# ---------------------------------------------------------------------------
# Game
# ---------------------------------------------------------------------------

@dataclass
class Adjudication:
    draw_movenumber: int | None = None  # full move number from which draw adjudication may happen
    draw_movecount: int = 0
    draw_score: int = 0
    resign_movecount: int | None = None
    resign_score: int = 0


@dataclass
class GameResult:
    white: str
    black: str
    result: str  # "1-0", "0-1", "1/2-1/2", "*"
    reason: str
    offender: str | None = None  # engine name blamed for illegal/crash/stall/time forfeit
    detail: str = ""
    opening: Opening | None = None
    moves: list[str] = field(default_factory=list)  # UCI, after the opening moves
    comments: list[str] = field(default_factory=list)
    plies: int = 0
    overrun_ms: dict[str, float] = field(default_factory=dict)

    def score_for(self, name: str) -> float:
        if self.result == "1/2-1/2":
            return 0.5
        white_won = self.result == "1-0"
        return 1.0 if (white_won == (name == self.white)) else 0.0

    def to_pgn(self, event: str, round_no: str, tc: TimeControl | None) -> str:
        assert self.opening is not None
        board = chess.Board(self.opening.fen)
        game = chess.pgn.Game()
        game.headers["Event"] = event
        game.headers["Site"] = os.uname().nodename if hasattr(os, "uname") else "?"
        game.headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
        game.headers["Round"] = round_no
        game.headers["White"] = self.white
        game.headers["Black"] = self.black
        game.headers["Result"] = self.result
        if tc:
            game.headers["TimeControl"] = tc.pgn()
        game.headers["Termination"] = TERMINATIONS.get(self.reason, "unterminated")
        if board.fen() != chess.STARTING_FEN:
            game.setup(board)
        node: chess.pgn.GameNode = game
        for mv in self.opening.moves:
            node = node.add_variation(board.parse_uci(mv))
            node.comment = "book"
            board.push(node.move)
        for mv, comment in zip(self.moves, self.comments):
            node = node.add_variation(board.parse_uci(mv))
            node.comment = comment
            board.push(node.move)
        text = self.reason + (f" ({self.offender})" if self.offender else "")
        if self.detail:
            text += f": {self.detail}"
        if node is game:
            game.comment = text
        else:
            node.comment = (node.comment + ", " if node.comment else "") + text
        return str(game) + "\n\n"


def _ms(seconds: float) -> int:
    return max(1, int(round(seconds * 1000)))


def play_game(white: EngineSpec, black: EngineSpec, opening: Opening, tc: TimeControl,
              stall_min: float = 5.0, time_margin_ms: float = 0.0,
              adjudication: Adjudication | None = None, engine_timeout: float = 10.0) -> GameResult:
    """Play one game; never raises for engine misbehaviour (it is recorded in the result)."""
    board = chess.Board(opening.fen)
    for mv in opening.moves:
        board.push_uci(mv)
    specs = {chess.WHITE: white, chess.BLACK: black}
    res = GameResult(white.name, black.name, "*", "", opening=opening)
    engines: dict[chess.Color, UciEngine] = {}

    def fail(color: chess.Color, reason: str, detail: str) -> GameResult:
        res.result = loss_for(color)
        res.reason = reason
        res.offender = specs[color].name
        res.detail = detail
        return res

    try:
        for color in (chess.WHITE, chess.BLACK):
            spec = specs[color]
            try:
                eng = UciEngine(spec.cmd, spec.name, cwd=spec.cwd, stderr_path=spec.stderr)
                engines[color] = eng
                eng.uci(engine_timeout)
                eng.configure(spec.options, engine_timeout)
                eng.send("ucinewgame")
                eng.isready(engine_timeout)
            except EngineStall as exc:
                return fail(color, "stall", f"during startup: {exc}")
            except EngineCrash as exc:
                return fail(color, "crash", f"during startup: {exc}")

        start_fen = opening.fen if opening.fen != chess.STARTING_FEN else None
        played: list[str] = list(opening.moves)
        clocks = {chess.WHITE: tc.base, chess.BLACK: tc.base}
        history: dict[chess.Color, list[int | None]] = {chess.WHITE: [], chess.BLACK: []}
        while True:
            over = rules_outcome(board)
            if over:
                res.result, res.reason = over
                return res
            side = board.turn
            eng = engines[side]
            go_args = (f"wtime {_ms(clocks[chess.WHITE])} btime {_ms(clocks[chess.BLACK])} "
                       f"winc {int(tc.inc * 1000)} binc {int(tc.inc * 1000)}")
            timeout = max(stall_min, 3.0 * (clocks[side] + tc.inc))
            try:
                eng.position(start_fen, played)
                best, info, elapsed = eng.go(go_args, timeout)
            except EngineStall:
                return fail(side, "stall", f"no bestmove within {timeout:.1f}s")
            except EngineCrash as exc:
                return fail(side, "crash", str(exc))
            clocks[side] -= elapsed
            if clocks[side] * 1000.0 < -time_margin_ms:
                over_ms = -clocks[side] * 1000.0
                res.overrun_ms[specs[side].name] = over_ms
                if board.has_insufficient_material(not side):
                    res.result, res.reason = "1/2-1/2", "time forfeit"
                    res.offender = specs[side].name
                    res.detail = f"flag fell ({over_ms:.0f} ms over) but the opponent cannot mate"
                    return res
                return fail(side, "time forfeit", f"{over_ms:.0f} ms over")
            clocks[side] += tc.inc
            try:
                move = board.parse_uci(best)
                if not move:  # null move "0000" is never legal here
                    raise ValueError("null move")
            except ValueError:
                return fail(side, "illegal move", f"bestmove {best!r} in {board.fen()}")
            uci = board.uci(move)
            played.append(uci)
            res.moves.append(uci)
            score = info.score_str()
            depth = f"/{info.depth}" if info.depth is not None else ""
            res.comments.append(f"{score}{depth} {elapsed:.3f}s".strip())
            board.push(move)
            res.plies += 1

            if adjudication:
                history[side].append(info.own_cp())
                adj = _adjudicate(board, history, adjudication, specs)
                if adj and rules_outcome(board) is None:  # the rules take precedence
                    res.result, res.reason, res.detail = adj
                    return res
    finally:
        for eng in engines.values():
            try:
                eng.quit(timeout=1.0)
            except Exception:  # noqa: BLE001 - best effort cleanup
                eng.kill()


def _adjudicate(board: chess.Board, history: dict[chess.Color, list[int | None]], adj: Adjudication,
                specs: dict[chess.Color, EngineSpec]) -> tuple[str, str, str] | None:
    """Scores in ``history`` are from each engine's own point of view."""
    if adj.resign_movecount:
        n = adj.resign_movecount
        for color in (chess.WHITE, chess.BLACK):
            mine, theirs = history[color][-n:], history[not color][-n:]
            if (len(mine) == n and len(theirs) == n and all(s is not None and s <= -adj.resign_score for s in mine)
                    and all(s is not None and s >= adj.resign_score for s in theirs)):
                return loss_for(color), "adjudication", f"{specs[color].name} resigns (score <= -{adj.resign_score})"
    if adj.draw_movenumber is not None and board.fullmove_number >= adj.draw_movenumber and adj.draw_movecount:
        n = adj.draw_movecount
        w, b = history[chess.WHITE][-n:], history[chess.BLACK][-n:]
        if (len(w) == n and len(b) == n
                and all(s is not None and abs(s) <= adj.draw_score for s in w + b)):
            return "1/2-1/2", "adjudication", f"draw (|score| <= {adj.draw_score} for {n} moves)"
    return None
