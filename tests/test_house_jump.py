"""House rule Jump-In (docs/rules.md, "Jump-In"): each decided interaction on explicit deals."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from rules_support import events_since, hand, legal, stacked_game
from unokit import Game, Rules
from unokit.bots.base import make_bot
from unokit.bots.heuristic import HeuristicBot
from unokit.bots.runner import play_match
from unokit.determinize import sample_game
from unokit.editions import EDITIONS, get_edition
from unokit.editions.house import HouseGame
from unokit.engine.actions import JUMP_TYPES, ActionType
from unokit.engine.cards import card_name
from unokit.engine.errors import IllegalActionError, WrongPlayerError
from unokit.engine.record import replay, to_record
from unokit.narrate import Narrator, describe_action, plain

FILLERS = [
    ["B1", "B2", "B3", "B4", "B6"],
    ["B7", "B8", "B9", "B1", "B2"],
    ["Y1", "Y2", "Y3", "Y4", "Y6"],
    ["Y7", "Y8", "Y9", "Y1", "Y2"],
]
"""Per seat, numbers that match nothing on a red 5 or a red 0."""
DRAW = ["G1", "G2", "G3", "G4", "G6", "G7", "G8", "G9"]
"""A draw pile of green numbers."""
FOUR_FIVES = {**Counter(card_name(c) for c in get_edition("classic").deck_cards(Rules())), "R5": 4}
"""A deck with four red 5s (the classic deck has two)."""


def filled(hands: list[list[str]], size: int = 5) -> list[list[str]]:
    """Each hand completed to ``size`` cards with its seat's fillers."""
    return [h + FILLERS[seat][: size - len(h)] for seat, h in enumerate(hands)]


def jump_game(hands: list[list[str]], start: str = "R0", **options: object) -> Game:
    """Classic with Jump-In, seat 0 first on ``start``, hands of five."""
    return stacked_game("classic", filled(hands), start, DRAW, **{"jump_in": True, **options})


def fives_game(hands: list[list[str]], **options: object) -> Game:
    """Classic with Jump-In and four red 5s in the deck, seat 0 first on a red 0."""
    deck = [[card, count] for card, count in FOUR_FIVES.items()]
    return stacked_game("classic", filled(hands), "R0", DRAW, jump_in=True, deck=deck, **options)


# ---------------------------------------------------------------- the action space


OLD_SIZES = {"classic": 191, "space-jam": 194, "all-wild": 49, "wild-jackpot": 266}
"""Every edition's action space before Jump-In's actions were appended."""


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_action_space_appends_jump_ids(edition: str) -> None:
    space = get_edition(edition).actions
    faces = len(space.faces)
    old = OLD_SIZES[edition]
    assert space.size == old + 2 * faces
    assert {"classic": 299, "space-jam": 304, "all-wild": 65, "wild-jackpot": 384}[edition] == space.size
    assert not any(space.types[a] in JUMP_TYPES for a in range(old))
    for index, face in enumerate(space.faces):
        assert space.jump_id[face] == old + index and space.jump_uno_id[face] == old + faces + index
    # a few ids every record holds are where they always were
    assert space.play_id[space.faces[0]] == 0 and space.draw == 2 * faces
    assert space.id(ActionType.CATCH, 9) == 2 * faces + 2 + len(space.colours) + 2 + 10 + faces + 10
    for action in range(space.size):
        assert space.parse(space.format(action)) == action


def test_jump_notation() -> None:
    space = get_edition("classic").actions
    assert space.format(space.parse("^r7")) == "^R7" and space.format(space.parse(" ^R7! ")) == "^R7!"
    assert space.decode(space.parse("^G+2")) == (ActionType.JUMP, space.args[space.parse("G+2")])
    assert space.decode(space.parse("^G+2!")) == (ActionType.JUMP_UNO, space.args[space.parse("G+2")])


# ---------------------------------------------------------------- the window


def test_jump_in_identical_card_continues_from_jumper() -> None:
    game = jump_game([["R5"], [], ["R5"], []])
    game.apply_notation(0, "R5")
    assert game.deciders() == (1, 2) and legal(game, 2) == ["^R5"]
    assert legal(game, 3) == [] and legal(game, 0) == []
    assert game.view(3).state["jump_card"] == game.top_card
    start = len(game.events)
    game.apply_notation(2, "^R5")
    assert events_since(game, start) == [("jump", 2, 1, ()), ("play", 2, 0, ("R5",))]
    assert (game.phase_name, game.actor) == ("turn", 3) and hand(game, 2) == sorted(FILLERS[2][:4])
    assert len(game.hands[1]) == 5


