"""The web server: a Starlette app with the browser client, a small JSON API and the game's WebSocket.

``create_app(db_path=..., settings=...)`` builds the app; ``unokit serve`` runs it on
uvicorn.  Every client frame is checked (:mod:`unokit.web.protocol`), rate-limited per
connection, and handled by the rooms (:mod:`unokit.web.rooms`); every failure is
answered with an ``error`` to that client alone, never with a traceback.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import math
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any, Protocol

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from unokit.bots import bot_kinds
from unokit.editions import get_edition
from unokit.editions.rulecards import MAX_RULE_LENGTH
from unokit.editions.wild_jackpot import rule_cards_per_player
from unokit.engine.rules import OPTIONS, PRESETS, Rules
from unokit.i18n import LANGUAGES, Translator, catalog, english, is_language, negotiate
from unokit.web.assets import ClientAssets
from unokit.web.chat import MAX_CHAT, ChatLimiter, check_room_chat, post_chat, post_reaction
from unokit.web.guard import (
    AddressGuard,
    AddressLimits,
    AllowedHosts,
    GuardMiddleware,
    RateLimiter,
    check_chat_budget,
    check_resync_budget,
    check_room_creation,
    check_room_lookup,
    refuse_room_request,
)
from unokit.web.hints import HINT_BURST, HINT_WINDOW
from unokit.web.hub import Elsewhere, Hub
from unokit.web.links import Site, origin_of, parse_public_url, qr_svg
from unokit.web.protocol import (
    BOT_LEVELS,
    EDITION_NAMES,
    MAX_FRAME,
    MAX_NAME,
    MAX_TIMER,
    ProtocolError,
    parse_message,
)
from unokit.web.rematch import moved_message, vote_rematch
from unokit.web.replays import ReplayCache
from unokit.web.rooms import (
    CODE_LENGTH,
    MIN_TIMER,
    Member,
    Room,
    RoomError,
    RoomGone,
    RoomSettings,
    ServerSettings,
    code_tag,
    read_rule_message,
)
from unokit.web.social import SignalLimiter, relay_signal, set_look, set_voice
from unokit.web.storage import SqliteStorage, Storage, StorageError, StoredRoom, open_storage

__all__ = ["RateLimiter", "create_app", "options"]

log = logging.getLogger("unokit.web")

STATIC_DIR = Path(__file__).parent / "static"

SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}

FLOOD_LIMIT = 200
"""Refused messages within :data:`FLOOD_WINDOW` seconds after which the connection is closed."""
FLOOD_WINDOW = 10.0
ROOM_TRIES = 3
"""Fetches of a room a ``join``, ``resume`` or ``spectate`` makes when the room it fetched was put
away before it held it."""


TERM_PREFIXES = ("colour.", "kind.", "card.")
"""The catalog ids of the card terms ``GET /api/options`` gives the page (``terms``)."""


def options(min_timer: int = MIN_TIMER, lang: str = "en") -> dict[str, Any]:
    """What ``GET /api/options`` answers: editions, rule options with their limits, group (``house``
    for a house rule), words (label, help, choice labels) and the option each one works with
    (``requires``; all from :data:`unokit.engine.rules.OPTIONS`), the presets (each a set
    of options, :data:`unokit.engine.rules.PRESETS`: the client fills its form from them), bot levels, and the
    server's limits (``min_timer``: the shortest turn timer it allows).  The deck override is
    not offered.  The words (labels, help, choice labels, edition summaries, and ``terms``: the names
    of colours and cards, ``colour.*``, ``kind.*``, ``card.*``) are in ``lang``."""
    t = catalog(lang)
    defaults = Rules()
    rules: dict[str, dict[str, Any]] = {}
    for name, spec in OPTIONS.items():
        if spec.kind == "deck":
            continue
        entry: dict[str, Any]
        if spec.kind == "choice":
            entry = {"choices": list(spec.choices)}
        elif spec.kind == "bool":
            entry = {"type": "bool"}
        elif spec.kind == "ints":
            entry = {"type": "ints", "length": spec.length, "min": spec.low, "max": spec.high}
        else:
            entry = {"type": spec.kind, "min": spec.low, "max": spec.high}
        if spec.editions is not None:
            entry["editions"] = list(spec.editions)
        if spec.group:
            entry["group"] = spec.group
        if spec.requires:
            entry["requires"] = spec.requires
        entry["label"], entry["help"], choice_labels = spec.words(t)
        if choice_labels:
            entry["choice_labels"] = dict(zip(spec.choices, choice_labels, strict=True))
        value = getattr(defaults, name)
        entry["default"] = list(value) if isinstance(value, tuple) else value
        rules[name] = entry
    return {
        "editions": list(EDITION_NAMES),
        "edition_titles": {name: get_edition(name).title for name in EDITION_NAMES},
        "edition_summaries": {name: edition_summary(name, t) for name in EDITION_NAMES},
        "languages": list(LANGUAGES),
        "terms": {key: t.message(key) for key in sorted(t.messages) if key.startswith(TERM_PREFIXES)},
        "rules": rules,
        "presets": {name: dict(values) for name, values in PRESETS.items()},
        "bots": [kind for kind in BOT_LEVELS if kind in bot_kinds()],
        "rule_card_counts": {str(n): rule_cards_per_player(defaults.rule_card_count, n) for n in range(2, 11)},
        "limits": {
            "name": MAX_NAME,
            "rule_text": MAX_RULE_LENGTH,
            "frame": MAX_FRAME,
            "seats": [2, 10],
            "chat": MAX_CHAT,
            "timer": [min_timer, MAX_TIMER],
        },
    }


def edition_summary(edition: str, t: Translator) -> str:
    """An edition's summary in the language of ``t``."""
    return t("edition." + edition.replace("-", "_") + ".summary")  # i18n: the id of an edition's summary


