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


def interval(wins: float, games: int) -> dict[str, Any]:
    """The win rate and its 95% Wilson score interval."""
    if games == 0:
        return {"games": 0, "wins": 0.0, "rate": None, "low": None, "high": None}
    p = wins / games
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return {"games": games, "wins": wins, "rate": p, "low": centre - half, "high": centre + half}


def _play_seats(
    policy: NumpyPolicy | Any,
    players: int,
    scoring: str,
    games: int,
    seed: int,
    deadline: float,
    edition: str = "classic",
    opponent: str = "heuristic",
) -> list[dict[int, tuple[bool, bool]]]:
    """Games ``0 … games - 1`` of ``seed`` played once with the policy at each seat and ``opponent``
    bots elsewhere, all at once (one batch for the policy): per seat, ``{game: (won, truncated)}``
    for the games finished before ``deadline``."""
    from unokit.rl.batched import BatchedEnv

    rules = {"scoring": scoring} if scoring else None
    envs = []
    for seat in range(players):
        bots = [opponent] * players
        bots[seat] = "python"
        envs.append(BatchedEnv(games, players=players, rules=rules, reward="match", bots=bots, edition=edition))
    steps = [env.reset(seed=seed) for env in envs]
    results: list[dict[int, tuple[bool, bool]]] = [{} for _ in envs]
    playing = [np.ones(games, dtype=np.bool_) for _ in envs]
    while any(p.any() for p in playing) and time.monotonic() < deadline:
        rows = [np.flatnonzero(p) for p in playing]
        obs = np.concatenate([step[0]["observation"][r] for step, r in zip(steps, rows, strict=True)])
        masks = np.concatenate([step[0]["action_mask"][r] for step, r in zip(steps, rows, strict=True)])
        chosen = policy.act(obs, masks)
        start = 0
        for seat, env in enumerate(envs):
            actions = np.zeros(games, dtype=np.int64)
            actions[rows[seat]] = chosen[start : start + len(rows[seat])]
            start += len(rows[seat])
            observations, rewards, terminated, truncated, infos = env.step(actions, rows=playing[seat])
            stopped = (terminated | truncated) & playing[seat]
            for row in np.flatnonzero(stopped).tolist():
                results[seat][row] = (bool(rewards[row, seat] > 0), bool(truncated[row]))
            playing[seat] = playing[seat] & ~stopped  # each row plays its one game: game ``row``
            steps[seat] = (observations, infos)
    return results


def evaluate_fast(
    policy: NumpyPolicy | Any,
    players: int,
    scoring: str,
    games: int,
    seed: int = 0,
    seconds: float = math.inf,
    edition: str = "classic",
    opponent: str = "heuristic",
    chunk: int | None = None,
) -> dict[str, Any]:
    """The policy against ``opponent`` (the compiled heuristic or random bot) on the compiled engine:
    ``games`` deals, each played with the policy at every seat in turn (so ``games × players``
    games), ``chunk`` deals at once (default: all).  When ``seconds`` run out, the chunk in play is
    left out whole (its unfinished games would be the long ones: leaving out only those would bias
    the rate), and ``deals`` says how many were played."""
    started = time.monotonic()
    size = games if chunk is None else max(1, min(chunk, games))
    per_seat: list[dict[tuple[int, int], tuple[bool, bool]]] = [{} for _ in range(players)]
    for index, first in enumerate(range(0, games, size)):
        count = min(size, games - first)
        part = _play_seats(policy, players, scoring, count, seed + 7919 * index, started + seconds, edition, opponent)
        if any(len(r) < count for r in part):
            break
        for seat, r in enumerate(part):
            per_seat[seat].update({(index, game): outcome for game, outcome in r.items()})
    deals = sorted(per_seat[0])
    wins = sum(r[g][0] for r in per_seat for g in deals)
    truncated = sum(r[g][1] for r in per_seat for g in deals)
    result = interval(wins, len(deals) * players)
    result.update(
        {
            "players": players,
            "opponent": opponent,
            "scoring": scoring or "match",
            "deals": len(deals),
            "truncated": truncated,
            "seconds": round(time.monotonic() - started, 1),
            "path": "compiled",
            "by_seat": [interval(sum(r[g][0] for g in deals), len(deals))["rate"] for r in per_seat],
        }
    )
    return result


def evaluate_runner(
    weights: str | Path | None, players: int, scoring: str, games: int, seed: int = 0, edition: str = "classic"
) -> dict[str, Any]:
    """The cross-check: ``make_bot("learned")`` (or a :class:`~unokit.bots.learned.LearnedBot` of
    ``weights``) against ``make_bot("heuristic")`` through the Python runner, ``games`` deals at
    every seat in turn."""
    from unokit.bots import make_bot, play_game
    from unokit.bots.learned import LearnedBot

    started = time.monotonic()
    wins = 0
    rules = {"scoring": scoring} if scoring else None
    for deal in range(games):
        for seat in range(players):
            bots = [make_bot("heuristic", seed=seed * 7919 + deal * 10 + k, edition=edition) for k in range(players)]
            if weights is None:
                bots[seat] = make_bot("learned", seed=deal, edition=edition)  # the shipped weights
            else:
                bots[seat] = LearnedBot(seed=deal, edition=edition, weights=weights)
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m unokit.rl.evaluate", description=__doc__.split("\n\n")[0])
    parser.add_argument("weights", nargs="?", help="a weights file (default: the shipped one for --players)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--games", type=int, default=2000, help="deals, each played at every seat (default %(default)s)"
    )
    parser.add_argument("--scoring", default="", help="single-round, or empty for matches (default: both)")
    parser.add_argument("--seed", type=int, default=12345)
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
        results[key] = evaluate_fast(policy, a.players, scoring, a.games, a.seed)
        print(key, json.dumps(results[key]), flush=True)
        if a.runner_games:
            results[key + "_runner"] = evaluate_runner(a.weights, a.players, scoring, a.runner_games, a.seed)
            print(key + " (runner)", json.dumps(results[key + "_runner"]), flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
