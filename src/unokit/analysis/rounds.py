"""What a round records: its length in decisions and turns, the cards drawn, the lead changes, the
seat trailing at mid-round, whether it was blocked, and what each seat made or met (:class:`Mark`).

Every figure is defined on the match's events (:mod:`unokit.engine.events`, Wild Jackpot's own
kinds in :mod:`unokit.editions.wild_jackpot`) and on the hand sizes before each decision; the
compiled engine (:mod:`unokit.fast.stats`) computes the same figures from its event ring and its
state, and ``tests/test_round_records.py`` holds the two equal.  A :class:`RoundTracker` is fed each
decision (:meth:`RoundTracker.decide`: its round, its seat, whether it was a turn, the hand sizes
and the seats in the round before it) and then the match's events (:meth:`RoundTracker.records`);
:func:`tracked_game` makes a :class:`~unokit.engine.game.Game` that feeds its tracker itself.

>>> from unokit.bots import make_bot
>>> from unokit.bots.runner import play_match
>>> game, tracker = tracked_game("classic", 2, seed=3, rules=Rules(scoring="single-round"))
>>> result = play_match(game, [make_bot("heuristic", seed=s, edition="classic") for s in range(2)])
>>> [record] = tracker.records(result.events)
>>> record.decisions == sum(result.decisions), record.turns <= record.decisions
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from unokit.engine.actions import ActionType
from unokit.engine.cards import CARD_KIND, Kind
from unokit.engine.events import Event
from unokit.engine.game import Game
from unokit.engine.phases import TURN
from unokit.engine.rules import Rules

__all__ = [
    "MARK_OF_KIND",
    "MID_ROOM",
    "Mark",
    "RoundRecord",
    "RoundTracker",
    "apply_tracked",
    "marks_of",
    "tracked_game",
]


class Mark(IntEnum):
    """What a seat made or met in a round: the bits of a round's ``marks`` (each seat a bit set).

    Each is set by an event of the round (the events from its ``dealer`` event to the next one):
    ``seat`` and ``value`` are the event's (see :mod:`unokit.engine.events`)."""

    PLAYED_SKIP = 0
    """A ``play`` event of the seat with a card of that kind (the ``PLAYED_*`` marks, one per kind of
    :data:`unokit.analysis.stats.SPECIAL_KINDS`): a turn's play, an answer to a pending total, a
    jump-in, Wild Jackpot's rule-card plays; not a discard nor the start card."""
    PLAYED_REVERSE = 1
    PLAYED_DRAW_TWO = 2
    PLAYED_WILD = 3
    PLAYED_WILD_DRAW_FOUR = 4
    PLAYED_WILD_JAM = 5
    PLAYED_WILD_REVERSE = 6
    PLAYED_WILD_SKIP = 7
    PLAYED_WILD_SKIP_TWO = 8
    PLAYED_WILD_DRAW_TWO = 9
    PLAYED_WILD_TARGETED_DRAW_TWO = 10
    PLAYED_WILD_FORCED_SWAP = 11
    PLAYED_JACKPOT = 12
    PLAYED_WILD_JACKPOT = 13
    LEVER_CHOOSE_PLAYER = 14
    """A ``lever`` event of the seat with that outcome (the ``LEVER_*`` marks, in the order of
    :data:`unokit.engine.rules.LEVER_OUTCOMES`): the seat pulled the lever."""
    LEVER_RIGHT = 15
    LEVER_LEFT = 16
    LEVER_EVERYONE = 17
    LEVER_DISCARD_COLOURS = 18
    LEVER_DRAW_FOUR = 19
    RULE_ENFORCED = 20
    """A ``rule`` event of the seat: it performed a rule card read as an enforced effect."""
    RULE_HONOUR = 21
    """A ``rule`` event of the seat: it performed a rule card read as an honour task."""
    STACKED = 22
    """A ``stack`` event of the seat whose pending total exceeds the draw value of the card the seat
    played last: it added a draw card to a total another card started."""
    DEFLECTED = 23
    """A ``deflect`` event of the seat."""
    DREW_STACK = 24
    """A ``stack_draw`` event of the seat: it drew a pending total (met)."""
    PASSED_HANDS = 25
    """A ``pass_hands`` event of the seat: its 0 passed every hand on."""
    SWAPPED_HANDS = 26
    """A ``swap`` event of the seat: it swapped hands (Seven-O, a Forced Swap, a rule card)."""
    WAS_SWAPPED = 27
    """A ``swap`` event whose value is the seat: another swapped hands with it (met)."""
    JUMPED_IN = 28
    """A ``jump`` event of the seat."""
    LOST_TO_JUMP = 29
    """A ``jump`` event whose value is the seat: a jump-in took its turn (met)."""
    BOMB = 30
    """A ``bomb`` event of the seat: its set of three or more made every other player draw."""
    MERCY_OUT = 31
    """A ``mercy`` event of the seat: Mercy put it out of the round (met)."""
    CHALLENGE_WON = 32
    """A ``challenge`` event of the seat followed by a guilty ``verdict``: it caught a bluff."""
    CHALLENGE_LOST = 33
    """A ``challenge`` event of the seat followed by an innocent ``verdict``."""
    WAS_CHALLENGED = 34
    """A ``challenge`` event whose value is the seat: its Wild Draw Four was challenged (met)."""
    CAUGHT = 35
    """A ``catch`` event of the seat: it caught a player who had not called UNO."""
    WAS_CAUGHT = 36
    """A ``catch`` event whose value is the seat (met)."""
    SKIPPED = 37
    """A ``skip`` event of the seat: it lost a turn (met)."""

    @property
    def key(self) -> str:
        """The stable identifier of JSON keys and row columns (``played_skip``, ``lever_draw_four``)."""
        return self.name.lower()

    @property
    def label(self) -> str:
        """What a report's row says."""
        return _LABELS[self]


