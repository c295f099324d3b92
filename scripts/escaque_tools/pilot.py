"""The `escaque train` command of a pilot network (scripts/net-pilot, scripts/chain-step)."""

# The settings every pilot shares (nets/README.md, "A step"); a recipe that names one of these
# options replaces its value, since the trainer refuses an option given twice.
COMMON_SETTINGS = (("--batch", "4096"), ("--lambda", "1.0"), ("--val-fraction", "0.02"), ("--seed", "1"))


def train_command(engine: str, data: list[str], base: str, out: str, threads: int, arch: list[str],
                  recipe: list[str]) -> list[str]:
    """The command that fine-tunes `base` on `data` into `out` with the recipe's arguments."""
    common = [word for option, value in COMMON_SETTINGS if option not in recipe for word in (option, value)]
    return [engine, "train", *data, "--init", base, "--out", out, *common, "--threads", str(threads),
            *arch, *recipe]
