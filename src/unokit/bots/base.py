"""What a bot is, and how bots are made by name.

A bot is a player program.  It is only ever given its own :class:`~unokit.engine.views.View`
(which lists its legal actions), never the game, so it cannot read hidden cards.

>>> bot = make_bot("random", seed=1, edition="classic")
>>> bot.name
'random'
>>> "heuristic" in bot_kinds()
True
>>> make_bot("genius", seed=1, edition="classic")
Traceback (most recent call last):
...
unokit.engine.errors.UnknownOptionError: unknown bot kind 'genius'; known: ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from unokit.editions import get_edition
from unokit.engine.actions import INTERRUPT_TYPES, JUMP_TYPES, ActionSpace
from unokit.engine.errors import UnknownOptionError
from unokit.engine.views import View

__all__ = [
    "BOT_KINDS",
    "Bot",
    "BotFactory",
    "bot_kinds",
    "interrupt_actions",
    "jump_actions",
    "make_bot",
    "non_interrupt_actions",
    "register_bot",
]


@runtime_checkable
class Bot(Protocol):
    """A player program.  It sees only its own view (which lists its legal actions) — never the game."""

    name: str

    def choose(self, view: View) -> int:
        """One of ``view.legal_actions`` (never empty when asked)."""
        ...

    def wants_interrupt(self, view: View) -> int | None:
        """Out-of-turn decision while an UNO window is open: an interrupt action
        (call UNO / catch) from ``view.legal_actions``, or ``None`` to let it pass.  While a
        Jump-In window is open (house rule ``jump_in``) it may also return a jump-in."""
        ...


BotFactory = Callable[..., Bot]
"""Called as ``factory(seed=..., edition=..., **options)``."""

_FACTORIES: dict[str, BotFactory] = {}

BOT_KINDS: tuple[str, ...] = ()
"""The registered kinds, in registration order (rebound by :func:`register_bot`; read it
as ``base.BOT_KINDS`` or call :func:`bot_kinds` for the current value)."""


def bot_kinds() -> tuple[str, ...]:
    """The kinds of bot :func:`make_bot` knows now, in registration order."""
    return tuple(_FACTORIES)


def register_bot(kind: str, factory: BotFactory) -> None:
    """Make ``make_bot(kind, ...)`` build bots with ``factory(seed=..., edition=..., **options)``."""
    global BOT_KINDS
    if not isinstance(kind, str) or not kind or kind != kind.strip():
        raise ValueError(f"a bot kind is a non-empty name, not {kind!r}")
    if not callable(factory):
        raise TypeError(f"the factory of bot kind {kind!r} is not callable")
    _FACTORIES[kind] = factory
    BOT_KINDS = tuple(_FACTORIES)


def make_bot(kind: str, seed: int, edition: str, **options: Any) -> Bot:
    """A new bot of ``kind`` for ``edition``, seeded with ``seed``.

    Raises :class:`~unokit.engine.errors.UnknownOptionError` for an unknown kind or edition."""
    factory = _FACTORIES.get(kind) if isinstance(kind, str) else None
    if factory is None:
        raise UnknownOptionError(f"unknown bot kind {kind!r}; known: {', '.join(_FACTORIES)}")
    get_edition(edition)  # refuses an unknown edition
    return factory(seed=seed, edition=edition, **options)


def interrupt_actions(space: ActionSpace, legal: tuple[int, ...]) -> tuple[int, ...]:
    """The call-UNO / catch actions among ``legal``."""
    types = space.types
    return tuple(a for a in legal if types[a] in INTERRUPT_TYPES)


def jump_actions(space: ActionSpace, legal: tuple[int, ...]) -> tuple[int, ...]:
    """The jump-ins (house rule ``jump_in``) among ``legal``."""
    types = space.types
    return tuple(a for a in legal if types[a] in JUMP_TYPES)


def non_interrupt_actions(space: ActionSpace, legal: tuple[int, ...]) -> tuple[int, ...]:
    """The actions among ``legal`` that are not call-UNO / catch."""
    types = space.types
    return tuple(a for a in legal if types[a] not in INTERRUPT_TYPES)
