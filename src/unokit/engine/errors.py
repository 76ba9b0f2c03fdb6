"""Precise exceptions. Every one is a :class:`ValueError`; none leaves a game changed."""

from __future__ import annotations


class UnoError(ValueError):
    """Base class of every error unokit raises for bad input."""


class IllegalActionError(UnoError):
    """The action is not legal for that player at this point."""


class WrongPlayerError(IllegalActionError):
    """The player may not act now (it is someone else's decision)."""


class GameOverError(IllegalActionError):
    """The match is over; no action is legal."""


class UnknownOptionError(UnoError):
    """A rules option, edition or setting that does not exist or has a bad value."""


class NotationError(UnoError):
    """Text that is not valid card or action notation."""


class RecordError(UnoError):
    """A game record that is malformed or does not replay."""


class SetupError(UnoError):
    """A game set-up that cannot be played (player count, deck order, ...)."""


class PositionError(SetupError):
    """A position (:mod:`unokit.engine.positions`) that cannot be read or cannot happen: :attr:`field`
    names the field that is wrong."""

    def __init__(self, field: str, why: str) -> None:
        self.field = field
        """The field that is wrong (a name of ``positions.FIELDS``; ``text`` for the text as a whole)."""
        self.why = why
        """What is wrong with it."""
        super().__init__(f"position field {field!r}: {why}")
