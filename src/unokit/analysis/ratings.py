"""Rate the moves of a decision, and every decision of a record, from the deciding seat's knowledge.

A move's rating is the seat's chance to win the current round after playing it, judged from what
the seat itself may know: full games are sampled from its view (:func:`unokit.determinize.sample_game`:
hidden cards dealt consistently with everything it has seen), the move is played in each, and
heuristic bots at every seat finish the round — the rollouts the ``ismcts`` bot values its moves by
(:func:`unokit.bots.ismcts.rollout_outcomes`: :func:`unokit.fast.heuristic.rollout_wins` on the
compiled engine where it plays the rules; :func:`unokit.bots.ismcts.python_rollout_outcomes`, the
search's quick Python playout, elsewhere).  Every move is rolled out on the same samples, draws and
tie-breaks (a paired comparison), so the differences between moves (the ``loss``) are measured far
more precisely than the win chances themselves.

* **The interval** of a move's win chance is Wilson's 95% score interval over its rollouts, widened
  to the normal interval of the sampled deals' means where that is wider (the rollouts of one deal
  are not independent).
* **Exact** ratings: when every card is known — a full position (a position line with no hidden
  card, or a ``Game`` analysed with ``exact=True``: :attr:`Analysis.knowledge` is ``full``), or a
  moment where the seat's view leaves no card unknown (the unseen cards all alike, or all in one
  other hand, or a draw pile of one card) — and the hands hold at most :data:`SOLVE_CARDS` cards,
  the round is solved by :func:`unokit.analysis.solve.solve_round`; each win is then 0 or 1 with no
  interval, and :attr:`Analysis.exact` is true.  The solver refuses positions where chance decides
  or that are too large (``max_nodes``); rollouts rate them then (from the full position, its draw
  pile shuffled anew for each rollout, as everywhere), and :attr:`Analysis.note` says why.
* **What is rated**: every legal action of the seat to decide (:attr:`~unokit.engine.game.Game.actor`)
  except calls and catches of UNO, including a play that forgets to call UNO.  Calls and catches
  (always right to make) and jump-ins (out of turn) are not rated: they are listed in
  :attr:`Analysis.unrated`, and :func:`analyse_record` skips them.  A decision with one move is
  rated like any other (its loss is 0).
* **Budget**: ``rollouts`` per move (default :data:`DEFAULT_ROLLOUTS`), or ``seconds`` for the
  whole analysis (whichever ends first when both are given; loading the compiled engine, once per
  process, is not counted).  With ``rollouts`` alone the result is
  the same for the same ``seed`` on every machine.

>>> from unokit import Game, Rules
>>> from unokit.engine.deck import stacked_deck
>>> rules = Rules.from_dict({"hand_size": 1, "scoring": "single-round"})
>>> deck = stacked_deck("classic", [["R7"], ["G2"]], "R9", dealer=1, rules=rules)
>>> game = Game("classic", 2, seed=1, deck=deck, dealer=1, rules=rules)
>>> analysis = analyse(game, rollouts=200)
>>> analysis.seat, [move.notation for move in analysis.moves], analysis.best.win
(0, ['R7', 'draw'], 1.0)
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from unokit.analysis.tournament import Z95, wilson_interval
from unokit.bots.base import interrupt_actions, non_interrupt_actions
from unokit.bots.ismcts import ROLLOUT_REPEATS, python_rollout_outcomes, rollout_outcomes
from unokit.determinize import known_cards, lacked_colours, sample_game
from unokit.engine.errors import UnknownOptionError, UnoError
from unokit.engine.game import Game
from unokit.engine.positions import determinize, is_public

__all__ = [
    "DEFAULT_ROLLOUTS",
    "Analysis",
    "AnalysisError",
    "DecisionRating",
    "MoveRating",
    "RecordAnalysis",
    "analyse",
    "analyse_record",
    "compiled_plays",
]

DEFAULT_ROLLOUTS = 1000
"""Rollouts of each move when neither ``rollouts`` nor ``seconds`` is given."""
SECONDS_ONLY = 10_000_000
"""The rollouts of each move that bound a budget of ``seconds`` alone (in effect: none)."""
SOLVE_CARDS = 12
"""The most cards in all hands together of a position the solver is tried on (larger ones take
longer than an analysis should, and are rated by rollouts)."""
SOLVE_NODES = 20_000
"""The solver's node budget by default (about a second of one core at most)."""
COMPILED = ("classic", "space-jam", "all-wild", "wild-jackpot")
"""The editions whose rollouts run on the compiled engine (where it plays the rules)."""
PLAYOUTS = ("auto", "fast", "python")
"""Where the rollouts run: ``auto`` (compiled where it plays the game), ``fast`` (compiled), ``python``."""


