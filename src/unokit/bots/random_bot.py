"""A bot that plays uniformly at random among its legal actions.

>>> from unokit.engine.game import Game
>>> game = Game("classic", 2, seed=3)
>>> bot = RandomBot(seed=1)
>>> bot.choose(game.view(game.actor)) in game.legal_actions(game.actor)
True
"""

from __future__ import annotations

import random
from typing import Any

from unokit.bots.base import interrupt_actions, jump_actions, non_interrupt_actions
from unokit.editions import get_edition
from unokit.engine.views import View

__all__ = ["RandomBot"]


class RandomBot:
    """Uniformly random legal actions (turn decisions only; calls and catches come through
    :meth:`wants_interrupt`, which calls UNO for itself or catches another player each with
    probability 1/2, then jumps in with probability 1/2)."""

    def __init__(self, seed: int = 0, edition: str = "classic", name: str = "random", **options: Any) -> None:
        if options:
            from unokit.engine.errors import UnknownOptionError

            raise UnknownOptionError(f"unknown option(s) for a random bot: {', '.join(sorted(options))}")
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, view: View) -> int:
        """A uniformly random legal action that is not a call or catch (if there is one)."""
        legal = view.legal_actions
        space = get_edition(view.edition).actions
        moves = non_interrupt_actions(space, legal) or legal
        return moves[0] if len(moves) == 1 else self.rng.choice(moves)

    def wants_interrupt(self, view: View) -> int | None:
        """Each call or catch on offer, then each jump-in, is taken with probability 1/2 (the first
        taken wins)."""
        space = get_edition(view.edition).actions
        for action in interrupt_actions(space, view.legal_actions):
            if self.rng.random() < 0.5:
                return action
        for action in jump_actions(space, view.legal_actions):
            if self.rng.random() < 0.5:
                return action
        return None
