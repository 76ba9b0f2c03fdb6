"""One compiled match recorded and played again in :class:`unokit.Game`, whose record replays it.

The compiled engine draws from a generator of its own, which a record's seed does not rebuild; but
a compiled match played with its trace on (:meth:`unokit.fast.engine.FastGame.trace`) tells every
random result it drew, and a :class:`Game` handed those results
(:class:`unokit.engine.scripted.ScriptedRandom`) and the same decisions is the same match
(``tests/test_fast_engine.py`` holds the two engines equal).  Its record
(:func:`unokit.engine.record.to_record`) is then of format ``unokit-record/3``: it carries the
results.  :func:`stats_match`, :func:`bots_match` and :func:`random_match` play match ``index`` of
``seed`` exactly as :func:`unokit.fast.stats.play_stats_games`,
:func:`unokit.fast.heuristic.play_bots_games` and :func:`unokit.fast.engine.play_random_games` play
it (the same deal, bots and decisions, stopped where they stop).

>>> from unokit.engine.record import to_record
>>> game = random_match(3, Rules(scoring="single-round"), seed=1, index=0)
>>> game.is_over, to_record(game)["format"]
(True, 'unokit-record/3')
"""

from __future__ import annotations

from collections.abc import Sequence

from unokit.fast import MISSING_EXTRA

try:
    import numpy as np
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(MISSING_EXTRA) from error

from unokit.engine.game import Game
from unokit.engine.rules import Rules
from unokit.engine.scripted import ScriptedRandom
from unokit.fast import engine, heuristic
from unokit.fast.engine import FastGame, IntArray

__all__ = ["bots_match", "random_match", "stats_match"]

FIRST_ROOM = 4096
"""Decisions the first recording of a match has room for (twice as many each time it runs out)."""


def stats_match(
    players: int,
    rules: Rules | None,
    *,
    seed: int,
    index: int,
    heuristic_seats: Sequence[int] | None = None,
    limit: int = 30_000,
    edition: str = "classic",
    rule_cards: Sequence[str] | None = None,
) -> Game:
    """Match ``index`` of :func:`unokit.fast.stats.play_stats_games` (``seed``, ``heuristic_seats``,
    ``limit``, as given there) as a :class:`Game`: stopped, as there, after ``limit`` decisions or
    before a decision of a round past :data:`~unokit.fast.stats.STATS_ROUNDS`."""
    from unokit.fast.stats import STATS_ROUNDS

    kinds = heuristic._kinds(players, heuristic_seats)
    return _replayed(players, rules, seed, index, edition, rule_cards, kinds, limit, STATS_ROUNDS)


def bots_match(
    players: int,
    rules: Rules | None,
    *,
    seed: int,
    index: int,
    heuristic_seats: Sequence[int] | None = None,
    limit: int = 1_000_000,
    edition: str = "classic",
    rule_cards: Sequence[str] | None = None,
) -> Game:
    """Game ``index`` of :func:`unokit.fast.heuristic.play_bots_games` (as called with these
    arguments; ``play_heuristic_games``: every seat heuristic) as a :class:`Game`."""
    kinds = heuristic._kinds(players, heuristic_seats)
    return _replayed(players, rules, seed, index, edition, rule_cards, kinds, limit, None)


def random_match(
    players: int,
    rules: Rules | None,
    *,
    seed: int,
    index: int,
    limit: int = 1_000_000,
    edition: str = "classic",
    rule_cards: Sequence[str] | None = None,
) -> Game:
    """Game ``index`` of :func:`unokit.fast.engine.play_random_games` (the random policy) as a :class:`Game`."""
    return _replayed(players, rules, seed, index, edition, rule_cards, None, limit, None)


def _replayed(
    players: int,
    rules: Rules | None,
    seed: int,
    index: int,
    edition: str,
    rule_cards: Sequence[str] | None,
    kinds: IntArray | None,
    limit: int,
    most_rounds: int | None,
) -> Game:
    """Record the compiled match (bots of ``kinds``, or the random policy when ``None``) and play
    its decisions again in a :class:`Game` handed its random results (up to ``most_rounds`` rounds)."""
    heuristic._check_seed(seed)
    rules = rules if rules is not None else Rules()
    state, moves, script = _record(players, rules, seed, index, edition, rule_cards, kinds, limit)
    cards = list(rule_cards) if rule_cards is not None else None
    game = Game(edition, players, seed=seed, rules=rules, rule_cards=cards, rng=ScriptedRandom(script))
    game.order_key = int(state[engine.ORDER_KEY])  # the same fair order out of turn
    for seat, action in moves:
        if most_rounds is not None and game.round > most_rounds:
            break
        game.apply(seat, action)
    return game


def _record(
    players: int,
    rules: Rules,
    seed: int,
    index: int,
    edition: str,
    rule_cards: Sequence[str] | None,
    kinds: IntArray | None,
    limit: int,
) -> tuple[IntArray, list[tuple[int, int]], list[tuple[str, list[int]]]]:
    """The compiled match's final state, its decisions ``(seat, action)`` and its random results,
    with room for more decisions, events and results until they fit (or ``limit`` decisions)."""
    if kinds is None:
        template = engine.template_state(players, rules, edition, rule_cards)
    else:
        template = heuristic.bots_template(players, rules, edition, rule_cards)
    template[engine.TRACE_ON] = 1
    state = np.empty_like(template)
    room = min(limit, FIRST_ROOM)  # decisions
    scale = 1  # events and trace words per decision, over 8 and 32
    while True:
        moves = np.zeros((room, 3), dtype=np.int64)
        events = np.zeros((8 * scale * max(room, 64), 4), dtype=np.int64)
        trace = np.zeros(32 * scale * max(room, 64), dtype=np.int64)
        if kinds is None:
            recorded = engine.record_random_game(state, template, seed, index, moves, events, trace)
        else:
            memory = heuristic.new_memory(template)
            recorded = heuristic.record_bots_game(
                state, template, memory, heuristic.new_generators(), kinds, seed, index, moves, events, trace
            )
        decisions, _, traced = recorded
        if decisions < 0:  # more events or random results than the arrays hold
            scale *= 2
        elif decisions == room < limit and state[engine.PHASE] != engine.OVER:
            room = min(limit, 2 * room)
        else:
            break
    faces = FastGame.of_state(state, rules).faces
    return (
        state,
        [(seat, action) for seat, action, _ in moves[:decisions].tolist()],
        engine.read_trace(trace[:traced], faces),
    )
