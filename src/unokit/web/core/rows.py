"""The rows a room is stored as, shared by the room core and every storage backend."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ChatRow", "SeatRow"]


@dataclass
class SeatRow:
    """One seat as stored."""

    seat: int
    name: str
    kind: str
    """``human``, ``bot`` or ``open``."""
    bot: str | None = None
    """The bot level of a bot seat."""
    secret_hash: str | None = None
    rule_cards: list[str] | None = None
    """UNO Wild Jackpot: the texts this seat wrote in the lobby (``None``: none yet)."""
    claim_name: str | None = None
    """A late arrival who takes this bot's seat at the next round: their name ..."""
    claim_hash: str | None = None
    """... and the SHA-256 of their secret."""
    avatar: str | None = None
    """The player's avatar and colour (names of :mod:`unokit.web.core.social`'s sets; ``None``: none chosen)."""
    colour: str | None = None


@dataclass
class ChatRow:
    """One chat message of a room."""

    id: int
    seat: int | None
    name: str
    text: str
    time: float
