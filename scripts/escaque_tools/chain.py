"""The candidate chain's bookkeeping (nets/README.md): its table of steps, which network a new step
starts from, the net-loss screen of a new step, and the manifest line of each snapshot.

Pure functions over text, so that `scripts/chain-step` only runs commands and writes files.
"""

import re
from dataclasses import dataclass

MINUS = "\u2212"


@dataclass
class Step:
    number: int
    checksum: str  # 16 hex digits, without 0x


@dataclass(frozen=True)
class Games:
    """The whole-game snapshot of one seed that a step trained on."""
    seed: int
    games: int
    sha256_16: str


@dataclass
class Row:
    """A step of the table: the step it started from (0: the built-in network) and its games."""
    number: int
    base: int
    games: list[Games]
    checksum: str


@dataclass
class Screen:
    """One network of a net-loss table: its checksum and, at its best scale, its difference from
    the table's first network with the 95% error bar (both None for the first network itself)."""
    checksum: str
    difference: float | None
    error: float | None


@dataclass
class Snapshot:
    """A whole-game snapshot a step trained on, with what its manifest line needs."""
    name: str  # the snapshot file's name, e.g. net9-s18-n5000-g9120.bin
    network: str  # the playing network's name, e.g. net9
    net_checksum: str
    seed: int
    nodes: str
    random_plies: str
    games: int
    positions: int
    sha256_16: str
    engine: str


def table_rows(readme: str) -> list[list[str]]:
    """The cells of the step table's rows (those starting with a step number), in order."""
    rows = []
    for line in readme.splitlines():
        if re.match(r"^\|\s*\d+\s*\|", line):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def last_step(readme: str) -> Step:
    """The table's last step: its number and its candidate's checksum."""
    rows = table_rows(readme)
    if not rows:
        raise ValueError("nets/README.md has no step table rows")
    return Step(int(rows[-1][0]), checksum_cell(rows[-1]))


def checksum_cell(cells: list[str]) -> str:
    match = re.fullmatch(r"`0x([0-9a-f]{16})`", cells[6])
    if not match:
        raise ValueError(f"step {cells[0]}: the checksum cell {cells[6]!r} is not `0x` and 16 hex digits")
    return match.group(1)


def rows(readme: str) -> list[Row]:
    """The table's steps, each with its base and the snapshots it trained on."""
    steps = []
    for cells in table_rows(readme):
        source = re.match(r"step (\d+)\b", cells[2])
        if source:
            base = int(source.group(1))
        elif "built in" in cells[2]:
            base = 0
        else:
            raise ValueError(f"step {cells[0]}: cannot read where it started from ({cells[2]!r})")
        games = [Games(int(seed), int(count.replace(",", "")), sha)
                 for seed, count, sha in re.findall(r"seed (\d+)'s first ([\d,]+) games \(`([0-9a-f]{16})`\)",
                                                    cells[3])]
        if not games:
            raise ValueError(f"step {cells[0]}: no games in {cells[3]!r}")
        steps.append(Row(int(cells[0]), base, games, checksum_cell(cells)))
    return steps


@dataclass
class Admission:
    """The last step admitted as the built-in network, and the name it took (e.g. net10)."""
    step: int
    network: str


def admission(readme: str) -> Admission | None:
    """The last `Admitted: step N as netM` line of nets/README.md, if any."""
    found = re.findall(r"^Admitted: step (\d+) as (net\d+)\b", readme, re.M)
    return Admission(int(found[-1][0]), found[-1][1]) if found else None


def seen(steps: list[Row], number: int, admitted: int = 0) -> set[Games]:
    """Every snapshot the candidate of step `number` learnt from, through its bases, beyond what
    the built-in network learnt: an admitted step is the built-in network, so the walk ends there."""
    learnt: set[Games] = set()
    while number and number != admitted:
        row = steps[number - 1]
        learnt.update(row.games)
        number = row.base
    return learnt


def choose_base(steps: list[Row], on_disk: set[Games], admitted: int = 0,
                restart: bool = False) -> tuple[int, set[Games]]:
    """The earliest step on the last candidate's line of bases (0: the built-in network) from which
    every game the last candidate learnt since is still on this machine, and those games.

    One fine-tune of an earlier network on all of them screens better than fine-tunes one after
    another (nets/README.md), while no network in the chain sees a game twice: the base never saw
    them. After a lost machine the last candidate itself is the base (nothing to train again).
    `admitted` is the step that became the built-in network: what it learnt is not learnt since,
    so right after an admission the built-in network (tried first) needs no game again.

    `restart` begins a new line from the built-in network on the new games alone, leaving the
    last candidate's line behind: after a lost machine its base is the last candidate, and a
    candidate fine-tuned again and again on one generation reaches a plateau (step 7 fine-tuned
    on seed 25 alone screened worse than step 7, 2026-12-05). The new line's steps never see the old line's games."""
    if restart:
        return 0, set()
    last = len(steps)
    line = [last]
    while line[-1]:
        line.append(steps[line[-1] - 1].base)
    learnt = seen(steps, last, admitted)
    for base in reversed(line):
        needed = learnt - seen(steps, base, admitted)
        if needed <= on_disk:
            return base, needed
    raise AssertionError("the last step itself needs nothing")


