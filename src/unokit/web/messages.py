"""Parts of the server's messages: a legal action as an ``update`` lists it, and how a rule card reads."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from unokit.editions import rulecards
from unokit.engine.actions import ActionType
from unokit.engine.cards import card_name, colour_letter
from unokit.engine.game import Game
from unokit.engine.views import View
from unokit.i18n import Translator, catalog
from unokit.narrate import describe_action
from unokit.web.settings import RoomError

__all__ = ["asks_words", "legal_entry", "read_rule_message", "reading_entry", "view_words"]


_CARD_ACTIONS = frozenset(
    {ActionType.PLAY, ActionType.PLAY_UNO, ActionType.DISCARD, ActionType.GIVE, ActionType.JUMP, ActionType.JUMP_UNO}
)
_SEAT_ACTIONS = frozenset({ActionType.TARGET, ActionType.CATCH})


def asks_words(view: View, you: bool, t: Translator) -> str:
    """What the actor is asked (``Game.asks``) in the language of ``t``: spoken to them when ``you``."""
    key = "ask." + view.phase.replace("-", "_")  # i18n: the id of a phase's words
    return t(key + ".you") if you else t(key + ".other")  # i18n: ids


def legal_entry(game: Game, view: View, action: int, names: list[str], t: Translator | None = None) -> dict[str, Any]:
    """A legal action as an ``update`` lists it: notation, words, and what it is (from the engine's decoding).

    ``type`` is the :class:`~unokit.engine.actions.ActionType` in lower case; ``card`` the card it plays,
    discards or gives, ``seat`` the seat it targets or catches, ``colour`` the colour it names
    (each ``None`` when the action has none)."""
    kind, arg = game.actions.decode(action)
    return {
        "action": game.actions.format(action),
        "label": describe_action(game, view, action, names, t or catalog("en")),
        "type": kind.name.lower(),
        "card": card_name(arg) if kind in _CARD_ACTIONS else None,
        "seat": arg if kind in _SEAT_ACTIONS else None,
        "colour": colour_letter(arg) if kind is ActionType.COLOUR else None,
    }


@lru_cache(maxsize=4096)
def _reading(text: str, lang: str) -> tuple[str, str, bool]:
    """How rule card ``text`` reads in ``lang``, and whether it is enforced (the same for every member
    of that language: kept, as the cards are read again in every update)."""
    card = rulecards.read_rule(text)
    return card.text, card.reading(lang), card.enforced


def reading_entry(text: str, t: Translator | None = None) -> dict[str, Any]:
    """A rule card as the lobby shows its writer: text, reading (in the language of ``t``), enforced or not."""
    cleaned, reading, enforced = _reading(text, t.lang if t is not None else "en")
    return {"text": cleaned, "reading": reading, "enforced": enforced}


def read_rule_message(text: str, t: Translator | None = None) -> dict[str, Any]:
    """The ``reading`` answer to a ``read_rule`` request."""
    try:
        card = rulecards.read_rule(text)
    except rulecards.RuleTextError as exc:
        raise RoomError("bad-rule-card", "error.detail", detail=exc.words) from None
    reading = card.reading(t or catalog("en"))
    return {"type": "reading", "text": card.text, "reading": reading, "enforced": card.enforced}


def view_words(view: View, t: Translator) -> dict[str, Any]:
    """``view.to_dict`` (without history, with the last round's result only) with the words in it, the rule
    cards' readings, in the language of ``t``."""
    data = view.to_dict(history=False, last_rounds=1)
    shown = data["public"].get("rule_cards_shown")
    if shown:
        data["public"]["rule_cards_shown"] = [[rid, text, reading_entry(text, t)["reading"]] for rid, text, _ in shown]
    return data
