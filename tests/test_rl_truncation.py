"""Every single environment truncates a round at a cap on its decisions: a staller (a player who
draws whenever drawing is legal) at every seat, in every edition, on both engines.

The cap is set small here, so that the round is cut long before the draw pile runs out: what is
tested is the environments' cap (flags, rewards, counts), whatever the rules then do with a stalled
round."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from unokit.editions import get_edition
from unokit.engine.actions import ActionType
from unokit.engine.views import View
from unokit.rl import pettingzoo as uno_pettingzoo
from unokit.rl.episodes import MAX_ROUND_DECISIONS
from unokit.rl.gymnasium import UnoEnv

EDITIONS = ("classic", "space-jam", "all-wild", "wild-jackpot")
CAP = 40


def staller(edition: str) -> Any:
    """The staller's choice among legal ids (wait included out of turn): draw, else pass, else
    wait, else the first legal action."""
    space = get_edition(edition).actions
    draw, keep = space.id(ActionType.DRAW), space.id(ActionType.PASS)
    wait = space.size

    def choose(legal: Sequence[int]) -> int:
        for action in (draw, keep, wait):
            if action in legal:
                return action
        return int(min(legal))

    return choose


@pytest.mark.parametrize("engine", ["python", "fast"])
@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_truncates_a_stalled_round(engine: str, edition: str, players: int) -> None:
    environment = uno_pettingzoo.env(edition=edition, players=players, engine=engine, max_round_decisions=CAP)
    raw = environment.unwrapped
    choose = staller(edition)
    environment.reset(seed=11)
    steps = 0
    returns = dict.fromkeys(raw.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        returns[agent] += reward
        if termination or truncation:
            assert truncation and not termination
            environment.step(None)
            continue
        environment.step(choose(np.flatnonzero(observation["action_mask"]).tolist()))
        steps += 1
    assert steps == CAP and raw.round_decisions == CAP
    assert returns == dict.fromkeys(raw.possible_agents, 0.0), "the unfinished round pays nothing"
    assert not raw.game.is_over and raw.game.round == 1


@pytest.mark.parametrize("engine", ["python", "fast"])
def test_pettingzoo_cap_defaults_and_counts_per_round(engine: str) -> None:
    assert uno_pettingzoo.raw_env(engine=engine).max_round_decisions == MAX_ROUND_DECISIONS
    environment = uno_pettingzoo.env(engine=engine, rules=None, reward="points", max_round_decisions=5_000)
    raw = environment.unwrapped
    rng = np.random.default_rng(3)
    environment.reset(seed=4)
    rounds_seen = {1}
    returns = dict.fromkeys(raw.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        returns[agent] += reward
        if termination or truncation:
            environment.step(None)
            continue
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        rounds_seen.add(raw._round_number())
        assert raw.round_decisions <= 5_000
    assert abs(sum(returns.values())) < 1e-9
    assert len(rounds_seen) > 1 and sum(raw.decisions.values()) > raw.round_decisions, "the count starts again"


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 4])
def test_gymnasium_truncates_a_stalled_round(edition: str, players: int) -> None:
    choose = staller(edition)

    def opponent(view: View) -> int | None:
        """The staller at another seat (out of turn it always waits)."""
        if view.seat != view.actor:
            return None
        return choose(list(view.legal_actions))

    environment = UnoEnv(edition, players, opponents=opponent, max_round_decisions=CAP)
    assert UnoEnv(edition, players).max_round_decisions == MAX_ROUND_DECISIONS
    _, info = environment.reset(seed=5)
    total, terminated, truncated = 0.0, False, False
    while not (terminated or truncated):
        action = choose(np.flatnonzero(info["action_mask"]).tolist())
        _, reward, terminated, truncated, info = environment.step(action)
        total += reward
    assert truncated and not terminated and total == 0.0
    assert environment.round_decisions == CAP == environment.decisions
    assert not info["action_mask"].any()


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 4])
def test_openspiel_ends_a_stalled_round_at_the_cap(edition: str, players: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import unokit.rl.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game(
        "python_unokit", {"edition": edition, "players": players, "max_round_decisions": CAP, "chance_outcomes": 8}
    )
    assert pyspiel.load_game("python_unokit").get_parameters()["max_round_decisions"] == MAX_ROUND_DECISIONS
    choose = staller(edition)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(decisions % 8)
            continue
        state.apply_action(choose(state.legal_actions()))
        decisions += 1
    assert decisions == CAP == game.max_game_length() and not state.game.is_over
    several_rounds = pyspiel.load_game("python_unokit", {"rules": "", "max_round_decisions": CAP})
    assert several_rounds.max_game_length() == 10_000, "a match of several rounds is bounded by max_game_length"
    assert state.returns() == [0.0] * players


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 4])
def test_rlcard_stops_a_stalled_round_at_the_cap(edition: str, players: int) -> None:
    pytest.importorskip("rlcard")
    from unokit.rl import rlcard as uno_rlcard

    choose = staller(edition)

    class Staller:
        use_raw = False

        def step(self, state: dict[str, Any]) -> int:
            return choose(list(state["legal_actions"]))

        def eval_step(self, state: dict[str, Any]) -> tuple[int, dict[str, Any]]:
            return self.step(state), {}

    environment = uno_rlcard.make(edition, {"seed": 2, "game_num_players": players, "game_max_round_decisions": CAP})
    assert uno_rlcard.make(edition).game.max_round_decisions == MAX_ROUND_DECISIONS
    environment.set_agents([Staller() for _ in range(players)])
    trajectories, payoffs = environment.run(is_training=False)
    assert environment.game.truncated() and environment.is_over()
    assert environment.game.decisions == CAP == environment.game.round_decisions
    assert payoffs.tolist() == [0.0] * players and len(trajectories) == players
