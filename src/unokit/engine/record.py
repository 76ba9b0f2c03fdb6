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
      "actions": [[0, "R7"], [1, "draw"], ...],  # [seat, action notation]
      "round_results": [{"round": 1, "winner": 2, ...}, ...]  # optional: the finished rounds
    }

:func:`replay` rebuilds the game by applying the actions in order; the result has
the same state and event list as the game recorded.  ``round_results`` (written by
:func:`to_record`, each :meth:`unokit.engine.results.RoundResult.to_dict`) is there for readers;
a whole replay checks it against the rounds replayed (:class:`RecordError` naming the first round
that differs).

A game whose randomness came from another generator (the compiled engine's, :mod:`unokit.fast`)
is written in format ``unokit-record/3``: the same keys, and two more::

      "random": [["shuffle", ["R7", "G+2", ...]], ["randrange", [2]], ...],
      "order_key": 1234567890          # the order asked out of turn (unokit.engine.order)

``random`` lists the generator's results in the order the game drew them, each ``[kind, values]``
(cards by name; the kinds are :data:`unokit.engine.scripted.KINDS`, described in
:mod:`unokit.engine.scripted`), and is replayed instead of the seed's generator (``seed`` is then
the run's seed, for reference).  A record whose results run out before its actions do, do not fit
what the game draws, or are left over at its end does not replay (:class:`RecordError`, naming the
result).  Records without ``random`` are written in format ``unokit-record/2``.

A game that started from a position (loaded with :meth:`Game.from_position`, or built by
:func:`unokit.engine.setup.set_up`) is recorded from it::

      "position": "unokit-position/1 classic ...",   # the position the game started from
      "seed": 12345,                   # the game's seed, for reference (the position holds the generator)
      "dealer": null, "deck": null, "rule_cards": null,   # the position holds them: always null

``edition``, ``players`` and ``rules`` repeat the position's (a record whose values differ does not
replay), and ``actions`` are the actions played from the position on.  :func:`replay` loads the
position instead of dealing; the game it returns keeps it (``Game.start_position``), so a record of
it starts from the same position.  :func:`cut` turns a record into the position after any of its
steps: the first ``step`` actions replayed, the rest left to play from there; :func:`replay_steps`
walks a record step by step.

Format ``unokit-record/1`` (written before ``Rules.scoring`` had the value ``edition``, when the
default was ``winner-collects``) is still read: its rules without ``scoring`` are played with
``winner-collects``, as they were recorded.  An option that only changes another one (its
``OptionSpec.requires``) is left out when that one is at its default: such options changed
nothing, and records written before ``Rules`` refused them may hold them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

from unokit.engine.cards import card_name, parse_card
from unokit.engine.errors import RecordError, UnoError
from unokit.engine.game import Game
from unokit.engine.rules import Rules, without_idle_options
from unokit.engine.scripted import KINDS, ScriptedRandom

FORMAT = "unokit-record/2"
SCRIPTED_FORMAT = "unokit-record/3"
"""The format of a record that carries its random results (``random``)."""
CARD_KINDS = ("shuffle", "sample")
"""The kinds of random result whose values are cards (written by name)."""
OLD_FORMATS = {"unokit-record/1": {"scoring": "winner-collects"}}
"""Older formats still read, with the defaults they were written under (options the record's
``rules`` do not name take these values)."""
_KEYS = {
    "format",
    "edition",
    "players",
    "names",
    "seed",
    "rules",
    "dealer",
    "deck",
    "rule_cards",
    "actions",
    "round_results",
    "position",
}
_SCRIPTED_KEYS = {"random", "order_key"}


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
    if game.start_position is not None:
        record["position"] = game.start_position
    if names is not None:
        record["names"] = list(names)
    if game.round_results:
        record["round_results"] = [result.to_dict() for result in game.round_results]
    if isinstance(game.rng, ScriptedRandom):
        record["format"] = SCRIPTED_FORMAT
        record["random"] = random_results(game.rng.drawn)
        record["order_key"] = game.order_key
    return record


