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

import contextlib
import math
import random
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, overload

from unokit.analysis.parallel import Interrupted as Interrupted
from unokit.analysis.parallel import default_workers as default_workers
from unokit.analysis.parallel import iter_parallel as iter_parallel
from unokit.analysis.parallel import run_parallel as run_parallel
from unokit.editions import get_edition
from unokit.engine.errors import SetupError, UnknownOptionError
from unokit.engine.game import Game, same_side
from unokit.engine.rules import Rules

if TYPE_CHECKING:
    from unokit.bots.runner import GameResult

ENGINES = ("python", "fast", "auto")
"""Where a tournament plays: see :func:`run_tournament`."""

MAX_DECISIONS = 30_000
"""Default cap on the actions of one match: a match still going then is stopped and left out
(reported as unfinished)."""

Progress = Callable[[int, int], None]
"""Called as ``progress(games_done, games_total)`` as games finish."""

OPTIONAL_BOT_MODULES = ("unokit.bots.ismcts",)
"""Modules that register a bot kind when they exist."""

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


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
# (in unokit.analysis.parallel; imported here under their former names)


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
    total_decisions: int | None = None
    """The decisions of the match where they are not counted per seat (the compiled engine)."""


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
    uncounted: bool = False
    """Some games did not count this bot's decisions (the compiled engine)."""


def _options_key(
    bot_options: dict[str, dict[str, Any]] | None,
) -> tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]:
    if not bot_options:
        return ()
    return tuple((kind, tuple(sorted(opts.items()))) for kind, opts in sorted(bot_options.items()))


