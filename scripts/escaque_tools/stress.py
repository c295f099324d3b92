"""Reading the results of a time-control stress run (scripts/tc-stress) from fastchess PGNs."""

import re

# fastchess' Termination tags of games that ended on the board or by the runner's adjudication;
# any other ("time forfeit", "illegal move", "abandoned" for a crash, "stalled connection", ...)
# is an incident charged to the side that lost.
ON_THE_BOARD = ("normal", "adjudication")


def parse_pgn(path):
    """(white, black, result, termination) of every game in a fastchess PGN."""
    games, tags = [], {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r'\[(\w+) "(.*)"\]', line)
            if m:
                tags[m.group(1)] = m.group(2)
                continue
            if line.strip() == "" and "Result" in tags and "Termination" in tags:
                games.append((tags["White"], tags["Black"], tags["Result"], tags["Termination"]))
                tags = {}
    if "Result" in tags and "Termination" in tags:
        games.append((tags["White"], tags["Black"], tags["Result"], tags["Termination"]))
    return games


def summarise(games, measured):
    """W/D/L of `measured` and the incidents (kind -> {engine: count}) charged to the loser."""
    wins = draws = losses = 0
    incidents = {}
    for white, black, result, termination in games:
        if result == "1/2-1/2":
            draws += 1
        elif (result == "1-0") == (white == measured):
            wins += 1
        else:
            losses += 1
        kind = termination.strip().lower()
        if kind in ON_THE_BOARD:
            continue
        loser = black if result == "1-0" else white if result == "0-1" else "(draw)"
        incidents.setdefault(kind, {}).setdefault(loser, 0)
        incidents[kind][loser] += 1
    return wins, draws, losses, incidents
