"""A room's seats and the lobby's rules: who takes which seat, who may fill or empty one, who hosts.

Each rule changes a list of seats it is given (the shell hands it copies, stores them, then makes
them the room's: :meth:`unokit.web.rooms.Room.change_seats`) or raises :class:`RoomError`,
changing nothing that counts.  Who is away is asked of ``away`` (a seat's index in, whether a
human seat has no connection out): the core does not know the connections.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from unokit.web.core.rows import SeatRow
from unokit.web.core.social import BOT_AVATAR
from unokit.web.settings import RoomError

__all__ = [
    "SEAT_FIELDS",
    "Seat",
    "check_host",
    "copy_seats",
    "empty_player_seat",
    "fill_seat",
    "kick_seat",
    "next_human",
    "seat_late_arrivals",
    "seat_names",
    "seats_message",
    "take_seat",
]


@dataclass
class Seat:
    """A seat of a room."""

    index: int
    name: str = ""
    kind: str = "open"
    """``human``, ``bot`` or ``open``."""
    secret_hash: str | None = None
    rule_cards: list[str] | None = None
    away_since: float = 0.0
    """When the last connection of a human seat left (monotonic clock)."""
    auto: bool = False
    """A human seat whose decisions the room's bot makes at bot speed (its player timed out or
    is away), until the player is back."""
    claim_name: str | None = None
    """A late arrival's name: this bot seat becomes theirs at the next round ..."""
    claim_hash: str | None = None
    """... and the hash of their secret."""
    avatar: str | None = None
    """The player's avatar and colour (:mod:`unokit.web.core.social`; ``None``: none chosen)."""
    colour: str | None = None

    def row(self, bot: str) -> SeatRow:
        return SeatRow(
            self.index,
            self.name,
            self.kind,
            bot if self.kind == "bot" else None,
            self.secret_hash,
            self.rule_cards,
            self.claim_name,
            self.claim_hash,
            self.avatar,
            self.colour,
        )

    def take(self, new: Seat, old: Seat) -> None:
        """What changed from ``old`` to ``new`` (copies of this seat), made to this seat."""
        for name in SEAT_FIELDS:
            value = getattr(new, name)
            if value != getattr(old, name):
                setattr(self, name, value)

    def empty(self, kind: str = "open") -> None:
        """The seat opens (or takes a bot): its name, secret, cards and claim are gone."""
        self.kind, self.name = kind, f"Bot {self.index}" if kind == "bot" else ""  # i18n: a name, the same for all
        self.secret_hash = self.rule_cards = self.claim_name = self.claim_hash = None
        self.avatar = self.colour = None
        self.auto = False


SEAT_FIELDS = tuple(item.name for item in dataclasses.fields(Seat) if item.name != "index")


def copy_seats(seats: Sequence[Seat]) -> list[Seat]:
    """Copies of ``seats``, to try a change on."""
    return [dataclasses.replace(seat) for seat in seats]


def seat_names(seats: Sequence[Seat]) -> list[str]:
    """The seats' names: the player's, the bot's, or ``Seat {index}`` for an open seat (0-based, as
    the bots' names and the engine's seats)."""
    return [seat.name or f"Seat {seat.index}" for seat in seats]  # i18n: a name, the same for all


def seats_message(
    seats: Sequence[Seat], away: Callable[[int], bool], voice: Collection[int] = ()
) -> list[dict[str, Any]]:
    """Every seat with its name (an open seat's is :func:`seat_names`'), kind, whether it is away,
    played by the room's bot (``auto``), claimed by a late arrival, its look and whether it is in voice.

    >>> seats_message([Seat(0, "Ann", "human", avatar="fox"), Seat(1)], away=lambda seat: seat == 0)[0]["away"]
    True
    """
    return [
        {
            "seat": s.index,
            "name": name,
            "kind": s.kind,
            "away": away(s.index),
            "auto": s.auto and s.kind == "human",
            "claimed": s.claim_name is not None,
            "avatar": BOT_AVATAR if s.kind == "bot" else s.avatar if s.kind == "human" else None,
            "colour": s.colour if s.kind == "human" else None,
            "voice": s.index in voice,
        }
        for s, name in zip(seats, seat_names(seats), strict=True)
    ]


