"""Every message of whole games, of every edition, holds only what its receiver may see.

Two scripted players and a spectator follow a match against bots over real WebSockets.
Each match is the same at every run, a match of several rounds, so that every run checks
as much: the room's game and bots are seeded (:class:`~unokit.web.rooms.FixedSetup`) and
the scripted players' choices depend only on their seed and the decision.  Afterwards the
match is replayed from its record, and each ``update`` is compared with the engine at that
version: the view must be exactly ``game.view(seat)``, the hand the seat's real hand, the
events the engine's events redacted for the receiver, the words those of a narrator that
saw only the redacted events, the legal actions the seat's own.
"""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from cluster_support import cluster_fixture, one_or_two_processes_fixture, owner_and_relay
from redis_support import redis_server_fixture
from unokit.editions import get_edition
from unokit.engine.cards import card_name
from unokit.engine.events import SECRET_KINDS, SHARED_SECRET_KINDS, event_to_dict, redact
from unokit.engine.game import Game
from unokit.engine.record import replay
from unokit.engine.rules import Rules
from unokit.narrate import Narrator, plain
from unokit.web.rooms import FixedSetup
from unokit.web.storage import hash_secret
from web_support import Client, RunningServer, choose, fast_settings, play_to_end, strings_outside

__all__ = ["cluster_fixture", "one_or_two_processes_fixture", "redis_server_fixture"]

EDITIONS = ["classic", "wild-jackpot", "space-jam", "all-wild"]
SEED = 2**52
"""Seeds have many digits, so that the check that no message holds the seed means something."""
MATCHES = {
    "classic": (SEED + 1, 300),
    "wild-jackpot": (SEED + 1, 300),
    "space-jam": (SEED + 1, 300),
    "all-wild": (SEED + 2, 2000),
}
"""Each edition's match: the seed and the target score, for a match of several rounds (see the
test's last check; UNO All Wild scores far more points a round)."""
SECRET_RULES = {
    0: ["Ann's secret rule: hop on one foot", "Skip your next turn"],
    1: ["Bob's secret rule: whistle a tune", "Draw 2 cards"],
}


WHERE = ["one process", "two processes"]


@contextlib.contextmanager
def server_of_its_own(request: pytest.FixtureRequest, where: str, **changes: Any) -> Iterator[RunningServer]:
    """A server with :func:`fast_settings` and ``changes``, alone or owning the rooms of a cluster of two
    processes (the other relaying the clients connected to its ``relay_url``)."""
    if where == "two processes":
        folder = request.getfixturevalue("tmp_path")
        with owner_and_relay(request.getfixturevalue("redis_server"), folder, **changes) as running:
            yield running
        return
    with RunningServer(":memory:", fast_settings(**changes)) as running:
        yield running


def play_match(
    server: RunningServer, edition: str, seed: int, target: int, preset: str | None = None
) -> tuple[str, dict[Any, Client]]:
    """A whole match of Ann and Bob (scripted) against two bots, followed by a spectator; house
    rules from ``preset`` if one is named."""
    rules: dict[str, Any] = {"target_score": target, "scoring": "winner-collects"}  # All Wild's own is a single round
    if preset is not None:
        rules["preset"] = preset
    code, secret = server.create_fixed_room(FixedSetup(seed), edition, seats=4, rules=rules)
    host = Client(server.url)
    host.send(type="resume", code=code, secret=secret)
    assert host.expect("welcome")["seat"] == 0
    guest = Client(server.relay_url)
    guest.send(type="join", code=code, name="Bob")
    guest.expect("welcome")
    watcher = Client(server.relay_url)
    watcher.send(type="spectate", code=code)
    watcher.expect("welcome")
    if edition == "wild-jackpot":
        for seat, client in ((0, host), (1, guest)):
            client.send(type="rule_cards", texts=SECRET_RULES[seat])
            client.expect("lobby", where=lambda m: bool(m["rule_cards"]["mine"]))
    for seat in (2, 3):
        host.send(type="seat", seat=seat, bot=True)
        host.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
    host.send(type="start")
    failures: list[BaseException] = []

    def run(client: Client, rng_seed: int) -> None:
        try:
            client.expect("update")
            play_to_end(client, random.Random(rng_seed), timeout=60)
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(c, seed + i)) for i, c in enumerate((host, guest))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(90)
    assert not failures, failures
    while not (watcher.update and watcher.update["finished"]):
        watcher.recv(10)
    for client in (host, guest, watcher):
        client.quiet(0.1)
        client.close()
    return code, {0: host, 1: guest, None: watcher}


