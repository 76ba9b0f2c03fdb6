"""Explicit deck orders, for tests, puzzles and bug reports.

>>> hands = [["R1", "R2", "R3", "R4", "R5", "R6", "R7"], ["B1", "B2", "B3", "B4", "B5", "B6", "B7"]]
>>> order = stacked_deck("classic", hands=hands, start="G5", draw=["W"], dealer=1)
>>> [card_name(c) for c in order[:4]], card_name(order[14]), card_name(order[15])
(['R1', 'B1', 'R2', 'B2'], 'G5', 'W')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from unokit.engine.cards import card_name, parse_card
from unokit.engine.edition import Edition, get_edition
from unokit.engine.errors import SetupError
from unokit.engine.rules import Rules


def stacked_deck(
    edition: str | Edition,
    hands: Sequence[Sequence[str | int]],
    start: str | int,
    draw: Sequence[str | int] = (),
    *,
    dealer: int = 0,
    rules: Rules | None = None,
) -> list[int]:
    """A full deck order (top first) that deals ``hands[seat]`` to each seat, turns
    up ``start``, and then has ``draw`` on top of the draw pile (the rest follows,
    sorted).  Every hand must hold the rules' hand size."""
    ed = edition if isinstance(edition, Edition) else get_edition(edition)
    rules = rules or Rules()
    n = len(hands)
    parsed = [[_card(c) for c in hand] for hand in hands]
    if any(len(hand) != rules.hand_size for hand in parsed):
        raise SetupError(f"every hand must hold {rules.hand_size} cards")
    if not 0 <= dealer < n:
        raise SetupError(f"dealer must be a seat from 0 to {n - 1}")
    order: list[int] = []
    for index in range(rules.hand_size):
        for offset in range(1, n + 1):
            order.append(parsed[(dealer + offset) % n][index])
    order.append(_card(start))
    order += [_card(c) for c in draw]
    rest = Counter(ed.deck_cards(rules))
    rest.subtract(order)
    missing = [card_name(c) for c, k in rest.items() if k < 0]
    if missing:
        raise SetupError(f"more copies than the deck holds: {', '.join(sorted(missing))}")
    order += sorted(rest.elements())
    return order


def _card(value: str | int) -> int:
    return parse_card(value) if isinstance(value, str) else value
