"""The compiled heuristic bot against the Python bots: a differential test.

Each compiled game is dealt with its shuffles and dealer draws traced and replayed through
:class:`unokit.Game` with a generator that hands it those results.  At every decision the
compiled runner's step (:func:`unokit.fast.heuristic.bot_decision`) must equal what
:func:`unokit.bots.runner.play_match` would do with Python bots seeded alike: the seat that acts
and its action, whether a call or catch out of turn (``wants_interrupt``, asked in seat order) or
the actor's ``choose``.  The heuristic's ties between equally scored cards are broken by its
``random.Random``; the compiled bot draws the same numbers from the same Mersenne Twister, so no
decision is exempt.  The compiled memory of the round is also compared with
:func:`unokit.bots.heuristic.read_round` of each deciding seat's view.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba", reason="the compiled engine needs the fast extra (numba)")

from unokit import Game, Rules
from unokit.actions import INTERRUPT_TYPES, MAX_PLAYERS
from unokit.bots import HeuristicBot, RandomBot
from unokit.bots.heuristic import read_round
from unokit.cards import NO_COLOUR
from unokit.errors import SetupError, UnknownOptionError
from unokit.fast import engine
from unokit.fast import heuristic as fh
from unokit.fast.differential import replay_game
from unokit.fast.engine import FACES, FastGame

PHASE_NAMES = {engine.TURN: "turn", engine.DRAWN: "drawn", engine.COLOUR: "colour", engine.CHALLENGE: "challenge"}


class CountingHeuristic(HeuristicBot):
    """The Python heuristic, counting the ties its generator breaks."""

    ties = 0

    def _best(self, scores: dict[int, float]) -> int:
        top = max(scores.values())
        if sum(1 for v in scores.values() if v == top) > 1:
            CountingHeuristic.ties += 1
        return super()._best(scores)


def python_bots(players: int, seed: int, index: int, kinds: Any) -> list[Any]:
    out: list[Any] = []
    for seat in range(players):
        bot_seed = fh.bot_seed(seed, index, seat)
        out.append(CountingHeuristic(seed=bot_seed) if kinds[seat] == fh.HEURISTIC else RandomBot(seed=bot_seed))
    return out


INTERRUPTS = frozenset(a for a in range(engine._SPACE.size) if engine._SPACE.types[a] in INTERRUPT_TYPES)


def python_decision(game: Game, bots: Sequence[Any]) -> tuple[int, int, str]:
    """What :func:`unokit.bots.runner.play_match` applies next: ``(seat, action, what was asked)``."""
    if game.exposed:
        for seat in game.deciders():
            if INTERRUPTS.isdisjoint(game.legal_actions(seat)):
                continue
            action = bots[seat].wants_interrupt(game.view(seat))
            if action is not None:
                return seat, action, "interrupt"
    seat = game.actor
    view = game.view(seat)
    return seat, bots[seat].choose(view), view.phase


def check_memory(memory: Any, game: Game, seat: int) -> None:
    """The compiled memory, as ``seat`` holds it, against ``read_round`` of its view."""
    view = game.view(seat)
    expected = read_round(view.history, game.n)
    pile = {FACES[f]: int(memory[fh.M_PILE + f]) for f in range(engine.F) if memory[fh.M_PILE + f]}
    assert pile == +expected.pile
    for other in range(game.n):
        bits = int(memory[fh.M_LACKS + seat * MAX_PLAYERS + other])
        assert {c for c in range(NO_COLOUR) if bits >> c & 1} == expected.lacks[other], other
        assert int(memory[fh.M_WD4_COLOUR + other]) == expected.wd4_colour.get(other, NO_COLOUR)
        setter, by_choice = expected.wd4_setter.get(other, (-1, False))
        assert int(memory[fh.M_WD4_SETTER + other]) == setter
        if setter >= 0:
            assert bool(memory[fh.M_WD4_BY_CHOICE + other]) == by_choice
        plays = expected.plays[other]
        count = int(memory[fh.M_PLAY_COUNT + other])
        assert count == len(plays)
        kept = [FACES[int(memory[fh.M_PLAYS + 3 * other + k % 3])] for k in range(max(0, count - 3), count)]
        assert kept == plays[-3:]
    assert int(memory[fh.M_COLOUR]) == expected.colour
    assert int(memory[fh.M_SETTER]) == expected.setter
    if expected.setter >= 0:
        assert bool(memory[fh.M_BY_CHOICE]) == expected.set_by_choice


def play_both(
    players: int, rules: Rules, seed: int, index: int, heuristic_seats: Sequence[int] | None = None
) -> tuple[Counter[str], int]:
    """Step game ``index`` of ``seed`` compiled and in Python side by side; the decisions compared
    (by what was asked) and the compiled game's decision count."""
    s, memory, rngs, kinds = fh.new_table(
        players, rules, seed=seed, index=index, heuristic_seats=heuristic_seats, trace=True
    )
    fast = FastGame(players, rules=rules)
    fast.state = s
    game, scripted = replay_game(fast, players, rules)
    bots = python_bots(players, seed, index, kinds)
    compared: Counter[str] = Counter()
    steps = 0
    while not game.is_over:
        seat, action, asked = python_decision(game, bots)
        if kinds[seat] == fh.HEURISTIC and asked != "interrupt":
            check_memory(memory, game, seat)
        got = fh.bot_decision(s, memory, rngs, kinds)
        assert got == (seat, action), (steps, asked, got, (seat, action), game.view(seat).legal_actions)
        compared[asked if kinds[seat] == fh.HEURISTIC else "random"] += 1
        assert engine.apply(s, seat, action) == 0
        scripted.script.extend(fast.trace())
        game.apply(seat, action)
        assert not scripted.script, "the Python engine drew less randomness"
        assert fh.update_memory(s, memory) >= 0
        steps += 1
    assert s[engine.PHASE] == engine.OVER and int(s[engine.WINNER]) == game.winner
    return compared, steps


