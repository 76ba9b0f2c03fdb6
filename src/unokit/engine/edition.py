"""What an edition is to the engine: its data and the small hooks it overrides, and the registry of editions by name.

:class:`Edition` plays Classic UNO's rules where an edition says nothing else (its start card,
its dealer, its matching); the editions themselves live in :mod:`unokit.editions` and register
on import.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from unokit.engine.actions import ActionSpace
from unokit.engine.cards import (
    ALL_CARDS,
    CARD_COLOUR,
    CARD_IS_WILD,
    CARD_KIND,
    CARD_NUMBER,
    CARD_SPACE,
    Colour,
    Kind,
    card_name,
    parse_card,
)
from unokit.engine.errors import SetupError, UnknownOptionError
from unokit.engine.events import EVENT_KINDS
from unokit.engine.phases import OP_BEGIN, OP_COLOUR
from unokit.engine.rules import Rules

if TYPE_CHECKING:
    from unokit.engine.game import Game

Effect = Callable[["Game", int, int], None]
"""What a card does once played: ``effect(game, seat, card)``."""

ColourSet = tuple[int, int, int, int]


@dataclass(frozen=True)
class Unseen:
    """A list of ``count`` items that a public position does not show (see :mod:`unokit.engine.positions`)."""

    count: int


CLASSIC_COLOURS: ColourSet = (Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE)


class Edition:
    """An edition of the game.  Subclasses set the data and override small hooks."""

    name = ""
    title = ""
    summary = ""
    """The edition in a sentence, for a player choosing one."""
    colours: ColourSet = CLASSIC_COLOURS
    colours_matter = True
    """False when every card is wild and there is no colour in play (All Wild)."""
    composition: tuple[tuple[int, int], ...] = ()
    points: dict[int, int] = {}
    """Points per card kind at the end of a round (number cards: face value)."""
    effect_table: dict[int, Effect] = {}
    final_effect_table: dict[int, Effect] = {}
    main_scoring = "winner-collects"
    """The scoring method of the edition's sheet (what ``Rules.scoring="edition"`` plays)."""
    draw_values: dict[int, int] = {Kind.DRAW_TWO: 2, Kind.WILD_DRAW_FOUR: 4}
    """The draw cards that stacking adds up (house rule ``stacking``), with their values."""
    reverse_kind: int = Kind.REVERSE
    skip_kind: int = Kind.SKIP
    wild_draw_four_kind: int = Kind.WILD_DRAW_FOUR
    """The challengeable Wild Draw Four (-1: none)."""

    def __init__(self) -> None:
        faces = tuple(sorted({card for card, _ in self.composition}))
        self.faces = faces
        self.standard_cards = tuple(sorted(card for card, count in self.composition for _ in range(count)))
        self.actions = ActionSpace(faces, self.colours)
        self.effects: list[Effect | None] = [self.effect_table.get(Kind(k)) for k in range(len(Kind))]
        self.final_effects: list[Effect | None] = [self.final_effect_table.get(Kind(k)) for k in range(len(Kind))]
        self.card_points = [0] * CARD_SPACE
        for card in ALL_CARDS:
            kind = CARD_KIND[card]
            number = CARD_NUMBER[card]
            self.card_points[card] = number if number >= 0 and kind not in self.points else self.points.get(kind, 0)
        self.playable_tables = [
            bytes(self.matches(card, colour, top) for card in range(CARD_SPACE))
            for colour in range(6)
            for top in range(32)
        ]
        self.playable_sets = [frozenset(c for c in faces if table[c]) for table in self.playable_tables]

    def __repr__(self) -> str:
        return f"<Edition {self.name}>"

    def scoring_method(self, rules: Rules) -> str:
        """The scoring method ``rules`` play in this edition: ``rules.scoring``, with ``edition``
        resolved to :attr:`main_scoring`."""
        return self.main_scoring if rules.scoring == "edition" else rules.scoring

    # -- data hooks

    def matches(self, card: int, colour: int, top_kind: int) -> bool:
        """Whether ``card`` may be played on a top card of ``top_kind`` in ``colour``."""
        if CARD_KIND[card] < 0:
            return False
        if CARD_IS_WILD[card]:
            return True
        return CARD_COLOUR[card] == colour or CARD_KIND[card] == top_kind

    def deck_cards(self, rules: Rules) -> list[int]:
        """The sorted deck for ``rules`` (the edition's composition unless overridden)."""
        if rules.deck is None:
            return list(self.standard_cards)
        pairs: list[tuple[int, int]] = []
        for text, count in rules.deck:
            try:
                card = parse_card(text)
            except ValueError:
                raise UnknownOptionError(f"rule option 'deck': unknown card {text!r}") from None
            if card not in self.faces and count:
                raise UnknownOptionError(f"rule option 'deck': {self.title} has no card {card_name(card)}")
            pairs.append((card, count))
        composition = tuple(pairs)
        return sorted(card for card, count in composition for _ in range(count))

    def hand_points(self, hand: list[int]) -> int:
        """Points of the cards in a hand."""
        table = self.card_points
        return sum(table[c] for c in hand)

    # -- behaviour hooks

    def choose_dealer(self, game: Game) -> int:
        """Each player draws a card; highest number deals, symbols count as zero.
        Tied players draw again, until one is highest.  A deck whose cards all count alike (a
        ``deck`` option of symbols only, say) can never break a tie: the dealer is chosen at random."""
        if len({max(CARD_NUMBER[card], 0) for card in game.deck_cards}) < 2:
            return game.rng.randrange(game.n)
        remaining = list(game.deck_cards)
        candidates = list(range(game.n))
        while True:
            if len(remaining) < len(candidates):
                remaining = list(game.deck_cards)
            drawn = game.rng.sample(remaining, len(candidates))
            for card in drawn:
                remaining.remove(card)
            best = -1
            values: dict[int, int] = {}
            for seat, card in zip(candidates, drawn, strict=True):
                values[seat] = max(CARD_NUMBER[card], 0)
                best = max(best, values[seat])
                game.events.append(("dealer_draw", seat, values[seat], (card,)))
            candidates = [s for s in candidates if values[s] == best]
            if len(candidates) == 1:
                return candidates[0]

    def start_round(self, game: Game) -> None:
        """Flip the start card and apply its start rule (classic rules)."""
        card = game.flip_start_card()
        while CARD_KIND[card] == Kind.WILD_DRAW_FOUR and any(
            CARD_KIND[other] != Kind.WILD_DRAW_FOUR for other in game.draw_pile
        ):  # (a pile of Wild Draw Fours only, a small ``deck``'s, can turn up no other: it stays, as a Wild)
            game.return_start_card()
            card = game.flip_start_card()
        kind = CARD_KIND[card]
        left = game.left_of(game.dealer)
        if not CARD_IS_WILD[card]:
            game.colour = CARD_COLOUR[card]
        if kind == Kind.DRAW_TWO:
            game.draw_cards(left, 2)
            game.events.append(("skip", left, 0, ()))
            game.push(OP_BEGIN, game.left_of(left))
        elif kind == Kind.SKIP:
            game.events.append(("skip", left, 0, ()))
            game.push(OP_BEGIN, game.left_of(left))
        elif kind == Kind.REVERSE:
            game.direction = -1
            game.events.append(("reverse", game.dealer, -1, ()))
            game.push(OP_BEGIN, game.dealer)
        elif CARD_IS_WILD[card]:
            game.push(OP_BEGIN, left)
            game.push(OP_COLOUR, left)
        else:
            game.push(OP_BEGIN, left)

    def targets(self, game: Game, seat: int, kind: int) -> list[int]:
        """Seats ``seat`` may choose for a card of ``kind``: every other player (still in the match)."""
        return [s for s in game.seats_in() if s != seat]

    def on_target(self, game: Game, seat: int, target: int) -> None:
        """Apply the chosen target of a targeting card."""
        raise NotImplementedError(f"{self.title} has no targeting card")

    def run_op(self, game: Game, op: int, seat: int, arg: int) -> bool:
        """Run an edition-specific operation; return True to keep running operations."""
        raise NotImplementedError(f"{self.title} has no operation {op}")

    def copy_extra(self, extra: dict[str, Any]) -> dict[str, Any]:
        """Copy edition-specific state for :meth:`Game.clone`."""
        return {key: list(value) if isinstance(value, list) else value for key, value in extra.items()}

    # -- hooks of editions with their own phases, actions and set-up

    event_kinds: frozenset[str] = EVENT_KINDS
    """Every kind of event this edition reports."""
    phase_names: tuple[str, ...] = ()
    """Names of the edition's own phases (numbered from ``phases.EDITION_PHASES``)."""
    phase_asks: tuple[str, ...] = ()
    """What each of those phases asks the actor, in words (``{they}`` and ``{their}`` stand for the
    actor: see :meth:`Game.asks`)."""
    op_names: dict[int, str] = {}
    """Names of the edition's own pending operations (numbered from ``phases.EDITION_OPS``), as positions
    write them."""

    def setup(self, game: Game, rule_cards: Sequence[str] | None) -> None:
        """Edition-specific set-up before the first deal."""
        if rule_cards is not None:
            raise SetupError(f"{self.title} has no rule cards")

    def actor_actions(self, game: Game) -> tuple[int, ...]:
        """Legal actions of the actor in one of the edition's phases."""
        raise NotImplementedError(f"{self.title} has no phase {game.phase}")

    def apply_action(self, game: Game, seat: int, kind: int, arg: int) -> None:
        """Apply a (legal) action in one of the edition's phases."""
        raise NotImplementedError(f"{self.title} has no phase {game.phase}")

    def end_round(self, game: Game) -> None:
        """Tidy edition-specific state when a round ends."""

    def public_info(self, game: Game, seat: int | None) -> dict[str, Any]:
        """Edition-specific public data for a view."""
        return {}

    def decision_info(self, game: Game) -> dict[str, int]:
        """Edition-specific public details of the decision asked now (for views)."""
        return {}

    def public_state(self, game: Game) -> dict[str, Any]:
        """Edition-specific state that every player knows (for views and determinization)."""
        return {}

    def restore_public_state(self, game: Game, state: dict[str, Any], rng: Any) -> None:
        """Set the edition's state of a sampled game from ``public_state`` (hidden parts sampled with ``rng``)."""

    # -- positions (:mod:`unokit.engine.positions`)

    target_kinds: frozenset[int] = frozenset()
    """What a ``target`` decision may be for in this edition (``game.target_kind``): the kinds of its
    cards that target a player, or its own purposes."""
    extra_fields: dict[str, str] = {}
    """The entries of ``game.extra`` a position writes, in its order, with their kind: ``int``, ``list``
    (a list of integers), ``tuple`` (a tuple of integers) or ``texts`` (a tuple of texts)."""

    def check_extra(self, game: Game) -> tuple[str, str] | None:
        """``(entry, why)`` when ``game.extra`` (read from a position) cannot happen, else ``None``."""
        return None

    def public_extra(self, state: dict[str, Any]) -> dict[str, Any]:
        """``game.extra`` as the public ``state`` of a view (:meth:`public_state`) tells it: a list nobody
        may see is :class:`Unseen`, a text nobody has seen ``None``."""
        return {}

    def complete_extra(self, extra: dict[str, Any], rng: Any) -> dict[str, Any]:
        """:meth:`public_extra`'s entries with what they do not show drawn at random with ``rng``."""
        return dict(extra)


EDITIONS: dict[str, Edition] = {}
"""Every edition by name, in the order they registered."""


def get_edition(name: str) -> Edition:
    """The edition called ``name``; :class:`UnknownOptionError` if none."""
    try:
        return EDITIONS[name]
    except (KeyError, TypeError):
        raise UnknownOptionError(f"unknown edition {name!r}; known: {', '.join(sorted(EDITIONS))}") from None


def register_edition(edition: Edition) -> None:
    """Make an edition available by name."""
    EDITIONS[edition.name] = edition
