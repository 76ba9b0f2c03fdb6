"""The relay between processes: a client connected to one process plays in a room another owns.

Each room has a channel, ``{prefix}room:{code}``, which only its owner listens to; each process has one,
``{prefix}process:{id}``, for the answers to the clients connected to it.  A process that takes a client
for a room it does not own publishes the client's messages on the room's channel (:meth:`RoomBus.relay`),
naming itself and the client; the owner handles them as a local client's and publishes what that client
must receive, each message for that member alone, on the relaying process's channel
(:meth:`RoomBus.answer`).

Redis pub/sub, not Streams: a message is delivered at most once, to whoever listens now, in the order
published.  That is what a socket gives too: the owner's store is the record of every action, and a
message lost with a process (the relay's, or the owner's before it answered) was never acknowledged; the
client's reconnection and resync recover, as after a dropped socket.  Streams would keep messages nobody
reads (and need trimming and consumer bookkeeping) for no gain.

Order: one process publishes through one queue (a send is queued when it is called, not when it is
awaited), drained in order into pipelines on one connection, and
Redis delivers a channel's messages to a subscriber in the order it received them; the subscriber hands
them to its handlers one at a time.  So a room's messages from one process arrive in the order sent, and
so do the answers to one process.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from unokit.web.cluster.names import DEFAULT_PREFIX, cancelling, check_process_id, raise_if_cancelled

__all__ = ["Handler", "Relayed", "RoomBus"]

log = logging.getLogger("unokit.web.cluster")


@dataclass(frozen=True)
class Relayed:
    """A message on the bus: for room ``code``, from or to client ``member`` of process ``process``
    (the one the client is connected to)."""

    code: str
    process: str
    member: str
    message: dict[str, Any]

    def encode(self) -> str:
        return json.dumps(
            {"code": self.code, "process": self.process, "member": self.member, "message": self.message},
            separators=(",", ":"),
        )

    @classmethod
    def decode(cls, data: bytes | str) -> Relayed:
        fields = json.loads(data)
        return cls(str(fields["code"]), str(fields["process"]), str(fields["member"]), dict(fields["message"]))


Handler = Callable[[Relayed], Awaitable[None] | None]
"""What handles a message from the bus (a coroutine function or a plain one); called one message at a
time, so it should hand the message on (to a room's queue) rather than wait long."""


class RoomBus:
    """Process ``process``'s end of the relay: ``on_answer`` receives the owners' answers to the clients
    connected here; :meth:`own` listens to a room's channel while this process owns the room."""

    def __init__(self, client: Redis, process: str, on_answer: Handler, prefix: str = DEFAULT_PREFIX) -> None:
        self.client = client
        self.process = check_process_id(process)
        self.on_answer = on_answer
        self.prefix = prefix
        self.rooms: dict[str, Handler] = {}
        self.pubsub: PubSub | None = None
        self.outbox: asyncio.Queue[tuple[str, str, asyncio.Future[int]]] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []

    def room_channel(self, code: str) -> str:
        return f"{self.prefix}room:{code}"

    def process_channel(self, process: str) -> str:
        return f"{self.prefix}process:{process}"

    async def start(self) -> None:
        """Listen for the answers to this process's clients, and start publishing."""
        self.pubsub = self.client.pubsub()
        await self.pubsub.subscribe(self.process_channel(self.process))
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self._listen()), loop.create_task(self._publish())]

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.tasks = []
        if self.pubsub is not None:
            await self.pubsub.aclose()  # type: ignore[no-untyped-call]
            self.pubsub = None

    async def own(self, code: str, on_message: Handler) -> None:
        """Receive the messages relayed to room ``code`` (this process holds its lease)."""
        assert self.pubsub is not None, "the bus is not started"
        self.rooms[code] = on_message
        await self.pubsub.subscribe(self.room_channel(code))

    async def disown(self, code: str) -> None:
        """Stop receiving room ``code``'s messages (its lease is given up or lost)."""
        if self.rooms.pop(code, None) is not None and self.pubsub is not None:
            await self.pubsub.unsubscribe(self.room_channel(code))

    def relay(self, code: str, member: str, message: dict[str, Any]) -> asyncio.Future[int]:
        """Send client ``member``'s ``message`` to room ``code``'s owner, after every message sent before;
        the future says how many processes received it (0: nobody owns the room now: find or take its
        owner, then send again)."""
        return self._send(self.room_channel(code), Relayed(code, self.process, member, message))

    def answer(self, to: Relayed, message: dict[str, Any]) -> asyncio.Future[int]:
        """Send ``message`` to the client that sent ``to``, through the process it is connected to, after
        every message sent before; the future says how many processes received it (0: that process is gone,
        and its client with it).  An owner need not wait for it before handling the next message."""
        return self._send(self.process_channel(to.process), Relayed(to.code, to.process, to.member, message))

    def _send(self, channel: str, relayed: Relayed) -> asyncio.Future[int]:
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        done.add_done_callback(_observed)
        self.outbox.put_nowait((channel, relayed.encode(), done))
        return done

    async def _publish(self) -> None:
        """Publish the queued messages in order, those queued meanwhile together in one pipeline."""
        while not cancelling():
            batch = [await self.outbox.get()]
            while not self.outbox.empty():
                batch.append(self.outbox.get_nowait())
            try:
                async with self.client.pipeline(transaction=False) as pipe:
                    for channel, data, _ in batch:
                        pipe.publish(channel, data)
                    counts = await pipe.execute()
            except Exception as exc:  # the senders see the failure; the publisher goes on
                raise_if_cancelled(exc)
                log.warning("could not publish %d messages: %s", len(batch), exc)
                for _, _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                continue
            for (_, _, done), count in zip(batch, counts, strict=True):
                if not done.done():
                    done.set_result(int(count))

    async def _listen(self) -> None:
        assert self.pubsub is not None
        own = self.process_channel(self.process).encode()
        room_prefix = self.room_channel("").encode()
        async for item in self.pubsub.listen():
            if item["type"] != "message":
                continue
            channel: bytes = item["channel"]
            try:
                relayed = Relayed.decode(item["data"])
            except (ValueError, KeyError, TypeError):
                log.warning("dropped a malformed message on %s", channel.decode(errors="replace"))
                continue
            if channel == own:
                handler: Handler | None = self.on_answer
            elif channel.startswith(room_prefix):
                handler = self.rooms.get(channel[len(room_prefix) :].decode())
            else:
                handler = None
            if handler is None:
                continue
            try:
                result = handler(relayed)
                if inspect.isawaitable(result):
                    await result
            except Exception:
                log.exception("error handling a relayed message of room %s", relayed.code)


def _observed(done: asyncio.Future[int]) -> None:
    """A send nobody waited for failed: the publisher has logged it already."""
    if not done.cancelled():
        done.exception()
