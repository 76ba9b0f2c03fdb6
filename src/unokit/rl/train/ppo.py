"""PPO with action masks on the compiled batched games: self-play against a pool of past selves, the
heuristic bot and the random bot, after an optional warm start by imitation of the heuristic."""

from __future__ import annotations

import json
import time
from collections import deque
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch.nn import functional as F

from unokit.rl.train.model import PolicyNet, export_weights
from unokit.rl.train.pool import EnvPool, has_bots

__all__ = ["HEURISTIC", "LEARNER", "OPPONENTS", "RANDOM", "TrainConfig", "Trainer", "train"]

LEARNER = -1
RANDOM = 0
HEURISTIC = 1
"""Who holds a seat (the codes of :class:`~unokit.rl.batched.BatchedEnv`'s ``bots``): the learner,
the compiled random and heuristic bots, and ``-2 - k`` for the snapshot in slot ``k``."""
OPPONENTS = ("self", "random", "heuristic", "snapshot")


def _snapshot_slot(code: int) -> int:
    return -2 - code


@dataclass
class TrainConfig:
    """Everything that decides a training run (written beside the weights)."""

    players: int = 2
    edition: str = "classic"
    scoring: str = "single-round"
    reward: str = "win"
    seconds: float = 300.0
    steps: int = 0
    """Stop after this many environment steps (0: only the clock stops it)."""
    seed: int = 1
    envs: int = 1024
    workers: int = 0
    device: str = "cpu"
    rollout: int = 64
    hidden: tuple[int, ...] = (512, 256)
    lr: float = 3e-4
    """Adam's step size while imitating."""
    ppo_lr: float = 1e-4
    """... and for PPO."""
    epochs: int = 3
    minibatch: int = 8192
    gamma: float = 0.995
    lam: float = 0.95
    clip: float = 0.2
    entropy: float = 0.005
    value_coef: float = 0.5
    max_grad_norm: float = 0.5
    imitate: float = 0.3
    """Fraction of the training time spent imitating the heuristic (when the environment gives its choices)."""
    imitate_steps: int = 0
    """Imitate for this many steps instead (0: ``imitate`` decides)."""
    mix: dict[str, float] = field(
        default_factory=lambda: {"self": 0.15, "random": 0.05, "heuristic": 0.6, "snapshot": 0.2}
    )
    """How often each kind of opponent holds the other seats of a new game (``self``: the learner holds them all)."""
    snapshot_every: int = 10
    """Updates between frozen snapshots of the learner added to the pool."""
    pool_size: int = 8
    eval_seconds: float = 60.0
    """Seconds kept at the end (within ``seconds``) for the evaluation against the heuristic."""
    eval_games: int = 2000
    """Deals of the final evaluation, each played at every seat (fewer if its time runs out)."""
    save_every: float = 30.0
    """Seconds between saves of the weights."""
    out: str = "runs/learned"


