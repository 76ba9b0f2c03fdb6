"""A real Redis server for the tests: Debian's ``redis-server``, started once per test session on a
free loopback port in a temporary directory (nothing saved to disk), stopped at the end.

A test module imports the fixtures it uses (``from redis_support import redis_server_fixture,
redis_url_fixture``); ``redis_url`` gives each test an empty database of that server.  Without
``redis-server`` the set-up fails with a message naming the package to install.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

REDIS_SERVER = "redis-server"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class RedisServer:
    """``redis-server`` on 127.0.0.1:``port``, its files in ``directory``, persistence off."""

    def __init__(self, directory: Path) -> None:
        executable = shutil.which(REDIS_SERVER) or shutil.which(REDIS_SERVER, path="/usr/bin:/usr/sbin")
        if executable is None:
            pytest.fail(
                "The cluster tests need a Redis server: install Debian's package redis-server "
                "(`apt-get install redis-server`, or `make services` as root).",
                pytrace=False,
            )
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}"
        self.log = directory / "redis.log"
        command = [executable, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(directory)]
        command += ["--save", "", "--appendonly", "no", "--logfile", str(self.log), "--daemonize", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while True:
            try:
                with redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=1) as client:
                    client.ping()
                return
            except redis.ConnectionError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    log = self.log.read_text() if self.log.exists() else ""
                    pytest.fail(f"redis-server did not start on port {self.port}:\n{log[-2000:]}", pytrace=False)
                time.sleep(0.02)

    def client(self, db: int = 0) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, db=db)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="session", name="redis_server")
def redis_server_fixture() -> Iterator[RedisServer]:
    """One Redis server for the whole test session (each xdist worker starts its own)."""
    with tempfile.TemporaryDirectory(prefix="unokit-redis-") as directory:
        server = RedisServer(Path(directory))
        try:
            yield server
        finally:
            server.stop()


@pytest.fixture(name="redis_url")
def redis_url_fixture(redis_server: RedisServer) -> Iterator[str]:
    """The URL of an empty database of the session's Redis server (emptied again after the test)."""
    with redis_server.client() as client:
        client.flushdb()
    yield redis_server.url
    with redis_server.client() as client:
        client.flushdb()
