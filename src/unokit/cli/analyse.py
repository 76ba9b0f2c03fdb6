"""``unokit analyse``: rate every legal move of a position, or every decision of a seat in a record."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from unokit.analysis.ratings import Analysis, AnalysisError, RecordAnalysis, analyse, analyse_record
from unokit.cli.common import Screen, UsageError, printable
from unokit.cli.replay import MAX_RECORD_BYTES, read_record

if TYPE_CHECKING:
    from unokit.cli.common import Commands

MAX_POSITION_CHARS = 1 << 16
"""The longest position line read (a real one is a few hundred characters)."""


def add_parser(commands: Commands) -> None:
    """The ``analyse`` command and its options."""
    parser = commands.add_parser(
        "analyse",
        help="rate every move of a position, or every decision of a seat in a record",
        description="Rate moves by the seat's chance to win the round after each, judged from the seat's own "
        "knowledge (heuristic rollouts of sampled deals; exact when every card is known and the round is small). "
        "A record (a JSON file from 'unokit play --record'): every decision of --seat rated and its mistakes "
        "listed with the better move.  A position line (the text, a file holding it, or - for stdin): every legal "
        "move of the deciding seat rated, best first.",
    )
    parser.add_argument(
        "target", metavar="POSITION|RECORD", help="a position line, a file holding one, a record file, or -"
    )
    parser.add_argument(
        "--seat", type=int, metavar="S", help="the seat to rate (a position: the seat deciding; a record: 0)"
    )
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, metavar="S", help="time for the whole analysis")
    budget.add_argument("--rollouts", type=int, metavar="N", help="rollouts of each move (default 1000)")
    parser.add_argument(
        "--threshold",
        type=float,
        default=0.1,
        metavar="T",
        help="a record: a move losing more than T of win chance (0 to 1) is a mistake (default 0.1)",
    )
    parser.add_argument(
        "--own-view",
        action="store_true",
        help="a full position: rate it from the deciding seat's view only, not with every card known",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="seed of the sampled deals (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object and nothing else")


def read_target(target: str, stdin: Any) -> tuple[str, dict[str, Any] | str]:
    """``("record", record)`` or ``("position", line)`` from the command's argument: ``-`` reads
    stdin, an existing file is read (a JSON object is a record, else its first line is a
    position), anything else is a position line."""
    if target == "-":
        text = stdin.read(MAX_RECORD_BYTES + 1)
        if len(text) > MAX_RECORD_BYTES:
            raise UsageError("cannot read stdin: too large")
        return _parse_text(text, "stdin")
    if os.path.isfile(target):
        with open(target, "rb") as file:
            head = file.read(1).lstrip()
        if head == b"{":
            return "record", read_record(target)
        try:
            with open(target, encoding="utf-8") as file:
                text = file.read(MAX_POSITION_CHARS + 1)
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read {target}: {exc}") from None
        return _parse_text(text, target)
    if _looks_like_a_file(target):
        raise UsageError(f"cannot read {target}: no such file")
    return "position", _one_line(target, "the position")


def _parse_text(text: str, where: str) -> tuple[str, dict[str, Any] | str]:
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            record = json.loads(stripped)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise UsageError(f"cannot read the record in {where}: {exc}") from None
        if not isinstance(record, dict):
            raise UsageError("a record is a JSON object")
        return "record", record
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        raise UsageError(f"{where} holds no position")
    if len(lines) > 1:
        raise UsageError(f"{where} holds {len(lines)} lines; a position is one line")
    return "position", _one_line(lines[0], where)


def _one_line(text: str, where: str) -> str:
    if len(text) > MAX_POSITION_CHARS:
        raise UsageError(f"{where}: longer than {MAX_POSITION_CHARS} characters, not a position")
    return text.strip()


def _looks_like_a_file(target: str) -> bool:
    """A missing file rather than a position: a path's shape, no spaces."""
    return " " not in target and (os.sep in target or target.lower().endswith((".json", ".txt", ".uno")))


