"""Newcomers taught, in the browser: the how-to-play pages of each edition (from the start page, and
over the table in a dialog), the guided first game's coach (what to do, each special card the first
time, why a card is refused, the end) and hints.

Playwright drives Debian's Chromium against the real server on loopback (see ``browser_support``);
screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
import time
import urllib.request
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from browser_support import (  # noqa: F401  (fixtures, used by their names)
    DESKTOP,
    PHONE,
    browser_fixture,
    live_server_fixture,
    open_page_fixture,
    playwright_instance_fixture,
    try_click,
)
from unokit.engine.cards import card_name
from unokit.engine.deck import stacked_deck
from unokit.engine.rules import Rules
from unokit.web.rooms import FixedSetup, RoomSettings

if TYPE_CHECKING:
    from collections.abc import Callable

    from browser_support import LiveServer, PageWatch

    OpenPage = Callable[..., PageWatch]


EDITIONS = {
    # edition: (title, kinds of card drawn in the deck, a sentence only its page says)
    "classic": ("Classic UNO", 6, "challenge"),
    "space-jam": ("UNO Space Jam", 7, "Slam side up"),
    "all-wild": ("UNO All Wild", 8, "swap hands"),
    "wild-jackpot": ("UNO Wild Jackpot", 8, "Draw 4 cards."),
}


def no_errors(*watches: PageWatch) -> None:
    for watch in watches:
        assert not watch.real_errors(), watch.errors


# ---------------------------------------------------------------- how to play


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_each_editions_page_draws_its_cards_and_says_what_they_do(
    live_server: LiveServer, open_page: OpenPage, edition: str
) -> None:
    title, kinds, own = EDITIONS[edition]
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        watch = open_page(viewport)
        page = watch.page
        page.goto(f"{live_server.url}/how-to-play/{edition}")
        expect(page.locator("#howto h1")).to_have_text(f"How to play {title}")
        expect(page.locator("#howto .howto-deck > li")).to_have_count(kinds)
        assert page.locator("#howto .howto-deck .card").count() >= kinds  # the table's own card faces
        expect(page.locator("#howto")).to_contain_text("Calling UNO")
        expect(page.locator("#howto")).to_contain_text("Scoring")
        expect(page.locator("#howto")).to_contain_text(own)
        current = page.locator(f'#howto .howto-nav a[href="/how-to-play/{edition}"]')
        expect(current).to_have_attribute("aria-current", "page")
        if edition == "wild-jackpot":
            expect(page.locator("#howto .howto-lever li")).to_have_count(6)
        assert page.evaluate("document.scrollingElement.scrollWidth") <= viewport["width"], "no sideways scrolling"
        watch.screenshot(f"learn-howto-{edition}-{name}")
        no_errors(watch)


def test_how_to_play_is_reached_from_the_start_page_and_its_links_stay_in_the_page(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    watch = open_page(DESKTOP)
    page = watch.page
    page.goto(live_server.url + "/")
    expect(page.locator("#learn-start")).to_have_text("🎓 Learn to play: a guided first game")
    watch.screenshot("learn-start-page")
    page.click('#start .learn-links a[href="/how-to-play"]')
    expect(page.locator("#howto h1")).to_have_text("How to play UNO")
    page.click('#howto .howto-nav a[href="/how-to-play/space-jam"]')
    expect(page.locator("#howto h1")).to_have_text("How to play UNO Space Jam")
    assert page.evaluate("location.pathname") == "/how-to-play/space-jam"
    page.goto(live_server.url + "/")
    page.click('#start .learn-links a[href="/how-to-play/wild-jackpot"]')
    expect(page.locator("#howto h1")).to_have_text("How to play UNO Wild Jackpot")
    page.goto(f"{live_server.url}/how-to-play/no-such-edition")
    expect(page.locator("#howto h1")).to_have_text("How to play UNO")
    expect(page.locator("#howto .error")).to_be_visible()
    with urllib.request.urlopen(f"{live_server.url}/how-to-play/classic", timeout=10) as response:
        assert response.status == 200 and b"app.js" in response.read()  # a real address to share
    no_errors(watch)


def test_the_top_bars_how_to_play_opens_the_rooms_edition_over_the_table(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        watch = open_page(viewport)
        page = watch.page
        page.goto(live_server.url + "/")
        page.locator('#editions .edition[data-edition="all-wild"]').click()
        page.click("#play-now")
        expect(page.locator("#hand .card").first).to_be_visible()
        path = page.evaluate("location.pathname")
        page.click("#howto-button")
        dialog = page.locator("#howto-dialog")
        expect(dialog).to_be_visible()
        expect(dialog.locator("h1")).to_have_text("How to play UNO All Wild")
        watch.screenshot(f"learn-howto-dialog-{name}")
        dialog.locator('.howto-nav a[href="/how-to-play/classic"]').click()
        expect(dialog.locator("h1")).to_have_text("How to play Classic UNO")
        assert page.evaluate("location.pathname") == path, "the game stays where it is"
        page.click("#howto-dialog-close")
        expect(dialog).to_be_hidden()
        expect(page.locator("#table")).to_be_visible()
        no_errors(watch)


# ---------------------------------------------------------------- the guided first game

GUIDED_RULES = {"hand_size": 4, "scoring": "single-round"}
ANN = ["R3", "G2", "BS", "W"]
"""On a Red 7: Red 3 and the Wild may be played; Green 2 and Blue Skip may not."""


def guided_room(live: LiveServer, seed: int, hands: list[list[str]] | None = None) -> tuple[str, str]:
    """A guided game made on the server with a fixed deal: Ann (seat 0) plays first, two bots."""
    hands = hands or [ANN, ["Y4", "Y5", "B6", "G8"], ["Y1", "B1", "G5", "B8"]]
    rules = {**GUIDED_RULES, "hand_size": len(hands[0])}
    deck = stacked_deck("classic", hands, "R7", dealer=2, rules=Rules.from_dict(rules))
    setup = FixedSetup(seed, tuple(card_name(card) for card in deck), dealer=2)
    settings = RoomSettings("classic", 3, rules, "heuristic", timer=0, tutorial=True)
    room, secret = live.call(lambda: live.hub.create(settings, "Ann", setup))
    for seat in (1, 2):
        live.call(lambda seat=seat: room.seats[seat].empty("bot"))
    return str(room.code), str(secret)


def open_guided(page: Page, url: str, code: str, secret: str) -> None:
    page.goto(url + "/")
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"unokit.seat.{code}", json.dumps({"secret": secret, "seat": 0})],
    )
    page.goto(f"{url}/r/{code}")
    expect(page.locator("#lobby")).to_be_visible()
    page.click("#start-game")
    expect(page.locator('#hand .card[data-card="G2"]')).to_be_visible()


def test_the_coach_reminds_you_to_call_uno_with_two_cards(live_server: LiveServer, open_page: OpenPage) -> None:
    code, secret = guided_room(live_server, 2**40 + 42, [["R3", "G2"], ["Y4", "Y5"], ["Y1", "B1"]])
    watch = open_page(DESKTOP)
    page = watch.page
    open_guided(page, live_server.url, code, secret)
    page.click("#coach-ok")  # the welcome; no special card to explain
    expect(page.locator("#coach")).to_have_attribute("data-topic", "uno")
    expect(page.locator("#coach-text")).to_contain_text("Press the UNO button before you play your next card")
    expect(page.locator("#uno-button")).to_be_visible()
    no_errors(watch)


def test_the_coach_explains_refuses_with_a_reason_and_hints(live_server: LiveServer, open_page: OpenPage) -> None:
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        code, secret = guided_room(live_server, 2**40 + 41)
        watch = open_page(viewport)
        page = watch.page
        open_guided(page, live_server.url, code, secret)
        coach = page.locator("#coach")
        expect(coach).to_have_attribute("data-topic", "welcome")
        watch.screenshot(f"learn-coach-welcome-{name}")
        page.click("#coach-ok")
        # the special cards in the hand, each explained once
        expect(coach).to_have_attribute("data-topic", "new-card")
        explained = [page.locator("#coach-text").inner_text()]
        page.click("#coach-ok")
        explained.append(page.locator("#coach-text").inner_text())
        assert any(text.startswith("New card: Skip.") for text in explained), explained
        assert any(text.startswith("New card: Wild.") for text in explained), explained
        page.click("#coach-ok")
        expect(coach).to_have_attribute("data-topic", "turn")
        expect(page.locator("#coach-text")).to_have_text(
            "Your turn. The glowing cards can be played: they match the colour red or the number 7. "
            "Click one, or draw a card."
        )
        assert page.evaluate("document.body.classList.contains('coach-cards')")
        expect(page.locator("#hand .card.playable")).to_have_count(2)
        watch.screenshot(f"learn-coach-turn-{name}")
        # a card that cannot be played: why, in words
        page.click('#hand .card[data-card="G2"]', force=True)  # aria-disabled: Playwright waits, a mouse does not
        expect(coach).to_have_attribute("data-topic", "refused")
        expect(page.locator("#coach-text")).to_have_text(
            "You cannot play the green 2 now: it must match the colour red or the number 7."
        )
        watch.screenshot(f"learn-coach-refused-{name}")
        # a hint: the bot's move lights up
        expect(page.locator("#hint-button")).to_be_visible()
        page.click("#hint-button")
        expect(page.locator("#hint-text")).to_contain_text("The bot would: play")
        hinted = page.locator("#hand .card.hinted")
        expect(hinted).to_have_count(1)
        assert hinted.get_attribute("data-card") in ("R3", "W")
        watch.screenshot(f"learn-hint-{name}")
        if viewport is PHONE:
            box = page.locator("#hand").bounding_box()
            assert box is not None and box["y"] + box["height"] <= PHONE["height"], "the hand is in sight on a phone"
        no_errors(watch)


def play_on(page: Page, deadline: float) -> None:
    """Play the guided game to its end as a newcomer would: a glowing card, else draw, else the
    first option of a dialog; the coach's messages are acknowledged."""
    while time.monotonic() < deadline:
        if page.locator('#coach[data-topic="end"]').count():
            return
        if page.locator("#results:not([hidden])").count():
            try_click(page, "#results-close")
            continue
        if page.locator("#coach-ok:not([hidden])").count():
            try_click(page, "#coach-ok")
            continue
        if (
            try_click(page, "#decision:not([hidden]) button.option:not([disabled])")
            or try_click(page, "#hand button.card.playable:not([disabled])")
            or try_click(page, '#actions button[data-action="draw"]:not([disabled])')
            or try_click(page, '#actions button[data-action="pass"]:not([disabled])')
        ):
            continue
        page.wait_for_timeout(100)
    raise AssertionError("the guided game did not end")


def test_the_guided_game_starts_from_the_start_page_and_ends_with_a_summary(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    watch = open_page(DESKTOP)
    page = watch.page
    page.goto(live_server.url + "/")
    page.evaluate("localStorage.setItem('unokit.prefs', JSON.stringify({speed: 'fast'}))")  # a whole round: quicker
    page.reload()
    page.click("#learn-start")
    expect(page.locator("#coach")).to_be_visible()
    expect(page.locator("#hand .card").first).to_be_visible()
    code = page.evaluate("location.pathname").split("/")[-1]
    room = live_server.room(code)
    assert room.settings.tutorial and room.settings.timer == 0
    assert [seat.kind for seat in room.seats] == ["human", "bot", "bot"]
    assert room.rules.scoring == "single-round"
    play_on(page, time.monotonic() + 150)
    page.wait_for_timeout(500)  # the match's results come up ...
    try_click(page, "#results-close")  # ... and closed, the coach's summary is beside the table
    expect(page.locator("#results")).to_be_hidden()
    expect(page.locator("#coach-text")).to_contain_text("You have learned the basics")
    expect(page.locator("#coach-end")).to_be_visible()
    watch.screenshot("learn-coach-end")
    page.click("#coach-stop")
    expect(page.locator("#coach")).to_be_hidden()
    no_errors(watch)


def test_hints_are_off_until_chosen_in_the_settings(live_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page(DESKTOP)
    page = watch.page
    page.goto(live_server.url + "/")
    page.click("#play-now")
    expect(page.locator("#hand .card").first).to_be_visible()
    page.wait_for_selector("#hand-area.my-turn", timeout=15_000)
    expect(page.locator("#hint-button")).to_be_hidden()
    page.click("#settings-button")
    page.check("#pref-hints")
    page.click("#settings-close")
    expect(page.locator("#hint-button")).to_be_visible()
    page.click("#hint-button")
    expect(page.locator("#hint-text")).to_contain_text("The bot would:")
    assert page.locator(".hinted").count() >= 1
    hint = watch.messages("hint")[-1]
    assert set(hint) == {"type", "version", "move", "why"}
    assert json.loads(page.evaluate("localStorage.getItem('unokit.prefs')"))["hints"] is True
    watch.screenshot("learn-hint-settings")
    no_errors(watch)


def test_the_coach_stays_readable_while_a_decision_is_open_on_a_phone(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    """A decision opened while the coach still has something to say (here Ann plays the Wild before
    reading the welcome; in play, a bot's rule card asking her for a target) docks at the top of a
    phone, over the coach's place: the coach moves into the dialog, its "Got it" in reach, and goes
    back above the felt when the decision is made."""
    code, secret = guided_room(live_server, 2**40 + 43)
    watch = open_page(PHONE)
    page = watch.page
    open_guided(page, live_server.url, code, secret)
    expect(page.locator("#coach")).to_have_attribute("data-topic", "welcome")
    page.click('#hand .card.playable[data-card="W"]')
    expect(page.locator("#decision-title")).to_have_text("Choose a colour")
    expect(page.locator("#decision .decision-box #coach")).to_be_visible()
    on_top = page.evaluate(
        """() => { const box = document.querySelector('#coach-ok').getBoundingClientRect();
          const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          return hit?.id ?? hit?.className; }"""
    )
    assert on_top == "coach-ok", on_top
    watch.screenshot("learn-coach-in-decision-phone")
    page.click("#coach-ok")
    expect(page.locator("#coach")).not_to_have_attribute("data-topic", "welcome")
    page.click("#decision-options button.c-red")
    expect(page.locator("#decision")).to_be_hidden()
    expect(page.locator("#table .board > #coach")).to_be_visible()
    no_errors(watch)


@pytest.mark.parametrize("edition", ["space-jam", "all-wild", "wild-jackpot"])
def test_a_guided_game_in_each_edition_explains_that_editions_cards(
    live_server: LiveServer, open_page: OpenPage, edition: str
) -> None:
    """``/?learn=EDITION`` (the coach's "Play another guided game") starts a guided game in that
    edition; the coach explains the special cards of the hand in the edition's own words."""
    watch = open_page(PHONE)
    page = watch.page
    page.goto(f"{live_server.url}/?learn={edition}")
    expect(page.locator("#coach")).to_have_attribute("data-topic", "welcome")
    code = page.evaluate("location.pathname").split("/")[-1]
    room = live_server.room(code)
    assert room.settings.edition == edition and room.settings.tutorial
    expect(page.locator("#hand .card").first).to_be_visible()
    page.wait_for_function("document.querySelectorAll('#hand .card').length >= 7")  # dealt
    hand = set(page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)"))
    specials = {card if card.startswith("W") else card[1:] for card in hand} - set("0123456789")
    page.click("#coach-ok")
    explained = []
    while page.locator('#coach[data-topic="new-card"]').count():
        explained.append(page.locator("#coach-text").inner_text())
        page.click("#coach-ok")
    assert len(explained) >= len(specials) and len(set(explained)) == len(explained), (explained, specials)
    if edition == "all-wild" and "WX" in specials:
        assert any("swap hands" in text for text in explained)
    watch.screenshot(f"learn-coach-{edition}-phone")
    no_errors(watch)


def test_the_top_bars_how_to_play_opens_over_the_lobby(live_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page(DESKTOP)
    page = watch.page
    page.goto(live_server.url + "/")
    page.fill("#create-form [name=name]", "Ann")
    page.select_option("#create-form [name=edition]", "wild-jackpot")
    page.click("#create-form button[type=submit]")
    expect(page.locator("#lobby")).to_be_visible()
    page.click("#howto-button")
    expect(page.locator("#howto-dialog h1")).to_have_text("How to play UNO Wild Jackpot")
    page.keyboard.press("Escape")
    expect(page.locator("#howto-dialog")).to_be_hidden()
    expect(page.locator("#lobby")).to_be_visible()
    no_errors(watch)
