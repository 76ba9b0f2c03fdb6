"""Limits per client address, and the host names the server answers for.

One client address may hold ``connections_per_address`` connections open at once, create
``address_creates_per_hour`` rooms an hour and look up ``address_lookups_per_minute`` room codes
a minute, over the game socket and the JSON API alike; the JSON API's room routes answer ``rate``
requests a second to it (``burst`` at once).  All of them are :class:`ServerSettings` fields.  An
IPv6 client is counted by its /64 network (one machine usually holds a whole one).  Those limits
are kept in memory by each process (:class:`LocalLimits`), or, with ``redis_url``, in Redis, one
allowance for every process that shares it (:class:`unokit.web.cluster.RedisLimits`); the connections
per peer, counted by the server's protocol before any request, stay each process's own.

The client's address is the socket's peer, except behind a reverse proxy named in
``trusted_proxies``: from such a peer, and only from it, ``X-Forwarded-For`` names the client and
``X-Forwarded-Proto`` the scheme the browser used.  Each hop of ``X-Forwarded-For`` is read as an IP
address (a port or brackets around IPv6 dropped); a header that names no client address is refused
(``400``), so that no limit is ever kept under a string a client made up.

Every request must name an allowed host in its ``Host`` header (:class:`AllowedHosts`), and a
game socket opened by a page must come from that very origin, scheme included, or from the public
URL's (``public_url``): a page of another site, or one whose own name was pointed at this server
(DNS rebinding), is refused.

>>> hosts = AllowedHosts.for_server(("127.0.0.1", 8000), ["uno.example"])
>>> [hosts.allows(host, secure=False) for host in ("127.0.0.1:8000", "localhost:8000", "evil.example:8000")]
[True, True, False]
>>> hosts.allows("uno.example", secure=True), same_origin("http://uno.example", "uno.example", secure=True)
(True, False)
"""

from __future__ import annotations

import ipaddress
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Iterable
from typing import Protocol
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from unokit.i18n import catalog, negotiate
from unokit.web.settings import RoomError, ServerSettings

__all__ = [
    "AddressGuard",
    "AddressLimits",
    "AllowedHosts",
    "ForwardedAddressError",
    "GuardMiddleware",
    "LocalLimits",
    "RateLimiter",
    "address_key",
    "check_room_creation",
    "check_room_lookup",
    "parse_forwarded_address",
    "parse_host",
    "proxy_network",
    "refuse_room_request",
    "same_origin",
]

log = logging.getLogger("unokit.web")

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARD_ADDRESSES = ("", "0.0.0.0", "::")
RECENT_CODES = 16
"""Codes an address looked up last, which it may look up again for nothing."""
MISDIRECTED = "421 Misdirected Request: this server does not answer for that host name\n"
NOTICE_SECONDS = 60.0
"""A refusal of each kind is logged at most once in this many seconds."""


class RateLimiter:
    """A token bucket: ``rate`` per second, up to ``burst`` at once.

    >>> bucket = RateLimiter(rate=1.0, burst=2.0, now=0.0)
    >>> [bucket.allow(0.0), bucket.allow(0.0), bucket.allow(0.0), bucket.allow(1.0)]
    [True, True, False, True]
    """

    def __init__(self, rate: float = 20.0, burst: float = 40.0, now: float | None = None) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic() if now is None else now

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def spend(self, cost: float, now: float | None = None) -> bool:
        """Take ``cost`` tokens if the bucket holds them (a cost over ``burst``: if it is full, leaving
        it in debt, so a larger cost waits longer for the next).

        >>> bucket = RateLimiter(rate=10.0, burst=100.0, now=0.0)
        >>> [bucket.spend(300, 0.0), bucket.spend(1, 10.0), bucket.spend(1, 20.1)]
        [True, False, True]
        """
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= min(cost, self.burst):
            self.tokens -= cost
            return True
        return False


# ---------------------------------------------------------------- addresses


