"""The ``unokit`` command line: simulate, play (driven through stdin) and replay."""

from __future__ import annotations

import doctest
import io
import json
import random
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from unokit import Game, get_edition
from unokit.analysis.simulate import game_seed, random_move, simulate
from unokit.cli import Narrator, describe_action, main
from unokit.cli.replay import MAX_RECORD_BYTES
from unokit.editions.rulecards import GRAMMAR, SUGGESTIONS, read_rule
from unokit.editions.wild_jackpot import WildJackpot
from unokit.engine import events
from unokit.engine.cards import card_name
from unokit.engine.errors import UnoError
from unokit.engine.record import load, replay, to_record
from unokit.engine.rules import LEVER_OUTCOMES, PRESETS

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = ("classic", "space-jam", "all-wild", "wild-jackpot")
MARKUP_RULE = "Make a [bold]x[/bold] <script> face"
EVERY_VERB_RULES = (
    "Draw 2 cards",
    "Draw until you have 7 cards",
    "Discard 1 card",
    "Discard until you have 2 cards",
    "Play as many cards in a row as you can",
    "Play all of your Wild cards",
    "Skip your next turn",
    "Reverse",
    "Give 2 cards to the player on your left",
    "Take 2 cards from the player with the most cards",
    "Swap hands with a player of your choice",
    "Everyone draws 1 card",
    "Everyone discards 1 card",
    MARKUP_RULE,
)
"""Rule cards with every verb the language enforces, and an honour task written in markup."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def without_elapsed(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if "elapsed" not in line)


# ---------------------------------------------------------------- simulate


def test_simulate_prints_a_readable_summary(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("simulate", "--edition", "classic", "--players", "3", "--games", "4", "--seed", "7", "--engine", "python")
    code, out, err = run(capsys, *argv)
    assert code == 0
    expected = simulate("classic", 3, 4, 7)
    assert "Simulated 4 games of classic, 3 players" in out
    assert re.search(r"^\s*engine\s+Python \(unokit.Game\), random policy$", out, re.M)
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
    for engine in ("python", "fast"):
        data = json.loads(run(capsys, *argv, "--engine", engine)[1])
        assert data["rules"] == {"target_score": 50} and data["engine"] == engine
        expected = simulate("classic", 2, 2, 3, {"target_score": 50}, engine=engine)
        assert data == {**expected, "elapsed_s": data["elapsed_s"]}


def test_simulate_runs_on_the_compiled_engine_where_it_can(capsys: pytest.CaptureFixture[str]) -> None:
    """``--engine auto`` (the default) takes the compiled engine for Classic with the sheet's options,
    the Python engine for anything else; ``--engine fast`` refuses what it cannot play."""
    argv = ["simulate", "--players", "3", "--games", "300", "--seed", "2", "--json"]
    data = json.loads(run(capsys, *argv)[1])
    assert (data["engine"], data["policy"]) == ("fast", "random")
    assert sum(data["wins_by_seat"]) == 300 and min(data["wins_by_seat"]) > 50
    assert all(points >= 500 * 30 for points in data["points_by_seat"])  # every match is played to 500
    assert data == {**json.loads(run(capsys, *argv, "--engine", "fast")[1]), "elapsed_s": data["elapsed_s"]}
    mercy = json.loads(run(capsys, "simulate", "--players", "3", "--games", "3", "--json", "--preset", "no-mercy")[1])
    assert mercy["engine"] == "fast"  # every rule option plays compiled with the random policy
    house = json.loads(run(capsys, "simulate", "--players", "3", "--games", "3", "--json", "--preset", "house")[1])
    assert house["engine"] == "fast"
    code, out, err = run(capsys, *argv, "--engine", "fast", "--rule", 'deck={"R1": 300}')
    assert code == 2 and out == ""
    assert err == "unokit: error: the compiled engine holds decks of up to 256 cards, not 300\n"
    merciful = json.loads(run(capsys, *argv, "--policy", "heuristic", "--preset", "no-mercy")[1])
    assert (merciful["engine"], merciful["policy"]) == ("fast", "heuristic")  # the compiled bots play mercy too
    jackpot = ["simulate", "--edition", "wild-jackpot", "--games", "40", "--json", "--policy", "heuristic"]
    heuristic = json.loads(run(capsys, *jackpot)[1])  # auto: the compiled heuristic bot plays Wild Jackpot
    assert (heuristic["engine"], heuristic["policy"]) == ("fast", "heuristic") and heuristic["rounds"] >= 40
    assert sum(heuristic["lever_outcomes"].values()) > 0 and heuristic["rule_cards_performed"]["enforced"] > 0
    stacked = json.loads(run(capsys, "simulate", "--games", "40", "--json", "--rule", "stacking=cross")[1])
    assert stacked["engine"] == "fast" and stacked["rules"]["stacking"] == "cross"  # a house rule it plays
    for edition in ("space-jam", "all-wild", "wild-jackpot"):  # the other editions the compiled engine plays
        jam = json.loads(run(capsys, "simulate", "--edition", edition, "--games", "50", "--json")[1])
        assert jam["engine"] == "fast" and sum(jam["wins_by_seat"]) == 50 and jam["rounds"] >= 50
    code, out, err = run(capsys, "simulate", "--engine", "turbo")
    assert code == 2 and "turbo" in err


def test_simulate_plays_wild_jackpot_compiled_with_its_rule_cards_and_lever(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The compiled engine's report counts the lever's outcomes and the rule cards performed, reads
    ``lever_weights`` and plays the rule cards of ``--rules-file``."""
    argv = ["simulate", "--edition", "wild-jackpot", "--players", "4", "--games", "200", "--seed", "3", "--json"]
    data = json.loads(run(capsys, *argv)[1])
    assert data["engine"] == "fast" and data["rule_cards"] is None
    pulls = list(data["lever_outcomes"].values())
    assert list(data["lever_outcomes"]) == list(LEVER_OUTCOMES) and min(pulls) > 0.12 * sum(pulls)
    performed = data["rule_cards_performed"]
    assert performed["enforced"] > performed["honour"] > 0  # the suggestions: five enforced, three honour tasks
    left = json.loads(run(capsys, *argv, "--rule", "lever_weights=[0,0,1,0,0,0]")[1])["lever_outcomes"]
    assert left["left"] > 0 and sum(left.values()) == left["left"]
    path = tmp_path / "rules.txt"
    path.write_text("Draw 2 cards\nSwap hands with any player\n", encoding="utf-8")
    written = json.loads(run(capsys, *argv, "--rules-file", str(path))[1])
    assert written["rule_cards"] == ["Draw 2 cards", "Swap hands with any player"]
    assert written["rule_cards_performed"]["honour"] == 0 < written["rule_cards_performed"]["enforced"]
    assert written["engine"] == "fast" and written["decisions"] != data["decisions"]
    heuristic = json.loads(run(capsys, *argv, "--rules-file", str(path), "--policy", "heuristic")[1])
    assert (heuristic["engine"], heuristic["policy"], heuristic["rule_cards"]) == (
        "fast",
        "heuristic",
        written["rule_cards"],
    )
    assert heuristic["rule_cards_performed"]["honour"] == 0 < heuristic["rule_cards_performed"]["enforced"]


