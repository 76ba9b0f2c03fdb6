"""The web server while its store stalls: do the other rooms and the pings still get prompt answers?

Two scenarios, each measured over ``--seconds`` without a stall (``calm``) and then with one
(``stalled``), with ``--rooms`` rooms of two scripted players acting as soon as it is their turn,
and one connection sending a ``ping`` every 50 ms:

- ``one_room_blocked``: the server runs in this process with its storage wrapped so that one
  room's writes wait (as a write stuck on a slow disk would) for the whole stalled window; the
  other rooms' actions (not the blocked room's) are timed from ``act`` to the acknowledging ``update``.
- ``database_locked``: ``unokit serve`` runs in a subprocess, and another process holds the
  SQLite file's write lock for the whole stalled window (as a backup or a second program would):
  every room's writes wait, so only the pings and the refusals are timed.

Prints one JSON object: for each scenario and window, the latency of actions and pings in ms
(p50, p99, max, count), and the actions refused with ``store``.

    python bench/store_stall.py --rooms 20 --seconds 8
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import uvicorn

from serving import served
from unokit.web.app import create_app
from unokit.web.rooms import ServerSettings
from unokit.web.storage import SqliteStorage

try:
    from websockets.asyncio.client import ClientConnection, connect
except ImportError:  # websockets < 13
    from websockets.client import WebSocketClientProtocol as ClientConnection  # type: ignore[assignment]
    from websockets.client import connect  # type: ignore[no-redef]

SETTINGS = {"bot_delay": 0.0, "rate": 10_000.0, "burst": 10_000.0}


class Window:
    """What one window measured."""

    def __init__(self) -> None:
        self.actions: list[float] = []
        self.pings: list[float] = []
        self.refused = 0

    def summary(self) -> dict[str, Any]:
        def figures(values: list[float]) -> dict[str, float | int]:
            if not values:
                return {"count": 0}
            ordered = sorted(values)
            pick = lambda share: round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1)  # noqa: E731
            return {"p50": pick(0.5), "p99": pick(0.99), "max": round(ordered[-1], 1), "count": len(ordered)}

        return {"actions_ms": figures(self.actions), "pings_ms": figures(self.pings), "refused": self.refused}


class GatedStorage:
    """A storage whose writes for one room wait while :attr:`gate` is closed."""

    def __init__(self, inner: SqliteStorage) -> None:
        self.inner = inner
        self.threads = getattr(inner, "threads", 1)
        self.room: str | None = None
        self.gate = threading.Event()
        self.gate.set()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)
        if not callable(method) or name.startswith("load") or name in ("public_lobbies", "room_exists"):
            return method

        def call(*args: Any, **kwargs: Any) -> Any:
            if args and args[0] == self.room:
                self.gate.wait()
            return method(*args, **kwargs)

        return call


async def until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == kind:
            return message


async def table(url: str) -> tuple[str, list[ClientConnection]]:
    """A started match of two players over the socket: its code and the two players' connections."""
    origin = url.replace("ws://", "http://").removesuffix("/ws")
    ann = await connect(url, origin=origin, max_size=2**24)
    await ann.send(json.dumps({"type": "create", "name": "Ann", "edition": "classic", "seats": 2, "timer": 0}))
    code = (await until(ann, "welcome"))["code"]
    await until(ann, "lobby")
    bob = await connect(url, origin=origin, max_size=2**24)
    await bob.send(json.dumps({"type": "join", "code": code, "name": "Bob"}))
    await until(bob, "welcome")
    await until(ann, "lobby")
    await ann.send(json.dumps({"type": "start"}))
    return code, [ann, bob]


async def play(players: list[ClientConnection], window: Callable[[], Window | None], rng: random.Random) -> None:
    """Both seats act whenever it is their turn; each action is timed to its acknowledging update."""
    latest: list[dict[str, Any] | None] = [None, None]
    sent: list[float | None] = [None, None]
    sent_in: list[Window | None] = [None, None]  # an action counts in the window it was sent in

    async def listen(seat: int) -> None:
        async for raw in players[seat]:
            message = json.loads(raw)
            now = time.perf_counter()
            if message["type"] == "update":
                latest[seat] = message
                started, counted = sent[seat], sent_in[seat]
                if started is not None and counted is not None:
                    counted.actions.append((now - started) * 1000)
                sent[seat] = None
            elif message["type"] == "error":
                if message["code"] == "store" and (counted := sent_in[seat]) is not None:
                    counted.refused += 1
                sent[seat] = None
                latest[seat] = None
                await players[seat].send(json.dumps({"type": "sync", "version": 0}))

    async def act() -> None:
        while True:
            await asyncio.sleep(0.005)
            for seat in (0, 1):
                update = latest[seat]
                if update is None or sent[seat] is not None or update["finished"]:
                    continue
                legal = [entry["action"] for entry in update["legal"] if not entry["action"].startswith("catch")]
                if update["view"]["actor"] != seat or not legal:
                    continue
                sent[seat], sent_in[seat] = time.perf_counter(), window()
                latest[seat] = None
                await players[seat].send(
                    json.dumps({"type": "act", "action": rng.choice(legal), "version": update["version"]})
                )

    await asyncio.gather(listen(0), listen(1), act())


