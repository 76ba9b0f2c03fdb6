"""Every round ends: a round nobody can play or draw in is blocked and won by the lowest hand.

A *staller* draws whenever it may, keeps what it draws and never plays when it may draw: with the
draw pile and the discards spent, such a player used to stall a round for ever.  Stallers sit at
every seat, in every edition, at 2 and 4 players and all at once; the round ends within a bounded
number of decisions and is scored as usual, on the Python engine and on the compiled one (held
equal to it step by step by :func:`unokit.fast.differential.play_both`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from rules_support import stacked_game
from unokit import Game, Rules
from unokit.engine.events import Event
from unokit.engine.game import BLOCKED_RULE
from unokit.narrate import Narrator, plain
from unokit.rl.cycle import DecisionCycle

EDITIONS = ("classic", "space-jam", "all-wild", "wild-jackpot")
TABLES = [
    (players, stallers)
    for players in (2, 4)
    for stallers in [(seat,) for seat in range(players)] + [tuple(range(players))]
]
"""A staller at each seat alone, then every seat stalling, at 2 and at 4 players."""
ROUND_BOUND = 60_000
"""The most decisions one round of a table with stallers may take here (random players beside
them; with every seat stalling a round takes a few hundred)."""
QUIET_HANDS = [["B9", "G9"], ["B1", "G2"], ["Y1", "B2"]]
"""18, 3 and 3 points, no red card and no 5 or Reverse."""
QUIET_DECK = {"B9": 1, "G9": 1, "B1": 1, "G2": 1, "Y1": 1, "B2": 1}
"""Those cards: dealt two each to three players, with a start card the deck is spent at once."""


def stall_action(game: Game, cycle: DecisionCycle, legal: Sequence[int], out_of_turn: bool) -> int | None:
    """The staller's action (``None``: a decision it leaves to chance, such as a colour)."""
    space = game.actions
    for action in (cycle.wait,) if out_of_turn else (space.draw, space.pass_):
        if action in legal:
            return action
    return None


def play_round(game: Game, stallers: Sequence[int], seed: int) -> int:
    """Play ``game`` until its first round ends (random decisions beside the stallers); the decisions."""
    cycle = DecisionCycle(game)
    rng = random.Random(seed)
    decisions = 0
    while not any(event[0] == "round_end" for event in game.events):
        assert decisions < ROUND_BOUND, f"the round took more than {ROUND_BOUND} decisions"
        seat, out_of_turn = cycle.asked()
        legal = cycle.legal()
        action = stall_action(game, cycle, legal, out_of_turn) if seat in stallers else None
        cycle.act(seat, rng.choice(legal) if action is None else action)
        decisions += 1
    return decisions


def check_round_end(game: Game) -> Event:
    """Check the first round's end: a blocked round goes to the lowest hand, and every scoring
    method scores it as usual; returns the ``round_end`` event."""
    events = game.events
    end = next(i for i, e in enumerate(events) if e[0] == "round_end")
    hands = {e[1]: e for e in events[:end] if e[0] == "hand"}
    points = [hands[seat][2] if seat in hands else 0 for seat in range(game.n)]
    sizes = [len(hands[seat][3]) if seat in hands else 0 for seat in range(game.n)]
    _, winner, gained, scores = events[end]
    blocked = [e for e in events[:end] if e[0] == "blocked"]
    if blocked:
        assert len(blocked) == 1 and blocked[0][2] == len(hands), blocked
        lowest = min((points[s], sizes[s]) for s in hands)
        assert (points[winner], sizes[winner]) == lowest, f"{winner} won a blocked round holding {points}, {sizes}"
        passes = [e for e in events[:end] if e[0] in ("play", "draw", "pass")][-len(hands) :]
        assert all(e[0] == "pass" for e in passes), f"blocked after {passes}"
    else:
        assert sizes[winner] == 0
    scoring = game.scoring
    if scoring == "winner-collects":
        assert gained == sum(points) - points[winner] and scores[winner] == gained
        assert all(score == 0 for seat, score in enumerate(scores) if seat != winner)
    elif scoring == "running-tally":
        assert gained == 0 and list(scores) == points
    else:
        assert gained == 0 and not any(scores)
    return events[end]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize(("players", "stallers"), TABLES)
def test_stallers_cannot_keep_a_round_from_ending(edition: str, players: int, stallers: tuple[int, ...]) -> None:
    blocked = 0
    for seed in range(3):
        game = Game(edition, players, seed=1000 * players + 10 * seed + stallers[0])
        play_round(game, stallers, seed)
        check_round_end(game)
        blocked += any(e[0] == "blocked" for e in game.events)
    if len(stallers) == players:  # nobody ever plays: every round is blocked
        assert blocked == 3


@pytest.mark.parametrize("scoring", ["winner-collects", "running-tally", "single-round", "knockout"])
def test_every_scoring_method_scores_a_blocked_round(scoring: str) -> None:
    for seed in range(4):
        game = Game("classic", 3, seed=seed, rules={"scoring": scoring})
        decisions = play_round(game, (0, 1, 2), seed)
        assert decisions < 400
        check_round_end(game)
        if scoring == "knockout":
            assert any(e[0] == "knockout" for e in game.events)


