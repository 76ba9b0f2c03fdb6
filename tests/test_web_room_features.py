"""The rooms' features over real WebSockets: the turn timer and seats played as ``auto``,
away players, the rematch, the host (handover, leave, kick), late arrivals, public rooms,
the chat, and the storage of it all."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from unokit.web.chat import post_chat
from unokit.web.storage import ChatRow, SeatRow, SqliteStorage
from web_support import Client, RunningServer, choose, fast_settings, play_to_end


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with RunningServer(":memory:", fast_settings(min_timer=1, host_grace=0.3)) as running:
        yield running


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def create_room(server: RunningServer, name: str = "Ann", **fields: Any) -> tuple[Client, str]:
    client = Client(server.url)
    settings = {"edition": "classic", "seats": 3, "rules": {"scoring": "single-round"}, **fields}
    client.send(type="create", name=name, **settings)
    code = client.expect("welcome")["code"]
    client.expect("lobby")
    client.expect("chat_history")
    return client, code


def join(server: RunningServer, code: str, name: str) -> Client:
    client = Client(server.url)
    client.send(type="join", code=code, name=name)
    client.expect("welcome")
    client.expect("chat_history")
    return client


def bots(host: Client, seats: range) -> None:
    for seat in seats:
        host.send(type="seat", seat=seat, bot=True)
        host.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")


def two_players(server: RunningServer, **fields: Any) -> tuple[Client, Client, str]:
    """Ann and Bob at a started two-seat table."""
    ann, code = create_room(server, seats=2, **fields)
    bob = join(server, code, "Bob")
    ann.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "human")
    ann.send(type="start")
    ann.expect("update")
    bob.expect("update")
    return ann, bob, code


def acted_by(message: dict[str, Any], seat: int) -> bool:
    return any(e["seat"] == seat and e["kind"] not in ("uno", "catch") for e in message["events"])


# ---------------------------------------------------------------- the turn timer and auto seats


def test_the_turn_timer_hands_the_decision_to_the_bot_and_marks_the_seat_auto(server: RunningServer) -> None:
    ann, bob, _ = two_players(server, timer=1)
    clients = {0: ann, 1: bob}
    first = ann.update
    assert first is not None and first["options"] == {"timer": 1, "public": False, "late_join": True}
    actor = first["view"]["actor"]
    assert first["timer"]["seat"] == actor and first["timer"]["total"] == 1
    assert 0.5 < first["timer"]["remaining"] <= 1.0
    assert [s["auto"] for s in first["seats"]] == [False, False]
    started = time.monotonic()
    played = ann.expect("update", where=lambda m: acted_by(m, actor))
    assert time.monotonic() - started >= 0.8, "not before the timer ran out"
    assert played["seats"][actor]["auto"] is True and played["seats"][1 - actor]["auto"] is False
    # from now on the seat is played at bot speed, whenever its turn comes
    idle, other = clients[actor], clients[1 - actor]
    rng = random.Random(5)
    for _ in range(3):
        update = other.update
        assert update is not None
        if update["finished"]:
            break
        if update["view"]["actor"] == 1 - actor and update["legal"]:
            sent = time.monotonic()
            other.send(type="act", action=choose(update, rng), version=update["version"])
            other.expect("update", where=lambda m, v=update["version"]: m["version"] > v)
            if other.update is not None and other.update["view"]["actor"] == actor:
                other.expect("update", where=lambda m: acted_by(m, actor))
                assert time.monotonic() - sent < 0.6, "an auto seat waits no timer"
        else:
            other.expect("update", where=lambda m, v=update["version"]: m["version"] > v)
    # back: the player takes the seat again, and everyone sees it
    idle.send(type="back")
    back = other.expect("update", where=lambda m: not m["seats"][actor]["auto"])
    assert back["events"] == []
    for client in clients.values():
        client.close()


def test_any_action_of_an_auto_seat_takes_it_back(server: RunningServer) -> None:
    ann, bob, _ = two_players(server, timer=1)
    actor = ann.update["view"]["actor"]  # type: ignore[index]
    idle = (ann, bob)[actor]
    idle.expect("update", where=lambda m: m["seats"][actor]["auto"])
    idle.send(type="act", action="draw", version=0)  # even refused (stale), it shows the player is back
    assert idle.expect("error")["code"] == "stale"
    assert idle.update is not None and idle.update["seats"][actor]["auto"] is False, "sent before the refusal"
    ann.close()
    bob.close()


def test_an_away_players_second_decision_is_made_at_bot_speed() -> None:
    with RunningServer(":memory:", fast_settings(away_seconds=1.0)) as server:
        ann, bob, code = two_players(server, timer=0)
        assert ann.update is not None and ann.update["timer"] is None, "no timer: none is shown"
        secret = bob.welcome["secret"]  # type: ignore[index]
        rng = random.Random(7)
        # Ann plays until it is Bob's turn, then Bob leaves
        while ann.update["view"]["actor"] != 1:  # type: ignore[index]
            update = ann.update
            ann.send(type="act", action=choose(update, rng), version=update["version"])  # type: ignore[arg-type]
            ann.expect("update", where=lambda m, v=update["version"]: m["version"] > v)  # type: ignore[index]
        left = time.monotonic()
        bob.close()
        first = ann.expect("update", where=lambda m: acted_by(m, 1))
        assert time.monotonic() - left >= 0.9, "the first decision waits away_seconds"
        assert first["seats"][1]["away"] and first["seats"][1]["auto"]
        quick: list[float] = []
        for _ in range(40):  # until a few of Bob's decisions were timed (Ann's draws and calls time none)
            update = ann.update
            assert update is not None
            if update["finished"] or len(quick) >= 3:
                break
            if update["view"]["actor"] != 0:
                ann.expect("update", where=lambda m, v=update["version"]: m["version"] > v)
                continue
            sent = time.monotonic()
            ann.send(type="act", action=choose(update, rng), version=update["version"])
            answer = ann.expect("update", where=lambda m, v=update["version"]: m["version"] > v)
            if answer["view"]["actor"] == 1 and not answer["finished"]:
                ann.expect("update", where=lambda m: acted_by(m, 1))
                quick.append(time.monotonic() - sent)
        assert quick and max(quick) < 0.5, f"later decisions of an away seat wait no away_seconds: {quick}"
        back = Client(server.url)
        back.send(type="resume", code=code, secret=secret)
        resumed = back.expect("update")
        assert resumed["seats"][1] == {
            "seat": 1,
            "name": "Bob",
            "kind": "human",
            "away": False,
            "auto": False,
            "claimed": False,
            "avatar": None,
            "colour": None,
            "voice": False,
        }
        back.close()
        ann.close()


def test_leaving_a_match_hands_the_seat_to_the_bot_at_once(server: RunningServer) -> None:
    ann, bob, _ = two_players(server, timer=0)
    bob.send(type="leave")
    assert bob.expect("left") == {"type": "left"}
    seen = ann.expect("update", where=lambda m: m["seats"][1]["away"])
    assert seen["seats"][1]["auto"] is True
    bob.send(type="chat", text="still here?")
    assert bob.expect("error")["code"] == "forbidden", "a connection that left is in no room"
    ann.close()
    bob.close()


def test_turn_timer_limits_are_checked(server: RunningServer) -> None:
    client = Client(server.url)
    for timer in (-1, 301, True, "30"):
        client.send(type="create", name="Ann", edition="classic", seats=2, timer=timer)
        assert client.expect("error")["code"] == "malformed"
    with RunningServer(":memory:", fast_settings()) as strict:  # the usual minimum: 5 s
        other = Client(strict.url)
        other.send(type="create", name="Ann", edition="classic", seats=2, timer=4)
        assert other.expect("error")["code"] == "malformed"
        other.send(type="create", name="Ann", edition="classic", seats=2, timer=0)
        assert other.expect("lobby")["options"]["timer"] == 0
        other.close()
    client.close()


# ---------------------------------------------------------------- rematch


def play_both(clients: list[Client], seed: int) -> None:
    failures: list[BaseException] = []

    def run(client: Client, rng_seed: int) -> None:
        try:
            play_to_end(client, random.Random(rng_seed), timeout=60)
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(c, seed + i)) for i, c in enumerate(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(90)
    assert not failures, failures


def test_a_rematch_moves_everyone_to_a_new_room_with_the_same_settings(server: RunningServer) -> None:
    options = {"timer": 45, "public": True, "late_join": False}
    rules = {"scoring": "single-round", "hand_size": 3}
    ann, code = create_room(server, seats=3, bot="random", rules=rules, **options)
    bob = join(server, code, "Bob")
    watcher = Client(server.url)
    watcher.send(type="spectate", code=code)
    watcher.expect("lobby")
    bots(ann, range(2, 3))
    ann.send(type="start")
    ann.expect("update")
    bob.expect("update")
    ann.send(type="rematch")
    assert ann.expect("error")["code"] == "forbidden", "not before the match is over"
    play_both([ann, bob], 11)
    assert ann.update["rematch"] == {"votes": [], "waiting": [0, 1]}  # type: ignore[index]
    watcher.send(type="rematch")
    assert watcher.expect("error")["code"] == "forbidden", "spectators do not vote"
    ann.send(type="rematch")
    vote = bob.expect("update", where=lambda m: bool(m["rematch"]["votes"]))
    assert vote["rematch"] == {"votes": [0], "waiting": [1]} and vote["events"] == []
    bob.send(type="rematch")
    moved = {name: c.expect("moved") for name, c in (("ann", ann), ("bob", bob), ("watcher", watcher))}
    new = moved["ann"]["code"]
    assert new != code and {m["code"] for m in moved.values()} == {new}
    assert moved["ann"]["seat"] == 0 and moved["bob"]["seat"] == 1
    assert moved["watcher"] == {"type": "moved", "code": new, "seat": None}
    assert moved["ann"]["secret"] != moved["bob"]["secret"]
    old_secret = ann.welcome["secret"]  # type: ignore[index]
    ann.send(type="resume", code=new, secret=old_secret)
    assert ann.expect("error")["code"] == "forbidden", "the old secret opens nothing there"
    ann.send(type="resume", code=new, secret=moved["ann"]["secret"])
    welcome = ann.expect("welcome")
    assert welcome["seat"] == 0 and welcome["host"] is True
    update = ann.expect("update")
    assert update["version"] > 0 and not update["finished"], "the rematch has begun"
    assert update["options"] == options and update["host"] == 0
    assert [(s["name"], s["kind"]) for s in update["seats"]] == [("Ann", "human"), ("Bob", "human"), ("Bot 2", "bot")]
    room = server.hub.rooms[new]
    assert room.settings.bot == "random" and room.rules.hand_size == 3 and room.settings.edition == "classic"
    watcher.send(type="spectate", code=new)
    assert watcher.expect("welcome")["seat"] is None
    for client in (ann, bob, watcher):
        client.close()


def test_a_rematch_gives_the_seats_of_absent_players_to_bots(server: RunningServer) -> None:
    ann, code = create_room(server, seats=3, rules={"scoring": "single-round", "hand_size": 3})
    bob = join(server, code, "Bob")
    bots(ann, range(2, 3))
    ann.send(type="start")
    ann.expect("update")
    bob.send(type="leave")  # Bob's seat is played by the room's bot at once
    bob.expect("left")
    bob.close()
    play_to_end(ann, random.Random(3))
    assert ann.update["rematch"] == {"votes": [], "waiting": [0]}  # type: ignore[index]
    ann.send(type="rematch")
    moved = ann.expect("moved")
    ann.send(type="resume", code=moved["code"], secret=moved["secret"])
    update = ann.expect("update")
    assert [(s["name"], s["kind"]) for s in update["seats"]] == [("Ann", "human"), ("Bot 1", "bot"), ("Bot 2", "bot")]
    ann.close()


# ---------------------------------------------------------------- host


def test_the_host_passes_on_after_host_grace_and_on_leave(server: RunningServer) -> None:
    ann, code = create_room(server, seats=4)
    bob = join(server, code, "Bob")
    cy = join(server, code, "Cy")
    secret = ann.welcome["secret"]  # type: ignore[index]
    bob.expect("lobby", where=lambda m: m["seats"][2]["kind"] == "human")
    assert bob.lobby["host"] == 0  # type: ignore[index]
    ann.close()
    gone = time.monotonic()
    lobby = bob.expect("lobby", where=lambda m: m["host"] == 1, timeout=5)
    assert time.monotonic() - gone >= 0.2, "not before host_grace"
    assert lobby["seats"][0]["away"]
    bob.send(type="seat", seat=3, bot=True)  # Bob hosts now
    bob.expect("lobby", where=lambda m: m["seats"][3]["kind"] == "bot")
    back = Client(server.url)
    back.send(type="resume", code=code, secret=secret)
    assert back.expect("welcome")["host"] is False
    back.send(type="start")
    assert back.expect("error")["code"] == "forbidden"
    bob.send(type="leave")
    assert bob.expect("left") == {"type": "left"}
    lobby = cy.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "open")
    assert lobby["host"] == 2, "the next human seat after the host's"
    for client in (back, bob, cy):
        client.close()


def test_a_lobby_left_without_players_is_hosted_by_the_next_to_join(server: RunningServer) -> None:
    ann, code = create_room(server, seats=2)
    watcher = Client(server.url)
    watcher.send(type="spectate", code=code)
    watcher.expect("lobby")
    ann.send(type="leave")
    ann.expect("left")
    assert watcher.expect("lobby", where=lambda m: m["host"] is None)["seats"][0]["kind"] == "open"
    bob = Client(server.url)
    bob.send(type="join", code=code, name="Bob")
    welcome = bob.expect("welcome")
    assert welcome["seat"] == 0 and welcome["host"] is True
    assert bob.expect("lobby")["host"] == 0
    for client in (ann, watcher, bob):
        client.close()


def test_the_host_kicks_a_player_from_the_lobby(server: RunningServer) -> None:
    ann, code = create_room(server, seats=3)
    bob = join(server, code, "Bob")
    secret = bob.welcome["secret"]  # type: ignore[index]
    bots(ann, range(2, 3))
    room = server.hub.rooms[code]
    before = [(s.kind, s.name) for s in room.seats]
    for client, seat, wanted in (
        (bob, 0, "forbidden"),
        (ann, 0, "forbidden"),
        (ann, 2, "forbidden"),
        (ann, 9, "forbidden"),
    ):
        client.send(type="kick", seat=seat)
        assert client.expect("error")["code"] == wanted
    ann.send(type="kick", seat=-1)
    assert ann.expect("error")["code"] == "malformed"
    assert [(s.kind, s.name) for s in room.seats] == before, "refused kicks change nothing"
    ann.send(type="kick", seat=1)
    removed = bob.expect("removed")
    assert removed["type"] == "removed" and removed["message"]
    lobby = ann.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "open")
    assert lobby["seats"][1]["name"] == "Seat 1"
    bob.send(type="start")
    assert bob.expect("error")["code"] == "forbidden", "detached: in no room"
    again = Client(server.url)
    again.send(type="resume", code=code, secret=secret)
    assert again.expect("error")["code"] == "forbidden", "the secret opens nothing more"
    bots(ann, range(1, 2))
    ann.send(type="start")
    ann.expect("update")
    ann.send(type="kick", seat=1)
    assert ann.expect("error")["code"] == "started"
    for client in (ann, bob, again):
        client.close()


# ---------------------------------------------------------------- late arrivals


def test_a_late_arrival_watches_then_takes_a_bot_seat_at_the_next_round(server: RunningServer) -> None:
    rules = {"hand_size": 3, "target_score": 500, "scoring": "winner-collects"}
    ann, code = create_room(server, seats=3, rules=rules)
    bots(ann, range(1, 3))
    ann.send(type="start")
    ann.expect("update")
    bob = Client(server.url)
    bob.send(type="join", code=code, name="Bob")
    welcome = bob.expect("welcome")
    assert welcome["seat"] == 1 and welcome["claimed"] is True and welcome["host"] is False
    waiting = bob.expect("update")
    assert waiting["you"] is None and waiting["claimed_seat"] == 1 and waiting["legal"] == []
    assert waiting["view"]["hand"] == [] and waiting["seats"][1]["claimed"] is True
    assert ann.expect("update", where=lambda m: m["seats"][1]["claimed"])["claimed_seat"] is None
    # a reload while waiting: the secret brings the claim back
    bob.close()
    bob = Client(server.url)
    bob.send(type="resume", code=code, secret=welcome["secret"])
    assert bob.expect("welcome") == {**welcome, "secret": welcome["secret"]}
    assert bob.expect("update")["claimed_seat"] == 1
    cy = Client(server.url)
    cy.send(type="join", code=code, name="Cy")
    assert cy.expect("welcome")["seat"] == 2
    dan = Client(server.url)
    dan.send(type="join", code=code, name="Dan")
    assert dan.expect("error")["code"] == "started", "no bot seat left to claim"

    def round_ended(client: Client) -> bool:
        return any(e["kind"] == "round_end" for m in client.received if m["type"] == "update" for e in m["events"])

    play_to_end(ann, random.Random(4), stop=round_ended)
    seated = bob.expect("update", where=lambda m: m["you"] == 1)
    assert seated["claimed_seat"] is None and seated["view"]["seat"] == 1
    assert any(e["kind"] == "round_end" for e in seated["events"])
    assert len(seated["view"]["hand"]) == seated["view"]["hand_sizes"][1] > 0, "Bob holds his new hand"
    assert seated["seats"][1] == {
        "seat": 1,
        "name": "Bob",
        "kind": "human",
        "away": False,
        "auto": False,
        "claimed": False,
        "avatar": None,
        "colour": None,
        "voice": False,
    }
    assert (seated["seats"][2]["name"], seated["seats"][2]["kind"]) == ("Cy", "human")
    watched = [m for m in bob.received if m["type"] == "update" and m["you"] is None]
    assert watched and all(m["view"]["hand"] == [] and m["legal"] == [] for m in watched)
    assert all(not e["cards"] for m in watched for e in m["events"] if e["kind"] in ("deal", "draw"))
    for client in (ann, bob, cy, dan):
        client.quiet(0.1)
        client.close()


def test_without_late_join_a_match_is_only_watched(server: RunningServer) -> None:
    ann, code = create_room(server, seats=2, late_join=False)
    bots(ann, range(1, 2))
    ann.send(type="start")
    ann.expect("update")
    bob = Client(server.url)
    bob.send(type="join", code=code, name="Bob")
    error = bob.expect("error")
    assert error["code"] == "started" and "watch" in error["message"]
    assert not server.hub.rooms[code].seats[1].claim_name
    ann.close()
    bob.close()


# ---------------------------------------------------------------- public rooms


def test_the_public_list_shows_exactly_the_public_lobbies_with_open_seats(server: RunningServer) -> None:
    shown, code = create_room(server, seats=3, public=True, rules={"target_score": 200}, timer=60)
    hidden, hidden_code = create_room(server, seats=3)
    full, full_code = create_room(server, seats=2, public=True)
    bots(full, range(1, 2))
    started, started_code = create_room(server, seats=2, public=True)
    bots(started, range(1, 2))
    started.send(type="start")
    started.expect("update")
    status, body = get(f"{server.http}/api/rooms")
    assert status == 200
    rooms = json.loads(body)["rooms"]
    ours = {code, hidden_code, full_code, started_code}
    listed = [room for room in rooms if room["code"] in ours]
    assert [room["code"] for room in listed] == [code]
    entry = listed[0]
    assert set(entry) == {"code", "edition", "players", "open", "host", "options", "rules", "created"}
    assert entry["edition"] == "classic" and entry["players"] == 3 and entry["open"] == 2
    assert entry["host"] == "Ann" and entry["options"] == {"timer": 60, "public": True, "late_join": True}
    assert entry["rules"] == {"target_score": 200}, "only the rules changed from the defaults"
    secret = shown.welcome["secret"]  # type: ignore[index]
    text = body.decode()
    assert secret not in text and "secret" not in text and "seed" not in text
    assert [r["created"] for r in rooms] == sorted((r["created"] for r in rooms), reverse=True), "newest first"
    # a seat taken: still listed while one is open; none open: gone
    bots(shown, range(1, 2))
    assert [r["open"] for r in json.loads(get(f"{server.http}/api/rooms")[1])["rooms"] if r["code"] == code] == [1]
    bots(shown, range(2, 3))
    assert code not in {r["code"] for r in json.loads(get(f"{server.http}/api/rooms")[1])["rooms"]}
    for client in (shown, hidden, full, started):
        client.close()


def test_the_public_list_is_rate_limited_per_address() -> None:
    with RunningServer(":memory:", fast_settings(rate=1.0, burst=2.0)) as server:
        codes = [get(f"{server.http}/api/rooms")[0] for _ in range(4)]
        assert codes[:2] == [200, 200] and 429 in codes[2:]


# ---------------------------------------------------------------- chat


def test_chat_is_broadcast_kept_as_text_and_sent_to_newcomers(server: RunningServer) -> None:
    ann, code = create_room(server)
    bob = join(server, code, "Bob")
    watcher = Client(server.url)
    watcher.send(type="spectate", code=code)
    assert watcher.expect("chat_history") == {"type": "chat_history", "messages": []}
    hostile = "  <script>alert('x')</script> & <b>hi</b>  "
    ann.send(type="chat", text=hostile)
    said = [c.expect("chat") for c in (ann, bob, watcher)]
    assert said[0] == said[1] == said[2]
    assert set(said[0]) == {"type", "id", "seat", "name", "text", "time"}
    assert said[0]["text"] == hostile.strip() and said[0]["seat"] == 0 and said[0]["name"] == "Ann"
    assert abs(said[0]["time"] - time.time()) < 60
    watcher.send(type="chat", text="gl hf 🙂")
    from_watcher = bob.expect("chat")
    assert (from_watcher["seat"], from_watcher["name"]) == (None, "Spectator")
    assert from_watcher["id"] > said[0]["id"]
    late = Client(server.url)
    late.send(type="join", code=code, name="Cy")
    assert late.expect("welcome")["seat"] == 2
    history = late.expect("chat_history")
    assert [m["text"] for m in history["messages"]] == [hostile.strip(), "gl hf 🙂"]
    stored = server.call(lambda: server.hub.storage.load_chat(code, 50))
    assert [row.text for row in stored] == [hostile.strip(), "gl hf 🙂"]
    for client in (ann, bob, watcher, late):
        client.close()


@pytest.mark.parametrize(
    "frame",
    [
        json.dumps({"type": "chat", "text": ""}),
        json.dumps({"type": "chat", "text": "   "}),
        json.dumps({"type": "chat", "text": "x" * 201}),
        json.dumps({"type": "chat", "text": "ring\u0007bell"}),
        json.dumps({"type": "chat", "text": "two\nlines"}),
        json.dumps({"type": "chat", "text": "right\u202eto left"}),
        json.dumps({"type": "chat", "text": "zero\u200bwidth"}),
        '{"type": "chat", "text": "lone \\ud800 surrogate"}',
        json.dumps({"type": "chat", "text": 5}),
        json.dumps({"type": "chat"}),
        json.dumps({"type": "chat", "text": "hi", "seat": 1}),
        json.dumps({"type": "rematch", "now": True}),
        json.dumps({"type": "kick"}),
        json.dumps({"type": "kick", "seat": "1"}),
        json.dumps({"type": "kick", "seat": 10}),
        json.dumps({"type": "leave", "seat": 0}),
        json.dumps({"type": "back", "seat": 0}),
        json.dumps({"type": "create", "name": "Ann", "edition": "classic", "seats": 2, "public": "yes"}),
        json.dumps({"type": "create", "name": "Ann", "edition": "classic", "seats": 2, "late_join": 1}),
    ],
)
def test_bad_new_messages_are_malformed_and_change_nothing(server: RunningServer, frame: str) -> None:
    ann, code = create_room(server)
    bob = join(server, code, "Bob")
    ann.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "human")
    before = [(s.kind, s.name, s.secret_hash) for s in server.hub.rooms[code].seats]
    ann.send_raw(frame)
    error = ann.expect("error")
    assert error["code"] == "malformed", error
    assert bob.quiet(0.1) == [], "nobody hears of it"
    assert [(s.kind, s.name, s.secret_hash) for s in server.hub.rooms[code].seats] == before
    assert server.call(lambda: server.hub.storage.load_chat(code, 50)) == []
    ann.close()
    bob.close()


def test_new_messages_outside_their_place_are_forbidden(server: RunningServer) -> None:
    nobody = Client(server.url)
    for kind in ("chat", "rematch", "leave", "back", "kick"):
        fields: dict[str, Any] = {"text": "hi"} if kind == "chat" else {"seat": 1} if kind == "kick" else {}
        nobody.send(type=kind, **fields)
        assert nobody.expect("error")["code"] == "forbidden", kind
    ann, code = create_room(server)
    watcher = Client(server.url)
    watcher.send(type="spectate", code=code)
    watcher.expect("lobby")
    watcher.send(type="back")
    assert watcher.expect("error")["code"] == "forbidden"
    watcher.send(type="kick", seat=0)
    assert watcher.expect("error")["code"] == "forbidden"
    ann.send(type="rematch")
    assert ann.expect("error")["code"] == "forbidden"
    ann.send(type="back")  # a seat not played by the bot: nothing to take back, nothing happens
    assert ann.quiet(0.2) == []
    for client in (nobody, ann, watcher):
        client.close()


def test_chat_is_limited_per_connection(server: RunningServer) -> None:
    ann, code = create_room(server)
    bob = join(server, code, "Bob")
    for number in range(5):
        ann.send(type="chat", text=f"message {number}")
        ann.expect("chat")
    ann.send(type="chat", text="one too many")
    assert ann.expect("error")["code"] == "rate-limited"
    bob.send(type="chat", text="my own limit")
    assert ann.expect("chat")["text"] == "my own limit", "the limit is per connection"
    texts = [m["text"] for m in bob.received if m["type"] == "chat"]
    assert "one too many" not in texts
    ann.close()
    bob.close()


def test_the_last_fifty_chat_messages_come_back_after_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "chat.sqlite3")
    with RunningServer(db, fast_settings()) as first:
        ann, code = create_room(first)

        async def post_many() -> None:
            room = first.hub.rooms[code]
            member = room.members[0]
            for number in range(55):
                await post_chat(room, member, f"line {number}")

        first.call(post_many)
        ann.quiet(0.2)  # read what was sent, so that the socket closes at once
        ann.close()
    with RunningServer(db, fast_settings()) as second:
        watcher = Client(second.url)
        watcher.send(type="spectate", code=code)
        history = watcher.expect("chat_history")["messages"]
        assert [m["text"] for m in history] == [f"line {n}" for n in range(5, 55)]
        assert history[-1]["name"] == "Ann" and history[-1]["seat"] == 0
        watcher.send(type="chat", text="after")
        assert watcher.expect("chat")["id"] == history[-1]["id"] + 1
        watcher.close()


# ---------------------------------------------------------------- storage


def test_chat_goes_with_a_stale_lobby(tmp_path: Path) -> None:
    store = SqliteStorage(str(tmp_path / "rooms.sqlite3"))
    now = time.time()
    for code in ("OLDLOBBY", "PLAYINGG"):
        store.create_room(code, {}, created=now - 100)
        store.append_chat(code, ChatRow(1, 0, "Ann", "hello", now - 100))
    store.start_game("PLAYINGG", {"edition": "classic"})
    assert store.delete_stale_lobbies(now - 50, keep=set()) == 1
    assert store.load_chat("OLDLOBBY", 50) == [] and len(store.load_chat("PLAYINGG", 50)) == 1


def test_the_hubs_tidy_deletes_the_chat_of_matches_finished_chat_days_ago(tmp_path: Path) -> None:
    """The hub's periodic tidy deletes the stored chat of matches finished over ``chat_days`` ago,
    and keeps the chat of a recent match and of a match in play."""
    db = str(tmp_path / "chat.sqlite3")
    store = SqliteStorage(db)
    now = time.time()
    for code in ("LONGAGO1", "RECENT22", "PLAYING3"):
        store.create_room(code, {}, created=now - 100 * 86400)
        store.append_chat(code, ChatRow(1, 0, "Ann", "gg", now - 100 * 86400))
        store.start_game(code, {"edition": "classic"})
    store.save_result("LONGAGO1", {"winner": 0})
    store.save_result("RECENT22", {"winner": 0})
    store.close()
    with contextlib.closing(sqlite3.connect(db)) as raw, raw:  # the first match finished long ago
        raw.execute("UPDATE results SET finished = ? WHERE code = 'LONGAGO1'", (now - 40 * 86400,))
    with RunningServer(db, fast_settings(chat_days=30.0)) as server:
        server.call(lambda: server.hub.delete_stale_lobbies(time.time() - 86400))
    store = SqliteStorage(db)
    assert store.load_chat("LONGAGO1", 50) == []
    assert len(store.load_chat("RECENT22", 50)) == 1 and len(store.load_chat("PLAYING3", 50)) == 1
    store.close()


OLD_SCHEMA = """
CREATE TABLE rooms (code TEXT PRIMARY KEY, settings TEXT NOT NULL, status TEXT NOT NULL, created REAL NOT NULL,
    touched REAL NOT NULL DEFAULT 0);
