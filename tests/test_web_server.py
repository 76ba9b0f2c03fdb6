"""The web server over real WebSockets: lobby, whole matches, refusals, reconnection and restarts."""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cluster_support import LEASE, acknowledged_events, closed, resume, two_servers
from pg_support import shared_server
from redis_support import redis_server_fixture, redis_url_fixture
from unokit.bots.weights import learned_tables
from unokit.engine.record import replay
from unokit.web.rooms import CODE_ALPHABET, CODE_LENGTH
from web_support import Client, RunningServer, choose, fast_settings, play_to_end

__all__ = ["redis_server_fixture", "redis_url_fixture"]


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with RunningServer(":memory:", fast_settings()) as running:
        yield running


def get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def create_room(server: RunningServer, name: str = "Ann", **fields: Any) -> tuple[Client, str]:
    """A client hosting a new room; returns it and the room code (lobby read)."""
    client = Client(server.url)
    settings = {"edition": "classic", "seats": 4, "rules": {"scoring": "single-round"}, **fields}
    client.send(type="create", name=name, **settings)
    welcome = client.expect("welcome")
    client.expect("lobby")
    return client, welcome["code"]


def fill_with_bots(host: Client, seats: range) -> None:
    for seat in seats:
        host.send(type="seat", seat=seat, bot=True)
        host.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")


def test_create_join_and_lobby_rules(server: RunningServer) -> None:
    host, code = create_room(server, seats=3, late_join=False)
    assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
    assert host.welcome is not None
    assert host.welcome == {
        "type": "welcome",
        "code": code,
        "seat": 0,
        "host": True,
        "invite": f"/r/{code}",
        "secret": host.welcome["secret"],
    }
    assert len(host.welcome["secret"]) >= 32
    guest = Client(server.url)
    guest.send(type="join", code=code.lower(), name="Bob")
    welcome = guest.expect("welcome")
    assert welcome["seat"] == 1 and welcome["host"] is False and welcome["secret"] != host.welcome["secret"]
    lobby = host.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "human")
    assert [(s["name"], s["kind"], s["ready"]) for s in lobby["seats"]] == [
        ("Ann", "human", True),
        ("Bob", "human", True),
        ("Seat 2", "open", False),
    ]
    assert lobby["players"] == 3 and lobby["host"] == 0 and lobby["rule_cards"] is None
    # only the host changes seats or starts, and not with open seats
    guest.send(type="seat", seat=2, bot=True)
    assert guest.expect("error")["code"] == "forbidden"
    guest.send(type="start")
    assert guest.expect("error")["code"] == "forbidden"
    host.send(type="start")
    error = host.expect("error")
    assert error["code"] == "forbidden" and "open" in error["message"]
    host.send(type="seat", seat=1, bot=True)  # Bob is connected: his seat stays his
    assert host.expect("error")["code"] == "forbidden"
    host.send(type="seat", seat=2, bot=False)
    assert host.expect("error")["code"] == "forbidden"
    fill_with_bots(host, range(2, 3))
    third = Client(server.url)
    third.send(type="join", code=code, name="Cy")
    assert third.expect("error")["code"] == "full"
    host.send(type="seat", seat=2, bot=False)
    host.expect("lobby", where=lambda m: m["seats"][2]["kind"] == "open")
    fill_with_bots(host, range(2, 3))
    host.send(type="start")
    update = host.expect("update")
    assert update["version"] > 0 and update["view"]["seat"] == 0 and update["you"] == 0
    assert "history" not in update["view"]
    guest.expect("update")
    third.send(type="join", code=code, name="Cy")
    assert third.expect("error")["code"] == "started"
    for client in (host, guest, third):
        client.close()