# ---------------------------------------------------------------- HTTP


def request_lang(request: Request) -> str | None:
    """The language an HTTP request asks for: ``?lang=xx``, else its ``Accept-Language``, else English;
    ``None`` when ``?lang`` names a language that is not shipped."""
    asked = request.query_params.get("lang")
    if asked is not None:
        return asked if is_language(asked) else None
    return negotiate(request.headers.get("accept-language"))


def answer(data: dict[str, Any], lang: str, status_code: int = 200) -> JSONResponse:
    """A JSON answer with words in ``lang`` (said by ``Content-Language``)."""
    return JSONResponse(data, status_code=status_code, headers={"content-language": lang})


def refusal(request: Request, status_code: int, message_id: str, /, **values: Any) -> JSONResponse:
    """An HTTP error whose words are message ``message_id``, in the request's language."""
    lang = request_lang(request) or "en"
    return answer({"error": catalog(lang)(message_id, **values)}, lang, status_code)


def unknown_lang(request: Request) -> JSONResponse:
    """The answer to a ``?lang`` that is not shipped."""
    shipped = ", ".join(LANGUAGES)  # i18n: language codes
    return answer(
        {"error": english("error.lang", lang=request.query_params.get("lang", ""), shipped=shipped)}, "en", 400
    )


async def page(request: Request) -> Response:
    assets: ClientAssets = request.app.state.assets
    return assets.page_response(request)


async def static_file(request: Request) -> Response:
    assets: ClientAssets = request.app.state.assets
    params = request.path_params
    name = str(params["name"])
    if "lang" in params:  # a message catalog: /static/[<version>/]locales/<lang>/<namespace>.json
        name = f"locales/{params['lang']}/{name}"  # i18n: a file's path, not words
    return assets.file_response(request, name, params.get("version"))