def random_results(results: list[tuple[str, list[int]]]) -> list[list[Any]]:
    """A scripted generator's results as a record holds them (cards by name)."""
    return [[kind, [card_name(v) for v in values] if kind in CARD_KINDS else list(values)] for kind, values in results]


def read_random_results(data: Any) -> list[tuple[str, list[int]]]:
    """A record's ``random`` as a script (:class:`RecordError` naming the first result that is malformed)."""
    if not isinstance(data, list):
        raise RecordError("record 'random' must be a list of [kind, values]")
    script = []
    for index, item in enumerate(data):
        if not (isinstance(item, list) and len(item) == 2 and item[0] in KINDS and isinstance(item[1], list)):
            raise RecordError(f"random result {index}: must be [kind, values], the kind one of {', '.join(KINDS)}")
        kind, values = item
        try:
            if kind in CARD_KINDS:
                script.append((kind, [parse_card(v) if isinstance(v, str) else _not_a_card(v) for v in values]))
            elif all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                script.append((kind, list(values)))
            else:
                raise RecordError("its values must be integers")
        except UnoError as exc:
            raise RecordError(f"random result {index} ({kind}): {exc}") from None
    return script


def _not_a_card(value: Any) -> int:
    raise RecordError(f"{value!r} is not a card name")


def replay(record: dict[str, Any], upto: int | None = None) -> Game:
    """Rebuild the game of ``record`` (optionally only its first ``upto`` actions)."""
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    unknown = set(record) - _KEYS - _SCRIPTED_KEYS
    if unknown:
        raise RecordError(f"unknown record keys: {', '.join(sorted(unknown))}")
    fmt = record.get("format")
    if fmt not in (FORMAT, SCRIPTED_FORMAT) and fmt not in OLD_FORMATS:
        raise RecordError(
            f"record format must be {FORMAT!r} or {SCRIPTED_FORMAT!r} (or an older {', '.join(map(repr, OLD_FORMATS))})"
        )
    scripted: ScriptedRandom | None = None
    if fmt == SCRIPTED_FORMAT:
        if "random" not in record:
            raise RecordError(f"a record of format {SCRIPTED_FORMAT!r} holds its random results ('random')")
        scripted = ScriptedRandom(read_random_results(record["random"]))
        key = record.get("order_key", 0)
        if isinstance(key, bool) or not isinstance(key, int) or not 0 <= key < 2**32:
            raise RecordError(f"record 'order_key' must be a number from 0 to 2**32 - 1, not {key!r}")
    elif set(record) & _SCRIPTED_KEYS:
        raise RecordError(f"'random' and 'order_key' belong to records of format {SCRIPTED_FORMAT!r}")
    rules = record.get("rules") or {}
    if fmt in OLD_FORMATS and isinstance(rules, dict):
        rules = {**OLD_FORMATS[fmt], **rules}
    if isinstance(rules, dict) and "preset" not in rules:
        rules = without_idle_options(rules)
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise RecordError("record 'actions' must be a list of [seat, action]")
    if "position" in record:
        game = _from_position(record, rules, scripted)
    else:
        try:
            game = Game(
                record.get("edition", ""),
                record.get("players", 0),
                seed=record.get("seed"),
                rules=rules,
                deck=record.get("deck"),
                dealer=record.get("dealer"),
                rule_cards=record.get("rule_cards"),
                rng=scripted,
            )
        except UnoError as exc:
            raise RecordError(f"record set-up: {exc}") from None
    if scripted is not None:
        game.order_key = record.get("order_key", 0)
    for index, item in enumerate(actions[:upto] if upto is not None else actions):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], str)):
            raise RecordError(f"action {index}: must be [seat, notation]")
        try:
            game.apply_notation(item[0], item[1])
        except UnoError as exc:
            raise RecordError(f"action {index} ({item[1]!r} by seat {item[0]!r}) does not replay: {exc}") from None
    if upto is None and "round_results" in record:
        _check_round_results(record["round_results"], game)
    if scripted is not None and upto is None and scripted.script:
        raise RecordError(
            f"the record's random results hold {len(scripted.script)} more than its game drew "
            f"(from result {len(scripted.drawn)} on)"
        )
    return game


