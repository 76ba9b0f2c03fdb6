"""What several server processes share through Redis, against a real Redis server: room leases with
fencing tokens, the relay of a room's messages between processes, and the per-address limits."""

from __future__ import annotations

import asyncio
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
import redis
from redis.asyncio import Redis
from websockets.exceptions import InvalidStatus

from redis_support import redis_server_fixture, redis_url_fixture
from unokit.cli import main
from unokit.web.cluster import Lease, RedisLimits, Relayed, RoomBus, RoomLeases
from unokit.web.cluster.limits import connect as connect_limits
from unokit.web.guard import LocalLimits
from unokit.web.settings import ServerSettings
from web_support import Client, RunningServer, captured_logs, fast_settings

__all__ = ["redis_server_fixture", "redis_url_fixture"]

T = TypeVar("T")


def run(url: str, test: Callable[[Callable[[], Redis]], Awaitable[T]]) -> T:
    """Run the coroutine ``test(connect)`` on a fresh event loop; ``connect()`` opens a client of ``url``
    (one per process the test stands for), closed at the end."""
    clients: list[Redis] = []

    def connect() -> Redis:
        client = Redis.from_url(url)
        clients.append(client)
        return client

    async def main() -> T:
        try:
            return await test(connect)
        finally:
            for client in clients:
                await client.aclose()

    return asyncio.run(main())


# ---------------------------------------------------------------- leases


def test_a_room_has_one_lease_holder_and_each_new_holder_a_greater_fence(redis_url: str) -> None:
    async def test(connect: Callable[[], Redis]) -> None:
        one, two = RoomLeases(connect(), "web-1"), RoomLeases(connect(), "web-2")
        lease = await one.acquire("ABCD")
        assert lease is not None and (lease.owner, lease.fence) == ("web-1", 1) and lease.valid()
        assert await two.acquire("ABCD") is None, "held: nobody else takes it"
        held = await two.owner("ABCD")
        assert held is not None and (held.owner, held.fence) == ("web-1", 1)
        again = await one.acquire("ABCD")
        assert again is not None and again.fence == 1, "the holder taking it again keeps its token"
        renewed = await one.renew(lease)
        assert renewed is not None and renewed.fence == 1
        assert not await two.release(Lease("ABCD", "web-2", 1)), "only the holder releases"
        assert await one.release(lease)
        assert await one.owner("ABCD") is None
        taken = await two.acquire("ABCD")
        assert taken is not None and (taken.owner, taken.fence) == ("web-2", 2)
        assert await one.renew(lease) is None, "a released lease is not renewed"
        assert await two.acquire("WXYZ") is not None and await two.fence("WXYZ") == 1, "each room its own counter"

    run(redis_url, test)


def test_a_lease_not_renewed_runs_out_and_another_process_takes_the_room(redis_url: str) -> None:
    async def test(connect: Callable[[], Redis]) -> None:
        one, two = RoomLeases(connect(), "web-1", lease_ms=800), RoomLeases(connect(), "web-2", lease_ms=800)
        lease = await one.acquire("ROOM")
        assert lease is not None
        for _ in range(3):  # renewed, it outlives its first term
            await asyncio.sleep(0.3)
            renewed = await one.renew(lease)
            assert renewed is not None
            lease = renewed
            assert await two.acquire("ROOM") is None
        await asyncio.sleep(0.9)  # web-1 stalls past its lease
        assert not lease.valid(), "the holder knows its own lease has run out"
        taken = await two.acquire("ROOM")
        assert taken is not None and taken.fence == lease.fence + 1
        assert await one.renew(lease) is None, "the old holder learns it has lost the room"
        assert not await one.release(lease), "and cannot release the new holder's lease"
        holder = await one.owner("ROOM")
        assert holder is not None and holder.owner == "web-2"

    run(redis_url, test)


def test_a_process_renews_all_its_rooms_at_once_and_learns_which_it_lost(redis_url: str) -> None:
    async def test(connect: Callable[[], Redis]) -> None:
        one, two = RoomLeases(connect(), "web-1"), RoomLeases(connect(), "web-2")
        leases = [await one.acquire(code) for code in ("AAAA", "BBBB", "CCCC")]
        assert all(lease is not None for lease in leases)
        held = [lease for lease in leases if lease is not None]
        await connect().delete(one.lease_key("BBBB"))  # as if its lease had run out...
        assert await two.acquire("BBBB") is not None  # ... and another process had taken the room
        renewed = await one.renew_all(held)
        assert [lease is not None for lease in renewed] == [True, False, True]
        assert all(lease is None or lease.valid() for lease in renewed)

    run(redis_url, test)


