"""The social features in Spanish, French and German, in Chromium with the browser's language set:
the avatar picker, the reaction menu aimed at a seat, a bubble, the chat's "to" list, the voice
controls and the celebrations say no English, in their visible text or their accessible names.

Screenshots (test-artifacts/i18n-social-de-*.png) in German, whose long words are the hardest to
fit, at 1366x768 and 375x667, are looked at by people."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect

from browser_support import (  # noqa: F401  (fixtures, used by their names)
    ARTIFACTS,
    DESKTOP,
    PHONE,
    LiveServer,
    chromium_path,
    live_server_fixture,
    playwright_instance_fixture,
)
from test_browser_social import RECORD_BANNERS, call_uno_and_play, fill_and_start, seat_ann, uno_room

LANGUAGES = ["es", "fr", "de"]

ENGLISH_WORDS = """
    your colour fox cat owl frog octopus unicorn penguin rocket ghost grey purple teal green blue
    react close spectator seat you to all aim player
    voice mic join joining leave microphone muted press talk off hear
    win wins call calls round match the
    social
"""
ENGLISH = set(ENGLISH_WORDS.split())
"""English words none of the three languages uses, in lower case: of the picker, the reactions and the
chat's "to" list, the voice chat, the celebrations, and a message id shown for want of its message."""

YOU = {"es": "ti", "fr": "vous", "de": "dich"}
"""A reaction aimed at this player reads "➜ you" in each language."""

CELEBRATIONS = {
    "es": ("¡Cantas UNO!", {"¡Ganas la ronda!", "¡Ganas la partida!"}),
    "fr": ("Vous criez UNO!", {"Vous gagnez la manche\u00a0!", "Vous gagnez la partie\u00a0!"}),
    "de": ("Du rufst UNO!", {"Du gewinnst die Runde!", "Du gewinnst die Partie!"}),
}

WORDS_OF = """(root) => {
  const words = [root.innerText, root.textContent];
  for (const node of [root, ...root.querySelectorAll("*")]) {
    for (const name of ["aria-label", "title", "placeholder"]) {
      if (node.hasAttribute(name)) words.push(node.getAttribute(name));
    }
  }
  return words.join("\\n");
}"""
"""What a person reads of an element, or hears of it: its text and its descendants' accessible names."""


def english_in(page: Page, selector: str) -> set[str]:
    """The English words (of :data:`ENGLISH`) in what the elements of ``selector`` show and are named."""
    found: set[str] = set()
    locator = page.locator(selector)
    assert locator.count(), f"nothing matches {selector}"
    for index in range(locator.count()):
        text = locator.nth(index).evaluate(WORDS_OF)
        found |= {word for word in re.findall(r"[^\W\d_]+", text.lower()) if word in ENGLISH}
    return found


def no_english(page: Page, selector: str) -> None:
    english = english_in(page, selector)
    assert not english, f"English in {selector}: {sorted(english)}"


@pytest.fixture(scope="module", name="media_browser")
def media_browser_fixture(playwright_instance: Playwright) -> Iterator[Browser]:
    """Chromium with a fake microphone, allowed without asking."""
    browser = playwright_instance.chromium.launch(
        executable_path=chromium_path(),
        headless=True,
        args=["--no-sandbox", "--disable-gpu", "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"],
    )
    yield browser
    browser.close()


class Pages:
    """Pages in the browser's language `lang`, each in its own context, watched for errors."""

    def __init__(self, browser: Browser, lang: str) -> None:
        self.browser = browser
        self.lang = lang
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def open(self, viewport: dict[str, int] = DESKTOP) -> Page:
        context = self.browser.new_context(viewport=viewport, locale=self.lang)  # type: ignore[arg-type]
        context.grant_permissions(["microphone"])
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", lambda message: self.errors.append(message.text) if "no message" in message.text else None)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture(name="pages")
def pages_fixture(media_browser: Browser, request: pytest.FixtureRequest) -> Iterator[Pages]:
    pages = Pages(media_browser, request.param)
    yield pages
    pages.close()
    assert not pages.errors, pages.errors


def open_picker(page: Page, form: str) -> None:
    picker = page.locator(f"{form} .look-picker")
    if picker.get_attribute("open") is None:
        picker.locator("summary").click()
    expect(picker.locator(".look-avatars")).to_be_visible()


