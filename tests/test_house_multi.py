"""House rule: several cards of the same number in one turn (docs/rules.md, "Several cards in one turn")."""

from __future__ import annotations

import random

import pytest

from rules_support import events_since, hand, legal, stacked_game
from unokit import Game
from unokit.bots.heuristic import HeuristicBot
from unokit.determinize import sample_game
from unokit.engine.errors import IllegalActionError
from unokit.engine.record import replay, to_record
from unokit.narrate import describe_action

FILLERS = [
    ["B1", "B2", "B3", "B4", "B6"],
    ["B8", "B9", "B1", "B2", "B3"],
    ["Y1", "Y2", "Y3", "Y4", "Y6"],
]
"""Per seat, numbers that match nothing on a red 0 (and no 7s)."""
DRAW = ["G1", "G2", "G3", "G4", "G6", "G8", "G9"]
"""A draw pile of green numbers (no 7s)."""


def multi_game(first: list[str], size: int = 5, draw: list[str] | None = None, **options: object) -> Game:
    """Classic, three players, seat 0 first on a red 0 holding ``first`` (then fillers)."""
    hands = [first + FILLERS[0][: size - len(first)], FILLERS[1][:size], FILLERS[2][:size]]
    return stacked_game("classic", hands, "R0", draw or DRAW, **{"multi_play": "number", **options})


def test_multi_identical_second_copy() -> None:
    game = multi_game(["R7", "R7", "G7"], multi_play="identical")
    game.apply_notation(0, "R7")
    assert (game.phase_name, game.actor) == ("multi", 0) and legal(game, 0) == ["R7", "pass"]
    assert game.asks() == "play another card of the same number or end their turn"
    start = len(game.events)
    game.apply_notation(0, "R7")
    assert events_since(game, start) == [("play", 0, 0, ("R7",))]
    assert (game.phase_name, game.actor) == ("turn", 1) and hand(game, 0) == ["B1", "B2", "G7"]


def test_multi_number_any_colour() -> None:
    game = multi_game(["R7", "G7", "B7"])
    game.apply_notation(0, "R7")
    assert legal(game, 0) == ["G7", "B7", "pass"]
    game.apply_notation(0, "B7")
    assert legal(game, 0) == ["G7", "pass"]
    game.apply_notation(0, "G7")
    assert (game.phase_name, game.actor) == ("turn", 1) and len(game.hands[0]) == 2


def test_multi_pass_ends_turn() -> None:
    game = multi_game(["R7", "G7"])
    game.apply_notation(0, "R7")
    game.apply_notation(0, "pass")
    assert game.events[-1] == ("pass", 0, 0, ()) and (game.phase_name, game.actor) == ("turn", 1)
    assert hand(game, 0) == ["B1", "B2", "B3", "G7"] and game.view(1).state["multi_count"] == 0


def test_multi_last_card_sets_colour() -> None:
    game = multi_game(["R7", "G7"])
    game.apply_notation(0, "R7")
    game.apply_notation(0, "G7")
    assert game.colour == game.actions.args[game.actions.parse("=G")] and game.actor == 1
    assert game.top_card == game.actions.args[game.actions.parse("G7")] and legal(game, 1) == ["draw"]


def test_multi_uno_call_on_card_leaving_one() -> None:
    game = multi_game(["R7", "G7", "B7"], size=3)
    game.apply_notation(0, "R7")
    assert legal(game, 0) == ["G7", "B7", "G7!", "B7!", "pass"]
    game.apply_notation(0, "G7!")
    assert game.exposed == [] and legal(game, 0) == ["B7", "pass"]
    game.apply_notation(0, "B7")
    assert [e[1] for e in game.events if e[0] == "round_end"] == [0] and ("hand", 0, 0, ()) in game.events


def test_multi_catch_during_set() -> None:
    game = multi_game(["R7", "G7", "B7"], size=3)
    game.apply_notation(0, "R7")
    game.apply_notation(0, "G7")
    assert game.phase_name == "multi" and game.exposed == [0]
    assert game.deciders() == (0, 1, 2) and "catch@0" in legal(game, 1)
    game.apply_notation(1, "catch@0")
    assert len(game.hands[0]) == 3 and (game.phase_name, game.actor) == ("multi", 0)
    assert legal(game, 0) == ["B7", "pass"]


def test_multi_sevens_swap_once() -> None:
    game = multi_game(["R7", "G7"], seven_swap=True)
    game.apply_notation(0, "R7")
    assert game.phase_name == "multi"
    game.apply_notation(0, "G7")
    assert (game.phase_name, game.actor) == ("target", 0)
    game.apply_notation(0, "@2")
    assert [e for e in game.events if e[0] == "swap"] == [("swap", 0, 2, ())] and game.actor == 1


def test_multi_seven_swap_after_pass() -> None:
    game = multi_game(["R7", "G7"], seven_swap=True)
    game.apply_notation(0, "R7")
    game.apply_notation(0, "pass")
    assert (game.phase_name, game.actor) == ("target", 0)
    game.apply_notation(0, "@1")
    assert hand(game, 1) == ["B1", "B2", "B3", "G7"] and game.actor == 1


def test_multi_final_card_wins_without_effect() -> None:
    game = multi_game(["R7", "G7"], size=2, seven_swap=True, scoring="single-round")
    game.apply_notation(0, "R7!")
    game.apply_notation(0, "G7")
    assert game.is_over and game.winner == 0 and not any(e[0] in ("swap", "target") for e in game.events)


