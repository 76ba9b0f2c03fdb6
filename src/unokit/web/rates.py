"""How often a connection, a seat or a room's spectators may send: sliding windows of counts.

A connection's chat, hints and voice (:mod:`unokit.web.app`) and a room's chat shares
(:class:`RoomChatLimits`, kept by each :class:`~unokit.web.rooms.Room`) count here.
"""

from __future__ import annotations

import collections
import time

__all__ = [
    "CHAT_BURST",
    "CHAT_WINDOW",
    "SPECTATOR_CHAT_BURST",
    "SPECTATOR_CHAT_WINDOW",
    "ChatLimiter",
    "RoomChatLimits",
]

CHAT_BURST = 5
"""Chat messages a connection may send within :data:`CHAT_WINDOW` seconds."""
CHAT_WINDOW = 10.0
SPECTATOR_CHAT_BURST = 10
"""Chat messages the spectators of a room may send together within :data:`SPECTATOR_CHAT_WINDOW` seconds."""
SPECTATOR_CHAT_WINDOW = 20.0


class ChatLimiter:
    """At most :data:`CHAT_BURST` chat messages per :data:`CHAT_WINDOW` seconds (per connection).

    >>> limiter = ChatLimiter()
    >>> [limiter.allow(now=0.0) for _ in range(6)], limiter.allow(now=10.5)
    ([True, True, True, True, True, False], True)
    """

    def __init__(self, burst: int = CHAT_BURST, window: float = CHAT_WINDOW) -> None:
        self.burst = burst
        self.window = window
        self.sent: collections.deque[float] = collections.deque()

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        while self.sent and now - self.sent[0] >= self.window:
            self.sent.popleft()
        if len(self.sent) >= self.burst:
            return False
        self.sent.append(now)
        return True


class RoomChatLimits:
    """A room's chat rate: each seat :data:`CHAT_BURST` messages per :data:`CHAT_WINDOW` seconds, all
    its connections together, and the spectators (late arrivals still watching among them)
    :data:`SPECTATOR_CHAT_BURST` per :data:`SPECTATOR_CHAT_WINDOW` seconds together.

    >>> limits = RoomChatLimits()
    >>> sum(limits.allow(None, now=0.0) for _ in range(30)), limits.allow(0, now=0.0)
    (10, True)
    """

    def __init__(self) -> None:
        self.seats: dict[int, ChatLimiter] = {}
        self.spectators = ChatLimiter(SPECTATOR_CHAT_BURST, SPECTATOR_CHAT_WINDOW)

    def allow(self, seat: int | None, now: float | None = None) -> bool:
        """Whether ``seat`` (``None``: a spectator) may send a chat message now (then it is counted)."""
        if seat is None:
            return self.spectators.allow(now)
        return self.seats.setdefault(seat, ChatLimiter()).allow(now)
