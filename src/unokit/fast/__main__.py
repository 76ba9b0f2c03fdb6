"""``python -m unokit.fast``: compile the compiled engine's functions once, into numba's cache.

Processes started afterwards (a test run's workers, say) load the machine code from the cache
instead of each compiling it again at the same time.
"""

from __future__ import annotations

import sys
import time


def warm() -> float:
    """Run every compiled entry point once; the seconds it took."""
    started = time.perf_counter()
    import numpy as np

    from unokit.engine.game import Game
    from unokit.engine.rules import Rules
    from unokit.fast import engine, heuristic, stats

    rules = Rules(scoring="single-round")
    game = engine.FastGame(3, seed=1, trace=True)
    seat = game.asked()[0]
    game.act(seat, game.legal_actions(seat)[0])
    engine.play_random_games(2, 3, rules, seed=1, threads=1)
    engine.playout(engine.state_from_game(Game("classic", 2, seed=1), 1), 50)
    heuristic.play_heuristic_games(2, 3, rules, seed=1, threads=1)
    stats.play_stats_games(2, 3, rules, seed=1, threads=1)
    state = engine.state_from_game(Game("classic", 3, seed=1), 1)
    memory = heuristic.memory_for_position(state)
    heuristic.heuristic_playout(state.copy(), memory.copy(), heuristic.new_generators(), 50)
    moves = np.array(Game("classic", 3, seed=1).legal_actions(0)[:1], dtype=np.int64)
    wins = np.zeros((1, 1), dtype=np.int64)
    seeds = np.ones(3, dtype=np.int64)
    work = (np.empty_like(state), np.empty_like(memory))
    heuristic.rollout_wins(state, memory, heuristic.new_generators(), 0, moves, seeds, 50, *work, wins)
    try:
        from unokit.fast import differential
        from unokit.rl.batched import BatchedEnv
        from unokit.rl.pettingzoo import env
    except ImportError:  # the rl extra is missing: its parts are not warmed
        return time.perf_counter() - started
    differential.replay_recorded(2, 1, 0, rules)
    differential.replay_recorded(2, 1, 0, rules, policy="heuristic")
    batched = BatchedEnv(2, players=2)
    batched.reset(seed=1)
    batched.step(batched.random_actions())
    environment = env(edition="classic", players=2, engine="fast")
    environment.reset(seed=1)
    observation = environment.observe(environment.agent_selection)
    environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
    return time.perf_counter() - started


if __name__ == "__main__":
    print(f"compiled engine ready in {warm():.1f} s", file=sys.stderr)
    sys.exit(0)
