"""Customizable Rule cards (UNO Wild Jackpot): what players write, and what the engine can enforce.

A rule card holds plain text. :func:`read_rule` cleans it and reads it as a small, fixed
language (see :data:`GRAMMAR`): text that matches one pattern is an enforced
:class:`RuleEffect`; anything else is an honour task that everyone sees and the
performing player confirms. Text is never evaluated.

>>> card = read_rule("  Draw until you have 7 cards in your hand. ")
>>> card.text
'Draw until you have 7 cards in your hand.'
>>> card.effect
RuleEffect(verb='draw-to', count=7, target='self')
>>> card.reading()
'enforced: draw until you hold 7 cards'
>>> read_rule("Make chicken noises until your next turn.").reading()
'honour task: everyone sees it and you confirm when done'
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from unokit.engine.errors import UnoError
from unokit.i18n import Translator, Words, catalog, english

__all__ = [
    "CHOICE",
    "DISCARD",
    "DISCARD_TO",
    "DRAW",
    "DRAW_TO",
    "EVERYONE_DISCARDS",
    "EVERYONE_DRAWS",
    "FEWEST",
    "GIVE",
    "GRAMMAR",
    "LEFT",
    "MAX_RULE_LENGTH",
    "MOST",
    "NEXT",
    "PLAY_RUN",
    "PLAY_WILDS",
    "PREVIOUS",
    "REVERSE",
    "RIGHT",
    "SELF",
    "SKIP_TURN",
    "SUGGESTIONS",
    "SWAP",
    "TAKE",
    "TARGETS",
    "VERBS",
    "RuleCard",
    "RuleEffect",
    "RuleTextError",
    "clean_rule_text",
    "describe",
    "parse_rule",
    "read_rule",
]

MAX_RULE_LENGTH = 120
"""The most characters a rule card holds (after cleaning)."""

_MAX_COUNT = 30


class RuleTextError(UnoError):
    """Rule text that cannot be written on a card (empty, too long, control/format characters):
    :attr:`words` is the reason as a message of :mod:`unokit.i18n` (the error's text is its English)."""

    def __init__(self, message_id: str, /, **values: Any) -> None:
        self.words = Words(message_id, values)
        super().__init__(english(message_id, **values))


# ---------------------------------------------------------------- verbs and targets

DRAW = "draw"
DRAW_TO = "draw-to"
DISCARD = "discard"
DISCARD_TO = "discard-to"
PLAY_RUN = "play-run"
PLAY_WILDS = "play-wilds"
SKIP_TURN = "skip-turn"
REVERSE = "reverse"
GIVE = "give"
TAKE = "take"
SWAP = "swap"
EVERYONE_DRAWS = "everyone-draws"
EVERYONE_DISCARDS = "everyone-discards"

VERBS: tuple[str, ...] = (
    DRAW,
    DRAW_TO,
    DISCARD,
    DISCARD_TO,
    PLAY_RUN,
    PLAY_WILDS,
    SKIP_TURN,
    REVERSE,
    GIVE,
    TAKE,
    SWAP,
    EVERYONE_DRAWS,
    EVERYONE_DISCARDS,
)
"""Every verb, in a fixed order."""

SELF = "self"
LEFT = "left"
RIGHT = "right"
NEXT = "next"
PREVIOUS = "previous"
MOST = "most"
FEWEST = "fewest"
CHOICE = "choice"

TARGETS: tuple[str, ...] = (SELF, LEFT, RIGHT, NEXT, PREVIOUS, MOST, FEWEST, CHOICE)
"""Every target; give, take and swap name one other than :data:`SELF`."""

_COUNTED = frozenset({DRAW, DRAW_TO, DISCARD, DISCARD_TO, GIVE, TAKE, EVERYONE_DRAWS, EVERYONE_DISCARDS})
_TARGETED = frozenset({GIVE, TAKE, SWAP})
# A count of zero makes these mean nothing, so such text is an honour task.
_ZERO_IS_NOTHING = _COUNTED - {DISCARD_TO}


@dataclass(frozen=True)
class RuleEffect:
    """An enforced rule: a verb, its number of cards (0 if none) and the player it names."""

    verb: str
    count: int = 0
    target: str = SELF

    def __post_init__(self) -> None:
        if self.verb not in VERBS:
            raise UnoError(f"unknown rule verb {self.verb!r}")
        if type(self.count) is not int or not 0 <= self.count <= _MAX_COUNT:
            raise UnoError(f"rule count must be an int from 0 to {_MAX_COUNT}, not {self.count!r}")
        if self.verb not in _COUNTED and self.count:
            raise UnoError(f"{self.verb!r} takes no count")
        if self.verb in _TARGETED:
            if self.target not in TARGETS or self.target == SELF:
                raise UnoError(f"{self.verb!r} needs another player as target, not {self.target!r}")
        elif self.target != SELF:
            raise UnoError(f"{self.verb!r} takes no target")


@dataclass(frozen=True)
class RuleCard:
    """A written rule card: its cleaned text and, if enforced, its effect (``None`` = honour task)."""

    text: str
    effect: RuleEffect | None

    def __post_init__(self) -> None:
        if clean_rule_text(self.text) != self.text:
            raise RuleTextError("error.rule_text.uncleaned")

    @property
    def enforced(self) -> bool:
        """True when the engine carries the rule out; False for an honour task."""
        return self.effect is not None

    def reading(self, lang: str | Translator = "en") -> str:
        """How the card will be read, to show its writer (in ``lang``).

        >>> read_rule("Take 2 cards from the player with the most cards.").reading()
        'enforced: take 2 cards at random from the player with the most cards'
        """
        t = catalog(lang) if isinstance(lang, str) else lang
        if self.effect is None:
            return t("rule.reading.honour")
        return t("rule.reading.enforced", effect=describe(self.effect, t))


# ---------------------------------------------------------------- cleaning

# Whitespace to collapse: every Unicode space except the control characters \x1c-\x1f and \x85,
# which are refused like other controls (tab, newline, \r, \v and \f do collapse).
_BLANK = re.compile(r"[^\S\x1c-\x1f\x85]+")
_REFUSED = {
    "Cc": "error.rule_text.control",
    "Cf": "error.rule_text.format",
    "Cs": "error.rule_text.surrogate",
    "Co": "error.rule_text.private_use",
    "Cn": "error.rule_text.unassigned",
}
"""The message refusing each category of character a card cannot hold."""


def clean_rule_text(text: object) -> str:
    """Return rule text stripped, with each whitespace run as one space; refuse what a card cannot hold.

    Raises :class:`RuleTextError` if *text* is not a string, is empty, is longer than
    :data:`MAX_RULE_LENGTH` once cleaned, or holds a control, format, surrogate, private-use or
    unassigned character. Markup is plain text and kept verbatim.

    >>> clean_rule_text("  Reverse\\n  the   direction ")
    'Reverse the direction'
    >>> clean_rule_text("Draw 2\\u200b cards")
    Traceback (most recent call last):
    unokit.editions.rulecards.RuleTextError: rule text contains a format character (U+200B)
    """
    if not isinstance(text, str):
        raise RuleTextError("error.rule_text.type", type=type(text).__name__)
    cleaned = _BLANK.sub(" ", text).strip(" ")
    if not cleaned:
        raise RuleTextError("error.rule_text.empty")
    for char in cleaned:
        refused = _REFUSED.get(unicodedata.category(char))
        if refused is not None:
            raise RuleTextError(refused, code=f"{ord(char):04X}")  # i18n: a code point in hex
    if len(cleaned) > MAX_RULE_LENGTH:
        raise RuleTextError("error.rule_text.long", length=len(cleaned), limit=MAX_RULE_LENGTH)
    return cleaned


# ---------------------------------------------------------------- the language

_WORDS = (
    *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"),
)
_NUMBER_WORDS = {word: value for value, word in enumerate(_WORDS)}
_NUMBER = r"0|[1-9][0-9]?[0-9]?|" + "|".join(sorted(_WORDS, key=len, reverse=True))

_TARGET_PHRASES: tuple[tuple[str, str], ...] = (
    (LEFT, r"the player (?:on|to) your left"),
    (RIGHT, r"the player (?:on|to) your right"),
    (NEXT, r"the next player"),
    (PREVIOUS, r"the previous player"),
    (MOST, r"the player with the most cards(?: in (?:their )?hand)?"),
    (FEWEST, r"the player with the (?:fewest|least) cards(?: in (?:their )?hand)?"),
    (CHOICE, r"(?:a|any|another|the) player of your choice|any (?:other )?player|another player"),
)
_TARGET_RES = tuple((target, re.compile(phrase)) for target, phrase in _TARGET_PHRASES)

_PARTS = {
    "<YOU>": r"(?:you (?:must )?)?",
    "<ALL>": r"(?:everyone|everybody|every player|each player|all (?:the )?players)",
    "<COUNT>": r"(?P<n>" + _NUMBER + r"|an?(?= card\b))(?: cards?)?",  # i18n: a pattern, not words
    "<TARGET>": r"(?P<t>" + "|".join(phrase for _, phrase in _TARGET_PHRASES) + ")",  # i18n: a pattern
    "<PILE>": r"(?: from the (?:draw )?(?:pile|deck))?",
    "<HAND>": r"(?: in (?:your )?hand)?",
    "<MINE>": r"(?: of your choice)?(?: from your hand)?",
}


def _compile(template: str) -> re.Pattern[str]:
    for name, part in _PARTS.items():
        template = template.replace(name, part)
    return re.compile(template)


# Tried in order against the whole lowercased text; the first full match wins.
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (verb, _compile(template))
    for verb, template in (
        (DRAW, r"<YOU>(?:draw|pick up) <COUNT><PILE>"),
        (DRAW, r"<YOU>take <COUNT> from the (?:draw )?(?:pile|deck)"),
        (DRAW_TO, r"<YOU>draw (?:cards )?until you (?:have|hold) <COUNT><HAND>"),
        (DRAW_TO, r"<YOU>draw up to <COUNT><HAND>"),
        (DISCARD, r"<YOU>discard <COUNT><MINE>"),
        (DISCARD_TO, r"<YOU>discard (?:cards )?until you (?:have|hold) <COUNT><HAND>"),
        (DISCARD_TO, r"<YOU>discard down to <COUNT><HAND>"),
        (PLAY_RUN, r"<YOU>play as many cards(?: in a row)? as (?:you can|possible)"),
        (PLAY_WILDS, r"<YOU>play all (?:(?:of )?(?:your|the) )?wild(?: cards|s)<HAND>"),
        (SKIP_TURN, r"<YOU>(?:skip|lose|miss) (?:your (?:next )?|a )turn"),
        (REVERSE, r"<YOU>reverse(?: (?:the )?(?:direction|order)(?: of play)?| (?:the )?play)?"),
        (GIVE, r"<YOU>give <COUNT><MINE> to <TARGET>"),
        (GIVE, r"<YOU>give <TARGET> <COUNT><MINE>"),
        (TAKE, r"<YOU>(?:take|steal) <COUNT>(?: at random)? from <TARGET>"),
        (SWAP, r"<YOU>(?:swap|trade|exchange|switch) (?:hands|your hand) with <TARGET>"),
        (EVERYONE_DRAWS, r"<ALL> draws? <COUNT><PILE>"),
        (EVERYONE_DISCARDS, r"<ALL> discards? <COUNT>(?: of (?:their|your) choice)?"),
    )
)


