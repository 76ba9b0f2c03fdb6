"""Rooms: the lobby, the match, and a scheduler that lets bots and away seats act.

A :class:`Room` holds its settings, seats and, once started, the :class:`~unokit.game.Game`.
Every rule comes from the game: the room only checks who asks (stale version, not a
decider) and hands the action to :meth:`Game.apply`.  Each connection attached to a room
is a :class:`Member`; what a member is sent is built from ``game.view(seat)`` and the
events redacted for that seat only.  A :class:`Hub` keeps the rooms, stores them and
loads the unfinished ones back on start-up.

Room operations are synchronous and run on the event loop's thread, so no two ever
interleave.  One scheduler task runs every room's automatic steps when they are due,
oldest first, and lets the clients' messages through every few milliseconds, so a
player's action is answered at once however many bots are playing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import heapq
import hmac
import itertools
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from unokit import rulecards
from unokit.actions import INTERRUPT_TYPES, ActionType
from unokit.bots import Bot, make_bot
from unokit.cards import card_name, colour_letter
from unokit.errors import NotationError, UnoError, WrongPlayerError
from unokit.game import Game
from unokit.jackpot import rule_cards_per_player, suggested_rule_cards
from unokit.narrate import Narrator, describe_action, narrate_events
from unokit.record import replay, to_record
from unokit.rules import Rules
from unokit.views import View
from unokit.web.storage import SeatRow, Storage, StoredRoom, hash_secret

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "FixedSetup",
    "Hub",
    "Member",
    "Room",
    "RoomError",
    "RoomSettings",
    "ServerSettings",
    "new_room_code",
]

log = logging.getLogger("unokit.web")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Room codes use letters and digits that cannot be mistaken for one another (no 0/O, 1/I/L)."""
CODE_LENGTH = 8
EXPIRY_EVERY = 600.0
"""Seconds between two looks for lobbies to expire."""
SLICE = 0.002
"""Seconds of bots' work after which the scheduler lets the clients' messages through."""


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
    """A request refused: ``code`` is one of the protocol's error codes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


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
    creates_per_hour: int = 5
    """Rooms one connection may create per hour (else ``rate-limited``)."""
    lobby_hours: float = 24.0
    """Lobbies untouched for longer than this are deleted from the store."""


@dataclass(frozen=True)
class RoomSettings:
    """What the host chose: edition, number of seats, rule options and the bots' level."""

    edition: str
    players: int
    rules: dict[str, Any]
    bot: str = "heuristic"

    def to_dict(self) -> dict[str, Any]:
        return {"edition": self.edition, "players": self.players, "rules": self.rules, "bot": self.bot}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoomSettings:
        return cls(data["edition"], data["players"], dict(data["rules"]), data.get("bot", "heuristic"))


@dataclass(frozen=True)
class FixedSetup:
    """A room's game fixed in advance, for tests: no message can ask for one, only code that
    calls :meth:`Hub.create` directly.

    ``seed`` seeds the game, the rule cards drawn for seats in Wild Jackpot and the bots;
    ``deck`` (top first, in notation: see :func:`unokit.deck.stacked_deck`) and ``dealer``
    fix the first deal."""

    seed: int
    deck: tuple[str, ...] | None = None
    dealer: int | None = None


@dataclass
class Seat:
    """A seat of a room."""

    index: int
    name: str = ""
    kind: str = "open"
    """``human``, ``bot`` or ``open``."""
    secret_hash: str | None = None
    rule_cards: list[str] | None = None
    away_since: float = 0.0
    """When the last connection of a human seat left (monotonic clock)."""

    def row(self, bot: str) -> SeatRow:
        return SeatRow(
            self.index, self.name, self.kind, bot if self.kind == "bot" else None, self.secret_hash, self.rule_cards
        )


@dataclass(eq=False)
class Member:
    """One connection attached to a room: a seat's player (``seat``) or a spectator (``None``).

    ``send`` queues a message for the connection; it must not block."""

    send: Callable[[dict[str, Any]], None]
    seat: int | None = None
    room: Room | None = None
    version: int = 0
    """How many of the match's events this connection has been sent."""
    narrator: Narrator | None = field(default=None, repr=False)