def address_key(host: str) -> str:
    """What an address is counted under: an IPv4 address itself (an IPv4-mapped IPv6 one too), an
    IPv6 address its /64 network, anything else as it is.

    >>> address_key("203.0.113.7"), address_key("::ffff:203.0.113.7"), address_key("2001:db8::1:2:3:4")
    ('203.0.113.7', '203.0.113.7', '2001:db8::/64')
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def proxy_network(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    """A trusted proxy's address or network (``10.0.0.2``, ``10.0.0.0/8``, ``::1``);
    :class:`ValueError` if it is neither."""
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise ValueError(f"a trusted proxy is an IP address or network, not {text!r}") from None


def parse_forwarded_address(text: str) -> str | None:
    """The client address one hop of ``X-Forwarded-For`` (or a ``for=`` of ``Forwarded``) names, as
    :mod:`ipaddress` writes it: ``a.b.c.d``, ``a.b.c.d:port``, ``[v6]``, ``[v6]:port`` or a bare v6
    address (a zone, ``%eth0``, dropped); None when it names no address (``unknown``, a name, junk).

    >>> [parse_forwarded_address(hop) for hop in ("9.9.9.9:4711", "[2001:DB8::5]:443", " 2001:db8::5 ", "x")]
    ['9.9.9.9', '2001:db8::5', '2001:db8::5', None]
    """
    text = text.strip().strip('"')
    if text.startswith("["):
        inner, bracket, rest = text[1:].partition("]")
        if not bracket or (rest and not (rest.startswith(":") and _PORT.fullmatch(rest[1:]))):
            return None
        text = inner
        if ":" not in text:
            return None  # brackets hold an IPv6 address only
    elif text.count(":") == 1:
        text, _, port = text.partition(":")
        if not _PORT.fullmatch(port):
            return None
    try:
        address = ipaddress.ip_address(text.partition("%")[0])
    except ValueError:
        return None
    return str(address)


class ForwardedAddressError(ValueError):
    """A trusted proxy's forwarding header names no client address where it must."""


class TrustedProxies:
    """The reverse proxies whose forwarding headers are believed."""

    def __init__(self, entries: Iterable[str]) -> None:
        self.networks = tuple(proxy_network(entry) for entry in entries)

    def trusts(self, host: str | None) -> bool:
        if not self.networks or host is None:
            return False
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.networks)

    def client(self, forwarded_for: str) -> str | None:
        """The client named by ``X-Forwarded-For``: the last address in it that is not a trusted
        proxy (each proxy adds the peer it saw at the end; what comes before may be forged), each hop
        read as an address (:func:`parse_forwarded_address`); None for an empty header.

        Raises :class:`ForwardedAddressError` when a hop up to the client's names no address: limits
        are never kept for a string a client chose."""
        hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
        last = None
        for hop in reversed(hops):
            address = parse_forwarded_address(hop)
            if address is None:
                raise ForwardedAddressError(f"X-Forwarded-For names {hop[:64]!r}, which is no IP address")
            if not self.trusts(address):
                return address
            last = address
        return last


class OpenConnections:
    """Connections open now per address, at most ``limit`` each."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.counts: dict[str, int] = {}

    def open(self, key: str) -> bool:
        """Count one more connection of ``key``; False (nothing counted) past the limit."""
        count = self.counts.get(key, 0)
        if count >= self.limit:
            return False
        self.counts[key] = count + 1
        return True

    def close(self, key: str) -> None:
        count = self.counts.get(key, 0) - 1
        if count > 0:
            self.counts[key] = count
        else:
            self.counts.pop(key, None)


class AddressLimits(Protocol):
    """The per-address limits of a server: kept in memory (:class:`LocalLimits`), or in Redis, one
    allowance for several server processes (:class:`unokit.web.cluster.RedisLimits`).  ``key`` is
    what an address is counted under (:func:`address_key`)."""

    socket_limit: int
    """Game sockets one address may hold open at once."""

    async def open_socket(self, key: str) -> bool:
        """Count one more game socket of ``key``; False (nothing counted) past :attr:`socket_limit`."""
        ...

    async def close_socket(self, key: str) -> None:
        """Count one game socket of ``key`` fewer (one that :meth:`open_socket` let in)."""
        ...

    async def allow_request(self, key: str) -> bool:
        """Whether ``key`` may ask the JSON API's room routes once more (``rate`` a second, ``burst`` at once)."""
        ...

    async def allow_creation(self, key: str) -> bool:
        """Whether ``key`` may create one more room (``address_creates_per_hour``)."""
        ...

    async def allow_lookup(self, key: str, code: str) -> bool:
        """Whether ``key`` may look up room ``code`` (``address_lookups_per_minute``; a code among the
        last :data:`RECENT_CODES` it looked up is free)."""
        ...

    async def allow_chat(self, key: str) -> bool:
        """Whether ``key``'s connections may send one more chat line or reaction (``address_chat_per_minute``)."""
        ...

    async def allow_analysis(self, key: str) -> bool:
        """Whether ``key`` may have one more analysis computed (``address_analyses_per_minute``)."""
        ...

    async def spend_resync(self, key: str, events: int) -> bool:
        """Whether ``key`` may be sent a full resync of ``events`` events (``address_resync_events`` a
        minute); if so they are counted."""
        ...

    async def close(self) -> None:
        """Let go of what the limits hold (the server stops)."""
        ...


