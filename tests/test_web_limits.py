"""Limits that keep one client from stalling the server: full resyncs, unread messages, rooms created,
and lobbies nobody came back to."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from unokit.web.chat import SPECTATOR_CHAT_BURST
from unokit.web.rooms import FixedSetup, Member, ServerSettings
from unokit.web.storage import ActionRow
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


def long_finished_match(server: RunningServer, target: int = 5000) -> tuple[str, int]:
    """A match of four bots to a high target score (some ten thousand events), played in the
    server's code and stored at once (no message could make one so fast); returns its code and how
    many events it has."""
    code, _ = server.create_fixed_room(FixedSetup(7), seats=4, rules={"target_score": target})

    async def play() -> int:
        room = server.hub.rooms[code]
        async with room.lock:
            for seat in room.seats:
                seat.kind, seat.name = "bot", f"Bot {seat.index}"
            await room.start_match()
            game = room.game.clone()
            rows = []
            while not game.is_over:
                seat = game.actor
                action = room.bot(seat).choose(game.view(seat))
                game.apply(seat, action)
                rows.append(ActionRow(code, len(game.history) - 1, seat, game.actions.format(action)))
            storage = server.hub.storage
            await server.hub.store.run(storage.append_actions, rows)
            result = {"winner": game.winner, "scores": list(game.scores), "rounds": game.round, "names": room.names()}
            await server.hub.store.run(storage.save_result, code, result)
            room.begin(game)
            return len(game.events)

    return code, int(server.call(play))


def pings(client: Client, seconds: float, every: float = 0.1) -> list[float]:
    """Send ``ping`` every ``every`` seconds for ``seconds``; the time each took to be answered
    (``inf``: not answered within a second after the last)."""
    sent: list[float] = []
    answered: list[float] = []
    start = time.monotonic()
    end = start + seconds
    while True:
        now = time.monotonic()
        if now >= end + 1.0 or (now >= end and len(answered) == len(sent)):
            break
        if now < end and now >= start + every * len(sent):
            client.send(type="ping")
            sent.append(now)
        wait = max(0.001, min(start + every * len(sent), end + 1.0) - time.monotonic())
        try:
            message = client.recv(wait)
        except TimeoutError:
            continue
        if message["type"] == "pong":
            answered.append(time.monotonic() - sent[len(answered)])
    return answered + [float("inf")] * (len(sent) - len(answered))


def test_full_resyncs_from_one_address_stall_no_other_client() -> None:
    """Sixty spectators from one address each ask for a full resync of a long match at their
    connection's allowed rate: an unrelated client's pings are answered at once all the same (the
    address's resyncs share one budget); spectators from many addresses share one narration."""
    defaults = ServerSettings()
    settings = fast_settings(
        address_resync_events=defaults.address_resync_events,
        server_resync_events=defaults.server_resync_events,
        trusted_proxies=("127.0.0.1",),
    )
    with RunningServer(":memory:", settings) as server:
        code, events = long_finished_match(server)
        assert events > 10_000
        crowd = [Client(server.url, {"X-Forwarded-For": "203.0.113.7"}, max_queue=None) for _ in range(60)]
        for spectator in crowd:
            spectator.send(type="spectate", code=code, version=events)  # the table as it is: cheap
            assert spectator.expect("update")["events"] == []
        pinger = Client(server.url)
        for spectator in crowd:
            spectator.send(type="sync", version=0)
        times = sorted(pings(pinger, 2.5))
        assert sum(t < float("inf") for t in times) >= 0.8 * len(times), times
        assert times[len(times) // 2] < 0.25, times
        outcomes = []
        for spectator in crowd:
            outcomes.append(spectator.expect("*", where=lambda m: m["type"] == "error" or bool(m.get("events"))))
        full = [m for m in outcomes if m["type"] == "update"]
        assert full and all(len(m["events"]) == events and m["version"] == events for m in full)
        refused = [m for m in outcomes if m["type"] == "error"]
        assert refused and all(m["code"] == "rate-limited" for m in refused), refused[:1]
        assert len(full) * events <= defaults.address_resync_events + events, "one address, one budget"
        for client in [*crowd, pinger]:
            client.close()

        strangers = [Client(server.url, {"X-Forwarded-For": f"198.51.100.{n}"}, max_queue=None) for n in range(1, 11)]
        for stranger in strangers:
            stranger.send(type="spectate", code=code, version=0)
        seen = [stranger.expect("update")["events"] for stranger in strangers]
        assert len(seen[0]) == events and all(got == seen[0] for got in seen)
        assert server.call(lambda: list(server.hub.rooms[code].narrated)) == [(None, "en")], "narrated once"
        for stranger in strangers:
            stranger.close()


def test_chat_is_limited_per_address_and_per_room_and_players_keep_their_share() -> None:
    """Sixty spectators from one address, over two rooms, store no more chat than the address's
    allowance; sixty spectators from sixty addresses store no more than the room's spectators'
    share, while a player's chat gets through every time."""
    defaults = ServerSettings()
    settings = fast_settings(
        address_chat_per_minute=defaults.address_chat_per_minute,
        address_chat_burst=defaults.address_chat_burst,
        trusted_proxies=("127.0.0.1",),
    )
    with RunningServer(":memory:", settings) as server:
        rooms: list[tuple[str, Client]] = []
        for number in (1, 2):
            code, secret = server.create_fixed_room(FixedSetup(number))
            host = Client(server.url, {"X-Forwarded-For": f"192.0.2.{number}"}, max_queue=None)
            host.send(type="resume", code=code, secret=secret)
            host.expect("chat_history")
            rooms.append((code, host))

        def spectators_chat(crowd: list[Client], codes: list[str], lines: int) -> None:
            for index, spectator in enumerate(crowd):
                spectator.send(type="spectate", code=codes[index % len(codes)])
                spectator.expect("chat_history")
            for line in range(lines):
                for index, spectator in enumerate(crowd):
                    spectator.send(type="chat", text=f"flood {index}.{line}")
            for spectator in crowd:  # every chat handled, in order, before the pong
                spectator.send(type="ping")
                spectator.expect("pong")

        def stored(code: str) -> list[Any]:
            return list(server.call(lambda: server.hub.storage.load_chat(code, 1000)))

        began = time.monotonic()
        one_address = [Client(server.url, {"X-Forwarded-For": "203.0.113.7"}, max_queue=None) for _ in range(60)]
        spectators_chat(one_address, [code for code, _ in rooms], 5)
        allowance = defaults.address_chat_burst + defaults.address_chat_per_minute * (time.monotonic() - began) / 60
        kept = sum(len(stored(code)) for code, _ in rooms)
        assert 0 < kept <= allowance, (kept, allowance)
        refused = [m for c in one_address for m in c.received if m["type"] == "error"]
        assert refused and all(m["code"] == "rate-limited" for m in refused)

        code, ann = rooms[0]
        before = len(stored(code))
        many = [Client(server.url, {"X-Forwarded-For": f"198.51.100.{n}"}, max_queue=None) for n in range(1, 61)]
        for spectator in many:
            spectator.send(type="spectate", code=code)
        for line in range(5):
            for spectator in many:
                spectator.send(type="chat", text=f"crowd {line}")
            ann.send(type="chat", text=f"still here {line}")
        for line in range(5):
            ann.expect("chat", where=lambda m, n=line: m["text"] == f"still here {n}")  # type: ignore[misc]
        assert not [m for m in ann.received if m["type"] == "error"], "the players' chat gets through"
        for spectator in many:
            spectator.send(type="ping")
            spectator.expect("pong")
        crowd_lines = [row for row in stored(code)[before:] if row.seat is None]
        assert len(crowd_lines) <= SPECTATOR_CHAT_BURST, len(crowd_lines)
        for client in [*one_address, *many, *(host for _, host in rooms)]:
            client.close()
