import math
import os
import tempfile
import unittest

import _path  # noqa: F401
from escaque_tools import plots, stats

try:
    import matplotlib  # noqa: F401
    HAVE_MATPLOTLIB = True
except ImportError:
    HAVE_MATPLOTLIB = False


def pgn_game(round_no, white, black, result, moves="1. e4 e5"):
    return (f'[Event "escaque match"]\n[Site "here"]\n[Date "2026.11.25"]\n[Round "{round_no}"]\n'
            f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n[TimeControl "10+0.1"]\n\n'
            f'{moves} {{book}} {result}\n\n')


# A small match as scripts/match writes it: pairs are rounds (1, 2), (3, 4), ...; the games
# are written as they finish, so round 2 may come before round 1.
MATCH = "".join([
    pgn_game(2, "old", "new", "0-1"),
    pgn_game(1, "new", "old", "1-0"),
    pgn_game(3, "new", "old", "1/2-1/2"),
    pgn_game(4, "old", "new", "1-0"),
    pgn_game(5, "new", "old", "1-0"),
    pgn_game(7, "new", "old", "*"),   # unfinished: left out
    pgn_game(6, "old", "new", "1/2-1/2"),
])


class PgnTests(unittest.TestCase):
    def test_headers_in_file_order_without_unfinished_games(self):
        games = plots.read_pgn_headers(MATCH)
        self.assertEqual([g.round for g in games], [2, 1, 3, 4, 5, 6])
        self.assertEqual(games[0].white, "old")
        self.assertEqual(games[0].result, "0-1")

    def test_progress_matches_the_match_statistics(self):
        progress = plots.match_progress(plots.read_pgn_headers(MATCH))
        self.assertEqual(progress.engine, "new")  # White of round 1
        points = progress.points["old"]
        self.assertEqual([p[0] for p in points], [1, 2, 3, 4, 5, 6])
        # new: W W D L W D = 4/6; pairs (1, 1), (0.5, 0), (1, 0.5).
        games, elo, err, score = points[-1]
        self.assertAlmostEqual(score, 4 / 6)
        expected = stats.elo_pentanomial(stats.pentanomial_from_pairs([(1, 1), (0.5, 0), (1, 0.5)]))
        self.assertAlmostEqual(elo, expected.elo)
        self.assertAlmostEqual(err, expected.error)
        # The first game alone is a trinomial estimate, and a lone win is +inf.
        self.assertEqual(points[0][1], math.inf)

    def test_fastchess_numbers_pairs(self):
        # fastchess gives both games of a pair one Round: the same match, numbered its way.
        fast = "".join([
            pgn_game(1, "old", "new", "0-1"),
            pgn_game(1, "new", "old", "1-0"),
            pgn_game(2, "new", "old", "1/2-1/2"),
            pgn_game(2, "old", "new", "1-0"),
            pgn_game(3, "new", "old", "1-0"),
            pgn_game(3, "old", "new", "1/2-1/2"),
        ])
        ours = plots.match_progress(plots.read_pgn_headers(MATCH)).points["old"][-1]
        theirs = plots.match_progress(plots.read_pgn_headers(fast), engine="new").points["old"][-1]
        for a, b in zip(ours, theirs):
            self.assertAlmostEqual(a, b)

    def test_the_other_side_and_gauntlets(self):
        progress = plots.match_progress(plots.read_pgn_headers(MATCH), engine="old")
        self.assertAlmostEqual(progress.points["new"][-1][3], 2 / 6)
        gauntlet = (pgn_game(1, "e", "a", "1-0") + pgn_game(2, "a", "e", "1/2-1/2")
                    + pgn_game(3, "e", "b", "0-1") + pgn_game(4, "b", "e", "0-1"))
        progress = plots.match_progress(plots.read_pgn_headers(gauntlet))
        self.assertEqual(progress.engine, "e")
        self.assertEqual(sorted(progress.points), ["a", "b"])
        self.assertAlmostEqual(progress.points["a"][-1][3], 0.75)
        self.assertAlmostEqual(progress.points["b"][-1][3], 0.5)

    def test_errors(self):
        with self.assertRaises(ValueError):
            plots.match_progress(plots.read_pgn_headers("not a pgn"))
        with self.assertRaises(ValueError):
            plots.match_progress(plots.read_pgn_headers(MATCH), engine="nobody")


