"""The compiled engine's differential check on many games: each replayed through ``unokit.Game``.

Game ``i`` (of ``--games``) is compiled game ``i`` of ``--seed``'s sequence at a table of 2 to
10 players and one of the editions' option mixes (in turn: ``unokit.fast.differential.OPTION_MIXES``,
every edition and every rule option), played with random decisions and replayed through the
Python engine with the compiled game's shuffles and random draws.

``--check steps`` (the default) plays through the decision cycle and compares every step
(:func:`unokit.fast.differential.play_both`: the seat asked, every seat's legal actions, the
events, hands, piles, scores and observations).  That costs: a whole match to 500 takes about
0.6 s on one core (a single round about 0.1 s).  ``--check end`` plays each game whole on the
compiled engine at once, recording its decisions, events and random draws
(:func:`unokit.fast.differential.replay_recorded`), then replays it: every decision must be legal
in Python with as many legal actions, the events must be the same in order, and the hands,
piles, scores and winner the same at the end.  That is cheap enough for a million games.
``--rounds`` plays single rounds (``scoring=single-round``) of every mix but knockout scoring's;
``--policy heuristic`` (with ``--check end``) plays tables of compiled heuristic bots instead of
random decisions, cycling through the same mixes: realistic games, much shorter than random ones
(a random round of All Wild under ``mercy`` takes some 13,000 decisions).

Usage: ``python bench/fast_differential.py [--games 2000] [--seed 0] [--first 0] [--workers W] [--check steps|end]
[--rounds] [--policy random|heuristic]``.  Prints one JSON object (progress on stderr); exits 1 at
the first difference (named in the output), 2 for a bad argument.
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


def game_setup(seed: int, index: int, rounds: bool) -> tuple[str, Rules, int, tuple[str, ...] | None, random.Random]:
    """Game ``index``'s edition, rules, table size and written rule cards, and its generator (the
    same with either policy: the compiled bots play every mix)."""
    from unokit.editions import get_edition
    from unokit.fast.differential import OPTION_MIXES, WRITTEN_RULE_CARDS

    rng = random.Random(f"fast-differential/{seed}/{index}")
    edition, options = OPTION_MIXES[index % len(OPTION_MIXES)]
    if rounds and options.get("scoring") != "knockout":
        options = {**options, "scoring": "single-round"}
    rules = Rules.from_dict(options)
    players = 2 + index % 9 if not rules.teams else 4 + 2 * (index % 4)  # teams: 4, 6, 8 or 10 players
    cards = len(get_edition(edition).deck_cards(rules))
    while players * rules.hand_size + 1 > cards:
        players -= 2 if rules.teams else 1
    written = WRITTEN_RULE_CARDS if edition == "wild-jackpot" and rng.random() < 0.5 else None
    return edition, rules, players, written, rng


def one_game(job: tuple[int, int, str, bool, str]) -> tuple[int, str | None]:
    """Replay game ``index`` of ``seed``; the decisions compared and the difference found, if any."""
    from unokit.fast.differential import EngineMismatch, play_both, replay_recorded

    seed, index, check, rounds, policy = job
    edition, rules, players, written, rng = game_setup(seed, index, rounds)
    try:
        if check == "end":
            game_seed = rng.getrandbits(40)
            steps = replay_recorded(players, game_seed, index, rules, edition, written, policy)
        else:
            game_seed, policy_seed = rng.getrandbits(40), rng.getrandbits(40)
            steps = play_both(players, game_seed, rules, policy_seed, history=16, edition=edition, rule_cards=written)
        return steps, None
    except EngineMismatch as error:
        return 0, f"game {index} ({edition}, {players} players, {rules.to_dict()}, {policy}): {error}"


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=2000, help="games to replay (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the games (default 0)")
    parser.add_argument("--first", type=int, default=0, help="number of the first game (default 0)")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: one per CPU)")
    parser.add_argument(
        "--check",
        choices=("steps", "end"),
        default="steps",
        help="compare every step (default), or replay whole recorded games and compare their events and end",
    )
    parser.add_argument("--rounds", action="store_true", help="single rounds (every mix but knockout scoring's)")
    parser.add_argument(
        "--policy",
        choices=("random", "heuristic"),
        default="random",
        help="with --check end: random decisions (default), or heuristic bots",
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.first < 0:
        parser.error("--first must be at least 0")
    if args.workers is not None and args.workers < 1:
        parser.error("--workers must be at least 1")
    started = time.perf_counter()
    steps = 0
    difference = None
    if args.policy != "random" and args.check != "end":
        parser.error("--policy heuristic needs --check end")
    jobs = (
        (args.seed, index, args.check, args.rounds, args.policy) for index in range(args.first, args.first + args.games)
    )
    done = 0
    # In order, so that the games done are always games first … first + done - 1; workers are
    # replaced now and then (in a million-game run, long-lived workers ran at half speed after half an hour).
    with multiprocessing.Pool(args.workers, maxtasksperchild=100) as pool:
        for game_steps, found in pool.imap(one_game, jobs, chunksize=8 if args.check == "steps" else 64):
            steps += game_steps
            done += 1
            if found is not None:
                difference = found
                pool.terminate()
                break
            if done % 10_000 == 0:
                print(f"{done} games, {steps} decisions, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    elapsed = time.perf_counter() - started
    print(
        json.dumps(
            {
                "games": args.games,
                "games_replayed": done,
                "first": args.first,
                "seed": args.seed,
                "check": args.check,
                "rounds": args.rounds,
                "policy": args.policy,
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
