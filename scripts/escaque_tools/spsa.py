"""SPSA over games: the schedule and update of OpenBench's SPSA, kept free of any engine or
match runner so the arithmetic can be tested on its own.

Each tunable comes as OpenBench's line `Name, int, default, min, max, c_end, r_end`.
For a run of `iterations` steps (alpha 0.602, gamma 0.101, A = 10% of the run):

    c      = c_end * iterations ** gamma          c_k = c / k ** gamma
    a_end  = r_end * c_end ** 2                    a   = a_end * (A + iterations) ** alpha
    a_k    = a / (A + k) ** alpha                  R_k = a_k / c_k ** 2

Step k plays `pairs` game pairs between theta + c_k * delta and theta - c_k * delta (delta a
random sign per tunable) and moves theta by R_k * c_k * (wins - losses) * delta, the results
counted for the plus side. c_end is the perturbation at the end of the run and r_end the
learning rate at its end, so the last steps move a tunable by about r_end * c_end per net win.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Dict, List

ALPHA = 0.602
GAMMA = 0.101


@dataclasses.dataclass
class Tunable:
    name: str
    value: float
    minimum: int
    maximum: int
    c_end: float
    r_end: float

    @staticmethod
    def parse(line: str) -> "Tunable":
        """One OpenBench SPSA line: `Name, int, default, min, max, c_end, r_end`."""
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 7 or fields[1] != "int":
            raise ValueError(f"not an SPSA line (Name, int, default, min, max, c_end, r_end): {line!r}")
        name, _, default, lo, hi, c_end, r_end = fields
        tunable = Tunable(name, float(default), int(lo), int(hi), float(c_end), float(r_end))
        if not tunable.minimum <= tunable.value <= tunable.maximum:
            raise ValueError(f"{name}: default {default} outside [{lo}, {hi}]")
        if tunable.c_end <= 0 or tunable.r_end <= 0:
            raise ValueError(f"{name}: c_end and r_end must be positive")
        return tunable

    def clamp(self, value: float) -> float:
        return min(max(value, float(self.minimum)), float(self.maximum))

    def setting(self) -> int:
        """Theta as the engine takes it (an integer option)."""
        return int(round(self.value))


def parse_table(text: str) -> List[Tunable]:
    return [Tunable.parse(line) for line in text.splitlines() if line.strip()]


@dataclasses.dataclass
class Step:
    """What step `k` plays: the two engines' integer settings and the signs that made them."""

    k: int
    delta: Dict[str, int]
    c_k: Dict[str, float]
    plus: Dict[str, int]
    minus: Dict[str, int]


def gains(t: Tunable, k: int, iterations: int) -> tuple[float, float]:
    """(c_k, R_k) of tunable `t` at step `k` (1-based) of a run of `iterations`."""
    big_a = 0.1 * iterations
    c = t.c_end * iterations**GAMMA
    a_end = t.r_end * t.c_end**2
    a = a_end * (big_a + iterations) ** ALPHA
    c_k = c / k**GAMMA
    a_k = a / (big_a + k) ** ALPHA
    return c_k, a_k / c_k**2


def plan_step(tunables: List[Tunable], k: int, iterations: int, rng: random.Random) -> Step:
    """The perturbation of step `k`: a random sign per tunable, each side rounded and kept in
    range (the engine takes integers)."""
    delta, c_ks, plus, minus = {}, {}, {}, {}
    for t in tunables:
        sign = rng.choice((-1, 1))
        c_k, _ = gains(t, k, iterations)
        delta[t.name] = sign
        c_ks[t.name] = c_k
        plus[t.name] = int(round(t.clamp(t.value + c_k * sign)))
        minus[t.name] = int(round(t.clamp(t.value - c_k * sign)))
    return Step(k, delta, c_ks, plus, minus)


def apply_result(tunables: List[Tunable], step: Step, iterations: int, wins: int, losses: int) -> None:
    """Moves every tunable by R_k * c_k * (wins - losses) * delta (results of the plus side)."""
    for t in tunables:
        c_k, r_k = gains(t, step.k, iterations)
        t.value = t.clamp(t.value + r_k * c_k * (wins - losses) * step.delta[t.name])


def score_pgn(text: str, plus: str, minus: str) -> tuple[int, int, int]:
    """(wins, losses, draws) of engine `plus` against `minus` in a PGN file's finished games."""
    import re

    wins = losses = draws = 0
    for block in re.split(r"\n(?=\[Event )", "\n" + text):
        tags = dict(re.findall(r'^\[(\w+)\s+"([^"]*)"\]', block, re.M))
        white, black, result = tags.get("White"), tags.get("Black"), tags.get("Result")
        if {white, black} != {plus, minus}:
            continue
        if result == "1/2-1/2":
            draws += 1
        elif result in ("1-0", "0-1"):
            if (result == "1-0") == (white == plus):
                wins += 1
            else:
                losses += 1
    return wins, losses, draws


# The settings a run keeps from its first step to its last: resuming with other pairs or another
# time control would change what a step measures halfway through the schedule.
RUN_SETTINGS = {"pairs": 4, "tc": "2+0.02"}


def settle_settings(state: dict, given: Dict[str, object]) -> Dict[str, object]:
    """The run's settings: those stored in `state` (a state written before settings were stored
    gets the given or default ones), with any value given on the command line (not None) checked
    against them. Stores them in `state` and returns them."""
    stored = state.setdefault("settings", {})
    for name, default in RUN_SETTINGS.items():
        value = given.get(name)
        if name in stored:
            if value is not None and value != stored[name]:
                raise ValueError(f"this run plays with {name} {stored[name]!r}, not {value!r}: "
                                 "start a new state file to change it")
        else:
            stored[name] = default if value is None else value
    return dict(stored)


def match_options(tunables: List[Tunable]) -> List[str]:
    """Theta as the engine's integer settings, one `option.Name=value` argument each: what
    `scripts/match --engine` (and fastchess' `-engine`) takes for the confirmation match."""
    return [f"option.{t.name}={t.setting()}" for t in tunables]
