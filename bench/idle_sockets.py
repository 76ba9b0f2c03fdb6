"""What an open WebSocket costs a server that does nothing else: memory per connection, and CPU at rest.

Starts ``unokit serve`` (a temporary SQLite file, limits per address raised: every client is 127.0.0.1),
opens ``--sockets`` game sockets, each sending one ``ping``, then leaves them open for ``--seconds``.
Prints the growth of the server's resident memory per socket, and the server's CPU over the quiet time
(from ``/proc``; the clients' own keep-alive pings included).

    python bench/idle_sockets.py --sockets 2000 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import Any

from fleet import cpu_seconds, rss_kb
from serving import served

try:
    from websockets.asyncio.client import connect
except ImportError:  # websockets < 13
    from websockets.client import connect  # type: ignore[no-redef]


async def run(url: str, pid: int, sockets: int, seconds: float) -> dict[str, Any]:
    baseline = rss_kb(pid)
    opened = []
    started = time.monotonic()
    for _ in range(sockets):
        ws = await connect(url, open_timeout=60)
        await ws.send(json.dumps({"type": "ping"}))
        await ws.recv()
        opened.append(ws)
    open_s = time.monotonic() - started
    await asyncio.sleep(1.0)
    loaded = rss_kb(pid)
    cpu = cpu_seconds(pid)
    await asyncio.sleep(seconds)
    cpu = cpu_seconds(pid) - cpu
    await asyncio.gather(*(ws.close() for ws in opened))
    return {
        "sockets": sockets,
        "open_s": round(open_s, 2),
        "server_rss_mb": {"baseline": round(baseline / 1024, 1), "loaded": round(loaded / 1024, 1)},
        "memory_per_socket_kb": round((loaded - baseline) / sockets, 1),
        "quiet_seconds": seconds,
        "server_cpu_pct_at_rest": round(100 * cpu / seconds, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=2000, help="sockets held open (default 2000)")
    parser.add_argument("--seconds", type=float, default=20.0, help="quiet seconds measured (default 20)")
    args = parser.parse_args()
    if not 1 <= args.sockets <= 20_000 or not 0 < args.seconds <= 600:
        parser.error("--sockets 1..20000, --seconds up to 600")
    limit = str(args.sockets + 16)
    with served("--connections-per-address", limit, "--lookups-per-minute", limit) as server:
        result = asyncio.run(run(server.ws, server.process.pid, args.sockets, args.seconds))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
