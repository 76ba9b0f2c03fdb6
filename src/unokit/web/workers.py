"""Several server processes on one machine, one listening port (``unokit serve --workers N``).

The parent opens one listening socket per worker on the same port (``SO_REUSEPORT``) and holds them
from start to stop; each worker, a fresh interpreter (``python -m unokit.web.workers``) running the
same app as ``unokit serve``, inherits its own.  Why:

- the system spreads new connections evenly over the sockets (a hash of each connection's addresses).
  With one socket shared by every worker, the worker that went back to waiting last takes nearly every
  connection while it keeps up, and a game's WebSocket stays with the worker that accepted it for its
  whole life: the early sockets of a quiet server would all sit on one worker when it gets busy;
- the parent holds the sockets, so the connections queued on a dead worker's socket wait there for
  its restart instead of being reset with its queue, and the port stays this server's while workers
  come and go (port 0 works: the first socket picks it, the others join it);
- a worker that dies again soon after its restart has its socket closed until its next start, so that
  the others take its share of the connections meanwhile;
- before binding, a plain socket is bound to the port and closed: a port already served (by anything,
  a second ``--workers`` server included) is refused, not silently shared.

(Linux spreads connections over such sockets; other systems give them all to one, where this still
runs, unbalanced.)

The parent supervises: a worker that dies unexpectedly is started again after a delay that doubles
with each quick death (:data:`RESTART_FIRST` to :data:`RESTART_MOST` seconds, logged); ``SIGINT`` or
``SIGTERM`` stops every worker gracefully (``SIGKILL`` after :data:`STOP_SECONDS`).  A worker never
outlives the parent: it asks the kernel for ``SIGTERM`` when the parent dies (``PR_SET_PDEATHSIG``,
Linux), and it stops when its standard input, a pipe only the parent writes to, reaches its end.

Workers share their rooms through PostgreSQL and their limits through Redis: each is one server
process of :mod:`unokit.web.cluster`'s kind, numbered from 1 (``/healthz`` names it in its
``X-Unokit-Worker`` header).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import logging
import os
import pickle
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from types import FrameType

from unokit.web.server import listening_socket
from unokit.web.settings import ServerSettings

__all__ = ["WORKER_HEADER", "WorkerSpec", "serve_workers"]

log = logging.getLogger(__name__)

WORKER_HEADER = "x-unokit-worker"
"""The header of ``/healthz`` naming the worker that answered (its number, from 1)."""

RESTART_FIRST = 0.5
"""Seconds before a worker that died is started again, the first time."""

RESTART_MOST = 30.0
"""The longest wait before a restart: the delay doubles with each death of a worker that ran less
than :data:`STABLE_SECONDS`."""

STABLE_SECONDS = 30.0
"""A worker that ran this long before it died is restarted after :data:`RESTART_FIRST` again."""

GRACE_SECONDS = 10.0
"""Seconds a stopping worker waits for its connections and tasks to end (uvicorn's
``timeout_graceful_shutdown``; its sockets are told to reconnect, 1012)."""

STOP_SECONDS = GRACE_SECONDS + 5.0
"""Seconds the parent waits for a worker it stopped before it kills it."""

POLL_SECONDS = 0.1
"""How often the parent looks at its workers."""

PR_SET_PDEATHSIG = 1
"""prctl(2)'s option: the signal a process gets when its parent dies."""


@dataclass(frozen=True)
class WorkerSpec:
    """What a worker is given on its standard input: its number, the parent's process id, the
    listening socket's descriptor (inherited) and what ``unokit serve`` was asked to serve."""

    number: int
    parent: int
    fd: int
    host: str
    port: int
    db: str
    settings: ServerSettings


# ---------------------------------------------------------------- the parent


@dataclass
class _Slot:
    """One worker's place: its listening socket (closed while a worker that keeps dying waits), its
    process (None while it waits for a restart), when it started, how many times in a row it died
    quickly, and when it is started again."""

    number: int
    listener: socket.socket
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    quick_deaths: int = 0
    restart_at: float = 0.0


