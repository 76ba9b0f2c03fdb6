"""Per-player and spectator views: the only game data meant to leave the core.

A view holds the viewer's own hand, the other hands' sizes, the public table and
the history redacted for the viewer.  It never holds another player's cards
(except where the rules show them to the viewer, e.g. a hand revealed to a
challenger, or every hand counted at a round's end) nor the draw pile's order.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from itertools import islice
from typing import TYPE_CHECKING, Any, overload

from unokit.engine.cards import COLOUR_LETTERS, NO_COLOUR, card_name, colour_letter, parse_card
from unokit.engine.events import Event, event_to_dict, redact
from unokit.engine.results import RoundResult
from unokit.engine.rules import Rules

if TYPE_CHECKING:
    from unokit.engine.game import Game


class History(Sequence[Event]):
    """The first ``length`` events of an append-only log: an immutable snapshot taken in O(1).

    Views share one redacted log per viewer, so building a view does not copy the whole
    match history.  Compares equal to any sequence of the same events.

    >>> log = [("pass", 0, 0, ())]
    >>> snapshot = History(log, 1)
    >>> log.append(("pass", 1, 0, ()))
    >>> len(snapshot), snapshot == (("pass", 0, 0, ()),), snapshot[-1]
    (1, True, ('pass', 0, 0, ()))
    """

    __slots__ = ("_items", "_length")

    def __init__(self, items: list[Event], length: int) -> None:
        if not 0 <= length <= len(items):
            raise ValueError(f"a snapshot of {length} events of a log of {len(items)}")
        self._items = items
        self._length = length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._length)
            if step == 1:
                return tuple(self._items[start:stop])
            return tuple(self._items[i] for i in range(start, stop, step))
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("history index out of range")
        return self._items[index]

    def __iter__(self) -> Iterator[Event]:
        return islice(self._items, self._length)

    def __reversed__(self) -> Iterator[Event]:
        items = self._items
        for index in range(self._length - 1, -1, -1):
            yield items[index]

    def to_list(self) -> list[Event]:
        """A new list of the events."""
        return self._items[: self._length]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return self._length == other._length and self.to_list() == other.to_list()
        if isinstance(other, (tuple, list)):
            return self._length == len(other) and all(a == b for a, b in zip(self, other, strict=False))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"History({self.to_list()!r})"


@dataclass(frozen=True)
class View:
    """What one seat (or a spectator, ``seat is None``) may know."""

    edition: str
    seat: int | None
    players: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    top_card: int
    colour: int
    direction: int
    draw_pile_size: int
    discard_pile_size: int
    dealer: int
    turn: int
    actor: int
    phase: str
    deciders: tuple[int, ...]
    legal_actions: tuple[int, ...]
    uncalled: tuple[int, ...]
    """Seats holding one card without having called UNO (catchable)."""
    called: tuple[int, ...]
    """Seats holding one card that called UNO for it (see :func:`called_uno`)."""
    scores: tuple[int, ...]
    round: int
    target_score: int
    scoring: str
    winner: int
    history: History
    """The match's events so far, redacted for the viewer."""
    public: dict[str, Any]
    """Edition-specific public data (e.g. the rule cards shown so far)."""
    drawn: int
    """The card the viewer just drew and may play (phase ``drawn``, viewer acting), else -1."""
    decision: dict[str, int]
    """Public details of the decision asked now: ``bluffer`` (phase challenge),
    ``discards_left`` (phase discard), ``target_kind`` (phase target: the card kind or
    the edition's purpose), and the edition's own (see ``Edition.decision_info``)."""
    rules: Rules
    teams: tuple[int, ...]
    """Each seat's team (house rule ``teams``: seat mod 2); empty without teams."""
    winning_team: int
    """The match winner's team (house rule ``teams``); -1 without teams or before the match ends."""
    state: dict[str, Any]
    """The rest of the public state, enough with the hidden cards to rebuild the game
    (see :func:`unokit.determinize.sample_game`): the discard pile (every card in it was
    seen face up), pending operations, the UNO window, turns to lose, and the edition's
    public state."""
    round_results: tuple[RoundResult, ...] = ()
    """The results of the finished rounds (see :mod:`unokit.engine.results`): every hand at a round's
    end is shown to all in its ``hand`` events already."""

    def to_dict(self, *, history: bool = True, last_rounds: int | None = None) -> dict[str, Any]:
        """JSON-ready form, cards in notation; without ``"history"`` if ``history`` is false; with the
        last ``last_rounds`` round results only if it is given.

        Built field by field (no deep copy: a view's fields are tuples, numbers and dicts
        built for this view alone, which are copied one level)."""
        data: dict[str, Any] = {name: getattr(self, name) for name in _VIEW_FIELDS}
        data["hand"] = [card_name(c) for c in self.hand]
        data["top_card"] = card_name(self.top_card)
        data["colour"] = colour_letter(self.colour)
        data["public"] = dict(self.public)
        data["decision"] = dict(self.decision)
        data["rules"] = _rules_dict(self.rules)
        data["state"] = {**self.state, "discard_pile": [card_name(c) for c in self.state["discard_pile"]]}
        results = (
            self.round_results if last_rounds is None else self.round_results[len(self.round_results) - last_rounds :]
        )
        data["round_results"] = [_result_dict(result) for result in results]
        if history:
            data["history"] = [event_to_dict(e) for e in self.history]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> View:
        """The view :meth:`to_dict` wrote (read back from JSON, e.g. a web server's ``update``): cards
        from notation, sequences as tuples; without ``"history"`` the history is empty.  ``public``
        are kept as given, and ``state`` too but for its lists (tuples, as the engine keeps them) and the
        discard pile's cards."""
        letter = data["colour"]
        state = {key: _tuples(value) for key, value in data["state"].items()}
        state["discard_pile"] = tuple(parse_card(c) for c in state["discard_pile"])
        events = [_event_from_dict(e) for e in data.get("history", ())]
        return cls(
            edition=str(data["edition"]),
            seat=None if data["seat"] is None else int(data["seat"]),
            players=int(data["players"]),
            hand=tuple(parse_card(c) for c in data["hand"]),
            hand_sizes=tuple(int(n) for n in data["hand_sizes"]),
            top_card=parse_card(data["top_card"]),
            colour=COLOUR_LETTERS.index(letter) if letter in COLOUR_LETTERS else NO_COLOUR,
            direction=int(data["direction"]),
            draw_pile_size=int(data["draw_pile_size"]),
            discard_pile_size=int(data["discard_pile_size"]),
            dealer=int(data["dealer"]),
            turn=int(data["turn"]),
            actor=int(data["actor"]),
            phase=str(data["phase"]),
            deciders=tuple(int(s) for s in data["deciders"]),
            legal_actions=tuple(int(a) for a in data["legal_actions"]),
            uncalled=tuple(int(s) for s in data["uncalled"]),
            called=tuple(int(s) for s in data["called"]),
            scores=tuple(int(s) for s in data["scores"]),
            round=int(data["round"]),
            target_score=int(data["target_score"]),
            scoring=str(data["scoring"]),
            winner=int(data["winner"]),
            history=History(events, len(events)),
            public=dict(data["public"]),
            drawn=int(data["drawn"]),
            decision={str(k): v for k, v in data["decision"].items()},
            rules=Rules.from_dict(data["rules"]),
            teams=tuple(int(t) for t in data["teams"]),
            winning_team=int(data["winning_team"]),
            state=state,
            round_results=tuple(RoundResult.from_dict(r) for r in data["round_results"]),
        )


