"""Many games of UNO (any edition) stepped per call, on the compiled engine (the ``rl`` and ``fast`` extras).

:class:`BatchedEnv` holds ``num_envs`` games, in the manner of ``gymnasium.vector`` and pgx:
each call of :meth:`~BatchedEnv.step` takes one action per game, for the seat asked in that
game (``infos["seat"]``: the decision cycle of :mod:`unokit.rl.cycle`, "wait" out of turn
included), and returns every game's next observation and mask as arrays, the rewards of every
seat, and which games ended.  Observations are the vectors of :mod:`unokit.rl.encoding`, for the
seat asked next, exactly as the PettingZoo environment gives them; rewards are those of
``reward=`` (:mod:`unokit.rl.rewards`), zero-sum in each game.  A game that ends is replaced at
once by the next game of the seed (same-step reset: the observation returned is the new game's
first; ``terminations`` says which rows started anew).

>>> env = BatchedEnv(3, players=2, rules={"scoring": "single-round"})
>>> observations, infos = env.reset(seed=1)
>>> observations["observation"].shape, observations["action_mask"].shape
((3, 1880), (3, 300))
>>> actions = observations["action_mask"].argmax(axis=1)
>>> observations, rewards, terminations, truncations, infos = env.step(actions)
>>> rewards.shape, bool(rewards.sum() == 0)
((3, 2), True)
"""

from __future__ import annotations

import random
from typing import Any

try:
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError("unokit.rl needs the rl extra: pip install 'unokit[rl]'") from error

from unokit.engine.errors import IllegalActionError, SetupError
from unokit.engine.rules import Rules
from unokit.fast.engine import (
    ID_WAIT,
    REWARD_KINDS,
    batch_random_actions,
    batch_reset,
    batch_step,
    check_rules,
    encoding_layout,
    template_state,
)
from unokit.rl.cycle import make_rules
from unokit.rl.encoding import DEFAULT_HISTORY, Encoder
from unokit.rl.rewards import check_reward

__all__ = ["BatchedEnv"]

Observation = dict[str, npt.NDArray[Any]]


class BatchedEnv:
    """``num_envs`` games of ``edition`` at tables of ``players``, stepped together.

    ``edition`` and ``rules``: as the PettingZoo environment takes them (every edition and rule
    option the compiled engine plays: all of them but a ``deck`` of more than 256 cards).
    ``copy``: return copies of the observation and mask arrays (default: the batch's own arrays,
    overwritten by the next call)."""

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        rules: Rules | dict[str, Any] | str | None = None,
        reward: str = "win",
        history: int = DEFAULT_HISTORY,
        copy: bool = False,
        edition: str = "classic",
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise SetupError(f"num_envs must be a positive number of games, not {num_envs!r}")
        self.rules = make_rules(rules)
        check_rules(self.rules, edition)
        self.edition = edition
        self.reward_kind = check_reward(reward)
        self.num_envs = num_envs
        self.players = players
        self.copy = copy
        self._template = template_state(players, self.rules, edition)
        self.encoder = Encoder(edition, players, self.rules, history)
        self.wait = int(self._template[ID_WAIT])
        """The id of "wait" (a decision out of turn declined): the edition's action ids come before it."""
        self._layout = encoding_layout(self.encoder)
        size = self.encoder.size
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.wait + 1,), dtype=np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(self.wait + 1)
        """The edition's action ids and "wait", as in the PettingZoo environment."""
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, self.wait + 1))
        self._states = np.zeros((num_envs, len(self._template)), dtype=np.int64)
        self._obs = np.zeros((num_envs, size), dtype=np.float32)
        self._masks = np.zeros((num_envs, self.wait + 1), dtype=np.int8)
        self._legal = np.zeros((num_envs, self.wait + 1), dtype=np.int8)
        self._seats = np.zeros(num_envs, dtype=np.int64)
        self._rewards = np.zeros((num_envs, players), dtype=np.float32)
        self._terminated = np.zeros(num_envs, dtype=np.bool_)
        self._truncated = np.zeros(num_envs, dtype=np.bool_)
        self._seed = -1
        self._next_game = 0

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal games 0 … ``num_envs - 1`` of ``seed`` (none: a random seed); later games follow in order."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**62)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**62:
            raise SetupError(f"seed must be an integer from 0 to 2**62 - 1, not {seed!r}")
        self._seed = seed
        self._next_game = self.num_envs
        batch_reset(
            self._states,
            self._template,
            seed,
            self._layout,
            self.encoder.high,
            self._obs,
            self._masks,
            self._seats,
            self._legal,
        )
        return self._observations(), {"seat": self._seats.copy()}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Observation, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """One action per game; returns observations, rewards (``num_envs`` × ``players``),
        terminations, truncations (never) and ``infos["seat"]``, the seat asked next in each game.
        An illegal action raises :class:`IllegalActionError` and no game changes."""
        if self._seed < 0:
            raise IllegalActionError("reset the environment before stepping it")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            raise IllegalActionError(f"actions must be {self.num_envs} integers, one per game, not {actions!r}")
        result = batch_step(
            self._states,
            self._template,
            self._seed,
            self._next_game,
            chosen.astype(np.int64, copy=False),
            self._seats,
            REWARD_KINDS[self.reward_kind],
            self._layout,
            self.encoder.high,
            self._obs,
            self._masks,
            self._rewards,
            self._terminated,
            self._legal,
        )
        if result < 0:
            row = -1 - result
            legal = np.flatnonzero(self._legal[row])
            raise IllegalActionError(
                f"action {int(chosen[row])} is not legal in game {row} (seat {int(self._seats[row])}); "
                f"legal: {', '.join(str(a) for a in legal)}"
            )
        self._next_game = result
        rewards = self._rewards.copy() if self.copy else self._rewards
        terminated = self._terminated.copy() if self.copy else self._terminated
        return self._observations(), rewards, terminated, self._truncated, {"seat": self._seats.copy()}

    def random_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action for each game (as the PettingZoo environment's random
        players choose), drawn from each game's own generator: a baseline opponent, or a quick check."""
        if self._seed < 0:
            raise IllegalActionError("reset the environment before asking for actions")
        out = np.zeros(self.num_envs, dtype=np.int64)
        batch_random_actions(self._states, self._seats, out)
        return out

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal actions of the seat asked in each game (as ``observations["action_mask"]``)."""
        return self._legal.copy()

    def _observations(self) -> Observation:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._masks.copy()}
        return {"observation": self._obs, "action_mask": self._masks}

    def close(self) -> None:
        """Nothing to release."""