class Room:
    """A lobby, then a match."""

    def __init__(
        self, hub: Hub, code: str, settings: RoomSettings, created: float, setup: FixedSetup | None = None
    ) -> None:
        self.hub = hub
        self.code = code
        self.settings = settings
        self.setup = setup
        """The game fixed in advance (tests only), else ``None``: everything is drawn at random."""
        self.rules = Rules.from_dict(settings.rules)
        self.created = created
        self.seats = [Seat(index) for index in range(settings.players)]
        self.game: Game | None = None
        self.status = "lobby"
        self.members: list[Member] = []
        self.bots: dict[int, Bot] = {}
        self.last_change = time.monotonic()
        self.tag = code_tag(code)
        """What the log says of the room (never its code, which opens it)."""
        self.declined_at = -1
        """The version at which the bots last let an UNO window pass."""
        self.closed = False
        self.token = 0
        """Changes with every change of the room: a step scheduled before it is dropped."""
        self.thinking = False
        """A bot of this room is thinking in a worker thread."""

    # ------------------------------------------------------------ queries

    @property
    def version(self) -> int:
        """The number of events of the match so far (0 in the lobby)."""
        return len(self.game.events) if self.game is not None else 0

    @property
    def jackpot(self) -> bool:
        return self.settings.edition == "wild-jackpot"

    def rule_card_count(self) -> int:
        """Rule cards each seat writes (Wild Jackpot)."""
        return rule_cards_per_player(self.rules.rule_card_count, self.settings.players)

    def names(self) -> list[str]:
        """The seats' names: the player's, the bot's, or ``Seat {index}`` for an open seat (0-based, as
        the bots' names and the engine's seats)."""
        return [seat.name or f"Seat {seat.index}" for seat in self.seats]

    def is_away(self, seat: int) -> bool:
        """A human seat without a connection."""
        return self.seats[seat].kind == "human" and not any(m.seat == seat for m in self.members)

    def seat_of_secret(self, secret: str) -> int | None:
        digest = hash_secret(secret)
        found = None
        for seat in self.seats:
            if seat.secret_hash is not None and hmac.compare_digest(seat.secret_hash, digest):
                found = seat.index
        return found

    # ------------------------------------------------------------ members

    def attach(self, member: Member, seat: int | None, version: int = 0) -> None:
        """Attach a connection (as ``seat``'s player or a spectator) and send it the room."""
        self.members.append(member)
        member.room = self
        member.seat = seat
        member.narrator = None
        member.version = version if 0 <= version <= self.version else 0
        if seat is not None:
            self.seats[seat].away_since = 0.0
        self.changed()

    def detach(self, member: Member) -> None:
        if member not in self.members:
            return
        self.members.remove(member)
        member.room = None
        if member.seat is not None and self.is_away(member.seat):
            self.seats[member.seat].away_since = time.monotonic()
        if not self.closed:
            self.changed()
        if self.status != "playing" and not self.members:
            self.hub.evict(self)  # nothing happens there until someone comes back: it stays in the store

    def welcome(self, member: Member, secret: str | None = None) -> dict[str, Any]:
        message: dict[str, Any] = {
            "type": "welcome",
            "code": self.code,
            "seat": member.seat,
            "host": member.seat == 0,
            "invite": f"/r/{self.code}",
        }
        if secret is not None:
            message["secret"] = secret
        return message

    # ------------------------------------------------------------ lobby

    def join(self, name: str) -> tuple[int, str]:
        """Take the lowest open seat; returns it and its new secret."""
        if self.status != "lobby":
            raise RoomError("started", "the match has begun: you may watch it")
        for seat in self.seats:
            if seat.kind == "open":
                secret = new_secret()
                seat.kind, seat.name, seat.secret_hash, seat.rule_cards = "human", name, hash_secret(secret), None
                self.store_seats()
                return seat.index, secret
        raise RoomError("full", "every seat is taken")

    def set_seat(self, member: Member, index: int, bot: bool) -> None:
        """The host puts a bot in an open (or away) seat, or empties a bot's seat."""
        self.check_host(member)
        if index >= len(self.seats) or index == 0:
            raise RoomError("forbidden", f"seat {index} cannot be changed")
        seat = self.seats[index]
        if bot:
            if seat.kind == "bot":
                return
            if seat.kind == "human" and not self.is_away(index):
                raise RoomError("forbidden", f"{seat.name} is seated there")
            seat.kind, seat.name, seat.secret_hash, seat.rule_cards = "bot", f"Bot {index}", None, None
        else:
            if seat.kind != "bot":
                raise RoomError("forbidden", f"seat {index} holds no bot")
            seat.kind, seat.name, seat.secret_hash, seat.rule_cards = "open", "", None, None
        self.store_seats()
        self.changed()

    def write_rule_cards(self, member: Member, texts: list[str]) -> None:
        """A seat's rule cards (Wild Jackpot lobby)."""
        if self.status != "lobby":
            raise RoomError("started", "rule cards are written before the match begins")
        if not self.jackpot:
            raise RoomError("forbidden", "only UNO Wild Jackpot has rule cards")
        if member.seat is None:
            raise RoomError("forbidden", "spectators write no rule cards")
        count = self.rule_card_count()
        if len(texts) != count:
            raise RoomError("bad-rule-card", f"write exactly {count} rule cards, not {len(texts)}")
        cleaned = []
        for number, text in enumerate(texts, 1):
            try:
                cleaned.append(rulecards.clean_rule_text(text))
            except rulecards.RuleTextError as exc:
                raise RoomError("bad-rule-card", f"rule card {number}: {exc}") from None
        self.seats[member.seat].rule_cards = cleaned
        self.store_seats()
        self.changed()

    def check_host(self, member: Member) -> None:
        if member.seat != 0:
            raise RoomError("forbidden", "only the host may do that")
        if self.status != "lobby":
            raise RoomError("started", "the match has begun")

    def start(self, member: Member) -> None:
        """The host starts the match: every seat must be taken (by a player or a bot)."""
        self.check_host(member)
        empty = [seat.index for seat in self.seats if seat.kind == "open"]
        if empty:
            raise RoomError("forbidden", f"seats {', '.join(map(str, empty))} are open: fill them with bots")
        rule_cards: list[str] | None = None
        if self.jackpot:
            rule_cards = []
            rng = random.Random(self.setup.seed if self.setup is not None else secrets.randbits(64))
            count = self.rule_card_count()
            written_by = [seat.rule_cards if seat.kind == "human" else None for seat in self.seats]
            # One draw for every seat that wrote nothing, so their cards differ while suggestions last.
            drawn = iter(suggested_rule_cards(count * written_by.count(None), rng))
            for written in written_by:
                rule_cards += written if written is not None else [next(drawn) for _ in range(count)]
        fixed = self.setup
        game = Game(
            self.settings.edition,
            self.settings.players,
            rules=self.rules,
            rule_cards=rule_cards,
            seed=fixed.seed if fixed is not None else None,
            deck=fixed.deck if fixed is not None else None,
            dealer=fixed.dealer if fixed is not None else None,
        )
        setup = to_record(game, self.names())
        self.hub.storage.start_game(self.code, setup)
        self.begin(game)
        self.changed()

    def begin(self, game: Game) -> None:
        self.game = game
        self.status = "finished" if game.is_over else "playing"
        self.last_change = time.monotonic()

    # ------------------------------------------------------------ play

    def act(self, member: Member, text: str, version: int) -> None:
        """A player's action in notation, if the room is at ``version`` and it is legal for them."""
        game = self.game
        if game is None:
            raise RoomError("forbidden", "the match has not begun")
        seat = member.seat
        if seat is None:
            raise RoomError("forbidden", "spectators do not play")
        if version != self.version:
            raise RoomError("stale", f"the game has moved on (version {self.version}, not {version}): sync")
        try:
            action = game.actions.parse(text)
        except NotationError as exc:
            raise RoomError("illegal", str(exc)) from None
        try:
            self.apply(seat, action)
        except WrongPlayerError as exc:  # the engine's: not this seat's decision
            raise RoomError("not-your-turn", f"{exc} (it is {self.names()[game.actor]}'s decision)") from None
        except UnoError as exc:  # the engine's reason, GameOverError included
            raise RoomError("illegal", str(exc)) from None

    def apply(self, seat: int, action: int) -> None:
        """Apply an action through the engine (raises, changing nothing, if illegal), store and announce it."""
        game = self.game
        assert game is not None
        game.apply(seat, action)
        self.hub.storage.append_action(self.code, len(game.history) - 1, seat, game.actions.format(action))
        self.last_change = time.monotonic()
        if game.is_over:
            self.status = "finished"
            self.hub.storage.save_result(
                self.code,
                {"winner": game.winner, "scores": list(game.scores), "rounds": game.round, "names": self.names()},
            )
        self.changed()
        if game.is_over and not self.members:
            self.hub.evict(self)

    # ------------------------------------------------------------ messages

    def changed(self) -> None:
        """Send every member the room as it now is, and schedule its next automatic step."""
        for member in list(self.members):
            self.send_state(member)
        self.hub.schedule(self)

    def send_state(self, member: Member) -> None:
        if self.game is None:
            member.send(self.lobby_message(member))
        else:
            member.send(self.update_message(member))

    def seats_message(self) -> list[dict[str, Any]]:
        """Every seat with its name (an open seat's is :meth:`names`'), kind and whether it is away."""
        return [
            {"seat": s.index, "name": name, "kind": s.kind, "away": self.is_away(s.index)}
            for s, name in zip(self.seats, self.names(), strict=True)
        ]

    def lobby_message(self, member: Member) -> dict[str, Any]:
        seats = self.seats_message()
        for entry, seat in zip(seats, self.seats, strict=True):
            entry["ready"] = seat.kind == "bot" or (
                seat.kind == "human" and (not self.jackpot or seat.rule_cards is not None)
            )
        rule_cards: dict[str, Any] | None = None
        if self.jackpot:
            mine = self.seats[member.seat].rule_cards if member.seat is not None else None
            rule_cards = {
                "count": self.rule_card_count(),
                "mine": [_reading(text) for text in mine or ()],
                "suggestions": list(rulecards.SUGGESTIONS),
            }
        return {
            "type": "lobby",
            "code": self.code,
            "edition": self.settings.edition,
            "rules": self.rules.to_dict(only_changed=False),
            "players": self.settings.players,
            "bot": self.settings.bot,
            "seats": seats,
            "host": 0,
            "you": member.seat,
            "rule_cards": rule_cards,
        }

    def update_message(self, member: Member) -> dict[str, Any]:
        """Everything since the member's version, as its seat may see it."""
        game = self.game
        assert game is not None
        seat = member.seat
        view: View = game.view(seat)
        names = self.names()
        narrator = member.narrator
        if narrator is None:
            narrator = member.narrator = Narrator(
                names, you=seat, scoring=game.rules.scoring, edition=game.edition.name
            )
        narrator.learn(view.public)
        history = view.history
        events = narrate_events(narrator, history, member.version)
        member.version = len(history)
        legal = [legal_entry(game, view, action, names) for action in view.legal_actions]
        return {
            "type": "update",
            "code": self.code,
            "version": member.version,
            "view": view.to_dict(history=False),
            "events": events,
            "legal": legal,
            "asks": game.asks(you=seat is not None and seat == game.actor),
            "seats": self.seats_message(),
            "you": seat,
            "finished": game.is_over,
        }

    # ------------------------------------------------------------ automatic play

    def next_step(self) -> tuple[float, str] | None:
        """When the next automatic step is due and what it is (``interrupt`` or ``turn``), if any."""
        game = self.game
        if game is None or game.is_over or self.closed or self.thinking:
            return None
        settings = self.hub.settings
        if game.exposed and self.declined_at != self.version:
            bot_seats = [s for s in game.deciders() if self.seats[s].kind == "bot"]
            if bot_seats:
                own_call = any(s in game.exposed for s in bot_seats)
                return self.last_change + (0.0 if own_call else settings.bot_delay), "interrupt"
        actor = game.actor
        seat = self.seats[actor]
        if seat.kind == "bot":
            return self.last_change + settings.bot_delay, "turn"
        if self.is_away(actor):
            return max(self.last_change, seat.away_since) + settings.away_seconds, "turn"
        return None

    def automatic_step(self, kind: str) -> None:
        """Run a due step of :meth:`next_step`: the bots' UNO calls and catches, or a turn
        played by a bot (for a bot seat, or for an away player).  An ``ismcts`` bot thinks
        in a worker thread; its action is dropped if the game moved on meanwhile."""
        game = self.game
        if game is None or game.is_over:
            return
        version = self.version
        if kind == "interrupt":
            space = game.actions
            for seat in game.deciders():
                if self.seats[seat].kind != "bot":
                    continue
                if not any(space.types[a] in INTERRUPT_TYPES for a in game.legal_actions(seat)):
                    continue
                chosen = self.bot(seat).wants_interrupt(game.view(seat))
                if chosen is not None and chosen in game.legal_actions(seat):
                    self.apply(seat, chosen)
                    return
            self.declined_at = version
            self.hub.schedule(self)
            return
        seat = game.actor
        view = game.view(seat)
        if self.settings.bot == "ismcts":
            self.thinking = True
            task = asyncio.get_running_loop().create_task(self.think(seat, view, version))
            self.hub.tasks.add(task)
            task.add_done_callback(self.hub.tasks.discard)
            return
        self.play_for(seat, self.bot(seat).choose(view), version)

    async def think(self, seat: int, view: View, version: int) -> None:
        try:
            action = await asyncio.to_thread(self.bot(seat).choose, view)
            self.thinking = False
            self.play_for(seat, action, version)
        except Exception:
            log.exception("room %s: the bot at seat %d failed", self.tag, seat)
        finally:
            self.thinking = False

    def play_for(self, seat: int, action: int, version: int) -> None:
        game = self.game
        if game is None or self.closed or self.version != version:
            self.hub.schedule(self)  # the game moved on while the bot thought
            return
        if action not in game.legal_actions(seat):
            log.error("room %s: bot at seat %d chose an illegal action %r", self.tag, seat, action)
            action = game.legal_actions(seat)[0]
        self.apply(seat, action)

    def bot(self, seat: int) -> Bot:
        """The bot of a seat (a bot seat, or the stand-in for an away player)."""
        bot = self.bots.get(seat)
        if bot is None:
            options: dict[str, Any] = {"ms": self.hub.settings.ismcts_ms} if self.settings.bot == "ismcts" else {}
            seed = secrets.randbits(32) if self.setup is None else random.Random(self.setup.seed + seat).getrandbits(32)
            bot = make_bot(self.settings.bot, seed=seed, edition=self.settings.edition, **options)
            self.bots[seat] = bot
        return bot

    # ------------------------------------------------------------ storage

    def store_seats(self) -> None:
        self.hub.storage.save_seats(self.code, [seat.row(self.settings.bot) for seat in self.seats])

    def close(self) -> None:
        self.closed = True


