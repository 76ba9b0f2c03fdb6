"""The rules of Classic UNO (the base shared by the Space Jam sheet), one test per rule.

Every scenario is dealt from an explicit deck order (``stacked_deck``) so that hands,
start card and draw pile are known; seat ``n - 1`` deals unless a test says otherwise,
so seat 0 plays first.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from rules_support import legal, names
from unokit.engine.cards import CARD_NUMBER, Colour, card_name, parse_card
from unokit.engine.deck import stacked_deck
from unokit.engine.errors import (
    GameOverError,
    IllegalActionError,
    NotationError,
    SetupError,
    UnknownOptionError,
    WrongPlayerError,
)
from unokit.engine.events import Event
from unokit.engine.game import Game, shuffle_cards
from unokit.engine.rules import Rules

# Hands holding no red card and no 5: nothing in them matches a red 5.
QUIET_A = ["B1", "B2", "B3", "G1", "G2", "G3", "Y1"]
QUIET_B = ["B4", "B6", "B7", "G4", "G6", "G7", "Y2"]
QUIET_C = ["B8", "B9", "G8", "G9", "Y3", "Y4", "Y6"]
QUIET_D = ["Y7", "Y8", "Y9", "B0", "G0", "Y0", "BS"]


def deal(
    hands: Sequence[Sequence[str]],
    start: str = "R5",
    draw: Sequence[str] = (),
    *,
    dealer: int | None = None,
    rules: dict[str, Any] | None = None,
    seed: int = 1,
) -> Game:
    """A classic game dealt exactly ``hands``, with ``start`` turned up and ``draw`` next on the pile."""
    seat = len(hands) - 1 if dealer is None else dealer
    options = Rules.from_dict(rules or {})
    order = stacked_deck("classic", hands, start, draw, dealer=seat, rules=options)
    return Game("classic", len(hands), seed=seed, rules=options, deck=order, dealer=seat)


def play(game: Game, seat: int, text: str) -> list[Event]:
    """Apply ``text`` for ``seat``; return the events it produced."""
    before = len(game.events)
    game.apply_notation(seat, text)
    return game.events[before:]


def cards(*texts: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in texts)


def of_kind(game: Game, kind: str) -> list[Event]:
    return [e for e in game.events if e[0] == kind]


def first_legal_until(game: Game, done: Any, limit: int = 20_000) -> None:
    """Let every actor take its first legal action until ``done(game)``."""
    for _ in range(limit):
        if done(game):
            return
        seat = game.actor
        game.apply(seat, game.legal_actions(seat)[0])
    raise AssertionError("the game did not reach the expected point")


# ---------------------------------------------------------------- set-up


def test_dealer_is_highest_number_drawn() -> None:
    checked = 0
    symbols_seen = 0
    for seed in range(40):
        game = Game("classic", 4, seed=seed)
        draws = of_kind(game, "dealer_draw")
        first = draws[:4]
        assert [e[1] for e in first] == [0, 1, 2, 3]
        for _, _, value, (card,) in draws:
            assert value == max(CARD_NUMBER[card], 0)
            symbols_seen += CARD_NUMBER[card] < 0
        values = [e[2] for e in first]
        best = max(values)
        if values.count(best) == 1:
            assert len(draws) == 4
            assert game.dealer == values.index(best)
            assert ("dealer", game.dealer, 1, ()) in game.events
            checked += 1
    assert checked >= 10
    assert symbols_seen > 0  # symbols were drawn and counted as zero


def test_dealer_tie_redraws_among_tied() -> None:
    ties = 0
    for seed in range(20):
        game = Game("classic", 10, seed=seed)
        draws = of_kind(game, "dealer_draw")
        candidates = list(range(10))
        position = 0
        while True:
            group = draws[position : position + len(candidates)]
            position += len(candidates)
            assert [e[1] for e in group] == candidates
            best = max(e[2] for e in group)
            candidates = [e[1] for e in group if e[2] == best]
            if len(candidates) == 1:
                break
            ties += 1
        assert position == len(draws)
        assert game.dealer == candidates[0]
        dealer_events = of_kind(game, "dealer")
        assert dealer_events == [("dealer", candidates[0], 1, ())]
    assert ties > 0


def test_a_deck_of_symbols_only_chooses_the_dealer_at_random() -> None:
    """Every card of the deck counts zero for the dealer draw: no draw could break the tie, so the
    dealer is chosen at random (no dealer draw at all)."""
    rules = Rules.from_dict({"deck": {"RS": 20, "GR": 20, "B+2": 20, "W": 10}})
    dealers = set()
    for seed in range(12):
        game = Game("classic", 4, seed=seed, rules=rules)
        assert not of_kind(game, "dealer_draw")
        dealers.add(game.dealer)
    assert len(dealers) > 1
    two_values = Rules.from_dict({"deck": {"RS": 30, "R1": 30}})  # a tie can still be broken: players draw
    assert of_kind(Game("classic", 4, seed=1, rules=two_values), "dealer_draw")


def test_deal_seven_cards_each() -> None:
    players, dealer = 4, 2
    order = list(Game("classic", players, seed=0).deck_cards)
    random.Random(2024).shuffle(order)
    start_index = players * 7
    number = next(i for i in range(start_index, len(order)) if CARD_NUMBER[order[i]] >= 0)
    order[start_index], order[number] = order[number], order[start_index]

    game = Game("classic", players, seed=5, deck=order, dealer=dealer)

    for offset in range(1, players + 1):
        seat = (dealer + offset) % players
        expected = [order[k * players + offset - 1] for k in range(7)]
        assert game.hands[seat] == expected
        assert ("deal", seat, 7, tuple(expected)) in game.events
    assert game.top_card == order[start_index]
    assert game.discard_pile == [order[start_index]]
    assert game.draw_pile[-1] == order[start_index + 1]
    assert len(game.draw_pile) == 108 - start_index - 1
    assert game.turn == game.actor == 3  # left of the dealer
    assert game.phase_name == "turn"


def test_shuffles_are_the_generators_own() -> None:
    """The engine's shuffle draws exactly as ``random.Random.shuffle``: the same order, the same
    generator state after (seeded games are the same games); another generator's own shuffle runs."""
    for size in (0, 1, 2, 5, 53, 108, 112, 300):
        for seed in range(20):
            ours, stock = random.Random(seed), random.Random(seed)
            mine, theirs = list(range(size)), list(range(size))
            shuffle_cards(ours, mine)
            stock.shuffle(theirs)
            assert mine == theirs and ours.getstate() == stock.getstate(), (size, seed)

    class Reversing(random.Random):
        def shuffle(self, x: Any) -> None:
            x.reverse()

    cards = [1, 2, 3]
    shuffle_cards(Reversing(0), cards)
    assert cards == [3, 2, 1]


