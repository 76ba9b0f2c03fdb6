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
from typing import TYPE_CHECKING, Any

from unokit.web.settings import RoomError, new_secret
from unokit.web.storage import StorageError, hash_secret

if TYPE_CHECKING:
    from unokit.web.rooms import Member, Room

__all__ = ["check_rematch", "moved_message", "rematch_status", "start_rematch", "vote_rematch"]

log = logging.getLogger("unokit.web")


def moved_message(room: Room) -> dict[str, Any] | None:
    """``moved`` (``seat: null``) for whoever opens a room whose rematch has begun: its old links
    (invite, resume) lead to the rematch; ``None`` for any other room."""
    if room.moved_to is None:
        return None
    return {"type": "moved", "code": room.moved_to, "seat": None}


def rematch_status(room: Room) -> dict[str, Any] | None:
    """``update.rematch``: ``None`` until the match is over, then the seats that voted and the
    connected players still to vote."""
    if room.game is None or not room.game.is_over:
        return None
    waiting = [seat for seat in room.connected_humans() if seat not in room.votes]
    return {"votes": sorted(room.votes), "waiting": waiting}


async def vote_rematch(room: Room, member: Member) -> None:
    """A player of the finished match asks for a rematch; it begins once every connected player has."""
    async with room.lock:
        if room.game is None or not room.game.is_over:
            raise RoomError("forbidden", "error.rematch_over")
        if member.seat is None or room.seats[member.seat].kind != "human":
            raise RoomError("forbidden", "error.rematch_players")
        if room.moved_to is not None:  # too late: the rematch has begun without this seat
            member.send({"type": "moved", "code": room.moved_to, "seat": None})
            return
        room.votes.add(member.seat)
        begun = False
        try:
            begun = await check_rematch(room)
        finally:
            if not begun:  # the vote shows (also when the store refused the new room)
                room.changed()


async def check_rematch(room: Room) -> bool:
    """Begin the rematch if every connected player voted for it (at least one is connected);
    whether it began.  The room's lock is held."""
    if room.moved_to is not None or not room.votes or room.game is None or not room.game.is_over:
        return False
    connected = room.connected_humans()
    if not connected or any(seat not in room.votes for seat in connected):
        return False
    await start_rematch(room)
    return True


async def start_rematch(room: Room) -> Room:
    """Create, store and start the rematch of ``room`` and send its members ``moved``; returns the
    new room.  The old room's lock is held."""
    kept = room.connected_humans()
    secrets_of: dict[int, str] = {}

    def seat_players(new: Room) -> None:
        now = time.monotonic()
        for old, seat in zip(room.seats, new.seats, strict=True):
            if old.index in kept:
                secret = new_secret()
                secrets_of[old.index] = secret
                seat.kind, seat.name, seat.secret_hash = "human", old.name, hash_secret(secret)
                seat.rule_cards = list(old.rule_cards) if old.rule_cards is not None else None
                seat.avatar, seat.colour = old.avatar, old.colour
                seat.away_since = now  # until they arrive, as after a reload
            else:
                seat.empty("bot")
        new.host = room.host if room.host in kept else kept[0]

    def carry_chat(new: Room) -> None:
        seat_players(new)
        new.chat_log.extend(room.chat_log)
        new.chat_next = room.chat_next

    new = await room.hub.new_room(room.settings, prepare=carry_chat)
    async with new.lock:
        await new.start_match()
    room.moved_to = new.code
    try:  # the old room's chat in the new one's store, and the old code leading there
        await room.hub.store.run(room.hub.storage.set_moved, room.code, new.code, list(room.chat_log))
    except StorageError as exc:  # the rematch has begun all the same: only a reload loses the way
        log.warning("room %s: the rematch could not be stored as its sequel: %s", room.tag, exc)
    for member in list(room.members):
        index = member.seat
        if index is not None and index in secrets_of:
            member.send({"type": "moved", "code": new.code, "seat": index, "secret": secrets_of[index]})
        else:
            member.send({"type": "moved", "code": new.code, "seat": None})
    return new