def _from_position(record: dict[str, Any], rules: Any, scripted: ScriptedRandom | None) -> Game:
    """The game a record starts from its ``position`` (which must agree with its other keys)."""
    text = record["position"]
    if not isinstance(text, str):
        raise RecordError("record 'position' must be a position's text")
    for key in ("dealer", "deck", "rule_cards"):
        if record.get(key) is not None:
            raise RecordError(f"record '{key}' must be null in a record that starts from a position (it holds it)")
    try:
        game = Game.from_position(text)
    except UnoError as exc:
        raise RecordError(f"record 'position': {exc}") from None
    try:
        written = Rules.from_dict(rules) if isinstance(rules, dict) else None
    except UnoError as exc:
        raise RecordError(f"record 'rules': {exc}") from None
    for key, value, own, shown in (
        ("edition", record.get("edition"), game.edition.name, game.edition.name),
        ("players", record.get("players"), game.n, game.n),
        ("rules", written, game.rules, game.rules.to_dict()),
    ):
        if value != own:
            raise RecordError(f"record '{key}' is not the position's ({shown})")
    if scripted is not None:
        game.rng = cast(random.Random, scripted)
    game.start_position = text
    return game


def replay_steps(record: dict[str, Any]) -> Iterator[tuple[int, Game]]:
    """The game of ``record`` at every step: ``(step, game)``, the game after the first ``step``
    actions, from 0 (where the record starts) to the number of its actions (where it ends).  The
    same game is advanced by one action between steps: clone it to keep one.  The whole record is
    checked first (:class:`RecordError`)."""
    replay(record)
    game = replay(record, upto=0)
    yield 0, game
    for index, (seat, text) in enumerate(record["actions"], 1):
        game.apply_notation(seat, text)
        yield index, game


def cut(record: dict[str, Any], step: int) -> str:
    """The position after the first ``step`` actions of ``record`` (the full position, generator
    included): a game loaded from it, played on with the record's other actions, ends as the record
    does.  Refuses (:class:`RecordError`) a step out of range or a record that does not replay."""
    actions = record.get("actions") if isinstance(record, dict) else None
    count = len(actions) if isinstance(actions, list) else 0
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= count:
        raise RecordError(f"step must be a number from 0 to {count} (the record's actions), not {step!r}")
    replay(record)  # the whole record replays: a cut of it is a position of a real game
    return replay(record, upto=step).position()


def _check_round_results(data: Any, game: Game) -> None:
    """Refuse a record whose ``round_results`` are not the rounds its actions replay to."""
    if not isinstance(data, list):
        raise RecordError("record 'round_results' must be a list of round results")
    replayed = [result.to_dict() for result in game.round_results]
    for index, (written, result) in enumerate(zip(data, replayed, strict=False)):
        if written != result:
            raise RecordError(f"record 'round_results' {index} (round {result['round']}) is not the round replayed")
    if len(data) != len(replayed):
        raise RecordError(f"record 'round_results' holds {len(data)} rounds; its actions finish {len(replayed)}")


def save(game: Game, path: str | Path, names: list[str] | None = None) -> None:
    """Write the record of ``game`` as JSON (its random results one to a line)."""
    Path(path).write_text(dumps(to_record(game, names)), encoding="utf-8")


def dumps(record: dict[str, Any]) -> str:
    """``record`` as the JSON text :func:`save` writes: indented, its random results one to a line."""
    results = record.get("random")
    if not isinstance(results, list) or not results:
        return json.dumps(record, indent=1) + "\n"
    rest = json.dumps({key: value for key, value in record.items() if key != "random"}, indent=1)
    lines = ",\n  ".join(json.dumps(result, separators=(",", ":")) for result in results)
    return f'{rest[:-2]},\n "random": [\n  {lines}\n ]\n}}\n'


def load(path: str | Path) -> dict[str, Any]:
    """Read a record file (not yet replayed)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise RecordError(f"cannot read record {path}: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    return data
