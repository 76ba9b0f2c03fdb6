"""A table that feels social, in Chromium: avatars chosen on the start page and shown on the seats,
reactions as bubbles over their sender's seat (aimed at a seat), celebrations, and voice between
two pages (Chromium's fake microphone) with the server relaying only the signalling.

Screenshots (test-artifacts/social-*.png) at 1366x768 and 375x667 are looked at by people."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from browser_support import (  # noqa: F401  (fixtures, used by their names)
    ARTIFACTS,
    DESKTOP,
    PHONE,
    boxes_overlap,
    browser_fixture,
    chromium_path,
    live_server_fixture,
    open_page_fixture,
    playwright_instance_fixture,
)
from unokit.engine.cards import card_name
from unokit.engine.deck import stacked_deck
from unokit.engine.rules import Rules
from unokit.web.rooms import FixedSetup, RoomSettings

if TYPE_CHECKING:
    from collections.abc import Callable

    from browser_support import LiveServer, PageWatch

    OpenPage = Callable[..., PageWatch]

VIEWPORTS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]


def shot(page: Page, name: str) -> None:
    """A screenshot of what the player sees (the viewport, as on the screen)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def label(viewport: dict[str, int]) -> str:
    return "phone" if viewport["width"] < 600 else "desktop"


def choose_look(page: Page, form: str, avatar: str, colour: str) -> None:
    """Open a form's avatar picker and choose."""
    picker = page.locator(f"{form} .look-picker")
    picker.locator("summary").click()
    picker.locator(f"input[value={avatar}]").check()
    picker.locator(f"input[value={colour}]").check()


def create_room(page: Page, url: str, name: str, seats: int, avatar: str, colour: str) -> str:
    page.goto(url + "/")
    page.wait_for_selector("#create-form [name=edition] option", state="attached")
    page.fill("#create-form [name=name]", name)
    choose_look(page, "#create-form", avatar, colour)
    page.fill("#create-form [name=seats]", str(seats))
    page.click("#create-form button[type=submit]")
    expect(page.locator("#lobby-seats li")).to_have_count(seats)
    return page.inner_text("#lobby-code").strip()


def join(page: Page, url: str, code: str, name: str, avatar: str | None = None, colour: str = "blue") -> None:
    page.goto(f"{url}/r/{code}")
    page.fill("#join-form [name=name]", name)
    if avatar is not None:
        choose_look(page, "#join-form", avatar, colour)
    page.click("#join-form button[type=submit]")
    expect(page.locator("#lobby")).to_be_visible()


def fill_and_start(page: Page) -> None:
    page.click("#fill-bots")
    expect(page.locator("#start-game")).to_be_enabled()
    page.click("#start-game")
    expect(page.locator("#table")).to_be_visible()


def no_errors(*watches: PageWatch) -> None:
    for watch in watches:
        assert not watch.real_errors(), watch.errors


# ---------------------------------------------------------------- avatars


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_avatars_chosen_on_the_device_show_on_the_seats_in_the_lobby_at_the_table_and_in_the_chat(
    live_server: LiveServer, open_page: OpenPage, viewport: dict[str, int]
) -> None:
    ann_watch, bob_watch = open_page(viewport), open_page(viewport)
    ann, bob = ann_watch.page, bob_watch.page
    code = create_room(ann, live_server.url, "Ann", 3, "fox", "teal")
    join(bob, live_server.url, code, "Bob", "owl", "purple")
    for page in (ann, bob):
        expect(page.locator('#lobby-seats .seat-row[data-seat="0"] .avatar[data-avatar="fox"]')).to_be_visible()
        expect(page.locator('#lobby-seats .seat-row[data-seat="1"] .avatar[data-avatar="owl"]')).to_be_visible()
    colour = ann.eval_on_selector(
        '#lobby-seats .seat-row[data-seat="0"] .avatar', "n => getComputedStyle(n).backgroundColor"
    )
    assert colour == "rgb(0, 105, 92)", "teal"
    if viewport is PHONE:
        bob.click("#chat .chat-toggle")
    bob.fill("#chat .chat-input", "hello")
    bob.press("#chat .chat-input", "Enter")
    if viewport is PHONE:
        bob.click("#chat .chat-close")
        ann.click("#chat .chat-toggle")
    expect(ann.locator('#chat .chat-line .avatar[data-avatar="owl"]')).to_be_visible()
    shot(ann, f"social-lobby-avatars-{label(viewport)}")
    if viewport is PHONE:
        ann.click("#chat .chat-close")
    fill_and_start(ann)
    for page in (ann, bob):
        expect(page.locator('#felt .seat[data-seat="0"] .avatar[data-avatar="fox"]')).to_be_visible()
        expect(page.locator('#felt .seat[data-seat="1"] .avatar[data-avatar="owl"]')).to_be_visible()
        bot = page.locator('#felt .seat[data-seat="2"] .avatar[data-avatar="robot"]')
        expect(bot).to_have_attribute("data-glyph", "🤖")
    expect(bob.locator("#hand .card").first).to_be_visible()  # dealt (7 cards, more after a draw start card)
    bob.wait_for_timeout(800)  # the deal's last flight lands
    shot(bob, f"social-table-avatars-{label(viewport)}")
    stored = ann.evaluate("JSON.parse(localStorage.getItem('unokit.prefs'))")
    assert (stored["avatar"], stored["colour"]) == ("fox", "teal"), "remembered on the device"
    ann.goto(live_server.url + "/")  # the next visit starts from the same choice
    expect(ann.locator("#create-form .look-picker input[value=fox]")).to_be_checked()
    expect(ann.locator("#create-form .look-picker summary .avatar")).to_have_attribute("data-glyph", "🦊")
    ann.locator("#create-form .look-picker summary").click()
    ann.locator("#create-form .look-picker").scroll_into_view_if_needed()
    shot(ann, f"social-picker-{label(viewport)}")
    no_errors(ann_watch, bob_watch)