_PLAYED = (
    (Kind.SKIP, "Skip"),
    (Kind.REVERSE, "Reverse"),
    (Kind.DRAW_TWO, "Draw Two"),
    (Kind.WILD, "Wild"),
    (Kind.WILD_DRAW_FOUR, "Wild Draw Four"),
    (Kind.WILD_JAM, "Wild Welcome to the Jam"),
    (Kind.WILD_REVERSE, "Wild Reverse"),
    (Kind.WILD_SKIP, "Wild Skip"),
    (Kind.WILD_SKIP_TWO, "Wild Skip Two"),
    (Kind.WILD_DRAW_TWO, "Wild Draw Two"),
    (Kind.WILD_TARGETED_DRAW_TWO, "Wild Targeted Draw Two"),
    (Kind.WILD_FORCED_SWAP, "Wild Forced Swap"),
    (Kind.JACKPOT, "Jackpot"),
    (Kind.WILD_JACKPOT, "Wild Jackpot"),
)
MARK_OF_KIND: dict[int, Mark] = {int(kind): Mark(bit) for bit, (kind, _) in enumerate(_PLAYED)}
"""The ``PLAYED_*`` mark of each special card kind (the kinds of ``unokit.analysis.stats.SPECIAL_KINDS``)."""
LEVER_MARKS: tuple[Mark, ...] = tuple(Mark(Mark.LEVER_CHOOSE_PLAYER + k) for k in range(6))
"""The ``LEVER_*`` marks, by outcome (outcome ``k`` is ``LEVER_MARKS[k - 1]``)."""

_LABELS: dict[Mark, str] = {
    **{Mark(bit): f"played {name}" for bit, (_, name) in enumerate(_PLAYED)},
    Mark.LEVER_CHOOSE_PLAYER: "lever: choose a player",
    Mark.LEVER_RIGHT: "lever: right",
    Mark.LEVER_LEFT: "lever: left",
    Mark.LEVER_EVERYONE: "lever: everyone",
    Mark.LEVER_DISCARD_COLOURS: "lever: discard colours",
    Mark.LEVER_DRAW_FOUR: "lever: draw four",
    Mark.RULE_ENFORCED: "performed an enforced rule card",
    Mark.RULE_HONOUR: "performed an honour task",
    Mark.STACKED: "stacked a draw card",
    Mark.DEFLECTED: "deflected a stack",
    Mark.DREW_STACK: "drew a stack",
    Mark.PASSED_HANDS: "passed the hands (0)",
    Mark.SWAPPED_HANDS: "swapped hands",
    Mark.WAS_SWAPPED: "was swapped with",
    Mark.JUMPED_IN: "jumped in",
    Mark.LOST_TO_JUMP: "lost a turn to a jump-in",
    Mark.BOMB: "set off a bomb",
    Mark.MERCY_OUT: "put out by Mercy",
    Mark.CHALLENGE_WON: "challenged and won",
    Mark.CHALLENGE_LOST: "challenged and lost",
    Mark.WAS_CHALLENGED: "was challenged",
    Mark.CAUGHT: "caught a player",
    Mark.WAS_CAUGHT: "was caught",
    Mark.SKIPPED: "was skipped",
}
assert len(Mark) <= 63 and set(_LABELS) == set(Mark)

