"""The ``unokit`` command line: simulate, play (driven through stdin) and replay."""

from __future__ import annotations

import doctest
import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from unokit import Game, events
from unokit.cli import Narrator, describe_action, main
from unokit.errors import UnoError
from unokit.record import load, replay, to_record
from unokit.simulate import game_seed, simulate

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = ("classic", "space-jam", "all-wild")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def without_elapsed(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if "elapsed" not in line)


# ---------------------------------------------------------------- simulate


def test_simulate_prints_a_readable_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "--edition", "classic", "--players", "3", "--games", "4", "--seed", "7")
    assert code == 0
    expected = simulate("classic", 3, 4, 7)
    assert "Simulated 4 games of classic, 3 players" in out
    assert re.search(rf"^\s*rounds\s+{expected['rounds']}$", out, re.M)
    assert re.search(rf"^\s*decisions\s+{expected['decisions']}$", out, re.M)
    assert re.search(rf"^\s*mean decisions per game\s+{expected['mean_decisions_per_game']}$", out, re.M)
    assert re.search(r"^\s*elapsed\s+[0-9.]+ s$", out, re.M)
    rows = re.findall(r"^\s+(\d+)\s+(\d+)\s+(\d+)$", out, re.M)
    assert [[int(x) for x in row] for row in rows] == [
        [seat, expected["wins_by_seat"][seat], expected["points_by_seat"][seat]] for seat in range(3)
    ]
    assert err == ""  # no progress bar when stderr is not a terminal


def test_simulate_json_is_one_object_with_the_counts(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("simulate", "--edition", "space-jam", "--players", "4", "--games", "3", "--seed", "11", "--json")
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == ""
    assert out.count("\n") == 1
    data = json.loads(out)
    for key in ("edition", "players", "games", "seed", "decisions", "wins_by_seat", "elapsed_s"):
        assert key in data
    assert (data["edition"], data["players"], data["games"], data["seed"]) == ("space-jam", 4, 3, 11)
    assert sum(data["wins_by_seat"]) == 3 and len(data["wins_by_seat"]) == 4
    assert data["decisions"] > 0 and data["rounds"] >= 3
    assert data["mean_decisions_per_game"] == round(data["decisions"] / 3, 2)
    assert data["elapsed_s"] >= 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_simulate_same_seed_same_output(capsys: pytest.CaptureFixture[str], edition: str) -> None:
    argv = ["simulate", "--edition", edition, "--players", "3", "--games", "2", "--seed", "5"]
    first = run(capsys, *argv)[1]
    second = run(capsys, *argv)[1]
    assert without_elapsed(first) == without_elapsed(second)
    other = run(capsys, *argv[:-1], "6")[1]
    assert without_elapsed(other) != without_elapsed(first)
    one = json.loads(run(capsys, *argv, "--json")[1])
    two = json.loads(run(capsys, *argv, "--json")[1])
    del one["elapsed_s"], two["elapsed_s"]
    assert one == two


def test_simulate_passes_rule_options_to_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--players", "4", "--games", "5", "--seed", "3", "--scoring", "single-round", "--json"]
    data = json.loads(run(capsys, *argv)[1])
    assert data["rules"] == {"scoring": "single-round"}
    assert data["rounds"] == 5  # one round per game
    assert data["points_by_seat"] == [0, 0, 0, 0]
    argv = ["simulate", "--players", "2", "--games", "2", "--seed", "3", "--target", "50", "--json"]
    data = json.loads(run(capsys, *argv)[1])
    assert data["rules"] == {"target_score": 50}
    assert data == {**simulate("classic", 2, 2, 3, {"target_score": 50}), "elapsed_s": data["elapsed_s"]}


def test_simulate_library_function_counts_every_action() -> None:
    result = simulate("all-wild", 3, 2, 9)
    decisions = 0
    rounds = 0
    for index in range(2):
        seed = game_seed(9, index)
        game = Game("all-wild", 3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = rng.choice(game.deciders()) if len(game.deciders()) > 1 else game.deciders()[0]
            legal = game.legal_actions(seat)
            game.apply(seat, legal[0] if len(legal) == 1 else rng.choice(legal))
        decisions += len(game.history)
        rounds += game.round
    assert (result["decisions"], result["rounds"]) == (decisions, rounds)
    calls: list[tuple[int, int]] = []
    simulate("classic", 2, 3, 1, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]
    with pytest.raises(UnoError):
        simulate("classic", 2, 0, 1)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--edition", "uno-flip"], "unknown edition 'uno-flip'"),
        (["--players", "1"], "players must be from 2 to 10"),
        (["--players", "11"], "players must be from 2 to 10"),
        (["--rule", "stacking=true"], "unknown rule option 'stacking'"),
        (["--scoring", "highest"], "rule option 'scoring'"),
        (["--target", "0"], "target_score"),
        (["--games", "0"], "--games must be at least 1"),
        (["--rule", "allow_bluff"], "--rule takes NAME=VALUE"),
    ],
)
def test_bad_arguments_give_one_message_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, "simulate", "--games", "1", *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("unokit: error: ") and message in err
    assert "Traceback" not in err