def test_who_may_jump_in_is_seen_only_by_the_jumper() -> None:
    """The window is public (the card on top), who holds the identical card is not: only the jumper's
    own view counts them among the deciders; the others and spectators see the actor alone."""
    game = jump_game([["R5"], [], ["R5"], []])
    game.apply_notation(0, "R5")
    assert game.deciders() == (1, 2)
    assert game.view(2).deciders == (1, 2)
    for seat in (0, 1, 3, None):
        assert game.view(seat).deciders == (1,), seat
        assert game.view(seat).state["jump_card"] == game.top_card


def test_jump_in_not_for_actor_or_card_player() -> None:
    game = fives_game([["R5", "R5"], ["R5"], ["R5"], []])
    game.apply_notation(0, "R5")
    assert game.deciders() == (1, 2)
    assert legal(game, 0) == [] and "R5" in legal(game, 1) and legal(game, 2) == ["^R5"]
    with pytest.raises(WrongPlayerError, match="seat 0 played R5"):
        game.apply_notation(0, "^R5")
    with pytest.raises(IllegalActionError, match="seat 1 is to play: they play R5 as a normal card"):
        game.apply_notation(1, "^R5")


def test_jump_in_window_closes_when_actor_acts() -> None:
    game = fives_game([["R5", "R5"], [], [], ["R5"]])
    game.apply_notation(0, "R5")
    assert legal(game, 3) == ["^R5"]
    game.apply_notation(1, "draw")
    assert (game.phase_name, game.actor) == ("turn", 2)
    assert game.view(3).state["jump_card"] == -1 and legal(game, 3) == [] and game.deciders() == (2,)
    with pytest.raises(WrongPlayerError, match="no jump-in now"):
        game.apply_notation(3, "^R5")


def test_refused_jump_changes_nothing() -> None:
    game = jump_game([["R5"], [], ["R5"], []])
    game.apply_notation(0, "R5")
    key, events = game.state_key(), list(game.events)
    with pytest.raises(WrongPlayerError, match="seat 3 holds no R5"):
        game.apply_notation(3, "^R5")
    with pytest.raises(WrongPlayerError, match="only a card identical to R5"):
        game.apply_notation(2, "^B1")
    with pytest.raises(WrongPlayerError, match="seat 2 may only jump in, call or catch UNO now"):
        game.apply_notation(2, "R5")
    with pytest.raises(WrongPlayerError, match="UNO is called when jumping in with the next-to-last card"):
        game.apply_notation(2, "^R5!")
    assert game.state_key() == key and game.events == events


def test_no_window_after_start_card_or_without_the_rule() -> None:
    game = jump_game([[], ["R5"], [], []], start="R5")
    assert game.deciders() == (0,) and legal(game, 1) == []
    off = stacked_game("classic", filled([["R5"], [], ["R5"], []]), "R3", DRAW, call_uno=True)
    assert type(off) is Game and not hasattr(off, "jumping")
    off.apply_notation(0, "R5")
    assert off.deciders() == (1,) and legal(off, 2) == []
    house = stacked_game("classic", filled([["R5"], [], ["R5"], []]), "R3", DRAW, seven_swap=True)
    house.apply_notation(0, "R5")
    assert isinstance(house, HouseGame) and house.deciders() == (1,) and legal(house, 2) == []
    assert "jump_card" not in house.view(1).state
    with pytest.raises(WrongPlayerError, match="Jump-In is not played"):
        house.apply_notation(2, "^R5")


# ---------------------------------------------------------------- effects from the jumper


def test_jump_in_skip_acts_from_jumper() -> None:
    game = jump_game([["RS"], [], [], ["RS"]])
    game.apply_notation(0, "RS")
    assert game.actor == 2 and game.deciders() == (2, 3)
    game.apply_notation(3, "^RS")
    assert game.events[-1] == ("skip", 0, 0, ()) and (game.phase_name, game.actor) == ("turn", 1)


def test_jump_in_reverse_acts_from_jumper() -> None:
    game = jump_game([["RR"], ["RR"], [], []])
    game.apply_notation(0, "RR")
    assert game.direction == -1 and game.actor == 3 and game.deciders() == (1, 3)
    game.apply_notation(1, "^RR")
    assert game.direction == 1 and (game.phase_name, game.actor) == ("turn", 2)


