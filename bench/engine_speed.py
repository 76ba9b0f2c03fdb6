"""Engine speed: decisions per second of random self-play, per edition, plain rules.

Each edition plays seeded 4-player single-round games with a uniformly random legal policy
(a seat chosen uniformly among the deciders, then one of its legal actions) for the given
wall time; each applied action is a decision.  House rules can be given to measure them too.

Usage: ``python bench/engine_speed.py [--seconds 3] [--seed 0] [--rule name=value ...]``.
Prints one JSON object: decisions per second by edition.

``--split`` says instead where a Classic decision's time goes.  The same seeded games (a fixed
amount of work) are played three ways, each timed several times (the best timing counts):

* as above;
* listing the actor's legal actions a second time before each of its decisions (the engine
  caches them, so the second listing is computed afresh): the difference is the listing's cost;
* the same loop of calls (``deciders``, ``legal_actions``, a random choice, ``apply``,
  ``is_over``) on an object that plays nothing, as many times: the loop's own cost, which no
  engine can go below.

It prints microseconds per decision: ``total``, ``loop`` (the floor), ``listing`` (of the
actor's legal actions) and ``rest`` (applying the action and the engine's other calls).
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


def _play(games: int, seed: int, rules: Rules, list_twice: bool) -> tuple[int, float]:
    """``games`` seeded random Classic games (the actor's legal actions listed twice when
    ``list_twice``): the decisions and the seconds taken."""
    rng = random.Random(seed)
    decisions = 0
    started = time.perf_counter()
    for _ in range(games):
        game = Game("classic", PLAYERS, seed=rng.getrandbits(63), rules=rules)
        while not game.is_over:
            deciders = game.deciders()
            seat = deciders[0] if len(deciders) == 1 else rng.choice(deciders)
            if list_twice and seat == game.actor:
                game._actor_actions()  # the uncached listing, once more
            legal = game.legal_actions(seat)
            game.apply(seat, legal[0] if len(legal) == 1 else rng.choice(legal))
            decisions += 1
    return decisions, time.perf_counter() - started


class _Idle:
    """Answers the calls of the loop and plays nothing."""

    is_over = False
    _one = (0,)
    _legal = (1, 2, 3, 4)

    def deciders(self) -> tuple[int, ...]:
        return self._one

    def legal_actions(self, seat: int) -> tuple[int, ...]:
        return self._legal

    def apply(self, seat: int, action: int) -> None:
        pass


def _loop(decisions: int, seed: int) -> float:
    """The seconds the random loop takes for ``decisions`` calls on an idle game."""
    rng = random.Random(seed)
    game = _Idle()
    started = time.perf_counter()
    for _ in range(decisions):
        deciders = game.deciders()
        seat = deciders[0] if len(deciders) == 1 else rng.choice(deciders)
        legal = game.legal_actions(seat)
        game.apply(seat, legal[0] if len(legal) == 1 else rng.choice(legal))
        if game.is_over:
            break
    return time.perf_counter() - started


def split(seconds: float, seed: int, rules: Rules) -> dict[str, float]:
    """Microseconds per Classic decision: in all, the loop's own, listing the legal actions, the rest."""
    decisions, elapsed = _play(20, seed, rules, False)
    games = max(20, int(20 * seconds / 5 / elapsed))  # about a fifth of the time per timing
    best = {"plain": float("inf"), "twice": float("inf"), "loop": float("inf")}
    for _ in range(5):
        decisions, elapsed = _play(games, seed, rules, False)
        best["plain"] = min(best["plain"], elapsed)
        same, elapsed = _play(games, seed, rules, True)
        assert same == decisions, "listing twice changed the games"
        best["twice"] = min(best["twice"], elapsed)
        best["loop"] = min(best["loop"], _loop(decisions, seed))
    micro = 1e6 / decisions
    total = best["plain"] * micro
    loop = best["loop"] * micro
    listing = (best["twice"] - best["plain"]) * micro
    return {
        "decisions": decisions,
        "total_us": round(total, 3),
        "loop_us": round(loop, 3),
        "listing_us": round(listing, 3),
        "rest_us": round(total - loop - listing, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rule", action="append", default=[], help="a rule option as name=JSON value")
    parser.add_argument("--split", action="store_true", help="where a Classic decision's time goes (see above)")
    args = parser.parse_args()
    try:
        rules = Rules.from_dict({"scoring": "single-round", **parse_rule_values(args.rule)})
    except (UsageError, ValueError) as exc:
        parser.error(str(exc))
    if args.split:
        print(json.dumps(split(args.seconds, args.seed, rules)))
        return
    result = {name: round(decisions_per_second(name, args.seconds, args.seed, rules)) for name in sorted(EDITIONS)}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
