"""House rules (docs/rules.md, "House rules"): each rule and each decided interaction on explicit deals."""

from __future__ import annotations

import random

import pytest

from rules_support import events_since, hand, legal, stacked_game
from unokit import Game, Rules
from unokit.bots.base import make_bot
from unokit.bots.runner import play_game
from unokit.determinize import sample_game
from unokit.editions.house import HouseGame
from unokit.engine.errors import IllegalActionError, UnknownOptionError
from unokit.engine.events import HOUSE_EVENT_KINDS
from unokit.engine.record import replay, to_record
from unokit.engine.rules import HOUSE_OPTIONS, OPTIONS, PRESETS
from unokit.narrate import Narrator, describe_action, plain

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


@pytest.mark.parametrize(
    ("option", "value", "needed", "on"),
    [
        ("stack_deflect", "both", "stacking", "same"),
        ("stack_revenge", True, "stacking", "draw-two"),
        ("multi_play_bomb", True, "multi_play", "number"),
        ("mercy_limit", 10, "mercy", True),
    ],
)
def test_option_that_works_with_another_is_refused_alone(option: str, value: object, needed: str, on: object) -> None:
    with pytest.raises(UnknownOptionError, match=f"'{option}': works only with '{needed}'"):
        Rules.from_dict({option: value})
    with pytest.raises(UnknownOptionError, match=needed):
        Game("classic", 3, rules={option: value})
    assert getattr(Rules.from_dict({option: value, needed: on}), option) == value
    assert OPTIONS[option].requires == needed


def test_every_option_has_words_for_players() -> None:
    for name, spec in OPTIONS.items():
        assert spec.label and spec.help.endswith("."), f"{name} has no label or help sentence"
        assert len(spec.choice_labels) == len(spec.choices), f"{name}: a label for each choice"
        assert not spec.requires or spec.requires in OPTIONS


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


# ---------------------------------------------------------------- stacking


FILLERS = [
    ["B1", "B2", "B3", "B4", "B6"],
    ["B7", "B8", "B9", "B1", "B2"],
    ["Y1", "Y2", "Y3", "Y4", "Y6"],
    ["Y7", "Y8", "Y9", "Y1", "Y2"],
]
"""Per seat, numbers that match nothing on a red 5."""
DRAW = ["G1", "G2", "G3", "G4", "G6", "G7", "G8", "G9"] * 2
"""A draw pile of green numbers."""


def filled(hands: list[list[str]], size: int = 5) -> list[list[str]]:
    """Each hand completed to ``size`` cards with its seat's fillers."""
    return [h + FILLERS[seat][: size - len(h)] for seat, h in enumerate(hands)]


def stack_game(hands: list[list[str]], draw: list[str] | None = None, **options: object) -> Game:
    """Classic, seat 0 first on a red 5, hands of five (filler numbers after the cards that matter)."""
    return stacked_game("classic", filled(hands), "R5", draw or DRAW, **{"stacking": "same", **options})


def test_stack_draw_two_on_draw_two_next_draws_four() -> None:
    game = stack_game([["R+2"], ["G+2"], []])
    game.apply_notation(0, "R+2")
    assert (game.phase_name, game.actor) == ("stack", 1)
    assert legal(game, 1) == ["G+2", "accept"]
    assert game.view(2).state["stack_total"] == 2
    start = len(game.events)
    game.apply_notation(1, "G+2")
    assert events_since(game, start)[1:3] == [("stack", 1, 4, ()), ("stack_draw", 2, 4, ())]
    assert len(game.hands[2]) == 9 and (game.phase_name, game.actor) == ("turn", 0)


def test_stack_not_asked_without_answer() -> None:
    game = stack_game([["R+2"], [], []])
    game.apply_notation(0, "R+2")
    assert len(game.hands[1]) == 7 and (game.phase_name, game.actor) == ("turn", 2)


def test_stack_accept_declines() -> None:
    game = stack_game([["R+2"], ["G+2"], []])
    game.apply_notation(0, "R+2")
    game.apply_notation(1, "accept")
    assert len(game.hands[1]) == 7 and (game.phase_name, game.actor) == ("turn", 2)
    assert game.view(0).state["stack_total"] == 0


