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

>>> setup = Setup("classic", players=2, bots=("heuristic", "heuristic"), rules=Rules(scoring="single-round"))
>>> values = [match_values(setup, match) for match in play_matches(setup, seed=1, start=0, count=2)]
>>> [v["rounds_per_match"] for v in values], sum(v["capped"][0] for v in values)
([(1, 1), (1, 1)], 0)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from unokit.analysis.tournament import MAX_DECISIONS
from unokit.editions import get_edition
from unokit.editions.wild_jackpot import WildJackpot
from unokit.engine.cards import KIND_NAMES
from unokit.engine.errors import SetupError
from unokit.engine.rules import LEVER_OUTCOMES, Rules

MatchValues = dict[str, tuple[int, int]]
"""One match's values: measure key → ``(numerator, denominator)``."""


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


def match_seed(seed: int, index: int) -> int:
    """The seed of match ``index`` of a study seeded with ``seed`` (the same in every set-up)."""
    return random.Random(f"unokit-stats/{seed}/{index}").getrandbits(63)


def bot_seeds(seed: int, index: int, players: int) -> tuple[int, ...]:
    """The seeds of the bots of match ``index`` (the same in every set-up)."""
    return tuple(random.Random(f"unokit-stats-bot/{seed}/{index}/{s}").getrandbits(63) for s in range(players))


def measures_for(setup: Setup) -> list[Measure]:
    """The measures that mean something for ``setup``, in report order."""
    from unokit.analysis.stats import special_kinds

    n = setup.players
    out = [
        Measure("capped", "matches stopped at the cap on decisions", "rate", "capped"),
        Measure("rounds_per_match", "rounds per match", "mean", "length"),
        Measure("decisions_per_match", "decisions per match", "mean", "length"),
        Measure("decisions_per_round", "decisions per round", "mean", "length"),
        Measure("first_player_win_rate", "first player's round win rate", "rate", "seats"),
    ]
    for step in range(1, n + 1):
        position = step % n
        label = "dealer" if position == 0 else f"dealer +{position}"
        out.append(Measure(f"win_rate_{_position_key(position)}", f"round win rate, {label}", "rate", "seats"))
    out.append(Measure("points_per_round", "points per round", "mean", "points"))
    for kind in special_kinds(setup.edition, setup.rules):
        key = KIND_NAMES[kind].lower().replace(" ", "_")
        out.append(Measure(f"plays_{key}", f"{KIND_NAMES[kind]} plays per round", "mean", "cards"))
    if setup.jackpot:
        for outcome in LEVER_OUTCOMES:
            out.append(Measure(f"lever_{outcome.replace('-', '_')}", f"lever: {outcome} per round", "mean", "lever"))
    return out


def _position_key(position: int) -> str:
    return "dealer" if position == 0 else f"dealer_plus_{position}"


def match_values(setup: Setup, match: object | None) -> MatchValues:
    """The values of one match (a :class:`unokit.analysis.stats.MatchSummary`; ``None`` if it
    was stopped at the cap) for every measure of :func:`measures_for`."""
    from unokit.analysis.stats import MatchSummary, special_kinds

    keys = [m.key for m in measures_for(setup)]
    if match is None:
        stopped: MatchValues = dict.fromkeys(keys, (0, 0))
        stopped["capped"] = (1, 1)
        return stopped
    assert isinstance(match, MatchSummary)
    n = setup.players
    rounds = len(match.round_winners)
    teams = setup.rules.teams
    from unokit.engine.game import same_side

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
    for position in range(n):
        values[f"win_rate_{_position_key(position)}"] = (wins[position], rounds)
    for kind in special_kinds(setup.edition, setup.rules):
        values[f"plays_{KIND_NAMES[kind].lower().replace(' ', '_')}"] = (match.plays.get(int(kind), 0), rounds)
    if setup.jackpot:
        for outcome, count in zip(LEVER_OUTCOMES, match.levers, strict=True):
            values[f"lever_{outcome.replace('-', '_')}"] = (count, rounds)
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
    from unokit.fast.stats import play_stats_games

    if any(bot not in ("random", "heuristic") for bot in setup.bots):
        raise SetupError("the compiled engine has random and heuristic bots only")
    heuristic = [seat for seat, bot in enumerate(setup.bots) if bot == "heuristic"]
    out = play_stats_games(
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
    return [fast_match_summary(out, game) for game in range(count)]


def estimate(values: Sequence[MatchValues], key: str) -> float | None:
    """The estimate of measure ``key`` over matches (``None`` when no denominator counts)."""
    top = sum(v[key][0] for v in values)
    bottom = sum(v[key][1] for v in values)
    return top / bottom if bottom else None
