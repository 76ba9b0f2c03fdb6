"""The batched and vector environments' speed, case by case, in interleaved rounds.

Each case steps ``--envs`` games of Classic in a single round on the compiled engine, the caller
choosing a uniformly random legal action (``BatchedEnv.random_actions``) unless said otherwise:

* ``kernel``: the compiled engine's own batch step (``engine.batch_step``, no bots, no cap);
* ``batched``: ``BatchedEnv`` (its kernel with the round cap, bots and memory off);
* ``batched_memory``: the same, the heuristic's memory kept (``bot_memory=True``);
* ``batched_vs_heuristic``: the caller at one seat, the compiled heuristic at the others;
* ``batched_heuristic_vs_heuristic``: the same, the caller playing ``bot_actions("heuristic")``;
* ``vector_vs_heuristic``: ``UnoVectorEnv`` against the heuristic (NEXT_STEP);
* ``vector_self_play``: ``UnoVectorEnv``, the learner at every seat;
* ``sb3_vs_heuristic``: the Stable-Baselines3 ``UnoVecEnv`` against the heuristic (if installed).

Every case runs ``--seconds`` per round, the cases taking turns round after round so that a change
in the machine's load falls on all; the median and the range over ``--rounds`` rounds are printed,
as learner steps per second (one decision of the caller per game per step; the bots' decisions
come on top) and games per second.

Usage: ``python bench/vector_env.py [--envs 64] [--players 2] [--seconds 1] [--rounds 5]``.
Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from unokit.fast import engine
from unokit.rl.batched import BatchedEnv
from unokit.rl.vector import UnoVectorEnv

SINGLE = {"scoring": "single-round"}
Stepper = Callable[[], int]
"""One step of every game; returns how many games stopped."""


def kernel_case(envs: int, players: int) -> Stepper:
    env = BatchedEnv(envs, players=players, rules=SINGLE)
    env.reset(seed=0)
    template = env._template
    states = env._states
    seats = env._seats
    rewards = env._rewards
    terminated = env._terminated
    next_game = [envs]
    high = env.encoder.high

    def step() -> int:
        next_game[0] = engine.batch_step(
            states,
            template,
            0,
            next_game[0],
            env.random_actions(),
            seats,
            0,
            env._layout,
            high,
            env._obs,
            env._masks,
            rewards,
            terminated,
            env._legal,
        )
        return int(terminated.sum())

    return step


def batched_case(envs: int, players: int, caller: str = "random", **options: Any) -> Stepper:
    env = BatchedEnv(envs, players=players, rules=SINGLE, **options)
    env.reset(seed=0)

    def step() -> int:
        actions = env.bot_actions("heuristic") if caller == "heuristic" else env.random_actions()
        _, _, terminated, truncated, _ = env.step(actions)
        return int((terminated | truncated).sum())

    return step


def vector_case(env: Any) -> Stepper:
    inner = env.env if hasattr(env, "step_async") else env
    if hasattr(env, "step_async"):
        env.seed(0)
        env.reset()
    else:
        env.reset(seed=0)

    def step() -> int:
        actions = inner.batch.random_actions()
        result = env.step(actions)
        if hasattr(env, "step_async"):
            return int(result[2].sum())
        return int((result[2] | result[3]).sum())

    return step


def cases(envs: int, players: int) -> dict[str, Stepper]:
    bots = ["python"] + ["heuristic"] * (players - 1)
    made = {
        "kernel": kernel_case(envs, players),
        "batched": batched_case(envs, players),
        "batched_memory": batched_case(envs, players, bot_memory=True),
        "batched_vs_heuristic": batched_case(envs, players, bots=bots),
        "batched_heuristic_vs_heuristic": batched_case(envs, players, caller="heuristic", bots=bots),
        "vector_vs_heuristic": vector_case(UnoVectorEnv(envs, players, SINGLE, opponents=["heuristic"])),
        "vector_self_play": vector_case(UnoVectorEnv(envs, players, SINGLE, opponents=["self"], bot_memory=False)),
    }
    try:
        from unokit.rl.sb3 import UnoVecEnv
    except ImportError:
        return made
    made["sb3_vs_heuristic"] = vector_case(UnoVecEnv(envs, players, SINGLE, opponents=["heuristic"]))
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=64, help="games per batch (default 64)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per case per round (default 1)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of every case (default 5)")
    args = parser.parse_args()
    steppers = cases(args.envs, args.players)
    for stepper in steppers.values():  # compile and warm up
        for _ in range(20):
            stepper()
    steps: dict[str, list[float]] = {name: [] for name in steppers}
    games: dict[str, list[float]] = {name: [] for name in steppers}
    for _ in range(args.rounds):
        for name, stepper in steppers.items():
            started = time.perf_counter()
            count = ended = 0
            while (elapsed := time.perf_counter() - started) < args.seconds:
                for _ in range(10):
                    ended += stepper()
                count += 10
            steps[name].append(count * args.envs / elapsed)
            games[name].append(ended / elapsed)

    def summary(values: list[float]) -> dict[str, float]:
        return {"median": round(statistics.median(values)), "min": round(min(values)), "max": round(max(values))}

    result = {
        "envs": args.envs,
        "players": args.players,
        "rounds": args.rounds,
        "seconds": args.seconds,
        "learner_steps_per_s": {name: summary(values) for name, values in steps.items()},
        "games_per_s": {name: summary(values) for name, values in games.items()},
        "ratio_to_kernel": {
            name: round(statistics.median(values) / statistics.median(steps["kernel"]), 3)
            for name, values in steps.items()
        },
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
