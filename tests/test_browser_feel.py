"""The game's feel in the browser: sounds and the mute switch, the settings menu, the turn's cue in
the tab title, the decision dialogs on a phone, the round's results and the replay's title.

Sounds are counted by wrapping ``AudioScheduledSourceNode.start`` (oscillators and noise bursts)
before the page loads; the page's visibility is emulated by replacing ``document.hidden``.
Fixed games (``FixedSetup`` with a stacked deck) make the dialogs and results the same at every run.
Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from browser_support import (  # noqa: F401  (fixtures, used by their names)
    ARTIFACTS,
    browser_fixture,
    live_server_fixture,
    open_page_fixture,
    playwright_instance_fixture,
    wait_for_my_move,
)
from test_browser import create_room, fill_with_bots_and_start, my_move
from unokit.engine.cards import card_name
from unokit.engine.deck import stacked_deck
from unokit.engine.rules import Rules
from unokit.web.rooms import FixedSetup, RoomSettings

if TYPE_CHECKING:
    from collections.abc import Callable

    from browser_support import LiveServer, PageWatch

    OpenPage = Callable[..., PageWatch]

PHONE = {"width": 375, "height": 667}
TALL_PHONE = {"width": 390, "height": 844}

COUNT_SOUNDS = """
window.__sounds = 0;
const realStart = AudioScheduledSourceNode.prototype.start;
AudioScheduledSourceNode.prototype.start = function (...args) {
  window.__sounds += 1;
  return realStart.apply(this, args);
};
"""

EMULATE_VISIBILITY = """
window.__hidden = false;
Object.defineProperty(Document.prototype, "hidden", { configurable: true, get() { return window.__hidden; } });
Object.defineProperty(Document.prototype, "visibilityState", {
  configurable: true, get() { return window.__hidden ? "hidden" : "visible"; } });
