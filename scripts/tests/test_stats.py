import math
import unittest

import _path  # noqa: F401
from escaque_tools import stats


class EloTests(unittest.TestCase):
    def test_elo_from_score_known_values(self):
        self.assertAlmostEqual(stats.elo_from_score(0.75), 190.848501887865, places=6)
        self.assertAlmostEqual(stats.elo_from_score(0.5), 0.0, places=12)
        self.assertAlmostEqual(stats.elo_from_score(0.25), -190.848501887865, places=6)
        self.assertAlmostEqual(stats.elo_from_score(0.6), 70.4365036222725, places=6)
        self.assertEqual(stats.elo_from_score(1.0), math.inf)
        self.assertEqual(stats.elo_from_score(0.0), -math.inf)

    def test_score_from_elo_roundtrip(self):
        for elo in (-500, -35.5, 0, 12, 400):
            self.assertAlmostEqual(stats.elo_from_score(stats.score_from_elo(elo)), elo, places=9)
        self.assertAlmostEqual(stats.score_from_elo(400), 10 / 11, places=12)

    def test_trinomial_error_bar(self):
        # W40 D20 L40: mean 0.5, per-game variance 0.4*0.25*2 = 0.2, stderr sqrt(0.2/100)
        est = stats.elo_trinomial(40, 20, 40)
        self.assertAlmostEqual(est.elo, 0.0, places=9)
        half = 1.959963984540054 * math.sqrt(0.2 / 100)
        expected = -400 * math.log10(1 / (0.5 + half) - 1)
        self.assertAlmostEqual(est.error, expected, places=9)
        self.assertAlmostEqual(est.error, 61.54, places=2)

    def test_pentanomial_error_bar(self):
        penta = [100, 800, 1900, 1000, 200]
        n = sum(penta)
        mu = sum(c * s for c, s in zip(penta, (0, 0.25, 0.5, 0.75, 1))) / n
        self.assertAlmostEqual(mu, 0.525)
        var = sum(c * (s - mu) ** 2 for c, s in zip(penta, (0, 0.25, 0.5, 0.75, 1))) / n
        est = stats.elo_pentanomial(penta)
        self.assertAlmostEqual(est.elo, -400 * math.log10(1 / 0.525 - 1), places=9)
        self.assertAlmostEqual(est.elo, 17.39, places=2)
        lo = stats.elo_from_score(mu - 1.959963984540054 * math.sqrt(var / n))
        hi = stats.elo_from_score(mu + 1.959963984540054 * math.sqrt(var / n))
        self.assertAlmostEqual(est.error, (hi - lo) / 2, places=9)
        self.assertAlmostEqual(est.error, 4.64, places=2)

    def test_los(self):
        self.assertAlmostEqual(stats.los(10, 10), 0.5)
        self.assertAlmostEqual(stats.los(60, 40), 0.5 * (1 + math.erf(20 / math.sqrt(200))))
        self.assertGreater(stats.los(60, 40), 0.97)


