"""The full-screen table: one seat's game (a :class:`~unokit.cli.tui.session.TableSession`) in Textual."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.events import Key, Resize
from textual.screen import ModalScreen
from textual.widgets import Footer, Header, RichLog, Static

from unokit.cli.tui.cards import card_chip, colour_chip, parts_text
from unokit.cli.tui.dialogs import ChoiceScreen, ConfirmScreen, HelpScreen, MessageScreen, RuleCardsScreen
from unokit.cli.tui.session import TableSession
from unokit.cli.tui.widgets import CentrePanel, HandPanel, SeatsPanel
from unokit.editions import rulecards
from unokit.editions.wild_jackpot import TARGET_OF_RULE, TARGET_PERFORMER
from unokit.engine.actions import ActionType
from unokit.engine.cards import COLOUR_NAMES, Kind, card_long_name
from unokit.engine.errors import UnoError
from unokit.engine.record import dumps
from unokit.engine.views import View
from unokit.narrate import Narrator, describe_action, plural

__all__ = ["NARROW", "TableApp", "save_record"]

NARROW = 110
"""Below this many columns the log goes under the table instead of beside it."""

ROOMY = 34
"""From this many lines (and :data:`NARROW` columns) the seats, the middle and your hand are framed."""
CARD_MOVES = (
    ActionType.PLAY,
    ActionType.PLAY_UNO,
    ActionType.JUMP,
    ActionType.JUMP_UNO,
    ActionType.DISCARD,
    ActionType.GIVE,
)
"""The moves made with a card of your hand (Enter on the selected card)."""
DIALOG_PHASES = ("colour", "challenge", "target", "honour", "stack")
"""The decisions asked in a dialog rather than with your hand."""
THEMES = ("textual-dark", "textual-light")


def save_record(record: dict[str, Any] | None, path: str) -> None:
    """Write ``record`` (if any) to ``path``."""
    if record is not None:
        Path(path).write_text(dumps(record), encoding="utf-8")


class _Shim:
    """What :func:`unokit.narrate.describe_action` reads of a game, from a view (the game may be remote)."""

    def __init__(self, session: TableSession, view: View) -> None:
        self.actions = session.edition().actions
        self.rules = view.rules
        self.edition = session.edition()


class TableApp(App[int]):
    """The table of ``session`` (or of the session ``start`` makes from the rule cards you write first:
    ``rule_cards`` = (how many, suggestions)); the record is written to ``record_path`` on leaving and at
    the end.  The app's result is the exit status: 0, or 130 after Ctrl-C."""

    CSS_PATH = "table.tcss"
    TITLE = "unokit"
    BINDINGS = [
        Binding("left", "select(-1)", "Card", show=False),
        Binding("right", "select(1)", "Card", show=False),
        Binding("enter", "play", "Play"),
        Binding("d", "draw", "Draw"),
        Binding("p", "pass_turn", "Pass"),
        Binding("u", "uno", "UNO"),
        Binding("c", "catch", "Catch"),
        Binding("m", "moves", "Moves"),
        Binding("h", "hint", "Hint", show=False),
        Binding("t", "toggle_theme", "Theme"),
        Binding("f1,question_mark", "help", "Help"),
        Binding("q,ctrl+q", "leave", "Quit", priority=True),
        Binding("ctrl+c", "interrupt", "Leave now", show=False, priority=True),
    ]

    def __init__(
        self,
        session: TableSession | None = None,
        *,
        start: Callable[[list[str] | None], TableSession] | None = None,
        rule_cards: tuple[int, Sequence[str]] | None = None,
        record_path: str | None = None,
        hints: bool = False,
        theme: str = "textual-dark",
    ) -> None:
        super().__init__()
        if session is None and start is None:
            raise ValueError("a table needs a session or a way to start one")
        self.session = session
        self.start = start
        self.rule_cards = rule_cards
        self.record_path = record_path
        self.hints = hints
        self.theme = theme
        self.narrator: Narrator | None = None
        self.seen = 0
        self.uno_armed = False
        self.reason: str | None = None
        self.asked: tuple[int, str] | None = None
        """The moment (events so far, phase) whose dialog is open or was answered."""
        self.saved_to: str | None = None
        self.turn_seen = -1
        self.finished = False

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="body"):
            with VerticalScroll(id="table"):
                seats = SeatsPanel(id="seats")
                seats.border_title = "Players"
                yield seats
                centre = CentrePanel(id="centre")
                centre.border_title = "Table"
                yield centre
                yield Static(id="situation")
                yield HandPanel(id="hand")
            yield RichLog(id="log", wrap=True, markup=False, highlight=False, min_width=20)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.layout_for(self.size.width, self.size.height)
        if self.session is None and self.rule_cards is not None:
            count, suggestions = self.rule_cards
            self.push_screen(RuleCardsScreen(count, suggestions), self.rules_written)
            return
        self.begin()

    def on_resize(self, event: Resize) -> None:
        self.layout_for(event.size.width, event.size.height)

    def layout_for(self, width: int, height: int | None = None) -> None:
        """The log beside the table, or under it below :data:`NARROW` columns; the panels framed when
        there is room (:data:`ROOMY` lines)."""
        height = self.size.height if height is None else height
        for node in self.query("#body"):
            node.set_class(width < NARROW, "narrow")
            node.set_class(width >= NARROW and height >= ROOMY, "roomy")

    @property
    def dark(self) -> bool:
        return bool(self.current_theme.dark)

    def rules_written(self, texts: list[str] | None) -> None:
        if texts is None:
            self.exit(
                0,
                message="You leave the game"
                + (": no record saved, the match had not begun." if self.record_path else "."),
            )
            return
        self.log_line(Text(f"Your rule cards: {'; '.join(texts)}"))
        self.begin(texts)

    def begin(self, rule_texts: list[str] | None = None) -> None:
        if self.session is None:
            assert self.start is not None
            self.session = self.start(rule_texts)
        session = self.session
        view = session.view()
        self.narrator = Narrator(session.names, you=session.seat, scoring=view.scoring, edition=view.edition)
        title = getattr(session, "title", session.edition().title)
        self.title = title
        you = "a spectator" if session.seat is None else f"you are {session.names[session.seat]}"
        self.sub_title = f"{you} · F1 help"
        self.show()
        self.follow()

    @work(exclusive=True, group="changes")
    async def follow(self) -> None:
        """Redraw each time the session says the view may have changed; at the match's end, tell it."""
        assert self.session is not None
        try:
            async for _ in self.session.changes():
                self.show()
        except Exception as exc:  # the session ended with a failure: say it, keep what was played
            self.log_line(Text(f"The game stopped: {exc}", style="bold"))
            self.reason = f"The game stopped: {exc}"
            self.show_situation(self.session.view())
            return
        self.show()
        self.match_over()

    def match_over(self) -> None:
        assert self.session is not None
        view = self.session.view()
        if view.winner < 0:
            self.push_screen(MessageScreen("The game ended", "The connection to the game ended."))
            return
        self.finished = True
        self.save()
        winner = self.session.names[view.winner]
        won = "You win the match!" if view.winner == self.session.seat else f"{winner} wins the match."
        body = won + (f"\nRecord saved to {self.record_path}." if self.record_path else "")
        body += "\nPress Enter, then q to leave."
        self.push_screen(MessageScreen("Match over", body))

    # ------------------------------------------------------------------ drawing

    def show(self) -> None:
        if self.session is None:
            return
        session = self.session
        view = session.view()
        self.narrate(view)
        notice = getattr(session, "notice", None)
        said = notice() if callable(notice) else None
        if said:
            self.log_line(Text(said, style="italic"))
            self.notify(said)
        self.query_one(SeatsPanel).show(view, session.names, session.seat)
        self.query_one(CentrePanel).show(view, self.dark)
        hand = self.query_one(HandPanel)
        playable = self.playable(view)
        hand.watching = session.seat is None
        hand.show(view.hand, playable, self.dark)
        moment = len(view.history)
        if view.actor == session.seat and moment != self.turn_seen:
            self.turn_seen = moment  # a new decision of yours: a card you can play is selected first
            if hand.selected_card() not in playable:
                firsts = [i for i, card in enumerate(hand.cards) if card in playable]
                if firsts:
                    hand.selected = firsts[0]
        if ActionType.PLAY_UNO not in self.kinds(view):
            self.uno_armed = False
        self.show_situation(view)
        table = self.query_one("#table", VerticalScroll)
        if table.max_scroll_y:
            table.scroll_to_widget(hand, animate=False)  # your hand stays in sight on a short screen
        self.ask_if_needed(view)

    def kinds(self, view: View) -> set[ActionType]:
        space = self.session_edition().actions
        return {space.types[a] for a in view.legal_actions}

    def session_edition(self) -> Any:
        assert self.session is not None
        return self.session.edition()

    def playable(self, view: View) -> set[int]:
        space = self.session_edition().actions
        cards = set()
        for action in view.legal_actions:
            kind, arg = space.decode(action)
            if kind in CARD_MOVES:
                cards.add(arg)
        return cards

    def narrate(self, view: View) -> None:
        narrator = self.narrator
        if narrator is None:
            return
        narrator.learn(view.public)
        events = view.history[self.seen :]
        for line in narrator.lines(events, view.round_results):
            self.log_line(parts_text(line, dark=self.dark))
        for event in events:
            self.tell_jackpot(event, narrator)
        self.seen = len(view.history)

    def tell_jackpot(self, event: Any, narrator: Narrator) -> None:
        """The lever's outcome and a rule card you perform, in a dialog (UNO Wild Jackpot)."""
        assert self.session is not None
        kind, seat, value, _data = event
        if seat != self.session.seat:
            return
        if kind == "lever":
            pulled = parts_text(narrator.lever(seat, value), dark=self.dark)
            self.push_screen(MessageScreen("The lever", pulled), self.reshow)
        elif kind == "rule":
            text = narrator.rule_texts.get(value)
            body = parts_text(narrator.rule(seat, value), dark=self.dark)
            if text is not None:
                body.append(f"\n\nRead as: {rulecards.read_rule(text).reading()}")
            self.push_screen(MessageScreen("Rule card", body), self.reshow)

    def reshow(self, _closed: object = None) -> None:
        """After a message: the decision it may have hidden is asked now."""
        self.show()

    def log_line(self, text: Text) -> None:
        self.query_one("#log", RichLog).write(text)

    def show_situation(self, view: View) -> None:
        line = Text(self.situation(view), style="bold")
        if self.uno_armed:
            line.append("  UNO! armed: Enter plays your card calling UNO.", style="bold reverse")
        if self.reason:
            line.append("\n")
            line.append(f"Not possible: {self.reason}", style="bold")
        self.query_one("#situation", Static).update(line)

    def situation(self, view: View) -> str:
        assert self.session is not None
        seat = self.session.seat
        names = self.session.names
        if view.winner >= 0:
            return (
                "The match is over."
                if seat is None
                else ("You won the match!" if view.winner == seat else f"{names[view.winner]} won the match.")
            )
        kinds = self.kinds(view)
        if seat is None or view.actor != seat:
            notes = []
            if ActionType.CALL_UNO in kinds:
                notes.append("You hold one card: press u to call UNO before you are caught!")
            if ActionType.CATCH in kinds:
                exposed = [names[s] for s in view.uncalled if s != seat]
                notes.append(f"{' and '.join(exposed)} did not call UNO: press c to catch!")
            if ActionType.JUMP in kinds or ActionType.JUMP_UNO in kinds:
                notes.append("You hold the card on top: select it and press Enter to jump in.")
            waiting = (
                "" if view.actor < 0 else f"{names[view.actor]} to {'play' if view.phase == 'turn' else 'decide'}."
            )
            return " ".join(notes) or f"Waiting: {waiting}"
        phase = view.phase
        if phase == "turn":
            return "Your turn: choose a card (← → or its number) and press Enter, or d to draw."
        if phase == "drawn":
            return f"You drew {card_long_name(view.drawn)}: Enter to play it, p to keep it."
        if phase == "stack":
            total = plural(view.state.get("stack_total", 0), "card")
            return f"A penalty of {total} is aimed at you: add a draw card (Enter), or p to accept it."
        if phase == "multi":
            return "Play another card of the same number, or p to end your turn."
        if phase == "discard":
            return (
                f"Discard a card of your choice (Enter): {plural(view.decision.get('discards_left', 1), 'card')} to go."
            )
        if phase == "rule-run":
            return "Rule card: play as many cards in a row as you can (Enter), or d to draw and stop."
        if phase == "lever-discard":
            return "Lever: discard up to one card of each colour (Enter), p when done."
        if phase == "give":
            target = names[view.decision["give_to"]] if view.decision.get("give_to", -1) >= 0 else "them"
            return f"Rule card: give a card of your choice to {target} (Enter)."
        if phase in DIALOG_PHASES:
            return "Your decision: choose in the dialog (m opens it again)."
        return "Your move: m lists what you may do."

    # ------------------------------------------------------------------ acting

    def describe(self, view: View, action: int) -> str:
        assert self.session is not None
        game = getattr(self.session, "game", None)
        if game is None:
            game = _Shim(self.session, view)  # what the view tells of a game played elsewhere
        try:
            return describe_action(game, view, action, self.session.names)  # type: ignore[arg-type]
        except Exception:  # a rule card's details unknown here: the move's notation says it
            return str(self.session_edition().actions.format(action))

    def choices(self, view: View, actions: Sequence[int]) -> list[tuple[int, Text | str]]:
        space = self.session_edition().actions
        shown: list[tuple[int, Text | str]] = []
        for action in actions:
            kind, arg = space.decode(action)
            label = Text.assemble((f"{space.format(action):<6} ", "bold"))
            if kind is ActionType.COLOUR:
                label.append_text(colour_chip(arg, dark=self.dark, name=COLOUR_NAMES[arg]))
                label.append(" ")
            elif kind in CARD_MOVES:
                label.append_text(card_chip(arg, dark=self.dark))
            label.append(self.describe(view, action))
            shown.append((action, label))
        return shown

    def ask_if_needed(self, view: View) -> None:
        """Open the dialog of a decision asked of you (colour, challenge, target, honour task)."""
        assert self.session is not None
        if view.actor != self.session.seat or view.phase not in DIALOG_PHASES or not view.legal_actions:
            return
        moment = (len(view.history), view.phase)
        if self.asked == moment or isinstance(self.screen, ModalScreen):
            return  # asked already, or after the message or dialog open now
        self.asked = moment
        self.open_choice(view, self.dialog_title(view), cancel=view.phase == "stack")

    def dialog_title(self, view: View) -> str:
        assert self.session is not None
        names = self.session.names
        phase = view.phase
        if phase == "colour":
            return "Choose a colour"
        if phase == "stack":
            total = plural(view.state.get("stack_total", 0), "card")
            return f"A penalty of {total} is aimed at you: add a draw card to pass it on, or accept it"
        if phase == "challenge":
            bluffer = names[view.decision.get("bluffer", 0)]
            return f"{bluffer} played a Wild Draw Four on you: challenge or accept?"
        if phase == "honour":
            rid = view.decision.get("rule", -1)
            text = self.narrator.rule_texts.get(rid, "the rule card") if self.narrator else "the rule card"
            return f'Honour task: carry out "{text}", then confirm it is done'
        if phase == "target":
            purpose = view.decision.get("target_kind", -1)
            if purpose == TARGET_PERFORMER:
                return "Jackpot: choose who performs a rule card (you included)"
            if purpose == TARGET_OF_RULE:
                return "Rule card: choose the player it applies to"
            if purpose in (Kind.SEVEN, Kind.WILD_FORCED_SWAP):
                return "Choose whom to swap hands with"
            return "Choose a player"
        return "Choose a move"

    def open_choice(self, view: View, title: str, *, cancel: bool = True, actions: Sequence[int] | None = None) -> None:
        shown = list(view.legal_actions if actions is None else actions)
        if view.phase == "colour" and actions is None:
            space = self.session_edition().actions
            shown.sort(key=lambda a: space.decode(a)[1])

        def chosen(action: int | None) -> None:
            if action is not None:
                self.act(action)
            else:
                self.show()

        self.push_screen(ChoiceScreen(title, self.choices(view, shown), cancel=cancel), chosen)

    @work(group="act")
    async def act(self, action: int) -> None:
        assert self.session is not None
        try:
            await self.session.act(action)
        except UnoError as exc:
            self.refuse(str(exc))
            self.asked = None
            return
        self.reason = None
        self.uno_armed = False
        self.show()

    def refuse(self, reason: str) -> None:
        self.reason = reason
        if self.session is not None:
            self.show_situation(self.session.view())
        self.bell()

    def try_kinds(self, kinds: Sequence[ActionType], what: str) -> None:
        """Make the legal move of one of ``kinds`` (a list to choose from if several), or say why not."""
        if self.session is None:
            return
        view = self.session.view()
        space = self.session_edition().actions
        legal = [a for a in view.legal_actions if space.types[a] in kinds]
        if len(legal) == 1:
            self.act(legal[0])
        elif legal:
            self.open_choice(view, what.capitalize(), actions=legal)
        else:
            try:
                probe = space.id(kinds[0], 0)
            except (KeyError, ValueError):
                self.refuse(f"you cannot {what} now")
                return
            self.act(probe)  # refused: the engine says why

    def action_select(self, step: int) -> None:
        self.query_one(HandPanel).move(step)

    def on_key(self, event: Key) -> None:
        if event.character and event.character.isdigit() and self.session is not None:
            hand = self.query_one(HandPanel)
            index = 9 if event.character == "0" else int(event.character) - 1
            if index < len(hand.cards):
                hand.selected = index
                event.stop()

    def action_play(self) -> None:
        if self.session is None or self.finished:
            return
        view = self.session.view()
        card = self.query_one(HandPanel).selected_card()
        if card is None:
            self.refuse("you hold no card to play")
            return
        space = self.session_edition().actions
        moves = {
            space.types[a]: a for a in view.legal_actions if space.decode(a)[1] == card and space.types[a] in CARD_MOVES
        }
        for kind in (
            (ActionType.PLAY_UNO, ActionType.JUMP_UNO, ActionType.PLAY, ActionType.JUMP)
            if self.uno_armed
            else (ActionType.PLAY, ActionType.JUMP, ActionType.PLAY_UNO, ActionType.JUMP_UNO)
        ):
            if kind in moves:
                self.act(moves[kind])
                return
        for kind in (ActionType.DISCARD, ActionType.GIVE):
            if kind in moves:
                self.act(moves[kind])
                return
        self.act(space.id(ActionType.PLAY, card))  # refused: the engine says why

    def action_draw(self) -> None:
        self.try_kinds((ActionType.DRAW,), "draw")

    def action_pass_turn(self) -> None:
        self.try_kinds((ActionType.PASS, ActionType.ACCEPT, ActionType.DONE), "pass")

    def action_uno(self) -> None:
        if self.session is None:
            return
        view = self.session.view()
        kinds = self.kinds(view)
        if ActionType.CALL_UNO in kinds:
            self.try_kinds((ActionType.CALL_UNO,), "call UNO")
        elif ActionType.PLAY_UNO in kinds or ActionType.JUMP_UNO in kinds:
            self.uno_armed = not self.uno_armed
            self.show_situation(view)
        else:
            self.refuse("UNO is called with your next-to-last card, or when you hold one card without having called it")

    def action_catch(self) -> None:
        self.try_kinds((ActionType.CATCH,), "catch")

    def action_moves(self) -> None:
        if self.session is None:
            return
        view = self.session.view()
        if not view.legal_actions:
            self.refuse("you have no move now")
            return
        title = self.dialog_title(view) if view.actor == self.session.seat else "What you may do now"
        self.open_choice(view, title)

    @work(group="hint", exclusive=True)
    async def action_hint(self) -> None:
        game = getattr(self.session, "game", None)
        if not self.hints or game is None:
            self.refuse("hints are off: start the game with --hints to rate your moves")
            return
        if self.session is None or game.actor != self.session.seat:
            self.refuse("a hint rates your moves on your turn")
            return
        from unokit.analysis.ratings import analyse
        from unokit.cli.analyse import analysis_lines, how, percent

        self.notify("Rating your moves…", timeout=2)
        analysis = await asyncio.to_thread(analyse, game, self.session.seat, seconds=0.5, seed=len(game.history))
        body = (
            "\n".join(analysis_lines(analysis)) + f"\n\nHint: {analysis.best.notation} ({percent(analysis.best.win)})."
        )
        self.push_screen(MessageScreen(f"Your chance to win the round after each move ({how(analysis)})", body))

    def action_toggle_theme(self) -> None:
        self.theme = THEMES[1] if self.theme == THEMES[0] else THEMES[0]
        self.show()
        self.recolour_log()

    def recolour_log(self) -> None:
        """Tell the log again in the theme's shades."""
        if self.session is None or self.narrator is None:
            return
        log = self.query_one("#log", RichLog)
        log.clear()
        view = self.session.view()
        narrator = Narrator(self.session.names, you=self.session.seat, scoring=view.scoring, edition=view.edition)
        narrator.learn(view.public)
        for line in narrator.lines(view.history, view.round_results):
            log.write(parts_text(line, dark=self.dark))
        self.narrator = narrator

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_leave(self) -> None:
        if self.finished:
            self.leave(0)
            return
        saved = f" Your record is saved to {self.record_path}." if self.record_path else ""

        def answered(yes: bool | None) -> None:
            if yes:
                self.leave(0)

        self.push_screen(ConfirmScreen(f"Leave the game?{saved}"), answered)

    def action_interrupt(self) -> None:
        self.leave(130)

    def leave(self, status: int) -> None:
        self.save()
        self.exit(status)

    def save(self) -> None:
        if self.record_path and self.session is not None:
            save_record(self.session.record(), self.record_path)
            self.saved_to = self.record_path

    async def on_unmount(self) -> None:
        self.save()
        if self.session is not None:
            await self.session.close()
