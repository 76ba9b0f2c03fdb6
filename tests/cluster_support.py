"""Several server processes on one PostgreSQL database and one Redis, for the tests: ``unokit serve``
as processes of their own (:class:`Server`), and the helpers that drive a room across them.

A room is owned by one process; a client of another is relayed to it.  :func:`two_servers` starts two
processes for one test; :func:`cluster_fixture` gives a test module a pair of its own, started once:
the first server in the test process's own thread (a :class:`RunningServer`, whose hub a test may
reach into: its rooms are created there), the second a ``unokit serve`` process that relays its
clients to the first.  The suites that run on both set-ups connect their relayed clients to
``server.relay_url`` (the server's own address on one process).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from websockets.exceptions import ConnectionClosed

from pg_support import free_port, shared_server
from redis_support import RedisServer
from unokit.engine.game import Game
from unokit.engine.record import replay
from unokit.web.storage import open_storage
from web_support import FAST_CLIENTS, Client, RunningServer, fast_settings, play_to_end

__all__ = ["LEASE", "Server", "cluster_fixture", "one_or_two_processes_fixture", "owner_and_relay", "two_servers"]

SERVE = [sys.executable, "-c", "import sys; from unokit.cli import main; sys.exit(main())", "serve"]
LEASE = 1.5
"""Seconds of a room's lease in the tests that kill or pause an owner (10 by default)."""
SERVE_WITH_SETTINGS = (
    "import json, sys; from unokit.web.server import serve; from unokit.web.settings import ServerSettings; "
    "serve('127.0.0.1', int(sys.argv[1]), sys.argv[2], ServerSettings(**json.loads(sys.argv[3])))"
)
"""The server of ``unokit serve``, with settings no option sets (a client's own message rate)."""
_databases = itertools.count(1)
"""Redis databases for the modules' clusters (each test process has a Redis server of its own; its
database 0 is the one each test empties)."""


