"""Missed UNO calls over real WebSockets, both ways, on deals fixed in advance.

Ann holds Red 7 and Green 3 on a Red 5 and plays Red 7 without calling (``R7``, not ``R7!``).
A heuristic bot catches her at once; a player catches her with ``catch@0``; her late
``uno`` before anyone catches her protects her; and the window closes when the next
player begins their turn (docs/rules.md, "Calling UNO and catching").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from unokit.engine.cards import card_name
from unokit.engine.deck import stacked_deck
from unokit.engine.rules import Rules
from unokit.web.rooms import FixedSetup
from web_support import Client, RunningServer, fast_settings

RULES = {"hand_size": 2, "scoring": "single-round"}
ANN, BOB = ["R7", "G3"], ["B5", "Y9"]
PENALTY = ["B1", "Y2"]
"""The top of the draw pile: the two cards Ann draws when she is caught."""


def ann_deal(seed: int) -> FixedSetup:
    """Ann (seat 0, left of the dealer) holds Red 7 and Green 3, Bob Blue 5 and Yellow 9, on a Red 5."""
    deck = stacked_deck("classic", [ANN, BOB], "R5", PENALTY, dealer=1, rules=Rules.from_dict(RULES))
    return FixedSetup(seed, tuple(card_name(card) for card in deck), dealer=1)


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with RunningServer(":memory:", fast_settings()) as running:
        yield running


def seated(server: RunningServer, bob_is_a_bot: bool) -> tuple[Client, Client | None, str]:
    """A started two-seat room with Ann's deal: Ann (seat 0, first to play) and Bob or a bot."""
    code, secret = server.create_fixed_room(ann_deal(2**40 + 1), "classic", seats=2, rules=RULES)
    ann = Client(server.url)
    ann.send(type="resume", code=code, secret=secret)
    ann.expect("lobby")
    bob = None
    if bob_is_a_bot:
        ann.send(type="seat", seat=1, bot=True)
        ann.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "bot")
    else:
        bob = Client(server.url)
        bob.send(type="join", code=code, name="Bob")
        assert bob.expect("welcome")["seat"] == 1
        ann.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "human")
    ann.send(type="start")
    first = ann.expect("update")
    assert sorted(first["view"]["hand"]) == sorted(ANN) and first["view"]["top_card"] == "R5"
    assert first["view"]["actor"] == 0
    legal = {entry["action"] for entry in first["legal"]}
    assert {"R7", "R7!", "draw"} <= legal and "G3" not in legal
    if bob is not None:
        bob.expect("update")
    return ann, bob, code


def forget_uno(ann: Client) -> dict[str, Any]:
    """Ann plays her next-to-last card without calling; returns her update showing it."""
    assert ann.update is not None
    ann.send(type="act", action="R7", version=ann.update["version"])
    update = ann.expect("update", where=lambda m: any(e["kind"] == "play" for e in m["events"]))
    assert [e["kind"] for e in update["events"]] == ["play"] and update["events"][0]["cards"] == ["R7"]
    assert update["view"]["hand"] == ["G3"]
    return update


def events_after(client: Client, version: int) -> list[dict[str, Any]]:
    return [e for m in client.received if m["type"] == "update" and m["version"] > version for e in m["events"]]


def legal(update: dict[str, Any]) -> set[str]:
    return {entry["action"] for entry in update["legal"]}


def test_a_bot_catches_a_player_who_did_not_call_uno(server: RunningServer) -> None:
    ann, _, code = seated(server, bob_is_a_bot=True)
    played = forget_uno(ann)
    # Ann may still call late, until someone speaks first: here the bot does, at once
    assert played["view"]["uncalled"] == [0] and "uno" in legal(played)
    caught = ann.expect("update", where=lambda m: any(e["kind"] == "catch" for e in m["events"]))
    catch, draw = caught["events"][:2]
    assert (catch["kind"], catch["seat"], catch["value"]) == ("catch", 1, 0)
    assert catch["text"] == "Bot 1 catches you without UNO!"
    assert (draw["kind"], draw["seat"], draw["value"], draw["cards"]) == ("draw", 0, 2, PENALTY)
    assert caught["view"]["hand_sizes"][0] == 3 and caught["view"]["uncalled"] == []
    assert sorted(caught["view"]["hand"]) == sorted(["G3", *PENALTY])
    assert "uno" not in legal(caught)
    record = server.call(lambda: server.hub.storage.load_record(code))
    assert record["actions"][:2] == [[0, "R7"], [1, "catch@0"]]
    ann.close()