def _tuples(value: Any) -> Any:
    """``value`` with every list in it a tuple."""
    return tuple(_tuples(item) for item in value) if isinstance(value, (list, tuple)) else value


def _event_from_dict(data: dict[str, Any]) -> Event:
    """The event :func:`unokit.engine.events.event_to_dict` wrote (cards in notation)."""
    if "scores" in data:
        items: tuple[int, ...] = tuple(int(s) for s in data["scores"])
    elif "seats" in data:
        items = tuple(int(s) for s in data["seats"])
    else:
        items = tuple(parse_card(c) for c in data["cards"])
    return (str(data["kind"]), int(data["seat"]), int(data["value"]), items)


@functools.lru_cache(maxsize=1024)
def _rules_dict_cached(rules: Rules) -> dict[str, Any]:
    return rules.to_dict()


def _rules_dict(rules: Rules) -> dict[str, Any]:
    """``rules.to_dict()``, worked out once per rules."""
    return {
        name: list(value) if isinstance(value, list) else value for name, value in _rules_dict_cached(rules).items()
    }


@functools.lru_cache(maxsize=1024)
def _result_dict_cached(result: RoundResult) -> dict[str, Any]:
    return result.to_dict()


def _result_dict(result: RoundResult) -> dict[str, Any]:
    """``result.to_dict()``, worked out once per result (copied one level: its lists are shared, not to be changed)."""
    return dict(_result_dict_cached(result))


_VIEW_FIELDS = tuple(f.name for f in fields(View) if f.name != "history")


