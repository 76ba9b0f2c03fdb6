"""Per-player and spectator views: what each seat may know, and nothing more."""

from __future__ import annotations

import dataclasses
import json

import pytest

from unokit import Game, Rules, View
from unokit.engine.cards import NO_COLOUR, Colour, card_name, parse_card
from unokit.engine.deck import stacked_deck
from unokit.engine.errors import WrongPlayerError
from unokit.engine.events import SECRET_KINDS, redact

HANDS_3 = [
    ["G1", "G2", "G3", "G4", "G6", "G7", "G8"],
    ["RR", "R7", "B1", "B2", "B3", "B4", "B6"],
    ["Y1", "Y2", "Y3", "Y4", "Y6", "Y7", "Y8"],
]


def three_player_game(draw: tuple[str, ...] = ("B9", "G9"), seed: int = 1) -> Game:
    """Classic, dealer 0 (seat 1 plays first), start card R5."""
    order = stacked_deck("classic", hands=HANDS_3, start="R5", draw=draw, dealer=0)
    return Game("classic", 3, seed=seed, deck=order, dealer=0)


def cards(*names: str) -> tuple[int, ...]:
    return tuple(sorted(parse_card(n) for n in names))


def secrets_shown(view: View) -> list[tuple[str, int, int, tuple[int, ...]]]:
    return [e for e in view.history if e[0] in SECRET_KINDS and e[3]]


# ---------------------------------------------------------------- fields


def test_view_fields_at_the_start() -> None:
    game = three_player_game()
    view = game.view(1)
    assert view.edition == "classic"
    assert view.seat == 1
    assert view.players == 3
    assert view.hand == cards(*HANDS_3[1])
    assert view.hand_sizes == (7, 7, 7)
    assert view.top_card == parse_card("R5")
    assert view.colour == Colour.RED
    assert view.direction == 1
    assert view.draw_pile_size == 108 - 3 * 7 - 1
    assert view.discard_pile_size == 1
    assert view.dealer == 0
    assert view.turn == view.actor == 1
    assert view.phase == "turn"
    assert view.deciders == (1,)
    assert view.legal_actions == game.legal_actions(1)
    assert {game.actions.format(a) for a in view.legal_actions} == {"RR", "R7", "draw"}
    assert view.uncalled == ()
    assert view.scores == (0, 0, 0)
    assert view.round == 1
    assert view.target_score == 500
    assert view.scoring == "winner-collects"
    assert view.winner == -1


def test_view_follows_the_table() -> None:
    game = three_player_game()
    game.apply_notation(1, "RR")  # Reverse: seat 0 plays next
    for seat in (0, 1, 2, None):
        view = game.view(seat)
        assert view.direction == -1
        assert view.top_card == parse_card("RR")
        assert view.colour == Colour.RED
        assert view.hand_sizes == (7, 6, 7)
        assert view.discard_pile_size == 2
        assert view.actor == view.turn == 0
    assert game.view(1).hand == cards(*HANDS_3[1][1:])
    assert game.view(0).legal_actions == (game.actions.draw,)  # nothing red, no Reverse
    assert game.view(1).legal_actions == ()
    assert game.view(2).legal_actions == ()


def test_legal_actions_only_for_the_viewer() -> None:
    game = three_player_game()
    assert game.view(1).legal_actions
    assert game.view(0).legal_actions == ()
    assert game.view(2).legal_actions == ()
    assert game.view(None).legal_actions == ()


def test_views_show_scores_and_the_counted_hands() -> None:
    rules = Rules(hand_size=1)
    order = stacked_deck("classic", hands=[["G1"], ["R7"], ["Y9"]], start="R5", dealer=0, rules=rules)
    game = Game("classic", 3, seed=2, rules=rules, deck=order, dealer=0)
    game.apply_notation(1, "R7")  # seat 1 goes out and collects 1 + 9
    spectator = game.view(None)
    assert spectator.scores == (0, 10, 0)
    assert spectator.round == 2
    assert spectator.dealer == 1
    counted = [e for e in spectator.history if e[0] == "hand"]
    assert counted == [("hand", 0, 1, cards("G1")), ("hand", 1, 0, ()), ("hand", 2, 9, cards("Y9"))]
    assert ("round_end", 1, 10, (0, 10, 0)) in spectator.history
    for seat in range(3):
        assert game.view(seat).scores == (0, 10, 0)


