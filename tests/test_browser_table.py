"""The table in the browser: seats round the felt, cards, motion and the event queue, the UNO race,
the turn timer, colour-blind marks, reduced motion and phone sizes (Playwright driving Chromium).

The event queue must never show a state ahead of (or behind) the update it says it shows: the
page records, each time an event is presented and each time `#table[data-version]` changes, what
the table shows (top card, every seat's card count, the actor, the hand), and the test compares
each record with the `update` of that version as the page received it.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from itertools import combinations, pairwise
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from browser_support import (  # noqa: F401  (fixtures, used by their names)
    ARTIFACTS,
    browser_fixture,
    browser_settings,
    live_server_fixture,
    open_page_fixture,
    playwright_instance_fixture,
    start_server,
    try_click,
    wait_for_my_move,
)
from unokit.engine.cards import card_name
from unokit.engine.deck import stacked_deck
from unokit.engine.rules import Rules
from unokit.web.rooms import FixedSetup, RoomSettings

if TYPE_CHECKING:
    from collections.abc import Callable

    from browser_support import LiveServer, PageWatch

    OpenPage = Callable[..., PageWatch]

DESKTOP = {"width": 1366, "height": 768}
PHONES = [{"width": 375, "height": 667}, {"width": 390, "height": 844}]

RECORDER = """
(() => {
  window.__shown = [];
  window.__received = [];
  window.__versions = [];
  window.__flights = 0;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        try {
          const message = JSON.parse(event.data);
          if (message.type === "update") {
            // the version received, and the version the table shows as it arrives
            window.__received.push([message.version, document.querySelector("#table")?.dataset.version ?? null]);
          }
        } catch (error) { /* not JSON */ }
      });
    }
  };
  const snapshot = (why) => {
    const table = document.querySelector("#table");
    if (!table || table.dataset.version === undefined) return;
    const sizes = {};
    for (const seat of document.querySelectorAll("#felt .seat")) sizes[seat.dataset.seat] = Number(seat.dataset.count);
    window.__shown.push({
      why,
      version: table.dataset.version,
      presenting: table.dataset.presenting === "1",
      top: document.querySelector("#top-card .card")?.dataset.card ?? null,
      sizes,
      actor: table.dataset.actor,
      hand: document.querySelectorAll("#hand .card").length,
    });
  };
  document.addEventListener("unokit:presented", () => snapshot("event"));
  document.addEventListener("DOMContentLoaded", () => {
    const table = document.querySelector("#table");
    new MutationObserver(() => {
      window.__versions.push([table.dataset.version, performance.now()]);
      snapshot("drawn");
    }).observe(table, { attributes: true, attributeFilter: ["data-version"] });
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) if (node.classList?.contains("flying")) window.__flights += 1;
      }
    }).observe(document.querySelector("#fx"), { childList: true });
  });
})();
"""


# ---------------------------------------------------------------- helpers


@pytest.fixture(scope="module", name="paced_server")
def paced_server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose bots take their time (0.25 s, and the pauses after long effects), so that motion plays."""
    db = tmp_path_factory.mktemp("table") / "rooms.sqlite3"
    live = start_server(str(db), browser_settings(bot_delay=0.25))
    yield live
    live.server.should_exit = True
    live.thread.join(timeout=10)


def create_and_start(
    page: Page, url: str, *, seats: int, hand_size: int = 7, target: int = 500, edition: str = "classic"
) -> str:
    page.goto(url + "/")
    page.wait_for_selector("#create-form [name=edition] option", state="attached")
    page.fill("#create-form [name=name]", "Ann")
    page.select_option("#create-form [name=edition]", edition)
    page.fill("#create-form [name=seats]", str(seats))
    page.fill("#create-form [name=target_score]", str(target))
    page.click("#more-rules summary")
    page.fill('#create-form [name="rule.hand_size"]', str(hand_size))
    page.click("#create-form button[type=submit]")
    expect(page.locator("#lobby-seats li")).to_have_count(seats)
    code = page.inner_text("#lobby-code").strip()
    page.click("#fill-bots")
    expect(page.locator('#lobby-seats li[data-kind="open"]')).to_have_count(0)
    page.click("#start-game")
    expect(page.locator("#table")).to_be_visible()
    return code


