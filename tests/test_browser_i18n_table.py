"""The table and the guided game in every language, in the browser: with Chromium's locale set to
Spanish, French or German, a whole round (a colour to choose, a Wild Draw Four to challenge, the
round's results) and the guided game's coach show no English, cards are named with the server's
card terms, and long German words stay inside cards, buttons and dialogs.  The catalogs of the
table and of the guided game are complete in every language, with the plural categories Chromium
knows for it.

The event narration of the log and the ticker, the server's words for the moves (``asks``, the
labels of the actions) and the option labels are the server's: they are left out of the checks for
English, which cover the page's own words.

Playwright drives Debian's Chromium against the real server on loopback (see ``browser_support``);
screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, Page, expect

from browser_support import (  # noqa: F401  (fixtures, used by their names)
    PageWatch,
    browser_fixture,
    live_server_fixture,
    playwright_instance_fixture,
    try_click,
)
from unokit.engine.cards import card_name
from unokit.engine.deck import stacked_deck
from unokit.engine.rules import Rules
from unokit.web.rooms import FixedSetup, RoomSettings

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from playwright.sync_api import ViewportSize

    from browser_support import LiveServer

    OpenLocalized = Callable[[str, ViewportSize], PageWatch]

DESKTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 375, "height": 667}
LANGUAGES = ["es", "fr", "de"]
LOCALES = Path(__file__).resolve().parent.parent / "src" / "unokit" / "web" / "static" / "locales"
STATIC = LOCALES.parent
MODULES = [
    "table.js", "seats.js", "hand.js", "dialogs.js", "cards.js", "labels.js", "motion.js", "animation.js",
    "attention.js", "uno.js", "replay.js", "chat.js", "howto.js", "coach.js", "learn.js", "state.js",
]  # fmt: skip
"""The modules whose words are in the catalogs ``table`` and ``learn``."""

ENGLISH = re.compile(
    r"\b(You|Your|your|you|cards?|Cards?|Choose|colour|Colour|Draw|draw|Skip|Reverse|Wild|red|yellow|green|blue|"
    r"turn|next|dealer|wins|win|round|Round|Continue|Close|played|Challenge|hand|the|The|and|left|New|glowing|"
    r"Click|match|Match|Waiting|discarded|clockwise|counter-clockwise)\b"
)
"""English words of the page's table, dialogs, results and coach: none may show in another language
(case matters: German nouns such as "Hand" are German; "Bot" names are names)."""

# The deal: Ann (seat 0, first to play) holds a Wild to choose a colour with; Bot 1 can only answer
# the blue with its Blue 9; Bot 2 then has nothing but two Wild Draw Fours (the bot keeps a single
# wild card in reserve, not two): it plays one, which Ann may challenge.
HANDS = [
    ["W", "R3", "G2", "Y8", "B5"],
    ["B9", "Y6", "Y7", "G6", "G7"],
    ["W+4", "W+4", "Y1", "Y2", "G3"],
]
TOP = "R7"


def english_in(text: str) -> list[str]:
    return sorted(set(ENGLISH.findall(text)))


def english_context(text: str) -> list[str]:
    """Each English word found, with the words around it."""
    return [text[max(0, found.start() - 40) : found.end() + 40] for found in ENGLISH.finditer(text)]


def localized_room(live: LiveServer, seed: int, *, tutorial: bool = False) -> tuple[str, str]:
    """A room with a fixed deal: Ann (seat 0) plays first against two bots."""
    rules: dict[str, Any] = {"hand_size": len(HANDS[0])}
    if tutorial:
        rules["scoring"] = "single-round"
    deck = stacked_deck("classic", HANDS, TOP, dealer=2, rules=Rules.from_dict(rules))
    setup = FixedSetup(seed, tuple(card_name(card) for card in deck), dealer=2)
    settings = RoomSettings("classic", 3, rules, "heuristic", timer=0, tutorial=tutorial)
    room, secret = live.call(lambda: live.hub.create(settings, "Ann", setup))
    for seat in (1, 2):
        live.call(lambda seat=seat: room.seats[seat].empty("bot"))
    return str(room.code), str(secret)


@pytest.fixture(name="open_localized")
def open_localized_fixture(browser: Browser) -> Iterator[OpenLocalized]:
    """Pages in fresh contexts whose browser language is ``locale`` (``navigator.languages`` and
    ``Accept-Language``), watched for script errors."""
    contexts = []

    def open_(locale: str, viewport: ViewportSize) -> PageWatch:
        context = browser.new_context(viewport=viewport, locale=locale)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        watch = PageWatch(page)
        page.on("pageerror", lambda error: watch.errors.append(str(error)))
        page.on("console", lambda message: watch.errors.append(message.text) if message.type == "error" else None)
        return watch

    yield open_
    for context in contexts:
        context.close()


def enter(page: Page, url: str, code: str, secret: str) -> None:
    """Take seat 0 of room ``code`` and start the match from the lobby."""
    page.goto(url + "/")
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"unokit.seat.{code}", json.dumps({"secret": secret, "seat": 0})],
    )
    page.evaluate("localStorage.setItem('unokit.prefs', JSON.stringify({speed: 'fast'}))")
    page.goto(f"{url}/r/{code}")
    expect(page.locator("#lobby")).to_be_visible()
    page.click("#start-game")
    expect(page.locator('#hand .card[data-card="W"]')).to_be_visible()


def terms_of(url: str, lang: str) -> dict[str, str]:
    """The server's card terms in ``lang`` (``/api/options?lang=``)."""
    with urllib.request.urlopen(f"{url}/api/options?lang={lang}", timeout=10) as response:
        terms = json.load(response).get("terms")
    assert isinstance(terms, dict) and "card.coloured" in terms, "the server names the cards (terms)"
    return terms


