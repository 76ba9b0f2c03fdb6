"""Tournaments between bots: paired deals, rotated seats, Wilson intervals, the command line."""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from interrupt_support import processes_with_argument
from unokit.analysis.tournament import (
    deal_seed,
    plan_games,
    run_parallel,
    run_tournament,
    seating,
    wilson_interval,
)
from unokit.bots import make_bot, play_game
from unokit.cli import main
from unokit.engine.errors import SetupError, UnknownOptionError

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SINGLE = {"scoring": "single-round"}
TOP_KEYS = {
    "edition",
    "players",
    "bots",
    "games",
    "seed",
    "rules",
    "scoring",
    "workers",
    "seat_balanced",
    "unfinished",
    "rounds",
    "decisions",
    "elapsed_s",
    "expected_win_rate",
    "engine",
    "results",
}
KIND_KEYS = {
    "seats",
    "seats_held",
    "rounds",
    "round_wins",
    "round_win_rate",
    "round_win_ci95",
    "mean_points",
    "decisions",
    "mean_decision_s",
}
MATCH_KEYS = {"match_wins", "match_win_rate", "match_win_ci95"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def without_timings(result: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in result.items() if k not in ("elapsed_s", "workers")}
    out["results"] = {
        kind: {k: v for k, v in entry.items() if k != "mean_decision_s"} for kind, entry in result["results"].items()
    }
    return out


# ---------------------------------------------------------------- Wilson interval


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion", method 3.
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (29, 29, 0.8830, 1.0),
        (5, 10, 0.2366, 0.7634),
    ],
)
def test_wilson_interval_matches_published_values(successes: int, trials: int, low: float, high: float) -> None:
    got_low, got_high = wilson_interval(successes, trials)
    assert got_low == pytest.approx(low, abs=5e-5)
    assert got_high == pytest.approx(high, abs=5e-5)


def test_wilson_interval_edges_and_shape() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(0, 7)[0] == 0.0
    assert wilson_interval(7, 7)[1] == 1.0
    # Symmetric around one half, narrower with more trials, always holding the observed rate.
    low, high = wilson_interval(30, 60)
    assert low + high == pytest.approx(1.0)
    assert wilson_interval(300, 600)[1] - wilson_interval(300, 600)[0] < high - low
    for k, n in [(1, 3), (2, 50), (49, 50), (10, 11)]:
        lo, hi = wilson_interval(k, n)
        assert 0.0 <= lo < k / n < hi <= 1.0
    # A wider interval at 99%.
    assert wilson_interval(30, 60, z=2.5758)[0] < low
    with pytest.raises(ValueError):
        wilson_interval(5, 4)
    with pytest.raises(ValueError):
        wilson_interval(-1, 4)


# ---------------------------------------------------------------- seats and deals


def test_seating_rotates_the_bot_list() -> None:
    bots = ["a", "b", "c", "d"]
    assert seating(bots, 0) == bots
    assert seating(bots, 1) == ["d", "a", "b", "c"]
    assert seating(bots, 4) == bots
    # Over one rotation every bot holds every seat once.
    for seat in range(4):
        assert sorted(seating(bots, g)[seat] for g in range(4)) == bots


def test_games_of_one_rotation_share_their_deal() -> None:
    specs = plan_games("classic", ["heuristic", "random", "random"], 7, seed=5)
    assert [s.index for s in specs] == list(range(7))
    assert [s.seed for s in specs[:3]] == [deal_seed(5, 0)] * 3
    assert [s.seed for s in specs[3:6]] == [deal_seed(5, 1)] * 3
    assert specs[6].seed == deal_seed(5, 2)
    assert len({deal_seed(5, d) for d in range(3)}) == 3
    assert [s.kinds.index("heuristic") for s in specs] == [0, 1, 2, 0, 1, 2, 0]
    # Every bot has its own seed.
    assert len({seed for s in specs for seed in s.bot_seeds}) == 7 * 3


def test_each_kind_holds_each_seat_equally_often() -> None:
    result = run_tournament("classic", ["heuristic", "random", "random"], 6, seed=2, workers=1, rules=SINGLE)
    assert result["seat_balanced"] is True
    heuristic, rnd = result["results"]["heuristic"], result["results"]["random"]
    assert heuristic["seats_held"] == [2, 2, 2]
    assert rnd["seats_held"] == [4, 4, 4]
    assert (heuristic["seats"], rnd["seats"]) == (1, 2)
    assert heuristic["rounds"] == result["rounds"] == 6
    assert rnd["rounds"] == 12
    assert heuristic["round_wins"] + rnd["round_wins"] == result["rounds"]
    unbalanced = run_tournament("classic", ["heuristic", "random", "random"], 4, seed=2, workers=1, rules=SINGLE)
    assert unbalanced["seat_balanced"] is False
    assert unbalanced["results"]["heuristic"]["seats_held"] == [2, 1, 1]


