"""Information-set Monte Carlo search (single observer): a tree, or rollouts of each move.

Both sample full games from the bot's own view (:func:`unokit.determinize.sample_game`: hidden
cards dealt consistently with hand sizes, the discard pile, every card the bot knows another
player holds and colours a player seems to lack).

``method="rollouts"`` (where the compiled heuristic bot plays the game: the ``fast`` extra,
every rule option the compiled engine plays; the default in Classic UNO and UNO Space
Jam, :data:`AUTO_ROLLOUTS`) values each move by heuristic rollouts: from each sampled deal,
its draw pile shuffled anew for each repetition, every move is played and heuristic bots at
every seat finish the round (:func:`unokit.fast.heuristic.rollout_wins`); the move whose
rounds are won most often is played.  The moves are compared on the same deals, draws and
tie-breaks, so their difference is measured far more precisely than their values: this is one
step of policy improvement over the heuristic bot, on thousands of rollouts per decision.

``method="tree"`` walks a tree of (seat, action) edges shared by all samples with
UCB1 weighted by how often an edge was *available* (Cowling, Powley and Whitehouse's
ISMCTS), expands one edge, then finishes the round with a fast playout.  A node's wins
count the rounds won by the seat that took its edge.

Calls and catches of UNO are not searched: calling for yourself and catching others
always help, so the bot always does both (as the heuristic bot does).  Jump-ins (house
rule ``jump_in``) are not searched either: the bot jumps in when the heuristic bot would,
and in the tree's samples and playouts the nearest player who may jump in does so half the
time (at the root the other players have already let the window pass).

The search may be guided by the heuristic bot (prior knowledge, as in MoGo): the
heuristic's choice is played unless the search finds another action better by more
than ``margin`` standard errors of the two estimates (``margin=None``: the search alone).
The tree is guided by default (``margin=1``): its estimates are noisy; rollouts are not
(their paired estimates are precise enough to stand alone).

The budget is a number of iterations (tree iterations, or rollouts) per decision, and
optionally milliseconds per decision (whichever ends first).  With iterations alone the bot is
deterministic for its seed; a time budget makes the number of iterations depend on the machine.

The rollouts and the Python playout are functions of this module (:func:`rollout_outcomes`,
:func:`python_rollout_outcomes`, :func:`python_playout`) that :mod:`unokit.analysis.ratings` calls
too, so that a move's rating is the value this bot gives it.

The tree's playouts run on the compiled engine (:func:`unokit.fast.engine.playout`, the same
quick policy; ``playout_policy="heuristic"``: the compiled heuristic bot) where it is installed
and plays the game (Classic UNO, UNO Space Jam, UNO All Wild and UNO Wild Jackpot under the
rules it plays; the heuristic playouts read the rule cards shown so far, as the Python bot does):
``playouts="auto"`` (the default), ``"fast"`` or ``"python"``.  The compiled playouts and
rollouts draw from generators seeded by the bot's own, so the bot stays deterministic for its seed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from unokit.bots.base import interrupt_actions, jump_actions, non_interrupt_actions
from unokit.bots.heuristic import HeuristicBot
from unokit.bots.playout import playout_action
from unokit.determinize import known_cards, lacked_colours, sample_game
from unokit.editions import get_edition
from unokit.engine.actions import ActionSpace, ActionType
from unokit.engine.errors import UnknownOptionError
from unokit.engine.game import Game, same_side
from unokit.engine.views import View

__all__ = ["IsmctsBot", "python_playout", "python_rollout_outcomes", "rollout_outcomes", "settle_interrupts"]

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
    """Search bot: ``method`` ``tree`` (ISMCTS) or ``rollouts`` (``auto``: rollouts in the
    editions of :data:`AUTO_ROLLOUTS` where the compiled heuristic bot plays the game, else the
    tree).  ``iterations`` (default: 400 tree iterations, 10,000 rollouts) and optionally ``ms``
    bound each decision; ``margin`` (default: 1 for the tree, ``None`` for rollouts) guards the
    heuristic's choice."""

    def __init__(
        self,
        seed: int = 0,
        edition: str = "classic",
        name: str = "ismcts",
        iterations: int | None = None,
        ms: float | None = None,
        exploration: float = 0.7,
        margin: float | str | None = "auto",
        playouts: str = "auto",
        playout_policy: str = "quick",
        method: str = "auto",
        **options: Any,
    ) -> None:
        if method not in METHODS:
            raise UnknownOptionError(f"an ismcts bot's method is {', '.join(METHODS)}, not {method!r}")
        if playout_policy not in ("quick", "heuristic"):
            raise UnknownOptionError(f"an ismcts bot's playout policy is quick or heuristic, not {playout_policy!r}")
        self.playout_policy = playout_policy
        if playouts not in ("auto", "fast", "python"):
            raise UnknownOptionError(f"an ismcts bot's playouts are auto, fast or python, not {playouts!r}")
        self.playouts = playouts
        self._fast: Any = None
        compiled = ("classic", "space-jam", "all-wild", "wild-jackpot")  # quick and heuristic playouts alike
        wanted = playouts == "fast" or method == "rollouts"
        if playouts != "python" and edition in compiled:
            try:
                from unokit.fast import engine as fast_engine
            except ImportError as error:
                if wanted:
                    what = "rollouts" if method == "rollouts" else "playouts"
                    raise UnknownOptionError(f"an ismcts bot's {what}: {error}") from error
            else:
                assert set(compiled) <= set(fast_engine.EDITIONS)
                self._fast = fast_engine
                if playout_policy == "heuristic" or method != "tree":
                    from unokit.fast import heuristic as fast_heuristic

                    self._fast_heuristic: Any = fast_heuristic
        elif wanted:
            raise UnknownOptionError(
                f"compiled {'rollouts' if method == 'rollouts' else playout_policy + ' playouts'} play "
                f"{', '.join(compiled)}, not {edition}"
                if playouts != "python"
                else "an ismcts bot's rollouts run on the compiled engine, which playouts='python' leaves out"
            )
        rollouts = method == "rollouts" or (method == "auto" and edition in AUTO_ROLLOUTS)
        self.method = "rollouts" if rollouts and self._fast is not None else "tree"
        """The search the bot runs where the compiled heuristic bot plays the game (elsewhere the tree)."""
        self._fast_rules: dict[tuple[Any, bool], bool] = {}
        self._rngs: Any = None
        if self._fast is not None and (playout_policy == "heuristic" or self.method == "rollouts"):
            self._rngs = self._fast_heuristic.new_generators()
        if options:
            raise UnknownOptionError(f"unknown option(s) for an ismcts bot: {', '.join(sorted(options))}")
        if iterations is not None and (
            isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1
        ):
            raise UnknownOptionError("an ismcts bot needs a whole number of iterations, at least one")
        if ms is not None and (isinstance(ms, bool) or not isinstance(ms, (int, float)) or ms <= 0):
            raise UnknownOptionError("an ismcts bot's time budget (ms) must be a positive number")
        self.name = name
        self.rng = random.Random(seed)
        self.iterations = iterations if iterations is not None else TREE_ITERATIONS
        """Tree iterations per decision."""
        self.rollouts = iterations if iterations is not None else ROLLOUTS
        """Rollouts per decision (all moves together)."""
        self.seconds = ms / 1000.0 if ms is not None else math.inf
        if (
            margin != "auto"
            and margin is not None
            and (isinstance(margin, bool) or not isinstance(margin, (int, float)) or margin < 0)
        ):
            raise UnknownOptionError("an ismcts bot's margin must be a number of standard errors, at least 0")
        self.exploration = exploration
        self.margin: float | None = 1.0 if margin == "auto" else margin  # type: ignore[assignment]
        """The tree's guard of the heuristic's choice, in standard errors (``None``: no guard)."""
        self.rollout_margin: float | None = None if margin == "auto" else margin  # type: ignore[assignment]
        """The rollouts' guard (by default none: their estimates are paired and precise)."""
        self.guide = HeuristicBot(seed=seed, edition=edition) if margin is not None else None
        self.jumper = self.guide or HeuristicBot(seed=seed, edition=edition)
        """Decides the bot's jump-ins."""
        self.space = get_edition(edition).actions

    # ------------------------------------------------------------ the bot interface

    def wants_interrupt(self, view: View) -> int | None:
        """Always call UNO for itself and catch anyone else; jump in as the heuristic bot would."""
        offers = interrupt_actions(self.space, view.legal_actions)
        if offers:
            return offers[0]
        if jump_actions(self.space, view.legal_actions):
            return self.jumper.wants_interrupt(view)
        return None

    def choose(self, view: View) -> int:
        """The most visited root action after the search."""
        moves = _undominated(self.space, non_interrupt_actions(self.space, view.legal_actions) or view.legal_actions)
        if len(moves) == 1:
            return moves[0]
        assert view.seat is not None
        known = (known_cards(view), lacked_colours(view.history, view.players))
        deadline = time.perf_counter() + self.seconds
        if self.method == "rollouts":
            chosen = self._choose_by_rollouts(view, moves, known, deadline)
            if chosen is not None:
                return chosen
        root = _Node()
        for _ in range(self.iterations):
            self._iterate(view, known, root)
            if time.perf_counter() >= deadline:
                break
        seat = view.seat
        stats = {a: root.children[(seat, a)] for a in moves if (seat, a) in root.children}
        if not stats:
            return self.rng.choice(moves)
        best = max(moves, key=lambda a: (stats[a].visits if a in stats else -1, -moves.index(a)))
        if self.guide is None or self.margin is None:
            return best
        guided = self.guide.choose(view)
        if guided == best or guided not in stats:
            return best
        return best if _better(stats[best], stats[guided], self.margin) else guided

    # ------------------------------------------------------------ rollouts

    def _choose_by_rollouts(
        self, view: View, moves: tuple[int, ...], known: tuple[list[Any], list[set[int]]], deadline: float
    ) -> int | None:
        """Each move valued by heuristic rollouts from sampled deals (compiled; ``None`` where the
        compiled heuristic bot does not play the game)."""
        rng = self.rng
        seat = view.seat
        assert seat is not None
        outcomes = rollout_outcomes(
            lambda: sample_game(view, rng, *known),
            seat,
            moves,
            self.rollouts,
            rng,
            self._rngs,
            known[1],
            deadline,
            plays=lambda game: self._fast_plays(game, rollouts=True),
        )
        if outcomes is None:
            return None
        values = outcomes.mean(axis=0)
        best = int(values.argmax())  # (the first of the best, in action order)
        margin = self.rollout_margin
        if margin is None or self.guide is None:
            return moves[best]
        guided = self.guide.choose(view)
        if guided not in moves or moves[best] == guided:
            return moves[best]
        differences = outcomes[:, best] - outcomes[:, moves.index(guided)]  # paired: the same deals
        variance = float(differences.var(ddof=1)) if len(differences) > 1 else 1.0
        spread = math.sqrt(max(variance, 1e-9) / len(differences))
        return moves[best] if float(differences.mean()) > margin * spread else guided

    # ------------------------------------------------------------ search

    def _iterate(self, view: View, known: tuple[list[Any], list[set[int]]], root: _Node) -> None:
        rng = self.rng
        game = sample_game(view, rng, *known)
        start_round = game.round
        node = root
        path: list[tuple[int, _Node]] = []
        jumps = False  # at the root the other players have let a jump window pass
        while self._settle_interrupts(game, jumps) and game.round == start_round:
            jumps = True
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
        if self._fast is not None and game.round == start_round and self._fast_plays(game):
            winner = self._fast_playout(game, known[1])
        else:
            winner = self._playout(game, start_round)
        teams = bool(game.teams)
        for seat, child in path:
            child.visits += 1
            if same_side(seat, winner, teams):  # a partner's win is the team's
                child.wins += 1.0

    def _settle_interrupts(self, game: Game, jumps: bool = True) -> bool:
        """:func:`settle_interrupts` with the bot's generator."""
        return settle_interrupts(game, self.rng, self.space, jumps)

    def _fast_plays(self, game: Game, rollouts: bool = False) -> bool:
        """Whether the compiled engine plays ``game``'s rules for the tree's playouts (``rollouts``:
        for rollouts of the compiled heuristic bot, which plays every rule the engine plays; worked
        out once per rules).  With ``playouts="fast"`` the playouts must run compiled; rollouts fall
        back to the tree."""
        key = (game.rules, rollouts)
        plays = self._fast_rules.get(key)
        if plays is None:
            try:
                self._fast.check_rules(game.rules, game.edition.name)
            except UnknownOptionError:
                if self.playouts == "fast" and not rollouts:
                    raise
                plays = False
            else:
                plays = True
            self._fast_rules[key] = plays
        return plays and not game.is_over

    def _fast_playout(self, game: Game, lacked: list[set[int]]) -> int:
        """:meth:`_playout` on the compiled engine, from ``game``'s position (``playout_policy``
        ``heuristic``: every seat played by the compiled heuristic bot, which reads ``lacked``)."""
        fast = self._fast
        state = fast.state_from_game(game, self.rng.getrandbits(62))
        if self.playout_policy == "heuristic":
            table = self._fast_heuristic
            memory = table.memory_for_position(state, lacked, game.extra.get("shown", ()))
            rngs = self._rngs
            for seat in range(game.n):
                table.mt_seed_later(rngs[seat], self.rng.getrandbits(32))
            return int(table.heuristic_playout(state, memory, rngs, PLAYOUT_LIMIT))
        return int(fast.playout(state, PLAYOUT_LIMIT))

    def _playout(self, game: Game, start_round: int) -> int:
        """:func:`python_playout` with the bot's generator."""
        return python_playout(game, start_round, self.rng, self.space)


