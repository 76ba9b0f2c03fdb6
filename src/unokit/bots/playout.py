"""The search's quick playout policy: how a good player plays, in a few lines.

:class:`~unokit.bots.ismcts.IsmctsBot` plays it in its quick playouts; the compiled engine plays the same
policy (:func:`unokit.fast.engine.playout_action`).
"""

from __future__ import annotations

import random

from unokit.engine.actions import ActionType
from unokit.engine.cards import CARD_COLOUR, CARD_IS_WILD, CARD_KIND, Kind
from unokit.engine.game import Game

_PLAYS = frozenset({ActionType.PLAY, ActionType.PLAY_UNO})
PLAYOUT_ATTACKS = frozenset(
    {Kind.DRAW_TWO, Kind.SKIP, Kind.WILD_DRAW_FOUR, Kind.WILD_DRAW_TWO, Kind.WILD_SKIP, Kind.WILD_SKIP_TWO}
)
"""The kinds the quick playout policy attacks with when the next player is close to going out."""


def playout_action(game: Game, seat: int, legal: tuple[int, ...], types: list[ActionType], rng: random.Random) -> int:
    """A quick version of how a good player plays: play a card when possible (calling
    UNO), a coloured card of the colour held most, keeping wild cards for when nothing
    else plays, and an attacking card when the next player is close to going out; name
    the colour held most; accept a Wild Draw Four; otherwise pick at random."""
    space = game.actions
    args = space.args
    plays = [a for a in legal if types[a] in _PLAYS]
    hand = game.hands[seat]
    if plays:
        calls = [a for a in plays if types[a] == ActionType.PLAY_UNO]
        pool = calls or plays
        if len(pool) == 1:
            return pool[0]
        counts = [0] * 6
        for card in hand:
            counts[CARD_COLOUR[card]] += 1
        close = len(game.hands[game.next_seat(seat)]) <= 2
        best = -1.0
        chosen = pool[0]
        for action in pool:
            card = args[action]
            score = 0.0 if CARD_IS_WILD[card] else 10.0 + counts[CARD_COLOUR[card]]
            if close and CARD_KIND[card] in PLAYOUT_ATTACKS:
                score += 20.0
            score += rng.random()
            if score > best:
                best, chosen = score, action
        return chosen
    kind = types[legal[0]]
    if kind == ActionType.COLOUR:
        counts = [0] * 6
        for card in hand:
            counts[CARD_COLOUR[card]] += 1
        return max(legal, key=lambda a: counts[args[a]])
    if kind == ActionType.CHALLENGE:
        return space.accept
    return legal[0] if len(legal) == 1 else rng.choice(legal)
