"""Explicit deck orders, for tests, puzzles and bug reports.

>>> order = stacked_deck("classic", hands=[["R1"] * 7, ["B2"] * 7], start="R5", draw=["W"], dealer=1)
>>> game_hands = [order[1:14:2], order[0:14:2]]  # dealt one at a time from the dealer's left
>>> card_name(order[14]), card_name(order[15])
('R5', 'W')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from unokit.cards import card_name, parse_card
from unokit.editions import Edition, get_edition
from unokit.errors import SetupError
from unokit.rules import Rules


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
