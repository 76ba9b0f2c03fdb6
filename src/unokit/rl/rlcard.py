"""unokit's rules behind RLCard's ``Env`` interface (the ``rlcard`` extra: rlcard, numpy).

:class:`UnoEnv` is an ``rlcard.envs.Env``: RLCard's own ``step``, ``run``, ``set_agents``,
``seed`` and ``step_back`` drive it, so RLCard's agents and scripts run on it when
``rlcard.make("uno", config)`` becomes ``unokit.rl.rlcard.make("classic", config)`` (importing
this module also registers the id ``"unokit"`` with ``rlcard.make``).  ``state["obs"]`` is the
vector of :mod:`unokit.rl.encoding`, ``state["legal_actions"]`` an ``OrderedDict`` of the legal
action ids (the edition's ids and "wait", asked in the order of :mod:`unokit.rl.cycle`),
``state["raw_obs"]`` the player's view and ``state["raw_legal_actions"]`` their notation.  An
illegal action raises :class:`~unokit.engine.errors.IllegalActionError`; it is never replaced.
A game stops when a round reaches ``game_max_round_decisions`` decisions
(:data:`unokit.rl.episodes.MAX_ROUND_DECISIONS` by default): RLCard has no truncation flag, so
``env.is_over()`` is true, ``env.game.truncated()`` says it was cut, and the payoffs are those of the
rounds finished (the unfinished round pays nothing).

>>> from rlcard.agents import RandomAgent
>>> env = make("classic", config={"seed": 1, "game_num_players": 3})
>>> env.set_agents([RandomAgent(env.num_actions) for _ in range(env.num_players)])
>>> trajectories, payoffs = env.run()
>>> len(trajectories), float(sum(payoffs)), float(max(payoffs))
(3, 0.0, 1.0)
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

try:
    import numpy as np
    import numpy.typing as npt
    from rlcard.envs import Env
    from rlcard.envs.registration import register, registry
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError("unokit.rl.rlcard needs the rlcard extra: pip install 'unokit[rlcard]'") from error

from unokit.editions import get_edition
from unokit.engine.cards import card_name
from unokit.engine.errors import GameOverError, IllegalActionError, UnknownOptionError
from unokit.engine.game import Game
from unokit.engine.rules import Rules
from unokit.engine.views import View
from unokit.rl.cycle import DecisionCycle, action_id, check_table, make_rules
from unokit.rl.encoding import DEFAULT_HISTORY, Encoder
from unokit.rl.episodes import MAX_ROUND_DECISIONS, check_cap
from unokit.rl.rewards import RewardKeeper, check_reward

__all__ = ["DEFAULT_CONFIG", "ENV_ID", "UnoEnv", "make"]

ENV_ID = "unokit"
"""The id registered with ``rlcard.make`` (the edition is ``config["game_edition"]``)."""

DEFAULT_CONFIG: dict[str, Any] = {
    "seed": None,
    "allow_step_back": False,
    "game_edition": "classic",
    "game_num_players": 2,
    "game_rules": {"scoring": "single-round"},
    "game_reward": "win",
    "game_history": DEFAULT_HISTORY,
    "game_max_decisions": None,
    "game_max_round_decisions": MAX_ROUND_DECISIONS,
}
"""The configuration's keys and defaults: RLCard's ``seed`` and ``allow_step_back``, and the
game's (``game_...``).  ``game_rules`` as for the other environments (``None``: the printed
sheets, several rounds); by default one round is a game, as in RLCard's UNO.
``game_max_decisions``: the game stops after that many decisions, the payoffs as they stand;
``game_max_round_decisions``: it stops once a round has taken that many decisions (every seat's,
waits included), the payoffs as they stand (``None``: no limit)."""

RawState = dict[str, Any]


class _RLCardGame:
    """RLCard's game interface (``init_game``, ``step``, ``get_state``...) over the engine."""

    def __init__(
        self,
        edition: str,
        players: int,
        rules: Rules,
        reward: str,
        max_decisions: int | None,
        max_round_decisions: int | None = MAX_ROUND_DECISIONS,
    ) -> None:
        self.edition = edition
        self.players = players
        self.rules = rules
        self.reward = reward
        self.max_decisions = max_decisions
        self.max_round_decisions = max_round_decisions
        self.wait = get_edition(edition).actions.size
        self.allow_step_back = False
        self.np_random = np.random.RandomState()
        self.game: Game | None = None
        self._snapshots: list[tuple[Game, DecisionCycle, RewardKeeper, list[float], int, int]] = []

    def get_num_players(self) -> int:
        return self.players

    def get_num_actions(self) -> int:
        return self.wait + 1

    def init_game(self) -> tuple[RawState, int]:
        """A new game, seeded from ``np_random``."""
        seed = int(self.np_random.randint(0, 2**63 - 1, dtype=np.int64))
        self.game = Game(self.edition, self.players, seed=seed, rules=self.rules)
        self.cycle = DecisionCycle(self.game)
        self.keeper = RewardKeeper(self.game, self.reward)
        self.payoffs = [0.0] * self.players
        self.decisions = 0
        self.round_decisions = 0
        """Decisions of every seat in the round being played (waits included)."""
        self._snapshots = []
        player = self.get_player_id()
        return self.get_state(player), player

    def _game(self) -> Game:
        if self.game is None:
            raise GameOverError("reset the environment before using it")
        return self.game

    def format(self, action: int) -> str:
        return "wait" if action == self.wait else self._game().actions.format(action)

    def parse(self, text: str) -> int:
        return self.wait if text.strip().lower() == "wait" else self._game().actions.parse(text)

    def step(self, action: str | int) -> tuple[RawState, int]:
        """Apply the action (notation, or an id) of the player asked; raises, changing nothing, if illegal."""
        game = self._game()
        if self.is_over():
            raise GameOverError("the game is over: reset the environment")
        seat = self.get_player_id()
        chosen = self.parse(action) if isinstance(action, str) else action_id(action)
        if self.allow_step_back:
            snapshot = game.clone()
            self._snapshots.append(
                (
                    snapshot,
                    self.cycle.copy(snapshot),
                    self.keeper.copy(snapshot),
                    list(self.payoffs),
                    self.decisions,
                    self.round_decisions,
                )
            )
        before = game.round
        try:
            self.cycle.act(seat, chosen)
        except IllegalActionError:
            if self.allow_step_back:
                self._snapshots.pop()
            raise
        self.decisions += 1
        self.round_decisions = 0 if game.round != before else self.round_decisions + 1
        self.payoffs = [total + reward for total, reward in zip(self.payoffs, self.keeper.collect(), strict=True)]
        player = seat if self.is_over() else self.get_player_id()
        return self.get_state(player), player

    def step_back(self) -> bool:
        """Undo the last step (``allow_step_back``); ``False`` at the start."""
        if not self._snapshots:
            return False
        self.game, self.cycle, self.keeper, self.payoffs, self.decisions, self.round_decisions = self._snapshots.pop()
        return True

    def get_player_id(self) -> int:
        """The seat asked now (-1 once the game is over)."""
        return self.cycle.asked()[0]

    def is_over(self) -> bool:
        """The match is over, or it was cut at a cap (:meth:`truncated`)."""
        return self._game().is_over or self.truncated()

    def truncated(self) -> bool:
        """Whether the game stopped unfinished: the match or its round took as many decisions as it may."""
        if self._game().is_over:
            return False
        if self.max_decisions is not None and self.decisions >= self.max_decisions:
            return True
        return self.max_round_decisions is not None and self.round_decisions >= self.max_round_decisions

    def get_legal_actions(self, player: int | None = None) -> tuple[int, ...]:
        """The legal action ids of ``player`` (the seat asked: its legal actions, else none)."""
        if self.is_over() or (player is not None and player != self.get_player_id()):
            return ()
        return tuple(sorted(self.cycle.legal()))

    def get_state(self, player: int) -> RawState:
        """What ``player`` sees: its view and its legal actions (none unless it is asked)."""
        return {
            "view": self._game().view(player),
            "legal": self.get_legal_actions(player),
            "out_of_turn": not self.is_over() and self.cycle.asked() == (player, True),
        }

    def get_payoffs(self) -> list[float]:
        return list(self.payoffs)


