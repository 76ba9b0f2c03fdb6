"""Phases (what the actor is asked) and pending operations (what the engine runs next), by number.

The engine's own come first; an edition numbers its phases from :data:`EDITION_PHASES` and its
operations from :data:`EDITION_OPS`, the house rules theirs from :data:`HOUSE_PHASES` and
:data:`HOUSE_OPS`.
"""

from __future__ import annotations

# Phases: what the actor is asked.
TURN = 0
DRAWN = 1
COLOUR = 2
CHALLENGE = 3
DISCARD = 4
TARGET = 5
OVER = 6
EDITION_PHASES = 7
"""Phases from this number on belong to an edition (see :meth:`Edition.actor_actions`)."""
HOUSE_PHASES = 40
"""Phases from this number on belong to the house rules (:mod:`unokit.editions.house`)."""
HOUSE_PHASE_NAMES = ("stack", "multi")
HOUSE_PHASE_ASKS = (
    "stack a draw card or draw the penalty",
    "play another card of the same number or end {their} turn",
)
PHASE_NAMES = ("turn", "drawn", "colour", "challenge", "discard", "target", "over")

# Pending operations, run in stack order until one asks for a decision.
OP_END_TURN = 0  # seat ends the turn; arg = players skipped
OP_COLOUR = 1  # seat chooses a colour
OP_DRAW = 2  # seat draws arg cards
OP_CHALLENGE = 3  # seat may challenge the Wild Draw Four of seat arg
OP_DISCARD = 4  # seat discards arg cards of their choice
OP_TARGET = 5  # seat chooses a target for the card of kind arg
OP_END_ROUND = 6  # the round ends
OP_BEGIN = 7  # seat begins a turn
OP_JAM = 8  # seat drops a Wild Welcome to the Jam card
OP_NAMES = ("end_turn", "colour", "draw", "challenge", "discard", "target", "end_round", "begin", "jam")
"""The engine's operations by number, as positions write them (:mod:`unokit.engine.positions`)."""
HOUSE_OPS = 40
"""Operation codes from this number on belong to the house rules (:mod:`unokit.editions.house`)."""
HOUSE_OP_NAMES = ("stack",)
"""The house rules' operations, numbered from :data:`HOUSE_OPS`."""
EDITION_OPS = 20
"""Operation codes from this number on belong to an edition (see :meth:`Edition.run_op`)."""
