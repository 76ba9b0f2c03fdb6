"""UNO Space Jam: one test per rule of the Space Jam rule sheet and its decisions.

Scenarios are built with stacked decks, so every hand, start card and draw is known.
Seat ``n - 1`` deals unless a test says otherwise, so seat 0 plays first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from rules_support import events_since, hand, legal, names, stacked_game
from unokit import Game, NotationError, Rules
from unokit.engine.cards import NO_COLOUR, Colour, card_name, parse_card
from unokit.engine.errors import IllegalActionError, UnknownOptionError

EDITION = "space-jam"
YELLOWS = ["Y1", "Y2", "Y4", "Y5", "Y6", "Y7", "Y8"]
BLUES = ["B1", "B3", "B4", "B5", "B7", "B8", "B9"]
WJ = parse_card("WJ")


def make_game(
    hands: Sequence[Sequence[str]],
    start: str,
    draw: Sequence[str] = (),
    *,
    dealer: int | None = None,
    seed: int = 1,
    **options: Any,
) -> Game:
    """A Space Jam game dealing exactly ``hands`` (hand size taken from the hands)."""
    return stacked_game(EDITION, hands, start, draw, dealer=dealer, seed=seed, **options)


def deck_counts() -> Counter[str]:
    return Counter(card_name(c) for c in Game(EDITION, 2, seed=3).deck_cards)


# ---------------------------------------------------------------- contents


def test_deck_has_112_cards() -> None:
    game = Game(EDITION, 4, seed=5)
    assert len(game.deck_cards) == 112
    assert sum(game.all_cards().values()) == 112
    assert game.all_cards() == Counter(game.deck_cards)


def test_colours_are_blue_orange_red_and_yellow() -> None:
    game = Game(EDITION, 2, seed=5)
    assert set(game.edition.colours) == {Colour.BLUE, Colour.ORANGE, Colour.RED, Colour.YELLOW}
    counts = deck_counts()
    coloured = {name[0] for name in counts if not name.startswith("W")}
    assert coloured == {"B", "O", "R", "Y"}


def test_each_colour_has_19_number_cards_one_zero_and_two_each_of_1_to_9() -> None:
    counts = deck_counts()
    for letter in "BORY":
        assert counts[f"{letter}0"] == 1
        for number in range(1, 10):
            assert counts[f"{letter}{number}"] == 2
        assert sum(counts[f"{letter}{number}"] for number in range(10)) == 19


def test_eight_each_of_draw_two_reverse_and_skip_two_per_colour() -> None:
    counts = deck_counts()
    for symbol in ("+2", "R", "S"):
        for letter in "BORY":
            assert counts[f"{letter}{symbol}"] == 2
        assert sum(counts[f"{letter}{symbol}"] for letter in "BORY") == 8


def test_four_wild_four_wild_draw_four_and_four_wild_jam_cards() -> None:
    counts = deck_counts()
    assert counts["W"] == 4
    assert counts["W+4"] == 4
    assert counts["WJ"] == 4
    assert sorted(name for name in counts if name.startswith("W")) == ["W", "W+4", "WJ"]
    assert 4 * 19 + 3 * 8 + 3 * 4 == sum(counts.values()) == 112


def test_no_green_card() -> None:
    counts = deck_counts()
    assert not any(name.startswith("G") for name in counts)
    game = make_game([["W", "R1", "R2", "R3", "R4", "R5", "R6"], YELLOWS], "R9")
    assert Colour.GREEN not in game.edition.colours
    with pytest.raises(NotationError):
        game.actions.parse("=G")
    with pytest.raises(NotationError):
        game.actions.parse("G5")
    game.apply_notation(0, "W")
    assert legal(game, 0) == ["=R", "=Y", "=O", "=B"]


# ---------------------------------------------------------------- the Jam


def test_jam_slam_discard_two_cards_of_your_choice_under_the_jam_then_choose_colour() -> None:
    game = make_game(
        [["WJ", "R1", "B2", "Y3", "O4", "R5", "B6"], ["Y1", "Y2", "Y4", "Y5", "Y6", "Y7", "Y8"]],
        "R9",
        jam_slam_chance=1.0,
    )
    mark = len(game.events)
    game.apply_notation(0, "WJ")
    assert game.phase_name == "discard"
    assert game.actor == 0
    assert legal(game, 0) == ["-R1", "-R5", "-Y3", "-B2", "-B6", "-O4"]
    game.apply_notation(0, "-Y3")
    assert game.phase_name == "discard"
    assert legal(game, 0) == ["-R1", "-R5", "-B2", "-B6", "-O4"]
    with pytest.raises(IllegalActionError):
        game.apply_notation(0, "-Y3")
    game.apply_notation(0, "-B6")
    assert game.phase_name == "colour"
    assert game.actor == 0
    assert legal(game, 0) == ["=R", "=Y", "=O", "=B"]
    assert hand(game, 0) == ["B2", "O4", "R1", "R5"]
    assert names(game.discard_pile) == ["R9", "Y3", "B6", "WJ"]
    assert game.top_card == WJ
    game.apply_notation(0, "=Y")
    assert game.colour == Colour.YELLOW
    assert game.turn == game.actor == 1
    assert game.phase_name == "turn"
    assert events_since(game, mark) == [
        ("play", 0, 0, ("WJ",)),
        ("jam", 0, 1, ()),
        ("discard", 0, 0, ("Y3",)),
        ("discard", 0, 0, ("B6",)),
        ("colour", 0, Colour.YELLOW, ()),
    ]
    assert game.all_cards() == Counter(game.deck_cards)


def test_jam_back_up_draw_two_then_choose_colour() -> None:
    game = make_game(
        [["WJ", "R1", "B2", "Y3", "O4", "R5", "B6"], ["Y1", "Y2", "Y4", "Y5", "Y6", "Y7", "Y8"]],
        "R9",
        ["O7", "B+2"],
        jam_slam_chance=0.0,
    )
    mark = len(game.events)
    game.apply_notation(0, "WJ")
    assert game.phase_name == "colour"
    assert game.actor == 0
    assert legal(game, 0) == ["=R", "=Y", "=O", "=B"]
    assert hand(game, 0) == sorted(["R1", "B2", "Y3", "O4", "R5", "B6", "O7", "B+2"])
    assert len(game.hands[0]) == 8
    game.apply_notation(0, "=O")
    assert game.colour == Colour.ORANGE
    assert game.top_card == WJ
    assert game.turn == 1
    assert game.phase_name == "turn"
    assert events_since(game, mark) == [
        ("play", 0, 0, ("WJ",)),
        ("jam", 0, 0, ()),
        ("draw", 0, 2, ("O7", "B+2")),
        ("colour", 0, Colour.ORANGE, ()),
    ]


def test_jam_back_up_clears_an_uncalled_uno() -> None:
    game = make_game([["WJ", "R1"], ["Y1", "Y2"]], "R9", ["O7", "B+2"], jam_slam_chance=0.0)
    game.apply_notation(0, "WJ")
    assert hand(game, 0) == ["B+2", "O7", "R1"]
    assert game.exposed == []
    assert game.deciders() == (0,)
    assert legal(game, 1) == []


JAM_HANDS = [["WJ", "R1", "B2", "Y3", "O4", "R5", "B6"], ["Y1", "Y2", "Y4", "Y5", "Y6", "Y7", "Y8"]]


def drop_outcomes(seeds: range, **options: Any) -> list[int]:
    """Play the Jam once in a fresh game per seed; the ``jam`` event values (1 = Slam)."""
    outcomes = []
    for seed in seeds:
        game = make_game(JAM_HANDS, "R9", seed=seed, **options)
        game.apply_notation(0, "WJ")
        jams = [value for kind, _, value, _ in game.events if kind == "jam"]
        assert len(jams) == 1
        assert game.phase_name == ("discard" if jams[0] else "colour")
        outcomes.append(jams[0])
    return outcomes


def test_jam_slam_chance_defaults_to_one_half() -> None:
    assert Rules().jam_slam_chance == 0.5
    outcomes = drop_outcomes(range(400))
    assert set(outcomes) == {0, 1}
    assert 0.42 <= sum(outcomes) / len(outcomes) <= 0.58


def test_jam_slam_chance_is_configurable() -> None:
    outcomes = drop_outcomes(range(400), jam_slam_chance=0.2)
    assert set(outcomes) == {0, 1}
    assert 0.13 <= sum(outcomes) / len(outcomes) <= 0.27
    outcomes = drop_outcomes(range(400), jam_slam_chance=0.8)
    assert 0.73 <= sum(outcomes) / len(outcomes) <= 0.87
    for bad in (-0.1, 1.5, "half", True):
        with pytest.raises(UnknownOptionError):
            Rules.from_dict({"jam_slam_chance": bad})


def test_jam_slam_chance_one_always_slams_and_zero_always_lands_back_up() -> None:
    assert drop_outcomes(range(60), jam_slam_chance=1.0) == [1] * 60
    assert drop_outcomes(range(60), jam_slam_chance=0.0) == [0] * 60


def test_jam_drop_is_reproducible_for_a_seed() -> None:
    assert drop_outcomes(range(50)) == drop_outcomes(range(50))


def test_jam_slam_with_fewer_than_two_cards_discards_what_you_have() -> None:
    game = make_game([["WJ", "R1"], ["Y1", "Y2"]], "R9", jam_slam_chance=1.0)
    mark = len(game.events)
    game.apply_notation(0, "WJ!")
    assert game.phase_name == "discard"
    assert game.actor == 0
    assert legal(game, 0) == ["-R1"]
    game.apply_notation(0, "-R1")
    assert [e for e in events_since(game, mark) if e[0] in ("jam", "discard", "colour", "round_end")] == [
        ("jam", 0, 1, ()),
        ("discard", 0, 0, ("R1",)),
        ("round_end", 0, 3, (3, 0)),
    ]
    assert game.scores == [3, 0]
    assert game.round == 2


def test_jam_discard_that_takes_you_out_wins_the_round() -> None:
    game = make_game([["WJ", "R1", "B2"], ["Y1", "Y2", "O+2"]], "R9", jam_slam_chance=1.0)
    mark = len(game.events)
    game.apply_notation(0, "WJ")
    game.apply_notation(0, "-R1")
    assert game.phase_name == "discard"
    assert game.actor == 0
    game.apply_notation(0, "-B2")
    ended = events_since(game, mark)
    kinds = [e[0] for e in ended]
    assert "colour" not in kinds
    assert ("hand", 0, 0, ()) in ended
    assert ("hand", 1, 23, ("Y1", "Y2", "O+2")) in ended
    assert ("round_end", 0, 23, (23, 0)) in ended
    assert kinds.index("round_end") > kinds.index("discard")
    assert game.scores == [23, 0]
    assert game.round == 2
    assert game.winner == -1


def test_jam_discard_down_to_one_card_exposes_you_to_an_uno_catch() -> None:
    game = make_game(
        [["WJ", "R1", "B2", "Y3"], ["Y1", "Y2", "Y4", "Y5"], ["B1", "B3", "B4", "B5"]],
        "R9",
        ["O1", "O2"],
        jam_slam_chance=1.0,
    )
    game.apply_notation(0, "WJ")
    game.apply_notation(0, "-R1")
    assert game.exposed == []
    assert game.deciders() == (0,)
    game.apply_notation(0, "-Y3")
    assert hand(game, 0) == ["B2"]
    assert game.exposed == [0]
    assert game.phase_name == "colour"
    assert game.deciders() == (0, 1, 2)
    assert legal(game, 0) == ["=R", "=Y", "=O", "=B", "uno"]
    assert legal(game, 1) == ["catch@0"]
    assert legal(game, 2) == ["catch@0"]
    game.apply_notation(2, "catch@0")
    assert ("catch", 2, 0, ()) in game.events
    assert hand(game, 0) == ["B2", "O1", "O2"]
    assert game.exposed == []
    assert game.deciders() == (0,)
    assert legal(game, 0) == ["=R", "=Y", "=O", "=B"]
    game.apply_notation(0, "=B")
    assert game.turn == 1


def test_jam_discard_down_to_one_card_then_calling_uno_avoids_the_catch() -> None:
    game = make_game([["WJ", "R1", "B2", "Y3"], ["Y1", "Y2", "Y4", "Y5"]], "R9", jam_slam_chance=1.0)
    game.apply_notation(0, "WJ")
    game.apply_notation(0, "-R1")
    game.apply_notation(0, "-Y3")
    assert game.exposed == [0]
    assert legal(game, 1) == ["catch@0"]
    game.apply_notation(0, "uno")
    assert game.exposed == []
    assert legal(game, 1) == []
    assert ("uno", 0, 0, ()) in game.events
    with pytest.raises(IllegalActionError):
        game.apply_notation(1, "catch@0")
    game.apply_notation(0, "=B")
    assert hand(game, 0) == ["B2"]
    assert game.turn == 1
    assert legal(game, 1) == ["draw"]


def test_jam_discard_down_to_one_card_can_be_caught_until_the_next_player_acts() -> None:
    game = make_game([["WJ", "R1", "B2", "Y3"], ["Y1", "Y2", "Y4", "Y5"]], "R9", ["O1", "O2"], jam_slam_chance=1.0)
    game.apply_notation(0, "WJ")
    game.apply_notation(0, "-R1")
    game.apply_notation(0, "-Y3")
    game.apply_notation(0, "=Y")
    assert game.turn == 1
    assert game.exposed == [0]
    assert game.deciders() == (0, 1)
    assert legal(game, 1) == ["Y1", "Y2", "Y4", "Y5", "draw", "catch@0"]
    game.apply_notation(1, "catch@0")
    assert hand(game, 0) == ["B2", "O1", "O2"]
    assert ("catch", 1, 0, ()) in game.events
    assert game.turn == 1
    assert game.phase_name == "turn"
    assert legal(game, 1) == ["Y1", "Y2", "Y4", "Y5", "draw"]


def test_jam_discard_window_closes_when_the_next_player_begins_their_turn() -> None:
    game = make_game([["WJ", "R1", "B2", "Y3"], ["Y1", "Y2", "Y4", "Y5"]], "R9", jam_slam_chance=1.0)
    game.apply_notation(0, "WJ")
    game.apply_notation(0, "-R1")
    game.apply_notation(0, "-Y3")
    game.apply_notation(0, "=Y")
    game.apply_notation(1, "Y4")
    assert game.exposed == []
    assert game.deciders() == (0,)
    assert legal(game, 1) == []
    assert hand(game, 0) == ["B2"]


def test_final_jam_card_wins_without_a_drop() -> None:
    game = make_game([["WJ"], ["Y1"]], "R9", jam_slam_chance=1.0)
    mark = len(game.events)
    game.apply_notation(0, "WJ")
    assert [e[0] for e in events_since(game, mark)[:4]] == ["play", "hand", "hand", "round_end"]
    assert ("round_end", 0, 1, (1, 0)) in game.events
    assert not any(kind in ("jam", "discard", "colour") for kind, *_ in game.events[mark:])
    assert game.round == 2


def test_start_card_jam_left_of_dealer_chooses_colour_without_a_drop() -> None:
    game = make_game(
        [["R1", "R2", "R3", "R4", "R5", "R6", "R7"], YELLOWS, BLUES],
        "WJ",
        dealer=1,
        jam_slam_chance=1.0,
    )
    assert game.top_card == WJ
    assert game.phase_name == "colour"
    assert game.actor == 2
    assert game.colour == NO_COLOUR
    assert legal(game, 2) == ["=R", "=Y", "=O", "=B"]
    assert [len(h) for h in game.hands] == [7, 7, 7]
    assert not any(kind in ("jam", "discard", "draw") for kind, *_ in game.events)
    game.apply_notation(2, "=B")
    assert game.colour == Colour.BLUE
    assert game.turn == game.actor == 2
    assert game.phase_name == "turn"
    assert legal(game, 2) == ["B1", "B3", "B4", "B5", "B7", "B8", "B9", "draw"]
    assert [len(h) for h in game.hands] == [7, 7, 7]
    assert len(game.draw_pile) == 112 - 21 - 1


def test_wild_jam_is_a_wild_card_playable_on_anything() -> None:
    game = make_game([["WJ", "R1", "R2", "R3", "R4", "R5", "R6"], YELLOWS], "B+2", dealer=0)
    # B+2 start: seat 1 draws two and is skipped; seat 0 holds no blue and no Draw Two.
    assert game.turn == 0
    assert legal(game, 0) == ["WJ", "draw"]


def test_jam_scores_50_points() -> None:
    game = make_game([["R1"], ["WJ"]], "R9")
    assert game.edition.hand_points([WJ]) == 50
    assert game.edition.hand_points([WJ, parse_card("W"), parse_card("W+4"), parse_card("O7")]) == 157
    game.apply_notation(0, "R1")
    assert ("hand", 1, 50, (WJ,)) in game.events
    assert ("round_end", 0, 50, (50, 0)) in game.events
    assert game.scores == [50, 0]


# ---------------------------------------------------------------- the classic base with orange


def test_orange_cards_match_by_colour_and_by_number() -> None:
    game = make_game([["O1", "B5", "R2", "Y9", "OS", "W", "W+4"], ["O3", "Y3", "B3", "R3", "B6", "R6", "Y6"]], "O5")
    assert game.colour == Colour.ORANGE
    assert legal(game, 0) == ["B5", "O1", "OS", "W", "W+4", "draw"]
    game.apply_notation(0, "B5")
    assert game.colour == Colour.BLUE
    assert legal(game, 1) == ["B3", "B6", "draw"]


def test_orange_skip_skips_the_next_player() -> None:
    game = make_game(
        [["OS", "R1", "R2", "R3", "R4", "R5", "R6"], YELLOWS, ["O1", "O2", "O3", "O4", "O6", "O7", "O8"]],
        "O9",
    )
    game.apply_notation(0, "OS")
    assert game.colour == Colour.ORANGE
    assert ("skip", 1, 0, ()) in game.events
    assert game.turn == 2
    assert legal(game, 2) == ["O1", "O2", "O3", "O4", "O6", "O7", "O8", "draw"]


def test_wild_can_choose_orange() -> None:
    game = make_game(
        [["W", "R1", "R2", "R3", "R4", "R5", "R6"], ["O1", "Y2", "B3", "R7", "O+2", "Y+2", "BR"]],
        "R9",
        ["B7", "B8"],
    )
    game.apply_notation(0, "W")
    assert legal(game, 0) == ["=R", "=Y", "=O", "=B"]
    game.apply_notation(0, "=O")
    assert game.colour == Colour.ORANGE
    assert ("colour", 0, Colour.ORANGE, ()) in game.events
    assert legal(game, 1) == ["O1", "O+2", "draw"]
    game.apply_notation(1, "O+2")
    assert hand(game, 0) == ["B7", "B8", "R1", "R2", "R3", "R4", "R5", "R6"]
    assert game.colour == Colour.ORANGE
    assert game.turn == 1


def test_wild_draw_four_bluff_holding_orange_is_caught_by_a_challenge() -> None:
    game = make_game(
        [["W+4", "O1", "R2", "R3", "R4", "R5", "R6"], YELLOWS],
        "O9",
        ["B1", "B3", "B4", "B5"],
    )
    game.apply_notation(0, "W+4")
    game.apply_notation(0, "=Y")
    assert game.phase_name == "challenge"
    assert game.actor == 1
    assert legal(game, 1) == ["challenge", "accept"]
    game.apply_notation(1, "challenge")
    assert ("verdict", 0, 1, ()) in game.events
    assert hand(game, 0) == sorted(["O1", "R2", "R3", "R4", "R5", "R6", "B1", "B3", "B4", "B5"])
    assert hand(game, 1) == YELLOWS
    assert game.colour == Colour.YELLOW
    assert game.turn == 1
    assert game.phase_name == "turn"
