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