def test_uncalled_uno_in_views() -> None:
    rules = Rules(hand_size=2)
    order = stacked_deck("classic", hands=[["G1", "G2"], ["R7", "R8"], ["Y1", "Y2"]], start="R5", dealer=0, rules=rules)
    game = Game("classic", 3, seed=2, rules=rules, deck=order, dealer=0)
    game.apply_notation(1, "R7")  # no UNO called
    fmt = game.actions.format
    for seat in (0, 1, 2, None):
        assert game.view(seat).uncalled == (1,)
        assert game.view(seat).deciders == (0, 1, 2)
    assert [fmt(a) for a in game.view(0).legal_actions] == ["catch@1"]
    assert [fmt(a) for a in game.view(1).legal_actions] == ["uno"]
    assert "catch@1" in [fmt(a) for a in game.view(2).legal_actions]
    game.apply_notation(1, "uno")
    assert game.view(None).uncalled == ()
    assert game.view(0).legal_actions == ()


def uno_game() -> Game:
    """Classic, two cards each, dealer 0: seat 1 plays first and may go down to one card."""
    rules = Rules(hand_size=2)
    hands = [["G1", "G2"], ["R7", "R8"], ["R1", "Y2"]]
    order = stacked_deck("classic", hands=hands, start="R5", draw=("B9", "G9", "B8"), dealer=0, rules=rules)
    return Game("classic", 3, seed=2, rules=rules, deck=order, dealer=0)


def test_called_with_the_card() -> None:
    game = uno_game()
    assert game.view(None).called == ()
    game.apply_notation(1, "R7!")
    for seat in (0, 1, 2, None):
        view = game.view(seat)
        assert view.called == (1,)
        assert view.uncalled == ()
    game.apply_notation(2, "R1!")
    assert game.view(None).called == (1, 2)


def test_called_late() -> None:
    game = uno_game()
    game.apply_notation(1, "R7")
    assert game.view(None).called == ()
    assert game.view(None).uncalled == (1,)
    game.apply_notation(1, "uno")
    assert game.view(0).called == (1,)
    assert game.view(0).uncalled == ()


def test_never_called_and_window_closed_is_not_called() -> None:
    game = uno_game()
    game.apply_notation(1, "R7")
    game.apply_notation(2, "draw")  # the next player began their turn: the window closed
    view = game.view(None)
    assert view.hand_sizes[1] == 1
    assert view.uncalled == ()
    assert view.called == ()
    assert json.loads(json.dumps(view.to_dict(history=False)))["called"] == []


def test_caught_is_not_called() -> None:
    game = uno_game()
    game.apply_notation(1, "R7")
    game.apply_notation(0, "catch@1")
    view = game.view(None)
    assert view.hand_sizes[1] == 3
    assert view.called == view.uncalled == ()


def test_a_call_lasts_until_the_hand_changes() -> None:
    from unokit.engine.views import called_uno

    called = [("dealer", 0, 1, ()), ("play", 1, 1, (3,))]
    assert called_uno(called, (2, 1, 2)) == (1,)
    assert called_uno([*called, ("draw", 1, 1, ())], (2, 1, 2)) == ()
    assert called_uno([*called, ("swap", 0, 1, ())], (2, 1, 2)) == ()
    assert called_uno([*called, ("take", 2, 1, ())], (2, 1, 2)) == ()
    assert called_uno([*called, ("dealer", 1, 2, ())], (2, 1, 2)) == ()  # a new round
    assert called_uno([*called, ("play", 0, 0, (4,))], (1, 1, 2), uncalled=(0,)) == (1,)


def test_all_wild_view_has_no_colour() -> None:
    game = Game("all-wild", 4, seed=3)
    view = game.view(game.actor)
    assert view.colour == NO_COLOUR
    assert view.to_dict()["colour"] == "-"


