"""Ctrl-C (SIGINT) and SIGTERM stop a long command within a second or two: it prints the games done so
far as partial results, leaves no worker process behind and exits 130."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from interrupt_support import ROOT, STOP_SECONDS, interrupt
from unokit.analysis.simulate import fast_engine_plays
from unokit.engine.record import load, replay

SIGNALS = [signal.SIGINT, signal.SIGTERM]
LONG = ["--games", "10000000", "--seed", "3"]


@pytest.mark.parametrize("signum", SIGNALS, ids=["SIGINT", "SIGTERM"])
def test_simulate_on_the_python_engine_stops_and_keeps_its_games(signum: int) -> None:
    argv = ["simulate", "--engine", "python", "--players", "2", "--scoring", "single-round", *LONG]
    code, result, took, left = interrupt(argv, signum, 3.0)
    assert code == 130
    assert result["partial"] is True and result["games_planned"] == 10_000_000
    assert 0 < result["games"] < 10_000_000 and sum(result["wins_by_seat"]) == result["games"]
    assert took < STOP_SECONDS
    assert left == []


@pytest.mark.skipif(fast_engine_plays("classic", None) is not None, reason="the compiled engine needs the fast extra")
@pytest.mark.parametrize("signum", SIGNALS, ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_simulate_on_the_compiled_engine_stops_between_batches(signum: int, policy: str) -> None:
    argv = ["simulate", "--engine", "fast", "--policy", policy, *LONG]
    code, result, took, left = interrupt(argv, signum, 6.0)
    assert code == 130
    assert result["partial"] is True and result["engine"] == "fast"
    assert 0 < result["games"] < 10_000_000 and sum(result["wins_by_seat"]) == result["games"]
    assert took < STOP_SECONDS
    assert left == []


@pytest.mark.parametrize("signum", SIGNALS, ids=["SIGINT", "SIGTERM"])
def test_tournament_stops_its_workers_and_keeps_its_games(signum: int) -> None:
    argv = ["tournament", "--bots", "heuristic,random", "--workers", "2", "--scoring", "single-round"]
    code, result, took, left = interrupt([*argv, "--games", "20000"], signum, 4.0)
    assert code == 130
    assert result["partial"] is True and result["games_planned"] == 20_000
    assert 0 < result["games"] < 20_000
    assert result["results"]["heuristic"]["rounds"] == result["rounds"]
    assert took < STOP_SECONDS
    assert left == []


@pytest.mark.skipif(fast_engine_plays("classic", None) is not None, reason="the compiled engine needs the fast extra")
def test_the_compiled_tournament_stops_too() -> None:
    argv = ["tournament", "--engine", "fast", "--bots", "heuristic,random,random", *LONG]
    code, result, took, left = interrupt(argv, signal.SIGTERM, 5.0)
    assert code == 130
    assert result["partial"] is True and result["engine"] == "fast" and result["games"] > 0
    assert took < STOP_SECONDS
    assert left == []


def test_play_saves_its_record_on_sigterm(tmp_path: Path) -> None:
    """SIGTERM while ``play`` waits for a move does what Ctrl-C does: the record is saved, exit 130."""
    record = tmp_path / "cut.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    command = [sys.executable, "-m", "unokit.cli", "play", "--players", "2", "--seed", "4", "--record", str(record)]
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        time.sleep(3.0)  # (it waits for the first move, on a standard input left open)
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
    assert out.rstrip().endswith(f"Interrupted: record saved to {record} (match not finished).")
    assert not replay(load(record)).is_over


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks a worker")
def test_sigterm_ends_a_worker_forked_from_the_command_at_once() -> None:
    """A worker forked from a command inherits its SIGTERM handler before it can set its own: there
    SIGTERM must end it as the default does, not turn into Ctrl-C (a pool's worker would live on,
    and the command would wait for it at exit)."""
    from unokit.cli import sigterm_as_ctrl_c

    with sigterm_as_ctrl_c():
        child = os.fork()
        if child == 0:
            try:
                time.sleep(30)
            except BaseException:
                os._exit(3)  # turned into Ctrl-C
            os._exit(0)
    time.sleep(0.2)
    os.kill(child, signal.SIGTERM)
    _, status = os.waitpid(child, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM
