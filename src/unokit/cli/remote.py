"""A seat (or a spectator's chair) in a web room, over the game WebSocket the browser uses.

:class:`RemoteSession` speaks the web protocol (``docs/web.md``; every client message and its
fields: ``unokit.web.protocol.MESSAGES``) as the browser's ``connection.js`` does: the first
message of a socket joins, spectates, or resumes the seat with its secret and the last version
read; a socket that drops is opened again with back-off (0.4 s doubling up to 10 s, give or take a
fifth) and the seat resumed, so the game goes on.  Each ``update``'s view is rebuilt into a
:class:`~unokit.engine.views.View` (:meth:`View.from_dict`) whose history is the events received so
far, and actions are sent in notation with the version they were chosen at.

It implements the table session of :mod:`unokit.cli.tui.session` (``TableSession``), plus what a
room has and a local game has not: the lobby, chat, the narrated events and the round results.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlsplit

from unokit.editions import get_edition
from unokit.engine.edition import Edition
from unokit.engine.errors import IllegalActionError, UnoError
from unokit.engine.events import Event
from unokit.engine.views import History, View

__all__ = ["JoinError", "RemoteSession", "Target", "parse_target"]

PING_SECONDS = 25.0
"""How often an idle socket is pinged (as the browser does), so that proxies keep it open."""
ANSWER_SECONDS = 10.0
"""How long an action waits for the server's answer before it is said to be unanswered."""
OPEN_SECONDS = 10.0
"""How long opening a socket may take."""
_CODE = re.compile(r"[A-Za-z0-9]{1,16}")


