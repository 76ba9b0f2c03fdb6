"""Floods from one address against ``unokit serve`` with its default limits: what gets through.

Each flood runs against a server of its own (``unokit serve`` in a subprocess on 127.0.0.1):

- ``rooms``: ``--connections`` (100) sockets opened at once, each asking for one room;
- ``guesses``: ``--guessers`` (40) sockets sending ``join`` with random codes, each waiting for
  its answer, for ``--seconds`` (5): codes looked up (``not-found``) and refused (``rate-limited``);
- ``slow``: ``--slow`` (300) connections that send half a request line and never finish it: how
  many the server closed at once, and when it closed the last of the others.

It prints one JSON object.

    python bench/web_floods.py
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import time
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from serving import served

try:
    from websockets.asyncio.client import connect
except ImportError:  # websockets < 13
    from websockets.client import connect  # type: ignore[no-redef]

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


async def room_flood(url: str, connections: int) -> dict[str, Any]:
    async def one() -> str:
        try:
            async with connect(url, open_timeout=10) as ws:
                await ws.send(json.dumps({"type": "create", "name": "Eve", "edition": "classic", "seats": 2}))
                while True:
                    message = json.loads(await ws.recv())
                    if message["type"] == "welcome":
                        return "created"
                    if message["type"] == "error":
                        return str(message["code"])
        except Exception:
            return "connection refused"

    started = time.monotonic()
    outcomes = await asyncio.gather(*(one() for _ in range(connections)))
    counts = {outcome: outcomes.count(outcome) for outcome in sorted(set(outcomes))}
    return {"connections": connections, "outcomes": counts, "seconds": round(time.monotonic() - started, 2)}


async def guess_flood(url: str, guessers: int, seconds: float) -> dict[str, Any]:
    answers: dict[str, int] = {}
    deadline = time.monotonic() + seconds

    async def one() -> None:
        try:
            async with connect(url, open_timeout=10) as ws:
                while time.monotonic() < deadline:
                    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
                    await ws.send(json.dumps({"type": "join", "code": code, "name": "Eve"}))
                    message = json.loads(await ws.recv())
                    answer = str(message.get("code") or message["type"])
                    answers[answer] = answers.get(answer, 0) + 1
        except Exception:
            answers["connection refused"] = answers.get("connection refused", 0) + 1

    await asyncio.gather(*(one() for _ in range(guessers)))
    per_second = round(answers.get("not-found", 0) / seconds, 1)
    return {"guessers": guessers, "seconds": seconds, "answers": answers, "looked_up_per_s": per_second}


async def slow_flood(http: str, count: int, patience: float) -> dict[str, Any]:
    where = urlsplit(http)
    closed_at: list[float] = []
    """When the server closed each connection, in seconds from the flood's start (``patience``: not closed)."""
    started = time.monotonic()

    async def one() -> None:
        try:
            reader, writer = await asyncio.open_connection(where.hostname, where.port)
        except OSError:
            closed_at.append(0.0)
            return
        writer.write(b"GET / HTT")
        try:
            await asyncio.wait_for(reader.read(1), patience)
            closed_at.append(time.monotonic() - started)
        except TimeoutError:
            closed_at.append(patience)
        except ConnectionError:
            closed_at.append(time.monotonic() - started)
        finally:
            writer.close()

    await asyncio.gather(*(one() for _ in range(count)))
    later = [at for at in closed_at if 1.0 <= at < patience]
    return {
        "connections": count,
        "closed_within_1_s": sum(1 for at in closed_at if at < 1.0),
        "closed_later": len(later),
        "last_closed_s": round(max(later), 1) if later else None,
        f"still_open_after_{patience:g}_s": sum(1 for at in closed_at if at >= patience),
    }


def wait_until_up(http: str, timeout: float = 30.0) -> None:
    """Return once the server answers (it prints its address before it listens)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{http}/api/options", timeout=5):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=100, help="sockets asking for a room (default 100)")
    parser.add_argument("--guessers", type=int, default=40, help="sockets guessing codes (default 40)")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long the guessing lasts (default 5)")
    parser.add_argument("--slow", type=int, default=300, help="connections that never finish (default 300)")
    args = parser.parse_args()
    result: dict[str, Any] = {}
    with served("--bot-delay", "0") as server:
        wait_until_up(server.http)
        result["rooms"] = asyncio.run(room_flood(server.ws, args.connections))
    with served("--bot-delay", "0") as server:
        wait_until_up(server.http)
        result["guesses"] = asyncio.run(guess_flood(server.ws, args.guessers, args.seconds))
    with served("--bot-delay", "0") as server:
        wait_until_up(server.http)
        result["slow"] = asyncio.run(slow_flood(server.http, args.slow, patience=40.0))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
