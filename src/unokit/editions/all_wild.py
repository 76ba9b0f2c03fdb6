"""UNO All Wild: every card is wild; eight kinds of wild action card."""

from __future__ import annotations

from typing import TYPE_CHECKING

from unokit.editions.effects import (
    draw_four_effect,
    draw_two_effect,
    final_draw_four,
    final_draw_two,
    final_forced_swap,
    final_targeted,
    reverse_effect,
    skip_effect,
    skip_two_effect,
    targeted_effect,
)
from unokit.engine.actions import ActionSpace
from unokit.engine.cards import CARD_KIND, NO_COLOUR, Kind, wild
from unokit.engine.edition import Edition
from unokit.engine.phases import OP_BEGIN
from unokit.i18n import english

if TYPE_CHECKING:
    from unokit.engine.game import Game

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
    summary = english("edition.all_wild.summary")
    colours_matter = False
    draw_values = {Kind.WILD_DRAW_TWO: 2, Kind.WILD_DRAW_FOUR: 4}
    reverse_kind = Kind.WILD_REVERSE
    skip_kind = Kind.WILD_SKIP
    wild_draw_four_kind = -1
    target_kinds = frozenset({Kind.WILD_TARGETED_DRAW_TWO, Kind.WILD_FORCED_SWAP})
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