def test_two_to_ten_players() -> None:
    for players in range(2, 11):
        game = Game("classic", players, seed=players)
        assert game.n == len(game.hands) == players
        assert all(len(hand) >= 7 for hand in game.hands)
        assert game.all_cards() == Counter(game.deck_cards)
    for players in (0, 1, 11, 12):
        with pytest.raises(SetupError, match=f"players must be from 2 to 10, not {players}"):
            Game("classic", players, seed=1)


# ---------------------------------------------------------------- the start card


def test_start_card_number_left_of_dealer_plays_first() -> None:
    game = deal([QUIET_A, QUIET_B, QUIET_C], "R5", dealer=1)
    assert game.turn == game.actor == 2
    assert game.colour == Colour.RED
    assert game.direction == 1


def test_start_card_draw_two_first_player_draws_two_and_loses_turn() -> None:
    game = deal([QUIET_A, QUIET_B, QUIET_C, QUIET_D], "R+2", ["R9", "W"])
    assert names(game.hands[0]) == [*QUIET_A, "R9", "W"]
    assert [len(h) for h in game.hands] == [9, 7, 7, 7]
    assert game.events[-2:] == [("draw", 0, 2, cards("R9", "W")), ("skip", 0, 0, ())]
    assert game.turn == game.actor == 1
    assert game.colour == Colour.RED
    assert game.phase_name == "turn"


def test_start_card_reverse_dealer_plays_first_then_right() -> None:
    game = deal([QUIET_A, QUIET_B, QUIET_C, ["R1", *QUIET_D[1:]]], "RR")
    assert game.direction == -1
    assert ("reverse", 3, -1, ()) in game.events
    assert game.turn == game.actor == 3  # the dealer
    play(game, 3, "R1")
    assert game.turn == 2  # to the dealer's right

    two = deal([QUIET_A, QUIET_B], "RR")
    assert two.direction == -1
    assert two.turn == two.actor == 1  # with two players the dealer also plays first


def test_start_card_skip_skips_left_of_dealer() -> None:
    game = deal([QUIET_A, QUIET_B, QUIET_C, QUIET_D], "RS")
    assert ("skip", 0, 0, ()) in game.events
    assert game.turn == game.actor == 1
    assert [len(h) for h in game.hands] == [7, 7, 7, 7]


def test_start_card_wild_left_of_dealer_chooses_colour() -> None:
    game = deal([QUIET_A, QUIET_B, QUIET_C, QUIET_D], "W")
    assert game.phase_name == "colour"
    assert game.actor == 0
    assert game.deciders() == (0,)
    assert legal(game, 0) == ["=R", "=Y", "=G", "=B"]
    assert play(game, 0, "=G") == [("colour", 0, Colour.GREEN, ())]
    assert game.colour == Colour.GREEN
    assert game.phase_name == "turn"
    assert game.turn == game.actor == 0  # the chooser then plays first
    assert "G1" in legal(game, 0)


def test_a_pile_of_wild_draw_fours_only_leaves_one_as_a_wild_start() -> None:
    rules = {"hand_size": 2, "deck": {"R1": 2, "G2": 2, "W+4": 3}}
    game = deal([["R1", "G2"], ["R1", "G2"]], "W+4", ["W+4", "W+4"], rules=rules)
    assert game.top_card == parse_card("W+4") and not of_kind(game, "return")
    assert game.phase_name == "colour" and game.actor == 0  # left of the dealer names the colour
    assert [len(hand) for hand in game.hands] == [2, 2]  # nobody draws
    play(game, 0, "=G")
    assert game.phase_name == "turn" and game.actor == 0 and "G2" in legal(game, 0)


def test_start_card_wild_draw_four_returned_and_another_turned() -> None:
    game = deal([QUIET_A, QUIET_B, QUIET_C, QUIET_D], "W+4")
    wd4 = parse_card("W+4")
    flips = of_kind(game, "flip")
    returns = of_kind(game, "return")
    assert flips[0][3] == (wd4,)
    assert returns and returns[0][3] == (wd4,)
    assert len(flips) == len(returns) + 1
    assert game.top_card != wd4
    assert game.discard_pile == [flips[-1][3][0]]
    assert wd4 in game.draw_pile
    assert [len(h) for h in game.hands] in ([7, 7, 7, 7], [9, 7, 7, 7])  # 9: a Draw Two was turned
    assert game.all_cards() == Counter(game.deck_cards)


