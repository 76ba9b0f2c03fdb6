"""Rooms: the shell around the room core, with the lobby's and the match's I/O and the automatic steps.

A :class:`Room` is a room core (:class:`~unokit.web.core.room.RoomCore`: settings, seats, the match,
and every rule, without I/O) with what needs I/O: its lock, its connections (each a :class:`Member`),
its bots, its writes to the store and its automatic steps.  Every rule comes from the game: the core
only checks who asks (stale version, not a decider) and hands the action to :meth:`Game.apply`; what
a member is sent is built from ``game.view(seat)`` and the events redacted for that seat only.  The
:class:`~unokit.web.hub.Hub` (a :class:`RoomHost` to the room) keeps the rooms, stores them, runs
their automatic steps and loads the unfinished ones back on start-up.

Every change of a room is stored before it is made: the core decides it on a copy (of the game, of
the seats) into a :class:`~unokit.web.core.changes.Change`, :meth:`Room.commit` writes it to the
store in a worker thread (:mod:`unokit.web.store`), and only then does it become the room's and go
out to the members.  A write the store refuses changes nothing (the player is told ``store``,
the bots try again later).  Each room's changes hold its :attr:`Room.lock`, so no two interleave.

A room's code has one live :class:`Room` at a time.  A room nobody is connected to is put away
(:meth:`Room.put_away`) under its lock, and only while no connection holds it on its way in
(:meth:`Room.held`); the object put away is closed for good: whatever is asked of it afterwards
raises :class:`RoomGone` before anything is stored or sent, and the caller fetches the room again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any, ParamSpec, Protocol, TypeVar

from unokit.bots import Bot, make_bot
from unokit.editions.wild_jackpot import suggested_rule_cards
from unokit.engine.game import Game
from unokit.engine.views import View
from unokit.i18n import Translator, catalog
from unokit.narrate import Narrator, narrate_events
from unokit.web.core.changes import EVERYONE, Change
from unokit.web.core.chat import chat_history
from unokit.web.core.room import RoomCore
from unokit.web.core.seats import (
    SEAT_FIELDS,
    Seat,
)
from unokit.web.core.writes import AppendAction, AppendChat, SaveSeats, SetHost, SetMoved, StartGame, Write
from unokit.web.hints import hint_for, hint_seed
from unokit.web.messages import asks_words, legal_entry, read_rule_message, view_words
from unokit.web.rates import RoomChatLimits
from unokit.web.settings import (
    CODE_ALPHABET,
    CODE_LENGTH,
    MIN_TIMER,
    FixedSetup,
    RoomError,
    RoomSettings,
    ServerSettings,
    code_tag,
    new_room_code,
    new_secret,
)
from unokit.web.storage import StaleOwner, Storage, StorageError, hash_secret
from unokit.web.store import Store

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "MIN_TIMER",
    "SEAT_FIELDS",
    "FixedSetup",
    "Member",
    "Room",
    "RoomError",
    "RoomGone",
    "RoomHost",
    "RoomSettings",
    "Seat",
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


class RoomHost(Protocol):
    """What a room asks of whoever keeps it (:class:`~unokit.web.hub.Hub`): the server's settings,
    the store, the scheduler of its automatic steps, and the rematch."""

    settings: ServerSettings
    storage: Storage
    store: Store
    tasks: set[asyncio.Task[None]]

    def spawn(self, work: Coroutine[Any, Any, None]) -> None: ...

    def schedule(self, room: Room) -> None: ...

    def evict(self, room: Room) -> None: ...

    def lost(self, room: Room) -> None: ...

    async def check_rematch(self, room: Room) -> bool: ...

    async def new_room(
        self,
        settings: RoomSettings,
        setup: FixedSetup | None = None,
        prepare: Callable[[Room], None] | None = None,
    ) -> Room: ...


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


class Room(RoomCore):
    """A lobby, then a match: the room core (:class:`~unokit.web.core.room.RoomCore`) with its lock,
    its connections, its writes to the store and its automatic steps."""

    def __init__(
        self,
        hub: RoomHost,
        code: str,
        settings: RoomSettings,
        created: float,
        setup: FixedSetup | None = None,
        seed: int | None = None,
    ) -> None:
        seed = seed if seed is not None else setup.seed if setup is not None else secrets.randbits(62)
        super().__init__(code, settings, created, seed, hub.settings, time.monotonic(), setup)
        self.hub = hub
        self.members: list[Member] = []
        self.bots: dict[int, Bot] = {}
        self.tag = code_tag(code)
        """What the log says of the room (never its code, which opens it)."""
        self.closed = False
        """Put away (or the server stops): this object does nothing more (:class:`RoomGone`)."""
        self.holds = 0
        """Connections on their way in (:meth:`held`): the room is not put away meanwhile."""
        self.token = 0
        """Changes with every change of the room: a step scheduled before it is dropped."""
        self.thinking = False
        """A bot of this room is thinking in a worker thread."""
        self.chat_limits = RoomChatLimits()
        self.lock = asyncio.Lock()
        """Held by each change of the room from its check to its showing: no two interleave."""
        self.stepping = False
        """An automatic step of the room is under way."""
        self.fence: int | None = None
        """The room's owner fence its writes carry (:meth:`Storage.claim_room
        <unokit.web.storage.Storage.claim_room>`; ``None``: not checked, one process owns every room)."""
        self.trouble: str | None = None
        """Why the store refused the room's last write (``None``: it took it)."""
        self.refusals = 0
        """Writes refused in a row."""
        self.retry_at = 0.0
        """When the bots try again after a refusal (monotonic clock)."""
        self.unwatched_since = time.monotonic()
        """When the last member left (the room is put away after ``idle_minutes`` of it)."""

        self.voice: dict[int, Member] = {}
        """The seats in the voice chat, each with the one connection its signals go to (never stored)."""
        self.narrated: dict[tuple[int | None, str], tuple[int, str]] = {}
        """Every event of the match as each point of view (a seat, or the spectators) is told it in
        a language, in JSON, at the version it was made: shared by the full resyncs until the next event."""

    # ------------------------------------------------------------ queries

    def connected(self, seat: int) -> bool:
        return any(m.seat == seat for m in self.members)

    def voice_seats(self) -> list[int]:
        return sorted(self.voice)

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
            if seat is not None:
                with contextlib.suppress(RoomError):  # the store refused: the next arrival tries again
                    await self.commit(self.decide_claim_host(seat))
            member.send(self.welcome(Member(member.send, seat=seat, claim=claim), secret))
            self.enter(member, seat, version, claim)
            member.send(chat_history(self.chat_log))

    def enter(self, member: Member, seat: int | None, version: int, claim: int | None) -> None:
        self.members.append(member)
        member.room = self
        member.seat = seat
        member.claim = claim
        member.narrator = None
        member.version = version if 0 <= version <= self.version else 0
        self.arrive(seat)
        self.changed()

    def detach(self, member: Member) -> None:
        if member not in self.members:
            return
        self.members.remove(member)
        member.room = None
        self.leave_voice(member)
        if not self.members:
            self.unwatched_since = time.monotonic()
        self.depart(member.seat, time.monotonic())
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
                    await self.hub.check_rematch(self)

    def leave_voice(self, member: Member) -> None:
        """A member that leaves the room leaves its voice too (the room tells everyone afterwards)."""
        for seat, holder in list(self.voice.items()):
            if holder is member:
                del self.voice[seat]

    # ------------------------------------------------------------ the results between rounds

    def read_results(self, member: Member) -> None:
        """``continue``: the member's player has closed the round's results (anyone else's, or a
        late one, changes nothing)."""
        if self.close_results(member.seat, time.monotonic()):
            self.changed()

    # ------------------------------------------------------------ the store

    async def perform(self, write: Write) -> None:
        """Store a change before it is made (``write``: what the core asks to store), with the room's
        code and fence; the store's refusal raises :class:`RoomError` ``store`` and the change must
        not be made."""
        store, storage, code, fence = self.hub.store, self.hub.storage, self.code, self.fence
        match write:
            case SaveSeats(seats):
                await self.write(storage.save_seats, code, seats, fence=fence)
            case SetHost(host):
                await self.write(storage.set_host, code, host, fence=fence)
            case AppendChat(row):
                await self.write(storage.append_chat, code, row, fence=fence)
            case StartGame(setup):
                await self.write(storage.start_game, code, setup, fence=fence)
            case SetMoved(moved_to, chat):
                await self.write(storage.set_moved, code, moved_to, chat, fence=fence)
            case AppendAction(index, seat, notation, seats, result):
                await self.written(
                    store.append_action(code, index, seat, notation, seats=seats, result=result, fence=fence)
                )

    async def write(self, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Store a change before it is made (``function``: a method of the storage); the store's
        refusal raises :class:`RoomError` ``store`` and the change must not be made."""
        return await self.written(self.hub.store.run(function, *args, **kwargs))

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

    async def commit(self, change: Change | None) -> None:
        """Make a change the core decided (:class:`~unokit.web.core.changes.Change`): each write stored
        (with the room's fence), then its part made the room's (after an action that dealt a new round,
        the late arrivals seated and the results read); then its messages sent, the connections it lets
        go detached, and the room shown.  A write the store refuses raises :class:`RoomError`
        ``store`` and what was not stored is not made.  The room's lock is held."""
        if change is None:
            return
        for write in change.writes:
            await self.perform(write)
            seated = self.take(write, change)
            if seated and change.play is not None:
                self.seat_late_arrivals()  # the next round is dealt: claimed seats pass to their players
            if change.play is not None and change.play.new_round:
                self.start_reading(change.play.now)
        for send in change.sends:
            for member in [m for m in self.members if send.to in (EVERYONE, m.seat)]:
                message = send.message if send.words is None else send.message | {"message": member.t(send.words)}
                member.send(message)
        if change.release is not None:
            for member in [m for m in self.members if m.seat == change.release]:
                self.detach(member)
        if change.show:
            self.changed()
        if change.play is not None and change.play.game.is_over and self.unused():
            self.hub.evict(self)  # nobody watches the match it ended

    # ------------------------------------------------------------ lobby

    async def join(self, name: str, avatar: str | None = None, colour: str | None = None) -> tuple[int, str, bool]:
        """Take the lowest open seat (with the player's avatar and colour), or during a match claim
        the lowest bot seat (``late_join``); returns the seat, its new secret and whether it is a claim."""
        secret = new_secret()
        async with self.lock:
            change, seat, claimed = self.decide_join(name, hash_secret(secret), (avatar, colour))
            await self.commit(change)
            return seat, secret, claimed

    async def set_seat(self, member: Member, index: int, bot: bool) -> None:
        """The host puts a bot in an open (or away) seat, or empties a bot's seat."""
        async with self.lock:
            await self.commit(self.decide_set_seat(member.seat, index, bot))

    async def write_rule_cards(self, member: Member, texts: list[str]) -> None:
        """A seat's rule cards (Wild Jackpot lobby)."""
        async with self.lock:
            await self.commit(self.decide_rule_cards(member.seat, texts))

    async def set_host(self, seat: int | None) -> None:
        """The host's seat, stored first.  The room's lock is held."""
        await self.commit(Change([SetHost(seat)], show=False))

    def begin(self, game: Game, now: float | None = None) -> None:
        """The match (dealt, or replayed from the store) is the room's, from ``now`` (else the clock's now)."""
        super().begin(game, time.monotonic() if now is None else now)

    async def pass_host(self) -> None:
        """The host has been gone ``host_grace`` seconds: the next connected player hosts.  The room's lock is held."""
        await self.commit(self.decide_pass_host())

    async def kick(self, member: Member, index: int) -> None:
        """The host empties a player's seat (lobby only): its secret opens nothing more."""
        async with self.lock:
            await self.commit(self.decide_kick(member.seat, index))

    async def leave(self, member: Member) -> None:
        """A member leaves: in the lobby their seat opens (and the host passes on); during a
        match their seat is played by the room's bot at once, until they come back."""
        async with self.lock:
            seat = member.seat
            if seat is not None and self.status == "lobby":
                await self.commit(self.decide_leave(seat))
                return
            if seat is not None and self.status == "playing":
                self.hand_to_bot(seat)
            member.send({"type": "left"})
            self.detach(member)

    def back(self, member: Member) -> None:
        """A player takes their seat back from the room's bot."""
        if member.seat is None:
            raise RoomError("forbidden", "error.spectator_no_seat")
        self.take_back(member.seat)

    def take_back(self, seat: int) -> bool:
        if super().take_back(seat):
            self.changed()
            return True
        return False

    async def start(self, member: Member) -> None:
        """The host starts the match: every seat must be taken (by a player or a bot)."""
        async with self.lock:
            self.check_start(member.seat)
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
        await self.commit(self.decide_start(game, time.monotonic()))

    # ------------------------------------------------------------ play

    async def act(self, member: Member, text: str, version: int) -> None:
        """A player's action in notation, if the room is at ``version`` and it is legal for them."""
        async with self.lock:
            seat = self.player(member.seat)
            self.take_back(seat)  # any action, even one refused, shows the player is back
            await self.commit(self.decide_act(seat, text, version, time.monotonic()))

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
        """Play a bot's action (:meth:`~RoomCore.decide_play`), stored, then shown.  The room's lock is held."""
        await self.commit(self.decide_play(seat, action, time.monotonic()))

    def seat_late_arrivals(self) -> None:
        """The seats of the late arrivals are theirs now (stored): the members who claimed one are its
        players now."""
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

    def update_message(self, member: Member, narrate: bool = True) -> dict[str, Any]:
        """Everything since the member's version, as its seat may see it (without ``narrate``, the
        message without its ``events``, which :meth:`send_state` adds: every event from the start)."""
        game = self.game
        assert game is not None
        seat = member.seat
        view: View = game.view(seat)
        names = self.names()
        t = member.t
        now = time.monotonic()
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
            "timer": self.timer_message(now),
            "reading": self.reading_message(now),
            "host": self.host,
            "options": self.settings.options(),
            "rematch": self.rematch_message(),
            "claimed_seat": member.claim,
        }
        if events is None:
            del message["events"]
        return message

    # ------------------------------------------------------------ automatic play

    def next_step(self) -> tuple[float, str] | None:
        """When the next automatic step is due and what it is (:meth:`~RoomCore.due_step`), if any:
        none while a step is under way or a bot thinks, later while the store refuses writes."""
        if self.closed or self.thinking or self.stepping:
            return None
        step = self.due_step()
        if step is not None and self.trouble is not None:  # the store refused: wait before trying again
            return max(step[0], self.retry_at), step[1]
        return step

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
            now = time.monotonic()
            if self.reading and now >= self.reading_until:
                self.end_reading(now)
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
            self.hand_to_bot(seat)
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
