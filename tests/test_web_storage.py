"""The stores: rooms, seats (hashed secrets), games rebuilt exactly from stored actions, results,
the chat kept bounded, owner fences, and schema migrations.  The interface's tests run on every
backend: SQLite in memory and in a file, and PostgreSQL (a real server, :mod:`pg_support`)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pg_support import shared_server
from unokit import Game
from unokit.engine.record import replay, to_record
from unokit.web.storage import (
    ROWS_PER_STATEMENT,
    ActionRow,
    SeatRow,
    SqliteStorage,
    Storage,
    StorageConflict,
    hash_secret,
    open_storage,
)
from unokit.web.store import Store
from web_support import Client, RunningServer, fast_settings

Opener = Callable[[], Storage]
"""Opens another store on the same database (as another server process, or after a restart)."""


def play_some(game: Game, steps: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        seat = rng.choice(game.deciders())
        game.apply(seat, rng.choice(game.legal_actions(seat)))


def database(backend: str, tmp_path: Path) -> str:
    """A new database of ``backend`` (``memory``, ``file`` or ``postgresql``), as ``--db`` names it."""
    if backend == "memory":
        return ":memory:"
    if backend == "file":
        return str(tmp_path / "rooms.sqlite3")
    return shared_server().new_database()


@pytest.fixture(params=["file", "postgresql"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens stores on one new database (each closed at the end of the test)."""
    db = database(request.param, tmp_path)
    opened: list[Storage] = []

    def open_one() -> Storage:
        opened.append(open_storage(db))
        return opened[-1]

    yield open_one
    for storage in opened:
        storage.close()