# ---------------------------------------------------------------- matching and drawing


def test_match_by_colour() -> None:
    game = deal([["R9", *QUIET_A[:6]], QUIET_B], "R5")
    assert legal(game, 0) == ["R9", "draw"]
    play(game, 0, "R9")
    assert card_name(game.top_card) == "R9"
    assert game.colour == Colour.RED
    assert game.turn == 1


def test_match_by_number() -> None:
    game = deal([["B5", *QUIET_C[:6]], QUIET_B], "R5")
    assert legal(game, 0) == ["B5", "draw"]
    play(game, 0, "B5")
    assert card_name(game.top_card) == "B5"
    assert game.colour == Colour.BLUE
    assert game.turn == 1


@pytest.mark.parametrize("symbol", ["S", "R", "+2"])
def test_match_by_symbol(symbol: str) -> None:
    # Two players: a Skip, a Reverse or a Draw Two gives seat 0 another turn on its own symbol card.
    game = deal([[f"R{symbol}", f"G{symbol}", "B1", "Y2", "B3", "Y4", "B6"], QUIET_A], "R5")
    play(game, 0, f"R{symbol}")
    assert game.turn == game.actor == 0
    assert legal(game, 0) == [f"G{symbol}", "draw"]
    play(game, 0, f"G{symbol}")
    assert card_name(game.top_card) == f"G{symbol}"
    assert game.colour == Colour.GREEN


def test_no_match_must_draw() -> None:
    game = deal([QUIET_A, QUIET_B], "R5")
    assert legal(game, 0) == ["draw"]
    with pytest.raises(IllegalActionError, match="G1 does not match R5"):
        play(game, 0, "G1")
    with pytest.raises(IllegalActionError, match="pass is not legal"):
        play(game, 0, "pass")


def test_drawn_playable_card_may_be_played() -> None:
    game = deal([QUIET_A, QUIET_B, QUIET_C], "R5", ["R9"])
    assert play(game, 0, "draw") == [("draw", 0, 1, cards("R9"))]
    assert game.phase_name == "drawn"
    assert game.actor == 0
    assert legal(game, 0) == ["R9", "pass"]
    play(game, 0, "R9")
    assert card_name(game.top_card) == "R9"
    assert names(game.hands[0]) == QUIET_A
    assert game.turn == 1
    assert game.phase_name == "turn"


def test_drawn_playable_card_may_be_kept_with_pass() -> None:
    game = deal([QUIET_A, QUIET_B, QUIET_C], "R5", ["R9"])
    play(game, 0, "draw")
    assert play(game, 0, "pass") == [("pass", 0, 0, ())]
    assert names(game.hands[0]) == [*QUIET_A, "R9"]
    assert card_name(game.top_card) == "R5"
    assert game.turn == 1


def test_drawn_unplayable_card_passes() -> None:
    game = deal([QUIET_A, QUIET_B, QUIET_C], "R5", ["G9"])
    assert play(game, 0, "draw") == [("draw", 0, 1, cards("G9")), ("pass", 0, 0, ())]
    assert names(game.hands[0]) == [*QUIET_A, "G9"]
    assert card_name(game.top_card) == "R5"
    assert game.turn == game.actor == 1
    assert game.phase_name == "turn"


def test_may_draw_instead_of_playing_then_only_drawn_card() -> None:
    hand = ["R3", "R7", "B1", "B2", "G1", "G2", "Y1"]
    game = deal([hand, QUIET_B, QUIET_C], "R5", ["R9", "G9"])
    assert legal(game, 0) == ["R3", "R7", "draw"]
    play(game, 0, "draw")
    assert legal(game, 0) == ["R9", "pass"]
    before = game.clone()
    with pytest.raises(IllegalActionError, match="after drawing, only the drawn card R9 may be played"):
        play(game, 0, "R3")
    assert game == before
    play(game, 0, "R9")
    assert game.turn == 1

    # Drawing instead of playing, an unplayable card ends the turn even with playable cards in hand.
    other = deal([hand, QUIET_B, QUIET_C], "R5", ["G9"])
    play(other, 0, "draw")
    assert other.turn == 1
    assert names(other.hands[0]) == [*hand, "G9"]


# ---------------------------------------------------------------- action cards


def test_skip() -> None:
    game = deal([["RS", *QUIET_A[:6]], QUIET_B, QUIET_C, QUIET_D], "R5")
    assert play(game, 0, "RS") == [("play", 0, 0, cards("RS")), ("skip", 1, 0, ())]
    assert game.turn == game.actor == 2
    assert [len(h) for h in game.hands] == [6, 7, 7, 7]


def test_reverse() -> None:
    game = deal([["RR", *QUIET_A[:6]], QUIET_B, QUIET_C, ["R1", *QUIET_D[1:]]], "R5")
    assert play(game, 0, "RR") == [("play", 0, 0, cards("RR")), ("reverse", 0, -1, ())]
    assert game.direction == -1
    assert game.turn == 3
    play(game, 3, "R1")
    assert game.turn == 2
    assert game.next_seat(2) == 1


