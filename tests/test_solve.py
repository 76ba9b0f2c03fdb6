"""The exact solver of small rounds (:mod:`unokit.analysis.solve`): wins at once ranked first,
agreement with a brute force of every line on many random small endgames, and its refusals."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from rules_support import stacked_game
from unokit import Game
from unokit.analysis.solve import (
    WAIT,
    ChanceEventError,
    PositionTooLargeError,
    SolveError,
    position_key,
    solve_round,
)
from unokit.engine.game import same_side
from unokit.engine.order import out_of_turn_order

POOL = ["R1", "R2", "R7", "RS", "RR", "R+2", "B1", "B2", "B7", "BS", "G1", "G7", "Y2", "W", "W+4"]
"""The cards the random endgames are dealt from (numbers, actions and wilds)."""


def endgame(hands: Sequence[Sequence[str]], start: str, draw: Sequence[str] = (), **options: Any) -> Game:
    """A game whose deck is exactly ``hands``, ``start`` and ``draw`` (the last seat deals)."""
    deck = Counter([*(card for hand in hands for card in hand), start, *draw])
    return stacked_game("classic", hands, start, draw, deck=dict(deck), **options)


UNKNOWN = -3
"""A result chance decides."""


class TooLong(Exception):
    """The brute force searched more positions than a test affords."""


def brute_force(game: Game, limit: int = 1_500) -> dict[int, int]:
    """The round's winner after each option of the seat asked now, by plain recursion over every
    line (no table, no pruning): the seats asked out of turn first in the engine's order, each
    with "wait"; each seat takes an option its side wins, else, if chance decides one of its
    options (the engine draws from its generator), chance decides; else its first option; a line
    that comes back to a position it passed through is cut as won by nobody (-1)."""
    first_round = len(game.round_results)
    teams = bool(game.teams)
    count = [0]

    def asked(state: Game, waited: frozenset[int]) -> tuple[int, tuple[int, ...]]:
        for seat in out_of_turn_order(state):
            if seat not in waited:
                return seat, (*state.legal_actions(seat), WAIT)
        return state.actor, state.legal_actions(state.actor)

    def after(state: Game, waited: frozenset[int], seat: int, action: int, path: frozenset[Any]) -> int:
        if action == WAIT:
            return best(state, waited | {seat}, path)
        child = state.clone()
        before = child.rng.getstate()
        child.apply(seat, action)
        if len(child.round_results) > first_round:
            return child.round_results[first_round].winner
        if child.rng.getstate() != before:
            return UNKNOWN
        return best(child, frozenset(), path)

    def options(state: Game, waited: frozenset[int], path: frozenset[Any]) -> dict[int, int]:
        count[0] += 1
        if count[0] > limit or len(path) > 150:
            raise TooLong
        seat, legal = asked(state, waited)
        path = path | {(position_key(state), waited)}
        return {action: after(state, waited, seat, action, path) for action in legal}

    def best(state: Game, waited: frozenset[int], path: frozenset[Any]) -> int:
        if (position_key(state), waited) in path:
            return -1
        seat, _ = asked(state, waited)
        winners = list(options(state, waited, path).values())
        won = [w for w in winners if w >= 0 and same_side(seat, w, teams)]
        return won[0] if won else UNKNOWN if UNKNOWN in winners else winners[0]

    return options(game, frozenset(), frozenset())


def random_endgame(rng: random.Random) -> Game:
    """Two hands of one to three cards (or three hands of one), a start card and up to two cards
    to draw; half of them without UNO calls (house rule ``call_uno`` off), which keeps more of
    them small enough for the brute force."""
    players, size = rng.choice(((2, 1), (2, 2), (2, 2), (2, 3), (3, 1)))
    start = rng.choice([card for card in POOL if card[1:].isdigit()])
    cards = rng.sample([card for card in POOL if card != start], players * size + rng.randint(0, 2))
    hands = [cards[seat * size : (seat + 1) * size] for seat in range(players)]
    draw = cards[players * size :]
    return endgame(hands, start, draw, dealer=rng.randrange(players), call_uno=rng.random() < 0.5)


def test_one_move_that_wins_at_once_is_ranked_first() -> None:
    game = endgame([["B7"], ["G1"], ["Y2"]], "B2")
    before = game.state_key()
    solution = solve_round(game)
    assert (solution.seat, solution.out_of_turn, solution.winner) == (0, False, 0)
    assert solution.best == (game.parse_action("B7"),)
    assert solution.values == (1.0, 0.0, 0.0)
    assert solution.action_values[game.parse_action("B7")] == (1.0, 0.0, 0.0)
    assert game.state_key() == before  # the game itself is not changed
    # two cards: playing one with the call, then the last, is the win
    game = endgame([["R7", "R5"], ["G1", "B3"]], "R2")
    solution = solve_round(game)
    assert solution.values == (1.0, 0.0)
    assert game.parse_action("R7!") in solution.best and game.parse_action("R5!") in solution.best


def test_a_forgotten_call_is_caught_out_of_turn() -> None:
    """Seat 0 plays its second-to-last card without calling: both seats may act out of turn.  Seat
    0 wins by calling late; if it waits, seat 1 catches it (two cards drawn) and wins."""
    game = endgame([["R7", "R5"], ["G1", "B3"]], "R2", ["G8", "Y9"])
    game.apply_notation(0, "R7")
    assert game.exposed == [0]
    solution = solve_round(game)
    assert (solution.seat, solution.out_of_turn, solution.winner) == (0, True, 0)  # seat 0 is asked first
    assert solution.action_values == {game.parse_action("uno"): (1.0, 0.0), WAIT: (0.0, 1.0)}
    assert solution.best == (game.parse_action("uno"),)
    catch = next(a for a in game.legal_actions(1) if game.format_action(a).startswith("catch"))
    game.apply(1, catch)
    assert solve_round(game).values == (0.0, 1.0)


@pytest.mark.parametrize("seed", range(3))
def test_the_solver_agrees_with_brute_force_on_random_endgames(seed: int) -> None:
    rng = random.Random(seed)
    compared = refused = 0
    for _ in range(40):
        game = random_endgame(rng)
        try:
            expected = brute_force(game)
        except TooLong:
            continue
        if UNKNOWN in expected.values():
            with pytest.raises(ChanceEventError, match="depends on chance"):
                solve_round(game)
            refused += 1
            continue
        solution = solve_round(game)
        seat = solution.seat
        assert list(solution.action_values) == list(expected)
        for action, winner in expected.items():
            values = tuple(1.0 if winner >= 0 and same_side(s, winner, False) else 0.0 for s in range(game.n))
            assert solution.action_values[action] == values, (game.hands, game.format_action(action))
        top = max(v[seat] for v in solution.action_values.values())
        assert solution.best == tuple(a for a, v in solution.action_values.items() if v[seat] == top)
        compared += 1
    assert compared >= 3, (compared, refused)


def test_a_position_too_large_is_refused() -> None:
    game = endgame([["R1", "R2", "B7", "G7", "Y2"], ["B1", "B2", "G1", "RS", "BS"]], "R7", ["RR", "W"])
    before = game.state_key()
    with pytest.raises(PositionTooLargeError, match="max_nodes") as raised:
        solve_round(game, max_nodes=50)
    assert isinstance(raised.value, ValueError)
    assert game.state_key() == before
    with pytest.raises(SolveError, match="max_nodes"):
        solve_round(game, max_nodes=0)


def test_a_line_that_meets_a_reshuffle_is_refused() -> None:
    """Seat 0 cannot win (seat 1 plays its last card next) but may draw: that draw reshuffles two
    discards, and what it brings is chance."""
    game = endgame([["R1", "G2", "B7"], ["R7", "G1", "Y1"]], "R0")
    game.apply_notation(0, "R1")
    game.apply_notation(1, "R7")
    assert game.draw_pile == [] and len(game.discard_pile) == 3
    assert brute_force(game)[game.parse_action("draw")] == UNKNOWN
    before = game.state_key()
    with pytest.raises(ChanceEventError, match=r"draw.*reshuffled"):
        solve_round(game)
    assert game.state_key() == before


def test_a_match_that_is_over_is_refused() -> None:
    game = endgame([["B7"], ["G1"]], "B2", scoring="single-round")
    game.apply(0, game.parse_action("B7"))
    assert game.is_over
    with pytest.raises(SolveError, match="over"):
        solve_round(game)
