"""The speed of an analysis (:func:`unokit.analysis.analyse`): rollouts per second on the
compiled engine against the Python playout, side by side in one run.

``--positions`` decisions are taken from Classic UNO matches of heuristic bots (``--players``
seats, single-round scoring, seeds from ``--seed``; one decision of at least two moves from each
match, some way into the round).  Each is analysed from the deciding seat's knowledge twice:
``--rollouts`` rollouts of each move on the compiled engine (``playouts="fast"``: the compiled
heuristic bots finish the round) and ``--python-rollouts`` with the Python playout
(``playouts="python"``: the search's quick policy on :class:`unokit.Game`), after a warm-up that
loads the compiled engine.  A rollout is one move played and the round finished, so an analysis of
``m`` moves plays ``m`` times the rollouts of each.

* ``fast_rollouts_per_s`` and ``python_rollouts_per_s``: rollouts over the analyses' time
  (sampling the deals included); ``ratio``: the first over the second.
* ``fast_ms_per_move`` and ``python_ms_per_move``: the time of a rating of one move at the
  number of rollouts of each side.

Usage: ``python bench/analyse.py [--positions 20] [--players 4] [--rollouts 2000]
[--python-rollouts 100] [--seed 0]``.  Prints one JSON object; a bad argument prints one line on
stderr and exits with 2.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from typing import Any, NoReturn

from unokit import Game, Rules
from unokit.analysis.ratings import analyse
from unokit.bots import HeuristicBot
from unokit.bots.base import non_interrupt_actions


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


def _players_type(text: str) -> int:
    value = _count_type(text)
    if not 2 <= value <= 10:
        raise argparse.ArgumentTypeError(f"expected 2 to 10 players, not {text!r}")
    return value


def decisions(count: int, players: int, seed: int) -> list[Game]:
    """One decision of two moves or more from each of ``count`` matches of heuristic bots."""
    found: list[Game] = []
    index = 0
    while len(found) < count:
        game = Game("classic", players, seed=seed * 1_000_003 + index, rules=Rules(scoring="single-round"))
        bots = [HeuristicBot(seed=seed + index * players + seat) for seat in range(players)]
        stop = random.Random(index).randrange(4, 16)  # some way into the round
        turns = 0
        while not game.is_over:
            deciders = game.deciders()
            seat = game.actor if game.actor in deciders else deciders[0]
            view = game.view(seat)
            if seat == game.actor:
                moves = non_interrupt_actions(game.actions, game.legal_actions(seat))
                turns += 1
                if turns >= stop and len(moves) >= 2 and not game.exposed:
                    found.append(game)
                    break
                game.apply(seat, bots[seat].choose(view))
            else:
                wanted = bots[seat].wants_interrupt(view)
                game.apply(seat, wanted if wanted is not None else game.legal_actions(seat)[0])
        index += 1
    return found


def timed(games: list[Game], rollouts: int, playouts: str) -> dict[str, Any]:
    played = moves = 0
    started = time.perf_counter()
    for index, game in enumerate(games):
        analysis = analyse(game, rollouts=rollouts, seed=index, exact=False, playouts=playouts)
        played += analysis.rollouts * len(analysis.moves)
        moves += len(analysis.moves)
    return {"rollouts": played, "moves": moves, "elapsed_s": time.perf_counter() - started}


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--positions", type=_count_type, default=20, help="decisions analysed (default 20)")
    parser.add_argument("--players", type=_players_type, default=4, help="players (default 4)")
    parser.add_argument("--rollouts", type=_count_type, default=2000, help="compiled rollouts of each move (2000)")
    parser.add_argument(
        "--python-rollouts", type=_count_type, default=100, help="Python rollouts of each move (default 100)"
    )
    parser.add_argument("--seed", type=_count_type, default=1, help="seed of the matches (default 1)")
    args = parser.parse_args(argv)
    try:
        import unokit.fast.heuristic  # noqa: F401
    except ImportError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    games = decisions(args.positions, args.players, args.seed)
    analyse(games[0], rollouts=8, exact=False, playouts="fast")  # loads (or compiles) the compiled rollouts
    fast = timed(games, args.rollouts, "fast")
    python = timed(games, args.python_rollouts, "python")
    fast_rate = fast["rollouts"] / fast["elapsed_s"]
    python_rate = python["rollouts"] / python["elapsed_s"]
    result = {
        "edition": "classic",
        "players": args.players,
        "positions": args.positions,
        "moves": fast["moves"],
        "seed": args.seed,
        "fast_rollouts_per_move": args.rollouts,
        "fast_rollouts": fast["rollouts"],
        "fast_rollouts_per_s": round(fast_rate),
        "fast_ms_per_move": round(1000 * fast["elapsed_s"] / fast["moves"], 2),
        "python_rollouts_per_move": args.python_rollouts,
        "python_rollouts": python["rollouts"],
        "python_rollouts_per_s": round(python_rate),
        "python_ms_per_move": round(1000 * python["elapsed_s"] / python["moves"], 2),
        "ratio": round(fast_rate / python_rate, 1),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
