"""Positions: a game's whole state as one line, loaded into a game that goes on exactly as the original;
public positions that hold no hidden card; determinization; every malformed field refused by name."""

from __future__ import annotations

import gc
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unokit import Game, PositionError, public_position
from unokit.determinize import known_cards
from unokit.engine.cards import card_name
from unokit.engine.order import out_of_turn_order
from unokit.engine.positions import (
    FIELDS,
    MAX_POSITION_LENGTH,
    Position,
    determinize,
    escape_text,
    format_position,
    is_public,
    parse_position,
    public_position_of_view,
    unescape_text,
)
from unokit.engine.rules import PRESETS
from unokit.fast.differential import OPTION_MIXES, WRITTEN_RULE_CARDS

EDITIONS = ("classic", "space-jam", "all-wild", "wild-jackpot")


def fields(text: str) -> dict[str, str]:
    return dict(token.split("=", 1) for token in text.split(" "))


def with_field(text: str, name: str, value: str) -> str:
    return " ".join(f"{key}={value if key == name else old}" for key, old in fields(text).items())


def make_game(edition: str, players: int, seed: int, options: dict[str, Any]) -> Game:
    rule_cards = list(WRITTEN_RULE_CARDS) if edition == "wild-jackpot" and seed % 2 else None
    return Game(edition, players, seed=seed, rules=dict(options), rule_cards=rule_cards)


def random_step(game: Game, rng: random.Random) -> tuple[int, int]:
    seats = game.deciders()
    seat = rng.choice(seats)
    legal = game.legal_actions(seat)
    action = rng.choice(legal)
    game.apply(seat, action)
    return seat, action


def play(game: Game, rng: random.Random, limit: int) -> tuple[list[str], list[tuple[Any, ...]], list[tuple[int, int]]]:
    """Play at random up to ``limit`` actions: the position before each, the state keys and the actions."""
    texts, keys, moves = [], [], []
    while not game.is_over and len(moves) < limit:
        texts.append(game.position())
        keys.append(game.state_key())
        moves.append(random_step(game, rng))
    texts.append(game.position())
    keys.append(game.state_key())
    return texts, keys, moves


def assert_same_decisions(loaded: Game, game: Game) -> None:
    assert loaded.deciders() == game.deciders()
    assert loaded.moves == game.moves
    assert out_of_turn_order(loaded) == out_of_turn_order(game)  # the same seat wins the race to call UNO
    for seat in range(game.n):
        assert loaded.legal_actions(seat) == game.legal_actions(seat)


def check_match(edition: str, players: int, seed: int, options: dict[str, Any], limit: int, follow: int) -> Game:
    """Play a match at random (up to ``limit`` actions): the position at every step reads back equal, loads
    the same state and the same decisions; from ``follow`` steps the loaded game, given the rest of the
    actions, goes through the same states.  Returns the game played."""
    game = make_game(edition, players, seed, options)
    rng = random.Random(seed)
    original = game.clone()
    texts, keys, moves = play(game, rng, limit)
    replayed = original
    for step, text in enumerate(texts):
        assert format_position(parse_position(text)) == text
        assert parse_position(format_position(parse_position(text))) == parse_position(text)
        loaded = Game.from_position(text)
        assert type(loaded) is type(game)
        assert loaded.state_key() == keys[step], (edition, options, step)
        assert loaded.position() == text
        assert loaded.events == [] and loaded.history == []
        assert_same_decisions(loaded, replayed)
        if step < len(moves):
            replayed.apply(*moves[step])
    for start in sorted(random.Random(seed + 1).sample(range(len(moves) + 1), min(follow, len(moves) + 1))):
        loaded = Game.from_position(texts[start])
        for step in range(start, len(moves)):
            loaded.apply(*moves[step])
            assert loaded.state_key() == keys[step + 1], (edition, options, start, step)
    if game.is_over and moves:
        assert Game.from_position(texts[-1]).is_over
    return game


