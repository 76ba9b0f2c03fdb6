"""Persistence of rooms behind a small interface; SQLite by default.

What is stored (see ``docs/web.md``): rooms (code, settings, status, when created and last
changed, host seat, whether listed, the room's seed), seats (name, kind, bot level, the
SHA-256 of the seat's secret, never the secret, the rule cards written in the lobby, and a
late arrival's claim on a bot's seat), games (the record's set-up without its actions, then
one row per applied action), results, and the chat.  A game is rebuilt exactly with
:func:`unokit.engine.record.replay` on :meth:`Storage.load_record`.

Every failure of the store (a locked, full or read-only file, a vanished directory, a row that
another writer stored first) is raised as :class:`StorageError` (:class:`StorageBusy` when another
connection holds a lock: worth another try; :class:`StorageConflict` when the data conflicts with
what is stored); the server runs the calls in worker threads (:mod:`unokit.web.store`).

>>> store = SqliteStorage(":memory:")
>>> store.create_room("ABCDEF", {"edition": "classic", "players": 2}, created=0.0)
>>> store.load_room("ABCDEF").status
'lobby'
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any, NamedTuple, ParamSpec, Protocol, TypeVar

__all__ = [
    "ActionRow",
    "ChatRow",
    "PublicRoom",
    "SeatRow",
    "SqliteStorage",
    "Storage",
    "StorageBusy",
    "StorageConflict",
    "StorageError",
    "StoredRoom",
    "hash_secret",
]

ROOM_STATUSES = ("lobby", "playing", "finished")

ROWS_PER_STATEMENT = 200
"""Actions written by one statement of :meth:`SqliteStorage.append_actions` (4 values each, well
under SQLite's limit of variables)."""


class StorageError(Exception):
    """The store cannot do what was asked now: nothing of that call was stored."""


class StorageBusy(StorageError):
    """Another connection or process holds the store's lock: the call may succeed if tried again."""


class StorageConflict(StorageError):
    """The store refused the call's data as conflicting with what it holds (an action already stored
    under that number, a value the schema refuses): trying again the same call fails the same way."""


class ActionRow(NamedTuple):
    """One action of a room's game, as :meth:`Storage.append_action` stores it."""

    code: str
    number: int
    """0-based, in the order of the game's actions"""
    seat: int
    notation: str


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
    avatar: str | None = None
    """The player's avatar and colour (names of :mod:`unokit.web.social`'s sets; ``None``: none chosen)."""
    colour: str | None = None


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
    moved_to: str | None = None
    """The code of the room's rematch, once it began (its old links lead there)."""


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
    """What the web server needs from a store.  Each call is all or nothing; a failure of the store
    raises :class:`StorageError`."""

    threads: int
    """How many threads may call the store at once (``1``: one at a time)."""

    def create_room(
        self,
        code: str,
        settings: dict[str, Any],
        created: float,
        *,
        seed: int | None = None,
        public: bool = False,
        seats: list[SeatRow] | None = None,
        host: int | None = 0,
    ) -> None:
        """A new room in the lobby with its ``seats`` and ``host``; :class:`KeyError` if the code is taken."""
        ...

    def set_host(self, code: str, host: int | None) -> None:
        """The host's seat (``None``: none)."""
        ...

    def set_moved(self, code: str, moved_to: str, chat: list[ChatRow]) -> None:
        """The room's rematch began in room ``moved_to``, which takes the room's ``chat`` with it."""
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
        """The game has begun: ``setup`` is its record without actions (see :mod:`unokit.engine.record`)."""
        ...

    def append_action(
        self,
        code: str,
        index: int,
        seat: int,
        notation: str,
        *,
        seats: list[SeatRow] | None = None,
        result: dict[str, Any] | None = None,
    ) -> None:
        """The ``index``-th action of the room's game (0-based), with what it changed: the ``seats``
        (late arrivals seated at a new round) and the ``result`` if it ended the match."""
        ...

    def append_actions(self, actions: list[ActionRow]) -> None:
        """Actions of several rooms (each as :meth:`append_action` with nothing else changed), in
        one transaction: all are stored, or none."""
        ...

    def save_result(self, code: str, result: dict[str, Any]) -> None:
        """The match is over: its result (winner, scores, rounds); the room becomes ``finished``."""
        ...

    def load_room(self, code: str) -> StoredRoom | None: ...

    def load_record(self, code: str) -> dict[str, Any] | None:
        """The room's game record (set-up and every action), ``None`` before the game began."""
        ...

    def load_result(self, code: str) -> dict[str, Any] | None: ...

    def rooms_in_progress(self, since: float = 0.0) -> list[StoredRoom]:
        """Every room whose match is being played and was changed at ``since`` (``time.time()``)
        or later, oldest first."""
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
);
"""

_ADDED_COLUMNS = {
    "rooms": (
        ("host", "INTEGER DEFAULT 0"),
        ("public", "INTEGER NOT NULL DEFAULT 0"),
        ("seed", "TEXT"),
        ("moved_to", "TEXT"),
    ),
    "seats": (("claim_name", "TEXT"), ("claim_hash", "TEXT"), ("avatar", "TEXT"), ("colour", "TEXT")),
}
"""Columns added since the first stores: added to a store that lacks them when it is opened."""


P = ParamSpec("P")
R = TypeVar("R")

BUSY_TIMEOUT = 1.0
"""Seconds a call waits for another connection's lock before :class:`StorageBusy`."""