def test_a_preset_is_applied_then_changed_rule_by_rule(capsys: pytest.CaptureFixture[str]) -> None:
    """``--preset NAME`` starts from a set of house rules; ``--rule``, ``--target`` and ``--scoring`` change it."""
    argv = ["simulate", "--players", "3", "--games", "3", "--seed", "4", "--json", "--preset", "party"]
    data = json.loads(run(capsys, *argv)[1])
    assert data["rules"] == PRESETS["party"]
    changed = json.loads(run(capsys, *argv, "--rule", "draw_to_match=false", "--scoring", "running-tally")[1])
    assert changed["rules"] == {**PRESETS["house"], "scoring": "running-tally"}
    code, out, err = run(capsys, "simulate", "--games", "1", "--preset", "madness")
    assert code == 2 and out == ""
    known = "official, house, party, no-mercy, teams, chaos"
    assert err.strip() == f"unokit: error: unknown preset 'madness'; known: {known}"


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


def jackpot_counts(
    players: int, games: int, seed: int, rule_cards: list[str] | None = None
) -> tuple[list[int], dict[str, int]]:
    """Lever outcomes and rule cards performed, counted from the games' own events."""
    levers = [0] * len(LEVER_OUTCOMES)
    performed = {"enforced": 0, "honour": 0}
    for index in range(games):
        this_seed = game_seed(seed, index)
        game = Game("wild-jackpot", players, seed=this_seed, rule_cards=rule_cards)
        rng = random.Random(this_seed)
        while not game.is_over:
            game.apply(*random_move(game, rng))
        for kind, _, value, _ in game.events:
            if kind == "lever":
                levers[value - 1] += 1
            elif kind == "rule":
                performed["enforced" if read_rule(game.extra["texts"][value]).enforced else "honour"] += 1
    return levers, performed


