import unittest

import _path  # noqa: F401
from escaque_tools import pilot


class TestPilot(unittest.TestCase):
    def test_the_common_settings_come_before_the_recipe(self):
        command = pilot.train_command("escaque", ["a.bin", "b.bin"], "net.nnue", "out.nnue", 2,
                                      ["--hidden", "512"], ["--epochs", "6"])
        self.assertEqual(command, ["escaque", "train", "a.bin", "b.bin", "--init", "net.nnue", "--out", "out.nnue",
                                   "--batch", "4096", "--lambda", "1.0", "--val-fraction", "0.02", "--seed", "1",
                                   "--threads", "2", "--hidden", "512", "--epochs", "6"])

    def test_a_recipe_replaces_a_common_setting_it_names(self):
        command = pilot.train_command("escaque", ["a.bin"], "net.nnue", "out.nnue", 1, [],
                                      ["--seed", "3", "--lambda", "0.8"])
        self.assertEqual(command.count("--seed"), 1)
        self.assertEqual(command.count("--lambda"), 1)
        self.assertEqual(command[command.index("--seed") + 1], "3")
        self.assertEqual(command[command.index("--lambda") + 1], "0.8")
        self.assertEqual(command[command.index("--batch") + 1], "4096")

    def test_an_option_written_with_an_equals_sign_replaces_it_too(self):
        command = pilot.train_command("escaque", ["a.bin"], "net.nnue", "out.nnue", 1, [], ["--seed=3"])
        self.assertNotIn("--seed", command)
        self.assertEqual(command[-1], "--seed=3")

    def test_a_validation_file_replaces_the_held_out_fraction(self):
        command = pilot.train_command("escaque", ["a.bin"], "net.nnue", "out.nnue", 1, [], ["--val", "v.bin"])
        self.assertNotIn("--val-fraction", command)
        self.assertEqual(command[-2:], ["--val", "v.bin"])


if __name__ == "__main__":
    unittest.main()
