"""Statistics of whole matches between bots, written as a Markdown report with PNG plots.

:func:`collect` plays matches (every seat the same kind of bot) and keeps, per round,
the number of decisions, the dealer, the first player, the winner and the points left in
the other hands, and per match the cards played by kind and, for UNO Wild Jackpot, the
lever's outcomes and the rule cards performed. :func:`write_report` turns that into
``report.md`` and plots (matplotlib); :func:`make_report` does both, optionally for every
edition side by side.

>>> stats = collect("classic", players=2, games=2, seed=1, bot="heuristic", workers=1,
...                 rules={"scoring": "single-round"})
>>> stats.rounds, len(stats.decisions_per_round), sum(stats.wins_by_position)
(2, 2, 2)
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from unokit.analysis.simulate import ENGINES, fast_engine_plays
from unokit.analysis.tournament import (
    MAX_DECISIONS,
    Progress,
    default_workers,
    load_bot_kinds,
    require_matplotlib,
    run_parallel,
    wilson_interval,
)
from unokit.editions import EDITIONS, get_edition
from unokit.editions.wild_jackpot import WildJackpot
from unokit.engine.cards import CARD_KIND, KIND_NAMES, Kind
from unokit.engine.errors import SetupError, UnknownOptionError
from unokit.engine.game import Game, same_side
from unokit.engine.rules import LEVER_OUTCOMES, Rules

SPECIAL_KINDS: tuple[Kind, ...] = (
    Kind.SKIP,
    Kind.REVERSE,
    Kind.DRAW_TWO,
    Kind.WILD,
    Kind.WILD_DRAW_FOUR,
    Kind.WILD_JAM,
    Kind.WILD_REVERSE,
    Kind.WILD_SKIP,
    Kind.WILD_SKIP_TWO,
    Kind.WILD_DRAW_TWO,
    Kind.WILD_TARGETED_DRAW_TWO,
    Kind.WILD_FORCED_SWAP,
    Kind.JACKPOT,
    Kind.WILD_JACKPOT,
)
"""The action and wild cards counted, in the report's order (each edition shows those in its deck)."""

COMPARED_EDITIONS = ("classic", "space-jam", "all-wild", "wild-jackpot")

PLOTS = ("length.png", "seats.png", "points.png", "cards.png")
JACKPOT_PLOT = "jackpot.png"
COMPARE_PLOT = "compare.png"


def special_kinds(edition: str, rules: Rules | None = None) -> list[Kind]:
    """The kinds of :data:`SPECIAL_KINDS` in ``edition``'s deck.

    >>> [KIND_NAMES[k] for k in special_kinds("all-wild")][:3]
    ['Wild', 'Wild Draw Four', 'Wild Reverse']
    """
    present = {CARD_KIND[card] for card in get_edition(edition).deck_cards(rules or Rules())}
    return [kind for kind in SPECIAL_KINDS if kind in present]


# ---------------------------------------------------------------- one match


@dataclass(frozen=True)
class MatchSpec:
    """Everything a worker needs to play one match."""

    edition: str
    players: int
    bot: str
    seed: int
    bot_seeds: tuple[int, ...]
    rules: Rules | None
    rule_cards: tuple[str, ...] | None
    max_decisions: int = MAX_DECISIONS
    bots: tuple[str, ...] | None = None
    """The bot kind in each seat (default: ``bot`` in every seat)."""


