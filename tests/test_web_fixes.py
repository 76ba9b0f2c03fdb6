"""Regression tests of bugs found in play: rule cards drawn for seats, the serve command's errors,
and the words of a player's own decision."""

from __future__ import annotations

import random

from unokit import rulecards
from unokit.jackpot import suggested_rule_cards
from web_support import Client, RunningServer, fast_settings


def test_suggested_rule_cards_draw_anew_from_the_generator() -> None:
    rng = random.Random(5)
    draws = [tuple(suggested_rule_cards(2, rng)) for _ in range(20)]
    assert len(set(draws)) > 1, "the same generator must not give the same cards every time"
    assert all(text in rulecards.SUGGESTIONS for draw in draws for text in draw)
    # one draw for several seats repeats a suggestion only once they are all used
    eight = suggested_rule_cards(len(rulecards.SUGGESTIONS), random.Random(1))
    assert sorted(eight) == sorted(rulecards.SUGGESTIONS)
    assert suggested_rule_cards(3, random.Random(9)) == suggested_rule_cards(3, random.Random(9))


def test_bots_of_a_wild_jackpot_room_write_different_rule_cards() -> None:
    with RunningServer(":memory:", fast_settings()) as server:
        for _ in range(3):
            host = Client(server.url)
            host.send(type="create", name="Ann", edition="wild-jackpot", seats=4, rules={"scoring": "single-round"})
            code = host.expect("welcome")["code"]
            host.expect("lobby")
            host.send(type="rule_cards", texts=["Draw 1 card.", "Make a wish."])
            host.expect("lobby", where=lambda m: m["seats"][0]["ready"])
            for seat in (1, 2, 3):
                host.send(type="seat", seat=seat, bot=True)
                host.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
            host.send(type="start")
            host.expect("update")
            texts = server.call(lambda code=code: list(server.hub.rooms[code].game.extra["texts"]))
            bots = [text for text in texts if text not in ("Draw 1 card.", "Make a wish.")]
            assert len(texts) == 8 and len(bots) == 6
            assert len(set(bots)) == 6, f"the bots wrote the same card twice: {bots}"
            host.close()
