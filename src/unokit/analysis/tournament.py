"""Tournaments between bots: paired deals, rotated seats, win rates with confidence intervals.

Game ``g`` seats the bot list rotated by ``g % players`` (the bot listed at position ``i``
sits at seat ``(i + g) % players``), and the ``players`` games of one rotation share one
deal seed: each deal is played once from every seat, so no bot gains from its seat or
from a lucky deal. With a number of games that is a multiple of the number of players,
every bot holds every seat equally often.

Games run in parallel processes; the results do not depend on the number of processes
(only the timings do).

>>> low, high = wilson_interval(81, 263)
>>> round(low, 4), round(high, 4)
(0.2553, 0.3662)
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

from unokit.editions import get_edition
from unokit.engine.errors import SetupError
from unokit.engine.game import Game, same_side
from unokit.engine.rules import Rules

if TYPE_CHECKING:
    from unokit.bots.runner import GameResult

MAX_DECISIONS = 30_000
"""Default cap on the actions of one match: a match still going then is stopped and left out
(reported as unfinished)."""

Progress = Callable[[int, int], None]
"""Called as ``progress(games_done, games_total)`` as games finish."""

OPTIONAL_BOT_MODULES = ("unokit.bots.ismcts",)
"""Modules that register a bot kind when they exist."""

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""

T = TypeVar("T")
R = TypeVar("R")


class PlotUnavailableError(RuntimeError):
    """Plots need matplotlib, which is not installed."""


def require_matplotlib() -> None:
    """Raise :class:`PlotUnavailableError` with the way out if matplotlib cannot be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PlotUnavailableError(
            "plots need matplotlib, which is not installed: pip install 'unokit[plot]'"
        ) from None


