"""The table's panels: the seats, the middle of the table, your hand and the line that says what to do."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from unokit.cli.tui.cards import card_chip, colour_chip
from unokit.engine.cards import CARD_COLOUR, CARD_KIND, COLOUR_NAMES, NO_COLOUR, card_long_name
from unokit.engine.views import View
from unokit.narrate import direction_words, plural

__all__ = ["CentrePanel", "HandPanel", "SeatsPanel", "next_seat", "sorted_hand"]


def sorted_hand(hand: Sequence[int]) -> list[int]:
    """Your cards grouped by colour (wild cards last), then by kind: the order the hand is shown in."""
    return sorted(hand, key=lambda card: (CARD_COLOUR[card], CARD_KIND[card]))


def seats_out(view: View) -> set[int]:
    return set(view.state.get("knocked", ())) | set(view.state.get("out", ()))


def next_seat(view: View) -> int:
    """The seat that plays after the seat whose turn it is (the seats out of play passed over)."""
    out = seats_out(view)
    seat = view.turn
    for _ in range(view.players):
        seat = (seat + view.direction) % view.players
        if seat not in out:
            return seat
    return view.turn


class SeatsPanel(Static):
    """Every seat: name, cards in hand, score and badges; whose turn it is and who is next."""

    def show(self, view: View, names: Sequence[str], you: int | None) -> None:
        table = Table(box=None, expand=True, padding=(0, 1), show_edge=False, header_style="bold")
        table.add_column("", width=6, no_wrap=True)
        table.add_column("Player", ratio=2, no_wrap=True, overflow="ellipsis")
        table.add_column("Cards", justify="right", no_wrap=True)
        scored = view.scoring not in ("single-round", "knockout")
        if scored:
            table.add_column("Score", justify="right", no_wrap=True)
        table.add_column("", ratio=3, no_wrap=True, overflow="ellipsis")
        knocked = set(view.state.get("knocked", ()))
        out = set(view.state.get("out", ()))
        following = next_seat(view)
        for seat in range(view.players):
            marker = Text("▶ turn", style="bold") if seat == view.turn else Text("")
            if seat != view.turn and seat == following and not view.winner >= 0:
                marker = Text("  next", style="italic")
            name = names[seat] + (" (you)" if seat == you else "")
            badges: list[tuple[str, str]] = []
            if seat == view.dealer:
                badges.append(("dealer", ""))
            if seat in view.uncalled:
                badges.append(("UNO not called!", "bold reverse"))
            elif seat in view.called:
                badges.append(("UNO", "bold"))
            if view.teams and you is not None and seat != you:
                badges.append(("partner" if view.teams[seat] == view.teams[you] else "other team", "italic"))
            if seat in knocked:
                badges.append(("out of the match", "strike"))
            elif seat in out:
                badges.append(("out of the round", "italic"))
            if seat == view.actor and seat != view.turn:
                badges.append(("deciding", "bold"))
            note = Text(" · ").join(Text(words, style=style) for words, style in badges)
            row: list[RenderableType] = [
                marker,
                Text(name, style="bold" if seat == you else ""),
                str(view.hand_sizes[seat]),
            ]
            if scored:
                row.append(str(view.scores[seat]))
            row.append(note)
            table.add_row(*row)
        self.update(table)


class CentrePanel(Static):
    """The top card, the colour in play, the draw pile, the direction and the round."""

    def show(self, view: View, dark: bool) -> None:
        arrow = "↻" if view.direction > 0 else "↺"
        top = Text.assemble(
            "Top card ",
            card_chip(view.top_card, dark=dark),
            f" {card_long_name(view.top_card)}   ",
        )
        if view.colour != NO_COLOUR:
            top.append("Colour ")
            top.append_text(colour_chip(view.colour, dark=dark, name=COLOUR_NAMES[view.colour]))
        going = direction_words(view.direction)
        line = Text(f"Draw pile {view.draw_pile_size} · play goes {going} {arrow} · round {view.round}")
        if view.scoring in ("single-round",):
            line.append(" · single round: the first out wins")
        elif view.scoring == "knockout":
            line.append(" · knockout")
        else:
            line.append(f" · target {view.target_score}")
        if "rule_cards_in_dispenser" in view.public:
            line.append(
                f" · rule cards: {view.public['rule_cards_in_dispenser']} in the dispenser, "
                f"{view.public['rule_cards_used']} used"
            )
        if "stack_total" in view.state and view.state.get("stack_total"):
            line.append(f" · penalty stacked: {plural(view.state['stack_total'], 'card')}")
        self.update(Group(top, line))


class HandPanel(Widget, can_focus=True):
    """Your cards in colour with their marks, numbered; the selected one framed, those you cannot play
    now dimmed."""

    selected: reactive[int] = reactive(0)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.watching = False
        """A spectator's table: no hand."""
        self.cards: list[int] = []
        self.playable: set[int] = set()
        self.dark = True

    def show(self, hand: Sequence[int], playable: set[int], dark: bool) -> None:
        self.cards = sorted_hand(hand)
        self.playable = playable
        self.dark = dark
        if self.cards:
            self.selected = min(self.selected, len(self.cards) - 1)
        self.refresh(layout=True)

    def selected_card(self) -> int | None:
        return self.cards[self.selected] if 0 <= self.selected < len(self.cards) else None

    def move(self, step: int) -> None:
        if self.cards:
            self.selected = (self.selected + step) % len(self.cards)

    def render(self) -> RenderableType:
        if not self.cards:
            return Text("You are watching." if self.watching else "You hold no cards.", style="italic")
        width = max(self.size.width, 20)
        lines: list[Text] = []
        numbers = Text()
        chips = Text()
        for index, card in enumerate(self.cards):
            chip = card_chip(card, dark=self.dark, dimmed=card not in self.playable, selected=index == self.selected)
            if chips.cell_len + chip.cell_len > width and chips.cell_len:
                lines += [numbers, chips]
                numbers, chips = Text(), Text()
            label = str(index + 1) if index < 9 else ("0" if index == 9 else "")
            numbers.append(label.center(chip.cell_len), style="dim" if card not in self.playable else "bold")
            chips.append_text(chip)
        lines += [numbers, chips]
        count = plural(len(self.cards), "card")
        framed = bool(self.styles.border_top[0])
        self.border_title = f"Your hand: {count}" if framed else None
        title = Text("" if framed else f"Your hand ({count}) · ", style="bold")
        chosen = self.selected_card()
        if chosen is not None:
            title.append(f"selected: {card_long_name(chosen)}", style="italic")
        return Group(title, *lines)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        used = 0
        rows = 1
        for card in self.cards:
            size = card_chip(card, dark=True).cell_len
            if used + size > max(width, 20) and used:
                rows += 1
                used = 0
            used += size
        return 1 + 2 * rows
