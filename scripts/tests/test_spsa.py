import random
import unittest

import _path  # noqa: F401
from escaque_tools import spsa


def pgn(round_no, white, black, result):
    return (f'[Event "spsa"]\n[Round "{round_no}"]\n[White "{white}"]\n[Black "{black}"]\n'
            f'[Result "{result}"]\n\n1. e4 e5 {result}\n\n')


class TestTable(unittest.TestCase):
    def test_parses_openbench_lines(self):
        table = spsa.parse_table("RfpMargin, int, 75, 20, 200, 8, 0.002\n\nFpBase, int, 90, 0, 300, 10, 0.002\n")
        self.assertEqual([t.name for t in table], ["RfpMargin", "FpBase"])
        self.assertEqual((table[0].value, table[0].minimum, table[0].maximum), (75.0, 20, 200))

    def test_refuses_bad_lines(self):
        for line in ("RfpMargin, int, 75, 20, 200, 8",          # a field short
                     "RfpMargin, float, 75, 20, 200, 8, 0.002",  # not int
                     "RfpMargin, int, 500, 20, 200, 8, 0.002",   # default out of range
                     "RfpMargin, int, 75, 20, 200, 0, 0.002"):   # no perturbation
            with self.assertRaises(ValueError):
                spsa.Tunable.parse(line)


class TestSchedule(unittest.TestCase):
    def setUp(self):
        self.t = spsa.Tunable("X", 100.0, 0, 1000, 10.0, 0.002)

    def test_ends_at_c_end_and_r_end(self):
        c_k, r_k = spsa.gains(self.t, 500, 500)
        self.assertAlmostEqual(c_k, 10.0)
        # R_k = a_k / c_k^2 = r_end at the last step
        self.assertAlmostEqual(r_k, 0.002)

    def test_perturbation_shrinks(self):
        first, _ = spsa.gains(self.t, 1, 500)
        last, _ = spsa.gains(self.t, 500, 500)
        self.assertGreater(first, last)

    def test_plan_is_symmetric_and_clamped(self):
        near_top = spsa.Tunable("Y", 999.0, 0, 1000, 10.0, 0.002)
        step = spsa.plan_step([self.t, near_top], 500, 500, random.Random(3))
        d = step.delta["X"]
        self.assertEqual(step.plus["X"], 100 + 10 * d)
        self.assertEqual(step.minus["X"], 100 - 10 * d)
        self.assertLessEqual(max(step.plus["Y"], step.minus["Y"]), 1000)

    def test_update_moves_towards_the_winner(self):
        step = spsa.plan_step([self.t], 500, 500, random.Random(1))
        d = step.delta["X"]
        spsa.apply_result([self.t], step, 500, wins=6, losses=2)
        # R_k * c_k * (W - L) = 0.002 * 10 * 4 = 0.08, in the direction of the plus side
        self.assertAlmostEqual(self.t.value, 100 + 0.08 * d)
        spsa.apply_result([self.t], step, 500, wins=2, losses=6)
        self.assertAlmostEqual(self.t.value, 100.0)


class TestScore(unittest.TestCase):
    def test_counts_for_the_plus_side_with_both_colours(self):
        text = (pgn(1, "plus", "minus", "1-0") + pgn(1, "minus", "plus", "1-0") + pgn(2, "plus", "minus", "1/2-1/2")
                + pgn(2, "minus", "plus", "0-1") + pgn(3, "plus", "minus", "*") + pgn(3, "a", "b", "1-0"))
        self.assertEqual(spsa.score_pgn(text, "plus", "minus"), (2, 1, 1))


class TestSettings(unittest.TestCase):
    def test_a_new_run_stores_the_given_settings_or_the_defaults(self):
        state = {}
        self.assertEqual(spsa.settle_settings(state, {"pairs": 2, "tc": None}), {"pairs": 2, "tc": "2+0.02"})
        self.assertEqual(state["settings"], {"pairs": 2, "tc": "2+0.02"})

    def test_a_resumed_run_keeps_its_settings(self):
        state = {"settings": {"pairs": 2, "tc": "2+0.02"}}
        self.assertEqual(spsa.settle_settings(state, {"pairs": None, "tc": None}), {"pairs": 2, "tc": "2+0.02"})
        self.assertEqual(spsa.settle_settings(state, {"pairs": 2, "tc": "2+0.02"})["pairs"], 2)

    def test_a_resumed_run_refuses_other_settings(self):
        state = {"settings": {"pairs": 2, "tc": "2+0.02"}}
        with self.assertRaises(ValueError):
            spsa.settle_settings(state, {"pairs": 4, "tc": None})
        with self.assertRaises(ValueError):
            spsa.settle_settings(state, {"pairs": None, "tc": "8+0.08"})
        self.assertEqual(state["settings"], {"pairs": 2, "tc": "2+0.02"})


class TestMatchOptions(unittest.TestCase):
    def test_theta_rounds_to_the_engines_integer_options(self):
        table = [spsa.Tunable("RfpMargin", 74.4, 20, 200, 8.0, 0.002), spsa.Tunable("NmpBase", 2.6, 1, 6, 0.5, 0.002)]
        self.assertEqual(spsa.match_options(table), ["option.RfpMargin=74", "option.NmpBase=3"])


if __name__ == "__main__":
    unittest.main()