class GamePlan(Sequence[GameSpec]):
    """The games of a tournament (see :func:`plan_games`), each made when asked for: a plan of a
    million games takes no memory until its games are handed to the workers."""

    def __init__(
        self,
        edition: str,
        kinds: Sequence[str],
        games: int,
        seed: int,
        rules: Rules | None = None,
        rule_cards: tuple[str, ...] | None = None,
        bot_options: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = (),
        max_decisions: int = MAX_DECISIONS,
    ) -> None:
        self.edition, self.kinds, self.games, self.seed = edition, tuple(kinds), games, seed
        self.rules, self.rule_cards, self.bot_options, self.max_decisions = (
            rules,
            rule_cards,
            bot_options,
            max_decisions,
        )

    def __len__(self) -> int:
        return self.games

    @overload
    def __getitem__(self, index: int) -> GameSpec: ...
    @overload
    def __getitem__(self, index: slice) -> list[GameSpec]: ...
    def __getitem__(self, index: int | slice) -> GameSpec | list[GameSpec]:
        if isinstance(index, slice):
            return [self[g] for g in range(*index.indices(self.games))]
        if not -self.games <= index < self.games:
            raise IndexError(index)
        g = index % self.games
        players = len(self.kinds)
        return GameSpec(
            index=g,
            edition=self.edition,
            kinds=tuple(seating(self.kinds, g)),
            seed=deal_seed(self.seed, g // players),
            bot_seeds=tuple(bot_seed(self.seed, g, s) for s in range(players)),
            rules=self.rules,
            rule_cards=self.rule_cards,
            bot_options=self.bot_options,
            max_decisions=self.max_decisions,
        )


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
    from deal ``g // players``, so the games of one rotation share their deal (as a list; the
    tournament reads them from a :class:`GamePlan`)."""
    return list(GamePlan(edition, kinds, games, seed, rules, rule_cards, bot_options, max_decisions))


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
    *,
    engine: str = "python",
    ray: str | None = None,
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

    ``engine``: ``python`` (:class:`unokit.Game` and the Python bots), ``fast`` (the compiled
    engine and its ``random`` and ``heuristic`` bots, seats rotated and deals paired the same way,
    on ``workers`` threads; the same seed deals other games than in Python, and the decisions
    of each bot are not counted: ``decisions`` and ``mean_decision_s`` are ``None``) or ``auto``
    (``fast`` where it plays the line-up, the edition and the rules); the result's ``engine``
    says which played. ``ray`` (see :func:`unokit.analysis.parallel.run_parallel`): the games
    run as Ray tasks.

    Everything but the timings (``elapsed_s``, ``mean_decision_s``) follows from ``seed``,
    whatever the number of ``workers`` or of Ray nodes.
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
    if engine not in ENGINES:
        raise UnknownOptionError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    # Check the set-up and every bot kind here, before any process starts.
    Game(edition, players, seed=deal_seed(seed, 0), rules=rules, rule_cards=cards)
    if engine != "python":
        why_not = fast_tournament_plays(edition, rules_obj, kinds)
        if why_not is not None and engine == "fast":
            raise UnknownOptionError(why_not)
        engine = "fast" if why_not is None else "python"
    started = time.perf_counter()
    summaries: list[GameSummary] = []
    try:
        if engine == "fast":
            fast = _fast_games(edition, kinds, games, seed, rules_obj, cards, max_decisions, workers, ray)
            with contextlib.closing(fast):
                for more in fast:
                    summaries.extend(more)
                    if progress is not None:
                        progress(len(summaries), games)
        else:
            specs = GamePlan(edition, kinds, games, seed, rules, cards, options, max_decisions)
            make_bots(specs[0])
            summaries = run_parallel(play_one, specs, workers, progress, ray=ray)
    except Interrupted as stop:
        finished = [summary for summary in stop.partial if summary is not None]
        result = summarise(edition, kinds, seed, rules_obj, workers, finished, time.perf_counter() - started)
        raise Interrupted({**result, "partial": True, "games_planned": games, "engine": engine}) from None
    except KeyboardInterrupt:
        result = summarise(edition, kinds, seed, rules_obj, workers, summaries, time.perf_counter() - started)
        raise Interrupted({**result, "partial": True, "games_planned": games, "engine": engine}) from None
    elapsed = time.perf_counter() - started
    return {**summarise(edition, kinds, seed, rules_obj, workers, summaries, elapsed), "engine": engine}


# ---------------------------------------------------------------- on the compiled engine

FAST_BOTS = ("random", "heuristic")
"""The bot kinds the compiled engine plays (:mod:`unokit.fast.heuristic`)."""


def fast_tournament_plays(edition: str, rules: Rules, kinds: Sequence[str]) -> str | None:
    """Why the compiled engine cannot play a tournament of ``kinds`` in ``edition`` under ``rules``
    (``None``: it can)."""
    others = [kind for kind in dict.fromkeys(kinds) if kind not in FAST_BOTS]
    if others:
        return (
            f"the compiled engine has the {' and '.join(FAST_BOTS)} bots, not {', '.join(others)}; "
            "the Python engine has every bot (--engine python)"
        )
    from unokit.analysis.simulate import fast_engine_plays

    return fast_engine_plays(edition, rules, "heuristic")


@dataclass(frozen=True)
class FastBlock:
    """Deals ``first`` … ``first + count - 1`` of a tournament on the compiled engine, played with
    the line-up rotated by ``rotation``: games ``deal * players + rotation``."""

    edition: str
    kinds: tuple[str, ...]
    seed: int
    rules: Rules
    rule_cards: tuple[str, ...] | None
    max_decisions: int
    rotation: int
    first: int
    count: int
    threads: int | None = 1


def play_fast_block(block: FastBlock) -> list[GameSummary]:
    """Play ``block`` on the compiled engine (in this process, a worker or a Ray task). Deal ``d`` is
    game ``d`` of ``seed`` on the compiled engine, whoever sits where: each deal is played from
    every seat, as in Python."""
    from unokit.fast.stats import play_stats_games

    players = len(block.kinds)
    seated = seating(block.kinds, block.rotation)
    heuristic = [seat for seat, kind in enumerate(seated) if kind == "heuristic"]
    out = play_stats_games(
        block.count,
        players,
        block.rules,
        seed=block.seed,
        first=block.first,
        heuristic_seats=heuristic,
        threads=block.threads,
        limit=block.max_decisions,
        edition=block.edition,
        rule_cards=block.rule_cards,
    )
    summaries = []
    for i in range(block.count):
        index = (block.first + i) * players + block.rotation
        if not out["finished"][i]:
            summaries.append(GameSummary(index, tuple(seated), 0, [], [], -1, [], [], finished=False))
            continue
        rounds = int(out["rounds"][i])
        summaries.append(
            GameSummary(
                index=index,
                kinds=tuple(seated),
                rounds=rounds,
                round_winners=[int(w) for w in out["per_round"][i, 3, :rounds]],
                scores=[int(x) for x in out["scores"][i]],
                winner=int(out["winner"][i]),
                decisions=[],
                think_seconds=[],
                total_decisions=int(out["per_round"][i, 0, :rounds].sum()),
            )
        )
    return summaries


def _fast_blocks(template: FastBlock, games: int, first: int, count: int) -> list[FastBlock]:
    """The blocks of deals ``first`` … ``first + count - 1``, one per rotation, of the games below ``games``."""
    players = len(template.kinds)
    blocks = []
    for rotation in range(players):
        # the deals d of this rotation with d * players + rotation < games
        last = min(first + count, (games - rotation + players - 1) // players)
        if last > first:
            blocks.append(replace(template, rotation=rotation, first=first, count=last - first))
    return blocks


def _fast_games(
    edition: str,
    kinds: Sequence[str],
    games: int,
    seed: int,
    rules: Rules,
    cards: tuple[str, ...] | None,
    max_decisions: int,
    workers: int | None,
    ray: str | None,
) -> Generator[list[GameSummary], None, None]:
    """The games of a tournament on the compiled engine, a block at a time as they finish."""
    from unokit.analysis.simulate import BATCH_SECONDS

    if not 0 <= seed < 2**62:
        raise SetupError(f"the compiled engine takes seeds from 0 to 2**62 - 1, not {seed}")
    template = FastBlock(edition, tuple(kinds), seed, rules, cards, max_decisions, rotation=0, first=0, count=1)
    players = len(kinds)
    deals = -(-games // players)
    play_fast_block(template)  # checks the set-up, compiles or loads the code
    if ray is None:
        # In this process on ``workers`` threads, in batches of about BATCH_SECONDS (Ctrl-C stops between two).
        first, size = 0, 16
        while first < deals:
            count = min(size, deals - first)
            clock = time.perf_counter()
            for block in _fast_blocks(template, games, first, count):
                yield play_fast_block(replace(block, threads=workers))
            took = time.perf_counter() - clock
            size = max(1, min(4 * size, int(count * BATCH_SECONDS / max(took, 1e-6))))
            first += count
        return
    size = max(1, min(5_000, -(-deals // (8 * (workers or default_workers())))))
    blocks = [block for first in range(0, deals, size) for block in _fast_blocks(template, games, first, size)]
    chunks = iter_parallel(play_fast_block, blocks, workers, ray=ray)
    with contextlib.closing(chunks):
        for _, done in chunks:
            yield from done


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
        decisions += sum(summary.decisions) if summary.total_decisions is None else summary.total_decisions
        per_seat = summary.total_decisions is None
        for seat, kind in enumerate(summary.kinds):
            tally = tallies[kind]
            tally.seats_held[seat] += 1
            tally.seat_games += 1
            tally.rounds += summary.rounds
            tally.round_wins += sum(1 for w in summary.round_winners if same_side(seat, w, teams))
            tally.points += summary.scores[seat]
            tally.match_wins += same_side(seat, summary.winner, teams)
            if per_seat:
                tally.decisions += summary.decisions[seat]
                tally.think += summary.think_seconds[seat]
            else:
                tally.uncounted = True
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
        if tally.uncounted:
            entry["decisions"] = entry["mean_decision_s"] = None
        else:
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
