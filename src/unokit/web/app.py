"""The web server: a Starlette app with the browser client, a small JSON API and the game's WebSocket.

``create_app(db_path=..., settings=...)`` builds the app; ``unokit serve`` runs it on
uvicorn.  Every client frame is checked (:mod:`unokit.web.protocol`), rate-limited per
connection, and handled by the rooms (:mod:`unokit.web.rooms`); every failure is
answered with an ``error`` to that client alone, never with a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute

from unokit.bots import bot_kinds
from unokit.bots.weights import learned_tables
from unokit.editions import get_edition
from unokit.editions.rulecards import MAX_RULE_LENGTH
from unokit.editions.wild_jackpot import rule_cards_per_player
from unokit.engine.rules import OPTIONS, PRESETS, Rules
from unokit.i18n import LANGUAGES, Translator, catalog, english, is_language, negotiate
from unokit.web.analysis import (
    Analyses,
    AnalysisBusyError,
    match_answer,
    moment_answer,
    rate_match,
    rate_moment,
    seat_position,
)
from unokit.web.assets import ClientAssets
from unokit.web.chat import MAX_CHAT
from unokit.web.guard import (
    AddressGuard,
    AddressLimits,
    AllowedHosts,
    GuardMiddleware,
    RateLimiter,
    client_key,
    refuse_room_request,
)
from unokit.web.hub import Hub
from unokit.web.links import Site, origin_of, parse_public_url, qr_svg
from unokit.web.protocol import (
    BOT_LEVELS,
    EDITION_NAMES,
    MAX_FRAME,
    MAX_NAME,
    MAX_TIMER,
)
from unokit.web.replays import MatchReplay, ReplayCache
from unokit.web.rooms import (
    CODE_LENGTH,
    MIN_TIMER,
    RoomSettings,
    ServerSettings,
    code_tag,
)
from unokit.web.storage import SqliteStorage, Storage, StorageError, StoredRoom, open_storage
from unokit.web.transport import Connection as Connection  # moved to unokit.web.transport; kept here a release
from unokit.web.transport import game_socket

__all__ = ["RateLimiter", "create_app", "options"]

log = logging.getLogger("unokit.web")

STATIC_DIR = Path(__file__).parent / "static"

SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}

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
        "bot_tables": {"learned": [list(table) for table in learned_tables()]} if "learned" in bot_kinds() else {},
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


def answer(
    data: dict[str, Any], lang: str, status_code: int = 200, headers: dict[str, str] | None = None
) -> JSONResponse:
    """A JSON answer with words in ``lang`` (said by ``Content-Language``)."""
    return JSONResponse(data, status_code=status_code, headers={"content-language": lang, **(headers or {})})


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
SEAT_PATTERN = re.compile(r"[0-9]{1,2}")


async def _match_replay(request: Request, code: str) -> MatchReplay | Response:
    """The finished match ``code`` as the replay keeps it (:class:`ReplayCache`), or the error answer."""
    replays: ReplayCache = request.app.state.replays
    match = replays.get(code)
    if match is None:
        found = await _finished_match(request, code, "replay")
        if isinstance(found, Response):
            return found
        stored, record = found
        match = replays.add(code, record, [row.kind for row in sorted(stored.seats, key=lambda row: row.seat)])
    return match


async def _replay_request(request: Request) -> tuple[str, str, MatchReplay] | Response:
    """The language, room code and finished match of a request about a match's replay, or the error
    answer (rate, language, unknown room, match not over)."""
    refused = await _refused_for_rate(request)
    if refused is not None:
        return refused
    lang = request_lang(request)
    if lang is None:
        return unknown_lang(request)
    code = str(request.path_params["code"]).strip().upper()
    match = await _match_replay(request, code)
    if isinstance(match, Response):
        return match
    return lang, code, match


async def api_replay(request: Request) -> Response:
    """The table after the first ``step`` actions of a finished match, as a spectator saw it."""
    found = await _replay_request(request)
    if isinstance(found, Response):
        return found
    lang, code, match = found
    text = str(request.path_params["step"])
    if not STEP_PATTERN.fullmatch(text) or int(text) > match.steps:
        return refusal(request, 400, "error.step", steps=match.steps)
    try:
        position = await asyncio.to_thread(match.position, int(text), lang)
    except Exception:
        log.exception("room %s: the replay of step %s failed", code_tag(code), text)
        return refusal(request, 500, "error.replay_failed")
    return answer({"code": code, **position}, lang)


async def _analysis_request(request: Request) -> tuple[str, str, MatchReplay, int] | Response:
    """The language, room code, match and seat of an analysis request (the seat from the path's ``seat``
    or the query's), or the error answer."""
    found = await _replay_request(request)
    if isinstance(found, Response):
        return found
    lang, code, match = found
    text = str(request.path_params.get("seat", request.query_params.get("seat", "")))
    if not SEAT_PATTERN.fullmatch(text) or int(text) >= len(match.names):
        return refusal(request, 400, "error.analysis_seat", last=len(match.names) - 1)
    return lang, code, match, int(text)


async def _analysed(
    request: Request, code: str, key: tuple[Any, ...], work: Callable[[], Any], words: Callable[[Any], dict[str, Any]]
) -> Response:
    """The answer of an analysis: the result kept under ``key``, or ``work()`` computed if the address may
    have one more (``429`` otherwise; ``503`` while the server analyses all it can), put in ``words``."""
    analyses: Analyses = request.app.state.analyses
    lang = request_lang(request) or "en"
    try:
        rated = analyses.kept_result(key)
        if rated is None:
            if not await request.app.state.guard.limits.allow_analysis(client_key(request)):
                count = request.app.state.guard.settings.address_analyses_per_minute
                return refusal(request, 429, "error.analysis_rate", count=count, seconds=60)
            rated = await analyses.compute(key, work)
        body = await asyncio.to_thread(words, rated)
    except AnalysisBusyError:
        return refusal(request, 503, "error.analysis_busy")
    except Exception:
        log.exception("room %s: the analysis %s failed", code_tag(code), key[0])
        return refusal(request, 500, "error.analysis_failed")
    return answer({"code": code, **body}, lang, headers={"cache-control": "no-store"})


async def api_analysis(request: Request) -> Response:
    """Every decision of one seat in a finished match rated (:mod:`unokit.web.analysis`)."""
    found = await _analysis_request(request)
    if isinstance(found, Response):
        return found
    lang, code, match, seat = found
    record, names = match.record, match.names
    return await _analysed(
        request,
        code,
        ("match", code, seat),
        lambda: rate_match(code, record, seat),
        lambda rated: match_answer(record, rated, names, catalog(lang)),
    )


async def api_analyse(request: Request) -> Response:
    """One moment of a finished match analysed from one seat's knowledge, with its position to copy."""
    found = await _analysis_request(request)
    if isinstance(found, Response):
        return found
    lang, code, match, seat = found
    text = str(request.path_params["step"])
    if not STEP_PATTERN.fullmatch(text) or int(text) > match.steps:
        return refusal(request, 400, "error.step", steps=match.steps)
    step, record, names = int(text), match.record, match.names
    return await _analysed(
        request,
        code,
        ("moment", code, step, seat),
        lambda: rate_moment(code, record, step, seat),
        lambda rated: moment_answer(record, step, seat, rated, names, catalog(lang)),
    )


async def api_position(request: Request) -> Response:
    """The position after ``step`` actions of a finished match as seat ``?seat=S`` may know it
    (:func:`unokit.web.analysis.seat_position`), to copy: cheap, so only the room routes' limits apply."""
    found = await _analysis_request(request)
    if isinstance(found, Response):
        return found
    lang, code, match, seat = found
    text = str(request.path_params["step"])
    if not STEP_PATTERN.fullmatch(text) or int(text) > match.steps:
        return refusal(request, 400, "error.step", steps=match.steps)
    step = int(text)
    try:
        position = await asyncio.to_thread(seat_position, match.record, step, seat)
    except Exception:
        log.exception("room %s: the position of step %s failed", code_tag(code), step)
        return refusal(request, 500, "error.analysis_failed")
    return answer({"code": code, "step": step, "seat": seat, "position": position}, lang)


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
        Route("/api/rooms/{code}/analysis/{seat}", api_analysis),
        Route("/api/rooms/{code}/analyse/{step}", api_analyse),
        Route("/api/rooms/{code}/position/{step}", api_position),
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
    app.state.analyses = Analyses()
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