def test_draw_two_mode_wild_draw_four_not_stacked() -> None:
    game = stack_game([["R+2"], ["W+4"], []], stacking="draw-two")
    game.apply_notation(0, "R+2")
    assert len(game.hands[1]) == 7 and game.actor == 2


def test_same_refuses_wd4_on_draw_two() -> None:
    game = stack_game([["R+2"], ["W+4", "G+2"], []])
    game.apply_notation(0, "R+2")
    assert legal(game, 1) == ["G+2", "accept"]
    with pytest.raises(IllegalActionError):
        game.apply_notation(1, "W+4")


def test_cross_wd4_on_draw_two() -> None:
    game = stack_game([["R+2"], ["W+4"], []], stacking="cross")
    game.apply_notation(0, "R+2")
    assert legal(game, 1) == ["W+4", "accept"]
    game.apply_notation(1, "W+4")
    assert (game.phase_name, game.actor) == ("colour", 1)
    game.apply_notation(1, "=G")
    assert len(game.hands[2]) == 11 and game.actor == 0


def test_cross_draw_two_on_wd4_only_in_named_colour() -> None:
    game = stack_game([["W+4"], ["W+4"], ["R+2", "G+2"]], stacking="cross")
    game.apply_notation(0, "W+4")
    game.apply_notation(0, "=R")
    assert game.phase_name == "challenge" and legal(game, 1) == ["W+4", "challenge", "accept"]
    game.apply_notation(1, "W+4")
    game.apply_notation(1, "=R")
    assert legal(game, 2) == ["R+2", "accept"]


def test_up_equal_or_higher_any_colour() -> None:
    game = stack_game([["R+2"], ["W+4", "G+2"], []], stacking="up")
    game.apply_notation(0, "R+2")
    assert legal(game, 1) == ["G+2", "W+4", "accept"]


def test_up_refuses_draw_two_on_wd4() -> None:
    game = stack_game([["W+4"], ["G+2", "R+2"], []], stacking="up", wild_draw_four_challenge=False)
    game.apply_notation(0, "W+4")
    game.apply_notation(0, "=R")
    assert len(game.hands[1]) == 9 and game.actor == 2


def test_stack_revenge_doubles_added_card() -> None:
    game = stack_game([["R+2"], ["G+2"], []], stack_revenge=True)
    game.apply_notation(0, "R+2")
    game.apply_notation(1, "G+2")
    assert len(game.hands[2]) == 11


def test_reverse_deflect_returns_total() -> None:
    hands = filled([["R+2", "G+2"], ["RR"], [], []])
    game = stacked_game("classic", hands, "R5", DRAW, stacking="same", stack_deflect="reverse")
    game.apply_notation(0, "R+2")
    assert legal(game, 1) == ["RR", "accept"]
    game.apply_notation(1, "RR")
    assert game.direction == -1 and (game.phase_name, game.actor) == ("stack", 0)
    game.apply_notation(0, "accept")
    assert len(game.hands[0]) == 6 and game.actor == 3


def test_skip_deflect_passes_on() -> None:
    game = stack_game([["R+2"], ["RS"], []], stack_deflect="skip")
    game.apply_notation(0, "R+2")
    game.apply_notation(1, "RS")
    assert len(game.hands[2]) == 7 and len(game.hands[1]) == 4 and game.actor == 0


def test_deflect_needs_colour_in_play() -> None:
    game = stack_game([["R+2"], ["GS"], []], stack_deflect="both")
    game.apply_notation(0, "R+2")
    assert len(game.hands[1]) == 7 and game.actor == 2


def test_two_player_reverse_deflect_goes_back() -> None:
    game = stacked_game(
        "classic", [["R+2", "R1", "R3"], ["RR", "B6", "B7"]], "R5", DRAW, stacking="same", stack_deflect="reverse"
    )
    game.apply_notation(0, "R+2")
    game.apply_notation(1, "RR")
    assert len(game.hands[0]) == 4 and (game.phase_name, game.actor) == ("turn", 1)


