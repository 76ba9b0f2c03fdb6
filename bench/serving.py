"""A unokit server for the benches: `unokit serve` in a process of its own, on a free loopback port,
with a database in a folder that is deleted afterwards."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Served:
    """The running server: its address (``http://127.0.0.1:PORT``), process and database file."""

    http: str
    process: subprocess.Popen[str]
    db: Path

    @property
    def ws(self) -> str:
        """The game socket's address."""
        return self.http.replace("http://", "ws://") + "/ws"


@contextmanager
def served(*options: str, settle: float = 0.3) -> Iterator[Served]:
    """Run ``unokit serve`` with ``options`` (e.g. ``--bot-delay 0``) until the block ends."""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.sqlite3"
        command = [sys.executable, "-c", "import sys; from unokit.cli import main; sys.exit(main())", "serve"]
        command += ["--host", "127.0.0.1", "--port", "0", "--db", str(db), *options]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if found is None:
                raise RuntimeError(f"the server did not start: {line!r}")
            time.sleep(settle)
            yield Served(f"http://127.0.0.1:{found.group(1)}", process, db)
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
