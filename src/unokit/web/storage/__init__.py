"""Persistence of rooms behind a small interface (:class:`Storage`): SQLite by default
(:class:`SqliteStorage`), PostgreSQL for several server processes
(:class:`unokit.web.storage.postgres.PostgresStorage`, the ``postgres`` extra).

What is stored (see ``docs/web.md``): rooms (code, settings, status, when created and last
changed, host seat, whether listed, the room's seed, its owner fence), seats (name, kind, bot
level, the SHA-256 of the seat's secret, never the secret, the rule cards written in the lobby, and
a late arrival's claim on a bot's seat), games (the record's set-up without its actions, then one
row per applied action), results, and the chat.  A game is rebuilt exactly with
:func:`unokit.engine.record.replay` on :meth:`Storage.load_record`.  The schema of each database is
versioned and brought up to date on open (:mod:`unokit.web.storage.migrations`).

Every failure of the store (a locked, full or read-only file, a vanished directory, a database out
of reach, a row that another writer stored first) is raised as :class:`StorageError`
(:class:`StorageBusy` when another connection holds a lock: worth another try;
:class:`StorageConflict` when the data conflicts with what is stored; :class:`StaleOwner` when a
room's fence has passed to another owner); the server runs the calls in worker threads
(:mod:`unokit.web.store`).

>>> store = SqliteStorage(":memory:")
>>> store.create_room("ABCDEFGH", {"edition": "classic", "players": 2}, created=0.0)
>>> store.load_room("ABCDEFGH").status
'lobby'
>>> store.claim_room("ABCDEFGH")
1
"""

from __future__ import annotations

import urllib.parse

from unokit.web.storage.base import (
    CHAT_KEPT,
    ROOM_STATUSES,
    ROWS_PER_STATEMENT,
    ActionRow,
    ChatRow,
    PublicRoom,
    SeatRow,
    StaleOwner,
    Storage,
    StorageBusy,
    StorageConflict,
    StorageError,
    StoredRoom,
    hash_secret,
)
from unokit.web.storage.sqlite import SqliteStorage

__all__ = [
    "CHAT_KEPT",
    "POSTGRES_EXTRA",
    "ROOM_STATUSES",
    "ROWS_PER_STATEMENT",
    "ActionRow",
    "ChatRow",
    "MissingExtra",
    "PublicRoom",
    "SeatRow",
    "SqliteStorage",
    "StaleOwner",
    "Storage",
    "StorageBusy",
    "StorageConflict",
    "StorageError",
    "StoredRoom",
    "describe_db",
    "hash_secret",
    "is_postgres",
    "open_storage",
]

POSTGRES_EXTRA = "--db postgresql://… needs the postgres extra: pip install 'unokit[postgres]'"


class MissingExtra(StorageError):
    """The store asked for needs packages that are not installed (the message names the extra)."""


def is_postgres(db: str) -> bool:
    """Whether ``db`` names a PostgreSQL database (a ``postgresql://`` or ``postgres://`` URL)
    rather than an SQLite file.

    >>> is_postgres("postgresql://uno@db.example/unokit"), is_postgres("rooms.sqlite3")
    (True, False)
    """
    return db.startswith(("postgresql://", "postgres://"))


def describe_db(db: str) -> str:
    """``db`` as it may be shown (in a message, a log): a URL's password left out.

    >>> describe_db("postgresql://uno:s3cret@db.example:5432/unokit")
    'postgresql://uno:***@db.example:5432/unokit'
    >>> describe_db("postgresql://db.example/unokit?user=uno&password=s3cret")
    'postgresql://db.example/unokit?user=uno&password=***'
    """
    if not is_postgres(db):
        return db
    parts = urllib.parse.urlsplit(db)
    if parts.password is not None:
        host = parts.netloc.rpartition("@")[2]
        parts = parts._replace(netloc=f"{parts.username or ''}:***@{host}")
    query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    if any(name == "password" for name, _ in query):
        hidden = [(name, "***" if name == "password" else value) for name, value in query]
        parts = parts._replace(query=urllib.parse.urlencode(hidden, safe="*"))
    return urllib.parse.urlunsplit(parts)


def open_storage(db: str, *, exclusive: bool = False) -> Storage:
    """The store named by ``db``: a ``postgresql://`` URL (the ``postgres`` extra; shared by any
    number of servers) or an SQLite file (``exclusive``: held by this process alone while open).
    Raises :class:`StorageError` (:class:`MissingExtra` without the extra) if it cannot be opened."""
    if is_postgres(db):
        try:
            from unokit.web.storage.postgres import PostgresStorage
        except ImportError:
            raise MissingExtra(POSTGRES_EXTRA) from None
        return PostgresStorage(db)
    return SqliteStorage(db, exclusive=exclusive)
