"""Load on the web server: many rooms at once over real WebSockets on loopback.

Starts ``unokit serve`` in a subprocess (127.0.0.1, a free port, a temporary SQLite file,
bots with no delay), then opens ``--rooms`` connections at once.  Each creates a room
with a turn timer (``--timer``, 30 s), fills the other seats with bots, starts, and plays
its seat with instant legal moves, and says something in the chat every ``--chat-every``
seconds (3); a room whose match ends starts a new one, so the number of rooms stays the
same.  After ``--seconds`` it prints one JSON object:

- ``actions_per_s``: actions applied by the server (players' and bots'), from the stored actions;
- ``latency_ms``: p50 / p99 / max from sending an ``act`` to receiving the ``update`` that
  acknowledges it (the first update past the act's version, when the act was not refused);
- ``memory_per_room_kb``: growth of the server's resident memory (``VmRSS``) once every room
  is playing, divided by the rooms;
- ``chat``: chat messages sent and received back (every room's player hears its own).

    python bench/server_load.py --rooms 200 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import random
import sqlite3
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from serving import served

try:
    from websockets.asyncio.client import connect
except ImportError:  # websockets < 13
    from websockets.client import connect  # type: ignore[no-redef]


def rss_kb(pid: int, field: str = "VmRSS") -> int:
    """A memory figure of a process, in KiB, from ``/proc/<pid>/status``."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} for process {pid}")


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Stats:
    def __init__(self, rooms: int, stop_at: float) -> None:
        self.rooms = rooms
        self.stop_at = stop_at
        """When every room stops (moved once all rooms play)."""
        self.latencies: list[float] = []
        self.acts = 0
        self.refused: dict[str, int] = {}
        self.matches = 0
        self.rooms_playing = 0
        self.lags: list[float] = []
        """How late the bench's own event loop wakes (its share of the measured latency)."""
        self.chats_sent = 0
        self.chats_heard = 0


def choose(update: dict[str, Any], rng: random.Random) -> str | None:
    legal = [entry["action"] for entry in update["legal"]]
    if "uno" in legal:
        return "uno"
    moves = [a for a in legal if not a.startswith("catch@")]
    if not moves:
        return None
    return rng.choice([a for a in moves if a.endswith("!")] or moves)


async def play_room(url: str, seed: int, args: argparse.Namespace, stats: Stats, ready: asyncio.Event) -> None:
    """One connection: create a room, fill it with bots, play instantly and chat now and then;
    a new match when one ends."""
    rng = random.Random(seed)
    players = args.players
    next_chat = time.monotonic() + rng.uniform(0, args.chat_every) if args.chat_every > 0 else math.inf
    async with connect(url, max_size=2**24, open_timeout=60) as ws:
        first = True
        while time.monotonic() < stats.stop_at:
            create = {"type": "create", "name": f"P{seed}", "edition": "classic", "seats": players, "timer": args.timer}
            await ws.send(json.dumps(create))
            for seat in range(1, players):
                await ws.send(json.dumps({"type": "seat", "seat": seat, "bot": True}))
            await ws.send(json.dumps({"type": "start"}))
            pending: tuple[int, float] | None = None  # (version acted on, when)
            candidate: float | None = None  # a latency waiting to be known as not refused
            acted_at = -1
            while True:
                left = stats.stop_at - time.monotonic()
                if left <= 0:
                    return
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=left)
                except TimeoutError:
                    return
                message = json.loads(raw)
                now = time.monotonic()
                kind = message["type"]
                if now >= next_chat:
                    next_chat = now + args.chat_every
                    stats.chats_sent += 1
                    await ws.send(json.dumps({"type": "chat", "text": f"good luck from room {seed}!"}))
                if kind == "chat":
                    stats.chats_heard += 1
                    continue
                if kind == "error":
                    code = message["code"]
                    stats.refused[code] = stats.refused.get(code, 0) + 1
                    if code in ("stale", "rate-limited"):
                        candidate = None
                        acted_at = -1
                        if code == "rate-limited":
                            await asyncio.sleep(0.1)
                        await ws.send(json.dumps({"type": "sync", "version": 0}))
                        continue
                    raise RuntimeError(f"refused: {message}")
                if kind != "update":
                    continue
                if first:
                    first = False
                    stats.rooms_playing += 1
                    if stats.rooms_playing >= stats.rooms:
                        ready.set()
                if pending is not None and message["version"] > pending[0]:
                    candidate = now - pending[1]
                    pending = None
                if message["finished"]:
                    stats.matches += 1
                    break
                if message["version"] == acted_at:
                    continue
                action = choose(message, rng)
                if action is None:
                    continue
                if candidate is not None:
                    stats.latencies.append(candidate)
                    candidate = None
                acted_at = message["version"]
                pending = (acted_at, time.monotonic())
                stats.acts += 1
                await ws.send(json.dumps({"type": "act", "action": action, "version": acted_at}))


async def watch_lag(stats: Stats) -> None:
    while time.monotonic() < stats.stop_at:
        before = time.monotonic()
        await asyncio.sleep(0.01)
        stats.lags.append(time.monotonic() - before - 0.01)


async def run(args: argparse.Namespace, url: str, pid: int, db: Path) -> dict[str, Any]:
    baseline = rss_kb(pid)
    ready = asyncio.Event()
    started = time.monotonic()
    stats = Stats(args.rooms, started + args.ramp + args.seconds)
    tasks = [asyncio.create_task(play_room(url, args.seed + i, args, stats, ready)) for i in range(args.rooms)]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(ready.wait(), timeout=args.ramp)
    ramp = time.monotonic() - started
    stats.stop_at = time.monotonic() + args.seconds
    await asyncio.sleep(min(2.0, args.seconds / 4))  # let every room settle into play
    loaded = rss_kb(pid)
    stats.latencies.clear()
    lag_watch = asyncio.create_task(watch_lag(stats))
    acts_before = stats.acts
    actions_before = count_actions(db)
    measure_start = time.monotonic()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.monotonic() - measure_start
    await lag_watch
    failures = [repr(r) for r in results if isinstance(r, BaseException)]
    lags = [1000 * x for x in stats.lags]
    actions = count_actions(db) - actions_before
    lat = [1000 * x for x in stats.latencies]
    return {
        "rooms": args.rooms,
        "rooms_playing": stats.rooms_playing,
        "players_per_room": args.players,
        "timer_s": args.timer,
        "seconds": round(elapsed, 2),
        "ramp_s": round(ramp, 2),
        "actions": actions,
        "actions_per_s": round(actions / elapsed, 1),
        "player_acts": stats.acts - acts_before,
        "latency_ms": {
            "samples": len(lat),
            "p50": round(percentile(lat, 0.50), 2),
            "p99": round(percentile(lat, 0.99), 2),
            "max": round(max(lat), 2) if lat else None,
            "mean": round(statistics.fmean(lat), 2) if lat else None,
        },
        "client_loop_lag_ms": {"p50": round(percentile(lags, 0.5), 2), "p99": round(percentile(lags, 0.99), 2)},
        "matches_finished": stats.matches,
        "chat": {"sent": stats.chats_sent, "heard": stats.chats_heard},
        "refused": stats.refused,
        "server_rss_mb": {"baseline": round(baseline / 1024, 1), "loaded": round(loaded / 1024, 1)},
        "server_peak_rss_mb": round(rss_kb(pid, "VmHWM") / 1024, 1),
        "memory_per_room_kb": round((loaded - baseline) / max(1, args.rooms), 1),
        "failures": failures[:5],
    }


def count_actions(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=200, help="rooms played at once (default 200)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time once all rooms play (default 30)")
    parser.add_argument("--ramp", type=float, default=60.0, help="at most this long to open every room (default 60)")
    parser.add_argument("--players", type=int, default=4, help="seats per room, one player and bots (default 4)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timer", type=int, default=30, help="each room's turn timer in seconds (default 30)")
    parser.add_argument("--chat-every", type=float, default=3.0, help="seconds between chat messages (0: none)")
    args = parser.parse_args()
    if not 1 <= args.rooms <= 2000 or not 0 < args.seconds <= 600 or not 2 <= args.players <= 10:
        parser.error("--rooms 1..2000, --seconds up to 600, --players 2..10")
    every_room = str(args.rooms + 16)  # every client comes from 127.0.0.1: one address's limits must let them all in
    limits = ("--connections-per-address", every_room, "--rooms-per-hour", every_room)
    with served("--bot-delay", "0", "--away-seconds", "600", *limits, settle=0.5) as server:
        result = asyncio.run(run(args, server.ws, server.process.pid, server.db))
    print(json.dumps(result))
    return 0 if not result["failures"] else 1


if __name__ == "__main__":
    sys.exit(main())
