"""Events and actions in words, shared by the terminal game and the web server.

A :class:`Narrator` turns events into sentences addressed to one seat ("You play ...")
or to nobody in particular; :func:`describe_action` says what an action does. Output is
a list of parts, each plain text or ``(text, style)``; :func:`plain` joins them.

>>> narrator = Narrator(["Ann", "Bob"], you=1)
>>> plain(narrator.event(("draw", 0, 2, ())))
'Ann draws 2 cards.'
>>> plain(narrator.event(("pass", 1, 0, ())))
'You pass.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from unokit.editions import get_edition, rulecards
from unokit.editions.wild_jackpot import TARGET_OF_RULE, TARGET_PERFORMER, WildJackpot
from unokit.engine.actions import ActionType
from unokit.engine.cards import CARD_COLOUR, COLOUR_NAMES, Kind, card_long_name, card_name
from unokit.engine.events import Event, event_to_dict
from unokit.engine.game import Game
from unokit.engine.views import View

__all__ = [
    "Narrator",
    "Part",
    "card_part",
    "card_words",
    "cards_parts",
    "describe_action",
    "direction_words",
    "plain",
    "plural",
    "rule_target_words",
]

Part = str | tuple[str, str]
"""A piece of output: plain text, or ``(text, style)``."""

_CARD_STYLES = {0: "bold red", 1: "bold yellow", 2: "bold green", 3: "bold blue", 4: "bold orange1"}
_WILD_STYLE = "bold magenta"


def card_part(card: int) -> tuple[str, str]:
    colour = CARD_COLOUR[card]
    return card_name(card), _CARD_STYLES.get(colour, _WILD_STYLE)


def cards_parts(cards: Sequence[int]) -> list[Part]:
    parts: list[Part] = []
    for index, card in enumerate(cards):
        if index:
            parts.append(" ")
        parts.append(card_part(card))
    return parts or ["no cards"]


def card_words(card: int) -> list[Part]:
    """``R7 (red 7)``."""
    return [card_part(card), f" ({card_long_name(card)})"]


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def direction_words(direction: int) -> str:
    return "clockwise" if direction > 0 else "counter-clockwise"


def plain(parts: Sequence[Part] | None) -> str:
    """The text of ``parts`` without styles (``""`` for ``None``)."""
    if parts is None:
        return ""
    return "".join(part if isinstance(part, str) else part[0] for part in parts)


# ---------------------------------------------------------------- events in words


_LEVER_WORDS = ("choose a player", "right", "left", "everyone", "discard colours", "draw four")
"""The lever's outcomes (``unokit.editions.wild_jackpot.LEVER_OUTCOMES``) as the narration names them."""