def test_counts_agree_with_the_games_played() -> None:
    """Each game of the plan, played directly, adds up to the tournament's counts."""
    bots = ["heuristic", "random"]
    result = run_tournament("classic", bots, 4, seed=9, workers=1, rules={"target_score": 150})
    wins = {"heuristic": 0, "random": 0}
    points = {"heuristic": 0, "random": 0}
    matches = {"heuristic": 0, "random": 0}
    rounds = 0
    for spec in plan_games("classic", bots, 4, seed=9):
        table = [make_bot(k, seed=s, edition="classic") for k, s in zip(spec.kinds, spec.bot_seeds, strict=True)]
        game = play_game("classic", table, spec.seed, rules={"target_score": 150})
        rounds += game.rounds
        for seat, kind in enumerate(spec.kinds):
            wins[kind] += game.round_winners.count(seat)
            points[kind] += game.scores[seat]
            matches[kind] += game.winner == seat
    assert result["rounds"] == rounds
    for kind in bots:
        entry = result["results"][kind]
        assert entry["round_wins"] == wins[kind]
        assert entry["match_wins"] == matches[kind]
        assert entry["mean_points"] == pytest.approx(points[kind] / 4, abs=0.01)
        assert entry["round_win_rate"] == pytest.approx(wins[kind] / rounds, abs=1e-4)
        low, high = wilson_interval(wins[kind], rounds)
        assert entry["round_win_ci95"] == [round(low, 4), round(high, 4)]


# ---------------------------------------------------------------- reproducibility


def test_same_results_whatever_the_number_of_workers() -> None:
    args: dict[str, Any] = {"edition": "classic", "bots": ["heuristic", "random", "random"], "games": 9, "seed": 4}
    one = run_tournament(**args, workers=1, rules=SINGLE)
    two = run_tournament(**args, workers=2, rules=SINGLE)
    assert (one["workers"], two["workers"]) == (1, 2)
    assert without_timings(one) == without_timings(two)
    assert without_timings(run_tournament(**args, workers=1, rules=SINGLE)) == without_timings(one)
    other = run_tournament(**{**args, "seed": 5}, workers=1, rules=SINGLE)
    assert other["decisions"] != one["decisions"]


def test_run_parallel_keeps_the_order_and_reports_progress() -> None:
    seen: list[tuple[int, int]] = []
    items = list(range(-20, 20))
    assert run_parallel(abs, items, workers=2, progress=lambda d, t: seen.append((d, t))) == [abs(i) for i in items]
    assert seen[-1] == (40, 40)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    with pytest.raises(SetupError):
        run_parallel(abs, items, workers=0)


def test_heuristic_beats_random() -> None:
    result = run_tournament("classic", ["heuristic", "random"], 20, seed=0, workers=2, rules=SINGLE)
    heuristic = result["results"]["heuristic"]
    assert heuristic["round_wins"] >= 16
    assert heuristic["round_win_ci95"][0] > 0.5
    assert result["expected_win_rate"] == 0.5
    assert heuristic["mean_decision_s"] > 0


def test_stuck_matches_are_stopped_and_left_out() -> None:
    result = run_tournament("classic", ["random", "random"], 2, seed=0, workers=1, rules=SINGLE, max_decisions=3)
    assert result["unfinished"] == 2
    assert result["rounds"] == 0
    assert result["seat_balanced"] is False
    assert result["results"]["random"]["round_wins"] == 0
    assert result["results"]["random"]["seats_held"] == [0, 0]


def test_bad_set_ups_are_refused() -> None:
    with pytest.raises(UnknownOptionError, match="genius"):
        run_tournament("classic", ["genius", "random"], 2, seed=0, workers=1)
    with pytest.raises(UnknownOptionError):
        run_tournament("no-such-edition", ["random", "random"], 2, seed=0, workers=1)
    with pytest.raises(SetupError):
        run_tournament("classic", ["random"], 2, seed=0, workers=1)
    with pytest.raises(SetupError):
        run_tournament("classic", ["random", "random"], 0, seed=0, workers=1)
    with pytest.raises(SetupError):
        run_tournament("classic", ["random", "random"], 2, seed=0, workers=0)
    with pytest.raises(SetupError):
        run_tournament("classic", ["random", " "], 2, seed=0, workers=1)


def test_bot_options_reach_the_bots() -> None:
    with pytest.raises(UnknownOptionError, match="depth"):
        run_tournament("classic", ["random", "random"], 2, seed=0, workers=1, bot_options={"random": {"depth": 3}})


# ---------------------------------------------------------------- command line


def test_cli_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "tournament", "--bots", "heuristic,random", "--games", "4", "--target", "100", "--workers", "1"
    )
    assert code == 0, err
    assert "Tournament of classic, 2 players, 4 games, seed 0, target_score=100" in out
    assert "95% CI" in out and "match wins" in out
    rows = [
        line.split()
        for line in out.splitlines()
        if line.startswith("  ") and line.strip().endswith(tuple("0123456789"))
    ]
    assert [row[0] for row in rows] == ["heuristic", "random"]
    assert [row[1] for row in rows] == ["1", "1"]  # seats each
    assert "Equal bots would each win 50.0% of the rounds." in out


