"""Customizable Rule cards: cleaning, the rule language, readings and descriptions."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unokit.editions.rulecards import (
    CHOICE,
    DISCARD,
    DISCARD_TO,
    DRAW,
    DRAW_TO,
    EVERYONE_DISCARDS,
    EVERYONE_DRAWS,
    FEWEST,
    GIVE,
    GRAMMAR,
    LEFT,
    MAX_RULE_LENGTH,
    MOST,
    NEXT,
    PLAY_RUN,
    PLAY_WILDS,
    PREVIOUS,
    REVERSE,
    RIGHT,
    SELF,
    SKIP_TURN,
    SUGGESTIONS,
    SWAP,
    TAKE,
    TARGETS,
    VERBS,
    RuleCard,
    RuleEffect,
    RuleTextError,
    clean_rule_text,
    describe,
    parse_rule,
    read_rule,
)
from unokit.engine.errors import UnoError

E = RuleEffect
HONOUR = "honour task: everyone sees it and you confirm when done"
COUNTED = (DRAW, DRAW_TO, DISCARD, DISCARD_TO, GIVE, TAKE, EVERYONE_DRAWS, EVERYONE_DISCARDS)
TARGETED = (GIVE, TAKE, SWAP)
PLAYERS = tuple(t for t in TARGETS if t != SELF)

# ---------------------------------------------------------------- the rule sheet's suggestions


def test_suggestions_are_the_sheet_list() -> None:
    assert len(SUGGESTIONS) == 8
    assert SUGGESTIONS[0] == "Discard until you have 2 cards in your hand."
    assert SUGGESTIONS[3] == "Play all of your Wild cards"
    assert SUGGESTIONS[7] == "Give each player a high five with your FEET!"


@pytest.mark.parametrize(
    ("text", "effect"),
    [
        ("Discard until you have 2 cards in your hand.", E(DISCARD_TO, 2)),
        ("Play as many cards in a row as you can.", E(PLAY_RUN)),
        ("Draw until you have 7 cards in your hand.", E(DRAW_TO, 7)),
        ("Play all of your Wild cards", E(PLAY_WILDS)),
        ("Take 2 cards from the player with the most cards.", E(TAKE, 2, MOST)),
    ],
)
def test_enforceable_suggestions(text: str, effect: RuleEffect) -> None:
    assert text in SUGGESTIONS
    card = read_rule(text)
    assert card == RuleCard(text, effect)
    assert card.enforced


@pytest.mark.parametrize("text", SUGGESTIONS[5:])
def test_other_suggestions_are_honour_tasks(text: str) -> None:
    card = read_rule(text)
    assert card.text == text
    assert card.effect is None
    assert not card.enforced
    assert card.reading() == HONOUR


# ---------------------------------------------------------------- enforced patterns

ENFORCED = [
    # draw
    ("Draw 2 cards", E(DRAW, 2)),
    ("draw two", E(DRAW, 2)),
    ("draw a card", E(DRAW, 1)),
    ("Draw one card.", E(DRAW, 1)),
    ("draw 1 cards", E(DRAW, 1)),
    ("draw 30 cards", E(DRAW, 30)),
    ("draw twenty cards", E(DRAW, 20)),
    ("draw fourteen", E(DRAW, 14)),
    ("Draw 4 cards from the DRAW pile.", E(DRAW, 4)),
    ("Take 3 cards from the draw pile", E(DRAW, 3)),
    ("take a card from the deck", E(DRAW, 1)),
    ("pick up 2 cards", E(DRAW, 2)),
    ("Pick up five!", E(DRAW, 5)),
    ("You must draw 3 cards.", E(DRAW, 3)),
    # draw-to
    ("Draw until you have 7 cards in your hand", E(DRAW_TO, 7)),
    ("draw until you hold 5 cards", E(DRAW_TO, 5)),
    ("Draw up to 7 cards", E(DRAW_TO, 7)),
    ("draw cards until you have ten cards in hand", E(DRAW_TO, 10)),
    ("draw until you have 1 card", E(DRAW_TO, 1)),
    # discard
    ("Discard 2 cards", E(DISCARD, 2)),
    ("discard a card", E(DISCARD, 1)),
    ("discard one card of your choice", E(DISCARD, 1)),
    ("Discard three cards from your hand!", E(DISCARD, 3)),
    # discard-to
    ("Discard until you have 2 cards in your hand", E(DISCARD_TO, 2)),
    ("discard down to 3 cards", E(DISCARD_TO, 3)),
    ("discard until you hold one card", E(DISCARD_TO, 1)),
    ("discard down to 0 cards", E(DISCARD_TO, 0)),
    ("Discard down to four cards in hand.", E(DISCARD_TO, 4)),
    # play-run
    ("Play as many cards in a row as you can", E(PLAY_RUN)),
    ("play as many cards as you can", E(PLAY_RUN)),
    ("PLAY AS MANY CARDS AS POSSIBLE!", E(PLAY_RUN)),
    # play-wilds
    ("play all your wilds", E(PLAY_WILDS)),
    ("play all wild cards", E(PLAY_WILDS)),
    ("Play all of the Wild cards in your hand.", E(PLAY_WILDS)),
    # skip-turn
    ("Skip your next turn", E(SKIP_TURN)),
    ("lose your next turn", E(SKIP_TURN)),
    ("miss your next turn.", E(SKIP_TURN)),
    ("miss a turn", E(SKIP_TURN)),
    ("Lose a turn!", E(SKIP_TURN)),
    # reverse
    ("Reverse", E(REVERSE)),
    ("Reverse the direction", E(REVERSE)),
    ("reverse the direction of play.", E(REVERSE)),
    ("reverse play", E(REVERSE)),
    ("REVERSE!", E(REVERSE)),
    # give
    ("Give 2 cards to the player on your left", E(GIVE, 2, LEFT)),
    ("give a card to the player with the fewest cards", E(GIVE, 1, FEWEST)),
    ("give 3 cards to a player of your choice", E(GIVE, 3, CHOICE)),
    ("give 2 cards to any player", E(GIVE, 2, CHOICE)),
    ("give 1 card to the next player", E(GIVE, 1, NEXT)),
    ("Give two cards of your choice to the previous player.", E(GIVE, 2, PREVIOUS)),
    ("give 4 cards to the player to your right", E(GIVE, 4, RIGHT)),
    ("give the next player a card", E(GIVE, 1, NEXT)),
    # take
    ("Take 2 cards from the player with the most cards", E(TAKE, 2, MOST)),
    ("take a card from the player on your right", E(TAKE, 1, RIGHT)),
    ("take 2 cards from a player of your choice", E(TAKE, 2, CHOICE)),
    ("steal 1 card from the player with the fewest cards", E(TAKE, 1, FEWEST)),
    ("take three cards from the player with the least cards", E(TAKE, 3, FEWEST)),
    ("take 2 cards at random from another player", E(TAKE, 2, CHOICE)),
    ("Steal a card from the player with the most cards in their hand!", E(TAKE, 1, MOST)),
    # swap
    ("Swap hands with the player on your left", E(SWAP, 0, LEFT)),
    ("trade hands with the player with the fewest cards", E(SWAP, 0, FEWEST)),
    ("exchange hands with a player of your choice", E(SWAP, 0, CHOICE)),
    ("swap hands with any player", E(SWAP, 0, CHOICE)),
    ("Swap hands with the previous player.", E(SWAP, 0, PREVIOUS)),
    ("swap hands with the player of your choice", E(SWAP, 0, CHOICE)),
    # everyone
    ("Everyone draws 2 cards", E(EVERYONE_DRAWS, 2)),
    ("each player draws 1 card", E(EVERYONE_DRAWS, 1)),
    ("all players draw two", E(EVERYONE_DRAWS, 2)),
    ("every player draws a card", E(EVERYONE_DRAWS, 1)),
    ("Everyone discards 1 card", E(EVERYONE_DISCARDS, 1)),
    ("each player discards a card", E(EVERYONE_DISCARDS, 1)),
    ("All players discard two cards of their choice.", E(EVERYONE_DISCARDS, 2)),
]


@pytest.mark.parametrize(("text", "effect"), ENFORCED)
def test_enforced_patterns(text: str, effect: RuleEffect) -> None:
    assert parse_rule(text) == effect
    assert read_rule(text).effect == effect


@pytest.mark.parametrize(("text", "effect"), ENFORCED[::5])
def test_case_spacing_and_final_punctuation_do_not_matter(text: str, effect: RuleEffect) -> None:
    for variant in (text.upper(), text.lower(), f"  {text}!!", text.replace(" ", "   "), f"{text}."):
        assert read_rule(variant).effect == effect


WORDS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"
WORDS += " seventeen eighteen nineteen twenty"


@pytest.mark.parametrize(("value", "word"), list(enumerate(WORDS.split()))[1:])
def test_number_words_and_digits_agree(value: int, word: str) -> None:
    assert parse_rule(f"draw {word} cards") == parse_rule(f"draw {value} cards") == E(DRAW, value)
    assert parse_rule(f"Discard down to {word}") == E(DISCARD_TO, value)


@pytest.mark.parametrize("count", [1, 2, 7, 19, 30])
@pytest.mark.parametrize(
    ("template", "verb"),
    [
        ("draw {} cards", DRAW),
        ("draw until you have {} cards in your hand", DRAW_TO),
        ("discard {} cards", DISCARD),
        ("discard until you hold {} cards", DISCARD_TO),
        ("everyone draws {} cards", EVERYONE_DRAWS),
        ("each player discards {} cards", EVERYONE_DISCARDS),
    ],
)
def test_counts_vary(template: str, verb: str, count: int) -> None:
    assert parse_rule(template.format(count)) == E(verb, count)


TARGET_PHRASES = [
    ("the player on your left", LEFT),
    ("the player to your left", LEFT),
    ("the player on your right", RIGHT),
    ("the player to your right", RIGHT),
    ("the next player", NEXT),
    ("the previous player", PREVIOUS),
    ("the player with the most cards", MOST),
    ("the player with the fewest cards", FEWEST),
    ("the player with the least cards", FEWEST),
    ("a player of your choice", CHOICE),
    ("any player", CHOICE),
    ("another player", CHOICE),
    ("the player of your choice", CHOICE),
]


@pytest.mark.parametrize(("phrase", "target"), TARGET_PHRASES)
@pytest.mark.parametrize("count", [1, 3, 12])
def test_targets_vary(phrase: str, target: str, count: int) -> None:
    assert parse_rule(f"Give {count} cards to {phrase}.") == E(GIVE, count, target)
    assert parse_rule(f"take {count} cards from {phrase}") == E(TAKE, count, target)
    assert parse_rule(f"steal {count} card at random from {phrase}!") == E(TAKE, count, target)
    assert parse_rule(f"swap hands with {phrase}") == E(SWAP, 0, target)


# ---------------------------------------------------------------- honour tasks

NEAR_MISSES = [
    "Draw 2 cards and hop",
    "Give a hug to the player with the most cards.",
    "Make chicken noises until your next turn.",
    "draw -1 cards",
    "draw 1e9 cards",
    "draw 31 cards",
    "draw 99 cards",
    "draw 1000 cards",
    "draw 2.5 cards",
    "draw 07 cards",
    "draw twenty-one cards",
    "draw thirty cards",
    "draw a",
    "draw a lot of cards",
    "draw cards",
    "draw",
    "draw 2 cards twice",
    "discard until you have 2 cards in your hand and dance",
    "discard until you have 2 cards in your hand. dance",
    "Give each player a high five with your FEET!",
    "give 2 cards to each player",
    "give 0 cards to the player on your left",
    "take 0 cards from the player with the most cards",
    "everyone draws 0 cards",
    "each player discards zero cards",
    "draw 0 cards",
    "discard zero cards",
    "draw until you have 0 cards",
    "everyone else draws 2 cards",
    "take 2 cards",
    "take 2 cards from the player behind you",
    "swap hands",
    "swap hands with yourself",
    "give 2 cards to yourself",
    "skip",
    "skip the next player",
    "reverse twice",
    "play",
    "play all cards",
    "play as many cards in a row as you can, then sing",
    "draw 2 cards?",
    "draw 2 cards; import os",
    "__import__('os').system('echo hi')",
    "eval('1+1')",
    "{draw} {2} {cards}",
    "<script>alert(1)</script>",
    "draw ２ cards",
    "draw ٢ cards",
    "Ⅾraw 2 cards",
    ".",
    "!!!",
    "",
    "   ",
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_are_honour_tasks(text: str) -> None:
    assert parse_rule(text) is None


def test_markup_is_kept_verbatim_as_an_honour_task() -> None:
    text = "<script>alert(1)</script>"
    card = read_rule(text)
    assert card.text == text
    assert card.effect is None
    assert card.reading() == HONOUR


# ---------------------------------------------------------------- cleaning


def test_whitespace_is_stripped_and_collapsed() -> None:
    assert clean_rule_text("  Draw\t2 \n\n cards\r\n ") == "Draw 2 cards"
    assert clean_rule_text("Draw\u00a02\u3000cards") == "Draw 2 cards"
    assert read_rule(" Swap   hands with\nany player ").text == "Swap hands with any player"


def test_longest_card_is_accepted_and_one_more_is_refused() -> None:
    assert clean_rule_text("x" * MAX_RULE_LENGTH) == "x" * MAX_RULE_LENGTH
    assert clean_rule_text(" " * 50 + "x" * MAX_RULE_LENGTH + " " * 50) == "x" * MAX_RULE_LENGTH
    with pytest.raises(RuleTextError, match="121 characters"):
        clean_rule_text("x" * (MAX_RULE_LENGTH + 1))
    with pytest.raises(RuleTextError):
        read_rule("draw 2 cards " + "x" * 120)


@pytest.mark.parametrize("text", ["", " ", "\n\t ", "\u3000"])
def test_empty_is_refused(text: str) -> None:
    with pytest.raises(RuleTextError, match="empty"):
        clean_rule_text(text)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("draw 2\x00 cards", "control"),
        ("\x1b[31mdraw 2 cards", "control"),
        ("draw 2 cards\x7f", "control"),
        ("draw\x1c2 cards", "control"),
        ("draw\x852 cards", "control"),
        ("draw 2\u200b cards", "format"),
        ("\u202eReverse", "format"),
        ("draw 2 cards\u2066", "format"),
        ("\ufeffReverse", "format"),
        ("draw \ud800 cards", "surrogate"),
        ("draw \ue000 cards", "private-use"),
        ("draw \U0010fffe cards", "unassigned"),
    ],
)
def test_invisible_and_control_characters_are_refused(text: str, kind: str) -> None:
    with pytest.raises(RuleTextError, match=kind) as info:
        read_rule(text)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, UnoError)


@pytest.mark.parametrize("value", [None, 42, b"draw 2 cards", ["draw 2 cards"], 1.5])
def test_non_strings_are_refused(value: object) -> None:
    with pytest.raises(RuleTextError, match="must be a string"):
        clean_rule_text(value)
    with pytest.raises(RuleTextError):
        read_rule(value)


def test_rule_card_text_must_be_clean() -> None:
    assert RuleCard("Reverse", E(REVERSE)).enforced
    with pytest.raises(RuleTextError):
        RuleCard(" Reverse", E(REVERSE))
    with pytest.raises(RuleTextError):
        RuleCard("", None)


# ---------------------------------------------------------------- readings and descriptions


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        ("Draw until you have 7 cards in your hand.", "enforced: draw until you hold 7 cards"),
        (
            "Take 2 cards from the player with the most cards.",
            "enforced: take 2 cards at random from the player with the most cards",
        ),
        ("draw a card", "enforced: draw 1 card"),
        ("Discard down to 2", "enforced: discard until you hold 2 cards"),
        ("discard two", "enforced: discard 2 cards of your choice"),
        ("Give 2 cards to the player on your left", "enforced: give 2 cards of your choice to the player on your left"),
        ("swap hands with any player", "enforced: swap hands with a player of your choice"),
        ("miss a turn", "enforced: skip your next turn"),
        ("reverse play", "enforced: reverse the direction of play"),
        ("play all your wilds", "enforced: play all of your Wild cards"),
        ("play as many cards as you can", "enforced: play as many cards in a row as you can"),
        ("all players draw two", "enforced: every player draws 2 cards, you included"),
        ("each player discards a card", "enforced: every player discards 1 card of their choice, you included"),
        ("Make chicken noises until your next turn.", HONOUR),
        ("Give a hug to the player with the most cards.", HONOUR),
    ],
)
def test_readings(text: str, reading: str) -> None:
    assert read_rule(text).reading() == reading


def all_effects() -> list[RuleEffect]:
    effects: list[RuleEffect] = []
    for verb in VERBS:
        counts = [0, 1, 2, 30] if verb in COUNTED else [0]
        targets = PLAYERS if verb in TARGETED else (SELF,)
        effects += [E(verb, count, target) for count in counts for target in targets]
    return effects


def test_every_verb_and_target_is_covered() -> None:
    assert len(VERBS) == len(set(VERBS)) == 13
    assert len(TARGETS) == len(set(TARGETS)) == 8
    assert {effect.verb for effect in all_effects()} == set(VERBS)
    assert {effect.target for effect in all_effects()} == set(TARGETS)


@pytest.mark.parametrize("effect", all_effects(), ids=repr)
def test_describe_every_combination(effect: RuleEffect) -> None:
    text = describe(effect)
    assert text
    assert text == text.strip()
    if effect.verb in COUNTED:
        assert f" {effect.count} card" in text
        assert (f" {effect.count} cards" in text) == (effect.count != 1)
    if effect.verb in TARGETED:
        assert "player" in text
    if effect.verb not in (EVERYONE_DRAWS, EVERYONE_DISCARDS) and (effect.count or effect.verb not in COUNTED):
        # The description is itself rule text with the same meaning.
        assert parse_rule(text) == effect
    assert RuleCard("x", effect).reading() == f"enforced: {text}"


def test_descriptions_differ_between_effects() -> None:
    effects = all_effects()
    assert len({describe(effect) for effect in effects}) == len(effects)


@pytest.mark.parametrize(
    "args",
    [
        ("jump",),
        (DRAW, -1),
        (DRAW, 31),
        (DRAW, True),
        (DRAW, 2, LEFT),
        (REVERSE, 1),
        (GIVE, 2),
        (GIVE, 2, SELF),
        (SWAP, 0, "behind"),
        (TAKE, 2, "Left"),
    ],
)
def test_bad_effects_are_refused(args: tuple[object, ...]) -> None:
    with pytest.raises(UnoError):
        RuleEffect(*args)  # type: ignore[arg-type]


def test_grammar_describes_the_language() -> None:
    assert str(MAX_RULE_LENGTH) in GRAMMAR
    for word in ("draw", "discard", "give", "take", "swap", "reverse", "skip", "everyone", "honour task"):
        assert word in GRAMMAR
    assert all(len(line) <= 120 for line in GRAMMAR.splitlines())


# ---------------------------------------------------------------- any text at all

_PIECES = st.sampled_from(
    ["draw", "give", "take", "2", "two", "a", "card", "cards", "to", "from", "the player on your left", " ", "!"]
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.text(max_size=300), st.lists(_PIECES, max_size=12).map(" ".join)))
def test_any_text_is_refused_cleanly_or_read_safely(text: str) -> None:
    effect = parse_rule(text)
    assert effect is None or isinstance(effect, RuleEffect)
    try:
        card = read_rule(text)
    except RuleTextError:
        return
    assert 0 < len(card.text) <= MAX_RULE_LENGTH
    assert card.text == card.text.strip()
    assert "  " not in card.text
    assert not any(unicodedata.category(char) in ("Cc", "Cf") for char in card.text)
    assert card.effect == parse_rule(card.text)
    assert card.reading().startswith("enforced: " if card.enforced else "honour task: ")