@pytest.mark.parametrize("number", range(len(OPTION_MIXES)))
def test_round_trip_and_the_same_future_under_every_option_mix(number: int) -> None:
    edition, options = OPTION_MIXES[number]
    players = 4 if options.get("teams") or number % 2 else 2 + number % 3
    check_match(edition, players, 1000 + number, options, limit=100, follow=2)


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_round_trip_under_every_preset(edition: str, preset: str) -> None:
    options = {"preset": preset, "scoring": "single-round"}
    if preset == "teams":
        options = {"preset": preset, "scoring": "winner-collects", "target_score": 100}
    check_match(edition, 4, sum(map(ord, edition + preset)), options, limit=250, follow=1)


def test_a_whole_match_goes_on_identically_from_any_point() -> None:
    game = check_match("classic", 3, 5, {"target_score": 250}, limit=5000, follow=3)
    assert game.is_over and game.round > 1


def test_without_the_generator_a_game_is_random_from_its_seed() -> None:
    game = Game("classic", 3, seed=11)
    text = game.position(generator=False)
    assert fields(text)["rng"] == "seed" and fields(text)["seed"] == "11"
    loaded = Game.from_position(text)
    assert loaded.rng.getstate() == Game.blank("classic", 3, 11).rng.getstate()
    assert loaded.hands == game.hands and loaded.seed == 11 and loaded.order_key == game.order_key


def test_a_scripted_generator_is_written_as_random_from_the_seed_only() -> None:
    from unokit.engine.scripted import ScriptedRandom

    game = Game("classic", 2, seed=3)
    game.rng = ScriptedRandom()  # type: ignore[assignment]
    with pytest.raises(PositionError) as error:
        game.position()
    assert error.value.field == "rng" and "generator=False" in str(error.value)
    assert fields(game.position(generator=False))["rng"] == "seed"


def test_rule_card_texts_are_escaped_into_one_token() -> None:
    texts = ["Sing a song, then  draw 2 cards.", "Say 100% UNO; wave=yes", "Dance: café ü?"]
    game = Game("wild-jackpot", 3, seed=2, rule_cards=texts)
    text = game.position()
    assert len(text.split(" ")) == len(FIELDS)
    extra = fields(text)["extra"]
    assert "Sing_a_song%2C_then_draw_2_cards." in extra and "caf" in extra
    loaded = Game.from_position(text)
    assert loaded.extra["texts"] == game.extra["texts"] and loaded.state_key() == game.state_key()


def test_a_round_result_of_a_loaded_round_has_its_number() -> None:
    game = Game("classic", 2, seed=8, rules={"scoring": "single-round"})
    rng = random.Random(1)
    for _ in range(3):
        random_step(game, rng)
    game = Game.from_position(game.position())
    while not game.is_over:
        random_step(game, rng)
    assert [result.round for result in game.round_results] == [1]


# ---------------------------------------------------------------- public positions


def hidden_swapped(game: Game, seat: int | None, seed: int) -> Game:
    """A game with the same public state for ``seat``: the cards ``seat`` does not know (the other hands'
    unknown cards and the draw pile) dealt again at random into the same places."""
    other = game.clone()
    known = known_cards(game.view(seat), strict=True)
    slots: list[tuple[int, int]] = []
    pool: list[int] = []
    for s, hand in enumerate(other.hands):
        if s == seat:
            continue
        keep = Counter(known[s])
        for index, card in enumerate(hand):
            if keep[card] > 0:
                keep[card] -= 1
            else:
                slots.append((s, index))
                pool.append(card)
    pool += other.draw_pile
    random.Random(seed).shuffle(pool)
    for s, index in slots:
        other.hands[s][index] = pool.pop()
    other.draw_pile = pool
    other.rng = random.Random(seed)
    other.seed = seed
    if "dispenser" in other.extra:  # Wild Jackpot: the dispenser's order, the texts of cards never shown
        extra = other.extra
        random.Random(seed).shuffle(extra["dispenser"])
        shown = set(extra["shown"])
        extra["texts"] = tuple(t if rid in shown else f"Sing {seed} songs." for rid, t in enumerate(extra["texts"]))
    return other


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_public_position_holds_no_hidden_card(edition: str) -> None:
    for seed, options in enumerate(({}, {"preset": "party"}, {"seven_swap": True, "stacking": "same"})):
        if edition == "all-wild" and options.get("seven_swap"):
            options = {"jump_in": True}
        game = Game(edition, 4, seed=seed, rules=options)
        rng = random.Random(seed)
        for step in range(90):
            if game.is_over:
                break
            if step % 15 == 0:
                for seat in (0, 1, None):
                    text = public_position(game, seat)
                    assert is_public(text) and text == public_position_of_view(game.view(seat))
                    assert "mt:" not in text and fields(text)["seed"] == "?" and fields(text)["rng"] == "?"
                    for other_seed in (1, 2):
                        assert public_position(hidden_swapped(game, seat, other_seed), seat) == text
                    hands = fields(text)["hands"].split("/")
                    if seat is not None:
                        mine = [card_name(c) for c in sorted(game.hands[seat])]
                        assert hands[seat] == (",".join(mine) if mine else "-")
                    assert fields(text)["draw"] == (f"?{len(game.draw_pile)}" if game.draw_pile else "-")
            random_step(game, rng)