def card_strings(edition: str) -> set[str]:
    return {card_name(face) for face in get_edition(edition).actions.faces}


def strings_outside_allowed(message: dict[str, Any]) -> list[str]:
    """Every string of an update outside the places that may name cards."""
    allowed = {("view", "hand"), ("view", "top_card"), ("view", "state", "discard_pile")}
    allowed |= {("view", "round_results", "hands"), ("view", "round_results", "mercy_hands")}
    return strings_outside(
        message,
        lambda path: path in allowed or path[:1] == ("legal",) or path[-1:] in {("cards",), ("text",)},
    )


@pytest.mark.parametrize(
    ("edition", "preset"), [*((edition, None) for edition in EDITIONS), ("classic", "house"), ("all-wild", "house")]
)
def test_every_message_shows_only_what_its_receiver_may_see(
    server: RunningServer, edition: str, preset: str | None
) -> None:
    """Every update of a whole match, to both players and a spectator, equals the engine's view of
    the receiver at that version; no card is named anywhere else; the house preset (stacking,
    Seven-O, Jump-In: a jump-in's chance is the jumper's alone) too."""
    seed, target = MATCHES[edition]
    code, clients = play_match(server, edition, seed, target, preset)
    record = server.hub.storage.load_record(code)
    assert record is not None
    game = replay(record, upto=0)
    names = record["names"]
    assert names == ["Ann", "Bob", "Bot 2", "Bot 3"]
    cards = card_strings(edition)
    # the engine at every version reached
    at_version: dict[int, Game] = {len(game.events): game.clone()}
    for seat, text in record["actions"]:
        game.apply_notation(seat, text)
        at_version[len(game.events)] = game.clone()
    final = game
    assert final.is_over
    if preset is not None:
        assert final.rules == Rules.preset(preset, target_score=target, scoring="winner-collects")
        house_events = {e[0] for e in final.events} & {"stack", "swap", "pass_hands", "jump"}
        assert house_events, "the house rules came into play"
    checked = hidden = 0
    for viewer, client in clients.items():
        narrator = Narrator(names, you=viewer, scoring=final.rules.scoring, edition=edition, codes=False)
        seen = 0
        text = json.dumps(client.received)
        assert str(final.seed) not in text and '"seed"' not in text and 'draw_pile":' not in text
        for message in client.received:
            if message["type"] == "lobby" and message["rule_cards"] is not None:
                mine = [entry["text"] for entry in message["rule_cards"]["mine"]]
                assert mine in ([], SECRET_RULES.get(viewer, [])), "a lobby shows only the receiver's own cards"
                others = [t for seat, texts in SECRET_RULES.items() if seat != viewer for t in texts]
                assert not any(t in json.dumps(message) for t in others)
            if message["type"] != "update":
                continue
            version = message["version"]
            engine = at_version[version]
            view = engine.view(viewer)
            expected = view.to_dict()
            del expected["history"]
            expected["round_results"] = expected["round_results"][-1:]  # the web sends the last one
            assert message["view"] == json.loads(json.dumps(expected))
            real_hand = sorted(card_name(c) for c in engine.hands[viewer]) if viewer is not None else []
            assert sorted(message["view"]["hand"]) == real_hand
            assert message["view"]["hand_sizes"] == [len(h) for h in engine.hands]
            playing = viewer is not None and message["reading"] is None  # none while the results are read
            legal = [engine.actions.format(a) for a in engine.legal_actions(viewer)] if playing else []
            assert [entry["action"] for entry in message["legal"]] == legal
            redacted = [redact(e, viewer) for e in engine.events[seen:version]]
            hidden += sum(1 for e, r in zip(engine.events[seen:version], redacted, strict=True) if e != r)
            assert [{k: v for k, v in e.items() if k not in ("text", "points")} for e in message["events"]] == [
                event_to_dict(e) for e in redacted
            ]
            # a hand counted at a round's end: each card's points, the edition's, and nothing else
            assert [e.get("points") for e in message["events"]] == [
                [engine.edition.card_points[c] for c in e[3]] if e[0] == "hand" else None for e in redacted
            ]
            narrator.learn(view.public)
            assert [e["text"] for e in message["events"]] == [plain(narrator.event(e)) for e in redacted]
            for event in message["events"]:
                secret = event["kind"] in SECRET_KINDS
                shared = event["kind"] in SHARED_SECRET_KINDS and event["value"] == viewer
                if secret and event["cards"] and not (event["seat"] == viewer or shared):
                    raise AssertionError(f"{viewer} was shown the cards of {event}")
            assert not cards.intersection(strings_outside_allowed(message)), "a card named outside its place"
            seen = version
            checked += 1
        assert seen == len(final.events), "every receiver heard every event"
    assert final.round >= 2, "a match of several rounds"
    assert checked > 30 and hidden > 20, "whole games were checked, with hidden cards"


