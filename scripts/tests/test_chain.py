import unittest
from pathlib import Path

import _path  # noqa: F401
from escaque_tools import chain

REPO = Path(__file__).resolve().parents[2]

STEP_1 = ("| 1 | 2026-12-02 | net9 (built in) | seed 17's first 8,068 games (`11d9d942f05057af`) | 668,329 "
          "| 4 epochs, lr 3e-4 | `0x317980f21ec3488c` | \u22120.00032 ± 0.00019 |")

TABLE = f"""Text before.

| step | date | from | games (snapshot, sha256 first 16) | positions | recipe | candidate checksum | screen |
|---|---|---|---|---|---|---|---|
{STEP_1}

Text after.
"""

# chain1's net-loss.txt, as `escaque net-loss` printed it.
NET_LOSS = """65241 positions, target: the game result; error bars 95%, from 65 blocks of 1000 consecutive positions
/root/escaque-data/net9.nnue  f123192ef1dabbc5  (768 -> 512)x2 -> 8: 1 king bucket, 8 output buckets
    loss 0.083372  (reference)
    at its best scale \u00d71.636: loss 0.079443  (reference)
/root/escaque-data/chain1/step1.nnue  317980f21ec3488c  (768 -> 512)x2 -> 8: 1 king bucket, 8 output buckets
    loss 0.081911  -0.001461 ± 0.000232
    at its best scale \u00d71.507: loss 0.079120  -0.000322 ± 0.000186
/root/escaque-data/chain1/e1.nnue  1b7bd365bebd98b4  (768 -> 512)x2 -> 8: 1 king bucket, 8 output buckets
    loss 0.082327  -0.001044 ± 0.000169
    at its best scale \u00d71.515: loss 0.079438  -0.000005 ± 0.000186
"""

SNAPSHOT = chain.Snapshot(name="net9-s17-n5000-g8068.bin", network="net9", net_checksum="f123192ef1dabbc5", seed=17,
                          nodes="5000", random_plies="8", games=8068, positions=668329,
                          sha256_16="11d9d942f05057af", engine="cf5bd1c")