def test_processes_racing_for_a_room_get_one_lease_and_the_fence_only_grows(redis_url: str) -> None:
    async def test(connect: Callable[[], Redis]) -> None:
        processes = [RoomLeases(connect(), f"web-{n}", lease_ms=5_000) for n in range(8)]
        fences = []
        for _ in range(5):
            got = await asyncio.gather(*(process.acquire("RACE") for process in processes))
            winners = [lease for lease in got if lease is not None]
            assert len(winners) == 1, got
            fences.append(winners[0].fence)
            assert await processes[int(winners[0].owner.split("-")[1])].release(winners[0])
        assert fences == sorted(fences) and len(set(fences)) == 5

    run(redis_url, test)


def test_a_process_id_is_a_plain_name(redis_url: str) -> None:
    with pytest.raises(ValueError, match="process id"):
        RoomLeases(Redis.from_url(redis_url), "web 1")


# ---------------------------------------------------------------- the relay


def test_a_relayed_room_keeps_its_order_both_ways(redis_url: str) -> None:
    async def test(connect: Callable[[], Redis]) -> None:
        answers: list[Relayed] = []
        relay = RoomBus(connect(), "edge", answers.append)
        owner = RoomBus(connect(), "owner", lambda relayed: None)
        received: dict[str, list[int]] = {"AAAA": [], "BBBB": []}

        def handle(relayed: Relayed) -> None:
            received[relayed.code].append(relayed.message["n"])
            owner.answer(relayed, {"type": "ack", "n": relayed.message["n"]})

        await relay.start()
        await owner.start()
        assert await relay.relay("AAAA", "m1", {"n": 0}) == 0, "nobody owns the room yet"
        await owner.own("AAAA", handle)
        await owner.own("BBBB", handle)
        sends = [relay.relay(code, f"m-{code}", {"n": n}) for n in range(300) for code in ("AAAA", "BBBB")]
        counts = await asyncio.gather(*sends)  # all queued at once
        assert set(counts) == {1}
        deadline = time.monotonic() + 10
        while len(answers) < 600 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert received == {"AAAA": list(range(300)), "BBBB": list(range(300))}
        for code in ("AAAA", "BBBB"):
            back = [a for a in answers if a.code == code]
            assert [a.message["n"] for a in back] == list(range(300))
            assert {(a.process, a.member) for a in back} == {("edge", f"m-{code}")}
        await owner.disown("AAAA")
        assert await relay.relay("AAAA", "m1", {"n": 0}) == 0, "a room given up is no longer listened to"
        assert await owner.answer(Relayed("BBBB", "gone", "m", {}), {"type": "ack"}) == 0, "nobody left to answer"
        await relay.close()
        await owner.close()

    run(redis_url, test)


def test_a_malformed_message_on_the_bus_is_dropped_with_a_line(redis_url: str) -> None:
    async def test(connect: Callable[[], Redis]) -> None:
        answers: list[Relayed] = []
        bus = RoomBus(connect(), "edge", answers.append)
        await bus.start()
        publisher = connect()
        with captured_logs() as logs:
            await publisher.publish(bus.process_channel("edge"), b"not json")
            await publisher.publish(bus.process_channel("edge"), Relayed("ROOM", "edge", "m", {"ok": 1}).encode())
            deadline = time.monotonic() + 5
            while not answers and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
        assert [a.message for a in answers] == [{"ok": 1}]
        assert any("malformed" in record.getMessage() for record in logs)
        await bus.close()

    run(redis_url, test)


# ---------------------------------------------------------------- limits shared by processes


def limited(**changes: Any) -> ServerSettings:
    return ServerSettings(
        **{"address_creates_per_hour": 3, "address_lookups_per_minute": 4, "connections_per_address": 2, **changes}
    )


