"""The room around the table in the browser: the start page, Play now, public rooms, the lobby's
host and kick, chat, rematch, late arrivals and the turn timer's auto seats.

Playwright drives Debian's Chromium against the real server on loopback (see ``browser_support``);
screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from browser_support import (  # noqa: F401  (fixtures, used by their names)
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
PHONE = {"width": 375, "height": 667}
TALL_PHONE = {"width": 390, "height": 844}

RAW_ID = re.compile(r"\b[a-z]+(?:[-_][a-z]+)+\b")
"""An id as the protocol spells it (``winner-collects``, ``wild-jackpot``, ``hand_size``): never shown."""
HOSTILE = "<img src=x onerror=alert(1)>"
TIMER_BOT_DELAY = 0.25
"""Seconds the bots of the timer tests' server wait (the others' 0.02 s would end a match of auto seats
before the page has shown a round)."""


@pytest.fixture(scope="module", name="timer_server")
def timer_server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose rooms may set a turn timer of 1 second (the tests' lower minimum), with bots slow
    enough that a seat played for its player leaves the page time to show it."""
    db = tmp_path_factory.mktemp("web-timer") / "rooms.sqlite3"
    live = start_server(str(db), browser_settings(bot_delay=TIMER_BOT_DELAY, min_timer=1))
    yield live
    live.server.should_exit = True
    live.thread.join(timeout=10)


# ---------------------------------------------------------------- helpers


def visible_text(page: Page) -> str:
    """What a player can read: the rendered text and every choice of the selects."""
    return str(
        page.evaluate(
            """() => document.body.innerText + '\\n' +
                [...document.querySelectorAll('select option')].map(o => o.textContent).join('\\n')"""
        )
    )


def create_room(
    page: Page, url: str, *, name: str = "Ann", seats: int = 3, public: bool = False, target: int | None = None
) -> str:
    """Create a room through the start page's form; returns its code once the lobby shows."""
    page.goto(url + "/")
    page.wait_for_selector("#create-form [name=edition] option", state="attached")
    page.fill("#create-form [name=name]", name)
    page.fill("#create-form [name=seats]", str(seats))
    if target is not None:
        page.fill("#create-form [name=target_score]", str(target))
    if public:
        page.check("#create-form [name=public]")
    page.click("#create-form button[type=submit]")
    expect(page.locator("#lobby-seats li")).to_have_count(seats)
    return page.inner_text("#lobby-code").strip()


def join_by_link(page: Page, url: str, code: str, name: str) -> None:
    page.goto(f"{url}/r/{code}")
    page.fill("#join-form [name=name]", name)
    page.click("#join-form button[type=submit]")
    expect(page.locator("#lobby")).to_be_visible()


def room_in_code(live: LiveServer, settings: RoomSettings, setup: FixedSetup | None = None) -> tuple[str, str]:
    """A room made on the server (as the tests may, to set what no form offers); Ann's code and secret."""
    room, secret = live.call(lambda: live.hub.create(settings, "Ann", setup))
    return str(room.code), str(secret)


def take_seat(page: Page, url: str, code: str, secret: str, seat: int = 0) -> None:
    """Open the room with a seat's secret stored in this browser, as after a welcome."""
    page.goto(url + "/")
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"unokit.seat.{code}", json.dumps({"secret": secret, "seat": seat})],
    )
    page.goto(f"{url}/r/{code}")


def send_chat(page: Page, text: str) -> None:
    page.fill("#chat .chat-input", text)
    page.press("#chat .chat-input", "Enter")


def no_errors(*watches: PageWatch) -> None:
    for watch in watches:
        assert not watch.real_errors(), watch.errors


# ---------------------------------------------------------------- the start page


