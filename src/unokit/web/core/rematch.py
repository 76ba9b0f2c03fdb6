"""The rematch's rules: who has voted, when it begins, and how the new room is seated.

When every player of a finished match who is connected has voted (``rematch``), a new room is
made with the same settings.  Each player who is connected keeps their seat, name, look and
rule cards, with a new secret; a player who is not connected is replaced by a bot; bots stay
bots.  The host is the old host if they are among the players kept, else the first of them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from unokit.web.core.seats import Seat

__all__ = ["moved_message", "rematch_ready", "rematch_status", "seat_rematch"]


def rematch_status(over: bool, votes: Collection[int], connected: Sequence[int]) -> dict[str, Any] | None:
    """``update.rematch``: ``None`` until the match is over, then the seats that voted and the
    connected players still to vote.

    >>> rematch_status(True, {2}, [0, 2])
    {'votes': [2], 'waiting': [0]}
    """
    if not over:
        return None
    return {"votes": sorted(votes), "waiting": [seat for seat in connected if seat not in votes]}


def rematch_ready(over: bool, moved: bool, votes: Collection[int], connected: Sequence[int]) -> bool:
    """Whether the rematch begins now: the match is over, it has not begun yet, and every connected
    player (at least one) voted for it.

    >>> rematch_ready(True, False, {0, 1}, [0, 1]), rematch_ready(True, False, {0}, [0, 1])
    (True, False)
    """
    if moved or not votes or not over or not connected:
        return False
    return all(seat in votes for seat in connected)


def seat_rematch(
    old: Sequence[Seat],
    new: Sequence[Seat],
    kept: Sequence[int],
    hashes: Mapping[int, str],
    host: int | None,
    now: float,
) -> int:
    """Seat the rematch's ``new`` seats from the ``old`` room's: the players ``kept`` (each with the
    hash of their new secret, away from ``now`` until they arrive), bots for everyone else; returns
    its host."""
    for before, seat in zip(old, new, strict=True):
        if before.index in kept:
            seat.kind, seat.name, seat.secret_hash = "human", before.name, hashes[before.index]
            seat.rule_cards = list(before.rule_cards) if before.rule_cards is not None else None
            seat.avatar, seat.colour = before.avatar, before.colour
            seat.away_since = now
        else:
            seat.empty("bot")
    return host if host is not None and host in kept else kept[0]


def moved_message(moved_to: str, seat: int | None = None, secret: str | None = None) -> dict[str, Any]:
    """``moved``: the rematch's code, with a kept player's seat and new secret (a spectator's, or
    anyone opening the old room later: ``seat: null``).

    >>> moved_message("ABCDEFGH")
    {'type': 'moved', 'code': 'ABCDEFGH', 'seat': None}
    """
    message: dict[str, Any] = {"type": "moved", "code": moved_to, "seat": seat}
    if secret is not None:
        message["secret"] = secret
    return message
