"""Links friends can open: the server's addresses on the network, ``--public-url``, the reachable base
of the page's links (``/api/site``), the invite's QR code, the web app manifest and icons, ``/healthz``."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import re
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import segno
import uvicorn
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from unokit.cli import main
from unokit.web.app import STATIC_DIR
from unokit.web.links import Site, machine_addresses, parse_public_url, url_of
from unokit.web.server import listening_socket, make_config
from unokit.web.settings import ServerSettings
from unokit.web.storage import SqliteStorage
from web_support import Client, RunningServer, fast_settings

SERVE = [sys.executable, "-c", "import sys; from unokit.cli import main; sys.exit(main())", "serve"]
NETWORK_ADDRESS = (machine_addresses() or ["192.0.2.44"])[0]
"""This machine's address on its network (a documentation address where it has none): what friends open."""


def fetch(url: str, host: str | None = None, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and body of a GET, with ``Host`` set to ``host`` if given."""
    if host is not None:
        headers["Host"] = host
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


class Served:
    """The server as ``unokit serve`` runs it (its listening socket, its configuration), listening on
    ``host`` on a free port, in a thread."""

    def __init__(self, host: str, settings: ServerSettings, db_path: str = ":memory:") -> None:
        sock = listening_socket(host, 0)
        self.port = port = sock.getsockname()[1]
        config = make_config(host, port, db_path, settings, log_level="warning")
        self.app = config.app
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve(sockets=[sock])), daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)
        self.http = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}/ws"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def everywhere() -> Iterator[Served]:
    """Served on every address (``--host 0.0.0.0``), as ``make play`` serves."""
    served = Served("0.0.0.0", fast_settings())
    yield served
    served.stop()


@pytest.fixture(scope="module")
def public() -> Iterator[Served]:
    """Served behind a reverse proxy reached at ``https://uno.example``."""
    served = Served("127.0.0.1", fast_settings(public_url="https://uno.example"))
    yield served
    served.stop()


def new_room(url: str, **headers: str) -> str:
    client = Client(url, headers=headers or None)
    client.send(type="create", name="Ann", edition="classic", seats=3)
    code = str(client.expect("welcome")["code"])
    client.close()
    return code


def svg_matrix(svg: str) -> list[list[int]]:
    """The module matrix drawn by a segno SVG, checked to have its quiet zone of four modules: its
    ``viewBox`` gives the size, its path draws each dark run as ``h`` lines through a row of modules."""
    box = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    assert box is not None and box.group(1) == box.group(2), "a square viewBox"
    size = int(box.group(1))
    paths = re.findall(r'<path[^>]* d="([^"]+)"', svg)
    dark = [d for d in paths if "h" in d and not d.endswith("z")]
    assert len(dark) == 1, paths
    grid = [[0] * size for _ in range(size)]
    x = y = 0.0
    for command, text in re.findall(r"([MmHhVv])\s*([-0-9. ]+)", dark[0]):
        numbers = [float(n) for n in text.split()]
        if command == "M":
            x, y = numbers
        elif command == "m":
            x, y = x + numbers[0], y + numbers[1]
        elif command in "hH":
            end = x + numbers[0] if command == "h" else numbers[0]
            for column in range(int(min(x, end)), int(max(x, end))):
                grid[int(y)][column] = 1
            x = end
        else:
            raise AssertionError(f"unexpected path command {command}")
    light = grid[:4] + grid[-4:] + [row[:4] + row[-4:] for row in grid]
    assert not any(any(row) for row in light), "a quiet zone of four light modules"
    return [row[4:-4] for row in grid[4:-4]]


def qr_payload_matches(svg: str, text: str) -> bool:
    """Whether ``svg`` draws the QR code of ``text`` (segno's encoding, error correction M): module
    for module what a reader decodes as ``text``."""
    drawn = svg_matrix(svg)
    expected = [list(row) for row in segno.make(text, error="m", micro=False).matrix]
    return drawn == expected


# ---------------------------------------------------------------- addresses


@pytest.mark.parametrize(
    ("given", "parsed"),
    [
        ("https://uno.example", "https://uno.example"),
        ("HTTPS://Uno.Example/", "https://uno.example"),
        ("http://uno.example:8080", "http://uno.example:8080"),
        ("https://uno.example:443/", "https://uno.example"),
        ("http://192.168.1.20:8000", "http://192.168.1.20:8000"),
        ("https://[2001:db8::5]:8443", "https://[2001:db8::5]:8443"),
    ],
)
def test_a_public_url_is_read_as_scheme_host_and_port(given: str, parsed: str) -> None:
    assert parse_public_url(given) == parsed


@pytest.mark.parametrize(
    "given",
    [
        "uno.example",
        "ftp://uno.example",
        "https://uno.example/play",
        "https://uno.example/?room=1",
        "https://uno.example#top",
        "https://ann@uno.example",
        "https://uno.example:0",
        "https://uno.example:70000",
        "https://",
        "https://uno example",
        "javascript:alert(1)",
    ],
)
def test_serve_refuses_a_bad_public_url_with_one_line(given: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "0", "--db", ":memory:", "--public-url", given]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("unokit: error: --public-url takes an http or https address"), err


def test_the_machines_addresses_are_read_without_a_packet_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    """The addresses come from the system's interfaces: no socket connects or sends, no name is looked
    up while the interfaces answer; none is loopback or link-local; IPv4 first."""
    found = machine_addresses(ipv6=True)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a socket was connected or written to")

    for name in ("connect", "connect_ex", "send", "sendto", "sendall", "sendmsg", "bind"):
        monkeypatch.setattr(socket.socket, name, refuse)
    if found:  # the interfaces answered: no look-up of the host name either
        monkeypatch.setattr(socket, "getaddrinfo", refuse)
    assert machine_addresses(ipv6=True) == found
    versions = [ipaddress.ip_address(address).version for address in found]
    assert versions == sorted(versions)
    for address in map(ipaddress.ip_address, found):
        assert not (address.is_loopback or address.is_link_local or address.is_unspecified)


def test_the_banner_says_how_others_get_in() -> None:
    local = Site("127.0.0.1", 8000).banner()
    assert local[0] == "open http://127.0.0.1:8000/ in a browser (Ctrl-C stops the server)"
    assert local[1].startswith("only this machine can open it") and "--host 0.0.0.0" in local[1]
    assert "--public-url" in local[1]
    lan = Site("0.0.0.0", 8000).banner()
    assert lan[0].startswith("open http://127.0.0.1:8000/ ")
    if machine_addresses():
        assert lan[1].startswith(f"friends on the same network open {url_of('http', machine_addresses()[0], 8000)}/")
    proxied = Site("0.0.0.0", 8000, "https://uno.example").banner()
    assert proxied[1].startswith("everyone else opens https://uno.example/ ")


def read_banner(*arguments: str) -> tuple[list[str], subprocess.Popen[str]]:
    process = subprocess.Popen(
        [*SERVE, "--port", "0", "--db", ":memory:", *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    return [process.stdout.readline().strip(), process.stdout.readline().strip()], process


def test_serve_prints_where_to_open_here_and_where_friends_open() -> None:
    lines, process = read_banner("--host", "0.0.0.0")
    try:
        found = re.fullmatch(
            r"unokit: open http://127\.0\.0\.1:(\d+)/ in a browser \(Ctrl-C stops the server\)", lines[0]
        )
        assert found, lines
        port = int(found.group(1))
        addresses = machine_addresses()
        if addresses:
            assert lines[1].startswith(f"unokit: friends on the same network open http://{addresses[0]}:{port}/"), lines
        else:
            assert lines[1].startswith("unokit: no network address of this machine was found"), lines
        # a friend's browser on the network is answered at that address (its Host names it)
        status, _, body = fetch(f"http://127.0.0.1:{port}/", host=f"{NETWORK_ADDRESS}:{port}")
        assert status == 200 and b"<!doctype html>" in body
    finally:
        process.terminate()
        process.wait(10)


def test_serve_with_a_public_url_prints_it_and_links_to_it() -> None:
    lines, process = read_banner("--host", "127.0.0.1", "--public-url", "https://Uno.Example/")
    try:
        port = int(re.findall(r"127\.0\.0\.1:(\d+)/", lines[0])[0])
        assert lines[1].startswith("unokit: everyone else opens https://uno.example/ "), lines
        status, _, body = fetch(f"http://127.0.0.1:{port}/api/site")
        assert status == 200 and json.loads(body)["base"] == "https://uno.example"
    finally:
        process.terminate()
        process.wait(10)


# ---------------------------------------------------------------- the host guard and the reachable base


def test_friends_on_the_network_are_answered_page_and_game_socket(everywhere: Served) -> None:
    """Listening on every address, a page asked for by this machine's network address is served and
    its game socket (Origin that address) accepted; another port or a name is still refused."""
    friend = f"{NETWORK_ADDRESS}:{everywhere.port}"
    status, _, _ = fetch(f"{everywhere.http}/r/ABCDEFGH", host=friend)
    assert status == 200
    sock = socket.create_connection(("127.0.0.1", everywhere.port), timeout=10)
    with connect(f"ws://{friend}/ws", sock=sock, origin=f"http://{friend}", open_timeout=10) as ws:  # type: ignore[arg-type]
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(5)) == {"type": "pong"}
    assert fetch(f"{everywhere.http}/", host=f"{NETWORK_ADDRESS}:{everywhere.port + 1}")[0] == 421
    assert fetch(f"{everywhere.http}/", host=f"rebind.example:{everywhere.port}")[0] == 421


def test_the_host_on_loopback_gets_the_network_address_as_the_base(everywhere: Served) -> None:
    status, headers, body = fetch(f"{everywhere.http}/api/site")
    assert status == 200 and headers["cache-control"] == "no-store"
    site = json.loads(body)
    addresses = machine_addresses()
    if addresses:
        assert site == {"base": f"http://{addresses[0]}:{everywhere.port}", "network": True, "local_only": False}
    else:
        assert site == {"base": None, "network": False, "local_only": False}
    for host in (f"localhost:{everywhere.port}", f"[::1]:{everywhere.port}"):
        assert json.loads(fetch(f"{everywhere.http}/api/site", host=host)[2]) == site
    # a friend who opened the network address: the page's own origin is the base
    friend = json.loads(fetch(f"{everywhere.http}/api/site", host=f"{NETWORK_ADDRESS}:{everywhere.port}")[2])
    assert friend == {"base": None, "network": False, "local_only": False}


def test_a_server_on_loopback_says_its_links_open_only_here() -> None:
    with RunningServer(":memory:", fast_settings()) as server:
        site = json.loads(fetch(f"{server.http}/api/site")[2])
    assert site == {"base": None, "network": False, "local_only": True}
    served = Served("127.0.0.1", fast_settings(allowed_hosts=("uno.example",)))
    try:  # a deployment under a name: not said
        assert json.loads(fetch(f"{served.http}/api/site")[2])["local_only"] is False
    finally:
        served.stop()


def test_the_public_url_is_the_base_and_its_host_is_answered(public: Served) -> None:
    for host in (f"127.0.0.1:{public.port}", "uno.example", "uno.example:8443"):
        status, _, body = fetch(f"{public.http}/api/site", host=host)
        assert status == 200, host
        assert json.loads(body) == {"base": "https://uno.example", "network": False, "local_only": False}
    assert fetch(f"{public.http}/", host="evil.example")[0] == 421


def socket_as(served: Served, host: str, origin: str) -> None:
    """Open a game socket naming ``host``, from a page of ``origin``, and ping; raises
    :class:`InvalidStatus` when the server refuses it."""
    sock = socket.create_connection(("127.0.0.1", served.port), timeout=10)
    try:
        with connect(f"ws://{host}/ws", sock=sock, origin=origin, open_timeout=10) as ws:  # type: ignore[arg-type]
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(5)) == {"type": "pong"}
    finally:
        sock.close()


def test_behind_a_proxy_that_ends_tls_the_public_pages_open_the_game_socket(public: Served) -> None:
    """The page is ``https://uno.example``, its socket reaches the server in plain through the proxy:
    the public URL's origin is let in for its host; other origins and hosts are still refused."""
    socket_as(public, "uno.example", "https://uno.example")
    socket_as(public, f"127.0.0.1:{public.port}", f"http://127.0.0.1:{public.port}")
    for host, origin in [
        ("uno.example", "https://evil.example"),
        ("uno.example", "https://uno.example:8443"),
        (f"127.0.0.1:{public.port}", "https://uno.example"),
        ("evil.example", "https://uno.example"),
    ]:
        with pytest.raises(InvalidStatus) as refused:
            socket_as(public, host, origin)
        assert refused.value.response.status_code == 403, (host, origin)


# ---------------------------------------------------------------- the QR code


def test_the_qr_code_is_the_invite_link_on_the_reachable_base(everywhere: Served, public: Served) -> None:
    code = new_room(everywhere.ws)
    status, headers, body = fetch(f"{everywhere.http}/api/rooms/{code}/qr.svg")
    assert status == 200 and headers["content-type"].startswith("image/svg+xml")
    assert headers["cache-control"] == "no-store"
    svg = body.decode()
    assert svg.startswith("<svg") and "<script" not in svg
    base = json.loads(fetch(f"{everywhere.http}/api/site")[2])["base"] or everywhere.http
    assert qr_payload_matches(svg, f"{base}/r/{code}")
    assert not qr_payload_matches(svg, f"{everywhere.http}/r/{code}x")
    # a friend's page at the network address: that origin
    friend = f"{NETWORK_ADDRESS}:{everywhere.port}"
    svg = fetch(f"{everywhere.http}/api/rooms/{code.lower()}/qr.svg", host=friend)[2].decode()
    assert qr_payload_matches(svg, f"http://{friend}/r/{code}")
    # behind the proxy: the public address
    code = new_room(public.ws)
    svg = fetch(f"{public.http}/api/rooms/{code}/qr.svg")[2].decode()
    assert qr_payload_matches(svg, f"https://uno.example/r/{code}")


def test_the_qr_code_of_an_unknown_room_is_404(everywhere: Served) -> None:
    for code in ("ABCDEFGH", "SHORT", "A" * 40):
        status, _, body = fetch(f"{everywhere.http}/api/rooms/{code}/qr.svg")
        assert status == 404 and json.loads(body) == {"error": "no room has that code"}


def test_the_qr_code_is_rate_limited_like_the_other_room_routes() -> None:
    with RunningServer(":memory:", fast_settings(rate=0.001, burst=3)) as server:
        code = new_room(server.url)
        statuses = [fetch(f"{server.http}/api/rooms/{code}/qr.svg")[0] for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]


# ---------------------------------------------------------------- installable, and health


def png_size(path: Path) -> tuple[int, int, int]:
    """Width, height and colour type of a PNG (from its header chunk)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", f"{path.name} is no PNG"
    width, height, _, colour = struct.unpack(">IIBB", data[16:26])
    return width, height, colour


def test_the_manifest_is_served_and_every_icon_it_names_has_its_size(everywhere: Served) -> None:
    page = (STATIC_DIR / "index.html").read_text(encoding="utf-8").split("</head>", 1)[0]
    link = re.search(r'<link rel="manifest" href="/static/([^"]+)">', page)
    assert link is not None
    assert re.search(r'<meta name="theme-color" content="#[0-9a-f]{6}">', page)
    status, headers, body = fetch(f"{everywhere.http}/static/{link.group(1)}")
    assert status == 200 and headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(body)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["name"] and manifest["short_name"] and len(manifest["short_name"]) <= 12
    assert manifest["background_color"] == "#14352a", "the table's felt (base.css --bg)"
    assert f'content="{manifest["theme_color"]}"' in page
    purposes = set()
    for icon in manifest["icons"]:
        name = icon["src"].removeprefix("/static/")
        width, height = map(int, icon["sizes"].split("x"))
        assert icon["type"] == "image/png"
        assert png_size(STATIC_DIR / name)[:2] == (width, height), name
        status, headers, _ = fetch(f"{everywhere.http}{icon['src']}")
        assert status == 200 and headers["content-type"] == "image/png"
        purposes.add((icon.get("purpose", "any"), width))
    assert {("any", 192), ("any", 512), ("maskable", 512)} <= purposes
    touch = re.search(r'<link rel="apple-touch-icon" href="/static/([^"]+)">', page)
    assert touch is not None
    width, height, colour = png_size(STATIC_DIR / touch.group(1))
    assert (width, height) == (180, 180) and colour == 2, "opaque RGB: iOS would fill transparency with black"


class CountingStorage(SqliteStorage):
    """The store, counting every call of its methods."""

    def __init__(self, path: str) -> None:
        self.calls: list[str] = []
        super().__init__(path)

    def __getattribute__(self, name: str) -> Any:
        value = super().__getattribute__(name)
        if callable(value) and not name.startswith("_") and name != "calls":
            super().__getattribute__("calls").append(name)
        return value


def test_healthz_answers_without_touching_the_store(tmp_path: Path) -> None:
    from unokit.web.app import create_app

    storage = CountingStorage(str(tmp_path / "rooms.sqlite3"))
    app = create_app(storage=storage, settings=fast_settings(), listen=("127.0.0.1", 0))
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
    with RunningServer(config=config) as server:
        before = list(storage.calls)
        assert before, "the store's calls are counted (those of the start)"
        answers = [fetch(f"{server.http}/healthz") for _ in range(20)]
        assert storage.calls == before
    assert all(status == 200 and body == b"ok\n" for status, _, body in answers)
    assert answers[0][1]["content-type"].startswith("text/plain")
