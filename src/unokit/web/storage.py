"""Persistence of rooms behind a small interface; SQLite by default.

What is stored (see ``docs/web.md``): rooms (code, settings, status, when created and last
changed, host seat, whether listed, the room's seed), seats (name, kind, bot level, the
SHA-256 of the seat's secret, never the secret, the rule cards written in the lobby, and a
late arrival's claim on a bot's seat), games (the record's set-up without its actions, then
one row per applied action), results, and the chat.  A game is rebuilt exactly with
:func:`unokit.record.replay` on :meth:`Storage.load_record`.

>>> store = SqliteStorage(":memory:")
>>> store.create_room("ABCDEF", {"edition": "classic", "players": 2}, created=0.0)
>>> store.load_room("ABCDEF").status
'lobby'
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = ["ChatRow", "PublicRoom", "SeatRow", "SqliteStorage", "Storage", "StoredRoom", "hash_secret"]

ROOM_STATUSES = ("lobby", "playing", "finished")


def hash_secret(secret: str) -> str:
    """The SHA-256 (hex) stored for a seat secret."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass
class SeatRow:
    """One seat as stored."""

    seat: int
    name: str
    kind: str
    """``human``, ``bot`` or ``open``."""
    bot: str | None = None
    """The bot level of a bot seat."""
    secret_hash: str | None = None
    rule_cards: list[str] | None = None
    """UNO Wild Jackpot: the texts this seat wrote in the lobby (``None``: none yet)."""
    claim_name: str | None = None
    """A late arrival who takes this bot's seat at the next round: their name ..."""
    claim_hash: str | None = None
    """... and the SHA-256 of their secret."""


@dataclass
class StoredRoom:
    """A room as stored: settings, status and seats; the game is loaded by :meth:`Storage.load_record`."""

    code: str
    settings: dict[str, Any]
    status: str
    created: float
    seats: list[SeatRow] = field(default_factory=list)
    host: int | None = 0
    """The host's seat (``None``: nobody hosts the lobby now)."""
    seed: int | None = None
    """The room's seed (settles the bots' UNO races); ``None`` in a store written before rooms had one."""


@dataclass
class ChatRow:
    """One chat message of a room."""

    id: int
    seat: int | None
    name: str
    text: str
    time: float


@dataclass
class PublicRoom:
    """A public lobby with open seats, as the start page lists it."""

    code: str
    settings: dict[str, Any]
    created: float
    open: int
    host_name: str | None


