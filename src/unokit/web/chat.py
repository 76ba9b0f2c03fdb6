"""The room chat: what a message may hold, how often a connection, an address and a room may send
one, and the room's log.

A chat line (or a reaction) is limited per connection (:class:`ChatLimiter`), per client address (all
its connections together: ``address_chat_per_minute``, :mod:`unokit.web.guard`) and per room
(:class:`RoomChatLimits`): each seat has its own share, however many connections hold it, and the
spectators one share together, so spectators never silence the players.

A chat text is trimmed, 1 to :data:`MAX_CHAT` characters, with no control or format
characters (nor line breaks, lone surrogates, private-use or unassigned characters), the
same rule as names: anything else is refused by the message table (``malformed``).  Markup
is kept as plain text: the client shows every text with ``textContent``.

>>> clean_chat("  hello <b>all</b>  ")
'hello <b>all</b>'
>>> clean_chat("two\\nlines")
Traceback (most recent call last):
...
ValueError: a chat message cannot hold the character U+000A
"""

from __future__ import annotations

import collections
import time
import unicodedata
from typing import TYPE_CHECKING, Any

from unokit.web.settings import RoomError
from unokit.web.storage import ChatRow

if TYPE_CHECKING:
    from unokit.web.rooms import Member, Room

__all__ = [
    "CHAT_BURST",
    "CHAT_HISTORY",
    "CHAT_WINDOW",
    "MAX_CHAT",
    "REACTIONS",
    "ChatLimiter",
    "RoomChatLimits",
    "chat_history",
    "chat_message",
    "check_room_chat",
    "clean_chat",
    "post_chat",
    "post_reaction",
]

MAX_CHAT = 200
"""The longest chat message, in characters (after trimming)."""
CHAT_BURST = 5
"""Chat messages a connection may send within :data:`CHAT_WINDOW` seconds."""
CHAT_WINDOW = 10.0
CHAT_HISTORY = 50
"""Chat messages sent to a member when it joins (``chat_history``), and kept in memory per room."""
SPECTATOR_CHAT_BURST = 10
"""Chat messages the spectators of a room may send together within :data:`SPECTATOR_CHAT_WINDOW` seconds."""
SPECTATOR_CHAT_WINDOW = 20.0
SPECTATOR_NAME = "Spectator"
REACTIONS = ("👍", "😂", "😮", "😡", "👏", "🎉", "GG", "UNO!")
"""The quick reactions (``react``): shown as a bubble over the sender's seat, and in the chat."""

_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def clean_chat(value: object) -> str:
    """A chat text, trimmed; :class:`ValueError` says what is wrong with it."""
    if not isinstance(value, str):
        raise ValueError("a chat message must be a string")
    text = value.strip()
    for char in text:
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            raise ValueError(f"a chat message cannot hold the character U+{ord(char):04X}")
    if not text:
        raise ValueError("a chat message cannot be empty")
    if len(text) > MAX_CHAT:
        raise ValueError(f"a chat message holds at most {MAX_CHAT} characters")
    return text


def chat_message(row: ChatRow) -> dict[str, Any]:
    """A ``chat`` message to the room's members."""
    return {"type": "chat", "id": row.id, "seat": row.seat, "name": row.name, "text": row.text, "time": row.time}


async def post_chat(room: Room, member: Member, text: str, reaction: dict[str, Any] | None = None) -> None:
    """A chat message (already cleaned), stored, then sent to every member of ``room``.  A
    spectator (or a late arrival still watching) is named :data:`SPECTATOR_NAME`.  A reaction's
    fields (``reaction``, ``to``) go with the live message only: the store keeps its text."""
    async with room.lock:
        seat = member.seat
        name = room.seats[seat].name if seat is not None else SPECTATOR_NAME
        row = ChatRow(room.chat_next, seat, name, text, round(time.time(), 3))
        await room.write(room.hub.storage.append_chat, room.code, row)
        room.chat_next += 1
        room.chat_log.append(row)
        message = chat_message(row) | (reaction or {})
        for other in list(room.members):
            other.send(message)


async def post_reaction(room: Room, member: Member, reaction: str, to: int | None) -> None:
    """A quick reaction, maybe aimed at a seat (``to``: a player's or a bot's seat of the room,
    not the sender's own; a spectator has no seat, so none is ever aimed at).  Its chat line reads
    "👏 → Bob"; everyone's page shows it as a bubble over the sender's seat."""
    if to is not None:
        if to >= len(room.seats) or room.seats[to].kind == "open":
            raise RoomError("malformed", "error.react_nobody", seat=to)
        if to == member.seat:
            raise RoomError("malformed", "error.react_self")
    text = reaction if to is None else f"{reaction} → {room.names()[to]}"
    await post_chat(room, member, text, {"reaction": reaction, "to": to})


def check_room_chat(room: Room, member: Member) -> None:
    """Refuse (``rate-limited``) a chat message (or reaction) past the room's share for the member's
    seat, or for the spectators together (:class:`RoomChatLimits`)."""
    if room.chat_limits.allow(member.seat):
        return
    if member.seat is None:
        raise RoomError("rate-limited", "error.chat_room")
    raise RoomError("rate-limited", "error.chat_rate")


def chat_history(room: Room) -> dict[str, Any]:
    """The room's last :data:`CHAT_HISTORY` chat messages, sent to a member as it enters."""
    return {"type": "chat_history", "messages": [chat_message(row) for row in room.chat_log]}


class ChatLimiter:
    """At most :data:`CHAT_BURST` chat messages per :data:`CHAT_WINDOW` seconds (per connection).

    >>> limiter = ChatLimiter()
    >>> [limiter.allow(now=0.0) for _ in range(6)], limiter.allow(now=10.5)
    ([True, True, True, True, True, False], True)
    """

    def __init__(self, burst: int = CHAT_BURST, window: float = CHAT_WINDOW) -> None:
        self.burst = burst
        self.window = window
        self.sent: collections.deque[float] = collections.deque()

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        while self.sent and now - self.sent[0] >= self.window:
            self.sent.popleft()
        if len(self.sent) >= self.burst:
            return False
        self.sent.append(now)
        return True


class RoomChatLimits:
    """A room's chat rate: each seat :data:`CHAT_BURST` messages per :data:`CHAT_WINDOW` seconds, all
    its connections together, and the spectators (late arrivals still watching among them)
    :data:`SPECTATOR_CHAT_BURST` per :data:`SPECTATOR_CHAT_WINDOW` seconds together.

    >>> limits = RoomChatLimits()
    >>> sum(limits.allow(None, now=0.0) for _ in range(30)), limits.allow(0, now=0.0)
    (10, True)
    """

    def __init__(self) -> None:
        self.seats: dict[int, ChatLimiter] = {}
        self.spectators = ChatLimiter(SPECTATOR_CHAT_BURST, SPECTATOR_CHAT_WINDOW)

    def allow(self, seat: int | None, now: float | None = None) -> bool:
        """Whether ``seat`` (``None``: a spectator) may send a chat message now (then it is counted)."""
        if seat is None:
            return self.spectators.allow(now)
        return self.seats.setdefault(seat, ChatLimiter()).allow(now)
