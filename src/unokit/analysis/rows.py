"""Per-round and per-match rows of played matches, streamed to one Parquet or CSV file.

One file holds three levels: a ``level`` column says ``round`` (one row per round of a finished
match), ``seat`` (one row per seat of each such round: what it made or met, whether its side won)
or ``match`` (one row per match, a match stopped at the cap included with ``capped`` 1).
Every row names its set-up, seed and match, so the rows of several set-ups (``compare``,
``sweep``) share one file and one set of columns (:data:`COLUMNS`); a column that means nothing
for a row is empty (null). ``pandas.read_parquet(f)``, ``polars.read_parquet(f)`` or
``pandas.read_csv(f)`` load it in one line; ``df[df.level == "round"]`` picks the rounds, and
``seats = df[df.level == "seat"]; seats.groupby("mark_played_wild").won.mean()`` is an attribution.

:class:`RowWriter` writes in batches (Parquet row groups, CSV lines), so no table of every row is
ever held; :func:`match_rows` makes the rows of one match.

>>> import csv, io, tempfile, pathlib
>>> from unokit.analysis.measures import Setup, play_matches
>>> setup = Setup("classic", players=2, bots=("heuristic", "heuristic"), rules=Rules(scoring="single-round"))
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with RowWriter(folder / "rows.csv") as writer:
...     for index, match in enumerate(play_matches(setup, seed=1, start=0, count=2)):
...         writer.write(match_rows(setup, 1, index, match))
>>> [row["level"] for row in csv.DictReader(open(folder / "rows.csv"))]
['round', 'seat', 'seat', 'match', 'round', 'seat', 'seat', 'match']
"""

from __future__ import annotations

import csv
import importlib
import json
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO

from unokit.analysis.measures import plays_key
from unokit.analysis.rounds import Mark
from unokit.engine.errors import SetupError
from unokit.engine.rules import LEVER_OUTCOMES, Rules

Row = dict[str, Any]

_SPECIAL_COLUMNS = (
    "skip",
    "reverse",
    "draw_two",
    "wild",
    "wild_draw_four",
    "wild_welcome_to_the_jam",
    "wild_reverse",
    "wild_skip",
    "wild_skip_two",
    "wild_draw_two",
    "wild_targeted_draw_two",
    "wild_forced_swap",
    "jackpot",
    "wild_jackpot",
)

COLUMNS: tuple[tuple[str, str], ...] = (
    ("level", "str"),
    ("setup", "str"),
    ("seed", "int"),
    ("match", "int"),
    ("round", "int"),
    ("seat", "int"),
    ("position", "str"),
    ("won", "int"),
    ("edition", "str"),
    ("players", "int"),
    ("bots", "str"),
    ("rules", "str"),
    ("engine", "str"),
    ("capped", "int"),
    ("rounds", "int"),
    ("dealer", "int"),
    ("first_player", "int"),
    ("winner", "int"),
    ("decisions", "int"),
    ("turns", "int"),
    ("cards_drawn", "int"),
    ("lead_changes", "int"),
    ("mid_trailing", "int"),
    ("comeback", "int"),
    ("blocked", "int"),
    ("points", "int"),
    ("scores", "str"),
    ("marks", "str"),
    *((f"plays_{name}", "int") for name in _SPECIAL_COLUMNS),
    *((f"lever_{outcome.replace('-', '_')}", "int") for outcome in LEVER_OUTCOMES),
    *((f"mark_{mark.key}", "int") for mark in Mark),
)
"""Every column, in order, with its type (``int`` columns may be empty).

``level``: ``round``, ``seat`` (one row per seat of each round, after the round's row) or ``match``
(after its rounds). ``round`` counts from 1 (empty on match rows); ``seat``, ``position`` (the seat
relative to the dealer: ``dealer +1``, ..., ``dealer``) and ``won`` (1 if the seat's side won the
round) only on seat rows; ``mark_<key>`` (each :class:`unokit.analysis.rounds.Mark`): on a seat row 1
if the seat made or met it in the round, on a round row how many seats did; ``rounds``: the
match's rounds; seats (``dealer``, ``first_player``, ``winner``, ``mid_trailing``) count from 0 at
the first deal's table order; ``winner``: the round's winner, or the match's; ``decisions``, ``turns``, ``cards_drawn``,
``blocked``, ``points``: the round's, or the match's sums; ``lead_changes``: of the fewest cards
within the round, or of the score leader between rounds (winner-collects matches);
``mid_trailing``: the seat alone with the most cards at mid-round, or the side alone last by
score after round ⌈R/2⌉ (matches of 2 rounds or more), and ``comeback`` 1 if it won the round
or the match; ``scores``: every seat's score after the round (winner-collects) or at the match's
end, separated by spaces; ``marks``: each seat's bit set of :class:`unokit.analysis.rounds.Mark`
in the round, separated by spaces; ``plays_*``: cards played by kind, ``lever_*``: the lever's
outcomes (Wild Jackpot), per match."""

