"""The game: state, who decides, legal actions and transitions.

A :class:`Game` plays a whole match of one edition: rounds are dealt, played and
scored until the match has a winner.  At every point :meth:`Game.deciders` says
who may act and :meth:`Game.legal_actions` lists exactly their legal actions as
integer ids of the edition's :class:`~unokit.engine.actions.ActionSpace`.  Randomness
comes only from the game's own seeded :class:`random.Random`.

>>> game = Game("classic", players=3, seed=7)
>>> seat = game.actor
>>> action = game.legal_actions(seat)[0]
>>> game.apply(seat, action)
>>> game.is_over
False
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, cast

from unokit.engine.actions import MAX_PLAYERS, ActionSpace, ActionType, plain_id
from unokit.engine.cards import (
    CARD_COLOUR,
    CARD_IS_WILD,
    CARD_KIND,
    COLOUR_NAMES,
    NO_COLOUR,
    WILD_DRAW_FOUR,
    card_name,
    is_card,
    parse_card,
)
from unokit.engine.edition import Edition, get_edition
from unokit.engine.errors import (
    GameOverError,
    IllegalActionError,
    SetupError,
    UnknownOptionError,
    WrongPlayerError,
)
from unokit.engine.events import Event
from unokit.engine.order import order_key
from unokit.engine.phases import (
    CHALLENGE,
    COLOUR,
    DISCARD,
    DRAWN,
    EDITION_PHASES,
    HOUSE_PHASE_ASKS,
    HOUSE_PHASE_NAMES,
    HOUSE_PHASES,
    OP_BEGIN,
    OP_CHALLENGE,
    OP_COLOUR,
    OP_DISCARD,
    OP_DRAW,
    OP_END_ROUND,
    OP_END_TURN,
    OP_TARGET,
    OVER,
    PHASE_NAMES,
    TARGET,
    TURN,
)
from unokit.engine.results import RoundResult, round_result
from unokit.engine.rules import Rules
from unokit.engine.views import build_view

_PHASE_ASKS = (
    "play a card or draw",
    "play the drawn card or pass",
    "choose a colour",
    "challenge the Wild Draw Four or accept it",
    "discard a card",
    "choose a player",
    "nothing: the match is over",
)
_THEY = {"they": "they", "their": "their", "them": "them"}
_YOU = {"they": "you", "their": "your", "them": "you"}
"""The pronouns of a phase's words (:meth:`Game.asks`), spoken of the actor or to them."""

Op = tuple[int, int, int]

WILD_DRAW_FOUR_PENALTY = 4
FAILED_CHALLENGE_PENALTY = 6

_TERMINAL = -4

BLOCKED_RULE = (
    "When every player in the round has in turn drawn no card (the draw pile and the discards under "
    "the top card are spent) with no card played since, the round is blocked: it ends and the lowest "
    "hand in points wins it (then the fewest cards, then the first in play order after the last to "
    "draw), scored as usual."
)
"""The blocked-round rule (docs/rules.md, "Every round ends")."""

_WILD_DRAW_FOUR_ONLY = frozenset((WILD_DRAW_FOUR,))

# Plain-int action types for the hot path.
_PLAY = int(ActionType.PLAY)
_PLAY_UNO = int(ActionType.PLAY_UNO)
_DRAW = int(ActionType.DRAW)
_PASS = int(ActionType.PASS)
_COLOUR = int(ActionType.COLOUR)
_CHALLENGE = int(ActionType.CHALLENGE)
_ACCEPT = int(ActionType.ACCEPT)
_TARGET = int(ActionType.TARGET)
_DISCARD = int(ActionType.DISCARD)
_CALL_UNO = int(ActionType.CALL_UNO)
_CATCH = int(ActionType.CATCH)


_SHUFFLE_STEPS = tuple((place, place + 1, (place + 1).bit_length()) for place in range(256))
"""Entry ``i``: ``(i, i + 1, (i + 1).bit_length())``: the place a shuffle fills, how many cards it
draws the card among, and the bits it asks the generator for."""


def _shuffle_steps(length: int) -> Sequence[tuple[int, int, int]]:
    """The steps of shuffling ``length`` cards, last place first (see :data:`_SHUFFLE_STEPS`)."""
    if length < 2:
        return ()
    if length <= len(_SHUFFLE_STEPS):
        return _SHUFFLE_STEPS[length - 1 : 0 : -1]
    return [(place, place + 1, (place + 1).bit_length()) for place in range(length - 1, 0, -1)]


def _shuffle_plain(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)`` as CPython's :meth:`random.Random.shuffle` does it (the same calls of
    ``getrandbits``, so the same order and the same state after), without two method calls per card."""
    getrandbits = rng.getrandbits
    for i, n, k in _shuffle_steps(len(cards)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _shuffles_alike() -> bool:
    """Whether :func:`_shuffle_plain` draws as this Python's ``random.Random.shuffle`` does."""
    for size in (0, 1, 2, 3, 7, 64, 108, 200, 300):
        ours, theirs = random.Random(size), random.Random(size)
        mine, stock = list(range(size)), list(range(size))
        _shuffle_plain(ours, mine)
        theirs.shuffle(stock)
        if mine != stock or ours.getstate() != theirs.getstate():
            return False
    return True


_FAST_SHUFFLE = _shuffles_alike()


def shuffle_cards(rng: random.Random, cards: list[int]) -> None:
    """Shuffle ``cards`` in place with ``rng``: exactly ``rng.shuffle(cards)``, faster for a plain
    :class:`random.Random` (any other generator's own ``shuffle`` is called)."""
    if _FAST_SHUFFLE and type(rng) is random.Random:
        _shuffle_plain(rng, cards)
    else:
        rng.shuffle(cards)


def team_of(seat: int) -> int:
    """The team of ``seat`` under house rule ``teams``: seats alternate (partners sit across at four)."""
    return seat % 2


def check_teams(players: int) -> None:
    """Refuse (:class:`SetupError`) a table the house rule ``teams`` cannot split into two equal teams."""
    if players < 4 or players % 2:
        raise SetupError(
            f"teams need an even number of players, at least 4 (two equal teams of two or more), not {players}"
        )


