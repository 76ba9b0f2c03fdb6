"""The analysis board's routes over HTTP, against a real server and a match played to its end.

``GET /api/rooms/{code}/analysis/{seat}`` rates every decision of one seat, ``GET
/api/rooms/{code}/analyse/{step}?seat=S`` one moment from that seat's knowledge and ``GET
/api/rooms/{code}/position/{step}?seat=S`` gives the position there as that seat may know it.  Each
answer is checked against the record replayed here: one entry per decision of the seat, only its own
legal moves, a position holding no card hidden from it; a match in play, an unknown room, a bad seat or
step and an address asking too often are refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from unokit.engine.actions import INTERRUPT_TYPES
from unokit.engine.cards import card_name
from unokit.engine.game import Game
from unokit.engine.positions import is_public, public_position
from unokit.engine.record import replay
from unokit.web.analysis import MISTAKE, Analyses, AnalysisBusyError
from unokit.web.guard import LocalLimits, RateLimiter
from unokit.web.rooms import FixedSetup
from web_support import Client, RunningServer, fast_settings

SEED = 2**52 + 11


def get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with RunningServer(":memory:", fast_settings()) as running:
        yield running


def start_match(server: RunningServer, seed: int, target: int) -> tuple[str, Client]:
    """A match of Ann (scripted, seat 0) against two bots, started: its code and Ann's client."""
    code, secret = server.create_fixed_room(FixedSetup(seed), "classic", seats=3, rules={"target_score": target})
    host = Client(server.url)
    host.send(type="resume", code=code, secret=secret)
    host.expect("lobby")
    for seat in (1, 2):
        host.send(type="seat", seat=seat, bot=True)
        host.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
    host.send(type="start")
    host.expect("update")
    return code, host


def play_carelessly(client: Client, rng: random.Random, timeout: float = 120.0) -> dict[str, Any]:
    """Play a match to its end as a careless player: any move at random, drawing included, and never a
    call of UNO (so the bots catch it); returns the last update."""
    deadline = time.monotonic() + timeout
    acted_at = continued_at = -1
    while True:
        update = client.update
        if update is not None and update["finished"]:
            return update
        if update is not None:
            reading = update.get("reading")
            if reading and update["you"] in reading["waiting"] and continued_at != update["version"]:
                client.send(type="continue")
                continued_at = update["version"]
            moves = [entry["action"] for entry in update["legal"]]
            moves = [move for move in moves if move != "uno" and not move.endswith("!") and "@" not in move]
            if moves and update["version"] != acted_at:
                client.send(type="act", action=rng.choice(sorted(moves)), version=update["version"])
                acted_at = update["version"]
        assert time.monotonic() < deadline, "the match did not end in time"
        if client.recv(max(0.1, deadline - time.monotonic()))["type"] == "error":
            acted_at = -1  # stale: a bot acted meanwhile


@pytest.fixture(scope="module")
def finished(server: RunningServer) -> tuple[str, dict[str, Any]]:
    """A finished match of two rounds or more: its code and record."""
    code, host = start_match(server, SEED, 200)
    assert play_carelessly(host, random.Random(3))["finished"]
    host.close()
    record = server.hub.storage.load_record(code)
    assert record is not None
    assert replay(record).round >= 2
    return code, record


def fields(position: str) -> dict[str, str]:
    """A position line's fields by name."""
    return dict(field.split("=", 1) for field in position.split())


def hides_what_seat_may_not_see(position: str, game: Game, seat: int) -> bool:
    """Whether ``position`` (public, for ``seat``) names no card hidden from it: its own hand as it is,
    of every other hand only cards that hand holds (those ``seat`` was shown) with the rest unknown, and
    no card of the draw pile or the generator's state."""
    found = fields(position)
    for other, hand in enumerate(found["hands"].split("/")):
        tokens = [token for token in hand.split(",") if token not in ("", "-")]
        named = [token for token in tokens if not token.startswith("?")]
        unknown = sum(int(token[1:] or 1) for token in tokens if token.startswith("?"))
        real = sorted(card_name(card) for card in game.hands[other])
        if other == seat and (unknown or sorted(named) != real):
            return False
        if len(named) + unknown != len(real) or any(named.count(card) > real.count(card) for card in named):
            return False
    return all(token.startswith("?") for token in found["draw"].split(",")) and found["rng"] == "?"


def decisions_of(record: dict[str, Any], seat: int) -> list[tuple[int, Game, int]]:
    """The steps where ``seat`` decided in turn (calls and catches of UNO and jump-ins aside), with the
    game there and the action taken."""
    game = replay(record, upto=0)
    found = []
    for step, (who, text) in enumerate(record["actions"]):
        action = game.actions.parse(text)
        if who == seat and game.actor == seat and game.actions.types[action] not in INTERRUPT_TYPES:
            found.append((step, game.clone(), action))
        game.apply(who, action)
    return found


