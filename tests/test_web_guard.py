"""The server under faults: limits per client address, forwarded addresses, the host check, slow
clients and frames that are not UTF-8."""

from __future__ import annotations

import base64
import json
import logging
import os
import select
import socket
import struct
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from unokit.cli import main
from unokit.web.guard import AllowedHosts, ForwardedAddressError, TrustedProxies, address_key
from unokit.web.rooms import ServerSettings
from web_support import Client, RunningServer, captured_logs, fast_settings


def forwarded_client(server: RunningServer, address: str) -> Client:
    """A client whose connection says, as a reverse proxy would, that it comes from ``address``."""
    return Client(server.url, headers={"X-Forwarded-For": f"{address}, 127.0.0.1"})


def first_of(client: Client, *kinds: str) -> dict[str, Any]:
    """The next message of one of ``kinds`` (others skipped)."""
    while True:
        message = client.recv()
        if message["type"] in kinds:
            return message


def create_room(client: Client) -> dict[str, Any]:
    """Ask for a room; the answer (``welcome`` or ``error``)."""
    client.send(type="create", name="Ann", edition="classic", seats=2)
    return first_of(client, "welcome", "error")


def http_status(url: str, host: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def socket_as(server: RunningServer, host: str, origin: str | None, **headers: str) -> ClientConnection:
    """A game socket whose request names ``host`` (and the page's ``origin``), as a browser would send
    them for a page of that name; raises :class:`InvalidHandshake` when the server refuses it."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    try:
        return connect(f"ws://{host}/ws", sock=sock, origin=origin, additional_headers=headers, open_timeout=10)  # type: ignore[arg-type]
    except BaseException:
        sock.close()
        raise


def eventually(attempt: Callable[[], Client], seconds: float = 5.0) -> Client:
    """``attempt()``'s client, tried again while the server has not yet seen a connection close."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return attempt()
        except (InvalidHandshake, ConnectionClosed):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def closed_within(sock: socket.socket, seconds: float, trickle: bytes = b"") -> bool:
    """Whether the server closes ``sock`` within ``seconds``, while ``trickle`` is sent every 0.1 s."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if trickle:
                sock.sendall(trickle)
            readable, _, _ = select.select([sock], [], [], 0.1)
            if readable and sock.recv(4096) == b"":
                return True
        except (ConnectionResetError, BrokenPipeError):
            return True
    return False


# ---------------------------------------------------------------- limits per address


def test_one_address_creates_only_so_many_rooms_an_hour_over_all_its_connections() -> None:
    with RunningServer(":memory:", fast_settings(address_creates_per_hour=3, creates_per_hour=5)) as server:
        clients = [Client(server.url) for _ in range(4)]
        assert [create_room(client)["type"] for client in clients[:3]] == ["welcome"] * 3
        refused = create_room(clients[3])
        assert refused["code"] == "rate-limited" and "address" in refused["message"]
        assert len(server.hub.rooms) == 3
        for client in clients:
            client.close()


def test_one_address_looks_up_only_so_many_codes_a_minute_over_sockets_and_the_api() -> None:
    with RunningServer(":memory:", fast_settings(address_lookups_per_minute=5)) as server:
        host = Client(server.url)
        code = create_room(host)["code"]
        guesser = Client(server.url)
        for guess in ("AAAAAAAA", "BBBBBBBB", "CCCCCCCC", "DDDDDDDD"):
            guesser.send(type="join", code=guess, name="Eve")
            assert first_of(guesser, "error")["code"] == "not-found"
        guesser.send(type="spectate", code=code)
        assert first_of(guesser, "welcome", "error")["type"] == "welcome", "the fifth code is looked up"
        other = Client(server.url)  # another connection of the same address
        for request in (
            {"type": "spectate", "code": "EEEEEEEE"},
            {"type": "join", "code": "FFFFFFFF", "name": "Eve"},
            {"type": "resume", "code": "GGGGGGGG", "secret": "x"},
        ):
            other.send(**request)
            refused = first_of(other, "error")
            assert refused["code"] == "rate-limited" and "codes" in refused["message"], refused
        other.send(type="spectate", code=code)
        assert first_of(other, "welcome", "error")["type"] == "welcome", "a code looked up lately costs nothing"
        assert http_status(f"{server.http}/api/rooms/HHHHHHHH")[0] == 429, "the JSON API counts the same codes"
        assert http_status(f"{server.http}/api/rooms/{code}")[0] == 200
        for client in (host, guesser, other):
            client.close()


def test_forwarded_addresses_are_believed_only_from_a_trusted_proxy() -> None:
    with RunningServer(":memory:", fast_settings(address_creates_per_hour=1)) as server:
        assert create_room(forwarded_client(server, "203.0.113.1"))["type"] == "welcome"
        refused = create_room(forwarded_client(server, "203.0.113.2"))
        assert refused["code"] == "rate-limited", "a header from anyone but a trusted proxy is ignored"
    trusting = fast_settings(address_creates_per_hour=1, connections_per_address=2, trusted_proxies=("127.0.0.0/8",))
    with RunningServer(":memory:", trusting) as server:
        assert create_room(forwarded_client(server, "203.0.113.1"))["type"] == "welcome"
        assert create_room(forwarded_client(server, "203.0.113.2"))["type"] == "welcome"
        assert create_room(forwarded_client(server, "203.0.113.1"))["code"] == "rate-limited"
        with pytest.raises(InvalidStatus):  # .1 holds two sockets already: a third is refused
            forwarded_client(server, "203.0.113.1")
        held = [forwarded_client(server, "2001:db8::1"), forwarded_client(server, "2001:db8::2")]
        with pytest.raises(InvalidStatus):
            forwarded_client(server, "2001:db8::3")  # the same /64 network: one address
        forwarded_client(server, "203.0.113.3").close()
        for client in held:
            client.close()


def test_a_forwarded_address_is_read_as_an_address_whatever_its_port_or_brackets() -> None:
    trusting = fast_settings(address_creates_per_hour=3, trusted_proxies=("127.0.0.0/8",))
    with RunningServer(":memory:", trusting) as server:
        ported = [forwarded_client(server, f"9.9.9.9:{40000 + n}") for n in range(5)]
        assert [create_room(client)["type"] for client in ported] == ["welcome"] * 3 + ["error"] * 2
        assert create_room(forwarded_client(server, "9.9.9.9"))["code"] == "rate-limited", "the port is no address"
        bracketed = [forwarded_client(server, f"[2001:db8:1::{n}]") for n in range(1, 4)]
        bracketed.append(forwarded_client(server, "[2001:db8:1::ff]:8443"))
        bracketed.append(forwarded_client(server, "2001:DB8:1:0:abcd::1"))
        answers = [create_room(client)["type"] for client in bracketed]
        assert answers == ["welcome"] * 3 + ["error"] * 2, "one /64 network is one address"
        assert create_room(forwarded_client(server, "[2001:db8:2::1]"))["type"] == "welcome", "another network"
        for client in ported + bracketed:
            client.close()


@pytest.mark.parametrize(
    "forwarded", ["unknown", "evil.example", "9.9.9.9:http", "[9.9.9.9]", "[2001:db8::1", "2001:db8::1]:80", ""]
)
def test_a_forwarded_header_that_names_no_address_is_refused(forwarded: str) -> None:
    trusting = fast_settings(trusted_proxies=("127.0.0.0/8",))
    header = {"X-Forwarded-For": f"{forwarded}, 127.0.0.1" if forwarded else " "}
    with RunningServer(":memory:", trusting) as server, captured_logs() as logs:
        with pytest.raises(InvalidStatus) as refused:
            Client(server.url, headers=header)
        assert refused.value.response.status_code == 400
        assert b"X-Forwarded-For names" in refused.value.response.body
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(urllib.request.Request(f"{server.http}/api/rooms", headers=header), timeout=10)
        assert answer.value.code == 400 and "X-Forwarded-For names" in answer.value.read().decode()
        assert len(server.hub.rooms) == 0
        assert any("forwarded no client address" in record.getMessage() for record in logs)
    with RunningServer(":memory:", fast_settings()) as server:  # from anyone but a trusted proxy: ignored
        Client(server.url, headers=header).close()


def test_the_client_is_the_last_hop_no_trusted_proxy_added() -> None:
    proxies = TrustedProxies(["10.0.0.0/8", "2001:db8:ffff::/48"])
    assert proxies.client("198.51.100.1, 10.0.0.2:8080") == "198.51.100.1"
    assert proxies.client("198.51.100.1:5000,[2001:db8:ffff::1]:443") == "198.51.100.1"
    assert proxies.client("forged-junk, [2001:DB8:1::9]") == "2001:db8:1::9", "what comes before the client is ignored"
    assert proxies.client("10.0.0.3, 10.0.0.2") == "10.0.0.3", "only proxies: the first"
    assert proxies.client("") is None
    with pytest.raises(ForwardedAddressError, match="'unknown'"):
        proxies.client("198.51.100.1, unknown, 10.0.0.2")


def test_the_connections_of_one_address_are_bounded() -> None:
    with RunningServer(":memory:", fast_settings(connections_per_address=3)) as server:
        held = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(3)]
        time.sleep(0.2)
        extra = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        assert closed_within(extra, 5), "a fourth connection is closed at once"
        with pytest.raises((InvalidHandshake, ConnectionClosed)):
            Client(server.url)
        held.pop().close()
        client = eventually(lambda: Client(server.url))
        client.send(type="ping")
        assert client.expect("pong"), "once one is closed, another may open"
        client.close()
        for sock in held:
            sock.close()


def test_a_connection_that_does_not_finish_its_headers_in_time_is_closed() -> None:
    with RunningServer(":memory:", fast_settings(header_timeout=0.5)) as server:
        silent = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        assert closed_within(silent, 5)
        slow = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert closed_within(slow, 5, trickle=b"X"), "trickling header bytes does not keep it open"
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as prompt:
            prompt.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert prompt.recv(64).startswith(b"HTTP/1.1 200"), "a request sent in time is answered"
            prompt.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            assert closed_within(prompt, 5, trickle=b"X"), "the next request of the connection is bounded too"
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as dragging:
            dragging.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n")
            assert dragging.recv(64).startswith(b"HTTP/1.1 200")
            assert closed_within(dragging, 5, trickle=b"X"), "nor does a body the answer did not need keep it open"
        client = Client(server.url)  # a game socket outlives the bound
        time.sleep(1.0)
        client.send(type="ping")
        assert client.expect("pong")
        client.close()


# ---------------------------------------------------------------- host names


def test_allowed_hosts_are_the_servers_own_and_those_named() -> None:
    own = AllowedHosts.for_server(("127.0.0.1", 8000))
    assert [own.allows(host, secure=False) for host in ("127.0.0.1:8000", "LOCALHOST:8000", "[::1]:8000")] == [True] * 3
    assert not any(own.allows(host, secure=False) for host in ("127.0.0.1:8001", "127.0.0.1", "evil.example:8000"))
    assert not own.allows(None, secure=False) and not own.allows("evil.example:8000/x", secure=False)
    everywhere = AllowedHosts.for_server(("0.0.0.0", 8000))
    assert everywhere.allows("192.168.1.5:8000", secure=False) and everywhere.allows("[fe80::1]:8000", secure=False)
    assert not everywhere.allows("evil.example:8000", secure=False), "a name may be a rebinding page's"
    assert not everywhere.allows("192.168.1.5:8001", secure=False)
    named = AllowedHosts.for_server(("127.0.0.1", 8000), ["uno.example", "play.example:8443"])
    assert named.allows("uno.example", secure=True) and named.allows("uno.example:9000", secure=False)
    assert named.allows("play.example:8443", secure=True) and not named.allows("play.example", secure=True)
    anywhere_local = AllowedHosts.for_server(None)
    assert anywhere_local.allows("localhost:1234", secure=False) and not anywhere_local.allows("evil.example", False)
    with pytest.raises(ValueError):
        AllowedHosts.for_server(None, ["evil.example/x"])
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff") != address_key("2001:db8:0:1::1")


def test_a_request_for_another_host_is_refused() -> None:
    with RunningServer(":memory:", fast_settings(allowed_hosts=("uno.example",))) as server:
        status, text = http_status(f"{server.http}/", host="evil.example")
        assert status == 421 and text.startswith("421 Misdirected Request")
        assert http_status(f"{server.http}/api/options", host=f"evil.example:{server.port}")[0] == 421
        assert http_status(f"{server.http}/", host=f"localhost:{server.port}")[0] == 200
        assert http_status(f"{server.http}/", host="uno.example")[0] == 200, "a name the operator allowed"
        assert http_status(f"{server.http}/")[0] == 200


def test_a_page_whose_name_was_pointed_at_the_server_cannot_open_the_socket() -> None:
    with RunningServer(":memory:", fast_settings(allowed_hosts=("uno.example",))) as server:
        port = server.port
        for host, origin in [
            (f"evil.example:{port}", f"http://evil.example:{port}"),  # DNS rebinding: Host and Origin agree
            (f"evil.example:{port}", None),
            (f"127.0.0.1:{port}", f"http://evil.example:{port}"),
            (f"127.0.0.1:{port}", f"https://127.0.0.1:{port}"),  # a secure page, a plain socket: another origin
            (f"127.0.0.1:{port}", "null"),
            ("uno.example", "http://127.0.0.1"),
        ]:
            with pytest.raises(InvalidStatus) as refused:
                socket_as(server, host, origin)
            assert refused.value.response.status_code == 403, (host, origin)
        for host, origin in [
            (f"127.0.0.1:{port}", f"http://127.0.0.1:{port}"),
            (f"localhost:{port}", f"http://localhost:{port}"),
            ("uno.example", "http://uno.example"),
            ("uno.example", None),
        ]:
            with socket_as(server, host, origin) as ws:
                ws.send(json.dumps({"type": "ping"}))
                assert json.loads(ws.recv(5)) == {"type": "pong"}


def test_behind_a_trusted_proxy_the_scheme_is_the_browsers() -> None:
    settings = fast_settings(allowed_hosts=("uno.example",), trusted_proxies=("127.0.0.1",))
    with RunningServer(":memory:", settings) as server:
        proxied = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}
        with socket_as(server, "uno.example", "https://uno.example", **proxied) as ws:
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(5)) == {"type": "pong"}
        with pytest.raises(InvalidStatus):
            socket_as(server, "uno.example", "http://uno.example", **proxied)
    untrusting = fast_settings(allowed_hosts=("uno.example",))
    with RunningServer(":memory:", untrusting) as server, pytest.raises(InvalidStatus):
        socket_as(server, "uno.example", "https://uno.example", **{"X-Forwarded-Proto": "https"})  # no proxy's


# ---------------------------------------------------------------- frames that are not UTF-8


def raw_socket_handshake(server: RunningServer) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return sock


def masked_text_frame(payload: bytes) -> bytes:
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_a_text_frame_that_is_not_utf8_closes_the_socket_with_one_line_in_the_log() -> None:
    with RunningServer(":memory:", fast_settings()) as server, captured_logs() as records:
        for _ in range(2):
            sock = raw_socket_handshake(server)
            sock.sendall(masked_text_frame(b'{"type": "ping", "x": "\xff\xfe"}'))
            frame = b""
            while len(frame) < 4:
                chunk = sock.recv(4096)
                assert chunk, "the server sends a close frame before it closes"
                frame += chunk
            opcode, length, code = frame[0] & 0x0F, frame[1] & 0x7F, struct.unpack("!H", frame[2:4])[0]
            assert (opcode, code) == (0x8, 1007) and length >= 2
            assert closed_within(sock, 5)
            sock.close()
        client = Client(server.url)
        client.send(type="ping")
        assert client.expect("pong"), "the server goes on"
        client.close()
    assert [r.getMessage() for r in records if r.levelno >= logging.ERROR] == []
    assert all(r.exc_info is None for r in records), "no traceback"
    lines = [r.getMessage() for r in records if "UTF-8" in r.getMessage()]
    assert len(lines) == 2 and "1007" in lines[0], "one line per connection closed"


# ---------------------------------------------------------------- unokit serve


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        (["--connections-per-address", "0"], "--connections-per-address must be from 1"),
        (["--rooms-per-hour", "-3"], "--rooms-per-hour must be from 1"),
        (["--lookups-per-minute", "0"], "--lookups-per-minute must be from 1"),
        (["--trusted-proxy", "proxy.example"], "--trusted-proxy takes an IP address or network"),
        (["--allowed-host", "uno.example/play"], "--allowed-host takes a host name"),
        (["--allowed-host", "uno.example:99999"], "--allowed-host takes a host name"),
    ],
)
def test_serve_refuses_bad_limits_with_one_line(
    arguments: list[str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--port", "0", "--db", ":memory:", *arguments]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and captured.err.startswith(f"unokit: error: {reason}"), captured.err


def test_serve_passes_its_limits_to_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def serve(host: str, port: int, db: str, settings: ServerSettings) -> None:
        seen.update(host=host, settings=settings)

    monkeypatch.setattr("unokit.web.server.serve", serve)
    options = ["--allowed-host", "uno.example", "--allowed-host", "[2001:db8::5]:8443", "--trusted-proxy", "10.0.0.0/8"]
    options += ["--connections-per-address", "8", "--rooms-per-hour", "4", "--lookups-per-minute", "20"]
    assert main(["serve", "--host", "0.0.0.0", "--results-seconds", "15", *options]) == 0
    settings = seen["settings"]
    assert settings.results_seconds == 15
    assert settings.allowed_hosts == ("uno.example", "[2001:db8::5]:8443")
    assert settings.trusted_proxies == ("10.0.0.0/8",)
    assert (settings.connections_per_address, settings.address_creates_per_hour) == (8, 4)
    assert settings.address_lookups_per_minute == 20
    defaults = ServerSettings()
    assert (defaults.connections_per_address, defaults.address_creates_per_hour) == (64, 30)
    assert (defaults.address_lookups_per_minute, defaults.header_timeout) == (60, 10.0)
