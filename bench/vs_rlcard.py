"""Throughput of unokit against RLCard's UNO environment, random play, 2 and 4 players.

Every case plays Classic in single rounds (a game is one round, as in RLCard) with a uniformly
random legal policy, and is timed in **interleaved rounds**: round 1 times every case for
``--seconds`` in turn, then round 2 in the same order, and so on, so that a load that comes and
goes on the machine falls on every case alike.  Each case reports the median over the rounds and
the spread (lowest and highest round) of its steps per second **and** its games per second, and
its ratio to RLCard taken round by round (the case's rate over RLCard's rate in the same round):
the median ratio and a bootstrap 95% interval of it (the median of the rounds' ratios resampled).
A timed window starts a fresh game and ends with the first game that ends after ``--seconds``, so
it counts whole games only.

The cases:

* ``rlcard``: ``rlcard.make("uno", ...)`` forced to the table's size.  RLCard 1.2 ignores
  ``game_num_players`` for UNO (its ``Env`` passes game settings only to the games it lists, and
  UNO is not one), so ``rlcard.make("uno", {"game_num_players": 4}).num_players`` is 2; the bench
  sets the game's ``num_players`` (and the environment's) itself, checks that a reset deals seven
  cards to each of the N players and that every seat acts before the game ends, and reports the
  number of players RLCard really dealt (``rlcard_players``).  Every ``env.step`` is one step, the
  action chosen uniformly from ``state["legal_actions"]``.
* ``engine``: unokit's Python engine, full rules (UNO calls and catches, Wild Draw Four
  challenges, draw-then-play): every step lists the legal actions of a seat chosen uniformly among
  the deciders and applies one of them; each applied action is a step.
* ``bare_classic``: the same loop on ``bench/bare_classic.py``, Classic cut to the bone (no event
  log, no UNO calls, no error messages), checked first against the engine: a floor for any Python
  program of these rules, not an engine.
* ``pettingzoo``: ``unokit.rl.pettingzoo.env`` on the Python engine: every ``env.last()`` builds
  the observation and the action mask, every ``env.step`` is a step (waits out of turn included).
* ``rlcard_interface``: unokit's RLCard interface (``unokit.rl.rlcard``) stepped as RLCard's
  environment is.
* ``pettingzoo_floor``: an AEC environment that plays nothing (it only builds an observation and a
  mask of the same sizes and passes the turn) behind PettingZoo's order-enforcing wrapper, as
  ``env()`` is: no environment behind that wrapper steps faster, whatever its engine.
* ``pettingzoo_fast`` and ``pettingzoo_fast_raw``: the PettingZoo environment on the compiled
  engine (``engine="fast"``), wrapped as ``env()`` returns it and the bare ``raw_env``.
* ``batched``: ``unokit.rl.batched.BatchedEnv``, 64 games per call on one core, the observation and
  the mask of every game built at every step, a random legal action per game from
  ``random_actions()``; its steps are game steps (64 per call).
* ``fast_engine``: the compiled engine's whole games of the same random policy on one core
  (``unokit.fast.engine.play_random_games``), no observation.

The compiled cases need numba (the ``fast`` extra) and are left out without it.  Games differ in
length: RLCard offers a draw only to a player who cannot play, so its random games last about 50
steps; in UNO a player may draw instead of playing, and a random unokit round lasts about a
thousand decisions: games per second is the figure a learner of whole games feels, steps per
second the cost of one decision.

Usage: ``python bench/vs_rlcard.py [--seconds 1] [--rounds 5] [--players 2 4] [--seed 0]
[--markdown]``.  Prints one JSON object (``--markdown``: also a table per table size on stderr).
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import bare_classic
from unokit import Game, Rules

Timing = dict[str, float]
Runner = Callable[[float, int], Timing]
"""Times a case: ``runner(seconds, seed)`` is ``{"steps", "games", "elapsed_s"}`` of one window."""

DEAL = 7
RULES = {"scoring": "single-round"}


def _timed(seconds: float, step: Callable[[], bool], restart: Callable[[], None]) -> Timing:
    """Call ``step`` (true when it ends a game, then ``restart`` starts the next) until the first
    game that ends after ``seconds``: the steps, the games finished and the time taken."""
    steps = 0
    games = 0
    clock = time.perf_counter
    started = clock()
    deadline = started + seconds
    while True:
        steps += 1
        if step():
            games += 1
            if clock() >= deadline:
                break
            restart()
    return {"steps": steps, "games": games, "elapsed_s": clock() - started}


# ---------------------------------------------------------------- RLCard, forced to the table's size


def forced_rlcard_env(players: int, seed: int) -> Any:
    """``rlcard.make("uno")`` seated for ``players``: RLCard 1.2 ignores ``game_num_players`` for
    UNO, so the game's and the environment's ``num_players`` are set here (the game deals to
    ``num_players`` at every reset); raises if a reset does not deal seven cards to each of them."""
    rlcard = importlib.import_module("rlcard")
    env = rlcard.make("uno", config={"game_num_players": players, "seed": seed})
    env.game.num_players = players
    env.num_players = players
    env.state_shape = [[4, 4, 15] for _ in range(players)]
    env.action_shape = [None for _ in range(players)]
    env.reset()
    dealt = [len(player.hand) for player in env.game.players]
    if dealt != [DEAL] * players or env.game.round.num_players != players:
        raise RuntimeError(f"RLCard dealt {dealt} to {env.game.round.num_players} players, not {players}")
    return env


def rlcard_players(players: int, seed: int, games: int = 20) -> dict[str, Any]:
    """What RLCard really plays when asked for ``players``: the players its ``make`` seats, the
    players the forced environment deals to and the seats that act in ``games`` random games (all
    of which must end)."""
    rlcard = importlib.import_module("rlcard")
    asked = rlcard.make("uno", config={"game_num_players": players, "seed": seed}).num_players
    env = forced_rlcard_env(players, seed)
    rng = random.Random(seed)
    acting: set[int] = set()
    for _ in range(games):
        state, _ = env.reset()
        for _ in range(100_000):
            if env.is_over():
                break
            acting.add(env.get_player_id())
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
        else:
            raise RuntimeError("a random RLCard game did not end in 100,000 steps")
    return {
        "rlcard_make_num_players": asked,
        "rlcard_players": len(env.game.players),
        "rlcard_acting_seats": len(acting),
    }


def rlcard_case(players: int) -> Runner:
    env = None

    def run(seconds: float, seed: int) -> Timing:
        nonlocal env
        if env is None:
            env = forced_rlcard_env(players, seed)
        return _step_rlcard_env(env, seconds, seed)

    return run


def rlcard_interface_case(players: int) -> Runner:
    uno_rlcard = importlib.import_module("unokit.rl.rlcard")
    env = uno_rlcard.make("classic", config={"game_num_players": players, "seed": 0})
    return lambda seconds, seed: _step_rlcard_env(env, seconds, seed)


def _step_rlcard_env(env: Any, seconds: float, seed: int) -> Timing:
    """Steps of an environment with RLCard's interface, a uniformly random legal action each."""
    rng = random.Random(seed)
    env.seed(seed)
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