def my_move(page: Page) -> str | None:
    if page.locator("#results:not([hidden])").count():
        return "results"
    if try_click(page, "#decision:not([hidden]) #decision-options button.option:not([disabled])"):
        return "dialog"
    if page.locator("#uno-button[data-uno=arm]:not(.armed)").count():
        page.keyboard.press("u")  # calling UNO as the card goes down: press UNO, then play
    if try_click(page, "#hand button.card.playable:not([disabled])"):
        return "card"
    if try_click(page, '#actions button[data-action="draw"]:not([disabled])'):
        return "draw"
    if try_click(page, '#actions button[data-action="pass"]:not([disabled])'):
        return "pass"
    return None


def boxes(page: Page, selector: str) -> list[dict[str, float]]:
    found: list[dict[str, float]] = page.eval_on_selector_all(
        selector,
        "nodes => nodes.map(n => { const r = n.getBoundingClientRect();"
        " return {x: r.left, y: r.top, width: r.width, height: r.height}; })",
    )
    return found


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"] - 0.5
        and b["x"] < a["x"] + a["width"] - 0.5
        and a["y"] < b["y"] + b["height"] - 0.5
        and b["y"] < a["y"] + a["height"] - 0.5
    )


def check_shown_states(watch: PageWatch) -> list[dict[str, Any]]:
    """Every state the table showed matches the update of the version it showed."""
    updates = {update["version"]: update for update in watch.messages("update")}
    shown: list[dict[str, Any]] = watch.page.evaluate("window.__shown")
    checked = []
    for record in shown:
        if not record["version"]:
            continue  # the table before a deal: no update's state
        update = updates.get(int(record["version"]))
        assert update is not None, f"the table shows version {record['version']}, which never came"
        view = update["view"]
        expected = {
            "top": view["top_card"],
            "sizes": {str(seat): size for seat, size in enumerate(view["hand_sizes"])},
            "actor": str(view["actor"]),
            "hand": len(view["hand"]),
        }
        got = {key: record[key] for key in expected}
        assert got == expected, (record, expected)
        checked.append(record)
    versions = [int(record["version"]) for record in shown if record["version"]]
    assert versions == sorted(versions), "the table went back to an older update"
    return checked


# ---------------------------------------------------------------- tests