def test_a_whole_single_round_match_against_bots(server: RunningServer) -> None:
    host, code = create_room(server)
    fill_with_bots(host, range(1, 4))
    host.send(type="start")
    host.expect("update")
    last = play_to_end(host, random.Random(3))
    assert last["finished"] and last["legal"] == []
    events = [e for m in host.received if m["type"] == "update" for e in m["events"]]
    assert [e["kind"] for e in events].count("round_end") == 1
    assert events[-1]["kind"] == "match_end"
    versions = [m["version"] for m in host.received if m["type"] == "update"]
    assert versions == sorted(versions) and len(events) == last["version"]
    mine = [e for e in events if e["kind"] == "play" and e["seat"] == 0]
    assert mine and all(e["text"].startswith("You play") for e in mine)
    assert any(e["text"].startswith("Bot 1 ") for e in events)
    # the record is served once the match is over, and replays to the same end
    status, headers, body = get(f"{server.http}/api/rooms/{code}/record")
    assert status == 200 and headers["content-type"] == "application/json"
    record = json.loads(body)
    assert record["names"] == ["Ann", "Bot 1", "Bot 2", "Bot 3"]
    assert len(replay(record).events) == last["version"]
    host.close()


def test_a_whole_match_to_a_target_score(server: RunningServer) -> None:
    host, _ = create_room(server, seats=3, rules={"target_score": 60, "scoring": "winner-collects"}, bot="random")
    fill_with_bots(host, range(1, 3))
    host.send(type="start")
    host.expect("update")
    last = play_to_end(host, random.Random(4))
    events = [e for m in host.received if m["type"] == "update" for e in m["events"]]
    ends = [e for e in events if e["kind"] == "round_end"]
    final = events[-1]
    assert final["kind"] == "match_end" and final["value"] == len(ends) == last["view"]["round"]
    assert max(final["scores"]) >= 60 and final["scores"][final["seat"]] == max(final["scores"])
    assert last["view"]["winner"] == final["seat"]
    assert "Final scores" in final["text"]
    host.close()


def human_table(server: RunningServer) -> tuple[Client, Client, Client, str]:
    """Two players and a spectator at a started two-seat table of humans."""
    host, code = create_room(server, seats=2)
    guest = Client(server.url)
    guest.send(type="join", code=code, name="Bob")
    guest.expect("welcome")
    host.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "human")
    watcher = Client(server.url)
    watcher.send(type="spectate", code=code)
    assert watcher.expect("welcome")["seat"] is None
    watcher.expect("lobby")
    host.send(type="start")
    for client in (host, guest, watcher):
        client.expect("update")
    return host, guest, watcher, code


def test_stale_out_of_turn_and_illegal_actions_change_nothing(server: RunningServer) -> None:
    host, guest, watcher, code = human_table(server)
    room = server.hub.rooms[code]
    players = {0: host, 1: guest}
    update = host.update
    assert update is not None
    actor = update["view"]["actor"]
    mover, other = players[actor], players[1 - actor]
    version = update["version"]
    before = room.game.state_key()
    wrong = {"challenge", "pass", "=R"} - {e["action"] for e in mover.update["legal"]}  # type: ignore[index]
    attempts = [
        (other, {"action": "draw", "version": version}, "not-your-turn"),
        (mover, {"action": "draw", "version": version - 1}, "stale"),
        (mover, {"action": "draw", "version": version + 5}, "stale"),
        (mover, {"action": sorted(wrong)[0], "version": version}, "illegal"),
        (mover, {"action": "X9", "version": version}, "illegal"),
        (mover, {"action": "catch@1", "version": version}, "illegal"),
        (watcher, {"action": "draw", "version": version}, "forbidden"),
    ]
    for client, fields, code_wanted in attempts:
        client.send(type="act", **fields)
        error = client.expect("error")
        assert error["code"] == code_wanted, (fields, error)
        assert "Traceback" not in error["message"]
    assert room.game.state_key() == before and room.version == version
    for client in (host, guest, watcher):
        assert client.quiet(0.2) == [], "nobody hears of a refused action"
    # the same action with the right version is applied and everyone hears of it
    action = choose(mover.update, random.Random(1))  # type: ignore[arg-type]
    mover.send(type="act", action=action, version=version)
    for client in (host, guest, watcher):
        assert client.expect("update")["version"] > version
    assert watcher.update is not None and watcher.update["legal"] == [] and watcher.update["view"]["hand"] == []
    for client in (host, guest, watcher):
        client.close()


