"""What a command asks of the shell: the writes to store first, the state they make the room's,
the messages that go out and the connections let go.

The core decides a command into a :class:`Change` without making it; the shell
(:meth:`unokit.web.rooms.Room.commit`) performs its writes in order with the room's fence, and only
once the store took them all makes the change the room's, sends its messages and shows the room to
every member.  A refused write leaves the room as it was.  Messages are addressed to seats (or to
everyone), never to connections: a shell on another process relays them to its own members the same way.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from typing import Any

from unokit.engine.game import Game
from unokit.web.core.seats import Seat
from unokit.web.core.writes import Write

__all__ = ["EVERYONE", "Change", "Deal", "Play", "Send"]

EVERYONE = -1
"""The audience of a message for every member of the room, spectators included."""


@dataclass(frozen=True)
class Send:
    """A message for every member holding seat ``to`` (:data:`EVERYONE`: every member), with its
    ``words`` (a message of :mod:`unokit.i18n`) put in each member's language as its ``message``."""

    to: int
    message: dict[str, Any]
    words: str | None = None


@dataclass(frozen=True)
class Play:
    """An action played: the match as it is after it (a copy: the room's is unchanged until stored)."""

    game: Game
    action: int
    events: list[tuple[Any, ...]]
    """The events it made."""
    new_round: bool
    """It ended a round and dealt the next (not the match)."""
    now: float


@dataclass(frozen=True)
class Deal:
    """The match dealt, which a :class:`~unokit.web.core.writes.StartGame` stores."""

    game: Game
    now: float


@dataclass
class Change:
    """A command's outcome, not yet made: see the module's documentation."""

    writes: list[Write] = field(default_factory=list)
    """Stored in order; each write's part of the change is made once it is stored: the seats for a
    :class:`~unokit.web.core.writes.SaveSeats`, the host for a :class:`~unokit.web.core.writes.SetHost`,
    the chat line for an :class:`~unokit.web.core.writes.AppendChat`."""
    seats: list[Seat] | None = None
    """The seats as they are to be (with what is not stored: who is away, who is played by the bot)."""
    _: KW_ONLY
    base: list[Seat] | None = None
    """The seats as they were when the change was decided: only what the change made differ from them
    is made to the room's seats, so what happened to a seat meanwhile (a player left while the store
    wrote) stays (``None``: every difference from the room's seats is made)."""
    play: Play | None = None
    """The action an :class:`~unokit.web.core.writes.AppendAction` stores, made once it is stored."""
    deal: Deal | None = None
    """The match a :class:`~unokit.web.core.writes.StartGame` begins, made once it is stored."""
    sends: list[Send] = field(default_factory=list)
    release: int | None = None
    """The seat whose connections leave the room once the change is made (kicked, or their player left)."""
    show: bool = True
    """Whether every member is shown the room as it now is."""

    @property
    def empty(self) -> bool:
        """Nothing to store, change or send."""
        return not (self.writes or self.seats is not None or self.play or self.deal or self.sends or self.show)
