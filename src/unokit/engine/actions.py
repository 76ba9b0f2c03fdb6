"""The fixed integer action space of an edition, and action notation.

Every decision a player can make is one integer id.  The layout per edition is::

    PLAY c        one id per card face of the edition       "R7"
    PLAY_UNO c    play it and call UNO (next-to-last card)  "R7!"
    DRAW                                                     "draw"
    PASS          keep the drawn card, end the turn         "pass"
    COLOUR k      one per colour of the edition             "=R"
    CHALLENGE     challenge a Wild Draw Four                "challenge"
    ACCEPT        accept it and draw                        "accept"
    TARGET s      choose seat s (0-based)                   "@2"
    DISCARD c     discard a card of your choice             "-R7"
    CALL_UNO      call UNO while holding one card           "uno"
    CATCH s       catch seat s, who did not call UNO        "catch@2"

Editions that need them add (after the above, in this order)::

    DONE          finish a task (an honour task, optional discards)   "done"
    GIVE c        give a card of your choice to another player        ">R7"

Every edition then ends with the house rule Jump-In's actions (legal only when it is on)::

    JUMP c        play an identical card out of turn                  "^R7"
    JUMP_UNO c    jump in with the next-to-last card and call UNO     "^R7!"

Ids are stable for an edition: they depend only on its card faces and colours.
"""

from __future__ import annotations

import operator
from enum import IntEnum

from unokit.engine.cards import CARD_SPACE, COLOUR_LETTERS, card_name, parse_card, parse_colour
from unokit.engine.errors import NotationError

MAX_PLAYERS = 10


class ActionType(IntEnum):
    """What an action does; its argument is a card, colour or seat."""

    PLAY = 0
    PLAY_UNO = 1
    DRAW = 2
    PASS = 3
    COLOUR = 4
    CHALLENGE = 5
    ACCEPT = 6
    TARGET = 7
    DISCARD = 8
    CALL_UNO = 9
    CATCH = 10
    DONE = 11
    GIVE = 12
    JUMP = 13
    JUMP_UNO = 14


INTERRUPT_TYPES = frozenset({ActionType.CALL_UNO, ActionType.CATCH})
"""Actions a player may take out of turn; they never begin a turn."""

JUMP_TYPES = frozenset({ActionType.JUMP, ActionType.JUMP_UNO})
"""Jump-ins (house rule ``jump_in``): taken out of turn, they begin the jumper's turn."""

_WORDS = {
    ActionType.DRAW: "draw",
    ActionType.PASS: "pass",
    ActionType.CHALLENGE: "challenge",
    ActionType.ACCEPT: "accept",
    ActionType.CALL_UNO: "uno",
    ActionType.DONE: "done",
}
_BY_WORD = {word: kind for kind, word in _WORDS.items()}


