"""Self-play training with PPO and action masks (torch; the ``train`` extra), on the compiled batched games.

``python -m unokit.rl.train --help`` lists the arguments; docs/rl.md ("Self-play training") has the
command that trained the shipped weights."""

from unokit.rl.train.ppo import TrainConfig, Trainer, train

__all__ = ["TrainConfig", "Trainer", "train"]
