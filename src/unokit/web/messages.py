"""Parts of the server's messages: a legal action as an ``update`` lists it, and how a rule card reads."""

from __future__ import annotations

from typing import Any

from unokit.editions import rulecards
from unokit.engine.actions import ActionType
from unokit.engine.cards import card_name, colour_letter
from unokit.engine.game import Game
from unokit.engine.views import View
from unokit.narrate import describe_action
from unokit.web.settings import RoomError

__all__ = ["legal_entry", "read_rule_message", "reading_entry"]


_CARD_ACTIONS = frozenset(
    {ActionType.PLAY, ActionType.PLAY_UNO, ActionType.DISCARD, ActionType.GIVE, ActionType.JUMP, ActionType.JUMP_UNO}
)
_SEAT_ACTIONS = frozenset({ActionType.TARGET, ActionType.CATCH})


def legal_entry(game: Game, view: View, action: int, names: list[str]) -> dict[str, Any]:
    """A legal action as an ``update`` lists it: notation, words, and what it is (from the engine's decoding).

    ``type`` is the :class:`~unokit.engine.actions.ActionType` in lower case; ``card`` the card it plays,
    discards or gives, ``seat`` the seat it targets or catches, ``colour`` the colour it names
    (each ``None`` when the action has none)."""
    kind, arg = game.actions.decode(action)
    return {
        "action": game.actions.format(action),
        "label": describe_action(game, view, action, names),
        "type": kind.name.lower(),
        "card": card_name(arg) if kind in _CARD_ACTIONS else None,
        "seat": arg if kind in _SEAT_ACTIONS else None,
        "colour": colour_letter(arg) if kind is ActionType.COLOUR else None,
    }


def reading_entry(text: str) -> dict[str, Any]:
    """A rule card as the lobby shows its writer: text, reading, enforced or not."""
    card = rulecards.read_rule(text)
    return {"text": card.text, "reading": card.reading(), "enforced": card.enforced}


def read_rule_message(text: str) -> dict[str, Any]:
    """The ``reading`` answer to a ``read_rule`` request."""
    try:
        card = rulecards.read_rule(text)
    except rulecards.RuleTextError as exc:
        raise RoomError("bad-rule-card", str(exc)) from None
    return {"type": "reading", "text": card.text, "reading": card.reading(), "enforced": card.enforced}
