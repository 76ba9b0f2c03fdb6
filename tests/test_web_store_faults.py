"""The server when its store fails, blocks or is shared: a write the store refuses changes nothing
(the game, the room, what any client is told), the room goes on once the store is back, a blocked
write holds up no other room, a restart loses nothing acknowledged, and a store that cannot be
used, or is held by another server, stops the server at start-up with one clear line."""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

import unokit.web.server  # noqa: F401 - loaded before a child drops its rights (it may read no module then)
from cluster_support import LEASE, Server, acknowledged_events, owner_pid, resume
from pg_support import free_port as free_loopback_port
from pg_support import shared_server
from redis_support import redis_server_fixture, redis_url_fixture
from unokit.cli import main as cli_main
from unokit.web.app import create_app
from unokit.web.rooms import FixedSetup, RoomSettings
from unokit.web.storage import SqliteStorage, StorageError
from web_support import Client, RunningServer, captured_logs, choose, fast_settings

SERVE = [sys.executable, "-c", "import sys; from unokit.cli import main; sys.exit(main())", "serve"]
__all__ = ["redis_server_fixture", "redis_url_fixture"]
STRANGER = (65534, 65534)
"""The user and group the start-up checks run as when the tests run as root (whom no file mode stops)."""


class FaultyStorage:
    """A :class:`SqliteStorage` whose calls fail (:attr:`failing`) or wait (:attr:`gates`) on demand."""

    def __init__(self, inner: SqliteStorage) -> None:
        self.inner = inner
        self.threads = inner.threads
        self.failing: set[str] = set()
        """Names of the methods that raise :class:`StorageError`."""
        self.gates: dict[str, tuple[str | None, threading.Event]] = {}
        """Method name → (room code or ``None`` for any, the event its calls wait for)."""
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)
        if not callable(method):
            return method

        def call(*args: Any, **kwargs: Any) -> Any:
            # a group of actions (append_actions) is faulted as its actions would be one by one
            fault = "append_action" if name == "append_actions" else name
            codes = {row.code for row in args[0]} if name == "append_actions" else {args[0] if args else None}
            self.calls.extend([fault] * (len(args[0]) if name == "append_actions" else 1))
            if fault in self.failing:
                raise StorageError(f"injected: {fault} fails")
            gate = self.gates.get(fault)
            if gate is not None and (gate[0] is None or gate[0] in codes):
                assert gate[1].wait(30), "a gate was never opened"
            return method(*args, **kwargs)

        return call


@contextlib.contextmanager
def faulty_server(path: Path, **settings: Any) -> Iterator[tuple[RunningServer, FaultyStorage]]:
    storage = FaultyStorage(SqliteStorage(str(path)))
    app = create_app(storage=storage, settings=fast_settings(**settings))  # type: ignore[arg-type]
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="critical", lifespan="on")
    with RunningServer(config=config) as server:
        yield server, storage


def table_of_two(server: RunningServer, seed: int = 11) -> tuple[str, Client, Client, Client]:
    """A started match of two players (Ann, Bob; no bot), and a spectator; every client has read
    the start."""
    settings = RoomSettings("classic", 2, {}, "heuristic")
    room, ann_secret = server.call(lambda: server.hub.create(settings, "Ann", FixedSetup(seed)))
    code = str(room.code)
    ann = Client(server.url)
    ann.send(type="resume", code=code, secret=ann_secret)
    ann.expect("lobby")
    bob = Client(server.url)
    bob.send(type="join", code=code, name="Bob")
    bob.expect("lobby")
    ann.send(type="start")
    watcher = Client(server.url)
    for client in (ann, bob):
        client.expect("update")
    watcher.send(type="spectate", code=code)
    watcher.expect("update")
    return code, ann, bob, watcher


def actor_of(code: str, server: RunningServer, ann: Client, bob: Client) -> Client:
    room = server.hub.rooms[code]
    return ann if room.game.actor == 0 else bob


def play_one(server: RunningServer, code: str, clients: tuple[Client, Client, Client], rng: random.Random) -> None:
    """The player to act (Ann or Bob) makes a move, and all three clients read it."""
    player = actor_of(code, server, clients[0], clients[1])
    version = player.update["version"]
    player.send(type="act", action=choose(player.update or {}, rng), version=version)
    for client in clients:
        client.expect("update", timeout=5, where=lambda m: m["version"] > version)


