"""Fixtures of the browser tests: the real server on loopback and Debian's Chromium driven by Playwright.

The browser is ``/usr/bin/chromium`` (Debian's package) or the executable named by the
``UNOKIT_CHROMIUM`` environment variable; Playwright's own browser downloads are never used.
A missing browser fails the tests with a message saying how to install it.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import re
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, Playwright, ViewportSize, WebSocket, WebSocketRoute, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from unokit.web.hub import Hub
from unokit.web.rooms import Room, ServerSettings
from unokit.web.server import listening_socket, make_config

CHROMIUM_ENV = "UNOKIT_CHROMIUM"
DEFAULT_CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
"""Screenshots of the browser tests (git-ignored)."""

SOCKET_CUT_NOTE = re.compile(r"WebSocket connection to 'ws://127\.0\.0\.1:\d+/ws' failed")
"""What Chromium logs of a game socket cut under the page."""

BOT_DELAY = 0.02
"""Seconds the bots wait before acting: short, so that a round is played in seconds."""

ONE_ADDRESS = {
    "connections_per_address": 10_000,
    "address_creates_per_hour": 10_000,
    "address_lookups_per_minute": 10_000,
    "address_chat_per_minute": 10_000,
    "address_chat_burst": 10_000,
    "address_resync_events": 10**9,
}
"""Every page of the browser tests comes from 127.0.0.1: the limits per address are lifted (a
module's pages create, join and resume far more rooms than one household would)."""


def browser_settings(**changes: Any) -> ServerSettings:
    """The settings of a browser tests' server: quick bots, no limits per address, and ``changes``."""
    return ServerSettings(**{"bot_delay": BOT_DELAY, "away_seconds": 30.0, **ONE_ADDRESS, **changes})


def chromium_path() -> str:
    """The Chromium executable to drive; fails the test with instructions if there is none."""
    wanted = os.environ.get(CHROMIUM_ENV) or DEFAULT_CHROMIUM
    found = wanted if os.path.isfile(wanted) and os.access(wanted, os.X_OK) else shutil.which(wanted)
    if not found:
        pytest.fail(
            f"Chromium not found at {wanted!r}: the browser tests need it. Install Debian's package "
            f"(`apt-get install chromium`, or `make test` as root) or set {CHROMIUM_ENV} to a Chromium executable.",
            pytrace=False,
        )
    return found


@dataclass
class LiveServer:
    """The web app served by uvicorn on 127.0.0.1 (a free port) in a background thread."""

    url: str
    hub: Hub
    server: uvicorn.Server
    thread: threading.Thread
    loop: asyncio.AbstractEventLoop | None = None

    def room(self, code: str) -> Room:
        """A room of the server (its state is read, never changed, by the tests)."""
        return self.hub.rooms[code]

    def call(self, function: Callable[[], Any]) -> Any:
        """Run ``function`` on the server's event loop (where the rooms live) and return its result."""
        assert self.loop is not None

        async def run() -> Any:
            result = function()
            return await result if inspect.isawaitable(result) else result

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout=10)


def start_server(db_path: str, settings: ServerSettings) -> LiveServer:
    sock = listening_socket("127.0.0.1", 0)  # as `unokit serve` listens
    port = sock.getsockname()[1]
    config = make_config("127.0.0.1", port, db_path, settings, log_level="warning")  # as `unokit serve` runs it
    server = uvicorn.Server(config)
    live = LiveServer(f"http://127.0.0.1:{port}", config.app.state.hub, server, threading.Thread())

    def run() -> None:
        with asyncio.Runner() as runner:  # on leaving, the tasks still pending are cancelled and awaited
            live.loop = runner.get_loop()
            runner.run(server.serve(sockets=[sock]))

    live.thread = threading.Thread(target=run, name="unokit-web-test-server", daemon=True)
    live.thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not live.thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    return live


@pytest.fixture(scope="module", name="live_server")
def live_server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The real server with a fresh SQLite file and quick bots."""
    yield from module_server(tmp_path_factory)


def module_server(tmp_path_factory: pytest.TempPathFactory, **changes: Any) -> Iterator[LiveServer]:
    """The body of a module's ``live_server`` fixture: a real server on a fresh SQLite file with
    :func:`browser_settings` (and ``changes``), stopped at the module's end."""
    db = tmp_path_factory.mktemp("web") / "rooms.sqlite3"
    live = start_server(str(db), browser_settings(**changes))
    yield live
    live.server.should_exit = True
    live.thread.join(timeout=10)


