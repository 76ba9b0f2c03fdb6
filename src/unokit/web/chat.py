"""The room chat: what a message may hold, how often a connection, an address and a room may send
one, and the room's log.

A chat line (or a reaction) is limited per connection (:class:`ChatLimiter`), per client address (all
its connections together: ``address_chat_per_minute``, :mod:`unokit.web.guard`) and per room
(:class:`RoomChatLimits`): each seat has its own share, however many connections hold it, and the
spectators one share together, so spectators never silence the players.

What a chat text may hold is the room core's rule (:func:`unokit.web.core.chat.clean_chat`).
"""

from __future__ import annotations

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
from unokit.web.rates import (
    CHAT_BURST,
    CHAT_WINDOW,
    SPECTATOR_CHAT_BURST,
    SPECTATOR_CHAT_WINDOW,
    ChatLimiter,
    RoomChatLimits,
)
from unokit.web.rooms import Member, Room
from unokit.web.settings import RoomError

__all__ = [
    "CHAT_BURST",
    "CHAT_HISTORY",
    "CHAT_WINDOW",
    "MAX_CHAT",
    "REACTIONS",
    "SPECTATOR_CHAT_BURST",
    "SPECTATOR_CHAT_WINDOW",
    "SPECTATOR_NAME",
    "ChatLimiter",
    "RoomChatLimits",
    "chat_history",
    "chat_message",
    "check_room_chat",
    "clean_chat",
    "post_chat",
    "post_reaction",
]


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


def check_room_chat(room: Room, member: Member) -> None:
    """Refuse (``rate-limited``) a chat message (or reaction) past the room's share for the member's
    seat, or for the spectators together (:class:`RoomChatLimits`)."""
    if room.chat_limits.allow(member.seat):
        return
    if member.seat is None:
        raise RoomError("rate-limited", "error.chat_room")
    raise RoomError("rate-limited", "error.chat_rate")