def parse_rule(text: str) -> RuleEffect | None:
    """Read rule text as an enforced effect, or ``None`` for an honour task. Never evaluates anything.

    >>> parse_rule("Give 2 cards to the player on your left!")
    RuleEffect(verb='give', count=2, target='left')
    >>> parse_rule("Give a hug to the player with the most cards.") is None
    True
    """
    plain = " ".join(text.split()).lower().rstrip(".! ")
    for verb, pattern in _PATTERNS:
        match = pattern.fullmatch(plain)
        if match is None:
            continue
        groups = match.groupdict()
        count = 0
        if verb in _COUNTED:
            word = groups["n"]
            count = int(word) if word.isdigit() else _NUMBER_WORDS.get(word, 1)
            if count > _MAX_COUNT or (count == 0 and verb in _ZERO_IS_NOTHING):
                return None
        target = SELF
        if verb in _TARGETED:
            phrase = groups["t"]
            target = next(t for t, regex in _TARGET_RES if regex.fullmatch(phrase))
        return RuleEffect(verb, count, target)
    return None


def read_rule(text: object) -> RuleCard:
    """Clean *text* (see :func:`clean_rule_text`) and read it as a :class:`RuleCard`."""
    cleaned = clean_rule_text(text)
    return RuleCard(cleaned, parse_rule(cleaned))