# ---------------------------------------------------------------- unokit's Python engine


def _random_decisions(seconds: float, seed: int, new_game: Callable[[int], Any]) -> Timing:
    """The engine's loop: a seat chosen uniformly among the deciders, then one of its legal actions,
    on games ``new_game(seed)`` deals."""
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


def engine_case(players: int) -> Runner:
    rules = Rules(**RULES)
    return lambda seconds, seed: _random_decisions(
        seconds, seed, lambda game_seed: Game("classic", players, seed=game_seed, rules=rules)
    )


def bare_classic_case(players: int) -> Runner:
    bare_classic.check_against_engine(20, 0, players)
    return lambda seconds, seed: _random_decisions(
        seconds, seed, lambda game_seed: bare_classic.BareClassic(players, game_seed)
    )


# ---------------------------------------------------------------- AEC environments


def pettingzoo_case(players: int, engine: str = "python", wrapped: bool = True) -> Runner:
    pettingzoo = importlib.import_module("unokit.rl.pettingzoo")
    make = pettingzoo.env if wrapped else pettingzoo.raw_env
    env = make(edition="classic", players=players, rules=RULES, engine=engine)
    env.reset(seed=0)
    _step_aec(env, 0.2, 0)  # compiles what the compiled engine has not cached yet

    def run(seconds: float, seed: int) -> Timing:
        env.reset(seed=seed)
        return _step_aec(env, seconds, seed)

    return run