@pytest.fixture(params=["memory", "file", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    storage = open_storage(database(request.param, tmp_path))
    yield storage
    storage.close()


def test_rooms_and_seats(store: Storage) -> None:
    store.create_room("ABCDEFGH", {"edition": "classic", "players": 3, "rules": {}, "bot": "random"}, created=1.0)
    assert store.room_exists("ABCDEFGH") and not store.room_exists("ABCDEFGJ")
    with pytest.raises(KeyError):
        store.create_room("ABCDEFGH", {}, created=2.0)
    secret = "s3cret-value"
    seats = [
        SeatRow(0, "Ann", "human", None, hash_secret(secret), ["Skip your next turn"]),
        SeatRow(1, "Bot 1", "bot", "random"),
        SeatRow(2, "", "open"),
    ]
    store.save_seats("ABCDEFGH", seats)
    room = store.load_room("ABCDEFGH")
    assert room is not None
    assert room.status == "lobby" and room.settings["bot"] == "random" and room.created == 1.0
    assert room.seats == seats
    store.save_seats("ABCDEFGH", seats[:1])
    loaded = store.load_room("ABCDEFGH")
    assert loaded is not None and loaded.seats == seats[:1]
    assert store.load_room("NOSUCHRM") is None
    assert store.rooms_in_progress() == [], "a lobby is not in play"
    store.start_game("ABCDEFGH", {"edition": "classic"})
    assert [r.code for r in store.rooms_in_progress()] == ["ABCDEFGH"]


def test_lobbies_untouched_for_long_are_deleted(store: Storage) -> None:
    now = time.time()
    for code in ("OLDLOBBY", "KEPTLOBY", "PLAYINGG"):
        store.create_room(code, {}, created=now - 100)
    store.start_game("PLAYINGG", {"edition": "classic"})
    store.create_room("NEWLOBBY", {}, created=now - 100)
    store.save_seats("NEWLOBBY", [SeatRow(0, "Ann", "human")])  # touched now
    assert store.delete_stale_lobbies(now - 50, keep={"KEPTLOBY"}) == 1
    assert store.load_room("OLDLOBBY") is None
    assert all(store.room_exists(code) for code in ("KEPTLOBY", "PLAYINGG", "NEWLOBBY"))


def test_secrets_are_stored_only_as_hashes(tmp_path: Path) -> None:
    path = tmp_path / "rooms.sqlite3"
    store = SqliteStorage(str(path))
    store.create_room("ABCDEFGH", {}, created=0.0)
    secret = "Zq8-unique-secret-value-123"
    store.save_seats("ABCDEFGH", [SeatRow(0, "Ann", "human", None, hash_secret(secret))])
    store.close()
    raw = path.read_bytes() + (Path(str(path) + "-wal").read_bytes() if Path(str(path) + "-wal").exists() else b"")
    assert secret.encode() not in raw
    assert hash_secret(secret).encode() in raw, "the hash is what is kept"


def test_secrets_sent_in_welcome_never_reach_the_database_file(tmp_path: Path) -> None:
    path = tmp_path / "rooms.sqlite3"
    with RunningServer(str(path), fast_settings()) as server:
        host = Client(server.url)
        host.send(type="create", name="Ann", edition="classic", seats=3)
        welcome = host.expect("welcome")
        guest = Client(server.url)
        guest.send(type="join", code=welcome["code"], name="Bob")
        secrets = [welcome["secret"], guest.expect("welcome")["secret"]]
        host.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "human")
        wal = Path(str(path) + "-wal")
        assert wal.exists(), "the server writes through a WAL journal"
        files = [path.read_bytes(), wal.read_bytes()]
        assert all(hash_secret(secret).encode() in files[0] + files[1] for secret in secrets), "the seats are written"
        for raw in files:
            for secret in secrets:
                assert secret.encode() not in raw
        host.close()
        guest.close()


@pytest.mark.parametrize("edition", ["classic", "wild-jackpot", "space-jam", "all-wild"])
def test_game_rebuilds_exactly_from_stored_actions(opener: Opener, edition: str) -> None:
    store = opener()
    store.create_room("ROOM2345", {"edition": edition}, created=0.0)
    game = Game(edition, 3, seed=11, rules={"target_score": 100})
    setup = to_record(game, ["A", "B", "C"])
    store.start_game("ROOM2345", setup)
    assert store.load_room("ROOM2345").status == "playing"  # type: ignore[union-attr]
    play_some(game, 300, seed=5)
    for index, (seat, action) in enumerate(game.history):
        store.append_action("ROOM2345", index, seat, game.actions.format(action))
    store.close()
    again = opener()  # as after a restart
    record = again.load_record("ROOM2345")
    assert record is not None and record["names"] == ["A", "B", "C"]
    rebuilt = replay(record)
    assert rebuilt.state_key() == game.state_key()
    assert rebuilt.events == game.events
    assert rebuilt.view(1).to_dict() == game.view(1).to_dict()


def test_results_finish_a_room(store: Storage) -> None:
    store.create_room("ROOM2345", {}, created=0.0)
    store.create_room("ROOM6789", {}, created=1.0)
    assert store.load_record("ROOM2345") is None and store.load_result("ROOM2345") is None
    store.start_game("ROOM6789", {"edition": "classic"})
    store.save_result("ROOM2345", {"winner": 1, "scores": [0, 120], "rounds": 3})
    assert store.load_result("ROOM2345") == {"winner": 1, "scores": [0, 120], "rounds": 3}
    assert store.load_room("ROOM2345").status == "finished"  # type: ignore[union-attr]
    assert [r.code for r in store.rooms_in_progress()] == ["ROOM6789"]


def test_bad_status_and_failed_transactions_change_nothing(store: Storage) -> None:
    store.create_room("ROOM2345", {}, created=0.0)
    with pytest.raises(ValueError, match="status"):
        store.set_status("ROOM2345", "paused")
    store.save_seats("ROOM2345", [SeatRow(0, "Ann", "human")])
    with pytest.raises(StorageConflict):
        store.save_seats("ROOM2345", [SeatRow(0, "Ann", "human"), SeatRow(1, "Bob", "wizard")])
    room = store.load_room("ROOM2345")
    assert room is not None and room.seats == [SeatRow(0, "Ann", "human")]


def test_actions_of_several_rooms_are_stored_together_or_not_at_all(store: Storage) -> None:
    """``append_actions`` stores a group of actions of several rooms in one transaction (chunks of
    ROWS_PER_STATEMENT rows), marks each room touched, and stores none of them if one is refused."""
    games = {code: Game("classic", 2, seed=n) for n, code in enumerate(("ROOM2345", "ROOM6789"))}
    for code, game in games.items():
        store.create_room(code, {"edition": "classic"}, created=0.0)
        store.start_game(code, to_record(game, ["A", "B"]))
        play_some(game, 300, seed=3)
    rows = [
        ActionRow(code, index, seat, game.actions.format(action))
        for code, game in games.items()
        for index, (seat, action) in enumerate(game.history)
    ]
    assert len(rows) > ROWS_PER_STATEMENT
    before = time.time()
    store.append_actions(rows[:-1])
    assert {room.code for room in store.rooms_in_progress(since=before)} == set(games), "both marked changed"
    last = rows[-1]
    with pytest.raises(StorageConflict):  # the last action, with one already stored
        store.append_actions([last, rows[0]])
    assert len(store.load_record(last.code)["actions"]) == len(games[last.code].history) - 1  # type: ignore[index]
    store.append_actions([last])
    for code, game in games.items():
        assert replay(store.load_record(code)).state_key() == game.state_key()  # type: ignore[arg-type]


def test_the_store_writes_the_actions_asked_for_together_in_groups(opener: Opener) -> None:
    """Actions asked for at once are written in a few groups, not one call each; an action the
    storage refuses fails alone, and the others of its group are stored."""
    storage = opener()
    calls: list[int] = []
    append_actions = storage.append_actions

    def counted(actions: list[ActionRow]) -> None:
        calls.append(len(actions))
        append_actions(actions)

    storage.append_actions = counted  # type: ignore[method-assign]
    codes = [f"ROOM{n:04d}".replace("0", "A").replace("1", "B") for n in range(40)]
    for code in codes:
        storage.create_room(code, {"edition": "classic"}, created=0.0)
        storage.start_game(code, {"edition": "classic"})
    storage.append_action(codes[0], 0, 0, "draw")

    async def write_all() -> list[BaseException | None]:
        store = Store(storage)
        try:
            writes = [store.append_action(code, 0, 0, "draw") for code in codes]  # codes[0]'s is a duplicate
            return list(await asyncio.gather(*writes, return_exceptions=True))
        finally:
            store.executor.shutdown()
            store.readers.shutdown()

    outcomes = asyncio.run(write_all())
    assert isinstance(outcomes[0], StorageConflict) and outcomes[1:] == [None] * 39
    # a group or two (the first asked, then the rest); the group that failed is retried one by one
    assert sum(calls) == 40 and len(calls) <= 4, calls
    for code in codes:
        assert storage.load_record(code) == {"edition": "classic", "actions": [[0, "draw"]]}


def test_a_room_stored_with_an_option_idle_without_its_partner_loads_without_it() -> None:
    """Rooms stored before idle options were refused (``mercy_limit`` without ``mercy``) load, and
    their games start: the option changed nothing and is left out; with its partner it stays."""
    from unokit.engine.rules import Rules
    from unokit.web.settings import RoomSettings

    stored = {"edition": "classic", "players": 3, "rules": {"mercy_limit": 10, "hand_size": 5}}
    settings = RoomSettings.from_dict(stored)
    assert settings.rules == {"hand_size": 5} and Rules.from_dict(settings.rules).hand_size == 5
    kept = RoomSettings.from_dict({**stored, "rules": {"mercy_limit": 10, "mercy": True}})
    assert kept.rules == {"mercy_limit": 10, "mercy": True}


# ---------------------------------------------------------------- the chat kept bounded


def test_a_room_keeps_its_last_chat_messages_only(store: Storage) -> None:
    """Each message stored deletes, in its own transaction, those older than the room's last
    CHAT_KEPT: a room's chat stays bounded however much is said (another room's is not touched)."""
    from unokit.web.storage import CHAT_KEPT, ChatRow

    for code in ("ROOM2345", "ROOM6789"):
        store.create_room(code, {}, created=0.0)
    store.append_chat("ROOM6789", ChatRow(1, None, "Cy", "still here", 1.0))
    for n in range(1, CHAT_KEPT + 31):
        store.append_chat("ROOM2345", ChatRow(n, 0, "Ann", f"line {n}", float(n)))
    kept = store.load_chat("ROOM2345", 10 * CHAT_KEPT)
    assert [row.id for row in kept] == list(range(31, CHAT_KEPT + 31))
    assert kept[-1].text == f"line {CHAT_KEPT + 30}"
    assert [row.text for row in store.load_chat("ROOM6789", 10)] == ["still here"]


def test_the_chat_of_rooms_finished_long_ago_is_deleted(store: Storage) -> None:
    from unokit.web.storage import ChatRow

    for code in ("OLDMATCH", "NEWMATCH", "PLAYINGG", "LOBBYROM"):
        store.create_room(code, {}, created=0.0)
        store.append_chat(code, ChatRow(1, 0, "Ann", "gg", 1.0))
        store.append_chat(code, ChatRow(2, 1, "Bob", "wp", 2.0))
    for code in ("OLDMATCH", "NEWMATCH", "PLAYINGG"):
        store.start_game(code, {"edition": "classic"})
    store.save_result("OLDMATCH", {"winner": 0})
    time.sleep(0.02)
    before = time.time()
    time.sleep(0.02)
    store.save_result("NEWMATCH", {"winner": 1})
    assert store.delete_finished_chat(before) == 2
    assert store.load_chat("OLDMATCH", 10) == []
    for code in ("NEWMATCH", "PLAYINGG", "LOBBYROM"):
        assert [row.text for row in store.load_chat(code, 10)] == ["gg", "wp"]
    assert store.load_result("OLDMATCH") == {"winner": 0}, "only the chat goes"
    assert store.delete_finished_chat(before) == 0


# ---------------------------------------------------------------- owner fences


def fenced_writes(store: Storage, code: str, fence: int) -> dict[str, Callable[[], None]]:
    """Every write of a room's owner, given ``fence``."""
    from unokit.web.storage import ChatRow

    return {
        "save_seats": lambda: store.save_seats(code, [SeatRow(0, "Mallory", "human")], fence=fence),
        "set_host": lambda: store.set_host(code, None, fence=fence),
        "set_status": lambda: store.set_status(code, "finished", fence=fence),
        "append_chat": lambda: store.append_chat(code, ChatRow(9, 0, "Mallory", "late", 9.0), fence=fence),
        "set_moved": lambda: store.set_moved(code, "ELSEWHER", [], fence=fence),
        "append_action": lambda: store.append_action(code, 1, 0, "draw", fence=fence),
        "append_action with seats": lambda: store.append_action(
            code, 1, 0, "draw", seats=[SeatRow(0, "Mallory", "human")], result={"winner": 0}, fence=fence
        ),
        "append_actions": lambda: store.append_actions(
            [ActionRow("OTHERROM", 0, 0, "draw"), ActionRow(code, 1, 0, "draw", fence)]
        ),
        "save_result": lambda: store.save_result(code, {"winner": 0}, fence=fence),
    }


def room_state(store: Storage, code: str) -> tuple[object, ...]:
    return (
        store.load_room(code),
        store.load_record(code),
        store.load_result(code),
        store.load_chat(code, 100),
        store.load_record("OTHERROM"),
    )


def test_a_later_claim_fences_off_the_earlier_owner(store: Storage) -> None:
    """After a second claim, each write given the first claim's fence is refused (StaleOwner) and
    changes nothing (a group of actions is refused whole); the second owner's writes go in."""
    from unokit.web.storage import ChatRow, StaleOwner

    store.create_room("ROOM2345", {}, created=0.0, seats=[SeatRow(0, "Ann", "human")])
    store.create_room("OTHERROM", {}, created=0.0)
    store.start_game("OTHERROM", {"edition": "classic"})
    first = store.claim_room("ROOM2345")
    store.start_game("ROOM2345", {"edition": "classic"}, fence=first)
    store.append_action("ROOM2345", 0, 0, "draw", fence=first)
    store.append_chat("ROOM2345", ChatRow(1, 0, "Ann", "hi", 1.0), fence=first)
    second = store.claim_room("ROOM2345")
    assert second == first + 1
    before = room_state(store, "ROOM2345")
    for name, write in fenced_writes(store, "ROOM2345", first).items():
        with pytest.raises(StaleOwner):
            write()
        assert room_state(store, "ROOM2345") == before, f"{name} of a stale owner changed the room"
    with pytest.raises(StaleOwner):
        store.start_game("ROOM2345", {"edition": "classic"}, fence=first)
    store.append_actions([ActionRow("ROOM2345", 1, 1, "draw", second)])
    store.append_action("ROOM2345", 2, 0, "draw", fence=second)
    store.save_seats("ROOM2345", [SeatRow(0, "Ann", "human")], fence=second)
    store.append_chat("ROOM2345", ChatRow(2, 0, "Ann", "back", 2.0), fence=second)
    assert store.load_record("ROOM2345") == {"edition": "classic", "actions": [[0, "draw"], [1, "draw"], [0, "draw"]]}
    with pytest.raises(KeyError):
        store.claim_room("NOSUCHRM")


def test_fences_hold_between_two_stores_of_one_database(opener: Opener) -> None:
    """Two servers on one database (two stores): once the second claims a room, the first one's
    writes to it are refused by the database, whatever the first believes."""
    from unokit.web.storage import StaleOwner

    first_server, second_server = opener(), opener()
    first_server.create_room("ROOM2345", {}, created=0.0)
    first_server.create_room("OTHERROM", {}, created=0.0)
    first_server.start_game("OTHERROM", {"edition": "classic"})
    old = first_server.claim_room("ROOM2345")
    first_server.start_game("ROOM2345", {"edition": "classic"}, fence=old)
    new = second_server.claim_room("ROOM2345")
    assert new == old + 1
    before = room_state(second_server, "ROOM2345")
    for name, write in fenced_writes(first_server, "ROOM2345", old).items():
        with pytest.raises(StaleOwner):
            write()
        assert room_state(second_server, "ROOM2345") == before, f"{name} of a stale owner changed the room"
    second_server.append_action("ROOM2345", 0, 1, "draw", fence=new)
    assert first_server.load_record("ROOM2345") == {"edition": "classic", "actions": [[1, "draw"]]}


# ---------------------------------------------------------------- schema migrations

PREVIOUS_SQLITE_SCHEMA = """
CREATE TABLE rooms (
    code TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished')),
    created REAL NOT NULL,
    touched REAL NOT NULL DEFAULT 0,
    host INTEGER DEFAULT 0,
    public INTEGER NOT NULL DEFAULT 0,
    seed TEXT
);
CREATE TABLE seats (
    code TEXT NOT NULL REFERENCES rooms(code),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('human', 'bot', 'open')),
    bot TEXT,
    secret_hash TEXT,
    rule_cards TEXT,
    claim_name TEXT,
    claim_hash TEXT,
    avatar TEXT,
    colour TEXT,
    PRIMARY KEY (code, seat)
);
CREATE TABLE games (
    code TEXT PRIMARY KEY REFERENCES rooms(code),
    setup TEXT NOT NULL
);
CREATE TABLE actions (
    code TEXT NOT NULL REFERENCES rooms(code),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (code, idx)
);
CREATE TABLE results (
    code TEXT PRIMARY KEY REFERENCES rooms(code),
    result TEXT NOT NULL,
    finished REAL NOT NULL
);
CREATE TABLE chat (
    code TEXT NOT NULL REFERENCES rooms(code),
    id INTEGER NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    time REAL NOT NULL,
    PRIMARY KEY (code, id)
);
ALTER TABLE rooms ADD COLUMN moved_to TEXT;
"""
"""The schema of the release before schema versions (user_version 0): its CREATE statements, and
the column its open added to them."""


def fill_with_three_rooms(execute: Callable[[str, tuple[object, ...]], object]) -> dict[str, Game]:
    """A lobby, a match being played and a finished match with their seats, actions, result and
    chat, written with plain SQL (``?`` placeholders) as a store of that schema held them."""
    import json

    games = {
        "PLAYINGG": Game("classic", 2, seed=4),
        "FINISHED": Game("classic", 2, seed=5, rules={"scoring": "single-round"}),
    }
    play_some(games["PLAYINGG"], 40, seed=1)
    play_some(games["FINISHED"], 5000, seed=2)
    assert games["FINISHED"].is_over and not games["PLAYINGG"].is_over
    rooms = [("LOBBYROM", "lobby"), ("PLAYINGG", "playing"), ("FINISHED", "finished")]
    for n, (code, status) in enumerate(rooms):
        execute(
            "INSERT INTO rooms (code, settings, status, created, touched, host, public, seed)"
            " VALUES (?, ?, ?, ?, ?, 0, 1, ?)",
            (
                code,
                json.dumps({"edition": "classic", "players": 2}),
                status,
                100.0 + n,
                200.0 + n,
                "12345678901234567890",
            ),
        )
        for seat, (name, kind) in enumerate([("Ann", "human"), ("Bob", "human" if code != "LOBBYROM" else "open")]):
            execute(
                "INSERT INTO seats (code, seat, name, kind, secret_hash, rule_cards) VALUES (?, ?, ?, ?, ?, ?)",
                (code, seat, name, kind, hash_secret(f"{code}{seat}") if kind == "human" else None, None),
            )
        execute(
            "INSERT INTO chat (code, id, seat, name, text, time) VALUES (?, 1, 0, 'Ann', ?, 5.0)",
            (code, f"hello {code}"),
        )
        game = games.get(code)
        if game is not None:
            execute(
                "INSERT INTO games (code, setup) VALUES (?, ?)", (code, json.dumps(to_record(game, ["Ann", "Bob"])))
            )
            for index, (seat, action) in enumerate(game.history):
                execute(
                    "INSERT INTO actions (code, idx, seat, action) VALUES (?, ?, ?, ?)",
                    (code, index, seat, game.actions.format(action)),
                )
    execute("INSERT INTO results (code, result, finished) VALUES (?, ?, ?)", ("FINISHED", '{"winner": 0}', 300.0))
    return games


def assert_nothing_lost(store: Storage, games: dict[str, Game]) -> None:
    lobby = store.load_room("LOBBYROM")
    assert lobby is not None and lobby.status == "lobby" and [s.kind for s in lobby.seats] == ["human", "open"]
    assert lobby.seats[0].secret_hash == hash_secret("LOBBYROM0") and lobby.seed == 12345678901234567890
    assert [room.code for room in store.public_lobbies(10)] == ["LOBBYROM"]
    assert [room.code for room in store.rooms_in_progress()] == ["PLAYINGG"]
    for code, game in games.items():
        record = store.load_record(code)
        assert record is not None and replay(record).state_key() == game.state_key()
        assert replay(record).events == game.events
        assert [row.text for row in store.load_chat(code, 10)] == [f"hello {code}"]
    assert store.load_result("FINISHED") == {"winner": 0}
    # and the upgraded store works as a new one: fences, more actions
    fence = store.claim_room("PLAYINGG")
    game = games["PLAYINGG"]
    seat = game.deciders()[0]
    action = game.legal_actions(seat)[0]
    store.append_action("PLAYINGG", len(game.history), seat, game.actions.format(action), fence=fence)
    game.apply(seat, action)
    assert replay(store.load_record("PLAYINGG")).state_key() == game.state_key()  # type: ignore[arg-type]


def test_a_store_of_the_previous_release_is_upgraded_without_losing_a_room(tmp_path: Path) -> None:
    import sqlite3

    from unokit.web.storage.migrations import SQLITE, latest

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(PREVIOUS_SQLITE_SCHEMA)
        games = fill_with_three_rooms(db.execute)
    store = SqliteStorage(str(path), exclusive=True)
    try:
        assert store.db.execute("PRAGMA user_version").fetchone() == (latest(SQLITE),)
        assert_nothing_lost(store, games)
    finally:
        store.close()
    again = SqliteStorage(str(path))  # a store up to date opens as it is
    assert_nothing_lost(again, games)
    again.close()


def test_a_postgresql_database_of_schema_1_is_upgraded_without_losing_a_room() -> None:
    import psycopg

    from unokit.web.storage.migrations import POSTGRES
    from unokit.web.storage.postgres import _Cursor

    url = shared_server().new_database()
    with psycopg.connect(url) as connection, connection.cursor() as cursor:
        cursor.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        cursor.execute("INSERT INTO schema_version VALUES (1)")
        POSTGRES[0].apply(_Cursor(cursor))
        games = fill_with_three_rooms(_Cursor(cursor).execute)
    store = open_storage(url)
    try:
        assert_nothing_lost(store, games)
    finally:
        store.close()
    with psycopg.connect(url) as connection:
        assert connection.execute("SELECT version FROM schema_version").fetchall() == [(len(POSTGRES),)]


@pytest.mark.parametrize("backend", ["file", "postgresql"])
def test_a_store_of_a_later_schema_is_refused_unchanged(tmp_path: Path, backend: str) -> None:
    import sqlite3

    import psycopg

    from unokit.web.storage import StorageError

    db = database(backend, tmp_path)
    open_storage(db).close()
    if backend == "file":
        with sqlite3.connect(db) as connection:
            connection.execute("PRAGMA user_version = 99")
    else:
        with psycopg.connect(db) as connection:
            connection.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(StorageError, match="schema version 99, made by a later unokit"):
        open_storage(db)


# ---------------------------------------------------------------- PostgreSQL's failures


def test_a_postgresql_row_locked_elsewhere_is_busy_then_refused_unchanged() -> None:
    """Another transaction holds the room's row: a write waits for it a second (lock_timeout), then
    is refused as busy (worth another try), changing nothing; once the lock goes, it goes in."""
    import psycopg

    from unokit.web.storage import StorageBusy

    url = shared_server().new_database()
    store = open_storage(url)
    try:
        store.create_room("ROOM2345", {}, created=0.0)
        store.start_game("ROOM2345", {"edition": "classic"})
        with psycopg.connect(url) as other:
            other.execute("SELECT 1 FROM rooms WHERE code = 'ROOM2345' FOR UPDATE")
            started = time.monotonic()
            with pytest.raises(StorageBusy):
                store.append_action("ROOM2345", 0, 0, "draw")
            assert 0.8 < time.monotonic() - started < 5
            other.rollback()
        assert store.load_record("ROOM2345") == {"edition": "classic", "actions": []}
        store.append_action("ROOM2345", 0, 0, "draw")
        assert store.load_record("ROOM2345") == {"edition": "classic", "actions": [[0, "draw"]]}
    finally:
        store.close()


def test_postgresql_connections_lost_cost_one_refused_call() -> None:
    """The database ends every connection of the store (as a restart does): the next call is
    refused (a StorageError, like any failure of the store), the pool replaces the lost connections
    at once, and the calls after it work, with everything stored before still there."""
    import concurrent.futures

    import psycopg

    from unokit.web.storage import StorageError

    url = shared_server().new_database()
    store = open_storage(url)
    try:
        store.create_room("ROOM2345", {}, created=0.0)
        store.start_game("ROOM2345", {"edition": "classic"})
        store.append_action("ROOM2345", 0, 0, "draw")
        with concurrent.futures.ThreadPoolExecutor(8) as threads:  # several connections in the pool
            list(threads.map(lambda _: store.load_room("ROOM2345"), range(64)))
        with psycopg.connect(shared_server().url(), autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                (url.rsplit("/", 1)[1],),
            )
        refused = 0
        for index in range(1, 9):
            try:
                store.append_action("ROOM2345", index, 0, "draw")
            except StorageError:
                refused += 1
                store.append_action("ROOM2345", index, 0, "draw")  # tried again, as a room does
        assert refused <= 1
        assert store.load_record("ROOM2345") == {"edition": "classic", "actions": [[0, "draw"]] * 9}
    finally:
        store.close()


def test_the_store_refuses_only_the_stale_owners_actions_of_a_group(opener: Opener) -> None:
    """Actions of several rooms asked for at once go in one group; a room whose fence is stale
    fails alone (StaleOwner), the others' actions are stored."""
    from unokit.web.storage import StaleOwner

    storage = opener()
    codes = ["ROOMAAAA", "ROOMBBBB", "ROOMCCCC"]
    fences = {}
    for code in codes:
        storage.create_room(code, {"edition": "classic"}, created=0.0)
        storage.start_game(code, {"edition": "classic"})
        fences[code] = storage.claim_room(code)
    opener().claim_room("ROOMBBBB")  # another owner took it over

    async def write_all() -> list[BaseException | None]:
        store = Store(storage)
        try:
            writes = [store.append_action(code, 0, 0, "draw", fence=fences[code]) for code in codes]
            return list(await asyncio.gather(*writes, return_exceptions=True))
        finally:
            store.executor.shutdown()
            store.readers.shutdown()

    outcomes = asyncio.run(write_all())
    assert outcomes[0] is None and isinstance(outcomes[1], StaleOwner) and outcomes[2] is None
    assert [len(storage.load_record(code)["actions"]) for code in codes] == [1, 0, 1]  # type: ignore[index]
