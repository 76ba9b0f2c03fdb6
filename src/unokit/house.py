"""House rules: options beyond the printed sheets, played by :class:`HouseGame`.

A :class:`~unokit.game.Game` built with every house rule off (``Rules.house_on`` false)
is a plain ``Game`` and runs none of this code.  With one on, ``Game(...)`` (and
``Game.blank``, ``clone``, replays and determinization, which all build through it)
returns a :class:`HouseGame`: the same engine with a few hooks overridden.  The rules
are defined in docs/rules.md ("House rules").

>>> from unokit.game import Game
>>> type(Game("classic", 3, seed=1)).__name__, type(Game("classic", 3, seed=1, rules={"call_uno": False})).__name__
('Game', 'HouseGame')
"""

from __future__ import annotations

from typing import Any

from unokit.actions import ActionType
from unokit.cards import CARD_COLOUR, CARD_IS_WILD, CARD_KIND
from unokit.game import OP_END_ROUND, Game

_PLAY_UNO = int(ActionType.PLAY_UNO)


class HouseGame(Game):
    """A game with at least one house rule on."""

    def _init_state(self, edition: Any, players: int, seed: int | None, rules: Any) -> None:
        super()._init_state(edition, players, seed, rules)
        self.silent = not self.rules.call_uno
        """Silent UNO: no calls, no catches."""

    # ------------------------------------------------------------------ legal actions

    def _actor_actions(self) -> tuple[int, ...]:
        ids = super()._actor_actions()
        if self.silent:
            types = self._types
            ids = tuple(a for a in ids if types[a] != _PLAY_UNO)
        return ids

    # ------------------------------------------------------------------ mechanics

    def play_card(self, seat: int, card: int, called: bool) -> None:
        """As :meth:`Game.play_card`; a player left with one card is exposed only when calls are played."""
        hand = self.hands[seat]
        hand.remove(card)
        self.discard_pile.append(card)
        self.events.append(("play", seat, 1 if called else 0, (card,)))
        if not CARD_IS_WILD[card]:
            self.colour = CARD_COLOUR[card]
        left = len(hand)
        if left == 1 and not called and not self.silent:
            self.exposed.append(seat)
        kind = CARD_KIND[card]
        if left == 0:
            self.ops.append((OP_END_ROUND, seat, 0))
            final = self._final_effects[kind]
            if final is not None:
                final(self, seat, card)
            self.run_ops()
            return
        effect = self._effects[kind]
        if effect is None:
            self.end_turn(seat, 0)
            return
        effect(self, seat, card)
        self.run_ops()

    def expose_if_single(self, seat: int) -> None:
        if not self.silent:
            super().expose_if_single(seat)

    # ------------------------------------------------------------------ state

    def house_state(self) -> dict[str, Any]:
        """The house rules' public state (for views and determinization)."""
        return {}

    def restore_house_state(self, state: dict[str, Any]) -> None:
        """Set the house state of a sampled game from :meth:`house_state`."""

    def state_key(self) -> tuple[Any, ...]:
        return (*super().state_key(), tuple(sorted(self.house_state().items())))