def test_a_match_is_rated_for_one_seat_decision_by_decision(
    server: RunningServer, finished: tuple[str, dict[str, Any]]
) -> None:
    code, record = finished
    for seat in (0, 1):
        status, body = get(f"{server.http}/api/rooms/{code}/analysis/{seat}")
        assert status == 200, body
        assert body["code"] == code and body["seat"] == seat and body["steps"] == len(record["actions"])
        expected = decisions_of(record, seat)
        assert [entry["step"] for entry in body["decisions"]] == [step for step, _, _ in expected]
        assert body["threshold"] == MISTAKE
        assert body["mistakes"] == sum(entry["mistake"] for entry in body["decisions"])
        rounds = [entry["round"] for entry in body["decisions"]]
        assert rounds == sorted(rounds) and rounds[0] == 1 and rounds[-1] >= 2
        for entry, (_, game, action) in zip(body["decisions"], expected, strict=True):
            assert 0 <= entry["win"] <= entry["best_win"] <= 1
            assert entry["loss"] == pytest.approx(entry["best_win"] - entry["win"])
            assert entry["mistake"] == (entry["loss"] > MISTAKE)
            legal = {game.actions.format(a) for a in game.legal_actions(seat)}
            assert entry["played"]["action"] == game.actions.format(action)
            assert entry["best"]["action"] in legal, "only the seat's own moves are named"
            assert entry["played"]["label"] and entry["best"]["label"]
            assert entry["moves"] >= 1
    # the careless player's moves include mistakes
    status, body = get(f"{server.http}/api/rooms/{code}/analysis/0")
    assert status == 200 and body["mistakes"] >= 1
    mistake = next(entry for entry in body["decisions"] if entry["mistake"])
    assert mistake["loss"] > MISTAKE and mistake["best"]["action"] != mistake["played"]["action"]


def test_a_moment_rates_the_deciding_seats_own_moves(
    server: RunningServer, finished: tuple[str, dict[str, Any]]
) -> None:
    code, record = finished
    step, game, played = next((s, g, a) for s, g, a in decisions_of(record, 0) if len(g.legal_actions(0)) >= 3)
    status, body = get(f"{server.http}/api/rooms/{code}/analyse/{step}?seat=0")
    assert status == 200, body
    assert (body["step"], body["seat"], body["deciding"]) == (step, 0, True)
    assert body["position"] == public_position(game, 0)
    analysis = body["analysis"]
    moves = analysis["moves"]
    rated = {game.actions.format(a) for a in game.legal_actions(0) if game.actions.types[a] not in INTERRUPT_TYPES}
    assert {move["action"] for move in moves} == rated
    wins = [move["win"] for move in moves]
    assert wins == sorted(wins, reverse=True), "best first"
    assert [move["best"] for move in moves] == [True] + [False] * (len(moves) - 1)
    assert [move["action"] for move in moves if move["played"]] == [game.actions.format(played)]
    for move in moves:
        assert 0 <= move["low"] <= move["win"] <= move["high"] <= 1
        assert move["loss"] == pytest.approx(wins[0] - move["win"])
        assert move["label"]
    assert analysis["exact"] or analysis["rollouts"] > 0
    # the match's rating of that decision (fewer rollouts) agrees with the moment's
    status, rated = get(f"{server.http}/api/rooms/{code}/analysis/0")
    entry = next(entry for entry in rated["decisions"] if entry["step"] == step)
    wins = {move["action"]: move["win"] for move in moves}
    assert abs(entry["win"] - wins[entry["played"]["action"]]) < 0.1, (entry, moves)
    assert abs(entry["best_win"] - wins[entry["best"]["action"]]) < 0.1, (entry, moves)
    # another seat's moment: no decision of seat 0 there, the position alone
    other = next(s for s, (who, _) in enumerate(record["actions"]) if who != 0 and replay(record, upto=s).actor != 0)
    status, body = get(f"{server.http}/api/rooms/{code}/analyse/{other}?seat=0")
    assert status == 200 and body["deciding"] is False and body["analysis"] is None
    assert body["position"] == public_position(replay(record, upto=other), 0)


