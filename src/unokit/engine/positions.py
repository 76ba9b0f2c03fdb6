"""Positions: a game's whole state as one line of text, and what one seat may know of it.

A *position* is every fact that decides a game's future, written as ``name=value`` fields in a
fixed order, separated by single spaces (docs/positions.md describes each field)::

    unopos=1 edition=classic players=3 rules=- seed=7 moves=0 round=1 dealer=2 scores=0,0,0 knocked=-
    winner=- direction=1 turn=0 actor=0 phase=turn ops=- colour=R hands=R1,B7,.../.../... draw=G2,... discard=R5
    exposed=- armed=0 drawn=- bluff=-:0:- discards=0 target=- skips=0,0,0 stalls=0 extra=- house=- rng=mt:...

:meth:`Game.position() <unokit.engine.game.Game.position>` writes one and
:meth:`Game.from_position() <unokit.engine.game.Game.from_position>` loads it into a game that goes
on exactly as the original (the same legal actions, the same future: the generator's state is part
of the position).  Loading checks everything and refuses with :class:`PositionError`, whose
``field`` names the field that is wrong.

A *public position* (:func:`public_position`, :func:`public_position_of_view`) is what one seat (or
a spectator) may know: it is built from a view alone, and every card the seat cannot see is
written as a count (``?6``); :func:`determinize` deals those at random into a full game.

>>> from unokit.engine.game import Game
>>> game = Game("classic", 3, seed=7)
>>> text = game.position()
>>> Game.from_position(text).state_key() == game.state_key()
True
>>> public = public_position(game, 0)
>>> is_public(public), "?" in public.split(" hands=")[1].split(" ")[0]
(True, True)
>>> determinize(public, seed=1).view(0).hand == game.view(0).hand
True
"""

from __future__ import annotations

import base64
import random
import re
import struct
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from unokit.engine.actions import MAX_PLAYERS, ActionType
from unokit.engine.cards import (
    CARD_COLOUR,
    CARD_KIND,
    COLOUR_LETTERS,
    NO_COLOUR,
    card_name,
    parse_card,
)
from unokit.engine.edition import Edition, Unseen, get_edition
from unokit.engine.errors import NotationError, PositionError, SetupError, UnoError
from unokit.engine.knowledge import known_cards
from unokit.engine.phases import (
    CHALLENGE,
    DISCARD,
    DRAWN,
    EDITION_OPS,
    EDITION_PHASES,
    HOUSE_OP_NAMES,
    HOUSE_OPS,
    HOUSE_PHASE_NAMES,
    HOUSE_PHASES,
    OP_NAMES,
    OVER,
    PHASE_NAMES,
    TARGET,
    TURN,
)
from unokit.engine.rules import OPTIONS, Rules

if TYPE_CHECKING:
    from unokit.engine.game import Game
    from unokit.engine.views import View

__all__ = [
    "FIELDS",
    "MAX_POSITION_LENGTH",
    "VERSION",
    "Cards",
    "Position",
    "PositionError",
    "Unseen",
    "determinize",
    "escape_text",
    "format_position",
    "from_position",
    "game_of",
    "is_public",
    "parse_position",
    "position",
    "position_of",
    "public_position",
    "public_position_of_view",
    "unescape_text",
]

VERSION = 1
"""The notation's version: the value of the first field, ``unopos``."""

MAX_POSITION_LENGTH = 65_536
"""The most characters a position may hold: longer text is refused before it is read."""

FIELDS = (
    "unopos",
    "edition",
    "players",
    "rules",
    "seed",
    "moves",
    "round",
    "dealer",
    "scores",
    "knocked",
    "winner",
    "direction",
    "turn",
    "actor",
    "phase",
    "ops",
    "colour",
    "hands",
    "draw",
    "discard",
    "exposed",
    "armed",
    "drawn",
    "bluff",
    "discards",
    "target",
    "skips",
    "stalls",
    "extra",
    "house",
    "rng",
)
"""Every field of a position, in the order they are written."""

_PLAY_UNO = int(ActionType.PLAY_UNO)
SEVEN_SWAP = 7
"""The target kind of the house rule ``seven_swap`` (a 7: see :mod:`unokit.editions.house`)."""

_NONE = "-"
_UNKNOWN = "?"


@dataclass(frozen=True)
class Cards:
    """A hand or a pile: the cards known, in order (a pile: top first), and how many more nobody may see
    (a public position's; 0 in a full one)."""

    cards: tuple[int, ...] = ()
    unknown: int = 0

    def __len__(self) -> int:
        return len(self.cards) + self.unknown


@dataclass(frozen=True, eq=True)
class Position:
    """A position read (:func:`parse_position`) or taken from a game (:func:`position_of`): every field's
    value.  ``None`` where a public position does not know (``seed``, ``drawn``, ``bluff``, ``rng``)."""

    edition: str
    players: int
    rules: Rules
    seed: int | None
    moves: int
    """Decisions taken in the match so far (:attr:`Game.moves <unokit.engine.game.Game.moves>`: they rank the
    seats asked out of turn, :mod:`unokit.engine.order`)."""
    round: int
    dealer: int
    scores: tuple[int, ...]
    knocked: tuple[int, ...]
    winner: int
    direction: int
    turn: int
    actor: int
    phase: str
    ops: tuple[tuple[int, int, int], ...]
    """The pending operations as the game keeps them: the last runs first."""
    colour: int
    hands: tuple[Cards, ...]
    draw: Cards
    """The draw pile, top first."""
    discard: Cards
    """The discard pile, top first."""
    exposed: tuple[int, ...]
    armed: bool
    drawn: int | None
    bluffer: int
    bluff: bool | None
    bluff_colour: int
    discards: int
    target: int
    skips: tuple[int, ...]
    stalls: int
    extra: dict[str, Any] = field(hash=False)
    house: dict[str, int | tuple[int, ...]] = field(hash=False)
    rng: tuple[Any, ...] | str | None
    """``random.Random.getstate()``'s tuple, ``"seed"`` (random from :attr:`seed`) or ``None`` (unknown)."""
    version: int = VERSION

    @property
    def public(self) -> bool:
        """Whether something is unknown (a public position)."""
        return (
            self.seed is None
            or self.rng is None
            or self.drawn is None
            or self.bluff is None
            or any(hand.unknown for hand in self.hands)
            or self.draw.unknown > 0
            or self.discard.unknown > 0
            or any(_has_unseen(value) for value in self.extra.values())
        )


