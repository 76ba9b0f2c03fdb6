"""The web page's weight and speed, measured in Chromium (Playwright) against a local server.

Starts ``unokit serve`` in a subprocess (127.0.0.1, a free port, a temporary SQLite file), then:

- ``first_render_ms``: a room of four (one player, three bots) is created and started over a
  WebSocket; the page is opened at ``/r/CODE`` holding the player's seat (the secret in
  ``localStorage``, as after a reload) and the time from navigation start to the table drawn
  (the client's ``performance.mark("unokit:table-drawn")``, set when the first table with a top
  card is drawn) is read: ``cold`` in a fresh browser context (nothing cached), ``warm`` after
  the start page was loaded in the same tab (its files cached); ``--runs`` of each, median and worst.
- ``bytes``: the client's code and styles, raw (every ``.js``, ``.css`` and the HTML page of
  ``/static/``; the game has no sound files: its sounds are synthesized).
- ``transferred``: what the page, its code and styles cost on the wire in the last ``cold`` and
  ``warm`` load (Resource Timing): ``body`` as sent (gzip), ``with_headers``, ``decoded``.
- ``deal_frames``: the page is sent (over a stand-in for the game socket) the start of a match of
  ten seats with thirty cards each, and the frame times (``requestAnimationFrame`` deltas) are
  recorded from the update's arrival until two frames after the dealt table is drawn: count,
  median, 95th percentile, worst, frames over 32 ms, and of those the ones in which cards were
  flying (``over_32ms_in_flight``; the others are the table's first and last drawing), each such
  frame as ``[index, ms, cards flying]`` (``over_32ms_at``);
  ``long_frames``: each animation frame over 32 ms (``long-animation-frame``): its length, its
  rendering, and the scripts that ran in it with their forced style and layout; ``update_ms``:
  then, on that dealt table, the time to draw an update that changes one seat's card count and
  whose turn it is (script, style and layout; median and worst of 15).

Prints one JSON object.

    python bench/web_page.py --runs 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, WebSocketRoute, sync_playwright

from serving import served

try:
    from websockets.asyncio.client import connect
except ImportError:  # websockets < 13
    from websockets.client import connect  # type: ignore[no-redef]

STATIC = Path(__file__).resolve().parent.parent / "src" / "unokit" / "web" / "static"
CHROMIUM = os.environ.get("UNOKIT_CHROMIUM", "/usr/bin/chromium")
VIEWPORT = {"width": 1366, "height": 768}


async def started_room(ws_url: str) -> tuple[str, str]:
    """Create a room of four over the WebSocket, fill it with bots and start it; its code and the player's secret."""
    async with connect(ws_url, origin=ws_url.replace("ws://", "http://").removesuffix("/ws")) as ws:

        async def until(kind: str) -> dict[str, Any]:
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == kind:
                    return message

        await ws.send(json.dumps({"type": "create", "name": "Ann", "edition": "classic", "seats": 4, "timer": 0}))
        welcome = await until("welcome")
        await until("lobby")
        for seat in (1, 2, 3):
            await ws.send(json.dumps({"type": "seat", "seat": seat, "bot": True}))
            await until("lobby")
        await ws.send(json.dumps({"type": "start"}))
        await until("update")
        return str(welcome["code"]), str(welcome["secret"])


def first_render(page: Page, url: str, code: str, secret: str, *, warm: bool) -> float:
    """The room's page opened holding the seat (its secret stored, as after a reload): `warm`, after the
    start page was loaded in the same tab (its files cached); else in a fresh browser context."""
    seat = json.dumps({"secret": secret, "seat": 0})
    page.add_init_script(f"localStorage.setItem({json.dumps('unokit.seat.' + code)}, {json.dumps(seat)})")
    if warm:
        page.goto(url + "/")
        page.wait_for_selector("#create-form [name=edition] option", state="attached")
    page.goto(f"{url}/r/{code}")
    page.wait_for_function("() => performance.getEntriesByName('unokit:table-drawn').length > 0", timeout=10_000)
    return float(page.evaluate("performance.getEntriesByName('unokit:table-drawn')[0].startTime"))


TRANSFERRED = """() => {
  const files = [performance.getEntriesByType("navigation")[0], ...performance.getEntriesByType("resource")]
    .filter((entry) =>
      /\\/(r\\/[^/]*|static\\/([0-9a-f]{12}\\/)?[^/]+\\.(js|css))$/.test(new URL(entry.name).pathname));
  const sum = (key) => files.reduce((total, entry) => total + entry[key], 0);
  const bodies = sum("encodedBodySize");
  return { files: files.length, body: bodies, with_headers: sum("transferSize"), decoded: sum("decodedBodySize") };
}"""


