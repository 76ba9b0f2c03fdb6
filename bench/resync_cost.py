"""The cost of one full resync of a long room: bytes sent and the server's CPU time.

Starts ``unokit serve`` (bots with no delay, a temporary SQLite file), creates one room of four seats
(a scripted player and three bots, no turn timer, a target score no match reaches), lets the room's
bot play the player's seat until the match holds each of ``--events`` events, then takes the seat back:
the room stands still at the player's turn, and the bench measures, ``--repeat`` times each:

- ``spectate``: a new connection watches the room from version 0 (its first ``update`` holds every
  event, narrated for it);
- ``sync``: a connection that watches from the room's version asks ``sync`` from version 0 (the
  ``sync`` handler's full resync).

For each: the bytes of the ``update`` frame (and of it compressed with zlib, what a compressed or
compacted resync could save), the time from the request to the frame's arrival, and the server's CPU
time per resync (user and system, from ``/proc/<pid>/stat``, from the request to the update and 50 ms
after it, summed over the repeats and divided by them; the room stands still, so the server does
little else meanwhile: its ticks are 10 ms, hence the repeats).

    python bench/resync_cost.py --events 2500,5000,10000 --repeat 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
import zlib
from typing import Any

from fleet import cpu_seconds
from serving import served

try:
    from websockets.asyncio.client import ClientConnection, connect
except ImportError:  # websockets < 13
    from websockets.client import WebSocketClientProtocol as ClientConnection  # type: ignore[assignment,no-redef]
    from websockets.client import connect  # type: ignore[no-redef]


async def next_of(ws: ClientConnection, kind: str, timeout: float = 60.0) -> tuple[dict[str, Any], int]:
    """The next message of type ``kind`` (an ``error`` raises), and its size in bytes."""
    while True:
        raw = await asyncio.wait_for(ws.recv(), timeout)
        message = json.loads(raw)
        if message["type"] == "error":
            raise RuntimeError(f"refused: {message}")
        if message["type"] == kind:
            size = len(raw.encode() if isinstance(raw, str) else raw)
            return message, size


class Player:
    """The room's scripted player.  To let the match grow at the bots' speed it leaves its seat to the
    room's bot (``leave``), watches from a second connection until the match holds enough events, then
    comes back (``resume``, ``back``): the room stands still at the player's next turn (no timer)."""

    def __init__(self, url: str, ws: ClientConnection) -> None:
        self.url = url
        self.ws = ws
        self.code = ""
        self.secret = ""
        self.version = 0

    async def open(self) -> None:
        create = {"type": "create", "name": "Long", "edition": "classic", "seats": 4, "timer": 0}
        create["rules"] = {"target_score": 1_000_000}
        await self.ws.send(json.dumps(create))
        welcome, _ = await next_of(self.ws, "welcome")
        self.code, self.secret = welcome["code"], welcome["secret"]
        for seat in (1, 2, 3):
            await self.ws.send(json.dumps({"type": "seat", "seat": seat, "bot": True}))
        await self.ws.send(json.dumps({"type": "start"}))
        update, _ = await next_of(self.ws, "update")
        self.version = update["version"]

    async def play_until(self, events: int) -> None:
        """Let the room's bot play the seat until the match holds ``events`` events, then take it back."""
        async with connect(self.url, max_size=2**26) as watch:
            await watch.send(json.dumps({"type": "spectate", "code": self.code, "version": self.version}))
            await self.ws.send(json.dumps({"type": "leave"}))
            while self.version < events:
                update, _ = await next_of(watch, "update")
                if update["finished"]:
                    raise RuntimeError("the match ended before it held enough events")
                self.version = update["version"]
        resume = {"type": "resume", "code": self.code, "secret": self.secret, "version": self.version}
        await self.ws.send(json.dumps(resume))
        await self.ws.send(json.dumps({"type": "back"}))
        await self.settle()

    async def settle(self) -> None:
        """Wait until no update has come for a second (the bots wait for the player)."""
        while True:
            try:
                raw = await asyncio.wait_for(self.ws.recv(), 1.0)
            except TimeoutError:
                return
            message = json.loads(raw)
            if message["type"] == "error":
                raise RuntimeError(f"refused: {message}")
            if message["type"] == "update":
                self.version = message["version"]


