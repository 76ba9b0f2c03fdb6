"""Rooms: the lobby, the match, and the automatic steps of bots and away seats.

A :class:`Room` holds its settings, seats and, once started, the :class:`~unokit.engine.game.Game`.
Every rule comes from the game: the room only checks who asks (stale version, not a
decider) and hands the action to :meth:`Game.apply`.  Each connection attached to a room
is a :class:`Member`; what a member is sent is built from ``game.view(seat)`` and the
events redacted for that seat only.  The :class:`~unokit.web.hub.Hub` keeps the rooms,
stores them, runs their automatic steps and loads the unfinished ones back on start-up.

Every change of a room is stored before it is made: it is tried on a copy (of the game, of
the seats), the copy is written to the store in a worker thread (:mod:`unokit.web.store`), and
only then does it become the room's and go out to the members.  A write the store refuses
changes nothing (the player is told ``store``, the bots try again later).  Each room's changes
hold its :attr:`Room.lock`, so no two interleave.

A room's code has one live :class:`Room` at a time.  A room nobody is connected to is put away
(:meth:`Room.put_away`) under its lock, and only while no connection holds it on its way in
(:meth:`Room.held`); the object put away is closed for good: whatever is asked of it afterwards
raises :class:`RoomGone` before anything is stored or sent, and the caller fetches the room again.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hmac
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from unokit.bots import Bot, make_bot
from unokit.editions import rulecards
from unokit.editions.wild_jackpot import rule_cards_per_player, suggested_rule_cards
from unokit.engine.actions import INTERRUPT_TYPES, JUMP_TYPES
from unokit.engine.errors import NotationError, UnoError, WrongPlayerError
from unokit.engine.game import Game
from unokit.engine.record import to_record
from unokit.engine.rules import Rules
from unokit.engine.views import View
from unokit.i18n import Translator, catalog
from unokit.narrate import Narrator, narrate_events
from unokit.web.chat import CHAT_HISTORY, RoomChatLimits, chat_history
from unokit.web.hints import hint_for, hint_seed
from unokit.web.messages import asks_words, legal_entry, read_rule_message, reading_entry, view_words
from unokit.web.rematch import check_rematch, rematch_status
from unokit.web.settings import (
    CODE_ALPHABET,
    CODE_LENGTH,
    MIN_TIMER,
    TUTORIAL_PACE,
    FixedSetup,
    RoomError,
    RoomSettings,
    ServerSettings,
    code_tag,
    new_room_code,
    new_secret,
)
from unokit.web.social import BOT_AVATAR, leave_voice
from unokit.web.storage import ChatRow, SeatRow, StaleOwner, StorageError, hash_secret
from unokit.web.timers import DEAL_PAUSE, JUMP_GRACE, pause_for, reaction_times

if TYPE_CHECKING:
    from unokit.web.hub import Hub

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "MIN_TIMER",
    "FixedSetup",
    "Member",
    "Room",
    "RoomError",
    "RoomGone",
    "RoomSettings",
    "ServerSettings",
    "code_tag",
    "new_room_code",
    "new_secret",
    "read_rule_message",
]

log = logging.getLogger("unokit.web")

STORE_RETRY = 0.5
"""Seconds before a room's bots try again after the store refused a write; doubled after each
refusal, up to :data:`STORE_RETRY_MAX`."""
STORE_RETRY_MAX = 15.0

P = ParamSpec("P")
R = TypeVar("R")


class RoomGone(RoomError):
    """Asked of a room object that was put away (:meth:`Room.put_away`): nothing was done; fetch the
    room again (:meth:`Hub.fetch <unokit.web.hub.Hub.fetch>`)."""

    def __init__(self) -> None:
        super().__init__("not-found", "error.not_found")


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
    auto: bool = False
    """A human seat whose decisions the room's bot makes at bot speed (its player timed out or
    is away), until the player is back."""
    claim_name: str | None = None
    """A late arrival's name: this bot seat becomes theirs at the next round ..."""
    claim_hash: str | None = None
    """... and the hash of their secret."""
    avatar: str | None = None
    """The player's avatar and colour (:mod:`unokit.web.social`; ``None``: none chosen)."""
    colour: str | None = None

    def row(self, bot: str) -> SeatRow:
        return SeatRow(
            self.index,
            self.name,
            self.kind,
            bot if self.kind == "bot" else None,
            self.secret_hash,
            self.rule_cards,
            self.claim_name,
            self.claim_hash,
            self.avatar,
            self.colour,
        )

    def take(self, new: Seat, old: Seat) -> None:
        """What changed from ``old`` to ``new`` (copies of this seat), made to this seat."""
        for name in SEAT_FIELDS:
            value = getattr(new, name)
            if value != getattr(old, name):
                setattr(self, name, value)

    def empty(self, kind: str = "open") -> None:
        """The seat opens (or takes a bot): its name, secret, cards and claim are gone."""
        self.kind, self.name = kind, f"Bot {self.index}" if kind == "bot" else ""  # i18n: a name, the same for all
        self.secret_hash = self.rule_cards = self.claim_name = self.claim_hash = None
        self.avatar = self.colour = None
        self.auto = False


SEAT_FIELDS = tuple(item.name for item in dataclasses.fields(Seat) if item.name != "index")