def test_final_stack_next_draws_total_and_counted() -> None:
    hands = [["R+2", "R+2"], ["G+2", "B6"], ["G+2", "Y2"]]
    game = stacked_game("classic", hands, "R5", DRAW, stacking="same", scoring="single-round")
    game.apply_notation(0, "R+2!")
    game.apply_notation(1, "G+2")
    game.apply_notation(2, "G+2")
    assert (game.phase_name, game.actor) == ("stack", 0)
    game.apply_notation(0, "R+2")
    assert game.is_over and game.winner == 0 and len(game.hands[1]) == 9
    counted = [e for e in game.events if e[0] == "hand"]
    assert counted[1][2] == 6 + (1 + 2 + 3 + 4 + 6 + 7 + 8 + 9)


def test_stacker_uncalled_caught_during_stack_phase() -> None:
    hands = [["R+2", "R1"], ["G+2", "B6"], ["G+2", "Y2"]]
    game = stacked_game("classic", hands, "R5", DRAW, stacking="same")
    game.apply_notation(0, "R+2")
    game.apply_notation(1, "G+2")
    assert (game.phase_name, game.actor) == ("stack", 2)
    assert "catch@1" in legal(game, 0)
    game.apply_notation(0, "catch@1")
    assert len(game.hands[1]) == 3


def test_start_card_draw_two_not_stackable() -> None:
    game = stacked_game("classic", [["G+2", "B1"], ["B6", "B7"]], "R+2", DRAW, stacking="same")
    assert len(game.hands[0]) == 4 and game.actor == 1


def test_starting_wd4_challenge_accept_or_stack() -> None:
    game = stack_game([["W+4"], ["W+4"], []])
    game.apply_notation(0, "W+4")
    game.apply_notation(0, "=G")
    assert game.phase_name == "challenge" and legal(game, 1) == ["W+4", "challenge", "accept"]
    game.apply_notation(1, "challenge")
    assert len(game.hands[1]) == 11 and game.view(0).state["stack_total"] == 0


def test_stacked_wd4_not_challengeable() -> None:
    game = stack_game([["W+4"], ["W+4"], []])
    game.apply_notation(0, "W+4")
    game.apply_notation(0, "=G")
    game.apply_notation(1, "W+4")
    game.apply_notation(1, "=G")
    assert len(game.hands[2]) == 13 and (game.phase_name, game.actor) == ("turn", 0)


def test_stacked_wd4_legal_with_colour_when_no_bluff() -> None:
    game = stack_game([["R+2"], ["W+4", "R1"], []], stacking="cross", allow_bluff=False)
    game.apply_notation(0, "R+2")
    assert legal(game, 1) == ["W+4", "accept"]


def test_wd4_challenge_off() -> None:
    game = stack_game([["W+4"], [], []], stacking="off", wild_draw_four_challenge=False)
    game.apply_notation(0, "W+4")
    game.apply_notation(0, "=G")
    assert len(game.hands[1]) == 9 and (game.phase_name, game.actor) == ("turn", 2)


def test_all_wild_draw_cards_stack() -> None:
    hands = [["W+2", "W", "W"], ["W+2", "W", "W"], ["W", "W", "W"]]
    game = stacked_game("all-wild", hands, "W", ["W"] * 9, stacking="same")
    game.apply_notation(0, "W+2")
    assert legal(game, 1) == ["W+2", "accept"]
    game.apply_notation(1, "W+2")
    assert len(game.hands[2]) == 7


def test_all_wild_cross_any_on_any() -> None:
    hands = [["W+4", "W", "W"], ["W+2", "W", "W"], ["W", "W", "W"]]
    game = stacked_game("all-wild", hands, "W", ["W"] * 9, stacking="cross")
    game.apply_notation(0, "W+4")
    assert legal(game, 1) == ["W+2", "accept"]


def test_targeted_draw_two_never_stacks() -> None:
    game = stacked_game("all-wild", [["W+2", "W"], ["WT2", "W"], ["W", "W"]], "W", ["W"] * 9, stacking="up")
    game.apply_notation(0, "W+2")
    assert len(game.hands[1]) == 4 and game.actor == 2


def test_wild_skip_deflects() -> None:
    game = stacked_game(
        "all-wild", [["W+2", "W"], ["WS", "W"], ["W", "W"]], "W", ["W"] * 9, stacking="same", stack_deflect="skip"
    )
    game.apply_notation(0, "W+2")
    game.apply_notation(1, "WS")
    assert len(game.hands[2]) == 4 and game.actor == 0