def test_draw_two() -> None:
    game = deal([["R+2", *QUIET_A[:6]], QUIET_B, QUIET_C, QUIET_D], "R5", ["B5", "W"])
    events = play(game, 0, "R+2")
    assert events == [("play", 0, 0, cards("R+2")), ("draw", 1, 2, cards("B5", "W")), ("skip", 1, 0, ())]
    assert names(game.hands[1]) == [*QUIET_B, "B5", "W"]
    assert game.turn == game.actor == 2


def test_wild_any_colour_including_current() -> None:
    for letter, colour in (("R", Colour.RED), ("Y", Colour.YELLOW), ("G", Colour.GREEN), ("B", Colour.BLUE)):
        game = deal([["R3", "W", *QUIET_A[:5]], QUIET_B, QUIET_C], "R5")
        assert legal(game, 0) == ["R3", "W", "draw"]  # a Wild may be played with a playable card in hand
        play(game, 0, "W")
        assert game.phase_name == "colour"
        assert game.actor == 0
        assert legal(game, 0) == ["=R", "=Y", "=G", "=B"]
        assert play(game, 0, f"={letter}") == [("colour", 0, colour, ())]
        assert game.colour == colour
        assert card_name(game.top_card) == "W"
        assert game.turn == game.actor == 1
        assert game.phase_name == "turn"


def test_wild_draw_four_next_draws_four_and_loses_turn() -> None:
    game = deal([["W+4", *QUIET_A[:6]], QUIET_B, QUIET_C], "R5", ["R1", "R2", "R3", "R4"])
    play(game, 0, "W+4")
    assert game.phase_name == "colour"
    assert legal(game, 0) == ["=R", "=Y", "=G", "=B"]
    play(game, 0, "=B")
    assert game.phase_name == "challenge"
    assert game.actor == 1
    assert game.deciders() == (1,)
    assert game.turn == 0
    assert legal(game, 1) == ["challenge", "accept"]
    events = play(game, 1, "accept")
    assert events == [("accept", 1, 0, ()), ("draw", 1, 4, cards("R1", "R2", "R3", "R4")), ("skip", 1, 0, ())]
    assert names(game.hands[1]) == [*QUIET_B, "R1", "R2", "R3", "R4"]
    assert game.colour == Colour.BLUE
    assert game.turn == game.actor == 2
    assert game.phase_name == "turn"


def test_wild_draw_four_bluff_is_legal() -> None:
    game = deal([["W+4", "R3", *QUIET_A[:5]], QUIET_B, QUIET_C], "R5")
    assert legal(game, 0) == ["R3", "W+4", "draw"]
    play(game, 0, "W+4")
    assert game.phase_name == "colour"
    assert game.actor == 0


def test_challenge_guilty_bluffer_draws_four_and_challenger_plays() -> None:
    hand = ["W+4", "R3", *QUIET_A[:5]]
    game = deal([hand, QUIET_B, QUIET_C], "R5", ["Y5", "Y6", "Y7", "Y8"])
    play(game, 0, "W+4")
    play(game, 0, "=B")
    events = play(game, 1, "challenge")
    shown = tuple(sorted(cards(*hand[1:])))
    assert events == [
        ("challenge", 1, 0, ()),
        ("reveal", 0, 1, shown),
        ("verdict", 0, 1, ()),
        ("draw", 0, 4, cards("Y5", "Y6", "Y7", "Y8")),
    ]
    assert names(game.hands[0]) == [*hand[1:], "Y5", "Y6", "Y7", "Y8"]
    assert names(game.hands[1]) == QUIET_B
    assert game.colour == Colour.BLUE
    assert game.turn == game.actor == 1  # the challenger takes a normal turn
    assert game.phase_name == "turn"
    assert "B4" in legal(game, 1)


def test_challenge_guilty_challenger_loses_turn_when_option_off() -> None:
    hand = ["W+4", "R3", *QUIET_A[:5]]
    rules = {"challenger_plays_after_catching_bluff": False}
    game = deal([hand, QUIET_B, QUIET_C], "R5", ["Y5", "Y6", "Y7", "Y8"], rules=rules)
    play(game, 0, "W+4")
    play(game, 0, "=B")
    play(game, 1, "challenge")
    assert len(game.hands[0]) == 10
    assert len(game.hands[1]) == 7
    assert game.turn == game.actor == 2


def test_challenge_innocent_challenger_draws_six() -> None:
    # A matching number (B5 on R5) does not make the Wild Draw Four a bluff; only the colour counts.
    hand = ["W+4", "B5", *QUIET_A[:5]]
    draw = ["Y5", "Y6", "Y7", "Y8", "Y9", "R1"]
    game = deal([hand, QUIET_B, QUIET_C], "R5", draw)
    play(game, 0, "W+4")
    play(game, 0, "=Y")
    events = play(game, 1, "challenge")
    assert events == [
        ("challenge", 1, 0, ()),
        ("reveal", 0, 1, tuple(sorted(cards(*hand[1:])))),
        ("verdict", 0, 0, ()),
        ("draw", 1, 6, cards(*draw)),
        ("skip", 1, 0, ()),
    ]
    assert names(game.hands[1]) == [*QUIET_B, *draw]
    assert names(game.hands[0]) == hand[1:]
    assert game.colour == Colour.YELLOW
    assert game.turn == game.actor == 2


