"""Throughput of unokit against RLCard's UNO environment, random play, 4 players.

Both sides play with a uniformly random legal policy for the same wall time:

* RLCard: ``rlcard.make("uno", config={"game_num_players": 4, "seed": S})``; every
  ``env.step`` call is one step, the action chosen uniformly from
  ``state["legal_actions"]``; the environment is reset when a game is over.
* unokit: Classic, 4 players, full rules (UNO calls and catches, Wild Draw Four
  challenges, draw-then-play), ``scoring="single-round"`` so that a game is one round
  as in RLCard; every step lists the legal actions of a seat chosen uniformly among
  the deciders and applies one of them uniformly; each applied action is a decision.

The games differ in length: RLCard offers a draw only to a player who cannot play, so its random
games last about 46 steps; in UNO a player may draw instead of playing, and random games of
unokit last about 1,100 decisions.  Compare steps per second, not games.

``bare_classic_decisions_per_s`` (and ``bare_classic_ratio``) time the same loop on
``bench/bare_classic.py``: Classic cut to the bone, with no event log, no history, no UNO calls
and no error messages, checked first to list the same actions as the engine on 20 games.  It is
a floor for any Python program of these rules on this interpreter, not an engine.

The environment figures (keys ``unokit_env_...``, ``unokit_rlcard_env_...`` and ``env_ratio``)
time whole environment steps, an observation and a mask built at every step, with the same
uniformly random legal policy and the same 4 players:

* unokit's PettingZoo environment (``unokit.rl.pettingzoo.env``, Classic, single round): every
  ``env.last()`` builds the observation vector and the action mask, every ``env.step`` is one
  step (waits out of turn included); the environment is reset when the match is over;
* unokit's RLCard interface (``unokit.rl.rlcard``), stepped as RLCard's environment is above;
* ``env_ratio`` is unokit's PettingZoo steps per second over RLCard's ``env.step`` ones;
* the same environment on the compiled engine (``engine="fast"``, keys ``unokit_fast_env_...``,
  ``fast_env_ratio``), and its unwrapped ``raw_env`` (``unokit_fast_raw_env_...``);
* ``pettingzoo_floor_steps_per_s``: the same loop on an AEC environment that plays nothing (it
  only builds an observation and a mask of the same sizes and passes the turn) behind
  PettingZoo's order-enforcing wrapper, as ``env()`` is: no environment behind that wrapper
  steps faster, whatever its engine (``floor_ratio``: that bound over RLCard).

The compiled engine (``unokit.fast``, when numba is installed) is measured as whole games of
the same random policy (``fast_decisions_per_s`` on one core, ``fast_decisions_per_s_all_cores``
on every core), with its ratio to RLCard; and the batched environment
(``unokit.rl.batched.BatchedEnv``, 64 games per call, one core, the observation and mask of
every game built at every step, a random legal action per game from ``random_actions()``):
``batched_env_steps_per_s``, ``batched_env_ratio``.

Usage: ``python bench/vs_rlcard.py [--seconds 5] [--seed 0]``.  Prints one JSON object.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import bare_classic
from unokit import Game, Rules

PLAYERS = 4


def _timed(seconds: float, step: Callable[[], bool], restart: Callable[[], None]) -> dict[str, float]:
    """Call ``step`` (true when it ends a game, then ``restart`` starts the next) for ``seconds``:
    the steps, the games finished and the time taken."""
    steps = 0
    games = 0
    clock = time.perf_counter
    started = clock()
    deadline = started + seconds
    while True:
        over = step()
        steps += 1
        if over:
            games += 1
            if clock() >= deadline:
                break
            restart()
        elif clock() >= deadline:
            break
    return {"steps": steps, "games": games, "elapsed_s": clock() - started}


def _random_decisions(seconds: float, seed: int, new_game: Callable[[int], Any]) -> dict[str, float]:
    """The engine's loop: a seat chosen uniformly among the deciders, then one of its legal actions,
    on games ``new_game(seed)`` deals, for ``seconds``."""
    rng = random.Random(seed)
    game = new_game(rng.getrandbits(63))

    def step() -> bool:
        deciders = game.deciders()
        seat = deciders[0] if len(deciders) == 1 else rng.choice(deciders)
        legal = game.legal_actions(seat)
        game.apply(seat, legal[0] if len(legal) == 1 else rng.choice(legal))
        return game.is_over  # type: ignore[no-any-return]

    def restart() -> None:
        nonlocal game
        game = new_game(rng.getrandbits(63))

    return _timed(seconds, step, restart)


def bench_unokit(seconds: float, seed: int) -> dict[str, float]:
    rules = Rules(scoring="single-round")
    return _random_decisions(seconds, seed, lambda game_seed: Game("classic", PLAYERS, seed=game_seed, rules=rules))


def bench_bare_classic(seconds: float, seed: int) -> dict[str, float]:
    """The engine's loop on :class:`bare_classic.BareClassic`, after checking it against the engine."""
    bare_classic.check_against_engine(20, seed)
    return _random_decisions(seconds, seed, lambda game_seed: bare_classic.BareClassic(PLAYERS, game_seed))


