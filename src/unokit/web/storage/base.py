"""What every store shares: the rows it stores, the :class:`Storage` interface and its failures."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from unokit.web.core.rows import ChatRow, SeatRow

__all__ = [
    "CHAT_KEPT",
    "ROOM_STATUSES",
    "ROWS_PER_STATEMENT",
    "ActionRow",
    "ChatRow",
    "PublicRoom",
    "SeatRow",
    "StaleOwner",
    "Storage",
    "StorageBusy",
    "StorageConflict",
    "StorageError",
    "StoredRoom",
    "hash_secret",
]

ROOM_STATUSES = ("lobby", "playing", "finished")

ROWS_PER_STATEMENT = 200
"""Actions written by one statement of :meth:`Storage.append_actions` (4 values each, well under
the databases' limits of variables)."""

CHAT_KEPT = 200
"""Chat messages a room keeps (:meth:`Storage.append_chat` deletes the older ones): more than a
room shows (:data:`unokit.web.chat.CHAT_HISTORY`), and few enough that no room's chat grows without end."""


class StorageError(Exception):
    """The store cannot do what was asked now: nothing of that call was stored."""


class StorageBusy(StorageError):
    """Another connection or process holds the store's lock: the call may succeed if tried again."""


class StorageConflict(StorageError):
    """The store refused the call's data as conflicting with what it holds (an action already stored
    under that number, a value the schema refuses): trying again the same call fails the same way."""


class StaleOwner(StorageError):
    """A write given a room's fence (:meth:`Storage.claim_room`) that is no longer the room's: another
    owner claimed the room since, and the write was refused by the store, changing nothing."""


class ActionRow(NamedTuple):
    """One action of a room's game, as :meth:`Storage.append_action` stores it."""

    code: str
    number: int
    """0-based, in the order of the game's actions"""
    seat: int
    notation: str
    fence: int | None = None
    """The room's fence its writer holds (:meth:`Storage.claim_room`; ``None``: not checked)."""


def hash_secret(secret: str) -> str:
    """The SHA-256 (hex) stored for a seat secret."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


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
class PublicRoom:
    """A public lobby with open seats, as the start page lists it."""

    code: str
    settings: dict[str, Any]
    created: float
    open: int
    host_name: str | None


class Storage(Protocol):
    """What the web server needs from a store.  Each call is all or nothing; a failure of the store
    raises :class:`StorageError`.

    Fencing: a room's owner (the one process that runs it) takes a number with :meth:`claim_room`;
    each write of the room's given that ``fence`` is refused with :class:`StaleOwner` (changing
    nothing) once another owner has claimed the room since, checked by the database in the write's
    own transaction.  A write given no fence is not checked."""

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
        """A new room in the lobby with its ``seats`` and ``host``, fence 0; :class:`KeyError` if the code is taken."""
        ...

    def claim_room(self, code: str) -> int:
        """Take the room for a new owner: its fence, one more than the last; :class:`KeyError` if there is no room."""
        ...

    def set_host(self, code: str, host: int | None, *, fence: int | None = None) -> None:
        """The host's seat (``None``: none)."""
        ...

    def set_moved(self, code: str, moved_to: str, chat: list[ChatRow], *, fence: int | None = None) -> None:
        """The room's rematch began in room ``moved_to``, which takes the room's ``chat`` with it."""
        ...

    def public_lobbies(self, limit: int) -> list[PublicRoom]:
        """Public rooms in the lobby with at least one open seat, newest first."""
        ...

    def append_chat(self, code: str, row: ChatRow, *, fence: int | None = None) -> None:
        """A chat message; the room keeps its last :data:`CHAT_KEPT` (the older go in the same transaction)."""
        ...

    def load_chat(self, code: str, limit: int) -> list[ChatRow]:
        """The room's last ``limit`` chat messages, oldest first."""
        ...

    def delete_finished_chat(self, before: float) -> int:
        """Delete the chat of the rooms whose match finished before ``before`` (``time.time()``);
        returns how many messages."""
        ...

    def room_exists(self, code: str) -> bool: ...

    def save_seats(self, code: str, seats: list[SeatRow], *, fence: int | None = None) -> None:
        """Replace the seats of a room."""
        ...

    def set_status(self, code: str, status: str, *, fence: int | None = None) -> None: ...

    def start_game(self, code: str, setup: dict[str, Any], *, fence: int | None = None) -> None:
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
        fence: int | None = None,
    ) -> None:
        """The ``index``-th action of the room's game (0-based), with what it changed: the ``seats``
        (late arrivals seated at a new round) and the ``result`` if it ended the match."""
        ...

    def append_actions(self, actions: list[ActionRow]) -> None:
        """Actions of several rooms (each as :meth:`append_action` with nothing else changed, with
        its row's fence), in one transaction: all are stored, or none."""
        ...

    def save_result(self, code: str, result: dict[str, Any], *, fence: int | None = None) -> None:
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