class Trainer:
    """One training run: the environment pool, the learner, its snapshots and the logs."""

    def __init__(self, config: TrainConfig) -> None:
        self.config = config
        self.started = time.monotonic()
        torch.manual_seed(config.seed)
        self.rng = np.random.default_rng(config.seed)
        self.device = torch.device(config.device)
        rules = {"scoring": config.scoring}
        self.env_kwargs: dict[str, Any] = {
            "players": config.players,
            "edition": config.edition,
            "rules": rules,
            "reward": config.reward,
            "bot_memory": True,  # the heuristic's memory of every game: bots seated and imitation
        }
        self.has_bots = has_bots()
        """Whether the environment plays the compiled heuristic and random bots in chosen seats."""
        self.pool = EnvPool(config.envs, config.workers, **self.env_kwargs)
        self.net = PolicyNet(self.pool.size, self.pool.actions, self.pool.encoder.high, config.hidden).to(self.device)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=config.lr, eps=1e-5)
        self.snapshots: list[PolicyNet] = []
        n, p = config.envs, config.players
        self.holder = np.full((n, p), LEARNER, dtype=np.int64)
        """Who holds each seat of each row's game in play."""
        self.next_holder = self.holder.copy()
        """... and of its next game (the environment deals it as soon as the game in play stops)."""
        self.snapshots_taken = 0
        self.learner_seat = np.full(n, -1, dtype=np.int64)
        """The learner's seat in games against others; -1 where it holds every seat."""
        self.env_steps = 0
        self.updates = 0
        self.command = ""
        self.training_seconds = 0.0
        self.steps_per_s = 0.0
        self.results: dict[str, deque[float]] = {kind: deque(maxlen=2000) for kind in OPPONENTS}
        out = Path(config.out)
        out.mkdir(parents=True, exist_ok=True)
        self.out = out
        from torch.utils.tensorboard import SummaryWriter

        self.writer = SummaryWriter(str(out / "tensorboard" / f"{config.edition}-{config.players}p"))

    # ------------------------------------------------------------------ opponents

    def _mix(self) -> tuple[list[str], npt.NDArray[np.float64]]:
        kinds = []
        weights = []
        for kind, weight in self.config.mix.items():
            if kind == "heuristic" and not self.has_bots:
                continue
            if kind == "snapshot" and not self.snapshots:
                continue
            if kind == "self" and self.config.players < 2:
                continue
            kinds.append(kind)
            weights.append(weight)
        w = np.asarray(weights, dtype=np.float64)
        return kinds, w / w.sum()

    def _draw_opponents(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Who holds each seat of new games in ``rows``: the learner every seat, or one seat and one
        kind of opponent the others."""
        kinds, weights = self._mix()
        chosen = self.rng.choice(len(kinds), size=len(rows), p=weights)
        p = self.config.players
        codes = np.full((len(rows), p), LEARNER, dtype=np.int64)
        for i, k in enumerate(chosen.tolist()):
            kind = kinds[k]
            if kind == "self":
                continue
            if kind == "random":
                codes[i] = RANDOM
            elif kind == "heuristic":
                codes[i] = HEURISTIC
            else:
                codes[i] = -2 - int(self.rng.integers(len(self.snapshots)))
            codes[i, int(self.rng.integers(p))] = LEARNER
        return codes

    def _start_games(self, rows: npt.NDArray[np.int64]) -> None:
        """The games in ``rows`` stopped: their next games (already dealt) are in play; choose the ones after."""
        if len(rows) == 0:
            return
        if self.has_bots:
            self.holder[rows] = self.next_holder[rows]
            self.next_holder[rows] = self._draw_opponents(rows)
            self.pool.set_bots(self.next_holder, rows)
        else:
            self.holder[rows] = self._draw_opponents(rows)
        self._learner_seats(rows)

    def _learner_seats(self, rows: npt.NDArray[np.int64]) -> None:
        learner = self.holder[rows] == LEARNER
        single = learner.sum(axis=1) == 1
        self.learner_seat[rows] = np.where(single, learner.argmax(axis=1), -1)

    def _opponent_name(self, row: int) -> str:
        seat = int(self.learner_seat[row])
        if seat < 0:
            return "self"
        code = int(self.holder[row, (seat + 1) % self.config.players])
        return "snapshot" if code <= -2 else OPPONENTS[code + 1]

    # ------------------------------------------------------------------ acting

    def _act(
        self, net: PolicyNet, obs: npt.NDArray[np.float32], masks: npt.NDArray[np.int8], greedy: bool = False
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        o = torch.as_tensor(obs, device=self.device)
        m = torch.as_tensor(masks, device=self.device)
        with torch.no_grad():
            logits, values = net(o, m)
            actions = logits.argmax(dim=1) if greedy else torch.distributions.Categorical(logits=logits).sample()  # type: ignore[no-untyped-call]
            logp = torch.log_softmax(logits, dim=1).gather(1, actions[:, None])[:, 0]
        return o, m, actions, logp, values

    def _random_actions(self, masks: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
        noise = self.rng.random(masks.shape) * (masks != 0)
        chosen: npt.NDArray[np.int64] = noise.argmax(axis=1).astype(np.int64)
        return chosen

    def rollout(self, imitation: float) -> dict[str, Any]:
        """``rollout`` steps of every game; the learner's decisions with their advantages.
        ``imitation``: the chance that a learner's decision is played as the heuristic would."""
        c = self.config
        arrays = self.pool.arrays
        n, p, T = c.envs, c.players, c.rollout
        rewards = np.zeros((T, n, p), dtype=np.float32)
        ended = np.zeros((T, n), dtype=np.bool_)
        cut = np.zeros((T, n), dtype=np.bool_)
        seats = np.zeros((T, n), dtype=np.int64)
        rows_of: list[npt.NDArray[np.int64]] = []
        values_of: list[npt.NDArray[np.float32]] = []
        obs_list: list[torch.Tensor] = []
        mask_list: list[torch.Tensor] = []
        act_list: list[torch.Tensor] = []
        logp_list: list[torch.Tensor] = []
        expert_list: list[npt.NDArray[np.int64]] = []
        for t in range(T):
            seat = arrays["seats"].copy()
            holder = self.holder[np.arange(n), seat]  # bots' seats are never asked
            actions = np.zeros(n, dtype=np.int64)
            learner = np.flatnonzero(holder == LEARNER)
            if len(learner):
                o, m, a, logp, v = self._act(self.net, arrays["obs"][learner], arrays["masks"][learner])
                chosen = a.cpu().numpy()
                expert = arrays["expert"][learner].copy()
                if imitation > 0:
                    follow = (expert >= 0) & (self.rng.random(len(learner)) < imitation)
                    chosen = np.where(follow, expert, chosen)
                    a = torch.as_tensor(chosen, device=self.device)
                actions[learner] = chosen
                obs_list.append(o)
                mask_list.append(m)
                act_list.append(a)
                logp_list.append(logp)
                values_of.append(v.cpu().numpy())
                expert_list.append(expert)
            else:
                values_of.append(np.zeros(0, dtype=np.float32))
            rows_of.append(learner)
            others = np.flatnonzero(holder != LEARNER)
            if len(others):
                kinds = holder[others]
                rnd = others[kinds == RANDOM]  # only where the environment has no compiled bots
                if len(rnd):
                    actions[rnd] = self._random_actions(arrays["masks"][rnd])
                for code in np.unique(kinds[kinds <= -2]).tolist():
                    rows = others[kinds == code]
                    net = self.snapshots[_snapshot_slot(code)]
                    _, _, a, _, _ = self._act(net, arrays["obs"][rows], arrays["masks"][rows])
                    actions[rows] = a.cpu().numpy()
            seats[t] = seat
            self.pool.step(actions)
            rewards[t] = arrays["rewards"]
            ended[t] = arrays["terminated"]
            cut[t] = arrays["truncated"]
            self.env_steps += n
            finished = np.flatnonzero(ended[t] | cut[t])
            if len(finished):
                for row in finished.tolist():
                    if self.learner_seat[row] >= 0 and ended[t, row]:
                        won = rewards[t, row, self.learner_seat[row]] > 0
                        self.results[self._opponent_name(row)].append(float(won))
                self._start_games(finished)
        advantages, valid = self._advantages(rewards, ended, cut, seats, rows_of, values_of)
        values = np.concatenate(values_of) if values_of else np.zeros(0, np.float32)
        return {
            "obs": torch.cat(obs_list),
            "masks": torch.cat(mask_list),
            "actions": torch.cat(act_list),
            "logp": torch.cat(logp_list),
            "advantages": torch.as_tensor(advantages, device=self.device),
            "returns": torch.as_tensor(advantages + values, device=self.device),
            "valid": torch.as_tensor(valid, device=self.device),
            "expert": torch.as_tensor(np.concatenate(expert_list), device=self.device),
        }

    def _advantages(
        self,
        rewards: npt.NDArray[np.float32],
        ended: npt.NDArray[np.bool_],
        cut: npt.NDArray[np.bool_],
        seats: npt.NDArray[np.int64],
        rows_of: list[npt.NDArray[np.int64]],
        values_of: list[npt.NDArray[np.float32]],
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """GAE along each seat's own decisions in each game; a seat's last decision in the rollout,
        or before a truncation, has no successor to bootstrap from and is left out (``valid``)."""
        c = self.config
        T, n, p = rewards.shape
        acc = np.zeros((n, p), dtype=np.float32)
        next_value = np.zeros((n, p), dtype=np.float32)
        next_adv = np.zeros((n, p), dtype=np.float32)
        has_next = np.zeros((n, p), dtype=np.bool_)
        offsets = np.cumsum([0] + [len(r) for r in rows_of])
        advantages = np.zeros(offsets[-1], dtype=np.float32)
        valid = np.zeros(offsets[-1], dtype=np.bool_)
        for t in range(T - 1, -1, -1):
            over = ended[t] | cut[t]
            acc[over] = 0
            next_value[over] = 0
            next_adv[over] = 0
            has_next[ended[t]] = True
            has_next[cut[t]] = False
            acc += rewards[t]
            rows = rows_of[t]
            if len(rows) == 0:
                continue
            seat = seats[t, rows]
            value = values_of[t]
            delta = acc[rows, seat] + c.gamma * next_value[rows, seat] - value
            adv = delta + c.gamma * c.lam * next_adv[rows, seat]
            advantages[offsets[t] : offsets[t + 1]] = adv
            valid[offsets[t] : offsets[t + 1]] = has_next[rows, seat]
            next_value[rows, seat] = value
            next_adv[rows, seat] = adv
            has_next[rows, seat] = True
            acc[rows, seat] = 0
        return advantages, valid

    # ------------------------------------------------------------------ learning

    def update(self, batch: dict[str, Any], imitation: bool) -> dict[str, float]:
        """PPO's clipped objective (or, while imitating, the heuristic's choices' cross-entropy) over a rollout."""
        c = self.config
        valid = batch["valid"]
        if imitation:
            valid = valid | (batch["expert"] >= 0)
        index = torch.nonzero(valid)[:, 0]
        stats: dict[str, list[float]] = {"policy": [], "value": [], "entropy": [], "imitation": [], "clipped": []}
        for _ in range(c.epochs):
            order = index[torch.randperm(len(index), device=self.device)]
            for start in range(0, len(order), c.minibatch):
                mb = order[start : start + c.minibatch]
                logits, values = self.net(batch["obs"][mb], batch["masks"][mb])
                legal = batch["masks"][mb] != 0
                logp_all = torch.log_softmax(logits, dim=1).masked_fill(~legal, 0.0)  # no -inf in the gradients
                entropy = -(logp_all.exp() * legal * logp_all).sum(1).mean()
                actions = batch["actions"][mb]
                logp = logp_all.gather(1, actions[:, None])[:, 0]
                adv = batch["advantages"][mb]
                use = batch["valid"][mb].float()
                count = use.sum().clamp(min=1)
                value_loss = (((values - batch["returns"][mb]) ** 2) * use).sum() / count
                if imitation:
                    expert = batch["expert"][mb]
                    known = expert >= 0
                    target = torch.where(known, expert, actions)
                    ce = F.nll_loss(logp_all, target, reduction="none")
                    policy_loss = (ce * known.float()).sum() / known.float().sum().clamp(min=1)
                    loss = policy_loss + c.value_coef * value_loss
                    stats["imitation"].append(float(policy_loss.detach()))
                else:
                    mean = (adv * use).sum() / count
                    std = (((adv - mean) ** 2 * use).sum() / count).sqrt()
                    adv = (adv - mean) / (std + 1e-8)
                    ratio = (logp - batch["logp"][mb]).exp()
                    surrogate = torch.min(ratio * adv, ratio.clamp(1 - c.clip, 1 + c.clip) * adv)
                    policy_loss = -(surrogate * use).sum() / count
                    loss = policy_loss + c.value_coef * value_loss - c.entropy * entropy
                    stats["clipped"].append(float((((ratio - 1).abs() > c.clip).float() * use).sum() / count))
                self.optimizer.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), c.max_grad_norm)
                self.optimizer.step()
                stats["policy"].append(float(policy_loss.detach()))
                stats["value"].append(float(value_loss.detach()))
                stats["entropy"].append(float(entropy.detach()))
        self.updates += 1
        if self.updates % c.snapshot_every == 0:
            self._snapshot()
        return {key: float(np.mean(v)) for key, v in stats.items() if v}

    def _snapshot(self) -> None:
        """Freeze a copy of the learner into the pool (the oldest slot is reused when it is full)."""
        copy = PolicyNet(self.pool.size, self.pool.actions, self.pool.encoder.high, self.config.hidden).to(self.device)
        copy.load_state_dict(self.net.state_dict())
        copy.eval()
        if len(self.snapshots) < self.config.pool_size:
            self.snapshots.append(copy)
        else:
            self.snapshots[self.snapshots_taken % self.config.pool_size] = copy
        self.snapshots_taken += 1

    # ------------------------------------------------------------------ the run

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def win_rates(self) -> dict[str, float]:
        return {kind: float(np.mean(r)) for kind, r in self.results.items() if r and kind != "self"}

    def run(self) -> dict[str, Any]:
        """Train until the clock (or ``steps``) says stop, saving the weights as it goes; then evaluate
        against the heuristic in the time kept for it.  Returns the summary (also in ``EDITION-Np.json``)."""
        c = self.config
        every = np.arange(c.envs)
        self.holder[:] = self._draw_opponents(every)
        if self.has_bots:
            self.pool.set_bots(self.holder, every)
        self.pool.reset(c.seed)
        self._learner_seats(every)
        if self.has_bots:
            self.next_holder[:] = self._draw_opponents(every)
            self.pool.set_bots(self.next_holder, every)
        train_until = c.seconds - c.eval_seconds
        trained_from = self.elapsed()
        first_steps = self.env_steps
        imitation_until = trained_from + c.imitate * max(0.0, train_until - trained_from)
        saved_at = self.elapsed()
        expert_on = False
        while self.elapsed() < train_until and not (c.steps and self.env_steps >= c.steps):
            now = self.elapsed()
            if c.imitate_steps:
                progress = (self.env_steps - first_steps) / c.imitate_steps
            else:
                progress = (now - trained_from) / max(1e-9, imitation_until - trained_from)
            imitating = self.has_bots and progress < 1
            if imitating != expert_on:
                self.pool.set_expert(imitating)
                expert_on = imitating
            for group in self.optimizer.param_groups:
                group["lr"] = c.lr if imitating else c.ppo_lr
            follow = 1.0 - progress if imitating else 0.0
            batch = self.rollout(follow)
            stats = self.update(batch, imitating)
            rate = (self.env_steps - first_steps) / max(1e-9, self.elapsed() - trained_from)
            rates = self.win_rates()
            line = {
                "players": c.players,
                "update": self.updates,
                "seconds": round(self.elapsed(), 1),
                "steps": self.env_steps,
                "steps_per_s": round(rate),
                "imitating": imitating,
                "snapshots": len(self.snapshots),
                **{f"loss_{k}": round(v, 4) for k, v in stats.items()},
                **{f"win_vs_{k}": round(v, 3) for k, v in rates.items()},
            }
            for key, value in stats.items():
                self.writer.add_scalar(f"loss/{key}", value, self.env_steps)
            for key, value in rates.items():
                self.writer.add_scalar(f"win_rate/{key}", value, self.env_steps)
            self.writer.add_scalar("speed/steps_per_s", rate, self.env_steps)
            print(json.dumps(line), flush=True)
            if self.elapsed() - saved_at > c.save_every:
                self.save()
                saved_at = self.elapsed()
        self.training_seconds = self.elapsed() - trained_from
        self.steps_per_s = (self.env_steps - first_steps) / max(self.training_seconds, 1e-9)
        self.pool.close()
        self.save()
        summary = self.summary()
        self.write_summary(summary)
        if self.has_bots and c.eval_games > 0:
            left = c.seconds - self.elapsed()
            summary["evaluation"] = self.evaluate(max(left, 10.0))
            self.write_summary(summary)
        self.writer.flush()
        return summary

    @property
    def name(self) -> str:
        """The weights' file name without its suffix: ``EDITION-Np``."""
        return f"{self.config.edition}-{self.config.players}p"

    def summary(self) -> dict[str, Any]:
        """What the run did: its configuration and command, steps, speed and win rates seen in training."""
        return {
            "command": self.command,
            "config": asdict(self.config),
            "steps": self.env_steps,
            "updates": self.updates,
            "training_seconds": round(self.training_seconds, 1),
            "steps_per_s": round(self.steps_per_s),
            "win_rates_in_training": self.win_rates(),
            "weights": self.name + ".npz",
            "torch": torch.__version__,
            "device": str(self.device),
        }

    def write_summary(self, summary: dict[str, Any]) -> None:
        path = self.out / f"{self.name}.json"
        path.write_text(json.dumps(summary, indent=2) + "\n")

    def save(self) -> None:
        """Write the learner's weights for the numpy bot (``EDITION-Np.npz``; replaced whole, never half-written)."""
        c = self.config
        meta = {"edition": c.edition, "players": c.players, "history": self.pool.encoder.history, "seed": c.seed}
        path = self.out / f"{self.name}.npz"
        partial = self.out / f"{self.name}.partial.npz"
        export_weights(self.net, partial, meta)
        partial.replace(path)

    def evaluate(self, seconds: float) -> dict[str, Any]:
        """The learner (greedy, on this device) against the heuristic: matches and single rounds, paired deals."""
        from unokit.rl.evaluate import evaluate_fast

        c = self.config
        started = time.monotonic()
        greedy = _GreedyTorch(self.net, self.device)
        results: dict[str, Any] = {}
        for key, scoring, share in (("matches", "", 0.7), ("single_rounds", "single-round", 1.0)):
            left = seconds - (time.monotonic() - started)
            results[key] = evaluate_fast(
                greedy,
                c.players,
                scoring,
                c.eval_games,
                seed=c.seed + 1_000_003,
                seconds=left * share,
                edition=c.edition,
                chunk=100,  # a chunk cut short by the clock is left out whole: small ones lose little
            )
            print(json.dumps({"evaluation": key, **results[key]}), flush=True)
        return results


class _GreedyTorch:
    """The learner's greedy choices for the evaluation (as :meth:`unokit.bots.learned.NumpyPolicy.act`)."""

    def __init__(self, net: PolicyNet, device: torch.device) -> None:
        self.net = net
        self.device = device

    def act(self, observations: npt.NDArray[np.float32], masks: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
        with torch.no_grad():
            o = torch.as_tensor(observations, device=self.device)
            m = torch.as_tensor(masks, device=self.device)
            logits, _ = self.net(o, m)
            chosen: npt.NDArray[np.int64] = logits.argmax(dim=1).cpu().numpy().astype(np.int64)
            return chosen


def train(config: TrainConfig, command: str = "") -> dict[str, Any]:
    """Run :class:`Trainer` with ``config``; its weights and summary are in ``config.out``."""
    trainer = Trainer(config)
    trainer.command = command
    try:
        return trainer.run()
    finally:
        trainer.pool.close()
        trainer.writer.close()


def train_and_report(config: TrainConfig, command: str) -> None:
    """:func:`train`, then print the summary (less the configuration) as one line of JSON."""
    summary = train(config, command)
    print(json.dumps({k: v for k, v in summary.items() if k != "config"}), flush=True)
