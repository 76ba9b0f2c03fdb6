"""Classic UNO: 108 cards, the common base of every edition."""

from __future__ import annotations

from unokit.editions.effects import (
    draw_two_effect,
    final_draw_four,
    final_draw_two,
    reverse_effect,
    skip_effect,
    wild_draw_four_effect,
    wild_effect,
)
from unokit.engine.cards import Kind, make_card, wild
from unokit.engine.edition import CLASSIC_COLOURS, ColourSet, Edition
from unokit.i18n import english


def standard_deck(colours: ColourSet, wilds: dict[int, int]) -> tuple[tuple[int, int], ...]:
    """Per colour one 0, two each of 1-9, Skip, Reverse and Draw Two; then the wilds."""
    counts: list[tuple[int, int]] = []
    for colour in colours:
        counts.append((make_card(colour, Kind.ZERO), 1))
        for kind in (*range(1, 10), Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO):
            counts.append((make_card(colour, kind), 2))
    counts += [(wild(kind), count) for kind, count in wilds.items()]
    return tuple(counts)


class Classic(Edition):
    """Classic UNO: the common base, 108 cards."""

    name = "classic"
    title = "Classic UNO"
    summary = english("edition.classic.summary")
    composition = standard_deck(CLASSIC_COLOURS, {Kind.WILD: 4, Kind.WILD_DRAW_FOUR: 4})
    points = {Kind.SKIP: 20, Kind.REVERSE: 20, Kind.DRAW_TWO: 20, Kind.WILD: 50, Kind.WILD_DRAW_FOUR: 50}
    effect_table = {
        Kind.SKIP: skip_effect,
        Kind.REVERSE: reverse_effect,
        Kind.DRAW_TWO: draw_two_effect,
        Kind.WILD: wild_effect,
        Kind.WILD_DRAW_FOUR: wild_draw_four_effect,
    }
    final_effect_table = {Kind.DRAW_TWO: final_draw_two, Kind.WILD_DRAW_FOUR: final_draw_four}
