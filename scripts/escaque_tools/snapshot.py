"""Whole-game prefixes of datagen files that are still being played.

`escaque datagen` appends whole games and then rewrites `<file>.progress` (`seed=S games=G
bytes=B shape=...`), so the file's first B bytes are always G whole games, even while the next
game is being written. A snapshot is that prefix: the same bytes whenever it is taken, so a
pilot trained on it can be repeated from the file's manifest line and the game count.
"""

import hashlib
from pathlib import Path

from escaque_tools import chain

RECORD_BYTES = 32


def read_progress(data: Path) -> dict:
    """The fields of `<data>.progress`, or {} if the file has none (a finished or foreign file)."""
    try:
        text = (data.parent / (data.name + ".progress")).read_text()
    except FileNotFoundError:
        return {}
    return dict(word.split("=", 1) for word in text.split() if "=" in word)


def whole_games(data: Path) -> tuple[int, int | None]:
    """(bytes, games) of the file's whole-game prefix: from `.progress` where there is one, else
    the whole file (games unknown). Raises ValueError for a file that is not whole records or is
    shorter than its progress says."""
    size = data.stat().st_size
    fields = read_progress(data)
    if "bytes" in fields:
        prefix, games = int(fields["bytes"]), int(fields.get("games", "0"))
        if prefix > size:
            raise ValueError(f"{data}: .progress says {prefix} bytes but the file has {size}")
    else:
        prefix, games = size, None
    if prefix % RECORD_BYTES:
        raise ValueError(f"{data}: {prefix} bytes is not a whole number of {RECORD_BYTES}-byte records")
    return prefix, games


def snapshot_name(data: Path, games: int | None) -> str:
    """`net9-s17-n5000.bin` at 20,746 games -> `net9-s17-n5000-g20746.bin`."""
    if games is None:
        return data.name
    return f"{data.stem}-g{games}{data.suffix}"


def take(data: Path, folder: Path) -> Path:
    """The file's whole-game prefix copied into `folder` (kept if it is already there with the
    right size), or the file itself when it is not being played."""
    prefix, games = whole_games(data)
    if games is None:
        return data
    out = folder / snapshot_name(data, games)
    if out.exists() and out.stat().st_size == prefix:
        return out
    partial = out.with_name(out.name + ".part")
    with data.open("rb") as source, partial.open("wb") as sink:
        left = prefix
        while left:
            chunk = source.read(min(left, 1 << 20))
            if not chunk:
                raise ValueError(f"{data} ended before {prefix} bytes")
            sink.write(chunk)
            left -= len(chunk)
    partial.replace(out)
    return out


def sha256_16(path: Path) -> str:
    """The first 16 hex digits of the file's sha256, as the manifest names files."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()[:16]


def describe(data: Path, folder: Path, manifest: str, build: str | None) -> chain.Snapshot:
    """Takes (or finds) the whole-game snapshot of a file the loop plays and describes it for its
    manifest line; `build` names the playing build where the manifest has no line for the file."""
    fields = read_progress(data)
    if "seed" not in fields or "shape" not in fields:
        raise ValueError(f"{data}: no .progress with seed and shape; only files the loop plays are trained on")
    path = take(data, folder)
    if path == data:
        raise ValueError(f"{data}: its .progress names no whole-game prefix (bytes=)")
    nodes, plies, _, net_checksum = fields["shape"].split("/")
    # The game count the snapshot was cut at, from its name (`.progress` may have moved on since).
    games = int(path.stem.rsplit("-g", 1)[1])
    return chain.Snapshot(
        name=path.name, network=data.name.split("-s")[0], net_checksum=net_checksum, seed=int(fields["seed"]),
        nodes=nodes, random_plies=plies, games=games, positions=path.stat().st_size // RECORD_BYTES,
        sha256_16=sha256_16(path), engine=build or chain.engine_of(manifest, data.name))
