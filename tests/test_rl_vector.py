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

from gymnasium import spaces
from gymnasium.utils import env_checker
from gymnasium.vector import AutoresetMode

from unokit.engine.errors import IllegalActionError, SetupError
from unokit.engine.rules import Rules
from unokit.fast import engine as fast_engine
from unokit.fast.batch import bot_answer
from unokit.fast.engine import ID_DRAW, ID_PASS
from unokit.fast.heuristic import (
    HEURISTIC,
    RNG_WORDS,
    bot_seed,
    mt_seed_later,
    new_memory,
    play_bots_games,
    update_memory,
)
from unokit.rl.batched import HOLDERS, BatchedEnv
from unokit.rl.episodes import MAX_ROUND_DECISIONS
from unokit.rl.pettingzoo import raw_env
from unokit.rl.vector import UnoVectorEnv

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
    env = BatchedEnv(2, players=2, rules=SINGLE)
    assert not env.bot_memory  # no bot seated: the memory is not kept unless asked
    assert BatchedEnv(2, players=2, rules=SINGLE, bots=["random", "python"]).bot_memory
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


# ---------------------------------------------------------------- the Gymnasium vector environment


def _random_policy(seed: int) -> Any:
    generator = np.random.default_rng(seed)
    calls: list[int] = []

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        assert observations.shape[0] == masks.shape[0] > 0
        calls.append(len(masks))
        return np.array([generator.choice(np.flatnonzero(mask)) for mask in masks])

    policy.calls = calls  # type: ignore[attr-defined]
    return policy


def test_vector_env_spaces_and_gymnasium_checks() -> None:
    env = UnoVectorEnv(3, players=2, rules=SINGLE, opponents=["heuristic", "random", "self"])
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert env.single_action_space == spaces.Discrete(env.wait + 1)
    assert env.observation_space.shape == (3, *env.single_observation_space.shape)
    assert env.action_space.shape == (3,)
    env_checker.check_reset_seed_determinism(env)  # type: ignore[arg-type]
    env_checker.check_reset_return_type(env)  # type: ignore[arg-type]
    env_checker.check_space_limit(env.single_observation_space, "observation")
    observations, info = env.reset(seed=5)
    env.action_space.seed(5)
    assert observations in env.observation_space
    for _ in range(50):
        actions = env.action_space.sample()
        assert info["action_mask"][np.arange(3), actions].all()
        observations, rewards, terminated, truncated, info = env.step(actions)
        assert observations in env.observation_space
        assert rewards.dtype == np.float32 and terminated.dtype == truncated.dtype == np.bool_
    one = UnoVectorEnv(1, players=2, rules=SINGLE)
    env_checker.check_returned_data_not_reused(one)  # type: ignore[arg-type]


def test_vector_env_steps_deterministically() -> None:
    env = UnoVectorEnv(4, players=3, rules=SINGLE)
    runs = []
    for _ in range(2):
        trace = [env.reset(seed=9, options={"opponents": ["heuristic", ("random", _random_policy(1))]})]
        env.action_space.seed(3)
        for _ in range(60):
            trace.append(env.step(env.action_space.sample()))
        runs.append(trace)
    assert env_checker.data_equivalence(runs[0], runs[1], exact=True)


def test_the_learner_meets_its_opponents_and_rotates() -> None:
    policy = _random_policy(2)
    env = UnoVectorEnv(4, players=3, rules=SINGLE, opponents=["heuristic", policy, ("random", "heuristic")])
    _, info = env.reset(seed=3)
    env.action_space.seed(3)
    assert info["seat"].tolist() == [0, 1, 2, 0]  # row i starts at seat i % players
    games = []
    rows_seats: dict[int, list[int]] = defaultdict(list)
    autoreset = np.zeros(4, dtype=bool)
    for _ in range(1500):
        seats = info["seat"].copy()
        _, rewards, terminated, truncated, info = env.step(env.action_space.sample())
        for row in np.flatnonzero(autoreset):
            rows_seats[int(row)].append(int(info["seat"][row]))
        live = ~autoreset
        assert (rewards[live] == info["rewards"][np.arange(4), seats][live]).all()
        assert (rewards[autoreset] == 0).all()
        autoreset = terminated | truncated
        assert (info["seat"][autoreset] == seats[autoreset]).all()  # the seat of the last observation
        games += [float(r) for r in rewards[autoreset]]
    assert policy.calls and set(policy.calls) == {1}  # row 1 alone plays against it
    for row, seen in rows_seats.items():
        start = [0, 1, 2, 0][row]
        assert len(seen) >= 3 and seen == [(start + k) % 3 for k in range(1, len(seen) + 1)], (row, seen)
    assert len(games) >= 12 and set(games) <= {1.0, -0.5}


