"""Self-play training (:mod:`unokit.rl.train`), its evaluation, and the learned bot's numpy inference.

A short run that imitates the heuristic then plays PPO must beat the random bot more often than
the network it started from (fixed seeds: the same games and the same numbers every time); the
numpy network of :mod:`unokit.bots.learned` must score every observation as torch does and choose
the same actions; the bot must play legal moves through whole matches.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba", reason="the compiled engine needs the fast extra (numba)")
pytest.importorskip("gymnasium", reason="the environments need the rl extra")
pytest.importorskip("torch", reason="training needs the train extra (torch)")

import torch

from unokit.bots import bot_kinds, make_bot, play_game
from unokit.bots.learned import LearnedBot, NumpyPolicy, load_policy
from unokit.bots.weights import learned_tables
from unokit.engine.errors import UnknownOptionError
from unokit.rl.batched import BatchedEnv
from unokit.rl.evaluate import evaluate_fast, evaluate_runner, interval
from unokit.rl.train import TrainConfig, Trainer
from unokit.rl.train.model import PolicyNet, export_weights, load_weights, ship_weights

SINGLE = {"scoring": "single-round"}


def observations(players: int, rows: int = 64, steps: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks met in random games (in turn and out of turn)."""
    env = BatchedEnv(rows, players=players, rules=SINGLE, copy=True)
    obs, _ = env.reset(seed=3)
    seen_obs, seen_masks = [obs["observation"]], [obs["action_mask"]]
    for _ in range(steps):
        obs, *_ = env.step(env.random_actions())
        seen_obs.append(obs["observation"])
        seen_masks.append(obs["action_mask"])
    return np.concatenate(seen_obs), np.concatenate(seen_masks)


def random_net(players: int, hidden: tuple[int, ...] = (64, 32)) -> PolicyNet:
    env = BatchedEnv(1, players=players)
    torch.manual_seed(7)
    net = PolicyNet(env.encoder.size, env.wait + 1, env.encoder.high, hidden)
    with torch.no_grad():
        net.policy.weight.normal_(0, 0.5)  # scores far apart, as a trained policy's are
    return net


