"""The per-address limits of :mod:`unokit.web.guard` kept in Redis, shared by every server process.

Each limit is one atomic Lua script on keys of the client's address (its /64 network for IPv6), timed
by Redis's own clock (``TIME``), so that processes on several machines agree:

- ``{prefix}bucket:{kind}:{address}``: a token bucket (a hash of ``tokens`` and ``stamp``) for the room
  routes' requests (``request``), room creations (``create``), code look-ups (``lookup``), chat lines
  (``chat``) and the events of full resyncs (``resync``); it expires once it would be full again;
- ``{prefix}codes:{address}``: the codes the address looked up last (a list), which cost nothing again;
- ``{prefix}sockets:{address}``: the game sockets it holds open, a count per process (a hash), and
  ``{prefix}processes``: when each process's heartbeat runs out (a sorted set).  A process killed
  without closing its sockets stops its heartbeat, and its counts are dropped at the next opening.

When Redis cannot be reached, each process falls back to its own counts (:class:`LocalLimits`) and
logs it, at most once a minute: the game goes on, each process limiting alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

import redis
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from unokit.web.cluster.names import DEFAULT_PREFIX, cancelling, check_process_id, raise_if_cancelled
from unokit.web.guard import RECENT_CODES, LocalLimits
from unokit.web.settings import ServerSettings

__all__ = ["HEARTBEAT_MS", "POOL_SIZE", "RETRY_SECONDS", "RedisLimits", "check_redis", "connect"]

log = logging.getLogger("unokit.web.cluster")

HEARTBEAT_MS = 15_000
"""A process's sockets count for this long after its last heartbeat (sent every third of it)."""

CODES_MS = 3_600_000
"""The codes an address looked up are forgotten after this long without a look-up."""

NOTICE_SECONDS = 60.0
"""Redis being unreachable is logged at most once in this many seconds."""

RETRY_SECONDS = 5.0
"""After Redis could not be reached, the fallback decides alone for this long before Redis is tried again."""

_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
"""

_TAKE = """
local function take(key, rate, burst, cost)
  cost = cost or 1
  local held = redis.call('HMGET', key, 'tokens', 'stamp')
  local tokens = tonumber(held[1]) or burst
  local stamp = tonumber(held[2]) or now
  tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
  local taken = 0
  if tokens >= math.min(cost, burst) then
    tokens = tokens - cost
    taken = 1
  end
  redis.call('HSET', key, 'tokens', string.format('%.6f', tokens), 'stamp', string.format('%.6f', now))
  redis.call('PEXPIRE', key, math.ceil((burst - tokens) / rate * 1000) + 1000)
  return taken
end
"""

_BUCKET = (
    _NOW
    + _TAKE
    + """
return take(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))
"""
)
"""Take ARGV[3] tokens of the bucket KEYS[1] (ARGV: rate per second, burst, cost): 1, or 0 when it
holds fewer than the cost (a cost over the burst is taken from a full bucket, leaving it in debt, as
:meth:`unokit.web.guard.RateLimiter.spend`)."""

_LOOKUP = (
    _NOW
    + _TAKE
    + """
if redis.call('LPOS', KEYS[2], ARGV[3]) then
  redis.call('LREM', KEYS[2], 1, ARGV[3])
  redis.call('LPUSH', KEYS[2], ARGV[3])
  redis.call('PEXPIRE', KEYS[2], ARGV[5])
  return 1
end
if take(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2])) == 0 then
  return 0
end
redis.call('LPUSH', KEYS[2], ARGV[3])
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[4]) - 1)
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return 1
"""
)
"""Look up code ARGV[3]: free if among the last ARGV[4] of KEYS[2], else a token of the bucket KEYS[1]."""

_OPEN = (
    _NOW
    + """
local counts = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #counts, 2 do
  local alive = redis.call('ZSCORE', KEYS[2], counts[i])
  if counts[i] ~= ARGV[1] and (not alive or tonumber(alive) < now * 1000) then
    redis.call('HDEL', KEYS[1], counts[i])
  else
    total = total + tonumber(counts[i + 1])
  end
end
if total >= tonumber(ARGV[2]) then
  return 0
end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
return 1
"""
)
"""Count one more socket of process ARGV[1] in KEYS[1] unless the live processes' counts (KEYS[2]:
their heartbeats) reach ARGV[2] already."""

_CLOSE = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return 1
"""

_HEARTBEAT = (
    _NOW
    + """
redis.call('ZADD', KEYS[1], math.floor(now * 1000) + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', math.floor(now * 1000) - 1)
return 1
"""
)


