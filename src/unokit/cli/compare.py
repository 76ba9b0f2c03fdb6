"""``unokit compare``: rule sets played on the same seeds, every measure with its interval and the
paired difference to the baseline; matplotlib for the report's plots.

The usual options give the baseline; each ``--vs "NAME: OPTIONS"`` adds a rule set made of the
baseline's options followed by OPTIONS, read by the same option parser (so every option works
there, and a later option overrides an earlier one)."""

from __future__ import annotations

import argparse
import copy
import json
import shlex
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, NoReturn

from unokit.analysis.simulate import ENGINES, fast_engine_plays
from unokit.analysis.tournament import MAX_DECISIONS
from unokit.cli.common import (
    Screen,
    UsageError,
    add_ray_option,
    add_rule_options,
    build_rules,
    check_output_folder,
    check_ray,
    check_rows_file,
    edition_names,
    printable,
    progress_bar,
    rule_cards_option,
)
from unokit.editions import get_edition
from unokit.narrate import plural

if TYPE_CHECKING:
    from unokit.analysis.compare import Study
    from unokit.analysis.measures import Setup
    from unokit.cli.common import Commands


# ---------------------------------------------------------------- a rule set's options


class SetupParser(argparse.ArgumentParser):
    """The options of one rule set, for ``--vs`` and the cells of a sweep: errors are usage errors."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def add_setup_options(parser: argparse.ArgumentParser) -> None:
    """The options that make one rule set (shared by the baseline, ``--vs`` and sweeps)."""
    parser.add_argument("--name", metavar="NAME", help="how reports and plots name the rule set")
    parser.add_argument("--edition", default="classic", help=f"edition: {edition_names()} (default classic)")
    parser.add_argument("--players", type=int, metavar="N", help="players, 2 to 10 (default 4, or one per --bots)")
    parser.add_argument(
        "--bots",
        default="heuristic",
        metavar="KINDS",
        help="a bot kind for every seat, or one per seat separated by commas (default heuristic)",
    )
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="python, fast (the compiled engine: random and heuristic bots) or auto (default: fast when it "
        "plays every rule set compared, so that all are dealt alike)",
    )
    parser.add_argument(
        "--rules-file", metavar="FILE", help="wild-jackpot: the rule cards' texts, one per line (default: drawn)"
    )
    parser.add_argument(
        "--max-decisions",
        type=int,
        default=MAX_DECISIONS,
        metavar="D",
        help=f"stop a match after D decisions and count it as capped (default {MAX_DECISIONS})",
    )
    add_rule_options(parser)


def setup_parser() -> SetupParser:
    parser = SetupParser(prog="rule set", add_help=False)
    add_setup_options(parser)
    return parser


def with_options(base: argparse.Namespace, tokens: Sequence[str], what: str) -> argparse.Namespace:
    """The rule set of ``base``'s options followed by ``tokens`` (its own name only if given)."""
    namespace = copy.copy(base)
    namespace.rule = list(base.rule or [])
    namespace.name = None
    try:
        return setup_parser().parse_args(list(tokens), namespace=namespace)
    except UsageError as exc:
        raise UsageError(f"{what}: {exc}") from None


def parse_vs(text: str, base: argparse.Namespace) -> argparse.Namespace:
    """``"NAME: OPTIONS"`` (or only OPTIONS) on top of the baseline's options."""
    name, sep, rest = text.partition(":")
    if not sep or name.strip().startswith("-"):
        name, rest = "", text
    try:
        tokens = shlex.split(rest)
    except ValueError as exc:
        raise UsageError(f"--vs {text!r}: {exc}") from None
    args = with_options(base, tokens, f"--vs {text!r}")
    if name.strip():
        args.name = name.strip()
    return args


Engine = Literal["python", "fast"]


def make_setup(args: argparse.Namespace, engine: Engine) -> Setup:
    """The :class:`~unokit.analysis.measures.Setup` of a rule set's options."""
    from unokit.analysis.measures import Setup

    edition = get_edition(args.edition).name
    kinds = [kind.strip() for kind in args.bots.split(",")]
    if any(not kind for kind in kinds):
        raise UsageError(f"--bots takes bot kinds separated by commas, not {args.bots!r}")
    players = args.players if args.players is not None else (len(kinds) if len(kinds) > 1 else 4)
    if not 2 <= players <= 10:
        raise UsageError(f"--players must be 2 to 10, not {players}")
    if len(kinds) == 1:
        kinds *= players
    if len(kinds) != players:
        raise UsageError(f"--bots names {len(kinds)} bots for {players} players")
    if args.max_decisions < 1:
        raise UsageError(f"--max-decisions must be at least 1, not {args.max_decisions}")
    cards = rule_cards_option(args, edition)
    name = printable(args.name).strip() if args.name else ""
    return Setup(
        edition,
        players,
        tuple(kinds),
        build_rules(args),
        tuple(cards) if cards is not None else None,
        engine,
        args.max_decisions,
        name,
    )