def test_jump_in_draw_two_acts_from_jumper_and_first_effect_stands() -> None:
    game = jump_game([["R+2"], [], [], ["R+2"]])
    game.apply_notation(0, "R+2")
    assert len(game.hands[1]) == 7 and game.actor == 2
    game.apply_notation(3, "^R+2")
    assert len(game.hands[0]) == 6 and len(game.hands[1]) == 7 and (game.phase_name, game.actor) == ("turn", 1)


def test_two_players_opponent_jumps_on_own_skip() -> None:
    deck = [[card, count] for card, count in {**FOUR_FIVES, "RS": 2}.items()]
    hands = [["RS", "B1", "B2"], ["RS", "Y1", "Y2"]]
    game = stacked_game("classic", hands, "R0", DRAW, jump_in=True, deck=deck)
    game.apply_notation(0, "RS")
    assert game.actor == 0 and game.deciders() == (0, 1)
    game.apply_notation(1, "^RS")
    assert (game.phase_name, game.actor) == ("turn", 1)


def test_no_jump_in_on_wild() -> None:
    game = jump_game([["W"], [], ["W"], []])
    game.apply_notation(0, "W")
    game.apply_notation(0, "=R")
    assert game.phase_name == "turn" and game.deciders() == (1,) and legal(game, 2) == []


def test_all_wild_jump_in_same_kind() -> None:
    hands = [["WS", "W", "W"], ["WR", "W", "W"], ["WS", "W", "W"]]
    game = stacked_game("all-wild", hands, "W", ["W"] * 4, jump_in=True)
    game.apply_notation(0, "WS")
    assert game.actor == 2 and game.deciders() == (2,)  # seat 1 was skipped; seat 2 plays its own
    hands = [["WS", "W", "W"], ["WR", "W", "W"], ["WR", "W", "W"], ["WS", "W", "W"]]
    game = stacked_game("all-wild", hands, "W", ["W"] * 4, jump_in=True)
    game.apply_notation(0, "WS")
    assert game.deciders() == (2, 3) and legal(game, 3) == ["^WS"]
    game.apply_notation(3, "^WS")
    assert game.events[-1] == ("skip", 0, 0, ()) and game.actor == 1


def test_jump_in_seven_swaps() -> None:
    game = jump_game([["R7"], [], ["R7"], []], seven_swap=True)
    game.apply_notation(0, "R7")
    assert game.phase_name == "target" and legal(game, 2) == []  # the play is not finished
    game.apply_notation(0, "@3")
    assert (game.phase_name, game.actor) == ("turn", 1) and legal(game, 2) == ["^R7"]
    game.apply_notation(2, "^R7")
    assert (game.phase_name, game.actor) == ("target", 2)
    game.apply_notation(2, "@1")
    assert game.events[-1] == ("swap", 2, 1, ()) and game.actor == 3


def test_jump_in_jackpot_pulls_the_lever() -> None:
    hands = filled([["R$"], [], ["R$"], []])
    game = stacked_game("wild-jackpot", hands, "R0", DRAW, jump_in=True, lever_weights=[0, 0, 0, 0, 0, 1])
    game.apply_notation(0, "R$")
    while game.phase_name != "turn":
        game.apply(game.actor, game.legal_actions(game.actor)[0])
    assert legal(game, 2) == ["^R$"]
    start = len(game.events)
    game.apply_notation(2, "^R$")
    assert events_since(game, start)[:2] == [("jump", 2, game.events[start][2], ()), ("play", 2, 0, ("R$",))]
    assert any(e[0] == "lever" for e in game.events[start:])


# ---------------------------------------------------------------- UNO and going out


def race_to_one(last: str, **options: object) -> Game:
    """Four players, seat 3 first: seat 3 plays Y3 (keeping ``last``), seat 0 R3, seat 1 ``last``
    (a red card); play goes on to seat 2 with ``last`` on top."""
    hands = [["R3", "B1"], [last, "B7"], ["B8", "B9"], ["Y3", last]]
    game = stacked_game("classic", hands, "G3", DRAW, dealer=2, jump_in=True, **options)
    for seat, card in ((3, "Y3!"), (0, "R3!"), (1, last + "!")):
        game.apply_notation(seat, card)
    return game


