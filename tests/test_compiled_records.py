"""Records of compiled matches: a compiled match replayed in :class:`unokit.Game` with the compiled
engine's random results (format ``unokit-record/3``) ends as the compiled match did."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from unokit.analysis.samples import sample_indices
from unokit.analysis.tournament import FastBlock, play_fast_block
from unokit.cli import main
from unokit.engine.errors import RecordError
from unokit.engine.game import Game
from unokit.engine.record import FORMAT, SCRIPTED_FORMAT, dumps, load, replay, save, to_record
from unokit.engine.rules import Rules
from unokit.engine.scripted import ScriptedRandom

pytest.importorskip("numba", reason="the compiled engine needs the fast extra")

from unokit.fast import heuristic
from unokit.fast.engine import play_random_games
from unokit.fast.recording import bots_match, random_match, stats_match
from unokit.fast.stats import play_stats_games

MIXES: list[tuple[str, int, dict[str, Any]]] = [
    ("classic", 4, {}),
    ("space-jam", 3, {"jam_slam_chance": 0.8, "scoring": "single-round"}),
    ("all-wild", 4, {"forced_swap_final_card": "swaps", "target_score": 200}),
    ("wild-jackpot", 3, {"scoring": "single-round"}),
    ("wild-jackpot", 4, {"lever_weights": [0, 1, 1, 3, 3, 1], "teams": True, "scoring": "running-tally"}),
    ("classic", 4, {"stacking": "cross", "seven_swap": True, "zero_pass": True, "scoring": "single-round"}),
    ("classic", 3, {"jump_in": True, "multi_play": "number", "call_uno": True, "target_score": 150}),
    ("space-jam", 4, {"preset": "party", "scoring": "single-round"}),
    ("all-wild", 3, {"mercy": True, "mercy_limit": 10, "stacking": "up", "scoring": "knockout"}),
]
"""Every edition, and house rules that draw at random or ask out of turn."""


def replays_alike(game: Game) -> Game:
    """``game``'s record, through JSON and back, replayed: the same match, event for event."""
    record = to_record(game)
    assert record["format"] == SCRIPTED_FORMAT and record["random"] and isinstance(record["order_key"], int)
    assert json.loads(dumps(record)) == record  # the JSON round-trips
    again = replay(json.loads(dumps(record)))
    assert again.events == game.events and again.scores == game.scores and again.winner == game.winner
    assert again.history == game.history and again.order_key == game.order_key
    assert to_record(again) == record
    return again


@pytest.mark.parametrize(("edition", "players", "options"), MIXES)
def test_sampled_stats_matches_replay_to_the_compiled_result(
    edition: str, players: int, options: dict[str, Any]
) -> None:
    rules = Rules.from_dict(options)
    seats = [0, 2]  # heuristic bots there, random bots elsewhere
    out = play_stats_games(3, players, rules, seed=11, first=5, heuristic_seats=seats, edition=edition)
    for game_number in range(3):
        game = stats_match(players, rules, seed=11, index=5 + game_number, heuristic_seats=seats, edition=edition)
        rounds = int(out["rounds"][game_number])
        assert out["finished"][game_number] and game.is_over
        assert game.winner == out["winner"][game_number] and game.scores == out["scores"][game_number].tolist()
        assert game.round == rounds
        assert len(game.history) == out["per_round"][game_number, 0, :rounds].sum()  # the decisions
        replays_alike(game)


@pytest.mark.parametrize(("edition", "players", "options"), MIXES[:4])
def test_simulate_games_of_both_policies_replay_to_the_compiled_result(
    edition: str, players: int, options: dict[str, Any]
) -> None:
    rules = Rules.from_dict(options)
    for play, record in ((play_random_games, random_match), (heuristic.play_heuristic_games, bots_match)):
        out = play(2, players, rules, seed=4, first=9, edition=edition)
        for game_number in range(2):
            game = record(players, rules, seed=4, index=9 + game_number, edition=edition)
            assert game.is_over and len(game.history) == out["decisions"][game_number]
            assert game.winner == out["winner"][game_number] and game.scores == out["scores"][game_number].tolist()
            replays_alike(game)


