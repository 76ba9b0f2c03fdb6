"""Fail-over: the owner of many rooms killed (``kill -9``), and the time until they play again elsewhere.

Starts two ``unokit serve`` processes on one PostgreSQL database (``--db``, a scratch database made on
that server) and one Redis (``--redis``, else a ``redis-server`` of the bench's own), with a short
``--lease`` (2 s).  Opens ``--rooms`` rooms of three seats on the first process: Ann, connected to it
(direct), Bob, connected to the second process (relayed to the owner), and a bot.  Both play as fast as
``--think`` lets them.  After ``--warm`` seconds the first process is killed with SIGKILL; each client
reconnects to the second process at once (every 0.1 s until it gets in) and resumes its seat from the
last version it was sent.  Reports:

- ``relay``: act→update latency (ms, p50/p99) of Ann (direct) and Bob (relayed), before the kill;
- ``failover_s``: per room, from the kill to the room's first action applied after it (a new ``update``
  version, from any seat), p50/p99/max; and to the first resumed ``update`` (the room rebuilt and live);
- ``lost``: rooms where a client had been sent events the resumed room no longer has (must be 0): a
  resume from version V whose answer does not start at V (the room is behind V), and, at the end, rooms
  whose stored record has fewer events than a client was sent.

    python bench/failover.py --db postgresql://USER@HOST:PORT/postgres --rooms 50
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fleet import Refused, fleet, is_postgres
from redis_relay import redis_server

try:
    from websockets.asyncio.client import connect
except ImportError:  # websockets < 13
    from websockets.client import connect  # type: ignore[no-redef]


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def figures(values: list[float], scale: float = 1.0) -> dict[str, float | int]:
    return {
        "n": len(values),
        "p50": round(percentile(values, 0.5) * scale, 3),
        "p99": round(percentile(values, 0.99) * scale, 3),
        "max": round(max(values) * scale, 3) if values else float("nan"),
    }


@dataclass
class Room:
    code: str
    secrets: list[str]
    version: int = 0
    """The highest version any of its clients was sent."""
    killed_version: int = -1
    played_again: float | None = None
    resumed: float | None = None
    lost: bool = False


@dataclass
class Run:
    rooms: list[Room] = field(default_factory=list)
    latencies: dict[str, list[float]] = field(default_factory=lambda: {"direct": [], "relayed": []})
    killed_at: float | None = None
    stop_at: float = float("inf")
    errors: dict[str, int] = field(default_factory=dict)


def choose(update: dict[str, Any], rng: random.Random) -> str | None:
    legal = [entry["action"] for entry in update["legal"]]
    if "uno" in legal:
        return "uno"
    moves = [a for a in legal if not a.startswith("catch@")]
    return rng.choice([a for a in moves if a.endswith("!")] or moves) if moves else None


async def seat(run: Run, room: Room, index: int, urls: list[str], ws: Any, args: argparse.Namespace) -> None:
    """Play seat ``index`` of ``room`` on ``ws`` (through ``urls[0]``), then, once that process is gone,
    through ``urls[1]``."""
    rng = random.Random(f"{room.code}{index}")
    kind = "direct" if index == 0 else "relayed"
    version = 0
    sent: tuple[int, float] | None = None
    while time.monotonic() < run.stop_at:
        try:
            while time.monotonic() < run.stop_at:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, run.stop_at - time.monotonic()))
                except TimeoutError:
                    break
                message = json.loads(raw)
                now = time.monotonic()
                if message["type"] == "error":
                    run.errors[message["code"]] = run.errors.get(message["code"], 0) + 1
                    continue
                if message["type"] != "update":
                    continue
                start = message["version"] - len(message["events"])
                if run.killed_at is not None and room.resumed is None:
                    room.resumed = now - run.killed_at
                if start > version:  # a gap: cannot happen on one socket
                    run.errors["gap"] = run.errors.get("gap", 0) + 1
                if sent is not None and message["version"] > sent[0]:
                    if run.killed_at is None:
                        run.latencies[kind].append(now - sent[1])
                    sent = None
                version = message["version"]
                if version > room.version:
                    room.version = version
                    if run.killed_at is not None and room.played_again is None and version > room.killed_version:
                        room.played_again = now - run.killed_at
                if message["finished"]:
                    return
                reading = message.get("reading")
                if reading and message["you"] in reading["waiting"]:
                    await ws.send(json.dumps({"type": "continue"}))
                    continue
                if message["view"]["actor"] != index:
                    continue
                action = choose(message, rng)
                if action is not None:
                    if args.think > 0:
                        await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
                    sent = (version, time.monotonic())
                    await ws.send(json.dumps({"type": "act", "action": action, "version": version}))
        except Exception:  # the socket closed: its process is gone, or dropped the relayed client
            pass
        with contextlib.suppress(Exception):
            await ws.close()
        if time.monotonic() >= run.stop_at:
            return
        sent = None
        while time.monotonic() < run.stop_at:  # back through the process still up
            try:
                ws = await connect(urls[1], max_size=2**24, open_timeout=10, close_timeout=1)
                await ws.send(
                    json.dumps({"type": "resume", "code": room.code, "secret": room.secrets[index], "version": version})
                )
                while True:
                    first = json.loads(await asyncio.wait_for(ws.recv(), timeout=15))
                    if first["type"] == "update":
                        break
                    if first["type"] == "error":
                        raise RuntimeError(first["code"])
                if first["version"] - len(first["events"]) != version and version > 0:
                    room.lost = True  # the room is behind what this client was sent
                now = time.monotonic()
                if run.killed_at is not None and room.resumed is None:
                    room.resumed = now - run.killed_at
                version = first["version"]
                if version > room.version and run.killed_at is not None and room.played_again is None:
                    room.version = version
                    room.played_again = now - run.killed_at
                if not first["finished"] and first["view"]["actor"] == index:
                    action = choose(first, rng)
                    if action is not None:
                        await ws.send(json.dumps({"type": "act", "action": action, "version": version}))
                break
            except Exception:
                with contextlib.suppress(Exception):
                    await ws.close()
                await asyncio.sleep(0.1)


async def open_room(urls: list[str]) -> tuple[Room, list[Any]]:
    ann = await connect(urls[0], max_size=2**24, open_timeout=30, close_timeout=1)
    await ann.send(json.dumps({"type": "create", "name": "Ann", "edition": "classic", "seats": 3, "timer": 0}))
    welcome = await expect(ann, "welcome")
    code = welcome["code"]
    bob = await connect(urls[1], max_size=2**24, open_timeout=30, close_timeout=1)
    await bob.send(json.dumps({"type": "join", "code": code, "name": "Bob"}))
    bob_welcome = await expect(bob, "welcome")
    await ann.send(json.dumps({"type": "seat", "seat": 2, "bot": True}))
    await expect(ann, "lobby", lambda m: m["seats"][2]["kind"] == "bot" and m["seats"][1]["kind"] == "human")
    await ann.send(json.dumps({"type": "start"}))
    return Room(code, [welcome["secret"], bob_welcome["secret"]]), [ann, bob]


async def expect(ws: Any, kind: str, where: Any = None) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
        if message["type"] == "error":
            raise RuntimeError(f"{message['code']}: {message.get('message')}")
        if message["type"] == kind and (where is None or where(message)):
            return message


def stored_events(db: str, codes: list[str]) -> dict[str, int]:
    """Each room's number of events as its stored record replays."""
    from unokit.engine.record import replay
    from unokit.web.storage import open_storage

    storage = open_storage(db)
    try:
        counts = {}
        for code in codes:
            record = storage.load_record(code)
            counts[code] = len(replay(record).events) if record is not None else 0
        return counts
    finally:
        storage.close()


