"""Clients in rooms another process owns: relayed to the owner over Redis (:class:`~unokit.web.cluster.RoomBus`).

A client may reach any process.  When it asks for a room (``join``, ``resume``, ``spectate``) that another
live process owns, the process it reached (the relaying one) keeps its socket and becomes a
:class:`RelayLink`: each of the client's messages but ``ping``, ``read_rule`` and those that open or
create a room is published to the room's owner, unchanged; the owner hosts a :class:`StandIn` for it, a
connection like a socket's whose messages, each built for that member alone, are published back to the
relaying process, which writes them to the socket.  So the room's rules, secrecy, limits per connection
and per address are the owner's, as for a client connected to it.

The relaying process checks the owners of its relayed rooms at every renewal of its own leases: when a
room's lease has lapsed or changed hands (its owner was killed, or lost it), its relayed sockets are
closed, and the clients' reconnection finds the room where it is now, or takes it over.  A message
published to an owner nobody listens for any more drops the socket at once.  The owner lets a stand-in go
when its client leaves, its socket closes, or the relaying process no longer listens for its answers.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.types import Message
from starlette.websockets import WebSocket

from unokit.web.cluster.bus import Relayed, RoomBus
from unokit.web.cluster.leases import RoomLeases
from unokit.web.hub import Elsewhere, Hub
from unokit.web.rooms import Room
from unokit.web.settings import RoomError
from unokit.web.transport import Connection

__all__ = ["LOCAL", "Relay", "RelayLink", "StandIn"]

log = logging.getLogger("unokit.web.cluster")

LOCAL = frozenset({"ping", "read_rule", "create", "join", "resume", "spectate"})
"""What a relayed client's process answers itself; every other message goes to the room's owner."""


class RelayLink:
    """A client connected here (``connection``), in room ``code`` owned by the process whose lease is
    ``owner``; ``member`` names it to the owner."""

    def __init__(self, relay: Relay, connection: Connection, code: str, owner: str) -> None:
        self.relay = relay
        self.connection = connection
        self.code = code
        self.owner = owner
        self.member = secrets.token_hex(8)

    def carries(self, message: dict[str, Any]) -> bool:
        """Whether ``message`` goes to the owner."""
        return message["type"] not in LOCAL

    def forward(self, text: str | bytes, kind: str = "m") -> None:
        """Publish the client's message to the owner (after those before); the socket is dropped if
        the owner no longer listens."""
        data = text if isinstance(text, str) else text.decode("utf-8", "replace")
        self.relay.send(self, {kind: data})

    def leave(self) -> None:
        """The client leaves the room (another room, or its socket closed): the owner lets its stand-in go."""
        if self.relay.links.pop(self.member, None) is self:
            self.relay.bus.relay(self.code, self.member, {"gone": 1})
        if self.connection.remote is self:
            self.connection.remote = None

    def drop(self) -> None:
        """The owner is gone (or closed the room here): close the socket, so that the client reconnects."""
        self.relay.links.pop(self.member, None)
        if self.connection.remote is self:
            self.connection.remote = None
        self.connection.close_now()


async def _nothing() -> Message:  # pragma: no cover - a stand-in's socket is never read
    raise RuntimeError("a stand-in has no socket")


async def _nowhere(message: Message) -> None:  # pragma: no cover - nor written
    raise RuntimeError("a stand-in has no socket")


class StandIn(Connection):
    """On the owner: the connection of a client relayed from another process (``source``: its first
    message).  What the room sends it is published to that process; it closes by telling it to close."""

    def __init__(self, relay: Relay, source: Relayed, client: str, lang: str) -> None:
        scope: dict[str, Any] = {
            "type": "websocket",
            "path": "/ws",
            "query_string": b"",
            "headers": [(b"accept-language", lang.encode("latin-1", "replace"))],
            "client": (client, 0),
            "app": relay.app,
        }
        super().__init__(WebSocket(scope, _nothing, _nowhere), relay.hub)
        self.relay = relay
        self.source = source
        self.key = (source.process, source.member)
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.worker = asyncio.get_running_loop().create_task(self.work(), name="unokit stand-in")

    def push(self, text: str) -> None:
        if not self.closing:
            self.inbox.put_nowait(text)

    async def work(self) -> None:
        """Handle the client's messages one at a time, in order, as a socket's."""
        while True:
            text = await self.inbox.get()
            if text is None or self.closing:
                return
            if not await self.receive(text):
                self.error("rate-limited", "error.flooding")
                self.close_now()
                return

    def send_text(self, text: str) -> None:
        if self.closing:
            return
        answered = self.relay.bus.answer(self.source, {"t": text})
        answered.add_done_callback(self._answered)

    def _answered(self, answered: asyncio.Future[int]) -> None:
        if answered.cancelled() or answered.exception() is not None or answered.result() == 0:
            self.gone()  # the relaying process is gone, and the client with it

    def close_now(self) -> None:
        if self.closing:
            return
        self.relay.bus.answer(self.source, {"close": 1})
        self.gone()

    def gone(self) -> None:
        """Let the stand-in go: it leaves its room (as a socket closed) and handles nothing more."""
        self.closing = True
        if self.relay.stand_ins.get(self.key) is self:
            del self.relay.stand_ins[self.key]
        self.inbox.put_nowait(None)
        self.leave()


class Relay:
    """A process's relays: the clients connected here in rooms owned elsewhere (:attr:`links`), and the
    stand-ins of clients connected elsewhere in the rooms owned here (:attr:`stand_ins`)."""

    def __init__(
        self,
        hub: Hub,
        app: Starlette,
        leases: RoomLeases,
        take: Callable[[str], Awaitable[Room]],
        owns: Callable[[str], bool],
    ) -> None:
        self.hub = hub
        self.app = app
        self.leases = leases
        self.client = leases.client
        self.take = take
        """Takes a room whose owner is gone (:meth:`unokit.web.cluster.owner.Ownership.fetch`)."""
        self.owns = owns
        """Whether this process holds a room's lease by its own clock (``Ownership.owns``)."""
        self.bus = RoomBus(leases.client, leases.process, self.answered, leases.prefix)
        self.links: dict[str, RelayLink] = {}
        self.stand_ins: dict[tuple[str, str], StandIn] = {}

    # ------------------------------------------------------------ the relaying process

    async def open(self, connection: Connection, message: dict[str, Any], owned: Elsewhere) -> Room | None:
        """``join``, ``resume`` or ``spectate`` of a room another process owns (``owned``): relayed to it
        (None), or, if nobody listens there any more, the room taken over once its lease has lapsed."""
        if isinstance(connection, StandIn):  # the room left this process meanwhile: its client reconnects
            connection.close_now()
            return None
        connection.leave()
        lease_seconds = self.leases.lease_ms / 1000
        deadline = time.monotonic() + lease_seconds * 1.5 + 2.0
        pause = min(0.25, lease_seconds / 4)
        headers = connection.websocket.headers
        client = connection.websocket.client
        opening = {
            "open": json.dumps(message, separators=(",", ":")),
            "client": client.host if client is not None else "unknown",
            "lang": headers.get("accept-language") or "",
        }
        while True:
            link = RelayLink(self, connection, owned.code, owned.owner)
            self.links[link.member] = link
            connection.remote = link
            try:
                listening = await self.bus.relay(owned.code, link.member, opening)
            except Exception:
                listening = 0
            if listening:
                return None
            link.leave()  # nobody listens: the owner is gone, and its lease runs out soon
            while True:
                if time.monotonic() > deadline:
                    raise RoomError("server", "error.server")
                await asyncio.sleep(pause)
                try:
                    return await self.take(owned.code)
                except Elsewhere as again:
                    if again.owner != owned.owner:  # another process took it: relay there
                        owned = again
                        break

    def send(self, link: RelayLink, message: dict[str, Any]) -> None:
        sent = self.bus.relay(link.code, link.member, message)

        def check(sent: asyncio.Future[int]) -> None:
            if sent.cancelled() or sent.exception() is not None or sent.result() == 0:
                link.drop()

        sent.add_done_callback(check)

    def answered(self, relayed: Relayed) -> None:
        """An owner's message for a client connected here."""
        link = self.links.get(relayed.member)
        if link is None:
            return
        text = relayed.message.get("t")
        if isinstance(text, str):
            link.connection.send_text(text)
        elif "close" in relayed.message:
            link.drop()

    async def check_owners(self) -> None:
        """Drop the relayed sockets of the rooms whose lease has lapsed or changed hands."""
        codes = sorted({link.code for link in self.links.values()})
        if not codes:
            return
        values = await asyncio.wait_for(self.client.mget([self.leases.lease_key(code) for code in codes]), 2.0)
        now = {
            code: value.decode() if isinstance(value, bytes) else value
            for code, value in zip(codes, values, strict=True)
        }
        for link in list(self.links.values()):
            if now.get(link.code) != link.owner:
                link.drop()

    # ------------------------------------------------------------ the owner

    async def check_relayers(self) -> None:
        """Let go the stand-ins whose relaying process no longer listens (killed): their seats are away."""
        processes = sorted({stand_in.source.process for stand_in in self.stand_ins.values()})
        if not processes:
            return
        channels = [self.bus.process_channel(process) for process in processes]
        counts = await asyncio.wait_for(self.client.pubsub_numsub(*channels), 2.0)
        gone = {process for process, (_, count) in zip(processes, counts, strict=True) if not count}
        for stand_in in list(self.stand_ins.values()):
            if stand_in.source.process in gone:
                stand_in.gone()

    def room_message(self, relayed: Relayed) -> None:
        """A message of a client connected to another process, for a room owned here; dropped if the room's
        lease has run out by this process's clock (it was paused: another may own the room now)."""
        if not self.owns(relayed.code):
            return
        key = (relayed.process, relayed.member)
        stand_in = self.stand_ins.get(key)
        message = relayed.message
        opening = message.get("open")
        if isinstance(opening, str):
            if stand_in is None:
                stand_in = StandIn(self, relayed, str(message.get("client", "unknown")), str(message.get("lang", "")))
                self.stand_ins[key] = stand_in
            stand_in.push(opening)
        elif "gone" in message:
            if stand_in is not None:
                stand_in.gone()
        elif isinstance(message.get("m"), str):
            if stand_in is None:  # not known here (this process took the room over): the client reconnects
                self.bus.answer(relayed, {"close": 1})
            else:
                stand_in.push(message["m"])

    def close(self) -> None:
        """The process stops: the stand-ins' clients are told to reconnect (to another process)."""
        for stand_in in list(self.stand_ins.values()):
            stand_in.close_now()
        for link in list(self.links.values()):
            link.drop()