CREATE TABLE seats (code TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, bot TEXT,
    secret_hash TEXT, rule_cards TEXT, PRIMARY KEY (code, seat));
CREATE TABLE games (code TEXT PRIMARY KEY, setup TEXT NOT NULL);
CREATE TABLE actions (code TEXT NOT NULL, idx INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,
    PRIMARY KEY (code, idx));
CREATE TABLE results (code TEXT PRIMARY KEY, result TEXT NOT NULL, finished REAL NOT NULL);
INSERT INTO rooms VALUES ('OLDROOM2', '{"edition": "classic", "players": 2, "rules": {}, "bot": "heuristic"}',
    'lobby', 1.0, 1.0);
INSERT INTO seats VALUES ('OLDROOM2', 0, 'Ann', 'human', NULL, 'abc', NULL);
INSERT INTO seats VALUES ('OLDROOM2', 1, '', 'open', NULL, NULL, NULL);
"""


def test_a_store_written_before_these_features_opens_and_gains_them(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA)
    store = SqliteStorage(str(path))
    room = store.load_room("OLDROOM2")
    assert room is not None and room.host == 0 and room.seed is None
    assert room.seats[0] == SeatRow(0, "Ann", "human", None, "abc", None)
    store.set_host("OLDROOM2", 1)
    store.save_seats("OLDROOM2", [SeatRow(0, "Ann", "human", None, "abc", None, "Bob", "def")])
    store.append_chat("OLDROOM2", ChatRow(1, None, "Spectator", "hi", 2.0))
    again = store.load_room("OLDROOM2")
    assert again is not None and again.host == 1 and again.seats[0].claim_name == "Bob"
    assert store.load_chat("OLDROOM2", 50)[0].text == "hi"
    assert store.public_lobbies(50) == [], "an old room is not public"
    store.close()
    with RunningServer(str(path), fast_settings()) as server:
        watcher = Client(server.url)
        watcher.send(type="spectate", code="OLDROOM2")
        lobby = watcher.expect("lobby")
        assert lobby["options"] == {"timer": 0, "public": False, "late_join": True}, "stored before turn timers"
        watcher.close()
