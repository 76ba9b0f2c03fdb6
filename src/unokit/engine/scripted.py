"""A random generator that hands a :class:`~unokit.engine.game.Game` results drawn before.

A game draws its randomness from ``game.rng`` only: shuffles, the draw for the first dealer, a
dealer chosen at random, Space Jam's drops, Wild Jackpot's lever, rule-card orders and cards taken
at random.  :class:`ScriptedRandom` answers each of those calls with the next result of its script,
so that a game drawn by another generator (the compiled engine's, :mod:`unokit.fast`) is played
again exactly.  Each result is ``(kind, values)``:

``shuffle``
    the cards in their new order (a shuffle of the same cards);
``order``
    a shuffle of rule cards (or of the texts they are drawn from): the indices taken, in order;
``sample``
    cards drawn from a population (the dealer draw, cards taken at random);
``randrange``
    ``[number]``, below the bound asked (a dealer chosen at random);
``random``
    ``[1]`` when a Space Jam card lands Slam side up, ``[0]`` when not;
``uniform``
    ``[number]``, a 32-bit number: ``number / 2**32`` is the number from 0 to 1 drawn (the lever).

A result that does not fit the call (another kind, other cards, a number out of range) or a call
after the script's end raises :class:`ScriptError`, naming the result.

>>> rng = ScriptedRandom([("randrange", [2]), ("shuffle", [3, 1, 2])])
>>> rng.randrange(4)
2
>>> cards = [1, 2, 3]
>>> rng.shuffle(cards)
>>> cards, len(rng.drawn), len(rng.script)
([3, 1, 2], 2, 0)
>>> rng.randrange(4)
Traceback (most recent call last):
...
unokit.engine.scripted.ScriptError: random result 2: a number below 4 was drawn after the last result
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any

from unokit.engine.errors import RecordError

__all__ = ["KINDS", "ScriptError", "ScriptedRandom"]

KINDS = ("shuffle", "order", "sample", "randrange", "random", "uniform")
"""The kinds of result a script holds (see the module's docstring)."""


class ScriptError(RecordError):
    """A scripted game drew something its script does not hold."""


class ScriptedRandom:
    """The generator of a game whose random results are given in order (``script``)."""

    def __init__(self, script: Iterable[tuple[str, Sequence[int]]] = ()) -> None:
        self.script: deque[tuple[str, list[int]]] = deque((kind, list(values)) for kind, values in script)
        """The results still to be handed out (more may be added at the end)."""
        self.drawn: list[tuple[str, list[int]]] = []
        """The results handed out so far, in order."""

    def fail(self, what: str) -> None:
        """Raise the error of a result that does not fit (a subclass may raise another)."""
        raise ScriptError(what)

    def _next(self, wanted: str) -> tuple[str, list[int]]:
        if not self.script:
            self.fail(f"random result {len(self.drawn)}: {wanted} was drawn after the last result")
        result = self.script.popleft()
        self.drawn.append(result)
        return result

    def _check(self, condition: bool, what: str) -> None:
        if not condition:
            self.fail(f"random result {len(self.drawn) - 1}: {what}")

    def shuffle(self, items: list[Any]) -> None:
        kind, values = self._next(f"a shuffle of {len(items)} items")
        if kind == "order":  # rule cards (or the texts they are drawn from): the order drawn
            self._check(sorted(values) == list(range(len(items))), f"a shuffle of {len(items)} rule cards met {values}")
            items[:] = [items[i] for i in values]
            return
        self._check(kind == "shuffle", f"a shuffle of {len(items)} cards met {kind} {values}")
        self._check(sorted(values) == sorted(items), f"a shuffle of {len(items)} cards met {len(values)} other cards")
        items[:] = values

    def sample(self, population: Sequence[int], k: int) -> list[int]:
        kind, cards = self._next(f"a draw of {k} cards")
        self._check(kind == "sample" and len(cards) == k, f"a draw of {k} cards met {kind} {cards}")
        pool = list(population)
        for card in cards:
            self._check(card in pool, f"the card {card} drawn is not among those drawn from")
            pool.remove(card)
        return list(cards)

    def randrange(self, stop: int) -> int:
        kind, values = self._next(f"a number below {stop}")
        self._check(
            kind == "randrange" and len(values) == 1 and 0 <= values[0] < stop,
            f"a number below {stop} met {kind} {values}",
        )
        return values[0]

    def random(self) -> float:
        """The Jam drop: below any chance of Slam when the card landed Slam side up, else at or above
        any chance below 1; the lever: the 32-bit number drawn over ``2**32``."""
        kind, values = self._next("a number from 0 to 1")
        self._check(kind in ("uniform", "random") and len(values) == 1, f"a number from 0 to 1 met {kind} {values}")
        if kind == "uniform":
            self._check(0 <= values[0] < 2**32, f"a 32-bit number met {values[0]}")
            return values[0] / 2**32
        self._check(values[0] in (0, 1), f"a Slam side (0 or 1) met {values[0]}")
        return 0.0 if values[0] else 1.0 - 2.0**-53

    def choices(self, population: Sequence[Any], weights: Sequence[float] | None = None, *, k: int = 1) -> list[Any]:
        """As :meth:`random.Random.choices` (which draws through :meth:`random`)."""
        return random.Random.choices(self, population, weights, k=k)  # type: ignore[arg-type]

    def getstate(self) -> tuple[str, int, int]:
        """What tells two scripted games' generators apart: the results handed out and left."""
        return ("scripted", len(self.drawn), len(self.script))

    def __copy__(self) -> ScriptedRandom:
        """An independent generator at the same place."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.script = deque(self.script)
        other.drawn = list(self.drawn)
        return other