def test_cli_json_has_every_key(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--edition", "space-jam", "--bots", "random,heuristic,random", "--games", "3", "--json"]
    code, out, _ = run(capsys, *argv, "--scoring", "single-round", "--seed", "3")
    assert code == 0
    result = json.loads(out)
    assert set(result) == TOP_KEYS
    assert result["bots"] == ["random", "heuristic", "random"]
    assert (result["edition"], result["players"], result["games"], result["seed"]) == ("space-jam", 3, 3, 3)
    assert list(result["results"]) == ["random", "heuristic"]
    for entry in result["results"].values():
        assert set(entry) == KIND_KEYS
    code, out, _ = run(capsys, "tournament", "--bots", "random,heuristic", "--games", "2", "--json", "--target", "50")
    assert code == 0
    for entry in json.loads(out)["results"].values():
        assert set(entry) == KIND_KEYS | MATCH_KEYS
        assert 0 <= entry["match_win_ci95"][0] <= entry["match_win_rate"] <= entry["match_win_ci95"][1] <= 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "genius,random"], "unknown bot kind 'genius'"),
        (["--bots", "random"], "2 to 10 bot kinds"),
        (["--bots", "random,,random"], "separated by commas"),
        (["--bots", ",".join(["random"] * 11)], "2 to 10 bot kinds"),
        (["--bots", "random,random", "--games", "0"], "--games"),
        (["--bots", "random,random", "--workers", "0"], "--workers"),
        (["--bots", "random,random", "--max-decisions", "0"], "--max-decisions"),
        (["--bots", "random,random", "--scoring", "best-of-three"], "scoring"),
        (["--bots", "random,random", "--rule", "stacking=true"], "stacking"),
        (["--bots", "random,random", "--edition", "mystery"], "mystery"),
        (["--bots", "random,random", "--games", "many"], "invalid int"),
        ([], "--bots"),
    ],
)
def test_cli_refuses_bad_arguments(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, "tournament", "--games", "2", *argv)
    assert code == 2
    assert message in err
    assert out == ""


def test_cli_plot_writes_a_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "rates.png"
    code, out, err = run(
        capsys, "tournament", "--bots", "heuristic,random", "--games", "2", "--scoring", "single-round",
        "--plot", str(path), "--workers", "1",
    )  # fmt: skip
    assert code == 0, err
    assert f"Plot written to {path}" in out
    data = path.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) > 5000


def test_cli_plot_without_matplotlib_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    path = tmp_path / "rates.png"
    code, out, err = run(capsys, "tournament", "--bots", "random,random", "--games", "2", "--plot", str(path))
    assert code == 2
    assert "matplotlib" in err and "unokit[plot]" in err
    assert not path.exists()
    assert out == ""


def test_cli_reports_stopped_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "tournament", "--bots", "random,random", "--games", "2", "--max-decisions", "4", "--workers", "1"
    )
    assert code == 0
    assert "No game finished: all 2 stopped after 4 decisions, so there is no result." in out


def test_win_rates_lie_in_their_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tournament", "--bots", "heuristic,random,random,random", "--games", "4", "--json")
    assert code == 0
    result = json.loads(out)
    total = 0
    for entry in result["results"].values():
        low, high = entry["round_win_ci95"]
        assert low <= entry["round_win_rate"] <= high
        total += entry["round_wins"]
    assert total == result["rounds"]
    assert math.isclose(result["expected_win_rate"], 0.25)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the processes in /proc")
def test_ctrl_c_stops_at_once_prints_the_partial_results_and_leaves_no_worker(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import time

    seed = str(900_000_000 + os.getpid())  # marks this run's processes
    plot = tmp_path / "partial.png"
    argv = ["tournament", "--bots", "random,random", "--games", "100000", "--workers", "2", "--seed", seed]
    argv += ["--scoring", "single-round"]  # short games: chunks finish within the first seconds
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "src")}
    command = [sys.executable, "-m", "unokit.cli", *argv, "--plot", str(plot)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 60
    while len(processes_with_argument(seed)) < 3 and time.monotonic() < deadline:  # the command and its two workers
        time.sleep(0.1)
    time.sleep(2)  # some games finish
    child.send_signal(signal.SIGINT)
    stopped = time.monotonic()
    try:
        out, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        for pid in processes_with_argument(seed):
            os.kill(pid, signal.SIGKILL)
        raise
    assert time.monotonic() - stopped < 3, "Ctrl-C must stop the tournament within a second or two"
    assert child.returncode == 130, err
    assert "Traceback" not in err
    match = re.search(r"^Partial results: interrupted after (\d+) of 100000 games\.$", out, re.M)
    assert match and 0 < int(match[1]) < 100_000
    assert re.search(r"^  random +2 +\d+ +\d+ +\d+\.\d%", out, re.M)
    assert plot.stat().st_size > 0  # the plot asked for is drawn from the games finished
    time.sleep(0.5)
    left = processes_with_argument(seed)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], "no worker process is left behind"
