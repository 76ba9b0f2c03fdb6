"""Cards as small integers, with lookup tables.

A card is ``colour * 32 + kind``.  Wild cards have the colour :data:`NO_COLOUR`.
Physical duplicates are the same integer: a deck is a list with repeats.

>>> card = make_card(Colour.RED, Kind.SEVEN)
>>> card_name(card)
'R7'
>>> parse_card('r7') == card
True
>>> card_name(WILD_DRAW_FOUR)
'W+4'
"""

from __future__ import annotations

from enum import IntEnum

from unokit.engine.errors import NotationError
from unokit.i18n import Translator, catalog, english


class Colour(IntEnum):
    """The card colours of every edition (each edition uses four of them)."""

    RED = 0
    YELLOW = 1
    GREEN = 2
    BLUE = 3
    ORANGE = 4


NO_COLOUR = 5
"""The colour slot of a wild card; also the current colour when none applies."""

COLOUR_LETTERS = "RYGBO"
COLOUR_NAMES = tuple(english("colour." + colour.name.lower()) for colour in Colour)  # i18n: ids
"""The colours' English names (from the English catalog), as notation accepts them."""


class Kind(IntEnum):
    """What is printed on a card, independent of its colour."""

    ZERO = 0
    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    SKIP = 10
    REVERSE = 11
    DRAW_TWO = 12
    JACKPOT = 13
    WILD = 14
    WILD_DRAW_FOUR = 15
    WILD_JAM = 16
    WILD_JACKPOT = 17
    WILD_REVERSE = 18
    WILD_SKIP = 19
    WILD_SKIP_TWO = 20
    WILD_DRAW_TWO = 21
    WILD_TARGETED_DRAW_TWO = 22
    WILD_FORCED_SWAP = 23


FIRST_WILD_KIND = Kind.WILD
"""Kinds from this one on are wild cards (no colour)."""

KIND_SYMBOLS: dict[Kind, str] = {
    **{Kind(n): str(n) for n in range(10)},
    Kind.SKIP: "S",
    Kind.REVERSE: "R",
    Kind.DRAW_TWO: "+2",
    Kind.JACKPOT: "$",
    Kind.WILD: "W",
    Kind.WILD_DRAW_FOUR: "W+4",
    Kind.WILD_JAM: "WJ",
    Kind.WILD_JACKPOT: "W$",
    Kind.WILD_REVERSE: "WR",
    Kind.WILD_SKIP: "WS",
    Kind.WILD_SKIP_TWO: "WS2",
    Kind.WILD_DRAW_TWO: "W+2",
    Kind.WILD_TARGETED_DRAW_TWO: "WT2",
    Kind.WILD_FORCED_SWAP: "WX",
}


def kind_term(kind: int) -> str:
    """The catalog id of a kind's name (``kind.skip``), or ``""`` for a number, which is its digit."""
    return "" if kind <= Kind.NINE else "kind." + Kind(kind).name.lower()  # i18n: an id, not words


def colour_id(colour: int) -> str:
    """The catalog id of a colour's name (``colour.red``)."""
    return "colour." + Colour(colour).name.lower()  # i18n: an id, not words


KIND_NAMES: dict[Kind, str] = {kind: english(kind_term(kind)) if kind_term(kind) else str(int(kind)) for kind in Kind}
"""Each kind's English name (from the English catalog): ``Skip``, ``Wild Draw Four``, ``7``."""

CARD_SPACE = 6 * 32
"""Every card integer is below this bound."""


def make_card(colour: int, kind: int) -> int:
    """The card of ``kind`` in ``colour`` (use :data:`NO_COLOUR` for wild kinds)."""
    if (kind >= FIRST_WILD_KIND) != (colour == NO_COLOUR):
        raise ValueError(f"kind {Kind(kind).name} cannot have colour {colour}")
    return colour * 32 + kind


def wild(kind: int) -> int:
    """The wild card of ``kind``."""
    return make_card(NO_COLOUR, kind)


WILD = wild(Kind.WILD)
WILD_DRAW_FOUR = wild(Kind.WILD_DRAW_FOUR)
WILD_JAM = wild(Kind.WILD_JAM)
WILD_JACKPOT = wild(Kind.WILD_JACKPOT)

# Lookup tables indexed by card integer; invalid slots hold -1 / "".
CARD_COLOUR: list[int] = [-1] * CARD_SPACE
CARD_KIND: list[int] = [-1] * CARD_SPACE
CARD_NAME: list[str] = [""] * CARD_SPACE
CARD_IS_WILD: list[bool] = [False] * CARD_SPACE
CARD_NUMBER: list[int] = [-1] * CARD_SPACE
"""Face value of number cards, -1 for symbols."""
_BY_NAME: dict[str, int] = {}

for _kind in Kind:
    _colours = [NO_COLOUR] if _kind >= FIRST_WILD_KIND else list(range(5))
    for _colour in _colours:
        _card = _colour * 32 + _kind
        CARD_COLOUR[_card] = _colour
        CARD_KIND[_card] = _kind
        CARD_IS_WILD[_card] = _colour == NO_COLOUR
        CARD_NUMBER[_card] = int(_kind) if _kind <= Kind.NINE else -1
        _name = KIND_SYMBOLS[_kind] if _colour == NO_COLOUR else COLOUR_LETTERS[_colour] + KIND_SYMBOLS[_kind]
        CARD_NAME[_card] = _name
        _BY_NAME[_name] = _card

ALL_CARDS: tuple[int, ...] = tuple(sorted(_BY_NAME.values()))


def is_card(value: object) -> bool:
    """Whether ``value`` is a valid card integer."""
    return isinstance(value, int) and 0 <= value < CARD_SPACE and CARD_KIND[value] >= 0


def card_name(card: int) -> str:
    """The notation of a card, e.g. ``'R7'``, ``'B+2'``, ``'W+4'``."""
    if not is_card(card):
        raise NotationError(f"not a card: {card!r}")
    return CARD_NAME[card]


def colour_term(colour: int, lang: str | Translator = "en") -> str:
    """A colour's name in a language: ``red``, ``rojo``."""
    return (catalog(lang) if isinstance(lang, str) else lang)(colour_id(colour))


def card_long_name(card: int, lang: str | Translator = "en") -> str:
    """A human name such as ``'red 7'`` or ``'Wild Draw Four'`` (in ``lang``: ``'7 rojo'``)."""
    t = catalog(lang) if isinstance(lang, str) else lang
    kind = CARD_KIND[card]
    colour = CARD_COLOUR[card]
    name = t(kind_term(kind)) if kind_term(kind) else str(kind)
    if colour == NO_COLOUR:
        return name
    return t("card.coloured", colour=t(colour_id(colour)), kind=name)


def parse_card(text: str) -> int:
    """Parse card notation (case-insensitive); raises :class:`NotationError`."""
    key = text.strip().upper()
    try:
        return _BY_NAME[key]
    except KeyError:
        raise NotationError(f"unknown card {text!r}") from None


def colour_letter(colour: int) -> str:
    """``'R'``, ``'Y'``, ``'G'``, ``'B'``, ``'O'``, or ``'-'`` for no colour."""
    return COLOUR_LETTERS[colour] if 0 <= colour < 5 else "-"


def parse_colour(text: str) -> int:
    """Parse a colour letter or name (case-insensitive)."""
    key = text.strip().lower()
    for index, name in enumerate(COLOUR_NAMES):
        if key in (name, name[0]):
            return index
    raise NotationError(f"unknown colour {text!r}")