class AddressRecord:
    """What one address has asked lately: requests to the room routes, rooms created, codes looked up."""

    def __init__(self, settings: ServerSettings) -> None:
        self.requests = RateLimiter(settings.rate, settings.burst)
        creates = settings.address_creates_per_hour
        self.creations = RateLimiter(creates / 3600.0, creates)
        lookups = settings.address_lookups_per_minute
        self.lookups = RateLimiter(lookups / 60.0, lookups)
        self.recent_codes: OrderedDict[str, None] = OrderedDict()
        resyncs = settings.address_resync_events
        self.resyncs = RateLimiter(resyncs / 60.0, resyncs)
        """Events sent by the address's full resyncs (a minute's worth at once)."""
        chat = settings.address_chat_per_minute
        self.chat = RateLimiter(chat / 60.0, settings.address_chat_burst)
        """Chat lines (and reactions) the address's connections send, together."""
        analyses = settings.address_analyses_per_minute
        self.analyses = RateLimiter(analyses / 60.0, analyses)
        """Analyses of finished matches computed for the address (:mod:`unokit.web.analysis`)."""

    def allow_lookup(self, code: str) -> bool:
        """A code among the last :data:`RECENT_CODES` looked up is free; a new one takes a token."""
        if code in self.recent_codes:
            self.recent_codes.move_to_end(code)
            return True
        if not self.lookups.allow():
            return False
        self.recent_codes[code] = None
        if len(self.recent_codes) > RECENT_CODES:
            self.recent_codes.popitem(last=False)
        return True


class LocalLimits:
    """The limits of one process alone, in memory: the addresses seen lately (the ``size`` last) and
    the game sockets open now."""

    def __init__(self, settings: ServerSettings, size: int = 10_000) -> None:
        self.settings = settings
        self.size = size
        self.records: OrderedDict[str, AddressRecord] = OrderedDict()
        """The addresses seen lately, the least recently seen first (forgotten past ``size``)."""
        self.sockets = OpenConnections(settings.connections_per_address)
        self.socket_limit = settings.connections_per_address

    def record(self, key: str) -> AddressRecord:
        record = self.records.pop(key, None)
        if record is None:
            record = AddressRecord(self.settings)
            while len(self.records) >= self.size:
                self.records.popitem(last=False)
        self.records[key] = record
        return record

    async def open_socket(self, key: str) -> bool:
        return self.sockets.open(key)

    async def close_socket(self, key: str) -> None:
        self.sockets.close(key)

    async def allow_request(self, key: str) -> bool:
        return self.record(key).requests.allow()

    async def allow_creation(self, key: str) -> bool:
        return self.record(key).creations.allow()

    async def allow_lookup(self, key: str, code: str) -> bool:
        return self.record(key).allow_lookup(code)

    async def allow_chat(self, key: str) -> bool:
        return self.record(key).chat.allow()

    async def allow_analysis(self, key: str) -> bool:
        return self.record(key).analyses.allow()

    async def spend_resync(self, key: str, events: int) -> bool:
        return self.record(key).resyncs.spend(events)

    async def close(self) -> None:
        pass


# ---------------------------------------------------------------- host names


_HOST_NAME = re.compile(r"[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?")
_PORT = re.compile(r"[0-9]{1,5}")


