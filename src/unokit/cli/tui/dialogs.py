"""The table's dialogs (modal screens): a choice among moves, a confirmation, a message, the help and
the rule cards you write (UNO Wild Jackpot)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from unokit.editions import rulecards

__all__ = ["ChoiceScreen", "ConfirmScreen", "HelpScreen", "MessageScreen", "RuleCardsScreen"]


class ChoiceScreen(ModalScreen[int | None]):
    """Choose one of ``choices`` (value, label) with the arrows and Enter, or its number; Escape closes it
    without a choice when ``cancel`` is allowed."""

    BINDINGS = [Binding("escape", "cancel", "Close")]

    def __init__(self, title: str, choices: Sequence[tuple[int, Text | str]], *, cancel: bool = True) -> None:
        super().__init__(classes="dialog-screen")
        self.title_text = title
        self.choices = list(choices)
        self.cancel = cancel

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            options = [
                Option(Text.assemble(f"{n}) " if n < 10 else "   ", label), id=f"choice-{n}")
                for n, (_value, label) in enumerate(self.choices, 1)
            ]
            yield OptionList(*options, id="choices")
            hint = "↑↓ and Enter, or the number" + (" · Esc: back to the table" if self.cancel else "")
            yield Label(hint, classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.choices[event.option_index][0])

    def on_key(self, event: Key) -> None:
        key = event.character
        if key and key.isdigit() and 1 <= int(key) <= min(len(self.choices), 9):
            event.stop()
            self.dismiss(self.choices[int(key) - 1][0])

    def action_cancel(self) -> None:
        if self.cancel:
            self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: y or Enter for yes, n or Escape for no."""

    BINDINGS = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__(classes="dialog-screen")
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-title")
            yield Label("y / Enter: yes · n / Esc: no", classes="dialog-hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class MessageScreen(ModalScreen[None]):
    """A message to read (the lever's outcome, a rule card, the match's end); Enter or Escape closes it."""

    BINDINGS = [Binding("enter,escape,space", "close", "Close")]

    def __init__(self, title: str, body: Text | str) -> None:
        super().__init__(classes="dialog-screen")
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(self.body, classes="dialog-body")
            yield Label("Enter: close", classes="dialog-hint")

    def action_close(self) -> None:
        self.dismiss(None)


HELP = """\
[b]Keys[/b]
  ← →  or  1-9, 0      select a card of your hand (0: the tenth)
  Enter                play the selected card (or jump in with it, discard it, give it)
  d                    draw a card
  p                    pass: keep the card you drew, end your turn, accept a stacked penalty,
                       or say done (the lever's discards)
  u                    UNO: call it now (one card left), or, before Enter, play your
                       next-to-last card calling UNO
  c                    catch a player who holds one card without having called UNO
  m                    every move you may make now, in a list
  h                    a hint: your moves rated (games started with --hints)
  t                    switch between the dark and the light theme
  F1  ?                this help          q  leave the game (asks first)
  Ctrl-C               leave at once (the record is still saved with --record)

[b]The table[/b]
  The seats: ▶ marks whose turn it is, "next" who plays after; badges say who deals, who
  has not called UNO (catch them!), partners, and who is out.  The middle: the top card,
  the colour in play, the draw pile, the direction.  Your hand: each card in its colour with
  a mark for it (▲ red, ● yellow, ■ green, ◆ blue, ✚ orange, ★ wild); the cards you cannot
  play now are dimmed.  The log beside the table tells what happened.

[b]Races[/b]
  Bots take a moment before each move: call UNO (u) and catch (c) before they do.
  Choices (the colour, a challenge, a player) open in a dialog."""


class HelpScreen(ModalScreen[None]):
    """The keys and what the table shows."""

    BINDINGS = [Binding("escape,enter,f1,question_mark,q", "close", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help"):
            yield Static(HELP, markup=True)
            yield Label("Esc: back to the table", classes="dialog-hint")

    def action_close(self) -> None:
        self.dismiss(None)


class RuleCardsScreen(ModalScreen[list[str] | None]):
    """Write your ``count`` rule cards (UNO Wild Jackpot): the text of each, or Enter for the suggestion;
    ? shows the forms the game reads; Escape leaves the game."""

    BINDINGS = [Binding("escape", "leave", "Leave")]

    def __init__(self, count: int, suggestions: Sequence[str]) -> None:
        super().__init__(classes="dialog-screen")
        self.count = count
        self.suggestions = list(suggestions)
        self.texts: list[str] = []

    def suggestion(self) -> str:
        return self.suggestions[len(self.texts) % len(self.suggestions)]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog rules"):
            yield Label("Write your rule cards", classes="dialog-title")
            yield Static(
                f"Type the text of each card (up to {rulecards.MAX_RULE_LENGTH} characters), or press Enter "
                "for the suggestion. Text in one of the forms the game reads is enforced; anything else is an "
                "honour task. Type ? for the forms, Esc to leave.",
                classes="dialog-body",
            )
            yield Label("", id="rule-number")
            yield Input(id="rule-text", max_length=rulecards.MAX_RULE_LENGTH + 40)
            yield Static("", id="rule-said", classes="dialog-body")
            yield VerticalScroll(Static("", id="rule-written"), id="rule-written-box")
        self.call_after_refresh(self.ask)

    def ask(self) -> None:
        self.query_one("#rule-number", Label).update(f"Rule card {len(self.texts) + 1} of {self.count}")
        field = self.query_one("#rule-text", Input)
        field.placeholder = f"Suggestion: {self.suggestion()}"
        field.value = ""
        field.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        said = self.query_one("#rule-said", Static)
        text = event.value
        if text.strip() == "?":
            said.update(rulecards.GRAMMAR)
            event.input.value = ""
            return
        try:
            card = rulecards.read_rule(text if text.strip() else self.suggestion())
        except rulecards.RuleTextError as exc:
            said.update(Text(f"Not possible: {exc}. Write it again.", style="bold"))
            return
        self.texts.append(card.text)
        written = self.query_one("#rule-written", Static)
        lines = [f"Rule card {n}: {t}" for n, t in enumerate(self.texts, 1)]
        written.update("\n".join(lines))
        said.update(f"Rule card {len(self.texts)}: {card.text}\n  read as {card.reading()}")
        if len(self.texts) == self.count:
            self.dismiss(self.texts)
            return
        self.ask()

    def action_leave(self) -> None:
        self.dismiss(None)
