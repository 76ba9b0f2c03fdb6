"""Sampling a full game from one player's view (for search bots).

:func:`sample_game` deals every card the viewer cannot see at random, consistently
with everything the view shows: the viewer's hand, the discard pile, every hand's
size, cards the viewer knows another player holds (a hand shown in a challenge,
cards given, taken or swapped), colours a player seems to lack (it drew on them),
and the public state (phase, pending operations, scores, ...).  Only the view is
read, so a bot built on it cannot use hidden information.  The sampled game has its
own random generator, seeded from ``rng``.  What the viewer knows of the hidden cards
(:func:`known_cards`, :func:`lacked_colours`) is read by :mod:`unokit.engine.knowledge`.
"""

from __future__ import annotations

import random
from collections import Counter

from unokit.editions import get_edition
from unokit.engine.cards import CARD_COLOUR
from unokit.engine.events import Event
from unokit.engine.game import Game
from unokit.engine.knowledge import known_cards, lacked_colours
from unokit.engine.phases import HOUSE_PHASE_NAMES, HOUSE_PHASES, PHASE_NAMES
from unokit.engine.views import View, round_start

__all__ = ["known_cards", "lacked_colours", "sample_game", "stalled_turns"]


def sample_game(
    view: View,
    rng: random.Random,
    known: list[Counter[int]] | None = None,
    lacks: list[set[int]] | None = None,
) -> Game:
    """A full game consistent with ``view``, hidden cards dealt at random (a player's
    unknown cards avoid the colours it seems to lack, see :func:`lacked_colours`).

    ``known`` and ``lacks`` are :func:`known_cards` and :func:`lacked_colours` of the
    view, when the caller already has them."""
    if view.seat is None:
        raise ValueError("a spectator's view has no point of view to sample from")
    edition = get_edition(view.edition)
    game = Game.blank(edition, view.players, rng.getrandbits(63), view.rules)
    state = view.state
    phases = (*PHASE_NAMES, *edition.phase_names)
    if view.phase in HOUSE_PHASE_NAMES:
        game.phase = HOUSE_PHASES + HOUSE_PHASE_NAMES.index(view.phase)
    else:
        game.phase = phases.index(view.phase)
    game.round = view.round
    game.dealer = view.dealer
    game.direction = view.direction
    game.turn = view.turn
    game.actor = view.actor
    game.colour = view.colour
    game.scores = list(view.scores)
    game.round_results = view.round_results
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
    game.stalls = state.get("stalls", stalled_turns(game.events))  # a view of a loaded game counts on from it
    game.moves_before = state.get("moves", 0)  # the decisions so far (the order asked out of turn)

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
    inferred = lacks if lacks is not None else lacked_colours(view.history, view.players)
    for other in range(view.players):
        need = view.hand_sizes[other] - len(hands[other])
        if need <= 0:
            continue
        lacked = inferred[other] if other != view.seat else ()
        if lacked:
            # Deal cards of the colours it seems to lack only when nothing else is left.
            fits = [c for c in pool if CARD_COLOUR[c] not in lacked]
            if len(fits) >= need:
                dealt = fits[:need]
                for card in dealt:
                    pool.remove(card)
                hands[other] += dealt
                continue
        hands[other] += pool[:need]
        del pool[:need]
    game.hands = hands
    game.draw_pile = pool
    if view.phase == "challenge":
        game.bluff = any(CARD_COLOUR[c] == game.bluff_colour for c in hands[game.bluffer])
    if view.phase == "drawn":
        game.drawn = view.drawn if view.drawn >= 0 else _a_playable_card(game)
    edition.restore_public_state(game, state, rng)
    game.restore_house_state(state)
    return game


def stalled_turns(events: list[Event]) -> int:
    """The turns in a row whose draw found no card (``Game.stalls``), as the round's events tell
    them: the passes since the last play or draw, but for a pass after its own player's draw or play
    (a drawn card kept, a set of cards ended)."""
    count = 0
    last: tuple[str, int] | None = None
    for kind, seat, _, _ in events:
        if kind in ("play", "draw"):
            count = 0
            last = (kind, seat)
        elif kind == "pass":
            if last is None or last[0] == "pass" or last[1] != seat:
                count += 1
            last = (kind, seat)
    return count


def _a_playable_card(game: Game) -> int:
    hand = game.hands[game.actor]
    playable = [c for c in hand if game.playable(game.actor, c)]
    return playable[0] if playable else hand[-1]