MID_ROOM = 4096
"""The decisions of a round whose trailing seat is kept (both engines): the middle decision of a
round of ``2 * MID_ROOM`` decisions or more lies beyond them, and its ``mid_trailing`` is -1."""


def marks_of(bits: int) -> list[Mark]:
    """The marks of a bit set, in order.

    >>> marks_of((1 << Mark.SKIPPED) | (1 << Mark.PLAYED_WILD))
    [<Mark.PLAYED_WILD: 3>, <Mark.SKIPPED: 37>]
    """
    return [mark for mark in Mark if bits >> mark & 1]


@dataclass
class RoundRecord:
    """What one round records (see ``MatchSummary`` in :mod:`unokit.analysis.stats` for each field)."""

    decisions: int = 0
    turns: int = 0
    first_player: int = -1
    """The seat that took the round's first turn (-1 if nobody did)."""
    cards_drawn: int = 0
    lead_changes: int = 0
    mid_trailing: int = -1
    blocked: int = 0
    marks: list[int] = field(default_factory=list)


@dataclass
class _Open:
    """A round's decisions so far."""

    record: RoundRecord
    leader: int = -1
    """The last seat seen holding the fewest cards alone (-1: none yet)."""
    trailing: list[int] = field(default_factory=list)
    """The seat holding the most cards alone before each decision (-1: shared), the first :data:`MID_ROOM`."""


def _alone(sizes: Sequence[int], seats: Iterable[int], most: bool) -> int:
    """The seat of ``seats`` holding the most (else the fewest) cards alone; -1 if several do."""
    best = -1
    shared = False
    for seat in seats:
        if best < 0 or (sizes[seat] > sizes[best] if most else sizes[seat] < sizes[best]):
            best, shared = seat, False
        elif sizes[seat] == sizes[best]:
            shared = True
    return -1 if shared else best


class RoundTracker:
    """The per-round records of one match, from its decisions and its events.

    ``draw_values``: the draw value of each card kind that stacks (``stack`` events; the game's
    ``draw_values``); ``enforced(rid)``: whether Wild Jackpot's rule card ``rid`` is read as an
    enforced effect (else an honour task)."""

    def __init__(
        self,
        players: int,
        draw_values: Mapping[int, int] | None = None,
        enforced: Callable[[int], bool] | None = None,
    ) -> None:
        self.players = players
        self.draw_values = dict(draw_values or {})
        self.enforced = enforced
        self._rounds: dict[int, _Open] = {}

    def decide(self, round_number: int, seat: int, turn: bool, sizes: Sequence[int], seats_in: Collection[int]) -> None:
        """One decision of round ``round_number`` (from 1) by ``seat``; ``turn``: taken by the player
        whose turn it is in the turn phase (not a call, catch, jump-in or answer); ``sizes`` and
        ``seats_in``: every seat's hand size and the seats in the round, before the decision."""
        now = self._rounds.get(round_number)
        if now is None:
            now = self._rounds[round_number] = _Open(RoundRecord(marks=[0] * self.players))
        record = now.record
        leader = _alone(sizes, seats_in, most=False)
        if leader >= 0:
            if now.leader >= 0 and leader != now.leader:
                record.lead_changes += 1
            now.leader = leader
        if len(now.trailing) < MID_ROOM:
            now.trailing.append(_alone(sizes, seats_in, most=True))
        record.decisions += 1
        if turn:
            record.turns += 1
            if record.first_player < 0:
                record.first_player = seat

    def records(self, events: Iterable[Event]) -> list[RoundRecord]:
        """The records of the match's rounds, in order, given all its events (a round's figures
        from its events are complete once its ``round_end`` is among them)."""
        out: list[RoundRecord] = []
        now: _Open | None = None
        last_card = -1
        challenger = -1
        for kind, seat, value, data in events:
            if kind == "dealer":
                now = self._rounds.get(value) or _Open(RoundRecord(marks=[0] * self.players))
                out.append(now.record)
                continue
            if now is None:
                continue
            record = now.record
            marks = record.marks
            if kind == "play":
                last_card = data[0]
                mark = MARK_OF_KIND.get(CARD_KIND[last_card])
                if mark is not None:
                    marks[seat] |= 1 << mark
            elif kind == "draw":
                record.cards_drawn += value
            elif kind == "round_end":
                if now.leader >= 0 and seat != now.leader:
                    record.lead_changes += 1
                middle = record.decisions // 2
                record.mid_trailing = now.trailing[middle] if middle < len(now.trailing) else -1
            elif kind == "blocked":
                record.blocked = 1
            elif kind == "skip":
                marks[seat] |= 1 << Mark.SKIPPED
            elif kind == "challenge":
                challenger = seat
                marks[value] |= 1 << Mark.WAS_CHALLENGED
            elif kind == "verdict":
                if challenger >= 0:
                    marks[challenger] |= 1 << (Mark.CHALLENGE_WON if value else Mark.CHALLENGE_LOST)
                challenger = -1
            elif kind == "catch":
                marks[seat] |= 1 << Mark.CAUGHT
                marks[value] |= 1 << Mark.WAS_CAUGHT
            elif kind == "lever":
                marks[seat] |= 1 << LEVER_MARKS[value - 1]
            elif kind == "rule":
                enforced = self.enforced is None or self.enforced(value)
                marks[seat] |= 1 << (Mark.RULE_ENFORCED if enforced else Mark.RULE_HONOUR)
            elif kind == "stack":
                if last_card >= 0 and value > self.draw_values.get(CARD_KIND[last_card], 0):
                    marks[seat] |= 1 << Mark.STACKED
            elif kind in _SEAT_MARKS:
                marks[seat] |= 1 << _SEAT_MARKS[kind]
                if kind in _VALUE_MARKS:
                    marks[value] |= 1 << _VALUE_MARKS[kind]
        return out