@dataclass
class MatchSummary:
    """What the statistics keep of one match (lists have one entry per round)."""

    decisions_per_round: list[int]
    """The decisions applied in each round (a call, catch or jump-in included)."""
    dealers: list[int]
    first_players: list[int]
    """The seat that took the round's first turn (-1 if nobody did)."""
    round_winners: list[int]
    round_points: list[int]
    """Points left in the other hands at the round's end (what the winner collects)."""
    scores: list[int]
    winner: int
    plays: dict[int, int]
    """Cards played, by kind."""
    levers: list[int]
    rules_enforced: int
    rules_honour: int
    turns: list[int] = field(default_factory=list)
    """Per round: decisions taken by the player whose turn it is, in the turn phase (a card played
    or a draw; not calls, catches, jump-ins, nor the decisions of other phases: keeping a drawn
    card, colours, challenges, answers to a pending total, targets, discards, ...)."""
    cards_drawn: list[int] = field(default_factory=list)
    """Per round: the cards of the round's ``draw`` events, the cards that went from the draw pile
    into hands (penalties, pending totals, the lever's and the rule cards' draws included; not the deal)."""
    lead_changes: list[int] = field(default_factory=list)
    """Per round: how often the seat holding the fewest cards alone changed.  Before each decision,
    the seat holding fewer cards than every other seat in the round (seats out of it aside), if
    there is one, counts one change when it differs from the last such seat seen in the round
    (a tie leaves the last one in place); at the round's end the winner is that seat."""
    mid_trailing: list[int] = field(default_factory=list)
    """Per round: the seat holding more cards than every other seat in the round before the round's
    middle decision (number ``decisions // 2``, from 0); -1 if several share the most, if the round
    had no decision, or if it had ``2 * MID_ROOM`` (8,192) decisions or more (both engines keep
    the first :data:`unokit.analysis.rounds.MID_ROOM`)."""
    blocked: list[int] = field(default_factory=list)
    """Per round: 1 if the round was blocked (a ``blocked`` event: nobody could play or draw), else 0."""
    marks: list[list[int]] = field(default_factory=list)
    """Per round, per seat: a bit set of :class:`unokit.analysis.rounds.Mark`, what the seat made or
    met in the round (cards played by kind, lever outcomes pulled, rule cards performed, house-rule
    and core events), each defined on the round's events."""


def play_stats_match(spec: MatchSpec) -> MatchSummary | None:
    """Play the match ``spec`` describes and summarise it (runs in a worker process);
    ``None`` if it was stopped at ``spec.max_decisions``."""
    from unokit.analysis.rounds import tracked_game
    from unokit.bots import make_bot
    from unokit.bots.runner import play_match

    load_bot_kinds()
    kinds = spec.bots or (spec.bot,) * spec.players
    bots = [make_bot(kind, seed=s, edition=spec.edition) for kind, s in zip(kinds, spec.bot_seeds, strict=True)]
    cards = list(spec.rule_cards) if spec.rule_cards is not None else None
    game, tracker = tracked_game(spec.edition, spec.players, seed=spec.seed, rules=spec.rules, rule_cards=cards)
    try:
        result = play_match(game, bots, max_decisions=spec.max_decisions)
    except RuntimeError:
        if not game.is_over and len(game.history) >= spec.max_decisions:
            return None  # (as play_capped)
        raise
    dealers: list[int] = []
    points: list[int] = []
    in_hands = 0
    plays: Counter[int] = Counter()
    levers = [0] * len(LEVER_OUTCOMES)
    performed: list[int] = []
    for kind, seat, value, data in result.events:
        if kind == "dealer":
            dealers.append(seat)
            in_hands = 0
        elif kind == "hand":
            in_hands += value
        elif kind == "round_end":
            points.append(in_hands)
        elif kind == "play":
            plays[int(CARD_KIND[data[0]])] += 1
        elif kind == "lever":
            levers[value - 1] += 1
        elif kind == "rule":
            performed.append(value)
    enforced = sum(1 for rid in performed if WildJackpot.card(game, rid).enforced)
    rounds = result.rounds
    records = tracker.records(result.events)[:rounds]
    return MatchSummary(
        decisions_per_round=[r.decisions for r in records],
        dealers=dealers[:rounds],
        first_players=[r.first_player for r in records],
        round_winners=list(result.round_winners),
        round_points=points,
        scores=list(result.scores),
        winner=result.winner,
        plays=dict(plays),
        levers=levers,
        rules_enforced=enforced,
        rules_honour=len(performed) - enforced,
        turns=[r.turns for r in records],
        cards_drawn=[r.cards_drawn for r in records],
        lead_changes=[r.lead_changes for r in records],
        mid_trailing=[r.mid_trailing for r in records],
        blocked=[r.blocked for r in records],
        marks=[r.marks for r in records],
    )


# ---------------------------------------------------------------- many matches


