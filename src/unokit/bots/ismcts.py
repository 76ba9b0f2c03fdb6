"""Information-set Monte Carlo tree search (single observer).

Each iteration samples a full game from the bot's own view
(:func:`unokit.determinize.sample_game`: hidden cards dealt consistently with hand
sizes, the discard pile and every card the bot knows another player holds), walks a
tree of (seat, action) edges shared by all samples with UCB1 weighted by how often
an edge was *available* (Cowling, Powley and Whitehouse's ISMCTS), expands one edge,
then finishes the round with a fast playout.  A node's wins count the rounds won by
the seat that took its edge.  The most visited root action is played.

Calls and catches of UNO are not searched: calling for yourself and catching others
always help, so the bot always does both (as the heuristic bot does).

The budget is a number of iterations per decision, and optionally milliseconds per
decision (whichever ends first).  With iterations alone the bot is deterministic for
its seed; a time budget makes the number of iterations depend on the machine.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from unokit.actions import ActionSpace, ActionType
from unokit.bots.base import interrupt_actions, non_interrupt_actions
from unokit.cards import CARD_COLOUR, CARD_IS_WILD, CARD_KIND, Kind
from unokit.determinize import known_cards, sample_game
from unokit.editions import get_edition
from unokit.errors import UnknownOptionError
from unokit.game import Game
from unokit.views import View

__all__ = ["IsmctsBot"]

PLAYOUT_LIMIT = 400
"""Decisions after which a playout stops and the fewest cards count as the win."""


class _Node:
    __slots__ = ("available", "children", "visits", "wins")

    def __init__(self) -> None:
        self.children: dict[tuple[int, int], _Node] = {}
        self.visits = 0
        self.wins = 0.0
        self.available = 1


class IsmctsBot:
    """Search bot; ``iterations`` (default 400) and optionally ``ms`` bound each decision."""

    def __init__(
        self,
        seed: int = 0,
        edition: str = "classic",
        name: str = "ismcts",
        iterations: int = 400,
        ms: float | None = None,
        exploration: float = 0.7,
        **options: Any,
    ) -> None:
        if options:
            raise UnknownOptionError(f"unknown option(s) for an ismcts bot: {', '.join(sorted(options))}")
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise UnknownOptionError("an ismcts bot needs a whole number of iterations, at least one")
        if ms is not None and (isinstance(ms, bool) or not isinstance(ms, (int, float)) or ms <= 0):
            raise UnknownOptionError("an ismcts bot's time budget (ms) must be a positive number")
        self.name = name
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = ms / 1000.0 if ms is not None else math.inf
        self.exploration = exploration
        self.space = get_edition(edition).actions

    # ------------------------------------------------------------ the bot interface

    def wants_interrupt(self, view: View) -> int | None:
        """Always call UNO for itself and catch anyone else."""
        offers = interrupt_actions(self.space, view.legal_actions)
        return offers[0] if offers else None

    def choose(self, view: View) -> int:
        """The most visited root action after the search."""
        moves = _undominated(self.space, non_interrupt_actions(self.space, view.legal_actions) or view.legal_actions)
        if len(moves) == 1:
            return moves[0]
        assert view.seat is not None
        root = _Node()
        known = known_cards(view)
        deadline = time.perf_counter() + self.seconds
        for _ in range(self.iterations):
            self._iterate(view, known, root)
            if time.perf_counter() >= deadline:
                break
        seat = view.seat
        visits = {a: root.children[(seat, a)].visits for a in moves if (seat, a) in root.children}
        if not visits:
            return self.rng.choice(moves)
        return max(moves, key=lambda a: (visits.get(a, -1), -moves.index(a)))

    # ------------------------------------------------------------ search

    def _iterate(self, view: View, known: list[Any], root: _Node) -> None:
        rng = self.rng
        game = sample_game(view, rng, known)
        start_round = game.round
        node = root
        path: list[tuple[int, _Node]] = []
        while self._settle_interrupts(game) and game.round == start_round:
            seat = game.actor
            moves = _undominated(
                self.space, [a for a in game.legal_actions(seat) if self.space.types[a] not in _INTERRUPTS]
            )
            children = node.children
            fresh = []
            for action in moves:
                child = children.get((seat, action))
                if child is None:
                    fresh.append(action)
                else:
                    child.available += 1
            if fresh:
                action = fresh[0] if len(fresh) == 1 else rng.choice(fresh)
                child = children[(seat, action)] = _Node()
                game.apply(seat, action)
                path.append((seat, child))
                break
            log_weight = self.exploration
            best = -1.0
            chosen = moves[0]
            for action in moves:
                child = children[(seat, action)]
                score = child.wins / child.visits + log_weight * math.sqrt(math.log(child.available) / child.visits)
                if score > best:
                    best, chosen = score, action
            node = children[(seat, chosen)]
            game.apply(seat, chosen)
            path.append((seat, node))
        winner = self._playout(game, start_round)
        for seat, child in path:
            child.visits += 1
            if seat == winner:
                child.wins += 1.0

    def _settle_interrupts(self, game: Game) -> bool:
        """Resolve open UNO windows at random (call or be caught); False once the match is over."""
        space = self.space
        while game.exposed and not game.is_over:
            target = game.exposed[0]
            if self.rng.random() < 0.5:
                game.apply(target, space.call_uno)
            else:
                catcher = (target + 1) % game.n
                game.apply(catcher, space.id(ActionType.CATCH, target))
        return not game.is_over

    def _playout(self, game: Game, start_round: int) -> int:
        """Finish the round with a fast policy; the seat that wins it (or holds fewest cards)."""
        rng = self.rng
        types = self.space.types
        for _ in range(PLAYOUT_LIMIT):
            if not self._settle_interrupts(game) or game.round != start_round:
                break
            seat = game.actor
            legal = game.legal_actions(seat)
            game.apply(seat, _playout_action(game, seat, legal, types, rng))
        for kind, seat, _, _ in reversed(game.events):
            if kind == "round_end":
                if game.round != start_round or game.is_over:
                    return seat
                break
        sizes = [len(hand) for hand in game.hands]
        return sizes.index(min(sizes))


_INTERRUPTS = frozenset({ActionType.CALL_UNO, ActionType.CATCH})


def _undominated(space: ActionSpace, moves: Sequence[int]) -> tuple[int, ...]:
    """Drop playing a card without calling UNO when the same play with the call is legal."""
    types = space.types
    if not any(types[a] == ActionType.PLAY_UNO for a in moves):
        return tuple(moves)
    faces = len(space.faces)
    calls = {a - faces for a in moves if types[a] == ActionType.PLAY_UNO}
    return tuple(a for a in moves if not (types[a] == ActionType.PLAY and a in calls))


_PLAYS = frozenset({ActionType.PLAY, ActionType.PLAY_UNO})
_ATTACKS = frozenset(
    {Kind.DRAW_TWO, Kind.SKIP, Kind.WILD_DRAW_FOUR, Kind.WILD_DRAW_TWO, Kind.WILD_SKIP, Kind.WILD_SKIP_TWO}
)


def _playout_action(game: Game, seat: int, legal: tuple[int, ...], types: list[ActionType], rng: random.Random) -> int:
    """Play a card when possible (calling UNO; an attacking card when the next player is
    close to going out; coloured before wild), name the colour held most, accept a Wild
    Draw Four, otherwise pick at random."""
    space = game.actions
    plays = [a for a in legal if types[a] in _PLAYS]
    if plays:
        calls = [a for a in plays if types[a] == ActionType.PLAY_UNO]
        pool = calls or plays
        if len(game.hands[game.next_seat(seat)]) <= 2:
            attacks = [a for a in pool if CARD_KIND[space.args[a]] in _ATTACKS]
            pool = attacks or pool
        coloured = [a for a in pool if not CARD_IS_WILD[space.args[a]]]
        pool = coloured or pool
        return pool[0] if len(pool) == 1 else rng.choice(pool)
    kind = types[legal[0]]
    if kind == ActionType.COLOUR:
        counts = [0] * 6
        for card in game.hands[seat]:
            counts[CARD_COLOUR[card]] += 1
        return max(legal, key=lambda a: counts[space.args[a]])
    if kind == ActionType.CHALLENGE:
        return space.accept
    return legal[0] if len(legal) == 1 else rng.choice(legal)
