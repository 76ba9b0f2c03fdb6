"""Rule options: one frozen object per game.

>>> Rules().target_score
500
>>> Rules.from_dict({"scoring": "running-tally"}).scoring
'running-tally'
>>> Rules.from_dict({"spinning": True})
Traceback (most recent call last):
...
unokit.engine.errors.UnknownOptionError: unknown rule option 'spinning'; known: ...
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import Any

from unokit.engine.errors import UnknownOptionError
from unokit.i18n import Translator, catalog

SCORING_METHODS = ("edition", "winner-collects", "running-tally", "single-round", "knockout")
FORCED_SWAP_FINAL = ("wins", "swaps")
STACKING_MODES = ("off", "draw-two", "same", "cross", "up")
DEFLECT_MODES = ("off", "reverse", "skip", "both")
MULTI_PLAY_MODES = ("off", "identical", "number")
LEVER_OUTCOMES = ("choose-player", "right", "left", "everyone", "discard-colours", "draw-four")
"""UNO Wild Jackpot: the lever's six outcomes, in the order of ``lever_weights``."""


@dataclass(frozen=True)
class OptionSpec:
    """What values a rule option takes, and the editions it matters in.

    ``kind`` is ``int``, ``float``, ``bool``, ``choice`` (one of ``choices``), ``ints``
    (``length`` whole numbers, not all zero) or ``deck`` (card and count pairs); numbers, and
    the counts of ``ints`` and ``deck``, lie from ``low`` to ``high``.  ``editions`` is
    ``None`` when the option matters in every edition.  Its words for players live in the message
    catalogs (``option.<name>.label``, ``.help``, ``.choice.<choice>``; ``GET /api/options`` serves
    them in each language): :meth:`words` reads them, :attr:`label`, :attr:`help` and
    :attr:`choice_labels` in English."""

    kind: str
    low: float = 0
    high: float = 0
    choices: tuple[str, ...] = ()
    length: int | None = None
    editions: tuple[str, ...] | None = None
    group: str = ""
    """``house`` for a house rule (off by default; see :mod:`unokit.editions.house`), else empty."""
    requires: str = ""
    """The option this one works with: a value other than the default is refused while that
    option is at its default (``stack_deflect`` means nothing without ``stacking``)."""
    name: str = ""
    """The option's name (a key of :data:`OPTIONS`): its words' ids begin ``option.<name>``."""

    def words(self, lang: str | Translator = "en") -> tuple[str, str, tuple[str, ...]]:
        """The label, help and choice labels (one per choice, in order) in ``lang``."""
        t = catalog(lang) if isinstance(lang, str) else lang
        base = "option." + self.name  # i18n: ids of an option's words
        choices = tuple(t(base + ".choice." + choice.replace("-", "_")) for choice in self.labelled_choices)
        return t(base + ".label"), t(base + ".help"), choices

    @property
    def labelled_choices(self) -> tuple[str, ...]:
        """The choices that have words: every choice of a ``choice``, each weight of ``lever_weights``."""
        return self.choices if self.kind in ("choice", "ints") else ()

    @property
    def label(self) -> str:
        """The option in a few words, as a player reads it (the web game's form, the terminal), in English."""
        return self.words()[0]

    @property
    def help(self) -> str:
        """A sentence on what the option does, in English."""
        return self.words()[1]

    @property
    def choice_labels(self) -> tuple[str, ...]:
        """Each of ``choices`` in words, in the same order, in English."""
        return self.words()[2]


_WILD_DRAW_FOUR = ("classic", "space-jam", "wild-jackpot")
"""The editions that have a Wild Draw Four."""
_NUMBERED = _WILD_DRAW_FOUR
"""The editions that have number cards."""

