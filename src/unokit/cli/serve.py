"""``unokit serve``: the web game; the web extra is imported only when the command runs."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from unokit.cli.common import Screen, UsageError

if TYPE_CHECKING:
    from unokit.cli.common import Commands


def add_parser(commands: Commands) -> None:
    """The ``serve`` command and its options."""
    parser = commands.add_parser(
        "serve",
        help="serve the game to browsers",
        description="Run the web game: open the address it prints in a browser, create a room and invite "
        "friends with its link. Rooms are stored in an SQLite file (or a PostgreSQL database that several servers "
        "share); a restart resumes every game in progress. "
        "Needs the web extra (pip install 'unokit[web]').",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free port)")
    parser.add_argument(
        "--db",
        default="unokit.sqlite3",
        metavar="FILE|URL",
        help="where the rooms are kept: an SQLite file, used by one server at a time (default unokit.sqlite3), or a "
        "PostgreSQL database, postgresql://USER:PASSWORD@HOST:PORT/NAME, which several servers may share "
        "(the postgres extra: pip install 'unokit[postgres]')",
    )
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
    parser.add_argument(
        "--results-seconds",
        type=float,
        default=60.0,
        metavar="S",
        help="after a round, the longest the next one waits for the players still reading its results (default 60)",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name (or NAME:PORT) browsers may reach the server by, besides the address it listens on and "
        "localhost; for a public deployment behind a domain (repeatable)",
    )
    parser.add_argument(
        "--public-url",
        metavar="URL",
        help="the address people reach the server by, behind a reverse proxy (e.g. https://uno.example): "
        "every link the page shows (invites, QR codes, replays) uses it, and its host is answered for",
    )
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDR",
        help="address or network of a reverse proxy whose X-Forwarded-For and X-Forwarded-Proto are believed "
        "(repeatable; by default nobody's: a client is the socket's peer)",
    )
    parser.add_argument(
        "--connections-per-address",
        type=int,
        default=64,
        metavar="N",
        help="connections one client address may hold open at once (default 64)",
    )
    parser.add_argument(
        "--rooms-per-hour",
        type=int,
        default=30,
        metavar="N",
        help="rooms one client address may create an hour (default 30)",
    )
    parser.add_argument(
        "--lookups-per-minute",
        type=int,
        default=60,
        metavar="N",
        help="room codes one client address may look up a minute: join, resume, watch (default 60)",
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        help="a Redis database (redis://HOST:PORT/DB) shared by several server processes: the limits per client "
        "address, one allowance for all, and, with a PostgreSQL --db, which process owns each room (the others relay "
        "its clients to it) (needs the cluster extra: pip install 'unokit[cluster]')",
    )
    parser.add_argument(
        "--lease-seconds",
        type=float,
        default=10.0,
        metavar="S",
        help="with --redis and a PostgreSQL --db: a room's lease; the rooms of a process lost are taken over this "
        "long after (default 10)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="server processes on this machine, sharing its port (default 1); more than one needs a PostgreSQL "
        "--db and --redis, which they share",
    )
    parser.add_argument(
        "--ice-server",
        action="append",
        default=[],
        metavar="URL|JSON",
        help="a STUN or TURN server for the voice chat between browsers off one network: stun:HOST:PORT, or "
        'a JSON object such as {"urls": "turn:HOST:3478", "username": "u", "credential": "p"} (repeatable; '
        "by default none, which reaches players on one network)",
    )


MOST_WORKERS = 256
"""The most server processes ``--workers`` starts."""


def ice_server(text: str) -> dict[str, Any]:
    """One ``--ice-server``: a STUN/TURN URL, or a JSON object of ``urls``, ``username`` and ``credential``.

    >>> ice_server("stun:stun.example.org:3478")
    {'urls': 'stun:stun.example.org:3478'}
    """
    if not text.lstrip().startswith("{"):
        if not text.startswith(("stun:", "stuns:", "turn:", "turns:")):
            raise UsageError(f"--ice-server takes a stun:, stuns:, turn: or turns: URL or a JSON object, not {text!r}")
        return {"urls": text}
    try:
        server = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"--ice-server: not JSON: {exc}") from None
    allowed = {"urls", "username", "credential"}
    if not isinstance(server, dict) or "urls" not in server or not set(server) <= allowed:
        raise UsageError("--ice-server's JSON is an object of urls, and username and credential for TURN")
    if not all(isinstance(value, (str, list)) for value in server.values()):
        raise UsageError("--ice-server's JSON holds strings (urls may be a list of them)")
    return dict(server)


def cmd_serve(args: argparse.Namespace, screen: Screen) -> int:
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be from 0 to 65535, not {args.port}")
    if not 0 <= args.bot_delay <= 60:
        raise UsageError(f"--bot-delay must be from 0 to 60 seconds, not {args.bot_delay}")
    if not 0 <= args.away_seconds <= 3600:
        raise UsageError(f"--away-seconds must be from 0 to 3600 seconds, not {args.away_seconds}")
    if not 0 <= args.results_seconds <= 3600:
        raise UsageError(f"--results-seconds must be from 0 to 3600 seconds, not {args.results_seconds}")
    for option, value in (
        ("--connections-per-address", args.connections_per_address),
        ("--rooms-per-hour", args.rooms_per_hour),
        ("--lookups-per-minute", args.lookups_per_minute),
    ):
        if not 1 <= value <= 1_000_000:
            raise UsageError(f"{option} must be from 1 to 1000000, not {value}")
    from unokit.web.storage import POSTGRES_EXTRA, is_postgres

    if not 1 <= args.workers <= MOST_WORKERS:
        raise UsageError(f"--workers must be from 1 to {MOST_WORKERS}, not {args.workers}")
    if args.workers > 1 and not is_postgres(args.db):
        raise UsageError(
            f"--workers {args.workers} needs a PostgreSQL --db (postgresql://…): an SQLite file is used by one "
            "server process at a time"
        )
    if args.workers > 1 and args.redis is None:
        raise UsageError(
            f"--workers {args.workers} needs --redis: the processes keep the limits per address and the rooms' "
            "owners there"
        )

    if is_postgres(args.db):
        try:
            import psycopg  # noqa: F401
            import psycopg_pool  # noqa: F401
        except ImportError:
            raise UsageError(POSTGRES_EXTRA) from None
    try:
        from unokit.web.guard import parse_host, proxy_network
        from unokit.web.links import parse_public_url
        from unokit.web.rooms import ServerSettings
        from unokit.web.server import ServeError, serve
    except ImportError as exc:
        raise UsageError(f"serve needs the web extra (pip install 'unokit[web]'): {exc}") from None
    for name in args.allowed_host:
        if parse_host(name) is None:
            raise UsageError(f"--allowed-host takes a host name or address, with :PORT or not, not {name!r}")
    public_url = None
    if args.public_url is not None:
        try:
            public_url = parse_public_url(args.public_url)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    for proxy in args.trusted_proxy:
        try:
            proxy_network(proxy)
        except ValueError:
            raise UsageError(f"--trusted-proxy takes an IP address or network, not {proxy!r}") from None
    ice_servers = tuple(ice_server(text) for text in args.ice_server)
    if not 0.3 <= args.lease_seconds <= 600:
        raise UsageError(f"--lease-seconds takes 0.3 to 600 seconds, not {args.lease_seconds:g}")
    if args.redis is not None:
        try:
            from unokit.web.cluster import check_redis
        except ImportError:
            raise UsageError("--redis needs the cluster extra: pip install 'unokit[cluster]'") from None
        try:
            check_redis(args.redis)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    settings = ServerSettings(
        bot_delay=args.bot_delay,
        away_seconds=args.away_seconds,
        results_seconds=args.results_seconds,
        connections_per_address=args.connections_per_address,
        address_creates_per_hour=args.rooms_per_hour,
        address_lookups_per_minute=args.lookups_per_minute,
        trusted_proxies=tuple(args.trusted_proxy),
        allowed_hosts=tuple(args.allowed_host),
        public_url=public_url,
        ice_servers=ice_servers,
        redis_url=args.redis,
        lease_seconds=args.lease_seconds,
    )
    try:
        if args.workers > 1:
            from unokit.web.workers import serve_workers

            serve_workers(args.host, args.port, args.db, settings, args.workers)
        else:
            serve(args.host, args.port, args.db, settings)
    except ServeError as exc:
        raise UsageError(str(exc)) from None
    return 0
