"""Regression tests of bugs found in play, through the page: Playwright driving Debian's Chromium
against the real server (screenshots in ``test-artifacts/``)."""

from __future__ import annotations

import concurrent.futures
import json
import random
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser_support import (  # noqa: F401  (fixtures, used by their names)
    DESKTOP,
    PHONE,
    LiveServer,
    PageWatch,
    boxes_overlap,
    browser_fixture,
    browser_settings,
    module_server,
    open_page_fixture,
    playwright_instance_fixture,
    start_server,
    wait_for_my_move,
)
from test_browser import fill_with_bots_and_start, my_move
from test_web_fixes import round_ended
from unokit.engine.cards import card_name
from unokit.engine.deck import stacked_deck
from unokit.engine.rules import Rules
from unokit.web.rooms import FixedSetup, RoomSettings
from web_support import Client, play_to_end

OpenPage = Callable[..., PageWatch]


@pytest.fixture(scope="module", name="live_server")
def live_server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The real server with quick bots; the results of a round hold the table up to a minute."""
    yield from module_server(tmp_path_factory, results_seconds=60.0, min_timer=1)


def create_room(
    page: Page,
    url: str,
    *,
    seats: int = 2,
    edition: str = "classic",
    form: dict[str, str] | None = None,
    rules: dict[str, str] | None = None,
) -> str:
    """Create Ann's room through the start page (``form``: fields of the form by name, ``rules``:
    the more rules' fields); returns its code once the lobby shows."""
    page.goto(url + "/")
    page.wait_for_selector("#create-form [name=edition] option", state="attached")
    page.fill("#create-form [name=name]", "Ann")
    page.select_option("#create-form [name=edition]", edition)
    page.fill("#create-form [name=seats]", str(seats))
    for name, value in (form or {}).items():
        field = page.locator(f"#create-form [name={name}]")
        if field.evaluate("f => f.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    if rules:
        page.click("#more-rules summary")
        for option, value in rules.items():
            page.fill(f'#create-form [name="rule.{option}"]', value)
    page.click("#create-form button[type=submit]")
    expect(page.locator("#lobby")).to_be_visible()
    return page.inner_text("#lobby-code").strip()


def play_until_results(page: Page, timeout: float = 180.0) -> None:
    """Make this page's moves until a result shows."""
    deadline = time.monotonic() + timeout
    done: list[str | None] = []
    while time.monotonic() < deadline:
        wait_for_my_move(page)
        done.append(my_move(page))
        if done[-1] == "results":
            return
        page.wait_for_timeout(30)
    status = page.locator("#status").text_content()
    raise AssertionError(f"no result within {timeout:.0f} s; the last moves {done[-12:]}, the status {status!r}")


def room_state(live: LiveServer, code: str) -> dict[str, Any]:
    def read() -> dict[str, Any]:
        room = live.room(code)
        return {"reading": sorted(room.reading), "auto": room.seats[0].auto, "version": room.version}

    result: dict[str, Any] = live.call(read)
    return result


# ---------------------------------------------------------------- the results cost no turn


def test_reading_the_results_does_not_cost_the_player_their_turn(live_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page(viewport=DESKTOP)
    page = watch.page
    code = create_room(page, live_server.url, form={"timer": "10", "target_score": "500"}, rules={"hand_size": "3"})
    fill_with_bots_and_start(page)
    play_until_results(page)
    expect(page.locator("#results-close")).to_have_text("Continue")
    before = room_state(live_server, code)
    assert before["reading"] == [0]
    page.wait_for_timeout(11_500)  # longer than the 10 s turn timer
    after = room_state(live_server, code)
    assert not after["auto"], "the bot took the seat while its player read the results"
    assert after["version"] == before["version"], "the next round went on while the results were read"
    watch.screenshot("fixes-results-held-desktop")
    page.click("#results-close")
    expect(page.locator('[data-role="auto"]')).to_have_count(0)
    deadline = time.monotonic() + 5
    while room_state(live_server, code)["reading"]:
        assert time.monotonic() < deadline, "the page did not say the results were read"
        time.sleep(0.05)
    wait_for_my_move(page)
    expect(page.locator('[data-role="auto"]')).to_have_count(0)
    assert not watch.real_errors(), watch.errors


# ---------------------------------------------------------------- presets change only what they name


def test_a_preset_changes_only_what_it_names_and_shows_what_changed(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    watch = open_page(viewport=DESKTOP)
    page = watch.page
    page.goto(live_server.url + "/")
    page.wait_for_selector("#create-form [name=edition] option", state="attached")
    page.select_option("#create-form [name=scoring]", "single-round")
    page.fill("#create-form [name=seats]", "3")
    page.click("#house-rules summary")
    summary = page.locator("#preset-summary")
    for preset in ("house", "official", "party", "house"):
        page.select_option("#preset", preset)
        assert page.input_value("#create-form [name=scoring]") == "single-round", f"{preset} reset the scoring"
        assert page.input_value("#create-form [name=seats]") == "3"
        expect(summary).to_contain_text(re.compile(r"Changed: .+\.|Nothing changed\."))
    page.select_option("#preset", "official")
    expect(summary).to_contain_text("Changed: ")
    assert page.locator('#house-fields [data-changed="true"]').count() >= 4
    page.select_option("#preset", "official")
    expect(summary).to_contain_text("Nothing changed.")
    page.select_option("#preset", "no-mercy")  # it names the scoring: that one it sets
    assert page.input_value("#create-form [name=scoring]") == "single-round"
    page.select_option("#create-form [name=scoring]", "winner-collects")
    page.select_option("#preset", "official")
    page.select_option("#preset", "no-mercy")
    assert page.input_value("#create-form [name=scoring]") == "single-round"
    expect(summary).to_contain_text("Scoring")
    assert page.locator('#create-form label[data-changed="true"]:has([name=scoring])').count() == 1
    page.locator("#house-rules").scroll_into_view_if_needed()
    watch.screenshot("fixes-preset-desktop")
    assert not watch.real_errors(), watch.errors


# ---------------------------------------------------------------- a dialog closes when its decision is gone

WATCH_FRAMES = """
(() => {
  const Socket = window.WebSocket;
  window.__frames = [];
  window.__dialog = [];
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        try { window.__frames.push({ t: performance.now(), m: JSON.parse(event.data) }); } catch {}
      });
    }
  };
  document.addEventListener("DOMContentLoaded", () => {
    const box = document.querySelector("#decision");
    new MutationObserver(() => window.__dialog.push({ t: performance.now(), open: !box.hidden }))
      .observe(box, { attributes: true, attributeFilter: ["hidden"] });
  });
})();
"""
"""Records in the page when each frame arrives and when the decision dialog opens and closes."""

RULES_3 = {"hand_size": 3, "scoring": "single-round"}


def fixed_room(
    live: LiveServer, hands: list[list[str]], start: str, timer: int = 0, seats: int = 2, edition: str = "classic"
) -> tuple[str, str]:
    """A room created in code whose deal is fixed (Ann in seat 0 plays first); its code and Ann's secret."""
    rules = Rules.from_dict(RULES_3)
    deck = stacked_deck(edition, hands, start, dealer=seats - 1, rules=rules)
    setup = FixedSetup(2**41 + 7, tuple(card_name(card) for card in deck), dealer=seats - 1)
    settings = RoomSettings(edition, seats, dict(RULES_3), "heuristic", timer)
    room, secret = live.call(lambda: live.hub.create(settings, "Ann", setup))
    return str(room.code), str(secret)


def open_as_ann(watch: PageWatch, live: LiveServer, code: str, secret: str) -> None:
    """Ann's page takes her seat, fills the others with bots and starts."""
    page = watch.page
    page.goto(live.url + "/")
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"unokit.seat.{code}", json.dumps({"secret": secret, "seat": 0})],
    )
    page.goto(f"{live.url}/r/{code}")
    expect(page.locator("#lobby")).to_be_visible()
    fill_with_bots_and_start(page)


def test_a_dialog_closes_the_moment_its_decision_is_no_longer_the_players(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    watch = open_page(viewport=PHONE)
    page = watch.page
    page.add_init_script(WATCH_FRAMES)
    code, secret = fixed_room(live_server, [["W", "G3", "R1"], ["B5", "Y9", "B2"]], "R5", timer=3)
    open_as_ann(watch, live_server, code, secret)
    page.click('#hand .card.playable[data-card="W"]')
    expect(page.locator("#decision")).to_be_visible()
    expect(page.locator("#decision-title")).to_have_text("Choose a colour")
    watch.screenshot("fixes-dialog-open-phone")
    expect(page.locator("#decision")).to_be_hidden(timeout=8000)  # the turn timer ran out: the bot chose
    timing: dict[str, Any] = page.evaluate(
        """() => {
          const updates = window.__frames.filter((f) => f.m.type === "update");
          const asked = updates.findIndex((f) => f.m.legal.some((e) => e.type === "colour"));
          const gone = updates.slice(asked).find((f) => !f.m.legal.some((e) => e.type === "colour"));
          const before = window.__dialog.filter((d) => d.t <= gone.t);
          return { gone: gone.t, openThen: before.length > 0 && before[before.length - 1].open,
                   after: window.__dialog.filter((d) => d.t > gone.t) };
        }"""
    )
    after = timing["after"]
    assert not any(change["open"] for change in after), f"a dialog opened for a decision already gone: {timing}"
    if timing["openThen"]:
        assert after and after[0]["t"] - timing["gone"] < 150, f"the dialog stayed open: {timing}"
    status = page.inner_text("#status")
    assert "colour" not in status and not status.startswith("Your move"), status
    watch.screenshot("fixes-dialog-closed-phone")
    assert not watch.real_errors(), watch.errors


# ---------------------------------------------------------------- the chat on a phone


def page_box(page: Page, selector: str) -> dict[str, float]:
    """The box of the first element matching ``selector`` in page coordinates (scrolling aside)."""
    box: dict[str, float] = page.eval_on_selector(
        selector,
        "e => { const r = e.getBoundingClientRect(); const fixed = getComputedStyle(e).position === 'fixed';"
        " return {x: r.x, y: r.y + (fixed ? 0 : 0), width: r.width, height: r.height}; }",
    )
    return box


@pytest.mark.parametrize("size", [PHONE, {"width": 390, "height": 844}], ids=["375x667", "390x844"])
def test_on_a_phone_the_chat_never_covers_the_hand_or_the_scores(
    live_server: LiveServer, open_page: OpenPage, size: dict[str, int]
) -> None:
    watch = open_page(viewport=size)
    page = watch.page
    create_room(page, live_server.url, seats=4, edition="wild-jackpot")
    page.click("#chat .chat-toggle")
    expect(page.locator("#chat .chat-panel")).to_be_visible()
    submit = page.get_by_role("button", name="Submit rule cards")
    submit.scroll_into_view_if_needed()
    assert not boxes_overlap(submit.bounding_box(), page.locator("#chat .chat-panel").bounding_box()), (
        "the sheet covers Submit"
    )
    watch.screenshot(f"fixes-chat-lobby-{size['width']}")
    page.click("#chat .chat-close")
    page.click("#fill-bots")
    expect(page.locator('#lobby-seats li[data-kind="open"]')).to_have_count(0)
    page.click("#chat .chat-toggle")
    expect(page.locator("#chat .chat-panel")).to_be_visible()
    page.click("#start-game")
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#chat .chat-panel")).to_be_hidden()  # the sheet opened in the lobby closed
    wait_for_my_move(page)
    watch.screenshot(f"fixes-chat-table-{size['width']}")
    cards = page.locator("#hand .card")
    toggle = page.locator("#chat .chat-toggle")
    expect(toggle).to_be_visible()
    for scroll in (0, 10_000):  # at the top of the page and scrolled to its end
        page.evaluate(f"window.scrollTo(0, {scroll})")
        page.wait_for_timeout(100)
        button = toggle.bounding_box()
        for index in range(cards.count()):
            assert not boxes_overlap(button, cards.nth(index).bounding_box()), f"the chat button covers card {index}"
        rows = page.locator("#scoreboard tr")
        for index in range(rows.count()):
            assert not boxes_overlap(button, rows.nth(index).bounding_box()), "the chat button covers the scores"
    page.evaluate("window.scrollTo(0, 0)")
    last = cards.nth(cards.count() - 1).bounding_box()
    assert last is not None and last["y"] + last["height"] <= size["height"], "the hand is not in sight"
    assert not watch.real_errors(), watch.errors


# ---------------------------------------------------------------- the table fits a laptop's window

WATCH_SCROLL = """
window.__maxScroll = 0;
window.__maxHeight = 0;
addEventListener("scroll", () => { window.__maxScroll = Math.max(window.__maxScroll, scrollY); }, true);
setInterval(() => {
  if (document.body?.classList.contains("at-table")) {
    const h = document.documentElement.scrollHeight;
    if (h > window.__maxHeight && h > innerHeight) {
      const parts = document.querySelectorAll("main > *, #table > *, .board > *, .side > *, body > *");
      window.__why = [...parts].map((e) => [e.tagName + "#" + e.id, e.getBoundingClientRect().height])
        .filter(([, height]) => height > 0);
    }
    window.__maxHeight = Math.max(window.__maxHeight, h);
  }
}, 50);
"""
"""Records the furthest the page scrolled and its greatest height at the table."""


@pytest.mark.parametrize("size", [DESKTOP, {"width": 1920, "height": 1080}], ids=["1366x768", "1920x1080"])
def test_the_table_fits_the_window_and_never_scrolls_itself(
    live_server: LiveServer, open_page: OpenPage, size: dict[str, int]
) -> None:
    watch = open_page(viewport=size)
    page = watch.page
    page.add_init_script(WATCH_SCROLL)
    code, secret = fixed_room(
        live_server, [["W", "G3", "R1"], ["B5", "Y9", "B2"], ["R2", "R3", "G4"], ["Y5", "G8", "B1"]], "R5", seats=4
    )
    open_as_ann(watch, live_server, code, secret)
    wait_for_my_move(page)
    page.click('#hand .card.playable[data-card="W"]')
    expect(page.locator("#decision-title")).to_have_text("Choose a colour")
    page.wait_for_timeout(300)
    dialog = page.locator("#decision .decision-box").bounding_box()
    for index in range(page.locator("#hand .card").count()):
        assert not boxes_overlap(dialog, page.locator("#hand .card").nth(index).bounding_box()), (
            "the dialog covers the hand"
        )
    watch.screenshot(f"fixes-fit-dialog-{size['width']}")
    page.click("#decision-options button.option")
    play_until_results(page)
    watch.screenshot(f"fixes-fit-results-{size['width']}")
    scrolled = page.evaluate("[window.__maxScroll, window.__maxHeight, scrollY, window.__why]")
    assert scrolled[0] == 0 and scrolled[2] == 0, f"the page scrolled itself by {scrolled[0]} px"
    assert scrolled[1] <= size["height"], f"the table is {scrolled[1]} px high: {scrolled[3]}"
    assert not watch.real_errors(), watch.errors


# ---------------------------------------------------------------- the arrows agree with the direction

ARROWS_WAY = """() => {
  const angle = (transform) => {
    if (!transform || transform === "none") return 0;
    const [a, b] = transform.slice(transform.indexOf("(") + 1, -1).split(",").map(Number);
    return Math.atan2(b, a);
  };
  return [...document.querySelectorAll("#arrows .arrow")].map((arrow) => {
    const style = getComputedStyle(arrow);
    const turn = angle(style.transform) + angle(getComputedStyle(arrow, "::before").transform);
    const x = Number(style.getPropertyValue("--ax"));
    const y = Number(style.getPropertyValue("--ay"));
    // the arrow's way round the ring: clockwise on the screen (y down) when its turn is positive
    const way = x * Math.sin(turn) - y * Math.cos(turn) > 0 ? "clockwise" : "counter-clockwise";
    return { hot: arrow.classList.contains("hot"), way };
  });
}"""
"""Each arrow's way round the felt, from its computed rotation (its own and its triangle's)."""


def test_the_arrows_point_the_way_the_label_says_after_every_reverse(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    watch = open_page(viewport=DESKTOP)
    page = watch.page
    hands = [["RR", "RR", "R1"], ["R2", "R3", "R4"], ["R6", "R7", "R8"]]
    code, secret = fixed_room(live_server, hands, "R5", seats=3)
    open_as_ann(watch, live_server, code, secret)
    for reverses in (1, 2):
        wait_for_my_move(page)
        page.click('#hand .card.playable[data-card="RR"]')
        expect(page.locator("#log li.log-reverse")).to_have_count(reverses, timeout=5000)
        page.wait_for_function("() => !document.querySelector('#table').dataset.presenting")
        page.wait_for_timeout(700)  # past the turn of the arrows
        label = "counter-clockwise" if reverses % 2 else "clockwise"
        expect(page.locator("#direction")).to_have_text(re.compile(rf"\b{label}$"))
        arrows = page.evaluate(ARROWS_WAY)
        assert arrows and all(arrow["way"] == label for arrow in arrows), (reverses, label, arrows)
        assert any(arrow["hot"] for arrow in arrows) or page.locator("#results:not([hidden])").count()
        watch.screenshot(f"fixes-arrows-{reverses}")
    assert not watch.real_errors(), watch.errors


# ---------------------------------------------------------------- smaller things


def test_words_and_toasts_read_as_sentences(live_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page(viewport=DESKTOP)
    page = watch.page
    page.goto(live_server.url + "/")
    page.wait_for_selector("#create-form [name=edition] option", state="attached")
    page.fill("#join-code-form [name=code]", "ABCDEFGH")
    page.fill("#join-code-form [name=name]", "Ann")
    page.click("#join-code-form button[type=submit]")
    expect(page.locator("#toast")).to_have_text("No room has that code.")
    lists = page.evaluate(
        """async () => {
          // the page's own copy of the module (its versioned address), which speaks the page's language
          const base = document.querySelector("script[type=module]").src.replace(/app[.]js$/, "");
          const { seatList } = await import(base + "labels.js");
          const name = (s) => ["Ann", "Bob", "Cy"][s];
          return [seatList([0, 2], 2, name), seatList([0, 1, 2], 1, name), seatList([1], 0, name)];
        }"""
    )
    assert lists == ["Ann and you", "Ann, Cy, and you", "Bob"]  # the language's own list (Intl.ListFormat)
    watch.screenshot("fixes-toast-desktop")
    assert not watch.real_errors(), watch.errors


def test_the_replay_of_a_match_in_play_shows_no_controls(live_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page(viewport=PHONE)
    code, secret = fixed_room(live_server, [["R1", "G3", "R2"], ["B5", "Y9", "B2"]], "R5")
    open_as_ann(watch, live_server, code, secret)
    other = open_page(viewport=PHONE)
    other.page.goto(f"{live_server.url}/r/{code}?replay")
    error = other.page.locator("#replay-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("once the match is over.")
    for control in ("#replay-next", "#replay-prev", "#replay-slider", "#replay-first"):
        expect(other.page.locator(control)).to_be_hidden()
    expect(error.get_by_role("link", name="Watch the match")).to_have_attribute("href", f"/r/{code}?watch")
    other.screenshot("fixes-replay-in-play-phone")
    refused = [e for e in other.real_errors() if "status of 403" not in e]  # the replay's answer, said on the page
    assert not refused, other.errors


def test_the_table_reads_well_to_a_screen_reader_and_a_keyboard(live_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page(viewport=DESKTOP)
    page = watch.page
    code = create_room(page, live_server.url, seats=2)
    assert page.locator("#lobby h1").count() == 1, "the lobby has its h1"
    page.click("#fill-bots")
    expect(page.locator('#lobby-seats li[data-kind="open"]')).to_have_count(0)
    page.click("#start-game")
    wait_for_my_move(page)
    while page.locator("#decision:not([hidden])").count():  # (a wild start card: its colour asked first)
        page.locator("#decision button.option:not([disabled])").first.click()
        wait_for_my_move(page)
    headings = page.locator("#table h1")
    expect(headings).to_have_count(1)
    expect(headings).to_have_text(re.compile(rf"table, room {code}$"))
    label = page.locator("#draw-pile").get_attribute("aria-label") or ""
    assert re.fullmatch(r"Draw pile, \d+ to draw", label), label
    assert "UNO" not in page.evaluate("document.querySelector('#draw-pile').ariaLabel")
    # a card's name holds what its face shows
    names = page.eval_on_selector_all(
        "#hand .card", "cards => cards.map((c) => [c.getAttribute('aria-label'), c.querySelector('.sym').textContent])"
    )
    for name, shown in names:
        assert shown.lower() in name.lower(), (name, shown)
    # the log is reached by the keyboard and named
    log = page.locator("#log")
    assert log.get_attribute("tabindex") == "0"
    expect(log).to_have_accessible_name("What happened")
    log.focus()
    expect(log).to_be_focused()
    # the focus ring on a card, moved there by the keyboard, stands out from the felt
    page.locator("#status").click()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.matches('#hand .card:focus-visible')")
    ring = page.evaluate(
        """() => {
          const rgb = (text) => text.match(/[0-9.]+/g).slice(0, 3).map(Number);
          const linear = (v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
          const lum = (colour) => rgb(colour).reduce((sum, v, i) => sum + linear(v) * [0.2126, 0.7152, 0.0722][i], 0);
          const style = getComputedStyle(document.activeElement);
          const [a, b] = [lum(style.outlineColor), lum(getComputedStyle(document.body).backgroundColor)];
          return { width: parseFloat(style.outlineWidth), contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
        }"""
    )
    assert ring["width"] >= 3 and ring["contrast"] >= 7, ring
    watch.screenshot("fixes-focus-ring-desktop")
    assert not watch.real_errors(), watch.errors


def test_space_jams_wild_shows_orange_not_green(live_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page(viewport=DESKTOP)
    page = watch.page
    code, secret = fixed_room(live_server, [["W", "O3", "R1"], ["B5", "Y9", "B2"]], "R5", edition="space-jam")
    open_as_ann(watch, live_server, code, secret)
    oval = page.locator('#hand .card[data-card="W"] .oval')
    expect(oval).to_be_visible()
    background = oval.evaluate("o => getComputedStyle(o).backgroundImage")
    assert "rgb(240, 125, 24)" in background and "rgb(21, 128, 61)" not in background, background
    watch.screenshot("fixes-space-jam-wild")
    page.goto(live_server.url + "/")  # the start page's tiles: Classic keeps green
    page.wait_for_selector("#editions .edition .card")
    classic = page.evaluate(
        """() => { const o = document.createElement("div"); o.className = "card c-wild";
          const oval = document.createElement("span"); oval.className = "oval"; o.append(oval);
          document.querySelector('#editions .edition[data-edition="classic"]').append(o);
          return getComputedStyle(oval).backgroundImage; }"""
    )
    assert "rgb(21, 128, 61)" in classic, classic
    assert not watch.real_errors(), watch.errors


def test_the_table_says_who_is_still_reading_the_results(live_server: LiveServer, open_page: OpenPage) -> None:
    """Ann closes the results; Bob (a scripted player) reads on: Ann's table waits for him, and says so."""
    rules = {"hand_size": 3, "scoring": "winner-collects", "target_score": 500}
    settings = RoomSettings("classic", 2, rules, "heuristic", 0)
    room, secret = live_server.call(lambda: live_server.hub.create(settings, "Ann", None))
    code = str(room.code)
    bob = Client(live_server.url.replace("http", "ws") + "/ws")
    bob.send(type="join", code=code, name="Bob")
    bob.expect("welcome")
    watch = open_page(viewport=PHONE)
    page = watch.page
    page.goto(live_server.url + "/")
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"unokit.seat.{code}", json.dumps({"secret": secret, "seat": 0})],
    )
    page.goto(f"{live_server.url}/r/{code}")
    expect(page.locator('#lobby-seats li[data-kind="open"]')).to_have_count(0)
    page.click("#start-game")
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        bobs = pool.submit(play_to_end, bob, random.Random(3), 180.0, round_ended)
        play_until_results(page, timeout=180)
        bobs.result(timeout=180)
    page.click("#results-close")
    expect(page.locator("#status")).to_have_text("Waiting for Bob to read the results: the next round begins then.")
    watch.screenshot("fixes-waiting-for-bob-phone")
    bob.send(type="continue")
    expect(page.locator("#status")).not_to_contain_text("Waiting for Bob")
    bob.close()
    assert not watch.real_errors(), watch.errors
