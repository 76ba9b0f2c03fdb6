"""The browser client's files, read once, compressed once and served from memory.

The page names its files under a version taken from their contents
(``/static/<version>/app.js``), so a browser keeps them for good (``immutable``) and a changed
client is a new version: a later load asks for nothing it already has.  The same files under
``/static/<name>`` are revalidated on every use (``no-cache`` with an ``ETag``).  A page of an
earlier version asking for its files gets the current ones, revalidated, never a 404.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

__all__ = ["Asset", "ClientAssets"]

COMPRESSIBLE = (".html", ".js", ".css", ".svg", ".json")
"""The kinds of file worth compressing (text)."""

MIN_COMPRESSED = 500
"""Files smaller than this many bytes are sent as they are."""

FOREVER = "public, max-age=31536000, immutable"

MEDIA_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}


@dataclass(frozen=True)
class Asset:
    """One file as served: its bytes, the same gzip-compressed (``None`` when not worth it),
    its media type and entity tag."""

    body: bytes
    gzipped: bytes | None
    media_type: str
    etag: str

    @classmethod
    def of(cls, name: str, body: bytes) -> Asset:
        suffix = Path(name).suffix
        media_type = MEDIA_TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"
        if media_type.startswith("text/html"):
            media_type = "text/html; charset=utf-8"
        gzipped = None
        if suffix in COMPRESSIBLE and len(body) >= MIN_COMPRESSED:
            packed = gzip.compress(body, compresslevel=9, mtime=0)
            gzipped = packed if len(packed) < len(body) else None
        return cls(body, gzipped, media_type, '"' + hashlib.sha256(body).hexdigest()[:20] + '"')

    def response(self, request: Request, cache_control: str) -> Response:
        """This file for ``request``: ``304`` when its ``If-None-Match`` names this version,
        compressed when the client accepts gzip."""
        headers = {"cache-control": cache_control, "etag": self.etag}
        if self.gzipped is not None:
            headers["vary"] = "Accept-Encoding"
        if self.etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        body = self.body
        if self.gzipped is not None and "gzip" in request.headers.get("accept-encoding", "").lower():
            body = self.gzipped
            headers["content-encoding"] = "gzip"
        return Response(body, media_type=self.media_type, headers=headers)


class ClientAssets:
    """Every file of ``folder`` (flat: no sub-folders), and the page ``index.html`` naming them
    under :attr:`version`."""

    def __init__(self, folder: Path) -> None:
        contents = {path.name: path.read_bytes() for path in sorted(folder.glob("*")) if path.is_file()}
        digest = hashlib.sha256()
        for name, body in contents.items():
            digest.update(name.encode() + b"\0" + hashlib.sha256(body).digest())
        self.version = digest.hexdigest()[:12]
        self.files = {name: Asset.of(name, body) for name, body in contents.items()}
        page = contents.get("index.html")
        self.page = None if page is None else Asset.of("index.html", self.versioned(page))

    def versioned(self, page: bytes) -> bytes:
        """``page`` with every ``/static/`` address under this version."""
        return page.replace(b'"/static/', b'"/static/' + self.version.encode() + b"/")

    def page_response(self, request: Request) -> Response:
        """The page (``/``, ``/r/CODE``, ``/replay/CODE``): never stored, as it names the version."""
        if self.page is None:
            return JSONResponse({"error": "the browser client is missing"}, status_code=404)
        return self.page.response(request, "no-store")

    def file_response(self, request: Request, name: str, version: str | None = None) -> Response:
        """``/static/<name>`` (revalidated) or ``/static/<version>/<name>`` (kept for good when
        ``version`` is the current one)."""
        asset = self.files.get(name)
        if asset is None:
            return Response("Not Found", status_code=404, media_type="text/plain")
        return asset.response(request, FOREVER if version == self.version else "no-cache")
