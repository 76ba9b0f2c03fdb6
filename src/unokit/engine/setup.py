"""Setting up a game by hand: uneven hands, a given top card, whose decision and which.

:func:`set_up` builds the game a player, a puzzle or a test describes, without dealing a round:

>>> game = set_up("classic", 3, hands={0: "R5 G7 W+4", 1: 2}, top="R3", turn=0)
>>> game.phase_name, [len(hand) for hand in game.hands], card_name(game.top_card)
('turn', [3, 2, 7], 'R3')
>>> game = set_up("classic", 2, hands={0: "B2 R1", 1: "G5 ?"}, discards=["R9"], phase="challenge", turn=1, colour="G")
>>> game.phase_name, game.actor, game.bluffer, game.colour == parse_colour("green")
('challenge', 1, 0, True)
>>> game.bluff  # seat 0 held red (R1) when it played the Wild Draw Four on R9
True

A hand is a number of cards dealt at random, or cards by name (a string of names separated by
spaces or commas, or a list), where ``?`` stands for one card dealt at random and ``?N`` for N of
them ("partial hands": the rest dealt from the seed).  A hand not given holds the rules' hand
size, dealt at random.  Every card not placed is in the draw pile, shuffled from ``seed`` (the
cards named in ``draw`` on top, the first on top).

Every state but a plain turn is reached the way play reaches it: the set-up builds the turn
before, and the engine plays the last actions into it (so the state is exactly what the engine
would have reached by playing; the game's events tell those actions).  The phases:

``turn`` (the default)
    ``turn`` is to play or draw on ``top`` (a wild top card: in ``colour``).  With ``uncalled``:
    that seat has just played ``top`` as its next-to-last card without calling UNO (it holds one
    card and may be caught); the play must leave ``turn`` to play.
``drawn``
    ``turn`` has just drawn ``drawn`` (one of its cards; added to the cards given for its hand
    unless they hold it), which can be played.
``colour``
    ``turn`` has just played the wild ``top`` and names the colour.
``challenge``
    the seat before ``turn`` has played a Wild Draw Four on a card of colour ``before`` and named
    ``colour``; ``turn`` is to challenge it or accept (a bluff if the player's hand holds
    ``before``).
``stack`` (house rule ``stacking``)
    the seats before ``turn`` have played the draw cards ``stack`` in turn (the first by the seat
    ``len(stack)`` places before ``turn``, each wild one naming ``colour``); ``turn`` is to answer.
Wild Jackpot's lever (``lever``, an outcome from 1 to 6)
    ``turn`` has just played ``top`` (by default a Jackpot) and the lever gave ``lever``; the state
    is the one its outcome leads to (``phase``, when given, must be it).  ``rule_cards``: the texts
    of the rule cards, dispensed in the order given.

The card under the last card played (or under ``top``) is ``discards[-1]`` when ``discards`` is
given, else a card drawn at random on which the first of those actions is legal.  Every error is a
:class:`SetupFieldError` that names the field (``hands[2]``, ``top``, ``phase``, ...) and, for a card,
the card: "hands[0]: UNO All Wild has no card R5".
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from unokit.engine.cards import (
    CARD_COLOUR,
    CARD_IS_WILD,
    CARD_KIND,
    COLOUR_LETTERS,
    NO_COLOUR,
    WILD_DRAW_FOUR,
    Kind,
    card_name,
    parse_card,
    parse_colour,
)
from unokit.engine.edition import Edition, get_edition
from unokit.engine.errors import SetupError, UnoError
from unokit.engine.game import Game, shuffle_cards
from unokit.engine.phases import HOUSE_PHASE_NAMES, TURN
from unokit.engine.rules import Rules

__all__ = ["HandSpec", "SetupFieldError", "set_up"]

HandSpec = int | str | Sequence[int | str]
"""A hand: a number of random cards, or card names with ``?`` / ``?N`` for random ones."""


class SetupFieldError(SetupError):
    """A set-up that cannot be played; :attr:`field` names the argument that is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class _ForcedLever:
    """The game's generator, but the lever's next pull gives ``outcome`` (everything else is the
    generator's own)."""

    def __init__(self, rng: random.Random, outcome: int) -> None:
        self.rng = rng
        self.outcome = outcome

    def choices(self, population: Sequence[Any], weights: Sequence[float] | None = None, *, k: int = 1) -> list[Any]:
        if self.outcome and k == 1:
            outcome, self.outcome = self.outcome, 0
            return [outcome]
        return self.rng.choices(population, weights, k=k)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rng, name)


