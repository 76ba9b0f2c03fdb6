"""Self-play with a uniformly random legal policy: a quick way to exercise an edition.

The policy picks a seat uniformly among :meth:`Game.deciders` (the player whose
turn it is, plus anyone who may call or catch UNO out of turn), then one of that
seat's legal actions uniformly.  Everything is derived from one seed, so the same
arguments always give the same counts.

>>> result = simulate("classic", players=3, games=2, seed=1)
>>> result["games"], sum(result["wins_by_seat"])
(2, 2)
>>> simulate("classic", players=3, games=2, seed=1)["decisions"] == result["decisions"]
True

UNO Wild Jackpot also counts the lever's outcomes and the rule cards performed:

>>> jackpot = simulate("wild-jackpot", players=3, games=1, seed=1, rule_cards=["Draw 2 cards", "Sing a song"])
>>> sorted(jackpot["lever_outcomes"]) == sorted(LEVER_OUTCOMES)
True
>>> sorted(jackpot["rule_cards_performed"]), jackpot["rule_cards"]
(['enforced', 'honour'], ['Draw 2 cards', 'Sing a song'])
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from unokit.editions import rulecards as rc
from unokit.editions.wild_jackpot import WildJackpot
from unokit.engine.errors import SetupError, UnknownOptionError
from unokit.engine.game import Game, same_side
from unokit.engine.rules import LEVER_OUTCOMES, Rules

Progress = Callable[[int, int], None]
"""Called as ``progress(games_done, games_total)`` after each game."""


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a simulation seeded with ``seed``."""
    return random.Random(f"unokit-simulate/{seed}/{index}").getrandbits(63)


def random_move(game: Game, rng: random.Random) -> tuple[int, int]:
    """A uniformly random deciding seat and one of its legal actions, uniformly."""
    deciders = game.deciders()
    seat = deciders[0] if len(deciders) == 1 else rng.choice(deciders)
    legal = game.legal_actions(seat)
    return seat, legal[0] if len(legal) == 1 else rng.choice(legal)


def play_random_match(game: Game, rng: random.Random) -> int:
    """Play ``game`` to its end with :func:`random_move`; returns the number of actions applied."""
    decisions = 0
    while not game.is_over:
        seat, action = random_move(game, rng)
        game.apply(seat, action)
        decisions += 1
    return decisions


POLICIES = ("random", "heuristic")
"""``random``: a uniformly random deciding seat takes a uniformly random legal action;
``heuristic``: the heuristic bot plays every seat (:mod:`unokit.bots.heuristic`, compiled on the
compiled engine, the same choices)."""
ENGINES = ("python", "fast", "auto")
"""``python``: :class:`unokit.Game`; ``fast``: the compiled engine (:mod:`unokit.fast.engine`:
Classic UNO, UNO Space Jam, UNO All Wild and UNO Wild Jackpot with their sheets' options and the
house rules of ``unokit.fast.engine.SUPPORTED_OPTIONS``, either policy; the ``fast`` extra); ``auto``: ``fast``
where it is installed and plays the edition and rules, else ``python``."""


def fast_engine_plays(edition: str, rules: Rules | None, policy: str = "random") -> str | None:
    """Why the compiled engine with ``policy`` (random, or heuristic: the compiled bots) cannot play
    ``edition`` under ``rules`` (``None``: it can; the compiled bots play every edition and option it
    plays, so the answer is the same for both policies)."""
    try:
        from unokit.fast.engine import check_rules
    except ImportError as error:
        return str(error)
    try:
        check_rules(rules if rules is not None else Rules(), edition)
    except UnknownOptionError as error:
        return str(error)
    return None


