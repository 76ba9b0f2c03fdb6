"""Our bots against RLCard's rule agent for UNO (``uno-rule-v1``), in Classic games.

RLCard's agent (:class:`rlcard.models.uno_rule_models.UNORuleAgentV1`) plays from
RLCard's raw observation: its hand, the target card, and the legal actions as RLCard
names them (``r-7``, ``g-skip``, ``b-draw_2``, ``y-wild``, ``r-wild_draw_4``, ``draw``).
:class:`RLCardRuleBot` is the small adapter from our per-player view to that
observation, and from the agent's answer back to our action.  RLCard's game makes
fewer decisions than ours; where it lacks one, the adapter uses a documented default:

* Legal actions are shown as RLCard's rules have them, since the agent was written for
  them: ``draw`` only when no card can be played, and a Wild Draw Four only when the
  hand holds no card of the current colour (RLCard has no bluffing).
* A wild card names the colour the agent chose with it (``r-wild`` names red).
* After drawing, the drawn card is played when it can be (RLCard plays it at once); a
  drawn wild names a colour at random, as RLCard's game does.
* A Wild Draw Four is always accepted (RLCard has no challenge).
* UNO is always called with the second-to-last card (RLCard has no UNO call), and
  the agent never catches anyone (nor does RLCard's game).

Each pairing is a tournament of :func:`unokit.analysis.tournament.run_tournament` (seats rotated,
deals paired, single-round scoring).  Prints one JSON object with each bot's round win
rate against the agent and its 95% confidence interval.

Usage: ``python bench/vs_rlcard_agent.py [--games 400] [--ismcts-games 100]
[--ismcts-ms 190] [--ismcts-iterations 100000] [--players 2] [--workers W] [--seed 0]``.
Needs the ``bench`` extra (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from typing import Any

import numpy as np
from rlcard.models.uno_rule_models import UNORuleAgentV1

from unokit.analysis.tournament import load_bot_kinds, run_tournament
from unokit.bots.base import register_bot
from unokit.editions import get_edition
from unokit.engine.actions import ActionType
from unokit.engine.cards import CARD_COLOUR, CARD_IS_WILD, CARD_KIND, NO_COLOUR, Colour, Kind
from unokit.engine.errors import UnknownOptionError
from unokit.engine.views import View

KIND = "rlcard-rule"
RL_COLOURS = {Colour.RED: "r", Colour.GREEN: "g", Colour.BLUE: "b", Colour.YELLOW: "y"}
OUR_COLOURS = {letter: colour for colour, letter in RL_COLOURS.items()}
RL_TRAITS = {
    **{Kind(n): str(n) for n in range(10)},
    Kind.SKIP: "skip",
    Kind.REVERSE: "reverse",
    Kind.DRAW_TWO: "draw_2",
    Kind.WILD: "wild",
    Kind.WILD_DRAW_FOUR: "wild_draw_4",
}


def rl_card(card: int, colour: int = Colour.RED) -> str:
    """RLCard's name of ``card``; a wild card takes ``colour`` (in a hand its colour means nothing)."""
    shown = colour if CARD_IS_WILD[card] else CARD_COLOUR[card]
    return f"{RL_COLOURS[Colour(shown)]}-{RL_TRAITS[Kind(CARD_KIND[card])]}"


