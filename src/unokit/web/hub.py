"""The hub: every room of the server, the store they share, and the scheduler of their automatic steps.

One scheduler task starts every room's automatic steps (bots' moves, seats played for their
players, a host's grace) when they are due, oldest first, each in a task of its own, so a
player's action is answered at once however many bots are playing and a room waiting for the
store holds up no other.  New rooms are stored before they are kept; stored rooms come back
when asked for (read and replayed in worker threads); the old lobbies are deleted and the
matches nobody watches put away every few minutes.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import heapq
import itertools
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from unokit.engine.errors import UnoError
from unokit.engine.game import Game
from unokit.engine.record import replay
from unokit.engine.rules import Rules
from unokit.web.core.chat import CHAT_HISTORY
from unokit.web.protocol import MAX_TIMER
from unokit.web.rematch import check_rematch
from unokit.web.rooms import Room
from unokit.web.settings import (
    CODE_LENGTH,
    FixedSetup,
    RoomError,
    RoomSettings,
    ServerSettings,
    code_tag,
    new_room_code,
    new_secret,
)
from unokit.web.storage import ChatRow, Storage, StorageError, StoredRoom, hash_secret
from unokit.web.store import Store

__all__ = ["EXPIRY_EVERY", "Elsewhere", "Hub", "Ownership"]

log = logging.getLogger("unokit.web")

EXPIRY_EVERY = 600.0
"""Seconds between two looks for lobbies to expire and matches nobody plays any more."""


class Elsewhere(RoomError):
    """The room is owned by another process (``owner``, its lease's value): a client asking for it is relayed there."""

    def __init__(self, code: str, owner: str) -> None:
        super().__init__("not-found", "error.not_found")
        self.code, self.owner = code, owner


class Ownership(Protocol):
    """The rooms this process owns among several (:class:`unokit.web.cluster.owner.Ownership`)."""

    async def created(self, code: str) -> int:
        """Room ``code``, just stored, taken by this process: its fence."""
        ...

    async def fetch(self, code: str) -> Room:
        """Room ``code`` taken by this process, or :class:`Elsewhere`."""
        ...

    def put_away(self, code: str) -> None:
        """Room ``code`` is no longer in memory here: its lease is given up."""


class Hub:
    """Every room of the server, and their storage."""

    def __init__(self, storage: Storage, settings: ServerSettings | None = None) -> None:
        self.storage = storage
        """The store's calls, made in worker threads through :attr:`store` (never on the event loop)
        but at start-up."""
        self.store = Store(storage)
        self.settings = settings or ServerSettings()
        self.rooms: dict[str, Room] = {}
        self.reserved: set[str] = set()
        """Codes of rooms being created (stored, not yet in :attr:`rooms`)."""
        self.queue: list[tuple[float, int, Room, int, str]] = []
        """The rooms' next automatic steps: a heap of (due, order, room, room token, kind)."""
        self.order = itertools.count()
        self.wake = asyncio.Event()
        self.scheduler: asyncio.Task[None] | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.expired_at = 0.0
        self.tidied_at = time.time()
        self.cluster: Ownership | None = None
        """With several processes (Redis and a shared store): the leases of the rooms this process owns."""

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task of the hub (cancelled when it closes)."""
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

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
        """Start the rooms' automatic steps when due, oldest first, each a task of its own (so a room
        waiting for the store holds up no other); every few minutes, put away what nobody uses."""
        while True:
            try:
                await self.run_due_step()
            except asyncio.CancelledError:
                raise
            except Exception:  # one failed pass must not stop every room's bots for good
                log.exception("the rooms' scheduler failed a pass; it goes on")
                await asyncio.sleep(0.1)

    async def run_due_step(self) -> None:
        """One pass of :meth:`run_steps`: tidy if due, then wait for the next step or start it."""
        queue = self.queue
        self.tidy()
        if not queue:
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self.tidy_every)
            return
        due, _, room, token, kind = queue[0]
        now = time.monotonic()
        if due > now:
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), min(due - now, self.tidy_every))
            return
        heapq.heappop(queue)
        if token != room.token or room.closed or room.stepping:
            return
        room.stepping = True
        self.spawn(room.step(kind, token))
        await asyncio.sleep(0)  # the step runs at once, before the next is started

    async def check_rematch(self, room: Room) -> bool:
        """Begin ``room``'s rematch if every connected player voted for it
        (:func:`~unokit.web.rematch.check_rematch`); whether it began.  The room's lock is held."""
        return await check_rematch(room)

    def start(self) -> None:
        """Start running automatic steps (in the running event loop)."""
        if self.scheduler is None:
            self.scheduler = asyncio.get_running_loop().create_task(self.run_steps(), name="unokit rooms")

    # ------------------------------------------------------------ rooms

    async def create(
        self,
        settings: RoomSettings,
        host_name: str,
        setup: FixedSetup | None = None,
        look: tuple[str | None, str | None] = (None, None),
    ) -> tuple[Room, str]:
        """A new room with ``host_name`` in seat 0 (with ``look``: their avatar and colour), stored;
        returns it and the host's secret.

        ``setup`` fixes the game's seed and first deal (for tests: the ``create`` message
        never gives one)."""
        secret = new_secret()

        def seat_host(room: Room) -> None:
            host = room.seats[0]
            host.kind, host.name, host.secret_hash = "human", host_name, hash_secret(secret)
            host.avatar, host.colour = look
            host.away_since = time.monotonic()  # the host's grace counts from now until they connect

        room = await self.new_room(settings, setup, seat_host)
        self.schedule(room)
        return room, secret

    async def new_room(
        self,
        settings: RoomSettings,
        setup: FixedSetup | None = None,
        prepare: Callable[[Room], None] | None = None,
    ) -> Room:
        """A new room in the lobby, its seats set by ``prepare`` (else all open), stored, then kept
        (its settings checked: ``malformed`` if they cannot be played; ``full`` if the server holds
        as many rooms as it may; ``store`` if the store refuses it)."""
        self.expire_lobbies()
        active = sum(1 for room in self.rooms.values() if room.status != "finished") + len(self.reserved)
        if active >= self.settings.max_rooms:
            raise RoomError("full", "error.server_full")
        if settings.timer and not self.settings.min_timer <= settings.timer <= MAX_TIMER:
            raise RoomError("malformed", "error.timer", low=self.settings.min_timer, high=MAX_TIMER)
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
            raise RoomError("malformed", "error.detail", detail=str(exc)) from None
        settings = dataclasses.replace(settings, rules=rules.to_dict())
        created = time.time()
        for _ in range(20):
            code = new_room_code()
            if code in self.rooms or code in self.reserved:
                continue
            room = Room(self, code, settings, created, setup)
            if prepare is not None:
                prepare(room)
            self.reserved.add(code)
            try:
                await self.store.run(
                    self.storage.create_room,
                    code,
                    settings.to_dict(),
                    created,
                    seed=room.seed,
                    public=settings.public,
                    seats=[seat.row(settings.bot) for seat in room.seats],
                    host=room.host,
                )
            except KeyError:  # the code is taken in the store
                continue
            except StorageError as exc:
                log.warning("a room could not be stored: %s", exc)
                raise RoomError("store", "error.store_refused") from None
            else:
                if self.cluster is not None:  # the new room's lease and fence, before anyone sees it
                    room.fence = await self.cluster.created(code)
            finally:
                self.reserved.discard(code)
            self.rooms[code] = room
            return room
        raise RoomError("server", "error.no_code")  # pragma: no cover - 31**8 codes

    def get(self, code: str) -> Room:
        """The room of ``code`` in memory (:meth:`fetch` brings one back from the store); ``not-found`` otherwise."""
        room = self.rooms.get(code.strip().upper())
        if room is None:
            raise RoomError("not-found", "error.not_found")
        return room

    async def fetch(self, code: str) -> Room:
        """The room of ``code``, brought back from the store if it is not in memory (read, and its
        match replayed, in worker threads); ``not-found`` if there is none, ``store`` if the store
        cannot be read."""
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is not None:
            return room
        if len(code) != CODE_LENGTH:
            raise RoomError("not-found", "error.not_found")
        if self.cluster is not None:  # taken under its lease, or owned elsewhere (Elsewhere)
            return await self.cluster.fetch(code)
        try:
            stored, chat, game = await self.store.read(self.load, code)
        except StorageError as exc:
            log.warning("a room could not be read from the store: %s", exc)
            raise RoomError("store", "error.store_read") from None
        if stored is None:
            raise RoomError("not-found", "error.not_found")
        room = self.rooms.get(code)  # brought back meanwhile by another connection
        return room if room is not None else self.restore(stored, chat, game)

    def load(self, code: str) -> tuple[StoredRoom | None, list[ChatRow], Game | None]:
        """A room as stored: its row, its last chat messages and its match replayed (in a worker thread)."""
        stored = self.storage.load_room(code)
        if stored is None:
            return None, [], None
        chat = self.storage.load_chat(code, CHAT_HISTORY)
        record = self.storage.load_record(code) if stored.status != "lobby" else None
        return stored, chat, replay(record) if record is not None else None

    def restore(self, stored: StoredRoom, chat: list[ChatRow], game: Game | None) -> Room:
        """A stored room back in memory, with its chat and its game rebuilt from the record."""
        settings = RoomSettings.from_dict(stored.settings)
        room = Room(self, stored.code, settings, stored.created, seed=stored.seed)
        room.host = stored.host
        room.moved_to = stored.moved_to
        now = time.monotonic()
        for row in stored.seats:
            seat = room.seats[row.seat]
            seat.name, seat.kind, seat.secret_hash, seat.rule_cards = (
                row.name,
                row.kind,
                row.secret_hash,
                row.rule_cards,
            )
            seat.claim_name, seat.claim_hash = row.claim_name, row.claim_hash
            seat.avatar, seat.colour = row.avatar, row.colour
            seat.away_since = now
        room.chat_log.extend(chat)
        if room.chat_log:
            room.chat_next = room.chat_log[-1].id + 1
        if game is not None:
            room.begin(game, now)
        self.rooms[stored.code] = room
        self.schedule(room)
        return room

    def load_all(self) -> int:
        """At start-up: bring back every match played within ``idle_minutes``, and delete the
        lobbies long untouched; returns how many matches.  Lobbies, finished rooms and matches put
        away come back when someone asks for them (:meth:`fetch`)."""
        self.expired_at = time.time()
        self.storage.delete_stale_lobbies(self.expired_at - self.settings.lobby_hours * 3600, set(self.rooms))
        count = 0
        for stored in self.storage.rooms_in_progress(since=time.time() - self.settings.idle_minutes * 60):
            if stored.code not in self.rooms:
                try:
                    _, chat, game = self.load(stored.code)
                    self.restore(stored, chat, game)
                    count += 1
                except Exception:
                    log.exception("room %s could not be restored", code_tag(stored.code))
        return count

    def expire_lobbies(self) -> None:
        """Delete from the store the lobbies untouched for ``lobby_hours`` (at most every few minutes, in a task)."""
        now = time.time()
        if now - self.expired_at < EXPIRY_EVERY:
            return
        self.expired_at = now
        self.spawn(self.delete_stale_lobbies(now - self.settings.lobby_hours * 3600))

    async def delete_stale_lobbies(self, before: float) -> None:
        try:
            deleted = await self.store.run(self.storage.delete_stale_lobbies, before, set(self.rooms))
        except StorageError as exc:
            log.warning("stale lobbies could not be deleted: %s", exc)
            return
        if deleted:
            log.info("deleted %d lobbies untouched for %g hours", deleted, self.settings.lobby_hours)
        await self.delete_old_chat(time.time() - self.settings.chat_days * 86400)

    async def delete_old_chat(self, before: float) -> None:
        """Delete from the store the chat of the matches finished before ``before`` (``time.time()``)."""
        try:
            deleted = await self.store.run(self.storage.delete_finished_chat, before)
        except StorageError as exc:
            log.warning("the chat of finished matches could not be deleted: %s", exc)
            return
        if deleted:
            log.info("deleted %d chat messages of matches finished %g days ago", deleted, self.settings.chat_days)

    @property
    def tidy_every(self) -> float:
        """Seconds between two looks for what to tidy: a few minutes, or a quarter of ``idle_minutes``."""
        return min(EXPIRY_EVERY, self.settings.idle_minutes * 15)

    def tidy(self) -> None:
        """Every few minutes (every quarter of ``idle_minutes`` if that is shorter): expire the old
        lobbies, and put away the matches nobody has been connected to for ``idle_minutes`` (they
        stay in the store)."""
        now = time.time()
        if now - self.tidied_at < self.tidy_every:
            return
        self.tidied_at = now
        self.expire_lobbies()
        idle_before = time.monotonic() - self.settings.idle_minutes * 60
        for room in list(self.rooms.values()):
            if room.unused() and room.unwatched_since < idle_before and not room.lock.locked():
                log.info("room %s: put away, nobody connected for %g minutes", room.tag, self.settings.idle_minutes)
                self.evict(room)

    def evict(self, room: Room) -> None:
        """Forget a room nobody is connected to nor on their way in (it stays in the store, and
        :meth:`fetch` brings it back as a new object), with no change of it under way; the object is
        closed for good (:class:`~unokit.web.rooms.RoomGone`)."""
        room.close()
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            if self.cluster is not None:
                self.cluster.put_away(room.code)

    def lost(self, room: Room) -> None:
        """Another process owns ``room`` now (its lease ran out, or the store refused its fence): the
        object is closed for good and its connections dropped, so that their clients reconnect."""
        log.warning("room %s: another process owns it now; closed in this one", room.tag)
        members = list(room.members)
        self.evict(room)
        for member in members:
            if member.drop is not None:
                member.drop()

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