def _has_unseen(value: Any) -> bool:
    return isinstance(value, Unseen) or (isinstance(value, tuple) and any(v is None for v in value))


# ---------------------------------------------------------------- small encodings

_INT = re.compile(r"-?[0-9]{1,12}")
_SEED = re.compile(r"-?[0-9]{1,40}")
_SAFE_TEXT = frozenset(".!+-'*&#@$^~")


def _int(field: str, text: str, low: int | None = None, high: int | None = None, what: str = "a number") -> int:
    if not _INT.fullmatch(text):
        raise PositionError(field, f"{text[:40]!r} is not {what}")
    value = int(text)
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"from {low}" if high is None else f"from {low} to {high}" if low is not None else f"up to {high}"
        raise PositionError(field, f"{value} is out of range ({what} {bounds})")
    return value


def _seat_or_none(value: int) -> str:
    return _NONE if value < 0 else str(value)


def _ints_text(values: Sequence[int]) -> str:
    return ",".join(map(str, values)) if values else _NONE


def _read_ints(field: str, text: str, low: int | None = None, high: int | None = None) -> tuple[int, ...]:
    if text == _NONE:
        return ()
    return tuple(_int(field, part, low, high) for part in text.split(","))


def escape_text(text: str) -> str:
    """``text`` as one token of a position: a space is ``_``; letters, digits and ``.!+-'*&#@$^~``
    stay; any other character is ``%`` and two hex digits per UTF-8 byte.

    >>> escape_text("Draw 2, then 50% off")
    'Draw_2%2C_then_50%25_off'
    """
    out: list[str] = []
    for char in text:
        if char == " ":
            out.append("_")
        elif (char.isalnum() and char.isprintable()) or char in _SAFE_TEXT:
            out.append(char)
        else:
            out.extend(f"%{byte:02X}" for byte in char.encode("utf-8"))
    return "".join(out)


def unescape_text(field: str, token: str) -> str:
    """The text :func:`escape_text` wrote as ``token``; :class:`PositionError` (naming ``field``) if malformed."""
    data = bytearray()
    index = 0
    while index < len(token):
        char = token[index]
        if char == "%":
            pair = token[index + 1 : index + 3]
            if not re.fullmatch(r"[0-9A-Fa-f]{2}", pair):
                raise PositionError(field, f"malformed escape {token[index : index + 3]!r} in {token!r}")
            data.append(int(pair, 16))
            index += 3
            continue
        if char == "_":
            data.extend(b" ")
        elif (char.isalnum() and char.isprintable()) or char in _SAFE_TEXT:
            data.extend(char.encode("utf-8"))
        else:
            raise PositionError(field, f"character {char!r} must be escaped in {token!r}")
        index += 1
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise PositionError(field, f"{token!r} is not UTF-8 text once unescaped") from None


def _card(field: str, text: str) -> int:
    try:
        return parse_card(text)
    except NotationError:
        raise PositionError(field, f"unknown card {text!r}") from None


def _cards_text(cards: Cards) -> str:
    parts = [card_name(c) for c in cards.cards]
    if cards.unknown:
        parts.append(f"{_UNKNOWN}{cards.unknown}")
    return ",".join(parts) if parts else _NONE


def _read_cards(field: str, text: str) -> Cards:
    if text == _NONE:
        return Cards()
    known: list[int] = []
    unknown = 0
    parts = text.split(",")
    for index, part in enumerate(parts):
        if part.startswith(_UNKNOWN):
            if index != len(parts) - 1:
                raise PositionError(field, f"the count of unknown cards ({part}) comes last")
            unknown = _int(field, part[1:], 1, 10_000, "a count of unknown cards")
        else:
            known.append(_card(field, part))
    return Cards(tuple(known), unknown)


def _colour_text(colour: int) -> str:
    return COLOUR_LETTERS[colour] if 0 <= colour < NO_COLOUR else _NONE


def _read_colour(field: str, text: str) -> int:
    if text == _NONE:
        return NO_COLOUR
    if len(text) == 1 and text.upper() in COLOUR_LETTERS:
        return COLOUR_LETTERS.index(text.upper())
    raise PositionError(field, f"unknown colour {text!r} (a colour letter {', '.join(COLOUR_LETTERS)} or -)")


# ---------------------------------------------------------------- rules


def _rules_text(rules: Rules) -> str:
    parts: list[str] = []
    for name, value in rules.to_dict().items():
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif name == "deck":
            text = ",".join(f"{escape_text(card)}*{count}" for card, count in value) if value else _NONE
        elif isinstance(value, list):
            text = ",".join(map(str, value))
        else:
            text = str(value)
        parts.append(f"{name}:{text}")
    return ";".join(parts) if parts else _NONE


def _read_rules(text: str) -> Rules:
    if text == _NONE:
        return Rules()
    options: dict[str, Any] = {}
    for part in text.split(";"):
        name, colon, value = part.partition(":")
        if not colon:
            raise PositionError("rules", f"{part!r} is not option:value")
        if name in options:
            raise PositionError("rules", f"option {name!r} is given twice")
        spec = OPTIONS.get(name)
        if spec is None:
            known = ", ".join(sorted(OPTIONS))
            raise PositionError("rules", f"unknown rule option {name!r}; known: {known}")
        options[name] = _option_value(name, spec.kind, value)
    try:
        return Rules.from_dict(options)
    except UnoError as error:
        raise PositionError("rules", str(error)) from None


def _option_value(name: str, kind: str, text: str) -> Any:
    if kind == "bool":
        if text not in ("true", "false"):
            raise PositionError("rules", f"rule option {name!r}: must be true or false, not {text!r}")
        return text == "true"
    if kind == "int":
        return _int("rules", text, what=f"a whole number (rule option {name!r})")
    if kind == "float":
        if not re.fullmatch(r"[0-9]{1,6}(\.[0-9]{1,17})?(e-?[0-9]{1,3})?", text):
            raise PositionError("rules", f"rule option {name!r}: {text!r} is not a number")
        return float(text) if any(c in text for c in ".e") else int(text)
    if kind == "ints":
        return tuple(_int("rules", part, what=f"a whole number (rule option {name!r})") for part in text.split(","))
    if kind == "deck":
        if text == _NONE:
            return ()
        pairs = []
        for item in text.split(","):
            card, star, count = item.partition("*")
            if not star:
                raise PositionError("rules", f"rule option 'deck': {item!r} is not card*count")
            pairs.append((unescape_text("rules", card), _int("rules", count, what="a count (rule option 'deck')")))
        return tuple(pairs)
    return text