def set_up(
    edition: str | Edition = "classic",
    players: int = 4,
    *,
    hands: Mapping[int, HandSpec] | Sequence[HandSpec] | None = None,
    top: str | None = None,
    colour: str | None = None,
    turn: int = 0,
    direction: int = 1,
    phase: str | None = None,
    scores: Sequence[int] | None = None,
    round: int = 1,
    dealer: int | None = None,
    rules: Rules | dict[str, Any] | None = None,
    seed: int = 0,
    drawn: str | None = None,
    discards: Sequence[str] = (),
    draw: Sequence[str] = (),
    before: str | None = None,
    uncalled: int | None = None,
    stack: Sequence[str] = (),
    lever: int | None = None,
    rule_cards: Sequence[str] | None = None,
) -> Game:
    """A game of ``edition`` at ``players`` seats in the state described (see the module's docstring).

    ``turn``: the seat to decide (Wild Jackpot's lever: the seat that pulled it); ``direction``: 1
    (clockwise) or -1; ``scores``, ``round`` and ``dealer`` (by default the seat before ``turn``): the
    match so far; ``colour``: the colour in play (a wild top card: by default one at random);
    ``before``: the colour in play before the Wild Draw Four of phase ``challenge`` (or under a wild
    ``top``; by default one at random).  Refuses with :class:`SetupFieldError`."""
    try:
        ed = edition if isinstance(edition, Edition) else get_edition(edition)
    except UnoError as exc:
        raise SetupFieldError("edition", str(exc)) from None
    try:
        if isinstance(rules, dict):
            rules = Rules.from_dict(rules)
        elif rules is not None and not isinstance(rules, Rules):
            raise SetupError("rules must be a Rules object or a mapping of options")
    except UnoError as exc:
        raise SetupFieldError("rules", str(exc)) from None
    try:
        game = Game.blank(ed, players, _integer("seed", seed), rules)
    except SetupFieldError:
        raise
    except UnoError as exc:
        raise SetupFieldError("players", str(exc)) from None
    return _Setup(game).build(
        hands=hands,
        top=top,
        colour=colour,
        turn=turn,
        direction=direction,
        phase=phase,
        scores=scores,
        round_=round,
        dealer=dealer,
        drawn=drawn,
        discards=discards,
        draw=draw,
        before=before,
        uncalled=uncalled,
        stack=stack,
        lever=lever,
        rule_cards=rule_cards,
    )


