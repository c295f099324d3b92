import os
import unittest

import _path  # noqa: F401
from _path import FAKE_ENGINE
from escaque_tools import perft
from escaque_tools.perft_check import Checker, Reference, is_shredder_castling, random_positions

SF_OUTPUT = """info string NNUE evaluation using nn-ad9b42354671.nnue enabled
h1f1: 3
h1g1: 5
e1d1: 5
e1g1: 3

Nodes searched: 16
"""


class DivideParsingTests(unittest.TestCase):
    def test_parse_stockfish_divide(self):
        d = perft.parse_divide(SF_OUTPUT)
        self.assertEqual(d.moves, {"h1f1": 3, "h1g1": 5, "e1d1": 5, "e1g1": 3})
        self.assertEqual(d.total, 16)
        d.check_consistent()

    def test_promotions_and_case(self):
        d = perft.parse_divide("a7a8q: 10\na7a8N: 3\n\nNodes searched: 13\n")
        self.assertEqual(d.moves, {"a7a8q": 10, "a7a8n": 3})

    def test_inconsistent_sum(self):
        d = perft.parse_divide("e2e4: 3\ne2e3: 4\n\nNodes searched: 8\n")
        with self.assertRaises(perft.PerftError):
            d.check_consistent()

    def test_missing_total(self):
        with self.assertRaises(perft.PerftError):
            perft.parse_divide("e2e4: 3\n").check_consistent()

    def test_duplicate_move(self):
        with self.assertRaises(perft.PerftError):
            perft.parse_divide("e2e4: 3\ne2e4: 3\nNodes searched: 6\n")

    def test_empty_divide_is_mate(self):
        d = perft.parse_divide("\nNodes searched: 0\n")
        self.assertEqual(d.moves, {})
        self.assertEqual(d.total, 0)
        d.check_consistent()

    def test_epd_line(self):
        fen, counts = perft.parse_epd_perft_line(
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;D3 1197")
        self.assertEqual(fen, "4k3/8/8/8/8/8/8/4K2R w K - 0 1")
        self.assertEqual(counts, {1: 15, 2: 66, 3: 1197})
        fen, counts = perft.parse_epd_perft_line("8/8/8/8/8/8/8/K1k5 w - - ;D1 3")
        self.assertEqual(fen, "8/8/8/8/8/8/8/K1k5 w - - 0 1")
        self.assertIsNone(perft.parse_epd_perft_line("   "))
        with self.assertRaises(ValueError):
            perft.parse_epd_perft_line("not a fen ;D1 3")

    def test_diff_divides(self):
        diffs = perft.diff_divides({"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 5, "d": 4})
        self.assertEqual(diffs, [("b", 2, 5), ("c", 3, None), ("d", None, 4)])

    def test_engine_timing(self):
        self.assertEqual(perft.parse_engine_timing("time 1234 ms, 150.5 Mnps"), {"mnps": 150.5, "seconds": 1.234})
        self.assertEqual(perft.parse_engine_timing("nodes 10 time 2.5 s nps 4000000"),
                         {"mnps": 4.0, "seconds": 2.5})
        self.assertEqual(perft.parse_engine_timing(""), {})


class NotationTests(unittest.TestCase):
    def test_chess960_castling_normalised(self):
        fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
        self.assertTrue(is_shredder_castling(fen))
        self.assertFalse(is_shredder_castling(perft.STARTPOS))
        # python-chess accepts king-takes-rook; castling h-side here is g1h1 (king g1, rook h1)
        moves = perft.canonical_moves(fen, {"g1h1": 1, "a3a4": 1, "zzzz": 7}, True)
        self.assertEqual(moves, {"g1h1": 1, "a3a4": 1, "zzzz": 7})

    def test_standard_castling_king_two_squares(self):
        fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
        self.assertEqual(perft.canonical_moves(fen, {"e1h1": 3}, False), {"e1g1": 3})
        self.assertEqual(perft.canonical_moves(fen, {"e1g1": 3}, True), {"e1h1": 3})

    def test_python_chess_divide(self):
        d = perft.python_chess_divide(perft.STARTPOS, 2, False)
        self.assertEqual(d.total, 400)
        self.assertEqual(len(d.moves), 20)
        self.assertEqual(d.moves["e2e4"], 20)
        fen, _, known = perft.STANDARD_POSITIONS["kiwipete"]
        self.assertEqual(perft.python_chess_divide(fen, 2, False).total, known[2])


class WalkDownTests(unittest.TestCase):
    """Uses tests/fake_engine.py (python-chess perft with injectable bugs) as escaque."""

    def setUp(self):
        self.old = os.environ.get("FAKE_PERFT_BUG")

    def tearDown(self):
        if self.old is None:
            os.environ.pop("FAKE_PERFT_BUG", None)
        else:
            os.environ["FAKE_PERFT_BUG"] = self.old

    def test_correct_engine_passes(self):
        os.environ.pop("FAKE_PERFT_BUG", None)
        checker = Checker(FAKE_ENGINE, Reference("python-chess"))
        fen = perft.STANDARD_POSITIONS["kiwipete"][0]
        self.assertIsNone(checker.walk_down(fen, 2, False))

    def test_finds_missing_en_passant(self):
        os.environ["FAKE_PERFT_BUG"] = "no-ep"
        checker = Checker(FAKE_ENGINE, Reference("python-chess"))
        fen = perft.STANDARD_POSITIONS["kiwipete"][0]
        mm = checker.walk_down(fen, 2, False)
        self.assertIsNotNone(mm)
        self.assertEqual(mm.path, ["a2a4"])
        self.assertEqual(mm.depth, 1)
        self.assertEqual(mm.diffs, [("b4a3", None, 1)])
        self.assertIn("a3", mm.fen.split()[3])
        self.assertIn("b4a3: missing in escaque", mm.report())

    def test_finds_missing_underpromotion_deeper(self):
        os.environ["FAKE_PERFT_BUG"] = "no-underpromotion"
        checker = Checker(FAKE_ENGINE, Reference("python-chess"))
        fen = "8/2P5/8/8/8/8/8/k6K w - - 0 1"
        mm = checker.walk_down(fen, 2, False)
        self.assertIsNotNone(mm)
        self.assertEqual(mm.path, [])  # the root divide already lacks c7c8n/b/r
        self.assertEqual(sorted(d[0] for d in mm.diffs), ["c7c8b", "c7c8n", "c7c8r"])
        fen = "8/8/2P5/8/8/8/8/k6K w - - 0 1"  # promotion only after c6c7 + a black move
        mm = checker.walk_down(fen, 3, False)
        self.assertEqual(len(mm.path), 2)
        self.assertEqual(mm.path[0], "c6c7")
        self.assertEqual(mm.depth, 1)


class RandomPositionTests(unittest.TestCase):
    def test_deterministic_and_distinct(self):
        a = random_positions(15, seed=7)
        b = random_positions(15, seed=7)
        self.assertEqual(a, b)
        self.assertEqual(len(set(a)), 15)
        self.assertNotEqual(a, random_positions(15, seed=8))

    def test_chess960_positions_use_shredder_fen(self):
        import chess
        for fen in random_positions(10, seed=3, chess960=True, max_plies=6):
            chess.Board(fen, chess960=True)  # parses
            castling = fen.split()[2]
            self.assertTrue(castling == "-" or all(c in "ABCDEFGHabcdefgh" for c in castling), fen)


if __name__ == "__main__":
    unittest.main()