class RedisLimits:
    """:class:`unokit.web.guard.AddressLimits` in Redis (``client``) for process ``process``: the limits
    of ``settings``, one allowance for all the processes that share the Redis database and ``prefix``."""

    def __init__(
        self,
        client: Redis,
        settings: ServerSettings,
        process: str,
        prefix: str = DEFAULT_PREFIX,
        heartbeat_ms: int = HEARTBEAT_MS,
    ) -> None:
        self.client = client
        self.settings = settings
        self.process = check_process_id(process)
        self.prefix = prefix
        self.heartbeat_ms = heartbeat_ms
        self.socket_limit = settings.connections_per_address
        self.fallback = LocalLimits(settings)
        """What decides while Redis cannot be reached."""
        self.shared_open: dict[str, int] = {}
        """Sockets this process counted in Redis, per address (closed there too)."""
        self.local_open: dict[str, int] = {}
        """Sockets counted by the fallback, per address."""
        self.unsynced: set[str] = set()
        """Addresses whose count in Redis is this process's no longer (a socket closed while it was unreachable)."""
        self.heartbeat: asyncio.Task[None] | None = None
        self.noticed = -NOTICE_SECONDS
        self.down_until = 0.0
        self._bucket = client.register_script(_BUCKET)
        self._lookup = client.register_script(_LOOKUP)
        self._open = client.register_script(_OPEN)
        self._close = client.register_script(_CLOSE)
        self._beat = client.register_script(_HEARTBEAT)

    @classmethod
    def from_url(cls, url: str, settings: ServerSettings, process: str, prefix: str = DEFAULT_PREFIX) -> RedisLimits:
        """Limits in the Redis database at ``url`` (``redis://host:port/db``)."""
        return cls(connect(url), settings, process, prefix)

    def _key(self, kind: str, address: str) -> str:
        return f"{self.prefix}{kind}:{address}"

    async def _shared(self, call: Callable[[], Awaitable[Any]]) -> Any:
        """``call()``'s answer from Redis; None when Redis cannot be reached (then it is not asked
        again for :data:`RETRY_SECONDS`: the fallback decides at once meanwhile)."""
        now = time.monotonic()
        if now < self.down_until:
            return None
        try:
            return await call()
        except (redis.RedisError, OSError) as exc:
            raise_if_cancelled(exc)
            self.down_until = time.monotonic() + RETRY_SECONDS
            if now - self.noticed >= NOTICE_SECONDS:
                self.noticed = now
                log.warning("Redis cannot be reached (%s): each process limits addresses alone meanwhile", exc)
            return None

    async def _take(self, kind: str, address: str, rate: float, burst: float, cost: float = 1) -> bool | None:
        taken = await self._shared(
            lambda: self._bucket(keys=[self._key(f"bucket:{kind}", address)], args=[rate, burst, cost])
        )
        return None if taken is None else bool(taken)

    async def allow_request(self, key: str) -> bool:
        taken = await self._take("request", key, self.settings.rate, self.settings.burst)
        return await self.fallback.allow_request(key) if taken is None else taken

    async def allow_creation(self, key: str) -> bool:
        creates = self.settings.address_creates_per_hour
        taken = await self._take("create", key, creates / 3600.0, creates)
        return await self.fallback.allow_creation(key) if taken is None else taken

    async def allow_lookup(self, key: str, code: str) -> bool:
        lookups = self.settings.address_lookups_per_minute
        keys = [self._key("bucket:lookup", key), self._key("codes", key)]
        args: list[str | int | float] = [lookups / 60.0, lookups, code, RECENT_CODES, CODES_MS]
        taken = await self._shared(lambda: self._lookup(keys=keys, args=args))
        return await self.fallback.allow_lookup(key, code) if taken is None else bool(taken)

    async def allow_chat(self, key: str) -> bool:
        chat = self.settings.address_chat_per_minute
        taken = await self._take("chat", key, chat / 60.0, self.settings.address_chat_burst)
        return await self.fallback.allow_chat(key) if taken is None else taken

    async def allow_analysis(self, key: str) -> bool:
        analyses = self.settings.address_analyses_per_minute
        taken = await self._take("analysis", key, analyses / 60.0, analyses)
        return await self.fallback.allow_analysis(key) if taken is None else taken

    async def spend_resync(self, key: str, events: int) -> bool:
        budget = self.settings.address_resync_events
        taken = await self._take("resync", key, budget / 60.0, budget, events)
        return await self.fallback.spend_resync(key, events) if taken is None else taken

    async def beat(self) -> None:
        """Tell the other processes that this one is alive (its sockets still count), and correct the
        counts of the addresses whose sockets closed while Redis could not be told."""
        await self._beat(keys=[f"{self.prefix}processes"], args=[self.process, self.heartbeat_ms])
        if self.unsynced:
            keys, self.unsynced = self.unsynced, set()
            try:
                async with self.client.pipeline(transaction=False) as pipe:
                    for key in keys:
                        count = self.shared_open.get(key, 0)
                        if count > 0:
                            pipe.hset(self._key("sockets", key), self.process, count)
                        else:
                            pipe.hdel(self._key("sockets", key), self.process)
                    await pipe.execute()
            except BaseException:
                self.unsynced |= keys
                raise

    async def _beating(self) -> None:
        while not cancelling():
            await asyncio.sleep(self.heartbeat_ms / 3000.0)
            await self._shared(self.beat)

    async def stop_beating(self) -> None:
        """Stop the heartbeat: after ``heartbeat_ms`` the sockets this process counted no longer count."""
        if self.heartbeat is not None:
            self.heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.heartbeat
            self.heartbeat = None

    async def open_socket(self, key: str) -> bool:
        async def open_shared() -> bool:
            if self.heartbeat is None:
                await self.beat()
                self.heartbeat = asyncio.get_running_loop().create_task(self._beating())
            keys = [self._key("sockets", key), f"{self.prefix}processes"]
            return bool(await self._open(keys=keys, args=[self.process, self.socket_limit]))

        opened = await self._shared(open_shared)
        if opened is None:
            if not await self.fallback.open_socket(key):
                return False
            self.local_open[key] = self.local_open.get(key, 0) + 1
            return True
        if opened:
            self.shared_open[key] = self.shared_open.get(key, 0) + 1
        return bool(opened)

    async def close_socket(self, key: str) -> None:
        if self.local_open.get(key, 0) > 0:
            _drop(self.local_open, key)
            await self.fallback.close_socket(key)
            return
        if self.shared_open.get(key, 0) <= 0:
            return
        _drop(self.shared_open, key)
        closed = await self._shared(lambda: self._close(keys=[self._key("sockets", key)], args=[self.process]))
        if closed is None:  # Redis unreachable: the next heartbeat corrects the count
            self.unsynced.add(key)

    async def close(self) -> None:
        """Stop the heartbeat and take this process's counts out of Redis."""
        await self.stop_beating()
        with contextlib.suppress(redis.RedisError, OSError):
            async with self.client.pipeline(transaction=False) as pipe:
                for key in self.shared_open:
                    pipe.hdel(self._key("sockets", key), self.process)
                pipe.zrem(f"{self.prefix}processes", self.process)
                await pipe.execute()
        self.shared_open.clear()
        await self.client.aclose()