def check_setup(setup: Setup) -> None:
    """Refuse now, before any game, a rule set that cannot be played (bad bots, players, rules)."""
    from unokit.analysis.tournament import load_bot_kinds
    from unokit.bots.base import make_bot
    from unokit.engine.game import Game

    known = load_bot_kinds()
    for kind in setup.bots:
        if kind not in known:
            raise UsageError(f"{setup.label}: unknown bot kind {kind!r}; known: {', '.join(known)}")
    Game(setup.edition, setup.players, seed=0, rules=setup.rules, rule_cards=setup.rule_cards)
    make_bot(setup.bots[0], seed=0, edition=setup.edition)


def why_not_fast(args: argparse.Namespace) -> str | None:
    """Why the compiled engine cannot play the rule set (``None``: it can)."""
    edition = get_edition(args.edition).name
    why = fast_engine_plays(edition, build_rules(args), "heuristic")
    if why is None:
        bad = [kind.strip() for kind in args.bots.split(",") if kind.strip() not in ("random", "heuristic")]
        if bad:
            why = f"the compiled engine has random and heuristic bots, not {bad[0]!r}"
    return why


def make_setups(rule_sets: Sequence[argparse.Namespace]) -> tuple[list[Setup], str]:
    """The set-ups of the rule sets, each on its engine (``auto``: the compiled one when it plays
    every rule set on ``auto`` or ``fast``, so that all are dealt alike), and a line on the engines."""

    wanted = [args.engine for args in rule_sets]
    reasons = {i: why_not_fast(args) for i, args in enumerate(rule_sets) if wanted[i] != "python"}
    for i, why in reasons.items():
        if wanted[i] == "fast" and why is not None:
            raise UsageError(f"--engine fast: {why}")
    fast_everywhere = all(why is None for why in reasons.values())
    setups: list[Setup] = []
    for i, args in enumerate(rule_sets):
        engine: Engine = "fast" if wanted[i] == "fast" or (wanted[i] == "auto" and fast_everywhere) else "python"
        setups.append(make_setup(args, engine))
    names = [s.label for s in setups]
    if len(set(names)) != len(names):
        raise UsageError(f"two rule sets have the same name: {', '.join(names)} (name them: --vs 'NAME: ...')")
    engines = {s.engine for s in setups}
    if engines == {"fast"}:
        note = "Engine: the compiled engine (unokit.fast) for every rule set."
    elif engines == {"python"}:
        why = next((w for w in reasons.values() if w is not None), None)
        note = "Engine: the Python engine for every rule set" + (f" (not compiled: {why})." if why else ".")
    else:
        note = "Engines differ between rule sets: their matches are not dealt alike, so pairing gains little."
    for setup in setups:
        check_setup(setup)
    return setups, note


def add_study_options(parser: argparse.ArgumentParser, what: str, files: str = "report.md, result.json") -> None:
    parser.add_argument("--games", type=int, default=200, metavar="K", help=f"matches per {what} (default 200)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed (default 0)")
    parser.add_argument("--workers", type=int, metavar="W", help="processes (default: one per CPU)")
    parser.add_argument("--out", metavar="DIR", help=f"write {files} and PNG plots there")
    parser.add_argument("--json", action="store_true", help="print one JSON object and nothing else")
    parser.add_argument(
        "--rows",
        metavar="FILE",
        help=f"also write one row per round, seat and match of every {what} to FILE: Parquet (.parquet, needs "
        f"unokit[data]) or CSV (.csv), with a setup column naming the {what} and a level column",
    )
    add_ray_option(parser)


def check_study_options(args: argparse.Namespace) -> None:
    check_ray(args)
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be at least 1, not {args.workers}")
    if args.rows:
        check_rows_file(args.rows)
    if args.out is not None:
        check_output_folder(args.out, "--out")
        from unokit.analysis.tournament import PlotUnavailableError, require_matplotlib

        try:
            require_matplotlib()
        except PlotUnavailableError as exc:
            raise UsageError(f"--out: {exc}") from None


