"""``compare --rows`` and ``sweep --rows``: every match of every rule set as rows, named by ``setup``."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from unokit.analysis.compare import plan_chunks, play_chunk, play_chunk_rows, run_study, study_result
from unokit.analysis.measures import Setup
from unokit.analysis.rows import COLUMNS, RowWriter
from unokit.analysis.tournament import Interrupted
from unokit.cli import main
from unokit.engine.rules import Rules

ROOT = Path(__file__).resolve().parent.parent

COMPARE = [
    "compare", "--engine", "python", "--players", "3", "--bots", "heuristic", "--target", "100",
    "--max-decisions", "150", "--games", "12", "--seed", "4", "--name", "plain",
    "--vs", "cross: --rule stacking=cross", "--json",
]  # fmt: skip
SWEEP = [
    "sweep", "--engine", "python", "--bots", "heuristic", "--scoring", "single-round", "--grid",
    "stacking=off,cross", "--grid", "players=2,3", "--measures", "all", "--games", "6", "--seed", "2", "--json",
]  # fmt: skip


def load(path: Path) -> list[dict[str, Any]]:
    if path.suffix == ".parquet":
        table = pq.read_table(path)
        assert table.column_names == [name for name, _ in COLUMNS]
        rows: list[dict[str, Any]] = table.to_pylist()
        return rows
    with path.open(encoding="utf-8", newline="") as lines:
        return [{k: number(v) for k, v in row.items()} for row in csv.DictReader(lines)]


def number(text: str) -> int | str | None:
    """A CSV cell as the Parquet file holds it: an integer, a text or empty (``None``)."""
    return int(text) if text.lstrip("-").isdigit() else text or None


def measure(result: dict[str, Any], key: str, setup: int) -> float:
    row = next(m for m in result["measures"] if m["key"] == key)
    value: float = row["estimates"][setup]["value"]
    return value


def check_against_result(rows: list[dict[str, Any]], result: dict[str, Any]) -> None:
    """The rows of each rule set count its matches and rounds and give the report's figures."""
    names = [s["name"] for s in result["setups"]]
    assert {row["setup"] for row in rows} == set(names)
    matches = [row for row in rows if row["level"] == "match"]
    # match order, then rule-set order: the same match number pairs the rule sets
    assert [(row["match"], row["setup"]) for row in matches] == [
        (index, name) for index in range(result["games"]) for name in names
    ]
    for i, name in enumerate(names):
        own = [row for row in matches if row["setup"] == name]
        capped = sum(row["capped"] for row in own)
        assert capped == round(measure(result, "capped", i) * len(own))
        rounds = [row for row in rows if row["level"] == "round" and row["setup"] == name]
        finished = [row for row in own if not row["capped"]]
        assert len(rounds) == sum(row["rounds"] for row in finished)
        assert sum(row["rounds"] for row in finished) / len(finished) == measure(result, "rounds_per_match", i)
        assert sum(row["decisions"] for row in rounds) / len(rounds) == measure(result, "decisions_per_round", i)
        first = [row for row in rounds if row["first_player"] is not None]
        wins = sum(row["winner"] == row["first_player"] for row in first) / len(first)
        assert wins == pytest.approx(measure(result, "first_player_win_rate", i), abs=1e-12)
        seats = [row for row in rows if row["level"] == "seat" and row["setup"] == name]
        assert len(seats) == result["setups"][i]["players"] * len(rounds)


