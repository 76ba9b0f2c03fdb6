"""A measuring stick for the Python engine's speed: Classic UNO cut to the bone.

:class:`BareClassic` continues a Classic game dealt by :class:`unokit.Game` (same seed, same deal,
start card resolved) with only what a Python program of these rules must do at each decision:
list the legal actions (the edition's action ids, sorted), check the action chosen against them,
move the card, apply its effect (Skip, Reverse, Draw Two, a colour for a wild, a Wild Draw Four
challenge), pass the turn, draw and reshuffle.

It is not an engine and nothing uses it.  It keeps no event log and no history of actions, has no
UNO calls or catches, no house rules, no other edition, no views, and gives no error messages: it
trusts its caller.  Timed with the engine's own loop (``bench/vs_rlcard.py``), it says how fast a
decision of these rules can be in plain Python on this interpreter: a floor under the full
engine, which does all of that as well.
"""

from __future__ import annotations

import random

from unokit import Game, Rules
from unokit.editions import get_edition
from unokit.engine.actions import ActionType
from unokit.engine.cards import CARD_COLOUR, CARD_IS_WILD, CARD_KIND, Kind
from unokit.engine.game import shuffle_cards

_GAME_RULES = Rules(scoring="single-round")
_EDITION = get_edition("classic")
_SPACE = _EDITION.actions
_PLAYABLE = _EDITION.playable_sets
_PLAY_ID = _SPACE.play_id
_CARD_OF = [-1] * _SPACE.size
for _card, _action in enumerate(_PLAY_ID):
    if _action >= 0:
        _CARD_OF[_action] = _card
_DRAW, _PASS, _CHALLENGE, _ACCEPT = _SPACE.draw, _SPACE.pass_, _SPACE.challenge, _SPACE.accept
_DRAW_ALONE = (_DRAW,)
_COLOUR_IDS = tuple(_SPACE.id(ActionType.COLOUR, c) for c in _SPACE.colours)
_COLOUR_OF = dict(zip(_COLOUR_IDS, _SPACE.colours, strict=True))
_SKIP, _REVERSE, _DRAW_TWO = int(Kind.SKIP), int(Kind.REVERSE), int(Kind.DRAW_TWO)
_WILD_DRAW_FOUR = int(Kind.WILD_DRAW_FOUR)
_TURN, _DRAWN, _COLOUR, _CHALLENGE_PHASE = range(4)
_THEN_END, _THEN_CHALLENGE, _THEN_BEGIN = range(3)


