"""How long an environment lets a round run before it truncates the episode.

Every round ends under the rules (a blocked round is settled, see docs/rules.md), but a learner can
still make one very long; environments therefore truncate an episode once a round has taken
``max_round_decisions`` decisions (every seat's, waits out of turn included).  The default is far
above what real play needs, so that it only stops degenerate play.
"""

from __future__ import annotations

from unokit.engine.errors import UnknownOptionError

__all__ = ["ILLEGAL_ACTION_CHOICES", "MAX_ROUND_DECISIONS", "check_cap", "check_illegal_action"]

MAX_ROUND_DECISIONS = 10_000
"""The default cap on decisions in one round after which an environment truncates."""


def check_cap(name: str, value: int | None) -> int | None:
    """``value`` if it is a positive integer or ``None``; :class:`UnknownOptionError` naming ``name`` otherwise."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise UnknownOptionError(f"{name} must be a positive integer or None, not {value!r}")
    return value


ILLEGAL_ACTION_CHOICES = ("lose", "raise")
"""What an illegal action does: end the episode, the offender losing (the default), or raise,
changing nothing."""


def check_illegal_action(value: str) -> str:
    """``value`` if it is one of :data:`ILLEGAL_ACTION_CHOICES`; :class:`UnknownOptionError` otherwise."""
    if value not in ILLEGAL_ACTION_CHOICES:
        raise UnknownOptionError(f"illegal_action must be one of {', '.join(ILLEGAL_ACTION_CHOICES)}, not {value!r}")
    return value
