"""Records that start from a position, records cut into positions, and the command line's
``replay --cut`` and ``play --position``."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from unokit import Game
from unokit.cli import main
from unokit.editions import EDITIONS
from unokit.engine.errors import RecordError
from unokit.engine.positions import public_position
from unokit.engine.record import cut, dumps, replay, replay_steps, to_record
from unokit.engine.setup import set_up


def play_at_random(game: Game, seed: int, steps: int) -> Game:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        seat = rng.choice(game.deciders())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def random_record(edition: str, seed: int, steps: int = 90, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    game = Game(edition, 2 + seed % 3, seed=seed, rules=rules)
    return to_record(play_at_random(game, seed, steps))


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_a_record_of_a_set_up_game_starts_from_its_position_and_replays_exactly(edition: str) -> None:
    for seed in range(3):
        game = set_up(edition, 3, hands={0: 4, 1: "?2"}, turn=1, seed=seed)
        start = game.position(generator=False)  # the generator has drawn nothing yet: "random from seed"
        assert game.start_position == start and len(start) < 1200
        play_at_random(game, seed, 120)
        record = json.loads(dumps(to_record(game)))
        assert record["position"] == start
        assert (record["dealer"], record["deck"], record["rule_cards"]) == (None, None, None)
        replayed = replay(record)
        assert replayed.state_key() == game.state_key()
        assert replayed.history == game.history
        assert replayed.start_position == start
        assert to_record(replayed) == record  # a replayed game records the same


def test_a_record_of_a_loaded_position_starts_from_it() -> None:
    dealt = play_at_random(Game("classic", 3, seed=4), 4, 25)
    text = dealt.position()
    loaded = Game.from_position(text)
    record = to_record(play_at_random(loaded, 9, 40))
    assert record["position"] == text
    assert replay(record).state_key() == loaded.state_key()


@pytest.mark.parametrize("edition", sorted(EDITIONS))
@pytest.mark.parametrize("preset", [None, "house", "party"])
def test_cut_at_every_step_plays_on_to_the_record_s_end(edition: str, preset: str | None) -> None:
    for seed in range(2):
        record = random_record(edition, seed, steps=120, rules={"preset": preset} if preset else None)
        end = replay(record)
        actions = record["actions"]
        for step in range(len(actions) + 1):
            text = cut(record, step)
            game = Game.from_position(text)
            assert game.state_key() == replay(record, upto=step).state_key()
            for seat, notation in actions[step:]:
                game.apply_notation(seat, notation)
            assert game.state_key() == end.state_key(), (edition, seed, step)
        # a cut and the rest of the actions make a record of their own
        rest = {**record, "position": cut(record, 5), "actions": actions[5:], "deck": None, "dealer": None}
        rest.pop("round_results", None)
        rest["rule_cards"] = None
        assert replay(rest).state_key() == end.state_key()


def test_replay_steps_walks_the_record() -> None:
    record = to_record(play_at_random(set_up("space-jam", 3, hands={1: 3}, seed=6), 6, 50))
    steps = [(step, game.clone()) for step, game in replay_steps(record)]
    assert [step for step, _ in steps] == list(range(len(record["actions"]) + 1))
    for step, game in steps:
        assert game.state_key() == replay(record, upto=step).state_key()
    with pytest.raises(RecordError):
        next(replay_steps({**record, "actions": [[0, "R99"]]}))


def test_cut_with_house_rules_and_of_a_record_from_a_position() -> None:
    record = random_record("classic", 3, rules={"preset": "no-mercy"}, steps=60)
    end = replay(record)
    game = Game.from_position(cut(record, 30))
    for seat, notation in record["actions"][30:]:
        game.apply_notation(seat, notation)
    assert game.state_key() == end.state_key()
    start = set_up("classic", 2, hands={0: "R1 R2", 1: 3}, top="R5")
    on = to_record(play_at_random(start, 1, 10))
    assert start.start_position is not None
    assert Game.from_position(cut(on, 0)).state_key() == Game.from_position(start.start_position).state_key()


def test_cut_refuses_a_step_out_of_range() -> None:
    record = random_record("classic", 1, steps=10)
    for step in (-1, 11, "3", 2.0, True):
        with pytest.raises(RecordError, match=r"step must be a number from 0 to 10"):
            cut(record, step)  # type: ignore[arg-type]


def test_a_record_whose_position_disagrees_is_refused() -> None:
    game = set_up("classic", 3, seed=2)
    record = to_record(play_at_random(game, 2, 10))
    for key, value, words in (
        ("players", 4, "record 'players' is not the position's"),
        ("edition", "space-jam", "record 'edition' is not the position's"),
        ("rules", {"target_score": 100}, "record 'rules' is not the position's"),
        ("deck", ["R1"], "record 'deck' must be null"),
        ("dealer", 1, "record 'dealer' must be null"),
        ("position", 7, "record 'position' must be a position's text"),
        ("position", "nonsense", "record 'position': "),
    ):
        with pytest.raises(RecordError, match=words):
            replay({**record, key: value})


# ---------------------------------------------------------------- the command line


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_replay_cut_prints_the_position(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = random_record("wild-jackpot", 2, steps=40)
    path = tmp_path / "game.json"
    path.write_text(dumps(record), encoding="utf-8")
    for step in (0, 17, len(record["actions"])):
        code, out, err = run(capsys, "replay", str(path), "--cut", str(step))
        assert (code, err) == (0, "")
        assert out == cut(record, step) + "\n"
    code, out, _ = run(capsys, "replay", str(path))  # a record from a position replays in the open
    assert code == 0


@pytest.mark.parametrize(
    ("argument", "words"),
    [("x", "--cut takes a step number"), ("-1", "--cut takes a step number"), ("999", "step must be a number")],
)
def test_replay_cut_bad_step_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argument: str, words: str
) -> None:
    path = tmp_path / "game.json"
    path.write_text(dumps(random_record("classic", 1, steps=10)), encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path), f"--cut={argument}")
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and words in err


def test_replay_of_a_record_from_a_position(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = play_at_random(set_up("classic", 3, hands={0: 2}, seed=5), 5, 30)
    path = tmp_path / "game.json"
    path.write_text(dumps(to_record(game)), encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0 and err == ""
    assert f"From the position {game.start_position}" in out


def test_play_from_a_position_and_print_the_public_position(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game = set_up("classic", 3, hands={0: "R1 R2 G5", 1: 2, 2: 4}, top="R7", turn=0, seed=3)
    text = game.position()
    record_path = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("position\nR1\nquit\n"))
    code = main(["play", "--position", text, "--seed", "3", "--record", str(record_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert public_position(game, 0) in out.splitlines()
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert record["position"] == text
    assert record["actions"][0] == [0, "R1"]
    replay(record)


def test_play_from_a_public_position(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    game = set_up("classic", 2, hands={0: "B1 B2", 1: 5}, top="B7", turn=0, seed=8)
    public = public_position(game, 0)
    monkeypatch.setattr("sys.stdin", io.StringIO("position\nquit\n"))
    code = main(["play", "--position", public, "--seed", "4"])
    out = capsys.readouterr().out
    assert code == 0
    assert public in out.splitlines()  # what you may know is the same, whatever was dealt to the others


@pytest.mark.parametrize("text", ["", "unokit-position/1 nonsense", "x" * 5000])
def test_play_refuses_a_bad_position_in_one_line(capsys: pytest.CaptureFixture[str], text: str) -> None:
    code, _, err = run(capsys, "play", "--position", text)
    assert code == 2
    assert len(err.splitlines()) == 1 and err.startswith("unokit: error: ")
