"""What a chat line may hold, and the messages that carry it.

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

import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from unokit.web.core.rows import ChatRow
from unokit.web.core.seats import Seat, seat_names
from unokit.web.settings import RoomError

__all__ = [
    "CHAT_HISTORY",
    "MAX_CHAT",
    "REACTIONS",
    "SPECTATOR_NAME",
    "chat_history",
    "chat_message",
    "chat_row",
    "clean_chat",
    "reaction_text",
]

MAX_CHAT = 200
"""The longest chat message, in characters (after trimming)."""
CHAT_HISTORY = 50
"""Chat messages sent to a member when it joins (``chat_history``), and kept in memory per room."""
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


def chat_row(number: int, seats: Sequence[Seat], seat: int | None, text: str, now: float) -> ChatRow:
    """The room's chat line ``number`` from ``seat`` (``None``: a spectator, or a late arrival
    still watching, named :data:`SPECTATOR_NAME`), sent at ``now`` (wall clock)."""
    name = seats[seat].name if seat is not None else SPECTATOR_NAME
    return ChatRow(number, seat, name, text, round(now, 3))


def reaction_text(seats: Sequence[Seat], sender: int | None, reaction: str, to: int | None) -> str:
    """A quick reaction's chat line, maybe aimed at a seat (``to``: a player's or a bot's seat, not
    the sender's own): "👏 → Bob".

    >>> reaction_text([Seat(0, "Ann", "human"), Seat(1, "Bob", "human")], 0, "👏", 1)
    '👏 → Bob'
    """
    if to is None:
        return reaction
    if to >= len(seats) or seats[to].kind == "open":
        raise RoomError("malformed", "error.react_nobody", seat=to)
    if to == sender:
        raise RoomError("malformed", "error.react_self")
    return f"{reaction} → {seat_names(seats)[to]}"


def chat_message(row: ChatRow) -> dict[str, Any]:
    """A ``chat`` message to the room's members."""
    return {"type": "chat", "id": row.id, "seat": row.seat, "name": row.name, "text": row.text, "time": row.time}


def chat_history(rows: Iterable[ChatRow]) -> dict[str, Any]:
    """The room's last chat messages (:data:`CHAT_HISTORY` at most are kept), sent to a member as it enters."""
    return {"type": "chat_history", "messages": [chat_message(row) for row in rows]}