_CARD_ACTIONS = frozenset({ActionType.PLAY, ActionType.PLAY_UNO, ActionType.DISCARD, ActionType.GIVE})
_SEAT_ACTIONS = frozenset({ActionType.TARGET, ActionType.CATCH})


def legal_entry(game: Game, view: View, action: int, names: list[str]) -> dict[str, Any]:
    """A legal action as an ``update`` lists it: notation, words, and what it is (from the engine's decoding).

    ``type`` is the :class:`~unokit.actions.ActionType` in lower case; ``card`` the card it plays,
    discards or gives, ``seat`` the seat it targets or catches, ``colour`` the colour it names
    (each ``None`` when the action has none)."""
    kind, arg = game.actions.decode(action)
    return {
        "action": game.actions.format(action),
        "label": describe_action(game, view, action, names),
        "type": kind.name.lower(),
        "card": card_name(arg) if kind in _CARD_ACTIONS else None,
        "seat": arg if kind in _SEAT_ACTIONS else None,
        "colour": colour_letter(arg) if kind is ActionType.COLOUR else None,
    }


def _reading(text: str) -> dict[str, Any]:
    card = rulecards.read_rule(text)
    return {"text": card.text, "reading": card.reading(), "enforced": card.enforced}


def read_rule_message(text: str) -> dict[str, Any]:
    """The ``reading`` answer to a ``read_rule`` request."""
    try:
        card = rulecards.read_rule(text)
    except rulecards.RuleTextError as exc:
        raise RoomError("bad-rule-card", str(exc)) from None
    return {"type": "reading", "text": card.text, "reading": card.reading(), "enforced": card.enforced}