def test_jam_neither_stacks_nor_deflects() -> None:
    game = stacked_game(
        "space-jam",
        [["R+2", "B1"], ["WJ", "B2"], ["B3", "B4"]],
        "R5",
        ["B6"] * 2,
        stacking="cross",
        stack_deflect="both",
    )
    game.apply_notation(0, "R+2")
    assert len(game.hands[1]) == 4 and game.actor == 2


def test_stack_records_and_views_round_trip() -> None:
    game = stack_game([["R+2"], ["G+2"], []], stack_deflect="both", stack_revenge=True)
    game.apply_notation(0, "R+2")
    again = replay(to_record(game))
    assert again == game and again.rules.stack_deflect == "both"
    sampled = sample_game(game.view(1), random.Random(3))
    assert sampled.phase_name == "stack" and sampled.view(1).state["stack_total"] == 2


# ---------------------------------------------------------------- Seven-O


def test_seven_swaps_with_chosen_player() -> None:
    game = stack_game([["R7"], [], []], stacking="off", seven_swap=True)
    game.apply_notation(0, "R7")
    assert (game.phase_name, game.actor) == ("target", 0)
    assert legal(game, 0) == ["@1", "@2"]
    game.apply_notation(0, "@2")
    assert hand(game, 0) == ["Y1", "Y2", "Y3", "Y4", "Y6"] and hand(game, 2) == ["B1", "B2", "B3", "B4"]
    assert game.events[-2:] == [("target", 0, 2, ()), ("swap", 0, 2, ())]
    assert (game.phase_name, game.actor) == ("turn", 1)


def test_seven_targets_exclude_self() -> None:
    game = stack_game([["R7"], [], []], stacking="off", seven_swap=True)
    game.apply_notation(0, "R7")
    with pytest.raises(IllegalActionError):
        game.apply_notation(0, "@0")


def test_zero_passes_hands_in_direction_after_reverse() -> None:
    game = stack_game([["RR", "R0"], [], []], stacking="off", zero_pass=True)
    game.apply_notation(0, "RR")
    game.apply_notation(2, "draw")
    if game.phase_name == "drawn":
        game.apply_notation(2, "pass")
    game.apply_notation(1, "draw")
    if game.phase_name == "drawn":
        game.apply_notation(1, "pass")
    before = [hand(game, s) for s in range(3)]
    game.apply_notation(0, "R0")
    # Play goes right (0 -> 2 -> 1): each hand moves to the next player that way.
    after = [hand(game, s) for s in range(3)]
    assert after[2] == [c for c in before[0] if c != "R0"] and after[1] == before[2] and after[0] == before[1]
    assert ("pass_hands", 0, -1, ()) in game.events


def test_seven_with_uno_call_then_swap() -> None:
    hands = [["R7", "B1"], ["Y1", "Y2"], ["Y3", "Y4"]]
    game = stacked_game("classic", hands, "R5", DRAW, seven_swap=True)
    game.apply_notation(0, "R7!")
    assert game.exposed == []
    game.apply_notation(0, "@1")
    assert hand(game, 0) == ["Y1", "Y2"] and hand(game, 1) == ["B1"]
    assert game.exposed == [1] and "catch@1" in legal(game, 2) and "uno" in legal(game, 1)


def test_catch_during_seven_target() -> None:
    hands = [["R7", "B1"], ["Y1", "Y2"], ["Y3", "Y4"]]
    game = stacked_game("classic", hands, "R5", DRAW, seven_swap=True)
    game.apply_notation(0, "R7")
    assert game.phase_name == "target" and "catch@0" in legal(game, 1)
    game.apply_notation(1, "catch@0")
    game.apply_notation(0, "@2")
    assert len(game.hands[2]) == 3 and hand(game, 0) == ["Y3", "Y4"]


def test_zero_pass_exposes_single_card_holders() -> None:
    hands = [["R0", "B1"], ["Y1", "Y2"], ["Y3", "Y4"]]
    game = stacked_game("classic", hands, "R5", DRAW, zero_pass=True)
    game.apply_notation(0, "R0!")
    assert hand(game, 1) == ["B1"] and game.exposed == [1]


