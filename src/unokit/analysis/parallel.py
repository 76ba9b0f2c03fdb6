"""Running many independent games in parallel: local processes, or tasks on a Ray cluster.

:func:`run_parallel` is ``[fn(item) for item in items]`` spread over worker processes;
:func:`iter_parallel` yields the results chunk by chunk as they finish (for callers that
aggregate as they go and keep nothing else). Both take ``ray``:

* ``None``: processes on this machine (forked where that is safe);
* ``"local"`` (or ``""``): a Ray instance started on this machine for the run;
* an address (``ray://head:10001`` or ``head:6379``): an existing Ray cluster, joined.

The items are cut into chunks; on Ray each chunk is a task (retried by Ray when its worker or
node is lost: a game depends only on its item, so a retried chunk gives the same result) and
the results are gathered as the tasks finish. Every result is placed by its item's index, so
the result never depends on the workers, the nodes or the order in which chunks finish.

A cluster's workers import :mod:`unokit` themselves: every node needs the same version installed
(``pip install 'unokit[cluster]'``, with the ``fast`` extra for the compiled engine); the first
task checks that the workers' sources are those of this process and refuses to run otherwise.
A local Ray instance's workers import unokit from where this process does.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, cast

from unokit.engine.errors import SetupError

T = TypeVar("T")
R = TypeVar("R")

Progress = Callable[[int, int], None]
"""Called as ``progress(items_done, items_total)`` as items finish."""

Chunks = Generator[tuple[int, list[R]], None, None]
"""``(start, results)`` of the chunks of items as they finish."""

RAY_LOCAL = "local"
"""The ``ray`` argument (and ``--ray`` without an address) that starts a Ray instance on this machine."""

IN_FLIGHT = 4
"""Chunks handed out per worker at a time (the others wait here, so memory stays flat in the items)."""

TASK_RETRIES = 5
"""How often Ray runs a chunk again whose worker process (or node) died."""

RAY_MISSING = "--ray needs Ray, which is not installed: pip install 'unokit[cluster]'"


class RayUnavailableError(SetupError):
    """Ray cannot be imported, or the cluster cannot be joined or cannot run unokit."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during a run: ``partial`` holds what was done (for :func:`run_parallel`,
    the results in order, ``None`` where an item did not finish)."""

    def __init__(self, partial: Any) -> None:
        super().__init__("interrupted")
        self.partial = partial


def default_workers() -> int:
    return os.cpu_count() or 1


# ---------------------------------------------------------------- local processes


def _mp_context() -> multiprocessing.context.BaseContext:
    """Forked workers where forking is safe (they inherit the bot kinds registered here and
    need no importable main module); elsewhere the platform's default."""
    if sys.platform != "darwin" and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _run_chunk(fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
    return [fn(item) for item in items]


def _worker_signals() -> None:
    """A worker leaves Ctrl-C to the process that started it, which stops every worker, and ends
    at once on SIGTERM (the parent's handler, inherited by a fork, would turn it into Ctrl-C)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """End ``pool`` now: queued work is dropped and running workers are terminated."""
    processes = list((pool._processes or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(2)


def chunk_size(total: int, workers: int) -> int:
    """Items per chunk: about eight chunks per worker, at most 16 items each."""
    return max(1, min(16, total // (workers * 8)))


def _local_chunks(fn: Callable[[T], R], items: Sequence[T], workers: int) -> Chunks[R]:
    total = len(items)
    if workers == 1 or total <= 1:
        for start, item in enumerate(items):
            yield start, [fn(item)]
        return
    size = chunk_size(total, workers)
    starts = iter(range(0, total, size))
    pool = ProcessPoolExecutor(
        max_workers=min(workers, -(-total // size)), mp_context=_mp_context(), initializer=_worker_signals
    )
    finished = False
    try:
        pending: dict[Future[list[R]], int] = {}
        for start in itertools.islice(starts, IN_FLIGHT * workers):
            pending[pool.submit(_run_chunk, fn, items[start : start + size])] = start
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                for start in itertools.islice(starts, 1):
                    pending[pool.submit(_run_chunk, fn, items[start : start + size])] = start
                yield pending.pop(future), future.result()
        finished = True
    finally:
        if finished:
            pool.shutdown()
        else:  # Ctrl-C, an error, or the caller stopped reading
            _stop_pool(pool)


# ---------------------------------------------------------------- Ray

_started_here = False
"""Whether this process started the Ray instance it is connected to (it then stops it on Ctrl-C)."""
_connected_to: str | None = None
"""The ``ray`` address this process connected to (``None``: not connected by :func:`connect_ray`)."""


def import_ray() -> Any:
    """The ``ray`` module, or :class:`RayUnavailableError` naming the ``cluster`` extra."""
    try:
        import ray
    except ImportError:
        raise RayUnavailableError(RAY_MISSING) from None
    return ray


@cache
def source_digest() -> str:
    """A digest of unokit's Python sources as this process imports them (cluster workers must match)."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _worker_identity() -> tuple[str, str]:
    import unokit

    return str(Path(unokit.__file__).resolve().parent), source_digest()


def connect_ray(address: str, workers: int | None = None) -> Any:
    """Connect to Ray (once per process): ``address`` ``"local"`` or ``""`` starts an instance on
    this machine with ``workers`` CPUs (default: every CPU); another address joins that cluster.
    Returns the ``ray`` module."""
    global _started_here, _connected_to
    ray = import_ray()
    wanted = RAY_LOCAL if address in ("", RAY_LOCAL) else address
    if ray.is_initialized():
        if _connected_to in (None, wanted):
            return ray  # (connected by this process before, or by its caller)
        stop_ray()  # another cluster than the one asked for
    import logging

    options: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": True}
    local = address in ("", RAY_LOCAL)
    if local:
        # The instance's workers inherit this environment: they import unokit from where this process does.
        package_parent = str(Path(__file__).resolve().parents[2])
        paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        os.environ["PYTHONPATH"] = os.pathsep.join([package_parent, *(os.path.abspath(p) for p in paths)])
        # ("local": a new instance, never one found running on this machine or named by RAY_ADDRESS)
        options.update(address="local", num_cpus=workers or default_workers(), include_dashboard=False)
    else:
        options["address"] = address
    on_sigterm = signal.getsignal(signal.SIGTERM)
    try:
        ray.init(**options)
    except Exception as exc:  # Ray raises many kinds: connection, value, runtime errors
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise RayUnavailableError(f"--ray {address}: cannot join the Ray cluster: {first}") from None
    finally:
        if on_sigterm is not None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, on_sigterm)  # Ray's own handler would end this process at once
    _started_here, _connected_to = local, wanted
    if not local:
        _check_cluster(ray, address)
    return ray