def test_reconnection_resumes_the_seat_with_the_missed_events(server: RunningServer) -> None:
    host, guest, watcher, code = human_table(server)
    assert guest.welcome is not None
    secret, seen = guest.welcome["secret"], guest.update["version"]  # type: ignore[index]
    guest.close()
    away = watcher.expect("update", where=lambda m: m["seats"][1]["away"])
    assert away["events"] == [] and away["version"] == seen
    rng = random.Random(2)
    # the host plays on while Bob is away (only when it is the host's decision)
    for _ in range(3):
        update = host.update
        assert update is not None
        if update["view"]["actor"] != 0 or update["finished"]:
            break
        host.send(type="act", action=choose(update, rng), version=update["version"])
        host.expect("update", where=lambda m, v=update["version"]: m["version"] > v)
    now = host.update["version"]  # type: ignore[index]
    wrong = Client(server.url)
    wrong.send(type="resume", code=code, secret=secret[:-2] + "xx", version=0)
    assert wrong.expect("error")["code"] == "forbidden"
    back = Client(server.url)
    back.send(type="resume", code=code, secret=secret, version=seen)
    welcome = back.expect("welcome")
    assert welcome["seat"] == 1 and welcome["host"] is False
    update = back.expect("update")
    assert update["version"] == now and len(update["events"]) == now - seen
    assert update["view"]["seat"] == 1 and update["seats"][1]["away"] is False
    assert watcher.expect("update", where=lambda m: not m["seats"][1]["away"])["version"] == now
    # a full resync from version 0 gives every event, narrated for the seat
    back.send(type="sync", version=0)
    full = back.expect("update")
    assert len(full["events"]) == now and full["events"][0]["kind"] in ("dealer_draw", "dealer")
    for client in (host, back, watcher, wrong):
        client.close()


def test_an_away_player_is_played_by_a_bot_after_away_seconds() -> None:
    with RunningServer(":memory:", fast_settings(away_seconds=0.5)) as server:
        host, guest, watcher, code = human_table(server)
        room = server.hub.rooms[code]
        actor = room.game.actor
        leaver = (host, guest)[actor]
        left_at = time.monotonic()
        leaver.close()
        watcher.expect("update", where=lambda m: m["seats"][actor]["away"])
        played = watcher.expect("update", where=lambda m: bool(m["events"]))
        waited = time.monotonic() - left_at
        assert 0.4 <= waited < 10, waited  # not before away_seconds (0.5 s, measured from a little earlier)
        assert played["events"][0]["seat"] == actor and played["seats"][actor]["away"]
        for client in (host, guest, watcher):
            client.close()
    with RunningServer(":memory:", fast_settings(away_seconds=0.01)) as server:
        host, guest, watcher, code = human_table(server)
        host.close()
        guest.close()
        # with both players away, the room's bot plays both seats to the end
        deadline = time.monotonic() + 30
        while not (watcher.update and watcher.update["finished"]):
            assert time.monotonic() < deadline, "the away seats were not played"
            watcher.recv(5)
        assert watcher.update["seats"][0]["away"] and watcher.update["seats"][1]["away"]
        watcher.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_restart_mid_game_resumes_exactly(tmp_path: Path, backend: str) -> None:
    db = str(tmp_path / "rooms.sqlite3") if backend == "sqlite" else shared_server().new_database()
    settings = fast_settings(away_seconds=600.0)
    with RunningServer(db, settings) as first:
        host, code = create_room(first, edition="wild-jackpot", seats=3, rules={})
        host.send(type="rule_cards", texts=["Skip your next turn", "Give a hug to the player on your left"])
        host.expect("lobby", where=lambda m: m["seats"][0]["ready"])
        fill_with_bots(host, range(1, 3))
        host.send(type="start")
        host.expect("update")
        play_to_end(host, random.Random(5), stop=lambda c: sum(m["type"] == "update" for m in c.received) > 8)
        host.quiet(0.3)
        room = first.hub.rooms[code]
        key, events = room.game.state_key(), list(room.game.events)
        view = host.update
        moves = len(room.game.history)
        assert view is not None and not view["finished"] and moves > 5
        secret = host.welcome["secret"]  # type: ignore[index]
        host.close()
    with RunningServer(db, settings) as second:
        room = second.hub.rooms[code]
        assert room.status == "playing" and room.game.state_key() == key and room.game.events == events
        back = Client(second.url)
        back.send(type="resume", code=code, secret=secret, version=view["version"])
        assert back.expect("welcome")["seat"] == 0
        update = back.expect("update")
        assert update["version"] == view["version"] and update["events"] == []
        assert update["view"] == view["view"] and update["legal"] == view["legal"]
        last = play_to_end(back, random.Random(6))
        assert last["finished"]
        back.close()