def test_a_seats_secret_reaches_only_its_own_socket(server: RunningServer) -> None:
    host = Client(server.url)
    host.send(type="create", name="Ann", edition="classic", seats=3, rules={"scoring": "single-round"})
    welcome = host.expect("welcome")
    code, host_secret = welcome["code"], welcome["secret"]
    guest = Client(server.relay_url)
    guest.send(type="join", code=code, name="Bob")
    guest_secret = guest.expect("welcome")["secret"]
    watcher = Client(server.relay_url)
    watcher.send(type="spectate", code=code)
    watcher.expect("lobby")
    host.send(type="seat", seat=2, bot=True)
    host.expect("lobby", where=lambda m: m["seats"][2]["kind"] == "bot")
    host.send(type="start")
    host.expect("update")
    back = Client(server.relay_url)  # the host comes back on a second socket: the secret it sent is its own
    back.send(type="resume", code=code, secret=host_secret, version=0)
    assert back.expect("welcome")["secret"] == host_secret
    for client in (host, guest, watcher, back):
        client.quiet(0.3)
    assert host_secret in json.dumps(host.received) and guest_secret in json.dumps(guest.received)
    for client in (guest, watcher):
        assert host_secret not in json.dumps(client.received), "the host's secret reached another socket"
    for client in (host, watcher, back):
        assert guest_secret not in json.dumps(client.received), "the guest's secret reached another socket"
    for client in (host, guest, watcher, back):
        client.close()


def test_the_room_features_messages_hold_no_hand_pile_or_other_seats_secret(server: RunningServer) -> None:
    """Chat, chat history, the public list, lobby and update additions, a late arrival's
    watching, the rematch vote and ``moved``: none holds a hand, the draw pile, a hash or
    another seat's secret."""
    ann = Client(server.url)
    rules = {"scoring": "single-round", "hand_size": 4}
    ann.send(type="create", name="Ann", edition="classic", seats=4, rules=rules, public=True, timer=30)
    welcome = ann.expect("welcome")
    code = welcome["code"]
    bob = Client(server.relay_url)
    bob.send(type="join", code=code, name="Bob")
    bob_welcome = bob.expect("welcome")
    watcher = Client(server.relay_url)
    watcher.send(type="spectate", code=code)
    watcher.expect("lobby")
    ann.send(type="chat", text="hello from Ann")
    watcher.send(type="chat", text="hello from the stands")
    for client in (ann, bob, watcher):
        client.expect("chat", where=lambda m: m["seat"] is None)
    with urllib.request.urlopen(f"{server.relay_http}/api/rooms", timeout=10) as response:
        listing = response.read().decode()
    assert code in listing
    for seat in (2, 3):
        ann.send(type="seat", seat=seat, bot=True)
        ann.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
    ann.send(type="start")
    late = Client(server.relay_url)
    late.send(type="join", code=code, name="Cy")
    late_welcome = late.expect("welcome")
    assert late_welcome["claimed"] is True
    failures: list[BaseException] = []

    def run(client: Client, rng_seed: int) -> None:
        try:
            client.expect("update")
            play_to_end(client, random.Random(rng_seed), timeout=60)
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(c, 90 + i)) for i, c in enumerate((ann, bob))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(90)
    assert not failures, failures
    ann.send(type="rematch")
    bob.expect("update", where=lambda m: m["rematch"] is not None and m["rematch"]["votes"] == [0])
    bob.send(type="rematch")
    moved = {name: c.expect("moved") for name, c in (("ann", ann), ("bob", bob), ("watcher", watcher))}
    late.expect("moved")
    clients = {"ann": ann, "bob": bob, "watcher": watcher, "late": late}
    for client in clients.values():
        client.quiet(0.2)
        client.close()
    secrets = {
        "ann": {welcome["secret"], moved["ann"]["secret"]},
        "bob": {bob_welcome["secret"], moved["bob"]["secret"]},
        "late": {late_welcome["secret"]},
    }
    every_secret = set().union(*secrets.values())
    hashes = {hash_secret(secret) for secret in every_secret}
    assert not any(text in listing for text in every_secret | hashes) and "seed" not in listing
    cards = card_strings("classic")
    kinds_seen: set[str] = set()
    for name, client in clients.items():
        own = secrets.get(name, set())
        for message in client.received:
            kinds_seen.add(message["type"])
            text = json.dumps(message)
            assert not any(secret in text for secret in every_secret - own), (name, message["type"])
            assert not any(digest in text for digest in hashes) and "secret_hash" not in text
            assert '"seed"' not in text and 'draw_pile":' not in text
            if message["type"] == "update":
                assert not cards.intersection(strings_outside_allowed(message))
                if message["you"] is None:  # a spectator, or the late arrival waiting for the next round
                    assert message["view"]["hand"] == [] and message["legal"] == []
                    secret_events = [e for e in message["events"] if e["kind"] in SECRET_KINDS]
                    assert all(not e["cards"] for e in secret_events), "a watcher saw hidden cards"
            elif message["type"] != "welcome":
                assert not cards.intersection(strings_outside(message, lambda path: path[-1:] == ("text",)))
            if message["type"] == "moved" and "secret" in message:
                assert message["seat"] == {"ann": 0, "bob": 1}[name]
    assert {"chat", "chat_history", "lobby", "update", "moved"} <= kinds_seen
    assert any(m["type"] == "update" and m["claimed_seat"] == 2 for m in late.received)


