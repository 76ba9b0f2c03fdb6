"""The replay of a finished match, move by move, over HTTP: ``GET /api/rooms/{code}/replay/{step}``.

Each step's answer must be the spectator's view of the match replayed from its record up
to that step, with the events that step's action produced, redacted for a spectator and
narrated; no hidden card ever appears.  Positions are computed from cached ones.
"""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

import unokit.web.replays as replays_module
from unokit.editions import get_edition
from unokit.engine.cards import card_name
from unokit.engine.events import SECRET_KINDS, event_to_dict, redact
from unokit.engine.game import Game
from unokit.engine.record import replay
from unokit.i18n import catalog
from unokit.narrate import Narrator, plain
from unokit.web.replays import CHECKPOINT_EVERY, MatchReplay, ReplayCache
from unokit.web.rooms import FixedSetup
from web_support import Client, RunningServer, fast_settings, play_to_end, strings_outside

SEED = 2**52 + 7


def get(url: str) -> tuple[int, dict[str, str], Any]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, dict(response.headers), json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read())


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with RunningServer(":memory:", fast_settings()) as running:
        yield running


@pytest.fixture(scope="module")
def finished(server: RunningServer) -> tuple[str, dict[str, Any]]:
    """A finished match of several rounds (Ann, scripted, against two bots): its code and record."""
    code, secret = server.create_fixed_room(FixedSetup(SEED), "classic", seats=3, rules={"target_score": 150})
    host = Client(server.url)
    host.send(type="resume", code=code, secret=secret)
    host.expect("lobby")
    for seat in (1, 2):
        host.send(type="seat", seat=seat, bot=True)
        host.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
    host.send(type="start")
    host.expect("update")
    assert play_to_end(host, random.Random(1))["finished"]
    host.close()
    record = server.hub.storage.load_record(code)
    assert record is not None
    return code, record


CARDS = {card_name(face) for face in get_edition("classic").actions.faces}


def strings_outside_public_places(body: dict[str, Any]) -> list[str]:
    """Every string of an answer outside the places that name public cards (the top card, the
    discard pile, the cards of events, which are compared with the redacted events)."""
    public = {("view", "top_card"), ("view", "state", "discard_pile")}
    public |= {("view", "round_results", "hands"), ("view", "round_results", "mercy_hands")}  # shown in `hand` events
    return strings_outside(body, lambda path: path in public or path[-1:] in {("cards",), ("text",)})


def expected_view(game: Game) -> dict[str, Any]:
    view = game.view(None).to_dict()
    del view["history"]
    view["round_results"] = view["round_results"][-1:]  # the web sends the last round's result
    return dict(json.loads(json.dumps(view)))


def event_bounds(record: dict[str, Any]) -> list[int]:
    """The number of events after each step (index 0: after the deal)."""
    game = replay(record, upto=0)
    bounds = [len(game.events)]
    for seat, text in record["actions"]:
        game.apply_notation(seat, text)
        bounds.append(len(game.events))
    return bounds


