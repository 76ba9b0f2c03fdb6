"""The writes a room's change asks of the store, as data.

The core says what must be stored before a change is made; the shell performs it
(:meth:`unokit.web.rooms.Room.perform`) with the room's code and owner fence, and makes the change
only once the store took it.  A shell on another process, or one that batches writes, performs the
same data its own way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from unokit.web.core.rows import ChatRow, SeatRow

__all__ = ["AppendAction", "AppendChat", "SaveSeats", "SetHost", "SetMoved", "StartGame", "Write"]


@dataclass(frozen=True)
class SaveSeats:
    """Every seat of the room, as it is to be."""

    seats: list[SeatRow]


@dataclass(frozen=True)
class SetHost:
    """The host's seat (``None``: nobody hosts now)."""

    host: int | None


@dataclass(frozen=True)
class AppendChat:
    """One chat line."""

    row: ChatRow


@dataclass(frozen=True)
class StartGame:
    """The match begins: its record without actions (:func:`unokit.engine.record.to_record`)."""

    setup: dict[str, Any]


@dataclass(frozen=True)
class AppendAction:
    """One action of the match (``index``: 0-based), with the seats if a round's end seated the late
    arrivals and the result if the match is over."""

    index: int
    seat: int
    notation: str
    seats: list[SeatRow] | None = None
    result: dict[str, Any] | None = None


@dataclass(frozen=True)
class SetMoved:
    """The rematch began in room ``moved_to``, which takes the room's ``chat`` with it."""

    moved_to: str
    chat: list[ChatRow]


Write = SaveSeats | SetHost | AppendChat | StartGame | AppendAction | SetMoved
"""Any write a room asks for."""