class ActionSpace:
    """Integer ids for every action of one edition.

    >>> from unokit.engine.edition import get_edition
    >>> space = get_edition("classic").actions
    >>> space.format(space.parse("r7!"))
    'R7!'
    >>> space.format(space.parse("=g"))
    '=G'
    """

    def __init__(self, faces: tuple[int, ...], colours: tuple[int, ...], extra: tuple[ActionType, ...] = ()) -> None:
        self.faces = faces
        self.colours = tuple(int(c) for c in colours)
        self.types: list[ActionType] = []
        self.args: list[int] = []
        self._ids: dict[tuple[ActionType, int], int] = {}
        for face in faces:
            self._add(ActionType.PLAY, face)
        for face in faces:
            self._add(ActionType.PLAY_UNO, face)
        self._add(ActionType.DRAW, 0)
        self._add(ActionType.PASS, 0)
        for colour in colours:
            self._add(ActionType.COLOUR, colour)
        self._add(ActionType.CHALLENGE, 0)
        self._add(ActionType.ACCEPT, 0)
        for seat in range(MAX_PLAYERS):
            self._add(ActionType.TARGET, seat)
        for face in faces:
            self._add(ActionType.DISCARD, face)
        self._add(ActionType.CALL_UNO, 0)
        for seat in range(MAX_PLAYERS):
            self._add(ActionType.CATCH, seat)
        self.extra = extra
        if ActionType.DONE in extra:
            self._add(ActionType.DONE, 0)
        if ActionType.GIVE in extra:
            for face in faces:
                self._add(ActionType.GIVE, face)
        for face in faces:
            self._add(ActionType.JUMP, face)
        for face in faces:
            self._add(ActionType.JUMP_UNO, face)
        self.size = len(self.types)
        self.type_codes: list[int] = [int(t) for t in self.types]
        """The types as plain integers (fast to compare)."""
        # Fast tables indexed by card integer.
        self.play_id = [-1] * CARD_SPACE
        self.play_uno_id = [-1] * CARD_SPACE
        self.discard_id = [-1] * CARD_SPACE
        self.jump_id = [-1] * CARD_SPACE
        self.jump_uno_id = [-1] * CARD_SPACE
        for face in faces:
            self.play_id[face] = self._ids[ActionType.PLAY, face]
            self.play_uno_id[face] = self._ids[ActionType.PLAY_UNO, face]
            self.discard_id[face] = self._ids[ActionType.DISCARD, face]
            self.jump_id[face] = self._ids[ActionType.JUMP, face]
            self.jump_uno_id[face] = self._ids[ActionType.JUMP_UNO, face]
        self.draw = self._ids[ActionType.DRAW, 0]
        self.pass_ = self._ids[ActionType.PASS, 0]
        self.challenge = self._ids[ActionType.CHALLENGE, 0]
        self.accept = self._ids[ActionType.ACCEPT, 0]
        self.call_uno = self._ids[ActionType.CALL_UNO, 0]

    def _add(self, kind: ActionType, arg: int) -> None:
        self._ids[kind, int(arg)] = len(self.types)
        self.types.append(kind)
        self.args.append(int(arg))

    def id(self, kind: ActionType, arg: int = 0) -> int:
        """The id of an action; :class:`NotationError` if this edition has none such."""
        try:
            return self._ids[kind, arg]
        except KeyError:
            raise NotationError(f"this edition has no action {kind.name} {arg}") from None

    def decode(self, action: int) -> tuple[ActionType, int]:
        """``(type, argument)`` of an action id (any integer type: NumPy's too)."""
        index = plain_id(action)
        if type(index) is not int or not 0 <= index < self.size:
            raise NotationError(f"not an action id of this edition: {action!r}")
        return self.types[index], self.args[index]

    def format(self, action: int) -> str:
        """The notation of an action id."""
        kind, arg = self.decode(action)
        if kind is ActionType.PLAY:
            return card_name(arg)
        if kind is ActionType.PLAY_UNO:
            return card_name(arg) + "!"
        if kind is ActionType.COLOUR:
            return "=" + COLOUR_LETTERS[arg]
        if kind is ActionType.TARGET:
            return f"@{arg}"
        if kind is ActionType.DISCARD:
            return "-" + card_name(arg)
        if kind is ActionType.CATCH:
            return f"catch@{arg}"
        if kind is ActionType.GIVE:
            return ">" + card_name(arg)
        if kind is ActionType.JUMP:
            return "^" + card_name(arg)
        if kind is ActionType.JUMP_UNO:
            return "^" + card_name(arg) + "!"
        return _WORDS[kind]

    def parse(self, text: str) -> int:
        """The action id for notation ``text`` (case-insensitive)."""
        if not isinstance(text, str):
            raise NotationError(f"action notation must be text, not {type(text).__name__}")
        key = text.strip().lower()
        if not key or len(key) > 16:
            raise NotationError(f"not an action: {text!r}")
        if key in _BY_WORD:
            return self.id(_BY_WORD[key])
        if key.startswith("catch@"):
            return self.id(ActionType.CATCH, _parse_seat(key[6:], text))
        if key.startswith("@"):
            return self.id(ActionType.TARGET, _parse_seat(key[1:], text))
        if key.startswith("="):
            colour = parse_colour(key[1:])
            if colour not in self.colours:
                raise NotationError(f"this edition has no colour {key[1:].upper()!r}")
            return self.id(ActionType.COLOUR, colour)
        if key.startswith("-"):
            return self._card_action(ActionType.DISCARD, key[1:], text)
        if key.startswith(">"):
            return self._card_action(ActionType.GIVE, key[1:], text)
        if key.startswith("^"):
            if key.endswith("!"):
                return self._card_action(ActionType.JUMP_UNO, key[1:-1], text)
            return self._card_action(ActionType.JUMP, key[1:], text)
        if key.endswith("!"):
            return self._card_action(ActionType.PLAY_UNO, key[:-1], text)
        return self._card_action(ActionType.PLAY, key, text)

    def _card_action(self, kind: ActionType, card_text: str, text: str) -> int:
        try:
            card = parse_card(card_text)
        except NotationError:
            raise NotationError(f"not an action: {text!r}") from None
        if card not in self.faces:
            raise NotationError(f"this edition has no card {card_name(card)}")
        if (kind, card) not in self._ids:
            raise NotationError(f"this edition has no action {text.strip()!r}")
        return self._ids[kind, card]


def plain_id(action: object) -> object:
    """``action`` as a plain ``int`` if it is an integer of any type (NumPy's ``int64``, as
    ``np.flatnonzero(mask)`` gives, included; ``bool`` excluded), else ``action`` unchanged."""
    if type(action) is int or isinstance(action, bool):
        return action
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return action


def _parse_seat(digits: str, text: str) -> int:
    if not (digits.isascii() and digits.isdigit()) or int(digits) >= MAX_PLAYERS:
        raise NotationError(f"bad seat in {text!r}")
    return int(digits)