def bench_rlcard(seconds: float, seed: int) -> dict[str, float]:
    rlcard = importlib.import_module("rlcard")
    env = rlcard.make("uno", config={"game_num_players": PLAYERS, "seed": seed})
    return _step_rlcard_env(env, seconds, seed)


def bench_rlcard_interface(seconds: float, seed: int) -> dict[str, float]:
    uno_rlcard = importlib.import_module("unokit.rl.rlcard")
    env = uno_rlcard.make("classic", config={"game_num_players": PLAYERS, "seed": seed})
    return _step_rlcard_env(env, seconds, seed)


def _step_rlcard_env(env: Any, seconds: float, seed: int) -> dict[str, float]:
    """Steps of an environment with RLCard's interface, a uniformly random legal action each."""
    rng = random.Random(seed)
    state, _ = env.reset()

    def step() -> bool:
        nonlocal state
        legal = list(state["legal_actions"])
        state, _ = env.step(legal[0] if len(legal) == 1 else rng.choice(legal))
        return bool(env.is_over())

    def restart() -> None:
        nonlocal state
        state, _ = env.reset()

    return _timed(seconds, step, restart)


def bench_pettingzoo_env(seconds: float, seed: int, engine: str = "python", wrapped: bool = True) -> dict[str, float]:
    pettingzoo = importlib.import_module("unokit.rl.pettingzoo")
    make = pettingzoo.env if wrapped else pettingzoo.raw_env
    env = make(edition="classic", players=PLAYERS, rules={"scoring": "single-round"}, engine=engine)
    env.reset(seed=seed)
    _step_aec(env, 0.2, seed)  # compiles what the compiled engine has not cached yet
    env.reset(seed=seed)
    return _step_aec(env, seconds, seed)


def _step_aec(env: Any, seconds: float, seed: int) -> dict[str, float]:
    """Steps of an AEC environment: ``last()`` (observation and mask) and a uniformly random legal action."""
    np = importlib.import_module("numpy")
    rng = random.Random(seed)
    flatnonzero = np.flatnonzero

    def step() -> bool:
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            return True
        legal = flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        return False

    return _timed(seconds, step, env.reset)


def bench_pettingzoo_floor(seconds: float, seed: int) -> dict[str, float]:
    """The loop of :func:`bench_pettingzoo_env` on an AEC environment that plays nothing."""
    np = importlib.import_module("numpy")
    aec = importlib.import_module("pettingzoo")
    wrappers = importlib.import_module("pettingzoo.utils.wrappers")
    encoding = importlib.import_module("unokit.rl.encoding")
    size = encoding.Encoder("classic", PLAYERS).size
    actions = importlib.import_module("unokit.editions").get_edition("classic").actions.size + 1

    class Floor(aec.AECEnv):  # type: ignore[misc]
        metadata = {"render_modes": [], "name": "floor", "is_parallelizable": False}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = [f"player_{seat}" for seat in range(PLAYERS)]

        def reset(self, seed: int | None = None, options: Any = None) -> None:
            self.agents = self.possible_agents[:]
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos = {agent: {} for agent in self.agents}
            self.agent_selection = self.agents[0]
            self.moves = 0

        def observe(self, agent: str) -> dict[str, Any]:
            mask = np.zeros(actions, dtype=np.int8)
            mask[:3] = 1
            return {"observation": np.zeros(size, dtype=np.float32), "action_mask": mask}

        def step(self, action: int) -> None:
            self._cumulative_rewards[self.agent_selection] = 0.0
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.moves += 1
            self.agent_selection = self.possible_agents[self.moves % PLAYERS]
            self._accumulate_rewards()
            self._deads_step_first()

    env = wrappers.OrderEnforcingWrapper(Floor())
    env.reset(seed=seed)
    return _step_aec(env, seconds, seed)


def bench_batched_env(seconds: float, seed: int, games: int = 64) -> dict[str, float]:
    """Steps of the batched environment (``games`` per call), every game's observation and mask built."""
    batched = importlib.import_module("unokit.rl.batched")
    env = batched.BatchedEnv(games, players=PLAYERS, rules={"scoring": "single-round"})
    env.reset(seed=seed)
    env.step(env.random_actions())  # compiled or loaded from the cache
    steps = ended = 0
    clock = time.perf_counter
    started = clock()
    while clock() - started < seconds:
        _, _, terminations, _, _ = env.step(env.random_actions())
        steps += games
        ended += int(terminations.sum())
    return {"steps": steps, "games": ended, "elapsed_s": clock() - started}


