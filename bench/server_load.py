"""Load on the web server: many rooms at once, played at a human pace over real WebSockets on loopback.

Starts ``--servers`` (1) ``unokit serve`` processes (127.0.0.1, free ports; by default one process on a
temporary SQLite file; ``--db postgresql://…`` and ``--redis redis://…`` are passed to every process),
then opens ``--rooms`` connections, spread over the processes in turn (``--open-at-once`` (50) rooms
being opened at a time).  Each creates a room of
``--players`` (4) seats with a turn timer (``--timer``, 30 s), fills the other seats with bots, starts,
and plays its seat as a person would: each decision after a think of ``--think`` (2) seconds on average
(uniform from half to one and a half of it), the results of a round closed after a think too, a chat
message every ``--chat-every`` (10) seconds.  The bots play at the server's ``--bot-delay`` (0.7 s, the
default of ``unokit serve``).  A room whose match ends starts a new one, so the number of rooms stays the
same.  After ``--seconds`` of play once every room has begun, it reports:

- ``actions_per_s``: actions applied in the rooms (players' and bots'), counted by the clients (every
  applied action sends each member one update whose version moves on);
- ``updates_per_action``, ``update_bytes_mean``: the ``update`` messages a player's connection gets per
  applied action, and their mean size (what a relay between processes would carry per member);
- ``latency_ms``: p50 / p99 / max from sending an ``act`` to receiving the ``update`` that
  acknowledges it (the first update past the act's version, when the act was not refused); with
  ``--relayed FRACTION``, that share of the rooms is begun on its owner and played through the next
  process (relayed to the owner over Redis), and ``latency_ms_direct`` and ``latency_ms_relayed`` split
  the figures;
- ``errors``: ``error`` messages by code, clients that failed, rooms that never began, and the warnings,
  errors and tracebacks in the servers' logs;
- ``memory_per_room_kb``: growth of the servers' resident memory (``VmRSS``) once every room plays,
  divided by the rooms;
- ``server_cpu_pct``: CPU time of the server processes over the measured time (100: one core; all of
  them, and each in ``server_cpu_pct_each``), from ``/proc/<pid>/stat``, beside the bench's own, the
  stores' (``store_cpu_pct``: a PostgreSQL server on this machine, its backends included, and Redis by
  its ``INFO cpu``) and the whole machine's (others' work included).

Each client names an address of its own (``X-Forwarded-For``, the servers trusting the bench as their
proxy), so that the limits per address (chat, shared across processes) see one person each.

One run prints one JSON object.  ``--ramp 100,200,400,800`` runs each room count in turn (fresh servers
for each, ``--repeat`` times) and prints a table, with the first count whose p99 passes 100 ms (the knee).

    python bench/server_load.py --rooms 200 --seconds 30
    python bench/server_load.py --ramp 100,200,400,800 --seconds 20 --repeat 3
    python bench/server_load.py --servers 2 --db postgresql://localhost/postgres --redis redis://localhost:6379/0

Several processes need a database they can share: with SQLite, ``--servers`` over 1 stops at once (exit 2).
A server that refuses an option or a database is reported with its own last words (exit 2).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import sqlite3
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fleet import CLOCK_TICKS, Fleet, Refused, fleet, is_postgres, machine_cpu, sqlite_refusal

try:
    from websockets.asyncio.client import connect
except ImportError:  # websockets < 13
    from websockets.client import connect  # type: ignore[no-redef]

KNEE_MS = 100.0
"""The p99 latency that marks the knee of a ramp."""


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass
class Stats:
    rooms: int
    stop_at: float
    measuring: bool = False
    """Counting: from when every room plays (and settled) to the end."""
    latencies: list[float] = field(default_factory=list)
    direct_latencies: list[float] = field(default_factory=list)
    relayed_latencies: list[float] = field(default_factory=list)
    """``latencies`` split: players connected to their room's owner, and those relayed to it (``--relayed``)."""
    actions: int = 0
    """Applied actions seen by the clients while measuring."""
    acts: int = 0
    """``act`` messages sent while measuring."""
    errors: dict[str, int] = field(default_factory=dict)
    """``error`` messages received, by code (all the run)."""
    matches: int = 0
    rooms_playing: int = 0
    lags: list[float] = field(default_factory=list)
    """How late the bench's own event loop wakes (its share of the measured latency)."""
    updates: int = 0
    """``update`` messages received while measuring, and their bytes."""
    update_bytes: int = 0
    chats_sent: int = 0
    chats_heard: int = 0
    all_playing: asyncio.Event = field(default_factory=asyncio.Event)
    opening: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(1))
    """Rooms being opened at once (``--open-at-once``): people arrive over a while, not all in one instant."""


