"""Who is asked next, out-of-turn decisions included, and the extra "wait" action.

The engine lets several seats act at once: while a player holds one card without having
called UNO anyone may catch them (and they may call), and under the house rule Jump-In a
player holding the card just played may play it out of turn.  An environment asks one seat
at a time, so :class:`DecisionCycle` puts those decisions in a fixed order:

1. when :meth:`Game.deciders <unokit.engine.game.Game.deciders>` names seats besides the actor,
   each of them is asked in turn: first those who may call or catch UNO, in a fair order drawn
   afresh at every move from the game's seed (:mod:`unokit.engine.order`: no seat number wins
   the race more often, and the game's own generator is not touched), then those who may only
   jump in, in play order from the actor (the nearest hand is the fastest: a rule of the table
   that favours no seat) (as :func:`unokit.bots.runner.play_match` asks bots);
2. a seat asked out of turn may take any of its legal actions or :attr:`~DecisionCycle.wait`
   (the id just past the edition's action space);
3. an action changes the game and the asking starts again from the first seat; a wait moves
   on to the next seat;
4. when every such seat has waited, the actor decides among its legal actions (no wait).

When nobody may act out of turn, the actor is asked at once and nothing else is computed.

>>> from unokit.engine.game import Game
>>> game = Game("classic", 2, seed=1)
>>> cycle = DecisionCycle(game)
>>> cycle.asked() == (game.actor, False)
True
>>> cycle.wait == game.actions.size
True
"""

from __future__ import annotations

from typing import Any

from unokit.editions import get_edition
from unokit.engine.actions import ActionSpace
from unokit.engine.errors import IllegalActionError, SetupError, UnknownOptionError
from unokit.engine.game import Game
from unokit.engine.order import out_of_turn_order
from unokit.engine.rules import PRESETS, Rules

__all__ = ["DecisionCycle", "action_id", "make_rules", "out_of_turn_order", "wait_action"]


def wait_action(space: ActionSpace) -> int:
    """The id of "wait" for an edition's action space: one past its last action."""
    return space.size


class DecisionCycle:
    """The order of decisions of one game: out-of-turn seats first (each may wait), then the actor."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.wait = wait_action(game.actions)
        """The "wait" action id: declines to act out of turn."""
        self._waited: set[int] = set()
        self._moves = -1
        self._asked: tuple[int, bool] = (-1, False)

    def copy(self, game: Game) -> DecisionCycle:
        """A cycle on ``game``, a copy of this cycle's game at its position (or a game sampled from a
        view of it), where the seats that have waited have waited."""
        other = DecisionCycle(game)
        if self._moves == len(self.game.history):
            other._waited = set(self._waited)
            other._moves = len(game.history)
            other._asked = other._next()
        return other

    def asked(self) -> tuple[int, bool]:
        """``(seat, out_of_turn)``: the seat to decide now, and whether it is asked out of turn
        (``(-1, False)`` once the match is over)."""
        game = self.game
        moves = len(game.history)
        if moves != self._moves:
            self._moves = moves
            self._waited.clear()
            self._asked = self._next()
        return self._asked

    def _next(self) -> tuple[int, bool]:
        game = self.game
        if game.is_over:
            return (-1, False)
        for seat in out_of_turn_order(game):
            if seat not in self._waited:
                return (seat, True)
        return (game.actor, False)

    def legal(self) -> tuple[int, ...]:
        """The legal action ids of the seat asked now (with :attr:`wait` when out of turn)."""
        seat, out_of_turn = self.asked()
        if seat < 0:
            return ()
        legal = self.game.legal_actions(seat)
        return (*legal, self.wait) if out_of_turn else legal

    def act(self, seat: int, action: int) -> None:
        """Apply ``action`` of ``seat`` (the seat asked now); raises :class:`IllegalActionError`
        and changes nothing if it is not one of :meth:`legal`."""
        asked, out_of_turn = self.asked()
        if seat != asked:
            raise IllegalActionError(f"seat {seat} is not asked now; seat {asked} is")
        if action == self.wait and type(action) is int:
            if not out_of_turn:
                raise IllegalActionError(
                    f"wait ({self.wait}) is only for a decision out of turn; seat {seat} is to {self.game.asks()}"
                )
            self._waited.add(seat)
            self._asked = self._next()
            return
        self.game.apply(seat, action)


def action_id(action: Any) -> int:
    """``action`` as a plain ``int`` (NumPy integers included); :class:`IllegalActionError` for
    anything that is not an integer."""
    if type(action) is int:
        return action
    if isinstance(action, bool) or not hasattr(action, "__index__"):
        raise IllegalActionError(f"an action is an integer id, not {action!r}")
    return int(action.__index__())


def make_rules(rules: Rules | dict[str, Any] | str | None) -> Rules:
    """``rules`` as :class:`Rules`: ``None`` (the sheets'), a ``Rules``, a mapping of options
    (a ``preset`` key included) or a preset's name."""
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        if rules not in PRESETS:
            raise UnknownOptionError(f"unknown preset {rules!r}; known: {', '.join(PRESETS)}")
        return Rules.preset(rules)
    if isinstance(rules, dict):
        return Rules.from_dict(rules)
    raise UnknownOptionError(f"rules must be None, a Rules, a mapping of options or a preset name, not {rules!r}")


def check_table(edition: str, players: int, rules: Rules) -> None:
    """Refuse a set-up the engine cannot play (unknown edition, player count, teams at an odd table...)."""
    get_edition(edition)
    if isinstance(players, bool) or not isinstance(players, int):
        raise SetupError(f"players must be an integer from 2 to 10, not {players!r}")
    Game(edition, players, seed=0, rules=rules)
