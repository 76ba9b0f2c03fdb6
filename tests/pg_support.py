"""A real PostgreSQL server for the tests, started once per test session (per test process) and
stopped at its end: ``initdb`` in a temporary folder, a free loopback port, its sockets in that
folder, run as an unprivileged user when the tests run as root (PostgreSQL refuses root).  Each
test gets a database of its own (:meth:`PostgresServer.new_database`).

The server's programs are Debian's package ``postgresql`` (or the folder named by
``UNOKIT_PG_BIN``); without them the tests that need it fail, saying what to install."""

from __future__ import annotations

import atexit
import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg

__all__ = ["PostgresServer", "shared_server"]

MISSING = (
    "The PostgreSQL tests need PostgreSQL's server programs (initdb, pg_ctl): install Debian's package "
    "as root (apt-get install postgresql, or make services), or name their folder in UNOKIT_PG_BIN."
)
SUPERUSER = "unokit"
"""The cluster's superuser (trusted from loopback and the folder's socket only)."""


def server_programs() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``: ``UNOKIT_PG_BIN``, else Debian's newest."""
    named = os.environ.get("UNOKIT_PG_BIN")
    candidates = [named] if named else sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version, reverse=True)
    for folder in candidates:
        if (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    found = shutil.which("initdb")
    if found and not named:
        return Path(found).parent
    raise RuntimeError(MISSING)


def _version(folder: str) -> int:
    name = Path(folder).parent.name
    return int(name) if name.isdigit() else 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """A PostgreSQL cluster of its own on 127.0.0.1:``port``, until :meth:`stop`."""

    def __init__(self) -> None:
        self.bin = server_programs()
        self.folder = Path(tempfile.mkdtemp(prefix="unokit-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.user: str | None = None
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root: as its own user, or nobody's
            self.user = "postgres" if _user_exists("postgres") else "nobody"
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self.folder.chmod(0o700)
        self.names = itertools.count(1)
        self.running = False
        try:
            self._run(
                "initdb", "-D", str(self.data), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"
            )
            options = (
                f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
                " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
            )
            self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"), "-w", "start")
            self.running = True
        except BaseException:
            self.stop()
            raise

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=self.folder)
        if done.returncode != 0:
            log = self.folder / "log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stderr.strip()}\n{tail}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        name = f"test_{os.getpid()}_{next(self.names)}"
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        if self.running:
            with contextlib.suppress(Exception):
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
            self.running = False
        shutil.rmtree(self.folder, ignore_errors=True)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


_shared: PostgresServer | None = None


def shared_server() -> PostgresServer:
    """The test process's PostgreSQL server, started at the first call and stopped when the process ends."""
    global _shared
    if _shared is None:
        _shared = PostgresServer()
        atexit.register(_shared.stop)
    return _shared
