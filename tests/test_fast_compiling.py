"""numba's cache of the compiled engine: nothing compiles at import, the first compilation is
announced once, and a read-only installation and home directory still run (a private cache, or in
memory), each said in one line, never a traceback.

Each test runs a fresh Python on an empty cache; the functions it calls are the few small ones of
:mod:`unokit.fast.order`, so that no test compiles the engine's games.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("numba")

from unokit.engine import order

SOURCE = Path(__file__).resolve().parents[1] / "src"
CALL = "from unokit.fast import order\nkey = order.order_key(5, 3)\nprint(key, order.next_by_rank(key, 2, 7, -1))\n"
"""Compiles and runs the fair order's functions (a second or two on a cold cache)."""


def _expected() -> str:
    key = order.order_key(5, 3)
    ranked = sorted((order.order_rank(key, 2, seat), seat) for seat in range(3))
    return f"{key} {ranked[0][1]}"


def _run(code: str, env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("NUMBA_", "XDG_", "UNOKIT_"))}
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        env={**environment, **env},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _notices(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("unokit.fast: compiling")]


def test_importing_compiles_nothing_and_the_first_compilation_is_announced_once(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    code = "import sys\nimport unokit.fast.batch\nprint('imported', file=sys.stderr, flush=True)\n" + CALL
    cold = _run(code, {"PYTHONPATH": str(SOURCE), "NUMBA_CACHE_DIR": str(cache)}, tmp_path)
    assert cold.returncode == 0, cold.stderr
    assert cold.stdout.strip() == _expected()
    before, after = cold.stderr.split("imported\n")
    assert not _notices(before), "importing the engine, the bots and the batches compiles nothing"
    compiled = sorted(path.name.split("-")[0] for path in cache.rglob("*.nbi"))
    functions = ("mix32", "next_by_rank", "order_key", "order_rank")
    assert compiled == [f"order.{name}" for name in functions]
    notices = _notices(after)
    assert len(notices) == 1 and str(cache) in notices[0] and "python -m unokit.fast" in notices[0]
    assert "order_key" in notices[0] and "once" in notices[0]
    warm = _run(code, {"PYTHONPATH": str(SOURCE), "NUMBA_CACHE_DIR": str(cache)}, tmp_path)
    assert warm.returncode == 0 and warm.stdout == cold.stdout
    assert not _notices(warm.stderr) and "unokit.fast" not in warm.stderr, "a warm cache says nothing"
    silenced = {"PYTHONPATH": str(SOURCE), "NUMBA_CACHE_DIR": str(tmp_path / "other"), "UNOKIT_QUIET_COMPILE": "1"}
    quiet = _run(CALL, silenced, tmp_path)
    assert quiet.returncode == 0 and not _notices(quiet.stderr)


def test_an_edit_of_any_module_of_the_package_recompiles_the_others(tmp_path: Path) -> None:
    """numba stamps a function's cache with its own module alone, but the bots' machine code holds the
    engine's functions as they were: an edit of one module refreshes every module's cache."""
    source = tmp_path / "src"
    shutil.copytree(SOURCE / "unokit", source / "unokit", ignore=shutil.ignore_patterns("__pycache__", "static"))
    env = {"PYTHONPATH": str(source), "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    first = _run(CALL, env, tmp_path)
    assert first.returncode == 0 and len(_notices(first.stderr)) == 1, first.stderr
    assert not _notices(_run(CALL, env, tmp_path).stderr)
    engine = source / "unokit" / "fast" / "engine.py"
    edited = engine.stat().st_mtime + 10
    os.utime(engine, (edited, edited))
    again = _run(CALL, env, tmp_path)
    assert again.returncode == 0 and again.stdout == first.stdout
    assert len(_notices(again.stderr)) == 1, "order's functions compile again after an edit of the engine"
    assert not _notices(_run(CALL, env, tmp_path).stderr)


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[dict[str, str]]:
    """A copy of the package that nobody may write (its ``__pycache__`` a file, for root too) and a
    home directory that cannot exist (under a file); the environment that runs from them."""
    source = tmp_path / "src"
    shutil.copytree(SOURCE / "unokit", source / "unokit", ignore=shutil.ignore_patterns("__pycache__", "static"))
    (source / "unokit" / "fast" / "__pycache__").write_text("a file where numba wants a directory")
    blocked = tmp_path / "blocked"
    blocked.write_text("not a directory")
    for path in [source, *source.rglob("*")]:
        path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        yield {"PYTHONPATH": str(source), "HOME": str(blocked / "home"), "TMPDIR": str(tmp_path)}
    finally:
        for path in [source, *source.rglob("*")]:
            path.chmod(path.stat().st_mode | stat.S_IWUSR)


def test_a_read_only_installation_and_home_cache_in_a_private_temporary_directory(
    tmp_path: Path, read_only: dict[str, str]
) -> None:
    private = tmp_path / f"unokit-numba-{os.getuid()}"
    result = _run(CALL, read_only, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == _expected()
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    said = [line for line in lines if "no writable cache directory" in line]
    assert len(said) == 1 and said[0].endswith(f"caching in {private}"), result.stderr
    assert len(_notices(result.stderr)) == 1 and len(lines) == 2
    assert stat.S_IMODE(private.stat().st_mode) == 0o700 and any(private.rglob("order.order_key-*.nbi"))
    again = _run(CALL, read_only, tmp_path)
    assert again.returncode == 0 and again.stdout == result.stdout
    assert not _notices(again.stderr), "the private cache is warm for the next run"


def test_without_any_writable_directory_the_engine_compiles_in_memory(
    tmp_path: Path, read_only: dict[str, str]
) -> None:
    shared = tmp_path / f"unokit-numba-{os.getuid()}"
    shared.mkdir()
    shared.chmod(0o777)  # a temporary directory others may write into is not one numba loads code from
    code = "import sys, tempfile\ntempfile.tempdir = sys.argv[1]\n" + CALL
    result = _run(code, read_only, tmp_path, str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == _expected()
    assert "Traceback" not in result.stderr and not any(shared.iterdir())
    said = [line for line in result.stderr.splitlines() if "no writable cache directory" in line]
    assert len(said) == 1 and "compiling in memory" in said[0] and "NUMBA_CACHE_DIR" in said[0]
    notices = _notices(result.stderr)
    assert len(notices) == 1 and "into memory" in notices[0]
    ahead = (
        "import runpy, sys, tempfile\ntempfile.tempdir = sys.argv.pop()\n"
        "runpy.run_module('unokit.fast', run_name='__main__')\n"
    )
    command = _run(ahead, read_only, tmp_path, str(tmp_path))
    assert command.returncode == 1 and "Traceback" not in command.stderr
    assert "nothing to compile ahead into" in command.stderr.strip().splitlines()[-1]
