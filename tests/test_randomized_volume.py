"""Thousands of seeded random games per edition, with the checks that are cheap enough
to run at every step of every game.

:mod:`tests.test_randomized` runs the expensive checks (clones, views, refusals) on
fewer games; this module plays many more: for every edition, 2,000 single-round games
of 2 to 10 players, checking at every step that the card count is constant, that a
decider always has a legal action and that the chosen action is accepted; every 64
steps and at every round's end that each card is accounted for exactly once; at every
round's end that the counted hands carry the edition's points; and that every game ends.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from unokit.editions import EDITIONS
from unokit.engine.game import Game
from unokit.engine.rules import Rules

GAMES_PER_EDITION = 2_000
CHUNKS = 4
ROUND_STEP_LIMIT = 250_000
RULES = Rules(scoring="single-round")


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_thousands_of_random_games(edition: str, chunk: int) -> None:
    per_chunk = GAMES_PER_EDITION // CHUNKS
    for index in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        players = 2 + index % 9
        game = Game(edition, players, seed=index, rules=RULES)
        play_checked(game, random.Random(index))


def play_checked(game: Game, rng: random.Random) -> None:
    deck = Counter(game.deck_cards)
    total = len(game.deck_cards)
    steps = 0
    while not game.is_over:
        deciders = game.deciders()
        assert deciders, "a game that is not over has someone to decide"
        seat = rng.choice(deciders)
        legal = game.legal_actions(seat)
        assert legal, f"decider {seat} has no legal action"
        game.apply(seat, rng.choice(legal))
        steps += 1
        held = sum(map(len, game.hands)) + len(game.draw_pile) + len(game.discard_pile)
        assert held == total, f"step {steps}: {held} cards instead of {total}"
        if steps % 64 == 0:
            assert game.all_cards() == deck, f"step {steps}: cards are not the deck"
        assert steps < ROUND_STEP_LIMIT, "the round does not end"
    assert game.all_cards() == deck
    hands = [e for e in game.events if e[0] == "hand"]
    assert len(hands) == game.n
    for _, _, points, cards in hands:
        assert points == game.edition.hand_points(list(cards))
    assert sum(len(cards) for *_, cards in hands) + len(game.draw_pile) + len(game.discard_pile) == total
    winner = next(e for e in game.events if e[0] == "round_end")[1]
    assert game.winner == winner
    assert any(e[0] == "blocked" for e in game.events) or not game.hands[winner]