def test_a_player_catches_a_player_who_did_not_call_uno(server: RunningServer) -> None:
    ann, bob, _ = seated(server, bob_is_a_bot=False)
    assert bob is not None
    played = forget_uno(ann)
    assert legal(played) == {"uno"} and played["view"]["uncalled"] == [0] and played["view"]["called"] == []
    seen = bob.expect("update", where=lambda m: m["version"] == played["version"])
    assert "catch@0" in legal(seen) and "draw" in legal(seen)
    assert seen["view"]["hand_sizes"] == [1, 2] and seen["view"]["uncalled"] == [0]
    bob.send(type="act", action="catch@0", version=seen["version"])
    caught = bob.expect("update", where=lambda m: m["version"] > seen["version"])
    assert [(e["kind"], e["seat"], e["value"]) for e in caught["events"]] == [("catch", 1, 0), ("draw", 0, 2)]
    assert caught["events"][0]["text"] == "You catch Ann without UNO!"
    assert caught["events"][1]["cards"] == [], "Bob does not see the cards Ann draws"
    assert caught["view"]["hand_sizes"] == [3, 2] and "catch@0" not in legal(caught)
    mine = ann.expect("update", where=lambda m: m["version"] == caught["version"])
    assert mine["events"][0]["text"] == "Bob catches you without UNO!"
    assert mine["events"][1]["cards"] == PENALTY and sorted(mine["view"]["hand"]) == sorted(["G3", *PENALTY])
    assert legal(mine) == set(), "Ann's call is too late now, and it is Bob's turn"
    ann.close()
    bob.close()


def test_a_late_call_before_anyone_catches_protects_the_player(server: RunningServer) -> None:
    ann, bob, _ = seated(server, bob_is_a_bot=False)
    assert bob is not None
    played = forget_uno(ann)
    seen = bob.expect("update", where=lambda m: m["version"] == played["version"])
    assert "catch@0" in legal(seen)
    ann.send(type="act", action="uno", version=played["version"])
    called = ann.expect("update", where=lambda m: m["version"] > played["version"])
    assert [(e["kind"], e["seat"]) for e in called["events"]] == [("uno", 0)]
    assert called["events"][0]["text"] == "You call UNO!"
    assert called["view"]["uncalled"] == [] and legal(called) == set()
    assert called["view"]["called"] == [0]
    told = bob.expect("update", where=lambda m: m["version"] == called["version"])
    assert told["view"]["called"] == [0]
    assert told["events"][0]["text"] == "Ann calls UNO!" and "catch@0" not in legal(told)
    # Bob's catch comes too late: refused, stale at the version he saw, illegal at the new one
    bob.send(type="act", action="catch@0", version=seen["version"])
    assert bob.expect("error")["code"] == "stale"
    bob.send(type="act", action="catch@0", version=called["version"])
    assert bob.expect("error")["code"] == "illegal"
    assert ann.quiet(0.2) == [] and bob.quiet(0.0) == [], "nothing happened"
    assert ann.update is not None and ann.update["view"]["hand"] == ["G3"]
    ann.close()
    bob.close()


def test_legal_entries_say_what_each_action_is(server: RunningServer) -> None:
    ann, bob, _ = seated(server, bob_is_a_bot=False)
    assert bob is not None and ann.update is not None
    first = ann.update
    assert first["asks"] == "play a card or draw"
    entries = {entry["action"]: entry for entry in first["legal"]}
    assert {key: entries["R7!"][key] for key in ("type", "card", "seat", "colour")} == {
        "type": "play_uno",
        "card": "R7",
        "seat": None,
        "colour": None,
    }
    assert (entries["R7"]["type"], entries["R7"]["card"]) == ("play", "R7")
    assert (entries["draw"]["type"], entries["draw"]["card"], entries["draw"]["seat"]) == ("draw", None, None)
    played = forget_uno(ann)
    assert [(e["type"], e["card"], e["seat"]) for e in played["legal"]] == [("call_uno", None, None)]
    seen = bob.expect("update", where=lambda m: m["version"] == played["version"])
    assert seen["asks"] == "play a card or draw" and seen["view"]["actor"] == 1
    catch = next(entry for entry in seen["legal"] if entry["action"] == "catch@0")
    assert (catch["type"], catch["card"], catch["seat"]) == ("catch", None, 0)
    ann.close()
    bob.close()


def test_the_window_closes_when_the_next_player_begins_their_turn(server: RunningServer) -> None:
    ann, bob, _ = seated(server, bob_is_a_bot=False)
    assert bob is not None
    played = forget_uno(ann)
    seen = bob.expect("update", where=lambda m: m["version"] == played["version"])
    bob.send(type="act", action="draw", version=seen["version"])  # Bob begins his turn instead of catching
    drew = bob.expect("update", where=lambda m: m["version"] > seen["version"])
    assert drew["events"][0]["kind"] == "draw" and drew["view"]["uncalled"] == []
    assert drew["view"]["called"] == [], "Ann holds one card but never called UNO"
    assert "catch@0" not in legal(drew)
    bob.send(type="act", action="catch@0", version=drew["version"])
    assert bob.expect("error")["code"] == "not-your-turn"  # Blue 1 did not match: Ann's turn
    now = ann.expect("update", where=lambda m: m["version"] == drew["version"])
    assert "uno" not in legal(now) and now["view"]["hand_sizes"][0] == 1
    ann.close()
    bob.close()