def parse_host(text: str) -> tuple[str, int | None] | None:
    """A ``Host`` header's name (lower case, without a final dot; an IPv6 address without its
    brackets) and port (None when not given); None when it is no host.

    >>> parse_host("Uno.Example.:8000"), parse_host("[::1]"), parse_host("evil.example/x")
    (('uno.example', 8000), ('::1', None), None)
    """
    text = text.strip().lower()
    port_text = ""
    if text.startswith("["):
        name, bracket, rest = text[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port_text = rest[1:] if rest else ""
        try:
            ipaddress.IPv6Address(name)
        except ValueError:
            return None
    else:
        name, colon, port_text = text.partition(":")
        name = name.removesuffix(".")
        if not _HOST_NAME.fullmatch(name) or (colon and not port_text):
            return None
    if not port_text:
        return name, None
    if not _PORT.fullmatch(port_text) or not 0 < int(port_text) < 65536:
        return None
    return name, int(port_text)


class AllowedHosts:
    """The names a request's ``Host`` may give, each on one port or (port None) on any; with
    ``any_address``, also any IP address on ``any_address_port`` (None: any port), for a server
    listening on every address: an address cannot be a rebinding page's name."""

    def __init__(
        self, names: Iterable[tuple[str, int | None]], any_address: bool = False, any_address_port: int | None = None
    ) -> None:
        self.names = frozenset(names)
        self.any_address = any_address
        self.any_address_port = any_address_port

    @classmethod
    def for_server(cls, listen: tuple[str, int] | None, extra: Iterable[str] = ()) -> AllowedHosts:
        """The server's own names and ``extra`` (``name`` or ``name:port``, :class:`ValueError` if
        one is no host name).  Its own: listening on ``listen`` (address, port; port 0: any), that
        address and localhost, 127.0.0.1 and [::1] on the port, or any address on it when ``listen``
        is every address (``0.0.0.0``, ``::``); with no ``listen`` (an app served some other way),
        localhost, 127.0.0.1 and [::1] on any port."""
        names: set[tuple[str, int | None]] = set()
        for entry in extra:
            parsed = parse_host(entry)
            if parsed is None:
                raise ValueError(f"an allowed host is a name or an address, with a port or not, not {entry!r}")
            names.add(parsed)
        if listen is None:
            names.update((name, None) for name in LOOPBACK_NAMES)
            return cls(names)
        address, port = listen
        on_port = port or None
        names.update((name, on_port) for name in LOOPBACK_NAMES)
        if address.strip("[]") in WILDCARD_ADDRESSES:
            return cls(names, any_address=True, any_address_port=on_port)
        own = parse_host(f"[{address}]" if ":" in address else address)
        if own is not None:
            names.add((own[0], on_port))
        return cls(names)

    def allows(self, host: str | None, secure: bool) -> bool:
        """Whether the ``Host`` header ``host`` names this server (no port: the scheme's own)."""
        parsed = parse_host(host) if host is not None else None
        if parsed is None:
            return False
        name, port = parsed
        port = port if port is not None else (443 if secure else 80)
        if (name, None) in self.names or (name, port) in self.names:
            return True
        if not self.any_address or self.any_address_port not in (None, port):
            return False
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True


def same_origin(origin: str | None, host: str | None, secure: bool) -> bool:
    """Whether a page's ``Origin`` is this very address: the ``Host`` asked, with the scheme of the
    connection (``https`` for a secure one).  Programs that send no Origin are let in."""
    if origin is None:
        return True
    scheme, separator, authority = origin.partition("://")
    if not separator or scheme.lower() != ("https" if secure else "http") or host is None:
        return False
    page, asked = parse_host(authority), parse_host(host)
    if page is None or asked is None:
        return False
    default = 443 if secure else 80
    return (page[0], page[1] or default) == (asked[0], asked[1] or default)


# ---------------------------------------------------------------- the guard


class AddressGuard:
    """The per-address limits of one server (its settings) and the host names it answers for."""

    def __init__(
        self, settings: ServerSettings, hosts: AllowedHosts, size: int = 10_000, limits: AddressLimits | None = None
    ) -> None:
        """``limits``: where the per-address limits are kept (the server passes Redis's when the settings
        name a ``redis_url``); by default in memory (the ``size`` addresses seen last)."""
        self.settings = settings
        self.hosts = hosts
        self.proxies = TrustedProxies(settings.trusted_proxies)
        self.limits: AddressLimits = limits if limits is not None else LocalLimits(settings, size)
        """Game sockets open, room requests, creations and code look-ups per client address (behind a
        trusted proxy, the forwarded one)."""
        self.peers = OpenConnections(settings.connections_per_address)
        """Connections open per peer address (trusted proxies aside), counted by the server's protocol,
        in each process alone."""
        self.noticed: dict[str, float] = {}
        self.resyncs = RateLimiter(settings.server_resync_events / 60.0, settings.server_resync_events)
        """Events sent by the full resyncs of every client together (a minute's worth at once)."""
        public = urlsplit(settings.public_url) if settings.public_url else None
        self.public = (public.netloc, public.scheme.lower() == "https") if public is not None else None
        """The public URL's host and port and whether it is ``https``: the origin of the pages people open."""

    async def close(self) -> None:
        """Let go of the limits' store (the server stops)."""
        await self.limits.close()

    def origin_allowed(self, origin: str | None, host: str | None, secure: bool) -> bool:
        """Whether a game socket asked of ``host`` may be opened by a page of ``origin``: the page is of that
        very address (:func:`same_origin`), or of the public URL, the request naming its host (behind a
        proxy that ends TLS, the page is ``https`` while the socket comes in plain)."""
        if same_origin(origin, host, secure):
            return True
        if self.public is None or host is None:
            return False
        asked, named = parse_host(host), parse_host(self.public[0])
        return asked is not None and named is not None and asked[0] == named[0] and same_origin(origin, *self.public)

    def notice(self, what: str) -> None:
        """Log a refusal, at most once a minute for each kind."""
        now = time.monotonic()
        if now - self.noticed.get(what, -NOTICE_SECONDS) >= NOTICE_SECONDS:
            self.noticed[what] = now
            log.warning("refused: %s (logged at most once a minute)", what)

    def forward(self, scope: Scope) -> None:
        """From a trusted proxy, the client and scheme it forwards replace the peer's in ``scope``;
        :class:`ForwardedAddressError` when the proxy's ``X-Forwarded-For`` names no client address."""
        client = scope.get("client")
        if client is None or not self.proxies.trusts(client[0]):
            return
        headers = Headers(scope=scope)
        forwarded_for = headers.getlist("x-forwarded-for")
        if forwarded_for:
            forwarded = self.proxies.client(",".join(forwarded_for))
            if forwarded is None:
                raise ForwardedAddressError("X-Forwarded-For names no address")
            scope["client"] = (forwarded, 0)
        protocols = [value.strip().lower() for value in ",".join(headers.getlist("x-forwarded-proto")).split(",")]
        if protocols[-1] in ("http", "https"):
            secure = protocols[-1] == "https"
            if scope["type"] == "websocket":
                scope["scheme"] = "wss" if secure else "ws"
            else:
                scope["scheme"] = protocols[-1]

    def peer_key(self, host: str | None) -> str | None:
        """What a connection from the peer ``host`` is counted under; None (not counted) for a
        trusted proxy, whose connections carry many clients."""
        if host is None or self.proxies.trusts(host):
            return None
        return address_key(host)


def client_key(connection: HTTPConnection | Scope) -> str:
    """What the client of a request or socket is counted under (its forwarded address behind a trusted proxy)."""
    client = connection.client if isinstance(connection, HTTPConnection) else connection.get("client")
    return address_key(client[0]) if client else "unknown"


def _guard(connection: HTTPConnection) -> AddressGuard:
    guard: AddressGuard = connection.app.state.guard
    return guard


async def check_room_creation(connection: HTTPConnection) -> None:
    """Refuse (``rate-limited``) a room creation past the address's ``address_creates_per_hour``."""
    guard = _guard(connection)
    if not await guard.limits.allow_creation(client_key(connection)):
        guard.notice(f"an address created {guard.settings.address_creates_per_hour} rooms within an hour")
        raise RoomError("rate-limited", "error.address_rooms")


async def check_room_lookup(connection: HTTPConnection, code: str) -> None:
    """Refuse (``rate-limited``) a look-up of a room code past the address's ``address_lookups_per_minute``."""
    guard = _guard(connection)
    if not await guard.limits.allow_lookup(client_key(connection), code.strip().upper()):
        guard.notice(f"an address looked up {guard.settings.address_lookups_per_minute} room codes within a minute")
        raise RoomError("rate-limited", "error.address_codes")


async def check_resync_budget(connection: HTTPConnection, events: int) -> None:
    """Refuse (``rate-limited``) a full resync of ``events`` events past this server's
    ``server_resync_events`` a minute (the process's own CPU), or the address's
    ``address_resync_events`` (shared by the processes that share the limits)."""
    guard = _guard(connection)
    if not guard.resyncs.spend(events):
        guard.notice(f"clients asked for full resyncs of over {guard.settings.server_resync_events} events a minute")
        raise RoomError("rate-limited", "error.resync_server")
    if not await guard.limits.spend_resync(client_key(connection), events):
        guard.resyncs.tokens += events  # not sent: the server keeps its share
        limit = guard.settings.address_resync_events
        guard.notice(f"an address asked for full resyncs of over {limit} events a minute")
        raise RoomError("rate-limited", "error.resync_address")


async def check_chat_budget(connection: HTTPConnection) -> None:
    """Refuse (``rate-limited``) a chat line past the address's ``address_chat_per_minute``."""
    guard = _guard(connection)
    if not await guard.limits.allow_chat(client_key(connection)):
        guard.notice(f"an address sent over {guard.settings.address_chat_per_minute} chat lines a minute")
        raise RoomError("rate-limited", "error.chat_address")


async def refuse_room_request(request: Request) -> Response | None:
    """A ``429`` answer when the client's address asks the JSON API's room routes too often or looks up
    too many codes (the route's ``code``, if it has one); None when it may be answered."""
    guard = _guard(request)
    if not await guard.limits.allow_request(client_key(request)):
        lang = negotiate(request.headers.get("accept-language"))
        t = catalog(lang)
        return JSONResponse({"error": t("error.flood_requests")}, status_code=429, headers={"content-language": lang})
    code = request.path_params.get("code")
    if code is not None:
        try:
            await check_room_lookup(request, str(code))
        except RoomError as exc:
            lang = negotiate(request.headers.get("accept-language"))
            return JSONResponse(
                {"error": exc.words(catalog(lang))}, status_code=429, headers={"content-language": lang}
            )
    return None


async def refuse(scope: Scope, receive: Receive, send: Send, status: int, text: str) -> None:
    """Answer a request, or a game socket before its handshake, with ``status`` and ``text``."""
    answer = PlainTextResponse(text, status_code=status)
    if scope["type"] == "http":
        await answer(scope, receive, send)
    elif "websocket.http.response" in scope.get("extensions", {}):
        await send({"type": "websocket.http.response.start", "status": status, "headers": answer.raw_headers})
        await send({"type": "websocket.http.response.body", "body": answer.body})
    else:
        await send({"type": "websocket.close", "code": 1008})  # before the handshake: HTTP 403


class GuardMiddleware:
    """The ASGI side of the guard: the client behind a trusted proxy, the host check of every request,
    the origin check and the count of game sockets per address."""

    def __init__(self, app: ASGIApp, guard: AddressGuard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        guard = self.guard
        try:
            guard.forward(scope)
        except ForwardedAddressError as exc:
            guard.notice(f"a trusted proxy forwarded no client address ({exc})")
            reason = f"400 Bad Request: {exc}; the proxy must forward the client's address\n"  # i18n: to the operator
            await refuse(scope, receive, send, 400, reason)
            return
        headers = Headers(scope=scope)
        host = headers.get("host")
        secure = scope.get("scheme") in ("https", "wss")
        if scope["type"] == "http":
            if guard.hosts.allows(host, secure):
                await self.app(scope, receive, send)
            else:
                answer = PlainTextResponse(MISDIRECTED, status_code=421)
                await answer(scope, receive, send)
            return
        if not guard.hosts.allows(host, secure) or not guard.origin_allowed(headers.get("origin"), host, secure):
            await send({"type": "websocket.close", "code": 1008})  # before the handshake: HTTP 403
            return
        key = client_key(scope)
        if not await guard.limits.open_socket(key):
            guard.notice(f"an address opened more than {guard.limits.socket_limit} game sockets at once")
            await send({"type": "websocket.close", "code": 1008})
            return
        try:
            await self.app(scope, receive, send)
        finally:
            await guard.limits.close_socket(key)
