"""escaque_tools.lines (nets/built-in.txt, the manifest lines of a line's games) and what
scripts/net-line refuses before it trains."""

import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import _path  # noqa: F401
from escaque_tools import chain, lines
from escaque_tools.chain import Snapshot

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "net-line"

SNAPSHOT = Snapshot(name="net11-s39-n5000-g9000.bin", network="net11", net_checksum="8c1bbb801907eb53", seed=39,
                    nodes="5000", random_plies="8", games=9000, positions=741000,
                    sha256_16="0123456789abcdef", engine="cf5bd1c")


class TestRecipe(unittest.TestCase):
    def test_a_recipe_is_read_and_written_back(self):
        text = lines.format_recipe(lines.Recipe("base.nnue", ["line-g1.nnue", "line-g2.nnue"]))
        self.assertTrue(text.startswith("# "))
        recipe = lines.parse_recipe(text + "\n# a comment\nline line-g3.nnue  # and one here\n")
        self.assertEqual(recipe, lines.Recipe("base.nnue", ["line-g1.nnue", "line-g2.nnue", "line-g3.nnue"]))

    def test_what_is_not_a_recipe_is_refused(self):
        for text in ["line a.nnue\n",                          # no base
                     "base b.nnue\n",                          # no line
                     "base b.nnue\nbase c.nnue\nline a.nnue\n",  # two bases
                     "base b.nnue\nline a.nnue\nline a.nnue\n",  # a line twice
                     "base b.nnue\nline ../a.nnue\n",          # outside nets/
                     "base b.nnue\nline a.bin\n",              # not a network
                     "base b.nnue\nlines a.nnue\n",            # an unknown word
                     "base b.nnue\nline a.nnue extra\n"]:
            with self.subTest(text=text), self.assertRaises(ValueError):
                lines.parse_recipe(text)

    def test_the_committed_recipe_names_files_of_nets_and_is_written_as_the_script_writes_it(self):
        text = (REPO / "nets" / "built-in.txt").read_text()
        recipe = lines.parse_recipe(text)
        for name in [recipe.base, *recipe.lines]:
            self.assertTrue((REPO / "nets" / name).is_file(), name)
        self.assertEqual(lines.format_recipe(recipe), text)

    def test_the_merge_takes_the_base_and_every_line(self):
        command = lines.merge_command("/e", "/n", lines.Recipe("b.nnue", ["l1.nnue", "l2.nnue"]), "/o.nnue")
        self.assertEqual(command, ["/e", "net-merge", "--base", "/n/b.nnue", "--out", "/o.nnue",
                                   "/n/l1.nnue", "/n/l2.nnue"])


class TestManifest(unittest.TestCase):
    def test_a_lines_snapshot_marks_its_seed_as_trained(self):
        entry = lines.manifest_line(SNAPSHOT, "12")
        fields = entry.split("\t")
        self.assertEqual(len(fields), 11)
        self.assertTrue(fields[0].startswith("snap-s39-g9000.bin (line g12's training"))
        self.assertEqual(fields[3:9], ["39", "5000", "8", "9000", "741000", "0123456789abcdef"])
        self.assertEqual(chain.trained_seeds("header\n" + entry + "\n"), {39: "line g12"})
        part = lines.manifest_line(SNAPSHOT, "12b").replace("snap-s39", "snap-s40")
        self.assertIn("line g12b's training", part)
        self.assertEqual(chain.trained_seeds(entry + "\n" + part), {39: "line g12", 40: "line g12b"})
        self.assertEqual(lines.line_name("12b"), "line-g12b.nnue")

    def test_the_chains_steps_count_as_trained_too(self):
        manifest = (REPO / "scripts" / "data-manifest.tsv").read_text()
        trained = chain.trained_seeds(manifest)
        self.assertEqual(trained.get(17), "step 1")
        self.assertEqual(trained.get(35), "step 10")
        self.assertEqual((trained.get(36), trained.get(37)), ("line g11", "line g11"))
        self.assertNotIn(38, trained)