def test_no_multi_after_drawn_card() -> None:
    game = multi_game(["G7"], draw=["R7", *DRAW])
    game.apply_notation(0, "draw")
    assert game.phase_name == "drawn"
    game.apply_notation(0, "R7")
    assert (game.phase_name, game.actor) == ("turn", 1) and "G7" in hand(game, 0)


def test_action_cards_not_in_sets() -> None:
    game = multi_game(["RS", "GS"])
    game.apply_notation(0, "RS")
    assert (game.phase_name, game.actor) == ("turn", 2)


def test_bomb_three_cards_everyone_draws_one() -> None:
    game = multi_game(["R7", "G7", "B7"], multi_play_bomb=True)
    for card in ("R7", "G7"):
        game.apply_notation(0, card)
    start = len(game.events)
    game.apply_notation(0, "B7")
    new = events_since(game, start)
    assert new[:4] == [("play", 0, 0, ("B7",)), ("bomb", 0, 3, ()), ("draw", 1, 1, ("G1",)), ("draw", 2, 1, ("G2",))]
    assert [len(h) for h in game.hands] == [2, 6, 6] and game.actor == 1


def test_bomb_passes_over_a_player_out_of_the_match() -> None:
    """Knockout scoring: the bomb makes every other player still in the match draw one, once each
    (not the player out, not the bomber)."""
    game = multi_game(["R7", "G7", "B7"], multi_play_bomb=True, scoring="knockout")
    game.knocked = (1,)  # as if seat 1 had been knocked out in an earlier round
    game.out = frozenset(game.knocked)
    game.players_in = 2
    game.hands[1] = []
    for card in ("R7", "G7"):
        game.apply_notation(0, card)
    start = len(game.events)
    game.apply_notation(0, "B7")
    new = events_since(game, start)
    assert new[:3] == [("play", 0, 0, ("B7",)), ("bomb", 0, 3, ()), ("draw", 2, 1, ("G1",))]
    assert [len(h) for h in game.hands] == [2, 0, 6] and game.actor == 2


def test_bomb_needs_three_cards() -> None:
    game = multi_game(["R7", "G7"], multi_play_bomb=True)
    game.apply_notation(0, "R7")
    game.apply_notation(0, "G7")
    assert not any(e[0] == "bomb" for e in game.events) and [len(h) for h in game.hands] == [3, 5, 5]


def test_multi_off_and_all_wild_inert() -> None:
    game = multi_game(["R7", "G7"], multi_play="off", seven_swap=True)
    game.apply_notation(0, "R7")
    assert game.phase_name == "target"
    hands = [["W", "W", "W"], ["W", "W", "W"]]
    game = stacked_game("all-wild", hands, "W", ["W"] * 4, multi_play="number", multi_play_bomb=True)
    game.apply_notation(0, "W")
    assert (game.phase_name, game.actor) == ("turn", 1)


def test_multi_refusals() -> None:
    game = multi_game(["R7", "G7"])
    game.apply_notation(0, "R7")
    key = game.state_key()
    with pytest.raises(IllegalActionError, match="only a card of the same number as R7 may be added"):
        game.apply_notation(0, "B1")
    with pytest.raises(IllegalActionError, match="holds no Y7"):
        game.apply_notation(0, "Y7")
    with pytest.raises(IllegalActionError, match="draw is not legal"):
        game.apply_notation(0, "draw")
    assert game.state_key() == key


def test_multi_with_jump_in() -> None:
    hands = [["R7", "G7", "B1"], ["B8", "B9", "B2"], ["G7", "Y1", "Y2"]]
    game = stacked_game("classic", hands, "R0", DRAW, multi_play="number", jump_in=True)
    game.apply_notation(0, "R7")
    assert game.phase_name == "multi" and legal(game, 2) == []  # no window during a set
    game.apply_notation(0, "G7!")
    assert game.actor == 1 and legal(game, 2) == ["^G7"]  # the window opens on the set's last card
    hands = [["R7", "Y1", "B1"], ["B8", "B9", "B2"], ["R7", "G7", "Y2"]]
    game = stacked_game("classic", hands, "R0", DRAW, multi_play="number", jump_in=True)
    game.apply_notation(0, "R7")
    game.apply_notation(2, "^R7")
    assert (game.phase_name, game.actor) == ("turn", 0) and "G7" in hand(game, 2)  # no set after a jump-in


def test_multi_views_records_samples_words() -> None:
    game = multi_game(["R7", "G7", "B7"])
    game.apply_notation(0, "R7")
    view = game.view(0)
    assert view.phase == "multi" and view.state["multi_count"] == 1
    sampled = sample_game(view, random.Random(5))
    assert sampled.phase_name == "multi" and sampled.legal_actions(0) == view.legal_actions
    assert describe_action(game, view, game.actions.pass_, ["Ann", "Bob", "Cy"]) == "end your turn"
    game.apply_notation(0, "G7")
    assert replay(to_record(game)) == game
    other = sample_game(game.view(1), random.Random(6))
    assert other.phase_name == "multi" and game.actions.pass_ in other.legal_actions(0)


def test_heuristic_sheds_the_set_colour_held_most_last() -> None:
    game = multi_game(["R7", "G7", "B7"])
    game.apply_notation(0, "R7")
    bot = HeuristicBot(seed=1)
    assert game.actions.format(bot.choose(game.view(0))) == "G7"  # blue is held most: blue 7 comes last
    game.apply_notation(0, "G7")
    assert game.actions.format(bot.choose(game.view(0))) == "B7"
