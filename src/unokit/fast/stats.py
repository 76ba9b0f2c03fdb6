"""Statistics of whole matches on the compiled engine: what ``unokit stats`` keeps of each match,
and each round's records (:mod:`unokit.analysis.rounds`) computed as the Python engine's
:class:`~unokit.analysis.rounds.RoundTracker` computes them.

:func:`play_stats_games` plays numbered matches of compiled bots (as
:func:`unokit.fast.heuristic.play_bots_games` deals and plays them) and returns arrays: per round
the rows of :data:`PER_ROUND_ROWS`, per round and seat the :class:`~unokit.analysis.rounds.Mark`
bits.  A round's events are read from the engine's ring after each decision (the ring keeps every
event of one decision), the hand sizes from the state before each decision; the seat trailing
before each of a round's first :data:`~unokit.analysis.rounds.MID_ROOM` decisions is kept, so that
the middle one is known when the round ends.  ``tests/test_round_records.py`` replays compiled
matches through :class:`unokit.Game` and checks every array against the tracker's records.

>>> out = play_stats_games(2, 3, Rules(scoring="single-round"), seed=1)
>>> out["per_round"].shape[1:] == (len(PER_ROUND_ROWS), STATS_ROUNDS), out["marks"].shape[1:]
(True, (64, 3))
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from unokit.fast import MISSING_EXTRA

try:
    import numba as nb
    import numpy as np
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(MISSING_EXTRA) from error

from unokit.analysis import rounds
from unokit.analysis.rounds import LEVER_MARKS, MARK_OF_KIND, MID_ROOM, Mark
from unokit.engine.actions import MAX_PLAYERS
from unokit.engine.cards import Kind
from unokit.engine.errors import SetupError
from unokit.engine.rules import Rules
from unokit.fast import engine, heuristic, order
from unokit.fast.engine import (
    DRAW_VALUES,
    E_BLOCKED,
    E_BOMB,
    E_CATCH,
    E_CHALLENGE,
    E_DEALER,
    E_DEFLECT,
    E_DRAW,
    E_HAND,
    E_JUMP,
    E_LEVER,
    E_MERCY,
    E_PASS_HANDS,
    E_PLAY,
    E_ROUND_END,
    E_RULE,
    E_SKIP,
    E_STACK,
    E_STACK_DRAW,
    E_SWAP,
    E_VERDICT,
    EDITION,
    EVENT_CAP,
    EVENT_TOTAL,
    EVENTS,
    ID_CALL_UNO,
    JACKPOT,
    KIND_OF,
    LEVER_PULLS,
    MAX_THREADS,
    OUT,
    OVER,
    PHASE,
    ROUND,
    RULE_VERB,
    SCORES,
    SIZES,
    TURN,
    V_HONOUR,
    WINNER,
    IntArray,
    N,
    _apply_legal,
)
from unokit.fast.heuristic import (
    RNG_WORDS,
    _check_seed,
    _kinds,
    bot_decision,
    bots_template,
    memory_words,
    new_bots_game,
    update_memory,
)

__all__ = ["KINDS", "PER_ROUND_ROWS", "STATS_ROUNDS", "play_stats_games"]

if TYPE_CHECKING:  # numba's type hints do not name the option
    _jit = nb.njit(cache=True, nogil=True)
else:
    _jit = nb.njit(cache=True, nogil=True, _nrt=False)
"""As the engine's: these functions allocate nothing (the batch allocates, once per thread)."""

STATS_ROUNDS = 64
"""Rounds a match may last for :func:`play_stats_games` (a longer match is left out, as unfinished)."""
KINDS = max(int(kind) for kind in Kind) + 1
"""Card kinds counted in the plays (``unokit.engine.cards.Kind``)."""
PER_ROUND_ROWS = (
    "decisions",
    "dealer",
    "first_player",
    "winner",
    "points",
    "turns",
    "cards_drawn",
    "lead_changes",
    "mid_trailing",
    "blocked",
)
"""The rows of ``per_round``, each defined as the field of ``unokit.analysis.stats.MatchSummary`` of
that name (``points``: ``round_points``, the points left in the other hands)."""
(R_DECISIONS, R_DEALER, R_FIRST, R_WINNER, R_POINTS, R_TURNS, R_DRAWN, R_LEADS, R_MID, R_BLOCKED) = range(
    len(PER_ROUND_ROWS)
)

