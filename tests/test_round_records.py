"""What a round records is one truth in both engines.

The Python engine's records come from :class:`unokit.analysis.rounds.RoundTracker`, fed each
decision and the match's events; the compiled engine computes them in :mod:`unokit.fast.stats`.
Compiled matches of every edition, at 2 and 4 players, under every option mix of the differential
check (stacking, Seven-O, Jump-In, Mercy, Wild Jackpot's written rule cards, ...) are replayed
through :class:`unokit.Game` decision by decision and the tracker's records must equal the compiled
arrays, round by round and seat by seat.  Small hand-played games check the definitions themselves.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from rules_support import stacked_game
from unokit import Game, Rules
from unokit.analysis.rounds import (
    MARK_OF_KIND,
    MID_ROOM,
    Mark,
    RoundRecord,
    RoundTracker,
    apply_tracked,
    marks_of,
    tracked_game,
)
from unokit.analysis.stats import SPECIAL_KINDS, MatchSpec, play_stats_match
from unokit.analysis.tournament import play_capped
from unokit.bots import make_bot
from unokit.editions.wild_jackpot import WildJackpot
from unokit.engine.rules import LEVER_OUTCOMES
from unokit.rl.cycle import DecisionCycle

EDITIONS = ("classic", "space-jam", "all-wild", "wild-jackpot")

# ---------------------------------------------------------------- the marks


def test_the_marks_are_bits_of_one_word_with_labels_and_keys() -> None:
    assert len(Mark) <= 63 and [int(m) for m in Mark] == list(range(len(Mark)))
    assert len({m.key for m in Mark}) == len({m.label for m in Mark}) == len(Mark)
    assert Mark.LOST_TO_JUMP.key == "lost_to_jump" and Mark.PLAYED_WILD_DRAW_FOUR.label == "played Wild Draw Four"
    assert list(MARK_OF_KIND) == [int(kind) for kind in SPECIAL_KINDS]  # one per special kind, in its order
    levers = [m.key for m in Mark if m.key.startswith("lever_")]
    assert levers == ["lever_" + outcome.replace("-", "_") for outcome in LEVER_OUTCOMES]
    assert marks_of(0) == [] and marks_of(1 << Mark.SKIPPED) == [Mark.SKIPPED]


# ---------------------------------------------------------------- hand-played rounds


def play(game: Game, tracker: RoundTracker, *moves: tuple[int, str]) -> None:
    for seat, text in moves:
        apply_tracked(game, tracker, seat, game.actions.parse(text))


def test_a_lead_change_a_draw_and_a_skip() -> None:
    """Two players, seat 0 first.  Before each decision: 3-3 (nobody leads), 2-3 (seat 0 leads),
    4-2 after the Draw Two (seat 1 leads: one change), 4-1, 3-1; seat 1 goes out and leads at the end."""
    game = stacked_game("classic", [["R1", "R3", "G7"], ["R+2", "R2", "R4"]], "R5", ["B1", "B2", "B3"], call_uno=False)
    tracker = RoundTracker(2)
    play(game, tracker, (0, "R1"), (1, "R+2"), (1, "R2"), (0, "R3"), (1, "R4"))
    assert ("round_end", 1) in [(e[0], e[1]) for e in game.events]
    [record] = tracker.records(game.events)[:1]
    assert record == RoundRecord(
        decisions=5,
        turns=5,
        first_player=0,
        cards_drawn=2,
        lead_changes=1,
        mid_trailing=0,  # before decision 5 // 2 = 2: seat 0 holds 4 cards, seat 1 two
        blocked=0,
        marks=[1 << Mark.SKIPPED, 1 << Mark.PLAYED_DRAW_TWO],
    )


def test_the_winner_leads_at_the_end() -> None:
    """Seat 0 leads alone, then 1-1 (shared): seat 0 goes out, no change; had seat 1 led last, its
    going out would have been none either, and seat 0's one."""
    game = stacked_game("classic", [["R1", "R3"], ["R2", "G4"]], "R5", ["B1", "B2"], call_uno=False)
    tracker = RoundTracker(2)
    play(game, tracker, (0, "R1"), (1, "R2"), (0, "R3"))  # before: 2-2, 1-2 (seat 0 leads), 1-1 (shared)
    [record] = tracker.records(game.events)[:1]
    assert (record.lead_changes, record.decisions, record.mid_trailing) == (0, 3, 1)
    for winner, changes in ((1, 0), (0, 1)):
        tracker = RoundTracker(2)
        tracker.decide(1, 0, True, [3, 1], (0, 1))  # seat 1 leads alone
        tracker.decide(1, 1, True, [1, 1], (0, 1))
        [record] = tracker.records([("dealer", 1, 1, ()), ("round_end", winner, 10, ())])
        assert record.lead_changes == changes


