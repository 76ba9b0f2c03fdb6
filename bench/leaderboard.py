"""The leaderboard: unokit's bots and RLCard's agents against each other, written to docs/baselines.md.

The agents:

* ``random`` and ``heuristic``, unokit's bots;
* ``ismcts``, unokit's search bot at a modest budget (``--ismcts-iterations`` per decision, no
  time budget, so that it is deterministic for its seed);
* ``rlcard-rule``, RLCard's ``uno-rule-v1`` agent (``rlcard.models.load("uno-rule-v1")``) seated
  at unokit's tables through the adapter of ``bench/vs_rlcard_agent.py`` (Classic only);
* ``dqn``, RLCard's ``DQNAgent`` trained here, seeded, through unokit's RLCard interface
  (``unokit.rl.rlcard``): RLCard's own recipe (``env.run(is_training=True)``, ``reorganize``,
  ``agent.feed``) against RLCard's ``RandomAgent`` in the other seats, one agent per table size
  (Classic only: the observation's size depends on the edition and the players); it plays as a
  unokit bot with its network evaluated in NumPy (checked equal to RLCard's ``predict``);
* ``learned``, ``make_bot("learned")``, where ``unokit.bots.learned`` registers it (left out with
  the reason printed otherwise), at the tables where it plays.

Every game is one round (``scoring="single-round"``).  For each table (edition, players):

* **pairwise**: at 2 players every pair of agents, at 4 players every agent against three copies
  of every other (``A`` against ``B``, ``B``, ``B``): ``--games`` games each (rounded up to a
  multiple of the players) with paired deals and rotated seats
  (:func:`unokit.analysis.tournament.plan_games`), the first agent's round win rate with a 95%
  Wilson interval;  ``heuristic`` and ``random`` against each other are played on the compiled
  engine as well (``--fast-games`` games, seats rotated on the same deals:
  :func:`unokit.fast.heuristic.play_bots_games`), which gives their win rate;
* **ratings**: OpenSkill's Plackett-Luce model over a round robin: at 2 players the pairwise
  games, at 4 players every set of four different agents (``--rr-games`` games per set, seats
  rotated), each game rated as a ranking (the winner first, the others by the points left in
  their hands, equal points tied); the games are rated once each in an order shuffled with the
  seed;
* **episode statistics** of every pairing played by the Python runner: decisions, turns (cards
  played and turns passed) and cards drawn per round (the deal left out), and the rounds stopped
  at the cap (``--max-decisions``; left out of every count).

Usage: ``python bench/leaderboard.py [--games 100] [--out docs/baselines.md] [--json FILE]
[--seed 0]`` (see ``--help``).  Needs the ``bench`` and ``train`` extras (rlcard, torch,
openskill) and numba for the compiled engine (``--no-fast``: the Python runner for every game).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import io
import itertools
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from unokit.analysis.tournament import (
    GameSpec,
    load_bot_kinds,
    make_bots,
    plan_games,
    play_capped,
    run_parallel,
    wilson_interval,
)
from unokit.bots.base import interrupt_actions, make_bot, register_bot
from unokit.editions import get_edition
from unokit.engine.errors import UnknownOptionError
from unokit.engine.game import Game
from unokit.engine.rules import Rules
from unokit.engine.views import View

RULES = Rules(scoring="single-round")
EDITIONS = ("classic", "space-jam", "all-wild", "wild-jackpot")
AGENTS = ("random", "heuristic", "ismcts", "rlcard-rule", "dqn", "learned")
FAST_PAIR = ("heuristic", "random")


# ---------------------------------------------------------------- RLCard's DQN


@dataclass
class QNetwork:
    """RLCard's ``EstimatorNetwork`` in NumPy: batch norm (as evaluated), tanh layers, a linear output."""

    mean: np.ndarray
    scale: np.ndarray
    shift: np.ndarray
    layers: list[tuple[np.ndarray, np.ndarray]]

    @classmethod
    def from_agent(cls, agent: Any) -> QNetwork:
        torch = importlib.import_module("torch")
        modules = list(agent.q_estimator.qnet.fc_layers)
        norm = next(m for m in modules if isinstance(m, torch.nn.BatchNorm1d))
        linear = [m for m in modules if isinstance(m, torch.nn.Linear)]
        std = np.sqrt(norm.running_var.detach().numpy().astype(np.float64) + norm.eps)
        return cls(
            mean=norm.running_mean.detach().numpy().astype(np.float64),
            scale=norm.weight.detach().numpy().astype(np.float64) / std,
            shift=norm.bias.detach().numpy().astype(np.float64),
            layers=[(m.weight.detach().numpy().T.astype(np.float64), m.bias.detach().numpy()) for m in linear],
        )

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        x = (np.asarray(obs, dtype=np.float64) - self.mean) * self.scale + self.shift
        for weight, bias in self.layers[:-1]:
            x = np.tanh(x @ weight + bias)
        weight, bias = self.layers[-1]
        return x @ weight + bias  # type: ignore[no-any-return]