def take_seat(
    seats: list[Seat],
    status: str,
    late_join: bool,
    name: str,
    secret_hash: str,
    look: tuple[str | None, str | None] = (None, None),
) -> tuple[int, bool]:
    """``join``: the lowest open seat of a lobby (with the player's avatar and colour), or during a
    match with ``late_join`` a claim on the lowest unclaimed bot seat; returns the seat and whether
    it is a claim.

    >>> seats = [Seat(0, "Ann", "human"), Seat(1), Seat(2)]
    >>> take_seat(seats, "lobby", False, "Bob", "hash"), seats[1].name
    ((1, False), 'Bob')
    """
    if status == "playing" and late_join:
        for seat in seats:
            if seat.kind == "bot" and seat.claim_name is None:
                seat.claim_name, seat.claim_hash = name, secret_hash
                return seat.index, True
    if status != "lobby":
        raise RoomError("started", "error.begun_watch")
    for seat in seats:
        if seat.kind == "open":
            seat.kind, seat.name, seat.secret_hash, seat.rule_cards = "human", name, secret_hash, None
            seat.avatar, seat.colour = look
            return seat.index, False
    raise RoomError("full", "error.seats_taken")


def check_host(seat: int | None, host: int | None, status: str) -> None:
    """Only the host (``seat``) may change the lobby, and only in the lobby."""
    if seat is None or seat != host:
        raise RoomError("forbidden", "error.host_only")
    if status != "lobby":
        raise RoomError("started", "error.begun")


def fill_seat(seats: list[Seat], index: int, bot: bool, host: int | None, away: Callable[[int], bool]) -> None:
    """``set_seat``: put a bot in an open seat (or an away player's), or empty a bot's seat; never the
    host's.  The caller checked that the host asks (:func:`check_host`)."""
    if index >= len(seats) or index == host:
        raise RoomError("forbidden", "error.seat_fixed", seat=index)
    seat = seats[index]
    if bot:
        if seat.kind == "human" and not away(index):
            raise RoomError("forbidden", "error.seat_taken", name=seat.name)
        seat.empty("bot")
    else:
        if seat.kind != "bot":
            raise RoomError("forbidden", "error.seat_no_bot", seat=index)
        seat.empty()


def kick_seat(seats: list[Seat], index: int, host: int | None) -> None:
    """``kick``: the host empties a player's seat (not their own); its secret opens nothing more."""
    if index >= len(seats) or index == host or seats[index].kind != "human":
        raise RoomError("forbidden", "error.seat_no_player", seat=index)
    seats[index].empty()


def empty_player_seat(seats: list[Seat], index: int) -> None:
    """A player leaves the lobby: their seat opens."""
    seats[index].empty()


def next_human(seats: Sequence[Seat], after: int, away: Callable[[int], bool] | None = None) -> int | None:
    """The next human seat after ``after`` in seat order (wrapping), not away if ``away`` is given.

    >>> next_human([Seat(0, "A", "human"), Seat(1), Seat(2, "C", "human")], 2)
    0
    """
    count = len(seats)
    for step in range(1, count):
        index = (after + step) % count
        if seats[index].kind == "human" and not (away is not None and away(index)):
            return index
    return None


def seat_late_arrivals(seats: Sequence[Seat], now: float) -> list[Seat]:
    """The seats once the late arrivals' claims are theirs, away until they connect (copies:
    ``seats`` are unchanged)."""
    seated = copy_seats(seats)
    for seat in seated:
        if seat.claim_name is not None and seat.kind == "bot":
            seat.kind, seat.name, seat.secret_hash = "human", seat.claim_name or "", seat.claim_hash
            seat.claim_name = seat.claim_hash = None
            seat.auto, seat.away_since = False, now
    return seated
