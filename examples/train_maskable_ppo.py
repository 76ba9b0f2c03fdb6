"""Train sb3-contrib's MaskablePPO on 2-player Classic UNO and measure the trained agent.

The learner plays ``unokit/Classic-v0`` (single-round scoring, so an episode is one round;
reward ``"win"``: +1 for the round won, -1 for the round lost) with the legal actions of
``action_masks()``.  Four environments run side by side, the learner at seat 0 in two and at
seat 1 in the others; ``--opponent`` is ``random``, ``heuristic``, or ``mixed`` (half the
environments against each).

After training, the policy is saved (``--out``, a MaskablePPO zip) and, unless
``--eval-games 0``, measured: its round win rate with a 95% Wilson interval against
``random``, ``heuristic`` and RLCard's ``uno-rule-v1`` (the adapter of
``bench/vs_rlcard_agent.py``; left out if RLCard is not installed), each a tournament of
:func:`unokit.analysis.tournament.run_tournament` (seats rotated, deals paired).  At evaluation the
policy plays greedily (the most probable legal action) through :class:`PolicyBot`, which runs
the policy network on NumPy alone.

Usage::

    python examples/train_maskable_ppo.py [--timesteps 1000000] [--seed 0]
        [--opponent mixed] [--out models/maskable_ppo_classic.zip] [--eval-games 400]
        [--load PATH] [--workers 2] [--threads 1]

``--load PATH`` skips training and measures a saved policy.  Needs the ``train`` extra
(``pip install 'unokit[train]'``), and the ``bench`` extra for the RLCard opponent.  Prints one
JSON object; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv
except ImportError as error:
    sys.exit(f"this example needs the train extra: pip install 'unokit[train]' ({error})")

import unokit.rl  # noqa: F401  (registers the unokit/... ids)
from unokit.analysis.tournament import load_bot_kinds, run_tournament
from unokit.bots.base import interrupt_actions, register_bot
from unokit.editions import get_edition
from unokit.engine.views import View
from unokit.rl.cycle import make_rules
from unokit.rl.encoding import Encoder

KIND = "maskable-ppo"
OPPONENTS = ("random", "heuristic", "mixed")
RULES = {"scoring": "single-round"}
BENCH = Path(__file__).resolve().parents[1] / "bench"

FloatArray = npt.NDArray[np.float32]


class NumpyPolicy:
    """The actor of a trained MaskablePPO policy (its MLP and action head) as NumPy arrays."""

    def __init__(self, layers: list[tuple[FloatArray, FloatArray]], activation: str) -> None:
        self.layers = layers
        self.activation = activation

    @classmethod
    def from_model(cls, model: MaskablePPO) -> NumpyPolicy:
        """The weights of ``model``'s policy network and action head."""
        policy = model.policy
        linears: list[Any] = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
        linears.append(policy.action_net)
        layers = [
            (m.weight.detach().cpu().numpy().astype(np.float32), m.bias.detach().cpu().numpy().astype(np.float32))
            for m in linears
        ]
        activation = "relu" if policy.activation_fn is torch.nn.ReLU else "tanh"
        return cls(layers, activation)

    def logits(self, observation: FloatArray) -> FloatArray:
        """The action logits for one observation."""
        x = observation
        for weight, bias in self.layers[:-1]:
            x = weight @ x + bias
            x = np.maximum(x, 0) if self.activation == "relu" else np.tanh(x)
        weight, bias = self.layers[-1]
        out: FloatArray = weight @ x + bias
        return out

    def best(self, observation: FloatArray, legal: list[int]) -> int:
        """The legal action with the highest logit."""
        logits = self.logits(observation)
        return legal[int(np.argmax(logits[legal]))]


class PolicyBot:
    """A trained policy seated as a unokit bot: the observation is built from the view with
    :mod:`unokit.rl.encoding`, the actions masked to the view's legal ones.

    Out of turn, the policy chooses among the legal actions and "wait" (as in the environment);
    the actor, asked once in the environment, decides among all its legal actions and answers
    ``wants_interrupt`` only if that decision is a call or catch."""

    def __init__(self, policy: NumpyPolicy, seed: int = 0, edition: str = "classic", name: str = KIND) -> None:
        self.name = name
        self.policy = policy
        self.space = get_edition(edition).actions
        self.wait = self.space.size
        self.encoder = Encoder(edition, 2, make_rules(RULES))

    def choose(self, view: View) -> int:
        return self.policy.best(self.encoder.encode(view), list(view.legal_actions))

    def wants_interrupt(self, view: View) -> int | None:
        legal = list(view.legal_actions)
        if view.seat == view.actor:
            action = self.choose(view)
            return action if action in interrupt_actions(self.space, view.legal_actions) else None
        action = self.policy.best(self.encoder.encode(view), [*legal, self.wait])
        return None if action == self.wait else action


def make_env(opponent: str, seat: int) -> gymnasium.Env[Any, Any]:
    return gymnasium.make("unokit/Classic-v0", players=2, opponents=opponent, seat=seat, rules=RULES, reward="win")