async def measure(args: argparse.Namespace, db: str, redis: str) -> dict[str, Any]:
    allowance = str(args.rooms * 20 + 50)
    options = ["--lease-seconds", str(args.lease), "--bot-delay", str(args.bot_delay), "--away-seconds", "600"]
    options += ["--connections-per-address", allowance, "--rooms-per-hour", allowance]
    options += ["--lookups-per-minute", allowance]
    with fleet(2, options, db, redis, keep_db=args.keep_db, flush_redis=True) as running:
        urls = [server.ws for server in running.servers]
        run = Run()
        opened = [await open_room(urls) for _ in range(args.rooms)]
        run.rooms = [room for room, _ in opened]
        tasks = [
            asyncio.create_task(seat(run, room, index, urls, sockets[index], args))
            for room, sockets in opened
            for index in (0, 1)
        ]
        await asyncio.sleep(args.warm)
        for room in run.rooms:
            room.killed_version = room.version
        running.servers[0].process.send_signal(signal.SIGKILL)
        run.killed_at = time.monotonic()
        run.stop_at = run.killed_at + args.lease * 3 + args.after
        await asyncio.gather(*tasks, return_exceptions=True)
        counts = stored_events(running.db, [room.code for room in run.rooms])
        behind = sum(1 for room in run.rooms if counts[room.code] < room.version)
        again = [room.played_again for room in run.rooms if room.played_again is not None]
        resumed = [room.resumed for room in run.rooms if room.resumed is not None]
        result: dict[str, Any] = {
            "rooms": args.rooms,
            "lease_s": args.lease,
            "relay_act_to_update_ms": {kind: figures(values, 1000) for kind, values in run.latencies.items()},
            "failover_s": {"playing_again": figures(again), "resumed": figures(resumed)},
            "rooms_not_playing_again": args.rooms - len(again),
            "lost": {"resumed_behind": sum(room.lost for room in run.rooms), "store_behind": behind},
            "errors": run.errors,
            "server_log": running.log_counts(),
            "server_log_sample": running.log_sample(6),
        }
        if args.keep_logs is not None:
            args.keep_logs.mkdir(parents=True, exist_ok=True)
            for index, server in enumerate(running.servers, 1):
                shutil.copy(server.log, args.keep_logs / f"server{index}.log")
        return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, metavar="URL", help="a PostgreSQL server (a scratch database is made)")
    parser.add_argument("--redis", metavar="URL", help="a Redis database (default: a redis-server of its own)")
    parser.add_argument("--keep-db", action="store_true", help="use --db as it is")
    parser.add_argument("--keep-logs", type=Path, metavar="DIR", help="copy the servers' logs into DIR")
    parser.add_argument("--rooms", type=int, default=50, help="rooms on the process killed (default 50)")
    parser.add_argument("--lease", type=float, default=2.0, help="the servers' --lease-seconds (default 2)")
    parser.add_argument("--bot-delay", type=float, default=0.2, help="the servers' --bot-delay (default 0.2)")
    parser.add_argument("--think", type=float, default=0.2, help="the players' mean seconds per decision")
    parser.add_argument("--warm", type=float, default=5.0, help="seconds of play before the kill (default 5)")
    parser.add_argument("--after", type=float, default=5.0, help="seconds of play after the take-over (default 5)")
    args = parser.parse_args()
    if not is_postgres(args.db):
        parser.error("--db takes a postgresql:// URL: rooms change process only through a shared database")
    try:
        with redis_server(args.redis) as redis:
            result = asyncio.run(measure(args, args.db, redis))
    except Refused as exc:
        print(f"failover: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=1))
    return 0 if not result["lost"]["resumed_behind"] and not result["lost"]["store_behind"] else 1


if __name__ == "__main__":
    sys.exit(main())