def _guarded(method: Callable[P, R]) -> Callable[P, R]:
    """A method of :class:`SqliteStorage`, one thread at a time in a store with one connection;
    the failures of SQLite and of the file system raised as :class:`StorageError`."""

    @functools.wraps(method)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        store = args[0]
        assert isinstance(store, SqliteStorage)
        try:
            with store._serial:
                return method(*args, **kwargs)
        except sqlite3.OperationalError as exc:
            text = str(exc)
            if "locked" in text or "busy" in text:
                raise StorageBusy(f"the database is locked by another connection: {text}") from None
            raise StorageError(text) from None
        except sqlite3.IntegrityError as exc:  # data the schema refuses, or that another writer stored first
            raise StorageConflict(str(exc)) from None
        except (sqlite3.Error, OSError) as exc:
            raise StorageError(str(exc)) from None

    return call


class SqliteStorage:
    """:class:`Storage` in one SQLite file (``":memory:"`` for a store that lives as long as the object).

    The schema is created on open, and a file is checked to be writable then (:class:`StorageError`
    if not).  Every call is committed at once (WAL journal, so a crash loses at most the call in
    progress).  Each thread has its own connection to a file (:attr:`threads` of them may work at
    once); an in-memory store has one connection, used by one thread at a time.  ``exclusive``
    holds a lock on the database file itself (``flock``, which SQLite's own locks ignore) for as
    long as the store is open, so that no second server opens the same file, whatever path, link
    or hard link it is named by: :class:`StorageError` if another holds it."""

    def __init__(self, path: str, *, exclusive: bool = False) -> None:
        self.path = path
        self.memory = path == ":memory:"
        self.threads = 1 if self.memory else 4
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
            self._open()
        except BaseException:
            self.close()
            raise

    @_guarded
    def _open(self) -> None:
        db = self.db
        db.executescript(_SCHEMA)
        columns = {row[1] for row in db.execute("PRAGMA table_info(rooms)")}
        if "touched" not in columns:  # a store written before lobbies expired
            db.execute("ALTER TABLE rooms ADD COLUMN touched REAL NOT NULL DEFAULT 0")
            db.execute("UPDATE rooms SET touched = created")
        for table, added in _ADDED_COLUMNS.items():
            present = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            for name, kind in added:
                if name not in present:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
        if not self.memory:  # a read-only file opens, reads, even begins a write: find out now, not at the first write
            (version,) = db.execute("PRAGMA user_version").fetchone()
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute(f"PRAGMA user_version = {int(version)}")  # a real write of the file's header
            finally:
                db.execute("ROLLBACK")

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

    @_guarded
    def create_room(
        self,
        code: str,
        settings: dict[str, Any],
        created: float,
        *,
        seed: int | None = None,
        public: bool = False,
        seats: list[SeatRow] | None = None,
        host: int | None = 0,
    ) -> None:
        with self._transaction() as db:
            try:
                db.execute(
                    "INSERT INTO rooms (code, settings, status, created, touched, host, public, seed)"
                    " VALUES (?, ?, 'lobby', ?, ?, ?, ?, ?)",
                    (
                        code,
                        json.dumps(settings),
                        created,
                        created,
                        host,
                        int(public),
                        None if seed is None else str(seed),
                    ),
                )
            except sqlite3.IntegrityError:
                raise KeyError(f"room {code} exists") from None
            if seats is not None:
                self._insert_seats(db, code, seats)

    @_guarded
    def set_host(self, code: str, host: int | None) -> None:
        self.db.execute("UPDATE rooms SET host = ? WHERE code = ?", (host, code))

    @_guarded
    def set_moved(self, code: str, moved_to: str, chat: list[ChatRow]) -> None:
        with self._transaction() as db:
            db.executemany(
                "INSERT INTO chat (code, id, seat, name, text, time) VALUES (?, ?, ?, ?, ?, ?)",
                [(moved_to, row.id, row.seat, row.name, row.text, row.time) for row in chat],
            )
            db.execute("UPDATE rooms SET moved_to = ? WHERE code = ?", (moved_to, code))

    @_guarded
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

    @_guarded
    def append_chat(self, code: str, row: ChatRow) -> None:
        self.db.execute(
            "INSERT INTO chat (code, id, seat, name, text, time) VALUES (?, ?, ?, ?, ?, ?)",
            (code, row.id, row.seat, row.name, row.text, row.time),
        )

    @_guarded
    def load_chat(self, code: str, limit: int) -> list[ChatRow]:
        rows = self.db.execute(
            "SELECT id, seat, name, text, time FROM chat WHERE code = ? ORDER BY id DESC LIMIT ?", (code, limit)
        ).fetchall()
        return [ChatRow(*row) for row in reversed(rows)]

    @_guarded
    def room_exists(self, code: str) -> bool:
        return self.db.execute("SELECT 1 FROM rooms WHERE code = ?", (code,)).fetchone() is not None

    @_guarded
    def save_seats(self, code: str, seats: list[SeatRow]) -> None:
        with self._transaction() as db:
            db.execute("UPDATE rooms SET touched = ? WHERE code = ?", (time.time(), code))
            self._insert_seats(db, code, seats)

    @staticmethod
    def _insert_seats(db: sqlite3.Connection, code: str, seats: list[SeatRow]) -> None:
        db.execute("DELETE FROM seats WHERE code = ?", (code,))
        db.executemany(
            "INSERT INTO seats (code, seat, name, kind, bot, secret_hash, rule_cards, claim_name, claim_hash,"
            " avatar, colour) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    s.avatar,
                    s.colour,
                )
                for s in seats
            ],
        )

    @_guarded
    def set_status(self, code: str, status: str) -> None:
        if status not in ROOM_STATUSES:
            raise ValueError(f"room status must be one of {', '.join(ROOM_STATUSES)}, not {status!r}")
        self.db.execute("UPDATE rooms SET status = ? WHERE code = ?", (status, code))

    @_guarded
    def start_game(self, code: str, setup: dict[str, Any]) -> None:
        with self._transaction() as db:
            db.execute("INSERT INTO games (code, setup) VALUES (?, ?)", (code, json.dumps(setup)))
            db.execute("UPDATE rooms SET status = 'playing', touched = ? WHERE code = ?", (time.time(), code))

    @_guarded
    def append_action(
        self,
        code: str,
        index: int,
        seat: int,
        notation: str,
        *,
        seats: list[SeatRow] | None = None,
        result: dict[str, Any] | None = None,
    ) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO actions (code, idx, seat, action) VALUES (?, ?, ?, ?)", (code, index, seat, notation)
            )
            db.execute("UPDATE rooms SET touched = ? WHERE code = ?", (time.time(), code))
            if seats is not None:
                self._insert_seats(db, code, seats)
            if result is not None:
                self._finish(db, code, result)

    @_guarded
    def append_actions(self, actions: list[ActionRow]) -> None:
        # one statement per chunk, not one per row: each statement lets the interpreter's lock go
        # and waits to take it back, which costs milliseconds while the event loop is busy
        touched = time.time()
        with self._transaction() as db:
            for start in range(0, len(actions), ROWS_PER_STATEMENT):
                chunk = actions[start : start + ROWS_PER_STATEMENT]
                values = ", ".join(["(?, ?, ?, ?)"] * len(chunk))
                db.execute(
                    f"INSERT INTO actions (code, idx, seat, action) VALUES {values}", [v for row in chunk for v in row]
                )
                codes = sorted({row.code for row in chunk})
                marks = ", ".join(["?"] * len(codes))
                db.execute(f"UPDATE rooms SET touched = ? WHERE code IN ({marks})", [touched, *codes])

    @_guarded
    def save_result(self, code: str, result: dict[str, Any]) -> None:
        with self._transaction() as db:
            self._finish(db, code, result)

    @staticmethod
    def _finish(db: sqlite3.Connection, code: str, result: dict[str, Any]) -> None:
        db.execute(
            "INSERT OR REPLACE INTO results (code, result, finished) VALUES (?, ?, ?)",
            (code, json.dumps(result), time.time()),
        )
        db.execute("UPDATE rooms SET status = 'finished' WHERE code = ?", (code,))

    @_guarded
    def load_room(self, code: str) -> StoredRoom | None:
        row = self.db.execute(
            "SELECT code, settings, status, created, host, seed, moved_to FROM rooms WHERE code = ?", (code,)
        ).fetchone()
        return self._room(row) if row is not None else None

    @_guarded
    def load_record(self, code: str) -> dict[str, Any] | None:
        with self._transaction() as db:  # the set-up and the actions as of one moment
            row = db.execute("SELECT setup FROM games WHERE code = ?", (code,)).fetchone()
            if row is None:
                return None
            record: dict[str, Any] = json.loads(row[0])
            actions = db.execute("SELECT seat, action FROM actions WHERE code = ? ORDER BY idx", (code,)).fetchall()
        record["actions"] = [[seat, action] for seat, action in actions]
        return record

    @_guarded
    def load_result(self, code: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT result FROM results WHERE code = ?", (code,)).fetchone()
        return json.loads(row[0]) if row is not None else None

    @_guarded
    def rooms_in_progress(self, since: float = 0.0) -> list[StoredRoom]:
        rows = self.db.execute(
            "SELECT code, settings, status, created, host, seed, moved_to FROM rooms WHERE status = 'playing'"
            " AND touched >= ? ORDER BY created, code",
            (since,),
        ).fetchall()
        return [self._room(row) for row in rows]

    @_guarded
    def delete_stale_lobbies(self, before: float, keep: set[str]) -> int:
        rows = self.db.execute("SELECT code FROM rooms WHERE status = 'lobby' AND touched < ?", (before,)).fetchall()
        codes = [(code,) for (code,) in rows if code not in keep]
        with self._transaction() as db:
            db.executemany("DELETE FROM seats WHERE code = ?", codes)
            db.executemany("DELETE FROM chat WHERE code = ?", codes)
            db.executemany("DELETE FROM rooms WHERE code = ?", codes)
        return len(codes)

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

    def _room(self, row: tuple[Any, ...]) -> StoredRoom:
        code, settings, status, created, host, seed, moved_to = row
        seats = [
            SeatRow(
                seat,
                name,
                kind,
                bot,
                secret_hash,
                json.loads(cards) if cards is not None else None,
                claim,
                claim_hash,
                avatar,
                colour,
            )
            for seat, name, kind, bot, secret_hash, cards, claim, claim_hash, avatar, colour in self.db.execute(
                "SELECT seat, name, kind, bot, secret_hash, rule_cards, claim_name, claim_hash, avatar, colour"
                " FROM seats WHERE code = ? ORDER BY seat",
                (code,),
            )
        ]
        return StoredRoom(
            code, json.loads(settings), status, created, seats, host, int(seed) if seed is not None else None, moved_to
        )

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on an exception) on this thread's
        connection, one write transaction of this store at a time."""
        db = self.db
        with self._writing:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
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