@pytest.mark.parametrize("number", range(0, len(OPTION_MIXES), 3))
def test_a_public_position_holds_no_hidden_card_under_option_mixes(number: int) -> None:
    edition, options = OPTION_MIXES[number]
    game = make_game(edition, 4, number, options)
    rng = random.Random(number)
    for step in range(80):
        if game.is_over:
            break
        if step % 20 == 7:
            for seat in (game.actor, None):
                text = public_position(game, seat)
                assert public_position(hidden_swapped(game, seat, step), seat) == text
                check_determinized(game, seat, step)
        random_step(game, rng)


def test_a_public_position_changes_when_the_viewer_s_own_hand_does() -> None:
    game = Game("classic", 3, seed=4)
    other = game.clone()
    other.hands[0], other.hands[1] = other.hands[1], other.hands[0]
    assert public_position(game, 0) != public_position(other, 0)
    assert public_position(game, 2) == public_position(other, 2)


def check_determinized(game: Game, seat: int | None, seed: int) -> None:
    text = public_position(game, seat)
    full = determinize(text, seed)
    assert not is_public(full.position())
    assert Counter(full.all_cards()) == Counter(full.deck_cards)
    assert all(full.hands[s] == [] or len(full.hands[s]) == len(game.hands[s]) for s in range(game.n))
    assert [len(h) for h in full.hands] == [len(h) for h in game.hands]
    if seat is not None:
        assert sorted(full.hands[seat]) == sorted(game.hands[seat])
    again = parse_position(public_position(full, seat))
    theirs = parse_position(text)
    if all(not hand.cards for s, hand in enumerate(theirs.hands) if s != seat):
        assert public_position(full, seat) == text  # (cards known from events before are not in a loaded game's log)
    for name in Position.__dataclass_fields__:
        if name != "hands":
            assert getattr(again, name) == getattr(theirs, name), name
    for mine, known in zip(again.hands, theirs.hands, strict=True):
        assert len(mine) == len(known)
    for s, known in enumerate(theirs.hands):
        assert not Counter(known.cards) - Counter(full.hands[s])
    if seat is not None:
        assert full.legal_actions(seat) == game.legal_actions(seat)
    assert determinize(text, seed).state_key() == full.state_key()


@pytest.mark.parametrize("edition", EDITIONS)
def test_determinize_deals_a_legal_game_consistent_with_the_public_position(edition: str) -> None:
    for options in ({}, {"preset": "chaos"} if edition != "all-wild" else {"stacking": "up", "jump_in": True}):
        game = Game(edition, 3, seed=21, rules=options)
        rng = random.Random(3)
        for step in range(150):
            if game.is_over:
                break
            if step % 10 == 0:
                for seat in (game.actor, (game.actor + 1) % 3, None):
                    check_determinized(game, seat, step)
            random_step(game, rng)


def test_determinize_of_a_full_position_loads_it_as_it_is() -> None:
    game = Game("space-jam", 3, seed=9)
    assert determinize(game.position(), 5).state_key() == game.state_key()