def test_jump_in_going_out_wins() -> None:
    game = race_to_one("R5", scoring="single-round")
    assert game.actor == 2 and legal(game, 3) == ["^R5"]
    game.apply_notation(3, "^R5")
    assert game.is_over and game.winner == 3 and ("jump", 3, 2, ()) in game.events


def test_jump_in_restricted_last_card() -> None:
    game = race_to_one("RR")
    assert game.actor == 0 and legal(game, 3) == ["^RR"]
    game = race_to_one("RR", no_action_finish=True)
    assert game.actor == 0 and legal(game, 3) == [] and game.deciders() == (0,)
    with pytest.raises(WrongPlayerError, match="RR may not be played as the last card"):
        game.apply_notation(3, "^RR")


def uno_game() -> Game:
    game = stacked_game("classic", [["R5", "B1"], ["B6", "B7"], ["R5", "Y1"]], "R0", DRAW, jump_in=True)
    game.apply_notation(0, "R5!")
    return game


def test_jump_in_with_uno_call() -> None:
    game = uno_game()
    assert legal(game, 2) == ["^R5", "^R5!"]
    game.apply_notation(2, "^R5!")
    assert game.events[-1] == ("play", 2, 1, (game.top_card,)) and game.exposed == []
    game = uno_game()
    game.apply_notation(2, "^R5")
    assert game.exposed == [2] and "catch@2" in legal(game, 1) and "uno" in legal(game, 2)


def test_jump_in_closes_uno_window() -> None:
    game = stacked_game("classic", [["R5", "B1"], ["B6", "B7"], ["R5", "Y1"]], "R0", DRAW, jump_in=True)
    game.apply_notation(0, "R5")
    assert game.exposed == [0] and game.deciders() == (0, 1, 2)
    assert legal(game, 2) == ["catch@0", "^R5", "^R5!"]
    game.apply_notation(2, "^R5!")
    assert game.exposed == [] and game.deciders() == (0,) and legal(game, 1) == []


def test_catch_before_jump_keeps_jump_window() -> None:
    game = stacked_game("classic", [["R5", "B1"], ["B6", "B7"], ["R5", "Y1"]], "R0", DRAW, jump_in=True)
    game.apply_notation(0, "R5")
    game.apply_notation(1, "catch@0")
    assert len(game.hands[0]) == 3 and game.deciders() == (1, 2) and legal(game, 2) == ["^R5", "^R5!"]
    game.apply_notation(2, "^R5!")
    assert game.actor == 0


# ---------------------------------------------------------------- the race


def test_jump_in_race_first_applied_wins() -> None:
    game = fives_game([["R5"], [], ["R5"], ["R5"]])
    game.apply_notation(0, "R5")
    assert game.deciders() == (1, 2, 3)
    game.apply_notation(2, "^R5")
    assert game.actor == 3 and legal(game, 3)[0] == "R5"
    with pytest.raises(IllegalActionError, match="seat 3 is to play"):
        game.apply_notation(3, "^R5")


@pytest.mark.parametrize("kind", ["heuristic", "random", "ismcts"])
def test_runner_resolves_jump_race_in_play_order(kind: str) -> None:
    game = fives_game([["R5"], [], ["R5"], ["R5"]], scoring="single-round")
    options = {"iterations": 4} if kind == "ismcts" else {}
    bots = [make_bot("heuristic", seed=1, edition="classic")] + [
        make_bot("heuristic", seed=s, edition="classic") for s in (2, 3, 4)
    ]
    if kind != "heuristic":
        bots[1] = make_bot(kind, seed=5, edition="classic", **options)
    play_match(game, bots)
    jumps = [e for e in game.events if e[0] == "jump"]
    assert jumps[0] == ("jump", 2, 1, ())  # seats 2 and 3 both jump in; seat 2 plays first after seat 1


def test_runner_play_order_follows_direction() -> None:
    deck = [[card, count] for card, count in {**FOUR_FIVES, "RR": 2}.items()]
    hands = filled([["RR"], ["R5"], ["R5"], ["R5"]])
    hands[0][1] = "R5"
    game = stacked_game("classic", hands, "R0", DRAW, jump_in=True, deck=deck, scoring="single-round")
    game.apply_notation(0, "RR")
    game.apply_notation(3, "R5")
    assert game.actor == 2 and game.deciders() == (0, 1, 2)
    bots = [HeuristicBot(seed=s) for s in range(4)]
    play_match(game, bots)
    assert next(e for e in game.events if e[0] == "jump") == ("jump", 1, 2, ())


