"""``unokit join``: the terminal as a player (or a spectator) in a web room, beside the browsers.

The room is an invite link (``http://HOST:PORT/r/CODE``, as the room's page shows it) or a code and
``--server``; the client (:mod:`unokit.cli.remote`) speaks the browser's WebSocket protocol, so
terminal and browser players share a table, and a dropped connection is resumed as a page resumes.
On a terminal the full-screen table plays it where it is installed (the ``terminal`` extra);
``--plain`` (or output that is not a terminal) prints a transcript and asks for each move, as
``unokit play --plain`` does.

Exit status: 0 at the match's end or when you leave; 1 when the server cannot be reached; 2 for a
bad link, an unknown or full room, or one that has begun without late arrivals.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from unokit.cli.common import Screen, printable
from unokit.cli.play import PLAY_HELP, write_rule_cards
from unokit.cli.remote import JoinError, RemoteSession, parse_target
from unokit.engine.cards import COLOUR_NAMES, NO_COLOUR
from unokit.engine.errors import UnoError
from unokit.i18n import LANGUAGES
from unokit.narrate import card_words, cards_parts, direction_words, plural

if TYPE_CHECKING:
    from unokit.cli.common import Commands

__all__ = ["add_parser", "cmd_join", "play_plain", "play_table", "until_started"]

T = TypeVar("T")

JOIN_HELP = """\
Commands while you play
  help      this text          status    the table again
  say TEXT  a line to the room's chat
  quit      leave the room (the room's bot plays your seat until you join again with the same link)"""


def add_parser(commands: Commands) -> None:
    """The ``join`` command and its options."""
    parser = commands.add_parser(
        "join",
        help="join a web room from the terminal",
        description="Take a seat (or watch) in a room of a unokit web server, beside the players in browsers. "
        "Exit status 1: the server cannot be reached; 2: a bad link, or a room that is unknown, full or begun.",
    )
    parser.add_argument("room", metavar="URL|CODE", help="the room's invite link (http://HOST:PORT/r/CODE) or code")
    parser.add_argument("--server", metavar="URL", help="the server's address, with a room code (http://HOST:PORT)")
    parser.add_argument("--name", help="your name at the table (1 to 24 characters; not needed to spectate)")
    parser.add_argument("--spectate", action="store_true", help="watch the room without a seat")
    parser.add_argument("--plain", action="store_true", help="a plain transcript instead of the full-screen table")
    parser.add_argument("--lang", choices=LANGUAGES, help="the language the server narrates in (default English)")


def cmd_join(args: argparse.Namespace, screen: Screen) -> int:
    try:
        target = parse_target(args.room, args.server)
        if not args.spectate and not (args.name or "").strip():
            raise JoinError("give your name at the table with --name NAME (or watch with --spectate)")
        session = RemoteSession(target, (args.name or "").strip(), spectate=args.spectate, lang=args.lang)
        return asyncio.run(_join(session, screen, plain=args.plain or not _is_terminal(screen)))
    except JoinError as exc:
        print(f"unokit: error: {exc}", file=sys.stderr)
        return exc.status


def _is_terminal(screen: Screen) -> bool:
    try:
        return bool(screen.out.isatty() and screen.inp.isatty())
    except (AttributeError, ValueError):
        return False


async def _join(session: RemoteSession, screen: Screen, plain: bool) -> int:
    await session.open()
    try:
        if not plain and _table_installed(screen):
            return await play_table(session, screen)
        return await play_plain(session, screen)
    finally:
        await session.close()


def _table_installed(screen: Screen) -> bool:
    try:
        importlib.import_module("textual")
        importlib.import_module("unokit.cli.tui.app")
    except ImportError:
        screen.line("Plain play: the full-screen table needs the extra unokit[terminal].")
        return False
    return True


async def play_table(session: RemoteSession, screen: Screen) -> int:
    """The lobby as a transcript (seats, rule cards, the host's start), then the full-screen table."""
    table = importlib.import_module("unokit.cli.tui.app").TableApp  # the terminal extra's
    if not await until_started(session, screen):
        return 0
    session.auto_continue = True  # the table's log tells each round's results
    app = table(session)
    teller = asyncio.get_running_loop().create_task(tell_table(session, app))
    try:
        status = await app.run_async()  # closing the session leaves the room if the match goes on
    finally:
        teller.cancel()
    return status if isinstance(status, int) else 0


async def tell_table(session: RemoteSession, app: Any) -> None:
    """The room's chat in the table's log, as it comes (the table shows the connection's notices itself)."""
    from rich.text import Text

    told = 0
    async for _ in session.changes():
        try:
            app.query_one("#log")
        except Exception:  # the table is not shown yet: told at the next change
            continue
        for message in session.chat[told:]:
            app.log_line(Text(printable(f"{message['name']}: {message['text']}"), style="italic"))
        told = len(session.chat)


async def until_started(session: RemoteSession, screen: Screen) -> bool:
    """The lobby as a transcript until the match begins (True), or until you leave or the room ends for
    you (False)."""
    transcript = _Transcript(session, screen)
    async for _ in session.changes():
        if session.started:
            return True  # what happened from here on is the table's to tell
        transcript.flush()
        if session.ended is not None:
            screen.line(printable(session.ended))
            return False
        if not await transcript.lobby():
            screen.line("You leave the lobby.")
            await session.leave()
            return False
    return session.started


async def in_thread(function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` (a question to the player) in a thread of its own while the room goes on; a daemon
    thread, so that Ctrl-C ends the command at once rather than waiting for a line that may never come."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[T] = loop.create_future()

    def tell(outcome: Callable[[], None]) -> None:
        if not answer.done():
            outcome()

    def run() -> None:
        try:
            value = function(*args)
        except BaseException as exc:
            error = exc
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody is waiting
                loop.call_soon_threadsafe(tell, lambda: answer.set_exception(error))
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(tell, lambda: answer.set_result(value))

    threading.Thread(target=run, daemon=True).start()
    return await answer


class _Transcript:
    """The plain transcript of a room: what happened, the table, and a question for each decision."""

    def __init__(self, session: RemoteSession, screen: Screen) -> None:
        self.session = session
        self.screen = screen
        self.shown = 0
        self.lobby_shown: Any = None
        self.rules_sent = False
        self.start_asked: Any = None
        self.results_read = -1
        self.declined_at = -1
        self.left = False

    def who(self, seat: int) -> str:
        session = self.session
        if seat == session.seat:
            return "you"
        return session.names[seat] if 0 <= seat < len(session.names) else f"seat {seat}"

    def flush(self) -> None:
        """What happened since the last look: events in words, chat, notices and refusals."""
        session = self.session
        for line in session.lines[self.shown :]:
            self.screen.line(printable(line))
        self.shown = len(session.lines)
        while (notice := session.notice()) is not None:
            self.screen.line(notice)
        while session.refusals:
            self.screen.line(f"Refused: {session.refusals.pop(0)}")

    async def ask(self, prompt: str) -> str | None:
        return await in_thread(self.screen.ask, prompt)

    # -- the lobby

    async def lobby(self) -> bool:
        """Show the lobby when it changes; write rule cards and start the match when it is up to this
        seat.  False when you leave."""
        session, screen = self.session, self.screen
        lobby = session.lobby
        if lobby is None:
            return True
        seats = [(s["name"], s["kind"], s.get("ready")) for s in lobby["seats"]]
        if seats != self.lobby_shown:
            self.lobby_shown = seats
            where = f"seat {lobby['you']}" if lobby.get("you") is not None else "watching"
            screen.line(f"Room {lobby['code']}: {lobby['edition']}, {lobby['players']} seats ({where}).")
            for entry in lobby["seats"]:
                state = "open" if entry["kind"] == "open" else entry["kind"]
                host = ", host" if lobby.get("host") == entry["seat"] else ""
                screen.line(f"  {entry['seat']}) {printable(entry['name'])} ({state}{host})")
        cards = lobby.get("rule_cards")
        if cards and session.seat is not None and not self.rules_sent:
            while True:
                texts = await in_thread(write_rule_cards, screen, cards["count"], cards["suggestions"])
                if texts is None:
                    return False
                try:
                    await session.write_rule_cards(texts)
                except UnoError as exc:
                    screen.line(f"Not possible: {exc}. Write them again.")
                    continue
                self.rules_sent = True
                screen.line("Your rule cards are in. Waiting for the host to start.")
                break
        if session.host and self.start_asked != seats:
            self.start_asked = seats
            return await self.offer_start(lobby)
        return True

    async def offer_start(self, lobby: dict[str, Any]) -> bool:
        session, screen = self.session, self.screen
        open_seats = [s["seat"] for s in lobby["seats"] if s["kind"] == "open"]
        unready = [s["name"] for s in lobby["seats"] if s["kind"] == "human" and not s.get("ready")]
        if unready:
            screen.line(f"You host this room: waiting for {', '.join(unready)} to write their rule cards.")
            return True
        bots = f" ({plural(len(open_seats), 'open seat')} filled with bots)" if open_seats else ""
        answer = await self.ask(f"You host this room. Start the match{bots}? (Enter: start, wait: wait, quit) ")
        word = (answer or "quit").strip().lower()
        if word in ("quit", "exit", "q"):
            return False
        if word:
            screen.line("Waiting: you are asked again when the seats change.")
            return True
        try:
            for seat in open_seats:
                await session.send_and_wait({"type": "seat", "seat": seat, "bot": True})
            await session.start()
        except UnoError as exc:
            screen.line(f"Not possible: {exc}")
        return True

    # -- the match

    def show_table(self) -> None:
        session, screen = self.session, self.screen
        view = session.view()
        screen.line()
        colour = f", colour {COLOUR_NAMES[view.colour]}" if view.colour != NO_COLOUR else ""
        screen.line("Top card: ", *card_words(view.top_card), colour)
        screen.line(
            f"Round {view.round}, play goes {direction_words(view.direction)}, draw pile {view.draw_pile_size}, "
            f"turn: {self.who(view.turn)}"
        )
        others = []
        for seat in range(view.players):
            if seat == session.seat:
                continue
            note = " (no UNO called!)" if seat in view.uncalled else ""
            others.append(f"{printable(session.names[seat])} {plural(view.hand_sizes[seat], 'card')}{note}")
        screen.line("Others: " if session.seat is not None else "Seats: ", "; ".join(others))
        if view.scoring not in ("single-round", "knockout"):
            scores = ", ".join(f"{self.who(s)} {score}" for s, score in enumerate(view.scores))
            screen.line(f"Scores: {scores} (target {view.target_score})")
        if session.seat is not None:
            screen.line(f"Your hand ({len(view.hand)}): ", *cards_parts(view.hand))

    def decides_now(self) -> bool:
        """Whether to ask you now: your turn's decision, or an UNO call you may make out of turn
        (catches and jump-ins out of turn are offered with your next question)."""
        session = self.session
        legal = session.legal()
        if not legal or session.seat is None or session.version == self.declined_at or not session.connected:
            return False
        return session.view().actor == session.seat or any(entry["type"] == "call_uno" for entry in legal)

    async def decide(self) -> bool:
        """Ask for one move and send it; False when you leave."""
        session, screen = self.session, self.screen
        view = session.view()
        legal = session.legal()
        in_turn = view.actor == session.seat
        self.show_table()
        asks = session.update["asks"] if session.update is not None else ""
        screen.line((asks[:1].upper() + asks[1:] + ".") if in_turn and asks else "You hold one card: call UNO?")
        width = max(len(entry["action"]) for entry in legal)
        for number, entry in enumerate(legal, 1):
            screen.line(f"  {number:>2}) {entry['action']:<{width}}  {entry['label']}")
        numbers = "1" if len(legal) == 1 else f"1-{len(legal)}"
        prompt = f"Move ({numbers}, notation, help, quit{', Enter to wait' if not in_turn else ''}): "
        version = session.version
        while True:
            answer = await self.ask(prompt)
            if answer is None:
                screen.line("End of input: leaving the room.")
                return False
            self.flush()
            text = answer.strip()
            word = text.lower()
            if not text:
                if not in_turn:
                    self.declined_at = version
                    return True
                screen.line("Type the number of a move or the move itself (help lists them).")
                continue
            if word in ("quit", "exit", "q"):
                return False
            if word in ("help", "h", "?"):
                screen.line(PLAY_HELP.split("\nCommands")[0])
                screen.line(JOIN_HELP)
                continue
            if word in ("status", "table", "hand"):
                if session.version != version:
                    return True  # the table changed: asked again from it
                self.show_table()
                continue
            if word.startswith("say "):
                try:
                    await session.say(text[4:])
                except UnoError as exc:
                    screen.line(f"Not sent: {exc}")
                continue
            if text.isdigit():
                number = int(text)
                if not 1 <= number <= len(legal):
                    screen.line(f"No move {number}: choose from 1 to {len(legal)}.")
                    continue
                text = legal[number - 1]["action"]
            if session.version != version:
                screen.line("The table changed meanwhile: look again.")
                return True
            try:
                action = session.edition().actions.parse(text)
                await session.act(action)
            except UnoError as exc:
                screen.line(f"Not possible: {exc}")
                if session.version != version or not session.connected:
                    return True  # asked again from the table as it is (once the connection is back)
                continue
            return True

    async def results(self) -> bool:
        """The round's results while they hold the next round; Enter goes on.  False when you leave."""
        session = self.session
        self.show_results()
        self.results_read = session.version
        answer = await self.ask("Press Enter for the next round (quit to leave): ")
        if answer is None or answer.strip().lower() in ("quit", "exit", "q"):
            return False
        await session.go_on()
        return True

    def show_results(self) -> None:
        session, screen = self.session, self.screen
        view = session.view()
        if not view.round_results:
            return
        result = view.round_results[-1]
        winner = "nobody" if result.winner < 0 else self.who(result.winner)
        screen.line()
        screen.line(f"Round {result.round} is over: {winner} {'win' if winner == 'you' else 'wins'}.")
        points = ", ".join(f"{self.who(s)} {p}" for s, p in enumerate(result.points) if s in result.seats)
        screen.line(f"Points left in hand: {points}.")
        if view.scoring != "single-round":
            scores = ", ".join(f"{self.who(s)} {score}" for s, score in enumerate(result.scores))
            screen.line(f"Scores: {scores}.")

    def show_end(self) -> None:
        session, screen = self.session, self.screen
        view = session.view()
        self.show_results()
        if view.winner >= 0:
            winner = self.who(view.winner)
            screen.line(f"The match is over: {winner} {'win' if winner == 'you' else 'wins'}.")
        else:
            screen.line("The match is over.")


async def play_plain(session: RemoteSession, screen: Screen) -> int:
    """The room as a transcript, asking for each move of the seat (nothing for a spectator)."""
    transcript = _Transcript(session, screen)
    if session.seat is None and not session.spectate:
        screen.line("The seat you claimed is yours at the next round: watching until then.")
    async for _ in session.changes():
        transcript.flush()
        if session.ended is not None:
            screen.line(printable(session.ended))
            return 0
        if not session.started:
            if not await transcript.lobby():
                break
            continue
        if session.finished:
            transcript.show_end()
            return 0
        reading = session.reading()
        if reading and session.seat in reading["waiting"] and transcript.results_read != session.version:
            if not await transcript.results():
                break
            continue
        if transcript.decides_now() and not await transcript.decide():
            break
    else:
        transcript.flush()
        if session.finished:
            transcript.show_end()
        elif session.ended is not None:
            screen.line(printable(session.ended))
        return 0
    screen.line("You leave the room." if session.started else "You leave the lobby.")
    await session.leave()
    return 0
