"""Avatars, colours and the voice chat's rules (the relay of its signals is the shell's:
:mod:`unokit.web.social`)."""

from __future__ import annotations

from collections.abc import Collection

from unokit.web.settings import RoomError

__all__ = ["AVATARS", "BOT_AVATAR", "COLOURS", "MAX_SIGNAL", "SIGNAL_KINDS", "check_signal", "new_look"]

AVATARS = (
    "fox",
    "cat",
    "owl",
    "frog",
    "panda",
    "tiger",
    "octopus",
    "unicorn",
    "penguin",
    "rocket",
    "cactus",
    "ghost",
)
"""The avatars a player may choose (the page draws each as a symbol)."""
BOT_AVATAR = "robot"
"""Every bot's avatar (no player may choose it)."""
COLOURS = ("red", "orange", "amber", "green", "teal", "blue", "indigo", "purple", "pink", "slate")
"""The colours a player may choose: each dark enough for white text on it, light enough to stand
out on the felt."""
SIGNAL_KINDS = ("offer", "answer", "candidate")
MAX_SIGNAL = 6000
"""The longest ``signal`` data, in characters (an SDP offer of one audio track is about 1 to 3 kB)."""


def new_look(
    current: tuple[str | None, str | None], avatar: str | None, colour: str | None
) -> tuple[str | None, str | None] | None:
    """A seat's avatar and colour once ``look`` changed them (those given ``None`` stay); ``None`` if
    nothing changes.

    >>> new_look(("fox", "red"), None, "teal"), new_look(("fox", "red"), "fox", None)
    (('fox', 'teal'), None)
    """
    look = (avatar if avatar is not None else current[0], colour if colour is not None else current[1])
    return None if look == current else look


def check_signal(voice: Collection[int], seat: int | None, holds_voice: bool, to: int) -> None:
    """Whether ``seat`` (its connection holding the seat's voice or not) may signal seat ``to``: both
    in voice, and not itself."""
    if seat is None or not holds_voice:
        raise RoomError("forbidden", "error.voice_first")
    if to == seat:
        raise RoomError("forbidden", "error.signal_self")
    if to not in voice:
        raise RoomError("forbidden", "error.signal_not_in_voice", seat=to)