def choose(update: dict[str, Any], rng: random.Random) -> str | None:
    legal = [entry["action"] for entry in update["legal"]]
    if "uno" in legal:
        return "uno"
    moves = [a for a in legal if not a.startswith("catch@")]
    if not moves:
        return None
    return rng.choice([a for a in moves if a.endswith("!")] or moves)


def think(args: argparse.Namespace, rng: random.Random) -> float:
    """A person's time over a decision: ``--think`` on average, from half to one and a half of it."""
    return args.think * rng.uniform(0.5, 1.5)


def client_address(index: int) -> str:
    """The address client ``index`` comes from (``X-Forwarded-For``; the servers trust the bench as their
    proxy), one each as in the field, so that the limits per address (chat, creations) see one person."""
    number = index + 1
    return f"10.{(number >> 16) & 255}.{(number >> 8) & 255}.{number & 255}"


def is_relayed(index: int, fraction: float) -> bool:
    """Whether room ``index`` is among the ``fraction`` played through a process that does not own it
    (spread evenly over the rooms)."""
    return int((index + 1) * fraction) > int(index * fraction)


async def begin(ws: Any, seed: int, args: argparse.Namespace) -> None:
    """Create a room on ``ws``, fill the other seats with bots and start."""
    create = {"type": "create", "name": f"P{seed}", "edition": "classic", "seats": args.players}
    create["timer"] = args.timer
    await ws.send(json.dumps(create))
    for seat in range(1, args.players):
        await ws.send(json.dumps({"type": "seat", "seat": seat, "bot": True}))
    await ws.send(json.dumps({"type": "start"}))