class UnoEnv(Env):  # type: ignore[misc]  # rlcard ships no type information
    """An RLCard environment on unokit's rules; ``config`` as :data:`DEFAULT_CONFIG`.

    ``step_back`` works with ``allow_step_back=True`` (each step keeps a copy of the game)."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        config = {**DEFAULT_CONFIG, **(config or {})}
        unknown = sorted(key for key in config if key.startswith("game_") and key not in DEFAULT_CONFIG)
        if unknown:
            known = ", ".join(key for key in DEFAULT_CONFIG if key.startswith("game_"))
            raise UnknownOptionError(f"unknown configuration key {unknown[0]!r}; known: {known}")
        edition, players = config["game_edition"], config["game_num_players"]
        rules = make_rules(config["game_rules"])
        check_table(edition, players, rules)
        max_decisions = check_cap("game_max_decisions", config["game_max_decisions"])
        max_round_decisions = check_cap("game_max_round_decisions", config["game_max_round_decisions"])
        self.encoder = Encoder(edition, players, rules, config["game_history"])
        self.name = f"unokit-{edition}"
        self.default_game_config = {key: value for key, value in DEFAULT_CONFIG.items() if key.startswith("game_")}
        self.game = _RLCardGame(
            edition, players, rules, check_reward(config["game_reward"]), max_decisions, max_round_decisions
        )
        super().__init__(config)
        self.state_shape = [[self.encoder.size] for _ in range(self.num_players)]
        self.action_shape = [None for _ in range(self.num_players)]

    def _extract_state(self, state: RawState) -> dict[str, Any]:
        view: View = state["view"]
        legal: tuple[int, ...] = state["legal"]
        raw_obs = view.to_dict(history=False)
        raw_obs["out_of_turn"] = state["out_of_turn"]
        return {
            "obs": self.encoder.encode(view),
            "legal_actions": OrderedDict((action, None) for action in legal),
            "raw_obs": raw_obs,
            "raw_legal_actions": [self.game.format(action) for action in legal],
            "action_record": self.action_recorder,
        }

    def _decode_action(self, action: Any) -> str:
        """The notation of a legal action id; :class:`IllegalActionError` for any other."""
        chosen = action_id(action)
        legal = self._get_legal_actions()
        if chosen not in legal:
            words = ", ".join(self.game.format(a) for a in legal)
            raise IllegalActionError(f"{action!r} is not legal for player {self.get_player_id()}; legal: {words}")
        return self.game.format(chosen)

    def _get_legal_actions(self) -> OrderedDict[int, None]:
        return OrderedDict((action, None) for action in self.game.get_legal_actions())

    def get_payoffs(self) -> npt.NDArray[np.float64]:
        """Each player's rewards over the game (zero-sum, per ``game_reward``)."""
        return np.array(self.game.get_payoffs(), dtype=np.float64)

    def get_perfect_information(self) -> dict[str, Any]:
        """Every hand and the public table (for debugging and human interfaces)."""
        game = self.game._game()
        state: dict[str, Any] = game.view(None).to_dict(history=False)
        state["hand_cards"] = [[card_name(card) for card in hand] for hand in game.hands]
        state["current_player"] = self.get_player_id()
        state["legal_actions"] = [self.game.format(action) for action in self.game.get_legal_actions()]
        return state


def make(edition: str = "classic", config: dict[str, Any] | None = None) -> UnoEnv:
    """An :class:`UnoEnv` of ``edition``: the counterpart of ``rlcard.make("uno", config)``."""
    return UnoEnv({**(config or {}), "game_edition": edition})


if ENV_ID not in registry.env_specs:
    register(env_id=ENV_ID, entry_point="unokit.rl.rlcard:UnoEnv")
