"""Limits that keep one client from stalling the server: full resyncs, unread messages, rooms created,
and lobbies nobody came back to."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from unokit.web.rooms import FixedSetup, Member
from web_support import Client, RunningServer, captured_logs, fast_settings, play_to_end


def finished_match(server: RunningServer, seed: int = 3) -> tuple[str, int]:
    """A match of four bots played to a target score in the server's code; returns its code and
    how many events it has."""
    code, _ = server.create_fixed_room(FixedSetup(seed), seats=4, rules={"target_score": 300})

    async def play() -> int:
        room = server.hub.rooms[code]
        async with room.lock:  # no bot of the room's own acts meanwhile
            for seat in room.seats:  # the host's seat too: nobody is connected
                seat.kind, seat.name = "bot", f"Bot {seat.index}"
            await room.start_match()
            while not room.game.is_over:
                seat = room.game.actor
                await room.apply(seat, room.bot(seat).choose(room.game.view(seat)))
            return len(room.game.events)

    return code, int(server.call(play))


def test_one_full_resync_per_connection_every_few_seconds() -> None:
    settings = fast_settings(resync_events=100, resync_seconds=2.0)
    with RunningServer(":memory:", settings) as server:
        code, events = finished_match(server)
        assert events > 100
        watcher = Client(server.url)
        watcher.send(type="spectate", code=code, version=0)
        full = watcher.expect("update")
        assert len(full["events"]) == events, "the first full resync is answered"
        watcher.send(type="sync", version=0)
        refused = watcher.expect("error")
        assert refused["code"] == "rate-limited" and "resync" in refused["message"]
        watcher.send(type="sync", version=events - 50)
        assert len(watcher.expect("update")["events"]) == 50, "a short catch-up is always answered"
        watcher.send(type="spectate", code=code, version=0)
        assert watcher.expect("error")["code"] == "rate-limited"
        time.sleep(2.1)
        watcher.send(type="sync", version=0)
        assert len(watcher.expect("update")["events"]) == events, "after the pause it is answered again"
        other = Client(server.url)
        other.send(type="spectate", code=code, version=0)
        assert len(other.expect("update")["events"]) == events, "the limit is per connection"
        watcher.close()
        other.close()


def test_a_connection_that_does_not_read_is_closed_past_its_outbox_bytes() -> None:
    limit = 1024 * 1024
    settings = fast_settings(outbox_bytes=limit, resync_seconds=0.0)
    with RunningServer(":memory:", settings) as server:
        code, _ = finished_match(server)
        reader = Client(server.url)
        reader.send(type="spectate", code=code, version=0)
        size = len(reader.ws.recv(timeout=10)) + len(reader.ws.recv(timeout=10))  # welcome, update
        assert size > 20_000
        slow = Client(server.url)
        slow.send(type="spectate", code=code, version=0)
        received = 0
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(2000):
                slow.send(type="sync", version=0)  # never reads: the answers pile up on the server
                time.sleep(0.001)
            while True:
                received += len(slow.ws.recv(timeout=10))
        # the close frame itself may wait behind the unread bytes: the server then drops the socket
        assert closed.value.rcvd is None or closed.value.rcvd.code == 1008
        assert received < 1000 * size, "closed, the answers queued dropped, long before all were sent"
        reader.send(type="ping")
        assert reader.expect("pong"), "the server still serves the others"
        reader.close()
        slow.close()


def test_a_connection_may_create_only_a_few_rooms_an_hour() -> None:
    with RunningServer(":memory:", fast_settings(creates_per_hour=3)) as server:
        client = Client(server.url)
        for _ in range(3):
            client.send(type="create", name="Ann", edition="classic", seats=2)
            client.expect("welcome")
        client.send(type="create", name="Ann", edition="classic", seats=2)
        assert client.expect("error")["code"] == "rate-limited"
        other = Client(server.url)
        other.send(type="create", name="Bob", edition="classic", seats=2)
        assert other.expect("welcome")["seat"] == 0, "another connection may still create"
        client.close()
        other.close()


def test_abandoned_lobbies_do_not_fill_the_server_after_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "rooms.sqlite3")
    settings = fast_settings(max_rooms=3)
    codes = []
    with RunningServer(db, settings) as first:
        for _ in range(10):
            client = Client(first.url)
            client.send(type="create", name="Ann", edition="classic", seats=2)
            codes.append(client.expect("welcome")["code"])
            client.close()
            deadline = time.monotonic() + 5
            while codes[-1] in first.hub.rooms:
                assert time.monotonic() < deadline, "the empty lobby stays in memory"
                time.sleep(0.01)
    with RunningServer(db, settings) as second:
        assert second.hub.rooms == {}, "lobbies are not loaded at start-up"
        client = Client(second.url)
        client.send(type="create", name="Ann", edition="classic", seats=2)
        assert client.expect("welcome")["seat"] == 0
        guest = Client(second.url)
        guest.send(type="join", code=codes[0], name="Bob")
        assert guest.expect("welcome")["seat"] == 1, "a stored lobby comes back when asked for"
        client.close()
        guest.close()
    with RunningServer(db, fast_settings(lobby_hours=0.0)) as third:
        guest = Client(third.url)
        guest.send(type="join", code=codes[1], name="Bob")
        assert guest.expect("error")["code"] == "not-found", "lobbies untouched for lobby_hours are deleted"
        guest.close()


def test_a_match_nobody_watches_is_put_away_and_comes_back_when_opened(tmp_path: Path) -> None:
    """Nobody connected for ``idle_minutes``: the match leaves memory (its bots stop), stays in the
    store, is not brought back by a restart, and comes back as it was when its player opens it."""
    settings = fast_settings(idle_minutes=0.02, away_seconds=600.0)  # 1.2 s
    db = str(tmp_path / "rooms.sqlite3")
    with RunningServer(db, settings) as server:
        ann = Client(server.url)
        ann.send(type="create", name="Ann", edition="classic", seats=2)
        welcome = ann.expect("welcome")
        code, secret = welcome["code"], welcome["secret"]
        ann.send(type="seat", seat=1, bot=True)
        ann.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "bot")
        ann.send(type="start")
        ann.expect("update")
        ann.quiet(0.3)  # the bot plays up to Ann's turn
        left_at = ann.update
        assert left_at is not None
        ann.close()
        deadline = time.monotonic() + 10
        while server.call(lambda: code in server.hub.rooms):
            assert time.monotonic() < deadline, "the match nobody watches stays in memory"
            time.sleep(0.1)
        assert server.hub.storage.load_room(code).status == "playing"
        back = Client(server.url)
        back.send(type="resume", code=code, secret=secret)
        update = back.expect("update")
        assert update["version"] == left_at["version"] and update["view"] == left_at["view"]
        back.close()
    with RunningServer(db, settings) as again:
        time.sleep(0.1)
        assert again.call(lambda: code in again.hub.rooms) is False, "not restored: nobody played it lately"
    with RunningServer(db, fast_settings()) as third:
        assert third.call(lambda: code in third.hub.rooms), "restored by a server that keeps matches longer"


def test_a_failed_pass_of_the_rooms_scheduler_stops_no_bot() -> None:
    """An error in one pass of the scheduler (here, tidying) is logged, and the bots play on: the
    scheduler is one task for every room, so dying with it would stop every room's bots for good."""
    with RunningServer(":memory:", fast_settings()) as server, captured_logs() as logs:
        tidy = server.hub.tidy
        failed: list[bool] = []

        def failing_once() -> None:
            if not failed:
                failed.append(True)
                raise RuntimeError("tidying failed")
            tidy()

        server.call(lambda: setattr(server.hub, "tidy", failing_once))
        ann = Client(server.url)
        ann.send(type="create", name="Ann", edition="classic", seats=3)
        ann.expect("welcome")
        for seat in (1, 2):
            ann.send(type="seat", seat=seat, bot=True)
            ann.expect("lobby", where=lambda m, seat=seat: m["seats"][seat]["kind"] == "bot")
        ann.send(type="start")
        ann.expect("update")

        def bots_played(client: Client) -> bool:
            plays = [event for message in client.received if message["type"] == "update" for event in message["events"]]
            return {1, 2} <= {event["seat"] for event in plays if event["kind"] == "play"}

        play_to_end(ann, random.Random(7), timeout=20, stop=bots_played)
        assert failed, "the scheduler's pass failed"
        assert any("scheduler failed a pass" in record.getMessage() for record in logs)
        ann.close()