def cmd_analyse(args: argparse.Namespace, screen: Screen) -> int:
    kind, value = read_target(args.target, sys.stdin)
    if args.seconds is not None and not args.seconds > 0:
        raise UsageError("--seconds must be a positive number")
    if args.rollouts is not None and args.rollouts < 1:
        raise UsageError("--rollouts must be at least 1")
    if not 0 <= args.threshold <= 1:
        raise UsageError("--threshold is a win chance from 0 to 1")
    try:
        if kind == "record":
            assert isinstance(value, dict)
            seat = 0 if args.seat is None else args.seat
            result = analyse_record(
                value, seat, seconds=args.seconds, rollouts=args.rollouts, threshold=args.threshold, seed=args.seed
            )
        else:
            assert isinstance(value, str)
            exact = False if args.own_view else None
            analysis = analyse(
                value, args.seat, seconds=args.seconds, rollouts=args.rollouts, seed=args.seed, exact=exact
            )
    except AnalysisError as exc:
        raise UsageError(str(exc)) from None
    except ValueError as exc:  # a malformed position (PositionError) or record
        raise UsageError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
    if kind == "record":
        if args.json:
            screen.out.write(json.dumps(result.to_dict()) + "\n")
        else:
            show_record(screen, result)
        return 0
    if args.json:
        screen.out.write(json.dumps(analysis.to_dict()) + "\n")
    else:
        show_analysis(screen, analysis)
    return 0


def percent(value: float) -> str:
    """A win chance as a percentage.

    >>> percent(0.5), percent(1.0)
    ('50.0%', '100.0%')
    """
    return f"{100 * value:.1f}%"


def how(analysis: Analysis) -> str:
    """How the ratings were reached, in words."""
    if analysis.exact:
        return "exact (every card known, the round solved)"
    where = "compiled heuristic rollouts" if analysis.method == "rollouts" else "Python playouts"
    return f"{analysis.rollouts} {where} of each move"


def analysis_lines(analysis: Analysis) -> list[str]:
    """The table of an analysis: each move's win chance, its interval and its loss, best first."""
    width = max(4, *(len(move.notation) for move in analysis.moves))
    lines = [f"  {'move':<{width}}  {'win':>6}  {'95% interval':<15}  {'loss':>6}"]
    for move in analysis.moves:
        interval = "exact" if analysis.exact else f"{percent(move.low)}-{percent(move.high)}"
        loss = "best" if move is analysis.best else percent(move.loss)
        lines.append(f"  {printable(move.notation):<{width}}  {percent(move.win):>6}  {interval:<15}  {loss:>6}")
    return lines


def show_analysis(screen: Screen, analysis: Analysis) -> None:
    knowledge = "from its own knowledge" if analysis.knowledge == "seat" else "every card known (a full position)"
    screen.line((f"Seat {analysis.seat} to decide, {knowledge}: {how(analysis)}.", "bold"))
    for line in analysis_lines(analysis):
        screen.line(line)
    screen.line(f"Best: {analysis.best.notation} ({percent(analysis.best.win)} to win the round).")
    if analysis.unrated:
        screen.line(f"Not rated: {', '.join(analysis.unrated)} (calls and catches of UNO are always right to make).")
    if analysis.note:
        screen.line(printable(f"Not solved exactly: {analysis.note}."))
    screen.line(f"({analysis.seconds:.2f} s)")


def show_record(screen: Screen, result: RecordAnalysis) -> None:
    decisions = result.decisions
    mistakes = result.mistakes
    screen.line(
        (
            f"Seat {result.seat}: {len(decisions)} decisions rated, {len(mistakes)} "
            f"{'mistake' if len(mistakes) == 1 else 'mistakes'} "
            f"(a loss over {percent(result.threshold)} of win chance).",
            "bold",
        )
    )
    if decisions:
        width = max(6, *(len(d.played) for d in decisions), *(len(d.analysis.best.notation) for d in decisions))
        head = f"  {'action':>6}  {'round':>5}  {'played':<{width}}  {'win':>6}  {'best':<{width}}  {'win':>6}"
        screen.line(f"{head}  {'loss':>6}")
        for d in decisions:
            best = d.analysis.best
            mark = "  mistake" if d.mistake else ""
            screen.line(
                f"  {'#' + str(d.step + 1):>6}  {d.round:>5}  {printable(d.played):<{width}}  {percent(d.win):>6}  "
                f"{printable(best.notation):<{width}}  {percent(best.win):>6}  {percent(d.loss):>6}{mark}"
            )
    if mistakes:
        screen.line(("Mistakes:", "bold"))
        for d in mistakes:
            best = d.analysis.best
            screen.line(
                f"  #{d.step + 1} (round {d.round}): played {printable(d.played)} ({percent(d.win)}); "
                f"better {printable(best.notation)} ({percent(best.win)}), {percent(d.loss)} more win chance"
            )
    else:
        screen.line("No mistakes.")
    screen.line(f"({result.seconds:.2f} s)")