class RLCardRuleBot:
    """RLCard's ``uno-rule-v1`` agent seated at one of our tables (Classic only)."""

    def __init__(self, seed: int = 0, edition: str = "classic", name: str = KIND, **options: Any) -> None:
        if edition != "classic":
            raise UnknownOptionError("RLCard's rule agent plays Classic UNO only")
        if options:
            raise UnknownOptionError(f"unknown option(s) for {KIND}: {', '.join(sorted(options))}")
        self.name = name
        self.agent = UNORuleAgentV1()
        self.np_rng = np.random.RandomState(seed % 2**32)
        self.rng = random.Random(seed)
        self.space = get_edition(edition).actions
        self.colour = NO_COLOUR
        """The colour named with the wild card just played."""

    def observation(self, view: View) -> dict[str, Any]:
        """RLCard's raw state for the agent's turn, from our view."""
        space = self.space
        plays = [space.args[a] for a in view.legal_actions if space.types[a] == ActionType.PLAY]
        holds_colour = any(not CARD_IS_WILD[c] and CARD_COLOUR[c] == view.colour for c in view.hand)
        legal: list[str] = []
        for card in sorted(set(plays)):
            if CARD_KIND[card] == Kind.WILD_DRAW_FOUR and holds_colour:
                continue
            if CARD_IS_WILD[card]:
                legal += [rl_card(card, colour) for colour in RL_COLOURS]
            else:
                legal.append(rl_card(card))
        if not legal:
            legal = ["draw"]
        top = view.top_card
        target = rl_card(top, view.colour if view.colour != NO_COLOUR else Colour.RED)
        raw = {
            "hand": [rl_card(c) for c in view.hand],
            "target": target,
            "legal_actions": legal,
            "num_players": view.players,
            "num_cards": list(view.hand_sizes),
            "current_player": view.seat,
        }
        return {"raw_obs": raw, "raw_legal_actions": legal}

    def choose(self, view: View) -> int:
        space = self.space
        legal = view.legal_actions
        phase = view.phase
        if phase == "turn":
            state = self.observation(view)
            saved = np.random.get_state()
            np.random.set_state(self.np_rng.get_state())
            try:
                answer = self.agent.step(state)
            finally:
                self.np_rng.set_state(np.random.get_state())
                np.random.set_state(saved)
            if answer == "draw":
                return space.draw
            letter, trait = answer.split("-", 1)
            kind = next(k for k, t in RL_TRAITS.items() if t == trait)
            card = next(c for c in view.hand if CARD_KIND[c] == kind and (CARD_IS_WILD[c] or rl_card(c) == answer))
            self.colour = OUR_COLOURS[letter] if CARD_IS_WILD[card] else NO_COLOUR
            return self._play(card, legal)
        if phase == "drawn":
            card = view.drawn
            self.colour = self.rng.choice(list(RL_COLOURS)) if CARD_IS_WILD[card] else NO_COLOUR
            return self._play(card, legal)
        if phase == "colour":
            colour = self.colour if self.colour != NO_COLOUR else self.rng.choice(list(RL_COLOURS))
            return space.id(ActionType.COLOUR, colour)
        if phase == "challenge":
            return space.accept
        raise ValueError(f"RLCard's rule agent has no decision for phase {phase!r}")

    def _play(self, card: int, legal: tuple[int, ...]) -> int:
        faces = len(self.space.faces)
        play = self.space.play_id[card]
        if play + faces in legal:
            return play + faces
        return play if play in legal else self.space.pass_

    def wants_interrupt(self, view: View) -> int | None:
        """Never: RLCard's game has no UNO call or catch (it calls with its card instead)."""
        return None


def measure(bot: str, games: int, args: argparse.Namespace) -> dict[str, Any]:
    options = {"ismcts": {"ms": args.ismcts_ms, "iterations": args.ismcts_iterations}}
    bots = [bot] + [KIND] * (args.players - 1)
    started = time.perf_counter()
    result = run_tournament(
        "classic",
        bots,
        games,
        args.seed,
        workers=args.workers,
        rules={"scoring": "single-round"},
        bot_options={bot: options[bot]} if bot in options else None,
    )
    ours, theirs = result["results"][bot], result["results"][KIND]
    entry = {
        "bot": bot,
        "players": args.players,
        "games": games,
        "unfinished": result["unfinished"],
        "equal_win_rate": result["expected_win_rate"],
        "win_rate": ours["round_win_rate"],
        "ci95": ours["round_win_ci95"],
        "wins": ours["round_wins"],
        "rounds": ours["rounds"],
        "rlcard_win_rate": theirs["round_win_rate"],
        "ms_per_decision": round(1000 * ours["mean_decision_s"], 3),
        "elapsed_s": round(time.perf_counter() - started, 1),
    }
    print(
        f"{bot} vs {KIND} ({args.players}p): {100 * entry['win_rate']:.1f}% "
        f"[{100 * entry['ci95'][0]:.1f}, {100 * entry['ci95'][1]:.1f}] in {entry['elapsed_s']} s",
        file=sys.stderr,
    )
    return entry


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=400, help="games for the heuristic (default 400)")
    parser.add_argument("--ismcts-games", type=int, default=100, help="games for ismcts (default 100; 0: leave out)")
    parser.add_argument("--ismcts-ms", type=float, default=190.0, help="ismcts time per decision, ms (default 190)")
    parser.add_argument(
        "--ismcts-iterations", type=int, default=100_000, help="ismcts iterations per decision (default 100000)"
    )
    parser.add_argument("--players", type=int, default=2, help="seats: one of ours against the rest (default 2)")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: one per CPU)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    register_bot(KIND, RLCardRuleBot)
    kinds = load_bot_kinds()
    started = time.perf_counter()
    results = [measure("heuristic", args.games, args)]
    if "ismcts" in kinds and args.ismcts_games > 0:
        results.append(measure("ismcts", args.ismcts_games, args))
    report = {
        "benchmark": "round win rates against RLCard's uno-rule-v1 agent, Classic, single-round scoring",
        "settings": {key: value for key, value in vars(args).items()},
        "pairings": results,
        "elapsed_s": round(time.perf_counter() - started, 1),
        "python": platform.python_version(),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
