"""Card effects the editions share: what Skip, Reverse, the draw cards, the wilds and the targeting cards do.

An effect runs after a card is played (hand not empty); it pushes operations (the last pushed
runs first) or ends the turn.  A final effect runs when the card was the player's last; the
round-end operation is already pushed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from unokit.engine.cards import CARD_KIND
from unokit.engine.phases import OP_CHALLENGE, OP_COLOUR, OP_DRAW, OP_END_TURN, OP_JAM, OP_TARGET

if TYPE_CHECKING:
    from unokit.engine.game import Game


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
