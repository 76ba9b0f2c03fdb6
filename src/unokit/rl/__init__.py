"""Reinforcement-learning environments on unokit's rules (the ``rl`` extra: gymnasium, pettingzoo, numpy).

* :mod:`unokit.rl.pettingzoo`: the PettingZoo AEC environment (``env``, ``raw_env``);
* :mod:`unokit.rl.gymnasium`: a single-agent Gymnasium environment against bots, registered
  here as ``unokit/Classic-v0``, ``unokit/SpaceJam-v0``, ``unokit/AllWild-v0`` and
  ``unokit/WildJackpot-v0``;
* :mod:`unokit.rl.encoding`: the observation vector, built from a player's view alone.

docs/rl.md has the quick start, the out-of-turn design, the observation table and the rewards.

>>> import gymnasium
>>> import unokit.rl
>>> gymnasium.make("unokit/Classic-v0").unwrapped.edition
'classic'
"""

from __future__ import annotations

try:
    import gymnasium
except ImportError:  # pragma: no cover - the encoding needs numpy alone (the learned bot reads it)
    gymnasium = None  # type: ignore[assignment]

__all__ = ["ENVIRONMENT_IDS"]

ENVIRONMENT_IDS = {
    "classic": "unokit/Classic-v0",
    "space-jam": "unokit/SpaceJam-v0",
    "all-wild": "unokit/AllWild-v0",
    "wild-jackpot": "unokit/WildJackpot-v0",
}
"""The Gymnasium id of each edition's single-agent environment."""

for _edition, _id in ENVIRONMENT_IDS.items():
    if gymnasium is not None and _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point="unokit.rl.gymnasium:UnoEnv", kwargs={"edition": _edition})
