"""Rule options: one frozen object per game.

>>> Rules().target_score
500
>>> Rules.from_dict({"scoring": "running-tally"}).scoring
'running-tally'
>>> Rules.from_dict({"stacking": True})
Traceback (most recent call last):
...
unokit.errors.UnknownOptionError: unknown rule option 'stacking'; known: ...
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from unokit.errors import UnknownOptionError

SCORING_METHODS = ("winner-collects", "running-tally", "single-round")
FORCED_SWAP_FINAL = ("wins", "swaps")


@dataclass(frozen=True)
class Rules:
    """Every rule option of a game.  Defaults follow the printed rule sheets."""

    scoring: str = "winner-collects"
    """``winner-collects``: the round winner scores the cards left in the other hands,
    first to the target wins.  ``running-tally``: everyone scores the cards left in
    their own hand; when someone reaches the target, the lowest total wins.
    ``single-round``: the first player out wins; no points."""
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

    def __post_init__(self) -> None:
        def bad(name: str, why: str) -> UnknownOptionError:
            return UnknownOptionError(f"rule option {name!r}: {why}")

        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise bad(f.name, f"must be true or false, not {value!r}")
            if f.type == "int" and (not isinstance(value, int) or isinstance(value, bool)):
                raise bad(f.name, f"must be an integer, not {value!r}")
        if self.scoring not in SCORING_METHODS:
            raise bad("scoring", f"must be one of {', '.join(SCORING_METHODS)}, not {self.scoring!r}")
        if self.forced_swap_final_card not in FORCED_SWAP_FINAL:
            raise bad("forced_swap_final_card", f"must be one of {', '.join(FORCED_SWAP_FINAL)}")
        if not 1 <= self.target_score <= 1_000_000:
            raise bad("target_score", "must be between 1 and 1000000")
        if not 1 <= self.hand_size <= 30:
            raise bad("hand_size", "must be between 1 and 30")
        for name in ("uno_penalty", "jam_discard", "jam_draw"):
            if not 0 <= getattr(self, name) <= 20:
                raise bad(name, "must be between 0 and 20")
        weights = self.lever_weights
        if (
            not isinstance(weights, tuple)
            or len(weights) != 6
            or not all(isinstance(w, int) and not isinstance(w, bool) and 0 <= w <= 1000 for w in weights)
            or sum(weights) == 0
        ):
            raise bad("lever_weights", "must be six whole numbers from 0 to 1000, not all zero")
        if not 1 <= self.rule_card_count <= 100:
            raise bad("rule_card_count", "must be between 1 and 100")
        chance = self.jam_slam_chance
        if isinstance(chance, bool) or not isinstance(chance, (int, float)) or not 0.0 <= chance <= 1.0:
            raise bad("jam_slam_chance", "must be a number between 0 and 1")
        if self.deck is not None:
            deck = self.deck
            if not isinstance(deck, tuple) or not all(
                isinstance(item, tuple)
                and len(item) == 2
                and isinstance(item[0], str)
                and isinstance(item[1], int)
                and not isinstance(item[1], bool)
                and 0 <= item[1] <= 1000
                for item in deck
            ):
                raise bad("deck", "must be (card, count) pairs with counts from 0 to 1000")

    @classmethod
    def from_dict(cls, options: dict[str, Any]) -> Rules:
        """Build from a mapping, refusing unknown names and bad values."""
        if not isinstance(options, dict):
            raise UnknownOptionError("rule options must be a mapping of names to values")
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

    def to_dict(self, *, only_changed: bool = True) -> dict[str, Any]:
        """The options as plain JSON data (by default only those differing from the defaults)."""
        default = Rules()
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