@pytest.mark.parametrize("seat", [3, -1, "0", 1.0])
def test_view_of_a_seat_that_does_not_exist(seat: object) -> None:
    with pytest.raises(WrongPlayerError):
        three_player_game().view(seat)  # type: ignore[arg-type]


def test_a_view_is_a_frozen_snapshot() -> None:
    game = three_player_game()
    view = game.view(1)
    game.apply_notation(1, "R7")
    assert view.hand == cards(*HANDS_3[1])
    assert view.hand_sizes == (7, 7, 7)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = ()  # type: ignore[misc]


# ---------------------------------------------------------------- secrecy


def test_spectator_view() -> None:
    game = three_player_game()
    game.apply_notation(1, "RR")
    game.apply_notation(0, "draw")
    view = game.view(None)
    assert view.seat is None
    assert view.hand == ()
    assert view.legal_actions == ()
    assert view.hand_sizes == (8, 6, 7)
    assert len(view.history) == len(game.events)
    assert secrets_shown(view) == []
    assert [e[:3] for e in view.history if e[0] == "deal"] == [("deal", s, 7) for s in range(3)]
    assert ("flip", -1, 0, (parse_card("R5"),)) in view.history
    assert ("draw", 0, 1, ()) in view.history


def test_own_secrets_only() -> None:
    game = three_player_game()
    game.apply_notation(1, "RR")
    game.apply_notation(0, "draw")  # seat 0 draws B9, which is not playable
    for seat in range(3):
        shown = secrets_shown(game.view(seat))
        assert shown, "a player sees their own deal"
        assert all(e[1] == seat for e in shown)
    assert ("deal", 1, 7, tuple(parse_card(c) for c in HANDS_3[1])) in game.view(1).history
    assert ("draw", 0, 1, (parse_card("B9"),)) in game.view(0).history
    assert ("draw", 0, 1, ()) in game.view(2).history


def test_no_draw_pile_order_in_a_view() -> None:
    game = three_player_game(draw=("B9", "G9"))
    other = three_player_game(draw=("G9", "B9"))
    assert game.draw_pile != other.draw_pile
    for seat in (0, 1, 2, None):
        assert game.view(seat) == other.view(seat)
        assert json.dumps(game.view(seat).to_dict()) == json.dumps(other.view(seat).to_dict())
    # After seat 0 draws, only seat 0's view differs between the two games.
    for g in (game, other):
        g.apply_notation(1, "RR")
        g.apply_notation(0, "draw")
    assert game.view(0) != other.view(0)
    for seat in (1, 2, None):
        assert game.view(seat) == other.view(seat)


def test_no_random_state_in_a_view() -> None:
    game = three_player_game(seed=1)
    other = three_player_game(seed=2)
    assert game.rng.getstate() != other.rng.getstate()
    for seat in (0, 1, 2, None):
        assert game.view(seat) == other.view(seat)
        assert game.view(seat).to_dict() == other.view(seat).to_dict()


def test_no_hidden_state_among_the_view_fields() -> None:
    names = {f.name for f in dataclasses.fields(View)}
    for hidden in ("draw_pile", "deck", "rng", "seed", "hands", "ops", "bluff"):
        assert hidden not in names


# ---------------------------------------------------------------- Wild Draw Four challenge

HANDS_4 = [
    ["G1", "G2", "G3", "G4", "G6", "G7", "G8"],
    ["W+4", "R7", "B1", "B2", "B3", "B4", "B6"],
    ["Y1", "Y2", "Y3", "Y4", "Y6", "Y7", "Y8"],
    ["G9", "Y9", "B9", "B8", "B7", "Y0", "G0"],
]


