"""The game's WebSocket: one :class:`Connection` per client, with its queue of outgoing messages,
its rate limits and its room membership; every client frame is checked (:mod:`unokit.web.protocol`)
and handled by the room (:mod:`unokit.web.rooms`), or relayed to the process that owns the room
(:mod:`unokit.web.cluster.relay`).  Every failure is answered with an ``error`` to that client alone,
never with a traceback."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import math
import time
from typing import Any, Protocol

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from unokit.i18n import negotiate
from unokit.web.chat import ChatLimiter, check_room_chat, post_chat, post_reaction
from unokit.web.guard import (
    RateLimiter,
    check_chat_budget,
    check_resync_budget,
    check_room_creation,
    check_room_lookup,
)
from unokit.web.hints import HINT_BURST, HINT_WINDOW
from unokit.web.hub import Elsewhere, Hub
from unokit.web.protocol import (
    ProtocolError,
    parse_message,
)
from unokit.web.rematch import moved_message, vote_rematch
from unokit.web.rooms import (
    Member,
    Room,
    RoomError,
    RoomGone,
    RoomSettings,
    read_rule_message,
)
from unokit.web.settings import check_bot_level
from unokit.web.social import SignalLimiter, relay_signal, set_look, set_voice

__all__ = ["Connection", "Relaying", "Remote", "game_socket"]

log = logging.getLogger("unokit.web")

FLOOD_LIMIT = 200
"""Refused messages within :data:`FLOOD_WINDOW` seconds after which the connection is closed."""
FLOOD_WINDOW = 10.0
ROOM_TRIES = 3
"""Fetches of a room a ``join``, ``resume`` or ``spectate`` makes when the room it fetched was put
away before it held it."""


class Remote(Protocol):
    """The room a client is in when another process owns it (:class:`unokit.web.cluster.relay.RelayLink`)."""

    def carries(self, message: dict[str, Any]) -> bool:
        """Whether ``message`` goes to the room's owner."""
        ...

    def forward(self, text: str | bytes) -> None:
        """Send the client's message to the room's owner."""

    def leave(self) -> None:
        """The client leaves the room."""


class Relaying(Protocol):
    """This process's relays to the rooms other processes own (:class:`unokit.web.cluster.relay.Relay`)."""

    async def open(self, connection: Connection, message: dict[str, Any], owned: Elsewhere) -> Room | None:
        """``join``, ``resume`` or ``spectate`` of a room owned elsewhere: relayed there (None), or taken over."""
        ...


