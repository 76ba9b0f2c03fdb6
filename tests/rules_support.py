"""Small helpers shared by the rule tests: legal actions, hands and events in notation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from unokit import Game, Rules
from unokit.engine.cards import card_name
from unokit.engine.deck import stacked_deck

NamedEvent = tuple[str, int, int, tuple[Any, ...]]


def legal(game: Game, seat: int) -> list[str]:
    """``seat``'s legal actions in notation."""
    return [game.actions.format(a) for a in game.legal_actions(seat)]


def hand(game: Game, seat: int) -> list[str]:
    """``seat``'s hand in notation, sorted."""
    return sorted(card_name(c) for c in game.hands[seat])


def names(cards: Sequence[int]) -> list[str]:
    """Cards in notation, in order."""
    return [card_name(c) for c in cards]


def sizes(game: Game) -> list[int]:
    """Every hand's size, by seat."""
    return [len(h) for h in game.hands]


def events_since(game: Game, index: int) -> list[NamedEvent]:
    """The events from ``index`` on, with card names instead of card integers (scores stay numbers)."""
    out: list[NamedEvent] = []
    for kind, seat, value, data in game.events[index:]:
        shown = data if kind in ("round_end", "match_end") else tuple(names(data))
        out.append((kind, seat, value, shown))
    return out


def stacked_game(
    edition: str,
    hands: Sequence[Sequence[str]],
    start: str,
    draw: Sequence[str] = (),
    *,
    dealer: int | None = None,
    seed: int = 1,
    **options: Any,
) -> Game:
    """A game of ``edition`` dealing exactly ``hands`` (hand size taken from the hands; by default
    the last seat deals, so seat 0 plays first)."""
    n = len(hands)
    dealer = n - 1 if dealer is None else dealer
    rules = Rules.from_dict({"hand_size": len(hands[0]), **options})
    order = stacked_deck(edition, hands=hands, start=start, draw=draw, dealer=dealer, rules=rules)
    return Game(edition, n, seed=seed, deck=order, dealer=dealer, rules=rules)
