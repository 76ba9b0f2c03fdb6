"""The browser client as served: every module preloaded by the page, the page and its files
gzip-compressed with the security headers, the JSON API and the WebSocket left uncompressed."""

from __future__ import annotations

import gzip
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from unokit.web.app import SECURITY_HEADERS, STATIC_DIR
from web_support import Client, RunningServer, fast_settings


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with RunningServer(":memory:", fast_settings()) as running:
        yield running


def fetch(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and the body exactly as sent (not decompressed)."""
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def test_every_module_is_preloaded() -> None:
    """The page loads app.js and preloads every other module of static/, so a cold load fetches them
    all at once instead of one level of imports after another; a module added, renamed or removed
    without its line here fails."""
    head = (STATIC_DIR / "index.html").read_text(encoding="utf-8").split("</head>", 1)[0]
    assert re.findall(r'<script type="module" src="/static/([^"]+)"></script>', head) == ["app.js"]
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/([^"]+)">', head)
    modules = sorted(path.name for path in Path(STATIC_DIR).glob("*.js") if path.name != "app.js")
    assert len(preloaded) == len(set(preloaded))
    missing = sorted(set(modules) - set(preloaded))
    stale = sorted(set(preloaded) - set(modules))
    assert not missing and not stale, f"index.html: add <link rel=modulepreload> for {missing}, remove {stale}"


def test_static_files_are_compressed_with_the_security_headers(server: RunningServer) -> None:
    raw = (STATIC_DIR / "app.js").read_bytes()
    status, headers, body = fetch(f"{server.http}/static/app.js", **{"Accept-Encoding": "gzip"})
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert "accept-encoding" in headers["vary"].lower()
    assert gzip.decompress(body) == raw and len(body) < len(raw) / 2
    assert headers["cache-control"] == "no-cache" and headers["etag"]
    for name, value in SECURITY_HEADERS.items():
        assert headers[name] == value
    # unchanged: revalidated without the body
    status, headers, body = fetch(
        f"{server.http}/static/app.js", **{"Accept-Encoding": "gzip", "If-None-Match": headers["etag"]}
    )
    assert status == 304 and body == b""
    # a client that does not accept gzip gets the file as it is
    status, headers, body = fetch(f"{server.http}/static/app.js")
    assert status == 200 and "content-encoding" not in headers and body == raw


def test_the_page_is_compressed_the_api_is_not(server: RunningServer) -> None:
    page = (STATIC_DIR / "index.html").read_bytes()
    for path in ("/", "/r/ABCD2345", "/replay/ABCD2345"):
        status, headers, body = fetch(server.http + path, **{"Accept-Encoding": "gzip"})
        assert status == 200 and headers["content-encoding"] == "gzip" and gzip.decompress(body) == page
        assert headers["cache-control"] == "no-store"
        assert headers["content-security-policy"] == SECURITY_HEADERS["content-security-policy"]
    for path in ("/api/options", "/api/rooms", "/api/rooms/ABCD2345"):
        status, headers, body = fetch(server.http + path, **{"Accept-Encoding": "gzip"})
        assert status in (200, 404) and "content-encoding" not in headers, path
        assert body.startswith(b"{")


def test_the_websocket_still_works(server: RunningServer) -> None:
    client = Client(server.url)
    try:
        client.send(type="create", name="Ann", edition="classic", seats=2)
        welcome = client.expect("welcome")
        assert client.expect("lobby")["code"] == welcome["code"]
        response = client.ws.response
        assert response is not None
        assert "permessage-deflate" not in response.headers.get("Sec-WebSocket-Extensions", "")
    finally:
        client.close()
