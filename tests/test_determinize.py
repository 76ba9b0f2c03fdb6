"""Sampling a full game from a view: consistent with the view, and blind to hidden cards."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from unokit import Game
from unokit.determinize import known_cards, lacked_colours, sample_game
from unokit.editions import EDITIONS
from unokit.engine.cards import CARD_COLOUR, Colour, parse_card
from unokit.engine.deck import stacked_deck


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


def test_a_colour_drawn_on_is_lacked_and_kept_out_of_the_sample() -> None:
    # Seat 1 plays R9 on R5... seat 0 holds no red card, draws G7 (not playable) and passes.
    first = ["G1", "G2", "B3", "B4", "Y5", "Y6", "G8"]
    second = ["R9", "R1", "R2", "R3", "R4", "B6", "B7"]
    deck = stacked_deck("classic", [first, second], "R5", ["G7", "Y1", "Y2"], dealer=0)
    game = Game("classic", 2, seed=2, deck=deck, dealer=0)
    game.apply_notation(1, "R9")
    game.apply_notation(0, "draw")  # G7 does not match R9: the turn passes
    view = game.view(1)
    assert lacked_colours(view.history, 2) == [{Colour.RED}, set()]
    for seed in range(20):
        sample = sample_game(view, random.Random(seed))
        assert all(CARD_COLOUR[c] != Colour.RED for c in sample.hands[0])
        assert Counter(sample.all_cards()) == Counter(sample.deck_cards)
    # Without the inference some samples would give seat 0 a red card.
    unguided = [sample_game(view, random.Random(s), lacks=[set(), set()]) for s in range(20)]
    assert any(CARD_COLOUR[c] == Colour.RED for sample in unguided for c in sample.hands[0])


def test_a_penalty_draw_clears_what_was_lacked() -> None:
    first = ["G1", "G2", "B3", "B4", "Y5", "Y6", "G8"]
    second = ["R9", "R+2", "R2", "R3", "R4", "B6", "B7"]
    deck = stacked_deck("classic", [first, second], "R5", ["G7", "Y1", "Y2", "Y3"], dealer=0)
    game = Game("classic", 2, seed=2, deck=deck, dealer=0)
    game.apply_notation(1, "R9")
    game.apply_notation(0, "draw")
    game.apply_notation(1, "R+2")  # seat 0 draws two unknown cards
    assert lacked_colours(game.view(1).history, 2) == [set(), set()]


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_samples_keep_jump_windows_and_sets(edition: str) -> None:
    rules = {"scoring": "single-round", "jump_in": True, "multi_play": "identical", "seven_swap": True}
    windows = 0
    for seed in range(6):
        game = Game(edition, 2 + seed % 4, seed=seed, rules=rules)
        rng = random.Random(seed)
        step = 0
        while not game.is_over and step < 300:
            deciders = game.deciders()
            if step % 5 == 0 or len(deciders) > 1:
                for seat in deciders:
                    view = game.view(seat)
                    sample = sample_game(view, random.Random(step))
                    assert sample.phase_name == game.phase_name and sample.actor == game.actor
                    assert sample.house_state() == game.house_state()
                    assert sample.legal_actions(seat) == game.legal_actions(seat)
                    assert sorted(sample.hands[seat]) == sorted(game.hands[seat])
                    windows += seat != game.actor
                    play = random.Random(step)
                    for _ in range(30):
                        if sample.is_over:
                            break
                        who = play.choice(sample.deciders())
                        sample.apply(who, play.choice(sample.legal_actions(who)))
            seat = rng.choice(deciders)
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            step += 1
    assert windows > 0
