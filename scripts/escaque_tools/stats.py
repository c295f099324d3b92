"""Elo, error bars, pentanomial bookkeeping and SPRT maths.

Conventions
-----------
* Scores are from the point of view of the *first* (measured) engine:
  win = 1, draw = 0.5, loss = 0.
* Pentanomial vectors are ordered like fastchess / OpenBench:
  ``[LL, LD, DD+WL, WD, WW]`` -- index ``i`` holds the number of game pairs
  (same opening, colours reversed) in which the measured engine scored
  ``i / 2`` points out of 2.
* Logistic Elo: ``elo = -400 * log10(1 / score - 1)``.
* Error bars: normal approximation of the mean score, ``z = 1.95996`` for a 95%
  interval, mapped through the logistic Elo curve; the reported ``+-`` is half
  of the resulting (slightly asymmetric) Elo interval.  The variance is the
  per-game variance for trinomial (W/D/L) statistics and the per-pair variance
  of the pair score (scaled to [0, 1]) for pentanomial statistics.

SPRT
----
We implement the generalised SPRT (GSPRT) of Michel Van den Bergh
("Comments on Normalized Elo", section 4.1 for normalized Elo, proposition
1.1 for logistic Elo), which is what fastchess (default model "normalized")
and fishtest use: for each hypothesis we compute the maximum-likelihood
distribution over the 5 (or 3) outcomes subject to the hypothesis and the
LLR is ``N * sum_i phat_i * log(p1_i / p0_i)``.  Zero buckets are
regularised to 1e-3 as in fastchess.  The default model is ``normalized``
(elo0/elo1 are normalized Elo), ``logistic`` is available too (elo0/elo1 are
logistic Elo, the OpenBench / cutechess convention).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

Z95 = 1.959963984540054
NELO_SCALE = 800.0 / math.log(10.0)  # d(Elo)/d(score) at score 0.5 is 1600/ln10; nElo uses 800/ln10

PENTA_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
TRI_SCORES = (0.0, 0.5, 1.0)
PENTA_LABELS = ("LL", "LD", "DD/WL", "WD", "WW")


# ---------------------------------------------------------------------------
# Elo <-> score
# ---------------------------------------------------------------------------

def elo_from_score(score: float) -> float:
    """Logistic Elo difference for an expected score in [0, 1]."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score for a logistic Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority (draws ignored), in [0, 1]."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


# ---------------------------------------------------------------------------
# Distributions
# ---------------------------------------------------------------------------

def _mean_var(scores: Sequence[float], probs: Sequence[float]) -> tuple[float, float]:
    mu = sum(a * p for a, p in zip(scores, probs))
    var = sum(p * (a - mu) ** 2 for a, p in zip(scores, probs))
    return mu, var


def trinomial_mean_var(wins: int, draws: int, losses: int) -> tuple[int, float, float]:
    """Return (games, mean score, per-game variance)."""
    n = wins + draws + losses
    if n == 0:
        return 0, 0.5, 0.0
    mu, var = _mean_var(TRI_SCORES, (losses / n, draws / n, wins / n))
    return n, mu, var


def pentanomial_mean_var(penta: Sequence[int]) -> tuple[int, float, float]:
    """Return (pairs, mean score per game, per-pair variance of pair score / 2)."""
    if len(penta) != 5:
        raise ValueError("pentanomial vector must have 5 entries [LL, LD, DD/WL, WD, WW]")
    n = sum(penta)
    if n == 0:
        return 0, 0.5, 0.0
    mu, var = _mean_var(PENTA_SCORES, [c / n for c in penta])
    return n, mu, var


@dataclass
class EloEstimate:
    elo: float
    error: float  # half-width of the 95% interval, in Elo
    lower: float
    upper: float
    score: float

    def meaningful(self) -> bool:
        """Whether the games say anything yet: a finite Elo with a finite, non-zero error bar
        (all games won or lost gives +-inf; all pairs split, no variance at all)."""
        return math.isfinite(self.elo) and math.isfinite(self.error) and self.error > 0

    def fmt(self) -> str:
        if not self.meaningful():
            return "n/a (not measurable yet: needs wins, losses and results that differ)"
        elo = round(self.elo, 2) + 0.0  # no "-0.00"
        return f"{elo:+.2f} +/- {self.error:.2f}"


