"""The compiled heuristic bot (``unokit.fast.heuristic``): its speed and its strength.

* ``fast_decisions_per_s``: whole games of four compiled heuristic bots on one core (Classic,
  single-round scoring, ``--games`` games of ``--seed``, after a warm-up that compiles); every
  applied action (a turn's play or draw, the drawn card, a colour, a challenge, a call or a
  catch) is a decision.
* ``python_decisions_per_s``: the same tables of :class:`unokit.bots.HeuristicBot` played by
  :func:`unokit.bots.runner.play_match` on :class:`unokit.Game` (``--python-games`` games; the
  engine's time included), and ``python_bot_decisions_per_s`` counting only the bots' own time;
  ``speedup``: the compiled rate over the first.
* ``win_rate``: compiled 2-player games, heuristic against random (``--duel-games`` games, the
  heuristic at seat 0 in the first half and at seat 1 in the second), with its 95% Wilson
  interval, beside ``bench/strength.py``'s figure for the Python bots (394 of 400 rounds: 98.5%).

Usage: ``python bench/fast_heuristic.py [--games 20000] [--python-games 300] [--duel-games 20000]
[--seed 0]``.  Prints one JSON object; a bad argument prints one line on stderr and exits with 2.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from typing import Any, NoReturn

from unokit import Game, Rules
from unokit.analysis.tournament import wilson_interval
from unokit.bots import HeuristicBot, play_match

PLAYERS = 4
STRENGTH_WINS, STRENGTH_GAMES = 394, 400
"""``bench/strength.py``'s heuristic-against-random figure for the Python bots (README)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)


def _count_type(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    return value


def _seed_type(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < 2**62:
        raise argparse.ArgumentTypeError(f"expected a seed from 0 to 2**62 - 1, not {text!r}")
    return value


def bench_compiled(games: int, seed: int) -> dict[str, Any]:
    from unokit.fast.heuristic import play_heuristic_games

    rules = Rules(scoring="single-round")
    play_heuristic_games(10, PLAYERS, rules, seed=seed, first=games, threads=1)  # compiles (or loads) first
    started = time.perf_counter()
    result = play_heuristic_games(games, PLAYERS, rules, seed=seed, threads=1)
    elapsed = time.perf_counter() - started
    decisions = int(result["decisions"].sum())
    return {"decisions": decisions, "elapsed_s": elapsed, "unfinished": int((result["winner"] < 0).sum())}


def bench_python(games: int, seed: int) -> dict[str, Any]:
    rules = Rules(scoring="single-round")
    decisions = 0
    think = 0.0
    started = time.perf_counter()
    for index in range(games):
        game = Game("classic", PLAYERS, seed=seed * 1_000_003 + index, rules=rules)
        bots = [HeuristicBot(seed=seed + index * PLAYERS + seat) for seat in range(PLAYERS)]
        result = play_match(game, bots)
        decisions += sum(result.decisions)
        think += sum(result.think_seconds)
    return {"decisions": decisions, "elapsed_s": time.perf_counter() - started, "think_s": think}


def bench_duel(games: int, seed: int) -> dict[str, Any]:
    from unokit.fast.heuristic import play_bots_games

    rules = Rules(scoring="single-round")
    half = games // 2
    first = play_bots_games(half, 2, rules, seed=seed, heuristic_seats=[0], threads=1)
    second = play_bots_games(games - half, 2, rules, seed=seed, first=half, heuristic_seats=[1], threads=1)
    wins = int((first["winner"] == 0).sum() + (second["winner"] == 1).sum())
    unfinished = int((first["winner"] < 0).sum() + (second["winner"] < 0).sum())
    return {"wins": wins, "games": games, "unfinished": unfinished}


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=_count_type, default=20_000, help="compiled 4-player games (default 20000)")
    parser.add_argument("--python-games", type=_count_type, default=300, help="Python 4-player games (default 300)")
    parser.add_argument(
        "--duel-games", type=_count_type, default=20_000, help="compiled 2-player games (default 20000)"
    )
    parser.add_argument("--seed", type=_seed_type, default=0, help="seed of every side (default 0)")
    args = parser.parse_args(argv)
    try:
        import unokit.fast.heuristic  # noqa: F401
    except ImportError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    compiled = bench_compiled(args.games, args.seed)
    python = bench_python(args.python_games, args.seed)
    duel = bench_duel(args.duel_games, args.seed)
    fast_rate = compiled["decisions"] / compiled["elapsed_s"]
    python_rate = python["decisions"] / python["elapsed_s"]
    low, high = wilson_interval(duel["wins"], duel["games"])
    ref_low, ref_high = wilson_interval(STRENGTH_WINS, STRENGTH_GAMES)
    result: dict[str, Any] = {
        "players": PLAYERS,
        "scoring": "single-round",
        "seed": args.seed,
        "fast_games": args.games,
        "fast_decisions": compiled["decisions"],
        "fast_unfinished": compiled["unfinished"],
        "fast_decisions_per_s": round(fast_rate),
        "fast_games_per_s": round(args.games / compiled["elapsed_s"]),
        "python_games": args.python_games,
        "python_decisions": python["decisions"],
        "python_decisions_per_s": round(python_rate),
        "python_bot_decisions_per_s": round(python["decisions"] / python["think_s"]) if python["think_s"] else None,
        "speedup": round(fast_rate / python_rate, 1),
        "duel_players": 2,
        "duel_games": duel["games"],
        "duel_unfinished": duel["unfinished"],
        "win_rate": round(duel["wins"] / duel["games"], 4),
        "win_rate_ci95": [round(low, 4), round(high, 4)],
        "strength_py_win_rate": round(STRENGTH_WINS / STRENGTH_GAMES, 4),
        "strength_py_ci95": [round(ref_low, 4), round(ref_high, 4)],
        "intervals_overlap": low <= ref_high and ref_low <= high,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