@dataclass
class EditionStats:
    """The statistics of the matches of one edition."""

    edition: str
    title: str
    players: int
    games: int
    bot: str
    seed: int
    rules: Rules
    elapsed_s: float = 0.0
    unfinished: int = 0
    """Matches stopped at the cap on decisions (left out of every count)."""
    decisions_per_round: list[int] = field(default_factory=list)
    rounds_per_match: list[int] = field(default_factory=list)
    wins_by_position: list[int] = field(default_factory=list)
    """Round wins by seat relative to the dealer: 0 = the dealer, 1 = left of the dealer, ...
    (house rule ``teams``: a team's win counts for both partners)."""
    first_player_rounds: int = 0
    first_player_wins: int = 0
    round_points: list[int] = field(default_factory=list)
    winner_scores: list[int] = field(default_factory=list)
    """The match winners' final scores (scored matches only)."""
    plays: dict[int, int] = field(default_factory=dict)
    levers: list[int] = field(default_factory=list)
    rules_enforced: int = 0
    rules_honour: int = 0
    engine: str = "python"
    """``python`` (:class:`unokit.Game` and the Python bots) or ``fast`` (the compiled engine and bots)."""

    @classmethod
    def empty(
        cls, edition: str, players: int, games: int, bot: str, seed: int, rules: Rules | None, engine: str = "python"
    ) -> EditionStats:
        """The statistics of no match yet (matches are added with :meth:`add`)."""
        return cls(
            edition=edition,
            title=get_edition(edition).title,
            players=players,
            games=games,
            bot=bot,
            seed=seed,
            rules=rules if rules is not None else Rules(),
            wins_by_position=[0] * players,
            levers=[0] * len(LEVER_OUTCOMES),
            engine=engine,
        )

    @property
    def rounds(self) -> int:
        return len(self.decisions_per_round)

    @property
    def jackpot(self) -> bool:
        return isinstance(get_edition(self.edition), WildJackpot)

    @property
    def equal_chance(self) -> float:
        """A seat's round win rate if every seat had equal chances (with teams, its team's: 1/2)."""
        return 1 / 2 if self.rules.teams else 1 / self.players

    @property
    def scored(self) -> bool:
        return get_edition(self.edition).scoring_method(self.rules) in ("winner-collects", "running-tally")

    def add(self, match: MatchSummary) -> None:
        n = self.players
        self.decisions_per_round += match.decisions_per_round
        self.rounds_per_match.append(len(match.round_winners))
        teams = self.rules.teams
        for dealer, first, winner in zip(match.dealers, match.first_players, match.round_winners, strict=True):
            for seat in range(n) if teams else (winner,):
                if same_side(seat, winner, teams):
                    self.wins_by_position[(seat - dealer) % n] += 1
            if first >= 0:
                self.first_player_rounds += 1
                self.first_player_wins += same_side(first, winner, teams)
        self.round_points += match.round_points
        if self.scored:
            self.winner_scores.append(match.scores[match.winner])
        for kind, count in match.plays.items():
            self.plays[kind] = self.plays.get(kind, 0) + count
        self.levers = [a + b for a, b in zip(self.levers, match.levers, strict=True)]
        self.rules_enforced += match.rules_enforced
        self.rules_honour += match.rules_honour

    def position_rows(self) -> list[tuple[str, int, int, float, tuple[float, float]]]:
        """``(label, rounds, wins, rate, ci95)`` for each seat from the dealer's left round
        to the dealer, then the first player."""
        rows = []
        for step in range(1, self.players + 1):
            position = step % self.players
            wins = self.wins_by_position[position]
            label = "dealer" if position == 0 else f"dealer +{position}"
            rows.append((label, self.rounds, wins, _rate(wins, self.rounds), wilson_interval(wins, self.rounds)))
        rows.append(
            (
                "first player",
                self.first_player_rounds,
                self.first_player_wins,
                _rate(self.first_player_wins, self.first_player_rounds),
                wilson_interval(self.first_player_wins, self.first_player_rounds),
            )
        )
        return rows

    def per_round(self, kind: Kind) -> float:
        return self.plays.get(int(kind), 0) / self.rounds if self.rounds else 0.0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary."""
        first_low, first_high = wilson_interval(self.first_player_wins, self.first_player_rounds)
        out: dict[str, Any] = {
            "edition": self.edition,
            "players": self.players,
            "games": self.games,
            "bot": self.bot,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "rounds": self.rounds,
            "mean_decisions_per_round": round(_mean(self.decisions_per_round), 2),
            "mean_rounds_per_match": round(_mean(self.rounds_per_match), 2),
            "wins_by_position": list(self.wins_by_position),
            "first_player_win_rate": round(_rate(self.first_player_wins, self.first_player_rounds), 4),
            "first_player_ci95": [round(first_low, 4), round(first_high, 4)],
            "mean_round_points": round(_mean(self.round_points), 2),
            "plays_per_round": {KIND_NAMES[k]: round(self.per_round(k), 3) for k in special_kinds(self.edition)},
            "unfinished": self.unfinished,
            "elapsed_s": round(self.elapsed_s, 3),
            "engine": self.engine,
        }
        if self.jackpot:
            out["lever_outcomes"] = dict(zip(LEVER_OUTCOMES, self.levers, strict=True))
            out["rule_cards_performed"] = {"enforced": self.rules_enforced, "honour": self.rules_honour}
        return out


def match_seed(seed: int, index: int) -> int:
    """The seed of match ``index`` of statistics seeded with ``seed`` (the same for every edition)."""
    return random.Random(f"unokit-stats/{seed}/{index}").getrandbits(63)


def collect(
    edition: str,
    players: int,
    games: int,
    seed: int,
    bot: str = "random",
    workers: int | None = None,
    rules: Rules | dict[str, Any] | None = None,
    rule_cards: Sequence[str] | None = None,
    progress: Progress | None = None,
    max_decisions: int = MAX_DECISIONS,
    engine: str = "python",
) -> EditionStats:
    """Play ``games`` matches of ``edition`` with a ``bot`` in every seat and gather their statistics.

    The numbers follow from ``seed`` whatever the number of ``workers`` (only ``elapsed_s`` varies).
    A match still going after ``max_decisions`` actions is stopped and left out (``unfinished``).
    ``engine``: ``python``, ``fast`` (the compiled engine and bots: the editions and rule options
    :mod:`unokit.fast.engine` plays, ``random`` or ``heuristic`` bots; the same seed gives other
    deals than in Python) or ``auto`` (``fast`` where it plays the match); the result's ``engine``
    says which played."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SetupError(f"games must be a positive integer, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError(f"seed must be an integer, not {seed!r}")
    from unokit.bots import make_bot

    load_bot_kinds()
    edition = get_edition(edition).name
    if isinstance(rules, dict):
        rules = Rules.from_dict(rules)
    cards = tuple(rule_cards) if rule_cards is not None else None
    if engine not in ENGINES:
        raise UnknownOptionError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    if engine != "python":
        why_not = fast_engine_plays(edition, rules, "heuristic")  # (the compiled bots' module plays both bots)
        if why_not is None and bot not in ("random", "heuristic"):
            why_not = f"the compiled engine has random and heuristic bots, not {bot!r}; the Python engine has it"
        if why_not is None:
            return _collect_fast(edition, players, games, seed, bot, rules, progress, max_decisions, cards)
        if engine == "fast":
            raise UnknownOptionError(why_not)
    Game(edition, players, seed=match_seed(seed, 0), rules=rules, rule_cards=cards)  # checks the set-up
    make_bot(bot, seed=0, edition=edition)  # checks the kind
    specs = [
        MatchSpec(
            edition=edition,
            players=players,
            bot=bot,
            seed=match_seed(seed, index),
            bot_seeds=tuple(
                random.Random(f"unokit-stats-bot/{seed}/{index}/{s}").getrandbits(63) for s in range(players)
            ),
            rules=rules,
            rule_cards=cards,
            max_decisions=max_decisions,
        )
        for index in range(games)
    ]
    started = time.perf_counter()
    matches = run_parallel(play_stats_match, specs, workers, progress)
    stats = EditionStats.empty(edition, players, games, bot, seed, rules)
    for match in matches:
        if match is None:
            stats.unfinished += 1
        else:
            stats.add(match)
    stats.elapsed_s = time.perf_counter() - started
    return stats


