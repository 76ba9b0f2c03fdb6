"""Rooms owned by one process at a time: two real ``unokit serve`` processes sharing a PostgreSQL database
and a Redis, a client on either.

- players on two processes play one room (one owns it, the other relays), each seeing only their own hand;
- the owner killed (``kill -9``) mid-game: the clients reconnect to the other process, which takes the room
  over once the lease has run out, and nothing acknowledged is lost;
- an owner paused past its lease (SIGSTOP): another process takes the room, and the paused one, woken, has
  its writes refused by the store (or finds its lease gone) and closes the room: the game never forks.
"""

from __future__ import annotations

import random
import signal
import time
from pathlib import Path
from typing import Any

import redis

from cluster_support import LEASE, acknowledged_events, closed, create, history, play_together, resume, two_servers
from redis_support import redis_server_fixture, redis_url_fixture
from unokit.engine.cards import card_name
from unokit.engine.events import SECRET_KINDS, SHARED_SECRET_KINDS
from web_support import choose

__all__ = ["redis_server_fixture", "redis_url_fixture"]


def test_players_on_two_processes_play_one_room_each_seeing_only_their_hand(tmp_path: Path, redis_url: str) -> None:
    with two_servers(tmp_path, redis_url) as (a, b, db):
        ann, code, _ = create(a)
        bob = b.client()  # relayed to the owner
        bob.send(type="join", code=code, name="Bob")
        assert bob.expect("welcome")["seat"] == 1
        ann.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "human" and not m["seats"][1]["away"])
        watcher = b.client()
        watcher.send(type="spectate", code=code)
        assert watcher.expect("welcome")["seat"] is None
        status, info = b.get(f"/api/rooms/{code}")  # the invite link answers on any process
        assert status == 200 and info["status"] == "lobby"
        bob.send(type="chat", text="hello from the other process")
        assert ann.expect("chat", where=lambda m: m.get("text") == "hello from the other process")
        ann.send(type="seat", seat=2, bot=True)
        ann.expect("lobby", where=lambda m: m["seats"][2]["kind"] == "bot")
        ann.send(type="start")
        play_together([ann, bob], a, b)
        watcher.expect("update", where=lambda m: m["finished"], timeout=10)
        status, record = b.get(f"/api/rooms/{code}/record")  # the record answers on any process
        assert status == 200 and record["actions"]
        at_version = history(db, code)
        checked = 0
        for viewer, client in ((0, ann), (1, bob), (None, watcher)):
            for message in client.received:
                if message["type"] != "update":
                    continue
                engine = at_version[message["version"]]
                hand = sorted(card_name(c) for c in engine.hands[viewer]) if viewer is not None else []
                assert sorted(message["view"]["hand"]) == hand, "each sees their own hand, and only it"
                assert message["view"]["hand_sizes"] == [len(h) for h in engine.hands]
                for event in message["events"]:
                    shared = event["kind"] in SHARED_SECRET_KINDS and event["value"] == viewer
                    if event["kind"] in SECRET_KINDS and event["cards"]:
                        assert event["seat"] == viewer or shared, f"{viewer} was shown the cards of {event}"
                checked += 1
        assert checked > 20
        for client in (ann, bob):  # a rematch voted on both processes: each follows it to the new room
            client.send(type="rematch")
        moved = [client.expect("moved") for client in (ann, bob)]
        assert moved[0]["code"] == moved[1]["code"] != code and moved[1]["seat"] == 1
        again = b.client()
        again.send(type="resume", code=moved[1]["code"], secret=moved[1]["secret"])
        assert again.expect("welcome")["seat"] == 1
        assert again.expect("update")["version"] >= 0
        for client in (ann, bob, watcher, again):
            client.close()


def test_the_owner_killed_mid_game_its_room_plays_on_elsewhere_and_nothing_acknowledged_is_lost(
    tmp_path: Path, redis_url: str
) -> None:
    with two_servers(tmp_path, redis_url, "--away-seconds", "60") as (a, b, db):
        ann, code, ann_secret = create(a, timer=5)
        bob = b.client()
        bob.send(type="join", code=code, name="Bob")
        bob_secret = bob.expect("welcome")["secret"]
        ann.send(type="seat", seat=2, bot=True)
        ann.expect("lobby", where=lambda m: m["seats"][2]["kind"] == "bot" and m["seats"][1]["kind"] == "human")
        ann.send(type="start")
        ann.expect("update")
        bob.expect("update")
        rng = random.Random(3)
        deadline = time.monotonic() + 5
        while min(len(acknowledged_events(p)) for p in (ann, bob)) < 12:  # both act at once, until the kill
            assert time.monotonic() < deadline, "the match went on"
            for player in (ann, bob):
                update = player.update or {}
                action = None if update.get("finished") else choose_for(update, rng)
                if action is not None:
                    player.send(type="act", action=action, version=update["version"])
            for player in (ann, bob):
                player.quiet(0.02)
        a.kill()
        killed = time.monotonic()
        acknowledged = [acknowledged_events(player) for player in (ann, bob)]  # each as told to its receiver
        assert not any(p.update and p.update["finished"] for p in (ann, bob)), "killed mid-game"
        # Bob's relayed socket is dropped once the owner is gone; both come back through the other process
        closed(bob, LEASE * 3)
        back = [resume(b, code, secret) for secret in (ann_secret, bob_secret)]
        taken = time.monotonic() - killed
        assert taken < LEASE + 6, f"the room played again {taken:.1f} s after the kill"
        for client, told in zip(back, acknowledged, strict=True):
            events = client.update["events"] if client.update else []
            assert events[: len(told)] == told, "an acknowledged event was lost or changed"
        # the bot plays on, and Bob, connected but idle, has his turns timed out and played for him
        play_together(back[:1], b)
        back[1].expect("update", where=lambda m: m["finished"], timeout=10)
        assert any(m["type"] == "update" and m["seats"][1]["auto"] for m in back[1].received), "the turn timer ran"
        at_version = history(db, code)
        final = at_version[max(at_version)]
        assert final.is_over and len(final.events) >= max(map(len, acknowledged))
        for client in (*back, ann, bob):
            client.close()


