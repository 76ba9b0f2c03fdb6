"""The environments follow their libraries' conventions: Gymnasium's ``check_env`` and PettingZoo's
``api_test`` with the defaults, illegal actions ended as PettingZoo's classic games end them,
NumPy integer ids wherever an action id goes and a real ``game`` on the compiled engine (the
compiled engine's first compilation and cache: tests/test_fast_compiling.py)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import unokit.rl  # noqa: E402
from unokit.engine.errors import IllegalActionError, NotationError  # noqa: E402
from unokit.engine.game import Game  # noqa: E402
from unokit.rl import pettingzoo as uno_pettingzoo  # noqa: E402
from unokit.rl.gymnasium import UnoEnv  # noqa: E402


@pytest.mark.parametrize("environment_id", sorted(unokit.rl.ENVIRONMENT_IDS.values()))
def test_every_registered_environment_passes_check_env_with_its_defaults(environment_id: str) -> None:
    environment = gymnasium.make(environment_id)
    assert environment.unwrapped.illegal_action == "lose"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(environment.unwrapped)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make(environment_id))  # wrapped as made: only the checker's advice to unwrap
    assert all("unwrapped" in str(warning.message) for warning in caught), [str(w.message) for w in caught]


def test_gymnasium_ends_the_episode_on_an_illegal_action_by_default() -> None:
    environment = UnoEnv("classic", 2)
    _, info = environment.reset(seed=2)
    assert environment.game is not None
    state = environment.game.state_key()
    illegal = np.int64(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = environment.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, illegal)
    assert environment.game.state_key() == state and not info["action_mask"].any()


@pytest.mark.parametrize("engine", ["python", "fast"])
def test_pettingzoo_api_test_passes_with_the_defaults(engine: str) -> None:
    environment = uno_pettingzoo.env(engine=engine)
    assert environment.unwrapped.illegal_action == "lose"
    api_test(environment, num_cycles=200)


@pytest.mark.parametrize("engine", ["python", "fast"])
def test_pettingzoo_ends_the_game_on_an_illegal_action_as_classic_games_do(engine: str) -> None:
    environment = uno_pettingzoo.env(players=3, engine=engine)
    environment.reset(seed=7)
    raw = environment.unwrapped
    offender = environment.agent_selection
    mask = environment.observe(offender)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = raw.game.state_key()
    environment.step(illegal)
    assert raw.game.state_key() == before, "the illegal action changed nothing in the game"
    assert all(raw.terminations.values()) and not any(raw.truncations.values())
    assert raw.rewards == {agent: (-1.0 if agent == offender else 0.0) for agent in raw.possible_agents}
    for agent in raw.possible_agents:
        assert raw.infos[agent]["illegal_action"] == {"agent": offender, "action": illegal}
    returns = dict.fromkeys(raw.possible_agents, 0.0)
    for agent in environment.agent_iter():
        _, reward, termination, _, _ = environment.last()
        returns[agent] += reward
        assert termination
        environment.step(None)
    assert returns[offender] == -1.0 and sum(returns.values()) == -1.0
    raising = uno_pettingzoo.env(players=3, engine=engine, illegal_action="raise")
    raising.reset(seed=7)
    with pytest.raises(IllegalActionError):
        raising.step(illegal)
    assert not any(raising.unwrapped.terminations.values())


def test_numpy_integer_ids_are_action_ids_everywhere() -> None:
    game = Game("classic", 2, seed=1)
    space = game.actions
    assert space.format(np.int64(30)) == space.format(30) == space.format(np.uint8(30))
    assert space.parse(space.format(np.int32(30))) == 30 and space.decode(np.int16(30)) == space.decode(30)
    for bad in (True, np.float64(30.0), "30"):
        with pytest.raises(NotationError):
            space.format(bad)  # type: ignore[arg-type]
    legal = game.legal_actions(game.actor)
    with pytest.raises(IllegalActionError):
        game.apply(game.actor, True)  # type: ignore[arg-type]
    game.apply(game.actor, np.int64(legal[0]))  # type: ignore[arg-type]
    assert game.history[-1] == (game.history[-1][0], legal[0]) and type(game.history[-1][1]) is int


@pytest.mark.parametrize("engine", ["python", "fast"])
def test_numpy_ids_step_the_pettingzoo_and_gymnasium_environments(engine: str) -> None:
    environment = uno_pettingzoo.env(engine=engine, illegal_action="raise")
    environment.reset(seed=3)
    for _ in range(30):
        observation = environment.observe(environment.agent_selection)
        environment.step(np.flatnonzero(observation["action_mask"])[0])
    gym = UnoEnv("classic", 2, illegal_action="raise", opponents=lambda view: np.int64(view.legal_actions[0]))
    _, info = gym.reset(seed=3)
    for _ in range(30):
        _, _, terminated, truncated, info = gym.step(np.flatnonzero(info["action_mask"])[-1])
        if terminated or truncated:
            break


def test_numpy_ids_in_openspiel_and_rlcard() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("rlcard")
    import unokit.rl.openspiel  # noqa: F401 - registers the game
    from unokit.rl import rlcard as uno_rlcard

    state = pyspiel.load_game("python_unokit").new_initial_state()
    while state.is_chance_node():
        state.apply_action(np.int64(5))
    state.apply_action(np.int64(state.legal_actions()[0]))
    environment = uno_rlcard.make("classic", {"seed": 1})
    observation, _ = environment.reset()
    environment.step(np.int64(next(iter(observation["legal_actions"]))))


def test_the_fast_environments_game_is_the_compiled_game_replayed() -> None:
    environment = uno_pettingzoo.env(engine="fast", players=3, edition="space-jam", rules="house")
    raw = environment.unwrapped
    assert raw.game is None
    environment.reset(seed=9)
    rng = np.random.default_rng(1)
    for step in range(120):
        agent = environment.agent_selection
        observation = environment.observe(agent)
        if step % 20 == 0:
            game = raw.game
            seat = int(agent.split("_")[1])
            assert isinstance(game, Game) and raw.game is game, "rebuilt once per decision"
            assert np.array_equal(raw.encoder.encode(game.view(seat)), observation["observation"])
            mask = np.flatnonzero(observation["action_mask"]).tolist()
            legal = sorted(set(game.legal_actions(seat)) | ({raw.wait} if raw.infos[agent]["out_of_turn"] else set()))
            assert mask == legal
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        if raw.terminations[environment.agent_selection]:
            break
    game = raw.game
    moves = len(game.history)
    game.apply(game.actor, game.legal_actions(game.actor)[0])
    assert raw.game is not game and len(raw.game.history) == moves, "changing the copy changes nothing"