def _collect_fast(
    edition: str,
    players: int,
    games: int,
    seed: int,
    bot: str,
    rules: Rules | None,
    progress: Progress | None,
    max_decisions: int,
    rule_cards: Sequence[str] | None = None,
) -> EditionStats:
    """:func:`collect` on the compiled engine: matches numbered 0 … ``games - 1`` of ``seed`` (Wild
    Jackpot: the lever's outcomes and the rule cards performed counted by the compiled state)."""
    from unokit.fast.stats import play_stats_games

    rules = rules if rules is not None else Rules()
    if not 0 <= seed < 2**62:
        raise SetupError(f"the compiled engine takes seeds from 0 to 2**62 - 1, not {seed}")
    seats: list[int] | None = None if bot == "heuristic" else []
    play_stats_games(  # checks, compiles
        1, players, rules, seed=seed, heuristic_seats=seats, edition=edition, rule_cards=rule_cards
    )
    stats = EditionStats.empty(edition, players, games, bot, seed, rules, engine="fast")
    started = time.perf_counter()
    batch = 10_000
    for first in range(0, games, batch):
        count = min(batch, games - first)
        out = play_stats_games(
            count,
            players,
            rules,
            seed=seed,
            first=first,
            heuristic_seats=seats,
            limit=max_decisions,
            edition=edition,
            rule_cards=rule_cards,
        )
        for game in range(count):
            match = fast_match_summary(out, game)
            if match is None:
                stats.unfinished += 1
            else:
                stats.add(match)
        if progress is not None:
            progress(first + count, games)
    stats.elapsed_s = time.perf_counter() - started
    return stats