async def expect(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
        if message["type"] == "error" and message["code"] not in ("rate-limited",):
            raise RuntimeError(f"room not begun: {message['code']}: {message.get('message')}")
        if message["type"] == kind:
            return message


async def hand_over(owner: str, relay: str, seed: int, args: argparse.Namespace, headers: dict[str, str]) -> Any:
    """A room begun on ``owner`` (which owns it), its player then resumed through ``relay`` (which relays
    to the owner) and the first socket closed: the relayed connection, ready to play."""
    async with connect(owner, max_size=2**24, open_timeout=60, close_timeout=2, additional_headers=headers) as host:
        await begin(host, seed, args)
        welcome = await expect(host, "welcome")
        await expect(host, "update")  # the match has begun
        ws = await connect(relay, max_size=2**24, open_timeout=60, close_timeout=2, additional_headers=headers)
        try:
            await ws.send(json.dumps({"type": "resume", "code": welcome["code"], "secret": welcome["secret"]}))
            await expect(ws, "welcome")
        except BaseException:
            await ws.close()
            raise
    return ws


async def play_room(urls: list[str], index: int, args: argparse.Namespace, stats: Stats) -> None:
    """One connection: create a room, fill it with bots, play the host's seat at a human pace and chat
    now and then; a new match when one ends.  A relayed room (``--relayed``) is begun on the process
    that owns it and played through the next process."""
    seed = args.seed + index
    rng = random.Random(seed)
    next_chat = time.monotonic() + rng.uniform(0, args.chat_every) if args.chat_every > 0 else math.inf
    first = True
    headers = {"X-Forwarded-For": client_address(index)}
    owner = urls[index % len(urls)]
    relay = urls[(index + 1) % len(urls)] if is_relayed(index, args.relayed) else None
    ws: Any = None
    await stats.opening.acquire()
    opening = True
    try:
        while time.monotonic() < stats.stop_at:
            if relay is not None:
                if ws is not None:
                    await ws.close()
                ws = None
                ws = await hand_over(owner, relay, seed, args, headers)
            else:
                if ws is None:
                    ws = await connect(
                        owner, max_size=2**24, open_timeout=60, close_timeout=2, additional_headers=headers
                    )
                await begin(ws, seed, args)
            version = -1  # the room's version as last seen (-1: no update yet)
            pending: tuple[int, float] | None = None  # (version acted on, when)
            candidate: float | None = None  # a latency waiting to be known as not refused
            planned: tuple[float, int, dict[str, Any]] | None = None  # (when, at version, message)
            while True:
                now = time.monotonic()
                if now >= stats.stop_at:
                    return
                if now >= next_chat:
                    next_chat = now + args.chat_every
                    if stats.measuring:
                        stats.chats_sent += 1
                    await ws.send(json.dumps({"type": "chat", "text": f"good luck from room {seed}!"}))
                if planned is not None and now >= planned[0]:
                    _, at, message = planned
                    planned = None
                    if at == version:
                        if message["type"] == "act":
                            pending = (version, time.monotonic())
                            if stats.measuring:
                                stats.acts += 1
                        await ws.send(json.dumps(message))
                    continue
                wake = min(stats.stop_at, next_chat, planned[0] if planned is not None else math.inf)
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.0, wake - now))
                except TimeoutError:
                    continue
                message = json.loads(raw)
                now = time.monotonic()
                kind = message["type"]
                if kind == "chat":
                    if stats.measuring:
                        stats.chats_heard += 1
                    continue
                if kind == "error":
                    code = message["code"]
                    stats.errors[code] = stats.errors.get(code, 0) + 1
                    candidate = None  # the act it answers was refused
                    if version < 0 and code not in ("stale", "not-your-turn", "illegal"):
                        raise RuntimeError(f"room not begun: {code}: {message.get('message')}")
                    continue
                if kind != "update":
                    continue
                if stats.measuring:
                    stats.updates += 1
                    stats.update_bytes += len(raw)
                if first:
                    first = False
                    stats.opening.release()
                    opening = False
                    stats.rooms_playing += 1
                    if stats.rooms_playing >= stats.rooms:
                        stats.all_playing.set()
                if message["version"] > version >= 0 and stats.measuring:
                    stats.actions += 1
                if candidate is not None:  # no refusal came before the next update: it was acknowledged
                    if stats.measuring:
                        stats.latencies.append(candidate)
                        (stats.direct_latencies if relay is None else stats.relayed_latencies).append(candidate)
                    candidate = None
                if pending is not None and message["version"] > pending[0]:
                    candidate = now - pending[1]
                    pending = None
                moved = message["version"] != version
                version = message["version"]
                if message["finished"]:
                    stats.matches += 1
                    break
                if not moved and planned is not None:
                    continue  # the same decision: keep thinking
                planned = None
                reading = message.get("reading")
                if reading and message["you"] in reading["waiting"]:
                    planned = (now + think(args, rng) / 2, version, {"type": "continue"})
                    continue
                action = choose(message, rng)
                if action is not None:
                    delay = think(args, rng) * (0.3 if action == "uno" else 1.0)
                    planned = (now + delay, version, {"type": "act", "action": action, "version": version})
    finally:
        if opening:
            stats.opening.release()
        if ws is not None:
            await ws.close()


