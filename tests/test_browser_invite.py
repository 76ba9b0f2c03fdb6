"""Inviting friends in the browser: the lobby's invite link on the address they reach (this machine's
network address for a host at 127.0.0.1, the public URL behind a proxy), copied and shared as shown,
its QR code as the page draws it, a friend opening the link, and the web app manifest Chromium reads.

Playwright drives Debian's Chromium against the real server (see ``browser_support``); screenshots of
the lobby at 1366×768 and 375×667 go to ``test-artifacts/``.
"""

from __future__ import annotations

import asyncio
import io
import json
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
import segno
import uvicorn
from PIL import Image
from playwright.sync_api import Page, expect

from browser_support import (  # noqa: F401  (fixtures, used by their names)
    ARTIFACTS,
    DESKTOP,
    PHONE,
    LiveServer,
    browser_fixture,
    browser_settings,
    open_page_fixture,
    playwright_instance_fixture,
)
from unokit.web.links import machine_addresses
from unokit.web.server import listening_socket, make_config

if TYPE_CHECKING:
    from collections.abc import Callable

    from browser_support import PageWatch

    OpenPage = Callable[..., PageWatch]


def serve(host: str, **settings: object) -> LiveServer:
    """The real server as ``unokit serve`` runs it, listening on ``host`` (a free port), in a thread."""
    sock = listening_socket(host, 0)
    port = sock.getsockname()[1]
    config = make_config(host, port, ":memory:", browser_settings(**settings), log_level="warning")
    server = uvicorn.Server(config)
    live = LiveServer(f"http://127.0.0.1:{port}", config.app.state.hub, server, threading.Thread())
    live.thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    live.thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert live.thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    return live


def stop(live: LiveServer) -> None:
    live.server.should_exit = True
    live.thread.join(10)


@pytest.fixture(scope="module")
def everywhere() -> Iterator[LiveServer]:
    """Listening on every address (``unokit serve --host 0.0.0.0``)."""
    live = serve("0.0.0.0")
    yield live
    stop(live)


@pytest.fixture(scope="module")
def proxied() -> Iterator[LiveServer]:
    """Behind a reverse proxy reached at ``https://uno.example``."""
    live = serve("127.0.0.1", public_url="https://uno.example")
    yield live
    stop(live)


@pytest.fixture(scope="module")
def loopback() -> Iterator[LiveServer]:
    """The default: this machine only."""
    live = serve("127.0.0.1")
    yield live
    stop(live)


def create_room(page: Page, url: str) -> str:
    page.goto(url + "/")
    page.wait_for_selector("#create-form [name=edition] option", state="attached")
    page.fill("#create-form [name=name]", "Ann")
    page.fill("#create-form [name=seats]", "3")
    page.click("#create-form button[type=submit]")
    expect(page.locator("#lobby-seats li")).to_have_count(3)
    return page.inner_text("#lobby-code").strip()


def port_of(live: LiveServer) -> int:
    return int(live.url.rsplit(":", 1)[1])


def qr_on_screen(page: Page, text: str) -> None:
    """The QR code as the page shows it (a screenshot of the image) is, module for module, the code of
    ``text``: dark where segno's matrix is dark, light elsewhere, with its quiet zone."""
    qr = page.locator("#invite-qr")
    expect(qr).to_be_visible()
    page.wait_for_function("() => document.querySelector('#invite-qr').complete")
    box = qr.bounding_box()
    assert box is not None and box["width"] >= 140, "large enough for a phone to read"
    shot = Image.open(io.BytesIO(qr.screenshot())).convert("L")
    matrix = [list(row) for row in segno.make(text, error="m", micro=False).matrix]
    border = 4
    size = len(matrix) + 2 * border
    inset = (shot.width - shot.width * (box["width"] - 2) / box["width"]) / 2  # the image's 1 px border
    module = (shot.width - 2 * inset) / size
    assert module >= 3, f"{module:.1f} pixels a module"
    wrong = []
    for row in range(size):
        for column in range(size):
            inside = border <= row < size - border and border <= column < size - border
            dark = bool(matrix[row - border][column - border]) if inside else False
            x, y = inset + (column + 0.5) * module, inset + (row + 0.5) * module
            value = shot.getpixel((int(x), int(y)))
            assert isinstance(value, int)
            if (value < 100) != dark or 100 <= value <= 160:
                wrong.append((row, column, value))
    assert not wrong, f"{len(wrong)} modules read wrong, e.g. {wrong[:5]}"


