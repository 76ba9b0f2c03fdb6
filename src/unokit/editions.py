"""Editions: deck composition, scoring table and card effects, as data plus small hooks.

>>> sorted(EDITIONS)
['all-wild', 'classic', 'space-jam', 'wild-jackpot']
>>> len(get_edition("classic").deck_cards(Rules()))
108
>>> len(get_edition("space-jam").deck_cards(Rules()))
112
>>> len(get_edition("all-wild").deck_cards(Rules()))
112
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from unokit.actions import ActionSpace
from unokit.cards import (
    ALL_CARDS,
    CARD_COLOUR,
    CARD_IS_WILD,
    CARD_KIND,
    CARD_NUMBER,
    CARD_SPACE,
    NO_COLOUR,
    Colour,
    Kind,
    card_name,
    make_card,
    parse_card,
    wild,
)
from unokit.errors import SetupError, UnknownOptionError
from unokit.events import EVENT_KINDS
from unokit.game import (
    OP_BEGIN,
    OP_CHALLENGE,
    OP_COLOUR,
    OP_DISCARD,
    OP_DRAW,
    OP_END_TURN,
    OP_JAM,
    OP_TARGET,
)
from unokit.rules import Rules

if TYPE_CHECKING:
    from unokit.game import Game

Effect = Callable[["Game", int, int], None]

ColourSet = tuple[int, int, int, int]
CLASSIC_COLOURS: ColourSet = (Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE)
SPACE_JAM_COLOURS: ColourSet = (Colour.RED, Colour.YELLOW, Colour.ORANGE, Colour.BLUE)


def standard_deck(colours: ColourSet, wilds: dict[int, int]) -> tuple[tuple[int, int], ...]:
    """Per colour one 0, two each of 1-9, Skip, Reverse and Draw Two; then the wilds."""
    counts: list[tuple[int, int]] = []
    for colour in colours:
        counts.append((make_card(colour, Kind.ZERO), 1))
        for kind in (*range(1, 10), Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO):
            counts.append((make_card(colour, kind), 2))
    counts += [(wild(kind), count) for kind, count in wilds.items()]
    return tuple(counts)


# ---------------------------------------------------------------- card effects
# An effect runs after a card is played (hand not empty); it pushes operations
# (the last pushed runs first) or ends the turn.  A final effect runs when the
# card was the player's last; the round-end operation is already pushed.


def skip_effect(game: Game, seat: int, card: int) -> None:
    game.end_turn(seat, 1)


def reverse_effect(game: Game, seat: int, card: int) -> None:
    game.direction = -game.direction
    game.events.append(("reverse", seat, game.direction, ()))
    two_player_skip = game.players_in == 2 and game.rules.two_player_reverse_skips
    game.end_turn(seat, 1 if two_player_skip else 0)


def draw_two_effect(game: Game, seat: int, card: int) -> None:
    game.draw_cards(game.next_seat(seat), 2)
    game.end_turn(seat, 1)


def draw_four_effect(game: Game, seat: int, card: int) -> None:
    game.draw_cards(game.next_seat(seat), 4)
    game.end_turn(seat, 1)


def wild_effect(game: Game, seat: int, card: int) -> None:
    game.push(OP_END_TURN, seat, 0)
    game.push(OP_COLOUR, seat)


def wild_draw_four_effect(game: Game, seat: int, card: int) -> None:
    victim = game.next_seat(seat)
    if game.rules.allow_bluff:
        game.bluff_colour = game.colour
        game.bluff = game.holds_colour(seat, game.colour)
        game.push(OP_CHALLENGE, victim, seat)
    else:
        game.push(OP_END_TURN, seat, 1)
        game.push(OP_DRAW, victim, 4)
    game.push(OP_COLOUR, seat)


def jam_effect(game: Game, seat: int, card: int) -> None:
    game.push(OP_END_TURN, seat, 0)
    game.push(OP_COLOUR, seat)
    game.push(OP_JAM, seat)


def skip_two_effect(game: Game, seat: int, card: int) -> None:
    game.end_turn(seat, min(2, game.players_in - 1))


def targeted_effect(game: Game, seat: int, card: int) -> None:
    game.push(OP_END_TURN, seat, 0)
    game.push(OP_TARGET, seat, CARD_KIND[card])


def final_draw_two(game: Game, seat: int, card: int) -> None:
    game.draw_cards(game.next_seat(seat), 2)


def final_draw_four(game: Game, seat: int, card: int) -> None:
    game.draw_cards(game.next_seat(seat), 4)


def final_targeted(game: Game, seat: int, card: int) -> None:
    game.push(OP_TARGET, seat, CARD_KIND[card])


def final_forced_swap(game: Game, seat: int, card: int) -> None:
    if game.rules.forced_swap_final_card == "swaps":
        final_targeted(game, seat, card)


# ---------------------------------------------------------------- editions


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
    """Names of the edition's own phases (numbered from ``game.EDITION_PHASES``)."""
    phase_asks: tuple[str, ...] = ()
    """What each of those phases asks the actor, in words (``{they}`` and ``{their}`` stand for the
    actor: see :meth:`Game.asks`)."""

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


