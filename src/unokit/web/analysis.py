"""The analysis board of a finished match: every decision of one seat rated, and any moment analysed.

``GET /api/rooms/{code}/analysis/{seat}`` rates every decision ``seat`` made in the match
(:func:`unokit.analysis.analyse_record`, :data:`MATCH_ROLLOUTS` rollouts a move): the
win chance of each move played, the best move there and the mistakes (a move that lost more than
:data:`MISTAKE` of win chance).  ``GET /api/rooms/{code}/analyse/{step}?seat=S`` analyses the table
after the first ``step`` actions from seat ``S``'s knowledge (:func:`unokit.analysis.analyse`,
:data:`MOMENT_ROLLOUTS` rollouts) when that seat has a decision there, and gives the position there as
``S`` may know it (:func:`unokit.engine.positions.public_position`), to copy;
``GET /api/rooms/{code}/position/{step}?seat=S`` gives that position alone (no analysis: cheap).

Secrecy: only finished matches are analysed (the replay's check), and what is said of a seat comes
from that seat's knowledge alone: the moves rated are its own legal moves, rated from its view of the
game (the analysis samples the hidden cards anew), and the position given holds no card hidden from it.

The work is costly: it runs in threads (the compiled engine's rollouts release the interpreter's
lock), :data:`AT_ONCE` at a time with at most :data:`WAITING` more waiting; an analysis asked for
while it is being computed waits for that one; the :data:`KEPT` last results are kept, and a kept
answer is free, where each computed one counts against the address's allowance,
``address_analyses_per_minute`` (:mod:`unokit.web.guard`: in Redis, shared by every process, with
``redis_url``).
"""

from __future__ import annotations

import asyncio
import zlib
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from unokit.engine.actions import INTERRUPT_TYPES
from unokit.engine.game import Game
from unokit.engine.record import replay
from unokit.i18n import Translator
from unokit.narrate import describe_action

if TYPE_CHECKING:  # the analysis (and the bots' rollouts) are imported when first asked for
    from unokit.analysis.ratings import Analysis, RecordAnalysis

__all__ = [
    "AT_ONCE",
    "KEPT",
    "LEAST_ROLLOUTS",
    "MATCH_BUDGET",
    "MATCH_ROLLOUTS",
    "MISTAKE",
    "MOMENT_BUDGET",
    "MOMENT_ROLLOUTS",
    "PYTHON_SHARE",
    "WAITING",
    "Analyses",
    "AnalysisBusyError",
    "match_answer",
    "moment_answer",
    "rate_match",
    "rate_moment",
    "rated_moves",
    "rollouts_within",
    "seat_position",
]

MATCH_ROLLOUTS = 500
"""Rollouts per move of each decision when a whole match is rated (about ±4% on a win chance, far less on
the difference between two moves, which share their rollouts)..."""
MATCH_BUDGET = 150_000
"""... unless the seat's decisions have so many moves between them that this many rollouts in all
would be passed: then fewer for each (:data:`LEAST_ROLLOUTS` at the least).  On the compiled engine
150,000 rollouts take about two seconds of one core; the 50 decisions of one seat in a match of three
rounds at three tables, about 120 moves in all, take 60,000."""
MOMENT_ROLLOUTS = 10_000
"""Rollouts per move for one moment ("analyse this moment": about ±1%), within :data:`MOMENT_BUDGET`."""
MOMENT_BUDGET = 100_000
LEAST_ROLLOUTS = 100
"""The fewest rollouts per move a budget leaves (a fifth of it in Python).  The budgets are counts, not
seconds: the same question gets the same answer on every machine, however busy."""
PYTHON_SHARE = 20
"""Where the compiled engine does not play the game (its rules, or no ``fast`` extra), the rollouts are
Python's, about 20 times slower: each budget is divided by this."""
MISTAKE = 0.1
"""A move that loses more than this much win chance against the best is a mistake."""
AT_ONCE = 2
"""Analyses computed at the same time."""
WAITING = 8
"""Analyses that may wait for one of those; past them the server answers ``503``."""
KEPT = 64
"""Results kept (matches rated for a seat and moments), the least recently asked for dropped first."""

