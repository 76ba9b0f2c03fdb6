"""The page in Spanish, French and German: the language the browser asks for (Playwright's ``locale``)
or the one chosen in the settings, on the start page, the join page and the lobby; no English left
in what the page words, ``<html lang>`` set, the choice remembered after a reload, the first message of
each socket in that language, and German (the longest words) drawn without overflow at 1366x768 and
375x667 (screenshots in ``test-artifacts/``).

Playwright drives Debian's Chromium against the real server (see ``browser_support``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from browser_support import (  # noqa: F401  (fixtures, used by their names)
    ARTIFACTS,
    LiveServer,
    browser_fixture,
    live_server_fixture,
    playwright_instance_fixture,
)
from unokit.web.app import STATIC_DIR
from web_support import Client

DESKTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 375, "height": 667}
LOCALES = {"es": "es-ES", "fr": "fr-FR", "de": "de-DE"}

ENGLISH_WORDS = ["the", "and", "you", "your", "room", "join", "play", "seat", "seats", "watch", "waiting", "invite"]
ENGLISH_WORDS += ["copy", "leave", "rules", "free", "settings", "players", "now", "against", "with", "set up"]
"""Words of English that none of the other languages' page text holds."""

SERVER_WORDED = ", ".join(
    [
        ".edition-text, .rule-field, #preset-summary, select[name=scoring], #lobby-rules, .public-details",
        "label:has([name=scoring]) + .help, label:has([name=target_score]) + .help",
    ]
)
"""What the page shows in the server's words (edition summaries, rule options, the lobby's rules): in
the page's language once /api/options answers with ``languages``; left out of the check until then."""
TABLE_WORDED = "#chat, .edition-fan"
"""What the page shows in table.json's words (the chat, the cards' names): checked once the
language's table.json holds messages."""

PAGE_TEXT = """(excluded) => {
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || (excluded && element.closest(excluded)) || !element.checkVisibility()) continue;
    texts.push(node.textContent);
  }
  for (const element of document.querySelectorAll("[title], [aria-label], [alt], [placeholder]")) {
    if (excluded && element.closest(excluded)) continue;
    if (element.closest("[hidden]")) continue;
    for (const name of ["title", "aria-label", "alt", "placeholder"]) texts.push(element.getAttribute(name) ?? "");
  }
  for (const select of document.querySelectorAll("select")) {
    if (!(excluded && select.closest(excluded)) && select.checkVisibility()) {
      texts.push(...[...select.options].map((option) => option.text));
    }
  }
  return texts.join("\\n");
}"""


def english_messages() -> list[str]:
    """The English page messages of two words or more, blanks cut out: none may show in another language."""
    catalog = json.loads((STATIC_DIR / "locales" / "en" / "page.json").read_text(encoding="utf-8"))
    texts = [
        text for message in catalog.values() for text in ([message] if isinstance(message, str) else message.values())
    ]
    parts = [part.strip(" .:·()") for text in texts for part in re.split(r"\{\w+\}", text)]
    return sorted({part for part in parts if len(part.split()) >= 2})


