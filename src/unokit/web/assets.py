"""The browser client's files, read once, compressed once and served from memory.

The page names its files under a version taken from their contents
(``/static/<version>/app.js``), so a browser keeps them for good (``immutable``) and a changed
client is a new version: a later load asks for nothing it already has.  The same files under
``/static/<name>`` are revalidated on every use (``no-cache`` with an ``ETag``).  A page of an
earlier version asking for its files gets the current ones, revalidated, never a 404.

The styles are written one file per concern; the page is sent linking them as one,
:data:`JOINED_STYLES` (the files in the page's order, which keeps the cascade as it was), so a
first visit makes one request for them rather than nine.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

__all__ = ["JOINED_STYLES", "Asset", "ClientAssets", "join_stylesheets"]

COMPRESSIBLE = (".html", ".js", ".css", ".svg", ".json")
"""The kinds of file worth compressing (text)."""

MIN_COMPRESSED = 500
"""Files smaller than this many bytes are sent as they are."""

FOREVER = "public, max-age=31536000, immutable"

JOINED_STYLES = "styles.css"
"""The name the page's stylesheets are served under as one file."""

STYLESHEET_LINK = re.compile(rb'[ \t]*<link rel="stylesheet" href="/static/([\w-]+\.css)">\n?')

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


def join_stylesheets(page: bytes, contents: dict[str, bytes]) -> tuple[bytes, bytes | None]:
    """``page`` with its stylesheet links replaced by one link to :data:`JOINED_STYLES` where
    the first was, and that file: each linked sheet of ``contents`` in the page's order, under a
    comment naming it.  A page linking no sheet is returned as it is, with ``None``.

    Raises :class:`ValueError` if the page links a sheet that ``contents`` lacks, or if a file of
    ``contents`` already has the joined file's name."""
    links = list(STYLESHEET_LINK.finditer(page))
    if not links:
        return page, None
    if JOINED_STYLES in contents:
        raise ValueError(f"{JOINED_STYLES} is the name of the joined stylesheets: rename that file")
    parts = []
    for link in links:
        name = link.group(1).decode()
        if name not in contents:
            raise ValueError(f"the page links a stylesheet that is missing: {name}")
        parts.append(f"/* {name} */\n".encode() + contents[name].rstrip(b"\n") + b"\n")
    first = links[0]
    indent = first.group(0)[: len(first.group(0)) - len(first.group(0).lstrip())]
    joined_link = indent + b'<link rel="stylesheet" href="/static/' + JOINED_STYLES.encode() + b'">\n'
    page = page[: first.start()] + joined_link + STYLESHEET_LINK.sub(b"", page[first.start() :])
    return page, b"".join(parts)


class ClientAssets:
    """Every file of ``folder`` (flat, but for the message catalogs ``locales/<lang>/<namespace>.json``),
    and the page ``index.html`` naming them under :attr:`version`."""

    def __init__(self, folder: Path) -> None:
        paths = [*sorted(folder.glob("*")), *sorted(folder.glob("locales/*/*.json"))]
        contents = {path.relative_to(folder).as_posix(): path.read_bytes() for path in paths if path.is_file()}
        digest = hashlib.sha256()
        for name, body in contents.items():
            digest.update(name.encode() + b"\0" + hashlib.sha256(body).digest())
        self.version = digest.hexdigest()[:12]
        self.files = {name: Asset.of(name, body) for name, body in contents.items()}
        page = contents.get("index.html")
        if page is None:
            self.page = None
            return
        page, styles = join_stylesheets(page, contents)
        if styles is not None:
            self.files[JOINED_STYLES] = Asset.of(JOINED_STYLES, styles)
        self.page = Asset.of("index.html", self.versioned(page))

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
