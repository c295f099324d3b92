import json
import os
import tempfile
import unittest

import _path  # noqa: F401
from escaque_tools import queue


def write_config(folder, wins, draws, losses, penta):
    ll, ld, dd, wl, wd, ww = penta
    stats = {"on vs off": {"wins": wins, "draws": draws, "losses": losses, "penta_LL": ll, "penta_LD": ld,
                           "penta_DD": dd, "penta_WL": wl, "penta_WD": wd, "penta_WW": ww}}
    with open(os.path.join(folder, queue.CONFIG), "w") as f:
        json.dump({"rounds": 2, "games": 2, "stats": stats}, f)


class TestQueue(unittest.TestCase):
    def test_a_folder_moves_from_new_to_done(self):
        with tempfile.TemporaryDirectory() as folder:
            self.assertEqual(queue.state(folder), "new")
            write_config(folder, 1, 0, 1, (0, 0, 0, 1, 0, 0))
            self.assertEqual(queue.state(folder), "partial")
            write_config(folder, 2, 1, 1, (0, 0, 1, 0, 1, 0))
            self.assertEqual(queue.state(folder), "complete")
            open(os.path.join(folder, queue.RESULT), "w").close()
            self.assertEqual(queue.state(folder), "done")

    def test_a_damaged_config_counts_as_not_started(self):
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, queue.CONFIG), "w") as f:
                f.write("{\"stats\": {")
            self.assertIsNone(queue.read_config_stats(os.path.join(folder, queue.CONFIG)))
            self.assertEqual(queue.state(folder), "new")

    def test_pentanomial_merges_dd_and_wl(self):
        with tempfile.TemporaryDirectory() as folder:
            write_config(folder, 5, 4, 3, (1, 1, 1, 1, 1, 1))
            stats = queue.read_config_stats(os.path.join(folder, queue.CONFIG))
            self.assertEqual(stats["penta"], [1, 1, 2, 1, 1])

    def test_summary_scores_from_the_first_engine(self):
        result = queue.summary({"wins": 3, "draws": 2, "losses": 1, "penta": [0, 0, 1, 1, 1]})
        self.assertEqual(result["games"], 6)
        self.assertAlmostEqual(result["score"], 4 / 6)
        self.assertGreater(result["elo"], 0)
        even = queue.summary({"wins": 1, "draws": 2, "losses": 1, "penta": [0, 1, 0, 1, 0]})
        self.assertAlmostEqual(even["elo"], 0.0)
        self.assertIn(" 50.0%", queue.line("QsChecks", even))



class TestTechniqueCommand(unittest.TestCase):
    """The fastchess command of one technique's match: on against off, whatever the build's default."""

    def command(self, switch):
        import argparse
        import importlib.machinery
        import importlib.util

        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "technique-matches")
        loader = importlib.machinery.SourceFileLoader("technique_matches", path)
        spec = importlib.util.spec_from_loader("technique_matches", loader)
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        args = argparse.Namespace(engine="/bin/true", tc="10+0.1", hash=16, games=400, concurrency=2)
        return module.fresh_command(args, switch, 2400)

    def engine_options(self, command, name):
        start = command.index(f"name={name}")
        end = command.index("-engine", start) if "-engine" in command[start:] else command.index("-each")
        return [a for a in command[start:end] if a.startswith("option.")]

    def test_a_switch_is_set_on_and_off_explicitly(self):
        command = self.command("QsChecks")
        self.assertEqual(self.engine_options(command, "on"), ["option.QsChecks=1"])
        self.assertEqual(self.engine_options(command, "off"), ["option.QsChecks=0"])

    def test_a_weight_turned_off_by_default_is_set_on_explicitly(self):
        command = self.command("ContHist4Weight")
        self.assertEqual(self.engine_options(command, "on"), ["option.ContHist4Weight=100"])
        self.assertEqual(self.engine_options(command, "off"), ["option.ContHist4Weight=0"])

    def test_a_margin_keeps_its_build_default_when_on(self):
        # FpImproving is 50 cp in the build: "on" at 1 cp would be a different engine.
        command = self.command("FpImproving")
        self.assertEqual(self.engine_options(command, "on"), [])
        self.assertEqual(self.engine_options(command, "off"), ["option.FpImproving=0"])


class TestMatchArgs(unittest.TestCase):
    def test_each_opening_is_played_with_both_colours(self):
        args = queue.match_args("/o.epd", 9, 400, 2)
        self.assertEqual(args[args.index("-rounds") + 1], "200")
        self.assertEqual(args[args.index("-games") + 1], "2")
        self.assertEqual(args[args.index("-srand") + 1], "9")
        self.assertIn("-repeat", args)
        self.assertIn("file=/o.epd", args)

    def test_an_odd_number_of_games_is_refused(self):
        with self.assertRaises(ValueError):
            queue.match_args("/o.epd", 1, 401, 2)


if __name__ == "__main__":
    unittest.main()