def test_a_stack_marks_who_added_to_it_and_who_drew_it() -> None:
    """Seat 0 starts a total (not a stack: nothing was pending), seat 1 adds to it (stacked), seat 2
    holds no draw card and draws the 4 (drew a stack, skipped)."""
    hands = [["R+2", "G7", "B5"], ["G+2", "Y1", "Y5"], ["R3", "B3", "Y7"]]
    draw = ["B1", "B2", "B4", "B6", "B7", "B8"]
    game = stacked_game("classic", hands, "R5", draw, stacking="same", call_uno=False, scoring="single-round")
    tracker = RoundTracker(3, game.draw_values)  # type: ignore[attr-defined]
    play(game, tracker, (0, "R+2"), (1, "G+2"))
    [record] = tracker.records(game.events)
    assert record.marks == [
        1 << Mark.PLAYED_DRAW_TWO,
        1 << Mark.PLAYED_DRAW_TWO | 1 << Mark.STACKED,
        1 << Mark.DREW_STACK | 1 << Mark.SKIPPED,
    ]
    assert (record.cards_drawn, record.decisions, record.turns, record.first_player) == (4, 2, 1, 0)


def test_a_blocked_round_is_flagged() -> None:
    deck = {"B9": 1, "G9": 1, "B1": 1, "G2": 1, "Y1": 1, "B2": 1, "R5": 1}
    game = stacked_game("classic", [["B9", "G9"], ["B1", "G2"], ["Y1", "B2"]], "R5", dealer=2, deck=deck)
    tracker = RoundTracker(3)
    play(game, tracker, (0, "draw"), (1, "draw"), (2, "draw"))
    first = tracker.records(game.events)[0]
    assert first == RoundRecord(
        decisions=3, turns=3, first_player=0, cards_drawn=0, lead_changes=0, mid_trailing=-1, blocked=1, marks=[0] * 3
    )


def test_the_middle_decision_of_a_very_long_round_is_not_kept() -> None:
    for decisions, middle in ((2 * MID_ROOM - 1, 0), (2 * MID_ROOM, -1)):
        tracker = RoundTracker(2)
        for _ in range(decisions):
            tracker.decide(1, 0, False, [5, 3], (0, 1))
        [record] = tracker.records([("dealer", 0, 1, ()), ("round_end", 1, 0, ())])
        assert (record.decisions, record.mid_trailing, record.lead_changes) == (decisions, middle, 0)