@pytest.fixture(scope="module", name="playwright_instance")
def playwright_instance_fixture() -> Iterator[Playwright]:
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="module", name="browser")
def browser_fixture(playwright_instance: Playwright) -> Iterator[Browser]:
    """Headless Debian Chromium (never a downloaded browser)."""
    executable = chromium_path()
    browser = playwright_instance.chromium.launch(
        executable_path=executable, headless=True, args=["--no-sandbox", "--disable-gpu"]
    )
    yield browser
    browser.close()


@dataclass
class PageWatch:
    """A page, with every WebSocket frame it received and every script error it raised."""

    page: Page
    frames: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    sockets: list[WebSocketRoute] = field(default_factory=list)
    """The page's WebSockets, routed through Playwright (so that a test can cut them), newest last."""
    cuts: int = 0
    """Sockets the test itself cut or reloaded away: each may leave one browser note of a failed socket."""

    def drop_socket(self) -> None:
        """Cut the page's current WebSocket as a network failure would."""
        self.cuts += 1
        self.sockets[-1].close(code=1001, reason="dropped by the test")

    def reload(self) -> None:
        """Reload the page (its socket is closed on the way)."""
        self.cuts += 1
        self.page.reload()

    def real_errors(self) -> list[str]:
        """Script errors, but for one note of a failed game socket per socket the test cut."""
        errors, allowed = [], self.cuts
        for error in self.errors:
            if allowed and SOCKET_CUT_NOTE.match(error):
                allowed -= 1
            else:
                errors.append(error)
        return errors

    def messages(self, kind: str) -> list[dict[str, Any]]:
        return [frame for frame in self.frames if frame.get("type") == kind]

    def screenshot(self, name: str) -> Path:
        """Save a screenshot of the whole page in the test artefacts."""
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


@pytest.fixture(name="open_page")
def open_page_fixture(browser: Browser) -> Iterator[Callable[..., PageWatch]]:
    """Opens pages in fresh browser contexts (own localStorage), watched for frames and errors."""
    contexts = []

    def open_(viewport: ViewportSize | None = None) -> PageWatch:
        context = browser.new_context(viewport=viewport or {"width": 1280, "height": 860})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        watch = PageWatch(page)
        page.on("pageerror", lambda error: watch.errors.append(str(error)))
        page.on(
            "console",
            lambda message: watch.errors.append(message.text) if message.type == "error" else None,
        )

        def on_socket(socket: WebSocket) -> None:
            def received(payload: str | bytes) -> None:
                if isinstance(payload, str):
                    watch.frames.append(json.loads(payload))

            socket.on("framereceived", received)

        page.on("websocket", on_socket)

        def route(socket: WebSocketRoute) -> None:
            socket.connect_to_server()  # frames pass through unchanged
            watch.sockets.append(socket)

        page.route_web_socket(re.compile(r"/ws$"), route)
        return watch

    yield open_
    for context in contexts:
        context.close()


# ---------------------------------------------------------------- playing through the page


DESKTOP: ViewportSize = {"width": 1366, "height": 768}
"""The desktop the tests judge the page at (the smallest common laptop screen)."""
PHONE: ViewportSize = {"width": 375, "height": 667}
"""The phone the tests judge the page at."""


def boxes_overlap(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    """Whether two boxes (bounding boxes in the same coordinates) overlap; touching is not overlapping."""
    assert a is not None and b is not None
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def try_click(page: Page, selector: str) -> bool:
    """Click the first element matching ``selector`` if there is one (the table re-renders as play goes on)."""
    locator = page.locator(selector)
    if not locator.count():
        return False
    try:
        locator.first.click(timeout=1500)
    except PlaywrightError:
        return False
    return True


def wait_for_my_move(page: Page, timeout: float = 15.0) -> None:
    """Wait until the page asks this player for a move (or shows results)."""
    page.wait_for_function(
        """() => !document.querySelector('#results').hidden
            || document.querySelector('#decision:not([hidden]) button.option:not([disabled])')
            || document.querySelector('#hand button.card.playable:not([disabled])')
            || document.querySelector('#actions button[data-action="draw"]:not([disabled])')""",
        timeout=timeout * 1000,
    )
