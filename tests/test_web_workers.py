"""``unokit serve --workers N``: several server processes on one port, supervised by one parent, with a
real PostgreSQL (:mod:`pg_support`) and a real Redis (:mod:`redis_support`): both workers answer, an
address has one allowance of rooms for all of them, a worker killed is started again, and the parent
stopped or killed leaves no worker behind."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
from websockets.exceptions import ConnectionClosed

from pg_support import shared_server
from redis_support import RedisServer, redis_server_fixture
from unokit.cli import main
from web_support import Client

__all__ = ["redis_server_fixture"]

ROOT = Path(__file__).resolve().parent.parent
CLUSTER_CADDYFILE = ROOT / "deploy" / "Caddyfile.cluster"
SERVE = [sys.executable, "-c", "import sys; from unokit.cli import main; sys.exit(main())", "serve"]


# ---------------------------------------------------------------- processes, seen from /proc


def children_of(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (zombies left out)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rpartition(")")[2].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                found.add(int(entry))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def worker_of(client: Client, workers: set[int]) -> int:
    """The worker process holding the server's end of ``client``'s socket: the one whose descriptors
    include the socket that /proc/net/tcp shows connected to the client's port."""
    local_port = client.ws.socket.getsockname()[1]
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[2].rpartition(":")[2], 16) == local_port:  # the remote end is the client
            inodes.add(fields[9])
    for pid in workers:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith("socket:[") and target[8:-1] in inodes:
                return pid
    raise AssertionError(f"no worker holds the socket of client port {local_port}")


# ---------------------------------------------------------------- a served cluster


@dataclass
class Cluster:
    process: subprocess.Popen[str]
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def workers(self, count: int = 2, timeout: float = 20.0) -> set[int]:
        """The worker processes, once there are ``count`` of them."""
        deadline = time.monotonic() + timeout
        while len(found := children_of(self.process.pid)) != count:
            assert time.monotonic() < deadline, f"{len(found)} workers, not {count}:\n{self.log.read_text()}"
            time.sleep(0.05)
        return found

    def healthz(self) -> str:
        """Which worker answered ``/healthz`` on a fresh connection."""
        with urllib.request.urlopen(f"{self.url}/healthz", timeout=10) as response:
            assert response.status == 200 and response.read() == b"ok\n"
            return str(response.headers["x-unokit-worker"])

    def answering_workers(self, tries: int = 400) -> set[str]:
        """The workers seen answering ``/healthz``, asked until both answered (or ``tries`` times)."""
        seen = set()
        for _ in range(tries):
            seen.add(self.healthz())
            if len(seen) == 2:
                break
        return seen

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_cluster(tmp: Path, redis_url: str, *options: str, db: str | None = None) -> Cluster:
    """``unokit serve --workers 2`` on ``db`` (a new PostgreSQL database by default) and ``redis_url``,
    once it answers."""
    log = tmp / f"serve-{time.monotonic_ns()}.log"
    database = db or shared_server().new_database()
    command = [*SERVE, "--workers", "2", "--port", "0", "--db", database, "--redis", redis_url, *options]
    with log.open("w") as stderr:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True)
    assert process.stdout is not None
    banner = process.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", banner)
    assert found, f"{banner!r}\n{log.read_text()}"
    cluster = Cluster(process, int(found.group(1)), log)
    cluster.workers()
    deadline = time.monotonic() + 30
    while True:
        try:
            cluster.healthz()
            return cluster
        except OSError:
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def flushed(server: RedisServer, db: int) -> str:
    """The URL of database ``db`` of ``server``, emptied."""
    with server.client(db) as client:
        client.flushdb()
    return f"{server.url}/{db}"