def elo_estimate(mean: float, var: float, n: int, z: float = Z95) -> EloEstimate:
    """Elo and 95% error bar from a mean score, a per-sample variance and a sample count."""
    elo = elo_from_score(mean)
    if n <= 0:
        return EloEstimate(elo, math.inf, -math.inf, math.inf, mean)
    stderr = math.sqrt(var / n)
    lo_s, hi_s = mean - z * stderr, mean + z * stderr
    lo, hi = elo_from_score(lo_s), elo_from_score(hi_s)
    err = (hi - lo) / 2.0 if not (math.isinf(lo) or math.isinf(hi)) else math.inf
    return EloEstimate(elo, err, lo, hi, mean)


def elo_trinomial(wins: int, draws: int, losses: int) -> EloEstimate:
    n, mu, var = trinomial_mean_var(wins, draws, losses)
    return elo_estimate(mu, var, n)


def elo_pentanomial(penta: Sequence[int]) -> EloEstimate:
    n, mu, var = pentanomial_mean_var(penta)
    return elo_estimate(mu, var, n)


def normalized_elo_pentanomial(penta: Sequence[int]) -> float:
    """Normalized Elo (fishtest / fastchess convention) from a pentanomial vector."""
    n, mu, var = pentanomial_mean_var(penta)
    if n == 0 or var <= 0:
        return 0.0 if mu == 0.5 else math.copysign(math.inf, mu - 0.5)
    t = (mu - 0.5) / math.sqrt(var)
    return t * NELO_SCALE / math.sqrt(2.0)


# ---------------------------------------------------------------------------
# Pentanomial pairing
# ---------------------------------------------------------------------------

def pair_index(score_game1: float, score_game2: float) -> int:
    """Index into [LL, LD, DD/WL, WD, WW] for the two scores (0/0.5/1) of a pair."""
    for s in (score_game1, score_game2):
        if s not in (0, 0.5, 1):
            raise ValueError(f"invalid game score {s!r}")
    return int(round((score_game1 + score_game2) * 2))


def pentanomial_from_pairs(pairs: Sequence[tuple[float, float]]) -> list[int]:
    penta = [0] * 5
    for a, b in pairs:
        penta[pair_index(a, b)] += 1
    return penta


# ---------------------------------------------------------------------------
# SPRT
# ---------------------------------------------------------------------------

def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """(lower, upper) LLR bounds: log(beta/(1-alpha)), log((1-beta)/alpha)."""
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise ValueError("alpha and beta must be in (0, 1) with alpha + beta < 1")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _solve_theta(phat: Sequence[float], phi: Sequence[float]) -> float:
    """Solve sum_i phat_i * phi_i / (1 + theta * phi_i) = 0 for theta (bisection).

    The left-hand side is strictly decreasing in theta on the admissible interval
    (-1/max(phi), -1/min(phi)), going from +inf to -inf, so the root is unique.
    """
    u, v = min(phi), max(phi)
    if not (u < 0 < v):
        raise ValueError("hypothesis outside the support of the observed outcomes")
    lo, hi = -1.0 / v, -1.0 / u
    span = hi - lo
    lo += span * 1e-12
    hi -= span * 1e-12

    def f(x: float) -> float:
        return sum(p * q / (1.0 + x * q) for p, q in zip(phat, phi))

    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15:
            break
    return 0.5 * (lo + hi)


def _mle_logistic(scores: Sequence[float], phat: Sequence[float], s: float) -> list[float]:
    """ML distribution with expectation ``s`` (Van den Bergh, prop. 1.1)."""
    phi = [a - s for a in scores]
    theta = _solve_theta(phat, phi)
    return [p / (1.0 + theta * q) for p, q in zip(phat, phi)]