def test_challenge_reveals_hand_only_to_challenger() -> None:
    hand = ["W+4", "R3", *QUIET_A[:5]]
    game = deal([hand, QUIET_B, QUIET_C], "R5", ["Y5", "Y6", "Y7", "Y8"])
    play(game, 0, "W+4")
    play(game, 0, "=B")
    play(game, 1, "challenge")
    shown = tuple(sorted(cards(*hand[1:])))

    def reveals(seat: int | None) -> list[Event]:
        return [e for e in game.view(seat).history if e[0] == "reveal"]

    assert reveals(1) == [("reveal", 0, 1, shown)]
    assert reveals(0) == [("reveal", 0, 1, shown)]
    assert reveals(2) == [("reveal", 0, 1, ())]
    assert reveals(None) == [("reveal", 0, 1, ())]


def test_no_bluff_option_forbids_wild_draw_four_with_colour_match() -> None:
    rules = {"allow_bluff": False}
    game = deal([["W+4", "R3", *QUIET_A[:5]], QUIET_B, QUIET_C], "R5", rules=rules)
    assert legal(game, 0) == ["R3", "draw"]
    before = game.clone()
    with pytest.raises(IllegalActionError, match="a Wild Draw Four may not be played while holding red"):
        play(game, 0, "W+4")
    assert game == before

    # Without a red card it is legal (a matching number does not count) and cannot be challenged.
    game = deal([["W+4", "B5", *QUIET_A[:5]], QUIET_B, QUIET_C], "R5", ["R1", "R2", "R3", "R4"], rules=rules)
    assert legal(game, 0) == ["B5", "W+4", "draw"]
    play(game, 0, "W+4")
    events = play(game, 0, "=B")
    assert events == [("colour", 0, Colour.BLUE, ()), ("draw", 1, 4, cards("R1", "R2", "R3", "R4")), ("skip", 1, 0, ())]
    assert game.turn == game.actor == 2
    assert game.phase_name == "turn"


def test_no_bluff_option_drawn_wild_draw_four_with_colour_match_is_not_playable() -> None:
    game = deal([["R3", *QUIET_A[:6]], QUIET_B, QUIET_C], "R5", ["W+4"], rules={"allow_bluff": False})
    assert play(game, 0, "draw") == [("draw", 0, 1, cards("W+4")), ("pass", 0, 0, ())]
    assert game.turn == 1

    bluffing = deal([["R3", *QUIET_A[:6]], QUIET_B, QUIET_C], "R5", ["W+4"])
    play(bluffing, 0, "draw")
    assert bluffing.phase_name == "drawn"
    assert legal(bluffing, 0) == ["W+4", "pass"]


def test_two_players_reverse_acts_as_skip() -> None:
    game = deal([["RR", *QUIET_A[:6]], QUIET_B], "R5")
    assert play(game, 0, "RR") == [("play", 0, 0, cards("RR")), ("reverse", 0, -1, ()), ("skip", 1, 0, ())]
    assert game.turn == game.actor == 0

    plain = deal([["RR", *QUIET_A[:6]], QUIET_B], "R5", rules={"two_player_reverse_skips": False})
    play(plain, 0, "RR")
    assert plain.turn == plain.actor == 1


# ---------------------------------------------------------------- UNO


def test_uno_call_flag_on_next_to_last_card() -> None:
    game = deal([["R7", "R8"], ["B1", "B2"], ["G1", "G2"]], "R5", rules={"hand_size": 2})
    assert sorted(legal(game, 0)) == sorted(["R7", "R8", "R7!", "R8!", "draw"])
    assert play(game, 0, "R7!") == [("play", 0, 1, cards("R7"))]
    assert game.exposed == []
    assert game.view(2).uncalled == ()
    assert game.deciders() == (1,)
    assert legal(game, 2) == []

    three = deal([["R7", "R8", "R9"], ["B1", "B2", "B3"]], "R5", rules={"hand_size": 3})
    assert legal(three, 0) == ["R7", "R8", "R9", "draw"]
    with pytest.raises(IllegalActionError, match="UNO is called when playing the next-to-last card"):
        play(three, 0, "R7!")


def test_missed_uno_call_caught_draws_two() -> None:
    game = deal([["R7", "R8"], ["B1", "B2"], ["G1", "G2"]], "R5", ["Y1", "Y2"], rules={"hand_size": 2})
    assert play(game, 0, "R7") == [("play", 0, 0, cards("R7"))]
    assert game.exposed == [0]
    assert game.view(1).uncalled == (0,)
    assert game.deciders() == (0, 1, 2)
    assert legal(game, 0) == ["uno"]
    assert legal(game, 2) == ["catch@0"]
    assert legal(game, 1) == ["draw", "catch@0"]  # the next player may catch too
    assert play(game, 2, "catch@0") == [("catch", 2, 0, ()), ("draw", 0, 2, cards("Y1", "Y2"))]
    assert names(game.hands[0]) == ["R8", "Y1", "Y2"]
    assert game.exposed == []
    assert game.turn == game.actor == 1  # catching does not change whose turn it is
    assert game.deciders() == (1,)


def test_missed_uno_call_late_call_is_safe() -> None:
    game = deal([["R7", "R8"], ["B1", "B2"], ["G1", "G2"]], "R5", rules={"hand_size": 2})
    play(game, 0, "R7")
    assert play(game, 0, "uno") == [("uno", 0, 0, ())]
    assert game.exposed == []
    assert game.deciders() == (1,)
    before = game.clone()
    with pytest.raises(WrongPlayerError, match="seat 2 may not act now"):
        play(game, 2, "catch@0")
    with pytest.raises(IllegalActionError, match="catch@0 is not legal"):
        play(game, 1, "catch@0")
    assert game == before
    assert names(game.hands[0]) == ["R8"]