def test_the_links_routes_carry_no_secret() -> None:
    """``/api/site`` says only where links lead; a room's QR code is exactly its invite link (the code,
    nothing of a seat): the image is the one drawn for that link alone."""
    from unokit.web.links import qr_svg

    with RunningServer(":memory:", fast_settings()) as server:
        ann = Client(server.url)
        ann.send(type="create", name="Ann", edition="classic", seats=2)
        welcome = ann.expect("welcome")
        code, secret = welcome["code"], welcome["secret"]
        with urllib.request.urlopen(f"{server.http}/api/site", timeout=10) as response:
            site = json.loads(response.read())
        with urllib.request.urlopen(f"{server.http}/api/rooms/{code}/qr.svg", timeout=10) as response:
            svg = response.read()
        ann.close()
    assert set(site) == {"base", "network", "local_only"} and secret not in json.dumps(site)
    assert svg == qr_svg(f"{site['base'] or server.http}/r/{code}")
    assert secret.encode() not in svg and hash_secret(secret).encode() not in svg


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_a_hint_names_only_a_move_of_the_asking_seats_own_update(server: RunningServer, edition: str) -> None:
    """Ann asks for hints at her own decisions of a whole match against three bots (as often as the
    limit allows): each answer holds its four fields, its move is one of the legal entries Ann was
    just sent, and every card it names is in Ann's hand or on the pile; a spectator's hint is refused."""
    code, secret = server.create_fixed_room(FixedSetup(SEED + 7), edition, seats=4, rules={"scoring": "single-round"})
    ann = Client(server.relay_url)
    ann.send(type="resume", code=code, secret=secret)
    ann.expect("lobby")
    watcher = Client(server.url)
    watcher.send(type="spectate", code=code)
    watcher.expect("lobby")
    for seat in (1, 2, 3):
        ann.send(type="seat", seat=seat, bot=True)
        ann.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
    ann.send(type="start")
    update = ann.expect("update")
    rng, hints, asked_at, deadline = random.Random(SEED), 0, 0.0, time.monotonic() + 60
    while not update["finished"]:
        assert time.monotonic() < deadline, "the match did not end in time"
        view = update["view"]
        if view["actor"] == 0 and 0 in view["deciders"] and time.monotonic() - asked_at > 2.1:
            asked_at = time.monotonic()
            ann.send(type="hint", version=update["version"])
            answer = ann.expect("hint")
            hints += 1
            assert set(answer) == {"type", "version", "move", "why"}
            assert answer["version"] == update["version"] and answer["move"] in update["legal"]
            named = set(strings_outside(answer, lambda path: path[-1:] == ("why",))) & card_strings(edition)
            assert named <= set(view["hand"]) | {view["top_card"]}, named
        action = choose(update, rng) if update["legal"] else None
        if action is not None:
            ann.send(type="act", action=action, version=update["version"])
        message = ann.recv(10)
        while message["type"] != "update":
            assert message["type"] != "error" or message["code"] == "stale", message
            message = ann.recv(10)
        update = message
    assert hints > 0
    watcher.send(type="hint", version=0)
    assert watcher.expect("error")["code"] == "forbidden"
    for client in (ann, watcher):
        client.close()


