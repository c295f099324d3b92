"""scripts/net-screen: the fastchess command it builds (both sides the same binary, only the
network differs, a fixed number of nodes) and what it refuses before playing."""

import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

import _path  # noqa: F401

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(os.path.dirname(HERE), "net-screen")


def load_script():
    loader = importlib.machinery.SourceFileLoader("net_screen", SCRIPT)
    spec = importlib.util.spec_from_loader("net_screen", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def option_values(command, flag):
    """The arguments that follow each occurrence of `flag` up to the next flag."""
    groups, i = [], 0
    while i < len(command):
        if command[i] == flag:
            j = i + 1
            while j < len(command) and not command[j].startswith("-"):
                j += 1
            groups.append(command[i + 1:j])
            i = j
        else:
            i += 1
    return groups


class TestCommand(unittest.TestCase):
    def setUp(self):
        self.screen = load_script()

    def test_only_the_network_differs_between_the_sides(self):
        command = self.screen.fresh_command("/bin/escaque", "/n/cand.nnue", "/n/ref.nnue", 2000, 5000, 7, 2)
        candidate, reference = option_values(command, "-engine")
        self.assertEqual(candidate, ["cmd=/bin/escaque", "name=candidate", "option.EvalFile=/n/cand.nnue"])
        self.assertEqual(reference, ["cmd=/bin/escaque", "name=reference", "option.EvalFile=/n/ref.nnue"])
        (each,) = option_values(command, "-each")
        self.assertIn("nodes=5000", each)
        self.assertIn("tc=inf", each)
        self.assertEqual(option_values(command, "-rounds"), [["1000"]])
        self.assertEqual(option_values(command, "-games"), [["2"]])
        self.assertEqual(option_values(command, "-srand"), [["7"]])
        self.assertIn("-repeat", command)

    def test_the_built_in_reference_sets_no_network(self):
        command = self.screen.fresh_command("/bin/escaque", "/n/cand.nnue", self.screen.BUILT_IN, 10, 100, 1, 1)
        _, reference = option_values(command, "-engine")
        self.assertEqual(reference, ["cmd=/bin/escaque", "name=reference"])

    def test_an_odd_number_of_games_is_refused(self):
        with self.assertRaises(ValueError):
            self.screen.fresh_command("/bin/escaque", "/n/a.nnue", "/n/b.nnue", 7, 100, 1, 1)


class TestRefusals(unittest.TestCase):
    def run_script(self, *extra):
        return subprocess.run([sys.executable, SCRIPT, *extra], capture_output=True, text=True, timeout=60)

    def test_a_missing_network_is_refused(self):
        with tempfile.TemporaryDirectory() as out:
            done = self.run_script("--candidate", os.path.join(out, "none.nnue"), "--out", out,
                                   "--engine", sys.executable)
            self.assertEqual(done.returncode, 2)
            self.assertIn("no network file", done.stderr)
            self.assertEqual(os.listdir(out), [])

    def test_odd_games_are_refused(self):
        with tempfile.TemporaryDirectory() as out:
            network = os.path.join(out, "a.nnue")
            open(network, "w").close()
            done = self.run_script("--candidate", network, "--games", "3", "--out", out,
                                   "--engine", sys.executable)
            self.assertEqual(done.returncode, 2)
            self.assertIn("--games must be even", done.stderr)


if __name__ == "__main__":
    unittest.main()