def test_simulate_wild_jackpot_counts_lever_outcomes_and_rule_cards(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "simulate",
        "--edition",
        "wild-jackpot",
        "--players",
        "3",
        "--games",
        "3",
        "--seed",
        "4",
        "--engine",
        "python",
    ]
    levers, performed = jackpot_counts(3, 3, 4)
    assert sum(levers) > 0 and performed["enforced"] > 0 and performed["honour"] > 0
    data = json.loads(run(capsys, *argv, "--json")[1])
    assert list(data["lever_outcomes"]) == list(LEVER_OUTCOMES)
    assert list(data["lever_outcomes"].values()) == levers
    assert data["rule_cards_performed"] == performed
    assert data["rule_cards"] is None  # drawn from the sheet's suggestions
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == ""
    assert "Simulated 3 games of wild-jackpot, 3 players" in out
    assert re.search(r"^\s*rule cards\s+the rule sheet's suggestions$", out, re.M)
    assert re.search(rf"^\s*lever pulls\s+{sum(levers)}$", out, re.M)
    for name, count in zip(LEVER_OUTCOMES, levers, strict=True):
        assert re.search(rf"^\s+{name}\s+{count}$", out, re.M), name
    assert re.search(rf"^\s*rule cards performed\s+{sum(performed.values())}$", out, re.M)
    assert re.search(rf"^\s+enforced\s+{performed['enforced']}$", out, re.M)
    assert re.search(rf"^\s+honour tasks\s+{performed['honour']}$", out, re.M)
    # Lever options reach the engine: every pull gives a rule card to the puller's left.
    data = json.loads(run(capsys, *argv, "--rule", "lever_weights=[0,0,1,0,0,0]", "--json")[1])
    assert data["rules"] == {"lever_weights": [0, 0, 1, 0, 0, 0]}
    outcomes = data["lever_outcomes"]
    assert outcomes["left"] > 0 and sum(outcomes.values()) == outcomes["left"]


def test_simulate_uses_the_rules_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "rules.txt"
    path.write_text("# house rules\n\n  Draw   2 cards \r\n   # not a rule\nReverse\n\n", encoding="utf-8")
    argv = [
        "simulate",
        "--edition",
        "wild-jackpot",
        "--players",
        "3",
        "--games",
        "2",
        "--seed",
        "8",
        "--engine",
        "python",
    ]
    data = json.loads(run(capsys, *argv, "--rules-file", str(path), "--json")[1])
    assert data["rule_cards"] == ["Draw 2 cards", "Reverse"]
    # Only the file's cards are performed: both are enforced, so no honour task (the suggestions have three).
    assert data["rule_cards_performed"]["enforced"] > 0 and data["rule_cards_performed"]["honour"] == 0
    levers, performed = jackpot_counts(3, 2, 8, rule_cards=["Draw 2 cards", "Reverse"])
    assert list(data["lever_outcomes"].values()) == levers and data["rule_cards_performed"] == performed
    expected = simulate("wild-jackpot", 3, 2, 8, rule_cards=["Draw 2 cards", "Reverse"])  # (engine python)
    assert data == {**expected, "elapsed_s": data["elapsed_s"]}
    default = json.loads(run(capsys, *argv, "--json")[1])
    assert default["decisions"] != data["decisions"]
    code, out, _ = run(capsys, *argv, "--rules-file", str(path))
    assert code == 0
    assert re.search(rf"^\s*rule cards\s+2 from {re.escape(str(path))}$", out, re.M)
    assert re.search(r"^\s+honour tasks\s+0$", out, re.M)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("Draw 2 cards\n\n" + "x" * 121 + "\n", "line 3: rule text is 121 characters long; a card holds at most 120"),
        ("# comment\nDraw 2\x07 cards\n", "line 2: rule text contains a control character (U+0007)"),
        ("Reverse\n\x1c\n", "line 2: rule text contains a control character (U+001C)"),
        ("Draw\u200b 2\n", "line 1: rule text contains a format character (U+200B)"),
        ("# only comments\n\n   \n", "holds no rule text"),
        (None, "cannot read rules file"),
        (b"\xff\xfe bad bytes\n", "cannot read rules file"),
    ],
)
@pytest.mark.parametrize("command", ["simulate", "play"])
def test_a_bad_rules_file_exits_2_naming_the_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, content: str | bytes | None, message: str
) -> None:
    path = tmp_path / "rules.txt"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    extra = ["--games", "1"] if command == "simulate" else []
    code, out, err = run(capsys, command, "--edition", "wild-jackpot", *extra, "--rules-file", str(path))
    assert code == 2 and out == ""
    assert err.startswith("unokit: error: ") and message in err and err.count("\n") == 1
    if "line" in message:
        assert f"rules file {path}, line" in err