MARK_BIT_OF_KIND = np.full(KINDS, -1, dtype=np.int64)
"""``MARK_BIT_OF_KIND[kind]``: the ``PLAYED_*`` mark of a card kind (-1: none)."""
for _kind, _played in MARK_OF_KIND.items():
    MARK_BIT_OF_KIND[_kind] = int(_played)
LEVER_BIT = int(LEVER_MARKS[0])
"""The mark of the lever's first outcome (outcome ``k`` is ``LEVER_BIT + k - 1``)."""
assert [int(m) for m in LEVER_MARKS] == list(range(LEVER_BIT, LEVER_BIT + 6))
B_RULE_ENFORCED, B_RULE_HONOUR = int(Mark.RULE_ENFORCED), int(Mark.RULE_HONOUR)
B_STACKED, B_DEFLECTED, B_DREW_STACK = int(Mark.STACKED), int(Mark.DEFLECTED), int(Mark.DREW_STACK)
B_PASSED_HANDS, B_SWAPPED, B_WAS_SWAPPED = int(Mark.PASSED_HANDS), int(Mark.SWAPPED_HANDS), int(Mark.WAS_SWAPPED)
B_JUMPED_IN, B_LOST_TO_JUMP, B_BOMB = int(Mark.JUMPED_IN), int(Mark.LOST_TO_JUMP), int(Mark.BOMB)
B_MERCY_OUT, B_CHALLENGE_WON, B_CHALLENGE_LOST = int(Mark.MERCY_OUT), int(Mark.CHALLENGE_WON), int(Mark.CHALLENGE_LOST)
B_WAS_CHALLENGED, B_CAUGHT, B_WAS_CAUGHT = int(Mark.WAS_CHALLENGED), int(Mark.CAUGHT), int(Mark.WAS_CAUGHT)
B_SKIPPED = int(Mark.SKIPPED)


@_jit
def _mark(marks: IntArray, r: int, seat: int, bit: int) -> None:
    if 0 <= r < STATS_ROUNDS and seat >= 0:
        marks[r, seat] |= 1 << bit


