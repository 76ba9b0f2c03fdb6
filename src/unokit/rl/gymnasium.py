"""A single-agent Gymnasium environment: the learner at one seat, bots at the others.

The observation is the vector of :mod:`unokit.rl.encoding`; actions are ``Discrete(size + 1)``,
the edition's action ids plus "wait" for decisions out of turn (asked in the order of
:mod:`unokit.rl.cycle`).  :meth:`UnoEnv.action_masks` (and ``info["action_mask"]``) gives
the legal actions, as maskable algorithms (sb3-contrib's ``MaskablePPO``) expect, and
``action_space.sample()`` draws among them.  Opponents are bots by kind (``"random"``,
``"heuristic"``, ``"ismcts"``), :class:`~unokit.bots.base.Bot` objects, or callables given
the opponent's view and returning an action id (``None`` out of turn: wait).  An illegal
action ends the episode, the learner losing (reward ``illegal_reward``, -1), as PettingZoo's
classic games end theirs, and as Gymnasium's ``check_env`` expects of an environment whose
``step`` it feeds actions drawn without a mask; with ``illegal_action="raise"`` it raises
:class:`~unokit.engine.errors.IllegalActionError` and changes nothing.  An episode is truncated when
a round reaches ``max_round_decisions`` decisions (:data:`unokit.rl.episodes.MAX_ROUND_DECISIONS`
by default).

>>> import gymnasium
>>> import unokit.rl
>>> environment = gymnasium.make("unokit/Classic-v0", rules={"scoring": "single-round"})
>>> observation, info = environment.reset(seed=3)
>>> terminated = truncated = False
>>> while not (terminated or truncated):
...     action = int(info["action_mask"].nonzero()[0][0])
...     observation, reward, terminated, truncated, info = environment.step(action)
>>> reward in (-1.0, 1.0)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError("unokit.rl.gymnasium needs the rl extra: pip install 'unokit[rl]'") from error

from unokit.bots.base import Bot, bot_kinds, make_bot
from unokit.engine.errors import GameOverError, IllegalActionError, SetupError, UnknownOptionError
from unokit.engine.game import Game
from unokit.engine.rules import Rules
from unokit.engine.views import View
from unokit.rl.cycle import DecisionCycle, action_id, check_table, make_rules
from unokit.rl.encoding import DEFAULT_HISTORY, Encoder
from unokit.rl.episodes import ILLEGAL_ACTION_CHOICES, MAX_ROUND_DECISIONS, check_cap, check_illegal_action
from unokit.rl.render import table_text
from unokit.rl.rewards import RewardKeeper, check_reward

__all__ = ["ILLEGAL_ACTION_CHOICES", "LegalActionSpace", "Opponent", "UnoEnv"]

Opponent = str | Bot | Callable[[View], int | None]
"""A bot kind, a bot, or a callable from an opponent's view to its action (``None``: wait)."""

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


