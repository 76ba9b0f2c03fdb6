"""SqliteStorage: rooms, seats (hashed secrets), games rebuilt exactly from stored actions, results."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from pathlib import Path

import pytest

from unokit import Game
from unokit.engine.record import replay, to_record
from unokit.web.storage import ROWS_PER_STATEMENT, ActionRow, SeatRow, SqliteStorage, StorageConflict, hash_secret
from unokit.web.store import Store
from web_support import Client, RunningServer, fast_settings


def play_some(game: Game, steps: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        seat = rng.choice(game.deciders())
        game.apply(seat, rng.choice(game.legal_actions(seat)))


@pytest.fixture(params=["memory", "file"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> SqliteStorage:
    path = ":memory:" if request.param == "memory" else str(tmp_path / "rooms.sqlite3")
    return SqliteStorage(path)


def test_rooms_and_seats(store: SqliteStorage) -> None:
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


def test_lobbies_untouched_for_long_are_deleted(store: SqliteStorage) -> None:
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
def test_game_rebuilds_exactly_from_stored_actions(tmp_path: Path, edition: str) -> None:
    path = str(tmp_path / "games.sqlite3")
    store = SqliteStorage(path)
    store.create_room("ROOM2345", {"edition": edition}, created=0.0)
    game = Game(edition, 3, seed=11, rules={"target_score": 100})
    setup = to_record(game, ["A", "B", "C"])
    store.start_game("ROOM2345", setup)
    assert store.load_room("ROOM2345").status == "playing"  # type: ignore[union-attr]
    play_some(game, 300, seed=5)
    for index, (seat, action) in enumerate(game.history):
        store.append_action("ROOM2345", index, seat, game.actions.format(action))
    store.close()
    again = SqliteStorage(path)  # as after a restart
    record = again.load_record("ROOM2345")
    assert record is not None and record["names"] == ["A", "B", "C"]
    rebuilt = replay(record)
    assert rebuilt.state_key() == game.state_key()
    assert rebuilt.events == game.events
    assert rebuilt.view(1).to_dict() == game.view(1).to_dict()


def test_results_finish_a_room(store: SqliteStorage) -> None:
    store.create_room("ROOM2345", {}, created=0.0)
    store.create_room("ROOM6789", {}, created=1.0)
    assert store.load_record("ROOM2345") is None and store.load_result("ROOM2345") is None
    store.start_game("ROOM6789", {"edition": "classic"})
    store.save_result("ROOM2345", {"winner": 1, "scores": [0, 120], "rounds": 3})
    assert store.load_result("ROOM2345") == {"winner": 1, "scores": [0, 120], "rounds": 3}
    assert store.load_room("ROOM2345").status == "finished"  # type: ignore[union-attr]
    assert [r.code for r in store.rooms_in_progress()] == ["ROOM6789"]


def test_bad_status_and_failed_transactions_change_nothing(store: SqliteStorage) -> None:
    store.create_room("ROOM2345", {}, created=0.0)
    with pytest.raises(ValueError, match="status"):
        store.set_status("ROOM2345", "paused")
    store.save_seats("ROOM2345", [SeatRow(0, "Ann", "human")])
    with pytest.raises(StorageConflict):
        store.save_seats("ROOM2345", [SeatRow(0, "Ann", "human"), SeatRow(1, "Bob", "wizard")])
    room = store.load_room("ROOM2345")
    assert room is not None and room.seats == [SeatRow(0, "Ann", "human")]


def test_actions_of_several_rooms_are_stored_together_or_not_at_all(store: SqliteStorage) -> None:
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
    for code in games:
        (touched,) = store.db.execute("SELECT touched FROM rooms WHERE code = ?", (code,)).fetchone()
        assert touched >= before
    last = rows[-1]
    with pytest.raises(StorageConflict):  # the last action, with one already stored
        store.append_actions([last, rows[0]])
    assert len(store.load_record(last.code)["actions"]) == len(games[last.code].history) - 1  # type: ignore[index]
    store.append_actions([last])
    for code, game in games.items():
        assert replay(store.load_record(code)).state_key() == game.state_key()  # type: ignore[arg-type]


def test_the_store_writes_the_actions_asked_for_together_in_groups(tmp_path: Path) -> None:
    """Actions asked for at once are written in a few groups, not one call each; an action the
    storage refuses fails alone, and the others of its group are stored."""
    storage = SqliteStorage(str(tmp_path / "rooms.sqlite3"))
    calls: list[int] = []
    append_actions = storage.append_actions

    def counted(actions: list[ActionRow]) -> None:
        calls.append(len(actions))
        append_actions(actions)

    storage.append_actions = counted  # type: ignore[method-assign]
    codes = [f"ROOM{n:04d}".replace("0", "A").replace("1", "B") for n in range(40)]
    for code in codes:
        storage.create_room(code, {"edition": "classic"}, created=0.0)
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
    for code in codes[1:]:
        assert storage.load_record(code) is None  # not started: the record is only read for games
        with sqlite3.connect(storage.path) as db:
            assert db.execute("SELECT COUNT(*) FROM actions WHERE code = ?", (code,)).fetchone() == (1,)


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
