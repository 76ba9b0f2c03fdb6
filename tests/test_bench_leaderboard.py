"""The leaderboard (``bench/leaderboard.py``, docs/baselines.md) end to end at a tiny size: every agent
seated where it plays, the report's structure, and figures that agree with each other."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("rlcard", reason="the leaderboard needs the bench extra (rlcard)")
pytest.importorskip("torch", reason="the leaderboard trains RLCard's DQN with torch (the train extra)")
pytest.importorskip("openskill", reason="the leaderboard rates with openskill (the bench extra)")

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench" / "leaderboard.py"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("leaderboard")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))
    options = ["--games", "4", "--fast-games", "8", "--rr-games", "4", "--dqn-episodes", "2"]
    options += ["--ismcts-iterations", "10", "--editions", "classic", "all-wild", "--workers", "2"]
    options += ["--out", str(out / "baselines.md"), "--json", str(out / "baselines.json")]
    done = subprocess.run(
        [sys.executable, str(BENCH), *options], capture_output=True, text=True, timeout=900, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads((out / "baselines.json").read_text())
    result["markdown"] = (out / "baselines.md").read_text()
    result["stderr"] = done.stderr
    return result


def test_every_agent_is_seated_where_it_plays(report: dict[str, Any]) -> None:
    tables = {(t["edition"], t["players"]): t for t in report["tables"]}
    assert set(tables) == {("classic", 2), ("classic", 4), ("all-wild", 2)}
    classic = {"random", "heuristic", "ismcts", "rlcard-rule", "dqn"}
    assert classic <= set(tables["classic", 2]["agents"]) and classic <= set(tables["classic", 4]["agents"])
    wild = tables["all-wild", 2]
    assert {"random", "heuristic", "ismcts"} <= set(wild["agents"])
    assert {"rlcard-rule", "dqn"} <= set(wild["skipped"])  # Classic only, each with its reason
    assert all(wild["skipped"].values())
    if "learned" in report["agents"]:
        assert "learned" in tables["classic", 2]["agents"]
    else:  # left out with the reason printed
        assert report["left_out"]["learned"] and "learned: left out" in report["stderr"]
    assert [t["players"] for t in report["dqn_training"]] == [2, 4]


def _check_rate(entry: dict[str, Any]) -> None:
    rounds = entry["games"] - entry["unfinished"]
    assert entry["first_wins"] + entry["other_wins"] == rounds
    if rounds:
        assert entry["win_rate"] == round(entry["first_wins"] / rounds, 4)
        low, high = entry["ci95"]
        assert 0 <= low <= entry["win_rate"] <= high <= 1


def test_pairwise_counts_add_up_and_intervals_hold_the_estimate(report: dict[str, Any]) -> None:
    for entry in report["tables"]:
        agents, players = entry["agents"], entry["players"]
        pairs = len(agents) * (len(agents) - 1) // (2 if players == 2 else 1)
        assert len(entry["pairings"]) == pairs
        for pairing in entry["pairings"]:
            assert pairing["games"] % players == 0 and pairing["games"] >= 4  # whole rotations
            _check_rate(pairing)
            assert pairing["equal_win_rate"] == round(1 / players, 4)
            if pairing["games"] > pairing["unfinished"]:
                assert pairing["turns_per_round"] <= pairing["decisions_per_round"]
            compiled = pairing.get("compiled")
            if compiled is not None:
                assert {pairing["first"], pairing["other"]} == {"heuristic", "random"}
                assert (compiled["first"], compiled["other"]) == (pairing["first"], pairing["other"])
                assert compiled["games"] == 8
                _check_rate(compiled)
        if players == 2 and entry["edition"] == "classic":
            assert any("compiled" in p for p in entry["pairings"])


def test_ratings_come_from_every_game_rated(report: dict[str, Any]) -> None:
    for entry in report["tables"]:
        ratings = entry["ratings"]
        assert set(ratings) == set(entry["agents"])
        ordinals = [r["ordinal"] for r in ratings.values()]
        assert ordinals == sorted(ordinals, reverse=True)
        for r in ratings.values():
            assert r["ordinal"] == pytest.approx(r["mu"] - 3 * r["sigma"], abs=0.026)  # each rounded to 0.01
        if entry["players"] == 2:
            assert entry["rated_games"] == sum(p["games"] - p["unfinished"] for p in entry["pairings"])
        else:  # a round robin of every set of four different agents
            robin = entry["round_robin"]
            assert len(robin) == len(list(itertools.combinations(entry["agents"], 4)))
            assert entry["rated_games"] == sum(g["games"] - g["unfinished"] for g in robin)
            for group in robin:
                assert sum(group["wins"].values()) == group["games"] - group["unfinished"]
                assert set(group["wins"]) <= set(group["agents"])


def test_the_markdown_shows_the_command_and_every_table(report: dict[str, Any]) -> None:
    text = report["markdown"]
    assert text.startswith("# Baselines")
    assert report["command"].startswith("python bench/leaderboard.py --games 4") and report["command"] in text
    assert "seed 0" in text
    for title in ("## Classic UNO, 2 players", "## Classic UNO, 4 players", "## UNO All Wild, 2 players"):
        assert title in text
    assert text.count("| rank | agent | ordinal |") == 3
    assert "(compiled engine)" in text
