"""``unokit tournament``: compare bots over many matches, seats rotated; matplotlib only for ``--plot``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from unokit.analysis.tournament import ENGINES, MAX_DECISIONS
from unokit.cli.common import (
    Screen,
    UsageError,
    add_ray_option,
    add_rule_options,
    bot_list,
    build_rules,
    check_counts,
    check_output_file,
    check_ray,
    edition_names,
    progress_bar,
)
from unokit.editions import get_edition
from unokit.narrate import plural

if TYPE_CHECKING:
    from unokit.cli.common import Commands
    from unokit.engine.game import Game
    from unokit.engine.rules import Rules


def add_parser(commands: Commands) -> None:
    """The ``tournament`` command and its options."""
    from unokit.cli.samples import add_sample_options

    editions = edition_names()
    parser = commands.add_parser(
        "tournament",
        help="compare bots over many matches, seats rotated",
        description="Play matches between bots and compare their round win rates (with 95% confidence "
        "intervals). Seats rotate every game and each deal is played from every seat, so use a multiple "
        "of the number of bots as the number of games. The same seed gives the same results.",
    )
    parser.add_argument("--edition", default="classic", help=f"edition: {editions} (default classic)")
    parser.add_argument(
        "--bots",
        required=True,
        metavar="KINDS",
        help="bot kinds, one per seat, separated by commas, e.g. heuristic,random,random",
    )
    parser.add_argument("--games", type=int, default=100, metavar="N", help="matches to play (default 100)")
    parser.add_argument(
        "--workers", type=int, metavar="W", help="processes, or the compiled engine's threads (default: one per CPU)"
    )
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="python",
        help="python (default: every bot), fast (the compiled engine's random and heuristic bots, in the "
        "editions and house rules it plays; the fast extra) or auto (fast where it plays the line-up and rules)",
    )
    add_ray_option(parser)
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object and nothing else")
    parser.add_argument("--plot", metavar="FILE", help="draw the win rates to a PNG file (needs matplotlib)")
    parser.add_argument(
        "--max-decisions",
        type=int,
        default=MAX_DECISIONS,
        metavar="D",
        help=f"stop a match after D decisions and leave it out (default {MAX_DECISIONS})",
    )
    add_sample_options(parser)
    add_rule_options(parser)


def cmd_tournament(args: argparse.Namespace, screen: Screen) -> int:
    from unokit.analysis.tournament import (
        Interrupted,
        PlotUnavailableError,
        plot_tournament,
        require_matplotlib,
        run_tournament,
    )

    kinds = bot_list(args.bots)
    edition = get_edition(args.edition).name
    rules = build_rules(args)
    check_counts(args)
    check_ray(args)
    if args.plot:
        check_output_file(args.plot, "--plot")
        try:
            require_matplotlib()
        except PlotUnavailableError as exc:
            raise UsageError(f"--plot: {exc}") from None
    samples = sample_count(args)
    show = not args.json and sys.stderr.isatty()
    try:
        with progress_bar(f"{edition}: {', '.join(kinds)}", args.games, show) as advance:
            result = run_tournament(
                edition,
                kinds,
                args.games,
                args.seed,
                workers=args.workers,
                rules=rules,
                progress=advance,
                max_decisions=args.max_decisions,
                engine=args.engine,
                ray=args.ray,
            )
    except Interrupted as stop:
        result = stop.partial  # the games finished before Ctrl-C
    partial = bool(result.get("partial"))
    status = 130 if partial else 0
    finished = result["rounds"] > 0
    if args.plot and finished:
        try:
            plot_tournament(result, args.plot)
        except OSError as exc:
            raise UsageError(f"cannot write plot {args.plot}: {exc}") from None
    if samples:
        keep_sample_records(args, screen, edition, kinds, rules, samples, partial, result.get("engine", "python"))
    if args.json:
        screen.out.write(json.dumps(result) + "\n")
        return status
    if partial:
        screen.line(
            f"Partial results: interrupted after {result['games']} of {plural(result['games_planned'], 'game')}."
        )
    rules_text = ", ".join(f"{k}={v}" for k, v in result["rules"].items()) or "default rules"
    screen.line(
        f"Tournament of {edition}, {result['players']} players, {plural(result['games'], 'game')}, "
        f"seed {result['seed']}, {rules_text}"
    )
    engine_words = "the compiled engine (unokit.fast)" if result["engine"] == "fast" else "the Python engine"
    screen.line(f"Seats rotate every game and each deal is played from every seat, on {engine_words}.")
    single = result["scoring"] == "single-round"
    head = f"  {'bot':<12}{'seats':>6}{'rounds':>8}{'wins':>7}{'win rate':>10}  {'95% CI':<17}"
    head += f"{'mean points':>12}" if not single else ""
    head += f"{'match wins':>12}" if not single else ""
    screen.line(head + f"{'ms/decision':>13}")
    for kind, entry in result["results"].items():
        low, high = entry["round_win_ci95"]
        row = f"  {kind:<12}{entry['seats']:>6}{entry['rounds']:>8}{entry['round_wins']:>7}"
        if not entry["rounds"]:
            screen.line(row + "  no round finished")  # a rate and an interval over no round mean nothing
            continue
        row += f"{100 * entry['round_win_rate']:>9.1f}%  {f'{100 * low:.1f}% to {100 * high:.1f}%':<17}"
        if not single:
            row += f"{entry['mean_points']:>12.1f}{entry['match_wins']:>12}"
        timing = entry["mean_decision_s"]
        screen.line(row + (f"{1000 * timing:>13.3f}" if timing is not None else f"{'-':>13}"))
    screen.line(f"Equal bots would each win {100 * result['expected_win_rate']:.1f}% of the rounds.")
    if not finished and not result["unfinished"]:
        screen.line("No game finished before Ctrl-C, so there is no result.")
    elif not finished:
        screen.line(
            f"No game finished: all {result['unfinished']} stopped after {plural(args.max_decisions, 'decision')}, "
            "so there is no result."
        )
    elif result["unfinished"]:
        screen.line(
            f"{plural(result['unfinished'], 'game')} stopped after {plural(args.max_decisions, 'decision')} "
            "and left out of the counts."
        )
    elif not result["seat_balanced"]:
        screen.line(f"Seats are not balanced: use a multiple of {result['players']} games.")
    if args.plot:
        screen.line(f"Plot written to {args.plot}" if finished else "No plot: no game finished.")
    where = f"Ray ({args.ray})" if args.ray else plural(result["workers"], "worker")
    screen.line(f"Elapsed {result['elapsed_s']} s on {where}.")
    if partial:
        screen.line("Partial results: interrupted by Ctrl-C.")
    return status


def sample_count(args: argparse.Namespace) -> int:
    """``--records DIR --sample N`` checked before any game: how many records to keep (0: none)."""
    from unokit.cli.samples import check_sample_options

    return check_sample_options(args)


def keep_sample_records(
    args: argparse.Namespace,
    screen: Screen,
    edition: str,
    kinds: list[str],
    rules: Rules,
    count: int,
    partial: bool,
    engine: str = "python",
) -> None:
    """Play the sample games again in :class:`unokit.Game` and save their records (not after Ctrl-C);
    ``engine``: the engine that played them (``fast``: the compiled games are replayed)."""
    from unokit.analysis.samples import compiled_tournament_game, sample_indices, tournament_game, write_records
    from unokit.analysis.tournament import plan_games

    if partial:
        if not args.json:
            screen.line("No sample records: the run was interrupted.")
        return
    indices = sample_indices(args.seed, args.games, count)
    if engine == "fast":

        def play(index: int) -> Game:
            return compiled_tournament_game(edition, kinds, args.seed, rules, args.max_decisions, index)

    else:
        specs = plan_games(edition, kinds, indices[-1] + 1, args.seed, rules, max_decisions=args.max_decisions)

        def play(index: int) -> Game:
            return tournament_game(specs[index])

    written = write_records(args.records, indices, play, prefix="game")
    if not args.json:
        screen.line(f"{plural(len(written), 'record')} of sample games written to {args.records}.")