_OUT_OF_TURN = INTERRUPT_TYPES | JUMP_TYPES
"""What a bot may do out of turn: call UNO, catch, jump in (house rule)."""


@dataclass(eq=False)
class Member:
    """One connection attached to a room: a seat's player (``seat``) or a spectator (``None``).

    ``send`` queues a message for the connection; it must not block."""

    send: Callable[[dict[str, Any]], None]
    seat: int | None = None
    send_text: Callable[[str], None] | None = field(default=None, repr=False)
    """Queues a message already in JSON (a full resync's, made once for every member who sees the
    match alike: :meth:`Room.send_state`); without it, a full resync is sent through ``send``."""
    room: Room | None = None
    version: int = 0
    """How many of the match's events this connection has been sent."""
    narrator: Narrator | None = field(default=None, repr=False)
    claim: int | None = None
    """A late arrival's claimed seat: watched as a spectator until the next round."""
    lang: str = "en"
    """The member's language (:data:`unokit.i18n.LANGUAGES`): every word it is sent is in it."""
    drop: Callable[[], None] | None = field(default=None, repr=False)
    """Closes the connection, so that its client reconnects (the room left this process: another owns it)."""

    @property
    def t(self) -> Translator:
        """The member's translator."""
        return catalog(self.lang)

    def set_lang(self, lang: str) -> None:
        """Speak ``lang`` from now on (the narration already sent keeps its language)."""
        if lang != self.lang:
            self.lang, self.narrator = lang, None


