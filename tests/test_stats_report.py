"""``unokit stats``'s report: capped matches first, labelled seats, rule sets in plot titles, Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from interrupt_support import processes_with_argument
from unokit.analysis.stats import _plot_title, collect
from unokit.cli import main
from unokit.engine.rules import Rules


def test_matches_stopped_at_the_cap_come_first(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ["stats", "--games", "12", "--players", "3", "--bots", "heuristic", "--engine", "python"]
    argv += ["--target", "100", "--max-decisions", "100", "--workers", "1", "--out", str(tmp_path), "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)["editions"]["classic"]
    capped, played = data["capped"]["matches"], data["games_played"]
    assert 0 < capped < played == 12  # some matches run past 100 decisions, some do not
    assert data["finished"] == 12 - capped and data["measures"]["capped"]["estimate"] == capped / 12
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    first = text.index("## ")
    assert text[first:].startswith("## Matches stopped at the cap")
    assert f"**{capped} of 12 matches ({100 * capped / 12:.1f}%" in text
    over = f"*Over the {12 - capped} finished match"
    for section in ("## Game length", "## First player and seat advantage", "## Lead changes", "## Points"):
        assert text.index(over, text.index(section)) < text.index("|", text.index(section)), section


def test_seats_are_labelled_in_the_report_order(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ["stats", "--games", "3", "--players", "4", "--bots", "heuristic", "--engine", "python"]
    argv += ["--scoring", "single-round", "--workers", "1", "--out", str(tmp_path), "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)["editions"]["classic"]
    seats = data["wins_by_position"]
    assert [s["seat"] for s in seats] == ["dealer +1", "dealer +2", "dealer +3", "dealer"]
    assert sum(s["wins"] for s in seats) == data["rounds"] == 3
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (dealer[^|]*?) \| 3 \| (\d+) \|", text, re.M)
    assert [(label, int(wins)) for label, wins in rows] == [(s["seat"], s["wins"]) for s in seats]
    for key in ("turns_per_round", "cards_drawn_per_round", "lead_changes_per_round", "comeback_round"):
        assert key in data["measures"]


def test_plot_titles_name_the_rule_set() -> None:
    plain = collect("classic", 4, 2, seed=0, bot="heuristic", workers=1, rules=Rules(scoring="single-round"))
    stacking = collect(
        "classic", 4, 2, seed=0, bot="heuristic", workers=1, rules=Rules(scoring="single-round", stacking="cross")
    )
    assert _plot_title("Seat advantage", plain) == (
        "Seat advantage\nClassic UNO, 4 players, heuristic bots, scoring=single-round"
    )
    assert "stacking=cross" in _plot_title("Seat advantage", stacking)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the processes in /proc")
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
def test_ctrl_c_writes_a_partial_report_and_leaves_no_worker(tmp_path: Path, stop: signal.Signals) -> None:
    seed = str(800_000_000 + os.getpid())  # marks this run's processes
    out, rows = tmp_path / "report", tmp_path / "rows.csv"
    argv = ["stats", "--bots", "random", "--players", "2", "--games", "100000", "--workers", "2", "--seed", seed]
    argv += ["--scoring", "single-round", "--engine", "python", "--out", str(out), "--rows", str(rows)]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "src")}
    child = subprocess.Popen(
        [sys.executable, "-m", "unokit.cli", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    deadline = time.monotonic() + 60
    while len(processes_with_argument(seed)) < 3 and time.monotonic() < deadline:  # the command and its two workers
        time.sleep(0.1)
    time.sleep(5)  # some chunks finish
    child.send_signal(stop)
    stopped = time.monotonic()
    try:
        printed, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        for pid in processes_with_argument(seed):
            os.kill(pid, signal.SIGKILL)
        raise
    assert time.monotonic() - stopped < 5, "Ctrl-C must stop stats within seconds"
    assert child.returncode == 130, err
    assert "Traceback" not in err
    assert printed.startswith("Partial results: interrupted by Ctrl-C")
    text = (out / "report.md").read_text(encoding="utf-8")
    assert text.startswith("# PARTIAL: Statistics of Classic UNO")
    played = int(re.search(r"interrupted by Ctrl-C after (\d+) of 100000 matches", text)[1])  # type: ignore[index]
    assert 0 < played < 100_000
    assert f"| matches | {played} |" in text
    with rows.open(encoding="utf-8") as lines:
        levels = [line.split(",", 1)[0] for line in lines][1:]
    assert levels.count("match") == played  # the rows of every match counted, and no other
    time.sleep(0.5)
    left = processes_with_argument(seed)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], "no worker process is left behind"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the processes in /proc")
def test_ctrl_c_stops_the_compiled_engine_between_chunks(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    seed = str(700_000_000 + os.getpid())
    out = tmp_path / "report"
    argv = ["stats", "--bots", "heuristic", "--games", "10000000", "--seed", seed, "--engine", "fast"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "src")}
    child = subprocess.Popen(
        [sys.executable, "-m", "unokit.cli", *argv, "--out", str(out), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    time.sleep(12)  # loads (or compiles) the engine, then plays chunks
    child.send_signal(signal.SIGINT)
    stopped = time.monotonic()
    try:
        printed, err = child.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        child.kill()
        raise
    assert child.returncode == 130, err
    data = json.loads(printed)
    assert data["partial"] is True
    played = data["editions"]["classic"]["games_played"]
    if played:  # the engine was warm: it stopped between two chunks, then drew the report's plots
        assert time.monotonic() - stopped < 5
        assert 0 < played < 10_000_000 and data["editions"]["classic"]["rounds"] > played
    assert (out / "report.md").read_text(encoding="utf-8").startswith("# PARTIAL: ")