async def watch_lag(stats: Stats) -> None:
    while time.monotonic() < stats.stop_at:
        before = time.monotonic()
        await asyncio.sleep(0.01)
        stats.lags.append(time.monotonic() - before - 0.01)


def postmaster(db: str) -> int | None:
    """The process id of the PostgreSQL server of ``db`` when it runs on this machine (its data folder's
    ``postmaster.pid``, read as its superuser may), else None."""
    with contextlib.suppress(Exception):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            row = conn.execute("SHOW data_directory").fetchone()
        assert row is not None
        return int((Path(row[0]) / "postmaster.pid").read_text().split()[0])
    return None


def postgres_cpu_seconds(pid: int) -> float:
    """CPU time of a PostgreSQL server: the postmaster, its backends that ended and those running."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    total = sum(int(value) for value in fields[11:15]) / CLOCK_TICKS  # utime, stime, cutime, cstime
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                child = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(child[1]) == pid:
                    total += (int(child[11]) + int(child[12])) / CLOCK_TICKS
    return total


def redis_cpu_seconds(url: str) -> float | None:
    """CPU time of the Redis server of ``url`` (its own ``INFO cpu``)."""
    with contextlib.suppress(Exception):
        import redis

        client = redis.Redis.from_url(url)
        try:
            info = client.info("cpu")
        finally:
            client.close()
        return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
    return None


def store_cpu_seconds(pg_pid: int | None, redis_url: str | None) -> dict[str, float | None]:
    return {
        "postgresql": postgres_cpu_seconds(pg_pid) if pg_pid is not None else None,
        "redis": redis_cpu_seconds(redis_url) if redis_url is not None else None,
    }


def bench_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


def stored_actions(running: Fleet) -> int | None:
    """Actions in the SQLite store (a check of the clients' count), or None for another store."""
    if running.sqlite is None:
        return None
    with contextlib.suppress(sqlite3.Error), sqlite3.connect(f"file:{running.sqlite}?mode=ro", uri=True) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0])
    return None


