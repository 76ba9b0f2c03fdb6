"""Game records: documented JSON that replays a game exactly.

A record is a JSON object::

    {
      "format": "unokit-record/2",
      "edition": "classic",            # edition name
      "players": 4,                    # seats 0..players-1, clockwise
      "names": ["Ann", "Bot 1", ...],  # optional display names
      "seed": 12345,                   # seed of the game's random generator
      "rules": {"target_score": 200},  # options differing from the defaults
      "dealer": null,                  # first dealer, or null to draw for it
      "deck": null,                    # first deck order (top first), or null
      "rule_cards": null,              # Wild Jackpot: the rule texts written, or null
      "actions": [[0, "R7"], [1, "draw"], ...]   # [seat, action notation]
    }

:func:`replay` rebuilds the game by applying the actions in order; the result has
the same state and event list as the game recorded.

Format ``unokit-record/1`` (written before ``Rules.scoring`` had the value ``edition``, when the
default was ``winner-collects``) is still read: its rules without ``scoring`` are played with
``winner-collects``, as they were recorded.  An option that only changes another one (its
``OptionSpec.requires``) is left out when that one is at its default: such options changed
nothing, and records written before ``Rules`` refused them may hold them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from unokit.engine.cards import card_name
from unokit.engine.errors import RecordError, UnoError
from unokit.engine.game import Game
from unokit.engine.rules import without_idle_options

FORMAT = "unokit-record/2"
OLD_FORMATS = {"unokit-record/1": {"scoring": "winner-collects"}}
"""Older formats still read, with the defaults they were written under (options the record's
``rules`` do not name take these values)."""
_KEYS = {"format", "edition", "players", "names", "seed", "rules", "dealer", "deck", "rule_cards", "actions"}


def to_record(game: Game, names: list[str] | None = None) -> dict[str, Any]:
    """The record of ``game`` so far."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "edition": game.edition.name,
        "players": game.n,
        "seed": game.seed,
        "rules": game.rules.to_dict(),
        "dealer": game.setup_dealer,
        "deck": [card_name(c) for c in game.initial_deck] if game.initial_deck is not None else None,
        "rule_cards": game.setup_rule_cards,
        "actions": [[seat, game.actions.format(action)] for seat, action in game.history],
    }
    if names is not None:
        record["names"] = list(names)
    return record


def replay(record: dict[str, Any], upto: int | None = None) -> Game:
    """Rebuild the game of ``record`` (optionally only its first ``upto`` actions)."""
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    unknown = set(record) - _KEYS
    if unknown:
        raise RecordError(f"unknown record keys: {', '.join(sorted(unknown))}")
    fmt = record.get("format")
    if fmt != FORMAT and fmt not in OLD_FORMATS:
        raise RecordError(f"record format must be {FORMAT!r} (or an older {', '.join(map(repr, OLD_FORMATS))})")
    rules = record.get("rules") or {}
    if fmt in OLD_FORMATS and isinstance(rules, dict):
        rules = {**OLD_FORMATS[fmt], **rules}
    if isinstance(rules, dict) and "preset" not in rules:
        rules = without_idle_options(rules)
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise RecordError("record 'actions' must be a list of [seat, action]")
    try:
        game = Game(
            record.get("edition", ""),
            record.get("players", 0),
            seed=record.get("seed"),
            rules=rules,
            deck=record.get("deck"),
            dealer=record.get("dealer"),
            rule_cards=record.get("rule_cards"),
        )
    except UnoError as exc:
        raise RecordError(f"record set-up: {exc}") from None
    for index, item in enumerate(actions[:upto] if upto is not None else actions):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], str)):
            raise RecordError(f"action {index}: must be [seat, notation]")
        try:
            game.apply_notation(item[0], item[1])
        except UnoError as exc:
            raise RecordError(f"action {index} ({item[1]!r} by seat {item[0]!r}) does not replay: {exc}") from None
    return game


def save(game: Game, path: str | Path, names: list[str] | None = None) -> None:
    """Write the record of ``game`` as JSON."""
    Path(path).write_text(json.dumps(to_record(game, names), indent=1) + "\n", encoding="utf-8")


def load(path: str | Path) -> dict[str, Any]:
    """Read a record file (not yet replayed)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise RecordError(f"cannot read record {path}: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    return data