def train(args: argparse.Namespace) -> tuple[MaskablePPO, dict[str, Any]]:
    """Train a MaskablePPO policy as ``args`` say; the model and the training figures."""
    kinds = ["random", "heuristic"] if args.opponent == "mixed" else [args.opponent]
    setups = [(kinds[i % len(kinds)], (i // len(kinds)) % 2) for i in range(4)]
    env = DummyVecEnv([lambda o=opponent, s=seat: make_env(o, s) for opponent, seat in setups])  # type: ignore[misc]
    env.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=512,
        batch_size=256,
        n_epochs=4,
        gamma=0.995,
        learning_rate=3e-4,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 128]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    started = time.perf_counter()
    model.learn(total_timesteps=args.timesteps, progress_bar=False)
    elapsed = time.perf_counter() - started
    steps = int(model.num_timesteps)
    figures = {
        "timesteps": steps,
        "training_s": round(elapsed, 1),
        "steps_per_s": round(steps / elapsed, 1),
        "environments": [f"{opponent}@seat{seat}" for opponent, seat in setups],
    }
    print(f"trained {steps} steps in {elapsed:.1f} s ({steps / elapsed:.0f} steps/s)", file=sys.stderr)
    return model, figures


def evaluate(policy: NumpyPolicy, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Round win rates of ``policy`` against each opponent, with 95% Wilson intervals."""
    register_bot(KIND, lambda seed=0, edition="classic", **_: PolicyBot(policy, seed, edition))
    opponents = ["random", "heuristic"]
    sys.path.insert(0, str(BENCH))
    try:
        from vs_rlcard_agent import KIND as RLCARD_KIND
        from vs_rlcard_agent import RLCardRuleBot

        register_bot(RLCARD_KIND, RLCardRuleBot)
        opponents.append(RLCARD_KIND)
    except ImportError as error:
        print(f"RLCard's uno-rule-v1 left out: {error}", file=sys.stderr)
    load_bot_kinds()
    results = []
    for opponent in opponents:
        started = time.perf_counter()
        result = run_tournament(
            "classic", [KIND, opponent], args.eval_games, args.seed + 1, workers=args.workers, rules=RULES
        )
        ours = result["results"][KIND]
        entry = {
            "against": "uno-rule-v1" if opponent != "random" and opponent != "heuristic" else opponent,
            "games": args.eval_games,
            "unfinished": result["unfinished"],
            "wins": ours["round_wins"],
            "rounds": ours["rounds"],
            "win_rate": ours["round_win_rate"],
            "ci95": ours["round_win_ci95"],
            "ms_per_decision": round(1000 * ours["mean_decision_s"], 3),
            "elapsed_s": round(time.perf_counter() - started, 1),
        }
        print(
            f"{KIND} vs {entry['against']}: {100 * entry['win_rate']:.1f}% "
            f"[{100 * entry['ci95'][0]:.1f}, {100 * entry['ci95'][1]:.1f}] over {entry['rounds']} rounds "
            f"in {entry['elapsed_s']} s",
            file=sys.stderr,
        )
        results.append(entry)
    return results


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (exit status 2)."""

    def error(self, message: str) -> Any:
        self.exit(2, f"{self.prog}: error: {message}\n")


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = _Parser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--timesteps", type=int, default=1_000_000, help="learner steps (default 1000000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponent", default="mixed", help=f"one of {', '.join(OPPONENTS)} (default mixed)")
    parser.add_argument(
        "--out", type=Path, default=Path("models/maskable_ppo_classic.zip"), help="where the policy is saved"
    )
    parser.add_argument("--eval-games", type=int, default=400, help="games per opponent (default 400; 0: none)")
    parser.add_argument("--load", type=Path, help="measure this saved policy instead of training one")
    parser.add_argument("--workers", type=int, default=2, help="processes for the evaluation (default 2)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1; at most the CPUs)")
    args = parser.parse_args(argv)
    if args.timesteps < 1:
        parser.error(f"--timesteps must be a positive number, not {args.timesteps}")
    if args.opponent not in OPPONENTS:
        parser.error(f"--opponent must be one of {', '.join(OPPONENTS)}, not {args.opponent!r}")
    if args.eval_games < 0:
        parser.error(f"--eval-games must be 0 or more, not {args.eval_games}")
    if args.workers < 1:
        parser.error(f"--workers must be at least 1, not {args.workers}")
    if not 1 <= args.threads <= (os.cpu_count() or 1):
        parser.error(f"--threads must be from 1 to {os.cpu_count() or 1}, not {args.threads}")
    if args.load is not None and not args.load.is_file():
        parser.error(f"--load: no saved policy at {args.load}")
    if args.load is None and args.out.exists() and args.out.is_dir():
        parser.error(f"--out must be a file path, not the folder {args.out}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    torch.set_num_threads(args.threads)
    report: dict[str, Any] = {
        "settings": {key: str(value) if isinstance(value, Path) else value for key, value in vars(args).items()},
        "python": platform.python_version(),
        "torch": torch.__version__,
    }
    if args.load is not None:
        model = MaskablePPO.load(args.load, device="cpu")
    else:
        model, report["training"] = train(args)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        model.save(args.out)
        print(f"saved the policy to {args.out}", file=sys.stderr)
    if args.eval_games > 0:
        report["evaluation"] = evaluate(NumpyPolicy.from_model(model), args)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