def fast_match_summary(out: dict[str, Any], game: int) -> MatchSummary | None:
    """Match ``game`` of :func:`unokit.fast.stats.play_stats_games`'s arrays ``out`` as a summary
    (``None`` if it did not finish)."""
    from unokit.fast.stats import PER_ROUND_ROWS

    if not out["finished"][game]:
        return None
    rounds = int(out["rounds"][game])
    rows = {name: row[:rounds].tolist() for name, row in zip(PER_ROUND_ROWS, out["per_round"][game], strict=True)}
    jackpot = "levers" in out
    return MatchSummary(
        decisions_per_round=rows["decisions"],
        dealers=rows["dealer"],
        first_players=rows["first_player"],
        round_winners=rows["winner"],
        round_points=rows["points"],
        scores=out["scores"][game].tolist(),
        winner=int(out["winner"][game]),
        plays={kind: int(count) for kind, count in enumerate(out["plays"][game]) if count},
        levers=out["levers"][game].tolist() if jackpot else [0] * len(LEVER_OUTCOMES),
        rules_enforced=int(out["rules_performed"][game, 0]) if jackpot else 0,
        rules_honour=int(out["rules_performed"][game, 1]) if jackpot else 0,
        turns=rows["turns"],
        cards_drawn=rows["cards_drawn"],
        lead_changes=rows["lead_changes"],
        mid_trailing=rows["mid_trailing"],
        blocked=rows["blocked"],
        marks=out["marks"][game, :rounds].tolist(),
    )


def make_report(
    out: str | Path,
    edition: str,
    players: int,
    games: int,
    seed: int,
    bot: str = "random",
    workers: int | None = None,
    rules: Rules | dict[str, Any] | None = None,
    rule_cards: Sequence[str] | None = None,
    compare: bool = False,
    command: str | None = None,
    progress: Progress | None = None,
    max_decisions: int = MAX_DECISIONS,
    engine: str = "python",
) -> dict[str, Any]:
    """Gather the statistics of ``edition`` (and, with ``compare``, of every edition with the
    same settings) and write ``out/report.md`` and its plots. ``command`` is the command
    line shown in the report. Returns ``{"report": path, "plots": [paths], "editions": {name:
    summary}}``."""
    require_matplotlib()
    edition = get_edition(edition).name
    editions = [edition]
    if compare:
        editions += [name for name in COMPARED_EDITIONS if name != edition and name in EDITIONS]
    workers = default_workers() if workers is None else workers
    total = games * len(editions)
    gathered: list[EditionStats] = []
    for number, name in enumerate(editions):

        def advance(done: int, _total: int, offset: int = number * games) -> None:
            if progress is not None:
                progress(offset + done, total)

        cards = rule_cards if isinstance(get_edition(name), WildJackpot) else None
        chosen = engine if name == edition else ("auto" if engine == "fast" else engine)  # compared: where it can
        gathered.append(collect(name, players, games, seed, bot, workers, rules, cards, advance, max_decisions, chosen))
    comparison = gathered if compare else None
    report, plots = write_report(out, gathered[0], comparison, command)
    return {
        "report": str(report),
        "plots": [str(p) for p in plots],
        "editions": {s.edition: s.to_dict() for s in gathered},
    }


# ---------------------------------------------------------------- report


