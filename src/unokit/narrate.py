"""Events and actions in words, shared by the terminal game and the web server.

A :class:`Narrator` turns events into sentences addressed to one seat ("You play ...")
or to nobody in particular; :func:`describe_action` says what an action does. Output is
a list of parts, each plain text or ``(text, style)``; :func:`plain` joins them.  The words
come from the message catalogs (:mod:`unokit.i18n`), in English unless a language is given.

>>> narrator = Narrator(["Ann", "Bob"], you=1)
>>> plain(narrator.event(("draw", 0, 2, ())))
'Ann draws 2 cards.'
>>> plain(narrator.event(("pass", 1, 0, ())))
'You pass.'
>>> plain(Narrator(["Ann", "Bob"], you=1, lang="fr").event(("draw", 0, 2, ())))
'Ann pioche 2 cartes.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from unokit.editions import get_edition, rulecards
from unokit.editions.wild_jackpot import TARGET_OF_RULE, TARGET_PERFORMER, WildJackpot
from unokit.engine.actions import ActionType
from unokit.engine.cards import CARD_COLOUR, Kind, card_long_name, card_name, colour_term
from unokit.engine.events import Event, event_to_dict
from unokit.engine.game import Game
from unokit.engine.results import RoundResult
from unokit.engine.views import View
from unokit.i18n import Translator, catalog

__all__ = [
    "Narrator",
    "Part",
    "card_part",
    "card_words",
    "cards_parts",
    "colour_style",
    "describe_action",
    "direction_words",
    "plain",
    "plural",
    "rule_target_words",
    "translator",
]

Part = str | tuple[str, str]
"""A piece of output: plain text, or ``(text, style)``."""

_CARD_STYLES = {0: "bold #d70000", 1: "bold #a07a00", 2: "bold #008700", 3: "bold #0087ff", 4: "bold #d75f00"}
_WILD_STYLE = "bold #af5fd7"
"""The cards' colours in the terminal: each at least 3.5:1 in contrast against black and against white, so
that dark and light themes read them alike (the letter of the notation, ``R7``, marks the colour too)."""


def translator(lang: str | Translator = "en") -> Translator:
    """The translator of ``lang`` (a language code, or a translator already)."""
    return lang if isinstance(lang, Translator) else catalog(lang)


def colour_style(colour: int) -> str:
    """The terminal's style of a colour (any other value, such as ``NO_COLOUR``: the wild cards')."""
    return _CARD_STYLES.get(colour, _WILD_STYLE)


def card_part(card: int) -> tuple[str, str]:
    colour = CARD_COLOUR[card]
    return card_name(card), _CARD_STYLES.get(colour, _WILD_STYLE)


def cards_parts(cards: Sequence[int]) -> list[Part]:
    """Cards in notation, ``R7 W`` (the terminal's; notation, not words)."""
    parts: list[Part] = []
    for index, card in enumerate(cards):
        if index:
            parts.append(" ")
        parts.append(card_part(card))
    return parts or [catalog("en")("cards.none")]


def card_words(card: int, lang: str | Translator = "en") -> list[Part]:
    """``R7 (red 7)``."""
    t = translator(lang)
    return t.parts("card.with_code", code=card_part(card), name=card_long_name(card, t))


def plural(count: int, word: str) -> str:
    """``3 cards``: the terminal's English counts (``unokit.cli``; the catalogs hold the narration's)."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"  # i18n: terminal-only English, not narration


def direction_words(direction: int, lang: str | Translator = "en") -> str:
    t = translator(lang)
    return t("direction.clockwise") if direction > 0 else t("direction.counterclockwise")


def plain(parts: Sequence[Part] | None) -> str:
    """The text of ``parts`` without styles (``""`` for ``None``)."""
    if parts is None:
        return ""
    return "".join(part if isinstance(part, str) else part[0] for part in parts)  # styled parts to text


# ---------------------------------------------------------------- events in words


LEVER_OUTCOME_IDS = (
    "lever.outcome.choose_player",
    "lever.outcome.right",
    "lever.outcome.left",
    "lever.outcome.everyone",
    "lever.outcome.discard_colours",
    "lever.outcome.draw_four",
)
"""The lever's outcomes (``unokit.editions.wild_jackpot.LEVER_OUTCOMES``): their words' ids."""


class Narrator:
    """Turns events into sentences.  ``you`` is the seat addressed as "you" (or ``None``).

    ``codes``: cards are told in notation and by name, ``R7 (red 7)``, as the terminal shows the moves
    to type; without, by name alone (``red 7``, a list of cards ``red 7, Wild``), as the web page shows
    its cards in pictures.  ``lang``: the language (a code or a :class:`~unokit.i18n.Translator`).

    A sentence whose grammar depends on who is spoken of has one message per case: ``<id>.you``
    (the subject is you), ``<id>.other_you`` (someone else acts on you), ``<id>.other``.

    UNO Wild Jackpot: rule cards are told with their text, which the narrator learns from
    views (:meth:`learn`) as the cards are dispensed."""

    def __init__(
        self,
        names: Sequence[str],
        you: int | None = None,
        scoring: str = "winner-collects",
        edition: str = "classic",
        codes: bool = True,
        lang: str | Translator = "en",
    ) -> None:
        self.names = list(names)
        self.codes = codes
        self.you = you
        self.t = translator(lang)
        self.scored = scoring not in ("single-round", "knockout")
        self.round = 0
        self.told = 0
        """How many events of the history :func:`narrate_events` has narrated in a row."""
        self.edition = edition
        self.rule_texts: dict[int, str] = {}
        """Rule card number -> text, for the cards shown so far."""

    def learn(self, public: dict[str, Any]) -> None:
        """Note the rule cards shown so far (``view.public["rule_cards_shown"]``)."""
        for rid, text, _reading in public.get("rule_cards_shown", ()):
            self.rule_texts[rid] = text

    def card(self, card: int) -> list[Part]:
        """A card: ``R7 (red 7)``, or ``red 7`` without codes."""
        if self.codes:
            return card_words(card, self.t)
        return [(card_long_name(card, self.t), card_part(card)[1])]

    def cards(self, cards: Sequence[int]) -> list[Part]:
        """Cards: ``R7 W``, or ``red 7, Wild`` without codes."""
        if not cards:
            return [self.t("cards.none")]
        if self.codes:
            return cards_parts(cards)
        parts: list[Part] = self.card(cards[0])
        for card in cards[1:]:
            parts = self.t.parts("list.middle", head=parts, tail=self.card(card))
        return parts

    def who(self, seat: int) -> str:
        return self.t("person.you") if seat == self.you else self.names[seat]

    def whom(self, seat: int) -> str:
        """The seat among others named in a list (``Ann and you``)."""
        return self.t("person.you_in_list") if seat == self.you else self.names[seat]

    def say(self, base: str, seat: int, other: int | None = None, **values: Any) -> list[Part]:
        """Message ``base`` spoken of ``seat`` (and of ``other``, who may be you): ``base.you``,
        ``base.other_you`` or ``base.other``, with ``name`` and ``other`` the seats' names."""
        if seat == self.you:
            case = "you"
        elif other is not None and other == self.you:
            case = "other_you"
        else:
            case = "other"
        names = {"name": self.names[seat]}
        if other is not None:
            names["other"] = self.names[other]
        return self.t.parts(f"{base}.{case}", **names, **values)  # i18n: id of a case, see the docstring

    def scores(self, scores: Sequence[int]) -> str:
        entries = [
            self.t("score.you", points=scores[s])
            if s == self.you
            else self.t("score.other", name=self.names[s], points=scores[s])
            for s in range(len(scores))
        ]
        return self.t.list(entries, unit=True)

    def event(self, event: Event) -> list[Part] | None:
        """One line for ``event`` (``None`` if it needs none)."""
        kind, seat, value, data = event
        t, say = self.t, self.say
        if kind == "dealer_draw":
            return say("event.dealer_draw", seat, card=self.card(data[0]))
        if kind == "dealer":
            self.round = value
            return say("event.dealer", seat, round=(t("event.round", round=value), "bold"))
        if kind == "deal":
            if data:
                return say("event.deal.cards", seat, count=value, cards=self.cards(sorted(data)))
            return say("event.deal", seat, count=value)
        if kind == "flip":
            return t.parts("event.flip", card=self.card(data[0]))
        if kind == "return":
            return t.parts("event.return")
        if kind == "play":
            if value:
                return say("event.play.uno", seat, card=self.card(data[0]))
            return say("event.play", seat, card=self.card(data[0]))
        if kind == "draw":
            if data:
                return say("event.draw.cards", seat, count=value, cards=self.cards(data))
            return say("event.draw", seat, count=value)
        if kind == "pass":
            return say("event.pass", seat)
        if kind == "colour":
            return say("event.colour", seat, colour=(colour_term(value, t), _CARD_STYLES[value]))
        if kind == "skip":
            return say("event.skip", seat)
        if kind == "reverse":
            return say("event.reverse", seat, direction=direction_words(value, t))
        if kind == "challenge":
            return say("event.challenge", seat, value)
        if kind == "reveal":
            if data:
                return say("event.reveal.cards", seat, value, cards=self.cards(data))
            return say("event.reveal", seat, value)
        if kind == "verdict":
            if value:
                return say("event.verdict.guilty", seat)
            return say("event.verdict.innocent", seat)
        if kind == "accept":
            return say("event.accept", seat, value)
        if kind == "uno":
            return say("event.uno", seat)
        if kind == "catch":
            return say("event.catch", seat, value)
        if kind == "jam":
            if value:
                return say("event.jam.slam", seat)
            return say("event.jam.uno", seat)
        if kind == "discard":
            if value:
                return say("event.discard.top", seat, card=self.card(data[0]))
            if self.edition == "space-jam":
                return say("event.discard.under_jam", seat, card=self.card(data[0]))
            return say("event.discard.under", seat, card=self.card(data[0]))
        if kind == "target":
            if value == seat:
                return say("event.target.self", seat)
            return say("event.target", seat, value)
        if kind == "swap":
            return say("event.swap", seat, value)
        if kind == "stack":  # the card that starts a stack or adds to one (its play was told before)
            return t.parts("event.stack", count=value)
        if kind == "stack_draw":
            return say("event.stack_draw", seat, count=value)
        if kind == "pass_hands":
            return t.parts("event.pass_hands", direction=direction_words(value, t))
        if kind == "team_win":
            members = t.list([self.whom(s) for s in data])
            yours = self.you is not None and self.you in data
            if len(data) > 1 and yours:
                return t.parts("event.team_win.yours.members", members=members)
            if len(data) > 1:
                return t.parts("event.team_win.members", team=value + 1, members=members)
            if yours:
                return t.parts("event.team_win.yours")
            return t.parts("event.team_win", team=value + 1)
        if kind == "knockout":
            return say("event.knockout", seat, count=value)
        if kind == "deflect":
            return say("event.deflect", seat, count=value)
        if kind == "jump":
            return say("event.jump", seat, value)
        if kind == "mercy":
            return say("event.mercy", seat, count=value)
        if kind == "bomb":
            return say("event.bomb", seat, count=value)
        if kind == "reshuffle":
            return t.parts("event.reshuffle", count=value)
        if kind == "blocked":
            return t.parts("event.blocked", count=value)
        if kind == "hand":
            return self.hand_line(seat, data, value)
        if kind == "round_end":
            return self.won_line(seat, value, data, self.round)
        if kind == "match_end":
            won: list[Part] = [(plain(say("event.match_end", seat, count=value)), "bold")]
            return t.parts("event.final_scores", line=won, scores=self.scores(data)) if self.scored else won
        jackpot = self.jackpot_event(event)
        if jackpot is not None:
            return jackpot
        return [f"{kind} {seat} {value}"]  # pragma: no cover - every event kind is handled above; i18n: notation

    def hand_line(self, seat: int, cards: Sequence[int], points: int) -> list[Part]:
        """A hand at a round's end (event ``hand``)."""
        indent = "  "  # i18n: indentation under the round's result, not a word
        if not cards:
            return [indent, *self.say("event.hand.out", seat)]
        if self.scored:
            return [indent, *self.say("event.hand.points", seat, cards=self.cards(cards), count=points)]
        return [indent, *self.say("event.hand", seat, cards=self.cards(cards))]

    def won_line(self, winner: int, points_won: int, scores: Sequence[int], round_number: int) -> list[Part]:
        """Who won a round, with the points won and the scores after it (event ``round_end``)."""
        if points_won and self.scored:
            line = self.say("event.round_end.points", winner, round=round_number, count=points_won)
        else:
            line = self.say("event.round_end", winner, round=round_number)
        won: list[Part] = [(plain(line), "bold")]
        return self.t.parts("event.scores", line=won, scores=self.scores(scores)) if self.scored else won

    def round_result(self, result: RoundResult) -> list[list[Part]]:
        """A finished round's lines: each hand in the round at its end (not those Mercy put out of it,
        told when it did), then who won and the scores (the lines of its ``hand`` and ``round_end`` events)."""
        seats = [seat for seat in result.seats if not result.mercy_hands[seat]]
        lines = [self.hand_line(seat, result.hands[seat], result.points[seat]) for seat in seats]
        lines.append(self.won_line(result.winner, result.points_won, result.scores, result.round))
        return lines

    def lines(self, events: Sequence[Event], results: Sequence[RoundResult]) -> list[list[Part]]:
        """The lines of ``events`` told in order (the terminal's narration), a finished round's hands
        and result told from its entry in ``results`` (the match's round results so far)."""
        by_round = {result.round: result for result in results}
        lines: list[list[Part]] = []
        for event in events:
            kind = event[0]
            if kind == "hand" and self.round in by_round:
                continue  # told with the round's result
            if kind == "round_end" and self.round in by_round:
                lines.extend(self.round_result(by_round[self.round]))
                continue
            line = self.event(event)
            if line is not None:
                lines.append(line)
        return lines

    def lever(self, seat: int, outcome: int) -> list[Part]:
        pulled = (self.t(LEVER_OUTCOME_IDS[outcome - 1]), "bold")
        if outcome == 1:
            return self.say("event.lever.choose_player", seat, outcome=pulled)
        if outcome == 2:
            return self.say("event.lever.right", seat, outcome=pulled)
        if outcome == 3:
            return self.say("event.lever.left", seat, outcome=pulled)
        if outcome == 4:
            return self.say("event.lever.everyone", seat, outcome=pulled)
        if outcome == 5:
            return self.say("event.lever.discard_colours", seat, outcome=pulled)
        return self.say("event.lever.draw_four", seat, outcome=pulled)

    def rule(self, seat: int, rid: int) -> list[Part]:
        text = self.rule_texts.get(rid)
        if text is None:  # not shown to this narrator: only its number is known
            return self.say("event.rule.unknown", seat, number=rid)
        card = rulecards.read_rule(text)
        if card.effect is not None:
            return self.say("event.rule.enforced", seat, text=text, effect=rulecards.describe(card.effect, self.t))
        return self.say("event.rule.honour", seat, text=text)

    def jackpot_event(self, event: Event) -> list[Part] | None:
        """Words for the events of UNO Wild Jackpot (``None`` for other kinds)."""
        kind, seat, value, data = event
        say = self.say
        if kind == "lever":
            return self.lever(seat, value)
        if kind == "dispense":
            if value < 0:
                return say("event.dispense.empty", seat)
            return say("event.dispense", seat)
        if kind == "rule":
            return self.rule(seat, value)
        if kind == "rule_reshuffle":
            return self.t.parts("event.rule_reshuffle", count=value)
        if kind == "run_end":
            return say("event.run_end", seat)
        if kind == "lose_turn":
            return say("event.lose_turn", seat)
        if kind == "done":
            return say("event.done", seat)
        if kind == "take":
            if data:
                return say("event.take.cards", seat, value, count=len(data), cards=self.cards(data))
            return say("event.take", seat, value)
        if kind == "give":
            if data:
                return say("event.give.card", seat, value, card=self.card(data[0]))
            return say("event.give", seat, value)
        return None


def round_at(history: Sequence[Event], index: int) -> int:
    """The round under way before event ``index`` of ``history`` (0 before the first deal)."""
    return next((event[2] for event in reversed(history[:index]) if event[0] == "dealer"), 0)


def narrate_events(
    narrator: Narrator, history: Sequence[Event], start: int, end: int | None = None
) -> list[dict[str, Any]]:
    """Events ``start:end`` of ``history`` as a client is sent them: each ``event_to_dict`` with
    its ``text`` in words, and a ``hand`` counted at a round's end with each card's ``points``
    (the edition's own values, which add up to the event's ``value``).  A narrator that has not
    narrated the events before ``start`` is first told the round they leave it in."""
    if narrator.told != start:
        narrator.round = round_at(history, start)
    card_points = get_edition(narrator.edition).card_points
    entries = []
    for event in history[start:end]:
        entry = event_to_dict(event)
        entry["text"] = plain(narrator.event(event))
        if event[0] == "hand":
            entry["points"] = [card_points[card] for card in event[3]]
        entries.append(entry)
    narrator.told = start + len(entries)
    return entries


def describe_action(game: Game, view: View, action: int, names: Sequence[str], lang: str | Translator = "en") -> str:
    """What an action does, in words (addressed to the player who may take it)."""
    t = translator(lang)
    kind, arg = game.actions.decode(action)
    if kind is ActionType.PLAY:
        return t("action.play", card=card_long_name(arg, t))
    if kind is ActionType.PLAY_UNO:
        return t("action.play_uno", card=card_long_name(arg, t))
    if kind is ActionType.DRAW:
        return t("action.draw")
    if kind is ActionType.PASS and view.phase == "multi":
        return t("action.end_turn")
    if kind is ActionType.PASS:
        return t("action.keep")
    if kind is ActionType.COLOUR:
        return t("action.colour", colour=colour_term(arg, t))
    if kind is ActionType.CHALLENGE:
        return t("action.challenge")
    if kind is ActionType.ACCEPT:
        total = view.state.get("stack_total", 0)
        if view.phase == "stack" and total:
            return t("action.accept_stack", count=total)
        return t("action.accept")
    if kind is ActionType.TARGET:
        target_kind = view.decision["target_kind"]
        if target_kind in (Kind.WILD_FORCED_SWAP, Kind.SEVEN):
            return t("action.swap", name=names[arg])
        if target_kind == Kind.WILD_TARGETED_DRAW_TWO:
            return t("action.target_draw_two", name=names[arg])
        if target_kind == TARGET_PERFORMER:
            return t("action.performer", name=names[arg])
        if target_kind == TARGET_OF_RULE:
            return rule_target_words(game, view, names[arg], t)
        return t("action.target", name=names[arg])
    if kind is ActionType.DISCARD:
        if view.phase == "lever-discard":
            return t("action.discard_top", card=card_long_name(arg, t))
        return t("action.discard", card=card_long_name(arg, t))
    if kind is ActionType.CALL_UNO:
        return t("action.call_uno")
    if kind is ActionType.JUMP:
        return t("action.jump", card=card_long_name(arg, t))
    if kind is ActionType.JUMP_UNO:
        return t("action.jump_uno", card=card_long_name(arg, t))
    if kind is ActionType.DONE:
        if view.phase == "lever-discard":
            return t("action.discard_done")
        return t("action.honour_done")
    if kind is ActionType.GIVE:
        target = view.decision.get("give_to", -1)
        if target >= 0:
            return t("action.give_to", card=card_long_name(arg, t), name=names[target])
        return t("action.give", card=card_long_name(arg, t))
    return t("action.catch", name=names[arg], count=game.rules.uno_penalty)


def rule_target_words(game: Game, view: View, name: str, lang: str | Translator = "en") -> str:
    """What choosing ``name`` does for the rule card being performed (UNO Wild Jackpot)."""
    t = translator(lang)
    rid = view.decision.get("target_rule", -1)
    effect = WildJackpot.card(game, rid).effect if rid >= 0 else None
    if effect is None:
        return t("action.target", name=name)
    if effect.verb == rulecards.GIVE:
        return t("action.rule_give", count=effect.count, name=name)
    if effect.verb == rulecards.TAKE:
        return t("action.rule_take", count=effect.count, name=name)
    return t("action.swap", name=name)