@pytest.fixture(scope="module", name="cluster")
def cluster_fixture(redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """The module's cluster: two workers, three rooms an hour per address."""
    cluster = start_cluster(tmp_path_factory.mktemp("workers"), flushed(redis_server, 3), "--rooms-per-hour", "3")
    try:
        yield cluster
    finally:
        cluster.stop()


# ---------------------------------------------------------------- one port, two workers


def test_two_workers_answer_on_one_port(cluster: Cluster) -> None:
    assert cluster.answering_workers() == {"1", "2"}, "fresh connections reach both workers"


def create_room(client: Client) -> dict[str, Any]:
    """Ask for a room; the answer (``welcome`` or ``error``)."""
    client.send(type="create", name="Ann", edition="classic", seats=2)
    return client.expect("*", where=lambda message: message["type"] in ("welcome", "error"))


def test_an_address_has_one_allowance_of_rooms_for_all_workers(cluster: Cluster) -> None:
    workers = cluster.workers()
    on: dict[int, list[Client]] = {pid: [] for pid in workers}
    opened: list[Client] = []
    try:
        for _ in range(60):  # sockets until each worker holds two
            client = Client(cluster.url.replace("http", "ws") + "/ws")
            opened.append(client)
            on[worker_of(client, workers)].append(client)
            if all(len(held) >= 2 for held in on.values()):
                break
        one, two = (on[pid] for pid in sorted(workers))
        assert len(one) >= 2 and len(two) >= 2, "the sockets reached both workers"
        answers = [create_room(client) for client in (one[0], two[0], one[1])]
        assert [answer["type"] for answer in answers] == ["welcome"] * 3
        refused = create_room(two[1])  # its worker created one room only: alone, it would allow two more
        assert refused["type"] == "error" and refused["code"] == "rate-limited", refused
        assert "address" in refused["message"]
    finally:
        for client in opened:
            client.close()


def test_a_worker_killed_is_started_again_and_the_port_answers_meanwhile(cluster: Cluster) -> None:
    before = cluster.workers()
    victim = min(before)
    os.kill(victim, signal.SIGKILL)
    for _ in range(20):  # the other worker answers while the killed one is away
        assert cluster.healthz() in ("1", "2")
    after = cluster.workers()
    assert victim not in after and len(after & before) == 1, "one new worker beside the one left alone"
    assert cluster.answering_workers() == {"1", "2"}
    log = cluster.log.read_text()
    assert re.search(rf"worker [12] \(pid {victim}\) was killed by SIGKILL; starting it again in 0\.5 s", log), log
    assert "Traceback" not in log, log


def listening(port: int) -> int:
    """The sockets listening on local ``port`` (IPv4)."""
    return sum(
        1
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
        if int(line.split()[1].rpartition(":")[2], 16) == port and line.split()[3] == "0A"
    )


def test_a_worker_that_keeps_dying_waits_longer_and_leaves_its_connections_to_the_others(cluster: Cluster) -> None:
    assert listening(cluster.port) == 2, "one socket per worker"
    before = cluster.workers()
    first = max(before)
    (other,) = before - {first}
    os.kill(first, signal.SIGKILL)
    deadline = time.monotonic() + 20
    while not (restarted := children_of(cluster.process.pid) - {first, other}):
        assert time.monotonic() < deadline, "the worker was not started again"
        time.sleep(0.02)
    (second,) = restarted
    os.kill(second, signal.SIGKILL)  # dead again within seconds of its start
    deadline = time.monotonic() + 5
    while listening(cluster.port) != 1:  # its socket closed while it waits: no connection waits for it
        assert time.monotonic() < deadline, "the socket of a worker that keeps dying stays open"
        time.sleep(0.02)
    assert {cluster.healthz() for _ in range(10)} == {cluster.healthz()}, "the other worker alone answers"
    log = cluster.log.read_text()
    delays = [
        float(re.search(rf"\(pid {pid}\) was killed by SIGKILL; starting it again in ([\d.]+) s", log).group(1))  # type: ignore[union-attr]
        for pid in (first, second)
    ]
    assert delays[1] == 2 * delays[0], f"the delay doubles: {delays}"
    deadline = time.monotonic() + 30
    while listening(cluster.port) != 2:
        assert time.monotonic() < deadline, "restarted, it listens again"
        time.sleep(0.05)
    assert cluster.answering_workers() == {"1", "2"}


# ---------------------------------------------------------------- stopping


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_sigterm_or_ctrl_c_to_the_parent_stops_every_worker_gracefully_and_exits_0(
    stop: signal.Signals, redis_server: RedisServer, tmp_path: Path
) -> None:
    cluster = start_cluster(tmp_path, flushed(redis_server, 4))
    workers = cluster.workers()
    client = Client(cluster.url.replace("http", "ws") + "/ws")
    cluster.process.send_signal(stop)
    with pytest.raises(ConnectionClosed) as closed:
        client.ws.recv(timeout=20)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012, "told to reconnect, not cut off"
    client.close()
    assert cluster.process.wait(30) == 0
    assert cluster.process.stdout is not None
    assert "http://" not in cluster.process.stdout.read(), "the addresses are printed once, by the parent"
    assert not any(alive(pid) for pid in workers), "no worker outlives the parent"
    with pytest.raises(OSError):
        cluster.healthz()
    assert "Traceback" not in cluster.log.read_text()
    with redis.Redis.from_url(f"{redis_server.url}/4") as client:
        assert client.keys("unokit:sockets:*") == [], "the workers stopped cleanly: no socket is counted"


def test_sigkill_to_the_parent_leaves_no_worker_behind(redis_server: RedisServer, tmp_path: Path) -> None:
    cluster = start_cluster(tmp_path, flushed(redis_server, 5))
    workers = cluster.workers()
    cluster.process.kill()
    cluster.process.wait()
    deadline = time.monotonic() + 20
    while any(alive(pid) for pid in workers):
        assert time.monotonic() < deadline, "a worker outlived its parent's SIGKILL"
        time.sleep(0.05)
    with pytest.raises(OSError):
        cluster.healthz()


# ---------------------------------------------------------------- refused


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        (["--db", "rooms.sqlite3", "--redis", "redis://127.0.0.1:1"], "needs a PostgreSQL --db"),
        (["--db", "postgresql://uno@127.0.0.1:1/unokit"], "needs --redis"),
    ],
)
def test_several_workers_without_postgresql_or_redis_are_refused(
    options: list[str], reason: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--workers", "2", "--port", "0", *options]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert captured.out == "" and len(lines) == 1 and reason in lines[0], captured.err
    assert not (tmp_path / "rooms.sqlite3").exists(), "nothing opened"


@pytest.mark.parametrize("value", ["0", "-1", "257"])
def test_a_worker_count_out_of_range_is_refused(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--workers", value, "--db", ":memory:"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"unokit: error: --workers must be from 1 to 256, not {value}"


def test_a_worker_count_that_is_no_number_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--workers", "two", "--db", ":memory:"]) == 2
    assert "--workers: invalid int value: 'two'" in capsys.readouterr().err


def test_a_port_already_served_is_refused_not_shared(redis_server: RedisServer) -> None:
    """The workers' sockets share their port with each other only: a port another server listens on
    (with SO_REUSEPORT or not) is refused with one line, as ``unokit serve`` refuses it."""
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        database = shared_server().new_database()
        done = subprocess.run(
            [*SERVE, "--workers", "2", "--port", str(port), "--db", database, "--redis", flushed(redis_server, 6)],
            capture_output=True,
            text=True,
            timeout=30,
        )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and done.stdout == "", done.stdout
    assert lines == [f"unokit: error: cannot listen on 127.0.0.1:{port}: the port is in use"], done.stderr


# ---------------------------------------------------------------- behind Caddy, on two "machines"


def test_caddy_spreads_over_two_servers_and_passes_over_one_stopped(redis_server: RedisServer, tmp_path: Path) -> None:
    """deploy/Caddyfile.cluster run by Caddy in front of two ``--workers 2`` servers sharing one
    PostgreSQL and one Redis (two machines' servers, here on one): its health checks pass the
    servers' host guard, both servers take requests, a room is created through it over a WebSocket,
    and with one server stopped the other answers alone."""
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("caddy is not installed (apt-get install caddy): the cluster's Caddyfile was not run")
    redis_url = flushed(redis_server, 7)
    port = free_port()
    site = f"http://localhost:{port}"  # the domain: a name, answered for through --public-url
    database = shared_server().new_database()
    public = ["--public-url", site, "--trusted-proxy", "127.0.0.1", "--trusted-proxy", "::1"]
    servers = [start_cluster(tmp_path, redis_url, *public, db=database) for _ in range(2)]
    environment = {
        **os.environ,
        "UNOKIT_DOMAIN": site,
        "UNOKIT_UPSTREAMS": " ".join(f"127.0.0.1:{server.port}" for server in servers),
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    adapted = subprocess.run(
        [caddy, "adapt", "--config", str(CLUSTER_CADDYFILE), "--adapter", "caddyfile"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    config = json.loads(adapted.stdout)
    config["admin"] = {"listen": f"127.0.0.1:{free_port()}"}
    config_file = tmp_path / "caddy.json"
    config_file.write_text(json.dumps(config))
    caddy_log = tmp_path / "caddy.log"
    with caddy_log.open("w") as stderr:
        proxy = subprocess.Popen([caddy, "run", "--config", str(config_file)], env=environment, stderr=stderr)
    clients: list[Client] = []
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                if through(f"{site}/healthz") == (200, "ok\n"):
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, caddy_log.read_text()[-3000:]
            time.sleep(0.2)
        assert json.loads(through(f"{site}/api/site")[1])["base"] == site, "the Host passed on is the domain's"
        before = [established(server.port) for server in servers]
        clients = [Client(f"ws://localhost:{port}/ws") for _ in range(6)]
        after = [established(server.port) for server in servers]
        assert all(a >= b + 2 for a, b in zip(after, before, strict=True)), f"sockets spread: {before} {after}"
        assert create_room(clients[0])["type"] == "welcome"
        servers[0].stop()
        assert [through(f"{site}/healthz") for _ in range(20)] == [(200, "ok\n")] * 20, "the other answers alone"
        logs = "".join(server.log.read_text() for server in servers)
        assert "Traceback" not in logs and "refused" not in logs, logs
    finally:
        for client in clients:
            client.close()
        proxy.terminate()
        proxy.wait(10)
        for server in servers:
            server.stop()


def through(url: str) -> tuple[int, str]:
    """The status and text of ``url`` (an error status too)."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, ""


def established(port: int) -> int:
    """The connections established to local ``port`` (IPv4)."""
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].rpartition(":")[2], 16) == port and fields[3] == "01":
            count += 1
    return count
