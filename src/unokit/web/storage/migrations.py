"""The schema of each database, as an ordered list of migrations: a store records the number of
the last one applied (SQLite: ``PRAGMA user_version``; PostgreSQL: the ``schema_version`` table),
and on open applies those after it, in the same transaction as the check.

1. The rooms, seats, games, actions, results and chat (see ``docs/web.md``).  A SQLite store made
   before the schema was versioned (version 0) is completed: the missing tables are created and
   the missing columns added.
2. Each room's owner fence (``rooms.fence``, :meth:`unokit.web.storage.Storage.claim_room`), and
   an index on the results' time (the finished rooms' chat is deleted by it).

A store whose version is later than the last migration known was written by a later release:
it is refused (:class:`~unokit.web.storage.StorageError`), not changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from unokit.web.storage.sql import Statements

__all__ = ["POSTGRES", "SQLITE", "Migration", "latest"]


class Migration(NamedTuple):
    version: int
    """The schema's version once applied (1, 2, ...)."""
    what: str
    apply: Callable[[Statements], None]


def _statements(script: str) -> Callable[[Statements], None]:
    """A migration that runs each statement of ``script`` (separated by ``;``)."""

    def apply(db: Statements) -> None:
        for statement in script.split(";"):
            if statement.strip():
                db.execute(statement)

    return apply


SQLITE_TABLES = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished')),
    created REAL NOT NULL,
    touched REAL NOT NULL DEFAULT 0,
    host INTEGER DEFAULT 0,
    public INTEGER NOT NULL DEFAULT 0,
    seed TEXT,
    moved_to TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL REFERENCES rooms(code),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('human', 'bot', 'open')),
    bot TEXT,
    secret_hash TEXT,
    rule_cards TEXT,
    claim_name TEXT,
    claim_hash TEXT,
    avatar TEXT,
    colour TEXT,
    PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS games (
    code TEXT PRIMARY KEY REFERENCES rooms(code),
    setup TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    code TEXT NOT NULL REFERENCES rooms(code),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (code, idx)
);
CREATE TABLE IF NOT EXISTS results (
    code TEXT PRIMARY KEY REFERENCES rooms(code),
    result TEXT NOT NULL,
    finished REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS chat (
    code TEXT NOT NULL REFERENCES rooms(code),
    id INTEGER NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    time REAL NOT NULL,
    PRIMARY KEY (code, id)
)
"""

_SQLITE_ADDED_COLUMNS = {
    "rooms": (
        ("touched", "REAL NOT NULL DEFAULT 0"),
        ("host", "INTEGER DEFAULT 0"),
        ("public", "INTEGER NOT NULL DEFAULT 0"),
        ("seed", "TEXT"),
        ("moved_to", "TEXT"),
    ),
    "seats": (("claim_name", "TEXT"), ("claim_hash", "TEXT"), ("avatar", "TEXT"), ("colour", "TEXT")),
}
"""Columns added before the schema was versioned: added to a store of version 0 that lacks them."""


def _sqlite_tables(db: Statements) -> None:
    _statements(SQLITE_TABLES)(db)
    for table, added in _SQLITE_ADDED_COLUMNS.items():
        present = {row[1] for row in db.all(f"PRAGMA table_info({table})")}
        for name, kind in added:
            if name not in present:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
                if name == "touched":  # a store written before lobbies expired
                    db.execute("UPDATE rooms SET touched = created")


SQLITE = [
    Migration(1, "rooms, seats, games, actions, results and chat", _sqlite_tables),
    Migration(
        2,
        "owner fences",
        _statements(
            "ALTER TABLE rooms ADD COLUMN fence INTEGER NOT NULL DEFAULT 0;"
            "CREATE INDEX IF NOT EXISTS results_finished ON results (finished)"
        ),
    ),
]

POSTGRES_TABLES = """
CREATE TABLE rooms (
    code TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished')),
    created DOUBLE PRECISION NOT NULL,
    touched DOUBLE PRECISION NOT NULL DEFAULT 0,
    host INTEGER DEFAULT 0,
    public INTEGER NOT NULL DEFAULT 0,
    seed TEXT,
    moved_to TEXT
);
CREATE TABLE seats (
    code TEXT NOT NULL REFERENCES rooms(code),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('human', 'bot', 'open')),
    bot TEXT,
    secret_hash TEXT,
    rule_cards TEXT,
    claim_name TEXT,
    claim_hash TEXT,
    avatar TEXT,
    colour TEXT,
    PRIMARY KEY (code, seat)
);
CREATE TABLE games (
    code TEXT PRIMARY KEY REFERENCES rooms(code),
    setup TEXT NOT NULL
);
CREATE TABLE actions (
    code TEXT NOT NULL REFERENCES rooms(code),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (code, idx)
);
CREATE TABLE results (
    code TEXT PRIMARY KEY REFERENCES rooms(code),
    result TEXT NOT NULL,
    finished DOUBLE PRECISION NOT NULL
);
CREATE TABLE chat (
    code TEXT NOT NULL REFERENCES rooms(code),
    id INTEGER NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    time DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (code, id)
);
CREATE INDEX rooms_status_touched ON rooms (status, touched)
"""

POSTGRES = [
    Migration(1, "rooms, seats, games, actions, results and chat", _statements(POSTGRES_TABLES)),
    Migration(
        2,
        "owner fences",
        _statements(
            "ALTER TABLE rooms ADD COLUMN fence BIGINT NOT NULL DEFAULT 0;"
            "CREATE INDEX results_finished ON results (finished)"
        ),
    ),
]


def latest(migrations: list[Migration]) -> int:
    """The version a store has once every migration is applied."""
    return migrations[-1].version if migrations else 0


def check_order(migrations: list[Migration]) -> None:
    """Migrations are numbered 1, 2, ... in order (a mistake here would skip or repeat one)."""
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1)), "migrations out of order"


check_order(SQLITE)
check_order(POSTGRES)
