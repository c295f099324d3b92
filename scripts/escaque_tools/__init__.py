"""Shared helpers for the escaque tooling scripts in scripts/.

Modules:
    stats       Elo / error-bar / pentanomial / SPRT (GSPRT) maths.
    uci_engine  A small, dependency-free UCI engine driver (subprocess + reader thread).
    perft       Divide-output parsing, EPD perft-suite parsing, reference perft helpers.
    gitbench    `Bench: N` signature helpers (git log parsing, bench-output parsing).
"""
