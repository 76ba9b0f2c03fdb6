"""Rooms owned by one process at a time: the hub's side of the leases, with Redis and a shared store.

With ``--redis`` and a PostgreSQL ``--db`` each room lives in the memory of one process, its owner, which
holds the room's lease (:class:`~unokit.web.cluster.RoomLeases`):

- a process takes the lease when it creates a room, or loads one nobody holds (a client asks for it, or
  the sweep finds a match in progress with no owner), then claims the room in the store
  (:meth:`~unokit.web.storage.Storage.claim_room`): each of the room's writes carries that fence
  (:attr:`Room.fence <unokit.web.rooms.Room.fence>`), and the store refuses it once another process has
  claimed the room;
- it renews every lease it holds in one round trip, every third of the lease;
- it gives the lease up when the room is put away, or the process stops;
- a lease it could not renew (it ran out: the process was paused, or cut off from Redis), or a write the
  store refuses as stale, closes the room in this process and drops its connections, so that their
  clients reconnect and find the room's new owner.

A client asking for a room another live process owns is relayed there (:mod:`unokit.web.cluster.relay`).
A process killed stops renewing: its leases run out, and the next process asked for one of its rooms
(a client reconnecting, or the sweep) takes it over, rebuilt from the store as at a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TypeVar

from redis.asyncio import Redis
from starlette.applications import Starlette

from unokit.web.cluster.leases import Lease, RoomLeases
from unokit.web.cluster.limits import connect
from unokit.web.cluster.names import new_process_id, raise_if_cancelled
from unokit.web.cluster.relay import Relay
from unokit.web.hub import Elsewhere, Hub
from unokit.web.rooms import Room
from unokit.web.settings import RoomError, code_tag
from unokit.web.storage import StorageError

__all__ = ["REDIS_TIMEOUT", "Ownership"]

log = logging.getLogger("unokit.web.cluster")

R = TypeVar("R")

REDIS_TIMEOUT = 2.0
"""Seconds a lease's command may take before it counts as failed."""

SWEEP_RECENT = 60.0
"""The sweep takes over the matches without an owner changed within this many seconds (and three leases)."""