async def api_options(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    lang = request_lang(request)
    if lang is None:
        return unknown_lang(request)
    return answer(options(hub.settings.min_timer, lang), lang)


async def api_site(request: Request) -> Response:
    """Where the page's links lead (:mod:`unokit.web.links`): ``base``, the reachable base of the links
    it shows (None: its own origin), ``network``, whether that is this machine's address on the local
    network, and ``local_only``, whether no other machine can open them."""
    site: Site = request.app.state.site
    host, peer = request.headers.get("host"), request.client.host if request.client else None
    hub: Hub = request.app.state.hub
    base = site.reachable_base(host, peer)
    return JSONResponse(
        {
            "base": base,
            "network": site.on_network(base),
            "local_only": site.local_only(host, peer, hub.settings.allowed_hosts),
        },
        headers={"cache-control": "no-store"},
    )


async def healthz(request: Request) -> Response:
    """For health checks: the server answers (nothing is read or written); one of several worker
    processes (``unokit serve --workers``) names itself in ``X-Unokit-Worker``."""
    headers = {"cache-control": "no-store"}
    worker = getattr(request.app.state, "worker", None)
    if worker is not None:
        headers["x-unokit-worker"] = str(worker)
    return PlainTextResponse("ok\n", headers=headers)


async def _refused_for_rate(request: Request) -> Response | None:
    """A ``429`` answer if the client's address asks the room routes too often or tries too many codes."""
    return await refuse_room_request(request)


PUBLIC_ROOMS = 50
"""The most rooms ``GET /api/rooms`` lists."""


async def api_rooms(request: Request) -> Response:
    """The public lobbies with an open seat, newest first: nothing in it but what the start page shows."""
    refused = await _refused_for_rate(request)
    if refused is not None:
        return refused
    hub: Hub = request.app.state.hub
    try:
        lobbies = await hub.store.read(hub.storage.public_lobbies, PUBLIC_ROOMS)
    except StorageError:
        return store_unreadable(request)
    rooms = []
    for found in lobbies:
        settings = RoomSettings.from_dict(found.settings)
        rooms.append(
            {
                "code": found.code,
                "edition": settings.edition,
                "players": settings.players,
                "open": found.open,
                "host": found.host_name,
                "options": settings.options(),
                "rules": Rules.from_dict(settings.rules).to_dict(),
                "created": found.created,
            }
        )
    return JSONResponse({"rooms": rooms})


async def api_room(request: Request) -> Response:
    """What the join page needs to know of one room: where it stands and what a newcomer may do
    there (nothing secret: no seat's name, hand or secret)."""
    refused = await _refused_for_rate(request)
    if refused is not None:
        return refused
    code = str(request.path_params["code"]).strip().upper()
    hub: Hub = request.app.state.hub
    try:
        stored = await hub.store.read(hub.storage.load_room, code) if len(code) == CODE_LENGTH else None
    except StorageError:
        return store_unreadable(request)
    if stored is None:
        return refusal(request, 404, "error.not_found")
    settings = RoomSettings.from_dict(stored.settings)
    takeable = sum(1 for seat in stored.seats if seat.kind == "bot" and seat.claim_name is None)
    return JSONResponse(
        {
            "code": stored.code,
            "status": stored.status,
            "edition": settings.edition,
            "players": settings.players,
            "open": sum(1 for seat in stored.seats if seat.kind == "open") if stored.status == "lobby" else 0,
            "late_seats": takeable if stored.status == "playing" and settings.late_join else 0,
            "options": settings.options(),
        }
    )


async def api_record(request: Request) -> Response:
    refused = await _refused_for_rate(request)
    if refused is not None:
        return refused
    code = str(request.path_params["code"]).strip().upper()
    found = await _finished_match(request, code, "record")
    if isinstance(found, Response):
        return found
    return JSONResponse(found[1])


async def api_room_qr(request: Request) -> Response:
    """A QR code (SVG) of the room's invite link, on the reachable base (:mod:`unokit.web.links`)."""
    refused = await _refused_for_rate(request)
    if refused is not None:
        return refused
    code = str(request.path_params["code"]).strip().upper()
    hub: Hub = request.app.state.hub
    try:
        found = len(code) == CODE_LENGTH and await hub.store.read(hub.storage.room_exists, code)
    except StorageError:
        return store_unreadable(request)
    if not found:
        return refusal(request, 404, "error.not_found")
    site: Site = request.app.state.site
    host = request.headers.get("host")
    base = site.reachable_base(host, request.client.host if request.client else None)
    base = base or origin_of(request.url.scheme, host) or ""
    return Response(qr_svg(f"{base}/r/{code}"), media_type="image/svg+xml", headers={"cache-control": "no-store"})


def store_unreadable(request: Request) -> Response:
    """The answer while the store cannot be read."""
    return refusal(request, 503, "error.store_read")


async def _finished_match(request: Request, code: str, what: str) -> tuple[StoredRoom, dict[str, Any]] | Response:
    """The stored room and record of the finished match ``code``, or the error answer.  ``what``:
    ``record`` or ``replay``, what is asked for."""
    hub: Hub = request.app.state.hub

    def load() -> tuple[StoredRoom | None, dict[str, Any] | None]:
        stored = hub.storage.load_room(code)
        return stored, hub.storage.load_record(code) if stored is not None and stored.status == "finished" else None

    try:
        stored, record = await hub.store.read(load) if len(code) == CODE_LENGTH else (None, None)
    except StorageError:
        return store_unreadable(request)
    if stored is None:
        return refusal(request, 404, "error.not_found")
    if stored.status != "finished":
        if what == "replay":
            return refusal(request, 403, "error.replay_not_over")
        return refusal(request, 403, "error.record_not_over")
    if record is None:  # pragma: no cover - a finished room always has a game
        return refusal(request, 404, "error.no_record")
    return stored, record


STEP_PATTERN = re.compile(r"[0-9]{1,9}")


async def api_replay(request: Request) -> Response:
    """The table after the first ``step`` actions of a finished match, as a spectator saw it."""
    refused = await _refused_for_rate(request)
    if refused is not None:
        return refused
    lang = request_lang(request)
    if lang is None:
        return unknown_lang(request)
    replays: ReplayCache = request.app.state.replays
    code = str(request.path_params["code"]).strip().upper()
    match = replays.get(code)
    if match is None:
        found = await _finished_match(request, code, "replay")
        if isinstance(found, Response):
            return found
        stored, record = found
        match = replays.add(code, record, [row.kind for row in sorted(stored.seats, key=lambda row: row.seat)])
    text = str(request.path_params["step"])
    if not STEP_PATTERN.fullmatch(text) or int(text) > match.steps:
        return refusal(request, 400, "error.step", steps=match.steps)
    try:
        position = await asyncio.to_thread(match.position, int(text), lang)
    except Exception:
        log.exception("room %s: the replay of step %s failed", code_tag(code), text)
        return refusal(request, 500, "error.replay_failed")
    return answer({"code": code, **position}, lang)


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(
        self,
        scope: MutableMapping[str, Any],
        receive: Callable[[], Awaitable[MutableMapping[str, Any]]],
        send: Callable[[MutableMapping[str, Any]], Awaitable[None]],
    ) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                for name, value in SECURITY_HEADERS.items():
                    if name.encode() not in present:
                        headers.append((name.encode(), value.encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


# ---------------------------------------------------------------- WebSocket


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


# ---------------------------------------------------------------- the app


def create_app(
    db_path: str = "unokit.sqlite3",
    settings: ServerSettings | None = None,
    storage: Storage | None = None,
    listen: tuple[str, int] | None = None,
) -> Starlette:
    """The web app, storing rooms in the SQLite file ``db_path`` (``":memory:"``: nothing kept)
    or in ``storage``.  On start-up every room in progress is loaded and resumes.  ``listen`` is the
    address and port the server listens on, which names the hosts it answers for
    (:meth:`AllowedHosts.for_server`; without it, localhost, 127.0.0.1 and [::1] on any port)."""
    store: Storage = storage if storage is not None else open_storage(db_path, exclusive=True)
    hub = Hub(store, settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        stop_owning: Callable[[], Awaitable[None]] | None = None
        if hub.settings.redis_url is not None and not isinstance(store, SqliteStorage):
            from unokit.web.cluster.owner import Ownership  # rooms owned under leases, clients relayed

            hub.cluster = cluster = Ownership.from_settings(hub, app)
            app.state.relay, stop_owning = cluster.relay, cluster.close
            restored = await cluster.start()
        else:
            restored = hub.load_all()
        if restored:
            log.info("resumed %d rooms", restored)
        hub.start()
        yield
        if stop_owning is not None:
            await stop_owning()
        hub.close()
        hub.store.close()
        await app.state.guard.close()

    routes = [
        Route("/", page),
        Route("/r/{code}", page),
        Route("/replay/{code}", page),
        Route("/how-to-play", page),
        Route("/how-to-play/{edition}", page),
        Route("/api/options", api_options),
        Route("/api/site", api_site),
        Route("/healthz", healthz),
        Route("/api/rooms", api_rooms),
        Route("/api/rooms/{code}", api_room),
        Route("/api/rooms/{code}/record", api_record),
        Route("/api/rooms/{code}/replay/{step}", api_replay),
        Route("/api/rooms/{code}/qr.svg", api_room_qr),
        WebSocketRoute("/ws", game_socket),
        Route("/static/{name}", static_file),
        Route("/static/{version}/{name}", static_file),
        Route("/static/locales/{lang}/{name}", static_file),
        Route("/static/{version}/locales/{lang}/{name}", static_file),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    app.state.assets = ClientAssets(STATIC_DIR)
    app.state.replays = ReplayCache()
    public_url = hub.settings.public_url
    app.state.site = site = Site(*(listen or ("127.0.0.1", 0)), parse_public_url(public_url) if public_url else None)
    hosts = AllowedHosts.for_server(listen, (*hub.settings.allowed_hosts, *site.allowed_hosts()))
    limits: AddressLimits | None = None
    if hub.settings.redis_url is not None:  # one allowance per address for every process sharing the Redis
        from unokit.web.cluster.limits import RedisLimits
        from unokit.web.cluster.names import new_process_id

        limits = RedisLimits.from_url(hub.settings.redis_url, hub.settings, new_process_id(), hub.settings.redis_prefix)
    app.state.guard = guard = AddressGuard(hub.settings, hosts, limits=limits)
    app.add_middleware(GuardMiddleware, guard=guard)
    app.add_middleware(SecurityHeaders)
    return app
