"""The store in a PostgreSQL database (:class:`PostgresStorage`; the ``postgres`` extra: psycopg 3
and its connection pool), which any number of server processes may share: there is no lock of one
server per database here; a room is kept from two owners by its fence
(:meth:`~unokit.web.storage.Storage.claim_room`)."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import psycopg
from psycopg import errors
from psycopg_pool import ConnectionPool, PoolTimeout

from unokit.web.storage.base import CHAT_KEPT, StorageBusy, StorageConflict, StorageError
from unokit.web.storage.migrations import POSTGRES, latest
from unokit.web.storage.sql import SqlStorage, Statements

__all__ = ["CONNECT_TIMEOUT", "LOCK_TIMEOUT", "PostgresStorage"]

CONNECT_TIMEOUT = 5
"""Seconds to reach the database before it counts as out of reach."""
LOCK_TIMEOUT = "1s"
"""How long a statement waits for another transaction's lock before :class:`StorageBusy` (as
SQLite's busy timeout)."""
POOL_TIMEOUT = 10.0
"""Seconds a call waits for a connection of the pool before :class:`StorageBusy`."""
MIGRATION_LOCK = 0x756E6F6B
"""The advisory lock held while the schema is checked and brought up to date: servers starting
together migrate one after the other."""


@functools.lru_cache(maxsize=512)
def _placeholders(sql: str) -> str:
    """``sql`` with psycopg's placeholders (``%s``) for the shared statements' (``?``)."""
    return sql.replace("?", "%s")


class _Cursor:
    """:class:`~unokit.web.storage.sql.Statements` on a psycopg cursor."""

    def __init__(self, cursor: psycopg.Cursor[tuple[Any, ...]]) -> None:
        self.cursor = cursor

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        self.cursor.execute(_placeholders(sql), params)
        return self.cursor.rowcount

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if rows:
            self.cursor.executemany(_placeholders(sql), rows)

    def one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        return self.cursor.execute(_placeholders(sql), params).fetchone()

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.cursor.execute(_placeholders(sql), params).fetchall()


def _one_line(exc: BaseException) -> str:
    """psycopg's message on one line (a connection's failure spans several)."""
    return " ".join(str(exc).split()) or type(exc).__name__


@contextlib.contextmanager
def _failures() -> Iterator[None]:
    """The failures of PostgreSQL, of the connection and of the pool raised as :class:`StorageError`."""
    try:
        yield
    except (errors.LockNotAvailable, errors.SerializationFailure, errors.DeadlockDetected, PoolTimeout) as exc:
        raise StorageBusy(f"the database is busy: {_one_line(exc)}") from None
    except psycopg.IntegrityError as exc:  # data the schema refuses, or that another writer stored first
        raise StorageConflict(_one_line(exc)) from None
    except (psycopg.Error, OSError) as exc:
        raise StorageError(_one_line(exc)) from None


def _configure(connection: psycopg.Connection[Any]) -> None:
    """Each connection of the pool: a lock waited for too long is refused, not waited out."""
    connection.execute(f"SET lock_timeout = '{LOCK_TIMEOUT}'")
    connection.commit()


class PostgresStorage(SqlStorage):
    """:class:`~unokit.web.storage.Storage` in the PostgreSQL database of ``url``
    (``postgresql://USER:PASSWORD@HOST:PORT/DATABASE``, or any libpq connection string).

    On open the database is reached (within :data:`CONNECT_TIMEOUT` seconds), and its schema made or
    brought up to date (:mod:`unokit.web.storage.migrations`) in one transaction, under an advisory
    lock; then a pool of connections serves the calls, ``threads`` of them at once for writes and as
    many for reads.  Every call is one transaction, committed at once.  :class:`StorageError` if the
    database cannot be reached or used."""

    def __init__(self, url: str, *, threads: int = 4, chat_kept: int = CHAT_KEPT) -> None:
        self.url = url
        self.threads = threads
        self.chat_kept = chat_kept
        with _failures(), psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT) as connection:
            self._migrate(connection)
        self.pool = ConnectionPool(
            url,
            min_size=1,
            max_size=2 * threads,
            kwargs={"connect_timeout": CONNECT_TIMEOUT},
            configure=_configure,
            timeout=POOL_TIMEOUT,
            name="unokit-store",
            open=False,
        )
        try:
            with _failures():
                self.pool.open(wait=True, timeout=CONNECT_TIMEOUT)
        except BaseException:
            self.pool.close()
            raise

    @staticmethod
    def _migrate(connection: psycopg.Connection[Any]) -> None:
        with connection.transaction(), connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            cursor.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = cursor.execute("SELECT version FROM schema_version").fetchone()
            version = int(row[0]) if row is not None else 0
            if version > latest(POSTGRES):
                raise StorageError(
                    f"the database has schema version {version}, made by a later unokit (this one knows up to "
                    f"{latest(POSTGRES)})"
                )
            for migration in POSTGRES[version:]:
                migration.apply(_Cursor(cursor))
            if row is None:
                cursor.execute("INSERT INTO schema_version (version) VALUES (%s)", (latest(POSTGRES),))
            elif version != latest(POSTGRES):
                cursor.execute("UPDATE schema_version SET version = %s", (latest(POSTGRES),))

    @contextlib.contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
        """A connection of the pool for one transaction: committed if the block ends normally.  When
        a connection turns out lost (the database restarted, or ended it), the pool's idle ones are
        checked at once, so that only this call fails, not one call for each connection lost."""
        with _failures():
            try:
                with self.pool.connection() as connection:
                    yield connection
            except psycopg.OperationalError as exc:
                if not isinstance(exc, PoolTimeout):
                    with contextlib.suppress(Exception):
                        self.pool.check()
                raise

    @contextlib.contextmanager
    def _write(self) -> Iterator[Statements]:
        """One transaction on a connection of the pool: committed if the block ends normally."""
        with self._connection() as connection, connection.cursor() as cursor:
            yield _Cursor(cursor)

    @contextlib.contextmanager
    def _read(self, snapshot: bool = False) -> Iterator[Statements]:
        """One transaction (``snapshot``: repeatable read, every statement sees the same moment)."""
        with self._connection() as connection, connection.cursor() as cursor:
            if snapshot:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            yield _Cursor(cursor)

    def close(self) -> None:
        self.pool.close()