class TestChain(unittest.TestCase):
    def test_the_last_step_is_read_from_the_table(self):
        step = chain.last_step(TABLE)
        self.assertEqual((step.number, step.checksum), (1, "317980f21ec3488c"))
        with self.assertRaises(ValueError):
            chain.last_step("no table here")

    def test_the_committed_table_is_readable(self):
        rows = chain.table_rows((REPO / "nets" / "README.md").read_text())
        self.assertGreaterEqual(len(rows), 1)
        self.assertEqual([int(row[0]) for row in rows], list(range(1, len(rows) + 1)))
        chain.last_step((REPO / "nets" / "README.md").read_text())

    def test_a_row_goes_after_the_last_one(self):
        text = chain.append_row(TABLE, "| 2 | x |")
        self.assertIn(STEP_1 + "\n| 2 | x |\n\nText after.", text)
        self.assertEqual(chain.last_step(chain.append_row(TABLE, STEP_1.replace("| 1 |", "| 2 |", 1))).number, 2)

    def test_net_loss_is_read_at_the_best_scale(self):
        screens = chain.parse_net_loss(NET_LOSS)
        self.assertEqual(list(screens), ["/root/escaque-data/net9.nnue", "/root/escaque-data/chain1/step1.nnue",
                                         "/root/escaque-data/chain1/e1.nnue"])
        reference = screens["/root/escaque-data/net9.nnue"]
        self.assertEqual((reference.checksum, reference.difference), ("f123192ef1dabbc5", None))
        step = screens["/root/escaque-data/chain1/step1.nnue"]
        self.assertEqual((step.checksum, step.difference, step.error), ("317980f21ec3488c", -0.000322, 0.000186))

    def test_step_1s_row_comes_out_as_written(self):
        screen = chain.format_screen(-0.000322, 0.000186)
        self.assertEqual(screen, "\u22120.00032 ± 0.00019")
        self.assertEqual(chain.format_screen(0.00041, 0.0002), "+0.00041 ± 0.00020")
        games = [chain.Games(17, 8068, "11d9d942f05057af")]
        row = chain.step_row(1, "2026-12-02", "net9 (built in)", games, 668329, 4, 0.0003, "317980f21ec3488c", screen)
        self.assertEqual(row, STEP_1)
        # A loss power other than the trainer's 2 is part of the recipe the row states.
        powered = chain.step_row(1, "2026-12-02", "net9 (built in)", games, 668329, 4, 0.0003, "317980f21ec3488c",
                                 screen, 2.5)
        self.assertEqual(powered, STEP_1.replace("lr 3e-4 |", "lr 3e-4, loss power 2.5 |"))
        self.assertEqual(chain.rows(TABLE.replace(STEP_1, powered))[0], chain.Row(1, 0, games, "317980f21ec3488c"))
        self.assertEqual(chain.rows(TABLE)[0], chain.Row(1, 0, games, "317980f21ec3488c"))

    def test_a_step_starts_from_the_earliest_base_whose_later_games_are_all_kept(self):
        s17, s18, s19, s20 = (chain.Games(seed, 1000, f"{seed:016x}") for seed in (17, 18, 19, 20))
        rows = [chain.Row(1, 0, [s17], "1" * 16),
                chain.Row(2, 0, [s17, s18], "2" * 16),   # a kept machine: from the built-in net again
                chain.Row(3, 2, [s19], "3" * 16)]        # after a lost one: from step 2, the new seed alone
        self.assertEqual(chain.seen(rows, 3), {s17, s18, s19})
        self.assertEqual(chain.seen(rows, 1), {s17})
        self.assertEqual(chain.choose_base(rows, {s17, s18, s19, s20}), (0, {s17, s18, s19}))
        # Seed 17 gone: step 2 learnt it, so the start is step 2 with seed 19 again. Step 1 would
        # need only kept games (18 and 19) but is not on step 3's line of bases.
        self.assertEqual(chain.choose_base(rows, {s18, s19}), (2, {s19}))
        # Nothing kept: the last candidate and the new games alone.
        self.assertEqual(chain.choose_base(rows, set()), (3, set()))
        # A snapshot with other bytes is not the one the table names.
        self.assertEqual(chain.choose_base(rows, {chain.Games(19, 1000, "f" * 16)}), (3, set()))

    def test_an_admitted_step_is_where_the_chain_starts_again(self):
        s17, s18, s19, s23, s24 = (chain.Games(seed, 1000, f"{seed:016x}") for seed in (17, 18, 19, 23, 24))
        rows = [chain.Row(1, 0, [s17], "1" * 16),
                chain.Row(2, 0, [s17, s18], "2" * 16),
                chain.Row(3, 2, [s19], "3" * 16)]
        self.assertIsNone(chain.admission(TABLE))
        admitted = chain.admission(TABLE + "\nAdmitted: step 1 as net10 (2026-12-01).\nAdmitted: step 3 as net11.\n")
        self.assertEqual(admitted, chain.Admission(3, "net11"))
        # Step 3 is built in: nothing it learnt is trained again, even with every game kept.
        self.assertEqual(chain.seen(rows, 3, admitted.step), set())
        self.assertEqual(chain.choose_base(rows, {s17, s18, s19}, admitted.step), (0, set()))
        # Without the admission the same table would start from the old built-in network again.
        self.assertEqual(chain.choose_base(rows, {s17, s18, s19}), (0, {s17, s18, s19}))
        # The steps after it start from the new built-in network; a lost machine falls back on
        # the last candidate, never behind the admission.
        rows += [chain.Row(4, 0, [s23], "4" * 16), chain.Row(5, 0, [s23, s24], "5" * 16)]
        self.assertEqual(chain.seen(rows, 5, admitted.step), {s23, s24})
        self.assertEqual(chain.choose_base(rows, {s17, s18, s19, s23, s24}, admitted.step), (0, {s23, s24}))
        self.assertEqual(chain.choose_base(rows, {s24}, admitted.step), (5, set()))

    def test_a_restarted_line_leaves_the_old_line_behind(self):
        s19, s20, s28, s29 = (chain.Games(seed, 1000, f"{seed:016x}") for seed in (19, 20, 28, 29))
        rows = [chain.Row(1, 0, [s19], "1" * 16),
                chain.Row(2, 1, [s20], "2" * 16)]       # the old line, its games since lost
        # A restart starts from the built-in network with nothing again, whatever is kept.
        self.assertEqual(chain.choose_base(rows, {s19, s20, s28}, restart=True), (0, set()))
        self.assertEqual(chain.choose_base(rows, {s28}), (2, set()))
        # The restarted step: the next one on a kept machine goes back to the built-in network
        # with the new line's games only, and after a lost machine to the new line's candidate.
        rows.append(chain.Row(3, 0, [s28], "3" * 16))
        self.assertEqual(chain.seen(rows, 3), {s28})
        self.assertEqual(chain.choose_base(rows, {s19, s20, s28, s29}), (0, {s28}))
        self.assertEqual(chain.choose_base(rows, {s29}), (3, set()))

    def test_learning_rates_are_written_short(self):
        self.assertEqual([chain.format_lr(lr) for lr in (0.0003, 0.0001, 0.001, 0.00025)],
                         ["3e-4", "1e-4", "1e-3", "2.5e-4"])

    def test_a_snapshot_line_marks_its_seed_as_stepped(self):
        line = chain.manifest_line(SNAPSHOT, 1)
        fields = line.split("\t")
        self.assertEqual(fields[0], "snap-s17-g8068.bin (candidate step 1's training, nets/README.md: "
                                    "the first 8068 games of seed 17)")
        self.assertEqual(fields[1:], ["net9", "f123192ef1dabbc5", "17", "5000", "8", "8068", "668329",
                                      "11d9d942f05057af", "yes", "cf5bd1c"])
        self.assertEqual(chain.stepped_seeds("header\n" + line + "\n"), {17: 1})

    def test_the_committed_manifest_knows_step_1s_seed_and_the_builds(self):
        manifest = (REPO / "scripts" / "data-manifest.tsv").read_text()
        self.assertEqual(chain.stepped_seeds(manifest).get(17), 1)
        self.assertEqual(chain.engine_of(manifest, "net9-s18-n5000.bin"), "cf5bd1c")
        self.assertEqual(chain.engine_of(manifest, "no-such-file.bin"), "?")


if __name__ == "__main__":
    unittest.main()