T = TypeVar("T")


class AnalysisBusyError(Exception):
    """Every analysis slot is taken and as many wait as may."""


def analysis_seed(code: str, *parts: int) -> int:
    """The rollouts' seed of one analysis: the same question gets the same answer."""
    return zlib.crc32(":".join([code, *map(str, parts)]).encode())


def rollouts_within(budget: int, most: int, moves: int, compiled: bool = True) -> int:
    """Rollouts per move for ``moves`` moves in all: ``most``, or fewer to stay within ``budget``
    (a :data:`PYTHON_SHARE` of it where the rollouts are not ``compiled``).

    >>> rollouts_within(150_000, 500, 120), rollouts_within(150_000, 500, 1000), rollouts_within(150_000, 500, 10**5)
    (500, 150, 100)
    >>> rollouts_within(150_000, 500, 120, compiled=False), rollouts_within(150_000, 500, 10**5, compiled=False)
    (62, 20)
    """
    if not compiled:
        budget //= PYTHON_SHARE
    least = LEAST_ROLLOUTS if compiled else LEAST_ROLLOUTS // 5
    return max(least, min(most, budget // max(1, moves)))


def rated_moves(game: Game, seat: int) -> int:
    """How many of ``seat``'s legal moves an analysis rates (calls and catches of UNO aside)."""
    types = game.actions.types
    return sum(1 for action in game.legal_actions(seat) if types[action] not in INTERRUPT_TYPES)


def rate_match(code: str, record: dict[str, Any], seat: int) -> RecordAnalysis:
    """Every decision ``seat`` made in ``record`` rated."""
    from unokit.analysis.ratings import analyse_record, compiled_plays

    game = replay(record, upto=0)
    moves = 0
    for who, notation in record["actions"]:
        if who == seat and game.actor == seat:
            moves += rated_moves(game, seat)
        game.apply_notation(who, notation)
    rollouts = rollouts_within(MATCH_BUDGET, MATCH_ROLLOUTS, moves, compiled_plays(game))
    return analyse_record(record, seat, rollouts=rollouts, threshold=MISTAKE, seed=analysis_seed(code, seat))


def seat_position(record: dict[str, Any], step: int, seat: int) -> str:
    """The position after ``step`` actions of ``record`` as ``seat`` may know it (no hidden card)."""
    from unokit.engine.positions import public_position

    return str(public_position(replay(record, upto=step), seat))


def rate_moment(code: str, record: dict[str, Any], step: int, seat: int) -> tuple[str, Analysis | None]:
    """The position after ``step`` actions as ``seat`` may know it, and the analysis of ``seat``'s moves
    there (``None`` when ``seat`` is not the one deciding there, or has nothing to rate)."""
    from unokit.analysis.ratings import AnalysisError, analyse, compiled_plays
    from unokit.engine.positions import public_position

    game = replay(record, upto=step)
    position = public_position(game, seat)
    if game.is_over or game.actor != seat:
        return position, None
    try:  # the game's view for ``seat`` is all that is read of it
        rollouts = rollouts_within(MOMENT_BUDGET, MOMENT_ROLLOUTS, rated_moves(game, seat), compiled_plays(game))
        rated = analyse(game, seat, rollouts=rollouts, seed=analysis_seed(code, step, seat))
    except AnalysisError:  # nothing to rate (only calls or catches of UNO)
        return position, None
    return position, rated if rated.moves else None


def _move(game: Game, seat: int, notation: str, names: list[str], t: Translator) -> dict[str, Any]:
    """A move of ``seat`` in ``game`` by its notation: the notation and its words."""
    action = game.actions.parse(notation)
    return {"action": notation, "label": describe_action(game, game.view(seat), action, names, t)}


def match_answer(record: dict[str, Any], rated: RecordAnalysis, names: list[str], t: Translator) -> dict[str, Any]:
    """What ``GET /api/rooms/{code}/analysis/{seat}`` answers for ``rated`` (in the language of ``t``):
    one entry per decision of the seat, in the order of the match."""
    decisions = sorted(rated.decisions, key=lambda decision: decision.step)
    game = replay(record, upto=0)
    at = 0
    entries = []
    for decision in decisions:
        while at < decision.step:
            seat, notation = record["actions"][at]
            game.apply_notation(seat, notation)
            at += 1
        best = decision.analysis.best
        entries.append(
            {
                "step": decision.step,
                "round": decision.round,
                "played": _move(game, rated.seat, decision.played, names, t),
                "best": _move(game, rated.seat, best.notation, names, t),
                "win": decision.win,
                "best_win": best.win,
                "loss": decision.loss,
                "mistake": decision.mistake,
                "moves": len(decision.analysis.moves),
                "exact": decision.analysis.exact,
            }
        )
    estimated = [decision.analysis.rollouts for decision in decisions if not decision.analysis.exact]
    return {
        "seat": rated.seat,
        "steps": len(record["actions"]),
        "rollouts": min(estimated, default=0),
        "threshold": MISTAKE,
        "decisions": entries,
        "mistakes": sum(1 for entry in entries if entry["mistake"]),
    }


def moment_answer(
    record: dict[str, Any], step: int, seat: int, rated: tuple[str, Analysis | None], names: list[str], t: Translator
) -> dict[str, Any]:
    """What ``GET /api/rooms/{code}/analyse/{step}?seat=S`` answers (in the language of ``t``)."""
    position, analysis = rated
    answer: dict[str, Any] = {
        "step": step,
        "steps": len(record["actions"]),
        "seat": seat,
        "position": position,
        "deciding": analysis is not None,
        "analysis": None,
    }
    if analysis is not None:
        game = replay(record, upto=step)
        view = game.view(seat)
        best = analysis.best.action
        actions = record["actions"]
        played = game.actions.parse(actions[step][1]) if step < len(actions) and actions[step][0] == seat else None
        answer["analysis"] = {
            "exact": analysis.exact,
            "rollouts": analysis.rollouts,
            "seconds": round(analysis.seconds, 3),
            "moves": [
                {
                    "action": move.notation,
                    "label": describe_action(game, view, move.action, names, t),
                    "win": move.win,
                    "low": move.low,
                    "high": move.high,
                    "loss": move.loss,
                    "best": move.action == best,
                    "played": move.action == played,
                }
                for move in analysis.moves
            ],
        }
    return answer


class Analyses:
    """The analyses of one server: results kept, those being computed, and the slots to compute them.

    Used from the event loop's thread only (the work itself runs in worker threads)."""

    def __init__(
        self,
        at_once: int = AT_ONCE,
        waiting: int = WAITING,
        kept: int = KEPT,
    ) -> None:
        self.slots = asyncio.Semaphore(max(1, at_once))
        self.waiting_limit = max(0, waiting)
        self.waiting = 0
        self.kept_limit = max(1, kept)
        self.kept: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self.running: dict[tuple[Any, ...], asyncio.Future[Any]] = {}

    def kept_result(self, key: tuple[Any, ...]) -> Any | None:
        """The result kept for ``key``, if any."""
        result = self.kept.get(key)
        if result is not None:
            self.kept.move_to_end(key)
        return result

    async def compute(self, key: tuple[Any, ...], work: Callable[[], T]) -> T:
        """The result of ``work()`` (run in a thread when a slot is free), kept under ``key``; the same
        key asked for again while it runs waits for that run.  Raises :class:`AnalysisBusyError` when no
        slot is free and :data:`WAITING` runs wait already."""
        running = self.running.get(key)
        if running is None:
            if self.slots.locked() and self.waiting >= self.waiting_limit:
                raise AnalysisBusyError
            running = asyncio.ensure_future(self._run(key, work))
            self.running[key] = running
        result: T = await asyncio.shield(running)
        return result

    async def _run(self, key: tuple[Any, ...], work: Callable[[], T]) -> T:
        self.waiting += 1
        try:
            await self.slots.acquire()
        finally:
            self.waiting -= 1
        try:
            result = await asyncio.to_thread(work)
        finally:
            self.slots.release()
            del self.running[key]
        self.kept[key] = result
        while len(self.kept) > self.kept_limit:
            self.kept.popitem(last=False)
        return result