def test_an_update_that_cannot_be_made_for_one_connection_starves_nobody() -> None:
    """If the update of one connection cannot be made (here, once, for a spectator), that
    connection is told so and sent everything at the next change, and the others' updates go on."""
    with RunningServer(":memory:", fast_settings()) as server, captured_logs() as logs:
        ann = Client(server.url)
        ann.send(type="create", name="Ann", edition="classic", seats=3)
        code = ann.expect("welcome")["code"]
        for seat in (1, 2):
            ann.send(type="seat", seat=seat, bot=True)
            ann.expect("lobby", where=lambda m, seat=seat: m["seats"][seat]["kind"] == "bot")
        ann.send(type="start")
        ann.expect("update")
        bob = Client(server.url)
        bob.send(type="spectate", code=code)
        first = bob.expect("update")
        room = server.hub.rooms[code]
        make = room.update_message
        failed: list[int] = []

        def failing_once_for_bob(member: Member) -> dict[str, Any]:
            if member.seat is None and not failed:
                failed.append(member.version)
                raise RuntimeError("no update for this one")
            return make(member)

        server.call(lambda: setattr(room, "update_message", failing_once_for_bob))
        play_to_end(ann, random.Random(5), timeout=20, stop=lambda client: bool(failed) and len(client.received) > 40)
        assert len(failed) == 1 and failed[0] >= first["version"], "the spectator's update failed once"
        assert bob.expect("error", where=lambda m: m["code"] == "server")
        after = bob.expect("update")
        assert after["version"] - len(after["events"]) == 0, "the next update sends every event again"
        assert any("could not be made" in record.getMessage() for record in logs)
        ann.close()
        bob.close()
