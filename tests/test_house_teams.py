"""House rule ``teams`` (docs/rules.md, "Team play"): two teams, team = seat mod 2; a team wins the
round when either partner goes out; team scores; partners do not catch each other; bots, statistics
and tournaments credit both partners."""

from __future__ import annotations

import random

import pytest

from rules_support import legal, stacked_game
from unokit import Game, Rules
from unokit.analysis.simulate import simulate
from unokit.analysis.stats import EditionStats, MatchSummary
from unokit.analysis.tournament import GameSummary, summarise
from unokit.bots.base import make_bot
from unokit.bots.heuristic import HeuristicBot
from unokit.bots.ismcts import IsmctsBot, _Node
from unokit.bots.runner import play_game
from unokit.determinize import known_cards, lacked_colours
from unokit.editions.house import HouseGame
from unokit.engine.errors import IllegalActionError, SetupError, UnknownOptionError
from unokit.engine.events import event_to_dict
from unokit.engine.record import replay, to_record
from unokit.narrate import Narrator, plain

FOUR = [["R3"], ["B9"], ["G8"], ["Y7"]]
"""One card each on a red 5: seat 0 plays first and goes out with R3; the other hands hold 9, 8
and 7 points."""


def team_game(hands: list[list[str]] = FOUR, start: str = "R5", **options: object) -> Game:
    return stacked_game("classic", hands, start, teams=True, **options)


# ---------------------------------------------------------------- set-up


@pytest.mark.parametrize("players", [2, 3, 5, 7, 9])
def test_teams_need_even_players(players: int) -> None:
    with pytest.raises(SetupError, match=f"teams need an even number of players, at least 4.*not {players}"):
        Game("classic", players, seed=1, rules={"teams": True})


@pytest.mark.parametrize("players", [4, 6, 8, 10])
def test_teams_alternate_seats(players: int) -> None:
    game = Game("all-wild", players, seed=1, rules={"teams": True})
    assert isinstance(game, HouseGame) and Rules(teams=True).house_on
    assert game.teams == tuple(seat % 2 for seat in range(players))


def test_three_v_three_alternate() -> None:
    game = Game("classic", 6, seed=2, rules={"teams": True})
    assert game.team_seats(1) == (1, 3, 5) and game.team_seats(4) == (0, 2, 4)
    assert game.view(3).teams == (0, 1, 0, 1, 0, 1)


def test_teams_option_validated_and_off_by_default() -> None:
    with pytest.raises(UnknownOptionError, match="teams"):
        Rules.from_dict({"teams": "yes"})
    game = Game("classic", 4, seed=1)
    assert type(game) is Game and game.teams == () and game.team_seats(2) == (2,)
    view = game.view(0)
    assert view.teams == () and view.winning_team == -1


# ---------------------------------------------------------------- scoring


def test_team_scores_opponents_cards_only() -> None:
    game = team_game(target_score=1000)
    game.apply_notation(0, "R3")
    # seat 2's 8 points stay with the winning team; the other team's 9 + 7 are won by both partners
    assert ("round_end", 0, 16, (16, 0, 16, 0)) in game.events
    assert ("team_win", 0, 0, (0, 2)) in game.events
    assert game.scores == [16, 0, 16, 0] and not game.is_over and game.round == 2


def test_team_wins_when_partner_goes_out() -> None:
    game = team_game([["B9"], ["Y7"], ["R3"], ["G8"]], dealer=1, target_score=1000)
    assert game.actor == 2
    game.apply_notation(2, "R3")
    # seat 2 went out: its team (seats 0 and 2) wins the other team's 7 + 8, its partner's 9 uncounted
    assert ("round_end", 2, 15, (15, 0, 15, 0)) in game.events
    assert ("team_win", 2, 0, (0, 2)) in game.events


def test_team_running_tally() -> None:
    game = team_game(scoring="running-tally", target_score=1000)
    game.apply_notation(0, "R3")
    # each seat adds its team's hands: team 0 holds 0 + 8, team 1 holds 9 + 7
    assert ("round_end", 0, 0, (8, 16, 8, 16)) in game.events
    assert game.scores == [8, 16, 8, 16]


def test_team_match_to_target() -> None:
    game = team_game(target_score=10)
    game.apply_notation(0, "R3")
    assert game.is_over and game.winner == 0 and game.winning_team == 0
    assert game.events[-1] == ("match_end", 0, 1, (16, 0, 16, 0))
    for seat in (None, 0, 1, 2, 3):
        view = game.view(seat)
        assert view.winner == 0 and view.winning_team == 0 and view.teams == (0, 1, 0, 1)
        assert view.to_dict()["winning_team"] == 0