class AnalysisError(UnoError):
    """A decision that cannot be analysed (a seat out of range or not deciding, a match over...)."""


@dataclass(frozen=True)
class MoveRating:
    """One move's rating."""

    action: int
    """The action id."""
    notation: str
    """The action in notation."""
    win: float
    """The seat's chance to win the round after the move (0..1)."""
    low: float
    """The 95% interval's lower end (``win`` itself when exact)."""
    high: float
    """The 95% interval's upper end."""
    loss: float
    """The best move's win chance minus this one's (0 for the best)."""

    def to_dict(self) -> dict[str, Any]:
        """The rating as JSON-ready data."""
        return {
            "action": self.action,
            "notation": self.notation,
            "win": self.win,
            "low": self.low,
            "high": self.high,
            "loss": self.loss,
        }


@dataclass(frozen=True)
class Analysis:
    """The ratings of every move of one decision, best first."""

    seat: int
    """The seat whose moves are rated (from its own knowledge)."""
    moves: tuple[MoveRating, ...]
    """Every rated move, best first (ties in the engine's action order)."""
    exact: bool
    """Whether the ratings are proven (:func:`unokit.analysis.solve.solve_round`) rather than estimated."""
    rollouts: int
    """Rollouts of each move (every move has as many: they are paired); 0 when exact."""
    seconds: float
    """The time the analysis took."""
    method: str = "rollouts"
    """``exact``, ``rollouts`` (compiled heuristic rollouts) or ``python`` (the Python playout)."""
    unrated: tuple[str, ...] = ()
    """The seat's legal actions that are not rated (calls and catches of UNO), in notation."""
    note: str = ""
    """Why a full position was not solved exactly (the solver's refusal), else empty."""
    knowledge: str = "seat"
    """``seat``: rated from the seat's view; ``full``: from a full position, every card known to the
    rating (a full position line, or ``exact=True``)."""

    @property
    def best(self) -> MoveRating:
        """The best move."""
        return self.moves[0]

    def rating(self, action: int) -> MoveRating:
        """The rating of ``action`` (:class:`KeyError` when it was not rated)."""
        for move in self.moves:
            if move.action == action:
                return move
        raise KeyError(action)

    def to_dict(self) -> dict[str, Any]:
        """The analysis as JSON-ready data."""
        return {
            "seat": self.seat,
            "exact": self.exact,
            "method": self.method,
            "rollouts": self.rollouts,
            "seconds": round(self.seconds, 4),
            "best": self.best.notation,
            "moves": [move.to_dict() for move in self.moves],
            "unrated": list(self.unrated),
            "note": self.note,
            "knowledge": self.knowledge,
        }


@dataclass(frozen=True)
class DecisionRating:
    """One decision of a record, rated."""

    step: int
    """Its index in the record's actions."""
    round: int
    """The round it was made in (1 for the first)."""
    played: str
    """The move played, in notation."""
    analysis: Analysis
    """Every move of the decision rated."""
    win: float
    """The win chance of the move played."""
    loss: float
    """How much win chance the move played lost against the best move."""
    mistake: bool
    """Whether ``loss`` is over the threshold."""

    @property
    def better(self) -> MoveRating | None:
        """The best move when the move played was a mistake, else ``None``."""
        return self.analysis.best if self.mistake else None

    def to_dict(self) -> dict[str, Any]:
        """The rating as JSON-ready data."""
        return {
            "step": self.step,
            "round": self.round,
            "played": self.played,
            "win": self.win,
            "loss": self.loss,
            "mistake": self.mistake,
            "better": self.analysis.best.notation if self.mistake else None,
            "analysis": self.analysis.to_dict(),
        }