def choose_for(update: dict[str, Any], rng: random.Random) -> str | None:
    if not update or update.get("view", {}).get("actor") != update.get("you") or update.get("reading"):
        return None
    return choose(update, rng)


def test_an_owner_paused_past_its_lease_is_refused_by_the_store_and_never_forks_the_game(
    tmp_path: Path, redis_url: str
) -> None:
    with two_servers(tmp_path, redis_url, "--away-seconds", "0.5") as (a, b, db):
        ann, code, ann_secret = create(a)
        for seat in (1, 2):
            ann.send(type="seat", seat=seat, bot=True)
            ann.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
        ann.send(type="start")
        ann.expect("update")
        ann.quiet(0.3)
        before = acknowledged_events(ann)
        with redis.Redis.from_url(redis_url) as client:
            held = client.get(f"unokit:lease:{code}")
            assert held is not None
            a.process.send_signal(signal.SIGSTOP)
            try:  # the lease runs out; the other process's sweep takes the room, and plays on there
                deadline = time.monotonic() + LEASE * 6
                while client.get(f"unokit:lease:{code}") in (None, held):
                    assert time.monotonic() < deadline, "the other process did not take the room"
                    time.sleep(0.05)
                time.sleep(1.0)  # the bots play the seat of Ann, away there
            finally:
                a.process.send_signal(signal.SIGCONT)
        # woken, the old owner finds the room gone from it: its socket is closed, nothing more is played there
        closed(ann, LEASE * 3)
        log = a.errors()
        assert "no longer owned by this process" in log or "another process owns it now" in log, log
        back = resume(b, code, ann_secret)
        events = back.update["events"] if back.update else []
        assert events[: len(before)] == before, "what was acknowledged before the pause stands"
        moved_on = back.update is not None and back.update["version"] > len(before)
        assert moved_on or back.update["finished"], "the room played on in the other process"  # type: ignore[index]
        again = resume(a, code, ann_secret)  # the old owner relays to the new one
        assert again.update is not None
        back.close()
        again.close()
        history(db, code)  # the stored match replays: one game, no fork


def test_a_write_by_an_owner_whose_lease_was_taken_is_refused_by_the_store(tmp_path: Path, redis_url: str) -> None:
    """The first process believes it owns the room (its lease is long, and not renewed yet) when another
    takes it: the store refuses its next write, by the fence alone, and it closes the room."""
    with two_servers(tmp_path, redis_url, first=("--lease-seconds", "60")) as (a, b, db):
        ann, code, ann_secret = create(a, seats=2)
        bob = a.client()
        bob.send(type="join", code=code, name="Bob")
        bob.expect("welcome")
        ann.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "human")
        ann.send(type="start")
        players = [ann, bob]
        updates = [p.expect("update") for p in players]
        version = updates[0]["version"]
        with redis.Redis.from_url(redis_url) as client:
            assert client.delete(f"unokit:lease:{code}") == 1  # as if the lease had run out unseen
        watcher = b.client()
        watcher.send(type="spectate", code=code)  # the other process takes the room: a new fence
        watcher.expect("update")
        actor = updates[0]["view"]["actor"]
        update = players[actor].update
        assert update is not None
        action = choose(update, random.Random(1))
        assert action is not None
        players[actor].send(type="act", action=action, version=version)
        closed(players[actor], 5)  # refused: the room is closed in the first process, its clients dropped
        log = a.errors()
        assert "another process owns it now" in log and "no longer owned by this process" not in log, log
        assert watcher.quiet(0.3) == [] or all(m.get("version", version) == version for m in watcher.received)
        at_version = history(db, code)
        assert max(at_version) == version, "the refused action was not stored"
        back = resume(a, code, ann_secret if actor == 0 else str(bob.welcome["secret"]))  # type: ignore[index]
        assert back.update is not None and back.update["version"] == version
        back.send(type="act", action=action, version=version)  # relayed to the new owner, and played there
        assert back.expect("update", where=lambda m: m["version"] > version)
        watcher.expect("update", where=lambda m: m["version"] > version)
        for client in (back, watcher, *players):
            client.close()


def test_a_relaying_process_killed_its_clients_are_away_in_the_owners_room(tmp_path: Path, redis_url: str) -> None:
    with two_servers(tmp_path, redis_url) as (a, b, _):
        ann, code, _ = create(a)
        bob = b.client()
        bob.send(type="join", code=code, name="Bob")
        bob.expect("welcome")
        ann.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "human" and not m["seats"][1]["away"])
        b.kill()
        ann.expect("lobby", where=lambda m: m["seats"][1]["away"], timeout=LEASE * 2)
        ann.close()
