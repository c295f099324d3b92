import tempfile
import unittest
from pathlib import Path

import _path  # noqa: F401
from escaque_tools import snapshot


class TestSnapshot(unittest.TestCase):
    def setUp(self):
        temporary = tempfile.TemporaryDirectory()
        self.addCleanup(temporary.cleanup)
        self.folder = Path(temporary.name)
        self.data = self.folder / "net9-s17-n5000.bin"
        self.records = bytes(range(256)) * 2  # 16 records of 32 bytes
        self.data.write_bytes(self.records + b"\x01" * 7)  # a game half written

    def progress(self, games, size):
        (self.folder / "net9-s17-n5000.bin.progress").write_text(
            f"seed=17 games={games} bytes={size} shape=5000/8/0/f123192ef1dabbc5\n")

    def test_the_prefix_is_what_progress_says(self):
        self.progress(3, 320)
        self.assertEqual(snapshot.whole_games(self.data), (320, 3))
        out_dir = self.folder / "pilot"
        out_dir.mkdir()
        out = snapshot.take(self.data, out_dir)
        self.assertEqual(out.name, "net9-s17-n5000-g3.bin")
        self.assertEqual(out.read_bytes(), self.records[:320])
        # Taken again it is kept, and a later snapshot is a new file.
        self.assertEqual(snapshot.take(self.data, out_dir), out)
        self.progress(4, 480)
        later = snapshot.take(self.data, out_dir)
        self.assertEqual(later.name, "net9-s17-n5000-g4.bin")
        self.assertEqual(later.read_bytes(), self.records[:480])
        self.assertEqual(sorted(p.name for p in out_dir.iterdir()), ["net9-s17-n5000-g3.bin", "net9-s17-n5000-g4.bin"])

    def test_a_file_without_progress_is_used_whole(self):
        whole = self.folder / "s16-g3561.bin"
        whole.write_bytes(self.records)
        self.assertEqual(snapshot.whole_games(whole), (512, None))
        self.assertEqual(snapshot.take(whole, self.folder), whole)

    def test_damaged_files_are_refused(self):
        self.progress(3, 330)
        with self.assertRaisesRegex(ValueError, "whole number"):
            snapshot.whole_games(self.data)
        self.progress(40, 4096)
        with self.assertRaisesRegex(ValueError, "says 4096 bytes"):
            snapshot.whole_games(self.data)
        ragged = self.folder / "ragged.bin"
        ragged.write_bytes(b"\x00" * 33)
        with self.assertRaisesRegex(ValueError, "whole number"):
            snapshot.whole_games(ragged)


if __name__ == "__main__":
    unittest.main()