def _step_aec(env: Any, seconds: float, seed: int) -> Timing:
    """Steps of an AEC environment: ``last()`` (observation and mask) and a uniformly random legal action."""
    np = importlib.import_module("numpy")
    rng = random.Random(seed)
    flatnonzero = np.flatnonzero

    def step() -> bool:
        observation = env.last()[0]
        legal = flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        return any(env.terminations.values()) or any(env.truncations.values())

    return _timed(seconds, step, env.reset)


def pettingzoo_floor_case(players: int) -> Runner:
    """The loop of :func:`pettingzoo_case` on an AEC environment that plays nothing; a game is
    ``steps`` of its steps (the mean of the Python engine's)."""
    np = importlib.import_module("numpy")
    aec = importlib.import_module("pettingzoo")
    wrappers = importlib.import_module("pettingzoo.utils.wrappers")
    encoding = importlib.import_module("unokit.rl.encoding")
    size = encoding.Encoder("classic", players).size
    actions = importlib.import_module("unokit.editions").get_edition("classic").actions.size + 1

    class Floor(aec.AECEnv):  # type: ignore[misc]
        metadata = {"render_modes": [], "name": "floor", "is_parallelizable": False}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = [f"player_{seat}" for seat in range(players)]

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
            self.agent_selection = self.possible_agents[self.moves % players]
            if self.moves % 1000 == 0:  # a "game" of 1,000 steps, about a random unokit round
                self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            self._deads_step_first()

    env = wrappers.OrderEnforcingWrapper(Floor())

    def run(seconds: float, seed: int) -> Timing:
        env.reset(seed=seed)
        return _step_aec(env, seconds, seed)

    return run


# ---------------------------------------------------------------- the compiled engine


def batched_case(players: int, games: int = 64) -> Runner:
    batched = importlib.import_module("unokit.rl.batched")
    numba = importlib.import_module("numba")
    env = batched.BatchedEnv(games, players=players, rules=RULES)
    env.reset(seed=0)
    env.step(env.random_actions())  # compiled or loaded from the cache

    def run(seconds: float, seed: int) -> Timing:
        previous = numba.get_num_threads()
        numba.set_num_threads(1)
        try:
            env.reset(seed=seed)
            steps = ended = 0
            clock = time.perf_counter
            started = clock()
            while clock() - started < seconds:
                _, _, terminations, truncations, _ = env.step(env.random_actions())
                steps += games
                ended += int(terminations.sum()) + int(truncations.sum())
            return {"steps": steps, "games": ended, "elapsed_s": clock() - started}
        finally:
            numba.set_num_threads(previous)

    return run


def fast_engine_case(players: int) -> Runner:
    fast = importlib.import_module("unokit.fast.engine")
    rules = Rules(**RULES)
    fast.play_random_games(4, players, rules, seed=0, threads=1)  # compiled or loaded from the cache

    def run(seconds: float, seed: int) -> Timing:
        decisions = games = 0
        batch = 500
        clock = time.perf_counter
        started = clock()
        while clock() - started < seconds:
            result = fast.play_random_games(batch, players, rules, seed=seed, first=games, threads=1)
            decisions += int(result["decisions"].sum())
            games += batch
        return {"steps": decisions, "games": games, "elapsed_s": clock() - started}

    return run


# ---------------------------------------------------------------- rounds and statistics

CASES: dict[str, tuple[Callable[[int], Runner], bool]] = {
    "rlcard": (rlcard_case, False),
    "engine": (engine_case, False),
    "bare_classic": (bare_classic_case, False),
    "pettingzoo": (pettingzoo_case, False),
    "rlcard_interface": (rlcard_interface_case, False),
    "pettingzoo_floor": (pettingzoo_floor_case, False),
    "pettingzoo_fast": (lambda players: pettingzoo_case(players, "fast"), True),
    "pettingzoo_fast_raw": (lambda players: pettingzoo_case(players, "fast", wrapped=False), True),
    "batched": (batched_case, True),
    "fast_engine": (fast_engine_case, True),
}
"""Each case: its set-up (given the players; returns its runner) and whether it needs numba."""


def median_interval(values: list[float], seed: int, resamples: int = 2000) -> tuple[float, float]:
    """A percentile bootstrap 95% interval of the median of ``values``.

    >>> median_interval([1.0, 1.0, 1.0], 0)
    (1.0, 1.0)
    """
    rng = random.Random(seed)
    n = len(values)
    medians = sorted(statistics.median(rng.choices(values, k=n)) for _ in range(resamples))
    return medians[int(0.025 * resamples)], medians[int(0.975 * resamples) - 1]


