"""The compiled batched environment as a Gymnasium vector environment: a learner against a pool of opponents.

:class:`UnoVectorEnv` is a :class:`gymnasium.vector.VectorEnv` of ``num_envs`` games on the compiled
engine (:class:`unokit.rl.batched.BatchedEnv`).  In each game the learner holds one seat (fixed by
``learner_seat``, or turned one seat on at every new game of the row, so that it plays every seat in
turn); the other seats are held by an opponent drawn from ``opponents``, the pool (row ``i``'s
games take entry ``i % len(opponents)``; :meth:`UnoVectorEnv.set_opponents` changes it for the next
games).  An entry is

* ``"heuristic"`` or ``"random"``: the compiled bots, played inside the compiled step;
* a callable ``policy(observations, masks) -> actions`` given the batch of observations and masks
  of the games where its seats are asked (earlier checkpoints of a policy, for instance);
* ``"self"``: self-play, the learner holding every seat of the game;
* or a tuple of ``players - 1`` of those (not ``"self"``), one per other seat in play order from the learner's.

Observations are the vectors of :mod:`unokit.rl.encoding` for the learner's seat asked now
(``single_observation_space`` a ``Box``), actions ``Discrete(size + 1)`` (the edition's action ids
and "wait", as in :class:`unokit.rl.gymnasium.UnoEnv`), and the legal actions are in
``info["action_mask"]`` (and :meth:`UnoVectorEnv.action_masks`); ``action_space.sample()`` draws
legal actions.  A step's reward is the reward of the seat the learner acted for, over everything
that happened until the learner is asked again (the opponents' moves included); in self-play, of
the seat that acted.  ``info["rewards"]`` holds every seat's, ``info["seat"]`` the learner's seat
asked now.  A round that reaches ``max_round_decisions`` decisions truncates its game, paying nothing.

Autoreset follows Gymnasium 1.x (``metadata["autoreset_mode"]``): ``NEXT_STEP`` (the default, as in
:class:`gymnasium.vector.SyncVectorEnv`): the step that ends a game returns its last observation
(its mask: "wait" alone, so that a masked policy can still sample; ``info["seat"]``: the seat it
was for), and the next step ignores that row's action and returns the next game's first
observation with reward 0; or ``SAME_STEP``: the step that ends a game returns the next game's
first observation, the last one in ``info["final_obs"]`` (and ``info["final_info"]``), with their
masks ``info["_final_obs"]`` and ``info["_final_info"]``.

>>> env = UnoVectorEnv(4, players=2, rules={"scoring": "single-round"}, opponents=["heuristic", "self"])
>>> observations, info = env.reset(seed=1)
>>> observations.shape, info["action_mask"].shape
((4, 1880), (4, 300))
>>> observations, rewards, terminations, truncations, info = env.step(env.action_space.sample())
>>> rewards.shape, env.metadata["autoreset_mode"].value
((4,), 'NextStep')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

try:
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError("unokit.rl.vector needs the rl extra: pip install 'unokit[rl]'") from error

from unokit.engine.errors import IllegalActionError, SetupError
from unokit.engine.rules import Rules
from unokit.fast.batch import PYTHON
from unokit.fast.heuristic import HEURISTIC, RANDOM
from unokit.rl.batched import BatchedEnv
from unokit.rl.encoding import DEFAULT_HISTORY
from unokit.rl.episodes import MAX_ROUND_DECISIONS

__all__ = ["LegalMultiDiscrete", "Opponent", "Policy", "UnoVectorEnv"]

Observations = npt.NDArray[np.float32]
Masks = npt.NDArray[np.int8]
Actions = npt.NDArray[np.int64]

Policy = Callable[[Observations, Masks], npt.ArrayLike]
"""A batch of observations and their masks to one action per observation."""

Opponent = str | Policy | tuple[str | Policy, ...]
"""``"heuristic"``, ``"random"``, ``"self"``, a :data:`Policy`, or one of those (not ``"self"``) per other seat."""

_BOTS = {"heuristic": HEURISTIC, "random": RANDOM}


class LegalMultiDiscrete(spaces.MultiDiscrete):
    """The batch's actions, whose :meth:`sample` without a mask draws a legal action in each game."""

    def __init__(self, nvec: Any, legal_masks: Callable[[], Masks], seed: int | None = None) -> None:
        super().__init__(nvec, seed=seed)
        self._legal_masks = legal_masks

    def sample(self, mask: Any = None, probability: Any = None) -> npt.NDArray[np.int64]:
        """One action per game: among ``mask`` (or ``probability``) if given, else among its legal actions."""
        if mask is not None or probability is not None:
            return super().sample(mask=mask, probability=probability)
        legal = self._legal_masks()
        out = np.zeros(len(legal), dtype=np.int64)
        for row, allowed in enumerate(legal):
            out[row] = self.np_random.choice(np.flatnonzero(allowed))
        return out


