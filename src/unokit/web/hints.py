"""Hints: the move the heuristic bot would make for a seat, from that seat's view alone.

:func:`hint_for` is handed one :class:`~unokit.engine.views.View` (the asking seat's: its own
hand, the sizes of the others', the public table) and nothing else, so a hint cannot depend on a
hidden card: the bot that answers is the one the room uses, which never sees more than a view.
The bot's seed is derived from the room's seed, the seat and the version, so asking twice for the
same decision gives the same answer.

>>> from unokit.engine.game import Game
>>> game = Game("classic", 2, seed=3)
>>> hint = hint_for(game.view(game.actor), seed=1)
>>> hint.action in game.legal_actions(game.actor)
True
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from unokit.bots import make_bot
from unokit.editions import get_edition
from unokit.engine.actions import ActionType
from unokit.engine.cards import CARD_COLOUR, CARD_IS_WILD, CARD_NUMBER, NO_COLOUR
from unokit.engine.views import View
from unokit.i18n import Translator, catalog, english

__all__ = ["HINT_BOT", "HINT_BURST", "HINT_WINDOW", "WHY", "WHY_IDS", "Hint", "hint_for", "hint_seed"]

HINT_BOT = "heuristic"
"""The bot whose move a hint shows (the rules-of-thumb player: quick, and its choices can be told)."""
HINT_BURST = 5
"""At most this many hints ..."""
HINT_WINDOW = 10.0
"""... per this many seconds, per connection."""

WHY_IDS = {
    "only": "hint.only",
    "draw-none": "hint.draw_none",
    "draw-keep": "hint.draw_keep",
    "uno": "hint.uno",
    "last": "hint.last",
    "attack": "hint.attack",
    "number": "hint.number",
    "match": "hint.match",
    "action": "hint.action",
    "wild": "hint.wild",
    "colour": "hint.colour",
    "challenge": "hint.challenge",
    "accept": "hint.accept",
    "pass": "hint.pass",
    "play-drawn": "hint.play_drawn",
    "target": "hint.target",
    "other": "hint.other",
}
"""The message said with each kind of hint."""

WHY = {reason: english(message_id) for reason, message_id in WHY_IDS.items()}
"""The sentence said with each kind of hint, in English."""


@dataclass(frozen=True)
class Hint:
    """The bot's move (an action of ``view.legal_actions``) and why, in a sentence."""

    action: int
    reason: str
    """The kind of hint: a key of :data:`WHY_IDS`."""

    @property
    def why(self) -> str:
        """Why, in English."""
        return WHY[self.reason]

    def words(self, lang: str | Translator = "en") -> str:
        """Why, in ``lang``."""
        return (catalog(lang) if isinstance(lang, str) else lang)(WHY_IDS[self.reason])


def hint_seed(room_seed: int, seat: int, version: int) -> int:
    """The hint bot's seed for a room's seat at a version (the same question, the same answer)."""
    return random.Random(f"hint:{room_seed}:{seat}:{version}").getrandbits(32)  # i18n: a seed, not words


def hint_for(view: View, seed: int) -> Hint:
    """The heuristic bot's move for the seat of ``view``, from that view only, and why."""
    bot = make_bot(HINT_BOT, seed=seed, edition=view.edition)
    action = bot.choose(view)
    return Hint(action, _why(view, action))


def _why(view: View, action: int) -> str:
    """The key of :data:`WHY` that explains ``action`` (rules of thumb read off the view)."""
    space = get_edition(view.edition).actions
    kind, arg = space.types[action], space.args[action]
    moves = [a for a in view.legal_actions if space.types[a] not in (ActionType.CALL_UNO, ActionType.CATCH)]
    if len(moves) == 1:
        return "only"
    plays = [a for a in moves if space.types[a] in (ActionType.PLAY, ActionType.PLAY_UNO)]
    if kind is ActionType.PLAY_UNO:
        return "uno"
    if kind is ActionType.PLAY:
        if len(view.hand) == 1:
            return "last"
        if view.phase == "drawn":
            return "play-drawn"
        if CARD_IS_WILD[arg]:
            return "wild"
        if CARD_NUMBER[arg] < 0:
            return "attack" if min(_others(view)) <= 2 else "action"
        colours = Counter(CARD_COLOUR[card] for card in view.hand if CARD_COLOUR[card] != NO_COLOUR)
        most = max(colours.values(), default=0)
        if colours[CARD_COLOUR[arg]] == most and list(colours.values()).count(most) == 1:
            return "number"
        return "match"
    if kind is ActionType.DRAW:
        return "draw-keep" if plays else "draw-none"
    if kind is ActionType.PASS:
        return "pass"
    if kind is ActionType.COLOUR:
        return "colour"
    if kind is ActionType.CHALLENGE:
        return "challenge"
    if kind is ActionType.ACCEPT:
        return "accept"
    if kind is ActionType.TARGET and view.phase == "target" and arg != view.seat:
        sizes = _others(view)
        return "target" if view.hand_sizes[arg] == min(sizes) else "other"
    return "other"


def _others(view: View) -> list[int]:
    """The hand sizes of the other seats."""
    return [size for seat, size in enumerate(view.hand_sizes) if seat != view.seat]
