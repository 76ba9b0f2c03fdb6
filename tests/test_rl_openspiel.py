"""The OpenSpiel game: OpenSpiel's own random-simulation test, chance, determinism, secrecy and algorithms."""

from __future__ import annotations

import importlib
import random
import re
import sys
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel game needs the openspiel extra (in the test extra)")

from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr  # noqa: E402

from unokit.engine.errors import IllegalActionError, SetupError, UnknownOptionError  # noqa: E402
from unokit.rl import openspiel as uno_openspiel  # noqa: E402
from unokit.rl.encoding import Encoder  # noqa: E402

EDITIONS = ("classic", "space-jam", "all-wild", "wild-jackpot")
SHORT = "scoring:single-round"
HOUSE = "preset:house;scoring:single-round"


def load(**parameters: object) -> pyspiel.Game:
    return pyspiel.load_game(uno_openspiel.SHORT_NAME, parameters)


def play(state: pyspiel.State, rng: random.Random, steps: int) -> pyspiel.State:
    """``state`` after up to ``steps`` random actions and chance outcomes."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("rules", [SHORT, HOUSE])
def test_openspiels_random_simulation_test(edition: str, rules: str) -> None:
    game = load(edition=edition, players=2, rules=rules, max_game_length=60)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("players", "rules", "reward"),
    [(4, "teams", "win"), (3, "preset:party;scoring:single-round", "points"), (3, "", "match")],
)
def test_random_simulation_at_larger_tables_and_other_rewards(players: int, rules: str, reward: str) -> None:
    game = load(players=players, rules=rules, reward=reward, max_game_length=80)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_game_information() -> None:
    game = load(players=3, chance_outcomes=64)
    encoder = Encoder("classic", 3)
    assert game.num_distinct_actions() == 300  # the edition's 299 ids and wait
    assert game.max_chance_outcomes() == 64 and game.num_players() == 3
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.observation_tensor_size() == encoder.size
    assert game.information_state_tensor_size() == encoder.size + 16 * 300
    assert game.max_game_length() == 10_000
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert load(reward="points").max_utility() > 1000
    assert load(rules="").max_utility() == 10_001  # several rounds: one per decision at most


def test_the_state_is_a_function_of_chance_outcomes_and_actions() -> None:
    game = load(edition="wild-jackpot", players=3, max_game_length=400)
    state = play(game.new_initial_state(), random.Random(3), 2000)
    history = state.history()
    again = game.new_initial_state()
    for action in history:
        again.apply_action(action)
    assert str(again) == str(state) and again.returns() == state.returns()
    assert again.observation_tensor(1) == state.observation_tensor(1)
    other = game.new_initial_state()
    for action in (history[0], history[1] + 1):  # the deal's second chance node
        other.apply_action(action)
    first = game.new_initial_state()
    for action in history[:2]:
        first.apply_action(action)
    assert str(other) != str(first)


def test_every_random_draw_of_the_engine_is_a_chance_node() -> None:
    game = load(edition="wild-jackpot", players=3, max_game_length=400, chance_outcomes=16)
    state = game.new_initial_state()
    rng = random.Random(5)
    varied = 0
    mid_game = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert len(outcomes) == 16 and sum(p for _, p in outcomes) == pytest.approx(1.0)
            if state.history():
                mid_game += 1
                nexts = {str(state.child(outcome)) for outcome, _ in outcomes}
                varied += len(nexts) > 1
            state.apply_action(rng.randrange(16))
        else:
            action = rng.choice(state.legal_actions())
            child = state.child(action)
            assert child.is_chance_node() or str(child) == str(state.child(action))
            state.apply_action(action)
    # the lever, rule cards' draws and reshuffles are chance nodes, not draws of the game's own generator
    assert mid_game and varied


def test_hidden_cards_never_change_a_players_observation() -> None:
    game = load(players=3, rules=HOUSE)
    for seed in range(4):
        state = play(game.new_initial_state(), random.Random(seed), 20 + 9 * seed)
        if state.is_terminal():
            continue
        observer = seed % 3
        seen = (
            state.observation_tensor(observer),
            state.information_state_tensor(observer),
            state.observation_string(observer),
            state.information_state_string(observer),
        )
        hidden = state.clone()
        engine = hidden.game
        assert engine is not None
        other = (observer + 1) % 3
        for index, card in enumerate(engine.hands[other]):
            swap = next((j for j, c in enumerate(engine.draw_pile) if c != card), None)
            if swap is not None:
                engine.hands[other][index], engine.draw_pile[swap] = engine.draw_pile[swap], card
                break
        assert str(hidden) != str(state)
        assert (
            hidden.observation_tensor(observer),
            hidden.information_state_tensor(observer),
            hidden.observation_string(observer),
            hidden.information_state_string(observer),
        ) == seen
        assert hidden.observation_tensor(other) != state.observation_tensor(other)


def test_the_information_state_holds_the_players_own_decisions() -> None:
    game = load(players=2, history=4)
    state = play(game.new_initial_state(), random.Random(1), 12)
    player = 0
    own = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    own.set_from(state, player)
    decisions = own.dict["own_decisions"]
    taken = sum(1 for item in state.full_history() if item.player == player)
    assert decisions.shape == (4, 300) and decisions.sum() == min(4, taken)
    assert np.array_equal(own.tensor, np.array(state.information_state_tensor(player), dtype=np.float32))


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    game = load()
    state = game.new_initial_state()
    with pytest.raises(IllegalActionError):
        state.apply_action(1024)
    state.apply_action(0)
    state.apply_action(0)  # the deal is two chance nodes
    before, history = str(state), state.history()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    for action in (illegal, game.num_distinct_actions() - 1):  # wait is only for a decision out of turn
        with pytest.raises(IllegalActionError):
            state.apply_action(action)
    assert str(state) == before and state.history() == history


@pytest.mark.parametrize(
    ("parameters", "error", "words"),
    [
        ({"edition": "uno-flip"}, UnknownOptionError, "unknown edition"),
        ({"players": 11}, SetupError, "players"),
        ({"reward": "score"}, UnknownOptionError, "unknown reward"),
        ({"rules": "tournament"}, UnknownOptionError, "unknown preset"),
        ({"rules": "stacking:yes"}, UnknownOptionError, "stacking"),
        ({"rules": "{not json"}, UnknownOptionError, "JSON"),
        ({"chance_outcomes": 0}, UnknownOptionError, "chance_outcomes"),
        ({"speed": 2}, UnknownOptionError, "speed"),
    ],
)
def test_bad_parameters_are_refused(parameters: dict[str, object], error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        uno_openspiel.UnoGame(parameters)


def test_outcome_sampling_mccfr_runs_on_it() -> None:
    game = load(players=2, rules="scoring:single-round;hand_size:3", max_game_length=60)
    np.random.seed(0)  # the solver samples from NumPy's global generator
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(15):
        solver.iteration()
    policy = solver.average_policy()
    state = play(game.new_initial_state(), random.Random(2), 2)
    assert not state.is_chance_node()
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)


def test_ismcts_plays_legal_moves_with_the_resampler() -> None:
    game = load(players=2, rules="scoring:single-round;hand_size:3", max_game_length=80)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=15, random_state=np.random.RandomState(0))
    rng = random.Random(0)
    bot.set_resampler(lambda state, player: uno_openspiel.resample(state, player, rng))
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < 5:
        if state.is_chance_node():
            state.apply_action(rng.randrange(game.max_chance_outcomes()))
            continue
        sampled = uno_openspiel.resample(state, state.current_player(), rng)
        assert sampled.information_state_string() == state.information_state_string()
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == 5 or state.is_terminal()
    assert sum(state.returns()) == pytest.approx(0.0)


def test_the_quick_start_of_the_docs_runs() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    section = text[text.index("## Quick start: OpenSpiel") :]
    snippet = re.search(r"```py\n(.*?)```", section, flags=re.DOTALL)
    assert snippet is not None
    exec(compile(snippet.group(1), "docs/rl.md", "exec"), {})


def test_without_the_extra_the_import_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "unokit.rl.openspiel", raising=False)
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(ImportError, match=r"pip install 'unokit\[openspiel\]'"):
        importlib.import_module("unokit.rl.openspiel")


@pytest.mark.parametrize("edition", EDITIONS)
def test_random_simulation_with_serialization_over_long_games(edition: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Every step of OpenSpiel's test serializes and deserializes the state: a state is pickled as
    it stands (no replay of its history) and an information state's text grows by the new events
    only, so a long game costs about the same per step as a short one."""
    import time

    game = load(edition=edition, players=2, max_game_length=1_000)
    started = time.perf_counter()
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    with capsys.disabled():
        print(f"\nrandom_sim_test(serialize=True), {edition}, 1,000 decisions: {time.perf_counter() - started:.1f} s")