def without_server_words(text: str, url: str, lang: str) -> str:
    """``text`` without the server's words for the scoring (shown beside the round's number, its first
    letter small)."""
    with urllib.request.urlopen(f"{url}/api/options?lang={lang}", timeout=10) as response:
        labels = json.load(response)["rules"]["scoring"].get("choice_labels", {})
    for label in labels.values():
        text = text.replace(label, "").replace(label[:1].lower() + label[1:], "")  # shown mid-sentence
    return text


def card_words(card: str, terms: dict[str, str]) -> str:
    """A card's name as the server's terms give it ("7 rojo", "Zieh Vier Farbwahl")."""
    kinds = {
        "S": "skip", "R": "reverse", "+2": "draw_two", "$": "jackpot", "W": "wild", "W+4": "wild_draw_four",
    }  # fmt: skip
    colours = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "O": "orange"}
    if card.startswith("W"):
        return terms[f"kind.{kinds[card]}"]
    kind = card[1:]
    kind_word = terms[f"kind.{kinds[kind]}"] if kind in kinds else kind
    colour = terms[f"colour.{colours[card[0]]}"]
    return terms["card.coloured"].replace("{colour}", colour).replace("{kind}", kind_word)


SERVER_WORDS = "#log, #ticker, #status, [data-action], .target-what, .howto-summary, .howto-nav"
"""Where the page shows the server's words (and the editions' titles, printed as they are)."""
PAGE_MARKUP = "#hint-button, .keys"
"""Words of the table written in index.html (with the draw pile's title): the page catalog's, checked
with it."""


def page_words(page: Page, selector: str) -> str:
    """The visible text and the accessible names (aria-label, title) under ``selector``, without the
    server's words (the log and ticker's narration, the actions' labels: ``data-action`` buttons and
    the status line, which say the server's ``asks``; the editions' summaries; their titles, printed
    as they are) nor index.html's."""
    return str(
        page.evaluate(
            """([selector, left_out]) => {
                const words = [];
                for (const root of document.querySelectorAll(selector)) {
                    if (root.closest('[hidden]')) continue;
                    const copy = root.cloneNode(true);
                    for (const node of copy.querySelectorAll(left_out)) node.remove();
                    copy.querySelector('#draw-pile')?.removeAttribute('title');
                    words.push(copy.innerText ?? copy.textContent);
                    for (const node of [copy, ...copy.querySelectorAll('[aria-label], [title]')]) {
                        words.push(node.getAttribute('aria-label') ?? '', node.getAttribute('title') ?? '');
                    }
                }
                return words.join(' | ');
            }""",
            [selector, f"[hidden], {SERVER_WORDS}, {PAGE_MARKUP}"],
        )
    )