@pytest.mark.parametrize("edition", ["classic", "space-jam", "all-wild"])
@pytest.mark.parametrize("command", ["simulate", "play"])
def test_rules_file_is_refused_for_editions_without_rule_cards(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, edition: str
) -> None:
    path = tmp_path / "rules.txt"
    path.write_text("Draw 2 cards\n", encoding="utf-8")
    code, out, err = run(capsys, command, "--edition", edition, "--rules-file", str(path))
    assert code == 2 and out == ""
    assert err == f"unokit: error: --rules-file is for wild-jackpot; {edition} has no rule cards\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--edition", "uno-flip"], "unknown edition 'uno-flip'"),
        (["--players", "1"], "players must be from 2 to 10"),
        (["--players", "11"], "players must be from 2 to 10"),
        (["--rule", "spinning=true"], "unknown rule option 'spinning'"),
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
    # Wild Jackpot: cards taken or given between bots stay hidden.
    for match in re.finditer(r"^Bot \d takes .* from (you|Bot \d)(.*)$", out, re.M):
        assert (":" in match.group(2)) == (match.group(1) == "you")
    assert all(line.endswith(" a card.") for line in re.findall(r"^Bot \d gives Bot \d .*$", out, re.M))


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
    assert str(illegal.value) == "-R7 is not legal: seat 0 is to play a card or draw; legal: R+2, W+4, draw"
    assert "Not possible: -R7 is not legal: you are to play a card or draw; legal: R+2, W+4, draw" in out  # to you
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


# ---------------------------------------------------------------- play UNO Wild Jackpot


