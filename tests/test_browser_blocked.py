"""A blocked round in the browser: told in the log and the ticker, and its result shown.

A fixed deal leaves nothing to draw and nothing to play: Ann draws nothing, the bot draws nothing,
and the round is blocked; the lowest hand (the bot's) wins it.  Screenshots (desktop and phone) go
to ``test-artifacts/``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from playwright.sync_api import expect

from browser_support import (  # noqa: F401  (fixtures, used by their names)
    ARTIFACTS,
    browser_fixture,
    live_server_fixture,
    open_page_fixture,
    playwright_instance_fixture,
)
from test_browser_feel import fixed_room, my_turn, seat_ann

if TYPE_CHECKING:
    from collections.abc import Callable

    from browser_support import LiveServer, PageWatch

    OpenPage = Callable[..., PageWatch]

QUIET = {"hand_size": 2, "deck": {"B9": 1, "G9": 1, "B1": 1, "G2": 1, "R5": 1}, "target_score": 10}
"""Two cards each, no red card and no 5 in a hand, the start card R5: the draw pile is empty at once."""


def test_a_blocked_round_is_told_and_scored(live_server: LiveServer, open_page: OpenPage) -> None:
    for viewport, name in (({"width": 1366, "height": 768}, "desktop"), ({"width": 375, "height": 667}, "phone")):
        code, secret = fixed_room(live_server, "classic", QUIET, [["B9", "G9"], ["B1", "G2"]], "R5", [])
        watch = open_page(viewport=viewport)
        page = watch.page
        seat_ann(live_server, page, code, secret)
        my_turn(page)
        page.click('#actions button[data-action="draw"]')
        blocked = page.locator("#log li.log-blocked")
        expect(blocked).to_have_text(
            "Nobody has played or drawn a card for 2 turns: the round is blocked, and the lowest hand wins it.",
            timeout=15_000,
        )
        expect(page.locator("#log li.log-round_end").first).to_contain_text("wins round 1")
        expect(page.locator("#results-sub")).to_contain_text(
            "Nobody could play or draw: the round was blocked, and Bot 1 held the lowest hand. "
            "Bot 1 collects the 18 points"
        )
        winner = page.locator('#results-hands tr.round-winner[data-seat="1"] .badge.lowest')
        expect(winner).to_have_text("lowest hand")
        ARTIFACTS.mkdir(exist_ok=True)
        page.wait_for_timeout(1500)  # the hands counted
        page.screenshot(path=str(ARTIFACTS / f"blocked-round-{name}.png"))
        page.click("#results-close")
        expect(page.locator("#log li.log-blocked")).to_be_visible()
        page.screenshot(path=str(ARTIFACTS / f"blocked-round-log-{name}.png"))
        assert not watch.real_errors(), watch.errors
