"""The designer's measures: each against a small match computed by hand, and the sums that carry them."""

from __future__ import annotations

import math

import pytest

from unokit.analysis.measures import Setup, Tally, match_values, measures_for, play_matches
from unokit.analysis.rounds import Mark
from unokit.analysis.stats import MatchSummary
from unokit.engine.rules import Rules


def summary(**fields: object) -> MatchSummary:
    """A three-round match of three seats (winner-collects), every per-round field filled."""
    base: dict[str, object] = {
        "decisions_per_round": [10, 20, 30],
        "dealers": [0, 1, 2],
        "first_players": [1, 2, 0],
        "round_winners": [1, 1, 0],
        "round_points": [30, 20, 60],
        "scores": [60, 50, 0],
        "winner": 0,
        "plays": {},
        "levers": [0] * 6,
        "rules_enforced": 0,
        "rules_honour": 0,
        "turns": [8, 15, 25],
        "cards_drawn": [3, 4, 5],
        "lead_changes": [1, 0, 2],
        "mid_trailing": [0, -1, 0],
        "blocked": [0, 0, 1],
        "marks": [[0, 0, 0]] * 3,
    }
    base.update(fields)
    return MatchSummary(**base)  # type: ignore[arg-type]


THREE = Setup("classic", players=3, bots=("random",) * 3)


def test_each_measure_of_a_hand_computed_match() -> None:
    values = match_values(THREE, summary())
    assert set(values) == {m.key for m in measures_for(THREE)}
    expected = {
        "capped": (0, 1),
        "rounds_per_match": (3, 1),
        "decisions_per_match": (60, 1),
        "turns_per_match": (48, 1),
        "decisions_per_round": (60, 3),
        "turns_per_round": (48, 3),
        "cards_drawn_per_round": (12, 3),
        "blocked_share": (1, 3),
        "first_player_win_rate": (2, 3),  # rounds 1 and 3: the first player won
        "win_rate_dealer_plus_1": (2, 3),  # round 1: dealer 0, winner 1; round 3: dealer 2, winner 0
        "win_rate_dealer_plus_2": (0, 3),
        "win_rate_dealer": (1, 3),  # round 2: the dealer won
        "lead_changes_per_round": (3, 3),
        "comeback_round": (1, 2),  # round 2 had no trailing seat alone; round 3's trailing seat won
        # scores after each round: [0, 30, 0], [0, 50, 0], [60, 50, 0]: leaders 1, 1, 0
        "lead_changes_per_match": (1, 1),
        # after round ⌈3/2⌉ = 2 seats 0 and 2 share the lowest score: no trailing player alone
        "comeback_match": (0, 0),
        "points_per_round": (110, 3),
    }
    for key, value in expected.items():
        assert values[key] == value, key


def test_attribution_is_the_win_rate_of_the_seats_with_a_mark() -> None:
    skip, skipped = 1 << Mark.PLAYED_SKIP, 1 << Mark.SKIPPED
    marks = [[skipped, skip, 0], [skip, skip | skipped, 0], [0, 0, skip]]  # winners 1, 1, 0
    values = match_values(THREE, summary(marks=marks))
    assert values["mark_played_skip"] == (2, 4)  # round 1 seat 1 won; round 2 seat 0 lost, seat 1 won; round 3 lost
    assert values["mark_skipped"] == (1, 2)  # round 1 seat 0 lost, round 2 seat 1 won
    assert values["mark_played_wild"] == (0, 0)
    keys = {m.key for m in measures_for(THREE)}
    assert "mark_played_jackpot" not in keys and "mark_lever_draw_four" not in keys  # not in Classic's deck
    assert "mark_played_wild_draw_four" in keys and "mark_caught" in keys and "mark_skipped" in keys
    assert "mark_jumped_in" not in keys  # only where the house rule jump_in is on
    jump_in = Setup("classic", players=3, bots=("random",) * 3, rules=Rules(jump_in=True))
    assert {"mark_jumped_in", "mark_lost_to_jump"} <= {m.key for m in measures_for(jump_in)}
    jackpot = {m.key for m in measures_for(Setup("wild-jackpot", 3, ("random",) * 3))}
    assert {"mark_played_jackpot", "mark_lever_draw_four", "mark_rule_honour"} <= jackpot
    labels = {m.key: m.label for m in measures_for(THREE)}
    assert labels["mark_played_skip"] == "round win rate, played Skip"


