"""UNO Wild Jackpot: one test per rule of the Wild Jackpot rule sheet, per lever outcome and per rule card.

Scenarios are built with stacked decks, so every hand, start card and draw is known, and the
lever is forced with one-hot ``lever_weights``. Seat ``n - 1`` deals unless a test says
otherwise, so seat 0 plays first; the start card is the red 7, so seat 0 can pull the lever
with a red Jackpot ("R$"). Rule cards are written explicitly in every test.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from rules_support import events_since, hand, legal, names
from unokit import Game, Rules
from unokit.editions.rulecards import SUGGESTIONS, RuleTextError, read_rule
from unokit.editions.wild_jackpot import NUMBER_CARDS_PER_COLOUR, WildJackpot, rule_cards_per_player
from unokit.engine.cards import NO_COLOUR, Colour, card_name, parse_card
from unokit.engine.deck import stacked_deck
from unokit.engine.errors import IllegalActionError, SetupError, WrongPlayerError
from unokit.engine.record import replay, to_record
from unokit.engine.rules import LEVER_OUTCOMES

EDITION = "wild-jackpot"
START = "R7"
CHICKEN = "Make chicken noises until your next turn."
DISCARD_TO_TWO = SUGGESTIONS[0]  # "Discard until you have 2 cards in your hand."
PLAY_RUN = SUGGESTIONS[1]  # "Play as many cards in a row as you can."
DRAW_TO_SEVEN = SUGGESTIONS[2]  # "Draw until you have 7 cards in your hand."
PLAY_WILDS = SUGGESTIONS[3]  # "Play all of your Wild cards"
TAKE_FROM_MOST = SUGGESTIONS[4]  # "Take 2 cards from the player with the most cards."
HONOUR_READING = "honour task: everyone sees it and you confirm when done"

YELLOWS = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"]
GREENS = ["G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8"]
BLUES = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8"]
DRAWS = ["B9", "G9", "Y9", "B0", "G0", "Y0", "R0", "R9"]
"""Cards put on top of the draw pile (none of them is in the filler hands above)."""

Ev = tuple[str, int, int, tuple[Any, ...]]


def lever(outcome: int) -> list[int]:
    """Lever weights that force ``outcome`` (1 to 6)."""
    weights = [0] * 6
    weights[outcome - 1] = 1
    return weights


def make_game(
    hands: Sequence[Sequence[str]],
    start: str = START,
    draw: Sequence[str] = DRAWS,
    *,
    dealer: int | None = None,
    texts: Sequence[str] = (CHICKEN,),
    outcome: int | None = None,
    seed: int = 1,
    **options: Any,
) -> Game:
    """A Wild Jackpot game dealing exactly ``hands`` (hand size taken from the hands), with the
    rule cards ``texts`` and, if given, the lever forced to ``outcome``."""
    n = len(hands)
    dealer = n - 1 if dealer is None else dealer
    settings: dict[str, Any] = {"hand_size": len(hands[0]), **options}
    if outcome is not None:
        settings["lever_weights"] = lever(outcome)
    rules = Rules.from_dict(settings)
    order = stacked_deck(EDITION, hands=hands, start=start, draw=draw, dealer=dealer, rules=rules)
    return Game(EDITION, n, seed=seed, deck=order, dealer=dealer, rules=rules, rule_cards=list(texts))


def kinds_since(game: Game, index: int, *kinds: str) -> list[Ev]:
    return [e for e in events_since(game, index) if e[0] in kinds]


def play(game: Game, seat: int, *actions: str) -> int:
    """Apply ``actions`` by ``seat`` in order; return the event index before the first."""
    start = len(game.events)
    for action in actions:
        game.apply_notation(seat, action)
    return start


def refused(game: Game, seat: int, action: str, error: type[Exception] = IllegalActionError) -> None:
    """``action`` by ``seat`` raises ``error`` and changes nothing."""
    before = game.clone()
    with pytest.raises(error):
        game.apply_notation(seat, action)
    assert game == before
    assert game.history == before.history


def deck_counts() -> Counter[str]:
    return Counter(card_name(c) for c in Game(EDITION, 2, seed=3, rule_cards=[CHICKEN]).deck_cards)


def shown_rule_cards(game: Game, seat: int | None) -> list[list[Any]]:
    return list(game.view(seat).public["rule_cards_shown"])


# ---------------------------------------------------------------- contents


def test_deck_has_108_cards() -> None:
    game = Game(EDITION, 4, seed=5)
    assert len(game.deck_cards) == 108
    assert sum(game.all_cards().values()) == 108
    assert game.all_cards() == Counter(game.deck_cards)


def test_colours_are_blue_green_red_and_yellow() -> None:
    game = Game(EDITION, 2, seed=5)
    assert set(game.edition.colours) == {Colour.BLUE, Colour.GREEN, Colour.RED, Colour.YELLOW}
    assert {name[0] for name in deck_counts() if not name.startswith("W")} == {"B", "G", "R", "Y"}


def test_each_colour_has_15_number_cards_0_to_9() -> None:
    counts = deck_counts()
    for letter in "BGRY":
        numbers = {number: counts[f"{letter}{number}"] for number in range(10)}
        assert all(k >= 1 for k in numbers.values()), numbers
        assert sum(numbers.values()) == 15
        assert numbers == NUMBER_CARDS_PER_COLOUR


def test_two_each_of_skip_reverse_and_draw_two_per_colour() -> None:
    counts = deck_counts()
    for symbol in ("S", "R", "+2"):
        for letter in "BGRY":
            assert counts[f"{letter}{symbol}"] == 2
        assert sum(counts[f"{letter}{symbol}"] for letter in "BGRY") == 8


def test_four_jackpot_cards_per_colour() -> None:
    counts = deck_counts()
    assert {letter: counts[f"{letter}$"] for letter in "BGRY"} == {"B": 4, "G": 4, "R": 4, "Y": 4}


def test_two_wild_four_wild_draw_four_and_two_wild_jackpot_cards() -> None:
    counts = deck_counts()
    assert {name: k for name, k in counts.items() if name.startswith("W")} == {"W": 2, "W+4": 4, "W$": 2}
    assert 4 * 15 + 3 * 8 + 16 + 2 + 4 + 2 == sum(counts.values()) == 108


# ---------------------------------------------------------------- Jackpot and Wild Jackpot cards


def test_jackpot_is_playable_on_its_colour() -> None:
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]])
    assert legal(game, 0) == ["R$", "draw"]


def test_jackpot_is_playable_on_another_jackpot() -> None:
    game = make_game([["B$", "Y8", "G8"], ["R$", "G$", "Y1"], GREENS[:3]], start="B5", outcome=6)
    play(game, 0, "B$")
    assert (game.actor, game.phase_name, card_name(game.top_card), game.colour) == (1, "turn", "B$", Colour.BLUE)
    assert legal(game, 1) == ["R$", "G$", "draw"]
    play(game, 1, "G$")
    assert card_name(game.top_card) == "G$"
    assert game.colour == Colour.GREEN


def test_jackpot_is_not_playable_otherwise() -> None:
    game = make_game([["B$", "G$", "Y1"], YELLOWS[1:4], GREENS[:3]])
    assert legal(game, 0) == ["draw"]
    refused(game, 0, "B$")
    refused(game, 0, "G$")


def test_wild_jackpot_is_playable_on_any_turn_even_holding_a_playable_card() -> None:
    game = make_game([["W$", "R1", "B1"], ["W$", "B2", "Y2"], ["B3", "G1", "G2"]], outcome=6)
    assert legal(game, 0) == ["R1", "W$", "draw"]
    play(game, 0, "R1")  # seat 1 holds nothing matching the red 1, yet may play the Wild Jackpot
    assert legal(game, 1) == ["W$", "draw"]
    play(game, 1, "W$", "=B")
    play(game, 2, "B3")
    assert legal(game, 0) == ["B1", "W$", "B1!", "W$!", "draw"]
    play(game, 0, "W$!")
    assert [e[1] for e in game.events if e[0] == "lever"] == [1, 0]


def test_wild_jackpot_names_the_colour_after_the_lever() -> None:
    game = make_game([["W$", "R1", "B2"], YELLOWS[:3], GREENS[:3]], outcome=6)
    start = play(game, 0, "W$")
    assert events_since(game, start) == [
        ("play", 0, 0, ("W$",)),
        ("lever", 0, 6, ()),
        ("draw", 0, 4, ("B9", "G9", "Y9", "B0")),
    ]
    assert (game.phase_name, game.actor, legal(game, 0)) == ("colour", 0, ["=R", "=Y", "=G", "=B"])
    play(game, 0, "=G")
    assert (game.colour, game.phase_name, game.turn) == (Colour.GREEN, "turn", 1)
    assert card_name(game.top_card) == "W$"


def test_wild_jackpot_colour_is_named_after_the_rule_card_is_performed() -> None:
    game = make_game([["W$", "R1", "B2"], YELLOWS[:3], GREENS[:3]], texts=["Draw 2 cards"], outcome=1)
    start = play(game, 0, "W$", "@2")
    assert events_since(game, start) == [
        ("play", 0, 0, ("W$",)),
        ("lever", 0, 1, ()),
        ("target", 0, 2, ()),
        ("dispense", 2, 0, ()),
        ("rule", 2, 0, ()),
        ("draw", 2, 2, ("B9", "G9")),
    ]
    assert (game.phase_name, game.actor) == ("colour", 0)
    play(game, 0, "=Y")
    assert (game.colour, game.turn, game.phase_name) == (Colour.YELLOW, 1, "turn")


def test_after_the_lever_play_continues_with_the_next_player_in_the_current_direction() -> None:
    # A Reverse start card: the dealer (seat 3) plays first and play goes to the right.
    hands = [YELLOWS[:3], GREENS[:3], BLUES[:3], ["R$", "Y8", "G8"]]
    game = make_game(hands, start="RR", texts=["Draw 2 cards"], outcome=3)
    assert (game.turn, game.direction) == (3, -1)
    start = play(game, 3, "R$")
    assert kinds_since(game, start, "dispense", "rule", "draw") == [
        ("dispense", 0, 0, ()),  # seat 0 is on seat 3's left
        ("rule", 0, 0, ()),
        ("draw", 0, 2, ("B9", "G9")),
    ]
    assert (game.turn, game.actor, game.phase_name, game.direction) == (2, 2, "turn", -1)


# ---------------------------------------------------------------- the lever's six outcomes


def test_lever_outcomes_are_the_six_symbols_of_the_sheet() -> None:
    assert LEVER_OUTCOMES == ("choose-player", "right", "left", "everyone", "discard-colours", "draw-four")
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]])
    assert game.view(0).public["lever_outcomes"] == list(LEVER_OUTCOMES)


def test_lever_1_choose_any_player_even_yourself() -> None:
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], texts=["Draw 2 cards"], outcome=1)
    start = play(game, 0, "R$")
    assert events_since(game, start)[-1] == ("lever", 0, 1, ())
    assert (game.phase_name, game.actor, legal(game, 0)) == ("target", 0, ["@0", "@1", "@2"])
    play(game, 0, "@0")
    assert kinds_since(game, start, "target", "dispense", "rule", "draw") == [
        ("target", 0, 0, ()),
        ("dispense", 0, 0, ()),
        ("rule", 0, 0, ()),
        ("draw", 0, 2, ("B9", "G9")),
    ]
    assert hand(game, 0) == ["B1", "B2", "B9", "G9"]
    assert (game.turn, game.phase_name) == (1, "turn")


def test_lever_1_the_chosen_player_performs_the_rule_card() -> None:
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], texts=["Draw 2 cards"], outcome=1)
    start = play(game, 0, "R$", "@2")
    assert kinds_since(game, start, "dispense", "rule", "draw") == [
        ("dispense", 2, 0, ()),
        ("rule", 2, 0, ()),
        ("draw", 2, 2, ("B9", "G9")),
    ]
    assert hand(game, 2) == ["B9", "G1", "G2", "G3", "G9"]
    assert hand(game, 0) == ["B1", "B2"]
    assert (game.turn, game.phase_name) == (1, "turn")  # the seat after the puller, not after the performer


@pytest.mark.parametrize(("outcome", "performer"), [(2, 3), (3, 1)], ids=["right", "left"])
def test_lever_2_right_and_3_left_player_performs(outcome: int, performer: int) -> None:
    hands = [["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3], BLUES[3:6]]
    game = make_game(hands, texts=["Draw 2 cards"], outcome=outcome)
    start = play(game, 0, "R$")
    assert events_since(game, start)[1:] == [
        ("lever", 0, outcome, ()),
        ("dispense", performer, 0, ()),
        ("rule", performer, 0, ()),
        ("draw", performer, 2, ("B9", "G9")),
    ]
    assert len(game.hands[performer]) == 5
    assert (game.turn, game.phase_name) == (1, "turn")


@pytest.mark.parametrize(("outcome", "performer"), [(2, 2), (3, 0)], ids=["right", "left"])
def test_lever_right_and_left_follow_the_seating_when_the_direction_is_reversed(outcome: int, performer: int) -> None:
    hands = [YELLOWS[:3], GREENS[:3], BLUES[:3], ["R$", "Y8", "G8"]]
    game = make_game(hands, start="RR", texts=["Draw 2 cards"], outcome=outcome)
    assert game.direction == -1
    start = play(game, 3, "R$")
    assert kinds_since(game, start, "dispense", "rule") == [("dispense", performer, 0, ()), ("rule", performer, 0, ())]
    assert game.right_of(3) == 2 and game.left_of(3) == 0
    assert (game.turn, game.direction) == (2, -1)


def test_lever_4_every_player_is_dealt_a_rule_card_and_performs_it_starting_with_the_puller() -> None:
    texts = ["Draw 1 card", "Draw 2 cards", "Draw 3 cards"]
    count = {"Draw 1 card": 1, "Draw 2 cards": 2, "Draw 3 cards": 3}
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], texts=texts, outcome=4)
    loaded = list(game.extra["dispenser"])
    start = play(game, 0, "R$")
    new = events_since(game, start)
    dispensed = [(seat, rid) for kind, seat, rid, _ in new if kind == "dispense"]
    assert dispensed == [(0, loaded[-1]), (1, loaded[-2]), (2, loaded[-3])]
    performed = [(seat, rid) for kind, seat, rid, _ in new if kind == "rule"]
    assert performed == dispensed
    kinds = [e[0] for e in new]
    assert max(i for i, k in enumerate(kinds) if k == "dispense") < kinds.index("rule")  # all dealt, then performed
    drawn = [(seat, k) for kind, seat, k, _ in new if kind == "draw"]
    assert drawn == [(seat, count[texts[rid]]) for seat, rid in dispensed]
    held = {0: 2, 1: 3, 2: 3}  # before the rule cards: the puller has played the Jackpot
    assert [len(h) for h in game.hands] == [held[seat] + count[texts[rid]] for seat, rid in sorted(dispensed)]
    assert (game.turn, game.phase_name) == (1, "turn")
    assert game.extra["dispenser"] == [] and sorted(game.extra["used"]) == [0, 1, 2]
    assert replay(to_record(game)) == game


def test_lever_4_players_perform_in_the_current_direction_of_play() -> None:
    texts = ["Draw 1 card"] * 4
    hands = [YELLOWS[:3], GREENS[:3], BLUES[:3], ["R$", "Y8", "G8"]]
    game = make_game(hands, start="RR", texts=texts, outcome=4)
    start = play(game, 3, "R$")
    assert [e[1] for e in kinds_since(game, start, "dispense")] == [3, 2, 1, 0]
    assert [e[1] for e in kinds_since(game, start, "rule")] == [3, 2, 1, 0]
    assert [e[1] for e in kinds_since(game, start, "draw")] == [3, 2, 1, 0]
    assert game.turn == 2


def test_lever_4_each_player_performs_in_turn_one_after_another() -> None:
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], texts=[CHICKEN] * 3, outcome=4)
    play(game, 0, "R$")
    for seat in (0, 1, 2):
        assert (game.phase_name, game.actor, legal(game, seat)) == ("honour", seat, ["done"])
        for other in {0, 1, 2} - {seat}:
            assert game.legal_actions(other) == ()
        start = play(game, seat, "done")
        assert events_since(game, start)[0] == ("done", seat, 0, ())
    assert (game.turn, game.phase_name) == (1, "turn")


def test_lever_5_discard_up_to_one_card_of_each_colour_in_any_order() -> None:
    hands = [["R$", "R1", "R2", "Y3", "G4", "B5", "W"], YELLOWS[:7], GREENS[:7]]
    game = make_game(hands, outcome=5)
    start = play(game, 0, "R$")
    assert events_since(game, start)[-1] == ("lever", 0, 5, ())
    assert (game.phase_name, game.actor) == ("lever-discard", 0)
    assert legal(game, 0) == ["-R1", "-R2", "-Y3", "-G4", "-B5", "done"]
    start = play(game, 0, "-Y3")
    assert events_since(game, start) == [("discard", 0, 1, ("Y3",))]
    assert (card_name(game.top_card), game.colour) == ("Y3", Colour.YELLOW)  # on top of the pile
    assert legal(game, 0) == ["-R1", "-R2", "-G4", "-B5", "done"]
    play(game, 0, "-R2")
    assert (card_name(game.top_card), game.colour) == ("R2", Colour.RED)
    assert legal(game, 0) == ["-G4", "-B5", "done"]  # one red card only
    start = play(game, 0, "done")
    assert events_since(game, start) == [("done", 0, 0, ())]
    assert names(game.discard_pile) == ["R7", "R$", "Y3", "R2"]
    assert hand(game, 0) == ["B5", "G4", "R1", "W"]
    assert (game.turn, game.phase_name, game.colour) == (1, "turn", Colour.RED)
    assert replay(to_record(game)) == game


def test_lever_5_discarding_stops_by_itself_when_no_colour_is_left() -> None:
    game = make_game([["R$", "R1", "R2", "W"], YELLOWS[:4], GREENS[:4]], outcome=5)
    play(game, 0, "R$")
    assert legal(game, 0) == ["-R1", "-R2", "done"]
    start = play(game, 0, "-R1")
    assert [e[0] for e in events_since(game, start)] == ["discard"]
    assert (game.turn, game.phase_name) == (1, "turn")
    assert hand(game, 0) == ["R2", "W"]


def test_lever_5_wild_cards_may_not_be_discarded() -> None:
    game = make_game([["R$", "W", "W+4", "W$", "B1"], YELLOWS[:5], GREENS[:5]], outcome=5)
    play(game, 0, "R$")
    assert legal(game, 0) == ["-B1", "done"]
    refused(game, 0, "-W")
    refused(game, 0, "-W+4")
    refused(game, 0, "-W$")


def test_lever_5_holding_only_wild_cards_there_is_nothing_to_discard() -> None:
    game = make_game([["R$", "W", "W+4"], YELLOWS[:3], GREENS[:3]], outcome=5)
    start = play(game, 0, "R$")
    assert [e[0] for e in events_since(game, start)] == ["play", "lever"]
    assert (game.turn, game.phase_name) == (1, "turn")


def test_lever_5_done_at_once_discards_nothing() -> None:
    game = make_game([["R$", "B1", "G1", "Y1"], YELLOWS[1:5], GREENS[1:5]], outcome=5)
    play(game, 0, "R$", "done")
    assert hand(game, 0) == ["B1", "G1", "Y1"]
    assert (card_name(game.top_card), game.colour, game.turn) == ("R$", Colour.RED, 1)


def test_lever_5_a_discarded_skip_makes_the_next_player_lose_their_turn() -> None:
    game = make_game([["R$", "BS", "Y1", "G1"], YELLOWS[1:5], GREENS[1:5]], outcome=5)
    start = play(game, 0, "R$", "-BS", "done")
    assert events_since(game, start)[-2:] == [("done", 0, 0, ()), ("skip", 1, 0, ())]
    assert (game.turn, game.colour) == (2, Colour.BLUE)


def test_lever_5_a_discarded_draw_two_makes_the_next_player_draw_2_and_lose_their_turn() -> None:
    game = make_game([["R$", "G+2", "Y1", "B1"], YELLOWS[1:5], GREENS[:4]], outcome=5)
    start = play(game, 0, "R$", "-G+2")
    assert len(game.hands[1]) == 4  # the effect waits until the lever's action is complete
    play(game, 0, "done")
    assert events_since(game, start)[-3:] == [("done", 0, 0, ()), ("draw", 1, 2, ("B9", "G9")), ("skip", 1, 0, ())]
    assert (game.turn, game.colour) == (2, Colour.GREEN)


def test_lever_5_a_discarded_reverse_reverses_at_once_and_later_cards_hit_the_new_next_player() -> None:
    hands = [["R$", "YR", "G+2", "B1"], YELLOWS[1:5], GREENS[:4], BLUES[1:5]]
    game = make_game(hands, outcome=5)
    start = play(game, 0, "R$", "-YR")
    assert events_since(game, start)[-2:] == [("discard", 0, 1, ("YR",)), ("reverse", 0, -1, ())]
    assert game.direction == -1
    play(game, 0, "-G+2", "done")
    assert events_since(game, start)[-2:] == [("draw", 3, 2, ("B9", "G9")), ("skip", 3, 0, ())]
    assert len(game.hands[1]) == 4
    assert (game.turn, game.direction) == (2, -1)


def test_lever_5_each_draw_two_adds_2_cards_for_the_next_player() -> None:
    game = make_game([["R$", "R+2", "G+2", "B1"], YELLOWS[1:5], GREENS[:4]], outcome=5)
    start = play(game, 0, "R$", "-R+2", "-G+2", "done")
    assert events_since(game, start)[-2:] == [("draw", 1, 4, ("B9", "G9", "Y9", "B0")), ("skip", 1, 0, ())]
    assert game.turn == 2


def test_lever_5_a_discarded_jackpot_does_not_pull_the_lever_again() -> None:
    game = make_game([["R$", "B$", "Y1", "G1"], YELLOWS[1:5], GREENS[1:5]], outcome=5)
    start = play(game, 0, "R$", "-B$")
    assert [e[0] for e in events_since(game, start)] == ["play", "lever", "discard"]
    assert (card_name(game.top_card), game.colour, game.phase_name) == ("B$", Colour.BLUE, "lever-discard")
    play(game, 0, "done")
    assert [e for e in game.events if e[0] == "lever"] == [("lever", 0, 5, ())]
    assert game.turn == 1


def test_lever_5_discarding_your_last_card_wins_and_a_pending_draw_two_is_still_drawn() -> None:
    game = make_game([["R$", "G+2", "B1"], YELLOWS[1:4], GREENS[:3]], outcome=5, scoring="single-round")
    play(game, 0, "R$", "-G+2")
    assert game.exposed == [0]  # down to one card without a call
    assert legal(game, 0) == ["-B1", "done", "uno"]
    start = play(game, 0, "-B1")
    assert events_since(game, start)[:2] == [("discard", 0, 1, ("B1",)), ("draw", 1, 2, ("B9", "G9"))]
    assert game.is_over and game.winner == 0
    round_end = next(e for e in game.events if e[0] == "round_end")
    assert round_end[1] == 0
    assert hand(game, 1) == ["B9", "G9", "Y2", "Y3", "Y4"]


def test_lever_6_draw_four() -> None:
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], outcome=6)
    start = play(game, 0, "R$")
    assert events_since(game, start) == [
        ("play", 0, 0, ("R$",)),
        ("lever", 0, 6, ()),
        ("draw", 0, 4, ("B9", "G9", "Y9", "B0")),
    ]
    assert hand(game, 0) == ["B0", "B1", "B2", "B9", "G9", "Y9"]
    assert (game.turn, game.phase_name, card_name(game.top_card)) == (1, "turn", "R$")  # no one else is skipped


# ---------------------------------------------------------------- the lever's chances


def lever_outcomes(seeds: range, weights: list[int] | None = None) -> Counter[int]:
    options: dict[str, Any] = {} if weights is None else {"lever_weights": weights}
    outcomes: Counter[int] = Counter()
    for seed in seeds:
        game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], seed=seed, **options)
        start = play(game, 0, "R$")
        outcomes.update(e[2] for e in game.events[start:] if e[0] == "lever")
    return outcomes


def test_default_lever_gives_all_six_outcomes_about_equally() -> None:
    assert Rules().lever_weights == (1, 1, 1, 1, 1, 1)
    outcomes = lever_outcomes(range(1200))
    assert sum(outcomes.values()) == 1200
    assert set(outcomes) == {1, 2, 3, 4, 5, 6}
    for outcome in range(1, 7):
        assert 140 <= outcomes[outcome] <= 260, outcomes  # 200 expected each; about 7 standard deviations


def test_an_outcome_of_weight_zero_never_occurs() -> None:
    outcomes = lever_outcomes(range(300), [2, 0, 1, 0, 1, 0])
    assert set(outcomes) == {1, 3, 5}
    assert outcomes[1] > outcomes[3] and outcomes[1] > outcomes[5]  # weight 2 against 1


@pytest.mark.parametrize("outcome", range(1, 7))
def test_a_single_weight_forces_that_outcome(outcome: int) -> None:
    assert lever_outcomes(range(20), lever(outcome)) == Counter({outcome: 20})


# ---------------------------------------------------------------- start cards


def test_start_card_jackpot_left_of_dealer_chooses_any_player_who_performs_a_rule_card() -> None:
    game = make_game([YELLOWS[:3], GREENS[:3], BLUES[:3]], start="G$", texts=["Draw 2 cards"])
    assert (game.phase_name, game.actor, game.colour) == ("target", 0, Colour.GREEN)
    assert legal(game, 0) == ["@0", "@1", "@2"]
    assert not any(e[0] == "lever" for e in game.events)  # the lever is not pulled
    start = play(game, 0, "@2")
    assert events_since(game, start) == [
        ("target", 0, 2, ()),
        ("dispense", 2, 0, ()),
        ("rule", 2, 0, ()),
        ("draw", 2, 2, ("B9", "G9")),
    ]
    assert (game.turn, game.actor, game.phase_name, game.colour) == (0, 0, "turn", Colour.GREEN)


def test_start_card_jackpot_left_of_dealer_may_choose_themselves() -> None:
    game = make_game([YELLOWS[:3], GREENS[:3], BLUES[:3]], start="B$", dealer=0, texts=["Draw 1 card"])
    assert (game.phase_name, game.actor) == ("target", 1)  # seat 1 is left of the dealer
    play(game, 1, "@1")
    assert hand(game, 1) == ["B9", "G1", "G2", "G3"]
    assert (game.turn, game.phase_name) == (1, "turn")


def test_start_card_wild_jackpot_rule_is_performed_then_the_colour_is_named_then_left_of_dealer_plays() -> None:
    game = make_game([YELLOWS[:3], GREENS[:3], BLUES[:3]], start="W$")
    assert (game.phase_name, game.actor, game.colour) == ("target", 0, NO_COLOUR)
    play(game, 0, "@1")
    assert (game.phase_name, game.actor, legal(game, 1)) == ("honour", 1, ["done"])
    play(game, 1, "done")
    assert (game.phase_name, game.actor) == ("colour", 0)
    assert legal(game, 0) == ["=R", "=Y", "=G", "=B"]
    play(game, 0, "=B")
    assert (game.turn, game.actor, game.phase_name, game.colour) == (0, 0, "turn", Colour.BLUE)
    assert not any(e[0] == "lever" for e in game.events)


# ---------------------------------------------------------------- going out and scoring


def test_final_jackpot_wins_the_round_without_pulling_the_lever() -> None:
    game = make_game([["R$"], ["W$"], ["B$"]], outcome=6)
    start = play(game, 0, "R$")
    new = events_since(game, start)
    assert "lever" not in [e[0] for e in new]
    assert ("round_end", 0, 90, (90, 0, 0)) in new
    assert game.scores == [90, 0, 0]


def test_final_wild_jackpot_wins_the_round_without_lever_or_colour() -> None:
    game = make_game([["W$"], ["R1"], ["B$"]], outcome=6, scoring="single-round")
    start = play(game, 0, "W$")
    assert [e[0] for e in events_since(game, start)] == ["play", "hand", "hand", "hand", "round_end", "match_end"]
    assert game.is_over and game.winner == 0


def test_jackpot_scores_40_and_wild_jackpot_50() -> None:
    edition = Game(EDITION, 2, seed=1).edition
    assert edition.hand_points([parse_card("R$")]) == 40
    assert edition.hand_points([parse_card("W$")]) == 50
    cards = ["R$", "W$", "B7", "GS", "YR", "B+2", "W", "W+4"]
    assert edition.hand_points([parse_card(c) for c in cards]) == 40 + 50 + 7 + 20 + 20 + 20 + 50 + 50
    game = make_game([["R1"], ["W$"], ["G$"]])
    play(game, 0, "R1")
    assert [e for e in game.events if e[0] == "hand"][:3] == [
        ("hand", 0, 0, ()),
        ("hand", 1, 50, (parse_card("W$"),)),
        ("hand", 2, 40, (parse_card("G$"),)),
    ]
    assert game.scores == [90, 0, 0]


# ---------------------------------------------------------------- the dispenser


def test_rule_cards_are_dispensed_from_the_unit_and_used_ones_go_behind_it() -> None:
    texts = ["Sing a song.", "Dance a jig.", CHICKEN]
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], texts=texts, outcome=3)
    loaded = list(game.extra["dispenser"])
    assert sorted(loaded) == [0, 1, 2]
    assert game.view(None).public["rule_cards_in_dispenser"] == 3
    start = play(game, 0, "R$")
    rid = loaded[-1]
    assert kinds_since(game, start, "dispense", "rule") == [("dispense", 1, rid, ()), ("rule", 1, rid, ())]
    assert game.extra["dispenser"] == loaded[:-1]
    assert (game.extra["in_play"], game.extra["used"]) == ([rid], [])
    play(game, 1, "done")
    assert (game.extra["in_play"], game.extra["used"]) == ([], [rid])
    public = game.view(None).public
    assert (public["rule_cards_in_dispenser"], public["rule_cards_used"]) == (2, 1)
    assert WildJackpot.rule_cards_everywhere(game) == Counter([0, 1, 2])


def test_empty_unit_is_reloaded_with_the_used_rule_cards_shuffled() -> None:
    hands = [["R$", "B1", "B2"], ["Y$", "Y1", "Y2"], GREENS[:3]]
    game = make_game(hands, texts=[CHICKEN], outcome=3)
    play(game, 0, "R$")
    play(game, 1, "done")
    assert (game.extra["dispenser"], game.extra["used"]) == ([], [0])
    start = play(game, 1, "Y$")
    assert events_since(game, start)[1:4] == [
        ("lever", 1, 3, ()),
        ("rule_reshuffle", -1, 1, ()),
        ("dispense", 2, 0, ()),
    ]
    assert (game.phase_name, game.actor) == ("honour", 2)
    assert (game.extra["dispenser"], game.extra["in_play"], game.extra["used"]) == ([], [0], [])
    assert replay(to_record(game)) == game


def test_with_no_rule_card_left_anywhere_nothing_is_dispensed() -> None:
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], texts=[CHICKEN], outcome=4)
    start = play(game, 0, "R$")
    assert kinds_since(game, start, "dispense", "rule", "rule_reshuffle") == [
        ("dispense", 0, 0, ()),
        ("dispense", 1, -1, ()),
        ("dispense", 2, -1, ()),
        ("rule", 0, 0, ()),
    ]
    assert WildJackpot.rule_cards_everywhere(game) == Counter([0])
    play(game, 0, "done")
    assert (game.turn, game.phase_name) == (1, "turn")
    assert WildJackpot.rule_cards_everywhere(game) == Counter([0])


def test_rule_cards_shown_are_only_the_cards_dispensed() -> None:
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], texts=[CHICKEN], outcome=4)
    play(game, 0, "R$")
    for seat in (0, 1, 2, None):
        assert shown_rule_cards(game, seat) == [[0, CHICKEN, HONOUR_READING]]


def test_rule_cards_not_finished_at_a_round_end_go_behind_the_unit() -> None:
    texts = ["Discard 1 card", "Discard 1 card"]
    game = make_game([["R$", "B1"], ["Y1", "Y2"]], texts=texts, outcome=4, scoring="single-round")
    play(game, 0, "R$!")
    assert (game.phase_name, game.actor) == ("discard", 0)
    play(game, 0, "-B1")
    assert game.is_over and game.winner == 0
    assert [e[1] for e in game.events if e[0] == "rule"] == [0]  # seat 1 never performed theirs
    assert game.extra["in_play"] == []
    assert sorted(game.extra["used"]) == [0, 1]
    assert WildJackpot.rule_cards_everywhere(game) == Counter([0, 1])


# ---------------------------------------------------------------- writing the rule cards


@pytest.mark.parametrize(
    ("players", "each", "used"),
    [(2, 4, 8), (3, 2, 6), (4, 2, 8), (5, 1, 5), (8, 1, 8), (9, 1, 9), (10, 1, 10)],
)
def test_rule_cards_are_handed_out_equally(players: int, each: int, used: int) -> None:
    assert rule_cards_per_player(8, players) == each
    game = Game(EDITION, players, seed=players)
    texts = game.extra["texts"]
    assert len(texts) == each * players == used
    assert set(texts) <= set(SUGGESTIONS)
    if used <= len(SUGGESTIONS):
        assert len(set(texts)) == used  # the unused cards are set aside, none is written twice
    assert WildJackpot.rule_cards_everywhere(game) == Counter(range(used))


def test_default_rule_cards_are_the_sheet_suggestions() -> None:
    game = Game(EDITION, 4, seed=11)
    assert sorted(game.extra["texts"]) == sorted(SUGGESTIONS)
    assert game.setup_rule_cards is None


def test_rule_card_count_option_sets_how_many_cards_are_handed_out() -> None:
    assert rule_cards_per_player(4, 3) == 1
    game = Game(EDITION, 3, seed=2, rules={"rule_card_count": 4})
    assert len(game.extra["texts"]) == 3


def test_written_rule_cards_are_cleaned_shuffled_and_loaded_into_the_unit() -> None:
    texts = ["  Draw   2 cards ", "Reverse", CHICKEN, "Skip your next turn"]
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3]], texts=texts)
    assert game.extra["texts"] == ("Draw 2 cards", "Reverse", CHICKEN, "Skip your next turn")
    assert sorted(game.extra["dispenser"]) == [0, 1, 2, 3]
    assert (game.extra["used"], game.extra["in_play"]) == ([], [])
    assert game.setup_rule_cards == texts
    assert replay(to_record(game)) == game


# ---------------------------------------------------------------- the five enforced suggestions


def test_discard_until_you_have_2_cards_with_more_cards() -> None:
    hands = [["R$", "B1", "B2", "G1", "G2"], ["Y1", "Y2", "G3", "B4", "B5"], ["Y3", "Y4", "Y5", "G4", "G5"]]
    game = make_game(hands, texts=[DISCARD_TO_TWO], outcome=3)
    play(game, 0, "R$")
    assert (game.phase_name, game.actor) == ("discard", 1)
    assert legal(game, 1) == ["-Y1", "-Y2", "-G3", "-B4", "-B5"]
    start = play(game, 1, "-Y1", "-G3")
    assert game.phase_name == "discard"
    play(game, 1, "-B5")
    assert events_since(game, start) == [
        ("discard", 1, 0, ("Y1",)),
        ("discard", 1, 0, ("G3",)),
        ("discard", 1, 0, ("B5",)),
    ]
    assert hand(game, 1) == ["B4", "Y2"]
    assert names(game.discard_pile) == ["R7", "Y1", "G3", "B5", "R$"]  # under the top card
    assert (card_name(game.top_card), game.colour) == ("R$", Colour.RED)
    assert (game.turn, game.phase_name) == (1, "turn")


@pytest.mark.parametrize(("outcome", "performer", "target"), [(3, 1, None), (1, 0, "@0")], ids=["two", "one"])
def test_discard_until_you_have_2_cards_with_2_or_fewer_does_nothing(
    outcome: int, performer: int, target: str | None
) -> None:
    game = make_game([["R$", "B1"], ["Y1", "Y2"], ["G1", "G2"]], texts=[DISCARD_TO_TWO], outcome=outcome)
    before = [list(h) for h in game.hands]
    before[0].remove(parse_card("R$"))
    play(game, 0, "R$!", *([target] if target else []))
    assert [e for e in game.events if e[0] == "rule"] == [("rule", performer, 0, ())]
    assert not any(e[0] == "discard" for e in game.events)
    assert game.hands == before
    assert (game.turn, game.phase_name) == (1, "turn")


def test_play_as_many_cards_in_a_row_as_you_can() -> None:
    hands = [
        ["R$", "B1", "B2", "B3", "B4", "B5", "G1", "G2"],
        ["RS", "RR", "R+2", "B+2", "W", "G7", "Y8", "Y1"],
        ["Y2", "Y3", "Y4", "Y5", "G3", "G4", "G5", "G6"],
    ]
    game = make_game(hands, texts=[PLAY_RUN], outcome=3)
    start = play(game, 0, "R$")
    assert (game.phase_name, game.actor) == ("rule-run", 1)
    assert legal(game, 1) == ["RS", "RR", "R+2", "W"]  # no draw, no pass: keep playing
    play(game, 1, "RS")
    assert legal(game, 1) == ["RR", "R+2", "W"]
    play(game, 1, "RR")
    assert legal(game, 1) == ["R+2", "W"]
    play(game, 1, "R+2")
    assert legal(game, 1) == ["B+2", "W"]
    play(game, 1, "B+2")
    assert (legal(game, 1), game.colour) == (["W"], Colour.BLUE)
    play(game, 1, "W")
    assert (game.phase_name, game.actor) == ("colour", 1)  # a wild card: name the colour
    play(game, 1, "=G")
    assert (game.phase_name, legal(game, 1)) == ("rule-run", ["G7"])
    play(game, 1, "G7")
    # Nothing else matches: the run ends; none of the cards' actions took effect.
    assert events_since(game, start)[-1] == ("run_end", 1, 0, ())
    assert [e[3][0] for e in kinds_since(game, start, "play")] == ["R$", "RS", "RR", "R+2", "B+2", "W", "G7"]
    assert not kinds_since(game, start, "skip", "reverse", "draw", "challenge")
    assert hand(game, 2) == sorted(hands[2])
    assert hand(game, 1) == ["Y1", "Y8"]
    assert (game.direction, game.turn, game.phase_name) == (1, 1, "turn")
    assert (card_name(game.top_card), game.colour) == ("G7", Colour.GREEN)
    assert replay(to_record(game)) == game


def test_play_as_many_cards_in_a_row_a_jackpot_in_the_run_does_not_pull_the_lever() -> None:
    game = make_game([["R$", "B1", "B2"], ["R$", "Y1", "Y2"], GREENS[:3]], texts=[PLAY_RUN], outcome=3)
    play(game, 0, "R$")
    assert legal(game, 1) == ["R$"]
    start = play(game, 1, "R$")
    assert [e[0] for e in events_since(game, start)] == ["play", "run_end"]
    assert len([e for e in game.events if e[0] == "lever"]) == 1
    assert (game.turn, hand(game, 1)) == (1, ["Y1", "Y2"])


def test_play_as_many_cards_in_a_row_with_nothing_matching_ends_at_once() -> None:
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], texts=[PLAY_RUN], outcome=3)
    start = play(game, 0, "R$")
    assert kinds_since(game, start, "rule", "run_end") == [("rule", 1, 0, ()), ("run_end", 1, 0, ())]
    assert (game.turn, game.phase_name, hand(game, 1)) == (1, "turn", ["Y1", "Y2", "Y3"])


def test_play_as_many_cards_in_a_row_going_out_wins() -> None:
    game = make_game(
        [["R$", "B1", "B2"], ["R1", "R2", "W"], GREENS[:3]], texts=[PLAY_RUN], outcome=3, scoring="single-round"
    )
    play(game, 0, "R$")
    play(game, 1, "R1")
    assert legal(game, 1) == ["R2", "W", "R2!", "W!"]  # UNO may be called on the next-to-last card
    play(game, 1, "R2!")
    assert game.exposed == []
    start = play(game, 1, "W")
    assert [e[0] for e in events_since(game, start)][:2] == ["play", "hand"]
    assert game.is_over and game.winner == 1


def test_draw_until_you_have_7_cards() -> None:
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], texts=[DRAW_TO_SEVEN], outcome=3)
    start = play(game, 0, "R$")
    assert kinds_since(game, start, "draw") == [("draw", 1, 4, ("B9", "G9", "Y9", "B0"))]
    assert len(game.hands[1]) == 7
    assert game.turn == 1


def test_draw_until_you_have_7_cards_holding_more_draws_nothing() -> None:
    hands = [["R$", *BLUES[:7]], YELLOWS, GREENS]
    game = make_game(hands, texts=[DRAW_TO_SEVEN], outcome=3)
    start = play(game, 0, "R$")
    assert kinds_since(game, start, "rule", "draw") == [("rule", 1, 0, ())]
    assert len(game.hands[1]) == 8


def test_play_all_of_your_wild_cards() -> None:
    hands = [["R$", "B1", "B2", "B3", "B4"], ["W", "W+4", "W$", "Y1", "Y2"], GREENS[:5]]
    game = make_game(hands, texts=[PLAY_WILDS], outcome=3)
    start = play(game, 0, "R$")
    assert kinds_since(game, start, "play")[1:] == [
        ("play", 1, 0, ("W",)),
        ("play", 1, 0, ("W+4",)),
        ("play", 1, 0, ("W$",)),
    ]
    assert (game.phase_name, game.actor) == ("colour", 1)
    play(game, 1, "=B")
    # No card's action: no challenge, nobody draws, the lever is not pulled again.
    assert len([e for e in game.events if e[0] == "lever"]) == 1
    assert not kinds_since(game, start, "draw", "challenge", "skip")
    assert hand(game, 1) == ["Y1", "Y2"]
    assert (card_name(game.top_card), game.colour) == ("W$", Colour.BLUE)
    assert (game.turn, game.phase_name) == (1, "turn")


def test_play_all_of_your_wild_cards_without_any_does_nothing() -> None:
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], texts=[PLAY_WILDS], outcome=3)
    start = play(game, 0, "R$")
    assert [e[0] for e in events_since(game, start)] == ["play", "lever", "dispense", "rule"]
    assert (game.turn, game.phase_name, game.colour) == (1, "turn", Colour.RED)


def test_play_all_of_your_wild_cards_going_out_wins() -> None:
    game = make_game([["R$", "B1"], ["W", "W$"], ["G1", "G2"]], texts=[PLAY_WILDS], outcome=3, scoring="single-round")
    play(game, 0, "R$!")
    assert game.is_over and game.winner == 1
    assert not any(e[0] == "colour" for e in game.events)


def test_take_2_cards_from_the_player_with_the_most_cards() -> None:
    hands = [["R$", "B1", "B2", "B3"], YELLOWS[:4], GREENS[:4]]
    game = make_game(hands, texts=[TAKE_FROM_MOST], outcome=3)
    start = play(game, 0, "R$")  # seat 1 performs; seat 2 (4 cards) has more than seat 0 (3)
    takes = [e for e in game.events[start:] if e[0] == "take"]
    assert len(takes) == 1
    _, taker, victim, taken = takes[0]
    assert (taker, victim, len(taken)) == (1, 2, 2)
    assert set(names(taken)) <= set(GREENS[:4])
    assert hand(game, 1) == sorted(YELLOWS[:4] + names(taken))
    assert hand(game, 2) == sorted(set(GREENS[:4]) - set(names(taken)))
    assert (game.turn, game.phase_name) == (1, "turn")


def test_take_2_cards_from_the_player_with_the_most_cards_a_tie_the_performer_chooses() -> None:
    hands = [["R$", "B1", "B2", "B3"], YELLOWS[:4], GREENS[:4], ["B4", "B5", "B6", "B7"]]
    game = make_game(hands, texts=[TAKE_FROM_MOST], outcome=3)
    play(game, 0, "R$")
    assert (game.phase_name, game.actor, legal(game, 1)) == ("target", 1, ["@2", "@3"])
    refused(game, 1, "@0")
    refused(game, 1, "@1")
    start = play(game, 1, "@3")
    take = next(e for e in game.events[start:] if e[0] == "take")
    assert (take[1], take[2], len(take[3])) == (1, 3, 2)
    assert [len(h) for h in game.hands] == [3, 6, 4, 2]
    assert replay(to_record(game)) == game
    assert game.turn == 1


# ---------------------------------------------------------------- every other enforced rule


def test_draw_n_cards() -> None:
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], texts=["Draw three cards"], outcome=3)
    start = play(game, 0, "R$")
    assert kinds_since(game, start, "draw") == [("draw", 1, 3, ("B9", "G9", "Y9"))]
    assert game.turn == 1


def test_discard_n_cards_of_your_choice_under_the_top_card() -> None:
    game = make_game([["R$", "B1", "B2", "B3"], YELLOWS[:4], GREENS[:4]], texts=["Discard 2 cards"], outcome=3)
    play(game, 0, "R$")
    assert (game.phase_name, game.actor, legal(game, 1)) == ("discard", 1, ["-Y1", "-Y2", "-Y3", "-Y4"])
    start = play(game, 1, "-Y4", "-Y2")
    assert events_since(game, start)[:2] == [("discard", 1, 0, ("Y4",)), ("discard", 1, 0, ("Y2",))]
    assert names(game.discard_pile) == ["R7", "Y4", "Y2", "R$"]
    assert (hand(game, 1), game.colour, game.turn) == (["Y1", "Y3"], Colour.RED, 1)


def test_skip_your_next_turn() -> None:
    hands = [["R$", "R1", "R2"], YELLOWS[:3], ["R3", "R4", "G1"]]
    game = make_game(hands, texts=["Skip your next turn"], outcome=3)
    start = play(game, 0, "R$")
    assert events_since(game, start)[-2:] == [("lose_turn", 1, 0, ()), ("skip", 1, 0, ())]
    assert game.turn == 2
    start = play(game, 2, "R3")
    play(game, 0, "R1")
    assert game.turn == 1  # only the next turn is lost
    assert not kinds_since(game, start, "skip")


def test_skip_your_next_turn_lapses_at_the_round_end() -> None:
    game = make_game([["G1"], ["G2"], ["G3"]], start="G$", texts=["Skip your next turn"])
    play(game, 0, "@2")
    assert game.turn_skips == [0, 0, 1]
    play(game, 0, "G1")
    assert game.round == 2
    assert (game.turn_skips, game.pending_skips) == ([0, 0, 0], 0)


def test_reverse_the_direction_at_once() -> None:
    hands = [["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3], BLUES[2:5]]
    game = make_game(hands, texts=["Reverse the direction of play"], outcome=3)
    start = play(game, 0, "R$")
    assert events_since(game, start)[-1] == ("reverse", 1, -1, ())
    assert (game.direction, game.turn) == (-1, 3)


@pytest.mark.parametrize(
    ("text", "receiver"),
    [("Give 2 cards to the player on your left", 2), ("Give the player on your right two cards", 0)],
    ids=["left", "right"],
)
def test_give_n_cards_to_the_player_on_your_left_or_right(text: str, receiver: int) -> None:
    hands = [["R$", "B1", "B2", "B3"], YELLOWS[:4], GREENS[:4]]
    game = make_game(hands, texts=[text], outcome=3)
    play(game, 0, "R$")
    assert (game.phase_name, game.actor, legal(game, 1)) == ("give", 1, [">Y1", ">Y2", ">Y3", ">Y4"])
    start = play(game, 1, ">Y3")
    assert game.phase_name == "give"
    assert legal(game, 1) == [">Y1", ">Y2", ">Y4"]
    play(game, 1, ">Y1")
    assert events_since(game, start) == [("give", 1, receiver, ("Y3",)), ("give", 1, receiver, ("Y1",))]
    assert hand(game, 1) == ["Y2", "Y4"]
    assert {"Y1", "Y3"} <= set(hand(game, receiver))
    assert (game.turn, game.phase_name) == (1, "turn")


def test_give_to_the_player_on_your_left_follows_the_seating_when_the_direction_is_reversed() -> None:
    hands = [YELLOWS[:3], GREENS[:3], BLUES[:3], ["R$", "Y8", "G8"]]
    game = make_game(hands, start="RR", texts=["Give 1 card to the player on your left"], outcome=3)
    play(game, 3, "R$")  # seat 0, on seat 3's left, performs and gives to seat 1, on their left
    assert (game.phase_name, game.actor) == ("give", 0)
    start = play(game, 0, ">Y2")
    assert events_since(game, start)[0] == ("give", 0, 1, ("Y2",))
    assert game.turn == 2


def test_give_n_cards_to_a_player_of_your_choice() -> None:
    hands = [["R$", "B1", "B2", "B3"], YELLOWS[:4], GREENS[:4]]
    game = make_game(hands, texts=["Give 1 card to a player of your choice"], outcome=3)
    play(game, 0, "R$")
    assert (game.phase_name, game.actor, legal(game, 1)) == ("target", 1, ["@0", "@2"])
    start = play(game, 1, "@0")
    assert (game.phase_name, game.actor) == ("give", 1)
    play(game, 1, ">Y2")
    assert events_since(game, start) == [("target", 1, 0, ()), ("give", 1, 0, ("Y2",))]
    assert hand(game, 0) == ["B1", "B2", "B3", "Y2"]
    assert replay(to_record(game)) == game
    assert game.turn == 1


def test_take_n_cards_from_the_player_with_the_fewest_cards() -> None:
    hands = [["R$", "B1", "B2", "B3"], YELLOWS[:4], GREENS[:4]]
    game = make_game(hands, texts=["Take 1 card from the player with the fewest cards"], outcome=3)
    start = play(game, 0, "R$")
    take = next(e for e in events_since(game, start) if e[0] == "take")
    assert (take[1], take[2], len(take[3])) == (1, 0, 1)
    assert take[3][0] in ("B1", "B2", "B3")
    assert [len(h) for h in game.hands] == [2, 5, 4]


@pytest.mark.parametrize("choose", [False, True], ids=["fixed-player", "chosen-player"])
def test_a_player_whose_last_cards_are_taken_has_no_cards_left_and_wins_the_round(choose: bool) -> None:
    # "Once a player has no cards left, the round is over."
    hands = [["R$", "B1", "B2", "B3"], YELLOWS[:4], GREENS[:4]]
    text = "Take 4 cards from a player of your choice" if choose else "Take 4 cards from the player on your left"
    game = make_game(hands, texts=[text], outcome=3, scoring="single-round")
    play(game, 0, "R$")
    if choose:
        assert legal(game, 1) == ["@0", "@2"]
        play(game, 1, "@2")
    take = next(e for e in game.events if e[0] == "take")
    assert (take[1], take[2], sorted(names(take[3]))) == (1, 2, GREENS[:4])
    assert game.hands[2] == []
    assert game.is_over and game.winner == 2
    assert next(e for e in game.events if e[0] == "round_end")[1] == 2


@pytest.mark.parametrize(
    ("text", "other"),
    [
        ("Swap hands with the player on your right", 0),
        ("Swap hands with the player on your left", 2),
        ("Trade hands with the next player", 2),
        ("Exchange hands with the previous player", 0),
        ("Swap hands with the player with the most cards", 2),
        ("Switch hands with the player with the fewest cards", 0),
    ],
)
def test_swap_hands_with(text: str, other: int) -> None:
    hands = [["R$", "B1", "B2", "B3"], YELLOWS[:4], GREENS[:4]]
    game = make_game(hands, texts=[text], outcome=3)
    before = [hand(game, s) for s in range(3)]
    before[0].remove("R$")
    start = play(game, 0, "R$")
    assert events_since(game, start)[-1] == ("swap", 1, other, ())
    assert hand(game, 1) == before[other]
    assert hand(game, other) == before[1]
    assert game.turn == 1


def test_swap_hands_with_a_player_of_your_choice() -> None:
    hands = [["R$", "B1", "B2", "B3"], YELLOWS[:4], GREENS[:4]]
    game = make_game(hands, texts=["Swap hands with another player"], outcome=3)
    play(game, 0, "R$")
    assert legal(game, 1) == ["@0", "@2"]
    play(game, 1, "@2")
    assert (hand(game, 1), hand(game, 2)) == (GREENS[:4], YELLOWS[:4])


def test_everyone_draws_n_cards_starting_with_the_performer() -> None:
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], texts=["Everyone draws 1 card"], outcome=3)
    start = play(game, 0, "R$")
    assert kinds_since(game, start, "draw") == [
        ("draw", 1, 1, ("B9",)),
        ("draw", 2, 1, ("G9",)),
        ("draw", 0, 1, ("Y9",)),
    ]
    assert game.turn == 1


def test_everyone_discards_n_cards_one_player_after_another() -> None:
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], texts=["Each player discards 1 card"], outcome=3)
    play(game, 0, "R$")
    start = len(game.events)
    for seat, card in ((1, "Y2"), (2, "G3"), (0, "B1")):
        assert (game.phase_name, game.actor) == ("discard", seat)
        play(game, seat, f"-{card}")
    assert kinds_since(game, start, "discard") == [
        ("discard", 1, 0, ("Y2",)),
        ("discard", 2, 0, ("G3",)),
        ("discard", 0, 0, ("B1",)),
    ]
    assert names(game.discard_pile) == ["R7", "Y2", "G3", "B1", "R$"]
    assert (game.turn, game.phase_name) == (1, "turn")


def test_holding_one_card_after_a_rule_card_exposes_the_player_to_an_uno_catch() -> None:
    hands = [["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]]
    game = make_game(hands, texts=["Give 2 cards to the player on your left"], outcome=3)
    play(game, 0, "R$")
    play(game, 1, ">Y1", ">Y2")
    assert game.exposed == [1]
    assert game.deciders() == (0, 1, 2)
    assert legal(game, 1) == ["draw", "uno"]
    assert legal(game, 0) == ["catch@1"]
    start = play(game, 0, "catch@1")
    assert events_since(game, start) == [("catch", 0, 1, ()), ("draw", 1, 2, ("B9", "G9"))]


# ---------------------------------------------------------------- honour tasks and secrets


def test_honour_task_make_chicken_noises_until_your_next_turn() -> None:
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], texts=[CHICKEN], outcome=3)
    assert read_rule(CHICKEN).effect is None
    for seat in (0, 1, 2, None):
        assert shown_rule_cards(game, seat) == []
    play(game, 0, "R$")
    assert (game.phase_name, game.actor, legal(game, 1)) == ("honour", 1, ["done"])
    assert game.deciders() == (1,)
    for seat in (0, 1, 2, None):
        assert shown_rule_cards(game, seat) == [[0, CHICKEN, HONOUR_READING]]
    start = play(game, 1, "done")
    assert events_since(game, start) == [("done", 1, 0, ())]
    assert (game.turn, game.phase_name) == (1, "turn")


def test_take_events_are_secret_to_the_two_players() -> None:
    hands = [["R$", "B1", "B2", "B3"], YELLOWS[:4], GREENS[:4]]
    game = make_game(hands, texts=[TAKE_FROM_MOST], outcome=3)
    play(game, 0, "R$")
    take = next(e for e in game.events if e[0] == "take")
    assert len(take[3]) == 2
    for seat in (1, 2):
        assert take in game.view(seat).history
    for seat in (0, None):
        assert ("take", 1, 2, ()) in game.view(seat).history
        assert take not in game.view(seat).history


def test_give_events_are_secret_to_the_two_players() -> None:
    hands = [["R$", "B1", "B2", "B3"], YELLOWS[:4], GREENS[:4]]
    game = make_game(hands, texts=["Give 1 card to the player on your right"], outcome=3)
    play(game, 0, "R$")
    play(game, 1, ">Y4")
    give = ("give", 1, 0, (parse_card("Y4"),))
    assert give in game.events
    for seat in (0, 1):
        assert give in game.view(seat).history
    for seat in (2, None):
        assert ("give", 1, 0, ()) in game.view(seat).history
        assert give not in game.view(seat).history


# ---------------------------------------------------------------- refusals


def test_illegal_actions_in_the_rule_run_phase_are_refused() -> None:
    hands = [["R$", "B1", "B2"], ["R1", "Y1", "G1"], GREENS[1:4]]
    game = make_game(hands, texts=[PLAY_RUN], outcome=3)
    play(game, 0, "R$")
    assert legal(game, 1) == ["R1"]
    for action in ("draw", "pass", "done", "Y1", "G1", "R2", "R1!", "-R1", ">R1", "=R", "@0"):
        refused(game, 1, action)
    refused(game, 0, "R1", WrongPlayerError)
    refused(game, 2, "G2", WrongPlayerError)


def test_illegal_actions_in_the_lever_discard_phase_are_refused() -> None:
    game = make_game([["R$", "R1", "R2", "W", "B1"], YELLOWS[:5], GREENS[:5]], outcome=5)
    play(game, 0, "R$", "-R1")
    assert legal(game, 0) == ["-B1", "done"]
    for action in ("-R2", "-W", "-Y1", "-R1", "B1", "draw", "pass", "=B", ">B1", "@1"):
        refused(game, 0, action)
    refused(game, 1, "done", WrongPlayerError)


def test_illegal_actions_in_the_honour_phase_are_refused() -> None:
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], texts=[CHICKEN], outcome=3)
    play(game, 0, "R$")
    for action in ("draw", "pass", "Y1", "-Y1", ">Y1", "=R", "@1", "uno"):
        refused(game, 1, action)
    refused(game, 0, "done", WrongPlayerError)
    refused(game, 2, "done", WrongPlayerError)


def test_illegal_actions_in_the_give_phase_are_refused() -> None:
    hands = [["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]]
    game = make_game(hands, texts=["Give 1 card to the player on your left"], outcome=3)
    play(game, 0, "R$")
    for action in (">B1", ">G1", "done", "-Y1", "Y1", "draw", "@2"):
        refused(game, 1, action)
    refused(game, 2, ">G1", WrongPlayerError)


def test_illegal_actions_in_the_target_phases_are_refused() -> None:
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], texts=["Give 1 card to any player"], outcome=1)
    play(game, 0, "R$")
    for action in ("@3", "@9", "done", "B1", "-B1", "draw"):
        refused(game, 0, action)
    play(game, 0, "@1")
    assert (game.phase_name, game.actor, legal(game, 1)) == ("target", 1, ["@0", "@2"])
    for action in ("@1", "@3", "done", ">Y1"):
        refused(game, 1, action)


def test_illegal_actions_in_a_rule_discard_phase_are_refused() -> None:
    game = make_game([["R$", "B1", "B2"], YELLOWS[:3], GREENS[:3]], texts=["Discard 1 card"], outcome=3)
    play(game, 0, "R$")
    for action in ("-B1", "-G1", "done", "Y1", "draw", ">Y1"):
        refused(game, 1, action)


@pytest.mark.parametrize(
    "text",
    ["", "   ", "x" * 121, "Draw\u200b 2 cards", "Draw 2\x00 cards", "Draw \x1f2 cards", 7, None],
    ids=["empty", "blank", "too-long", "format", "nul", "unit-separator", "number", "none"],
)
def test_bad_rule_text_is_refused(text: Any) -> None:
    with pytest.raises(RuleTextError):
        Game(EDITION, 2, seed=1, rule_cards=["Draw 2 cards", text])
    with pytest.raises(ValueError):
        Game(EDITION, 2, seed=1, rule_cards=[text])


def test_the_longest_rule_text_is_accepted() -> None:
    game = Game(EDITION, 2, seed=1, rule_cards=["x" * 120])
    assert game.extra["texts"] == ("x" * 120,)


@pytest.mark.parametrize("rule_cards", [[], ["Draw 2 cards"] * 101, "Draw 2 cards"], ids=["none", "101", "str"])
def test_rule_cards_must_be_a_list_of_1_to_100_texts(rule_cards: Any) -> None:
    with pytest.raises(SetupError):
        Game(EDITION, 2, seed=1, rule_cards=rule_cards)


@pytest.mark.parametrize("edition", ["classic", "space-jam", "all-wild"])
def test_rule_cards_given_to_another_edition_are_refused(edition: str) -> None:
    with pytest.raises(SetupError):
        Game(edition, 2, seed=1, rule_cards=["Draw 2 cards"])
