"""Several ``unokit serve`` processes for the benches, each on a free loopback port, sharing one database.

With SQLite (no ``--db``, or a file) a fleet is one process on a temporary file: a second server on
one SQLite file is refused (one server per file).  With ``--db postgresql://…`` every process gets the
same database (by default a scratch one made on that server and dropped afterwards, so that no run
finds another's rooms) and the same ``--redis`` URL.  A process that does not start is reported with
what it said on its way out (:class:`Refused`).  The processes' CPU time and memory are read from
``/proc``.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit, urlunsplit

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
START_TIMEOUT = 60.0
"""Seconds a process has to print its address."""
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class Refused(Exception):
    """A server process would not start (or the fleet cannot be made): the message says why, in one line."""


def is_postgres(db: str | None) -> bool:
    return db is not None and db.startswith(POSTGRES_SCHEMES)


def sqlite_refusal(servers: int) -> str:
    """Why ``servers`` processes cannot share SQLite (one line)."""
    return (
        f"--servers {servers} cannot run on SQLite: a second `unokit serve` on one SQLite file is refused "
        "(one server per file); give --db postgresql://… (and --redis redis://…) to spread rooms over processes"
    )


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process and its threads, from ``/proc/<pid>/stat``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime and stime (fields 14 and 15)


def rss_kb(pid: int, field: str = "VmRSS") -> int:
    """A memory figure of a process, in KiB, from ``/proc/<pid>/status``."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} for process {pid}")


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, every core together (``/proc/stat``)."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = (values + [0] * 8)[:8]
    busy = user + nice + system + irq + softirq + steal
    return busy / CLOCK_TICKS, (busy + idle + iowait) / CLOCK_TICKS


@dataclass
class Server:
    """One running ``unokit serve``: its address, process and log file."""

    http: str
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def ws(self) -> str:
        return self.http.replace("http://", "ws://") + "/ws"

    @property
    def pid(self) -> int:
        return self.process.pid


@dataclass
class Fleet:
    servers: list[Server]
    db: str
    """The database the processes share: a SQLite file's path or a PostgreSQL URL."""
    sqlite: Path | None = None
    drained: list[threading.Thread] = field(default_factory=list)

    def cpu_seconds(self) -> float:
        return sum(self.cpu_seconds_each())

    def cpu_seconds_each(self) -> list[float]:
        return [cpu_seconds(server.pid) for server in self.servers]

    def rss_kb(self, field: str = "VmRSS") -> int:
        return sum(rss_kb(server.pid, field) for server in self.servers)

    def log_counts(self) -> dict[str, int]:
        """Lines of the processes' logs that warn, report an error, or begin a traceback."""
        counts = {"warnings": 0, "errors": 0, "tracebacks": 0}
        for server in self.servers:
            with contextlib.suppress(OSError):
                for line in server.log.read_text(errors="replace").splitlines():
                    if line.startswith("WARNING"):
                        counts["warnings"] += 1
                    elif line.startswith(("ERROR", "CRITICAL")):
                        counts["errors"] += 1
                    elif line.startswith("Traceback"):
                        counts["tracebacks"] += 1
        return counts

    def log_sample(self, lines: int = 3) -> list[str]:
        """The first few warnings or errors of the logs (what went wrong, for the report)."""
        found: list[str] = []
        for server in self.servers:
            with contextlib.suppress(OSError):
                for line in server.log.read_text(errors="replace").splitlines():
                    if line.startswith(("WARNING", "ERROR", "CRITICAL")) and line not in found:
                        found.append(line[:200])
                        if len(found) >= lines:
                            return found
        return found


def _last_words(log: Path) -> str:
    """The last non-empty line a process wrote to its log (its reason for stopping)."""
    with contextlib.suppress(OSError):
        lines = [line.strip() for line in log.read_text(errors="replace").splitlines() if line.strip()]
        if lines:
            return lines[-1][:300]
    return "(it said nothing)"


def _drain(stream: IO[bytes]) -> None:
    with contextlib.suppress(OSError, ValueError):
        while stream.read(4096):
            pass