def test_a_match_trailing_player_who_wins_is_a_comeback() -> None:
    two = Setup("classic", players=2, bots=("random",) * 2)
    match = summary(
        decisions_per_round=[5, 5, 5],
        dealers=[0, 1, 0],
        first_players=[1, 0, 1],
        round_winners=[1, 0, 0],
        round_points=[30, 20, 40],
        scores=[60, 30],
        winner=0,
        mid_trailing=[1, 0, 1],
        marks=[[0, 0]] * 3,
    )
    values = match_values(two, match)
    # scores [0, 30], [20, 30], [60, 30]: leaders 1, 1, 0; seat 0 trails after round 2 and wins
    assert values["lead_changes_per_match"] == (1, 1)
    assert values["comeback_match"] == (1, 1)
    assert values["comeback_round"] == (2, 3)  # rounds 1 and 2 won by the seat that trailed, round 3 not


def test_teams_count_a_side_win_for_both_partners() -> None:
    four = Setup("classic", players=4, bots=("random",) * 4, rules=Rules(teams=True))
    match = summary(
        decisions_per_round=[12],
        dealers=[0],
        first_players=[1],
        round_winners=[3],
        round_points=[40],
        scores=[0, 40, 0, 40],
        winner=3,
        turns=[10],
        cards_drawn=[2],
        lead_changes=[1],
        mid_trailing=[1],  # seat 1 trailed: its partner 3 won, so its side came back
        blocked=[0],
        marks=[[0, 0, 0, 0]],
    )
    values = match_values(four, match)
    assert values["mark_played_skip"] == (0, 0)
    # seat 1 played a Skip and its partner won the round: its side won
    marked = match_values(four, summary(**{**match.__dict__, "marks": [[0, 1 << Mark.PLAYED_SKIP, 0, 0]]}))
    assert marked["mark_played_skip"] == (1, 1)
    assert values["comeback_round"] == (1, 1)
    assert values["first_player_win_rate"] == (1, 1)  # seat 1 is seat 3's partner
    assert values["win_rate_dealer_plus_1"] == values["win_rate_dealer_plus_3"] == (1, 1)
    assert values["win_rate_dealer"] == values["win_rate_dealer_plus_2"] == (0, 1)


def test_a_capped_match_counts_only_as_capped_and_missing_fields_count_nowhere() -> None:
    stopped = match_values(THREE, None)
    assert stopped["capped"] == (1, 1)
    assert all(value == (0, 0) for key, value in stopped.items() if key != "capped")
    bare = match_values(THREE, summary(turns=[], cards_drawn=[], lead_changes=[], mid_trailing=[], blocked=[]))
    for key in ("turns_per_round", "turns_per_match", "cards_drawn_per_round", "blocked_share", "comeback_round"):
        assert bare[key] == (0, 0), key
    assert bare["decisions_per_round"] == (60, 3)


def test_running_tally_has_no_score_lead() -> None:
    tally_setup = Setup("all-wild", players=3, bots=("random",) * 3, rules=Rules(scoring="running-tally"))
    keys = {m.key for m in measures_for(tally_setup)}
    assert "lead_changes_per_match" not in keys and "comeback_match" not in keys
    assert "lead_changes_per_round" in keys


def test_the_tally_interval_is_the_delta_method_over_matches() -> None:
    pairs = [(1, 2), (3, 2), (0, 2), (5, 4)]
    tally = Tally()
    for pair in pairs:
        tally.add({"m": pair})
    tally.add({"m": (0, 0)})  # counts nowhere
    ratio = sum(y for y, _ in pairs) / sum(x for _, x in pairs)
    n = len(pairs)
    spread = sum((y - ratio * x) ** 2 for y, x in pairs) / (n - 1)
    half = 1.959963984540054 * math.sqrt(n * spread) / sum(x for _, x in pairs)
    assert tally.matches("m") == 4 and tally.estimate("m") == pytest.approx(9 / 10)
    low, high = tally.interval("m") or (0.0, 0.0)
    assert (low, high) == pytest.approx((ratio - half, ratio + half))
    one = Tally()
    one.add({"m": (1, 2)})
    assert one.interval("m") is None and Tally().estimate("m") is None


def test_tallies_of_parts_add_up_to_the_tally_of_the_whole() -> None:
    setup = Setup("classic", players=3, bots=("heuristic",) * 3, rules=Rules(target_score=100))
    matches = play_matches(setup, seed=5, start=0, count=6)
    whole, first, second = Tally(), Tally(), Tally()
    for index, match in enumerate(matches):
        values = match_values(setup, match)
        whole.add(values)
        (first if index < 2 else second).add(values)
    second.merge(first)
    assert second.sums == whole.sums
    again = play_matches(setup, seed=5, start=2, count=4)  # the same match numbers, the same matches
    assert [match_values(setup, m) for m in again] == [match_values(setup, m) for m in matches[2:]]