def simulate(
    edition: str,
    players: int,
    games: int,
    seed: int,
    rules: Rules | dict[str, Any] | None = None,
    progress: Progress | None = None,
    rule_cards: Sequence[str] | None = None,
    engine: str = "python",
    policy: str = "random",
) -> dict[str, Any]:
    """Play ``games`` whole matches with the uniformly random policy and count what happened.

    Returns a JSON-ready dict: ``edition``, ``players``, ``games``, ``seed``, ``rules``
    (options differing from the defaults), ``rounds``, ``decisions`` (actions applied),
    ``mean_decisions_per_game``, ``wins_by_seat`` (match winners; with house rule ``teams`` a
    team's win counts for both partners), ``points_by_seat``
    (final scores, summed over the matches) and ``elapsed_s``.

    UNO Wild Jackpot: ``rule_cards`` are the texts written on the rule cards of every game
    (``None``: each game draws them from the rule sheet's suggestions). The result then also
    holds ``rule_cards`` (the texts given, cleaned, or ``None``), ``lever_outcomes`` (how
    often each outcome of :data:`unokit.editions.wild_jackpot.LEVER_OUTCOMES` came up) and
    ``rule_cards_performed`` (``enforced`` and ``honour`` tasks). Other editions refuse
    ``rule_cards``.

    ``engine`` (see :data:`ENGINES`) and ``policy`` (see :data:`POLICIES`): the result's
    ``engine`` and ``policy`` say what played.
    The compiled engine plays the same rules with a generator of its own: the same seed gives
    the same counts on the same engine, not across engines.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SetupError(f"games must be a positive integer, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError(f"seed must be an integer, not {seed!r}")
    if engine not in ENGINES:
        raise UnknownOptionError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    if policy not in POLICIES:
        raise UnknownOptionError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")
    if isinstance(rules, dict):
        rules = Rules.from_dict(rules)
    if engine != "python":
        why_not = fast_engine_plays(edition, rules, policy)
        if why_not is None:
            return _simulate_fast(edition, players, games, seed, rules, progress, policy, rule_cards)
        if engine == "fast":
            raise UnknownOptionError(why_not)
    # Validate the set-up once before starting the clock.
    first = Game(edition, players, seed=game_seed(seed, 0), rules=rules, rule_cards=rule_cards)
    jackpot = isinstance(first.edition, WildJackpot)
    wins = [0] * players
    points = [0] * players
    rounds = 0
    decisions = 0
    levers = [0] * len(LEVER_OUTCOMES)
    performed = {"enforced": 0, "honour": 0}
    started = time.perf_counter()
    for index in range(games):
        this_seed = game_seed(seed, index)
        game = Game(edition, players, seed=this_seed, rules=rules, rule_cards=rule_cards)
        if policy == "heuristic":
            decisions += play_heuristic_match(game, this_seed)
        else:
            decisions += play_random_match(game, random.Random(this_seed))
        rounds += game.round
        if jackpot:
            count_jackpot_events(game, levers, performed)
        for seat in game.team_seats(game.winner):
            wins[seat] += 1
        for seat, score in enumerate(game.scores):
            points[seat] += score
        if progress is not None:
            progress(index + 1, games)
    elapsed = time.perf_counter() - started
    result = _report(game.edition.name, players, games, seed, game.rules, rounds, decisions, wins, points, elapsed)
    result["policy"] = policy
    if jackpot:
        result["rule_cards"] = list(first.extra["texts"]) if rule_cards is not None else None
        result["lever_outcomes"] = dict(zip(LEVER_OUTCOMES, levers, strict=True))
        result["rule_cards_performed"] = performed
    return result


def play_heuristic_match(game: Game, seed: int) -> int:
    """Play ``game`` to its end with a heuristic bot at every seat (as a tournament seats them);
    returns the number of actions applied."""
    from unokit.bots.heuristic import HeuristicBot
    from unokit.bots.runner import play_match

    bots = [HeuristicBot(seed=seed + seat, edition=game.edition.name) for seat in range(game.n)]
    return sum(play_match(game, bots).decisions)


def _simulate_fast(
    edition: str,
    players: int,
    games: int,
    seed: int,
    rules: Rules | None,
    progress: Progress | None,
    policy: str,
    rule_cards: Sequence[str] | None,
) -> dict[str, Any]:
    """:func:`simulate` on the compiled engine: games numbered 0 … ``games - 1`` of ``seed``, in
    batches over every core."""
    from unokit.fast.engine import play_random_games
    from unokit.fast.heuristic import play_heuristic_games

    def play(count: int, players: int, rules: Rules, *, seed: int, first: int = 0) -> dict[str, Any]:
        if policy == "heuristic":
            return play_heuristic_games(
                count, players, rules, seed=seed, first=first, edition=edition, rule_cards=rule_cards
            )
        return play_random_games(count, players, rules, seed=seed, first=first, edition=edition, rule_cards=rule_cards)

    rules = rules if rules is not None else Rules()
    if not 0 <= seed < 2**62:
        raise SetupError(f"the compiled engine takes seeds from 0 to 2**62 - 1, not {seed}")
    play(1, players, rules, seed=seed)  # checks the table, compiles or loads the code
    wins = [0] * players
    points = [0] * players
    rounds = decisions = 0
    levers = [0] * len(LEVER_OUTCOMES)
    performed = [0, 0]
    batch = 20_000
    started = time.perf_counter()
    for first in range(0, games, batch):
        count = min(batch, games - first)
        result = play(count, players, rules, seed=seed, first=first)
        decisions += int(result["decisions"].sum())
        rounds += int(result["rounds"].sum())
        for seat in range(players):
            points[seat] += int(result["scores"][:, seat].sum())
            won = int((result["winner"] == seat).sum())
            for other in range(players):  # with teams, a win counts for both partners (as in Python)
                if same_side(other, seat, rules.teams):
                    wins[other] += won
        if "levers" in result:
            levers = [total + int(more) for total, more in zip(levers, result["levers"].sum(axis=0), strict=True)]
            performed = [
                total + int(more) for total, more in zip(performed, result["rules_performed"].sum(axis=0), strict=True)
            ]
        if progress is not None:
            progress(first + count, games)
    elapsed = time.perf_counter() - started
    report = _report(edition, players, games, seed, rules, rounds, decisions, wins, points, elapsed, "fast")
    report["policy"] = policy
    if edition == "wild-jackpot":
        report["rule_cards"] = [rc.clean_rule_text(text) for text in rule_cards] if rule_cards is not None else None
        report["lever_outcomes"] = dict(zip(LEVER_OUTCOMES, levers, strict=True))
        report["rule_cards_performed"] = {"enforced": performed[0], "honour": performed[1]}
    return report


def _report(
    edition: str,
    players: int,
    games: int,
    seed: int,
    rules: Rules,
    rounds: int,
    decisions: int,
    wins: list[int],
    points: list[int],
    elapsed: float,
    engine: str = "python",
) -> dict[str, Any]:
    """The counts of :func:`simulate` as its JSON-ready result."""
    return {
        "edition": edition,
        "players": players,
        "games": games,
        "seed": seed,
        "rules": rules.to_dict(),
        "rounds": rounds,
        "decisions": decisions,
        "mean_decisions_per_game": round(decisions / games, 2),
        "wins_by_seat": wins,
        "points_by_seat": points,
        "elapsed_s": round(elapsed, 3),
        "engine": engine,
    }


def count_jackpot_events(game: Game, levers: list[int], performed: dict[str, int]) -> None:
    """Add the lever outcomes (by outcome, 1-based in the events) and the rule cards performed
    (``enforced`` or ``honour``) of a Wild Jackpot ``game`` to the counts."""
    for kind, _, value, _ in game.events:
        if kind == "lever":
            levers[value - 1] += 1
        elif kind == "rule":
            performed["enforced" if WildJackpot.card(game, value).enforced else "honour"] += 1
