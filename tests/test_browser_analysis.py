"""The replay page's analysis board in Chromium: choose a seat, the win-chance graph draws with its
mistakes marked there and in the list of moves, a moment's moves are rated in a table, and the
position of the step is copied (by the Clipboard API, or from a selected field where there is none);
at a desktop's size and a phone's, with screenshots under test-artifacts/."""

from __future__ import annotations

import json
import random
import re
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser_support import (  # noqa: F401  (fixtures, used by their names)
    DESKTOP,
    PHONE,
    LiveServer,
    PageWatch,
    browser_fixture,
    live_server_fixture,
    open_page_fixture,
    playwright_instance_fixture,
)
from test_web_analysis import analyses_allowed, play_carelessly
from unokit.web.rooms import FixedSetup, RoomSettings
from web_support import Client

OpenPage = Callable[..., PageWatch]


def api(live: LiveServer, path: str) -> Any:
    with urllib.request.urlopen(f"{live.url}{path}", timeout=120) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def finished(live_server: LiveServer) -> str:
    """A finished match of Ann (scripted, careless) against two bots: its code."""
    settings = RoomSettings("classic", 3, {"target_score": 200}, "heuristic")
    room, secret = live_server.call(lambda: live_server.hub.create(settings, "Ann", FixedSetup(2**52 + 11)))
    code = str(room.code)
    host = Client(live_server.url.replace("http://", "ws://") + "/ws")
    host.send(type="resume", code=code, secret=secret)
    host.expect("lobby")
    for seat in (1, 2):
        host.send(type="seat", seat=seat, bot=True)
        host.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
    host.send(type="start")
    host.expect("update")
    assert play_carelessly(host, random.Random(3))["finished"]
    host.close()
    return code


def open_board(page: Page, live: LiveServer, code: str) -> None:
    """The replay of ``code``, its board opened and Ann's moves rated."""
    page.goto(f"{live.url}/replay/{code}")
    expect(page.locator("#replay-pos")).to_have_text(re.compile(r"^step 0 of \d+$"))
    page.click("#replay-analyse")
    expect(page.locator("#analysis")).to_be_visible()
    expect(page.locator("#replay-analyse")).to_be_hidden()
    page.select_option("#analysis-seat", "0")
    # every text the status line shows, kept (the analysis may come back before a look at it)
    page.evaluate(
        """() => {
          const status = document.querySelector("#analysis-status");
          window.statusTexts = [];
          new MutationObserver(() => window.statusTexts.push(status.textContent)).observe(status, { childList: true });
        }"""
    )
    page.click("#analysis-start")
    expect(page.locator("#analysis-graph svg")).to_be_visible(timeout=120_000)
    shown = page.evaluate("window.statusTexts")
    assert shown[0] == "Rating every move of Ann… this takes a few seconds.", shown


