"""Sampling a full game from a view: consistent with the view, and blind to hidden cards."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from unokit import Game
from unokit.cards import parse_card
from unokit.deck import stacked_deck
from unokit.determinize import known_cards, sample_game
from unokit.editions import EDITIONS


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_sampled_games_agree_with_the_view_and_play_on(edition: str) -> None:
    for seed in range(8):
        game = Game(edition, 2 + seed % 5, seed=seed, rules={"scoring": "single-round"})
        rng = random.Random(seed)
        step = 0
        while not game.is_over:
            seat = rng.choice(game.deciders())
            if step % 11 == 0 and seat == game.actor:
                view = game.view(seat)
                sample = sample_game(view, random.Random(step))
                assert sample.all_cards() == Counter(sample.deck_cards)
                assert [len(h) for h in sample.hands] == [len(h) for h in game.hands]
                assert sorted(sample.hands[seat]) == sorted(game.hands[seat])
                assert sample.discard_pile == game.discard_pile
                assert len(sample.draw_pile) == len(game.draw_pile)
                assert sample.phase_name == game.phase_name and sample.actor == game.actor
                assert sample.legal_actions(seat) == game.legal_actions(seat)
                assert sample.view(seat).hand == view.hand
                play = random.Random(step)
                for _ in range(150):
                    if sample.is_over:
                        break
                    who = play.choice(sample.deciders())
                    sample.apply(who, play.choice(sample.legal_actions(who)))
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            step += 1


def test_sampling_reads_only_the_view() -> None:
    """Two deals that differ only in cards seat 0 cannot see give the same sample."""
    mine = ["R1", "R2", "R3", "G4", "B5", "Y6", "W"]
    one = stacked_deck("classic", [mine, ["B1"] * 2 + ["B2"] * 2 + ["B3"] * 2 + ["Y9"]], "R9", ["G7"], dealer=1)
    two = stacked_deck("classic", [mine, ["Y1"] * 2 + ["Y2"] * 2 + ["Y3"] * 2 + ["G9"]], "R9", ["B7"], dealer=1)
    games = [Game("classic", 2, seed=3, deck=deck, dealer=1) for deck in (one, two)]
    assert games[0].hands[1] != games[1].hands[1]
    views = [game.view(0) for game in games]
    assert views[0] == views[1]
    samples = [sample_game(view, random.Random(7)) for view in views]
    assert samples[0].state_key() == samples[1].state_key()


def test_a_hand_shown_in_a_challenge_is_placed_in_the_sample() -> None:
    bluffer = ["R1", "R2", "G3", "G4", "B5", "W+4", "Y6"]
    victim = ["B1", "B2", "B3", "B4", "B6", "B7", "Y1"]
    deck = stacked_deck("classic", [bluffer, victim], "R9", ["Y2", "Y3", "Y4", "Y5", "Y7", "Y8"], dealer=1)
    game = Game("classic", 2, seed=5, deck=deck, dealer=1)
    game.apply_notation(0, "W+4")
    game.apply_notation(0, "=G")
    game.apply_notation(1, "challenge")
    shown = Counter(parse_card(c) for c in ["R1", "R2", "G3", "G4", "B5", "Y6"])
    known = known_cards(game.view(1))
    assert known[0] == shown
    # The bluffer drew 4 after the reveal: the shown cards are still theirs in every sample.
    for seed in range(10):
        sample = sample_game(game.view(1), random.Random(seed))
        assert not shown - Counter(sample.hands[0])
