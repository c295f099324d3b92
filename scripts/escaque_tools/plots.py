"""Data behind the pictures in the README: readers for what escaque and scripts/match write,
and the figures drawn from them (matplotlib is imported only when a figure is drawn, so the
readers and their tests need nothing beyond the standard library)."""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass, field

from escaque_tools.stats import PairingStats

# ---------------------------------------------------------------------------
# The win-rate model (escaque data wdl-fit --csv)
# ---------------------------------------------------------------------------

MATERIAL_MIN, MATERIAL_MAX, MATERIAL_REFERENCE = 17, 78, 58.0


@dataclass
class WdlFit:
    a: list[float]
    b: list[float]
    rows: list[dict]

    def params(self, material: float) -> tuple[float, float]:
        """a(m) and b(m), as src/wdl/model.rs computes them."""
        x = min(max(material, MATERIAL_MIN), MATERIAL_MAX) / MATERIAL_REFERENCE
        cubic = lambda c: ((c[0] * x + c[1]) * x + c[2]) * x + c[3]  # noqa: E731
        return cubic(self.a), cubic(self.b)

    def win(self, score: float, material: float) -> float:
        a, b = self.params(material)
        return 1.0 / (1.0 + math.exp((a - score) / b))


def read_wdl_csv(text: str) -> WdlFit:
    """The parameters (`# a = ...`, `# b = ...`) and the rows of a `wdl-fit --csv` file."""
    coefficients = {}
    data_lines = []
    for line in text.splitlines():
        m = re.match(r"#\s*([ab])\s*=\s*(.*)", line)
        if m:
            coefficients[m.group(1)] = [float(v) for v in m.group(2).split(",")]
        elif line.strip() and not line.startswith("#"):
            data_lines.append(line)
    if set(coefficients) != {"a", "b"} or any(len(c) != 4 for c in coefficients.values()):
        raise ValueError("no '# a = ...' and '# b = ...' lines with four coefficients each")
    rows = []
    for row in csv.DictReader(data_lines):
        rows.append({k: float(v) for k, v in row.items()})
    return WdlFit(coefficients["a"], coefficients["b"], rows)


# ---------------------------------------------------------------------------
# Training losses (escaque train: <checkpoint>.losses.csv)
# ---------------------------------------------------------------------------

def read_training_csv(text: str) -> list[dict]:
    """Rows of a losses CSV; empty cells become None."""
    rows = []
    for row in csv.DictReader(line for line in text.splitlines() if line.strip()):
        rows.append({k: (float(v) if v != "" else None) for k, v in row.items()})
    if not rows or "val_loss" not in rows[0] or "train_loss" not in rows[0]:
        raise ValueError("not a losses CSV (needs epoch, train_loss and val_loss columns)")
    return rows


# ---------------------------------------------------------------------------
# A match as it went (scripts/match --pgn)
# ---------------------------------------------------------------------------

@dataclass
class PgnGame:
    white: str
    black: str
    result: str
    round: int | None


