"""The differential check of the compiled engine: its games replayed through :class:`unokit.Game`.

A compiled game is made with its shuffles and dealer draws traced; the same game is played
through ``Game`` with a generator that hands it those results (:class:`ScriptedRandom`), and at
every step both engines must agree on the seat asked, every seat's legal actions, the events,
the hands, the piles, the scores and the observation vector.  A difference raises
:class:`EngineMismatch` naming it.  ``tests/test_fast_engine.py`` runs it on every option mix;
``bench/fast_differential.py`` on as many games as asked.

>>> play_both(3, seed=1, rules=Rules(scoring="single-round"), policy_seed=2) > 0
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from unokit.engine.game import Game
from unokit.engine.rules import Rules
from unokit.engine.scripted import ScriptedRandom as GameScriptedRandom
from unokit.fast import engine
from unokit.fast.engine import FastGame
from unokit.rl.cycle import DecisionCycle
from unokit.rl.encoding import EVENT_CARD_KINDS, Encoder

__all__ = [
    "OPTION_MIXES",
    "WRITTEN_RULE_CARDS",
    "EngineMismatch",
    "ScriptedRandom",
    "play_both",
    "replay_game",
    "replay_recorded",
    "same_game",
    "stall_choice",
]

OPTION_MIXES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("classic", {}),
    ("classic", {"scoring": "single-round"}),
    ("classic", {"scoring": "running-tally", "target_score": 150}),
    ("classic", {"allow_bluff": False, "hand_size": 3}),
    ("classic", {"challenger_plays_after_catching_bluff": False, "uno_penalty": 0, "scoring": "single-round"}),
    ("classic", {"two_player_reverse_skips": False, "uno_penalty": 4, "target_score": 200}),
    ("classic", {"hand_size": 1, "scoring": "single-round"}),
    ("space-jam", {}),
    ("space-jam", {"jam_slam_chance": 0.8, "jam_discard": 3, "scoring": "single-round", "hand_size": 4}),
    ("space-jam", {"jam_slam_chance": 0.25, "jam_draw": 4, "allow_bluff": False, "scoring": "running-tally"}),
    ("all-wild", {}),
    ("all-wild", {"forced_swap_final_card": "swaps", "uno_penalty": 3}),
    ("all-wild", {"scoring": "winner-collects", "target_score": 200, "hand_size": 3}),
    ("classic", {"seven_swap": True, "zero_pass": True, "scoring": "single-round"}),
    ("classic", {"call_uno": False, "force_play": True, "must_play": True, "target_score": 200}),
    ("classic", {"draw_to_match": True, "hand_limit": 12, "no_action_finish": True, "scoring": "single-round"}),
    (
        "classic",
        {"wild_draw_four_challenge": False, "no_wild_finish": True, "draw_to_match": True, "scoring": "single-round"},
    ),
    ("space-jam", {"seven_swap": True, "zero_pass": True, "no_wild_finish": True, "scoring": "single-round"}),
    ("all-wild", {"call_uno": False, "draw_to_match": True}),
    ("all-wild", {"force_play": True, "hand_limit": 9, "must_play": True, "no_action_finish": True}),
    ("classic", {"stacking": "same", "stack_deflect": "both", "scoring": "single-round"}),
    ("classic", {"stacking": "cross", "stack_revenge": True, "stack_deflect": "reverse", "scoring": "single-round"}),
    ("classic", {"stacking": "up", "wild_draw_four_challenge": False, "force_play": True, "zero_pass": True}),
    ("classic", {"stacking": "draw-two", "stack_deflect": "skip", "seven_swap": True, "target_score": 200}),
    ("space-jam", {"stacking": "cross", "stack_deflect": "both", "allow_bluff": False, "scoring": "single-round"}),
    ("all-wild", {"stacking": "cross", "stack_deflect": "both", "stack_revenge": True}),
    ("all-wild", {"stacking": "up", "stack_deflect": "skip", "call_uno": False}),
    ("classic", {"multi_play": "number", "multi_play_bomb": True, "scoring": "single-round"}),
    ("classic", {"multi_play": "identical", "seven_swap": True, "zero_pass": True, "stacking": "same"}),
    ("space-jam", {"multi_play": "number", "multi_play_bomb": True, "call_uno": False, "target_score": 200}),
    ("classic", {"teams": True, "stacking": "same", "seven_swap": True, "target_score": 200}),
    ("classic", {"teams": True, "scoring": "running-tally", "target_score": 150, "uno_penalty": 4}),
    ("all-wild", {"teams": True, "scoring": "winner-collects", "target_score": 150}),
    ("classic", {"preset": "house", "scoring": "single-round"}),
    ("classic", {"preset": "chaos", "scoring": "single-round"}),
    ("all-wild", {"jump_in": True, "stacking": "cross", "call_uno": False}),
    ("space-jam", {"preset": "party", "scoring": "single-round"}),
    ("wild-jackpot", {}),
    ("wild-jackpot", {"lever_weights": [0, 1, 1, 3, 3, 1], "rule_card_count": 3, "scoring": "single-round"}),
    (
        "wild-jackpot",
        {"lever_weights": [5, 0, 0, 1, 0, 0], "allow_bluff": False, "hand_size": 3, "scoring": "running-tally"},
    ),
    ("wild-jackpot", {"preset": "chaos", "scoring": "single-round"}),
    (
        "classic",
        {
            "deck": {
                **{card: 5 for card in ("R1", "R2", "G2", "G3", "B9", "B8", "Y0", "Y5", "Y6")},
                **{"RS": 4, "GR": 4, "Y+2": 4, "B+2": 2, "W": 3, "W+4": 4},
            },
            "scoring": "single-round",
        },
    ),
    ("classic", {"deck": {"RS": 16, "GR": 16, "B+2": 16, "YS": 16, "W": 8, "W+4": 4}, "scoring": "single-round"}),
    ("all-wild", {"deck": {"W": 60, "W+2": 30, "WS2": 30, "WT2": 30, "WX": 30, "WR": 30, "WS": 10, "W+4": 10}}),
    ("wild-jackpot", {"deck": {"R$": 20, "G$": 20, "W$": 12, "B5": 20, "Y7": 20, "W+4": 4, "BR": 6}}),
    ("wild-jackpot", {"call_uno": False, "stacking": "cross", "stack_deflect": "both", "scoring": "single-round"}),
    ("wild-jackpot", {"teams": True, "seven_swap": True, "draw_to_match": True, "target_score": 200}),
    ("wild-jackpot", {"jump_in": True, "multi_play": "number", "force_play": True, "scoring": "single-round"}),
    ("classic", {"scoring": "knockout"}),
    ("space-jam", {"scoring": "knockout", "multi_play": "number", "multi_play_bomb": True, "zero_pass": True}),
    ("all-wild", {"scoring": "knockout", "jump_in": True, "call_uno": False}),
    ("wild-jackpot", {"scoring": "knockout", "teams": True, "seven_swap": True}),
    ("wild-jackpot", {"scoring": "knockout", "jump_in": True, "zero_pass": True}),
    ("classic", {"preset": "no-mercy", "scoring": "single-round"}),
    ("classic", {"mercy": True, "mercy_limit": 12, "scoring": "knockout", "draw_to_match": True}),
    ("space-jam", {"mercy": True, "mercy_limit": 14, "stacking": "cross", "teams": True, "target_score": 200}),
    ("all-wild", {"mercy": True, "mercy_limit": 10, "stacking": "up", "jump_in": True}),
    ("wild-jackpot", {"mercy": True, "mercy_limit": 11, "scoring": "single-round"}),
)
"""The editions and mixes of rule options (their sheets' and house rules) that the differential
check plays in turn: every edition and option the compiled engine plays, each option changed
from its default in one of them at least."""

WRITTEN_RULE_CARDS: tuple[str, ...] = (
    "Draw 2 cards.",
    "Draw until you have 9 cards in your hand.",
    "Discard 2 cards of your choice.",
    "Discard down to 3 cards.",
    "Play as many cards in a row as you can.",
    "Play all of your Wild cards",
    "Skip your next turn.",
    "Reverse the direction of play!",
    "Give 2 cards to the player on your left.",
    "Give the player on your right 1 card.",
    "Take 2 cards from the next player.",
    "Steal a card from the previous player.",
    "Take 3 cards from the player with the most cards.",
    "Give 3 cards to the player with the fewest cards.",
    "Swap hands with a player of your choice.",
    "Trade hands with the player with the fewest cards.",
    "Take 1 card from any player.",
    "Everyone draws 1 card.",
    "Each player discards 1 card.",
    "Make chicken noises until your next turn.",
)
"""Rule cards written for UNO Wild Jackpot's differential games: every verb and every target of
the rule-card language, and an honour task (the other games draw the sheet's suggestions)."""


class EngineMismatch(AssertionError):
    """The compiled engine and the Python engine differ."""


def check(condition: bool, what: str) -> None:
    """Raise :class:`EngineMismatch` saying ``what`` differs unless ``condition``."""
    if not condition:
        raise EngineMismatch(what)


class ScriptedRandom(GameScriptedRandom):
    """:class:`unokit.engine.scripted.ScriptedRandom` handing a :class:`Game` the random results the
    compiled engine drew; a result that does not fit is an :class:`EngineMismatch`."""

    def fail(self, what: str) -> None:
        raise EngineMismatch(f"the Python engine drew otherwise than the compiled one: {what}")


def replay_game(
    fast: FastGame,
    players: int,
    rules: Rules,
    rule_cards: Sequence[str] | None = None,
    script: Sequence[tuple[str, list[int]]] | None = None,
) -> tuple[Game, ScriptedRandom]:
    """A :class:`Game` dealt as the traced compiled game ``fast`` was (with the same written rule
    cards, if any), and its scripted generator (holding ``script``, default ``fast.trace()``)."""
    scripted = ScriptedRandom()
    scripted.script.extend(fast.trace() if script is None else script)

    class ReplayGame(Game._class_for(rules)):  # type: ignore[misc]  # HouseGame with a house rule on
        def _init_state(self, *args: Any) -> None:
            super()._init_state(*args)
            self.rng = scripted
            self.order_key = int(fast.state[engine.ORDER_KEY])  # the same fair order out of turn

    return ReplayGame(fast.edition, players, seed=0, rules=rules, rule_cards=rule_cards), scripted


def same_game(state: Any, other: Any) -> bool:
    """Whether two compiled states hold the same game (their scratch space aside)."""
    keep = np.ones(len(state), dtype=bool)
    keep[engine.SCRATCH : engine.EVENTS] = False
    return bool((state[keep] == other[keep]).all())


def python_events(game: Game, start: int) -> list[tuple[str, int, int, int]]:
    """``game``'s events from ``start`` as the compiled engine reports them (kind, seat, value, card)."""
    out = []
    for kind, seat, value, data in game.events[start:]:
        card = data[0] if kind in EVENT_CARD_KINDS and data else -1
        out.append((kind, seat, value, card))
    return out


def compare_table(fast: FastGame, game: Game) -> None:
    """Check that the two engines hold the same hands, piles, scores, phase, actor and winner."""
    check(fast.hands() == [sorted(h) for h in game.hands], "the hands")
    check(fast.draw_pile() == game.draw_pile, "the draw pile")
    pile = fast.discard_pile()
    if game.rules.mercy:  # a hand Mercy puts under the top card lies in the Python hand's order, here in face order
        check(pile[-1:] == game.discard_pile[-1:] and sorted(pile) == sorted(game.discard_pile), "the discard pile")
    else:
        check(pile == game.discard_pile, "the discard pile")
    check(fast.scores == game.scores, "the scores")
    check(
        fast.phase == game.phase and fast.actor == game.actor and fast.winner == game.winner,
        "the phase, actor or winner",
    )


def compare(fast: FastGame, game: Game, cycle: DecisionCycle) -> None:
    """Check that the two engines hold the same position."""
    s = fast
    compare_table(fast, game)
    state = s.state
    c = engine

    check(int(state[c.COLOUR_IN_PLAY]) == game.colour, "the colour in play")
    check(int(state[c.DIRECTION]) == game.direction, "the direction")
    check(int(state[c.TURN_SEAT]) == game.turn, "whose turn it is")
    check(int(state[c.DEALER]) == game.dealer, "the dealer")
    check([seat for seat in range(game.n) if state[c.EXPOSED + seat]] == sorted(game.exposed), "who may be caught")
    check(bool(state[c.ARMED]) == game.window_armed, "the catch window")
    check(s.deciders() == game.deciders(), "the deciders")
    for seat in range(game.n):
        check(s.legal_actions(seat) == tuple(sorted(game.legal_actions(seat))), f"seat {seat}'s legal actions")
    check(s.asked() == cycle.asked(), "the seat asked")


def compare_observation(fast: FastGame, game: Game, seat: int, encoder: Encoder, layout: Any) -> None:
    out = np.zeros(encoder.size, dtype=np.float32)
    engine.encode(fast.state, seat, layout, encoder.high, out)
    expected = encoder.encode(game.view(seat))
    differ = np.flatnonzero(out != expected)
    first = [(encoder_field(encoder, i), float(out[i]), float(expected[i])) for i in differ[:5]]
    check(not len(differ), f"seat {seat}'s observation: {first}")


def encoder_field(encoder: Encoder, index: int) -> str:
    field = next(f for f in reversed(encoder.fields) if f.offset <= index)
    return f"{field.name}+{index - field.offset}"


def play_both(
    players: int,
    seed: int,
    rules: Rules,
    policy_seed: int,
    history: int = 16,
    edition: str = "classic",
    rule_cards: Sequence[str] | None = None,
    stallers: Sequence[int] = (),
) -> int:
    """Play compiled game ``seed`` at a table of ``players`` with random decisions (``policy_seed``)
    through the decision cycle, replaying it in Python and comparing every step (observations with
    a window of ``history`` events); the steps taken.  Raises :class:`EngineMismatch` at the first
    difference.  ``rule_cards``: Wild Jackpot's written rule cards (default: the sheet's suggestions).
    The seats of ``stallers`` stall (:func:`stall_choice`), so that rounds are blocked."""
    fast = FastGame(players, seed=seed, rules=rules, edition=edition, trace=True, rule_cards=rule_cards)
    game, scripted = replay_game(fast, players, rules, rule_cards)
    encoder = Encoder(edition, players, rules, history)
    layout = engine.encoding_layout(encoder)
    check(fast.new_events() == python_events(game, 0), "the deal's events")
    cycle = DecisionCycle(game)
    compare(fast, game, cycle)
    compare_observation(fast, game, 0, encoder, layout)
    rng = random.Random(policy_seed)
    steps = 0
    while not fast.is_over:
        seat, out_of_turn = fast.asked()
        legal = list(fast.legal_actions(seat)) + ([fast.wait] if out_of_turn else [])
        action = stall_choice(fast, legal, out_of_turn) if seat in stallers else -1
        if action < 0:
            action = rng.choice(legal)
        read = len(game.events)
        fast.act(seat, action)
        scripted.script.extend(fast.trace())
        cycle.act(seat, action)
        check(not scripted.script, "the Python engine drew less randomness")
        check(fast.new_events() == python_events(game, read), f"the events of step {steps}")
        compare(fast, game, cycle)
        compare_observation(fast, game, (seat + steps) % players, encoder, layout)
        steps += 1
    check(game.is_over, "the end of the match")
    return steps


def stall_choice(fast: FastGame, legal: Sequence[int], out_of_turn: bool) -> int:
    """A staller's action: wait out of turn, draw whenever it may (keeping the card drawn: pass),
    else -1 (its other decisions, such as a colour, are left to the caller)."""
    space = fast.actions
    for action in (fast.wait,) if out_of_turn else (space.draw, space.pass_):
        if action in legal:
            return action
    return -1


RECORD_DECISIONS = 100_000
"""Decisions :func:`replay_recorded` records of a game at most (a game cut there is compared where it stands)."""
_BUFFERS: list[Any] = []


def _record_buffers() -> tuple[Any, Any, Any]:
    """The arrays a recording fills (made once per process: decisions, events, trace words)."""
    if not _BUFFERS:
        _BUFFERS.append(np.zeros((RECORD_DECISIONS, 3), dtype=np.int64))
        _BUFFERS.append(np.zeros((8 * RECORD_DECISIONS, 4), dtype=np.int64))
        _BUFFERS.append(np.zeros(32 * RECORD_DECISIONS, dtype=np.int64))
    return _BUFFERS[0], _BUFFERS[1], _BUFFERS[2]


def replay_recorded(
    players: int,
    seed: int,
    index: int,
    rules: Rules,
    edition: str = "classic",
    rule_cards: Sequence[str] | None = None,
    policy: str = "random",
) -> int:
    """Compiled game ``index`` of ``seed`` played whole at once, then replayed through
    :class:`Game`: each decision legal there with as many legal actions, the same events in order
    (compared at the end), and the same hands, piles, scores and winner at the end.  Far cheaper
    than :func:`play_both` (which compares every position and observation at every step), for
    many games; returns the decisions.  ``policy``: ``random`` (:func:`engine.record_random_game`,
    as ``bench/vs_rlcard.py`` plays: a seat drawn among the deciders, then one of its legal
    actions) or ``heuristic`` (a table of compiled heuristic bots, as ``unokit simulate`` plays)."""
    moves, events, trace = _record_buffers()
    if policy == "heuristic":
        from unokit.fast import heuristic

        template = heuristic.bots_template(players, rules, edition, rule_cards)
        template[engine.TRACE_ON] = 1
        state = np.empty_like(template)
        memory = heuristic.new_memory(template)
        recorded = heuristic.record_bots_game(
            state,
            template,
            memory,
            heuristic.new_generators(),
            heuristic.EVERY_SEAT_HEURISTIC,
            seed,
            index,
            moves,
            events,
            trace,
        )
    else:
        template = engine.template_state(players, rules, edition, rule_cards)
        state = np.empty_like(template)
        recorded = engine.record_random_game(state, template, seed, index, moves, events, trace)
    decisions, written, traced = recorded
    check(decisions >= 0, "the recording: more events or random draws than its arrays hold")
    fast = FastGame.of_state(state, rules)
    faces = fast.faces
    game, scripted = replay_game(fast, players, rules, rule_cards, engine.read_trace(trace[:traced], faces))
    legal_actions = game.legal_actions
    apply = game.apply
    for seat, action, count in moves[:decisions].tolist():
        legal = legal_actions(seat)
        if len(legal) != count or action not in legal:
            raise EngineMismatch(f"decision {len(game.history)}: seat {seat}'s legal actions {legal}, {count} compiled")
        apply(seat, action)
    check(not scripted.script, "the Python engine drew less randomness")
    names = engine.EVENT_NAMES
    compiled = [(names[k], seat, value, faces[f] if f >= 0 else -1) for k, seat, value, f in events[:written].tolist()]
    replayed = python_events(game, 0)
    if compiled != replayed:
        first = next((i for i, pair in enumerate(zip(compiled, replayed, strict=False)) if pair[0] != pair[1]), None)
        where = min(len(compiled), len(replayed)) if first is None else first
        raise EngineMismatch(
            f"event {where}: {compiled[where : where + 2]} compiled, {replayed[where : where + 2]} in Python"
        )
    compare_table(fast, game)
    return decisions