def _check_cluster(ray: Any, address: str) -> None:
    """Refuse a cluster whose workers cannot import unokit or run other sources than this process."""
    try:
        where, digest = ray.get(ray.remote(_worker_identity).remote(), timeout=120)
    except Exception as exc:
        ray.shutdown()
        raise RayUnavailableError(
            f"--ray {address}: the cluster's workers cannot run unokit ({type(exc).__name__}): "
            "install the same unokit on every node (pip install 'unokit[cluster]')"
        ) from None
    if digest != source_digest():
        ray.shutdown()
        raise RayUnavailableError(
            f"--ray {address}: the cluster's workers run other unokit sources ({where}) than this "
            "process: install the same version on every node"
        )


def stop_ray() -> None:
    """Disconnect from Ray: a Ray instance this process started stops (with its workers); a joined
    cluster goes on running."""
    global _started_here, _connected_to
    with contextlib.suppress(ImportError):
        import ray

        if ray.is_initialized():
            ray.shutdown()
    _started_here, _connected_to = False, None


def ray_parallelism(ray: Any) -> int:
    """The CPUs of the connected cluster (at least 1)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _ray_chunks(fn: Callable[[T], R], items: Sequence[T], workers: int | None, address: str) -> Chunks[R]:
    """The chunks as Ray tasks: ``workers`` at a time, else :data:`IN_FLIGHT` per CPU of the cluster."""
    ray = connect_ray(address, workers)
    total = len(items)
    spread = workers or ray_parallelism(ray)
    size = chunk_size(total, spread)
    task = ray.remote(num_cpus=1, max_retries=TASK_RETRIES, retry_exceptions=False)(_run_chunk)
    shared = ray.put(fn)
    queued = iter(range(0, total, size))
    starts: dict[Any, int] = {}

    def submit(count: int) -> None:
        for start in itertools.islice(queued, count):
            starts[task.remote(shared, items[start : start + size])] = start

    submit(workers or IN_FLIGHT * spread)
    pending = list(starts)
    finished = False
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1, timeout=0.2)
            for ref in ready:
                chunk = ray.get(ref)
                before = len(starts)
                submit(1)
                pending.extend(list(starts)[before:])
                yield starts.pop(ref), chunk
        finished = True
    finally:
        if not finished:
            # Disconnect: Ray ends the tasks of a driver that leaves, and a local instance stops with its
            # workers, so none is left behind; a joined cluster goes on. (Not ray.cancel: Ray 2.60's
            # driver can abort when a task it cancels completes at that moment.)
            stop_ray()


# ---------------------------------------------------------------- the entry points


def iter_parallel(
    fn: Callable[[T], R],
    items: Sequence[T],
    workers: int | None = None,
    *,
    ray: str | None = None,
) -> Chunks[R]:
    """Yield ``(start, [fn(item) for item in items[start:start + n]])`` for chunks of ``items`` as
    they finish, in any order (see :func:`run_parallel` for ``workers`` and ``ray``). Closing the
    iterator early (or Ctrl-C while it waits) stops the workers and cancels the queued chunks."""
    workers = default_workers() if workers is None and ray is None else workers
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise SetupError(f"workers must be at least 1, not {workers}")
    if ray is None:
        return _local_chunks(fn, items, cast(int, workers))
    return _ray_chunks(fn, items, workers, ray)


def run_parallel(
    fn: Callable[[T], R],
    items: Sequence[T],
    workers: int | None = None,
    progress: Progress | None = None,
    *,
    ray: str | None = None,
) -> list[R]:
    """``[fn(item) for item in items]``, in that order, spread over ``workers`` processes
    (``None``: one per CPU; 1: in this process), or with ``ray`` over Ray tasks (``"local"``: a Ray
    instance on this machine with ``workers`` CPUs; an address: that cluster, at most ``workers``
    tasks at a time, default as many as it has CPUs). ``fn`` must be a module-level function
    (workers import it by name).
    ``progress(done, total)`` is called in this process as items finish. Ctrl-C raises
    :class:`Interrupted` holding the results finished (``None`` for the others), every worker stopped."""
    total = len(items)
    results: list[R | None] = [None] * total
    done = 0
    chunks = iter_parallel(fn, items, workers, ray=ray)
    try:
        with contextlib.closing(chunks):
            for start, chunk in chunks:
                results[start : start + len(chunk)] = chunk
                done += len(chunk)
                if progress is not None:
                    progress(done, total)
    except KeyboardInterrupt:
        raise Interrupted(results) from None
    return cast(list[R], results)
