"""The compiled batched environment as a Stable-Baselines3 ``VecEnv`` (the ``train`` extra).

:class:`UnoVecEnv` is :class:`unokit.rl.vector.UnoVectorEnv` (a learner against a pool of opponents,
or in self-play) behind Stable-Baselines3's interface: ``reset()`` returns the observations, a
game that stops is replaced at once (``infos[i]["terminal_observation"]`` holds its last
observation, ``infos[i]["TimeLimit.truncated"]`` says whether its round was cut at
``max_round_decisions``), and ``env_method("action_masks")`` (what sb3-contrib's
``get_action_masks`` calls) gives each game's legal actions, so that ``MaskablePPO`` learns on it.
:meth:`UnoVecEnv.seed` seeds the next reset: the games are numbered from that one seed.
:func:`model_opponent` makes a trained model (an earlier checkpoint) an opponent of the pool.

>>> from sb3_contrib.common.maskable.utils import get_action_masks
>>> env = UnoVecEnv(4, players=2, rules={"scoring": "single-round"}, opponents=["heuristic"])
>>> observations = env.reset()
>>> observations.shape, get_action_masks(env).shape
((4, 1880), (4, 300))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium.vector import AutoresetMode
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvObs, VecEnvStepReturn
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError("unokit.rl.sb3 needs the train extra: pip install 'unokit[train]'") from error

from unokit.engine.rules import Rules
from unokit.rl.vector import Opponent, Policy, UnoVectorEnv

__all__ = ["UnoVecEnv", "model_opponent"]


class UnoVecEnv(VecEnv):
    """``num_envs`` games of the compiled engine for Stable-Baselines3: the learner at one seat of
    each (see :class:`~unokit.rl.vector.UnoVectorEnv`, which takes the same arguments), the others
    held by ``opponents``."""

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        rules: Rules | dict[str, Any] | str | None = None,
        reward: str = "win",
        *,
        opponents: Sequence[Opponent] = ("heuristic",),
        **options: Any,
    ) -> None:
        self.env = UnoVectorEnv(
            num_envs, players, rules, reward, opponents=opponents, autoreset_mode=AutoresetMode.SAME_STEP, **options
        )
        """The Gymnasium vector environment underneath (``SAME_STEP`` autoreset)."""
        super().__init__(num_envs, self.env.single_observation_space, self.env.single_action_space)
        self._actions: npt.NDArray[np.int64] | None = None

    def reset(self) -> VecEnvObs:
        """Deal new games (of the seed given to :meth:`seed`, if any: the first one's)."""
        options = self._options[0] or None
        observations, info = self.env.reset(seed=self._seeds[0], options=options)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{"seat": int(seat)} for seat in info["seat"]]
        return observations

    def step_async(self, actions: np.ndarray) -> None:
        """Take one action per game for the next :meth:`step_wait`."""
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        """Step every game with the actions taken: observations, rewards, dones and infos."""
        if self._actions is None:
            raise RuntimeError("step_async must come before step_wait")
        observations, rewards, terminated, truncated, info = self.env.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{"seat": int(seat)} for seat in info["seat"]]
        for row in np.flatnonzero(dones):
            infos[row]["terminal_observation"] = info["final_obs"][row]
            infos[row]["TimeLimit.truncated"] = bool(truncated[row] and not terminated[row])
        return observations, rewards, dones, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Each game's legal actions now (``num_envs`` × actions, booleans)."""
        return self.env.action_masks().astype(np.bool_)

    def close(self) -> None:
        """Nothing to release."""
        self.env.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The vector environment's attribute ``attr_name`` once per game asked (``action_masks``: per game)."""
        rows = list(self._get_indices(indices))
        if attr_name == "action_masks":
            return [_RowMasks(self, row) for row in rows]
        value = getattr(self.env, attr_name)
        return [value for _ in rows]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set ``attr_name`` of the vector environment (all games share it)."""
        setattr(self.env, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks``: each game's mask; any other method of the vector environment, called once
        and its result given for every game asked."""
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[row] for row in rows]
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(
        self, wrapper_class: type[gymnasium.Wrapper[Any, Any, Any, Any]], indices: VecEnvIndices = None
    ) -> list[bool]:
        """No game is wrapped."""
        return [False for _ in self._get_indices(indices)]

    def _get_indices(self, indices: VecEnvIndices) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return indices


def model_opponent(model: Any, deterministic: bool = False) -> Policy:
    """A trained model (a checkpoint of ``MaskablePPO``, or any model whose ``predict`` takes
    ``action_masks=``) as an opponent of the pool: its actions on the batch of observations where
    its seats are asked, masked to their legal actions."""

    def policy(observations: npt.NDArray[np.float32], masks: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
        actions, _ = model.predict(observations, action_masks=masks.astype(np.bool_), deterministic=deterministic)
        return np.asarray(actions, dtype=np.int64)

    return policy


class _RowMasks:
    """One game's ``action_masks`` method (what ``get_attr("action_masks")`` gives per game)."""

    def __init__(self, env: UnoVecEnv, row: int) -> None:
        self._env = env
        self._row = row

    def __call__(self) -> npt.NDArray[np.bool_]:
        masks: npt.NDArray[np.bool_] = self._env.action_masks()[self._row]
        return masks