class Narrator:
    """Turns events into sentences.  ``you`` is the seat addressed as "you" (or ``None``).

    ``codes``: cards are told in notation and by name, ``R7 (red 7)``, as the terminal shows the moves
    to type; without, by name alone (``red 7``, a list of cards ``red 7, Wild``), as the web page shows
    its cards in pictures.

    UNO Wild Jackpot: rule cards are told with their text, which the narrator learns from
    views (:meth:`learn`) as the cards are dispensed."""

    def __init__(
        self,
        names: Sequence[str],
        you: int | None = None,
        scoring: str = "winner-collects",
        edition: str = "classic",
        codes: bool = True,
    ) -> None:
        self.names = list(names)
        self.codes = codes
        self.you = you
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
            return card_words(card)
        return [(card_long_name(card), card_part(card)[1])]

    def cards(self, cards: Sequence[int]) -> list[Part]:
        """Cards: ``R7 W``, or ``red 7, Wild`` without codes."""
        if self.codes:
            return cards_parts(cards)
        parts: list[Part] = []
        for index, card in enumerate(cards):
            parts += [", "] if index else []
            parts += self.card(card)
        return parts or ["no cards"]

    def who(self, seat: int) -> str:
        return "You" if seat == self.you else self.names[seat]

    def whom(self, seat: int) -> str:
        return "you" if seat == self.you else self.names[seat]

    def self_or(self, seat: int, other: int) -> str:
        """``other`` as the object of a sentence whose subject is ``seat``."""
        if other != seat:
            return self.whom(other)
        return "yourself" if seat == self.you else "themselves"

    def whose(self, seat: int, capital: bool = False) -> str:
        if seat == self.you:
            return "Your" if capital else "your"
        return f"{self.names[seat]}'s"

    def says(self, seat: int, verb: str, third: str | None = None) -> str:
        """``You draw`` / ``Bot 1 draws``."""
        if seat == self.you:
            return f"You {verb}"
        return f"{self.names[seat]} {third if third is not None else verb + 's'}"

    def scores(self, scores: Sequence[int]) -> str:
        return ", ".join(f"{self.who(s)} {scores[s]}" for s in range(len(scores)))

    def event(self, event: Event) -> list[Part] | None:
        """One line for ``event`` (``None`` if it needs none)."""
        kind, seat, value, data = event
        if kind == "dealer_draw":
            return [self.says(seat, "draw"), " ", *self.card(data[0]), " to choose the dealer"]
        if kind == "dealer":
            self.round = value
            return [(f"— Round {value} —", "bold"), " ", self.says(seat, "deal"), "."]
        if kind == "deal":
            if data:
                return [self.says(seat, "are", "is"), f" dealt {plural(value, 'card')}: ", *self.cards(sorted(data))]
            return [self.says(seat, "are", "is"), f" dealt {plural(value, 'card')}."]
        if kind == "flip":
            return ["Start card: ", *self.card(data[0]), "."]
        if kind == "return":
            return ["A Wild Draw Four cannot start the game: it goes back into the draw pile."]
        if kind == "play":
            tail = " and ", ("calls UNO!" if seat != self.you else "call UNO!", "bold")
            return [self.says(seat, "play"), " ", *self.card(data[0]), *(tail if value else (".",))]
        if kind == "draw":
            text = self.says(seat, "draw") + f" {plural(value, 'card')}"
            return [text, ": ", *self.cards(data)] if data else [text, "."]
        if kind == "pass":
            return [self.says(seat, "pass", "passes"), "."]
        if kind == "colour":
            return [self.says(seat, "choose"), " ", (COLOUR_NAMES[value], _CARD_STYLES[value]), "."]
        if kind == "skip":
            return [self.says(seat, "are", "is"), " skipped."]
        if kind == "reverse":
            return [self.says(seat, "reverse"), f" the direction: play now goes {direction_words(value)}."]
        if kind == "challenge":
            return [self.says(seat, "challenge"), f" {self.whose(value)} Wild Draw Four."]
        if kind == "reveal":
            text = f"{self.whose(seat, capital=True)} hand is shown to {self.whom(value)}"
            return [text, ": ", *self.cards(data)] if data else [text, "."]
        if kind == "verdict":
            if value:
                return ["Guilty: ", self.says(seat, "were", "was"), " bluffing."]
            return ["Not guilty: ", self.says(seat, "had no card", "had no card"), " of the colour in play."]
        if kind == "accept":
            return [self.says(seat, "accept"), f" {self.whose(value)} Wild Draw Four."]
        if kind == "uno":
            return [self.says(seat, "call"), " ", ("UNO!", "bold")]
        if kind == "catch":
            return [self.says(seat, "catch", "catches"), f" {self.whom(value)} without UNO!"]
        if kind == "jam":
            side = "Slam side up: discard" if value else "UNO side up: draw"
            return [self.says(seat, "drop"), f" the Jam card. It lands {side}."]
        if kind == "discard":
            if value:
                return [self.says(seat, "discard"), " ", *self.card(data[0]), " on top of the discard pile."]
            under = " under the Jam card." if self.edition == "space-jam" else " under the top card."
            return [self.says(seat, "discard"), " ", *self.card(data[0]), under]
        if kind == "target":
            return [self.says(seat, "choose"), f" {self.self_or(seat, value)}."]
        if kind == "swap":
            return [self.says(seat, "swap"), f" hands with {self.whom(value)}."]
        if kind == "stack":  # the card that starts a stack or adds to one (its play was told before)
            return [f"The stacked penalty stands at {plural(value, 'card')}."]
        if kind == "stack_draw":
            return [self.says(seat, "take"), f" the penalty of {plural(value, 'card')}."]
        if kind == "pass_hands":
            return [f"Every hand passes {direction_words(value)}."]
        if kind == "team_win":
            named = [self.whom(s) for s in data]
            members = f" ({', '.join(named[:-1])} and {named[-1]})" if len(named) > 1 else ""
            team = "Your team" if self.you is not None and self.you in data else f"Team {value + 1}"
            return [f"{team}{members} wins the round."]
        if kind == "knockout":
            return [self.says(seat, "leave"), f" the match, knocked out with {plural(value, 'card')}."]
        if kind == "deflect":
            return [self.says(seat, "deflect"), f" the penalty of {plural(value, 'card')}."]
        if kind == "jump":
            return [self.says(seat, "jump", "jumps"), f" in ahead of {self.whom(value)}!"]
        if kind == "mercy":
            return [self.says(seat, "hold", "holds"), f" {plural(value, 'card')}: out of the round!"]
        if kind == "bomb":
            return [self.says(seat, "drop"), f" a bomb of {plural(value, 'card')}: everyone else draws 1."]
        if kind == "reshuffle":
            return [f"The discards ({plural(value, 'card')}) are shuffled into a new draw pile."]
        if kind == "hand":
            if not data:
                return [f"  {self.who(seat)}: out"]
            points = f" ({plural(value, 'point')})" if self.scored else ""
            return [f"  {self.who(seat)}: ", *self.cards(data), points]
        if kind == "round_end":
            scored = value and self.scored
            won = f" and {'score' if seat == self.you else 'scores'} {plural(value, 'point')}" if scored else ""
            line: list[Part] = [(self.says(seat, "win") + f" round {self.round}{won}!", "bold")]
            return [*line, f" Scores: {self.scores(data)}."] if self.scored else line
        if kind == "match_end":
            line = [(self.says(seat, "win") + f" the match after {plural(value, 'round')}!", "bold")]
            return [*line, f" Final scores: {self.scores(data)}."] if self.scored else line
        jackpot = self.jackpot_event(event)
        if jackpot is not None:
            return jackpot
        return [f"{kind} {seat} {value}"]  # pragma: no cover - every event kind is handled above

    def lever(self, seat: int, outcome: int) -> list[Part]:
        head: list[Part] = [self.says(seat, "pull"), " the lever: ", (_LEVER_WORDS[outcome - 1], "bold")]
        if outcome == 1:
            return [*head, ". ", self.says(seat, "choose"), " who performs a rule card."]
        if outcome in (2, 3):
            side = "right" if outcome == 2 else "left"
            return [*head, f". The player on {self.whose(seat)} {side} performs a rule card."]
        if outcome == 4:
            return [*head, ". Every player performs a rule card."]
        if outcome == 5:
            return [*head, ". ", self.says(seat, "may", "may"), " discard up to one card of each colour."]
        return [*head, "."]

    def rule(self, seat: int, rid: int) -> list[Part]:
        text = self.rule_texts.get(rid)
        if text is None:  # not shown to this narrator: only its number is known
            return [self.says(seat, "perform"), f" rule card {rid}."]
        card = rulecards.read_rule(text)
        if card.effect is not None:
            how = f"enforced: {rulecards.describe(card.effect)}"
        else:
            confirms = "you confirm" if seat == self.you else f"{self.names[seat]} confirms"
            how = f"an honour task, not enforced: {confirms} when it is done"
        return [self.says(seat, "perform"), ' a rule card: "', text, f'" ({how}).']

    def jackpot_event(self, event: Event) -> list[Part] | None:
        """Words for the events of UNO Wild Jackpot (``None`` for other kinds)."""
        kind, seat, value, data = event
        if kind == "lever":
            return self.lever(seat, value)
        if kind == "dispense":
            if value < 0:
                return [f"The dispenser is empty: no rule card for {self.whom(seat)}."]
            return [f"A rule card is dispensed to {self.whom(seat)}."]
        if kind == "rule":
            return self.rule(seat, value)
        if kind == "rule_reshuffle":
            return [f"The used rule cards ({value}) are shuffled back into the dispenser."]
        if kind == "run_end":
            return [self.says(seat, "can", "can"), " play no more cards in a row."]
        if kind == "lose_turn":
            return [self.says(seat, "will", "will"), f" lose {'your' if seat == self.you else 'their'} next turn."]
        if kind == "done":
            return [self.says(seat, "are", "is"), " done."]
        if kind == "take":
            text = self.says(seat, "take") + " "
            if data:
                return [text + f"{plural(len(data), 'card')} at random from {self.whom(value)}: ", *self.cards(data)]
            return [text + f"cards at random from {self.whom(value)}."]
        if kind == "give":
            if data:
                return [self.says(seat, "give"), f" {self.whom(value)} ", *self.card(data[0]), "."]
            return [self.says(seat, "give"), f" {self.whom(value)} a card."]
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


