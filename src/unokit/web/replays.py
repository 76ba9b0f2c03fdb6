"""Finished matches replayed move by move, as a spectator saw them.

``GET /api/rooms/{code}/replay/{step}`` answers the table after the first ``step`` actions
of a finished match: ``game.view(None)`` and the events that step's action produced,
redacted for a spectator and narrated.  Stepping is cheap: each match keeps the positions
last asked for (a small LRU) and checkpoints at regular intervals, and a step is reached
by cloning the nearest kept position before it and applying the actions between.  The
record is replayed from its start once per match.

>>> from unokit.engine.game import Game
>>> from unokit.engine.record import to_record
>>> game = Game("classic", 2, seed=7)
>>> for _ in range(3):
...     game.apply(game.actor, game.legal_actions(game.actor)[0])
>>> match = MatchReplay(to_record(game, ["Ann", "Bob"]), ["human", "bot"])
>>> position = match.position(2)
>>> position["step"], position["steps"], position["view"]["hand"]
(2, 3, [])
>>> position["view"] == match.position(2)["view"]
True
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from unokit.engine.game import Game
from unokit.engine.record import replay
from unokit.i18n import catalog
from unokit.narrate import Narrator, narrate_events
from unokit.web.messages import asks_words, view_words

__all__ = ["MatchReplay", "ReplayCache"]

POSITIONS = 24
"""Positions last asked for kept per match."""
CHECKPOINT_EVERY = 64
"""Steps between checkpoints (positions kept for good), so that no step is far from one..."""
CHECKPOINTS = 32
"""... but a match keeps at most about this many: a longer match spaces them more."""
MATCHES = 16
"""Matches kept in memory."""


class MatchReplay:
    """One finished match: its record and a few replayed positions.

    :meth:`position` may be called from worker threads: a lock keeps one at a time."""

    def __init__(self, record: dict[str, Any], kinds: list[str], positions: int = POSITIONS) -> None:
        self.record = record
        self.actions: list[list[Any]] = record["actions"]
        self.steps = len(self.actions)
        players = int(record["players"])
        names = record.get("names") or []
        self.names = [str(names[s]) if s < len(names) else f"Seat {s}" for s in range(players)]  # i18n: a name
        self.kinds = [kinds[s] if s < len(kinds) else "human" for s in range(players)]
        self.limit = max(2, positions)
        self.every = max(CHECKPOINT_EVERY, -(-self.steps // CHECKPOINTS))
        self.checkpoints: dict[int, Game] = {}
        """Positions at every :attr:`every` steps, as they are passed; never changed once kept."""
        self.games: OrderedDict[int, Game] = OrderedDict()
        """Positions last asked for, by step, least recently used first; never changed once kept."""
        self.marks: dict[int, int] = {}
        """How many events the match had after each step replayed so far."""
        self.lock = threading.Lock()

    def position(self, step: int, lang: str = "en") -> dict[str, Any]:
        """The replay's answer for ``step`` (0 to :attr:`steps`): the spectator's view and the
        events of the step-th action (of the deal, for step 0), narrated in ``lang``."""
        if not 0 <= step <= self.steps:
            raise ValueError(f"step must be from 0 to {self.steps}, not {step}")
        with self.lock:
            game = self._game_at(step)
            if step > 0 and step - 1 not in self.marks:
                self._game_at(step - 1)
            start = self.marks[step - 1] if step > 0 else 0
            end = self.marks[step]
            view = game.view(None)
            t = catalog(lang)
            narrator = Narrator(self.names, None, game.scoring, game.edition.name, codes=False, lang=t)
            narrator.learn(view.public)
            events = narrate_events(narrator, view.history, start, end)
            return {
                "step": step,
                "steps": self.steps,
                "edition": game.edition.name,
                "view": view_words(view, t),
                "asks": asks_words(view, False, t),
                "events": events,
                "seats": [
                    {"seat": s, "name": name, "kind": kind, "away": False}
                    for s, (name, kind) in enumerate(zip(self.names, self.kinds, strict=True))
                ],
                "names": list(self.names),
                "finished": game.is_over,
            }

    def _game_at(self, step: int) -> Game:
        """The game after ``step`` actions (kept: the caller must not change it)."""
        games, checkpoints = self.games, self.checkpoints
        if step in games:
            games.move_to_end(step)
            return games[step]
        if step in checkpoints:
            return checkpoints[step]
        base = max((kept for kept in (*games, *checkpoints) if kept < step), default=None)
        if base is None:
            game = replay(self.record, upto=0)
            at = 0
            self.marks[0] = len(game.events)
            checkpoints[0] = game.clone()
        else:
            game = (games[base] if base in games else checkpoints[base]).clone()
            at = base
        while at < step:
            seat, notation = self.actions[at]
            game.apply_notation(seat, notation)
            at += 1
            self.marks[at] = len(game.events)
            if at % self.every == 0 and at not in checkpoints:
                checkpoints[at] = game.clone() if at < step else game
        self._keep(step, game)
        return game

    def _keep(self, step: int, game: Game) -> None:
        self.games[step] = game
        self.games.move_to_end(step)
        while len(self.games) > self.limit:
            self.games.popitem(last=False)


class ReplayCache:
    """The finished matches being replayed, least recently used dropped first.

    Used from the event loop's thread only (the positions themselves are computed in
    worker threads, each match behind its own lock)."""

    def __init__(self, matches: int = MATCHES, positions: int = POSITIONS) -> None:
        self.limit = max(1, matches)
        self.positions = positions
        self.matches: OrderedDict[str, MatchReplay] = OrderedDict()

    def get(self, code: str) -> MatchReplay | None:
        match = self.matches.get(code)
        if match is not None:
            self.matches.move_to_end(code)
        return match

    def add(self, code: str, record: dict[str, Any], kinds: list[str]) -> MatchReplay:
        match = MatchReplay(record, kinds, self.positions)
        self.matches[code] = match
        self.matches.move_to_end(code)
        while len(self.matches) > self.limit:
            self.matches.popitem(last=False)
        return match
