"""Game records: save, load and replay to the identical game; malformed records."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from unokit import Game
from unokit.editions import EDITIONS
from unokit.engine.cards import card_name
from unokit.engine.deck import stacked_deck
from unokit.engine.errors import RecordError
from unokit.engine.record import FORMAT, load, replay, save, to_record

EDITION_NAMES = sorted(EDITIONS)


def play_randomly(game: Game, steps: int, seed: int = 0, keep: bool = False) -> list[Game]:
    """Apply up to ``steps`` random legal actions; with ``keep``, return a clone of
    the game before each one and one at the end."""
    policy = random.Random(seed)
    states = [game.clone()] if keep else []
    for _ in range(steps):
        if game.is_over:
            break
        seat = policy.choice(game.deciders())
        game.apply(seat, policy.choice(game.legal_actions(seat)))
        if keep:
            states.append(game.clone())
    return states


def finished_game(edition: str = "classic", players: int = 3, seed: int = 11, **rules: Any) -> Game:
    game = Game(edition, players, seed=seed, rules={"scoring": "single-round", **rules})
    play_randomly(game, 1_000_000, seed)
    assert game.is_over
    return game


def assert_same_game(again: Game, game: Game) -> None:
    assert again == game
    assert again.state_key() == game.state_key()
    assert again.events == game.events
    assert again.history == game.history


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_save_load_replay_a_finished_game(edition: str, tmp_path: Path) -> None:
    game = finished_game(edition, players=4, seed=3)
    path = tmp_path / "game.json"
    save(game, path)
    record = load(path)
    assert record == to_record(game)
    assert_same_game(replay(record), game)


@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_save_load_replay_a_game_in_progress(edition: str, tmp_path: Path) -> None:
    game = Game(edition, 5, seed=8)
    play_randomly(game, 150, seed=8)
    assert not game.is_over
    save(game, tmp_path / "game.json")
    again = replay(load(tmp_path / "game.json"))
    assert_same_game(again, game)
    # The replayed game goes on exactly like the original.
    for twin in (game, again):
        play_randomly(twin, 200, seed=9)
    assert_same_game(again, game)


def test_a_full_match_replays(tmp_path: Path) -> None:
    game = Game("classic", 3, seed=21, rules={"scoring": "running-tally"})
    play_randomly(game, 1_000_000, seed=21)
    assert game.is_over and game.round > 1
    save(game, tmp_path / "match.json")
    assert_same_game(replay(load(tmp_path / "match.json")), game)


def test_record_contents() -> None:
    game = Game("space-jam", 3, seed=99, rules={"target_score": 200, "allow_bluff": False})
    play_randomly(game, 5, seed=1)
    record = to_record(game, names=["Ann", "Bob", "Cy"])
    assert record["format"] == FORMAT == "unokit-record/2"
    assert record["edition"] == "space-jam"
    assert record["players"] == 3
    assert record["seed"] == 99
    assert record["rules"] == {"target_score": 200, "allow_bluff": False}
    assert record["dealer"] is None
    assert record["deck"] is None
    assert record["names"] == ["Ann", "Bob", "Cy"]
    assert record["actions"] == [[seat, game.actions.format(action)] for seat, action in game.history]
    assert len(record["actions"]) == 5
    assert json.loads(json.dumps(record)) == record
    assert "names" not in to_record(game)
    assert_same_game(replay(record), game)


def test_saved_file_is_plain_json(tmp_path: Path) -> None:
    game = finished_game()
    path = tmp_path / "game.json"
    save(game, path, names=["a", "b", "c"])
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data == to_record(game, names=["a", "b", "c"])


def test_replay_of_an_explicit_deck_order(tmp_path: Path) -> None:
    hands = [
        ["R1", "R2", "R3", "R4", "R5", "R6", "R7"],
        ["B1", "B2", "B3", "B4", "B5", "B6", "B7"],
        ["G1", "G2", "G3", "G4", "G5", "G6", "G7"],
    ]
    order = stacked_deck("classic", hands=hands, start="Y5", draw=["W", "Y9"], dealer=2)
    game = Game("classic", 3, seed=4, deck=order, dealer=2)
    for seat, hand in enumerate(hands):
        assert sorted(card_name(c) for c in game.hands[seat]) == sorted(hand)
    assert card_name(game.top_card) == "Y5"
    assert [card_name(c) for c in game.draw_pile[-2:]] == ["Y9", "W"]
    assert game.actor == 0  # left of the dealer
    game.apply_notation(0, "draw")  # the Wild is drawn and playable
    game.apply_notation(0, "W")
    game.apply_notation(0, "=G")
    play_randomly(game, 40, seed=4)

    record = to_record(game)
    assert record["dealer"] == 2
    assert record["deck"] == [card_name(c) for c in order]
    save(game, tmp_path / "stacked.json")
    again = replay(load(tmp_path / "stacked.json"))
    assert_same_game(again, game)
    assert again.initial_deck == tuple(order)


@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_replay_upto_gives_the_state_after_k_actions(edition: str) -> None:
    game = Game(edition, 4, seed=17)
    states = play_randomly(game, 120, seed=17, keep=True)
    record = to_record(game)
    for k in (0, 1, 2, 3, 10, 57, len(states) - 2, len(states) - 1):
        assert_same_game(replay(record, upto=k), states[k])
    assert_same_game(replay(record, upto=10_000), game)


def test_replay_upto_zero_is_the_deal() -> None:
    game = Game("classic", 2, seed=5)
    play_randomly(game, 30, seed=5)
    start = replay(to_record(game), upto=0)
    assert start.history == []
    assert_same_game(start, Game("classic", 2, seed=5))


def test_replay_is_deterministic() -> None:
    record = to_record(finished_game("all-wild", players=3, seed=2))
    assert replay(record) == replay(copy.deepcopy(record))


# ---------------------------------------------------------------- malformed records


def base_record() -> dict[str, Any]:
    game = Game("classic", 3, seed=12)
    play_randomly(game, 12, seed=12)
    return to_record(game)


@pytest.mark.parametrize("record", [None, [], "record", 5, [["format", FORMAT]]])
def test_record_that_is_not_an_object(record: Any) -> None:
    with pytest.raises(RecordError):
        replay(record)


@pytest.mark.parametrize(
    "change",
    [
        {"format": "unokit-record/3"},
        {"format": None},
        {"format": ""},
        {"extra": 1},
        {"Actions": []},
        {"actions": "R7 draw"},
        {"actions": None},
        {"actions": {"0": "draw"}},
        {"edition": "wild-west"},
        {"edition": None},
        {"players": 1},
        {"players": 11},
        {"players": "3"},
        {"seed": "twelve"},
        {"seed": 1.5},
        {"rules": {"spinning": True}},
        {"rules": {"target_score": -5}},
        {"rules": ["target_score", 200]},
        {"dealer": 3},
        {"dealer": "0"},
        {"deck": ["R1"] * 108},
        {"deck": ["R99"]},
        {"deck": "R1 R2"},
    ],
    ids=lambda change: json.dumps(change)[:40],
)
def test_malformed_record_fields(change: dict[str, Any]) -> None:
    record = {**base_record(), **change}
    with pytest.raises(RecordError):
        replay(record)


def test_missing_format() -> None:
    record = base_record()
    del record["format"]
    with pytest.raises(RecordError):
        replay(record)


def test_missing_actions() -> None:
    record = base_record()
    del record["actions"]
    with pytest.raises(RecordError):
        replay(record)


@pytest.mark.parametrize(
    "item",
    [
        "draw",
        [0],
        [0, "draw", 1],
        [0, 5],
        [0, None],
        (0, "draw"),
        {"seat": 0, "action": "draw"},
        [0, "zzz"],
        [0, ""],
        [0, "@10"],
        [None, "draw"],
        ["0", "draw"],
        [7, "draw"],
        [-1, "draw"],
    ],
    ids=repr,
)
def test_malformed_action_items(item: Any) -> None:
    record = base_record()
    record["actions"].append(item)
    with pytest.raises(RecordError):
        replay(record)
    # The well-formed prefix still replays.
    replay(record, upto=len(record["actions"]) - 1)


def test_action_by_the_wrong_seat() -> None:
    game = Game("classic", 3, seed=12)
    actor = game.actor
    record = to_record(game)
    wrong = (actor + 1) % 3
    assert wrong not in game.deciders()
    record["actions"] = [[wrong, game.actions.format(game.legal_actions(actor)[0])]]
    with pytest.raises(RecordError):
        replay(record)


def test_illegal_action() -> None:
    game = Game("classic", 3, seed=12)
    held = set(game.hands[game.actor])
    absent = next(face for face in game.edition.faces if face not in held)
    record = to_record(game)
    record["actions"] = [[game.actor, card_name(absent)]]
    with pytest.raises(RecordError):
        replay(record)


def test_action_after_the_match_ended() -> None:
    game = finished_game()
    record = to_record(game)
    record["actions"].append([0, "draw"])
    with pytest.raises(RecordError):
        replay(record)


def test_action_replayed_from_a_different_seed() -> None:
    game = Game("classic", 4, seed=1)
    play_randomly(game, 60, seed=1)
    record = to_record(game)
    assert replay(record) == game
    record["seed"] = 2
    # Another deal: the recorded actions no longer fit (or the game differs).
    try:
        other = replay(record)
    except RecordError:
        return
    assert other != game


def test_load_rejects_files_that_are_not_records(tmp_path: Path) -> None:
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{not json", encoding="utf-8")
    a_list = tmp_path / "list.json"
    a_list.write_text("[1, 2]", encoding="utf-8")
    for path in (bad_json, a_list, tmp_path / "missing.json", tmp_path):
        with pytest.raises(RecordError):
            load(path)


def test_load_then_replay_rejects_an_unknown_key(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save(finished_game(), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["comment"] = "hello"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError):
        replay(load(path))


def test_an_option_idle_without_its_partner_is_left_out_on_replay() -> None:
    """Records written before ``Rules`` refused options that only change another one left at its
    default (``mercy_limit`` without ``mercy``, ``stack_revenge`` without stacking) replay: those
    options changed nothing and are left out; with their partner on they are kept."""
    game = Game("classic", 3, seed=21, rules={"scoring": "single-round"})
    rng = random.Random(2)
    while not game.is_over:
        seat = game.deciders()[0]
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    record = to_record(game)
    record["rules"] = {**record["rules"], "mercy_limit": 10, "stack_revenge": True}
    again = replay(record)
    assert again.events == game.events and again.rules == game.rules
    record["rules"] = {**record["rules"], "mercy": True}
    assert replay(record, upto=0).rules.mercy_limit == 10
