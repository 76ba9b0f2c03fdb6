"""Untrusted input over real WebSockets: refused with an error, or harmless; never a traceback."""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from cluster_support import cluster_fixture, one_or_two_processes_fixture
from redis_support import redis_server_fixture
from test_web_protocol import SAMPLES, with_lone_surrogates
from unokit.web.app import SECURITY_HEADERS
from unokit.web.protocol import MESSAGES
from unokit.web.rooms import CODE_ALPHABET, ServerSettings
from web_support import Client, RunningServer, captured_logs, fast_settings

__all__ = ["cluster_fixture", "one_or_two_processes_fixture", "redis_server_fixture"]

SCRIPT_NAME = "<script>x()</script>"
SCRIPT_RULE = '<img src=x onerror="alert(1)"> & <script>alert(2)</script>'


def relayed_seat(server: RunningServer, code: str, secret: str) -> Client:
    """A second socket of a seat, through the other process in a cluster (relayed to the room's owner)."""
    client = Client(server.relay_url)
    client.send(type="resume", code=code, secret=secret, version=0)
    client.expect("welcome")
    client.expect("*", where=lambda m: m["type"] in ("lobby", "update"))
    client.quiet(0.1)
    return client


def relay_errors(server: RunningServer) -> list[str]:
    """The lines of the relaying process's log that tell of an error (none on one process)."""
    if server.relay_log is None:
        return []
    text = server.relay_log.read_text(errors="replace")
    return [line for line in text.splitlines() if line.startswith(("ERROR", "CRITICAL")) or "Traceback" in line]


def started_room(server: RunningServer) -> tuple[Client, str]:
    host = Client(server.url)
    host.send(type="create", name="Ann", edition="classic", seats=2, rules={"scoring": "single-round"})
    code = host.expect("welcome")["code"]
    host.send(type="seat", seat=1, bot=True)
    host.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "bot")
    host.send(type="start")
    host.expect("update")
    host.quiet(0.2)
    return host, code


def test_malformed_messages_are_refused_and_change_nothing(server: RunningServer) -> None:
    host, code = started_room(server)
    room = server.hub.rooms[code]
    before, version = room.game.state_key(), room.version
    relayed = relayed_seat(server, code, str(host.welcome["secret"]))  # type: ignore[index]
    host.quiet(0.3)  # the seat's presence, told to its other socket
    frames: list[Any] = [
        "{not json",
        "null",
        '"act"',
        "[]",
        json.dumps({"type": "act", "action": "draw"}),
        json.dumps({"type": "act", "action": "draw", "version": str(version)}),
        json.dumps({"type": "act", "action": ["draw"], "version": version}),
        json.dumps({"type": "act", "action": "draw", "version": version, "seat": 1}),
        json.dumps({"type": "act", "action": "draw", "version": True}),
        json.dumps({"type": "act", "action": "draw", "version": 1.5}),
        json.dumps({"type": "ACT", "action": "draw", "version": version}),
        json.dumps({"type": "__proto__"}),
        json.dumps({"type": "act", "action": "draw", "version": version, "pad": "x" * 9000}),
        b"\x00\x01binary",
    ]
    for client in (host, relayed):
        for frame in frames:
            client.send_raw(frame)
            error = client.expect("error")
            assert error["code"] == "malformed", (frame, error)
            assert "Traceback" not in error["message"] and "File " not in error["message"]
    assert room.game.state_key() == before and room.version == version
    for client in (host, relayed):
        client.send(type="ping")
        assert client.expect("pong") == {"type": "pong"}
        assert client.quiet(0.2) == []
        client.send(type="sync", version=version)
        assert client.expect("update")["version"] == version, "the owner's room is as it was"
    for client in (host, relayed):
        client.close()
    assert relay_errors(server) == []


def test_lone_surrogates_in_any_string_field_are_malformed_and_change_nothing(server: RunningServer) -> None:
    host = Client(server.url)
    host.send(type="create", name="Ann", edition="wild-jackpot", seats=3)
    welcome = host.expect("welcome")
    code, secret = welcome["code"], welcome["secret"]
    host.send(type="sync", version=0)
    before = host.expect("lobby")
    sender = relayed_seat(server, code, secret)  # the host's second socket, through the relay in a cluster
    host.quiet(0.1)
    samples = {  # the room's own code and the host's secret: a surrogate in place of one of their characters
        **SAMPLES,
        "join": {"code": code, "name": "Bob"},
        "resume": {"code": code, "secret": secret, "version": 0},
        "spectate": {"code": code, "version": 0},
    }
    with captured_logs() as records:
        for kind in MESSAGES:
            for name, message in with_lone_surrogates(kind, samples[kind]):
                sender.send_raw(json.dumps(message))
                answer = sender.recv()
                assert answer["type"] == "error", (message, answer)
                assert answer["code"] == "malformed", (name, message, answer)
        host.send(type="sync", version=0)
        assert host.recv() == before, "no seat, name or rule card changed"
    assert [record.getMessage() for record in records if record.levelno >= logging.ERROR] == []
    assert relay_errors(server) == []
    watcher = Client(server.relay_url)
    watcher.send(type="spectate", code=code)
    watcher.expect("welcome")
    assert watcher.expect("chat_history")["messages"] == [], "no chat message was posted"
    for client in (host, sender, watcher):
        client.close()