async def pinger(url: str, window: Callable[[], Window | None]) -> None:
    async with connect(url, origin=url.replace("ws://", "http://").removesuffix("/ws")) as ws:
        while True:
            start, counted = time.perf_counter(), window()
            await ws.send(json.dumps({"type": "ping"}))
            await until(ws, "pong")
            if counted is not None:  # a ping counts in the window it was sent in
                counted.pings.append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(0.05)


async def measure(
    url: str, rooms: int, seconds: float, stall: Callable[[bool, str], None], *, count_first: bool = True
) -> dict[str, Any]:
    """Play ``rooms`` rooms; a calm window, then a stalled one (``stall(True, first room's code)``);
    the first room's actions are counted only if ``count_first``."""
    tables = [await table(url) for _ in range(rooms)]
    current: list[Window | None] = [None]

    def window_of(room: int) -> Callable[[], Window | None]:
        return lambda: None if room == 0 and not count_first else current[0]

    tasks = [
        asyncio.create_task(play(players, window_of(i), random.Random(i))) for i, (_, players) in enumerate(tables)
    ]
    tasks.append(asyncio.create_task(pinger(url, lambda: current[0])))
    await asyncio.sleep(1.0)  # every room under way
    calm = current[0] = Window()
    await asyncio.sleep(seconds)
    stalled = current[0] = Window()
    stall(True, tables[0][0])
    await asyncio.sleep(seconds)
    current[0] = None
    stall(False, tables[0][0])
    await asyncio.sleep(min(seconds, 5.0))  # what was sent in the stalled window is answered
    for task in tasks:
        task.cancel()
    for _, players in tables:
        for ws in players:
            with contextlib.suppress(Exception):
                await ws.close()
    return {"calm": calm.summary(), "stalled": stalled.summary()}


@contextlib.asynccontextmanager
async def in_process(storage: GatedStorage) -> AsyncIterator[str]:
    app = create_app(storage=storage, settings=ServerSettings(**SETTINGS))  # type: ignore[arg-type]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="critical", lifespan="on"))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    while not server.started:
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"ws://127.0.0.1:{port}/ws"
    finally:
        storage.gate.set()
        server.should_exit = True
        thread.join(10)


async def one_room_blocked(rooms: int, seconds: float, folder: str) -> dict[str, Any]:
    storage = GatedStorage(SqliteStorage(f"{folder}/blocked.sqlite3"))

    def stall(on: bool, code: str) -> None:
        storage.room = code
        if on:
            storage.gate.clear()
        else:
            storage.gate.set()

    async with in_process(storage) as url:
        return await measure(url, rooms, seconds, stall, count_first=False)


def database_locked(rooms: int, seconds: float) -> dict[str, Any]:
    with served("--bot-delay", "0") as server:
        holder: list[subprocess.Popen[str]] = []

        def stall(on: bool, code: str) -> None:
            if on:
                script = (
                    "import sqlite3, sys\n"
                    f"db = sqlite3.connect({str(server.db)!r}, isolation_level=None)\n"
                    "db.execute('BEGIN IMMEDIATE')\nprint('locked', flush=True)\nsys.stdin.readline()\n"
                )
                process = subprocess.Popen(
                    [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
                )
                assert process.stdout is not None and process.stdout.readline().strip() == "locked"
                holder.append(process)
            else:
                for process in holder:
                    assert process.stdin is not None
                    process.stdin.write("\n")
                    process.stdin.close()
                    process.wait(10)

        return asyncio.run(measure(server.ws, rooms, seconds, stall))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=20, help="rooms of two players (default 20)")
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each window (default 8)")
    args = parser.parse_args()
    if args.rooms < 2 or args.seconds <= 0:
        parser.error("--rooms must be at least 2 and --seconds positive")
    with tempfile.TemporaryDirectory() as folder:
        blocked = asyncio.run(one_room_blocked(args.rooms, args.seconds, folder))
    locked = database_locked(args.rooms, args.seconds)
    print(
        json.dumps(
            {"rooms": args.rooms, "seconds": args.seconds, "one_room_blocked": blocked, "database_locked": locked}
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
