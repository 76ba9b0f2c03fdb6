"""The web game needs only the ``web`` extra, which is all ``make play`` installs.

The server runs in a child process in which every package of the other extras (numba,
matplotlib, the RL libraries, torch, the test tools) fails to import, as it would in a ``.venv``
made by ``make play``; a match is played in it with each level of bot.  NumPy is in the ``web``
extra: the trained bots (the ``learned`` level) run their network with it.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from unokit.bots.weights import learned_tables
from web_support import Client, play_to_end

ROOT = Path(__file__).resolve().parent.parent

OTHER_EXTRAS = (
    "numba",
    "llvmlite",
    "matplotlib",
    "gymnasium",
    "pettingzoo",
    "pyspiel",
    "open_spiel",
    "rlcard",
    "torch",
    "playwright",
    "pytest",
    "hypothesis",
    "mypy",
)
"""Top-level modules of the packages outside the ``web`` extra and the core's dependencies."""

SERVE_WITHOUT_EXTRAS = """
import importlib.abc, sys
BLOCKED = set(sys.argv[1].split(","))

class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (not in the web extra)", name=name)
        return None

sys.meta_path.insert(0, Blocker())
from unokit.cli import main
sys.exit(main(["serve", "--host", "127.0.0.1", "--port", "0", "--db", ":memory:", "--bot-delay", "0.05"]))
"""


# The server keeps its default limits on what one connection may send: the bots take 50 ms a move, so
# that the scripted player never needs to send faster than a person could.
@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE_WITHOUT_EXTRAS, ",".join(OTHER_EXTRAS)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    try:
        deadline = time.monotonic() + 60
        seen: list[str] = []
        port = None
        while port is None and time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            seen.append(line)
            match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if match:
                port = int(match.group(1))
        assert port is not None, "the server printed no address:\n" + "".join(seen)
        # the server's log is read on, so that a full pipe never holds it up
        threading.Thread(target=process.stdout.read, daemon=True).start()
        yield f"ws://127.0.0.1:{port}/ws"
    finally:
        process.terminate()
        process.wait(timeout=20)


def bot_turns(client: Client) -> int:
    """Cards played and cards drawn by seat 1, as the updates told them."""
    return sum(
        1
        for message in client.received
        if message["type"] == "update"
        for event in message["events"]
        if event.get("seat") == 1 and event.get("kind") in ("play", "draw")
    )


@pytest.mark.parametrize("bot", ["heuristic", "random", "ismcts", "learned"])
def test_a_match_plays_with_only_the_web_extra(server_url: str, bot: str) -> None:
    host = Client(server_url)
    try:
        seats = 2 if bot in ("ismcts", "learned") else 4
        host.send(type="create", name="Ann", edition="classic", seats=seats, bot=bot, rules={"scoring": "single-round"})
        if bot == "learned" and ("classic", 2) not in learned_tables():  # no trained bots ship: no such level
            assert "no bots of level learned" in host.expect("error")["message"]
            return
        host.expect("welcome")
        host.expect("lobby")
        for seat in range(1, seats):
            host.send(type="seat", seat=seat, bot=True)
            host.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
        host.send(type="start")
        host.expect("update")
        # the search bot thinks for half a second a move: three of its turns show it plays
        stop = (lambda c: bot_turns(c) >= 3) if bot == "ismcts" else None
        last = play_to_end(host, random.Random(5), timeout=90, stop=stop)
        assert last["finished"] if stop is None else bot_turns(host) >= 3
    finally:
        host.close()
