"""The settings of the server and of a room, room codes and seat secrets, and the error a request gets."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from unokit.engine.rules import without_idle_options
from unokit.i18n import Translator, english

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "MIN_TIMER",
    "FixedSetup",
    "RoomError",
    "RoomSettings",
    "ServerSettings",
    "code_tag",
    "new_room_code",
    "new_secret",
]

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Room codes use letters and digits that cannot be mistaken for one another (no 0/O, 1/I/L)."""
CODE_LENGTH = 8
MIN_TIMER = 5
"""The shortest turn timer of a room (0 aside: none); ``ServerSettings.min_timer`` may lower it for tests."""


def new_room_code() -> str:
    """A random room code (``secrets``): 8 characters of :data:`CODE_ALPHABET`, about 40 bits."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def code_tag(code: str) -> str:
    """A room's name in the server log: a short hash of its code (the code itself lets anyone in).

    >>> len(code_tag("ABCDEFGH")), code_tag("ABCDEFGH") == code_tag("ABCDEFGH")
    (8, True)
    """
    return hashlib.sha256(code.encode()).hexdigest()[:8]


def new_secret() -> str:
    """A seat secret: 32 URL-safe characters (192 random bits)."""
    return secrets.token_urlsafe(24)


class RoomError(Exception):
    """A request refused: ``code`` is one of the protocol's error codes; ``message_id`` and ``values``
    its words (a message of :mod:`unokit.i18n`), :attr:`message` in English, :meth:`words` in a language."""

    def __init__(self, code: str, message_id: str, /, **values: Any) -> None:
        self.code = code
        self.message_id = message_id
        self.values = values
        self.message = english(message_id, **values)
        super().__init__(self.message)

    def words(self, t: Translator) -> str:
        """The message in the language of ``t``."""
        return t(self.message_id, **self.values)


@dataclass(frozen=True)
class ServerSettings:
    """Settings of the whole server."""

    bot_delay: float = 0.7
    """Seconds a bot waits before acting (calling UNO for itself: at once)."""
    away_seconds: float = 20.0
    """Seconds before the room's bot plays the pending decision of a seat nobody is connected to."""
    max_rooms: int = 10_000
    """Rooms in memory in the lobby or playing at once (matches in play, and lobbies someone is
    connected to); more are refused."""
    ismcts_ms: float = 500.0
    """Time budget of an ``ismcts`` bot's decision, in milliseconds."""
    rate: float = 20.0
    """Messages a connection may send per second, on average."""
    burst: float = 40.0
    """Messages a connection may send at once."""
    outbox_bytes: int = 8 * 1024 * 1024
    """Bytes of messages queued for a connection that does not read them; past that it is closed."""
    resync_events: int = 256
    """A ``sync``, ``resume`` or ``spectate`` that sends more events than this is a full resync..."""
    resync_seconds: float = 5.0
    """... and a connection may ask for one every this many seconds (else ``rate-limited``)."""
    address_resync_events: int = 20_000
    """Events the full resyncs of one client address may send a minute, all its connections together
    (else ``rate-limited``; a resync of more takes the whole minute, and the next waits longer)."""
    server_resync_events: int = 600_000
    """Events the full resyncs of every client together may send a minute (else ``rate-limited``)."""
    address_chat_per_minute: int = 30
    """Chat lines (and reactions) one client address may send a minute, all its connections
    together, in bursts of up to ``address_chat_burst`` (else ``rate-limited``)."""
    address_chat_burst: int = 10
    address_analyses_per_minute: int = 12
    """Analyses of finished matches (a match for one seat, or one moment) computed for one client
    address a minute, at once at most as many (else ``429``); an answer the server keeps is free."""
    creates_per_hour: int = 5
    """Rooms one connection may create per hour (else ``rate-limited``)."""
    lobby_hours: float = 24.0
    """Lobbies untouched for longer than this are deleted from the store."""
    chat_days: float = 30.0
    """The chat of a match finished longer ago than this is deleted from the store (its record stays)."""
    host_grace: float = 15.0
    """Seconds a lobby's host may be gone before the host passes to the next connected player."""
    min_timer: int = MIN_TIMER
    """The shortest turn timer a room may set (besides 0, none).  Lower only for tests."""
    connections_per_address: int = 64
    """Connections (HTTP and WebSocket) one client address may hold open at once; more are closed at once."""
    address_creates_per_hour: int = 30
    """Rooms one client address may create an hour, all its connections together (else ``rate-limited``)."""
    address_lookups_per_minute: int = 60
    """Room codes one client address may look up a minute (``join``, ``resume``, ``spectate`` and the
    JSON API's room routes; a code among the address's last few looked up again costs nothing)."""
    header_timeout: float = 10.0
    """Seconds a connection has to send a request's headers (``unokit serve`` only); then it is closed."""
    redis_url: str | None = None
    """A Redis database (``redis://host:port/db``) where the per-address limits are kept, shared by every
    server process that names it (:mod:`unokit.web.cluster`); None: each process counts alone, in memory."""
    redis_prefix: str = "unokit:"
    """What the keys this server keeps in Redis start with (several deployments may share one Redis)."""
    lease_seconds: float = 10.0
    """With Redis and PostgreSQL: how long a room's lease lasts after its owner's last renewal (renewed every
    third of it); a process lost, the others take its rooms over this long after (:mod:`unokit.web.cluster.owner`)."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks of reverse proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto``
    name the client; from anyone else those headers are ignored."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names (``name`` or ``name:port``) a request may be addressed to besides the server's own
    (the address it listens on, and localhost, 127.0.0.1 and [::1])."""
    public_url: str | None = None
    """The address people reach the server by (``https://uno.example``, behind a reverse proxy): the
    links the page shows start with it, and its host is answered for (:mod:`unokit.web.links`)."""

    results_seconds: float = 60.0
    """After a round (not the match), the longest the next round's first decision waits for the
    connected players to close the results (``continue``); then play goes on without them."""
    idle_minutes: float = 30.0
    """A match nobody (player or spectator) has been connected to for this long is put away: it
    leaves memory and its bots stop, it stays in the store and comes back when someone opens it."""
    ice_servers: tuple[dict[str, Any], ...] = ()
    """The STUN/TURN servers the browsers' voice chat may use (WebRTC ``iceServers``: ``urls``, and
    ``username`` and ``credential`` for TURN); none by default, which reaches players on one network."""