def describe_action(game: Game, view: View, action: int, names: Sequence[str]) -> str:
    """What an action does, in words."""
    kind, arg = game.actions.decode(action)
    if kind is ActionType.PLAY:
        return f"play {card_long_name(arg)}"
    if kind is ActionType.PLAY_UNO:
        return f"play {card_long_name(arg)} and call UNO"
    if kind is ActionType.DRAW:
        return "draw a card"
    if kind is ActionType.PASS and view.phase == "multi":
        return "end your turn"
    if kind is ActionType.PASS:
        return "keep the card you drew and end your turn"
    if kind is ActionType.COLOUR:
        return f"choose {COLOUR_NAMES[arg]}"
    if kind is ActionType.CHALLENGE:
        return "challenge: say the Wild Draw Four was a bluff"
    if kind is ActionType.ACCEPT:
        total = view.state.get("stack_total", 0)
        if view.phase == "stack" and total:
            return f"draw the penalty of {total} and lose your turn"
        return "accept it: draw 4 and lose your turn"
    if kind is ActionType.TARGET:
        target_kind = view.decision["target_kind"]
        if target_kind in (Kind.WILD_FORCED_SWAP, Kind.SEVEN):
            return f"swap hands with {names[arg]}"
        if target_kind == Kind.WILD_TARGETED_DRAW_TWO:
            return f"make {names[arg]} draw 2"
        if target_kind == TARGET_PERFORMER:
            return f"{names[arg]} performs a rule card"
        if target_kind == TARGET_OF_RULE:
            return rule_target_words(game, view, names[arg])
        return f"choose {names[arg]}"
    if kind is ActionType.DISCARD:
        if view.phase == "lever-discard":
            return f"discard {card_long_name(arg)} on top of the discard pile"
        return f"discard {card_long_name(arg)}"
    if kind is ActionType.CALL_UNO:
        return "call UNO"
    if kind is ActionType.JUMP:
        return f"jump in with {card_long_name(arg)}"
    if kind is ActionType.JUMP_UNO:
        return f"jump in with {card_long_name(arg)} and call UNO"
    if kind is ActionType.DONE:
        if view.phase == "lever-discard":
            return "discard no more cards"
        return "confirm that the honour task is done"
    if kind is ActionType.GIVE:
        target = view.decision.get("give_to", -1)
        return f"give {card_long_name(arg)} to {names[target]}" if target >= 0 else f"give {card_long_name(arg)}"
    return f"catch {names[arg]}, who draws {game.rules.uno_penalty}"


def rule_target_words(game: Game, view: View, name: str) -> str:
    """What choosing ``name`` does for the rule card being performed (UNO Wild Jackpot)."""
    rid = view.decision.get("target_rule", -1)
    effect = WildJackpot.card(game, rid).effect if rid >= 0 else None
    if effect is None:
        return f"choose {name}"
    if effect.verb == rulecards.GIVE:
        return f"give {plural(effect.count, 'card')} to {name}"
    if effect.verb == rulecards.TAKE:
        return f"take {plural(effect.count, 'card')} at random from {name}"
    return f"swap hands with {name}"
