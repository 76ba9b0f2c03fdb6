"""Playing strength of the bots: round win rates with 95% confidence intervals.

Pairings (each a tournament of :func:`unokit.analysis.tournament.run_tournament`: seats rotate
every game and each deal is played from every seat; single-round scoring, so a game is
one round and every round counts once):

* Classic, 2 players: heuristic against random;
* Classic, 2 players: ismcts against heuristic (when the ``ismcts`` kind is registered),
  the search bounded by ``--ismcts-ms`` per decision (and ``--ismcts-iterations``);
* with ``--all``: the same pairings for every edition, and with 4 players, one bot
  against three of the other (equal bots would win 25% of the rounds);
* with ``--four-players``: Classic only, and also with 4 players, one against three.

``--ismcts-method auto|tree|rollouts`` chooses the search (``auto``: rollouts of each move where
the compiled heuristic bot plays the game, else the tree; see :mod:`unokit.bots.ismcts`);
``--ismcts-playouts auto|fast|python`` where the tree's playouts run (``auto``: on the
compiled engine where it is installed and plays the game), and ``--ismcts-playout-policy
quick|heuristic`` how they play (the heuristic: compiled playouts only); the output names them.

A game still going after ``--max-decisions`` decisions (a round of these bots takes a
few dozen to a few hundred) is stopped and left out; each pairing says how many were.

``--ray [ADDRESS]`` plays the games as Ray tasks (a Ray instance started here, or the cluster at
ADDRESS; see docs/designers.md, "On a Ray cluster"): the same seed gives the same counts (the search
bounded by time plays differently from run to run wherever it runs).

``--rule NAME=VALUE`` (repeatable) plays every pairing under those rule options, e.g. house rules
(``--rule stacking=same --rule seven_swap=true``), and ``--preset NAME`` starts from a preset; the
output names them.  With team play (``--preset teams`` or ``--rule teams=true``) each pairing is two
of each bot at four seats, partners across, and equal teams would win 50% of the rounds.

Usage: ``python bench/strength.py [--games 400] [--ismcts-games 400] [--ismcts-ms 190]
[--ismcts-iterations 100000] [--ismcts-method auto] [--max-decisions 5000] [--all] [--four-players]
[--workers W] [--ray [ADDRESS]] [--seed 0]
[--rule NAME=VALUE ...] [--preset NAME]``
(by default the search is bounded by time: as many iterations as fit in 190 ms).  Prints one JSON object;
progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from typing import Any

from unokit.analysis.tournament import load_bot_kinds, run_tournament
from unokit.cli.common import UsageError, add_ray_option, check_ray, parse_rule_values
from unokit.engine.rules import Rules

EDITIONS = ("classic", "space-jam", "all-wild", "wild-jackpot")


def pairings(all_pairings: bool, ismcts: bool, teams: bool = False, four: bool = False) -> list[tuple[str, list[str]]]:
    """``(edition, bots)`` for each tournament, the bot measured listed first.  With house rule
    ``teams``: four seats, two of each bot, partners across (seats rotate, partners stay partners)."""
    pairs = [("heuristic", "random")]
    if ismcts:
        pairs.append(("ismcts", "heuristic"))
    editions = EDITIONS if all_pairings else ("classic",)
    out: list[tuple[str, list[str]]] = []
    for edition in editions:
        for bot, other in pairs:
            if teams:
                out.append((edition, [bot, other, bot, other]))
                continue
            out.append((edition, [bot, other]))
            if all_pairings or four:
                out.append((edition, [bot, other, other, other]))
    return out


def measure(edition: str, bots: list[str], games: int, args: argparse.Namespace) -> dict[str, Any]:
    options = {
        "ismcts": {
            "ms": args.ismcts_ms,
            "iterations": args.ismcts_iterations,
            "playouts": args.ismcts_playouts,
            "playout_policy": args.ismcts_playout_policy,
            "method": args.ismcts_method,
        }
    }
    started = time.perf_counter()
    result = run_tournament(
        edition,
        bots,
        games,
        args.seed,
        workers=args.workers,
        rules={**args.rules, "scoring": "single-round"},
        bot_options={kind: options[kind] for kind in set(bots) if kind in options},
        max_decisions=args.max_decisions,
        ray=args.ray,
    )
    focus, other = result["results"][bots[0]], result["results"][bots[1]]
    entry = {
        "edition": edition,
        "players": len(bots),
        "bot": bots[0],
        "against": bots[1],
        "games": games,
        "unfinished": result["unfinished"],
        "equal_win_rate": result["expected_win_rate"],
        "win_rate": focus["round_win_rate"],
        "ci95": focus["round_win_ci95"],
        "wins": focus["round_wins"],
        "rounds": focus["rounds"],
        "against_win_rate": other["round_win_rate"],
        "against_ci95": other["round_win_ci95"],
        "ms_per_decision": {
            bots[0]: round(1000 * focus["mean_decision_s"], 3),
            bots[1]: round(1000 * other["mean_decision_s"], 3),
        },
        "elapsed_s": round(time.perf_counter() - started, 1),
    }
    print(
        f"{edition} {len(bots)}p {bots[0]} vs {bots[1]}: {100 * entry['win_rate']:.1f}% "
        f"[{100 * entry['ci95'][0]:.1f}, {100 * entry['ci95'][1]:.1f}] in {entry['elapsed_s']} s",
        file=sys.stderr,
    )
    return entry


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=400, help="games per heuristic/random pairing (default 400)")
    parser.add_argument("--ismcts-games", type=int, default=400, help="games per ismcts pairing (default 400)")
    parser.add_argument("--ismcts-ms", type=float, default=190.0, help="ismcts time per decision, ms (default 190)")
    parser.add_argument(
        "--ismcts-iterations", type=int, default=100_000, help="ismcts iterations per decision (default 100000)"
    )
    parser.add_argument(
        "--max-decisions",
        type=int,
        default=5000,
        help="stop a game after this many decisions and leave it out, reported as unfinished (default 5000)",
    )
    parser.add_argument("--all", action="store_true", help="every edition, and 4 players (one against three)")
    parser.add_argument("--four-players", action="store_true", help="Classic also with 4 players (one against three)")
    parser.add_argument(
        "--ismcts-playouts",
        choices=("auto", "fast", "python"),
        default="auto",
        help="where ismcts plays out: auto (default: compiled where installed), fast or python",
    )
    parser.add_argument(
        "--ismcts-playout-policy",
        choices=("quick", "heuristic"),
        default="quick",
        help="ismcts playouts: quick (default) or heuristic (compiled playouts only)",
    )
    parser.add_argument(
        "--ismcts-method",
        choices=("auto", "tree", "rollouts"),
        default="auto",
        help="ismcts search: auto (default), tree or rollouts (see unokit.bots.ismcts)",
    )
    parser.add_argument("--workers", type=int, default=None, help="processes (default: one per CPU)")
    add_ray_option(parser)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--rule", action="append", default=[], metavar="NAME=VALUE", help="a rule option for every pairing (repeatable)"
    )
    parser.add_argument("--preset", metavar="NAME", help="start from a preset of house rules (see docs/rules.md)")
    args = parser.parse_args(argv)
    if args.ismcts_ms <= 0 or args.ismcts_ms > 200:
        parser.error("--ismcts-ms must be above 0 and at most 200")
    try:
        preset = {"preset": args.preset} if args.preset is not None else {}
        args.rules = Rules.from_dict({**preset, **parse_rule_values(args.rule)}).to_dict()
        check_ray(args)
    except (UsageError, ValueError) as exc:
        parser.error(str(exc))
    ismcts = "ismcts" in load_bot_kinds()
    started = time.perf_counter()
    results = [
        measure(edition, bots, args.ismcts_games if "ismcts" in bots else args.games, args)
        for edition, bots in pairings(args.all, ismcts, bool(args.rules.get("teams")), args.four_players)
    ]
    report = {
        "benchmark": "bot strength: round win rates, single-round scoring, seats rotated, deals paired",
        "settings": {
            "games": args.games,
            "ismcts_games": args.ismcts_games if ismcts else None,
            "ismcts_ms": args.ismcts_ms if ismcts else None,
            "ismcts_iterations": args.ismcts_iterations if ismcts else None,
            "ismcts_playouts": args.ismcts_playouts if ismcts else None,
            "ismcts_playout_policy": args.ismcts_playout_policy if ismcts else None,
            "ismcts_method": args.ismcts_method if ismcts else None,
            "max_decisions": args.max_decisions,
            "all": args.all,
            "seed": args.seed,
            "workers": args.workers or os.cpu_count(),
            "ray": args.ray,
            "rules": args.rules,
        },
        "ismcts_registered": ismcts,
        "pairings": results,
        "elapsed_s": round(time.perf_counter() - started, 1),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
