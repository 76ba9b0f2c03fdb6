"""The exact result of a small round when every card is known, as double-dummy solvers do for bridge.

A :class:`~unokit.engine.game.Game` knows every hand and the draw pile's order, so the rest of the
current round is a game of full information — until chance takes part: a reshuffle of the
discards when the draw pile runs out, a random lever outcome, a Jam drop, the next round's deal.
:func:`solve_round` searches every line of play to the round's end and proves who wins it under
best play by every seat.  A line that meets chance has an unknown result: it does not matter where
the seat to decide has an option proven to win, and otherwise the result above it is unknown too.
:func:`solve_round` refuses (:class:`ChanceEventError`) rather than guess when the value of an
option of the seat to decide now is unknown, and (:class:`PositionTooLargeError`) when the
search needs more than ``max_nodes`` positions or a line runs past :data:`MAX_DEPTH` decisions.
A reshuffle of a single card is no chance and is searched.

* **Values.**  A seat's value is 1 if its side (itself, or its team under the house rule
  ``teams``) wins the round and 0 if not.  Every seat maximises its own value (max-n); the first
  action that wins for the seat to decide ends its search (with two players this is minimax with
  alpha-beta on values 0 and 1).  When no action wins, the seat takes the first of its options in
  the order listed (the engine's legal actions, then "wait"): max-n leaves that tie open, and
  this rule closes it the same way every time.
* **Endless lines.**  After reshuffles of a single card the same cards can go round the table
  for ever (draw it, play it, draw it again).  A line that comes back to a position it has passed
  through (the same :func:`position_key` and the same seats having waited; the out-of-turn order
  aside) is
  cut there as a round nobody wins: every seat values it 0, so a seat loops only when nothing
  wins for it, and :attr:`Solution.winner` is -1 when best play loops.  Results that met such a
  cut depend on the line that led to them and are not kept in the table.
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

A transposition table keyed by :func:`position_key` (the engine's state key, hands sorted),
the number of moves (the out-of-turn order depends on it) and the seats that have waited lets
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
from unokit.engine.order import out_of_turn_order

__all__ = [
    "DEFAULT_MAX_NODES",
    "MAX_DEPTH",
    "WAIT",
    "ChanceEventError",
    "PositionTooLargeError",
    "Solution",
    "SolveError",
    "position_key",
    "solve_round",
]

DEFAULT_MAX_NODES = 200_000
"""The default node budget of :func:`solve_round`."""

MAX_DEPTH = 200
"""The longest line searched (a round whose lines run longer is refused as too large)."""

UNKNOWN = -3
"""A result chance decides (the search's own marker)."""

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
    """Each seat's value under best play: 1.0 if its side wins the round, else 0.0 (all 0.0 when
    best play goes round for ever)."""
    winner: int
    """The seat that wins the round under best play (-1: best play goes round for ever)."""
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
        self.chance = ""
        """The first chance met, in words."""
        self.path: set[tuple[Any, ...]] = set()

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
            if not self.chance:
                self.chance = f"{_chance_words(chance)}, after {game.format_action(action)!r} of seat {seat}"
            return UNKNOWN
        if len(after.round_results) > self.round:
            return after.round_results[self.round].winner
        return after, frozenset()

    def value(self, game: Game, waited: frozenset[int]) -> tuple[int, bool]:
        """The round's winner under best play from ``game`` with ``waited`` having waited (-1: the
        line goes round forever), and whether that result depends on the line that led here (it
        met a position of that line again; such results are not kept in the table)."""
        here = (position_key(game), waited)
        if here in self.path:
            return -1, True
        if len(self.path) >= MAX_DEPTH:
            raise PositionTooLargeError(f"a line of the round runs past {MAX_DEPTH} decisions")
        key = (here, len(game.history))
        known = self.table.get(key)
        if known is not None:
            return known, False
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise PositionTooLargeError(f"the round needs more than {self.max_nodes} positions searched (max_nodes)")
        self.path.add(here)
        seat, out_of_turn = self.asked(game, waited)
        result, tainted, unknown = -2, False, False
        for action in self.options(game, seat, out_of_turn):
            winner, looped = self.after(game, seat, action, waited)
            if self.wins(seat, winner):
                result, tainted, unknown = winner, looped, False
                break
            if result == -2:
                result = winner
            tainted = tainted or looped
            unknown = unknown or winner == UNKNOWN
        if unknown:  # no option is known to win, and one may: chance decides
            result = UNKNOWN
        self.path.discard(here)
        if not tainted:
            self.table[key] = result
        return result, tainted

    def after(self, game: Game, seat: int, action: int, waited: frozenset[int]) -> tuple[int, bool]:
        """The round's winner under best play after ``action`` of ``seat`` (see :meth:`value`)."""
        child = self.child(game, seat, action, waited)
        return (child, False) if isinstance(child, int) else self.value(*child)

    def wins(self, seat: int, winner: int) -> bool:
        return winner >= 0 and same_side(seat, winner, self.teams)

    def values(self, winner: int) -> tuple[float, ...]:
        return tuple(1.0 if self.wins(seat, winner) else 0.0 for seat in range(self.n))


def position_key(game: Game) -> tuple[Any, ...]:
    """The game's :meth:`~unokit.engine.game.Game.state_key` with each hand sorted: the order in
    which a hand's cards came to it changes no rule, and positions that differ by it alone are one.

    >>> from unokit import Game
    >>> game = Game("classic", 2, seed=1)
    >>> other = game.clone()
    >>> other.hands[0].reverse()
    >>> position_key(game) == position_key(other) and game.state_key() != other.state_key()
    True
    """
    key = list(game.state_key())
    key[10] = tuple(tuple(sorted(hand)) for hand in game.hands)
    return tuple(key)


def _chance_words(chance: _Chance) -> str:
    drawn = str(chance)
    if drawn == "shuffle":
        return "a shuffle: the draw pile runs out and the discards are reshuffled"
    return f"a random draw of the engine ({drawn})"


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
    search.path.add((position_key(root), frozenset()))
    seat, out_of_turn = search.asked(root, frozenset())
    winners = {
        action: search.after(root, seat, action, frozenset())[0] for action in search.options(root, seat, out_of_turn)
    }
    unknown = [root.format_action(action) for action, winner in winners.items() if winner == UNKNOWN]
    if unknown:
        raise ChanceEventError(
            f"the value of {', '.join(unknown)} (seat {seat}) depends on chance: {search.chance}; "
            "the solver finds no exact result"
        )
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
