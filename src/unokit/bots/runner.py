"""Play whole matches between bots.

Each step the runner first offers the out-of-turn decisions: while an UNO window is
open, every decider whose legal actions include a call or a catch is asked
``wants_interrupt(view)`` in the fair order of :mod:`unokit.engine.order` (drawn afresh at
every move from the game's seed, not by seat number); the first action returned is applied
and the step starts again.  Then, while a Jump-In window is open (house rule ``jump_in``), every
player who may jump in is asked ``wants_interrupt(view)`` in play order from the actor, once
(the nearest jumper has the fastest hand); the first jump-in returned is applied.  When
nobody interrupts, the actor is asked ``choose(view)``.
Bots only ever receive ``game.view(seat)``; an action that is not among the view's
legal actions raises :class:`RuntimeError` naming the bot (it is never replaced).

>>> from unokit.bots.base import make_bot
>>> def table():
...     return [make_bot(kind, seed=s, edition="classic") for s, kind in enumerate(["heuristic", "random", "random"])]
>>> result = play_game("classic", table(), seed=5, rules={"scoring": "single-round"})
>>> result.rounds, result.round_winners == [result.winner]
(1, True)
>>> play_game("classic", table(), seed=5, rules={"scoring": "single-round"}).events == result.events
True
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from unokit.bots.base import Bot
from unokit.editions import get_edition
from unokit.engine.actions import INTERRUPT_TYPES, JUMP_TYPES, ActionSpace, plain_id
from unokit.engine.errors import SetupError
from unokit.engine.events import Event
from unokit.engine.game import Game
from unokit.engine.order import fair_order
from unokit.engine.rules import Rules
from unokit.engine.views import View

__all__ = ["GameResult", "play_game", "play_match"]


@dataclass
class GameResult:
    """The outcome of one match between bots."""

    edition: str
    players: int
    seed: int
    winner: int
    """Match winner seat."""
    rounds: int
    round_winners: list[int]
    """Winner seat of each round, in order."""
    scores: list[int]
    """Final scores by seat."""
    decisions: list[int]
    """Actions applied per seat (turn decisions and UNO calls/catches)."""
    think_seconds: list[float]
    """Total time spent in ``choose`` and ``wants_interrupt`` per seat."""
    events: list[Event]
    """The full event log (secrets included: it is for statistics, not for bots)."""


def play_game(
    edition: str,
    bots: Sequence[Bot],
    seed: int,
    rules: Rules | dict[str, Any] | None = None,
    rule_cards: Sequence[str] | None = None,
    max_decisions: int = 2_000_000,
) -> GameResult:
    """Play a match of ``edition`` seeded with ``seed``; seat ``i`` is ``bots[i]``."""
    game = Game(edition, len(bots), seed=seed, rules=rules, rule_cards=rule_cards)
    return play_match(game, bots, max_decisions=max_decisions)


def play_match(game: Game, bots: Sequence[Bot], max_decisions: int = 2_000_000) -> GameResult:
    """Play an already set-up ``game`` (e.g. from a stacked deck) to its end; seat ``i`` is ``bots[i]``.

    Raises :class:`RuntimeError` if a bot returns an illegal action or the match takes
    more than ``max_decisions`` actions."""
    n = game.n
    if len(bots) != n:
        raise SetupError(f"{n} players need {n} bots, not {len(bots)}")
    space = game.actions
    interrupt_ids = frozenset(a for a in range(space.size) if space.types[a] in INTERRUPT_TYPES)
    jump_ids = frozenset(a for a in range(space.size) if space.types[a] in JUMP_TYPES)
    out_of_turn = interrupt_ids | jump_ids
    jumping = bool(getattr(game, "jumping", False))
    decisions = [0] * n
    think = [0.0] * n
    total = 0
    clock = time.perf_counter

    def asked(seat: int) -> tuple[int | None, View]:
        """What the bot of ``seat`` does out of turn now (``None``: nothing), and the view it saw."""
        view = game.view(seat)
        ask = getattr(bots[seat], "wants_interrupt", None)
        if ask is None:
            return None, view
        started = clock()
        action: int | None = ask(view)
        think[seat] += clock() - started
        return action, view

    while not game.is_over:
        if total >= max_decisions:
            raise RuntimeError(f"the match took more than {max_decisions} decisions")
        deciders = game.deciders()
        interrupted = False
        if game.exposed:
            for seat in fair_order(game.order_key, game.moves, deciders):
                if interrupt_ids.isdisjoint(game.legal_actions(seat)):
                    continue
                action, view = asked(seat)
                if action is None or (jumping and action in jump_ids):
                    continue  # a jump-in waits for its turn below, in play order
                if action not in interrupt_ids:
                    raise RuntimeError(_refusal(bots[seat], seat, action, view, "an interrupt (call UNO / catch)"))
                _apply(game, bots[seat], seat, action, view)
                decisions[seat] += 1
                total += 1
                interrupted = True
                break
        if not interrupted and jumping and len(deciders) > 1:
            actor = game.actor
            for step in range(1, n):
                seat = (actor + game.direction * step) % n  # every other seat once (seats out hold no jump)
                if seat not in deciders or jump_ids.isdisjoint(game.legal_actions(seat)):
                    continue
                action, view = asked(seat)
                if action is None:
                    continue
                if action not in out_of_turn:
                    raise RuntimeError(_refusal(bots[seat], seat, action, view, "a jump-in, an UNO call or a catch"))
                _apply(game, bots[seat], seat, action, view)
                decisions[seat] += 1
                total += 1
                interrupted = True
                break
        if interrupted:
            continue
        seat = game.actor
        bot = bots[seat]
        view = game.view(seat)
        started = clock()
        action = bot.choose(view)
        think[seat] += clock() - started
        _apply(game, bot, seat, action, view)
        decisions[seat] += 1
        total += 1
    return GameResult(
        edition=game.edition.name,
        players=n,
        seed=game.seed,
        winner=game.winner,
        rounds=game.round,
        round_winners=[e[1] for e in game.events if e[0] == "round_end"],
        scores=list(game.scores),
        decisions=decisions,
        think_seconds=think,
        events=list(game.events),
    )


def _apply(game: Game, bot: Bot, seat: int, action: object, view: View) -> None:
    action = plain_id(action)  # NumPy's integers (a policy's argmax) are action ids too
    if type(action) is not int or action not in view.legal_actions:
        raise RuntimeError(_refusal(bot, seat, action, view, "a legal action"))
    game.apply(seat, action)


def _refusal(bot: Bot, seat: int, action: object, view: View, wanted: str) -> str:
    space = _space(view)
    try:
        text = space.format(action) if type(action) is int else repr(action)
    except ValueError:
        text = repr(action)
    legal = ", ".join(space.format(a) for a in view.legal_actions)
    name = getattr(bot, "name", type(bot).__name__)
    return f"bot {name!r} at seat {seat} returned {text} ({action!r}), not {wanted}; legal: {legal}"


def _space(view: View) -> ActionSpace:
    return get_edition(view.edition).actions
