"""The lines of the built-in network (nets/README.md, "Lines"): what nets/built-in.txt says, the
merge that remakes a network from it, and the manifest lines of the games a line trained on.

Each line is the mean of a few fine-tunes of one base network on one generation's games alone;
the built-in network is the base plus the mean of the lines' changes. nets/built-in.txt names
them, a word and a file of nets/ per line:

    base base-net9.nnue
    line line-g11.nnue

Pure functions over text, so that `scripts/net-line` only runs commands and writes files.
"""

import re
from dataclasses import dataclass, field

from escaque_tools.chain import Snapshot, snapshot_line


@dataclass
class Recipe:
    """A network as the mean of lines: file names inside nets/."""
    base: str
    lines: list[str] = field(default_factory=list)


def parse_recipe(text: str) -> Recipe:
    """nets/built-in.txt's base and lines; `#` starts a comment. Raises ValueError for anything
    else, for no base or two, for no line, and for a line named twice."""
    base, lines = None, []
    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) != 2 or words[0] not in ("base", "line") or "/" in words[1] \
                or not words[1].endswith(".nnue"):
            raise ValueError(f"line {number}: {raw.strip()!r} is not 'base FILE.nnue' or 'line FILE.nnue'")
        if words[0] == "base":
            if base is not None:
                raise ValueError(f"line {number}: a second base")
            base = words[1]
        elif words[1] in lines:
            raise ValueError(f"line {number}: {words[1]} is named twice")
        else:
            lines.append(words[1])
    if base is None:
        raise ValueError("no base")
    if not lines:
        raise ValueError("no line")
    return Recipe(base, lines)


HEADER = """\
# The built-in network (src/nnue/default.nnue) as a mean of lines: the base plus the mean of the
# lines' changes, remade bit for bit by
#   escaque net-merge --base nets/BASE --out default.nnue nets/LINE...
# (tests/integration/nnue.rs checks it; scripts/net-line writes a candidate's recipe in this form;
# nets/README.md, "Lines", says what each line is).
"""


def format_recipe(recipe: Recipe) -> str:
    """The recipe as nets/built-in.txt writes it."""
    return HEADER + f"base {recipe.base}\n" + "".join(f"line {line}\n" for line in recipe.lines)


def merge_command(engine: str, nets: str, recipe: Recipe, out: str) -> list[str]:
    """The `escaque net-merge` that makes the recipe's network (files under the folder `nets`)."""
    return [engine, "net-merge", "--base", f"{nets}/{recipe.base}", "--out", out,
            *(f"{nets}/{line}" for line in recipe.lines)]


# A generation: a number, or a number and a letter for one part of a generation (12, 12a).
GENERATION = re.compile(r"[1-9][0-9]*[a-z]?", re.ASCII)


def line_name(generation: str) -> str:
    """12 -> line-g12.nnue; 12a -> line-g12a.nnue (a generation made into lines part by part)."""
    return f"line-g{generation}.nnue"


def manifest_line(snapshot: Snapshot, generation: str) -> str:
    """The manifest line of a snapshot that generation `generation`'s line trained on."""
    return snapshot_line(snapshot, f"line g{generation}")


def parts_made(generation: str, trained: dict[int, str], nets_files: list[str], recipe: Recipe) -> set[str]:
    """The parts (12a, 12b) of the whole generation `generation` that exist: trained on games of
    the manifest, kept in nets/, or named by the recipe."""
    found = {match.group(1) for by in trained.values()
             if (match := re.fullmatch(rf"line g({generation}[a-z])", by, re.ASCII))}
    for name in [*nets_files, *recipe.lines]:
        if match := re.fullmatch(rf"line-g({generation}[a-z])\.nnue", name, re.ASCII):
            found.add(match.group(1))
    return found


def replaced_parts(generation: str, replaces: str, trained: dict[int, str], nets_files: list[str],
                   recipe: Recipe) -> list[str]:
    """The parts (12a, 12b) that generation `generation`'s new line replaces, from `--replaces`
    (comma-separated; may be empty). So that no generation counts twice in a mean, a whole
    generation's line must replace every part of it that was made (trained on games, kept in
    nets/ or in the recipe), and no part is made once the whole generation has its line.
    Raises ValueError, saying why, for anything else."""
    parts = [part.strip() for part in replaces.split(",") if part.strip()]
    if not GENERATION.fullmatch(generation):
        raise ValueError(f"generation {generation!r} is not a number, with or without a letter after it")
    if not generation.isdigit():
        if parts:
            raise ValueError(f"generation {generation} is a part itself; only a whole generation replaces parts")
        whole = generation[:-1]
        if f"line g{whole}" in trained.values() or f"line-g{whole}.nnue" in [*nets_files, *recipe.lines]:
            raise ValueError(f"generation {whole} has its whole line (nets/line-g{whole}.nnue); "
                             "a part of it would count it twice")
        return []
    made = parts_made(generation, trained, nets_files, recipe)
    for part in parts:
        if not re.fullmatch(rf"{generation}[a-z]", part, re.ASCII):
            raise ValueError(f"{part!r} is not a part of generation {generation} (such as {generation}a)")
        if f"line g{part}" not in trained.values():
            raise ValueError(f"no line g{part} trained on any games of the manifest")
        if parts.count(part) > 1:
            raise ValueError(f"{part} is named twice")
    left = sorted(made - set(parts))
    if left:
        raise ValueError(f"line g{left[0]} is a part of generation {generation}: pass --replaces "
                         f"{','.join(sorted(made))}, so that its games are trained on again and the "
                         "generation counts once")
    return parts


def seed_refusal(seed: int, trained: dict[int, str], replaced: list[str]) -> str | None:
    """Why a new line may not train on `seed`, or None: a seed trained on once is not trained on
    again, unless by the whole generation's line that replaces the part that trained it."""
    if seed not in trained or trained[seed] in {f"line g{part}" for part in replaced}:
        return None
    if re.fullmatch(r"line g[0-9]+[a-z]", trained[seed], re.ASCII):
        return (f"seed {seed} was trained on by {trained[seed]}; a line takes new seeds, or replaces that "
                f"part (--generation {trained[seed][6:-1]} --replaces {trained[seed][6:]})")
    return f"seed {seed} was trained on by {trained[seed]}; a line takes new seeds"


def seeds_left_out(seeds: set[int], trained: dict[int, str], replaced: list[str]) -> list[int]:
    """The seeds of the replaced parts that are not among `seeds`: a line that replaces a part
    trains on its games too, or their lesson is lost."""
    return sorted(seed for seed, by in trained.items()
                  if by in {f"line g{part}" for part in replaced} and seed not in seeds)


def candidate_recipe(recipe: Recipe, name: str, replaced: list[str]) -> Recipe:
    """The recipe with the new line `name` added and the parts it replaces taken out."""
    gone = {line_name(part) for part in replaced}
    return Recipe(recipe.base, [*(kept for kept in recipe.lines if kept not in gone), name])