def measure(players: int, cases: list[str], rounds: int, seconds: float, seed: int) -> dict[str, Any]:
    """Every case at ``players``, timed in ``rounds`` interleaved rounds of ``seconds`` each."""
    runners = {name: CASES[name][0](players) for name in cases}
    windows: dict[str, list[Timing]] = {name: [] for name in cases}
    for round_ in range(rounds):
        for name in cases:
            windows[name].append(runners[name](seconds, seed + round_))
        print(f"{players} players: round {round_ + 1} of {rounds} done", file=sys.stderr)
    rlcard_rates = [w["steps"] / w["elapsed_s"] for w in windows["rlcard"]]
    rlcard_games = [w["games"] / w["elapsed_s"] for w in windows["rlcard"]]
    out: dict[str, Any] = {}
    for name in cases:
        steps = [w["steps"] / w["elapsed_s"] for w in windows[name]]
        games = [w["games"] / w["elapsed_s"] for w in windows[name]]
        ratios = [rate / base for rate, base in zip(steps, rlcard_rates, strict=True)]
        game_ratios = [rate / base for rate, base in zip(games, rlcard_games, strict=True)]
        total_games = sum(w["games"] for w in windows[name])
        low, high = median_interval(ratios, seed)
        g_low, g_high = median_interval(game_ratios, seed)
        out[name] = {
            "steps_per_s": round(statistics.median(steps)),
            "steps_per_s_range": [round(min(steps)), round(max(steps))],
            "games_per_s": round(statistics.median(games), 1),
            "games_per_s_range": [round(min(games), 1), round(max(games), 1)],
            "steps_per_game": round(sum(w["steps"] for w in windows[name]) / total_games, 1) if total_games else None,
            "ratio": round(statistics.median(ratios), 3),
            "ratio_ci95": [round(low, 3), round(high, 3)],
            "games_ratio": round(statistics.median(game_ratios), 4),
            "games_ratio_ci95": [round(g_low, 4), round(g_high, 4)],
        }
    return out


def markdown(players: int, table: dict[str, Any]) -> str:
    """The table of one table size, as docs/rl.md shows it."""
    lines = [
        f"{players} players | steps/s (median; lowest–highest) | ratio to RLCard (95% CI) "
        "| games/s (median; lowest–highest) | ratio to RLCard (95% CI) | steps per game",
        "|".join(["---"] + ["---:"] * 5),
    ]
    for name, row in table.items():
        low, high = row["steps_per_s_range"]
        g_low, g_high = row["games_per_s_range"]
        lines.append(
            f"`{name}` | {row['steps_per_s']:,} ({low:,}–{high:,}) | {row['ratio']:.2f} "
            f"({row['ratio_ci95'][0]:.2f}–{row['ratio_ci95'][1]:.2f}) | {row['games_per_s']:,} "
            f"({g_low:,}–{g_high:,}) | {row['games_ratio']:.3g} "
            f"({row['games_ratio_ci95'][0]:.3g}–{row['games_ratio_ci95'][1]:.3g}) | {row['steps_per_game']:,}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=1.0, help="wall time of each case in each round (default 1)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], help="table sizes (default 2 4)")
    parser.add_argument("--cases", nargs="+", choices=list(CASES), default=list(CASES), help="cases (default all)")
    parser.add_argument("--seed", type=int, default=0, help="seed of every case (default 0)")
    parser.add_argument("--markdown", action="store_true", help="also print a Markdown table per size on stderr")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds positive")
    try:
        importlib.import_module("rlcard")
    except ImportError:
        print(
            "rlcard is not installed: install the bench extra (pip install -e '.[bench]', or make bench)",
            file=sys.stderr,
        )
        return 2
    cases = ["rlcard"] + [name for name in args.cases if name != "rlcard"]
    result: dict[str, Any] = {
        "rounds": args.rounds,
        "seconds_each": args.seconds,
        "seed": args.seed,
        "python": platform.python_version(),
    }
    try:
        importlib.import_module("numba")
    except ImportError:
        cases = [name for name in cases if not CASES[name][1]]
        result["fast"] = "not installed (the fast extra: pip install -e '.[fast]')"
    for players in args.players:
        table = {
            **rlcard_players(players, args.seed),
            "cases": measure(players, cases, args.rounds, args.seconds, args.seed),
        }
        result[f"players_{players}"] = table
        if args.markdown:
            print(markdown(players, table["cases"]), file=sys.stderr)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