# ---------------------------------------------------------------- descriptions

_TARGET_IDS = {
    LEFT: "left",
    RIGHT: "right",
    NEXT: "next",
    PREVIOUS: "previous",
    MOST: "most",
    FEWEST: "fewest",
    CHOICE: "choice",
}
"""Each target's part of its messages' ids: ``rule.give.left`` gives to the player on your left."""

_VERB_IDS = {
    DRAW: "rule.draw",
    DRAW_TO: "rule.draw_to",
    DISCARD: "rule.discard",
    DISCARD_TO: "rule.discard_to",
    PLAY_RUN: "rule.play_run",
    PLAY_WILDS: "rule.play_wilds",
    SKIP_TURN: "rule.skip_turn",
    REVERSE: "rule.reverse",
    EVERYONE_DRAWS: "rule.everyone_draws",
    EVERYONE_DISCARDS: "rule.everyone_discards",
}
"""The message of each verb without a target."""


def describe(effect: RuleEffect, lang: str | Translator = "en") -> str:
    """Say in plain words what an effect does (in ``lang``).

    >>> describe(RuleEffect(DRAW_TO, 7))
    'draw until you hold 7 cards'
    >>> describe(RuleEffect(GIVE, 2, LEFT))
    'give 2 cards of your choice to the player on your left'
    >>> describe(RuleEffect(GIVE, 2, LEFT), "es")
    'da 2 cartas a tu elección al jugador de tu izquierda'
    """
    t = catalog(lang) if isinstance(lang, str) else lang
    if effect.verb in (GIVE, TAKE, SWAP):
        message_id = f"rule.{effect.verb}.{_TARGET_IDS[effect.target]}"  # i18n: an id of a verb and target
        return t(message_id, count=effect.count)
    return t(_VERB_IDS[effect.verb], count=effect.count)