# ---------------------------------------------------------------- the generator


def _rng_text(state: tuple[Any, ...] | str | None) -> str:
    if state is None:
        return _UNKNOWN
    if isinstance(state, str):
        return state
    _version, words, gauss = state
    packed = struct.pack(f">{len(words)}I", *words)
    text = "mt:" + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")
    if gauss is not None:
        text += ":g" + float(gauss).hex()
    return text


_RNG_WORDS = 625
_RNG_CHARS = (_RNG_WORDS * 4 * 4 + 2) // 3


def _read_rng(text: str) -> tuple[Any, ...] | str | None:
    if text == _UNKNOWN:
        return None
    if text == "seed":
        return "seed"
    kind, _, rest = text.partition(":")
    if kind != "mt":
        raise PositionError("rng", f"{text[:20]!r} is not mt:STATE, seed or ?")
    encoded, _, gauss_text = rest.partition(":")
    if len(encoded) != _RNG_CHARS or not re.fullmatch(r"[A-Za-z0-9_-]+", encoded):
        raise PositionError("rng", f"the state is {_RNG_CHARS} characters of URL-safe base64, not {len(encoded)}")
    try:
        packed = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4))
    except ValueError:
        raise PositionError("rng", "the state is not base64") from None
    words = struct.unpack(f">{_RNG_WORDS}I", packed)
    if not 1 <= words[-1] <= 624:
        raise PositionError("rng", f"the state's index {words[-1]} is not from 1 to 624")
    if not any(words[:-1]):
        raise PositionError("rng", "the state's words are all zero")
    gauss: float | None = None
    if gauss_text:
        if not gauss_text.startswith("g"):
            raise PositionError("rng", f"{gauss_text!r} is not gHEXFLOAT")
        try:
            gauss = float.fromhex(gauss_text[1:])
        except ValueError:
            raise PositionError("rng", f"{gauss_text!r} is not gHEXFLOAT") from None
    return (3, words, gauss)


# ---------------------------------------------------------------- edition and house entries


def _extra_text(edition: Edition, extra: dict[str, Any]) -> str:
    parts = []
    for name, kind in edition.extra_fields.items():
        value = extra[name]
        if isinstance(value, Unseen):
            text = f"{_UNKNOWN}{value.count}"
        elif kind == "int":
            text = str(value)
        elif kind == "texts":
            text = ",".join(_UNKNOWN if t is None else escape_text(t) for t in value) if value else _NONE
        else:
            text = _ints_text(value)
        parts.append(f"{name}:{text}")
    return ";".join(parts) if parts else _NONE


def _read_entries(field: str, text: str, names: Sequence[str], required: Sequence[str] | None = None) -> dict[str, str]:
    """``name:value`` entries joined by ``;``: each of ``required`` (default: every one of ``names``)
    once, others of ``names`` at most once, no other."""
    if text == _NONE:
        entries: dict[str, str] = {}
    else:
        entries = {}
        for part in text.split(";"):
            name, colon, value = part.partition(":")
            if not colon:
                raise PositionError(field, f"{part!r} is not name:value")
            if name not in names:
                raise PositionError(field, f"unknown entry {name!r}; entries: {', '.join(names) or 'none'}")
            if name in entries:
                raise PositionError(field, f"entry {name!r} is given twice")
            entries[name] = value
    missing = [name for name in (names if required is None else required) if name not in entries]
    if missing:
        raise PositionError(field, f"missing entries: {', '.join(missing)}")
    return entries


def _read_extra(edition: Edition, text: str) -> dict[str, Any]:
    kinds = edition.extra_fields
    entries = _read_entries("extra", text, tuple(kinds))
    extra: dict[str, Any] = {}
    for name, kind in kinds.items():
        value = entries[name]
        if kind != "int" and re.fullmatch(r"\?[0-9]{1,6}", value):
            extra[name] = Unseen(int(value[1:]))
        elif kind == "int":
            extra[name] = _int("extra", value, what=f"a whole number (entry {name!r})")
        elif kind == "texts":
            extra[name] = (
                ()
                if value == _NONE
                else tuple(None if t == _UNKNOWN else unescape_text("extra", t) for t in value.split(","))
            )
        else:
            items = _read_ints("extra", value)
            extra[name] = list(items) if kind == "list" else items
    return extra


def _house_text(house: dict[str, int | tuple[int, ...]]) -> str:
    parts = [f"{name}:{value if isinstance(value, int) else _ints_text(value)}" for name, value in house.items()]
    return ";".join(parts) if parts else _NONE


@lru_cache(maxsize=256)
def _house_kinds(edition: str, players: int, rules: Rules) -> tuple[tuple[str, bool], ...]:
    """The house state's entries of a game of these rules (``knocked`` aside: a field of its own), each
    with whether it is a tuple."""
    from unokit.engine.game import Game

    blank = Game.blank(edition, players, 0, rules)
    return tuple((name, isinstance(value, tuple)) for name, value in blank.house_state().items() if name != "knocked")


def _house_kinds_checked(edition: str, players: int, rules: Rules) -> tuple[tuple[str, bool], ...]:
    """:func:`_house_kinds`, refusing a table the rules cannot seat (``players`` or ``rules`` named)."""
    from unokit.engine.game import check_teams

    if rules.teams:
        try:
            check_teams(players)
        except SetupError as error:
            raise PositionError("players", str(error)) from None
    try:
        return _house_kinds(edition, players, rules)
    except UnoError as error:
        raise PositionError("rules", str(error)) from None


# ---------------------------------------------------------------- phases and operations


def _phase_names(edition: Edition) -> tuple[str, ...]:
    return (*PHASE_NAMES, *edition.phase_names)


def _phase_number(edition: Edition, name: str) -> int:
    if name in HOUSE_PHASE_NAMES:
        return HOUSE_PHASES + HOUSE_PHASE_NAMES.index(name)
    return _phase_names(edition).index(name)


def _op_name(edition: Edition, op: int) -> str:
    if op >= HOUSE_OPS:
        return HOUSE_OP_NAMES[op - HOUSE_OPS]
    if op >= EDITION_OPS:
        return edition.op_names[op]
    return OP_NAMES[op]


def _op_numbers(edition: Edition) -> dict[str, int]:
    numbers = {name: op for op, name in enumerate(OP_NAMES)}
    numbers.update({name: op for op, name in edition.op_names.items()})
    numbers.update({name: HOUSE_OPS + i for i, name in enumerate(HOUSE_OP_NAMES)})
    return numbers