OPTIONS: dict[str, OptionSpec] = {
    "scoring": OptionSpec(
        "choice",
        choices=SCORING_METHODS,
    ),
    "target_score": OptionSpec(
        "int",
        1,
        1_000_000,
    ),
    "hand_size": OptionSpec(
        "int",
        1,
        30,
    ),
    "allow_bluff": OptionSpec(
        "bool",
        editions=_WILD_DRAW_FOUR,
    ),
    "challenger_plays_after_catching_bluff": OptionSpec(
        "bool",
        editions=_WILD_DRAW_FOUR,
    ),
    "two_player_reverse_skips": OptionSpec(
        "bool",
    ),
    "uno_penalty": OptionSpec(
        "int",
        0,
        20,
    ),
    "jam_slam_chance": OptionSpec(
        "float",
        0,
        1,
        editions=("space-jam",),
    ),
    "jam_discard": OptionSpec(
        "int",
        0,
        20,
        editions=("space-jam",),
    ),
    "jam_draw": OptionSpec(
        "int",
        0,
        20,
        editions=("space-jam",),
    ),
    "forced_swap_final_card": OptionSpec(
        "choice",
        choices=FORCED_SWAP_FINAL,
        editions=("all-wild",),
    ),
    "lever_weights": OptionSpec(
        "ints",
        0,
        1000,
        length=6,
        editions=("wild-jackpot",),
        choices=LEVER_OUTCOMES,  # what each weight is for
    ),
    "rule_card_count": OptionSpec(
        "int",
        1,
        100,
        editions=("wild-jackpot",),
    ),
    "deck": OptionSpec(
        "deck",
        0,
        1000,
    ),
    "stacking": OptionSpec(
        "choice",
        choices=STACKING_MODES,
        group="house",
    ),
    "stack_deflect": OptionSpec(
        "choice",
        choices=DEFLECT_MODES,
        group="house",
        requires="stacking",
    ),
    "stack_revenge": OptionSpec(
        "bool",
        group="house",
        requires="stacking",
    ),
    "wild_draw_four_challenge": OptionSpec(
        "bool",
        editions=_WILD_DRAW_FOUR,
        group="house",
    ),
    "seven_swap": OptionSpec(
        "bool",
        editions=_NUMBERED,
        group="house",
    ),
    "zero_pass": OptionSpec(
        "bool",
        editions=_NUMBERED,
        group="house",
    ),
    "force_play": OptionSpec(
        "bool",
        group="house",
    ),
    "draw_to_match": OptionSpec(
        "bool",
        group="house",
    ),
    "must_play": OptionSpec(
        "bool",
        group="house",
    ),
    "hand_limit": OptionSpec(
        "int",
        0,
        200,
        group="house",
    ),
    "no_action_finish": OptionSpec(
        "bool",
        group="house",
    ),
    "no_wild_finish": OptionSpec(
        "bool",
        editions=_WILD_DRAW_FOUR,
        group="house",
    ),
    "call_uno": OptionSpec(
        "bool",
        group="house",
    ),
    "teams": OptionSpec(
        "bool",
        group="house",
    ),
    "jump_in": OptionSpec(
        "bool",
        group="house",
    ),
    "multi_play": OptionSpec(
        "choice",
        choices=MULTI_PLAY_MODES,
        editions=_NUMBERED,
        group="house",
    ),
    "multi_play_bomb": OptionSpec(
        "bool",
        editions=_NUMBERED,
        group="house",
        requires="multi_play",
    ),
    "mercy": OptionSpec(
        "bool",
        group="house",
    ),
    "mercy_limit": OptionSpec(
        "int",
        2,
        200,
        group="house",
        requires="mercy",
    ),
}
OPTIONS = {name: replace(spec, name=name) for name, spec in OPTIONS.items()}
"""Every rule option's values and editions: :class:`Rules` checks its values against this table."""

HOUSE_OPTIONS = tuple(name for name, spec in OPTIONS.items() if spec.group == "house")
"""The house rules: with every one at its default the game is the sheets' (a plain
:class:`~unokit.engine.game.Game`)."""

