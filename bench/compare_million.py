"""A paired comparison of two rule sets over many matches on the compiled engine: time and memory.

Plays the baseline (Classic, 4 players, heuristic bots, plain rules by default) and the same with
``--rule`` changes (default ``stacking=cross``) on the same match seeds through
:func:`unokit.analysis.compare.run_study`, exactly as ``unokit compare --engine fast`` does, and
prints one JSON object: matches, seconds, matches per second (per rule set and in all), the peak
resident memory of the process (``resource.getrusage``: it stays flat in the number of matches,
since only integer sums are kept) and the headline figures with their paired 95% intervals.

Usage: ``python bench/compare_million.py [--games 1000000] [--players 4] [--bots heuristic]
[--seed 0] [--rule stacking=cross ...]``.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from typing import Any

from unokit.analysis.compare import run_study, study_result
from unokit.analysis.measures import Setup
from unokit.cli.common import UsageError, parse_rule_values
from unokit.engine.rules import Rules

HEADLINE = ("decisions_per_round", "rounds_per_match", "first_player_win_rate", "capped")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1_000_000, help="matches per rule set (default 10^6)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="heuristic", choices=("heuristic", "random"))
    parser.add_argument("--edition", default="classic")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rule", action="append", metavar="NAME=VALUE", help="the other rule set's changes")
    args = parser.parse_args(argv)
    try:
        changes = parse_rule_values(args.rule or ["stacking=cross"])
    except UsageError as exc:
        parser.error(str(exc))
    bots = (args.bots,) * args.players
    baseline = Setup(args.edition, args.players, bots, Rules(), engine="fast", name="plain")
    other = Setup(
        args.edition,
        args.players,
        bots,
        Rules.from_dict(changes),
        engine="fast",
        name=", ".join(f"{k}={v}" for k, v in changes.items()),
    )
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] > 10 or done == total:
            last[0] = now
            print(f"{done} of {total} matches", file=sys.stderr, flush=True)

    started = time.perf_counter()
    study = run_study([baseline, other], args.games, args.seed, progress=progress)
    elapsed = time.perf_counter() - started
    result = study_result(study, HEADLINE)
    figures: dict[str, Any] = {}
    for m in result["measures"]:
        base, changed = m["estimates"]
        d = m["differences"][1]
        figures[m["key"]] = {
            "plain": base and base["value"],
            other.label: changed and changed["value"],
            "difference": d and [d["value"], d["low"], d["high"]],
            "p": d and d["p"],
            "gain": d and d["gain"],
        }
    report = {
        "games": study.games,
        "rule_sets": [baseline.label, other.label],
        "engine": "fast",
        "players": args.players,
        "bots": args.bots,
        "seed": args.seed,
        "elapsed_s": round(elapsed, 1),
        "matches_per_s": round(2 * study.games / elapsed),
        "matches_per_s_per_rule_set": round(study.games / elapsed),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "figures": figures,
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