class LegalActionSpace(spaces.Discrete):
    """``Discrete(size + 1)`` whose :meth:`sample` without a mask draws among the legal actions now."""

    def __init__(self, n: int, legal_mask: Callable[[], Mask], seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        self._legal_mask = legal_mask

    def sample(self, mask: Mask | None = None, probability: Any = None) -> np.int64:
        """An action id: among ``mask`` (or ``probability``) if given, else among the legal actions."""
        if mask is None and probability is None:
            legal = self._legal_mask()
            if legal.any():
                mask = legal
        return super().sample(mask=mask, probability=probability)


class UnoEnv(gymnasium.Env[Vector, np.int64]):
    """One match of ``edition`` with the learner at ``seat`` and ``opponents`` at the other seats.

    ``opponents``: one :data:`Opponent` for every other seat, or a sequence of them (the other
    seats in seat order).  Bots made by kind are seeded from the episode's seed.  ``reward``:
    ``"win"``, ``"points"`` or ``"match"`` (see :mod:`unokit.rl.rewards`).  ``max_decisions``:
    the episode is truncated after that many decisions of all players (``None``: no limit).
    ``max_round_decisions``: the episode is truncated once a round has taken that many decisions
    of all players, waits included, with no reward for the unfinished round (``None``: no limit).
    ``illegal_action``: ``"lose"`` (the episode ends, terminated, with reward ``illegal_reward``
    and ``info["illegal_action"]``; the game is left as it was) or ``"raise"`` (an
    :class:`~unokit.engine.errors.IllegalActionError`, nothing changed)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        edition: str = "classic",
        players: int = 2,
        rules: Rules | dict[str, Any] | str | None = None,
        opponents: Opponent | Sequence[Opponent] = "random",
        seat: int = 0,
        reward: str = "win",
        render_mode: str | None = None,
        max_decisions: int | None = None,
        history: int = DEFAULT_HISTORY,
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
        max_round_decisions: int | None = MAX_ROUND_DECISIONS,
    ) -> None:
        super().__init__()
        self.rules = make_rules(rules)
        check_table(edition, players, self.rules)
        self.reward_kind = check_reward(reward)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise SetupError(f"seat must be from 0 to {players - 1}, not {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UnknownOptionError(f"unknown render mode {render_mode!r}; known: ansi, human")
        self.max_decisions = check_cap("max_decisions", max_decisions)
        self.max_round_decisions = check_cap("max_round_decisions", max_round_decisions)
        self.illegal_action = check_illegal_action(illegal_action)
        self.illegal_reward = float(illegal_reward)
        self.edition = edition
        self.players = players
        self.seat = seat
        self.render_mode = render_mode
        self.opponents = _opponent_list(opponents, players, seat)
        self.encoder = Encoder(edition, players, self.rules, history)
        self.wait = self.encoder.edition.actions.size
        """The "wait" action id (one past the edition's action ids)."""
        self.observation_space = spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        self.action_space = LegalActionSpace(self.wait + 1, self.action_masks)
        self.game: Game | None = None
        self._bots: dict[int, Bot | Callable[[View], int | None]] = {}

    # ------------------------------------------------------------------ episode

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Vector, dict[str, Any]]:
        """A new match, played by the opponents until the learner is asked."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**63))
        self.game = Game(self.edition, self.players, seed=game_seed, rules=self.rules)
        self._cycle = DecisionCycle(self.game)
        self._rewards = RewardKeeper(self.game, self.reward_kind)
        self._bots = {}
        for other, opponent in self.opponents.items():
            if isinstance(opponent, str):
                bot_seed = int(self.np_random.integers(2**63))
                self._bots[other] = make_bot(opponent, seed=bot_seed, edition=self.edition)
            else:
                self._bots[other] = opponent
        self.decisions = 0
        """Decisions of all players in this match (waits included)."""
        self.round_decisions = 0
        """Decisions of all players in the round being played (waits included)."""
        self._round = self.game.round
        self._done = False
        _, truncated = self._play_opponents()
        self._done = truncated or self.game.is_over
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then the opponents' until the learner is asked again."""
        game = self._game()
        if self._done:
            raise GameOverError("the episode is over: reset the environment")
        try:
            self._cycle.act(self.seat, action_id(action))
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._done = True
            info = self._info()
            info["illegal_action"] = action
            return self._observe(), self.illegal_reward, True, False, info
        self._count()
        reward = self._rewards.collect()[self.seat]
        more, truncated = self._play_opponents()
        reward += more
        terminated = game.is_over
        truncated = truncated and not terminated
        self._done = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return self._observe(), float(reward), terminated, truncated, self._info()

    def _play_opponents(self) -> tuple[float, bool]:
        """Ask the opponents until the learner is asked or the match ends: the learner's reward
        meanwhile, and whether the decision limit was reached."""
        game = self._game()
        reward = 0.0
        while not game.is_over:
            if self._capped():
                return reward, True
            seat, out_of_turn = self._cycle.asked()
            if seat == self.seat:
                break
            self._cycle.act(seat, self._opponent_action(seat, out_of_turn))
            self._count()
            reward += self._rewards.collect()[self.seat]
        return reward, False

    def _count(self) -> None:
        """Count the decision just taken, in the match and in its round."""
        self.decisions += 1
        number = self._game().round
        if number != self._round:
            self._round = number
            self.round_decisions = 0
        else:
            self.round_decisions += 1

    def _capped(self) -> bool:
        """Whether the match or the round has taken as many decisions as it may."""
        if self.max_decisions is not None and self.decisions >= self.max_decisions:
            return True
        return self.max_round_decisions is not None and self.round_decisions >= self.max_round_decisions

    def _opponent_action(self, seat: int, out_of_turn: bool) -> int:
        game = self._game()
        view = game.view(seat)
        opponent = self._bots[seat]
        if isinstance(opponent, Bot):
            action = opponent.wants_interrupt(view) if out_of_turn else opponent.choose(view)
            name = opponent.name
        else:
            action = opponent(view)
            name = getattr(opponent, "__name__", repr(opponent))
        if action is None and out_of_turn:
            return self.wait
        if type(action) is not int and not isinstance(action, bool) and hasattr(action, "__index__"):
            action = action_id(action)
        if type(action) is not int or action not in view.legal_actions:
            legal = ", ".join(game.actions.format(a) for a in view.legal_actions)
            raise RuntimeError(
                f"opponent {name!r} at seat {seat} returned {action!r}, not a legal action; legal: {legal}"
            )
        return action

    def _game(self) -> Game:
        if self.game is None:
            raise GameOverError("reset the environment before using it")
        return self.game

    # ------------------------------------------------------------------ observations

    def action_masks(self) -> Mask:
        """1 for each legal action of the learner now (``wait`` included out of turn), else 0."""
        mask = np.zeros(self.wait + 1, dtype=np.int8)
        if self.game is not None and not self._done and self._cycle.asked()[0] == self.seat:
            mask[list(self._cycle.legal())] = 1
        return mask

    def _observe(self) -> Vector:
        return self.encoder.encode(self._game().view(self.seat))

    def _info(self) -> dict[str, Any]:
        out_of_turn = self._cycle.asked()[1] and not self._done
        return {"action_mask": self.action_masks(), "out_of_turn": out_of_turn}

    def render(self) -> str | None:
        """The table in words, with the learner's hand (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None:
            return None
        out_of_turn = self._cycle.asked()[1]
        text = table_text(
            self._game(),
            self.seat,
            [_name(s, self.seat) for s in range(self.players)],
            "out of turn" if out_of_turn else "turn",
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text


def _name(seat: int, learner: int) -> str:
    return "learner" if seat == learner else f"player_{seat}"


def _opponent_list(opponents: Opponent | Sequence[Opponent], players: int, seat: int) -> dict[int, Opponent]:
    """The opponent of each other seat; :class:`UnknownOptionError` for an unknown kind or a bad count."""
    others = [s for s in range(players) if s != seat]
    if isinstance(opponents, (str, Bot)) or callable(opponents):
        chosen: list[Opponent] = [opponents] * len(others)
    elif isinstance(opponents, Sequence):
        chosen = list(opponents)
        if len(chosen) != len(others):
            raise UnknownOptionError(f"{len(others)} opponents are needed (one per other seat), not {len(chosen)}")
    else:
        raise UnknownOptionError(
            f"opponents must be a bot kind, a bot, a callable or a list of them, not {opponents!r}"
        )
    for opponent in chosen:
        if isinstance(opponent, str):
            if opponent not in bot_kinds():
                raise UnknownOptionError(f"unknown bot kind {opponent!r}; known: {', '.join(bot_kinds())}")
        elif not isinstance(opponent, Bot) and not callable(opponent):
            raise UnknownOptionError(f"an opponent is a bot kind, a bot or a callable, not {opponent!r}")
    return dict(zip(others, chosen, strict=True))