def test_a_public_position_is_refused_where_a_full_one_is_needed() -> None:
    with pytest.raises(PositionError) as error:
        Game.from_position(public_position(Game("classic", 2, seed=1), 0))
    assert error.value.field == "seed" and "determinize" in str(error.value)


# ---------------------------------------------------------------- malformed positions


def a_position(edition: str = "classic", rules: dict[str, Any] | None = None, steps: int = 0) -> str:
    game = Game(edition, 4, seed=12, rules=rules)
    rng = random.Random(12)
    for _ in range(steps):
        random_step(game, rng)
    return game.position()


def first_hand_card(text: str) -> str:
    return fields(text)["hands"].split("/")[0].split(",")[0]


WRONG: tuple[tuple[str, str], ...] = (
    ("unopos", "2"),
    ("unopos", "one"),
    ("edition", "chess"),
    ("players", "1"),
    ("players", "11"),
    ("rules", "spinning:true"),
    ("rules", "stacking:sideways"),
    ("rules", "hand_size"),
    ("rules", "hand_size:40"),
    ("rules", "jam_slam_chance:x"),
    ("seed", "abc"),
    ("moves", "-1"),
    ("moves", "many"),
    ("round", "0"),
    ("dealer", "4"),
    ("scores", "0,0,0"),
    ("scores", "0,0,-5,0"),
    ("knocked", "1"),
    ("winner", "2"),
    ("direction", "0"),
    ("direction", "2"),
    ("turn", "-"),
    ("turn", "9"),
    ("actor", "4"),
    ("phase", "dance"),
    ("phase", "challenge"),
    ("phase", "stack"),
    ("phase", "over"),
    ("phase", "discard"),
    ("ops", "fly:0:0"),
    ("ops", "begin:0"),
    ("ops", "begin:7:0"),
    ("colour", "O"),
    ("colour", "Z"),
    ("hands", "R1/R2"),
    ("hands", "R$/-/-/-"),
    ("draw", "-"),
    ("draw", "R1,?3"),
    ("discard", "-"),
    ("exposed", "0"),
    ("exposed", "x"),
    ("armed", "2"),
    ("drawn", "R5"),
    ("drawn", "ZZ"),
    ("bluff", "x:0:-"),
    ("bluff", "-:2:-"),
    ("bluff", "-:0"),
    ("bluff", "-:0:O"),
    ("discards", "-1"),
    ("target", "x"),
    ("skips", "0"),
    ("skips", "0,0,0,x"),
    ("stalls", "99"),
    ("stalls", "4"),
    ("extra", "foo:1"),
    ("house", "stack_total:1"),
    ("rng", "mt:abc"),
    ("rng", "xyz"),
    ("rng", "mt:" + "A" * 3334),
)


def game_count() -> int:
    gc.collect()
    return sum(1 for obj in gc.get_objects() if isinstance(obj, Game))


def refusal(text: str) -> tuple[str, str]:
    """The field and the message of the refusal of ``text``, checking that no game is left of it."""
    before = game_count()
    try:
        Game.from_position(text)
    except PositionError as error:
        field, message = error.field, str(error)
    else:
        pytest.fail("the position was loaded")
    assert game_count() == before
    return field, message


@pytest.mark.parametrize(("name", "value"), WRONG)
def test_each_wrong_field_is_refused_by_name(name: str, value: str) -> None:
    text = with_field(a_position(steps=3), name, value)
    field, message = refusal(text)
    expected = "discards" if (name, value) == ("phase", "discard") else name
    assert field == expected, message
    assert message.startswith(f"position field {expected!r}: ")