def test_two_processes_share_one_allowance_of_creations_requests_and_lookups(redis_url: str) -> None:
    async def test(connect: Callable[[], Redis]) -> None:
        settings = limited(rate=0.001, burst=5)
        one, two = RedisLimits(connect(), settings, "web-1"), RedisLimits(connect(), settings, "web-2")
        creations = [await (one if n % 2 else two).allow_creation("203.0.113.1") for n in range(6)]
        assert creations == [True, True, True, False, False, False]
        assert await one.allow_creation("203.0.113.2"), "another address has its own"
        requests = [await (one if n % 2 else two).allow_request("2001:db8::/64") for n in range(7)]
        assert requests == [True] * 5 + [False] * 2
        lookups = [await one.allow_lookup("203.0.113.1", code) for code in ("AAAA", "BBBB", "CCCC")]
        assert lookups == [True] * 3
        assert await two.allow_lookup("203.0.113.1", "AAAA"), "a code looked up lately is free, on any process"
        assert await two.allow_lookup("203.0.113.1", "DDDD")
        assert not await one.allow_lookup("203.0.113.1", "EEEE"), "the fifth new code of four a minute"
        assert await one.allow_lookup("203.0.113.1", "DDDD")
        alone = [LocalLimits(settings), LocalLimits(settings)]  # each process alone: twice the allowance
        assert sum([await alone[n % 2].allow_creation("203.0.113.1") for n in range(8)]) == 6
        analyses = [await (one if n % 2 else two).allow_analysis("203.0.113.1") for n in range(14)]
        assert analyses == [True] * 12 + [False] * 2, "the analysis board's allowance is shared too"
        assert [await alone[0].allow_analysis("203.0.113.1") for _ in range(13)] == [True] * 12 + [False]

    run(redis_url, test)


def test_hundreds_of_checks_at_once_wait_for_the_pool_and_none_falls_back(redis_url: str) -> None:
    """Rooms opening by the hundred on one process ask Redis more at once than its client has
    connections: each check waits for one (the pool blocks) rather than being refused as if Redis were
    down, which made the process limit alone and log "Too many connections"."""

    async def test(_: Callable[[], Redis]) -> None:
        limits = RedisLimits(connect_limits(redis_url), limited(address_creates_per_hour=10), "web-1")
        with captured_logs() as records:
            answers = await asyncio.gather(*(limits.allow_creation(f"198.51.100.{n % 250}") for n in range(600)))
        assert all(answers) and limits.down_until == 0.0, [record.getMessage() for record in records][:3]
        assert not records
        await limits.client.aclose()

    run(redis_url, test)


def test_the_buckets_refill_by_the_servers_clock(redis_url: str) -> None:
    async def test(connect: Callable[[], Redis]) -> None:
        limits = RedisLimits(connect(), limited(rate=20.0, burst=2), "web-1")
        assert [await limits.allow_request("198.51.100.1") for _ in range(3)] == [True, True, False]
        await asyncio.sleep(0.12)  # 2.4 tokens' time: full again, no more
        assert [await limits.allow_request("198.51.100.1") for _ in range(3)] == [True, True, False]
        ttl = await connect().pttl("unokit:bucket:request:198.51.100.1")
        assert 0 < ttl <= 2_000, "a bucket expires once it would be full again"

    run(redis_url, test)


def test_two_processes_share_the_sockets_of_an_address_and_a_dead_ones_are_dropped(redis_url: str) -> None:
    async def test(connect: Callable[[], Redis]) -> None:
        settings = limited()
        one = RedisLimits(connect(), settings, "web-1", heartbeat_ms=1000)
        two = RedisLimits(connect(), settings, "web-2", heartbeat_ms=1000)
        assert await one.open_socket("203.0.113.1") and await two.open_socket("203.0.113.1")
        assert not await one.open_socket("203.0.113.1") and not await two.open_socket("203.0.113.1")
        await one.close_socket("203.0.113.1")
        assert await two.open_socket("203.0.113.1")
        assert not await one.open_socket("203.0.113.1")
        await two.stop_beating()  # web-2 is killed: it holds two sockets, closes none, beats no more
        await two.beat()  # its last heartbeat: it counts for one second more
        await asyncio.sleep(0.3)
        assert not await one.open_socket("203.0.113.1"), "its heartbeat has not run out yet"
        await asyncio.sleep(0.9)
        assert await one.open_socket("203.0.113.1") and await one.open_socket("203.0.113.1")
        assert not await one.open_socket("203.0.113.1")
        await one.close()
        three = RedisLimits(connect(), settings, "web-3")
        assert await three.open_socket("203.0.113.1") and await three.open_socket("203.0.113.1"), "closing gave back"

    run(redis_url, test)


def test_a_socket_closed_while_redis_was_unreachable_is_counted_off_at_the_next_heartbeat(redis_url: str) -> None:
    async def test(connect: Callable[[], Redis]) -> None:
        limits = RedisLimits(connect(), limited(), "web-1")
        assert await limits.open_socket("203.0.113.1") and await limits.open_socket("203.0.113.1")
        limits.down_until = time.monotonic() + 60  # as right after Redis failed to answer
        await limits.close_socket("203.0.113.1")
        await limits.close_socket("203.0.113.1")
        reader = connect()
        assert await reader.hget("unokit:sockets:203.0.113.1", "web-1") == b"2", "Redis could not be told"
        limits.down_until = 0.0  # Redis is back
        await limits.beat()
        assert await reader.hget("unokit:sockets:203.0.113.1", "web-1") is None
        assert [await limits.open_socket("203.0.113.1") for _ in range(3)] == [True, True, False]
        await limits.close()

    run(redis_url, test)