async def run(args: argparse.Namespace, rooms: int, running: Fleet) -> dict[str, Any]:
    baseline = running.rss_kb()
    started = time.monotonic()
    stats = Stats(rooms, started + args.open_within + args.seconds)
    stats.opening = asyncio.Semaphore(args.open_at_once)
    urls = [server.ws for server in running.servers]
    tasks = [asyncio.create_task(play_room(urls, i, args, stats)) for i in range(rooms)]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stats.all_playing.wait(), timeout=args.open_within)
    opened = time.monotonic() - started
    await asyncio.sleep(min(2.0, args.seconds / 4))  # let every room settle into play
    loaded = running.rss_kb()
    stats.stop_at = time.monotonic() + args.seconds
    lag_watch = asyncio.create_task(watch_lag(stats))
    stats.measuring = True
    errors_before = dict(stats.errors)
    stored_before = stored_actions(running)
    pg_pid = postmaster(running.db) if is_postgres(running.db) else None
    stores_before = store_cpu_seconds(pg_pid, args.redis)
    cpu_before, bench_before, machine_before = running.cpu_seconds(), bench_cpu_seconds(), machine_cpu()
    each_before = running.cpu_seconds_each()
    measure_start = time.monotonic()
    await asyncio.sleep(max(0.0, stats.stop_at - time.monotonic()))
    elapsed = time.monotonic() - measure_start
    cpu = running.cpu_seconds() - cpu_before
    each = [after - before for after, before in zip(running.cpu_seconds_each(), each_before, strict=True)]
    bench = bench_cpu_seconds() - bench_before
    machine_after = machine_cpu()
    stores_after = store_cpu_seconds(pg_pid, args.redis)
    stored_after = stored_actions(running)
    stats.measuring = False
    results = await asyncio.gather(*tasks, return_exceptions=True)
    await lag_watch
    failures = [repr(r) for r in results if isinstance(r, BaseException)]
    lags = [1000 * x for x in stats.lags]
    lat = [1000 * x for x in stats.latencies]
    relayed = [1000 * x for x in stats.relayed_latencies]
    direct = [1000 * x for x in stats.direct_latencies]
    busy, total = (after - before for after, before in zip(machine_after, machine_before, strict=True))
    refused = {code: n - errors_before.get(code, 0) for code, n in stats.errors.items()}
    result: dict[str, Any] = {
        "rooms": rooms,
        "rooms_playing": stats.rooms_playing,
        "servers": len(running.servers),
        "db": "postgresql" if is_postgres(running.db) else "sqlite",
        "redis": args.redis is not None,
        "players_per_room": args.players,
        "think_s": args.think,
        "bot_delay_s": args.bot_delay,
        "seconds": round(elapsed, 2),
        "open_s": round(opened, 2),
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / elapsed, 1),
        "player_acts": stats.acts,
        "updates_per_action": round(stats.updates / stats.actions, 2) if stats.actions else None,
        "update_bytes_mean": round(stats.update_bytes / stats.updates) if stats.updates else None,
        "latency_ms": {
            "samples": len(lat),
            "p50": round(percentile(lat, 0.50), 1),
            "p99": round(percentile(lat, 0.99), 1),
            "max": round(max(lat), 1) if lat else None,
            "mean": round(statistics.fmean(lat), 1) if lat else None,
        },
        "relayed": args.relayed,
        "server_cpu_pct": round(100 * cpu / elapsed, 1),
        "server_cpu_pct_each": [round(100 * used / elapsed, 1) for used in each],
        "server_cpu_ms_per_action": round(1000 * cpu / stats.actions, 3) if stats.actions else None,
        "bench_cpu_pct": round(100 * bench / elapsed, 1),
        "store_cpu_pct": {
            name: round(100 * (after - before) / elapsed, 1) if after is not None and before is not None else None
            for (name, before), after in zip(stores_before.items(), stores_after.values(), strict=True)
        },
        "machine_busy_pct": round(100 * busy / elapsed, 1),
        "machine_cores": round(total / elapsed),
        "load_average": os.getloadavg()[0],
        "client_loop_lag_ms": {"p50": round(percentile(lags, 0.5), 2), "p99": round(percentile(lags, 0.99), 2)},
        "matches_finished": stats.matches,
        "chat": {"sent": stats.chats_sent, "heard": stats.chats_heard},
        "errors": {
            "refused": refused,
            "refused_while_opening": errors_before,
            "clients_failed": len(failures),
            "rooms_not_begun": rooms - stats.rooms_playing,
            "server_log": running.log_counts(),
        },
        "server_rss_mb": {"baseline": round(baseline / 1024, 1), "loaded": round(loaded / 1024, 1)},
        "server_peak_rss_mb": round(running.rss_kb("VmHWM") / 1024, 1),
        "memory_per_room_kb": round((loaded - baseline) / max(1, rooms), 1),
    }
    if args.relayed > 0:
        result["latency_ms_direct"] = latency_figures(direct)
        result["latency_ms_relayed"] = latency_figures(relayed)
    if stored_before is not None and stored_after is not None:
        result["stored_actions"] = stored_after - stored_before
    if failures:
        result["failures"] = failures[:5]
    sample = running.log_sample()
    if sample:
        result["server_log_sample"] = sample
    return result


def latency_figures(values: list[float]) -> dict[str, float | int | None]:
    return {
        "samples": len(values),
        "p50": round(percentile(values, 0.50), 1),
        "p99": round(percentile(values, 0.99), 1),
        "max": round(max(values), 1) if values else None,
    }


def serve_options(args: argparse.Namespace, rooms: int) -> list[str]:
    """The options of every ``unokit serve``: the bots' pace, the bench trusted as a proxy (each client
    names its own address), and limits per address that let every client in even so."""
    every_room = str(rooms + 16)
    return [
        "--bot-delay",
        str(args.bot_delay),
        "--connections-per-address",
        every_room,
        "--rooms-per-hour",
        every_room,
        "--lookups-per-minute",
        every_room,
        "--trusted-proxy",
        "127.0.0.1",
        *args.serve_option,
    ]


