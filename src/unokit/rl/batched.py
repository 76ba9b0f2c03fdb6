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

Every round ends under the rules, but a learner may make one very long: a round that reaches
``max_round_decisions`` decisions (every seat's, "wait" included; default
:data:`unokit.rl.episodes.MAX_ROUND_DECISIONS`, ``None`` for no cap) truncates its game
(``truncations[row]``), which is replaced by the next game as an ended one is.  A truncated round
pays nothing: the rewards of that step are those its actions gave (none ends the round), so the
game's rewards stay zero-sum; ``infos["final_observation"]`` holds, for every row that ended or
was truncated, that game's last observation for the seat the caller acted for.

Seats may be held by compiled bots (``bots=``: ``"heuristic"``, ``"random"``, or ``"python"`` for
the caller, per seat, or per row and seat): a step applies the caller's action in each row, then
the row's bots play, compiled, until a seat of the caller is asked or the game stops; the rewards
of their actions add up into the step's.  They play as :func:`unokit.fast.heuristic.play_bots_games`
plays them (the same deals, the same generators: :func:`unokit.fast.heuristic.bot_seed` of the seed,
the game's number and the seat), answering the decision cycle as :mod:`unokit.fast.batch` says.
:meth:`BatchedEnv.bot_actions` gives what a bot would do for the seat asked now (imitation).

>>> env = BatchedEnv(3, players=2, rules={"scoring": "single-round"})
>>> observations, infos = env.reset(seed=1)
>>> observations["observation"].shape, observations["action_mask"].shape
((3, 1880), (3, 300))
>>> actions = observations["action_mask"].argmax(axis=1)
>>> observations, rewards, terminations, truncations, infos = env.step(actions)
>>> rewards.shape, bool(rewards.sum() == 0)
((3, 2), True)

The learner at seat 0 of each game, the heuristic bot at seat 1, asking the heuristic what it would do:

>>> env = BatchedEnv(3, players=2, rules={"scoring": "single-round"}, bots=["python", "heuristic"])
>>> observations, infos = env.reset(seed=1)
>>> infos["seat"].tolist()
[0, 0, 0]
>>> observations, rewards, terminations, truncations, infos = env.step(env.bot_actions("heuristic"))
>>> infos["seat"].tolist()
[0, 0, 0]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

try:
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError("unokit.rl needs the rl extra: pip install 'unokit[rl]'") from error

from unokit.engine.errors import IllegalActionError, SetupError
from unokit.engine.rules import Rules
from unokit.fast.batch import LAST_GAME_DECISIONS, PYTHON, batch_bot_actions, batch_reset_bots, batch_step_bots
from unokit.fast.engine import (
    ID_WAIT,
    REWARD_KINDS,
    batch_random_actions,
    check_rules,
    encoding_layout,
)
from unokit.fast.heuristic import HEURISTIC, RANDOM, RNG_WORDS, bots_template, memory_words, reset_memory
from unokit.rl.cycle import make_rules
from unokit.rl.encoding import DEFAULT_HISTORY, Encoder
from unokit.rl.episodes import MAX_ROUND_DECISIONS
from unokit.rl.rewards import check_reward

__all__ = ["HOLDERS", "BatchedEnv", "Seats"]

Observation = dict[str, npt.NDArray[Any]]

HOLDERS = {"python": PYTHON, "heuristic": HEURISTIC, "random": RANDOM}
"""Who may hold a seat: the caller (``"python"``) or a compiled bot, and their codes in :attr:`BatchedEnv.holders`."""

Seats = Sequence[str] | Sequence[Sequence[str]] | npt.NDArray[Any] | None
"""Each seat's holder (:data:`HOLDERS`): one name per seat (every row alike), or one row of them per
game, or an array of their codes (any negative code is the caller's, so that it may tell apart
the players it holds); ``None``: the caller holds every seat."""


class BatchedEnv:
    """``num_envs`` games of ``edition`` at tables of ``players``, stepped together.

    ``edition`` and ``rules``: as the PettingZoo environment takes them (every edition and rule
    option the compiled engine plays: all of them but a ``deck`` of more than 256 cards).
    ``copy``: return copies of the observation and mask arrays (default: the batch's own arrays,
    overwritten by the next call).  ``max_round_decisions``: the cap on a round's decisions that
    truncates its game (``None``: none).  ``bots``: each seat's holder (:data:`Seats`; every row
    must leave the caller a seat); ``rotate_seats``: each row's next game seats them one seat on
    (seat ``k``'s holder moves to seat ``k + 1``), so that a learner plays every seat in turn.
    ``bot_memory``: keep the heuristic's memory of every game (needed by bots and by
    :meth:`bot_actions`; default: when ``bots`` seats a bot).  It costs an update after every
    action (docs/rl.md measures it: ``bench/vector_env.py``) and
    :func:`~unokit.fast.heuristic.memory_words` words per game (8 kB; 220 kB in Wild Jackpot, for
    the search of its runs).  Each seat also has its bot's generator (5 kB)."""

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        rules: Rules | dict[str, Any] | str | None = None,
        reward: str = "win",
        history: int = DEFAULT_HISTORY,
        copy: bool = False,
        edition: str = "classic",
        max_round_decisions: int | None = MAX_ROUND_DECISIONS,
        bots: Seats = None,
        rotate_seats: bool = False,
        bot_memory: bool | None = None,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise SetupError(f"num_envs must be a positive number of games, not {num_envs!r}")
        if max_round_decisions is not None and (
            isinstance(max_round_decisions, bool) or not isinstance(max_round_decisions, int) or max_round_decisions < 1
        ):
            raise SetupError(f"max_round_decisions must be a positive number or None, not {max_round_decisions!r}")
        self.rules = make_rules(rules)
        check_rules(self.rules, edition)
        self.max_round_decisions = max_round_decisions
        self.rotate_seats = bool(rotate_seats)
        self.edition = edition
        self.reward_kind = check_reward(reward)
        self.num_envs = num_envs
        self.players = players
        self.copy = copy
        self._template = bots_template(players, self.rules, edition)
        self.bot_memory = True  # while the seats are read
        seated = self._parse_bots(bots)
        self.bot_memory = bool((seated >= 0).any()) if bot_memory is None else bool(bot_memory)
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
        self._final = np.zeros((num_envs, size), dtype=np.float32)
        self._pending = np.zeros((num_envs, players), dtype=np.float32)
        self._counts = np.zeros((num_envs, 3), dtype=np.int64)
        self._acting = np.full(num_envs, -1, dtype=np.int64)
        self._games = np.zeros(num_envs, dtype=np.int64)
        self._active = np.ones(num_envs, dtype=np.bool_)
        self._holders = np.full((num_envs, players), PYTHON, dtype=np.int64)
        self._next_holders = self._holders.copy()
        self._seating = self._holders.copy()
        words = memory_words(self._template) if self.bot_memory else 1
        self._memories = np.zeros((num_envs, words), dtype=np.int64)
        if self.bot_memory:
            for memory in self._memories:
                reset_memory(memory)
        self._rngs = np.zeros((num_envs, players, RNG_WORDS), dtype=np.int64)
        self._seed = -1
        self._next_game = 0
        self.set_bots(bots)
        self._holders[:] = self._next_holders

    @property
    def holders(self) -> npt.NDArray[np.int64]:
        """Who holds each seat of each row's current game (``num_envs`` × ``players``: the codes of :data:`HOLDERS`)."""
        return self._holders.copy()

    def set_bots(self, bots: Seats, rows: npt.ArrayLike | None = None) -> None:
        """Seat ``bots`` (:data:`Seats`) at the next game of each row (of ``rows``: indices or a
        mask; default every row): the games in play keep theirs."""
        holders = self._parse_bots(bots)
        chosen = np.arange(self.num_envs) if rows is None else np.asarray(rows)
        if chosen.dtype == np.bool_:
            if chosen.shape != (self.num_envs,):
                raise SetupError(f"a mask of rows must have {self.num_envs} entries, not {chosen.shape}")
            chosen = np.flatnonzero(chosen)
        if chosen.dtype.kind not in "iu" or ((chosen < 0) | (chosen >= self.num_envs)).any():
            raise SetupError(f"rows must be row numbers from 0 to {self.num_envs - 1}, not {rows!r}")
        self._next_holders[chosen] = holders[chosen]
        self._seating[chosen] = holders[chosen]

    def _parse_bots(self, bots: Seats) -> npt.NDArray[np.int64]:
        shape = (self.num_envs, self.players)
        if bots is None:
            return np.full(shape, PYTHON, dtype=np.int64)
        given = np.asarray(bots)
        if given.dtype.kind in "US":
            unknown = sorted({str(name) for name in given.flat} - set(HOLDERS))
            if unknown:
                raise SetupError(f"a seat is held by one of {', '.join(HOLDERS)}, not {', '.join(unknown)}")
            given = np.vectorize(HOLDERS.__getitem__, otypes=[np.int64])(given)
        elif given.dtype.kind not in "iu" or not ((given < 0) | np.isin(given, (HEURISTIC, RANDOM))).all():
            raise SetupError(f"seats are held by {', '.join(HOLDERS)} (or their codes), not {bots!r}")
        try:
            holders = np.broadcast_to(given.astype(np.int64), shape).copy()
        except ValueError:
            raise SetupError(
                f"bots must name {self.players} seats, or {self.players} seats per game, not {bots!r}"
            ) from None
        if not (holders < 0).any(axis=1).all():
            raise SetupError('every game must leave the caller a seat ("python")')
        if (holders >= 0).any() and not self.bot_memory:
            raise SetupError("bots need the heuristic's memory: make the batch with bot_memory=True")
        return holders

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal games 0 … ``num_envs - 1`` of ``seed`` (none: a random seed); later games follow in
        order.  ``options={"bots": ...}`` seats them (:data:`Seats`; default: as last given, the
        rotation of ``rotate_seats`` starting again from there, so that a seed replays alike)."""
        if options and "bots" in options:
            self.set_bots(options["bots"])
        self._next_holders[:] = self._seating
        if seed is None:
            seed = random.SystemRandom().randrange(2**62)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**62:
            raise SetupError(f"seed must be an integer from 0 to 2**62 - 1, not {seed!r}")
        self._seed = seed
        self._next_game = batch_reset_bots(
            self._states,
            self._template,
            seed,
            self.rotate_seats,
            self._holders,
            self._next_holders,
            self._games,
            self.bot_memory,
            self._memories,
            self._rngs,
            REWARD_KINDS[self.reward_kind],
            self._pending,
            self._counts,
            self.max_round_decisions or 0,
            self._layout,
            self.encoder.high,
            self._obs,
            self._masks,
            self._seats,
            self._legal,
        )
        return self._observations(), {"seat": self._seats.copy(), "game": self._games.copy()}

    def step(
        self, actions: npt.ArrayLike, rows: npt.ArrayLike | None = None, final_seats: npt.ArrayLike | None = None
    ) -> tuple[Observation, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """One action per game (of the caller, for the seat asked), then the bots' until a seat of
        the caller is asked; returns observations, rewards (``num_envs`` × ``players``, the bots'
        actions' included), terminations, truncations (the round reached ``max_round_decisions``)
        and infos: ``"seat"``, the seat asked next in each game, ``"game"``, each row's game
        number, ``"final_observation"``, the last observation of each game that stopped, for the
        seat the caller acted for or ``final_seats[row]`` when given (rows that did not stop:
        stale), and ``"decisions"``, the decisions of every seat in the game that stopped
        (stale elsewhere).  ``rows`` (a mask of ``num_envs`` booleans): step only those games
        (the others' actions are ignored and they report nothing).  An illegal action raises
        :class:`IllegalActionError` and no game changes."""
        if self._seed < 0:
            raise IllegalActionError("reset the environment before stepping it")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            raise IllegalActionError(f"actions must be {self.num_envs} integers, one per game, not {actions!r}")
        active = self._active
        if rows is not None:
            active = np.asarray(rows)
            if active.shape != (self.num_envs,) or active.dtype != np.bool_:
                raise IllegalActionError(f"rows must be a mask of {self.num_envs} booleans, not {rows!r}")
        seats_seen = self._acting
        if final_seats is not None:
            seats_seen = np.asarray(final_seats)
            if seats_seen.shape != (self.num_envs,) or seats_seen.dtype.kind not in "iu":
                raise IllegalActionError(f"final_seats must be {self.num_envs} seats, not {final_seats!r}")
            if (seats_seen >= self.players).any():
                raise IllegalActionError(f"final_seats must be seats below {self.players}, not {final_seats!r}")
        result = batch_step_bots(
            self._states,
            self._template,
            self._seed,
            self._next_game,
            chosen.astype(np.int64, copy=False),
            active,
            self.rotate_seats,
            self._holders,
            self._next_holders,
            self._games,
            self.bot_memory,
            self._memories,
            self._rngs,
            REWARD_KINDS[self.reward_kind],
            self._pending,
            self._counts,
            self.max_round_decisions or 0,
            self._layout,
            self.encoder.high,
            self._obs,
            self._masks,
            self._seats,
            self._legal,
            self._rewards,
            self._terminated,
            self._truncated,
            self._final,
            seats_seen.astype(np.int64, copy=False),
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
        truncated = self._truncated.copy() if self.copy else self._truncated
        final = self._final.copy() if self.copy else self._final
        infos = {
            "seat": self._seats.copy(),
            "game": self._games.copy(),
            "final_observation": final,
            "decisions": self._counts[:, LAST_GAME_DECISIONS].copy(),
        }
        return self._observations(), rewards, terminated, truncated, infos

    def bot_actions(self, kind: str = "heuristic") -> npt.NDArray[np.int64]:
        """What a compiled bot of ``kind`` (``"heuristic"`` or ``"random"``) would answer for the seat
        asked now in each game ("wait" out of turn when it wants nothing), from the memory of the
        game kept for every seat: for imitation, or to let the caller play a bot's moves.  It draws
        from that seat's generator, as the bot seated there would (asked twice, a tie may break
        otherwise); needs ``bot_memory``."""
        if kind not in ("heuristic", "random"):
            raise SetupError(f"the compiled bots are heuristic and random, not {kind!r}")
        if not self.bot_memory:
            raise SetupError("bot_actions needs the heuristic's memory: make the batch with bot_memory=True")
        if self._seed < 0:
            raise IllegalActionError("reset the environment before asking for actions")
        out = np.zeros(self.num_envs, dtype=np.int64)
        batch_bot_actions(self._states, self._memories, self._rngs, HOLDERS[kind], out)
        return out

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