def test_the_position_to_copy_is_the_seats_public_position(
    server: RunningServer, finished: tuple[str, dict[str, Any]]
) -> None:
    code, record = finished
    steps = len(record["actions"])
    for step in (0, 1, steps // 3, steps // 2, steps - 1, steps):
        game = replay(record, upto=step)
        for seat in range(3):
            status, body = get(f"{server.http}/api/rooms/{code}/position/{step}?seat={seat}")
            assert status == 200, body
            assert (body["step"], body["seat"]) == (step, seat)
            text = body["position"]
            assert is_public(text) and text == public_position(game, seat)
            assert hides_what_seat_may_not_see(text, game, seat), text


def test_a_match_in_play_and_an_unknown_room_are_refused(server: RunningServer) -> None:
    code, host = start_match(server, SEED + 1, 500)
    try:
        for path in ("analysis/0", "analyse/0?seat=0", "position/0?seat=0"):
            status, body = get(f"{server.http}/api/rooms/{code}/{path}")
            assert status == 403 and "over" in body["error"], (path, body)
            status, body = get(f"{server.http}/api/rooms/ZZZZZZ/{path}")
            assert status == 404 and body["error"], (path, body)
    finally:
        host.close()


def test_a_bad_seat_or_step_is_refused(server: RunningServer, finished: tuple[str, dict[str, Any]]) -> None:
    code, record = finished
    steps = len(record["actions"])
    for path in ("analysis/3", "analysis/-1", "analysis/x", "analysis/00000", "analyse/0?seat=3", "analyse/0"):
        status, body = get(f"{server.http}/api/rooms/{code}/{path}")
        assert status == 400 and body["error"] == "the seat is a whole number from 0 to 2", (path, body)
    bad_steps = (
        f"analyse/{steps + 1}?seat=0",
        "analyse/-1?seat=0",
        "position/x?seat=0",
        f"position/{steps + 1}?seat=1",
    )
    for path in bad_steps:
        status, body = get(f"{server.http}/api/rooms/{code}/{path}")
        assert status == 400 and body["error"] == f"the step is a whole number from 0 to {steps}", (path, body)
    status, body = get(f"{server.http}/api/rooms/{code}/analysis/9?lang=fr")
    assert status == 400 and body["error"] == "la place est un nombre entier de 0 à 2"


@contextlib.contextmanager
def analyses_allowed(app: Any, count: int) -> Iterator[None]:
    """Within the block the local address may have ``count`` more analyses computed, and no more: its
    allowance of ``address_analyses_per_minute`` (the server's per-address limits) set for a moment."""
    limits = app.state.guard.limits
    assert isinstance(limits, LocalLimits)
    record = limits.record("127.0.0.1")
    kept = record.analyses
    record.analyses = RateLimiter(0.0, count)
    try:
        yield
    finally:
        record.analyses = kept


def test_an_address_asking_for_too_many_analyses_is_refused(
    server: RunningServer, finished: tuple[str, dict[str, Any]]
) -> None:
    """Each analysis computed counts against the address; one already computed is answered for free."""
    code, record = finished
    per_minute = server.app.state.guard.settings.address_analyses_per_minute
    with analyses_allowed(server.app, 2):
        other = [s for s, (who, _) in enumerate(record["actions"]) if who != 0][-3:]
        answers = [get(f"{server.http}/api/rooms/{code}/analyse/{step}?seat=0") for step in other]
        assert [status for status, _ in answers] == [200, 200, 429]
        assert answers[2][1]["error"] == f"at most {per_minute} analyses in 60 seconds: wait a little"
        status, _ = get(f"{server.http}/api/rooms/{code}/analyse/{other[0]}?seat=0")
        assert status == 200, "an analysis already made is answered"
        status, _ = get(f"{server.http}/api/rooms/{code}/position/{other[2]}?seat=0")
        assert status == 200, "the position alone is not an analysis"


def test_analyses_run_a_few_at_once_share_a_run_and_refuse_past_the_waiting_room() -> None:
    """The same analysis asked for twice while it runs is computed once; past the slots and the waiting
    room the server is busy (``503``); a kept result is given without running again."""
    runs: list[str] = []
    release = threading.Event()

    def work(name: str) -> Callable[[], str]:
        def run() -> str:
            runs.append(name)
            release.wait(10)
            return name.upper()

        return run

    async def scenario() -> None:
        analyses = Analyses(at_once=1, waiting=1)
        first = asyncio.ensure_future(analyses.compute(("a",), work("a")))
        again = asyncio.ensure_future(analyses.compute(("a",), work("a")))
        waiting = asyncio.ensure_future(analyses.compute(("b",), work("b")))
        await asyncio.sleep(0.2)
        with pytest.raises(AnalysisBusyError):
            await analyses.compute(("c",), work("c"))
        release.set()
        assert await asyncio.gather(first, again, waiting) == ["A", "A", "B"]
        assert analyses.kept_result(("a",)) == "A" and analyses.kept_result(("c",)) is None
        assert await analyses.compute(("c",), work("c")) == "C"

    asyncio.run(scenario())
    assert runs == ["a", "b", "c"]


def test_a_busy_server_answers_503(server: RunningServer, finished: tuple[str, dict[str, Any]]) -> None:
    code, record = finished
    analyses = server.app.state.analyses
    kept_slots, kept_limit = analyses.slots, analyses.waiting_limit
    held = asyncio.Semaphore(0)  # every slot taken, nobody may wait
    server.call(lambda: setattr(analyses, "slots", held))
    analyses.waiting_limit = 0
    try:
        step = next(s for s, (who, _) in enumerate(record["actions"]) if who == 2)
        status, body = get(f"{server.http}/api/rooms/{code}/analyse/{step}?seat=1")
        assert status == 503 and body["error"] == "the server is analysing as much as it can: try again in a moment"
    finally:
        server.call(lambda: setattr(analyses, "slots", kept_slots))
        analyses.waiting_limit = kept_limit