def test_team_running_tally_lowest_team_wins_the_match() -> None:
    # seat 0 goes out, but its partner holds 50 points: team 1 (9 + 7) has the lowest total
    game = team_game([["R3"], ["B9"], ["W+4"], ["Y7"]], scoring="running-tally", target_score=40)
    game.apply_notation(0, "R3")
    assert game.scores == [50, 16, 50, 16]
    assert game.is_over and game.winning_team == 1 and game.winner == 1


def test_team_running_tally_tie_between_teams_plays_on() -> None:
    game = team_game([["R3"], ["B8"], ["G8"], ["Y0"]], scoring="running-tally", target_score=5)
    game.apply_notation(0, "R3")
    assert game.scores == [8, 8, 8, 8] and not game.is_over


def test_team_single_round() -> None:
    game = team_game([["B9"], ["Y7"], ["R3"], ["G8"]], dealer=1, scoring="single-round")
    game.apply_notation(2, "R3")
    assert game.is_over and game.winner == 2 and game.winning_team == 0
    assert game.scores == [0, 0, 0, 0]


def test_forced_swap_empty_hand_wins_for_its_team() -> None:
    hands = [["WX"], ["W"], ["WR"], ["WS"]]
    game = stacked_game("all-wild", hands, "W", teams=True, forced_swap_final_card="swaps")
    game.apply_notation(0, "WX")
    game.apply_notation(0, "@1")
    assert game.is_over and game.winner == 1 and game.winning_team == 1  # All Wild: a single round
    assert ("team_win", 1, 1, (1, 3)) in game.events


# ---------------------------------------------------------------- catches


def test_partners_cannot_catch_each_other() -> None:
    hands = [["R3", "R4"], ["B9", "B8"], ["G8", "G7"], ["Y7", "Y6"]]
    game = team_game(hands)
    game.apply_notation(0, "R3")  # no UNO call
    assert game.exposed == [0]
    assert game.deciders() == (0, 1, 3)
    assert legal(game, 2) == []
    assert "catch@0" in legal(game, 1) and legal(game, 3) == ["catch@0"]
    with pytest.raises(IllegalActionError, match="partner"):
        game.apply_notation(2, "catch@0")
    assert game.exposed == [0] and len(game.hands[0]) == 1  # nothing changed
    game.apply_notation(3, "catch@0")
    assert len(game.hands[0]) == 3


def test_a_plain_game_lets_anyone_catch() -> None:
    hands = [["R3", "R4"], ["B9", "B8"], ["G8", "G7"], ["Y7", "Y6"]]
    game = stacked_game("classic", hands, "R5")
    game.apply_notation(0, "R3")
    assert game.deciders() == (0, 1, 2, 3) and legal(game, 2) == ["catch@0"]


# ---------------------------------------------------------------- events, words, records


def test_team_events_words_and_record() -> None:
    game = team_game(target_score=10)
    game.apply_notation(0, "R3")
    event = next(e for e in game.events if e[0] == "team_win")
    assert event_to_dict(event) == {"kind": "team_win", "seat": 0, "value": 0, "seats": [0, 2]}
    names = ["Ann", "Bob", "Cy", "Dee"]
    assert plain(Narrator(names).event(event)) == "Team 1 (Ann and Cy) wins the round."
    assert plain(Narrator(names, you=2).event(event)) == "Your team (Ann and you) wins the round."
    again = replay(to_record(game))
    assert again == game and again.winning_team == 0


def test_no_team_events_without_teams() -> None:
    game = stacked_game("classic", FOUR, "R5", target_score=1000)
    game.apply_notation(0, "R3")
    assert ("round_end", 0, 24, (24, 0, 0, 0)) in game.events
    assert not any(e[0] == "team_win" for e in game.events)


# ---------------------------------------------------------------- bots


def _shrink(game: Game, seat: int, keep: int) -> None:
    """Leave ``seat`` with its first ``keep`` cards (the rest go under the draw pile)."""
    game.draw_pile[:0] = game.hands[seat][keep:]
    del game.hands[seat][keep:]


@pytest.mark.parametrize("teams", [True, False])
def test_heuristic_never_targets_its_partner(teams: bool) -> None:
    hands = [["WT2", "W", "W", "W"], ["W"] * 4, ["WR"] * 4, ["WS"] * 4]
    game = stacked_game("all-wild", hands, "W", teams=teams)
    _shrink(game, 2, 1)  # seat 2 (seat 0's partner with teams) is closest to going out
    game.apply_notation(0, "WT2")
    assert game.phase_name == "target"
    choice = game.format_action(HeuristicBot(seed=1, edition="all-wild").choose(game.view(0)))
    assert choice == ("@1" if teams else "@2")