def test_cards_drawn_are_the_cards_that_left_the_draw_pile() -> None:
    """At every decision that deals no new round, the draws of its events are the cards the draw
    pile lost, less those reshuffled into it; a round's ``cards_drawn`` is the sum of its draws."""
    mixes: list[tuple[str, dict[str, Any]]] = [
        ("classic", {"stacking": "cross", "stack_revenge": True, "scoring": "single-round"}),
        ("classic", {"preset": "no-mercy", "scoring": "single-round"}),
        ("space-jam", {"scoring": "single-round", "multi_play": "number", "multi_play_bomb": True}),
        ("all-wild", {"scoring": "single-round", "stacking": "up"}),
        ("wild-jackpot", {"scoring": "single-round"}),
    ]
    for number, (edition, options) in enumerate(mixes * 3):
        rules = Rules.from_dict(options)
        game, tracker = tracked_game(edition, 3, seed=number, rules=rules)
        cycle = DecisionCycle(game)
        rng = random.Random(number)
        while not game.is_over:
            read, pile = len(game.events), len(game.draw_pile)
            seat, _ = cycle.asked()
            cycle.act(seat, rng.choice(cycle.legal()))
            new = game.events[read:]
            if any(e[0] == "dealer" for e in new) or game.is_over:
                continue
            drawn = sum(e[2] for e in new if e[0] == "draw")
            assert drawn == pile - len(game.draw_pile) + sum(e[2] for e in new if e[0] == "reshuffle")
        [record] = tracker.records(game.events)
        assert record.cards_drawn == sum(e[2] for e in game.events if e[0] == "draw") > 0


# ---------------------------------------------------------------- the Python engine's matches


def test_python_stats_matches_carry_the_round_fields() -> None:
    for number, edition in enumerate(EDITIONS):
        rules = Rules(scoring="winner-collects", target_score=150, stacking="cross", jump_in=True)
        spec = MatchSpec(edition, 3, "heuristic", number, (1, 2, 3), rules, None)
        summary = play_stats_match(spec)
        assert summary is not None
        rounds = len(summary.round_winners)
        fields = [
            summary.turns,
            summary.cards_drawn,
            summary.lead_changes,
            summary.mid_trailing,
            summary.blocked,
            summary.marks,
        ]
        assert all(len(values) == rounds for values in fields) and rounds >= 1
        assert all(0 < t <= d for t, d in zip(summary.turns, summary.decisions_per_round, strict=True))
        assert all(len(seats) == 3 for seats in summary.marks)
        played = sum(count for kind, count in summary.plays.items() if kind in MARK_OF_KIND)
        assert played == 0 or any(bits & ((1 << len(MARK_OF_KIND)) - 1) for seats in summary.marks for bits in seats)


def test_a_jump_in_offered_while_someone_may_be_caught_is_not_counted_twice() -> None:
    """A random bot asked to call or catch may answer with a jump-in, which waits for its turn and is
    asked again: it is one decision (the match's decisions are those the runner applied)."""
    rules = Rules(jump_in=True, scoring="single-round")
    spec = MatchSpec("classic", 4, "random", 23, (0, 1, 2, 3), rules, None)
    summary = play_stats_match(spec)
    bots = [make_bot("random", seed=s, edition="classic") for s in range(4)]
    result = play_capped("classic", bots, 23, rules, None, 100_000)
    assert summary is not None and result is not None
    assert sum(summary.decisions_per_round) == sum(result.decisions)


# ---------------------------------------------------------------- the compiled engine, held equal


@cache
def _fast() -> Any:
    pytest.importorskip("numba", reason="the compiled engine needs the fast extra (numba)")
    from unokit.fast import stats

    return stats


def replayed(
    players: int, rules: Rules, edition: str, seed: int, index: int, seats: list[int] | None, cards: Any
) -> tuple[list[RoundRecord], Game]:
    """Compiled match ``index`` of ``seed`` recorded, replayed through :class:`Game` decision by
    decision into a tracker: its records and the replayed game."""
    import numpy as np

    from unokit.fast import differential, engine, heuristic
    from unokit.fast.engine import FastGame

    template = heuristic.bots_template(players, rules, edition, cards)
    template[engine.TRACE_ON] = 1
    state = np.empty_like(template)
    moves, events, trace = differential._record_buffers()
    decisions, _, traced = heuristic.record_bots_game(
        state,
        template,
        heuristic.new_memory(template),
        heuristic.new_generators(),
        heuristic._kinds(players, seats),
        seed,
        index,
        moves,
        events,
        trace,
    )
    assert decisions >= 0
    fast = FastGame.of_state(state, rules)
    game, _ = differential.replay_game(fast, players, rules, cards, engine.read_trace(trace[:traced], fast.faces))

    def enforced(rid: int) -> bool:
        return WildJackpot.card(game, rid).enforced

    jackpot = isinstance(game.edition, WildJackpot)
    tracker = RoundTracker(players, getattr(game, "draw_values", {}), enforced if jackpot else None)
    for seat, action, _ in moves[:decisions].tolist():
        apply_tracked(game, tracker, seat, action)
    assert game.is_over
    return tracker.records(game.events), game