class TestReplacedParts(unittest.TestCase):
    TRAINED = {39: "line g12a", 40: "line g12b", 37: "line g11"}
    NETS = ["line-g11.nnue", "line-g12a.nnue", "line-g12b.nnue"]
    RECIPE = lines.Recipe("base.nnue", ["line-g11.nnue", "line-g12a.nnue"])

    def replaced(self, generation, replaces, trained=None, nets=None, recipe=None):
        return lines.replaced_parts(generation, replaces, self.TRAINED if trained is None else trained,
                                    self.NETS if nets is None else nets, recipe or self.RECIPE)

    def test_a_whole_generation_replaces_its_parts(self):
        self.assertEqual(self.replaced("12", "12a,12b"), ["12a", "12b"])
        self.assertEqual(self.replaced("12", " 12b, 12a "), ["12b", "12a"])
        self.assertEqual(self.replaced("13", ""), [])
        self.assertEqual(self.replaced("12c", ""), [])

    def test_every_part_made_must_be_replaced(self):
        # Made by games (the manifest), kept in nets/, or named by the recipe: each counts.
        self.assertEqual(lines.parts_made("12", self.TRAINED, [], lines.Recipe("b.nnue", ["l.nnue"])), {"12a", "12b"})
        self.assertEqual(lines.parts_made("12", {}, ["line-g12c.nnue"], lines.Recipe("b.nnue", ["line-g12d.nnue"])),
                         {"12c", "12d"})
        self.assertEqual(lines.parts_made("1", self.TRAINED, self.NETS, self.RECIPE), set())
        for trained, nets, replaces in [(self.TRAINED, [], "12a"),         # 12b trained, not replaced
                                        ({39: "line g12a"}, self.NETS, "12a"),  # 12b kept in nets/
                                        (self.TRAINED, [], "")]:
            with self.subTest(nets=nets, replaces=replaces), \
                    self.assertRaisesRegex(ValueError, r"is a part of generation 12: pass --replaces 12a,12b"):
                self.replaced("12", replaces, trained, nets, lines.Recipe("b.nnue", ["line-g11.nnue"]))

    def test_no_part_once_the_whole_generation_has_its_line(self):
        for trained, nets, recipe in [({**self.TRAINED, 39: "line g12"}, [], self.RECIPE),
                                      (self.TRAINED, [*self.NETS, "line-g12.nnue"], self.RECIPE),
                                      ({}, [], lines.Recipe("b.nnue", ["line-g12.nnue"]))]:
            with self.subTest(nets=nets), self.assertRaisesRegex(ValueError, "generation 12 has its whole line"):
                self.replaced("12c", "", trained, nets, recipe)

    def test_what_cannot_be_replaced_is_refused(self):
        for generation, replaces, why in [
                ("12c", "12a", "is a part itself"),
                ("13", "12a", "not a part of generation 13"),
                ("12", "12", "not a part of generation 12"),
                ("12", "12a,12b,12c", "no line g12c trained"),
                ("12", "12a,12a,12b", "named twice"),
                ("1", "12a", "not a part of generation 1"),
                ("x", "", "not a number")]:
            with self.subTest(generation=generation, replaces=replaces), \
                    self.assertRaisesRegex(ValueError, why):
                self.replaced(generation, replaces)

    def test_a_replaced_parts_seeds_are_trained_again_and_only_those(self):
        trained = {**self.TRAINED, 35: "step 10"}
        self.assertIsNone(lines.seed_refusal(41, trained, []))
        self.assertIsNone(lines.seed_refusal(39, trained, ["12a"]))
        self.assertIn("--generation 12 --replaces 12b", lines.seed_refusal(40, trained, ["12a"]))
        self.assertIn("trained on by line g11", lines.seed_refusal(37, trained, ["12a", "12b"]))
        self.assertIn("trained on by step 10", lines.seed_refusal(35, trained, ["12a"]))
        self.assertEqual(lines.seeds_left_out({40, 41}, trained, ["12a", "12b"]), [39])
        self.assertEqual(lines.seeds_left_out({39, 40}, trained, ["12a", "12b"]), [])
        self.assertEqual(lines.seeds_left_out({41}, trained, []), [])

    def test_the_candidate_takes_the_new_line_in_place_of_the_parts(self):
        recipe = lines.Recipe("b.nnue", ["line-g11.nnue", "line-g12a.nnue", "line-g12b.nnue"])
        self.assertEqual(lines.candidate_recipe(recipe, "line-g12.nnue", ["12a", "12b"]),
                         lines.Recipe("b.nnue", ["line-g11.nnue", "line-g12.nnue"]))
        self.assertEqual(lines.candidate_recipe(recipe, "line-g13a.nnue", []),
                         lines.Recipe("b.nnue", [*recipe.lines, "line-g13a.nnue"]))

    def test_the_last_line_to_train_a_seed_owns_it(self):
        part = lines.manifest_line(SNAPSHOT, "12a")
        whole = lines.manifest_line(SNAPSHOT, "12")
        self.assertEqual(chain.trained_seeds(part + "\n" + whole), {39: "line g12"})


