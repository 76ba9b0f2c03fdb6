"""The speed bench against RLCard (``bench/vs_rlcard.py``, docs/rl.md) at a tiny size: RLCard really
seated at the table's size, and every case's figures consistent with each other."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("rlcard", reason="the bench compares against RLCard (the bench extra)")

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench" / "vs_rlcard.py"


def test_rlcard_is_forced_to_the_table_and_the_figures_agree() -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))
    options = ["--seconds", "0.05", "--rounds", "3", "--cases", "engine", "pettingzoo"]
    done = subprocess.run(
        [sys.executable, str(BENCH), *options], capture_output=True, text=True, timeout=300, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["rounds"] == 3
    for players in (2, 4):
        table = result[f"players_{players}"]
        assert table["rlcard_players"] == players  # dealt to every player, whatever make() seats
        assert table["rlcard_acting_seats"] == players  # and every one of them played
        cases = table["cases"]
        assert list(cases) == ["rlcard", "engine", "pettingzoo"]
        assert cases["rlcard"]["ratio"] == 1.0 and cases["rlcard"]["ratio_ci95"] == [1.0, 1.0]
        for row in cases.values():
            low, high = row["steps_per_s_range"]
            assert 0 < low <= row["steps_per_s"] <= high
            g_low, g_high = row["games_per_s_range"]
            assert 0 < g_low <= row["games_per_s"] <= g_high  # every window ends a game
            assert row["ratio_ci95"][0] <= row["ratio"] <= row["ratio_ci95"][1]
            assert row["steps_per_game"] > 1
        assert cases["rlcard"]["steps_per_game"] < cases["engine"]["steps_per_game"]  # RLCard's games are short