class Room:
    """A lobby, then a match."""

    def __init__(
        self,
        hub: Hub,
        code: str,
        settings: RoomSettings,
        created: float,
        setup: FixedSetup | None = None,
        seed: int | None = None,
    ) -> None:
        self.hub = hub
        self.code = code
        self.settings = settings
        self.setup = setup
        """The game fixed in advance (tests only), else ``None``: everything is drawn at random."""
        self.seed = seed if seed is not None else setup.seed if setup is not None else secrets.randbits(62)
        """The room's seed: settles the bots' UNO races (:func:`unokit.web.timers.reaction_times`)."""
        self.rules = Rules.from_dict(settings.rules)
        self.created = created
        self.seats = [Seat(index) for index in range(settings.players)]
        self.host: int | None = 0
        """The host's seat (``None``: nobody hosts now; the next player to join or come back will)."""
        self.game: Game | None = None
        self.status = "lobby"
        self.members: list[Member] = []
        self.bots: dict[int, Bot] = {}
        self.last_change = time.monotonic()
        self.pause = 0.0
        """The extra pause after the last change, in units of ``bot_delay`` (:func:`pause_for`)."""
        self.decision_since = self.last_change
        """When the pending turn decision began (the turn timer counts from it)."""
        self.tag = code_tag(code)
        """What the log says of the room (never its code, which opens it)."""
        self.declined_at = -1
        """The version at which the bots last let an UNO window pass."""
        self.raced: tuple[int, set[int]] = (-1, set())
        """The version of the UNO window and the bots that let it pass so far."""
        self.closed = False
        """Put away (or the server stops): this object does nothing more (:class:`RoomGone`)."""
        self.holds = 0
        """Connections on their way in (:meth:`held`): the room is not put away meanwhile."""
        self.token = 0
        """Changes with every change of the room: a step scheduled before it is dropped."""
        self.thinking = False
        """A bot of this room is thinking in a worker thread."""
        self.votes: set[int] = set()
        """The seats that voted for a rematch."""
        self.moved_to: str | None = None
        """The rematch room's code, once the rematch began."""
        self.chat_log: deque[ChatRow] = deque(maxlen=CHAT_HISTORY)
        self.chat_next = 1
        self.chat_limits = RoomChatLimits()
        self.lock = asyncio.Lock()
        """Held by each change of the room from its check to its showing: no two interleave."""
        self.stepping = False
        """An automatic step of the room is under way."""
        self.trouble: str | None = None
        """Why the store refused the room's last write (``None``: it took it)."""
        self.refusals = 0
        """Writes refused in a row."""
        self.retry_at = 0.0
        """When the bots try again after a refusal (monotonic clock)."""
        self.unwatched_since = time.monotonic()
        """When the last member left (the room is put away after ``idle_minutes`` of it)."""
        self.reading: set[int] = set()
        """After a round (not the match): the connected players still reading its results.  Until
        they have all sent ``continue`` (or ``results_seconds`` pass) nobody's decision is timed or
        made by a bot, and no one plays."""
        self.reading_until = 0.0
        """When play goes on without the players still reading (monotonic clock)."""
        self.fence: int | None = None
        """The room's fence in the store while this process owns it among several (:mod:`unokit.web.cluster.owner`):
        each write carries it, and the store refuses it once another process has taken the room."""

        self.voice: dict[int, Member] = {}
        """The seats in the voice chat, each with the one connection its signals go to (never stored)."""
        self.narrated: dict[tuple[int | None, str], tuple[int, str]] = {}
        """Every event of the match as each point of view (a seat, or the spectators) is told it in
        a language, in JSON, at the version it was made: shared by the full resyncs until the next event."""

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
        return [seat.name or f"Seat {seat.index}" for seat in self.seats]  # i18n: a name, the same for all

    def is_away(self, seat: int) -> bool:
        """A human seat without a connection."""
        return self.seats[seat].kind == "human" and not any(m.seat == seat for m in self.members)

    def seat_of_secret(self, secret: str) -> tuple[int, bool] | None:
        """The seat the secret opens, and whether it is a late arrival's claim on it."""
        digest = hash_secret(secret)
        found = None
        for seat in self.seats:
            if seat.secret_hash is not None and hmac.compare_digest(seat.secret_hash, digest):
                found = seat.index, False
            if seat.claim_hash is not None and hmac.compare_digest(seat.claim_hash, digest):
                found = seat.index, True
        return found

    def connected_humans(self) -> list[int]:
        return [seat.index for seat in self.seats if seat.kind == "human" and not self.is_away(seat.index)]

    def unused(self) -> bool:
        """Nobody is connected to the room, nor on their way in."""
        return not self.members and not self.holds

    @contextlib.contextmanager
    def held(self) -> Iterator[Room]:
        """Keep the room from being put away while a connection joins or enters it (entered at once,
        with no wait between the fetch of the room and the hold)."""
        if self.closed:
            raise RoomGone
        self.holds += 1
        try:
            yield self
        finally:
            self.holds -= 1
            if self.unused() and self.status != "playing" and not self.closed:
                self.hub.spawn(self.put_away())

    async def put_away(self) -> None:
        """Forget the room if nobody is connected to it nor on their way in, and nothing happens there
        until someone comes back (not a match in play): under its lock, so no change is under way.
        It stays in the store, and the next connection fetches it again."""
        async with self.lock:
            if not self.closed and self.unused() and self.status != "playing":
                self.hub.evict(self)

    # ------------------------------------------------------------ members

    async def attach(
        self, member: Member, seat: int | None, version: int = 0, claim: int | None = None, secret: str | None = None
    ) -> None:
        """Attach a connection (as ``seat``'s player, a spectator, or a late arrival waiting for
        the ``claim``ed seat): it is sent ``welcome`` (with ``secret``, if new), the room, then the chat."""
        async with self.lock:
            if self.closed:
                raise RoomGone
            if seat is not None and self.host is None and self.status == "lobby":
                with contextlib.suppress(RoomError):  # the store refused: the next arrival tries again
                    await self.set_host(seat)
            member.send(self.welcome(Member(member.send, seat=seat, claim=claim), secret))
            self.enter(member, seat, version, claim)
            member.send(chat_history(self))

    def enter(self, member: Member, seat: int | None, version: int, claim: int | None) -> None:
        self.members.append(member)
        member.room = self
        member.seat = seat
        member.claim = claim
        member.narrator = None
        member.version = version if 0 <= version <= self.version else 0
        if seat is not None:
            self.seats[seat].away_since = 0.0
            self.seats[seat].auto = False
        self.changed()

    def detach(self, member: Member) -> None:
        if member not in self.members:
            return
        self.members.remove(member)
        member.room = None
        leave_voice(self, member)
        if not self.members:
            self.unwatched_since = time.monotonic()
        if member.seat is not None and self.is_away(member.seat):
            self.seats[member.seat].away_since = time.monotonic()
            if member.seat in self.reading:
                self.read(member.seat)
        if not self.closed and self.votes:
            self.hub.spawn(self.rematch_if_ready())
        if not self.closed:
            self.changed()
        if self.status != "playing" and self.unused():
            self.hub.spawn(self.put_away())  # nothing happens there until someone comes back: it stays in the store

    async def rematch_if_ready(self) -> None:
        """Begin the rematch if the players still connected have all voted for it."""
        async with self.lock:
            if not self.closed:
                with contextlib.suppress(RoomError):  # the store refused: the next vote tries again
                    await check_rematch(self)

    def welcome(self, member: Member, secret: str | None = None) -> dict[str, Any]:
        message: dict[str, Any] = {
            "type": "welcome",
            "code": self.code,
            "seat": member.seat if member.claim is None else member.claim,
            "host": member.seat is not None
            and (member.seat == self.host or (self.host is None and self.status == "lobby")),
            "invite": f"/r/{self.code}",
        }
        if secret is not None:
            message["secret"] = secret
        if member.claim is not None:
            message["claimed"] = True
        return message

    # ------------------------------------------------------------ the results between rounds

    def start_reading(self) -> None:
        """A round has ended and the next is dealt: its first decision waits for the connected
        players (not played by the bot) to close the results, ``results_seconds`` at most."""
        limit = self.hub.settings.results_seconds
        self.reading = {s.index for s in self.seats if s.index in self.connected_humans() and not s.auto}
        if limit <= 0:
            self.reading.clear()
        self.reading_until = time.monotonic() + limit

    def read(self, seat: int) -> None:
        """``seat`` has closed the results (or left): once nobody is reading, play goes on, its
        turn timer counting from now."""
        self.reading.discard(seat)
        if not self.reading:
            self.end_reading()

    def end_reading(self) -> None:
        self.reading.clear()
        self.last_change = self.decision_since = time.monotonic()
        self.pause = DEAL_PAUSE

    def read_results(self, member: Member) -> None:
        """``continue``: the member's player has closed the round's results (anyone else's, or a
        late one, changes nothing)."""
        if self.game is None:
            raise RoomError("forbidden", "error.not_begun")
        if member.seat is None or member.seat not in self.reading:
            return
        self.read(member.seat)
        self.changed()

    def reading_message(self) -> dict[str, Any] | None:
        """``update.reading``: the players still reading the results and the seconds before play
        goes on without them (``None``: nobody holds the table)."""
        if not self.reading:
            return None
        remaining = max(0.0, self.reading_until - time.monotonic())
        return {
            "waiting": sorted(self.reading),
            "remaining": round(remaining, 2),
            "total": self.hub.settings.results_seconds,
        }

    # ------------------------------------------------------------ the store

    async def write(self, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Store a change before it is made (``function``: a method of the storage); the store's
        refusal raises :class:`RoomError` ``store`` and the change must not be made."""
        call = functools.partial(function, *args, **kwargs)
        if self.fence is not None:  # the store refuses the write once another process owns the room
            call = functools.partial(call, fence=self.fence)
        return await self.written(self.hub.store.run(call))

    async def written(self, writing: Awaitable[R]) -> R:
        """:meth:`write` of a call of the store already made (``writing``).  A room put away writes
        nothing (:class:`RoomGone`): the live room of its code is another object."""
        if self.closed:
            if isinstance(writing, Coroutine):
                writing.close()
            raise RoomGone
        try:
            result = await writing
        except StaleOwner:  # another process owns the room now: this object is done for
            self.hub.lost(self)
            raise RoomGone from None
        except StorageError as exc:
            self.refused(exc)
            raise RoomError("store", "error.store_refused") from None
        if self.trouble is not None:
            log.info("room %s: the store takes its writes again", self.tag)
            self.trouble, self.refusals = None, 0
        return result

    def refused(self, exc: StorageError) -> None:
        """The store refused a write: the bots wait a while before they try again."""
        log.warning("room %s: the store refused a write: %s", self.tag, exc)
        self.trouble = str(exc) or type(exc).__name__
        self.refusals += 1
        self.retry_at = time.monotonic() + min(STORE_RETRY_MAX, STORE_RETRY * 2 ** (self.refusals - 1))

    def automatic_refused(self, exc: RoomError) -> None:
        """An automatic step (a bot's move, a seat played for its player) was refused: a ``store``
        refusal is told to every member the first time (why play waits), anything else is logged."""
        if exc.code != "store":
            log.error("room %s: automatic step refused: %s", self.tag, exc.message)
        elif self.refusals == 1:
            for member in list(self.members):
                member.send({"type": "error", "code": "store", "message": member.t("error.store_trouble")})

    async def change_seats(self, change: Callable[[list[Seat]], R]) -> R:
        """Make ``change`` to a copy of the seats, store the copy, then make it to the room's seats:
        nothing changes if ``change`` raises or the store refuses.  The room's lock is held."""
        before = [dataclasses.replace(seat) for seat in self.seats]
        trial = [dataclasses.replace(seat) for seat in self.seats]
        result = change(trial)
        await self.write(self.hub.storage.save_seats, self.code, [seat.row(self.settings.bot) for seat in trial])
        for seat, new, old in zip(self.seats, trial, before, strict=True):
            seat.take(new, old)
        return result

    # ------------------------------------------------------------ lobby

    async def join(self, name: str, avatar: str | None = None, colour: str | None = None) -> tuple[int, str, bool]:
        """Take the lowest open seat (with the player's avatar and colour), or during a match claim
        the lowest bot seat (``late_join``); returns the seat, its new secret and whether it is a claim."""
        secret = new_secret()

        def claim(seats: list[Seat]) -> tuple[int, str, bool]:
            if self.status == "playing" and self.settings.late_join:
                for seat in seats:
                    if seat.kind == "bot" and seat.claim_name is None:
                        seat.claim_name, seat.claim_hash = name, hash_secret(secret)
                        return seat.index, secret, True
            if self.status != "lobby":
                raise RoomError("started", "error.begun_watch")
            for seat in seats:
                if seat.kind == "open":
                    seat.kind, seat.name, seat.secret_hash, seat.rule_cards = "human", name, hash_secret(secret), None
                    seat.avatar, seat.colour = avatar, colour
                    return seat.index, secret, False
            raise RoomError("full", "error.seats_taken")

        async with self.lock:
            return await self.change_seats(claim)

    async def set_seat(self, member: Member, index: int, bot: bool) -> None:
        """The host puts a bot in an open (or away) seat, or empties a bot's seat."""

        def change(seats: list[Seat]) -> None:
            self.check_host(member)
            if index >= len(seats) or index == self.host:
                raise RoomError("forbidden", "error.seat_fixed", seat=index)
            seat = seats[index]
            if bot:
                if seat.kind == "human" and not self.is_away(index):
                    raise RoomError("forbidden", "error.seat_taken", name=seat.name)
                seat.empty("bot")
            else:
                if seat.kind != "bot":
                    raise RoomError("forbidden", "error.seat_no_bot", seat=index)
                seat.empty()

        async with self.lock:
            if bot and index < len(self.seats) and self.seats[index].kind == "bot":
                self.check_host(member)
                return
            await self.change_seats(change)
            self.changed()

    async def write_rule_cards(self, member: Member, texts: list[str]) -> None:
        """A seat's rule cards (Wild Jackpot lobby)."""
        if not self.jackpot:
            raise RoomError("forbidden", "error.jackpot_only")
        if member.seat is None:
            raise RoomError("forbidden", "error.spectator_rule_cards")
        count = self.rule_card_count()
        if len(texts) != count:
            raise RoomError("bad-rule-card", "error.rule_card_count", count=count, given=len(texts))
        cleaned = []
        for number, text in enumerate(texts, 1):
            try:
                cleaned.append(rulecards.clean_rule_text(text))
            except rulecards.RuleTextError as exc:
                raise RoomError("bad-rule-card", "error.rule_card", number=number, detail=exc.words) from None
        seat = member.seat

        def change(seats: list[Seat]) -> None:
            if self.status != "lobby":
                raise RoomError("started", "error.rule_cards_late")
            seats[seat].rule_cards = cleaned

        async with self.lock:
            await self.change_seats(change)
            self.changed()

    def check_host(self, member: Member) -> None:
        if member.seat is None or member.seat != self.host:
            raise RoomError("forbidden", "error.host_only")
        if self.status != "lobby":
            raise RoomError("started", "error.begun")

    async def set_host(self, seat: int | None) -> None:
        """The host's seat, stored first.  The room's lock is held."""
        await self.write(self.hub.storage.set_host, self.code, seat)
        self.host = seat

    def next_human(self, after: int, connected: bool) -> int | None:
        """The next human seat after ``after`` in seat order (wrapping), connected if asked."""
        count = len(self.seats)
        for step in range(1, count):
            index = (after + step) % count
            if self.seats[index].kind == "human" and not (connected and self.is_away(index)):
                return index
        return None

    async def pass_host(self) -> None:
        """The host has been gone ``host_grace`` seconds: the next connected player hosts.  The room's lock is held."""
        if self.status != "lobby" or self.host is None or not self.is_away(self.host):
            return
        heir = self.next_human(self.host, connected=True)
        if heir is not None:
            await self.set_host(heir)
            self.changed()

    async def kick(self, member: Member, index: int) -> None:
        """The host empties a player's seat (lobby only): its secret opens nothing more."""

        def change(seats: list[Seat]) -> None:
            self.check_host(member)
            if index >= len(seats) or index == self.host or seats[index].kind != "human":
                raise RoomError("forbidden", "error.seat_no_player", seat=index)
            seats[index].empty()

        async with self.lock:
            await self.change_seats(change)
            for other in [m for m in self.members if m.seat == index]:
                other.send({"type": "removed", "message": other.t("room.removed")})
                self.detach(other)
            self.changed()

    async def leave(self, member: Member) -> None:
        """A member leaves: in the lobby their seat opens (and the host passes on); during a
        match their seat is played by the room's bot at once, until they come back."""
        async with self.lock:
            seat = member.seat
            if seat is not None and self.status == "lobby":
                if self.host == seat:
                    await self.set_host(self.next_human(seat, connected=False))
                await self.change_seats(lambda seats: seats[seat].empty())
                for other in [m for m in self.members if m.seat == seat]:
                    other.send({"type": "left"})
                    self.detach(other)
                return
            if seat is not None and self.status == "playing":
                self.seats[seat].auto = True
            member.send({"type": "left"})
            self.detach(member)

    def back(self, member: Member) -> None:
        """A player takes their seat back from the room's bot."""
        if member.seat is None:
            raise RoomError("forbidden", "error.spectator_no_seat")
        self.take_back(member.seat)

    def take_back(self, seat: int) -> None:
        if self.seats[seat].auto:
            self.seats[seat].auto = False
            self.changed()

    async def start(self, member: Member) -> None:
        """The host starts the match: every seat must be taken (by a player or a bot)."""
        async with self.lock:
            self.check_host(member)
            empty = [seat.index for seat in self.seats if seat.kind == "open"]
            if empty:
                raise RoomError("forbidden", "error.open_seats", seats=", ".join(map(str, empty)))  # i18n: seat numbers
            await self.start_match()

    async def start_match(self) -> None:
        """Deal the match, store its set-up, then show it.  The room's lock is held."""
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
        await self.write(self.hub.storage.start_game, self.code, to_record(game, self.names()))
        self.begin(game)
        self.changed()

    def begin(self, game: Game) -> None:
        self.game = game
        self.status = "finished" if game.is_over else "playing"
        self.last_change = self.decision_since = time.monotonic()

    # ------------------------------------------------------------ play

    async def act(self, member: Member, text: str, version: int) -> None:
        """A player's action in notation, if the room is at ``version`` and it is legal for them."""
        async with self.lock:
            game = self.game
            if game is None:
                raise RoomError("forbidden", "error.not_begun")
            seat = member.seat
            if seat is None:
                raise RoomError("forbidden", "error.spectator_play")
            self.take_back(seat)  # any action, even one refused, shows the player is back
            if version != self.version:
                raise RoomError("stale", "error.stale", version=self.version, given=version)
            if self.reading:
                raise RoomError("forbidden", "error.reading")
            try:
                action = game.actions.parse(text)
            except NotationError as exc:
                raise RoomError("illegal", "error.detail", detail=str(exc)) from None
            try:
                await self.apply(seat, action)
            except WrongPlayerError as exc:  # the engine's: not this seat's decision
                raise RoomError(
                    "not-your-turn", "error.not_your_turn", detail=str(exc), name=self.names()[game.actor]
                ) from None
            except UnoError as exc:  # the engine's reason, GameOverError included
                raise RoomError("illegal", "error.detail", detail=str(exc)) from None

    def hint(self, member: Member, version: int) -> dict[str, Any]:
        """The ``hint`` answer: the heuristic bot's move for the member's own decision, computed
        from that seat's view alone (:func:`unokit.web.hints.hint_for`)."""
        game = self.game
        if game is None or game.is_over:
            raise RoomError("forbidden", "error.hint_match")
        seat = member.seat
        if seat is None:
            raise RoomError("forbidden", "error.hint_spectator")
        if version != self.version:
            raise RoomError("stale", "error.stale", version=self.version, given=version)
        if seat != game.actor or seat not in game.deciders():
            raise RoomError("not-your-turn", "error.hint_turn")
        view = game.view(seat)
        hint = hint_for(view, hint_seed(self.seed, seat, version))
        return {
            "type": "hint",
            "version": version,
            "move": legal_entry(game, view, hint.action, self.names(), member.t),
            "why": hint.words(member.t),
        }

    async def apply(self, seat: int, action: int) -> None:
        """Apply an action to a copy of the game through the engine (which raises, changing nothing,
        if it is illegal), store it with what it changed, then make the copy the room's game and
        show it.  The room's lock is held."""
        game = self.game
        assert game is not None
        trial = game.clone()
        trial.apply(seat, action)
        new = trial.events[len(game.events) :]
        new_round = any(event[0] == "round_end" for event in new) and not trial.is_over
        seats = self.seated_late_arrivals() if new_round else None
        result = None
        if trial.is_over:
            scores = list(trial.scores)
            result = {"winner": trial.winner, "scores": scores, "rounds": trial.round, "names": self.names()}
        await self.written(
            self.hub.store.append_action(
                self.code,
                len(trial.history) - 1,
                seat,
                trial.actions.format(action),
                seats=[seat.row(self.settings.bot) for seat in seats] if seats is not None else None,
                result=result,
                fence=self.fence,
            )
        )
        self.game = trial
        self.last_change = time.monotonic()
        self.pause = pause_for(new)
        if trial.actions.types[action] not in INTERRUPT_TYPES:
            self.decision_since = self.last_change
        if trial.is_over:
            self.status = "finished"
        if seats is not None and seats != self.seats:
            self.seat_late_arrivals(seats)  # the next round is dealt: claimed seats pass to their players
        if new_round:
            self.start_reading()
        self.changed()
        if trial.is_over and self.unused():
            self.hub.evict(self)

    def seated_late_arrivals(self) -> list[Seat]:
        """The seats once the late arrivals' claims are theirs (copies: the room's are unchanged)."""
        seats = [dataclasses.replace(seat) for seat in self.seats]
        now = time.monotonic()
        for seat in seats:
            if seat.claim_name is not None and seat.kind == "bot":
                seat.kind, seat.name, seat.secret_hash = "human", seat.claim_name or "", seat.claim_hash
                seat.claim_name = seat.claim_hash = None
                seat.auto, seat.away_since = False, now
        return seats

    def seat_late_arrivals(self, seats: list[Seat]) -> None:
        """Make ``seats`` (from :meth:`seated_late_arrivals`, stored) the room's: the members who
        claimed a seat are its players now."""
        before = [dataclasses.replace(seat) for seat in self.seats]
        for seat, new, old in zip(self.seats, seats, before, strict=True):
            seat.take(new, old)
        for member in self.members:
            if member.claim is not None and self.seats[member.claim].kind == "human":
                member.seat, member.claim = member.claim, None
            member.narrator = None  # the names changed

    # ------------------------------------------------------------ messages

    def changed(self) -> None:
        """Send every member the room as it now is, and schedule its next automatic step.  A member
        whose message cannot be made is told so, and is sent everything again at the next change:
        one connection's failure never starves the others, nor that one for good."""
        for member in list(self.members):
            try:
                self.send_state(member)
            except Exception:
                log.exception("room %s: an update could not be made for a connection", self.tag)
                member.version, member.narrator = 0, None
                member.send({"type": "error", "code": "server", "message": member.t("error.missed_update")})
        self.hub.schedule(self)

    def send_state(self, member: Member) -> None:
        """The room as ``member`` sees it: ``lobby``, or the ``update`` since its version.  A full resync
        (more than ``resync_events`` events behind) sends every event from the start, narrated and
        made JSON once for every member of that point of view and language at that version."""
        if self.game is None:
            member.send(self.lobby_message(member))
        elif self.version - member.version > self.hub.settings.resync_events:
            message = self.update_message(member, narrate=False)
            events = self.narrated_events(member.seat, member.lang)
            if member.send_text is None:
                member.send(message | {"events": json.loads(events)})
            else:
                text = json.dumps(message, separators=(",", ":"))
                member.send_text(f'{text[:-1]},"events":{events}}}')  # i18n: JSON, not words
        else:
            member.send(self.update_message(member))

    def narrated_events(self, seat: int | None, lang: str) -> str:
        """Every event of the match as ``seat`` (``None``: a spectator) is told them in ``lang``, in
        JSON (:attr:`narrated`: made once per version, point of view and language)."""
        game = self.game
        assert game is not None
        key = (seat, lang)
        found = self.narrated.get(key)
        if found is not None and found[0] == self.version:
            return found[1]
        if any(version != self.version for version, _ in self.narrated.values()):
            self.narrated.clear()  # the match went on: what was made for an earlier version is dropped
        view = game.view(seat)
        narrator = Narrator(
            self.names(), you=seat, scoring=game.scoring, edition=game.edition.name, codes=False, lang=catalog(lang)
        )
        narrator.learn(view.public)
        text = json.dumps(narrate_events(narrator, view.history, 0), separators=(",", ":"))
        self.narrated[key] = (self.version, text)
        return text

    def seats_message(self) -> list[dict[str, Any]]:
        """Every seat with its name (an open seat's is :meth:`names`'), kind, whether it is away,
        played by the room's bot (``auto``) or claimed by a late arrival."""
        return [
            {
                "seat": s.index,
                "name": name,
                "kind": s.kind,
                "away": self.is_away(s.index),
                "auto": s.auto and s.kind == "human",
                "claimed": s.claim_name is not None,
                "avatar": BOT_AVATAR if s.kind == "bot" else s.avatar if s.kind == "human" else None,
                "colour": s.colour if s.kind == "human" else None,
                "voice": s.index in self.voice,
            }
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
                "mine": [reading_entry(text, member.t) for text in mine or ()],
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
            "host": self.host,
            "you": member.seat,
            "rule_cards": rule_cards,
            "options": self.settings.options(),
        }

    def update_message(self, member: Member, narrate: bool = True) -> dict[str, Any]:
        """Everything since the member's version, as its seat may see it (without ``narrate``, the
        message without its ``events``, which :meth:`send_state` adds: every event from the start)."""
        game = self.game
        assert game is not None
        seat = member.seat
        view: View = game.view(seat)
        names = self.names()
        t = member.t
        history = view.history
        events: list[dict[str, Any]] | None = None
        if narrate:
            narrator = member.narrator
            if narrator is None:
                narrator = member.narrator = Narrator(
                    names, you=seat, scoring=game.scoring, edition=game.edition.name, codes=False, lang=member.t
                )
            narrator.learn(view.public)
            events = narrate_events(narrator, history, member.version)
        else:
            member.narrator = None  # the next update's narrator is told the round it starts in
        member.version = len(history)
        legal = [] if self.reading else [legal_entry(game, view, action, names, t) for action in view.legal_actions]
        message: dict[str, Any] = {
            "type": "update",
            "code": self.code,
            "version": member.version,
            "view": view_words(view, t),
            "events": events,
            "legal": legal,
            "asks": asks_words(view, seat is not None and seat == game.actor, t),
            "seats": self.seats_message(),
            "you": seat,
            "finished": game.is_over,
            "timer": self.timer_message(),
            "reading": self.reading_message(),
            "host": self.host,
            "options": self.settings.options(),
            "rematch": rematch_status(self),
            "claimed_seat": member.claim,
        }
        if events is None:
            del message["events"]
        return message

    def timer_message(self) -> dict[str, Any] | None:
        """The turn timer of the human seat deciding now, if it is timed."""
        deadline = self.turn_deadline()
        if deadline is None or not self.settings.timer:
            return None
        assert self.game is not None
        remaining = max(0.0, deadline - time.monotonic())
        return {"seat": self.game.actor, "remaining": round(remaining, 2), "total": self.settings.timer}

    # ------------------------------------------------------------ automatic play

    def turn_deadline(self) -> float | None:
        """When the room's bot makes the pending decision of the human seat deciding now (its
        turn timer, or ``away_seconds`` after it left), if it is not already played as ``auto``."""
        game = self.game
        if game is None or game.is_over or self.reading:
            return None
        seat = self.seats[game.actor]
        if seat.kind != "human" or seat.auto:
            return None
        deadlines = []
        if self.settings.timer:
            deadlines.append(self.decision_since + self.settings.timer)
        if self.is_away(seat.index):
            deadlines.append(max(self.last_change, seat.away_since) + self.hub.settings.away_seconds)
        return min(deadlines) if deadlines else None

    def racers(self) -> list[tuple[int, bool]]:
        """The bots that may act out of turn now (call UNO for themselves, catch, jump in) and have
        not let it pass."""
        game = self.game
        assert game is not None
        version, passed = self.raced
        if version != self.version:
            passed = set()
            self.raced = (self.version, passed)
        space = game.actions
        found = []
        for seat in game.deciders():
            if self.seats[seat].kind != "bot" or seat in passed:
                continue
            legal = game.legal_actions(seat)
            if any(space.types[a] in _OUT_OF_TURN for a in legal):
                found.append((seat, space.call_uno in legal))
        return found

    def first_racer(self) -> tuple[int, float] | None:
        """The bot that reacts first to the open UNO window or jump-in, and its reaction time (in units
        of ``bot_delay``)."""
        racers = self.racers()
        if not racers:
            return None
        times = reaction_times(self.seed, self.version, racers)
        seat = min(times, key=lambda s: (times[s], s))
        return seat, times[seat]

    def next_step(self) -> tuple[float, str] | None:
        """When the next automatic step is due and what it is (``interrupt``, ``turn``, ``timeout``
        for a human's decision made by the room's bot, ``host`` in the lobby), if any."""
        step = self.due_step()
        if step is not None and self.trouble is not None:  # the store refused: wait before trying again
            return max(step[0], self.retry_at), step[1]
        return step

    def due_step(self) -> tuple[float, str] | None:
        game = self.game
        if self.closed or self.thinking or self.stepping:
            return None
        settings = self.hub.settings
        if game is None:
            if self.status == "lobby" and self.host is not None and self.is_away(self.host):
                return self.seats[self.host].away_since + settings.host_grace, "host"
            return None
        if game.is_over:
            return None
        if self.reading:
            return self.reading_until, "read"
        delay = settings.bot_delay * (TUTORIAL_PACE if self.settings.tutorial else 1.0)
        paused = self.last_change + delay * self.pause
        if self.declined_at != self.version and (game.exposed or len(game.deciders()) > 1):
            first = self.first_racer()
            if first is not None:
                return paused + delay * first[1], "interrupt"
        seat = self.seats[game.actor]
        if seat.kind == "bot" or seat.auto:
            if self.jump_in_watched():
                paused += delay * JUMP_GRACE
            return paused + delay, "turn"
        deadline = self.turn_deadline()
        return (deadline, "timeout") if deadline is not None else None

    def jump_in_watched(self) -> bool:
        """Whether a Jump-In window is open (house rule) while a connected player, not played by the
        bot, other than the actor and the card's player sits at the table.  Whether anyone holds the
        card is not asked: the wait must not tell the table that someone does."""
        game = self.game
        assert game is not None
        state = game.house_state()
        if state.get("jump_card", -1) < 0:
            return False
        return any(
            seat.kind == "human" and not seat.auto and not self.is_away(seat.index)
            for seat in self.seats
            if seat.index not in (game.actor, state["jump_from"])
        )

    async def step(self, kind: str, token: int) -> None:
        """Run a due automatic step (:meth:`automatic_step`) under the room's lock, unless the room
        changed since it was planned (``token``); then plan the next."""
        self.stepping = True
        try:
            async with self.lock:
                if token == self.token and not self.closed:
                    await self.automatic_step(kind)
        except RoomError as exc:
            self.automatic_refused(exc)
        except Exception:
            log.exception("room %s: automatic step failed", self.tag)
        finally:
            self.stepping = False
            if not self.closed:
                self.hub.schedule(self)

    async def automatic_step(self, kind: str) -> None:
        """Run a due step of :meth:`next_step`: the bots' UNO calls and catches, or a turn
        played by a bot (for a bot seat, or for a player who timed out or is away: that seat
        is then ``auto``).  An ``ismcts`` bot thinks in a worker thread; its action is
        dropped if the game moved on meanwhile."""
        if kind == "host":
            await self.pass_host()
            return
        if kind == "read":
            if self.reading and time.monotonic() >= self.reading_until:
                self.end_reading()
                self.changed()
            return
        game = self.game
        if game is None or game.is_over:
            return
        version = self.version
        if kind == "interrupt":
            first = self.first_racer()
            if first is not None:
                seat = first[0]
                chosen = self.bot(seat).wants_interrupt(game.view(seat))
                if chosen is not None and chosen in game.legal_actions(seat):
                    await self.apply(seat, chosen)
                    return
                self.raced[1].add(seat)
                if self.racers():
                    self.hub.schedule(self)
                    return
            self.declined_at = version
            self.hub.schedule(self)
            return
        seat = game.actor
        if kind == "timeout":
            self.seats[seat].auto = True
        view = game.view(seat)
        if self.settings.bot == "ismcts":
            self.thinking = True
            task = asyncio.get_running_loop().create_task(self.think(seat, view, version))
            self.hub.tasks.add(task)
            task.add_done_callback(self.hub.tasks.discard)
            return
        await self.play_for(seat, self.bot(seat).choose(view), version)

    async def think(self, seat: int, view: View, version: int) -> None:
        try:
            action = await asyncio.to_thread(self.bot(seat).choose, view)
            async with self.lock:
                self.thinking = False
                await self.play_for(seat, action, version)
        except RoomError as exc:
            self.automatic_refused(exc)
        except Exception:
            log.exception("room %s: the bot at seat %d failed", self.tag, seat)
        finally:
            self.thinking = False
            if not self.closed:
                self.hub.schedule(self)

    async def play_for(self, seat: int, action: int, version: int) -> None:
        """Play a bot's choice, unless the game moved on while it chose.  The room's lock is held."""
        game = self.game
        if game is None or self.closed or self.version != version:
            return
        if action not in game.legal_actions(seat):
            log.error("room %s: bot at seat %d chose an illegal action %r", self.tag, seat, action)
            action = game.legal_actions(seat)[0]
        await self.apply(seat, action)

    def bot(self, seat: int) -> Bot:
        """The bot of a seat (a bot seat, or the stand-in for a player who timed out or is away)."""
        bot = self.bots.get(seat)
        if bot is None:
            options: dict[str, Any] = {"ms": self.hub.settings.ismcts_ms} if self.settings.bot == "ismcts" else {}
            seed = secrets.randbits(32) if self.setup is None else random.Random(self.setup.seed + seat).getrandbits(32)
            bot = make_bot(self.settings.bot, seed=seed, edition=self.settings.edition, **options)
            self.bots[seat] = bot
        return bot

    def close(self) -> None:
        self.closed = True