def write_report(
    out: str | Path,
    stats: EditionStats,
    comparison: Sequence[EditionStats] | None = None,
    command: str | None = None,
) -> tuple[Path, list[Path]]:
    """Write ``out/report.md`` and its PNG plots for ``stats`` (and a comparison of editions);
    returns the report's path and the plots' paths."""
    require_matplotlib()
    directory = Path(out)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SetupError(f"cannot create {directory}: {exc}") from None
    plots = [
        _plot_length(stats, directory / "length.png"),
        _plot_seats(stats, directory / "seats.png"),
        _plot_points(stats, directory / "points.png"),
        _plot_cards(stats, directory / "cards.png"),
    ]
    jackpot = stats if stats.jackpot else next((e for e in comparison or () if e.jackpot), None)
    if jackpot is not None:
        plots.append(_plot_jackpot(jackpot, directory / JACKPOT_PLOT))
    if comparison:
        plots.append(_plot_compare(comparison, directory / COMPARE_PLOT))
    report = directory / "report.md"
    report.write_text(render_markdown(stats, comparison, command), encoding="utf-8")
    return report, plots


def render_markdown(
    stats: EditionStats, comparison: Sequence[EditionStats] | None = None, command: str | None = None
) -> str:
    """The report's Markdown text (the plots are referenced by file name)."""
    s = stats
    lines: list[str] = [
        f"# Statistics of {s.title}: {s.players} players, {s.games} matches, {s.bot} bots",
        "",
    ]
    engine_words = "the compiled engine (unokit.fast)" if s.engine == "fast" else "the Python engine (unokit.Game)"
    if command:
        lines += [f"Made with `{command}`.", ""]
    rules_text = ", ".join(f"{k}={v}" for k, v in s.rules.to_dict().items()) or "default rules"
    lines += [
        "| setting | value |",
        "| --- | --- |",
        f"| edition | {s.edition} |",
        f"| engine | {engine_words}, {s.bot} bots |",
        f"| players | {s.players} |",
        f"| matches | {s.games}{_unfinished(s)} |",
        f"| rounds | {s.rounds} |",
        f"| bots | {s.bot} in every seat |",
        f"| seed | {s.seed} |",
        f"| rules | {rules_text} |",
        f"| time | {s.elapsed_s:.1f} s |",
        "",
        "## Game length",
        "",
        "A decision is one action of a player: a card played, a draw, a pass, a colour named, a challenge,",
        "a call or catch of UNO, and so on.",
        "",
        "| measure | mean | median | 10th percentile | 90th percentile | max |",
        "| --- | --- | --- | --- | --- | --- |",
        _summary_row("decisions per round", s.decisions_per_round),
        _summary_row("rounds per match", s.rounds_per_match),
        "",
        "![Game length](length.png)",
        "",
        "## First player and seat advantage",
        "",
        f"Round win rate by seat relative to the dealer (dealer +1 is on the dealer's left, who usually plays "
        f"first), and of the player who took the round's first turn"
        f"{' (a team win counts for both partners)' if s.rules.teams else ''}. Equal chances would be "
        f"{_pct(s.equal_chance)}. Intervals are 95% Wilson intervals.",
        "",
        "| seat | rounds | wins | win rate | 95% CI |",
        "| --- | --- | --- | --- | --- |",
    ]
    for label, rounds, wins, rate, (low, high) in s.position_rows():
        lines.append(f"| {label} | {rounds} | {wins} | {_pct(rate)} | {_pct(low)} to {_pct(high)} |")
    lines += [
        "",
        "![Seat advantage](seats.png)",
        "",
        "## Points",
        "",
        "Points left in the other players' hands when a round ends (what the round's winner collects under",
        "winner-collects scoring).",
        "",
        "| measure | mean | median | 10th percentile | 90th percentile | max |",
        "| --- | --- | --- | --- | --- | --- |",
        _summary_row("points per round", s.round_points),
    ]
    if s.winner_scores:
        lines.append(_summary_row("match winner's final score", s.winner_scores))
    lines += [
        "",
        "![Points](points.png)",
        "",
        "## Special cards",
        "",
        "How often each action or wild card of the deck is played.",
        "",
        "| card | plays | per round |",
        "| --- | --- | --- |",
    ]
    for kind in special_kinds(s.edition, s.rules):
        lines.append(f"| {KIND_NAMES[kind]} | {s.plays.get(int(kind), 0)} | {s.per_round(kind):.2f} |")
    lines += ["", "![Special cards](cards.png)", ""]
    jackpot = s if s.jackpot else next((e for e in comparison or () if e.jackpot), None)
    if jackpot is not None:
        pulls = sum(jackpot.levers)
        performed = jackpot.rules_enforced + jackpot.rules_honour
        where = "" if jackpot is s else f"In the {jackpot.edition} matches of the comparison below, the"
        lines += [
            "## Wild Jackpot: lever and rule cards",
            "",
            f"{where or 'The'} lever was pulled {pulls} times ({_ratio(pulls, jackpot.rounds)} per round); "
            f"{performed} rule cards were performed.",
            "",
            "| lever outcome | count | share |",
            "| --- | --- | --- |",
        ]
        for name, count in zip(LEVER_OUTCOMES, jackpot.levers, strict=True):
            lines.append(f"| {name} | {count} | {_pct(_rate(count, pulls))} |")
        lines += [
            "",
            "| rule cards performed | count | share |",
            "| --- | --- | --- |",
            f"| enforced | {jackpot.rules_enforced} | {_pct(_rate(jackpot.rules_enforced, performed))} |",
            f"| honour task | {jackpot.rules_honour} | {_pct(_rate(jackpot.rules_honour, performed))} |",
            "",
            f"![Lever and rule cards]({JACKPOT_PLOT})",
            "",
        ]
    if comparison:
        lines += [
            "## Editions compared",
            "",
            f"The same settings ({s.players} players, {s.games} matches, {s.bot} bots, seed {s.seed}, "
            f"{rules_text}) for every edition.",
            "",
            "| edition | matches finished | rounds | rounds per match | decisions per round "
            "| first player wins (95% CI) | points per round | special cards per round | time | engine |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for e in comparison:
            low, high = wilson_interval(e.first_player_wins, e.first_player_rounds)
            first = f"{_pct(_rate(e.first_player_wins, e.first_player_rounds))} ({_pct(low)} to {_pct(high)})"
            specials = sum(e.per_round(k) for k in special_kinds(e.edition, e.rules))
            lines.append(
                f"| {e.edition} | {e.games - e.unfinished} | {e.rounds} | {_mean(e.rounds_per_match):.2f} | "
                f"{_mean(e.decisions_per_round):.1f} | {first} | {_mean(e.round_points):.1f} | "
                f"{specials:.2f} | {e.elapsed_s:.1f} s | {e.engine} |"
            )
        lines += ["", f"![Editions compared]({COMPARE_PLOT})", ""]
    return "\n".join(lines)


def _unfinished(s: EditionStats) -> str:
    if not s.unfinished:
        return ""
    return f" ({s.unfinished} stopped unfinished after too many decisions and left out)"


def _mean(values: Sequence[int]) -> float:
    return statistics.fmean(values) if values else 0.0


def _rate(wins: int, trials: int) -> float:
    return wins / trials if trials else 0.0


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _ratio(count: int, rounds: int) -> str:
    return f"{count / rounds:.2f}" if rounds else "0"


def percentile(values: Sequence[int], fraction: float) -> int:
    """The nearest-rank percentile of ``values`` (``0`` when empty).

    >>> percentile([5, 1, 3, 2, 4], 0.5), percentile([5, 1, 3, 2, 4], 0.9), percentile([7], 0.1)
    (3, 5, 7)
    """
    if not values:
        return 0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * fraction // 1))
    return ordered[min(len(ordered), int(rank)) - 1]


def _summary_row(label: str, values: Sequence[int]) -> str:
    if not values:
        return f"| {label} | - | - | - | - | - |"
    return (
        f"| {label} | {_mean(values):.1f} | {statistics.median(values):g} | {percentile(values, 0.1)} | "
        f"{percentile(values, 0.9)} | {max(values)} |"
    )


# ---------------------------------------------------------------- plots


def _figure(width: float, height: float) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig


def _save(fig: Any, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=100)
    return path


def _plot_length(s: EditionStats, path: Path) -> Path:
    fig = _figure(10, 4)
    left, right = fig.subplots(1, 2)
    left.hist(s.decisions_per_round, bins=min(40, max(1, len(set(s.decisions_per_round)))), color="tab:blue")
    left.set_xlabel("decisions per round")
    left.set_ylabel("rounds")
    left.set_title("Round length")
    counts = Counter(s.rounds_per_match)
    xs = sorted(counts)
    right.bar(xs, [counts[x] for x in xs], color="tab:green")
    right.set_xlabel("rounds per match")
    right.set_ylabel("matches")
    right.set_title("Match length")
    fig.suptitle(f"{s.title}, {s.players} players, {s.bot} bots")
    return _save(fig, path)


def _plot_seats(s: EditionStats, path: Path) -> Path:
    rows = s.position_rows()
    labels = [row[0] for row in rows]
    rates = [row[3] for row in rows]
    lows = [max(0.0, row[3] - row[4][0]) for row in rows]
    highs = [max(0.0, row[4][1] - row[3]) for row in rows]
    fig = _figure(max(6.0, 1.1 * len(rows) + 2), 4)
    ax = fig.add_subplot()
    positions = list(range(len(rows)))
    colours = ["tab:blue"] * (len(rows) - 1) + ["tab:orange"]
    ax.bar(positions, rates, yerr=[lows, highs], capsize=5, color=colours)
    ax.axhline(s.equal_chance, color="grey", linestyle="--", label="equal chances")
    ax.set_xticks(positions, labels, rotation=30, ha="right")
    ax.set_ylabel("round win rate (95% CI)")
    ax.set_ylim(0, min(1.0, max(r + h for r, h in zip(rates, highs, strict=True)) * 1.2 + 0.05))
    ax.set_title(f"Seat advantage: {s.title}, {s.players} players")
    ax.legend(loc="upper right")
    return _save(fig, path)


def _plot_points(s: EditionStats, path: Path) -> Path:
    panels = 2 if s.winner_scores else 1
    fig = _figure(5 * panels, 4)
    axes = fig.subplots(1, panels, squeeze=False)[0]
    axes[0].hist(s.round_points or [0], bins=30, color="tab:purple")
    axes[0].set_xlabel("points left in the other hands")
    axes[0].set_ylabel("rounds")
    axes[0].set_title("Points per round")
    if s.winner_scores:
        axes[1].hist(s.winner_scores, bins=20, color="tab:red")
        axes[1].set_xlabel("final score")
        axes[1].set_ylabel("matches")
        axes[1].set_title("Match winner's score")
    return _save(fig, path)


def _plot_cards(s: EditionStats, path: Path) -> Path:
    kinds = special_kinds(s.edition, s.rules)
    fig = _figure(7, 0.45 * len(kinds) + 1.5)
    ax = fig.add_subplot()
    ax.barh([KIND_NAMES[k] for k in kinds], [s.per_round(k) for k in kinds], color="tab:cyan")
    ax.invert_yaxis()
    ax.set_xlabel("plays per round")
    ax.set_title(f"Special cards: {s.title}")
    return _save(fig, path)


def _plot_jackpot(s: EditionStats, path: Path) -> Path:
    fig = _figure(10, 4)
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 1]})
    left.bar(list(LEVER_OUTCOMES), s.levers, color="tab:olive")
    left.tick_params(axis="x", labelrotation=30)
    left.set_ylabel("pulls")
    left.set_title("Lever outcomes")
    right.bar(["enforced", "honour"], [s.rules_enforced, s.rules_honour], color=["tab:blue", "tab:orange"])
    right.set_ylabel("rule cards performed")
    right.set_title("Rule cards")
    return _save(fig, path)


