"""Bots: player programs that see only their own view, and a runner for matches between them.

>>> from unokit.bots import make_bot, play_game
>>> bots = [make_bot("heuristic", seed=1, edition="classic"), make_bot("random", seed=2, edition="classic")]
>>> play_game("classic", bots, seed=3, rules={"scoring": "single-round"}).winner in (0, 1)
True
"""

from __future__ import annotations

import importlib.util
from typing import Any

from unokit.bots import base
from unokit.bots.base import Bot, BotFactory, bot_kinds, make_bot, register_bot
from unokit.bots.heuristic import HeuristicBot
from unokit.bots.ismcts import IsmctsBot
from unokit.bots.random_bot import RandomBot
from unokit.bots.runner import GameResult, play_game, play_match
from unokit.bots.weights import learned_tables

# The built-in kinds, in this order; other modules register theirs when imported below.
register_bot("random", RandomBot)
register_bot("heuristic", HeuristicBot)
register_bot("ismcts", IsmctsBot)


def _learned_bot(**options: Any) -> Bot:
    from unokit.bots.learned import LearnedBot  # numpy, imported only when a learned bot is made

    return LearnedBot(**options)


# The learned policy ships (and "learned" is a kind) only with weights that beat the heuristic
# (docs/rl.md, "Self-play training"); it needs numpy.
def _has_numpy() -> bool:
    try:
        return importlib.util.find_spec("numpy") is not None
    except ImportError:
        return False


if learned_tables() and _has_numpy():
    register_bot("learned", _learned_bot)

__all__ = [
    "BOT_KINDS",
    "Bot",
    "BotFactory",
    "GameResult",
    "HeuristicBot",
    "IsmctsBot",
    "RandomBot",
    "bot_kinds",
    "make_bot",
    "play_game",
    "play_match",
    "register_bot",
]


def __getattr__(name: str) -> tuple[str, ...]:
    # BOT_KINDS is read live, so kinds registered by modules imported later appear.
    if name == "BOT_KINDS":
        return base.BOT_KINDS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
