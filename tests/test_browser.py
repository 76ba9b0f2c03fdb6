"""The browser client against the real server: Playwright driving Debian's Chromium, headless.

Each test goes through the page as a player would (forms, clicks, keys); the server runs
on loopback with quick bots.  Screenshots are saved in ``test-artifacts/``.
"""

from __future__ import annotations

import json
import re
import time
from typing import TYPE_CHECKING, Any

from playwright.sync_api import Page, expect

from browser_support import (  # noqa: F401  (fixtures, used by their names)
    browser_fixture,
    live_server_fixture,
    open_page_fixture,
    playwright_instance_fixture,
    try_click,
    wait_for_my_move,
)
from unokit.engine.cards import COLOUR_NAMES, card_name
from unokit.engine.deck import stacked_deck
from unokit.engine.record import replay
from unokit.engine.rules import Rules
from unokit.web.rooms import FixedSetup, RoomSettings

if TYPE_CHECKING:
    from collections.abc import Callable

    from browser_support import LiveServer, PageWatch

    OpenPage = Callable[..., PageWatch]


ROUND_SECONDS = 120.0  # a round of ten cards each at table pace: 45 moves took over 60 s once on two loaded cores
"""A whole round through the page must end within this time."""


# ---------------------------------------------------------------- helpers


def create_room(
    page: Page,
    url: str,
    *,
    name: str = "Ann",
    edition: str = "classic",
    seats: int = 3,
    target: int | None = None,
    rules: dict[str, str] | None = None,
) -> str:
    """Create a room through the start page; returns its code once the lobby shows."""
    page.goto(url + "/")
    page.wait_for_selector("#create-form [name=edition] option", state="attached")
    page.fill("#create-form [name=name]", name)
    page.select_option("#create-form [name=edition]", edition)
    page.fill("#create-form [name=seats]", str(seats))
    if target is not None:
        page.fill("#create-form [name=target_score]", str(target))
    if rules:
        page.click("#more-rules summary")
        for option, value in rules.items():
            page.fill(f'#create-form [name="rule.{option}"]', value)
    page.click("#create-form button[type=submit]")
    expect(page.locator("#lobby")).to_be_visible()
    expect(page.locator("#lobby-seats li")).to_have_count(seats)
    code = page.inner_text("#lobby-code").strip()
    assert re.fullmatch(r"[A-Z0-9]{8}", code), code
    return code


def fill_with_bots_and_start(page: Page) -> None:
    page.click("#fill-bots")
    expect(page.locator('#lobby-seats li[data-kind="open"]')).to_have_count(0)
    expect(page.locator("#start-game")).to_be_enabled()
    page.click("#start-game")
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#top-card .card")).to_have_count(1)


def hand_cards(page: Page) -> list[str]:
    return [str(card) for card in page.eval_on_selector_all("#hand .card", "cards => cards.map(c => c.dataset.card)")]


def my_move(page: Page, use_keys: bool = False) -> str | None:
    """Make one move if one is asked of this page: answer a dialog, play a playable card, else draw or pass.
    Returns what was done (``None``: nothing to do yet)."""
    if page.locator("#results:not([hidden])").count():
        return "results"
    if try_click(page, "#decision:not([hidden]) #decision-options button.option:not([disabled])"):
        return "dialog"
    playable = page.locator("#hand button.card.playable:not([disabled])")
    if playable.count():
        if use_keys:
            index = int(playable.first.get_attribute("data-index") or "0")
            if index < 9:
                page.keyboard.press(str(index + 1))
                page.keyboard.press("Enter")
                return "card-by-keys"
        if try_click(page, "#hand button.card.playable:not([disabled])"):
            return "card"
    if page.locator('#actions button[data-action="draw"]:not([disabled])').count():
        if use_keys:
            page.keyboard.press("d")
            return "draw-by-keys"
        if try_click(page, '#actions button[data-action="draw"]:not([disabled])'):
            return "draw"
    if try_click(page, '#actions button[data-action="pass"]:not([disabled])'):
        return "pass"
    return None


def log_lines(page: Page) -> list[str]:
    return [str(text) for text in page.eval_on_selector_all("#log li", "items => items.map(item => item.textContent)")]


def real_hands(live: LiveServer, code: str) -> list[list[str]]:
    """The hands as the server holds them (read on the server's event loop)."""

    def read() -> list[list[str]]:
        game = live.room(code).game
        assert game is not None
        return [sorted(card_name(card) for card in hand) for hand in game.hands]

    result: list[list[str]] = live.call(read)
    return result


