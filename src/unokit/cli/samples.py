"""``--records DIR --sample N``: the options that keep sample game records of a run."""

from __future__ import annotations

import argparse

from unokit.cli.common import UsageError, check_output_folder

DEFAULT_SAMPLE = 5


def add_sample_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--records`` and ``--sample`` to ``parser``."""
    parser.add_argument(
        "--records",
        metavar="DIR",
        help="keep whole game records of sample matches in DIR (for unokit replay)",
    )
    parser.add_argument(
        "--sample",
        type=int,
        metavar="N",
        help=f"how many matches --records keeps, drawn from the seed (default {DEFAULT_SAMPLE})",
    )


def check_sample_options(args: argparse.Namespace) -> int:
    """Refuse bad ``--records``/``--sample`` before any game; returns how many records to keep (0: none)."""
    if args.sample is not None and not args.records:
        raise UsageError("--sample needs --records DIR")
    if not args.records:
        return 0
    count = DEFAULT_SAMPLE if args.sample is None else args.sample
    if count < 1:
        raise UsageError(f"--sample takes a positive number of matches, not {count}")
    check_output_folder(args.records, "--records")
    return count