def describe_exit(code: int) -> str:
    """A worker's end as the log tells it.

    >>> describe_exit(-9), describe_exit(3)
    ('was killed by SIGKILL', 'exited with status 3')
    """
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name}"
    return f"exited with status {code}"


class Supervisor:
    """Starts a worker on each of ``listeners``, restarts those that die, and stops them all when
    the parent is asked to stop (:meth:`run`)."""

    def __init__(self, listeners: list[socket.socket], host: str, port: int, db: str, settings: ServerSettings) -> None:
        self.slots = [_Slot(number, listener) for number, listener in enumerate(listeners, 1)]
        self.host, self.port, self.db, self.settings = host, port, db, settings
        self.stopping = False
        self.forced = False

    def _ask_to_stop(self, signum: int, frame: FrameType | None) -> None:
        if self.stopping:
            self.forced = True  # asked twice: no more waiting
        self.stopping = True

    def _start(self, slot: _Slot) -> subprocess.Popen[bytes]:
        if slot.listener.fileno() == -1:  # closed while it kept dying: it joins the port again
            slot.listener = listening_socket(self.host, self.port, reuse_port=True)
        fd = slot.listener.fileno()
        spec = WorkerSpec(slot.number, os.getpid(), fd, self.host, self.port, self.db, self.settings)
        process = subprocess.Popen(
            [sys.executable, "-m", "unokit.web.workers"],
            stdin=subprocess.PIPE,
            pass_fds=(fd,),
            process_group=0,  # Ctrl-C in a terminal reaches the parent alone, which stops the workers
        )
        assert process.stdin is not None
        try:
            process.stdin.write(pickle.dumps(spec))
            process.stdin.flush()  # left open: its end tells the worker that the parent is gone
        except BrokenPipeError:
            pass  # it died at once: reaped and started again like any other
        slot.process, slot.started = process, time.monotonic()
        return process

    def _reap(self, slot: _Slot, now: float) -> None:
        """Note a worker that died and when to start it again."""
        process = slot.process
        if process is None or (code := process.poll()) is None:
            return
        slot.process = None
        if process.stdin is not None:
            process.stdin.close()
        slot.quick_deaths = slot.quick_deaths + 1 if now - slot.started < STABLE_SECONDS else 1
        delay = min(RESTART_MOST, RESTART_FIRST * 2 ** (slot.quick_deaths - 1))
        slot.restart_at = now + delay
        log.warning(
            "worker %d (pid %d) %s; starting it again in %g s", slot.number, process.pid, describe_exit(code), delay
        )
        if slot.quick_deaths > 1 and slot.listener.fileno() != -1:
            slot.listener.close()  # dying again and again: the others take its connections meanwhile

    def run(self) -> None:
        """Supervise until ``SIGINT`` or ``SIGTERM``, then stop every worker."""
        previous = {sig: signal.signal(sig, self._ask_to_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            for slot in self.slots:
                self._start(slot)
            while not self.stopping:
                now = time.monotonic()
                for slot in self.slots:
                    self._reap(slot, now)
                    if slot.process is None and now >= slot.restart_at and not self.stopping:
                        log.info("worker %d started again (pid %d)", slot.number, self._start(slot).pid)
                time.sleep(POLL_SECONDS)
            self._stop_all()
        finally:
            for slot in self.slots:  # whatever happened above, no worker is left behind
                if slot.process is not None and slot.process.poll() is None:
                    slot.process.kill()
                    slot.process.wait()
                slot.listener.close()
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _stop_all(self) -> None:
        """``SIGTERM`` to every worker; ``SIGKILL`` to those still running after :data:`STOP_SECONDS`
        (or at once when asked to stop a second time)."""
        running = [slot.process for slot in self.slots if slot.process is not None]
        for process in running:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        while any(process.poll() is None for process in running):
            if self.forced or time.monotonic() > deadline:
                for process in running:
                    if process.poll() is None:
                        log.warning("worker (pid %d) did not stop in time: killed", process.pid)
                        process.kill()
                break
            time.sleep(POLL_SECONDS)
        for process in running:
            process.wait()
            if process.stdin is not None:
                process.stdin.close()


def serve_workers(host: str, port: int, db: str, settings: ServerSettings, workers: int) -> None:
    """Serve with ``workers`` processes on one port until interrupted (:class:`Supervisor`).

    Raises :class:`unokit.web.server.ServeError` if the address cannot be listened on or the
    database cannot be opened (the parent opens it once first, which also brings its schema up to
    date before the workers start)."""
    from unokit.web.links import Site
    from unokit.web.server import ServeError
    from unokit.web.storage import StorageError, describe_db, open_storage

    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(name)s: %(message)s")
    if port:
        listening_socket(host, port).close()  # refused if anything listens there: no port shared by accident
    listeners = [listening_socket(host, port, reuse_port=True)]
    bound = listeners[0].getsockname()[1]
    try:
        listeners += [listening_socket(host, bound, reuse_port=True) for _ in range(workers - 1)]
        try:
            open_storage(db, exclusive=True).close()
        except (OSError, StorageError) as exc:
            raise ServeError(f"cannot open the database {describe_db(db)!r}: {exc}") from None
        for line in Site(host, bound, settings.public_url).banner():
            print(f"unokit: {line}", flush=True)
        log.info("serving with %d worker processes", workers)
        Supervisor(listeners, host, bound, db, settings).run()
    finally:
        for listener in listeners:
            listener.close()


# ---------------------------------------------------------------- a worker


def _die_with_parent() -> None:
    """Ask the kernel for ``SIGTERM`` when the parent dies (Linux; elsewhere the pipe alone tells)."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def _stop_when_parent_gone() -> None:
    """Block until standard input ends (the parent closed it, or died), then stop this worker."""
    with contextlib.suppress(OSError, ValueError):
        while sys.stdin.buffer.read(4096):
            pass
    os.kill(os.getpid(), signal.SIGTERM)


def worker_main() -> int:
    """A worker: read its :class:`WorkerSpec` and serve on the inherited socket until stopped."""
    _die_with_parent()
    try:
        spec = pickle.load(sys.stdin.buffer)
    except (EOFError, pickle.UnpicklingError):
        return 1  # the parent died before it sent the spec
    if not isinstance(spec, WorkerSpec) or os.getppid() != spec.parent:
        return 1  # the parent died before the death signal was asked for
    threading.Thread(target=_stop_when_parent_gone, name="parent-watch", daemon=True).start()

    import uvicorn
    from starlette.applications import Starlette

    from unokit.web.server import SWITCH_INTERVAL, make_config
    from unokit.web.storage import StorageError, describe_db

    logging.basicConfig(level=logging.INFO, format=f"%(levelname)s: worker {spec.number}: %(name)s: %(message)s")
    sys.setswitchinterval(SWITCH_INTERVAL)
    listener = socket.socket(fileno=spec.fd)
    try:
        config = make_config(spec.host, spec.port, spec.db, spec.settings)
    except (OSError, StorageError) as exc:
        print(
            f"unokit: worker {spec.number}: cannot open the database {describe_db(spec.db)!r}: {exc}", file=sys.stderr
        )
        return 3
    app = config.app
    assert isinstance(app, Starlette)
    app.state.worker = spec.number  # /healthz names it
    config.timeout_graceful_shutdown = int(GRACE_SECONDS)
    uvicorn.Server(config).run(sockets=[listener])
    return 0


if __name__ == "__main__":  # the spec's class is unokit.web.workers', not __main__'s: run that module's
    from unokit.web.workers import worker_main as main

    sys.exit(main())