def compare_match(stats: Any, out: dict[str, Any], game_index: int, setting: tuple[Any, ...], first: int = 0) -> int:
    """Check compiled match ``game_index`` of ``out`` (played from match ``first``) against its replay
    through :class:`Game` (``setting``: players, rules, edition, seed, heuristic seats, rule cards);
    its rounds."""
    from unokit.analysis.stats import fast_match_summary

    players, rules, edition, seed, seats, cards = setting
    records, game = replayed(players, rules, edition, seed, first + game_index, seats, cards)
    rounds = int(out["rounds"][game_index])
    assert len(records) == rounds == game.round
    rows = dict(zip(stats.PER_ROUND_ROWS, out["per_round"][game_index, :, :rounds].tolist(), strict=True))
    expected = {
        "decisions": [r.decisions for r in records],
        "dealer": [e[1] for e in game.events if e[0] == "dealer"],
        "first_player": [r.first_player for r in records],
        "winner": [e[1] for e in game.events if e[0] == "round_end"],
        "turns": [r.turns for r in records],
        "cards_drawn": [r.cards_drawn for r in records],
        "lead_changes": [r.lead_changes for r in records],
        "mid_trailing": [r.mid_trailing for r in records],
        "blocked": [r.blocked for r in records],
    }
    for name, values in expected.items():
        assert rows[name] == values, f"match {first + game_index} of seed {seed}: {name}"
    marks = [r.marks for r in records]
    assert out["marks"][game_index, :rounds].tolist() == marks, f"match {first + game_index} of seed {seed}: marks"
    summary = fast_match_summary(out, game_index)
    assert summary is not None
    assert (summary.decisions_per_round, summary.turns, summary.cards_drawn, summary.mid_trailing) == (
        expected["decisions"],
        expected["turns"],
        expected["cards_drawn"],
        expected["mid_trailing"],
    )
    assert (summary.lead_changes, summary.blocked, summary.marks) == (
        expected["lead_changes"],
        expected["blocked"],
        marks,
    )
    return rounds


SMALL_DECK = {
    "B9": 2,
    "G9": 2,
    "B1": 2,
    "G2": 2,
    "Y1": 2,
    "B2": 2,
    "R5": 2,
    "R7": 1,
    "G3": 1,
    "Y4": 1,
    "W": 1,
    "R+2": 2,
}
"""A deck spent at once: random players block rounds."""


def _cases() -> list[Any]:
    from unokit.fast.differential import OPTION_MIXES

    cases = []
    for number, (edition, options) in enumerate(OPTION_MIXES):
        for players in (2, 4):
            if players == 2 and options.get("teams"):
                continue  # teams need four players
            cases.append(pytest.param(edition, options, players, number, id=f"{edition}-{number}-{players}p"))
    for players in (2, 3, 4):
        options = {"deck": SMALL_DECK, "hand_size": 2}
        cases.append(pytest.param("classic", options, players, 100 + players, id=f"classic-blocked-{players}p"))
    return cases


try:
    CASES = _cases()
except ImportError:  # the fast extra is missing: the compiled cases are not collected (reported below)
    CASES = [pytest.param("classic", {}, 2, 0, id="fast-extra-missing")]