POOL_SIZE = 64
"""Connections a process's Redis client keeps at most; a command finding them all busy waits for one
(redis-py's plain pool refuses it at once with "Too many connections", as when Redis is down)."""


def connect(url: str, timeout: float = 1.0, *, listens: bool = False) -> Redis:
    """A client of the Redis database at ``url``: a command that cannot reach it, or waits over
    ``timeout`` seconds for one of the :data:`POOL_SIZE` connections, fails within a second or two (one
    retry, at once), so that a request waits no longer for its limits.  A client that ``listens``
    (pub/sub, and the leases) has no time limit on reading an answer, a quiet channel being no failure,
    and keeps redis-py's own retries with back-off."""
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=POOL_SIZE,
        timeout=timeout,
        socket_timeout=None if listens else timeout,
        socket_connect_timeout=timeout,
    )
    if listens:
        return Redis(connection_pool=pool)
    return Redis(connection_pool=pool, retry=Retry(NoBackoff(), 1))


def check_redis(url: str) -> None:
    """Check that the Redis database at ``url`` answers; :class:`ValueError` (one line, the URL's password
    left out) if ``url`` is no Redis URL or nothing answers there."""
    parts = urlsplit(url)
    shown = url if parts.password is None else parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()
    try:
        with redis.Redis.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0) as client:
            client.ping()
    except ValueError:
        raise ValueError(f"--redis takes a redis://, rediss:// or unix:// URL, not {shown!r}") from None
    except (redis.RedisError, OSError) as exc:
        raise ValueError(f"cannot reach Redis at {shown}: {' '.join(str(exc).split())}") from None


def _drop(counts: dict[str, int], key: str) -> None:
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)