def test_a_full_cycle_of_empty_draws_blocks_the_round_and_ties_go_in_play_order() -> None:
    game = stacked_game("classic", QUIET_HANDS, "R5", dealer=2, deck={**QUIET_DECK, "R5": 1})
    assert game.draw_pile == [] and game.turn == 0
    game.apply_notation(0, "draw")
    game.apply_notation(1, "draw")
    assert game.stalls == 2 and not game.is_over and game.round == 1
    game.apply_notation(2, "draw")
    events = game.events[game.events.index(("blocked", 2, 3, ())) :]
    assert [e[0] for e in events[:5]] == ["blocked", "hand", "hand", "hand", "round_end"]
    # seats 1 and 2 hold 3 points in two cards each: seat 1 plays first after seat 2, the last to draw
    assert events[4] == ("round_end", 1, 21, (0, 21, 0))
    assert game.round == 2 and game.stalls == 0


def test_ties_follow_the_direction_of_play() -> None:
    """A Reverse start card: the dealer (seat 2) plays first, then to the right; seat 0 draws last and
    seat 2 plays next after it."""
    game = stacked_game("classic", QUIET_HANDS, "RR", dealer=2, deck={**QUIET_DECK, "RR": 1})
    assert game.direction == -1 and game.turn == 2
    for seat in (2, 1, 0):
        game.apply_notation(seat, "draw")
    assert ("blocked", 0, 3, ()) in game.events
    assert ("round_end", 2, 21, (0, 0, 21)) in game.events


def test_a_play_starts_the_count_again() -> None:
    deck = {"B9": 1, "G9": 1, "R1": 1, "B0": 1, "G0": 1, "Y0": 1, "R5": 1}
    game = stacked_game("classic", [["B9", "G9"], ["R1", "B0"], ["G0", "Y0"]], "R5", dealer=2, deck=deck)
    game.apply_notation(0, "draw")
    assert game.stalls == 1
    game.apply_notation(1, "R1!")  # seat 1: one card, no point; the discards now hold two cards
    assert game.stalls == 0
    game.apply_notation(2, "draw")  # reshuffles R5 and draws it (playable on R1): keeps it
    game.apply_notation(2, "pass")
    assert game.stalls == 0
    for seat in (0, 1, 2):  # seat 1 holds B0 alone: no match for R1
        game.apply_notation(seat, "draw")
    assert ("blocked", 2, 3, ()) in game.events
    # seat 1: 0 points in one card; seat 2: 5 points (G0 Y0 R5); seat 0: 18
    assert ("round_end", 1, 23, (0, 23, 0)) in game.events


def test_the_blocked_round_is_told_in_every_language() -> None:
    for lang in ("en", "de", "es", "fr"):
        narrator = Narrator(["Ann", "Bob", "Cy"], None, "winner-collects", "classic", lang=lang)
        text = plain(narrator.event(("blocked", 2, 3, ())))
        assert "3" in text and "{" not in text, (lang, text)
    assert "lowest hand" in BLOCKED_RULE


def test_a_stalled_game_replays_and_its_record_holds_the_blocked_round() -> None:
    from unokit.engine.record import replay, to_record

    game = Game("space-jam", 2, seed=5)
    play_round(game, (0, 1), 5)
    assert any(e[0] == "blocked" for e in game.events)
    assert replay(to_record(game)) == game


# ------------------------------------------------------------------ the compiled engine

numba = pytest.importorskip("numba", reason="the compiled engine needs the fast extra (numba)")


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize(("players", "stallers"), TABLES)
def test_the_compiled_engine_blocks_rounds_as_the_python_engine_does(
    edition: str, players: int, stallers: tuple[int, ...]
) -> None:
    """A whole match (to 200 points where points are kept) replayed through the Python engine step by
    step; every seat stalling, every round is blocked."""
    from unokit.fast.differential import play_both, stall_choice
    from unokit.fast.engine import FastGame

    rules = Rules(target_score=200)
    seed = 7000 + 10 * players + stallers[0]
    steps = play_both(players, seed, rules, seed + 1, edition=edition, stallers=stallers)
    fast = FastGame(players, seed=seed, rules=rules, edition=edition)
    rng = random.Random(seed + 1)
    decisions = 0
    events = fast.new_events()
    while not fast.is_over:
        seat, out_of_turn = fast.asked()
        legal = list(fast.legal_actions(seat)) + ([fast.wait] if out_of_turn else [])
        action = stall_choice(fast, legal, out_of_turn) if seat in stallers else -1
        fast.act(seat, rng.choice(legal) if action < 0 else action)
        events += fast.new_events()
        decisions += 1
    assert decisions == steps
    rounds = sum(e[0] == "round_end" for e in events)
    assert decisions < ROUND_BOUND * rounds
    if len(stallers) == players:
        assert sum(e[0] == "blocked" for e in events) == rounds