@pytest.fixture(name="open_in")
def open_in_fixture(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Pages in fresh contexts with the browser's language `locale`; each page keeps the frames it sent
    (``page.sent``) and fails the test on a script error."""
    contexts = []
    errors: list[str] = []

    def open_(locale: str, viewport: ViewportSize = DESKTOP) -> Page:
        context = browser.new_context(locale=locale, viewport=viewport)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        sent: list[dict[str, Any]] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        page.on("websocket", lambda socket: socket.on("framesent", lambda data: sent.append(json.loads(data))))
        page.sent = sent  # type: ignore[attr-defined]
        return page

    yield open_
    for context in contexts:
        context.close()
    assert errors == []


def server_speaks(page: Page, lang: str) -> bool:
    """Whether the server words its answers in `lang` (/api/options lists the languages it speaks)."""
    options = page.evaluate("async () => (await fetch('/api/options')).json()")
    return lang in (options.get("languages") or [])


def assert_no_english(page: Page, lang: str) -> None:
    """`<html lang>` is `lang`, and nothing the page shows is English."""
    assert page.evaluate("document.documentElement.lang") == lang
    excluded = [] if server_speaks(page, lang) else [SERVER_WORDED]
    table = json.loads((STATIC_DIR / "locales" / lang / "table.json").read_text(encoding="utf-8"))
    if not table:
        excluded.append(TABLE_WORDED)
    text = page.evaluate(PAGE_TEXT, ", ".join(excluded))
    left = [message for message in english_messages() if message in text]
    assert left == [], f"{lang}: English messages shown: {left}"
    words = [word for word in ENGLISH_WORDS if re.search(rf"(?<![\w-]){word}(?![\w-])", text)]
    assert words == [], f"{lang}: English words shown: {words}\n{text}"


def assert_nothing_overflows(page: Page) -> None:
    """No horizontal scroll, and no button, label or heading whose text is wider than its box."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    cut = page.evaluate("""() => [...document.querySelectorAll("button, label, h1, h2, legend, summary, .badge, a")]
        .filter((node) => node.checkVisibility() && node.scrollWidth > node.clientWidth + 1
                 && getComputedStyle(node).overflow !== "visible")
        .map((node) => node.textContent.trim())""")
    assert cut == []


def wait_for_start(page: Page) -> None:
    page.wait_for_selector("#create-form select[name=bot] option", state="attached")
    expect(page.locator("#start")).to_be_visible()


@contextmanager
def hosted_room(live_server: LiveServer) -> Iterator[str]:
    """A room with a host seated (through the socket, in English), its code."""
    host = Client(live_server.url.replace("http", "ws", 1) + "/ws")
    try:
        host.send(type="create", name="Ana", edition="classic", seats=4)
        yield str(host.expect("welcome")["code"])
    finally:
        host.close()


@pytest.mark.parametrize("lang", ["es", "fr", "de"])
def test_the_browsers_language_speaks_on_every_screen(
    live_server: LiveServer, open_in: Callable[..., Page], lang: str
) -> None:
    """A browser asking for `lang` gets the start page, the join page and the lobby in it; the first
    message of its socket says the language once the server lists the languages it speaks."""
    page = open_in(LOCALES[lang])
    page.goto(live_server.url + "/")
    wait_for_start(page)
    assert_no_english(page, lang)
    with hosted_room(live_server) as code:
        page.goto(f"{live_server.url}/r/{code}")
        expect(page.locator("#join-note")).not_to_be_empty()
        expect(page.locator("#join-title")).to_contain_text(code)
        assert_no_english(page, lang)
        page.fill("#join-form input[name=name]", "Jörg")
        page.click("#join-submit")
        expect(page.locator("#lobby")).to_be_visible()
        expect(page.locator("#lobby-seats li")).to_have_count(4)
        assert_no_english(page, lang)
        join = next(frame for frame in page.sent if frame["type"] == "join")  # type: ignore[attr-defined]
        assert join.get("lang") == (lang if server_speaks(page, lang) else None)
        if lang == "de":
            for viewport, size in ((DESKTOP, "desktop"), (PHONE, "phone")):
                page.set_viewport_size(viewport)
                assert_nothing_overflows(page)
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"i18n-de-lobby-{size}.png"), full_page=True)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_german_start_and_join_pages_fit(
    live_server: LiveServer, open_in: Callable[..., Page], viewport: ViewportSize
) -> None:
    """German's long words fit the start page (its form open) and the join page, on a desktop and a phone."""
    size = "desktop" if viewport == DESKTOP else "phone"
    page = open_in("de-DE", viewport)
    page.goto(live_server.url + "/")
    wait_for_start(page)
    page.click("#more-rules summary")
    assert_nothing_overflows(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"i18n-de-start-{size}.png"), full_page=True)
    page.click("#settings-button")
    assert_nothing_overflows(page)
    page.screenshot(path=str(ARTIFACTS / f"i18n-de-settings-{size}.png"))
    with hosted_room(live_server) as code:
        page.goto(f"{live_server.url}/r/{code}")
        expect(page.locator("#join-note")).not_to_be_empty()
        assert_nothing_overflows(page)
        page.screenshot(path=str(ARTIFACTS / f"i18n-de-join-{size}.png"), full_page=True)


def test_the_language_chosen_in_the_settings_is_spoken_at_once_and_remembered(
    live_server: LiveServer, open_in: Callable[..., Page]
) -> None:
    """An English browser: choosing Français in the settings translates the page at once (its marked
    texts and the form drawn by code), sets <html lang>, and is remembered after a reload; in the
    lobby, choosing Deutsch redraws it in German; Automatic goes back to the browser's English."""
    page = open_in("en-US")
    page.goto(live_server.url + "/")
    wait_for_start(page)
    assert page.evaluate("document.documentElement.lang") == "en"
    expect(page.locator("#create-form h2")).to_have_text("Set up a room")
    page.click("#settings-button")
    options = page.locator("#pref-language option")
    expect(options).to_have_text(["Automatic", "English", "Español", "Français", "Deutsch"])
    page.select_option("#pref-language", "fr")
    expect(page.locator("#create-form h2")).to_have_text("Créer une salle")
    expect(page.locator("#create-form select[name=timer] option:checked")).to_have_text("30 secondes par coup")
    expect(page.locator("#pref-language option").first).to_have_text("Automatique")
    page.keyboard.press("Escape")
    assert_no_english(page, "fr")

    page.reload()
    wait_for_start(page)
    assert_no_english(page, "fr")
    assert page.evaluate("JSON.parse(localStorage.getItem('unokit.prefs')).language") == "fr"

    with hosted_room(live_server) as code:
        page.fill("#join-code-form input[name=code]", code)
        page.fill("#join-code-form input[name=name]", "Jean")
        page.click("#join-code-form button[type=submit]")
        expect(page.locator("#lobby")).to_be_visible()
        expect(page.locator("#lobby-wait")).to_have_text("En attente du lancement par Ana (l'hôte).")
        page.click("#settings-button")
        page.select_option("#pref-language", "de")
        expect(page.locator("#lobby-wait")).to_have_text("Warte, bis Ana (Gastgeber) startet.")
        expect(page.locator("#lobby-title")).to_have_text(f"Raum {code}")
        expect(page.locator("#room-label")).to_have_text(f"Raum {code}")
        page.keyboard.press("Escape")
        assert_no_english(page, "de")
        if server_speaks(page, "de"):
            assert {"type": "lang", "lang": "de"} in page.sent  # type: ignore[attr-defined]

        # a reload resumes the seat through boot.js's early socket, in the language chosen
        page.reload()
        expect(page.locator("#lobby-wait")).to_have_text("Warte, bis Ana (Gastgeber) startet.")
        resume = [frame for frame in page.sent if frame["type"] == "resume"][-1]  # type: ignore[attr-defined]
        assert resume.get("lang") == ("de" if server_speaks(page, "de") else None)
        page.click("#settings-button")
        page.select_option("#pref-language", "auto")
        expect(page.locator("#lobby-wait")).to_have_text("Waiting for Ana (the host) to start.")
        assert page.evaluate("document.documentElement.lang") == "en"
