"""What designers measure of a set-up's matches, as ratios of per-match integer sums.

A :class:`Setup` is one rule set to study: edition, players, the bots in each seat, rules,
Wild Jackpot's rule cards and the engine. :func:`play_matches` plays matches ``start`` …
``start + count - 1`` of a seed (match ``i`` has the same seed in every set-up, so two set-ups
are compared on the same deals as far as their rules allow) and :func:`match_values` turns one
match into its values: for each measure a pair ``(numerator, denominator)`` of integers. A
measure's estimate over many matches is the sum of the numerators over the sum of the
denominators (a rate: wins over rounds; a mean: decisions over rounds), and the match is the
unit of its uncertainty (rounds of one match are not independent).

A match stopped at the cap on decisions counts only in ``capped`` (its other values are
``(0, 0)``): every other figure is over the finished matches.

On the compiled engine, :func:`chunk_values` computes the same values for a whole chunk of matches
at once with numpy, from the arrays :func:`unokit.fast.stats.play_stats_games` returns, and
:meth:`Tally.add_chunk` (like :meth:`unokit.analysis.paired.Accumulator.add_chunk`) sums them
exactly. :func:`match_values` stays the definition (the Python engine needs no numpy);
``tests/test_measures_arrays.py`` holds every numerator and denominator of the arrays equal to it
on compiled matches of every edition and house rule.

>>> setup = Setup("classic", players=2, bots=("heuristic", "heuristic"), rules=Rules(scoring="single-round"))
>>> values = [match_values(setup, match) for match in play_matches(setup, seed=1, start=0, count=2)]
>>> [v["rounds_per_match"] for v in values], sum(v["capped"][0] for v in values)
([(1, 1), (1, 1)], 0)
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from unokit.analysis.rounds import LEVER_MARKS, MARK_OF_KIND, Mark
from unokit.analysis.tournament import MAX_DECISIONS, Z95
from unokit.editions import get_edition
from unokit.editions.wild_jackpot import WildJackpot
from unokit.engine.cards import KIND_NAMES, Kind
from unokit.engine.errors import SetupError
from unokit.engine.game import same_side, team_of
from unokit.engine.rules import LEVER_OUTCOMES, Rules

MatchValues = dict[str, tuple[int, int]]
"""One match's values: measure key → ``(numerator, denominator)``."""
ChunkValues = dict[str, tuple[Any, Any]]
"""A chunk's values (:func:`chunk_values`): measure key → ``(numerators, denominators)``, two int64
numpy arrays with one entry per match."""


@dataclass(frozen=True)
class Measure:
    """One figure designers ask for."""

    key: str
    """Stable identifier (a JSON key and a column of the rows)."""
    label: str
    """What a report's row says."""
    kind: Literal["rate", "mean"]
    """``rate``: a share between 0 and 1 shown as a percentage; ``mean``: an average."""
    group: str
    """The report section it belongs to (``length``, ``seats``, ``cards``, ...)."""


@dataclass(frozen=True)
class Setup:
    """One rule set to play: everything but the seed and the match numbers."""

    edition: str
    players: int
    bots: tuple[str, ...]
    """The bot kind in each seat."""
    rules: Rules = field(default_factory=Rules)
    rule_cards: tuple[str, ...] | None = None
    engine: Literal["python", "fast"] = "python"
    max_decisions: int = MAX_DECISIONS
    name: str = ""
    """How reports, legends and rows name it (default: made from the settings)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "edition", get_edition(self.edition).name)
        if len(self.bots) != self.players:
            raise SetupError(f"{self.players} players need {self.players} bots, not {len(self.bots)}")

    @property
    def label(self) -> str:
        """The name, or the edition, players, bots and rule changes."""
        if self.name:
            return self.name
        changed = ", ".join(f"{k}={v}" for k, v in self.rules.to_dict().items())
        bots = self.bots[0] if len(set(self.bots)) == 1 else "/".join(self.bots)
        return f"{self.edition}, {self.players}p, {bots}" + (f", {changed}" if changed else "")

    @property
    def jackpot(self) -> bool:
        return isinstance(get_edition(self.edition), WildJackpot)

    @property
    def scored(self) -> bool:
        """Whether matches are scored over several rounds (winner-collects or running tally)."""
        return get_edition(self.edition).scoring_method(self.rules) in ("winner-collects", "running-tally")


def match_seed(seed: int, index: int) -> int:
    """The seed of match ``index`` of a study seeded with ``seed`` (the same in every set-up)."""
    return random.Random(f"unokit-stats/{seed}/{index}").getrandbits(63)


def bot_seeds(seed: int, index: int, players: int) -> tuple[int, ...]:
    """The seeds of the bots of match ``index`` (the same in every set-up)."""
    return tuple(random.Random(f"unokit-stats-bot/{seed}/{index}/{s}").getrandbits(63) for s in range(players))


def plays_key(kind: int) -> str:
    """The key of the measure and row column of a card kind's plays (``plays_wild_draw_four``)."""
    return "plays_" + KIND_NAMES[Kind(kind)].lower().replace(" ", "_")


