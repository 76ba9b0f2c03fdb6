"""Engine speed: decisions per second of random self-play, per edition, plain rules.

Each edition plays seeded 4-player single-round games with a uniformly random legal policy
(a seat chosen uniformly among the deciders, then one of its legal actions) for the given
wall time; each applied action is a decision.  House rules can be given to measure them too.

Usage: ``python bench/engine_speed.py [--seconds 3] [--seed 0] [--rule name=value ...]``.
Prints one JSON object: decisions per second by edition.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from unokit import Game, Rules
from unokit.cli.common import UsageError, parse_rule_values
from unokit.editions import EDITIONS

PLAYERS = 4


def decisions_per_second(edition: str, seconds: float, seed: int, rules: Rules) -> float:
    """Random self-play decisions per second in ``edition``."""
    rng = random.Random(seed)
    decisions = 0
    clock = time.perf_counter
    started = clock()
    deadline = started + seconds
    game = Game(edition, PLAYERS, seed=rng.getrandbits(63), rules=rules)
    while clock() < deadline:
        deciders = game.deciders()
        seat = deciders[0] if len(deciders) == 1 else rng.choice(deciders)
        legal = game.legal_actions(seat)
        game.apply(seat, legal[0] if len(legal) == 1 else rng.choice(legal))
        decisions += 1
        if game.is_over:
            game = Game(edition, PLAYERS, seed=rng.getrandbits(63), rules=rules)
    return decisions / (clock() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rule", action="append", default=[], help="a rule option as name=JSON value")
    args = parser.parse_args()
    try:
        rules = Rules.from_dict({"scoring": "single-round", **parse_rule_values(args.rule)})
    except (UsageError, ValueError) as exc:
        parser.error(str(exc))
    result = {name: round(decisions_per_second(name, args.seconds, args.seed, rules)) for name in sorted(EDITIONS)}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
