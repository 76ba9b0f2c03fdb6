"""``unokit simulate``: play random matches and count what happened."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from rich.console import Console

from unokit.analysis.simulate import ENGINES, POLICIES, simulate
from unokit.cli.common import Screen, UsageError, add_rule_options, build_rules, edition_names, rule_cards_option
from unokit.editions import get_edition
from unokit.narrate import plural

if TYPE_CHECKING:
    from unokit.cli.common import Commands
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
        "--rules-file",
        metavar="FILE",
        help="wild-jackpot: the rule-card texts of every game, one per line (default: the sheet's suggestions)",
    )
    add_sample_options(parser)
    add_rule_options(parser)


def keep_sample_records(args: argparse.Namespace, screen: Screen, edition: str, rules: Rules) -> None:
    """``--records DIR --sample N``: play the sample games in :class:`unokit.Game`, before the run, and
    save their records (the same games as the run's, which may then be stopped by Ctrl-C)."""
    from unokit.analysis.samples import NOT_COMPILED, sample_indices, simulate_game, write_records
    from unokit.analysis.simulate import fast_engine_plays
    from unokit.cli.samples import check_sample_options

    count = check_sample_options(args)
    if not count:
        return
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.engine == "fast" or (args.engine == "auto" and fast_engine_plays(edition, rules) is None):
        raise UsageError(NOT_COMPILED)
    cards = rule_cards_option(args, edition)
    indices = sample_indices(args.seed, args.games, count)
    options = {"rules": rules, "rule_cards": cards, "policy": args.policy}
    written = write_records(
        args.records, indices, lambda index: simulate_game(edition, args.players, args.seed, index, **options)
    )
    if not args.json:
        screen.line(f"{plural(len(written), 'record')} of sample games written to {args.records}.")


def cmd_simulate(args: argparse.Namespace, screen: Screen) -> int:
    edition = get_edition(args.edition).name
    rules = build_rules(args)
    keep_sample_records(args, screen, edition, rules)
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    rule_cards = rule_cards_option(args, edition)
    show_bar = not args.json and sys.stderr.isatty()
    if show_bar:
        from rich.progress import Progress

        with Progress(console=Console(file=sys.stderr), transient=True) as bar:
            task = bar.add_task(f"{edition}, {args.players} players", total=args.games)

            def advance(done: int, total: int) -> None:
                bar.update(task, completed=done)

            result = simulate(
                edition, args.players, args.games, args.seed, rules, advance, rule_cards, args.engine, args.policy
            )
    else:
        options = {"rule_cards": rule_cards, "engine": args.engine, "policy": args.policy}
        result = simulate(edition, args.players, args.games, args.seed, rules, **options)
    if args.json:
        screen.out.write(json.dumps(result) + "\n")
        return 0
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
    return 0
