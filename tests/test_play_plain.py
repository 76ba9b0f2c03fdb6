"""``unokit play`` and ``unokit replay`` as a terminal player meets them: the record on Ctrl-C and at the
end of input, the record path checked first, quitting, refusals spoken to you, your hand after a swap,
the move list again on ``status``, a replay's rule cards and rules, lines wrapped to the terminal, and
colours read on dark and light themes."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from rich.style import Style

from unokit import narrate
from unokit.cli import main
from unokit.cli.common import parse_rule_values
from unokit.engine.cards import CARD_COLOUR, NO_COLOUR, card_name, is_card
from unokit.engine.events import Event
from unokit.engine.game import Game
from unokit.engine.record import load, replay, save
from unokit.engine.rules import Rules
from unokit.narrate import card_part, cards_parts, plain

ROOT = Path(__file__).resolve().parent.parent
PYTHON_ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")


def play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, script: str, *argv: str
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    code = main(["play", *argv])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


# ---------------------------------------------------------------- the record


def test_ctrl_c_saves_the_record_says_where_and_exits_130(tmp_path: Path) -> None:
    """SIGINT (Ctrl-C) while ``play`` waits for a move saves the record as quit does."""
    path = tmp_path / "cut.json"
    command = [sys.executable, "-m", "unokit.cli", "play", "--players", "3", "--seed", "4", "--record", str(path)]
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=PYTHON_ENV
    )
    assert process.stdout is not None and process.stdin is not None
    seen = ""
    while "Move (" not in seen:  # the first prompt ends without a newline: read what is there
        chunk = os.read(process.stdout.fileno(), 65536).decode()
        assert chunk, process.communicate()
        seen += chunk
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert (seen + out).rstrip().endswith(f"Interrupted: record saved to {path} (match not finished).")
    game = replay(load(path))
    assert not game.is_over and game.actor == 0  # the game as it stood at the prompt


def test_end_of_input_saves_the_record_and_exits_0(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "eof.json"
    code, out, _ = play(capsys, monkeypatch, "1\n1\n", "--players", "2", "--seed", "1", "--record", str(path))
    assert code == 0
    assert "End of input: leaving the game." in out
    assert out.rstrip().endswith(f"Record saved to {path} (match not finished).")
    assert sum(seat == 0 for seat, _ in load(path)["actions"]) >= 1


@pytest.mark.parametrize(
    ("where", "says"),
    [
        ("missing/r.json", "the folder {tmp}/missing does not exist"),
        ("", "is a folder, not a file"),
        ("file.txt/r.json", "{tmp}/file.txt is not a folder"),
    ],
)
def test_the_record_path_is_refused_before_the_first_deal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, where: str, says: str
) -> None:
    (tmp_path / "file.txt").write_text("x")
    path = str(tmp_path / where) if where else str(tmp_path)
    code, out, err = play(capsys, monkeypatch, "1\n" * 50, "--players", "2", "--seed", "1", "--record", path)
    assert code == 2 and out == ""  # nothing dealt, nothing asked
    assert err.count("\n") == 1 and says.format(tmp=tmp_path) in err and err.startswith("unokit: error: --record")


# ---------------------------------------------------------------- quitting


def test_quit_asks_first_and_n_plays_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "q.json"
    argv = ("--players", "3", "--seed", "8", "--record", str(path))
    code, out, _ = play(capsys, monkeypatch, "quit\nn\nquit\nwhat\ny\n", *argv)
    assert code == 0
    assert out.count("Quit the game (the record is saved)? (y/n) ") == 3
    assert "You play on." in out and "Type y to leave the game or n to play on." in out
    assert out.count("You leave the game.") == 1 and out.index("You play on.") < out.index("You leave the game.")
    assert out.rstrip().endswith(f"Record saved to {path} (match not finished).")
    assert not load(path)["actions"] or all(seat != 0 for seat, _ in load(path)["actions"])  # quit made no move
    code, out, _ = play(capsys, monkeypatch, "quit\n", "--players", "3", "--seed", "8")  # then the end of input
    assert code == 0 and "Quit the game? (y/n) " in out and out.rstrip().endswith("You leave the game.")


# ---------------------------------------------------------------- refusals


def test_refused_moves_speak_of_you_not_of_seat_0(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seed 8, three players: you hold R+2 Y6 Y8 YS GS W+4 W+4 under a red Reverse.
    script = "R5\nY6\nW+4\nR+2\nquit\ny\n"
    code, out, _ = play(capsys, monkeypatch, script, "--players", "3", "--seed", "8")
    assert code == 0
    refusals = re.findall(r"^Not possible: (.*)$", out, re.M)
    assert refusals == [
        "R5 is not legal: you hold no R5; legal: R+2, W+4, draw",
        "Y6 is not legal: Y6 does not match RR (colour red); legal: R+2, W+4, draw",
        "R+2 is not legal: you are to choose a colour; legal: =R, =Y, =G, =B",
    ]
    assert not any("seat" in refusal for refusal in refusals)


def test_refusals_out_of_turn_name_the_players(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """When you may only catch or call, a card is refused naming whose turn it is and saying what you may do."""
    for seed in range(1, 60):
        script = "\n".join(["1"] * 40 + ["R1"] * 400)  # play on; then a card at each prompt
        monkeypatch.setattr("sys.stdin", io.StringIO(script))
        main(["play", "--players", "3", "--seed", str(seed), "--scoring", "single-round"])
        out = capsys.readouterr().out
        assert not re.search(r"^Not possible: .*\bseat \d", out, re.M)
        found = re.search(
            r"^Not possible: R1 is not legal: (Bot \d) is to .*; you may only call or catch UNO", out, re.M
        )
        if found:
            return
    pytest.fail("no game offered a catch to refuse a card at")


# ---------------------------------------------------------------- your hand after a swap or a pass


def test_you_are_told_the_hand_you_receive_after_each_swap_and_pass(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    swaps = 0
    for seed in (1, 2, 3):
        path = tmp_path / f"swap{seed}.json"
        argv = ("--players", "3", "--seed", str(seed), "--preset", "house", "--scoring", "single-round")
        code, out, _ = play(capsys, monkeypatch, "1\n" * 3000, *argv, "--record", str(path))
        assert code == 0
        told = re.findall(r"^You now hold: (.*)$", out, re.M)
        # Each swap or pass you took part in, replayed from the record: the hand you held right after it.
        record = load(path)
        game = replay(record, upto=0)
        expected = []
        for seat, text in record["actions"]:
            before = len(game.events)
            game.apply_notation(seat, text)
            if swapped_you(game.events[before:]):
                expected.append(plain(cards_parts(sorted(game.hands[0]))))
        assert told == expected
        swaps += len(told)
    assert swaps >= 3


def swapped_you(events: list[Event]) -> bool:
    """Whether ``events`` gave seat 0 another hand (a swap with it, every hand passed on), not dealt after."""
    last = ""
    for kind, seat, other, _ in events:
        if kind == "pass_hands" or (kind == "swap" and 0 in (seat, other)):
            last = "swapped"
        elif kind == "deal":
            last = "dealt"
    return last == "swapped"


# ---------------------------------------------------------------- status


def test_status_shows_the_table_and_the_moves_again(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = play(capsys, monkeypatch, "status\n", "--players", "3", "--seed", "8")
    assert code == 0
    first, again = out.split("Move (1-3, notation, help, quit): status\n")
    moves = "   1) R+2   play red Draw Two\n   2) W+4   play Wild Draw Four\n   3) draw  draw a card\n"
    assert moves in first and moves in again
    assert "Your hand (7): R+2 Y6 Y8 YS GS W+4 W+4\nYour turn: play a card or draw.\n" + moves in again


# ---------------------------------------------------------------- replay


JACKPOT_RULES = (
    "Draw 2 cards",
    "Swap hands with any player",
    "Everyone gives a card to the player on their left, who must keep it for the rest of the round",
    "Reverse",
)


def test_a_wild_jackpot_replay_lists_the_rule_cards_and_its_rules_as_the_command_line_takes_them(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    texts = tmp_path / "rules.txt"
    texts.write_text("\n".join(JACKPOT_RULES) + "\n", encoding="utf-8")
    path = tmp_path / "jackpot.json"
    argv = ("--edition", "wild-jackpot", "--players", "2", "--seed", "3", "--scoring", "single-round")
    options = ("--rule", "allow_bluff=false", "--rule", "stacking=cross", "--rule", "uno_penalty=4")
    code, _, _ = play(
        capsys, monkeypatch, "1\n" * 3000, *argv, *options, "--rules-file", str(texts), "--record", str(path)
    )
    assert code == 0
    record = load(path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    every = replay(record, upto=0).extra["texts"]  # yours and the bots', as the dispenser was loaded
    assert len(every) == 8 and list(every[:4]) == list(JACKPOT_RULES)
    assert "Rule cards (8, written):\n" in out
    for number, text in enumerate(every, 1):
        assert f"\n  {number:>2}. {text}\n      read as " in out
    assert "      read as enforced: swap hands with a player of your choice\n" in out
    assert "      read as honour task: everyone sees it and you confirm when done\n" in out

    rules_line = re.search(r"^Rules: (.*)$", out, re.M)
    assert rules_line is not None
    pairs = rules_line[1].split(", ")
    assert "allow_bluff=false" in pairs and "stacking=cross" in pairs and "uno_penalty=4" in pairs
    assert "True" not in rules_line[1] and "False" not in rules_line[1]
    assert Rules.from_dict(parse_rule_values(pairs)) == replay(record).rules  # read back as --rule takes them


def test_a_replay_of_suggested_rule_cards_lists_them_too(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "drawn.json"
    game = Game("wild-jackpot", 3, seed=5)
    save(game, str(path), ["A", "B", "C"])
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    texts = game.extra["texts"]
    assert f"Rule cards ({len(texts)}, drawn from the rule sheet's suggestions):" in out
    assert all(f". {text}\n" in out for text in texts)


# ---------------------------------------------------------------- a real terminal: wrapping and colour


def in_terminal(argv: list[str], answers: list[tuple[str, str]], columns: int, cwd: Path = ROOT) -> str:
    """Run ``unokit ARGV --plain`` (the transcript, not the full-screen table a terminal gets) in a
    pseudo-terminal ``columns`` wide; each answer is typed once its prompt (the text before it) was shown
    whole. What the terminal received, colours and all."""
    command = [sys.executable, "-m", "unokit.cli", argv[0], "--plain", *argv[1:]]
    pid, fd = pty.fork()
    size = struct.pack("HHHH", 40, columns, 0, 0)
    if pid == 0:  # the child: the command, attached to the terminal, its size set before it starts
        fcntl.ioctl(0, termios.TIOCSWINSZ, size)
        os.chdir(cwd)
        env = {name: value for name, value in PYTHON_ENV.items() if name not in ("COLUMNS", "LINES")}
        os.execve(sys.executable, command, {**env, "TERM": "xterm-256color"})
    fcntl.ioctl(fd, termios.TIOCSWINSZ, size)
    received = b""
    pending = list(answers)
    deadline = time.monotonic() + 60
    answered = 0  # what the terminal received up to the last answer: the next prompt is looked for after it
    try:
        while time.monotonic() < deadline:
            shown = received[answered:]
            if pending and pending[0][0].encode() in shown and shown.endswith(b" "):  # the whole prompt
                os.write(fd, pending.pop(0)[1].encode() + b"\n")
                answered = len(received)
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break  # the command ended
                if not chunk:
                    break
                received += chunk
    finally:
        grace = time.monotonic() + 10
        done, status = os.waitpid(pid, os.WNOHANG)
        while done == 0 and time.monotonic() < grace:  # the command closing
            time.sleep(0.05)
            done, status = os.waitpid(pid, os.WNOHANG)
        if done == 0:  # still running: ended, and the test fails below
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0, received.decode(errors="replace")
    return received.decode()


@pytest.mark.parametrize("columns", [60, 80])
def test_lines_wrap_at_word_boundaries_to_the_terminals_width(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, columns: int
) -> None:
    rules = tmp_path / "rules.txt"
    rules.write_text("\n".join(JACKPOT_RULES) + "\n", encoding="utf-8")
    argv = ["play", "--players", "3", "--seed", "8", "--edition", "wild-jackpot", "--rules-file", rules.name]
    monkeypatch.chdir(tmp_path)  # (a path is one word: a short one, so that no word is longer than a line)
    answers = [("Move (", "help"), ("Move (", "status"), ("Move (", "quit"), ("(y/n)", "y")]
    shown = ANSI.sub("", in_terminal(argv, answers, columns, tmp_path))
    # What a pipe gets: every line whole, the answers written out after their prompts.
    _, piped, _ = play(capsys, monkeypatch, "help\nstatus\nquit\ny\n", *argv[1:])
    assert shown.split() == piped.split()  # the same words, none cut in two
    lines = shown.split("\n")
    assert max(len(line) for line in lines) <= columns
    assert any(len(line) > columns for line in piped.split("\n"))  # there was something to wrap
    assert "turn: You" in shown and "wh\nen" not in shown
    # A move's words wrap under the words, not under its number.
    starts = [index for index, line in enumerate(lines) if re.match(r"^   1\) ", line)]
    for index in starts:
        follow = lines[index + 1]
        assert re.match(r"^   2\) |^ {8,}\S", follow), (lines[index], follow)


def test_the_move_list_is_coloured_in_a_terminal() -> None:
    answers = [("Move (", "quit"), ("(y/n)", "y")]
    shown = in_terminal(["play", "--players", "3", "--seed", "8"], answers, 80)
    hand = re.search(r"Your hand \(7\): (\x1b\[[0-9;]+m)R\+2\x1b\[0m", shown)
    move = re.search(r"^ +1\) (\x1b\[[0-9;]+m)R\+2\x1b\[0m", shown, re.M)
    assert hand is not None and move is not None and move[1] == hand[1]  # the red card's colour


def contrast(style: str, background: tuple[int, int, int]) -> float:
    colour = Style.parse(style).color
    assert colour is not None
    triplet = colour.get_truecolor()

    def luminance(rgb: tuple[int, int, int]) -> float:
        def channel(value: int) -> float:
            c = value / 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        r, g, b = (channel(v) for v in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(tuple(triplet)), luminance(background)), reverse=True)  # type: ignore[arg-type]
    return (light + 0.05) / (dark + 0.05)


def test_card_colours_read_on_dark_and_light_themes_with_the_letter_beside() -> None:
    for card in filter(is_card, range(256)):
        name, style = card_part(card)
        assert contrast(style, (0, 0, 0)) >= 3.5, (card_name(card), style)
        assert contrast(style, (255, 255, 255)) >= 3.5, (card_name(card), style)
        colour = CARD_COLOUR[card]
        if colour != NO_COLOUR:
            assert name[0] in "RYGBO"  # the colour-blind mark: the letter of the colour
    for colour in range(5):  # a colour chosen, in words
        style = narrate.colour_style(colour)
        assert contrast(style, (0, 0, 0)) >= 3.5 and contrast(style, (255, 255, 255)) >= 3.5