class Classic(Edition):
    """Classic UNO: the common base, 108 cards."""

    name = "classic"
    title = "Classic UNO"
    summary = (
        "The original: match the top card by colour, number or symbol; Skip, Reverse, Draw Two and "
        "Wild Draw Four shake things up."
    )
    composition = standard_deck(CLASSIC_COLOURS, {Kind.WILD: 4, Kind.WILD_DRAW_FOUR: 4})
    points = {Kind.SKIP: 20, Kind.REVERSE: 20, Kind.DRAW_TWO: 20, Kind.WILD: 50, Kind.WILD_DRAW_FOUR: 50}
    effect_table = {
        Kind.SKIP: skip_effect,
        Kind.REVERSE: reverse_effect,
        Kind.DRAW_TWO: draw_two_effect,
        Kind.WILD: wild_effect,
        Kind.WILD_DRAW_FOUR: wild_draw_four_effect,
    }
    final_effect_table = {Kind.DRAW_TWO: final_draw_two, Kind.WILD_DRAW_FOUR: final_draw_four}


class SpaceJam(Classic):
    """UNO Space Jam: orange replaces green; four Wild Welcome to the Jam cards."""

    name = "space-jam"
    title = "UNO Space Jam"
    summary = (
        "Orange replaces green, and the Wild Jam card is dropped: Slam side up you discard two "
        "cards, UNO side up you draw two."
    )
    colours = SPACE_JAM_COLOURS
    composition = standard_deck(SPACE_JAM_COLOURS, {Kind.WILD: 4, Kind.WILD_DRAW_FOUR: 4, Kind.WILD_JAM: 4})
    points = {**Classic.points, Kind.WILD_JAM: 50}
    effect_table = {**Classic.effect_table, Kind.WILD_JAM: jam_effect}

    def run_op(self, game: Game, op: int, seat: int, arg: int) -> bool:
        if op != OP_JAM:
            return super().run_op(game, op, seat, arg)
        slam = game.rng.random() < game.rules.jam_slam_chance
        game.events.append(("jam", seat, 1 if slam else 0, ()))
        if slam:
            game.push(OP_DISCARD, seat, game.rules.jam_discard)
        else:
            game.draw_cards(seat, game.rules.jam_draw)
        return True


ALL_WILD_ACTION_KINDS = (
    Kind.WILD_REVERSE,
    Kind.WILD_SKIP,
    Kind.WILD_SKIP_TWO,
    Kind.WILD_DRAW_TWO,
    Kind.WILD_DRAW_FOUR,
    Kind.WILD_TARGETED_DRAW_TWO,
    Kind.WILD_FORCED_SWAP,
)


class AllWild(Edition):
    """UNO All Wild: every card is wild; eight kinds of card, no colours."""

    name = "all-wild"
    title = "UNO All Wild"
    summary = (
        "Every card is wild, so any card goes on any card: Skip Two, Targeted Draw Two and Forced "
        "Swap decide the round."
    )
    colours_matter = False
    draw_values = {Kind.WILD_DRAW_TWO: 2, Kind.WILD_DRAW_FOUR: 4}
    reverse_kind = Kind.WILD_REVERSE
    skip_kind = Kind.WILD_SKIP
    wild_draw_four_kind = -1
    main_scoring = "single-round"
    """The sheet's "Winning": the first player out wins; points to 500 are its optional victory method."""
    composition = ((wild(Kind.WILD), 28), *((wild(kind), 12) for kind in ALL_WILD_ACTION_KINDS))
    points = {Kind.WILD: 20, **{kind: 50 for kind in ALL_WILD_ACTION_KINDS}}
    effect_table = {
        Kind.WILD_REVERSE: reverse_effect,
        Kind.WILD_SKIP: skip_effect,
        Kind.WILD_SKIP_TWO: skip_two_effect,
        Kind.WILD_DRAW_TWO: draw_two_effect,
        Kind.WILD_DRAW_FOUR: draw_four_effect,
        Kind.WILD_TARGETED_DRAW_TWO: targeted_effect,
        Kind.WILD_FORCED_SWAP: targeted_effect,
    }
    final_effect_table = {
        Kind.WILD_DRAW_TWO: final_draw_two,
        Kind.WILD_DRAW_FOUR: final_draw_four,
        Kind.WILD_TARGETED_DRAW_TWO: final_targeted,
        Kind.WILD_FORCED_SWAP: final_forced_swap,
    }

    def __init__(self) -> None:
        super().__init__()
        self.actions = ActionSpace(self.faces, ())

    def matches(self, card: int, colour: int, top_kind: int) -> bool:
        return CARD_KIND[card] >= 0

    def choose_dealer(self, game: Game) -> int:
        """Every card is wild (all count zero): the dealer is chosen at random."""
        dealer = game.rng.randrange(game.n)
        return dealer

    def start_round(self, game: Game) -> None:
        """Flip the start card; its action is ignored; left of the dealer plays first."""
        game.flip_start_card()
        game.colour = NO_COLOUR
        game.push(OP_BEGIN, game.left_of(game.dealer))

    def on_target(self, game: Game, seat: int, target: int) -> None:
        game.events.append(("target", seat, target, ()))
        if game.target_kind == Kind.WILD_TARGETED_DRAW_TWO:
            game.draw_cards(target, 2)
            return
        hands = game.hands
        hands[seat], hands[target] = hands[target], hands[seat]
        game.events.append(("swap", seat, target, ()))
        game.expose_if_single(seat)
        game.expose_if_single(target)


EDITIONS: dict[str, Edition] = {e.name: e for e in (Classic(), SpaceJam(), AllWild())}


def get_edition(name: str) -> Edition:
    """The edition called ``name``; :class:`UnknownOptionError` if none."""
    try:
        return EDITIONS[name]
    except (KeyError, TypeError):
        raise UnknownOptionError(f"unknown edition {name!r}; known: {', '.join(sorted(EDITIONS))}") from None


def register_edition(edition: Edition) -> None:
    """Make an edition available by name."""
    EDITIONS[edition.name] = edition


# Editions in modules of their own register themselves on import.
from unokit import jackpot as _jackpot  # noqa: E402, F401