def test_play_wild_jackpot_you_write_your_rule_cards(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "jackpot.json"
    argv = ["--edition", "wild-jackpot", "--players", "2", "--seed", "3", "--scoring", "single-round"]
    too_long = "x" * 121
    written = ["Draw 2 cards", "", too_long, "?", MARKUP_RULE, "  Reverse  "]
    script = "\n".join(written) + "\n" + "1\n" * 3000
    code, out = play(capsys, monkeypatch, script, *argv, "--record", str(path))
    assert code == 0
    # Four cards each with two players (8 // 2); each question shows a suggestion from the sheet.
    assert re.findall(r"^Rule card (\d) of 4 \(text, or Enter for the suggestion\): ", out, re.M) == [
        "1", "2", "3", "3", "3", "4"
    ]  # fmt: skip
    suggestions = re.findall(r"^Suggestion: (.+)$", out, re.M)
    assert len(suggestions) == 4 and set(suggestions) <= set(SUGGESTIONS)
    # A written card, then how it will be read.
    assert "\nRule card 1: Draw 2 cards\n  read as enforced: draw 2 cards\n" in out
    # Enter takes the suggestion shown.
    taken = suggestions[1]
    assert f"\nRule card 2: {taken}\n  read as {read_rule(taken).reading()}\n" in out
    # Too long: the reason, and the question again; ? shows the language.
    assert "Not possible: rule text is 121 characters long; a card holds at most 120. Write it again." in out
    assert "Rule card 3: " + too_long not in out
    assert GRAMMAR in out
    # Markup is plain text: printed as typed.
    assert f"\nRule card 3: {MARKUP_RULE}\n  read as honour task: everyone sees it and you confirm when done\n" in out
    assert "\nRule card 4: Reverse\n  read as enforced: reverse the direction of play\n" in out
    assert "The bots write 4 rule cards each. All 8 rule cards are shuffled into the dispenser." in out
    # The match is played with those cards, and the record replays it.
    record = load(path)
    assert record["rule_cards"][:4] == ["Draw 2 cards", taken, MARKUP_RULE, "Reverse"]
    assert len(record["rule_cards"]) == 8 and set(record["rule_cards"][4:]) <= set(SUGGESTIONS)
    game = replay(record)
    assert game.is_over and game.extra["texts"] == tuple(record["rule_cards"])
    winner = re.search(r"^(You|Bot 1) wins? the match after 1 round!", out, re.M)
    assert winner is not None and winner.group(1) == ("You" if game.winner == 0 else "Bot 1")
    # The same seed and answers give the same game, the bots' rule cards included.
    again = tmp_path / "again.json"
    play(capsys, monkeypatch, script, *argv, "--record", str(again))
    assert load(again) == record
    # The record replays in words, rule cards with their text.
    code, shown, err = run(capsys, "replay", str(path))
    assert code == 0 and err == ""
    performed = [e for e in game.events if e[0] == "rule"]
    told = re.findall(r'^(?:Player|Bot 1) performs a rule card: "(.+)" \((?:enforced|an honour task)', shown, re.M)
    assert told == [game.extra["texts"][e[2]] for e in performed]


def test_play_wild_jackpot_leaving_while_writing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "none.json"
    argv = ["--edition", "wild-jackpot", "--players", "3", "--seed", "1", "--record", str(path)]
    code, out = play(capsys, monkeypatch, "Draw 2 cards\n", *argv)
    assert code == 0
    assert out.rstrip().endswith("End of input: leaving the game.\nNo record saved: the match had not begun.")
    assert not path.exists()
    code, out = play(capsys, monkeypatch, "quit\n", *argv)
    assert code == 0 and "You leave the game." in out and "Rule card 1:" not in out


JACKPOT_WORDS = {
    "lever": r"^(You pull|Bot \d pulls) the lever: (choose a player|right|left|everyone|discard colours|draw four)"
    r"(\. (You choose|Bot \d chooses) who performs a rule card"
    r"|\. The player on (your|Bot \d's) (right|left) performs a rule card"
    r"|\. Every player performs a rule card"
    r"|\. (You|Bot \d) may discard up to one card of each colour)?\.$",
    "dispense": r"^(A rule card is dispensed to (you|Bot \d)|The dispenser is empty: no rule card for (you|Bot \d))\.$",
    "rule": r'^(You perform|Bot \d performs) a rule card: ".+" \((enforced: .+'
    r"|an honour task, not enforced: (you confirm|Bot \d confirms) when it is done)\)\.$",
    "rule_reshuffle": r"^The used rule cards \(\d+\) are shuffled back into the dispenser\.$",
    "run_end": r"^(You|Bot \d) can play no more cards in a row\.$",
    "lose_turn": r"^(You will lose your|Bot \d will lose their) next turn\.$",
    "done": r"^(You are|Bot \d is) done\.$",
    "take": r"^(You take|Bot \d takes) (\d cards? at random from (you|Bot \d): .+|cards at random from Bot \d\.)$",
    "give": r"^(You give|Bot \d gives) (you|Bot \d) (\S+ \(.+\)|a card)\.$",
    "discard on top": r"^(You discard|Bot \d discards) \S+ \(.+\) on top of the discard pile\.$",
    "discard under": r"^(You discard|Bot \d discards) \S+ \(.+\) under the top card\.$",
    "target": r"^(You choose|Bot \d chooses) (you|yourself|themselves|Bot \d)\.$",
    "swap": r"^(You swap|Bot \d swaps) hands with (you|Bot \d)\.$",
}
"""How each event of UNO Wild Jackpot (and the base events it uses in new ways) is told."""


def test_play_wild_jackpot_tells_every_event_in_words(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    rules_file = tmp_path / "rules.txt"
    rules_file.write_text("# one card per verb\n" + "\n".join(EVERY_VERB_RULES) + "\n", encoding="utf-8")
    seen: set[str] = set()
    markup_performed = False
    for seed in range(12):
        path = tmp_path / f"{seed}.json"
        argv = ["--edition", "wild-jackpot", "--players", "3", "--seed", str(seed), "--scoring", "single-round"]
        argv += ["--rules-file", str(rules_file), "--rule", "lever_weights=[1,1,1,1,1,0]", "--record", str(path)]
        code, out = play_with(monkeypatch, lambda text: "1", *argv)
        assert code == 0
        # Your cards come from the file: no questions.
        assert f"Your rule cards, from {rules_file}:" in out and "Rule card 1 of" not in out
        record = load(path)
        assert record["rule_cards"][: len(EVERY_VERB_RULES)] == list(EVERY_VERB_RULES)
        game = replay(record)
        assert game.is_over
        counts: dict[str, int] = dict.fromkeys(JACKPOT_WORDS, 0)
        for kind, _, value, _ in game.events:
            if kind == "discard":
                kind = "discard on top" if value else "discard under"
            if kind in counts:
                counts[kind] += 1
        for kind, pattern in JACKPOT_WORDS.items():
            told = len(re.findall(pattern, out, re.M))
            assert told == counts[kind], (seed, kind, told, counts[kind])
            if told:
                seen.add(kind)
        # Your honour tasks: you are asked to confirm, with the card's text.
        for rid in (e[2] for e in game.events if e[0] == "rule" and e[1] == 0):
            text = game.extra["texts"][rid]
            if not read_rule(text).enforced:
                assert f'Honour task: carry out "{text}", then confirm with done.' in out
        if any(e[0] == "rule" and game.extra["texts"][e[2]] == MARKUP_RULE for e in game.events):
            markup_performed = True
            assert re.search(
                rf'^(You perform|Bot \d performs) a rule card: "{re.escape(MARKUP_RULE)}" \(an honour', out, re.M
            )
        assert not re.search(rf"^({'|'.join(WildJackpot.event_kinds)}) -?\d+ -?\d+$", out, re.M)
        if seen == set(JACKPOT_WORDS) and markup_performed:
            break
    assert seen == set(JACKPOT_WORDS)
    assert markup_performed


def test_play_wild_jackpot_describes_the_new_moves(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    rules_file = tmp_path / "rules.txt"
    rules_file.write_text("\n".join(EVERY_VERB_RULES) + "\n", encoding="utf-8")
    situations: set[str] = set()
    wanted = {
        "Jackpot: choose who performs a rule card (anyone, you included).",
        "Lever: discard up to one card of each colour on top of the pile, or say done.",
        "Rule card: play as many cards in a row as you can. Play a card that matches the top card.",
        "Rule card: give a card of your choice to Bot 1 (",
        "Rule card: discard a card of your choice, under the top card (",
        "Rule card: choose the player it applies to.",
        'Honour task: carry out "',
    }
    moves: set[str] = set()
    for seed in range(12):
        argv = ["--edition", "wild-jackpot", "--players", "3", "--seed", str(seed), "--scoring", "single-round"]
        argv += ["--rules-file", str(rules_file), "--rule", "lever_weights=[1,0,0,0,1,0]"]
        code, out = play_with(monkeypatch, lambda text: "1", *argv)
        assert code == 0 and "the match after 1 round" in out
        situations |= {s for s in wanted if s in out}
        moves |= set(re.findall(r"^\s+\d+\) (done|>\S+|-\S+|@\d)\s+(.+)$", out, re.M))
        if situations == wanted:
            break
    assert situations == wanted
    # Each new move is described in words.
    assert ("done", "confirm that the honour task is done") in moves
    assert ("done", "discard no more cards") in moves
    assert any(re.fullmatch(r">\S+", notation) and re.fullmatch(r"give .+ to Bot 1", text) for notation, text in moves)
    assert any(notation.startswith("-") and text.endswith("on top of the discard pile") for notation, text in moves)
    assert any(re.fullmatch(r"(Player|Bot \d) performs a rule card", text) for _, text in moves)
    rule_targets = r"swap hands with Bot \d|take 2 cards at random from Bot \d"
    assert any(notation.startswith("@") and re.fullmatch(rule_targets, text) for notation, text in moves)


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


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"format": "unokit-record/2", "names": ["\xff\xfe"]}', "not UTF-8"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"names": ' + b"[" * 200 + b"]" * 200 + b"}", "nested too deeply"),
        (b" " * (MAX_RECORD_BYTES + 1) + b"{}", "larger than"),
    ],
)
def test_replay_refuses_a_hostile_file_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "hostile.json"
    path.write_bytes(content)
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and out == ""
    assert err.startswith("unokit: error: ") and message in err and err.count("\n") == 1


