"""What PostgreSQL pays for the rooms' actions: the server's write pattern replayed on a scratch database.

The web server stores each applied action as one row (room code, number, seat, notation) and marks
its room as touched; a busy server writes the actions asked for meanwhile in one transaction (a
group: one multi-row ``INSERT`` and one ``UPDATE`` of the rooms' ``touched``; see ``unokit.web.store``).
This bench makes tables shaped like the server's ``rooms`` and ``actions`` in a scratch database on
the PostgreSQL server of ``--db`` (dropped afterwards), then, from one connection, writes groups of
``--group`` actions of distinct rooms for ``--seconds`` and reports, per action:

- the rows written per second by one connection, and the commit's time (p50, p99);
- the WAL written (``pg_current_wal_lsn`` before and after) and the tables' growth on disk;
- the CPU time of the PostgreSQL server's processes (the postmaster's children, from ``/proc``);
- with ``--fenced``, the rooms' ``UPDATE`` also checks an owner's token (the fencing check a store
  would make) and every write's token matches.

    python bench/pg_action_writes.py --db postgresql://postgres@127.0.0.1:5432/postgres --group 1,10,100

PostgreSQL must run on this machine (its processes' CPU is read from ``/proc``) and the URL's user
must be able to create databases and read ``data_directory``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from fleet import Refused, cpu_seconds, scratch_postgres

NOTATIONS = ["B8", "draw", "B2", "BS", "RS", "RR", "R+2", "W+4", "=B", "challenge", "B6", "pass", "Y7", "G7", "W"]
"""Actions as the server stores them (their notation), taken from a played match."""
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ2345679"

SCHEMA = """
CREATE TABLE rooms (
    code TEXT PRIMARY KEY, settings TEXT NOT NULL, status TEXT NOT NULL, created DOUBLE PRECISION NOT NULL,
    touched DOUBLE PRECISION NOT NULL DEFAULT 0, host INTEGER DEFAULT 0, public INTEGER NOT NULL DEFAULT 0,
    seed TEXT, lease BIGINT NOT NULL DEFAULT 1
);
CREATE TABLE actions (
    code TEXT NOT NULL REFERENCES rooms(code), idx INTEGER NOT NULL, seat INTEGER NOT NULL,
    action TEXT NOT NULL, PRIMARY KEY (code, idx)
);
"""
SETTINGS = json.dumps({"edition": "classic", "players": 4, "rules": {}, "bot": "heuristic", "timer": 30})


def postgres_cpu(postmaster: int) -> float:
    """CPU seconds of the postmaster and its children so far."""
    total = cpu_seconds(postmaster)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == postmaster:  # the parent's pid
            total += cpu_seconds(int(stat.parent.name))
    return total


def measure(
    conn: Any, postmaster: int, next_index: dict[str, int], group: int, seconds: float, fenced: bool
) -> dict[str, Any]:
    """Write groups of ``group`` actions for ``seconds``; ``next_index``: each room's next action number."""
    rng = random.Random(group)
    rooms = list(next_index)
    update = (
        "UPDATE rooms SET touched = %s WHERE code = ANY(%s) AND lease = 1"
        if fenced
        else "UPDATE rooms SET touched = %s WHERE code = ANY(%s)"
    )
    size_before = conn.execute("SELECT pg_total_relation_size('actions') + pg_total_relation_size('rooms')").fetchone()
    wal_before = conn.execute("SELECT pg_current_wal_lsn()").fetchone()[0]
    cpu_before = postgres_cpu(postmaster)
    commits: list[float] = []
    written = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        codes = rng.sample(rooms, group)
        rows = []
        for code in codes:
            rows += [code, next_index[code], next_index[code] % 4, rng.choice(NOTATIONS)]
            next_index[code] += 1
        values = ", ".join(["(%s, %s, %s, %s)"] * group)
        began = time.perf_counter()
        with conn.transaction():
            conn.execute(f"INSERT INTO actions (code, idx, seat, action) VALUES {values}", rows)
            changed = conn.execute(update, [time.time(), codes]).rowcount
            if changed != group:
                raise RuntimeError(f"the fencing check refused {group - changed} of {group} rooms")
        commits.append(time.perf_counter() - began)
        written += group
    elapsed = time.perf_counter() - started
    cpu = postgres_cpu(postmaster) - cpu_before
    wal = conn.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), %s)", [wal_before]).fetchone()[0]
    size_after = conn.execute("SELECT pg_total_relation_size('actions') + pg_total_relation_size('rooms')").fetchone()
    ms = sorted(1000 * c for c in commits)
    return {
        "group": group,
        "fenced": fenced,
        "seconds": round(elapsed, 2),
        "actions": written,
        "actions_per_s": round(written / elapsed),
        "commit_ms": {"p50": round(statistics.median(ms), 2), "p99": round(ms[int(0.99 * (len(ms) - 1))], 2)},
        "wal_bytes_per_action": round(float(wal) / written),
        "disk_bytes_per_action": round((size_after[0] - size_before[0]) / written),
        "postgres_cpu_ms_per_action": round(1000 * cpu / written, 3),
        "postgres_cpu_pct": round(100 * cpu / elapsed, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, metavar="URL", help="a PostgreSQL server on this machine")
    parser.add_argument("--group", default="1,10,100", help="actions per transaction, comma-separated")
    parser.add_argument("--rooms", type=int, default=10_000, help="rooms the actions are spread over (default 10000)")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of writing per group size (default 10)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each group size (default 1)")
    parser.add_argument("--fenced", action="store_true", help="the rooms' UPDATE checks an owner's token too")
    args = parser.parse_args()
    groups = [int(part) for part in args.group.split(",")]
    if not all(1 <= g <= args.rooms for g in groups) or not 0 < args.seconds <= 60:
        parser.error("--group from 1 to --rooms, --seconds up to 60")
    try:
        import psycopg
    except ImportError:
        print("pg_action_writes: needs the postgres extra: pip install 'unokit[postgres]'", file=sys.stderr)
        return 2
    try:
        with scratch_postgres(args.db) as url, psycopg.connect(url, autocommit=True) as conn:
            data_directory = conn.execute("SHOW data_directory").fetchone()[0]
            postmaster = int((Path(data_directory) / "postmaster.pid").read_text().split()[0])
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)  # type: ignore[arg-type]
            rng = random.Random(0)
            rooms = sorted({"".join(rng.choices(CODE_ALPHABET, k=8)) for _ in range(args.rooms)})
            with conn.transaction():
                for code in rooms:
                    conn.execute(
                        "INSERT INTO rooms (code, settings, status, created, touched) VALUES (%s, %s, 'playing', 0, 0)",
                        [code, SETTINGS],
                    )
            next_index = dict.fromkeys(rooms, 0)
            for _ in range(args.repeat):
                for group in groups:
                    result = measure(conn, postmaster, next_index, group, args.seconds, args.fenced)
                    print(json.dumps(result), flush=True)
    except Refused as exc:
        print(f"pg_action_writes: {exc}", file=sys.stderr)
        return 2
    except (psycopg.Error, OSError) as exc:
        print(f"pg_action_writes: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
