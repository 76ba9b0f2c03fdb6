"""The load bench (``bench/server_load.py``, docs/scaling.md) against the real server: a short run plays
every room and reports what it measured, and what cannot run is refused in one line with exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from pg_support import shared_server
from redis_support import RedisServer, redis_server_fixture  # noqa: F401 (a fixture)

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench" / "server_load.py"


def run_bench(*options: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run(
        [sys.executable, str(BENCH), *options], capture_output=True, text=True, timeout=timeout, env=env, check=False
    )


def test_a_short_run_plays_every_room_and_reports_it() -> None:
    done = run_bench("--rooms", "3", "--seconds", "3", "--think", "0.2", "--bot-delay", "0.05", "--chat-every", "1")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["rooms_playing"] == 3
    assert result["actions"] > 0 and result["actions_per_s"] > 0
    assert result["stored_actions"] > 0  # the server stored what the clients saw applied
    assert abs(result["stored_actions"] - result["actions"]) <= max(3, result["actions"] // 5)
    assert result["latency_ms"]["samples"] > 0 and result["latency_ms"]["p99"] >= result["latency_ms"]["p50"] > 0
    assert result["server_cpu_pct"] > 0 and result["memory_per_room_kb"] != 0
    assert result["updates_per_action"] >= 1 and result["update_bytes_mean"] > 100
    errors = result["errors"]
    assert errors["clients_failed"] == 0 and errors["rooms_not_begun"] == 0
    assert errors["server_log"]["tracebacks"] == 0


def test_several_processes_on_sqlite_are_refused_in_one_line() -> None:
    done = run_bench("--servers", "2", timeout=30)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "SQLite" in lines[0] and "postgresql://" in lines[0]


def test_an_option_the_server_refuses_is_reported_with_its_words() -> None:
    done = run_bench("--rooms", "1", "--seconds", "1", "--serve-option=--bot-delay=-1", timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("server_load: server 1 of 1 did not start (exit 2:")
    assert "--bot-delay must be from 0 to 60 seconds" in lines[0]


def test_relayed_rooms_are_played_through_a_process_that_does_not_own_them(redis_server: RedisServer) -> None:
    done = run_bench(
        *("--servers", "2", "--db", shared_server().url(), "--redis", redis_server.url, "--flush-redis"),
        *("--rooms", "4", "--seconds", "3", "--think", "0.2", "--bot-delay", "0.05", "--relayed", "0.5"),
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["servers"] == 2 and result["db"] == "postgresql" and result["rooms_playing"] == 4
    direct, relayed = result["latency_ms_direct"], result["latency_ms_relayed"]
    assert direct["samples"] > 0 and relayed["samples"] > 0
    assert direct["samples"] + relayed["samples"] == result["latency_ms"]["samples"]
    assert result["chat"]["sent"] > 0  # each client its own address: the chat limit per address lets it through
    assert result["errors"]["refused"] == {} and result["errors"]["clients_failed"] == 0
    assert result["errors"]["server_log"]["tracebacks"] == 0
    assert result["store_cpu_pct"]["postgresql"] > 0 and result["store_cpu_pct"]["redis"] > 0


def test_relayed_rooms_need_two_processes() -> None:
    done = run_bench("--relayed", "0.5", timeout=30)
    assert done.returncode == 2
    assert "--relayed" in done.stderr and "two --servers" in done.stderr
