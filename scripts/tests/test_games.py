import unittest

import chess

import _path  # noqa: F401
from _path import FAKE_ENGINE
from escaque_tools import games


class RulesTests(unittest.TestCase):
    def test_checkmate(self):
        b = chess.Board()
        for mv in ("f2f3", "e7e5", "g2g4", "d8h4"):
            b.push_uci(mv)
        self.assertEqual(games.rules_outcome(b), ("0-1", "checkmate"))

    def test_stalemate(self):
        self.assertEqual(games.rules_outcome(chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")),
                         ("1/2-1/2", "stalemate"))

    def test_insufficient_material(self):
        self.assertEqual(games.rules_outcome(chess.Board("8/8/8/4k3/8/8/2KB4/8 w - - 0 1")),
                         ("1/2-1/2", "insufficient material"))
        self.assertIsNone(games.rules_outcome(chess.Board("8/8/8/4k3/8/8/2KR4/8 w - - 0 1")))

    def test_fifty_moves_but_mate_wins(self):
        self.assertEqual(games.rules_outcome(chess.Board("8/8/8/4k3/8/8/2KR4/8 w - - 100 80")),
                         ("1/2-1/2", "fifty-move rule"))
        self.assertIsNone(games.rules_outcome(chess.Board("8/8/8/4k3/8/8/2KR4/8 w - - 99 80")))
        # mate delivered on the 100th half-move counts as mate
        self.assertEqual(games.rules_outcome(chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 100 80")),
                         ("1-0", "checkmate"))

    def test_threefold(self):
        b = chess.Board()
        shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]
        for mv in shuffle:
            b.push_uci(mv)
        self.assertIsNone(games.rules_outcome(b))  # startpos seen twice
        for mv in shuffle:
            b.push_uci(mv)
        self.assertEqual(games.rules_outcome(b), ("1/2-1/2", "threefold repetition"))


class ParsingTests(unittest.TestCase):
    def test_time_control(self):
        tc = games.TimeControl.parse("10+0.1")
        self.assertEqual((tc.base, tc.inc), (10.0, 0.1))
        self.assertEqual(tc.pgn(), "10+0.1")
        self.assertEqual(games.TimeControl.parse("60").inc, 0.0)
        with self.assertRaises(ValueError):
            games.TimeControl.parse("40/60")

    def test_engine_spec(self):
        s = games.EngineSpec.parse(["name=sf", "cmd=/usr/games/stockfish", "option.UCI_Elo=2400",
                                    "option.UCI_LimitStrength=true"])
        self.assertEqual(s.name, "sf")
        self.assertEqual(s.cmd, ["/usr/games/stockfish"])
        self.assertEqual(s.options, {"UCI_Elo": "2400", "UCI_LimitStrength": "true"})
        self.assertEqual(games.EngineSpec.parse(["cmd=python3 x/eng.py --fast"]).cmd, ["python3", "x/eng.py", "--fast"])
        self.assertEqual(games.EngineSpec.parse(["cmd=a/b/escaque"]).name, "escaque")
        with self.assertRaises(ValueError):
            games.EngineSpec.parse(["name=x"])
        with self.assertRaises(ValueError):
            games.EngineSpec.parse(["cmd=x", "bogus=1"])

    def test_choose_openings_deterministic(self):
        epd = ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
               "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
               "rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - bm c5;"]
        a = games.choose_openings(epd, 5, seed=3)
        b = games.choose_openings(epd, 5, seed=3)
        self.assertEqual([o.fen for o in a], [o.fen for o in b])
        self.assertEqual(len({o.fen for o in a[:3]}), 3)  # no repeats before the list is exhausted
        self.assertEqual(games.choose_openings([], 2, 1)[0].fen, chess.STARTING_FEN)


class PlayGameTests(unittest.TestCase):
    def spec(self, name, *extra):
        return games.EngineSpec(name, ["python3", FAKE_ENGINE, *extra])

    def test_crash_loses(self):
        res = games.play_game(self.spec("good"), self.spec("bad", "--mode", "crash", "--after", "2"),
                              games.Opening(chess.STARTING_FEN), games.TimeControl(5, 0))
        self.assertEqual((res.result, res.reason, res.offender), ("1-0", "crash", "bad"))
        self.assertEqual(res.plies, 3)  # W, B (1st go), W; black's 2nd go crashes
        pgn = res.to_pgn("t", "1", games.TimeControl(5, 0))
        self.assertIn('[Termination "abandoned"]', pgn)
        self.assertIn("crash (bad)", pgn)

    def test_illegal_move_loses(self):
        res = games.play_game(self.spec("bad", "--mode", "illegal"), self.spec("good"),
                              games.Opening(chess.STARTING_FEN), games.TimeControl(5, 0))
        self.assertEqual((res.result, res.reason, res.offender), ("0-1", "illegal move", "bad"))
        self.assertIn('[Termination "rules infraction"]', res.to_pgn("t", "1", None))

    def test_time_forfeit(self):
        res = games.play_game(self.spec("good"), self.spec("slow", "--mode", "slow"),
                              games.Opening(chess.STARTING_FEN), games.TimeControl(0.2, 0), stall_min=5)
        self.assertEqual((res.result, res.reason, res.offender), ("1-0", "time forfeit", "slow"))

    def test_stall(self):
        res = games.play_game(self.spec("stall", "--mode", "stall"), self.spec("good"),
                              games.Opening(chess.STARTING_FEN), games.TimeControl(0.1, 0), stall_min=0.5)
        self.assertEqual((res.result, res.reason, res.offender), ("0-1", "stall", "stall"))

    def test_game_ends_by_rules_from_fen(self):
        # K+Q vs K: the fake engine plays random moves; the game must end by a rule.
        op = games.Opening("8/8/8/4k3/8/8/8/Q3K3 w - - 90 80")
        res = games.play_game(self.spec("a"), self.spec("b"), op, games.TimeControl(5, 0))
        self.assertIn(res.reason, ("checkmate", "stalemate", "fifty-move rule", "insufficient material",
                                   "threefold repetition"))
        pgn = res.to_pgn("t", "1", None)
        self.assertIn('[FEN "8/8/8/4k3/8/8/8/Q3K3 w - - 90 80"]', pgn)
        self.assertIn('[Termination "normal"]', pgn)


if __name__ == "__main__":
    unittest.main()