window.__setHidden = (hidden) => { window.__hidden = hidden; document.dispatchEvent(new Event("visibilitychange")); };
window.__titles = [];
document.addEventListener("DOMContentLoaded", () => {
  const note = () => { if (window.__titles.at(-1) !== document.title) window.__titles.push(document.title); };
  note();
  new MutationObserver(note).observe(document.head, { subtree: true, childList: true, characterData: true });
});
window.__notes = [];
window.Notification = class {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
  addEventListener() {}
  close() {}
};
"""


def sounds(page: Page) -> int:
    return int(page.evaluate("window.__sounds"))


def my_turn(page: Page) -> None:
    """Wait until this page is asked a decision."""
    page.wait_for_function(
        """() => document.querySelector('#decision:not([hidden]) button.option:not([disabled])')
            || document.querySelector('#hand button.card.playable:not([disabled])')
            || document.querySelector('#actions button[data-action="draw"]:not([disabled])')"""
    )


def end_my_turn(page: Page) -> None:
    """Make moves (a card, a dialog's choice, a draw, a pass) until this page's turn is over."""
    for _ in range(8):
        if my_move(page) == "results":
            return
        try:
            page.wait_for_function("() => !document.body.classList.contains('my-turn')", timeout=1500)
            return
        except PlaywrightTimeoutError:
            continue  # a choice opened (how to play the card, a colour): answer it
    raise AssertionError("the turn did not end")


def fixed_room(
    live: LiveServer, edition: str, rules: dict[str, Any], hands: list[list[str]], start: str, draws: list[str]
) -> tuple[str, str]:
    """A room of ``len(hands)`` seats whose deal is fixed: seat 0 (Ann, the host) plays first."""
    players = len(hands)
    dealer = players - 1
    deck = stacked_deck(edition, hands, start, draws, dealer=dealer, rules=Rules.from_dict(rules))
    setup = FixedSetup(2**40 + 11, tuple(card_name(card) for card in deck), dealer=dealer)
    settings = RoomSettings(edition, players, dict(rules), "heuristic")
    room, secret = live.call(lambda: live.hub.create(settings, "Ann", setup))
    return str(room.code), str(secret)


def seat_ann(live: LiveServer, page: Page, code: str, secret: str) -> None:
    """Ann takes her seat (made in code), fills the other seats with bots and starts."""
    page.goto(live.url + "/")
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"unokit.seat.{code}", json.dumps({"secret": secret, "seat": 0})],
    )
    page.goto(f"{live.url}/r/{code}")
    expect(page.locator("#lobby")).to_be_visible()
    fill_with_bots_and_start(page)


def boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


# ---------------------------------------------------------------- sound


def test_sounds_play_on_your_turn_and_a_play_and_mute_is_remembered(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    watch = open_page()
    page = watch.page
    page.add_init_script(COUNT_SOUNDS)
    create_room(page, live_server.url, name="Ann", seats=3)
    fill_with_bots_and_start(page)
    wait_for_my_move(page)
    page.wait_for_function("window.__sounds > 0")  # the turn's sound (the clicks before unlocked the audio)
    before = sounds(page)
    end_my_turn(page)
    page.wait_for_function("n => window.__sounds > n", arg=before)  # the play's (or the draw's) sound

    mute = page.locator("#mute-toggle")
    expect(mute).to_have_attribute("aria-pressed", "false")
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    watch.reload()
    expect(page.locator("#table")).to_be_visible()
    expect(mute).to_have_attribute("aria-pressed", "true")  # remembered
    page.click("#room-label")  # a gesture: the audio could start, but nothing may sound
    for _ in range(2):
        wait_for_my_move(page)
        end_my_turn(page)
    wait_for_my_move(page)
    assert sounds(page) == 0, "a sound was scheduled while muted"
    watch.screenshot("feel-muted-table")
    assert not watch.real_errors(), watch.errors


# ---------------------------------------------------------------- settings


def test_settings_menu_changes_colour_blind_and_speed_and_they_survive_a_reload(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    watch = open_page()
    page = watch.page
    page.goto(live_server.url + "/")
    root = page.locator("html")
    expect(root).not_to_have_attribute("data-colour-blind", "")
    expect(root).to_have_attribute("data-speed", "normal")
    button = page.locator("#settings-button")
    button.focus()
    page.keyboard.press("Enter")  # keyboard: open, tick the colour-blind box with Space, Escape closes
    menu = page.locator("#settings-menu")
    expect(menu).to_be_visible()
    expect(button).to_have_attribute("aria-expanded", "true")
    page.locator("#pref-colour-blind").focus()
    page.keyboard.press("Space")
    expect(root).to_have_attribute("data-colour-blind", "")
    page.locator('#settings-menu input[value="fast"]').check()
    expect(root).to_have_attribute("data-speed", "fast")
    watch.screenshot("feel-settings-menu")
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    assert page.evaluate("document.activeElement.id") == "settings-button"

    watch.reload()
    expect(root).to_have_attribute("data-colour-blind", "")
    expect(root).to_have_attribute("data-speed", "fast")
    button.click()
    expect(page.locator("#pref-colour-blind")).to_be_checked()
    expect(page.locator('#settings-menu input[value="fast"]')).to_be_checked()
    page.locator('#settings-menu input[value="slow"]').check()
    page.locator("#pref-colour-blind").uncheck()
    expect(root).to_have_attribute("data-speed", "slow")
    expect(root).not_to_have_attribute("data-colour-blind", "")
    assert not watch.real_errors(), watch.errors


# ---------------------------------------------------------------- attention


def test_tab_title_cues_your_turn_while_hidden_and_is_restored(live_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page()
    page = watch.page
    page.add_init_script(EMULATE_VISIBILITY)
    create_room(page, live_server.url, name="Ann", seats=3)
    page.click("#settings-button")
    page.locator("#pref-notify").check()  # the (emulated) browser allows notifications
    page.keyboard.press("Escape")
    fill_with_bots_and_start(page)
    wait_for_my_move(page)
    assert page.title() == "unokit"
    page.evaluate("window.__setHidden(true)")  # the player looks at another tab during their turn
    expect(page).to_have_title("● Your turn — unokit")
    assert page.evaluate("window.__notes.length") == 0  # a turn that began before: the title only
    end_my_turn(page)  # (played from the page all the same): not their turn any more...
    # ... then their turn comes back while the page is hidden: the cue again, and a notification
    page.wait_for_function("() => window.__notes.length > 0")
    expect(page).to_have_title("● Your turn — unokit")
    assert page.evaluate("window.__notes[0].title") == "Your turn in unokit"
    cue, plain = "● Your turn — unokit", "unokit"
    titles = page.evaluate("window.__titles")
    assert titles[titles.index(cue) :][:3] == [cue, plain, cue], titles  # restored between the turns
    page.evaluate("window.__setHidden(false)")
    expect(page).to_have_title("unokit")
    assert not watch.real_errors(), watch.errors


# ---------------------------------------------------------------- decision dialogs


def test_colour_choice_shows_the_hand_and_does_not_cover_it_on_a_phone(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    rules = {"hand_size": 7}
    hands = [["W", "R1", "R2", "R4", "B3", "G4", "G6"], ["B5", "Y9", "GS", "B8", "Y6", "G7", "Y1"]]
    for viewport, name in ((PHONE, "phone"), (TALL_PHONE, "phone-tall")):
        code, secret = fixed_room(live_server, "classic", rules, hands, "Y5", [])
        watch = open_page(viewport=viewport)
        page = watch.page
        seat_ann(live_server, page, code, secret)
        my_turn(page)
        page.click('#hand .card.playable[data-card="W"]')
        dialog = page.locator("#decision .decision-box")
        expect(page.locator("#decision-title")).to_have_text("Choose a colour")
        shown = page.locator("#decision-hand .card")
        expect(shown).to_have_count(6)  # the hand after the Wild, in the dialog
        counts = {
            colour: page.locator(f"#decision-options button.c-{colour} .colour-count").inner_text()
            for colour in ("red", "yellow", "green", "blue")
        }
        assert counts == {
            "red": "3 in your hand",
            "yellow": "0 in your hand",
            "green": "2 in your hand",
            "blue": "1 in your hand",
        }, counts
        page.wait_for_timeout(50)  # the dialog's placement scrolls in the same frame; let the layout settle
        hand = page.locator("#hand")
        dialog_box, hand_box = dialog.bounding_box(), hand.bounding_box()
        assert dialog_box and hand_box
        assert not boxes_overlap(dialog_box, hand_box), (dialog_box, hand_box)
        assert hand_box["y"] + hand_box["height"] <= viewport["height"] + 1 and hand_box["y"] >= 0, hand_box
        assert dialog_box["y"] >= 0 and dialog_box["y"] + dialog_box["height"] <= viewport["height"]
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], width
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"feel-colour-choice-{name}.png"))  # the screen as the player sees it
        page.click("#decision-options button.c-red")
        expect(page.locator("#current-colour")).to_contain_text("red")
        assert not watch.real_errors(), watch.errors


def test_target_picker_names_yourself_you(live_server: LiveServer, open_page: OpenPage) -> None:
    # UNO Wild Jackpot, a Jackpot turned up at the start: Ann, left of the dealer, chooses any player
    # (herself included), who performs a rule card
    rules = {"hand_size": 3}
    code, secret = fixed_room(
        live_server, "wild-jackpot", rules, [["R1", "B2", "G3"], ["Y4", "B5", "G6"], ["R7", "Y8", "B9"]], "R$", []
    )
    watch = open_page()
    page = watch.page
    seat_ann(live_server, page, code, secret)
    options = page.locator("#decision-options button.target-option")
    expect(options).to_have_count(3)
    mine = page.locator('#decision-options button.target-option[data-seat="0"]')
    expect(mine.locator(".target-who strong")).to_have_text("You")
    expect(mine.locator(".target-what")).to_have_text("You perform a rule card")
    expect(page.locator('#decision-options button.target-option[data-seat="1"] .target-who strong')).to_have_text(
        "Bot 1"
    )
    assert "Ann" not in page.inner_text("#decision"), page.inner_text("#decision")
    watch.screenshot("feel-target-picker")
    assert not watch.real_errors(), watch.errors


# ---------------------------------------------------------------- results


# Ann plays R7, R3 (calling UNO), R1 and goes out; the bots can match none of her cards nor their draws.
RESULT_HANDS = [["R7", "R3", "R1"], ["B5", "Y9", "GS"], ["G8", "Y6", "BR"]]
RESULT_DRAWS = ["B2", "G9", "Y4", "B6"]
LEFT = {1: ["B2", "B5", "GS", "Y4", "Y9"], 2: ["B6", "BR", "G8", "G9", "Y6"]}
POINTS = {1: 40, 2: 49}


def play_out(page: Page) -> None:
    """Ann plays her three red cards, the second with the UNO call."""
    for card in ("R7", "R3", "R1"):
        my_turn(page)
        arm = page.locator('#uno-button[data-uno="arm"]')  # UNO pressed before the card, where the table has it
        if card == "R3" and arm.count():
            arm.click()
        page.click(f'#hand .card.playable[data-card="{card}"]')
        if card == "R3":  # else the page asks how to play it: with the UNO call
            page.wait_for_function(
                """() => document.querySelector('#decision-options button[data-action="R3!"]')
                    || !document.querySelector('#hand [data-card="R3"]')"""
            )
            if page.locator('#decision-options button[data-action="R3!"]').count():
                page.click('#decision-options button[data-action="R3!"]')
    expect(page.locator("#results")).to_be_visible()


def check_hands(page: Page, unit: str) -> None:
    """Each bot's hand is shown card by card with its points (or count), in the server's order."""
    for seat, cards in LEFT.items():
        row = page.locator(f'#results-hands tr[data-seat="{seat}"]')
        shown = row.locator(".result-card .card")
        assert sorted(shown.evaluate_all("cards => cards.map(c => c.dataset.card)")) == cards
        total = row.locator(".hand-total")
        expect(total).to_have_text(f"{POINTS[seat]} pts" if unit == "pts" else f"{len(cards)} cards")
        if unit == "pts":
            points = [int(text) for text in row.locator(".card-points").all_inner_texts()]
            assert sum(points) == POINTS[seat], points
    expect(page.locator('#results-hands tr[data-seat="0"] .badge.out')).to_be_visible()


def test_round_results_count_the_hands_and_match_the_server_scores(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    rules = {"hand_size": 3}
    for viewport, name in (({"width": 1366, "height": 768}, "desktop"), (PHONE, "phone")):
        code, secret = fixed_room(live_server, "classic", rules, RESULT_HANDS, "R5", RESULT_DRAWS)
        watch = open_page(viewport=viewport)
        page = watch.page
        page.emulate_media(reduced_motion="no-preference")
        seat_ann(live_server, page, code, secret)
        play_out(page)
        results = page.locator("#results")
        expect(results).to_have_attribute("data-counted", "true", timeout=15_000)
        expect(page.locator("#results-title")).to_have_text("You win round 1!")
        expect(page.locator("#results-sub")).to_have_text("You collect the 89 points left in the other hands.")
        expect(page.locator('#results-hands tr[data-seat="0"] .hand-total')).to_have_text("+89")
        check_hands(page, "pts")
        scores: list[int] = live_server.call(lambda code=code: list(live_server.room(code).game.scores))
        assert scores == [89, 0, 0]
        shown = page.locator("#results-scores tr").evaluate_all(
            "rows => rows.map(r => Number(r.querySelector('.score').textContent))"
        )
        assert shown == scores
        expect(page.locator('#results-scores tr[data-seat="0"] .gain')).to_have_text("+89")
        if name == "phone":
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], width
        watch.screenshot(f"feel-round-results-{name}")
        page.click("#results-close")
        expect(results).to_be_hidden()
        assert not watch.real_errors(), watch.errors


def test_single_round_results_show_no_points_table_and_the_replay_names_the_edition(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    rules = {"hand_size": 3, "scoring": "single-round"}
    code, secret = fixed_room(live_server, "classic", rules, RESULT_HANDS, "R5", RESULT_DRAWS)
    watch = open_page(viewport=TALL_PHONE)
    page = watch.page
    page.emulate_media(reduced_motion="reduce")
    seat_ann(live_server, page, code, secret)
    play_out(page)
    expect(page.locator("#results")).to_have_attribute("data-counted", "true")  # at once: no motion
    assert page.locator("#confetti > *").count() == 0
    expect(page.locator("#results-title")).to_have_text("You win!")
    expect(page.locator("#results-sub")).to_have_text("You went out first.")
    check_hands(page, "cards")
    expect(page.locator("#results-scores")).to_be_hidden()  # no table of zeros under the hands
    expect(page.locator("#results-scores-title")).to_be_hidden()
    assert not re.search(r"\d+ pts", page.inner_text("#results")), page.inner_text("#results")
    expect(page.locator("#results-note")).to_contain_text("No points are counted")
    watch.screenshot("feel-single-round-results-phone")

    # the replay, opened afresh on a phone, is titled with the edition's name, not its id
    viewer = open_page(viewport=PHONE)
    viewer.page.goto(f"{live_server.url}/replay/{code}")
    meta = viewer.page.locator("#replay-meta .replay-edition")
    expect(meta).to_have_text("Classic UNO")
    expect(viewer.page.locator("#replay-pos")).to_contain_text("step 0 of")
    width = viewer.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    viewer.screenshot("feel-replay-phone")
    assert not watch.real_errors(), watch.errors
    assert not viewer.real_errors(), viewer.errors


# ---------------------------------------------------------------- words: no raw ids, plurals, UNO as a race

RAW_ID = re.compile(r"\b[a-z]+-[a-z]+(?:-[a-z]+)?\b")


def server_ids(page: Page) -> set[str]:
    """The server's hyphenated ids: editions, scoring methods, lever outcomes, phases."""
    options = page.evaluate("fetch('/api/options').then(r => r.json())")
    from unokit.editions.wild_jackpot import WildJackpot
    from unokit.engine.phases import PHASE_NAMES
    from unokit.engine.rules import LEVER_OUTCOMES

    ids = {*options["editions"], *options["rules"]["scoring"]["choices"], *LEVER_OUTCOMES, *PHASE_NAMES}
    ids.update(WildJackpot.phase_names)
    return {word for word in ids if "-" in word}


def raw_ids(page: Page, ids: set[str]) -> set[str]:
    text = str(page.evaluate("document.body.innerText"))
    return {word for word in RAW_ID.findall(text) if word in ids}


def test_table_results_and_replay_show_words_not_ids_and_count_one_point(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    rules = {"hand_size": 3, "target_score": 1}  # the first round decides the match: "the first to 1 point"
    code, secret = fixed_room(live_server, "classic", rules, RESULT_HANDS, "R5", RESULT_DRAWS)
    watch = open_page(viewport={"width": 1366, "height": 768})
    page = watch.page
    page.emulate_media(reduced_motion="reduce")
    seat_ann(live_server, page, code, secret)
    ids = server_ids(page)
    assert "winner-collects" in ids and "rule-run" in ids
    expect(page.locator("#round-info")).to_have_text("Round 1 · to 1 point · winner collects the others' points")
    assert not raw_ids(page, ids)
    watch.screenshot("feel-words-table")
    play_out(page)
    expect(page.locator("#results")).to_have_attribute("data-counted", "true")
    expect(page.locator("#results-note")).to_have_text("The first to 1 point wins.")
    expect(page.locator("#results-sub")).to_contain_text("You reach 89 points.")
    expect(page.locator("#results-sub")).to_contain_text("The match took 1 round.")
    assert not raw_ids(page, ids)
    watch.screenshot("feel-words-results")
    page.goto(f"{live_server.url}/replay/{code}")
    expect(page.locator("#replay-pos")).to_contain_text("step 0 of")
    page.keyboard.press("End")
    expect(page.locator("#replay-pos")).not_to_contain_text("step 0 of")
    assert not raw_ids(page, ids)
    assert not watch.real_errors(), watch.errors


def test_drawn_card_dialog_offers_uno_as_the_race_button_not_with_the_card(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    # Ann holds B2 and draws R9, playable on R5: playing it leaves her one card
    for viewport, name in (({"width": 1366, "height": 768}, "desktop"), (PHONE, "phone")):
        code, secret = fixed_room(live_server, "classic", {"hand_size": 1}, [["B2"], ["G8"]], "R5", ["R9", "G4"])
        watch = open_page(viewport=viewport)
        page = watch.page
        seat_ann(live_server, page, code, secret)
        page.click("#draw-pile:not([disabled])")
        dialog = page.locator("#decision")
        expect(dialog.locator("#decision-title")).to_have_text("You drew a card")
        expect(dialog.locator('#decision-options button[data-action="R9"]')).to_be_visible()
        expect(dialog.locator('#decision-options button[data-action$="!"]')).to_have_count(0)  # no call handed over
        uno = dialog.locator("#uno-button")
        expect(uno).to_be_visible()
        expect(page.locator("#uno-button")).to_have_count(1)  # the same race button, in the dialog only
        page.keyboard.press("u")
        expect(uno).to_have_attribute("aria-pressed", "true")
        watch.screenshot(f"feel-drawn-uno-{name}")
        dialog.locator('#decision-options button[data-action="R9"]').click()
        expect(page.locator("#me-label")).to_contain_text("UNO!")  # the card went with the call (R9!)
        assert not watch.real_errors(), watch.errors
