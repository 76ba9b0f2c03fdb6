"""The room chat: what a message may hold, how often a connection may send one, and the room's log.

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
from typing import Any

from unokit.web.core.chat import (
    CHAT_HISTORY,
    MAX_CHAT,
    REACTIONS,
    SPECTATOR_NAME,
    chat_history,
    chat_message,
    clean_chat,
    reaction_text,
)
from unokit.web.rooms import Member, Room

__all__ = [
    "CHAT_BURST",
    "CHAT_HISTORY",
    "CHAT_WINDOW",
    "MAX_CHAT",
    "REACTIONS",
    "SPECTATOR_NAME",
    "ChatLimiter",
    "chat_history",
    "chat_message",
    "clean_chat",
    "post_chat",
    "post_reaction",
]

CHAT_BURST = 5
"""Chat messages a connection may send within :data:`CHAT_WINDOW` seconds."""
CHAT_WINDOW = 10.0


async def post_chat(room: Room, member: Member, text: str, reaction: dict[str, Any] | None = None) -> None:
    """A chat message (already cleaned), stored, then sent to every member of ``room``.  A
    spectator (or a late arrival still watching) is named :data:`SPECTATOR_NAME`.  A reaction's
    fields (``reaction``, ``to``) go with the live message only: the store keeps its text."""
    async with room.lock:
        await room.commit(room.decide_chat(member.seat, text, time.time(), reaction))


async def post_reaction(room: Room, member: Member, reaction: str, to: int | None) -> None:
    """A quick reaction, maybe aimed at a seat (``to``: a player's or a bot's seat of the room,
    not the sender's own; a spectator has no seat, so none is ever aimed at).  Its chat line reads
    "👏 → Bob"; everyone's page shows it as a bubble over the sender's seat."""
    text = reaction_text(room.seats, member.seat, reaction, to)
    await post_chat(room, member, text, {"reaction": reaction, "to": to})


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