async def full_resync(url: str, pid: int, code: str, version: int, kind: str) -> tuple[bytes, float, float]:
    """One full resync on a new connection: the ``update`` frame, the seconds until it came and the
    server's CPU seconds meanwhile.  ``spectate``: the connection's first message watches from version 0
    (its opening is not counted, its ``spectate`` is); ``sync``: it watches from ``version``, then asks
    ``sync`` from version 0 (only the ``sync`` is counted)."""
    async with connect(url, max_size=2**26) as ws:
        if kind == "sync":
            await ws.send(json.dumps({"type": "spectate", "code": code, "version": version}))
            await next_of(ws, "update")
            request: dict[str, Any] = {"type": "sync", "version": 0}
        else:
            request = {"type": "spectate", "code": code, "version": 0}
        await asyncio.sleep(0.05)  # the server has done with the connection's opening
        cpu = cpu_seconds(pid)
        started = time.perf_counter()
        await ws.send(json.dumps(request))
        while True:
            raw = await asyncio.wait_for(ws.recv(), 60)
            message = json.loads(raw)
            if message["type"] == "error":
                raise RuntimeError(f"refused: {message}")
            if message["type"] == "update":
                elapsed = time.perf_counter() - started
                await asyncio.sleep(0.05)  # and with what follows the update (the chat history)
                data = raw.encode() if isinstance(raw, str) else raw
                return data, elapsed, cpu_seconds(pid) - cpu


async def measure(url: str, pid: int, code: str, version: int, kind: str, repeat: int) -> dict[str, Any]:
    sizes, times, cpu = [], [], 0.0
    data = b""
    for _ in range(repeat):
        data, elapsed, used = await full_resync(url, pid, code, version, kind)
        cpu += used
        sizes.append(len(data))
        times.append(1000 * elapsed)
    update = json.loads(data)
    return {
        "kind": kind,
        "events": update["version"],
        "bytes": statistics.median(sizes),
        "bytes_zlib": len(zlib.compress(data, 6)),
        "wall_ms": {"p50": round(statistics.median(times), 1), "max": round(max(times), 1)},
        "server_cpu_ms": round(1000 * cpu / repeat, 1),
    }


async def run(args: argparse.Namespace, url: str, pid: int) -> list[dict[str, Any]]:
    results = []
    async with connect(url, max_size=2**26) as ws:
        player = Player(url, ws)
        await player.open()
        for events in args.events:
            await player.play_until(events)
            await player.settle()
            for kind in ("spectate", "sync"):
                result = await measure(url, pid, player.code, player.version, kind, args.repeat)
                result["repeat"] = args.repeat
                results.append(result)
                print(json.dumps(result), flush=True)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", default="10000", help="the room's sizes in events, ascending (default 10000)")
    parser.add_argument("--repeat", type=int, default=20, help="resyncs measured at each size and kind (default 20)")
    args = parser.parse_args()
    try:
        args.events = sorted(int(part) for part in args.events.split(","))
    except ValueError:
        parser.error("--events takes event counts separated by commas")
    if not args.events or args.events[0] < 1 or args.repeat < 1:
        parser.error("--events at least 1, --repeat at least 1")
    many = str(10 * args.repeat * len(args.events) + 16)  # every connection comes from 127.0.0.1
    options = ("--bot-delay", "0", "--away-seconds", "3600", "--lookups-per-minute", many)
    with served(*options, "--connections-per-address", many) as server:
        asyncio.run(run(args, server.ws, server.process.pid))
    return 0


if __name__ == "__main__":
    sys.exit(main())