def read_pgn_headers(text: str) -> list[PgnGame]:
    """The games of a PGN file in the order they were written (scripts/match writes each game
    as it finishes); games without a decisive or drawn result (`*`) are skipped."""
    games = []
    for block in re.split(r"\n(?=\[Event )", "\n" + text):
        tags = dict(re.findall(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]', block, re.M))
        if "White" not in tags or "Black" not in tags:
            continue
        if tags.get("Result") not in ("1-0", "0-1", "1/2-1/2"):
            continue
        try:
            round_no = int(tags.get("Round", ""))
        except ValueError:
            round_no = None
        games.append(PgnGame(tags["White"], tags["Black"], tags["Result"], round_no))
    return games


@dataclass
class MatchProgress:
    engine: str
    # opponent -> [(games, elo, error, score)] after each of that pairing's games
    points: dict[str, list[tuple[int, float, float, float]]] = field(default_factory=dict)


def match_progress(games: list[PgnGame], engine: str | None = None) -> MatchProgress:
    """Elo of `engine` (default: White of the first game, scripts/match's measured engine)
    against each opponent after every game, as scripts/match computes it: pentanomial once a
    pair (the same opening with colours reversed: rounds 2k-1 and 2k as scripts/match numbers
    them, or one Round for both games as fastchess does) is complete."""
    if not games:
        raise ValueError("no finished games in the PGN")
    if engine is None:
        first = min(games, key=lambda g: g.round if g.round is not None else math.inf)
        engine = first.white
    # scripts/match numbers games (a pair is rounds 2k-1 and 2k); fastchess numbers pairs (both
    # games of a pair carry the same Round). A Round seen twice with one opponent means the latter.
    seen: set[tuple[frozenset[str], int]] = set()
    round_is_pair = False
    for g in games:
        if g.round is not None:
            key = (frozenset((g.white, g.black)), g.round)
            round_is_pair |= key in seen
            seen.add(key)
    stats: dict[str, PairingStats] = {}
    progress = MatchProgress(engine)
    for g in games:
        if engine not in (g.white, g.black):
            continue
        opponent = g.black if g.white == engine else g.white
        if g.result == "1/2-1/2":
            score = 0.5
        else:
            score = 1.0 if (g.result == "1-0") == (g.white == engine) else 0.0
        st = stats.setdefault(opponent, PairingStats())
        if g.round is None:
            pair_id = None
        else:
            pair_id = g.round if round_is_pair else (g.round - 1) // 2
        st.add_game(score, pair_id)
        e = st.elo()
        progress.points.setdefault(opponent, []).append((st.games, e.elo, e.error, st.score))
    if not progress.points:
        raise ValueError(f"no games of {engine!r} in the PGN")
    return progress


# ---------------------------------------------------------------------------
# The networks' history (README.md, "the table of networks")
# ---------------------------------------------------------------------------

@dataclass
class NetworkResult:
    name: str
    elo: float
    error: float
    games: int | None
    against: str
    # Elo and error measured directly against the hand-crafted evaluation, when the row has it.
    against_hce: tuple[float, float] | None = None
    # Elo and error measured directly against an earlier network of the table, by its name.
    against_earlier: dict[str, tuple[float, float]] = field(default_factory=dict)


def _elo(text: str) -> float:
    return float(text.replace("−", "-").replace(" ", ""))


def networks_from_readme(text: str) -> list[NetworkResult]:
    """The admitted networks of the README's table (`| network | architecture | ... | Elo
    against the one before |`): each row whose last cell starts with `+X ± Y` and whose name is
    not marked `(not admitted)`, `(not played)` or `(stopped)`."""
    lines = text.splitlines()
    try:
        start = next(i for i, l in enumerate(lines)
                     if l.startswith("| network |") and "Elo against the one before" in l)
    except StopIteration:
        raise ValueError("no table of networks ('| network | ... | Elo against the one before |')")
    results = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        name = re.sub(r"[*]", "", cells[0]).split()[0]
        if re.search(r"not admitted|not played|stopped", cells[0]):
            continue  # a candidate, even one whose match measured a (non-significant) Elo
        m = re.match(r"([+−-]\s*\d+(?:\.\d+)?)\s*±\s*(\d+(?:\.\d+)?)", cells[-1])
        if not m:
            continue  # a candidate that was not admitted
        elo = _elo(m.group(1))
        # The step's own clause ends at the first ';' (direct measurements follow it).
        step = cells[-1].split(";")[0]
        games = re.search(r"\((\d+) games", step)
        against = re.search(r"against ([^(]+?)\s*\(", step)
        hce = re.search(r"([+−-]\s*\d+(?:\.\d+)?)\s*±\s*(\d+(?:\.\d+)?)\s+against the hand-crafted",
                        cells[-1])
        results.append(NetworkResult(name, elo, float(m.group(2)),
                                     int(games.group(1)) if games else None,
                                     against.group(1) if against else "the one before",
                                     (_elo(hce.group(1)), float(hce.group(2))) if hce else None))
        for clause in cells[-1].split(";")[1:]:
            earlier = re.match(r"\s*([+−-]\s*\d+(?:\.\d+)?)\s*±\s*(\d+(?:\.\d+)?)\s+against (net\d+)\b",
                               clause)
            if earlier:
                results[-1].against_earlier[earlier.group(3)] = (_elo(earlier.group(1)),
                                                                 float(earlier.group(2)))
    if not results:
        raise ValueError("the table of networks has no row with '+X ± Y'")
    return results


# ---------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------

def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def draw_wdl(fit: WdlFit, out: str, title: str = "") -> None:
    plt = _pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(13, 4), dpi=80)
    bands = sorted({(r["material_low"], r["material_high"]) for r in fit.rows})
    colors = plt.cm.viridis([i / max(len(bands) - 1, 1) for i in range(len(bands))])
    for (low, high), color in zip(bands, colors):
        rows = sorted((r for r in fit.rows if (r["material_low"], r["material_high"]) == (low, high)
                       and r["positions"] >= 200), key=lambda r: r["mean_score"])
        x = [r["mean_score"] for r in rows]
        label = f"material {low:.0f}-{high:.0f}"
        for ax, key in ((axes[0], "win"), (axes[1], "draw")):
            ax.plot(x, [r["model_" + key] for r in rows], color=color, label=label)
            ax.scatter(x, [r[key] for r in rows], color=color, s=8)
    for ax, what in ((axes[0], "win"), (axes[1], "draw")):
        ax.set_xlabel("search score, internal cp (White)")
        ax.set_ylabel(f"{what} rate (White)")
        ax.set_title(f"{what}: model (lines) and self-play (dots)")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    materials = list(range(MATERIAL_MIN, MATERIAL_MAX + 1))
    axes[2].plot(materials, [fit.params(m)[0] for m in materials], label="a(m): reads cp 100 (50% win)")
    axes[2].plot(materials, [fit.params(m)[1] for m in materials], label="b(m): spread")
    axes[2].set_xlabel("material (P+3N+3B+5R+9Q, both sides)")
    axes[2].set_ylabel("internal cp")
    axes[2].set_title("model parameters")
    axes[2].legend(fontsize=8)
    axes[2].grid(alpha=0.3)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def draw_training(rows: list[dict], out: str, title: str = "") -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4), dpi=80)
    train = [(r["epoch"], r["train_loss"]) for r in rows if r["train_loss"] is not None]
    val = [(r["epoch"], r["val_loss"]) for r in rows if r["val_loss"] is not None]
    if train:
        ax.plot(*zip(*train), marker="o", label="train loss")
    if val:
        ax.plot(*zip(*val), marker="s", label="validation loss")
    ax.set_yscale("log")
    ax.set_xlabel("epoch")
    ax.set_ylabel("loss (log scale)")
    ax.set_title(title or "training", fontsize=9)
    ax.grid(alpha=0.3, which="both")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def draw_match(progress: MatchProgress, out: str, title: str = "") -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4), dpi=80)
    for opponent, points in progress.points.items():
        # The first games (all won, or all lost) have an infinite Elo or error: drawn from the
        # first finite estimate on.
        finite = [(g, e, err) for g, e, err, _ in points if math.isfinite(e) and math.isfinite(err)]
        if not finite:
            continue
        g, e, err = zip(*finite)
        line, = ax.plot(g, e, label=f"against {opponent}")
        ax.fill_between(g, [x - y for x, y in zip(e, err)], [x + y for x, y in zip(e, err)],
                        color=line.get_color(), alpha=0.2)
        ax.annotate(f"{e[-1]:+.0f} ± {err[-1]:.0f} after {g[-1]} games", (g[-1], e[-1]),
                    textcoords="offset points", xytext=(-5, 10), ha="right", fontsize=9)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("games")
    ax.set_ylabel(f"Elo of {progress.engine} (95% band)")
    ax.set_title(title or f"{progress.engine}: Elo as the games accumulate")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def draw_networks(results: list[NetworkResult], out: str, title: str = "") -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4), dpi=80)
    names = [r.name for r in results]
    xs = range(len(results))
    ax.bar(xs, [r.elo for r in results], yerr=[r.error for r in results], capsize=5,
           color="tab:blue", alpha=0.7, label="Elo against the one before (95%)")
    total, variance, cumulative = 0.0, 0.0, []
    for r in results:
        total += r.elo
        variance += (r.error / 1.96) ** 2
        cumulative.append((total, 1.96 * math.sqrt(variance)))
    ax.errorbar(xs, [c[0] for c in cumulative], yerr=[c[1] for c in cumulative], color="tab:red",
                marker="o", capsize=5, label="sum of the steps (errors added in quadrature)")
    direct = [(x, r.against_hce) for x, r in zip(xs, results) if r.against_hce]
    if direct:
        ax.errorbar([x + 0.15 for x, _ in direct], [d[0] for _, d in direct],
                    yerr=[d[1] for _, d in direct], color="tab:green", marker="D", linestyle="none",
                    capsize=5, label="measured directly against the hand-crafted evaluation")
    # A direct match against an earlier network stands on that network's sum of steps.
    sums = {r.name: c[0] for r, c in zip(results, cumulative)}
    later = [(x, sums[name] + elo, error) for x, r in zip(xs, results)
             for name, (elo, error) in r.against_earlier.items() if name in sums]
    if later:
        ax.errorbar([x - 0.15 for x, _, _ in later], [y for _, y, _ in later],
                    yerr=[e for _, _, e in later], color="tab:purple", marker="s", linestyle="none",
                    capsize=5, label="measured directly against an earlier net (on its sum)")
    for x, r in zip(xs, results):
        games = f"\n{r.games} games" if r.games else ""
        ax.annotate(f"{r.elo:+.0f} ± {r.error:.0f}{games}", (x, 4), ha="center", va="bottom", fontsize=7,
                    bbox=dict(boxstyle="round,pad=0.2", facecolor="white", alpha=0.8, linewidth=0))
    ax.set_xticks(list(xs))
    ax.set_xticklabels(names)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel("Elo")
    ax.set_title(title or "networks: each against the one before (net1: against the hand-crafted eval)")
    ax.title.set_fontsize(9)
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