def test_cards_are_conserved_per_card() -> None:
    text = a_position()
    hands = fields(text)["hands"].split("/")
    draw = fields(text)["draw"].split(",")
    moved = with_field(text, "draw", ",".join([*draw[1:], draw[0]]))
    assert Game.from_position(moved).draw_pile[-1] != Game.from_position(text).draw_pile[-1]
    doubled = with_field(text, "hands", "/".join([hands[0] + "," + draw[0], *hands[1:]]))
    with pytest.raises(PositionError, match=f"more than the deck holds: {draw[0]}") as error:
        Game.from_position(doubled)
    assert error.value.field == "hands"
    lost = with_field(text, "draw", ",".join(draw[1:]))
    with pytest.raises(PositionError, match=f"missing: {draw[0]}"):
        Game.from_position(lost)
    with pytest.raises(PositionError, match="Classic UNO's deck has no R\\$") as error:
        Game.from_position(with_field(text, "hands", "/".join(["R$", *hands[1:]])))
    assert error.value.field == "hands"


def test_phases_that_cannot_happen_are_refused() -> None:
    text = a_position()
    actor = int(fields(text)["actor"])
    multi = with_field(a_position(rules={"multi_play": "number"}), "phase", "multi")
    drawn_elsewhere = with_field(with_field(text, "phase", "drawn"), "drawn", fields(text)["draw"].split(",")[0])
    with pytest.raises(PositionError, match="is not in seat") as error:
        Game.from_position(drawn_elsewhere)
    assert error.value.field == "drawn"
    mine = fields(text)["hands"].split("/")[actor].split(",")[0]
    assert Game.from_position(with_field(with_field(text, "phase", "drawn"), "drawn", mine)).phase_name == "drawn"
    with pytest.raises(PositionError, match="the one whose turn it is") as error:
        Game.from_position(with_field(text, "actor", str((actor + 1) % 4)))
    assert error.value.field == "actor"
    with pytest.raises(PositionError, match="Wild Draw Four on top") as error:
        Game.from_position(with_field(text, "phase", "challenge"))
    assert error.value.field == "phase"
    with pytest.raises(PositionError, match="phase target is for one of none here") as error:
        Game.from_position(with_field(with_field(text, "phase", "target"), "target", "7"))
    assert error.value.field == "target"
    seven = with_field(with_field(a_position(rules={"seven_swap": True}), "phase", "target"), "target", "7")
    with pytest.raises(PositionError, match="an operation ends it") as error:
        Game.from_position(seven)
    assert error.value.field == "ops"
    seven = with_field(seven, "ops", f"end_turn:{actor}:0")
    assert Game.from_position(seven).phase_name == "target"
    with pytest.raises(PositionError, match="nothing is pending in phase turn") as error:
        Game.from_position(with_field(text, "ops", f"end_turn:{actor}:0"))
    assert error.value.field == "ops"
    with pytest.raises(PositionError, match=r"holding a card that may be played|multi_count") as error:
        Game.from_position(with_field(multi, "house", "multi_count:0"))
    assert error.value.field == "phase"


def test_house_and_edition_entries_are_checked() -> None:
    text = a_position(rules={"scoring": "knockout"}, steps=2)
    knocked = with_field(text, "knocked", "1")
    with pytest.raises(PositionError) as error:
        Game.from_position(knocked)
    assert error.value.field == "hands" and "out" in str(error.value)
    jackpot = a_position("wild-jackpot")
    extra = fields(jackpot)["extra"]
    for wrong in (extra.replace("lever_skip:0", "lever_skip:3"), extra.replace("used:-", "used:0"), "texts:x"):
        with pytest.raises(PositionError) as error:
            Game.from_position(with_field(jackpot, "extra", wrong))
        assert error.value.field == "extra"
    stacked = a_position(rules={"stacking": "same"})
    with pytest.raises(PositionError) as error:
        Game.from_position(with_field(stacked, "house", "stack_total:-2;stack_kind:-1"))
    assert error.value.field == "house"
    with pytest.raises(PositionError, match="missing entries: stack_kind"):
        Game.from_position(with_field(stacked, "house", "stack_total:0"))


