"""The Stable-Baselines3 ``VecEnv`` over the compiled batched environment: its contract as
Stable-Baselines3's wrappers and sb3-contrib's masking read it, and a short MaskablePPO run on it."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba", reason="the compiled engine needs the fast extra (numba)")
pytest.importorskip("sb3_contrib", reason="the Stable-Baselines3 adapter needs the train extra")

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecCheckNan, VecEnv, VecMonitor

from unokit.rl.sb3 import UnoVecEnv, model_opponent

SINGLE = {"scoring": "single-round"}


@pytest.fixture(scope="module")
def env() -> UnoVecEnv:
    return UnoVecEnv(4, players=2, rules=SINGLE, opponents=["heuristic", "random"], max_round_decisions=120)


def test_the_adapter_keeps_the_vec_env_contract(env: UnoVecEnv) -> None:
    assert isinstance(env, VecEnv) and env.num_envs == 4
    assert is_masking_supported(env)
    env.seed(3)
    observations = env.reset()
    assert observations.shape == (4, *env.observation_space.shape)
    assert observations in env.env.observation_space
    assert [info["seat"] for info in env.reset_infos] == [0, 1, 0, 1]
    masks = get_action_masks(env)
    assert masks.shape == (4, env.action_space.n) and masks.dtype == np.bool_
    assert [mask() for mask in env.get_attr("action_masks")][2].tolist() == masks[2].tolist()
    assert env.get_attr("players") == [2] * 4 and env.env_is_wrapped(VecMonitor) == [False] * 4
    monitored = VecCheckNan(VecMonitor(env), raise_exception=True)
    monitored.reset()
    generator = np.random.default_rng(0)
    episodes = truncated = 0
    for _ in range(400):
        masks = get_action_masks(monitored)
        actions = np.array([generator.choice(np.flatnonzero(mask)) for mask in masks])
        observations, rewards, dones, infos = monitored.step(actions)
        assert rewards.shape == (4,) and dones.dtype == np.bool_
        for row in np.flatnonzero(dones):
            info = infos[row]
            assert info["terminal_observation"].shape == observations[row].shape
            assert info["episode"]["r"] in (1.0, -1.0, 0.0)
            assert (info["episode"]["r"] == 0.0) == info["TimeLimit.truncated"]
            episodes += 1
            truncated += info["TimeLimit.truncated"]
    assert episodes >= 8 and truncated


def test_the_same_seed_replays_the_same_games(env: UnoVecEnv) -> None:
    runs = []
    for _ in range(2):
        env.seed(11)
        trace = [env.reset()]
        for _ in range(30):
            masks = get_action_masks(env)
            trace.append(env.step(masks.argmax(axis=1))[:3])
        runs.append(trace)
    for first, second in zip(*runs, strict=True):
        for a, b in zip(
            first if isinstance(first, tuple) else (first,),
            second if isinstance(second, tuple) else (second,),
            strict=True,
        ):
            assert np.array_equal(a, b)


def test_maskable_ppo_learns_on_it(env: UnoVecEnv) -> None:
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0, policy_kwargs={"net_arch": [32]}
    )
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    observations = env.reset()
    actions, _ = model.predict(observations, action_masks=get_action_masks(env), deterministic=True)
    assert get_action_masks(env)[np.arange(4), actions].all()
    mean, _ = evaluate_policy(model, VecMonitor(env), n_eval_episodes=8, use_masking=True, warn=False)
    assert -1.0 <= mean <= 1.0
    checkpoint = model_opponent(model)
    legal: list[bool] = []

    def watched(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions = checkpoint(observations, masks)
        legal.append(bool(masks[np.arange(len(masks)), actions].all()))
        return actions

    env.env.set_opponents(["heuristic", watched])  # the checkpoint in the pool: rows 1 and 3
    env.seed(1)
    env.reset()
    for _ in range(100):
        env.step(get_action_masks(env).argmax(axis=1))
    assert legal and all(legal)
