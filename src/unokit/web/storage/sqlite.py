"""The store in one SQLite file (:class:`SqliteStorage`), the default: nothing to install or run."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any

from unokit.web.storage.base import CHAT_KEPT, StorageBusy, StorageConflict, StorageError
from unokit.web.storage.migrations import SQLITE, latest
from unokit.web.storage.sql import SqlStorage, Statements

__all__ = ["BUSY_TIMEOUT", "SqliteStorage"]

BUSY_TIMEOUT = 1.0
"""Seconds a call waits for another connection's lock before :class:`StorageBusy`."""


class _Connection:
    """:class:`~unokit.web.storage.sql.Statements` on an SQLite connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self.db.execute(sql, params).rowcount

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.db.executemany(sql, rows)

    def one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        row: tuple[Any, ...] | None = self.db.execute(sql, params).fetchone()
        return row

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.db.execute(sql, params).fetchall()


@contextlib.contextmanager
def _failures() -> Iterator[None]:
    """The failures of SQLite and of the file system raised as :class:`StorageError`."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        text = str(exc)
        if "locked" in text or "busy" in text:
            raise StorageBusy(f"the database is locked by another connection: {text}") from None
        raise StorageError(text) from None
    except sqlite3.IntegrityError as exc:  # data the schema refuses, or that another writer stored first
        raise StorageConflict(str(exc)) from None
    except (sqlite3.Error, OSError) as exc:
        raise StorageError(str(exc)) from None


class SqliteStorage(SqlStorage):
    """:class:`~unokit.web.storage.Storage` in one SQLite file (``":memory:"`` for a store that lives
    as long as the object).

    The schema is made or brought up to date on open (:mod:`unokit.web.storage.migrations`), in a
    transaction that writes the file's header, so that a file that cannot be written is found then
    (:class:`StorageError`): SQLite opens a read-only file, reads it and even begins a write
    transaction on it in WAL mode; only a write is refused.  Every call is committed at once (WAL
    journal, so a crash loses at most the call in progress).  Each thread has its own connection to a
    file (:attr:`threads` of them may work at once); an in-memory store has one connection, used by
    one thread at a time.  ``exclusive`` holds a lock on the database file itself (``flock``, which
    SQLite's own locks ignore) for as long as the store is open, so that no second server opens the
    same file, whatever path, link or hard link it is named by: :class:`StorageError` if another
    holds it.  ``chat_kept``: the chat messages a room keeps."""

    def __init__(self, path: str, *, exclusive: bool = False, chat_kept: int = CHAT_KEPT) -> None:
        self.path = path
        self.memory = path == ":memory:"
        self.threads = 1 if self.memory else 4
        self.chat_kept = chat_kept
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._mutex = threading.Lock()
        self._serial: contextlib.AbstractContextManager[Any] = (
            threading.RLock() if self.memory else contextlib.nullcontext()
        )
        """Held by every call of a store with one connection."""
        self._writing = threading.Lock()
        """Held by a write transaction: SQLite lets one connection write at a time, and threads
        that waited for it inside SQLite would sleep in its busy handler (1 ms, 2 ms, ... 100 ms
        steps) rather than start when the file is free."""
        self._lock_file: IO[bytes] | None = None
        if exclusive and not self.memory:
            self._lock_file = _exclusive_lock(path)
        try:
            self._migrate()
        except BaseException:
            self.close()
            raise

    def _migrate(self) -> None:
        with self._write() as db:
            row = db.one("PRAGMA user_version")
            version = int(row[0]) if row is not None else 0
            if version > latest(SQLITE):
                raise StorageError(
                    f"the database has schema version {version}, made by a later unokit (this one knows up to "
                    f"{latest(SQLITE)})"
                )
            for migration in SQLITE[version:]:
                migration.apply(db)
            db.execute(f"PRAGMA user_version = {latest(SQLITE)}")  # written even if unchanged: the check

    @property
    def db(self) -> sqlite3.Connection:
        """This thread's connection (the one connection of an in-memory store)."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            with self._mutex:
                if self.memory and self._connections:
                    db = self._connections[0]
                else:
                    db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT)
                    if not self.memory:
                        db.execute("PRAGMA journal_mode=WAL")
                        db.execute("PRAGMA synchronous=NORMAL")
                    db.execute("PRAGMA foreign_keys=ON")
                    self._connections.append(db)
            self._local.db = db
        return db

    @contextlib.contextmanager
    def _write(self) -> Iterator[Statements]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on an exception) on this thread's
        connection, one write transaction of this store at a time."""
        with _failures(), self._serial:
            db = self.db
            with self._writing:
                db.execute("BEGIN IMMEDIATE")
                try:
                    yield _Connection(db)
                except BaseException:
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                    raise
                else:
                    try:
                        db.execute("COMMIT")
                    except BaseException:
                        with contextlib.suppress(sqlite3.Error):
                            db.execute("ROLLBACK")
                        raise

    @contextlib.contextmanager
    def _read(self, snapshot: bool = False) -> Iterator[Statements]:
        """Each statement on its own, or (``snapshot``) in one read transaction (in WAL mode, one
        that no writer waits for)."""
        with _failures(), self._serial:
            db = self.db
            if not snapshot:
                yield _Connection(db)
                return
            db.execute("BEGIN")
            try:
                yield _Connection(db)
            finally:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")

    def close(self) -> None:
        with self._mutex:
            for db in self._connections:
                with contextlib.suppress(sqlite3.Error):
                    db.close()
            self._connections.clear()
        self._local = threading.local()
        if self._lock_file is not None:
            self._lock_file.close()  # releases the lock
            self._lock_file = None


def _exclusive_lock(path: str) -> IO[bytes]:
    """Hold an exclusive lock on the file ``path`` itself (created empty if missing: an empty file is
    a new SQLite database) until the returned file is closed.  ``flock`` locks the file, not its
    name: a symbolic or hard link to a locked file finds it locked."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not a POSIX system: no lock
        return open(os.devnull, "rb")
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
    except OSError as exc:
        raise StorageError(exc.strerror or str(exc)) from None
    handle = os.fdopen(descriptor, "rb")
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise StorageError(f"another unokit server is using this database ({os.path.realpath(path)})") from None
    return handle