def test_an_avatar_chosen_later_reaches_the_seat_held(live_server: LiveServer, open_page: OpenPage) -> None:
    """A player with a seat who picks another avatar on the join page of another room, then comes
    back: the seat wears the new one (sent with the seat's `look`)."""
    ann_watch = open_page(DESKTOP)
    ann = ann_watch.page
    code = create_room(ann, live_server.url, "Ann", 2, "frog", "green")
    ann.goto(live_server.url + "/")
    choose_look(ann, "#create-form", "ghost", "slate")
    ann.goto(f"{live_server.url}/r/{code}")
    expect(ann.locator('#lobby-seats .seat-row[data-seat="0"] .avatar[data-avatar="ghost"]')).to_be_visible()
    room = live_server.room(code)
    assert (room.seats[0].avatar, room.seats[0].colour) == ("ghost", "slate")
    no_errors(ann_watch)


# ---------------------------------------------------------------- reactions


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_reaction_aimed_at_a_seat_is_a_bubble_over_the_sender_with_its_target(
    live_server: LiveServer, open_page: OpenPage, viewport: dict[str, int]
) -> None:
    ann_watch, bob_watch, watcher_watch = open_page(viewport), open_page(viewport), open_page(viewport)
    ann, bob, watcher = ann_watch.page, bob_watch.page, watcher_watch.page
    code = create_room(ann, live_server.url, "Ann", 3, "fox", "teal")
    join(bob, live_server.url, code, "Bob", "penguin", "red")
    # in the lobby: Bob aims at Ann by a right click on her row
    bob.click('#lobby-seats .seat-row[data-seat="0"] .seat-name', button="right")
    expect(bob.locator(".react-menu")).to_contain_text("React to Ann")
    bob.click('.react-menu button[aria-label="🎉 to Ann"]')
    lobby_bubble = ann.locator('.bubble-stack[data-from="1"] .bubble')
    expect(lobby_bubble).to_contain_text("🎉")
    expect(lobby_bubble.locator(".bubble-to")).to_have_text("➜ you")
    avatar = ann.locator('#lobby-seats .seat-row[data-seat="1"] .avatar').bounding_box()
    bubble_box = lobby_bubble.bounding_box()
    assert avatar is not None and bubble_box is not None
    assert bubble_box["y"] + bubble_box["height"] <= avatar["y"] + 2, "the bubble sits on Bob's avatar"
    assert abs(bubble_box["x"] + bubble_box["width"] / 2 - (avatar["x"] + avatar["width"] / 2)) < 80
    arrow = ann.eval_on_selector('.bubble-stack[data-from="1"] .bubble-arrow', "n => n.style.getPropertyValue('--aim')")
    assert float(arrow.removesuffix("deg")) < -45, f"the arrow points up to Ann's row: {arrow}"
    shot(ann, f"social-lobby-bubble-{label(viewport)}")
    fill_and_start(ann)
    watcher.goto(f"{live_server.url}/r/{code}?watch")
    expect(watcher.locator("#table")).to_be_visible()
    # at the table: Bob aims 👏 at Ann through the seat's menu
    bob.click('#felt .seat[data-seat="0"] .seat-name', button="right")
    bob.click('.react-menu button[aria-label="👏 to Ann"]')
    expect(bob.locator(".react-menu")).to_have_count(0)
    for page, target in ((ann, "➜ you"), (bob, "➜ Ann"), (watcher, "➜ Ann")):
        bubble = page.locator('.bubble-stack[data-from="1"] .bubble.aimed').last
        expect(bubble).to_contain_text("👏")
        expect(bubble.locator(".bubble-to")).to_have_text(target)
        seat = page.locator('#felt .seat[data-seat="1"]').bounding_box()
        box = bubble.bounding_box()
        assert seat is not None and box is not None
        centre = box["x"] + box["width"] / 2
        assert seat["x"] - 80 <= centre <= seat["x"] + seat["width"] + 80, "over (or under) Bob's seat"
        if page is not watcher:
            assert not boxes_overlap(box, page.locator("#hand").bounding_box()), "the bubble covers no card of the hand"
    shot(ann, f"social-table-aimed-{label(viewport)}")
    shot(watcher, f"social-table-aimed-spectator-{label(viewport)}")
    if viewport is PHONE:
        ann.click("#chat .chat-toggle")
    expect(ann.locator("#chat .chat-line").last).to_have_text("Bob👏 → you")
    expect(bob.locator("#chat .chat-line").last).to_have_text("You👏 → Ann") if viewport is DESKTOP else None
    if viewport is PHONE:
        ann.click("#chat .chat-close")
    # several at once stack, at most three a seat; a spectator's shows in the stands
    quick_reactions(bob, ["😂", "GG", "🎉"], viewport)
    quick_reactions(watcher, ["👍"], viewport, to="To Ann")
    expect(ann.locator('.bubble-stack[data-from="1"] .bubble')).to_have_count(3)
    expect(ann.locator('.bubble-stack[data-from="stands"] .bubble')).to_contain_text("Spectator")
    shot(ann, f"social-table-bubbles-{label(viewport)}")
    expect(ann.locator(".bubble")).to_have_count(0, timeout=8000)  # they fade after a few seconds
    live = ann.locator("#social-announce")
    if viewport is PHONE:  # the chat is a closed drawer: the reaction is told to screen readers
        expect(live).to_contain_text("Spectator: 👍 to you")
    no_errors(ann_watch, bob_watch, watcher_watch)


