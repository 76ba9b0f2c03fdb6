"""UNO All Wild's default scoring (docs/rules.md, "Scoring and the match"): the sheet's "Winning" (the
first player out wins) by default, its optional points to 500 with ``scoring="winner-collects"``, and
records written before the default changed."""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path

import pytest

from rules_support import stacked_game
from unokit import Game, Rules
from unokit.analysis.simulate import simulate
from unokit.analysis.stats import collect
from unokit.analysis.tournament import run_tournament
from unokit.editions import EDITIONS, get_edition
from unokit.engine.errors import RecordError, UnknownOptionError
from unokit.engine.record import FORMAT, load, replay, to_record
from unokit.narrate import Narrator, plain

V1_RECORD = Path(__file__).parent / "data" / "all_wild_v1_record.json"
"""A three-player All Wild match recorded in format ``unokit-record/1`` with the default rules of
then (winner-collects to 500): two rounds, final scores 0, 1160, 460, seat 1 the winner."""


def test_all_wild_default_single_round() -> None:
    assert Rules().scoring == "edition"
    assert get_edition("all-wild").main_scoring == "single-round"
    game = stacked_game("all-wild", [["WS", "W"], ["WR", "WS"], ["WX", "W"]], "W")
    assert game.scoring == "single-round"
    game.apply_notation(0, "WS!")
    game.apply_notation(2, "WX")
    game.apply_notation(2, "@1")
    game.apply_notation(0, "W")
    assert game.is_over and game.winner == 0 and game.round == 1
    assert game.events[-2:] == [("round_end", 0, 0, (0, 0, 0)), ("match_end", 0, 1, (0, 0, 0))]
    assert game.view(1).scoring == "single-round"
    assert game.view(None).to_dict()["scoring"] == "single-round"


@pytest.mark.parametrize("edition", ["classic", "space-jam", "wild-jackpot"])
def test_other_editions_default_winner_collects(edition: str) -> None:
    assert get_edition(edition).main_scoring == "winner-collects"
    game = Game(edition, 3, seed=4)
    assert game.scoring == "winner-collects" and game.rules.scoring == "edition"
    assert game.view(0).scoring == "winner-collects"


def test_all_wild_winner_collects_to_500() -> None:
    game = stacked_game("all-wild", [["WS", "W"], ["W+4", "WR"]], "W", scoring="winner-collects")
    assert game.scoring == "winner-collects"
    game.apply_notation(0, "WS!")
    game.apply_notation(0, "W")
    assert ("round_end", 0, 100, (100, 0)) in game.events
    assert not game.is_over and game.round == 2 and game.winner == -1 and game.scores == [100, 0]
    assert game.view(1).scoring == "winner-collects"


def test_all_wild_running_tally_still_chosen() -> None:
    game = stacked_game("all-wild", [["WS", "W"], ["W+4", "WR"]], "W", scoring="running-tally", target_score=50)
    game.apply_notation(0, "WS!")
    game.apply_notation(0, "W")
    assert ("round_end", 0, 0, (0, 100)) in game.events
    assert game.is_over and game.winner == 0 and game.scores == [0, 100]


def test_unknown_scoring_refused() -> None:
    with pytest.raises(UnknownOptionError, match="edition, winner-collects, running-tally, single-round"):
        Rules.from_dict({"scoring": "golf"})
    with pytest.raises(UnknownOptionError, match="scoring"):
        Game("all-wild", 3, rules={"scoring": "Edition"})


def test_record_v1_all_wild_replays_winner_collects() -> None:
    record = load(V1_RECORD)
    assert record["format"] == "unokit-record/1" and record["rules"] == {}
    game = replay(record)
    assert game.scoring == "winner-collects" and game.rules.scoring == "winner-collects"
    assert game.is_over and game.round == 2 and game.winner == 1 and game.scores == [0, 1160, 460]
    assert [e for e in game.events if e[0] == "round_end"] == [
        ("round_end", 2, 460, (0, 0, 460)),
        ("round_end", 1, 1160, (0, 1160, 460)),
    ]
    # Written again, the record is a current one that names the scoring and replays the same match.
    again = to_record(game, names=record["names"])
    assert again["format"] == FORMAT == "unokit-record/2"
    assert again["rules"] == {"scoring": "winner-collects"}
    assert again["actions"] == record["actions"]
    assert replay(again) == game


def test_record_v1_actions_under_v2_are_refused() -> None:
    # The same actions read as a current record play the sheet's single round: the match is over
    # after the first round, and the second round's first action does not replay.
    record = copy.deepcopy(load(V1_RECORD))
    record["format"] = FORMAT
    with pytest.raises(RecordError, match="does not replay: the match is over"):
        replay(record)


def test_record_v1_keeps_a_named_scoring() -> None:
    game = Game("all-wild", 3, seed=3, rules={"scoring": "running-tally"})
    record = {**to_record(game), "format": "unokit-record/1"}
    assert replay(record).scoring == "running-tally"


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_record_v2_default_scoring_not_written(edition: str) -> None:
    game = Game(edition, 3, seed=3)
    record = to_record(game)
    assert "scoring" not in record["rules"]
    assert replay(record).scoring == get_edition(edition).main_scoring


def test_narrator_counts_no_points_in_a_default_all_wild_match() -> None:
    game = stacked_game("all-wild", [["WS", "W"], ["W+4", "WR"]], "W")
    game.apply_notation(0, "WS!")
    game.apply_notation(0, "W")
    narrator = Narrator(["Ann", "Bob"], scoring=game.scoring, edition="all-wild")
    text = " ".join(plain(narrator.event(e)) for e in game.events if e[0] in ("round_end", "match_end"))
    assert "Ann wins" in text and "Scores" not in text


def test_simulate_tournament_and_stats_use_the_resolved_method() -> None:
    result = simulate("all-wild", 3, 4, seed=2)
    assert result["rounds"] == 4  # one round a match
    tour = run_tournament("all-wild", ["random", "random"], 2, seed=1, workers=1)
    assert tour["scoring"] == "single-round" and "match_wins" not in tour["results"]["random"]
    tour = run_tournament("all-wild", ["random", "random"], 2, seed=1, workers=1, rules={"scoring": "winner-collects"})
    assert tour["scoring"] == "winner-collects" and "match_wins" in tour["results"]["random"]
    stats = collect("all-wild", 2, 2, 1, "random", workers=1)
    assert not stats.scored and stats.rounds_per_match == Counter({1: 2}) and not stats.winner_scores