@dataclass(frozen=True)
class RecordAnalysis:
    """Every decision of one seat in a record, rated."""

    seat: int
    decisions: tuple[DecisionRating, ...]
    threshold: float = 0.1
    """The loss over which a move is a mistake."""
    seconds: float = 0.0
    """The time the analysis took."""
    rest: dict[str, Any] = field(default_factory=dict, compare=False)
    """Counts of the seat's actions not rated, by reason (``interrupt``: calls, catches, jump-ins)."""

    @property
    def mistakes(self) -> tuple[DecisionRating, ...]:
        """The decisions whose move lost more than :attr:`threshold`."""
        return tuple(decision for decision in self.decisions if decision.mistake)

    def to_dict(self) -> dict[str, Any]:
        """The analysis as JSON-ready data."""
        return {
            "seat": self.seat,
            "threshold": self.threshold,
            "seconds": round(self.seconds, 4),
            "decisions": [decision.to_dict() for decision in self.decisions],
            "mistakes": [decision.step for decision in self.mistakes],
            "not_rated": dict(self.rest),
        }


@dataclass
class _Knowledge:
    """What the analysed seat knows, as a way to sample full games."""

    root: Game
    """A game consistent with it (legal moves, seats, rules)."""
    sample: Callable[[random.Random], Game]
    lacked: list[set[int]]
    full: bool
    """Whether every card is known (the position may be solved exactly)."""
    given: bool = False
    """Whether every card was given (a full position) rather than seen by the seat."""

    def given_as(self) -> str:
        """:attr:`Analysis.knowledge`."""
        return "full" if self.given else "seat"


def _from_game(game: Game, seat: int, exact: bool | None) -> _Knowledge:
    if exact:
        history = game.view(seat).history
        return _Knowledge(game, lambda rng: game.clone(), lacked_colours(history, game.n), True, True)
    view = game.view(seat)
    known = (known_cards(view), lacked_colours(view.history, view.players))
    full = exact is None and _knows_every_card(view, known[0])
    return _Knowledge(game, lambda rng: sample_game(view, rng, *known), known[1], full)


def _knows_every_card(view: Any, known: list[Counter[int]]) -> bool:
    """Whether the view leaves no card unknown: the cards the seat has not seen (nor learnt another
    seat holds) are all alike, or all lie in one other hand, or make a draw pile of one card; and
    nothing else is hidden (the edition's hidden state: samples with different generators agree)."""
    sample = sample_game(view, random.Random(0), known)
    pool = list(sample.draw_pile)
    places = 1 if sample.draw_pile else 0
    for other, hand in enumerate(sample.hands):
        if other == view.seat:
            continue
        unknown = Counter(hand)
        unknown.subtract(known[other])
        cards = list(unknown.elements())
        pool += cards
        places += 1 if cards else 0
    if len(set(pool)) > 1 and (places > 1 or len(sample.draw_pile) > 1):
        return False
    keys = {_key(sample_game(view, random.Random(n), known)) for n in range(1, 3)}
    return keys == {_key(sample)}


def _key(game: Game) -> tuple[Any, ...]:
    from unokit.analysis.solve import position_key

    return position_key(game)[:-1]  # (the generator's state aside)


def _from_text(text: str, seat: int | None, seed: int, exact: bool | None) -> tuple[_Knowledge, int]:
    if not is_public(text):
        game = Game.from_position(text)
        chosen = game.actor if seat is None else seat
        _check_seat(game, chosen)
        return _from_game(game, chosen, True if exact is None else exact), chosen
    root = determinize(text, seed)
    chosen = root.actor if seat is None else seat
    _check_seat(root, chosen)
    moves = root.legal_actions(chosen)
    other = determinize(text, seed + 1)
    if other.legal_actions(chosen) != moves or sorted(other.hands[chosen]) != sorted(root.hands[chosen]):
        raise AnalysisError(f"the position does not show seat {chosen}'s hand: its moves are unknown")

    def sample(rng: random.Random) -> Game:
        return determinize(text, rng.getrandbits(63))

    lacked: list[set[int]] = [set() for _ in range(root.n)]
    return _Knowledge(root, sample, lacked, False), chosen


