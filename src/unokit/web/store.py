"""The store, off the event loop: every call of the :class:`~unokit.web.storage.Storage` runs in a
worker thread, so a slow or locked database never holds up the other rooms, the pings or the pages.

Reads run in threads of their own, so that they go on while writes wait for a lock (SQLite
lets readers in while a writer holds it).  The rooms' actions, the most frequent writes, are
committed in groups (:meth:`Store.append_action`): the actions asked for while a group is being
written go together in the next one, so a busy server pays for one transaction and one trip to a
worker thread per group, not per action (a trip costs far more than the write when the event
loop keeps the interpreter busy).  A call the store refuses because another connection
holds its lock (:class:`StorageBusy`) is tried again a few times, a little later each time; any
other failure, or the last refusal, is raised as :class:`~unokit.web.storage.StorageError`
(whatever the backend: each turns its database's failures into it).  The
rooms call the store before they change anything (:mod:`unokit.web.rooms`), so a failure leaves
them as they were.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from unokit.web.storage import ActionRow, SeatRow, Storage, StorageBusy

__all__ = ["Store"]

P = ParamSpec("P")
R = TypeVar("R")

ATTEMPTS = 4
"""Tries of a call refused as busy (each waits up to the storage's own busy timeout)."""
RETRY_DELAY = 0.1
"""Seconds before the second try; doubled for each later one."""
GROUPS_IN_FLIGHT = 2
"""Groups of actions written at once: while one waits (a slow call), the next still goes."""


class Store:
    """``storage`` called from the event loop without blocking it (``await store.run(storage.method, ...)``)."""

    def __init__(self, storage: Storage, attempts: int = ATTEMPTS, retry_delay: float = RETRY_DELAY) -> None:
        self.storage = storage
        self.attempts = attempts
        self.retry_delay = retry_delay
        self.executor = ThreadPoolExecutor(max_workers=max(1, storage.threads), thread_name_prefix="unokit-store")
        self.readers = ThreadPoolExecutor(max_workers=max(1, storage.threads), thread_name_prefix="unokit-read")
        self.waiting: list[tuple[ActionRow, asyncio.Future[None]]] = []
        """Actions asked for and not yet sent to the storage, with what their callers await."""
        self.groups_in_flight = 0
        self.tasks: set[asyncio.Task[None]] = set()

    async def run(self, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``function(*args, **kwargs)`` (a method of the storage that writes) in a worker thread."""
        return await self._call(self.executor, functools.partial(function, *args, **kwargs))

    async def append_action(
        self,
        code: str,
        index: int,
        seat: int,
        notation: str,
        *,
        seats: list[SeatRow] | None = None,
        result: dict[str, Any] | None = None,
        fence: int | None = None,
    ) -> None:
        """:meth:`Storage.append_action`; an action that changes nothing else is written with the
        others asked for meanwhile, in one transaction (:meth:`Storage.append_actions`)."""
        if seats is not None or result is not None:
            await self.run(
                self.storage.append_action, code, index, seat, notation, seats=seats, result=result, fence=fence
            )
            return
        loop = asyncio.get_running_loop()
        written: asyncio.Future[None] = loop.create_future()
        self.waiting.append((ActionRow(code, index, seat, notation, fence), written))
        if len(self.waiting) == 1:
            loop.call_soon(self._send_group)  # after what else runs now has asked too
        await written

    def _send_group(self) -> None:
        if not self.waiting or self.groups_in_flight >= GROUPS_IN_FLIGHT:
            return  # a group in flight sends the rest when it is done
        group, self.waiting = self.waiting, []
        self.groups_in_flight += 1
        task = asyncio.get_running_loop().create_task(self._write_group(group))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _write_group(self, group: list[tuple[ActionRow, asyncio.Future[None]]]) -> None:
        """Write ``group`` in one transaction; if that fails for a reason other than a lock (which
        would refuse each alike), write each alone, so that one bad action fails alone."""
        try:
            rows = [row for row, _ in group]
            outcomes: list[BaseException | None]
            try:
                await self.run(self.storage.append_actions, rows)
                outcomes = [None] * len(group)
            except StorageBusy as exc:
                outcomes = [exc] * len(group)
            except Exception as exc:
                if len(group) == 1:
                    outcomes = [exc]
                else:
                    alone = [
                        self.run(
                            self.storage.append_action, row.code, row.number, row.seat, row.notation, fence=row.fence
                        )
                        for row in rows
                    ]
                    outcomes = list(await asyncio.gather(*alone, return_exceptions=True))
            for (_, written), outcome in zip(group, outcomes, strict=True):
                if written.done():
                    continue
                if outcome is None:
                    written.set_result(None)
                else:
                    written.set_exception(outcome)
        finally:
            for _, written in group:
                if not written.done():  # cancelled while written: the server is stopping
                    written.cancel()
            self.groups_in_flight -= 1
            self._send_group()

    async def read(self, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``function(*args, **kwargs)`` (a method of the storage that only reads) in a reading thread."""
        return await self._call(self.readers, functools.partial(function, *args, **kwargs))

    async def _call(self, executor: ThreadPoolExecutor, call: Callable[[], R]) -> R:
        loop = asyncio.get_running_loop()
        delay = self.retry_delay
        for attempt in range(1, self.attempts + 1):
            try:
                return await loop.run_in_executor(executor, call)
            except StorageBusy:
                if attempt == self.attempts:
                    raise
            await asyncio.sleep(delay)
            delay *= 2
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        """Wait for the calls under way, then close the storage."""
        self.executor.shutdown(wait=True)
        self.readers.shutdown(wait=True)
        self.storage.close()