def test_self_play_pays_the_seat_that_acted() -> None:
    env = UnoVectorEnv(2, players=2, rules=SINGLE, opponents=["self"], learner_seat=None)
    _, info = env.reset(seed=8)
    env.action_space.seed(8)
    asked_seats = set()
    for _ in range(600):
        asked_seats.update(info["seat"].tolist())
        acted = info["seat"]
        _, rewards, _, _, info = env.step(env.action_space.sample())
        stepped = info["rewards"].any(axis=1)
        assert (rewards[stepped] == info["rewards"][stepped, acted[stepped]]).all()
    assert asked_seats == {0, 1}


def test_same_step_autoreset_gives_the_last_observation_in_info() -> None:
    env = UnoVectorEnv(3, players=2, rules=SINGLE, autoreset_mode=AutoresetMode.SAME_STEP, max_round_decisions=40)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    observations, info = env.reset(seed=2)
    env.action_space.seed(2)
    ended_seen = truncated_seen = 0
    for _ in range(300):
        observations, rewards, terminated, truncated, info = env.step(env.action_space.sample())
        ended = terminated | truncated
        if ended.any():
            assert (info["_final_obs"] == ended).all() and (info["_final_info"] == ended).all()
            for row in range(3):
                assert (info["final_obs"][row] is not None) == ended[row]
                if ended[row]:
                    assert info["final_obs"][row] in env.single_observation_space
                    assert not (info["final_obs"][row] == observations[row]).all()
            ended_seen += int(ended.sum())
            truncated_seen += int(truncated.sum())
            assert (rewards[truncated] == 0).all()
        else:
            assert "final_obs" not in info
        assert info["action_mask"].any(axis=1).all()  # a new game's first decision where one ended
    assert ended_seen and truncated_seen


@pytest.mark.parametrize("edition", ["classic", "wild-jackpot"])
def test_self_play_matches_the_pettingzoo_environment_step_by_step(edition: str) -> None:
    """One game, the learner at every seat: the same observations, masks, every seat's rewards and
    ending as the PettingZoo environment on the compiled engine given the same deal and actions."""
    env = UnoVectorEnv(1, players=3, edition=edition, opponents=["self"], max_round_decisions=None)
    observations, info = env.reset(seed=12)
    single = raw_env(players=3, edition=edition, engine="fast")
    single.reset(seed=0)
    single.fast_state = env.batch._states[0].copy()
    single._select()
    generator = np.random.default_rng(4)
    for _ in range(5000):
        agent = single.agent_selection
        assert agent == single.possible_agents[int(info["seat"][0])]
        observed = single.observe(agent)
        assert (observed["observation"] == observations[0]).all()
        assert (observed["action_mask"] == info["action_mask"][0]).all()
        action = int(generator.choice(np.flatnonzero(info["action_mask"][0])))
        single.step(action)
        acted = int(info["seat"][0])
        observations, rewards, terminated, truncated, info = env.step(np.array([action]))
        expected = [single.rewards[a] for a in single.possible_agents]
        assert info["rewards"][0].tolist() == pytest.approx(expected)
        assert rewards[0] == info["rewards"][0, acted]
        assert not truncated[0]
        if terminated[0]:
            assert all(single.terminations.values())
            assert (observations[0] == single.observe(agent)["observation"]).all()
            break
        assert not any(single.terminations.values())
    else:
        pytest.fail("the game did not end")


def test_vector_env_refuses_bad_input() -> None:
    with pytest.raises(SetupError):
        UnoVectorEnv(2, opponents=["grandmaster"])
    with pytest.raises(SetupError):
        UnoVectorEnv(2, players=3, opponents=[("heuristic",)])
    with pytest.raises(SetupError):
        UnoVectorEnv(2, learner_seat=2)
    with pytest.raises(SetupError):
        UnoVectorEnv(2, autoreset_mode=AutoresetMode.DISABLED)
    with pytest.raises(SetupError):
        UnoVectorEnv(2, opponents=["self"], bot_memory=False).set_opponents(["heuristic"])
    env = UnoVectorEnv(2, players=2, rules=SINGLE)
    with pytest.raises(IllegalActionError):
        env.step(np.array([0, 0]))
    env.reset(seed=1)
    with pytest.raises(IllegalActionError):
        env.step(np.array([env.wait + 9, 0]))


