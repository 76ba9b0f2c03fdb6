"""Who wins the UNO call-and-catch race, per seat: the seat-number order against the fair order.

While a player holds one card without having called UNO, that player may call and every other
player may catch them; the decision cycle (:class:`unokit.rl.cycle.DecisionCycle`) asks them one at
a time.  For every such window opened by a forgetter who is not the actor (the actor decides after
everyone out of turn), this counts whether the forgetter is asked before any catcher: by seat
number (the old order: the lowest seat first) and in the fair order of :mod:`unokit.engine.order`
(the order played now), on the same positions.  Three seats are asked out of turn at 4 players:
a fair order asks the forgetter first a third of the time, at every seat.

Games: ``--games`` seeded single rounds of Classic (seeds 0, 1, ...), random decisions through the
cycle; a seat asked out of turn waits (so each window is counted once, at its first question).
Prints a Markdown table per seat (windows, rate and 95% Wilson interval for each order) and a JSON
line.  Usage: ``python bench/out_of_turn_order.py [--games 1000] [--players 4]``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time

from unokit import Game
from unokit.rl.cycle import DecisionCycle, out_of_turn_order


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if not trials:
        return (0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def measure(games: int, players: int) -> dict[str, list[int]]:
    """Per seat: windows its forgetting opened, and how often it was asked first by seat number
    (``seat_order``) and in the fair order (``fair_order``)."""
    windows = [0] * players
    by_seat = [0] * players
    fair = [0] * players
    for seed in range(games):
        game = Game("classic", players, seed=seed, rules={"scoring": "single-round"})
        cycle = DecisionCycle(game)
        rng = random.Random(seed)
        counted = -1
        while not game.is_over:
            seat, out_of_turn = cycle.asked()
            if game.exposed and len(game.exposed) == 1 and counted != len(game.history):
                counted = len(game.history)
                forgetter = game.exposed[0]
                order = out_of_turn_order(game)
                if forgetter != game.actor and forgetter in order:
                    windows[forgetter] += 1
                    by_seat[forgetter] += min(order) == forgetter
                    fair[forgetter] += order[0] == forgetter
            cycle.act(seat, cycle.wait if out_of_turn else rng.choice(cycle.legal()))
    return {"windows": windows, "seat_order": by_seat, "fair_order": fair}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    started = time.perf_counter()
    counts = measure(args.games, args.players)
    seconds = time.perf_counter() - started
    print(f"{args.games} single rounds of Classic, {args.players} players, random decisions ({seconds:.0f} s)\n")
    print("| forgetter's seat | windows | asked first, seat order (95% CI) | asked first, fair order (95% CI) |")
    print("| --- | ---: | --- | --- |")
    for seat in range(args.players):
        n = counts["windows"][seat]
        cells = []
        for name in ("seat_order", "fair_order"):
            k = counts[name][seat]
            low, high = wilson(k, n)
            cells.append(f"{k / n:.1%} ({low:.1%}–{high:.1%})" if n else "–")
        print(f"| {seat} | {n} | {cells[0]} | {cells[1]} |")
    print()
    print(json.dumps({"games": args.games, "players": args.players, **counts, "seconds": round(seconds, 1)}))


if __name__ == "__main__":
    main()
