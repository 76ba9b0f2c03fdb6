"""unokit's rules as an OpenSpiel game (the ``openspiel`` extra: open_spiel, numpy).

Importing this module registers the Python game ``python_unokit`` with
``pyspiel.register_game``; ``pyspiel.load_game("python_unokit", {...})`` then makes it, with
the parameters of :data:`PARAMETERS`.  Decisions are asked one seat at a time by
:mod:`unokit.rl.cycle` (out-of-turn decisions and "wait" included), rewards come from
:mod:`unokit.rl.rewards`, tensors from :mod:`unokit.rl.encoding`.

Chance is explicit.  The deal is ``deal_chance_nodes`` chance nodes in a row, each over
``chance_outcomes`` equally likely digits, together a seed of the engine's random generator (so
1024 × 1024 deals by default, at the cost of 1,024 outcomes a node).  Afterwards the game's generator refuses
to be used: every action is first tried on a copy of the game, and when the engine asks that
copy for a random number (a reshuffle, the next round's deal, the lever, the Jam drop...) the
copy is dropped and the state becomes a chance node over the same number of seeds; the chosen
seed then seeds the generator for that one action.  So the state is a function of the chance
outcomes and the actions, and ``chance_outcomes()`` is exactly what the state does next.

>>> import pyspiel
>>> game = pyspiel.load_game("python_unokit", {"players": 2, "max_game_length": 50})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()) == game.max_chance_outcomes()
(True, True)
>>> state.apply_action(7)
>>> state.apply_action(300)
>>> state.current_player() in (0, 1), len(state.observation_tensor(0)) == game.observation_tensor_size()
(True, True)
"""

from __future__ import annotations

import functools
import io
import json
import pickle
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

try:
    import numpy as np
    import numpy.typing as npt
    import pyspiel
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError("unokit.rl.openspiel needs the openspiel extra: pip install 'unokit[openspiel]'") from error

from unokit.cli.common import UsageError, parse_rule_values
from unokit.determinize import sample_game
from unokit.engine.cards import card_name
from unokit.engine.errors import IllegalActionError, UnknownOptionError
from unokit.engine.events import event_to_dict
from unokit.engine.game import Game
from unokit.engine.rules import Rules
from unokit.rl.cycle import DecisionCycle, check_table, make_rules
from unokit.rl.encoding import DEFAULT_HISTORY, Encoder
from unokit.rl.episodes import MAX_ROUND_DECISIONS
from unokit.rl.rewards import RewardKeeper, check_reward

__all__ = ["GAME_TYPE", "PARAMETERS", "SHORT_NAME", "UnoGame", "UnoObserver", "UnoState", "resample"]

SHORT_NAME = "python_unokit"

PARAMETERS: dict[str, Any] = {
    "edition": "classic",
    "players": 2,
    "rules": "scoring:single-round",
    "reward": "win",
    "history": DEFAULT_HISTORY,
    "max_game_length": 10_000,
    "max_round_decisions": MAX_ROUND_DECISIONS,
    "chance_outcomes": 1024,
    "deal_chance_nodes": 2,
    "seed": 0,
}
"""The game's parameters and their defaults.  ``rules``: a preset's name, ``NAME:VALUE`` rule options
separated by ``;`` (``preset:house;scoring:single-round``) or a JSON object of them (which the
game's string form cannot carry: its commas); ``""``: the printed sheets (several rounds); by
default one round is the game.
``max_game_length``: decisions (waits included) after which the game stops, truncated, with the
returns so far; ``max_round_decisions``: the same for the decisions of one round (the unfinished
round pays nothing).  ``chance_outcomes``: the outcomes at every chance node;
``deal_chance_nodes``: the chance nodes that draw the deal (``chance_outcomes`` to that power
deals).  ``seed``: mixed into every chance seed, to play another set of deals."""

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="UNO family (unokit)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.REWARDS,
    max_num_players=10,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