@pytest.mark.parametrize("guilty", [True, False])
def test_challenge_reveal_only_to_challenger_and_bluffer(guilty: bool) -> None:
    hands = [list(h) for h in HANDS_4]
    if not guilty:
        hands[1][1] = "B7"  # no red card left: the Wild Draw Four is honest
        hands[3][4] = "R7"
    order = stacked_deck("classic", hands=hands, start="R5", dealer=0)
    game = Game("classic", 4, seed=6, deck=order, dealer=0)
    game.apply_notation(1, "W+4")
    game.apply_notation(1, "=B")
    assert game.phase_name == "challenge" and game.actor == 2
    revealed = cards(*hands[1][1:])
    game.apply_notation(2, "challenge")
    reveal = ("reveal", 1, 2, revealed)
    assert reveal in game.events
    assert ("verdict", 1, 1 if guilty else 0, ()) in game.events
    assert reveal in game.view(1).history
    assert reveal in game.view(2).history
    for seat in (0, 3, None):
        view = game.view(seat)
        assert ("reveal", 1, 2, ()) in view.history
        assert reveal not in view.history
        assert all(not e[3] for e in view.history if e[0] == "reveal")
    # The penalty draw is secret to the one who draws.
    drawer, count = (1, 4) if guilty else (2, 6)
    draw = next(e for e in reversed(game.events) if e[0] == "draw")
    assert draw[:3] == ("draw", drawer, count) and len(draw[3]) == count
    assert draw in game.view(drawer).history
    for seat in (0, 1, 2, 3, None):
        if seat != drawer:
            assert ("draw", drawer, count, ()) in game.view(seat).history
    assert game.view(drawer).hand == tuple(sorted(game.hands[drawer]))


# ---------------------------------------------------------------- JSON


@pytest.mark.parametrize("edition", ["classic", "space-jam", "all-wild"])
def test_to_dict_is_json(edition: str) -> None:
    game = Game(edition, 4, seed=9)
    for _ in range(30):
        seat = game.deciders()[0]
        game.apply(seat, game.legal_actions(seat)[-1])
    for seat in (0, 1, 2, 3, None):
        view = game.view(seat)
        text = json.dumps(view.to_dict())
        data = json.loads(text)
        assert json.dumps(data) == text
        assert data["hand"] == [card_name(c) for c in view.hand]
        assert data["top_card"] == card_name(game.top_card)
        assert data["seat"] == seat
        assert data["hand_sizes"] == [len(h) for h in game.hands]
        assert data["legal_actions"] == list(view.legal_actions)
        assert data["scores"] == game.scores
        assert len(data["history"]) == len(game.events)
        for item, event in zip(data["history"], view.history, strict=True):
            assert item["kind"] == event[0] and item["seat"] == event[1] and item["value"] == event[2]


def test_to_dict_names_cards_in_notation() -> None:
    game = three_player_game()
    data = game.view(1).to_dict()
    assert data["hand"] == sorted(HANDS_3[1], key=parse_card)
    assert data["top_card"] == "R5"
    assert data["colour"] == "R"
    assert data["history"][-1] == {"kind": "flip", "seat": -1, "value": 0, "cards": ["R5"]}
    deal = next(item for item in data["history"] if item["kind"] == "deal" and item["seat"] == 1)
    assert deal["cards"] == HANDS_3[1]
    hidden = next(item for item in data["history"] if item["kind"] == "deal" and item["seat"] == 0)
    assert hidden["cards"] == [] and hidden["value"] == 7
    assert json.dumps(data)


def test_drawn_card_and_decision_details_are_in_the_view_only_as_public_as_they_are() -> None:
    hands = [["R1", "R2", "R3", "R4", "R5", "R6", "W+4"], ["B1", "B2", "B3", "B4", "B5", "B6", "B7"]]
    order = stacked_deck("classic", hands=hands, start="G9", draw=["G3"], dealer=1)
    game = Game("classic", 2, seed=4, deck=order, dealer=1)
    game.apply_notation(0, "draw")
    assert game.phase_name == "drawn"
    assert game.view(0).drawn == parse_card("G3")
    assert game.view(1).drawn == -1
    assert game.view(None).drawn == -1
    game.apply_notation(0, "pass")
    assert game.view(0).drawn == -1
    # A Wild Draw Four: the victim's view names the bluffer; the colour phase has none.
    bluff = Game("classic", 2, seed=4, deck=order, dealer=1)
    bluff.apply_notation(0, "W+4")
    assert bluff.view(1).decision["bluffer"] == -1
    bluff.apply_notation(0, "=B")
    assert bluff.phase_name == "challenge"
    assert bluff.view(1).decision["bluffer"] == 0
    assert bluff.view(None).decision == bluff.view(1).decision