def test_without_redis_each_process_limits_alone_and_says_so_once(redis_url: str) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # nothing listens there

    async def test(connect: Callable[[], Redis]) -> None:
        limits = RedisLimits.from_url(f"redis://127.0.0.1:{port}", limited(), "web-1")
        with captured_logs() as logs:
            assert [await limits.allow_creation("203.0.113.1") for _ in range(4)] == [True] * 3 + [False]
            assert [await limits.open_socket("203.0.113.1") for _ in range(3)] == [True, True, False]
            await limits.close_socket("203.0.113.1")
            assert await limits.open_socket("203.0.113.1")
            assert [await limits.allow_lookup("203.0.113.1", code) for code in "ABCDE"] == [True] * 4 + [False]
        notices = [record for record in logs if "Redis cannot be reached" in record.getMessage()]
        assert len(notices) == 1
        await limits.close()

    run(redis_url, test)


def create_room(client: Client) -> dict[str, Any]:
    """Ask for a room; the answer (``welcome`` or ``error``)."""
    client.send(type="create", name="Ann", edition="classic", seats=2)
    while True:
        message = client.recv()
        if message["type"] in ("welcome", "error"):
            return message


def test_two_servers_sharing_redis_give_an_address_one_allowance(redis_url: str) -> None:
    settings = fast_settings(redis_url=redis_url, address_creates_per_hour=3, connections_per_address=3)
    with RunningServer(":memory:", settings) as one, RunningServer(":memory:", settings) as two:
        clients = [Client(server.url) for server in (one, two, one)]
        assert [create_room(client)["type"] for client in clients] == ["welcome"] * 3
        for server in (one, two):  # three sockets of 127.0.0.1 are open over the two: a fourth is refused
            with pytest.raises(InvalidStatus):
                Client(server.url)
        clients.pop().close()
        deadline = time.monotonic() + 5
        while True:
            try:
                clients.append(Client(two.url))
                break
            except InvalidStatus:
                assert time.monotonic() < deadline, "a socket closed on one server frees a place on the other"
                time.sleep(0.05)
        refused = create_room(clients[-1])
        assert refused["code"] == "rate-limited" and "address" in refused["message"], "three rooms for both"
        for client in clients:
            client.close()
    with redis.Redis.from_url(redis_url) as client:
        assert client.keys("unokit:sockets:*") == [], "the servers stopped: their sockets are counted no more"


def test_redis_support_gives_each_test_an_empty_database(redis_url: str) -> None:
    with redis.Redis.from_url(redis_url) as client:
        assert client.dbsize() == 0
        client.set("left-behind", "1")


# ---------------------------------------------------------------- unokit serve --redis


def dead_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("redis://127.0.0.1:{dead}/0", "cannot reach Redis at redis://127.0.0.1:{dead}/0: "),
        ("redis://:hunter2@127.0.0.1:{dead}", "cannot reach Redis at redis://127.0.0.1:{dead}: "),
        ("http://127.0.0.1:{dead}", "--redis takes a redis://, rediss:// or unix:// URL"),
    ],
)
def test_serve_refuses_a_redis_it_cannot_use_with_one_line(
    url: str, reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    port = dead_port()
    assert main(["serve", "--port", "0", "--db", ":memory:", "--redis", url.format(dead=port)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"unokit: error: {reason.format(dead=port)}"), err
    assert "hunter2" not in err


def test_serve_without_the_cluster_extra_names_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in [name for name in sys.modules if name == "redis" or name.startswith(("redis.", "unokit.web.cluster"))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "redis", None)  # as if redis-py were not installed
    assert main(["serve", "--port", "0", "--db", ":memory:", "--redis", "redis://127.0.0.1:6379"]) == 2
    err = capsys.readouterr().err
    assert err == "unokit: error: --redis needs the cluster extra: pip install 'unokit[cluster]'\n"


def test_serve_with_redis_keeps_the_limits_there(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, ServerSettings] = {}

    def serve(host: str, port: int, db: str, settings: ServerSettings) -> None:
        seen["settings"] = settings

    monkeypatch.setattr("unokit.web.server.serve", serve)
    assert main(["serve", "--port", "0", "--db", ":memory:", "--redis", redis_url]) == 0
    assert seen["settings"].redis_url == redis_url
    assert main(["serve", "--port", "0", "--db", ":memory:"]) == 0
    assert seen["settings"].redis_url is None, "by default each process counts alone"
