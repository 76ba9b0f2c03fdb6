"""unokit: rules engine, bots and tools for the UNO family of card games.

>>> from unokit import Game
>>> game = Game("classic", players=2, seed=1)
>>> len(game.view(0).hand)
7
"""

from unokit.editions import EDITIONS, Edition, get_edition
from unokit.engine.actions import ActionSpace, ActionType
from unokit.engine.cards import Colour, Kind, card_name, parse_card
from unokit.engine.errors import (
    GameOverError,
    IllegalActionError,
    NotationError,
    RecordError,
    SetupError,
    UnknownOptionError,
    UnoError,
    WrongPlayerError,
)
from unokit.engine.game import Game
from unokit.engine.positions import PositionError, public_position
from unokit.engine.record import replay, to_record
from unokit.engine.rules import Rules
from unokit.engine.setup import set_up
from unokit.engine.views import View

__all__ = [
    "EDITIONS",
    "ActionSpace",
    "ActionType",
    "Colour",
    "Edition",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "Kind",
    "NotationError",
    "PositionError",
    "RecordError",
    "Rules",
    "SetupError",
    "UnknownOptionError",
    "UnoError",
    "View",
    "WrongPlayerError",
    "card_name",
    "get_edition",
    "parse_card",
    "public_position",
    "replay",
    "set_up",
    "to_record",
]
__version__ = "0.1.0"
