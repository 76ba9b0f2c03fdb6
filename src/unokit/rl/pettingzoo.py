"""A PettingZoo AEC environment on unokit's rules, for every edition and house rule.

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers).  An observation is
``{"observation": Box(float32), "action_mask": Box(int8)}`` as PettingZoo's classic card
games have it: the vector of :mod:`unokit.rl.encoding` and a mask over ``Discrete(size + 1)``,
the edition's action ids plus "wait" (id ``size``) for decisions out of turn (see
:mod:`unokit.rl.cycle` for the order in which out-of-turn decisions are asked).  An illegal
action ends the game as PettingZoo's classic games end it (their ``TerminateIllegalWrapper``): the
offender is rewarded ``illegal_reward`` (-1), the others 0, every agent is terminated and its
``info["illegal_action"]`` names the offender and the action; with ``illegal_action="raise"`` it
raises :class:`~unokit.engine.errors.IllegalActionError` (a ``ValueError``) and changes nothing.
An episode is one match, truncated for every agent when a round reaches
``max_round_decisions`` decisions (:data:`unokit.rl.episodes.MAX_ROUND_DECISIONS` by default);
rewards are chosen by ``reward=`` (see :mod:`unokit.rl.rewards`).  docs/rl.md describes it all.

>>> environment = env(edition="classic", players=2, rules={"scoring": "single-round"})
>>> environment.reset(seed=1)
>>> for agent in environment.agent_iter():
...     observation, reward, termination, truncation, info = environment.last()
...     if termination or truncation:
...         action = None
...     else:
...         action = int(observation["action_mask"].nonzero()[0][0])
...     environment.step(action)
>>> environment.agents, environment.unwrapped.game.is_over
([], True)
"""

from __future__ import annotations

import functools
import random
from typing import Any

try:
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError("unokit.rl.pettingzoo needs the rl extra: pip install 'unokit[rl]'") from error

from unokit.engine.errors import IllegalActionError, UnknownOptionError
from unokit.engine.game import Game
from unokit.engine.rules import Rules
from unokit.rl.cycle import DecisionCycle, action_id, check_table, make_rules
from unokit.rl.encoding import DEFAULT_HISTORY, Encoder
from unokit.rl.episodes import MAX_ROUND_DECISIONS, check_cap, check_illegal_action
from unokit.rl.render import table_text
from unokit.rl.rewards import RewardKeeper, check_reward

__all__ = ["RENDER_MODES", "env", "raw_env"]

RENDER_MODES = ("ansi", "human")

Observation = dict[str, npt.NDArray[Any]]