PRESETS: dict[str, dict[str, Any]] = {
    "official": {},
    "house": {"stacking": "same", "seven_swap": True, "zero_pass": True, "jump_in": True},
    "party": {"stacking": "same", "seven_swap": True, "zero_pass": True, "jump_in": True, "draw_to_match": True},
    "no-mercy": {
        "stacking": "up",
        "seven_swap": True,
        "zero_pass": True,
        "draw_to_match": True,
        "force_play": True,
        "wild_draw_four_challenge": False,
        "mercy": True,
        "scoring": "single-round",
    },
    "teams": {"teams": True},
    "chaos": {
        "stacking": "cross",
        "stack_deflect": "both",
        "seven_swap": True,
        "zero_pass": True,
        "jump_in": True,
        "multi_play": "number",
        "draw_to_match": True,
        "force_play": True,
        "wild_draw_four_challenge": False,
    },
}
"""Named sets of options (see docs/rules.md, "Presets"); every option a preset does not name keeps its default."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _problem(spec: OptionSpec, value: Any) -> str | None:
    """Why ``value`` is not a value of the option ``spec`` describes (``None`` if it is)."""
    low, high = spec.low, spec.high
    if spec.kind == "bool":
        return None if isinstance(value, bool) else f"must be true or false, not {value!r}"
    if spec.kind == "choice":
        return None if value in spec.choices else f"must be one of {', '.join(spec.choices)}, not {value!r}"
    if spec.kind == "int":
        if not _is_int(value):
            return f"must be an integer, not {value!r}"
        return None if low <= value <= high else f"must be between {low} and {high}"
    if spec.kind == "float":
        in_range = not isinstance(value, bool) and isinstance(value, (int, float)) and low <= value <= high
        return None if in_range else f"must be a number between {low} and {high}"
    if spec.kind == "ints":
        if (
            not isinstance(value, tuple)
            or len(value) != spec.length
            or not all(_is_int(w) and low <= w <= high for w in value)
            or sum(value) == 0
        ):
            return f"must be {spec.length} whole numbers from {low} to {high}, not all zero"
        return None
    if value is None:  # deck: the edition's own
        return None
    if not isinstance(value, tuple) or not all(
        isinstance(item, tuple)
        and len(item) == 2
        and isinstance(item[0], str)
        and _is_int(item[1])
        and low <= item[1] <= high
        for item in value
    ):
        return f"must be (card, count) pairs with counts from {low} to {high}"
    return None


@dataclass(frozen=True)
class Rules:
    """Every rule option of a game.  Defaults follow the printed rule sheets."""

    scoring: str = "edition"
    """``edition``: the edition sheet's main method (``Edition.main_scoring``: ``single-round`` for
    UNO All Wild, ``winner-collects`` for the others).  ``winner-collects``: the round winner scores
    the cards left in the other hands, first to the target wins.  ``running-tally``: everyone
    scores the cards left in their own hand; when someone reaches the target, the lowest total
    wins.  ``single-round``: the first player out wins; no points.  ``knockout`` (a house rule):
    after each round the player with the most cards leaves the match; the last one left wins."""
    target_score: int = 500
    hand_size: int = 7
    allow_bluff: bool = True
    """A Wild Draw Four may be played while holding a card of the current colour
    (and then challenged).  False: it is only legal without one, and never challenged."""
    challenger_plays_after_catching_bluff: bool = True
    """After a successful challenge the challenger still takes their turn."""
    two_player_reverse_skips: bool = True
    """With two players a Reverse acts as a Skip."""
    uno_penalty: int = 2
    """Cards drawn by a player caught without calling UNO."""
    jam_slam_chance: float = 0.5
    """Probability that a dropped Wild Welcome to the Jam card lands Slam side up."""
    jam_discard: int = 2
    jam_draw: int = 2
    forced_swap_final_card: str = "wins"
    """``wins``: a Wild Forced Swap played as the final card wins, no swap.
    ``swaps``: the swap happens, and the player left with no cards wins."""
    lever_weights: tuple[int, ...] = (1, 1, 1, 1, 1, 1)
    """UNO Wild Jackpot: relative chances of the lever's six outcomes (choose a player,
    right, left, everyone, discard one of each colour, draw four)."""
    rule_card_count: int = 8
    """UNO Wild Jackpot: Customizable Rule cards handed out equally among the players
    (each gets at least one, so nine or ten players still write a card each)."""
    deck: tuple[tuple[str, int], ...] | None = None
    """Overrides the edition's deck composition: ``(card notation, count)`` pairs."""
    stacking: str = "off"
    """House rule.  Draw cards add up and pass on (see docs/rules.md): ``draw-two`` (a Draw Two on a
    Draw Two), ``same`` (the same kind), ``cross`` (also a Wild Draw Four on a Draw Two, and a Draw Two
    of the colour in play on a Wild Draw Four), ``up`` (any draw card of equal or higher value)."""
    stack_deflect: str = "off"
    """House rule (with stacking).  A Reverse, a Skip or both deflect a pending total."""
    stack_revenge: bool = False
    """House rule (with stacking).  A draw card added to a running total adds twice its value."""
    wild_draw_four_challenge: bool = True
    """House rule.  False: a Wild Draw Four is never challenged."""
    seven_swap: bool = False
    """House rule (Seven-O).  A 7 played (not as the last card) swaps hands with a player of its player's choice."""
    zero_pass: bool = False
    """House rule (Seven-O).  A 0 played (not as the last card) passes every hand to the next player."""
    force_play: bool = False
    """House rule.  A drawn card that may be played must be played."""
    draw_to_match: bool = False
    """House rule.  A turn's draw goes on one card at a time until a drawn card may be played."""
    must_play: bool = False
    """House rule.  A player may draw on their turn only when no card in hand may be played."""
    hand_limit: int = 0
    """House rule.  Holding this many cards or more, a player may not draw while they can play, and
    Draw to Match stops drawing there (0: no limit)."""
    no_action_finish: bool = False
    """House rule.  The last card may not be an action card (All Wild: anything but a plain Wild)."""
    no_wild_finish: bool = False
    """House rule.  The last card may not be a wild card (not in All Wild, where every card is one)."""
    call_uno: bool = True
    """House rule.  False (silent UNO): nobody calls UNO and nobody is caught."""
    teams: bool = False
    """House rule (team play).  With 4, 6, 8 or 10 players, two teams: team = seat mod 2 (partners
    sit across at four).  A team wins the round when either partner goes out; scores are the team's."""
    jump_in: bool = False
    """House rule (Jump-In).  A player holding a card identical to the one just played may play it
    out of turn, before the next player acts; play continues from them."""
    multi_play: str = "off"
    """House rule.  After playing a number card on a turn, more cards of that number may follow:
    ``identical`` (the same colour too) or ``number`` (any colour); ``off``: one card a turn."""
    multi_play_bomb: bool = False
    """House rule (with ``multi_play``).  A set of three cards or more makes every other player draw 1."""
    mercy: bool = False
    """House rule (Mercy).  A player holding ``mercy_limit`` cards or more is out of the round at once:
    their hand goes face up under the discard pile; the last player (team) left wins the round."""
    mercy_limit: int = 25
    """House rule (with ``mercy``).  The hand size that puts a player out of the round."""

    def __post_init__(self) -> None:
        def bad(name: str, why: str) -> UnknownOptionError:
            return UnknownOptionError(f"rule option {name!r}: {why}")

        defaults = {f.name: f.default for f in fields(self)}
        for f in fields(self):
            spec = OPTIONS[f.name]
            value = getattr(self, f.name)
            problem = _problem(spec, value)
            if problem is not None:
                raise bad(f.name, problem)
            needed = spec.requires
            if needed and value != f.default and getattr(self, needed) == defaults[needed]:
                raise bad(f.name, f"works only with {needed!r}, which is at its default ({defaults[needed]!r})")

    @cached_property
    def house_on(self) -> bool:
        """Whether some house rule differs from its default (knockout scoring is one too)."""
        changed = any(getattr(self, name) != getattr(_DEFAULT, name) for name in HOUSE_OPTIONS)
        return changed or self.scoring == "knockout"

    @classmethod
    def from_dict(cls, options: dict[str, Any]) -> Rules:
        """Build from a mapping, refusing unknown names and bad values.  A ``preset`` key names a
        set of :data:`PRESETS` to start from; the other keys then change it option by option."""
        if not isinstance(options, dict):
            raise UnknownOptionError("rule options must be a mapping of names to values")
        if "preset" in options:
            options = dict(options)
            name = options.pop("preset")
            if not isinstance(name, str) or name not in PRESETS:
                raise UnknownOptionError(f"unknown preset {name!r}; known: {', '.join(PRESETS)}")
            options = {**PRESETS[name], **options}
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for name, value in options.items():
            key = str(name).replace("-", "_")
            if key not in known:
                raise UnknownOptionError(f"unknown rule option {name!r}; known: {', '.join(sorted(known))}")
            if key == "deck" and value is not None:
                value = _deck_pairs(value)
            if key == "lever_weights" and isinstance(value, list):
                value = tuple(value)
            values[key] = value
        return cls(**values)

    @classmethod
    def preset(cls, name: str, **changes: Any) -> Rules:
        """The options of preset ``name`` with ``changes`` applied.

        >>> Rules.preset("house", zero_pass=False).stacking
        'same'
        """
        return cls.from_dict({"preset": name, **changes})

    def to_dict(self, *, only_changed: bool = True) -> dict[str, Any]:
        """The options as plain JSON data (by default only those differing from the defaults)."""
        default = _DEFAULT
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if only_changed and value == getattr(default, f.name):
                continue
            if f.name == "deck" and value is not None:
                value = [list(pair) for pair in value]
            elif f.name == "lever_weights":
                value = list(value)
            out[f.name] = value
        return out

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like :meth:`from_dict`)."""
        return Rules.from_dict({**self.to_dict(only_changed=False), **changes})


_DEFAULT = Rules()


def without_idle_options(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` (a mapping of option names to values, no preset) less the options that only change
    another one (:attr:`OptionSpec.requires`) it leaves at its default.  Such options changed
    nothing; records and rooms stored before :class:`Rules` refused them may hold them.

    >>> without_idle_options({"mercy_limit": 10, "hand_size": 5})
    {'hand_size': 5}
    >>> without_idle_options({"mercy_limit": 10, "mercy": True})
    {'mercy_limit': 10, 'mercy': True}
    """
    idle = {
        name
        for name in options
        if name in OPTIONS
        and (needed := OPTIONS[name].requires)
        and options.get(needed, getattr(_DEFAULT, needed)) == getattr(_DEFAULT, needed)
    }
    return {name: value for name, value in options.items() if name not in idle}


def _deck_pairs(value: Any) -> tuple[tuple[str, int], ...]:
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, (list, tuple)):
        items = [tuple(item) if isinstance(item, (list, tuple)) else item for item in value]
    else:
        raise UnknownOptionError("rule option 'deck': must be a mapping or list of (card, count)")
    out = []
    for item in items:
        if not isinstance(item, tuple) or len(item) != 2:
            raise UnknownOptionError("rule option 'deck': each entry must be (card, count)")
        out.append((item[0], item[1]))
    return tuple(out)
