"""The observation encoding: one flat float32 vector built from a player's view alone.

An :class:`Encoder` is made for an edition and a player count; its layout (the list of
:class:`Field`) does not depend on the rule options, so one policy reads every house-rule
mix of the same edition and table size (fields of rules that are off stay zero).  Seats
are relative to the observer: position 0 is the observer, 1 the next seat by number
(``seat + 1``), and so on.  The encoder reads only a :class:`~unokit.engine.views.View`, never
the game: what the player cannot see cannot change the vector.

>>> from unokit.engine.game import Game
>>> encoder = Encoder("classic", players=2)
>>> vector = encoder.encode(Game("classic", 2, seed=1).view(0))
>>> vector.shape == (encoder.size,), vector.dtype.name
(True, 'float32')
>>> int(encoder.read(vector, "hand").sum())
7
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError("unokit.rl needs the rl extra: pip install 'unokit[rl]'") from error

from unokit.editions import Edition, get_edition, rulecards
from unokit.editions.wild_jackpot import TARGET_OF_RULE, TARGET_PERFORMER
from unokit.engine.cards import NO_COLOUR, Kind
from unokit.engine.errors import SetupError
from unokit.engine.phases import HOUSE_PHASE_NAMES, PHASE_NAMES
from unokit.engine.rules import LEVER_OUTCOMES, Rules
from unokit.engine.views import View

__all__ = [
    "DEFAULT_HISTORY",
    "EVENT_CARD_KINDS",
    "EVENT_SEAT_KINDS",
    "TARGET_PURPOSES",
    "UNENCODED_EVENT_KINDS",
    "Encoder",
    "Field",
    "markdown_table",
    "observation_table",
]

FloatArray = npt.NDArray[np.float32]
_SeatFlag = Callable[[int, int], None]
"""Sets the value at a seat's relative position in a field (``offset``, ``seat``)."""

DEFAULT_HISTORY = 16
"""Events in the window of recent public events, by default."""

TARGET_PURPOSES: tuple[int, ...] = (
    Kind.SEVEN,
    Kind.WILD_TARGETED_DRAW_TWO,
    Kind.WILD_FORCED_SWAP,
    TARGET_PERFORMER,
    TARGET_OF_RULE,
)
"""What a choice of player is for (``view.decision["target_kind"]``): Seven-O's swap, All Wild's
Targeted Draw Two and Forced Swap, Wild Jackpot's performer of a rule card and a rule's target."""

EVENT_SEAT_KINDS = frozenset({"challenge", "reveal", "accept", "catch", "target", "swap", "jump", "take", "give"})
"""Events whose value is a seat (encoded in the slot's ``other`` part)."""
EVENT_CARD_KINDS = frozenset({"play", "flip", "return", "discard", "dealer_draw"})
"""Events whose data is one public card (encoded in the slot's ``card`` part)."""
UNENCODED_EVENT_KINDS = frozenset({"blocked"})
"""Events whose kind has no place in the slot's ``kind`` part (the slot keeps its seat and value): a
blocked round, told by the ``round_end`` that follows; leaving it out keeps the observation's layout."""


@dataclass(frozen=True)
class Field:
    """One part of the vector: ``size`` values from ``offset``, each from 0 to its bound."""

    name: str
    offset: int
    size: int
    meaning: str


class _Layout:
    """Collects fields and their upper bounds in order."""

    def __init__(self) -> None:
        self.fields: list[Field] = []
        self.high: list[float] = []

    def add(self, name: str, size: int, high: float | Sequence[float], meaning: str) -> int:
        offset = len(self.high)
        self.fields.append(Field(name, offset, size, meaning))
        self.high.extend([float(high)] * size if isinstance(high, (int, float)) else [float(h) for h in high])
        assert len(self.high) == offset + size, name
        return offset


