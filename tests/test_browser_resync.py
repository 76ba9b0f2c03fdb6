"""The browser client catching up by full resyncs: every event from the start, of which it keeps
those after its version (Playwright driving Debian's Chromium, against the real server)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from browser_support import (  # noqa: F401  (fixtures, used by their names)
    browser_fixture,
    browser_settings,
    module_server,
    open_page_fixture,
    playwright_instance_fixture,
    start_server,
    wait_for_my_move,
)
from test_browser import create_room, fill_with_bots_and_start, hand_cards, log_lines, my_move, real_hands

if TYPE_CHECKING:
    from browser_support import LiveServer, PageWatch

    OpenPage = Callable[..., PageWatch]


@pytest.fixture(scope="module", name="live_server")
def resyncing_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose every catch-up is a full resync (every update, every reconnection)."""
    yield from module_server(tmp_path_factory, resync_events=0, resync_seconds=0.0)


def told_to_seat(live: LiveServer, code: str, seat: int) -> list[str]:
    """What the server tells ``seat`` of every event so far, the lines a page's log shows."""
    events = json.loads(live.call(lambda: live.room(code).narrated_events(seat, "en")))
    return [event["text"] for event in events if event["text"]]


def test_full_resyncs_tell_the_page_each_event_once(live_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page()
    page = watch.page
    code = create_room(page, live_server.url, name="Ann", seats=3, target=1, rules={"hand_size": "10"})
    fill_with_bots_and_start(page)
    moves = 0
    dropped = False
    deadline = time.monotonic() + 90
    while moves < 6 and time.monotonic() < deadline:
        wait_for_my_move(page)
        done = my_move(page)
        if done == "results":
            break
        if done is None:
            continue
        moves += 1
        if moves == 3:  # the bots play on while the page is cut off: it comes back several events behind
            told = log_lines(page)
            watch.drop_socket()
            expect(page.locator("#conn")).to_have_attribute("data-status", "connected")
            wait_for_my_move(page)
            assert log_lines(page)[: len(told)] == told
            dropped = True
        page.wait_for_timeout(30)
    wait_for_my_move(page)
    version = live_server.call(lambda: live_server.room(code).version)  # the game waits for Ann
    expect(page.locator("#table")).to_have_attribute("data-version", str(version))
    updates = [frame for frame in watch.frames if frame["type"] == "update"]
    resent = [u for u in updates[1:] if u["events"] and u["version"] - len(u["events"]) == 0]
    assert len(resent) >= 10, "the updates came as full resyncs"
    assert log_lines(page) == told_to_seat(live_server, code, 0), "every event told once, in order"
    assert sorted(hand_cards(page)) == real_hands(live_server, code)[0]
    watch.screenshot("resync-table")
    assert dropped and not watch.real_errors()