def test_the_players_still_reading_the_results_are_told_by_seat_number_only() -> None:
    """``update.reading`` names seats and seconds, nothing of a hand; and ``continue`` is answered with
    no more than anyone sees."""
    with RunningServer(":memory:", fast_settings(results_seconds=30)) as server:
        ann = Client(server.url)
        ann.send(type="create", name="Ann", edition="classic", seats=2, rules={"hand_size": 3, "target_score": 300})
        code = ann.expect("welcome")["code"]
        ann.send(type="seat", seat=1, bot=True)
        ann.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "bot")
        ann.send(type="start")
        watcher = Client(server.url)
        watcher.send(type="spectate", code=code)
        ended = play_to_end(
            ann,
            random.Random(2),
            stop=lambda c: any(
                e["kind"] == "round_end" for m in c.received if m["type"] == "update" for e in m["events"]
            ),
        )
        assert ended["reading"] is not None
        ann.send(type="continue")
        ann.expect("update", where=lambda m: m["reading"] is None)
        watcher.expect("update", where=lambda m: m["reading"] is None)
        cards = card_strings("classic")
        for client in (ann, watcher):
            for message in client.received:
                if message["type"] == "update" and message["reading"] is not None:
                    reading = message["reading"]
                    assert set(reading) == {"waiting", "remaining", "total"}
                    assert all(type(seat) is int for seat in reading["waiting"])
                    assert not cards.intersection(strings_outside_allowed(message))
                    if message["you"] is None:
                        assert message["view"]["hand"] == [] and message["legal"] == []
        ann.close()
        watcher.close()


@pytest.mark.parametrize("where", WHERE)
def test_an_old_link_of_a_rematched_room_leads_there_with_no_secret(request: pytest.FixtureRequest, where: str) -> None:
    """Whoever opens a room whose rematch has begun (with its seat's secret or none) is sent only the
    rematch's code: no seat, no secret."""
    with server_of_its_own(request, where) as server:
        ann = Client(server.url)
        ann.send(type="create", name="Ann", edition="classic", seats=2, rules={"scoring": "single-round"})
        welcome = ann.expect("welcome")
        ann.send(type="seat", seat=1, bot=True)
        ann.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "bot")
        ann.send(type="start")
        play_to_end(ann, random.Random(6))
        ann.send(type="rematch")
        moved = ann.expect("moved")
        ann.close()
        for ask in (
            {"type": "resume", "secret": welcome["secret"]},
            {"type": "spectate"},
            {"type": "join", "name": "Cy"},
        ):
            other = Client(server.relay_url)
            other.send(code=welcome["code"], **ask)
            answer = other.expect("moved")
            assert answer == {"type": "moved", "code": moved["code"], "seat": None}
            assert moved["secret"] not in json.dumps(other.received)
            other.close()


