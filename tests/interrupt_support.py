"""Running a command in a subprocess, interrupting it with a signal, and finding what it left running."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
STOP_SECONDS = 2.0
"""The longest a command may take to exit after the signal."""


def processes_marked(mark: str) -> list[int]:
    """The processes whose environment holds ``mark`` (a command and every process it started)."""
    needle = f"UNOKIT_TEST_MARK={mark}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:
            continue  # gone, or not ours
    return found


def processes_with_argument(argument: str) -> list[int]:
    """The running processes one of whose command-line arguments is ``argument`` (a command started
    with a distinctive seed, and the worker processes it forked, which keep its command line)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                words = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if argument.encode() in words:
                found.append(int(entry.name))
    return found


def running_task(mark: str) -> bool:
    """Whether one of the processes marked ``mark`` is a Ray worker running a chunk (its title says so)."""
    for pid in processes_marked(mark):
        try:
            if Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"ray::_run_chunk"):
                return True
        except OSError:
            continue
    return False


def interrupt(
    argv: list[str], signum: int, after: float, ready: Callable[[str], bool] | None = None
) -> tuple[int, dict[str, Any], float, list[int]]:
    """Run ``unokit ARGV --json``, send ``signum`` ``after`` seconds after it started (or after
    ``ready(mark)`` first held); the exit status, the JSON printed, the seconds it took to exit after
    the signal, and its processes still alive then (found by the mark in their environment)."""
    mark = uuid.uuid4().hex
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "UNOKIT_TEST_MARK": mark}
    command = [sys.executable, "-m", "unokit.cli", *argv, "--json"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 120
        while ready is not None and not ready(mark) and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        time.sleep(after)
        assert process.poll() is None, process.communicate()
        process.send_signal(signum)
        sent = time.monotonic()
        out, err = process.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    left = processes_marked(mark)
    for pid in left:
        os.kill(pid, signal.SIGKILL)  # (so that a failure leaves nothing running either)
    assert out.strip(), err
    return process.returncode, json.loads(out), took, left
