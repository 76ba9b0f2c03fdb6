"""The WebSocket protocol: every client message checked against a table of fields.

A client frame is one JSON object of at most :data:`MAX_FRAME` bytes with a ``type``;
each type lists its fields, each with a kind and limits.  Anything else (bad JSON,
an unknown type or field, a missing field, a wrong type, a value out of range, a
string anywhere holding a lone surrogate such as the JSON escape ``\\udfff``, which
no UTF-8 text can carry) is a :class:`ProtocolError`, which the server answers with
an ``error`` of code ``malformed`` and nothing changes.

>>> parse_message('{"type": "join", "code": "ABCDEFG", "name": " Ann "}')
{'type': 'join', 'code': 'ABCDEFG', 'name': 'Ann'}
>>> parse_message('{"type": "join", "code": "ABCDEFG"}')
Traceback (most recent call last):
...
unokit.web.protocol.ProtocolError: join: missing field 'name'
>>> parse_message('{"type": "ping", "x": 1}')
Traceback (most recent call last):
...
unokit.web.protocol.ProtocolError: ping: unknown field 'x'
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, fields
from typing import Any

from unokit.engine.rules import Rules
from unokit.i18n import LANGUAGES
from unokit.web.core.chat import REACTIONS, clean_chat
from unokit.web.core.social import AVATARS, COLOURS, MAX_SIGNAL, SIGNAL_KINDS

__all__ = [
    "ERROR_CODES",
    "MAX_FRAME",
    "MAX_NAME",
    "MESSAGES",
    "ProtocolError",
    "clean_name",
    "parse_message",
]

MAX_FRAME = 8 * 1024
"""The largest client frame, in bytes (UTF-8)."""
MAX_NAME = 24
"""The longest display name, in characters."""
MAX_VERSION = 10**9
MAX_TIMER = 300
"""The longest turn timer a room may set, in seconds (the shortest, but 0 for none, is
``ServerSettings.min_timer``, checked by the room)."""

ERROR_CODES = (
    "malformed",
    "rate-limited",
    "not-found",
    "forbidden",
    "full",
    "started",
    "stale",
    "not-your-turn",
    "illegal",
    "bad-rule-card",
    "server",
)


class ProtocolError(ValueError):
    """A client message that does not follow the protocol."""


@dataclass(frozen=True)
class Field:
    """One field of a message: its kind (``str``, ``int``, ``bool``, ``name``, ``chat``,
    ``texts``, ``rules``, ``choice``), limits, and whether it may be left out."""

    kind: str
    required: bool = True
    max_length: int = 0
    minimum: int = 0
    maximum: int = 0
    choices: tuple[str, ...] = ()
    max_items: int = 0


def _text(max_length: int, required: bool = True) -> Field:
    return Field("str", required, max_length=max_length)


def _int(minimum: int, maximum: int, required: bool = True) -> Field:
    return Field("int", required, minimum=minimum, maximum=maximum)


_CODE = _text(16)
_VERSION = _int(0, MAX_VERSION)
EDITION_NAMES = ("classic", "wild-jackpot", "space-jam", "all-wild")
BOT_LEVELS = ("heuristic", "random", "ismcts", "learned")
_AVATAR = Field("choice", required=False, choices=AVATARS)
_COLOUR = Field("choice", required=False, choices=COLOURS)

_LANG = Field("choice", required=False, choices=LANGUAGES)
"""The language the connection is spoken to in (else the request's ``Accept-Language``, else English)."""

MESSAGES: dict[str, dict[str, Field]] = {
    "create": {
        "name": Field("name"),
        "edition": Field("choice", choices=EDITION_NAMES),
        "seats": _int(2, 10),
        "rules": Field("rules", required=False),
        "bot": Field("choice", required=False, choices=BOT_LEVELS),
        "timer": _int(0, MAX_TIMER, required=False),
        "public": Field("bool", required=False),
        "late_join": Field("bool", required=False),
        "tutorial": Field("bool", required=False),
        "avatar": _AVATAR,
        "colour": _COLOUR,
        "lang": _LANG,
    },
    "join": {"code": _CODE, "name": Field("name"), "avatar": _AVATAR, "colour": _COLOUR, "lang": _LANG},
    "resume": {
        "code": _CODE,
        "secret": _text(64),
        "version": _int(0, MAX_VERSION, required=False),
        "avatar": _AVATAR,
        "colour": _COLOUR,
        "lang": _LANG,
    },
    "spectate": {"code": _CODE, "version": _int(0, MAX_VERSION, required=False), "lang": _LANG},
    "lang": {"lang": Field("choice", choices=LANGUAGES)},
    "seat": {"seat": _int(0, 9), "bot": Field("bool")},
    "rule_cards": {"texts": Field("texts", max_length=400, max_items=100)},
    "read_rule": {"text": _text(400)},
    "start": {},
    "act": {"action": _text(32), "version": _VERSION},
    "sync": {"version": _VERSION},
    "hint": {"version": _VERSION},
    "ping": {},
    "chat": {"text": Field("chat", max_length=1000)},
    "react": {"reaction": Field("choice", choices=REACTIONS), "to": _int(0, 9, required=False)},
    "look": {"avatar": _AVATAR, "colour": _COLOUR},
    "voice": {"on": Field("bool")},
    "signal": {"to": _int(0, 9), "kind": Field("choice", choices=SIGNAL_KINDS), "data": _text(MAX_SIGNAL)},
    "rematch": {},
    "continue": {},
    "kick": {"seat": _int(0, 9)},
    "leave": {},
    "back": {},
}
"""Every client message type and its fields (``type`` aside)."""

RULE_OPTIONS = tuple(f.name for f in fields(Rules) if f.name != "deck")
"""The rule options a room may set (every option of :class:`unokit.engine.rules.Rules` but the deck)."""
_RULE_VALUE_LIMIT = 64
"""The most items a list-valued rule option may hold."""


def parse_message(text: str | bytes) -> dict[str, Any]:
    """The checked message of one frame (names trimmed); :class:`ProtocolError` says what is wrong."""
    if isinstance(text, bytes):
        raise ProtocolError("frames are JSON text, not binary")
    if len(text) > MAX_FRAME or len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME:
        raise ProtocolError(f"a frame holds at most {MAX_FRAME} bytes")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        raise ProtocolError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in MESSAGES:
        raise ProtocolError(f"unknown message type {_short(kind)}; known: {', '.join(MESSAGES)}")
    fields = MESSAGES[kind]
    out: dict[str, Any] = {"type": kind}
    for name in data:
        if name != "type" and name not in fields:
            raise ProtocolError(f"{kind}: unknown field {_short(name)}")
    for name, spec in fields.items():
        if name not in data:
            if spec.required:
                raise ProtocolError(f"{kind}: missing field {name!r}")
            continue
        if _holds_lone_surrogate(data[name]):
            raise ProtocolError(f"{kind}: field {name!r} holds a lone surrogate, which is not text")
        out[name] = _check(kind, name, spec, data[name])
    return out


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""JSON decodes a surrogate pair to one character, so a surrogate left in a string is a lone one."""


def _holds_lone_surrogate(value: Any) -> bool:
    """Whether a string in ``value`` (lists and objects walked, keys included) holds a lone surrogate."""
    pending = [value]
    while pending:  # no recursion: JSON may nest deeper than the interpreter's stack allows
        item = pending.pop()
        if isinstance(item, str):
            if _LONE_SURROGATE.search(item) is not None:
                return True
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
    return False


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _check(kind: str, name: str, spec: Field, value: Any) -> Any:
    where = f"{kind}: field {name!r}"
    if spec.kind == "str":
        if not isinstance(value, str):
            raise ProtocolError(f"{where} must be a string")
        if len(value) > spec.max_length:
            raise ProtocolError(f"{where} holds at most {spec.max_length} characters")
        return value
    if spec.kind == "int":
        if type(value) is not int:
            raise ProtocolError(f"{where} must be a whole number")
        if not spec.minimum <= value <= spec.maximum:
            raise ProtocolError(f"{where} must be from {spec.minimum} to {spec.maximum}")
        return value
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise ProtocolError(f"{where} must be true or false")
        return value
    if spec.kind == "choice":
        if not isinstance(value, str) or value not in spec.choices:
            raise ProtocolError(f"{where} must be one of {', '.join(spec.choices)}")
        return value
    if spec.kind == "name":
        try:
            return clean_name(value)
        except ValueError as exc:
            raise ProtocolError(f"{where}: {exc}") from None
    if spec.kind == "chat":
        if isinstance(value, str) and len(value) > spec.max_length:
            raise ProtocolError(f"{where} holds at most {spec.max_length} characters")
        try:
            return clean_chat(value)
        except ValueError as exc:
            raise ProtocolError(f"{where}: {exc}") from None
    if spec.kind == "texts":
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise ProtocolError(f"{where} must be a list of strings")
        if len(value) > spec.max_items:
            raise ProtocolError(f"{where} holds at most {spec.max_items} texts")
        if any(len(item) > spec.max_length for item in value):
            raise ProtocolError(f"{where}: a text holds at most {spec.max_length} characters")
        return list(value)
    if spec.kind == "rules":
        return _check_rules(where, value)
    raise AssertionError(spec.kind)  # pragma: no cover - every kind of the table is handled


def _check_rules(where: str, value: Any) -> dict[str, Any]:
    """Rule options: names to plain values (checked for meaning by :class:`unokit.engine.rules.Rules`)."""
    if not isinstance(value, dict):
        raise ProtocolError(f"{where} must be an object of rule options")
    for option, item in value.items():
        if option.replace("-", "_") not in RULE_OPTIONS:
            raise ProtocolError(f"{where}: unknown rule option {_short(option)}; known: {', '.join(RULE_OPTIONS)}")
        if isinstance(item, list):
            if len(item) > _RULE_VALUE_LIMIT or not all(_plain_scalar(x) or _plain_pair(x) for x in item):
                raise ProtocolError(f"{where}: option {_short(option)} must be a plain value")
        elif not _plain_scalar(item):
            raise ProtocolError(f"{where}: option {_short(option)} must be a plain value")
    return dict(value)


def _plain_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float)) or (isinstance(value, str) and len(value) <= 40)


def _plain_pair(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(_plain_scalar(x) for x in value)


_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def clean_name(value: object) -> str:
    """A display name: a string, trimmed, runs of blanks as one space, 1 to :data:`MAX_NAME`
    characters, no control or format characters.  Markup is kept as plain text."""
    if not isinstance(value, str):
        raise ValueError("a name must be a string")
    name = " ".join(value.split())
    if not name:
        raise ValueError("a name cannot be empty")
    if len(name) > MAX_NAME:
        raise ValueError(f"a name holds at most {MAX_NAME} characters")
    for char in name:
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            raise ValueError(f"a name cannot hold the character U+{ord(char):04X}")
    return name
