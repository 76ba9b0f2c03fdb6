"""Message catalogs: every word a player reads from the server, in each shipped language.

A catalog (``catalogs/<lang>.json``) maps dotted message ids to messages.  A message is a string
with ``{name}`` placeholders (``{{`` and ``}}`` are literal braces), or a plural object mapping
CLDR plural categories to strings, chosen by the ``count`` placeholder.  Numbers are written with
the language's digit grouping.  Code refers to messages by id, through a :class:`Translator`::

    t = catalog("es")
    t("event.draw.other", name="Ana", count=2)

By convention a literal id is written whole, as a string, where a scan of the sources finds it
(``tests/test_i18n.py`` does): the first argument of ``t(...)`` or ``t.parts(...)`` (a translator
named ``t``, ``self.t``, ``member.t``), of :func:`english` and :class:`~unokit.web.settings.RoomError`
or ``RuleTextError`` after its code, or of a narrator's ``say`` (one message per person: the id's
``.you``, ``.other``, ``.other_you``).  Ids made from data (an option's name, a colour, a phase)
are checked by the tests against that data.  A message's value may itself be a message
(:class:`Words`), worded in the language of the message it goes in.

>>> t = catalog("en")
>>> t("event.stack", count=1)
'The stacked penalty stands at 1 card.'
>>> catalog("de")("event.stack", count=12000)
'Die aufgestockte Strafe beträgt 12.000 Karten.'
>>> negotiate("fr-CH, fr;q=0.9, en;q=0.8")
'fr'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

__all__ = [
    "LANGUAGES",
    "PLURAL_CATEGORIES",
    "PLURAL_RULES",
    "Translator",
    "UnknownLanguageError",
    "UnknownMessageError",
    "Words",
    "catalog",
    "english",
    "format_number",
    "is_language",
    "negotiate",
]

LANGUAGES = ("en", "es", "fr", "de")
"""The languages shipped, English (the source) first."""

Message = str | dict[str, str]
Part = str | tuple[str, str]
"""A piece of styled output (see :mod:`unokit.narrate`): plain text or ``(text, style)``."""


class UnknownMessageError(KeyError):
    """A message id no catalog holds."""

    def __init__(self, message_id: str, lang: str) -> None:
        super().__init__(f"no message {message_id!r} in the {lang!r} catalog")
        self.message_id = message_id
        self.lang = lang


class UnknownLanguageError(ValueError):
    """A language that is not shipped."""

    def __init__(self, lang: object) -> None:
        super().__init__(f"unknown language {lang!r}; shipped: {', '.join(LANGUAGES)}")
        self.lang = lang


@dataclass(frozen=True)
class Words:
    """A message not yet put in words: the value of another message's placeholder (an error's reason),
    worded in the language of the message it goes in."""

    message_id: str
    values: Mapping[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------- plural rules (CLDR cardinals, integers)


def _one_other(n: int) -> str:
    return "one" if n == 1 else "other"


def _es(n: int) -> str:
    if n == 1:
        return "one"
    return "many" if n != 0 and n % 1_000_000 == 0 else "other"


def _fr(n: int) -> str:
    if n in (0, 1):
        return "one"
    return "many" if n % 1_000_000 == 0 else "other"


PLURAL_RULES: dict[str, Callable[[int], str]] = {"en": _one_other, "es": _es, "fr": _fr, "de": _one_other}
"""Each language's CLDR cardinal plural rule for a whole number ``n >= 0``."""

PLURAL_CATEGORIES: dict[str, tuple[str, ...]] = {
    "en": ("one", "other"),
    "es": ("one", "many", "other"),
    "fr": ("one", "many", "other"),
    "de": ("one", "other"),
}
"""The categories each language's plural objects hold, exactly."""

_GROUPING: dict[str, tuple[str, int]] = {"en": (",", 1), "es": (".", 2), "fr": ("\u202f", 1), "de": (".", 1)}
"""Each language's group separator and the minimum grouping digits (CLDR: Spanish writes 1000, 10.000)."""


def format_number(n: int, lang: str) -> str:
    """``n`` with the digit grouping of ``lang``: ``1,000`` (en), ``1000`` (es), ``1 000`` (fr), ``1.000`` (de)."""
    separator, minimum = _GROUPING[lang]
    digits = str(abs(n))
    sign = "-" if n < 0 else ""  # a sign, not a word
    if len(digits) < 4 + minimum - 1:
        return sign + digits
    groups: list[str] = []
    while len(digits) > 3:
        digits, tail = digits[:-3], digits[-3:]
        groups.insert(0, tail)
    return sign + separator.join([digits, *groups])  # digits grouped: notation, not words


# ---------------------------------------------------------------- formatting

_TOKEN = re.compile(r"\{\{|\}\}|\{([A-Za-z0-9_]+)\}|[{}]")


