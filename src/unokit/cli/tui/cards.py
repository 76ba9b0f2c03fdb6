"""Cards as coloured chips with the colour-blind marks of the web table, readable on dark and light themes."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from unokit.engine.cards import CARD_COLOUR, CARD_KIND, NO_COLOUR, Kind, card_name
from unokit.narrate import Part

__all__ = ["COLOUR_MARKS", "card_chip", "colour_chip", "parts_text"]

COLOUR_MARKS = {0: "▲", 1: "●", 2: "■", 3: "◆", 4: "✚", NO_COLOUR: "★"}
"""The colour-blind mark of each colour (as the web table's cards.css), and the wild cards' star."""

_FIELDS = {0: "#c62828", 1: "#f9d71c", 2: "#2e7d32", 3: "#1e63c9", 4: "#f57c00", NO_COLOUR: "#2b2b2b"}
"""Each colour's card field: light enough for blue to read on a dark screen, dark enough on a light one."""
_INKS = {0: "#ffffff", 1: "#1a1a1a", 2: "#ffffff", 3: "#ffffff", 4: "#1a1a1a", NO_COLOUR: "#ffffff"}
_WORD_COLOURS_DARK = {0: "#ff6b6b", 1: "#ffd93d", 2: "#6bd66b", 3: "#6fa8ff", 4: "#ffa94d", NO_COLOUR: "#e0a0ff"}
_WORD_COLOURS_LIGHT = {0: "#b71c1c", 1: "#8a6d00", 2: "#1b5e20", 3: "#0d47a1", 4: "#b34700", NO_COLOUR: "#7b1fa2"}
_NARRATOR_STYLES = {"bold red": 0, "bold yellow": 1, "bold green": 2, "bold blue": 3, "bold orange1": 4}
_NARRATOR_WILD = "bold magenta"


def _blend(colour: str, toward: str, amount: float) -> str:
    a = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(toward[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * amount):02x}" for x, y in zip(a, b, strict=True))


def card_chip(card: int, *, dark: bool, dimmed: bool = False, selected: bool = False) -> Text:
    """`` ▲ R7 ``: the card in its colour with its mark; ``dimmed`` (not playable now) fades it toward
    the screen; ``selected`` frames it."""
    colour = CARD_COLOUR[card]
    field = _FIELDS[colour]
    ink = _INKS[colour]
    if colour == NO_COLOUR and not dark:
        field = "#3a3a3a"
    if dimmed:
        screen = "#1e1e1e" if dark else "#f2f2f2"
        field = _blend(field, screen, 0.65)
        ink = "#9a9a9a" if dark else "#5a5a5a"
    label = f" {COLOUR_MARKS[colour]} {card_name(card)} "
    style = Style(color=ink, bgcolor=field, bold=not dimmed, underline=selected)
    text = Text(label, style=style)
    if selected:
        frame = Style(bold=True, color="#ffffff" if dark else "#000000")
        return Text.assemble(("[", frame), text, ("]", frame))
    return Text.assemble(" ", text, " ")


def colour_chip(colour: int, *, dark: bool, name: str = "") -> Text:
    """The colour in play: its mark on its field, and its name."""
    field = _FIELDS.get(colour, _FIELDS[NO_COLOUR])
    ink = _INKS.get(colour, "#ffffff")
    return Text(f" {COLOUR_MARKS.get(colour, '?')} {name} ", style=Style(color=ink, bgcolor=field, bold=True))


def word_style(colour: int, *, dark: bool) -> Style:
    """A colour's words (card names in the log) in a shade readable on the theme's background."""
    return Style(color=(_WORD_COLOURS_DARK if dark else _WORD_COLOURS_LIGHT)[colour], bold=True)


def parts_text(parts: Sequence[Part], *, dark: bool) -> Text:
    """Narrated parts as text: the narrator's card colours in shades readable on the theme, with their
    colour-blind marks before card codes."""
    text = Text()
    for part in parts:
        if isinstance(part, str):
            text.append(part)
            continue
        words, style = part
        if style in _NARRATOR_STYLES:
            colour = _NARRATOR_STYLES[style]
            text.append(f"{COLOUR_MARKS[colour]}{words}", word_style(colour, dark=dark))
        elif style == _NARRATOR_WILD:
            text.append(words, word_style(NO_COLOUR, dark=dark))
        else:
            text.append(words, style)
    return text


def is_wild(card: int) -> bool:
    return CARD_KIND[card] >= Kind.WILD
