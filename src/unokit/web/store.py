"""The store, off the event loop: every call of the :class:`~unokit.web.storage.Storage` runs in a
worker thread, so a slow or locked database never holds up the other rooms, the pings or the pages.

Reads run in threads of their own, so that they go on while writes wait for a lock (SQLite
lets readers in while a writer holds it).  A call the store refuses because another connection
holds its lock (:class:`StorageBusy`) is tried again a few times, a little later each time; any
other failure, or the last refusal, is raised as :class:`~unokit.web.storage.StorageError`.  The
rooms call the store before they change anything (:mod:`unokit.web.rooms`), so a failure leaves
them as they were.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from unokit.web.storage import Storage, StorageBusy

__all__ = ["Store"]

P = ParamSpec("P")
R = TypeVar("R")

ATTEMPTS = 4
"""Tries of a call refused as busy (each waits up to the storage's own busy timeout)."""
RETRY_DELAY = 0.1
"""Seconds before the second try; doubled for each later one."""


class Store:
    """``storage`` called from the event loop without blocking it (``await store.run(storage.method, ...)``)."""

    def __init__(self, storage: Storage, attempts: int = ATTEMPTS, retry_delay: float = RETRY_DELAY) -> None:
        self.storage = storage
        self.attempts = attempts
        self.retry_delay = retry_delay
        self.executor = ThreadPoolExecutor(max_workers=max(1, storage.threads), thread_name_prefix="unokit-store")
        self.readers = ThreadPoolExecutor(max_workers=max(1, storage.threads), thread_name_prefix="unokit-read")

    async def run(self, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``function(*args, **kwargs)`` (a method of the storage that writes) in a worker thread."""
        return await self._call(self.executor, functools.partial(function, *args, **kwargs))

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
