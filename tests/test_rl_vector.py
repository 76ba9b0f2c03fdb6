"""The compiled batched environment: truncation, compiled bots in seats, and the vector environments.

The compiled bots seated in :class:`unokit.rl.batched.BatchedEnv` must play exactly the games
:func:`unokit.fast.heuristic.play_bots_games` plays (the same deals, the same choices, ties
included); a caller that plays :meth:`~unokit.rl.batched.BatchedEnv.bot_actions` plays as the
bot would.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba", reason="the compiled engine needs the fast extra (numba)")
pytest.importorskip("gymnasium", reason="the environments need the rl extra")

from unokit.engine.errors import IllegalActionError, SetupError
from unokit.engine.rules import Rules
from unokit.fast.engine import ID_DRAW, ID_PASS
from unokit.fast.heuristic import play_bots_games
from unokit.rl.batched import HOLDERS, BatchedEnv
from unokit.rl.episodes import MAX_ROUND_DECISIONS

SINGLE = {"scoring": "single-round"}
EDITIONS = ("classic", "space-jam", "all-wild", "wild-jackpot")


def _play_out(env: BatchedEnv, seed: int, games: int, chooser: Any) -> dict[int, tuple[np.ndarray, int]]:
    """Step ``env`` with ``chooser(env)`` until ``games`` games have stopped; each game's summed
    rewards and decisions."""
    _, infos = env.reset(seed=seed)
    totals: dict[int, np.ndarray] = defaultdict(lambda: np.zeros(env.players))
    done: dict[int, tuple[np.ndarray, int]] = {}
    while len(done) < games:
        playing = infos["game"]
        _, rewards, terminated, truncated, infos = env.step(chooser(env))
        for row in range(env.num_envs):
            totals[int(playing[row])] += rewards[row]
            if terminated[row] or truncated[row]:
                done[int(playing[row])] = (totals.pop(int(playing[row])), int(infos["decisions"][row]))
    return done


@pytest.mark.parametrize("players", [2, 4])
def test_bots_play_as_the_compiled_runner_plays(players: int) -> None:
    """The caller playing the heuristic's own choices at seat 0 against compiled heuristic bots:
    every game is the one :func:`play_bots_games` plays (its winner, its decisions)."""
    env = BatchedEnv(4, players=players, rules=SINGLE, reward="points", bots=["python"] + ["heuristic"] * (players - 1))
    done = _play_out(env, 11, 24, lambda env: env.bot_actions("heuristic"))
    assert min(done) == 0
    played = play_bots_games(max(done) + 1, players, Rules(**SINGLE), seed=11, threads=1)
    for game, (rewards, decisions) in done.items():
        winner = int(played["winner"][game])
        assert int(np.argmax(rewards)) == winner
        assert decisions == played["decisions"][game]
        assert rewards[winner] > 0
        assert abs(rewards.sum()) < 1e-3


def test_bots_accumulate_their_rewards_into_the_callers_step() -> None:
    """A game that a bot wins pays the caller's seat in the step that let the bot play; zero-sum."""
    env = BatchedEnv(4, players=3, rules=SINGLE, bots=["heuristic", "python", "random"])
    done = _play_out(env, 5, 16, lambda env: env.random_actions())
    for rewards, _ in done.values():
        assert rewards.sum() == pytest.approx(0, abs=1e-6)
        assert rewards[1] != 0
    assert any(rewards[1] < 0 for rewards, _ in done.values())


def test_seats_rotate_and_change_between_games() -> None:
    env = BatchedEnv(3, players=2, rules=SINGLE, bots=["python", "heuristic"], rotate_seats=True)
    _, infos = env.reset(seed=2)
    python, heuristic = HOLDERS["python"], HOLDERS["heuristic"]
    assert env.holders.tolist() == [[python, heuristic]] * 3
    assert (infos["seat"] == 0).all()
    env.set_bots(["random", "python"], rows=[1])
    seen = {row: [tuple(env.holders[row])] for row in range(3)}
    for _ in range(400):
        _, _, terminated, truncated, infos = env.step(env.random_actions())
        holders = env.holders
        # the caller is asked only at its own seat
        assert (holders[np.arange(3), infos["seat"]] < 0).all()
        for row in np.flatnonzero(terminated | truncated):
            seen[int(row)].append(tuple(holders[row]))
    assert seen[0][:3] == [(python, heuristic), (heuristic, python), (python, heuristic)]
    assert seen[1][:3] == [(python, heuristic), (HOLDERS["random"], python), (python, HOLDERS["random"])]


