"""Sampling a full game from one player's view (for search bots).

:func:`sample_game` deals every card the viewer cannot see at random, consistently
with everything the view shows: the viewer's hand, the discard pile, every hand's
size, cards the viewer knows another player holds (a hand shown in a challenge,
cards given, taken or swapped), colours a player seems to lack (it drew on them),
and the public state (phase, pending operations, scores, ...).  Only the view is
read, so a bot built on it cannot use hidden information.  The sampled game has its
own random generator, seeded from ``rng``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from unokit.editions import get_edition
from unokit.engine.cards import CARD_COLOUR, CARD_IS_WILD, NO_COLOUR
from unokit.engine.events import Event
from unokit.engine.game import Game
from unokit.engine.phases import HOUSE_PHASE_NAMES, HOUSE_PHASES, PHASE_NAMES
from unokit.engine.views import View, round_start


def known_cards(view: View, *, strict: bool = False) -> list[Counter[int]]:
    """Cards the viewer knows each other player holds, from the history since the last deal.

    With ``strict``, only cards the viewer knows for certain: a player who gave a card, or lost
    cards taken, out of the viewer's sight may have parted with a card known, so nothing is known
    of their hand any more (without it, the cards known before stay, as a sampler's good guess)."""
    seat = view.seat
    known: list[Counter[int]] = [Counter() for _ in range(view.players)]
    own: Counter[int] = Counter()
    history = view.history
    out = set(view.state.get("knocked", ()))  # seats out of the round so far (match, Mercy): passes skip them
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
        elif strict and kind in ("take", "give"):  # (no data: out of the viewer's sight)
            known[value if kind == "take" else who] = Counter()
        elif kind == "swap":
            if seat in (who, value):
                other = value if who == seat else who
                known[other], own = own, Counter()
            else:
                known[who], known[value] = known[value], known[who]
        elif kind == "pass_hands":
            if seat is not None:
                known[seat] = own
                own = Counter()
            count = view.players
            known = [known[s] if s in out else known[_before(s, value, count, out)] for s in range(count)]
        elif kind == "mercy":
            out.add(who)
            known[who] = Counter()
            if who == seat:
                own = Counter()
    if seat is not None:
        known[seat] = Counter()
    return known


def _before(seat: int, step: int, count: int, out: set[int]) -> int:
    """The seat before ``seat`` going ``step``, over the seats in ``out``."""
    before = (seat - step) % count
    while before in out:
        before = (before - step) % count
    return before


def lacked_colours(history: Sequence[Event], players: int) -> list[set[int]]:
    """Colours each player is inferred not to hold (wild cards aside), from the current round.

    A player who draws one card on their turn and then passes or plays the drawn card held
    no card of the colour in play; any other card drawn, taken or given to them clears
    what is known; a hand shown in a challenge lacks every colour it does not show."""
    lacks: list[set[int]] = [set() for _ in range(players)]
    colour = NO_COLOUR
    pending: tuple[int, int] | None = None  # (seat, colour) of a one-card draw on a turn
    for index in range(round_start(history), len(history)):
        kind, seat, value, data = history[index]
        if pending is not None:
            drawer, drawn_on = pending
            pending = None
            if seat == drawer and kind in ("pass", "play") and drawn_on != NO_COLOUR:
                lacks[drawer].add(drawn_on)
        if (kind in ("flip", "play") and not CARD_IS_WILD[data[0]]) or (kind == "discard" and value == 1):
            colour = CARD_COLOUR[data[0]]
        elif kind == "colour":
            colour = value
        elif kind == "draw":
            lacks[seat].clear()
            if value == 1:
                pending = (seat, colour)
        elif kind in ("take", "give"):
            lacks[seat if kind == "take" else value].clear()
        elif kind == "swap":
            lacks[seat], lacks[value] = lacks[value], lacks[seat]
        elif kind == "pass_hands":
            lacks = [lacks[(s - value) % players] for s in range(players)]
        elif kind == "reveal" and data:
            shown = {CARD_COLOUR[c] for c in data}
            lacks[seat] = {c for c in range(NO_COLOUR) if c not in shown}
    return lacks


def _remove(counter: Counter[int], cards: tuple[int, ...]) -> None:
    for card in cards:
        if counter[card] > 0:
            counter[card] -= 1


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