def test_rounds_the_bots_play_alone_are_paid_in_the_callers_step() -> None:
    """Knockout scoring: once the caller is out of the match, its bots play the remaining rounds
    within the caller's last step, whose rewards carry them all (a round under ``win`` moves 2
    in all at most; several rounds in one step, more)."""
    env = BatchedEnv(4, players=3, rules={"scoring": "knockout"}, bots=["python", "heuristic", "heuristic"])
    env.reset(seed=6)
    several = games = 0
    for _ in range(1000):
        _, rewards, terminated, truncated, _ = env.step(env.random_actions())
        assert (np.abs(rewards.sum(axis=1)) < 1e-5).all() and not truncated.any()
        games += int(terminated.sum())
        several += int((np.abs(rewards[terminated]).sum(axis=1) > 2.01).sum())
    assert games >= 10 and several >= 3


@pytest.mark.parametrize("players", [2, 3])
def test_the_learner_against_the_heuristic_matches_the_pettingzoo_environment(players: int) -> None:
    """The learner at seat 0 against compiled heuristic bots, step by step against the PettingZoo
    environment on the compiled engine, its other seats played by the compiled heuristic from a
    memory and generators of its own: the same observations, masks and learner's rewards (summed
    over the opponents' moves), and the same end."""
    seed = 21
    env = UnoVectorEnv(1, players=players, rules=SINGLE, learner_seat=0, max_round_decisions=None)
    observations, info = env.reset(seed=seed)
    single = raw_env(players=players, rules=SINGLE, engine="fast")
    single.reset(seed=0)
    state = env.batch._template.copy()
    fast_engine._new_game(state, env.batch._template, seed, 0)  # game 0 of the seed, as dealt in row 0
    single.fast_state = state
    single._select()
    memory = new_memory(state)
    update_memory(state, memory)
    rngs = np.zeros((players, RNG_WORDS), dtype=np.int64)
    for seat in range(players):
        mt_seed_later(rngs[seat], bot_seed(seed, 0, seat))
    generator = np.random.default_rng(5)
    learner_total = 0.0
    for _ in range(3000):
        seat, out_of_turn = fast_engine.asked(state)
        agent = single.agent_selection
        if seat != 0:
            single.step(int(bot_answer(state, memory, rngs[seat], HEURISTIC, seat, out_of_turn)))
            update_memory(state, memory)
            learner_total += single.rewards["player_0"]
            assert not any(single.terminations.values()), "the game ended on a bot's move before the learner's"
            continue
        observed = single.observe(agent)
        assert (observed["observation"] == observations[0]).all()
        assert (observed["action_mask"] == info["action_mask"][0]).all()
        action = int(generator.choice(np.flatnonzero(observed["action_mask"])))
        single.step(action)
        update_memory(state, memory)
        learner_total += single.rewards["player_0"]
        over = all(single.terminations.values())
        while not over and fast_engine.asked(state)[0] != 0:  # the bots' answers, as the batch plays them
            bot, bot_out_of_turn = fast_engine.asked(state)
            single.step(int(bot_answer(state, memory, rngs[bot], HEURISTIC, bot, bot_out_of_turn)))
            update_memory(state, memory)
            learner_total += single.rewards["player_0"]
            over = all(single.terminations.values())
        observations, rewards, terminated, truncated, info = env.step(np.array([action]))
        assert rewards[0] == pytest.approx(learner_total)
        learner_total = 0.0
        assert terminated[0] == over and not truncated[0]
        if over:
            assert (observations[0] == single.observe("player_0")["observation"]).all()
            return
    pytest.fail("the game did not end")


def test_policies_left_out_of_the_pool_are_let_go() -> None:
    env = UnoVectorEnv(2, players=2, rules=SINGLE, opponents=["heuristic"])
    env.reset(seed=1)
    for _ in range(5):
        env.set_opponents([_random_policy(0)])
        env.reset(seed=1)
        env.step(env.action_space.sample())
    assert len(env._policies) == 1
