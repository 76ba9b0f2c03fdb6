"""The ISMCTS bot: legal, deterministic for a seed, and blind to hidden cards."""

from __future__ import annotations

import pytest

from unokit import Game, Rules, UnknownOptionError
from unokit.bots import make_bot, play_game
from unokit.bots.ismcts import IsmctsBot
from unokit.editions import EDITIONS
from unokit.engine.deck import stacked_deck
from unokit.engine.views import View


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_ismcts_only_chooses_legal_actions(edition: str) -> None:
    # play_game raises if a bot returns an action that is not legal.
    for seed in range(3):
        bots = [
            make_bot("ismcts", seed=seed, edition=edition, iterations=12),
            make_bot("random", seed=9, edition=edition),
        ]
        bots += [make_bot("heuristic", seed=seed, edition=edition)]
        result = play_game(edition, bots, seed=seed, rules={"scoring": "single-round"})
        assert result.winner in (0, 1, 2)
        assert result.decisions[0] > 0


def test_ismcts_is_deterministic_for_a_seed_and_iteration_budget() -> None:
    def run() -> list[int]:
        bots = [
            make_bot("ismcts", seed=4, edition="classic", iterations=30),
            make_bot("heuristic", seed=5, edition="classic"),
        ]
        result = play_game("classic", bots, seed=11, rules={"scoring": "single-round"})
        return [result.winner, *result.decisions, *result.scores]

    assert run() == run()


def test_ismcts_choice_does_not_depend_on_hidden_cards() -> None:
    mine = ["R1", "R2", "R3", "G4", "B5", "Y6", "W"]
    one = stacked_deck("classic", [mine, ["B1"] * 2 + ["B2"] * 2 + ["B3"] * 2 + ["Y9"]], "R9", ["G7"], dealer=1)
    two = stacked_deck("classic", [mine, ["Y1"] * 2 + ["Y2"] * 2 + ["Y3"] * 2 + ["G9"]], "R9", ["B7"], dealer=1)
    views = [Game("classic", 2, seed=3, deck=deck, dealer=1).view(0) for deck in (one, two)]
    assert views[0] == views[1]
    choices = [IsmctsBot(seed=8, iterations=200).choose(view) for view in views]
    assert choices[0] == choices[1]


def test_ismcts_always_calls_and_catches_uno() -> None:
    rules = Rules(hand_size=2)
    deck = stacked_deck("classic", [["B1", "B2"], ["R1", "R2"]], "R9", ["G7", "G8"], dealer=1, rules=rules)
    game = Game("classic", 2, seed=1, deck=deck, dealer=1, rules=rules)
    game.apply_notation(0, "draw")
    game.apply_notation(1, "R1")  # next-to-last card, no call
    bot = IsmctsBot(seed=2, iterations=10)
    assert game.actions.format(bot.wants_interrupt(game.view(0)) or -1) == "catch@1"
    assert game.actions.format(bot.wants_interrupt(game.view(1)) or -1) == "uno"


def test_ismcts_options_are_checked() -> None:
    with pytest.raises(UnknownOptionError):
        make_bot("ismcts", seed=1, edition="classic", iterations=0)
    with pytest.raises(UnknownOptionError):
        make_bot("ismcts", seed=1, edition="classic", ms=-5)
    with pytest.raises(UnknownOptionError):
        make_bot("ismcts", seed=1, edition="classic", depth=3)
    with pytest.raises(UnknownOptionError):
        make_bot("ismcts", seed=1, edition="classic", method="deep")
    with pytest.raises(UnknownOptionError):  # rollouts run compiled
        make_bot("ismcts", seed=1, edition="classic", method="rollouts", playouts="python")
    assert IsmctsBot(method="tree").method == "tree"
    assert IsmctsBot(playouts="python").method == "tree"  # auto: no compiled engine, the tree


def _turn_views(count: int) -> list[View]:
    """Views of seat 0's turn decisions in a few classic games between random bots."""
    import random

    views = []
    for seed in range(40):
        game = Game("classic", 2, seed=seed, rules={"scoring": "single-round"})
        rng = random.Random(seed)
        while not game.is_over and len(views) < count:
            seat = game.actor
            if seat == 0 and game.phase_name == "turn" and len(game.legal_actions(0)) > 2:
                views.append(game.view(0))
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    return views


@pytest.mark.parametrize("method", ["tree", "auto"])
def test_a_large_margin_plays_the_heuristics_choice_and_none_searches_alone(method: str) -> None:
    from unokit.bots.heuristic import HeuristicBot

    views = _turn_views(25)
    guided = IsmctsBot(seed=1, iterations=60, margin=1e9, method=method)
    heuristic = HeuristicBot(seed=1)
    unguided = IsmctsBot(seed=1, iterations=60, margin=None, method=method)
    differs = 0
    for view in views:
        assert guided.choose(view) == heuristic.choose(view)
        differs += unguided.choose(view) != HeuristicBot(seed=1).choose(view)
    assert differs > 0, "the unguided search should sometimes disagree with the heuristic"
    with pytest.raises(UnknownOptionError):
        make_bot("ismcts", seed=1, edition="classic", margin=-1)


def test_ismcts_plays_jump_in_and_sets() -> None:
    rules = {"scoring": "single-round", "jump_in": True, "multi_play": "number", "stacking": "same"}
    jumps = 0
    for seed in range(3):
        bots = [make_bot("ismcts", seed=seed, edition="classic", iterations=8) for _ in range(2)]
        bots.append(make_bot("random", seed=seed, edition="classic"))
        result = play_game("classic", bots, seed=seed, rules=rules)
        assert result.winner in (0, 1, 2) and result.decisions[0] > 0
        jumps += sum(1 for e in result.events if e[0] == "jump")
    assert jumps > 0


def jump_window() -> Game:
    """Four players: seat 0 has played R5; seat 1 is to play; seats 2 and 3 may jump in."""
    hands = [["R5", "B1", "B2"], ["B6", "B7", "B8"], ["R5", "Y1", "Y2"], ["R5", "Y3", "Y4"]]
    counts = {"R5": 3, "B1": 1, "B2": 1, "B6": 1, "B7": 1, "B8": 1, "Y1": 1, "Y2": 1, "Y3": 1, "Y4": 1}
    counts |= {"R0": 1, "G1": 4, "G2": 4}
    rules = Rules.from_dict({"hand_size": 3, "jump_in": True, "deck": counts})
    deck = stacked_deck("classic", hands, "R0", ["G1", "G2"], dealer=3, rules=rules)
    game = Game("classic", 4, seed=1, deck=deck, dealer=3, rules=rules)
    game.apply_notation(0, "R5")
    assert game.deciders() == (1, 2, 3)
    return game


def test_ismcts_settles_a_jump_window_with_the_nearest_jumper() -> None:
    outcomes = set()
    for seed in range(12):
        game = jump_window()
        bot = IsmctsBot(seed=seed, iterations=1, method="tree")
        assert bot._settle_interrupts(game, jumps=False) and game.history[-1][0] == 0  # the root: nobody jumps
        bot._settle_interrupts(game)
        jumped = [e for e in game.events if e[0] == "jump"]
        outcomes.add(tuple(jumped[:1]))
    assert outcomes == {(), (("jump", 2, 1, ()),)}  # half the time, and always seat 2 first


def test_ismcts_jumps_in_as_the_heuristic_does() -> None:
    game = jump_window()
    view = game.view(2)
    assert IsmctsBot(seed=1, iterations=5).wants_interrupt(view) == game.actions.parse("^R5")
    assert IsmctsBot(seed=1, iterations=5).choose(game.view(1)) in game.legal_actions(1)