class TestRefusals(unittest.TestCase):
    def run_script(self, *extra):
        return subprocess.run([sys.executable, str(SCRIPT), *extra], capture_output=True, text=True, timeout=60)

    def datagen_file(self, folder, seed):
        data = Path(folder) / f"net11-s{seed}-n5000.bin"
        data.write_bytes(bytes(64))
        (Path(folder) / (data.name + ".progress")).write_text(
            f"seed={seed} games=1 bytes=64 shape=5000/8/0/8c1bbb801907eb53\n")
        return data

    def test_a_generation_that_has_its_line_is_refused(self):
        with tempfile.TemporaryDirectory() as work:
            data = self.datagen_file(work, 1039)
            done = self.run_script("--generation", "11", "--data", str(data), "--work", work)
            self.assertEqual(done.returncode, 2)
            self.assertIn("line-g11.nnue is already a line", done.stderr)
            self.assertEqual(sorted(os.listdir(work)), sorted([data.name, data.name + ".progress"]))

    def test_a_seed_already_trained_on_is_refused(self):
        with tempfile.TemporaryDirectory() as work:
            data = self.datagen_file(work, 35)
            done = self.run_script("--generation", "1012", "--data", str(data), "--work", work)
            self.assertEqual(done.returncode, 2)
            self.assertIn("seed 35 was trained on by step 10", done.stderr)

    def test_a_part_that_no_line_trained_is_not_replaced(self):
        with tempfile.TemporaryDirectory() as work:
            data = self.datagen_file(work, 1039)
            done = self.run_script("--generation", "1012", "--replaces", "1012a", "--data", str(data), "--work", work)
            self.assertEqual(done.returncode, 2)
            self.assertIn("error: no line g1012a trained", done.stderr)
            self.assertFalse((Path(work) / "line-g1012").exists())

    def test_a_generation_that_is_not_a_number_is_refused(self):
        with tempfile.TemporaryDirectory() as work:
            data = self.datagen_file(work, 1039)
            for generation in ["x", "12ab", "../12", "", "012"]:
                done = self.run_script("--generation", generation, "--data", str(data), "--work", work)
                self.assertEqual(done.returncode, 2, generation)
                self.assertIn("is not a number", done.stderr)

    def test_a_file_without_progress_is_refused(self):
        with tempfile.TemporaryDirectory() as work:
            data = Path(work) / "foreign.bin"
            data.write_bytes(bytes(64))
            done = self.run_script("--generation", "1012", "--data", str(data), "--work", work)
            self.assertEqual(done.returncode, 2)
            self.assertIn("not a datagen file", done.stderr)
            self.assertFalse((Path(work) / "line-g1012").exists())


if __name__ == "__main__":
    unittest.main()
