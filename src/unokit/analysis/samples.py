"""Sample game records of a run (``--records DIR --sample N``): N whole matches ``unokit replay`` opens.

The matches kept are drawn from the run's seed alone (:func:`sample_indices`), so the same run
keeps the same matches whatever the number of workers. Each is played again, exactly as in the
run (the same match seed and bot seeds), in :class:`unokit.Game`, whose record replays it. A
match of the compiled engine is played again there with its trace on and then in
:class:`unokit.Game`, handed the compiled engine's random results (:mod:`unokit.fast.recording`):
its record carries them (format ``unokit-record/3``) and ends as the compiled match did.

>>> sample_indices(seed=1, games=10, count=3) == sample_indices(seed=1, games=10, count=3)
True
>>> sample_indices(seed=1, games=2, count=5)
[0, 1]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from unokit.engine.errors import SetupError
from unokit.engine.game import Game
from unokit.engine.record import save

SIMULATE_ROWS_NOT_COMPILED = (
    "simulate --rows plays the games again in the Python engine (the compiled engine's simulate keeps no "
    "rounds): add --engine python, or use unokit stats --engine fast --rows for compiled matches between bots"
)


def sample_indices(seed: int, games: int, count: int) -> list[int]:
    """``count`` match numbers out of ``games`` (all of them if fewer), in order, drawn from ``seed``."""
    if count >= games:
        return list(range(games))
    return sorted(random.Random(f"unokit-sample/{seed}").sample(range(games), count))


def write_records(
    folder: str | Path, indices: Sequence[int], play: Callable[[int], Game], prefix: str = "match"
) -> list[Path]:
    """Play each match of ``indices`` with ``play`` (index → the finished :class:`Game`) and save
    its record as ``folder/<prefix>-<index>.json``; returns the paths."""
    directory = Path(folder)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SetupError(f"cannot create {directory}: {exc}") from None
    paths = []
    for index in indices:
        game = play(index)
        path = directory / f"{prefix}-{index}.json"
        save(game, path)
        paths.append(path)
    return paths


def stats_game(setup: object, seed: int, index: int) -> Game:
    """Match ``index`` of ``seed`` under ``setup`` (a :class:`unokit.analysis.measures.Setup`), as
    :func:`unokit.analysis.measures.play_matches` plays it on the Python engine (stopped at its cap)."""
    from unokit.analysis.measures import Setup, bot_seeds, match_seed
    from unokit.analysis.tournament import load_bot_kinds
    from unokit.bots import make_bot

    assert isinstance(setup, Setup)
    load_bot_kinds()
    bots = [
        make_bot(kind, seed=s, edition=setup.edition)
        for kind, s in zip(setup.bots, bot_seeds(seed, index, setup.players), strict=True)
    ]
    cards = list(setup.rule_cards) if setup.rule_cards is not None else None
    game = Game(setup.edition, setup.players, seed=match_seed(seed, index), rules=setup.rules, rule_cards=cards)
    _play(game, bots, setup.max_decisions)
    return game


def compiled_stats_game(setup: object, seed: int, index: int) -> Game:
    """Match ``index`` of ``seed`` under ``setup`` as :func:`unokit.analysis.measures.play_matches`
    plays it on the compiled engine (stopped where it stops), as a :class:`Game` carrying the
    compiled engine's random results."""
    from unokit.analysis.measures import Setup
    from unokit.fast.recording import stats_match

    assert isinstance(setup, Setup)
    return stats_match(
        setup.players,
        setup.rules,
        seed=seed,
        index=index,
        heuristic_seats=[seat for seat, bot in enumerate(setup.bots) if bot == "heuristic"],
        limit=setup.max_decisions,
        edition=setup.edition,
        rule_cards=setup.rule_cards,
    )


def compiled_tournament_game(
    edition: str, kinds: Sequence[str], seed: int, rules: Any, max_decisions: int, index: int
) -> Game:
    """Tournament game ``index`` as :func:`unokit.analysis.tournament.play_fast_block` plays it: deal
    ``index // players`` of ``seed`` on the compiled engine, the line-up ``kinds`` rotated by
    ``index % players``."""
    from unokit.analysis.tournament import seating
    from unokit.fast.recording import stats_match

    players = len(kinds)
    seated = seating(kinds, index % players)
    return stats_match(
        players,
        rules,
        seed=seed,
        index=index // players,
        heuristic_seats=[seat for seat, kind in enumerate(seated) if kind == "heuristic"],
        limit=max_decisions,
        edition=edition,
    )


def compiled_simulate_game(
    edition: str,
    players: int,
    seed: int,
    index: int,
    rules: Any = None,
    rule_cards: Sequence[str] | None = None,
    policy: str = "random",
) -> Game:
    """Game ``index`` of ``seed`` as :func:`unokit.analysis.simulate.simulate` plays it on the compiled engine."""
    from unokit.fast.recording import bots_match, random_match

    play = bots_match if policy == "heuristic" else random_match
    return play(players, rules, seed=seed, index=index, edition=edition, rule_cards=rule_cards)


def _play(game: Game, bots: Sequence[Any], max_decisions: int) -> None:
    from unokit.bots.runner import play_match

    try:
        play_match(game, bots, max_decisions=max_decisions)
    except RuntimeError:
        if game.is_over or len(game.history) < max_decisions:
            raise  # (a match stopped at the cap is kept as far as it went)


def tournament_game(spec: object) -> Game:
    """The tournament game ``spec`` (a :class:`unokit.analysis.tournament.GameSpec`) as
    :func:`unokit.analysis.tournament.play_one` plays it."""
    from unokit.analysis.tournament import GameSpec, make_bots

    assert isinstance(spec, GameSpec)
    bots = make_bots(spec)
    cards = list(spec.rule_cards) if spec.rule_cards is not None else None
    game = Game(spec.edition, len(bots), seed=spec.seed, rules=spec.rules, rule_cards=cards)
    _play(game, bots, spec.max_decisions)
    return game


def simulate_game(
    edition: str,
    players: int,
    seed: int,
    index: int,
    rules: Any = None,
    rule_cards: Sequence[str] | None = None,
    policy: str = "random",
    tracker: list[Any] | None = None,
) -> Game:
    """Game ``index`` of ``seed`` as :func:`unokit.analysis.simulate.simulate` plays it on the Python
    engine. ``tracker``: a list that receives the game's :class:`unokit.analysis.rounds.RoundTracker`."""
    from unokit.analysis.rounds import tracked_game
    from unokit.analysis.simulate import game_seed, play_heuristic_match, play_random_match

    this_seed = game_seed(seed, index)
    cards = list(rule_cards) if rule_cards is not None else None
    if tracker is not None:
        game, watching = tracked_game(edition, players, seed=this_seed, rules=rules, rule_cards=cards)
        tracker.append(watching)
    else:
        game = Game(edition, players, seed=this_seed, rules=rules, rule_cards=cards)
    if policy == "heuristic":
        play_heuristic_match(game, this_seed)
    else:
        play_random_match(game, random.Random(this_seed))
    return game


def game_summary(game: Game, tracker: Any) -> Any:
    """The :class:`unokit.analysis.stats.MatchSummary` of a finished tracked ``game``."""
    from unokit.analysis.stats import summarise_game

    return summarise_game(game, tracker)