def test_uno_catch_window_closes_when_next_player_begins() -> None:
    game = deal([["R7", "R8"], ["B1", "B2"], ["G1", "G2"]], "R5", ["Y1"], rules={"hand_size": 2})
    play(game, 0, "R7")
    assert game.exposed == [0]
    play(game, 1, "draw")  # the next player begins their turn
    assert game.exposed == []
    assert game.deciders() == (2,)
    before = game.clone()
    with pytest.raises(IllegalActionError, match="catch@0 is not legal"):
        play(game, 2, "catch@0")
    with pytest.raises(WrongPlayerError):
        play(game, 0, "uno")
    assert game == before

    # The window stays open while the exposed player still finishes their own turn (a Wild's colour).
    wild = deal([["W", "R8"], ["B1", "B2"], ["G1", "G2"]], "R5", ["Y1", "Y2"], rules={"hand_size": 2})
    play(wild, 0, "W")
    assert wild.exposed == [0]
    play(wild, 0, "=B")
    assert wild.exposed == [0]
    assert wild.turn == 1
    play(wild, 2, "catch@0")
    assert len(wild.hands[0]) == 3


# ---------------------------------------------------------------- going out and scoring


def test_going_out_ends_round() -> None:
    game = deal([["R7"], ["B1"], ["G2"]], "R5", rules={"hand_size": 1})
    events = play(game, 0, "R7")
    assert events[:5] == [
        ("play", 0, 0, cards("R7")),
        ("hand", 0, 0, ()),
        ("hand", 1, 1, cards("B1")),
        ("hand", 2, 2, cards("G2")),
        ("round_end", 0, 3, (3, 0, 0)),
    ]
    assert events[5] == ("dealer", 0, 2, ())  # the next round is dealt at once
    assert game.scores == [3, 0, 0]
    assert game.round == 2
    assert not game.is_over


def test_final_draw_two_is_drawn_and_counted() -> None:
    game = deal([["R+2"], ["B3"], ["Y4"]], "R5", ["W", "B9"], rules={"hand_size": 1})
    events = play(game, 0, "R+2")
    assert events[:6] == [
        ("play", 0, 0, cards("R+2")),
        ("draw", 1, 2, cards("W", "B9")),
        ("hand", 0, 0, ()),
        ("hand", 1, 62, tuple(sorted(cards("B3", "W", "B9")))),
        ("hand", 2, 4, cards("Y4")),
        ("round_end", 0, 66, (66, 0, 0)),
    ]
    assert game.scores == [66, 0, 0]


def test_final_wild_draw_four_is_drawn_and_counted() -> None:
    game = deal([["W+4"], ["B3"], ["Y4"]], "R5", ["R1", "R2", "R3", "R4"], rules={"hand_size": 1})
    events = play(game, 0, "W+4")
    assert events[:6] == [
        ("play", 0, 0, cards("W+4")),
        ("draw", 1, 4, cards("R1", "R2", "R3", "R4")),
        ("hand", 0, 0, ()),
        ("hand", 1, 13, tuple(sorted(cards("B3", "R1", "R2", "R3", "R4")))),
        ("hand", 2, 4, cards("Y4")),
        ("round_end", 0, 17, (17, 0, 0)),
    ]
    # No colour choice and no challenge for a final Wild Draw Four.
    assert not [e for e in events if e[0] in ("colour", "challenge", "accept")]
    assert game.scores == [17, 0, 0]


def _small_deck_game() -> Game:
    """Two players, two cards each, a six-card deck: the draw pile runs out quickly."""
    rules = {
        "hand_size": 2,
        "deck": {"R3": 1, "B4": 1, "G7": 1, "G8": 1, "R5": 1, "G9": 1},
    }
    return deal([["R3", "B4"], ["G7", "G8"]], "R5", ["G9"], rules=rules)


def test_empty_draw_pile_reshuffles_discards_keeping_top() -> None:
    game = _small_deck_game()
    play(game, 0, "R3!")
    play(game, 1, "draw")  # takes G9, the last card of the draw pile
    assert game.draw_pile == []
    assert names(game.discard_pile) == ["R5", "R3"]
    events = play(game, 0, "draw")
    assert events == [("reshuffle", -1, 1, ()), ("draw", 0, 1, cards("R5"))]
    assert names(game.discard_pile) == ["R3"]  # the top card stays
    assert game.draw_pile == []
    assert game.phase_name == "drawn"
    assert legal(game, 0) == ["R5", "R5!", "pass"]
    assert game.all_cards() == Counter(game.deck_cards)


def test_no_cards_left_to_draw_draws_nothing() -> None:
    game = _small_deck_game()
    play(game, 0, "R3!")
    play(game, 1, "draw")
    play(game, 0, "draw")
    play(game, 0, "pass")
    assert game.draw_pile == [] and len(game.discard_pile) == 1
    assert play(game, 1, "draw") == [("pass", 1, 0, ())]
    assert names(game.hands[1]) == ["G7", "G8", "G9"]
    assert game.turn == 0