class JoinError(Exception):
    """The room could not be joined: ``status`` is the exit status (1: the network, 2: the room or the input)."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Target:
    """Where a room is: the game socket's address and the room's code."""

    socket: str
    code: str


def parse_target(target: str, server: str | None) -> Target:
    """The room of an invite link (``http://host:port/r/CODE``, as the web page writes it), or of a
    room code and ``server`` (``http://host:port``, ``https://...``, or the socket's ``ws://host:port/ws``).

    >>> parse_target("http://192.168.1.20:8000/r/ABCD2345", None)
    Target(socket='ws://192.168.1.20:8000/ws', code='ABCD2345')
    >>> parse_target("abcd2345", "https://uno.example")
    Target(socket='wss://uno.example/ws', code='ABCD2345')
    """
    text = target.strip()
    if "://" in text:
        parts = urlsplit(text)
        match = re.fullmatch(r"/r/([A-Za-z0-9]{1,16})/?", parts.path)
        if match is None:
            raise JoinError(f"{target!r} is no invite link: it ends in /r/CODE (the link the room's page shows)")
        if server is not None:
            raise JoinError("give either an invite link or a room code with --server, not both")
        return Target(_socket_address(f"{parts.scheme}://{parts.netloc}", target), match[1].upper())
    if _CODE.fullmatch(text) is None:
        raise JoinError(f"{target!r} is neither an invite link (http://HOST:PORT/r/CODE) nor a room code")
    if server is None:
        raise JoinError("a room code needs the server's address: --server http://HOST:PORT")
    return Target(_socket_address(server, server), text.upper())


def _socket_address(base: str, given: str) -> str:
    parts = urlsplit(base.strip())
    schemes = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}
    try:
        port = parts.port
    except ValueError:
        port = -1
    if parts.scheme.lower() not in schemes or not parts.hostname or port == -1:
        raise JoinError(f"{given!r} is no server address: give http://HOST:PORT or https://HOST")
    if parts.path not in ("", "/", "/ws") or parts.query or parts.fragment:
        raise JoinError(f"{given!r} is no server address: a server's address has no path")
    return f"{schemes[parts.scheme.lower()]}://{parts.netloc}/ws"


@dataclass
class _Pending:
    """An action sent and the ping after it: its refusal, if one came before the pong."""

    ping: int
    refusal: str | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)


class RemoteSession:
    """A player's seat (or a spectator) in the room ``target.code`` of a web server, named ``name``.

    :meth:`open` connects and joins (raising :class:`JoinError` with one line); then
    :meth:`changes` yields at every message that may change what is shown, :meth:`view` is the seat's
    view once the match has begun (:attr:`started`), :meth:`act` sends an action and waits for the
    server's answer.  The lobby (:attr:`lobby`), chat lines (:attr:`chat`) and the events in words
    (:attr:`lines`) are kept as they come."""

    def __init__(self, target: Target, name: str, *, spectate: bool = False, lang: str | None = None) -> None:
        self.target = target
        self.name = name
        self.spectate = spectate
        self.lang = lang
        self.seat: int | None = None
        self.names: list[str] = []
        self.title = f"Room {target.code}"
        self.secret: str | None = None
        self.host = False
        self.version = 0
        self.events: list[Event] = []
        """Every event of the match so far, as redacted for this seat."""
        self.lines: list[str] = []
        """Every event so far in words (as the server narrates them for this seat), and the chat."""
        self.chat: list[dict[str, Any]] = []
        self.lobby: dict[str, Any] | None = None
        self.update: dict[str, Any] | None = None
        """The last ``update`` (``None`` in the lobby)."""
        self.views: list[View] = []
        """Every view received, in order."""
        self.reconnections = 0
        self.ended: str | None = None
        """Why the room ended for this client (``None`` while it goes on): removed, left, moved."""
        self.auto_continue = False
        """Whether a round's results are marked read at once (the full-screen table shows them in its log)."""
        self.refusals: list[str] = []
        """Errors the server sent that no action of :meth:`act` waited for (e.g. a refused rule card)."""
        self._edition: Edition | None = None
        self._view: View | None = None
        self._ws: Any = None
        self._changed = asyncio.Event()
        """Set at the next change (and then replaced): every reader of :meth:`changes` wakes."""
        self._changes = 0
        self._welcomed = asyncio.Event()
        self._closing = False
        self._reader: asyncio.Task[None] | None = None
        self._notices: list[str] = []
        self._pings = 0
        self._pongs = 0
        self._pending: _Pending | None = None
        self._first_error: tuple[str, str] | None = None
        self._tasks: set[asyncio.Task[bool]] = set()
        self._resuming = False
        """Whether a ``resume`` was sent on a new socket and not yet welcomed."""

    # -- the table session

    @property
    def started(self) -> bool:
        """Whether the match has begun (an ``update`` came)."""
        return self._view is not None

    @property
    def connected(self) -> bool:
        """Whether the socket is open (else it is being opened again)."""
        return self._ws is not None

    @property
    def finished(self) -> bool:
        """Whether the match is over."""
        return self.update is not None and bool(self.update["finished"])

    def view(self) -> View:
        if self._view is None:
            raise UnoError("the match has not begun")
        return self._view

    def edition(self) -> Edition:
        if self._edition is None:
            raise UnoError("the match has not begun")
        return self._edition

    async def act(self, action: int) -> None:
        """Send ``action`` (an id of the edition's action space) at the version shown; raises
        :class:`IllegalActionError` with the server's reason if it is refused."""
        if self.seat is None:
            raise IllegalActionError("a spectator does not play")
        notation = self.edition().actions.format(action)
        await self.send_and_wait({"type": "act", "action": notation, "version": self.version})

    async def send_and_wait(self, message: dict[str, Any]) -> None:
        """Send ``message`` and a ping after it: the server answers in order, so an ``error`` that comes
        before the ``pong`` is its refusal (raised as :class:`IllegalActionError`)."""
        if self._pending is not None:
            raise IllegalActionError("the previous move is still on its way")
        if not await self._send(message):
            raise IllegalActionError("not sent: the connection to the server is lost (reconnecting)")
        self._pings += 1
        pending = self._pending = _Pending(self._pings)
        try:
            if not await self._send({"type": "ping"}):
                raise IllegalActionError("the connection to the server was lost: look at the table again")
            try:
                await asyncio.wait_for(pending.done.wait(), ANSWER_SECONDS)
            except TimeoutError:
                raise IllegalActionError("the server did not answer: look at the table again") from None
        finally:
            self._pending = None
        if pending.refusal is not None:
            raise IllegalActionError(pending.refusal)

    async def changes(self) -> AsyncIterator[None]:
        """Yields at once, then after each message that may change the table; ends with the match (or
        when the room ends for this client).  Several readers may follow it at once (the table and its chat)."""
        seen = self._changes
        yield
        while not self.finished and self.ended is None:
            if self._changes == seen:
                await self._changed.wait()
            seen = self._changes
            yield

    def record(self) -> dict[str, Any] | None:
        return None  # the server keeps the record (the results' replay link)

    def notice(self) -> str | None:
        """A line to show once (a dropped connection, a reconnection), or ``None``."""
        return self._notices.pop(0) if self._notices else None

    async def close(self) -> None:
        """Leave the room if the match goes on (the room's bot plays the seat at once), and close the socket."""
        if self.seat is not None and self.ended is None and not self.finished and self.started:
            await self._send({"type": "leave"})
        self._closing = True
        reader, self._reader = self._reader, None
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if reader is not None and not reader.done():
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader

    # -- what a room has besides the table

    async def start(self) -> None:
        """The host starts the match; refusals raised with the server's words."""
        await self.send_and_wait({"type": "start"})

    async def write_rule_cards(self, texts: list[str]) -> None:
        """UNO Wild Jackpot: this seat's rule cards; a refused text raised with the reason."""
        await self.send_and_wait({"type": "rule_cards", "texts": texts})

    async def leave(self) -> None:
        """Leave the room (during a match the room's bot plays the seat until it is resumed)."""
        with contextlib.suppress(UnoError):
            await self.send_and_wait({"type": "leave"})

    async def go_on(self) -> None:
        """The round's results are read (``continue``)."""
        await self._send({"type": "continue"})

    async def say(self, text: str) -> None:
        """A chat line to the room; refusals raised with the server's words."""
        await self.send_and_wait({"type": "chat", "text": text})

    def legal(self) -> list[dict[str, Any]]:
        """The seat's legal actions as the last ``update`` lists them (notation, words, kind)."""
        return list(self.update["legal"]) if self.update is not None else []

    def reading(self) -> dict[str, Any] | None:
        """While a round's results hold the next round: who is still reading and for how long."""
        return self.update.get("reading") if self.update is not None else None

    # -- the connection

    async def open(self) -> None:
        """Connect and join (or spectate); :class:`JoinError` with one line if that fails."""
        await self._connect(first=True)
        self._reader = asyncio.get_running_loop().create_task(self._keep_reading())
        try:
            await asyncio.wait_for(self._welcomed.wait(), OPEN_SECONDS)
        except TimeoutError:
            await self.close()
            raise JoinError("the server did not answer the join", 1) from None
        if self._first_error is not None:
            await self.close()
            code, words = self._first_error
            raise JoinError(_refusal_words(code, words, self.target.code))

    async def drop(self) -> None:
        """Close the socket under the session (as a network failure would): it reconnects and resumes."""
        if self._ws is not None:
            self._ws.transport.abort()

    def _hello(self) -> dict[str, Any]:
        if self.secret is not None:
            hello: dict[str, Any] = {
                "type": "resume",
                "code": self.target.code,
                "secret": self.secret,
                "version": self.version,
            }
        elif self.spectate:
            hello = {"type": "spectate", "code": self.target.code, "version": self.version}
        else:
            hello = {"type": "join", "code": self.target.code, "name": self.name}
        if self.lang is not None:
            hello["lang"] = self.lang
        return hello

    async def _connect(self, first: bool = False) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidHandshake, InvalidStatus, InvalidURI

        try:
            self._ws = await connect(self.target.socket, open_timeout=OPEN_SECONDS, max_size=2**24, ping_interval=None)
        except InvalidStatus as exc:
            status = exc.response.status_code
            raise JoinError(f"the server at {self.target.socket} refused the connection (HTTP {status})", 1) from None
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as exc:
            reason = str(exc) or type(exc).__name__
            raise JoinError(f"cannot reach the server at {self.target.socket}: {reason}", 1) from None
        self._pongs = self._pings  # pings of a former socket are answered by none
        await self._ws.send(json.dumps(self._hello()))

    async def _send(self, message: dict[str, Any]) -> bool:
        ws = self._ws
        if ws is None:
            return False
        try:
            await ws.send(json.dumps(message))
        except Exception:  # closed under us: the reader reconnects
            return False
        return True

    async def _keep_reading(self) -> None:
        attempt = 0
        while not self._closing:
            ws = self._ws
            pinger = asyncio.get_running_loop().create_task(self._ping(ws))
            try:
                async for text in ws:
                    attempt = 0
                    self._receive(json.loads(text))
            except Exception:  # the socket dropped
                pass
            finally:
                pinger.cancel()
            self._ws = None
            if self._pending is not None:
                self._pending.refusal = "the connection to the server was lost: look at the table again"
                self._pending.done.set()
            if self._closing or self.ended is not None or self.finished or not self._welcomed.is_set():
                self._welcomed.set()
                self._touch()
                return
            if self._first_error is not None:
                return
            self._notices.append("Connection lost: reconnecting…")
            self._touch()
            while not self._closing:
                await asyncio.sleep(min(10.0, 0.4 * 2**attempt) * (0.8 + random.random() * 0.4))
                attempt += 1
                try:
                    await self._connect()
                except JoinError:
                    continue
                self.reconnections += 1
                self._resuming = True
                self._notices.append("Reconnected: the game goes on.")
                break

    async def _ping(self, ws: Any) -> None:
        while True:
            await asyncio.sleep(PING_SECONDS)
            self._pings += 1
            with contextlib.suppress(Exception):
                await ws.send(json.dumps({"type": "ping"}))

    def _receive(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "welcome":
            self.seat = None if message.get("claimed") else message["seat"]  # a late arrival's: from the next round
            self.host = bool(message.get("host"))
            if message.get("secret"):
                self.secret = message["secret"]
            self._resuming = False
            self._welcomed.set()
        elif kind == "lobby":
            self.lobby = message
            self.host = message.get("host") is not None and message.get("host") == message.get("you")
            self.names = [seat["name"] for seat in message["seats"]]
        elif kind == "update":
            self._take_update(message)
        elif kind == "chat":
            self.chat.append(message)
            self.lines.append(f"{message['name']}: {message['text']}")
        elif kind == "chat_history":
            for line in message["messages"]:
                if all(line["id"] != seen["id"] for seen in self.chat):
                    self.chat.append(line)
                    self.lines.append(f"{line['name']}: {line['text']}")
        elif kind == "pong":
            self._pongs += 1
            if self._pending is not None and self._pongs >= self._pending.ping:
                self._pending.done.set()
        elif kind == "error":
            words = str(message.get("message", ""))
            if not self._welcomed.is_set():
                self._first_error = (str(message.get("code")), words)
                self._welcomed.set()
            elif self._resuming and message.get("code") in ("forbidden", "not-found"):
                self.ended = f"The room cannot be resumed: {words}"  # e.g. the seat was given away meanwhile
            elif self._pending is not None and self._pending.refusal is None:
                self._pending.refusal = self._your_words(words)
            else:
                self.refusals.append(self._your_words(words))
        elif kind in ("removed", "left"):
            self.ended = str(message.get("message") or "You left the room.")
        elif kind == "moved":
            self.ended = "The rematch goes on in another room: open it from the browser, or join " + str(
                message.get("code")
            )
        self._touch()

    def _take_update(self, message: dict[str, Any]) -> None:
        version = int(message["version"])
        entries = message["events"]
        first = version - len(entries)  # the index of the first event sent (0: a full resync)
        if first > len(self.events):  # events missed (never expected): ask for them
            self._tasks.add(
                asyncio.get_running_loop().create_task(self._send({"type": "sync", "version": len(self.events)}))
            )
            entries = []
        else:
            entries = entries[len(self.events) - first :]  # those already read left out
        for entry in entries:
            self.events.append(_event_of(entry))
            if entry.get("text"):
                self.lines.append(entry["text"])
        self.version = version
        self.update = message
        self.names = [seat["name"] for seat in message["seats"]]
        if message["you"] is not None:
            self.seat = message["you"]
        data = message["view"]
        if self._edition is None or self._edition.name != data["edition"]:
            self._edition = get_edition(data["edition"])
        reading = message.get("reading")
        if self.auto_continue and reading and self.seat in reading["waiting"]:
            self._later(self._send({"type": "continue"}))
        view = View.from_dict(data)
        self._view = replace(view, history=History(self.events, len(self.events)))
        self.views.append(self._view)

    def _touch(self) -> None:
        """Wake every reader of :meth:`changes`."""
        self._changes += 1
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    def _later(self, sending: Coroutine[Any, Any, bool]) -> None:
        """Send from a message handler (which cannot wait)."""
        task = asyncio.get_running_loop().create_task(sending)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _your_words(self, words: str) -> str:
        from unokit.cli.tui.session import in_your_words

        return in_your_words(words, self.seat, self.names)


def _event_of(entry: dict[str, Any]) -> Event:
    from unokit.engine.cards import parse_card

    if "scores" in entry:
        items = tuple(int(s) for s in entry["scores"])
    elif "seats" in entry:
        items = tuple(int(s) for s in entry["seats"])
    else:
        items = tuple(parse_card(c) for c in entry.get("cards", ()))
    return (str(entry["kind"]), int(entry["seat"]), int(entry["value"]), items)


def _refusal_words(code: str, words: str, room: str) -> str:
    """A refused join in one line."""
    if code == "not-found":
        return f"no room {room} on this server (the link may be old, or the room over)"
    if code == "full":
        return f"room {room} is full: every seat is taken (join with --spectate to watch)"
    if code == "started":
        return f"room {room} has begun and takes no late arrivals (join with --spectate to watch)"
    return f"the server refused to let you in: {words}"
