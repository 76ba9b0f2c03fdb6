"""House rules in a web room: the room's bots jump in (house rule Jump-In) as they call and catch,
with a reaction time; a player's jump-in is a card action of the update; while a jump-in window is
open and a player sits at the table, a bot whose turn it is waits a little longer."""

from __future__ import annotations

from typing import Any

from unokit.engine.cards import card_name
from unokit.engine.deck import stacked_deck
from unokit.engine.rules import Rules
from unokit.web.rooms import FixedSetup
from unokit.web.timers import JUMP_GRACE
from web_support import Client, RunningServer, fast_settings

RULES: dict[str, Any] = {"hand_size": 3, "jump_in": True, "scoring": "single-round"}


def started(server: RunningServer, hands: list[list[str]]) -> tuple[Client, str, dict[str, Any]]:
    """A three-seat room (Ann, Bot 1, Bot 2) on a fixed deal with a Red 5 turned; Ann plays first."""
    deck = stacked_deck("classic", hands, "R5", dealer=2, rules=Rules.from_dict(RULES))
    setup = FixedSetup(2**40 + 31, tuple(card_name(card) for card in deck), dealer=2)
    code, secret = server.create_fixed_room(setup, seats=3, rules=RULES)
    ann = Client(server.url)
    ann.send(type="resume", code=code, secret=secret)
    ann.expect("lobby")
    for seat in (1, 2):
        ann.send(type="seat", seat=seat, bot=True)
        ann.expect("lobby", where=lambda m, seat=seat: m["seats"][seat]["kind"] == "bot")
    ann.send(type="start")
    return ann, code, ann.expect("update")


def events_of(client: Client) -> list[dict[str, Any]]:
    return [event for message in client.received if message["type"] == "update" for event in message["events"]]


def test_a_bot_holding_the_card_on_top_jumps_in_ahead_of_the_bot_to_play() -> None:
    with RunningServer(":memory:", fast_settings(bot_delay=0.05)) as server:
        ann, _, first = started(server, [["R3", "B1", "B2"], ["G4", "G6", "Y8"], ["R3", "Y1", "Y2"]])
        ann.send(type="act", action="R3", version=first["version"])
        ann.expect("update", where=lambda m: any(event["kind"] == "jump" for event in m["events"]))
        jump = next(event for event in events_of(ann) if event["kind"] == "jump")
        assert (jump["seat"], jump["value"]) == (2, 1), "Bot 2 jumps in ahead of Bot 1"
        assert "Bot 2 jumps in ahead of Bot 1" in jump["text"]
        ann.close()


def test_a_players_jump_in_is_a_card_action_of_their_update() -> None:
    with RunningServer(":memory:", fast_settings(bot_delay=5.0)) as server:
        ann, code, first = started(server, [["R9", "R3", "B7"], ["R3", "G1", "G2"], ["B4", "B6", "Y8"]])
        room = server.hub.rooms[code]
        ann.send(type="act", action="R9", version=first["version"])
        ann.expect("update", where=lambda m: m["view"]["actor"] == 1)
        server.call(lambda: room.game.apply_notation(1, "R3"))  # Bot 1's play, made at once
        server.call(room.changed)
        update = ann.expect("update", where=lambda m: m["view"]["actor"] == 2)
        jumps = [entry for entry in update["legal"] if entry["type"] in ("jump", "jump_uno")]
        assert {(entry["action"], entry["card"]) for entry in jumps} == {("^R3", "R3"), ("^R3!", "R3")}
        assert update["view"]["deciders"] == [0, 2], "Ann sees herself among the deciders"
        # the bot to play waits the longer while the window is open and Ann is at the table
        due, kind = server.call(room.next_step)
        expected = room.last_change + 5.0 * (room.pause + 1 + JUMP_GRACE)
        assert kind == "turn" and abs(due - expected) < 1e-6
        ann.send(type="act", action="^R3", version=update["version"])
        ann.expect(
            "update", where=lambda m: any(event["kind"] == "jump" and event["seat"] == 0 for event in m["events"])
        )
        ann.close()


def test_the_wait_does_not_tell_whether_anyone_holds_the_card() -> None:
    """Ann holds no Red 4: the window on Bot 1's Red 4 is open all the same, and Bot 2 waits as long."""
    with RunningServer(":memory:", fast_settings(bot_delay=5.0)) as server:
        ann, code, first = started(server, [["R9", "G3", "B7"], ["R4", "G1", "G2"], ["B4", "B6", "Y8"]])
        room = server.hub.rooms[code]
        ann.send(type="act", action="R9", version=first["version"])
        ann.expect("update", where=lambda m: m["view"]["actor"] == 1)
        server.call(lambda: room.game.apply_notation(1, "R4"))
        server.call(room.changed)
        update = ann.expect("update", where=lambda m: m["view"]["actor"] == 2)
        assert not [entry for entry in update["legal"] if entry["type"] in ("jump", "jump_uno")]
        assert update["view"]["deciders"] == [2]
        due, kind = server.call(room.next_step)
        assert kind == "turn" and abs(due - (room.last_change + 5.0 * (room.pause + 1 + JUMP_GRACE))) < 1e-6
        ann.close()