@pytest.mark.parametrize(
    ("viewport", "shot"), [(DESKTOP, "room-start"), (PHONE, "room-start-phone"), (TALL_PHONE, "room-start-phone-390")]
)
def test_start_page_explains_every_edition_and_shows_no_raw_ids(
    live_server: LiveServer, open_page: OpenPage, viewport: dict[str, int], shot: str
) -> None:
    watch = open_page(viewport)
    page = watch.page
    page.goto(live_server.url + "/")
    tiles = page.locator("#editions .edition")
    expect(tiles).to_have_count(4)
    titles = [tiles.nth(index).locator(".edition-title").inner_text() for index in range(4)]
    assert titles == ["Classic UNO", "UNO Wild Jackpot", "UNO Space Jam", "UNO All Wild"]
    for index in range(4):
        expect(tiles.nth(index).locator(".card")).to_have_count(3)
        assert len(tiles.nth(index).locator(".edition-text").inner_text()) > 60
    expect(page.locator("#play-now")).to_be_visible()
    expect(page.locator("#public-empty")).to_be_visible()  # no public room waits: the list says so
    # every option has a label and a line of help; the rules of each edition are offered in words
    for edition in ["classic", "wild-jackpot", "space-jam", "all-wild"]:
        page.click(f'#editions .edition[data-edition="{edition}"]')
        expect(page.locator(f'#editions .edition[data-edition="{edition}"]')).to_have_attribute("aria-pressed", "true")
        page.locator("#more-rules").evaluate("details => { details.open = true; }")
        page.locator("#house-rules").evaluate("details => { details.open = true; }")
        text = visible_text(page)
        raw = sorted(set(RAW_ID.findall(text)))
        assert not raw, raw
        assert not re.search(r"heuristic|ismcts", text, re.IGNORECASE)
        fields = page.locator(":is(#rule-fields, #house-fields) .rule-field:not([hidden])").all()
        for field in fields:
            assert field.locator(".help").inner_text().strip(), field.inner_text()
        assert page.locator("#house-fields .rule-field:not([hidden])").count() > 0, "the house rules are offered"
    assert page.locator("#create-form .help").count() >= 10
    page.click('#editions .edition[data-edition="classic"]')
    page.locator("#more-rules").evaluate("details => { details.open = false; }")
    page.locator("#house-rules").evaluate("details => { details.open = false; }")
    watch.screenshot(shot)
    no_errors(watch)