def env(**options: Any) -> wrappers.OrderEnforcingWrapper:
    """:class:`raw_env` with PettingZoo's order-enforcing wrapper (``reset`` before ``step``...)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**options))


class raw_env(AECEnv[str, Observation, int]):  # type: ignore[misc]  # pettingzoo ships no type information
    """UNO as an AEC environment: one match of ``edition`` at a table of ``players``.

    ``rules``: ``None`` (the sheets), a :class:`~unokit.engine.rules.Rules`, a mapping of options (a
    ``preset`` key included) or a preset's name.  ``reward``: ``"win"``, ``"points"`` or
    ``"match"``.  ``max_cycles``: no agent decides more than this many times; the agent that
    would is truncated with all others (``None``: no limit).  ``max_round_decisions``: once a
    round has taken that many decisions (every agent's, waits included) every agent is truncated,
    with no reward for the unfinished round (``None``: no limit).  ``illegal_action``: ``"lose"``
    (the game ends, the offender rewarded ``illegal_reward``, as in PettingZoo's classic games) or
    ``"raise"``.  ``history``: events in the observation's window.  ``engine``: ``"python"``
    (:class:`unokit.Game`, every edition and rule) or ``"fast"`` (the compiled engine of
    :mod:`unokit.fast.engine`: all four editions with their sheets' options and the house rules it
    supports, the same observations, masks, rewards and order of decisions; the ``fast`` extra).
    With ``engine="fast"``, ``fast_state`` holds the compiled state and ``game`` is a
    :class:`unokit.Game` rebuilt from the same deal and decisions when read (a copy: changing it
    changes nothing in the environment, and its generator's next draws are not the compiled game's)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "unokit_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        edition: str = "classic",
        players: int = 2,
        rules: Rules | dict[str, Any] | str | None = None,
        reward: str = "win",
        render_mode: str | None = None,
        max_cycles: int | None = None,
        history: int = DEFAULT_HISTORY,
        engine: str = "python",
        max_round_decisions: int | None = MAX_ROUND_DECISIONS,
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
    ) -> None:
        super().__init__()
        self.rules = make_rules(rules)
        check_table(edition, players, self.rules)
        self.reward_kind = check_reward(reward)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise UnknownOptionError(f"unknown render mode {render_mode!r}; known: {', '.join(RENDER_MODES)}")
        if max_cycles is not None and (
            isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1
        ):
            raise UnknownOptionError(f"max_cycles must be a positive integer or None, not {max_cycles!r}")
        self.max_round_decisions = check_cap("max_round_decisions", max_round_decisions)
        self.illegal_action = check_illegal_action(illegal_action)
        self.illegal_reward = float(illegal_reward)
        self.edition = edition
        self.players = players
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.encoder = Encoder(edition, players, self.rules, history)
        self.wait = self.encoder.edition.actions.size
        """The "wait" action id (one past the edition's action ids)."""
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._seeds: random.Random | None = None
        self._game_now: Game | None = None
        self._game_seed = 0
        self._fast_actions: list[tuple[int, int]] = []
        self._fast_game: tuple[int, int, Game] | None = None
        self.engine = engine
        self._fast: Any = None
        self.fast_state: npt.NDArray[np.int64] | None = None
        """The compiled game's state (``engine="fast"``), else ``None``."""
        if engine == "fast":
            self._fast = _fast_engine(edition, self.rules)
            self._layout = self._fast.encoding_layout(self.encoder)
            self._step_rewards = np.zeros(players, dtype=np.float64)
        elif engine != "python":
            raise UnknownOptionError(f"unknown engine {engine!r}; known: python, fast")

    # ------------------------------------------------------------------ spaces

    @functools.cache  # noqa: B019 - one space object per agent, as PettingZoo asks
    def observation_space(self, agent: str) -> spaces.Dict:
        """``observation`` (the encoding's Box) and ``action_mask`` (int8, one per action id and wait)."""
        encoder = self.encoder
        return spaces.Dict(
            {
                "observation": spaces.Box(encoder.low, encoder.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.wait + 1,), dtype=np.int8),
            }
        )

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Discrete:
        """The edition's action ids and "wait"."""
        return spaces.Discrete(self.wait + 1)

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match.  The same ``seed`` and actions give the same match; without a seed the
        next match of the last seed's sequence (or an unseeded one)."""
        if seed is not None:
            self._seeds = random.Random(seed)
        game_seed = self._seeds.randrange(2**63) if self._seeds is not None else None
        if self._fast is not None:
            if game_seed is None:
                game_seed = random.SystemRandom().randrange(2**63)
            self.fast_state = self._fast.new_state(self.players, game_seed, self.rules, edition=self.edition)
            self._game_seed = game_seed
            self._fast_actions = []
            self._fast_game = None
        else:
            game = self._game_now = Game(self.edition, self.players, seed=game_seed, rules=self.rules)
            self._cycle = DecisionCycle(game)
            self._rewards = RewardKeeper(game, self.reward_kind)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.decisions = dict.fromkeys(self.agents, 0)
        """Decisions each agent has made in this match (waits included)."""
        self.round_decisions = 0
        """Decisions of every agent in the round being played (waits included)."""
        self._round = self._round_number()
        self._select()

    @property
    def game(self) -> Game | None:
        """The match as a :class:`unokit.Game` (``None`` before :meth:`reset`).  With
        ``engine="fast"`` it is rebuilt from the compiled game's deal and decisions when read
        (:mod:`unokit.fast.differential` holds the two engines equal): a copy, which changes
        nothing in the environment if changed."""
        if self.fast_state is None:
            return self._game_now
        cached = self._fast_game
        if cached is None or cached[0] != len(self._fast_actions) or len(cached[2].history) != cached[1]:
            game = self._replayed_game()
            cached = self._fast_game = (len(self._fast_actions), len(game.history), game)
        return cached[2]

    @game.setter
    def game(self, game: Game | None) -> None:
        """Put another game in (``engine="python"``: its asking order and rewards are then the caller's to set)."""
        if self._fast is not None:
            raise AttributeError("the compiled engine's game is rebuilt from its decisions: it cannot be set")
        self._game_now = game

    def _replayed_game(self) -> Game:
        """The compiled match replayed: a traced compiled game hands its random draws to a Python one."""
        from unokit.fast.differential import replay_game

        traced = self._fast.FastGame(
            self.players, seed=self._game_seed, rules=self.rules, edition=self.edition, trace=True
        )
        game, scripted = replay_game(traced, self.players, self.rules)
        cycle = DecisionCycle(game)
        for seat, action in self._fast_actions:
            traced.act(seat, action)
            scripted.script.extend(traced.trace())
            cycle.act(seat, action)
        game.rng = random.Random(f"{self._game_seed}:{len(self._fast_actions)}")  # the copy's own draws from here
        return game

    def _round_number(self) -> int:
        if self.fast_state is not None:
            return int(self.fast_state[self._fast.ROUND])
        return self._game().round

    def _count_round_decision(self) -> bool:
        """Count the decision just taken in its round; whether the round has reached its cap."""
        number = self._round_number()
        if number != self._round:
            self._round = number
            self.round_decisions = 0
        else:
            self.round_decisions += 1
        cap = self.max_round_decisions
        return cap is not None and self.round_decisions >= cap

    def _lose_by_illegal_action(self, agent: str, action: Any) -> None:
        """End the game for every agent: ``agent`` played ``action``, which is illegal."""
        self.terminations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        self._cumulative_rewards[agent] = 0.0
        for name in self.agents:
            self.infos[name] = {"illegal_action": {"agent": agent, "action": action}}
        self._accumulate_rewards()
        self._deads_step_first()

    def _select(self) -> None:
        if self.fast_state is not None:
            seat, out_of_turn = self._fast.asked(self.fast_state)
        else:
            seat, out_of_turn = self._cycle.asked()
        self._select_seat(seat, out_of_turn)

    def _select_seat(self, seat: int, out_of_turn: bool) -> None:
        """Select the agent of ``seat``; only its info says whether it is asked out of turn."""
        if seat >= 0:
            self.agent_selection = self.possible_agents[seat]
        for agent in self.agents:
            self.infos[agent] = {"out_of_turn": out_of_turn} if self._seat[agent] == seat else {}

    def observe(self, agent: str) -> Observation:
        """The observation of ``agent``; its mask is all zeros unless it is the agent asked now."""
        if self.fast_state is not None:
            fast = self._fast
            observation = np.zeros(self.encoder.size, dtype=np.float32)
            mask = np.zeros(self.wait + 1, dtype=np.int8)
            selected = agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent])
            seat = self._seat[agent]
            fast.observe(self.fast_state, seat, selected, self._layout, self.encoder.high, observation, mask)
            return {"observation": observation, "action_mask": mask}
        game = self._game()
        seat = self._seat[agent]
        mask = np.zeros(self.wait + 1, dtype=np.int8)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            mask[list(self._cycle.legal())] = 1
        return {"observation": self.encoder.encode(game.view(seat)), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Apply the action of the agent selected (``None`` once it is terminated or truncated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} is asked a decision: None is only for an agent that is done")
        try:
            if self.fast_state is not None:
                self._fast_step(agent, action_id(action))
                return
            game = self._game()
            self._cycle.act(self._seat[agent], action_id(action))
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._lose_by_illegal_action(agent, action)
            return
        else:
            self.rewards = dict(zip(self.possible_agents, self._rewards.collect(), strict=True))
            self.rewards = {a: self.rewards[a] for a in self.agents}
            over = game.is_over
        self._cumulative_rewards[agent] = 0.0
        self.decisions[agent] += 1
        capped = self._count_round_decision()
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._select()
            if capped or (self.max_cycles is not None and self.decisions[self.agent_selection] >= self.max_cycles):
                self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _fast_step(self, agent: str, action: int) -> None:
        """:meth:`step` on the compiled game (the same bookkeeping, in fewer steps)."""
        fast = self._fast
        state = self.fast_state
        step_rewards = self._step_rewards
        code, over, given, seat, out_of_turn = fast.env_act(
            state, self._seat[agent], action, fast.REWARD_KINDS[self.reward_kind], step_rewards
        )
        if code:
            if self.illegal_action == "lose":
                self._lose_by_illegal_action(agent, action)
                return
            raise IllegalActionError(
                f"{action} is not a legal action of {agent} now; legal: "
                + ", ".join(str(a) for a in np.flatnonzero(self.observe(agent)["action_mask"]))
            )
        if given:
            rewards = self.rewards = dict(zip(self.possible_agents, step_rewards.tolist(), strict=True))
        else:
            rewards = self.rewards = dict.fromkeys(self.agents, 0.0)
        self._fast_actions.append((self._seat[agent], action))
        self._cumulative_rewards[agent] = 0.0
        self.decisions[agent] += 1
        capped = self._count_round_decision()
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            infos = self.infos
            asked = self.possible_agents[seat]
            if asked != agent or infos[agent].get("out_of_turn") != out_of_turn:
                infos[agent] = {}
                infos[asked] = {"out_of_turn": out_of_turn}
            self.agent_selection = asked
            if capped or (self.max_cycles is not None and self.decisions[asked] >= self.max_cycles):
                self.truncations = dict.fromkeys(self.agents, True)
        cumulative = self._cumulative_rewards
        for name, reward in rewards.items():
            cumulative[name] += reward
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _game(self) -> Game:
        if self._game_now is None:
            raise IllegalActionError("reset the environment before using it")
        return self._game_now

    # ------------------------------------------------------------------ rendering

    def render(self) -> str | None:
        """The table in words (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None:
            return None
        if self.fast_state is not None:
            text: str = self._fast.table_text(self.fast_state, self.possible_agents)
            if self.render_mode == "human":
                print(text)
                return None
            return text
        game = self._game()
        seat, out_of_turn = self._cycle.asked()
        text = table_text(
            game, seat if seat >= 0 else None, self.possible_agents, "out of turn" if out_of_turn else "turn"
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def _fast_engine(edition: str, rules: Rules) -> Any:
    """The compiled engine's module, checked to play ``edition`` under ``rules``."""
    from unokit.fast import engine

    engine.check_rules(rules, edition)
    return engine