def test_bot_actions_need_the_memory_and_name_a_bot() -> None:
    env = BatchedEnv(2, players=2, rules=SINGLE, bot_memory=False)
    env.reset(seed=1)
    with pytest.raises(SetupError):
        env.bot_actions("heuristic")
    with pytest.raises(SetupError):
        env.set_bots(["python", "heuristic"])
    with pytest.raises(SetupError):
        BatchedEnv(2, players=2, bots=["heuristic", "heuristic"])
    with pytest.raises(SetupError):
        BatchedEnv(2, players=2, bots=["python", "expert"])
    with pytest.raises(SetupError):
        BatchedEnv(2, players=2, bots=["python"] * 3)
    with pytest.raises(SetupError):
        BatchedEnv(2, players=2, max_round_decisions=0)


def test_rows_not_stepped_are_left_as_they_are() -> None:
    env = BatchedEnv(4, players=2, rules=SINGLE, copy=True)
    observations, _ = env.reset(seed=3)
    rows = np.array([True, False, True, False])
    after, rewards, terminated, _, _ = env.step(env.random_actions(), rows=rows)
    assert (after["observation"][~rows] == observations["observation"][~rows]).all()
    assert not (after["observation"][rows] == observations["observation"][rows]).all()
    assert (rewards[~rows] == 0).all() and not terminated[~rows].any()
    illegal = np.full(4, env.wait + 7, dtype=np.int64)
    actions = env.random_actions()
    actions[~rows] = illegal[~rows]  # ignored: those rows are not stepped
    env.step(actions, rows=rows)
    with pytest.raises(IllegalActionError):
        env.step(illegal, rows=rows)


def _stall(env: BatchedEnv) -> np.ndarray:
    """Draw whenever drawing is legal, else pass, else wait, else the first legal action."""
    masks = env.action_masks()
    actions = masks.argmax(axis=1)
    for row in range(env.num_envs):
        for preferred in (int(env._template[ID_DRAW]), int(env._template[ID_PASS]), env.wait):
            if masks[row, preferred]:
                actions[row] = preferred
                break
    return actions


def test_the_default_cap_is_the_environments_cap() -> None:
    assert BatchedEnv(1).max_round_decisions == MAX_ROUND_DECISIONS


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_round_stalled_at_every_seat_is_truncated(edition: str) -> None:
    """Stallers at every seat: every game stops within the cap, truncated with no reward, counted
    decision by decision; the next game follows in the row."""
    cap = 60
    env = BatchedEnv(4, players=3, rules=SINGLE, edition=edition, max_round_decisions=cap)
    env.reset(seed=4)
    steps = np.zeros(4, dtype=np.int64)
    games = env._games.copy()
    stopped = truncations = 0
    for _ in range(3 * cap):
        _, rewards, terminated, truncated, infos = env.step(_stall(env))
        steps += 1
        assert not (terminated & truncated).any()
        assert rewards.sum(axis=1) == pytest.approx(0, abs=1e-6)
        assert (rewards[truncated] == 0).all()
        assert (steps[truncated] == cap).all()
        assert (steps[terminated] <= cap).all()
        assert (infos["decisions"][terminated | truncated] == steps[terminated | truncated]).all()
        stopped += int((terminated | truncated).sum())
        truncations += int(truncated.sum())
        ended = terminated | truncated
        assert (infos["game"][ended] != games[ended]).all()
        games = infos["game"].copy()
        steps[ended] = 0
    assert truncations and stopped >= 8
