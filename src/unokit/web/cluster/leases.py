"""Room leases: at most one process owns a room at a time.

A process takes a room's lease with ``SET NX PX`` (the key ``{prefix}lease:{code}`` holds the owner's
process id and its fencing token) and renews it while the room runs; a process that stops renewing
(stopped, killed, cut off) loses it when ``lease_ms`` has passed, and another process may then take the
room.  Renewal and release are Lua scripts that act only while the lease is still the caller's.

Each new lease of a room comes with a **fencing token**: ``INCR`` of the room's counter
``{prefix}fence:{code}`` in the same script, so it only grows, whoever takes the room.  A lease held by a
process that paused past its expiry is no proof of anything; a store that keeps the highest token it has
seen for a room refuses the writes that carry a lower one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from unokit.web.cluster.names import DEFAULT_PREFIX, check_process_id

__all__ = ["Lease", "RoomLeases"]

_ACQUIRE = """
local held = redis.call('GET', KEYS[1])
if held then
  local owner, fence = string.match(held, '^(.*) (%d+)$')
  if owner == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return tonumber(fence)
  end
  return held
end
local fence = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. fence, 'PX', ARGV[2])
return fence
"""
"""Take the lease (KEYS[1]) for the process ARGV[1] for ARGV[2] ms, a new token from KEYS[2]; the
token if it is the caller's now (already held: renewed, same token), else who holds it."""

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


@dataclass(frozen=True)
class Lease:
    """A room's lease: the process ``owner`` holds room ``code`` with fencing token ``fence``;
    ``until``: on the holder's :func:`time.monotonic`, when it lapses at the earliest (0 when read
    from Redis by another process)."""

    code: str
    owner: str
    fence: int
    until: float = 0.0

    @property
    def value(self) -> str:
        """What the lease key holds."""
        return f"{self.owner} {self.fence}"

    def valid(self, now: float | None = None) -> bool:
        """Whether the holder may still act as the owner (its last renewal has not run out)."""
        return (time.monotonic() if now is None else now) < self.until


def _parse(code: str, held: Any) -> Lease | None:
    if held is None:
        return None
    text = held.decode() if isinstance(held, bytes) else str(held)
    owner, _, fence = text.rpartition(" ")
    return Lease(code, owner, int(fence))


class RoomLeases:
    """The room leases of process ``process`` in Redis (``client``): each lasts ``lease_ms`` after
    it is taken or last renewed."""

    def __init__(self, client: Redis, process: str, lease_ms: int = 10_000, prefix: str = DEFAULT_PREFIX) -> None:
        if lease_ms < 1:
            raise ValueError(f"a lease lasts at least 1 ms, not {lease_ms}")
        self.client = client
        self.process = check_process_id(process)
        self.lease_ms = lease_ms
        self.prefix = prefix
        self._acquire = client.register_script(_ACQUIRE)
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)

    def lease_key(self, code: str) -> str:
        return f"{self.prefix}lease:{code}"

    def fence_key(self, code: str) -> str:
        return f"{self.prefix}fence:{code}"

    def _until(self, started: float) -> float:
        """When a lease taken or renewed by a call sent at ``started`` lapses at the earliest."""
        return started + self.lease_ms / 1000.0

    async def acquire(self, code: str) -> Lease | None:
        """Take room ``code``'s lease; None when another process holds it.  A lease this process holds
        already is renewed and keeps its token."""
        started = time.monotonic()
        result = await self._acquire(
            keys=[self.lease_key(code), self.fence_key(code)], args=[self.process, self.lease_ms]
        )
        if not isinstance(result, int):
            return None
        return Lease(code, self.process, result, self._until(started))

    async def renew(self, lease: Lease) -> Lease | None:
        """``lease`` renewed for ``lease_ms`` more; None when it is no longer this process's (it ran out,
        and perhaps another took the room: stop acting as the owner)."""
        started = time.monotonic()
        renewed = await self._renew(keys=[self.lease_key(lease.code)], args=[lease.value, self.lease_ms])
        return Lease(lease.code, lease.owner, lease.fence, self._until(started)) if renewed else None

    async def renew_all(self, leases: list[Lease]) -> list[Lease | None]:
        """Each of ``leases`` renewed (None for those lost), in one round trip: a process owning many rooms
        renews them together."""
        started = time.monotonic()
        async with self.client.pipeline(transaction=False) as pipe:
            for lease in leases:
                await self._renew(keys=[self.lease_key(lease.code)], args=[lease.value, self.lease_ms], client=pipe)
            renewed = await pipe.execute()
        until = self._until(started)
        return [
            Lease(lease.code, lease.owner, lease.fence, until) if ok else None
            for lease, ok in zip(leases, renewed, strict=True)
        ]

    async def release(self, lease: Lease) -> bool:
        """Give the room up (when it closes, or the process stops), so that another may take it at once;
        False when the lease was no longer this process's."""
        return bool(await self._release(keys=[self.lease_key(lease.code)], args=[lease.value]))

    async def owner(self, code: str) -> Lease | None:
        """Who holds room ``code``'s lease now (its ``until`` unknown: 0), None when nobody does."""
        return _parse(code, await self.client.get(self.lease_key(code)))

    async def fence(self, code: str) -> int:
        """The last fencing token handed out for room ``code`` (0: none yet)."""
        return int(await self.client.get(self.fence_key(code)) or 0)