class SprtTests(unittest.TestCase):
    def test_bounds(self):
        lo, hi = stats.sprt_bounds(0.05, 0.05)
        self.assertAlmostEqual(hi, 2.944438979166440, places=12)
        self.assertAlmostEqual(lo, -2.944438979166440, places=12)
        lo, hi = stats.sprt_bounds(0.05, 0.10)
        self.assertAlmostEqual(lo, math.log(0.10 / 0.95))
        self.assertAlmostEqual(hi, math.log(0.90 / 0.05))
        with self.assertRaises(ValueError):
            stats.sprt_bounds(0.6, 0.5)

    @staticmethod
    def approx_llr(penta, s0, s1):
        """Independent normal approximation: N * (s1-s0) * (2*mu - s0 - s1) / (2 * var)."""
        n = sum(penta)
        scores = (0, 0.25, 0.5, 0.75, 1)
        mu = sum(c * s for c, s in zip(penta, scores)) / n
        var = sum(c * (s - mu) ** 2 for c, s in zip(penta, scores)) / n
        return n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var), mu, var

    def test_logistic_llr_matches_normal_approximation(self):
        penta = [100, 800, 1900, 1000, 200]
        s0, s1 = stats.score_from_elo(0), stats.score_from_elo(5)
        approx, _, _ = self.approx_llr(penta, s0, s1)
        llr = stats.llr_pentanomial(penta, 0, 5, "logistic")
        self.assertAlmostEqual(approx, 13.318, places=2)
        self.assertAlmostEqual(llr, approx, delta=0.02 * abs(approx))

    def test_normalized_llr_matches_normal_approximation(self):
        penta = [100, 800, 1900, 1000, 200]
        _, mu, var = self.approx_llr(penta, 0.5, 0.6)
        sigma = math.sqrt(var)
        nelo_scale = 800 / math.log(10)
        # normalized Elo bounds 0 and 5: s_i = 0.5 + t_i * sigma, t_i = sqrt(2) * nelo_i / (800/ln10)
        s0 = 0.5
        s1 = 0.5 + math.sqrt(2) * 5 / nelo_scale * sigma
        approx, _, _ = self.approx_llr(penta, s0, s1)
        llr = stats.llr_pentanomial(penta, 0, 5, "normalized")
        self.assertAlmostEqual(llr, approx, delta=0.02 * abs(approx))
        self.assertAlmostEqual(llr, 8.60, places=1)

    def test_llr_antisymmetry(self):
        penta = [30, 120, 300, 150, 40]
        for model in ("normalized", "logistic"):
            a = stats.llr_pentanomial(penta, -5, 5, model)
            b = stats.llr_pentanomial(list(reversed(penta)), -5, 5, model)
            self.assertAlmostEqual(a, -b, places=6)

    def test_decisions(self):
        strong = [2, 10, 60, 120, 80]
        weak = list(reversed(strong))
        self.assertGreater(stats.llr_pentanomial(strong, 0, 5), 2.95)
        self.assertEqual(stats.sprt_decision(stats.llr_pentanomial(strong, 0, 5)), "H1")
        self.assertLess(stats.llr_pentanomial(weak, 0, 5), -2.95)
        self.assertEqual(stats.sprt_decision(stats.llr_pentanomial(weak, 0, 5)), "H0")
        even = [2, 10, 20, 10, 2]
        self.assertEqual(stats.sprt_decision(stats.llr_pentanomial(even, 0, 5)), "continue")
        self.assertEqual(stats.llr_pentanomial([0, 0, 0, 0, 0], 0, 5), 0.0)
        # More of the same evidence moves the LLR further.
        self.assertGreater(stats.llr_pentanomial([c * 2 for c in strong], 0, 5),
                           stats.llr_pentanomial(strong, 0, 5))

    def test_trinomial_llr(self):
        self.assertGreater(stats.llr_trinomial(600, 300, 300, 0, 5), 2.95)
        self.assertLess(stats.llr_trinomial(300, 300, 600, 0, 5), -2.95)
        a = stats.llr_trinomial(100, 50, 80, -5, 5, "logistic")
        b = stats.llr_trinomial(80, 50, 100, -5, 5, "logistic")
        self.assertAlmostEqual(a, -b, places=6)

    def test_unknown_model(self):
        with self.assertRaises(ValueError):
            stats.llr_pentanomial([1, 2, 3, 2, 1], 0, 5, "bayesian")

    def test_normalized_elo(self):
        penta = [100, 800, 1900, 1000, 200]
        n, mu, var = stats.pentanomial_mean_var(penta)
        expected = (mu - 0.5) / math.sqrt(var) * (800 / math.log(10)) / math.sqrt(2)
        self.assertAlmostEqual(stats.normalized_elo_pentanomial(penta), expected)
        self.assertAlmostEqual(stats.normalized_elo_pentanomial(penta), 28.56, places=2)


class PairingTests(unittest.TestCase):
    def test_pair_index(self):
        self.assertEqual(stats.pair_index(0, 0), 0)
        self.assertEqual(stats.pair_index(0.5, 0), 1)
        self.assertEqual(stats.pair_index(1, 0), 2)
        self.assertEqual(stats.pair_index(0.5, 0.5), 2)
        self.assertEqual(stats.pair_index(1, 0.5), 3)
        self.assertEqual(stats.pair_index(1, 1), 4)
        with self.assertRaises(ValueError):
            stats.pair_index(0.25, 1)

    def test_pentanomial_from_pairs(self):
        pairs = [(1, 1), (1, 0), (0.5, 0.5), (0, 0.5), (1, 0.5), (0, 0)]
        self.assertEqual(stats.pentanomial_from_pairs(pairs), [1, 1, 2, 1, 1])

    def test_pairing_stats_out_of_order(self):
        st = stats.PairingStats()
        st.add_game(1, pair_id=1)
        st.add_game(0.5, pair_id=2)
        self.assertEqual(st.penta, [0, 0, 0, 0, 0])  # no pair complete yet
        st.add_game(0, pair_id=2)  # pair 2: 0.5 + 0 -> LD
        st.add_game(1, pair_id=1)  # pair 1: WW
        st.add_game(0.5, pair_id=3)
        self.assertEqual(st.penta, [0, 1, 0, 0, 1])
        self.assertEqual((st.wins, st.draws, st.losses), (2, 2, 1))
        self.assertAlmostEqual(st.score, 3 / 5)
        # Elo uses completed pairs only: mean of (1.0, 0.25) = 0.625
        self.assertAlmostEqual(st.elo().score, 0.625)
        with self.assertRaises(ValueError):
            st.add_game(2)


if __name__ == "__main__":
    unittest.main()


class EloShownOnlyWhenMeaningfulTests(unittest.TestCase):
    def test_no_elo_before_wins_losses_and_variance(self):
        # One game won: +inf; every pair split: no variance; both say nothing yet.
        for est in (stats.elo_trinomial(1, 0, 0), stats.elo_pentanomial([0, 0, 6, 0, 0])):
            self.assertFalse(est.meaningful())
            self.assertTrue(est.fmt().startswith("n/a"), est.fmt())
        est = stats.elo_trinomial(40, 20, 40)
        self.assertTrue(est.meaningful())
        self.assertEqual(est.fmt(), "+0.00 +/- 61.54")
