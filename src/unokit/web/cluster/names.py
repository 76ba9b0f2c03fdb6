"""Names shared by the cluster modules: the key prefix and a process's name."""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import socket

__all__ = ["DEFAULT_PREFIX", "cancelling", "check_process_id", "new_process_id", "raise_if_cancelled"]

DEFAULT_PREFIX = "unokit:"
"""What every key and channel starts with, unless told otherwise."""

_PROCESS_ID = re.compile(r"[A-Za-z0-9_.:-]{1,128}")


def new_process_id() -> str:
    """A name for this server process, unique among all of them: host name, process id and a random part
    (a restarted process, even with the same process id, is a new owner)."""
    host = re.sub(r"[^A-Za-z0-9_.-]", "-", socket.gethostname())[:64] or "host"
    return f"{host}-{os.getpid()}-{secrets.token_hex(4)}"


def check_process_id(process: str) -> str:
    """``process`` itself if it may name a process (letters, digits, ``_.:-``, up to 128); else :class:`ValueError`.

    >>> check_process_id("web-1"), new_process_id() != new_process_id()
    ('web-1', True)
    """
    if not _PROCESS_ID.fullmatch(process):
        raise ValueError(f"a process id is 1 to 128 letters, digits or _.:- characters, not {process!r}")
    return process


def cancelling() -> bool:
    """Whether the current task is being cancelled (a loop that survives errors checks it each round:
    a cancellation that lands in the middle of a redis-py command may be swallowed there)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def raise_if_cancelled(exc: BaseException) -> None:
    """Raise :class:`asyncio.CancelledError` if the current task is being cancelled: redis-py may answer
    a cancellation in the middle of a command with a connection error, which a loop that survives
    connection errors must not take for one."""
    if cancelling():
        raise asyncio.CancelledError from exc