def _integer(field: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SetupFieldError(field, f"must be an integer, not {value!r}")
    return value


class _Setup:
    """The cards of the deck handed out as the set-up asks, and the state built from them."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.edition = game.edition
        self.deck = Counter(game.deck_cards)
        self.left = Counter(game.deck_cards)
        """Cards not placed yet."""
        self.rng = random.Random(f"unokit-setup/{game.seed}")
        """Deals the cards left at random (the game's own generator stays as a new game's)."""

    # ------------------------------------------------------------ cards

    def card(self, field: str, text: Any) -> int:
        """Card ``text`` taken out of the deck (refused if the deck has no such card, or no copy left)."""
        card = self.parse(field, text)
        if not self.left[card]:
            raise SetupFieldError(
                field, f"{card_name(card)} is given more times than the deck holds it ({self.deck[card]})"
            )
        self.left[card] -= 1
        return card

    def parse(self, field: str, text: Any) -> int:
        """Card ``text``, one of the edition's deck (not taken out of it)."""
        if not isinstance(text, str):
            raise SetupFieldError(field, f"a card is written by name, not {text!r}")
        try:
            card = parse_card(text)
        except UnoError:
            raise SetupFieldError(field, f"{text!r} is not a card") from None
        if not self.deck[card]:
            raise SetupFieldError(field, f"{self.edition.title} has no card {card_name(card)}")
        return card

    def random_cards(self, field: str, count: int, fits: Any = None) -> list[int]:
        """``count`` cards drawn at random from those left (only cards ``fits`` accepts, if given)."""
        pool = sorted(c for c in self.left.elements() if fits is None or fits(c))
        if len(pool) < count:
            placed = sum(self.deck.values()) - sum(self.left.values())
            raise SetupFieldError(
                field,
                f"too many cards: {placed} placed and {count} more asked, of a deck of {sum(self.deck.values())}"
                if fits is None
                else "no card left that fits",
            )
        self.rng.shuffle(pool)
        chosen = pool[:count]
        for card in chosen:
            self.left[card] -= 1
        return chosen

    def hand(self, field: str, spec: Any) -> tuple[list[int], int]:
        """The cards named by hand ``spec`` and how many more to deal at random."""
        if isinstance(spec, int) and not isinstance(spec, bool):
            if spec < 0:
                raise SetupFieldError(field, f"a hand holds 0 cards or more, not {spec}")
            return [], spec
        if isinstance(spec, str):
            tokens: Sequence[Any] = spec.replace(",", " ").split()
        elif isinstance(spec, Sequence):
            tokens = spec
        else:
            raise SetupFieldError(field, f"a hand is a number of cards or card names, not {spec!r}")
        cards: list[int] = []
        extra = 0
        for token in tokens:
            if isinstance(token, int) and not isinstance(token, bool) and token >= 0:
                extra += token
            elif isinstance(token, str) and token.startswith("?"):
                count = token[1:] or "1"
                if not count.isdigit():
                    raise SetupFieldError(field, f"{token!r}: '?' or '?N' stands for cards dealt at random")
                extra += int(count)
            else:
                cards.append(self.card(field, token))
        return cards, extra

    def colour(self, field: str, text: str | None) -> int:
        """The colour named ``text`` (one of the edition's); ``None``: one at random."""
        if not self.edition.colours_matter:
            if text is not None:
                raise SetupFieldError(field, f"{self.edition.title} has no colours")
            return NO_COLOUR
        if text is None:
            return self.rng.choice(self.edition.colours)
        try:
            colour = parse_colour(text)
        except UnoError:
            raise SetupFieldError(field, f"{text!r} is not a colour") from None
        if colour not in self.edition.colours:
            raise SetupFieldError(field, f"{self.edition.title} has no colour {text!r}")
        return colour

    # ------------------------------------------------------------ the state

    def seat(self, field: str, value: Any) -> int:
        seat = _integer(field, value)
        if not 0 <= seat < self.game.n:
            raise SetupFieldError(field, f"no seat {seat} at a table of {self.game.n} (seats 0 to {self.game.n - 1})")
        return seat

    def build(
        self,
        *,
        hands: Mapping[int, HandSpec] | Sequence[HandSpec] | None,
        top: str | None,
        colour: str | None,
        turn: int,
        direction: int,
        phase: str | None,
        scores: Sequence[int] | None,
        round_: int,
        dealer: int | None,
        drawn: str | None,
        discards: Sequence[str],
        draw: Sequence[str],
        before: str | None,
        uncalled: int | None,
        stack: Sequence[str],
        lever: int | None,
        rule_cards: Sequence[str] | None,
    ) -> Game:
        game = self.game
        ed = self.edition
        n = game.n
        turn = self.seat("turn", turn)
        if direction not in (1, -1) or isinstance(direction, bool):
            raise SetupFieldError("direction", f"must be 1 (clockwise) or -1, not {direction!r}")
        wanted = self.phase(phase)
        if lever is not None:
            kind = "lever"
        elif wanted is not None:
            kind = wanted
        else:
            kind = "drawn" if drawn is not None else "stack" if stack else "turn"
        if drawn is not None and kind != "drawn":
            raise SetupFieldError("drawn", f"a card just drawn belongs to phase 'drawn', not {kind!r}")
        if stack and kind != "stack":
            raise SetupFieldError("stack", f"a stack of draw cards belongs to phase 'stack', not {kind!r}")
        if uncalled is not None and kind != "turn":
            raise SetupFieldError("uncalled", f"a missing UNO call is set up in phase 'turn', not {kind!r}")
        if kind not in ("turn", "drawn", "colour", "challenge", "stack", "lever"):
            raise SetupFieldError(
                "phase",
                f"phase {kind!r} is not set up by hand; set up the turn before it and play into it "
                "(phases set up: turn, drawn, colour, challenge, stack, and Wild Jackpot's lever outcomes)",
            )
        # the hands as they are to be after the last actions
        specs = self.hand_specs(hands)
        given: list[list[int]] = []
        extra: list[int] = []
        for seat in range(n):
            if seat in specs:
                cards, more = self.hand(f"hands[{seat}]", specs[seat])
            elif seat == uncalled:
                cards, more = [], 1
            else:
                cards, more = [], game.rules.hand_size
            given.append(cards)
            extra.append(more)
        # the last actions played into the state, by whom, from which seat's turn
        plays: list[str] = []
        played: list[tuple[int, int]] = []  # (seat, card) taken from that seat's hand
        first = turn
        drawn_card = -1
        reverses = False
        if kind == "turn" and uncalled is not None:
            first = self.seat("uncalled", uncalled)
            card = self.card("top", top) if top is not None else self.random_cards("top", 1, _not_wild)[0]
            if CARD_KIND[card] in ed.draw_values:
                raise SetupFieldError(
                    "top", f"{card_name(card)} deals cards to another hand: set up the state after it"
                )
            played.append((first, card))
            plays.append(card_name(card))
            reverses = CARD_KIND[card] == ed.reverse_kind
            if CARD_IS_WILD[card] and ed.colours_matter:
                plays.append("=" + COLOUR_LETTERS[self.colour("colour", colour)])
        elif kind == "drawn":
            drawn_card = self.parse("drawn", drawn)
            if drawn_card in given[turn]:  # the copy named in the hand is the one drawn
                given[turn].remove(drawn_card)
            else:
                self.card("drawn", drawn)
                if extra[turn] and isinstance(specs.get(turn), int):  # a hand of N cards counts it
                    extra[turn] -= 1
            plays.append("draw")
        elif kind == "colour":
            card = self.card("top", top) if top is not None else self.random_cards("top", 1, _wild)[0]
            if not _wild(card) or not ed.colours_matter:
                raise SetupFieldError(
                    "top", f"{card_name(card)} asks for no colour at once in {ed.title} (W or W+4 do)"
                )
            played.append((turn, card))
            plays.append(card_name(card))
        elif kind == "challenge":
            if ed.wild_draw_four_kind < 0 or not game.rules.allow_bluff:
                raise SetupFieldError("phase", f"no Wild Draw Four is challenged in {ed.title} under these rules")
            first = (turn - direction) % n
            card = self.card("top", top if top is not None else "W+4")
            if card != WILD_DRAW_FOUR:
                raise SetupFieldError("top", f"phase 'challenge' answers a Wild Draw Four, not {card_name(card)}")
            played.append((first, card))
            plays += [card_name(card), "=" + COLOUR_LETTERS[self.colour("colour", colour)]]
        elif kind == "stack":
            first = (turn - direction * len(stack)) % n
            for index, text in enumerate(stack):
                card = self.card(f"stack[{index}]", text)
                if CARD_KIND[card] not in ed.draw_values:
                    raise SetupFieldError(f"stack[{index}]", f"{card_name(card)} is not a draw card of {ed.title}")
                played.append(((first + direction * index) % n, card))
                plays.append(card_name(card))
                if CARD_IS_WILD[card] and ed.colours_matter:
                    plays.append("=" + COLOUR_LETTERS[self.colour("colour", colour)])
        elif kind == "lever":
            if ed.name != "wild-jackpot":
                raise SetupFieldError("lever", f"{ed.title} has no lever")
            outcome = _integer("lever", lever)
            weights = game.rules.lever_weights
            if not 1 <= outcome <= len(weights) or not weights[outcome - 1]:
                raise SetupFieldError("lever", f"outcome {outcome} cannot come up (lever_weights {list(weights)})")
            if top is None:
                card = self.random_cards("top", 1, lambda c: CARD_KIND[c] == Kind.JACKPOT)[0]
            else:
                card = self.card("top", top)
            if CARD_KIND[card] not in (Kind.JACKPOT, Kind.WILD_JACKPOT):
                raise SetupFieldError("top", f"{card_name(card)} pulls no lever")
            played.append((turn, card))
            plays.append(card_name(card))
        for seat, card in played:
            given[seat].append(card)
        # the discard pile before the last actions
        pile = [self.card(f"discards[{index}]", text) for index, text in enumerate(discards)]
        colour_now = NO_COLOUR
        if not played:
            if top is not None:
                pile.append(self.card("top", top))
            elif not pile:
                pile += self.random_cards("top", 1, _not_wild if ed.colours_matter else None)
            top_card = pile[-1]
            if not ed.colours_matter:
                if colour is not None:
                    raise SetupFieldError("colour", f"{ed.title} has no colours")
            elif CARD_IS_WILD[top_card]:
                colour_now = self.colour("colour", colour)
            else:
                colour_now = CARD_COLOUR[top_card]
                if colour is not None and self.colour("colour", colour) != colour_now:
                    raise SetupFieldError("colour", f"the top card {card_name(top_card)} is in play in its own colour")
        else:
            colour_now = self.under(pile, played[0][1], before)
        on_top = [self.card(f"draw[{index}]", text) for index, text in enumerate(draw)]
        if drawn_card >= 0:
            on_top.insert(0, drawn_card)
        for seat in range(n):
            given[seat] += self.random_cards(f"hands[{seat}]", extra[seat])
        rest = sorted(self.left.elements())
        # the turn before the last actions
        if ed.name == "wild-jackpot" or rule_cards is not None:
            self.rule_cards(rule_cards)
        game.round = _integer("round", round_)
        if game.round < 1:
            raise SetupFieldError("round", f"rounds are numbered from 1, not {game.round}")
        game.dealer = self.seat("dealer", dealer) if dealer is not None else (first - direction) % n
        game.direction = -direction if reverses else direction  # (the play turns it back)
        game.turn = game.actor = first
        game.phase = TURN
        game.colour = colour_now
        game.scores = self.scores(scores)
        game.hands = given
        game.discard_pile = pile
        shuffle_cards(self.rng, rest)
        game.draw_pile = rest + on_top[::-1]
        game.events = [("dealer", game.dealer, game.round, ())]
        game.events += [("deal", seat, len(hand), tuple(hand)) for seat, hand in enumerate(given)]
        game.events += [("flip", -1, 0, (card,)) for card in pile]
        game._legal = None
        self.play(plays, lever)
        self.check(kind, wanted, turn, lever, uncalled)
        game.history = []
        _keep_start(game)
        return game

    def under(self, pile: list[int], first: int, before: str | None) -> int:
        """Complete the discard pile under the first card played into the state (a card it may be
        played on); returns the colour in play on it."""
        if not self.edition.colours_matter:
            if before is not None:
                raise SetupFieldError("before", f"{self.edition.title} has no colours")
            if not pile:
                pile += self.random_cards("discards", 1)
            return NO_COLOUR
        if pile and not CARD_IS_WILD[pile[-1]]:
            colour = CARD_COLOUR[pile[-1]]
            if before is not None and self.colour("before", before) != colour:
                raise SetupFieldError("before", f"the card under, {card_name(pile[-1])}, is in play in its own colour")
        elif CARD_IS_WILD[first] or pile:
            colour = self.colour("before", before)
        else:
            colour = CARD_COLOUR[first]
            if before is not None and self.colour("before", before) != colour:
                raise SetupFieldError("before", f"{card_name(first)} is played on its own colour")
        if not pile:
            pile += self.random_cards("discards", 1, lambda c: not CARD_IS_WILD[c] and CARD_COLOUR[c] == colour)
        elif not CARD_IS_WILD[first] and CARD_COLOUR[first] != colour and CARD_KIND[first] != CARD_KIND[pile[-1]]:
            raise SetupFieldError("discards", f"{card_name(first)} cannot be played on {card_name(pile[-1])}")
        return colour

    def phase(self, phase: str | None) -> str | None:
        """``phase`` checked against those the edition and rules have."""
        if phase is None:
            return None
        game = self.game
        ed = self.edition
        names = ["turn", "drawn", "colour", "challenge"] if ed.colours_matter else ["turn", "drawn"]
        if Kind.WILD_JAM in ed.faces or type(ed).run_op is not Edition.run_op:
            names.append("discard")  # Space Jam's Slam, Wild Jackpot's rule cards
        if type(ed).on_target is not Edition.on_target:
            names.append("target")
        names += ed.phase_names
        house = getattr(game, "draw_values", None), getattr(game, "multi", "off")
        if house[0]:
            names.append(HOUSE_PHASE_NAMES[0])
        if house[1] != "off":
            names.append(HOUSE_PHASE_NAMES[1])
        if "challenge" in names and (ed.wild_draw_four_kind < 0 or not game.rules.allow_bluff):
            names.remove("challenge")
        if phase not in names:
            raise SetupFieldError(
                "phase",
                f"{self.edition.title} has no phase {phase!r} under these rules; its phases: {', '.join(names)}",
            )
        return phase

    def hand_specs(self, hands: Mapping[int, HandSpec] | Sequence[HandSpec] | None) -> dict[int, HandSpec]:
        if hands is None:
            return {}
        if isinstance(hands, Mapping):
            for seat in hands:
                self.seat(f"hands[{seat!r}]", seat)
            return dict(hands)
        if isinstance(hands, str) or not isinstance(hands, Sequence):
            raise SetupFieldError("hands", "give hands by seat: a mapping or a list")
        if len(hands) > self.game.n:
            raise SetupFieldError("hands", f"{len(hands)} hands for a table of {self.game.n}")
        return dict(enumerate(hands))

    def scores(self, scores: Sequence[int] | None) -> list[int]:
        n = self.game.n
        if scores is None:
            return [0] * n
        if isinstance(scores, str) or not isinstance(scores, Sequence) or len(scores) != n:
            raise SetupFieldError("scores", f"one score per seat ({n})")
        values = [_integer(f"scores[{seat}]", score) for seat, score in enumerate(scores)]
        if any(score < 0 for score in values):
            raise SetupFieldError("scores", "scores are 0 or more")
        return values

    def rule_cards(self, texts: Sequence[str] | None) -> None:
        """Wild Jackpot's rule cards: ``texts`` dispensed in the order given, or the edition's own."""
        game = self.game
        if texts is not None and (isinstance(texts, str) or not isinstance(texts, Sequence)):
            raise SetupFieldError("rule_cards", "must be a list of texts")
        rng, game.rng = game.rng, self.rng  # the dispenser is shuffled with the cards dealt
        try:
            self.edition.setup(game, list(texts) if texts is not None else None)
        except UnoError as exc:
            raise SetupFieldError("rule_cards", str(exc)) from None
        finally:
            game.rng = rng
        if texts is not None:
            game.extra["dispenser"] = list(range(len(texts)))[::-1]

    def play(self, plays: list[str], lever: int | None) -> None:
        """Play ``plays`` into the state, each by the seat deciding."""
        game = self.game
        rng = game.rng
        if lever is not None:
            game.rng = _ForcedLever(rng, lever)  # type: ignore[assignment]
        try:
            for text in plays:
                game.apply_notation(game.actor, text)
        except UnoError as exc:
            raise SetupFieldError("phase", f"the play into the state set up is not legal: {exc}") from None
        finally:
            game.rng = rng

    def check(self, kind: str, wanted: str | None, turn: int, lever: int | None, uncalled: int | None) -> None:
        """Refuse a state other than the one asked for."""
        game = self.game
        if game.is_over:
            raise SetupFieldError("phase", "the state set up ends the match")
        if kind == "drawn" and game.phase_name != "drawn":
            raise SetupFieldError("drawn", f"{card_name(game.hands[turn][-1])} cannot be played: no such state")
        expected = wanted or (None if kind == "lever" else kind)
        if expected is not None and game.phase_name != expected:
            raise SetupFieldError(
                "phase", f"the state set up is seat {game.actor}'s {game.phase_name!r}, not {expected!r}"
            )
        if lever is None and game.actor != turn:
            raise SetupFieldError("turn", f"the state set up asks seat {game.actor}, not seat {turn}")
        if uncalled is not None and uncalled not in game.exposed:
            raise SetupFieldError("uncalled", f"seat {uncalled} cannot be caught: nobody calls UNO under these rules")
        limit = getattr(game, "mercy_limit", 0)
        for seat, hand in enumerate(game.hands):
            if limit and len(hand) >= limit:
                raise SetupFieldError(
                    f"hands[{seat}]", f"{len(hand)} cards: Mercy puts a hand of {limit} or more out of the round"
                )


def _wild(card: int) -> bool:
    return bool(CARD_IS_WILD[card]) and CARD_KIND[card] in (Kind.WILD, Kind.WILD_DRAW_FOUR)


def _not_wild(card: int) -> bool:
    return not CARD_IS_WILD[card]


def _keep_start(game: Game) -> None:
    """Remember the position the game starts from (:func:`unokit.engine.record.to_record` writes it):
    its generator as "random from the seed" while it has drawn nothing (the same state, in a word)."""
    fresh = game.rng.getstate() == random.Random(game.seed).getstate()
    game.start_position = game.position(generator=not fresh)