def nothing_overflows(page: Page, selector: str) -> list[str]:
    """Buttons, badges, cards and dialog boxes under ``selector`` whose text is wider than they are."""
    return list(
        page.evaluate(
            """(selector) => [...document.querySelectorAll(selector)]
                .filter((node) => node.offsetParent !== null && node.scrollWidth > node.clientWidth + 1)
                .map((node) => `${node.className}: ${node.textContent.trim().slice(0, 40)}`)""",
            selector,
        )
    )


FITTING = (
    "#decision button, #decision .decision-box, #results button, #results .overlay-box, #actions button,"
    " .seat .badge, .seat-name, #coach button, .colour-chip, #me-label"
)


def play_round(page: Page, deadline: float) -> None:
    """Play on as a player would until the round's results are up: a playable card, else draw, else
    pass, else the first option of a dialog."""
    while time.monotonic() < deadline:
        if page.locator("#results:not([hidden])").count():
            return
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
    raise AssertionError("the round did not end")


# ---------------------------------------------------------------- the catalogs


def catalog(lang: str, namespace: str) -> dict[str, Any]:
    data = json.loads((LOCALES / lang / f"{namespace}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def blanks(message: str | dict[str, str]) -> set[str]:
    texts = message.values() if isinstance(message, dict) else [message]
    return {name for text in texts for name in re.findall(r"\{(\w+)\}", text.replace("{{", "").replace("}}", ""))}


@pytest.mark.parametrize("namespace", ["table", "learn"])
def test_every_language_has_every_message_with_its_blanks_and_plural_forms(
    namespace: str, open_localized: OpenLocalized
) -> None:
    english = catalog("en", namespace)
    assert list(english) == sorted(english), "ids sorted"
    watch = open_localized("en-US", DESKTOP)
    for lang in ["en", *LANGUAGES]:
        messages = catalog(lang, namespace)
        assert set(messages) == set(english), f"{lang}: missing {sorted(set(english) - set(messages))}"
        categories = set(
            watch.page.evaluate("(lang) => new Intl.PluralRules(lang).resolvedOptions().pluralCategories", lang)
        )
        for key, message in messages.items():
            assert isinstance(message, type(english[key])), f"{lang} {key}: a plural where English has one, or none"
            assert blanks(message) == blanks(english[key]), f"{lang} {key}: the blanks differ from English"
            if isinstance(message, dict):
                assert set(message) == categories, f"{lang} {key}: plural categories {sorted(message)}"
                assert all(message.values()), f"{lang} {key}: an empty form"
            else:
                assert message, f"{lang} {key}: empty"


def test_every_id_the_table_and_the_guided_game_use_is_in_the_english_catalogs() -> None:
    known = set(catalog("en", "table")) | set(catalog("en", "learn"))
    used: set[str] = set()
    for name in MODULES:
        used |= set(re.findall(r"""\b(?:t|say)\(\s*"([a-z][\w.+$-]*)\"""", (STATIC / name).read_text(encoding="utf-8")))
    assert used, "the modules speak through t()"
    assert not used - known, f"ids without a message: {sorted(used - known)}"
    assert not (STATIC / "learn-text.js").exists(), "the guided game's words are in the catalog learn"


# ---------------------------------------------------------------- a whole round in every language


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_round_at_the_table_speaks_the_browsers_language(
    live_server: LiveServer, open_localized: OpenLocalized, lang: str
) -> None:
    terms = terms_of(live_server.url, lang)
    viewports = [(DESKTOP, "desktop"), (PHONE, "phone")] if lang == "de" else [(DESKTOP, "desktop")]
    for index, (viewport, name) in enumerate(viewports):
        code, secret = localized_room(live_server, 2**40 + 61 + index)
        watch = open_localized(lang, viewport)
        page = watch.page
        enter(page, live_server.url, code, secret)
        assert page.evaluate("document.documentElement.lang") == lang
        shot = f"i18n-table-{lang}-{name}"

        # the hand and the seats: cards named with the server's terms, nothing in English
        labels = page.locator("#hand .card").evaluate_all(
            "cards => cards.map((c) => [c.dataset.card, c.getAttribute('aria-label')])"
        )
        assert len(labels) == len(HANDS[0])
        for card, label in labels:
            assert label.startswith(card_words(card, terms)), (card, label)
        words = without_server_words(
            page_words(page, "#opponents, #my-seat, #hand-area, #centre, #scoreboard, #actions"), live_server.url, lang
        )
        assert not english_in(words), english_context(words)
        watch.screenshot(f"{shot}-hand")

        # a Wild: the colour dialog
        page.click('#hand .card[data-card="W"]')
        dialog = page.locator("#decision")
        expect(dialog).to_be_visible()
        expect(dialog.locator(".colour-option")).to_have_count(4)
        words = page_words(page, "#decision")
        assert terms["colour.blue"].lower() in words.lower(), words
        assert not english_in(words), english_context(words)
        assert not nothing_overflows(page, FITTING), nothing_overflows(page, FITTING)
        watch.screenshot(f"{shot}-colour")
        page.click("#decision .colour-option.c-blue")

        # Bot 1 answers with its Blue 9, Bot 2 has only its Wild Draw Four: Ann may challenge it
        expect(page.locator('#decision[data-phase="challenge"]')).to_be_visible(timeout=15_000)
        expect(page.locator("#decision-title")).to_contain_text(terms["kind.wild_draw_four"])
        words = page_words(page, "#decision")
        assert not english_in(words), english_context(words)
        assert not nothing_overflows(page, FITTING), nothing_overflows(page, FITTING)
        watch.screenshot(f"{shot}-challenge")
        page.locator("#decision button.option").first.click()

        # on to the round's results
        play_round(page, time.monotonic() + 120)
        results = page.locator("#results")
        expect(results).to_have_attribute("data-counted", "true", timeout=15_000)
        words = page_words(page, "#results")
        assert not english_in(words), english_context(words)
        assert not nothing_overflows(page, FITTING), nothing_overflows(page, FITTING)
        watch.screenshot(f"{shot}-results")
        page.click("#results-close")
        expect(results).to_be_hidden()
        words = without_server_words(
            page_words(page, "#opponents, #my-seat, #hand-area, #centre, #scoreboard"), live_server.url, lang
        )
        assert not english_in(words), english_context(words)
        assert not watch.real_errors(), watch.errors


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_guided_games_coach_speaks_the_browsers_language(
    live_server: LiveServer, open_localized: OpenLocalized, lang: str
) -> None:
    terms = terms_of(live_server.url, lang)
    viewports = [(DESKTOP, "desktop"), (PHONE, "phone")] if lang == "de" else [(DESKTOP, "desktop")]
    for index, (viewport, name) in enumerate(viewports):
        code, secret = localized_room(live_server, 2**40 + 71 + index, tutorial=True)
        watch = open_localized(lang, viewport)
        page = watch.page
        enter(page, live_server.url, code, secret)
        coach = page.locator("#coach")
        expect(coach).to_have_attribute("data-topic", "welcome")
        said = [page.locator("#coach-text").inner_text()]
        page.click("#coach-ok")
        expect(coach).to_have_attribute("data-topic", "new-card")  # the Wild, explained
        said.append(page.locator("#coach-text").inner_text())
        assert terms["kind.wild"] in said[-1], said[-1]
        page.click("#coach-ok")
        expect(coach).to_have_attribute("data-topic", "turn")
        said.append(page.locator("#coach-text").inner_text())
        assert terms["colour.red"] in said[-1], said[-1]
        watch.screenshot(f"i18n-coach-{lang}-{name}")
        page.click('#hand .card[data-card="G2"]', force=True)  # not playable on the Red 7: why, in words
        expect(coach).to_have_attribute("data-topic", "refused")
        said.append(page.locator("#coach-text").inner_text())
        assert card_words("G2", terms) in said[-1], said[-1]
        words = " | ".join(said) + " | " + page_words(page, "#coach")
        assert not english_in(words), english_context(words)
        assert not nothing_overflows(page, FITTING), nothing_overflows(page, FITTING)
        watch.screenshot(f"i18n-coach-refused-{lang}-{name}")
        # the how-to-play dialog over the table, in the same language
        page.click("#howto-button")
        expect(page.locator("#howto-dialog")).to_be_visible()
        words = page_words(page, "#howto-dialog-body")
        assert terms["kind.wild_draw_four"] in words and not english_in(words), english_context(words)
        watch.screenshot(f"i18n-howto-{lang}-{name}")
        assert not watch.real_errors(), watch.errors