def _start(command: list[str], log: Path) -> Server:
    with log.open("wb") as log_file:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log_file)
    assert process.stdout is not None
    deadline = time.monotonic() + START_TIMEOUT
    line = b""
    while not line.endswith(b"\n"):
        left = deadline - time.monotonic()
        ready, _, _ = select.select([process.stdout], [], [], max(0.0, left))
        if not ready:
            process.kill()
            process.wait()
            raise Refused(f"printed no address within {START_TIMEOUT:g} s: {_last_words(log)}")
        chunk = os.read(process.stdout.fileno(), 1)
        if not chunk:
            break
        line += chunk
    found = re.search(rb"http://127\.0\.0\.1:(\d+)/", line)
    if found is None:
        code = process.wait(10)
        raise Refused(f"exit {code}: {_last_words(log)}")
    return Server(f"http://127.0.0.1:{found.group(1).decode()}", process, log)


def _stop(server: Server) -> None:
    if server.process.poll() is None:
        server.process.terminate()
        try:
            server.process.wait(10)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()


@contextlib.contextmanager
def scratch_postgres(url: str) -> Iterator[str]:
    """A new database on the PostgreSQL server of ``url``, dropped afterwards; yields its URL."""
    try:
        import psycopg
    except ImportError:
        raise Refused("--db postgresql://… needs the postgres extra: pip install 'unokit[postgres]'") from None
    name = f"unokit_bench_{os.getpid()}_{time.monotonic_ns() % 10**9}"
    try:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
    except psycopg.Error as exc:
        words = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise Refused(f"cannot make a scratch database on {url}: {words} (--keep-db uses the URL as it is)") from None
    parts = urlsplit(url)
    try:
        yield urlunsplit(parts._replace(path="/" + name))
    finally:
        with contextlib.suppress(psycopg.Error), psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # type: ignore[arg-type]


def _flush_redis(url: str) -> None:
    try:
        import redis
    except ImportError:
        raise Refused("--redis needs the cluster extra: pip install 'unokit[cluster]'") from None
    try:
        client = redis.Redis.from_url(url)
        client.flushdb()
        client.close()
    except redis.RedisError as exc:
        raise Refused(f"cannot empty the Redis database {url}: {exc}") from None


@contextlib.contextmanager
def fleet(
    servers: int,
    options: list[str],
    db: str | None = None,
    redis: str | None = None,
    keep_db: bool = False,
    flush_redis: bool = False,
) -> Iterator[Fleet]:
    """``servers`` processes of ``unokit serve OPTIONS`` on ``db`` (None: a temporary SQLite file) and
    ``redis``; :class:`Refused` if that cannot be, or if a process does not start."""
    if servers > 1 and not is_postgres(db):
        raise Refused(sqlite_refusal(servers))
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="unokit-bench-")))
        sqlite = None
        if db is None:
            sqlite = folder / "bench.sqlite3"
            db = str(sqlite)
        elif is_postgres(db) and not keep_db:
            db = stack.enter_context(scratch_postgres(db))
        elif not is_postgres(db):
            sqlite = Path(db)
        if redis is not None and flush_redis:
            _flush_redis(redis)
        command = [sys.executable, "-c", "import sys; from unokit.cli import main; sys.exit(main())", "serve"]
        command += ["--host", "127.0.0.1", "--port", "0", "--db", db]
        if redis is not None:
            command += ["--redis", redis]
        command += options
        started: list[Server] = []
        try:
            for index in range(servers):
                try:
                    server = _start(command, folder / f"server{index + 1}.log")
                except Refused as exc:
                    raise Refused(f"server {index + 1} of {servers} did not start ({exc})") from None
                started.append(server)
            running = Fleet(started, db, sqlite)
            for server in started:
                assert server.process.stdout is not None
                drain = threading.Thread(target=_drain, args=(server.process.stdout,), daemon=True)
                drain.start()
                running.drained.append(drain)
            yield running
        finally:
            for server in started:
                _stop(server)