def quick_reactions(page: Page, reactions: list[str], viewport: dict[str, int], to: str = "To all") -> None:
    """Send quick reactions from the chat (its drawer opened and closed again on a phone)."""
    if viewport is PHONE:
        page.click("#chat .chat-toggle")
    page.select_option("#chat .chat-target", label=to)
    for reaction in reactions:
        page.locator("#chat .chat-quick-button", has_text=reaction).click()
    if viewport is PHONE:
        page.click("#chat .chat-close")


def test_the_chat_aims_quick_reactions_by_keyboard(live_server: LiveServer, open_page: OpenPage) -> None:
    ann_watch, bob_watch = open_page(DESKTOP), open_page(DESKTOP)
    ann, bob = ann_watch.page, bob_watch.page
    code = create_room(ann, live_server.url, "Ann", 2, "cat", "pink")
    join(bob, live_server.url, code, "Bob")
    bob.focus("#chat .chat-target")
    bob.select_option("#chat .chat-target", label="To Ann")
    bob.locator("#chat .chat-quick-button", has_text="😮").click()
    expect(ann.locator("#chat .chat-line").last).to_contain_text("😮 → you")
    expect(ann.locator('.bubble-stack[data-from="1"] .bubble')).to_contain_text("😮")
    frames = [f for f in ann_watch.messages("chat") if f.get("reaction")]
    assert frames[-1]["to"] == 0 and frames[-1]["text"] == "😮 → Ann"
    no_errors(ann_watch, bob_watch)


# ---------------------------------------------------------------- celebrations


def uno_room(live: LiveServer) -> tuple[str, str]:
    """Ann and a bot; Ann holds Red 7 and Red 8 on a Red 5 and plays first; the bot can't follow Red 7."""
    rules = {"hand_size": 2, "scoring": "single-round"}
    deck = stacked_deck(
        "classic", [["R7", "R8"], ["B5", "Y9"]], "R5", ["B1", "Y2"], dealer=1, rules=Rules.from_dict(rules)
    )
    setup = FixedSetup(2**40 + 3, tuple(card_name(card) for card in deck), dealer=1)
    settings = RoomSettings("classic", 2, dict(rules), "heuristic")
    room, secret = live.call(lambda: live.hub.create(settings, "Ann", setup))
    return str(room.code), str(secret)