def test_reactions_avatars_and_voice_signals_reach_only_whom_they_may(server: RunningServer) -> None:
    """Reactions aimed at a seat, avatars and the voice chat, during a match: a ``chat`` reaction
    holds its sender, its target and the reaction, nothing more; the seats' avatars are names of
    the fixed sets; ``voice`` answers only its asker; a ``signal`` reaches its addressee alone, as
    sent; none holds a hand, a card, a secret or its hash."""
    ann = Client(server.url)
    ann.send(type="create", name="Ann", edition="classic", seats=3, avatar="fox", colour="teal")
    welcome = ann.expect("welcome")
    code = welcome["code"]
    bob = Client(server.relay_url)
    bob.send(type="join", code=code, name="Bob", avatar="owl", colour="blue")
    bob_welcome = bob.expect("welcome")
    watcher = Client(server.relay_url)
    watcher.send(type="spectate", code=code)
    watcher.expect("lobby")
    ann.send(type="seat", seat=2, bot=True)
    ann.expect("lobby", where=lambda m: m["seats"][2]["kind"] == "bot")
    ann.send(type="start")
    ann.expect("update")
    bob.expect("update")
    ann.send(type="react", reaction="👏", to=1)
    bob.send(type="react", reaction="😂", to=2)
    watcher.send(type="react", reaction="🎉", to=0)
    bob.send(type="look", avatar="penguin")
    for client in (ann, bob):
        client.send(type="voice", on=True)
        client.expect("voice")
    watcher.send(type="voice", on=True)  # refused: a spectator has no seat to be reached at
    watcher.send(type="signal", to=0, kind="offer", data="SPECTATOR-OFFER")  # refused
    ann.send(type="signal", to=1, kind="offer", data="ANN-OFFER-TO-BOB")
    bob.send(type="signal", to=0, kind="answer", data="BOB-ANSWER-TO-ANN")
    bob.send(type="signal", to=2, kind="candidate", data="BOB-TO-THE-BOT")  # refused: not in voice
    ann.expect("signal")
    bob.expect("signal")
    clients = {"ann": ann, "bob": bob, "watcher": watcher}
    for client in clients.values():
        client.quiet(0.4)
        client.close()
    secrets = {"ann": welcome["secret"], "bob": bob_welcome["secret"]}
    hashes = {hash_secret(secret) for secret in secrets.values()}
    cards = card_strings("classic")
    hands = {
        name: {card for m in client.received if m["type"] == "update" for card in m["view"]["hand"]}
        for name, client in clients.items()
    }
    assert hands["ann"] and hands["bob"] and not hands["watcher"]
    marks = {"ANN-OFFER-TO-BOB": "bob", "BOB-ANSWER-TO-ANN": "ann"}
    for name, client in clients.items():
        text = json.dumps(client.received)
        for other, secret in secrets.items():
            assert (secret in text) == (other == name), (name, other)
        assert not any(digest in text for digest in hashes) and "secret_hash" not in text
        assert "SPECTATOR-OFFER" not in text and "BOB-TO-THE-BOT" not in text
        for mark, addressee in marks.items():
            assert (mark in text) == (name == addressee), (name, mark)
        for message in client.received:
            kind = message["type"]
            if kind == "chat" and "reaction" in message:
                assert set(message) == {"type", "id", "seat", "name", "text", "time", "reaction", "to"}
            elif kind == "voice":
                assert name != "watcher" and set(message) == {"type", "on", "seats", "ice_servers"}
            elif kind == "signal":
                assert set(message) == {"type", "from", "kind", "data"}
                assert (message["from"], message["data"]) in ((0, "ANN-OFFER-TO-BOB"), (1, "BOB-ANSWER-TO-ANN"))
            elif kind in ("lobby", "update"):
                for seat in message["seats"]:
                    assert set(seat) == {
                        "seat",
                        "name",
                        "kind",
                        "away",
                        "auto",
                        "claimed",
                        "avatar",
                        "colour",
                        "voice",
                    } | ({"ready"} if kind == "lobby" else set())
                    assert seat["avatar"] in (None, "robot", "fox", "owl", "penguin")
                    assert seat["colour"] in (None, "teal", "blue")
            if kind in ("chat", "voice", "signal", "error"):
                assert not cards.intersection(strings_outside(message, lambda path: False)), (name, message)
            other_hands = set().union(*(hand for other, hand in hands.items() if other != name))
            if kind in ("chat", "voice", "signal"):
                assert not other_hands.intersection(strings_outside(message, lambda path: False))
    watcher_errors = [m["code"] for m in watcher.received if m["type"] == "error"]
    assert watcher_errors == ["forbidden", "forbidden"]
    assert [m["code"] for m in bob.received if m["type"] == "error"] == ["forbidden"]