def test_the_host_at_127_invites_with_the_network_address_and_a_friend_joins(
    everywhere: LiveServer, open_page: OpenPage
) -> None:
    addresses = machine_addresses()
    if not addresses:
        pytest.skip("this machine has no network address other machines could open")
    port = port_of(everywhere)
    ann = open_page(DESKTOP)
    ann.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    code = create_room(ann.page, everywhere.url)
    invite = f"http://{addresses[0]}:{port}/r/{code}"
    expect(ann.page.locator("#invite-link")).to_have_value(invite)
    expect(ann.page.locator("#invite-note")).to_have_text(
        "Friends on the same network (Wi-Fi) open it, or scan the code."
    )
    qr_on_screen(ann.page, invite)
    ann.page.click("#copy-invite")
    expect(ann.page.locator("#toast")).to_have_text("Invite link copied.")
    assert ann.page.evaluate("navigator.clipboard.readText()") == invite
    ARTIFACTS.mkdir(exist_ok=True)
    ann.page.screenshot(path=str(ARTIFACTS / "invite-lobby.png"))
    # a friend's browser opens the link as shown: the page, the join and the lobby at that address
    bob = open_page(PHONE)
    bob.page.goto(invite)
    bob.page.fill("#join-form [name=name]", "Bob")
    bob.page.click("#join-form button[type=submit]")
    expect(bob.page.locator("#lobby")).to_be_visible()
    expect(ann.page.locator("#lobby-seats li[data-kind=human]")).to_have_count(2)
    expect(bob.page.locator("#invite-link")).to_have_value(invite)  # the friend passes the same link on
    expect(bob.page.locator("#invite-note")).to_be_hidden()
    qr_on_screen(bob.page, invite)
    bob.page.screenshot(path=str(ARTIFACTS / "invite-lobby-phone.png"), full_page=True)
    assert not ann.real_errors() and not bob.real_errors()


def test_behind_a_proxy_every_link_is_on_the_public_address(proxied: LiveServer, open_page: OpenPage) -> None:
    """The invite link, its copy, its share and its QR code use the public URL; so does the replay
    link of the results (the page's links, whatever address it was opened by)."""
    ann = open_page(PHONE)
    shared: list[str] = []
    ann.page.expose_function("recordShare", lambda url: shared.append(url))
    # the system's share sheet, which Chromium on Linux lacks: what the page hands it is recorded
    ann.page.add_init_script("navigator.share = (data) => window.recordShare(data.url)")
    code = create_room(ann.page, proxied.url)
    invite = f"https://uno.example/r/{code}"
    expect(ann.page.locator("#invite-link")).to_have_value(invite)
    qr_on_screen(ann.page, invite)
    ARTIFACTS.mkdir(exist_ok=True)
    ann.page.screenshot(path=str(ARTIFACTS / "invite-lobby-public-phone.png"))
    ann.page.click("#share-invite")
    deadline = time.monotonic() + 5
    while not shared and time.monotonic() < deadline:
        ann.page.wait_for_timeout(50)
    assert shared == [invite]
    # every link made for others (the results' replay link too) comes from the page's one maker of links
    replay = ann.page.evaluate(
        """async (code) => {
            const { shareLink } = await import(document.querySelector('link[href$="/links.js"]').href);
            return shareLink(`/r/${code}?replay`);
        }""",
        code,
    )
    assert replay == f"https://uno.example/r/{code}?replay"
    assert not ann.real_errors()


def test_a_server_on_loopback_says_only_this_computer_opens_the_link(loopback: LiveServer, open_page: OpenPage) -> None:
    ann = open_page(DESKTOP)
    code = create_room(ann.page, loopback.url)
    expect(ann.page.locator("#invite-link")).to_have_value(f"{loopback.url}/r/{code}")
    expect(ann.page.locator("#invite-note")).to_contain_text("Only this computer can open this link")
    expect(ann.page.locator("#invite-note")).to_contain_text("--host 0.0.0.0")
    expect(ann.page.locator("#invite-qr-box")).to_be_hidden()
    ARTIFACTS.mkdir(exist_ok=True)
    ann.page.screenshot(path=str(ARTIFACTS / "invite-lobby-loopback.png"))
    ann.page.set_viewport_size(PHONE)
    ann.page.screenshot(path=str(ARTIFACTS / "invite-lobby-loopback-phone.png"))
    assert not ann.real_errors()


def test_chromium_reads_the_manifest_without_errors(everywhere: LiveServer, open_page: OpenPage) -> None:
    page = open_page(PHONE).page
    page.goto(everywhere.url + "/")
    page.wait_for_selector("#create-form [name=edition] option", state="attached")
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest")
    assert manifest["errors"] == [], manifest["errors"]
    assert json.loads(manifest["data"])["display"] == "standalone"
    assert manifest.get("parsed", {}).get("scope", everywhere.url + "/") == everywhere.url + "/"
    installability = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # a Playwright context is off the record, which alone keeps Chromium from offering to install
    assert [error for error in installability if error["errorId"] != "in-incognito"] == [], installability