def measures_for(setup: Setup) -> list[Measure]:
    """The measures that mean something for ``setup``, in report order."""
    return list(_measures(setup))


@lru_cache(maxsize=256)
def _special_kinds(setup: Setup) -> tuple[Any, ...]:
    from unokit.analysis.stats import special_kinds

    return tuple(special_kinds(setup.edition, setup.rules))


@lru_cache(maxsize=256)
def _measures(setup: Setup) -> tuple[Measure, ...]:
    n = setup.players
    out = [
        Measure("capped", "matches stopped at the cap on decisions", "rate", "capped"),
        Measure("rounds_per_match", "rounds per match", "mean", "length"),
        Measure("decisions_per_match", "decisions per match", "mean", "length"),
        Measure("turns_per_match", "turns per match", "mean", "length"),
        Measure("decisions_per_round", "decisions per round", "mean", "length"),
        Measure("turns_per_round", "turns per round", "mean", "length"),
        Measure("cards_drawn_per_round", "cards drawn per round", "mean", "draws"),
        Measure("blocked_share", "blocked rounds (nobody could play or draw)", "rate", "draws"),
        Measure("first_player_win_rate", "first player's round win rate", "rate", "seats"),
    ]
    for step in range(1, n + 1):
        position = step % n
        out.append(
            Measure(
                f"win_rate_{_position_key(position)}", f"round win rate, {position_label(position)}", "rate", "seats"
            )
        )
    out += [
        Measure("lead_changes_per_round", "lead changes per round (fewest cards)", "mean", "lead"),
        Measure("comeback_round", "trailing seat at mid-round wins the round", "rate", "lead"),
    ]
    if _winner_collects(setup):
        out += [
            Measure("lead_changes_per_match", "lead changes per match (score after each round)", "mean", "lead"),
            Measure("comeback_match", "trailing player at mid-match wins the match", "rate", "lead"),
        ]
    out.append(Measure("points_per_round", "points per round", "mean", "points"))
    for kind in _special_kinds(setup):
        out.append(Measure(plays_key(kind), f"{KIND_NAMES[kind]} plays per round", "mean", "cards"))
    if setup.jackpot:
        for outcome in LEVER_OUTCOMES:
            out.append(Measure(f"lever_{outcome.replace('-', '_')}", f"lever: {outcome} per round", "mean", "lever"))
    for mark in marks(setup):
        out.append(Measure(f"mark_{mark.key}", f"round win rate, {mark.label}", "rate", "attribution"))
    return tuple(out)


def position_label(position: int) -> str:
    """How a report names the seat ``position`` places left of the dealer."""
    return "dealer" if position == 0 else f"dealer +{position}"


def _position_key(position: int) -> str:
    return "dealer" if position == 0 else f"dealer_plus_{position}"


