"""``unokit sweep``: grids of rule sets on the same seeds, one row per cell, each compared with the baseline."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from unokit.analysis.sweep import cell_tokens, cells, parse_grid
from unokit.cli import main

ROOT = Path(__file__).resolve().parent.parent
QUICK = ["--engine", "python", "--bots", "heuristic", "--scoring", "single-round", "--workers", "1"]
"""Short matches: one round each, heuristic bots."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def measure(result: dict[str, Any], key: str) -> dict[str, Any]:
    return next(m for m in result["measures"] if m["key"] == key)


def test_cells_are_every_combination_first_axis_slowest() -> None:
    grid = parse_grid(["stacking=off,cross", "players=2,3", "bots=heuristic,heuristic/random"])
    combos = cells(grid)
    assert len(combos) == 8
    assert combos[0] == {"stacking": "off", "players": "2", "bots": "heuristic"}
    assert combos[1] == {"stacking": "off", "players": "2", "bots": "heuristic/random"}
    assert combos[-1] == {"stacking": "cross", "players": "3", "bots": "heuristic/random"}
    assert cell_tokens(combos[1]) == ["--rule", "stacking=off", "--players", "2", "--bots", "heuristic,random"]


def test_a_grid_on_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    code, text, err = run(
        capsys, "sweep", *QUICK, "--grid", "stacking=off,cross", "--grid", "players=2,3", "--games", "30",
        "--seed", "4", "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    assert f"Report written to {out / 'report.md'}, with 1 plot." in text
    result = json.loads((out / "result.json").read_text())
    names = [
        "stacking=off, players=2",
        "stacking=off, players=3",
        "stacking=cross, players=2",
        "stacking=cross, players=3",
    ]
    assert [s["name"] for s in result["setups"]] == names
    assert result["baseline"] == 0
    assert [s["players"] for s in result["setups"]] == [2, 3, 2, 3]
    assert result["setups"][2]["rules"] == {"scoring": "single-round", "stacking": "cross"}
    assert [m["key"] for m in result["measures"]][:2] == ["capped", "decisions_per_round"]
    first = measure(result, "first_player_win_rate")
    assert first["differences"][0] is None and all(d is not None for d in first["differences"][1:])
    assert result["tests"] == 3 * (len(result["measures"]))
    with open(out / "cells.csv", newline="") as file:
        rows = list(csv.DictReader(file))
    assert [r["cell"] for r in rows] == names
    assert [r["players"] for r in rows] == ["2", "3", "2", "3"]
    assert rows[0]["baseline"] == "True" and rows[1]["baseline"] == "False"
    assert float(rows[1]["decisions_per_round"]) == pytest.approx(
        measure(result, "decisions_per_round")["estimates"][1]["value"]
    )
    assert rows[1]["decisions_per_round_p"] and rows[0]["decisions_per_round_p"] == ""
    assert float(rows[1]["decisions_per_round_gain"]) > 0
    report = (out / "report.md").read_text()
    assert report.startswith("# Sweep over stacking (off, cross), players (2, 3)")
    assert "| stacking | players | capped | decisions per round | Δ, p |" in report
    assert "| **off** | **2** | 0 (0.00%) |" in report
    assert 'Shared by every cell: edition classic, heuristic bots, the python engine, scoring="single-round".' in report
    with Image.open(out / "sweep.png") as image:
        assert image.text["Description"] == "; ".join(names)  # type: ignore[attr-defined]


def test_a_toml_sweep_with_its_baseline_and_measures(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    config = tmp_path / "sweep.toml"
    config.write_text(
        'options = "--players 3 --bots heuristic --scoring single-round"\n'
        'measures = ["decisions_per_round", "first_player_win_rate"]\n'
        "[grid]\n"
        "target_score = [300, 500]\n"  # a target cannot matter in single-round matches
        'edition = ["classic", "all-wild"]\n'
        "[baseline]\n"
        "target_score = 500\n"
    )
    code, out, err = run(
        capsys, "sweep", "--engine", "python", "--workers", "1", "--config", str(config), "--games", "20", "--json"
    )
    assert code == 0, err
    result = json.loads(out)
    names = [s["name"] for s in result["setups"]]
    assert names[result["baseline"]] == "target_score=500, edition=classic"
    assert [m["key"] for m in result["measures"]] == ["decisions_per_round", "first_player_win_rate"]
    assert all(s["players"] == 3 for s in result["setups"])
    same = names.index("target_score=300, edition=classic")
    for m in result["measures"]:
        d = m["differences"][same]
        assert d["value"] == 0.0 and d["p"] == 1.0, "the same seeds and a change that cannot matter: exactly 0"
    wild = names.index("target_score=500, edition=all-wild")
    assert measure(result, "decisions_per_round")["differences"][wild]["value"] != 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--grid", "stacking"], "--grid takes NAME=VALUE,VALUE"),
        (["--grid", "colour=red,blue"], "unknown grid axis 'colour'"),
        (["--grid", "stacking=off,,cross"], "needs values separated by commas, none empty"),
        (["--grid", "stacking=off"], "a grid needs at least two cells"),
        (["--grid", "stacking=off,cross", "--grid", "stacking=off,cross"], "a grid axis is given twice"),
        (["--grid", "stacking=off,sideways"], "sideways"),
        (["--grid", "players=2,11"], "--players must be 2 to 10"),
        (["--grid", "stacking=off,cross", "--baseline", "stacking=plus"], "is not among the grid's values"),
        (["--grid", "stacking=off,cross", "--baseline", "players=3"], "not an axis of the grid"),
        (["--grid", "stacking=off,cross", "--measures", "luck"], "unknown measure 'luck'"),
        ([], "a sweep needs a grid"),
        (["--config", "missing.toml"], "cannot read missing.toml"),
    ],
)
def test_bad_grids_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, argv: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "sweep", *QUICK, "--games", "2", *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("unokit: error: ") and err.count("\n") == 1, err
    assert message in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[grid\nstacking = 1", "is not valid TOML"),
        ('options = "--players 3"\n', "needs a [grid] table"),
        ("[grid]\nstacking = 'off'\n", "must be a list of values"),
        ("[grid]\nstacking = ['off', 'cross']\n[other]\n", "unknown key 'other'"),
        ("options = '--bogus'\n[grid]\nstacking = ['off', 'cross']\n", "unrecognized arguments: --bogus"),
        ("[grid]\nstacking = ['off', 'cross']\nplayers = [[2]]\n", "a grid value is a string, a number"),
        ("measures = 3\n[grid]\nstacking = ['off', 'cross']\n", "measures must be a list"),
    ],
)
def test_bad_toml_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, message: str
) -> None:
    config = tmp_path / "sweep.toml"
    config.write_text(text)
    code, out, err = run(capsys, "sweep", *QUICK, "--games", "2", "--config", str(config))
    assert code == 2
    assert out == ""
    assert err.startswith("unokit: error: ") and err.count("\n") == 1, err
    assert message in err


def test_grid_and_config_together_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    config = tmp_path / "sweep.toml"
    config.write_text("[grid]\nstacking = ['off', 'cross']\n")
    code, _, err = run(capsys, "sweep", *QUICK, "--config", str(config), "--grid", "players=2,3")
    assert code == 2 and "not both" in err


def test_the_documented_toml_sweep_runs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The TOML example of docs/designers.md is a sweep the command accepts (its axes are real options)."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "designers.md").read_text(encoding="utf-8")
    example = text.split("```toml\n", 1)[1].split("```", 1)[0]
    config = tmp_path / "sweep.toml"
    config.write_text(example, encoding="utf-8")
    code = main(["sweep", "--config", str(config), "--games", "4", "--engine", "python", "--json"])
    assert code == 0, capsys.readouterr().err
    result = json.loads(capsys.readouterr().out)
    assert len(result["setups"]) == 4