def same_side(seat: int, winner: int, teams: bool) -> bool:
    """Whether ``seat`` shares ``winner``'s win: it is ``winner``, or (with ``teams``) a partner."""
    return seat == winner or (teams and team_of(seat) == team_of(winner))


class Game:
    """A match of one edition, from the first deal to the match winner.

    With a house rule on (see :mod:`unokit.editions.house`) the object is a
    :class:`~unokit.editions.house.HouseGame`; with every house rule off it is a plain ``Game``."""

    __slots__ = (
        "_all_seats",
        "_args",
        "_catch_ids",
        "_colour_ids",
        "_draw_alone",
        "_draw_id",
        "_effects",
        "_faces",
        "_final_effects",
        "_legal",
        "_play_id",
        "_play_id_of",
        "_playable_sets",
        "_tables",
        "_target_ids",
        "_types",
        "_wd4_restricted",
        "actions",
        "actor",
        "bluff",
        "bluff_colour",
        "bluffer",
        "colour",
        "dealer",
        "deck_cards",
        "direction",
        "discard_pile",
        "discards_left",
        "draw_pile",
        "drawn",
        "edition",
        "events",
        "exposed",
        "extra",
        "hands",
        "history",
        "initial_deck",
        "knocked",
        "moves_before",
        "n",
        "ops",
        "order_key",
        "pending_skips",
        "phase",
        "players_in",
        "redacted_logs",
        "rng",
        "round",
        "round_results",
        "rules",
        "scores",
        "scoring",
        "seed",
        "setup_dealer",
        "setup_rule_cards",
        "stalls",
        "start_position",
        "target_kind",
        "teams",
        "turn",
        "turn_skips",
        "window_armed",
        "winner",
    )
    """Every attribute of a game is a slot.  CPython 3.11 keeps the attributes of an object that has
    more than 30 in a dictionary of its own, and then looks every method called on it up in that
    dictionary first; a game calls methods on itself at every step.  (A subclass such as
    :class:`~unokit.editions.house.HouseGame` keeps its own attributes in a dictionary, as usual.)"""

    calls_uno = True
    """Whether players call UNO (and a player left with one card uncalled is exposed); only the
    house rule ``call_uno`` turns it off."""

    def __new__(
        cls,
        edition: str | Edition = "classic",
        players: int = 4,
        *,
        seed: int | None = None,
        rules: Rules | dict[str, Any] | None = None,
        deck: Sequence[int | str] | None = None,
        dealer: int | None = None,
        rule_cards: Sequence[str] | None = None,
        rng: Any = None,
    ) -> Game:
        return object.__new__(cls._class_for(rules) if cls is Game else cls)

    @staticmethod
    def _class_for(rules: Rules | dict[str, Any] | None) -> type[Game]:
        """``HouseGame`` when some house rule is on, else ``Game``."""
        if rules is None:
            return Game
        if isinstance(rules, dict):
            try:
                rules = Rules.from_dict(rules)
            except UnknownOptionError:
                return Game  # __init__ reports the error
        if not isinstance(rules, Rules) or not rules.house_on:
            return Game
        if _HOUSE_GAME is None:  # pragma: no cover - importing unokit registers it
            raise RuntimeError("no class plays the house rules: import unokit.editions")
        return _HOUSE_GAME

    def __init__(
        self,
        edition: str | Edition = "classic",
        players: int = 4,
        *,
        seed: int | None = None,
        rules: Rules | dict[str, Any] | None = None,
        deck: Sequence[int | str] | None = None,
        dealer: int | None = None,
        rule_cards: Sequence[str] | None = None,
        rng: Any = None,
    ) -> None:
        self._init_state(edition, players, seed, rules)
        if rng is not None:  # a :class:`unokit.engine.scripted.ScriptedRandom`: results drawn before
            self.rng = cast(random.Random, rng)
        order = self._check_deck(deck) if deck is not None else None
        self.setup_dealer: int | None = dealer
        """The dealer given at set-up (``None``: drawn for, as the rules say)."""
        if dealer is None:
            dealer = self.edition.choose_dealer(self)
        elif isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise SetupError(f"dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
        self.initial_deck: tuple[int, ...] | None = tuple(order) if order is not None else None
        """The first round's deck order given at set-up (top first), if any."""
        if rule_cards is not None and (isinstance(rule_cards, str) or not isinstance(rule_cards, Sequence)):
            raise SetupError("rule_cards must be a list of texts")
        self.setup_rule_cards: list[str] | None = list(rule_cards) if rule_cards is not None else None
        """The rule-card texts given at set-up (Wild Jackpot), if any."""
        self.edition.setup(self, rule_cards)
        self._start_round(dealer, order)

    @classmethod
    def blank(cls, edition: str | Edition, players: int, seed: int, rules: Rules | None = None) -> Game:
        """A game with no cards dealt, for code that sets up a state itself (see :mod:`unokit.determinize`)."""
        game = object.__new__(cls._class_for(rules) if cls is Game else cls)
        game._init_state(edition, players, seed, rules)
        game.setup_dealer = None
        game.initial_deck = None
        game.setup_rule_cards = None
        return game

    def _init_state(
        self, edition: str | Edition, players: int, seed: int | None, rules: Rules | dict[str, Any] | None
    ) -> None:
        self.edition: Edition = edition if isinstance(edition, Edition) else get_edition(edition)
        if isinstance(rules, dict):
            rules = Rules.from_dict(rules)
        elif rules is not None and not isinstance(rules, Rules):
            raise UnknownOptionError("rules must be a Rules object or a mapping of options")
        self.rules: Rules = rules or Rules()
        self.scoring: str = self.edition.scoring_method(self.rules)
        """The scoring method played (``Rules.scoring`` with ``edition`` resolved)."""
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
            raise SetupError(f"players must be from 2 to {MAX_PLAYERS}, not {players!r}")
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise SetupError(f"seed must be an integer, not {seed!r}")
        self.n = players
        self.teams: tuple[int, ...] = ()
        """Each seat's team (house rule ``teams``: seat mod 2); empty without teams."""
        self.knocked: tuple[int, ...] = ()
        """The seats out of the match (``knockout`` scoring), in seat order."""
        self.players_in = players
        """How many players take part in the round (all but the ``knocked`` ones)."""
        if self.rules.teams:
            check_teams(players)
            self.teams = tuple(team_of(seat) for seat in range(players))
        self.seed = seed
        self.rng = random.Random(seed)
        self.order_key = order_key(seed)
        """Ranks the seats asked out of turn (:mod:`unokit.engine.order`); never draws from ``rng``."""
        self.deck_cards: list[int] = self.edition.deck_cards(self.rules)
        if players * self.rules.hand_size + 1 > len(self.deck_cards):
            raise SetupError(f"{len(self.deck_cards)} cards cannot deal {self.rules.hand_size} to {players} players")
        self.actions: ActionSpace = self.edition.actions
        self._types = self.actions.type_codes
        self._args = self.actions.args
        self._play_id = self.actions.play_id
        self._play_id_of = self._play_id.__getitem__
        self._tables = self.edition.playable_tables
        self._playable_sets = self.edition.playable_sets
        self._faces = len(self.actions.faces)
        self._draw_id = self.actions.draw
        self._draw_alone = (self._draw_id,)
        self._colour_ids = tuple(self.actions.id(ActionType.COLOUR, c) for c in self.actions.colours)
        self._catch_ids = [self.actions.id(ActionType.CATCH, s) for s in range(players)]
        self._target_ids = tuple(self.actions.id(ActionType.TARGET, s) for s in range(MAX_PLAYERS))
        self._all_seats = tuple(range(players))
        self._effects = self.edition.effects
        self._final_effects = self.edition.final_effects
        self._wd4_restricted = not self.rules.allow_bluff and self.edition.colours_matter
        self.events: list[Event] = []
        self.redacted_logs: dict[int | None, tuple[list[Event], list[Event], bool]] = {}
        """Per viewer: (the event list read, that log as the viewer may see it, whether a copy of the game
        shares the log: then it is copied before it grows), extended as views are built."""
        self.history: list[tuple[int, int]] = []
        self.moves_before = 0
        """Decisions taken before :attr:`history` starts (a game loaded from a position: see :attr:`moves`)."""
        self.scores = [0] * players
        self.round = 0
        self.round_results: tuple[RoundResult, ...] = ()
        """The result of each finished round, in order (see :mod:`unokit.engine.results`)."""
        self.start_position: str | None = None
        """The position the game started from (:mod:`unokit.engine.setup`, a loaded position); ``None``
        when it was dealt.  Records write it (:mod:`unokit.engine.record`)."""
        self.winner = -1
        self.dealer = -1
        self.direction = 1
        self.turn = 0
        self.actor = 0
        self.phase = TURN
        self.colour = NO_COLOUR
        self.hands: list[list[int]] = []
        self.draw_pile: list[int] = []
        self.discard_pile: list[int] = []
        self.exposed: list[int] = []
        self.window_armed = False
        self.ops: list[Op] = []
        self.drawn = -1
        self.bluffer = -1
        self.bluff = False
        self.discards_left = 0
        self.target_kind = -1
        self.extra: dict[str, Any] = {}
        """Edition-specific state (kept by editions' hooks; copied and compared)."""
        self.turn_skips = [0] * players
        """Turns each seat is still to lose (e.g. "skip your next turn")."""
        self.pending_skips = 0
        self.stalls = 0
        """Turns in a row whose draw found no card, none played since (:data:`BLOCKED_RULE`)."""
        self.bluff_colour = NO_COLOUR
        """The colour in play when the Wild Draw Four being answered was played."""
        self._legal: tuple[int, ...] | None = None

    # ------------------------------------------------------------------ set-up

    def _check_deck(self, deck: Sequence[int | str]) -> list[int]:
        order = [parse_card(c) if isinstance(c, str) else c for c in deck]
        if not all(is_card(c) for c in order):
            raise SetupError("deck must list cards (integers or notation)")
        if Counter(order) != Counter(self.deck_cards):
            raise SetupError("deck order must hold exactly the cards of the edition's deck")
        return order

    def _start_round(self, dealer: int, order: list[int] | None) -> None:
        self.round += 1
        self.dealer = dealer
        self.direction = 1
        self.colour = NO_COLOUR
        self.exposed = []
        self.window_armed = False
        self.ops = []
        self.drawn = -1
        self.turn_skips = [0] * self.n
        self.pending_skips = 0
        self.stalls = 0
        self.events.append(("dealer", dealer, self.round, ()))
        if order is None:
            order = list(self.deck_cards)
            shuffle_cards(self.rng, order)
        self.draw_pile = order[::-1]
        self.discard_pile = []
        n = self.n
        hands: list[list[int]] = [[] for _ in range(n)]
        pile = self.draw_pile
        knocked = self.knocked
        seats = [(dealer + offset) % n for offset in range(1, n + 1)]
        if knocked:  # knockout scoring: nothing for the players out of the match
            seats = [seat for seat in seats if seat not in knocked]
        for _ in range(self.rules.hand_size):
            for seat in seats:
                hands[seat].append(pile.pop())
        self.hands = hands
        for seat in range(n):
            if seat not in knocked:
                self.events.append(("deal", seat, len(hands[seat]), tuple(hands[seat])))
        self.edition.start_round(self)
        self.run_ops()

    def flip_start_card(self) -> int:
        """Turn the top card of the draw pile onto the discard pile."""
        card = self.draw_pile.pop()
        self.discard_pile.append(card)
        self.events.append(("flip", -1, 0, (card,)))
        return card

    def return_start_card(self) -> None:
        """Shuffle the top discard back into the draw pile (a Wild Draw Four start card)."""
        card = self.discard_pile.pop()
        self.draw_pile.append(card)
        shuffle_cards(self.rng, self.draw_pile)
        self.events.append(("return", -1, 0, (card,)))

    # ------------------------------------------------------------------ seating

    def left_of(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places to the left (clockwise; play starts this way)."""
        return (seat + steps) % self.n

    def right_of(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places to the right (counter-clockwise)."""
        return (seat - steps) % self.n

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places on in the current direction of play."""
        return (seat + self.direction * steps) % self.n

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        """Whether the match has ended."""
        return self.phase == OVER

    @property
    def moves(self) -> int:
        """Decisions taken in the match so far, those before a loaded position included: with the order
        key they rank the seats asked out of turn (:mod:`unokit.engine.order`)."""
        return self.moves_before + len(self.history)

    @property
    def top_card(self) -> int:
        """The card on top of the discard pile."""
        return self.discard_pile[-1]

    @property
    def current_player(self) -> int:
        """The seat who must decide (``-4`` once the match is over)."""
        return _TERMINAL if self.phase == OVER else self.actor

    @property
    def phase_name(self) -> str:
        """``turn``, ``drawn``, ``colour``, ``challenge``, ``discard``, ``target``, ``over``,
        a phase of the edition, or a house rule's (:mod:`unokit.editions.house`)."""
        if self.phase >= HOUSE_PHASES:
            return HOUSE_PHASE_NAMES[self.phase - HOUSE_PHASES]
        if self.phase >= EDITION_PHASES:
            return self.edition.phase_names[self.phase - EDITION_PHASES]
        return PHASE_NAMES[self.phase]

    def asks(self, you: bool = False) -> str:
        """What the actor is asked, in words: spoken of the actor, or to them when ``you`` is true.

        >>> Game("wild-jackpot", 2, seed=1).asks()
        'play a card or draw'
        """
        if self.phase >= HOUSE_PHASES:
            words = HOUSE_PHASE_ASKS[self.phase - HOUSE_PHASES]
        elif self.phase >= EDITION_PHASES:
            words = self.edition.phase_asks[self.phase - EDITION_PHASES]
        else:
            words = _PHASE_ASKS[self.phase]
        return words.format_map(_YOU if you else _THEY) if "{" in words else words

    def deciders(self) -> tuple[int, ...]:
        """Every seat with a legal action now: the actor, and out-of-turn players
        who may call or catch UNO while a call is missing."""
        if self.phase == OVER:
            return ()
        if not self.exposed:
            return (self.actor,)
        # Every seat may then act: the uncalled player may call, everyone else may catch.
        return self._interrupters()

    def deciders_seen_by(self, seat: int | None) -> tuple[int, ...]:
        """:meth:`deciders` as ``seat`` (``None``: a spectator) may know them.  The same here:
        every reason the sheets give to act out of turn (a missing UNO call) is public.  A house
        rule may give private ones (Jump-In: holding the card on top), shown only to their holder."""
        return self.deciders()

    def _interrupters(self) -> tuple[int, ...]:
        """The deciders while someone may be caught: every seat (house rule ``teams``: not a seat
        whose only exposed players are partners)."""
        return self._all_seats

    def legal_actions(self, seat: int) -> tuple[int, ...]:
        """Exactly the legal action ids of ``seat`` (empty if it may not act)."""
        if seat == self.actor:
            legal = self._legal
            if legal is None:
                legal = self._legal = self._actor_actions()
            if self.exposed:
                return legal + self._interrupts(seat)
            return legal
        if self.exposed and type(seat) is int and 0 <= seat < self.n:
            return self._interrupts(seat)
        return ()

    def action_mask(self, seat: int) -> list[int]:
        """1 for each legal action id of ``seat``, 0 otherwise."""
        mask = [0] * self.actions.size
        for action in self.legal_actions(seat):
            mask[action] = 1
        return mask

    def playable(self, seat: int, card: int) -> bool:
        """Whether ``card`` could be played from ``seat``'s hand on the current top card."""
        if not self._tables[self.colour * 32 + CARD_KIND[self.discard_pile[-1]]][card]:
            return False
        if card == WILD_DRAW_FOUR and self._wd4_restricted:
            return not self.holds_colour(seat, self.colour)
        return True

    def holds_colour(self, seat: int, colour: int) -> bool:
        """Whether ``seat`` holds a card of ``colour`` (wild cards have none)."""
        return colour != NO_COLOUR and any(CARD_COLOUR[c] == colour for c in self.hands[seat])

    def _actor_actions(self) -> tuple[int, ...]:
        phase = self.phase
        seat = self.actor
        hand = self.hands[seat]
        if phase == TURN:
            colour = self.colour
            cards = self._playable_sets[colour * 32 + CARD_KIND[self.discard_pile[-1]]].intersection(hand)
            if self._wd4_restricted and WILD_DRAW_FOUR in cards and self.holds_colour(seat, colour):
                cards = cards.difference(_WILD_DRAW_FOUR_ONLY)
            if not cards:
                return self._draw_alone
            if len(cards) == 1:  # (no sort)
                (card,) = cards
                play = self._play_id[card]
                if len(hand) == 2:
                    return (play, play + self._faces, self._draw_id)
                return (play, self._draw_id)
            ids = sorted(map(self._play_id_of, cards))
            if len(hand) == 2:
                faces = self._faces
                ids += [a + faces for a in ids]
            ids.append(self._draw_id)
            return tuple(ids)
        space = self.actions
        if phase == DRAWN:
            if len(hand) == 2:
                return (self._play_id[self.drawn], space.play_uno_id[self.drawn], space.pass_)
            return (self._play_id[self.drawn], space.pass_)
        if phase == COLOUR:
            return self._colour_ids
        if phase == CHALLENGE:
            return (space.challenge, space.accept)
        if phase == DISCARD:
            return tuple(sorted({space.discard_id[c] for c in hand}))
        if phase == TARGET:
            return tuple(map(self._target_ids.__getitem__, self._targets(seat, self.target_kind)))
        if phase >= EDITION_PHASES:
            return self._phase_actions()
        return ()

    def _targets(self, seat: int, kind: int) -> list[int]:
        """The seats ``seat`` may choose for a target decision of ``kind``."""
        return self.edition.targets(self, seat, kind)

    def _phase_actions(self) -> tuple[int, ...]:
        """Legal actions of the actor in a phase beyond the common ones (an edition's)."""
        return self.edition.actor_actions(self)

    def _interrupts(self, seat: int) -> tuple[int, ...]:
        exposed = self.exposed
        catch = self._catch_ids
        if seat in exposed:
            return (self.actions.call_uno, *(catch[t] for t in sorted(exposed) if t != seat))
        return tuple(catch[t] for t in sorted(exposed))

    # ------------------------------------------------------------------ acting

    def apply(self, seat: int, action: int) -> None:
        """Apply ``action`` by ``seat``; raises (changing nothing) if it is not legal.  ``action`` is
        an id of any integer type (NumPy's too)."""
        if type(action) is not int:
            action = plain_id(action)  # type: ignore[assignment]
        if seat == self.actor and not self.exposed:
            legal = self._legal
            if legal is None:
                legal = self._legal = self._actor_actions()
        else:
            legal = self.legal_actions(seat)
        if action not in legal or type(action) is not int:
            if self.phase == OVER:
                raise GameOverError("the match is over; no action is legal")
            if type(action) is not int:
                raise IllegalActionError(f"an action is an integer id, not {action!r}")
            raise self._why_illegal(seat, action, legal)
        self.history.append((seat, action))
        self._legal = None
        kind = self._types[action]
        arg = self._args[action]
        if _CALL_UNO <= kind <= _CATCH:
            self._interrupt(seat, kind, arg)
            return
        if self.window_armed:
            self.exposed.clear()
            self.window_armed = False
        if self.phase >= EDITION_PHASES:
            self._apply_phase(seat, kind, arg)
        elif kind <= _PLAY_UNO:
            self.drawn = -1
            self.play_card(seat, arg, kind == _PLAY_UNO)
        elif kind == _DRAW:
            self._draw_on_turn(seat)
        elif kind == _PASS:
            self.drawn = -1
            self.events.append(("pass", seat, 0, ()))
            self.end_turn(seat, 0)
        elif kind == _COLOUR:
            self.colour = arg
            self.events.append(("colour", seat, arg, ()))
            self.run_ops()
        elif kind in (_CHALLENGE, _ACCEPT):
            self._resolve_challenge(seat, kind == _CHALLENGE)
        elif kind == _TARGET:
            self._on_target(seat, arg)
            self.run_ops()
        elif kind == _DISCARD:
            self._discard(seat, arg)
        else:
            self._apply_other(seat, kind, arg)

    def _apply_other(self, seat: int, kind: int, arg: int) -> None:
        """Apply a legal action of a type only a house rule offers (see :mod:`unokit.editions.house`)."""
        raise AssertionError(kind)  # pragma: no cover - a plain game offers none

    def _apply_phase(self, seat: int, kind: int, arg: int) -> None:
        """Apply a legal action in a phase beyond the common ones (an edition's)."""
        self.edition.apply_action(self, seat, kind, arg)

    def _on_target(self, seat: int, target: int) -> None:
        """Apply the target chosen in phase ``target``."""
        self.edition.on_target(self, seat, target)

    def apply_notation(self, seat: int, text: str) -> int:
        """Parse ``text`` as action notation and apply it; returns the action id."""
        action = self.actions.parse(text)
        self.apply(seat, action)
        return action

    def _why_illegal(self, seat: int, action: int, legal: tuple[int, ...]) -> IllegalActionError:
        if type(seat) is not int or not 0 <= seat < self.n:
            return WrongPlayerError(f"no seat {seat!r} at a table of {self.n}")
        teams = self.teams
        if teams and 0 <= action < self.actions.size and self._types[action] == _CATCH:
            caught = self._args[action]
            if caught != seat and caught < self.n and teams[caught] == teams[seat]:
                return (IllegalActionError if legal else WrongPlayerError)(
                    f"{self.actions.format(action)} is not legal: seat {caught} is seat {seat}'s partner "
                    "(partners do not catch each other)"
                )
        if not legal:
            return WrongPlayerError(f"seat {seat} may not act now: seat {self.actor} is to {self.asks()}")
        if not 0 <= action < self.actions.size:
            return IllegalActionError(f"{action} is not an action id of {self.edition.name}")
        text = self.actions.format(action)
        kind, arg = self.actions.decode(action)
        if seat != self.actor and kind not in (ActionType.CALL_UNO, ActionType.CATCH):
            return WrongPlayerError(
                f"{text} is not legal: seat {self.actor} is to {self.asks()}; "
                f"seat {seat} may only call or catch UNO now"
            )
        options = ", ".join(self.actions.format(a) for a in legal)
        reason = f"seat {seat} is to {self.asks()}" if seat == self.actor else "out of turn"
        if kind in (ActionType.PLAY, ActionType.PLAY_UNO) and seat == self.actor:
            if arg not in self.hands[seat]:
                reason = f"seat {seat} holds no {card_name(arg)}"
            elif self.phase == DRAWN:
                reason = f"after drawing, only the drawn card {card_name(self.drawn)} may be played"
            elif self.phase == TURN and kind == ActionType.PLAY_UNO and len(self.hands[seat]) != 2:
                reason = "UNO is called when playing the next-to-last card"
            elif self.phase == TURN and not self.playable(seat, arg):
                if arg == WILD_DRAW_FOUR:
                    reason = f"a Wild Draw Four may not be played while holding {COLOUR_NAMES[self.colour]}"
                else:
                    reason = f"{card_name(arg)} does not match {card_name(self.top_card)} ({self._colour_text()})"
        return IllegalActionError(f"{text} is not legal: {reason}; legal: {options}")

    def _colour_text(self) -> str:
        return "no colour" if self.colour == NO_COLOUR else f"colour {COLOUR_NAMES[self.colour]}"

    def _interrupt(self, seat: int, kind: int, arg: int) -> None:
        if kind == _CALL_UNO:
            self.exposed.remove(seat)
            self.events.append(("uno", seat, 0, ()))
        else:
            self.exposed.remove(arg)
            self.events.append(("catch", seat, arg, ()))
            self.draw_cards(arg, self.rules.uno_penalty)
        if not self.exposed:
            self.window_armed = False

    # ------------------------------------------------------------------ mechanics used by editions

    def push(self, op: int, seat: int, arg: int = 0) -> None:
        """Schedule an operation; the last pushed runs first."""
        self.ops.append((op, seat, arg))

    def play_card(self, seat: int, card: int, called: bool) -> None:
        """Move ``card`` from the hand to the discard pile and resolve it."""
        hand = self.hands[seat]
        hand.remove(card)
        self.discard_pile.append(card)
        self.stalls = 0
        self.events.append(("play", seat, 1 if called else 0, (card,)))
        if not CARD_IS_WILD[card]:
            self.colour = CARD_COLOUR[card]
        left = len(hand)
        if left == 1 and not called and self.calls_uno:
            self.exposed.append(seat)
        kind = CARD_KIND[card]
        if left == 0:
            self.ops.append((OP_END_ROUND, seat, 0))
            final = self._final_effects[kind]
            if final is not None:
                final(self, seat, card)
            self.run_ops()
            return
        effect = self._effects[kind]
        if effect is None:  # a card without action: the turn passes on
            if self.pending_skips:
                self.end_turn(seat, 0)
                return
            self.turn = self.actor = (seat + self.direction) % self.n  # end_turn, inlined for speed
            self.phase = TURN
            if self.exposed:
                self.window_armed = True
            return
        effect(self, seat, card)
        self.run_ops()

    def end_turn(self, seat: int, skip: int) -> None:
        """End ``seat``'s turn; the next ``skip`` players lose theirs."""
        step = self.direction
        nxt = (seat + step) % self.n
        if skip:
            for _ in range(skip):
                self.events.append(("skip", nxt, 0, ()))
                nxt = (nxt + step) % self.n
        if self.pending_skips:
            nxt = self._lose_pending_turns(nxt)
        if self.ops:
            self.ops.clear()
        self.turn = self.actor = nxt
        self.phase = TURN
        if self.exposed:
            self.window_armed = True

    def _lose_pending_turns(self, seat: int) -> int:
        """Skip seats that are to lose their next turn; the first that is not begins."""
        while self.turn_skips[seat]:
            self.turn_skips[seat] -= 1
            self.pending_skips -= 1
            self.events.append(("skip", seat, 0, ()))
            seat = (seat + self.direction) % self.n
        return seat

    def lose_next_turn(self, seat: int) -> None:
        """``seat`` loses its next turn (in this round)."""
        self.turn_skips[seat] += 1
        self.pending_skips += 1

    def draw_cards(self, seat: int, count: int) -> list[int]:
        """``seat`` draws up to ``count`` cards, reshuffling the discards when needed."""
        pile = self.draw_pile
        got: list[int] = []
        for _ in range(count):
            if not pile and not self._reshuffle():
                break
            got.append(pile.pop())
        if got:
            hand = self.hands[seat]
            hand.extend(got)
            self.events.append(("draw", seat, len(got), tuple(got)))
            if self.exposed and seat in self.exposed and len(hand) != 1:
                self.exposed.remove(seat)
        return got

    def _reshuffle(self) -> bool:
        discards = self.discard_pile
        if len(discards) <= 1:
            return False
        top = discards.pop()
        shuffle_cards(self.rng, discards)
        self.draw_pile.extend(discards)
        self.events.append(("reshuffle", -1, len(discards), ()))
        self.discard_pile = [top]
        return True

    def expose_if_single(self, seat: int) -> None:
        """A player newly holding one card without a call may be caught."""
        if len(self.hands[seat]) == 1:
            if seat not in self.exposed:
                self.exposed.append(seat)
        elif seat in self.exposed:
            self.exposed.remove(seat)

    def _draw_on_turn(self, seat: int) -> None:
        if self.draw_pile and not self.exposed:
            card = self.draw_pile.pop()
            self.hands[seat].append(card)
            self.events.append(("draw", seat, 1, (card,)))
        else:
            got = self.draw_cards(seat, 1)
            card = got[0] if got else -1
        if card >= 0:
            self.stalls = 0
            if (
                self._tables[self.colour * 32 + CARD_KIND[self.discard_pile[-1]]][card]
                if card != WILD_DRAW_FOUR
                else self.playable(seat, card)
            ):
                self.phase = DRAWN
                self.drawn = card
                return
        self.events.append(("pass", seat, 0, ()))
        if card < 0 and self.stall(seat):
            return
        self.end_turn(seat, 0)

    def stall(self, seat: int) -> bool:
        """``seat``'s turn draw found no card: one more turn without a card; when every player in
        the round has had one in a row the round is blocked (event ``blocked``) and ends, won by the
        lowest hand (:data:`BLOCKED_RULE`).  Returns whether it ended."""
        self.stalls += 1
        if self.stalls < self.players_in:
            return False
        self.events.append(("blocked", seat, self.stalls, ()))
        self._end_round()
        return True

    def _resolve_challenge(self, victim: int, challenged: bool) -> None:
        bluffer = self.bluffer
        if not challenged:
            self.events.append(("accept", victim, bluffer, ()))
            self.draw_cards(victim, WILD_DRAW_FOUR_PENALTY)
            self.end_turn(bluffer, 1)
            return
        self.events.append(("challenge", victim, bluffer, ()))
        self.events.append(("reveal", bluffer, victim, tuple(sorted(self.hands[bluffer]))))
        self.events.append(("verdict", bluffer, 1 if self.bluff else 0, ()))
        if self.bluff:
            self.draw_cards(bluffer, WILD_DRAW_FOUR_PENALTY)
            self.end_turn(bluffer, 0 if self.rules.challenger_plays_after_catching_bluff else 1)
        else:
            self.draw_cards(victim, FAILED_CHALLENGE_PENALTY)
            self.end_turn(bluffer, 1)

    def _discard(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        hand.remove(card)
        pile = self.discard_pile
        pile.insert(len(pile) - 1, card)
        self.events.append(("discard", seat, 0, (card,)))
        self.discards_left -= 1
        if not hand:
            self.ops[:] = [(OP_END_ROUND, seat, 0)]
            self.run_ops()
            return
        self.expose_if_single(seat)
        if self.discards_left == 0:
            self.run_ops()

    def run_ops(self) -> None:
        """Run pending operations until one asks for a decision or the turn ends."""
        ops = self.ops
        while ops:
            op, seat, arg = ops.pop()
            if op == OP_END_TURN:
                self.end_turn(seat, arg)
                return
            if op == OP_DRAW:
                self.draw_cards(seat, arg)
            elif op == OP_COLOUR:
                self.ask(COLOUR, seat)
                return
            elif op == OP_CHALLENGE:
                self.bluffer = arg
                self.ask(CHALLENGE, seat)
                return
            elif op == OP_DISCARD:
                count = min(arg, len(self.hands[seat]))
                if count:
                    self.discards_left = count
                    self.ask(DISCARD, seat)
                    return
            elif op == OP_TARGET:
                self.target_kind = arg
                self.ask(TARGET, seat)
                return
            elif op == OP_BEGIN:
                ops.clear()
                if self.pending_skips:
                    seat = self._lose_pending_turns(seat)
                self.turn = self.actor = seat
                self.phase = TURN
                return
            elif op == OP_END_ROUND:
                self._end_round()
                return
            elif not self._run_op(op, seat, arg):
                return

    def _run_op(self, op: int, seat: int, arg: int) -> bool:
        """Run an operation beyond the common ones; return True to keep running operations."""
        return self.edition.run_op(self, op, seat, arg)

    def ask(self, phase: int, seat: int) -> None:
        """Ask ``seat`` the decision of ``phase``."""
        self.phase = phase
        self.actor = seat

    # ------------------------------------------------------------------ scoring

    def team_seats(self, seat: int) -> tuple[int, ...]:
        """The seats of ``seat``'s team (house rule ``teams``), or ``seat`` alone without teams."""
        teams = self.teams
        return tuple(s for s in range(self.n) if teams[s] == teams[seat]) if teams else (seat,)

    @property
    def winning_team(self) -> int:
        """The team of the match winner (house rule ``teams``); -1 without teams or before the end."""
        return self.teams[self.winner] if self.teams and self.winner >= 0 else -1

    def seats_in(self) -> tuple[int, ...]:
        """The seats taking part in the round, in seat order (all but the ``knocked`` ones)."""
        return self._all_seats

    def _end_round(self) -> None:
        n = self.n
        playing = self.seats_in()
        points = self._round_points()
        blocked = self.stalls >= self.players_in
        winner = self._lowest_hand(playing, points) if blocked else self._round_winner(playing)
        for seat in playing:
            self.events.append(("hand", seat, points[seat], tuple(sorted(self.hands[seat]))))
        method = self.scoring
        gained = 0
        teams = self.teams
        if teams:
            gained = self._score_teams(method, winner, points)
        elif method == "winner-collects":
            gained = sum(points) - points[winner]  # (house rule mercy: the last one left holds cards)
            self.scores[winner] += gained
        elif method == "running-tally":
            for seat in range(n):
                self.scores[seat] += points[seat]
        self.events.append(("round_end", winner, gained, tuple(self.scores)))
        if teams:
            self.events.append(("team_win", winner, teams[winner], self.team_seats(winner)))
        if method == "knockout":
            self._knock_out(winner, points)
        self.edition.end_round(self)
        self.exposed = []
        self.window_armed = False
        self.ops = []
        self.drawn = -1
        match_winner = -1
        if method == "single-round":
            match_winner = winner
        elif method == "knockout":
            if len({teams[s] if teams else s for s in range(n) if s not in self.knocked}) == 1:
                match_winner = winner
        elif method == "winner-collects":
            if self.scores[winner] >= self.rules.target_score:
                match_winner = winner
        elif max(self.scores) >= self.rules.target_score:
            lowest = min(self.scores)
            leaders = [s for s in range(n) if self.scores[s] == lowest]
            if len(leaders) == 1:
                match_winner = leaders[0]
            elif teams and len({teams[s] for s in leaders}) == 1:
                # partners share a score: the team wins, named by the round's winner if in it
                match_winner = winner if winner in leaders else leaders[0]
        if match_winner >= 0:
            self.winner = match_winner
            self.phase = OVER
            self.actor = -1
            self.turn = -1
            self.events.append(("match_end", match_winner, self.round, tuple(self.scores)))
            self._add_round_result()
            return
        self._add_round_result()
        self._start_round(self._next_dealer(), None)

    def _add_round_result(self) -> None:
        """Add the round just ended to :attr:`round_results`, read from its events."""
        events = self.events
        start = len(events) - 1
        while start > 0 and events[start][0] != "dealer":
            start -= 1
        result = round_result(events[start:], self.edition)
        if not events or events[start][0] != "dealer":  # a round loaded from a position (unokit.engine.positions)
            result = dataclasses.replace(result, round=self.round)
        self.round_results = (*self.round_results, result)

    def _next_dealer(self) -> int:
        """The next round's dealer: the player to the dealer's left."""
        return self.left_of(self.dealer)

    def _round_winner(self, playing: tuple[int, ...]) -> int:
        """The round's winner: the player in the round who has no cards left."""
        return next(s for s in playing if not self.hands[s])

    def _lowest_hand(self, playing: tuple[int, ...], points: list[int]) -> int:
        """The winner of a blocked round: the fewest points in hand, then the fewest cards, then the
        first in play order from the player after the one whose turn it is."""
        n = self.n
        order = [seat for step in range(1, n + 1) if (seat := (self.turn + self.direction * step) % n) in playing]
        return min(order, key=lambda seat: (points[seat], len(self.hands[seat])))

    def _round_points(self) -> list[int]:
        """The points of each seat's cards at the round's end."""
        return [self.edition.hand_points(h) for h in self.hands]

    def _cards_held(self, seat: int) -> int:
        """The cards ``seat`` holds at the round's end (for knockout scoring)."""
        return len(self.hands[seat])

    def _score_teams(self, method: str, winner: int, points: list[int]) -> int:
        """Team scoring (house rule ``teams``): winner-collects: the winning team scores the other
        team's hands, every partner alike; running-tally: each seat adds its team's hands.  Returns
        the points won."""
        teams = self.teams
        scores = self.scores
        side = teams[winner]
        if method == "winner-collects":
            gained = sum(p for seat, p in enumerate(points) if teams[seat] != side)
            for seat in range(self.n):
                if teams[seat] == side:
                    scores[seat] += gained
            return gained
        if method == "running-tally":
            totals = [0, 0]
            for seat, p in enumerate(points):
                totals[teams[seat]] += p
            for seat in range(self.n):
                scores[seat] += totals[teams[seat]]
        return 0

    def _knock_out(self, winner: int, points: list[int]) -> None:
        """Knockout scoring: the player on the losing side with the most cards leaves the match
        (ties: the most points; still tied: all of them); event ``knockout`` each."""
        knocked = self.knocked
        teams = bool(self.teams)
        held = self._cards_held
        rivals = [s for s in range(self.n) if s not in knocked and not same_side(s, winner, teams)]
        most = max((held(s), points[s]) for s in rivals)
        leavers = [s for s in rivals if (held(s), points[s]) == most]
        for seat in leavers:
            self.events.append(("knockout", seat, held(seat), ()))
        self.knocked = tuple(sorted((*knocked, *leavers)))
        self.players_in = self.n - len(self.knocked)

    # ------------------------------------------------------------------ copies, equality, views

    def clone(self) -> Game:
        """An independent copy, random generator included."""
        other = object.__new__(type(self))
        for name in Game.__slots__:
            setattr(other, name, getattr(self, name))
        if type(self) is not Game:  # a subclass's own attributes (HouseGame's)
            other.__dict__.update(self.__dict__)
        if type(self.rng) is random.Random:
            other.rng = random.Random()
            other.rng.setstate(self.rng.getstate())
        else:  # a scripted generator (:mod:`unokit.engine.scripted`)
            other.rng = copy.copy(self.rng)
        other.events = list(self.events)
        # the views' redacted logs are shared until one of the two games adds to them (views.py)
        logs = {
            seat: (source, log, True) for seat, (source, log, _) in self.redacted_logs.items() if source is self.events
        }
        self.redacted_logs = logs
        other.redacted_logs = {seat: (other.events, log, True) for seat, (_, log, _) in logs.items()}
        other.history = list(self.history)
        other.scores = list(self.scores)
        other.hands = [list(h) for h in self.hands]
        other.draw_pile = list(self.draw_pile)
        other.discard_pile = list(self.discard_pile)
        other.exposed = list(self.exposed)
        other.ops = list(self.ops)
        other.turn_skips = list(self.turn_skips)
        other.extra = self.edition.copy_extra(self.extra)
        return other

    def state_key(self) -> tuple[Any, ...]:
        """Everything that defines the state, for comparisons."""
        return (
            self.edition.name,
            self.rules,
            self.n,
            self.round,
            self.dealer,
            self.direction,
            self.turn,
            self.actor,
            self.phase,
            self.colour,
            tuple(tuple(h) for h in self.hands),
            tuple(self.draw_pile),
            tuple(self.discard_pile),
            tuple(self.exposed),
            self.window_armed,
            tuple(self.ops),
            self.drawn,
            self.bluffer,
            self.bluff,
            self.bluff_colour,
            self.discards_left,
            self.target_kind,
            tuple(self.scores),
            self.winner,
            tuple(self.turn_skips),
            self.stalls,
            repr(sorted(self.extra.items())),
            self.rng.getstate(),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.state_key() == other.state_key() and self.events == other.events

    __hash__ = None  # type: ignore[assignment]

    def house_state(self) -> dict[str, Any]:
        """The house rules' public state (none without house rules; see :mod:`unokit.editions.house`)."""
        return {}

    def restore_house_state(self, state: dict[str, Any]) -> None:
        """Set the house state of a sampled game from :meth:`house_state` (nothing to set here)."""

    def all_cards(self) -> Counter[int]:
        """Every card in hands, piles and edition-specific places (for conservation checks)."""
        counts: Counter[int] = Counter(self.draw_pile)
        counts.update(self.discard_pile)
        for hand in self.hands:
            counts.update(hand)
        return counts

    def position(self, *, generator: bool = True) -> str:
        """The whole state as one line of text (see :mod:`unokit.engine.positions` and docs/positions.md):
        :meth:`from_position` loads a game that goes on exactly as this one.  With ``generator`` false
        the generator is written as "random from the seed" instead of its exact state."""
        from unokit.engine.positions import position

        return position(self, generator=generator)

    @classmethod
    def from_position(cls, text: str) -> Game:
        """The game of a full position (a :class:`~unokit.editions.house.HouseGame` when house rules are
        on): its events and history start empty.  Refuses with
        :class:`~unokit.engine.positions.PositionError`, naming the field that is wrong.  The game
        keeps ``text`` as the position it started from (:attr:`start_position`: its record starts there)."""
        from unokit.engine.positions import from_position

        game = from_position(text)
        game.start_position = text
        return game

    def view(self, seat: int | None) -> Any:
        """What ``seat`` may see (``None``: a spectator).  See :mod:`unokit.engine.views`."""
        return build_view(self, seat)

    def format_action(self, action: int) -> str:
        """The notation of an action id."""
        return self.actions.format(action)

    def parse_action(self, text: str) -> int:
        """The action id of notation ``text``."""
        return self.actions.parse(text)


_HOUSE_GAME: type[Game] | None = None
"""The class that plays the house rules (:class:`~unokit.editions.house.HouseGame`), once registered."""


def register_house_game(cls: type[Game]) -> None:
    """Make ``cls`` the game of every match with a house rule on (``Game(...)`` returns one)."""
    global _HOUSE_GAME
    _HOUSE_GAME = cls