@pytest.mark.parametrize(("edition", "options", "players", "number"), CASES)
def test_the_compiled_rounds_equal_the_trackers(
    edition: str, options: dict[str, Any], players: int, number: int
) -> None:
    stats = _fast()
    from unokit.fast.differential import WRITTEN_RULE_CARDS

    rules = Rules.from_dict(options)
    cards = WRITTEN_RULE_CARDS if edition == "wild-jackpot" and number % 2 else None
    checked = 0
    for seats in (None, [0], []):  # heuristic bots, a heuristic bot among random ones, random bots
        seed = 1000 * number + 10 * players + len(seats if seats is not None else "hhh")
        out = stats.play_stats_games(
            3, players, rules, seed=seed, heuristic_seats=seats, edition=edition, rule_cards=cards, limit=12_000
        )
        for index in range(3):
            if out["finished"][index]:
                compare_match(stats, out, index, (players, rules, edition, seed, seats, cards))
                checked += 1
    assert checked >= 3, "too few of the compiled matches finished to compare"


def test_blocked_rounds_are_compared() -> None:
    """The small deck's random players block rounds in both engines alike."""
    stats = _fast()
    rules = Rules.from_dict({"deck": SMALL_DECK, "hand_size": 2})
    out = stats.play_stats_games(6, 3, rules, seed=4, heuristic_seats=[])
    blocked = 0
    for index in range(6):
        assert out["finished"][index]
        compare_match(stats, out, index, (3, rules, "classic", 4, [], None))
        blocked += int(out["per_round"][index, stats.PER_ROUND_ROWS.index("blocked")].sum())
    assert blocked > 0


def test_a_round_too_long_for_its_middle_to_be_kept() -> None:
    """Ten random players under Jump-In, stacking and Seven-O: match 238 of seed 9 has a round of
    more than ``2 * MID_ROOM`` decisions, whose ``mid_trailing`` is -1 in both engines."""
    stats = _fast()
    options = {"jump_in": True, "stacking": "cross", "scoring": "single-round", "seven_swap": True, "zero_pass": True}
    rules = Rules.from_dict(options)
    out = stats.play_stats_games(1, 10, rules, seed=9, first=238, heuristic_seats=[], limit=100_000)
    rows = stats.PER_ROUND_ROWS
    assert out["per_round"][0, rows.index("decisions"), 0] >= 2 * MID_ROOM
    assert out["per_round"][0, rows.index("mid_trailing"), 0] == -1
    compare_match(stats, out, 0, (10, rules, "classic", 9, [], None), first=238)


def test_every_mark_happens_in_compiled_matches() -> None:
    """Under rules that make them happen, every mark is met in some compiled round (so that the
    comparison above compares each)."""
    stats = _fast()
    from unokit.fast.differential import WRITTEN_RULE_CARDS

    mixes: list[tuple[str, dict[str, Any], int]] = [
        ("classic", {"stacking": "cross", "stack_deflect": "both", "seven_swap": True, "zero_pass": True}, 4),
        (
            "classic",
            {"jump_in": True, "multi_play": "number", "multi_play_bomb": True, "mercy": True, "mercy_limit": 10},
            4,
        ),
        ("space-jam", {"preset": "party"}, 4),
        ("all-wild", {"stacking": "cross", "jump_in": True}, 4),
        ("wild-jackpot", {"scoring": "single-round"}, 4),
    ]
    seen = 0
    for edition, options, players in mixes:
        for seats in (None, [0]):
            rules = Rules.from_dict(options)
            cards = WRITTEN_RULE_CARDS if edition == "wild-jackpot" else None
            out = stats.play_stats_games(
                40, players, rules, seed=5, heuristic_seats=seats, edition=edition, rule_cards=cards
            )
            for bits in out["marks"].reshape(-1).tolist():
                seen |= bits
    assert marks_of(seen) == list(Mark), [m.key for m in Mark if not seen >> m & 1]


def test_the_old_name_still_imports_with_a_warning() -> None:
    stats = _fast()
    from unokit.fast import heuristic

    with pytest.warns(DeprecationWarning, match="unokit.fast.stats"):
        assert heuristic.play_stats_games is stats.play_stats_games
