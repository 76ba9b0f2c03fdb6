"""The single-agent Gymnasium environment: Gymnasium's checker, masks, opponents, seeding, bad input."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import unokit.rl
from unokit.bots import IsmctsBot, RandomBot
from unokit.engine.errors import GameOverError, IllegalActionError, SetupError, UnknownOptionError
from unokit.engine.views import View
from unokit.rl.gymnasium import UnoEnv


def play(environment: Any, seed: int, check: Any = None) -> list[tuple[int, float]]:
    """Random masked play from ``reset(seed)`` to the end of the episode; (action, reward) per step."""
    observation, info = environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps: list[tuple[int, float]] = []
    done = False
    while not done:
        if check is not None:
            check(environment.unwrapped, observation, info)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = environment.step(action)
        steps.append((action, reward))
        done = terminated or truncated
    return steps


@pytest.mark.parametrize("environment_id", sorted(unokit.rl.ENVIRONMENT_IDS.values()))
def test_gymnasium_check_env(environment_id: str) -> None:
    """Gymnasium's checker steps actions sampled without a mask: by default an illegal action ends the episode."""
    for options in ({}, {"players": 4, "rules": "house", "opponents": "heuristic"}):
        environment = gymnasium.make(environment_id, **options)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(environment.unwrapped)


@pytest.mark.parametrize(("edition", "environment_id"), sorted(unokit.rl.ENVIRONMENT_IDS.items()))
def test_registered_ids_make_each_edition(edition: str, environment_id: str) -> None:
    environment = gymnasium.make(environment_id, players=3, rules={"scoring": "single-round"})
    assert environment.unwrapped.edition == edition
    steps = play(environment, seed=4)
    assert environment.unwrapped.game.is_over
    assert sum(reward for _, reward in steps) in (1.0, -0.5)


@pytest.mark.parametrize(
    ("edition", "rules", "opponents"),
    [
        ("classic", "house", "random"),
        ("space-jam", "chaos", "heuristic"),
        ("all-wild", "house", "random"),
        ("wild-jackpot", "party", ["heuristic", "random", "random"]),
    ],
)
def test_masks_are_the_engines_legal_actions_with_wait_out_of_turn(edition: str, rules: str, opponents: Any) -> None:
    environment = UnoEnv(edition, 4, rules={"preset": rules, "scoring": "single-round"}, opponents=opponents, seat=1)
    asked = {"in turn": 0, "out of turn": 0}

    def check(raw: UnoEnv, observation: Any, info: dict[str, Any]) -> None:
        game = raw.game
        assert game is not None
        legal = list(game.legal_actions(1))
        out_of_turn = game.actor != 1
        assert info["out_of_turn"] == out_of_turn
        assert list(np.flatnonzero(info["action_mask"])) == sorted(legal + [raw.wait] * out_of_turn)
        assert np.array_equal(raw.action_masks(), info["action_mask"])
        assert raw.observation_space.contains(observation)
        asked["out of turn" if out_of_turn else "in turn"] += 1

    for seed in range(3):
        play(environment, seed, check)
    assert asked["in turn"] > 0 and asked["out of turn"] > 0


def test_same_seed_same_episode() -> None:
    def run(seed: int) -> list[tuple[int, float]]:
        environment = UnoEnv("classic", 3, rules="house", opponents="heuristic", reward="points")
        return play(environment, seed)

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_opponents_may_be_bots_and_callables() -> None:
    calls: list[int] = []

    def first_legal(view: View) -> int | None:
        calls.append(view.seat if view.seat is not None else -1)
        return None if view.actor != view.seat else view.legal_actions[0]

    bots = [RandomBot(seed=1), first_legal, IsmctsBot(seed=2, edition="classic", iterations=20)]
    environment = UnoEnv("classic", 4, rules={"scoring": "single-round"}, opponents=bots, seat=0)
    play(environment, seed=9)
    assert environment.game is not None and environment.game.is_over
    assert set(calls) == {2}
    slow = UnoEnv("classic", 2, opponents="ismcts")
    observation, info = slow.reset(seed=1)
    observation, *_ = slow.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert observation.shape == slow.observation_space.shape


def test_an_opponent_returning_an_illegal_action_is_named() -> None:
    environment = UnoEnv("classic", 2, opponents=lambda view: 10_000)
    with pytest.raises(RuntimeError, match="not a legal action"):
        for seed in range(5):
            play(environment, seed)


def test_an_illegal_action_raises_or_loses_as_asked() -> None:
    environment = UnoEnv("classic", 2, illegal_action="raise")
    _, info = environment.reset(seed=2)
    assert environment.game is not None
    state = environment.game.state_key()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    for action in (illegal, environment.wait, 1.5, None):
        with pytest.raises(IllegalActionError):
            environment.step(action)
        assert environment.game.state_key() == state
    losing = UnoEnv("classic", 2, illegal_action="lose", illegal_reward=-2.0)
    _, info = losing.reset(seed=2)
    _, reward, terminated, truncated, info = losing.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-2.0, True, False, illegal)
    assert losing.game is not None and losing.game.state_key() == state
    with pytest.raises(GameOverError):
        losing.step(0)


def test_the_decision_limit_truncates() -> None:
    environment = UnoEnv("all-wild", 3, rules="house", max_decisions=20)
    steps = play(environment, seed=1)
    assert environment.decisions == 20 and len(steps) <= 20
    assert environment.game is not None and not environment.game.is_over


def test_action_space_samples_legal_actions_and_render() -> None:
    environment = UnoEnv("space-jam", 3, render_mode="ansi")
    _, info = environment.reset(seed=6)
    environment.action_space.seed(1)
    for _ in range(20):
        assert info["action_mask"][environment.action_space.sample()] == 1
    text = environment.render()
    assert text is not None and "learner holds" in text


@pytest.mark.parametrize(
    ("options", "error", "words"),
    [
        ({"edition": "uno-flip"}, UnknownOptionError, "unknown edition"),
        ({"opponents": "genius"}, UnknownOptionError, "unknown bot kind"),
        ({"opponents": ["random", "random"]}, UnknownOptionError, "1 opponents are needed"),
        ({"opponents": 3}, UnknownOptionError, "opponents must be"),
        ({"seat": 2}, SetupError, "seat"),
        ({"reward": "money"}, UnknownOptionError, "unknown reward"),
        ({"rules": {"jump_in": "yes"}}, UnknownOptionError, "jump_in"),
        ({"illegal_action": "ignore"}, UnknownOptionError, "illegal_action"),
        ({"max_decisions": -1}, UnknownOptionError, "max_decisions"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        UnoEnv(**options)


def test_the_quick_starts_of_the_docs_run() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    snippets = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    # the first page's vector environment, PettingZoo, Gymnasium, PettingZoo on the compiled engine, the batched
    # environment (alone and with bots), the vector environment's pool and Stable-Baselines3
    assert len(snippets) == 8
    for snippet in snippets:
        exec(compile(snippet, "docs/rl.md", "exec"), {})