@_jit
def _play_stats_game(
    s: IntArray,
    template: IntArray,
    memory: IntArray,
    rngs: IntArray,
    kinds: IntArray,
    seed: int,
    index: int,
    limit: int,
    per_round: IntArray,
    plays: IntArray,
    marks: IntArray,
    trailing: IntArray,
) -> bool:
    """Play game ``index`` as :func:`unokit.fast.heuristic.play_bots_game` does, writing per round
    the rows of :data:`PER_ROUND_ROWS` into ``per_round``, per round and seat the marks into
    ``marks`` and the cards played by kind into ``plays`` (``trailing``: room for
    :data:`~unokit.analysis.rounds.MID_ROOM` seats); whether it finished within ``limit`` decisions
    and :data:`STATS_ROUNDS` rounds."""
    new_bots_game(s, template, memory, rngs, seed, index)
    per_round[:] = 0
    per_round[R_DEALER : R_WINNER + 1] = -1
    per_round[R_MID] = -1
    plays[:] = 0
    marks[:] = 0
    n = s[N]
    edition = s[EDITION]
    read = 0
    in_hands = 0
    decisions = 0
    r = -1  # the round of the events read (from 0)
    leader = -1  # the last seat seen holding the fewest cards alone in the round
    changes = 0
    last_face = -1
    challenger = -1
    while True:
        total = s[EVENT_TOTAL]
        for event in range(read, total):  # the events of the last decision (the ring keeps them all)
            at = EVENTS + 4 * (event % EVENT_CAP)
            kind = s[at]
            seat = s[at + 1]
            value = s[at + 2]
            keep = 0 <= r < STATS_ROUNDS
            if kind == E_DEALER:
                r = value - 1
                if r < STATS_ROUNDS:
                    per_round[R_DEALER, r] = seat
                in_hands = 0
                leader = -1
                changes = 0
            elif kind == E_HAND:
                in_hands += value
            elif kind == E_ROUND_END:
                if leader >= 0 and seat != leader:
                    changes += 1
                if keep:
                    per_round[R_WINNER, r] = seat
                    per_round[R_POINTS, r] = in_hands
                    per_round[R_LEADS, r] = changes
                    middle = per_round[R_DECISIONS, r] // 2
                    per_round[R_MID, r] = trailing[middle] if middle < min(per_round[R_DECISIONS, r], MID_ROOM) else -1
            elif kind == E_PLAY:
                last_face = s[at + 3]
                card_kind = KIND_OF[edition, last_face]
                plays[card_kind] += 1
                if MARK_BIT_OF_KIND[card_kind] >= 0:
                    _mark(marks, r, seat, MARK_BIT_OF_KIND[card_kind])
            elif kind == E_DRAW:
                if keep:
                    per_round[R_DRAWN, r] += value
            elif kind == E_BLOCKED:
                if keep:
                    per_round[R_BLOCKED, r] = 1
            elif kind == E_SKIP:
                _mark(marks, r, seat, B_SKIPPED)
            elif kind == E_CHALLENGE:
                challenger = seat
                _mark(marks, r, value, B_WAS_CHALLENGED)
            elif kind == E_VERDICT:
                if challenger >= 0:
                    _mark(marks, r, challenger, B_CHALLENGE_WON if value else B_CHALLENGE_LOST)
                challenger = -1
            elif kind == E_CATCH:
                _mark(marks, r, seat, B_CAUGHT)
                _mark(marks, r, value, B_WAS_CAUGHT)
            elif kind == E_LEVER:
                _mark(marks, r, seat, LEVER_BIT + value - 1)
            elif kind == E_RULE:
                _mark(marks, r, seat, B_RULE_HONOUR if s[RULE_VERB + value] == V_HONOUR else B_RULE_ENFORCED)
            elif kind == E_STACK:
                if last_face >= 0 and value > s[DRAW_VALUES + KIND_OF[edition, last_face]]:
                    _mark(marks, r, seat, B_STACKED)
            elif kind == E_DEFLECT:
                _mark(marks, r, seat, B_DEFLECTED)
            elif kind == E_STACK_DRAW:
                _mark(marks, r, seat, B_DREW_STACK)
            elif kind == E_PASS_HANDS:
                _mark(marks, r, seat, B_PASSED_HANDS)
            elif kind == E_SWAP:
                _mark(marks, r, seat, B_SWAPPED)
                _mark(marks, r, value, B_WAS_SWAPPED)
            elif kind == E_JUMP:
                _mark(marks, r, seat, B_JUMPED_IN)
                _mark(marks, r, value, B_LOST_TO_JUMP)
            elif kind == E_BOMB:
                _mark(marks, r, seat, B_BOMB)
            elif kind == E_MERCY:
                _mark(marks, r, seat, B_MERCY_OUT)
        read = total
        if s[PHASE] == OVER:
            return bool(s[ROUND] <= STATS_ROUNDS)
        if decisions >= limit or s[ROUND] > STATS_ROUNDS:
            return False
        now = s[ROUND] - 1
        fewest = most = -1
        fewest_shared = most_shared = False
        for seat in range(n):  # the seats in the round holding the fewest and the most cards alone
            if (s[OUT] >> seat) & 1:
                continue
            size = s[SIZES + seat]
            if fewest < 0 or size < s[SIZES + fewest]:
                fewest, fewest_shared = seat, False
            elif size == s[SIZES + fewest]:
                fewest_shared = True
            if most < 0 or size > s[SIZES + most]:
                most, most_shared = seat, False
            elif size == s[SIZES + most]:
                most_shared = True
        if fewest >= 0 and not fewest_shared:
            if leader >= 0 and fewest != leader:
                changes += 1
            leader = fewest
        if per_round[R_DECISIONS, now] < MID_ROOM:
            trailing[per_round[R_DECISIONS, now]] = -1 if most_shared else most
        seat, action = bot_decision(s, memory, rngs, kinds)
        per_round[R_DECISIONS, now] += 1
        if action < s[ID_CALL_UNO] and s[PHASE] == TURN:
            per_round[R_TURNS, now] += 1
            if per_round[R_FIRST, now] < 0:
                per_round[R_FIRST, now] = seat
        _apply_legal(s, seat, action)
        update_memory(s, memory)
        decisions += 1


