"""`make play` on a fresh clone: seconds until the game answers at its address, and the size of `.venv`.

    python bench/make_play.py                 # one fresh clone of HEAD, `make play` timed
    python bench/make_play.py --runs 3        # three fresh clones, one after the other
    python bench/make_play.py --compare       # and, beside it, `make install` (every check's tools)

Each run clones the repository's committed HEAD into a new temporary folder and runs
`make play` there with `SERVE_ARGS="--host 127.0.0.1 --port 0 --db :memory:"`; the clock stops
when the address the server prints answers `GET /` with 200. pip's package cache is used as it is
(the first run on a machine fills it; the figures aimed at are for a warm cache: under 30 s to the
address, `.venv` under 150 MB). `--compare` times `make install`, which installs the test tools
too, in another fresh clone: the set-up `make play` used to run.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADDRESS = re.compile(r"http://127\.0\.0\.1:(\d+)/")


def folder_size(path: Path) -> int:
    """Bytes of every file under ``path`` (links not followed)."""
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            file = Path(folder, name)
            if not file.is_symlink():
                total += file.stat().st_size
    return total


def packages_in(venv: Path) -> int:
    """Distributions installed in ``venv`` (pip's own included)."""
    return len(list(venv.glob("lib/python*/site-packages/*.dist-info")))


def fresh_clone(into: Path) -> Path:
    clone = into / "unokit"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    return clone


def time_make_play(clone: Path, limit: float) -> float:
    """Seconds from `make play` to the printed address answering; the server is stopped after."""
    started = time.monotonic()
    process = subprocess.Popen(
        ["make", "play", "SERVE_ARGS=--host 127.0.0.1 --port 0 --db :memory:"],
        cwd=clone,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    assert process.stdout is not None
    try:
        output: list[str] = []
        while time.monotonic() - started < limit:
            line = process.stdout.readline()
            if not line:
                raise SystemExit("make play stopped before printing an address:\n" + "".join(output))
            output.append(line)
            match = ADDRESS.search(line)
            if match:
                url = f"http://127.0.0.1:{match.group(1)}/"
                while time.monotonic() - started < limit:
                    try:
                        with urllib.request.urlopen(url, timeout=5) as response:
                            if response.status == 200:
                                return time.monotonic() - started
                    except OSError:
                        time.sleep(0.05)
        raise SystemExit(f"make play did not answer within {limit:.0f} s:\n" + "".join(output))
    finally:
        os.killpg(process.pid, 15)
        process.wait(timeout=30)


def time_make_install(clone: Path) -> float:
    started = time.monotonic()
    subprocess.run(["make", "install"], cwd=clone, check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="fresh clones timed one after the other (default 1)")
    parser.add_argument("--limit", type=float, default=600.0, help="seconds a run may take (default 600)")
    parser.add_argument("--compare", action="store_true", help="also time `make install` (the test tools too)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if shutil.which("make") is None or shutil.which("git") is None:
        print("make_play needs make and git", file=sys.stderr)
        return 2
    seconds: list[float] = []
    sizes: list[int] = []
    packages = 0
    for run in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="unokit-play-") as folder:
            clone = fresh_clone(Path(folder))
            seconds.append(time_make_play(clone, args.limit))
            sizes.append(folder_size(clone / ".venv"))
            packages = packages_in(clone / ".venv")
        print(f"run {run + 1}: {seconds[-1]:.1f} s to the address, .venv {sizes[-1] / 2**20:.0f} MB", flush=True)
    print(
        f"make play: median {statistics.median(seconds):.1f} s to the address (of {args.runs}: "
        f"{', '.join(f'{s:.1f}' for s in seconds)}), .venv {statistics.median(sizes) / 2**20:.0f} MB, "
        f"{packages} packages; aimed at: under 30 s with a warm cache, under 150 MB"
    )
    if args.compare:
        with tempfile.TemporaryDirectory(prefix="unokit-install-") as folder:
            clone = fresh_clone(Path(folder))
            install = time_make_install(clone)
            size = folder_size(clone / ".venv")
            print(
                f"make install (every check's tools): {install:.1f} s, .venv {size / 2**20:.0f} MB, "
                f"{packages_in(clone / '.venv')} packages; make play is {install / statistics.median(seconds):.1f}x "
                f"faster and {size / statistics.median(sizes):.1f}x smaller"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