class Hub:
    """Every room of the server, and their storage."""

    def __init__(self, storage: Storage, settings: ServerSettings | None = None) -> None:
        self.storage = storage
        self.settings = settings or ServerSettings()
        self.rooms: dict[str, Room] = {}
        self.queue: list[tuple[float, int, Room, int, str]] = []
        """The rooms' next automatic steps: a heap of (due, order, room, room token, kind)."""
        self.order = itertools.count()
        self.wake = asyncio.Event()
        self.scheduler: asyncio.Task[None] | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.expired_at = 0.0

    # ------------------------------------------------------------ automatic play

    def schedule(self, room: Room) -> None:
        """Plan ``room``'s next automatic step (dropping any planned before)."""
        room.token += 1
        step = room.next_step()
        if step is None:
            return
        due, kind = step
        heapq.heappush(self.queue, (due, next(self.order), room, room.token, kind))
        if self.queue[0][2] is room:
            self.wake.set()
        if self.scheduler is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return  # no loop yet: started with the app
            self.scheduler = loop.create_task(self.run_steps(), name="unokit rooms")

    async def run_steps(self) -> None:
        """Run the rooms' automatic steps when due, oldest first, yielding to the clients'
        messages at least every :data:`SLICE` seconds however many bots are waiting."""
        queue = self.queue
        slice_start = time.monotonic()
        while True:
            if not queue:
                self.wake.clear()
                await self.wake.wait()
                slice_start = time.monotonic()
                continue
            due, _, room, token, kind = queue[0]
            now = time.monotonic()
            if due > now:
                self.wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), due - now)
                slice_start = time.monotonic()
                continue
            heapq.heappop(queue)
            if token != room.token or room.closed:
                continue
            try:
                room.automatic_step(kind)
            except Exception:
                log.exception("room %s: automatic step failed", room.tag)
            if time.monotonic() - slice_start >= SLICE:
                await asyncio.sleep(0)
                slice_start = time.monotonic()

    def start(self) -> None:
        """Start running automatic steps (in the running event loop)."""
        if self.scheduler is None:
            self.scheduler = asyncio.get_running_loop().create_task(self.run_steps(), name="unokit rooms")

    # ------------------------------------------------------------ rooms

    def create(self, settings: RoomSettings, host_name: str, setup: FixedSetup | None = None) -> tuple[Room, str]:
        """A new room with ``host_name`` in seat 0; returns it and the host's secret.

        ``setup`` fixes the game's seed and first deal (for tests: the ``create`` message
        never gives one)."""
        self.expire_lobbies()
        active = sum(1 for room in self.rooms.values() if room.status != "finished")
        if active >= self.settings.max_rooms:
            raise RoomError("full", "the server holds as many rooms as it can: try again later")
        try:
            rules = Rules.from_dict(settings.rules)
            Game(  # refuses a set-up that cannot be played
                settings.edition,
                settings.players,
                seed=0,
                rules=rules,
                deck=setup.deck if setup is not None else None,
                dealer=setup.dealer if setup is not None else None,
            )
        except UnoError as exc:
            raise RoomError("malformed", str(exc)) from None
        settings = RoomSettings(settings.edition, settings.players, rules.to_dict(), settings.bot)
        for _ in range(20):
            code = new_room_code()
            if code not in self.rooms and not self.storage.room_exists(code):
                break
        else:  # pragma: no cover - 31**8 codes
            raise RoomError("server", "no free room code")
        created = time.time()
        self.storage.create_room(code, settings.to_dict(), created)
        room = Room(self, code, settings, created, setup)
        secret = new_secret()
        host = room.seats[0]
        host.kind, host.name, host.secret_hash = "human", host_name, hash_secret(secret)
        room.store_seats()
        self.rooms[code] = room
        self.schedule(room)
        return room, secret

    def get(self, code: str) -> Room:
        """The room of ``code`` (also one still in the store); ``not-found`` otherwise."""
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is None:
            room = self.restore(self._stored(code))
        return room

    async def fetch(self, code: str) -> Room:
        """:meth:`get`, but a stored match is replayed in a worker thread, not on the event loop."""
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is not None:
            return room
        stored = self._stored(code)
        record = self.storage.load_record(code) if stored.status != "lobby" else None
        game = await asyncio.to_thread(replay, record) if record is not None else None
        room = self.rooms.get(code)  # brought back meanwhile by another connection
        return room if room is not None else self.restore(stored, game)

    def _stored(self, code: str) -> StoredRoom:
        stored = self.storage.load_room(code) if len(code) == CODE_LENGTH else None
        if stored is None:
            raise RoomError("not-found", "no room has that code")
        return stored

    def restore(self, stored: StoredRoom, game: Game | None = None) -> Room:
        """A stored room back in memory, its game rebuilt from the record (or ``game``, so rebuilt)."""
        settings = RoomSettings.from_dict(stored.settings)
        room = Room(self, stored.code, settings, stored.created)
        now = time.monotonic()
        for row in stored.seats:
            seat = room.seats[row.seat]
            seat.name, seat.kind, seat.secret_hash, seat.rule_cards = (
                row.name,
                row.kind,
                row.secret_hash,
                row.rule_cards,
            )
            seat.away_since = now
        if game is not None:
            room.begin(game)
        elif stored.status != "lobby":
            record = self.storage.load_record(stored.code)
            if record is not None:
                room.begin(replay(record))
        self.rooms[stored.code] = room
        self.schedule(room)
        return room

    def load_all(self) -> int:
        """Bring back every match in play, and delete the lobbies long untouched; returns how many
        matches.  Lobbies and finished rooms come back when someone asks for them (:meth:`get`)."""
        self.expire_lobbies(force=True)
        count = 0
        for stored in self.storage.rooms_in_progress():
            if stored.code not in self.rooms:
                try:
                    self.restore(stored)
                    count += 1
                except Exception:
                    log.exception("room %s could not be restored", code_tag(stored.code))
        return count

    def expire_lobbies(self, force: bool = False) -> None:
        """Delete from the store the lobbies untouched for ``lobby_hours`` (at most every few minutes)."""
        now = time.time()
        if not force and now - self.expired_at < EXPIRY_EVERY:
            return
        self.expired_at = now
        deleted = self.storage.delete_stale_lobbies(now - self.settings.lobby_hours * 3600, set(self.rooms))
        if deleted:
            log.info("deleted %d lobbies untouched for %g hours", deleted, self.settings.lobby_hours)

    def evict(self, room: Room) -> None:
        """Forget a room in the lobby or finished that nobody is connected to (it stays in the
        store, and :meth:`get` brings it back)."""
        room.close()
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]

    def close(self) -> None:
        for room in list(self.rooms.values()):
            room.close()
        self.rooms.clear()
        self.queue.clear()
        if self.scheduler is not None:
            self.scheduler.cancel()
            self.scheduler = None
        for task in list(self.tasks):
            task.cancel()
