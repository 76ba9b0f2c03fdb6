"""House rules (docs/rules.md, "House rules"): each rule and each decided interaction on explicit deals."""

from __future__ import annotations

import random

import pytest

from rules_support import events_since, hand, legal, stacked_game
from unokit import Game, Rules
from unokit.determinize import sample_game
from unokit.errors import IllegalActionError, UnknownOptionError
from unokit.house import HouseGame
from unokit.record import replay, to_record
from unokit.rules import HOUSE_OPTIONS

F = ["B1", "B2", "B3", "B4", "B6"]
"""Filler cards: blue numbers that match nothing on a red 5."""


# ---------------------------------------------------------------- the plain game when every rule is off


@pytest.mark.parametrize("edition", ["classic", "space-jam", "all-wild", "wild-jackpot"])
def test_all_options_off_game_is_plain_game(edition: str) -> None:
    game = Game(edition, 3, seed=5)
    assert type(game) is Game and type(game.clone()) is Game
    assert type(Game.blank(edition, 3, 1, Rules())) is Game
    assert type(Game(edition, 3, seed=5, rules={"call_uno": True})) is Game
    assert not Rules().house_on


def test_house_option_makes_house_game_everywhere() -> None:
    rules = Rules(call_uno=False)
    game = Game("classic", 3, seed=5, rules={"call_uno": False})
    assert type(game) is HouseGame and rules.house_on
    assert type(game.clone()) is HouseGame
    assert type(Game.blank("classic", 3, 1, rules)) is HouseGame
    assert type(replay(to_record(game))) is HouseGame
    assert type(sample_game(game.view(game.actor), random.Random(1))) is HouseGame


def test_house_options_listed_and_validated() -> None:
    assert "call_uno" in HOUSE_OPTIONS
    with pytest.raises(UnknownOptionError, match="call_uno"):
        Rules.from_dict({"call_uno": "yes"})
    with pytest.raises(UnknownOptionError, match="call_uno"):
        Game("classic", 3, rules={"call_uno": 1})


# ---------------------------------------------------------------- silent UNO (call_uno)


def test_call_uno_off_no_call_and_no_window() -> None:
    game = stacked_game("classic", [["R3", "R4"], F[:2], F[2:4]], "R5", call_uno=False)
    assert legal(game, 0) == ["R3", "R4", "draw"]
    with pytest.raises(IllegalActionError):
        game.apply_notation(0, "R3!")
    start = len(game.events)
    game.apply_notation(0, "R3")
    assert events_since(game, start) == [("play", 0, 0, ("R3",))]
    assert game.exposed == [] and game.deciders() == (1,)
    assert legal(game, 2) == [] and hand(game, 0) == ["R4"]
    assert game.view(1).uncalled == ()


def test_call_uno_off_forced_swap_exposes_nobody() -> None:
    game = stacked_game("all-wild", [["WX", "W", "W"], ["W"] * 3, ["W"] * 3], "W", ["W"], call_uno=False)
    game.apply_notation(0, "WX")
    game.apply_notation(0, "@1")
    assert game.exposed == [] and game.deciders() == (1,)