def test_a_lang_message_answers_the_members_own_state_in_its_language_and_nothing_more(server: RunningServer) -> None:
    """A ``lang`` message re-sends the member's own update (no events) in the new language: the same view,
    legal moves and seats as a ``sync`` shows it, no other seat's cards nor a rule card not yet shown."""
    code, secret = server.create_fixed_room(FixedSetup(SEED), "wild-jackpot", seats=4, rules={"target_score": 300})
    host = Client(server.url)
    host.send(type="resume", code=code, secret=secret)
    host.expect("welcome")
    guest = Client(server.relay_url)
    guest.send(type="join", code=code, name="Bob", lang="de")
    guest.expect("welcome")
    for seat, client in ((0, host), (1, guest)):
        client.send(type="rule_cards", texts=SECRET_RULES[seat])
        client.expect("lobby", where=lambda m: bool(m["rule_cards"]["mine"]))
    guest.send(type="lang", lang="fr")
    lobby = guest.expect("lobby")
    assert [entry["text"] for entry in lobby["rule_cards"]["mine"]] == SECRET_RULES[1], "its own cards alone"
    assert lobby["rule_cards"]["mine"][1]["reading"].startswith("appliquée"), "read in French"
    for seat in (2, 3):
        host.send(type="seat", seat=seat, bot=True)
        host.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
    host.send(type="start")
    update = guest.expect("update")
    for lang in ("es", "de", "en"):
        guest.quiet(0.2)
        guest.send(type="lang", lang=lang)
        answer = guest.expect("update")
        guest.send(type="sync", version=answer["version"])
        synced = guest.expect("update")
        assert answer["events"] == [] == synced["events"]
        assert set(answer) == set(update)
        same = ("view", "seats", "you", "version", "finished", "claimed_seat", "rematch", "host")
        for key in same:
            assert answer[key] == synced[key], key
        assert [move["action"] for move in answer["legal"]] == [move["action"] for move in synced["legal"]]
        named = set(strings_outside_allowed(answer)) & card_strings("wild-jackpot")
        assert named <= set(answer["view"]["hand"]) | {answer["view"]["top_card"]}, named
        shown = {text for _, text, _ in answer["view"]["public"].get("rule_cards_shown", ())}
        text = json.dumps(answer)
        assert not any(rule in text for rule in SECRET_RULES[0] if rule not in shown), (
            "no hidden rule card of another seat"
        )
    host.close()
    guest.close()


@pytest.mark.parametrize("where", WHERE)
def test_a_full_resync_made_once_for_a_point_of_view_reaches_only_that_point_of_view(
    request: pytest.FixtureRequest, where: str
) -> None:
    """A full resync's events are narrated once per point of view and language and shared: each
    player's (and the spectators') equal the engine's events redacted for that receiver, whichever
    asked first and however many ask (on two processes, asked through the one that relays)."""
    with server_of_its_own(request, where, resync_events=20) as server:
        code, secret = server.create_fixed_room(FixedSetup(SEED + 9), seats=3, rules={"target_score": 200})

        async def play() -> None:
            room = server.hub.rooms[code]
            async with room.lock:
                room.seats[1].empty("bot")
                room.seats[2].empty("bot")
                await room.start_match()
                while not room.game.is_over:  # Ann is away: her seat is played here, by the bot
                    seat = room.game.actor
                    await room.apply(seat, room.bot(seat).choose(room.game.view(seat)))

        server.call(play)
        record = server.hub.storage.load_record(code)
        game = replay(record)
        names = record["names"]
        received: dict[int | None, list[list[dict[str, Any]]]] = {0: [], None: []}
        for viewer in (None, 0, None, 0):  # the spectators' first, then the player's, then each again
            client = Client(server.relay_url)
            if viewer is None:
                client.send(type="spectate", code=code, version=0)
            else:
                client.send(type="resume", code=code, secret=secret, version=0)
            received[viewer].append(client.expect("update")["events"])
            client.close()
        for viewer, answers in received.items():
            redacted = [redact(e, viewer) for e in game.events]
            narrator = Narrator(names, you=viewer, scoring=game.rules.scoring, edition="classic", codes=False)
            narrator.learn(game.view(viewer).public)
            expected = [event_to_dict(e) | {"text": plain(narrator.event(e))} for e in redacted]
            for events in answers:
                assert [{k: v for k, v in e.items() if k != "points"} for e in events] == expected
        hidden = [a for a, b in zip(received[0][0], received[None][0], strict=True) if a.get("cards") != b.get("cards")]
        assert hidden, "the player's own cards were in their resync, not in the spectators'"


