"""How long an environment lets a round run before it truncates the episode.

Every round ends under the rules (a blocked round is settled, see docs/rules.md), but a learner can
still make one very long; environments therefore truncate an episode once a round has taken
``max_round_decisions`` decisions (every seat's, waits out of turn included).  The default is far
above what real play needs, so that it only stops degenerate play.
"""

from __future__ import annotations

__all__ = ["MAX_ROUND_DECISIONS"]

MAX_ROUND_DECISIONS = 10_000
"""The default cap on decisions in one round after which an environment truncates."""