def test_a_round_on_the_table_shows_each_update_after_its_events(paced_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page(viewport=DESKTOP)
    page = watch.page
    page.add_init_script(RECORDER)
    create_and_start(page, paced_server.url, seats=4, hand_size=5, target=1)
    # the deal: cards fly from the pile to every seat before the hands are shown
    page.wait_for_function("() => window.__flights > 0", timeout=5000)
    wait_for_my_move(page)
    expect(page.locator("#felt .seat")).to_have_count(4)
    expect(page.locator("#my-seat .seat.me")).to_have_count(1)
    expect(page.locator("#arrows .arrow")).to_have_count(4)
    expect(page.locator("#ticker")).not_to_be_empty()
    watch.screenshot("table")
    screenshots = 0
    moves: list[str] = []
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if screenshots == 0 and page.locator("#table[data-presenting] #fx .flying").count():
            watch.screenshot("table-in-motion")  # a card on its way, the table still at the update before
            screenshots += 1
        try:
            wait_for_my_move(page, timeout=1.0)
        except PlaywrightError:
            continue
        done = my_move(page)
        if done == "results":
            break
        if done:
            moves.append(done)
            page.wait_for_timeout(60)
    else:
        raise AssertionError(f"the round did not end; moves {moves}")
    expect(page.locator("#results")).to_be_visible()
    assert "card" in moves, moves
    checked = check_shown_states(watch)
    assert any(record["why"] == "event" for record in checked), "events were presented while an update was shown"
    assert page.evaluate("window.__flights") > 10
    last = watch.messages("update")[-1]["version"]
    assert page.get_attribute("#table", "data-version") == str(last)
    assert not watch.real_errors(), watch.errors


def test_the_queue_holds_the_table_at_the_update_its_events_belong_to(
    paced_server: LiveServer, open_page: OpenPage
) -> None:
    # a spectator watches while the host plays: updates come while motion plays, and the table keeps its order
    host = open_page()
    code = create_and_start(host.page, paced_server.url, seats=5, hand_size=6, target=1)
    watch = open_page(viewport=PHONES[1])
    page = watch.page
    page.add_init_script(RECORDER)
    page.goto(f"{paced_server.url}/r/{code}?watch")
    expect(page.locator("#felt .seat")).to_have_count(5)
    deadline = time.monotonic() + 12
    while time.monotonic() < deadline:
        presented = page.evaluate("window.__shown.filter(s => s.why === 'event' && s.presenting).length")
        if presented >= 8:
            break
        try:
            wait_for_my_move(host.page, timeout=1.0)
        except PlaywrightError:
            continue
        if my_move(host.page) == "results":
            break
        host.page.wait_for_timeout(60)
    checked = check_shown_states(watch)
    assert sum(record["why"] == "event" and record["presenting"] for record in checked) >= 3
    assert len({record["version"] for record in checked}) >= 3
    watch.screenshot("phone-spectator")
    assert not watch.real_errors(), watch.errors


@pytest.mark.parametrize("viewport", [*PHONES, DESKTOP], ids=["375x667", "390x844", "1366x768"])
def test_ten_seats_round_the_table_without_overlap(
    live_server: LiveServer, open_page: OpenPage, viewport: dict[str, int]
) -> None:
    watch = open_page(viewport=viewport)
    page = watch.page
    create_and_start(page, live_server.url, seats=10, hand_size=7)
    wait_for_my_move(page)
    expect(page.locator("#felt .seat")).to_have_count(10)
    seats = boxes(page, "#felt .seat")
    for a, b in combinations(seats, 2):
        assert not overlap(a, b), (a, b)
    centre = boxes(page, "#centre")[0]
    for seat in seats:
        assert not overlap(seat, centre), (seat, centre)
        assert seat["x"] >= 0 and seat["x"] + seat["width"] <= viewport["width"], seat
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"the page is {width} px wide"
    # the actions never cover the hand; the last event is told beside the table
    hand = boxes(page, "#hand-area")[0]
    for action in boxes(page, "#actions button"):
        assert not overlap(action, hand), (action, hand)
    expect(page.locator("#ticker")).not_to_be_empty()
    name = "phone-table" if viewport["width"] == 375 else f"table-10-{viewport['width']}"
    watch.screenshot(name)
    assert not watch.real_errors(), watch.errors


def test_a_large_hand_overlaps_without_breaking_the_layout(live_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page(viewport=PHONES[0])
    page = watch.page
    create_and_start(page, live_server.url, seats=2, hand_size=30)
    wait_for_my_move(page)
    cards = page.locator("#hand .card")
    assert cards.count() >= 30
    hand = boxes(page, "#hand")[0]
    assert hand["x"] >= 0 and hand["x"] + hand["width"] <= 375
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # every card keeps its corner index in sight: at least 40 % of a card's width shows
    lefts = [box["x"] for box in boxes(page, "#hand .card")]
    width = boxes(page, "#hand .card")[0]["width"]
    assert min(b - a for a, b in pairwise(lefts)) >= 0.4 * width - 0.5
    watch.screenshot("phone-hand-30")
    assert not watch.real_errors(), watch.errors


CARD_GALLERY = """
async () => {
  // the page's own copy of the module (its versioned address), which has the page's card terms
  const base = document.querySelector("script[type=module]").src.replace(/app[.]js$/, "");
  const { cardNode } = await import(base + "cards.js");
  // the table's words, which the page may still be fetching when it has just been opened
  await (await import(base + "i18n.js")).loadNamespace("table");
  const names = ["R0", "Y1", "G2", "B3", "O4", "R5", "Y6", "G7", "B8", "O9", "RS", "YR", "G+2", "B$", "OS", "OR", "O+2",
                 "W", "W+4", "WJ", "W$", "WR", "WS", "WS2", "W+2", "WT2", "WX"];
  const box = document.createElement("div");
  box.id = "gallery";
  box.style.cssText = "";
  for (const name of names) box.append(cardNode(name));
  document.querySelector("main").prepend(box);
  return names.length;
}
"""

CONTRAST = """
() => {
  const rgb = (text) => text.match(/[0-9.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  return Array.from(document.querySelectorAll("#gallery .card")).map((card) => {
    const field = rgb(getComputedStyle(card).backgroundColor);
    const index = rgb(getComputedStyle(card.querySelector(".idx")).color);
    const symbol = rgb(getComputedStyle(card.querySelector(".sym")).color);
    const oval = rgb(getComputedStyle(card.querySelector(".oval")).backgroundColor);
    const wild = card.classList.contains("c-wild");
    return { card: card.dataset.card, index: ratio(field, index), symbol: wild ? 21 : ratio(oval, symbol) };
  });
}
"""


def test_card_faces_colour_blind_marks_and_contrast(live_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page(viewport=DESKTOP)
    page = watch.page
    page.goto(live_server.url + "/")
    assert page.evaluate(CARD_GALLERY) == 27
    # every kind has its own face: the symbols differ within each edition's kinds
    wilds = page.eval_on_selector_all("#gallery .card.c-wild .sym", "symbols => symbols.map(s => s.textContent)")
    assert len(wilds) == 10 and len(set(wilds)) == 10, wilds
    kinds = page.eval_on_selector_all(
        "#gallery .card:not(.c-wild)", "cards => cards.map(c => c.querySelector('.sym').textContent)"
    )
    assert len(set(kinds)) == 14, kinds  # ten numbers, Skip, Reverse, Draw Two, Jackpot
    for item in page.evaluate(CONTRAST):
        assert item["index"] >= 4.5 and item["symbol"] >= 4.5, item
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#gallery").screenshot(path=str(ARTIFACTS / "cards.png"))
    marks = (
        "Array.from(document.querySelectorAll('#gallery .card .cb')).map(m => getComputedStyle(m, '::before').content)"
    )
    assert all(mark in ("none", "") for mark in page.evaluate(marks))
    # colour-blind mode: a symbol and a pattern on every coloured card and on the colour chip
    page.evaluate("localStorage.setItem('unokit.prefs', JSON.stringify({colourBlind: true}))")
    code = create_and_start(page, live_server.url, seats=2, hand_size=7)
    assert code
    assert page.evaluate("document.documentElement.hasAttribute('data-colour-blind')")
    page.evaluate(CARD_GALLERY)
    shown = page.evaluate(
        """() => Array.from(document.querySelectorAll('#gallery .card:not(.c-wild)')).map(card => ({
            mark: getComputedStyle(card.querySelector('.cb'), '::before').content,
            pattern: getComputedStyle(card).backgroundImage}))"""
    )
    assert len(shown) == 17
    assert all(item["mark"] not in ("none", "") and item["pattern"] != "none" for item in shown), shown
    assert len({item["mark"] for item in shown}) == 5  # one symbol per colour
    chip = page.evaluate("getComputedStyle(document.querySelector('#current-colour'), '::before').content")
    colour = page.get_attribute("#current-colour", "class") or ""
    if re.search(r"c-(red|yellow|green|blue|orange)", colour):
        assert chip not in ("none", ""), chip
    page.locator("#gallery").screenshot(path=str(ARTIFACTS / "cards-colour-blind.png"))
    assert not watch.real_errors(), watch.errors


def test_reduced_motion_presents_every_update_at_once(live_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page(viewport=DESKTOP)
    page = watch.page
    page.emulate_media(reduced_motion="reduce")
    page.add_init_script(RECORDER)
    create_and_start(page, live_server.url, seats=4, hand_size=4, target=1)
    for _ in range(4):
        wait_for_my_move(page)
        if my_move(page) == "results":
            break
        page.wait_for_timeout(100)
    received = page.evaluate("window.__received")
    assert len(received) >= 4
    # each update was drawn before the next one arrived: nothing waits in the queue
    for (before, _), (_, shown) in pairwise(received):
        assert shown == str(before), f"update {before} was not drawn yet when the next one came (table at {shown})"
    page.wait_for_function("v => Number(document.querySelector('#table').dataset.version) >= v", arg=received[-1][0])
    assert page.evaluate("window.__flights") == 0
    check_shown_states(watch)
    assert not watch.real_errors(), watch.errors


UNO_RULES = {"hand_size": 2, "scoring": "single-round"}


def two_card_room(live: LiveServer, timer: int = 30) -> tuple[str, str]:
    """Ann (seat 0, first to play) holds Red 7 and Green 3 on a Red 5; the bot holds Blue 5 and Yellow 9."""
    deck = stacked_deck(
        "classic", [["R7", "G3"], ["B5", "Y9"]], "R5", ["B1", "Y2"], dealer=1, rules=Rules.from_dict(UNO_RULES)
    )
    setup = FixedSetup(2**40 + 3, tuple(card_name(card) for card in deck), dealer=1)
    settings = RoomSettings("classic", 2, dict(UNO_RULES), "heuristic", timer=timer)
    room, secret = live.call(lambda: live.hub.create(settings, "Ann", setup))
    return str(room.code), str(secret)


def take_seat(page: Page, live: LiveServer, code: str, secret: str) -> None:
    page.goto(live.url + "/")
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"unokit.seat.{code}", json.dumps({"secret": secret, "seat": 0})],
    )
    page.goto(f"{live.url}/r/{code}")
    expect(page.locator("#lobby")).to_be_visible()
    page.click("#fill-bots")
    page.click("#start-game")
    expect(page.locator("#hand .card")).to_have_count(2)


def test_uno_is_a_button_pressed_before_the_card_and_the_timer_runs_on_the_timed_seat(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    code, secret = two_card_room(live_server, timer=20)
    watch = open_page(viewport=DESKTOP)
    page = watch.page
    take_seat(page, live_server, code, secret)
    watcher = open_page(viewport=PHONES[0])
    watcher.page.goto(f"{live_server.url}/r/{code}?watch")
    # the turn timer: a ring and the seconds left on the seat whose turn it is, for everyone
    for viewer in (page, watcher.page):
        timed = viewer.locator('#felt .seat.timed[data-seat="0"] .timer-left')
        expect(timed).to_have_text(re.compile(r"^\d+s$"))
    first = int(page.inner_text('#felt .seat.timed[data-seat="0"] .timer-left').rstrip("s"))
    assert 1 <= first <= 20
    page.wait_for_function(
        "first => parseInt(document.querySelector('#felt .seat.timed .timer-left').textContent) < first",
        arg=first,
        timeout=3000,
    )
    watcher.screenshot("phone-timer")
    # the big UNO button, pressed in time, then the card: R7 goes down with the call, no dialog asked
    uno = page.locator("#uno-button")
    expect(uno).to_be_visible()
    expect(uno).to_have_attribute("data-uno", "arm")
    watch.screenshot("uno-button")
    uno.click()
    expect(uno).to_have_class(re.compile(r"\barmed\b"))
    page.click('#hand .card.playable[data-card="R7"]')
    expect(page.locator("#hand .card")).to_have_count(1)
    assert page.locator("#decision:not([hidden])").count() == 0
    expect(page.locator("#log")).to_contain_text("UNO")
    expect(page.locator("#my-seat .seat .badge.uno")).to_be_visible()
    expect(watcher.page.locator('#felt .seat[data-seat="0"] .badge.uno')).to_be_visible()
    assert not watch.real_errors() and not watcher.real_errors(), (watch.errors, watcher.errors)