def test_the_round_results_in_a_view_hold_only_cards_the_events_showed(server: RunningServer) -> None:
    """Every update's ``view.round_results`` (the last round's) names exactly the cards the round's
    ``hand`` and ``mercy`` events showed the receiver before, and scores as its ``round_end`` did."""
    seed, target = MATCHES["classic"]
    _, clients = play_match(server, "classic", seed, target)
    told = 0
    for viewer, client in clients.items():
        shown: dict[int, list[str]] = {}
        ends: dict[int, dict[str, Any]] = {}
        round_number = 0
        for message in client.received:
            if message["type"] != "update":
                continue
            for event in message["events"]:
                if event["kind"] == "dealer":
                    round_number = event["value"]
                elif event["kind"] in ("hand", "mercy"):
                    shown.setdefault(round_number, []).extend(event["cards"])
                elif event["kind"] == "round_end":
                    ends[round_number] = event
            results = message["view"]["round_results"]
            assert len(results) <= 1, "the web sends the last round's result only"
            for result in results:
                cards = [card for hand in result["hands"] + result["mercy_hands"] for card in hand]
                assert sorted(cards) == sorted(shown[result["round"]]), f"{viewer} was shown other cards"
                end = ends[result["round"]]
                assert (result["winner"], result["points_won"], result["scores"]) == (
                    end["seat"],
                    end["value"],
                    end["scores"],
                )
                told += bool(cards)
    assert told > 10, "round results with cards were checked"


def get_json(url: str) -> tuple[int, Any]:
    """Status and JSON body of a GET, errors included."""
    try:
        with urllib.request.urlopen(url, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_the_analysis_board_names_only_what_its_seat_knew_and_only_of_a_finished_match(server: RunningServer) -> None:
    """The analysis routes (answered by either process): refused while the match is played; afterwards the
    moves they rate and name are the analysed seat's own legal moves at that step, and the position they
    give holds no card hidden from that seat."""
    from test_web_analysis import hides_what_seat_may_not_see
    from unokit.engine.actions import INTERRUPT_TYPES
    from unokit.engine.positions import public_position

    code, secret = server.create_fixed_room(FixedSetup(SEED + 5), "classic", seats=4, rules={"target_score": 300})
    host = Client(server.url)
    host.send(type="resume", code=code, secret=secret)
    host.expect("lobby")
    for seat in (1, 2, 3):
        host.send(type="seat", seat=seat, bot=True)
        host.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
    host.send(type="start")
    host.expect("update")
    for path in ("analysis/1", "analyse/0?seat=1", "position/0?seat=1"):
        status, body = get_json(f"{server.relay_http}/api/rooms/{code}/{path}")
        assert status == 403 and set(body) == {"error"}, (path, body)
    play_to_end(host, random.Random(5))
    host.close()
    record = server.hub.storage.load_record(code)
    assert record is not None
    cards = card_strings("classic")
    steps = len(record["actions"])
    games = [replay(record, upto=0)]
    for who, text in record["actions"]:
        games.append(games[-1].clone())
        games[-1].apply_notation(who, text)

    def rated_moves(game: Game, seat: int) -> set[str]:
        types = game.actions.types
        return {game.actions.format(a) for a in game.legal_actions(seat) if types[a] not in INTERRUPT_TYPES}

    for seat in (0, 1):  # the scripted player and a bot (an address has 12 analyses a minute)
        status, body = get_json(f"{server.relay_http}/api/rooms/{code}/analysis/{seat}")
        assert status == 200 and body["decisions"], body
        for entry in body["decisions"]:
            game = games[entry["step"]]
            assert game.actor == seat
            assert {entry["played"]["action"], entry["best"]["action"]} <= rated_moves(game, seat)
        named = strings_outside(body, lambda path: path[-1:] in {("played",), ("best",)})
        assert not [text for text in named if text in cards], named
        deciding = [entry["step"] for entry in body["decisions"]]
        for step in sorted({0, deciding[0], deciding[-1], steps}):
            game = games[step]
            status, moment = get_json(f"{server.relay_http}/api/rooms/{code}/analyse/{step}?seat={seat}")
            assert status == 200, moment
            assert moment["position"] == public_position(game, seat)
            assert hides_what_seat_may_not_see(moment["position"], game, seat), moment["position"]
            if moment["analysis"] is None:
                assert game.is_over or game.actor != seat
            else:
                assert {move["action"] for move in moment["analysis"]["moves"]} == rated_moves(game, seat)