class Server:
    """``unokit serve`` as a process of its own, on PostgreSQL ``db`` and Redis ``redis``."""

    def __init__(self, db: str, redis: str, log: Path, *options: str, settings: dict[str, Any] | None = None) -> None:
        """``settings``: the server's settings (with ``redis``), in place of the options."""
        self.port = free_port()
        self.log = log
        self.url = f"ws://127.0.0.1:{self.port}/ws"
        self.http = f"http://127.0.0.1:{self.port}"
        command = [*SERVE, "--host", "127.0.0.1", "--port", str(self.port), "--db", db, "--redis", redis]
        command += ["--lease-seconds", str(LEASE), "--bot-delay", "0.05", *options]
        if settings is not None:
            chosen = json.dumps({**settings, "redis_url": redis})
            command = [sys.executable, "-c", SERVE_WITH_SETTINGS, str(self.port), db, chosen]
        with log.open("w") as errors:
            self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert "http://127.0.0.1:" in line, f"the server did not start: {line!r}\n{self.errors()}"

    def errors(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""

    def client(self) -> Client:
        deadline = time.monotonic() + 10
        while True:
            try:
                return Client(self.url)
            except ConnectionRefusedError:
                assert time.monotonic() < deadline, "the server never listened"
                time.sleep(0.05)

    def get(self, path: str) -> tuple[int, Any]:
        try:
            with urllib.request.urlopen(f"{self.http}{path}", timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as exc:
            return exc.code, None

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@contextlib.contextmanager
def two_servers(
    tmp_path: Path, redis_url: str, *options: str, first: tuple[str, ...] = ()
) -> Iterator[tuple[Server, Server, str]]:
    """Two servers on a new PostgreSQL database and one Redis (the first with ``first`` too); yields them
    and the database's URL."""
    db = shared_server().new_database()
    servers: list[Server] = []
    try:
        for name in ("a", "b"):
            servers.append(Server(db, redis_url, tmp_path / f"{name}.log", *options, *(first if name == "a" else ())))
        yield servers[0], servers[1], db
    finally:
        for server in servers:
            server.stop()


def owner_pid(redis_url: str, code: str) -> int | None:
    """The process id of room ``code``'s owner, from its lease (``None``: nobody holds it)."""
    with redis.Redis.from_url(redis_url) as client:
        held = client.get(f"unokit:lease:{code}")
    if held is None:
        return None
    process = held.decode().split(" ")[0]  # host-pid-random, then the fence
    return int(process.rsplit("-", 2)[1])


@contextlib.contextmanager
def owner_and_relay(redis_server: RedisServer, folder: Path, **changes: Any) -> Iterator[RunningServer]:
    """Two processes on one new PostgreSQL database and a new Redis database: the owner of the rooms
    created on it, in this process (:func:`fast_settings` with ``changes``; its ``relay_url`` and
    ``relay_http`` the other's), and a ``unokit serve`` process that relays to it (its log in
    ``relay_log``).  On leaving, the relaying process must have logged no traceback."""
    db = shared_server().new_database()
    url = f"{redis_server.url}/{next(_databases)}"
    with redis.Redis.from_url(url) as client:
        client.flushdb()
    with RunningServer(db, fast_settings(redis_url=url, **changes)) as owner:
        relay = Server(db, url, folder / "relay.log", settings={"bot_delay": 0.0, "away_seconds": 60.0, **FAST_CLIENTS})
        try:
            owner.relay_url, owner.relay_http, owner.relay_log = relay.url, relay.http, relay.log
            yield owner
            assert relay.process.poll() is None, f"the relaying process died:\n{relay.errors()}"
            assert "Traceback" not in relay.errors(), relay.errors()
        finally:
            relay.stop()


@pytest.fixture(scope="module", name="cluster")
def cluster_fixture(redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """:func:`owner_and_relay` for a whole test module."""
    with owner_and_relay(redis_server, tmp_path_factory.mktemp("cluster")) as owner:
        yield owner


@pytest.fixture(scope="module", params=["one process", "two processes"], name="server")
def one_or_two_processes_fixture(request: pytest.FixtureRequest) -> Iterator[RunningServer]:
    """The rooms' server: alone, or owning them in a cluster of two processes on PostgreSQL and Redis, where
    the clients connected to ``relay_url`` are relayed to it by the other process."""
    if request.param == "two processes":
        yield request.getfixturevalue("cluster")
        return
    with RunningServer(":memory:", fast_settings()) as running:
        yield running


def create(server: Server, seats: int = 3, **fields: Any) -> tuple[Client, str, str]:
    """Ann hosts a new classic room on ``server``; returns her client, the code and her secret."""
    ann = server.client()
    ann.send(type="create", name="Ann", edition="classic", seats=seats, rules={"scoring": "single-round"}, **fields)
    welcome = ann.expect("welcome")
    ann.expect("lobby")
    return ann, welcome["code"], welcome["secret"]


def history(db: str, code: str) -> dict[int, Game]:
    """The engine at every version of room ``code``'s match, replayed from the store."""
    storage = open_storage(db)
    try:
        record = storage.load_record(code)
    finally:
        storage.close()
    assert record is not None
    game = replay(record, upto=0)
    at_version = {len(game.events): game.clone()}
    for seat, text in record["actions"]:
        game.apply_notation(seat, text)
        at_version[len(game.events)] = game.clone()
    return at_version


def resume(server: Server, code: str, secret: str, version: int = 0, timeout: float = 15.0) -> Client:
    """A client back in its seat through ``server``, trying again while the room changes hands."""
    deadline = time.monotonic() + timeout
    while True:
        client = server.client()
        client.send(type="resume", code=code, secret=secret, version=version)
        try:
            client.expect("welcome", timeout=max(0.1, deadline - time.monotonic()))
            client.expect("update", timeout=max(0.1, deadline - time.monotonic()))
            return client
        except Exception:
            client.close()
            assert time.monotonic() < deadline, "the room was not found again"
            time.sleep(0.2)


def play_together(players: list[Client], *servers: Server) -> None:
    """The players play to the end of the match at once, each in a thread of its own."""
    outcomes: dict[int, Any] = {}

    def play(index: int) -> None:
        try:
            outcomes[index] = play_to_end(players[index], random.Random(index), timeout=60)
        except BaseException as exc:
            outcomes[index] = exc

    threads = [threading.Thread(target=play, args=(index,)) for index in range(len(players))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(90)
    logs = "".join(server.errors() for server in servers)
    for index in range(len(players)):
        outcome = outcomes.get(index)
        assert isinstance(outcome, dict) and outcome["finished"], f"player {index}: {outcome!r}\n{logs}"


def closed(client: Client, within: float) -> None:
    """Read what comes until the server closes the socket, within ``within`` seconds."""
    deadline = time.monotonic() + within
    with pytest.raises(ConnectionClosed):
        while True:
            client.recv(max(0.01, deadline - time.monotonic()))


def acknowledged_events(client: Client) -> list[Any]:
    """Every event the client was sent, in order (its updates' events, from version 0 on)."""
    events: list[Any] = []
    for message in client.received:
        if message["type"] == "update":
            events[message["version"] - len(message["events"]) :] = message["events"]
    return events
