"""``python -m unokit.rl.evaluate``: a learned policy against the heuristic bot, with 95% intervals.

The fast path plays on the compiled engine (:class:`~unokit.rl.batched.BatchedEnv` with the
compiled heuristic in the other seats) and runs the policy with numpy on whole batches: at 2
players, paired games (game ``i`` of the seed played twice, the learned policy at seat 0 then at
seat 1: the same deals, seats rotated), in matches to the target score and in single rounds; at 4
players, one learned policy against three heuristic bots, at every seat in turn.  The cross-check
plays fewer games with :func:`unokit.bots.make_bot` ("learned" and "heuristic") through the
Python runner (:mod:`unokit.bots.runner`); its rate should fall in the fast path's interval, and
the other way round.

Intervals are Wilson's 95% score intervals over the games played (a truncated game, one whose
round reached the cap on decisions, counts as not won)."""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from unokit.bots.learned import NumpyPolicy, load_policy

__all__ = ["evaluate_fast", "evaluate_runner", "interval", "main"]

Z95 = 1.959963984540054


def interval(wins: float, games: int) -> dict[str, float]:
    """The win rate and its 95% Wilson score interval."""
    if games == 0:
        return {"games": 0, "wins": 0.0, "rate": math.nan, "low": math.nan, "high": math.nan}
    p = wins / games
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return {"games": games, "wins": wins, "rate": p, "low": centre - half, "high": centre + half}


def _play_seat(
    policy: NumpyPolicy | Any,
    players: int,
    learner_seat: int,
    scoring: str,
    games: int,
    seed: int,
    envs: int,
    deadline: float,
    edition: str = "classic",
) -> dict[int, tuple[bool, bool]]:
    """Games ``0 … games - 1`` of ``seed``, the policy at ``learner_seat`` and the heuristic elsewhere:
    ``{game: (won, truncated)}`` for the games finished before ``deadline``."""
    from unokit.rl.batched import BatchedEnv

    bots = ["heuristic"] * players
    bots[learner_seat] = "python"
    rules = {"scoring": scoring} if scoring else None
    env = BatchedEnv(min(envs, games), players=players, rules=rules, reward="match", bots=bots, edition=edition)
    observations, infos = env.reset(seed=seed)
    results: dict[int, tuple[bool, bool]] = {}
    playing = infos["game"] < games
    while playing.any() and time.monotonic() < deadline:
        actions = np.zeros(env.num_envs, dtype=np.int64)
        rows = np.flatnonzero(playing)
        actions[rows] = policy.act(observations["observation"][rows], observations["action_mask"][rows])
        game_before = infos["game"].copy()
        observations, rewards, terminated, truncated, infos = env.step(actions, rows=playing)
        stopped = np.flatnonzero((terminated | truncated) & playing)
        for row in stopped.tolist():
            results[int(game_before[row])] = (bool(rewards[row, learner_seat] > 0), bool(truncated[row]))
        playing = playing & ~((terminated | truncated) & (infos["game"] >= games))
    return results


def evaluate_fast(
    policy: NumpyPolicy | Any,
    players: int,
    scoring: str,
    games: int,
    seed: int = 0,
    envs: int = 1024,
    seconds: float = math.inf,
    edition: str = "classic",
) -> dict[str, Any]:
    """The policy against the heuristic on the compiled engine: ``games`` deals, each played with the
    policy at every seat in turn (so ``games × players`` games), or as many as ``seconds`` allow."""
    started = time.monotonic()
    deadline = started + seconds
    per_seat = []
    for seat in range(players):
        share = started + (seconds * (seat + 1) / players if math.isfinite(seconds) else math.inf)
        per_seat.append(_play_seat(policy, players, seat, scoring, games, seed, envs, min(deadline, share), edition))
    paired = set.intersection(*(set(r) for r in per_seat))  # deals played at every seat
    wins = sum(r[g][0] for r in per_seat for g in paired)
    truncated = sum(r[g][1] for r in per_seat for g in paired)
    result = interval(wins, len(paired) * players)
    result.update(
        {
            "players": players,
            "scoring": scoring or "match",
            "deals": len(paired),
            "truncated": truncated,
            "seconds": round(time.monotonic() - started, 1),
            "path": "compiled",
            "by_seat": [interval(sum(r[g][0] for g in paired), len(paired))["rate"] for r in per_seat],
        }
    )
    return result


def evaluate_runner(
    weights: str | Path | None, players: int, scoring: str, games: int, seed: int = 0, edition: str = "classic"
) -> dict[str, Any]:
    """The cross-check: ``make_bot("learned")`` against ``make_bot("heuristic")`` through the Python
    runner, ``games`` deals at every seat in turn."""
    from unokit.bots import make_bot, play_game

    started = time.monotonic()
    options = {"weights": weights} if weights is not None else {}
    wins = 0
    rules = {"scoring": scoring} if scoring else None
    for deal in range(games):
        for seat in range(players):
            bots = [make_bot("heuristic", seed=seed * 7919 + deal * 10 + k, edition=edition) for k in range(players)]
            bots[seat] = make_bot("learned", seed=deal, edition=edition, **options)
            result = play_game(edition, bots, seed=seed * 100_003 + deal, rules=rules)
            wins += result.winner == seat
    out = interval(wins, games * players)
    out.update(
        {
            "players": players,
            "scoring": scoring or "match",
            "deals": games,
            "seconds": round(time.monotonic() - started, 1),
            "path": "runner",
        }
    )
    return out


def evaluate_all(
    policy: NumpyPolicy, players: int, games: int, seed: int, seconds: float, envs: int = 1024
) -> dict[str, Any]:
    """Matches (the default rules: to 500 points) and single rounds at ``players``, in ``seconds`` at most."""
    matches = evaluate_fast(policy, players, "", games, seed, envs, seconds * 0.7)
    rounds = evaluate_fast(policy, players, "single-round", games, seed, envs, seconds * 0.3)
    return {"matches": matches, "single_rounds": rounds}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m unokit.rl.evaluate", description=__doc__.split("\n\n")[0])
    parser.add_argument("weights", nargs="?", help="a weights file (default: the shipped one for --players)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--games", type=int, default=2000, help="deals, each played at every seat (default %(default)s)"
    )
    parser.add_argument("--scoring", default="", help="single-round, or empty for matches (default: both)")
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument(
        "--runner-games",
        type=int,
        default=0,
        help="deals for the cross-check through the Python runner (default: none)",
    )
    parser.add_argument("--json", help="write the results to this file")
    a = parser.parse_args(argv)
    if a.weights:
        policy = load_policy(a.weights)
    else:
        from unokit.bots.learned import shipped_policy

        policy = shipped_policy(a.players)
    results: dict[str, Any] = {"weights": a.weights or "shipped", "seed": a.seed}
    scorings = [a.scoring] if a.scoring else ["", "single-round"]
    for scoring in scorings:
        key = "single_rounds" if scoring else "matches"
        results[key] = evaluate_fast(policy, a.players, scoring, a.games, a.seed, a.envs)
        print(key, json.dumps(results[key]), flush=True)
        if a.runner_games:
            results[key + "_runner"] = evaluate_runner(a.weights, a.players, scoring, a.runner_games, a.seed)
            print(key + " (runner)", json.dumps(results[key + "_runner"]), flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