@nb.njit(cache=True, nogil=True, parallel=True)
def _play_stats_batch(
    template: IntArray,
    kinds: IntArray,
    seed: int,
    first: int,
    limit: int,
    finished: IntArray,
    per_round: IntArray,
    plays: IntArray,
    marks: IntArray,
    scores: IntArray,
    winners: IntArray,
    rounds: IntArray,
    jackpot: IntArray,
    words: int,
) -> None:
    games = len(finished)
    chunks = min(games, 64)
    n = template[N]
    for chunk in nb.prange(chunks):
        s = template.copy()
        memory = np.zeros(words, dtype=np.int64)
        rngs = np.zeros((MAX_PLAYERS, RNG_WORDS), dtype=np.int64)
        trailing = np.zeros(MID_ROOM, dtype=np.int64)
        for game in range(chunk * games // chunks, (chunk + 1) * games // chunks):
            done = _play_stats_game(
                s,
                template,
                memory,
                rngs,
                kinds,
                seed,
                first + game,
                limit,
                per_round[game],
                plays[game],
                marks[game],
                trailing,
            )
            finished[game] = 1 if done else 0
            winners[game] = s[WINNER]
            rounds[game] = s[ROUND]
            for seat in range(n):
                scores[game, seat] = s[SCORES + seat]
            for k in range(8):
                jackpot[game, k] = s[LEVER_PULLS + k]


def play_stats_games(
    games: int,
    players: int = 4,
    rules: Rules | None = None,
    *,
    seed: int = 0,
    first: int = 0,
    heuristic_seats: Sequence[int] | None = None,
    threads: int | None = None,
    limit: int = 30_000,
    edition: str = "classic",
    rule_cards: Sequence[str] | None = None,
) -> dict[str, IntArray]:
    """:func:`unokit.fast.heuristic.play_bots_games` keeping what ``unokit stats`` reports of each
    match: ``finished`` (within ``limit`` decisions and :data:`STATS_ROUNDS` rounds), ``per_round``
    (games × rows × rounds: the rows of :data:`PER_ROUND_ROWS`), ``marks`` (games × rounds × players:
    each seat's :class:`~unokit.analysis.rounds.Mark` bits), ``plays`` (games × card kinds),
    ``scores``, ``winner`` and ``rounds``; Wild Jackpot's also ``levers`` (games × 6: the lever's
    outcomes pulled) and ``rules_performed`` (games × 2: enforced, honour tasks), with
    ``rule_cards`` the texts every match plays with (default: drawn from the sheet)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise SetupError(f"games must be a number of games, not {games!r}")
    _check_seed(seed)
    template = bots_template(players, rules, edition, rule_cards)
    kinds = _kinds(players, heuristic_seats)
    out = {
        "finished": np.zeros(games, dtype=np.int64),
        "per_round": np.zeros((games, len(PER_ROUND_ROWS), STATS_ROUNDS), dtype=np.int64),
        "marks": np.zeros((games, STATS_ROUNDS, players), dtype=np.int64),
        "plays": np.zeros((games, KINDS), dtype=np.int64),
        "scores": np.zeros((games, players), dtype=np.int64),
        "winner": np.zeros(games, dtype=np.int64),
        "rounds": np.zeros(games, dtype=np.int64),
    }
    jackpot = np.zeros((games, 8), dtype=np.int64)
    if games:
        previous = nb.get_num_threads()
        if threads is not None:
            nb.set_num_threads(max(1, min(threads, MAX_THREADS)))
        try:
            _play_stats_batch(
                template,
                kinds,
                seed,
                first,
                limit,
                out["finished"],
                out["per_round"],
                out["plays"],
                out["marks"],
                out["scores"],
                out["winner"],
                out["rounds"],
                jackpot,
                memory_words(template),
            )
        finally:
            nb.set_num_threads(previous)
    if template[JACKPOT]:
        out.update(levers=jackpot[:, :6], rules_performed=jackpot[:, 6:])
    return out


# ---------------------------------------------------------------- a stale cache

_SOURCES = b"".join(Path(str(module.__file__)).read_bytes() for module in (engine, heuristic, order, rounds))
_STAMP = int(hashlib.sha256(_SOURCES).hexdigest()[:15], 16)
"""A digest of the sources this module's compiled code takes functions and constants from: numba's
cache of this module knows only this file's date."""


@_jit
def _compiled_stamp() -> int:
    return _STAMP


def _refresh_cache() -> None:
    """Drop this module's cached machine code when it was compiled against other versions of the
    modules it calls (each function then compiles again on its first call)."""
    if _compiled_stamp() == _STAMP:
        return
    for value in list(globals().values()):
        cache = getattr(value, "_cache", None)
        mine = getattr(getattr(value, "py_func", None), "__module__", None) == __name__
        if mine and cache is not None:
            cache.flush()
    _compiled_stamp.recompile()


_refresh_cache()