def measure(args: argparse.Namespace, rooms: int) -> dict[str, Any]:
    """One run: fresh servers, ``rooms`` rooms, the report."""
    options = serve_options(args, rooms)
    with fleet(args.servers, options, args.db, args.redis, args.keep_db, args.flush_redis) as running:
        return asyncio.run(run(args, rooms, running))


COLUMNS = ("rooms", "run", "actions/s", "p50 ms", "p99 ms", "server CPU %", "bench CPU %", "machine %", "KiB/room")
COLUMNS += ("errors",)


def row(result: dict[str, Any], run_label: str) -> list[str]:
    errors = result["errors"]
    count = sum(errors["refused"].values()) + errors["clients_failed"] + errors["rooms_not_begun"]
    count += errors["server_log"]["errors"] + errors["server_log"]["tracebacks"]
    return [
        str(result["rooms"]),
        run_label,
        f"{result['actions_per_s']:.0f}",
        f"{result['latency_ms']['p50']:.0f}",
        f"{result['latency_ms']['p99']:.0f}",
        f"{result['server_cpu_pct']:.0f}",
        f"{result['bench_cpu_pct']:.0f}",
        f"{result['machine_busy_pct']:.0f}",
        f"{result['memory_per_room_kb']:.0f}",
        str(count),
    ]


def print_table(rows: list[list[str]]) -> None:
    widths = [max(len(COLUMNS[i]), *(len(r[i]) for r in rows)) for i in range(len(COLUMNS))]
    print("  ".join(name.rjust(width) for name, width in zip(COLUMNS, widths, strict=True)))
    for cells in rows:
        print("  ".join(cell.rjust(width) for cell, width in zip(cells, widths, strict=True)))


def median_of(results: list[dict[str, Any]], *path: str) -> float:
    values = []
    for result in results:
        value: Any = result
        for key in path:
            value = value[key]
        values.append(float(value))
    return statistics.median(values)


