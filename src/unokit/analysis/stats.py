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
import re
import textwrap
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from unokit.analysis.measures import (
    Setup,
    Tally,
    chunk_values,
    match_values,
    measures_for,
    play_fast_arrays,
    play_matches,
    plays_key,
    position_label,
)
from unokit.analysis.simulate import ENGINES, fast_engine_plays
from unokit.analysis.tournament import (
    MAX_DECISIONS,
    Interrupted,
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

if TYPE_CHECKING:
    from unokit.analysis.rounds import RoundTracker
    from unokit.analysis.rows import RowWriter

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
ATTRIBUTION_PLOT = "attribution.png"
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
        play_match(game, bots, max_decisions=spec.max_decisions)
    except RuntimeError:
        if not game.is_over and len(game.history) >= spec.max_decisions:
            return None  # (as play_capped)
        raise
    return summarise_game(game, tracker)


def summarise_game(game: Game, tracker: RoundTracker) -> MatchSummary:
    """The :class:`MatchSummary` of a finished ``game`` made by
    :func:`unokit.analysis.rounds.tracked_game` (with its ``tracker``), read from its events and its
    ``round_results``."""
    dealers: list[int] = []
    results = game.round_results
    # the points of the hands counted at the round's end (not those Mercy put out of it earlier)
    points = [sum(p for p, out in zip(r.points, r.mercy_hands, strict=True) if not out) for r in results]
    winners = [result.winner for result in results]
    plays: Counter[int] = Counter()
    levers = [0] * len(LEVER_OUTCOMES)
    performed: list[int] = []
    for kind, seat, value, data in game.events:
        if kind == "dealer":
            dealers.append(seat)
        elif kind == "play":
            plays[int(CARD_KIND[data[0]])] += 1
        elif kind == "lever":
            levers[value - 1] += 1
        elif kind == "rule":
            performed.append(value)
    enforced = sum(1 for rid in performed if WildJackpot.card(game, rid).enforced)
    rounds = len(winners)
    records = tracker.records(game.events)[:rounds]
    return MatchSummary(
        decisions_per_round=[r.decisions for r in records],
        dealers=dealers[:rounds],
        first_players=[r.first_player for r in records],
        round_winners=winners,
        round_points=points,
        scores=list(game.scores),
        winner=game.winner,
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
    """The statistics of the matches of one edition: integer sums and histograms (value → how
    often), never a list of every match, so that the memory stays flat in the number of matches.
    Statistics of disjoint sets of matches add up with :meth:`merge`."""

    edition: str
    title: str
    players: int
    games: int
    bot: str
    seed: int
    rules: Rules
    elapsed_s: float = 0.0
    unfinished: int = 0
    """Matches stopped at the cap on decisions (left out of every other count)."""
    decisions_per_round: Counter[int] = field(default_factory=Counter)
    """Histograms: value → rounds (or matches) with it."""
    rounds_per_match: Counter[int] = field(default_factory=Counter)
    wins_by_position: list[int] = field(default_factory=list)
    """Round wins by seat relative to the dealer: 0 = the dealer, 1 = left of the dealer, ...
    (house rule ``teams``: a team's win counts for both partners)."""
    first_player_rounds: int = 0
    first_player_wins: int = 0
    round_points: Counter[int] = field(default_factory=Counter)
    winner_scores: Counter[int] = field(default_factory=Counter)
    """The match winners' final scores (scored matches only)."""
    plays: dict[int, int] = field(default_factory=dict)
    levers: list[int] = field(default_factory=list)
    rules_enforced: int = 0
    rules_honour: int = 0
    engine: str = "python"
    """``python`` (:class:`unokit.Game` and the Python bots) or ``fast`` (the compiled engine and bots)."""
    decisions_per_match: Counter[int] = field(default_factory=Counter)
    turns_per_round: Counter[int] = field(default_factory=Counter)
    turns_per_match: Counter[int] = field(default_factory=Counter)
    cards_drawn_per_round: Counter[int] = field(default_factory=Counter)
    tally: Tally = field(default_factory=Tally)
    """The sums of every measure of :func:`unokit.analysis.measures.measures_for` (with intervals)."""
    played: int = 0
    """Matches played so far, finished or stopped at the cap."""
    partial: bool = False
    """Interrupted (Ctrl-C) before every match was played."""
    rule_cards: tuple[str, ...] | None = None

    @classmethod
    def empty(
        cls,
        edition: str,
        players: int,
        games: int,
        bot: str,
        seed: int,
        rules: Rules | None,
        engine: str = "python",
        rule_cards: tuple[str, ...] | None = None,
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
            rule_cards=rule_cards,
        )

    @property
    def setup(self) -> Setup:
        engine: Any = "fast" if self.engine == "fast" else "python"
        return _setup(self.edition, self.players, self.bot, self.rules, self.rule_cards, engine)

    @property
    def rounds(self) -> int:
        return sum(self.decisions_per_round.values())

    @property
    def finished(self) -> int:
        """Matches played to their end."""
        return sum(self.rounds_per_match.values())

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

    @property
    def label(self) -> str:
        """The rule set in words: edition, players, bots and every rule changed (plot titles)."""
        rules_text = ", ".join(f"{k}={v}" for k, v in self.rules.to_dict().items()) or "default rules"
        return f"{self.title}, {self.players} players, {self.bot} bots, {rules_text}"

    def add(self, match: MatchSummary | None) -> None:
        """Count one match (``None``: stopped at the cap)."""
        self.played += 1
        self.tally.add(match_values(self.setup, match))
        if match is None:
            self.unfinished += 1
            return
        n = self.players
        self.decisions_per_round.update(match.decisions_per_round)
        self.rounds_per_match[len(match.round_winners)] += 1
        self.decisions_per_match[sum(match.decisions_per_round)] += 1
        if len(match.turns) == len(match.round_winners):
            self.turns_per_round.update(match.turns)
            self.turns_per_match[sum(match.turns)] += 1
        if len(match.cards_drawn) == len(match.round_winners):
            self.cards_drawn_per_round.update(match.cards_drawn)
        teams = self.rules.teams
        for dealer, first, winner in zip(match.dealers, match.first_players, match.round_winners, strict=True):
            for seat in range(n) if teams else (winner,):
                if same_side(seat, winner, teams):
                    self.wins_by_position[(seat - dealer) % n] += 1
            if first >= 0:
                self.first_player_rounds += 1
                self.first_player_wins += same_side(first, winner, teams)
        self.round_points.update(match.round_points)
        if self.scored:
            self.winner_scores[match.scores[match.winner]] += 1
        for kind, count in match.plays.items():
            self.plays[kind] = self.plays.get(kind, 0) + count
        self.levers = [a + b for a, b in zip(self.levers, match.levers, strict=True)]
        self.rules_enforced += match.rules_enforced
        self.rules_honour += match.rules_honour

    def add_chunk(self, out: Mapping[str, Any]) -> None:
        """Count every match of :func:`unokit.fast.stats.play_stats_games`'s arrays ``out`` at once:
        the same counts as :meth:`add` of each match's :func:`fast_match_summary`."""
        import numpy as np

        from unokit.fast.stats import PER_ROUND_ROWS

        values = chunk_values(self.setup, out)
        self.tally.add_chunk(values)
        finished = np.asarray(out["finished"]) != 0
        self.played += len(finished)
        self.unfinished += int((~finished).sum())
        rounds = np.asarray(out["rounds"])[finished]
        per_round = np.asarray(out["per_round"])[finished]
        live = np.arange(per_round.shape[2])[None, :] < rounds[:, None]

        def row(name: str) -> Any:
            return per_round[:, PER_ROUND_ROWS.index(name)][live]

        _add_counts(self.decisions_per_round, row("decisions"))
        _add_counts(self.rounds_per_match, rounds)
        _add_counts(self.decisions_per_match, values["decisions_per_match"][0][finished])
        _add_counts(self.turns_per_round, row("turns"))
        _add_counts(self.turns_per_match, values["turns_per_match"][0][finished])
        _add_counts(self.cards_drawn_per_round, row("cards_drawn"))
        _add_counts(self.round_points, row("points"))
        for position in range(self.players):
            key = "win_rate_" + ("dealer" if position == 0 else f"dealer_plus_{position}")
            self.wins_by_position[position] += int(values[key][0].sum())
        self.first_player_wins += int(values["first_player_win_rate"][0].sum())
        self.first_player_rounds += int(values["first_player_win_rate"][1].sum())
        if self.scored:
            winners = np.asarray(out["winner"])[finished]
            _add_counts(self.winner_scores, np.asarray(out["scores"])[finished, winners])
        for kind, count in enumerate(np.asarray(out["plays"])[finished].sum(axis=0).tolist()):
            if count:
                self.plays[kind] = self.plays.get(kind, 0) + count
        if "levers" in out:
            levers = np.asarray(out["levers"])[finished].sum(axis=0).tolist()
            self.levers = [a + b for a, b in zip(self.levers, levers, strict=True)]
            enforced, honour = np.asarray(out["rules_performed"])[finished].sum(axis=0).tolist()
            self.rules_enforced += enforced
            self.rules_honour += honour

    def merge(self, other: EditionStats) -> None:
        """Add the counts of ``other`` (other matches of the same set-up)."""
        self.played += other.played
        self.unfinished += other.unfinished
        for name in _HISTOGRAMS:
            getattr(self, name).update(getattr(other, name))
        self.wins_by_position = [a + b for a, b in zip(self.wins_by_position, other.wins_by_position, strict=True)]
        self.first_player_rounds += other.first_player_rounds
        self.first_player_wins += other.first_player_wins
        for kind, count in other.plays.items():
            self.plays[kind] = self.plays.get(kind, 0) + count
        self.levers = [a + b for a, b in zip(self.levers, other.levers, strict=True)]
        self.rules_enforced += other.rules_enforced
        self.rules_honour += other.rules_honour
        self.tally.merge(other.tally)

    def position_rows(self) -> list[tuple[str, int, int, float, tuple[float, float]]]:
        """``(label, rounds, wins, rate, ci95)`` for each seat from the dealer's left round
        to the dealer, then the first player (intervals: the match as the cluster)."""
        rows = []
        for step in range(1, self.players + 1):
            position = step % self.players
            wins = self.wins_by_position[position]
            key = "win_rate_" + ("dealer" if position == 0 else f"dealer_plus_{position}")
            rows.append((position_label(position), self.rounds, wins, _rate(wins, self.rounds), self._ci(key)))
        rows.append(
            (
                "first player",
                self.first_player_rounds,
                self.first_player_wins,
                _rate(self.first_player_wins, self.first_player_rounds),
                self._ci("first_player_win_rate"),
            )
        )
        return rows

    def _ci(self, key: str) -> tuple[float, float]:
        """The 95% interval of measure ``key`` (a rate: within 0 and 1; nothing known: 0 to 1)."""
        interval = self.tally.interval(key)
        if interval is None:
            return (0.0, 1.0)
        rate = self.tally.estimate(key)
        if rate in (0.0, 1.0):  # no spread to see: Wilson's interval, a match as one trial
            matches = self.tally.matches(key)
            return wilson_interval(round(rate * matches), matches)
        return (max(0.0, interval[0]), min(1.0, interval[1]))

    def per_round(self, kind: Kind) -> float:
        return self.plays.get(int(kind), 0) / self.rounds if self.rounds else 0.0

    def measure_rows(self) -> list[dict[str, Any]]:
        """Every measure of the set-up: key, label, kind, group, estimate, 95% interval and the
        matches it counts (``estimate`` and ``ci95`` ``None`` when nothing counted)."""
        out = []
        for m in measures_for(self.setup):
            interval = self.tally.interval(m.key)
            if interval is not None and m.kind == "rate":
                interval = self._ci(m.key)
            if m.key == "capped" and self.played:
                interval = wilson_interval(self.unfinished, self.played)  # a plain binomial rate
            top, bottom = self.tally.totals(m.key)
            out.append(
                {
                    "key": m.key,
                    "label": m.label,
                    "kind": m.kind,
                    "group": m.group,
                    "estimate": self.tally.estimate(m.key),
                    "ci95": list(interval) if interval is not None else None,
                    "numerator": top,
                    "denominator": bottom,
                    "matches": self.tally.matches(m.key),
                }
            )
        return out

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (every figure but ``capped`` is over the finished matches)."""
        first_low, first_high = self._ci("first_player_win_rate")
        out: dict[str, Any] = {
            "edition": self.edition,
            "players": self.players,
            "games": self.games,
            "games_played": self.played,
            "partial": self.partial,
            "bot": self.bot,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "label": self.label,
            "finished": self.finished,
            "capped": {"matches": self.unfinished, "share": round(_rate(self.unfinished, self.played), 4)},
            "rounds": self.rounds,
            "mean_decisions_per_round": round(_mean(self.decisions_per_round), 2),
            "mean_rounds_per_match": round(_mean(self.rounds_per_match), 2),
            "wins_by_position": [
                {
                    "seat": label,
                    "rounds": rounds,
                    "wins": wins,
                    "win_rate": round(rate, 4),
                    "ci95": [round(low, 4), round(high, 4)],
                }
                for label, rounds, wins, rate, (low, high) in self.position_rows()[:-1]
            ],
            "first_player_win_rate": round(_rate(self.first_player_wins, self.first_player_rounds), 4),
            "first_player_ci95": [round(first_low, 4), round(first_high, 4)],
            "mean_round_points": round(_mean(self.round_points), 2),
            "plays_per_round": {KIND_NAMES[k]: round(self.per_round(k), 3) for k in special_kinds(self.edition)},
            "measures": {row.pop("key"): row for row in self.measure_rows()},
            "unfinished": self.unfinished,
            "elapsed_s": round(self.elapsed_s, 3),
            "engine": self.engine,
        }
        if self.jackpot:
            out["lever_outcomes"] = dict(zip(LEVER_OUTCOMES, self.levers, strict=True))
            out["rule_cards_performed"] = {"enforced": self.rules_enforced, "honour": self.rules_honour}
        return out


def _add_counts(histogram: Counter[int], values: Any) -> None:
    """Count each of the integers of the numpy array ``values`` in ``histogram``."""
    import numpy as np

    found, counts = np.unique(values, return_counts=True)
    histogram.update(dict(zip(found.tolist(), counts.tolist(), strict=True)))


_HISTOGRAMS = (
    "decisions_per_round",
    "rounds_per_match",
    "round_points",
    "winner_scores",
    "decisions_per_match",
    "turns_per_round",
    "turns_per_match",
    "cards_drawn_per_round",
)


@lru_cache(maxsize=64)
def _setup(
    edition: str,
    players: int,
    bot: str,
    rules: Rules,
    rule_cards: tuple[str, ...] | None,
    engine: Any,
    max_decisions: int = MAX_DECISIONS,
) -> Setup:
    return Setup(edition, players, (bot,) * players, rules, rule_cards, engine=engine, max_decisions=max_decisions)


def match_seed(seed: int, index: int) -> int:
    """The seed of match ``index`` of statistics seeded with ``seed`` (the same for every edition)."""
    return random.Random(f"unokit-stats/{seed}/{index}").getrandbits(63)


@dataclass(frozen=True)
class ChunkSpec:
    """Matches ``start`` … ``start + count - 1`` of ``seed`` to play under ``setup`` (a worker's share)."""

    setup: Setup
    seed: int
    start: int
    count: int
    rows: bool = False
    """Also return every round's and match's row (:func:`unokit.analysis.rows.match_rows`)."""


def play_chunk(spec: ChunkSpec) -> tuple[EditionStats, list[dict[str, Any]]]:
    """Play the matches of ``spec`` (runs in a worker process): their statistics and, if asked, their rows."""
    from unokit.analysis.rows import match_rows

    setup = spec.setup
    bot = setup.bots[0]
    stats = EditionStats.empty(
        setup.edition, setup.players, spec.count, bot, spec.seed, setup.rules, setup.engine, setup.rule_cards
    )
    rows: list[dict[str, Any]] = []
    if setup.engine == "fast" and not spec.rows:  # the whole chunk at once, on its arrays
        stats.add_chunk(play_fast_arrays(setup, spec.seed, spec.start, spec.count))
        return stats, rows
    for offset, match in enumerate(play_matches(setup, spec.seed, spec.start, spec.count)):
        stats.add(match)  # type: ignore[arg-type]
        if spec.rows:
            rows += match_rows(setup, spec.seed, spec.start + offset, match)
    return stats, rows


CHUNK_MATCHES = 20
"""The most matches a worker plays per chunk (the results are the same whatever the chunks)."""


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
    rows: RowWriter | None = None,
    *,
    ray: str | None = None,
) -> EditionStats:
    """Play ``games`` matches of ``edition`` with a ``bot`` in every seat and gather their statistics.

    The numbers follow from ``seed`` whatever the number of ``workers`` (only ``elapsed_s`` varies).
    A match still going after ``max_decisions`` actions is stopped and left out (``unfinished``).
    ``engine``: ``python``, ``fast`` (the compiled engine and bots: the editions and rule options
    :mod:`unokit.fast.engine` plays, ``random`` or ``heuristic`` bots; the same seed gives other
    deals than in Python) or ``auto`` (``fast`` where it plays the match); the result's ``engine``
    says which played. Workers play chunks of matches and return their sums, which are added up
    as they come: the memory does not grow with ``games``. ``rows``: each round's and match's
    row is written there, in match order. ``ray``: the chunks run as Ray tasks (``"local"`` or a
    cluster's address, see :func:`unokit.analysis.parallel.run_parallel`), with the same result.

    Ctrl-C raises :class:`unokit.analysis.tournament.Interrupted` whose ``partial`` is the
    statistics of the matches finished so far (``partial`` set)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SetupError(f"games must be a positive integer, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError(f"seed must be an integer, not {seed!r}")
    from unokit.bots import make_bot

    load_bot_kinds()
    edition = get_edition(edition).name
    if isinstance(rules, dict):
        rules = Rules.from_dict(rules)
    rules = rules if rules is not None else Rules()
    cards = tuple(rule_cards) if rule_cards is not None else None
    if engine not in ENGINES:
        raise UnknownOptionError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    chosen = "python"
    if engine != "python":
        why_not = fast_engine_plays(edition, rules, "heuristic")  # (the compiled bots' module plays both bots)
        if why_not is None and bot not in ("random", "heuristic"):
            why_not = f"the compiled engine has random and heuristic bots, not {bot!r}; the Python engine has it"
        if why_not is None:
            chosen = "fast"
        elif engine == "fast":
            raise UnknownOptionError(why_not)
    if chosen == "fast":
        _check_fast(edition, players, seed, bot, rules, cards)
        workers = (1 if ray is None else default_workers()) if workers is None else workers  # (its own threads)
    else:
        Game(edition, players, seed=match_seed(seed, 0), rules=rules, rule_cards=cards)  # checks the set-up
        make_bot(bot, seed=0, edition=edition)  # checks the kind
        workers = default_workers() if workers is None else workers
    if workers < 1:
        raise SetupError(f"workers must be at least 1, not {workers}")
    setup = _setup(edition, players, bot, rules, cards, chosen, max_decisions)
    most = CHUNK_MATCHES if chosen == "python" or rows is not None else 25 * CHUNK_MATCHES  # (rows: held per chunk)
    size = max(1, min(most, -(-games // (4 * workers))))
    specs = [
        ChunkSpec(setup, seed, start, min(size, games - start), rows is not None) for start in range(0, games, size)
    ]
    wave = 1 if workers == 1 else 4 * workers  # chunks handed out at once: what is held until added up
    stats = EditionStats.empty(edition, players, games, bot, seed, rules, chosen, cards)
    started = time.perf_counter()
    done = 0
    try:
        for first in range(0, len(specs), wave):
            batch = specs[first : first + wave]

            def advance(finished: int, _total: int, before: int = done, batch: list[ChunkSpec] = batch) -> None:
                if progress is not None:
                    progress(before + sum(spec.count for spec in batch[:finished]), games)

            try:
                results = run_parallel(play_chunk, batch, workers, advance, ray=ray)
            except Interrupted as stop:
                _add(stats, [r for r in stop.partial if r is not None], rows)
                raise
            _add(stats, results, rows)
            done += sum(spec.count for spec in batch)
    except KeyboardInterrupt:
        stats.partial = True
        stats.elapsed_s = time.perf_counter() - started
        raise Interrupted(stats) from None
    stats.elapsed_s = time.perf_counter() - started
    return stats


def _add(
    stats: EditionStats, results: Sequence[tuple[EditionStats, list[dict[str, Any]]]], rows: RowWriter | None
) -> None:
    for chunk, chunk_rows in results:
        stats.merge(chunk)
        if rows is not None:
            rows.write(chunk_rows)


def _check_fast(
    edition: str, players: int, seed: int, bot: str, rules: Rules, rule_cards: Sequence[str] | None
) -> None:
    """Refuse what the compiled engine cannot play, and compile it (in this process) before the matches."""
    from unokit.fast.stats import play_stats_games

    if not 0 <= seed < 2**62:
        raise SetupError(f"the compiled engine takes seeds from 0 to 2**62 - 1, not {seed}")
    seats: list[int] | None = None if bot == "heuristic" else []
    play_stats_games(  # checks, compiles
        1, players, rules, seed=seed, heuristic_seats=seats, edition=edition, rule_cards=rule_cards
    )


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
    rows: RowWriter | None = None,
    *,
    ray: str | None = None,
) -> dict[str, Any]:
    """Gather the statistics of ``edition`` (and, with ``compare``, of every edition with the
    same settings) and write ``out/report.md`` and its plots. ``command`` is the command
    line shown in the report. Returns ``{"report": path, "plots": [paths], "editions": {name:
    summary}, "partial": bool}``. ``rows``: every round's and match's row is written there.

    Ctrl-C writes the report of the matches finished so far, marked partial, and raises
    :class:`unokit.analysis.tournament.Interrupted` whose ``partial`` is that return value."""
    require_matplotlib()
    edition = get_edition(edition).name
    editions = [edition]
    if compare:
        editions += [name for name in COMPARED_EDITIONS if name != edition and name in EDITIONS]
    total = games * len(editions)
    gathered: list[EditionStats] = []
    interrupted = False
    for number, name in enumerate(editions):

        def advance(done: int, _total: int, offset: int = number * games) -> None:
            if progress is not None:
                progress(offset + done, total)

        cards = rule_cards if isinstance(get_edition(name), WildJackpot) else None
        chosen = engine if name == edition else ("auto" if engine == "fast" else engine)  # compared: where it can
        try:
            gathered.append(
                collect(
                    name,
                    players,
                    games,
                    seed,
                    bot,
                    workers,
                    rules,
                    cards,
                    advance,
                    max_decisions,
                    chosen,
                    rows,
                    ray=ray,
                )
            )
        except Interrupted as stop:
            gathered.append(stop.partial)
            interrupted = True
            break
    comparison = gathered if compare else None
    report, plots = write_report(out, gathered[0], comparison, command)
    summary = {
        "report": str(report),
        "plots": [str(p) for p in plots],
        "editions": {s.edition: s.to_dict() for s in gathered},
        "partial": interrupted,
    }
    if interrupted:
        raise Interrupted(summary)
    return summary


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
    if any(row["group"] == "attribution" and row["denominator"] for row in stats.measure_rows()):
        plots.append(_plot_attribution(stats, directory / ATTRIBUTION_PLOT))
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
    partial = s.partial or any(e.partial for e in comparison or ())
    lines: list[str] = [
        f"# {'PARTIAL: ' if partial else ''}Statistics of {s.title}: {s.players} players, {s.games} matches, "
        f"{s.bot} bots",
        "",
    ]
    if partial:
        lines += [
            f"**Partial results: interrupted by Ctrl-C after {s.played} of {_count(s.games, 'match', 'matches')}"
            f"{'' if not comparison else ' (of this edition; see the comparison)'}.** Every figure is over the "
            "matches played before.",
            "",
        ]
    engine_words = "the compiled engine (unokit.fast)" if s.engine == "fast" else "the Python engine (unokit.Game)"
    if command:
        lines += [f"Made with `{command}`.", ""]
    finished = s.finished
    if s.unfinished:
        low, high = wilson_interval(s.unfinished, s.played)
        lines += [
            "## Matches stopped at the cap",
            "",
            f"**{s.unfinished} of {_count(s.played, 'match', 'matches')} ({_pct(_rate(s.unfinished, s.played))}, "
            f"95% CI {_pct(low)} to {_pct(high)}) were stopped at the cap on decisions** and are left out of every "
            f"figure below, which is over the {_count(finished, 'finished match', 'finished matches')} only: "
            "a rule set that makes matches run on is measured on its shorter matches.",
            "",
        ]
    rules_text = ", ".join(f"{k}={v}" for k, v in s.rules.to_dict().items()) or "default rules"
    over = _over(s)
    lines += [
        "| setting | value |",
        "| --- | --- |",
        f"| edition | {s.edition} |",
        f"| engine | {engine_words}, {s.bot} bots |",
        f"| players | {s.players} |",
        f"| matches | {s.played}{_unfinished(s)} |",
        f"| rounds | {s.rounds} |",
        f"| bots | {s.bot} in every seat |",
        f"| seed | {s.seed} |",
        f"| rules | {rules_text} |",
        f"| time | {s.elapsed_s:.1f} s |",
        "",
        "## Game length",
        "",
        over,
        "A decision is one action of a player: a card played, a draw, a pass, a colour named, a challenge,",
        "a call or catch of UNO, and so on. A turn is a decision of the player whose turn it is (a card",
        "played or a draw).",
        "",
        "| measure | mean | median | 10th percentile | 90th percentile | max |",
        "| --- | --- | --- | --- | --- | --- |",
        _summary_row("decisions per round", s.decisions_per_round),
        _summary_row("turns per round", s.turns_per_round),
        _summary_row("rounds per match", s.rounds_per_match),
        _summary_row("decisions per match", s.decisions_per_match),
        _summary_row("turns per match", s.turns_per_match),
        "",
        *_measure_table(s, "length"),
        "![Game length](length.png)",
        "",
        "## First player and seat advantage",
        "",
        over,
        f"Round win rate by seat relative to the dealer (dealer +1 is on the dealer's left, who usually plays "
        f"first), and of the player who took the round's first turn"
        f"{' (a team win counts for both partners)' if s.rules.teams else ''}. Equal chances would be "
        f"{_pct(s.equal_chance)}. {_INTERVALS}",
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
        "## Cards drawn and blocked rounds",
        "",
        over,
        *_measure_table(s, "draws"),
        "## Lead changes and comebacks",
        "",
        over,
        "Within a round the lead is the seat alone with the fewest cards (checked before each decision); "
        "the trailing seat at mid-round holds the most cards alone before the round's middle decision. "
        "Between rounds (winner-collects scoring) the leader is the player alone with the highest score; "
        "the trailing player at mid-match is the one alone with the lowest score after round ⌈R/2⌉ of a match "
        f"of R ≥ 2 rounds. Equal chances would be {_pct(s.equal_chance)} for the round"
        f"{' (a team counts as one side)' if s.rules.teams else ''}.",
        "",
        *_measure_table(s, "lead"),
    ]
    attribution = [row for row in s.measure_rows() if row["group"] == "attribution"]
    if attribution:
        lines += [
            "## Who wins: attribution",
            "",
            over,
            "The round win rate of a seat given what it made or met in the round (each (seat, round) pair "
            f"with the mark counts once{'; a team win counts for both partners' if s.rules.teams else ''}), "
            f"beside equal chances ({_pct(s.equal_chance)}): an association, not a cause (a seat plays a wild "
            f"card more often when it is close to going out). {_INTERVALS}",
            "",
            "| the seat in the round | (seat, round) pairs | wins | win rate | 95% CI | against equal chances |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for row in attribution:
            if not row["denominator"]:
                continue
            rate, interval = row["estimate"], row["ci95"]
            ci = f"{_pct(interval[0])} to {_pct(interval[1])}" if interval else "-"
            lines.append(
                f"| {row['label'].removeprefix('round win rate, ')} | {row['denominator']} | "
                f"{row['numerator']} | {_pct(rate)} | {ci} | {100 * (rate - s.equal_chance):+.1f} points |"
            )
        lines += ["", f"![Who wins: attribution]({ATTRIBUTION_PLOT})", ""]
    lines += [
        "## Points",
        "",
        over,
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
        *_measure_table(s, "points"),
        "![Points](points.png)",
        "",
        "## Special cards",
        "",
        over,
        "How often each action or wild card of the deck is played.",
        "",
        "| card | plays | per round | 95% CI |",
        "| --- | --- | --- | --- |",
    ]
    cards = {row["key"]: row["ci95"] for row in s.measure_rows() if row["group"] == "cards"}
    for kind in special_kinds(s.edition, s.rules):
        interval = cards.get(plays_key(kind))
        ci = f"{interval[0]:.2f} to {interval[1]:.2f}" if interval else "-"
        lines.append(f"| {KIND_NAMES[kind]} | {s.plays.get(int(kind), 0)} | {s.per_round(kind):.2f} | {ci} |")
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
            low, high = e._ci("first_player_win_rate")
            first = f"{_pct(_rate(e.first_player_wins, e.first_player_rounds))} ({_pct(low)} to {_pct(high)})"
            specials = sum(e.per_round(k) for k in special_kinds(e.edition, e.rules))
            lines.append(
                f"| {e.edition} | {e.finished} | {e.rounds} | {_mean(e.rounds_per_match):.2f} | "
                f"{_mean(e.decisions_per_round):.1f} | {first} | {_mean(e.round_points):.1f} | "
                f"{specials:.2f} | {e.elapsed_s:.1f} s | {e.engine} |"
            )
        lines += ["", f"![Editions compared]({COMPARE_PLOT})", ""]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines))  # (a section without its "over" line)


_INTERVALS = (
    "Intervals are 95% intervals with the match as the unit (rounds of one match are not independent: "
    "the delta method for a ratio of sums over matches)."
)


def _over(s: EditionStats) -> str:
    """The line that says a section counts only the finished matches ('' when all finished)."""
    if not s.unfinished:
        return ""
    return (
        f"*Over the {_count(s.finished, 'finished match', 'finished matches')}; the {s.unfinished} stopped at "
        "the cap are left out.*\n"
    )


def _measure_table(s: EditionStats, group: str) -> list[str]:
    """A section's measures with their 95% intervals, as Markdown lines (a blank line after)."""
    rows = [row for row in s.measure_rows() if row["group"] == group]
    lines = ["| measure | estimate | 95% CI | matches counted |", "| --- | --- | --- | --- |"]
    for row in rows:
        value, interval = row["estimate"], row["ci95"]
        if value is None:
            lines.append(f"| {row['label']} | no data | - | 0 |")
            continue
        show = _pct if row["kind"] == "rate" else _number
        ci = f"{show(interval[0])} to {show(interval[1])}" if interval else "-"
        lines.append(f"| {row['label']} | {show(value)} | {ci} | {row['matches']} |")
    return [*lines, ""] if rows else []


def _count(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _number(value: float) -> str:
    return f"{value:.2f}"


def _unfinished(s: EditionStats) -> str:
    if not s.unfinished:
        return ""
    return f" ({s.finished} finished, {s.unfinished} stopped at the cap on decisions and left out)"


def _mean(values: Counter[int]) -> float:
    """The mean of a histogram (value → count)."""
    count = sum(values.values())
    return sum(v * c for v, c in values.items()) / count if count else 0.0


def _rate(wins: int, trials: int) -> float:
    return wins / trials if trials else 0.0


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _ratio(count: int, rounds: int) -> str:
    return f"{count / rounds:.2f}" if rounds else "0"


def percentile(values: Sequence[int] | Counter[int], fraction: float) -> int:
    """The nearest-rank percentile of ``values`` (a list, or a histogram: value → count; ``0`` when empty).

    >>> percentile([5, 1, 3, 2, 4], 0.5), percentile([5, 1, 3, 2, 4], 0.9), percentile([7], 0.1)
    (3, 5, 7)
    >>> percentile(Counter({1: 3, 10: 1}), 0.75), percentile(Counter({1: 3, 10: 1}), 0.9)
    (1, 10)
    """
    counts = values if isinstance(values, Counter) else Counter(values)
    total = sum(counts.values())
    if not total:
        return 0
    return _at_rank(counts, max(1, min(total, int(-(-total * fraction // 1)))))


def _at_rank(counts: Counter[int], rank: int) -> int:
    """The ``rank``-th smallest value (from 1) of a histogram."""
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen >= rank:
            return value
    return max(counts)


def _median(values: Counter[int]) -> float:
    """The median of a histogram.

    >>> _median(Counter({1: 2, 4: 2})), _median(Counter({1: 2, 4: 1}))
    (2.5, 1.0)
    """
    total = sum(values.values())
    return (_at_rank(values, (total + 1) // 2) + _at_rank(values, total // 2 + 1)) / 2


def _summary_row(label: str, values: Counter[int]) -> str:
    if not values:
        return f"| {label} | - | - | - | - | - |"
    return (
        f"| {label} | {_mean(values):.1f} | {_median(values):g} | {percentile(values, 0.1)} | "
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


def _hist(ax: Any, counts: Counter[int], bins: int, colour: str) -> None:
    """A histogram of ``counts`` (value → how often)."""
    values = sorted(counts) or [0]
    ax.hist(values, weights=[counts[v] for v in values], bins=max(1, min(bins, len(values))), color=colour)


def _plot_length(s: EditionStats, path: Path) -> Path:
    fig = _figure(10, 4.4)
    left, right = fig.subplots(1, 2)
    _hist(left, s.decisions_per_round, 40, "tab:blue")
    left.set_xlabel("decisions per round")
    left.set_ylabel("rounds")
    left.set_title("Round length")
    counts = s.rounds_per_match
    xs = sorted(counts)
    right.bar(xs, [counts[x] for x in xs], color="tab:green")
    right.set_xlabel("rounds per match")
    right.xaxis.get_major_locator().set_params(integer=True)
    right.set_ylabel("matches")
    right.set_title("Match length")
    fig.suptitle(_plot_title("Game length", s))
    return _save(fig, path)


def _plot_title(what: str, s: EditionStats) -> str:
    """A plot's title: what it shows, then the rule set (edition, players, bots, every rule changed)."""
    partial = " (PARTIAL)" if s.partial else ""
    capped = f", over {s.finished} finished matches" if s.unfinished else ""
    return f"{what}{partial}\n" + "\n".join(textwrap.wrap(f"{s.label}{capped}", 100))


def _plot_seats(s: EditionStats, path: Path) -> Path:
    rows = s.position_rows()
    labels = [row[0] for row in rows]
    rates = [row[3] for row in rows]
    lows = [max(0.0, row[3] - row[4][0]) for row in rows]
    highs = [max(0.0, row[4][1] - row[3]) for row in rows]
    fig = _figure(max(7.0, 1.1 * len(rows) + 2), 4.4)
    ax = fig.add_subplot()
    positions = list(range(len(rows)))
    colours = ["tab:blue"] * (len(rows) - 1) + ["tab:orange"]
    ax.bar(positions, rates, yerr=[lows, highs], capsize=5, color=colours)
    ax.axhline(s.equal_chance, color="grey", linestyle="--", label="equal chances")
    ax.set_xticks(positions, labels, rotation=30, ha="right")
    ax.set_ylabel("round win rate (95% CI)")
    ax.set_ylim(0, min(1.0, max(r + h for r, h in zip(rates, highs, strict=True)) * 1.2 + 0.05))
    ax.set_title(_plot_title("Seat advantage", s), fontsize=10)
    ax.legend(loc="upper right")
    return _save(fig, path)


def _plot_points(s: EditionStats, path: Path) -> Path:
    panels = 2 if s.winner_scores else 1
    fig = _figure(max(7.0, 5 * panels), 4.4)
    axes = fig.subplots(1, panels, squeeze=False)[0]
    _hist(axes[0], s.round_points, 30, "tab:purple")
    axes[0].set_xlabel("points left in the other hands")
    axes[0].set_ylabel("rounds")
    axes[0].set_title("Points per round")
    if s.winner_scores:
        _hist(axes[1], s.winner_scores, 20, "tab:red")
        axes[1].set_xlabel("final score")
        axes[1].set_ylabel("matches")
        axes[1].set_title("Match winner's score")
    fig.suptitle(_plot_title("Points", s), fontsize=10)
    return _save(fig, path)


def _plot_cards(s: EditionStats, path: Path) -> Path:
    kinds = special_kinds(s.edition, s.rules)
    fig = _figure(8, 0.45 * len(kinds) + 2)
    ax = fig.add_subplot()
    ax.barh([KIND_NAMES[k] for k in kinds], [s.per_round(k) for k in kinds], color="tab:cyan")
    ax.invert_yaxis()
    ax.set_xlabel("plays per round")
    ax.set_title(_plot_title("Special cards", s), fontsize=10)
    return _save(fig, path)


def _plot_attribution(s: EditionStats, path: Path) -> Path:
    """The round win rate given each mark a seat made or met, with 95% intervals, beside equal chances."""
    rows = [r for r in s.measure_rows() if r["group"] == "attribution" and r["denominator"]]
    fig = _figure(8, 0.32 * len(rows) + 2)
    ax = fig.add_subplot()
    labels = [r["label"].removeprefix("round win rate, ") for r in rows]
    rates = [100 * r["estimate"] for r in rows]
    low = [max(0.0, 100 * (r["estimate"] - r["ci95"][0])) if r["ci95"] else 0.0 for r in rows]
    high = [max(0.0, 100 * (r["ci95"][1] - r["estimate"])) if r["ci95"] else 0.0 for r in rows]
    colours = ["tab:green" if r["estimate"] >= s.equal_chance else "tab:red" for r in rows]
    ax.barh(labels, rates, xerr=[low, high], capsize=3, color=colours, alpha=0.85)
    ax.axvline(100 * s.equal_chance, color="grey", linestyle="--", label="equal chances")
    ax.invert_yaxis()
    ax.set_xlabel("round win rate of a seat that made or met it, % (95% CI)")
    ax.legend(loc="lower right", fontsize="small")
    ax.set_title(_plot_title("Who wins: attribution", s), fontsize=10)
    return _save(fig, path)


def _plot_jackpot(s: EditionStats, path: Path) -> Path:
    fig = _figure(10, 4.4)
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 1]})
    left.bar(list(LEVER_OUTCOMES), s.levers, color="tab:olive")
    left.tick_params(axis="x", labelrotation=30)
    left.set_ylabel("pulls")
    left.set_title("Lever outcomes")
    right.bar(["enforced", "honour"], [s.rules_enforced, s.rules_honour], color=["tab:blue", "tab:orange"])
    right.set_ylabel("rule cards performed")
    right.set_title("Rule cards")
    fig.suptitle(_plot_title("Wild Jackpot", s), fontsize=10)
    return _save(fig, path)


def _plot_compare(comparison: Sequence[EditionStats], path: Path) -> Path:
    names = [e.edition for e in comparison]
    fig = _figure(12, 4)
    length, first, cards = fig.subplots(1, 3)
    length.bar(names, [_mean(e.decisions_per_round) for e in comparison], color="tab:blue")
    length.set_title("Decisions per round")
    rates = [_rate(e.first_player_wins, e.first_player_rounds) for e in comparison]
    intervals = [e._ci("first_player_win_rate") for e in comparison]
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
    first_set = comparison[0]
    rules_text = ", ".join(f"{k}={v}" for k, v in first_set.rules.to_dict().items()) or "default rules"
    fig.suptitle(f"Editions compared: {first_set.players} players, {first_set.bot} bots, {rules_text}", fontsize=10)
    for ax in (length, first, cards):
        ax.tick_params(axis="x", labelrotation=30)
    return _save(fig, path)