def test_duplicate_missing_and_unknown_fields() -> None:
    text = a_position()
    with pytest.raises(PositionError) as error:
        Game.from_position(text + " round=2")
    assert error.value.field == "round" and "twice" in str(error.value)
    without = " ".join(token for token in text.split(" ") if not token.startswith("colour="))
    with pytest.raises(PositionError) as error:
        Game.from_position(without)
    assert error.value.field == "colour" and "missing" in str(error.value)
    with pytest.raises(PositionError) as error:
        Game.from_position(text + " moon=full")
    assert error.value.field == "text"
    with pytest.raises(PositionError) as error:
        Game.from_position(text.replace(" round=", "  round="))
    assert error.value.field == "text"
    with pytest.raises(PositionError) as error:
        Game.from_position(with_field(text, "round", ""))
    assert error.value.field == "round"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "unopos=1\nedition=classic",
        "unopos=1\x00",
        "unopos=1\u200b",
        "x" * (MAX_POSITION_LENGTH + 1),
        "=" * 100,
        "unopos=1 " * 5000,
    ],
)
def test_hostile_text_is_refused(text: str) -> None:
    field, _ = refusal(text)
    assert field in (*FIELDS, "text")


def test_huge_text_is_refused_before_it_is_read() -> None:
    huge = a_position() + " " + "x" * MAX_POSITION_LENGTH
    with pytest.raises(PositionError, match=f"more than the {MAX_POSITION_LENGTH}") as error:
        Game.from_position(huge)
    assert error.value.field == "text"
    with pytest.raises(PositionError) as error:
        Game.from_position(b"unopos=1")  # type: ignore[arg-type]
    assert error.value.field == "text"


def test_the_documented_examples_hold() -> None:
    import doctest
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "docs" / "positions.md"
    text = path.read_text(encoding="utf-8")
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(parser.get_doctest(text, {}, "docs/positions.md", str(path), 0))
    failures, tried = runner.summarize(verbose=False)
    assert tried > 0 and failures == 0
    examples = [block.split("\n", 1)[1].strip() for block in text.split("```text")[1:]]
    examples = [block.split("```")[0].strip() for block in examples]
    assert len(examples) == 5
    for example in examples:
        if is_public(example):
            determinize(example, 1)
        else:
            loaded = Game.from_position(example)
            assert loaded.position(generator=False) == example


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.text(max_size=40))
def test_any_text_escapes_into_one_token_and_back(text: str) -> None:
    token = escape_text(text)
    assert not any(char in token for char in " ,;:=/?") and token.isprintable()
    assert unescape_text("extra", token) == text


def mutation_sources() -> list[str]:
    texts = []
    for number, (edition, options) in enumerate(OPTION_MIXES[::4]):
        game = make_game(edition, 4 if options.get("teams") else 3, number, options)
        rng = random.Random(number)
        for _ in range(25):
            if game.is_over:
                break
            random_step(game, rng)
        texts += [game.position(), public_position(game, 0)]
    return texts


SOURCES = mutation_sources()
PIECES = st.sampled_from(["-", "?", "?3", "0", "1", "-1", "7", "R1", "W+4", "x", "a:b", ",", "/", ";", ":", "%", "_"])


@settings(max_examples=250, deadline=None, derandomize=True, database=None)
@given(
    source=st.sampled_from(range(len(SOURCES))),
    changes=st.lists(
        st.tuples(st.sampled_from(FIELDS), st.lists(PIECES | st.text(max_size=4), min_size=1, max_size=4)),
        min_size=1,
        max_size=3,
    ),
)
def test_a_mutated_position_is_loaded_playable_or_refused_by_name(
    source: int, changes: list[tuple[str, list[str]]]
) -> None:
    """Any value in any field: a PositionError naming a field, never another error, and a game loaded
    anyway is one whose players can play on."""
    text = SOURCES[source]
    for name, pieces in changes:
        text = with_field(text, name, "".join(pieces))
    for load in (Game.from_position, lambda text: determinize(text, 1)):
        try:
            game = load(text)
        except PositionError as error:
            assert error.field in (*FIELDS, "text")
            continue
        rng = random.Random(0)
        for _ in range(20):
            if game.is_over:
                break
            random_step(game, rng)


