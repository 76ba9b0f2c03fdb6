"""Round results (:mod:`unokit.engine.results`): each finished round as one object, equal to the
scoring table applied to the hands at the round's end, in views and records alike."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules_support import stacked_game
from unokit import Game, Rules
from unokit.analysis.rounds import tracked_game
from unokit.analysis.stats import summarise_game
from unokit.bots import make_bot
from unokit.bots.runner import play_match
from unokit.engine.errors import RecordError
from unokit.engine.record import dumps, replay, to_record
from unokit.engine.results import ENDINGS, RoundResult, round_result, round_results
from unokit.engine.rules import PRESETS
from unokit.narrate import Narrator, plain

EDITIONS = ("classic", "space-jam", "all-wild", "wild-jackpot")
SETTINGS: list[dict[str, Any]] = [
    *({"preset": name} for name in PRESETS),
    {"scoring": "running-tally"},
    {"scoring": "knockout"},
    {"teams": True, "scoring": "running-tally"},
    {"teams": True, "scoring": "knockout"},
    {"mercy": True, "mercy_limit": 12, "scoring": "winner-collects"},
]
"""Every preset, and the scoring methods and house rules that change how a round is scored or ends."""


def random_match(edition: str, options: dict[str, Any], seed: int, cap: int = 20_000) -> Game:
    """A match of four to a low target (or ``cap`` actions): seats 0 and 1 play at random, 2 and 3
    are heuristic bots (random play alone rarely ends a round under the party rules)."""
    rules = Rules.from_dict({"target_score": 500, **options})
    game = Game(edition, 4, seed=seed, rules=rules)
    rng = random.Random(seed)
    bots = {seat: make_bot("heuristic", seed + seat, edition) for seat in (2, 3)}
    for _ in range(cap):
        if game.is_over:
            break
        seat = rng.choice(game.deciders())
        legal = game.legal_actions(seat)
        action = rng.choice(legal)
        if seat in bots:
            view = game.view(seat)
            wanted = bots[seat].choose(view) if seat == game.actor else bots[seat].wants_interrupt(view)
            action = wanted if wanted in legal else action
        game.apply(seat, action)
    return game


def check_result(game: Game, result: RoundResult, before: tuple[int, ...]) -> None:
    """``result`` is the scoring table applied to its hands: each hand's points by the edition's card
    values, the winner's by the scoring method, the scores after = the scores before + the points."""
    n = game.n
    values = game.edition.card_points
    teams = game.teams
    assert result.ending in ENDINGS and result.winner in result.seats
    assert result.team == (teams[result.winner] if teams else -1)
    for seat in range(n):
        held = [*result.hands[seat], *result.mercy_hands[seat]]
        assert result.points[seat] == sum(values[card] for card in held)
        if seat not in result.seats:
            assert not held and result.points[seat] == 0
    side = [s for s in range(n) if (teams[s] == teams[result.winner] if teams else s == result.winner)]
    scoring = game.scoring
    gained = [0] * n
    if scoring == "winner-collects":
        expected = sum(result.points[s] for s in range(n) if s not in side)
        assert result.points_won == expected
        for seat in side:
            gained[seat] = expected
    else:
        assert result.points_won == 0
        if scoring == "running-tally":
            for seat in range(n):
                gained[seat] = sum(
                    result.points[s] for s in range(n) if (teams[s] == teams[seat] if teams else s == seat)
                )
    assert result.scores == tuple(b + g for b, g in zip(before, gained, strict=True))
    winner_cards = len(result.hands[result.winner]) + len(result.mercy_hands[result.winner])
    if result.ending == "out":
        assert winner_cards == 0
    elif result.ending == "blocked":  # the lowest hand: the fewest points, then the fewest cards
        lowest = min((result.points[s], len(result.hands[s])) for s in result.seats if not result.mercy_hands[s])
        assert (result.points[result.winner], len(result.hands[result.winner])) == lowest
    else:  # Mercy put every other player (team) out of the round
        assert game.rules.mercy
        assert all(result.mercy_hands[s] and not result.hands[s] for s in result.seats if s not in side)
    if scoring == "knockout":  # the losing side's seat(s) with the most cards (then points) leave
        assert result.knocked_out
        rivals = [s for s in result.seats if s not in side]
        most = {s: (len(result.hands[s]) + len(result.mercy_hands[s]), result.points[s]) for s in rivals}
        assert set(result.knocked_out) == {s for s in rivals if most[s] == max(most.values())}
    else:
        assert result.knocked_out == ()


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("options", SETTINGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_each_round_result_is_the_scoring_table_applied_to_the_final_hands(
    edition: str, options: dict[str, Any]
) -> None:
    for seed in (1, 2, 3):
        game = random_match(edition, options, seed)
        results = game.round_results
        assert len(results) == sum(1 for e in game.events if e[0] == "round_end") >= 1
        assert [r.round for r in results] == list(range(1, len(results) + 1))
        before = (0,) * game.n
        for result in results:
            check_result(game, result, before)
            before = result.scores
        assert [r.match_over for r in results] == [False] * (len(results) - 1) + [game.is_over]
        if game.is_over:
            assert list(results[-1].scores) == game.scores
        # one reading of the events: the log read again gives the same results, and so does every view
        assert round_results(game.events, game.edition) == results
        for seat in (None, *range(game.n)):
            view = game.view(seat)
            assert view.round_results == results == round_results(view.history, game.edition)
        assert game.view(0).to_dict(last_rounds=1)["round_results"] == [results[-1].to_dict()]
        assert game.view(0).to_dict(last_rounds=0)["round_results"] == []
        # JSON and records
        assert tuple(RoundResult.from_dict(json.loads(json.dumps(r.to_dict()))) for r in results) == results
        record = json.loads(dumps(to_record(game)))
        assert replay(record).round_results == results


def test_the_json_form_names_the_cards() -> None:
    game = stacked_game("classic", [["R3"], ["G+2"], ["W+4"]], "R5", target_score=500)
    game.apply_notation(0, "R3")
    (result,) = game.round_results
    assert result.to_dict() == {
        "round": 1,
        "winner": 0,
        "team": -1,
        "ending": "out",
        "seats": [0, 1, 2],
        "hands": [[], ["G+2"], ["W+4"]],
        "mercy_hands": [[], [], []],
        "points": [0, 20, 50],
        "points_won": 70,
        "scores": [70, 0, 0],
        "knocked_out": [],
        "match_over": False,
    }
    assert RoundResult.from_dict(result.to_dict()) == result
    assert game.view(1).to_dict()["round_results"] == [result.to_dict()]


QUIET_HANDS = [["B9", "G9"], ["B1", "G2"], ["Y1", "B2"]]


def test_a_blocked_round_names_the_lowest_hand() -> None:
    """Nobody can play or draw: the lowest hand wins (seats 1 and 2 hold 3 points each: seat 1 is first
    in play order after seat 2, the last to draw)."""
    deck = {"B9": 1, "G9": 1, "B1": 1, "G2": 1, "Y1": 1, "B2": 1, "R5": 1}
    game = stacked_game("classic", QUIET_HANDS, "R5", dealer=2, deck=deck)
    for seat in (0, 1, 2):
        game.apply_notation(seat, "draw")
    (result,) = game.round_results
    assert (result.ending, result.winner, result.points, result.points_won) == ("blocked", 1, (18, 3, 3), 21)
    assert result.scores == (0, 21, 0) and not result.match_over


def test_a_team_round_names_the_team_and_pays_both_partners() -> None:
    game = stacked_game("classic", [["B9"], ["Y7"], ["R3"], ["G8"]], "R5", dealer=1, teams=True, target_score=1000)
    game.apply_notation(2, "R3")
    (result,) = game.round_results
    assert (result.winner, result.team, result.points_won, result.scores) == (2, 0, 15, (15, 0, 15, 0))
    assert result.points == (9, 7, 0, 8)


def test_a_knockout_round_names_who_leaves_the_match() -> None:
    game = stacked_game("classic", [["R3"], ["B9"], ["G1"]], "R5", scoring="knockout")
    game.apply_notation(0, "R3")
    (result,) = game.round_results
    assert result.knocked_out == (1,) and result.points_won == 0 and not result.match_over
    second = stacked_game("classic", [["R3"], ["B1"], ["G1"]], "R5", scoring="knockout")
    second.apply_notation(0, "R3")
    assert second.round_results[0].knocked_out == (1, 2) and second.round_results[0].match_over


def test_a_mercy_round_is_won_by_the_last_one_left() -> None:
    for seed in range(1, 40):
        game = random_match("classic", {"mercy": True, "mercy_limit": 9, "scoring": "winner-collects"}, seed)
        mercy = [r for r in game.round_results if r.ending == "mercy"]
        if mercy:
            result = mercy[0]
            assert result.hands[result.winner] and any(result.mercy_hands)
            return
    pytest.fail("no round was won by Mercy in 39 random matches")


def test_a_record_whose_round_results_differ_does_not_replay() -> None:
    game = stacked_game("classic", [["R3"], ["G+2"], ["W+4"]], "R5", target_score=500)
    game.apply_notation(0, "R3")
    record = to_record(game)
    assert record["round_results"] == [game.round_results[0].to_dict()]
    record["round_results"][0]["points_won"] = 71
    with pytest.raises(RecordError, match=r"'round_results' 0 \(round 1\) is not the round replayed"):
        replay(record)
    record["round_results"] = []
    with pytest.raises(RecordError, match="holds 0 rounds; its actions finish 1"):
        replay(record)
    record["round_results"] = "none"
    with pytest.raises(RecordError, match="must be a list"):
        replay(record)
    del record["round_results"]  # records written before round results replay as they did
    assert replay(record).round_results == game.round_results
    assert replay(to_record(game), upto=0).round_results == ()


def test_round_result_reads_one_round_and_refuses_events_with_none() -> None:
    game = stacked_game("classic", [["R3"], ["B9"], ["G1"]], "R5", target_score=500)
    before = list(game.events)
    with pytest.raises(ValueError, match="no round ends"):
        round_result(before, game.edition)
    game.apply_notation(0, "R3")
    assert round_result(game.events, game.edition) == game.round_results[0]


@pytest.mark.parametrize(
    ("edition", "options"),
    [
        ("classic", {}),
        ("classic", {"mercy": True, "mercy_limit": 9}),
        ("all-wild", {"teams": True, "scoring": "knockout"}),
    ],
)
def test_the_terminal_tells_each_round_from_its_result_as_its_events_tell_it(
    edition: str, options: dict[str, Any]
) -> None:
    for seed in range(1, 6):
        game = random_match(edition, options, seed)
        names = [f"P{seat}" for seat in range(game.n)]
        by_result, by_event = (Narrator(names, you=0, scoring=game.scoring, edition=edition) for _ in range(2))
        told = [plain(line) for line in by_result.lines(game.events, game.round_results)]
        each = [plain(line) for event in game.events if (line := by_event.event(event)) is not None]
        assert told == each and any("P" in line for line in told)


def test_stats_take_the_winners_and_the_points_in_hand_from_the_results() -> None:
    """``summarise_game``'s round winners and points are those of the round's ``hand`` and
    ``round_end`` events, as before it read the results: a hand Mercy put out of the round earlier
    is not counted (the compiled engine's statistics count the same)."""
    mercy_rounds = 0
    for seed in range(1, 9):
        game, tracker = tracked_game("classic", 4, seed=seed, rules=Rules(mercy=True, mercy_limit=9))
        play_match(game, [make_bot("heuristic", s, "classic") for s in range(4)])
        points: list[int] = []
        for kind, _, value, _ in game.events:
            if kind == "dealer":
                points.append(0)
            elif kind == "hand":
                points[-1] += value
        summary = summarise_game(game, tracker)
        assert summary.round_winners == [e[1] for e in game.events if e[0] == "round_end"]
        assert summary.round_points == points[: len(game.round_results)]
        mercy_rounds += sum(1 for r in game.round_results if any(r.mercy_hands))
    assert mercy_rounds, "some hands went out by Mercy"
