"""UNO Wild Jackpot: Jackpot cards, the Wild Jackpot lever and Customizable Rule cards.

The edition is the classic base plus data (the deck, the points) and hooks:

* a Jackpot (playable on its colour or on another Jackpot) or Wild Jackpot (playable
  on any turn) pulls the lever: a chance event with six outcomes, weighted by
  ``Rules.lever_weights``;
* the rule cards live outside the main deck, in the unit's dispenser and the pile of
  used cards behind it; each is read by :mod:`unokit.editions.rulecards` as an enforced effect
  or an honour task, and performing one runs small operations on the game;
* every choice inside a lever outcome or a rule is the performer's decision.

Rule cards are numbered by their position in ``game.extra["texts"]``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from unokit.editions import rulecards as rc
from unokit.editions.classic import Classic
from unokit.engine.actions import ActionSpace, ActionType
from unokit.engine.cards import CARD_COLOUR, CARD_IS_WILD, CARD_KIND, Kind, make_card, wild
from unokit.engine.edition import CLASSIC_COLOURS, Unseen
from unokit.engine.errors import SetupError
from unokit.engine.phases import OP_COLOUR, OP_DISCARD, OP_END_ROUND, TARGET
from unokit.engine.rules import LEVER_OUTCOMES
from unokit.i18n import english

if TYPE_CHECKING:
    from unokit.engine.game import Game

# Phases of this edition (numbered from phases.EDITION_PHASES).
RULE_RUN = 7  # the performer plays as many cards in a row as they can
LEVER_DISCARD = 8  # the puller discards up to one card of each colour
HONOUR = 9  # the performer carries out an honour task and confirms
GIVE = 10  # the performer gives cards of their choice

# Operations of this edition (numbered from game.EDITION_OPS).
OP_LEVER = 20  # seat pulls the lever
OP_LEVER_END = 21  # the lever's action is complete: the next player plays
OP_START_RULE = 22  # start card: seat chooses who performs a rule card
OP_PERFORM = 23  # seat performs rule card arg
OP_RETIRE = 24  # rule card arg goes to the used pile
OP_RUN = 25  # seat plays as many cards in a row as they can
OP_GIVE = 26  # seat gives arg cards to extra["give_to"]
OP_LEVER_DISCARD = 27  # seat may discard one card of a colour not yet discarded
OP_HONOUR = 28  # seat carries out honour task arg
OP_RULE_TARGET = 29  # seat chooses the target of rule card arg (if there is a choice)

# What a TARGET decision is for (game.target_kind).
TARGET_PERFORMER = 100  # who performs the next rule card (lever outcome 1, start card)
TARGET_OF_RULE = 101  # the player a rule's give / take / swap applies to

NUMBER_CARDS_PER_COLOUR: dict[int, int] = {0: 1, 1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 1, 7: 1, 8: 1, 9: 1}
"""15 number cards per colour, 0 to 9 (see docs/rules.md for why this spread)."""


def jackpot_deck() -> tuple[tuple[int, int], ...]:
    """The 108 cards: per colour 15 numbers, 2 Draw Two, 2 Reverse, 2 Skip, 4 Jackpot;
    2 Wild, 4 Wild Draw Four, 2 Wild Jackpot."""
    counts: list[tuple[int, int]] = []
    for colour in CLASSIC_COLOURS:
        counts += [(make_card(colour, number), k) for number, k in NUMBER_CARDS_PER_COLOUR.items()]
        counts += [(make_card(colour, kind), 2) for kind in (Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO)]
        counts.append((make_card(colour, Kind.JACKPOT), 4))
    counts += [(wild(Kind.WILD), 2), (wild(Kind.WILD_DRAW_FOUR), 4), (wild(Kind.WILD_JACKPOT), 2)]
    return tuple(counts)


def rule_cards_per_player(count: int, players: int) -> int:
    """Rule cards each player writes: an equal share of ``count``, at least one."""
    return max(1, count // players)


def suggested_rule_cards(count: int, rng: random.Random) -> list[str]:
    """``count`` rule card texts drawn from the rule sheet's suggestions, shuffled by ``rng``
    (a suggestion repeats only when more cards than suggestions are needed): the cards of the
    players who wrote none.  Each call draws anew from ``rng``: ask once for every such player's
    cards so that they differ.

    >>> cards = suggested_rule_cards(3, random.Random(1))
    >>> len(cards), all(text in rc.SUGGESTIONS for text in cards)
    (3, True)
    """
    pool = list(rc.SUGGESTIONS)
    rng.shuffle(pool)
    return [pool[i % len(pool)] for i in range(count)]


@lru_cache(maxsize=1024)
def _read(text: str) -> rc.RuleCard:
    """Rule card text as read (a text always reads the same: the card is read once, not at each use)."""
    return rc.read_rule(text)


def jackpot_effect(game: Game, seat: int, card: int) -> None:
    game.push(OP_LEVER_END, seat)
    game.push(OP_LEVER, seat)


def wild_jackpot_effect(game: Game, seat: int, card: int) -> None:
    game.push(OP_LEVER_END, seat)
    game.push(OP_COLOUR, seat)  # the colour is named once the lever's action is done
    game.push(OP_LEVER, seat)


class WildJackpot(Classic):
    """UNO Wild Jackpot."""

    name = "wild-jackpot"
    title = "UNO Wild Jackpot"
    summary = english("edition.wild_jackpot.summary")
    composition = jackpot_deck()
    points = {**Classic.points, Kind.JACKPOT: 40, Kind.WILD_JACKPOT: 50}
    effect_table = {**Classic.effect_table, Kind.JACKPOT: jackpot_effect, Kind.WILD_JACKPOT: wild_jackpot_effect}
    event_kinds = Classic.event_kinds | {
        "lever",  # seat pulled the lever; value = outcome 1-6 (LEVER_OUTCOMES)
        "dispense",  # a rule card for seat; value = rule card number (-1: the unit is empty)
        "rule",  # seat performs rule card value
        "rule_reshuffle",  # the used rule cards are shuffled back into the unit; value = how many
        "run_end",  # seat can play no more cards in a row
        "lose_turn",  # seat will lose their next turn
        "done",  # seat finished an honour task or the lever's discards
        "take",  # seat took cards (secret: seat and value) from seat value
        "give",  # seat gave a card (secret: seat and value) to seat value
    }
    phase_names = ("rule-run", "lever-discard", "honour", "give")
    phase_asks = (
        "play as many cards in a row as {they} can",
        "discard up to one card of each colour, or be done",
        "carry out the rule card's task and confirm it is done",
        "give a card of {their} choice",
    )

    def __init__(self) -> None:
        super().__init__()
        self.actions = ActionSpace(self.faces, self.colours, extra=(ActionType.DONE, ActionType.GIVE))

    # ------------------------------------------------------------ positions (unokit.engine.positions)

    target_kinds = frozenset({TARGET_PERFORMER, TARGET_OF_RULE})
    op_names = {
        OP_LEVER: "lever",
        OP_LEVER_END: "lever_end",
        OP_START_RULE: "start_rule",
        OP_PERFORM: "perform",
        OP_RETIRE: "retire",
        OP_RUN: "run",
        OP_GIVE: "give",
        OP_LEVER_DISCARD: "lever_discard",
        OP_HONOUR: "honour",
        OP_RULE_TARGET: "rule_target",
    }
    extra_fields = {
        "texts": "texts",
        "dispenser": "list",
        "used": "list",
        "in_play": "list",
        "shown": "tuple",
        "lever_colours": "int",
        "lever_draw": "int",
        "lever_skip": "int",
        "give_to": "int",
        "give_left": "int",
        "performing": "int",
        "target_rule": "int",
        "target_choices": "tuple",
    }
    """The rule cards' texts (numbered by place), the dispenser (the next card last), the used pile,
    the cards being performed and those shown so far; the lever's pending discards (a bit per colour),
    draw and skip; a gift's receiver and cards left; the card performed; a rule's target choice."""

    def check_extra(self, game: Game, /) -> tuple[str, str] | None:
        extra = game.extra
        texts = extra["texts"]
        if not 1 <= len(texts) <= 100:
            return "texts", "from 1 to 100 rule cards"
        for text in texts:
            try:
                if _read(text).text != text:
                    return "texts", f"{text!r} is not a rule card's text as written (spaces and characters cleaned)"
            except ValueError as error:
                return "texts", str(error)
        placed = [*extra["dispenser"], *extra["used"], *extra["in_play"]]
        if sorted(placed) != list(range(len(texts))):
            return (
                "dispenser",
                f"the dispenser, the used pile and the cards in play hold each rule card 0 to {len(texts) - 1} once",
            )
        shown = extra["shown"]
        if list(shown) != sorted(set(shown)) or not set(extra["used"]) | set(extra["in_play"]) <= set(shown):
            return "shown", "the rule cards shown are distinct, in order, and every one used or in play"
        if not set(shown) <= set(range(len(texts))):
            return "shown", "a rule card shown is not a rule card"
        n = game.n
        checks = (
            ("lever_colours", 0 <= extra["lever_colours"] < 16),
            ("lever_draw", 0 <= extra["lever_draw"] <= 8),
            ("lever_skip", extra["lever_skip"] in (0, 1)),
            ("give_to", -1 <= extra["give_to"] < n),
            ("give_left", 0 <= extra["give_left"] <= 30),
            ("performing", extra["performing"] == -1 or extra["performing"] in extra["in_play"]),
            ("target_rule", extra["target_rule"] == -1 or extra["target_rule"] in extra["in_play"]),
            ("target_choices", all(0 <= s < n for s in extra["target_choices"])),
        )
        for name, ok in checks:
            if not ok:
                return name, f"{extra[name]!r} cannot be"
        if game.phase == GIVE and (extra["give_to"] < 0 or extra["give_left"] < 1):
            return "give_to", "phase give needs a receiver and a card to give"
        return None

    def public_extra(self, state: dict[str, Any]) -> dict[str, Any]:
        shown = dict(state["shown_texts"])
        return {
            "texts": tuple(shown.get(rid) for rid in range(state["rule_card_total"])),
            "dispenser": Unseen(state["dispenser_size"]),
            "used": list(state["used"]),
            "in_play": list(state["in_play"]),
            "shown": tuple(sorted(shown)),
            **{key: state[key] for key in ("lever_colours", "lever_draw", "lever_skip", "give_to", "give_left")},
            "performing": state["performing"],
            "target_rule": state["target_rule"],
            "target_choices": tuple(state["target_choices"]),
        }

    def complete_extra(self, extra: dict[str, Any], rng: Any) -> dict[str, Any]:
        """Unseen texts drawn from those seen and the sheet's suggestions; the dispenser: the rule cards
        neither used nor in play, in a random order (as :meth:`restore_public_state`)."""
        out = dict(extra)
        texts = extra["texts"]
        if any(text is None for text in texts):
            pool = sorted({text for text in texts if text is not None} | set(rc.SUGGESTIONS))
            out["texts"] = tuple(text if text is not None else rng.choice(pool) for text in texts)
        if isinstance(extra["dispenser"], Unseen):
            placed = set(extra["used"]) | set(extra["in_play"])
            dispenser = [rid for rid in range(len(texts)) if rid not in placed]
            rng.shuffle(dispenser)
            out["dispenser"] = dispenser
        return out

    # ------------------------------------------------------------ set-up and round hooks

    def setup(self, game: Game, rule_cards: Sequence[str] | None) -> None:
        """Load the written rule cards (by default drawn from the sheet's suggestions) into the dispenser."""
        if rule_cards is None:
            texts = suggested_rule_cards(rule_cards_per_player(game.rules.rule_card_count, game.n) * game.n, game.rng)
        else:
            texts = [rc.clean_rule_text(text) for text in rule_cards]
            if not 1 <= len(texts) <= 100:
                raise SetupError("write from 1 to 100 rule cards")
        cards = tuple(_read(text) for text in texts)
        dispenser = list(range(len(cards)))
        game.rng.shuffle(dispenser)
        game.extra.update(
            texts=tuple(card.text for card in cards),
            dispenser=dispenser,
            used=[],
            in_play=[],
            shown=(),
            lever_colours=0,
            lever_draw=0,
            lever_skip=0,
            give_to=-1,
            give_left=0,
            performing=-1,
            target_rule=-1,
            target_choices=(),
        )

    def start_round(self, game: Game) -> None:
        """As the base; a Jackpot or Wild Jackpot start card: left of the dealer chooses a
        player, who performs a dispensed rule card (then, for the wild, the colour is named)."""
        super().start_round(game)
        if CARD_KIND[game.top_card] in (Kind.JACKPOT, Kind.WILD_JACKPOT):
            game.push(OP_START_RULE, game.left_of(game.dealer))

    def end_round(self, game: Game) -> None:
        """Rule cards dispensed but not finished go behind the unit."""
        extra = game.extra
        extra["used"].extend(extra["in_play"])
        extra["in_play"] = []
        extra["performing"] = -1

    def public_info(self, game: Game, seat: int | None) -> dict[str, Any]:
        texts = game.extra["texts"]
        shown = self._shown(game)
        return {
            "rule_cards_shown": [[rid, texts[rid], self.card(game, rid).reading()] for rid in shown],
            "rule_cards_in_dispenser": len(game.extra["dispenser"]),
            "rule_cards_used": len(game.extra["used"]),
            "lever_outcomes": list(LEVER_OUTCOMES),
        }

    def decision_info(self, game: Game) -> dict[str, int]:
        """``give_to`` / ``give_left`` (phase give), ``target_rule`` (choosing a rule's
        target) and ``rule``: the rule card being performed (-1 if none)."""
        extra = game.extra
        giving = game.phase == GIVE
        return {
            "give_to": extra["give_to"] if giving else -1,
            "give_left": extra["give_left"] if giving else 0,
            "target_rule": extra["target_rule"] if game.target_kind == TARGET_OF_RULE else -1,
            "rule": extra["performing"],
        }

    _PUBLIC = ("lever_colours", "lever_draw", "lever_skip", "give_to", "give_left", "target_rule", "performing")

    def public_state(self, game: Game) -> dict[str, Any]:
        """The lever's and the rule cards' public state; of the dispenser only its size
        (and the texts of cards already shown: see ``public_info``)."""
        extra = game.extra
        state: dict[str, Any] = {key: extra[key] for key in self._PUBLIC}
        state.update(
            target_choices=tuple(extra["target_choices"]),
            used=tuple(extra["used"]),
            in_play=tuple(extra["in_play"]),
            dispenser_size=len(extra["dispenser"]),
            rule_card_total=len(extra["texts"]),
            shown_texts=tuple((rid, extra["texts"][rid]) for rid in self._shown(game)),
        )
        return state

    def restore_public_state(self, game: Game, state: dict[str, Any], rng: Any) -> None:
        """Unseen rule cards get texts drawn from those seen and the sheet's suggestions."""
        shown = dict(state["shown_texts"])
        pool = sorted(set(shown.values()) | set(rc.SUGGESTIONS))
        texts = tuple(shown.get(rid) or rng.choice(pool) for rid in range(state["rule_card_total"]))
        placed = set(state["used"]) | set(state["in_play"])
        dispenser = [rid for rid in range(len(texts)) if rid not in placed]
        rng.shuffle(dispenser)
        game.extra.update({key: state[key] for key in self._PUBLIC})
        game.extra.update(
            texts=texts,
            dispenser=dispenser,
            used=list(state["used"]),
            in_play=list(state["in_play"]),
            shown=tuple(sorted(shown)),
            target_choices=tuple(state["target_choices"]),
        )

    @staticmethod
    def _shown(game: Game) -> tuple[int, ...]:
        """The rule cards dispensed so far in the match (their texts are public)."""
        shown: tuple[int, ...] = game.extra["shown"]
        return shown

    @staticmethod
    def card(game: Game, rid: int) -> rc.RuleCard:
        """The rule card ``rid`` as read."""
        return _read(game.extra["texts"][rid])

    @staticmethod
    def rule_cards_everywhere(game: Game) -> Counter[int]:
        """Every rule card in the dispenser, the used pile and in play (for conservation checks)."""
        counts: Counter[int] = Counter(game.extra["dispenser"])
        counts.update(game.extra["used"])
        counts.update(game.extra["in_play"])
        return counts

    # ------------------------------------------------------------ the dispenser

    def dispense(self, game: Game, seat: int) -> int:
        """Press the button: a rule card for ``seat`` (-1 if the unit is empty)."""
        extra = game.extra
        if not extra["dispenser"] and extra["used"]:
            extra["dispenser"] = extra["used"]
            extra["used"] = []
            game.rng.shuffle(extra["dispenser"])
            game.events.append(("rule_reshuffle", -1, len(extra["dispenser"]), ()))
        if not extra["dispenser"]:
            game.events.append(("dispense", seat, -1, ()))
            return -1
        rid: int = extra["dispenser"].pop()
        extra["in_play"].append(rid)
        if rid not in extra["shown"]:
            extra["shown"] = tuple(sorted((*extra["shown"], rid)))
        game.events.append(("dispense", seat, rid, ()))
        return rid

    # ------------------------------------------------------------ operations

    def run_op(self, game: Game, op: int, seat: int, arg: int) -> bool:
        extra = game.extra
        if op == OP_LEVER:
            return self._pull_lever(game, seat)
        if op == OP_LEVER_END:
            skip = extra["lever_skip"]
            if extra["lever_draw"]:
                game.draw_cards(game.next_seat(seat), extra["lever_draw"])
            extra.update(lever_colours=0, lever_draw=0, lever_skip=0)
            game.end_turn(seat, skip)
            return False
        if op == OP_START_RULE:
            game.target_kind = TARGET_PERFORMER
            game.ask(TARGET, seat)
            return False
        if op == OP_PERFORM:
            return self._perform(game, seat, arg)
        if op == OP_RETIRE:
            extra["performing"] = -1
            if arg in extra["in_play"]:
                extra["in_play"].remove(arg)
                extra["used"].append(arg)
            return True
        if op == OP_HONOUR:
            game.ask(HONOUR, seat)
            return False
        if op == OP_RUN:
            if any(game.playable(seat, c) for c in set(game.hands[seat])):
                game.ask(RULE_RUN, seat)
                return False
            game.events.append(("run_end", seat, 0, ()))
            return True
        if op == OP_GIVE:
            if arg > 0 and game.hands[seat]:
                extra["give_left"] = min(arg, len(game.hands[seat]))
                game.ask(GIVE, seat)
                return False
            return True
        if op == OP_LEVER_DISCARD:
            if self._colour_discards(game, seat):
                game.ask(LEVER_DISCARD, seat)
                return False
            return True
        if op == OP_RULE_TARGET:
            choices = self._rule_targets(game, seat, arg)
            if len(choices) == 1:
                self._apply_rule_target(game, seat, arg, choices[0])
                return True
            extra["target_rule"] = arg
            extra["target_choices"] = tuple(choices)
            game.target_kind = TARGET_OF_RULE
            game.ask(TARGET, seat)
            return False
        return super().run_op(game, op, seat, arg)

    def _pull_lever(self, game: Game, seat: int) -> bool:
        outcome = game.rng.choices(range(1, 7), weights=game.rules.lever_weights)[0]
        game.events.append(("lever", seat, outcome, ()))
        game.extra.update(lever_colours=0, lever_draw=0, lever_skip=0)
        if outcome == 1:
            game.target_kind = TARGET_PERFORMER
            game.ask(TARGET, seat)
            return False
        if outcome in (2, 3):
            performer = game.right_of(seat) if outcome == 2 else game.left_of(seat)
            rid = self.dispense(game, performer)
            if rid >= 0:
                game.push(OP_PERFORM, performer, rid)
        elif outcome == 4:
            order = [game.next_seat(seat, k) for k in range(game.players_in)]
            dealt = [(performer, self.dispense(game, performer)) for performer in order]
            for performer, rid in reversed(dealt):
                if rid >= 0:
                    game.push(OP_PERFORM, performer, rid)
        elif outcome == 5:
            game.push(OP_LEVER_DISCARD, seat)
        else:
            game.draw_cards(seat, 4)
        return True

    def _perform(self, game: Game, seat: int, rid: int) -> bool:
        game.events.append(("rule", seat, rid, ()))
        game.extra["performing"] = rid
        game.push(OP_RETIRE, seat, rid)
        effect = self.card(game, rid).effect
        if effect is None:
            game.push(OP_HONOUR, seat, rid)
            return True
        verb, count = effect.verb, effect.count
        hand = game.hands[seat]
        if verb == rc.DRAW:
            game.draw_cards(seat, count)
        elif verb == rc.DRAW_TO:
            game.draw_cards(seat, max(0, count - len(hand)))
        elif verb == rc.DISCARD:
            game.push(OP_DISCARD, seat, count)
        elif verb == rc.DISCARD_TO:
            if len(hand) > count:
                game.push(OP_DISCARD, seat, len(hand) - count)
        elif verb == rc.PLAY_RUN:
            game.push(OP_RUN, seat)
        elif verb == rc.PLAY_WILDS:
            wilds = sorted(c for c in hand if CARD_IS_WILD[c])
            for card in wilds:
                hand.remove(card)
                game.discard_pile.append(card)
                game.events.append(("play", seat, 0, (card,)))
            if wilds:
                if self._out(game, seat):
                    return True
                game.expose_if_single(seat)
                game.push(OP_COLOUR, seat)
        elif verb == rc.SKIP_TURN:
            game.lose_next_turn(seat)
            game.events.append(("lose_turn", seat, 0, ()))
        elif verb == rc.REVERSE:
            game.direction = -game.direction
            game.events.append(("reverse", seat, game.direction, ()))
        elif verb in (rc.GIVE, rc.TAKE, rc.SWAP):
            game.push(OP_RULE_TARGET, seat, rid)
        elif verb == rc.EVERYONE_DRAWS:
            for k in range(game.players_in):
                game.draw_cards(game.next_seat(seat, k), count)
        elif verb == rc.EVERYONE_DISCARDS:
            for k in reversed(range(game.players_in)):
                game.push(OP_DISCARD, game.next_seat(seat, k), count)
        return True

    def _out(self, game: Game, seat: int) -> bool:
        """If ``seat`` has no cards left, the round ends now."""
        if game.hands[seat]:
            return False
        game.ops[:] = [(OP_END_ROUND, seat, 0)]
        return True

    # ------------------------------------------------------------ targets

    def targets(self, game: Game, seat: int, kind: int) -> list[int]:
        if kind == TARGET_PERFORMER:
            return list(game.seats_in())  # any player, even yourself
        if kind == TARGET_OF_RULE:
            return list(game.extra["target_choices"])
        return super().targets(game, seat, kind)

    def _rule_targets(self, game: Game, seat: int, rid: int) -> list[int]:
        effect = self.card(game, rid).effect
        assert effect is not None
        target = effect.target
        others = [s for s in game.seats_in() if s != seat]
        if target == rc.LEFT:
            return [game.left_of(seat)]
        if target == rc.RIGHT:
            return [game.right_of(seat)]
        if target == rc.NEXT:
            return [game.next_seat(seat)]
        if target == rc.PREVIOUS:
            return [game.next_seat(seat, -1)]
        sizes = [len(game.hands[s]) for s in others]
        if target == rc.MOST:
            return [s for s in others if len(game.hands[s]) == max(sizes)]
        if target == rc.FEWEST:
            return [s for s in others if len(game.hands[s]) == min(sizes)]
        return others

    def on_target(self, game: Game, seat: int, target: int) -> None:
        game.events.append(("target", seat, target, ()))
        if game.target_kind == TARGET_PERFORMER:
            rid = self.dispense(game, target)
            if rid >= 0:
                game.push(OP_PERFORM, target, rid)
            return
        rid = game.extra["target_rule"]
        game.extra.update(target_rule=-1, target_choices=())
        self._apply_rule_target(game, seat, rid, target)

    def _apply_rule_target(self, game: Game, seat: int, rid: int, target: int) -> None:
        effect = self.card(game, rid).effect
        assert effect is not None
        hands = game.hands
        if effect.verb == rc.GIVE:
            game.extra["give_to"] = target
            game.push(OP_GIVE, seat, effect.count)
        elif effect.verb == rc.TAKE:
            taken = game.rng.sample(hands[target], min(effect.count, len(hands[target])))
            for card in taken:
                hands[target].remove(card)
            hands[seat].extend(taken)
            game.events.append(("take", seat, target, tuple(taken)))
            game.expose_if_single(seat)
            game.expose_if_single(target)
            self._out(game, target)
        else:
            hands[seat], hands[target] = hands[target], hands[seat]
            game.events.append(("swap", seat, target, ()))
            game.expose_if_single(seat)
            game.expose_if_single(target)

    # ------------------------------------------------------------ the edition's phases

    def _colour_discards(self, game: Game, seat: int) -> list[int]:
        used = game.extra["lever_colours"]
        return sorted({c for c in game.hands[seat] if not CARD_IS_WILD[c] and not used & (1 << CARD_COLOUR[c])})

    def actor_actions(self, game: Game) -> tuple[int, ...]:
        space = self.actions
        seat = game.actor
        hand = game.hands[seat]
        if game.phase == RULE_RUN:
            faces = sorted({c for c in hand if game.playable(seat, c)})
            ids = [space.play_id[c] for c in faces]
            if len(hand) == 2:
                ids += [space.play_uno_id[c] for c in faces]
            return tuple(ids)
        if game.phase == LEVER_DISCARD:
            return (*(space.discard_id[c] for c in self._colour_discards(game, seat)), space.id(ActionType.DONE))
        if game.phase == HONOUR:
            return (space.id(ActionType.DONE),)
        if game.phase == GIVE:
            return tuple(space.id(ActionType.GIVE, c) for c in sorted(set(hand)))
        return ()

    def apply_action(self, game: Game, seat: int, kind: int, arg: int) -> None:
        extra = game.extra
        hand = game.hands[seat]
        if game.phase == RULE_RUN:
            called = kind == ActionType.PLAY_UNO
            hand.remove(arg)
            game.discard_pile.append(arg)
            game.events.append(("play", seat, 1 if called else 0, (arg,)))
            if not CARD_IS_WILD[arg]:
                game.colour = CARD_COLOUR[arg]
            if not self._out(game, seat):
                if len(hand) == 1 and not called:
                    game.expose_if_single(seat)
                game.push(OP_RUN, seat)
                if CARD_IS_WILD[arg]:
                    game.push(OP_COLOUR, seat)
        elif game.phase == LEVER_DISCARD:
            if kind == ActionType.DONE:
                game.events.append(("done", seat, 0, ()))
            else:
                hand.remove(arg)
                game.discard_pile.append(arg)
                game.colour = CARD_COLOUR[arg]
                game.events.append(("discard", seat, 1, (arg,)))
                extra["lever_colours"] |= 1 << CARD_COLOUR[arg]
                card_kind = CARD_KIND[arg]
                if card_kind == Kind.REVERSE:
                    game.direction = -game.direction
                    game.events.append(("reverse", seat, game.direction, ()))
                elif card_kind == Kind.SKIP:
                    extra["lever_skip"] = 1
                elif card_kind == Kind.DRAW_TWO:
                    extra["lever_draw"] += 2
                    extra["lever_skip"] = 1
                if not hand:
                    if extra["lever_draw"]:  # a final Draw Two is still drawn
                        game.draw_cards(game.next_seat(seat), extra["lever_draw"])
                    game.ops[:] = [(OP_END_ROUND, seat, 0)]
                else:
                    game.expose_if_single(seat)
                    game.push(OP_LEVER_DISCARD, seat)
        elif game.phase == HONOUR:
            game.events.append(("done", seat, 0, ()))
        elif game.phase == GIVE:
            target = extra["give_to"]
            hand.remove(arg)
            game.hands[target].append(arg)
            game.events.append(("give", seat, target, (arg,)))
            extra["give_left"] -= 1
            game.expose_if_single(target)
            if not self._out(game, seat):
                game.expose_if_single(seat)
                if extra["give_left"] > 0:
                    return
        game.run_ops()