def _ops_text(edition: Edition, ops: Sequence[tuple[int, int, int]]) -> str:
    return ",".join(f"{_op_name(edition, op)}:{seat}:{arg}" for op, seat, arg in reversed(ops)) if ops else _NONE


def _read_ops(edition: Edition, text: str) -> tuple[tuple[int, int, int], ...]:
    if text == _NONE:
        return ()
    numbers = _op_numbers(edition)
    ops = []
    for part in text.split(","):
        pieces = part.split(":")
        if len(pieces) != 3:
            raise PositionError("ops", f"{part!r} is not name:seat:argument")
        name, seat, arg = pieces
        if name not in numbers:
            raise PositionError("ops", f"unknown operation {name!r}; known: {', '.join(sorted(numbers))}")
        ops.append((numbers[name], _int("ops", seat, -1, MAX_PLAYERS - 1, "a seat"), _int("ops", arg, -1, 999)))
    return tuple(reversed(ops))


# ---------------------------------------------------------------- writing


def format_position(p: Position) -> str:
    """The text of position ``p`` (:func:`parse_position` reads it back equal)."""
    edition = get_edition(p.edition)
    values = {
        "unopos": str(p.version),
        "edition": p.edition,
        "players": str(p.players),
        "rules": _rules_text(p.rules),
        "seed": _UNKNOWN if p.seed is None else str(p.seed),
        "moves": str(p.moves),
        "round": str(p.round),
        "dealer": str(p.dealer),
        "scores": _ints_text(p.scores),
        "knocked": _ints_text(p.knocked),
        "winner": _seat_or_none(p.winner),
        "direction": str(p.direction),
        "turn": _seat_or_none(p.turn),
        "actor": _seat_or_none(p.actor),
        "phase": p.phase,
        "ops": _ops_text(edition, p.ops),
        "colour": _colour_text(p.colour),
        "hands": "/".join(_cards_text(hand) for hand in p.hands),
        "draw": _cards_text(p.draw),
        "discard": _cards_text(p.discard),
        "exposed": _ints_text(p.exposed),
        "armed": "1" if p.armed else "0",
        "drawn": _UNKNOWN if p.drawn is None else _NONE if p.drawn < 0 else card_name(p.drawn),
        "bluff": ":".join(
            (
                _seat_or_none(p.bluffer),
                _UNKNOWN if p.bluff is None else "1" if p.bluff else "0",
                _colour_text(p.bluff_colour),
            )
        ),
        "discards": str(p.discards),
        "target": _seat_or_none(p.target),
        "skips": _ints_text(p.skips),
        "stalls": str(p.stalls),
        "extra": _extra_text(edition, p.extra),
        "house": _house_text(p.house),
        "rng": _rng_text(p.rng),
    }
    return " ".join(f"{name}={values[name]}" for name in FIELDS)


def position_of(game: Game, *, generator: bool = True) -> Position:
    """Every field of ``game``'s state (the generator's exact state with ``generator``, else "random
    from the seed")."""
    rng: tuple[Any, ...] | str = "seed"
    if generator:
        if type(game.rng) is not random.Random:
            raise PositionError(
                "rng",
                "a scripted generator (a record's list of random results) has no state to write: "
                "write the position with generator=False (random from the seed)",
            )
        rng = game.rng.getstate()
    house = {name: value for name, value in game.house_state().items() if name != "knocked"}
    jump_seen = _jump_seen(game)
    if jump_seen is not None:
        house["jump_seen"] = int(jump_seen)
    return Position(
        edition=game.edition.name,
        players=game.n,
        rules=game.rules,
        seed=game.seed,
        moves=game.moves,
        round=game.round,
        dealer=game.dealer,
        scores=tuple(game.scores),
        knocked=tuple(game.knocked),
        winner=game.winner,
        direction=game.direction,
        turn=game.turn,
        actor=game.actor,
        phase=game.phase_name,
        ops=tuple(game.ops),
        colour=game.colour,
        hands=tuple(Cards(tuple(hand)) for hand in game.hands),
        draw=Cards(tuple(reversed(game.draw_pile))),
        discard=Cards(tuple(reversed(game.discard_pile))),
        exposed=tuple(game.exposed),
        armed=game.window_armed,
        drawn=game.drawn,
        bluffer=game.bluffer,
        bluff=game.bluff,
        bluff_colour=game.bluff_colour,
        discards=game.discards_left,
        target=game.target_kind,
        skips=tuple(game.turn_skips),
        stalls=game.stalls,
        extra={name: _copy(game.extra[name]) for name in game.edition.extra_fields},
        house=house,
        rng=rng,
    )


