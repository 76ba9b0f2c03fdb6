"""A fair out-of-turn order: who is asked first to call or catch UNO does not depend on seat number.

The order is a hash of the game's order key (from its seed), the moves so far and the seat
(:mod:`unokit.engine.order`), the same in the compiled engine (:mod:`unokit.fast.order`).  The
fairness test counts, over fixed seeded games, how often a player who forgot to call is asked
before any catcher, per seat: the bounds are wide enough for the fixed seeds to pass always
(they are not drawn afresh), narrow enough to fail the seat-number order (94% at seat 0, 0% at
seats 2 and 3).
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from unokit import Game
from unokit.bots.base import make_bot
from unokit.bots.runner import play_game
from unokit.engine.order import fair_order, order_key, order_rank, out_of_turn_order


def bench_measure() -> Callable[[int, int], dict[str, list[int]]]:
    """``measure`` of ``bench/out_of_turn_order.py``: the bench and this test count alike."""
    path = Path(__file__).resolve().parent.parent / "bench" / "out_of_turn_order.py"
    spec = importlib.util.spec_from_file_location("out_of_turn_order_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    measure: Callable[[int, int], dict[str, list[int]]] = module.measure
    return measure


def test_a_forgetter_is_asked_first_as_often_at_every_seat() -> None:
    """Three seats may act out of turn (the actor decides last): the forgetter is first a third of
    the time at every seat."""
    counts = bench_measure()(300, 4)
    windows = counts["windows"]
    assert min(windows) >= 250, windows
    rates = [f / w for f, w in zip(counts["fair_order"], windows, strict=True)]
    assert all(0.22 < rate < 0.45 for rate in rates), rates
    by_seat = [f / w for f, w in zip(counts["seat_order"], windows, strict=True)]
    assert by_seat[0] == 1 and by_seat[2] == by_seat[3] == 0, by_seat  # the bias the seat order had


def test_the_order_is_a_fresh_permutation_at_every_move_and_keeps_the_games_generator() -> None:
    key = order_key(11)
    counts = [[0] * 4 for _ in range(4)]
    for moves in range(8000):
        for place, seat in enumerate(fair_order(key, moves, range(4))):
            counts[seat][place] += 1
    assert all(1800 < count < 2200 for row in counts for count in row), counts
    game = Game("classic", 4, seed=11)
    state = game.rng.getstate()
    out_of_turn_order(game)
    assert game.rng.getstate() == state and game.order_key == key


def test_seeded_games_ask_in_the_same_order_and_copies_keep_it() -> None:
    game = Game("classic", 3, seed=5)
    assert game.clone().order_key == game.order_key == order_key(5) != Game("classic", 3, seed=6).order_key
    assert fair_order(game.order_key, 9, [2, 0, 1]) == sorted([0, 1, 2], key=lambda s: order_rank(game.order_key, 9, s))


def test_bot_matches_are_reproducible_under_the_fair_order() -> None:
    def table() -> list:
        return [make_bot("heuristic", seed=s, edition="classic") for s in range(4)]

    first = play_game("classic", table(), seed=3, rules={"scoring": "single-round"})
    again = play_game("classic", table(), seed=3, rules={"scoring": "single-round"})
    assert first.events == again.events


# ------------------------------------------------------------------ the compiled engine

pytest.importorskip("numba", reason="the compiled engine needs the fast extra (numba)")


def test_the_compiled_order_is_the_python_order_on_many_inputs() -> None:
    from unokit.fast import order as compiled

    rng = random.Random(28)
    for _ in range(20_000):
        seed = rng.getrandbits(62)
        index = rng.getrandbits(20)
        key = order_key(seed, index)
        assert compiled.order_key(seed, index) == key
        moves = rng.getrandbits(rng.choice((4, 16, 40)))
        seat = rng.randrange(10)
        assert compiled.order_rank(key, moves, seat) == order_rank(key, moves, seat)
        seats = rng.getrandbits(10) | 1
        after = -1
        for expected in fair_order(key, moves, [s for s in range(10) if (seats >> s) & 1]):
            chosen = compiled.next_by_rank(key, moves, seats, after)
            assert chosen == expected
            after = order_rank(key, moves, chosen)
        assert compiled.next_by_rank(key, moves, seats, after) == -1


def test_a_compiled_game_has_its_seeds_order_key() -> None:
    from unokit.fast import engine
    from unokit.fast.engine import FastGame, state_from_game

    assert int(FastGame(4, seed=21).state[engine.ORDER_KEY]) == Game("classic", 4, seed=21).order_key
    game = Game("classic", 4, seed=21)
    for _ in range(5):
        game.apply(game.actor, game.legal_actions(game.actor)[0])
    state = state_from_game(game, 99)
    assert int(state[engine.ORDER_KEY]) == game.order_key and int(state[engine.MOVES]) == len(game.history)