class Ownership:
    """The rooms process ``process`` owns, under leases of ``lease_ms`` in the Redis of ``client``."""

    def __init__(self, hub: Hub, client: Redis, process: str, lease_ms: int, prefix: str, app: Starlette) -> None:
        self.hub = hub
        self.client = client
        self.process = process
        self.leases = RoomLeases(client, process, lease_ms, prefix)
        self.held: dict[str, Lease] = {}
        """The leases of the rooms this process owns, by code."""
        self.taking: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        """A lock per room being taken and how many wait for it, so that two connections asking at once take it once."""
        self.relay = Relay(hub, app, self.leases, self.fetch, self.owns)
        self.bus = self.relay.bus
        self.timer: asyncio.Task[None] | None = None
        self.ticks = 0

    @classmethod
    def from_settings(cls, hub: Hub, app: Starlette) -> Ownership:
        settings = hub.settings
        assert settings.redis_url is not None
        client = connect(settings.redis_url, REDIS_TIMEOUT, listens=True)
        lease_ms = max(1, round(settings.lease_seconds * 1000))
        return cls(hub, client, new_process_id(), lease_ms, settings.redis_prefix, app)

    @property
    def lease_seconds(self) -> float:
        return self.leases.lease_ms / 1000.0

    async def start(self) -> int:
        """Listen on the bus, start renewing, and take the matches in progress nobody owns; returns how many."""
        await self.bus.start()
        self.timer = asyncio.get_running_loop().create_task(self.keep(), name="unokit leases")
        return await self.sweep(time.time() - self.hub.settings.idle_minutes * 60)

    async def close(self) -> None:
        """Stop: the relayed clients are let go and every lease given up, so that the others take the rooms at once."""
        if self.timer is not None:
            self.timer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.timer
        self.relay.close()
        leases, self.held = list(self.held.values()), {}
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.gather(*(self.leases.release(lease) for lease in leases)), REDIS_TIMEOUT)
        await self.bus.close()
        await self.client.aclose()

    # ------------------------------------------------------------ taking rooms

    async def created(self, code: str) -> int:
        """A room just stored by this process: its lease, and its fence in the store."""
        lease = await asyncio.wait_for(self.leases.acquire(code), REDIS_TIMEOUT)
        if lease is None:  # pragma: no cover - a new code has no lease
            raise RoomError("server", "error.server")
        return await self.claim(lease)

    async def fetch(self, code: str) -> Room:
        """Room ``code`` taken by this process (its lease, its fence, rebuilt from the store), or
        :class:`~unokit.web.hub.Elsewhere` if another process owns it; ``not-found`` if there is none."""
        lock, waiting = self.taking.setdefault(code, (asyncio.Lock(), [0]))
        waiting[0] += 1
        try:
            async with lock:
                room = self.hub.rooms.get(code)
                if room is not None:
                    return room
                owner = await asyncio.wait_for(self.leases.owner(code), REDIS_TIMEOUT)
                if owner is not None and owner.owner != self.process:
                    raise Elsewhere(code, owner.value)
                if owner is None and not await self.read(self.hub.storage.room_exists, code):
                    raise RoomError("not-found", "error.not_found")
                lease = await asyncio.wait_for(self.leases.acquire(code), REDIS_TIMEOUT)
                if lease is None:  # taken meanwhile by another
                    owner = await self.leases.owner(code)
                    raise Elsewhere(code, owner.value if owner is not None else "")
                return await self.take(lease)
        finally:
            waiting[0] -= 1
            if not waiting[0]:
                del self.taking[code]

    async def take(self, lease: Lease) -> Room:
        """The room of ``lease`` (just acquired) claimed in the store and rebuilt from it."""
        code = lease.code
        try:
            fence = await self.claim(lease)
            stored, chat, game = await self.hub.store.read(self.hub.load, code)
        except BaseException:
            self.give_up(code)
            raise
        if stored is None:
            self.give_up(code)
            raise RoomError("not-found", "error.not_found")
        room = self.hub.restore(stored, chat, game)
        room.fence = fence
        log.info("room %s: taken by this process (fence %d)", room.tag, fence)
        return room

    async def claim(self, lease: Lease) -> int:
        """Hold ``lease``, listen to its room's channel, and claim the room in the store: its new fence."""
        code = lease.code
        self.held[code] = lease
        try:
            await self.bus.own(code, self.relay.room_message)
            return await self.hub.store.run(self.hub.storage.claim_room, code)
        except KeyError:
            self.give_up(code)
            raise RoomError("not-found", "error.not_found") from None
        except StorageError as exc:
            log.warning("room %s could not be claimed in the store: %s", code_tag(code), exc)
            self.give_up(code)
            raise RoomError("store", "error.store_read") from None
        except BaseException:
            self.give_up(code)
            raise

    async def read(self, function: Callable[[str], R], code: str) -> R:
        try:
            return await self.hub.store.read(function, code)
        except StorageError as exc:
            log.warning("a room could not be read from the store: %s", exc)
            raise RoomError("store", "error.store_read") from None

    def owns(self, code: str) -> bool:
        """Whether this process holds room ``code``'s lease, by its own clock."""
        lease = self.held.get(code)
        return lease is not None and lease.valid()

    # ------------------------------------------------------------ letting rooms go

    def put_away(self, code: str) -> None:
        """The hub put room ``code`` away (or lost it): its lease is given up."""
        self.give_up(code)

    def give_up(self, code: str) -> None:
        lease = self.held.pop(code, None)
        if lease is not None:
            self.hub.spawn(self._release(lease))

    async def _release(self, lease: Lease) -> None:
        try:
            if lease.code not in self.held:  # not taken again meanwhile
                await self.bus.disown(lease.code)
            if lease.code not in self.held:
                await asyncio.wait_for(self.leases.release(lease), REDIS_TIMEOUT)
        except Exception as exc:  # it runs out by itself
            raise_if_cancelled(exc)
            log.warning("room %s: its lease could not be given up: %s", code_tag(lease.code), exc)

    def lose(self, code: str, why: str) -> None:
        """This process no longer owns room ``code``: closed here, its clients dropped."""
        room = self.hub.rooms.get(code)
        log.warning("room %s: no longer owned by this process (%s)", code_tag(code), why)
        if room is not None:
            self.hub.lost(room)
        self.give_up(code)

    # ------------------------------------------------------------ on a timer

    async def keep(self) -> None:
        """Every third of a lease: renew the leases, check the owners of the rooms relayed from here;
        every third time, take over the matches whose owner is gone."""
        every = self.lease_seconds / 3
        while True:
            await asyncio.sleep(every)
            self.ticks += 1
            try:
                await self.renew()
                await self.relay.check_owners()
                await self.relay.check_relayers()
                if self.ticks % 3 == 0:
                    await self.sweep(time.time() - max(SWEEP_RECENT, 3 * self.lease_seconds))
            except Exception as exc:
                raise_if_cancelled(exc)
                log.warning("the rooms' leases could not be looked after: %s", exc)

    async def renew(self) -> None:
        """Renew every lease held, in one round trip; the rooms whose lease is lost are closed here."""
        leases = list(self.held.values())
        if not leases:
            return
        try:
            renewed = await asyncio.wait_for(self.leases.renew_all(leases), REDIS_TIMEOUT)
        except Exception as exc:
            raise_if_cancelled(exc)
            now = time.monotonic()
            log.warning("the leases of %d rooms could not be renewed: %s", len(leases), exc)
            for lease in leases:
                if not lease.valid(now) and self.held.get(lease.code) == lease:
                    self.lose(lease.code, "its lease ran out while Redis could not be reached")
            return
        for old, new in zip(leases, renewed, strict=True):
            if self.held.get(old.code) != old:
                continue  # given up or taken again meanwhile
            if new is None:
                self.lose(old.code, "its lease ran out")
            else:
                self.held[old.code] = new

    async def sweep(self, since: float) -> int:
        """Take the matches in progress changed since ``since`` (``time.time()``) that nobody owns; returns how many."""
        stored = await self.hub.store.read(self.hub.storage.rooms_in_progress, since)
        codes = [room.code for room in stored if room.code not in self.hub.rooms]
        if not codes:
            return 0
        owners = await asyncio.wait_for(
            self.client.mget([self.leases.lease_key(code) for code in codes]), REDIS_TIMEOUT
        )
        taken = 0
        for code, owner in zip(codes, owners, strict=True):
            if owner is None:
                with contextlib.suppress(RoomError):
                    await self.fetch(code)
                    taken += 1
        if taken:
            log.info("took over %d matches nobody owned", taken)
        return taken