def test_each_step_is_the_spectators_view_of_the_replayed_match(
    server: RunningServer, finished: tuple[str, dict[str, Any]]
) -> None:
    code, record = finished
    steps = len(record["actions"])
    bounds = event_bounds(record)
    final = replay(record)
    assert final.is_over and final.round >= 2 and steps > 2 * CHECKPOINT_EVERY
    names = record["names"]
    assert names == ["Ann", "Bot 1", "Bot 2"]
    round_ends = [
        i for i in range(1, steps + 1) if any(e[0] == "round_end" for e in final.events[bounds[i - 1] : bounds[i]])
    ]
    # forward one by one, back one by one, jumps both ways, the ends, and the steps around a new round
    wanted = [0, 1, 2, 3, 4, 3, 2, steps, steps - 1, steps // 2, 5, steps - 2, CHECKPOINT_EVERY + 3]
    wanted += [n for end in round_ends for n in (end, end + 1) if n <= steps]
    hidden_events = 0
    for step in wanted:
        status, headers, body = get(f"{server.http}/api/rooms/{code}/replay/{step}")
        assert status == 200 and headers["content-type"] == "application/json", (step, body)
        assert body["step"] == step and body["steps"] == steps and body["code"] == code
        assert body["edition"] == "classic" and body["names"] == names
        assert body["seats"] == [
            {"seat": 0, "name": "Ann", "kind": "human", "away": False},
            {"seat": 1, "name": "Bot 1", "kind": "bot", "away": False},
            {"seat": 2, "name": "Bot 2", "kind": "bot", "away": False},
        ]
        game = replay(record, upto=step)
        assert body["view"] == expected_view(game)
        assert body["finished"] is game.is_over is (step == steps)
        # the events of this step, as a spectator saw them, in words
        produced = game.events[bounds[step - 1] if step else 0 : bounds[step]]
        redacted = [redact(event, None) for event in produced]
        assert [{k: v for k, v in e.items() if k not in ("text", "points")} for e in body["events"]] == [
            json.loads(json.dumps(event_to_dict(e))) for e in redacted
        ]
        assert [e.get("points") for e in body["events"]] == [
            [game.edition.card_points[c] for c in e[3]] if e[0] == "hand" else None for e in redacted
        ]
        narrator = Narrator(names, you=None, scoring=game.rules.scoring, edition="classic", codes=False)
        narrator.round = next(
            (e[2] for e in reversed(game.events[: len(game.events) - len(produced)]) if e[0] == "dealer"), 0
        )
        assert [e["text"] for e in body["events"]] == [plain(narrator.event(e)) for e in redacted]
        assert body["events"] and any(e["text"] for e in body["events"])
        # no hidden card: no hand, no secret event with cards, no hand's cards anywhere
        assert body["view"]["hand"] == [] and body["view"]["drawn"] == -1
        for event in body["events"]:
            if event["kind"] in SECRET_KINDS:
                assert event["cards"] == [], event
        assert not CARDS.intersection(strings_outside_public_places(body)), step
        hidden_events += sum(1 for event, seen in zip(produced, redacted, strict=True) if event != seen)
    assert hidden_events > 0, "steps with hidden cards were checked"
    kinds_at = {
        step: [e["kind"] for e in get(f"{server.http}/api/rooms/{code}/replay/{step}")[2]["events"]]
        for step in (0, steps)
    }
    assert "dealer" in kinds_at[0] and "deal" in kinds_at[0]
    assert kinds_at[steps][-1] == "match_end"
    # the match's positions are cached, a few of them
    match = server.call(lambda: server.app.state.replays.get(code))
    assert isinstance(match, MatchReplay) and 0 < len(match.games) <= replays_module.POSITIONS


def test_replay_errors(server: RunningServer, finished: tuple[str, dict[str, Any]]) -> None:
    code, record = finished
    steps = len(record["actions"])
    status, headers, body = get(f"{server.http}/api/rooms/ABCDEFGH/replay/0")
    assert status == 404 and "error" in body
    assert headers["x-content-type-options"] == "nosniff"
    assert get(f"{server.http}/api/rooms/SHORT/replay/0")[0] == 404
    for bad in ("-1", "abc", "1.5", "1e3", str(steps + 1), "9" * 12, "%20"):
        status, _, body = get(f"{server.http}/api/rooms/{code}/replay/{bad}")
        assert status == 400 and str(steps) in body["error"], bad
    assert get(f"{server.http}/api/rooms/{code.lower()}/replay/{steps}")[0] == 200
    # a match not over yet: in the lobby, then playing
    host = Client(server.url)
    host.send(type="create", name="Cy", edition="classic", seats=2, rules={})
    other = host.expect("welcome")["code"]
    status, _, body = get(f"{server.http}/api/rooms/{other}/replay/0")
    assert status == 403 and "over" in body["error"]
    host.send(type="seat", seat=1, bot=True)
    host.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "bot")
    host.send(type="start")
    host.expect("update")
    assert get(f"{server.http}/api/rooms/{other}/replay/0")[0] == 403
    host.close()


def test_positions_come_from_cached_ones(monkeypatch: pytest.MonkeyPatch, finished: tuple[str, dict[str, Any]]) -> None:
    _, record = finished
    steps = len(record["actions"])
    calls: list[int | None] = []
    real_replay = replays_module.replay

    def counted(data: dict[str, Any], upto: int | None = None) -> Game:
        calls.append(upto)
        return real_replay(data, upto)

    monkeypatch.setattr(replays_module, "replay", counted)
    match = MatchReplay(record, ["human", "bot", "bot"], positions=6)
    order = list(range(steps + 1)) + list(range(steps, -1, -1))
    order += random.Random(3).sample(range(steps + 1), 20)
    for step in order:
        assert json.loads(json.dumps(match.position(step)["view"])) == expected_view(real_replay(record, upto=step))
        assert len(match.games) <= 6 and len(match.checkpoints) <= steps // CHECKPOINT_EVERY + 1
    assert calls == [0], "the record is replayed once; every other position is cloned forward"
    with pytest.raises(ValueError):
        match.position(steps + 1)
    cache = ReplayCache(matches=2)
    for code in ("A", "B", "C"):
        cache.add(code, record, [])
    assert cache.get("A") is None and cache.get("B") is not None and list(cache.matches) == ["C", "B"]


def test_a_replay_is_narrated_in_the_asked_language(
    server: RunningServer, finished: tuple[str, dict[str, Any]]
) -> None:
    code, record = finished
    names = list(record["names"])
    for lang in ("es", "fr", "de", "en"):
        status, headers, body = get(f"{server.http}/api/rooms/{code}/replay/0?lang={lang}")
        assert status == 200 and headers["content-language"] == lang
        dealer = next(event for event in body["events"] if event["kind"] == "dealer")
        round_title = catalog(lang)("event.round", round=dealer["value"])
        assert dealer["text"] == catalog(lang)("event.dealer.other", round=round_title, name=names[dealer["seat"]])
        assert body["asks"] == catalog(lang)("ask." + body["view"]["phase"].replace("-", "_") + ".other")
    request = urllib.request.Request(f"{server.http}/api/rooms/{code}/replay/1", headers={"Accept-Language": "de-AT"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.headers["content-language"] == "de"
    status, headers, body = get(f"{server.http}/api/rooms/{code}/replay/0?lang=xx")
    assert status == 400 and "unknown language xx" in body["error"]
    status, headers, body = get(f"{server.http}/api/rooms/{code}/replay/{len(record['actions']) + 1}?lang=fr")
    assert (status, headers["content-language"]) == (400, "fr") and body["error"].startswith("l'étape est")