def _check_seat(game: Game, seat: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.n:
        raise AnalysisError(f"seat must be a number from 0 to {game.n - 1}, not {seat!r}")
    if game.is_over:
        raise AnalysisError("the match is over: there is no decision to analyse")
    if seat != game.actor:
        raise AnalysisError(
            f"seat {seat} is not deciding: seat {game.actor} is (out-of-turn calls, catches and jump-ins are not rated)"
        )


def analyse(
    game: Game | str,
    seat: int | None = None,
    *,
    seconds: float | None = None,
    rollouts: int | None = None,
    seed: int = 0,
    exact: bool | None = None,
    max_nodes: int = SOLVE_NODES,
    playouts: str = "auto",
) -> Analysis:
    """Rate every legal move of ``seat`` (default: the seat deciding) from its own knowledge.

    ``game`` is a :class:`~unokit.engine.game.Game` (its seat's view is read, nothing hidden
    from it) or a position line (:mod:`unokit.engine.positions`: a public one is completed at random
    for each sample; a full one is rated with every card known).  ``exact``: ``True`` rates a
    ``Game`` with every card known too (solved where the solver can; rollouts from the full position
    otherwise); ``False`` never solves, and rates a full position line from the seat's view of it;
    ``None`` (default) solves where every card is known.  ``rollouts`` per move and ``seconds`` for
    the whole analysis bound the estimate (see the module's notes); ``max_nodes`` bounds the solver.
    ``playouts``: ``auto`` (compiled rollouts where the compiled engine plays the game, else the
    Python playout), ``fast`` (compiled, or :class:`AnalysisError`) or ``python``.  Raises
    :class:`AnalysisError` for a seat that is not deciding, and the position's errors
    (:class:`~unokit.engine.positions.PositionError`) for a malformed line."""
    started = time.perf_counter()
    rollouts = _check_budget(seconds, rollouts)
    if playouts not in PLAYOUTS:
        raise AnalysisError(f"playouts are {', '.join(PLAYOUTS)}, not {playouts!r}")
    if isinstance(game, str):
        knowledge, seat = _from_text(game, seat, seed, exact)
    elif isinstance(game, Game):
        seat = game.actor if seat is None else seat
        _check_seat(game, seat)
        knowledge = _from_game(game, seat, exact)
    else:
        raise AnalysisError(f"analyse takes a Game or a position line, not {type(game).__name__}")
    root = knowledge.root
    legal = root.legal_actions(seat)
    moves = non_interrupt_actions(root.actions, legal)
    unrated = tuple(root.format_action(a) for a in interrupt_actions(root.actions, legal))
    note = ""
    if knowledge.full and exact is not False:
        solved = _solve(knowledge.sample(random.Random(seed)), seat, moves, max_nodes)
        if isinstance(solved, str):
            note = solved
        else:
            ratings = _ratings(root, moves, [(value, value, value) for value in solved])
            seconds_taken = time.perf_counter() - started
            return Analysis(seat, ratings, True, 0, seconds_taken, "exact", unrated, knowledge=knowledge.given_as())
    budget = rollouts * len(moves)
    spent = time.perf_counter() - started  # (a time budget counts the sampling of the position in)
    method, outcomes = _rollouts(knowledge, seat, moves, budget, seed, _left(seconds, spent), playouts)
    count = len(outcomes)
    values = [_estimate([int(row[index]) for row in outcomes]) for index in range(len(moves))]
    ratings = _ratings(root, moves, values)
    seconds_taken = time.perf_counter() - started
    return Analysis(seat, ratings, False, count, seconds_taken, method, unrated, note, knowledge.given_as())


def _left(seconds: float | None, spent: float) -> float:
    """The seconds left for the rollouts (at least a tenth of the budget)."""
    return math.inf if seconds is None else max(seconds - spent, seconds / 10)


def _estimate(outcomes: Sequence[int]) -> tuple[float, float, float]:
    """A move's win chance and 95% interval from its rollouts (0/1, in blocks of
    :data:`~unokit.bots.ismcts.ROLLOUT_REPEATS` from one sampled deal): Wilson's interval over the
    rollouts, widened to the normal interval of the deals' means where that is wider."""
    count = len(outcomes)
    wins = sum(outcomes)
    win = wins / count
    low, high = wilson_interval(wins, count)
    means = [
        sum(outcomes[i : i + ROLLOUT_REPEATS]) / len(outcomes[i : i + ROLLOUT_REPEATS])
        for i in range(0, count, ROLLOUT_REPEATS)
    ]
    if len(means) > 1:
        spread = Z95 * statistics.stdev(means) / math.sqrt(len(means))
        low, high = min(low, max(0.0, win - spread)), max(high, min(1.0, win + spread))
    return win, low, high


def _check_budget(seconds: float | None, rollouts: int | None) -> int:
    """The rollouts per move the budget allows (checked)."""
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds > 0):
        raise AnalysisError(f"seconds must be a positive number, not {seconds!r}")
    if rollouts is not None and (isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1):
        raise AnalysisError(f"rollouts must be a whole number, at least 1, not {rollouts!r}")
    if rollouts is not None:
        return rollouts
    return SECONDS_ONLY if seconds is not None else DEFAULT_ROLLOUTS