# ---------------------------------------------------------------- the rule sheet

SUGGESTIONS: tuple[str, ...] = (
    "Discard until you have 2 cards in your hand.",
    "Play as many cards in a row as you can.",
    "Draw until you have 7 cards in your hand.",
    "Play all of your Wild cards",
    "Take 2 cards from the player with the most cards.",
    "Make chicken noises until your next turn.",
    "Give a hug to the player with the most cards.",
    "Give each player a high five with your FEET!",
)
"""The rule sheet's Customizable Card Suggestion List, verbatim (the first five are enforced)."""

# i18n: rule cards are written in English (the sheet's grammar); this documents that grammar
GRAMMAR = f"""\
A rule card holds up to {MAX_RULE_LENGTH} characters of plain text. Text matching one of these forms is
enforced; anything else is an honour task that everyone sees and you confirm when done.
Case is ignored, as are a final "." or "!" and an optional leading "you" or "you must".
N is 0-30 in digits or zero..twenty in words ("a card" = 1); "card" or "cards" may follow it.
  draw N [from the draw pile]  |  pick up N [from the draw pile]  |  take N from the draw pile
  draw until you have/hold N [in your hand]  |  draw up to N
  discard N [of your choice]  |  discard until you have/hold N [in your hand]  |  discard down to N
  play as many cards [in a row] as you can  |  play all [of] your Wild cards  |  play all wilds
  skip/lose/miss your next turn  |  miss a turn  |  reverse [the direction [of play]]  |  reverse play
  give N [of your choice] to P  |  give P N  |  take/steal N [at random] from P
  swap/trade/exchange/switch hands with P
  everyone/each player/every player/all players draw(s) N  |  ... discard(s) N [of their choice]
P (another player): the player on/to your left | the player on/to your right | the next player |
  the previous player | the player with the most cards | the player with the fewest/least cards |
  a player of your choice | the player of your choice | any player | another player
A count over 30, or of 0 where it would do nothing, makes the text an honour task."""
"""A short description of the rule-card language, for documentation and help text."""
