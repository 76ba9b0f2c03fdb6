"""The web game: a Starlette server for browsers, over WebSockets, with rooms stored in SQLite.

Needs the ``web`` extra (``pip install 'unokit[web]'``).  ``unokit serve`` runs it; see
``docs/web.md`` for the protocol.  The engine stays the only authority: this package
routes, checks, stores and presents, and only views leave it.
"""

from __future__ import annotations

__all__ = ["create_app"]


def __getattr__(name: str) -> object:
    if name == "create_app":
        from unokit.web.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
