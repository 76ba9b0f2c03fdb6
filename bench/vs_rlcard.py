"""Throughput of unokit against RLCard's UNO environment, random play, 4 players.

Both sides play with a uniformly random legal policy for the same wall time:

* RLCard: ``rlcard.make("uno", config={"game_num_players": 4, "seed": S})``; every
  ``env.step`` call is one step, the action chosen uniformly from
  ``state["legal_actions"]``; the environment is reset when a game is over.
* unokit: Classic, 4 players, full rules (UNO calls and catches, Wild Draw Four
  challenges, draw-then-play), ``scoring="single-round"`` so that a game is one round
  as in RLCard; every step lists the legal actions of a seat chosen uniformly among
  the deciders and applies one of them uniformly; each applied action is a decision.

The environment figures (keys ``unokit_env_...``, ``unokit_rlcard_env_...`` and ``env_ratio``)
time whole environment steps, an observation and a mask built at every step, with the same
uniformly random legal policy and the same 4 players:

* unokit's PettingZoo environment (``unokit.rl.pettingzoo.env``, Classic, single round): every
  ``env.last()`` builds the observation vector and the action mask, every ``env.step`` is one
  step (waits out of turn included); the environment is reset when the match is over;
* unokit's RLCard interface (``unokit.rl.rlcard``), stepped as RLCard's environment is above;
* ``env_ratio`` is unokit's PettingZoo steps per second over RLCard's ``env.step`` ones.

Usage: ``python bench/vs_rlcard.py [--seconds 5] [--seed 0]``.  Prints one JSON object.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from unokit import Game, Rules

PLAYERS = 4


def _timed(seconds: float, step: Callable[[], bool], restart: Callable[[], None]) -> dict[str, float]:
    """Call ``step`` (true when it ends a game, then ``restart`` starts the next) for ``seconds``:
    the steps, the games finished and the time taken."""
    steps = 0
    games = 0
    clock = time.perf_counter
    started = clock()
    deadline = started + seconds
    while True:
        over = step()
        steps += 1
        if over:
            games += 1
            if clock() >= deadline:
                break
            restart()
        elif clock() >= deadline:
            break
    return {"steps": steps, "games": games, "elapsed_s": clock() - started}


def bench_unokit(seconds: float, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    rules = Rules(scoring="single-round")
    game = Game("classic", PLAYERS, seed=rng.getrandbits(63), rules=rules)

    def step() -> bool:
        deciders = game.deciders()
        seat = deciders[0] if len(deciders) == 1 else rng.choice(deciders)
        legal = game.legal_actions(seat)
        game.apply(seat, legal[0] if len(legal) == 1 else rng.choice(legal))
        return game.is_over

    def restart() -> None:
        nonlocal game
        game = Game("classic", PLAYERS, seed=rng.getrandbits(63), rules=rules)

    return _timed(seconds, step, restart)


def bench_rlcard(seconds: float, seed: int) -> dict[str, float]:
    rlcard = importlib.import_module("rlcard")
    env = rlcard.make("uno", config={"game_num_players": PLAYERS, "seed": seed})
    return _step_rlcard_env(env, seconds, seed)


def bench_rlcard_interface(seconds: float, seed: int) -> dict[str, float]:
    uno_rlcard = importlib.import_module("unokit.rl.rlcard")
    env = uno_rlcard.make("classic", config={"game_num_players": PLAYERS, "seed": seed})
    return _step_rlcard_env(env, seconds, seed)


def _step_rlcard_env(env: Any, seconds: float, seed: int) -> dict[str, float]:
    """Steps of an environment with RLCard's interface, a uniformly random legal action each."""
    rng = random.Random(seed)
    state, _ = env.reset()

    def step() -> bool:
        nonlocal state
        legal = list(state["legal_actions"])
        state, _ = env.step(legal[0] if len(legal) == 1 else rng.choice(legal))
        return bool(env.is_over())

    def restart() -> None:
        nonlocal state
        state, _ = env.reset()

    return _timed(seconds, step, restart)


def bench_pettingzoo_env(seconds: float, seed: int) -> dict[str, float]:
    np = importlib.import_module("numpy")
    pettingzoo = importlib.import_module("unokit.rl.pettingzoo")
    rng = np.random.default_rng(seed)
    env = pettingzoo.env(edition="classic", players=PLAYERS, rules={"scoring": "single-round"})
    env.reset(seed=seed)

    def step() -> bool:
        observation, _, _, _, _ = env.last()
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        return bool(env.unwrapped.game.is_over)

    return _timed(seconds, step, env.reset)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=5.0, help="wall time for each side (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of both sides (default 0)")
    args = parser.parse_args(argv)
    try:
        importlib.import_module("rlcard")
    except ImportError:
        print(
            "rlcard is not installed: install the bench extra (pip install -e '.[bench]', or make bench)",
            file=sys.stderr,
        )
        return 2
    uno = bench_unokit(args.seconds, args.seed)
    rl = bench_rlcard(args.seconds, args.seed)
    zoo = bench_pettingzoo_env(args.seconds, args.seed)
    interface = bench_rlcard_interface(args.seconds, args.seed)
    zoo_rate = zoo["steps"] / zoo["elapsed_s"]
    unokit_rate = uno["steps"] / uno["elapsed_s"]
    rlcard_rate = rl["steps"] / rl["elapsed_s"]
    result: dict[str, Any] = {
        "players": PLAYERS,
        "seconds_each": args.seconds,
        "unokit_decisions": uno["steps"],
        "unokit_games": uno["games"],
        "unokit_decisions_per_s": round(unokit_rate),
        "unokit_games_per_s": round(uno["games"] / uno["elapsed_s"], 1),
        "rlcard_steps": rl["steps"],
        "rlcard_games": rl["games"],
        "rlcard_steps_per_s": round(rlcard_rate),
        "rlcard_games_per_s": round(rl["games"] / rl["elapsed_s"], 1),
        "ratio": round(unokit_rate / rlcard_rate, 2),
        "unokit_env_steps": zoo["steps"],
        "unokit_env_games": zoo["games"],
        "unokit_env_steps_per_s": round(zoo_rate),
        "unokit_env_games_per_s": round(zoo["games"] / zoo["elapsed_s"], 1),
        "unokit_rlcard_env_steps_per_s": round(interface["steps"] / interface["elapsed_s"]),
        "unokit_rlcard_env_games_per_s": round(interface["games"] / interface["elapsed_s"], 1),
        "env_ratio": round(zoo_rate / rlcard_rate, 2),
        "python": platform.python_version(),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
