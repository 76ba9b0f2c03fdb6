"""The exact result of a small round when every card is known, as double-dummy solvers do for bridge.

A :class:`~unokit.engine.game.Game` knows every hand and the draw pile's order, so the rest of the
current round is a game of full information — until chance takes part: a reshuffle of the
discards when the draw pile runs out, a random lever outcome, a Jam drop, the next round's deal.
:func:`solve_round` searches every line of play to the round's end and proves who wins it under
best play by every seat; it refuses (:class:`ChanceEventError`) rather than guess when a line would
meet chance, and (:class:`PositionTooLargeError`) when the search needs more than ``max_nodes``
positions or a line runs past :data:`MAX_DEPTH` decisions.  A reshuffle of a single card is no
chance and is searched.

* **Values.**  A seat's value is 1 if its side (itself, or its team under the house rule
  ``teams``) wins the round and 0 if not.  Every seat maximises its own value (max-n); the first
  action that wins for the seat to decide ends its search (with two players this is minimax with
  alpha-beta on values 0 and 1).  When no action wins, the seat takes the first of its options in
  the order listed (the engine's legal actions, then "wait"): max-n leaves that tie open, and
  this rule closes it the same way every time.
* **Who decides, out of turn included.**  The seats are asked one at a time exactly as
  :class:`unokit.rl.cycle.DecisionCycle` asks them (and :func:`unokit.bots.runner.play_match`):
  while someone may call or catch UNO (or jump in under a house rule) those seats are asked first,
  in the engine's fair order (:mod:`unokit.engine.order`: drawn from the game's order key and the
  number of moves, never from its generator), then those who may only jump in, in play order; a
  seat asked out of turn may take any of its legal actions or :data:`WAIT`, and when all have
  waited the actor decides.
* **UNO calls are searched, not assumed**: playing a second-to-last card with or without the call,
  calling late and catching are all actions like any other, so a line that forgets the call loses
  to a catch if a catch is better for the catcher.

A transposition table keyed by the engine's :meth:`~unokit.engine.game.Game.state_key` (with the
number of moves, which the out-of-turn order depends on, and the seats that have waited) lets
transposed lines share one search.

>>> from unokit import Game, Rules
>>> from unokit.engine.deck import stacked_deck
>>> rules = Rules.from_dict({"hand_size": 1, "deck": {"R9": 1, "R2": 1, "B3": 1}})
>>> order = stacked_deck("classic", hands=[["R9"], ["B3"]], start="R2", dealer=1, rules=rules)
>>> game = Game("classic", 2, seed=1, deck=order, dealer=1, rules=rules)
>>> solution = solve_round(game)
>>> solution.seat, solution.values, [game.format_action(a) for a in solution.best]
(0, (1.0, 0.0), ['R9'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NoReturn

from unokit.engine.errors import UnoError
from unokit.engine.game import Game, same_side
from unokit.rl.cycle import out_of_turn_order

__all__ = [
    "DEFAULT_MAX_NODES",
    "MAX_DEPTH",
    "WAIT",
    "ChanceEventError",
    "PositionTooLargeError",
    "Solution",
    "SolveError",
    "solve_round",
]

DEFAULT_MAX_NODES = 200_000
"""The default node budget of :func:`solve_round`."""

MAX_DEPTH = 300
"""The longest line searched: a line of play may be endless (cards drawn and played again after
reshuffles of a single card, which are no chance), and such a round is refused as too large."""

WAIT = -1
"""The option of a seat asked out of turn to do nothing (in :attr:`Solution.action_values`)."""


class SolveError(UnoError):
    """A position :func:`solve_round` does not solve."""


class PositionTooLargeError(SolveError):
    """The search needed more positions than its node budget."""


class ChanceEventError(SolveError):
    """A line of play meets chance (a reshuffle, a random lever outcome, a Jam drop...)."""


@dataclass(frozen=True)
class Solution:
    """The proven result of a round from one position."""

    seat: int
    """The seat to decide now."""
    out_of_turn: bool
    """Whether that seat is asked out of turn (then :data:`WAIT` is one of its options)."""
    values: tuple[float, ...]
    """Each seat's value under best play: 1.0 if its side wins the round, else 0.0."""
    winner: int
    """The seat that wins the round under best play."""
    action_values: dict[int, tuple[float, ...]]
    """Every option of :attr:`seat` (legal action ids, and :data:`WAIT` out of turn) with each
    seat's value after it, in the order the options are listed."""
    best: tuple[int, ...]
    """The options of :attr:`seat` that reach its best value, in order."""
    nodes: int
    """The positions searched."""


class _Chance(Exception):
    """Raised inside the engine when it draws from its generator."""


