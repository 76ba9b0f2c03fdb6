"""The randomized properties of :mod:`test_randomized` under house rules: random mixes of
house options in every edition (conservation, masks, refusals, clones, views, replays)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from test_randomized import EDITION_NAMES, PLAYER_COUNTS, play_and_check
from unokit.editions.house import HouseGame
from unokit.engine.rules import DEFLECT_MODES, MULTI_PLAY_MODES, PRESETS, STACKING_MODES, Rules, without_idle_options

HOUSE_OPTIONS = st.fixed_dictionaries(
    {
        "call_uno": st.booleans(),
        "stacking": st.sampled_from(STACKING_MODES),
        "stack_deflect": st.sampled_from(DEFLECT_MODES),
        "stack_revenge": st.booleans(),
        "wild_draw_four_challenge": st.booleans(),
        "seven_swap": st.booleans(),
        "zero_pass": st.booleans(),
        "force_play": st.booleans(),
        "draw_to_match": st.booleans(),
        "must_play": st.booleans(),
        "hand_limit": st.sampled_from([0, 0, 1, 8, 15]),
        "no_action_finish": st.booleans(),
        "no_wild_finish": st.booleans(),
        "jump_in": st.booleans(),
        "multi_play": st.sampled_from(MULTI_PLAY_MODES),
        "multi_play_bomb": st.booleans(),
        "mercy": st.booleans(),
        "mercy_limit": st.sampled_from([3, 8, 12, 16, 25]),  # small limits, so that players go out
    },
    optional={
        "scoring": st.sampled_from(["single-round", "winner-collects", "knockout"]),
        "target_score": st.integers(1, 200),
        "allow_bluff": st.booleans(),
        "hand_size": st.integers(1, 9),
        "uno_penalty": st.integers(0, 4),
        "teams": st.booleans(),
    },
)


def random_play_limit(edition: str, rules: Rules) -> int | None:
    """How many decisions of a random game to check when it may not end.  In All Wild every card of
    a kind is identical, so with Jump-In and stacking random play jumps and stacks without end in
    sight (hands of 60 cards and more; one 2-player round ran past 250,000 decisions): such games are
    checked for their first 20,000 decisions.  That they end under real play:
    test_house_rules.py::test_presets_play_in_every_edition."""
    return 20_000 if edition == "all-wild" and rules.jump_in and rules.stacking != "off" else None


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_random_presets(edition: str, preset: str) -> None:
    rules = Rules.preset(preset)
    counts = (4, 6, 10) if rules.teams else (2, 4, 7)  # two teams of two or more
    limit = random_play_limit(edition, rules)
    for seed, players in enumerate(counts):
        game = play_and_check(edition, players, seed, {"preset": preset, "scoring": "single-round"}, step_limit=limit)
        assert game.rules == Rules.preset(preset, scoring="single-round")


@pytest.mark.parametrize("edition", EDITION_NAMES)
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    # a failing example is reported as found: shrinking replays whole random games, for an hour
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
@given(players=st.sampled_from(PLAYER_COUNTS), seed=st.integers(0, 2**32), options=HOUSE_OPTIONS)
def test_random_house_options(edition: str, players: int, seed: int, options: dict[str, Any]) -> None:
    options = without_idle_options({"scoring": "single-round", **options})
    if options.get("teams") and (players < 4 or players % 2):
        players = 4 if players < 4 else players + 1  # teams need an even number of players (7: 8)
    limit = random_play_limit(edition, Rules.from_dict(options))
    game = play_and_check(edition, players, seed, options, clone_every=16, view_every=100, step_limit=limit)
    assert isinstance(game, HouseGame) == game.rules.house_on
    for name, value in options.items():
        assert getattr(game.rules, name) == value, f"rule option {name} was not applied"


@pytest.mark.parametrize("scoring", ["winner-collects", "running-tally"])
@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_random_team_matches(edition: str, scoring: str) -> None:
    for seed, players in enumerate((4, 6)):
        options = {"teams": True, "scoring": scoring, "target_score": 150}
        game = play_and_check(edition, players, seed, options, clone_every=32, view_every=200)
        side = game.team_seats(game.winner)
        assert game.winning_team == game.teams[game.winner] and len(side) == players // 2
        assert len({game.scores[seat] for seat in side}) == 1, f"partners' scores differ: {game.scores}"


@pytest.mark.parametrize("scoring", ["winner-collects", "running-tally", "knockout"])
@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_random_mercy_matches(edition: str, scoring: str) -> None:
    mercies = 0
    for seed, (players, teams) in enumerate(((2, False), (3, False), (5, False), (4, True), (6, True))):
        options = {"mercy": True, "mercy_limit": 9 + seed, "scoring": scoring, "teams": teams, "target_score": 150}
        options.update(stacking="up", draw_to_match=True) if seed % 2 else None
        game = play_and_check(edition, players, seed, options, clone_every=16, view_every=50)
        mercies += sum(1 for event in game.events if event[0] == "mercy")
    assert mercies, "nobody was put out of a round"


@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_random_knockout_matches(edition: str) -> None:
    for seed, (players, teams) in enumerate(((3, False), (5, False), (4, True), (6, True))):
        game = play_and_check(edition, players, seed, {"scoring": "knockout", "teams": teams, "hand_size": 4})
        left = [seat for seat in range(players) if seat not in game.knocked]
        sides = {game.teams[seat] if teams else seat for seat in left}
        assert game.winner in left and sides == {game.winning_team if teams else game.winner}
        leavers = [e[1] for e in game.events if e[0] == "knockout"]
        assert sorted(leavers) == list(game.knocked) and len(leavers) >= game.round  # once each, one a round at least