# ---------------------------------------------------------------- history snapshots


def test_a_views_history_is_a_snapshot() -> None:
    game = three_player_game()
    before = game.view(0)
    length = len(before.history)
    events = list(before.history)
    game.apply_notation(1, "RR")
    game.apply_notation(0, "draw")
    after = game.view(0)
    assert len(before.history) == length
    assert list(before.history) == events
    assert before.history == tuple(events)
    assert len(after.history) == len(game.events) > length
    assert after.history[:length] == tuple(events)
    with pytest.raises(IndexError):
        before.history[length]


def test_history_is_redacted_per_viewer_and_per_clone() -> None:
    game = three_player_game()
    game.apply_notation(1, "RR")
    game.apply_notation(0, "draw")  # seat 0 draws B9 in secret
    drawn = ("draw", 0, 1, (parse_card("B9"),))
    assert drawn in game.view(0).history
    assert drawn not in game.view(1).history
    assert drawn not in game.view(None).history
    assert drawn in game.view(0).history  # seat 1's view did not overwrite seat 0's log
    game.view(2)
    copy = game.clone()
    copy.apply_notation(2, "draw")  # only the copy goes on
    assert len(copy.view(2).history) == len(copy.events) > len(game.events)
    assert copy.view(2).history == tuple(redact(e, 2) for e in copy.events)
    assert game.view(2).history == tuple(redact(e, 2) for e in game.events)
    assert json.loads(json.dumps(game.view(0).to_dict()))["history"][-1]["kind"] == game.events[-1][0]


def test_a_copy_and_its_original_keep_their_own_redacted_logs() -> None:
    """A copy shares the views' redacted logs with its original until either adds to them: the views
    of both, played apart, tell each its own events, redacted for the viewer."""
    import random

    game = Game("classic", 3, seed=11)
    rng = random.Random(3)

    def step(g: Game) -> None:
        seat = g.deciders()[0]
        legal = g.legal_actions(seat)
        g.apply(seat, legal[rng.randrange(len(legal))])

    for _ in range(30):
        step(game)
    before = {seat: game.view(seat).history for seat in (0, 1, 2, None)}
    copy = game.clone()
    for _ in range(25):
        step(game)
        step(copy)
        for g in (game, copy):
            for seat in (0, 1, 2, None):
                assert list(g.view(seat).history) == [redact(e, seat) for e in g.events]
    assert game.events != copy.events, "the two games went apart"
    for seat, history in before.items():  # a view taken before the copy still tells what it told
        assert list(history) == [redact(e, seat) for e in game.events[: len(history)]]


# ---------------------------------------------------------------- read back


@pytest.mark.parametrize(
    ("edition", "rules"),
    [("classic", {}), ("wild-jackpot", {}), ("space-jam", {}), ("all-wild", {}), ("classic", {"preset": "house"})],
)
def test_a_view_read_back_from_json_is_the_same_view(edition: str, rules: dict[str, object]) -> None:
    """``View.from_dict`` reads what ``to_dict`` wrote, through JSON: every seat's view and the spectator's,
    all along a match of several rounds, with and without history."""
    import random

    game = Game(edition, 3, seed=7, rules=Rules.from_dict({"target_score": 100, **rules}))
    rng = random.Random(7)
    checked = 0
    while not game.is_over and checked < 400:
        for seat in (*range(game.n), None):
            view = game.view(seat)
            data = json.loads(json.dumps(view.to_dict()))
            back = View.from_dict(data)
            assert back == view
            assert json.loads(json.dumps(back.to_dict())) == data
            short = json.loads(json.dumps(view.to_dict(history=False, last_rounds=1)))
            assert json.loads(json.dumps(View.from_dict(short).to_dict(history=False))) == short
            checked += 1
        deciders = game.deciders()
        seat = rng.choice(deciders)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert checked >= 100