DQN_NETWORKS: dict[int, QNetwork] = {}
"""The trained networks by players (filled by :func:`train_dqn`, read by the bots in forked workers)."""


class DQNBot:
    """A trained DQN at unokit's tables: the observation of :mod:`unokit.rl.encoding` built from
    the view, the legal action of highest Q-value; out of turn "wait" (unokit's RLCard interface
    offers it) is one of the choices, and choosing it lets the moment pass."""

    def __init__(self, seed: int = 0, edition: str = "classic", name: str = "dqn", **options: Any) -> None:
        if edition != "classic":
            raise UnknownOptionError("the DQN is trained on Classic only")
        if options:
            raise UnknownOptionError(f"unknown option(s) for dqn: {', '.join(sorted(options))}")
        self.name = name
        self.edition = edition
        self.space = get_edition(edition).actions
        self.encoders: dict[int, Any] = {}

    def _q(self, view: View) -> np.ndarray:
        network = DQN_NETWORKS.get(view.players)
        if network is None:
            raise UnknownOptionError(f"no DQN is trained for {view.players} players")
        encoder = self.encoders.get(view.players)
        if encoder is None:
            encoding = importlib.import_module("unokit.rl.encoding")
            encoder = self.encoders[view.players] = encoding.Encoder(self.edition, view.players, RULES)
        return network(encoder.encode(view))

    def choose(self, view: View) -> int:
        q = self._q(view)
        return max(view.legal_actions, key=lambda action: q[action])

    def wants_interrupt(self, view: View) -> int | None:
        legal = interrupt_actions(self.space, view.legal_actions)
        if not legal:
            return None
        q = self._q(view)
        best = max(legal, key=lambda action: q[action])
        return best if q[best] > q[self.space.size] else None


def train_dqn(
    players: int, episodes: int, seed: int, learning_rate: float = 5e-4, max_decisions: int = 2000
) -> dict[str, Any]:
    """Train RLCard's DQN at seat 0 of 2-player (or ``players``) Classic against RLCard's random
    agents through unokit's RLCard interface, as RLCard's ``examples/run_rl.py`` does; keep its
    network in :data:`DQN_NETWORKS`.  Returns what the run did."""
    torch = importlib.import_module("torch")
    rlcard_utils = importlib.import_module("rlcard.utils")
    agents = importlib.import_module("rlcard.agents")
    uno_rlcard = importlib.import_module("unokit.rl.rlcard")
    torch.set_num_threads(1)
    rlcard_utils.set_seed(seed)
    config = {"seed": seed, "game_num_players": players, "game_max_decisions": max_decisions}
    env = uno_rlcard.make("classic", config=config)
    agent = agents.DQNAgent(
        num_actions=env.num_actions,
        state_shape=env.state_shape[0],
        mlp_layers=[64, 64],
        epsilon_decay_steps=max(1, 200 * episodes),
        train_every=4,
        learning_rate=learning_rate,
        device=torch.device("cpu"),
    )
    env.set_agents([agent] + [agents.RandomAgent(num_actions=env.num_actions) for _ in range(players - 1)])
    started = time.perf_counter()
    steps = wins = 0
    with contextlib.redirect_stdout(io.StringIO()):  # RLCard prints every training step's loss
        for _ in range(episodes):
            trajectories, payoffs = env.run(is_training=True)
            trajectories = rlcard_utils.reorganize(trajectories, payoffs)
            for transition in trajectories[0]:
                agent.feed(transition)
            steps += len(trajectories[0])
            wins += int(payoffs[0] > 0)
    network = QNetwork.from_agent(agent)
    state, _ = env.reset()
    check = agent.q_estimator.predict_nograd(np.expand_dims(state["obs"], 0))[0]
    if not np.allclose(network(state["obs"]), check, atol=1e-4):
        raise RuntimeError("the NumPy network does not give RLCard's Q-values")
    DQN_NETWORKS[players] = network
    return {
        "players": players,
        "episodes": episodes,
        "learner_steps": steps,
        "training_win_rate_vs_random": round(wins / episodes, 4) if episodes else None,
        "seconds": round(time.perf_counter() - started, 1),
    }