TUTORIAL_PACE = 2.5
"""How many times ``bot_delay`` a guided first game's bots take over a move."""


@dataclass(frozen=True)
class RoomSettings:
    """What the host chose: edition, number of seats, rule options and the bots' level."""

    edition: str
    players: int
    rules: dict[str, Any]
    bot: str = "heuristic"
    timer: int = 30
    """Seconds a player has for each turn decision (0: no limit)."""
    public: bool = False
    """Listed on the start page while in the lobby with an open seat."""
    late_join: bool = True
    """During a match a newcomer may claim a bot's seat, theirs from the next round."""
    tutorial: bool = False
    """A guided first game: its bots take :data:`TUTORIAL_PACE` times as long over each move."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "edition": self.edition,
            "players": self.players,
            "rules": self.rules,
            "bot": self.bot,
            **self.options(),
        }

    def options(self) -> dict[str, Any]:
        """The room options as ``lobby`` and ``update`` show them."""
        shown: dict[str, Any] = {"timer": self.timer, "public": self.public, "late_join": self.late_join}
        if self.tutorial:
            shown["tutorial"] = True
        return shown

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoomSettings:
        """Settings as stored (a room stored before turn timers has none; rules stored before idle
        options were refused lose them: see :func:`unokit.engine.rules.without_idle_options`)."""
        rules = dict(data["rules"])
        return cls(
            data["edition"],
            data["players"],
            rules if "preset" in rules else without_idle_options(rules),
            data.get("bot", "heuristic"),
            int(data.get("timer", 0)),
            bool(data.get("public", False)),
            bool(data.get("late_join", True)),
            bool(data.get("tutorial", False)),
        )


def check_bot_level(settings: RoomSettings) -> None:
    """Refuse a level of bot this server has not (:class:`RoomError`), and the trained bots
    (``learned``) at a table their weights were not trained for: they play only those."""
    from unokit.bots import bot_kinds
    from unokit.bots.weights import learned_tables
    from unokit.editions import get_edition

    if settings.bot not in bot_kinds():
        raise RoomError("malformed", "error.bot_level", level=settings.bot)
    tables = learned_tables()
    if settings.bot == "learned" and (settings.edition, settings.players) not in tables:
        editions = dict.fromkeys(edition for edition, _ in tables)
        words = "; ".join(
            f"{get_edition(edition).title} ({', '.join(str(n) for e, n in tables if e == edition)})"
            for edition in editions
        )
        raise RoomError("malformed", "error.learned_table", tables=words)


@dataclass(frozen=True)
class FixedSetup:
    """A room's game fixed in advance, for tests: no message can ask for one, only code that
    calls :meth:`Hub.create` directly.

    ``seed`` seeds the game, the rule cards drawn for seats in Wild Jackpot and the bots;
    ``deck`` (top first, in notation: see :func:`unokit.engine.deck.stacked_deck`) and ``dealer``
    fix the first deal."""

    seed: int
    deck: tuple[str, ...] | None = None
    dealer: int | None = None
