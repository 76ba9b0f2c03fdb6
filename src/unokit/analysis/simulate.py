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

import contextlib
import random
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, overload

from unokit.analysis.parallel import Interrupted
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


@dataclass(frozen=True)
class Block:
    """Games ``first`` … ``first + count - 1`` of a simulation: what a worker needs to play them."""

    edition: str
    players: int
    seed: int
    rules: Rules | None
    rule_cards: tuple[str, ...] | None
    engine: str
    policy: str
    first: int
    count: int
    threads: int | None = 1
    """The compiled engine's threads (``None``: every core numba may use)."""


@dataclass
class Counts:
    """What a simulation counts, summed exactly over games (in any order)."""

    players: int
    games: int = 0
    rounds: int = 0
    decisions: int = 0
    wins: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    levers: list[int] = field(default_factory=lambda: [0] * len(LEVER_OUTCOMES))
    performed: list[int] = field(default_factory=lambda: [0, 0])

    def __post_init__(self) -> None:
        self.wins = self.wins or [0] * self.players
        self.points = self.points or [0] * self.players

    def add(self, other: Counts) -> None:
        self.games += other.games
        self.rounds += other.rounds
        self.decisions += other.decisions
        for mine, more in (
            (self.wins, other.wins),
            (self.points, other.points),
            (self.levers, other.levers),
            (self.performed, other.performed),
        ):
            for i, value in enumerate(more):
                mine[i] += value


