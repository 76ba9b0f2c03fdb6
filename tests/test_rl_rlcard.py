"""The RLCard interface: RLCard's own agents and Env.run on unokit's rules, masks, payoffs, seeding."""

from __future__ import annotations

import importlib
import re
import sys
from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

rlcard = pytest.importorskip("rlcard", reason="the RLCard interface needs the rlcard extra (in the test extra)")

from rlcard.agents import RandomAgent  # noqa: E402
from rlcard.utils import reorganize, tournament  # noqa: E402

from unokit.engine.errors import IllegalActionError, SetupError, UnknownOptionError  # noqa: E402
from unokit.rl import rlcard as uno_rlcard  # noqa: E402
from unokit.rl.encoding import Encoder  # noqa: E402

EDITIONS = ("classic", "space-jam", "all-wild", "wild-jackpot")


def random_agents(env: uno_rlcard.UnoEnv) -> list[RandomAgent]:
    return [RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)]


@pytest.mark.parametrize("players", [2, 4])
def test_rlcards_random_agents_play_through_env_run(players: int) -> None:
    np.random.seed(players)  # RLCard's RandomAgent draws from NumPy's global generator
    env = uno_rlcard.make("classic", config={"seed": 7, "game_num_players": players})
    env.set_agents(random_agents(env))
    assert env.num_actions == env.game.wait + 1 == 300
    assert env.state_shape == [[Encoder("classic", players).size]] * players
    for _ in range(3):
        trajectories, payoffs = env.run(is_training=False)
        assert len(trajectories) == players
        assert abs(float(payoffs.sum())) < 1e-9 and payoffs.max() == 1.0
        assert sorted(payoffs)[:-1] == [-1 / (players - 1)] * (players - 1)
        for player, trajectory in enumerate(trajectories):
            states, actions = trajectory[0::2], trajectory[1::2]
            assert len(states) == len(actions) + 1
            for state, action in zip(states, actions, strict=False):
                assert action in state["legal_actions"]
                assert state["raw_obs"]["seat"] == player
        transitions = reorganize(trajectories, payoffs)
        assert all(transition[-1] for transition in (t[-1] for t in transitions if t))
    assert len(tournament(env, 2)) == players


def test_states_follow_rlcards_shape_and_the_engine() -> None:
    env = uno_rlcard.make("wild-jackpot", config={"seed": 3, "game_num_players": 3, "game_rules": "house"})
    state, player = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(300):
        if env.is_over():
            break
        assert player == env.get_player_id()
        assert isinstance(state["legal_actions"], OrderedDict)
        assert state["obs"].dtype == np.float32 and state["obs"].shape == (env.state_shape[player][0],)
        game = env.game.game
        legal = set(game.legal_actions(player))
        ids = set(state["legal_actions"])
        out_of_turn = state["raw_obs"]["out_of_turn"]
        assert ids == (legal | {env.game.wait} if out_of_turn else legal)
        assert state["raw_legal_actions"] == [env.game.format(a) for a in state["legal_actions"]]
        if rng.random() < 0.5:
            state, player = env.step(int(rng.choice(list(ids))))
        else:
            state, player = env.step(str(rng.choice(state["raw_legal_actions"])), raw_action=True)
    assert state["action_record"] is env.action_recorder
    assert env.action_recorder and all(isinstance(action, str) for _, action in env.action_recorder)
    others = [seat for seat in range(3) if seat != env.get_player_id()]
    assert not env.get_state(others[0])["legal_actions"]


def test_every_edition_and_payoffs_sum_to_zero_for_every_reward() -> None:
    for index, edition in enumerate(EDITIONS):
        for reward in ("win", "points", "match"):
            env = uno_rlcard.make(edition, config={"seed": index, "game_num_players": 3 + index, "game_reward": reward})
            env.set_agents(random_agents(env))
            _, payoffs = env.run()
            assert env.is_over() and abs(float(payoffs.sum())) < 1e-9 and payoffs.any()


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = uno_rlcard.make("classic", config={"seed": 1})
    state, player = env.reset()
    illegal = next(a for a in range(env.num_actions) if a not in state["legal_actions"])
    before = env.game.game.state_key()
    for action in (illegal, env.game.wait, 1.0, True):
        with pytest.raises(IllegalActionError):
            env.step(action)
    with pytest.raises(IllegalActionError):
        env.step("wait", raw_action=True)
    assert env.game.game.state_key() == before and env.get_player_id() == player


