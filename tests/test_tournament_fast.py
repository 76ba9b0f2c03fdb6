"""``tournament --engine fast``: the compiled random and heuristic bots play the line-up, seats rotated
and deals paired as in Python; the same seed gives the same result, and the win rates agree with the
Python tournament's."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from unokit.analysis.simulate import fast_engine_plays
from unokit.analysis.tournament import run_tournament
from unokit.cli import main
from unokit.engine.errors import UnknownOptionError

pytestmark = pytest.mark.skipif(
    fast_engine_plays("classic", None) is not None, reason="the compiled engine needs the fast extra"
)
SINGLE = {"scoring": "single-round"}


def steady(result: dict[str, Any]) -> dict[str, Any]:
    out = {key: value for key, value in result.items() if key not in ("elapsed_s", "workers")}
    out["results"] = {
        kind: {key: value for key, value in entry.items() if key != "mean_decision_s"}
        for kind, entry in result["results"].items()
    }
    return out


def trials(result: dict[str, Any], kind: str, measure: str) -> tuple[int, int]:
    entry = result["results"][kind]
    if measure == "round":
        return entry["round_wins"], entry["rounds"]
    return entry["match_wins"], sum(entry["seats_held"])


def agree(a: dict[str, Any], b: dict[str, Any], kind: str, measure: str = "round") -> None:
    """The two tournaments' win rates of ``kind`` (of rounds, or of matches) differ by less than four
    standard errors."""
    wins_a, n_a = trials(a, kind, measure)
    wins_b, n_b = trials(b, kind, measure)
    pooled = (wins_a + wins_b) / (n_a + n_b)
    error = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    assert abs(wins_a / n_a - wins_b / n_b) < 4 * error + 1e-9, (kind, wins_a, n_a, wins_b, n_b)


def test_the_compiled_tournament_agrees_with_the_python_one() -> None:
    bots = ["heuristic", "random", "random", "random"]
    python = run_tournament("classic", bots, 400, 1, workers=2, rules=SINGLE)
    fast = run_tournament("classic", bots, 4000, 1, rules=SINGLE, engine="fast")
    assert python["engine"] == "python" and fast["engine"] == "fast"
    assert fast["games"] == 4000 and fast["seat_balanced"] and fast["unfinished"] == 0
    assert fast["results"]["heuristic"]["seats_held"] == [1000, 1000, 1000, 1000]
    agree(python, fast, "heuristic")
    agree(python, fast, "random")
    assert fast["results"]["heuristic"]["round_win_rate"] > 0.5  # far above the 25% of equal bots
    assert fast["results"]["heuristic"]["decisions"] is None  # not counted per bot on the compiled engine
    assert fast["decisions"] > 0


def test_matches_of_several_rounds_count_every_round() -> None:
    bots = ["heuristic", "random", "random"]
    rules = {"target_score": 150}
    python = run_tournament("classic", bots, 60, 2, workers=2, rules=rules)
    fast = run_tournament("classic", bots, 900, 2, rules=rules, engine="fast")
    assert fast["rounds"] > fast["games"]
    assert fast["results"]["heuristic"]["rounds"] == fast["rounds"]  # one heuristic seat plays every round
    agree(python, fast, "heuristic")
    agree(python, fast, "heuristic", "match")


def test_the_same_seed_gives_the_same_result_whatever_the_threads() -> None:
    bots = ["heuristic", "random", "random"]
    one = run_tournament("space-jam", bots, 301, 5, workers=1, rules=SINGLE, engine="fast")
    again = run_tournament("space-jam", bots, 301, 5, workers=2, rules=SINGLE, engine="fast")
    assert steady(one) == steady(again)
    assert not one["seat_balanced"]  # 301 is not a multiple of 3
    other = run_tournament("space-jam", bots, 301, 6, workers=2, rules=SINGLE, engine="fast")
    assert steady(other) != steady(one)


def test_a_bot_the_compiled_engine_lacks_is_refused_or_left_to_python(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(UnknownOptionError, match="random and heuristic bots, not ismcts"):
        run_tournament("classic", ["ismcts", "random"], 2, 0, engine="fast")
    code = main(["tournament", "--bots", "ismcts,random", "--games", "2", "--engine", "fast"])
    assert code == 2
    assert "the compiled engine has the random and heuristic bots, not ismcts" in capsys.readouterr().err
    auto = run_tournament("classic", ["learned", "random"], 2, 0, workers=1, rules=SINGLE, engine="auto")
    assert auto["engine"] == "python"
    assert run_tournament("classic", ["random", "heuristic"], 2, 0, rules=SINGLE, engine="auto")["engine"] == "fast"


def test_the_command_plays_on_the_compiled_engine(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--bots", "heuristic,random", "--games", "40", "--scoring", "single-round", "--seed", "3"]
    assert main([*argv, "--engine", "fast"]) == 0
    text = capsys.readouterr().out
    assert "on the compiled engine (unokit.fast)" in text
    assert main([*argv, "--engine", "fast", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["engine"] == "fast" and result["games"] == 40
    assert steady(result) == steady(
        run_tournament("classic", ["heuristic", "random"], 40, 3, rules=SINGLE, engine="fast")
    )