def test_a_match_stopped_at_the_cap_is_recorded_as_far_as_it_went() -> None:
    rules = Rules()
    out = play_stats_games(1, 4, rules, seed=3, limit=40)
    game = stats_match(4, rules, seed=3, index=0, limit=40)
    assert not out["finished"][0] and not game.is_over and len(game.history) == 40
    replays_alike(game)


def test_a_scripted_game_clones_and_plays_on_alike() -> None:
    game = random_match(3, Rules(scoring="single-round"), seed=2, index=1)
    position = replay(to_record(game), upto=len(game.history) // 2)
    copy = position.clone()
    assert copy == position and copy.rng is not position.rng
    for seat, action in game.history[len(position.history) :]:
        position.apply(seat, action)
        copy.apply(seat, action)
    assert position.events == copy.events == game.events


def record_of(tmp_path: Path) -> dict[str, Any]:
    game = random_match(3, Rules(target_score=100), seed=8, index=0)
    save(game, tmp_path / "good.json")
    return load(tmp_path / "good.json")


def at_first_shuffle(change: Any) -> Any:
    """A change of a record's random results: ``change`` applied to the cards of its first shuffle."""

    def tamper(record: dict[str, Any]) -> list[Any]:
        results = [list(result) for result in record["random"]]
        first = next(i for i, (kind, _) in enumerate(results) if kind == "shuffle")
        results[first][1] = change(results[first][1])
        return results

    return tamper


def swap_two(cards: list[str]) -> list[str]:
    other = next(i for i, card in enumerate(cards) if card != cards[0])
    return [cards[other], *cards[1:other], cards[0], *cards[other + 1 :]]


TAMPERED: list[tuple[str, Any, str]] = [
    ("one result short", lambda r: r["random"][:-1], r"random result \d+: .* drawn after the last result"),
    ("one result more", lambda r: [*r["random"], ["randrange", [0]]], "hold 1 more than its game drew"),
    ("a card less", at_first_shuffle(lambda cards: cards[1:]), r"random result \d+: a shuffle of 108 cards met"),
    ("a card changed", at_first_shuffle(lambda cards: ["W", *cards[1:]]), r"random result \d+: a shuffle of 108"),
    ("another kind", lambda r: [["randrange", [1]], *r["random"][1:]], r"random result 0: a draw of \d cards met"),
    ("a bad card name", at_first_shuffle(lambda cards: ["R99", *cards[1:]]), r"random result \d+ \(shuffle\): "),
    ("a number for a card", at_first_shuffle(lambda cards: [5, *cards[1:]]), "5 is not a card name"),
    ("an unknown kind", lambda r: [["coin", [1]], *r["random"]], r"random result 0: must be \[kind, values\]"),
    ("not a list", lambda r: "shuffle", "'random' must be a list"),
    ("another deal", at_first_shuffle(swap_two), "does not replay"),
]
"""Changes of a record's random results, and the error each meets."""


@pytest.mark.parametrize(("what", "change", "message"), TAMPERED, ids=[t[0] for t in TAMPERED])
def test_a_tampered_script_is_refused_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, what: str, change: Any, message: str
) -> None:
    record = record_of(tmp_path)
    record["random"] = change(record)
    with pytest.raises(RecordError, match=message):
        replay(record)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(record))
    capsys.readouterr()
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and re.search(message, captured.err)


def test_the_formats_keep_their_fields_apart(tmp_path: Path) -> None:
    record = record_of(tmp_path)
    with pytest.raises(RecordError, match="belong to records of format"):
        replay({**record, "format": FORMAT})
    with pytest.raises(RecordError, match="holds its random results"):
        replay({key: value for key, value in record.items() if key != "random"})
    with pytest.raises(RecordError, match="order_key"):
        replay({**record, "order_key": -1})
    plain = to_record(Game("classic", 3, seed=1))
    assert plain["format"] == FORMAT and "random" not in plain and "order_key" not in plain


