"""Helpers for the OpenBench-style ``Bench: N`` signature."""

from __future__ import annotations

import re
import subprocess

_BENCH_OUT_RE = re.compile(r"^\s*(\d+)\s+nodes\s+(\d+)\s+nps\s*$")
_BENCH_MSG_RE = re.compile(r"^\s*bench\s*:\s*([0-9][0-9,]*)\s*$", re.IGNORECASE | re.MULTILINE)


def parse_bench_output(text: str) -> tuple[int, int] | None:
    """(nodes, nps) from the last non-empty line of ``escaque bench`` output.

    OpenBench requires the output to *end* with ``<N> nodes <M> nps``; if the last
    non-empty line does not match, None is returned.
    """
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return None
    m = _BENCH_OUT_RE.match(lines[-1])
    if not m:
        return None
    return int(m.group(1)), int(m.group(2))


def find_bench_in_messages(messages: list[str]) -> int | None:
    """Newest ``Bench: N`` from commit messages ordered newest first.

    Within one message the last ``Bench:`` line wins.
    """
    for msg in messages:
        found = _BENCH_MSG_RE.findall(msg)
        if found:
            return int(found[-1].replace(",", ""))
    return None


def split_git_log(raw: str) -> list[str]:
    """Split ``git log --format=%B%x00`` output into messages."""
    return [m for m in raw.split("\x00") if m.strip()]


def git_log_messages(repo: str = ".") -> list[str]:
    proc = subprocess.run(["git", "log", "--format=%B%x00"], cwd=repo, capture_output=True, text=True)
    if proc.returncode != 0:
        # e.g. no commits yet
        return []
    return split_git_log(proc.stdout)