FLUSH_ROWS = 10_000
"""Rows buffered before a batch is written."""


def row_format(path: str | Path) -> str:
    """``parquet`` or ``csv``, by the file's extension (refused otherwise)."""
    suffix = Path(path).suffix.lower()
    if suffix in (".parquet", ".pq"):
        return "parquet"
    if suffix == ".csv":
        return "csv"
    raise SetupError(f"rows file {path}: name it .parquet or .csv (the format follows the extension)")


def require_pyarrow() -> None:
    """Refuse Parquet when pyarrow is missing, naming the extra that brings it."""
    try:
        importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise SetupError("Parquet rows need pyarrow: pip install 'unokit[data]' (or write .csv)") from None


class RowWriter:
    """Writes rows to ``path`` (Parquet or CSV by its extension) in batches of :data:`FLUSH_ROWS`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.format = row_format(path)
        self.rows_written = 0
        self._buffer: list[Row] = []
        self._csv: TextIO | None = None
        self._csv_writer: Any = None
        self._parquet: Any = None
        if self.format == "parquet":
            require_pyarrow()
            pa: Any = importlib.import_module("pyarrow")
            pq: Any = importlib.import_module("pyarrow.parquet")
            types = {"int": pa.int64(), "str": pa.string()}
            self._schema = pa.schema([(name, types[kind]) for name, kind in COLUMNS])
            self._parquet = pq.ParquetWriter(self.path, self._schema)
        else:
            self._csv = self.path.open("w", encoding="utf-8", newline="")
            self._csv_writer = csv.DictWriter(self._csv, fieldnames=[name for name, _ in COLUMNS])
            self._csv_writer.writeheader()

    def write(self, rows: Sequence[Row]) -> None:
        """Add ``rows`` (dicts keyed by :data:`COLUMNS`; a missing key is empty)."""
        self._buffer.extend(rows)
        if len(self._buffer) >= FLUSH_ROWS:
            self.flush()

    def flush(self) -> None:
        """Write the buffered rows now."""
        if not self._buffer:
            return
        if self._parquet is not None:
            pa: Any = importlib.import_module("pyarrow")
            columns = {name: [row.get(name) for row in self._buffer] for name, _ in COLUMNS}
            self._parquet.write_table(pa.Table.from_pydict(columns, schema=self._schema))
        else:
            self._csv_writer.writerows(self._buffer)
        self.rows_written += len(self._buffer)
        self._buffer = []

    def close(self) -> None:
        """Write what is buffered and close the file (a Parquet file is readable only then)."""
        self.flush()
        if self._parquet is not None:
            self._parquet.close()
            self._parquet = None
        if self._csv is not None:
            self._csv.close()
            self._csv = None

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


def _words(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values)


def match_rows(setup: Any, seed: int, index: int, match: Any) -> list[Row]:
    """The rows of match ``index`` of ``seed`` under ``setup`` (a :class:`unokit.analysis.measures.Setup`):
    one per round, then the match's (``match`` a :class:`unokit.analysis.stats.MatchSummary`, or
    ``None`` when the cap stopped it)."""
    from unokit.analysis.measures import match_values, position_label, scores_after_rounds, side

    rules: Rules = setup.rules
    common: Row = {
        "setup": setup.label,
        "seed": seed,
        "match": index,
        "edition": setup.edition,
        "players": setup.players,
        "bots": ",".join(setup.bots),
        "rules": json.dumps(rules.to_dict(), sort_keys=True),
        "engine": setup.engine,
    }
    if match is None:
        return [{**common, "level": "match", "capped": 1}]
    rounds = len(match.round_winners)
    teams = rules.teams
    path = scores_after_rounds(setup, match)

    def at(values: Sequence[int], r: int) -> int | None:
        return values[r] if len(values) == rounds else None

    out: list[Row] = []
    known_marks = len(match.marks) == rounds
    for r in range(rounds):
        trailing = at(match.mid_trailing, r)
        winner = match.round_winners[r]
        blocked = at(match.blocked, r)
        out.append(
            {
                **common,
                "level": "round",
                "round": r + 1,
                "capped": 0,
                "dealer": match.dealers[r],
                "first_player": match.first_players[r] if match.first_players[r] >= 0 else None,
                "winner": winner,
                "decisions": match.decisions_per_round[r],
                "turns": at(match.turns, r),
                "cards_drawn": at(match.cards_drawn, r),
                "lead_changes": at(match.lead_changes, r),
                "mid_trailing": trailing if trailing is not None and trailing >= 0 else None,
                "comeback": (
                    int(side(trailing, teams) == side(winner, teams))
                    if trailing is not None and trailing >= 0
                    else None
                ),
                "blocked": blocked,
                "points": match.round_points[r],
                "scores": _words(path[r]) if path is not None else None,
                "marks": _words(match.marks[r]) if known_marks else None,
                **(
                    {f"mark_{m.key}": sum(bits >> m & 1 for bits in match.marks[r]) for m in Mark}
                    if known_marks
                    else {}
                ),
            }
        )
        if known_marks:
            dealer = match.dealers[r]
            for seat, bits in enumerate(match.marks[r]):
                position = (seat - dealer) % setup.players
                out.append(
                    {
                        **common,
                        "level": "seat",
                        "round": r + 1,
                        "seat": seat,
                        "position": position_label(position),
                        "won": int(side(seat, teams) == side(winner, teams)),
                        **{f"mark_{m.key}": bits >> m & 1 for m in Mark},
                    }
                )
    values = match_values(setup, match)
    comeback = values.get("comeback_match", (0, 0))
    plays = {plays_key(kind): count for kind, count in match.plays.items()}

    def total(values_: Sequence[int]) -> int | None:
        return sum(values_) if len(values_) == rounds else None

    behind = None
    if path is not None and rounds >= 2 and comeback[1]:
        scores = path[(rounds + 1) // 2 - 1]
        low = min(scores)
        behind = next(seat for seat, score in enumerate(scores) if score == low)
    out.append(
        {
            **common,
            "level": "match",
            "capped": 0,
            "rounds": rounds,
            "winner": match.winner,
            "decisions": sum(match.decisions_per_round),
            "turns": total(match.turns),
            "cards_drawn": total(match.cards_drawn),
            "lead_changes": values["lead_changes_per_match"][0]
            if "lead_changes_per_match" in values and path
            else None,
            "mid_trailing": behind,
            "comeback": comeback[0] if comeback[1] else None,
            "blocked": total(match.blocked),
            "points": sum(match.round_points),
            "scores": _words(match.scores),
            **{k: v for k, v in plays.items() if f"{k}" in _PLAY_COLUMNS},
            **(
                {f"lever_{o.replace('-', '_')}": c for o, c in zip(LEVER_OUTCOMES, match.levers, strict=True)}
                if setup.jackpot
                else {}
            ),
        }
    )
    return out


_PLAY_COLUMNS = frozenset(f"plays_{name}" for name in _SPECIAL_COLUMNS)
