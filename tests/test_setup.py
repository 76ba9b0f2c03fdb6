"""Setting up a game by hand (unokit.engine.setup): each phase is the state play reaches, and plays on."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from unokit import Game
from unokit.editions import EDITIONS
from unokit.engine.cards import CARD_IS_WILD, CARD_KIND, COLOUR_LETTERS, Kind, card_name
from unokit.engine.errors import SetupError
from unokit.engine.phases import COLOUR, TURN
from unokit.engine.positions import public_position
from unokit.engine.setup import SetupFieldError, set_up
from unokit.narrate import Narrator

LEVER_KEYS = ("lever_colours", "lever_draw", "lever_skip", "give_to", "give_left", "performing", "target_rule")


def names(cards: list[int]) -> list[str]:
    return [card_name(card) for card in cards]


def letter(colour: int) -> str:
    return COLOUR_LETTERS[colour]


def comparable(game: Game) -> dict[str, Any]:
    """The state that defines a decision: :meth:`Game.state_key`'s fields but the piles' order and
    the generator (and, of Wild Jackpot's rule cards, the lever's state)."""
    return {
        "edition": game.edition.name,
        "rules": game.rules,
        "round": game.round,
        "dealer": game.dealer,
        "direction": game.direction,
        "turn": game.turn,
        "actor": game.actor,
        "phase": game.phase_name,
        "colour": game.colour,
        "hands": [sorted(hand) for hand in game.hands],
        "draw_pile": sorted(game.draw_pile),
        "top": game.top_card,
        "discard_pile": sorted(game.discard_pile),
        "exposed": sorted(game.exposed),
        "window_armed": game.window_armed,
        "ops": game.ops,
        # fields a phase reads (left over from an earlier decision, they are read by none later)
        "drawn": game.drawn if game.phase_name == "drawn" else None,
        "bluffer": (game.bluffer, game.bluff, game.bluff_colour) if game.phase_name == "challenge" else None,
        "discards_left": game.discards_left if game.phase_name == "discard" else None,
        "target_kind": game.target_kind if game.phase_name == "target" else None,
        "scores": game.scores,
        "turn_skips": game.turn_skips,
        "stalls": game.stalls,
        "house": game.house_state(),
        "lever": [game.extra.get(key) for key in LEVER_KEYS],
        "legal": [game.legal_actions(seat) for seat in range(game.n)],
    }


def common(game: Game) -> dict[str, Any]:
    """The set-up arguments every phase shares, read from a game."""
    return {
        "edition": game.edition.name,
        "players": game.n,
        "rules": game.rules,
        "hands": [names(hand) for hand in game.hands],
        "turn": game.actor,
        "direction": game.direction,
        "scores": list(game.scores),
        "round": game.round,
        "dealer": game.dealer,
        "seed": 5,
    }


Step = tuple[int, int, int]
"""A step of play: the phase before it, the seat that acted, the action."""
Finder = Callable[[Game, list[Step]], dict[str, Any] | None]


def played(game: Game, step: Step) -> int:
    """The card ``step`` played from a turn (-1 if it played none)."""
    phase, _, action = step
    text = game.actions.format(action).rstrip("!")
    if phase != TURN or text in ("draw", "pass") or text.startswith(("=", "@", "-", "^", "catch", "uno")):
        return -1
    return game.actions.decode(action)[1]


def plain(game: Game) -> bool:
    """Nothing beyond the decision is pending: no stalled turns, turns to lose or rule cards in play."""
    return not game.stalls and not game.pending_skips and not game.extra.get("in_play")


def find_turn(game: Game, steps: list[Step]) -> dict[str, Any] | None:
    if game.phase != TURN or game.exposed or not plain(game) or game.ops:
        return None
    top = game.top_card
    colour = letter(game.colour) if CARD_IS_WILD[top] and game.edition.colours_matter else None
    return {**common(game), "top": card_name(top), "colour": colour, "discards": names(game.discard_pile[:-1])}


def find_drawn(game: Game, steps: list[Step]) -> dict[str, Any] | None:
    if game.phase_name != "drawn" or game.exposed or not plain(game):
        return None
    top = game.top_card
    colour = letter(game.colour) if CARD_IS_WILD[top] and game.edition.colours_matter else None
    return {
        **common(game),
        "phase": "drawn",
        "drawn": card_name(game.drawn),
        "top": card_name(top),
        "colour": colour,
        "discards": names(game.discard_pile[:-1]),
    }


def find_colour(game: Game, steps: list[Step]) -> dict[str, Any] | None:
    if game.phase != COLOUR or not steps or game.exposed or not plain(game):
        return None
    card = played(game, steps[-1])
    if card < 0 or card != game.top_card or CARD_KIND[card] not in (Kind.WILD, Kind.WILD_DRAW_FOUR):
        return None
    return {
        **common(game),
        "phase": "colour",
        "top": card_name(card),
        "before": letter(game.colour),
        "discards": names(game.discard_pile[:-1]),
    }


def find_challenge(game: Game, steps: list[Step]) -> dict[str, Any] | None:
    if game.phase_name != "challenge" or len(steps) < 2 or game.exposed or not plain(game):
        return None
    if played(game, steps[-2]) != game.top_card:
        return None
    return {
        **common(game),
        "phase": "challenge",
        "colour": letter(game.colour),
        "before": letter(game.bluff_colour),
        "discards": names(game.discard_pile[:-1]),
    }


def find_uncalled(game: Game, steps: list[Step]) -> dict[str, Any] | None:
    if game.phase != TURN or len(game.exposed) != 1 or not steps or not plain(game) or game.ops:
        return None
    card = played(game, steps[-1])
    seat = steps[-1][1]
    if card < 0 or card != game.top_card or game.exposed != [seat]:
        return None
    if CARD_IS_WILD[card] and game.edition.colours_matter:
        return None
    if CARD_KIND[card] in game.edition.draw_values:  # it dealt cards to another hand
        return None
    return {**common(game), "uncalled": seat, "top": card_name(card), "discards": names(game.discard_pile[:-1])}


def find_stack(game: Game, steps: list[Step]) -> dict[str, Any] | None:
    if game.phase_name != "stack" or game.exposed or not plain(game):
        return None
    cards: list[int] = []
    for step in reversed(steps):
        phase, _, action = step
        card = game.actions.decode(action)[1] if game.actions.format(action)[0] not in "=@-" else -1
        if card < 0 or CARD_KIND[card] not in game.edition.draw_values:
            return None
        cards.insert(0, card)
        if phase == TURN:
            break
    else:
        return None
    return {
        **common(game),
        "phase": "stack",
        "stack": names(cards),
        "discards": names(game.discard_pile[: -len(cards)]),
    }


def find_lever(game: Game, steps: list[Step]) -> dict[str, Any] | None:
    if not steps or game.exposed or game.stalls or game.pending_skips:
        return None
    card = played(game, steps[-1])
    if card < 0 or CARD_KIND[card] not in (Kind.JACKPOT, Kind.WILD_JACKPOT) or card != game.top_card:
        return None
    lever = [event for event in game.events if event[0] == "lever"][-1]
    if lever[2] not in (1, 5) or game.events[-1] != lever:  # outcomes that change no hand
        return None
    return {
        **common(game),
        "turn": steps[-1][1],
        "phase": game.phase_name,
        "lever": lever[2],
        "top": card_name(card),
        "discards": names(game.discard_pile[:-1]),
    }


CASES: list[tuple[str, Finder, list[str], dict[str, Any]]] = [
    ("turn", find_turn, sorted(EDITIONS), {}),
    ("drawn", find_drawn, sorted(EDITIONS), {}),
    ("colour", find_colour, ["classic", "space-jam", "wild-jackpot"], {}),
    ("challenge", find_challenge, ["classic", "space-jam", "wild-jackpot"], {}),
    ("uncalled", find_uncalled, sorted(EDITIONS), {}),
    ("stack", find_stack, ["classic", "all-wild"], {"stacking": "same"}),
    ("lever", find_lever, ["wild-jackpot"], {}),
]


@pytest.mark.parametrize(("case", "find", "editions", "rules"), CASES, ids=[case[0] for case in CASES])
def test_set_up_state_is_the_state_play_reaches(
    case: str, find: Finder, editions: list[str], rules: dict[str, Any]
) -> None:
    """Each phase set up from what a dealt game shows equals that game's state (the piles' order and
    the generator aside): same decision, same legal actions, same pending operations."""
    for edition in editions:
        found = 0
        for seed in range(60):
            game = Game(edition, 2 + seed % 4, seed=seed, rules={"scoring": "running-tally", **rules})
            rng = random.Random(seed)
            steps: list[Step] = []
            for _ in range(400):
                if game.is_over:
                    break
                kwargs = find(game, steps)
                if kwargs is not None:
                    built = set_up(**kwargs)
                    assert comparable(built) == comparable(game), (case, edition, seed, kwargs)
                    assert built.all_cards() == Counter(built.deck_cards)
                    found += 1
                    break
                seat = rng.choice(game.deciders())
                phase = game.phase
                action = rng.choice(game.legal_actions(seat))
                game.apply(seat, action)
                steps.append((phase, seat, action))
            if found >= 4:
                break
        assert found >= 1, (case, edition)


def play_round(game: Game, seed: int) -> None:
    """Play on to the end of the round at random: every card stays in the game."""
    rng = random.Random(seed)
    start = game.round
    for _ in range(20000):
        if game.is_over or game.round != start:
            return
        seat = rng.choice(game.deciders())
        legal = game.legal_actions(seat)
        assert legal
        game.apply(seat, rng.choice(legal))
        if game.edition.name != "wild-jackpot" or game.round == start:
            assert game.all_cards() == Counter(game.deck_cards)
    raise AssertionError("the round did not end")


SETUPS: list[tuple[str, dict[str, Any]]] = [
    ("turn", {"hands": {0: "R5 G7 W+4", 1: 3, 2: ["B2"]}, "top": "R5", "players": 3}),
    ("uneven", {"hands": [1, 12, "? ? Y3", "?4 W"], "top": "W", "colour": "B", "turn": 3, "direction": -1}),
    ("drawn", {"hands": {1: "G1 G2"}, "drawn": "R4", "top": "R9", "turn": 1}),
    ("drawn-count", {"hands": {1: 5}, "phase": "drawn", "drawn": "W", "top": "B9", "turn": 1}),
    ("colour", {"hands": {2: "Y1 Y2"}, "phase": "colour", "top": "W", "turn": 2}),
    ("challenge", {"hands": {0: "R1", 1: "G5 G6"}, "phase": "challenge", "turn": 1, "colour": "G", "before": "R"}),
    ("uncalled", {"hands": {0: "R1", 1: 4}, "uncalled": 0, "top": "R7", "turn": 1}),
    ("uncalled-skip", {"hands": {0: "R1"}, "uncalled": 0, "top": "RS", "turn": 2}),
    ("stack", {"stack": ["R+2", "G+2"], "turn": 2, "hands": {2: "B+2 B3"}, "rules": {"stacking": "draw-two"}}),
    (
        "stack-wild",
        {"stack": ["R+2", "W+4"], "turn": 2, "colour": "Y", "hands": {2: "W+4 B3"}, "rules": {"stacking": "up"}},
    ),
    ("all-wild", {"edition": "all-wild", "hands": {0: "W W WS", 1: 2}, "top": "WR"}),
    (
        "all-wild-stack",
        {"edition": "all-wild", "stack": ["W+2"], "turn": 1, "hands": {1: "W+2 W"}, "rules": {"stacking": "same"}},
    ),
    ("space-jam", {"edition": "space-jam", "hands": {0: "WJ R5"}, "top": "O5"}),
]


@pytest.mark.parametrize(("name", "kwargs"), SETUPS, ids=[setup[0] for setup in SETUPS])
def test_set_up_games_play_on_to_the_end_of_the_round(name: str, kwargs: dict[str, Any]) -> None:
    rules = {"scoring": "single-round", **kwargs.pop("rules", {})}
    for seed in range(6):
        game = set_up(**kwargs, rules=rules, seed=seed)
        assert game.all_cards() == Counter(game.deck_cards)
        assert game.history == []
        assert game.legal_actions(game.actor)
        if "phase" in kwargs:
            assert game.phase_name == kwargs["phase"]
        assert game.start_position in (game.position(), game.position(generator=False))
        assert Game.from_position(game.start_position).state_key() == game.state_key()
        for seat in (*range(game.n), None):
            assert "?" in public_position(game, seat)
            assert game.view(seat).phase == game.phase_name
        narrated = Narrator([f"Seat {s}" for s in range(game.n)], edition=game.edition.name)
        assert list(narrated.lines(game.view(None).history, ()))
        play_round(game, seed)
        assert game.is_over


def test_hands_as_given() -> None:
    game = set_up("classic", 4, hands={0: "R5 G7 W+4", 1: 3, 2: ["B2", "?2"]}, top="R5", seed=3)
    assert names(game.hands[0]) == ["R5", "G7", "W+4"]
    assert [len(hand) for hand in game.hands] == [3, 3, 3, 7]
    assert names(game.hands[2])[0] == "B2"
    assert card_name(game.top_card) == "R5" and game.discard_pile == [game.top_card]
    assert len(game.draw_pile) == 108 - 3 - 3 - 3 - 7 - 1
    assert (game.phase_name, game.actor, game.turn) == ("turn", 0, 0)
    # the rest is dealt from the seed: the same seed deals the same, another seed another
    assert (
        set_up("classic", 4, hands={0: "R5"}, seed=3).state_key()
        == set_up("classic", 4, hands={0: "R5"}, seed=3).state_key()
    )
    assert set_up("classic", 4, seed=3).hands != set_up("classic", 4, seed=4).hands


def test_draw_pile_top_discards_scores_and_round() -> None:
    game = set_up(
        "classic",
        3,
        hands={0: "R1"},
        top="B4",
        discards=["G4", "W"],
        draw=["Y9", "Y8"],
        scores=[10, 0, 35],
        round=4,
        dealer=2,
        turn=1,
    )
    assert names(game.discard_pile) == ["G4", "W", "B4"]
    assert names(game.draw_pile[-2:]) == ["Y8", "Y9"]  # Y9 on top: drawn first
    assert (game.scores, game.round, game.dealer, game.turn) == ([10, 0, 35], 4, 2, 1)
    game.apply_notation(1, "draw")
    assert card_name(game.hands[1][-1]) == "Y9"


def test_wild_top_card_colour() -> None:
    game = set_up("classic", 2, top="W", colour="green")
    assert COLOUR_LETTERS[game.colour] == "G"
    assert game.legal_actions(0)  # at least draw
    assert set_up("classic", 2, top="W", seed=1).colour in game.edition.colours


def test_challenge_bluff_follows_the_colour_before() -> None:
    honest = set_up("classic", 2, hands={0: "G1"}, phase="challenge", turn=1, colour="B", before="R")
    bluff = set_up("classic", 2, hands={0: "R1"}, phase="challenge", turn=1, colour="B", before="R")
    assert (honest.bluff, bluff.bluff) == (False, True)
    bluff.apply_notation(1, "challenge")
    assert len(bluff.hands[0]) == 5  # caught: the bluffer draws four


def test_uncalled_player_can_be_caught() -> None:
    game = set_up("classic", 3, hands={0: "R1"}, uncalled=0, top="R7", turn=1)
    assert game.exposed == [0]
    assert "catch@0" in [game.format_action(a) for a in game.legal_actions(2)]
    game.apply_notation(2, "catch@0")
    assert len(game.hands[0]) == 1 + game.rules.uno_penalty


def test_stack_pending_total() -> None:
    game = set_up("classic", 3, stack=["R+2", "G+2"], turn=2, hands={2: "B+2 B3"}, rules={"stacking": "draw-two"})
    assert game.phase_name == "stack" and game.actor == 2
    assert game.house_state()["stack_total"] == 4
    game.apply_notation(2, "accept")
    assert len(game.hands[2]) == 6


@pytest.mark.parametrize("outcome", range(1, 7))
def test_lever_outcomes(outcome: int) -> None:
    texts = ["Draw 2 cards", "Discard 1 card", "Swap hands with any player"]
    game = set_up("wild-jackpot", 3, lever=outcome, turn=1, hands={1: "G1 G2 R3"}, rule_cards=texts, seed=outcome)
    levers = [event for event in game.events if event[0] == "lever"]
    assert levers == [("lever", 1, outcome, ())]
    assert game.all_cards() == Counter(game.deck_cards)
    if outcome == 1:
        assert (game.phase_name, game.actor) == ("target", 1)
    elif outcome == 5:
        assert (game.phase_name, game.actor) == ("lever-discard", 1)
    elif outcome in (2, 3):  # the first rule card written is dispensed first
        performer = 0 if outcome == 2 else 2
        assert ("rule", performer, 0, ()) in game.events
    assert Game.from_position(game.position()).state_key() == game.state_key()
    play_round(game, outcome)


@pytest.mark.parametrize(
    ("kwargs", "field", "words"),
    [
        ({"edition": "all-wild", "hands": {0: "R5"}}, "hands[0]", "UNO All Wild has no card R5"),
        ({"hands": {1: "R5 R5 R5"}}, "hands[1]", "R5 is given more times than the deck holds it (2)"),
        ({"hands": {0: "R0"}, "top": "R0"}, "top", "R0 is given more times"),
        ({"hands": {0: "X9"}}, "hands[0]", "'X9' is not a card"),
        ({"hands": {0: 60, 1: 60}}, "hands[1]", "too many cards"),
        ({"phase": "rule-run"}, "phase", "Classic UNO has no phase 'rule-run'"),
        ({"edition": "all-wild", "phase": "challenge"}, "phase", "UNO All Wild has no phase 'challenge'"),
        ({"phase": "stack"}, "phase", "has no phase 'stack'"),
        ({"turn": 7}, "turn", "no seat 7 at a table of 4"),
        ({"hands": {5: 2}}, "hands[5]", "no seat 5"),
        ({"dealer": -1}, "dealer", "no seat -1"),
        ({"uncalled": 4, "top": "R1"}, "uncalled", "no seat 4"),
        ({"top": "R5", "colour": "B"}, "colour", "R5 is in play in its own colour"),
        ({"top": "W", "colour": "purple"}, "colour", "'purple' is not a colour"),
        ({"edition": "all-wild", "top": "W", "colour": "R"}, "colour", "UNO All Wild has no colours"),
        ({"phase": "drawn", "drawn": "B1", "top": "R5"}, "drawn", "B1 cannot be played"),
        ({"phase": "colour", "top": "R5"}, "top", "R5 asks for no colour"),
        ({"phase": "challenge", "top": "W"}, "top", "answers a Wild Draw Four, not W"),
        ({"lever": 2}, "lever", "Classic UNO has no lever"),
        ({"edition": "wild-jackpot", "lever": 7}, "lever", "outcome 7 cannot come up"),
        ({"edition": "wild-jackpot", "lever": 2, "top": "R5"}, "top", "R5 pulls no lever"),
        ({"direction": 2}, "direction", "must be 1 (clockwise) or -1"),
        ({"stack": ["R+2"], "turn": 1, "hands": {1: "B3"}, "rules": {"stacking": "draw-two"}}, "phase", "not 'stack'"),
        ({"uncalled": 0, "top": "R7", "turn": 1, "rules": {"call_uno": False}}, "uncalled", "nobody calls UNO"),
        ({"hands": {1: 30}, "rules": {"mercy": True}}, "hands[1]", "Mercy puts a hand of 25 or more out"),
        ({"edition": "uno-flip"}, "edition", "unknown edition 'uno-flip'"),
        ({"rules": {"hand_size": "many"}}, "rules", "hand_size"),
        ({"players": 11}, "players", "players must be from 2 to 10"),
        ({"players": 3, "rules": {"teams": True}}, "players", "teams need an even number of players"),
        ({"seed": "x"}, "seed", "must be an integer"),
        ({"scores": [1, 2]}, "scores", "one score per seat (4)"),
        ({"round": 0}, "round", "rounds are numbered from 1"),
        ({"hands": {0: "R1 ?x"}}, "hands[0]", "'?x'"),
        ({"discards": ["B1"], "phase": "colour", "top": "W", "before": "R"}, "before", "B1, is in play"),
        ({"discards": ["B1"], "uncalled": 0, "top": "R7", "turn": 1}, "discards", "R7 cannot be played on B1"),
        ({"uncalled": 0, "top": "R+2", "turn": 2}, "top", "R+2 deals cards"),
    ],
)
def test_errors_name_the_field_and_the_card(kwargs: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(SetupFieldError) as caught:
        set_up(**kwargs)
    assert caught.value.field == field
    assert words in str(caught.value)
    assert str(caught.value).startswith(f"{field}: ")
    assert isinstance(caught.value, SetupError) and isinstance(caught.value, ValueError)
