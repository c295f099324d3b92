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


def line_name(generation: str) -> str:
    """12 -> line-g12.nnue; 12a -> line-g12a.nnue (a generation made into lines part by part)."""
    return f"line-g{generation}.nnue"


def manifest_line(snapshot: Snapshot, generation: str) -> str:
    """The manifest line of a snapshot that generation `generation`'s line trained on."""
    return snapshot_line(snapshot, f"line g{generation}")


def replaced_parts(generation: str, replaces: str, trained: dict[int, str], recipe: Recipe) -> list[str]:
    """The parts (12a, 12b) that generation `generation`'s new line replaces, from `--replaces`
    (comma-separated; may be empty). A whole generation's line must replace every part of it that
    the recipe has, or the generation would count twice in the mean. Raises ValueError for a
    part of another generation, one no line trained, one named twice, or a part of the recipe
    left beside its whole generation."""
    parts = [part.strip() for part in replaces.split(",") if part.strip()]
    if parts and not generation.isdigit():
        raise ValueError(f"generation {generation} is a part itself; only a whole generation replaces parts")
    trained_lines = set(trained.values())
    for part in parts:
        if not re.fullmatch(rf"{generation}[a-z]", part):
            raise ValueError(f"{part!r} is not a part of generation {generation} (such as {generation}a)")
        if f"line g{part}" not in trained_lines:
            raise ValueError(f"no line g{part} trained on any games of the manifest")
        if parts.count(part) > 1:
            raise ValueError(f"{part} is named twice")
    if generation.isdigit():
        left = [line for line in recipe.lines
                if re.fullmatch(rf"line-g{generation}[a-z]\.nnue", line) and line[len("line-g"):-len(".nnue")] not in parts]
        if left:
            raise ValueError(f"{left[0]} is a part of generation {generation} in nets/built-in.txt: replace it too")
    return parts