def test_scoring_winner_collects_points_table() -> None:
    skips = ["RS", "RS", "YS", "YS", "GS", "GS", "BS"]
    left = ["Y9", "G0", "B+2", "RR", "W", "W+4", "B7"]
    game = deal([skips, left], "R5")
    for text in ["RS", "RS", "YS", "YS", "GS", "GS!", "BS"]:
        assert game.turn == 0
        play(game, 0, text)
    assert ("hand", 0, 0, ()) in game.events
    assert ("hand", 1, 156, tuple(sorted(cards(*left)))) in game.events
    assert ("round_end", 0, 156, (156, 0)) in game.events
    assert game.scores == [156, 0]

    table = {"R0": 0, "B7": 7, "Y9": 9, "GS": 20, "RR": 20, "B+2": 20, "W": 50, "W+4": 50}
    for text, points in table.items():
        assert game.edition.hand_points([parse_card(text)]) == points


def test_scoring_running_tally_lowest_wins() -> None:
    rules = {"scoring": "running-tally", "target_score": 50, "hand_size": 1}
    game = deal([["R7"], ["W"], ["B3"]], "R5", rules=rules)
    events = play(game, 0, "R7")
    assert events[1:] == [
        ("hand", 0, 0, ()),
        ("hand", 1, 50, cards("W")),
        ("hand", 2, 3, cards("B3")),
        ("round_end", 0, 0, (0, 50, 3)),
        ("match_end", 0, 1, (0, 50, 3)),
    ]
    assert game.scores == [0, 50, 3]
    assert game.winner == 0
    assert game.is_over


def test_scoring_running_tally_each_adds_own_hand_and_tie_for_lowest_plays_on() -> None:
    rules = {"scoring": "running-tally", "target_score": 50, "hand_size": 1}
    game = deal([["R7"], ["W"], ["B0"]], "R5", rules=rules)
    play(game, 0, "R7")
    assert game.scores == [0, 50, 0]  # seat 1 reached the target, but seats 0 and 2 tie for lowest
    assert game.winner == -1
    assert not game.is_over
    assert game.round == 2

    # Over several rounds each player adds the points left in their own hand; the lowest total wins.
    rules = {"scoring": "running-tally", "target_score": 120}
    game = Game("classic", 3, seed=19, rules=rules)
    first_legal_until(game, lambda g: g.is_over)
    totals = [0, 0, 0]
    for kind, seat, value, _ in game.events:
        if kind == "hand":
            totals[seat] += value
    assert game.scores == totals
    assert max(totals) >= 120
    assert game.winner == totals.index(min(totals))
    assert totals.count(min(totals)) == 1
    ends = of_kind(game, "round_end")
    assert len(ends) >= 2
    assert ends[-1][1] != game.winner  # the last round's winner is not the lowest total
    assert any(max(e[3]) >= 120 for e in ends[:-1])  # a tie for lowest at the target played on
    assert all(e[2] == 0 for e in ends)
    for _, _, _, scores in ends[:-1]:
        # A round ended without a match winner: nobody reached the target, or the lowest total was tied.
        assert max(scores) < 120 or scores.count(min(scores)) > 1


def test_match_to_target_score() -> None:
    rules = {"target_score": 50, "hand_size": 1}
    game = deal([["R7"], ["W"], ["B3"]], "R5", rules=rules)
    events = play(game, 0, "R7")
    assert events[-2:] == [("round_end", 0, 53, (53, 0, 0)), ("match_end", 0, 1, (53, 0, 0))]
    assert game.winner == 0
    assert game.is_over
    assert game.phase_name == "over"
    assert game.deciders() == ()
    assert game.legal_actions(0) == ()

    below = deal([["R7"], ["W"], ["B3"]], "R5", rules={"target_score": 54, "hand_size": 1})
    play(below, 0, "R7")
    assert below.scores == [53, 0, 0]
    assert not below.is_over
    assert below.winner == -1
    assert below.round == 2


def test_match_first_to_target_over_several_rounds() -> None:
    game = Game("classic", 2, seed=3, rules={"target_score": 200})
    first_legal_until(game, lambda g: g.is_over)
    ends = of_kind(game, "round_end")
    assert len(ends) >= 2
    winner = game.winner
    assert game.scores[winner] >= 200
    assert sum(e[2] for e in ends if e[1] == winner) == game.scores[winner]
    assert all(max(e[3]) < 200 for e in ends[:-1])
    assert game.events[-1] == ("match_end", winner, game.round, tuple(game.scores))


def test_next_round_dealer_is_left_of_previous() -> None:
    game = deal([["R7"], ["B1"], ["G2"]], "R5", dealer=1, rules={"hand_size": 1})
    assert game.dealer == 1
    first_legal_until(game, lambda g: g.round == 4)
    assert [e[1] for e in of_kind(game, "dealer")] == [1, 2, 0, 1]
    assert [e[2] for e in of_kind(game, "dealer")] == [1, 2, 3, 4]
    assert game.dealer == 1
    assert not of_kind(game, "dealer_draw")  # the first dealer was given; later ones rotate


# ---------------------------------------------------------------- errors