def test_frames_too_large_for_the_socket_close_it(server: RunningServer) -> None:
    client = Client(server.relay_url)
    client.send_raw(json.dumps({"type": "ping", "pad": "x" * 200_000}))
    with pytest.raises(ConnectionClosed) as closed:
        client.recv(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    client.close()


def test_flooding_is_rate_limited_then_closed() -> None:
    with RunningServer(":memory:", ServerSettings(bot_delay=0.0)) as server:
        client = Client(server.url)
        for _ in range(60):
            client.send(type="ping")
        time.sleep(0.3)
        got = client.quiet(0.3)
        kinds = [m["type"] for m in got]
        # the burst (40) is answered, plus what refills (20/s) while the frames arrive; not all 60
        assert 40 <= kinds.count("pong") < 60, "the burst is answered, the rest refused"
        assert any(m["type"] == "error" and m["code"] == "rate-limited" for m in got)
        time.sleep(0.3)
        client.send(type="ping")
        assert client.expect("pong"), "after a pause the client is served again"
        with contextlib.suppress(ConnectionClosed):
            for _ in range(300):  # past the burst and 200 refusals: a flood
                client.send(type="ping")
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                client.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        closing = [m for m in client.received if m["type"] == "error" and "closed" in m["message"]]
        assert closing and closing[-1]["code"] == "rate-limited"
        client.close()


def test_script_tags_in_names_and_rule_cards_are_plain_text(server: RunningServer) -> None:
    host = Client(server.url)
    host.send(type="create", name=SCRIPT_NAME, edition="wild-jackpot", seats=3)
    code = host.expect("welcome")["code"]
    lobby = host.expect("lobby")
    assert lobby["seats"][0]["name"] == SCRIPT_NAME and lobby["rule_cards"]["count"] == 2
    host.send(type="read_rule", text="  " + SCRIPT_RULE + "\n")
    reading = host.expect("reading")
    assert reading == {
        "type": "reading",
        "text": SCRIPT_RULE,
        "reading": "honour task: everyone sees it and you confirm when done",
        "enforced": False,
    }
    host.send(type="rule_cards", texts=[SCRIPT_RULE, "Draw 2 cards"])
    mine = host.expect("lobby", where=lambda m: bool(m["rule_cards"]["mine"]))["rule_cards"]["mine"]
    assert mine[0] == {"text": SCRIPT_RULE, "reading": reading["reading"], "enforced": False}
    assert mine[1]["enforced"] is True and mine[1]["reading"] == "enforced: draw 2 cards"
    for texts, reason in [
        (["only one"], "exactly 2"),
        (["ok", "x" * 121], "rule card 2: rule text is 121 characters long"),
        (["ok", "tab\x07bell"], "control character"),
        (["ok", "  "], "rule text is empty"),
        (["ok", "zero\u200bwidth"], "format character"),
    ]:
        host.send(type="rule_cards", texts=texts)
        error = host.expect("error")
        assert error["code"] == "bad-rule-card" and reason in error["message"], error
    assert server.hub.rooms[code].seats[0].rule_cards == [SCRIPT_RULE, "Draw 2 cards"], "kept what was valid"
    guest = Client(server.relay_url)
    guest.send(type="join", code=code, name="<b onmouseover=x>")
    guest.expect("welcome")
    lobby = guest.expect("lobby")
    assert [s["name"] for s in lobby["seats"][:2]] == [SCRIPT_NAME, "<b onmouseover=x>"]
    assert lobby["rule_cards"]["mine"] == [] and SCRIPT_RULE not in json.dumps(lobby)
    guest.send(type="rule_cards", texts=[SCRIPT_RULE, "tab\x07bell"])
    error = guest.expect("error")
    assert error["code"] == "bad-rule-card" and "control character" in error["message"], error
    assert not server.hub.rooms[code].seats[1].rule_cards, "nothing of it kept"
    guest.send(type="rule_cards", texts=[SCRIPT_RULE, "Draw 2 cards"])
    mine = guest.expect("lobby", where=lambda m: bool(m["rule_cards"]["mine"]))["rule_cards"]["mine"]
    assert mine[0]["text"] == SCRIPT_RULE and server.hub.rooms[code].seats[1].rule_cards == [
        SCRIPT_RULE,
        "Draw 2 cards",
    ]
    with urllib.request.urlopen(f"{server.relay_http}/r/{code}", timeout=10) as page:
        body = page.read().decode()
        assert page.headers["content-security-policy"] == SECURITY_HEADERS["content-security-policy"]
        assert page.headers["content-security-policy"].startswith("default-src 'self'; connect-src 'self'")
        assert "<script>" not in body and "unsafe-inline" not in body, "no inline script: the policy allows none"
    assert SCRIPT_NAME not in body and "onmouseover" not in body, "names are never rendered by the server"
    host.close()
    guest.close()


def test_guessing_codes_and_secrets_fails(server: RunningServer) -> None:
    host, code = started_room(server)
    client = Client(server.relay_url)
    for _ in range(30):
        guess = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
        client.send(type="join", code=guess, name="Eve")
        assert client.expect("error")["code"] == "not-found"
        client.send(type="spectate", code=guess[:6])
        assert client.expect("error")["code"] == "not-found"
    for _ in range(30):
        client.send(type="resume", code=code, secret=secrets.token_urlsafe(24), version=0)
        assert client.expect("error")["code"] == "forbidden"
    client.send(type="resume", code=code, secret="", version=0)
    assert client.expect("error")["code"] == "forbidden"
    for request in ({"type": "act", "action": "draw", "version": 0}, {"type": "start"}, {"type": "sync", "version": 0}):
        client.send(**request)
        assert client.expect("error")["code"] == "forbidden", "no room before joining one"
    client.send(type="spectate", code=code)
    assert client.expect("welcome") == {
        "type": "welcome",
        "code": code,
        "seat": None,
        "host": False,
        "invite": f"/r/{code}",
    }
    watched = client.expect("update")
    assert watched["view"]["hand"] == [] and watched["legal"] == []
    client.send(type="seat", seat=1, bot=False)
    assert client.expect("error")["code"] == "forbidden"
    host.close()
    client.close()


def test_a_page_of_another_site_cannot_open_the_socket(server: RunningServer) -> None:
    for url in (server.url, server.relay_url):
        with pytest.raises(InvalidStatus), connect(url, origin="http://evil.example"):  # type: ignore[arg-type]
            pass
    with connect(server.relay_url, origin=server.relay_http) as same:  # type: ignore[arg-type]
        same.send(json.dumps({"type": "ping"}))
        assert json.loads(same.recv(5)) == {"type": "pong"}


def test_server_failures_give_a_generic_error(server: RunningServer, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals /srv/path")

    monkeypatch.setattr(server.hub, "create", broken)
    client = Client(server.url)
    client.send(type="create", name="Ann", edition="classic", seats=2)
    error = client.expect("error")
    assert error["code"] == "server" and "internals" not in error["message"] and "Traceback" not in error["message"]
    client.send(type="ping")
    assert client.expect("pong")
    client.close()


def test_bad_settings_are_refused_with_the_engines_reason(server: RunningServer) -> None:
    client = Client(server.relay_url)
    for rules, reason in [
        ({"spinning": True}, "unknown rule option"),
        ({"target_score": 0}, "target_score"),
        ({"hand_size": 30}, "cannot deal"),
        ({"allow_bluff": "yes"}, "true or false"),
    ]:
        client.send(type="create", name="Ann", edition="classic", seats=10, rules=rules)
        error = client.expect("error")
        assert error["code"] == "malformed" and reason in error["message"], error
    assert client.quiet(0.1) == []
    client.close()


def test_the_room_routes_are_rate_limited_per_address() -> None:
    with RunningServer(":memory:", fast_settings(rate=1.0, burst=5.0)) as server:
        statuses = []
        for _ in range(12):
            try:
                with urllib.request.urlopen(f"{server.http}/api/rooms/ABCDEFGH/record", timeout=10) as answer:
                    statuses.append(answer.status)
            except urllib.error.HTTPError as error:
                statuses.append(error.code)
                assert "error" in json.loads(error.read())
        # the burst is answered (an unknown code: 404), then the address is refused (429)
        assert statuses[:5] == [404] * 5
        assert 429 in statuses[5:]
        with urllib.request.urlopen(f"{server.http}/api/options", timeout=10) as answer:
            assert answer.status == 200, "other routes are not limited"