def bench_fast_engine(seconds: float, seed: int, threads: int) -> dict[str, float]:
    """Whole single-round games of the compiled engine with the random policy, in batches, for ``seconds``."""
    fast = importlib.import_module("unokit.fast.engine")
    rules = Rules(scoring="single-round")
    fast.play_random_games(4, PLAYERS, rules, seed=seed, threads=threads)  # compiled or loaded from the cache
    decisions = games = 0
    batch = 2000
    clock = time.perf_counter
    started = clock()
    while clock() - started < seconds:
        result = fast.play_random_games(batch, PLAYERS, rules, seed=seed, first=games, threads=threads)
        decisions += int(result["decisions"].sum())
        games += batch
    return {"steps": decisions, "games": games, "elapsed_s": clock() - started}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=5.0, help="wall time for each side (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of both sides (default 0)")
    args = parser.parse_args(argv)
    try:
        importlib.import_module("rlcard")
    except ImportError:
        print(
            "rlcard is not installed: install the bench extra (pip install -e '.[bench]', or make bench)",
            file=sys.stderr,
        )
        return 2
    uno = bench_unokit(args.seconds, args.seed)
    rl = bench_rlcard(args.seconds, args.seed)
    bare = bench_bare_classic(args.seconds, args.seed)
    zoo = bench_pettingzoo_env(args.seconds, args.seed)
    interface = bench_rlcard_interface(args.seconds, args.seed)
    floor = bench_pettingzoo_floor(args.seconds, args.seed)
    zoo_rate = zoo["steps"] / zoo["elapsed_s"]
    unokit_rate = uno["steps"] / uno["elapsed_s"]
    rlcard_rate = rl["steps"] / rl["elapsed_s"]
    result: dict[str, Any] = {
        "players": PLAYERS,
        "seconds_each": args.seconds,
        "unokit_decisions": uno["steps"],
        "unokit_games": uno["games"],
        "unokit_decisions_per_s": round(unokit_rate),
        "unokit_games_per_s": round(uno["games"] / uno["elapsed_s"], 1),
        "rlcard_steps": rl["steps"],
        "rlcard_games": rl["games"],
        "rlcard_steps_per_s": round(rlcard_rate),
        "rlcard_games_per_s": round(rl["games"] / rl["elapsed_s"], 1),
        "ratio": round(unokit_rate / rlcard_rate, 2),
        "bare_classic_decisions_per_s": round(bare["steps"] / bare["elapsed_s"]),
        "bare_classic_ratio": round(bare["steps"] / bare["elapsed_s"] / rlcard_rate, 2),
        "unokit_env_steps": zoo["steps"],
        "unokit_env_games": zoo["games"],
        "unokit_env_steps_per_s": round(zoo_rate),
        "unokit_env_games_per_s": round(zoo["games"] / zoo["elapsed_s"], 1),
        "unokit_rlcard_env_steps_per_s": round(interface["steps"] / interface["elapsed_s"]),
        "unokit_rlcard_env_games_per_s": round(interface["games"] / interface["elapsed_s"], 1),
        "env_ratio": round(zoo_rate / rlcard_rate, 2),
        "pettingzoo_floor_steps_per_s": round(floor["steps"] / floor["elapsed_s"]),
        "floor_ratio": round(floor["steps"] / floor["elapsed_s"] / rlcard_rate, 2),
        "python": platform.python_version(),
    }
    try:
        importlib.import_module("numba")
    except ImportError:
        result["fast"] = "not installed (the fast extra: pip install -e '.[fast]')"
    else:
        fast_env = bench_pettingzoo_env(args.seconds, args.seed, engine="fast")
        fast_raw = bench_pettingzoo_env(args.seconds, args.seed, engine="fast", wrapped=False)
        one = bench_fast_engine(args.seconds, args.seed, threads=1)
        cores = importlib.import_module("unokit.fast.engine").MAX_THREADS
        every = bench_fast_engine(args.seconds, args.seed, threads=cores)
        numba = importlib.import_module("numba")
        numba.set_num_threads(1)
        batched = bench_batched_env(args.seconds, args.seed)
        batched_rate = batched["steps"] / batched["elapsed_s"]
        fast_env_rate = fast_env["steps"] / fast_env["elapsed_s"]
        fast_raw_rate = fast_raw["steps"] / fast_raw["elapsed_s"]
        one_rate = one["steps"] / one["elapsed_s"]
        every_rate = every["steps"] / every["elapsed_s"]
        result.update(
            {
                "unokit_fast_env_steps_per_s": round(fast_env_rate),
                "fast_env_ratio": round(fast_env_rate / rlcard_rate, 2),
                "unokit_fast_raw_env_steps_per_s": round(fast_raw_rate),
                "fast_raw_env_ratio": round(fast_raw_rate / rlcard_rate, 2),
                "fast_decisions_per_s": round(one_rate),
                "fast_ratio": round(one_rate / rlcard_rate, 1),
                "fast_cores": cores,
                "fast_decisions_per_s_all_cores": round(every_rate),
                "fast_all_cores_ratio": round(every_rate / rlcard_rate, 1),
                "batched_env_steps_per_s": round(batched_rate),
                "batched_env_ratio": round(batched_rate / rlcard_rate, 1),
            }
        )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