class _ChanceNeeded(Exception):
    """The engine asked for a random number during a tried action."""


class _NoChance(random.Random):
    """A random generator that refuses every draw (raises :class:`_ChanceNeeded`)."""

    def random(self) -> float:
        raise _ChanceNeeded

    def getrandbits(self, k: int) -> int:
        raise _ChanceNeeded


_NO_CHANCE = _NoChance(0)


@dataclass(frozen=True)
class _Settings:
    """One parameter set, shared by every state of a game."""

    edition: str
    players: int
    rules: Rules
    reward: str
    history: int
    max_game_length: int
    max_round_decisions: int
    chance_outcomes: int
    deal_chance_nodes: int
    seed: int
    parameters: tuple[tuple[str, Any], ...]

    @functools.cached_property
    def encoder(self) -> Encoder:
        return Encoder(self.edition, self.players, self.rules, self.history)

    @functools.cached_property
    def wait(self) -> int:
        return self.encoder.edition.actions.size

    @functools.cached_property
    def outcomes(self) -> list[tuple[int, float]]:
        return [(outcome, 1.0 / self.chance_outcomes) for outcome in range(self.chance_outcomes)]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Settings:
        return self


def _positive(name: str, value: Any, low: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise UnknownOptionError(f"game parameter {name!r} must be an integer from {low}, not {value!r}")
    return value


def _rules(text: Any) -> Rules:
    """The ``rules`` parameter: a preset's name, ``NAME:VALUE`` options separated by ``;`` (values
    read as the command line's ``--rule NAME=VALUE`` reads them, ``preset:...`` included) or a JSON
    object."""
    if not isinstance(text, str):
        raise UnknownOptionError(f"game parameter 'rules' must be text, not {text!r}")
    if text.lstrip().startswith("{"):
        try:
            options = json.loads(text)
        except json.JSONDecodeError as error:
            raise UnknownOptionError(f"game parameter 'rules' is not a JSON object: {error}") from None
        if not isinstance(options, dict):
            raise UnknownOptionError("game parameter 'rules' must be a JSON object of rule options")
        return make_rules(options)
    if ":" in text or "=" in text:
        pairs = [pair if "=" in pair else pair.replace(":", "=", 1) for pair in text.split(";") if pair.strip()]
        try:
            return make_rules(parse_rule_values(pairs))
        except UsageError as error:
            raise UnknownOptionError(f"game parameter 'rules': {error}") from None
    return make_rules(text.strip() or None)


@functools.lru_cache(maxsize=64)
def _settings(parameters: tuple[tuple[str, Any], ...]) -> _Settings:
    values = dict(parameters)
    unknown = sorted(set(values) - set(PARAMETERS))
    if unknown:
        raise UnknownOptionError(f"unknown game parameter {unknown[0]!r}; known: {', '.join(PARAMETERS)}")
    values = {**PARAMETERS, **values}
    rules = _rules(values["rules"])
    edition, players = values["edition"], values["players"]
    check_table(edition, players, rules)
    Encoder(edition, players, rules, values["history"])  # checks the history length
    return _Settings(
        edition=edition,
        players=players,
        rules=rules,
        reward=check_reward(values["reward"]),
        history=values["history"],
        max_game_length=_positive("max_game_length", values["max_game_length"]),
        max_round_decisions=_positive("max_round_decisions", values["max_round_decisions"]),
        chance_outcomes=_positive("chance_outcomes", values["chance_outcomes"]),
        deal_chance_nodes=_positive("deal_chance_nodes", values["deal_chance_nodes"]),
        seed=_positive("seed", values["seed"], 0),
        parameters=tuple(sorted(values.items())),
    )


def _length_bound(settings: _Settings) -> int:
    """The most decisions a game of these settings takes: ``max_game_length``, or fewer when the
    game is one round and ``max_round_decisions`` cuts it first."""
    probe = Game(settings.edition, settings.players, seed=0, rules=settings.rules)
    if probe.scoring == "single-round":
        return min(settings.max_game_length, settings.max_round_decisions)
    return settings.max_game_length


def _utility_bound(settings: _Settings) -> float:
    """The most a player can win (or lose) in a game of these settings."""
    rounds = 1
    probe = Game(settings.edition, settings.players, seed=0, rules=settings.rules)
    if settings.reward != "match" and probe.scoring != "single-round":
        rounds = settings.max_game_length + 1  # a round takes a decision at least
    if settings.reward == "points":
        deck = probe.deck_cards
        return float(rounds * probe.edition.hand_points(list(deck)))
    return float(rounds)


class UnoGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """One game (a round by default, a match with the sheets' scoring) at a table of ``players``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        settings = _settings(tuple(sorted((params or {}).items())))
        bound = _utility_bound(settings)
        info = pyspiel.GameInfo(
            num_distinct_actions=settings.wait + 1,
            max_chance_outcomes=settings.chance_outcomes,
            num_players=settings.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=_length_bound(settings),
        )
        super().__init__(GAME_TYPE, info, dict(settings.parameters))
        self.settings = settings

    def new_initial_state(self) -> UnoState:
        """The state before the deal (a chance node)."""
        return UnoState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> UnoObserver:
        """The observer of a player: its observation, or its information state (``perfect_recall``)."""
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return UnoObserver(self.settings, obs_type, params)


def _copy(game: Game) -> Game:
    """A copy of ``game`` whose generator refuses draws (the copy shares the views' redacted logs)."""
    other = game.clone()
    other.rng = _NO_CHANCE
    return other


class _Table:
    """Everything a state holds: the engine's game, the asking order, rewards and the actions so far."""

    def __init__(self, settings: _Settings) -> None:
        self.settings = settings
        self.game: Game | None = None
        self.cycle: DecisionCycle | None = None
        self.keeper: RewardKeeper | None = None
        self.pending: tuple[int, int] | None = None
        """``(seat, action)`` waiting for a chance outcome."""
        self.rewards = [0.0] * settings.players
        self.returns = [0.0] * settings.players
        self.decisions = 0
        self.round_decisions = 0
        """Decisions in the round being played (waits included)."""
        self.round = 0
        self.deal: list[int] = []
        """The deal's chance outcomes drawn so far (until the game is dealt)."""
        self.own: list[list[int]] = [[] for _ in range(settings.players)]
        """Each seat's decisions (waits included), for its information state."""
        self.actions: list[int] = []
        """Every action applied, chance outcomes included (the OpenSpiel history)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        other = _Table.__new__(_Table)
        other.__dict__.update(self.__dict__)
        if self.game is not None:
            assert self.cycle is not None and self.keeper is not None
            other.game = _copy(self.game)
            other.cycle = self.cycle.copy(other.game)
            other.keeper = self.keeper.copy(other.game)
        other.rewards = list(self.rewards)
        other.returns = list(self.returns)
        other.own = [list(own) for own in self.own]
        other.actions = list(self.actions)
        other.deal = list(self.deal)
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the parameters and everything the table holds (the engine's game, its asking
        order and rewards included), so that loading replays nothing: OpenSpiel's serialization of
        a Python game pickles the state.  What every game of these settings shares (the edition,
        its action space and tables) is written as a reference, not copied."""
        held = {name: value for name, value in self.__dict__.items() if name != "settings"}
        buffer = io.BytesIO()
        _SharedPickler(buffer, _shared(self.settings.parameters)).dump(held)
        return (_restored, (self.settings.parameters, buffer.getvalue()))

    # ------------------------------------------------------------------ queries

    def player(self) -> int:
        if self.game is None or self.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        assert self.cycle is not None
        return self.cycle.asked()[0]

    def terminal(self) -> bool:
        if self.game is None or self.pending is not None:
            return False
        return self.game.is_over or self.truncated()

    def truncated(self) -> bool:
        """The game is cut unfinished: it, or its round, took as many decisions as it may."""
        settings = self.settings
        return self.decisions >= settings.max_game_length or self.round_decisions >= settings.max_round_decisions

    def legal(self) -> list[int]:
        assert self.cycle is not None
        return sorted(self.cycle.legal())

    def chance_seed(self, outcome: int) -> str:
        """The engine's seed for ``outcome`` at this point of the history."""
        return f"{self.settings.seed}:{len(self.actions)}:{outcome}"

    # ------------------------------------------------------------------ transitions

    def apply(self, action: int) -> None:
        settings = self.settings
        self.rewards = [0.0] * settings.players
        if self.game is None or self.pending is not None:
            if isinstance(action, bool) or not 0 <= action < settings.chance_outcomes:
                raise IllegalActionError(f"a chance outcome is from 0 to {settings.chance_outcomes - 1}, not {action}")
            if self.game is None:
                self.deal.append(action)
                self.actions.append(action)
                if len(self.deal) < settings.deal_chance_nodes:
                    return
                key = ":".join(map(str, self.deal))
                seed = random.Random(f"{settings.seed}:0:{key}").getrandbits(63)
                game = Game(settings.edition, settings.players, seed=seed, rules=settings.rules)
                self._bind(game)
                self.keeper = RewardKeeper(game, settings.reward)
                self.round = game.round
                game.rng = _NO_CHANCE
                return
            seed = random.Random(self.chance_seed(action)).getrandbits(63)
            game = self.game
            assert self.pending is not None
            seat, chosen = self.pending
            game.rng = random.Random(seed)
            game.apply(seat, chosen)
            self.pending = None
            self._collect()
            self._count_round()
            game.rng = _NO_CHANCE
            self.actions.append(action)
            return
        if self.terminal():
            raise IllegalActionError("the game is over; no action is legal")
        assert self.cycle is not None
        seat = self.cycle.asked()[0]
        if action not in self.cycle.legal():
            legal = ", ".join(self.format(a) for a in self.legal())
            raise IllegalActionError(f"{action} is not legal for seat {seat}; legal: {legal}")
        if action == settings.wait:
            self.cycle.act(seat, action)
            self._count_round()
        else:
            before = _copy(self.game)
            try:
                self.game.apply(seat, action)
            except _ChanceNeeded:  # the action draws at random: back to the game before it, chance decides
                self._bind(before)
                self.pending = (seat, action)
            else:
                self._collect()
                self._count_round()
        self.decisions += 1
        self.own[seat].append(action)
        self.actions.append(action)

    def _bind(self, game: Game) -> None:
        """Make ``game`` the table's game (the asking order and the rewards follow it)."""
        self.game = game
        if self.cycle is None:
            self.cycle = DecisionCycle(game)
        else:
            self.cycle.game = game
        if self.keeper is not None:
            self.keeper.game = game

    def _count_round(self) -> None:
        """Count a decision just resolved in its round (a new round starts the count again)."""
        assert self.game is not None
        if self.game.round != self.round:
            self.round = self.game.round
            self.round_decisions = 0
        else:
            self.round_decisions += 1

    def _collect(self) -> None:
        assert self.keeper is not None
        self.rewards = self.keeper.collect()
        self.returns = [total + reward for total, reward in zip(self.returns, self.rewards, strict=True)]

    # ------------------------------------------------------------------ words

    def format(self, action: int) -> str:
        return "wait" if action == self.settings.wait else self.settings.encoder.edition.actions.format(action)

    def text(self) -> str:
        """The whole state (every hand and the draw pile's order), for debugging and comparisons."""
        game = self.game
        if game is None:
            return f"before the deal (drawn: {' '.join(map(str, self.deal))})" if self.deal else "before the deal"
        lines = [f"round {game.round}, phase {game.phase_name}, decisions {self.decisions}, asked {self.player()}"]
        if self.pending is not None:
            lines.append(f"seat {self.pending[0]} chose {self.format(self.pending[1])}: chance decides")
        for seat, hand in enumerate(game.hands):
            lines.append(f"player_{seat}: {' '.join(map(card_name, hand))}")
        lines.append(f"draw pile: {' '.join(map(card_name, game.draw_pile))}")
        lines.append(f"returns {self.returns}, events {len(game.events)}")
        generator = game.rng.getstate()
        lines.append(repr(tuple(part for part in game.state_key() if part != generator)))
        return "\n".join(lines)


@functools.lru_cache(maxsize=64)
def _shared(parameters: tuple[tuple[str, Any], ...]) -> dict[Any, Any]:
    """The objects every game of these settings shares, by name and by identity (``id``): those of a
    game dealt once and kept (so that the identities stay valid)."""
    settings = _settings(parameters)
    template = Game(settings.edition, settings.players, seed=0, rules=settings.rules)
    names = [name for name in Game.__slots__ if hasattr(template, name)]
    values = {name: getattr(template, name) for name in names} | dict(getattr(template, "__dict__", {}))
    by_name: dict[Any, Any] = {"template": template}
    for name, value in values.items():
        if value is not None and not isinstance(value, (bool, int, float, str)):
            by_name[name] = value
            by_name[id(value)] = (name, value)
    return by_name


class _SharedPickler(pickle.Pickler):
    """Writes the objects a game shares with every game of its settings as their names."""

    def __init__(self, file: io.BytesIO, shared: dict[Any, Any]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.shared = shared

    def persistent_id(self, obj: Any) -> str | None:
        found = self.shared.get(id(obj))
        if found is not None and found[1] is obj:
            return str(found[0])
        return None


class _SharedUnpickler(pickle.Unpickler):
    """Reads what :class:`_SharedPickler` wrote."""

    def __init__(self, file: io.BytesIO, shared: dict[Any, Any]) -> None:
        super().__init__(file)
        self.shared = shared

    def persistent_load(self, pid: Any) -> Any:
        return self.shared[pid]


def _restored(parameters: tuple[tuple[str, Any], ...], data: bytes) -> _Table:
    """A table unpickled: its settings found again, its game's generator refusing draws again."""
    held = _SharedUnpickler(io.BytesIO(data), _shared(parameters)).load()
    table = _Table.__new__(_Table)
    table.__dict__.update(held)
    table.settings = _settings(parameters)
    if table.game is not None:
        table.game.rng = _NO_CHANCE
    return table


class UnoState(pyspiel.State):  # type: ignore[misc]
    """A state of :class:`UnoGame`: a chance node (the deal, or an action whose outcome is
    random), a seat's decision, or the end."""

    def __init__(self, game: UnoGame) -> None:
        super().__init__(game)
        self._table = _Table(game.settings)

    @property
    def game(self) -> Game | None:
        """The engine's game (``None`` before the deal)."""
        return self._table.game

    def current_player(self) -> int:
        """The seat asked, or ``CHANCE`` or ``TERMINAL``."""
        return self._table.player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._table.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The seeds of the next chance outcome, equally likely."""
        return self._table.settings.outcomes

    def _apply_action(self, action: int) -> None:
        self._table.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}" if self._table.game is None else f"chance {action}"
        return self._table.format(action)

    def is_terminal(self) -> bool:
        """The match is over, or ``max_game_length`` decisions were taken."""
        return self._table.terminal()

    def rewards(self) -> list[float]:
        """The rewards of the last transition."""
        return list(self._table.rewards)

    def returns(self) -> list[float]:
        """The rewards so far, per seat (zero-sum)."""
        return list(self._table.returns)

    def __str__(self) -> str:
        return self._table.text()


_HISTORY_MARK = "\x00history\x00"
"""Stands for the history in an information state's JSON until its text is put in."""


class UnoObserver:
    """A player's observation (the encoding's vector) or information state (the vector and the
    player's own last decisions), with their strings."""

    def __init__(self, settings: _Settings, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise UnknownOptionError(f"the observer takes no parameters, not {params!r}")
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise UnknownOptionError(
                "only a player's own observation is supported (public and own private information)"
            )
        self.settings = settings
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        encoder = settings.encoder
        size = encoder.size + (settings.history * (settings.wait + 1) if self.perfect_recall else 0)
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {
            field.name: self.tensor[field.offset : field.offset + field.size] for field in encoder.fields
        }
        if self.perfect_recall:
            self.dict["own_decisions"] = self.tensor[encoder.size :].reshape(settings.history, settings.wait + 1)
        self._history_text: dict[int, tuple[int, Any, str]] = {}
        """Per player: the events last written as JSON (how many, the last one, the text)."""

    def set_from(self, state: UnoState, player: int) -> None:
        """The tensor of ``player`` in ``state``."""
        table = state._table
        self.tensor.fill(0)
        if table.game is None:
            return
        encoder = self.settings.encoder
        self.tensor[: encoder.size] = encoder.encode(table.game.view(player))
        if self.perfect_recall:
            own = self.dict["own_decisions"]
            for slot, action in enumerate(reversed(table.own[player][-self.settings.history :])):
                own[slot, action] = 1

    def string_from(self, state: UnoState, player: int) -> str:
        """The view of ``player`` as JSON: for the information state with the whole redacted history
        (events as ``[kind, seat, value, cards]``, cards as ids) and the player's own decisions (action
        ids), for the observation with the recent events only."""
        table = state._table
        if table.game is None:
            return f"player_{player}: before the deal"
        view = table.game.view(player)
        data = view.to_dict(history=False)
        if self.perfect_recall:
            data["history"] = _HISTORY_MARK
            data["own_decisions"] = table.own[player]
            text = json.dumps(data, sort_keys=True)
            return text.replace(json.dumps(_HISTORY_MARK), self._history_json(player, view.history), 1)
        if self.settings.history:
            data["recent"] = [event_to_dict(event) for event in view.history[-self.settings.history :]]
        return json.dumps(data, sort_keys=True)

    def _history_json(self, player: int, history: Sequence[Any]) -> str:
        """``json.dumps(list(history))``, writing only the events added since the last call for
        ``player`` when the log goes on from them (the log is append-only: the same last event
        object, at the same place, is the same prefix), so a long game costs no more per step."""
        length = len(history)
        start, text = 0, ""
        cached = self._history_text.get(player)
        if cached is not None and 0 < cached[0] <= length and history[cached[0] - 1] is cached[1]:
            start, text = cached[0], cached[2]
        if length > start:
            added = ", ".join(json.dumps(event) for event in history[start:length])
            text = f"{text}, {added}" if text else added
        if length:
            self._history_text[player] = (length, history[length - 1], text)
        return f"[{text}]"


def resample(state: UnoState, player: int, rng: random.Random | None = None, tries: int = 100) -> UnoState:
    """A state ``player`` cannot tell from ``state``: the cards it cannot see dealt again at random
    (:func:`unokit.determinize.sample_game`), for ISMCTS's ``set_resampler``.  ``state`` must be a
    decision of ``player``."""
    table = state._table
    if table.game is None or table.pending is not None or table.player() != player:
        raise IllegalActionError(f"a state can be resampled only at a decision of player {player}")
    rng = rng or random.Random()
    view = table.game.view(player)
    for _ in range(tries):
        game = sample_game(view, rng)
        game.events = view.history.to_list()
        game.rng = _NO_CHANCE
        copy: UnoState = state.clone()
        sampled = copy._table
        assert table.cycle is not None and table.keeper is not None
        sampled.game = game
        sampled.cycle = table.cycle.copy(game)
        sampled.keeper = table.keeper.copy(game)
        if sampled.player() == player:
            return copy
    raise IllegalActionError(f"no sampled state asks player {player} in {tries} tries")


pyspiel.register_game(GAME_TYPE, UnoGame)