def run_with_progress(setups: Sequence[Setup], args: argparse.Namespace, label: str, baseline: int = 0) -> Study:
    """Play the study with a progress bar; on Ctrl-C or SIGTERM the partial study (``partial`` true).
    ``--rows``: the rows of every match played are written, and closed, either way."""
    from unokit.analysis.compare import run_study
    from unokit.analysis.rows import RowWriter
    from unokit.analysis.tournament import Interrupted

    show = not args.json and sys.stderr.isatty()
    rows = RowWriter(args.rows) if args.rows else None
    try:
        with progress_bar(label, args.games, show) as advance:
            study = run_study(setups, args.games, args.seed, args.workers, advance, baseline, ray=args.ray, rows=rows)
    except Interrupted as stop:  # Ctrl-C, or SIGTERM (the command line turns it into Ctrl-C)
        study = stop.partial
    finally:
        if rows is not None:
            rows.close()
    study.rows_written = rows.rows_written if rows is not None else None
    return study


# ---------------------------------------------------------------- the command


def add_parser(commands: Commands) -> None:
    """The ``compare`` command and its options."""
    parser = commands.add_parser(
        "compare",
        help="compare rule sets on the same seeds: every measure, its interval and the difference",
        description="Play two or more rule sets on the same match seeds and report every measure of each "
        "with its 95% interval, and each rule set's difference to the baseline (the first) with its "
        "interval and p-value, paired match by match and corrected for the many comparisons (Holm). The "
        "options give the baseline; each --vs adds a rule set: the baseline's options followed by its own, "
        "e.g. --vs 'cross: --rule stacking=cross' or --vs 'all wild: --edition all-wild'.",
    )
    add_setup_options(parser)
    parser.add_argument(
        "--vs",
        action="append",
        required=True,
        metavar="'NAME: OPTIONS'",
        help="a rule set to compare with the baseline: a name, a colon and the options that differ (repeatable)",
    )
    add_study_options(parser, "rule set")


def compare_command_line(args: argparse.Namespace) -> str:
    """The command that makes the same report."""
    words = ["unokit", "compare"]
    for option in ("name", "edition", "players", "bots", "engine", "rules_file", "preset", "target", "scoring"):
        value = getattr(args, option)
        if value is not None and not (option == "engine" and value == "auto"):
            words += [f"--{option.replace('_', '-')}", str(value)]
    for pair in args.rule or []:
        words += ["--rule", pair]
    if args.max_decisions != MAX_DECISIONS:
        words += ["--max-decisions", str(args.max_decisions)]
    for text in args.vs:
        words += ["--vs", text]
    words += ["--games", str(args.games), "--seed", str(args.seed)]
    if args.out:
        words += ["--out", args.out]
    if args.rows:
        words += ["--rows", args.rows]
    return shlex.join(words)


def cmd_compare(args: argparse.Namespace, screen: Screen) -> int:
    from unokit.analysis.compare import render_compare_markdown, study_result, write_compare_report

    rule_sets = [args] + [parse_vs(text, args) for text in args.vs]
    check_study_options(args)
    setups, engine_note = make_setups(rule_sets)
    study = run_with_progress(setups, args, " vs ".join(s.label for s in setups))
    result = study_result(study)
    result["engine_note"] = engine_note
    add_rows_note(result, args, study)
    command = compare_command_line(args)
    written: dict[str, Any] | None = None
    if args.out and study.games:
        try:
            written = write_compare_report(args.out, result, command)
        except OSError as exc:
            raise UsageError(f"cannot write to {args.out}: {exc}") from None
    status = 130 if study.partial else 0
    if args.json:
        screen.out.write(json.dumps(result) + "\n")
        return status
    show_result(screen, result, render_compare_markdown(result), written, engine_note)
    return status


def add_rows_note(result: dict[str, Any], args: argparse.Namespace, study: Study) -> None:
    """``result["rows"]``: the ``--rows`` file and its number of rows, when one was asked for."""
    if args.rows:
        result["rows"] = {"file": args.rows, "rows": study.rows_written}


def show_result(
    screen: Screen, result: dict[str, Any], text: str, written: dict[str, Any] | None, engine_note: str
) -> None:
    """Print a study's report (and where its files went)."""
    if result["partial"]:
        screen.line(f"PARTIAL: interrupted after {result['games']} of {result['games_planned']} matches.")
    if not result["games"]:
        screen.line("No match finished before the interruption, so there is no result.")
        return
    screen.console.print(text, markup=False, highlight=False)
    screen.line(engine_note)
    if written is not None:
        screen.line(f"Report written to {written['report']}, with {plural(len(written['plots']), 'plot')}.")
    if "rows" in result:
        screen.line(f"Rows written to {result['rows']['file']} ({plural(result['rows']['rows'], 'row')}).")
    if result["partial"]:
        screen.line("PARTIAL results: interrupted (Ctrl-C or SIGTERM).")