_INTERRUPTS = frozenset({ActionType.CALL_UNO, ActionType.CATCH})
METHODS = ("auto", "tree", "rollouts")
"""How the bot searches: ``tree`` (ISMCTS), ``rollouts`` (each move valued by compiled heuristic
rollouts), ``auto`` (rollouts in the editions of :data:`AUTO_ROLLOUTS`, else the tree)."""
AUTO_ROLLOUTS = ("classic", "space-jam")
"""The editions where ``method="auto"`` values moves by rollouts: measured in Classic UNO (as strong as
the tree with 2 players, stronger with 4; README, Strength), whose play UNO Space Jam shares.  In UNO
All Wild and UNO Wild Jackpot rollouts measured no clearly better than the tree against the heuristic
bot (All Wild 87% against 80% with 2 players, 45% against 50% with 4; Wild Jackpot 56% against 58%
with 2), so the tree stays."""
TREE_ITERATIONS = 400
"""Tree iterations per decision by default."""
ROLLOUTS = 10_000
"""Rollouts per decision by default (about 190 ms of one core in Classic UNO, README, Strength)."""
ROLLOUT_REPEATS = 8
"""Rollouts of each move from one sampled deal (its draw pile shuffled anew for each)."""


def _better(challenger: _Node, incumbent: _Node, margin: float) -> bool:
    """Whether ``challenger``'s win rate beats ``incumbent``'s by ``margin`` standard errors."""
    if challenger.visits == 0 or incumbent.visits == 0:
        return False
    p1 = challenger.wins / challenger.visits
    p2 = incumbent.wins / incumbent.visits
    pooled = (challenger.wins + incumbent.wins) / (challenger.visits + incumbent.visits)
    spread = math.sqrt(max(pooled * (1 - pooled), 1e-9) * (1 / challenger.visits + 1 / incumbent.visits))
    return p1 - p2 > margin * spread


