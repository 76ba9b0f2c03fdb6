"""``unokit serve``: the web game; the web extra is imported only when the command runs."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from unokit.cli.common import Screen, UsageError

if TYPE_CHECKING:
    from unokit.cli.common import Commands


def add_parser(commands: Commands) -> None:
    """The ``serve`` command and its options."""
    parser = commands.add_parser(
        "serve",
        help="serve the game to browsers",
        description="Run the web game: open the address it prints in a browser, create a room and invite "
        "friends with its link. Rooms are stored in an SQLite file; a restart resumes every game in progress. "
        "Needs the web extra (pip install 'unokit[web]').",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free port)")
    parser.add_argument("--db", default="unokit.sqlite3", metavar="FILE", help="SQLite file (default unokit.sqlite3)")
    parser.add_argument(
        "--bot-delay", type=float, default=0.7, metavar="S", help="seconds a bot waits before acting (default 0.7)"
    )
    parser.add_argument(
        "--away-seconds",
        type=float,
        default=20.0,
        metavar="S",
        help="seconds before a bot plays for a disconnected player (default 20)",
    )


def cmd_serve(args: argparse.Namespace, screen: Screen) -> int:
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be from 0 to 65535, not {args.port}")
    if not 0 <= args.bot_delay <= 60:
        raise UsageError(f"--bot-delay must be from 0 to 60 seconds, not {args.bot_delay}")
    if not 0 <= args.away_seconds <= 3600:
        raise UsageError(f"--away-seconds must be from 0 to 3600 seconds, not {args.away_seconds}")
    try:
        from unokit.web.rooms import ServerSettings
        from unokit.web.server import ServeError, serve
    except ImportError as exc:
        raise UsageError(f"serve needs the web extra (pip install 'unokit[web]'): {exc}") from None
    try:
        serve(args.host, args.port, args.db, ServerSettings(bot_delay=args.bot_delay, away_seconds=args.away_seconds))
    except ServeError as exc:
        raise UsageError(str(exc)) from None
    return 0
