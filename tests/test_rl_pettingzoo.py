"""The PettingZoo AEC environment: PettingZoo's own tests, masks, out-of-turn decisions, rewards, seeding."""

from __future__ import annotations

import importlib
import sys
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from unokit.engine.errors import IllegalActionError, SetupError, UnknownOptionError
from unokit.rl import pettingzoo as uno_pettingzoo
from unokit.rl.cycle import out_of_turn_order

EDITIONS = ("classic", "space-jam", "all-wild", "wild-jackpot")
TABLES = [(edition, 2, None) for edition in EDITIONS] + [(edition, 4, "house") for edition in EDITIONS]


def play(environment: Any, seed: int, check: Any = None, limit: int = 20_000) -> list[tuple[str, int, float]]:
    """Random masked play from ``reset(seed)`` to the end; the (agent, action, reward) of every step."""
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trajectory: list[tuple[str, int, float]] = []
    for agent in environment.agent_iter(limit):
        observation, reward, termination, truncation, info = environment.last()
        if termination or truncation:
            environment.step(None)
            trajectory.append((agent, -1, reward))
            continue
        if check is not None:
            check(environment, agent, observation, info)
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        environment.step(action)
        trajectory.append((agent, action, reward))
    return trajectory


@pytest.mark.parametrize(("edition", "players", "rules"), TABLES)
def test_pettingzoo_api_and_seed_tests(edition: str, players: int, rules: str | None) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice for other kinds of games (e.g. "all zeros" masks of agents done)
        api_test(uno_pettingzoo.env(edition=edition, players=players, rules=rules), num_cycles=60)
        seed_test(lambda: uno_pettingzoo.env(edition=edition, players=players, rules=rules), num_cycles=40)


@pytest.mark.parametrize(("edition", "players", "rules"), TABLES)
def test_max_cycles_truncates_every_agent(edition: str, players: int, rules: str | None) -> None:
    """The AEC half of ``pettingzoo.test.max_cycles_test`` (whose other half needs a parallel environment)."""
    max_cycles = 4
    environment = uno_pettingzoo.env(edition=edition, players=players, rules=rules, max_cycles=max_cycles)
    environment.reset(seed=3)
    counts = dict.fromkeys(environment.possible_agents, 0)
    for agent in environment.agent_iter():
        counts[agent] += 1
        _, _, termination, truncation, _ = environment.last()
        mask = environment.observe(agent)["action_mask"]
        environment.step(None if termination or truncation else int(np.flatnonzero(mask)[0]))
    assert max(counts.values()) == max_cycles + 1
    assert not environment.agents


@pytest.mark.parametrize(
    ("edition", "players", "rules"),
    [
        ("classic", 3, None),
        ("classic", 4, "chaos"),
        ("space-jam", 3, "house"),
        ("all-wild", 3, "house"),
        ("wild-jackpot", 4, "party"),
        ("classic", 4, "teams"),
    ],
)
def test_masks_are_the_engines_legal_actions_and_wait_only_out_of_turn(
    edition: str, players: int, rules: str | None
) -> None:
    environment = uno_pettingzoo.env(
        edition=edition,
        players=players,
        rules={"preset": rules or "official", "scoring": "single-round"},
        max_round_decisions=None,  # random play under chaos can outlast the default cap
    )
    raw = environment.unwrapped
    seen = {"out of turn": 0, "waits": 0}

    def check(environment: Any, agent: str, observation: dict[str, Any], info: dict[str, Any]) -> None:
        game = raw.game
        seat = int(agent.split("_")[1])
        legal = list(game.legal_actions(seat))
        out_of_turn = seat != game.actor
        assert info["out_of_turn"] == out_of_turn
        assert list(np.flatnonzero(observation["action_mask"])) == sorted(legal + [raw.wait] * out_of_turn)
        if out_of_turn:
            seen["out of turn"] += 1
            assert seat in out_of_turn_order(game)
        elif len(game.deciders()) == 1 and getattr(game, "jump_card", -1) < 0:  # (an open window asks everyone)
            assert out_of_turn_order(game) == []
        assert observation["observation"].shape == raw.observation_space(agent)["observation"].shape

    for seed in range(3):
        trajectory = play(environment, seed, check)
        seen["waits"] += sum(1 for _, action, _ in trajectory if action == raw.wait)
        assert raw.game.is_over, "a random game runs to its end"
    if edition != "all-wild" or rules:
        assert seen["out of turn"] > 0 and seen["waits"] > 0


