"""Run the web server on uvicorn (``unokit serve``)."""

from __future__ import annotations

import errno
import logging
import socket
import sqlite3

import uvicorn

from unokit.web.app import create_app
from unokit.web.rooms import ServerSettings
from unokit.web.storage import StorageError

__all__ = ["WS_MAX_SIZE", "ServeError", "make_config", "serve"]


class ServeError(ValueError):
    """The server cannot start: the address cannot be listened on, or the store cannot be opened."""


WS_MAX_SIZE = 64 * 1024
"""Frames larger than this are cut off by the WebSocket layer itself (the protocol's limit,
8 KiB, is checked above it and answered with an error).  Messages are not compressed: they
are small, and compressing a player's secrets together with text others chose is best avoided."""


def make_config(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_path: str = "unokit.sqlite3",
    settings: ServerSettings | None = None,
    log_level: str = "info",
) -> uvicorn.Config:
    """The uvicorn configuration of the server (port 0: any free port)."""
    app = create_app(db_path=db_path, settings=settings)
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,
        log_level=log_level,
        access_log=False,  # it would log every room's code (/r/CODE), which lets anyone in
        lifespan="on",
        proxy_headers=False,
        server_header=False,
    )


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_path: str = "unokit.sqlite3",
    settings: ServerSettings | None = None,
) -> None:
    """Serve until interrupted; prints the address to open (the real port when ``port`` is 0).

    Raises :class:`ServeError` if ``host``:``port`` cannot be listened on or ``db_path`` cannot be
    opened as the store."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(name)s: %(message)s")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as exc:
        listener.close()
        reason = "the port is in use" if exc.errno == errno.EADDRINUSE else exc.strerror or str(exc)
        raise ServeError(f"cannot listen on {host}:{port}: {reason}") from None
    bound = listener.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    try:
        config = make_config(host, bound, db_path, settings)
    except (sqlite3.Error, OSError, StorageError) as exc:
        listener.close()
        raise ServeError(f"cannot open the database {db_path!r}: {exc}") from None
    server = uvicorn.Server(config)
    print(f"unokit: open http://{shown}:{bound}/ in a browser (Ctrl-C stops the server)", flush=True)
    server.run(sockets=[listener])
