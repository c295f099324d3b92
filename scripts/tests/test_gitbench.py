import os
import subprocess
import sys
import tempfile
import unittest

import _path  # noqa: F401
from _path import SCRIPTS
from escaque_tools import gitbench


class BenchOutputTests(unittest.TestCase):
    def test_last_line(self):
        out = "info depth 1 ...\nposition 1/50 ...\n\n4567890 nodes 1234567 nps\n\n"
        self.assertEqual(gitbench.parse_bench_output(out), (4567890, 1234567))

    def test_last_line_must_match(self):
        self.assertIsNone(gitbench.parse_bench_output("123 nodes 456 nps\nsomething else\n"))
        self.assertIsNone(gitbench.parse_bench_output("unknown command: bench\n"))
        self.assertIsNone(gitbench.parse_bench_output(""))


class GitLogTests(unittest.TestCase):
    def test_newest_wins(self):
        msgs = ["Tune LMR\n\nBench: 1234567\n", "older\n\nBench: 999\n"]
        self.assertEqual(gitbench.find_bench_in_messages(msgs), 1234567)

    def test_skips_messages_without_bench(self):
        msgs = ["docs only\n", "Search: add NMP\n\nsome text\nbench: 4,242,001\n", "Bench: 1\n"]
        self.assertEqual(gitbench.find_bench_in_messages(msgs), 4242001)

    def test_last_line_within_message_and_no_inline_match(self):
        self.assertEqual(gitbench.find_bench_in_messages(["Bench: 5\nfixup\nBench: 6\n"]), 6)
        self.assertIsNone(gitbench.find_bench_in_messages(["we should run the Bench: 5 later\n"]))
        self.assertIsNone(gitbench.find_bench_in_messages([]))

    def test_split_git_log(self):
        raw = "first\n\nBench: 10\n\x00\nsecond\n\x00\n"
        self.assertEqual(len(gitbench.split_git_log(raw)), 2)

    def test_real_git_repository(self):
        with tempfile.TemporaryDirectory() as d:
            def git(*args):
                subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=d, check=True,
                               capture_output=True)
            git("init", "-q")
            self.assertEqual(gitbench.git_log_messages(d), [])  # no commits yet
            git("commit", "-q", "--allow-empty", "-m", "a\n\nBench: 111")
            git("commit", "-q", "--allow-empty", "-m", "b\n\nBench: 222")
            git("commit", "-q", "--allow-empty", "-m", "c without signature")
            self.assertEqual(gitbench.find_bench_in_messages(gitbench.git_log_messages(d)), 222)


class BenchSignatureScriptTests(unittest.TestCase):
    def run_script(self, *args):
        return subprocess.run([sys.executable, os.path.join(SCRIPTS, "bench-signature"), "--no-build",
                               "--engine", os.path.join(SCRIPTS, "tests", "fake_engine.py"), *args],
                              capture_output=True, text=True)

    def test_match_and_mismatch(self):
        ok = self.run_script("--expected", "12345")
        self.assertEqual(ok.returncode, 0, ok.stderr)
        bad = self.run_script("--expected", "12346")
        self.assertEqual(bad.returncode, 1)
        self.assertIn("MISMATCH", bad.stderr)

    def test_missing_binary(self):
        p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "bench-signature"), "--no-build",
                            "--engine", "/nonexistent/escaque"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)


if __name__ == "__main__":
    unittest.main()
