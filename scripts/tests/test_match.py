"""scripts/match refuses what would spoil a match before playing: a missing file, an option the
engine does not have (asked with `uci`), each with one clear line and status 2."""

import os
import subprocess
import sys
import unittest

import _path  # noqa: F401

HERE = os.path.dirname(os.path.abspath(__file__))
MATCH = os.path.join(os.path.dirname(HERE), "match")
FAKE = f"{sys.executable} {os.path.join(HERE, 'fake_engine.py')}"


def match(*extra):
    argv = [sys.executable, MATCH, "--games", "2", "--tc", "1+0.01",
            "--engine", "name=a", f"cmd={FAKE}", "--engine", "name=b", f"cmd={FAKE}", *extra]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


class MatchRefusesTests(unittest.TestCase):
    def test_missing_openings_file(self):
        out = match("--openings", "/no/such/openings.epd")
        self.assertEqual(out.returncode, 2, out.stderr)
        self.assertIn("--openings: /no/such/openings.epd not found", out.stderr)
        self.assertNotIn("Traceback", out.stderr)

    def test_unknown_engine_option(self):
        out = match("--engine", "name=c", f"cmd={FAKE}", "option.NoSuchOption=3")
        self.assertEqual(out.returncode, 2, out.stderr)
        self.assertIn("engine c has no option 'NoSuchOption'", out.stderr)
        self.assertNotIn("Traceback", out.stderr)


if __name__ == "__main__":
    unittest.main()