_SEAT_MARKS = {
    "deflect": Mark.DEFLECTED,
    "stack_draw": Mark.DREW_STACK,
    "pass_hands": Mark.PASSED_HANDS,
    "swap": Mark.SWAPPED_HANDS,
    "jump": Mark.JUMPED_IN,
    "bomb": Mark.BOMB,
    "mercy": Mark.MERCY_OUT,
}
_VALUE_MARKS = {"swap": Mark.WAS_SWAPPED, "jump": Mark.LOST_TO_JUMP}

_TRACKED: dict[type[Game], type[Game]] = {}


def _tracked_class(base: type[Game]) -> type[Game]:
    """``base`` whose :meth:`~unokit.engine.game.Game.apply` tells its tracker of each decision applied."""
    tracked = _TRACKED.get(base)
    if tracked is not None:
        return tracked

    def apply(self: Any, seat: int, action: int) -> None:
        apply_tracked(self, self.round_tracker, seat, action, base.apply)

    tracked = type(f"Tracked{base.__name__}", (base,), {"__slots__": ("round_tracker",), "apply": apply})
    _TRACKED[base] = tracked
    return tracked


def apply_tracked(
    game: Game, tracker: RoundTracker, seat: int, action: int, apply: Callable[[Any, int, int], None] | None = None
) -> None:
    """Apply ``action`` by ``seat`` to ``game`` (through ``apply(game, seat, action)``, default its
    :meth:`~unokit.engine.game.Game.apply`) and tell ``tracker`` of the decision as it stood before."""
    round_number, phase, seats_in = game.round, game.phase, game.seats_in()
    sizes = [len(hand) for hand in game.hands]
    (apply or type(game).apply)(game, seat, action)  # (an illegal action raises here, and is not counted)
    turn = phase == TURN and game.actions.types[action] < ActionType.CALL_UNO
    tracker.decide(round_number, seat, turn, sizes, seats_in)


def tracked_game(
    edition: str,
    players: int,
    *,
    seed: int | None = None,
    rules: Rules | None = None,
    rule_cards: Sequence[str] | None = None,
) -> tuple[Game, RoundTracker]:
    """A :class:`~unokit.engine.game.Game` (as ``Game(edition, players, ...)`` makes it) whose every
    decision applied is fed to the returned tracker; give the tracker the match's events at its end."""
    from unokit.editions.wild_jackpot import WildJackpot

    game = _tracked_class(Game._class_for(rules))(edition, players, seed=seed, rules=rules, rule_cards=rule_cards)

    def enforced(rid: int) -> bool:
        return WildJackpot.card(game, rid).enforced

    draw_values: Mapping[int, int] = getattr(game, "draw_values", {})
    tracker = RoundTracker(players, draw_values, enforced if isinstance(game.edition, WildJackpot) else None)
    game.round_tracker = tracker  # type: ignore[attr-defined]
    return game, tracker
