"""UNO Space Jam: orange instead of green, and the Wild Welcome to the Jam card."""

from __future__ import annotations

from typing import TYPE_CHECKING

from unokit.editions.classic import Classic, standard_deck
from unokit.editions.effects import jam_effect
from unokit.engine.cards import Colour, Kind
from unokit.engine.edition import ColourSet
from unokit.engine.phases import OP_DISCARD, OP_JAM
from unokit.i18n import english

if TYPE_CHECKING:
    from unokit.engine.game import Game

SPACE_JAM_COLOURS: ColourSet = (Colour.RED, Colour.YELLOW, Colour.ORANGE, Colour.BLUE)


class SpaceJam(Classic):
    """UNO Space Jam: orange replaces green; four Wild Welcome to the Jam cards."""

    name = "space-jam"
    title = "UNO Space Jam"
    summary = english("edition.space_jam.summary")
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