# ---------------------------------------------------------------- statistics


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); ``(0, 1)`` without trials.

    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    >>> [round(x, 4) for x in wilson_interval(0, 20)]
    [0.0, 0.1611]
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, not {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


# ---------------------------------------------------------------- running games in parallel


def default_workers() -> int:
    return os.cpu_count() or 1


def _mp_context() -> multiprocessing.context.BaseContext:
    """Forked workers where forking is safe (they inherit the bot kinds registered here and
    need no importable main module); elsewhere the platform's default."""
    if sys.platform != "darwin" and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _run_chunk(fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
    return [fn(item) for item in items]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run: ``partial`` holds what was done (for :func:`run_parallel`, the
    results in order, ``None`` where an item did not finish)."""

    def __init__(self, partial: Any) -> None:
        super().__init__("interrupted")
        self.partial = partial


def _ignore_ctrl_c() -> None:
    """A worker leaves Ctrl-C to the process that started it, which stops every worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """End ``pool`` now: queued work is dropped and running workers are terminated."""
    processes = list((pool._processes or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(2)


def run_parallel(
    fn: Callable[[T], R],
    items: Sequence[T],
    workers: int | None = None,
    progress: Progress | None = None,
) -> list[R]:
    """``[fn(item) for item in items]``, in that order, spread over ``workers`` processes
    (``None``: one per CPU; 1: in this process). ``fn`` must be a module-level function.
    ``progress(done, total)`` is called in this process as items finish."""
    total = len(items)
    workers = default_workers() if workers is None else workers
    if workers < 1:
        raise SetupError(f"workers must be at least 1, not {workers}")
    if workers == 1 or total <= 1:
        out: list[R] = []
        try:
            for item in items:
                out.append(fn(item))
                if progress is not None:
                    progress(len(out), total)
        except KeyboardInterrupt:
            raise Interrupted(out + [None] * (total - len(out))) from None
        return out
    size = max(1, min(16, total // (workers * 8)))
    chunks = [(start, items[start : start + size]) for start in range(0, total, size)]
    results: list[R | None] = [None] * total
    done = 0
    context = _mp_context()
    pool = ProcessPoolExecutor(max_workers=min(workers, len(chunks)), mp_context=context, initializer=_ignore_ctrl_c)
    try:
        futures = {pool.submit(_run_chunk, fn, chunk): (start, len(chunk)) for start, chunk in chunks}
        for future in as_completed(futures):
            start, length = futures[future]
            results[start : start + length] = future.result()
            done += length
            if progress is not None:
                progress(done, total)
    except KeyboardInterrupt:
        _stop_pool(pool)
        raise Interrupted(results) from None
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown()
    return cast(list[R], results)


# ---------------------------------------------------------------- one game


def deal_seed(seed: int, deal: int) -> int:
    """The game seed of deal ``deal`` (0-based) of a tournament seeded with ``seed``."""
    return random.Random(f"unokit-tournament/{seed}/{deal}").getrandbits(63)


def bot_seed(seed: int, game: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in game ``game`` of a tournament seeded with ``seed``."""
    return random.Random(f"unokit-tournament-bot/{seed}/{game}/{seat}").getrandbits(63)


def seating(bots: Sequence[str], game: int) -> list[str]:
    """The bot kind at each seat in game ``game``: the list rotated by ``game % players``.

    >>> seating(["a", "b", "c"], 0), seating(["a", "b", "c"], 1), seating(["a", "b", "c"], 5)
    (['a', 'b', 'c'], ['c', 'a', 'b'], ['b', 'c', 'a'])
    """
    n = len(bots)
    shift = game % n
    return [bots[(seat - shift) % n] for seat in range(n)]


@dataclass(frozen=True)
class GameSpec:
    """Everything a worker needs to play one tournament game."""

    index: int
    edition: str
    kinds: tuple[str, ...]
    seed: int
    bot_seeds: tuple[int, ...]
    rules: Rules | None
    rule_cards: tuple[str, ...] | None
    bot_options: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    max_decisions: int = 0


@dataclass
class GameSummary:
    """What a tournament keeps of one game."""

    index: int
    kinds: tuple[str, ...]
    rounds: int
    round_winners: list[int]
    scores: list[int]
    winner: int
    decisions: list[int]
    think_seconds: list[float]
    finished: bool = True
    """False: the match was stopped at the cap on decisions (it counts for nothing)."""


def load_bot_kinds() -> tuple[str, ...]:
    """Import the bot modules, so that every kind they register is known (also in a fresh
    worker process); returns the known kinds."""
    import importlib
    import importlib.util

    from unokit.bots import base

    for name in OPTIONAL_BOT_MODULES:
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name)
    return base.bot_kinds()


def make_bots(spec: GameSpec) -> list[Any]:
    from unokit.bots.base import make_bot

    load_bot_kinds()
    options = {kind: dict(pairs) for kind, pairs in spec.bot_options}
    return [
        make_bot(kind, seed=seed, edition=spec.edition, **options.get(kind, {}))
        for kind, seed in zip(spec.kinds, spec.bot_seeds, strict=True)
    ]


def play_capped(
    edition: str,
    bots: Sequence[Any],
    seed: int,
    rules: Rules | None,
    rule_cards: Sequence[str] | None,
    max_decisions: int,
) -> GameResult | None:
    """Play a match between ``bots``; ``None`` if it is still going after ``max_decisions``
    actions (bots can get stuck, e.g. passing hands around with no card left to draw)."""
    from unokit.bots.runner import play_match

    game = Game(edition, len(bots), seed=seed, rules=rules, rule_cards=rule_cards)
    try:
        return play_match(game, bots, max_decisions=max_decisions)
    except RuntimeError:
        if not game.is_over and len(game.history) >= max_decisions:
            return None
        raise


def play_one(spec: GameSpec) -> GameSummary:
    """Play the game ``spec`` describes (runs in a worker process)."""
    cards = list(spec.rule_cards) if spec.rule_cards is not None else None
    result = play_capped(spec.edition, make_bots(spec), spec.seed, spec.rules, cards, spec.max_decisions)
    if result is None:
        return GameSummary(spec.index, spec.kinds, 0, [], [], -1, [], [], finished=False)
    return GameSummary(
        index=spec.index,
        kinds=spec.kinds,
        rounds=result.rounds,
        round_winners=list(result.round_winners),
        scores=list(result.scores),
        winner=result.winner,
        decisions=list(result.decisions),
        think_seconds=list(result.think_seconds),
    )


# ---------------------------------------------------------------- the tournament


@dataclass
class _Tally:
    seats_held: list[int]
    seat_games: int = 0
    rounds: int = 0
    round_wins: int = 0
    points: int = 0
    match_wins: int = 0
    decisions: int = 0
    think: float = 0.0


def _options_key(
    bot_options: dict[str, dict[str, Any]] | None,
) -> tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]:
    if not bot_options:
        return ()
    return tuple((kind, tuple(sorted(opts.items()))) for kind, opts in sorted(bot_options.items()))


def plan_games(
    edition: str,
    kinds: Sequence[str],
    games: int,
    seed: int,
    rules: Rules | None = None,
    rule_cards: tuple[str, ...] | None = None,
    bot_options: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = (),
    max_decisions: int = MAX_DECISIONS,
) -> list[GameSpec]:
    """The games of a tournament: game ``g`` seats :func:`seating` ``(kinds, g)`` and is dealt
    from deal ``g // players``, so the games of one rotation share their deal."""
    players = len(kinds)
    return [
        GameSpec(
            index=g,
            edition=edition,
            kinds=tuple(seating(kinds, g)),
            seed=deal_seed(seed, g // players),
            bot_seeds=tuple(bot_seed(seed, g, s) for s in range(players)),
            rules=rules,
            rule_cards=rule_cards,
            bot_options=bot_options,
            max_decisions=max_decisions,
        )
        for g in range(games)
    ]


def run_tournament(
    edition: str,
    bots: Sequence[str],
    games: int,
    seed: int,
    workers: int | None = None,
    rules: Rules | dict[str, Any] | None = None,
    rule_cards: Sequence[str] | None = None,
    progress: Progress | None = None,
    bot_options: dict[str, dict[str, Any]] | None = None,
    max_decisions: int = MAX_DECISIONS,
) -> dict[str, Any]:
    """Play ``games`` matches between ``bots`` (bot kinds, one per seat) and compare them.

    Seats rotate and deals are paired (see the module's text). ``bot_options`` maps a kind
    to keyword options for :func:`unokit.bots.base.make_bot`. Returns a JSON-ready dict:
    ``edition``, ``players``, ``bots``, ``games``, ``seed``, ``rules`` (options differing from
    the defaults), ``scoring``, ``workers``, ``seat_balanced`` (every bot held every seat
    equally often), ``rounds``, ``decisions``, ``elapsed_s``, ``expected_win_rate`` (a
    round win rate of equal bots, ``1 / players``; ``1 / 2`` with house rule ``teams``, where a
    team's win counts for both partners) and ``results``: for each kind, in the
    order listed, ``seats`` (seats it holds per game), ``seats_held`` (games it held each
    seat, summed over its copies), ``rounds`` (rounds played, per seat held),
    ``round_wins``, ``round_win_rate``, ``round_win_ci95`` (Wilson), ``mean_points``
    (final scores), ``match_wins``, ``match_win_rate`` and ``match_win_ci95`` (not for
    single-round scoring, where a match is a round), ``decisions`` and ``mean_decision_s``.
    A match still going after ``max_decisions`` actions is stopped and left out of every
    count; ``unfinished`` says how many were. Ctrl-C stops every worker and raises
    :class:`Interrupted` whose ``partial`` is this dict over the games finished, with
    ``partial`` true and ``games_planned``.

    Everything but the timings (``elapsed_s``, ``mean_decision_s``) follows from ``seed``,
    whatever the number of ``workers``.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SetupError(f"games must be a positive integer, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError(f"seed must be an integer, not {seed!r}")
    kinds = [str(kind).strip() for kind in bots]
    if not all(kinds):
        raise SetupError("a bot kind is empty")
    edition = get_edition(edition).name
    if isinstance(rules, dict):
        rules = Rules.from_dict(rules)
    rules_obj = rules if rules is not None else Rules()
    players = len(kinds)
    workers = default_workers() if workers is None else workers
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SetupError(f"workers must be a positive integer, not {workers!r}")
    if isinstance(max_decisions, bool) or not isinstance(max_decisions, int) or max_decisions < 1:
        raise SetupError(f"max_decisions must be a positive integer, not {max_decisions!r}")
    cards = tuple(rule_cards) if rule_cards is not None else None
    options = _options_key(bot_options)
    # Check the set-up and every bot kind here, before any process starts.
    Game(edition, players, seed=deal_seed(seed, 0), rules=rules, rule_cards=cards)
    specs = plan_games(edition, kinds, games, seed, rules, cards, options, max_decisions)
    make_bots(specs[0])
    started = time.perf_counter()
    try:
        summaries = run_parallel(play_one, specs, workers, progress)
    except Interrupted as stop:
        finished = [summary for summary in stop.partial if summary is not None]
        result = summarise(edition, kinds, seed, rules_obj, workers, finished, time.perf_counter() - started)
        raise Interrupted({**result, "partial": True, "games_planned": games}) from None
    elapsed = time.perf_counter() - started
    return summarise(edition, kinds, seed, rules_obj, workers, summaries, elapsed)


def summarise(
    edition: str,
    kinds: Sequence[str],
    seed: int,
    rules: Rules,
    workers: int,
    summaries: Sequence[GameSummary],
    elapsed: float,
) -> dict[str, Any]:
    """The tournament's result dict from its games' summaries (in game order)."""
    players = len(kinds)
    order = list(dict.fromkeys(kinds))
    tallies = {kind: _Tally(seats_held=[0] * players) for kind in order}
    rounds = 0
    decisions = 0
    unfinished = 0
    teams = rules.teams
    for summary in sorted(summaries, key=lambda s: s.index):
        if not summary.finished:
            unfinished += 1
            continue
        rounds += summary.rounds
        decisions += sum(summary.decisions)
        for seat, kind in enumerate(summary.kinds):
            tally = tallies[kind]
            tally.seats_held[seat] += 1
            tally.seat_games += 1
            tally.rounds += summary.rounds
            tally.round_wins += sum(1 for w in summary.round_winners if same_side(seat, w, teams))
            tally.points += summary.scores[seat]
            tally.match_wins += same_side(seat, summary.winner, teams)
            tally.decisions += summary.decisions[seat]
            tally.think += summary.think_seconds[seat]
    scoring = get_edition(edition).scoring_method(rules)
    single = scoring == "single-round"
    results: dict[str, dict[str, Any]] = {}
    for kind in order:
        tally = tallies[kind]
        low, high = wilson_interval(tally.round_wins, tally.rounds)
        entry: dict[str, Any] = {
            "seats": kinds.count(kind),
            "seats_held": tally.seats_held,
            "rounds": tally.rounds,
            "round_wins": tally.round_wins,
            "round_win_rate": _rate(tally.round_wins, tally.rounds),
            "round_win_ci95": [round(low, 4), round(high, 4)],
            "mean_points": round(tally.points / tally.seat_games, 2) if tally.seat_games else 0.0,
        }
        if not single:
            m_low, m_high = wilson_interval(tally.match_wins, tally.seat_games)
            entry["match_wins"] = tally.match_wins
            entry["match_win_rate"] = _rate(tally.match_wins, tally.seat_games)
            entry["match_win_ci95"] = [round(m_low, 4), round(m_high, 4)]
        entry["decisions"] = tally.decisions
        entry["mean_decision_s"] = float(f"{tally.think / tally.decisions:.3g}") if tally.decisions else 0.0
        results[kind] = entry
    games = len(summaries)
    return {
        "edition": edition,
        "players": players,
        "bots": list(kinds),
        "games": games,
        "seed": seed,
        "rules": rules.to_dict(),
        "scoring": scoring,
        "workers": workers,
        "seat_balanced": games % players == 0 and not unfinished,
        "unfinished": unfinished,
        "rounds": rounds,
        "decisions": decisions,
        "elapsed_s": round(elapsed, 3),
        "expected_win_rate": round(1 / 2 if teams else 1 / players, 4),
        "results": results,
    }


def _rate(wins: int, trials: int) -> float:
    return round(wins / trials, 4) if trials else 0.0


# ---------------------------------------------------------------- plot


def plot_tournament(result: dict[str, Any], path: str) -> None:
    """Draw each bot's round win rate with its 95% interval to the PNG file ``path``."""
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    kinds = list(result["results"])
    rates = [result["results"][k]["round_win_rate"] for k in kinds]
    lows = [max(0.0, rate - result["results"][k]["round_win_ci95"][0]) for k, rate in zip(kinds, rates, strict=True)]
    highs = [max(0.0, result["results"][k]["round_win_ci95"][1] - rate) for k, rate in zip(kinds, rates, strict=True)]
    fig = Figure(figsize=(max(4.0, 1.4 * len(kinds) + 2), 4.0))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    positions = list(range(len(kinds)))
    ax.bar(positions, rates, yerr=[lows, highs], capsize=6, color="tab:blue", alpha=0.8)
    ax.axhline(result["expected_win_rate"], color="grey", linestyle="--", label="equal bots")
    ax.set_xticks(positions, kinds)
    ax.set_ylabel("round win rate (95% CI)")
    ax.set_ylim(0, 1)
    ax.set_title(f"{result['edition']}, {result['players']} players, {result['games']} games")
    ax.legend(loc="upper right")
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=100)
