"""The trained bots (the ``learned`` level) on the start page: offered at the tables their weights
were trained for, and only there; a room made with them plays at the table.  Where no weights
ship, the level is not offered at all."""

from __future__ import annotations

from typing import TYPE_CHECKING

from playwright.sync_api import Page, expect

from browser_support import (  # noqa: F401  (fixtures, used by their names)
    browser_fixture,
    live_server_fixture,
    open_page_fixture,
    playwright_instance_fixture,
)
from unokit.bots.weights import learned_tables

if TYPE_CHECKING:
    from collections.abc import Callable

    from browser_support import LiveServer, PageWatch

    OpenPage = Callable[..., PageWatch]

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 375, "height": 667}


def set_seats(page: Page, seats: int) -> None:
    page.fill("#create-form [name=seats]", str(seats))
    page.dispatch_event("#create-form [name=seats]", "change")


def test_the_trained_bots_are_offered_at_their_tables_only(live_server: LiveServer, open_page: OpenPage) -> None:
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        watch = open_page(viewport)
        page = watch.page
        page.goto(live_server.url + "/")
        page.wait_for_selector("#create-form [name=bot] option", state="attached")
        learned = page.locator('#create-form [name=bot] option[value="learned"]')
        tables = learned_tables()
        if not tables:
            expect(learned).to_have_count(0)
            assert not watch.real_errors(), watch.errors
            continue
        edition, players = tables[0]
        page.select_option("#create-form [name=edition]", edition)
        set_seats(page, players)
        expect(learned).to_be_enabled()
        page.select_option("#create-form [name=bot]", "learned")
        watch.screenshot(f"learned-level-{name}")
        set_seats(page, 10)  # no weights for ten players: not offered, and the choice falls back
        expect(learned).to_be_disabled()
        expect(page.locator("#create-form [name=bot]")).not_to_have_value("learned")
        assert not watch.real_errors(), watch.errors
    if not learned_tables():
        return
    # a room with them: the lobby names them, and they play at the table
    watch = open_page(DESKTOP)
    page = watch.page
    page.goto(live_server.url + "/")
    page.wait_for_selector("#create-form [name=bot] option", state="attached")
    edition, players = learned_tables()[0]
    page.select_option("#create-form [name=edition]", edition)
    set_seats(page, players)
    page.select_option("#create-form [name=bot]", "learned")
    page.fill("#create-form [name=name]", "Ann")
    page.click("#create-form button[type=submit]")
    expect(page.locator("#lobby-rules")).to_contain_text("Trained bots")
    code = page.inner_text("#lobby-code").strip()
    assert live_server.call(lambda: live_server.room(code).settings.bot) == "learned"
    page.click("#fill-bots")
    page.click("#start-game")
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#hand .card").first).to_be_visible()  # dealt: the trained bot plays its turns
    page.wait_for_timeout(1500)
    watch.screenshot("learned-level-table")
    assert not watch.real_errors(), watch.errors