def _solve(game: Game, seat: int, moves: Sequence[int], max_nodes: int) -> list[float] | str:
    """Each move's proven value for ``seat``, or the solver's reason for refusing."""
    from unokit.analysis.solve import SolveError, solve_round

    cards = sum(len(hand) for hand in game.hands)
    if cards > SOLVE_CARDS:
        return f"{cards} cards in the hands, more than the {SOLVE_CARDS} an exact search takes on"
    try:
        solution = solve_round(game, max_nodes=max_nodes)
    except SolveError as error:
        return str(error)
    if solution.seat != seat or solution.out_of_turn:
        return f"seat {solution.seat} decides out of turn first"
    return [solution.action_values[action][seat] for action in moves]


def _ratings(root: Game, moves: Sequence[int], values: Sequence[tuple[float, float, float]]) -> tuple[MoveRating, ...]:
    """The moves rated, best first (ties in action order)."""
    order = sorted(range(len(moves)), key=lambda i: (-values[i][0], i))
    top = values[order[0]][0]
    return tuple(
        MoveRating(
            moves[i],
            root.format_action(moves[i]),
            values[i][0],
            values[i][1],
            values[i][2],
            max(0.0, top - values[i][0]),
        )
        for i in order
    )


def _rollouts(
    knowledge: _Knowledge, seat: int, moves: Sequence[int], budget: int, seed: int, seconds: float, playouts: str
) -> tuple[str, Sequence[Sequence[int]]]:
    """The rollouts of every move: compiled where the compiled engine plays the game, else Python."""
    root = knowledge.root
    compiled = playouts != "python" and compiled_plays(root)
    if playouts == "fast" and not compiled:
        raise AnalysisError(f"the compiled engine does not play this game ({root.edition.name}, its rules)")
    if compiled:
        from unokit.fast import heuristic

        _load_compiled(knowledge, seat, moves)
        deadline = time.perf_counter() + seconds
        rng = random.Random(seed)
        outcomes = rollout_outcomes(
            lambda: knowledge.sample(rng),
            seat,
            moves,
            budget,
            rng,
            heuristic.new_generators(),
            knowledge.lacked,
            deadline,
        )
        if outcomes is not None:
            return "rollouts", outcomes.tolist()
        if playouts == "fast":
            raise AnalysisError("the compiled engine does not play this position")
    rng = random.Random(seed)
    deadline = time.perf_counter() + seconds
    rows = python_rollout_outcomes(lambda: knowledge.sample(rng), seat, moves, budget, rng, root.actions, deadline)
    return "python", rows


_loaded: list[bool] = []


def _load_compiled(knowledge: _Knowledge, seat: int, moves: Sequence[int]) -> None:
    """Load the compiled rollouts from numba's cache once per process, by one throwaway block of
    rollouts (a second or so, or minutes when they compile: a time budget does not count it)."""
    if _loaded:
        return
    from unokit.fast import heuristic

    rng = random.Random(0)
    rollout_outcomes(
        lambda: knowledge.sample(rng), seat, moves, len(moves), rng, heuristic.new_generators(), knowledge.lacked
    )
    _loaded.append(True)


