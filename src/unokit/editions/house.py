"""House rules: options beyond the printed sheets, played by :class:`HouseGame`.

A :class:`~unokit.engine.game.Game` built with every house rule off (``Rules.house_on`` false)
is a plain ``Game`` and runs none of this code.  With one on, ``Game(...)`` (and
``Game.blank``, ``clone``, replays and determinization, which all build through it)
returns a :class:`HouseGame`: the same engine with a few hooks overridden.  The rules
are defined in docs/rules.md ("House rules").

>>> from unokit.engine.game import Game
>>> type(Game("classic", 3, seed=1)).__name__, type(Game("classic", 3, seed=1, rules={"call_uno": False})).__name__
('Game', 'HouseGame')
"""

from __future__ import annotations

from typing import Any

from unokit.editions.wild_jackpot import OP_LEVER_END, OP_PERFORM, OP_RETIRE
from unokit.engine.actions import ActionType
from unokit.engine.cards import CARD_COLOUR, CARD_IS_WILD, CARD_KIND, CARD_NUMBER, Kind, card_name
from unokit.engine.edition import Effect
from unokit.engine.errors import IllegalActionError, WrongPlayerError
from unokit.engine.game import Game
from unokit.engine.phases import (
    CHALLENGE,
    DRAWN,
    EDITION_PHASES,
    HOUSE_OPS,
    HOUSE_PHASES,
    OP_BEGIN,
    OP_CHALLENGE,
    OP_COLOUR,
    OP_DRAW,
    OP_END_ROUND,
    OP_END_TURN,
    OP_TARGET,
    OVER,
    TARGET,
    TURN,
)

_PLAY = int(ActionType.PLAY)
_PLAY_UNO = int(ActionType.PLAY_UNO)
_ACCEPT = int(ActionType.ACCEPT)
_DRAW = int(ActionType.DRAW)
_PASS = int(ActionType.PASS)
_CALL_UNO = int(ActionType.CALL_UNO)
_CATCH = int(ActionType.CATCH)
_JUMP = int(ActionType.JUMP)
_JUMP_UNO = int(ActionType.JUMP_UNO)

STACK = HOUSE_PHASES + 0
"""Phase: the victim of a pending total stacks a draw card (or deflects it) or draws the total."""
MULTI = HOUSE_PHASES + 1
"""Phase: after a number card, the player adds another card of the same number or ends the turn."""

OP_STACK = HOUSE_OPS + 0
"""Operation: offer the pending total to the player after ``seat``."""

SEVEN_SWAP = int(Kind.SEVEN)
"""``target_kind`` of the Seven-O swap's choice of player."""


