"""What relaying a room's messages through Redis costs against handling them in the process itself.

A room's owner runs in a child process with its :class:`unokit.web.cluster.RoomBus`; this process
stands for the one a client is connected to.  Each message is answered by the owner at once, and timed
from :meth:`RoomBus.relay` to the answer's arrival here:

- ``direct``: the owner's handler called in this process (what a client of the owning process costs);
- ``relayed``: one message at a time through Redis, to the owner process and back (two pub/sub hops);
- ``relayed_burst``: ``--burst`` messages sent at once, ten times: messages a second, and whether each
  room's answers came back in the order sent.

Prints one JSON object: latencies in ms (p50, p99, max) and the burst's rate.  Needs the cluster extra
and a Redis server: ``--redis URL``, or Debian's ``redis-server`` started here on a free port.

    python bench/redis_relay.py --messages 2000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any

from redis.asyncio import Redis

from unokit.web.cluster import Relayed, RoomBus


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def figures(seconds: list[float]) -> dict[str, float | int]:
    ms = [value * 1000 for value in seconds]
    return {
        "p50_ms": round(statistics.median(ms), 3),
        "p99_ms": round(percentile(ms, 0.99), 3),
        "max_ms": round(max(ms), 3),
        "count": len(ms),
    }


@contextlib.contextmanager
def redis_server(url: str | None) -> Iterator[str]:
    """``url``, or a ``redis-server`` of this bench's own on a free loopback port (nothing saved)."""
    if url is not None:
        yield url
        return
    executable = shutil.which("redis-server")
    if executable is None:
        sys.exit("redis_relay needs a Redis server: --redis URL, or Debian's redis-server package")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as directory:
        command = [executable, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        process = subprocess.Popen([*command, "--dir", directory], stdout=subprocess.DEVNULL)
        try:
            yield f"redis://127.0.0.1:{port}"
        finally:
            process.terminate()
            process.wait(10)


def answer_of(message: dict[str, Any]) -> dict[str, Any]:
    """What the owner answers: a small update naming the message it answers."""
    return {"type": "update", "n": message["n"], "version": message["n"] + 1}


async def owner_main(url: str, rooms: list[str], ready: Any) -> None:
    bus = RoomBus(Redis.from_url(url), "owner", lambda relayed: None)
    await bus.start()

    def handle(relayed: Relayed) -> None:
        bus.answer(relayed, answer_of(relayed.message))  # queued in order; the next message need not wait

    for code in rooms:
        await bus.own(code, handle)
    ready.set()
    await asyncio.Event().wait()


def run_owner(url: str, rooms: list[str], ready: Any) -> None:
    asyncio.run(owner_main(url, rooms, ready))


async def measure(url: str, messages: int, burst: int, rooms: list[str]) -> dict[str, Any]:
    waiting: dict[tuple[str, int], asyncio.Future[dict[str, Any]]] = {}
    arrived: dict[str, list[int]] = {code: [] for code in rooms}

    def on_answer(relayed: Relayed) -> None:
        arrived[relayed.code].append(relayed.message["n"])
        future = waiting.pop((relayed.code, relayed.message["n"]), None)
        if future is not None:
            future.set_result(relayed.message)

    bus = RoomBus(Redis.from_url(url), "edge", on_answer)
    await bus.start()
    loop = asyncio.get_running_loop()

    direct: list[float] = []
    for n in range(messages):  # the owner's handler in this very process, its answer through a future
        started = time.perf_counter()
        future: asyncio.Future[dict[str, Any]] = loop.create_future()
        loop.call_soon(future.set_result, answer_of({"n": n}))
        await future
        direct.append(time.perf_counter() - started)

    relayed: list[float] = []
    for n in range(messages):
        code = rooms[n % len(rooms)]
        started = time.perf_counter()
        waiting[(code, n)] = future = loop.create_future()
        await bus.relay(code, "member-1", {"type": "act", "n": n})
        await future
        relayed.append(time.perf_counter() - started)

    rates = []
    in_order = True
    for _ in range(10):
        for code in rooms:
            arrived[code].clear()
        futures = []
        started = time.perf_counter()
        for n in range(burst):
            code = rooms[n % len(rooms)]
            waiting[(code, n)] = future = loop.create_future()
            futures.append(future)
        await asyncio.gather(*(bus.relay(rooms[n % len(rooms)], "member-1", {"n": n}) for n in range(burst)))
        await asyncio.gather(*futures)
        rates.append(burst / (time.perf_counter() - started))
        in_order = in_order and all(arrived[code] == sorted(arrived[code]) for code in rooms)
    await bus.close()
    return {
        "direct": figures(direct),
        "relayed": figures(relayed),
        "relayed_burst": {
            "messages": burst,
            "per_second_median": round(statistics.median(rates)),
            "answers_in_order_per_room": in_order,
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis", metavar="URL", help="a Redis server to use (default: start redis-server here)")
    parser.add_argument("--messages", type=int, default=2000, help="messages timed one at a time (default 2000)")
    parser.add_argument("--burst", type=int, default=1000, help="messages sent at once (default 1000)")
    parser.add_argument("--rooms", type=int, default=4, help="rooms the owner holds (default 4)")
    args = parser.parse_args()
    rooms = [f"ROOM{n:04d}" for n in range(args.rooms)]
    with redis_server(args.redis) as url:
        ready = multiprocessing.Event()
        owner = multiprocessing.Process(target=run_owner, args=(url, rooms, ready), daemon=True)
        owner.start()
        try:
            if not ready.wait(20):
                sys.exit("the owner process did not start")
            result = asyncio.run(measure(url, args.messages, args.burst, rooms))
        finally:
            owner.terminate()
            owner.join(10)
    print(json.dumps({"rooms": args.rooms, **result}, indent=2))


if __name__ == "__main__":
    main()
