"""The table session: what the full-screen table shows and how it acts, offline or online.

The table renders one seat's knowledge (a :class:`~unokit.engine.views.View`) and acts through
a :class:`TableSession`, so that the same screen plays offline (:class:`LocalSession`: a local
:class:`~unokit.engine.game.Game` with bots) and online (a web room over WebSocket).

Members every session has (the protocol):

``seat``
    The seat played; ``None``: a spectator.
``names``
    Every seat's display name.
``view()``
    The :class:`View` of ``seat`` now, legal actions included.
``edition()``
    The edition played (its action space formats and parses notation).
``act(action)``
    Applies an action of ``seat``; refuses with :class:`~unokit.engine.errors.UnoError` whose
    message is the reason shown to the player, in the player's words (see :func:`in_your_words`).
``changes()``
    An asynchronous iterator that yields each time the view may have changed (a bot moved, a
    message came from the server), first at once; it ends with the match (or the connection).
``record()``
    The game record so far; ``None`` where the server keeps it.
``close()``
    Stops the bots (or the connection).

Optional members, read with ``getattr`` and a default by the table:

``title`` (str, default the edition's title)
    The line shown above the table (e.g. the room's code online).
``notice()`` (``str | None``, default none)
    A line to show once, e.g. "reconnecting" online; returns ``None`` when there is nothing new.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any, Protocol, runtime_checkable

from unokit.bots.base import Bot
from unokit.cli.common import said_to
from unokit.engine.actions import INTERRUPT_TYPES, JUMP_TYPES, plain_id
from unokit.engine.edition import Edition
from unokit.engine.errors import UnoError
from unokit.engine.game import Game
from unokit.engine.order import fair_order
from unokit.engine.record import to_record
from unokit.engine.views import View

__all__ = ["BOT_DELAY", "LocalSession", "TableSession", "in_your_words"]


@runtime_checkable
class TableSession(Protocol):
    """One seat's table, offline or online (see the module's documentation)."""

    seat: int | None
    names: list[str]

    def view(self) -> View:
        """The view of ``seat`` now (legal actions included)."""
        ...

    def edition(self) -> Edition:
        """The edition played."""
        ...

    async def act(self, action: int) -> None:
        """Apply ``action`` for ``seat``; raises :class:`UnoError` with the reason if it is refused."""
        ...

    def changes(self) -> AsyncIterator[None]:
        """Yields (first at once) each time the view may have changed; ends with the match.

        Implement it as an asynchronous generator (``async def changes(self): ... yield``)."""
        ...

    def record(self) -> dict[str, Any] | None:
        """The game record so far, or ``None`` where the server keeps it."""
        ...

    async def close(self) -> None:
        """Stop playing (bots, connection)."""
        ...


BOT_DELAY = 0.8
"""Seconds a bot waits before each of its moves: the time you have to call UNO or catch first."""


def in_your_words(message: str, seat: int | None, names: Sequence[str], game: Game | None = None) -> str:
    """``message`` (an engine's reason, which names seats by number) said to the player of ``seat``
    (:func:`unokit.cli.common.said_to`), as a sentence of its own.

    >>> in_your_words("seat 0 may not act now: seat 1 is to play", 0, ["Ann", "Bot 1"])
    'You may not act now: Bot 1 is to play'
    """
    text = said_to(message, seat, names, game)
    return text[:1].upper() + text[1:]


class LocalSession:
    """Offline: the player of ``seat`` at a local ``game`` whose other seats are ``bots`` (by seat).

    The bots move on a timer (``delay`` seconds each) in the order of :mod:`unokit.bots.runner`:
    first the out-of-turn calls and catches in the fair order, then the jump-ins in play order,
    then the player to act.  The player may act whenever the game lets them, so a call or a
    catch is a race with the bots."""

    def __init__(
        self,
        game: Game,
        bots: dict[int, Bot],
        seat: int | None = 0,
        names: Sequence[str] | None = None,
        delay: float = BOT_DELAY,
    ) -> None:
        missing = [s for s in range(game.n) if s != seat and s not in bots]
        if missing:
            raise ValueError(f"no bot for seats {missing}")
        self.game = game
        self.bots = bots
        self.seat = seat
        self.names = list(names) if names is not None else [f"Seat {s}" for s in range(game.n)]
        self.delay = delay
        self.title = game.edition.title
        self._changed = asyncio.Event()
        self._acted = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._failure: BaseException | None = None
        self._passed: set[tuple[int, int]] = set()

    def view(self) -> View:
        view: View = self.game.view(self.seat)
        return view

    def edition(self) -> Edition:
        return self.game.edition

    async def act(self, action: int) -> None:
        if self.seat is None:
            raise UnoError("a spectator does not play")
        try:
            self.game.apply(self.seat, action)
        except UnoError as exc:
            raise type(exc)(in_your_words(str(exc), self.seat, self.names, self.game)) from None
        self._acted.set()
        self._changed.set()

    async def changes(self) -> AsyncIterator[None]:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run_bots())
        yield
        while not self.game.is_over:
            await self._changed.wait()
            self._changed.clear()
            if self._failure is not None:
                raise self._failure
            yield

    def record(self) -> dict[str, Any] | None:
        return to_record(self.game, self.names)

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _pause(self) -> bool:
        """Wait ``delay`` seconds; True if the player acted meanwhile (the bots look again)."""
        self._acted.clear()
        try:
            await asyncio.wait_for(self._acted.wait(), self.delay)
        except TimeoutError:
            return False
        return True

    async def _run_bots(self) -> None:
        try:
            while not self.game.is_over:
                if await self._pause():
                    continue
                if self.game.is_over:
                    break
                if not self._bot_moves():
                    self._acted.clear()
                    await self._acted.wait()  # the player's move
        except Exception as exc:  # a bot's failure ends the session's changes with it
            self._failure = exc
        finally:
            self._changed.set()

    def _bot_moves(self) -> bool:
        """Let one bot move if one wants to now; False if it is the player's decision alone."""
        game = self.game
        space = game.actions
        moment = len(game.history)
        deciders = [s for s in game.deciders() if s != self.seat and (s, moment) not in self._passed]
        types = space.types
        if game.exposed:
            for seat in fair_order(game.order_key, game.moves, tuple(deciders)):
                if not any(types[a] in INTERRUPT_TYPES for a in game.legal_actions(seat)):
                    continue
                if self._ask(seat, INTERRUPT_TYPES):
                    return True
        if getattr(game, "jumping", False):
            for step in range(1, game.n):
                seat = (game.actor + game.direction * step) % game.n
                if seat not in deciders or not any(types[a] in JUMP_TYPES for a in game.legal_actions(seat)):
                    continue
                if self._ask(seat, JUMP_TYPES | INTERRUPT_TYPES):
                    return True
        actor = game.actor
        if actor == self.seat or actor not in self.bots:
            return False
        view = game.view(actor)
        self._apply(actor, self.bots[actor].choose(view), view)
        return True

    def _ask(self, seat: int, kinds: frozenset[Any]) -> bool:
        view = self.game.view(seat)
        ask = getattr(self.bots[seat], "wants_interrupt", None)
        action = ask(view) if ask is not None else None
        chosen = plain_id(action)
        if action is None or (type(chosen) is int and chosen in view.legal_actions and self._kind(chosen) not in kinds):
            self._passed.add((seat, len(self.game.history)))  # a bot that lets this moment pass
            return False
        self._apply(seat, action, view)
        return True

    def _kind(self, action: int) -> Any:
        return self.game.actions.types[action]

    def _apply(self, seat: int, action: object, view: View) -> None:
        action = plain_id(action)
        if type(action) is not int or action not in view.legal_actions:
            raise RuntimeError(f"the bot at seat {seat} chose {action!r}, not a legal action")
        self.game.apply(seat, action)
        self._changed.set()