def test_out_of_turn_seats_are_asked_calls_and_catches_first_then_jumpers_in_play_order() -> None:
    environment = uno_pettingzoo.raw_env(edition="classic", players=4, rules="house")
    for seed in range(30):
        environment.reset(seed=seed)
        game = environment.game
        for _ in range(300):
            if game.is_over:
                break
            order = out_of_turn_order(game)
            catchers = [
                s
                for s in order
                if any(game.actions.format(a).startswith(("catch", "uno")) for a in game.legal_actions(s))
            ]
            assert order[: len(catchers)] == sorted(catchers)
            jumpers = order[len(catchers) :]
            steps = [(s - game.actor) * game.direction % 4 for s in jumpers]
            assert steps == sorted(steps)
            if game.jump_card >= 0:  # an open window: everyone else is asked, holding the card or not
                asked = {s for s in range(4) if s not in (game.actor, game.jump_from)}
                assert set(order) == asked, "who is asked depends on nothing hidden"
            mask = environment.observe(environment.agent_selection)["action_mask"]
            environment.step(int(np.flatnonzero(mask)[-1]))


def test_same_seed_same_trajectory_and_another_seed_another() -> None:
    def run(seed: int) -> list[tuple[str, int, float]]:
        rules = {"preset": "house", "target_score": 100}
        return play(uno_pettingzoo.env(edition="wild-jackpot", players=3, rules=rules, reward="points"), seed)

    assert run(7) == run(7)
    assert run(7) != run(8)
    environment = uno_pettingzoo.raw_env()
    environment.reset(seed=5)
    first = environment.game.state_key()
    environment.reset()
    environment.reset(seed=5)
    assert environment.game.state_key() == first


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    environment = uno_pettingzoo.env(edition="classic", players=2, illegal_action="raise")
    environment.reset(seed=2)
    raw = environment.unwrapped
    agent = environment.agent_selection
    mask = environment.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    state = raw.game.state_key()
    for action in (illegal, raw.wait, raw.wait + 1, -1, 2.0, "draw", True):
        with pytest.raises(IllegalActionError):
            environment.step(action)
        assert raw.game.state_key() == state and environment.agent_selection == agent
    with pytest.raises(IllegalActionError, match="None"):
        environment.step(None)
    environment.step(np.int64(np.flatnonzero(mask)[0]))
    assert raw.game.state_key() != state


@pytest.mark.parametrize(("players", "rules"), [(2, None), (3, None), (5, None), (4, "teams"), (6, "teams")])
@pytest.mark.parametrize("reward", ["win", "points", "match"])
def test_rewards_sum_to_zero(players: int, rules: str | None, reward: str) -> None:
    options: dict[str, Any] = {"preset": rules or "official", "target_score": 150}
    environment = uno_pettingzoo.env(edition="classic", players=players, rules=options, reward=reward)
    environment.reset(seed=players)
    raw = environment.unwrapped
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    rounds = 0
    for _agent in environment.agent_iter():
        observation, _, termination, truncation, _ = environment.last()
        if termination or truncation:
            environment.step(None)
            continue
        environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
        if environment.agents:
            assert sum(raw.rewards.values()) == pytest.approx(0.0)
            if any(raw.rewards.values()):
                rounds += 1
                for name, value in raw.rewards.items():
                    totals[name] += value
    assert rounds >= 1
    assert sum(totals.values()) == pytest.approx(0.0)
    winner = raw.game.winner
    partners = raw.game.team_seats(winner)
    if reward == "match":
        assert rounds == 1
        assert totals[f"player_{winner}"] == pytest.approx(1 / len(partners))
        assert totals[f"player_{(winner + 1) % players}"] == pytest.approx(-1 / (players - len(partners)))


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    environment = uno_pettingzoo.env(edition="space-jam", players=3, render_mode="ansi")
    environment.reset(seed=1)
    text = environment.render()
    assert "Top card:" in text and "player_2:" in text and "is to" in text
    human = uno_pettingzoo.env(edition="classic", players=2, render_mode="human")
    human.reset(seed=1)
    mask = human.observe(human.agent_selection)["action_mask"]
    human.step(int(np.flatnonzero(mask)[0]))
    assert "Top card:" in capsys.readouterr().out


def test_spaces_are_memoized() -> None:
    environment = uno_pettingzoo.raw_env(edition="all-wild", players=3)
    assert environment.observation_space("player_1") is environment.observation_space("player_1")
    assert environment.action_space("player_0").n == environment.wait + 1


@pytest.mark.parametrize(
    ("options", "error", "words"),
    [
        ({"edition": "uno-flip"}, UnknownOptionError, "unknown edition"),
        ({"rules": {"spinning": True}}, UnknownOptionError, "unknown rule option"),
        ({"rules": "madness"}, UnknownOptionError, "unknown preset"),
        ({"reward": "score"}, UnknownOptionError, "unknown reward"),
        ({"render_mode": "rgb_array"}, UnknownOptionError, "unknown render mode"),
        ({"players": 11}, SetupError, "players"),
        ({"players": 3, "rules": "teams"}, SetupError, "teams"),
        ({"max_cycles": 0}, UnknownOptionError, "max_cycles"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        uno_pettingzoo.env(**options)


def test_without_the_extra_the_import_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in sys.modules if name == "unokit.rl" or name.startswith("unokit.rl.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(ImportError, match=r"pip install 'unokit\[rl\]'"):
        importlib.import_module("unokit.rl.pettingzoo")