def real_errors(watch: PageWatch) -> list[str]:
    """Script errors but one note of a failed socket per socket the test cut (:meth:`PageWatch.real_errors`)."""
    return watch.real_errors()


# ---------------------------------------------------------------- tests


def test_create_fill_start_and_play_a_whole_round_with_a_reload(live_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page()
    page = watch.page
    # ten cards each: the round lasts long enough for a reload and a dropped connection on the way
    code = create_room(page, live_server.url, name="Ann", seats=3, target=1, rules={"hand_size": "10"})
    expect(page.locator("#lobby-rules")).to_contain_text("Cards dealt: 10")
    expect(page.locator("#lobby-rules")).to_contain_text("Target score: 1")
    invite = page.input_value("#invite-link")
    assert invite == f"{live_server.url}/r/{code}"
    assert page.url == f"{live_server.url}/r/{code}"
    fill_with_bots_and_start(page)
    wait_for_my_move(page)  # the game waits for this player: the hand stays as it is
    shown = hand_cards(page)
    assert len(shown) >= 10 and sorted(shown) == real_hands(live_server, code)[0]
    expect(page.locator("#opponents .seat")).to_have_count(2)
    expect(page.locator("#log li").first).to_be_visible()
    watch.screenshot("table")

    moves: list[str] = []
    reloaded = dropped = False
    deadline = time.monotonic() + ROUND_SECONDS
    while time.monotonic() < deadline:
        wait_for_my_move(page)
        if len(moves) == 2 and not reloaded:
            # reload mid-game: the same seat comes back with the same hand, and play goes on
            before = hand_cards(page)
            assert sorted(before) == real_hands(live_server, code)[0]
            watch.reload()
            expect(page.locator("#table")).to_be_visible()
            expect(page.locator("#hand .card")).to_have_count(len(before))
            assert hand_cards(page) == before
            expect(page.locator("#me-label")).to_contain_text("You")
            expect(page.locator("#log li").first).to_be_visible()
            assert page.evaluate(f"JSON.parse(localStorage.getItem('unokit.seat.{code}')).seat") == 0
            reloaded = True
            continue
        if len(moves) == 4 and not dropped:
            # the connection drops: the page reconnects, resumes from its version, and nothing is told twice
            told = log_lines(page)
            sockets = len(watch.sockets)
            watch.drop_socket()
            expect(page.locator("#conn")).to_have_attribute("data-status", "reconnecting")
            expect(page.locator("#conn")).to_have_attribute("data-status", "connected")
            wait_for_my_move(page)
            assert len(watch.sockets) == sockets + 1
            assert log_lines(page)[: len(told)] == told
            assert sorted(hand_cards(page)) == real_hands(live_server, code)[0]
            dropped = True
            continue
        done = my_move(page, use_keys=len(moves) % 3 == 1)
        if done == "results":
            break
        if done is not None:
            moves.append(done)
            page.wait_for_timeout(30)
    else:
        raise AssertionError(f"the round did not end in {ROUND_SECONDS} s; moves: {moves}")

    assert reloaded and dropped
    assert any(move.endswith("by-keys") for move in moves), moves
    assert any(move.startswith("card") for move in moves), moves
    results = page.locator("#results")
    expect(results).to_be_visible()
    expect(page.locator("#results-title")).to_have_text(re.compile(r"(You win|\S.* wins) the match!"))
    rows = page.locator("#results-hands tr")
    expect(rows).to_have_count(3)
    assert page.locator("#results-hands .card").count() > 0  # the cards counted
    expect(page.locator("#results-hands")).to_contain_text("pts")
    expect(page.locator("#results-scores tr")).to_have_count(3)
    watch.screenshot("round-results")
    assert not real_errors(watch), watch.errors

    # the finished match replays from its record, move by move, on the table as a spectator saw it
    check_replay(watch, live_server, code)
    assert not real_errors(watch), watch.errors


def replay_table(page: Page) -> dict[str, Any]:
    """What the replay's table shows: the top card, the colour, and every seat's card count."""
    shown: dict[str, Any] = page.evaluate(
        """() => ({
            top: document.querySelector('#top-card .card')?.dataset.card ?? null,
            colour: document.querySelector('#current-colour').textContent,
            counts: Object.fromEntries(Array.from(document.querySelectorAll('#opponents .seat'))
                .map(s => [s.dataset.seat, Number(s.dataset.count)])),
            hand: document.querySelectorAll('#hand .card').length,
        })"""
    )
    return shown


def expected_table(record: dict[str, Any], step: int) -> dict[str, Any]:
    """The table at ``step`` as the server's replay of the record shows it to a spectator."""
    view = replay(record, upto=step).view(None)
    colour = COLOUR_NAMES[view.colour] if 0 <= view.colour < len(COLOUR_NAMES) else None
    return {
        "top": card_name(view.top_card),
        "colour": "Colour: choosing…" if view.phase == "colour" else f"Colour: {colour}" if colour else "No colour",
        "counts": {str(seat): size for seat, size in enumerate(view.hand_sizes)},
        "hand": 0,
    }


def check_replay(watch: PageWatch, live: LiveServer, code: str) -> None:
    """Open the replay from the results and step through it: the table follows the record."""
    page = watch.page
    record: dict[str, Any] = live.call(lambda: live.hub.storage.load_record(code))
    steps = len(record["actions"])
    page.click("#results-replay")
    expect(page.locator("#replay")).to_be_visible()
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#replay-meta")).to_contain_text(f"{steps} moves")
    position = page.locator("#replay-pos")

    def at(step: int) -> dict[str, Any]:
        expect(position).to_have_text(f"step {step} of {steps}")
        expected = expected_table(record, step)
        page.wait_for_function(
            "want => document.querySelector('#top-card .card')?.dataset.card === want", arg=expected["top"]
        )
        shown = replay_table(page)
        assert shown == expected, (step, shown, expected)
        assert page.input_value("#replay-slider") == str(step)
        return shown

    tables = [at(0)]
    expect(page.locator("#hand-area")).to_be_hidden()
    expect(page.locator("#spectating")).to_be_visible()
    expect(page.locator("#replay-first")).to_be_disabled()
    page.click("#replay-next")
    tables.append(at(1))
    expect(page.locator("#log li.current").first).to_be_visible()
    page.keyboard.press("ArrowRight")
    tables.append(at(2))
    page.keyboard.press("ArrowRight")
    tables.append(at(3))
    page.keyboard.press("ArrowLeft")
    assert at(2) == tables[2]
    page.click("#replay-prev")
    assert at(1) == tables[1]
    assert any(table != tables[0] for table in tables[1:]), "the table changes as the match is replayed"
    middle = steps // 2
    page.eval_on_selector(
        "#replay-slider",
        "(slider, value) => { slider.value = String(value); slider.dispatchEvent(new Event('input')); }",
        middle,
    )
    at(middle)
    watch.screenshot("replay-table")
    page.click("#replay-last")
    at(steps)
    expect(page.locator("#replay-next")).to_be_disabled()
    expect(page.locator("#status")).to_contain_text("Match over")
    expect(page.locator("#replay-action")).to_contain_text("win")
    page.click("#replay-first")
    at(0)
    watch.screenshot("replay")


def test_spectator_sees_no_hand(live_server: LiveServer, open_page: OpenPage) -> None:
    host = open_page()
    hostile_name = "<i id=pwn>Host</i>"  # shown as typed, never as markup
    code = create_room(host.page, live_server.url, name=hostile_name, seats=4)
    fill_with_bots_and_start(host.page)
    for _ in range(2):  # a few moves so the bots play too
        wait_for_my_move(host.page)
        my_move(host.page)
        host.page.wait_for_timeout(100)

    watcher = open_page()
    page = watcher.page
    page.goto(f"{live_server.url}/r/{code}")
    expect(page.locator("#join")).to_be_visible()
    page.click("#watch")
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#top-card .card")).to_have_count(1)
    expect(page.locator("#opponents .seat")).to_have_count(4)
    expect(page.locator('#opponents .seat[data-seat="0"] .seat-name')).to_have_text(hostile_name)
    assert page.locator("#pwn").count() == 0 and host.page.locator("#pwn").count() == 0
    expect(page.locator("#spectating")).to_be_visible()
    expect(page.locator("#hand-area")).to_be_hidden()
    assert page.locator("#hand .card").count() == 0
    assert page.locator("#decision:not([hidden])").count() == 0
    # the only card faces on the page are public: the top card
    outside = page.evaluate(
        "Array.from(document.querySelectorAll('[data-card]'))"
        ".filter(e => !e.closest('#top-card, #results, #fx')).length"
    )
    assert outside == 0

    # no hidden hand reached the spectator: not in the page, not in any message
    wait_for_my_move(host.page)  # the game now waits for the host: the hands stay as they are
    hands = real_hands(live_server, code)
    assert sorted(hand_cards(host.page)) == hands[0]
    text = page.inner_text("body")
    for hand in hands:
        assert len(hand) < 2 or " ".join(hand) not in text
    assert not re.search(r"dealt \d+ cards:", text)
    updates = watcher.messages("update")
    assert updates
    for update in updates:
        assert update["view"]["hand"] == []
        assert update["legal"] == []
        for event in update["events"]:
            if event["kind"] in ("deal", "draw", "reveal", "take", "give"):
                assert event["cards"] == [], event
    watcher.screenshot("spectator")
    # a reload goes on watching (the address says so), with no hand
    watcher.reload()
    expect(page.locator("#spectating")).to_be_visible()
    expect(page.locator("#join")).to_be_hidden()
    expect(page.locator("#hand-area")).to_be_hidden()
    assert not real_errors(watcher) and not real_errors(host)


def test_wild_jackpot_lobby_reads_rule_cards_as_they_are_written(live_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page()
    page = watch.page
    create_room(page, live_server.url, name="Ann", edition="wild-jackpot", seats=3)
    expect(page.locator("#rule-cards")).to_be_visible()
    inputs = page.locator("#rule-inputs input")
    expect(inputs).to_have_count(2)  # 8 rule cards shared by 3 players: 2 each

    inputs.nth(0).fill("Give 2 cards to the player on your left")
    reading0 = page.locator('#rule-inputs .reading[data-index="0"]')
    expect(reading0).to_have_text("Enforced: give 2 cards of your choice to the player on your left")
    expect(reading0).to_have_class(re.compile(r"\benforced\b"))

    hostile = '<img src=x onerror="window.pwned=1">Make chicken noises'
    inputs.nth(1).fill(hostile)
    reading1 = page.locator('#rule-inputs .reading[data-index="1"]')
    expect(reading1).to_have_text("Honour task: everyone sees it and you confirm when done")
    expect(reading1).to_have_class(re.compile(r"\bhonour\b"))

    inputs.nth(0).fill("Everyone draws two cards")  # the reading follows the text as it changes
    expect(reading0).to_have_text("Enforced: every player draws 2 cards, you included")

    page.click("#rule-cards button[type=submit]")
    expect(page.locator("#rule-status")).to_contain_text("Submitted 2 rule cards")
    expect(page.locator('#lobby-seats li[data-seat="0"]')).to_contain_text("cards written")
    watch.screenshot("lobby-wild-jackpot")

    fill_with_bots_and_start(page)
    expect(page.locator("#rules-shown-panel")).to_be_visible()
    expect(page.locator("#dispenser")).to_contain_text("in the dispenser")
    assert page.evaluate("window.pwned") is None
    assert page.locator("img:not(#invite-qr)").count() == 0  # the invite's QR code is the page's one image
    assert not real_errors(watch), watch.errors


def test_phone_sized_table(live_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page(viewport={"width": 375, "height": 667})
    page = watch.page
    create_room(page, live_server.url, name="Pia", seats=4)
    watch.screenshot("phone-lobby")
    fill_with_bots_and_start(page)
    wait_for_my_move(page)
    cards = page.locator("#hand .card")
    assert cards.count() >= 7
    watch.screenshot("phone-table")
    width: Any = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the table is {width} px wide on a 375 px screen"
    for box in (cards.nth(i).bounding_box() for i in range(cards.count())):
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
    top = page.locator("#top-card .card").bounding_box()
    assert top is not None and top["x"] + top["width"] <= 375
    assert not real_errors(watch), watch.errors


UNO_RULES = {"hand_size": 2, "scoring": "single-round"}


def forgetful_room(live: LiveServer) -> tuple[str, str]:
    """A two-seat room whose deal is fixed (created in code, as no message can): Ann, first to
    play, holds Red 7 and Green 3 on a Red 5; Bob holds Blue 5 and Yellow 9."""
    deck = stacked_deck(
        "classic", [["R7", "G3"], ["B5", "Y9"]], "R5", ["B1", "Y2"], dealer=1, rules=Rules.from_dict(UNO_RULES)
    )
    setup = FixedSetup(2**40 + 3, tuple(card_name(card) for card in deck), dealer=1)
    settings = RoomSettings("classic", 2, dict(UNO_RULES), "heuristic")
    room, secret = live.call(lambda: live.hub.create(settings, "Ann", setup))
    return str(room.code), str(secret)


def seat_ann_and_bob(live: LiveServer, open_page: OpenPage) -> tuple[PageWatch, PageWatch]:
    """Ann (host, resuming the seat made in code) and Bob (joining by the invite) at the table;
    Ann has just played Red 7 without calling UNO, through the page."""
    code, secret = forgetful_room(live)
    ann_watch, bob_watch = open_page(), open_page()
    ann, bob = ann_watch.page, bob_watch.page
    ann.goto(live.url + "/")
    ann.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"unokit.seat.{code}", json.dumps({"secret": secret, "seat": 0})],
    )
    ann.goto(f"{live.url}/r/{code}")
    expect(ann.locator("#lobby")).to_be_visible()
    bob.goto(f"{live.url}/r/{code}")
    bob.fill("#join-form [name=name]", "Bob")
    bob.click("#join-form button[type=submit]")
    expect(bob.locator("#lobby")).to_be_visible()
    expect(ann.locator('#lobby-seats li[data-kind="open"]')).to_have_count(0)
    ann.click("#start-game")
    expect(ann.locator("#hand .card")).to_have_count(2)
    expect(bob.locator("#hand .card")).to_have_count(2)
    # the UNO button is there to press before the card goes down; Ann does not press it
    expect(ann.locator("#uno-button[data-uno=arm]")).to_be_visible()
    ann.click('#hand .card.playable[data-card="R7"]')
    expect(ann.locator("#hand .card")).to_have_count(1)
    return ann_watch, bob_watch


def test_catch_and_late_uno_buttons_follow_the_legal_actions(live_server: LiveServer, open_page: OpenPage) -> None:
    # Bob catches Ann, who did not call
    ann_watch, bob_watch = seat_ann_and_bob(live_server, open_page)
    ann, bob = ann_watch.page, bob_watch.page
    late_call = ann.locator('#actions button[data-action="uno"]')
    expect(late_call).to_be_visible()
    expect(ann.locator("#me-label")).to_contain_text("UNO not called!")
    ann_seat = bob.locator('#opponents .seat[data-seat="0"]')
    expect(ann_seat.locator(".badge.no-uno")).to_be_visible()
    expect(bob.locator('#actions button[data-action="catch@0"]')).to_be_visible()
    catch = ann_seat.locator("button.catch")
    expect(catch).to_be_visible()
    bob_watch.screenshot("uno-catch-offered")
    catch.click()
    expect(ann_seat).to_have_attribute("data-count", "3")
    expect(catch).to_have_count(0)
    expect(bob.locator('#actions button[data-action="catch@0"]')).to_have_count(0)
    expect(ann.locator("#hand .card")).to_have_count(3)
    expect(late_call).to_have_count(0)
    expect(ann.locator("#log")).to_contain_text("Bob catches you without UNO!")
    assert not real_errors(ann_watch) and not real_errors(bob_watch), (ann_watch.errors, bob_watch.errors)

    # in another room Ann calls late, with the UNO key, before Bob catches her: she is safe
    ann_watch, bob_watch = seat_ann_and_bob(live_server, open_page)
    ann, bob = ann_watch.page, bob_watch.page
    ann_seat = bob.locator('#opponents .seat[data-seat="0"]')
    expect(ann_seat.locator("button.catch")).to_be_visible()
    expect(ann.locator('#actions button[data-action="uno"]')).to_be_visible()
    ann.keyboard.press("u")
    expect(ann_seat.locator(".badge.uno")).to_be_visible()
    expect(ann_seat.locator("button.catch")).to_have_count(0)
    expect(bob.locator('#actions button[data-action="catch@0"]')).to_have_count(0)
    expect(ann.locator('#actions button[data-action="uno"]')).to_have_count(0)
    expect(ann.locator("#hand .card")).to_have_count(1)
    expect(bob.locator("#log")).to_contain_text("Ann calls UNO!")
    assert not real_errors(ann_watch) and not real_errors(bob_watch), (ann_watch.errors, bob_watch.errors)
