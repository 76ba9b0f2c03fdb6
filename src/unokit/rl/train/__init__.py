"""Self-play training with PPO and action masks (torch; the ``train`` extra), on the compiled batched games.

``python -m unokit.rl.train --help`` lists the arguments; docs/rl.md ("Self-play training") has the
command that trained the shipped weights.  :mod:`unokit.rl.train.pool` steps the games in worker
processes (which import no torch); :mod:`unokit.rl.train.ppo` learns; :mod:`unokit.rl.train.model`
is the network and its weights file."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from unokit.rl.train.ppo import TrainConfig, Trainer, train

__all__ = ["TrainConfig", "Trainer", "train"]


def __getattr__(name: str) -> Any:
    # torch is imported only by those who train, not by the processes that step the games
    if name in __all__:
        from unokit.rl.train import ppo

        return getattr(ppo, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