class Blocks(Sequence[Block]):
    """The games ``0`` … ``games - 1`` cut into blocks of ``size`` like ``template``, each made when asked for."""

    def __init__(self, template: Block, games: int, size: int) -> None:
        self.template, self.games, self.size = template, games, size

    def __len__(self) -> int:
        return -(-self.games // self.size)

    @overload
    def __getitem__(self, index: int) -> Block: ...
    @overload
    def __getitem__(self, index: slice) -> list[Block]: ...
    def __getitem__(self, index: int | slice) -> Block | list[Block]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        first = (index % len(self)) * self.size
        return replace(self.template, first=first, count=min(self.size, self.games - first))


def play_block(block: Block) -> Counts:
    """Play the games of ``block`` and count them (runs in a worker process or a Ray task)."""
    if block.engine == "fast":
        return _play_fast_block(block)
    counts = Counts(block.players)
    cards = list(block.rule_cards) if block.rule_cards is not None else None
    for index in range(block.first, block.first + block.count):
        this_seed = game_seed(block.seed, index)
        game = Game(block.edition, block.players, seed=this_seed, rules=block.rules, rule_cards=cards)
        if block.policy == "heuristic":
            counts.decisions += play_heuristic_match(game, this_seed)
        else:
            counts.decisions += play_random_match(game, random.Random(this_seed))
        counts.games += 1
        counts.rounds += game.round
        if isinstance(game.edition, WildJackpot):
            performed = {"enforced": 0, "honour": 0}
            count_jackpot_events(game, counts.levers, performed)
            counts.performed[0] += performed["enforced"]
            counts.performed[1] += performed["honour"]
        for seat in game.team_seats(game.winner):
            counts.wins[seat] += 1
        for seat, score in enumerate(game.scores):
            counts.points[seat] += score
    return counts


def _play_fast_block(block: Block) -> Counts:
    from unokit.fast.engine import play_random_games
    from unokit.fast.heuristic import play_heuristic_games

    play = play_heuristic_games if block.policy == "heuristic" else play_random_games
    rules = block.rules if block.rules is not None else Rules()
    result = play(
        block.count,
        block.players,
        rules,
        seed=block.seed,
        first=block.first,
        threads=block.threads,
        edition=block.edition,
        rule_cards=block.rule_cards,
    )
    counts = Counts(block.players, games=block.count)
    counts.decisions = int(result["decisions"].sum())
    counts.rounds = int(result["rounds"].sum())
    for seat in range(block.players):
        counts.points[seat] += int(result["scores"][:, seat].sum())
        won = int((result["winner"] == seat).sum())
        for other in range(block.players):  # with teams, a win counts for both partners (as in Python)
            if same_side(other, seat, rules.teams):
                counts.wins[other] += won
    if "levers" in result:
        counts.levers = [int(more) for more in result["levers"].sum(axis=0)]
        counts.performed = [int(more) for more in result["rules_performed"].sum(axis=0)]
    return counts


BATCH_SECONDS = 0.25
"""The compiled engine plays in batches of about this long, so that Ctrl-C stops it at once."""


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
    *,
    workers: int | None = None,
    ray: str | None = None,
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

    ``workers``: the Python engine plays in that many processes (default: in this one), the
    compiled engine on that many threads (default: every core). ``ray`` (see
    :func:`unokit.analysis.parallel.run_parallel`): blocks of games are Ray tasks. The counts are
    the same whatever the workers or nodes. Ctrl-C raises
    :class:`~unokit.analysis.parallel.Interrupted` whose ``partial`` is this dict over the games
    finished, with ``partial`` true and ``games_planned``.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SetupError(f"games must be a positive integer, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError(f"seed must be an integer, not {seed!r}")
    if engine not in ENGINES:
        raise UnknownOptionError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    if policy not in POLICIES:
        raise UnknownOptionError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise SetupError(f"workers must be a positive integer, not {workers!r}")
    if isinstance(rules, dict):
        rules = Rules.from_dict(rules)
    chosen = "python"
    if engine != "python":
        why_not = fast_engine_plays(edition, rules, policy)
        if why_not is None:
            chosen = "fast"
        elif engine == "fast":
            raise UnknownOptionError(why_not)
    cards = tuple(rule_cards) if rule_cards is not None else None
    # Validate the set-up once before starting the clock.
    if chosen == "fast":
        if not 0 <= seed < 2**62:
            raise SetupError(f"the compiled engine takes seeds from 0 to 2**62 - 1, not {seed}")
        first_game = None
        play_block(Block(edition, players, seed, rules, cards, "fast", policy, 0, 1))  # compiles or loads the code
    else:
        first_game = Game(edition, players, seed=game_seed(seed, 0), rules=rules, rule_cards=rule_cards)
    counts = Counts(players)
    started = time.perf_counter()
    try:
        for more in _blocks_played(edition, players, games, seed, rules, cards, chosen, policy, workers, ray):
            counts.add(more)
            if progress is not None:
                progress(counts.games, games)
    except KeyboardInterrupt:
        partial = _result(edition, players, seed, rules, cards, chosen, policy, counts, first_game, started)
        raise Interrupted({**partial, "partial": True, "games_planned": games}) from None
    return _result(edition, players, seed, rules, cards, chosen, policy, counts, first_game, started)


def _blocks_played(
    edition: str,
    players: int,
    games: int,
    seed: int,
    rules: Rules | None,
    cards: tuple[str, ...] | None,
    engine: str,
    policy: str,
    workers: int | None,
    ray: str | None,
) -> Generator[Counts, None, None]:
    """The counts of the games of a simulation, block by block as they finish."""

    def block(first: int, count: int, threads: int | None = 1) -> Block:
        return Block(edition, players, seed, rules, cards, engine, policy, first, count, threads)

    if ray is None and (engine == "fast" or workers is None or workers == 1):
        if engine == "python":  # one game at a time, in this process
            for index in range(games):
                yield play_block(block(index, 1))
            return
        # The compiled engine on every core (or ``workers`` threads), in batches of about
        # BATCH_SECONDS: a compiled batch cannot be interrupted, the gap between two can.
        first, size = 0, 64
        while first < games:
            count = min(size, games - first)
            clock = time.perf_counter()
            yield play_block(block(first, count, workers))
            took = time.perf_counter() - clock
            size = max(1, min(4 * size, int(count * BATCH_SECONDS / max(took, 1e-6))))
            first += count
        return
    from unokit.analysis.parallel import default_workers, iter_parallel

    spread = workers or default_workers()
    size = max(1, min(20_000, -(-games // (8 * spread)))) if engine == "fast" else 1
    chunks = iter_parallel(play_block, Blocks(block(0, 0), games, size), workers, ray=ray)
    with contextlib.closing(chunks):
        for _, done in chunks:
            yield from done


def _result(
    edition: str,
    players: int,
    seed: int,
    rules: Rules | None,
    cards: tuple[str, ...] | None,
    engine: str,
    policy: str,
    counts: Counts,
    first_game: Game | None,
    started: float,
) -> dict[str, Any]:
    elapsed = time.perf_counter() - started
    rules = first_game.rules if first_game is not None else (rules if rules is not None else Rules())
    name = first_game.edition.name if first_game is not None else edition
    c = counts
    result = _report(name, players, c.games, seed, rules, c.rounds, c.decisions, c.wins, c.points, elapsed, engine)
    result["policy"] = policy
    if name == "wild-jackpot":
        if engine == "python" and first_game is not None:
            result["rule_cards"] = list(first_game.extra["texts"]) if cards is not None else None
        else:
            result["rule_cards"] = [rc.clean_rule_text(text) for text in cards] if cards is not None else None
        result["lever_outcomes"] = dict(zip(LEVER_OUTCOMES, c.levers, strict=True))
        result["rule_cards_performed"] = {"enforced": c.performed[0], "honour": c.performed[1]}
    return result


def play_heuristic_match(game: Game, seed: int) -> int:
    """Play ``game`` to its end with a heuristic bot at every seat (as a tournament seats them);
    returns the number of actions applied."""
    from unokit.bots.heuristic import HeuristicBot
    from unokit.bots.runner import play_match

    bots = [HeuristicBot(seed=seed + seat, edition=game.edition.name) for seat in range(game.n)]
    return sum(play_match(game, bots).decisions)


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
        "mean_decisions_per_game": round(decisions / games, 2) if games else 0.0,
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
