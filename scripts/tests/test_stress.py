import os
import tempfile
import unittest

import _path  # noqa: F401
from escaque_tools import stress


def game(white, black, result, termination):
    return (f'[Event "Fastchess Tournament"]\n[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n'
            f'[Termination "{termination}"]\n[TimeControl "10"]\n\n1. e4 {{+0.30/12 0.1s}} e5 {result}\n\n')


class TestStress(unittest.TestCase):
    def summarise(self, text):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "games.pgn")
            with open(path, "w") as f:
                f.write(text)
            return stress.summarise(stress.parse_pgn(path), "measured")

    def test_counts_results_from_the_measured_side(self):
        text = (game("measured", "opponent", "1-0", "normal") + game("opponent", "measured", "1-0", "adjudication")
                + game("opponent", "measured", "0-1", "normal") + game("measured", "opponent", "1/2-1/2", "normal"))
        self.assertEqual(self.summarise(text), (2, 1, 1, {}))

    def test_charges_an_incident_to_the_loser(self):
        text = (game("measured", "opponent", "0-1", "time forfeit") + game("opponent", "measured", "0-1", "time forfeit")
                + game("opponent", "measured", "1-0", "illegal move")
                + game("measured", "opponent", "1-0", "stalled connection"))
        wins, draws, losses, incidents = self.summarise(text)
        self.assertEqual((wins, draws, losses), (2, 0, 2))
        self.assertEqual(incidents, {"time forfeit": {"measured": 1, "opponent": 1}, "illegal move": {"measured": 1},
                                     "stalled connection": {"opponent": 1}})

    def test_a_last_game_without_a_blank_line_is_read(self):
        text = game("measured", "opponent", "1-0", "normal") + game("opponent", "measured", "1-0", "time forfeit").rstrip()
        self.assertEqual(self.summarise(text), (1, 0, 1, {"time forfeit": {"measured": 1}}))


if __name__ == "__main__":
    unittest.main()