def test_the_owner_killed_mid_game_the_other_process_resumes_it_exactly(tmp_path: Path, redis_url: str) -> None:
    """The multi-process counterpart of the restart above: two processes on PostgreSQL and Redis, the room's
    owner killed (SIGKILL) mid-game; the other process takes the room over and resumes it exactly, for the
    host (seen from the version she had) and for a spectator that was relayed to the owner."""
    with two_servers(tmp_path, redis_url, "--away-seconds", "600", "--bot-delay", "0") as (a, b, _):
        host = a.client()
        host.send(type="create", name="Ann", edition="wild-jackpot", seats=3, rules={}, avatar="fox")
        welcome = host.expect("welcome")
        code, secret = welcome["code"], welcome["secret"]
        host.send(type="chat", text="said before the kill")
        host.expect("chat")
        host.send(type="rule_cards", texts=["Skip your next turn", "Give a hug to the player on your left"])
        host.expect("lobby", where=lambda m: m["seats"][0]["ready"])
        fill_with_bots(host, range(1, 3))
        watcher = b.client()
        watcher.send(type="spectate", code=code)
        watcher.expect("welcome")
        host.send(type="start")
        host.expect("update")
        play_to_end(host, random.Random(5), stop=lambda c: sum(m["type"] == "update" for m in c.received) > 8)
        host.quiet(0.5)  # the bots act until the host's turn; nothing moves then
        view = host.update
        assert view is not None and not view["finished"] and view["view"]["actor"] == 0
        watcher.expect("update", where=lambda m: m["version"] == view["version"])
        seen = watcher.update
        a.kill()
        closed(watcher, LEASE * 3)  # relayed to the owner killed, the spectator is dropped
        back = resume(b, code, secret, version=view["version"])
        assert back.welcome is not None and back.welcome["seat"] == 0
        update = back.update
        assert update is not None and update["version"] == view["version"] and update["events"] == []
        assert update["view"] == view["view"] and update["legal"] == view["legal"]
        assert update["seats"] == view["seats"] and update["seats"][0]["avatar"] == "fox"
        said = next((m for m in back.received if m["type"] == "chat_history"), None) or back.expect("chat_history")
        assert [m["text"] for m in said["messages"]] == ["said before the kill"], "the chat is taken over too"
        again = b.client()
        again.send(type="spectate", code=code, version=0)
        watched = again.expect("update")
        assert seen is not None and watched["view"] == seen["view"] and watched["version"] == seen["version"]
        assert acknowledged_events(again) == acknowledged_events(watcher), "the spectator's events stand"
        later = play_to_end(back, random.Random(6), stop=lambda c: c.update["version"] > view["version"] + 20)  # type: ignore[index]
        assert again.expect("update", where=lambda m: m["version"] >= later["version"]), "the room plays on"
        for client in (back, again, host, watcher):
            client.close()


