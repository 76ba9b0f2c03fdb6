"""``python -m unokit.fast``: compile the compiled engine's functions once, into numba's cache.

Each entry point of :data:`ENTRY_POINTS` is run once, which compiles its call tree (numba compiles
a function at its first call) or loads it from the cache.  Processes started afterwards (a test
run's workers, say) load the machine code from the cache instead of each compiling it again at the
same time.  ``python -m unokit.fast random heuristic`` compiles only the entry points named.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence


def _game() -> None:
    from unokit.fast import engine

    game = engine.FastGame(3, seed=1, trace=True)
    seat = game.asked()[0]
    game.act(seat, game.legal_actions(seat)[0])
    game.hands()


def _random() -> None:
    from unokit.engine.rules import Rules
    from unokit.fast import engine

    engine.play_random_games(2, 3, Rules(scoring="single-round"), seed=1, threads=1)


def _playout() -> None:
    from unokit.engine.game import Game
    from unokit.fast import engine

    engine.playout(engine.state_from_game(Game("classic", 2, seed=1), 1), 50)


def _heuristic() -> None:
    from unokit.engine.rules import Rules
    from unokit.fast import heuristic

    heuristic.play_heuristic_games(2, 3, Rules(scoring="single-round"), seed=1, threads=1)


def _stats() -> None:
    from unokit.engine.rules import Rules
    from unokit.fast import stats

    stats.play_stats_games(2, 3, Rules(scoring="single-round"), seed=1, threads=1)


def _heuristic_playout() -> None:
    from unokit.engine.game import Game
    from unokit.fast import engine, heuristic

    state = engine.state_from_game(Game("classic", 3, seed=1), 1)
    memory = heuristic.memory_for_position(state)
    heuristic.heuristic_playout(state.copy(), memory.copy(), heuristic.new_generators(), 50)


def _rollouts() -> None:
    import numpy as np

    from unokit.engine.game import Game
    from unokit.fast import engine, heuristic

    state = engine.state_from_game(Game("classic", 3, seed=1), 1)
    memory = heuristic.memory_for_position(state)
    moves = np.array(Game("classic", 3, seed=1).legal_actions(0)[:1], dtype=np.int64)
    wins = np.zeros((1, 1), dtype=np.int64)
    seeds = np.ones(3, dtype=np.int64)
    work = (np.empty_like(state), np.empty_like(memory))
    heuristic.rollout_wins(state, memory, heuristic.new_generators(), 0, moves, seeds, 50, *work, wins)


def _recorded() -> None:
    from unokit.engine.rules import Rules
    from unokit.fast import recording

    rules = Rules(scoring="single-round")
    recording.random_match(2, rules, seed=1, index=0)
    recording.bots_match(2, rules, seed=1, index=0)


def _batched() -> None:
    from unokit.rl.batched import BatchedEnv

    batched = BatchedEnv(2, players=2)
    batched.reset(seed=1)
    batched.step(batched.random_actions())


def _pettingzoo() -> None:
    import numpy as np

    from unokit.rl.pettingzoo import env

    environment = env(edition="classic", players=2, engine="fast")
    environment.reset(seed=1)
    observation = environment.observe(environment.agent_selection)
    environment.step(int(np.flatnonzero(observation["action_mask"])[0]))


ENTRY_POINTS: dict[str, tuple[str, Callable[[], None]]] = {
    "game": ("one game stepped from Python (FastGame)", _game),
    "random": ("random games (play_random_games)", _random),
    "playout": ("the search's quick playouts (playout)", _playout),
    "heuristic": ("the heuristic bots' games (play_bots_games)", _heuristic),
    "stats": ("matches kept round by round (play_stats_games)", _stats),
    "heuristic_playout": ("the search's heuristic playouts (heuristic_playout)", _heuristic_playout),
    "rollouts": ("the search's rollouts of each move (rollout_wins)", _rollouts),
    "recorded": (
        "recorded games, for --records and the differential test (record_random_game, record_bots_game)",
        _recorded,
    ),
    "batched": ("batched environments (BatchedEnv)", _batched),
    "pettingzoo": ("the PettingZoo environment (engine='fast')", _pettingzoo),
}
"""Every compiled entry point a run may call: its name, what it is, and a small call of it.  The
last two need the ``rl`` extra."""

NEEDS_RL = ("batched", "pettingzoo")
"""The entry points that need the ``rl`` extra (skipped without it)."""


def warm(names: Sequence[str] = (), say: Callable[[str], None] | None = None) -> float:
    """Run the entry points named (all by default) once; the seconds it took.  ``say`` is handed a
    line per entry point (its name, what it is and its seconds)."""
    started = time.perf_counter()
    for name in names or ENTRY_POINTS:
        what, call = ENTRY_POINTS[name]
        if name in NEEDS_RL:
            try:
                import unokit.rl.batched
                import unokit.rl.pettingzoo  # noqa: F401
            except ImportError:  # the rl extra is missing: its parts are not warmed
                if say is not None:
                    say(f"  {name:18} skipped: {what} needs the rl extra")
                continue
        began = time.perf_counter()
        call()
        if say is not None:
            say(f"  {name:18} {time.perf_counter() - began:6.1f} s  {what}")
    return time.perf_counter() - started


def main(argv: Sequence[str]) -> int:
    """Compile the entry points named in ``argv`` (all by default), saying what it does on stderr."""
    unknown = [name for name in argv if name not in ENTRY_POINTS]
    if unknown:
        print(f"unknown entry point {unknown[0]!r}; choose from {', '.join(ENTRY_POINTS)}", file=sys.stderr)
        return 2
    from unokit.fast import compiling

    try:
        where = compiling.cache_dir()
    except compiling.CacheNotWritable as error:
        print(f"unokit.fast: nothing to compile ahead into: {error}", file=sys.stderr)
        return 1
    compiling.quiet()
    print(
        f"unokit.fast: compiling the compiled engine into numba's cache ({where}), one part after the other: "
        f"about {compiling.AHEAD_SECONDS / 60:.0f} minutes of one core on a cold cache, seconds on a warm one",
        file=sys.stderr,
        flush=True,
    )
    seconds = warm(argv, say=lambda line: print(line, file=sys.stderr, flush=True))
    print(f"compiled engine ready in {seconds:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