class Encoder:
    """Observation vectors for ``edition`` at a table of ``players``.

    ``rules`` set the bounds that depend on the deck and the target score (the deck option
    changes the card counts); ``history`` is the number of recent events in the window."""

    def __init__(
        self, edition: str = "classic", players: int = 2, rules: Rules | None = None, history: int = DEFAULT_HISTORY
    ) -> None:
        self.edition: Edition = get_edition(edition)
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 10:
            raise SetupError(f"players must be from 2 to 10, not {players!r}")
        if isinstance(history, bool) or not isinstance(history, int) or not 0 <= history <= 1000:
            raise SetupError(f"history must be a number of events from 0 to 1000, not {history!r}")
        self.players = players
        self.history = history
        self.rules = rules if rules is not None else Rules()
        edition_ = self.edition
        self.faces: tuple[int, ...] = edition_.faces
        self.face_index = {card: index for index, card in enumerate(self.faces)}
        self.colours: tuple[int, ...] = edition_.actions.colours
        self.colour_index = {colour: index for index, colour in enumerate(self.colours)}
        self.colour_index[NO_COLOUR] = len(self.colours)
        self.phases: tuple[str, ...] = (*PHASE_NAMES, *edition_.phase_names, *HOUSE_PHASE_NAMES)
        self.phase_index = {name: index for index, name in enumerate(self.phases)}
        self.stack_kinds: tuple[int, ...] = tuple(sorted(edition_.draw_values))
        self.event_kinds: tuple[str, ...] = tuple(sorted(edition_.event_kinds - UNENCODED_EVENT_KINDS))
        self.event_kind_index = {kind: index for index, kind in enumerate(self.event_kinds)}
        deck = edition_.deck_cards(self.rules)
        copies = Counter(deck)
        deck_size = len(deck)
        deck_points = edition_.hand_points(deck)
        self.amount_bound = max(deck_size, deck_points)
        """The bound of counts and points that have none of their own (values above are clipped)."""
        score_bound = self.rules.target_score + deck_points
        n = players
        faces = len(self.faces)
        colours = len(self.colours)
        card_copies = [max(1, copies[card]) for card in self.faces]
        rel = "by relative seat"
        layout = _Layout()
        add = layout.add
        self._hand = add("hand", faces, card_copies, "cards of each face in the observer's hand")
        self._drawn = add("drawn", faces, 1, "the card the observer just drew and may play (phase drawn)")
        self._top = add("top_card", faces, 1, "the card on top of the discard pile")
        self._discards = add("discard_pile", faces, card_copies, "cards of each face in the discard pile (all seen)")
        self._colour = add("colour", colours + 1, 1, "the colour in play among the edition's colours; last: none")
        self._direction = add("direction", 1, 1, "1 when play goes clockwise (to seat + 1), 0 when reversed")
        self._phase = add("phase", len(self.phases), 1, "the decision asked now: " + ", ".join(self.phases))
        self._actor = add("actor", n, 1, f"who is to decide, {rel}")
        self._turn = add("turn", n, 1, f"whose turn it is, {rel}")
        self._dealer = add("dealer", n, 1, f"the dealer, {rel}")
        self._sizes = add("hand_sizes", n, deck_size, f"cards in each hand, {rel}")
        self._uncalled = add("uncalled", n, 1, f"holds one card without having called UNO (may be caught), {rel}")
        self._called = add("called", n, 1, f"holds one card and called UNO, {rel}")
        self._skips = add("turns_to_lose", n, deck_size, f"turns each player is still to lose, {rel}")
        self._scores = add("scores", n, score_bound, f"match scores, {rel}")
        self._draw_pile = add("draw_pile_size", 1, deck_size, "cards in the draw pile")
        self._discard_size = add("discard_pile_size", 1, deck_size, "cards in the discard pile")
        self._bluffer = add("bluffer", n, 1, f"who played the Wild Draw Four being answered (phase challenge), {rel}")
        self._bluff_colour = add(
            "bluff_colour", colours + 1, 1, "the colour in play when that Wild Draw Four was played"
        )
        self._discards_left = add("discards_left", 1, deck_size, "cards still to discard (phase discard)")
        purposes = "Seven-O swap, Targeted Draw Two, Forced Swap, rule card performer, rule card target"
        self._purpose = add("target_purpose", len(TARGET_PURPOSES), 1, f"what a choice of player is for: {purposes}")
        self._stack_total = add("stack_total", 1, deck_size, "house rule stacking: the pending total of draw cards")
        kinds = ", ".join(Kind(k).name.lower() for k in self.stack_kinds)
        self._stack_kind = add("stack_kind", len(self.stack_kinds), 1, f"the kind of the last card stacked: {kinds}")
        self._jump_card = add("jump_card", faces, 1, "house rule Jump-In: the card an open window may be answered on")
        self._jump_from = add("jump_from", n, 1, f"who played that card, {rel}")
        self._multi = add("multi_count", 1, deck_size, "house rule several cards of one number: cards in the set")
        self._out = add("out", n, 1, f"out of the round (Mercy, knockout), {rel}")
        self._knocked = add("knocked", n, 1, f"out of the match (knockout scoring), {rel}")
        self._team = add("team", n, 1, f"house rule teams: 1 for the observer's team, {rel}")
        self._jam = -1
        if edition_.name == "space-jam":
            self._jam = add(
                "jam", 2, 1, "the last Wild Welcome to the Jam drop of the round: Slam side up, UNO side up"
            )
        self._jackpot = edition_.name == "wild-jackpot"
        if self._jackpot:
            verbs = len(rulecards.VERBS)
            self._lever = add(
                "lever", len(LEVER_OUTCOMES), 1, "the last lever outcome of the round: " + ", ".join(LEVER_OUTCOMES)
            )
            self._lever_colours = add("lever_colours", colours, 1, "colours already discarded after the lever")
            self._lever_draw = add("lever_draw", 1, deck_size, "cards the next player is to draw after the lever")
            self._lever_skip = add("lever_skip", 1, 1, "the next player is to be skipped after the lever")
            self._rule_verb = add(
                "rule",
                verbs + 1,
                1,
                "the rule card being performed: " + ", ".join(rulecards.VERBS) + "; last: an honour task",
            )
            self._rule_count = add("rule_count", 1, 30, "its number of cards")
            self._rule_target = add(
                "rule_target", len(rulecards.TARGETS), 1, "its target: " + ", ".join(rulecards.TARGETS)
            )
            self._give_to = add("give_to", n, 1, f"who receives the cards to give (phase give), {rel}")
            self._give_left = add("give_left", 1, deck_size, "cards still to give")
            self._choices = add("target_choices", n, 1, f"the players a rule card may be aimed at, {rel}")
            self._dispenser = add("rule_cards_in_dispenser", 1, 100, "rule cards in the dispenser")
            self._rules_used = add("rule_cards_used", 1, 100, "rule cards behind the unit")
            self._rules_in_play = add("rule_cards_in_play", 1, 100, "rule cards dispensed and not yet finished")
        slot = _Layout()
        self._slot_kind = slot.add("kind", len(self.event_kinds), 1, "the event's kind: " + ", ".join(self.event_kinds))
        self._slot_seat = slot.add("seat", n, 1, f"the seat it names, {rel}")
        seat_kinds = ", ".join(sorted(EVENT_SEAT_KINDS))
        self._slot_other = slot.add("other", n, 1, f"the second seat ({seat_kinds}), {rel}")
        card_kinds = ", ".join(sorted(EVENT_CARD_KINDS))
        self._slot_card = slot.add("card", faces, 1, f"the public card ({card_kinds})")
        self._slot_colour = slot.add("colour", colours, 1, "the colour named (colour)")
        self._slot_value = slot.add(
            "value", 1, self.amount_bound, "the value of other kinds: a count, points, 1/0 for a flag or a direction"
        )
        self.slot_fields: tuple[Field, ...] = tuple(slot.fields)
        self.slot_size = len(slot.high)
        self._events = layout.add(
            "events",
            history * self.slot_size,
            slot.high * history,
            f"the {history} most recent public events, newest first, {self.slot_size} values each (see the slot table)",
        )
        self.fields: tuple[Field, ...] = tuple(layout.fields)
        self.size = len(layout.high)
        self.low: FloatArray = np.zeros(self.size, dtype=np.float32)
        self.high: FloatArray = np.array(layout.high, dtype=np.float32)
        self._by_name = {field.name: field for field in self.fields}

    # ------------------------------------------------------------------ reading the layout

    def field(self, name: str) -> Field:
        """The field called ``name``; :class:`KeyError` naming the known ones if none."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"no field {name!r}; known: {', '.join(self._by_name)}") from None

    def read(self, vector: FloatArray, name: str) -> FloatArray:
        """The values of field ``name`` in ``vector``."""
        field = self.field(name)
        return vector[field.offset : field.offset + field.size]

    # ------------------------------------------------------------------ encoding

    def encode(self, view: View) -> FloatArray:
        """The vector of ``view`` (a player's view of this edition and table size)."""
        me = view.seat
        if me is None:
            raise ValueError("an observation is a player's: a spectator's view has no hand")
        if view.edition != self.edition.name or view.players != self.players:
            raise ValueError(
                f"this encoder is for {self.edition.name} with {self.players} players, "
                f"not {view.edition} with {view.players}"
            )
        n = self.players
        out = np.zeros(self.size, dtype=np.float32)
        face = self.face_index
        colour_index = self.colour_index

        def seat_flag(offset: int, seat: int) -> None:
            if 0 <= seat < n:
                out[offset + (seat - me) % n] = 1

        for card in view.hand:
            out[self._hand + face[card]] += 1
        if view.drawn >= 0:
            out[self._drawn + face[view.drawn]] = 1
        out[self._top + face[view.top_card]] = 1
        state = view.state
        for card in state["discard_pile"]:
            out[self._discards + face[card]] += 1
        out[self._colour + colour_index.get(view.colour, len(self.colours))] = 1
        out[self._direction] = 1 if view.direction > 0 else 0
        out[self._phase + self.phase_index[view.phase]] = 1
        seat_flag(self._actor, view.actor)
        seat_flag(self._turn, view.turn)
        seat_flag(self._dealer, view.dealer)
        for seat in range(n):
            rel = (seat - me) % n
            out[self._sizes + rel] = view.hand_sizes[seat]
            out[self._skips + rel] = state["turn_skips"][seat]
            out[self._scores + rel] = view.scores[seat]
        for seat in view.uncalled:
            seat_flag(self._uncalled, seat)
        for seat in view.called:
            seat_flag(self._called, seat)
        out[self._draw_pile] = view.draw_pile_size
        out[self._discard_size] = view.discard_pile_size
        decision = view.decision
        seat_flag(self._bluffer, decision["bluffer"])
        if decision["bluffer"] >= 0:
            out[self._bluff_colour + colour_index.get(state["bluff_colour"], len(self.colours))] = 1
        out[self._discards_left] = decision["discards_left"]
        if decision["target_kind"] >= 0:
            out[self._purpose + TARGET_PURPOSES.index(decision["target_kind"])] = 1
        self._encode_house(view, out, seat_flag)
        if self._jam >= 0:
            jam = _last_in_round(view, "jam")
            if jam is not None:
                out[self._jam + (0 if jam[2] == 1 else 1)] = 1
        if self._jackpot:
            self._encode_jackpot(view, out, seat_flag)
        self._encode_events(view, out)
        np.clip(out, self.low, self.high, out=out)
        return out

    def _encode_house(self, view: View, out: FloatArray, seat_flag: _SeatFlag) -> None:
        state = view.state
        stack_total = state.get("stack_total", 0)
        if stack_total:
            out[self._stack_total] = stack_total
            kind = state.get("stack_kind", -1)
            if kind in self.stack_kinds:
                out[self._stack_kind + self.stack_kinds.index(kind)] = 1
        jump_card = state.get("jump_card", -1)
        if jump_card >= 0:
            out[self._jump_card + self.face_index[jump_card]] = 1
            seat_flag(self._jump_from, state.get("jump_from", -1))
        out[self._multi] = state.get("multi_count", 0)
        knocked = state.get("knocked", ())
        for seat in (*knocked, *state.get("out", ())):
            seat_flag(self._out, seat)
        for seat in knocked:
            seat_flag(self._knocked, seat)
        me = view.seat
        if view.teams and me is not None:
            for seat, team in enumerate(view.teams):
                if team == view.teams[me]:
                    seat_flag(self._team, seat)

    def _encode_jackpot(self, view: View, out: FloatArray, seat_flag: _SeatFlag) -> None:
        state = view.state
        lever = _last_in_round(view, "lever")
        if lever is not None and 1 <= lever[2] <= len(LEVER_OUTCOMES):
            out[self._lever + lever[2] - 1] = 1
        for index, colour in enumerate(self.colours):
            if state["lever_colours"] >> colour & 1:
                out[self._lever_colours + index] = 1
        out[self._lever_draw] = state["lever_draw"]
        out[self._lever_skip] = state["lever_skip"]
        performing = view.decision.get("rule", -1)
        if performing >= 0:
            text = dict(state["shown_texts"]).get(performing)
            effect = rulecards.read_rule(text).effect if text is not None else None
            if effect is None:
                out[self._rule_verb + len(rulecards.VERBS)] = 1
            else:
                out[self._rule_verb + rulecards.VERBS.index(effect.verb)] = 1
                out[self._rule_count] = effect.count
                out[self._rule_target + rulecards.TARGETS.index(effect.target)] = 1
        seat_flag(self._give_to, view.decision.get("give_to", -1))
        out[self._give_left] = view.decision.get("give_left", 0)
        if view.decision.get("target_rule", -1) >= 0:
            for seat in state["target_choices"]:
                seat_flag(self._choices, seat)
        out[self._dispenser] = state["dispenser_size"]
        out[self._rules_used] = len(state["used"])
        out[self._rules_in_play] = len(state["in_play"])

    def _encode_events(self, view: View, out: FloatArray) -> None:
        history = view.history
        me = view.seat
        assert me is not None
        n = self.players
        count = min(self.history, len(history))
        kinds = self.event_kind_index
        for slot in range(count):
            kind, seat, value, data = history[len(history) - 1 - slot]
            base = self._events + slot * self.slot_size
            if kind in kinds:
                out[base + self._slot_kind + kinds[kind]] = 1
            if 0 <= seat < n:
                out[base + self._slot_seat + (seat - me) % n] = 1
            if kind in EVENT_SEAT_KINDS:
                if 0 <= value < n:
                    out[base + self._slot_other + (value - me) % n] = 1
            elif kind in EVENT_CARD_KINDS and data:
                out[base + self._slot_card + self.face_index[data[0]]] = 1
            elif kind == "colour":
                if value in self.colour_index and value != NO_COLOUR:
                    out[base + self._slot_colour + self.colour_index[value]] = 1
            elif value > 0:
                out[base + self._slot_value] = value

    # ------------------------------------------------------------------ tables

    def table(self) -> list[Field]:
        """The fields in order (name, offset, size, meaning)."""
        return list(self.fields)


def _last_in_round(view: View, kind: str) -> tuple[str, int, int, tuple[int, ...]] | None:
    """The most recent event of ``kind`` in the current round of the view's history."""
    for event in reversed(view.history):
        if event[0] == kind:
            return event
        if event[0] == "dealer":
            return None
    return None


def observation_table(
    edition: str = "classic", players: int = 2, rules: Rules | None = None, history: int = DEFAULT_HISTORY
) -> list[Field]:
    """The fields of the vector for ``edition`` at a table of ``players``, in order."""
    return Encoder(edition, players, rules, history).table()


def markdown_table(edition: str = "classic", players: int = 2, history: int = DEFAULT_HISTORY) -> str:
    """The fields (and the event slot) as Markdown tables, as docs/rl.md shows them."""
    encoder = Encoder(edition, players, history=history)

    def rows(fields: Sequence[Field]) -> list[str]:
        lines = ["| field | offset | size | meaning |", "|---|---:|---:|---|"]
        lines += [f"| `{f.name}` | {f.offset} | {f.size} | {f.meaning} |" for f in fields]
        return lines

    lines = [f"Fields ({edition}, {players} players, {history} events; {encoder.size} values):", ""]
    lines += rows(encoder.fields)
    lines += ["", f"Each event slot ({encoder.slot_size} values):", ""]
    lines += rows(encoder.slot_fields)
    return "\n".join(lines) + "\n"
