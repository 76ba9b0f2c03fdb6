"""The engine's speed against an earlier revision, on the same games.

Both source trees (this checkout's ``src`` and a git revision checked out into a temporary
worktree) play the same seeded single-round games with a uniformly random legal policy (a
seat chosen uniformly among the deciders, then one of its legal actions).  With the same
rules the two trees play identical games, so the work is fixed and the best of several
timings is a steady figure even on a busy machine; the trees take turns so that a change
in load falls on both.  ``same_games`` says whether the decision counts matched (they do
unless the rules of play changed between the revisions).

Usage: ``python bench/engine_ab.py --base REV [--edition classic] [--players 4] [--games 150]
[--repeats 5] [--rounds 3] [--rule name=value ...]``.  Prints one JSON object: each tree's
decisions per second (the best timing of each round, then the best of all rounds) and the
ratio of this checkout to the base.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from unokit.cli.common import UsageError, parse_rule_values

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, random, sys, time
from unokit import Game, Rules
edition = sys.argv[1]
players, games, repeats, seed = (int(word) for word in sys.argv[2:6])
rules = Rules.from_dict(json.loads(sys.argv[6]))
def play():
    rng = random.Random(seed)
    decisions = 0
    for _ in range(games):
        game = Game(edition, players, seed=rng.getrandbits(63), rules=rules)
        while not game.is_over:
            deciders = game.deciders()
            seat = deciders[0] if len(deciders) == 1 else deciders[rng.randrange(len(deciders))]
            legal = game.legal_actions(seat)
            game.apply(seat, legal[0] if len(legal) == 1 else legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions
best = float("inf")
for _ in range(repeats):
    started = time.perf_counter()
    decisions = play()
    best = min(best, time.perf_counter() - started)
print(json.dumps({"decisions": decisions, "seconds": best}))
"""


def timing(src: Path, args: argparse.Namespace, rules: dict[str, Any]) -> dict[str, Any]:
    """Run the games once per repeat in a fresh interpreter importing unokit from ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    argv = [args.edition, args.players, args.games, args.repeats, args.seed, json.dumps(rules)]
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *map(str, argv)], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise SystemExit(f"engine_ab: the games failed under {src}:\n{done.stderr.strip()}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the git revision to compare with")
    parser.add_argument("--edition", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=150, help="games per timing (default 150)")
    parser.add_argument("--repeats", type=int, default=5, help="timings per round, the best counts (default 5)")
    parser.add_argument("--rounds", type=int, default=3, help="turns of each tree (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rule", action="append", default=[], help="a rule option as name=JSON value")
    args = parser.parse_args()
    try:
        rules = {"scoring": "single-round", **parse_rule_values(args.rule)}
    except UsageError as exc:
        parser.error(str(exc))
    for name in ("games", "repeats", "rounds", "players"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    revision = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{args.base}^{{commit}}"],
        capture_output=True,
        text=True,
        check=False,
    )
    if revision.returncode:
        parser.error(f"--base: no git revision {args.base!r}")
    commit = revision.stdout.strip()
    with tempfile.TemporaryDirectory(prefix="unokit-ab-") as scratch:
        tree = Path(scratch) / "base"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), commit],
            check=True,
        )
        try:
            trees = {"base": tree / "src", "head": ROOT / "src"}
            rounds: dict[str, list[float]] = {"base": [], "head": []}
            decisions: dict[str, int] = {}
            for _ in range(args.rounds):
                for name, src in trees.items():
                    result = timing(src, args, rules)
                    decisions[name] = result["decisions"]
                    rounds[name].append(round(result["decisions"] / result["seconds"]))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
    best = {name: max(figures) for name, figures in rounds.items()}
    print(
        json.dumps(
            {
                "base": commit[:12],
                "edition": args.edition,
                "players": args.players,
                "rules": rules,
                "decisions": decisions["head"],
                "same_games": decisions["head"] == decisions["base"],
                "base_per_s": rounds["base"],
                "head_per_s": rounds["head"],
                "base_best": best["base"],
                "head_best": best["head"],
                "ratio": round(best["head"] / best["base"], 3),
            }
        )
    )


if __name__ == "__main__":
    main()
