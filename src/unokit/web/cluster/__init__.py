"""The web game on several server processes: what they share through Redis.

- :class:`RoomLeases`: which process owns a room, a lease it renews while it runs, with a fencing
  token that grows with every new owner;
- :class:`RoomBus`: a room's messages relayed from the process a client is connected to, to the
  room's owner, and the owner's answers back (Redis pub/sub);
- :class:`RedisLimits`: the per-address limits of :mod:`unokit.web.guard` kept in Redis, so that
  every process counts against one allowance.

Every key and channel starts with a prefix (``unokit:`` by default), so that several deployments
may share one Redis.  Needs the ``cluster`` extra (redis-py's asyncio client).
"""

from __future__ import annotations

from unokit.web.cluster.bus import Relayed, RoomBus
from unokit.web.cluster.leases import Lease, RoomLeases
from unokit.web.cluster.limits import RedisLimits, check_redis
from unokit.web.cluster.names import DEFAULT_PREFIX

__all__ = ["DEFAULT_PREFIX", "Lease", "RedisLimits", "Relayed", "RoomBus", "RoomLeases", "check_redis"]
