"""Edition data: deck compositions and their overrides."""

from __future__ import annotations

from collections import Counter

import pytest

from unokit import Game, Rules, UnknownOptionError
from unokit.engine.cards import card_name


def test_classic_deck_has_108_cards() -> None:
    counts = Counter(card_name(c) for c in Game("classic", 4, seed=1).deck_cards)
    assert sum(counts.values()) == 108
    for colour in "RYGB":
        assert counts[colour + "0"] == 1
        for rank in [*"123456789", "S", "R", "+2"]:
            assert counts[colour + rank] == 2
    assert counts["W"] == 4
    assert counts["W+4"] == 4
    assert not any(name.startswith("O") for name in counts)


def test_deck_composition_is_data_a_user_can_change() -> None:
    rules = Rules.from_dict({"deck": {"W": 40, "WR": 12, "WS": 12, "WS2": 12, "W+2": 12, "W+4": 12, "WX": 4}})
    game = Game("all-wild", 4, seed=3, rules=rules)
    counts = Counter(card_name(c) for c in game.deck_cards)
    assert counts == Counter({"W": 40, "WR": 12, "WS": 12, "WS2": 12, "W+2": 12, "W+4": 12, "WX": 4})
    assert game.all_cards() == Counter(game.deck_cards)
    with pytest.raises(UnknownOptionError, match="has no card G5"):
        Game("space-jam", 4, rules={"deck": [["G5", 3]]})
    with pytest.raises(UnknownOptionError, match="unknown card"):
        Game("classic", 4, rules={"deck": [["Q9", 3]]})