def call_uno_and_play(page: Page, card: str) -> None:
    """Press UNO, then play ``card`` (the call goes down with it)."""
    arm = page.locator('#uno-button[data-uno="arm"]')
    expect(arm).to_be_visible()
    arm.click()
    expect(page.locator("#uno-button.armed")).to_be_visible()
    page.click(f'#hand .card.playable[data-card="{card}"]')


RECORD_BANNERS = """() => {
  window.banners = [];
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) {
      if (!node.classList?.contains("celebration-banner")) continue;
      const box = (element) => {
        const { x, y, width, height } = document.querySelector(element).getBoundingClientRect();
        return { x, y, width, height };
      };
      window.banners.push({
        text: node.textContent,
        moving: node.getAnimations().length,
        banner: box(".celebration-banner"),
        hand: box("#hand"),
        felt: box("#felt"),
      });
    }
  }).observe(document.body, { childList: true, subtree: true });
}"""


def seat_ann(page: Page, url: str, code: str, secret: str) -> None:
    page.goto(url + "/")
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"unokit.seat.{code}", json.dumps({"secret": secret, "seat": 0})],
    )
    page.goto(f"{url}/r/{code}")
    expect(page.locator("#lobby")).to_be_visible()
    fill_and_start(page)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_an_uno_call_and_a_win_are_celebrated_over_the_seat_without_covering_the_hand(
    live_server: LiveServer, open_page: OpenPage, viewport: dict[str, int]
) -> None:
    watch = open_page(viewport)
    page = watch.page
    code, secret = uno_room(live_server)
    seat_ann(page, live_server.url, code, secret)
    expect(page.locator("#hand .card.playable").first).to_be_visible()
    page.evaluate(RECORD_BANNERS)
    call_uno_and_play(page, "R7")
    page.wait_for_function("() => window.banners.length > 0")
    expect(page.locator(".spark").first).to_be_attached()
    page.wait_for_timeout(350)  # the banner faded in, the sparks on their way
    shot(page, f"social-celebration-uno-{label(viewport)}")
    [uno] = page.evaluate("window.banners")
    assert uno["text"] == "You call UNO!"
    assert not boxes_overlap(uno["banner"], uno["hand"]), "the banner covers no card of the hand"
    felt, box = uno["felt"], uno["banner"]
    assert felt["y"] <= box["y"] <= felt["y"] + felt["height"], "on the felt"
    page.locator('#hand .card[data-card="R8"]').click(timeout=15_000)
    page.wait_for_function("() => window.banners.length > 1")
    assert page.evaluate("window.banners.map((b) => b.text)")[1:] in (
        ["You win the round!", "You win the match!"],
        ["You win the match!"],
    )
    shot(page, f"social-celebration-win-{label(viewport)}")
    no_errors(watch)


def test_celebrations_respect_reduced_motion(live_server: LiveServer, open_page: OpenPage) -> None:
    watch = open_page(DESKTOP)
    page = watch.page
    page.emulate_media(reduced_motion="reduce")
    code, secret = uno_room(live_server)
    seat_ann(page, live_server.url, code, secret)
    scroll = page.evaluate("[document.documentElement.scrollHeight, document.documentElement.scrollWidth]")
    page.evaluate(RECORD_BANNERS)
    call_uno_and_play(page, "R7")
    page.wait_for_function("() => window.banners.length > 0")
    assert page.evaluate("window.banners[0].text") == "You call UNO!"
    assert page.locator(".spark").count() == 0, "no burst with reduced motion"
    assert page.evaluate("window.banners[0].moving") == 0, "the banner shows, still"
    after = page.evaluate("[document.documentElement.scrollHeight, document.documentElement.scrollWidth]")
    assert after == scroll, "no layout shift"
    no_errors(watch)


# ---------------------------------------------------------------- voice


@pytest.fixture(scope="module", name="media_browser")
def media_browser_fixture(playwright_instance: Playwright) -> Iterator[Browser]:
    """Chromium with a fake microphone, allowed without asking."""
    browser = playwright_instance.chromium.launch(
        executable_path=chromium_path(),
        headless=True,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            "--autoplay-policy=no-user-gesture-required",
        ],
    )
    yield browser
    browser.close()


def media_page(browser: Browser, viewport: dict[str, int], errors: list[str]) -> Page:
    context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    context.grant_permissions(["microphone"])
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