TABLE = """Some text.

| network | architecture | positions | trained | Elo against the one before |
|---|---|---|---|---|
| net1 | (768 → 256)×2 → 1 | 1.20M | 20 epochs | +124 ± 41 against the hand-crafted evaluation (204 games) |
| **net2** (default) | (768 → 256)×2 → 1 | 2.16M | 20 epochs | −12 ± 51 (82 games, 10+0.1); +99 ± 60 against the hand-crafted evaluation |
| candA (not admitted) | (768 → 256)×2 → 8 | 2.25M | 20 epochs | +16 =15 −15 against net2 (46 games) |
| candB (not admitted) | (768 → 256)×2 → 8 | 2.30M | from net2 | +14.8 ± 21.3 (400 games, 10+0.1; LOS 91.4%): positive, not proven |
| net3 | (768 → 512)×2 → 8 | 4.60M | 20 epochs | +40 ± 20 (400 games, 10+0.1); +55.5 ± 27 against net1 (300 games, 10+0.1) |

After the table.
"""


class NetworkTableTests(unittest.TestCase):
    def test_admitted_rows_only(self):
        results = plots.networks_from_readme(TABLE)
        self.assertEqual([r.name for r in results], ["net1", "net2", "net3"])
        self.assertEqual([(r.elo, r.error, r.games) for r in results],
                         [(124, 41, 204), (-12, 51, 82), (40, 20, 400)])
        self.assertEqual(results[0].against, "the hand-crafted evaluation")
        self.assertEqual(results[0].against_hce, (124, 41))
        self.assertEqual(results[1].against_hce, (99, 60))

    def test_direct_matches_against_earlier_networks(self):
        results = plots.networks_from_readme(TABLE)
        # The step is against the one before; the clause after ';' is a direct measurement.
        self.assertEqual(results[2].against, "the one before")
        self.assertEqual(results[2].against_earlier, {"net1": (55.5, 27)})
        self.assertEqual(results[0].against_earlier, {})
        self.assertIsNone(results[2].against_hce)

    def test_the_repository_readme_parses(self):
        readme = os.path.join(os.path.dirname(_path.SCRIPTS), "README.md")
        with open(readme, encoding="utf-8") as f:
            results = plots.networks_from_readme(f.read())
        self.assertEqual(results[0].name, "net1")
        self.assertTrue(all(r.error > 0 for r in results))

    def test_no_table(self):
        with self.assertRaises(ValueError):
            plots.networks_from_readme("| a | b |\n|---|---|\n")


WDL_CSV = """# escaque data wdl-fit: win-rate model
# a = -1.0,2.0,3.0,100.0
# b = 0.0,0.0,10.0,50.0
material_low,material_high,score_low,score_high,positions,mean_score,win,draw,loss,model_win,model_draw,model_loss
17,30,-50,0,1000,-24.5,0.1,0.8,0.1,0.12,0.76,0.12
73,78,0,50,2000,25.0,0.3,0.5,0.2,0.31,0.49,0.2
"""

LOSSES_CSV = """epoch,train_loss,val_loss,lr,positions_per_second,seconds,total_seconds
0,,0.032788,,,,0.7
1,0.007644,0.003799,9.640e-4,337478,6.1,7.0
2,0.003196,0.003172,8.611e-4,353905,5.8,13.0
"""


class CsvTests(unittest.TestCase):
    def test_wdl_csv_and_the_model(self):
        fit = plots.read_wdl_csv(WDL_CSV)
        self.assertEqual(len(fit.rows), 2)
        self.assertEqual(fit.rows[1]["positions"], 2000)
        # At material 58, m = 1: a = sum of the coefficients.
        self.assertEqual(fit.params(58), (104.0, 60.0))
        self.assertEqual(fit.params(5), fit.params(17))  # clamped as the engine clamps
        self.assertAlmostEqual(fit.win(104.0, 58), 0.5)
        with self.assertRaises(ValueError):
            plots.read_wdl_csv("material_low\n1\n")

    def test_losses_csv(self):
        rows = plots.read_training_csv(LOSSES_CSV)
        self.assertEqual(len(rows), 3)
        self.assertIsNone(rows[0]["train_loss"])
        self.assertEqual(rows[2]["val_loss"], 0.003172)
        with self.assertRaises(ValueError):
            plots.read_training_csv("a,b\n1,2\n")


@unittest.skipUnless(HAVE_MATPLOTLIB, "matplotlib is not installed")
class DrawingTests(unittest.TestCase):
    def test_every_figure_is_a_png(self):
        with tempfile.TemporaryDirectory() as tmp:
            outputs = {
                "wdl": lambda p: plots.draw_wdl(plots.read_wdl_csv(WDL_CSV), p),
                "losses": lambda p: plots.draw_training(plots.read_training_csv(LOSSES_CSV), p),
                "match": lambda p: plots.draw_match(plots.match_progress(plots.read_pgn_headers(MATCH)), p),
                "networks": lambda p: plots.draw_networks(plots.networks_from_readme(TABLE), p),
            }
            for name, draw in outputs.items():
                path = os.path.join(tmp, name + ".png")
                draw(path)
                with open(path, "rb") as f:
                    self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", name)


if __name__ == "__main__":
    unittest.main()