class UnoVectorEnv(VectorEnv[Observations, Actions, Any]):
    """``num_envs`` games of ``edition`` at tables of ``players``: the learner against ``opponents``.

    ``rules``, ``reward``, ``history``, ``edition``: as :class:`~unokit.rl.batched.BatchedEnv` takes
    them.  ``learner_seat``: the learner's seat in every game, or ``None`` (row ``i`` starts at seat
    ``i % players`` and each new game of the row moves it one seat on).  ``max_round_decisions``:
    the cap on a round's decisions that truncates its game (``None``: none).  ``autoreset_mode``:
    ``NEXT_STEP`` or ``SAME_STEP`` (see the module).  ``bot_memory``: keep the heuristic's memory
    of every game (:class:`~unokit.rl.batched.BatchedEnv`), which the compiled bots need; ``False``
    saves its cost where no pool will seat them."""

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        rules: Rules | dict[str, Any] | str | None = None,
        reward: str = "win",
        *,
        opponents: Sequence[Opponent] = ("heuristic",),
        learner_seat: int | None = None,
        edition: str = "classic",
        history: int = DEFAULT_HISTORY,
        max_round_decisions: int | None = MAX_ROUND_DECISIONS,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        bot_memory: bool = True,
    ) -> None:
        mode = AutoresetMode(autoreset_mode)
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise SetupError(f"autoreset_mode must be NEXT_STEP or SAME_STEP, not {mode}")
        if learner_seat is not None and (
            isinstance(learner_seat, bool) or not isinstance(learner_seat, int) or not 0 <= learner_seat < players
        ):
            raise SetupError(f"learner_seat must be a seat from 0 to {players - 1} or None, not {learner_seat!r}")
        self.batch = BatchedEnv(
            num_envs,
            players,
            rules,
            reward,
            history,
            edition=edition,
            max_round_decisions=max_round_decisions,
            rotate_seats=learner_seat is None,
            bot_memory=bot_memory,
        )
        """The batched environment underneath (its ``holders``: the learner's seats are :data:`PYTHON`)."""
        self.num_envs = num_envs
        self.players = players
        self.learner_seat = learner_seat
        self.autoreset_mode = mode
        self.metadata = {"autoreset_mode": mode, "render_modes": []}
        self.wait = self.batch.wait
        encoder = self.batch.encoder
        self.single_observation_space = spaces.Box(encoder.low, encoder.high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.wait + 1)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = LegalMultiDiscrete(np.full(num_envs, self.wait + 1), self.action_masks)
        self._policies: dict[int, Policy] = {}
        self._codes: dict[int, int] = {}
        self._last_code = PYTHON
        self._rows = np.arange(num_envs)
        self._pending = np.zeros((num_envs, players), dtype=np.float32)
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)
        self._wait_only = np.zeros(self.wait + 1, dtype=np.int8)
        self._wait_only[self.wait] = 1
        self._reset_once = False
        self.opponents: tuple[Opponent, ...] = ()
        self._seat_pool(opponents, None, first=True)

    # ------------------------------------------------------------ opponents

    def set_opponents(self, opponents: Sequence[Opponent], rows: npt.ArrayLike | None = None) -> None:
        """Draw the next games' opponents (of the rows ``rows``, indices; default all) from the pool
        ``opponents``: row ``i`` takes entry ``i % len(opponents)``.  The games in play keep theirs;
        a reset seats this pool in every row.  A policy no game holds any more is let go."""
        self._seat_pool(opponents, rows, first=False)

    def _seat_pool(self, opponents: Sequence[Opponent], rows: npt.ArrayLike | None, first: bool) -> None:
        """Seat the pool at the next games of ``rows`` (``first``: the first games of a reset)."""
        pool = tuple(opponents) if not isinstance(opponents, str) else (opponents,)
        if not pool:
            raise SetupError("the pool of opponents is empty")
        chosen = self._rows if rows is None else np.asarray(rows, dtype=np.int64).reshape(-1)
        upcoming = self.batch._next_holders
        holders = upcoming.copy()
        for row in chosen:
            entry = pool[int(row) % len(pool)]
            seat = self._next_learner_seat(int(row), first)
            holders[row] = self._seating(entry, seat)
        self.batch.set_bots(holders)
        self.opponents = pool
        self._let_go()

    def _let_go(self) -> None:
        """Forget the policies no game holds or will hold (checkpoints left out of the pool)."""
        batch = self.batch
        seated = set(np.unique(np.concatenate([batch._holders, batch._next_holders, batch._seating])).tolist())
        for code in [code for code in self._policies if code not in seated]:
            del self._codes[id(self._policies.pop(code))]

    def _next_learner_seat(self, row: int, first: bool) -> int:
        """The learner's seat in ``row``'s next game: ``row % players`` in the first, then one seat on
        per game (where a self-play game leaves it undecided: from the row's game number)."""
        if self.learner_seat is not None:
            return self.learner_seat
        upcoming = self.batch._next_holders[row]
        if first or not self._reset_once:
            return row % self.players
        if (upcoming == PYTHON).all():
            return (row + int(self.batch._games[row]) + 1) % self.players
        return int(np.flatnonzero(upcoming == PYTHON)[0])

    def _seating(self, entry: Opponent, seat: int) -> npt.NDArray[np.int64]:
        n = self.players
        if isinstance(entry, str) and entry == "self":
            return np.full(n, PYTHON, dtype=np.int64)
        others = entry if isinstance(entry, tuple) else (entry,) * (n - 1)
        if len(others) != n - 1:
            raise SetupError(f"an opponent per seat names {n - 1} opponents, not {len(others)}")
        row = np.full(n, PYTHON, dtype=np.int64)
        for step, opponent in enumerate(others, start=1):
            row[(seat + step) % n] = self._code(opponent)
        return row

    def _code(self, opponent: str | Policy) -> int:
        if isinstance(opponent, str):
            if opponent not in _BOTS:
                raise SetupError(f"an opponent is heuristic, random, self or a policy, not {opponent!r}")
            return _BOTS[opponent]
        if not callable(opponent):
            raise SetupError(f"an opponent is heuristic, random, self or a policy, not {opponent!r}")
        key = id(opponent)
        if key not in self._codes:
            self._last_code -= 1  # never reused: a game in play may still hold an earlier code
            self._codes[key] = self._last_code
            self._policies[self._last_code] = opponent
        return self._codes[key]

    # ------------------------------------------------------------ the vector environment

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, dict[str, Any]]:
        """Deal the first games of ``seed`` (one integer: the batch's games are numbered from it;
        ``None``: a seed drawn from the environment's generator, itself seeded by the last seed
        given).  ``options={"opponents": pool}`` sets the pool first."""
        if isinstance(seed, list):
            raise SetupError("seed one batch with one integer: its games are numbered from it")
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        self._seat_pool(
            options["opponents"] if options and "opponents" in options else self.opponents, None, first=True
        )
        self.batch.reset(seed=seed if seed is not None else int(self.np_random.integers(2**62)))
        self._let_go()
        self._reset_once = True
        self._pending[:] = 0
        self._autoreset[:] = False
        every = np.zeros((self.num_envs, self.players), dtype=np.float32)
        state = _Step(self.num_envs, self.players)
        self._play_opponents(state)  # before the learner's first decision: all for its first step
        self._pending += np.where(state.ended[:, None], 0, state.every) + state.pending
        info = {"action_mask": self.batch._masks.copy(), "seat": self.batch._seats.copy(), "rewards": every}
        return self.batch._obs.copy(), info

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Observations, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """The learner's action in each game (ignored in a game that ended at the last step, under
        ``NEXT_STEP``); then the opponents' until the learner is asked again."""
        if not self._reset_once:
            raise IllegalActionError("reset the environment before stepping it")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            raise IllegalActionError(f"actions must be {self.num_envs} integers, one per game, not {actions!r}")
        next_step = self.autoreset_mode == AutoresetMode.NEXT_STEP
        stepped = ~self._autoreset if next_step else np.ones(self.num_envs, dtype=np.bool_)
        state = _Step(self.num_envs, self.players)
        acted = self.batch._seats.copy()
        state.reward[stepped] = self._pending[stepped, acted[stepped]]
        state.every[stepped] = self._pending[stepped]
        self._pending[stepped] = 0
        self._batch_step(state, chosen.astype(np.int64, copy=False), stepped, acted)
        self._play_opponents(state)
        if state.final is not None:
            self._pending += state.pending
        ended = state.terminated | state.truncated
        info: dict[str, Any] = {"seat": self.batch._seats.copy(), "rewards": state.every}
        observations = self.batch._obs.copy()
        masks = self.batch._masks.copy()
        if state.final is None:
            if next_step:
                self._autoreset = ended
        elif next_step:
            observations[ended] = state.final[ended]
            masks[ended] = self._wait_only
            info["seat"][ended] = acted[ended]
            self._autoreset = ended
        else:
            final_obs = np.full(self.num_envs, None, dtype=object)
            for row in np.flatnonzero(ended):
                final_obs[row] = state.final[row].copy()
            info["final_obs"] = final_obs
            info["_final_obs"] = ended.copy()
            info["final_info"] = {"seat": acted, "_seat": ended.copy()}
            info["_final_info"] = ended.copy()
        info["action_mask"] = masks
        return observations, state.reward, state.terminated, state.truncated, info

    def action_masks(self) -> Masks:
        """The legal actions of the learner's seat asked now in each game (as ``info["action_mask"]``)."""
        masks = self.batch._masks.copy()
        masks[self._autoreset] = self._wait_only
        return masks

    def _batch_step(self, state: _Step, actions: Actions, rows: npt.NDArray[np.bool_], acted: Actions) -> None:
        """Step ``rows`` of the batch and book what it gives into ``state`` (see :class:`_Step`)."""
        _, rewards, terminated, truncated, infos = self.batch.step(actions, rows=rows, final_seats=acted)
        stopped = terminated | truncated  # the rows not stepped have no reward and did not stop
        picked = rewards[self._rows, acted]
        if state.final is not None:  # some game stopped already: what its next game gives waits
            later = state.ended
            state.pending[later] += rewards[later]
            rewards = np.where(later[:, None], 0, rewards)
            picked = np.where(later, 0, picked)
            stopped &= ~later
        state.reward += picked
        state.every += rewards
        if stopped.any():
            if state.final is None:
                state.final = np.zeros((self.num_envs, self.batch.encoder.size), dtype=np.float32)
            state.terminated |= stopped & terminated
            state.truncated |= stopped & truncated
            state.final[stopped] = infos["final_observation"][stopped]
            state.ended |= stopped

    def _play_opponents(self, state: _Step) -> None:
        """Let the opponents given as policies play until the learner is asked in every game."""
        batch = self.batch
        while True:
            holder = batch._holders[self._rows, batch._seats]
            asked = holder < PYTHON
            if not asked.any():
                return
            actions = np.zeros(self.num_envs, dtype=np.int64)
            for code in np.unique(holder[asked]):
                rows = holder == code
                chosen = np.asarray(self._policies[int(code)](batch._obs[rows].copy(), batch._masks[rows].copy()))
                actions[rows] = chosen.astype(np.int64).reshape(-1)
            learner = np.argmax(batch._holders == PYTHON, axis=1)
            self._batch_step(state, actions, asked, learner)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""


class _Step:
    """What one step of :class:`UnoVectorEnv` gathers over the batch's steps: the learner's reward
    and every seat's, in the games it stepped (until one stops); the rewards of the games dealt
    since (kept for their first step), which games stopped and how, and their last observations."""

    def __init__(self, rows: int, players: int) -> None:
        self.reward = np.zeros(rows, dtype=np.float32)
        self.every = np.zeros((rows, players), dtype=np.float32)
        self.pending = np.zeros((rows, players), dtype=np.float32)
        self.terminated = np.zeros(rows, dtype=np.bool_)
        self.truncated = np.zeros(rows, dtype=np.bool_)
        self.ended = np.zeros(rows, dtype=np.bool_)
        self.final: npt.NDArray[np.float32] | None = None
        """The last observations (made when a game first stops)."""