@pytest.mark.parametrize("players", [2, 4])
def test_numpy_inference_equals_torch(tmp_path: Path, players: int) -> None:
    net = random_net(players)
    path = tmp_path / "weights.npz"
    export_weights(net, path, {"edition": "classic", "players": players, "history": 16})
    policy = load_policy(path)
    obs, masks = observations(players)
    assert (masks.sum(axis=1) > 1).mean() > 0.5  # real choices, not forced moves
    with torch.no_grad():
        logits, values = net(torch.as_tensor(obs), torch.as_tensor(masks))
    mine = policy.logits(obs, masks)
    legal = masks != 0
    assert np.isneginf(mine[~legal]).all() and np.isneginf(logits.numpy()[~legal]).all()
    np.testing.assert_allclose(mine[legal], logits.numpy()[legal], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(policy.values(obs), values.numpy(), rtol=1e-4, atol=1e-4)
    assert (policy.act(obs, masks) == logits.argmax(dim=1).numpy()).all()
    assert legal[np.arange(len(obs)), policy.act(obs, masks)].all()
    again = random_net(players)
    with torch.no_grad():
        for p in again.parameters():
            p.zero_()
    with np.load(path) as data:
        load_weights(again, dict(data))
    with torch.no_grad():
        assert torch.equal(again(torch.as_tensor(obs), torch.as_tensor(masks))[0], logits)


def win_rate(policy: Any, opponent: str) -> float:
    result = evaluate_fast(policy, 2, "single-round", 100, seed=11, opponent=opponent)
    assert result["deals"] == 100 and result["games"] == 200
    return float(result["rate"])


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A short run from fixed seeds: imitation of the heuristic, then PPO against the random bot and itself."""
    out = tmp_path_factory.mktemp("run")
    config = TrainConfig(
        players=2,
        seconds=1e9,
        steps=12 * 128 * 16,
        seed=5,
        envs=128,
        rollout=16,
        hidden=(64, 64),
        epochs=2,
        minibatch=512,
        lr=1e-3,
        imitate_steps=8 * 128 * 16,
        mix={"random": 0.5, "self": 0.5},
        eval_games=0,
        out=str(out),
        snapshot_every=4,
    )
    trainer = Trainer(config)
    before = NumpyPolicy(_arrays(trainer))
    try:
        summary = trainer.run()
    finally:
        trainer.pool.close()
        trainer.writer.close()
    return {"out": out, "summary": summary, "before": before, "after": load_policy(out / "classic-2p.npz")}


def _arrays(trainer: Trainer) -> dict[str, Any]:
    path = trainer.out / "initial.npz"
    export_weights(trainer.net, path, {"edition": "classic", "players": 2, "history": 16})
    with np.load(path) as data:
        return dict(data)


def test_a_short_run_improves_on_random(trained: dict[str, Any]) -> None:
    """The network it starts from plays about at random: it never beats the heuristic (a random
    bot wins about 2% of its rounds against it), and its rounds against the random bot are too
    long to measure in a test; after a short run it wins far more against both."""
    before = win_rate(trained["before"], "heuristic")
    after = win_rate(trained["after"], "heuristic")
    assert after > before + 0.15, (before, after)
    against_random = win_rate(trained["after"], "random")
    assert interval(against_random * 200, 200)["low"] > 0.7, against_random
    summary = json.loads((trained["out"] / "classic-2p.json").read_text())
    assert summary["steps"] >= 12 * 128 * 16 and summary["steps_per_s"] > 0
    assert summary["config"]["seed"] == 5 and summary["weights"] == "classic-2p.npz"
    assert any((trained["out"] / "tensorboard" / "classic-2p").iterdir())


@pytest.mark.parametrize("players", [2, 4])
def test_the_learned_bot_plays_whole_matches(trained: dict[str, Any], tmp_path: Path, players: int) -> None:
    path = trained["out"] / "classic-2p.npz"
    if players != 2:
        path = tmp_path / "classic-4p.npz"
        export_weights(random_net(4), path, {"edition": "classic", "players": 4, "history": 16})
    bots = [make_bot("heuristic", seed=s, edition="classic") for s in range(players)]
    bots[1] = LearnedBot(seed=1, edition="classic", weights=path)
    result = play_game("classic", bots, seed=21)  # the runner raises on an illegal action
    assert result.winner in range(players) and max(result.scores) >= 500
    assert result.decisions[1] > 20


def test_the_learned_bot_refuses_tables_it_was_not_trained_for(trained: dict[str, Any]) -> None:
    bot = LearnedBot(seed=1, edition="classic", weights=trained["out"] / "classic-2p.npz")
    others = [make_bot("random", seed=s, edition="classic") for s in (1, 2)]
    with pytest.raises(UnknownOptionError, match="2 players, not classic with 3"):
        play_game("classic", [bot, *others], seed=1)


@pytest.mark.parametrize("edition", ["classic", "space-jam"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_make_bot_learned_plays_the_shipped_tables_only(edition: str, players: int) -> None:
    """``make_bot("learned")`` plays whole matches at the tables its shipped weights were trained
    for, and is refused elsewhere (everywhere when no weights ship)."""
    if (edition, players) not in learned_tables():
        if "learned" in bot_kinds():
            with pytest.raises(UnknownOptionError, match="the learned bot plays"):
                bots = [make_bot("learned", seed=1, edition=edition)] * players
                play_game(edition, bots, seed=1)
        else:
            with pytest.raises(UnknownOptionError, match="unknown bot kind 'learned'"):
                make_bot("learned", seed=1, edition=edition)
        return
    bots = [make_bot("heuristic", seed=s, edition=edition) for s in range(players)]
    bots[0] = make_bot("learned", seed=1, edition=edition)
    result = play_game(edition, bots, seed=5)
    assert result.winner in range(players) and result.decisions[0] > 20


def test_the_runner_agrees_with_the_compiled_evaluation(trained: dict[str, Any]) -> None:
    """The bot through the Python runner wins as often as the batched numpy policy on the compiled
    engine: each rate lies in the other's 95% interval."""
    path = trained["out"] / "classic-2p.npz"
    fast = evaluate_fast(load_policy(path), 2, "single-round", 200, seed=3)
    runner = evaluate_runner(path, 2, "single-round", 100, seed=3)
    assert fast["games"] == 400 and runner["games"] == 200
    assert fast["low"] <= runner["rate"] <= fast["high"], (fast, runner)
    assert runner["low"] <= fast["rate"] <= runner["high"], (fast, runner)


def test_shipped_weights_in_half_precision_choose_as_the_full_ones(tmp_path: Path) -> None:
    net = random_net(2)
    full, half = tmp_path / "full.npz", tmp_path / "half.npz"
    export_weights(net, full, {"edition": "classic", "players": 2, "history": 16})
    ship_weights(full, half)
    assert half.stat().st_size < 0.6 * full.stat().st_size
    obs, masks = observations(2)
    mine, shipped = load_policy(full), load_policy(half)
    assert shipped.meta == mine.meta
    assert (shipped.act(obs, masks) == mine.act(obs, masks)).mean() > 0.99


def test_the_evaluation_command_writes_rates_with_intervals(trained: dict[str, Any], tmp_path: Path) -> None:
    from unokit.rl.evaluate import main as evaluate_main

    out = tmp_path / "evaluation.json"
    weights = str(trained["out"] / "classic-2p.npz")
    code = evaluate_main(
        [weights, "--games", "30", "--scoring", "single-round", "--runner-games", "5", "--json", str(out)]
    )
    results = json.loads(out.read_text())
    assert code == 0 and set(results) == {"weights", "seed", "single_rounds", "single_rounds_runner"}
    fast = results["single_rounds"]
    assert fast["games"] == 60 and fast["deals"] == 30 and fast["low"] <= fast["rate"] <= fast["high"]
    assert results["single_rounds_runner"]["games"] == 10
