"""``--rows``: one row per round and per match, streamed to Parquet or CSV, loadable in one line."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from unokit.analysis.rows import COLUMNS, FLUSH_ROWS, RowWriter
from unokit.analysis.stats import collect
from unokit.cli import main
from unokit.engine.errors import SetupError


@pytest.mark.parametrize("name", ["rows.parquet", "rows.csv"])
def test_rows_load_back_with_the_right_counts(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    with RowWriter(path) as writer:
        stats = collect(
            "classic", 3, 10, seed=3, bot="heuristic", workers=2, rules={"target_score": 100}, max_decisions=100,
            rows=writer,
        )  # fmt: skip
    if name.endswith(".parquet"):
        table = pq.read_table(path)
        assert table.column_names == [column for column, _ in COLUMNS]
        rows = table.to_pylist()
    else:
        with path.open(encoding="utf-8", newline="") as lines:
            rows = list(csv.DictReader(lines))
    matches = [row for row in rows if row["level"] == "match"]
    rounds = [row for row in rows if row["level"] == "round"]
    assert [int(row["match"]) for row in matches] == list(range(10))  # in match order
    assert sum(int(row["capped"]) for row in matches) == stats.unfinished > 0
    assert len(rounds) == stats.rounds
    finished = [row for row in matches if int(row["capped"]) == 0]
    assert sum(int(row["rounds"]) for row in finished) == stats.rounds
    assert sum(int(row["decisions"]) for row in rounds) == sum(int(row["decisions"]) for row in finished)
    assert sum(int(row["decisions"]) for row in rounds) == sum(v * c for v, c in stats.decisions_per_round.items())
    wins = [0, 0, 0]
    for row in rounds:
        wins[(int(row["winner"]) - int(row["dealer"])) % 3] += 1
    assert wins == stats.wins_by_position
    assert {row["setup"] for row in rows} == {"classic, 3p, heuristic, target_score=100"}
    assert {row["rules"] for row in rows} == {'{"target_score": 100}'}
    seats = [row for row in rows if row["level"] == "seat"]
    assert len(seats) == 3 * stats.rounds
    assert sum(int(row["won"]) for row in seats) == stats.rounds  # one winner per round, no teams
    for key in ("played_skip", "played_wild", "skipped", "caught"):  # attribution, from the seat rows
        marked = [row for row in seats if int(row[f"mark_{key}"])]
        assert (sum(int(row["won"]) for row in marked), len(marked)) == stats.tally.totals(f"mark_{key}")
        assert sum(int(row[f"mark_{key}"]) for row in rounds) == len(marked)
    assert {row["position"] for row in seats} == {"dealer", "dealer +1", "dealer +2"}
    for row in finished:  # the final scores: the winner's is the highest
        scores = [int(s) for s in str(row["scores"]).split()]
        assert scores[int(row["winner"])] == max(scores) >= 100


def test_rows_are_written_in_batches(tmp_path: Path) -> None:
    path = tmp_path / "rows.parquet"
    writer = RowWriter(path)
    writer.write([{"level": "round", "match": i} for i in range(FLUSH_ROWS - 5)])
    assert writer.rows_written == 0  # buffered
    writer.write([{"level": "round", "match": i} for i in range(10)])
    assert writer.rows_written == FLUSH_ROWS + 5  # a batch went out
    writer.write([{"level": "match", "match": 0}])
    writer.close()
    assert pq.ParquetFile(path).metadata.num_row_groups == 2 and pq.read_table(path).num_rows == FLUSH_ROWS + 6


def test_rows_file_names_and_a_missing_pyarrow(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SetupError, match=r"\.parquet or \.csv"):
        RowWriter(tmp_path / "rows.txt")
    argv = ["stats", "--games", "1", "--out", str(tmp_path / "r")]
    assert main([*argv, "--rows", str(tmp_path / "missing" / "rows.csv")]) == 2
    assert "--rows" in capsys.readouterr().err and not (tmp_path / "r").exists()
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    assert main([*argv, "--rows", str(tmp_path / "rows.parquet")]) == 2
    err = capsys.readouterr().err
    assert "pyarrow" in err and "unokit[data]" in err and not (tmp_path / "r").exists()


def test_simulate_writes_the_rows_of_its_games(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from unokit.analysis.simulate import simulate

    path = tmp_path / "rows.csv"
    argv = ["simulate", "--games", "4", "--players", "3", "--seed", "2", "--engine", "python", "--rows", str(path)]
    assert main([*argv, "--records", str(tmp_path / "records"), "--sample", "1"]) == 0
    out = capsys.readouterr().out
    assert f"Rows of the 4 games written to {path}." in out and "1 record of sample games" in out
    with path.open(encoding="utf-8", newline="") as lines:
        rows = list(csv.DictReader(lines))
    result = simulate("classic", 3, 4, 2, engine="python")
    matches = [row for row in rows if row["level"] == "match"]
    rounds = [row for row in rows if row["level"] == "round"]
    assert len(matches) == 4 and len(rounds) == result["rounds"]
    assert sum(int(row["decisions"]) for row in rounds) == result["decisions"]
    wins = [0, 0, 0]
    for row in matches:
        wins[int(row["winner"])] += 1
    assert wins == result["wins_by_seat"]
    assert {row["setup"] for row in rows} == {"simulate: classic, 3p, random policy"}
    assert main(["simulate", "--games", "2", "--engine", "fast", "--rows", str(tmp_path / "no.csv")]) == 2
    assert "simulate --rows plays the games again in the Python engine" in capsys.readouterr().err
    assert not (tmp_path / "no.csv").exists()


def test_the_play_columns_are_the_measures_keys() -> None:
    """Every special card kind has its column, named as its measure (``plays_<kind>``)."""
    from unokit.analysis.measures import plays_key
    from unokit.analysis.rows import COLUMNS
    from unokit.analysis.stats import SPECIAL_KINDS

    columns = [name for name, _type in COLUMNS if name.startswith("plays_")]
    assert columns == [plays_key(kind) for kind in SPECIAL_KINDS]