# ---------------------------------------------------------------- other rules


def test_no_jump_in_during_stack_then_jump_on_drawn_total() -> None:
    game = jump_game([["R+2"], ["G+2"], [], ["R+2"]], stacking="same")
    game.apply_notation(0, "R+2")
    assert game.phase_name == "stack" and legal(game, 3) == [] and game.deciders() == (1,)
    game.apply_notation(1, "accept")
    assert (game.phase_name, game.actor) == ("turn", 2) and legal(game, 3) == ["^R+2"]
    start = len(game.events)
    game.apply_notation(3, "^R+2")
    assert ("stack", 3, 2, ()) in game.events[start:] and ("stack_draw", 0, 2, ()) in game.events[start:]
    assert len(game.hands[0]) == 6 and game.actor == 1  # seat 0 held no answer: drew the new total


def test_no_jump_in_while_choosing_a_colour_or_target() -> None:
    game = jump_game([["R7"], [], ["R7"], []], seven_swap=True)
    game.apply_notation(0, "R7")
    assert game.deciders() == (0,) and legal(game, 2) == []


# ---------------------------------------------------------------- views, records, samples, words


def test_jump_views_records_and_samples() -> None:
    game = jump_game([["R5"], [], ["R5"], []])
    game.apply_notation(0, "R5")
    view = game.view(2)
    assert view.state["jump_card"] == game.top_card and view.state["jump_from"] == 0
    assert view.deciders == (1, 2) and [game.actions.format(a) for a in view.legal_actions] == ["^R5"]
    sampled = sample_game(view, random.Random(4))
    assert sampled.legal_actions(2) == view.legal_actions and sampled.view(2).state == view.state
    game.apply_notation(2, "^R5")
    record = to_record(game)
    assert "^R5" in str(record)
    again = replay(record)
    assert again == game and again.view(1).state["jump_card"] == game.top_card


def test_jump_words() -> None:
    narrator = Narrator(["Ann", "Bob", "Cy"], you=0)
    assert plain(narrator.event(("jump", 2, 1, ()))) == "Cy jumps in ahead of Bob!"
    assert plain(narrator.event(("jump", 0, 1, ()))) == "You jump in ahead of Bob!"
    game = uno_game()
    view = game.view(2)
    names = ["Ann", "Bob", "Cy"]
    assert describe_action(game, view, game.actions.parse("^R5!"), names) == "jump in with red 5 and call UNO"


# ---------------------------------------------------------------- bots


def test_heuristic_jumps_in() -> None:
    game = jump_game([["R5"], [], ["R5"], []])
    game.apply_notation(0, "R5")
    assert HeuristicBot(seed=1).wants_interrupt(game.view(2)) == game.actions.parse("^R5")


def test_heuristic_does_not_jump_into_a_bad_swap() -> None:
    game = jump_game([["R7"], [], ["R7"], []], seven_swap=True)
    game.apply_notation(0, "R7")
    game.apply_notation(0, "@1")  # seat 1 now holds 4 cards, seat 2 would keep 4: a swap gains nothing
    assert game.actor == 1 and legal(game, 2) == ["^R7"]
    assert HeuristicBot(seed=1).wants_interrupt(game.view(2)) is None


def test_heuristic_weighs_a_swap_among_the_seats_still_in() -> None:
    """A seat out of the round (Mercy) or of the match (knockout scoring) holds no cards and cannot be
    swapped with: the smallest hand a 7 could bring is the smallest of the seats still in."""
    game = jump_game([["R7"], [], ["R7"], []], seven_swap=True)
    game.apply_notation(0, "R7")
    game.apply_notation(0, "@1")
    view = game.view(2)
    assert view.hand_sizes == (5, 4, 5, 5)
    bot = HeuristicBot(seed=1)
    seat_out = dataclasses.replace(view, hand_sizes=(5, 4, 5, 0), state={**view.state, "out": (3,)})
    assert bot.wants_interrupt(seat_out) is None  # the smallest hand in is 4, no fewer than the 4 kept
    in_with_three = dataclasses.replace(view, hand_sizes=(5, 4, 5, 3))
    assert game.actions.format(bot.wants_interrupt(in_with_three) or -1) == "^R7"
