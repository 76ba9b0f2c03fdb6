"""Knockout scoring (docs/rules.md, "Knockout"): after each round the player with the most cards
leaves the match (ties: the most points; still tied: all of them); the last player (team) left wins."""

from __future__ import annotations

import random

import pytest

from rules_support import stacked_game
from unokit import Game, Rules
from unokit.bots.base import make_bot
from unokit.bots.runner import play_game
from unokit.determinize import sample_game
from unokit.editions.house import HouseGame
from unokit.engine.record import replay, to_record
from unokit.narrate import Narrator, plain

START = "R5"
DRAW = ["B6"]
"""Seat 1's draw: a blue 6 that does not match, so it keeps three cards."""


def knockout_game(p1: list[str], p2: list[str], **options: object) -> Game:
    """Three players, two cards each: seat 0 goes out with R3! then R4, seat 1 draws once on the
    way, seat 2 plays its second card (R9!)."""
    game = stacked_game("classic", [["R3", "R4"], p1, p2], START, DRAW, scoring="knockout", **options)
    game.apply_notation(0, "R3!")
    game.apply_notation(1, "draw")
    game.apply_notation(2, "R9!")
    game.apply_notation(0, "R4")
    return game


def play_randomly(game: Game, seed: int, steps: int | None = None) -> list[tuple[int, int]]:
    """Random legal play until the match ends (or ``steps`` actions); the actions played."""
    rng = random.Random(seed)
    played: list[tuple[int, int]] = []
    while not game.is_over and (steps is None or len(played) < steps):
        seat = rng.choice(game.deciders())
        action = rng.choice(game.legal_actions(seat))
        game.apply(seat, action)
        played.append((seat, action))
    return played


def test_knockout_is_a_house_game() -> None:
    assert Rules(scoring="knockout").house_on
    assert isinstance(Game("classic", 3, seed=1, rules={"scoring": "knockout"}), HouseGame)


def test_knockout_most_cards_leaves_match() -> None:
    game = knockout_game(["B1", "B2"], ["G1", "R9"])
    assert [e for e in game.events if e[0] in ("round_end", "knockout")] == [
        ("round_end", 0, 0, (0, 0, 0)),
        ("knockout", 1, 3, ()),  # three cards against seat 2's one
    ]
    assert game.knocked == (1,) and game.players_in == 2 and not game.is_over and game.round == 2
    # seat 1 is dealt nothing and takes no part: seating, targets and deciders pass it by
    assert game.hands[1] == [] and len(game.hands[0]) == len(game.hands[2]) == 2
    dealt = [e[1] for e in game.events[game.events.index(("dealer", game.dealer, 2, ())) :] if e[0] == "deal"]
    assert dealt == [0, 2]
    assert game.left_of(0) == 2 and game.right_of(2) == 0 and game.seats_in() == (0, 2)
    assert game.next_seat(0) == 2 and game.next_seat(2) == 0
    assert game.view(None).state["knocked"] == (1,)
    for seat, _ in play_randomly(game, 3):
        assert seat != 1
    assert game.is_over and game.winner in (0, 2) and set(game.knocked) == {1, 2 - game.winner}


def test_knockout_tie_on_cards_most_points_leaves() -> None:
    game = stacked_game("classic", [["R3"], ["B9"], ["G1"]], START, scoring="knockout")
    game.apply_notation(0, "R3")
    assert [e for e in game.events if e[0] == "knockout"] == [("knockout", 1, 1, ())]  # 9 points against 1
    assert game.knocked == (1,) and not game.is_over


def test_knockout_tie_on_cards_and_points_all_leave() -> None:
    game = stacked_game("classic", [["R3"], ["B1"], ["G1"]], START, scoring="knockout")
    game.apply_notation(0, "R3")
    assert [e for e in game.events if e[0] == "knockout"] == [("knockout", 1, 1, ()), ("knockout", 2, 1, ())]
    assert game.is_over and game.winner == 0 and game.knocked == (1, 2)
    assert game.events[-1] == ("match_end", 0, 1, (0, 0, 0))


def test_knockout_two_players_one_round() -> None:
    game = stacked_game("classic", [["R3"], ["B1"]], START, scoring="knockout", target_score=1)
    game.apply_notation(0, "R3")
    assert game.is_over and game.winner == 0 and game.scores == [0, 0]


def test_knockout_ignores_the_target() -> None:
    game = knockout_game(["B1", "B2"], ["G1", "R9"], target_score=1)
    assert not game.is_over and game.scores == [0, 0, 0]


def test_knockout_teams_losing_team_leaves() -> None:
    hands = [["R3"], ["B1"], ["W+4"], ["G2"]]
    game = stacked_game("classic", hands, START, scoring="knockout", teams=True)
    game.apply_notation(0, "R3")
    # seat 2 (seat 0's partner) holds the most points but is on the winning side; of the other
    # team, seat 3 (2 points) leaves before seat 1 (1 point)
    assert [e for e in game.events if e[0] == "knockout"] == [("knockout", 3, 1, ())]
    assert game.knocked == (3,) and not game.is_over
    play_randomly(game, 5)
    assert game.is_over and game.winning_team in (0, 1)
    left = [s for s in range(4) if s not in game.knocked]
    assert {s % 2 for s in left} == {game.winning_team}


def test_knockout_words_record_and_sampling() -> None:
    game = knockout_game(["B1", "B2"], ["G1", "R9"])
    event = ("knockout", 1, 3, ())
    assert plain(Narrator(["Ann", "Bob", "Cy"]).event(event)) == "Bob leaves the match, knocked out with 3 cards."
    play_randomly(game, 2, steps=6)
    assert game.round == 2
    again = replay(to_record(game))
    assert again == game and again.knocked == (1,)
    view = game.view(game.actor)
    sampled = sample_game(view, random.Random(1))
    assert sampled.knocked == (1,) and sampled.hands[1] == [] and sampled.left_of(0) == 2
    assert sampled.legal_actions(game.actor) == game.legal_actions(game.actor)


@pytest.mark.parametrize("edition", ["classic", "all-wild", "wild-jackpot", "space-jam"])
def test_bots_play_knockout_to_the_end(edition: str) -> None:
    bots = [make_bot("heuristic", seed=s, edition=edition) for s in range(4)]
    result = play_game(edition, bots, seed=3, rules={"scoring": "knockout", "hand_size": 5})
    assert result.rounds >= 1 and result.winner in range(4)
    game = Game(edition, 3, seed=4, rules={"scoring": "knockout", "hand_size": 3})
    bots = [make_bot("ismcts", seed=s, edition=edition, iterations=10) for s in range(3)]
    from unokit.bots.runner import play_match

    assert play_match(game, bots).winner in range(3)