def test_http_routes_and_security_headers(server: RunningServer) -> None:
    status, headers, body = get(f"{server.http}/api/options")
    offered = json.loads(body)
    levels = ["heuristic", "random", "ismcts"] + (
        ["learned"] if learned_tables() else []
    )  # trained bots: where weights ship
    assert status == 200 and offered["bots"] == levels
    assert offered["rules"]["stacking"]["label"] == "Stacking draw cards"
    assert offered["rules"]["stacking"]["choice_labels"]["same"].startswith("Same card on same card")
    assert offered["rules"]["stack_deflect"]["requires"] == "stacking" and offered["rules"]["jump_in"]["help"]
    for path in ("/", "/r/ABCDEFGH", "/replay/ABCDEFGH"):
        status, headers, body = get(server.http + path)
        assert status == 200 and b"<html" in body.lower()
        assert headers["content-security-policy"].startswith("default-src 'self'; connect-src 'self'")
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
    status, _, _ = get(f"{server.http}/static/index.html")
    assert status == 200
    assert get(f"{server.http}/static/../web/app.py")[0] == 404
    assert get(f"{server.http}/static/%2e%2e/app.py")[0] == 404
    status, _, body = get(f"{server.http}/api/rooms/ABCDEFGH/record")
    assert status == 404 and "error" in json.loads(body)
    host, code = create_room(server)
    status, _, body = get(f"{server.http}/api/rooms/{code}/record")
    assert status == 403 and "over" in json.loads(body)["error"]
    host.close()


def test_ismcts_bots_think_in_a_worker_thread() -> None:
    with RunningServer(":memory:", fast_settings(ismcts_ms=2.0)) as server:
        host, _ = create_room(server, seats=3, bot="ismcts")
        fill_with_bots(host, range(1, 3))
        host.send(type="start")
        host.expect("update")
        last = play_to_end(host, random.Random(8))
        assert last["finished"] and last["events"][-1]["kind"] == "match_end"
        host.close()


def test_a_lobby_nobody_is_in_is_kept_in_the_store(server: RunningServer) -> None:
    host, code = create_room(server, seats=3)
    secret = host.welcome["secret"]  # type: ignore[index]
    host.send(type="seat", seat=2, bot=True)
    host.expect("lobby", where=lambda m: m["seats"][2]["kind"] == "bot")
    host.close()
    deadline = time.monotonic() + 5
    while code in server.hub.rooms:
        assert time.monotonic() < deadline, "the empty lobby stays in memory"
        time.sleep(0.02)
    guest = Client(server.url)
    guest.send(type="join", code=code, name="Bob")
    assert guest.expect("welcome")["seat"] == 1
    lobby = guest.expect("lobby")
    assert [(s["name"], s["kind"], s["away"]) for s in lobby["seats"]] == [
        ("Ann", "human", True),
        ("Bob", "human", False),
        ("Bot 2", "bot", False),
    ]
    back = Client(server.url)
    back.send(type="resume", code=code, secret=secret, version=0)
    assert back.expect("welcome")["host"] is True
    back.send(type="start")
    assert back.expect("update")["view"]["players"] == 3
    guest.close()
    back.close()


def test_serve_command_checks_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    from unokit.cli import main

    assert main(["serve", "--port", "70000"]) == 2
    assert "--port" in capsys.readouterr().err
    assert main(["serve", "--bot-delay", "-1"]) == 2
    assert main(["serve", "--away-seconds", "5000"]) == 2
    assert "--away-seconds" in capsys.readouterr().err
    assert main(["serve", "--results-seconds", "-1"]) == 2
    assert "--results-seconds" in capsys.readouterr().err