class Connection:
    """One WebSocket client: its queue of outgoing messages, rate limit and room membership."""

    def __init__(self, websocket: WebSocket, hub: Hub) -> None:
        self.websocket = websocket
        self.hub = hub
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.queued = 0
        """Bytes in :attr:`outbox`."""
        self.member = Member(
            self.send,
            send_text=self.send_text,
            lang=negotiate(websocket.headers.get("accept-language")),
            drop=self.close_now,
        )
        self.remote: Remote | None = None
        """The room this client is in when another process owns it: its messages are relayed there."""
        self.resynced_at = -math.inf
        self.created: collections.deque[float] = collections.deque()
        """When this connection created its rooms in the last hour."""
        self.limiter = RateLimiter(hub.settings.rate, hub.settings.burst)
        self.chat_limiter = ChatLimiter()
        self.hint_limiter = ChatLimiter(HINT_BURST, HINT_WINDOW)

        self.signal_limiter = SignalLimiter()
        self.voice_limiter = ChatLimiter()
        self.refused = 0
        self.refused_since = time.monotonic()
        self.last_refusal_notice = -1.0
        self.closing = False

    def send(self, message: dict[str, Any]) -> None:
        if not self.closing:
            self.send_text(json.dumps(message, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        """Queue a message already in JSON."""
        if self.closing:
            return
        self.queued += len(text)
        if self.queued > self.hub.settings.outbox_bytes:
            log.warning("closing a connection that does not read its messages")
            self.close_now()
            return
        self.outbox.put_nowait(text)

    def close_now(self) -> None:
        """Drop what is queued and close the socket."""
        self.closing = True
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.queued = 0
        self.outbox.put_nowait(None)

    async def check_resync(self, room: Room, version: int) -> None:
        """Refuse a second full resync (many events to send) within ``resync_seconds``."""
        settings = self.hub.settings
        start = version if version <= room.version else 0
        if room.version - start <= settings.resync_events:
            return
        now = time.monotonic()
        if now - self.resynced_at < settings.resync_seconds:
            raise RoomError("rate-limited", "error.resync", seconds=settings.resync_seconds)
        await check_resync_budget(self.websocket, room.version - start)
        self.resynced_at = now

    async def check_create(self) -> None:
        """Refuse more than ``creates_per_hour`` rooms created by this connection within an hour."""
        now = time.monotonic()
        while self.created and now - self.created[0] > 3600:
            self.created.popleft()
        if len(self.created) >= self.hub.settings.creates_per_hour:
            raise RoomError("rate-limited", "error.connection_rooms")
        await check_room_creation(self.websocket)

    def error(self, code: str, message_id: str, /, **values: Any) -> None:
        """Send an ``error`` whose words are message ``message_id``, in the connection's language."""
        self.send({"type": "error", "code": code, "message": self.member.t(message_id, **values)})

    async def pump(self) -> None:
        """Write the queued messages to the socket, in order."""
        while True:
            text = await self.outbox.get()
            if text is None:
                await self.websocket.close(code=1008)
                return
            self.queued -= len(text)
            await self.websocket.send_text(text)

    async def receive(self, text: str | bytes) -> bool:
        """Handle one frame; False when the connection must be closed for flooding."""
        if not self.limiter.allow():
            now = time.monotonic()
            if now - self.refused_since > FLOOD_WINDOW:
                self.refused, self.refused_since = 0, now
            self.refused += 1
            if now - self.last_refusal_notice >= 0.5:
                self.last_refusal_notice = now
                self.error("rate-limited", "error.flood_slow")
            return self.refused < FLOOD_LIMIT
        try:
            message = parse_message(text)
            if self.remote is not None and self.remote.carries(message):
                self.remote.forward(text)
                return True
            if message["type"] in ("join", "resume", "spectate"):
                await check_room_lookup(self.websocket, message["code"])
                await self.open_room(message)
            else:
                await self.handle(message)
        except ProtocolError as exc:
            self.error("malformed", "error.detail", detail=str(exc))
        except RoomError as exc:
            self.send({"type": "error", "code": exc.code, "message": exc.words(self.member.t)})
        except Exception:
            log.exception("error handling a client message")
            self.error("server", "error.server")
        return True

    def room(self) -> Room:
        room = self.member.room
        if room is None:
            raise RoomError("forbidden", "error.no_room_yet")
        return room

    def leave(self) -> None:
        if self.remote is not None:
            self.remote.leave()
        if self.member.room is not None:
            self.member.room.detach(self.member)

    async def enter(
        self, room: Room, seat: int | None, secret: str | None, version: int = 0, claim: int | None = None
    ) -> None:
        """Leave the previous room, and enter ``room``: ``welcome``, the room, then the chat so far."""
        self.leave()
        await room.attach(self.member, seat, version, claim, secret)

    async def open_room(self, message: dict[str, Any]) -> None:
        """``join``, ``resume`` or ``spectate``: the room is fetched (brought back from the store
        without blocking the loop) and held while the connection joins and enters it, so it is not put
        away meanwhile; if it was put away before it was held, it is fetched again."""
        for _ in range(ROOM_TRIES):
            try:
                room = await self.hub.fetch(message["code"])
            except Elsewhere as owned:  # relayed to the owner; or taken over, if its lease lapsed meanwhile
                relay: Relaying = self.websocket.app.state.relay
                taken = await relay.open(self, message, owned)
                if taken is None:
                    return
                room = taken
            try:
                with room.held():
                    await self.handle(message, room)
                return
            except RoomGone:
                continue
        raise RoomError("server", "error.server")

    async def enter_opened(self, room: Room, message: dict[str, Any]) -> None:
        """``join``, ``resume`` or ``spectate`` of ``room`` (held by :meth:`open_room`)."""
        kind = message["type"]
        moved = moved_message(room)
        if moved is not None:
            self.send(moved)  # the room's rematch has begun: its links lead there
        elif kind == "join":
            seat, secret, claimed = await room.join(message["name"], message.get("avatar"), message.get("colour"))
            await self.enter(room, None if claimed else seat, secret, claim=seat if claimed else None)
        elif kind == "resume":
            found = room.seat_of_secret(message["secret"])
            if found is None:
                raise RoomError("forbidden", "error.bad_secret")
            await self.check_resync(room, message.get("version", 0))
            seat, claimed = found
            claim = seat if claimed else None
            await self.enter(room, None if claimed else seat, message["secret"], message.get("version", 0), claim)
            if not claimed and ("avatar" in message or "colour" in message):
                await set_look(room, seat, message.get("avatar"), message.get("colour"))
        else:
            await self.check_resync(room, message.get("version", 0))
            await self.enter(room, None, None, message.get("version", 0))

    async def handle(self, message: dict[str, Any], opened: Room | None = None) -> None:
        """Handle a checked message (``opened``: the room a ``join``, ``resume`` or ``spectate`` names,
        held by :meth:`open_room`)."""
        kind = message["type"]
        member = self.member
        if "lang" in message:  # the first message's language, or a ``lang`` message: spoken from now on
            member.set_lang(message["lang"])
        if kind == "lang":
            if member.room is not None:
                member.room.send_state(member)
        elif kind == "ping":
            self.send({"type": "pong"})
        elif kind == "read_rule":
            self.send(read_rule_message(message["text"], member.t))
        elif kind == "create":
            tutorial = message.get("tutorial", False)  # a guided first game: no timer, unlisted, nobody joins late
            settings = RoomSettings(
                message["edition"],
                message["seats"],
                message.get("rules", {}),
                message.get("bot", "heuristic"),
                0 if tutorial else message.get("timer", 30),
                message.get("public", False) and not tutorial,
                message.get("late_join", True) and not tutorial,
                tutorial,
            )
            check_bot_level(settings)
            await self.check_create()
            look = (message.get("avatar"), message.get("colour"))
            room, secret = await self.hub.create(settings, message["name"], look=look)
            self.created.append(time.monotonic())
            await self.enter(room, 0, secret)
        elif kind in ("join", "resume", "spectate"):
            assert opened is not None, "opened by open_room"
            await self.enter_opened(opened, message)
        elif kind == "chat":
            room = self.room()
            if not self.chat_limiter.allow():
                raise RoomError("rate-limited", "error.chat_rate")
            await check_chat_budget(self.websocket)
            check_room_chat(room, member)
            await post_chat(room, member, message["text"])
        elif kind == "react":
            room = self.room()
            if not self.chat_limiter.allow():
                raise RoomError("rate-limited", "error.chat_rate")
            await check_chat_budget(self.websocket)
            check_room_chat(room, member)
            await post_reaction(room, member, message["reaction"], message.get("to"))
        elif kind == "look":
            room = self.room()
            if member.seat is None:
                raise RoomError("forbidden", "error.look_seated")
            if not self.chat_limiter.allow():
                raise RoomError("rate-limited", "error.look_rate")
            await set_look(room, member.seat, message.get("avatar"), message.get("colour"))
        elif kind == "voice":
            room = self.room()
            if not self.voice_limiter.allow():
                raise RoomError("rate-limited", "error.voice_rate")
            set_voice(room, member, message["on"], list(self.hub.settings.ice_servers))
        elif kind == "signal":
            room = self.room()
            if not self.signal_limiter.allow():
                raise RoomError("rate-limited", "error.signal_rate")
            relay_signal(room, member, message["to"], message["kind"], message["data"])
        elif kind == "rematch":
            await vote_rematch(self.room(), member)
        elif kind == "continue":
            self.room().read_results(member)
        elif kind == "kick":
            await self.room().kick(member, message["seat"])
        elif kind == "leave":
            await self.room().leave(member)
        elif kind == "back":
            self.room().back(member)
        elif kind == "seat":
            await self.room().set_seat(member, message["seat"], message["bot"])
        elif kind == "rule_cards":
            await self.room().write_rule_cards(member, message["texts"])
        elif kind == "start":
            await self.room().start(member)
        elif kind == "act":
            await self.room().act(member, message["action"], message["version"])
        elif kind == "hint":
            room = self.room()
            if not self.hint_limiter.allow():
                raise RoomError("rate-limited", "error.hint_rate", count=HINT_BURST, seconds=HINT_WINDOW)
            self.send(room.hint(member, message["version"]))
        elif kind == "sync":
            room = self.room()
            await self.check_resync(room, min(message["version"], room.version))
            member.version = min(message["version"], room.version)
            room.send_state(member)
        else:  # pragma: no cover - parse_message knows every type
            raise ProtocolError(f"unknown message type {kind!r}")


async def game_socket(websocket: WebSocket) -> None:
    hub: Hub = websocket.app.state.hub
    await websocket.accept()  # the host, the origin and the sockets per address were checked (GuardMiddleware)
    connection = Connection(websocket, hub)
    pump = asyncio.get_running_loop().create_task(connection.pump())
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            data = text if text is not None else frame.get("bytes") or b""
            if not await connection.receive(data):
                connection.error("rate-limited", "error.flooding")
                connection.closing = True
                connection.outbox.put_nowait(None)
                break
            if connection.closing:
                break
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("WebSocket connection failed")
    finally:
        connection.leave()
        if connection.closing:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pump, 2.0)
        pump.cancel()
        with contextlib.suppress(BaseException):
            await pump
        if websocket.client_state == WebSocketState.CONNECTED and not connection.closing:
            with contextlib.suppress(Exception):
                await websocket.close()
