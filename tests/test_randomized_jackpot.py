"""Randomized games of UNO Wild Jackpot with random sets of written rule cards.

Every game gets 1 to 16 rule texts drawn from a pool that mixes every form the engine
enforces (every verb, every target, numbers in digits and words, optional words, case
and final punctuation varied) with honour tasks, sometimes random lever weights, and 2
to 10 players. A uniformly random policy plays it (a seat picked from ``deciders()``,
then one of its legal actions), and at every step:

* every card of the main deck is somewhere, exactly once;
* every rule card is in the dispenser, behind the unit or in play, exactly once;
* every decider has a legal action and every other seat has none;
* no player goes on with an empty hand: a player left with no cards has ended the round.

At the end the record replays to an equal game (rule cards included), and ``take`` and
``give`` events show their cards only to the two players concerned.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unokit.editions.rulecards import SUGGESTIONS, TARGETS, VERBS, read_rule
from unokit.editions.wild_jackpot import WildJackpot
from unokit.engine.events import redact
from unokit.engine.game import Game
from unokit.engine.record import replay, to_record

EDITION = "wild-jackpot"
STEP_LIMIT = 100_000
"""No random game may take more decisions than this."""

_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_WORDS += ("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen")
_WORDS += ("nineteen", "twenty")

TARGET_PHRASES = (
    "the player on your left",
    "the player to your left",
    "the player on your right",
    "the player to your right",
    "the next player",
    "the previous player",
    "the player with the most cards",
    "the player with the most cards in their hand",
    "the player with the fewest cards",
    "the player with the least cards in hand",
    "a player of your choice",
    "the player of your choice",
    "any player",
    "any other player",
    "another player",
)

# {n}: a count ("2", "two cards", "a card", ...); {p}: another player.
TEMPLATES = (
    "Draw {n}",
    "You must draw {n} from the draw pile",
    "Pick up {n}",
    "Take {n} from the deck",
    "Draw until you have {n} in your hand",
    "Draw cards until you hold {n}",
    "Draw up to {n}",
    "Discard {n}",
    "Discard {n} of your choice",
    "You discard {n} from your hand",
    "Discard until you have {n} in your hand",
    "Discard down to {n}",
    "Play as many cards in a row as you can",
    "Play as many cards as possible",
    "Play all of your Wild cards",
    "Play all wilds",
    "Skip your next turn",
    "Miss a turn",
    "Lose your turn",
    "Reverse",
    "Reverse the direction of play",
    "Reverse play",
    "Give {n} to {p}",
    "Give {n} of your choice to {p}",
    "Give {p} {n}",
    "Take {n} from {p}",
    "Steal {n} at random from {p}",
    "Swap hands with {p}",
    "Trade your hand with {p}",
    "Exchange hands with {p}",
    "Switch hands with {p}",
    "Everyone draws {n}",
    "Each player draws {n} from the pile",
    "All players draw {n}",
    "Everybody discards {n}",
    "Every player discards {n} of their choice",
)

HONOUR_TASKS = (
    *SUGGESTIONS[5:],
    "Sing the first line of a song.",
    "Stand up and spin around",
    "Talk like a pirate until your next turn!",
    "Draw a picture of the player on your left",
    "Draw 31 cards",  # more than 30: an honour task
    "Take 99 cards from the player on your left",
    "<b>Bold</b> & {braces} $(echo no)",
    "Dé un abrazo 🤗 al jugador de tu izquierda",
)


def count_phrase(rng: random.Random) -> str:
    """A number of cards, mostly small, in digits or words (large ones only make games long)."""
    value = rng.choice((0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5, 7))
    form = rng.randrange(5)
    if form == 0:
        return str(value)
    if form == 1:
        return f"{value} card" if value == 1 else f"{value} cards"
    if form == 2 and value <= 20:
        return f"{_WORDS[value]} cards"
    if form == 3 and value == 1:
        return "a card"
    return str(value)


def rule_text(rng: random.Random) -> str:
    """One written rule card: an enforceable form (usually) or an honour task."""
    if rng.random() < 0.15:
        text = rng.choice(HONOUR_TASKS)
    else:
        text = rng.choice(TEMPLATES).format(n=count_phrase(rng), p=rng.choice(TARGET_PHRASES))
    style = rng.randrange(6)
    if style == 0:
        text = text.upper()
    elif style == 1:
        text = text.lower()
    elif style == 2:
        text += rng.choice((".", "!", " !", "..."))
    elif style == 3:
        text = f"  {text.replace(' ', '   ')} "
    return text


def random_setup(seed: int) -> dict[str, Any]:
    """Players, rule cards and rules of one random game."""
    rng = random.Random(f"jackpot-setup/{seed}")
    rules: dict[str, Any] = {"scoring": "single-round"}
    if rng.random() < 0.35:
        weights = [rng.choice((0, 0, 1, 2, 5)) for _ in range(6)]
        weights[rng.randrange(6)] += 1
        rules["lever_weights"] = weights
    if rng.random() < 0.1:
        rules.update(scoring=rng.choice(("winner-collects", "running-tally")), target_score=150)
    return {
        "players": rng.randint(2, 10),
        "texts": [rule_text(rng) for _ in range(rng.randint(1, 16))],
        "rules": rules,
    }


def play_checked(players: int, seed: int, texts: list[str], rules: dict[str, Any]) -> Game:
    """Play one random game to its end, checking the invariants at every step."""
    game = Game(EDITION, players, seed=seed, rules=rules, rule_cards=texts)
    deck = Counter(game.deck_cards)
    rule_cards = Counter(range(len(game.extra["texts"])))
    assert len(game.extra["texts"]) == len(texts)
    policy = random.Random(seed)
    seats = range(players)
    steps = 0
    label = f"{players} players, seed {seed}, rules {rules}, rule cards {texts}"
    while True:
        assert game.all_cards() == deck, f"{label}, step {steps}: main-deck cards lost or duplicated"
        assert WildJackpot.rule_cards_everywhere(game) == rule_cards, f"{label}, step {steps}: rule cards"
        if game.is_over:
            break
        empty = [seat for seat in seats if not game.hands[seat]]
        assert not empty, (
            f"{label}, step {steps}: seats {empty} hold no cards but the round goes on "
            f"(phase {game.phase_name}, actor {game.actor}); last events {game.events[-6:]}"
        )
        deciders = game.deciders()
        assert deciders, f"{label}, step {steps}: nobody may act"
        for seat in seats:
            legal = game.legal_actions(seat)
            if seat in deciders:
                assert legal, f"{label}, step {steps}: decider {seat} has no legal action in {game.phase_name}"
            else:
                assert legal == (), f"{label}, step {steps}: waiting seat {seat} has {legal}"
        seat = policy.choice(deciders)
        game.apply(seat, policy.choice(game.legal_actions(seat)))
        steps += 1
        assert steps < STEP_LIMIT, f"{label}: the game does not end"
    assert game.legal_actions(game.actor) == () and game.deciders() == ()
    assert replay(to_record(game)) == game, f"{label}: the record does not replay"
    check_secrets(game)
    return game


def check_secrets(game: Game) -> None:
    """``take`` and ``give`` cards are seen only by the two players concerned."""
    secret = [e for e in game.events if e[0] in ("take", "give") and e[3]]
    if not secret:
        return
    for viewer in (*range(game.n), None):
        history = game.view(viewer).history
        for index, event in enumerate(game.events):
            kind, seat, other, _ = event
            if kind in ("take", "give"):
                sees = viewer in (seat, other)
                assert history[index] == (event if sees else (kind, seat, other, ())), (viewer, event)
                assert history[index] == redact(event, viewer)


# ---------------------------------------------------------------- the pool covers the language


def test_the_text_pool_mixes_every_enforced_form_and_honour_tasks() -> None:
    rng = random.Random(5)
    cards = [read_rule(rule_text(rng)) for _ in range(3000)]
    effects = [card.effect for card in cards if card.effect is not None]
    assert {effect.verb for effect in effects} == set(VERBS)
    assert {effect.target for effect in effects} == set(TARGETS)
    assert {effect.count for effect in effects} == {0, 1, 2, 3, 4, 5, 7}
    honour = [card for card in cards if card.effect is None]
    assert 0.1 < len(honour) / len(cards) < 0.3
    for text in TEMPLATES:  # every template is enforced once a count and a player fill it
        assert read_rule(text.format(n="2 cards", p="the next player")).enforced, text
    for text in HONOUR_TASKS:
        assert not read_rule(text).enforced, text


# ---------------------------------------------------------------- seeded random games

CHUNKS = 6
GAMES_PER_CHUNK = 80


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_rule_card_sets_keep_every_card_and_replay(chunk: int) -> None:
    outcomes: Counter[int] = Counter()
    performed: Counter[str] = Counter()
    for seed in range(chunk * GAMES_PER_CHUNK, (chunk + 1) * GAMES_PER_CHUNK):
        setup = random_setup(seed)
        game = play_checked(setup["players"], seed, setup["texts"], setup["rules"])
        outcomes.update(e[2] for e in game.events if e[0] == "lever")
        for kind, _, rid, _ in game.events:
            if kind == "rule":
                effect = WildJackpot.card(game, rid).effect
                performed["honour" if effect is None else effect.verb] += 1
    # The games went through every lever outcome and performed every kind of rule card.
    assert set(outcomes) == {1, 2, 3, 4, 5, 6}, outcomes
    assert set(performed) == {*VERBS, "honour"}, performed


# ---------------------------------------------------------------- hypothesis-chosen set-ups

COUNT_PHRASES = ("0", "1", "2", "3", "6", "a card", "1 card", "one card", "two cards", "3 cards", "ten cards")
rule_texts = st.one_of(
    st.sampled_from(HONOUR_TASKS),
    st.builds(
        lambda template, n, p: template.format(n=n, p=p),
        st.sampled_from(TEMPLATES),
        st.sampled_from(COUNT_PHRASES),
        st.sampled_from(TARGET_PHRASES),
    ),
)
lever_weights = st.lists(st.integers(min_value=0, max_value=4), min_size=6, max_size=6).filter(lambda w: sum(w) > 0)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    players=st.integers(min_value=2, max_value=10),
    seed=st.integers(min_value=0, max_value=2**40),
    texts=st.lists(rule_texts, min_size=1, max_size=16),
    weights=st.none() | lever_weights,
)
def test_hypothesis_rule_card_sets_keep_every_card_and_replay(
    players: int, seed: int, texts: list[str], weights: list[int] | None
) -> None:
    rules: dict[str, Any] = {"scoring": "single-round"}
    if weights is not None:
        rules["lever_weights"] = weights
    play_checked(players, seed, texts, rules)