def ramp(args: argparse.Namespace, counts: list[int]) -> int:
    """Each room count in turn, ``--repeat`` times: a row per run, then the medians and the knee."""
    rows: list[list[str]] = []
    medians: list[tuple[int, float]] = []
    failed = False
    for rooms in counts:
        results = []
        for repeat in range(1, args.repeat + 1):
            result = measure(args, rooms)
            failed = failed or bool(result["errors"]["clients_failed"])
            results.append(result)
            if args.json:
                print(json.dumps(result), flush=True)
            rows.append(row(result, str(repeat)))
            line = f"server_load: {rooms} rooms, run {repeat}: " + ", ".join(row(result, "")[2:5])
            if "latency_ms_relayed" in result:
                split = result["latency_ms_direct"]["p99"], result["latency_ms_relayed"]["p99"]
                line += f" (p99 direct {split[0]}, relayed {split[1]})"
            print(line + f", load {result['load_average']:.2f}", file=sys.stderr)
        if args.repeat > 1:
            summary = row(results[0], "median")
            summary[2] = f"{median_of(results, 'actions_per_s'):.0f}"
            summary[3] = f"{median_of(results, 'latency_ms', 'p50'):.0f}"
            summary[4] = f"{median_of(results, 'latency_ms', 'p99'):.0f}"
            summary[5] = f"{median_of(results, 'server_cpu_pct'):.0f}"
            summary[6] = f"{median_of(results, 'bench_cpu_pct'):.0f}"
            summary[7] = f"{median_of(results, 'machine_busy_pct'):.0f}"
            summary[8] = f"{median_of(results, 'memory_per_room_kb'):.0f}"
            summary[9] = ""
            rows.append(summary)
        medians.append((rooms, median_of(results, "latency_ms", "p99")))
    print_table(rows)
    over = [rooms for rooms, p99 in medians if p99 > KNEE_MS]
    servers = f"{args.servers} server process{'es' if args.servers > 1 else ''}"
    if not over:
        print(f"knee: p99 stays under {KNEE_MS:g} ms up to {counts[-1]} rooms ({servers})")
    elif over[0] == counts[0]:
        print(f"knee: p99 is over {KNEE_MS:g} ms already at {counts[0]} rooms ({servers})")
    else:
        below = counts[counts.index(over[0]) - 1]
        print(f"knee: p99 passes {KNEE_MS:g} ms between {below} and {over[0]} rooms ({servers})")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=200, help="rooms played at once (default 200)")
    parser.add_argument("--ramp", metavar="N,N,...", help="several room counts in turn, e.g. 100,200,400,800: a table")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each room count of --ramp (default 1)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time once all rooms play (default 30)")
    parser.add_argument("--open-within", type=float, default=60.0, help="at most this long to open every room")
    parser.add_argument("--open-at-once", type=int, default=50, help="rooms being opened at the same time (default 50)")
    parser.add_argument("--players", type=int, default=4, help="seats per room, one player and bots (default 4)")
    parser.add_argument("--think", type=float, default=2.0, help="the player's mean seconds per decision (default 2)")
    parser.add_argument("--bot-delay", type=float, default=0.7, help="the servers' --bot-delay (default 0.7)")
    parser.add_argument("--timer", type=int, default=30, help="each room's turn timer in seconds (default 30)")
    parser.add_argument("--chat-every", type=float, default=10.0, help="seconds between chat messages (0: none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--servers", type=int, default=1, help="unokit serve processes the rooms are spread over")
    parser.add_argument("--db", metavar="URL|FILE", help="the servers' --db (default: a temporary SQLite file)")
    parser.add_argument("--redis", metavar="URL", help="the servers' --redis (passed to each process)")
    parser.add_argument(
        "--keep-db", action="store_true", help="use a PostgreSQL --db as it is (default: a scratch database on it)"
    )
    parser.add_argument("--flush-redis", action="store_true", help="empty the --redis database before each run")
    parser.add_argument("--serve-option", action="append", default=[], metavar="OPT", help="more for unokit serve")
    parser.add_argument(
        "--relayed",
        type=float,
        default=0.0,
        metavar="FRACTION",
        help="share of the rooms whose player connects to a process other than the room's owner (relayed)",
    )
    parser.add_argument("--json", action="store_true", help="with --ramp: each run's JSON object too")
    args = parser.parse_args()
    counts = [args.rooms]
    if args.ramp is not None:
        try:
            counts = [int(part) for part in args.ramp.split(",") if part.strip()]
        except ValueError:
            parser.error(f"--ramp takes room counts separated by commas, not {args.ramp!r}")
    if not counts or not all(1 <= n <= 5000 for n in counts) or not 0 < args.seconds <= 600:
        parser.error("rooms 1..5000, --seconds up to 600")
    if not 2 <= args.players <= 10 or min(args.servers, args.repeat, args.open_at_once) < 1 or args.think < 0:
        parser.error("--players 2..10, --servers, --repeat and --open-at-once at least 1, --think not negative")
    if not 0 <= args.relayed <= 1 or (args.relayed > 0 and args.servers < 2):
        parser.error("--relayed takes a fraction from 0 to 1, and at least two --servers")
    if args.servers > 1 and not is_postgres(args.db):
        print(f"server_load: {sqlite_refusal(args.servers)}", file=sys.stderr)
        return 2
    try:
        if args.ramp is not None:
            return ramp(args, counts)
        result = measure(args, counts[0])
    except Refused as exc:
        print(f"server_load: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0 if not result["errors"]["clients_failed"] else 1


if __name__ == "__main__":
    sys.exit(main())