def _undominated(space: ActionSpace, moves: Sequence[int]) -> tuple[int, ...]:
    """Drop playing a card without calling UNO when the same play with the call is legal."""
    types = space.types
    if not any(types[a] == ActionType.PLAY_UNO for a in moves):
        return tuple(moves)
    faces = len(space.faces)
    calls = {a - faces for a in moves if types[a] == ActionType.PLAY_UNO}
    return tuple(a for a in moves if not (types[a] == ActionType.PLAY and a in calls))


def settle_interrupts(game: Game, rng: random.Random, space: ActionSpace, jumps: bool = True) -> bool:
    """Resolve open UNO windows at random (call or be caught), then, when ``jumps``, an open
    Jump-In window (the nearest player who may jump in does so half the time, calling UNO);
    False once the match is over."""
    while not game.is_over:
        if game.exposed:
            target = game.exposed[0]
            if rng.random() < 0.5:
                game.apply(target, space.call_uno)
            else:
                catcher = (target + 1) % game.n
                if game.teams or game.players_in < game.n:  # not a partner, nor a seat out
                    catch = space.id(ActionType.CATCH, target)
                    catcher = next(s for s in game.deciders() if catch in game.legal_actions(s))
                game.apply(catcher, space.id(ActionType.CATCH, target))
            continue
        if not jumps:
            break
        deciders = game.deciders()
        if len(deciders) == 1 or rng.random() >= 0.5:
            break
        actor = game.actor
        jumper = next(s for s in (game.next_seat(actor, step) for step in range(1, game.n)) if s in deciders)
        game.apply(jumper, max(game.legal_actions(jumper)))
    return not game.is_over


