"""``unokit simulate``: play random matches and count what happened."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from unokit.analysis.parallel import Interrupted
from unokit.analysis.simulate import ENGINES, POLICIES, simulate
from unokit.cli.common import (
    Screen,
    UsageError,
    add_ray_option,
    add_rule_options,
    build_rules,
    check_ray,
    check_rows_file,
    edition_names,
    progress_bar,
    rule_cards_option,
)
from unokit.editions import get_edition
from unokit.narrate import plural

if TYPE_CHECKING:
    from unokit.cli.common import Commands
    from unokit.engine.game import Game
    from unokit.engine.rules import Rules


def add_parser(commands: Commands) -> None:
    """The ``simulate`` command and its options."""
    from unokit.cli.samples import add_sample_options

    editions = edition_names()
    parser = commands.add_parser(
        "simulate",
        help="play matches (random or heuristic players) and count what happened",
        description="Play matches with a uniformly random legal policy (or the heuristic bot) and print "
        "counts. The same seed gives the same counts.",
    )
    parser.add_argument("--edition", default="classic", help=f"edition: {editions} (default classic)")
    parser.add_argument("--players", type=int, default=4, metavar="N", help="players, 2 to 10 (default 4)")
    parser.add_argument("--games", type=int, default=100, metavar="K", help="matches to play (default 100)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object and nothing else")
    parser.add_argument(
        "--policy",
        choices=POLICIES,
        default="random",
        help="random (default: a random deciding seat takes a random legal action) or heuristic (every seat)",
    )
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="python, fast (the compiled engine, either policy: classic, space-jam and all-wild, with the "
        "house rules it plays; the fast extra) or auto (default: fast where it is installed and plays the "
        "edition and rules)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        metavar="W",
        help="the Python engine's processes (default 1), the compiled engine's threads (default: every core)",
    )
    add_ray_option(parser)
    parser.add_argument(
        "--rules-file",
        metavar="FILE",
        help="wild-jackpot: the rule-card texts of every game, one per line (default: the sheet's suggestions)",
    )
    add_sample_options(parser)
    parser.add_argument(
        "--rows",
        metavar="FILE",
        help="also write one row per round, per seat of a round and per game to FILE (.parquet or .csv; "
        "the Python engine only: the games are played again for them, before the run)",
    )
    add_rule_options(parser)


def keep_sample_records(args: argparse.Namespace, screen: Screen, edition: str, rules: Rules) -> None:
    """``--records DIR --sample N`` and ``--rows FILE``: play the games again in :class:`unokit.Game`,
    before the run (the same games as the run's, which may then be stopped by Ctrl-C), and save the
    sample games' records (the compiled engine's games replayed with its random results) and every
    game's rows (the Python engine only)."""
    from unokit.analysis.measures import Setup
    from unokit.analysis.rows import RowWriter, match_rows
    from unokit.analysis.samples import (
        SIMULATE_ROWS_NOT_COMPILED,
        compiled_simulate_game,
        game_summary,
        sample_indices,
        simulate_game,
        write_records,
    )
    from unokit.analysis.simulate import fast_engine_plays
    from unokit.cli.samples import check_sample_options

    count = check_sample_options(args)
    if not count and not args.rows:
        return
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    compiled = args.engine == "fast" or (args.engine == "auto" and fast_engine_plays(edition, rules) is None)
    if compiled and args.rows:
        raise UsageError(SIMULATE_ROWS_NOT_COMPILED)
    if args.rows:
        check_rows_file(args.rows)
    cards = rule_cards_option(args, edition)
    options = {"rules": rules, "rule_cards": cards, "policy": args.policy}
    games: dict[int, Game] = {}
    if args.rows:
        setup = Setup(edition, args.players, (args.policy,) * args.players, rules, engine="python")
        setup = Setup(edition, args.players, setup.bots, rules, name=f"simulate: {setup.label} policy")
        sample = set(sample_indices(args.seed, args.games, count)) if count else set()
        with RowWriter(args.rows) as writer:
            for index in range(args.games):
                tracker: list[Any] = []
                game = simulate_game(edition, args.players, args.seed, index, tracker=tracker, **options)
                writer.write(match_rows(setup, args.seed, index, game_summary(game, tracker[0])))
                if index in sample:
                    games[index] = game
        if not args.json:
            screen.line(f"Rows of the {plural(args.games, 'game')} written to {args.rows}.")
    if count:
        indices = sample_indices(args.seed, args.games, count)

        def play(index: int) -> Game:
            if compiled:  # the compiled engine's game, replayed with its random results
                return compiled_simulate_game(edition, args.players, args.seed, index, **options)
            return games.pop(index, None) or simulate_game(edition, args.players, args.seed, index, **options)

        written = write_records(args.records, indices, play)
        if not args.json:
            screen.line(f"{plural(len(written), 'record')} of sample games written to {args.records}.")


def cmd_simulate(args: argparse.Namespace, screen: Screen) -> int:
    edition = get_edition(args.edition).name
    rules = build_rules(args)
    keep_sample_records(args, screen, edition, rules)
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be at least 1, not {args.workers}")
    rule_cards = rule_cards_option(args, edition)
    check_ray(args)
    show_bar = not args.json and sys.stderr.isatty()
    try:
        with progress_bar(f"{edition}, {args.players} players", args.games, show_bar) as advance:
            result = simulate(
                edition,
                args.players,
                args.games,
                args.seed,
                rules,
                advance,
                rule_cards,
                args.engine,
                args.policy,
                workers=args.workers,
                ray=args.ray,
            )
    except Interrupted as stop:
        result = stop.partial  # the games finished before Ctrl-C
    partial = bool(result.get("partial"))
    status = 130 if partial else 0
    if args.json:
        screen.out.write(json.dumps(result) + "\n")
        return status
    if partial:
        screen.line(
            f"Partial results: interrupted after {result['games']} of {plural(result['games_planned'], 'game')}."
        )
    rules_text = ", ".join(f"{k}={v}" for k, v in result["rules"].items()) or "default rules"
    screen.line(f"Simulated {plural(result['games'], 'game')} of {edition}, {result['players']} players, ", rules_text)
    screen.line(f"  seed                      {result['seed']}")
    engine_words = "compiled (unokit.fast)" if result["engine"] == "fast" else "Python (unokit.Game)"
    screen.line(f"  engine                    {engine_words}, {result['policy']} policy")
    screen.line(f"  rounds                    {result['rounds']}")
    screen.line(f"  decisions                 {result['decisions']}")
    screen.line(f"  mean decisions per game   {result['mean_decisions_per_game']}")
    screen.line("  seat   wins   points")
    for seat in range(result["players"]):
        screen.line(f"  {seat:>4} {result['wins_by_seat'][seat]:>6} {result['points_by_seat'][seat]:>8}")
    if "lever_outcomes" in result:
        written = result["rule_cards"]
        source = "the rule sheet's suggestions" if written is None else f"{len(written)} from {args.rules_file}"
        screen.line(f"  rule cards                {source}")
        levers = result["lever_outcomes"]
        screen.line(f"  lever pulls               {sum(levers.values())}")
        for name, count in levers.items():
            screen.line(f"    {name:<24}{count}")
        performed = result["rule_cards_performed"]
        screen.line(f"  rule cards performed      {sum(performed.values())}")
        screen.line(f"    enforced                {performed['enforced']}")
        screen.line(f"    honour tasks            {performed['honour']}")
    screen.line(f"  elapsed                   {result['elapsed_s']} s")
    if partial:
        no_game = " No game finished, so there is no result." if not result["games"] else ""
        screen.line("Partial results: interrupted by Ctrl-C." + no_game)
    return status