def build_view(game: Game, seat: int | None) -> View:
    """The view of ``seat`` (``None`` for a spectator)."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < game.n):
        from unokit.engine.errors import WrongPlayerError

        raise WrongPlayerError(f"no seat {seat!r} at a table of {game.n}")
    hand = tuple(sorted(game.hands[seat])) if seat is not None else ()
    legal = game.legal_actions(seat) if seat is not None else ()
    history = _redacted_history(game, seat)
    return View(
        edition=game.edition.name,
        seat=seat,
        players=game.n,
        hand=hand,
        hand_sizes=tuple(len(h) for h in game.hands),
        top_card=game.discard_pile[-1],
        colour=game.colour,
        direction=game.direction,
        draw_pile_size=len(game.draw_pile),
        discard_pile_size=len(game.discard_pile),
        dealer=game.dealer,
        turn=game.turn,
        actor=game.actor,
        phase=game.phase_name,
        deciders=game.deciders_seen_by(seat),
        legal_actions=legal,
        uncalled=tuple(sorted(game.exposed)),
        called=called_uno(history, tuple(len(h) for h in game.hands), game.exposed),
        scores=tuple(game.scores),
        round=game.round,
        target_score=game.rules.target_score,
        scoring=game.scoring,
        winner=game.winner,
        history=history,
        public=game.edition.public_info(game, seat),
        drawn=game.drawn if seat is not None and seat == game.actor and game.phase_name == "drawn" else -1,
        decision=decision_info(game),
        rules=game.rules,
        teams=game.teams,
        winning_team=game.winning_team,
        state=public_state(game),
        round_results=game.round_results,
    )


def round_start(history: Sequence[Event]) -> int:
    """Index of the current round's first event (its ``dealer`` event), 0 if there is none."""
    index = len(history)
    for event in reversed(history):
        index -= 1
        if event[0] == "dealer":
            return index
    return 0


_HAND_CHANGES = frozenset({"deal", "draw", "discard", "take", "give", "swap", "mercy"})
"""Events that change a hand otherwise than by playing a card: a call made before them no longer counts."""


def called_uno(history: Sequence[Event], hand_sizes: Sequence[int], uncalled: Sequence[int] = ()) -> tuple[int, ...]:
    """Seats holding one card that called UNO for it, from the current round's ``history``.

    A seat called if its last play carried the call (``("play", seat, 1, ...)``) or an
    ``("uno", seat, ...)`` event came after it, and no later event changed its hand
    (a draw, a catch of it, a discard, a card taken, given or swapped).  A seat that
    holds one card without the call, whether it may still be caught (``uncalled``) or
    not, did not call.

    >>> history = [("dealer", 0, 1, ()), ("play", 1, 1, (3,)), ("play", 2, 0, (4,))]
    >>> called_uno(history, (5, 1, 1))
    (1,)
    >>> called_uno([*history, ("uno", 2, 0, ())], (5, 1, 1))
    (1, 2)
    """
    single = {seat for seat, size in enumerate(hand_sizes) if size == 1} - set(uncalled)
    if not single:
        return ()
    called: set[int] = set()
    for kind, seat, value, _ in reversed(history):  # back to the round's ``dealer`` event at most
        if kind == "play" or kind == "uno":
            if seat in single:
                single.discard(seat)
                if kind == "uno" or value == 1:
                    called.add(seat)
        elif kind == "catch":
            single.discard(value)
        elif kind in _HAND_CHANGES:
            single.discard(seat)
            if kind in ("take", "give", "swap"):
                single.discard(value)
        elif kind == "pass_hands":
            single.clear()
        elif kind == "dealer":
            break
        if not single:
            break
    return tuple(sorted(called))


def _redacted_history(game: Game, seat: int | None) -> History:
    """The log redacted for ``seat``, extended from the events added since the last view."""
    events = game.events
    source, log, shared = game.redacted_logs.get(seat, (None, [], False))
    if source is not events or len(log) > len(events):
        log, shared = [], False
        game.redacted_logs[seat] = (events, log, shared)
    if len(log) < len(events):
        if shared:  # a copy of the game holds this log too: grow a list of one's own
            log = list(log)
            game.redacted_logs[seat] = (events, log, False)
        log.extend(redact(e, seat) for e in events[len(log) :])
    return History(log, len(log))


def public_state(game: Game) -> dict[str, Any]:
    """The public state beyond the table's basics."""
    return {
        "discard_pile": tuple(game.discard_pile),
        "ops": tuple(game.ops),
        "window_armed": game.window_armed,
        "turn_skips": tuple(game.turn_skips),
        "stalls": game.stalls,
        "moves": game.moves,
        "bluff_colour": game.bluff_colour if game.phase_name == "challenge" else -1,
        "target_kind": game.target_kind,
        **game.edition.public_state(game),
        **game.house_state(),
    }


def decision_info(game: Game) -> dict[str, int]:
    """Public details of the decision asked now."""
    phase = game.phase_name
    info = {
        "bluffer": game.bluffer if phase == "challenge" else -1,
        "discards_left": game.discards_left if phase == "discard" else 0,
        "target_kind": game.target_kind if phase == "target" else -1,
    }
    info.update(game.edition.decision_info(game))
    return info