def transferred(page: Page) -> dict[str, int]:
    """What the page and its code and styles cost on the wire in this load (Resource Timing): the
    bodies as sent (gzip), the same with the headers, and the bodies decoded."""
    return {key: int(value) for key, value in page.evaluate(TRANSFERRED).items()}


def page_bytes() -> dict[str, int]:
    sizes = {"js": 0, "css": 0, "html": 0}
    for path in STATIC.iterdir():
        kind = path.suffix.lstrip(".")
        if kind in sizes:
            sizes[kind] += path.stat().st_size
    return {**sizes, "total": sum(sizes.values())}


SEATS = 10
HAND = 30
DECK = [f"{c}{k}" for c in "RYGB" for k in [*"0123456789", "S", "R", "+2"]] + ["W", "W+4"]


def big_deal_messages(code: str) -> list[dict[str, Any]]:
    """What the server would send as a match of ten seats with thirty cards each starts (seat 0's view)."""
    seats = [
        {
            "seat": s,
            "name": "Ann" if s == 0 else f"Bot {s}",
            "kind": "human" if s == 0 else "bot",
            "away": False,
            "auto": False,
            "claimed": False,
            "ready": True,
        }
        for s in range(SEATS)
    ]
    hand = [DECK[i % len(DECK)] for i in range(HAND)]
    lobby = {
        "type": "lobby",
        "code": code,
        "edition": "classic",
        "rules": {},
        "players": SEATS,
        "bot": "heuristic",
        "seats": seats,
        "host": 0,
        "you": 0,
        "rule_cards": None,
        "options": {"timer": 0, "public": False, "late_join": True},
    }
    events: list[dict[str, Any]] = [
        {"kind": "dealer", "seat": 0, "value": 1, "cards": [], "text": "— Round 1 — You deal."}
    ]
    for seat in range(SEATS):
        events.append(
            {
                "kind": "deal",
                "seat": seat,
                "value": HAND,
                "cards": hand if seat == 0 else [],
                "text": f"{seats[seat]['name']} is dealt {HAND} cards.",
            }
        )
    events.append({"kind": "flip", "seat": -1, "value": 0, "cards": ["R5"], "text": "Start card: R5 (red 5)."})
    view = {
        "players": SEATS,
        "hand_sizes": [HAND] * SEATS,
        "actor": 1,
        "phase": "turn",
        "dealer": 0,
        "uncalled": [],
        "called": [],
        "scoring": "winner-collects",
        "scores": [0] * SEATS,
        "top_card": "R5",
        "draw_pile_size": 100,
        "discard_pile_size": 1,
        "colour": "R",
        "direction": 1,
        "target_score": 500,
        "round": 1,
        "winner": -1,
        "hand": hand,
        "decision": {},
        "public": {},
    }
    update = {
        "type": "update",
        "code": code,
        "version": len(events),
        "view": view,
        "events": events,
        "legal": [],
        "asks": "play a card or draw",
        "seats": seats,
        "you": 0,
        "finished": False,
        "timer": None,
        "host": 0,
        "options": lobby["options"],
        "rematch": None,
    }
    return [{"type": "welcome", "code": code, "seat": 0, "host": True, "invite": f"/r/{code}"}, lobby, update]


FRAME_RECORDER = """
(VERSION) => { window.__long = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.duration <= 32) continue;
      window.__long.push({
        ms: Math.round(entry.duration),
        blocking_ms: Math.round(entry.blockingDuration),
        render_ms: Math.round(entry.startTime + entry.duration - entry.renderStart),
        scripts: entry.scripts.map((script) => ({
          what: `${script.sourceFunctionName || script.invoker} ${script.sourceURL.split("/").pop()}`.trim(),
          ms: Math.round(script.duration),
          forced_layout_ms: Math.round(script.forcedStyleAndLayoutDuration),
        })),
      });
    }
  }).observe({ type: "long-animation-frame" });
  window.__frames = new Promise((resolve) => {
  const deltas = [];
  let last = performance.now();
  let started = false;
  let maxFlying = 0;
  let after = -1;
  const inFlight = [];
  const table = document.querySelector("#table");
  const step = (now) => {
    deltas.push(now - last);
    last = now;
    const flying = document.querySelectorAll("#fx .flying").length;
    inFlight.push(flying > 0);
    maxFlying = Math.max(maxFlying, flying);
    if (flying) started = true;
    if (after < 0 && started && !flying && table.dataset.version === VERSION) after = deltas.length;
    // two frames more: the one that draws the dealt table is counted too
    if ((after >= 0 && deltas.length >= after + 2) || deltas.length > 2000) {
      resolve({ deltas: deltas.slice(1), flights: maxFlying, in_flight: inFlight.slice(1) });
    } else {
      requestAnimationFrame(step);
    }
  };
  requestAnimationFrame(step);
}); }
"""


