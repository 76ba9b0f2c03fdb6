"""House rules at the browser table: a stack of draw cards answered from the hand, its total on
the pile, the swap of a Seven, a jump-in, teams; the house rules offered on the start page by
preset, and a whole round played under the house preset."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

from playwright.sync_api import Page, expect

from browser_support import (  # noqa: F401  (fixtures, used by their names)
    browser_fixture,
    live_server_fixture,
    open_page_fixture,
    playwright_instance_fixture,
    try_click,
)
from unokit.engine.cards import card_name
from unokit.engine.deck import stacked_deck
from unokit.engine.rules import Rules
from unokit.web.rooms import FixedSetup, Member, RoomSettings

if TYPE_CHECKING:
    from collections.abc import Callable

    from browser_support import LiveServer, PageWatch

    OpenPage = Callable[..., PageWatch]

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 375, "height": 667}


def fixed_room(live: LiveServer, rules: dict[str, object], hands: list[list[str]], start: str) -> tuple[str, str]:
    """A two-seat room (Ann, then a bot) whose deal is fixed; Ann plays first."""
    deck = stacked_deck("classic", hands, start, dealer=1, rules=Rules.from_dict(rules))
    setup = FixedSetup(2**40 + 21, tuple(card_name(card) for card in deck), dealer=1)
    settings = RoomSettings("classic", 2, dict(rules), "heuristic")
    room, secret = live.call(lambda: live.hub.create(settings, "Ann", setup))
    return str(room.code), str(secret)


def sit(page: Page, url: str, code: str, secret: str) -> None:
    """Open the room holding seat 0 (its secret stored in this browser, as after a welcome)."""
    page.goto(url + "/")
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"unokit.seat.{code}", json.dumps({"secret": secret, "seat": 0})],
    )
    page.goto(f"{url}/r/{code}")


def sit_and_start(page: Page, url: str, code: str, secret: str) -> None:
    sit(page, url, code, secret)
    expect(page.locator("#fill-bots")).to_be_visible()
    page.click("#fill-bots")
    page.click("#start-game")
    expect(page.locator("#table")).to_be_visible()


def play_round(page: Page, seconds: float = 120.0) -> list[str]:
    """Answer every decision the page asks of this player (a dialog's choice, a playable card, an
    action button) until the round's results show; returns what was done."""
    moves: list[str] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if page.locator("#results:not([hidden])").count():
            return moves
        for what, selector in (
            ("dialog", "#decision:not([hidden]) #decision-options button.option:not([disabled])"),
            ("card", "#hand button.card.playable:not([disabled])"),
            ("action", "#actions button.act:not([disabled])"),
        ):
            if try_click(page, selector):
                moves.append(what)
                break
        else:
            page.wait_for_timeout(50)
    raise AssertionError(f"the round did not end in {seconds} s; moves: {moves}")


