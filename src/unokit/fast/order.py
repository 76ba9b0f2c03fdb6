"""The fair out-of-turn order of :mod:`unokit.engine.order`, compiled.

The same hash of (the game's order key, the moves so far, the seat) ranks the seats that may call
or catch UNO; the compiled engine's decision cycle (:func:`unokit.fast.engine.asked`) and its bots'
runner (:func:`unokit.fast.heuristic.bot_decision`) ask them lowest rank first.  Nothing here
allocates or draws from a game's generator.  ``tests/test_out_of_turn_order.py`` holds these
functions equal to the Python ones on many inputs.

>>> from unokit.engine import order
>>> order_rank(order.order_key(7), 12, 3) == order.order_rank(order.order_key(7), 12, 3)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from unokit.fast import MISSING_EXTRA
from unokit.fast.compiling import jit

try:
    import numba as nb
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(MISSING_EXTRA) from error

__all__ = ["mix32", "next_by_rank", "order_key", "order_rank"]

if TYPE_CHECKING:  # numba's type hints do not name the option
    _jit = nb.njit(cache=True, nogil=True)
else:
    _jit = jit(cache=True, nogil=True, _nrt=False)


@_jit
def mix32(x: int) -> int:
    """A 32-bit hash, :func:`unokit.engine.order.mix32` (multipliers below 2**31, so that no product
    leaves 63 bits); the compiled engine seeds its generators with it too."""
    x &= 0xFFFFFFFF
    x ^= x >> 16
    x = (x * 0x7FEB352D) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 0x2C1B3C6D) & 0xFFFFFFFF
    x ^= x >> 16
    return x


@_jit
def order_key(seed: int, index: int) -> int:
    """:func:`unokit.engine.order.order_key` (``seed`` below 2**62, ``index`` below 2**32)."""
    return mix32(mix32(mix32(seed & 0xFFFFFFFF) ^ ((seed >> 32) & 0xFFFFFFFF) ^ 0x5851F42D) ^ (index & 0xFFFFFFFF))


@_jit
def order_rank(key: int, moves: int, seat: int) -> int:
    """:func:`unokit.engine.order.order_rank`: the lowest is asked first."""
    return (mix32(key ^ mix32((moves << 4) | seat)) << 4) | seat


@_jit
def next_by_rank(key: int, moves: int, candidates: int, after: int) -> int:
    """The seat among ``candidates`` (bits) of the lowest rank above ``after`` (-1: the first),
    or -1 if none is left."""
    best = -1
    best_rank = -1
    seat = 0
    while candidates >> seat:
        if (candidates >> seat) & 1:
            rank = order_rank(key, moves, seat)
            if rank > after and (best < 0 or rank < best_rank):
                best = seat
                best_rank = rank
        seat += 1
    return best