class _NoChance:
    """A stand-in for ``game.rng`` that refuses every random draw (a shuffle of at most one card
    is no chance and passes)."""

    def getstate(self) -> str:
        return "no chance"

    def shuffle(self, cards: list[Any]) -> None:
        if len(cards) > 1:
            raise _Chance("shuffle")

    def __copy__(self) -> _NoChance:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> _NoChance:
        return self

    def __getattr__(self, name: str) -> NoReturn:
        if name.startswith("__"):
            raise AttributeError(name)
        raise _Chance(name)


_NO_CHANCE = _NoChance()


class _Search:
    def __init__(self, game: Game, max_nodes: int) -> None:
        self.round = len(game.round_results)
        self.n = game.n
        self.teams = bool(game.teams)
        self.max_nodes = max_nodes
        self.nodes = 0
        self.table: dict[tuple[Any, ...], int] = {}

    def asked(self, game: Game, waited: frozenset[int]) -> tuple[int, bool]:
        for seat in out_of_turn_order(game):
            if seat not in waited:
                return seat, True
        return game.actor, False

    def options(self, game: Game, seat: int, out_of_turn: bool) -> tuple[int, ...]:
        legal = game.legal_actions(seat)
        return (*legal, WAIT) if out_of_turn else legal

    def child(self, game: Game, seat: int, action: int, waited: frozenset[int]) -> tuple[Game, frozenset[int]] | int:
        """The position after ``action``, or the round's winner if it ends the round."""
        if action == WAIT:
            return game, waited | {seat}
        after = game.clone()
        try:
            after.apply(seat, action)
        except _Chance as chance:
            if len(after.round_results) > self.round:  # the round ended; the next deal is chance
                return after.round_results[self.round].winner
            raise ChanceEventError(
                f"the line {game.format_action(action)!r} of seat {seat} meets chance "
                f"({_chance_words(after)}); the result is not exact"
            ) from chance
        if len(after.round_results) > self.round:
            return after.round_results[self.round].winner
        return after, frozenset()

    def value(self, game: Game, waited: frozenset[int], depth: int = 1) -> int:
        """The round's winner under best play from ``game`` with ``waited`` having waited."""
        if depth > MAX_DEPTH:
            raise PositionTooLargeError(
                f"a line of the round runs past {MAX_DEPTH} decisions (cards may go round the table endlessly)"
            )
        key = (game.state_key(), len(game.history), waited)
        known = self.table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise PositionTooLargeError(f"the round needs more than {self.max_nodes} positions searched (max_nodes)")
        seat, out_of_turn = self.asked(game, waited)
        result = -1
        for action in self.options(game, seat, out_of_turn):
            after = self.child(game, seat, action, waited)
            winner = after if isinstance(after, int) else self.value(*after, depth + 1)
            if result < 0:
                result = winner
            if same_side(seat, winner, self.teams):
                result = winner
                break
        self.table[key] = result
        return result

    def values(self, winner: int) -> tuple[float, ...]:
        return tuple(1.0 if same_side(seat, winner, self.teams) else 0.0 for seat in range(self.n))


def _chance_words(game: Game) -> str:
    last = game.events[-1][0] if game.events else ""
    return {"draw": "the draw pile runs out: a reshuffle"}.get(last, "a random draw of the engine")


def solve_round(game: Game, max_nodes: int = DEFAULT_MAX_NODES) -> Solution:
    """Prove who wins the current round of ``game`` under best play (see the module's notes).

    ``game`` is not changed.  Raises :class:`ChanceEventError` when a line of play meets chance,
    :class:`PositionTooLargeError` past ``max_nodes`` positions, and :class:`SolveError` for a
    match that is over or a budget below 1."""
    if game.is_over:
        raise SolveError("the match is over; there is no round to solve")
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise SolveError(f"max_nodes must be a positive integer, not {max_nodes!r}")
    root = game.clone()
    root.rng = _NO_CHANCE  # type: ignore[assignment]
    search = _Search(root, max_nodes)
    search.nodes = 1
    seat, out_of_turn = search.asked(root, frozenset())
    winners: dict[int, int] = {}
    for action in search.options(root, seat, out_of_turn):
        after = search.child(root, seat, action, frozenset())
        winners[action] = after if isinstance(after, int) else search.value(*after)
    action_values = {action: search.values(winner) for action, winner in winners.items()}
    top = max(values[seat] for values in action_values.values())
    best = tuple(action for action, values in action_values.items() if values[seat] == top)
    return Solution(
        seat=seat,
        out_of_turn=out_of_turn,
        values=action_values[best[0]],
        winner=winners[best[0]],
        action_values=action_values,
        best=best,
        nodes=search.nodes,
    )
