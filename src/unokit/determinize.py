"""Sampling a full game from one player's view (for search bots).

:func:`sample_game` deals every card the viewer cannot see at random, consistently
with everything the view shows: the viewer's hand, the discard pile, every hand's
size, cards the viewer knows another player holds (a hand shown in a challenge,
cards given, taken or swapped), and the public state (phase, pending operations,
scores, ...).  Only the view is read, so a bot built on it cannot use hidden
information.  The sampled game has its own random generator, seeded from ``rng``.
"""

from __future__ import annotations

import random
from collections import Counter

from unokit.cards import CARD_COLOUR
from unokit.editions import get_edition
from unokit.game import PHASE_NAMES, Game
from unokit.views import View, round_start


def known_cards(view: View) -> list[Counter[int]]:
    """Cards the viewer knows each other player holds, from the history since the last deal."""
    seat = view.seat
    known: list[Counter[int]] = [Counter() for _ in range(view.players)]
    own: Counter[int] = Counter()
    history = view.history
    for index in range(round_start(history), len(history)):
        kind, who, value, data = history[index]
        if kind == "deal":
            if who == 0:
                known = [Counter() for _ in range(view.players)]
                own = Counter()
            if who == seat:
                own = Counter(data)
        elif kind == "reveal" and data:
            known[who] = Counter(data)
        elif kind in ("play", "discard"):
            _remove(known[who], data)
            if who == seat:
                _remove(own, data)
        elif kind == "draw" and who == seat:
            own.update(data)
        elif kind == "take" and data:
            _remove(known[value], data)
            known[who].update(data)
            if who == seat:
                own.update(data)
            if value == seat:
                _remove(own, data)
        elif kind == "give" and data:
            _remove(known[who], data)
            known[value].update(data)
            if who == seat:
                _remove(own, data)
            if value == seat:
                own.update(data)
        elif kind == "swap":
            if seat in (who, value):
                other = value if who == seat else who
                known[other], own = own, Counter()
            else:
                known[who], known[value] = known[value], known[who]
    if seat is not None:
        known[seat] = Counter()
    return known


def _remove(counter: Counter[int], cards: tuple[int, ...]) -> None:
    for card in cards:
        if counter[card] > 0:
            counter[card] -= 1


def sample_game(view: View, rng: random.Random, known: list[Counter[int]] | None = None) -> Game:
    """A full game consistent with ``view``, hidden cards dealt at random.

    ``known`` is :func:`known_cards` of the view, when the caller already has it."""
    if view.seat is None:
        raise ValueError("a spectator's view has no point of view to sample from")
    edition = get_edition(view.edition)
    game = Game.blank(edition, view.players, rng.getrandbits(63), view.rules)
    state = view.state
    phases = (*PHASE_NAMES, *edition.phase_names)
    game.phase = phases.index(view.phase)
    game.round = view.round
    game.dealer = view.dealer
    game.direction = view.direction
    game.turn = view.turn
    game.actor = view.actor
    game.colour = view.colour
    game.scores = list(view.scores)
    game.winner = view.winner
    game.discard_pile = list(state["discard_pile"])
    game.ops = list(state["ops"])
    game.exposed = list(view.uncalled)
    game.window_armed = state["window_armed"]
    game.turn_skips = list(state["turn_skips"])
    game.pending_skips = sum(game.turn_skips)
    game.bluffer = view.decision["bluffer"]
    game.bluff_colour = state["bluff_colour"]
    game.discards_left = view.decision["discards_left"]
    game.target_kind = state["target_kind"]
    # The current round's events only: nothing in a game reads earlier rounds' events.
    game.events = list(view.history[round_start(view.history) :])

    # Every card not in the viewer's hand or the discard pile is somewhere hidden.
    hidden = Counter(game.deck_cards)
    hidden.subtract(view.hand)
    hidden.subtract(state["discard_pile"])
    hands: list[list[int]] = [[] for _ in range(view.players)]
    hands[view.seat] = list(view.hand)
    for other, cards in enumerate(known if known is not None else known_cards(view)):
        for card, count in cards.items():
            keep = min(count, hidden[card], view.hand_sizes[other] - len(hands[other]))
            if keep > 0:
                hands[other] += [card] * keep
                hidden[card] -= keep
    pool = list(hidden.elements())
    rng.shuffle(pool)
    for other in range(view.players):
        need = view.hand_sizes[other] - len(hands[other])
        hands[other] += pool[:need]
        del pool[:need]
    game.hands = hands
    game.draw_pile = pool
    if view.phase == "challenge":
        game.bluff = any(CARD_COLOUR[c] == game.bluff_colour for c in hands[game.bluffer])
    if view.phase == "drawn":
        game.drawn = view.drawn if view.drawn >= 0 else _a_playable_card(game)
    edition.restore_public_state(game, state, rng)
    return game


def _a_playable_card(game: Game) -> int:
    hand = game.hands[game.actor]
    playable = [c for c in hand if game.playable(game.actor, c)]
    return playable[0] if playable else hand[-1]