def test_illegal_action_raises_illegal_action_error_and_changes_nothing() -> None:
    game = deal([["G9", "R3", *QUIET_A[:5]], QUIET_B, QUIET_C], "R5")
    key, events = game.state_key(), list(game.events)
    with pytest.raises(
        IllegalActionError, match=r"G9 is not legal: G9 does not match R5 \(colour red\); legal: R3, draw"
    ):
        play(game, 0, "G9")
    with pytest.raises(IllegalActionError, match="seat 0 holds no Y9"):
        play(game, 0, "Y9")
    with pytest.raises(IllegalActionError, match="=R is not legal"):
        play(game, 0, "=R")
    with pytest.raises(IllegalActionError, match="is not an action id"):
        game.apply(0, game.actions.size)
    with pytest.raises(IllegalActionError, match="an action is an integer id"):
        game.apply(0, "R3")  # type: ignore[arg-type]
    assert game.state_key() == key
    assert game.events == events


def test_wrong_player_raises_wrong_player_error_and_changes_nothing() -> None:
    game = deal([QUIET_A, ["R1", *QUIET_B[1:]], QUIET_C], "R5")
    key, events = game.state_key(), list(game.events)
    with pytest.raises(WrongPlayerError, match="seat 1 may not act now: seat 0 is to play a card or draw"):
        play(game, 1, "R1")
    with pytest.raises(WrongPlayerError, match="no seat 3 at a table of 3"):
        play(game, 3, "draw")
    with pytest.raises(WrongPlayerError, match="no seat -1"):
        play(game, -1, "draw")
    assert game.state_key() == key
    assert game.events == events


def test_unknown_option_raises_unknown_option_error_and_changes_nothing() -> None:
    with pytest.raises(UnknownOptionError, match="unknown rule option 'spinning'"):
        Rules.from_dict({"spinning": True})
    with pytest.raises(UnknownOptionError, match="unknown rule option 'spinning'"):
        Game("classic", 3, seed=1, rules={"spinning": True})
    with pytest.raises(UnknownOptionError, match="rule option 'scoring': must be one of"):
        Game("classic", 3, seed=1, rules={"scoring": "golf"})
    with pytest.raises(UnknownOptionError, match="unknown edition 'flip'"):
        Game("flip", 3, seed=1)
    game = deal([QUIET_A, QUIET_B, QUIET_C], "R5")
    key, events = game.state_key(), list(game.events)
    with pytest.raises(UnknownOptionError, match="unknown rule option 'spinning'"):
        game.rules.replace(spinning=True)
    assert game.rules == Rules()
    assert game.state_key() == key
    assert game.events == events


def test_bad_notation_raises_notation_error_and_changes_nothing() -> None:
    game = deal([QUIET_A, QUIET_B, QUIET_C], "R5")
    key, events = game.state_key(), list(game.events)
    with pytest.raises(NotationError, match="not an action: 'R77'"):
        play(game, 0, "R77")
    with pytest.raises(NotationError, match="this edition has no colour 'O'"):
        play(game, 0, "=O")
    with pytest.raises(NotationError, match="this edition has no card WJ"):
        play(game, 0, "WJ")
    assert game.state_key() == key
    assert game.events == events


def test_action_after_match_end_raises_game_over_error() -> None:
    game = deal([["R7"], ["B1"]], "R5", rules={"scoring": "single-round", "hand_size": 1})
    play(game, 0, "R7")
    assert game.is_over
    assert game.winner == 0
    key, events = game.state_key(), list(game.events)
    with pytest.raises(GameOverError, match="the match is over"):
        play(game, 1, "draw")
    assert game.state_key() == key
    assert game.events == events


def test_every_option_is_checked_against_the_options_table() -> None:
    from dataclasses import fields

    from unokit.engine.rules import OPTIONS

    assert set(OPTIONS) == {f.name for f in fields(Rules)}
    default = Rules()

    def partner(name: str) -> dict[str, object]:
        """The option ``name`` works with (``OptionSpec.requires``), set to a value other than its default."""
        needed = OPTIONS[name].requires
        if not needed:
            return {}
        spec = OPTIONS[needed]
        on = not getattr(default, needed) if spec.kind == "bool" else spec.choices[-1]
        return {needed: on}

    for name, spec in OPTIONS.items():
        with_partner = partner(name)
        if spec.kind in ("int", "float"):
            for edge in (spec.low, spec.high):
                assert Rules.from_dict({name: edge, **with_partner}) == Rules(**{name: edge, **with_partner})
            for outside in (spec.low - 1, spec.high + 1):
                with pytest.raises(UnknownOptionError, match=f"rule option '{name}': must be"):
                    Rules.from_dict({name: outside, **with_partner})
        elif spec.kind == "choice":
            for choice in spec.choices:
                assert getattr(Rules.from_dict({name: choice, **with_partner}), name) == choice
            with pytest.raises(UnknownOptionError, match=f"rule option '{name}': must be one of"):
                Rules.from_dict({name: "nothing", **with_partner})
        elif spec.kind == "bool":
            with pytest.raises(UnknownOptionError, match="true or false"):
                Rules.from_dict({name: 1, **with_partner})
        elif spec.kind == "ints":
            assert spec.length is not None
            top = [int(spec.high)] * spec.length
            assert list(getattr(Rules.from_dict({name: top}), name)) == top
            with pytest.raises(UnknownOptionError, match=f"{spec.length} whole numbers"):
                Rules.from_dict({name: [int(spec.high) + 1] * spec.length})
            with pytest.raises(UnknownOptionError, match=f"{spec.length} whole numbers"):
                Rules.from_dict({name: top[1:]})
        else:
            assert spec.kind == "deck"
            with pytest.raises(UnknownOptionError, match="counts from"):
                Rules.from_dict({name: [("R1", int(spec.high) + 1)]})
