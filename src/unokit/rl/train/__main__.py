"""``python -m unokit.rl.train``: train policies by self-play (PPO with action masks) against a pool of
their past selves, the heuristic bot and the random bot, and write for each table its weights
(``EDITION-Np.npz``, for :mod:`unokit.bots.learned`), its summary (``EDITION-Np.json``: the command,
the configuration, steps, steps/s and win rates against the heuristic with 95% intervals) and its
TensorBoard log (``tensorboard/``), all in ``--out``.

``--players 2,4`` trains one policy per table size, one after the other, sharing ``--seconds``
(the whole command's wall-clock budget, the compile included) by ``--shares``; with
``--parallel``, at once, each in its own process with its share of ``--workers`` and all of
``--seconds``."""

from __future__ import annotations

import argparse
import multiprocessing as mp
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import replace

from unokit.rl.train.ppo import TrainConfig, train_and_report

SPAWN_SECONDS = 10.0
"""Kept from ``--seconds`` for a process to start (import torch, numba and the compiled code) with ``--parallel``."""


def parser() -> argparse.ArgumentParser:
    d = TrainConfig()
    p = argparse.ArgumentParser(
        prog="python -m unokit.rl.train", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--players", default=str(d.players), help="table sizes, comma-separated (default %(default)s)")
    p.add_argument("--shares", default="", help="shares of the time per table size (default: equal)")
    p.add_argument(
        "--parallel",
        action="store_true",
        help="train the table sizes at once, each in its own process with its share of --workers and all the time",
    )
    p.add_argument("--edition", default=d.edition, help="edition (default %(default)s)")
    p.add_argument("--scoring", default=d.scoring, help="scoring of the training games (default %(default)s)")
    p.add_argument("--reward", default=d.reward, help="win, points or match (default %(default)s)")
    p.add_argument(
        "--seconds", type=float, default=d.seconds, help="wall-clock budget of the whole command (default %(default)s)"
    )
    p.add_argument("--steps", type=int, default=d.steps, help="stop each table after this many steps (0: the clock)")
    p.add_argument(
        "--seed", type=int, default=d.seed, help="seed of games, networks and opponents (default %(default)s)"
    )
    p.add_argument("--envs", type=int, default=d.envs, help="games stepped together (default %(default)s)")
    p.add_argument(
        "--workers", type=int, default=d.workers, help="processes stepping the games (0: this one; default %(default)s)"
    )
    p.add_argument("--device", default=d.device, help="cpu or cuda (default %(default)s)")
    p.add_argument("--rollout", type=int, default=d.rollout, help="steps of every game between updates")
    p.add_argument("--hidden", default=",".join(map(str, d.hidden)), help="hidden layer widths (default %(default)s)")
    p.add_argument("--lr", type=float, default=d.lr, help="step size while imitating (default %(default)s)")
    p.add_argument("--ppo-lr", type=float, default=d.ppo_lr, help="step size of PPO (default %(default)s)")
    p.add_argument("--epochs", type=int, default=d.epochs)
    p.add_argument("--minibatch", type=int, default=d.minibatch)
    p.add_argument("--gamma", type=float, default=d.gamma)
    p.add_argument("--entropy", type=float, default=d.entropy)
    p.add_argument(
        "--imitate",
        type=float,
        default=d.imitate,
        help="share of each table's training time spent imitating the heuristic (default %(default)s)",
    )
    p.add_argument(
        "--mix",
        default=",".join(f"{k}={v}" for k, v in d.mix.items()),
        help="weights of the opponents of new games (default %(default)s)",
    )
    p.add_argument("--snapshot-every", type=int, default=d.snapshot_every, help="updates between snapshots")
    p.add_argument("--pool-size", type=int, default=d.pool_size, help="snapshots kept (default %(default)s)")
    p.add_argument(
        "--eval-seconds",
        type=float,
        default=d.eval_seconds,
        help="seconds of each table's time kept for its evaluation (default %(default)s)",
    )
    p.add_argument("--eval-games", type=int, default=d.eval_games, help="deals of the evaluation (0: none)")
    p.add_argument("--save-every", type=float, default=d.save_every, help="seconds between saves of the weights")
    p.add_argument("--out", default=d.out, help="output folder (default %(default)s)")
    return p


def configs(argv: Sequence[str] | None = None) -> tuple[list[TrainConfig], list[float], float, bool]:
    """One configuration per table size, the shares of the time, the total seconds, and whether
    the tables train at once."""
    a = parser().parse_args(argv)
    mix = {}
    for part in a.mix.split(","):
        key, _, value = part.partition("=")
        mix[key.strip()] = float(value)
    tables = [int(p) for p in a.players.split(",") if p]
    base = TrainConfig(
        edition=a.edition,
        scoring=a.scoring,
        reward=a.reward,
        seconds=a.seconds,
        steps=a.steps,
        seed=a.seed,
        envs=a.envs,
        workers=a.workers // len(tables) if a.parallel else a.workers,
        device=a.device,
        rollout=a.rollout,
        hidden=tuple(int(h) for h in a.hidden.split(",") if h),
        lr=a.lr,
        ppo_lr=a.ppo_lr,
        epochs=a.epochs,
        minibatch=a.minibatch,
        gamma=a.gamma,
        entropy=a.entropy,
        imitate=a.imitate,
        mix=mix,
        snapshot_every=a.snapshot_every,
        pool_size=a.pool_size,
        eval_seconds=a.eval_seconds,
        eval_games=a.eval_games,
        save_every=a.save_every,
        out=a.out,
    )
    shares = [float(s) for s in a.shares.split(",") if s] or [1.0] * len(tables)
    if len(shares) != len(tables):
        raise SystemExit("--shares needs one share per table size in --players")
    return [replace(base, players=p) for p in tables], shares, a.seconds, a.parallel


def main(argv: Sequence[str] | None = None) -> int:
    started = time.monotonic()
    args = list(sys.argv[1:] if argv is None else argv)
    command = "python -m unokit.rl.train " + shlex.join(args)
    tables, shares, seconds, parallel = configs(args)
    print("command:", command, flush=True)
    if parallel and len(tables) > 1:
        context = mp.get_context("spawn")
        left = seconds - (time.monotonic() - started) - SPAWN_SECONDS
        processes = [
            context.Process(target=train_and_report, args=(replace(config, seconds=left), command)) for config in tables
        ]
        for process in processes:
            process.start()
        for process in processes:
            process.join()
        return max(abs(process.exitcode or 0) for process in processes)
    for index, config in enumerate(tables):
        left = seconds - (time.monotonic() - started)
        train_and_report(replace(config, seconds=left * shares[index] / sum(shares[index:])), command)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
