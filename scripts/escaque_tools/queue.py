"""A resumable queue of fastchess matches, one folder each (`scripts/technique-matches`).

Two cores cannot play seven 400-game matches in one session, so each match lives in its own
folder with fastchess' own autosave (`config.json`: the settings, the openings' position and the
results so far) and is resumed from it; a `result.json` marks it finished. These helpers read
that state; the script drives fastchess.
"""

import json
import os
import signal
import subprocess
import time

from escaque_tools.stats import elo_pentanomial, normalized_elo_pentanomial

RESULT = "result.json"
CONFIG = "config.json"


def match_args(openings, srand, games, concurrency):
    """The fastchess arguments every queued match shares: EPD openings in random order from
    `srand`, each played with both colours (`games` must be even), fastchess' autosave every 10
    games, the project's adjudication, and the PGN and log in the match's folder."""
    if games < 2 or games % 2:
        raise ValueError("the number of games must be even and at least 2")
    return [
        "-openings", f"file={openings}", "format=epd", "order=random", "-srand", str(srand),
        "-repeat", "-games", "2", "-rounds", str(games // 2), "-concurrency", str(concurrency),
        "-recover", "-autosaveinterval", "10",
        "-resign", "movecount=3", "score=800", "-draw", "movenumber=40", "movecount=8", "score=8",
        "-pgnout", "file=games.pgn", "-log", "file=fastchess.log", "level=warn",
    ]


def run_match(command, folder, deadline=None):
    """Runs fastchess in `folder` (its output appended to fastchess.out) until it ends or
    `deadline` (a time.time()) passes; then interrupts it, so it saves its state. Returns True
    if it ended by itself."""
    with open(os.path.join(folder, "fastchess.out"), "a") as out:
        process = subprocess.Popen(command, cwd=folder, stdout=out, stderr=subprocess.STDOUT)
        while process.poll() is None:
            if deadline is not None and time.time() > deadline:
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    process.kill()
                return False
            time.sleep(2)
    return True


def _read_config(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _stats_of(config):
    stats = (config or {}).get("stats") or {}
    if not stats:
        return None
    s = next(iter(stats.values()))
    penta = [s.get("penta_LL", 0), s.get("penta_LD", 0), s.get("penta_DD", 0) + s.get("penta_WL", 0),
             s.get("penta_WD", 0), s.get("penta_WW", 0)]
    return {"wins": s.get("wins", 0), "draws": s.get("draws", 0), "losses": s.get("losses", 0), "penta": penta}


def read_config_stats(path):
    """The W/D/L and pentanomial counts [LL, LD, DD+WL, WD, WW] of the first pairing in a
    fastchess `config.json`, from the first engine's point of view; None if none yet."""
    return _stats_of(_read_config(path))


def state(folder):
    """'done' (a result.json), 'partial' (a config.json with fewer games than it plans: rounds
    times games a round), 'complete' (all of them: only the result is left to write) or 'new'."""
    if os.path.exists(os.path.join(folder, RESULT)):
        return "done"
    config = _read_config(os.path.join(folder, CONFIG))
    stats = _stats_of(config)
    if stats is None:
        return "new"
    planned = config.get("rounds", 0) * config.get("games", 0)
    played = stats["wins"] + stats["draws"] + stats["losses"]
    return "complete" if played >= planned else "partial"


def summary(stats):
    """Games, score, Elo with its 95% error (pentanomial) and normalized Elo of `stats`."""
    games = stats["wins"] + stats["draws"] + stats["losses"]
    estimate = elo_pentanomial(stats["penta"])
    return {
        **stats,
        "games": games,
        "score": (stats["wins"] + stats["draws"] / 2) / games if games else 0.0,
        "elo": estimate.elo if estimate.meaningful() else None,
        "error": estimate.error if estimate.meaningful() else None,
        "nelo": normalized_elo_pentanomial(stats["penta"]) if estimate.meaningful() else None,
    }


def line(name, result):
    """One line of the summary table."""
    if result is None:
        return f"{name:>16}  not started"
    elo = "n/a" if result["elo"] is None else f"{result['elo']:+7.1f} +/- {result['error']:5.1f}"
    return (f"{name:>16} {result['games']:>6} {result['wins']:>4} {result['draws']:>4} {result['losses']:>4}"
            f" {100 * result['score']:6.1f}%  {elo}  penta {result['penta']}")