def test_replay_strips_control_characters_from_names(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = Game("classic", 2, seed=3)
    for _ in range(3):
        game.apply(game.actor, game.legal_actions(game.actor)[0])
    path = tmp_path / "names.json"
    path.write_text(json.dumps(to_record(game, ["\x1b]0;owned\x07Ann\x1b[2J", "Bo\x9b31mb\u202e"])))
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0 and err == ""
    assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", out)
    names = set(re.findall(r"^#\d+ (.+?): ", out, re.M))
    assert names <= {"]0;ownedAnn[2J", "Bo31mb"} and names


# ---------------------------------------------------------------- output paths


OUTPUT_COMMANDS = {
    "tournament": ["tournament", "--bots", "random,random", "--games", "1000000", "--workers", "1", "--plot"],
    "stats": ["stats", "--games", "1000000", "--workers", "1", "--engine", "python", "--out"],
    "play": ["play", "--players", "2", "--seed", "1", "--record"],
}
BAD_FILES = [
    ("missing/out.file", "does not exist"),
    ("a-file/out.file", "is not a folder"),
    ("/proc/unokit-out.file", "cannot write in"),
    (".", "is a folder"),
]
BAD_FOLDERS = [("a-file/report", "is not a folder"), ("/proc/unokit-report", "cannot write in"), ("a-file", "is not")]
"""Paths that cannot be written: --out is a folder (made with its parents), the others files."""


@pytest.mark.parametrize(
    ("command", "where", "message"),
    [(command, *bad) for command in OUTPUT_COMMANDS for bad in (BAD_FOLDERS if command == "stats" else BAD_FILES)],
)
def test_output_paths_are_checked_before_playing(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    command: str,
    where: str,
    message: str,
) -> None:
    """A million games would take hours: the command refuses the path at once, with one line."""
    argv = OUTPUT_COMMANDS[command]
    (tmp_path / "a-file").write_text("")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3000))
    started = time.monotonic()
    code, out, err = run(capsys, *argv, where)
    assert time.monotonic() - started < 30
    assert code == 2 and out == ""
    assert err.startswith(f"unokit: error: {argv[-1]} {where}: ") and message in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_a_result_on_no_finished_game_says_so_instead_of_an_interval(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ("tournament", "--bots", "random,heuristic", "--games", "4", "--workers", "1", "--max-decisions", "1")
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == ""
    assert not re.search(r"\d\.\d%", out.split("Equal bots")[0])  # neither a rate nor an interval over no round
    assert re.search(r"^  random .* no round finished$", out, re.M)
    assert "No game finished: all 4 stopped after 1 decision, so there is no result." in out
    code, out, err = run(capsys, *argv[:-1], "2", "--plot", str(tmp_path / "wins.png"))
    assert code == 0 and "No plot: no game finished." in out and not (tmp_path / "wins.png").exists()
    argv = ("stats", "--games", "2", "--workers", "1", "--engine", "python", "--max-decisions", "1")
    code, out, err = run(capsys, *argv, "--out", str(tmp_path / "report"))
    assert code == 0
    assert "%" not in out and re.search(
        r"^  classic +0 rounds, no round finished, 2 stopped at the cap and left out$", out, re.M
    )


class CtrlC(io.StringIO):
    """Standard input that answers ``lines`` and then gets Ctrl-C, as a terminal does."""

    def readline(self, size: int | None = -1) -> str:
        text = super().readline()
        if not text:
            raise KeyboardInterrupt
        return text


def test_play_saves_the_record_on_ctrl_c(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "cut.json"
    monkeypatch.setattr("sys.stdin", CtrlC("1\n" * 5))
    code = main(["play", "--players", "3", "--seed", "4", "--record", str(path)])
    out = capsys.readouterr().out
    assert code == 130
    assert out.rstrip().endswith(f"Interrupted: record saved to {path} (match not finished).")
    record = load(path)
    game = replay(record)  # the record holds every move made before Ctrl-C, and replays
    assert not game.is_over and sum(1 for seat, _ in record["actions"] if seat == 0) == 5
    monkeypatch.setattr("sys.stdin", CtrlC(""))
    assert main(["play", "--players", "2", "--seed", "4"]) == 130
    assert capsys.readouterr().out.rstrip().endswith("Interrupted.")
    monkeypatch.setattr("sys.stdin", CtrlC("Draw 2 cards\n"))  # Ctrl-C while writing the rule cards
    assert main(["play", "--edition", "wild-jackpot", "--players", "3", "--record", str(tmp_path / "no.json")]) == 130
    assert capsys.readouterr().out.rstrip().endswith("Interrupted: no record saved, the match had not begun.")
    assert not (tmp_path / "no.json").exists()


# ---------------------------------------------------------------- words


EVENT_KINDS = set(re.findall(r"^([a-z_]+) {2,}", events.__doc__ or "", re.M)) - {"kind"}
NOT_IN = {
    "classic": {"jam", "discard", "target", "swap"},
    "space-jam": {"target", "swap"},
    "all-wild": {"dealer_draw", "return", "colour", "challenge", "reveal", "verdict", "accept", "jam", "discard"},
    "wild-jackpot": {"jam"},
}


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_event_and_action_has_words(edition: str) -> None:
    assert len(EVENT_KINDS - events.HOUSE_EVENT_KINDS) == 26
    assert get_edition(edition).event_kinds >= EVENT_KINDS
    # (random play seldom spends every card: a blocked round is told in test_blocked_rounds.py)
    expected = get_edition(edition).event_kinds - NOT_IN[edition] - events.HOUSE_EVENT_KINDS - {"blocked"}
    names = ["Ann", "Bob", "Cy"]
    narrator = Narrator(names, you=0, edition=edition)
    kinds: set[str] = set()
    rule_cards = list(EVERY_VERB_RULES) if edition == "wild-jackpot" else None
    for seed in range(21, 60):
        game = Game(edition, 3, seed=seed, rules={"target_score": 200}, rule_cards=rule_cards)
        rng = random.Random(seed)
        while not game.is_over:
            seat = rng.choice(game.deciders())
            for action in game.legal_actions(seat):
                words = describe_action(game, game.view(seat), action, names)
                assert words and words != game.actions.format(action)
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        narrator.learn(game.view(None).public)
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


def test_play_offers_you_jump_ins_stacks_and_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    """House rules in the terminal: the prompt says when you may jump in (and ``^`` moves do), when a
    stacked penalty is aimed at you, and when you may play another card of the same number."""
    seen = {"jump": 0, "jumped": 0, "stack": 0, "multi": 0}

    def decide(text: str) -> str:
        if "jump in with" in text:
            seen["jump"] += 1
            match = re.search(r"^\s+(\d+)\) \^", text, re.M)
            assert match, "a jump-in is offered as a move"
            return match.group(1)
        seen["stack"] += "A penalty of" in text
        seen["multi"] += "Play another card of the same number" in text
        return "1"

    rules = ["--rule", "jump_in=true", "--rule", "stacking=same", "--rule", "multi_play=number"]
    for seed in range(30):
        code, out = play_with(
            monkeypatch, decide, "--players", "4", "--seed", str(seed), "--scoring", "single-round", *rules
        )
        assert code == 0 and "the match after" in out
        seen["jumped"] += len(re.findall(r"^You jump in ahead of Bot \d!$", out, re.M))
        if all(seen.values()):
            break
    assert all(seen.values()), seen


def test_simulate_with_the_heuristic_policy_on_either_engine(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--players", "3", "--games", "12", "--seed", "5", "--json", "--policy", "heuristic"]
    fast = json.loads(run(capsys, *argv, "--engine", "fast")[1])
    python = json.loads(run(capsys, *argv, "--engine", "python")[1])
    randomly = json.loads(run(capsys, *argv[:-2], "--engine", "fast")[1])
    for data in (fast, python):
        assert data["policy"] == "heuristic" and sum(data["wins_by_seat"]) == 12
        # heuristic players finish their rounds in far fewer decisions than random ones
        assert data["decisions"] / data["rounds"] < randomly["decisions"] / randomly["rounds"] / 3
    assert (fast["engine"], python["engine"], randomly["policy"]) == ("fast", "python", "random")
    code, out, err = run(capsys, "simulate", "--policy", "clever")
    assert code == 2 and out == "" and "clever" in err


@pytest.mark.parametrize("edition", ["classic", "space-jam", "all-wild", "wild-jackpot"])
def test_simulate_plays_the_heuristic_policy_compiled_in_every_edition_it_plays(
    capsys: pytest.CaptureFixture[str], edition: str
) -> None:
    """``--engine fast --policy heuristic`` plays every edition and house rule the compiled engine
    plays, seeded; with ``teams`` a match won counts for both partners, as on the Python engine."""
    argv = ["simulate", "--edition", edition, "--games", "30", "--seed", "4", "--json", "--policy", "heuristic"]
    for rules in ([], ["--rule", "stacking=cross", "--rule", "jump_in=true", "--rule", "seven_swap=true"]):
        fast = json.loads(run(capsys, *argv, *rules, "--engine", "fast")[1])
        assert (fast["engine"], fast["policy"], fast["edition"]) == ("fast", "heuristic", edition)
        assert sum(fast["wins_by_seat"]) == 30 and fast["rounds"] >= 30
        assert fast == {**json.loads(run(capsys, *argv, *rules)[1]), "elapsed_s": fast["elapsed_s"]}  # auto: fast
        expected = simulate(edition, 4, 30, 4, fast["rules"], engine="fast", policy="heuristic")
        assert fast == {**expected, "elapsed_s": fast["elapsed_s"]}
        randomly = json.loads(run(capsys, *argv[:-2], *rules, "--engine", "fast")[1])
        assert fast["decisions"] / fast["rounds"] < randomly["decisions"] / randomly["rounds"] / 3
    teams = ["--rule", "teams=true", "--games", "12"]
    for engine in ("fast", "python"):
        data = json.loads(run(capsys, *argv, *teams, "--engine", engine)[1])
        wins = data["wins_by_seat"]
        assert data["engine"] == engine and sum(wins) == 24 and wins[:2] == wins[2:], wins
    knockout = ["--scoring", "knockout", "--rule", "mercy=true", "--rule", "mercy_limit=12"]
    for rules in (["--preset", "no-mercy"], knockout):  # seats out of the round or the match
        fast = json.loads(run(capsys, *argv, *rules, "--engine", "fast")[1])
        assert (fast["engine"], fast["policy"]) == ("fast", "heuristic") and sum(fast["wins_by_seat"]) == 30
        assert fast == {**json.loads(run(capsys, *argv, *rules)[1]), "elapsed_s": fast["elapsed_s"]}  # auto: fast
        python = json.loads(run(capsys, *argv, *rules, "--engine", "python")[1])
        assert python["rules"] == fast["rules"] and sum(python["wins_by_seat"]) == 30
        if rules == knockout:  # a match of rounds until one player is left (three rounds at four players, or fewer)
            assert fast["rules"]["scoring"] == "knockout" and 30 < fast["rounds"] <= 90 and 30 < python["rounds"] <= 90
    big = json.dumps({card_name(get_edition(edition).faces[0]): 300})
    code, out, err = run(capsys, *argv, "--rule", f"deck={big}", "--engine", "fast")
    assert code == 2 and out == "" and "decks of up to 256 cards" in err, err


def test_play_against_heuristic_bots(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--bot heuristic`` seats heuristic bots (their calls, catches and jump-ins included): the
    match plays to its end, its record replays, and the same seed gives the same match."""
    argv = [
        "--players",
        "3",
        "--seed",
        "8",
        "--scoring",
        "single-round",
        "--rule",
        "jump_in=true",
        "--bot",
        "heuristic",
    ]
    records = []
    for name in ("a.json", "b.json"):
        code, out = play(capsys, monkeypatch, "1\n" * 3000, *argv, "--record", str(tmp_path / name))
        assert code == 0 and re.search(r"^(You|Bot [12]) wins? the match after 1 round!", out, re.M)
        records.append(load(tmp_path / name))
    assert replay(records[0]).is_over and records[0] == records[1]


def test_play_refuses_a_level_of_bot_it_has_not(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code = main(["play", "--players", "3", "--bot", "genius"])
    err = capsys.readouterr().err
    assert code == 2 and "unknown bot kind 'genius'" in err