@pytest.mark.parametrize("teams", [True, False])
def test_heuristic_seven_swap_never_with_its_partner(teams: bool) -> None:
    hands = [["R7", "B1", "B2", "B3"], ["G1", "G2", "G3", "G4"], ["Y1", "Y2", "Y3", "Y4"], ["G5", "G6", "G7", "G9"]]
    game = stacked_game("classic", hands, "R5", teams=teams, seven_swap=True)
    _shrink(game, 2, 1)
    game.apply_notation(0, "R7")
    assert game.phase_name == "target"
    choice = game.format_action(HeuristicBot(seed=1).choose(game.view(0)))
    assert choice == ("@1" if teams else "@2")


@pytest.mark.parametrize("teams", [True, False])
def test_heuristic_does_not_skip_its_partner_close_to_going_out(teams: bool) -> None:
    hands = [["WS2", "W", "W", "W", "W"], ["WR"] * 5, ["W+2"] * 5, ["WS"] * 5]
    game = stacked_game("all-wild", hands, "W", teams=teams)
    _shrink(game, 2, 1)
    choice = game.format_action(HeuristicBot(seed=1, edition="all-wild").choose(game.view(0)))
    assert choice == ("W" if teams else "WS2")


def test_heuristic_team_match_has_no_partner_catch() -> None:
    for seed in range(3):
        bots = [make_bot("heuristic", seed=seed + s, edition="classic") for s in range(4)]
        result = play_game("classic", bots, seed=seed, rules={"teams": True, "scoring": "single-round"})
        assert result.winner in range(4)
        catches = [(e[1], e[2]) for e in result.events if e[0] == "catch"]
        assert all(catcher % 2 != caught % 2 for catcher, caught in catches), catches


@pytest.mark.parametrize("teams", [True, False])
def test_ismcts_counts_a_partners_win(teams: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game("classic", 4, seed=3, rules={"teams": teams, "scoring": "single-round"})
    seat = game.actor
    view = game.view(seat)
    bot = IsmctsBot(seed=1, edition="classic", iterations=1, margin=None, playouts="python")
    partner = (seat + 2) % 4
    monkeypatch.setattr(bot, "_playout", lambda game, start_round: partner)  # the playout's winner is given
    root = _Node()
    bot._iterate(view, (known_cards(view), lacked_colours(view.history, view.players)), root)
    wins = sum(child.wins for (who, _), child in root.children.items() if who == seat)
    assert wins == (1.0 if teams else 0.0)


# ---------------------------------------------------------------- statistics, tournaments, simulation


def test_simulate_credits_both_partners() -> None:
    result = simulate("classic", 4, 6, seed=1, rules={"teams": True, "scoring": "single-round"})
    wins = result["wins_by_seat"]
    assert sum(wins) == 12 and wins[0] == wins[2] and wins[1] == wins[3]


@pytest.mark.parametrize(("teams", "wins"), [(True, 2), (False, 1)])
def test_tournament_credits_both_partners(teams: bool, wins: int) -> None:
    summary = GameSummary(0, ("a", "b", "a", "b"), 1, [2], [0, 0, 0, 0], 2, [1, 1, 1, 1], [0.0] * 4)
    result = summarise("classic", ["a", "b", "a", "b"], 1, Rules(teams=teams), 1, [summary], 0.0)
    assert result["results"]["a"]["round_wins"] == wins and result["results"]["a"]["match_wins"] == wins
    assert result["results"]["b"]["round_wins"] == 0
    assert result["expected_win_rate"] == (0.5 if teams else 0.25)


@pytest.mark.parametrize(("teams", "by_position"), [(True, [0, 1, 0, 1]), (False, [0, 0, 0, 1])])
def test_stats_credit_both_partners(teams: bool, by_position: list[int]) -> None:
    stats = EditionStats("classic", "Classic UNO", 4, 1, "random", 1, Rules(teams=teams), wins_by_position=[0] * 4)
    stats.levers = [0] * 6
    match = MatchSummary([10], [0], [1], [3], [20], [0, 0, 0, 0], 3, {}, [0] * 6, 0, 0)
    stats.add(match)
    assert stats.wins_by_position == by_position
    assert stats.first_player_wins == (1 if teams else 0)
    assert stats.equal_chance == (0.5 if teams else 0.25)


def test_bots_play_three_v_three_to_the_end() -> None:
    rng = random.Random(4)
    for edition in ("all-wild", "wild-jackpot"):
        bots = [make_bot("heuristic", seed=rng.randrange(100), edition=edition) for _ in range(6)]
        result = play_game(edition, bots, seed=5, rules={"teams": True, "target_score": 200})
        assert result.winner in range(6)