def placeholders(text: str) -> set[str]:
    """The placeholder names of one message string (raises ``ValueError`` on a stray brace)."""
    names = set()
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if token in ("{", "}"):
            raise ValueError(f"stray brace in message {text!r}")
        if match.group(1):
            names.add(match.group(1))
    return names


def _fill(text: str, values: Mapping[str, Part | Sequence[Part]], message_id: str) -> list[Part]:
    parts: list[Part] = []
    position = 0
    for match in _TOKEN.finditer(text):
        parts.append(text[position : match.start()])
        position = match.end()
        token, name = match.group(0), match.group(1)
        if name is None:
            parts.append(token[0])  # ``{{`` or ``}}``: one literal brace
            continue
        try:
            value = values[name]
        except KeyError:
            raise KeyError(f"message {message_id!r} needs a value for {{{name}}}") from None
        if isinstance(value, str | tuple):
            parts.append(value)
        else:
            parts.extend(value)
    parts.append(text[position:])
    return [part for part in parts if part != ""]


def _text(parts: Iterable[Part]) -> str:
    return "".join(part if isinstance(part, str) else part[0] for part in parts)  # the formatter's own output


class Translator:
    """The messages of one language: ``t("id", **values)`` is a message in words.

    Values are strings (names, card names: whole values, never words to assemble) or whole numbers,
    written with the language's grouping; ``count`` chooses among a plural object's forms."""

    def __init__(self, lang: str, messages: Mapping[str, Message]) -> None:
        self.lang = lang
        self.messages = dict(messages)
        self.plural_rule = PLURAL_RULES[lang]

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"

    def __contains__(self, message_id: object) -> bool:
        return message_id in self.messages

    def message(self, message_id: str, count: int | None = None) -> str:
        """The text of message ``message_id`` before its values are put in (a plural's form for ``count``)."""
        try:
            message = self.messages[message_id]
        except KeyError:
            raise UnknownMessageError(message_id, self.lang) from None
        if isinstance(message, str):
            return message
        if count is None:
            raise KeyError(f"message {message_id!r} is a plural: it needs a count")
        return message.get(self.plural_rule(abs(count)), message["other"])

    def number(self, n: float) -> str:
        """A number as the language writes it: digits grouped, a decimal comma in es, fr and de."""
        if isinstance(n, int) or n.is_integer():
            return format_number(int(n), self.lang)
        whole, _, fraction = f"{n:f}".rstrip("0").partition(".")
        comma = "." if self.lang == "en" else ","  # the decimal separator: notation, not a word
        return format_number(int(whole), self.lang) + comma + fraction  # i18n: a number's digits

    def parts(self, message_id: str, /, **values: Any) -> list[Part]:
        """Message ``message_id`` as styled parts: a value may be a part ``(text, style)`` or a list of parts."""
        count = values.get("count")
        text = self.message(message_id, count if isinstance(count, int) else None)
        shown = {name: self._shown(value) for name, value in values.items()}
        return _fill(text, shown, message_id)

    def _shown(self, value: Any) -> Any:
        if isinstance(value, Words):
            return self(value.message_id, **value.values)
        return self.number(value) if isinstance(value, int | float) else value

    def __call__(self, message_id: str, /, **values: Any) -> str:
        return _text(self.parts(message_id, **values))

    def list(self, items: Sequence[str], unit: bool = False) -> str:
        """Whole values listed as the language lists them (``Ann, Bob and you``); ``unit``: comma-separated
        alone (``You 10, Ann 20``)."""
        if not items:
            return ""
        result = items[-1]
        for index in range(len(items) - 2, -1, -1):
            if index == len(items) - 2 and not unit:
                result = self("list.end", head=items[index], tail=result)
            else:
                result = self("list.middle", head=items[index], tail=result)
        return result


def is_language(lang: object) -> bool:
    return isinstance(lang, str) and lang in LANGUAGES


@cache
def catalog(lang: str = "en") -> Translator:
    """The translator of a shipped language (raises :class:`UnknownLanguageError` for another)."""
    if not is_language(lang):
        raise UnknownLanguageError(lang)
    source = resources.files(__package__).joinpath("catalogs", f"{lang}.json").read_text(encoding="utf-8")
    messages: dict[str, Message] = json.loads(source)
    return Translator(lang, messages)


def english(message_id: str, /, **values: Any) -> str:
    """A message in English, the source language (the terminal's, and the engine's own words)."""
    return catalog("en")(message_id, **values)


def negotiate(header: str | None) -> str:
    """The shipped language an ``Accept-Language`` header prefers (English if none fits).

    >>> negotiate("de-DE,de;q=0.9,en;q=0.5"), negotiate("pt-BR, es;q=0.3"), negotiate(None)
    ('de', 'es', 'en')
    """
    best, best_q = "en", 0.0
    for item in (header or "").split(","):
        tag, _, params = item.strip().partition(";")
        primary = tag.strip().split("-")[0].lower()
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if primary in LANGUAGES and q > best_q and 0 < q <= 1:
            best, best_q = primary, q
    return best