OPTION_MIXES: list[dict[str, Any]] = [
    {"scoring": "single-round"},
    {"target_score": 100},
    {"scoring": "running-tally", "target_score": 60},
    {"allow_bluff": False, "hand_size": 5, "scoring": "single-round"},
    {"challenger_plays_after_catching_bluff": False, "uno_penalty": 1, "scoring": "single-round"},
    {"two_player_reverse_skips": False, "uno_penalty": 4, "target_score": 80},
    {"hand_size": 3, "scoring": "single-round"},
]


@pytest.mark.parametrize("mix", range(len(OPTION_MIXES)))
def test_every_compiled_decision_is_the_python_heuristics(mix: int) -> None:
    """Tables of heuristic bots, 2 to 6 players: every decision compared, nothing exempt."""
    rules = Rules.from_dict(OPTION_MIXES[mix])
    games = 300 if mix == 0 else 80
    total: Counter[str] = Counter()
    ties = CountingHeuristic.ties
    for index in range(games):
        compared, _ = play_both(2 + index % 5, rules, seed=1000 + mix, index=index)
        total += compared
    assert total["turn"] > 5 * games and total["colour"] > 0
    assert not total["interrupt"]  # a heuristic bot always calls UNO with its play: nobody to catch
    if rules.allow_bluff:
        assert total["challenge"] > 0
    if mix == 0:
        assert total["drawn"] > 0 and CountingHeuristic.ties > ties  # ties broken by the generator


def test_heuristic_against_random_seats_decides_as_the_python_bots() -> None:
    """Mixed tables under every option mix: the heuristic seats as HeuristicBot, the others as
    RandomBot (same generators); random players forget to call UNO, so the heuristic catches."""
    total: Counter[str] = Counter()
    for index in range(350):
        players = 2 + index % 5
        rules = Rules.from_dict({**OPTION_MIXES[index % len(OPTION_MIXES)], "scoring": "single-round"})
        seats = [seat for seat in range(players) if (seat + index) % 2 == 0]
        compared, _ = play_both(players, rules, seed=77, index=index, heuristic_seats=seats)
        total += compared
    assert total["random"] > 5000 and total["turn"] > 5000 and total["interrupt"] > 10