def test_the_engine_does_not_import_the_compiled_engine() -> None:
    code = (
        "import sys, unokit.engine.record, unokit.engine.scripted; "
        "sys.exit(any(name.startswith('unokit.fast') for name in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
    assert ScriptedRandom.__module__ == "unokit.engine.scripted"


def compiled_stats_result(seed: int, index: int, players: int, rules: Rules, bots: str) -> tuple[int, list[int]]:
    seats = None if bots == "heuristic" else []
    out = play_stats_games(1, players, rules, seed=seed, first=index, heuristic_seats=seats)
    return int(out["winner"][0]), out["scores"][0].tolist()


def replay_shows(capsys: pytest.CaptureFixture[str], path: Path) -> str:
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "the compiled engine's random results" in out.splitlines()[0]
    return out


def test_stats_on_the_compiled_engine_keeps_records(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    records = tmp_path / "records"
    argv = ["stats", "--games", "12", "--players", "3", "--bots", "heuristic", "--seed", "6", "--target", "150"]
    argv += ["--out", str(tmp_path / "report"), "--records", str(records), "--sample", "3"]
    for engine in ("fast", "auto"):  # auto: the compiled engine plays classic with heuristic bots
        assert main([*argv, "--engine", engine]) == 0
        assert f"3 records of sample matches written to {records}." in capsys.readouterr().out
        indices = sample_indices(6, 12, 3)
        assert sorted(p.name for p in records.iterdir()) == sorted(f"match-{i}.json" for i in indices)
        for index in indices:
            path = records / f"match-{index}.json"
            game = replay(load(path))
            winner, scores = compiled_stats_result(6, index, 3, Rules(target_score=150), "heuristic")
            assert game.is_over and game.winner == winner and game.scores == scores
            assert f"Seat {winner} wins the match" in replay_shows(capsys, path)


def test_simulate_and_tournament_on_the_compiled_engine_keep_records(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from unokit.analysis.simulate import simulate

    for policy in ("random", "heuristic"):
        folder = tmp_path / f"simulate-{policy}"
        argv = ["simulate", "--games", "5", "--players", "3", "--seed", "2", "--engine", "fast", "--policy", policy]
        assert main([*argv, "--records", str(folder), "--sample", "5"]) == 0
        assert f"5 records of sample games written to {folder}." in capsys.readouterr().out
        wins = [0, 0, 0]
        for index in range(5):
            game = replay(load(folder / f"match-{index}.json"))
            wins[game.winner] += 1
            replay_shows(capsys, folder / f"match-{index}.json")
        assert wins == simulate("classic", 3, 5, 2, engine="fast", policy=policy)["wins_by_seat"]
    folder = tmp_path / "tournament"
    rules = Rules(scoring="single-round")
    argv = ["tournament", "--bots", "heuristic,random,random", "--games", "9", "--seed", "3", "--engine", "fast"]
    assert main([*argv, "--scoring", "single-round", "--records", str(folder), "--sample", "4"]) == 0
    assert f"4 records of sample games written to {folder}." in capsys.readouterr().out
    kinds = ("heuristic", "random", "random")
    for index in sample_indices(3, 9, 4):
        deal, rotation = divmod(index, 3)
        block = FastBlock("classic", kinds, 3, rules, None, 30_000, rotation=rotation, first=deal, count=1)
        (played,) = play_fast_block(block)
        game = replay(load(folder / f"game-{index}.json"))
        assert played.index == index and game.is_over
        assert game.winner == played.winner and game.scores == played.scores
        replay_shows(capsys, folder / f"game-{index}.json")


def test_the_web_replay_steps_through_a_compiled_record() -> None:
    from unokit.i18n import catalog
    from unokit.web.messages import view_words
    from unokit.web.replays import MatchReplay

    game = stats_match(3, Rules(), seed=5, index=2)
    record = json.loads(dumps(to_record(game)))
    match = MatchReplay(record, ["bot", "bot", "bot"], positions=2)
    last = match.position(match.steps)
    assert last["finished"] and last["steps"] == len(game.history) > 200
    assert last["view"] == match.position(match.steps)["view"]
    for step in (match.steps // 2, 1, match.steps - 1, 70, 0):  # from checkpoints and kept positions (clones)
        position = match.position(step)
        expected = replay(record, upto=step)
        assert position["step"] == step and position["view"] == view_words(expected.view(None), catalog("en"))
        assert match.marks[step] == len(expected.events)
