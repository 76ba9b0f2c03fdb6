"""The SQL every database store runs (:class:`SqlStorage`): SQLite and PostgreSQL differ only in
how they connect, hold transactions and report failures, and in their schemas' column types
(:mod:`unokit.web.storage.migrations`).  Statements are written with ``?`` placeholders."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from unokit.web.storage.base import (
    CHAT_KEPT,
    ROOM_STATUSES,
    ROWS_PER_STATEMENT,
    ActionRow,
    ChatRow,
    PublicRoom,
    SeatRow,
    StaleOwner,
    StoredRoom,
)

__all__ = ["SqlStorage", "Statements"]

ROOM_COLUMNS = "code, settings, status, created, host, seed, moved_to"


class Statements(Protocol):
    """Statements run on one connection, in the transaction (if any) of :meth:`SqlStorage._write`
    or :meth:`SqlStorage._read`."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run ``sql``; how many rows it changed."""
        ...

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    def one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None: ...

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...


class SqlStorage:
    """:class:`~unokit.web.storage.Storage` in SQL; a subclass gives the transactions (:meth:`_write`,
    :meth:`_read`), which raise the database's failures as :class:`~unokit.web.storage.StorageError`."""

    threads: int
    chat_kept: int = CHAT_KEPT

    def _write(self) -> contextlib.AbstractContextManager[Statements]:
        """A write transaction: committed if the block ends normally, rolled back otherwise."""
        raise NotImplementedError

    def _read(self, snapshot: bool = False) -> contextlib.AbstractContextManager[Statements]:
        """Reads (``snapshot``: all as of one moment)."""
        raise NotImplementedError

    # ------------------------------------------------------------ fencing

    @staticmethod
    def _fence(db: Statements, code: str, fence: int | None) -> None:
        """Refuse the transaction's write (:class:`StaleOwner`) if ``fence`` is not the room's; the
        statement takes the room's row for the rest of the transaction."""
        if (
            fence is not None
            and db.execute("UPDATE rooms SET fence = fence WHERE code = ? AND fence = ?", (code, fence)) == 0
        ):
            raise StaleOwner(f"room {code} is no longer owned under fence {fence}")

    @staticmethod
    def _touch(db: Statements, code: str, fence: int | None, status: str | None = None) -> None:
        """Mark the room changed now (and give it ``status``), checking ``fence`` in the same statement."""
        sets, where = "touched = ?", "code = ?"
        params: list[Any] = [time.time()]
        if status is not None:
            sets += ", status = ?"
            params.append(status)
        params.append(code)
        if fence is not None:
            where += " AND fence = ?"
            params.append(fence)
        if db.execute(f"UPDATE rooms SET {sets} WHERE {where}", params) == 0 and fence is not None:
            raise StaleOwner(f"room {code} is no longer owned under fence {fence}")

    def claim_room(self, code: str) -> int:
        with self._write() as db:
            row = db.one("UPDATE rooms SET fence = fence + 1 WHERE code = ? RETURNING fence", (code,))
        if row is None:
            raise KeyError(f"no room {code}")
        return int(row[0])

    # ------------------------------------------------------------ rooms and seats

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
        with self._write() as db:
            inserted = db.execute(
                "INSERT INTO rooms (code, settings, status, created, touched, host, public, seed)"
                " VALUES (?, ?, 'lobby', ?, ?, ?, ?, ?) ON CONFLICT (code) DO NOTHING",
                (code, json.dumps(settings), created, created, host, int(public), None if seed is None else str(seed)),
            )
            if inserted == 0:
                raise KeyError(f"room {code} exists")
            if seats is not None:
                self._insert_seats(db, code, seats)

    def set_host(self, code: str, host: int | None, *, fence: int | None = None) -> None:
        with self._write() as db:
            self._fence(db, code, fence)
            db.execute("UPDATE rooms SET host = ? WHERE code = ?", (host, code))

    def set_moved(self, code: str, moved_to: str, chat: list[ChatRow], *, fence: int | None = None) -> None:
        with self._write() as db:
            self._fence(db, code, fence)
            db.executemany(
                "INSERT INTO chat (code, id, seat, name, text, time) VALUES (?, ?, ?, ?, ?, ?)",
                [(moved_to, row.id, row.seat, row.name, row.text, row.time) for row in chat],
            )
            db.execute("UPDATE rooms SET moved_to = ? WHERE code = ?", (moved_to, code))

    def public_lobbies(self, limit: int) -> list[PublicRoom]:
        with self._read() as db:
            rows = db.all(
                "SELECT r.code, r.settings, r.created,"
                " (SELECT COUNT(*) FROM seats s WHERE s.code = r.code AND s.kind = 'open'),"
                " (SELECT s.name FROM seats s WHERE s.code = r.code AND s.seat = r.host AND s.kind = 'human')"
                " FROM rooms r WHERE r.status = 'lobby' AND r.public = 1"
                " AND EXISTS (SELECT 1 FROM seats s WHERE s.code = r.code AND s.kind = 'open')"
                " ORDER BY r.created DESC, r.code LIMIT ?",
                (limit,),
            )
        return [
            PublicRoom(code, json.loads(settings), created, int(n), host) for code, settings, created, n, host in rows
        ]

    def room_exists(self, code: str) -> bool:
        with self._read() as db:
            return db.one("SELECT 1 FROM rooms WHERE code = ?", (code,)) is not None

    def save_seats(self, code: str, seats: list[SeatRow], *, fence: int | None = None) -> None:
        with self._write() as db:
            self._touch(db, code, fence)
            self._insert_seats(db, code, seats)

    @staticmethod
    def _insert_seats(db: Statements, code: str, seats: list[SeatRow]) -> None:
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

    def set_status(self, code: str, status: str, *, fence: int | None = None) -> None:
        if status not in ROOM_STATUSES:
            raise ValueError(f"room status must be one of {', '.join(ROOM_STATUSES)}, not {status!r}")
        with self._write() as db:
            self._fence(db, code, fence)
            db.execute("UPDATE rooms SET status = ? WHERE code = ?", (status, code))

    def load_room(self, code: str) -> StoredRoom | None:
        with self._read(snapshot=True) as db:
            row = db.one(f"SELECT {ROOM_COLUMNS} FROM rooms WHERE code = ?", (code,))
            return self._room(db, row) if row is not None else None

    def rooms_in_progress(self, since: float = 0.0) -> list[StoredRoom]:
        with self._read(snapshot=True) as db:
            rows = db.all(
                f"SELECT {ROOM_COLUMNS} FROM rooms WHERE status = 'playing' AND touched >= ? ORDER BY created, code",
                (since,),
            )
            return [self._room(db, row) for row in rows]

    @staticmethod
    def _room(db: Statements, row: tuple[Any, ...]) -> StoredRoom:
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
            for seat, name, kind, bot, secret_hash, cards, claim, claim_hash, avatar, colour in db.all(
                "SELECT seat, name, kind, bot, secret_hash, rule_cards, claim_name, claim_hash, avatar, colour"
                " FROM seats WHERE code = ? ORDER BY seat",
                (code,),
            )
        ]
        return StoredRoom(
            code, json.loads(settings), status, created, seats, host, int(seed) if seed is not None else None, moved_to
        )

    def delete_stale_lobbies(self, before: float, keep: set[str]) -> int:
        with self._write() as db:
            rows = db.all("SELECT code FROM rooms WHERE status = 'lobby' AND touched < ?", (before,))
            codes = [(code,) for (code,) in rows if code not in keep]
            db.executemany("DELETE FROM seats WHERE code = ?", codes)
            db.executemany("DELETE FROM chat WHERE code = ?", codes)
            db.executemany("DELETE FROM rooms WHERE code = ?", codes)
        return len(codes)

    # ------------------------------------------------------------ chat

    def append_chat(self, code: str, row: ChatRow, *, fence: int | None = None) -> None:
        with self._write() as db:
            self._fence(db, code, fence)
            db.execute(
                "INSERT INTO chat (code, id, seat, name, text, time) VALUES (?, ?, ?, ?, ?, ?)",
                (code, row.id, row.seat, row.name, row.text, row.time),
            )
            db.execute(
                "DELETE FROM chat WHERE code = ? AND id < "
                "(SELECT id FROM chat WHERE code = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
                (code, code, self.chat_kept - 1),
            )

    def load_chat(self, code: str, limit: int) -> list[ChatRow]:
        with self._read() as db:
            rows = db.all(
                "SELECT id, seat, name, text, time FROM chat WHERE code = ? ORDER BY id DESC LIMIT ?", (code, limit)
            )
        return [ChatRow(*row) for row in reversed(rows)]

    def delete_finished_chat(self, before: float) -> int:
        with self._write() as db:
            return db.execute(
                "DELETE FROM chat WHERE code IN (SELECT r.code FROM results r JOIN rooms USING (code)"
                " WHERE rooms.status = 'finished' AND r.finished < ?)",
                (before,),
            )

    # ------------------------------------------------------------ games

    def start_game(self, code: str, setup: dict[str, Any], *, fence: int | None = None) -> None:
        with self._write() as db:
            self._touch(db, code, fence, status="playing")
            db.execute("INSERT INTO games (code, setup) VALUES (?, ?)", (code, json.dumps(setup)))

    def append_action(
        self,
        code: str,
        index: int,
        seat: int,
        notation: str,
        *,
        seats: list[SeatRow] | None = None,
        result: dict[str, Any] | None = None,
        fence: int | None = None,
    ) -> None:
        with self._write() as db:
            self._touch(db, code, fence)
            db.execute(
                "INSERT INTO actions (code, idx, seat, action) VALUES (?, ?, ?, ?)", (code, index, seat, notation)
            )
            if seats is not None:
                self._insert_seats(db, code, seats)
            if result is not None:
                self._finish(db, code, result)

    def append_actions(self, actions: list[ActionRow]) -> None:
        # one statement per chunk, not one per row: each statement lets the interpreter's lock go
        # and waits to take it back, which costs milliseconds while the event loop is busy
        touched = time.time()
        with self._write() as db:
            for code, fence in sorted({(row.code, row.fence) for row in actions if row.fence is not None}):
                self._fence(db, code, fence)
            for start in range(0, len(actions), ROWS_PER_STATEMENT):
                chunk = actions[start : start + ROWS_PER_STATEMENT]
                values = ", ".join(["(?, ?, ?, ?)"] * len(chunk))
                db.execute(
                    f"INSERT INTO actions (code, idx, seat, action) VALUES {values}",
                    [v for row in chunk for v in (row.code, row.number, row.seat, row.notation)],
                )
                codes = sorted({row.code for row in chunk})
                marks = ", ".join(["?"] * len(codes))
                db.execute(f"UPDATE rooms SET touched = ? WHERE code IN ({marks})", [touched, *codes])

    def save_result(self, code: str, result: dict[str, Any], *, fence: int | None = None) -> None:
        with self._write() as db:
            self._fence(db, code, fence)
            self._finish(db, code, result)

    @staticmethod
    def _finish(db: Statements, code: str, result: dict[str, Any]) -> None:
        db.execute(
            "INSERT INTO results (code, result, finished) VALUES (?, ?, ?) ON CONFLICT (code)"
            " DO UPDATE SET result = excluded.result, finished = excluded.finished",
            (code, json.dumps(result), time.time()),
        )
        db.execute("UPDATE rooms SET status = 'finished' WHERE code = ?", (code,))

    def load_record(self, code: str) -> dict[str, Any] | None:
        with self._read(snapshot=True) as db:  # the set-up and the actions as of one moment
            row = db.one("SELECT setup FROM games WHERE code = ?", (code,))
            if row is None:
                return None
            record: dict[str, Any] = json.loads(row[0])
            actions = db.all("SELECT seat, action FROM actions WHERE code = ? ORDER BY idx", (code,))
        record["actions"] = [[seat, action] for seat, action in actions]
        return record

    def load_result(self, code: str) -> dict[str, Any] | None:
        with self._read() as db:
            row = db.one("SELECT result FROM results WHERE code = ?", (code,))
        return json.loads(row[0]) if row is not None else None
