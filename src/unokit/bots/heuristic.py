"""A rule-of-thumb bot that plays as a careful human does, from its own view only.

Every decision reads only the :class:`~unokit.engine.views.View`: the bot's hand, the hand
sizes, the table and the history redacted for it.  From the history of the current
round it keeps track of what it has seen (:class:`RoundMemory`): the cards known to be
in the discard pile (so the rest are unseen: in the draw pile or other hands), the
colours each opponent seemed not to hold (they drew a card on it), who set the colour
in play and how, and the colour in play before each Wild Draw Four.

The main rules of thumb (each decision's method says why):

* match with coloured cards, keep wild cards for when no coloured card matches or an
  opponent is close to going out; switch into the colour it holds most of;
* hit an opponent who is close to going out with Draw Two, Skip (and Reverse with two
  players) and Wild Draw Four; dump high-scoring cards when someone is close;
* name the colour it holds most of (ties: by points, then a colour the next player
  seems to lack, then the colour with the fewest cards unseen);
* call UNO always, catch every player who did not;
* jump in (house rule ``jump_in``) whenever it may, unless the card's Seven-O effect would
  hand it a bigger hand; in a set of one number (``multi_play``) shed every card of it;
* challenge a Wild Draw Four when its estimate that the player held the previous
  colour is high enough to be worth the risk of drawing six;
* every edition's own decisions: Space Jam's Slam discards, All Wild's targets and
  Forced Swap, Wild Jackpot's rule-card performer, lever discards, runs, gifts and targets;
* with teams (house rule): the opponents are the other team's players; a partner is
  never the chosen target when an opponent may be chosen, a card that skips a partner
  counts against itself, and a partner close to going out is let play (a Skip that
  brings its turn, not a colour it lacks).

Rule options a view does not carry are taken at their defaults: a dropped Jam card lands
Slam side up one time in two, a Reverse skips with two players, a Forced Swap played as
the last card wins, and the deck is the edition's own.

>>> from unokit.engine.game import Game
>>> game = Game("classic", 2, seed=3)
>>> bot = HeuristicBot(seed=1)
>>> bot.choose(game.view(game.actor)) in game.legal_actions(game.actor)
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from unokit.bots.base import interrupt_actions, jump_actions, non_interrupt_actions
from unokit.determinize import lacked_colours
from unokit.editions import Edition, get_edition
from unokit.editions import rulecards as rc
from unokit.editions.wild_jackpot import TARGET_OF_RULE, TARGET_PERFORMER
from unokit.engine.actions import ActionSpace, ActionType
from unokit.engine.cards import CARD_COLOUR, CARD_IS_WILD, CARD_KIND, CARD_NUMBER, NO_COLOUR, Kind
from unokit.engine.errors import UnknownOptionError
from unokit.engine.events import Event
from unokit.engine.rules import Rules
from unokit.engine.views import View, round_start

__all__ = ["HeuristicBot", "RoundMemory", "read_round"]

CLOSE = 2
"""An opponent holding this many cards or fewer is close to going out."""

_SKIP_KINDS = frozenset({Kind.SKIP, Kind.DRAW_TWO})
RESERVE = 1.2
"""All Wild, nobody close to going out: the share of a card's possible harm it would rather
keep for later (tuned so that tables of heuristic bots do not stall with every card in hand)."""
_USELESS = -50.0
"""All Wild: the score of a Forced Swap that would not help (drawing is better)."""
_RUN_BUDGET = 4000
"""Search nodes for the longest run of plays (Wild Jackpot's "play as many cards as you can")."""


@lru_cache(maxsize=1024)
def _rule_effect(text: str) -> rc.RuleEffect | None:
    return rc.read_rule(text).effect


@lru_cache(maxsize=16)
def _deck_counts(edition: str) -> Counter[int]:
    return Counter(get_edition(edition).deck_cards(Rules()))


@dataclass
class RoundMemory:
    """What the bot has seen in the current round (built from the redacted history)."""

    players: int
    pile: Counter[int] = field(default_factory=Counter)
    """Cards known to be in the discard pile (since the last reshuffle)."""
    lacks: list[set[int]] = field(default_factory=list)
    """Per seat: colours it drew on (and so seemed not to hold) since it last received cards."""
    setter: int = -1
    """Seat that set the colour in play."""
    set_by_choice: bool = False
    """Whether that seat named the colour (with a wild) rather than played a card of it."""
    colour: int = NO_COLOUR
    wd4_colour: dict[int, int] = field(default_factory=dict)
    """Per seat: the colour in play before their latest Wild Draw Four."""
    wd4_setter: dict[int, tuple[int, bool]] = field(default_factory=dict)
    """Per seat: who set that colour, and whether by naming it."""
    plays: list[list[int]] = field(default_factory=list)
    """Per seat: the cards it played this round, in order."""

    def __post_init__(self) -> None:
        self.lacks = [set() for _ in range(self.players)]
        self.plays = [[] for _ in range(self.players)]


def read_round(history: Sequence[Event], players: int) -> RoundMemory:
    """Replay the current round's events (from the last deal) into a :class:`RoundMemory`."""
    start = round_start(history)
    memory = RoundMemory(players)
    pile = memory.pile
    top = -1
    for index in range(start, len(history)):
        kind, seat, value, data = history[index]
        if kind == "flip":
            top = data[0]
            pile[top] += 1
            memory.colour = CARD_COLOUR[top] if not CARD_IS_WILD[top] else NO_COLOUR
        elif kind == "return":
            pile[data[0]] -= 1
        elif kind == "play":
            card = data[0]
            top = card
            pile[card] += 1
            memory.plays[seat].append(card)
            if CARD_KIND[card] == Kind.WILD_DRAW_FOUR:
                memory.wd4_colour[seat] = memory.colour
                memory.wd4_setter[seat] = (memory.setter, memory.set_by_choice)
            if not CARD_IS_WILD[card]:
                memory.colour = CARD_COLOUR[card]
                memory.setter, memory.set_by_choice = seat, False
        elif kind == "discard":
            card = data[0]
            pile[card] += 1
            if value == 1:  # on top (Wild Jackpot's lever): sets the colour
                top = card
                memory.colour = CARD_COLOUR[card]
                memory.setter, memory.set_by_choice = seat, False
        elif kind == "colour":
            memory.colour = value
            memory.setter, memory.set_by_choice = seat, True
        elif kind == "reshuffle":
            pile.clear()
            if top >= 0:
                pile[top] = 1
    memory.lacks = lacked_colours(history, players)
    return memory


def _seats_out(view: View) -> tuple[int, ...]:
    """Seats out of the match (``knockout`` scoring) or of the round (``mercy``): nobody to play against."""
    return (*view.state.get("knocked", ()), *view.state.get("out", ()))


def _step_over(seat: int, step: int, players: int, out: Sequence[int]) -> int:
    """The seat next to ``seat`` going ``step``, over the seats ``out``."""
    seat = (seat + step) % players
    while seat in out:
        seat = (seat + step) % players
    return seat


class _Context:
    """The view plus quantities every decision uses."""

    def __init__(self, view: View) -> None:
        assert view.seat is not None, "a bot plays a seat"
        self.view = view
        self.edition: Edition = get_edition(view.edition)
        self.space: ActionSpace = self.edition.actions
        self.me: int = view.seat
        self.n = view.players
        self.hand = view.hand
        self.sizes = view.hand_sizes
        teams = view.teams
        self.partners = [s for s in range(self.n) if teams and s != self.me and teams[s] == teams[self.me]]
        """The bot's partners (house rule ``teams``): never attacked, helped to go out."""
        out = _seats_out(view)
        self.opponents = [s for s in range(self.n) if s != self.me and s not in self.partners and s not in out]
        self.next = _step_over(self.me, view.direction, self.n, out)
        self.previous = _step_over(self.me, -view.direction, self.n, out)
        self.closest = min(self.sizes[s] for s in self.opponents)
        self.moves = non_interrupt_actions(self.space, view.legal_actions)
        self.points = self.edition.card_points
        self.colourless = not self.edition.colours_matter
        self.scored = view.scoring != "single-round"

    @cached_property
    def memory(self) -> RoundMemory:
        return read_round(self.view.history, self.n)

    def type_of(self, action: int) -> ActionType:
        return self.space.types[action]

    def arg_of(self, action: int) -> int:
        return self.space.args[action]

    def by_type(self, kind: ActionType) -> list[int]:
        return [a for a in self.moves if self.space.types[a] == kind]

    def colour_count(self, colour: int, hand: Sequence[int] | None = None) -> int:
        return sum(1 for c in (self.hand if hand is None else hand) if CARD_COLOUR[c] == colour)

    def colour_points(self, colour: int, hand: Sequence[int]) -> int:
        return sum(self.points[c] for c in hand if CARD_COLOUR[c] == colour)

    def unseen(self) -> Counter[int]:
        """Cards not in the bot's hand nor known to be in the discard pile."""
        counts = Counter(_deck_counts(self.view.edition))
        counts.subtract(self.hand)
        counts.subtract(self.memory.pile)
        return +counts

    def play_action(self, card: int) -> int:
        """The action playing ``card``: its UNO-calling variant when that is legal."""
        uno = self.space.play_uno_id[card]
        return uno if uno in self.moves else self.space.play_id[card]

    def distance(self, seat: int) -> int:
        """How many turns until ``seat`` plays (in the current direction)."""
        return ((seat - self.me) * self.view.direction) % self.n

    def leader(self, candidates: Sequence[int]) -> int:
        """The candidate with the fewest cards; ties go to the one who plays soonest."""
        return min(candidates, key=lambda s: (self.sizes[s], self.distance(s)))

    def rule_effect(self, rid: int) -> rc.RuleEffect | None:
        for shown in self.view.public.get("rule_cards_shown", ()):
            if shown[0] == rid:
                return _rule_effect(shown[1])
        return None


class HeuristicBot:
    """Plays every decision of every edition by rules of thumb (see the module docstring)."""

    def __init__(self, seed: int = 0, edition: str = "classic", name: str = "heuristic", **options: Any) -> None:
        if options:
            raise UnknownOptionError(f"unknown option(s) for a heuristic bot: {', '.join(sorted(options))}")
        self.name = name
        self.edition = edition
        self.rng = random.Random(seed)

    # ------------------------------------------------------------------ the protocol

    def choose(self, view: View) -> int:
        """The chosen action for the decision of ``view.phase``."""
        ctx = _Context(view)
        if not ctx.moves:  # only calls and catches on offer
            interrupt = self.wants_interrupt(view)
            return view.legal_actions[0] if interrupt is None else interrupt
        if len(ctx.moves) == 1:
            return ctx.moves[0]
        phase = view.phase
        if phase in ("turn", "rule-run"):
            return self._turn(ctx) if phase == "turn" else self._run(ctx)
        if phase == "drawn":
            return self._drawn(ctx)
        if phase == "colour":
            return self._colour(ctx)
        if phase == "challenge":
            return self._challenge(ctx)
        if phase == "stack":
            return self._stack(ctx)
        if phase == "multi":
            return self._multi(ctx)
        if phase == "discard":
            return self._discard(ctx)
        if phase == "target":
            return self._target(ctx)
        if phase == "lever-discard":
            return self._lever_discard(ctx)
        if phase == "give":
            return self._give(ctx)
        return ctx.moves[0]  # "honour": the only action is "done"

    def wants_interrupt(self, view: View) -> int | None:
        """Always call UNO for itself first (a call is never wrong), else catch the first
        player who did not call (a catch costs nothing and gives them two cards); else jump in
        when that pays (see :meth:`_jump`)."""
        space = get_edition(view.edition).actions
        offered = interrupt_actions(space, view.legal_actions)
        if not offered:
            jumps = jump_actions(space, view.legal_actions)
            return self._jump(view, jumps) if jumps else None
        if space.call_uno in offered:
            return space.call_uno
        return offered[0]

    def _jump(self, view: View, jumps: tuple[int, ...]) -> int | None:
        """Jump in (calling UNO when the jump leaves one card): a jump-in sheds a card on a turn the
        bot would otherwise spend waiting, and the card's effect acts from its seat as on its own
        turn.  Not when a Seven-O card would then give it a bigger hand: a 7 (``seven_swap``) it must
        swap for the smallest other hand, a 0 (``zero_pass``) that brings it the previous player's
        (of the players still in: seats out of the round or the match hold nothing to swap or pass)."""
        space = get_edition(view.edition).actions
        card = space.args[jumps[0]]
        action = max(jumps)  # ^c! when offered
        me = view.seat
        assert me is not None
        left = len(view.hand) - 1
        if left == 0:
            return action
        kind = CARD_KIND[card]
        sizes = view.hand_sizes
        rules = view.rules
        out = _seats_out(view)
        if kind == Kind.SEVEN and rules.seven_swap:
            smallest = min(sizes[s] for s in range(view.players) if s != me and s not in out)
            return action if smallest < left else None
        if kind == Kind.ZERO and rules.zero_pass:
            return action if sizes[_step_over(me, -view.direction, view.players, out)] < left else None
        return action

    # ------------------------------------------------------------------ turns

    def _turn(self, ctx: _Context) -> int:
        """Play the best-scoring playable card; draw only when no card matches, or when
        only its one wild card matches and it keeps that in reserve (see :meth:`_keeps_wild`)."""
        plays = {ctx.arg_of(a) for a in ctx.moves if ctx.type_of(a) in (ActionType.PLAY, ActionType.PLAY_UNO)}
        draw = ctx.space.draw
        if not plays:
            return draw
        if ctx.colourless:
            scores = {card: self._all_wild_score(ctx, card) for card in plays}
            if max(scores.values()) <= _USELESS and draw in ctx.moves:
                return draw  # only Forced Swaps that would not help: draw, and play the drawn card
            return ctx.play_action(self._best(scores))
        scores = {card: self._coloured_score(ctx, card, plays) for card in plays}
        if all(CARD_IS_WILD[c] for c in plays) and self._keeps_wild(ctx, ctx.hand) and draw in ctx.moves:
            return draw
        return ctx.play_action(self._best(scores))

    def _coloured_score(self, ctx: _Context, card: int, plays: set[int]) -> float:
        """How good playing ``card`` looks (classic, Space Jam, Wild Jackpot)."""
        view = ctx.view
        hand = ctx.hand
        kind = CARD_KIND[card]
        left = len(hand) - 1
        threat = ctx.closest <= CLOSE
        next_size = ctx.sizes[ctx.next]
        dump = ctx.points[card] * (0.3 if threat and ctx.scored else 0.05)
        if CARD_IS_WILD[card]:
            score = -20.0 if any(not CARD_IS_WILD[c] for c in plays) else 0.0
            if threat:
                score += 10
            if kind == Kind.WILD_DRAW_FOUR:
                bluff = ctx.colour_count(view.colour) > 0
                if next_size <= CLOSE:
                    score += 15 if bluff else 30
                elif bluff:
                    score -= 40
                else:
                    score += 3 if next_size <= CLOSE + 2 else -2
            elif kind == Kind.WILD_JAM and left <= 2:
                score += 40  # a Slam then empties the hand: an even chance to win at once
            elif kind == Kind.WILD_JACKPOT:
                score -= 1
            return score + dump
        colour = CARD_COLOUR[card]
        same = ctx.colour_count(colour) - 1
        score = 10.0 + 3 * same + dump
        multi = view.rules.multi_play
        if multi != "off" and CARD_NUMBER[card] >= 0:
            # a set sheds every other card of the number (``identical``: the same card) at once
            score += (
                4 * sum(1 for c in hand if (c == card if multi == "identical" else CARD_NUMBER[c] == CARD_NUMBER[card]))
                - 4
            )
        skips = kind in _SKIP_KINDS or (kind == Kind.REVERSE and ctx.n == 2)
        if skips:
            if next_size <= CLOSE:
                score += 30 if kind == Kind.DRAW_TWO else 25
            elif ctx.n == 2 and (same > 0 or any(CARD_IS_WILD[c] for c in hand)):
                score += 2  # another turn, with a follow-up card
        if kind == Kind.DRAW_TWO and ctx.n > 2 and next_size <= CLOSE + 1:
            score += 10
        if skips and ctx.n > 2:
            after = (ctx.me + 2 * view.direction) % ctx.n
            if after in ctx.partners and ctx.sizes[after] <= CLOSE:
                score += 20  # the partner close to going out plays next
        if kind == Kind.REVERSE and ctx.n > 2:
            prev_size = ctx.sizes[ctx.previous]
            if next_size <= CLOSE < prev_size:
                score += 15
            elif prev_size <= CLOSE < next_size:
                score -= 10
        if colour in ctx.memory.lacks[ctx.next]:
            score += 3
        if left == 1 and any(CARD_IS_WILD[c] for c in hand):
            score += 5  # keep the wild as the last card
        return score

    def _all_wild_score(self, ctx: _Context, card: int) -> float:
        """All Wild: every card is playable, so the question is only which one.  A card is
        worth the card it sheds plus what it does to the opponents: each player skipped
        loses a turn (one card they do not shed), each card drawn counts one, but only as
        many as the piles can give (when every card is in the hands, a Draw Four draws
        nothing); what hits the opponent with the fewest cards counts double, and three
        times over one close to going out.  With nobody close and more than three cards
        left, most of a card's harm is kept for later (:data:`RESERVE`): plain Wilds go
        first.  Near the end, the cards that take an opponent's turn go first, so the last
        card is one that does not.  A Forced Swap is played whenever it swaps into a
        smaller hand (best against a player close to going out), never into a bigger one
        unless the hand holds nothing but Forced Swaps (it cannot go out otherwise)."""
        kind = CARD_KIND[card]
        left = len(ctx.hand) - 1
        if left == 0:
            return 100.0  # the last card wins (with the default Forced Swap rule too)
        view = ctx.view
        sizes = ctx.sizes
        n = ctx.n
        available = view.draw_pile_size + view.discard_pile_size
        dump = ctx.points[card] / 50 if ctx.closest <= CLOSE and ctx.scored else 0.0

        def weight(seat: int) -> float:
            if seat not in ctx.opponents and seat not in ctx.partners:
                return 0.0  # the bot itself, or a seat out of the match
            if seat in ctx.partners:  # harm to a partner counts against the card
                return -3.0 if sizes[seat] <= CLOSE else -1.0
            if sizes[seat] <= CLOSE:
                return 3.0
            return 1.0 if sizes[seat] == ctx.closest else 0.5

        def following(steps: int) -> list[int]:
            return [(ctx.me + view.direction * k) % n for k in range(1, steps + 1)]

        if kind == Kind.WILD_FORCED_SWAP:
            gain = left - ctx.closest
            if gain > 0:
                return 1.0 + gain + 2 * weight(ctx.leader(ctx.opponents)) + dump
            if all(CARD_KIND[c] == Kind.WILD_FORCED_SWAP for c in ctx.hand):
                return -10.0  # a hand of Forced Swaps can only go out by passing them on
            return _USELESS  # never swap into a bigger hand
        effect = 0.0
        potential = 0.0
        if kind == Kind.WILD_TARGETED_DRAW_TWO:
            target = ctx.leader(ctx.opponents)
            effect = min(2, available) * weight(target)
            potential = 2.0
        elif kind in (Kind.WILD_DRAW_TWO, Kind.WILD_DRAW_FOUR):
            count = 2 if kind == Kind.WILD_DRAW_TWO else 4
            effect = (min(count, available) + 1) * weight(ctx.next)
            potential = count + 1.0
        elif kind == Kind.WILD_SKIP or (kind == Kind.WILD_REVERSE and n == 2):
            effect = weight(ctx.next)
            potential = 1.0
        elif kind == Kind.WILD_SKIP_TWO:
            effect = sum(weight(seat) for seat in following(min(2, n - 1)))
            potential = 2.0
        elif kind == Kind.WILD_REVERSE:
            next_size, prev_size = sizes[ctx.next], sizes[ctx.previous]
            effect = 1.0 if next_size <= CLOSE < prev_size else -1.0 if prev_size <= CLOSE < next_size else 0.0
        reserve = RESERVE * potential if ctx.closest > CLOSE and left > 3 else 0.0
        return 1.0 + effect - reserve + dump

    def _drawn(self, ctx: _Context) -> int:
        """Play the drawn card, unless it is a wild card it keeps in reserve (or, in All
        Wild, a Forced Swap that would not help)."""
        play = next(a for a in ctx.moves if ctx.type_of(a) in (ActionType.PLAY, ActionType.PLAY_UNO))
        card = ctx.arg_of(play)
        if ctx.colourless:
            keep = self._all_wild_score(ctx, card) <= _USELESS
        else:
            keep = CARD_IS_WILD[card] and self._keeps_wild(ctx, ctx.hand)
        if keep and ctx.space.pass_ in ctx.moves:
            return ctx.space.pass_
        return ctx.play_action(card)

    def _keeps_wild(self, ctx: _Context, hand: Sequence[int]) -> bool:
        """Whether to keep its only wild card in reserve rather than play it now: a wild
        matters most at the end (it always plays) and against an opponent close to going
        out, so with no such opponent and a hand of four or more it draws instead.  It
        never hoards more than one: with two wild cards, one is played."""
        return (
            not ctx.colourless
            and sum(1 for c in hand if CARD_IS_WILD[c]) == 1
            and ctx.closest > CLOSE + 1
            and len(hand) >= 4
            and ctx.view.draw_pile_size > 0
        )

    def _run(self, ctx: _Context) -> int:
        """Wild Jackpot "play as many cards in a row as you can": the first card of the
        longest run found (a bounded search; ties: the most points shed)."""
        colours = ctx.space.colours
        memo: dict[tuple[tuple[int, ...], int, int], tuple[int, int]] = {}
        budget = [_RUN_BUDGET]

        def best(hand: tuple[int, ...], colour: int, top: int) -> tuple[int, int]:
            key = (hand, colour, top)
            if key in memo:
                return memo[key]
            result = (0, 0)
            if budget[0] > 0:
                budget[0] -= 1
                for index, card in enumerate(hand):
                    if index and hand[index - 1] == card:
                        continue
                    rest = hand[:index] + hand[index + 1 :]
                    if CARD_IS_WILD[card]:
                        nxt = max(best(rest, c, CARD_KIND[card]) for c in colours) if rest else (0, 0)
                    elif CARD_COLOUR[card] == colour or CARD_KIND[card] == top:
                        nxt = best(rest, CARD_COLOUR[card], CARD_KIND[card])
                    else:
                        continue
                    result = max(result, (nxt[0] + 1, nxt[1] + ctx.points[card]))
            memo[key] = result
            return result

        hand = tuple(sorted(ctx.hand))
        scores: dict[int, float] = {}
        for action in ctx.moves:
            card = ctx.arg_of(action)
            if card in scores:
                continue
            index = hand.index(card)
            rest = hand[:index] + hand[index + 1 :]
            if CARD_IS_WILD[card]:
                nxt = max(best(rest, c, CARD_KIND[card]) for c in colours) if rest else (0, 0)
            else:
                nxt = best(rest, CARD_COLOUR[card], CARD_KIND[card])
            scores[card] = (nxt[0] + 1) * 1000 + nxt[1] + ctx.points[card]
        return ctx.play_action(self._best(scores))

    # ------------------------------------------------------------------ colours, challenges

    def _colour(self, ctx: _Context) -> int:
        """Name the colour it holds most of (ties: most points, a colour the next player
        seems to lack, then the colour with the fewest cards unseen).  In a Wild Jackpot
        run, the colour that lets the run go on longest comes first."""
        memory = ctx.memory
        options = ctx.by_type(ActionType.COLOUR)
        unseen = ctx.unseen()
        lacks = memory.lacks[ctx.next]
        helped = [p for p in ctx.partners if ctx.sizes[p] <= CLOSE]
        run = self._running(ctx)

        def key(action: int) -> tuple[float, ...]:
            colour = ctx.arg_of(action)
            count = ctx.colour_count(colour)
            free = sum(k for c, k in unseen.items() if CARD_COLOUR[c] == colour)
            return (
                self._run_length(ctx, colour) if run else 0,
                -sum(1 for p in helped if colour in memory.lacks[p]),  # not a colour a partner close to going out lacks
                count,
                ctx.colour_points(colour, ctx.hand),
                1 if colour in lacks else 0,
                -free,
            )

        return max(options, key=key)

    def _running(self, ctx: _Context) -> bool:
        rid = ctx.view.decision.get("rule", -1)
        effect = ctx.rule_effect(rid) if rid >= 0 else None
        return effect is not None and effect.verb == rc.PLAY_RUN

    def _run_length(self, ctx: _Context, colour: int) -> int:
        """Cards playable in a row from the hand once ``colour`` is named (greedy)."""
        hand = list(ctx.hand)
        count = 0
        while True:
            match = [c for c in hand if CARD_COLOUR[c] == colour]
            if not match:
                return count
            hand.remove(match[0])
            count += 1

    def _challenge(self, ctx: _Context) -> int:
        """Challenge when the estimated chance that the bluffer held the colour in play
        (guilty) is above 0.3: guilty, they draw 4 and it keeps its turn; innocent, it
        draws 6 instead of 4.

        The chance that the bluffer's hand holds that colour comes from the cards unseen
        (hypergeometric: more unseen cards of the colour and a bigger hand make it likely),
        raised if the bluffer had named that colour (people name what they hold) or played
        it lately, lowered if it drew on that colour since; then weighed by how often a
        player holding the colour would play a Wild Draw Four anyway (one in two)."""
        if len(ctx.moves) > 2:  # stacking on: answer the total rather than challenge
            return self._stack(ctx)
        view = ctx.view
        bluffer = view.decision.get("bluffer", -1)
        memory = ctx.memory
        colour = memory.wd4_colour.get(bluffer, NO_COLOUR)
        challenge, accept = ctx.space.challenge, ctx.space.accept
        if colour == NO_COLOUR or bluffer < 0:
            return accept
        unseen = ctx.unseen()
        total = sum(unseen.values())
        of_colour = sum(k for c, k in unseen.items() if CARD_COLOUR[c] == colour)
        held = ctx.sizes[bluffer]
        none = 1.0
        for i in range(held):
            if total - i <= 0:
                break
            none *= max(0.0, (total - of_colour - i) / (total - i))
        holds = 1.0 - none
        setter, by_choice = memory.wd4_setter.get(bluffer, (-1, False))
        if setter == bluffer:
            holds = max(holds, 0.85 if by_choice else 0.6)
        recent = memory.plays[bluffer][-3:-1]
        if any(not CARD_IS_WILD[c] and CARD_COLOUR[c] == colour for c in recent):
            holds = max(holds, 0.6)
        if colour in memory.lacks[bluffer]:
            holds = min(holds, 0.1)
        guilty = holds * 0.5 / (holds * 0.5 + (1 - holds))
        return challenge if guilty > 0.3 else accept

    def _multi(self, ctx: _Context) -> int:
        """A set of one number (``multi_play``): shed every card of it, the colour held most last
        (it sets the colour in play)."""
        plays = {ctx.arg_of(a) for a in ctx.moves if ctx.type_of(a) in (ActionType.PLAY, ActionType.PLAY_UNO)}
        if not plays:
            return ctx.space.pass_
        return ctx.play_action(min(plays, key=lambda c: (ctx.colour_count(CARD_COLOUR[c]), c)))

    def _stack(self, ctx: _Context) -> int:
        """Answer a pending total with the answering card worth the fewest points (calling UNO
        when it leaves one card); draw the total only when nothing answers."""
        plays = [a for a in ctx.moves if ctx.type_of(a) in (ActionType.PLAY, ActionType.PLAY_UNO)]
        if not plays:
            return ctx.space.accept
        uno = [a for a in plays if ctx.type_of(a) == ActionType.PLAY_UNO]
        points = get_edition(ctx.view.edition).card_points
        return min(uno or plays, key=lambda a: (points[ctx.arg_of(a)], a))

    # ------------------------------------------------------------------ discards and gifts

    def _shed_order(self, ctx: _Context, hand: Sequence[int]) -> list[int]:
        """Cards from the most to the least worth getting rid of: wild cards last (they
        always play), then high points first, lone cards of a colour before cards of a
        colour it holds several of."""

        def key(card: int) -> tuple[int, float]:
            if CARD_IS_WILD[card] and not ctx.colourless:
                return (0, ctx.points[card])
            lone = 2 - min(2, ctx.colour_count(CARD_COLOUR[card], hand) - 1)
            return (1, ctx.points[card] + 8 * lone)

        return sorted(set(hand), key=key, reverse=True)

    def _discard(self, ctx: _Context) -> int:
        """Space Jam Slam and Wild Jackpot rule discards: shed the least useful card."""
        options = {ctx.arg_of(a): a for a in ctx.by_type(ActionType.DISCARD)}
        for card in self._shed_order(ctx, ctx.hand):
            if card in options:
                return options[card]
        return ctx.moves[0]

    def _give(self, ctx: _Context) -> int:
        """Wild Jackpot "give N cards": give the highest-scoring cards it would shed anyway;
        a wild card only when it holds nothing else (it would help the receiver most)."""
        options = {ctx.arg_of(a): a for a in ctx.by_type(ActionType.GIVE)}
        for card in self._shed_order(ctx, ctx.hand):
            if card in options:
                return options[card]
        return ctx.moves[0]

    def _lever_discard(self, ctx: _Context) -> int:
        """Wild Jackpot lever outcome 5: discard one card of every colour it can (fewer
        cards is always better).  In each colour: a Draw Two, then a Skip (they hit the
        next player), then the card with most points.  The colour it keeps most of goes
        last, so it is the colour in play."""
        options = {ctx.arg_of(a): a for a in ctx.by_type(ActionType.DISCARD)}
        if not options:
            return ctx.space.id(ActionType.DONE)
        hand = list(ctx.hand)
        by_colour: dict[int, list[int]] = {}
        for card in options:
            by_colour.setdefault(CARD_COLOUR[card], []).append(card)

        def pick(cards: list[int]) -> int:
            rank = {Kind.DRAW_TWO: 2, Kind.SKIP: 1}
            return max(cards, key=lambda c: (rank.get(Kind(CARD_KIND[c]), 0), ctx.points[c], c))

        def kept(colour: int) -> tuple[int, int]:
            return (ctx.colour_count(colour, hand) - 1, ctx.colour_points(colour, hand))

        colours = sorted(by_colour, key=kept)
        first = colours[0]
        return options[pick(by_colour[first])]

    # ------------------------------------------------------------------ targets

    def _target(self, ctx: _Context) -> int:
        """Choose a player: All Wild's Targeted Draw Two and Forced Swap, and Seven-O's swap, go to
        the opponent with the fewest cards (never a partner when an opponent may be chosen); Wild
        Jackpot: see :meth:`_performer` and :meth:`_rule_target`."""
        options = {ctx.arg_of(a): a for a in ctx.by_type(ActionType.TARGET)}
        seats = sorted(options)
        kind = ctx.view.decision.get("target_kind", -1)
        if kind == TARGET_PERFORMER:
            return options[self._performer(ctx, seats)]
        if kind == TARGET_OF_RULE:
            return options[self._rule_target(ctx, seats)]
        others = [s for s in seats if s in ctx.opponents] or [s for s in seats if s != ctx.me] or seats
        return options[ctx.leader(others)]

    def _performer(self, ctx: _Context, seats: list[int]) -> int:
        """Who performs the next rule card.  It cannot see the card, so it takes the
        rule cards shown so far (or, before any, the rule sheet's suggestions) as the
        likely ones and picks the player whose performing helps it most on average:
        each card's effect on hand sizes, counted against itself and for the opponents
        (double for the one closest to going out).  An opponent close to going out
        usually suffers most ("draw until you have 7"); itself only when holding many
        cards ("discard until you have 2")."""
        shown = ctx.view.public.get("rule_cards_shown", ())
        texts = [entry[1] for entry in shown] or list(rc.SUGGESTIONS)
        effects = [_rule_effect(text) for text in texts]

        def value(performer: int) -> tuple[float, int, int]:
            total = 0.0
            for effect in effects:
                if effect is not None:
                    total += self._utility(ctx, _rule_delta(ctx, effect, performer))
            return (total / len(effects), performer != ctx.me, -ctx.sizes[performer])

        return max(seats, key=value)

    def _utility(self, ctx: _Context, delta: Sequence[float]) -> float:
        """Good for the bot: its own hand and its partners' shrink, opponents' hands grow (the opponent
        closest to going out counts double)."""
        total = -delta[ctx.me] - sum(delta[seat] for seat in ctx.partners)
        for seat in ctx.opponents:
            total += delta[seat] * (1.0 if ctx.sizes[seat] == ctx.closest else 0.5)
        return total

    def _rule_target(self, ctx: _Context, seats: list[int]) -> int:
        """The player a Wild Jackpot rule applies to: give cards to the opponent closest
        to going out; take (random) cards from the one with the most (taking helps its
        victim, so never the leader); swap hands with the one with the fewest."""
        rid = ctx.view.decision.get("target_rule", -1)
        effect = ctx.rule_effect(rid) if rid >= 0 else None
        if effect is not None and effect.verb == rc.TAKE:
            return max(seats, key=lambda s: (ctx.sizes[s], -ctx.distance(s)))
        return ctx.leader([s for s in seats if s in ctx.opponents] or seats)

    # ------------------------------------------------------------------ helpers

    def _best(self, scores: dict[int, float]) -> int:
        """The key with the highest score; ties broken by the bot's seeded generator."""
        top = max(scores.values())
        best = sorted(k for k, v in scores.items() if v == top)
        return best[0] if len(best) == 1 else self.rng.choice(best)


def _rule_delta(ctx: _Context, effect: rc.RuleEffect, performer: int) -> list[float]:
    """Expected change in each player's hand size if ``performer`` carries out ``effect``."""
    sizes = ctx.sizes
    n = ctx.n
    delta = [0.0] * n
    held = sizes[performer]
    verb, count = effect.verb, effect.count
    if verb == rc.DRAW:
        delta[performer] = count
    elif verb == rc.DRAW_TO:
        delta[performer] = max(0, count - held)
    elif verb == rc.DISCARD:
        delta[performer] = -min(count, held)
    elif verb == rc.DISCARD_TO:
        delta[performer] = -max(0, held - count)
    elif verb == rc.PLAY_RUN:
        delta[performer] = -min(float(held), 1.5)
    elif verb == rc.PLAY_WILDS:
        if performer == ctx.me:
            delta[performer] = -sum(1 for c in ctx.hand if CARD_IS_WILD[c])
        else:
            delta[performer] = -held * 8 / 108
    elif verb == rc.SKIP_TURN:
        delta[performer] = 1
    elif verb == rc.EVERYONE_DRAWS:
        delta = [float(count)] * n
    elif verb == rc.EVERYONE_DISCARDS:
        delta = [-float(min(count, s)) for s in sizes]
    elif verb in (rc.GIVE, rc.TAKE, rc.SWAP):
        other = _rule_victim(ctx, effect, performer)
        if verb == rc.GIVE:
            moved = min(count, held)
            delta[performer] -= moved
            delta[other] += moved
        elif verb == rc.TAKE:
            moved = min(count, sizes[other])
            delta[performer] += moved
            delta[other] -= moved
        else:
            delta[performer] += sizes[other] - held
            delta[other] += held - sizes[other]
    return delta


def _rule_victim(ctx: _Context, effect: rc.RuleEffect, performer: int) -> int:
    """The player a give / take / swap rule would name, when ``performer`` carries it out."""
    n = ctx.n
    direction = ctx.view.direction
    target = effect.target
    if target == rc.LEFT:
        return (performer + 1) % n
    if target == rc.RIGHT:
        return (performer - 1) % n
    if target == rc.NEXT:
        return (performer + direction) % n
    if target == rc.PREVIOUS:
        return (performer - direction) % n
    others = [s for s in range(n) if s != performer]
    sizes = ctx.sizes
    most = max(others, key=lambda s: sizes[s])
    fewest = min(others, key=lambda s: sizes[s])
    if target == rc.MOST:
        return most
    if target == rc.FEWEST:
        return fewest
    return most if effect.verb == rc.TAKE else fewest  # a player of the performer's choice
