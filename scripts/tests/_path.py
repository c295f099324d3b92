"""Make scripts/ importable (escaque_tools) when running `python3 -m unittest discover -s scripts/tests`."""
import os
import sys

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAKE_ENGINE = os.path.join(SCRIPTS, "tests", "fake_engine.py")
if SCRIPTS not in sys.path:
    sys.path.insert(0, SCRIPTS)
