"""What one seat knows of the hidden cards, read from its view alone.

:func:`known_cards`: the cards the viewer knows each other player holds (a hand shown in a challenge,
cards given, taken or swapped); :func:`lacked_colours`: the colours a player seems to lack (it drew on
them).  Search bots sample games consistent with both (:mod:`unokit.determinize`), and public positions
write the known cards (:mod:`unokit.engine.positions`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from unokit.engine.cards import CARD_COLOUR, CARD_IS_WILD, NO_COLOUR
from unokit.engine.events import Event
from unokit.engine.views import View, round_start

__all__ = ["known_cards", "lacked_colours"]


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