def test_final_seven_wins_without_swap() -> None:
    hands = [["R7"], ["Y1"], ["Y3"]]
    game = stacked_game("classic", hands, "R5", DRAW, seven_swap=True, scoring="single-round")
    game.apply_notation(0, "R7")
    assert game.is_over and game.winner == 0 and not any(e[0] == "swap" for e in game.events)


def test_final_zero_wins_without_pass() -> None:
    hands = [["R0"], ["Y1"], ["Y3"]]
    game = stacked_game("classic", hands, "R5", DRAW, zero_pass=True, scoring="single-round")
    game.apply_notation(0, "R0")
    assert game.is_over and game.winner == 0 and not any(e[0] == "pass_hands" for e in game.events)


def test_start_card_seven_no_swap() -> None:
    game = stacked_game("classic", [["B1"], ["B2"]], "R7", DRAW, seven_swap=True)
    assert game.phase_name == "turn" and not any(e[0] in ("swap", "target") for e in game.events)


def test_seven_o_off_in_all_wild_is_inert() -> None:
    game = stacked_game("all-wild", [["W", "W"], ["W", "W"]], "W", ["W"] * 4, seven_swap=True, zero_pass=True)
    game.apply_notation(0, "W!")
    assert game.phase_name == "turn" and game.actor == 1


def test_seven_swap_view_and_replay() -> None:
    hands = [["R7", "B1", "B2"], ["Y1", "Y2", "Y3"], ["Y4", "Y6", "Y7"]]
    game = stacked_game("classic", hands, "R5", DRAW, seven_swap=True)
    game.apply_notation(0, "R7")
    game.apply_notation(0, "@1")
    assert replay(to_record(game)) == game
    view = game.view(2)
    assert view.hand == tuple(sorted(game.hands[2])) and ("swap", 0, 1, ()) in view.history
    sampled = sample_game(game.view(1), random.Random(2))
    assert sorted(sampled.hands[0]) == sorted(game.hands[0])


# ---------------------------------------------------------------- draw switches


def test_force_play_no_pass() -> None:
    game = stack_game([[], [], []], ["R3", *DRAW], stacking="off", force_play=True)
    game.apply_notation(0, "draw")
    assert game.phase_name == "drawn" and legal(game, 0) == ["R3"]


def test_draw_to_match_then_keep() -> None:
    game = stack_game([[], [], []], ["Y7", "Y8", "R3", *DRAW], stacking="off", draw_to_match=True)
    game.apply_notation(0, "draw")
    assert [e[3] for e in events_since(game, 0) if e[0] == "draw"][-3:] == [("Y7",), ("Y8",), ("R3",)]
    assert game.phase_name == "drawn" and legal(game, 0) == ["R3", "pass"]
    game.apply_notation(0, "pass")
    assert len(game.hands[0]) == 8 and game.actor == 1


def test_draw_to_match_and_force_play_must_play() -> None:
    game = stack_game([[], [], []], ["Y7", "R3", *DRAW], stacking="off", draw_to_match=True, force_play=True)
    game.apply_notation(0, "draw")
    assert legal(game, 0) == ["R3"]


def test_draw_to_match_stops_at_hand_limit() -> None:
    game = stack_game([[], [], []], ["Y7", "Y8", "R3", *DRAW], stacking="off", draw_to_match=True, hand_limit=7)
    game.apply_notation(0, "draw")
    assert len(game.hands[0]) == 7 and (game.phase_name, game.actor) == ("turn", 1)


def test_draw_to_match_stops_on_empty_piles() -> None:
    hands = [["B1", "B2"], ["B6", "B7"]]
    rules = {"draw_to_match": True, "deck": [["B1", 1], ["B2", 1], ["B6", 1], ["B7", 1], ["R5", 1], ["G1", 2]]}
    game = stacked_game("classic", hands, "R5", ["G1", "G1"], **rules)
    game.apply_notation(0, "draw")
    assert len(game.hands[0]) == 4 and game.draw_pile == [] and (game.phase_name, game.actor) == ("turn", 1)


def test_must_play_refuses_draw() -> None:
    game = stack_game([["R3"], [], []], stacking="off", must_play=True)
    assert legal(game, 0) == ["R3"]
    with pytest.raises(IllegalActionError):
        game.apply_notation(0, "draw")


