"""What it costs a server to bring its rooms back from the store: the work of a restart or a take-over.

Starts ``unokit serve`` on an SQLite file in a temporary folder with bots that do not wait
(``--bot-delay 0``), opens ``--rooms`` rooms of four seats (no turn timer, a target score no match
reaches), leaves each player's seat to the room's bot, and lets the bots play for ``--grow`` seconds.
Then, ``--repeat`` times: stops the server and starts it again on the same file, and measures the time
from the process's start until ``/healthz`` answers (every match in progress is replayed from its
stored actions before the server answers) and the CPU the process used by then (from ``/proc``).  The
same is measured on an empty store first: the difference is the rooms' rebuilding.

    python bench/rebuild_cost.py --rooms 200 --grow 20 --repeat 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from fleet import cpu_seconds, fleet

try:
    from websockets.asyncio.client import connect
except ImportError:  # websockets < 13
    from websockets.client import connect  # type: ignore[no-redef]


async def open_rooms(url: str, rooms: int) -> None:
    """``rooms`` rooms, each begun and its player's seat left to the room's bot."""

    async def one(index: int) -> None:
        async with connect(url, open_timeout=60) as ws:
            create = {"type": "create", "name": f"P{index}", "edition": "classic", "seats": 4, "timer": 0}
            create["rules"] = {"target_score": 1_000_000}
            await ws.send(json.dumps(create))
            for seat in (1, 2, 3):
                await ws.send(json.dumps({"type": "seat", "seat": seat, "bot": True}))
            await ws.send(json.dumps({"type": "start"}))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if message["type"] == "error":
                    raise RuntimeError(f"refused: {message}")
                if message["type"] == "update":
                    break
            await ws.send(json.dumps({"type": "leave"}))
            while json.loads(await asyncio.wait_for(ws.recv(), 60))["type"] != "left":
                pass

    await asyncio.gather(*(one(i) for i in range(rooms)))


def healthy(http: str) -> bool:
    try:
        with urllib.request.urlopen(http + "/healthz", timeout=5) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def start_once(db: Path, options: list[str]) -> dict[str, float]:
    """Start a server on ``db``; the seconds until it answers and its CPU seconds by then."""
    started = time.perf_counter()
    with fleet(1, options, str(db)) as running:
        server = running.servers[0]
        while not healthy(server.http):
            time.sleep(0.01)
        elapsed = time.perf_counter() - started
        return {"seconds": elapsed, "cpu_seconds": cpu_seconds(server.pid)}


def stored(db: Path) -> dict[str, Any]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        playing = conn.execute("SELECT COUNT(*) FROM rooms WHERE status = 'playing'").fetchone()[0]
        actions = conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    return {"rooms_playing": playing, "actions": actions, "db_bytes": db.stat().st_size}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=200, help="rooms in progress (default 200)")
    parser.add_argument("--grow", type=float, default=20.0, help="seconds the bots play first (default 20)")
    parser.add_argument("--repeat", type=int, default=3, help="restarts measured (default 3)")
    args = parser.parse_args()
    if not 1 <= args.rooms <= 5000 or not 0 < args.grow <= 600 or args.repeat < 1:
        parser.error("--rooms 1..5000, --grow up to 600, --repeat at least 1")
    limit = str(args.rooms + 16)
    options = ["--bot-delay", "0", "--connections-per-address", limit, "--rooms-per-hour", limit]
    options += ["--lookups-per-minute", limit]
    with tempfile.TemporaryDirectory(prefix="unokit-bench-") as folder:
        empty = [start_once(Path(folder) / f"empty{i}.sqlite3", options) for i in range(args.repeat)]
        db = Path(folder) / "rooms.sqlite3"
        with fleet(1, options, str(db)) as running:
            asyncio.run(open_rooms(running.servers[0].ws, args.rooms))
            time.sleep(args.grow)
        before = stored(db)
        loaded = [start_once(db, options) for _ in range(args.repeat)]
        after = stored(db)
    seconds = statistics.median(run["seconds"] for run in loaded) - statistics.median(run["seconds"] for run in empty)
    cpu = statistics.median(run["cpu_seconds"] for run in loaded) - statistics.median(
        run["cpu_seconds"] for run in empty
    )
    rooms = before["rooms_playing"]
    print(
        json.dumps(
            {
                "rooms": rooms,
                "actions_per_room": round(before["actions"] / max(1, rooms)),
                "db_bytes_per_action": round(before["db_bytes"] / max(1, before["actions"])),
                "start_s_empty": [round(run["seconds"], 2) for run in empty],
                "start_s_loaded": [round(run["seconds"], 2) for run in loaded],
                "cpu_s_empty": [round(run["cpu_seconds"], 2) for run in empty],
                "cpu_s_loaded": [round(run["cpu_seconds"], 2) for run in loaded],
                "rebuild_ms_per_room": round(1000 * seconds / max(1, rooms), 2),
                "rebuild_cpu_ms_per_room": round(1000 * cpu / max(1, rooms), 2),
                "actions_after_restarts": after["actions"],
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
