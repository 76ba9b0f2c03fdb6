"""UNO All Wild: one test per rule of the All Wild rule sheet and its decisions.

Scenarios are built with stacked decks, so every hand, start card and draw is known.
Seat ``n - 1`` deals unless a test says otherwise, so seat 0 plays first.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from rules_support import events_since, hand, legal, sizes, stacked_game
from unokit import Game, NotationError, Rules
from unokit.engine.cards import NO_COLOUR, card_name, parse_card
from unokit.engine.errors import IllegalActionError, WrongPlayerError

EDITION = "all-wild"
KINDS = ["W", "W+4", "WR", "WS", "WS2", "W+2", "WT2", "WX"]  # in action-id order
ACTION_KINDS = KINDS[1:]


def make_game(
    hands: Sequence[Sequence[str]],
    start: str = "W",
    draw: Sequence[str] = (),
    *,
    dealer: int | None = None,
    seed: int = 1,
    **options: Any,
) -> Game:
    """An All Wild game dealing exactly ``hands`` (hand size taken from the hands)."""
    return stacked_game(EDITION, hands, start, draw, dealer=dealer, seed=seed, **options)


def kinds_since(game: Game, index: int) -> list[str]:
    return [kind for kind, *_ in game.events[index:]]


# ---------------------------------------------------------------- contents and set-up


def test_deck_has_112_cards_28_wild_and_12_of_each_wild_action_card() -> None:
    game = Game(EDITION, 4, seed=2)
    counts = Counter(card_name(c) for c in game.deck_cards)
    assert sum(counts.values()) == 112
    assert counts == Counter({"W": 28, **{kind: 12 for kind in ACTION_KINDS}})
    assert game.all_cards() == Counter(game.deck_cards)


def test_dealer_is_chosen_at_random() -> None:
    dealers = set()
    for seed in range(40):
        game = Game(EDITION, 4, seed=seed)
        assert not any(kind == "dealer_draw" for kind, *_ in game.events)
        assert game.events[0] == ("dealer", game.dealer, 1, ())
        dealers.add(game.dealer)
    assert dealers == {0, 1, 2, 3}


def test_left_of_dealer_plays_first_and_play_proceeds_clockwise() -> None:
    game = make_game([["W"] * 7, ["W"] * 7, ["W"] * 7, ["W"] * 7], "WX", dealer=1)
    assert game.turn == game.actor == 2
    assert game.direction == 1
    seen = []
    for _ in range(4):
        seat = game.turn
        seen.append(seat)
        game.apply_notation(seat, "W")
    assert seen == [2, 3, 0, 1]


@pytest.mark.parametrize("start", KINDS)
def test_start_action_card_action_is_ignored(start: str) -> None:
    game = make_game([["W"] * 7, ["WR"] * 7, ["WS"] * 7, ["W"] * 7], start, dealer=2)
    assert card_name(game.top_card) == start
    assert game.turn == game.actor == 3
    assert game.phase_name == "turn"
    assert game.direction == 1
    assert game.colour == NO_COLOUR
    assert sizes(game) == [7, 7, 7, 7]
    assert [kind for kind, *_ in game.events if kind not in ("dealer", "deal")] == ["flip"]
    assert legal(game, 3) == ["W", "draw"]


# ---------------------------------------------------------------- playing


@pytest.mark.parametrize("top", KINDS)
def test_every_card_is_playable_on_anything(top: str) -> None:
    game = make_game([KINDS, ["W"] * 8], top)
    assert legal(game, 0) == [*KINDS, "draw"]


def test_one_card_per_turn() -> None:
    game = make_game([["W"] * 7, ["W+2"] * 7, ["WS"] * 7])
    game.apply_notation(0, "W")
    assert sizes(game) == [6, 7, 7]
    assert game.turn == 1
    assert game.deciders() == (1,)
    assert legal(game, 0) == []
    with pytest.raises(WrongPlayerError):
        game.apply_notation(0, "W")
    assert sizes(game) == [6, 7, 7]


def test_no_colour_decision_ever() -> None:
    game = make_game([KINDS, ["W"] * 8])
    assert game.actions.colours == ()
    with pytest.raises(NotationError):
        game.actions.parse("=R")
    rng = random.Random(11)
    for seed in range(3):
        game = Game(EDITION, 4, seed=seed, rules={"scoring": "single-round"})
        steps = 0
        while not game.is_over and steps < 3000:
            assert game.colour == NO_COLOUR
            assert game.phase_name in ("turn", "drawn", "target")
            seat = rng.choice(game.deciders())
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            steps += 1
        assert not any(kind in ("colour", "challenge", "accept", "verdict") for kind, *_ in game.events)


def test_wild_does_nothing_but_end_the_turn() -> None:
    game = make_game([["W"] * 7, ["WS"] * 7, ["W+2"] * 7])
    mark = len(game.events)
    pile = len(game.draw_pile)
    game.apply_notation(0, "W")
    assert events_since(game, mark) == [("play", 0, 0, ("W",))]
    assert game.turn == 1
    assert game.phase_name == "turn"
    assert game.direction == 1
    assert game.colour == NO_COLOUR
    assert sizes(game) == [6, 7, 7]
    assert len(game.draw_pile) == pile


# ---------------------------------------------------------------- wild action cards


def test_wild_reverse_reverses_the_direction_of_play() -> None:
    game = make_game([["WR"] * 7, ["W"] * 7, ["W"] * 7, ["WR", *["W"] * 6]])
    mark = len(game.events)
    game.apply_notation(0, "WR")
    assert events_since(game, mark) == [("play", 0, 0, ("WR",)), ("reverse", 0, -1, ())]
    assert game.direction == -1
    assert game.turn == 3
    game.apply_notation(3, "W")
    assert game.turn == 2
    game.apply_notation(2, "W")
    assert game.turn == 1
    game.apply_notation(1, "W")
    assert game.turn == 0
    game.apply_notation(0, "WR")
    assert game.direction == 1
    assert game.turn == 1


def test_wild_reverse_with_two_players_acts_as_a_skip() -> None:
    game = make_game([["WR"] * 7, ["W"] * 7])
    mark = len(game.events)
    game.apply_notation(0, "WR")
    assert events_since(game, mark) == [("play", 0, 0, ("WR",)), ("reverse", 0, -1, ()), ("skip", 1, 0, ())]
    assert game.turn == 0
    assert game.phase_name == "turn"


def test_wild_skip_next_player_loses_their_turn() -> None:
    game = make_game([["WS"] * 7, ["W"] * 7, ["W+2"] * 7, ["W+4"] * 7])
    mark = len(game.events)
    game.apply_notation(0, "WS")
    assert events_since(game, mark) == [("play", 0, 0, ("WS",)), ("skip", 1, 0, ())]
    assert game.turn == 2
    assert sizes(game) == [6, 7, 7, 7]


def test_wild_skip_two_next_two_players_lose_their_turns() -> None:
    game = make_game([["WS2"] * 7, ["W"] * 7, ["W+2"] * 7, ["W+4"] * 7])
    mark = len(game.events)
    game.apply_notation(0, "WS2")
    assert events_since(game, mark) == [("play", 0, 0, ("WS2",)), ("skip", 1, 0, ()), ("skip", 2, 0, ())]
    assert game.turn == 3


def test_wild_skip_two_with_three_players_you_play_again() -> None:
    game = make_game([["WS2"] * 7, ["W"] * 7, ["W+2"] * 7])
    mark = len(game.events)
    game.apply_notation(0, "WS2")
    assert events_since(game, mark) == [("play", 0, 0, ("WS2",)), ("skip", 1, 0, ()), ("skip", 2, 0, ())]
    assert game.turn == game.actor == 0
    assert game.phase_name == "turn"
    assert legal(game, 0) == ["WS2", "draw"]


def test_wild_skip_two_with_two_players_acts_as_a_skip() -> None:
    game = make_game([["WS2"] * 7, ["W"] * 7])
    mark = len(game.events)
    game.apply_notation(0, "WS2")
    assert events_since(game, mark) == [("play", 0, 0, ("WS2",)), ("skip", 1, 0, ())]
    assert game.turn == 0


def test_wild_skip_two_after_a_reverse_skips_the_two_players_in_the_new_direction() -> None:
    game = make_game([["WR"] * 7, ["W"] * 7, ["W"] * 7, ["WS2"] * 7, ["W"] * 7])
    game.apply_notation(0, "WR")
    assert game.turn == 4
    game.apply_notation(4, "W")
    game.apply_notation(3, "WS2")
    assert game.events[-2:] == [("skip", 2, 0, ()), ("skip", 1, 0, ())]
    assert game.turn == 0


def test_wild_draw_two_next_player_draws_two_and_loses_their_turn() -> None:
    game = make_game([["W+2"] * 7, ["W"] * 7, ["WS"] * 7], draw=["WX", "WT2"])
    mark = len(game.events)
    game.apply_notation(0, "W+2")
    assert events_since(game, mark) == [
        ("play", 0, 0, ("W+2",)),
        ("draw", 1, 2, ("WX", "WT2")),
        ("skip", 1, 0, ()),
    ]
    assert hand(game, 1) == sorted(["W"] * 7 + ["WX", "WT2"])
    assert game.turn == 2


def test_wild_draw_four_next_player_draws_four_and_loses_their_turn_without_a_challenge() -> None:
    game = make_game([["W+4"] * 7, ["W"] * 7, ["WS"] * 7], draw=["WX", "WT2", "WR", "WS2"])
    mark = len(game.events)
    game.apply_notation(0, "W+4")
    assert events_since(game, mark) == [
        ("play", 0, 0, ("W+4",)),
        ("draw", 1, 4, ("WX", "WT2", "WR", "WS2")),
        ("skip", 1, 0, ()),
    ]
    assert sizes(game) == [6, 11, 7]
    assert game.turn == 2
    assert game.phase_name == "turn"
    with pytest.raises(IllegalActionError):
        game.apply_notation(1, "challenge")


def test_targeted_draw_two_chosen_player_draws_two_and_keeps_their_turn() -> None:
    game = make_game([["WT2"] * 7, ["W"] * 7, ["WS"] * 7, ["W+2"] * 7], draw=["WX", "WR", "W+4", "WS2"])
    game.apply_notation(0, "WT2")
    assert game.phase_name == "target"
    assert game.actor == 0
    assert legal(game, 0) == ["@1", "@2", "@3"]
    mark = len(game.events)
    game.apply_notation(0, "@2")
    assert events_since(game, mark) == [("target", 0, 2, ()), ("draw", 2, 2, ("WX", "WR"))]
    assert sizes(game) == [6, 7, 9, 7]
    assert game.turn == 1
    assert game.phase_name == "turn"
    # Targeting the next player: they draw two and still play.
    game.apply_notation(1, "W")
    game.apply_notation(2, "WS")
    assert game.turn == 0
    game.apply_notation(0, "WT2")
    mark = len(game.events)
    game.apply_notation(0, "@1")
    assert events_since(game, mark) == [("target", 0, 1, ()), ("draw", 1, 2, ("W+4", "WS2"))]
    assert hand(game, 1) == sorted(["W"] * 6 + ["W+4", "WS2"])
    assert game.turn == game.actor == 1
    assert game.phase_name == "turn"


def test_targeted_draw_two_cannot_target_yourself() -> None:
    game = make_game([["WT2"] * 7, ["W"] * 7, ["WS"] * 7])
    game.apply_notation(0, "WT2")
    assert legal(game, 0) == ["@1", "@2"]
    before = game.state_key()
    with pytest.raises(IllegalActionError):
        game.apply_notation(0, "@0")
    with pytest.raises(IllegalActionError):
        game.apply_notation(0, "@3")
    assert game.state_key() == before


def test_forced_swap_must_choose_another_player_and_hands_are_exchanged() -> None:
    game = make_game(
        [["WX", "W", "W", "WR", "WR", "WS", "WS"], ["W+2"] * 7, ["W+4", "W+4", "WT2", "WT2", "WS2", "WS2", "W"]]
    )
    game.apply_notation(0, "WX")
    assert game.phase_name == "target"
    assert game.actor == 0
    assert legal(game, 0) == ["@1", "@2"]
    with pytest.raises(IllegalActionError):
        game.apply_notation(0, "pass")
    with pytest.raises(IllegalActionError):
        game.apply_notation(0, "@0")
    mark = len(game.events)
    game.apply_notation(0, "@2")
    assert events_since(game, mark) == [("target", 0, 2, ()), ("swap", 0, 2, ())]
    assert hand(game, 0) == sorted(["W+4", "W+4", "WT2", "WT2", "WS2", "WS2", "W"])
    assert hand(game, 2) == sorted(["W", "W", "WR", "WR", "WS", "WS"])
    assert hand(game, 1) == ["W+2"] * 7
    assert game.turn == 1
    assert game.exposed == []
    assert game.all_cards() == Counter(game.deck_cards)


def test_forced_swap_player_left_with_one_card_is_exposed_and_can_be_caught() -> None:
    game = make_game([["WX", "W"], ["W+2", "W+2"], ["WS", "WS"]], draw=["WR", "WR"])
    game.apply_notation(0, "WX!")
    game.apply_notation(0, "@1")
    assert hand(game, 0) == ["W+2", "W+2"]
    assert hand(game, 1) == ["W"]
    assert game.exposed == [1]
    assert game.turn == 1
    assert game.deciders() == (0, 1, 2)
    assert legal(game, 0) == ["catch@1"]
    assert legal(game, 1) == ["W", "draw", "uno"]
    game.apply_notation(2, "catch@1")
    assert ("catch", 2, 1, ()) in game.events
    assert hand(game, 1) == ["W", "WR", "WR"]
    assert game.exposed == []
    assert game.turn == 1


def test_forced_swap_player_left_with_one_card_may_call_uno() -> None:
    game = make_game([["WX", "W"], ["W+2", "W+2"], ["WS", "WS"]])
    game.apply_notation(0, "WX!")
    game.apply_notation(0, "@1")
    assert game.exposed == [1]
    game.apply_notation(1, "uno")
    assert ("uno", 1, 0, ()) in game.events
    assert game.exposed == []
    assert legal(game, 0) == []
    assert legal(game, 1) == ["W", "draw"]


def test_forced_swap_resets_uno_calls() -> None:
    # Seat 1 calls UNO; seat 0 calls UNO too, then swaps with seat 1: both now hold one card uncalled.
    game = make_game([["W", "WX", "W"], ["WS2", "WS", "W+2"], ["WR", "WR", "WR"]])
    game.apply_notation(0, "W")
    game.apply_notation(1, "WS2")
    assert game.turn == 1
    game.apply_notation(1, "WS!")
    assert hand(game, 1) == ["W+2"]
    assert game.turn == 0
    assert game.exposed == []
    game.apply_notation(0, "WX!")
    assert game.exposed == []
    game.apply_notation(0, "@1")
    assert hand(game, 0) == ["W+2"]
    assert hand(game, 1) == ["W"]
    assert sorted(game.exposed) == [0, 1]
    assert game.turn == 1
    assert legal(game, 2) == ["catch@0", "catch@1"]
    assert legal(game, 0) == ["uno", "catch@1"]
    game.apply_notation(2, "catch@0")
    assert len(game.hands[0]) == 3
    assert game.exposed == [1]


def test_forced_swap_as_final_card_wins_by_default() -> None:
    assert Rules().forced_swap_final_card == "wins"
    game = make_game([["WX"], ["W+2"], ["WS"]], scoring="winner-collects")
    mark = len(game.events)
    game.apply_notation(0, "WX")
    events = events_since(game, mark)
    assert [e[0] for e in events[:5]] == ["play", "hand", "hand", "hand", "round_end"]
    assert ("hand", 1, 50, ("W+2",)) in events
    assert ("hand", 2, 50, ("WS",)) in events
    assert ("round_end", 0, 100, (100, 0, 0)) in events
    assert "swap" not in [e[0] for e in events]
    assert game.scores == [100, 0, 0]
    assert game.round == 2


def test_forced_swap_as_final_card_swaps_with_option_swaps() -> None:
    game = make_game([["WX"], ["W+2"], ["W"]], forced_swap_final_card="swaps", scoring="winner-collects")
    game.apply_notation(0, "WX")
    assert game.phase_name == "target"
    assert game.actor == 0
    assert legal(game, 0) == ["@1", "@2"]
    mark = len(game.events)
    game.apply_notation(0, "@2")
    events = events_since(game, mark)
    assert events[:2] == [("target", 0, 2, ()), ("swap", 0, 2, ())]
    assert ("hand", 0, 20, ("W",)) in events
    assert ("hand", 1, 50, ("W+2",)) in events
    assert ("hand", 2, 0, ()) in events
    assert ("round_end", 2, 70, (0, 0, 70)) in events
    assert game.scores == [0, 0, 70]


def test_targeted_draw_two_as_final_card_target_draws_two_then_round_ends() -> None:
    game = make_game([["WT2"], ["W"], ["WS"]], draw=["W+4", "WX"], scoring="winner-collects")
    game.apply_notation(0, "WT2")
    assert game.phase_name == "target"
    assert legal(game, 0) == ["@1", "@2"]
    mark = len(game.events)
    game.apply_notation(0, "@1")
    events = events_since(game, mark)
    assert events[:2] == [("target", 0, 1, ()), ("draw", 1, 2, ("W+4", "WX"))]
    assert ("hand", 1, 120, ("W", "W+4", "WX")) in events
    assert ("hand", 2, 50, ("WS",)) in events
    assert ("round_end", 0, 170, (170, 0, 0)) in events
    assert game.scores == [170, 0, 0]


def test_final_wild_draw_two_next_player_still_draws_and_cards_count() -> None:
    game = make_game([["W+2"], ["W"]], draw=["WX", "WT2"], scoring="winner-collects")
    game.apply_notation(0, "W+2")
    assert ("draw", 1, 2, (parse_card("WX"), parse_card("WT2"))) in game.events
    assert ("round_end", 0, 120, (120, 0)) in game.events


# ---------------------------------------------------------------- drawing instead of playing


def test_draw_instead_of_playing_then_play_the_drawn_card() -> None:
    game = make_game([["W"] * 7, ["WS"] * 7], draw=["WR"])
    game.apply_notation(0, "draw")
    assert game.phase_name == "drawn"
    assert game.actor == 0
    assert hand(game, 0) == sorted(["W"] * 7 + ["WR"])
    assert legal(game, 0) == ["WR", "pass"]
    with pytest.raises(IllegalActionError):
        game.apply_notation(0, "W")
    game.apply_notation(0, "WR")
    assert hand(game, 0) == ["W"] * 7
    assert card_name(game.top_card) == "WR"
    assert game.turn == 0  # Wild Reverse with two players skips the opponent


def test_draw_instead_of_playing_then_pass() -> None:
    game = make_game([["W"] * 7, ["WS"] * 7, ["WR"] * 7], draw=["W+4"])
    game.apply_notation(0, "draw")
    assert legal(game, 0) == ["W+4", "pass"]
    mark = len(game.events)
    game.apply_notation(0, "pass")
    assert events_since(game, mark) == [("pass", 0, 0, ())]
    assert hand(game, 0) == sorted(["W"] * 7 + ["W+4"])
    assert game.turn == 1
    assert sizes(game) == [8, 7, 7]


def test_draw_with_one_card_then_the_drawn_card_may_be_played_with_an_uno_call() -> None:
    game = make_game([["W"], ["WS"]], draw=["WS2"])
    game.apply_notation(0, "draw")
    assert legal(game, 0) == ["WS2", "WS2!", "pass"]
    game.apply_notation(0, "WS2!")
    assert hand(game, 0) == ["W"]
    assert game.exposed == []
    assert game.turn == 0


# ---------------------------------------------------------------- UNO and winning


def test_uno_call_with_next_to_last_card() -> None:
    game = make_game([["W", "WS"], ["W", "W"], ["W", "W"]])
    assert legal(game, 0) == ["W", "WS", "W!", "WS!", "draw"]
    game.apply_notation(0, "W!")
    assert ("play", 0, 1, (parse_card("W"),)) in game.events
    assert game.exposed == []
    assert game.deciders() == (1,)
    assert legal(game, 2) == []


def test_uno_not_called_caught_draws_two() -> None:
    game = make_game([["W", "WS"], ["W", "W"], ["W", "W"]], draw=["WX", "WT2"])
    game.apply_notation(0, "W")
    assert game.exposed == [0]
    assert game.deciders() == (0, 1, 2)
    assert legal(game, 0) == ["uno"]
    assert legal(game, 2) == ["catch@0"]
    game.apply_notation(2, "catch@0")
    assert hand(game, 0) == sorted(["WS", "WX", "WT2"])
    assert game.exposed == []
    assert game.turn == 1


def test_uno_late_call_before_the_next_player_acts_avoids_the_penalty() -> None:
    game = make_game([["W", "WS"], ["W", "W"], ["W", "W"]])
    game.apply_notation(0, "W")
    game.apply_notation(0, "uno")
    assert game.exposed == []
    assert legal(game, 1) == ["W", "W!", "draw"]
    assert hand(game, 0) == ["WS"]


def test_uno_catch_window_closes_when_the_next_player_acts() -> None:
    game = make_game([["W", "WS"], ["W+2", "W"], ["W", "W"]])
    game.apply_notation(0, "W")
    game.apply_notation(1, "W!")
    assert game.exposed == []
    assert legal(game, 2) == ["W", "W!", "draw"]
    with pytest.raises(IllegalActionError):
        game.apply_notation(2, "catch@0")
    assert hand(game, 0) == ["WS"]


def test_winning_on_the_final_card() -> None:
    # The sheet's "Winning": the player who plays their final card wins (the default scoring
    # is the edition's, a single round; points to 500 are test_scoring_all_wild.py's).
    game = make_game([["WS", "W"], ["W+4", "WR"]])
    game.apply_notation(0, "WS!")
    assert game.turn == 0
    mark = len(game.events)
    game.apply_notation(0, "W")
    events = events_since(game, mark)
    assert events[0] == ("play", 0, 0, ("W",))
    assert events[1:4] == [("hand", 0, 0, ()), ("hand", 1, 100, ("W+4", "WR")), ("round_end", 0, 0, (0, 0))]
    assert events[4:] == [("match_end", 0, 1, (0, 0))]
    assert game.scores == [0, 0]
    assert game.round == 1
    assert game.winner == 0 and game.is_over


# ---------------------------------------------------------------- scoring


def test_scoring_wild_20_points_every_other_card_50() -> None:
    edition = Game(EDITION, 2, seed=1).edition
    assert edition.hand_points([parse_card("W")]) == 20
    for kind in ACTION_KINDS:
        assert edition.hand_points([parse_card(kind)]) == 50
    assert edition.hand_points([parse_card(k) for k in KINDS]) == 20 + 7 * 50
    game = make_game([["WS"] * 6 + ["W"], ["W", "WR", "WS", "WS2", "W+2", "W+4", "WT2"]], scoring="winner-collects")
    for _ in range(5):
        game.apply_notation(0, "WS")
    game.apply_notation(0, "WS!")
    game.apply_notation(0, "W")
    assert ("hand", 1, 320, tuple(sorted(parse_card(k) for k in ["W", *ACTION_KINDS[:-1]]))) in game.events
    assert ("round_end", 0, 320, (320, 0)) in game.events
    assert game.scores == [320, 0]
    assert not game.is_over


def test_scoring_winner_collects_first_to_500_wins() -> None:
    game = make_game([["WS2"] * 6 + ["W"], ["W+4"] * 7, ["W+2"] * 7], scoring="winner-collects")
    for _ in range(5):
        game.apply_notation(0, "WS2")
    game.apply_notation(0, "WS2!")
    game.apply_notation(0, "W")
    assert ("round_end", 0, 700, (700, 0, 0)) in game.events
    assert game.events[-1] == ("match_end", 0, 1, (700, 0, 0))
    assert game.is_over
    assert game.winner == 0
    assert game.phase_name == "over"
    assert game.deciders() == ()


def test_scoring_single_round_first_player_out_wins_without_points() -> None:
    game = make_game([["W"], ["W+4"], ["WX"]], scoring="single-round")
    game.apply_notation(0, "W")
    assert ("round_end", 0, 0, (0, 0, 0)) in game.events
    assert game.events[-1] == ("match_end", 0, 1, (0, 0, 0))
    assert game.scores == [0, 0, 0]
    assert game.winner == 0
    assert game.is_over