INBOUND_AUDIO_BYTES = """async (seat) => {
  const peer = window.unokitVoice?.peers.get(seat);
  if (!peer) return -1;
  let bytes = 0;
  (await peer.pc.getStats()).forEach((report) => {
    if (report.type === "inbound-rtp" && report.kind === "audio") bytes += report.bytesReceived;
  });
  return bytes;
}"""


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_two_pages_talk_over_webrtc_with_the_server_relaying_the_signals(
    live_server: LiveServer, media_browser: Browser, viewport: dict[str, int]
) -> None:
    errors: list[str] = []
    ann, bob, watcher = (media_page(media_browser, viewport, errors) for _ in range(3))
    frames: dict[str, list[dict[str, Any]]] = {"ann": [], "bob": [], "watcher": []}
    for name, page in (("ann", ann), ("bob", bob), ("watcher", watcher)):
        page.on(
            "websocket",
            lambda socket, n=name: socket.on(
                "framereceived",
                lambda payload, n=n: frames[n].append(json.loads(payload)) if isinstance(payload, str) else None,
            ),
        )
    code = create_room(ann, live_server.url, "Ann", 2, "fox", "teal")
    join(bob, live_server.url, code, "Bob", "owl", "blue")
    watcher.goto(f"{live_server.url}/r/{code}?watch")
    expect(watcher.locator("#lobby")).to_be_visible()
    expect(watcher.locator("#voice-bar")).to_be_hidden()  # a spectator has no seat to talk from
    for page in (ann, bob):
        expect(page.locator("#voice-join")).to_have_attribute("aria-pressed", "false")  # off by default
        assert page.evaluate("window.unokitVoice === undefined"), "nothing of voice loaded until wanted"
    ann.click("#voice-join")
    expect(ann.locator("#voice-mic")).to_have_text("🎙Mic off")  # muted until pressed
    expect(ann.locator("#voice-mic")).to_have_attribute("aria-pressed", "false")
    expect(bob.locator('#lobby-seats .seat-row[data-seat="0"] .badge.voice')).to_be_visible()
    bob.click("#voice-join")
    for page, other in ((ann, 1), (bob, 0)):
        page.wait_for_function(
            "(seat) => window.unokitVoice?.peers.get(seat)?.pc.connectionState === 'connected'",
            arg=other,
            timeout=20_000,
        )
    assert ann.evaluate("window.unokitVoice.stream.getAudioTracks()[0].enabled") is False
    ann.click("#voice-mic")
    bob.click("#voice-mic")
    expect(ann.locator("#voice-mic")).to_have_attribute("aria-pressed", "true")
    expect(ann.locator("#voice-mic")).to_have_text("🔴Mic on")
    for page, other in ((ann, 1), (bob, 0)):
        page.wait_for_function(
            f"(seat) => ({INBOUND_AUDIO_BYTES})(seat).then((bytes) => bytes > 0)", arg=other, timeout=10_000
        )
    expect(ann.locator('#lobby-seats .seat-row[data-seat="1"] .badge.voice')).to_be_visible()
    shot(ann, f"social-voice-{label(viewport)}")
    ann.click("#start-game")  # voice goes on at the table
    expect(ann.locator("#hand .card").first).to_be_visible()  # dealt (7 cards, or 9 after a Draw Two start card)
    expect(bob.locator('#felt .seat[data-seat="0"] .badge.voice')).to_be_visible()
    assert ann.evaluate("window.unokitVoice.peers.get(1).pc.connectionState") == "connected"
    for page in (ann, bob):
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], "the top bar fits"
        top = page.locator("#topbar").bounding_box()
        assert top is not None and top["height"] < 60
    ann.wait_for_timeout(600)
    shot(bob, f"social-voice-table-{label(viewport)}")
    # the signalling went to its addressee alone: never to the spectator
    assert not [f for f in frames["watcher"] if f["type"] in ("signal", "voice")]
    assert {f["from"] for f in frames["ann"] if f["type"] == "signal"} == {1}
    assert {f["from"] for f in frames["bob"] if f["type"] == "signal"} == {0}
    kinds = {f["kind"] for f in frames["ann"] + frames["bob"] if f["type"] == "signal"}
    assert {"offer", "answer"} <= kinds
    bob.click("#voice-join")  # leaves
    expect(ann.locator('#felt .seat[data-seat="1"] .badge.voice')).to_have_count(0)
    ann.wait_for_function("() => window.unokitVoice.peers.size === 0")
    assert bob.evaluate("window.unokitVoice.stream") is None, "the microphone is let go"
    assert not errors, errors
    for page in (ann, bob, watcher):
        page.context.close()
