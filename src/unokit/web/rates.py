"""How often a connection, a seat or a room's spectators may send: sliding windows of counts.

A connection's chat, hints and voice (:mod:`unokit.web.app`), a room's chat shares
(:class:`RoomChatLimits`, kept by each :class:`~unokit.web.rooms.Room`) and an address's analyses of
finished matches (:class:`AnalysisLimits`, :mod:`unokit.web.analysis`) count here.
"""

from __future__ import annotations

import collections
import time

__all__ = [
    "ANALYSIS_BURST",
    "ANALYSIS_WINDOW",
    "CHAT_BURST",
    "CHAT_WINDOW",
    "SPECTATOR_CHAT_BURST",
    "SPECTATOR_CHAT_WINDOW",
    "AnalysisLimits",
    "ChatLimiter",
    "RoomChatLimits",
]

CHAT_BURST = 5
"""Chat messages a connection may send within :data:`CHAT_WINDOW` seconds."""
CHAT_WINDOW = 10.0
SPECTATOR_CHAT_BURST = 10
"""Chat messages the spectators of a room may send together within :data:`SPECTATOR_CHAT_WINDOW` seconds."""
SPECTATOR_CHAT_WINDOW = 20.0
ANALYSIS_BURST = 12
"""Analyses (a match for one seat, or one moment) an address may have computed within :data:`ANALYSIS_WINDOW`
seconds; an answer already computed is free."""
ANALYSIS_WINDOW = 60.0
ANALYSIS_ADDRESSES = 10_000
"""Addresses whose analyses are counted (the least recently seen forgotten first)."""


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


class AnalysisLimits:
    """At most ``burst`` analyses per ``window`` seconds per address (the key of
    :func:`unokit.web.guard.client_key`), in this process.

    >>> limits = AnalysisLimits(burst=2, window=60.0)
    >>> [limits.allow("a", now=0.0) for _ in range(3)], limits.allow("b", now=0.0), limits.allow("a", now=60.0)
    ([True, True, False], True, True)
    """

    def __init__(
        self, burst: int = ANALYSIS_BURST, window: float = ANALYSIS_WINDOW, size: int = ANALYSIS_ADDRESSES
    ) -> None:
        self.burst = burst
        self.window = window
        self.size = size
        self.addresses: collections.OrderedDict[str, ChatLimiter] = collections.OrderedDict()

    def allow(self, key: str, now: float | None = None) -> bool:
        """Whether address ``key`` may have one more analysis computed now (then it is counted)."""
        limiter = self.addresses.pop(key, None)
        if limiter is None:
            limiter = ChatLimiter(self.burst, self.window)
            while len(self.addresses) >= self.size:
                self.addresses.popitem(last=False)
        self.addresses[key] = limiter
        return limiter.allow(now)