def create_room(page: Page, url: str, seats: int) -> str:
    page.goto(url + "/")
    page.wait_for_selector("#create-form [name=edition] option", state="attached")
    page.fill("#create-form [name=name]", "Ann")
    open_picker(page, "#create-form")
    page.locator("#create-form .look-picker input[value=fox]").check()
    page.locator("#create-form .look-picker input[value=teal]").check()
    page.fill("#create-form [name=seats]", str(seats))
    page.click("#create-form button[type=submit]")
    expect(page.locator("#lobby-seats li")).to_have_count(seats)
    return page.inner_text("#lobby-code").strip()


def join(page: Page, url: str, code: str) -> None:
    page.goto(f"{url}/r/{code}")
    page.fill("#join-form [name=name]", "Bob")
    open_picker(page, "#join-form")
    page.locator("#join-form .look-picker input[value=owl]").check()
    page.click("#join-form button[type=submit]")
    expect(page.locator("#lobby")).to_be_visible()


def join_voice(page: Page) -> None:
    page.click("#voice-join")
    expect(page.locator("#voice-join")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#voice-mic")).to_be_visible()


# ---------------------------------------------------------------- the catalogs

STATIC = Path(__file__).resolve().parent.parent / "src" / "unokit" / "web" / "static"
SOCIAL_MODULES = ["social.js", "look.js", "reactions.js", "celebrate.js", "voice.js", "index.html"]
PLURAL_CATEGORIES = {
    "en": {"one", "other"},
    "de": {"one", "other"},
    "es": {"one", "many", "other"},
    "fr": {"one", "many", "other"},
}
"""CLDR's cardinal categories of each language: a message's plural object holds exactly these."""
BLANK = re.compile(r"(?<!\{)\{(\w+)\}")


def catalog(lang: str) -> dict[str, str | dict[str, str]]:
    loaded: dict[str, str | dict[str, str]] = json.loads((STATIC / "locales" / lang / "social.json").read_text("utf-8"))
    return loaded


def blanks(message: str | dict[str, str]) -> set[str]:
    texts = [message] if isinstance(message, str) else list(message.values())
    return {name for text in texts for name in BLANK.findall(text)}


def test_the_social_catalogs_hold_every_message_of_english_with_its_blanks() -> None:
    english = catalog("en")
    assert list(english) == sorted(english), "ids sorted"
    for lang in LANGUAGES:
        translated = catalog(lang)
        assert list(translated) == list(english), f"{lang}: the ids of English"
        for key, message in translated.items():
            assert blanks(message) == blanks(english[key]), f"{lang} {key}: the blanks of English"
            if isinstance(message, dict):
                assert set(message) == PLURAL_CATEGORIES[lang], f"{lang} {key}: CLDR's categories"
            assert message != english[key] or key in SAME_IN_ENGLISH, f"{lang} {key}: still English"


SAME_IN_ENGLISH = {
    "social.look.avatar",
    "social.avatar.panda",
    "social.avatar.cactus",
    "social.colour.indigo",
    "social.colour.orange",
    "social.announce.other",
}
"""Messages a language may write as English does (the same word)."""


def test_every_social_message_the_code_names_is_in_the_catalog() -> None:
    english = catalog("en")
    named: set[str] = set()
    for name in SOCIAL_MODULES:
        named |= set(re.findall(r"[\"'`:](social\.[\w.]+)", (STATIC / name).read_text("utf-8")))
    named = {key for key in named if not key.endswith(".")}  # an id built from a choice: checked below
    assert named, "the social modules speak from the catalog"
    assert named <= set(english), sorted(named - set(english))
    prefs = (STATIC / "prefs.js").read_text("utf-8")
    for kind, listed in (("avatar", "AVATARS"), ("colour", "COLOURS")):
        choices = re.findall(r'"(\w+)"', prefs.split(f"{listed} = [")[1].split("]")[0])
        assert choices and {f"social.{kind}.{choice}" for choice in choices} <= set(english), kind


# ---------------------------------------------------------------- no English


@pytest.mark.parametrize("pages", LANGUAGES, indirect=True)
def test_the_picker_reactions_chat_and_voice_say_no_english(live_server: LiveServer, pages: Pages) -> None:
    lang = pages.lang
    ann, bob = pages.open(), pages.open()
    # the avatar picker, on the start page and on the join page
    ann.goto(live_server.url + "/")
    ann.wait_for_selector("#create-form [name=edition] option", state="attached")
    assert ann.evaluate("document.documentElement.lang") == lang
    open_picker(ann, "#create-form")
    no_english(ann, "#create-form .look-picker")
    code = create_room(ann, live_server.url, 3)
    bob.goto(f"{live_server.url}/r/{code}")
    open_picker(bob, "#join-form")
    no_english(bob, "#join-form .look-picker")
    join(bob, live_server.url, code)
    # the voice controls: off, on and muted, on and talking; the voice badge of the seats
    expect(ann.locator("#voice-bar")).to_be_visible()
    no_english(ann, "#voice-bar")
    join_voice(ann)
    no_english(ann, "#voice-bar")
    ann.click("#voice-mic")
    expect(ann.locator("#voice-mic")).to_have_attribute("aria-pressed", "true")
    no_english(ann, "#voice-bar")
    expect(bob.locator('#lobby-seats .seat-row[data-seat="0"] .badge.voice')).to_be_visible()
    no_english(bob, '#lobby-seats .seat-row[data-seat="0"] .badge.voice')
    # the reaction menu aimed at Ann's seat, and the bubble it sends
    bob.click('#lobby-seats .seat-row[data-seat="0"] .seat-name', button="right")
    expect(bob.locator(".react-menu")).to_contain_text("Ann")
    no_english(bob, ".react-menu")
    bob.locator(".react-menu .react-menu-button").first.click()
    bubble = ann.locator('.bubble-stack[data-from="1"] .bubble.aimed')
    expect(bubble.locator(".bubble-to")).to_have_text(f"➜ {YOU[lang]}")
    no_english(ann, '.bubble-stack[data-from="1"]')
    # the chat's reactions: its "to" list and the line of a reaction aimed at Ann
    expect(ann.locator("#chat .chat-line .chat-text").last).to_have_text(f"👍 → {YOU[lang]}")
    no_english(ann, "#chat .chat-target")
    no_english(ann, "#chat .chat-line .chat-text")
    # a spectator's bubble, at the table
    fill_and_start(ann)
    watcher = pages.open()
    watcher.goto(f"{live_server.url}/r/{code}?watch")
    expect(watcher.locator("#table")).to_be_visible()
    watcher.select_option("#chat .chat-target", index=1)
    watcher.locator("#chat .chat-quick-button").first.click()
    expect(ann.locator('.bubble-stack[data-from="stands"] .bubble')).to_be_visible()
    no_english(ann, '.bubble-stack[data-from="stands"]')
    no_english(watcher, "#chat .chat-target")


@pytest.mark.parametrize("pages", LANGUAGES, indirect=True)
def test_celebrations_say_no_english(live_server: LiveServer, pages: Pages) -> None:
    page = pages.open()
    code, secret = uno_room(live_server)
    seat_ann(page, live_server.url, code, secret)
    expect(page.locator("#hand .card.playable").first).to_be_visible()
    page.evaluate(RECORD_BANNERS)
    call_uno_and_play(page, "R7")
    page.wait_for_function("() => window.banners.length > 0")
    uno, wins = CELEBRATIONS[pages.lang]
    assert page.evaluate("window.banners[0].text") == uno
    page.locator('#hand .card[data-card="R8"]').click(timeout=15_000)
    page.wait_for_function("() => window.banners.length > 1")
    texts = page.evaluate("window.banners.map((b) => b.text)")
    assert set(texts[1:]) <= wins and texts[1:], texts
    assert not {word for text in texts for word in re.findall(r"[^\W\d_]+", text.lower()) if word in ENGLISH}


# ---------------------------------------------------------------- German, looked at


OVERFLOWS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((node) => node.getClientRects().length)
  .filter((node) => {
    const box = node.getBoundingClientRect();
    return node.scrollWidth > node.clientWidth + 1 || box.left < -1 || box.right > window.innerWidth + 1;
  })
  .map((node) => [node.className || node.id || node.tagName, node.scrollWidth, node.clientWidth, node.innerText])"""
"""The shown elements of ``selector`` whose words overflow them or the window."""


def fits(page: Page, *selectors: str) -> None:
    for selector in selectors:
        assert not page.evaluate(OVERFLOWS, selector), f"{selector} overflows"


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"i18n-social-de-{name}.png"))


@pytest.mark.parametrize("pages", ["de"], indirect=True)
@pytest.mark.parametrize("viewport", [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")])
def test_german_words_fit_the_picker_bubbles_voice_controls_and_top_bar(
    live_server: LiveServer, pages: Pages, viewport: dict[str, int]
) -> None:
    size = "phone" if viewport is PHONE else "desktop"
    ann, bob = pages.open(viewport), pages.open(viewport)
    code = create_room(ann, live_server.url, 3)
    join(bob, live_server.url, code)
    ann.goto(live_server.url + "/")
    ann.wait_for_selector("#create-form [name=edition] option", state="attached")
    open_picker(ann, "#create-form")
    ann.locator("#create-form .look-picker").scroll_into_view_if_needed()
    shot(ann, f"picker-{size}")
    fits(ann, ".look-picker", ".look-picker summary", ".look-label", ".look-picker fieldset")
    ann.goto(f"{live_server.url}/r/{code}")
    expect(ann.locator("#lobby")).to_be_visible()
    join_voice(ann)
    join_voice(bob)
    fits(ann, "#topbar", "#voice-bar", "#voice-join", "#voice-mic", "#lobby-seats .badge.voice")
    width = ann.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the lobby scrolls sideways: {width}"
    bob.click('#lobby-seats .seat-row[data-seat="0"] .seat-name', button="right")
    expect(bob.locator(".react-menu")).to_be_visible()
    shot(bob, f"lobby-menu-{size}")
    fits(bob, ".react-menu", ".react-menu-title")
    bob.locator(".react-menu .react-menu-button").nth(4).click()
    expect(ann.locator('.bubble-stack[data-from="1"] .bubble')).to_be_visible()
    shot(ann, f"lobby-voice-bubble-{size}")
    fits(ann, ".bubble", ".bubble-to")
    fill_and_start(ann)
    expect(bob.locator("#table")).to_be_visible()
    bob.click('#felt .seat[data-seat="0"] .seat-name', button="right")
    bob.locator(".react-menu .react-menu-button").nth(5).click()
    expect(ann.locator('.bubble-stack[data-from="1"] .bubble.aimed').last).to_be_visible()
    shot(ann, f"table-voice-bubble-{size}")
    fits(ann, ".bubble", "#voice-bar", "#voice-join", "#voice-mic", "#felt .badge.voice")  # on a phone: over the hand
    # a celebration banner, in a room of its own
    page = pages.open(viewport)
    room, secret = uno_room(live_server)
    seat_ann(page, live_server.url, room, secret)
    expect(page.locator("#hand .card.playable").first).to_be_visible()
    page.evaluate(RECORD_BANNERS)
    call_uno_and_play(page, "R7")
    banner = page.locator(".celebration-banner")
    expect(banner).to_have_text("Du rufst UNO!")
    page.wait_for_timeout(350)
    shot(page, f"celebration-{size}")
    fits(page, ".celebration-banner")


@pytest.mark.parametrize("pages", ["de"], indirect=True)
def test_a_change_of_language_in_the_settings_translates_the_voice_controls_and_the_picker(
    live_server: LiveServer, pages: Pages
) -> None:
    ann = pages.open()
    create_room(ann, live_server.url, 2)
    join_voice(ann)
    expect(ann.locator("#voice-join .voice-word")).to_have_text("Auflegen")
    ann.click("#settings-button")
    ann.select_option("#pref-language", "fr")
    expect(ann.locator("html")).to_have_attribute("lang", "fr")
    expect(ann.locator("#voice-join .voice-word")).to_have_text("Raccrocher")
    expect(ann.locator("#voice-mic")).to_have_attribute("aria-label", "Micro coupé. Appuyez pour parler")
    expect(ann.locator("#voice-bar")).to_have_attribute("aria-label", "Chat vocal")
    expect(ann.locator("#create-form .look-label")).to_have_text("Votre avatar et votre couleur")
    expect(ann.locator('#create-form .look-choice:has(input[value="owl"])')).to_have_attribute("title", "hibou")
