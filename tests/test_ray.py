"""Games as Ray tasks (``--ray``) on a local Ray instance: the same seed gives the result of the local
run whatever the Ray workers, a worker killed mid-run changes nothing, and a clear line without Ray."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interrupt_support import interrupt, running_task
from unokit.analysis import parallel
from unokit.analysis.simulate import Block, simulate
from unokit.analysis.tournament import run_tournament
from unokit.cli import main

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
SINGLE = {"scoring": "single-round"}
RAY_STOP_SECONDS = 5.0
"""The longest a command on Ray may take to exit after Ctrl-C (it stops its Ray instance)."""
TIMINGS = ("elapsed_s", "mean_decision_s", "workers")


def fast_engine() -> bool:
    from unokit.analysis.simulate import fast_engine_plays

    return fast_engine_plays("classic", None) is None


def steady(result: dict[str, Any]) -> dict[str, Any]:
    """``result`` without its timings and worker counts."""
    out = {key: value for key, value in result.items() if key not in TIMINGS}
    if "results" in out:
        out["results"] = {
            kind: {key: value for key, value in entry.items() if key not in TIMINGS}
            for kind, entry in out["results"].items()
        }
    return out


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[Any]:
    """One local Ray instance with 2 CPUs for the module; its workers also import tests/ray_support."""
    if parallel.import_ray().is_initialized():
        parallel.stop_ray()
    previous = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(TESTS), previous) if p)
    try:
        ray = parallel.connect_ray("local", 2)
    finally:
        if previous is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = previous
    yield ray
    parallel.stop_ray()


def test_simulate_on_ray_equals_the_local_run(ray_instance: Any) -> None:
    local = simulate("classic", 3, 12, 5, SINGLE)
    for workers in (1, 2):
        on_ray = simulate("classic", 3, 12, 5, SINGLE, workers=workers, ray="local")
        assert steady(on_ray) == steady(local)
    jackpot = simulate("wild-jackpot", 3, 6, 2)
    assert steady(simulate("wild-jackpot", 3, 6, 2, workers=2, ray="local")) == steady(jackpot)


def test_tournament_on_ray_equals_the_local_run(ray_instance: Any) -> None:
    bots = ["heuristic", "random", "random"]
    local = run_tournament("classic", bots, 12, 3, workers=1, rules=SINGLE)
    one = run_tournament("classic", bots, 12, 3, workers=1, rules=SINGLE, ray="local")
    two = run_tournament("classic", bots, 12, 3, workers=2, rules=SINGLE, ray="local")
    assert steady(local) == steady(one) == steady(two)
    assert local["results"]["heuristic"]["rounds"] == 12


def test_the_commands_take_ray(ray_instance: Any, capsys: pytest.CaptureFixture[str]) -> None:
    common = ["--edition", "all-wild", "--games", "6", "--seed", "4", "--json"]
    assert main(["simulate", "--engine", "python", "--players", "3", *common]) == 0
    local = json.loads(capsys.readouterr().out)
    assert main(["simulate", "--engine", "python", "--players", "3", *common, "--ray"]) == 0
    assert steady(json.loads(capsys.readouterr().out)) == steady(local)
    assert main(["tournament", "--bots", "heuristic,random", "--workers", "1", *common]) == 0
    local = json.loads(capsys.readouterr().out)
    assert main(["tournament", "--bots", "heuristic,random", *common, "--ray", "local"]) == 0
    assert steady(json.loads(capsys.readouterr().out)) == steady(local)


def test_stats_on_ray_equals_the_local_run(
    ray_instance: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The statistics' chunks add up alike from Ray tasks: the same report's figures as the local run."""
    common = ["--engine", "python", "--players", "3", "--bots", "heuristic", "--games", "6", "--seed", "2", "--json"]
    assert main(["stats", *common, "--workers", "1", "--out", str(tmp_path / "local")]) == 0
    local = json.loads(capsys.readouterr().out)
    assert main(["stats", *common, "--workers", "2", "--ray", "--out", str(tmp_path / "ray")]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert [steady(e) for e in on_ray["editions"].values()] == [steady(e) for e in local["editions"].values()]
    assert not on_ray["partial"]


def test_compare_on_ray_equals_the_local_run(ray_instance: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """A paired study's exact sums merge alike from Ray tasks: the same table as the local run."""
    common = ["--engine", "python", "--players", "3", "--bots", "heuristic", "--scoring", "single-round"]
    common += ["--games", "8", "--seed", "3", "--json", "--vs", "stacking: --rule stacking=cross"]
    assert main(["compare", *common, "--workers", "1"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert main(["compare", *common, "--workers", "2", "--ray"]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert steady(on_ray) == steady(local)
    assert local["games"] == 8 and not local["partial"]


@pytest.mark.skipif(not fast_engine(), reason="the compiled engine needs the fast extra")
def test_the_compiled_engine_on_ray_equals_the_local_run(ray_instance: Any) -> None:
    for policy in ("random", "heuristic"):
        local = simulate("classic", 4, 300, 9, engine="fast", policy=policy)
        for workers in (1, 2):
            on_ray = simulate("classic", 4, 300, 9, engine="fast", policy=policy, workers=workers, ray="local")
            assert steady(on_ray) == steady(local)
    bots = ["heuristic", "random"]
    local = run_tournament("classic", bots, 40, 2, rules=SINGLE, engine="fast")
    assert local["engine"] == "fast"
    for workers in (1, 2):
        on_ray = run_tournament("classic", bots, 40, 2, workers=workers, rules=SINGLE, engine="fast", ray="local")
        assert steady(on_ray) == steady(local)


def test_a_worker_killed_mid_run_changes_nothing(ray_instance: Any, tmp_path: Path) -> None:
    """A task kills its own worker process (SIGKILL) the first time: Ray runs the chunk again elsewhere."""
    from ray_support import die_once, pid_alive

    blocks = [Block("classic", 3, 7, None, None, "python", "random", first, 2) for first in range(0, 8, 2)]
    marker = tmp_path / "killed"
    on_ray = parallel.run_parallel(die_once, [(str(marker), block) for block in blocks], 2, ray="local")
    killed = int(marker.read_text())
    assert killed != os.getpid() and not pid_alive(killed)  # a Ray worker died, and the run went on
    local = simulate("classic", 3, 8, 7, engine="python")
    assert [c.games for c in on_ray] == [2, 2, 2, 2]
    total = on_ray[0]
    for more in on_ray[1:]:
        total.add(more)
    assert (total.decisions, total.rounds, total.wins, total.points) == (
        local["decisions"],
        local["rounds"],
        local["wins_by_seat"],
        local["points_by_seat"],
    )


def ray_task_pids() -> list[int]:
    """The Ray worker processes running a chunk now (their title names the task)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                title = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if title.startswith(b"ray::_run_chunk"):
                found.append(int(entry.name))
    return found


def test_a_worker_killed_from_outside_changes_nothing(ray_instance: Any) -> None:
    """A running worker's process is found and killed while a tournament runs on Ray."""
    bots = ["heuristic", "random"]
    expected = run_tournament("classic", bots, 40, 11, workers=1)
    out: dict[str, Any] = {}
    runner = threading.Thread(
        target=lambda: out.update(result=run_tournament("classic", bots, 40, 11, workers=2, ray="local"))
    )
    runner.start()
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and runner.is_alive() and time.monotonic() < deadline:
        pids = ray_task_pids()
        if pids:
            killed = pids[0]
            os.kill(killed, 9)
        time.sleep(0.02)
    runner.join(120)
    assert killed is not None, "no Ray worker was seen running a chunk"
    assert steady(out["result"]) == steady(expected)


def test_without_ray_one_line_names_the_extra() -> None:
    blocked = (
        "import sys; sys.modules['ray'] = None; from unokit.cli import main; "
        "sys.exit(main(['simulate', '--games', '1', '--engine', 'python', '--ray']))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2
    expected = "unokit: error: --ray needs Ray, which is not installed: pip install 'unokit[cluster]'"
    assert done.stderr.strip() == expected
    assert done.stdout == ""


def test_ctrl_c_on_ray_cancels_the_tasks_and_keeps_the_games_done() -> None:
    """A command on its own local Ray instance: the signal cancels the tasks, stops the instance
    (no Ray process is left), prints the partial results and exits 130."""
    argv = ["simulate", "--engine", "python", "--players", "2", "--scoring", "single-round", "--workers", "2"]
    code, result, took, left = interrupt([*argv, "--games", "1000000", "--ray"], signal.SIGINT, 1.5, running_task)
    assert code == 130
    assert result["partial"] is True and result["games_planned"] == 1_000_000
    assert 0 < result["games"] < 1_000_000 and sum(result["wins_by_seat"]) == result["games"]
    assert took < RAY_STOP_SECONDS
    assert left == []