def test_a_stack_is_answered_from_the_hand_with_its_total_on_the_pile(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    """Stacking on: the bot's Red Draw Two meets Ann's Green Draw Two; the pile says "+2 to draw",
    the Draw Two is playable from the hand and drawing the penalty is a button; stacking hands the
    bot, who cannot add, the total of 4."""
    rules = {"hand_size": 3, "stacking": "same", "target_score": 1000}
    code, secret = fixed_room(live_server, rules, [["R1", "G+2", "B9"], ["R+2", "Y3", "Y4"]], "R5")
    for viewport, shot in ((DESKTOP, "house-stack"), (PHONE, "house-stack-phone")):
        watch = open_page(viewport)
        page = watch.page
        if shot == "house-stack":
            sit_and_start(page, live_server.url, code, secret)
            page.click('#hand .card.playable[data-card="R1"]')
        else:  # the same seat on a phone, once the stack is waiting
            sit(page, live_server.url, code, secret)
        expect(page.locator("#stack-total")).to_have_text("+2 to draw")
        expect(page.locator('#hand .card.playable[data-card="G+2"]')).to_be_visible()
        expect(page.locator("#hand .card.playable")).to_have_count(1)
        accept = page.locator('#actions button[data-action="accept"]')
        expect(accept).to_contain_text("draw the penalty of 2")
        expect(page.locator("#status")).to_contain_text("stack a draw card or draw the penalty")
        watch.screenshot(shot)
        assert not watch.real_errors(), watch.errors
    page.click('#hand .card.playable[data-card="G+2"]')
    # the bot holds no draw card: it draws the 4 at once and loses its turn; Ann plays on
    expect(page.locator('#opponents .seat[data-seat="1"]')).to_have_attribute("data-count", "6")
    expect(page.locator("#stack-total")).to_be_hidden()
    expect(page.locator("#log")).to_contain_text("4")
    assert not watch.real_errors(), watch.errors


def test_a_seven_swaps_hands_with_the_player_chosen(live_server: LiveServer, open_page: OpenPage) -> None:
    """Seven-O on: Ann's Red 7 asks whom to swap with, in words; after the swap her hand is the bot's."""
    rules = {"hand_size": 3, "seven_swap": True, "target_score": 1000}
    code, secret = fixed_room(live_server, rules, [["R7", "G1", "G2"], ["B3", "B4", "Y5"]], "R5")
    watch = open_page(DESKTOP)
    page = watch.page
    sit_and_start(page, live_server.url, code, secret)
    page.click('#hand .card.playable[data-card="R7"]')
    choice = page.locator("#decision button.option")
    expect(choice).to_have_count(1)
    expect(choice).to_contain_text("swap hands with Bot 1")
    watch.screenshot("house-seven")
    choice.click()
    expect(page.locator("#hand .card")).to_have_count(3)
    shown = sorted(page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)"))
    assert shown == ["B3", "B4", "Y5"]
    assert not watch.real_errors(), watch.errors


def test_a_preset_fills_the_house_rules_and_the_lobby_names_them(live_server: LiveServer, open_page: OpenPage) -> None:
    """The start page's House rules start from a preset: choosing one sets its switches (the others
    back to their defaults), a switch changed after it counts, the lobby says the rules in words,
    and a whole round is then played at the table under them."""
    watch = open_page(DESKTOP)
    page = watch.page
    page.goto(live_server.url + "/")
    page.wait_for_selector("#create-form [name=edition] option", state="attached")
    page.locator("#house-rules").evaluate("details => { details.open = true; }")
    expect(page.locator("#preset option")).to_have_count(6)
    page.select_option("#preset", "party")
    expect(page.locator("#preset-summary")).to_contain_text("Draw to match: yes")
    stacking = page.locator('#house-fields [name="rule.stacking"]')
    expect(stacking).to_have_value('"same"')
    for name in ("seven_swap", "zero_pass", "draw_to_match"):
        expect(page.locator(f'#house-fields [name="rule.{name}"]')).to_be_checked()
    page.select_option("#preset", "house")  # draw to match goes back to its default
    expect(page.locator('#house-fields [name="rule.draw_to_match"]')).not_to_be_checked()
    # an option that works only with another is off while that one is
    deflect = page.locator('#house-fields [name="rule.stack_deflect"]')
    mercy_limit = page.locator('#house-fields [name="rule.mercy_limit"]')
    expect(deflect).to_be_enabled()
    expect(mercy_limit).to_be_disabled()
    page.check('#house-fields [name="rule.mercy"]')
    expect(mercy_limit).to_be_enabled()
    page.uncheck('#house-fields [name="rule.mercy"]')
    expect(mercy_limit).to_be_disabled()
    page.select_option("#preset", "chaos")
    expect(deflect).to_have_value('"both"')
    page.select_option('#house-fields [name="rule.stacking"]', '"off"')
    expect(deflect).to_be_disabled()
    page.select_option("#preset", "house")
    page.uncheck('#house-fields [name="rule.zero_pass"]')
    watch.screenshot("house-preset")
    page.fill("#create-form [name=name]", "Ann")
    page.click("#create-form button[type=submit]")
    rules = page.locator("#lobby-rules")
    expect(rules).to_contain_text("Stacking draw cards: Same card on same card")
    expect(rules).to_contain_text("Seven: swap hands: yes")
    expect(rules).not_to_contain_text("Zero")
    code = page.inner_text("#lobby-code").strip()
    chosen = live_server.call(lambda: live_server.room(code).settings.rules)
    assert chosen == {"stacking": "same", "seven_swap": True, "jump_in": True}
    # and a whole round is played at the table under them, every decision made on the page
    page.click("#fill-bots")
    page.click("#start-game")
    expect(page.locator("#table")).to_be_visible()
    moves = play_round(page)
    assert "card" in moves, moves
    expect(page.locator("#results-title")).to_contain_text("round 1")
    game = live_server.call(lambda: live_server.room(code).game)
    assert game is not None and game.rules.jump_in and game.rules.stacking == "same"
    assert any(event[0] == "round_end" for event in game.events)
    assert not watch.real_errors(), watch.errors


def test_a_jump_in_is_played_from_the_hand_out_of_turn(live_server: LiveServer, open_page: OpenPage) -> None:
    """Jump-In on: Bot 1 plays a Red 3 while Ann holds the other one and Bob is to play; Ann's page
    says she may jump in, her Red 3 is playable out of turn, and playing it jumps in ahead of Bob."""
    rules = {"hand_size": 3, "jump_in": True, "target_score": 1000}
    hands = [["R9", "R3", "B7"], ["R3", "G1", "G2"], ["B4", "B6", "Y8"]]  # Ann, Bot 1, Bob
    deck = stacked_deck("classic", hands, "R5", dealer=2, rules=Rules.from_dict(rules))
    setup = FixedSetup(2**40 + 22, tuple(card_name(card) for card in deck), dealer=2)
    settings = RoomSettings("classic", 3, dict(rules), "heuristic")
    room, secret = live_server.call(lambda: live_server.hub.create(settings, "Ann", setup))
    code = str(room.code)
    host = Member(lambda message: None, seat=0)
    live_server.call(lambda: live_server.room(code).set_seat(host, 1, True))
    live_server.call(lambda: live_server.room(code).join("Bob"))  # Bob takes seat 2 and never comes
    watch = open_page(DESKTOP)
    page = watch.page
    sit(page, live_server.url, code, str(secret))
    page.click("#start-game")
    page.click('#hand .card.playable[data-card="R9"]')
    expect(page.locator("#status")).to_contain_text("Jump in!")
    expect(page.locator('#hand .card.playable[data-card="R3"]')).to_be_visible()
    expect(page.locator("#hand .card.playable")).to_have_count(1)
    watch.screenshot("house-jump")
    page.click('#hand .card.playable[data-card="R3"]')
    expect(page.locator("#log")).to_contain_text("You jump in ahead of Bob!")
    # the Red 3 is played and the Blue 7 kept (a bot may then catch Ann without UNO: she draws two)
    expect(page.locator('#hand .card[data-card="B7"]')).to_be_visible()
    assert page.locator("#log").inner_text().count("You jump in") == 1
    assert not watch.real_errors(), watch.errors


def test_team_play_shows_partners_and_the_other_team(live_server: LiveServer, open_page: OpenPage) -> None:
    """Teams on with four seats: Ann's partner sits across and is marked so; the other two carry
    the other team's badge, on desktop and phone."""
    settings = RoomSettings("classic", 4, {"teams": True}, "heuristic")
    room, secret = live_server.call(lambda: live_server.hub.create(settings, "Ann", None))
    for viewport, shot in ((DESKTOP, "house-teams"), (PHONE, "house-teams-phone")):
        watch = open_page(viewport)
        page = watch.page
        if shot == "house-teams":
            sit_and_start(page, live_server.url, str(room.code), str(secret))
        else:
            sit(page, live_server.url, str(room.code), str(secret))
        page.wait_for_function("() => !document.querySelector('#table').dataset.presenting")
        expect(page.locator('#opponents .seat[data-seat="2"] .badge.team')).to_have_text("partner")
        expect(page.locator("#scoreboard tbody tr").first).to_contain_text("You · team A")
        for seat in (1, 3):
            expect(page.locator(f'#opponents .seat[data-seat="{seat}"] .badge.team')).to_have_text("team B")
        expect(page.locator("#my-seat .seat.team-0")).to_be_visible()
        watch.screenshot(shot)
        assert not watch.real_errors(), watch.errors