def _plot_compare(comparison: Sequence[EditionStats], path: Path) -> Path:
    names = [e.edition for e in comparison]
    fig = _figure(12, 4)
    length, first, cards = fig.subplots(1, 3)
    length.bar(names, [_mean(e.decisions_per_round) for e in comparison], color="tab:blue")
    length.set_title("Decisions per round")
    rates = [_rate(e.first_player_wins, e.first_player_rounds) for e in comparison]
    intervals = [wilson_interval(e.first_player_wins, e.first_player_rounds) for e in comparison]
    errors = [
        [max(0.0, r - lo) for r, (lo, _) in zip(rates, intervals, strict=True)],
        [max(0.0, hi - r) for r, (_, hi) in zip(rates, intervals, strict=True)],
    ]
    first.bar(names, rates, yerr=errors, capsize=5, color="tab:orange")
    first.axhline(1 / comparison[0].players, color="grey", linestyle="--")
    first.set_title("First player's round win rate")
    cards.bar(
        names,
        [sum(e.per_round(k) for k in special_kinds(e.edition, e.rules)) for e in comparison],
        color="tab:green",
    )
    cards.set_title("Special cards per round")
    for ax in (length, first, cards):
        ax.tick_params(axis="x", labelrotation=30)
    return _save(fig, path)