class BareClassic:
    """Classic UNO from a dealt position, with no log, no UNO calls and no checks beyond legality."""

    __slots__ = (
        "_legal",
        "actor",
        "bluff",
        "bluffer",
        "colour",
        "direction",
        "discard_pile",
        "draw_pile",
        "drawn",
        "hands",
        "is_over",
        "n",
        "phase",
        "rng",
        "then",
    )

    def __init__(self, players: int, seed: int) -> None:
        dealt = Game("classic", players, seed=seed, rules=_GAME_RULES)
        self.rng = random.Random()
        self.rng.setstate(dealt.rng.getstate())
        self.hands = [list(hand) for hand in dealt.hands]
        self.draw_pile = list(dealt.draw_pile)
        self.discard_pile = list(dealt.discard_pile)
        self.colour = dealt.colour
        self.direction = dealt.direction
        self.actor = dealt.actor
        self.n = players
        self.drawn = -1
        self.bluff = False
        self.bluffer = -1
        self.is_over = False
        self._legal: tuple[int, ...] | None = None
        # A wild start card: the first player names the colour, then plays.
        self.phase = _COLOUR if dealt.phase_name == "colour" else _TURN
        self.then = _THEN_BEGIN

    def deciders(self) -> tuple[int, ...]:
        """The seat to decide (no one acts out of turn here)."""
        return (self.actor,)

    def legal_actions(self, seat: int) -> tuple[int, ...]:
        """The actor's legal action ids."""
        legal = self._legal
        if legal is not None:
            return legal
        phase = self.phase
        if phase == _TURN:
            cards = _PLAYABLE[self.colour * 32 + CARD_KIND[self.discard_pile[-1]]].intersection(self.hands[seat])
            if cards:
                ids = sorted(map(_PLAY_ID.__getitem__, cards))
                ids.append(_DRAW)
                legal = tuple(ids)
            else:
                legal = _DRAW_ALONE
        elif phase == _DRAWN:
            legal = (_PLAY_ID[self.drawn], _PASS)
        elif phase == _COLOUR:
            legal = _COLOUR_IDS
        else:
            legal = (_CHALLENGE, _ACCEPT)
        self._legal = legal
        return legal

    def apply(self, seat: int, action: int) -> None:
        """Apply a legal action of the actor."""
        legal = self._legal
        if legal is None:
            legal = self.legal_actions(seat)
        if action not in legal:
            raise ValueError(action)
        self._legal = None
        card = _CARD_OF[action]
        if card >= 0:
            self._play(seat, card)
        elif action == _DRAW:
            card = self._draw(seat, 1)
            if card >= 0 and card in _PLAYABLE[self.colour * 32 + CARD_KIND[self.discard_pile[-1]]]:
                self.phase = _DRAWN
                self.drawn = card
            else:
                self._end_turn(seat, 0)
        elif action == _PASS:
            self._end_turn(seat, 0)
        elif action in _COLOUR_OF:
            self.colour = _COLOUR_OF[action]
            if self.then == _THEN_CHALLENGE:
                self.actor = (seat + self.direction) % self.n
                self.phase = _CHALLENGE_PHASE
            elif self.then == _THEN_BEGIN:
                self.phase = _TURN
            else:
                self._end_turn(seat, 0)
        elif action == _CHALLENGE:
            if self.bluff:
                self._draw(self.bluffer, 4)
                self._end_turn(self.bluffer, 0)
            else:
                self._draw(seat, 6)
                self._end_turn(self.bluffer, 1)
        else:
            self._draw(seat, 4)
            self._end_turn(self.bluffer, 1)

    def _play(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        hand.remove(card)
        self.discard_pile.append(card)
        if not hand:
            self.is_over = True
            return
        if not CARD_IS_WILD[card]:
            self.colour = CARD_COLOUR[card]
        kind = CARD_KIND[card]
        if kind < _SKIP:
            self.actor = (seat + self.direction) % self.n
            self.phase = _TURN
        elif kind == _SKIP:
            self._end_turn(seat, 1)
        elif kind == _REVERSE:
            self.direction = -self.direction
            self._end_turn(seat, 1 if self.n == 2 else 0)
        elif kind == _DRAW_TWO:
            self._draw((seat + self.direction) % self.n, 2)
            self._end_turn(seat, 1)
        elif kind == _WILD_DRAW_FOUR:
            self.bluff = any(CARD_COLOUR[c] == self.colour for c in hand)
            self.bluffer = seat
            self.then = _THEN_CHALLENGE
            self.phase = _COLOUR
        else:
            self.then = _THEN_END
            self.phase = _COLOUR

    def _end_turn(self, seat: int, skip: int) -> None:
        self.actor = (seat + self.direction * (1 + skip)) % self.n
        self.phase = _TURN

    def _draw(self, seat: int, count: int) -> int:
        """``seat`` draws up to ``count`` cards; returns the last drawn (-1: none left)."""
        pile = self.draw_pile
        hand = self.hands[seat]
        card = -1
        for _ in range(count):
            if not pile:
                discards = self.discard_pile
                if len(discards) <= 1:
                    break
                top = discards.pop()
                shuffle_cards(self.rng, discards)
                pile.extend(discards)
                self.discard_pile = [top]
            card = pile.pop()
            hand.append(card)
        return card


def check_against_engine(games: int, seed: int, players: int = 4) -> int:
    """Play ``games`` random games in both :class:`BareClassic` and the engine, the same actions
    in both (the engine's player calls UNO with a next-to-last card, which the bare game has no
    call for), and raise ``AssertionError`` at the first decision where the actor or the legal
    actions differ.  Returns the decisions compared."""
    rng = random.Random(seed)
    compared = 0
    for _ in range(games):
        game_seed = rng.getrandbits(63)
        bare = BareClassic(players, game_seed)
        game = Game("classic", players, seed=game_seed, rules=_GAME_RULES)
        while not bare.is_over:
            seat = bare.actor
            legal = bare.legal_actions(seat)
            engine_legal = tuple(a for a in game.legal_actions(game.actor) if _SPACE.types[a] != ActionType.PLAY_UNO)
            if game.actor != seat or engine_legal != legal:
                raise AssertionError(
                    f"game {game_seed}, decision {compared}: the engine has seat {game.actor} to choose "
                    f"among {engine_legal}, the bare game seat {seat} among {legal}"
                )
            action = rng.choice(legal)
            bare.apply(seat, action)
            card = _CARD_OF[action]
            game.apply(seat, _SPACE.play_uno_id[card] if card >= 0 and len(game.hands[seat]) == 2 else action)
            compared += 1
        if not game.is_over:
            raise AssertionError(f"game {game_seed}: the bare game is over, the engine's goes on")
    return compared