def test_the_board_draws_the_graph_marks_the_mistakes_rates_a_moment_and_copies_the_position(
    live_server: LiveServer, open_page: OpenPage, finished: str
) -> None:
    watch = open_page(viewport=DESKTOP)
    page = watch.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    open_board(page, live_server, finished)
    rated = api(live_server, f"/api/rooms/{finished}/analysis/0")
    decisions, mistakes = rated["decisions"], [entry for entry in rated["decisions"] if entry["mistake"]]
    assert mistakes, "a careless player makes mistakes"
    # one point per decision, the mistakes larger and red; one line per round
    expect(page.locator("#analysis-graph circle")).to_have_count(len(decisions))
    expect(page.locator("#analysis-graph circle.mistake")).to_have_count(len(mistakes))
    rounds = len({entry["round"] for entry in decisions})
    expect(page.locator("#analysis-graph polyline")).to_have_count(rounds)
    status = page.locator("#analysis-status")
    expect(status).to_have_text(re.compile(rf"^{len(decisions)} decisions of Ann rated: {len(mistakes)} mistakes?, "))
    # the list of moves: one per decision, each mistake marked with the better move
    expect(page.locator("#analysis-moves li")).to_have_count(len(decisions))
    marks = page.locator("#analysis-moves li.mistake .analysis-mark")
    expect(marks).to_have_count(len(mistakes))
    first = mistakes[0]
    expect(marks.first).to_have_text(re.compile(rf"^\?\? lost \d+% — better: {re.escape(first['best']['label'])}$"))
    # a mistake's line leads to its step, marked in the list and on the graph
    page.locator("#analysis-moves li.mistake button").first.click()
    expect(page.locator("#replay-pos")).to_have_text(f"step {first['step']} of {rated['steps']}")
    expect(page.locator("#analysis-moves li.current")).to_have_attribute("data-step", str(first["step"]))
    # analyse this moment: Ann's moves there, the best first and marked, the move she played marked
    page.click("#analysis-moment")
    table = page.locator("#analysis-table table")
    expect(table).to_be_visible(timeout=60_000)
    expect(table.locator("tr.best")).to_have_count(1)
    expect(table.locator("tbody tr").first).to_have_class("best")
    expect(table.locator("tbody tr", has_text="played")).to_have_count(1)
    assert table.locator("tbody tr").count() == first["moves"]
    watch.screenshot("analysis-board-desktop")
    # copy the position there, as Ann knew it
    page.click("#analysis-copy")
    expect(page.locator("#analysis-copied")).to_have_text("Position copied.")
    copied = page.evaluate("navigator.clipboard.readText()")
    position = api(live_server, f"/api/rooms/{finished}/position/{first['step']}?seat=0")["position"]
    assert copied == position
    # the keyboard: the replay's arrows step on, and the board follows
    page.locator("#analysis-moves li.current button").focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-pos")).to_have_text(f"step {first['step'] + 1} of {rated['steps']}")
    expect(page.locator("#analysis-table")).to_be_empty()
    # the move just told is the mistake: marked beside it, above the table
    expect(page.locator("#replay-action .analysis-mark")).to_have_text(marks.first.inner_text())
    watch.screenshot("analysis-board-mistake-told-desktop")
    # a click on the graph goes to the decision nearest to it
    page.locator("#analysis-graph svg").click(position={"x": 5, "y": 40})
    expect(page.locator("#replay-pos")).to_have_text(f"step {decisions[0]['step']} of {rated['steps']}")
    assert not watch.real_errors(), watch.errors


def test_the_board_at_a_phones_width_without_a_clipboard_and_when_refused(
    live_server: LiveServer, open_page: OpenPage, finished: str
) -> None:
    """On a page served over plain HTTP to another machine there is no Clipboard API: the position is
    shown selected in a field to copy by hand.  An address past its analyses is told so in words."""
    watch = open_page(viewport=PHONE)
    page = watch.page
    page.add_init_script("delete Navigator.prototype.clipboard")
    open_board(page, live_server, finished)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"], "nothing wider than the phone"
    graph = page.locator("#analysis-graph svg").bounding_box()
    assert graph is not None and graph["width"] > 300
    page.locator("#analysis-moves li.mistake button").first.click()
    page.click("#analysis-copy")
    field = page.locator("#analysis-position")
    expect(field).to_be_visible()
    expect(field).to_be_focused()
    expect(page.locator("#analysis-copied")).to_have_text("Copy the selected line (Ctrl+C).")
    step = int(page.locator("#analysis-moves li.current").get_attribute("data-step") or "-1")
    assert field.input_value() == api(live_server, f"/api/rooms/{finished}/position/{step}?seat=0")["position"]
    assert page.evaluate("document.activeElement.selectionEnd - document.activeElement.selectionStart") == len(
        field.input_value()
    )
    page.click("#analysis-moment")
    expect(page.locator("#analysis-table tr.best")).to_have_count(1, timeout=60_000)
    table = page.locator("#analysis-table table").bounding_box()
    assert table is not None and table["x"] + table["width"] <= PHONE["width"], "the table fits the phone"
    watch.screenshot("analysis-board-phone")
    # past the address's allowance, the board says so
    with analyses_allowed(live_server.server.config.app, 0):
        page.select_option("#analysis-seat", "2")
        page.click("#analysis-start")
        expect(page.locator("#analysis-status")).to_have_text(
            "Not now: at most 12 analyses in 60 seconds: wait a little"
        )
        expect(page.locator("#analysis-status")).to_have_class(re.compile(r"\berror\b"))
        expect(page.locator("#analysis-table")).to_be_empty()  # the other seat's moment is not left beside it
        watch.screenshot("analysis-board-refused-phone")
    assert not [error for error in watch.real_errors() if "status of 429" not in error], watch.errors