def append_row(readme: str, row: str) -> str:
    """The README with `row` added after the table's last row."""
    lines = readme.splitlines(keepends=True)
    last = max(i for i, line in enumerate(lines) if re.match(r"^\|\s*\d+\s*\|", line))
    return "".join(lines[: last + 1] + [row.rstrip("\n") + "\n"] + lines[last + 1:])


def parse_net_loss(text: str) -> dict[str, Screen]:
    """`escaque net-loss`'s table, by network path."""
    screens: dict[str, Screen] = {}
    path = None
    for line in text.splitlines():
        header = re.match(r"^(\S.*?)\s{2,}([0-9a-f]{16})\s{2,}", line)
        if header:
            path = header.group(1)
            screens[path] = Screen(header.group(2), None, None)
            continue
        scaled = re.match(r"^\s+at its best scale .*?loss [0-9.]+\s+(.*)$", line)
        if scaled and path is not None:
            rest = scaled.group(1).strip()
            if rest == "(reference)":
                continue
            numbers = re.fullmatch(r"([+-]?[0-9.]+)\s*±\s*([0-9.]+)", rest.replace(MINUS, "-"))
            if not numbers:
                raise ValueError(f"net-loss: cannot read {rest!r} for {path}")
            screens[path].difference = float(numbers.group(1))
            screens[path].error = float(numbers.group(2))
    return screens


def format_screen(difference: float, error: float) -> str:
    """-0.000322, 0.000186 -> "−0.00032 ± 0.00019", as the table writes it."""
    sign = MINUS if difference < 0 else "+"
    return f"{sign}{abs(difference):.5f} ± {error:.5f}"


def format_lr(lr: float) -> str:
    """0.0003 -> "3e-4"."""
    mantissa, exponent = f"{lr:e}".split("e")
    return f"{float(mantissa):g}e{int(exponent)}"


def step_row(step: int, date: str, source: str, games: list[Games], positions: int, epochs: int, lr: float,
             checksum: str, screen: str, loss_power: float = 2.0) -> str:
    """The table's row of a step; the loss power is named where it is not the trainer's 2."""
    trained = "; ".join(f"seed {g.seed}'s first {g.games:,} games (`{g.sha256_16}`)" for g in games)
    power = "" if loss_power == 2.0 else f", loss power {loss_power:g}"
    return (f"| {step} | {date} | {source} | {trained} | {positions:,} | {epochs} epochs, lr {format_lr(lr)}{power} "
            f"| `0x{checksum}` | {screen} |")


def snapshot_line(snapshot: Snapshot, trained_by: str) -> str:
    """The manifest line of a snapshot that `trained_by` ("candidate step 3", "line g12") trained on."""
    name = (f"snap-s{snapshot.seed}-g{snapshot.games}.bin ({trained_by}'s training, nets/README.md: "
            f"the first {snapshot.games} games of seed {snapshot.seed})")
    return "\t".join([name, snapshot.network, snapshot.net_checksum, str(snapshot.seed), snapshot.nodes,
                      snapshot.random_plies, str(snapshot.games), str(snapshot.positions), snapshot.sha256_16,
                      "yes", snapshot.engine])


def manifest_line(snapshot: Snapshot, step: int) -> str:
    return snapshot_line(snapshot, f"candidate step {step}")


def trained_seeds(manifest: str) -> dict[int, str]:
    """Seeds that a candidate step or a line trained on (seed -> "step N" or "line gN"), from the
    manifest's snapshot lines (`snapshot_line`): a seed is never continued once trained on. A seed
    trained on twice (a part's, then the line of its whole generation that replaced the part:
    `net-line --replaces`) belongs to the later line; the manifest is only ever appended to."""
    seeds = {}
    for line in manifest.splitlines():
        match = re.match(r"^snap-s(\d+)-g\d+\.bin \((?:candidate (step \d+)|(line g\d+[a-z]?))'s training", line)
        if match:
            seeds[int(match.group(1))] = match.group(2) or match.group(3)
    return seeds


def stepped_seeds(manifest: str) -> dict[int, int]:
    """Seeds some step trained on already (seed -> step), from the manifest's snapshot lines."""
    return {seed: int(by.split()[1]) for seed, by in trained_seeds(manifest).items() if by.startswith("step ")}


def engine_of(manifest: str, file_name: str) -> str:
    """The 'engine' column of the manifest line for `file_name`, or "?" if it has none."""
    for line in manifest.splitlines():
        fields = line.split("\t")
        if fields[0] == file_name and len(fields) >= 11:
            return fields[10].split()[0]
    return "?"
