"""Reactions aimed at a seat, each player's avatar and colour, and the voice chat's signalling."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from unokit.web.chat import REACTIONS
from unokit.web.social import AVATARS, BOT_AVATAR, COLOURS, MAX_SIGNAL, SIGNAL_BURST
from unokit.web.storage import SqliteStorage
from web_support import Client, RunningServer, fast_settings

ICE = ({"urls": "stun:stun.example.org:3478"},)


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with RunningServer(":memory:", fast_settings(ice_servers=ICE)) as running:
        yield running


def room_of_three(server: RunningServer) -> tuple[str, Client, Client, Client]:
    """Ann (seat 0, a fox in teal), Bob (seat 1, an owl) and a bot (seat 2) in a lobby, and a spectator."""
    ann = Client(server.url)
    ann.send(type="create", name="Ann", edition="classic", seats=3, avatar="fox", colour="teal")
    code = ann.expect("welcome")["code"]
    bob = Client(server.url)
    bob.send(type="join", code=code, name="Bob", avatar="owl")
    bob.expect("welcome")
    ann.send(type="seat", seat=2, bot=True)
    ann.expect("lobby", where=lambda m: m["seats"][2]["kind"] == "bot")
    watcher = Client(server.url)
    watcher.send(type="spectate", code=code)
    watcher.expect("lobby")
    return code, ann, bob, watcher


def close(*clients: Client) -> None:
    for client in clients:
        client.close()


def refused(client: Client, code: str = "malformed") -> dict[str, Any]:
    error = client.expect("error")
    assert error["code"] == code, error
    return error


# ---------------------------------------------------------------- reactions


def test_a_reaction_aimed_at_a_seat_reaches_everyone_with_its_target(server: RunningServer) -> None:
    code, ann, bob, watcher = room_of_three(server)
    ann.send(type="react", reaction="👏", to=1)
    for client in (ann, bob, watcher):
        message = client.expect("chat")
        assert (message["seat"], message["name"], message["reaction"], message["to"]) == (0, "Ann", "👏", 1)
        assert message["text"] == "👏 → Bob"
    bob.send(type="react", reaction="GG", to=2)  # a bot may be reacted to
    assert ann.expect("chat")["text"] == "GG → Bot 2"
    watcher.send(type="react", reaction="🎉")  # a spectator reacts, aimed at nobody
    cheer = bob.expect("chat", where=lambda m: m["seat"] is None)
    assert (cheer["seat"], cheer["name"], cheer["reaction"], cheer["to"], cheer["text"]) == (
        None,
        "Spectator",
        "🎉",
        None,
        "🎉",
    )
    watcher.send(type="react", reaction="👍", to=0)  # ... or aimed at a player
    assert ann.expect("chat", where=lambda m: m["id"] == 4)["text"] == "👍 → Ann"
    late = Client(server.url)  # the chat keeps the line, not the bubble
    late.send(type="spectate", code=code)
    history = late.expect("chat_history")["messages"]
    assert [m["text"] for m in history] == ["👏 → Bob", "GG → Bot 2", "🎉", "👍 → Ann"]
    assert all("reaction" not in m for m in history)
    close(ann, bob, watcher, late)


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"reaction": "👏", "to": 0}, "malformed"),  # oneself
        ({"reaction": "👏", "to": 3}, "malformed"),  # no such seat in a room of three
        ({"reaction": "👏", "to": -1}, "malformed"),
        ({"reaction": "👏", "to": "1"}, "malformed"),
        ({"reaction": "<b>hi</b>"}, "malformed"),  # only the quick reactions
        ({"reaction": "👏", "to": 1, "text": "x"}, "malformed"),
        ({}, "malformed"),
    ],
)
def test_a_bad_reaction_is_refused_and_sends_nothing(server: RunningServer, fields: dict[str, Any], code: str) -> None:
    _, ann, bob, watcher = room_of_three(server)
    ann.send(type="react", **fields)
    refused(ann, code)
    assert not [m for m in bob.quiet(0.3) if m["type"] == "chat"]
    close(ann, bob, watcher)


def test_a_reaction_at_an_open_seat_is_refused(server: RunningServer) -> None:
    ann = Client(server.url)
    ann.send(type="create", name="Ann", edition="classic", seats=3)
    ann.expect("lobby")
    ann.send(type="react", reaction="👍", to=1)
    assert "holds nobody" in refused(ann)["message"]
    close(ann)


def test_reactions_are_rate_limited_with_the_chat(server: RunningServer) -> None:
    _, ann, bob, watcher = room_of_three(server)
    for _ in range(3):
        ann.send(type="chat", text="hi")
    for _ in range(2):
        ann.send(type="react", reaction="😂", to=1)
    ann.send(type="react", reaction="😂", to=1)
    refused(ann, "rate-limited")
    assert len([m for m in bob.quiet(0.5) if m["type"] == "chat"]) == 5
    close(ann, bob, watcher)


def test_every_quick_reaction_is_accepted() -> None:
    from unokit.web.protocol import parse_message

    for reaction in REACTIONS:
        assert parse_message(json.dumps({"type": "react", "reaction": reaction}))["reaction"] == reaction


# ---------------------------------------------------------------- avatars


def test_avatars_and_colours_are_shown_on_the_seats_and_bots_wear_their_own(server: RunningServer) -> None:
    _, ann, bob, watcher = room_of_three(server)
    seats = watcher.lobby["seats"] if watcher.lobby else []
    assert [(s["avatar"], s["colour"]) for s in seats] == [("fox", "teal"), ("owl", None), (BOT_AVATAR, None)]
    bob.send(type="look", avatar="penguin", colour="pink")
    lobby = watcher.expect("lobby", where=lambda m: m["seats"][1]["avatar"] == "penguin")
    assert lobby["seats"][1]["colour"] == "pink"
    bob.send(type="look", colour="amber")  # only what is named changes
    lobby = ann.expect("lobby", where=lambda m: m["seats"][1]["colour"] == "amber")
    assert lobby["seats"][1]["avatar"] == "penguin"
    ann.send(type="start")
    update = bob.expect("update")
    assert [(s["avatar"], s["colour"]) for s in update["seats"]] == [
        ("fox", "teal"),
        ("penguin", "amber"),
        (BOT_AVATAR, None),
    ]
    close(ann, bob, watcher)


@pytest.mark.parametrize(
    "message",
    [
        {"type": "look", "avatar": "robot"},  # the bots' own
        {"type": "look", "avatar": "dragon"},
        {"type": "look", "colour": "#ff0000"},
        {"type": "look", "avatar": ["fox"]},
        {"type": "join", "code": "ABCDEFGH", "name": "Cy", "avatar": "<img>"},
        {"type": "create", "name": "Cy", "edition": "classic", "seats": 2, "colour": "white"},
        {"type": "resume", "code": "ABCDEFGH", "secret": "x" * 32, "avatar": 3},
    ],
)
def test_an_unknown_avatar_or_colour_is_malformed(server: RunningServer, message: dict[str, Any]) -> None:
    _, ann, bob, watcher = room_of_three(server)
    ann.send(**message)
    refused(ann)
    assert not [m for m in watcher.quiet(0.3) if m["type"] == "lobby"], "nothing changed"
    close(ann, bob, watcher)


def test_a_spectator_has_no_avatar_to_choose(server: RunningServer) -> None:
    _, ann, bob, watcher = room_of_three(server)
    watcher.send(type="look", avatar="cat")
    refused(watcher, "forbidden")
    close(ann, bob, watcher)


def test_every_avatar_and_colour_is_accepted_and_the_bots_is_not() -> None:
    from unokit.web.protocol import ProtocolError, parse_message

    for avatar in AVATARS:
        assert parse_message(json.dumps({"type": "look", "avatar": avatar}))["avatar"] == avatar
    for colour in COLOURS:
        assert parse_message(json.dumps({"type": "look", "colour": colour}))["colour"] == colour
    with pytest.raises(ProtocolError):
        parse_message(json.dumps({"type": "look", "avatar": BOT_AVATAR}))


def test_a_restart_keeps_the_avatars_and_resume_changes_them(tmp_path: Any) -> None:
    db = str(tmp_path / "rooms.sqlite3")
    with RunningServer(db, fast_settings()) as first:
        ann = Client(first.url)
        ann.send(type="create", name="Ann", edition="classic", seats=2, avatar="unicorn", colour="indigo")
        welcome = ann.expect("welcome")
        ann.expect("lobby")
        close(ann)
    with RunningServer(db, fast_settings()) as second:
        back = Client(second.url)
        back.send(type="resume", code=welcome["code"], secret=welcome["secret"])
        lobby = back.expect("lobby")
        assert (lobby["seats"][0]["avatar"], lobby["seats"][0]["colour"]) == ("unicorn", "indigo")
        again = Client(second.url)
        again.send(type="resume", code=welcome["code"], secret=welcome["secret"], avatar="cactus")
        lobby = again.expect("lobby", where=lambda m: m["seats"][0]["avatar"] == "cactus")
        assert lobby["seats"][0]["colour"] == "indigo"
        close(back, again)
    stored = SqliteStorage(db).load_room(welcome["code"])
    assert stored is not None and (stored.seats[0].avatar, stored.seats[0].colour) == ("cactus", "indigo")


def test_a_store_written_before_avatars_gains_their_columns(tmp_path: Any) -> None:
    import sqlite3

    db = str(tmp_path / "old.sqlite3")
    old = sqlite3.connect(db)
    old.executescript(
        "CREATE TABLE rooms (code TEXT PRIMARY KEY, settings TEXT NOT NULL, status TEXT NOT NULL,"
        " created REAL NOT NULL);"
        "CREATE TABLE seats (code TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL,"
        " bot TEXT, secret_hash TEXT, rule_cards TEXT, PRIMARY KEY (code, seat));"
        'INSERT INTO rooms VALUES (\'ABCDEFGH\', \'{"edition": "classic", "players": 2, "rules": {}}\', \'lobby\', 0);'
        "INSERT INTO seats VALUES ('ABCDEFGH', 0, 'Ann', 'human', NULL, 'h', NULL);"
    )
    old.commit()
    old.close()
    store = SqliteStorage(db)
    room = store.load_room("ABCDEFGH")
    assert room is not None and (room.seats[0].avatar, room.seats[0].colour) == (None, None)
    room.seats[0].avatar, room.seats[0].colour = "frog", "green"
    store.save_seats("ABCDEFGH", room.seats)
    again = store.load_room("ABCDEFGH")
    assert again is not None and (again.seats[0].avatar, again.seats[0].colour) == ("frog", "green")
    store.close()


def test_a_rematch_keeps_the_players_avatars(server: RunningServer) -> None:
    ann = Client(server.url)
    ann.send(type="create", name="Ann", edition="classic", seats=2, avatar="tiger", colour="red")
    ann.expect("welcome")
    ann.send(type="seat", seat=1, bot=True)
    ann.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "bot")
    room = next(iter(r for r in server.hub.rooms.values() if r.seats[0].avatar == "tiger"))
    from unokit.web.rematch import start_rematch

    async def rematch() -> Any:
        async with room.lock:
            return await start_rematch(room)

    new = server.call(rematch)
    assert (new.seats[0].avatar, new.seats[0].colour) == ("tiger", "red")
    close(ann)


# ---------------------------------------------------------------- voice


def voice_on(client: Client, seat: int) -> dict[str, Any]:
    client.send(type="voice", on=True)
    reply = client.expect("voice")
    assert reply["on"] is True and seat in reply["seats"]
    return reply


def test_voice_is_off_until_turned_on_and_shown_on_the_seats(server: RunningServer) -> None:
    _, ann, bob, watcher = room_of_three(server)
    assert not any(s["voice"] for s in watcher.lobby["seats"]) if watcher.lobby else False
    reply = voice_on(ann, 0)
    assert reply["seats"] == [0] and reply["ice_servers"] == [dict(server) for server in ICE]
    watcher.expect("lobby", where=lambda m: [s["voice"] for s in m["seats"]] == [True, False, False])
    voice_on(bob, 1)
    watcher.expect("lobby", where=lambda m: [s["voice"] for s in m["seats"]] == [True, True, False])
    bob.send(type="voice", on=False)
    assert bob.expect("voice")["seats"] == [0]
    watcher.expect("lobby", where=lambda m: [s["voice"] for s in m["seats"]] == [True, False, False])
    ann.close()  # leaving the room leaves its voice
    watcher.expect("lobby", where=lambda m: [s["voice"] for s in m["seats"]] == [False, False, False])
    close(bob, watcher)


def test_a_signal_reaches_only_its_addressee(server: RunningServer) -> None:
    _, ann, bob, watcher = room_of_three(server)
    cy = Client(server.url)
    cy.send(type="create", name="Cy", edition="classic", seats=2)  # another room
    cy.expect("lobby")
    voice_on(ann, 0)
    voice_on(bob, 1)
    for client in (ann, bob, watcher, cy):
        client.quiet(0.2)
    offer = "v=0 offer from Ann " + "x" * 100
    ann.send(type="signal", to=1, kind="offer", data=offer)
    got = bob.expect("signal")
    assert got == {"type": "signal", "from": 0, "kind": "offer", "data": offer}
    bob.send(type="signal", to=0, kind="answer", data="v=0 answer from Bob")
    assert ann.expect("signal") == {"type": "signal", "from": 1, "kind": "answer", "data": "v=0 answer from Bob"}
    bob.send(type="signal", to=0, kind="candidate", data='{"candidate": "c"}')
    assert ann.expect("signal")["kind"] == "candidate"
    for client in (watcher, cy):
        assert not [m for m in client.quiet(0.3) if m["type"] == "signal"]
    for client in (ann, watcher, cy):
        assert "offer from Ann" not in json.dumps(client.received), "Ann's offer went to Bob alone"
    close(ann, bob, watcher, cy)


@pytest.mark.parametrize(
    ("sender", "fields", "code"),
    [
        ("watcher", {"to": 0, "kind": "offer", "data": "x"}, "forbidden"),  # a spectator signals nobody
        ("bob", {"to": 0, "kind": "offer", "data": "x"}, "forbidden"),  # Bob's voice is off
        ("ann", {"to": 2, "kind": "offer", "data": "x"}, "forbidden"),  # the bot's seat is not in voice
        ("ann", {"to": 0, "kind": "offer", "data": "x"}, "forbidden"),  # oneself
        ("ann", {"to": 1, "kind": "hello", "data": "x"}, "malformed"),
        ("ann", {"to": 1, "kind": "offer", "data": "x" * (MAX_SIGNAL + 1)}, "malformed"),
        ("ann", {"to": 1, "kind": "offer"}, "malformed"),
        ("ann", {"to": 12, "kind": "offer", "data": "x"}, "malformed"),
    ],
)
def test_a_signal_out_of_place_is_refused_and_relayed_to_nobody(
    server: RunningServer, sender: str, fields: dict[str, Any], code: str
) -> None:
    _, ann, bob, watcher = room_of_three(server)
    voice_on(ann, 0)
    clients = {"ann": ann, "bob": bob, "watcher": watcher}
    for client in clients.values():
        client.quiet(0.2)
    clients[sender].send(type="signal", **fields)
    refused(clients[sender], code)
    for client in clients.values():
        assert not [m for m in client.quiet(0.3) if m["type"] == "signal"]
    close(ann, bob, watcher)


def test_a_spectator_or_a_stranger_cannot_join_the_voice_nor_signal(server: RunningServer) -> None:
    _, ann, bob, watcher = room_of_three(server)
    voice_on(ann, 0)
    watcher.send(type="voice", on=True)
    refused(watcher, "forbidden")
    stranger = Client(server.url)  # in no room
    for message in ({"type": "voice", "on": True}, {"type": "signal", "to": 0, "kind": "offer", "data": "x"}):
        stranger.send(**message)
        refused(stranger, "forbidden")
    assert not [m for m in ann.quiet(0.3) if m["type"] == "signal"]
    close(ann, bob, watcher, stranger)


def test_signals_are_rate_limited(server: RunningServer) -> None:
    _, ann, bob, watcher = room_of_three(server)
    voice_on(ann, 0)
    voice_on(bob, 1)
    for n in range(SIGNAL_BURST + 1):
        ann.send(type="signal", to=1, kind="candidate", data=str(n))
    refused(ann, "rate-limited")
    assert len([m for m in bob.quiet(0.5) if m["type"] == "signal"]) == SIGNAL_BURST
    close(ann, bob, watcher)


def test_voice_changes_are_rate_limited(server: RunningServer) -> None:
    _, ann, bob, watcher = room_of_three(server)
    for on in (True, False, True, False, True):
        ann.send(type="voice", on=on)
        assert ann.expect("voice")["on"] is on
    ann.send(type="voice", on=False)
    refused(ann, "rate-limited")
    close(ann, bob, watcher)


def test_signals_are_never_stored(tmp_path: Any) -> None:
    db = str(tmp_path / "rooms.sqlite3")
    with RunningServer(db, fast_settings()) as running:
        _, ann, bob, watcher = room_of_three(running)
        voice_on(ann, 0)
        voice_on(bob, 1)
        ann.send(type="signal", to=1, kind="offer", data="UNIQUE-SDP-MARKER")
        bob.expect("signal")
        close(ann, bob, watcher)
    with open(db, "rb") as stored:
        assert b"UNIQUE-SDP-MARKER" not in stored.read()


def test_ice_servers_are_named_on_the_command_line() -> None:
    from unokit.cli.common import UsageError
    from unokit.cli.serve import ice_server

    assert ice_server("stun:stun.example.org:3478") == {"urls": "stun:stun.example.org:3478"}
    turn = '{"urls": ["turn:turn.example.org:3478"], "username": "uno", "credential": "pw"}'
    assert ice_server(turn) == {"urls": ["turn:turn.example.org:3478"], "username": "uno", "credential": "pw"}
    for bad in ("http://example.org", "{not json", '{"username": "u"}', '{"urls": "stun:x", "port": 1}', '{"urls": 3}'):
        with pytest.raises(UsageError):
            ice_server(bad)