class HouseGame(Game):
    """A game with at least one house rule on.

    Its overrides call :class:`Game`'s methods by name rather than through ``super()``: they run
    on every decision, and a named call costs less (``Game`` is the only base class)."""

    def _init_state(self, edition: Any, players: int, seed: int | None, rules: Any) -> None:
        Game._init_state(self, edition, players, seed, rules)
        rules = self.rules
        self.out: frozenset[int] = frozenset()
        """The seats taking no part in this round: out of the match (``knockout`` scoring) or out of
        the round (``mercy``)."""
        self.mercy = rules.mercy
        """Mercy: a player holding ``mercy_limit`` cards or more is out of the round."""
        self.mercy_limit = rules.mercy_limit if rules.mercy else 0
        self.out_points: tuple[int, ...] = (0,) * self.n
        """The points of each hand put out of this round by Mercy (scored at the round's end)."""
        self.out_cards: tuple[int, ...] = (0,) * self.n
        """The cards each hand held when Mercy put it out of this round."""
        self.calls_uno = rules.call_uno
        self.silent = not rules.call_uno
        """Silent UNO: no calls, no catches."""
        edition = self.edition
        self.finish_forbidden = frozenset(c for c in edition.faces if forbidden_as_last_card(c, rules, edition))
        """Cards that may not be played as a player's last card (``no_action_finish``, ``no_wild_finish``)."""
        self.stacking = rules.stacking
        self.stack_total = 0
        """The pending total of a stack of draw cards (0: none)."""
        self.stack_kind = -1
        """The kind of the last draw card added to the total."""
        self.draw_values: dict[int, int] = {
            kind: value
            for kind, value in edition.draw_values.items()
            if rules.stacking != "off" and (rules.stacking != "draw-two" or value == 2)
        }
        """The draw cards that start and join a total, with their values."""
        deflect = rules.stack_deflect if self.draw_values else "off"
        self.deflect_kinds = frozenset(
            (edition.reverse_kind,) * (deflect in ("reverse", "both"))
            + (edition.skip_kind,) * (deflect in ("skip", "both"))
        )
        # a card without an effect ends the turn through end_turn (whose house hooks apply), never
        # through Game.play_card's inlined end of turn
        effects: list[Effect | None] = [_pass_turn if effect is None else effect for effect in self._effects]
        finals = list(self._final_effects)
        for kind in self.draw_values:
            effects[kind] = _stack_effect
            finals[kind] = _final_stack
        wd4 = edition.wild_draw_four_kind
        if not rules.wild_draw_four_challenge and wd4 >= 0 and wd4 not in self.draw_values:
            effects[wd4] = _wild_draw_four_unchallenged
        for kind in self.deflect_kinds:
            effects[kind] = _deflector(effects[kind])
            finals[kind] = _final_deflector(finals[kind])
        if rules.seven_swap:
            effects[Kind.SEVEN] = _seven_effect
        if rules.zero_pass:
            effects[Kind.ZERO] = _zero_effect
        self.jumping = rules.jump_in
        """Jump-In: a card identical to the one just played may be played out of turn."""
        self.jump_card = -1
        """The card a jump-in may answer while the window is open (-1: closed)."""
        self.jump_from = -1
        """The seat that played :attr:`jump_card`."""
        self.jump_next = -1
        """The card whose play is being resolved: the window opens on it when the play ends in a turn."""
        self.jump_next_from = -1
        self.jump_seen_at_load = False
        """Whether, in a game loaded from a position while a play was resolved (``jump_next``), that play
        was the last card played (see :mod:`unokit.engine.positions`): the window reads it when the
        game's own events do not reach back to a card played."""
        self.jump_play = False
        """True while a jump-in's card is played (it never starts a set of cards)."""
        self.multi = rules.multi_play if any(CARD_NUMBER[c] >= 0 for c in edition.faces) else "off"
        """``multi_play`` where the edition has number cards, else ``off``."""
        self.multi_count = 0
        """Cards played so far in the current set of one number (0: no set)."""
        self.set_effects: dict[int, Effect] = {}
        """The effects of number cards, run once when a set ends."""
        if self.multi != "off":
            for kind in {CARD_KIND[c] for c in edition.faces if CARD_NUMBER[c] >= 0}:
                effect = effects[kind]
                assert effect is not None
                self.set_effects[kind] = effect
                effects[kind] = _set_effect
        self._effects = effects
        self._final_effects = finals

    # ------------------------------------------------------------------ legal actions

    def deciders(self) -> tuple[int, ...]:
        """:meth:`Game.deciders`, and while a Jump-In window is open the players who may jump in."""
        deciders = Game.deciders(self)
        if self.jump_card < 0:
            return deciders
        missing = [seat for seat in self.jumpers() if seat not in deciders]
        return tuple(sorted((*deciders, *missing))) if missing else deciders

    def deciders_seen_by(self, seat: int | None) -> tuple[int, ...]:
        """:meth:`deciders` without the jumpers but ``seat`` itself: who holds the card on top is
        theirs to know (the window is public, the cards that answer it are not)."""
        if self.jump_card < 0:
            return self.deciders()
        public = Game.deciders(self)
        if seat is not None and seat not in public and self._jumps(seat):
            return tuple(sorted((*public, seat)))
        return public

    def jumpers(self) -> list[int]:
        """The seats that may jump in now, in seat order (none while the window is closed)."""
        card = self.jump_card
        hands = self.hands
        return [seat for seat in range(self.n) if card in hands[seat] and self._jumps(seat)]

    def legal_actions(self, seat: int) -> tuple[int, ...]:
        legal = Game.legal_actions(self, seat)
        if self.jump_card < 0:
            return legal
        jumps = self._jumps(seat)
        return legal + jumps if jumps else legal

    def _jumps(self, seat: int) -> tuple[int, ...]:
        """``seat``'s jump-ins: ``^c`` on the identical card ``c`` on top (``^c!`` with two cards)."""
        card = self.jump_card
        if type(seat) is not int or not 0 <= seat < self.n or seat in (self.actor, self.jump_from) or seat in self.out:
            return ()
        hand = self.hands[seat]
        if card not in hand or (len(hand) == 1 and not self.may_finish_with(card)):
            return ()
        space = self.actions
        if len(hand) == 2 and not self.silent:
            return (space.jump_id[card], space.jump_uno_id[card])
        return (space.jump_id[card],)

    def _actor_actions(self) -> tuple[int, ...]:
        ids = Game._actor_actions(self)
        phase = self.phase
        if phase == TURN:
            ids = self._turn_actions(ids)
        elif phase == DRAWN and self.rules.force_play:
            ids = tuple(a for a in ids if a != self.actions.pass_)
        elif phase == CHALLENGE and self.stack_total:
            ids = tuple(sorted((*ids, *self._stack_plays(self.actor))))
        elif phase == TARGET and self.out:
            out, args = self.out, self._args
            ids = tuple(a for a in ids if args[a] not in out)
        if self.silent:
            types = self._types
            ids = tuple(a for a in ids if types[a] != _PLAY_UNO)
        return ids

    def _turn_actions(self, ids: tuple[int, ...]) -> tuple[int, ...]:
        """A turn's actions under the finishing restrictions, ``must_play`` and ``hand_limit`` (both
        refuse a draw while a play exists)."""
        hand = self.hands[self.actor]
        rules = self.rules
        if len(hand) == 1 and hand[0] in self.finish_forbidden:
            ids = tuple(a for a in ids if self._types[a] > _PLAY_UNO)
        if (rules.must_play or (rules.hand_limit and len(hand) >= rules.hand_limit)) and any(
            self._types[a] <= _PLAY_UNO for a in ids
        ):
            return tuple(a for a in ids if a != self._draw_id)
        return ids

    def may_finish_with(self, card: int) -> bool:
        """Whether ``card`` may be played as a player's last card."""
        return card not in self.finish_forbidden

    def _phase_actions(self) -> tuple[int, ...]:
        if self.phase == STACK:
            return (*self._stack_plays(self.actor), self.actions.accept)
        if self.phase == MULTI:
            return (*self._set_plays(self.actor), self.actions.pass_)
        return Game._phase_actions(self)

    def joins_set(self, card: int) -> bool:
        """Whether ``card`` may join the set of cards whose last one is on top (``multi_play``)."""
        top = self.discard_pile[-1]
        if self.multi == "identical":
            return card == top
        return CARD_NUMBER[card] >= 0 and CARD_NUMBER[card] == CARD_NUMBER[top]

    def _set_plays(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        ids = [self._play_id[c] for c in sorted({c for c in hand if self.joins_set(c)})]
        if len(hand) == 2:
            ids += [a + self._faces for a in ids]
        return ids

    def answers(self, card: int) -> bool:
        """Whether ``card`` may answer the pending total (stack on it or deflect it)."""
        kind = CARD_KIND[card]
        value = self.draw_values.get(kind)
        if value is None:
            top = self.discard_pile[-1]
            return kind in self.deflect_kinds and bool(self._tables[self.colour * 32 + CARD_KIND[top]][card])
        last = self.stack_kind
        mode = self.stacking
        if mode == "up":
            return value >= self.draw_values[last]
        if kind == last:
            return True
        if mode != "cross":
            return False
        if not self.edition.colours_matter:
            return True
        return value > self.draw_values[last] or CARD_COLOUR[card] == self.colour

    def _stack_plays(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        faces = sorted({c for c in hand if self.answers(c) and (len(hand) > 1 or self.may_finish_with(c))})
        ids = [self._play_id[c] for c in faces]
        if len(hand) == 2:
            ids += [a + self._faces for a in ids]
        return ids

    def offer_stack(self, seat: int) -> None:
        """Aim the pending total at the player after ``seat``: asked if they can answer, else they draw it."""
        victim = self.next_seat(seat)
        self.ops.clear()
        if self._stack_plays(victim):
            self.turn = self.actor = victim
            self.phase = STACK
            if self.exposed:
                self.window_armed = True
            return
        self.take_stack(victim)

    def take_stack(self, victim: int) -> None:
        """``victim`` draws the pending total and loses the turn."""
        total = self.stack_total
        self.stack_total = 0
        self.stack_kind = -1
        self.events.append(("stack_draw", victim, total, ()))
        self.draw_cards(victim, total)
        self.events.append(("skip", victim, 0, ()))
        self.end_turn(victim, 0)

    def add_to_stack(self, seat: int, card: int) -> None:
        """Add a draw card's value to the pending total (doubled by ``stack_revenge`` on a running total)."""
        kind = CARD_KIND[card]
        value = self.draw_values[kind]
        if self.stack_total and self.rules.stack_revenge:
            value *= 2
        self.stack_total += value
        self.stack_kind = kind
        self.events.append(("stack", seat, self.stack_total, ()))

    def _apply_phase(self, seat: int, kind: int, arg: int) -> None:
        phase = self.phase
        if phase == MULTI:
            if kind == _PASS:
                self.events.append(("pass", seat, 0, ()))
                self.end_set(seat, self.discard_pile[-1])
                self.run_ops()
            else:
                self.play_card(seat, arg, kind == _PLAY_UNO)
        elif phase != STACK:
            Game._apply_phase(self, seat, kind, arg)
        elif kind == _ACCEPT:
            self.take_stack(seat)
        else:
            self.drawn = -1
            self.play_card(seat, arg, kind == _PLAY_UNO)

    def end_set(self, seat: int, card: int) -> None:
        """A set of number cards ends (``card`` last): the bomb of a set of three or more
        (``multi_play_bomb``: every other player draws 1, the next player first), then the
        effect of the number once; then the turn passes."""
        count = self.multi_count
        self.multi_count = 0
        if count >= 3 and self.rules.multi_play_bomb:
            self.events.append(("bomb", seat, count, ()))
            for step in range(1, self.players_in):  # every other player in the match
                self.draw_cards(self.next_seat(seat, step), 1)
        self.set_effects[CARD_KIND[card]](self, seat, card)

    # ------------------------------------------------------------------ acting

    def apply(self, seat: int, action: int) -> None:
        """:meth:`Game.apply`; with Jump-In on, any action but a call or a catch then closes the
        jump window, and opens a new one when a play has just been resolved into a turn."""
        Game.apply(self, seat, action)
        if self.jumping and not _CALL_UNO <= self._types[action] <= _CATCH:
            self.jump_card = self.jump_from = -1
            if self.jump_next >= 0 and self.phase == TURN:
                self._open_jump_window()
        if self.mercy and self.phase != OVER:
            self._settle()

    # ------------------------------------------------------------------ Mercy

    def _settle(self) -> None:
        """Mercy, after an action is resolved: every player in the round holding ``mercy_limit``
        cards or more is out of it (if that would leave nobody, those with the fewest cards among
        them are spared); their pending decisions are cancelled; when one player (team) is left,
        it wins the round."""
        hands = self.hands
        limit = self.mercy_limit
        if max(map(len, hands)) < limit:
            return  # nobody holds the limit
        playing = self.seats_in()
        over = [s for s in playing if len(hands[s]) >= limit]
        if not over:
            return
        if len(over) == len(playing):
            fewest = min(len(hands[s]) for s in over)
            over = [s for s in over if len(hands[s]) > fewest]
            if not over:
                return
        pile = self.discard_pile
        for seat in over:
            cards = hands[seat]
            self.events.append(("mercy", seat, len(cards), tuple(cards)))
            pile[len(pile) - 1 : len(pile) - 1] = cards  # face up under the top card
            self.out_points = _set(self.out_points, seat, self.edition.hand_points(cards))
            self.out_cards = _set(self.out_cards, seat, len(cards))
            hands[seat] = []
            if seat in self.exposed:
                self.exposed.remove(seat)
            if self.turn_skips[seat]:
                self.pending_skips -= self.turn_skips[seat]
                self.turn_skips[seat] = 0
        self.out = self.out.union(over)
        self.players_in = self.n - len(self.out)
        self._legal = None
        if not self.exposed:
            self.window_armed = False
        playing = self.seats_in()
        teams = self.teams
        if len({teams[s] if teams else s for s in playing}) == 1:
            self.ops[:] = [(OP_END_ROUND, playing[0], 0)]
            self.run_ops()
            return
        self._cancel(frozenset(over))
        if self.phase != OVER:
            self._settle()  # cancelled operations may have run and dealt more cards

    def _cancel(self, gone: frozenset[int]) -> None:
        """Drop what players just put out of the round were still to do (decisions, draws, Jackpot
        tasks: a task's rule card is retired); if one of them was to decide, the turn passes to the
        next player still in."""
        keep = POSITIONAL_OPS
        ops: list[tuple[int, int, int]] = []
        for op, seat, arg in self.ops:
            if op == OP_CHALLENGE and arg in gone:
                continue  # the Wild Draw Four of a player out: no challenge, no penalty
            if seat not in gone or op in keep:
                ops.append((op, seat, arg))
            elif op == OP_PERFORM:
                ops.append((OP_RETIRE, seat, arg))
        self.ops = ops
        actor = self.actor
        phase = self.phase
        gift = EDITION_PHASES <= phase < HOUSE_PHASES and self.extra.get("give_to", -1) in gone
        if phase == CHALLENGE and self.bluffer in gone:
            actor = self.bluffer  # their Wild Draw Four is dropped: its victim plays
        elif actor not in gone and not gift and self._actor_actions():
            return  # (a choice among players may be left with none; a Jackpot gift to a player out is dropped)
        self.drawn = -1
        self.discards_left = 0
        self.multi_count = 0
        self.stack_total = 0
        self.stack_kind = -1
        self.jump_next = self.jump_next_from = -1
        if self.phase == CHALLENGE:
            self.ops = [op for op in ops if op[0] != OP_END_TURN]  # the penalty is dropped with the victim
        if self.ops:
            self.phase = TURN
            self.actor = -1  # set again by an operation that asks a player or ends the turn
            self.run_ops()
            if self.phase == OVER or (self.actor >= 0 and self.actor not in self.out):
                return
            if self.actor >= 0:
                actor = self.actor
        self.end_turn(actor, 0)

    def _open_jump_window(self) -> None:
        """Open the window on the card just played, if it is still on top (not covered by a lever's
        discard) and not a wild card of a coloured edition (no card is identical to it)."""
        card, seat = self.jump_next, self.jump_next_from
        self.jump_next = self.jump_next_from = -1
        if self.discard_pile[-1] != card or (CARD_IS_WILD[card] and self.edition.colours_matter):
            return
        for kind, who, value, data in reversed(self.events):
            if kind == "play":
                if who == seat and data[0] == card:
                    self.jump_card, self.jump_from = card, seat
                return
            if kind == "flip" or (kind == "discard" and value == 1):
                return
        if self.jump_seen_at_load:  # (no card played since the game was loaded)
            self.jump_card, self.jump_from = card, seat

    def play_card(self, seat: int, card: int, called: bool) -> None:
        if self.jumping:
            self.jump_next, self.jump_next_from = card, seat
        Game.play_card(self, seat, card, called)

    def _apply_other(self, seat: int, kind: int, arg: int) -> None:
        if kind not in (_JUMP, _JUMP_UNO):
            Game._apply_other(self, seat, kind, arg)
            return
        self.events.append(("jump", seat, self.actor, ()))
        self.turn = self.actor = seat
        self.drawn = -1
        self.jump_play = True
        self.play_card(seat, arg, kind == _JUMP_UNO)
        self.jump_play = False

    def _why_illegal(self, seat: int, action: int, legal: tuple[int, ...]) -> IllegalActionError:
        error = Game._why_illegal(self, seat, action, legal)
        space = self.actions
        if type(seat) is not int or not 0 <= seat < self.n or not 0 <= action < space.size:
            return error
        kind, arg = space.decode(action)
        text = space.format(action)
        options = ", ".join(space.format(a) for a in legal)
        if kind in (ActionType.JUMP, ActionType.JUMP_UNO):
            reason = self._jump_refusal(seat, kind, arg)
            return type(error)(f"{text} is not legal: {reason}" + (f"; legal: {options}" if legal else ""))
        if seat != self.actor and self._jumps(seat) and isinstance(error, WrongPlayerError):
            return WrongPlayerError(
                f"{text} is not legal: seat {self.actor} is to {self.asks()}; "
                f"seat {seat} may only jump in, call or catch UNO now; legal: {options}"
            )
        if self.phase == MULTI and seat == self.actor and kind is ActionType.PLAY and arg in self.hands[seat]:
            top = card_name(self.discard_pile[-1])
            same = "identical to" if self.multi == "identical" else "of the same number as"
            return IllegalActionError(f"{text} is not legal: only a card {same} {top} may be added; legal: {options}")
        return error

    def _jump_refusal(self, seat: int, kind: ActionType, card: int) -> str:
        """Why ``seat`` may not jump in with ``card`` now."""
        top = self.jump_card
        if not self.jumping:
            return "Jump-In is not played"
        if top < 0:
            return "no jump-in now: a jump-in answers a card just played, before the next player acts"
        if card != top:
            return f"only a card identical to {card_name(top)} may jump in"
        if seat == self.actor:
            return f"seat {seat} is to play: they play {card_name(card)} as a normal card"
        if seat == self.jump_from:
            return f"seat {seat} played {card_name(top)}: a jump-in answers another player's card"
        hand = self.hands[seat]
        if card not in hand:
            return f"seat {seat} holds no {card_name(card)}"
        if len(hand) == 1 and not self.may_finish_with(card):
            return f"{card_name(card)} may not be played as the last card"
        if self.silent:
            return "nobody calls UNO (silent UNO)"
        return "UNO is called when jumping in with the next-to-last card"

    def _run_op(self, op: int, seat: int, arg: int) -> bool:
        if op == OP_STACK:
            self.offer_stack(seat)
            return False
        return Game._run_op(self, op, seat, arg)

    def _draw_on_turn(self, seat: int) -> None:
        """The turn's draw; with ``draw_to_match``, one card at a time until one may be played
        (stopping when nothing more can be drawn, at ``hand_limit`` or at the Mercy limit)."""
        rules = self.rules
        if not rules.draw_to_match:
            Game._draw_on_turn(self, seat)
            return
        hand = self.hands[seat]
        limit = rules.hand_limit
        mercy = self.mercy_limit
        drew = False
        while True:
            got = self.draw_cards(seat, 1)
            if not got:
                break
            drew = True
            self.stalls = 0
            if self.playable(seat, got[0]):
                self.phase = DRAWN
                self.drawn = got[0]
                return
            if (limit and len(hand) >= limit) or (mercy and len(hand) >= mercy):
                break
        self.events.append(("pass", seat, 0, ()))
        if not drew and self.stall(seat):
            return
        self.end_turn(seat, 0)

    def _on_target(self, seat: int, target: int) -> None:
        if self.target_kind != SEVEN_SWAP:
            Game._on_target(self, seat, target)
            return
        hands = self.hands
        hands[seat], hands[target] = hands[target], hands[seat]
        self.events.append(("target", seat, target, ()))
        self.events.append(("swap", seat, target, ()))
        self.expose_if_single(seat)
        self.expose_if_single(target)

    def pass_hands(self, seat: int) -> None:
        """Every hand moves to the next player in the direction of play (a 0 with ``zero_pass``)."""
        n = self.n
        step = self.direction
        hands = self.hands
        if self.out:  # among the players still in the match
            self.hands = [hands[self._walk(s, -step, 1)] if s not in self.out else hands[s] for s in range(n)]
        else:
            self.hands = [hands[(s - step) % n] for s in range(n)]
        self.events.append(("pass_hands", seat, step, ()))
        for other in range(n):
            self.expose_if_single(other)

    def _resolve_challenge(self, victim: int, challenged: bool) -> None:
        self.stack_total = 0
        self.stack_kind = -1
        Game._resolve_challenge(self, victim, challenged)

    def _start_round(self, dealer: int, order: list[int] | None) -> None:
        self.stack_total = 0
        self.stack_kind = -1
        self.jump_card = self.jump_from = self.jump_next = self.jump_next_from = -1
        self.multi_count = 0
        self.out = frozenset(self.knocked)
        if self.mercy:
            self.players_in = self.n - len(self.knocked)
            self.out_points = self.out_cards = (0,) * self.n
        Game._start_round(self, dealer, order)

    def _next_dealer(self) -> int:
        """The player to the dealer's left among those in the match: everyone put out of the round
        by Mercy deals and plays again."""
        self.out = frozenset(self.knocked)
        return Game._next_dealer(self)

    def _round_winner(self, playing: tuple[int, ...]) -> int:
        """The player in the round with no cards left; else (Mercy) the first of the last player or
        team left."""
        hands = self.hands
        return next((s for s in playing if not hands[s]), playing[0])

    def _round_points(self) -> list[int]:
        points = Game._round_points(self)
        if self.mercy:
            return [p + q for p, q in zip(points, self.out_points, strict=True)]
        return points

    def _cards_held(self, seat: int) -> int:
        return len(self.hands[seat]) + self.out_cards[seat]

    # ------------------------------------------------------------------ teams

    def _interrupts(self, seat: int) -> tuple[int, ...]:
        """:meth:`Game._interrupts`; with teams, no catch of a partner (a catch can only hurt the team);
        none for a seat out of the match."""
        if seat in self.out:
            return ()
        ids = Game._interrupts(self, seat)
        teams = self.teams
        if not teams or not ids:
            return ids
        side = teams[seat]
        partners = {self._catch_ids[t] for t in self.exposed if teams[t] == side}
        return tuple(a for a in ids if a not in partners) if partners else ids

    def _interrupters(self) -> tuple[int, ...]:
        """With teams or seats out, the actor and the seats with a legal action left (see :meth:`_interrupts`)."""
        if not self.teams and not self.out:
            return self._all_seats
        return tuple(s for s in self._all_seats if s == self.actor or self.legal_actions(s))

    # ------------------------------------------------------------------ seats out (knockout)

    def _knock_out(self, winner: int, points: list[int]) -> None:
        Game._knock_out(self, winner, points)
        self.out = frozenset(self.knocked)  # the next dealer is chosen among the players left

    def seats_in(self) -> tuple[int, ...]:
        out = self.out
        return tuple(s for s in self._all_seats if s not in out) if out else self._all_seats

    def _walk(self, seat: int, step: int, count: int) -> int:
        """The seat ``count`` places from ``seat`` going ``step`` (1: left, -1: right), over seats out."""
        n = self.n
        out = self.out
        for _ in range(count):
            seat = (seat + step) % n
            while seat in out:
                seat = (seat + step) % n
        return seat

    def left_of(self, seat: int, steps: int = 1) -> int:
        if not self.out:
            return Game.left_of(self, seat, steps)
        return self._walk(seat, 1 if steps >= 0 else -1, abs(steps))

    def right_of(self, seat: int, steps: int = 1) -> int:
        if not self.out:
            return Game.right_of(self, seat, steps)
        return self._walk(seat, -1 if steps >= 0 else 1, abs(steps))

    def next_seat(self, seat: int, steps: int = 1) -> int:
        if not self.out:
            return Game.next_seat(self, seat, steps)
        step = self.direction
        return self._walk(seat, step if steps >= 0 else -step, abs(steps))

    def end_turn(self, seat: int, skip: int) -> None:
        """:meth:`Game.end_turn`, stepping over seats out of the match."""
        if not self.out:
            Game.end_turn(self, seat, skip)
            return
        step = self.direction
        nxt = self._walk(seat, step, 1)
        for _ in range(skip):
            self.events.append(("skip", nxt, 0, ()))
            nxt = self._walk(nxt, step, 1)
        if self.pending_skips:
            nxt = self._lose_pending_turns(nxt)
        self.ops.clear()
        self.turn = self.actor = nxt
        self.phase = TURN
        if self.exposed:
            self.window_armed = True

    def _lose_pending_turns(self, seat: int) -> int:
        if not self.out:
            return Game._lose_pending_turns(self, seat)
        while self.turn_skips[seat]:
            self.turn_skips[seat] -= 1
            self.pending_skips -= 1
            self.events.append(("skip", seat, 0, ()))
            seat = self._walk(seat, self.direction, 1)
        return seat

    # ------------------------------------------------------------------ mechanics

    def expose_if_single(self, seat: int) -> None:
        if not self.silent:
            Game.expose_if_single(self, seat)

    # ------------------------------------------------------------------ state

    def house_state(self) -> dict[str, Any]:
        """The house rules' public state (for views and determinization): ``stack_total`` and
        ``stack_kind`` (the pending total of draw cards and the kind of its last card) with stacking
        on; ``jump_card`` and ``jump_from`` (the open Jump-In window: the card and its player, -1 when
        closed) and ``jump_next``, ``jump_next_from`` (the play being resolved) with Jump-In on;
        ``multi_count`` (cards in the current set) with ``multi_play`` on; ``knocked`` (the seats out of
        the match) with ``knockout`` scoring; ``out`` (the seats out of the round, those out of the
        match included), ``out_points`` and ``out_cards`` (the points and the number of cards of each
        hand Mercy put out of the round) with ``mercy`` on."""
        state: dict[str, Any] = {}
        if self.draw_values:
            state["stack_total"] = self.stack_total
            state["stack_kind"] = self.stack_kind
        if self.jumping:
            state["jump_card"] = self.jump_card
            state["jump_from"] = self.jump_from
            state["jump_next"] = self.jump_next
            state["jump_next_from"] = self.jump_next_from
        if self.multi != "off":
            state["multi_count"] = self.multi_count
        if self.scoring == "knockout":
            state["knocked"] = self.knocked
        if self.mercy:
            state["out"] = tuple(sorted(self.out))
            state["out_points"] = self.out_points
            state["out_cards"] = self.out_cards
        return state

    def restore_house_state(self, state: dict[str, Any]) -> None:
        """Set the house state of a sampled game from :meth:`house_state`."""
        self.stack_total = state.get("stack_total", 0)
        self.stack_kind = state.get("stack_kind", -1)
        self.jump_card = state.get("jump_card", -1)
        self.jump_from = state.get("jump_from", -1)
        self.jump_next = state.get("jump_next", -1)
        self.jump_next_from = state.get("jump_next_from", -1)
        self.multi_count = state.get("multi_count", 0)
        self.knocked = tuple(state.get("knocked", ()))
        self.out = frozenset(self.knocked).union(state.get("out", ()))
        self.players_in = self.n - len(self.out)
        self.out_points = tuple(state.get("out_points", (0,) * self.n))
        self.out_cards = tuple(state.get("out_cards", (0,) * self.n))

    def state_key(self) -> tuple[Any, ...]:
        return (*Game.state_key(self), tuple(sorted(self.house_state().items())))


# ---------------------------------------------------------------- effects of house rules


def _set(values: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    """``values`` with ``value`` at ``seat``."""
    return (*values[:seat], value, *values[seat + 1 :])


POSITIONAL_OPS = frozenset({OP_END_TURN, OP_BEGIN, OP_END_ROUND, OP_STACK, OP_RETIRE, OP_LEVER_END})
"""Operations that go on when their seat is out of the round (Mercy): they end a turn or a round,
pass a total on, or put a rule card away; every other one asks or makes that seat do something."""


def _pass_turn(game: Game, seat: int, card: int) -> None:
    """The effect of a card without one: the turn passes on."""
    game.end_turn(seat, 0)


def forbidden_as_last_card(card: int, rules: Any, edition: Any) -> bool:
    """Whether the finishing restrictions forbid ``card`` as a last card: ``no_action_finish``: a
    coloured action card (All Wild: any card but the plain Wild); ``no_wild_finish``: a wild card
    (not in All Wild)."""
    if not edition.colours_matter:
        return bool(rules.no_action_finish) and CARD_KIND[card] != Kind.WILD
    if CARD_IS_WILD[card]:
        return bool(rules.no_wild_finish)
    return bool(rules.no_action_finish) and CARD_NUMBER[card] < 0


def _stack_effect(game: Game, seat: int, card: int) -> None:
    """A draw card with stacking on: its value joins the total, aimed at the next player.  A coloured
    edition's wild names the colour first; a Wild Draw Four starting a total may be challenged."""
    assert isinstance(game, HouseGame)
    starting = game.stack_total == 0
    game.add_to_stack(seat, card)
    if not (CARD_IS_WILD[card] and game.edition.colours_matter):
        game.offer_stack(seat)
        return
    rules = game.rules
    if starting and rules.allow_bluff and rules.wild_draw_four_challenge:
        game.bluff_colour = game.colour
        game.bluff = game.holds_colour(seat, game.colour)
        game.push(OP_CHALLENGE, game.next_seat(seat), seat)
    else:
        game.push(OP_STACK, seat)
    game.push(OP_COLOUR, seat)


def _final_stack(game: Game, seat: int, card: int) -> None:
    """A draw card played as the last card with stacking on: the next player draws the total."""
    assert isinstance(game, HouseGame)
    game.add_to_stack(seat, card)
    victim = game.next_seat(seat)
    total, game.stack_total, game.stack_kind = game.stack_total, 0, -1
    game.events.append(("stack_draw", victim, total, ()))
    game.draw_cards(victim, total)


def _wild_draw_four_unchallenged(game: Game, seat: int, card: int) -> None:
    """A Wild Draw Four without the challenge: colour, then the next player draws 4 and loses the turn."""
    game.push(OP_END_TURN, seat, 1)
    game.push(OP_DRAW, game.next_seat(seat), 4)
    game.push(OP_COLOUR, seat)


def _deflector(original: Effect | None) -> Effect:
    """A Reverse or Skip that deflects a pending total (and acts as the sheet says otherwise)."""

    def effect(game: Game, seat: int, card: int) -> None:
        assert isinstance(game, HouseGame)
        if not game.stack_total:
            if original is None:
                game.end_turn(seat, 0)
            else:
                original(game, seat, card)
            return
        _deflect(game, seat, card)
        game.offer_stack(seat)

    return effect


def _deflect(game: HouseGame, seat: int, card: int) -> None:
    """A deflector turns the pending total: a Reverse turns the direction of play first."""
    if CARD_KIND[card] == game.edition.reverse_kind:
        game.direction = -game.direction
        game.events.append(("reverse", seat, game.direction, ()))
    game.events.append(("deflect", seat, game.stack_total, ()))


def _final_deflector(original: Effect | None) -> Effect:
    """A deflector played as the last card on a pending total: the player it now points at draws it."""

    def effect(game: Game, seat: int, card: int) -> None:
        assert isinstance(game, HouseGame)
        if not game.stack_total:
            if original is not None:
                original(game, seat, card)
            return
        _deflect(game, seat, card)
        victim = game.next_seat(seat)
        total, game.stack_total, game.stack_kind = game.stack_total, 0, -1
        game.events.append(("stack_draw", victim, total, ()))
        game.draw_cards(victim, total)

    return effect


def _set_effect(game: Game, seat: int, card: int) -> None:
    """A number card with ``multi_play``: played on a turn (not drawn, not a jump-in) or in a set,
    it asks for another card of its number while the player holds one; else the set ends."""
    assert isinstance(game, HouseGame)
    phase = game.phase
    if phase == MULTI or (phase == TURN and not game.jump_play):
        game.multi_count += 1
        hand = game.hands[seat]
        if any(game.joins_set(c) for c in hand):
            game.ask(MULTI, seat)
            return
        game.end_set(seat, card)
        return
    game.set_effects[CARD_KIND[card]](game, seat, card)


def _seven_effect(game: Game, seat: int, card: int) -> None:
    """A 7 with ``seven_swap``: its player chooses another player and they swap hands; the turn passes."""
    game.push(OP_END_TURN, seat, 0)
    game.push(OP_TARGET, seat, SEVEN_SWAP)


def _zero_effect(game: Game, seat: int, card: int) -> None:
    """A 0 with ``zero_pass``: every hand moves on in the direction of play; the turn passes."""
    assert isinstance(game, HouseGame)
    game.pass_hands(seat)
    game.end_turn(seat, 0)
