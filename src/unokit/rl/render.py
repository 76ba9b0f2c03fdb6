"""The table in words, as the environments render it (``render_mode="ansi"`` and ``"human"``).

>>> from unokit.engine.game import Game
>>> game = Game("classic", 2, seed=1)
>>> print(table_text(game, game.actor, ["player_0", "player_1"], "turn"))  # doctest: +ELLIPSIS
Classic UNO, round 1: play goes clockwise, draw pile 93.
...
"""

from __future__ import annotations

from collections.abc import Sequence

from unokit.engine.cards import COLOUR_NAMES, NO_COLOUR, card_name
from unokit.engine.game import Game
from unokit.narrate import Narrator, direction_words, plain, plural

__all__ = ["table_text"]

RECENT_EVENTS = 6
"""Events told at the top of a rendering."""


def table_text(game: Game, seat: int | None, names: Sequence[str], asked: str = "") -> str:
    """The public table, the hand of ``seat`` (the player asked; ``None``: nobody's hand) and what
    ``seat`` is asked (``asked``: ``"turn"`` or ``"out of turn"``)."""
    view = game.view(seat)
    narrator = Narrator(names, you=None, scoring=game.scoring, edition=game.edition.name)
    narrator.learn(view.public)
    lines = [f"{game.edition.title}, round {view.round}: play goes {direction_words(view.direction)}, "]
    lines[0] += f"draw pile {view.draw_pile_size}."
    told = [plain(narrator.event(event)) for event in view.history[-RECENT_EVENTS:]]
    lines += [f"  {line}" for line in told if line]
    colour = f", colour {COLOUR_NAMES[view.colour]}" if view.colour != NO_COLOUR else ""
    lines.append(f"Top card: {card_name(view.top_card)}{colour}.")
    for other in range(view.players):
        notes = []
        if other in view.uncalled:
            notes.append("has not called UNO")
        if other in view.called:
            notes.append("called UNO")
        if other in view.state.get("knocked", ()):
            notes.append("out of the match")
        elif other in view.state.get("out", ()):
            notes.append("out of the round")
        if view.teams:
            notes.append(f"team {'AB'[view.teams[other]]}")
        note = f" ({', '.join(notes)})" if notes else ""
        lines.append(f"{names[other]}: {plural(view.hand_sizes[other], 'card')}, score {view.scores[other]}{note}")
    if game.is_over:
        lines.append(f"The match is over: {names[game.winner]} wins.")
    elif seat is not None:
        hand = " ".join(card_name(card) for card in view.hand) or "no cards"
        lines.append(f"{names[seat]} holds {hand}.")
        legal = " ".join(game.actions.format(action) for action in view.legal_actions)
        if asked == "out of turn":
            lines.append(f"{names[seat]} may act out of turn ({legal}) or wait.")
        else:
            lines.append(f"{names[seat]} is to {game.asks()}: {legal}.")
    return "\n".join(lines)
