#!/usr/bin/env python3
"""A scriptable stand-in for escaque, used by the script tests.

CLI:  fake_engine.py perft DEPTH [FEN] [--threads N]   (python-chess divide)
      fake_engine.py bench                             (prints "<N> nodes <M> nps")
      fake_engine.py [--mode MODE] [--after N]         (UCI)
UCI modes: random (default: random legal moves, seeded by position), first,
crash / illegal / stall / slow (misbehave from the N-th `go` on; slow = 2x clock),
null (answers bestmove 0000).
Environment: FAKE_PERFT_BUG=no-underpromotion drops knight/bishop/rook promotions
from the divide at every depth; FAKE_PERFT_BUG=no-ep drops en-passant captures.
"""

import argparse
import os
import random
import sys
import time

import chess

BUG = os.environ.get("FAKE_PERFT_BUG", "")


def legal(board):
    for mv in board.legal_moves:
        if BUG == "no-underpromotion" and mv.promotion and mv.promotion != chess.QUEEN:
            continue
        if BUG == "no-ep" and board.is_en_passant(mv):
            continue
        yield mv


def perft(board, depth):
    if depth == 0:
        return 1
    n = 0
    for mv in list(legal(board)):
        board.push(mv)
        n += perft(board, depth - 1)
        board.pop()
    return n


def divide(board, depth, out):
    total = 0
    for mv in list(legal(board)):
        board.push(mv)
        n = perft(board, depth - 1)
        board.pop()
        total += n
        out.write(f"{mv.uci() if board.chess960 else board.uci(mv)}: {n}\n")
    out.write(f"\nNodes searched: {total}\n")
    out.flush()


def cli_perft(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("depth", type=int)
    ap.add_argument("fen", nargs="?", default=chess.STARTING_FEN)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args(argv)
    try:
        fields = a.fen.split()
        chess960 = len(fields) > 2 and any(c in "ABCDEFGHabcdefgh" for c in fields[2])
        board = chess.Board(a.fen, chess960=chess960)
    except ValueError as exc:
        print(f"bad fen: {exc}", file=sys.stderr)
        return 1
    start = time.monotonic()
    divide(board, a.depth, sys.stdout)
    print(f"time {int((time.monotonic() - start) * 1000)} ms", file=sys.stderr)
    return 0


def uci(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="random")
    ap.add_argument("--after", type=int, default=1)
    a = ap.parse_args(argv)
    board = chess.Board()
    gos = 0
    chess960 = False
    for line in sys.stdin:
        toks = line.split()
        if not toks:
            continue
        cmd = toks[0]
        if cmd == "uci":
            print("id name FakeEngine\noption name Hash type spin default 16 min 1 max 1024\nuciok", flush=True)
        elif cmd == "isready":
            print("readyok", flush=True)
        elif cmd == "setoption" and "UCI_Chess960" in toks:
            chess960 = toks[-1] == "true"
        elif cmd == "position":
            if toks[1] == "startpos":
                board = chess.Board(chess960=chess960)
                rest = toks[2:]
            else:
                i = toks.index("moves") if "moves" in toks else len(toks)
                board = chess.Board(" ".join(toks[2:i]), chess960=chess960)
                rest = toks[i:]
            if rest and rest[0] == "moves":
                for mv in rest[1:]:
                    board.push_uci(mv)
        elif cmd == "go":
            if len(toks) > 2 and toks[1] == "perft":
                divide(board, int(toks[2]), sys.stdout)
                continue
            gos += 1
            mode = a.mode if gos >= a.after else "random"
            if mode == "crash":
                os._exit(3)
            if mode == "stall":
                time.sleep(3600)
            clock = None
            if "wtime" in toks:
                clock = int(toks[toks.index("wtime" if board.turn else "btime") + 1]) / 1000
            if mode == "slow" and clock is not None:
                time.sleep(clock * 2)
            moves = sorted(board.legal_moves, key=lambda m: m.uci())
            if mode == "illegal":
                print("bestmove a1a1", flush=True)
                continue
            if mode == "null":
                print("bestmove 0000", flush=True)
                continue
            rng = random.Random(board.fen())
            mv = moves[0] if mode == "first" else rng.choice(moves)
            print(f"info depth 1 score cp {rng.randint(-50, 50)} nodes 1 pv {mv.uci()}", flush=True)
            print(f"bestmove {mv.uci()}", flush=True)
        elif cmd == "quit":
            return 0
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "perft":
        return cli_perft(sys.argv[2:])
    if len(sys.argv) > 1 and sys.argv[1] == "bench":
        print("info string fake bench\n12345 nodes 67890 nps")
        return 0
    return uci(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