def compiled_plays(game: Game) -> bool:
    """Whether an analysis of ``game`` rolls out on the compiled engine: the compiled heuristic bot plays
    its edition and rules, and the ``fast`` extra is installed."""
    if game.edition.name not in COMPILED:
        return False
    try:
        from unokit.fast import engine
    except ImportError:
        return False
    try:
        engine.check_rules(game.rules, game.edition.name)
    except UnknownOptionError:
        return False
    return True


def analyse_record(
    record: dict[str, Any],
    seat: int,
    *,
    seconds: float | None = None,
    rollouts: int | None = None,
    threshold: float = 0.1,
    seed: int = 0,
    steps: Sequence[int] | None = None,
) -> RecordAnalysis:
    """Rate every decision ``seat`` made in ``record`` (or only those at the record's action indexes
    ``steps``) from its knowledge then, with :func:`analyse`; a move losing more than ``threshold``
    of win chance against the best is a mistake.  ``seconds`` bounds the whole analysis (shared
    among the decisions by their number of moves); ``rollouts`` is per move of each decision.  Calls
    and catches of UNO and jump-ins are not rated (counted in :attr:`RecordAnalysis.rest`).  Each
    decision's seed is drawn from ``seed`` and its step, so a decision is rated alike whichever
    others are asked for."""
    from unokit.engine.record import replay_steps

    started = time.perf_counter()
    _check_budget(seconds, rollouts)
    if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not 0 <= threshold <= 1:
        raise AnalysisError(f"the threshold is a win chance from 0 to 1, not {threshold!r}")
    replayed = replay_steps(record)
    _, game = next(replayed)  # (the whole record checked first)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.n:
        raise AnalysisError(f"seat must be a number from 0 to {game.n - 1}, not {seat!r}")
    actions = record["actions"]
    wanted = None if steps is None else set(steps)
    if wanted is not None:
        bad = sorted(s for s in wanted if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < len(actions))
        if bad:
            raise AnalysisError(f"step {bad[0]!r} is not an index of the record's {len(actions)} actions")
    chosen: list[tuple[int, Game, int]] = []
    rest = {"interrupt": 0}
    for index, (who, text) in enumerate(actions):
        action = game.actions.parse(text)
        if who == seat and (wanted is None or index in wanted):
            if game.actor == seat and not interrupt_actions(game.actions, (action,)):
                chosen.append((index, game.clone(), action))
            elif wanted is not None:
                raise AnalysisError(f"step {index} is not a decision of seat {seat} in turn ({text})")
            else:
                rest["interrupt"] += 1
        _, game = next(replayed)  # (after this action)
    if wanted is not None and len(chosen) < len(wanted):
        missing = sorted(wanted - {index for index, _, _ in chosen})
        raise AnalysisError(f"step {missing[0]} is not an action of seat {seat}")
    sizes = [len(_rated_moves(position, seat)) for _, position, _ in chosen]
    total = sum(sizes) or 1
    decisions = []
    for (index, position, action), size in zip(chosen, sizes, strict=True):
        share = None if seconds is None else max(seconds * size / total, 1e-3)
        analysis = analyse(position, seat, seconds=share, rollouts=rollouts, seed=_decision_seed(seed, index))
        played = analysis.rating(action)
        decisions.append(
            DecisionRating(
                step=index,
                round=position.round,
                played=played.notation,
                analysis=analysis,
                win=played.win,
                loss=played.loss,
                mistake=played.loss > threshold,
            )
        )
    return RecordAnalysis(seat, tuple(decisions), threshold, time.perf_counter() - started, rest)


def _rated_moves(game: Game, seat: int) -> tuple[int, ...]:
    return non_interrupt_actions(game.actions, game.legal_actions(seat))


def _decision_seed(seed: int, step: int) -> int:
    """The seed of the decision at ``step`` (drawn from both, the same on every machine)."""
    return random.Random(f"unokit-analyse/{seed}/{step}").getrandbits(63)
