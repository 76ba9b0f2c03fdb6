"""Helpers for the web server tests: a real uvicorn server in a thread, and WebSocket clients."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import uvicorn
from websockets.sync.client import ClientConnection, connect

from unokit.web.rooms import FixedSetup, RoomSettings, ServerSettings
from unokit.web.server import make_config

FAST_CLIENTS = {
    "rate": 10_000.0,
    "burst": 10_000.0,
    "address_creates_per_hour": 10_000,
    "address_lookups_per_minute": 10_000,
    "connections_per_address": 10_000,
    "address_chat_per_minute": 10_000,
    "address_chat_burst": 10_000,
    "address_resync_events": 10**9,
    "server_resync_events": 10**9,
}
"""Limits no scripted client of one address (the tests' 127.0.0.1) reaches."""


def fast_settings(**changes: Any) -> ServerSettings:
    """Settings for tests: bots act at once, and scripted clients may act as fast as they like."""
    return ServerSettings(**{"bot_delay": 0.0, "away_seconds": 60.0, **FAST_CLIENTS, **changes})


class _Collector(logging.Handler):
    def __init__(self, records: list[logging.LogRecord]) -> None:
        super().__init__(logging.DEBUG)
        self.records = records

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def captured_logs() -> Iterator[list[logging.LogRecord]]:
    """Every record the server's loggers (``unokit``'s and uvicorn's) let through within the block,
    whatever handlers they have."""
    records: list[logging.LogRecord] = []
    collector = _Collector(records)
    loggers = [logging.getLogger("unokit"), logging.getLogger("uvicorn")]
    for logger in loggers:
        logger.addHandler(collector)
    try:
        yield records
    finally:
        for logger in loggers:
            logger.removeHandler(collector)


class RunningServer:
    """uvicorn serving the app on 127.0.0.1, on a free port, in a background thread (with its own
    event loop, where the rooms live: :meth:`call` runs code there)."""

    def __init__(
        self, db_path: str = ":memory:", settings: ServerSettings | None = None, config: uvicorn.Config | None = None
    ) -> None:
        """``config``: serve that instead of the server's own configuration for ``db_path`` and ``settings``."""
        config = config or make_config("127.0.0.1", 0, db_path, settings or fast_settings(), log_level="warning")
        self.app = config.app
        self.server = uvicorn.Server(config)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"ws://127.0.0.1:{self.port}/ws"
        self.http = f"http://127.0.0.1:{self.port}"
        self.relay_url, self.relay_http = self.url, self.http
        """Where a client reaches this server's rooms through another process, in a cluster
        (:func:`cluster_support.cluster_fixture`); this server's own address otherwise."""
        self.relay_log: Path | None = None
        """That other process's log, in a cluster."""

    def _run(self) -> None:
        with asyncio.Runner() as runner:  # on leaving, the tasks still pending are cancelled and awaited
            self.loop = runner.get_loop()
            runner.run(self.server.serve())

    @property
    def hub(self) -> Any:
        return self.app.state.hub

    def call(self, function: Callable[[], Any]) -> Any:
        """Run ``function`` on the server's event loop and return its result."""

        async def run() -> Any:
            result = function()
            return await result if inspect.isawaitable(result) else result

        assert self.loop is not None, "the server is not running"
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout=10)

    def create_fixed_room(
        self, setup: FixedSetup, edition: str = "classic", seats: int = 2, rules: dict[str, Any] | None = None
    ) -> tuple[str, str]:
        """A room whose game is fixed in advance (:class:`FixedSetup`), hosted by "Ann" in seat 0,
        created in code as no message can; returns its code and the host's secret (to ``resume``)."""
        settings = RoomSettings(edition, seats, rules or {}, "heuristic")
        room, secret = self.call(lambda: self.hub.create(settings, "Ann", setup))
        return str(room.code), str(secret)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        if self.thread.is_alive():
            raise RuntimeError("the server did not stop")

    def __enter__(self) -> RunningServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Client:
    """A WebSocket client that records every message it receives."""

    def __init__(self, url: str, headers: dict[str, str] | None = None, max_queue: int | None = 16) -> None:
        """``max_queue``: messages received and not yet read past which the socket stops reading (``None``:
        it reads on, as a browser does)."""
        self.stack = contextlib.ExitStack()
        opened = connect(url, open_timeout=10, max_size=2**24, additional_headers=headers, max_queue=max_queue)
        self.ws: ClientConnection = self.stack.enter_context(opened)
        self.received: list[dict[str, Any]] = []
        self.pending: list[dict[str, Any]] = []
        self.update: dict[str, Any] | None = None
        self.lobby: dict[str, Any] | None = None
        self.welcome: dict[str, Any] | None = None

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def send_raw(self, data: str | bytes) -> None:
        self.ws.send(data)

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message (kept in :attr:`received`)."""
        if self.pending:
            return self.pending.pop(0)
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(message)
        if message["type"] == "update":
            self.update = message
        elif message["type"] == "lobby":
            self.lobby = message
        elif message["type"] == "welcome":
            self.welcome = message
        return message

    def expect(
        self, kind: str, timeout: float = 10.0, where: Callable[[dict[str, Any]], bool] | None = None
    ) -> dict[str, Any]:
        """Read until a message of ``kind`` (``*``: any) matching ``where`` comes; others are skipped."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {kind} message within {timeout} s")
            message = self.recv(left)
            if kind in (message["type"], "*") and (where is None or where(message)):
                return message

    def quiet(self, wait: float = 0.3) -> list[dict[str, Any]]:
        """Every message that arrives within ``wait`` seconds."""
        got = []
        deadline = time.monotonic() + wait
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return got
            try:
                got.append(self.recv(left))
            except TimeoutError:
                return got

    def close(self) -> None:
        self.stack.close()