class Storage(Protocol):
    """What the web server needs from a store."""

    def create_room(
        self, code: str, settings: dict[str, Any], created: float, *, seed: int | None = None, public: bool = False
    ) -> None:
        """A new room in the lobby, hosted from seat 0; :class:`KeyError` if the code is taken."""
        ...

    def set_host(self, code: str, host: int | None) -> None:
        """The host's seat (``None``: none)."""
        ...

    def public_lobbies(self, limit: int) -> list[PublicRoom]:
        """Public rooms in the lobby with at least one open seat, newest first."""
        ...

    def append_chat(self, code: str, row: ChatRow) -> None: ...

    def load_chat(self, code: str, limit: int) -> list[ChatRow]:
        """The room's last ``limit`` chat messages, oldest first."""
        ...

    def room_exists(self, code: str) -> bool: ...

    def save_seats(self, code: str, seats: list[SeatRow]) -> None:
        """Replace the seats of a room."""
        ...

    def set_status(self, code: str, status: str) -> None: ...

    def start_game(self, code: str, setup: dict[str, Any]) -> None:
        """The game has begun: ``setup`` is its record without actions (see :mod:`unokit.record`)."""
        ...

    def append_action(self, code: str, index: int, seat: int, notation: str) -> None:
        """The ``index``-th action of the room's game (0-based) was applied."""
        ...

    def save_result(self, code: str, result: dict[str, Any]) -> None:
        """The match is over: its result (winner, scores, rounds); the room becomes ``finished``."""
        ...

    def load_room(self, code: str) -> StoredRoom | None: ...

    def load_record(self, code: str) -> dict[str, Any] | None:
        """The room's game record (set-up and every action), ``None`` before the game began."""
        ...

    def load_result(self, code: str) -> dict[str, Any] | None: ...

    def rooms_in_progress(self) -> list[StoredRoom]:
        """Every room whose match is being played, oldest first."""
        ...

    def delete_stale_lobbies(self, before: float, keep: set[str]) -> int:
        """Delete the lobbies last changed before ``before`` (``time.time()``), but those of
        ``keep``, with their seats and chat; returns how many."""
        ...

    def close(self) -> None: ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished')),
    created REAL NOT NULL,
    touched REAL NOT NULL DEFAULT 0,
    host INTEGER DEFAULT 0,
    public INTEGER NOT NULL DEFAULT 0,
    seed TEXT
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
);
"""

_ADDED_COLUMNS = {
    "rooms": (
        ("host", "INTEGER DEFAULT 0"),
        ("public", "INTEGER NOT NULL DEFAULT 0"),
        ("seed", "TEXT"),
    ),
    "seats": (("claim_name", "TEXT"), ("claim_hash", "TEXT")),
}
"""Columns added since the first stores: added to a store that lacks them when it is opened."""


class SqliteStorage:
    """:class:`Storage` in one SQLite file (``":memory:"`` for a store that lives as long as the object).

    The schema is created on open.  Every write is committed at once (WAL journal, so a
    crash loses at most the write in progress)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        if path != ":memory:":
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(_SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(rooms)")}
        if "touched" not in columns:  # a store written before lobbies expired
            self.db.execute("ALTER TABLE rooms ADD COLUMN touched REAL NOT NULL DEFAULT 0")
            self.db.execute("UPDATE rooms SET touched = created")
        for table, added in _ADDED_COLUMNS.items():
            present = {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}
            for name, kind in added:
                if name not in present:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")

    def create_room(
        self, code: str, settings: dict[str, Any], created: float, *, seed: int | None = None, public: bool = False
    ) -> None:
        try:
            self.db.execute(
                "INSERT INTO rooms (code, settings, status, created, touched, host, public, seed)"
                " VALUES (?, ?, 'lobby', ?, ?, 0, ?, ?)",
                (code, json.dumps(settings), created, created, int(public), None if seed is None else str(seed)),
            )
        except sqlite3.IntegrityError:
            raise KeyError(f"room {code} exists") from None

    def set_host(self, code: str, host: int | None) -> None:
        self.db.execute("UPDATE rooms SET host = ? WHERE code = ?", (host, code))

    def public_lobbies(self, limit: int) -> list[PublicRoom]:
        rows = self.db.execute(
            "SELECT r.code, r.settings, r.created,"
            " (SELECT COUNT(*) FROM seats s WHERE s.code = r.code AND s.kind = 'open'),"
            " (SELECT s.name FROM seats s WHERE s.code = r.code AND s.seat = r.host AND s.kind = 'human')"
            " FROM rooms r WHERE r.status = 'lobby' AND r.public = 1"
            " AND EXISTS (SELECT 1 FROM seats s WHERE s.code = r.code AND s.kind = 'open')"
            " ORDER BY r.created DESC, r.code LIMIT ?",
            (limit,),
        ).fetchall()
        return [PublicRoom(code, json.loads(settings), created, n, host) for code, settings, created, n, host in rows]

    def append_chat(self, code: str, row: ChatRow) -> None:
        self.db.execute(
            "INSERT INTO chat (code, id, seat, name, text, time) VALUES (?, ?, ?, ?, ?, ?)",
            (code, row.id, row.seat, row.name, row.text, row.time),
        )

    def load_chat(self, code: str, limit: int) -> list[ChatRow]:
        rows = self.db.execute(
            "SELECT id, seat, name, text, time FROM chat WHERE code = ? ORDER BY id DESC LIMIT ?", (code, limit)
        ).fetchall()
        return [ChatRow(*row) for row in reversed(rows)]

    def room_exists(self, code: str) -> bool:
        return self.db.execute("SELECT 1 FROM rooms WHERE code = ?", (code,)).fetchone() is not None

    def save_seats(self, code: str, seats: list[SeatRow]) -> None:
        with self._transaction():
            self.db.execute("UPDATE rooms SET touched = ? WHERE code = ?", (time.time(), code))
            self.db.execute("DELETE FROM seats WHERE code = ?", (code,))
            self.db.executemany(
                "INSERT INTO seats (code, seat, name, kind, bot, secret_hash, rule_cards, claim_name, claim_hash)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        code,
                        s.seat,
                        s.name,
                        s.kind,
                        s.bot,
                        s.secret_hash,
                        json.dumps(s.rule_cards) if s.rule_cards is not None else None,
                        s.claim_name,
                        s.claim_hash,
                    )
                    for s in seats
                ],
            )

    def set_status(self, code: str, status: str) -> None:
        if status not in ROOM_STATUSES:
            raise ValueError(f"room status must be one of {', '.join(ROOM_STATUSES)}, not {status!r}")
        self.db.execute("UPDATE rooms SET status = ? WHERE code = ?", (status, code))

    def start_game(self, code: str, setup: dict[str, Any]) -> None:
        with self._transaction():
            self.db.execute("INSERT INTO games (code, setup) VALUES (?, ?)", (code, json.dumps(setup)))
            self.db.execute("UPDATE rooms SET status = 'playing' WHERE code = ?", (code,))

    def append_action(self, code: str, index: int, seat: int, notation: str) -> None:
        self.db.execute(
            "INSERT INTO actions (code, idx, seat, action) VALUES (?, ?, ?, ?)", (code, index, seat, notation)
        )

    def save_result(self, code: str, result: dict[str, Any]) -> None:
        with self._transaction():
            self.db.execute(
                "INSERT OR REPLACE INTO results (code, result, finished) VALUES (?, ?, ?)",
                (code, json.dumps(result), time.time()),
            )
            self.db.execute("UPDATE rooms SET status = 'finished' WHERE code = ?", (code,))

    def load_room(self, code: str) -> StoredRoom | None:
        row = self.db.execute(
            "SELECT code, settings, status, created, host, seed FROM rooms WHERE code = ?", (code,)
        ).fetchone()
        return self._room(row) if row is not None else None

    def load_record(self, code: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT setup FROM games WHERE code = ?", (code,)).fetchone()
        if row is None:
            return None
        record: dict[str, Any] = json.loads(row[0])
        actions = self.db.execute("SELECT seat, action FROM actions WHERE code = ? ORDER BY idx", (code,)).fetchall()
        record["actions"] = [[seat, action] for seat, action in actions]
        return record

    def load_result(self, code: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT result FROM results WHERE code = ?", (code,)).fetchone()
        return json.loads(row[0]) if row is not None else None

    def rooms_in_progress(self) -> list[StoredRoom]:
        rows = self.db.execute(
            "SELECT code, settings, status, created, host, seed FROM rooms WHERE status = 'playing'"
            " ORDER BY created, code"
        ).fetchall()
        return [self._room(row) for row in rows]

    def delete_stale_lobbies(self, before: float, keep: set[str]) -> int:
        rows = self.db.execute("SELECT code FROM rooms WHERE status = 'lobby' AND touched < ?", (before,)).fetchall()
        codes = [(code,) for (code,) in rows if code not in keep]
        with self._transaction():
            self.db.executemany("DELETE FROM seats WHERE code = ?", codes)
            self.db.executemany("DELETE FROM chat WHERE code = ?", codes)
            self.db.executemany("DELETE FROM rooms WHERE code = ?", codes)
        return len(codes)

    def close(self) -> None:
        self.db.close()

    def _room(self, row: tuple[Any, ...]) -> StoredRoom:
        code, settings, status, created, host, seed = row
        seats = [
            SeatRow(
                seat, name, kind, bot, secret_hash, json.loads(cards) if cards is not None else None, claim, claim_hash
            )
            for seat, name, kind, bot, secret_hash, cards, claim, claim_hash in self.db.execute(
                "SELECT seat, name, kind, bot, secret_hash, rule_cards, claim_name, claim_hash"
                " FROM seats WHERE code = ? ORDER BY seat",
                (code,),
            )
        ]
        return StoredRoom(
            code, json.loads(settings), status, created, seats, host, int(seed) if seed is not None else None
        )

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    """``BEGIN`` ... ``COMMIT`` (``ROLLBACK`` on an exception) on an autocommit connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN")

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
