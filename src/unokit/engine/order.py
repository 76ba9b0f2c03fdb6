"""A fair order for decisions out of turn: who is asked first to call or catch UNO.

While a player holds one card without having called UNO, that player may call and everyone else
may catch them: at a real table the fastest voice wins the race.  Software asks one seat at a
time, and asking by seat number gave seat 0 the race in nearly every window.  Instead, the seats
are ranked by a hash of the game's *order key* (from its seed), the number of moves so far and the
seat: a fresh, uniformly random-looking permutation for every position, the same every time the
game is replayed, and drawn without touching the game's own random generator (so the game's
future does not change).  :mod:`unokit.fast.order` computes exactly the same ranks for the
compiled engine.  :func:`out_of_turn_order` puts the seats asked out of turn in that order (those
who may only jump in after them, nearest first), for every adapter that asks one seat at a time.

>>> key = order_key(7)
>>> sorted(range(4), key=lambda seat: order_rank(key, 12, seat)) == fair_order(key, 12, range(4))
True
>>> fair_order(key, 12, range(4)) != fair_order(key, 13, range(4))
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from unokit.engine.actions import INTERRUPT_TYPES

if TYPE_CHECKING:
    from unokit.engine.game import Game

__all__ = ["fair_order", "mix32", "order_key", "order_rank", "out_of_turn_order"]

_MASK = 0xFFFFFFFF


def mix32(x: int) -> int:
    """A 32-bit integer hash (the low 32 bits of ``x`` in; multipliers below 2**31)."""
    x &= _MASK
    x ^= x >> 16
    x = (x * 0x7FEB352D) & _MASK
    x ^= x >> 15
    x = (x * 0x2C1B3C6D) & _MASK
    x ^= x >> 16
    return x


def order_key(seed: int, index: int = 0) -> int:
    """The order key of game ``index`` of ``seed`` (a :class:`~unokit.engine.game.Game` with that
    seed: index 0): 32 bits."""
    return mix32(mix32(mix32(seed & _MASK) ^ ((seed >> 32) & _MASK) ^ 0x5851F42D) ^ (index & _MASK))


def order_rank(key: int, moves: int, seat: int) -> int:
    """``seat``'s rank after ``moves`` moves of the game of order ``key``: the lowest is asked first
    (a hash, then the seat in the low four bits, so no two seats tie)."""
    return (mix32(key ^ mix32((moves << 4) | seat)) << 4) | seat


def fair_order(key: int, moves: int, seats: Iterable[int]) -> list[int]:
    """``seats`` in the order they are asked after ``moves`` moves (lowest :func:`order_rank` first)."""
    return sorted(seats, key=lambda seat: order_rank(key, moves, seat))


def out_of_turn_order(game: Game) -> list[int]:
    """The seats other than the actor asked now, in the order they are asked.

    While a Jump-In window is open (public: the card just played), every seat in play but the
    actor and that card's player is asked, in play order, whether or not it holds the card: who
    is asked tells nothing of the hands (a seat without the card may only wait)."""
    deciders = game.deciders()
    actor = game.actor
    jump_from = getattr(game, "jump_from", -1) if getattr(game, "jump_card", -1) >= 0 else None
    if jump_from is None and len(deciders) <= 1 and (not deciders or deciders[0] == actor):
        return []
    types = game.actions.types
    others = [seat for seat in deciders if seat != actor and game.legal_actions(seat)]
    if jump_from is not None:
        out: frozenset[int] = getattr(game, "out", frozenset())
        others += [s for s in game.seats_in() if s not in (actor, jump_from) and s not in out and s not in others]
    first = [seat for seat in others if any(types[a] in INTERRUPT_TYPES for a in game.legal_actions(seat))]
    order = fair_order(game.order_key, game.moves, first)
    for step in range(1, game.n):
        seat = game.next_seat(actor, step)
        if seat in others and seat not in order:
            order.append(seat)
    order += [seat for seat in others if seat not in order]
    return order