@lru_cache(maxsize=256)
def marks(setup: Setup) -> tuple[Mark, ...]:
    """The marks a seat can make or meet under ``setup``: the cards played of its deck's special
    kinds, Wild Jackpot's lever outcomes and rule cards, the events of the house rules on, Wild Draw
    Four challenges, UNO catches and lost turns."""
    kinds = {int(kind) for kind in _special_kinds(setup)}
    played = {mark: kind for kind, mark in MARK_OF_KIND.items()}
    return tuple(
        mark for mark in Mark if (played[mark] in kinds if mark in played else _can_happen(setup, mark, kinds))
    )


@lru_cache(maxsize=256)
def _mark_keys(setup: Setup) -> dict[int, str]:
    """Each mark of :func:`marks`: its bit → its measure key."""
    return {int(mark): f"mark_{mark.key}" for mark in marks(setup)}


def _can_happen(setup: Setup, mark: Mark, kinds: set[int]) -> bool:
    rules = setup.rules
    if mark in LEVER_MARKS or mark in (Mark.RULE_ENFORCED, Mark.RULE_HONOUR):
        return setup.jackpot
    needs = {
        Mark.STACKED: rules.stacking != "off",
        Mark.DREW_STACK: rules.stacking != "off",
        Mark.DEFLECTED: rules.stacking != "off" and rules.stack_deflect != "off",
        Mark.PASSED_HANDS: rules.zero_pass,
        Mark.SWAPPED_HANDS: rules.seven_swap or int(Kind.WILD_FORCED_SWAP) in kinds or setup.jackpot,
        Mark.JUMPED_IN: rules.jump_in,
        Mark.BOMB: rules.multi_play_bomb,
        Mark.MERCY_OUT: rules.mercy,
        Mark.CHALLENGE_WON: rules.wild_draw_four_challenge and int(Kind.WILD_DRAW_FOUR) in kinds,
        Mark.CAUGHT: rules.call_uno,
    }
    met = {
        Mark.WAS_SWAPPED: Mark.SWAPPED_HANDS,
        Mark.LOST_TO_JUMP: Mark.JUMPED_IN,
        Mark.CHALLENGE_LOST: Mark.CHALLENGE_WON,
        Mark.WAS_CHALLENGED: Mark.CHALLENGE_WON,
        Mark.WAS_CAUGHT: Mark.CAUGHT,
    }
    return bool(needs.get(met.get(mark, mark), True))


def equal_chance(setup: Setup) -> float:
    """A seat's round win rate if every seat had equal chances (with teams, its team's: 1/2)."""
    return 1 / 2 if setup.rules.teams else 1 / setup.players


def side(seat: int, teams: bool) -> int:
    """The side ``seat`` plays for: its team with the house rule ``teams``, else itself."""
    return team_of(seat) if teams else seat


def _winner_collects(setup: Setup) -> bool:
    return get_edition(setup.edition).scoring_method(setup.rules) == "winner-collects"


def scores_after_rounds(setup: Setup, match: Any) -> list[list[int]] | None:
    """Every seat's score after each round of a winner-collects match (the winner, and with
    teams its partners, collect the round's points); ``None`` under other scoring methods."""
    if not _winner_collects(setup):
        return None
    teams = setup.rules.teams
    scores = [0] * setup.players
    out: list[list[int]] = []
    for winner, points in zip(match.round_winners, match.round_points, strict=True):
        for seat in range(setup.players):
            if same_side(seat, winner, teams):
                scores[seat] += points
        out.append(list(scores))
    return out


def _sole(scores: Sequence[int], teams: bool, best: bool) -> int | None:
    """The side alone with the highest (``best``) or lowest score; ``None`` on a tie."""
    if teams:  # partners share their score: one entry per team
        scores = [scores[team] for team in range(2)]
    target = max(scores) if best else min(scores)
    return scores.index(target) if scores.count(target) == 1 else None