def snapshot(server: RunningServer, code: str) -> dict[str, Any]:
    """What a refused change must leave as it was: the room (game, seats, host, chat) and its store."""

    def read() -> dict[str, Any]:
        room = server.hub.rooms[code]
        return {
            "state": room.game.state_key() if room.game is not None else None,
            "events": list(room.game.events) if room.game is not None else None,
            "seats": [(s.name, s.kind, s.secret_hash, s.rule_cards, s.claim_name) for s in room.seats],
            "host": room.host,
            "chat": [row.text for row in room.chat_log],
            "chat_next": room.chat_next,
        }

    found = server.call(read)
    inner = server.hub.storage.inner
    found["stored"] = (inner.load_room(code), inner.load_record(code), inner.load_chat(code, 100))
    return found


def only_errors(messages: list[dict[str, Any]]) -> list[str]:
    """The codes of the errors among ``messages``, which must hold nothing else."""
    assert all(m["type"] in ("error", "pong") for m in messages), [m["type"] for m in messages]
    return [m["code"] for m in messages if m["type"] == "error"]


def test_a_refused_action_changes_nothing_and_the_room_goes_on_when_the_store_is_back(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite3"
    with faulty_server(db) as (server, storage):
        code, ann, bob, watcher = table_of_two(server)
        rng = random.Random(3)
        for _ in range(3):  # a few moves in, then the store fails
            play_one(server, code, (ann, bob, watcher), rng)
        before = snapshot(server, code)
        views = {name: c.update for name, c in (("ann", ann), ("bob", bob), ("watcher", watcher))}
        storage.failing.add("append_action")
        player = actor_of(code, server, ann, bob)
        action = choose(player.update or {}, rng)
        for _ in range(2):  # refused, and refused again: only the player hears of it
            player.send(type="act", action=action, version=player.update["version"])
            refused = player.expect("error")
            assert refused["code"] == "store" and "nothing changed" in refused["message"]
        other = bob if player is ann else ann
        for client in (other, watcher, player):
            assert only_errors(client.quiet(0.2)) == []
        assert snapshot(server, code) == before
        watcher.send(type="sync", version=0)
        assert watcher.expect("update")["version"] == views["watcher"]["version"]
        # the store is back: the same action goes through, and everyone sees it
        storage.failing.clear()
        player.send(type="act", action=action, version=player.update["version"])
        for client in (ann, bob, watcher):
            client.expect("update", where=lambda m, v=views["ann"]["version"]: m["version"] > v)
        after = server.call(lambda: (server.hub.rooms[code].game.state_key(), len(server.hub.rooms[code].game.events)))
        secret = ann.welcome["secret"]  # type: ignore[index]
        for client in (ann, bob, watcher):
            client.close()
    # a restart finds exactly what was acknowledged
    with RunningServer(str(db), fast_settings()) as second:
        room = second.hub.rooms[code]
        assert (room.game.state_key(), len(room.game.events)) == after
        back = Client(second.url)
        back.send(type="resume", code=code, secret=secret)
        assert back.expect("update")["version"] == after[1]
        back.close()


def test_bots_wait_while_the_store_refuses_and_play_on_when_it_is_back(tmp_path: Path) -> None:
    with faulty_server(tmp_path / "rooms.sqlite3") as (server, storage):
        settings = RoomSettings("classic", 3, {"scoring": "single-round"}, "heuristic")
        room, secret = server.call(lambda: server.hub.create(settings, "Ann", FixedSetup(5, dealer=0)))
        code = str(room.code)
        ann = Client(server.url)
        ann.send(type="resume", code=code, secret=secret)
        ann.expect("lobby")
        for seat in (1, 2):
            ann.send(type="seat", seat=seat, bot=True)
            ann.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
        storage.failing.add("append_action")
        ann.send(type="start")
        start = ann.expect("update")
        assert start["view"]["actor"] in (1, 2), "a bot acts first (the dealer is Ann)"
        assert only_errors(ann.quiet(1.5)) == ["store"], "the bots wait, and the table is told why once"
        assert server.call(lambda: len(server.hub.rooms[code].game.history)) == 0
        refusals = storage.calls.count("append_action")
        assert 2 <= refusals <= 6, f"the bots try again, a little later each time ({refusals} tries in 1.5 s)"
        storage.failing.clear()
        moved = ann.expect("update", timeout=20, where=lambda m: m["version"] > start["version"])
        assert moved["events"], "play goes on once the store takes the writes"
        ann.close()


def test_refused_chat_join_seat_and_create_change_nothing(tmp_path: Path) -> None:
    with faulty_server(tmp_path / "rooms.sqlite3") as (server, storage):
        ann = Client(server.url)
        ann.send(type="create", name="Ann", edition="wild-jackpot", seats=3, rules={})
        code = ann.expect("welcome")["code"]
        lobby = ann.expect("lobby")
        ann.send(type="chat", text="hello")
        ann.expect("chat")
        before = snapshot(server, code)
        storage.failing |= {"append_chat", "save_seats", "set_host", "create_room"}
        ann.send(type="chat", text="lost")
        ann.send(type="seat", seat=1, bot=True)
        ann.send(type="rule_cards", texts=["Skip your next turn", "Sing a song"])
        assert only_errors(ann.quiet(0.5)) == ["store"] * 3
        bob = Client(server.url)
        bob.send(type="join", code=code, name="Bob")
        assert bob.expect("error")["code"] == "store"
        assert only_errors(bob.quiet(0.2)) == []
        rooms = server.call(lambda: len(server.hub.rooms))
        other = Client(server.url)
        other.send(type="create", name="Cy", edition="classic", seats=2)
        assert other.expect("error")["code"] == "store"
        assert server.call(lambda: len(server.hub.rooms)) == rooms
        assert ann.quiet(0.3) == []
        assert snapshot(server, code) == before
        assert ann.lobby == lobby
        storage.failing.clear()
        bob.send(type="join", code=code, name="Bob")
        assert bob.expect("welcome")["seat"] == 1
        ann.send(type="chat", text="back")
        assert ann.expect("chat")["text"] == "back"
        for client in (ann, bob, other):
            client.close()


def test_a_blocked_write_holds_up_no_other_room(tmp_path: Path) -> None:
    with faulty_server(tmp_path / "rooms.sqlite3") as (server, storage):
        code_a, ann_a, bob_a, watcher_a = table_of_two(server, seed=21)
        code_b, ann_b, bob_b, watcher_b = table_of_two(server, seed=22)
        gate = threading.Event()
        storage.gates["append_action"] = (code_a, gate)
        rng = random.Random(1)
        blocked = actor_of(code_a, server, ann_a, bob_a)
        blocked.send(type="act", action=choose(blocked.update or {}, rng), version=blocked.update["version"])
        deadline = time.monotonic() + 5
        while "append_action" not in storage.calls:  # its write waits at the gate
            assert time.monotonic() < deadline
            time.sleep(0.01)
        try:
            for _ in range(4):  # the other room plays on ...
                play_one(server, code_b, (ann_b, bob_b, watcher_b), rng)
            watcher_a.send(type="ping")  # ... and the blocked room's members are answered
            assert watcher_a.expect("pong", timeout=5)
            status, _ = http_get(f"{server.http}/api/rooms")
            assert status == 200
            assert only_errors(watcher_a.quiet(0.1)) == [], "nothing of the blocked action shows yet"
        finally:
            gate.set()
        waited = watcher_a.update["version"]
        watcher_a.expect("update", timeout=10, where=lambda m: m["version"] > waited)
        for client in (ann_a, bob_a, watcher_a, ann_b, bob_b, watcher_b):
            client.close()


def http_get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.read()


def test_a_lock_held_by_another_process_is_waited_out_then_refused_without_change(tmp_path: Path) -> None:
    """A second process holds the database's write lock (SQLite's own): the server keeps answering,
    waits a few seconds for the lock, then refuses the action (nothing changed); once the lock is
    gone the action goes through."""
    db = tmp_path / "rooms.sqlite3"
    with RunningServer(str(db), fast_settings()) as server:
        code, ann, bob, watcher = table_of_two(server)
        before = server.call(lambda: server.hub.rooms[code].game.state_key())
        holder = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sqlite3, sys, time\n"
                f"db = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
                "db.execute('BEGIN IMMEDIATE')\nprint('locked', flush=True)\nsys.stdin.readline()\n",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
            player = actor_of(code, server, ann, bob)
            player.send(
                type="act", action=choose(player.update or {}, random.Random(2)), version=player.update["version"]
            )
            watcher.send(type="ping")
            assert watcher.expect("pong", timeout=2), "answered while the write waits"
            refused = player.expect("error", timeout=20)
            assert refused["code"] == "store"
            assert server.call(lambda: server.hub.rooms[code].game.state_key()) == before
        finally:
            assert holder.stdin is not None
            holder.stdin.write("\n")
            holder.stdin.close()
            holder.wait(10)
        version = player.update["version"]
        player.send(type="act", action=choose(player.update or {}, random.Random(2)), version=version)
        watcher.expect("update", where=lambda m: m["version"] > version)
        assert server.call(lambda: server.hub.rooms[code].game.state_key()) != before
        for client in (ann, bob, watcher):
            client.close()


# ---------------------------------------------------------------- start-up


def serve_status(*args: str, as_stranger: bool = False) -> tuple[int, str]:
    """``unokit serve`` run in a child process of this one (``as_stranger``: as a user whom file modes
    stop, when the tests run as root); its exit status and what it wrote on stderr.  Only for
    options that fail before serving."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: no test framework from here on, only os._exit
        status = 70
        try:
            signal.alarm(30)  # a server that starts after all is stopped, and the test fails
            os.close(read)
            os.dup2(write, 2)
            sys.stderr = io.TextIOWrapper(os.fdopen(2, "wb", closefd=False), write_through=True)
            if as_stranger and os.geteuid() == 0:
                os.setgroups([])
                os.setresgid(STRANGER[1], STRANGER[1], STRANGER[1])
                os.setresuid(STRANGER[0], STRANGER[0], STRANGER[0])
            status = cli_main(["serve", "--host", "127.0.0.1", "--port", "0", *args])
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 1
        except BaseException:  # reported as the exit status, and on stderr
            status = 71
            os.write(2, traceback.format_exc().encode())
        finally:
            with contextlib.suppress(Exception):
                sys.stderr.flush()
            os._exit(status)
    os.close(write)
    with os.fdopen(read, "r") as stream:
        stderr = stream.read()
    _, code = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(code), stderr


@pytest.mark.parametrize(
    "case", ["read-only file", "read-only file of its user", "read-only folder", "no such folder", "not a database"]
)
def test_a_store_that_cannot_be_used_stops_the_server_at_start_up(tmp_path: Path, case: str) -> None:
    """``read-only file of its user``: a database (in WAL mode, as the server leaves it) that the
    server's own user owns, in a folder of theirs, made read-only (0444).  SQLite opens it read-only
    and even begins a write transaction on it (the WAL index is writable); only a real write is
    refused, so a check that begins and rolls back a transaction passed it, the server printed its
    address, then stopped on the first write of its start-up with a traceback (exit status 3).  The
    tests run as root, whom file modes do not stop: the server runs as another user who owns the files,
    in a folder of the system's temporary folder (pytest's own is closed to other users)."""
    folder = Path(tempfile.mkdtemp(prefix="unokit-store-"))
    folder.chmod(0o755)
    db = folder / "rooms.sqlite3"
    if case == "read-only file":
        SqliteStorage(str(db)).close()
        db.chmod(0o444)
        folder.chmod(0o777)
    elif case == "read-only file of its user":
        store = SqliteStorage(str(db))
        store.create_room("ABCDEFGH", {}, created=0.0)
        store.close()
        if os.geteuid() == 0:
            for path in (folder, db):
                os.chown(path, *STRANGER)
        db.chmod(0o444)
    elif case == "read-only folder":
        folder.chmod(0o555)
    elif case == "no such folder":
        db = folder / "missing" / "rooms.sqlite3"
    else:
        db.write_bytes(b"this is not an SQLite database at all, only text " * 100)
    try:
        status, stderr = serve_status("--db", str(db), as_stranger=True)
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)
    lines = stderr.strip().splitlines()
    assert status == 2 and len(lines) == 1, stderr
    assert lines[0].startswith("unokit: error: cannot open the database") and "Traceback" not in stderr
    reason = {
        "read-only file": "readonly database",
        "read-only file of its user": "readonly database",
        "read-only folder": "Permission denied",
        "no such folder": "No such file or directory",
        "not a database": "not a database",
    }[case]
    assert reason in lines[0], lines[0]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def serving(db: Path) -> Iterator[None]:
    """A ``unokit serve`` on ``db``, answering, until the block ends (then stopped with SIGTERM)."""
    first = subprocess.Popen(
        [*SERVE, "--host", "127.0.0.1", "--port", str(free_port()), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert first.stdout is not None and "http://127.0.0.1:" in first.stdout.readline()
        yield
    finally:
        first.send_signal(signal.SIGTERM)
        first.wait(10)


def test_a_second_server_on_the_same_file_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite3"
    with serving(db):
        status, stderr = serve_status("--db", str(db))
        assert status == 2 and len(stderr.strip().splitlines()) == 1, stderr
        assert "another unokit server is using this database" in stderr
    status, stderr = serve_status("--db", str(tmp_path / "missing-dir" / "x.sqlite3"))
    assert status == 2
    # the first one gone, the file opens again
    SqliteStorage(str(db), exclusive=True).close()


@pytest.mark.parametrize("link", ["symbolic link", "hard link"])
def test_a_second_server_on_a_link_to_the_same_file_is_refused(tmp_path: Path, link: str) -> None:
    """The lock is the file's, not its name's: a server started on a symbolic or a hard link to a
    file that a running server uses is refused with one line (a second writer would race the
    first's rows)."""
    db = tmp_path / "rooms.sqlite3"
    other = tmp_path / "elsewhere" / "same.sqlite3"
    other.parent.mkdir()
    with serving(db):
        if link == "symbolic link":
            other.symlink_to(db)
        else:
            os.link(db, other)
        second = subprocess.Popen(
            [*SERVE, "--host", "127.0.0.1", "--port", str(free_port()), "--db", str(other)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            stdout, stderr = second.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            second.kill()
            stdout, stderr = second.communicate()
        assert second.returncode == 2 and stdout == "", f"a second server started on the {link}: {stdout}"
        lines = stderr.strip().splitlines()
        assert len(lines) == 1 and "another unokit server is using this database" in lines[0], stderr


def test_bots_back_off_when_another_writer_stored_their_actions_first(tmp_path: Path) -> None:
    """Another writer (a second server on the same file, as a link once allowed) stored the room's
    next actions first: each of the room's writes is refused as a conflict, and the bots wait longer
    and longer before trying again (a handful of tries in a few seconds, as for any store failure),
    rather than trying again at once with a traceback each time."""
    db = tmp_path / "rooms.sqlite3"
    settings = fast_settings(bot_delay=0.0, away_seconds=0.2)
    with RunningServer(str(db), settings) as server, captured_logs() as records:
        ann = Client(server.url)
        ann.send(type="create", name="Ann", edition="classic", seats=3)
        code = ann.expect("welcome")["code"]
        ann.expect("lobby")
        for seat in (1, 2):
            ann.send(type="seat", seat=seat, bot=True)
            ann.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
        ann.send(type="start")
        ann.expect("update", where=lambda m: m["view"]["actor"] == 0)  # the bots wait for Ann
        played = server.call(lambda: len(server.hub.rooms[code].game.history))
        with sqlite3.connect(db) as other:  # the other writer's rows for the actions to come
            other.executemany(
                "INSERT INTO actions (code, idx, seat, action) VALUES (?, ?, 0, 'draw')",
                [(code, index) for index in range(played, played + 100)],
            )
        ann.close()  # away: the bots play for her, and the store refuses each try
        time.sleep(3.5)
        assert server.call(lambda: len(server.hub.rooms[code].game.history)) == played, "nothing refused was played"
    refused = [r for r in records if "the store refused a write" in r.getMessage()]
    failed = [r for r in records if r.levelno >= logging.ERROR]
    assert failed == [], [r.getMessage() for r in failed]
    assert 1 <= len(refused) <= 5, f"{len(refused)} tries in 3.5 s"
    assert all("UNIQUE constraint failed" in r.getMessage() for r in refused)


def test_a_postgresql_database_out_of_reach_stops_the_server_with_one_line() -> None:
    """Nothing listens at the URL's port: one line (the password left out), exit status 2."""
    url = f"postgresql://uno:pass-w0rd@127.0.0.1:{free_loopback_port()}/unokit"
    status, stderr = serve_status("--db", url)
    lines = stderr.strip().splitlines()
    assert status == 2 and len(lines) == 1, stderr
    assert lines[0].startswith("unokit: error: cannot open the database 'postgresql://uno:***@127.0.0.1:")
    assert "pass-w0rd" not in stderr and "Traceback" not in stderr


def test_postgresql_without_the_extra_names_it() -> None:
    """Without psycopg (the postgres extra), ``--db postgresql://…`` says what to install: one line, exit 2."""
    hidden = "import sys; sys.modules['psycopg'] = None; from unokit.cli import main; sys.exit(main())"
    done = subprocess.run(
        [sys.executable, "-c", hidden, "serve", "--port", "0", "--db", "postgresql://uno@127.0.0.1:1/unokit"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and done.stdout == "", done.stderr
    assert "needs the postgres extra: pip install 'unokit[postgres]'" in lines[0]


def test_several_servers_share_one_postgresql_database() -> None:
    """No server holds a PostgreSQL database alone: a second one on the same database starts, and
    reads what the first stored."""
    db = shared_server().new_database()
    ports = [free_port(), free_port()]
    servers = [
        subprocess.Popen(
            [*SERVE, "--host", "127.0.0.1", "--port", str(port), "--db", db],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for port in ports
    ]
    try:
        for server in servers:
            assert server.stdout is not None and "http://127.0.0.1:" in server.stdout.readline()
        ann = client_when_up(f"ws://127.0.0.1:{ports[0]}/ws")
        ann.send(type="create", name="Ann", edition="classic", seats=3)
        code = ann.expect("welcome")["code"]
        ann.expect("lobby")
        client_when_up(f"ws://127.0.0.1:{ports[1]}/ws").close()
        with urllib.request.urlopen(f"http://127.0.0.1:{ports[1]}/api/rooms/{code}", timeout=10) as answer:
            assert answer.status == 200 and json.loads(answer.read())["code"] == code
        ann.close()
    finally:
        for server in servers:
            server.send_signal(signal.SIGTERM)
            server.wait(10)


# ---------------------------------------------------------------- kill -9


def client_when_up(url: str) -> Client:
    """A client of a server just started (it may print its address a moment before it listens)."""
    deadline = time.monotonic() + 10
    while True:
        try:
            return Client(url)
        except ConnectionRefusedError:
            assert time.monotonic() < deadline, "the server never listened"
            time.sleep(0.05)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_kill_mid_game_loses_nothing_acknowledged(tmp_path: Path, backend: str) -> None:
    """The server is killed (SIGKILL) again and again while two players act as fast as they can;
    every event a client was sent is there, the same, after each restart (from an SQLite file, or
    from a PostgreSQL database)."""
    db = str(tmp_path / "rooms.sqlite3") if backend == "sqlite" else shared_server().new_database()
    rng = random.Random(8)
    code = secrets = None
    acknowledged: list[Any] = []
    for round_ in range(6):
        port = free_port()
        server = subprocess.Popen(
            [*SERVE, "--host", "127.0.0.1", "--port", str(port), "--db", db, "--bot-delay", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        try:
            assert server.stdout is not None and "http://127.0.0.1:" in server.stdout.readline()
            url = f"ws://127.0.0.1:{port}/ws"
            if code is None:
                ann = client_when_up(url)
                ann.send(type="create", name="Ann", edition="classic", seats=2, rules={"target_score": 500})
                welcome = ann.expect("welcome")
                code = welcome["code"]
                bob = Client(url)
                bob.send(type="join", code=code, name="Bob")
                secrets = [welcome["secret"], bob.expect("welcome")["secret"]]
                ann.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "human")
                ann.send(type="start")
            else:
                ann, bob = client_when_up(url), Client(url)
                assert secrets is not None
                for client, secret in ((ann, secrets[0]), (bob, secrets[1])):
                    client.send(type="resume", code=code, secret=secret)
            players = [ann, bob]
            updates = [p.expect("update", timeout=10) for p in players]
            events = updates[0]["events"]
            assert events[: len(acknowledged)] == acknowledged, f"restart {round_}: acknowledged events changed"
            acknowledged = list(events)
            deadline = time.monotonic() + rng.uniform(0.2, 0.8)
            while time.monotonic() < deadline:  # both act as fast as the server answers, until the kill
                for seat, player in enumerate(players):
                    update = player.update or {}
                    action = choose(update, rng) if update.get("view", {}).get("actor") == seat else None
                    if action is not None and not update.get("finished"):
                        player.send(type="act", action=action, version=update["version"])
                for player in players:
                    for message in player.quiet(0.01):
                        if message["type"] == "update" and player is ann:
                            acknowledged.extend(message["events"])
        finally:
            server.send_signal(signal.SIGKILL)
            server.wait(10)
        for player in (ann, bob):
            with contextlib.suppress(Exception):
                player.close()
    assert len(acknowledged) > 40, "the players got some way in between the kills"


def test_owners_killed_mid_game_on_two_processes_lose_nothing_acknowledged(tmp_path: Path, redis_url: str) -> None:
    """Two processes on PostgreSQL and Redis, each player on another (one relayed to the owner): the room's
    owner is killed (SIGKILL) again and again while both act as fast as they can, and started again; the
    other takes the room over once its lease has run out, and every event a client was sent is there, the
    same, after each take-over."""
    db = shared_server().new_database()
    options = ("--bot-delay", "0", "--away-seconds", "60")
    servers = [Server(db, redis_url, tmp_path / f"{index}.log", *options) for index in range(2)]
    rng = random.Random(8)
    acknowledged: list[list[Any]] = [[], []]
    """Each seat's events as it was told them (each sees its own cards)."""
    takeovers: list[float] = []
    try:
        ann = servers[0].client()
        ann.send(type="create", name="Ann", edition="classic", seats=2, rules={"target_score": 500})
        welcome = ann.expect("welcome")
        code = welcome["code"]
        bob = servers[1].client()
        bob.send(type="join", code=code, name="Bob")
        secrets = [welcome["secret"], bob.expect("welcome")["secret"]]
        ann.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "human")
        ann.send(type="start")
        players = [ann, bob]
        for player in players:
            player.expect("update")
        for round_ in range(4):
            if round_:  # back through both processes, Ann on one and Bob on the other
                killed = time.monotonic()
                players = [resume(servers[(round_ + seat) % 2], code, secrets[seat]) for seat in (0, 1)]
                takeovers.append(time.monotonic() - killed)
            for seat, player in enumerate(players):
                told = acknowledged_events(player)
                assert told[: len(acknowledged[seat])] == acknowledged[seat], f"take-over {round_}: events changed"
            deadline = time.monotonic() + rng.uniform(0.2, 0.6)
            while time.monotonic() < deadline:  # both act as fast as the owner answers, until the kill
                for seat, player in enumerate(players):
                    update = player.update or {}
                    action = choose(update, rng) if update.get("view", {}).get("actor") == seat else None
                    if action is not None and not update.get("finished"):
                        player.send(type="act", action=action, version=update["version"])
                for player in players:
                    player.quiet(0.01)
            owner = owner_pid(redis_url, code)
            (victim,) = [index for index, server in enumerate(servers) if server.process.pid == owner]
            servers[victim].kill()
            acknowledged = [acknowledged_events(player) for player in players]
            for player in players:
                player.close()
            servers[victim] = Server(db, redis_url, tmp_path / f"{victim}-{round_}.log", *options)
        players = [resume(servers[seat], code, secrets[seat]) for seat in (0, 1)]
        for seat, player in enumerate(players):
            assert acknowledged_events(player)[: len(acknowledged[seat])] == acknowledged[seat], "the last lost none"
            player.close()
    finally:
        for server in servers:
            server.stop()
    assert min(map(len, acknowledged)) > 40, "the players got some way in between the kills"
    assert max(takeovers) < LEASE + 6, f"the room played again {max(takeovers):.1f} s after a kill"