def _mle_normalized(scores: Sequence[float], phat: Sequence[float], mu_ref: float, t_star: float) -> list[float]:
    """ML distribution with (mu - mu_ref) / sigma = t_star (Van den Bergh, section 4.1)."""
    n = len(scores)
    p = [1.0 / n] * n
    for _ in range(50):
        mu, var = _mean_var(scores, p)
        sigma = math.sqrt(var)
        phi = [a - mu_ref - 0.5 * t_star * sigma * (1.0 + ((a - mu) / sigma) ** 2) for a in scores]
        theta = _solve_theta(phat, phi)
        new_p = [ph / (1.0 + theta * q) for ph, q in zip(phat, phi)]
        diff = max(abs(a - b) for a, b in zip(new_p, p))
        p = new_p
        if diff < 1e-9:
            break
    return p


def _regularize(counts: Sequence[float]) -> list[float]:
    return [c if c > 0 else 1e-3 for c in counts]


def _llr(scores: Sequence[float], counts: Sequence[float], elo0: float, elo1: float, model: str,
         t_factor: float) -> float:
    counts = _regularize(counts)
    total = sum(counts)
    phat = [c / total for c in counts]
    if model == "normalized":
        t0, t1 = t_factor * elo0 / NELO_SCALE, t_factor * elo1 / NELO_SCALE
        p0 = _mle_normalized(scores, phat, 0.5, t0)
        p1 = _mle_normalized(scores, phat, 0.5, t1)
    elif model == "logistic":
        p0 = _mle_logistic(scores, phat, score_from_elo(elo0))
        p1 = _mle_logistic(scores, phat, score_from_elo(elo1))
    else:
        raise ValueError(f"unknown SPRT model {model!r} (use 'normalized' or 'logistic')")
    return total * sum(ph * (math.log(b) - math.log(a)) for ph, a, b in zip(phat, p0, p1))


def llr_pentanomial(penta: Sequence[int], elo0: float, elo1: float, model: str = "normalized") -> float:
    """GSPRT log-likelihood ratio from a pentanomial vector [LL, LD, DD/WL, WD, WW]."""
    if sum(penta) == 0:
        return 0.0
    return _llr(PENTA_SCORES, penta, elo0, elo1, model, math.sqrt(2.0))


def llr_trinomial(wins: int, draws: int, losses: int, elo0: float, elo1: float,
                  model: str = "normalized") -> float:
    """GSPRT log-likelihood ratio from W/D/L counts."""
    if wins + draws + losses == 0:
        return 0.0
    return _llr(TRI_SCORES, (losses, draws, wins), elo0, elo1, model, 1.0)


def sprt_decision(llr: float, alpha: float = 0.05, beta: float = 0.05) -> str:
    """'H1' (accept elo1: pass), 'H0' (accept elo0: fail) or 'continue'."""
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return "continue"


# ---------------------------------------------------------------------------
# Accumulator used by scripts/match
# ---------------------------------------------------------------------------

@dataclass
class PairingStats:
    """Results of the measured engine against one opponent."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    penta: list[int] = field(default_factory=lambda: [0] * 5)
    _pending: dict = field(default_factory=dict)

    def add_game(self, score: float, pair_id: int | None = None) -> None:
        """Record one game score (1, 0.5, 0) of the measured engine.

        Games sharing ``pair_id`` (same opening, colours reversed) are combined into
        one pentanomial entry once both have been recorded.
        """
        if score == 1:
            self.wins += 1
        elif score == 0.5:
            self.draws += 1
        elif score == 0:
            self.losses += 1
        else:
            raise ValueError(f"invalid score {score!r}")
        if pair_id is None:
            return
        if pair_id in self._pending:
            first = self._pending.pop(pair_id)
            self.penta[pair_index(first, score)] += 1
        else:
            self._pending[pair_id] = score

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def elo(self) -> EloEstimate:
        """Pentanomial estimate when at least one pair is complete, trinomial otherwise."""
        if sum(self.penta) > 0:
            return elo_pentanomial(self.penta)
        return elo_trinomial(self.wins, self.draws, self.losses)

    def llr(self, elo0: float, elo1: float, model: str = "normalized") -> float:
        return llr_pentanomial(self.penta, elo0, elo1, model)
