"""The rematch: a new room with the same settings and seats, its match begun at once.

When every player of a finished match who is connected has voted (``rematch``), the hub
creates a new room with the same settings (edition, seats, rules, bots, room options).
Each player who is connected keeps their seat, name and rule cards, with a new secret;
a player who is not connected is replaced by a bot; bots stay bots.  The host is the old
host if they are among the players kept, else the first of them.  The match begins at
once, and every member of the old room is sent ``moved``: a player with their seat and
new secret, a spectator with ``seat: null``.  The rematch takes the old room's chat with it, and
the old room's code leads there from then on (:func:`moved_message`, stored).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from unokit.web.core.rematch import moved_message as moved_to_message
from unokit.web.core.rematch import seat_rematch
from unokit.web.core.writes import SetMoved
from unokit.web.rooms import Member, Room
from unokit.web.settings import RoomError, new_secret
from unokit.web.storage import hash_secret

__all__ = ["check_rematch", "moved_message", "rematch_status", "start_rematch", "vote_rematch"]

log = logging.getLogger("unokit.web")


def moved_message(room: Room) -> dict[str, Any] | None:
    """``moved`` (``seat: null``) for whoever opens a room whose rematch has begun: its old links
    (invite, resume) lead to the rematch; ``None`` for any other room."""
    return moved_to_message(room.moved_to) if room.moved_to is not None else None


def rematch_status(room: Room) -> dict[str, Any] | None:
    """``update.rematch``: ``None`` until the match is over, then the seats that voted and the
    connected players still to vote."""
    return room.rematch_message()


async def vote_rematch(room: Room, member: Member) -> None:
    """A player of the finished match asks for a rematch; it begins once every connected player has."""
    async with room.lock:
        if not room.vote(member.seat):  # too late: the rematch has begun without this seat
            assert room.moved_to is not None
            member.send(moved_to_message(room.moved_to))
            return
        begun = False
        try:
            begun = await check_rematch(room)
        finally:
            if not begun:  # the vote shows (also when the store refused the new room)
                room.changed()


async def check_rematch(room: Room) -> bool:
    """Begin the rematch if every connected player voted for it (at least one is connected);
    whether it began.  The room's lock is held."""
    if not room.rematch_due():
        return False
    await start_rematch(room)
    return True


async def start_rematch(room: Room) -> Room:
    """Create, store and start the rematch of ``room`` and send its members ``moved``; returns the
    new room.  The old room's lock is held."""
    kept = room.connected_humans()
    secrets_of = {seat: new_secret() for seat in kept}

    def carry_chat(new: Room) -> None:
        hashes = {seat: hash_secret(secret) for seat, secret in secrets_of.items()}
        new.host = seat_rematch(room.seats, new.seats, kept, hashes, room.host, time.monotonic())
        new.chat_log.extend(room.chat_log)
        new.chat_next = room.chat_next

    new = await room.hub.new_room(room.settings, prepare=carry_chat)
    async with new.lock:
        await new.start_match()
    room.moved_to = new.code
    try:  # the old room's chat in the new one's store, and the old code leading there
        await room.perform(SetMoved(new.code, list(room.chat_log)))
    except RoomError as exc:  # the rematch has begun all the same: only a reload loses the way
        log.warning("room %s: the rematch could not be stored as its sequel: %s", room.tag, exc.message)
    for member in list(room.members):
        index = member.seat
        secret = secrets_of.get(index) if index is not None else None
        member.send(moved_to_message(new.code, index if secret is not None else None, secret))
    return new