def test_the_compiled_engine_reads_a_loaded_game_as_the_original() -> None:
    """A Jump-In window still to open on a play being resolved (a Targeted Draw Two's target chosen next):
    the compiled state of the loaded game is the original's (but for the moves made, which it has not)."""
    import numpy as np

    from unokit.fast.engine import MOVES, state_from_game

    rng = random.Random(2)
    found = 0
    for seed in range(40):
        game = Game("all-wild", 3, seed=seed, rules={"jump_in": True})
        for _ in range(60):
            if game.is_over:
                break
            if game.phase_name == "target" and getattr(game, "jump_next", -1) >= 0:
                loaded = Game.from_position(game.position())
                assert fields(game.position())["house"].endswith("jump_seen:1")
                ours, theirs = state_from_game(game, 7), state_from_game(loaded, 7)
                ours[MOVES] = theirs[MOVES] = 0
                assert np.array_equal(ours, theirs)
                found += 1
                break
            random_step(game, rng)
        if found >= 3:
            break
    assert found >= 3


def test_a_round_loaded_after_mercy_put_a_player_out_scores_them_in_its_result() -> None:
    for seed in range(60):
        game = Game("classic", 3, seed=seed, rules={"mercy": True, "mercy_limit": 9, "scoring": "single-round"})
        rng = random.Random(seed)
        while not game.is_over and not any(game.house_state()["out"]):
            random_step(game, rng)
        if game.is_over:
            continue
        loaded = Game.from_position(game.position())
        moves = []
        while not game.is_over:
            moves.append(random_step(game, rng))
        for move in moves:
            loaded.apply(*move)
        [ours], [theirs] = game.round_results, loaded.round_results
        assert (theirs.seats, theirs.points, theirs.scores, theirs.winner) == (
            ours.seats,
            ours.points,
            ours.scores,
            ours.winner,
        )
        return
    pytest.fail("no round in which Mercy put a player out")


def written(base: str, **values: str) -> str:
    """``base`` with some fields written by hand; the draw pile holds the rest of the deck (in deck order)."""
    text = base
    for name, value in values.items():
        text = with_field(text, name, value)
    p = parse_position(with_field(text, "draw", "-"))
    deck = Counter(Game.blank(p.edition, p.players, 0, p.rules).deck_cards)
    for cards in (*p.hands, p.discard):
        deck.subtract(cards.cards)
    return with_field(text, "draw", ",".join(card_name(c) for c in sorted(deck.elements())))


def test_positions_written_by_hand() -> None:
    base = Game("classic", 3, seed=1).position(generator=False)
    uncalled = written(
        base,
        hands="R1,R2,G5/B7/Y3,Y4",
        discard="B5",
        colour="B",
        turn="2",
        actor="2",
        phase="turn",
        ops="-",
        exposed="1",
        armed="1",
    )
    game = Game.from_position(uncalled)
    assert game.deciders() == (0, 1, 2)
    assert [game.format_action(a) for a in game.legal_actions(1)] == ["uno"]
    assert "catch@1" in [game.format_action(a) for a in game.legal_actions(0)]
    game.apply_notation(0, "catch@1")
    assert len(game.hands[1]) == 3 and game.exposed == []
    challenge = written(
        base,
        hands="R1,R2,G5/B7,B8/Y3,Y4",
        discard="W+4,B5",
        colour="G",
        turn="0",
        actor="1",
        phase="challenge",
        ops="-",
        bluff="0:0:B",
    )
    game = Game.from_position(challenge)
    assert [game.format_action(a) for a in game.legal_actions(1)] == ["challenge", "accept"]
    game.apply_notation(1, "challenge")
    assert len(game.hands[1]) == 2 + 6 and game.actor == 2  # not guilty: the challenger draws 6 and loses the turn
    stacked = written(
        Game("classic", 3, seed=1, rules={"stacking": "draw-two"}).position(generator=False),
        hands="R1,R+2,G5/B7,B8/Y3,Y4",
        discard="G+2,B+2,B5",
        colour="G",
        turn="0",
        actor="0",
        phase="stack",
        ops="-",
        house="stack_total:4;stack_kind:12",
    )
    game = Game.from_position(stacked)
    assert [game.format_action(a) for a in game.legal_actions(0)] == ["R+2", "accept"]
    game.apply_notation(0, "accept")
    assert len(game.hands[0]) == 3 + 4