def test_a_deserialized_state_is_the_state_without_replaying_it() -> None:
    game = load(edition="wild-jackpot", players=3, rules=HOUSE)
    state = play(game.new_initial_state(), random.Random(4), 600)
    text = pyspiel.serialize_game_and_state(game, state)
    _, copy = pyspiel.deserialize_game_and_state(text)
    assert str(copy) == str(state) and copy.history() == state.history() and copy.returns() == state.returns()
    assert copy.information_state_string(1) == state.information_state_string(1)
    reduced = state._table.__reduce__()
    assert isinstance(reduced[1][1], bytes), "the table's own contents, not its actions to replay"
    assert b"Classic" not in reduced[1][1] and len(reduced[1][1]) < 40_000, "the edition is a reference"
    rng = random.Random(5)
    for _ in range(100):
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = rng.randrange(game.max_chance_outcomes())
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        copy.apply_action(action)
        assert str(copy) == str(state)


def test_the_deal_is_drawn_by_several_chance_nodes() -> None:
    game = load()
    assert game.max_chance_outcomes() == 1024 and game.get_parameters()["deal_chance_nodes"] == 2
    deals = set()
    for second in range(3):
        state = game.new_initial_state()
        state.apply_action(7)
        assert state.is_chance_node() and len(state.chance_outcomes()) == 1024 and state.game is None
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, second) == f"deal {second}"
        state.apply_action(second)
        assert not state.is_chance_node()
        deals.add(str(state))
    assert len(deals) == 3, "the second node's outcome changes the deal"
    three = load(deal_chance_nodes=3, chance_outcomes=4)
    state = three.new_initial_state()
    for outcome in (1, 2):
        state.apply_action(outcome)
        assert state.is_chance_node() and str(state).startswith("before the deal")
    state.apply_action(3)
    assert not state.is_chance_node()
    one = load(deal_chance_nodes=1).new_initial_state()
    one.apply_action(7)
    assert not one.is_chance_node()


def test_the_information_state_string_is_the_whole_history_as_json() -> None:
    import json

    game = load(edition="space-jam", players=3, rules=HOUSE)
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    state = game.new_initial_state()
    rng = random.Random(6)
    saved = []
    for step in range(900):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.randrange(1024))
            continue
        if step % 5 == 0:
            saved.append(state.clone())
        probe = saved[rng.randrange(len(saved))] if saved and step % 3 == 0 else state
        player = step % 3
        view = probe.game.view(player)
        expected = view.to_dict(history=False)
        expected["history"] = view.history.to_list()
        expected["own_decisions"] = probe._table.own[player]
        assert observer.string_from(probe, player) == json.dumps(expected, sort_keys=True)
        state.apply_action(rng.choice(state.legal_actions()))
