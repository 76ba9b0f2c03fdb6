"""The editions, as data plus small hooks over :class:`~unokit.engine.edition.Edition`, registered by name on import.

>>> from unokit.engine.rules import Rules
>>> sorted(EDITIONS)
['all-wild', 'classic', 'space-jam', 'wild-jackpot']
>>> len(get_edition("classic").deck_cards(Rules()))
108
>>> len(get_edition("space-jam").deck_cards(Rules()))
112
>>> len(get_edition("all-wild").deck_cards(Rules()))
112

The house rules (:mod:`unokit.editions.house`) are a game class of their own, registered here too.
"""

from __future__ import annotations

from unokit.editions.all_wild import AllWild
from unokit.editions.classic import Classic
from unokit.editions.house import HouseGame
from unokit.editions.space_jam import SpaceJam
from unokit.editions.wild_jackpot import WildJackpot
from unokit.engine.edition import CLASSIC_COLOURS, EDITIONS, Edition, get_edition, register_edition
from unokit.engine.game import register_house_game

for _edition in (Classic(), SpaceJam(), AllWild(), WildJackpot()):
    register_edition(_edition)
register_house_game(HouseGame)

__all__ = [
    "CLASSIC_COLOURS",
    "EDITIONS",
    "AllWild",
    "Classic",
    "Edition",
    "HouseGame",
    "SpaceJam",
    "WildJackpot",
    "get_edition",
    "register_edition",
]
