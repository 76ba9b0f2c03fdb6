"""The ``unokit`` command: simulate random matches, play against bots, replay records.

The command only renders views and forwards actions; every rule lives in the engine.
Each command lives in its own module, with its options (``add_parser``) and its ``cmd_*`` function.

>>> main(["simulate", "--edition", "classic", "--players", "3", "--games", "1", "--seed", "1", "--json"])
... # doctest: +ELLIPSIS
{"edition": "classic", "players": 3, "games": 1, "seed": 1, ...}
0
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from types import FrameType

from unokit.cli import analyse, compare, join, play, replay, serve, simulate, stats, sweep, tournament
from unokit.cli.common import Screen, UsageError
from unokit.engine.errors import UnoError
from unokit.narrate import Narrator, describe_action

__all__ = ["Narrator", "build_parser", "describe_action", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="unokit",
        description="Rules engine, bots and tools for the UNO family of card games.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in (simulate, play, join, replay, tournament, stats, compare, sweep, analyse, serve):
        command.add_parser(commands)
    return parser


Command = Callable[[argparse.Namespace, Screen], int]
_COMMANDS: dict[str, Command] = {
    "simulate": simulate.cmd_simulate,
    "play": play.cmd_play,
    "join": join.cmd_join,
    "replay": replay.cmd_replay,
    "serve": serve.cmd_serve,
    "tournament": tournament.cmd_tournament,
    "stats": stats.cmd_stats,
    "compare": compare.cmd_compare,
    "sweep": sweep.cmd_sweep,
    "analyse": analyse.cmd_analyse,
}


OWN_SIGNALS = frozenset({"serve"})
"""Commands that handle SIGTERM themselves (the web server shuts down gracefully)."""


def _ctrl_c_in(command: int) -> Callable[[int, FrameType | None], None]:
    """A SIGTERM handler that raises Ctrl-C in the command's own process (``command``, its pid), and
    ends at once, as SIGTERM's default does, in a worker process forked from it (a fork inherits the
    handler before the worker can set its own: a worker stopped then must not live on)."""

    def handle(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != command:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise KeyboardInterrupt

    return handle


@contextlib.contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """SIGTERM does what Ctrl-C does while a command runs: it stops the work, keeps what was done
    (partial results, the record, rows, plots) and stops every worker; the command exits 130.
    Outside the main thread (where no handler can be set) nothing changes."""
    try:
        previous = signal.signal(signal.SIGTERM, _ctrl_c_in(os.getpid()))
    except ValueError:
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    if args.command is None:
        parser.print_usage(sys.stderr)
        print(
            "unokit: error: choose a command: simulate, play, join, replay, serve, tournament, stats, compare, sweep "
            "or analyse (see unokit --help)",
            file=sys.stderr,
        )
        return 2
    screen = Screen(sys.stdout, sys.stdin)
    try:
        if args.command in OWN_SIGNALS:
            return _COMMANDS[args.command](args, screen)
        with sigterm_as_ctrl_c():
            return _COMMANDS[args.command](args, screen)
    except (UnoError, UsageError) as exc:
        print(f"unokit: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