def python_playout(game: Game, start_round: int, rng: random.Random, space: ActionSpace) -> int:
    """Finish the round with a fast policy (:func:`unokit.bots.playout.playout_action`, interrupts
    settled by :func:`settle_interrupts`); the seat that wins it (or, after :data:`PLAYOUT_LIMIT`
    decisions, the first holding the fewest cards)."""
    types = space.types
    for _ in range(PLAYOUT_LIMIT):
        if not settle_interrupts(game, rng, space) or game.round != start_round:
            break
        seat = game.actor
        legal = game.legal_actions(seat)
        game.apply(seat, playout_action(game, seat, legal, types, rng))
    for kind, seat, _, _ in reversed(game.events):
        if kind == "round_end":
            if game.round != start_round or game.is_over:
                return seat
            break
    hands = game.hands
    return min(game.seats_in(), key=lambda seat: len(hands[seat]))  # (the first of the fewest)


def rollout_outcomes(
    sample: Callable[[], Game],
    seat: int,
    moves: Sequence[int],
    budget: int,
    rng: random.Random,
    generators: Any,
    lacked: list[set[int]],
    deadline: float = math.inf,
    plays: Callable[[Game], bool] | None = None,
) -> Any:
    """The compiled heuristic rollouts of ``moves`` (legal for ``seat``), as the bot values them:
    a 0/1 array of shape (repetitions, moves), 1 where the round after the move was won by ``seat``
    or its partner (:func:`unokit.fast.heuristic.rollout_wins`); ``None`` where a sampled game is
    one the compiled heuristic bot does not play (``plays`` false, or rules the compiled engine refuses).

    Until ``budget`` rollouts (all moves together) are played or ``deadline`` (of
    :func:`time.perf_counter`) passes, ``sample()`` gives a full game (drawn with ``rng``), from
    which each move is rolled out :data:`ROLLOUT_REPEATS` times, the draw pile shuffled anew each
    time, every move on the same deal, draws and tie-breaks.  ``generators`` is
    :func:`unokit.fast.heuristic.new_generators`'s room, ``lacked`` the colours each seat seems to
    lack (:func:`unokit.determinize.lacked_colours`), read by the heuristic bots."""
    import numpy as np  # (installed with the compiled engine)

    from unokit.fast import engine as fast
    from unokit.fast import heuristic as table

    actions = np.array(moves, dtype=np.int64)
    blocks = []
    done = 0
    work: Any = None
    while done < budget:
        game = sample()
        if (plays is not None and not plays(game)) or game.is_over:
            return None
        try:
            state = fast.state_from_game(game, rng.getrandbits(62))
        except UnknownOptionError:
            return None
        if work is None:
            work = np.empty_like(state)
        memory = table.memory_for_position(state, lacked, game.extra.get("shown", ()))
        repeats = max(1, min(ROLLOUT_REPEATS, (budget - done) // len(moves)))
        seeds = np.array([rng.getrandbits(32) for _ in range(repeats * game.n)], dtype=np.int64)
        wins = np.empty((repeats, len(moves)), dtype=np.int64)
        table.rollout_wins(
            state, memory, generators, seat, actions, seeds, PLAYOUT_LIMIT, work, np.empty_like(memory), wins
        )
        blocks.append(wins)
        done += repeats * len(moves)
        if time.perf_counter() >= deadline:
            break
    return np.concatenate(blocks)


def python_rollout_outcomes(
    sample: Callable[[], Game],
    seat: int,
    moves: Sequence[int],
    budget: int,
    rng: random.Random,
    space: ActionSpace,
    deadline: float = math.inf,
) -> list[list[int]]:
    """:func:`rollout_outcomes` on the Python engine, finished by :func:`python_playout` (for the
    games the compiled engine does not play): rows of 0/1 per move, the moves of a row compared on
    the same deal, draw pile order, engine generator and playout generator."""
    rows: list[list[int]] = []
    done = 0
    while done < budget:
        game = sample()
        start_round = game.round
        teams = bool(game.teams)
        repeats = max(1, min(ROLLOUT_REPEATS, (budget - done) // len(moves)))
        for _ in range(repeats):
            base = game.clone()
            base.rng = random.Random(rng.getrandbits(63))
            base.rng.shuffle(base.draw_pile)
            playout_seed = rng.getrandbits(63)
            row = []
            for action in moves:
                after = base.clone()
                after.apply(seat, action)
                winner = python_playout(after, start_round, random.Random(playout_seed), space)
                row.append(1 if same_side(seat, winner, teams) else 0)
            rows.append(row)
        done += repeats * len(moves)
        if time.perf_counter() >= deadline:
            break
    return rows
