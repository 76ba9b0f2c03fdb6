"""The pace of automatic play: pauses after what a change showed, and the bots' UNO race.

A bot (or the room's bot playing for a seat marked ``auto``) acts ``bot_delay`` seconds
after the last change, plus a pause for what that change showed, so that a player can
follow the table: ``bot_delay * pause_for(events)`` with :data:`PAUSE` per event kind.
With ``bot_delay`` 0 (the tests, the load bench) nothing waits.

While an UNO window is open, every bot that may call or catch is given a reaction time,
drawn from a generator seeded by the room's seed and the game's version
(:func:`reaction_times`): the bot with the earliest acts first, so the race is neither
settled by seat number nor different between two runs of the same room.

>>> pause_for([("play", 0, 0, (5,))])
0.0
>>> pause_for([("round_end", 1, 40, ()), ("draw", 2, 2, (1, 2))])
5.6
>>> reaction_times(7, 12, [(0, True), (2, False)]) == reaction_times(7, 12, [(2, False), (0, True)])
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from unokit.engine.events import Event

__all__ = [
    "CALL_REACTION",
    "CATCH_REACTION",
    "DEAL_PAUSE",
    "MAX_PAUSE",
    "PAUSE",
    "SEVERAL_CARDS_PAUSE",
    "pause_for",
    "reaction_times",
]

PAUSE: dict[str, float] = {
    "lever": 2.0,  # UNO Wild Jackpot: the lever's outcome
    "rule": 2.0,  # UNO Wild Jackpot: a rule card performed
    "jam": 2.0,  # Space Jam: the Jam side turned
    "round_end": 5.0,  # the round's result (the next round is dealt in the same change)
    "blocked": 1.5,  # nobody can play or draw: the round is blocked
    "swap": 1.5,  # hands swapped
    "reveal": 1.0,  # a hand shown after a challenge
    "take": 1.0,  # cards taken from another hand
    "pass_hands": 1.5,  # house rule: every hand passed on
    "stack": 0.5,  # house rule: a draw card added to a pending penalty
    "deflect": 0.5,  # house rule: a pending penalty sent on
    "jump": 0.5,  # house rule: a card played out of turn
    "bomb": 1.0,  # house rule: a set of three or more cards makes everyone draw
    "knockout": 1.5,  # house rule: a player out of the match
    "mercy": 1.5,  # house rule: a player out of the round
}
"""Extra pause after an event of each kind, in units of ``bot_delay`` (summed over a change's events)."""
SEVERAL_CARDS_PAUSE = 0.6
"""Extra pause after a ``draw`` of two cards or more (a penalty, a Draw Two, a catch)."""
MAX_PAUSE = 8.0
"""The longest extra pause after one change, in units of ``bot_delay``."""

DEAL_PAUSE = 1.5
"""After every player closed a round's results, the bots wait this many ``bot_delay`` longer, so that
the new deal is seen before anyone moves."""

JUMP_GRACE = 1.5
"""House rule Jump-In: while a jump-in window is open and a player sits at the table, a bot whose
turn it is waits this many ``bot_delay`` longer, so that a person has time to see the card and play
theirs (whether anyone holds it or not: the wait tells nothing)."""

CALL_REACTION = (0.0, 1.0)
"""A bot calling UNO for itself reacts within this many ``bot_delay`` after the change ..."""
CATCH_REACTION = (0.5, 1.5)
"""... and a bot catching another within this many: the caller is usually, not always, first."""


def pause_for(events: Iterable[Event]) -> float:
    """The extra pause (in units of ``bot_delay``) after a change that reported ``events``."""
    total = 0.0
    for kind, _seat, value, _data in events:
        total += PAUSE.get(kind, 0.0)
        if kind == "draw" and value >= 2:
            total += SEVERAL_CARDS_PAUSE
    return min(MAX_PAUSE, round(total, 6))


def reaction_times(seed: int, version: int, racers: Sequence[tuple[int, bool]]) -> dict[int, float]:
    """Each racer's reaction time in units of ``bot_delay``: ``racers`` are (seat, calls UNO
    for itself); the draws depend on the room's ``seed`` and the game's ``version`` only, one
    per seat in seat order (a seat's time does not depend on who else races)."""
    rng = random.Random(f"unokit race {seed} {version}")
    seats = max((seat for seat, _ in racers), default=-1) + 1
    draws = [rng.random() for _ in range(seats)]
    times = {}
    for seat, calling in racers:
        low, high = CALL_REACTION if calling else CATCH_REACTION
        times[seat] = low + draws[seat] * (high - low)
    return times