def _copy(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


def _jump_seen(game: Game) -> bool | None:
    """With Jump-In and a play being resolved (``jump_next``): whether its play is still the last card
    played (the window may open on it); ``None`` otherwise."""
    if not getattr(game, "jumping", False) or getattr(game, "jump_next", -1) < 0:
        return None
    return _last_play_is(game.events, game.jump_next_from, game.jump_next, getattr(game, "jump_seen_at_load", False))  # type: ignore[attr-defined]


def _last_play_is(events: Sequence[Any], seat: int, card: int, before: bool) -> bool:
    """Whether the last card put on the discard pile in ``events`` is ``card`` played by ``seat``, as
    the Jump-In window reads it (``before``: the answer for events before the first)."""
    for kind, who, value, data in reversed(events):
        if kind == "play":
            return bool(who == seat and data[0] == card)
        if kind == "flip" or (kind == "discard" and value == 1):
            return False
    return before


def position(game: Game, *, generator: bool = True) -> str:
    """``game``'s position as text (see :meth:`Game.position`)."""
    return format_position(position_of(game, generator=generator))


# ---------------------------------------------------------------- reading


def _check_text(text: object) -> str:
    if not isinstance(text, str):
        raise PositionError("text", f"a position is text, not {type(text).__name__}")
    if len(text) > MAX_POSITION_LENGTH:
        raise PositionError(
            "text", f"{len(text)} characters is more than the {MAX_POSITION_LENGTH} a position may hold"
        )
    text = text.strip(" ")
    if not text:
        raise PositionError("text", "the position is empty")
    for index, char in enumerate(text):
        if not char.isprintable():
            raise PositionError("text", f"character {char!a} at {index} is not printable")
    return text


def parse_position(text: str) -> Position:
    """Read a position's text; :class:`PositionError` names a field that cannot be read.

    Only the text is checked here (each value's form, every field once); :func:`game_of` checks
    that the position can happen."""
    text = _check_text(text)
    values: dict[str, str] = {}
    for token in text.split(" "):
        name, equals, value = token.partition("=")
        if not equals:
            raise PositionError("text", f"{token[:40]!r} is not name=value (fields are separated by one space)")
        if name not in FIELDS:
            raise PositionError("text", f"unknown field {name[:40]!r}")
        if name in values:
            raise PositionError(name, "the field is given twice")
        if not value:
            raise PositionError(name, "the value is empty (write - for none)")
        values[name] = value
    missing = [name for name in FIELDS if name not in values]
    if missing:
        raise PositionError(missing[0], f"the field is missing (missing: {', '.join(missing)})")
    get = values.__getitem__
    version = _int("unopos", get("unopos"), what="a version")
    if version != VERSION:
        raise PositionError("unopos", f"unknown version {version}; this unokit reads version {VERSION}")
    try:
        edition = get_edition(get("edition"))
    except UnoError as error:
        raise PositionError("edition", str(error)) from None
    players = _int("players", get("players"), 2, MAX_PLAYERS, "a player count")
    rules = _read_rules(get("rules"))
    seat = MAX_PLAYERS - 1
    seed_text = get("seed")
    if seed_text != _UNKNOWN and not _SEED.fullmatch(seed_text):
        raise PositionError("seed", f"{seed_text[:50]!r} is not a whole number or ?")
    hands_text = get("hands").split("/")
    if len(hands_text) != players:
        raise PositionError("hands", f"{len(hands_text)} hands for {players} players (hands are separated by /)")
    bluff = get("bluff").split(":")
    if len(bluff) != 3:
        raise PositionError("bluff", "the value is bluffer:guilty:colour (e.g. 2:1:R or -:0:-)")
    if bluff[1] not in ("0", "1", _UNKNOWN):
        raise PositionError("bluff", f"guilty is 0, 1 or ?, not {bluff[1]!r}")
    drawn_text = get("drawn")
    armed = get("armed")
    if armed not in ("0", "1"):
        raise PositionError("armed", f"armed is 0 or 1, not {armed!r}")
    direction = _int("direction", get("direction"), -1, 1, "a direction")
    if direction == 0:
        raise PositionError("direction", "the direction is 1 (to the left) or -1 (to the right)")
    phase = get("phase")
    if phase not in (*_phase_names(edition), *HOUSE_PHASE_NAMES):
        known = ", ".join((*_phase_names(edition), *HOUSE_PHASE_NAMES))
        raise PositionError("phase", f"unknown phase {phase!r} of {edition.title}; known: {known}")
    kinds = dict(_house_kinds_checked(edition.name, players, rules))
    optional = ("jump_seen",) if rules.jump_in else ()
    entries = _read_entries("house", get("house"), (*kinds, *optional), required=tuple(kinds))
    house: dict[str, int | tuple[int, ...]] = {
        name: _read_ints("house", value) if kinds.get(name) else _int("house", value, what=f"a whole number ({name})")
        for name, value in entries.items()
    }
    return Position(
        edition=edition.name,
        players=players,
        rules=rules,
        seed=None if seed_text == _UNKNOWN else int(seed_text),
        moves=_int("moves", get("moves"), 0, None, "a count of decisions"),
        round=_int("round", get("round"), 1, None, "a round number"),
        dealer=_int("dealer", get("dealer"), 0, players - 1, "a seat"),
        scores=_read_ints("scores", get("scores")),
        knocked=_read_ints("knocked", get("knocked"), 0, seat),
        winner=_seat("winner", get("winner"), players),
        direction=direction,
        turn=_seat("turn", get("turn"), players),
        actor=_seat("actor", get("actor"), players),
        phase=phase,
        ops=_read_ops(edition, get("ops")),
        colour=_read_colour("colour", get("colour")),
        hands=tuple(_read_cards("hands", hand) for hand in hands_text),
        draw=_read_cards("draw", get("draw")),
        discard=_read_cards("discard", get("discard")),
        exposed=_read_ints("exposed", get("exposed"), 0, seat),
        armed=armed == "1",
        drawn=None if drawn_text == _UNKNOWN else -1 if drawn_text == _NONE else _card("drawn", drawn_text),
        bluffer=_seat("bluff", bluff[0], players),
        bluff=None if bluff[1] == _UNKNOWN else bluff[1] == "1",
        bluff_colour=_read_colour("bluff", bluff[2]),
        discards=_int("discards", get("discards"), 0, 10_000, "a count"),
        target=-1 if get("target") == _NONE else _int("target", get("target"), 0, None, "a target kind"),
        skips=_read_ints("skips", get("skips"), 0, 10_000),
        stalls=_int("stalls", get("stalls"), 0, MAX_PLAYERS, "a count of turns"),
        extra=_read_extra(edition, get("extra")),
        house=house,
        rng=_read_rng(get("rng")),
        version=version,
    )


def _seat(field: str, text: str, players: int) -> int:
    if text == _NONE:
        return -1
    return _int(field, text, 0, players - 1, "a seat")


# ---------------------------------------------------------------- loading


def from_position(text: str) -> Game:
    """The game of a full position's ``text`` (see :meth:`Game.from_position`)."""
    return game_of(parse_position(text))


def game_of(p: Position) -> Game:
    """The game of full position ``p``, every field checked; :class:`PositionError` if it cannot happen
    (a public position is refused: :func:`determinize` completes it)."""
    if p.public:
        raise PositionError(_first_unknown(p), "a public position has unknown parts: determinize() completes it")
    return _build(p)


def _first_unknown(p: Position) -> str:
    checks: tuple[tuple[str, bool], ...] = (
        ("seed", p.seed is None),
        ("hands", any(hand.unknown for hand in p.hands)),
        ("draw", p.draw.unknown > 0),
        ("discard", p.discard.unknown > 0),
        ("drawn", p.drawn is None),
        ("bluff", p.bluff is None),
        ("extra", any(_has_unseen(value) for value in p.extra.values())),
    )
    return next((name for name, unknown in checks if unknown), "rng")


def _build(p: Position) -> Game:
    from unokit.engine.game import Game, check_teams

    edition = get_edition(p.edition)
    n = p.players
    assert p.seed is not None
    if p.rules.teams:
        try:
            check_teams(n)
        except SetupError as error:
            raise PositionError("players", str(error)) from None
    try:
        game = Game.blank(edition, n, p.seed, p.rules)
    except UnoError as error:
        raise PositionError("rules", str(error)) from None
    _check_table(game, p)
    game.round = p.round
    game.moves_before = p.moves
    game.dealer = p.dealer
    game.scores = list(p.scores)
    game.knocked = p.knocked
    game.players_in = n - len(p.knocked)
    game.winner = p.winner
    game.direction = p.direction
    game.turn = p.turn
    game.actor = p.actor
    game.phase = _phase_number(edition, p.phase)
    game.ops = list(p.ops)
    game.colour = p.colour
    game.hands = [list(hand.cards) for hand in p.hands]
    game.draw_pile = list(reversed(p.draw.cards))
    game.discard_pile = list(reversed(p.discard.cards))
    game.exposed = list(p.exposed)
    game.window_armed = p.armed
    assert p.drawn is not None and p.bluff is not None
    game.drawn = p.drawn
    game.bluffer = p.bluffer
    game.bluff = p.bluff
    game.bluff_colour = p.bluff_colour
    game.discards_left = p.discards
    game.target_kind = p.target
    game.turn_skips = list(p.skips)
    game.pending_skips = sum(p.skips)
    game.stalls = p.stalls
    game.extra = {name: _copy(value) for name, value in p.extra.items()}
    problem = edition.check_extra(game)
    if problem is not None:
        raise PositionError("extra", f"entry {problem[0]!r}: {problem[1]}")
    _restore_house(game, p)
    _check_cards(game, p)
    _check_phase(game, p)
    if isinstance(p.rng, tuple):
        try:
            game.rng.setstate(p.rng)
        except (ValueError, TypeError, OverflowError) as error:
            raise PositionError("rng", f"not a generator state ({error})") from None
    return game


def _check_table(game: Game, p: Position) -> None:
    """The fields about seats, scores and the match."""
    n = p.players
    if len(p.scores) != n:
        raise PositionError("scores", f"{len(p.scores)} scores for {n} players")
    if any(score < 0 for score in p.scores):
        raise PositionError("scores", "a score is never negative")
    knocked = p.knocked
    if knocked:
        if game.scoring != "knockout":
            raise PositionError("knocked", f"seats are knocked out only with knockout scoring, not {game.scoring}")
        if list(knocked) != sorted(set(knocked)) or knocked[-1] >= n:
            raise PositionError("knocked", f"seats knocked out are distinct seats from 0 to {n - 1}, in order")
        if len(knocked) >= n:
            raise PositionError("knocked", "at least one player is left in the match")
    over = p.phase == "over"
    if over and p.winner < 0:
        raise PositionError("phase", "phase over needs the match's winner")
    if p.winner >= 0 and not over:
        raise PositionError("winner", "the match has a winner only once it is over (phase over)")
    if over:
        if p.turn != -1 or p.actor != -1:
            raise PositionError("actor" if p.turn == -1 else "turn", "nobody is to play once the match is over (-)")
    else:
        for name, seat in (("turn", p.turn), ("actor", p.actor)):
            if seat < 0:
                raise PositionError(name, "a seat is to play while the match is on")
            if seat in knocked:
                raise PositionError(name, f"seat {seat} is knocked out of the match")
        if p.dealer in knocked:
            raise PositionError("dealer", f"seat {p.dealer} is knocked out of the match")
    if len(p.skips) != n:
        raise PositionError("skips", f"{len(p.skips)} counts for {n} players")
    if any(seat >= n for _, seat, _ in p.ops):
        raise PositionError("ops", f"a seat of a pending operation is not a seat of {n} players")
    if p.stalls > n:
        raise PositionError("stalls", f"{p.stalls} turns without a card is more than the {n} players")
    edition = game.edition
    if p.colour != NO_COLOUR and p.colour not in edition.colours:
        raise PositionError("colour", f"{COLOUR_LETTERS[p.colour]} is not a colour of {edition.title}")
    if p.colour != NO_COLOUR and not edition.colours_matter:
        raise PositionError("colour", f"{edition.title} has no colour in play (-)")
    if p.bluff_colour != NO_COLOUR and p.bluff_colour not in edition.colours:
        raise PositionError("bluff", f"{COLOUR_LETTERS[p.bluff_colour]} is not a colour of {edition.title}")
    phase = p.phase
    if phase in HOUSE_PHASE_NAMES and not p.rules.house_on:
        raise PositionError("phase", f"phase {phase} belongs to a house rule, and none is on")
    if phase == "stack" and p.rules.stacking == "off":
        raise PositionError("phase", "phase stack needs the house rule stacking")
    if phase == "multi" and p.rules.multi_play == "off":
        raise PositionError("phase", "phase multi needs the house rule multi_play")


def _restore_house(game: Game, p: Position) -> None:
    house: dict[str, Any] = {name: value for name, value in p.house.items() if name != "jump_seen"}
    n = p.players
    for name, value in house.items():
        if isinstance(value, tuple):
            if name == "out":
                if list(value) != sorted(set(value)) or any(not 0 <= s < n for s in value):
                    raise PositionError("house", f"entry 'out': distinct seats from 0 to {n - 1}, in order")
                if not set(p.knocked) <= set(value):
                    raise PositionError("house", "entry 'out': the seats knocked out of the match are out of the round")
            elif len(value) != n or any(v < 0 for v in value):
                raise PositionError("house", f"entry {name!r}: {n} counts, none negative")
        elif name in ("stack_total", "multi_count") and value < 0:
            raise PositionError("house", f"entry {name!r} is never negative")
        elif name in ("jump_card", "jump_next") and value != -1 and (value not in game.edition.faces):
            raise PositionError("house", f"entry {name!r}: {value} is not a card of {game.edition.title} (or -1)")
        elif name in ("jump_from", "jump_next_from") and not -1 <= value < n:
            raise PositionError("house", f"entry {name!r}: {value} is not a seat (or -1)")
        elif name == "stack_kind" and value != -1 and value not in getattr(game, "draw_values", {}):
            raise PositionError(
                "house", f"entry 'stack_kind': {value} is not the kind of a draw card that stacks (or -1)"
            )
    if house or p.knocked:
        game.restore_house_state({**house, "knocked": p.knocked})
    if "jump_seen" in p.house:
        if p.house["jump_seen"] not in (0, 1):
            raise PositionError("house", "entry 'jump_seen' is 0 or 1")
        if house.get("jump_next", -1) < 0:
            raise PositionError("house", "entry 'jump_seen' is written only while a play is resolved (jump_next)")
        game.jump_seen_at_load = p.house["jump_seen"] == 1  # type: ignore[attr-defined]
    elif house.get("jump_next", -1) >= 0:
        raise PositionError("house", "entry 'jump_seen' is needed while a play is resolved (jump_next)")
    if house.get("stack_total", 0) == 0 and house.get("stack_kind", -1) != -1:
        raise PositionError("house", "entry 'stack_kind' is -1 without a pending total")
    if p.phase == "stack" and house.get("stack_total", 0) <= 0:
        raise PositionError("phase", "phase stack needs a pending total (house entry stack_total)")


def _check_cards(game: Game, p: Position) -> None:
    """Every card is the edition's, and its deck is there exactly: hands, piles."""
    edition = game.edition
    faces = set(game.deck_cards)
    places = (*(("hands", hand) for hand in p.hands), ("draw", p.draw), ("discard", p.discard))
    for name, cards in places:
        for card in cards.cards:
            if card not in faces:
                raise PositionError(name, f"{edition.title}'s deck has no {card_name(card)}")
    if not p.discard.cards:
        raise PositionError("discard", "the discard pile holds at least the start card")
    held: Counter[int] = Counter()
    for _, cards in places:
        held.update(cards.cards)
    deck = Counter(game.deck_cards)
    if held != deck:
        extra = sorted((held - deck).elements())
        missing = sorted((deck - held).elements())
        words = []
        if extra:
            words.append("more than the deck holds: " + " ".join(card_name(c) for c in extra[:12]))
        if missing:
            words.append("missing: " + " ".join(card_name(c) for c in missing[:12]))
        field_name = next((name for name, cards in places if set(cards.cards) & set(extra)), "draw")
        raise PositionError(
            field_name, f"the cards are not {edition.title}'s deck of {len(game.deck_cards)}: {'; '.join(words)}"
        )
    out = set(getattr(game, "out", ()))
    for seat, hand in enumerate(p.hands):
        if seat in out and hand.cards:
            raise PositionError(
                "hands",
                f"seat {seat} is out ({'of the match' if seat in p.knocked else 'of the round'}) and holds no card",
            )
    exposed = p.exposed
    if len(set(exposed)) != len(exposed) or any(s >= p.players for s in exposed):
        raise PositionError("exposed", "distinct seats")
    for seat in exposed:
        if len(p.hands[seat].cards) != 1:
            raise PositionError("exposed", f"seat {seat} may be caught only holding one card")
    if exposed and not game.calls_uno:
        raise PositionError("exposed", "nobody is caught without calling UNO: silent UNO (call_uno false)")


_NO_OPS_PHASES = frozenset({"turn", "drawn", "challenge", "over", "stack", "multi"})
"""Phases asked with nothing pending: their answer ends the turn (or the match is over)."""
_TURN_ENDERS = frozenset({"end_turn", "begin", "end_round", "lever_end", "stack"})
"""Operations that end a turn (or the round, or pass a total on): one is pending in every other phase."""


def _check_phase(game: Game, p: Position) -> None:
    """A phase that can happen, with its details."""
    phase = game.phase
    actor = p.actor
    hand = p.hands[actor].cards if actor >= 0 else ()
    if (phase == DRAWN) != (p.drawn is not None and p.drawn >= 0):
        raise PositionError("drawn", "a drawn card is written exactly in phase drawn")
    if phase == DRAWN and p.drawn not in hand:
        raise PositionError("drawn", f"the drawn card {card_name(p.drawn or 0)} is not in seat {actor}'s hand")
    if p.bluffer >= p.players:
        raise PositionError("bluff", f"seat {p.bluffer} is not a seat")
    if phase == CHALLENGE:
        wd4 = game.edition.wild_draw_four_kind
        if wd4 < 0 or CARD_KIND[p.discard.cards[0]] != wd4:
            raise PositionError("phase", "phase challenge answers a Wild Draw Four on top of the discard pile")
        if p.bluffer < 0 or p.bluffer == actor:
            raise PositionError("bluff", "phase challenge needs the seat of the Wild Draw Four, not the challenger")
    if phase == DISCARD and not 1 <= p.discards <= len(hand):
        raise PositionError("discards", f"phase discard needs from 1 to {len(hand)} cards to discard")
    if phase == TARGET:
        kinds = set(game.edition.target_kinds) | ({SEVEN_SWAP} if p.rules.seven_swap else set())
        if p.target not in kinds:
            allowed = ", ".join(map(str, sorted(kinds))) or "none here"
            raise PositionError("target", f"phase target is for one of {allowed}, not {p.target}")
    if phase in (TURN, DRAWN) and game.colour == NO_COLOUR and game.edition.colours_matter:
        raise PositionError("colour", "a colour is in play once the round has begun")
    if p.phase in ("turn", "drawn", "stack", "multi") and actor != p.turn:
        raise PositionError("actor", f"in phase {p.phase} the seat asked is the one whose turn it is ({p.turn})")
    out = set(getattr(game, "out", ()))
    if phase != OVER and (p.turn in out or actor in out):
        raise PositionError("turn" if p.turn in out else "actor", "a seat out of the round is not asked to play")
    if phase != OVER and p.stalls >= game.players_in:
        raise PositionError("stalls", f"{p.stalls} turns without a card in a row block the round of {game.players_in}")
    names = {_op_name(game.edition, op) for op, _, _ in p.ops}
    if p.phase in _NO_OPS_PHASES:
        if names:
            raise PositionError("ops", f"nothing is pending in phase {p.phase} (-)")
    elif not names & _TURN_ENDERS and not (p.phase == "colour" and "challenge" in names):
        raise PositionError(
            "ops", f"phase {p.phase} is part of a turn: an operation ends it ({', '.join(sorted(_TURN_ENDERS))})"
        )
    if phase == OVER:
        return
    try:
        legal = game.legal_actions(actor)
    except (LookupError, ValueError, TypeError, AssertionError, NotImplementedError):
        legal = ()
    game._legal = None
    if not legal:
        raise PositionError("phase", f"seat {actor} has no legal action in phase {p.phase}")
    if p.phase in HOUSE_PHASE_NAMES and not any(game.actions.type_codes[a] <= _PLAY_UNO for a in legal):
        raise PositionError("phase", f"phase {p.phase} asks only a player holding a card that may be played")
    if p.phase == "multi" and p.house.get("multi_count", 0) == 0:
        raise PositionError("phase", "phase multi follows a card of the set (house entry multi_count)")
    if phase >= EDITION_PHASES and phase < HOUSE_PHASES and not game.edition.phase_names:
        raise PositionError("phase", f"{game.edition.title} has no phase {p.phase}")


# ---------------------------------------------------------------- public positions


def public_position(game: Game, seat: int | None) -> str:
    """What ``seat`` (``None``: a spectator) may know of ``game``, as a public position: built from its
    view alone (:func:`public_position_of_view`)."""
    return public_position_of_view(game.view(seat))


def public_position_of_view(view: View) -> str:
    """The public position of ``view``: its seat's own hand, every card the seat knows another holds
    (:func:`unokit.engine.knowledge.known_cards`, strictly), the rest of each hand and the draw pile as
    counts; no seed and no generator."""

    edition = get_edition(view.edition)
    state = view.state
    known = known_cards(view, strict=True)
    hands = []
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            hands.append(Cards(tuple(view.hand)))
            continue
        cards = tuple(sorted(known[seat].elements()))[:size]
        hands.append(Cards(cards, size - len(cards)))
    challenge = view.phase == "challenge"
    drawn: int | None = -1
    if view.phase == "drawn":
        drawn = view.drawn if view.drawn >= 0 else None
    kinds = _house_kinds(view.edition, view.players, view.rules)
    house: dict[str, int | tuple[int, ...]] = {name: state[name] for name, _ in kinds}
    if view.rules.jump_in and int(state.get("jump_next", -1)) >= 0:
        # (a history that reaches back to no card played is a loaded game's: the play being resolved is
        # taken as the last card played, as it is but after a lever's discard)
        house["jump_seen"] = int(_last_play_is(view.history, state["jump_next_from"], state["jump_next"], True))
    bluff_colour = state["bluff_colour"]
    p = Position(
        edition=view.edition,
        players=view.players,
        rules=view.rules,
        seed=None,
        moves=state["moves"],
        round=view.round,
        dealer=view.dealer,
        scores=tuple(view.scores),
        knocked=tuple(state.get("knocked", ())),
        winner=view.winner,
        direction=view.direction,
        turn=view.turn,
        actor=view.actor,
        phase=view.phase,
        ops=tuple(state["ops"]),
        colour=view.colour,
        hands=tuple(hands),
        draw=Cards((), view.draw_pile_size),
        discard=Cards(tuple(reversed(state["discard_pile"]))),
        exposed=tuple(view.uncalled),
        armed=bool(state["window_armed"]),
        drawn=drawn,
        bluffer=view.decision["bluffer"],
        bluff=None if challenge else False,
        bluff_colour=bluff_colour if bluff_colour >= 0 else NO_COLOUR,
        discards=view.decision["discards_left"],
        target=state["target_kind"],
        skips=tuple(state["turn_skips"]),
        stalls=state["stalls"],
        extra=edition.public_extra(state),
        house=house,
        rng=None,
    )
    return format_position(p)


def is_public(text: str) -> bool:
    """Whether position ``text`` is a public one (something in it is unknown); :class:`PositionError`
    if it cannot be read."""
    return parse_position(text).public


def determinize(text: str, seed: int) -> Game:
    """A full game consistent with position ``text``: every unknown card dealt at random (with ``seed``)
    from the cards not seen (the edition's deck less every card the position shows), the unknown parts
    of the edition's state drawn likewise, and a generator random from ``seed``.  A full position loads
    as it is (:func:`from_position`)."""
    p = parse_position(text)
    if not p.public:
        return _build(p)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError(f"seed must be an integer, not {seed!r}")
    rng = random.Random(f"determinize {seed}")
    edition = get_edition(p.edition)
    try:
        deck = Counter(edition.deck_cards(p.rules))
    except UnoError as refused:
        raise PositionError("rules", str(refused)) from None
    seen: Counter[int] = Counter()
    for cards in (*p.hands, p.draw, p.discard):
        seen.update(cards.cards)
    if seen - deck:
        extra = " ".join(card_name(c) for c in sorted((seen - deck).elements())[:12])
        raise PositionError("hands", f"more cards shown than {edition.title}'s deck holds: {extra}")
    pool = sorted((deck - seen).elements())
    wanted = sum(cards.unknown for cards in (*p.hands, p.draw, p.discard))
    if wanted != len(pool):
        raise PositionError("hands", f"{wanted} unknown cards, but {len(pool)} cards of the deck are not shown")
    why = ""
    for _ in range(_DEALS):
        deal = list(pool)
        rng.shuffle(deal)
        try:
            return _build(_dealt(p, edition, deal, seed, rng))
        except PositionError as refused:  # the deal does not fit the phase (a card the actor must hold): deal again
            if refused.field != "phase":
                raise
            why = refused.why
    raise PositionError("hands", f"no deal of the unknown cards fits: {why}")


_DEALS = 200
"""How many deals :func:`determinize` tries before it gives up on a phase that no deal fits."""


def _dealt(p: Position, edition: Edition, pool: list[int], seed: int, rng: random.Random) -> Position:
    """``p`` with its unknown cards dealt from ``pool`` (shuffled), its unknown parts drawn with ``rng``."""
    hands = [list(hand.cards) for hand in p.hands]
    unknown = [hand.unknown for hand in p.hands]
    drawn = p.drawn
    if drawn is None:
        actor = p.actor
        if not 0 <= actor < p.players or unknown[actor] < 1:
            raise PositionError("drawn", "an unknown drawn card is one of the actor's unknown cards")
        table = edition.playable_tables[p.colour * 32 + CARD_KIND[p.discard.cards[0]]] if p.discard.cards else b""
        fits = [c for c in pool if table and table[c]]
        drawn = rng.choice(fits) if fits else pool[-1]
        pool.remove(drawn)
        unknown[actor] -= 1
    for seat, count in enumerate(unknown):
        hands[seat] += pool[:count]
        del pool[:count]
    if p.drawn is None:
        hands[p.actor].append(drawn)
    draw = (*p.draw.cards, *pool[: p.draw.unknown])
    del pool[: p.draw.unknown]
    discard = (*p.discard.cards, *pool)
    bluff = p.bluff
    if bluff is None:
        bluffer = hands[p.bluffer] if 0 <= p.bluffer < p.players else []
        bluff = any(CARD_COLOUR[c] == p.bluff_colour for c in bluffer) if p.bluff_colour != NO_COLOUR else False
    return Position(
        **{
            **{name: getattr(p, name) for name in p.__dataclass_fields__},
            "seed": seed,
            "hands": tuple(Cards(tuple(hand)) for hand in hands),
            "draw": Cards(draw),
            "discard": Cards(discard),
            "drawn": drawn,
            "bluff": bluff,
            "extra": edition.complete_extra(p.extra, rng),
            "rng": "seed",
        }
    )
