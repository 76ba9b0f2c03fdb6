"""Per-player and spectator views: the only game data meant to leave the core.

A view holds the viewer's own hand, the other hands' sizes, the public table and
the history redacted for the viewer.  It never holds another player's cards
(except where the rules show them to the viewer, e.g. a hand revealed to a
challenger, or every hand counted at a round's end) nor the draw pile's order.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from unokit.cards import card_name, colour_letter
from unokit.events import Event, event_to_dict, redact
from unokit.rules import Rules

if TYPE_CHECKING:
    from unokit.game import Game


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
    scores: tuple[int, ...]
    round: int
    target_score: int
    scoring: str
    winner: int
    history: tuple[Event, ...]
    public: dict[str, Any]
    """Edition-specific public data (e.g. the rule cards shown so far)."""
    drawn: int
    """The card the viewer just drew and may play (phase ``drawn``, viewer acting), else -1."""
    decision: dict[str, int]
    """Public details of the decision asked now: ``bluffer`` (phase challenge),
    ``discards_left`` (phase discard), ``target_kind`` (phase target: the card kind or
    the edition's purpose), and the edition's own (see ``Edition.decision_info``)."""
    rules: Rules
    state: dict[str, Any]
    """The rest of the public state, enough with the hidden cards to rebuild the game
    (see :func:`unokit.determinize.sample_game`): the discard pile (every card in it was
    seen face up), pending operations, the UNO window, turns to lose, and the edition's
    public state."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, cards in notation."""
        data = asdict(self)
        data["hand"] = [card_name(c) for c in self.hand]
        data["top_card"] = card_name(self.top_card)
        data["colour"] = colour_letter(self.colour)
        data["history"] = [event_to_dict(e) for e in self.history]
        data["rules"] = self.rules.to_dict()
        data["state"] = {**self.state, "discard_pile": [card_name(c) for c in self.state["discard_pile"]]}
        return data


def build_view(game: Game, seat: int | None) -> View:
    """The view of ``seat`` (``None`` for a spectator)."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < game.n):
        from unokit.errors import WrongPlayerError

        raise WrongPlayerError(f"no seat {seat!r} at a table of {game.n}")
    hand = tuple(sorted(game.hands[seat])) if seat is not None else ()
    legal = game.legal_actions(seat) if seat is not None else ()
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
        deciders=game.deciders(),
        legal_actions=legal,
        uncalled=tuple(sorted(game.exposed)),
        scores=tuple(game.scores),
        round=game.round,
        target_score=game.rules.target_score,
        scoring=game.rules.scoring,
        winner=game.winner,
        history=tuple(redact(e, seat) for e in game.events),
        public=game.edition.public_info(game, seat),
        drawn=game.drawn if seat is not None and seat == game.actor and game.phase_name == "drawn" else -1,
        decision=decision_info(game),
        rules=game.rules,
        state=public_state(game),
    )


def public_state(game: Game) -> dict[str, Any]:
    """The public state beyond the table's basics."""
    return {
        "discard_pile": tuple(game.discard_pile),
        "ops": tuple(game.ops),
        "window_armed": game.window_armed,
        "turn_skips": tuple(game.turn_skips),
        "bluff_colour": game.bluff_colour if game.phase_name == "challenge" else -1,
        "target_kind": game.target_kind,
        **game.edition.public_state(game),
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
