"""A table that feels social: each player's avatar and colour, and the room's optional voice chat.

An avatar and a colour are names from fixed sets (:data:`AVATARS`, :data:`COLOURS`; the page
draws them), chosen on the device and sent with ``create``, ``join``, ``resume`` or ``look``;
anything else is ``malformed``.  They are stored with the seat, so a restart keeps them.  A bot
wears :data:`BOT_AVATAR`.

Voice goes between the players' browsers (WebRTC, a mesh among the seats that turned it on);
the server only relays the signalling: a ``signal`` goes to the one connection that holds the
named seat's voice, never to anyone else, and is never stored.  Only a seated player may turn
voice on (a spectator has no seat to be reached at), and only a seat in voice may signal, to
another seat in voice.

>>> limiter = SignalLimiter(burst=2, window=1.0)
>>> [limiter.allow(now=0.0) for _ in range(3)], limiter.allow(now=1.0)
([True, True, False], True)
"""

from __future__ import annotations

from typing import Any

from unokit.web.chat import ChatLimiter
from unokit.web.core.social import AVATARS, BOT_AVATAR, COLOURS, MAX_SIGNAL, SIGNAL_KINDS, check_signal
from unokit.web.rooms import Member, Room
from unokit.web.settings import RoomError

__all__ = [
    "AVATARS",
    "BOT_AVATAR",
    "COLOURS",
    "MAX_SIGNAL",
    "SIGNAL_KINDS",
    "SignalLimiter",
    "leave_voice",
    "relay_signal",
    "set_look",
    "set_voice",
    "voice_seats",
]

SIGNAL_BURST = 150
"""Signals a connection may send within :data:`SIGNAL_WINDOW` seconds: joining a full table's voice
calls nine seats at once, an offer and a burst of ICE candidates each."""
SIGNAL_WINDOW = 10.0


class SignalLimiter(ChatLimiter):
    """At most :data:`SIGNAL_BURST` signals per :data:`SIGNAL_WINDOW` seconds (per connection)."""

    def __init__(self, burst: int = SIGNAL_BURST, window: float = SIGNAL_WINDOW) -> None:
        super().__init__(burst, window)


async def set_look(room: Room, seat: int, avatar: str | None, colour: str | None) -> None:
    """Give ``seat`` its player's avatar and colour (those left ``None`` stay), stored, then shown."""
    async with room.lock:
        await room.commit(room.decide_look(seat, avatar, colour))


def voice_seats(room: Room) -> list[int]:
    """The seats in the room's voice chat, in order."""
    return room.voice_seats()


def set_voice(room: Room, member: Member, on: bool, ice_servers: list[dict[str, Any]]) -> None:
    """Turn ``member``'s voice on or off; it is told the seats in voice (and the ICE servers to
    reach them by), everyone sees who is in voice on the seats."""
    seat = member.seat
    if seat is None:
        raise RoomError("forbidden", "error.voice_seated")
    if on:
        room.voice[seat] = member  # a second tab of the same seat takes the voice over
    elif room.voice.get(seat) is member:
        del room.voice[seat]
    member.send({"type": "voice", "on": on, "seats": voice_seats(room), "ice_servers": ice_servers})
    room.changed()


def leave_voice(room: Room, member: Member) -> None:
    """A member that leaves the room leaves its voice too (the room tells everyone afterwards)."""
    room.leave_voice(member)


def relay_signal(room: Room, member: Member, to: int, kind: str, data: str) -> None:
    """Pass a WebRTC signal from ``member``'s seat to the one connection holding seat ``to``'s voice."""
    seat = member.seat
    check_signal(room.voice, seat, seat is not None and room.voice.get(seat) is member, to)
    room.voice[to].send({"type": "signal", "from": seat, "kind": kind, "data": data})
