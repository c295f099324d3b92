"""The game a GUI saved, checked against what each engine said over UCI (for scripts/gui-check).

XBoard writes the game record (PGN); Polyglot, the adapter between XBoard's protocol and a UCI
engine, logs every line the engine sent. A move the GUI played for an engine must be the
`bestmove` that engine sent, in the same order: that is what shows the engine was loaded, asked
and obeyed, rather than a game that merely exists.
"""

import io
import re
from dataclasses import dataclass, field

import chess
import chess.pgn

# A Polyglot log line: "<seconds> Engine->Adapter: bestmove e2e4 ponder c7c5".
_BESTMOVE = re.compile(r"^\S+ Engine->Adapter: bestmove (\S+)", re.MULTILINE)
_ID_NAME = re.compile(r"^\S+ Engine->Adapter: id name (.+?)\s*$", re.MULTILINE)
FINISHED_RESULTS = ("1-0", "0-1", "1/2-1/2")


def polyglot_bestmoves(log_text: str) -> list[str]:
    """The moves the engine answered with, in order, from a Polyglot log."""
    return _BESTMOVE.findall(log_text)


def polyglot_engine_name(log_text: str) -> str | None:
    """The engine's `id name`, as Polyglot read it."""
    m = _ID_NAME.search(log_text)
    return m.group(1) if m else None


def last_game(pgn_text: str) -> chess.pgn.Game | None:
    """The last game of a PGN text (XBoard appends one game per finished game)."""
    stream = io.StringIO(pgn_text)
    game = None
    while True:
        nxt = chess.pgn.read_game(stream)
        if nxt is None:
            return game
        game = nxt


def finished_game(pgn_text: str) -> chess.pgn.Game | None:
    """The last game if it has a result (the GUI writes the record when the game ends), else None."""
    game = last_game(pgn_text)
    if game is None or game.headers.get("Result") not in FINISHED_RESULTS:
        return None
    return game


def moves_by_colour(game: chess.pgn.Game, colour: chess.Color) -> list[str]:
    """The moves of one side in the game record, in UCI notation, from the game's start position."""
    board = game.board()
    moves = []
    for move in game.mainline_moves():
        if board.turn == colour:
            moves.append(move.uci())
        board.push(move)
    return moves


def end_comment(game: chess.pgn.Game) -> str:
    """How the game ended, as the GUI wrote it (e.g. "Xboard adjudication: long game")."""
    return game.end().comment.strip()


@dataclass
class SideCheck:
    """One engine's side of the game: its name in the record, its moves, and what it sent."""
    colour: chess.Color
    name: str
    record_moves: list[str]
    bestmoves: list[str]
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def check_side(game: chess.pgn.Game, colour: chess.Color, log_text: str, expect_name: str | None,
               min_moves: int) -> SideCheck:
    """Check that every move the record gives `colour` is the engine's own `bestmove`, in order.

    `expect_name`: the record's name for that side must start with it (case-insensitive);
    `min_moves`: the side must have played at least this many moves. The log may hold one
    `bestmove` more than the record (a search the end of the game overtook), no more.
    """
    tag = "White" if colour == chess.WHITE else "Black"
    side = SideCheck(colour, game.headers.get(tag, "?"), moves_by_colour(game, colour),
                     polyglot_bestmoves(log_text))
    if expect_name is not None and not side.name.lower().startswith(expect_name.lower()):
        side.problems.append(f"the record's {tag} is '{side.name}', not {expect_name}")
    if len(side.record_moves) < min_moves:
        side.problems.append(f"{tag} played {len(side.record_moves)} moves in the record, fewer than {min_moves}")
    if not side.bestmoves:
        side.problems.append(f"{tag}'s engine log has no bestmove: the engine never answered a search")
        return side
    for i, (played, sent) in enumerate(zip(side.record_moves, side.bestmoves)):
        if played != sent:
            side.problems.append(f"{tag}'s move {i + 1} is {played} in the record, but the engine sent bestmove {sent}")
            break
    if len(side.bestmoves) < len(side.record_moves):
        side.problems.append(f"the record has {len(side.record_moves)} moves by {tag}, "
                             f"but its engine sent only {len(side.bestmoves)} bestmoves")
    elif len(side.bestmoves) > len(side.record_moves) + 1:
        side.problems.append(f"{tag}'s engine sent {len(side.bestmoves)} bestmoves, "
                             f"but only {len(side.record_moves)} of them are in the record")
    return side


def record_problems(game: chess.pgn.Game) -> list[str]:
    """Problems of the record itself: unreadable or illegal moves, no result."""
    problems = [f"the PGN does not read cleanly: {err}" for err in game.errors]
    if game.headers.get("Result") not in FINISHED_RESULTS:
        problems.append(f"the game has no result ({game.headers.get('Result', 'no Result tag')})")
    return problems