def test_play_now_reaches_a_started_table_in_one_click(live_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page(DESKTOP)
    page = watch.page
    page.goto(live_server.url + "/")
    expect(page.locator("#editions .edition")).to_have_count(4)
    page.click("#play-now")
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#top-card .card")).to_have_count(1)
    expect(page.locator("#hand .card").first).to_be_visible()
    code = page.evaluate("location.pathname").split("/")[-1]
    kinds = live_server.call(lambda: [seat.kind for seat in live_server.room(code).seats])
    assert kinds == ["human", "bot", "bot", "bot"]
    expect(page.locator("#table #chat")).to_be_visible()  # the chat beside the table
    watch.screenshot("room-play-now-table")
    no_errors(watch)


def test_a_public_room_is_listed_in_another_browser_and_joined_from_the_list(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    ann_watch, bob_watch = open_page(DESKTOP), open_page(DESKTOP)
    ann, bob = ann_watch.page, bob_watch.page
    code = create_room(ann, live_server.url, seats=2, public=True, target=200)
    expect(ann.locator("#lobby-options")).to_contain_text("Listed publicly")
    bob.goto(live_server.url + "/")
    entry = bob.locator(f'#public-rooms li[data-code="{code}"]')
    expect(entry).to_be_visible()  # refreshed every few seconds while the page is shown
    expect(entry).to_contain_text("Classic UNO")
    expect(entry).to_contain_text("hosted by Ann")
    expect(entry).to_contain_text("1 of 2 seats free")
    expect(entry).to_contain_text("Target score: 200")
    expect(entry).to_contain_text("30 seconds per move")
    assert not RAW_ID.findall(entry.inner_text())
    bob_watch.screenshot("room-public-list")
    bob.fill("#join-code-form [name=name]", "Bob")
    entry.locator("button").click()
    expect(bob.locator("#lobby")).to_be_visible()
    expect(bob.locator('#lobby-seats li[data-seat="1"] .seat-name')).to_have_text("You")
    expect(ann.locator('#lobby-seats li[data-seat="1"] .seat-name')).to_have_text("Bob")
    expect(ann.locator('#lobby-seats li[data-seat="0"] .seat-name')).to_have_text("You")
    no_errors(ann_watch, bob_watch)


# ---------------------------------------------------------------- the lobby


def test_host_hand_over_and_kick(live_server: LiveServer, open_page: OpenPage) -> None:
    ann_watch, bob_watch, cid_watch = open_page(DESKTOP), open_page(DESKTOP), open_page(PHONE)
    ann, bob, cid = ann_watch.page, bob_watch.page, cid_watch.page
    code = create_room(ann, live_server.url, seats=3)
    join_by_link(bob, live_server.url, code, "Bob")
    join_by_link(cid, live_server.url, code, "Cid")
    expect(bob.locator('#lobby-seats li[data-seat="0"] .crown')).to_be_visible()
    expect(bob.locator("#lobby-seats .crown")).to_have_count(1)
    expect(bob.locator("#host-controls")).to_be_hidden()
    expect(bob.locator("#lobby-wait")).to_contain_text("Waiting for Ann")
    expect(ann.locator('#lobby-seats li[data-seat="2"] button.kick')).to_be_visible()
    ann_watch.screenshot("room-lobby-host")

    ann.click("#leave-room")  # the host leaves: the next player hosts
    expect(ann.locator("#start")).to_be_visible()
    assert ann.evaluate("location.pathname") == "/"
    expect(bob.locator('#lobby-seats li[data-seat="1"] .crown')).to_be_visible()
    expect(bob.locator("#lobby-seats .crown")).to_have_count(1)
    expect(bob.locator("#host-controls")).to_be_visible()
    expect(bob.locator('#lobby-seats li[data-seat="0"]')).to_have_attribute("data-kind", "open")
    expect(cid.locator("#lobby-wait")).to_contain_text("Waiting for Bob")
    bob_watch.screenshot("room-lobby-new-host")

    bob.click('#lobby-seats li[data-seat="2"] button.kick')  # the new host removes Cid
    expect(cid.locator("#start")).to_be_visible()
    expect(cid.locator("#toast")).to_contain_text("The host removed you from the room.")
    assert cid.evaluate(f"localStorage.getItem('unokit.seat.{code}')") is None
    expect(bob.locator('#lobby-seats li[data-seat="2"]')).to_have_attribute("data-kind", "open")
    cid_watch.screenshot("room-kicked-phone")
    no_errors(ann_watch, bob_watch, cid_watch)


# ---------------------------------------------------------------- chat


def test_chat_shows_hostile_text_as_text_to_a_player_and_a_spectator(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    ann_watch, bob_watch, sam_watch = open_page(DESKTOP), open_page(PHONE), open_page(DESKTOP)
    ann, bob, sam = ann_watch.page, bob_watch.page, sam_watch.page
    dialogs: list[str] = []
    for page in (ann, bob, sam):
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    code = create_room(ann, live_server.url, seats=2)
    join_by_link(bob, live_server.url, code, "Bob")
    expect(ann.locator("#chat .chat-count")).to_have_text("0/200")
    send_chat(ann, HOSTILE)
    expect(ann.locator("#chat .chat-line").last).to_have_text(f"You{HOSTILE}")
    # Bob on a phone: the chat is a drawer, its button counts what he has not read
    expect(bob.locator("#chat .chat-unread")).to_have_text("1")
    expect(bob.locator("#chat .chat-log")).to_be_hidden()
    bob_watch.screenshot("room-chat-phone-unread")
    bob.click("#chat .chat-toggle")
    expect(bob.locator("#chat .chat-line").last).to_have_text(f"Ann{HOSTILE}")
    expect(bob.locator("#chat .chat-unread")).to_be_hidden()
    bob.click('#chat .chat-quick-button:has-text("👍")')
    expect(ann.locator("#chat .chat-line").last).to_have_text("Bob👍")
    bob_watch.screenshot("room-chat-phone-open")
    bob.click("#chat .chat-close")
    # a spectator entering later is given the history, and speaks as a spectator
    sam.goto(f"{live_server.url}/r/{code}")
    sam.click("#watch")
    expect(sam.locator("#chat .chat-line")).to_have_count(2)
    expect(sam.locator("#chat .chat-line").first).to_have_text(f"Ann{HOSTILE}")
    send_chat(sam, "good luck both")
    expect(ann.locator("#chat .chat-line").last).to_have_text("Spectatorgood luck both")
    for page in (ann, bob, sam):
        assert page.locator("#chat img").count() == 0
        assert page.evaluate("document.querySelectorAll('img[src=x]').length") == 0
    # too many at once: said politely in the chat
    for index in range(5):
        send_chat(ann, f"message {index}")
    expect(ann.locator("#chat .chat-error")).to_contain_text("Wait a few seconds")
    expect(ann.locator("#toast")).to_be_hidden()
    ann_watch.screenshot("room-chat-lobby")
    # Bob reads what came meanwhile; at the table the chat sits beside it, for players and spectators alike
    bob.click("#chat .chat-toggle")
    expect(bob.locator("#chat .chat-line").last).to_have_text("Annmessage 3")
    bob.click("#chat .chat-close")
    expect(bob.locator("#chat .chat-unread")).to_be_hidden()
    ann.click("#start-game")
    expect(ann.locator("#table #chat")).to_be_visible()
    expect(sam.locator("#table #chat")).to_be_visible()
    send_chat(sam, "go go go")
    expect(ann.locator("#chat .chat-line").last).to_have_text("Spectatorgo go go")
    expect(bob.locator("#chat .chat-unread")).to_have_text("1")
    ann_watch.screenshot("room-chat-table")
    bob_watch.screenshot("room-chat-table-phone")
    assert not dialogs
    no_errors(ann_watch, bob_watch, sam_watch)


# ---------------------------------------------------------------- rematch


ONE_CARD = {"hand_size": 1, "scoring": "single-round"}


def test_rematch_moves_both_players_and_the_spectator_to_a_new_table(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    deck = stacked_deck("classic", [["R7"], ["B5"]], "R5", dealer=1, rules=Rules.from_dict(ONE_CARD))
    setup = FixedSetup(2**40 + 9, tuple(card_name(card) for card in deck), dealer=1)
    settings = RoomSettings("classic", 2, dict(ONE_CARD), "heuristic", timer=45, public=False, late_join=False)
    code, secret = room_in_code(live_server, settings, setup)
    ann_watch, bob_watch, sam_watch = open_page(DESKTOP), open_page(TALL_PHONE), open_page(DESKTOP)
    ann, bob, sam = ann_watch.page, bob_watch.page, sam_watch.page
    take_seat(ann, live_server.url, code, secret)
    expect(ann.locator("#lobby")).to_be_visible()
    expect(ann.locator("#lobby-options")).to_contain_text("45 seconds per move")
    join_by_link(bob, live_server.url, code, "Bob")
    sam.goto(f"{live_server.url}/r/{code}?watch")
    expect(sam.locator("#lobby")).to_be_visible()
    ann.click("#start-game")
    ann.click('#hand .card[data-card="R7"]')  # Ann's only card: she wins the match
    rematch = ann.locator("#results-rematch .rematch-button")
    expect(rematch).to_be_visible()  # in the match results ...
    expect(bob.locator("#results-rematch .rematch-button")).to_be_visible()
    expect(sam.locator("#results-rematch .rematch-status")).to_be_visible()
    expect(sam.locator("#results-rematch .rematch-button")).to_have_count(0)  # spectators follow, they do not vote
    rematch.click()
    expect(rematch).to_be_disabled()
    expect(bob.locator("#results-rematch .rematch-status")).to_have_text("Ready for a rematch: Ann. Waiting for you.")
    expect(sam.locator("#results-rematch .rematch-status")).to_have_text("Ready for a rematch: Ann. Waiting for Bob.")
    ann_watch.screenshot("room-rematch-results")
    ann.click("#results-close")  # ... and at the table once the results are closed
    expect(ann.locator("#room-banner .rematch-button")).to_have_text("✓ Rematch asked")
    ann_watch.screenshot("room-rematch-table")
    bob_watch.screenshot("room-rematch-phone")
    bob.locator("#results-rematch .rematch-button").click()
    for page in (ann, bob, sam):
        page.wait_for_url(re.compile(r"/r/(?!" + code + r")[A-Z0-9]{8}"))
        expect(page.locator("#table")).to_be_visible()
    new_code = ann.evaluate("location.pathname").split("/")[-1]
    assert bob.evaluate("location.pathname").split("/")[-1] == new_code
    expect(ann.locator("#hand .card").first).to_be_visible()
    expect(bob.locator("#hand .card").first).to_be_visible()
    expect(sam.locator("#spectating")).to_be_visible()
    assert live_server.call(lambda: live_server.room(new_code).settings) == settings
    assert json.loads(ann.evaluate(f"localStorage.getItem('unokit.seat.{new_code}')"))["seat"] == 0
    no_errors(ann_watch, bob_watch, sam_watch)


# ---------------------------------------------------------------- timer, auto seats, late arrivals


def test_late_arrival_takes_a_bot_seat_at_the_next_round(timer_server: LiveServer, open_page: OpenPage) -> None:
    settings = RoomSettings("classic", 3, {"hand_size": 2}, "heuristic", timer=1)
    code, secret = room_in_code(timer_server, settings)
    ann_watch, bob_watch = open_page(DESKTOP), open_page(TALL_PHONE)
    ann, bob = ann_watch.page, bob_watch.page
    take_seat(ann, timer_server.url, code, secret)
    ann.click("#fill-bots")
    expect(ann.locator("#start-game")).to_be_enabled()
    ann.click("#start-game")
    expect(ann.locator("#table")).to_be_visible()
    bob.goto(f"{timer_server.url}/r/{code}")  # the match has begun: Bob claims a bot's seat
    bob.fill("#join-form [name=name]", "Bob")
    bob.click("#join-form button[type=submit]")
    notice = bob.locator('#room-banner [data-role="claimed"]')
    expect(notice).to_contain_text("You take seat 1 (was Bot 1) at the next round")
    expect(bob.locator("#spectating")).to_be_visible()
    bob_watch.screenshot("room-late-arrival-phone")
    # the round's results, then the next round is dealt with Bob in the bot's seat
    bob.locator("#results-close").click(timeout=30_000)
    expect(bob.locator("#hand .card").first).to_be_visible()
    expect(notice).to_have_count(0)
    expect(bob.locator('#opponents .seat[data-seat="1"]')).to_have_count(0)  # his seat is no opponent's now
    assert timer_server.call(lambda: timer_server.room(code).seats[1].name) == "Bob"
    no_errors(ann_watch, bob_watch)


def test_timer_expiry_hands_the_seat_to_the_bot_until_im_back(timer_server: LiveServer, open_page: OpenPage) -> None:
    settings = RoomSettings("classic", 2, {}, "heuristic", timer=3)
    code, secret = room_in_code(timer_server, settings)
    watch = open_page(DESKTOP)
    page = watch.page
    take_seat(page, timer_server.url, code, secret)
    page.click("#fill-bots")
    expect(page.locator("#start-game")).to_be_enabled()
    page.click("#start-game")
    banner = page.locator('#room-banner [data-role="auto"]')
    expect(banner).to_contain_text("The bot is playing for you", timeout=15_000)  # nobody moved for Ann
    assert timer_server.call(lambda: timer_server.room(code).seats[0].auto)
    watch.screenshot("room-auto-banner")
    page.click("#im-back")
    expect(banner).to_have_count(0)
    page.wait_for_function(
        """() => document.querySelector('#hand button.card.playable:not([disabled])')
            || document.querySelector('#actions button[data-action="draw"]:not([disabled])')""",
        timeout=15_000,
    )  # her turn comes back to her
    no_errors(watch)


# ---------------------------------------------------------------- the join page, leaving a match


def open_join_page(page: Page, url: str, code: str) -> None:
    page.goto(f"{url}/r/{code}")
    expect(page.locator("#join-note")).not_to_be_empty()


def test_join_page_asks_the_room_route_and_offers_join_watch_or_replay(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    code, _ = room_in_code(live_server, RoomSettings("classic", 3, {}, "heuristic"))
    watch = open_page(PHONE)
    page = watch.page
    open_join_page(page, live_server.url, code)
    expect(page.locator("#join-note")).to_have_text("Classic UNO: 2 seats of 3 free. The match has not begun.")
    expect(page.locator("#join-submit")).to_have_text("Join")
    expect(page.locator("#watch")).to_be_visible()
    expect(page.locator("#replay-button")).to_be_hidden()
    assert not watch.sockets, "the join page opened a socket to peek at the room"
    watch.screenshot("room-join-lobby-phone")
    open_join_page(page, live_server.url, "ZZZZ2222")
    expect(page.locator("#join-note")).to_contain_text("No room has that code")
    for button in ("#join-submit", "#watch", "#replay-button"):
        expect(page.locator(button)).to_be_hidden()
    # a finished match: Replay, and no Join
    deck = stacked_deck("classic", [["R7"], ["B5"]], "R5", dealer=1, rules=Rules.from_dict(ONE_CARD))
    setup = FixedSetup(2**40 + 9, tuple(card_name(card) for card in deck), dealer=1)
    done, secret = room_in_code(live_server, RoomSettings("classic", 2, dict(ONE_CARD), "heuristic"), setup)
    ann_watch = open_page(DESKTOP)
    take_seat(ann_watch.page, live_server.url, done, secret)
    fill_and_start(ann_watch.page)
    ann_watch.page.click('#hand .card[data-card="R7"]')
    expect(ann_watch.page.locator("#results")).to_be_visible()
    open_join_page(page, live_server.url, done)
    expect(page.locator("#join-note")).to_contain_text("is over")
    expect(page.locator("#replay-button")).to_be_visible()
    expect(page.locator("#join-submit")).to_be_hidden()
    expect(page.locator("#watch")).to_be_hidden()
    watch.screenshot("room-join-finished-phone")
    assert not watch.sockets
    not_found = [error for error in watch.real_errors() if "404 (Not Found)" not in error]  # the unknown code's answer
    assert not not_found, watch.errors
    no_errors(ann_watch)


def fill_and_start(page: Page) -> None:
    expect(page.locator("#fill-bots")).to_be_visible()
    page.click("#fill-bots")
    expect(page.locator("#start-game")).to_be_enabled()
    page.click("#start-game")
    expect(page.locator("#table")).to_be_visible()


@pytest.mark.parametrize(
    ("late", "viewport", "shot"), [(True, DESKTOP, "room-join-late"), (False, PHONE, "room-join-watch-phone")]
)
def test_join_page_during_a_match_offers_a_bots_seat_or_says_why_only_watching(
    live_server: LiveServer, open_page: OpenPage, late: bool, viewport: dict[str, int], shot: str
) -> None:
    code, secret = room_in_code(live_server, RoomSettings("classic", 3, {}, "heuristic", late_join=late))
    ann_watch, watch = open_page(DESKTOP), open_page(viewport)
    take_seat(ann_watch.page, live_server.url, code, secret)
    fill_and_start(ann_watch.page)
    page = watch.page
    open_join_page(page, live_server.url, code)
    expect(page.locator("#watch")).to_be_visible()
    expect(page.locator("#replay-button")).to_be_hidden()  # the match is not over
    if late:
        expect(page.locator("#join-submit")).to_have_text("Join — you take a bot's seat at the next round")
    else:
        expect(page.locator("#join-submit")).to_be_hidden()
        expect(page.locator("#join-note")).to_contain_text(
            "lets nobody join once the match has begun: you may watch it"
        )
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], width
    watch.screenshot(shot)
    no_errors(watch, ann_watch)


@pytest.mark.parametrize(("viewport", "shot"), [(DESKTOP, "room-leave-confirm"), (PHONE, "room-leave-confirm-phone")])
def test_leave_during_a_match_asks_then_hands_the_seat_to_the_bot(
    live_server: LiveServer, open_page: OpenPage, viewport: dict[str, int], shot: str
) -> None:
    code, secret = room_in_code(live_server, RoomSettings("classic", 3, {}, "heuristic"))
    watch = open_page(viewport)
    page = watch.page
    take_seat(page, live_server.url, code, secret)
    expect(page.locator("#leave-match")).to_be_hidden()  # the lobby has its own Leave
    fill_and_start(page)
    page.click("#leave-match")
    confirm = page.locator("#leave-confirm")
    expect(confirm).to_be_visible()
    watch.screenshot(shot)
    page.click("#leave-stay")
    expect(confirm).to_be_hidden()
    assert not live_server.call(lambda: live_server.room(code).seats[0].auto)
    page.click("#leave-match")
    page.click("#leave-confirmed")
    expect(page.locator("#start")).to_be_visible()
    expect(page.locator("#toast")).to_contain_text("the bot plays for you")
    expect(page.locator("#leave-match")).to_be_hidden()
    assert live_server.call(lambda: live_server.room(code).seats[0].auto)
    assert page.evaluate(f"localStorage.getItem('unokit.seat.{code}')")  # kept, to come back
    no_errors(watch)


# ---------------------------------------------------------------- the page's start


SOCKET_BIRTH = """() => {
  window.socketsOpened = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.socketsOpened.push(document.readyState);
    }
  };
}"""
"""Records, for each WebSocket the page opens, how far the page had loaded (``loading``: the
parser is still in the head, before any module ran)."""


def test_a_seats_page_opens_its_one_socket_before_the_modules_run(live_server: LiveServer, open_page: OpenPage) -> None:
    """Opened at /r/CODE holding a seat, the page asks to resume while it is still being parsed, and the
    modules take that socket over: one socket, the table drawn from it; the reload of a page whose
    stored secret no longer holds a seat opens one socket too and shows the join page."""
    code, secret = room_in_code(live_server, RoomSettings("classic", 3, {}, "heuristic"))
    watch = open_page(DESKTOP)
    page = watch.page
    take_seat(page, live_server.url, code, secret)
    fill_and_start(page)
    page.add_init_script(f"({SOCKET_BIRTH})()")
    watch.reload()
    expect(page.locator("#table")).to_be_visible()
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length > 0")
    assert page.evaluate("window.socketsOpened") == ["loading"]
    # a secret the server no longer knows: the early socket's resume is refused, the join page shows
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"unokit.seat.{code}", json.dumps({"secret": "x" * 32, "seat": 0})],
    )
    watch.reload()
    expect(page.locator("#join-form")).to_be_visible()
    assert page.evaluate("window.socketsOpened") == ["loading"]
    no_errors(watch)
