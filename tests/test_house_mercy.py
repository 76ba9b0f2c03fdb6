"""The Mercy house rule (docs/rules.md, "Mercy"): a player holding ``mercy_limit`` cards or more is
out of the round at once; their hand goes face up under the discard pile; the last player (team)
left wins the round; the next round deals everyone in again."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules_support import events_since, hand, legal, names, stacked_game
from test_rules_wild_jackpot import make_game as jackpot_game
from unokit import Game, Rules
from unokit.determinize import sample_game
from unokit.editions.house import HouseGame
from unokit.engine.cards import Colour
from unokit.engine.errors import UnknownOptionError
from unokit.engine.record import replay, to_record
from unokit.narrate import Narrator, plain

P0 = ["R+2", "RS", "B1", "B2", "B3", "B4", "B6", "B7", "B8"]
P1 = ["G1", "G2", "G3", "G4", "G6", "G7", "G8", "G9", "G0"]
P2 = ["RR", "R+2", "Y1", "Y2", "Y3", "Y4", "Y6", "Y7", "Y8"]
P3 = ["Y9", "Y0", "G1", "G2", "G3", "G4", "G6", "G7", "G8"]
"""Hands of nine on a red 5: seat 0 holds a Draw Two and a Skip, seat 2 a Reverse and a Draw Two,
the rest match nothing."""
DRAW = ["B9", "B0", "G5", "G5"]


def mercy_game(hands: list[list[str]], draw: list[str] = DRAW, **options: object) -> Game:
    return stacked_game("classic", hands, "R5", draw, mercy=True, mercy_limit=10, **options)


# ---------------------------------------------------------------- options


def test_mercy_options_validated_and_off_costs_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Rules().mercy is False and Rules().mercy_limit == 25
    assert Rules.preset("no-mercy").mercy is True
    for bad in (1, 201, "25", 2.5, True):
        with pytest.raises(UnknownOptionError, match="mercy_limit"):
            Rules.from_dict({"mercy_limit": bad})
    with pytest.raises(UnknownOptionError, match="mercy"):
        Game("classic", 3, rules={"mercy": "yes"})
    plain_game = Game("classic", 3, seed=1)
    assert type(plain_game) is Game and not hasattr(plain_game, "_settle")
    # a house game without Mercy never runs the settle step
    monkeypatch.setattr(HouseGame, "_settle", lambda self: pytest.fail("settled without mercy"))
    game = Game("classic", 3, seed=1, rules={"jump_in": True})
    rng = random.Random(1)
    for _ in range(200):
        seat = rng.choice(game.deciders())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert "out" not in game.view(None).state


# ---------------------------------------------------------------- going out of the round


def test_mercy_limit_hand_goes_under_discard_pile() -> None:
    game = mercy_game([P0, P1, P2])
    start = len(game.events)
    game.apply_notation(0, "R+2")
    held = [*P1, "B9", "B0"]
    assert events_since(game, start) == [
        ("play", 0, 0, ("R+2",)),
        ("draw", 1, 2, ("B9", "B0")),
        ("skip", 1, 0, ()),
        ("mercy", 1, 11, tuple(held)),
    ]
    # face up under the top card, which stays on top
    assert names(game.discard_pile) == ["R5", *held, "R+2"]
    assert game.hands[1] == [] and game.all_cards() == Counter(game.deck_cards)
    assert game.out == {1} and game.players_in == 2 and game.seats_in() == (0, 2)
    assert game.actor == 2 and game.deciders() == (2,) and legal(game, 1) == []
    assert game.view(None).state["out"] == (1,) and game.view(2).hand_sizes[1] == 0
    game.apply_notation(2, "RR")  # two players left: a Reverse acts as a Skip
    assert game.actor == 2 and game.direction == -1


def test_mercy_drawer_out_cannot_play_drawn_card() -> None:
    game = mercy_game([P1, P3, [*P2[2:], "B9", "B0"]], ["R3"])
    start = len(game.events)
    game.apply_notation(0, "draw")
    assert events_since(game, start) == [("draw", 0, 1, ("R3",)), ("mercy", 0, 10, (*P1, "R3"))]
    assert game.drawn == -1 and game.phase_name == "turn" and game.actor == 1
    assert legal(game, 0) == [] and names(game.discard_pile)[-1] == "R5"


def test_mercy_draw_to_match_stops_at_limit() -> None:
    game = mercy_game([P1, P3, [*P2[2:], "B9", "B0"]], ["B9", "R3"], draw_to_match=True)
    start = len(game.events)
    game.apply_notation(0, "draw")
    assert events_since(game, start) == [
        ("draw", 0, 1, ("B9",)),
        ("pass", 0, 0, ()),
        ("mercy", 0, 10, (*P1, "B9")),
    ]  # the R3 after it is not drawn
    assert game.actor == 1 and names(game.draw_pile)[-1] == "R3"


def test_mercy_stepping_skips_out_seats() -> None:
    game = mercy_game([P0, P1, P2, P3])
    game.apply_notation(0, "R+2")  # seat 1 draws 2 and is out
    assert game.out == {1} and game.actor == 2
    assert game.left_of(0) == 2 and game.right_of(2) == 0 and game.next_seat(0) == 2
    game.apply_notation(2, "RR")  # the direction turns: seat 1 is passed over
    assert game.actor == 0 and game.direction == -1 and game.next_seat(0) == 3
    start = len(game.events)
    game.apply_notation(0, "RS")  # seat 3 is skipped, seat 1 passed over
    assert events_since(game, start) == [("play", 0, 0, ("RS",)), ("skip", 3, 0, ())]
    assert game.actor == 2
    # a Draw Two aimed past the empty seat
    game.apply_notation(2, "R+2")
    assert len(game.hands[0]) == 9 and game.actor == 3


def test_mercy_two_players_survivor_wins() -> None:
    game = mercy_game([P0, P1])
    start = len(game.events)
    game.apply_notation(0, "R+2")
    held = (*P1, "B9", "B0")
    events = events_since(game, start)
    assert events[:4] == [
        ("play", 0, 0, ("R+2",)),
        ("draw", 1, 2, ("B9", "B0")),
        ("skip", 1, 0, ()),
        ("mercy", 1, 11, held),
    ]
    points = 1 + 2 + 3 + 4 + 6 + 7 + 8 + 9 + 0 + 9 + 0
    kept = sorted(["RS", "B1", "B2", "B3", "B4", "B6", "B7", "B8"])
    assert events[4][:2] == ("hand", 0) and sorted(events[4][3]) == kept  # the survivor's hand, not scored
    assert events[5] == ("round_end", 0, points, (points, 0))
    # the next round deals everyone in again
    assert game.round == 2 and game.out == frozenset() and game.players_in == 2
    assert len(game.hands[0]) == len(game.hands[1]) == 9
    assert game.view(None).state["out"] == ()


def test_mercy_points_scored_winner_collects() -> None:
    game = stacked_game(
        "classic",
        [["R+2", "R3", "R4"], ["G1", "G2", "G3"], ["R6", "R7", "R8"]],
        "R5",
        ["B1", "B2"],
        mercy=True,
        mercy_limit=5,
    )
    game.apply_notation(0, "R+2")
    assert [e[:3] for e in game.events if e[0] == "mercy"] == [("mercy", 1, 5)]
    game.apply_notation(2, "R6")
    game.apply_notation(0, "R3!")
    game.apply_notation(2, "R7!")
    start = len(game.events)
    game.apply_notation(0, "R4")
    ends = events_since(game, start)
    # seat 1's cards (G1 G2 G3 B1 B2: 9) are collected with seat 2's R8
    assert ("hand", 2, 8, ("R8",)) in ends and not any(e[0] == "hand" and e[1] == 1 for e in ends)
    assert ("round_end", 0, 17, (17, 0, 0)) in ends


def test_mercy_points_scored_running_tally() -> None:
    game = mercy_game([P0, P1, P2], scoring="running-tally")
    game.apply_notation(0, "R+2")
    # seat 1 adds the points of the hand it was put out with; the round goes on
    assert game.scores == [0, 0, 0] and game.out_points[1] == 1 + 2 + 3 + 4 + 6 + 7 + 8 + 9 + 0 + 9 + 0
    game.apply_notation(2, "R+2")  # seat 0 draws 2: ten cards, out too; seat 2 is left
    assert game.round == 2
    assert game.scores[1] == 49 and game.scores[0] == 20 + 1 + 2 + 3 + 4 + 6 + 7 + 8 + 5 + 5  # RS, B1-B8, G5 G5
    assert game.scores[2] == 20 + 1 + 2 + 3 + 4 + 6 + 7 + 8  # the last one left adds its own hand (RR, Ys)


def test_mercy_nobody_left_fewest_spared() -> None:
    # the Jackpot's rule card makes everyone draw 2: all three hold the limit or more at once
    game = jackpot_game(
        [["R$", "B1", "B2"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]],
        texts=["Everyone draws 2 cards"],
        outcome=3,
        mercy=True,
        mercy_limit=4,
    )
    game.apply_notation(0, "R$")
    mercies = [e[:3] for e in game.events if e[0] == "mercy"]
    assert mercies == [("mercy", 1, 5), ("mercy", 2, 5)]  # seat 0, with four, is spared
    ends = [e for e in game.events if e[0] == "round_end"]
    assert ends[0][1] == 0 and game.round == 2


def test_mercy_team_out_other_team_wins() -> None:
    game = mercy_game([P0, P1, P2, P3], teams=True)
    game.apply_notation(0, "R+2")
    assert game.out == {1} and game.round == 1  # seat 3 still plays for team B
    start = len(game.events)
    game.apply_notation(2, "R+2")
    events = events_since(game, start)
    assert ("mercy", 3, 11, (*P3, "G5", "G5")) in events
    assert [e[:2] for e in events if e[0] in ("mercy", "round_end", "team_win")] == [
        ("mercy", 3),
        ("round_end", 0),
        ("team_win", 0),
    ]
    team_win = next(e for e in game.events if e[0] == "team_win")
    assert team_win[2:] == (0, (0, 2)) and game.round == 2


def test_mercy_jam_backup_colour_not_named() -> None:
    hands = [
        ["WJ", "R1", "B2", "Y3", "O4", "R6", "B6"],
        ["Y1", "Y2", "Y4", "Y5", "Y6", "Y7", "Y8"],
        ["B1", "B3", "B4", "B7", "B8", "B9", "B0"],
    ]
    game = stacked_game("space-jam", hands, "R9", ["O7", "B+2"], jam_slam_chance=0.0, mercy=True, mercy_limit=8)
    start = len(game.events)
    game.apply_notation(0, "WJ")
    assert events_since(game, start) == [
        ("play", 0, 0, ("WJ",)),
        ("jam", 0, 0, ()),
        ("draw", 0, 2, ("O7", "B+2")),
        ("mercy", 0, 8, ("R1", "B2", "Y3", "O4", "R6", "B6", "O7", "B+2")),
    ]
    assert game.colour == Colour.RED  # the colour in play stays: none was named
    assert names(game.discard_pile)[-1] == "WJ" and game.phase_name == "turn" and game.actor == 1


def test_mercy_catch_penalty_puts_out_and_cancels_nothing_of_others() -> None:
    game = stacked_game(
        "classic", [["R3", "R4"], ["B1", "B2"], ["G1", "G2"]], "R5", ["B3", "B4"], mercy=True, mercy_limit=3
    )
    game.apply_notation(0, "R3")  # uncalled
    game.apply_notation(1, "catch@0")
    assert [e[:3] for e in game.events if e[0] == "mercy"] == [("mercy", 0, 3)]
    assert game.actor == 1 and game.deciders() == (1,) and game.out == {0}


# ---------------------------------------------------------------- views, records, words


def test_mercy_view_determinization_record_and_words() -> None:
    game = mercy_game([P0, P1, P2])
    game.apply_notation(0, "R+2")
    view = game.view(2)
    assert view.state["out"] == (1,) and view.hand_sizes[1] == 0
    for seed in range(5):
        sampled = sample_game(view, random.Random(seed))
        assert isinstance(sampled, HouseGame) and sampled.out == {1} and sampled.hands[1] == []
        assert sampled.discard_pile == game.discard_pile and sampled.seats_in() == (0, 2)
        assert sampled.legal_actions(2) == game.legal_actions(2)
    assert replay(to_record(game)) == game
    event = next(e for e in game.events if e[0] == "mercy")
    assert plain(Narrator(["Ann", "Bob", "Cy"]).event(event)) == "Bob holds 11 cards: out of the round!"
    assert plain(Narrator(["Ann", "Bob", "Cy"], you=1).event(event)) == "You hold 11 cards: out of the round!"
    assert hand(game, 1) == []