def test_must_play_draws_without_a_play() -> None:
    game = stack_game([[], [], []], stacking="off", must_play=True)
    assert legal(game, 0) == ["draw"]


def test_hand_limit_no_draw_while_a_play_exists() -> None:
    game = stack_game([["R3"], [], []], stacking="off", hand_limit=5)
    assert legal(game, 0) == ["R3"]
    game = stack_game([["R3"], [], []], stacking="off", hand_limit=6)
    assert legal(game, 0) == ["R3", "draw"]


def test_hand_limit_draws_without_a_play() -> None:
    game = stack_game([[], [], []], stacking="off", hand_limit=5)
    assert legal(game, 0) == ["draw"]


def test_draw_switches_do_not_touch_the_stack_penalty() -> None:
    game = stack_game([["R+2"], ["G+2"], []], force_play=True, draw_to_match=True, hand_limit=5)
    game.apply_notation(0, "R+2")
    game.apply_notation(1, "accept")
    assert len(game.hands[1]) == 7 and (game.phase_name, game.actor) == ("turn", 2)


# ---------------------------------------------------------------- finishing restrictions


def test_no_action_finish_must_draw() -> None:
    game = stacked_game("classic", [["RS"], ["B6"], ["Y1"]], "R5", DRAW, no_action_finish=True)
    assert legal(game, 0) == ["draw"]
    with pytest.raises(IllegalActionError):
        game.apply_notation(0, "RS")


def test_no_wild_finish() -> None:
    game = stacked_game("classic", [["W"], ["B6"], ["Y1"]], "R5", DRAW, no_wild_finish=True)
    assert legal(game, 0) == ["draw"]
    game = stacked_game("classic", [["R3"], ["B6"], ["Y1"]], "R5", DRAW, no_wild_finish=True, no_action_finish=True)
    assert legal(game, 0) == ["R3", "draw"]


def test_no_action_finish_in_all_wild_allows_only_plain_wild() -> None:
    game = stacked_game("all-wild", [["WS"], ["W"], ["W"]], "W", ["W"] * 4, no_action_finish=True)
    assert legal(game, 0) == ["draw"]
    game = stacked_game("all-wild", [["W"], ["WS"], ["W"]], "W", ["W"] * 4, no_action_finish=True, no_wild_finish=True)
    assert legal(game, 0) == ["W", "draw"]


def test_restriction_applies_to_stack() -> None:
    hands = [["R+2", "R1"], ["G+2", "B6"], ["Y1", "Y2"]]
    game = stacked_game("classic", hands, "R5", DRAW, stacking="same", no_action_finish=True)
    game.apply_notation(0, "R+2!")
    assert legal(game, 1) == ["G+2", "G+2!", "accept"]
    hands = [["R+2", "R+2"], ["G+2", "B6"], ["G+2", "Y2"]]
    game = stacked_game("classic", hands, "R5", DRAW, stacking="same", no_action_finish=True)
    game.apply_notation(0, "R+2!")
    game.apply_notation(1, "G+2")
    game.apply_notation(2, "G+2")
    assert len(game.hands[0]) == 7 and (game.phase_name, game.actor) == ("turn", 1)


def test_must_play_with_restricted_last_card_draws() -> None:
    game = stacked_game("classic", [["RS"], ["B6"], ["Y1"]], "R5", DRAW, no_action_finish=True, must_play=True)
    assert legal(game, 0) == ["draw"]


def test_swap_to_restricted_single_card_needs_call() -> None:
    hands = [["R7", "B1"], ["YS", "Y2"], ["Y3", "Y4"]]
    game = stacked_game("classic", hands, "R5", DRAW, seven_swap=True, no_action_finish=True)
    game.apply_notation(0, "R7!")
    game.apply_notation(0, "@2")
    assert hand(game, 2) == ["B1"] and game.exposed == [2]


# ---------------------------------------------------------------- presets


