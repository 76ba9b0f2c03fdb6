"""Round results: what a finished round came to, as one object.

A round's result is read from its events (``blocked``, ``mercy``, ``hand``, ``round_end``,
``team_win``, ``knockout``, ``match_end``; see :mod:`unokit.engine.events`) by
:func:`round_result`, the only reading of them: the game keeps one per finished round
(``game.round_results``), and :func:`round_results` reads them back from any event log (a
record's, a view's history: the events read are all public).  The scoring itself stays in the
game; a result only reports it.

>>> from unokit.engine.game import Game
>>> from unokit.bots import make_bot
>>> from unokit.bots.runner import play_match
>>> game = Game("classic", 3, seed=4, rules={"scoring": "single-round"})
>>> _ = play_match(game, [make_bot("heuristic", s, "classic") for s in range(3)])
>>> result = game.round_results[0]
>>> result.winner == game.winner, result.ending, result.match_over
(True, 'out', True)
>>> RoundResult.from_dict(result.to_dict()) == result
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from unokit.engine.cards import card_name, parse_card
from unokit.engine.events import Event

if TYPE_CHECKING:
    from unokit.engine.edition import Edition

ENDINGS = ("out", "blocked", "mercy")
"""How a round ends: its winner went out (played the last card); it was blocked (nobody could
play or draw: the lowest hand won); Mercy put every other player (team) out of it (house rule
``mercy``: the last one left won)."""


@dataclass(frozen=True)
class RoundResult:
    """One finished round: who won it and how, every hand at its end, and the scores after it."""

    round: int
    """The round's number (1 for the first)."""
    winner: int
    """The seat that won the round."""
    team: int
    """The winner's team (house rule ``teams``: 0 or 1); -1 without teams."""
    ending: str
    """How the round ended: one of :data:`ENDINGS`."""
    seats: tuple[int, ...]
    """The seats that played the round, in seat order (all but those knocked out of the match before
    it; those Mercy put out of it included)."""
    hands: tuple[tuple[int, ...], ...]
    """Every seat's cards at the round's end, sorted (empty for the winner who went out, a seat
    put out by Mercy and a seat not in the round)."""
    mercy_hands: tuple[tuple[int, ...], ...]
    """Per seat, the cards Mercy put out of the round with it (house rule ``mercy``); else empty."""
    points: tuple[int, ...]
    """Per seat, the points of its cards at the round's end (those put out by Mercy included), by the
    edition's card values; 0 for a seat not in the round."""
    points_won: int
    """The points the winner (each partner) scored for the round (0 where the scoring adds every
    hand instead: running tally, single round, knockout)."""
    scores: tuple[int, ...]
    """The scores after the round."""
    knocked_out: tuple[int, ...] = ()
    """The seats the round knocked out of the match (``knockout`` scoring)."""
    match_over: bool = False
    """Whether the round ended the match."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, cards in notation."""
        return {
            "round": self.round,
            "winner": self.winner,
            "team": self.team,
            "ending": self.ending,
            "seats": list(self.seats),
            "hands": [[card_name(c) for c in hand] for hand in self.hands],
            "mercy_hands": [[card_name(c) for c in hand] for hand in self.mercy_hands],
            "points": list(self.points),
            "points_won": self.points_won,
            "scores": list(self.scores),
            "knocked_out": list(self.knocked_out),
            "match_over": self.match_over,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundResult:
        """The result :meth:`to_dict` wrote."""
        return cls(
            round=int(data["round"]),
            winner=int(data["winner"]),
            team=int(data["team"]),
            ending=str(data["ending"]),
            seats=tuple(int(s) for s in data["seats"]),
            hands=tuple(tuple(parse_card(c) for c in hand) for hand in data["hands"]),
            mercy_hands=tuple(tuple(parse_card(c) for c in hand) for hand in data["mercy_hands"]),
            points=tuple(int(p) for p in data["points"]),
            points_won=int(data["points_won"]),
            scores=tuple(int(s) for s in data["scores"]),
            knocked_out=tuple(int(s) for s in data["knocked_out"]),
            match_over=bool(data["match_over"]),
        )


def round_result(events: Sequence[Event], edition: Edition) -> RoundResult:
    """The result of the one round of ``edition`` whose events ``events`` are (from its ``dealer``
    event to after its ``round_end``); ``ValueError`` if no round ends in them.  The points are the
    ``hand`` events'; a hand Mercy put out of the round (it has no ``hand`` event) counts as the
    game counts it, by ``edition.hand_points``."""
    round_number = 0
    blocked = False
    hands: dict[int, tuple[int, ...]] = {}
    mercy: dict[int, tuple[int, ...]] = {}
    points: dict[int, int] = {}
    end: Event | None = None
    team = -1
    knocked: list[int] = []
    over = False
    for event in events:
        kind, seat, value, data = event
        if end is None:
            if kind == "dealer":
                round_number = value
            elif kind == "blocked":
                blocked = True
            elif kind == "mercy":
                mercy[seat] = tuple(sorted(data))
                points[seat] = edition.hand_points(list(data))
            elif kind == "hand":
                hands[seat] = data
                points[seat] = value
            elif kind == "round_end":
                end = event
        elif kind == "team_win":
            team = value
        elif kind == "knockout":
            knocked.append(seat)
        elif kind == "match_end":
            over = True
        elif kind == "dealer":
            break
    if end is None:
        raise ValueError("no round ends in these events")
    _, winner, gained, scores = end
    seats = range(len(scores))
    ending = "blocked" if blocked else "mercy" if hands.get(winner) else "out"
    return RoundResult(
        round=round_number,
        winner=winner,
        team=team,
        ending=ending,
        seats=tuple(sorted(hands.keys() | mercy.keys())),
        hands=tuple(hands.get(seat, ()) for seat in seats),
        mercy_hands=tuple(mercy.get(seat, ()) for seat in seats),
        points=tuple(points.get(seat, 0) for seat in seats),
        points_won=gained,
        scores=tuple(scores),
        knocked_out=tuple(knocked),
        match_over=over,
    )


def round_results(events: Sequence[Event], edition: Edition) -> tuple[RoundResult, ...]:
    """The results of every round of ``edition`` finished in the event log ``events`` (a game's, a
    record's or a view's history), in order."""
    starts = [i for i, event in enumerate(events) if event[0] == "dealer"]
    ends = [*starts[1:], len(events)]
    return tuple(
        round_result(events[start:end], edition)
        for start, end in zip(starts, ends, strict=True)
        if any(event[0] == "round_end" for event in events[start:end])
    )
