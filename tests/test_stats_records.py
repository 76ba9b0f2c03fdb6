"""``--records DIR --sample N``: whole records of sample matches that replay as they were played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from unokit.analysis.measures import Setup, play_matches
from unokit.analysis.samples import sample_indices
from unokit.cli import main
from unokit.engine.record import load, replay
from unokit.engine.rules import Rules


def test_stats_keeps_sample_records_that_replay_the_matches(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    records = tmp_path / "records"
    argv = ["stats", "--games", "8", "--players", "3", "--bots", "heuristic", "--engine", "python", "--seed", "6"]
    argv += ["--target", "100", "--workers", "2", "--out", str(tmp_path / "report"), "--records", str(records)]
    assert main([*argv, "--sample", "3"]) == 0
    assert "3 records of sample matches written to" in capsys.readouterr().out
    indices = sample_indices(6, 8, 3)
    assert sorted(p.name for p in records.iterdir()) == sorted(f"match-{i}.json" for i in indices)
    setup = Setup("classic", 3, ("heuristic",) * 3, Rules(target_score=100))
    for index in indices:
        game = replay(load(records / f"match-{index}.json"))
        played = play_matches(setup, seed=6, start=index, count=1)[0]
        assert game.is_over and played is not None
        assert list(game.scores) == played.scores  # type: ignore[attr-defined]
        assert game.round == len(played.round_winners)  # type: ignore[attr-defined]
    again = tmp_path / "again"
    argv[argv.index("--workers") + 1] = "1"
    argv[-1] = str(again)
    assert main([*argv, "--sample", "3"]) == 0  # the same matches and records, whatever the workers
    for index in indices:
        assert (again / f"match-{index}.json").read_bytes() == (records / f"match-{index}.json").read_bytes()


def test_records_refuse_bad_samples(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ["stats", "--games", "2", "--out", str(tmp_path / "r"), "--records", str(tmp_path / "rec")]
    assert main([*argv, "--engine", "python", "--sample", "0"]) == 2
    assert "--sample" in capsys.readouterr().err
    assert main(["stats", "--games", "2", "--out", str(tmp_path / "r"), "--sample", "2"]) == 2
    assert "--sample needs --records" in capsys.readouterr().err
    assert not (tmp_path / "r").exists() and not (tmp_path / "rec").exists()


def test_tournament_and_simulate_keep_sample_records(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from unokit.analysis.simulate import simulate
    from unokit.analysis.tournament import plan_games, play_one

    folder = tmp_path / "tournament"
    argv = ["tournament", "--bots", "heuristic,random", "--games", "6", "--seed", "3", "--workers", "1"]
    argv += ["--scoring", "single-round", "--records", str(folder), "--sample", "2"]
    assert main(argv) == 0
    assert f"2 records of sample games written to {folder}." in capsys.readouterr().out
    specs = plan_games("classic", ["heuristic", "random"], 6, 3, Rules(scoring="single-round"))
    for index in sample_indices(3, 6, 2):
        game = replay(load(folder / f"game-{index}.json"))
        assert game.is_over and game.winner == play_one(specs[index]).winner
    folder = tmp_path / "simulate"
    argv = ["simulate", "--games", "5", "--players", "3", "--seed", "2", "--engine", "python"]
    assert main([*argv, "--records", str(folder), "--sample", "5"]) == 0
    assert f"5 records of sample games written to {folder}." in capsys.readouterr().out
    assert main([*argv, "--json", "--records", str(folder), "--sample", "5"]) == 0
    json.loads(capsys.readouterr().out)  # one JSON object and nothing else
    wins = [0, 0, 0]
    for index in range(5):
        game = replay(load(folder / f"match-{index}.json"))
        for seat in game.team_seats(game.winner):
            wins[seat] += 1
    assert wins == simulate("classic", 3, 5, 2, engine="python")["wins_by_seat"]