def test_preset_house_values() -> None:
    rules = Rules.preset("house")
    assert (rules.stacking, rules.seven_swap, rules.zero_pass, rules.jump_in) == ("same", True, True, True)
    assert Rules.preset("teams") == Rules(teams=True)
    assert Rules.preset("official") == Rules()
    no_mercy = Rules.preset("no-mercy")
    assert (no_mercy.stacking, no_mercy.force_play, no_mercy.draw_to_match) == ("up", True, True)
    assert (no_mercy.wild_draw_four_challenge, no_mercy.scoring) == (False, "single-round")
    chaos = Rules.preset("chaos")
    assert (chaos.stacking, chaos.stack_deflect, chaos.jump_in, chaos.multi_play) == ("cross", "both", True, "number")
    assert Rules.preset("party").draw_to_match and not Rules.preset("house").draw_to_match


def test_preset_then_switches() -> None:
    rules = Rules.from_dict({"preset": "house", "zero_pass": False, "target_score": 200})
    assert rules == Rules(stacking="same", seven_swap=True, jump_in=True, target_score=200)
    assert Rules.preset("house", stacking="up").stacking == "up"


def test_preset_name_not_recorded() -> None:
    game = Game("classic", 3, seed=2, rules={"preset": "house"})
    assert type(game) is HouseGame
    record = to_record(game)
    assert "preset" not in record["rules"] and record["rules"]["stacking"] == "same"
    assert replay(record) == game


def test_unknown_preset_refused() -> None:
    with pytest.raises(UnknownOptionError, match="unknown preset 'wild'"):
        Rules.from_dict({"preset": "wild"})
    with pytest.raises(UnknownOptionError, match="unknown preset"):
        Game("classic", 3, rules={"preset": 3})


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("edition", ["classic", "space-jam", "all-wild", "wild-jackpot"])
def test_presets_play_in_every_edition(edition: str, preset: str) -> None:
    bots = [make_bot("heuristic", seed=1, edition=edition), make_bot("random", seed=2, edition=edition)] * 2
    result = play_game(edition, bots, seed=3, rules={"preset": preset, "scoring": "single-round"})
    assert 0 <= result.winner < 4


# ---------------------------------------------------------------- bots under house rules

BOT_RULES = [
    {"force_play": True, "draw_to_match": True, "no_action_finish": True, "no_wild_finish": True},
    {"must_play": True, "hand_limit": 9, "stacking": "up"},
    {"seven_swap": True, "zero_pass": True, "stacking": "same"},
    {"stacking": "cross", "stack_deflect": "both", "stack_revenge": True, "wild_draw_four_challenge": False},
    {"stacking": "up", "call_uno": False},
    {"stacking": "same", "allow_bluff": False},
    {"mercy": True, "mercy_limit": 10, "stacking": "up"},
]


@pytest.mark.parametrize("options", BOT_RULES)
@pytest.mark.parametrize("edition", ["classic", "space-jam", "all-wild", "wild-jackpot"])
def test_bots_play_house_rules(edition: str, options: dict[str, object]) -> None:
    bots = [
        make_bot("heuristic", seed=1, edition=edition),
        make_bot("random", seed=2, edition=edition),
        make_bot("ismcts", seed=3, edition=edition, iterations=6),
    ]
    result = play_game(edition, bots, seed=7, rules={"scoring": "single-round", **options})
    assert 0 <= result.winner < 3


def test_house_events_and_actions_have_words() -> None:
    narrator = Narrator(["Ann", "Bob", "Cy"], you=0)
    texts = {
        kind: plain(narrator.event((kind, 1, {"pass_hands": -1, "jump": 2}.get(kind, 4), ())))
        for kind in HOUSE_EVENT_KINDS
    }
    assert texts == {
        "stack": "The stacked penalty stands at 4 cards.",
        "stack_draw": "Bob takes the penalty of 4 cards.",
        "deflect": "Bob deflects the penalty of 4 cards.",
        "pass_hands": "Every hand passes counter-clockwise.",
        "team_win": "Team 5 wins the round.",
        "knockout": "Bob leaves the match, knocked out with 4 cards.",
        "mercy": "Bob holds 4 cards: out of the round!",
        "jump": "Bob jumps in ahead of Cy!",
        "bomb": "Bob drops a bomb of 4 cards: everyone else draws 1.",
    }
    game = stack_game([["R+2"], ["G+2"], []])
    game.apply_notation(0, "R+2")
    view = game.view(1)
    assert describe_action(game, view, game.actions.accept, ["Ann", "Bob", "Cy"]) == (
        "draw the penalty of 2 and lose your turn"
    )
