"""scripts/gui-check's checker: the game XBoard saved against the moves in the Polyglot logs (no display needed)."""
import unittest

import chess

import _path  # noqa: F401
from escaque_tools import gui_record

# The record and logs of a real run (scripts/gui-check, escaque against Stockfish at UCI_Elo 1320).
PGN = """[Event "Computer Chess Game"]
[Site "vm"]
[Date "2026.11.25"]
[Round "-"]
[White "escaque 0.1.0"]
[Black "Stockfish 15.1"]
[Result "1/2-1/2"]
[TimeControl "40/300"]

1. e4 {+0.17/19} c5 {-0.27/16 1.0} 2. Nf3 {+0.09/17} Nc6 {-0.38/17} 3. Bb5
{+0.04/17} Nf6 {-0.29/16} 4. Nc3 {+0.18/17} Nd4 {-0.45/16} 5. e5 {+0.28/20}
Nxb5 {-0.50/17} 6. Nxb5 {+0.18/22} Ng4 {-0.54/17} 7. h3 {+0.74/19}
{Xboard adjudication: long game} 1/2-1/2
"""
WHITE_MOVES = ["e2e4", "g1f3", "f1b5", "b1c3", "e4e5", "c3b5", "h2h3"]
BLACK_MOVES = ["c7c5", "b8c6", "g8f6", "c6d4", "d4b5", "f6g4"]


def polyglot_log(bestmoves, name="escaque 0.1.0"):
    """A Polyglot log in its own format: the lines the check reads, among the ones it must skip."""
    lines = ["1795595829.997 Engine->Adapter: id name " + name,
             "1795595829.997 Engine->Adapter: uciok",
             "1795595830.001 Engine->Adapter: info string error: option 'SyzygyPath': no Syzygy tables found"]
    played = []
    for i, move in enumerate(bestmoves):
        moves = " moves " + " ".join(played) if played else ""
        lines += [f"17955958{31 + i}.000 Adapter->Engine: position startpos{moves}",
                  f"17955958{31 + i}.001 Adapter->Engine: go movetime 980",
                  f"17955958{31 + i}.400 Engine->Adapter: info depth 12 score cp 18 nodes 24 time 4 pv {move} a7a6",
                  f"17955958{31 + i}.980 Engine->Adapter: bestmove {move} ponder a7a6",
                  f"17955958{31 + i}.980 Adapter->GUI: move {move}"]
        played.append(move)
    return "\n".join(lines) + "\n"


class LogTests(unittest.TestCase):
    def test_bestmoves_in_order_and_only_the_engines(self):
        self.assertEqual(gui_record.polyglot_bestmoves(polyglot_log(WHITE_MOVES)), WHITE_MOVES)
        self.assertEqual(gui_record.polyglot_bestmoves("1 GUI->Adapter: usermove e2e4\n"), [])

    def test_engine_name(self):
        self.assertEqual(gui_record.polyglot_engine_name(polyglot_log([])), "escaque 0.1.0")
        self.assertIsNone(gui_record.polyglot_engine_name("1 POLYGLOT *** Mainloop started ***\n"))


class RecordTests(unittest.TestCase):
    def test_finished_game_and_moves_by_colour(self):
        game = gui_record.finished_game(PGN)
        self.assertIsNotNone(game)
        self.assertEqual(gui_record.moves_by_colour(game, chess.WHITE), WHITE_MOVES)
        self.assertEqual(gui_record.moves_by_colour(game, chess.BLACK), BLACK_MOVES)
        self.assertIn("Xboard adjudication: long game", gui_record.end_comment(game))
        self.assertEqual(gui_record.record_problems(game), [])

    def test_unfinished_or_missing_game(self):
        self.assertIsNone(gui_record.finished_game(""))
        self.assertIsNone(gui_record.finished_game(PGN.replace('"1/2-1/2"', '"*"').replace("} 1/2-1/2", "} *")))

    def test_last_game_of_several(self):
        first = PGN.replace("escaque 0.1.0", "older run")
        self.assertEqual(gui_record.finished_game(first + "\n" + PGN).headers["White"], "escaque 0.1.0")

    def test_moves_from_a_position_with_black_to_move(self):
        pgn = ('[White "a"]\n[Black "escaque"]\n[Result "0-1"]\n[SetUp "1"]\n'
               '[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"]\n\n1... Kd7 2. e4 Kc6 0-1\n')
        game = gui_record.finished_game(pgn)
        self.assertEqual(gui_record.moves_by_colour(game, chess.BLACK), ["e8d7", "d7c6"])
        self.assertEqual(gui_record.moves_by_colour(game, chess.WHITE), ["e2e4"])

    def test_illegal_move_in_the_record(self):
        with self.assertLogs("chess.pgn", level="ERROR"):  # python-chess logs the illegal move, too
            game = gui_record.finished_game(PGN.replace("2. Nf3", "2. Nf5"))
        self.assertTrue(any("does not read cleanly" in p for p in gui_record.record_problems(game)))


class SideTests(unittest.TestCase):
    def setUp(self):
        self.game = gui_record.finished_game(PGN)

    def side(self, colour, bestmoves, name="escaque", min_moves=6):
        return gui_record.check_side(self.game, colour, polyglot_log(bestmoves), name, min_moves)

    def test_the_real_run_passes(self):
        white = self.side(chess.WHITE, WHITE_MOVES)
        self.assertTrue(white.ok, white.problems)
        self.assertEqual(white.record_moves, WHITE_MOVES)
        black = gui_record.check_side(self.game, chess.BLACK, polyglot_log(BLACK_MOVES), None, 6)
        self.assertTrue(black.ok, black.problems)

    def test_a_move_the_engine_did_not_send(self):
        sent = WHITE_MOVES[:3] + ["d2d4"] + WHITE_MOVES[4:]
        problems = self.side(chess.WHITE, sent).problems
        self.assertEqual(len(problems), 1)
        self.assertIn("move 4 is b1c3 in the record, but the engine sent bestmove d2d4", problems[0])

    def test_the_other_sides_moves_are_not_ours(self):
        self.assertFalse(self.side(chess.WHITE, BLACK_MOVES).ok)

    def test_wrong_engine_name(self):
        problems = self.side(chess.BLACK, BLACK_MOVES, name="escaque").problems
        self.assertEqual(problems, ["the record's Black is 'Stockfish 15.1', not escaque"])

    def test_too_few_moves(self):
        problems = self.side(chess.WHITE, WHITE_MOVES, min_moves=8).problems
        self.assertEqual(problems, ["White played 7 moves in the record, fewer than 8"])

    def test_one_search_overtaken_by_the_end_is_allowed_two_are_not(self):
        self.assertTrue(self.side(chess.WHITE, WHITE_MOVES + ["a2a3"]).ok)
        problems = self.side(chess.WHITE, WHITE_MOVES + ["a2a3", "a3a4"]).problems
        self.assertEqual(problems, ["White's engine sent 9 bestmoves, but only 7 of them are in the record"])

    def test_fewer_bestmoves_than_moves(self):
        problems = self.side(chess.WHITE, WHITE_MOVES[:5]).problems
        self.assertEqual(problems, ["the record has 7 moves by White, but its engine sent only 5 bestmoves"])

    def test_no_bestmove_at_all(self):
        problems = self.side(chess.WHITE, []).problems
        self.assertEqual(problems, ["White's engine log has no bestmove: the engine never answered a search"])


if __name__ == "__main__":
    unittest.main()
