"""The compiled engine's differential check on many games: each replayed through ``unokit.Game``.

Game ``i`` (of ``--games``) is compiled game ``i`` of ``--seed``'s sequence at a table of 2 to
10 players and one of the editions' option mixes (in turn), played with random decisions through
the decision cycle; the same game is replayed through the Python engine and every step compared
(:func:`unokit.fast.differential.play_both`: the seat asked, every seat's legal actions, the
events, hands, piles, scores and observations).  The Python replay is the cost: a whole match
to 500 takes about 0.6 s on one core (a single round about 0.1 s), so a million matches take
about three days on two cores; ``make test`` replays a few hundred games.

Usage: ``python bench/fast_differential.py [--games 2000] [--seed 0] [--workers W]``.  Prints one
JSON object; exits 1 at the first difference (named in the output), 2 for a bad argument.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from typing import NoReturn

from unokit import Rules


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)


def one_game(job: tuple[int, int]) -> tuple[int, str | None]:
    """Replay game ``index`` of ``seed``; its steps and the difference found, if any."""
    from unokit.fast.differential import OPTION_MIXES, WRITTEN_RULE_CARDS, EngineMismatch, play_both

    seed, index = job
    rng = random.Random(f"fast-differential/{seed}/{index}")
    edition, options = OPTION_MIXES[index % len(OPTION_MIXES)]
    rules = Rules.from_dict(options)
    players = 2 + index % 9 if not rules.teams else 4 + 2 * (index % 4)  # teams: 4, 6, 8 or 10 players
    while players * rules.hand_size + 1 > 108:
        players -= 2
    written = WRITTEN_RULE_CARDS if edition == "wild-jackpot" and rng.random() < 0.5 else None
    try:
        steps = play_both(
            players, rng.getrandbits(40), rules, rng.getrandbits(40), history=16, edition=edition, rule_cards=written
        )
        return steps, None
    except EngineMismatch as error:
        return 0, f"game {index} ({edition}, {players} players, {rules.to_dict()}): {error}"


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=2000, help="games to replay (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the games (default 0)")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: one per CPU)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.workers is not None and args.workers < 1:
        parser.error("--workers must be at least 1")
    started = time.perf_counter()
    steps = 0
    difference = None
    jobs = [(args.seed, index) for index in range(args.games)]
    with multiprocessing.Pool(args.workers) as pool:
        for game_steps, found in pool.imap_unordered(one_game, jobs, chunksize=8):
            steps += game_steps
            if found is not None:
                difference = found
                pool.terminate()
                break
    elapsed = time.perf_counter() - started
    print(
        json.dumps(
            {
                "games": args.games,
                "seed": args.seed,
                "steps_compared": steps,
                "difference": difference,
                "elapsed_s": round(elapsed, 1),
                "games_per_s": round(args.games / elapsed, 1),
            }
        )
    )
    return 1 if difference is not None else 0


if __name__ == "__main__":
    sys.exit(main())