def test_same_seed_same_game_and_step_back() -> None:
    def played(seed: int) -> list[Any]:
        env = uno_rlcard.make("classic", config={"seed": seed, "game_num_players": 3})
        state, _ = env.reset()
        for _ in range(30):
            state, _ = env.step(list(state["legal_actions"])[-1])
        return [state["obs"].tolist(), env.action_recorder[:]]

    assert played(5) == played(5) != played(6)
    env = uno_rlcard.make("classic", config={"seed": 2, "allow_step_back": True})
    state, player = env.reset()
    key = env.game.game.state_key()
    env.step(next(iter(state["legal_actions"])))
    back, back_player = env.step_back()
    assert env.game.game.state_key() == key and back_player == player
    assert np.array_equal(back["obs"], state["obs"])
    assert env.step_back() is False


def test_max_decisions_ends_the_game() -> None:
    env = uno_rlcard.make("all-wild", config={"seed": 4, "game_rules": "house", "game_max_decisions": 20})
    env.set_agents(random_agents(env))
    trajectories, _ = env.run()
    assert env.game.decisions <= 20 and sum(len(t[1::2]) for t in trajectories) == env.game.decisions


def test_registered_with_rlcard_make() -> None:
    env = rlcard.make(uno_rlcard.ENV_ID, config={"game_edition": "space-jam", "game_num_players": 4})
    assert isinstance(env, uno_rlcard.UnoEnv) and env.num_players == 4 and env.name == "unokit-space-jam"


@pytest.mark.parametrize(
    ("config", "error", "words"),
    [
        ({"game_edition": "uno-flip"}, UnknownOptionError, "unknown edition"),
        ({"game_num_players": 11}, SetupError, "players"),
        ({"game_reward": "score"}, UnknownOptionError, "unknown reward"),
        ({"game_rules": "tournament"}, UnknownOptionError, "unknown preset"),
        ({"game_speed": 2}, UnknownOptionError, "game_speed"),
        ({"game_max_decisions": 0}, UnknownOptionError, "game_max_decisions"),
    ],
)
def test_bad_configurations_are_refused(config: dict[str, Any], error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        uno_rlcard.UnoEnv(config)


def test_rlcards_dqn_agent_trains_on_it() -> None:
    pytest.importorskip(
        "torch", reason="RLCard's DQNAgent needs torch (the train extra; make test does not install it)"
    )
    from rlcard.agents.dqn_agent import DQNAgent  # (rlcard.agents names it only when pip lists torch)

    env = uno_rlcard.make("classic", config={"seed": 0, "game_max_decisions": 200})
    agent = DQNAgent(
        num_actions=env.num_actions,
        state_shape=env.state_shape[0],
        mlp_layers=[64],
        replay_memory_init_size=50,
        train_every=10,
        batch_size=16,
    )
    env.set_agents([agent, RandomAgent(num_actions=env.num_actions)])
    for _ in range(3):
        trajectories, payoffs = env.run(is_training=True)
        for transition in reorganize(trajectories, payoffs)[0]:
            agent.feed(transition)
    assert agent.total_t > 0


def test_without_the_extra_the_import_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "unokit.rl.rlcard", raising=False)
    monkeypatch.setitem(sys.modules, "rlcard.envs", None)
    with pytest.raises(ImportError, match=r"pip install 'unokit\[rlcard\]'"):
        importlib.import_module("unokit.rl.rlcard")


def test_the_quick_start_of_the_docs_runs() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    section = text[text.index("## Quick start: RLCard") :]
    snippet = re.search(r"```py\n(.*?)```", section, flags=re.DOTALL)
    assert snippet is not None
    exec(compile(snippet.group(1), "docs/rl.md", "exec"), {})