REDRAW = """
async () => {
  const table = await import(document.querySelector('link[rel=modulepreload][href$="/table.js"]').href);
  const { state } = await import(document.querySelector('link[rel=modulepreload][href$="/state.js"]').href);
  const times = [];
  for (let i = 0; i < 15; i += 1) {
    // what a play changes: one seat's count and whose turn it is
    state.view.hand_sizes[3] = 29 - (i % 2);
    state.view.actor = 1 + (i % 3);
    const started = performance.now();
    table.renderTable();
    document.body.offsetHeight; // style and layout now, inside the measure
    times.push(performance.now() - started);
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 30)));
  }
  return times;
}
"""


def deal_frames(page: Page, url: str) -> dict[str, Any]:
    code = "BENCH234"
    messages = big_deal_messages(code)
    sockets: list[WebSocketRoute] = []

    def route(socket: WebSocketRoute) -> None:
        sockets.append(socket)

        def on_message(text: str | bytes) -> None:
            message = json.loads(text)
            if message.get("type") == "resume":
                socket.send(json.dumps(messages[0]))
                socket.send(json.dumps(messages[1]))

        socket.on_message(on_message)

    page.route_web_socket(re.compile(r"/ws$"), route)
    page.goto(url + "/")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)", [f"unokit.seat.{code}", json.dumps({"secret": "x" * 32, "seat": 0})]
    )
    page.goto(f"{url}/r/{code}")
    page.wait_for_selector("#lobby:not([hidden])")
    page.wait_for_timeout(300)
    page.evaluate(FRAME_RECORDER, str(messages[2]["version"]))
    sockets[-1].send(json.dumps(messages[2]))
    measured = page.evaluate("() => window.__frames")
    page.wait_for_timeout(200)  # the last frame's long-animation-frame entry
    long_frames = page.evaluate("() => window.__long")
    deltas = [float(d) for d in measured["deltas"]]
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 30")
    page.wait_for_timeout(300)
    updates = [float(ms) for ms in page.evaluate(REDRAW)]
    ordered = sorted(deltas)
    return {
        "frames": len(deltas),
        "median_ms": round(statistics.median(deltas), 1),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 1),
        "max_ms": round(max(deltas), 1),
        "over_32ms": sum(d > 32 for d in deltas),
        "over_32ms_in_flight": sum(d > 32 and flying for d, flying in zip(deltas, measured["in_flight"], strict=True)),
        "over_32ms_at": [
            [index, round(delta), flying]
            for index, (delta, flying) in enumerate(zip(deltas, measured["in_flight"], strict=True))
            if delta > 32
        ],
        "duration_ms": round(sum(deltas)),
        "cards_in_flight": measured["flights"],
        "long_frames": long_frames,
        "update_ms": {"median": round(statistics.median(updates), 1), "max": round(max(updates), 1)},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh pages for the first render (default 5)")
    args = parser.parse_args()
    with served("--bot-delay", "0.7") as server:
        url = server.http
        rooms = [asyncio.run(started_room(server.ws)) for _ in range(2 * args.runs)]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            renders: dict[str, list[float]] = {"cold": [], "warm": []}
            wire: dict[str, dict[str, int]] = {}
            for index, (code, secret) in enumerate(rooms):
                kind = "warm" if index % 2 else "cold"
                context = browser.new_context(viewport=VIEWPORT)
                page = context.new_page()
                renders[kind].append(first_render(page, url, code, secret, warm=kind == "warm"))
                wire[kind] = transferred(page)
                context.close()
            context = browser.new_context(viewport=VIEWPORT)
            frames = deal_frames(context.new_page(), url)
            context.close()
            browser.close()
    result = {
        "first_render_ms": {
            kind: {"median": round(statistics.median(times), 1), "max": round(max(times), 1), "runs": len(times)}
            for kind, times in renders.items()
        },
        "bytes": page_bytes(),
        "transferred": wire,
        "deal_frames": {"seats": SEATS, "hand": HAND, **frames},
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
