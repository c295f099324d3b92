"""The `escaque train` command of a pilot network (scripts/net-pilot, which scripts/chain-step runs)."""

# The settings every pilot shares (nets/README.md, "A step"), each with the options that replace
# it when a recipe names one: the trainer refuses an option given twice, and `--val FILE` with
# `--val-fraction`.
COMMON_SETTINGS = (("--batch", "4096", ("--batch",)), ("--lambda", "1.0", ("--lambda",)),
                   ("--val-fraction", "0.02", ("--val-fraction", "--val")), ("--seed", "1", ("--seed",)))


def options_named(arguments: list[str]) -> set[str]:
    """The long options among the arguments, `--name=value` read as `--name`."""
    return {word.split("=", 1)[0] for word in arguments if word.startswith("--")}


def train_command(engine: str, data: list[str], base: str, out: str, threads: int, arch: list[str],
                  recipe: list[str]) -> list[str]:
    """The command that fine-tunes `base` on `data` into `out` with the recipe's arguments."""
    named = options_named(recipe)
    common = [word for option, value, replaced_by in COMMON_SETTINGS if not named & set(replaced_by)
              for word in (option, value)]
    return [engine, "train", *data, "--init", base, "--out", out, *common, "--threads", str(threads),
            *arch, *recipe]
