"""Batches of compiled games stepped in worker processes (:class:`EnvPool`), so that a many-core machine
encodes observations on every core while the learner runs its network on the whole batch."""

from __future__ import annotations

import contextlib
import multiprocessing as mp
from multiprocessing.connection import Connection
from multiprocessing.shared_memory import SharedMemory
from typing import Any

import numpy as np
import numpy.typing as npt

from unokit.rl.batched import BatchedEnv

__all__ = ["EnvPool"]


def _fields(num_envs: int, size: int, actions: int, players: int) -> dict[str, tuple[tuple[int, ...], Any]]:
    return {
        "obs": ((num_envs, size), np.float32),
        "masks": ((num_envs, actions), np.int8),
        "seats": ((num_envs,), np.int64),
        "rewards": ((num_envs, players), np.float32),
        "terminated": ((num_envs,), np.bool_),
        "truncated": ((num_envs,), np.bool_),
        "actions": ((num_envs,), np.int64),
        "expert": ((num_envs,), np.int64),
    }


class _Shared:
    """Named arrays in one block of shared memory."""

    def __init__(self, fields: dict[str, tuple[tuple[int, ...], Any]], name: str | None = None) -> None:
        sizes = {key: int(np.prod(shape)) * np.dtype(dtype).itemsize for key, (shape, dtype) in fields.items()}
        total = sum(-(-size // 64) * 64 for size in sizes.values())
        self.memory = SharedMemory(name=name, create=name is None, size=max(total, 1))
        self.arrays: dict[str, npt.NDArray[Any]] = {}
        offset = 0
        for key, (shape, dtype) in fields.items():
            self.arrays[key] = np.ndarray(shape, dtype=dtype, buffer=self.memory.buf, offset=offset)
            offset += -(-sizes[key] // 64) * 64

    def close(self, unlink: bool) -> None:
        self.arrays.clear()
        self.memory.close()
        if unlink:
            self.memory.unlink()


def _publish(env: BatchedEnv, out: dict[str, npt.NDArray[Any]], result: tuple[Any, ...], expert: bool) -> None:
    if len(result) == 2:
        observations, infos = result
        out["rewards"][:] = 0
        out["terminated"][:] = False
        out["truncated"][:] = False
    else:
        observations, rewards, terminated, truncated, infos = result
        out["rewards"][:] = rewards
        out["terminated"][:] = terminated
        out["truncated"][:] = truncated
    out["obs"][:] = observations["observation"]
    out["masks"][:] = observations["action_mask"]
    out["seats"][:] = infos["seat"]
    out["expert"][:] = env.bot_actions("heuristic") if expert else -1


def has_bots() -> bool:
    """Whether :class:`BatchedEnv` seats compiled bots (``bots=``, :meth:`~BatchedEnv.bot_actions`)."""
    return hasattr(BatchedEnv, "set_bots") and hasattr(BatchedEnv, "bot_actions")


def _worker(connection: Connection, name: str, start: int, stop: int, total: int, kwargs: dict[str, Any]) -> None:
    env = BatchedEnv(stop - start, **kwargs)
    fields = _fields(total, env.encoder.size, env.wait + 1, env.players)
    shared = _Shared(fields, name)
    out = {key: array[start:stop] for key, array in shared.arrays.items()}
    expert = False
    try:
        while True:
            command, argument = connection.recv()
            if command == "reset":
                _publish(env, out, env.reset(seed=argument), expert)
            elif command == "step":
                _publish(env, out, env.step(out["actions"]), expert)
            elif command == "expert":
                expert = bool(argument)
            elif command == "bots":
                codes, rows = argument
                env.set_bots(codes, rows=rows)
            elif command == "close":
                break
            connection.send(None)
    finally:
        out.clear()
        shared.close(unlink=False)
        connection.close()


class EnvPool:
    """``num_envs`` games of :class:`BatchedEnv` (made with ``kwargs``), in ``workers`` processes
    (0: in this process).  Worker ``i`` plays games of seed ``seed * 1009 + i``.  The arrays it
    returns are the pool's own (overwritten by the next call)."""

    def __init__(self, num_envs: int, workers: int, **kwargs: Any) -> None:
        self.num_envs = num_envs
        self.kwargs = kwargs
        probe = BatchedEnv(1, **kwargs)  # compiles (and caches) once, before any worker starts
        probe.reset(seed=0)
        probe.step(probe.random_actions())
        if has_bots():
            probe.bot_actions("heuristic")
        self.size = probe.encoder.size
        self.actions = probe.wait + 1
        self.wait = probe.wait
        self.players = probe.players
        self.encoder = probe.encoder
        self.workers = max(0, min(workers, num_envs))
        self._expert = False
        self._connections: list[Connection] = []
        self._processes: list[Any] = []
        self._local: list[BatchedEnv] = []
        self.bounds = [
            (i * num_envs // max(1, self.workers), (i + 1) * num_envs // max(1, self.workers))
            for i in range(max(1, self.workers))
        ]
        fields = _fields(num_envs, self.size, self.actions, self.players)
        if self.workers == 0:
            self._shared = _Shared(fields)
            self._local = [BatchedEnv(num_envs, **kwargs)]
        else:
            self._shared = _Shared(fields)
            context = mp.get_context("spawn")
            for start, stop in self.bounds:
                parent, child = context.Pipe()
                process = context.Process(
                    target=_worker, args=(child, self._shared.memory.name, start, stop, num_envs, kwargs), daemon=True
                )
                process.start()
                child.close()
                self._connections.append(parent)
                self._processes.append(process)
        self.arrays = self._shared.arrays

    def _all(self, command: str, arguments: list[Any]) -> None:
        for connection, argument in zip(self._connections, arguments, strict=True):
            connection.send((command, argument))
        for connection in self._connections:
            connection.recv()

    def reset(self, seed: int) -> None:
        """Deal every game anew."""
        if self._local:
            _publish(self._local[0], self.arrays, self._local[0].reset(seed=seed * 1009), self._expert)
        else:
            self._all("reset", [seed * 1009 + i for i in range(len(self._connections))])

    def step(self, actions: npt.NDArray[np.int64]) -> None:
        """One action per game (the seat asked in each)."""
        self.arrays["actions"][:] = actions
        if self._local:
            _publish(self._local[0], self.arrays, self._local[0].step(self.arrays["actions"]), self._expert)
        else:
            self._all("step", [None] * len(self._connections))

    def set_expert(self, on: bool) -> None:
        """Whether each step also gives the heuristic's choice for the seat asked (``arrays["expert"]``; else -1)."""
        self._expert = on
        if not self._local:
            self._all("expert", [on] * len(self._connections))

    def set_bots(self, codes: npt.NDArray[np.int64], rows: npt.NDArray[np.int64]) -> None:
        """Seat holders ``codes[row]`` (:data:`unokit.rl.batched.HOLDERS`' codes, or negative for
        the caller) at the next game of each of ``rows`` (:meth:`BatchedEnv.set_bots`)."""
        if self._local:
            self._local[0].set_bots(codes, rows=rows)
            return
        arguments = []
        for start, stop in self.bounds:
            mine = rows[(rows >= start) & (rows < stop)]
            arguments.append((codes[start:stop], mine - start))
        self._all("bots", arguments)

    def close(self) -> None:
        """Stop the workers and free the shared memory."""
        for connection in self._connections:
            with contextlib.suppress(BrokenPipeError, OSError):
                connection.send(("close", None))
        for process in self._processes:
            process.join(timeout=10)
        self._connections.clear()
        self._processes.clear()
        if self.arrays:
            self.arrays = {}
            self._shared.close(unlink=True)