# ---------------------------------------------------------------- playing


def _ranks(points: Sequence[int]) -> list[int]:
    """Competition ranks by points left in hand (fewest first, equal points tied).

    >>> _ranks([0, 12, 5, 12])
    [1, 3, 2, 3]
    """
    return [1 + sum(other < mine for other in points) for mine in points]


def play_one(spec: GameSpec) -> dict[str, Any]:
    """One game (in a worker): its seats' kinds, the winner, the points left per seat and its statistics."""
    result = play_capped(spec.edition, make_bots(spec), spec.seed, spec.rules, None, spec.max_decisions)
    if result is None:
        return {"index": spec.index, "kinds": list(spec.kinds), "finished": False}
    points = [0] * len(spec.kinds)
    turns = drawn = 0
    for kind, seat, value, _ in result.events:
        if kind == "hand":
            points[seat] = value
        elif kind in ("play", "pass"):
            turns += 1
        elif kind == "draw":
            drawn += value
    return {
        "index": spec.index,
        "kinds": list(spec.kinds),
        "finished": True,
        "winner": result.winner,
        "points": points,
        "decisions": sum(result.decisions),
        "turns": turns,
        "drawn": drawn,
    }


def play_games(
    edition: str, kinds: Sequence[str], games: int, seed: int, options: dict[str, dict[str, Any]], args: Any
) -> list[dict[str, Any]]:
    players = len(kinds)
    games = -(-games // players) * players
    bot_options = tuple((kind, tuple(sorted(o.items()))) for kind, o in sorted(options.items()) if kind in kinds)
    specs = plan_games(edition, kinds, games, seed, RULES, None, bot_options, args.max_decisions)
    return run_parallel(play_one, specs, args.workers)


def pairing(first: str, other: str, players: int, played: list[dict[str, Any]]) -> dict[str, Any]:
    """``first`` against ``other`` (``players - 1`` copies) from the games ``played``."""
    finished = [g for g in played if g["finished"]]
    wins = sum(g["kinds"][g["winner"]] == first for g in finished)
    low, high = wilson_interval(wins, len(finished))
    rounds = len(finished)
    return {
        "first": first,
        "other": other,
        "players": players,
        "games": len(played),
        "unfinished": len(played) - rounds,
        "first_wins": wins,
        "other_wins": rounds - wins,
        "win_rate": round(wins / rounds, 4) if rounds else None,
        "ci95": [round(low, 4), round(high, 4)],
        "equal_win_rate": round(1 / players, 4),
        "decisions_per_round": round(statistics.fmean(g["decisions"] for g in finished), 1) if rounds else None,
        "turns_per_round": round(statistics.fmean(g["turns"] for g in finished), 1) if rounds else None,
        "drawn_per_round": round(statistics.fmean(g["drawn"] for g in finished), 1) if rounds else None,
        "engine": "python",
    }


def fast_pairing(first: str, edition: str, players: int, games: int, seed: int, args: Any) -> dict[str, Any] | None:
    """``first`` (``heuristic`` or ``random``) against the other one (``players - 1`` copies) on the
    compiled engine, each deal played with ``first`` at every seat in turn; ``None`` where the compiled
    engine does not play it."""
    try:
        heuristic = importlib.import_module("unokit.fast.heuristic")
    except ImportError:
        return None
    games = -(-games // players) * players
    deals = games // players
    wins = rounds = decisions = 0
    for seat in range(players):
        try:
            seats = [seat] if first == "heuristic" else [s for s in range(players) if s != seat]
            out = heuristic.play_bots_games(
                deals, players, RULES, seed=seed, heuristic_seats=seats, limit=args.max_decisions, edition=edition
            )
        except UnknownOptionError:
            return None
        done = out["decisions"] < args.max_decisions
        wins += int((out["winner"][done] == seat).sum())
        rounds += int(done.sum())
        decisions += int(out["decisions"][done].sum())
    low, high = wilson_interval(wins, rounds)
    return {
        "first": first,
        "other": "random" if first == "heuristic" else "heuristic",
        "players": players,
        "games": games,
        "unfinished": games - rounds,
        "first_wins": wins,
        "other_wins": rounds - wins,
        "win_rate": round(wins / rounds, 4) if rounds else None,
        "ci95": [round(low, 4), round(high, 4)],
        "equal_win_rate": round(1 / players, 4),
        "decisions_per_round": round(decisions / rounds, 1) if rounds else None,
        "engine": "compiled",
    }


def rate(games: list[dict[str, Any]], agents: Sequence[str], seed: int) -> dict[str, dict[str, float]]:
    """OpenSkill (Plackett-Luce) ratings from ``games``, each a ranking of its seats, rated in an
    order shuffled with ``seed``."""
    models = importlib.import_module("openskill.models")
    model = models.PlackettLuce()
    ratings = {agent: model.rating(name=agent) for agent in agents}
    order = [g for g in games if g["finished"]]
    random.Random(f"leaderboard-ratings/{seed}").shuffle(order)
    for game in order:
        kinds = game["kinds"]
        if len(set(kinds)) != len(kinds):
            raise ValueError("a rated game seats each agent once")
        ranks = _ranks(game["points"])
        rated = model.rate([[ratings[kind]] for kind in kinds], ranks=[float(r) for r in ranks])
        for kind, team in zip(kinds, rated, strict=True):
            ratings[kind] = team[0]
    return {
        agent: {"mu": round(r.mu, 2), "sigma": round(r.sigma, 2), "ordinal": round(r.ordinal(), 2)}
        for agent, r in sorted(ratings.items(), key=lambda item: -item[1].ordinal())
    }


def plays(kind: str, edition: str, players: int, options: dict[str, Any]) -> str | None:
    """Why ``kind`` cannot sit at the table (``None``: it can): it is made and asked its first decision."""
    try:
        bot = make_bot(kind, seed=0, edition=edition, **options)
        game = Game(edition, players, seed=1, rules=RULES)
        seat = game.actor
        view = game.view(seat)
        action = bot.choose(view)
        if action not in view.legal_actions:
            return f"answered {action!r}, not a legal action"
    except Exception as error:  # whatever keeps it from the table is reported as the reason
        return f"{type(error).__name__}: {error}"
    return None


def table(
    edition: str, players: int, agents: list[str], options: dict[str, dict[str, Any]], args: Any
) -> dict[str, Any]:
    """Everything of one table: its pairings, its round robin and its ratings."""
    started = time.perf_counter()
    seed = args.seed
    pairings: list[dict[str, Any]] = []
    rated: list[dict[str, Any]] = []
    couples = itertools.combinations(agents, 2) if players == 2 else itertools.permutations(agents, 2)
    for number, (first, other) in enumerate(couples):
        kinds = [first] + [other] * (players - 1)
        games = play_games(edition, kinds, args.games, seed + number, options, args)
        entry = pairing(first, other, players, games)
        if {first, other} == set(FAST_PAIR) and not args.no_fast:
            fast = fast_pairing(first, edition, players, args.fast_games, seed + number, args)
            if fast is not None:
                entry["compiled"] = fast
        pairings.append(entry)
        if players == 2:
            rated += games
        print(
            f"{edition} {players}p {first} vs {other}: {entry['first_wins']}/{entry['games'] - entry['unfinished']}",
            file=sys.stderr,
        )
    robin: list[dict[str, Any]] = []
    if players > 2 and len(agents) >= players:
        for number, group in enumerate(itertools.combinations(agents, players)):
            games = play_games(edition, list(group), args.rr_games, seed + 1000 + number, options, args)
            robin.append({"agents": list(group), **tally(games)})
            rated += games
            print(f"{edition} {players}p round robin {', '.join(group)} done", file=sys.stderr)
    return {
        "edition": edition,
        "players": players,
        "agents": agents,
        "pairings": pairings,
        "round_robin": robin,
        "ratings": rate(rated, agents, seed) if rated else {},
        "rated_games": sum(g["finished"] for g in rated),
        "seconds": round(time.perf_counter() - started, 1),
    }


def tally(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Round wins per agent in a round robin's games (each agent seated once per game)."""
    finished = [g for g in games if g["finished"]]
    wins: dict[str, int] = {}
    for game in finished:
        kind = game["kinds"][game["winner"]]
        wins[kind] = wins.get(kind, 0) + 1
    return {"games": len(games), "unfinished": len(games) - len(finished), "wins": wins}


# ---------------------------------------------------------------- the report


def percent(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def markdown(report: dict[str, Any]) -> str:
    s = report["settings"]
    lines = [
        "# Baselines",
        "",
        "unokit's bots and RLCard's agents for UNO against each other: pairwise win rates and ratings.",
        "Every figure below comes from one run of",
        "",
        "```sh",
        report["command"],
        "```",
        "",
        f"(seed {s['seed']}; {report['elapsed_s']:.0f} s on {report['machine']}; Python {report['python']}).",
        'A game is one round (`scoring="single-round"`); each pairing\'s deals are paired and its seats',
        "rotated (every agent plays every deal from every seat); intervals are Wilson's at 95%. The",
        "figures shift a little from run to run of another seed; the leaderboard is regenerated by the",
        "command above.",
        "",
        "## The agents",
        "",
    ]
    notes = {
        "random": "unokit's `random` bot: a uniformly random legal action (out of turn too).",
        "heuristic": "unokit's `heuristic` bot (README, Bots).",
        "ismcts": f"unokit's `ismcts` bot at {s['ismcts_iterations']} iterations per decision (its default "
        "method: heuristic rollouts in Classic and Space Jam, else the tree; an iteration is a rollout or a "
        "tree iteration).",
        "rlcard-rule": "RLCard's `uno-rule-v1` agent through the adapter of `bench/vs_rlcard_agent.py`. Its "
        "view of the rules differs: RLCard offers a draw only when no card can be played and a Wild Draw Four "
        "only without a card of the current colour, so the adapter shows it that many legal actions; it plays "
        "a drawn card when it can (RLCard plays it at once), never challenges a Wild Draw Four (RLCard has no "
        "challenge), always calls UNO (RLCard has no call) and never catches anyone. Classic only.",
        "dqn": "RLCard's `DQNAgent` (an MLP of 64 and 64 units, learning rate 5e-4, ε decaying over 200 "
        "learner steps per episode, a training step every 4 learner steps, RLCard's defaults otherwise) trained "
        "by this command through unokit's RLCard interface (`unokit.rl.rlcard`, win reward, training episodes "
        "stopped after 2,000 decisions with the payoffs as they stand) at seat 0 against RLCard's "
        "`RandomAgent`, `--dqn-episodes` episodes per table size; it plays greedily, and waits out of turn "
        'when "wait" has its best value. Classic only.',
        "learned": '`make_bot("learned")`, the trained policy shipped with unokit.',
    }
    for agent in AGENTS:
        if agent not in report["agents"]:
            lines.append(f"* `{agent}`: left out: {report['left_out'].get(agent, 'not available')}.")
            continue
        lines.append(f"* `{agent}`: {notes[agent]}")
        if agent == "dqn":
            for training in report["dqn_training"]:
                lines.append(
                    f"  * {training['players']} players: {training['episodes']} episodes, "
                    f"{training['learner_steps']:,} learner steps in {training['seconds']} s; it won "
                    f"{percent(training['training_win_rate_vs_random'])} of its training episodes (exploring)."
                )
    for entry in report["tables"]:
        edition, players = entry["edition"], entry["players"]
        lines += ["", f"## {get_edition(edition).title}, {players} players", ""]
        skipped = entry.get("skipped")
        if skipped:
            lines.append("Not played here: " + "; ".join(f"`{k}` ({why})" for k, why in skipped.items()) + ".")
            lines.append("")
        if entry["ratings"]:
            source = (
                "the pairwise games below"
                if players == 2
                else f"the round robin of every four different agents ({s['rr_games']} games per set)"
            )
            lines += [
                f"Ratings (OpenSkill, Plackett-Luce; ordinal = μ − 3σ) from {entry['rated_games']:,} games: {source}.",
                "",
                "| rank | agent | ordinal | μ | σ |",
                "|---:|---|---:|---:|---:|",
            ]
            for rank, (agent, r) in enumerate(entry["ratings"].items(), 1):
                lines.append(f"| {rank} | `{agent}` | {r['ordinal']:.2f} | {r['mu']:.2f} | {r['sigma']:.2f} |")
            lines.append("")
        against = "against" if players == 2 else "against three of"
        lines += [
            f"Pairwise: the first agent {against} the other; equal agents would win {percent(1 / players)}.",
            "",
            "| first | other | games | first's wins | win rate | 95% interval | decisions / round "
            "| turns / round | cards drawn / round |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for p in entry["pairings"]:
            rounds = p["games"] - p["unfinished"]
            stopped = f" ({p['unfinished']} stopped)" if p["unfinished"] else ""
            lines.append(
                f"| `{p['first']}` | `{p['other']}` | {p['games']:,}{stopped} | {p['first_wins']:,} / {rounds:,} "
                f"| {percent(p['win_rate'])} | {percent(p['ci95'][0])}–{percent(p['ci95'][1])} "
                f"| {p['decisions_per_round']} | {p['turns_per_round']} | {p['drawn_per_round']} |"
            )
            fast = p.get("compiled")
            if fast:
                lines.append(
                    f"| `{p['first']}` | `{p['other']}` (compiled engine) | {fast['games']:,} "
                    f"| {fast['first_wins']:,} / {fast['games'] - fast['unfinished']:,} | {percent(fast['win_rate'])} "
                    f"| {percent(fast['ci95'][0])}–{percent(fast['ci95'][1])} | {fast['decisions_per_round']} | | |"
                )
        if entry["round_robin"]:
            lines += ["", "Round robin (rounds won per agent):", ""]
            for group in entry["round_robin"]:
                wins = ", ".join(f"`{agent}` {group['wins'].get(agent, 0)}" for agent in group["agents"])
                stopped = f", {group['unfinished']} stopped" if group["unfinished"] else ""
                lines.append(f"* {group['games']} games{stopped}: {wins}")
    lines += [
        "",
        "## Reading it",
        "",
        "* Decisions count every action applied, UNO calls and catches included; turns are the cards played",
        "  and the turns passed; cards drawn leave out the deal. A round still going after "
        f"{s['max_decisions']:,} decisions is stopped and left out of every count.",
        "* `heuristic` against `random` is played twice: by the Python runner (with the other pairings) and on",
        "  the compiled engine with more games (`--fast-games`), whose win rate is the precise one; the two",
        "  agree within their intervals when the compiled bots play as the Python ones.",
        "* At 4 players the pairwise lines seat one agent against three copies of another (a win rate above",
        "  25% beats them); the ratings come from tables of four different agents instead.",
        "* A pairing whose rounds take far more decisions than the others' has a player that draws where it",
        "  could play: in UNO a player may always draw instead, and a round of such players runs long.",
        f"* `ismcts` searches {s['ismcts_iterations']} iterations per decision here, to keep the run short: far",
        "  below its default budget (10,000 rollouts, or 400 tree iterations) and the 190 ms per decision",
        "  (some 10,000 rollouts in Classic) at which README, Strength, measures it.",
        "",
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    parser.add_argument("--fast-games", type=int, default=4000, help="compiled heuristic-random games (default 4000)")
    parser.add_argument("--rr-games", type=int, default=40, help="games per round-robin set of four (default 40)")
    parser.add_argument(
        "--editions", nargs="+", default=list(EDITIONS), choices=EDITIONS, help="editions (default all)"
    )
    parser.add_argument(
        "--other-editions-players", type=int, nargs="*", default=[2], help="table sizes outside Classic"
    )
    parser.add_argument("--ismcts-iterations", type=int, default=200, help="ismcts rollouts per decision (default 200)")
    parser.add_argument(
        "--dqn-episodes", type=int, default=60, help="DQN training episodes per table size (default 60)"
    )
    parser.add_argument("--max-decisions", type=int, default=20_000, help="cap on a round's decisions (default 20000)")
    parser.add_argument("--no-fast", action="store_true", help="the Python runner only")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: one per CPU)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="write the Markdown report here (docs/baselines.md)")
    parser.add_argument("--json", type=Path, default=None, help="write the figures as JSON here")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    vs_rlcard_agent = importlib.import_module("vs_rlcard_agent")
    register_bot(vs_rlcard_agent.KIND, vs_rlcard_agent.RLCardRuleBot)
    register_bot("dqn", DQNBot)
    left_out: dict[str, str] = {}
    if importlib.util.find_spec("unokit.bots.learned") is not None:
        importlib.import_module("unokit.bots.learned")
    kinds = load_bot_kinds()
    agents = [agent for agent in AGENTS if agent in kinds]
    if "learned" not in agents:
        try:  # a kind make_bot knows without listing it
            make_bot("learned", seed=0, edition="classic")
        except UnknownOptionError:
            left_out["learned"] = '`make_bot("learned")` does not exist in this installation'
        except Exception as error:  # installed but broken: said, not hidden
            left_out["learned"] = f'`make_bot("learned")` fails: {type(error).__name__}: {error}'
        else:
            agents.append("learned")
        if "learned" in left_out:
            print(f"learned: left out: {left_out['learned']}", file=sys.stderr)
    if "ismcts" not in kinds:
        left_out["ismcts"] = "`unokit.bots.ismcts` is not installed"
    options = {"ismcts": {"iterations": args.ismcts_iterations}}
    tables = [("classic", 2), ("classic", 4)] if "classic" in args.editions else []
    tables += [(e, n) for e in args.editions if e != "classic" for n in args.other_editions_players]
    training = [train_dqn(n, args.dqn_episodes, args.seed) for n in sorted({n for e, n in tables if e == "classic"})]
    for entry in training:
        print(f"dqn trained for {entry['players']} players: {entry}", file=sys.stderr)
    results = []
    for edition, players in tables:
        seated = []
        skipped: dict[str, str] = {}
        for agent in agents:
            why = plays(agent, edition, players, options.get(agent, {}))
            if why is None:
                seated.append(agent)
            else:
                skipped[agent] = why
                print(f"{edition} {players}p: {agent} left out: {why}", file=sys.stderr)
        if len(seated) < 2:
            continue
        entry = table(edition, players, seated, options, args)
        entry["skipped"] = skipped
        results.append(entry)
    words = ["python", "bench/leaderboard.py", *(argv if argv is not None else sys.argv[1:])]
    report = {
        "command": " ".join(words),
        "settings": {key: (str(value) if isinstance(value, Path) else value) for key, value in vars(args).items()},
        "agents": agents,
        "left_out": left_out,
        "dqn_training": training,
        "tables": results,
        "elapsed_s": round(time.perf_counter() - started, 1),
        "machine": f"{os.cpu_count()} cores",
        "python": platform.python_version(),
    }
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    if args.out is not None:
        args.out.write_text(markdown(report))
    print(json.dumps({"elapsed_s": report["elapsed_s"], "tables": len(results)}))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
