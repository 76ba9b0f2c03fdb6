"""``unokit stats``: a Markdown report with plots on matches between bots (needs matplotlib)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from unokit.analysis.simulate import ENGINES
from unokit.analysis.tournament import MAX_DECISIONS
from unokit.cli.common import (
    Screen,
    UsageError,
    add_ray_option,
    add_rule_options,
    build_rules,
    check_counts,
    check_output_folder,
    check_ray,
    check_rows_file,
    edition_names,
    progress_bar,
)
from unokit.cli.samples import DEFAULT_SAMPLE, add_sample_options, check_sample_options
from unokit.editions import get_edition
from unokit.engine.rules import Rules
from unokit.narrate import plural

if TYPE_CHECKING:
    from unokit.cli.common import Commands


def add_parser(commands: Commands) -> None:
    """The ``stats`` command and its options."""
    editions = edition_names()
    parser = commands.add_parser(
        "stats",
        help="write a report on matches between bots (Markdown and plots)",
        description="Play matches with the same kind of bot in every seat and write DIR/report.md with PNG "
        "plots (needs matplotlib): game length, first-player and seat advantage, points, special cards "
        "and, for wild-jackpot, the lever and rule cards.",
    )
    parser.add_argument("--edition", default="classic", help=f"edition: {editions} (default classic)")
    parser.add_argument("--players", type=int, default=4, metavar="N", help="players, 2 to 10 (default 4)")
    parser.add_argument("--games", type=int, default=100, metavar="K", help="matches to play (default 100)")
    parser.add_argument("--out", required=True, metavar="DIR", help="directory for report.md and the plots")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed (default 0)")
    parser.add_argument("--bots", default="random", metavar="KIND", help="bot kind in every seat (default random)")
    parser.add_argument("--compare", action="store_true", help="also play every other edition and compare them")
    parser.add_argument("--workers", type=int, metavar="W", help="processes (default: one per CPU)")
    add_ray_option(parser)
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="python, fast (the compiled engine and bots: classic, space-jam and all-wild with the house rules "
        "it plays, random or heuristic bots) or auto (default: fast where it plays the matches)",
    )
    parser.add_argument(
        "--max-decisions",
        type=int,
        default=MAX_DECISIONS,
        metavar="D",
        help=f"stop a match after D decisions and leave it out (default {MAX_DECISIONS})",
    )
    parser.add_argument(
        "--rows",
        metavar="FILE",
        help="also write one row per round and one per match to FILE: Parquet (.parquet, needs unokit[data]) "
        "or CSV (.csv), with a level column (round or match)",
    )
    add_sample_options(parser)
    add_rule_options(parser)


def stats_command_line(args: argparse.Namespace) -> str:
    """The command that makes the same report (every setting spelled out)."""
    words = ["unokit", "stats", "--edition", get_edition(args.edition).name, "--players", str(args.players)]
    words += ["--games", str(args.games), "--seed", str(args.seed), "--bots", args.bots, "--out", args.out]
    if args.engine != "auto":
        words += ["--engine", args.engine]
    if args.compare:
        words.append("--compare")
    if args.target is not None:
        words += ["--target", str(args.target)]
    if args.scoring is not None:
        words += ["--scoring", args.scoring]
    for pair in args.rule or []:
        words += ["--rule", pair]
    if args.max_decisions != MAX_DECISIONS:
        words += ["--max-decisions", str(args.max_decisions)]
    if args.rows:
        words += ["--rows", args.rows]
    if args.records:
        words += ["--records", args.records, "--sample", str(args.sample or DEFAULT_SAMPLE)]
    return shlex.join(words)


def cmd_stats(args: argparse.Namespace, screen: Screen) -> int:
    from unokit.analysis.rows import RowWriter
    from unokit.analysis.stats import make_report
    from unokit.analysis.tournament import Interrupted, PlotUnavailableError, require_matplotlib

    edition = get_edition(args.edition).name
    rules = build_rules(args)
    check_counts(args)
    if args.bots.strip() != args.bots or not args.bots or "," in args.bots:
        raise UsageError(f"--bots takes one bot kind, for every seat, not {args.bots!r}")
    check_output_folder(args.out, "--out")
    check_ray(args)
    samples = check_sample_options(args)
    if args.rows:
        check_rows_file(args.rows)
    try:
        require_matplotlib()
    except PlotUnavailableError as exc:
        raise UsageError(f"stats: {exc}") from None
    editions = 4 if args.compare else 1
    show = not args.json and sys.stderr.isatty()
    rows = RowWriter(args.rows) if args.rows else None
    try:
        with progress_bar(f"{edition}, {args.players} players", args.games * editions, show) as advance:
            summary = make_report(
                args.out,
                edition,
                args.players,
                args.games,
                args.seed,
                bot=args.bots,
                workers=args.workers,
                rules=rules,
                compare=args.compare,
                command=stats_command_line(args),
                progress=advance,
                max_decisions=args.max_decisions,
                engine=args.engine,
                rows=rows,
                ray=args.ray,
            )
    except Interrupted as stop:
        summary = stop.partial  # the report of the matches finished before Ctrl-C
    finally:
        if rows is not None:
            rows.close()
    status = 130 if summary["partial"] else 0
    if args.json:
        screen.out.write(json.dumps(summary) + "\n")
        return status
    if summary["partial"]:
        screen.line("Partial results: interrupted by Ctrl-C; the report covers the matches played so far.")
    screen.line(f"Report written to {summary['report']}, with {plural(len(summary['plots']), 'plot')}.")
    for name, data in summary["editions"].items():
        first = data["first_player_win_rate"]
        measures = "no round finished"  # a mean and a rate over no round mean nothing
        if data["rounds"]:
            measures = f"{data['mean_decisions_per_round']} decisions per round, first player wins {100 * first:.1f}%"
        played = f" of {data['games_played']} played" if data["partial"] else ""
        screen.line(
            f"  {name:<13} {plural(data['rounds'], 'round')}{played}, {measures}"
            + (f", {data['unfinished']} stopped at the cap and left out" if data["unfinished"] else "")
        )
    if rows is not None:
        screen.line(f"Rows written to {args.rows} ({plural(rows.rows_written, 'row')}).")
    if samples and not summary["partial"]:
        written = write_stats_records(
            args, edition, rules, samples, summary["editions"][edition].get("engine", "python")
        )
        screen.line(f"{plural(len(written), 'record')} of sample matches written to {args.records}.")
    elif samples:
        screen.line("No sample records: the run was interrupted.")
    return status


def write_stats_records(
    args: argparse.Namespace, edition: str, rules: Rules, count: int, engine: str = "python"
) -> list[Path]:
    """Play again, in :class:`unokit.Game`, the sample matches of the run (on ``engine``, the one
    that played them: ``fast`` replays the compiled matches) and save their records."""
    from unokit.analysis.measures import Setup
    from unokit.analysis.samples import compiled_stats_game, sample_indices, stats_game, write_records

    setup = Setup(edition, args.players, (args.bots,) * args.players, rules, max_decisions=args.max_decisions)
    indices = sample_indices(args.seed, args.games, count)
    play = compiled_stats_game if engine == "fast" else stats_game
    return write_records(args.records, indices, lambda index: play(setup, args.seed, index))
