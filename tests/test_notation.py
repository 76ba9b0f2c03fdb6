"""Card and action notation: round trips, case-insensitivity and malformed input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unokit import Game
from unokit.editions import EDITIONS, get_edition
from unokit.engine.actions import MAX_PLAYERS, ActionType
from unokit.engine.cards import (
    ALL_CARDS,
    CARD_KIND,
    CARD_SPACE,
    NO_COLOUR,
    Colour,
    Kind,
    card_name,
    is_card,
    make_card,
    parse_card,
    parse_colour,
)
from unokit.engine.errors import NotationError

EDITION_NAMES = sorted(EDITIONS)


# ---------------------------------------------------------------- cards


def test_every_card_round_trips() -> None:
    names = [card_name(card) for card in ALL_CARDS]
    assert len(set(names)) == len(ALL_CARDS)
    for card, name in zip(ALL_CARDS, names, strict=True):
        assert parse_card(name) == card
        assert parse_card(name.lower()) == card
        assert parse_card(f"  {name} ") == card


def test_card_names_follow_the_notation() -> None:
    assert card_name(make_card(Colour.RED, Kind.SEVEN)) == "R7"
    assert card_name(make_card(Colour.YELLOW, Kind.SKIP)) == "YS"
    assert card_name(make_card(Colour.GREEN, Kind.REVERSE)) == "GR"
    assert card_name(make_card(Colour.BLUE, Kind.DRAW_TWO)) == "B+2"
    assert card_name(make_card(Colour.ORANGE, Kind.ZERO)) == "O0"
    wilds = {
        Kind.WILD: "W",
        Kind.WILD_DRAW_FOUR: "W+4",
        Kind.WILD_JAM: "WJ",
        Kind.WILD_REVERSE: "WR",
        Kind.WILD_SKIP: "WS",
        Kind.WILD_SKIP_TWO: "WS2",
        Kind.WILD_DRAW_TWO: "W+2",
        Kind.WILD_TARGETED_DRAW_TWO: "WT2",
        Kind.WILD_FORCED_SWAP: "WX",
    }
    for kind, name in wilds.items():
        assert card_name(make_card(NO_COLOUR, kind)) == name
        assert CARD_KIND[parse_card(name)] == kind


@pytest.mark.parametrize("text", ["r7", "R7", " r7", "b+2", "B+2", "ys", "Gr", "w+4", "W+4", "wj", "ws2", "wt2", "wx"])
def test_card_notation_is_case_insensitive(text: str) -> None:
    assert parse_card(text) == parse_card(text.strip().upper())
    assert card_name(parse_card(text)) == text.strip().upper()


@pytest.mark.parametrize(
    "text",
    ["", " ", "R", "7", "R10", "7R", "X7", "RR7", "R-7", "R+4", "W+", "W4", "WJJ", "W+44", "red 7", "R7!", "-R7", "🂡"],
)
def test_malformed_card_notation(text: str) -> None:
    with pytest.raises(NotationError):
        parse_card(text)


@pytest.mark.parametrize("value", [-1, CARD_SPACE, 31, make_card(Colour.RED, Kind.ZERO) + 30, 1.0, "R7", None])
def test_card_name_of_a_non_card(value: object) -> None:
    assert not is_card(value)
    with pytest.raises(NotationError):
        card_name(value)  # type: ignore[arg-type]


def test_colours_parse_by_letter_or_name() -> None:
    assert parse_colour("g") == parse_colour("Green") == Colour.GREEN
    assert parse_colour("O") == parse_colour("orange") == Colour.ORANGE
    for text in ("", "p", "purple", "gr", "1"):
        with pytest.raises(NotationError):
            parse_colour(text)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.text(alphabet="RYGBOWrygbowSJXT$+-!0123456789 ", max_size=6) | st.text(max_size=8))
def test_parse_card_accepts_exactly_card_names(text: str) -> None:
    try:
        card = parse_card(text)
    except NotationError:
        assert text.strip().upper() not in {card_name(c) for c in ALL_CARDS}
    else:
        assert card_name(card) == text.strip().upper()


# ---------------------------------------------------------------- actions


@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_every_action_id_round_trips(edition: str) -> None:
    space = get_edition(edition).actions
    texts = [space.format(action) for action in range(space.size)]
    assert len(set(texts)) == space.size, "two actions share a notation"
    for action, text in enumerate(texts):
        assert space.parse(text) == action
        assert space.parse(text.lower()) == action
        assert space.parse(text.upper()) == action
        assert space.parse(f" {text}  ") == action


@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_action_space_layout(edition: str) -> None:
    ed = get_edition(edition)
    space = ed.actions
    assert space.faces == ed.faces
    counts = {kind: space.types.count(kind) for kind in ActionType}
    faces = len(ed.faces)
    assert counts[ActionType.PLAY] == counts[ActionType.PLAY_UNO] == counts[ActionType.DISCARD] == faces
    assert counts[ActionType.COLOUR] == len(space.colours)
    assert counts[ActionType.TARGET] == counts[ActionType.CATCH] == MAX_PLAYERS
    for kind in (ActionType.DRAW, ActionType.PASS, ActionType.CHALLENGE, ActionType.ACCEPT, ActionType.CALL_UNO):
        assert counts[kind] == 1
    for action in range(space.size):
        kind, arg = space.decode(action)
        assert space.id(kind, arg) == action


def test_action_notation_examples() -> None:
    space = get_edition("classic").actions
    red_seven = parse_card("R7")
    assert space.decode(space.parse("R7")) == (ActionType.PLAY, red_seven)
    assert space.decode(space.parse("r7!")) == (ActionType.PLAY_UNO, red_seven)
    assert space.decode(space.parse("-R7")) == (ActionType.DISCARD, red_seven)
    assert space.decode(space.parse("W+4!")) == (ActionType.PLAY_UNO, parse_card("W+4"))
    assert space.decode(space.parse("=g")) == (ActionType.COLOUR, Colour.GREEN)
    assert space.decode(space.parse("=Green")) == (ActionType.COLOUR, Colour.GREEN)
    assert space.decode(space.parse("@2")) == (ActionType.TARGET, 2)
    assert space.decode(space.parse("Catch@9")) == (ActionType.CATCH, 9)
    for word, kind in [
        ("draw", ActionType.DRAW),
        ("Pass", ActionType.PASS),
        ("CHALLENGE", ActionType.CHALLENGE),
        ("accept", ActionType.ACCEPT),
        ("UNO", ActionType.CALL_UNO),
    ]:
        assert space.decode(space.parse(word)) == (kind, 0)
    assert space.format(space.parse("catch@0")) == "catch@0"
    all_wild = get_edition("all-wild").actions
    assert all_wild.decode(all_wild.parse("wt2")) == (ActionType.PLAY, parse_card("WT2"))
    assert all_wild.decode(all_wild.parse("Wx!")) == (ActionType.PLAY_UNO, parse_card("WX"))
    assert all_wild.decode(all_wild.parse("@3")) == (ActionType.TARGET, 3)


@pytest.mark.parametrize(
    "text", ["@²", "catch@²", "@١", "catch@٣"], ids=["superscript", "catch-superscript", "arabic", "catch-arabic"]
)
def test_seats_are_written_in_ascii_digits(text: str) -> None:
    # str.isdigit() accepts these; the notation is "@" and "catch@" with 0-9.
    with pytest.raises(NotationError):
        get_edition("classic").actions.parse(text)


@pytest.mark.parametrize("edition", EDITION_NAMES)
@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "zzz",
        "R",
        "R10",
        "R7!!",
        "!R7",
        "--R7",
        "-",
        "=",
        "=Z",
        "=purple",
        "@",
        "@10",
        "@-1",
        "@x",
        "@ 1",
        "catch@",
        "catch@x",
        "catch@10",
        "catch@-1",
        "catch 2",
        "draw!",
        "uno!",
        "drawpass",
        "a" * 17,
        "R7" * 500,
    ],
)
def test_malformed_action_notation(edition: str, text: str) -> None:
    with pytest.raises(NotationError):
        get_edition(edition).actions.parse(text)


@pytest.mark.parametrize(
    ("edition", "text"),
    [
        ("space-jam", "=G"),
        ("space-jam", "G5"),
        ("space-jam", "-G5"),
        ("space-jam", "g+2!"),
        ("classic", "=O"),
        ("classic", "O5"),
        ("classic", "WJ"),
        ("classic", "WX"),
        ("classic", "W+2"),
        ("all-wild", "=R"),
        ("all-wild", "R7"),
        ("all-wild", "WJ"),
        ("all-wild", "-B+2"),
        ("classic", "W$"),
        ("space-jam", "W$"),
        ("all-wild", "W$"),
    ],
)
def test_notation_outside_the_edition(edition: str, text: str) -> None:
    with pytest.raises(NotationError):
        get_edition(edition).actions.parse(text)


@pytest.mark.parametrize("edition", EDITION_NAMES)
@pytest.mark.parametrize("value", [7, None, b"R7", ["R7"]])
def test_action_notation_must_be_text(edition: str, value: object) -> None:
    with pytest.raises(NotationError):
        get_edition(edition).actions.parse(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("edition", EDITION_NAMES)
@pytest.mark.parametrize("value", [-1, 10_000, "draw", 1.0, None])
def test_format_of_a_non_action(edition: str, value: object) -> None:
    space = get_edition(edition).actions
    with pytest.raises(NotationError):
        space.format(space.size if value == 10_000 else value)  # type: ignore[arg-type]


@pytest.mark.parametrize("edition", EDITION_NAMES)
@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(text=st.text(alphabet="RYGBOWrygbowSJXT$+-!=@0123456789 catchdrawpsuno", max_size=10) | st.text(max_size=20))
def test_parse_gives_an_action_or_a_notation_error(edition: str, text: str) -> None:
    space = get_edition(edition).actions
    try:
        action = space.parse(text)
    except NotationError:
        return
    assert 0 <= action < space.size
    assert space.parse(space.format(action)) == action


@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_malformed_notation_changes_no_game(edition: str) -> None:
    game = Game(edition, players=3, seed=5)
    key, events = game.state_key(), list(game.events)
    missing = next(letter for index, letter in enumerate("RYGBO") if index not in game.actions.colours)
    for text in ("", "zzz", "@10", "catch@x", "=" + missing, "R7!!"):
        with pytest.raises(NotationError):
            game.apply_notation(game.actor, text)
    assert game.state_key() == key
    assert game.events == events
    assert game.history == []