def test_heuristic_decision_is_the_step_of_a_table_of_heuristic_bots() -> None:
    s, memory, rngs, kinds = fh.new_table(3, Rules(scoring="single-round"), seed=3)
    other = (s.copy(), memory.copy(), rngs.copy())
    while s[engine.PHASE] != engine.OVER:
        seat, action = fh.heuristic_decision(s, memory, rngs)
        assert (seat, action) == fh.bot_decision(other[0], other[1], other[2], kinds)
        for state, known in ((s, memory), other[:2]):
            assert engine.apply(state, seat, action) == 0
            fh.update_memory(state, known)


def test_the_generator_is_random_randoms() -> None:
    rng = np.zeros(fh.RNG_WORDS, dtype=np.int64)
    for seed in (0, 1, 2**32 - 1, 2**32, 2**62 + 12345):
        fh.mt_seed(rng, seed)
        python = random.Random(seed)
        assert [fh.mt_next(rng) for _ in range(1300)] == [python.getrandbits(32) for _ in range(1300)]
        sizes = [1, 2, 3, 7, 54, 1000] * 20
        assert [fh.mt_below(rng, n) for n in sizes] == [python._randbelow(n) for n in sizes]  # type: ignore[attr-defined]
        assert [fh.mt_random(rng) for _ in range(50)] == [python.random() for _ in range(50)]


def test_batches_are_seeded_and_independent_of_the_threads() -> None:
    rules = Rules(scoring="single-round")
    one = fh.play_heuristic_games(60, 4, rules, seed=11, threads=1)
    two = fh.play_heuristic_games(60, 4, rules, seed=11, threads=2)
    for key in one:
        assert (one[key] == two[key]).all(), key
    tail = fh.play_heuristic_games(20, 4, rules, seed=11, first=40, threads=2)
    assert (tail["decisions"] == one["decisions"][40:]).all()
    other = fh.play_heuristic_games(60, 4, rules, seed=12, threads=1)
    assert (other["decisions"] != one["decisions"]).any()
    assert (one["winner"] >= 0).all() and (one["winner"] < 4).all() and (one["rounds"] == 1).all()
    mixed = fh.play_bots_games(60, 3, rules, seed=11, heuristic_seats=[1], threads=1)
    mixed_two = fh.play_bots_games(60, 3, rules, seed=11, heuristic_seats=[1], threads=2)
    for key in mixed:
        assert (mixed[key] == mixed_two[key]).all(), key


@pytest.mark.parametrize(("rules", "seats"), [({"target_score": 100}, None), ({"scoring": "single-round"}, [0, 2])])
def test_a_batch_plays_the_games_stepped_one_decision_at_a_time(rules: dict[str, Any], seats: Any) -> None:
    """The batch's games are those :func:`play_both` checks against the Python bots."""
    rules_ = Rules.from_dict(rules)
    result = fh.play_bots_games(6, 3, rules_, seed=5, first=10, heuristic_seats=seats, threads=2)
    for game in range(6):
        _, steps = play_both(3, rules_, seed=5, index=10 + game, heuristic_seats=seats)
        assert steps == result["decisions"][game]


def test_bad_input_is_refused() -> None:
    with pytest.raises(SetupError):
        fh.play_heuristic_games(-1, 4)
    with pytest.raises(SetupError):
        fh.play_heuristic_games(2, 4, seed=-1)
    with pytest.raises(SetupError):
        fh.play_bots_games(2, 3, heuristic_seats=[3])
    with pytest.raises(SetupError):
        fh.play_bots_games(2, 11)
    with pytest.raises(UnknownOptionError, match="stacking"):
        fh.play_heuristic_games(2, 4, Rules(stacking="same"))
