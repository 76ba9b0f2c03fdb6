"""Run the web server on uvicorn (``unokit serve``).

uvicorn's protocols are given two guards: a connection has ``header_timeout`` seconds to send a
request's headers (uvicorn bounds only the wait between requests), and one address holds at most
``connections_per_address`` connections at once; a text frame that is not UTF-8 closes its
socket (1007) with one line in the log.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
import sqlite3
import sys

import h11
import uvicorn
from starlette.applications import Starlette
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from unokit.web.app import create_app
from unokit.web.guard import AddressGuard
from unokit.web.links import Site
from unokit.web.rooms import ServerSettings
from unokit.web.storage import StorageError, describe_db

__all__ = ["WS_MAX_SIZE", "ServeError", "listening_socket", "make_config", "serve"]


class ServeError(ValueError):
    """The server cannot start: the address cannot be listened on, or the store cannot be opened."""


SWITCH_INTERVAL = 0.0001
"""Seconds the event loop's thread may hold the interpreter while a store thread waits for it
(:func:`sys.setswitchinterval`; Python's default is 0.005).  A write in a store thread takes
the interpreter back after each SQLite statement; at the default, each of those waits cost up to
5 ms while the loop was busy, and 200 busy rooms waited 100–300 ms for their writes."""

LISTEN_BACKLOG = 2048
"""Connections the system queues for the server before it accepts them (uvicorn's default)."""

WS_MAX_SIZE = 64 * 1024
"""Frames larger than this are cut off by the WebSocket layer itself (the protocol's limit,
8 KiB, is checked above it and answered with an error).  Messages are not compressed: they
are small, and compressing a player's secrets together with text others chose is best avoided."""


def _guard_of(config: uvicorn.Config) -> AddressGuard:
    """The guard of the app of :func:`make_config`."""
    app = config.app
    if not isinstance(app, Starlette) or not isinstance(getattr(app.state, "guard", None), AddressGuard):
        raise TypeError("the guarded protocols serve the app of create_app")
    guard: AddressGuard = app.state.guard
    return guard


class GuardedHttpProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, with the connections per peer address counted and the time
    between requests bounded: from the connection's start, and again after each response, it has
    ``header_timeout`` seconds to send the next request's headers (a body the answer did not need
    sent meanwhile does not count), else it is closed."""

    guard: AddressGuard | None = None
    counted_peer: str | None = None
    header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.guard = guard = _guard_of(self.config)
        key = guard.peer_key(self.client[0] if self.client else None)
        if key is not None:
            if not guard.peers.open(key):
                guard.notice(f"an address opened more than {guard.peers.limit} connections at once")
                self.transport.close()
                return
            self.counted_peer = key
        self._await_headers()

    def _await_headers(self) -> None:
        self._stop_header_timer()
        assert self.guard is not None
        self.header_timer = self.loop.call_later(self.guard.settings.header_timeout, self._headers_too_slow)

    def _stop_header_timer(self) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def _answering(self) -> bool:
        """Whether a request's headers are in and its response is not complete."""
        return self.cycle is not None and not self.cycle.response_complete

    def _headers_too_slow(self) -> None:
        self.header_timer = None
        if not self._answering() and not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._answering():
            self._stop_header_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and not self._answering():
            self._await_headers()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._stop_header_timer()
        super().handle_websocket_upgrade(event)
        upgraded = self.transport.get_protocol()
        if isinstance(upgraded, GuardedWebSocketProtocol):  # the socket's protocol releases the count
            upgraded.guard, upgraded.counted_peer = self.guard, self.counted_peer
            self.counted_peer = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        if self.counted_peer is not None and self.guard is not None:
            self.guard.peers.close(self.counted_peer)
            self.counted_peer = None
        super().connection_lost(exc)


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, releasing the connection's count when it ends, and closing a
    socket that sends a text frame that is not UTF-8 (1007) with one line in the log, not a traceback."""

    guard: AddressGuard | None = None
    counted_peer: str | None = None

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text":
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError:
                self.frames = []
                peer = self.client[0] if self.client else "a client"
                self.logger.warning("%s sent a WebSocket text frame that is not UTF-8: closed (1007)", peer)
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.counted_peer is not None and self.guard is not None:
            self.guard.peers.close(self.counted_peer)
            self.counted_peer = None
        super().connection_lost(exc)


def make_config(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_path: str = "unokit.sqlite3",
    settings: ServerSettings | None = None,
    log_level: str = "info",
) -> uvicorn.Config:
    """The uvicorn configuration of the server (port 0: any free port), answering for ``host``
    (and the loopback names) on ``port``, with the guarded protocols."""
    app = create_app(db_path=db_path, settings=settings, listen=(host, port))
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=GuardedHttpProtocol,
        ws=GuardedWebSocketProtocol,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,
        log_level=log_level,
        access_log=False,  # it would log every room's code (/r/CODE), which lets anyone in
        lifespan="on",
        proxy_headers=False,
        server_header=False,
    )


def listening_socket(host: str, port: int, *, reuse_port: bool = False) -> socket.socket:
    """A TCP socket bound to ``host``:``port``, for the server to listen on (``reuse_port``: one of
    several on that port, ``SO_REUSEPORT``, among which the system spreads the connections).

    Its protocol is named (``IPPROTO_TCP``, not the default 0): asyncio turns Nagle's algorithm
    off (``TCP_NODELAY``) only on connections accepted from such a socket.  Left on, every
    response after a connection's first waited about 40 ms for the client's delayed ACK, since
    uvicorn writes a response's head and body apart, and so did a socket's second message
    written before the first was acknowledged.

    It listens at once: the address printed may be opened before the app has started (its
    connections are accepted once it has).

    Raises :class:`ServeError` if it cannot be bound."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        listener.bind((host, port))
        listener.listen(LISTEN_BACKLOG)  # connections wait from now on, while the app starts
    except OSError as exc:
        listener.close()
        reason = "the port is in use" if exc.errno == errno.EADDRINUSE else exc.strerror or str(exc)
        raise ServeError(f"cannot listen on {host}:{port}: {reason}") from None
    return listener


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_path: str = "unokit.sqlite3",
    settings: ServerSettings | None = None,
) -> None:
    """Serve until interrupted; prints the address to open (the real port when ``port`` is 0) and how
    others get in (:meth:`unokit.web.links.Site.banner`).

    Raises :class:`ServeError` if ``host``:``port`` cannot be listened on or ``db_path`` cannot be
    opened as the store."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(name)s: %(message)s")
    sys.setswitchinterval(SWITCH_INTERVAL)
    listener = listening_socket(host, port)
    bound = listener.getsockname()[1]
    try:
        config = make_config(host, bound, db_path, settings)
    except (sqlite3.Error, OSError, StorageError) as exc:
        listener.close()
        raise ServeError(f"cannot open the database {describe_db(db_path)!r}: {exc}") from None
    server = uvicorn.Server(config)
    site = Site(host, bound, settings.public_url if settings is not None else None)
    for line in site.banner():
        print(f"unokit: {line}", flush=True)
    server.run(sockets=[listener])