@pytest.mark.parametrize("name", ["rows.parquet", "rows.csv"])
def test_compare_rows_give_each_rule_sets_figures(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    path = tmp_path / name
    assert main([*COMPARE, "--workers", "1", "--rows", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    rows = load(path)
    assert result["rows"] == {"file": str(path), "rows": len(rows)}
    check_against_result(rows, result)
    assert {row["rules"] for row in rows} == {'{"target_score": 100}', '{"stacking": "cross", "target_score": 100}'}
    assert any(row["capped"] for row in rows if row["level"] == "match")  # a capped match has its row too


def test_compare_rows_are_the_same_for_any_number_of_workers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    results = []
    for workers in ("1", "2"):
        assert main([*COMPARE, "--workers", workers, "--rows", str(tmp_path / f"{workers}.csv")]) == 0
        results.append(json.loads(capsys.readouterr().out))
    assert (tmp_path / "1.csv").read_bytes() == (tmp_path / "2.csv").read_bytes()
    assert results[0]["measures"] == results[1]["measures"]
    assert main([*COMPARE, "--workers", "2"]) == 0  # without rows: the same figures
    assert json.loads(capsys.readouterr().out)["measures"] == results[0]["measures"]


@pytest.mark.parametrize("name", ["rows.parquet", "rows.csv"])
def test_sweep_rows_name_every_cell(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    assert main([*SWEEP, "--workers", "2", "--rows", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    rows = load(path)
    assert len(result["setups"]) == 4
    check_against_result(rows, result)
    for setup in result["setups"]:  # the cell's players in its rows
        assert {row["players"] for row in rows if row["setup"] == setup["name"]} == {setup["players"]}


def test_a_study_with_rows_keeps_its_sums_on_the_compiled_engine(tmp_path: Path) -> None:
    """On the compiled engine rows take the per-match path; the sums stay those of the arrays."""
    setups = [
        Setup("classic", 3, ("heuristic",) * 3, Rules(scoring="single-round"), engine="fast"),
        Setup("classic", 3, ("heuristic",) * 3, Rules(scoring="single-round", stacking="cross"), engine="fast"),
    ]
    spec = plan_chunks(setups, 40, seed=3, workers=1)[0]
    sums, rows = play_chunk_rows(spec)
    assert sums.sums == play_chunk(spec).sums
    assert len([row for row in rows if row["level"] == "match"]) == 2 * spec.count
    with RowWriter(tmp_path / "rows.parquet") as writer:
        with_rows = run_study(setups, 130, seed=3, workers=1, rows=writer)
    plain = run_study(setups, 130, seed=3, workers=1)
    assert study_result(with_rows)["measures"] == study_result(plain)["measures"]
    loaded = load(tmp_path / "rows.parquet")
    assert [row["match"] for row in loaded if row["level"] == "match"] == [i // 2 for i in range(260)]
    check_against_result(loaded, study_result(with_rows))


@pytest.mark.parametrize("argv", [COMPARE, SWEEP])
def test_a_rows_file_is_checked_before_playing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    out = ["--out", str(tmp_path / "report")]
    assert main([*argv, *out, "--rows", str(tmp_path / "missing" / "rows.csv")]) == 2
    err = capsys.readouterr().err
    assert "--rows" in err and len(err.strip().splitlines()) == 1 and not (tmp_path / "report").exists()
    assert main([*argv, *out, "--rows", str(tmp_path / "rows.txt")]) == 2
    assert ".parquet or .csv" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    assert main([*argv, *out, "--rows", str(tmp_path / "rows.parquet")]) == 2
    err = capsys.readouterr().err
    assert "pyarrow" in err and "unokit[data]" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "report").exists() and not (tmp_path / "rows.parquet").exists()


def test_an_interrupted_study_writes_the_rows_of_the_matches_it_played(tmp_path: Path) -> None:
    """Ctrl-C in the middle: the rows of the chunks finished are written, their matches those of the sums."""
    setups = [
        Setup("classic", 2, ("heuristic",) * 2, Rules(scoring="single-round"), engine="python"),
        Setup("classic", 2, ("heuristic",) * 2, Rules(scoring="single-round", stacking="cross"), engine="python"),
    ]

    def progress(done: int, _total: int) -> None:
        if done >= 8:
            raise KeyboardInterrupt  # as Ctrl-C does, after the first chunks

    path = tmp_path / "rows.csv"
    with RowWriter(path) as writer, pytest.raises(Interrupted) as stop:
        run_study(setups, 400, seed=1, workers=1, progress=progress, rows=writer)
    study = stop.value.partial
    assert study.partial and 8 <= study.games < 400
    matches = [row for row in load(path) if row["level"] == "match"]
    assert [row["match"] for row in matches] == [i // 2 for i in range(2 * study.games)]


def test_compare_rows_on_ray_are_those_of_the_local_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The chunks' rows come back from Ray tasks and are placed by their index: the same file."""
    from unokit.analysis import parallel

    if parallel.import_ray().is_initialized():
        parallel.stop_ray()
    parallel.connect_ray("local", 2)
    try:
        assert main([*COMPARE, "--workers", "2", "--ray", "--rows", str(tmp_path / "ray.csv")]) == 0
        on_ray = json.loads(capsys.readouterr().out)
    finally:
        parallel.stop_ray()
    assert main([*COMPARE, "--workers", "1", "--rows", str(tmp_path / "local.csv")]) == 0
    local = json.loads(capsys.readouterr().out)
    assert (tmp_path / "ray.csv").read_bytes() == (tmp_path / "local.csv").read_bytes()
    assert on_ray["measures"] == local["measures"] and on_ray["games"] == 12


def test_ctrl_c_keeps_the_rows_of_the_matches_finished(tmp_path: Path) -> None:
    """Ctrl-C on the command: exit 130, and a readable Parquet file of the matches the partial result counts."""
    path = tmp_path / "rows.parquet"
    argv = ["compare", "--engine", "python", "--players", "2", "--bots", "heuristic", "--scoring", "single-round"]
    argv += ["--games", "1000000", "--workers", "2", "--seed", "8", "--json", "--rows", str(path)]
    argv += ["--vs", "cross: --rule stacking=cross"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    child = subprocess.Popen(
        [sys.executable, "-m", "unokit.cli", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    time.sleep(8)  # the workers start and some chunks finish
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        raise
    assert child.returncode == 130, err
    result = json.loads(out)
    assert result["partial"] and 0 < result["games"] < 1_000_000
    rows = load(path)
    assert result["rows"]["rows"] == len(rows)
    matches = [row for row in rows if row["level"] == "match"]
    assert len(matches) == 2 * result["games"]
    assert [row["match"] for row in matches] == sorted(row["match"] for row in matches)  # in match order
    assert [row["setup"] for row in matches[:2]] == [s["name"] for s in result["setups"]]
