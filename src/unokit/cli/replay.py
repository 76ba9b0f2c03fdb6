"""``unokit replay``: replay a game record action by action, every card in the open."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from unokit.cli.common import Screen, UsageError, printable
from unokit.editions import rulecards
from unokit.engine.record import cut, replay
from unokit.narrate import Narrator, plural

if TYPE_CHECKING:
    from unokit.cli.common import Commands

MAX_RECORD_BYTES = 16 * 1024 * 1024
"""The largest record file replayed (a record of the longest match is well under 1 MB)."""
MAX_RECORD_DEPTH = 32
"""The deepest nesting of lists and objects in a record (a real one nests four deep)."""


def read_record(path: str) -> dict[str, Any]:
    """The JSON object in ``path``; a file too large, not UTF-8, not JSON or nested too deeply
    is a :class:`UsageError` of one line."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"cannot read record {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise UsageError(f"cannot read record {path}: larger than {MAX_RECORD_BYTES // 2**20} MB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"cannot read record {path}: not UTF-8 text (byte {exc.start})") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"cannot read record {path}: {exc}") from None
    except RecursionError:
        raise UsageError(f"cannot read record {path}: nested too deeply") from None
    if _depth(record) > MAX_RECORD_DEPTH:
        raise UsageError(f"cannot read record {path}: nested too deeply (over {MAX_RECORD_DEPTH} levels)")
    if not isinstance(record, dict):
        raise UsageError("a record is a JSON object")
    return record


def _depth(value: Any) -> int:
    """How deep lists and objects nest in ``value`` (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def rule_value(value: Any) -> str:
    """A rule's value as ``--rule NAME=VALUE`` takes it: ``true``, ``false``, ``null``, a number, a
    word as it is, any other value (a list) in JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"))


def add_parser(commands: Commands) -> None:
    """The ``replay`` command and its options."""
    parser = commands.add_parser(
        "replay",
        help="replay a game record action by action",
        description="Replay a record, printing each action in notation and what happened in words. "
        "A record is reviewed in the open: every card is shown, including hands, draws and revealed cards.",
    )
    parser.add_argument("file", metavar="FILE", help="a record saved by 'unokit play --record'")
    parser.add_argument("--step", action="store_true", help="wait for Enter between actions")
    parser.add_argument(
        "--cut",
        metavar="STEP",
        help="print the position after the record's first STEP actions (0: where it starts) instead of replaying it",
    )


def cmd_replay(args: argparse.Namespace, screen: Screen) -> int:
    record = read_record(args.file)
    if args.cut is not None:
        step = args.cut.strip()
        if not (step.isascii() and step.isdigit()):
            raise UsageError(f"--cut takes a step number (0 or more), not {args.cut!r}")
        screen.line(cut(record, int(step)))
        return 0
    replay(record)  # checks the whole record before showing anything
    game = replay(record, upto=0)
    names_value = record.get("names")
    names = [f"Seat {s}" for s in range(game.n)]
    if isinstance(names_value, list) and len(names_value) == game.n:
        names = [printable(str(name)) for name in names_value]
    narrator = Narrator(names, scoring=game.scoring, edition=game.edition.name)
    drawn = " (the compiled engine's random results, kept in the record)" if "random" in record else ""
    screen.line((f"Replay of {game.edition.title}, {game.n} players, seed {game.seed}{drawn}.", "bold"))
    if "position" in record:
        screen.line(printable(f"From the position {record['position']}"))
    if game.rules.to_dict():
        screen.line(printable("Rules: " + ", ".join(f"{k}={rule_value(v)}" for k, v in game.rules.to_dict().items())))
    rule_cards: tuple[str, ...] = game.extra.get("texts", ())  # UNO Wild Jackpot's, read from the record
    if rule_cards:
        source = "written" if record.get("rule_cards") else "drawn from the rule sheet's suggestions"
        screen.line(f"Rule cards ({len(rule_cards)}, {source}):")
        for number, text in enumerate(rule_cards, 1):
            screen.line(printable(f"  {number:>2}. {text}"), hang=6)
            screen.line(printable(f"      read as {rulecards.read_rule(text).reading()}"), hang=6)
    seen = 0

    def show_events() -> None:
        nonlocal seen
        if any(event[0] == "dispense" for event in game.events[seen:]):
            narrator.learn(game.view(None).public)
        for line in narrator.lines(game.events[seen:], game.round_results):
            screen.line(*line)
        seen = len(game.events)

    show_events()
    actions = record["actions"]
    for index, (seat, text) in enumerate(actions, 1):
        if args.step:
            answer = screen.ask(f"[Enter: action {index} of {len(actions)}, q: stop] ")
            if answer is None or answer.strip().lower() in ("q", "quit"):
                return 0
        game.apply_notation(seat, text)
        screen.line((f"#{index} {names[seat]}: {text}", "bold"))
        show_events()
    if not game.is_over:
        screen.line(f"End of record after {plural(len(actions), 'action')}: the match is not finished.")
    return 0