def match_values(setup: Setup, match: object | None) -> MatchValues:
    """The values of one match (a :class:`unokit.analysis.stats.MatchSummary`; ``None`` if it
    was stopped at the cap) for every measure of :func:`measures_for`.

    Per-round lists a match summary lacks (empty) give ``(0, 0)``: the measure does not count it."""
    from unokit.analysis.stats import MatchSummary

    keys = [m.key for m in _measures(setup)]
    if match is None:
        stopped: MatchValues = dict.fromkeys(keys, (0, 0))
        stopped["capped"] = (1, 1)
        return stopped
    assert isinstance(match, MatchSummary)
    n = setup.players
    rounds = len(match.round_winners)
    teams = setup.rules.teams

    wins = [0] * n
    first_rounds = first_wins = 0
    for dealer, first, winner in zip(match.dealers, match.first_players, match.round_winners, strict=True):
        for seat in range(n) if teams else (winner,):
            if same_side(seat, winner, teams):
                wins[(seat - dealer) % n] += 1
        if first >= 0:
            first_rounds += 1
            first_wins += same_side(first, winner, teams)
    decisions = sum(match.decisions_per_round)
    values: MatchValues = {
        "capped": (0, 1),
        "rounds_per_match": (rounds, 1),
        "decisions_per_match": (decisions, 1),
        "decisions_per_round": (decisions, rounds),
        "first_player_win_rate": (first_wins, first_rounds),
        "points_per_round": (sum(match.round_points), rounds),
    }
    for key, per_round in (
        ("turns", match.turns),
        ("cards_drawn", match.cards_drawn),
        ("lead_changes", match.lead_changes),
        ("blocked", match.blocked),
    ):
        known = len(per_round) == rounds
        total = sum(per_round) if known else 0
        if key == "turns":
            values["turns_per_match"] = (total, 1) if known else (0, 0)
            values["turns_per_round"] = (total, rounds) if known else (0, 0)
        elif key == "blocked":
            values["blocked_share"] = (total, rounds) if known else (0, 0)
        else:
            values[f"{key}_per_round"] = (total, rounds) if known else (0, 0)
    trailing = [(t, w) for t, w in zip(match.mid_trailing, match.round_winners, strict=False) if t >= 0]
    if len(match.mid_trailing) != rounds:
        trailing = []
    values["comeback_round"] = (sum(same_side(t, w, teams) for t, w in trailing), len(trailing))
    if _winner_collects(setup):
        values["lead_changes_per_match"] = values["comeback_match"] = (0, 0)
        path = scores_after_rounds(setup, match)
        if path is not None:
            changes, leader = 0, None
            for scores in path:
                now = _sole(scores, teams, best=True)
                if now is not None:
                    changes += leader is not None and now != leader
                    leader = now
            values["lead_changes_per_match"] = (changes, 1)
            if rounds >= 2:
                behind = _sole(path[(rounds + 1) // 2 - 1], teams, best=False)
                if behind is not None:
                    values["comeback_match"] = (int(behind == side(match.winner, teams)), 1)
    for position in range(n):
        values[f"win_rate_{_position_key(position)}"] = (wins[position], rounds)
    for kind in _special_kinds(setup):
        values[plays_key(kind)] = (match.plays.get(int(kind), 0), rounds)
    if setup.jackpot:
        for outcome, count in zip(LEVER_OUTCOMES, match.levers, strict=True):
            values[f"lever_{outcome.replace('-', '_')}"] = (count, rounds)
    by_bit = _mark_keys(setup)
    made = dict.fromkeys(by_bit.values(), 0)
    won = dict.fromkeys(by_bit.values(), 0)
    for seats, winner in zip(match.marks if len(match.marks) == rounds else [], match.round_winners, strict=False):
        for seat, bits in enumerate(seats):
            side_won = same_side(seat, winner, teams)
            while bits:
                low = bits & -bits
                bits ^= low
                mark_key = by_bit.get(low.bit_length() - 1)
                if mark_key is not None:
                    made[mark_key] += 1
                    won[mark_key] += side_won
    for mark_key in by_bit.values():
        values[mark_key] = (won[mark_key], made[mark_key])
    return values


def play_matches(setup: Setup, seed: int, start: int, count: int) -> list[object | None]:
    """Play matches ``start`` … ``start + count - 1`` of ``seed`` under ``setup``; each a
    :class:`unokit.analysis.stats.MatchSummary`, ``None`` where the cap stopped it."""
    if setup.engine == "fast":
        return _play_fast(setup, seed, start, count)
    from unokit.analysis.stats import MatchSpec, play_stats_match

    out: list[object | None] = []
    for index in range(start, start + count):
        spec = MatchSpec(
            edition=setup.edition,
            players=setup.players,
            bot=setup.bots[0],
            seed=match_seed(seed, index),
            bot_seeds=bot_seeds(seed, index, setup.players),
            rules=setup.rules,
            rule_cards=setup.rule_cards,
            max_decisions=setup.max_decisions,
            bots=setup.bots,
        )
        out.append(play_stats_match(spec))
    return out


def _play_fast(setup: Setup, seed: int, start: int, count: int) -> list[object | None]:
    from unokit.analysis.stats import fast_match_summary

    out = play_fast_arrays(setup, seed, start, count)
    return [fast_match_summary(out, game) for game in range(count)]


def play_fast_arrays(setup: Setup, seed: int, start: int, count: int) -> dict[str, Any]:
    """Play matches ``start`` … ``start + count - 1`` of ``seed`` under ``setup`` on the compiled
    engine, as :func:`play_matches` does, and return :func:`unokit.fast.stats.play_stats_games`'s
    arrays (for :func:`chunk_values`)."""
    from unokit.fast.stats import play_stats_games

    if setup.engine != "fast" or any(bot not in ("random", "heuristic") for bot in setup.bots):
        raise SetupError("the compiled engine has random and heuristic bots only")
    heuristic = [seat for seat, bot in enumerate(setup.bots) if bot == "heuristic"]
    return play_stats_games(
        count,
        setup.players,
        setup.rules,
        seed=seed,
        first=start,
        heuristic_seats=heuristic,
        limit=setup.max_decisions,
        edition=setup.edition,
        rule_cards=setup.rule_cards,
    )


def estimate(values: Sequence[MatchValues], key: str) -> float | None:
    """The estimate of measure ``key`` over matches (``None`` when no denominator counts)."""
    top = sum(v[key][0] for v in values)
    bottom = sum(v[key][1] for v in values)
    return top / bottom if bottom else None


class Tally:
    """Integer sums of match values over matches, enough for each measure's estimate and its
    interval: per measure the matches that counted (a denominator above 0) and the sums of the
    numerators, denominators, their squares and products. Tallies of disjoint sets of matches
    add up (:meth:`merge`) to the tally of all of them, exactly, in any order.

    >>> tally = Tally()
    >>> for values in ({"m": (1, 2)}, {"m": (3, 2)}, {"m": (0, 0)}):
    ...     tally.add(values)
    >>> tally.estimate("m"), tally.matches("m"), tally.sums["m"]
    (1.0, 2, [2, 4, 4, 10, 8, 8])
    """

    __slots__ = ("sums",)

    def __init__(self) -> None:
        self.sums: dict[str, list[int]] = {}
        """key → [matches, Σnum, Σden, Σnum², Σden², Σnum·den]."""

    def add(self, values: MatchValues) -> None:
        for key, (top, bottom) in values.items():
            if bottom:
                s = self.sums.setdefault(key, [0] * 6)
                s[0] += 1
                s[1] += top
                s[2] += bottom
                s[3] += top * top
                s[4] += bottom * bottom
                s[5] += top * bottom

    def add_chunk(self, values: ChunkValues) -> None:
        """Count a chunk of matches from :func:`chunk_values` (the same sums as :meth:`add` of each match)."""
        from unokit.analysis.paired import exact_dot

        for key, (tops, bottoms) in values.items():
            counted = bottoms != 0
            if not counted.any():
                continue
            tops, bottoms = tops[counted], bottoms[counted]
            s = self.sums.setdefault(key, [0] * 6)
            s[0] += len(tops)
            s[1] += exact_dot(tops, None)
            s[2] += exact_dot(bottoms, None)
            s[3] += exact_dot(tops, tops)
            s[4] += exact_dot(bottoms, bottoms)
            s[5] += exact_dot(tops, bottoms)

    def merge(self, other: Tally) -> None:
        for key, sums in other.sums.items():
            mine = self.sums.setdefault(key, [0] * 6)
            for i, value in enumerate(sums):
                mine[i] += value

    def matches(self, key: str) -> int:
        """The matches that counted in measure ``key``."""
        return self.sums[key][0] if key in self.sums else 0

    def totals(self, key: str) -> tuple[int, int]:
        """``(Σnum, Σden)`` of measure ``key``."""
        s = self.sums.get(key)
        return (s[1], s[2]) if s else (0, 0)

    def estimate(self, key: str) -> float | None:
        """Σnum / Σden over the matches (``None`` when no match counted)."""
        top, bottom = self.totals(key)
        return top / bottom if bottom else None

    def interval(self, key: str, z: float = Z95) -> tuple[float, float] | None:
        """The 95% interval of the ratio estimate, the match as the cluster (delta method:
        the variance of Σnum/Σden is n·Σ(num - R·den)² / ((n - 1)·(Σden)²)); ``None`` under 2 matches."""
        s = self.sums.get(key)
        if not s or s[0] < 2:
            return None
        n, top, bottom, top2, bottom2, cross = s
        ratio = top / bottom
        residual = max(0.0, top2 - 2 * ratio * cross + ratio * ratio * bottom2)
        half = z * math.sqrt(n * residual / (n - 1)) / bottom
        return ratio - half, ratio + half


# ---------------------------------------------------------------- a chunk of compiled matches at once


def chunk_values(setup: Setup, out: Mapping[str, Any]) -> ChunkValues:
    """:func:`match_values` of every match of :func:`unokit.fast.stats.play_stats_games`'s arrays
    ``out`` at once (numpy): for each measure of :func:`measures_for`, in that order, the
    numerators and the denominators of the matches, each the integer :func:`match_values` gives
    the match (``tests/test_measures_arrays.py`` holds them equal, measure by measure)."""
    import numpy as np

    from unokit.fast.stats import PER_ROUND_ROWS

    n = setup.players
    teams = setup.rules.teams
    finished = np.asarray(out["finished"]) != 0
    one = finished.astype(np.int64)
    rounds = np.where(finished, out["rounds"], 0).astype(np.int64)  # a capped match counts no round
    width = int(rounds.max(initial=0))
    live = np.arange(width)[None, :] < rounds[:, None]
    per_round = np.asarray(out["per_round"])[:, :, :width]

    def row(name: str) -> Any:
        return np.where(live, per_round[:, PER_ROUND_ROWS.index(name)], 0)

    def same(seat: Any, winner: Any) -> Any:
        return _same_sides(seat, winner, teams)

    winner = np.where(live, per_round[:, PER_ROUND_ROWS.index("winner")], -1)
    dealer = row("dealer")
    first = np.where(live, per_round[:, PER_ROUND_ROWS.index("first_player")], -1)
    decisions = row("decisions").sum(axis=1)
    turns = row("turns").sum(axis=1)
    values: ChunkValues = {
        "capped": ((~finished).astype(np.int64), np.ones(len(finished), dtype=np.int64)),
        "rounds_per_match": (rounds, one),
        "decisions_per_match": (decisions, one),
        "turns_per_match": (turns, one),
        "decisions_per_round": (decisions, rounds),
        "turns_per_round": (turns, rounds),
        "cards_drawn_per_round": (row("cards_drawn").sum(axis=1), rounds),
        "blocked_share": (row("blocked").sum(axis=1), rounds),
        "first_player_win_rate": (
            ((first >= 0) & same(first, winner)).sum(axis=1),
            (first >= 0).sum(axis=1),
        ),
    }
    wins = np.zeros((len(finished), n), dtype=np.int64)
    for seat in range(n):
        won = live & same(seat, winner)
        position = (seat - dealer) % n
        for p in range(n):
            wins[:, p] += (won & (position == p)).sum(axis=1)
    for step in range(1, n + 1):
        values[f"win_rate_{_position_key(step % n)}"] = (wins[:, step % n], rounds)
    middle = np.where(live, per_round[:, PER_ROUND_ROWS.index("mid_trailing")], -1)
    values["lead_changes_per_round"] = (row("lead_changes").sum(axis=1), rounds)
    values["comeback_round"] = (((middle >= 0) & same(middle, winner)).sum(axis=1), (middle >= 0).sum(axis=1))
    points = row("points")
    if _winner_collects(setup):
        values.update(_match_lead(n, teams, live, winner, points, rounds, finished, np.asarray(out["winner"])))
    values["points_per_round"] = (points.sum(axis=1), rounds)
    plays = np.where(finished[:, None], out["plays"], 0)
    for kind in _special_kinds(setup):
        values[plays_key(kind)] = (plays[:, int(kind)], rounds)
    if setup.jackpot:
        levers = np.where(finished[:, None], out["levers"], 0)
        for k, outcome in enumerate(LEVER_OUTCOMES):
            values[f"lever_{outcome.replace('-', '_')}"] = (levers[:, k], rounds)
    marks = np.where(live[:, :, None], np.asarray(out["marks"])[:, :width], 0)
    side_won = live[:, :, None] & same(np.arange(n)[None, None, :], winner[:, :, None])
    for bit, key in _mark_keys(setup).items():
        has = (marks >> bit) & 1 != 0
        values[key] = ((has & side_won).sum(axis=(1, 2)), has.sum(axis=(1, 2)))
    return {m.key: values[m.key] for m in _measures(setup)}


def _same_sides(seats: Any, winners: Any, teams: bool) -> Any:
    """:func:`~unokit.engine.game.same_side` element-wise on numpy arrays (a team: ``team_of``, the seat's parity)."""
    return (seats == winners) | ((seats % 2 == winners % 2) if teams else False)


def _match_lead(
    n: int, teams: bool, live: Any, winner: Any, points: Any, rounds: Any, finished: Any, match_winner: Any
) -> ChunkValues:
    """``lead_changes_per_match`` and ``comeback_match`` of a chunk, from every seat's score after
    each round (:func:`scores_after_rounds`) and the side alone ahead or behind (:func:`_sole`)."""
    import numpy as np

    gained = live[:, :, None] & _same_sides(np.arange(n)[None, None, :], winner[:, :, None], teams)
    path = np.cumsum(gained * points[:, :, None], axis=1)
    if teams:  # partners share their score: one entry per team
        path = path[:, :, :2]

    def sole(scores: Any, best: bool) -> Any:  # the side alone at the top (bottom), -1 on a tie
        target = scores.max(axis=-1, keepdims=True) if best else scores.min(axis=-1, keepdims=True)
        hits = scores == target
        return np.where(hits.sum(axis=-1) == 1, hits.argmax(axis=-1), -1)

    leader = np.where(live, sole(path, best=True), -1)
    column = np.arange(leader.shape[1])[None, :]
    last = np.maximum.accumulate(np.where(leader >= 0, column, -1), axis=1)  # the last round with a leader
    before = np.full_like(last, -1)  # the last round before each with a leader
    before[:, 1:] = last[:, :-1]
    previous = np.where(before >= 0, np.take_along_axis(leader, np.maximum(before, 0), axis=1), -1)
    changes = ((leader >= 0) & (previous >= 0) & (leader != previous)).sum(axis=1)
    one = finished.astype(np.int64)
    two = finished & (rounds >= 2)
    middle = np.maximum((rounds + 1) // 2 - 1, 0)
    if path.shape[1]:
        behind = sole(np.take_along_axis(path, middle[:, None, None], axis=1)[:, 0], best=False)
    else:
        behind = np.full(len(rounds), -1)
    counted = two & (behind >= 0)
    side = match_winner % 2 if teams else match_winner
    return {
        "lead_changes_per_match": (changes, one),
        "comeback_match": ((counted & (behind == side)).astype(np.int64), counted.astype(np.int64)),
    }
