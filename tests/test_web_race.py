"""The bots' UNO race and their pace, over a real server.

While an UNO window is open, every bot that may call UNO for itself or catch is given a
reaction time drawn from the room's seed and the game's version: the earliest acts.  The
race is therefore not settled by seat number, and the same room seed gives the same result.
After a change that showed much (a round's end, a lever, a swap), bots wait longer.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from unokit.engine.cards import card_name
from unokit.engine.deck import stacked_deck
from unokit.engine.rules import Rules
from unokit.web.rooms import FixedSetup, Member, RoomGone
from unokit.web.timers import CALL_REACTION, CATCH_REACTION, MAX_PAUSE, PAUSE, pause_for, reaction_times
from web_support import Client, RunningServer, fast_settings, play_to_end

RULES = {"hand_size": 2, "scoring": "single-round"}
HANDS = [["R7", "G3"], ["B5", "Y9"], ["B6", "Y8"]]
"""Seat 0 (left of the dealer, seat 2) holds Red 7 and Green 3 on a Red 5: playing Red 7 leaves one card."""


def deal(seed: int) -> FixedSetup:
    deck = stacked_deck("classic", HANDS, "R5", ["B1", "Y2"], dealer=2, rules=Rules.from_dict(RULES))
    return FixedSetup(seed, tuple(card_name(card) for card in deck), dealer=2)


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with RunningServer(":memory:", fast_settings()) as running:
        yield running


def test_reaction_times_come_from_the_seed_and_the_version_only() -> None:
    racers = [(0, True), (1, False), (2, False)]
    times = reaction_times(99, 14, racers)
    assert times == reaction_times(99, 14, list(reversed(racers)))
    assert times[1] == reaction_times(99, 14, [(1, False)])[1], "a seat's time does not depend on the others"
    assert times != reaction_times(100, 14, racers) and times != reaction_times(99, 15, racers)
    assert CALL_REACTION[0] <= times[0] <= CALL_REACTION[1]
    assert all(CATCH_REACTION[0] <= times[s] <= CATCH_REACTION[1] for s in (1, 2))
    winners = Counter(min(t, key=t.__getitem__) for t in (reaction_times(s, 3, racers) for s in range(400)))
    assert set(winners) == {0, 1, 2} and winners[0] > winners[1] + winners[2], winners


def race_between_bots(server: RunningServer, seed: int) -> tuple[int, str]:
    """Three bots; seat 0 plays Red 7 without calling UNO, so it races the other two: who spoke first?"""
    code, _ = server.create_fixed_room(deal(seed), seats=3, rules=RULES)

    async def begin() -> None:
        room = server.hub.rooms[code]
        async with room.lock:  # no bot acts before Red 7 is played
            for seat in room.seats:  # nobody is connected: three bots, started in code
                seat.empty("bot")
            await room.start_match()
            await room.apply(0, room.game.actions.parse("R7"))

    server.call(begin)
    deadline = time.monotonic() + 10
    while True:
        history = server.call(lambda: list(server.hub.storage.load_record(code)["actions"]))
        if len(history) >= 2:
            seat, action = history[1]
            return seat, action
        assert time.monotonic() < deadline, "nobody spoke"
        time.sleep(0.01)


def test_between_bots_both_the_caller_and_the_catchers_win_some_races(server: RunningServer) -> None:
    results = [race_between_bots(server, 2**40 + seed) for seed in range(40)]
    assert results[0][1] in ("uno", "catch@0")
    outcomes = Counter(results)
    assert outcomes[(0, "uno")] > 0, outcomes
    assert outcomes[(1, "catch@0")] > 0 and outcomes[(2, "catch@0")] > 0, outcomes
    assert outcomes[(0, "uno")] > outcomes[(1, "catch@0")] + outcomes[(2, "catch@0")], "the caller is usually first"
    again = [race_between_bots(server, 2**40 + seed) for seed in range(8)]
    assert again == results[:8], "the same room seed gives the same race"


def human_forgets(server: RunningServer, seed: int) -> dict[str, Any]:
    """Ann plays Red 7 without calling, over the network; two bots race to catch her."""
    code, secret = server.create_fixed_room(deal(seed), seats=3, rules=RULES)
    ann = Client(server.url)
    ann.send(type="resume", code=code, secret=secret)
    ann.expect("lobby")
    for seat in (1, 2):
        ann.send(type="seat", seat=seat, bot=True)
        ann.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
    ann.send(type="start")
    first = ann.expect("update")
    ann.send(type="act", action="R7", version=first["version"])
    caught = ann.expect("update", where=lambda m: any(e["kind"] == "catch" for e in m["events"]))
    ann.close()
    return next(e for e in caught["events"] if e["kind"] == "catch")


def test_which_bot_catches_a_player_is_not_settled_by_seat_order(server: RunningServer) -> None:
    catchers = [human_forgets(server, 2**41 + seed)["seat"] for seed in range(16)]
    assert set(catchers) == {1, 2}, catchers
    assert [human_forgets(server, 2**41 + seed)["seat"] for seed in range(4)] == catchers[:4]


def test_the_pause_table() -> None:
    plain = [("play", 1, 0, (5,))]
    assert pause_for(plain) == 0.0
    assert pause_for([("draw", 1, 1, (3,))]) == 0.0
    assert pause_for([("draw", 1, 2, (3, 4))]) > 0.0
    for kind in ("lever", "jam", "rule", "round_end", "swap"):
        assert pause_for([(kind, 0, 1, ())]) == PAUSE[kind] > 0.0
    assert pause_for([("round_end", 0, 1, ())] * 5) == MAX_PAUSE


def test_bots_wait_longer_after_a_round_ends_than_after_a_plain_play() -> None:
    delay = 0.05
    with RunningServer(":memory:", fast_settings(bot_delay=delay, results_seconds=0)) as server:
        rules = {"hand_size": 3, "target_score": 120, "scoring": "winner-collects"}
        code, secret = server.create_fixed_room(FixedSetup(2**45 + 3), seats=4, rules=rules)
        ann = Client(server.url)
        ann.send(type="resume", code=code, secret=secret)
        ann.expect("lobby")
        for seat in (1, 2, 3):
            ann.send(type="seat", seat=seat, bot=True)
            ann.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
        ann.send(type="start")
        arrived: list[tuple[float, dict[str, Any]]] = []
        original = ann.recv

        def timed_recv(timeout: float = 10.0) -> dict[str, Any]:
            message = original(timeout)
            if message["type"] == "update":
                arrived.append((time.monotonic(), message))
            return message

        ann.recv = timed_recv  # type: ignore[method-assign]

        ends: list[float] = []
        plain: list[float] = []

        def measured(_: Client) -> bool:
            ends.clear()
            plain.clear()
            for (t0, first), (t1, second) in itertools.pairwise(arrived):
                kinds = {e["kind"] for e in first["events"]}
                by_bot = bool(second["events"]) and second["events"][0]["seat"] not in (0, -1)
                if not by_bot or second["events"][0]["kind"] in ("uno", "catch"):
                    continue
                if "round_end" in kinds and "match_end" not in kinds:
                    ends.append(t1 - t0)
                elif kinds <= {"play", "draw", "pass", "colour"} and all(
                    e["kind"] != "draw" or e["value"] < 2 for e in first["events"]
                ):
                    plain.append(t1 - t0)
            return len(ends) >= 1 and len(plain) >= 10

        play_to_end(ann, random.Random(1), timeout=60, stop=measured)
        ann.close()
        assert ends and plain, "a round ended before a bot's turn"
        assert min(ends) >= delay * (1 + PAUSE["round_end"]) * 0.85, ends
        assert sorted(plain)[len(plain) // 2] < delay * (1 + PAUSE["round_end"]) / 2, plain


def join_as_the_last_member_leaves(
    server: RunningServer, jitter: float
) -> tuple[str, str, Client, Client, dict[str, Any]]:
    """Ann creates a three-seat room; Bob asks to join while Ann's socket closes ``jitter`` seconds
    later; Ann comes back.  Returns the code, Ann's secret, both clients once both are in, and the
    lobby Ann is shown on her return."""
    ann = Client(server.url)
    ann.send(type="create", name="Ann", edition="classic", seats=3)
    welcome = ann.expect("welcome")
    ann.expect("lobby")
    code, secret = welcome["code"], welcome["secret"]
    bob = Client(server.url)
    bob.send(type="join", code=code, name="Bob")
    time.sleep(jitter)
    ann.close()
    assert bob.expect("welcome")["seat"] == 1
    ann = Client(server.url)
    ann.send(type="resume", code=code, secret=secret)
    return code, secret, ann, bob, ann.expect("lobby")


def test_a_join_racing_the_last_members_disconnect_keeps_one_room(tmp_path: Path) -> None:
    """Whatever the order in which the join and the disconnect are handled, Ann and Bob end up in one
    room: they see each other, their chat crosses, and the stored seats are the room's (after a
    restart the match plays on with no open seat)."""
    db = str(tmp_path / "rooms.sqlite3")
    rng = random.Random(27)
    codes: list[tuple[str, str]] = []
    with RunningServer(db, fast_settings()) as server:
        for attempt in range(24):
            jitter = 0.0 if attempt % 2 == 0 else rng.uniform(0.0, 0.004)  # at once: the join waits for the store
            code, secret, ann, bob, lobby = join_as_the_last_member_leaves(server, jitter)
            live = server.call(lambda c=code: server.hub.rooms[c])
            assert len(live.members) == 2, f"try {attempt}: Ann and Bob are not in one room"
            assert lobby["seats"][1]["kind"] == "human" and not lobby["seats"][1]["away"], f"try {attempt}: {lobby}"
            ann.send(type="chat", text=f"hello {attempt}")
            bob.expect("chat", where=lambda m, a=attempt: m["text"] == f"hello {a}", timeout=2)  # type: ignore[misc]
            ann.send(type="seat", seat=2, bot=True)
            ann.expect("lobby", where=lambda m: m["seats"][2]["kind"] == "bot")
            ann.send(type="start")
            ann.expect("update")
            bob.send(type="leave")
            bob.expect("left")
            stored = server.call(lambda c=code: server.hub.storage.load_room(c))
            kinds = [seat.kind for seat in stored.seats]
            assert stored.status == "playing" and kinds == ["human", "human", "bot"], (attempt, stored.status, kinds)
            ann.close()
            bob.close()
            codes.append((code, secret))
    with RunningServer(db, fast_settings(away_seconds=0.05, results_seconds=0)) as server:
        for code, _ in codes:
            room = server.hub.rooms[code]
            assert room.status == "playing" and all(seat.kind != "open" for seat in room.seats), code
        code, secret = codes[-1]
        ann = Client(server.url)
        ann.send(type="resume", code=code, secret=secret)
        assert not any(seat["kind"] == "open" for seat in ann.expect("update")["seats"])
        assert play_to_end(ann, random.Random(5), timeout=30)["finished"]
        ann.close()


def test_a_room_put_away_refuses_everything_and_writes_nothing(tmp_path: Path) -> None:
    """Once a lobby nobody is in is put away, its old object stores nothing and lets nobody in; the
    room of its code is fetched again from the store, as one new object."""
    with RunningServer(str(tmp_path / "rooms.sqlite3"), fast_settings()) as server:
        code, _ = server.create_fixed_room(FixedSetup(5), seats=3)
        old = server.hub.rooms[code]
        server.call(old.put_away)
        assert code not in server.hub.rooms and old.closed

        async def ask_the_old_object() -> int:
            refused = 0
            for attempt in (
                lambda: old.join("Mallory"),
                lambda: old.set_host(1),
                lambda: old.attach(Member(lambda message: None), None),
            ):
                with pytest.raises(RoomGone):
                    await attempt()
                refused += 1
            with pytest.raises(RoomGone), old.held():
                pass
            return refused

        assert server.call(ask_the_old_object) == 3
        stored = server.hub.storage.load_room(code)
        assert stored.host == 0 and [seat.kind for seat in stored.seats] == ["human", "open", "open"]
        bob = Client(server.url)
        bob.send(type="join", code=code, name="Bob")
        assert bob.expect("welcome")["seat"] == 1
        live = server.hub.rooms[code]
        assert live is not old and [member.seat for member in live.members] == [1]
        bob.close()
