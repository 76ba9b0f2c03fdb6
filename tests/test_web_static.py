"""The browser client as served: every module preloaded by the page, the page and its files
gzip-compressed with the security headers, the files named by a version of their contents and
kept for good under it, the JSON API and the WebSocket left uncompressed."""

from __future__ import annotations

import gzip
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from unokit.web.app import SECURITY_HEADERS, STATIC_DIR
from unokit.web.assets import ClientAssets, join_stylesheets
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


STATIC_IMPORT = re.compile(r'^import [^;]*? from "\./([^"]+)";', re.MULTILINE | re.DOTALL)
DYNAMIC_IMPORT = re.compile(r'import\("\./([^"]+)"\)')


def modules_loaded_at_start() -> set[str]:
    """app.js and the modules it imports (statically, at any depth): what a page loads at once. The
    others are loaded on demand (``import("./x.js")``) and what they import."""
    loaded, pending = set(), ["app.js"]
    while pending:
        name = pending.pop()
        if name not in loaded:
            loaded.add(name)
            pending.extend(STATIC_IMPORT.findall((STATIC_DIR / name).read_text(encoding="utf-8")))
    return loaded


def test_every_module_is_preloaded() -> None:
    """The page loads app.js and preloads every other module it loads at start, so a cold load fetches
    them all at once instead of one level of imports after another; a module added, renamed or
    removed without its line here fails.  A module loaded on demand is not preloaded."""
    head = (STATIC_DIR / "index.html").read_text(encoding="utf-8").split("</head>", 1)[0]
    assert re.findall(r'<script type="module" src="/static/([^"]+)"></script>', head) == ["app.js"]
    # boot.js, a classic script, runs first: before the styles and the modules
    assert re.findall(r"<script[^>]*>", head)[0] == '<script src="/static/boot.js">'
    assert head.index("boot.js") < head.index("stylesheet")
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/([^"]+)">', head)
    modules = sorted(modules_loaded_at_start() - {"app.js"})
    assert len(preloaded) == len(set(preloaded))
    missing = sorted(set(modules) - set(preloaded))
    stale = sorted(set(preloaded) - set(modules))
    assert not missing and not stale, f"index.html: add <link rel=modulepreload> for {missing}, remove {stale}"
    on_demand = {path.name for path in Path(STATIC_DIR).glob("*.js")} - modules_loaded_at_start() - {"boot.js"}
    imported = set()
    for path in Path(STATIC_DIR).glob("*.js"):
        text = path.read_text(encoding="utf-8")
        imported |= set(DYNAMIC_IMPORT.findall(text)) | set(STATIC_IMPORT.findall(text))
    assert on_demand <= imported, f"modules nothing loads: {sorted(on_demand - imported)}"


CODE_AND_STYLES_BUDGET = 320_000
"""Bytes of code and styles the page may weigh at start (the ``.css``, the HTML page, boot.js and the
modules loaded at start, raw): 250,000 until the replay page went on demand and the table gained the
results' wait, stale-dialog and phone fixes (12 kB), the invite's QR code and links (3 kB), avatars,
reactions and the voice controls (20 kB), and the words moved to catalogs (i18n.js and the ids, 29 kB):
310,529 bytes then, 100,841 gzipped."""
ON_DEMAND_BUDGET = 95_000
"""Bytes of the modules loaded on demand (how to play, the guided game, hints, replays, reactions,
celebrations, avatars and voice), raw: 68,036 then; 80,000 until the replay's analysis board and its styles (16 kB)."""


def test_the_code_and_styles_stay_within_their_budget() -> None:
    """The page's weight target (docs/web.md, "Page weight and speed"): a change that takes the
    client's code and styles over it must make room first."""
    at_start = modules_loaded_at_start() | {"boot.js"}
    files = [path for path in STATIC_DIR.iterdir() if path.suffix in {".js", ".css", ".html"}]
    sizes = {path.name: path.stat().st_size for path in files if path.suffix != ".js" or path.name in at_start}
    later = sum(path.stat().st_size for path in files if path.suffix == ".js" and path.name not in at_start)
    assert later < ON_DEMAND_BUDGET, f"{later:,} bytes of modules loaded on demand"
    assert "app.js" in sizes and "index.html" in sizes
    total = sum(sizes.values())
    largest = sorted(sizes.items(), key=lambda item: -item[1])[:5]
    assert total < CODE_AND_STYLES_BUDGET, f"{total:,} bytes of code and styles; the largest: {largest}"


START_CATALOGS_BUDGET = 45_000
"""Bytes of one language's message catalogs loaded at start (i18n.js's ``START_NAMESPACES``), raw,
for the language that weighs most: only the chosen language's are fetched."""


def test_one_languages_start_catalogs_stay_within_their_budget() -> None:
    """The page fetches the catalogs of one language at start (page and table); each language's
    together stay within the budget, and the guided game's (learn) are not among them."""
    source = (STATIC_DIR / "i18n.js").read_text(encoding="utf-8")
    found = re.search(r"START_NAMESPACES = \[([^\]]*)\]", source)
    assert found is not None
    namespaces = re.findall(r'"(\w+)"', found.group(1))
    assert namespaces == ["page", "table", "social"]
    languages = sorted(path.name for path in (STATIC_DIR / "locales").iterdir())
    assert languages == ["de", "en", "es", "fr"]
    sizes = {
        lang: sum((STATIC_DIR / "locales" / lang / f"{name}.json").stat().st_size for name in namespaces)
        for lang in languages
    }
    assert max(sizes.values()) < START_CATALOGS_BUDGET, f"bytes of the start catalogs per language: {sizes}"


def test_catalogs_are_served_under_the_version(server: RunningServer) -> None:
    """i18n.js fetches ``locales/<lang>/<namespace>.json`` beside itself, so under the page's version:
    kept for good, compressed, JSON; the same without the version is revalidated."""
    version = served_version(server)
    raw = (STATIC_DIR / "locales" / "de" / "page.json").read_bytes()
    status, headers, body = fetch(f"{server.http}/static/{version}/locales/de/page.json", **{"Accept-Encoding": "gzip"})
    assert status == 200 and gzip.decompress(body) == raw and headers["content-type"].startswith("application/json")
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    status, headers, body = fetch(f"{server.http}/static/locales/de/page.json")
    assert status == 200 and body == raw and headers["cache-control"] == "no-cache"
    for path in (
        f"/static/{version}/locales/xx/page.json",
        "/static/locales/de/missing.json",
        "/static/locales/de/../app.js",
    ):
        assert fetch(server.http + path)[0] == 404, path


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


def served_version(server: RunningServer) -> str:
    """The version the page names its files under."""
    _, _, body = fetch(server.http + "/")
    found = re.search(rb'<script type="module" src="/static/([0-9a-f]{12})/app\.js">', body)
    assert found is not None, "the page names app.js under a version"
    return found.group(1).decode()


def test_the_page_names_every_file_under_one_version(server: RunningServer) -> None:
    """Every /static/ address of the page carries the version; nothing else of it changes."""
    version = served_version(server)
    raw = (STATIC_DIR / "index.html").read_bytes()
    joined, _ = join_stylesheets(raw, {path.name: path.read_bytes() for path in STATIC_DIR.glob("*.css")})
    _, _, body = fetch(server.http + "/")
    assert body.count(b'"/static/' + version.encode() + b"/") == joined.count(b'"/static/') > 20
    assert body.replace(b"/static/" + version.encode() + b"/", b"/static/") == joined


def test_the_styles_are_sent_as_one_file_in_the_pages_order(server: RunningServer) -> None:
    """The page links every stylesheet of static/; it is sent linking one file, where the first
    link was, that holds them all in the links' order (so the cascade is unchanged)."""
    raw = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    linked = re.findall(r'<link rel="stylesheet" href="/static/([^"]+)">', raw)
    assert sorted(linked) == sorted(path.name for path in STATIC_DIR.glob("*.css"))
    version = served_version(server)
    _, _, page = fetch(server.http + "/")
    assert re.findall(rb'<link rel="stylesheet" href="([^"]+)">', page) == [f"/static/{version}/styles.css".encode()]
    assert page.index(b"styles.css") > page.index(b"boot.js")  # still after the boot script
    status, headers, body = fetch(f"{server.http}/static/{version}/styles.css")
    assert status == 200 and headers["content-type"].startswith("text/css")
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    expected = "".join(f"/* {name} */\n" + (STATIC_DIR / name).read_text().rstrip("\n") + "\n" for name in linked)
    assert body.decode() == expected


def test_joining_refuses_a_missing_sheet_or_a_clashing_name() -> None:
    page = b'<link rel="stylesheet" href="/static/a.css">\n<link rel="stylesheet" href="/static/b.css">\n'
    with pytest.raises(ValueError, match=r"missing: b\.css"):
        join_stylesheets(page, {"a.css": b"a {}"})
    with pytest.raises(ValueError, match=r"styles\.css is the name"):
        join_stylesheets(page, {"a.css": b"", "b.css": b"", "styles.css": b""})
    assert join_stylesheets(b"<p>no styles</p>", {}) == (b"<p>no styles</p>", None)


def test_versioned_files_are_kept_for_good(server: RunningServer) -> None:
    """Under the current version a file is cached for a year and never revalidated; under an
    unknown version (a page from before a change) the current file is sent, to be revalidated."""
    version = served_version(server)
    raw = (STATIC_DIR / "table.css").read_bytes()
    status, headers, body = fetch(f"{server.http}/static/{version}/table.css", **{"Accept-Encoding": "gzip"})
    assert status == 200 and gzip.decompress(body) == raw and headers["content-type"].startswith("text/css")
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    status, headers, body = fetch(f"{server.http}/static/0123456789ab/table.css")
    assert status == 200 and body == raw and headers["cache-control"] == "no-cache"
    for path in (f"/static/{version}/missing.js", f"/static/{version}/../app.py", "/static/a/b/app.js"):
        assert fetch(server.http + path)[0] == 404, path


def test_a_changed_file_changes_the_version(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text('<script type="module" src="/static/app.js"></script>')
    (tmp_path / "app.js").write_text("export const a = 1;")
    before = ClientAssets(tmp_path)
    assert ClientAssets(tmp_path).version == before.version
    (tmp_path / "app.js").write_text("export const a = 2;")
    after = ClientAssets(tmp_path)
    assert after.version != before.version
    assert after.page is not None and after.version.encode() in after.page.body


def test_the_page_is_compressed_the_api_is_not(server: RunningServer) -> None:
    _, _, page = fetch(server.http + "/")
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