@pytest.mark.parametrize("argv", [["play", "--edition", "nope"], ["play", "--players", "12"], ["replay"], []])
def test_other_bad_commands_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and "error" in err and "Traceback" not in err


# ---------------------------------------------------------------- play


def play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, script: str, *argv: str
) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    code = main(["play", *argv])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out


class Player:
    """Answers prompts by looking at what the game printed since the last answer."""

    def __init__(self, out: io.StringIO, decide: Callable[[str], str], limit: int = 5000) -> None:
        self.out = out
        self.decide = decide
        self.seen = 0
        self.limit = limit

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        text = self.out.getvalue()
        new, self.seen = text[self.seen :], len(text)
        self.limit -= 1
        return "" if self.limit < 0 else self.decide(new) + "\n"


def play_with(monkeypatch: pytest.MonkeyPatch, decide: Callable[[str], str], *argv: str) -> tuple[int, str]:
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stdin", Player(out, decide))
    code = main(["play", *argv])
    return code, out.getvalue()


def test_play_always_choosing_option_1_finishes_and_records(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    argv = ["--edition", "classic", "--players", "3", "--seed", "4", "--scoring", "single-round", "--record", str(path)]
    code, out = play(capsys, monkeypatch, "1\n" * 3000, *argv, "--name", "Ann")
    assert code == 0
    assert "Classic UNO: you (Ann, seat 0) against 2 bots." in out
    assert "Your hand (7): " in out and "Top card: " in out and "Others: Bot 1 " in out
    assert "play goes clockwise" in out and "draw pile " in out and "turn: " in out
    assert re.search(r"^\s+1\) \S+\s+(play|draw|choose|call|catch|challenge|accept|keep)", out, re.M)
    assert "Your turn: play a card or draw." in out
    assert re.search(r"^(You|Bot [12]) wins? the match after 1 round!", out, re.M)
    assert f"Record saved to {path}." in out
    record = load(path)
    assert record["names"] == ["Ann", "Bot 1", "Bot 2"]
    game = replay(record)
    assert game.is_over
    winner_line = re.search(r"^(You|Bot [12]) wins? the match", out, re.M)
    assert winner_line is not None
    assert winner_line.group(1) == ("You" if game.winner == 0 else f"Bot {game.winner}")
    # Every card played is told in words.
    played = [text for _, text in record["actions"] if re.fullmatch(r"[RYGB]?[^-=@a-z]*!?", text)]
    told = re.findall(r"^(?:You play|Bot \d plays) (\S+) \(", out, re.M)
    assert told == [text.rstrip("!") for text in played]
    # The same seed and the same answers give the same game.
    path2 = tmp_path / "again.json"
    again = play(capsys, monkeypatch, "1\n" * 3000, *argv[:-1], str(path2), "--name", "Ann")[1]
    assert load(path2) == record
    assert again.replace(str(path2), "X") == out.replace(str(path), "X")


@pytest.mark.parametrize("edition", EDITIONS)
def test_play_never_shows_other_hands(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, edition: str) -> None:
    path = tmp_path / "game.json"
    code, out = play_with(
        monkeypatch,
        lambda text: "1",
        "--edition",
        edition,
        "--players",
        "4",
        "--seed",
        "2",
        "--target",
        "60",
        "--record",
        str(path),
    )
    assert code == 0
    game = replay(load(path))
    assert game.is_over
    # Bots' deals and draws are told without the cards; their hands appear only when a round is counted.
    assert re.search(r"^Bot \d is dealt 7 cards\.$", out, re.M)
    assert not re.search(r"^Bot \d is dealt 7 cards:", out, re.M)
    assert re.search(r"^Bot \d draws \d+ cards?\.$", out, re.M)
    assert not re.search(r"^Bot \d draws \d+ cards?:", out, re.M)
    assert re.search(r"^You are dealt 7 cards: ", out, re.M)
    assert re.search(r"^You draw \d+ cards?: ", out, re.M)
    for match in re.finditer(r"^Bot (\d)'s hand is shown to (\w+)", out, re.M):
        line = out[match.start() : out.index("\n", match.start())]
        assert (":" in line) == (match.group(2) == "you")


def test_bad_input_gets_the_engines_reason_and_the_prompt_again(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "quit.json"
    script = "zz\n99\n-R7\n\nhelp\nquit\n"
    code, out = play(capsys, monkeypatch, script, "--players", "3", "--seed", "8", "--record", str(path))
    assert code == 0
    game = replay(load(path))  # the game as it stood at the prompt: bad input changed nothing
    assert not game.is_over and 0 in game.deciders()
    assert "Not possible: not an action: 'zz'" in out
    assert re.search(r"No move 99: choose from 1 to \d+\.", out)
    with pytest.raises(UnoError) as illegal:
        game.apply_notation(0, "-R7")
    assert f"Not possible: {illegal.value}" in out
    assert "Type the number of a move or the move itself" in out
    assert "How to play" in out and "catch@2" in out
    assert "You leave the game." in out
    assert "Record saved to" in out and "(match not finished)" in out
    prompts = re.findall(r"^Move \(1-?\d*, notation, help, quit\): ", out, re.M)
    assert len(prompts) == 6  # one per answer: every bad answer is asked again


def test_end_of_input_leaves_cleanly(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = play(capsys, monkeypatch, "", "--edition", "all-wild", "--players", "2", "--seed", "1")
    assert code == 0
    assert "End of input: leaving the game." in out
    code, out = play(capsys, monkeypatch, "1\n1\n", "--players", "2", "--seed", "1")
    assert code == 0 and out.rstrip().endswith("End of input: leaving the game.")


def test_you_are_offered_to_catch_a_bot_and_bots_catch_and_call(monkeypatch: pytest.MonkeyPatch) -> None:
    offered = caught = 0
    bots_caught = bots_called = False
    for seed in range(12):

        def decide(text: str) -> str:
            match = re.search(r"^\s+(\d+)\) catch@\d", text, re.M)
            return match.group(1) if match else "1"

        code, out = play_with(monkeypatch, decide, "--players", "4", "--seed", str(seed), "--scoring", "single-round")
        assert code == 0 and "the match after" in out
        offered += len(re.findall(r"did not call UNO\. Choose a move, or press Enter", out))
        caught += len(re.findall(r"^You catch Bot \d without UNO!$", out, re.M))
        bots_caught |= bool(re.search(r"^Bot \d catches (you|Bot \d) without UNO!$", out, re.M))
        bots_called |= bool(re.search(r"^Bot \d calls UNO!$", out, re.M))
        if caught and bots_caught and bots_called:
            break
    assert offered > 0 and caught > 0
    assert bots_caught and bots_called


def test_you_are_always_asked_before_a_catch_chance_closes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def decide(text: str) -> str:
        match = re.search(r"^\s+(\d+)\) catch@\d", text, re.M)
        return match.group(1) if match else "1"

    chances = 0
    for seed in range(10):
        path = tmp_path / f"{seed}.json"
        argv = ["--players", "4", "--seed", str(seed), "--scoring", "single-round", "--record", str(path)]
        assert play_with(monkeypatch, decide, *argv)[0] == 0
        record = load(path)
        game = replay(record, upto=0)
        for seat, text in record["actions"]:
            you_could_catch = any(game.actions.format(a).startswith("catch@") for a in game.legal_actions(0))
            if you_could_catch:
                chances += 1
                # Only a bot's call or catch may come before yours; never the next turn.
                assert seat == 0 or text == "uno" or text.startswith("catch@"), (seed, text)
            game.apply_notation(seat, text)
        if chances >= 3:
            break
    assert chances > 0


def test_enter_lets_play_go_on_when_you_may_only_interrupt(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = 0

    def decide(text: str) -> str:
        nonlocal asked
        if "press Enter to let play go on" in text:
            asked += 1
            return ""
        return "1"

    for seed in range(12):
        code, out = play_with(monkeypatch, decide, "--players", "3", "--seed", str(seed), "--scoring", "single-round")
        assert code == 0 and "the match after" in out
        assert "You catch" not in out and "You call UNO" not in out
        if asked:
            break
    assert asked > 0


# ---------------------------------------------------------------- replay


def recorded_game(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    argv = ["--edition", "space-jam", "--players", "3", "--seed", "6", "--scoring", "single-round"]
    code, _ = play(capsys, monkeypatch, "1\n" * 3000, *argv, "--record", str(path))
    assert code == 0


def test_replay_shows_every_action_and_what_followed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    recorded_game(capsys, monkeypatch, path)
    record = load(path)
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0 and err == ""
    shown = re.findall(r"^#(\d+) (.+?): (\S+)$", out, re.M)
    names = record["names"]
    assert [(int(i), n, t) for i, n, t in shown] == [
        (index, names[seat], text) for index, (seat, text) in enumerate(record["actions"], 1)
    ]
    # A finished record is shown in full: every hand dealt, every card drawn.
    assert re.search(r"^Bot 1 is dealt 7 cards: ", out, re.M)
    assert re.search(r"^Player is dealt 7 cards: ", out, re.M)
    assert re.search(r"wins? the match after 1 round!", out)
    game = replay(record)
    assert f"{names[game.winner]} wins the match" in out


def test_replay_step_waits_for_enter(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    recorded_game(capsys, monkeypatch, path)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\nq\n"))
    code, out, _ = run(capsys, "replay", str(path), "--step")
    assert code == 0
    assert re.findall(r"^#(\d+) ", out, re.M) == ["1", "2"]
    assert out.count("[Enter: action") == 3


def test_replay_of_an_unfinished_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = Game("all-wild", 2, seed=3)
    for _ in range(3):
        game.apply(game.actor, game.legal_actions(game.actor)[0])
    path = tmp_path / "short.json"
    path.write_text(json.dumps(to_record(game)))
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert re.findall(r"^#(\d+) Seat \d: ", out, re.M) == ["1", "2", "3"]
    assert "End of record after 3 actions: the match is not finished." in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read record"),
        ("not json", "cannot read record"),
        ("[1, 2]", "a record is a JSON object"),
        ('{"format": "other"}', "record format must be"),
        (
            '{"format": "unokit-record/1", "edition": "classic", "players": 2, "seed": 1, "actions": [[0, "R99"]]}',
            "does not replay",
        ),
    ],
)
def test_replay_of_a_bad_file_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str | None, message: str
) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and out == ""
    assert err.startswith("unokit: error: ") and message in err and err.count("\n") == 1


# ---------------------------------------------------------------- words


EVENT_KINDS = set(re.findall(r"^([a-z_]+) {2,}", events.__doc__ or "", re.M)) - {"kind"}
NOT_IN = {
    "classic": {"jam", "discard", "target", "swap"},
    "space-jam": {"target", "swap"},
    "all-wild": {"dealer_draw", "return", "colour", "challenge", "reveal", "verdict", "accept", "jam", "discard"},
}


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_event_and_action_has_words(edition: str) -> None:
    assert len(EVENT_KINDS) == 25
    expected = EVENT_KINDS - NOT_IN[edition]
    names = ["Ann", "Bob", "Cy"]
    narrator = Narrator(names, you=0)
    kinds: set[str] = set()
    for seed in range(21, 60):
        game = Game(edition, 3, seed=seed, rules={"target_score": 200})
        rng = random.Random(seed)
        while not game.is_over:
            seat = rng.choice(game.deciders())
            for action in game.legal_actions(seat):
                words = describe_action(game, action, names)
                assert words and words != game.actions.format(action)
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        for event in game.events:
            line = narrator.event(event)
            assert line is not None
            text = "".join(part if isinstance(part, str) else part[0] for part in line)
            assert not text.startswith(f"{event[0]} "), text
            assert "Ann" not in text  # seat 0 is "you"
            kinds.add(event[0])
        if kinds >= expected:
            break
    assert kinds >= expected


# ---------------------------------------------------------------- README


def test_readme_example() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```pycon\n(.*?)```", text, re.S)
    assert blocks, "README.md has no pycon example"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README.md example {number + 1}", "README.md", 0)
        assert test.examples
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0