def choose(update: dict[str, Any], rng: random.Random) -> str | None:
    """A legal action of an update for a scripted player: UNO calls first, catches never,
    a card rather than a draw, else at random."""
    legal = [entry["action"] for entry in update["legal"]]
    if "uno" in legal:
        return "uno"
    moves = [a for a in legal if not a.startswith("catch@")]
    if not moves:
        return None
    with_uno = [a for a in moves if a.endswith("!")]
    plays = [a for a in moves if a != "draw"]
    return rng.choice(with_uno or plays or moves)


def decision_key(update: dict[str, Any]) -> str:
    """What a scripted player's choice depends on: its hand, the table and its moves (catches,
    which come and go with other players' calls, left out)."""
    view = update["view"]
    moves = sorted(entry["action"] for entry in update["legal"] if not entry["action"].startswith("catch@"))
    return json.dumps([view["hand"], view["top_card"], view["colour"], view["phase"], view["hand_sizes"], moves])


def play_to_end(
    client: Client, rng: random.Random, timeout: float = 60.0, stop: Callable[[Client], bool] | None = None
) -> dict[str, Any]:
    """Play legal actions from the updates until the match is finished, closing each round's results
    at once (``continue``); returns the last update.

    Each choice depends only on ``rng``'s seed and the decision (hand, table and moves), not on
    how many updates came before it: an action refused as stale (a bot called UNO meanwhile)
    is chosen again the same way, so a seeded match is the same match at every run."""
    deadline = time.monotonic() + timeout
    salt = rng.getrandbits(64)
    acted_at = continued_at = -1
    while True:
        update = client.update
        if update is not None and update["finished"]:
            return update
        if stop is not None and stop(client):
            assert update is not None
            return update
        reading = update.get("reading") if update is not None else None
        if update is not None and reading and update["you"] in reading["waiting"] and continued_at != update["version"]:
            client.send(type="continue")  # the round's results read
            continued_at = update["version"]
        if update is not None and update["version"] != acted_at:
            action = choose(update, random.Random(f"{salt}:{decision_key(update)}"))
            if action is not None:
                client.send(type="act", action=action, version=update["version"])
                acted_at = update["version"]
        if time.monotonic() > deadline:
            raise TimeoutError("the match did not end in time")
        message = client.recv(max(0.1, deadline - time.monotonic()))
        if message["type"] == "error":
            assert message["code"] in ("stale",), message
            acted_at = -1


def strings_outside(message: Any, skip: Callable[[tuple[str, ...]], bool]) -> list[str]:
    """Every string in ``message`` (dicts and lists walked, keys making the path) outside the
    paths ``skip`` is true for."""
    found: list[str] = []

    def walk(value: Any, path: tuple[str, ...]) -> None:
        if skip(path):
            return
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, (*path, key))
        elif isinstance(value, list):
            for item in value:
                walk(item, path)
        elif isinstance(value, str):
            found.append(value)

    walk(message, ())
    return found
