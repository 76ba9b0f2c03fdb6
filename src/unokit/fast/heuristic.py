"""The heuristic bot compiled: :class:`unokit.bots.HeuristicBot`'s policy on the compiled engine of
:mod:`unokit.fast.engine`, so that whole games of heuristic bots run compiled.

Classic UNO, UNO Space Jam and UNO All Wild (:data:`BOT_EDITIONS`) under every rule option the
compiled engine plays (:data:`engine.SUPPORTED_OPTIONS`: the sheets' options and the house
rules), every decision as the Python bot takes it: turns (All Wild's own scoring), the drawn
card, colours, challenges, pending totals (``stacking``), sets of one number (``multi_play``), Space
Jam's Slam discards, targets (All Wild's cards, ``seven_swap``), UNO calls and catches, Jump-In
interrupts, partners (``teams``).  Three arrays per game, besides the game's state ``s``:

* ``memory`` (``int64``, :data:`MEMORY_SIZE`): what :class:`~unokit.bots.heuristic.RoundMemory`
  derives from the current round's public history: the cards known to be in the discard pile,
  the colours each player seemed not to hold (:func:`unokit.determinize.lacked_colours`, per
  viewer: a hand shown in a challenge is seen by the bluffer and the challenger only; swapped and
  passed on with the hands), who set the colour in play and how, the colour and its setter before
  each player's latest Wild Draw Four, each player's last three plays; then scratch space.
  :func:`update_memory` reads the events added to the engine's ring since its last call and must
  run after every action (as :func:`play_bots_game` does): a hand shown in a challenge is read
  from the state as that action leaves it.
* ``rngs`` (``int64``, ``MAX_PLAYERS`` rows of :data:`RNG_WORDS`): each seat's generator, the
  Mersenne Twister of :class:`random.Random` (its words, its index, its seed), seeded as
  ``random.Random(seed)`` is (when first drawn from).  The Python bots draw from their
  ``random.Random(seed)``: the heuristic to break a tie between the best-scoring cards
  (``rng.choice`` of the tied cards in card order), the random bot for every decision.  Drawing
  the same numbers the same way, the compiled bots make exactly the Python bots' choices, ties
  included.
* ``kinds`` (``int64`` per seat): :data:`HEURISTIC` or :data:`RANDOM` (the policy of
  :class:`unokit.bots.RandomBot`: a uniform legal move; each call, catch or jump-in on offer
  taken with probability 1/2).

:func:`bot_decision` is one step of :func:`unokit.bots.runner.play_match`: while someone may be
caught, every seat that may call or catch is asked ``wants_interrupt`` in seat order (the first
call or catch returned is applied); then, while a Jump-In window is open, every seat that may
jump in, in play order from the actor; else the actor is asked ``choose``.
:func:`play_bots_games` plays numbered games of a seed over numba's threads (each game
independent of the threads), every seat heuristic or the given seats heuristic and the others
random.  ``tests/test_fast_heuristic.py`` replays compiled games through :class:`unokit.Game` and
checks every decision against the Python bots.

A seat's decisions read only what its view shows: its own hand (and the card it drew), the hand
sizes, the table (colour, direction, pile sizes, the bluffer, the pending total, the Jump-In
card), its legal actions, the rules and its memory of the round's public events.  Like the
engine's, the functions allocate nothing (the memory carries the scratch space) and run without
numba's reference counting; only the batches allocate, once per thread.

>>> result = play_bots_games(4, 4, Rules(scoring="single-round"), seed=1)
>>> sorted(result), bool((result["winner"] >= 0).all())
(['decisions', 'rounds', 'scores', 'winner'], True)
>>> jam = play_bots_games(4, 4, Rules(scoring="single-round", stacking="cross"), seed=1, edition="space-jam")
>>> bool((jam["winner"] >= 0).all())
True
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

from unokit.actions import MAX_PLAYERS
from unokit.cards import Kind
from unokit.editions import get_edition
from unokit.errors import SetupError, UnknownOptionError
from unokit.fast import engine
from unokit.fast.engine import (
    ACTOR,
    BLUFFER,
    CALLS_UNO,
    CHALLENGE,
    COLOUR,
    COLOUR_IN_PLAY,
    COLOUR_OF,
    COLOURS_OF,
    DECK_OF,
    DECK_SIZE_OF,
    DIRECTION,
    DISCARD,
    DISCARD_COUNT,
    DRAW_COUNT,
    DRAWN,
    DRAWN_FACE,
    E_COLOUR,
    E_DEALER,
    E_DISCARD,
    E_DRAW,
    E_FLIP,
    E_PASS,
    E_PASS_HANDS,
    E_PLAY,
    E_RESHUFFLE,
    E_RETURN,
    E_REVEAL,
    E_SWAP,
    EDITION,
    EDITIONS,
    EFFECTS,
    EVENT_CAP,
    EVENT_TOTAL,
    EVENTS,
    EXPOSED_COUNT,
    FORCE_PLAY,
    FX_SEVEN,
    FX_ZERO,
    HANDS,
    ID_ACCEPT,
    ID_CALL_UNO,
    ID_CHALLENGE,
    ID_COLOUR,
    ID_DISCARD,
    ID_DRAW,
    ID_JUMP,
    ID_JUMP_UNO,
    ID_PASS,
    ID_PLAY_UNO,
    ID_TARGET,
    ID_WAIT,
    JUMP_CARD,
    KIND_OF,
    KNOCKOUT,
    LEGAL,
    MAX_FACES,
    MAX_SIZE,
    MAX_THREADS,
    MERCY,
    MULTI,
    MULTI_IDENTICAL,
    MULTI_MODE,
    MULTI_OFF,
    NCOL,
    NF,
    NO_COL,
    NUMBER_OF,
    OVER,
    PHASE,
    POINTS_OF,
    POLICY_RNG,
    RNG,
    ROUND,
    SCORES,
    SCORING,
    SINGLE_ROUND,
    SIZES,
    STACK,
    TARGET,
    TEAMS,
    TRACE_ON,
    TURN,
    WINNER,
    IntArray,
    N,
    _apply_legal,
    _copy,
    _mix32,
    _seed_words,
    legal_ids,
    start,
    template_state,
)
from unokit.rules import Rules

__all__ = [
    "HEURISTIC",
    "MEMORY_SIZE",
    "RANDOM",
    "RNG_WORDS",
    "bot_decision",
    "bot_seed",
    "heuristic_choose",
    "heuristic_interrupt",
    "new_table",
    "play_bots_game",
    "play_bots_games",
    "play_heuristic_games",
    "update_memory",
]

RANDOM, HEURISTIC = 0, 1
"""The kinds of bot a seat may play."""

CLOSE = 2
"""An opponent holding this many cards or fewer is close to going out (as the Python bot)."""
RESERVE = 1.2
"""All Wild: the share of a card's possible harm kept for later (``unokit.bots.heuristic.RESERVE``)."""
USELESS = -50.0
"""All Wild: the score of a Forced Swap that would not help (``unokit.bots.heuristic._USELESS``)."""

K_SKIP = int(Kind.SKIP)
K_REVERSE = int(Kind.REVERSE)
K_DRAW_TWO = int(Kind.DRAW_TWO)
K_SEVEN = int(Kind.SEVEN)
K_ZERO = int(Kind.ZERO)
K_WD4 = int(Kind.WILD_DRAW_FOUR)
K_JAM = int(Kind.WILD_JAM)
K_WILD_DRAW_TWO = int(Kind.WILD_DRAW_TWO)
K_WILD_SKIP = int(Kind.WILD_SKIP)
K_WILD_SKIP_TWO = int(Kind.WILD_SKIP_TWO)
K_WILD_REVERSE = int(Kind.WILD_REVERSE)
K_TARGETED = int(Kind.WILD_TARGETED_DRAW_TWO)
K_FORCED_SWAP = int(Kind.WILD_FORCED_SWAP)

DECK_COUNTS_OF = np.array(
    [np.bincount(DECK_OF[e, : DECK_SIZE_OF[e]], minlength=MAX_FACES) for e in range(len(EDITIONS))], dtype=np.int64
)
"""``DECK_COUNTS_OF[edition, face]``: copies of the face in the edition's deck."""
CARD_OF = np.array(
    [list(get_edition(name).faces) + [-1] * (MAX_FACES - len(get_edition(name).faces)) for name in EDITIONS],
    dtype=np.int64,
)
"""``CARD_OF[edition, face]``: the card (:mod:`unokit.cards`' integer, its hash in a Python set)."""
assert all((np.diff(CARD_OF[e, : len(get_edition(name).faces)]) > 0).all() for e, name in enumerate(EDITIONS))

EVERY_SEAT_HEURISTIC = np.full(MAX_PLAYERS, HEURISTIC, dtype=np.int64)
"""The kinds of a table of heuristic bots."""

# ---------------------------------------------------------------- the memory's layout

M_READ = 0
"""The engine's event count read so far."""
M_TOP = 1
"""The card last flipped or played (it stays when the pile is reshuffled)."""
M_COLOUR = 2
M_SETTER = 3
M_BY_CHOICE = 4
M_PENDING_SEAT = 5
"""A seat that drew one card (-1: none): it lacks the colour if its next event is a pass or play."""
M_PENDING_COLOUR = 6
M_PILE = 8
"""Per face: copies known to be in the discard pile."""
M_WD4_COLOUR = M_PILE + MAX_FACES
"""Per seat: the colour in play before its latest Wild Draw Four (``NO_COL``: none this round)."""
M_WD4_SETTER = M_WD4_COLOUR + MAX_PLAYERS
M_WD4_BY_CHOICE = M_WD4_SETTER + MAX_PLAYERS
M_PLAY_COUNT = M_WD4_BY_CHOICE + MAX_PLAYERS
M_PLAYS = M_PLAY_COUNT + MAX_PLAYERS
"""Per seat: its last three plays (play ``k`` at ``3 * seat + k % 3``)."""
M_LACKS = M_PLAYS + 3 * MAX_PLAYERS
"""``[viewer * MAX_PLAYERS + seat]``: bit ``c`` set when ``viewer`` infers ``seat`` lacks colour ``c``."""
M_IDS = M_LACKS + MAX_PLAYERS * MAX_PLAYERS
"""Scratch: legal action ids."""
M_TIES = M_IDS + MAX_SIZE + 1
"""Scratch: the cards tied for the best score."""
M_COUNTS = M_TIES + MAX_FACES
"""Scratch: per colour (wild cards as ``NO_COL``), the cards and the points in the hand."""
M_POINTS = M_COUNTS + NO_COL + 1
SET_ROOM = 128
"""The largest hash table of a Python set of at most 64 cards (it grows to 32 entries at the 5th
card, to 128 at the 19th, and to 512 only at the 77th)."""
assert MAX_FACES <= 64
M_SET = M_POINTS + NO_COL + 1
"""Scratch: a Python set's hash table (faces, -1 empty), and its previous table while it grows."""
M_SET_OLD = M_SET + SET_ROOM
MEMORY_SIZE = M_SET_OLD + SET_ROOM

if TYPE_CHECKING:  # numba's type hints do not name the option
    _jit = nb.njit(cache=True, nogil=True)
else:
    _jit = nb.njit(cache=True, nogil=True, _nrt=False)
"""As the engine's: these functions allocate nothing, so they run without numba's reference counting."""

# ---------------------------------------------------------------- the Mersenne Twister of random.Random

MT_N = 624
MT_M = 397
RNG_WORDS = MT_N + 2
"""A generator's words, its index (-1: not seeded yet), and the seed it is to be seeded with."""
_MASK32 = 0xFFFFFFFF


@_jit
def _mt_init(rng: IntArray, value: int) -> None:
    rng[0] = value
    for i in range(1, MT_N):
        previous = rng[i - 1]
        rng[i] = (1812433253 * (previous ^ (previous >> 30)) + i) & _MASK32
    rng[MT_N] = MT_N


@_jit
def mt_seed(rng: IntArray, seed: int) -> None:
    """Seed ``rng`` as ``random.Random(seed)`` seeds itself (``0 <= seed < 2**63``)."""
    _mt_init(rng, 19650218)
    words = 2 if seed >> 32 else 1
    i = 1
    j = 0
    for _ in range(max(MT_N, words)):
        previous = rng[i - 1]
        word = (seed >> 32) if j else (seed & _MASK32)
        rng[i] = ((rng[i] ^ ((previous ^ (previous >> 30)) * 1664525)) + word + j) & _MASK32
        i += 1
        j += 1
        if i >= MT_N:
            rng[0] = rng[MT_N - 1]
            i = 1
        if j >= words:
            j = 0
    for _ in range(MT_N - 1):
        previous = rng[i - 1]
        rng[i] = ((rng[i] ^ ((previous ^ (previous >> 30)) * 1566083941)) - i) & _MASK32
        i += 1
        if i >= MT_N:
            rng[0] = rng[MT_N - 1]
            i = 1
    rng[0] = 0x80000000


@_jit
def _mt_twist(rng: IntArray) -> None:
    for k in range(MT_N):
        y = (rng[k] & 0x80000000) | (rng[(k + 1) % MT_N] & 0x7FFFFFFF)
        value = rng[(k + MT_M) % MT_N] ^ (y >> 1)
        if y & 1:
            value ^= 0x9908B0DF
        rng[k] = value
    rng[MT_N] = 0


@_jit
def mt_seed_later(rng: IntArray, seed: int) -> None:
    """Seed ``rng`` as :func:`mt_seed` does when it is first drawn from (seeding takes a few
    thousand steps, and a heuristic bot draws only to break a tie, a few times a game)."""
    rng[MT_N] = -1
    rng[MT_N + 1] = seed


@_jit
def mt_next(rng: IntArray) -> int:
    """The next 32-bit output (``random.Random.getrandbits(32)``)."""
    if rng[MT_N] >= MT_N or rng[MT_N] < 0:
        if rng[MT_N] < 0:
            mt_seed(rng, rng[MT_N + 1])
        _mt_twist(rng)
    y = rng[rng[MT_N]]
    rng[MT_N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y  # type: ignore[no-any-return]


@_jit
def mt_below(rng: IntArray, n: int) -> int:
    """``random.Random._randbelow(n)`` (``0 < n < 2**32``): what ``choice`` of ``n`` items draws."""
    bits = 0
    while n >> bits:
        bits += 1
    value = mt_next(rng) >> (32 - bits)
    while value >= n:
        value = mt_next(rng) >> (32 - bits)
    return value


@_jit
def mt_random(rng: IntArray) -> float:
    """``random.Random.random()``."""
    a = mt_next(rng) >> 5
    b = mt_next(rng) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@_jit
def _bot_seed(seed: int, index: int, seat: int) -> int:
    return _mix32(_mix32(_mix32(seed & _MASK32) ^ (seed >> 32) ^ 0x5BD1E995) ^ index) ^ _mix32(0x68E31DA4 + seat)


def bot_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in game ``index`` of ``seed`` (a ``random.Random`` seed:
    ``HeuristicBot(seed=bot_seed(...))`` makes the same choices as the compiled bot)."""
    return int(_bot_seed(seed, index, seat))


# ---------------------------------------------------------------- the memory of the round


@_jit
def _reset_round(memory: IntArray) -> None:
    read = memory[M_READ]
    memory[:] = 0
    memory[M_READ] = read
    memory[M_TOP] = -1
    memory[M_COLOUR] = NO_COL
    memory[M_SETTER] = -1
    memory[M_PENDING_SEAT] = -1
    memory[M_PENDING_COLOUR] = NO_COL
    for seat in range(MAX_PLAYERS):
        memory[M_WD4_COLOUR + seat] = NO_COL
        memory[M_WD4_SETTER + seat] = -1


@_jit
def reset_memory(memory: IntArray) -> None:
    """An empty memory that has read no event (for a game just made)."""
    memory[M_READ] = 0
    _reset_round(memory)


@_jit
def _pass_lacks_on(memory: IntArray, n: int, step: int) -> None:
    """Every hand moved on ``step`` seats (a 0 under ``zero_pass``): what each viewer knows of a hand
    moves with it."""
    for viewer in range(n):
        row = M_LACKS + viewer * MAX_PLAYERS
        if step > 0:
            last = memory[row + n - 1]
            for seat in range(n - 1, 0, -1):
                memory[row + seat] = memory[row + seat - 1]
            memory[row] = last
        else:
            first = memory[row]
            for seat in range(n - 1):
                memory[row + seat] = memory[row + seat + 1]
            memory[row + n - 1] = first


@_jit
def update_memory(s: IntArray, memory: IntArray) -> int:
    """Read the events added since the last call (as :func:`~unokit.bots.heuristic.read_round` and
    :func:`~unokit.determinize.lacked_colours` read a round's history); returns how many, or -1 when
    more than the engine's ring keeps were added (the memory is then incomplete)."""
    total = s[EVENT_TOTAL]
    first = memory[M_READ]
    lost = total - first > EVENT_CAP
    if lost:
        first = total - EVENT_CAP
    n = s[N]
    e = s[EDITION]
    for index in range(first, total):
        at = EVENTS + 4 * (index % EVENT_CAP)
        kind = s[at]
        seat = s[at + 1]
        value = s[at + 2]
        face = s[at + 3]
        drawer = memory[M_PENDING_SEAT]
        if drawer >= 0:
            memory[M_PENDING_SEAT] = -1
            drawn_on = memory[M_PENDING_COLOUR]
            if seat == drawer and kind in (E_PASS, E_PLAY) and drawn_on != NO_COL:
                for viewer in range(n):
                    memory[M_LACKS + viewer * MAX_PLAYERS + drawer] |= 1 << drawn_on
        if kind == E_DEALER:
            _reset_round(memory)
        elif kind == E_FLIP:
            memory[M_TOP] = face
            memory[M_PILE + face] += 1
            memory[M_COLOUR] = COLOUR_OF[e, face]
        elif kind == E_RETURN:
            memory[M_PILE + face] -= 1
        elif kind == E_PLAY:
            memory[M_TOP] = face
            memory[M_PILE + face] += 1
            memory[M_PLAYS + 3 * seat + memory[M_PLAY_COUNT + seat] % 3] = face
            memory[M_PLAY_COUNT + seat] += 1
            if KIND_OF[e, face] == K_WD4:
                memory[M_WD4_COLOUR + seat] = memory[M_COLOUR]
                memory[M_WD4_SETTER + seat] = memory[M_SETTER]
                memory[M_WD4_BY_CHOICE + seat] = memory[M_BY_CHOICE]
            if COLOUR_OF[e, face] != NO_COL:
                memory[M_COLOUR] = COLOUR_OF[e, face]
                memory[M_SETTER] = seat
                memory[M_BY_CHOICE] = 0
        elif kind == E_DISCARD:  # a Slam's discard, under the top card
            memory[M_PILE + face] += 1
        elif kind == E_COLOUR:
            memory[M_COLOUR] = value
            memory[M_SETTER] = seat
            memory[M_BY_CHOICE] = 1
        elif kind == E_RESHUFFLE:
            for f in range(MAX_FACES):
                memory[M_PILE + f] = 0
            if memory[M_TOP] >= 0:
                memory[M_PILE + memory[M_TOP]] = 1
        elif kind == E_DRAW:
            for viewer in range(n):
                memory[M_LACKS + viewer * MAX_PLAYERS + seat] = 0
            if value == 1:
                memory[M_PENDING_SEAT] = seat
                memory[M_PENDING_COLOUR] = memory[M_COLOUR]
        elif kind == E_SWAP:  # the two hands trade places, and what is known of them
            for viewer in range(n):
                row = M_LACKS + viewer * MAX_PLAYERS
                memory[row + seat], memory[row + value] = memory[row + value], memory[row + seat]
        elif kind == E_PASS_HANDS:
            _pass_lacks_on(memory, n, value)
        elif kind == E_REVEAL:
            # The bluffer's hand, shown to the challenger (``value``) and known to the bluffer:
            # read as the challenge leaves it (the bluffer's draw, if any, comes next and clears this).
            hand = HANDS + seat * MAX_FACES
            shown = 0
            for f in range(s[NF]):
                if s[hand + f]:
                    shown |= 1 << COLOUR_OF[e, f]
            lacked = ~shown & ((1 << NO_COL) - 1)  # every colour but those shown (as lacked_colours counts them)
            memory[M_LACKS + value * MAX_PLAYERS + seat] = lacked
            memory[M_LACKS + seat * MAX_PLAYERS + seat] = lacked
    memory[M_READ] = total
    return -1 if lost else total - first


# ---------------------------------------------------------------- what every decision reads


@_jit
def _count_hand(s: IntArray, memory: IntArray, me: int) -> None:
    """Per colour (``NO_COL``: wild cards), the cards and points in ``me``'s hand, into the scratch."""
    e = s[EDITION]
    for c in range(NO_COL + 1):
        memory[M_COUNTS + c] = 0
        memory[M_POINTS + c] = 0
    hand = HANDS + me * MAX_FACES
    for f in range(s[NF]):
        k = s[hand + f]
        if k:
            memory[M_COUNTS + COLOUR_OF[e, f]] += k
            memory[M_POINTS + COLOUR_OF[e, f]] += k * POINTS_OF[e, f]


@_jit
def _partner(s: IntArray, me: int, seat: int) -> bool:
    """Whether ``seat`` is ``me``'s partner (house rule ``teams``: seats of one parity)."""
    return s[TEAMS] != 0 and seat != me and (seat - me) % 2 == 0


@_jit
def _closest(s: IntArray, me: int) -> int:
    """The fewest cards an opponent of ``me`` holds."""
    closest = 1 << 30
    for seat in range(s[N]):
        if seat != me and not _partner(s, me, seat):
            closest = min(closest, s[SIZES + seat])
    return closest


@_jit
def _leader(s: IntArray, me: int) -> int:
    """``_Context.leader`` of the opponents: the fewest cards, then the one who plays soonest."""
    n = s[N]
    direction = s[DIRECTION]
    best = -1
    best_size = 0
    best_distance = 0
    for seat in range(n):
        if seat == me or _partner(s, me, seat):
            continue
        size = s[SIZES + seat]
        distance = ((seat - me) * direction) % n
        if best < 0 or size < best_size or (size == best_size and distance < best_distance):
            best = seat
            best_size = size
            best_distance = distance
    return best


@_jit
def _unseen(s: IntArray, memory: IntArray, me: int, face: int) -> int:
    """Copies of ``face`` neither in ``me``'s hand nor known to be in the discard pile."""
    return max(0, DECK_COUNTS_OF[s[EDITION], face] - s[HANDS + me * MAX_FACES + face] - memory[M_PILE + face])  # type: ignore[no-any-return]


@_jit
def _keeps_wild(s: IntArray, memory: IntArray, me: int, closest: int) -> bool:
    """``HeuristicBot._keeps_wild`` in a coloured edition (the hand counted by :func:`_count_hand`)."""
    return memory[M_COUNTS + NO_COL] == 1 and closest > CLOSE + 1 and s[SIZES + me] >= 4 and s[DRAW_COUNT] > 0


@_jit
def _play_action(s: IntArray, me: int, face: int) -> int:
    """The action playing ``face``: its UNO-calling variant when that is legal (two cards held, and
    players call UNO)."""
    return s[ID_PLAY_UNO] + face if s[SIZES + me] == 2 and s[CALLS_UNO] else face


# ---------------------------------------------------------------- scores of the cards


@_jit
def _coloured_score(s: IntArray, memory: IntArray, me: int, face: int, closest: int, coloured_plays: bool) -> float:
    """``HeuristicBot._coloured_score`` (the same operations in the same order, so the same
    floating-point numbers and the same ties)."""
    n = s[N]
    e = s[EDITION]
    direction = s[DIRECTION]
    kind = KIND_OF[e, face]
    left = s[SIZES + me] - 1
    threat = closest <= CLOSE
    nxt = (me + direction) % n
    next_size = s[SIZES + nxt]
    dump = POINTS_OF[e, face] * (0.3 if threat and s[SCORING] != SINGLE_ROUND else 0.05)
    wilds = memory[M_COUNTS + NO_COL]
    if COLOUR_OF[e, face] == NO_COL:
        score = -20.0 if coloured_plays else 0.0
        if threat:
            score += 10
        if kind == K_WD4:
            bluff = memory[M_COUNTS + s[COLOUR_IN_PLAY]] > 0
            if next_size <= CLOSE:
                score += 15 if bluff else 30
            elif bluff:
                score -= 40
            else:
                score += 3 if next_size <= CLOSE + 2 else -2
        elif kind == K_JAM and left <= 2:
            score += 40  # a Slam then empties the hand
        return score + dump  # type: ignore[no-any-return]
    colour = COLOUR_OF[e, face]
    same = memory[M_COUNTS + colour] - 1
    score = 10.0 + 3 * same + dump
    multi = s[MULTI_MODE]
    if multi != MULTI_OFF and NUMBER_OF[e, face] >= 0:  # a set sheds the other cards of it at once
        hand = HANDS + me * MAX_FACES
        joining = 0
        if multi == MULTI_IDENTICAL:
            joining = s[hand + face]
        else:
            for f in range(s[NF]):
                if NUMBER_OF[e, f] == NUMBER_OF[e, face]:
                    joining += s[hand + f]
        score += 4 * joining - 4
    skips = kind in (K_SKIP, K_DRAW_TWO) or (kind == K_REVERSE and n == 2)
    if skips:
        if next_size <= CLOSE:
            score += 30 if kind == K_DRAW_TWO else 25
        elif n == 2 and (same > 0 or wilds > 0):
            score += 2
    if kind == K_DRAW_TWO and n > 2 and next_size <= CLOSE + 1:
        score += 10
    if skips and n > 2:
        after = (me + 2 * direction) % n
        if _partner(s, me, after) and s[SIZES + after] <= CLOSE:
            score += 20  # the partner close to going out plays next
    if kind == K_REVERSE and n > 2:
        prev_size = s[SIZES + (me - direction) % n]
        if next_size <= CLOSE < prev_size:
            score += 15
        elif prev_size <= CLOSE < next_size:
            score -= 10
    if (memory[M_LACKS + me * MAX_PLAYERS + nxt] >> colour) & 1:
        score += 3
    if left == 1 and wilds > 0:
        score += 5
    return score  # type: ignore[no-any-return]


@_jit
def _weight(s: IntArray, me: int, seat: int, closest: int) -> float:
    """All Wild: how much harm to ``seat`` counts (``weight`` in ``HeuristicBot._all_wild_score``)."""
    size = s[SIZES + seat]
    if seat == me:
        return 0.0
    if _partner(s, me, seat):  # harm to a partner counts against the card
        return -3.0 if size <= CLOSE else -1.0
    if size <= CLOSE:
        return 3.0
    return 1.0 if size == closest else 0.5


@_jit
def _all_wild_score(s: IntArray, me: int, face: int, closest: int) -> float:
    """``HeuristicBot._all_wild_score`` (the same operations in the same order)."""
    e = s[EDITION]
    n = s[N]
    direction = s[DIRECTION]
    kind = KIND_OF[e, face]
    left = s[SIZES + me] - 1
    if left == 0:
        return 100.0
    available = s[DRAW_COUNT] + s[DISCARD_COUNT]
    dump = POINTS_OF[e, face] / 50 if closest <= CLOSE and s[SCORING] != SINGLE_ROUND else 0.0
    nxt = (me + direction) % n
    if kind == K_FORCED_SWAP:
        gain = left - closest
        if gain > 0:
            return 1.0 + gain + 2 * _weight(s, me, _leader(s, me), closest) + dump  # type: ignore[no-any-return]
        hand = HANDS + me * MAX_FACES
        for f in range(s[NF]):
            if s[hand + f] and KIND_OF[e, f] != K_FORCED_SWAP:
                return USELESS  # never swap into a bigger hand
        return -10.0  # a hand of Forced Swaps can only go out by passing them on
    effect = 0.0
    potential = 0.0
    if kind == K_TARGETED:
        effect = min(2, available) * _weight(s, me, _leader(s, me), closest)
        potential = 2.0
    elif kind in (K_WILD_DRAW_TWO, K_WD4):
        count = 2 if kind == K_WILD_DRAW_TWO else 4
        effect = (min(count, available) + 1) * _weight(s, me, nxt, closest)
        potential = count + 1.0
    elif kind == K_WILD_SKIP or (kind == K_WILD_REVERSE and n == 2):
        effect = _weight(s, me, nxt, closest)
        potential = 1.0
    elif kind == K_WILD_SKIP_TWO:
        seat = me
        for _ in range(min(2, n - 1)):
            seat = (seat + direction) % n
            effect += _weight(s, me, seat, closest)
        potential = 2.0
    elif kind == K_WILD_REVERSE:
        next_size = s[SIZES + nxt]
        prev_size = s[SIZES + (me - direction) % n]
        effect = 1.0 if next_size <= CLOSE < prev_size else -1.0 if prev_size <= CLOSE < next_size else 0.0
    reserve = RESERVE * potential if closest > CLOSE and left > 3 else 0.0
    return 1.0 + effect - reserve + dump


# ---------------------------------------------------------------- the heuristic's decisions


@_jit
def _turn(s: IntArray, memory: IntArray, rng: IntArray, me: int, moves: int) -> int:
    """``HeuristicBot._turn``: the best-scoring playable card (ties: ``rng.choice`` of the tied cards
    in card order), or draw when no card plays, when only its one wild card plays and it keeps that
    in reserve, or (All Wild) when only Forced Swaps that would not help play."""
    e = s[EDITION]
    ids = memory[M_IDS : M_IDS + moves]
    plays = 0
    while plays < moves and ids[plays] < s[NF]:  # the plain plays come first, in card order
        plays += 1
    if plays == 0:
        return s[ID_DRAW]  # type: ignore[no-any-return]
    draw = ids[moves - 1] == s[ID_DRAW]
    closest = _closest(s, me)
    _count_hand(s, memory, me)
    colourless = s[NCOL] == 0
    coloured = False
    for i in range(plays):
        if COLOUR_OF[e, ids[i]] != NO_COL:
            coloured = True
    if not colourless and not coloured and draw and _keeps_wild(s, memory, me, closest):
        return s[ID_DRAW]  # type: ignore[no-any-return]
    top = -1e300
    ties = 0
    for i in range(plays):
        face = ids[i]
        if colourless:
            score = _all_wild_score(s, me, face, closest)
        else:
            score = _coloured_score(s, memory, me, face, closest, coloured)
        if score > top:
            top = score
            ties = 0
        if score == top:
            memory[M_TIES + ties] = face
            ties += 1
    if colourless and top <= USELESS and draw:
        return s[ID_DRAW]  # type: ignore[no-any-return]
    face = memory[M_TIES] if ties == 1 else memory[M_TIES + mt_below(rng, ties)]
    return _play_action(s, me, face)


@_jit
def _drawn(s: IntArray, memory: IntArray, me: int) -> int:
    """``HeuristicBot._drawn``: play the drawn card, unless it is a wild card kept in reserve (All
    Wild: a Forced Swap that would not help) and it may be kept."""
    face = s[DRAWN_FACE]
    closest = _closest(s, me)
    if s[NCOL] == 0:
        keep = _all_wild_score(s, me, face, closest) <= USELESS
    else:
        _count_hand(s, memory, me)
        keep = COLOUR_OF[s[EDITION], face] == NO_COL and _keeps_wild(s, memory, me, closest)
    if keep and not s[FORCE_PLAY]:
        return s[ID_PASS]  # type: ignore[no-any-return]
    return _play_action(s, me, face)


@_jit
def _colour(s: IntArray, memory: IntArray, me: int) -> int:
    """``HeuristicBot._colour``: not a colour a partner close to going out lacks, then the colour held
    most; ties: most points, a colour the next player seems to lack, the fewest cards unseen, then
    the first colour action."""
    e = s[EDITION]
    n = s[N]
    _count_hand(s, memory, me)
    lacks = memory[M_LACKS + me * MAX_PLAYERS + (me + s[DIRECTION]) % n]
    best = -1
    best_key = (0, 0, 0, 0, 0)
    for i in range(s[NCOL]):
        colour = COLOURS_OF[e, i]
        free = 0
        for f in range(s[NF]):
            if COLOUR_OF[e, f] == colour:
                free += _unseen(s, memory, me, f)
        lacking_partners = 0
        for partner in range(n):
            if _partner(s, me, partner) and s[SIZES + partner] <= CLOSE:
                lacking_partners += (memory[M_LACKS + me * MAX_PLAYERS + partner] >> colour) & 1
        key = (
            -lacking_partners,
            memory[M_COUNTS + colour],
            memory[M_POINTS + colour],
            (lacks >> colour) & 1,
            -free,
        )
        if best < 0 or key > best_key:
            best = i
            best_key = key
    return s[ID_COLOUR] + best  # type: ignore[no-any-return]


@_jit
def _stack(s: IntArray, memory: IntArray, moves: int) -> int:
    """``HeuristicBot._stack``: answer the pending total with the card worth the fewest points
    (calling UNO when that is legal; ties: the lowest action), else draw it."""
    e = s[EDITION]
    ids = memory[M_IDS : M_IDS + moves]
    play_uno = s[ID_PLAY_UNO]
    calls = False
    for i in range(moves):
        if play_uno <= ids[i] < s[ID_DRAW]:
            calls = True
    best = -1
    best_points = 0
    for i in range(moves):
        action = ids[i]
        if action >= s[ID_DRAW] or (calls and action < play_uno):
            continue
        face = action - play_uno if action >= play_uno else action
        if best < 0 or POINTS_OF[e, face] < best_points:
            best = action
            best_points = POINTS_OF[e, face]
    return best if best >= 0 else s[ID_ACCEPT]


@_jit
def _challenge(s: IntArray, memory: IntArray, me: int, moves: int) -> int:
    """``HeuristicBot._challenge``: challenge when the estimated chance that the bluffer held the
    colour in play, weighed by how often a holder plays a Wild Draw Four anyway, is above 0.3;
    answer the total instead when it may be stacked on."""
    if moves > 2:
        return _stack(s, memory, moves)
    e = s[EDITION]
    bluffer = s[BLUFFER]
    if bluffer < 0:
        return s[ID_ACCEPT]  # type: ignore[no-any-return]
    colour = memory[M_WD4_COLOUR + bluffer]
    if colour == NO_COL:
        return s[ID_ACCEPT]  # type: ignore[no-any-return]
    total = 0
    of_colour = 0
    for f in range(s[NF]):
        free = _unseen(s, memory, me, f)
        total += free
        if COLOUR_OF[e, f] == colour:
            of_colour += free
    held = s[SIZES + bluffer]
    none = 1.0
    for i in range(held):
        if total - i <= 0:
            break
        none *= max(0.0, (total - of_colour - i) / (total - i))
    holds = 1.0 - none
    if memory[M_WD4_SETTER + bluffer] == bluffer:
        holds = max(holds, 0.85 if memory[M_WD4_BY_CHOICE + bluffer] else 0.6)
    played = memory[M_PLAY_COUNT + bluffer]
    for back in (2, 3):  # plays[-3:-1]: the two plays before the latest
        if played >= back:
            card = memory[M_PLAYS + 3 * bluffer + (played - back) % 3]
            if COLOUR_OF[e, card] == colour:
                holds = max(holds, 0.6)
    if (memory[M_LACKS + me * MAX_PLAYERS + bluffer] >> colour) & 1:
        holds = min(holds, 0.1)
    guilty = holds * 0.5 / (holds * 0.5 + (1 - holds))
    return s[ID_CHALLENGE] if guilty > 0.3 else s[ID_ACCEPT]  # type: ignore[no-any-return]


@_jit
def _multi(s: IntArray, memory: IntArray, me: int, moves: int) -> int:
    """``HeuristicBot._multi``: add to the set of one number the card of the colour held least (the
    last card played sets the colour in play; ties: the lowest card); pass when nothing joins."""
    e = s[EDITION]
    ids = memory[M_IDS : M_IDS + moves]
    _count_hand(s, memory, me)
    best = -1
    for i in range(moves):
        face = ids[i]
        if face >= s[NF]:
            break
        if best < 0 or memory[M_COUNTS + COLOUR_OF[e, face]] < memory[M_COUNTS + COLOUR_OF[e, best]]:
            best = face
    if best < 0:
        return s[ID_PASS]  # type: ignore[no-any-return]
    return _play_action(s, me, best)


@_jit
def _set_slot(memory: IntArray, table: int, mask: int, hash_: int, face: int) -> int:
    """Where CPython's set puts a key of ``hash_`` (or finds ``face``) in the table at ``table``:
    ``set_add_entry``'s and ``set_insert_clean``'s probes (nine linear, then perturbed)."""
    i = hash_ & mask
    perturb = hash_
    while True:
        for j in range(10 if i + 9 <= mask else 1):
            held = memory[table + i + j]
            if held < 0 or held == face:
                return i + j
        perturb >>= 5
        i = (i * 5 + 1 + perturb) & mask


@_jit
def python_set_order(s: IntArray, memory: IntArray, me: int) -> int:
    """The faces of ``me``'s hand in the order ``set(view.hand)`` iterates them (CPython's hash table
    of the cards, added in card order; a card's hash is its integer), into ``memory[M_SET ...]``;
    returns how many."""
    e = s[EDITION]
    hand = HANDS + me * MAX_FACES
    mask = 7
    fill = 0
    for i in range(mask + 1):
        memory[M_SET + i] = -1
    for face in range(s[NF]):
        if not s[hand + face]:
            continue
        slot = _set_slot(memory, M_SET, mask, CARD_OF[e, face], face)
        memory[M_SET + slot] = face
        fill += 1
        if fill * 5 >= mask * 3:  # the table grows to more than four times the cards held, refilled in order
            size = 8
            while size <= fill * 4:
                size <<= 1
            for i in range(mask + 1):
                memory[M_SET_OLD + i] = memory[M_SET + i]
            old_mask = mask
            mask = size - 1
            for i in range(mask + 1):
                memory[M_SET + i] = -1
            for i in range(old_mask + 1):
                held = memory[M_SET_OLD + i]
                if held >= 0:
                    memory[M_SET + _set_slot(memory, M_SET, mask, CARD_OF[e, held], held)] = held
    count = 0
    for i in range(mask + 1):
        if memory[M_SET + i] >= 0:
            memory[M_SET + count] = memory[M_SET + i]
            count += 1
    return count


@_jit
def _discard(s: IntArray, memory: IntArray, me: int) -> int:
    """``HeuristicBot._discard`` (Space Jam's Slam): the first card of ``_shed_order``: wild cards last,
    then the most points, a lone card of a colour counting 8 more, 16 with no other of it; ties in
    the order ``set(hand)`` iterates (``sorted`` keeps it)."""
    e = s[EDITION]
    colourless = s[NCOL] == 0
    _count_hand(s, memory, me)
    count = python_set_order(s, memory, me)
    best = -1
    best_key = (0, 0)
    for i in range(count):
        face = memory[M_SET + i]
        if COLOUR_OF[e, face] == NO_COL and not colourless:
            key = (0, POINTS_OF[e, face])
        else:
            lone = 2 - min(2, memory[M_COUNTS + COLOUR_OF[e, face]] - 1)
            key = (1, POINTS_OF[e, face] + 8 * lone)
        if best < 0 or key > best_key:
            best = face
            best_key = key
    return s[ID_DISCARD] + best  # type: ignore[no-any-return]


@_jit
def _target(s: IntArray, me: int) -> int:
    """``HeuristicBot._target``: the opponent with the fewest cards (then the one who plays soonest)."""
    return s[ID_TARGET] + _leader(s, me)  # type: ignore[no-any-return]


@_jit
def _jumps(s: IntArray, me: int, action: int) -> bool:
    """``HeuristicBot._jump``: jump in, unless a Seven-O card would then give it a bigger hand (a 7
    swapped for the smallest other hand, a 0 bringing it the previous player's)."""
    e = s[EDITION]
    n = s[N]
    card = action - s[ID_JUMP_UNO] if action >= s[ID_JUMP_UNO] else action - s[ID_JUMP]
    left = s[SIZES + me] - 1
    if left == 0:
        return True
    kind = KIND_OF[e, card]
    if kind == K_SEVEN and s[EFFECTS + K_SEVEN] == FX_SEVEN:
        smallest = 1 << 30
        for seat in range(n):
            if seat != me:
                smallest = min(smallest, s[SIZES + seat])
        return smallest < left  # type: ignore[no-any-return]
    if kind == K_ZERO and s[EFFECTS + K_ZERO] == FX_ZERO:
        return s[SIZES + (me - s[DIRECTION]) % n] < left  # type: ignore[no-any-return]
    return True


@_jit
def heuristic_interrupt(s: IntArray, me: int) -> int:
    """``HeuristicBot.wants_interrupt``: call UNO for itself, else catch the lowest seat it may catch;
    else jump in (calling UNO when it may) when :func:`_jumps` says so; -1 for nothing."""
    count = legal_ids(s, me)
    jump = -1
    for i in range(count):
        action = s[LEGAL + i]
        if s[ID_CALL_UNO] <= action < s[ID_JUMP]:
            return action  # type: ignore[no-any-return]
        if action >= s[ID_JUMP]:
            jump = action  # the highest: the jump-in calling UNO when offered
    if jump >= 0 and _jumps(s, me, jump):
        return jump
    return -1


@_jit
def heuristic_choose(s: IntArray, memory: IntArray, rng: IntArray, me: int) -> int:
    """``HeuristicBot.choose`` for ``me`` (its memory up to date, ``rng`` its generator)."""
    ids = memory[M_IDS : M_IDS + MAX_SIZE + 1]
    count = legal_ids(s, me)
    moves = 0
    for i in range(count):
        ids[i] = s[LEGAL + i]
        if ids[i] < s[ID_CALL_UNO]:  # the moves come first; calls, catches and jump-ins last
            moves += 1
    if moves == 0:
        wanted = heuristic_interrupt(s, me)
        return wanted if wanted >= 0 else ids[0]
    if moves == 1:
        return ids[0]  # type: ignore[no-any-return]
    phase = s[PHASE]
    if phase == TURN:
        return _turn(s, memory, rng, me, moves)
    if phase == DRAWN:
        return _drawn(s, memory, me)
    if phase == COLOUR:
        return _colour(s, memory, me)
    if phase == CHALLENGE:
        return _challenge(s, memory, me, moves)
    if phase == STACK:
        return _stack(s, memory, moves)
    if phase == MULTI:
        return _multi(s, memory, me, moves)
    if phase == DISCARD:
        return _discard(s, memory, me)
    if phase == TARGET:
        return _target(s, me)
    return ids[0]  # type: ignore[no-any-return]


# ---------------------------------------------------------------- the random bot, the runner's step


@_jit
def random_choose(s: IntArray, memory: IntArray, rng: IntArray, me: int) -> int:
    """``RandomBot.choose``: a uniformly random move (calls and catches only when nothing else)."""
    ids = memory[M_IDS : M_IDS + MAX_SIZE + 1]
    count = legal_ids(s, me)
    moves = 0
    for i in range(count):
        ids[i] = s[LEGAL + i]
        if ids[i] < s[ID_CALL_UNO]:
            moves += 1
    if moves == 0:
        moves = count
    return ids[0] if moves == 1 else ids[mt_below(rng, moves)]  # type: ignore[no-any-return]


@_jit
def random_interrupt(s: IntArray, rng: IntArray, me: int) -> int:
    """``RandomBot.wants_interrupt``: each call or catch on offer, then each jump-in, taken with
    probability 1/2 (the first taken; -1 for none)."""
    count = legal_ids(s, me)
    for i in range(count):
        action = s[LEGAL + i]
        if action >= s[ID_CALL_UNO] and mt_random(rng) < 0.5:  # calls and catches, then jump-ins
            return action  # type: ignore[no-any-return]
    return -1


@_jit
def _offers(s: IntArray, seat: int, low: int, high: int) -> bool:
    """Whether ``seat`` has a legal action from ``low`` up to ``high`` (excluded)."""
    count = legal_ids(s, seat)
    for i in range(count):  # noqa: SIM110 (no generators in numba)
        if low <= s[LEGAL + i] < high:
            return True
    return False


@_jit
def _interrupt(s: IntArray, rngs: IntArray, kinds: IntArray, seat: int) -> int:
    if kinds[seat] == HEURISTIC:
        return heuristic_interrupt(s, seat)
    return random_interrupt(s, rngs[seat], seat)


@_jit
def bot_decision(s: IntArray, memory: IntArray, rngs: IntArray, kinds: IntArray) -> tuple[int, int]:
    """One step of :func:`unokit.bots.runner.play_match`: ``(seat, action)``.  While someone may be
    caught, each seat that may call or catch is asked, in seat order, whether it calls or catches
    (the first that does acts; a jump-in answered then waits); then, while a Jump-In window is
    open, each seat that may jump in, in play order from the actor; otherwise the actor chooses."""
    n = s[N]
    if s[EXPOSED_COUNT]:
        for seat in range(n):
            if not _offers(s, seat, s[ID_CALL_UNO], s[ID_JUMP]):
                continue
            wanted = _interrupt(s, rngs, kinds, seat)
            if wanted >= 0 and wanted < s[ID_JUMP]:
                return seat, wanted
    if s[JUMP_CARD] >= 0:
        seat = s[ACTOR]
        for _ in range(n - 1):
            seat = (seat + s[DIRECTION]) % n
            if not _offers(s, seat, s[ID_JUMP], s[ID_WAIT]):
                continue
            wanted = _interrupt(s, rngs, kinds, seat)
            if wanted >= 0:
                return seat, wanted
    seat = s[ACTOR]
    if kinds[seat] == HEURISTIC:
        return seat, heuristic_choose(s, memory, rngs[seat], seat)
    return seat, random_choose(s, memory, rngs[seat], seat)


@_jit
def heuristic_decision(s: IntArray, memory: IntArray, rngs: IntArray) -> tuple[int, int]:
    """:func:`bot_decision` at a table of heuristic bots."""
    return bot_decision(s, memory, rngs, EVERY_SEAT_HEURISTIC)


# ---------------------------------------------------------------- whole games


@_jit
def new_bots_game(s: IntArray, template: IntArray, memory: IntArray, rngs: IntArray, seed: int, index: int) -> None:
    """Deal game ``index`` of ``seed`` in ``s`` (the same deal as :func:`engine.play_random_game`'s),
    seed each seat's generator with :func:`bot_seed` and read the deal into ``memory``."""
    _copy(template, s)
    _seed_words(s, RNG, seed, 2 * index)
    _seed_words(s, POLICY_RNG, seed, 2 * index + 1)
    for seat in range(s[N]):
        mt_seed_later(rngs[seat], _bot_seed(seed, index, seat))
    start(s, -1)
    reset_memory(memory)
    update_memory(s, memory)


@_jit
def play_bots_game(
    s: IntArray,
    template: IntArray,
    memory: IntArray,
    rngs: IntArray,
    kinds: IntArray,
    seed: int,
    index: int,
    limit: int,
) -> int:
    """Play game ``index`` of ``seed`` to its end in ``s`` (from ``template``: rules set, nothing
    dealt), seat ``i`` played by a bot of ``kinds[i]``; returns the decisions taken (stops after
    ``limit``)."""
    new_bots_game(s, template, memory, rngs, seed, index)
    decisions = 0
    while s[PHASE] != OVER and decisions < limit:
        seat, action = bot_decision(s, memory, rngs, kinds)
        _apply_legal(s, seat, action)
        update_memory(s, memory)
        decisions += 1
    return decisions


@nb.njit(cache=True, nogil=True, parallel=True)
def _play_bots_batch(
    template: IntArray,
    kinds: IntArray,
    seed: int,
    first: int,
    decisions: IntArray,
    winners: IntArray,
    rounds: IntArray,
    scores: IntArray,
    limit: int,
) -> None:
    games = len(decisions)
    chunks = min(games, 64)
    n = template[N]
    for chunk in nb.prange(chunks):
        s = template.copy()
        memory = np.zeros(MEMORY_SIZE, dtype=np.int64)
        rngs = np.zeros((MAX_PLAYERS, RNG_WORDS), dtype=np.int64)
        for game in range(chunk * games // chunks, (chunk + 1) * games // chunks):
            decisions[game] = play_bots_game(s, template, memory, rngs, kinds, seed, first + game, limit)
            winners[game] = s[WINNER]
            rounds[game] = s[ROUND]
            for seat in range(n):
                scores[game, seat] = s[SCORES + seat]


def _kinds(players: int, heuristic_seats: Sequence[int] | None) -> IntArray:
    kinds = np.full(MAX_PLAYERS, HEURISTIC, dtype=np.int64)
    if heuristic_seats is not None:
        seats = list(heuristic_seats)
        if any(isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players for seat in seats):
            raise SetupError(f"heuristic seats must be seats from 0 to {players - 1}, not {seats!r}")
        kinds[:] = RANDOM
        kinds[seats] = HEURISTIC
    return kinds


def new_table(
    players: int,
    rules: Rules | None = None,
    *,
    seed: int = 0,
    index: int = 0,
    heuristic_seats: Sequence[int] | None = None,
    trace: bool = False,
    edition: str = "classic",
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Game ``index`` of ``seed`` of ``edition`` dealt as :func:`play_bots_games` deals it, for stepping
    with :func:`bot_decision`: ``(state, memory, rngs, kinds)``.  ``trace``: the state records its
    shuffles and random draws (see :meth:`engine.FastGame.trace`)."""
    template = bots_template(players, rules, edition)
    template[TRACE_ON] = 1 if trace else 0
    _check_seed(seed)
    s = template.copy()
    memory = np.zeros(MEMORY_SIZE, dtype=np.int64)
    rngs = np.zeros((MAX_PLAYERS, RNG_WORDS), dtype=np.int64)
    new_bots_game(s, template, memory, rngs, seed, index)
    return s, memory, rngs, _kinds(players, heuristic_seats)


BOT_EDITIONS = ("classic", "space-jam", "all-wild")
"""The editions the compiled bots play (UNO Wild Jackpot's lever and rule cards are the Python bots')."""
assert set(BOT_EDITIONS) < set(EDITIONS)


def bots_template(players: int, rules: Rules | None, edition: str) -> IntArray:
    """The template state of ``edition`` under ``rules`` for the compiled bots
    (:class:`~unokit.errors.UnknownOptionError` for an edition they do not play)."""
    state = template_state(players, rules, edition)  # refuses what the engine does not play
    if state[SCORING] == KNOCKOUT or state[MERCY]:
        option = "knockout scoring" if state[SCORING] == KNOCKOUT else "house rule 'mercy'"
        raise UnknownOptionError(f"the compiled bots do not play {option}; the Python bots do")
    if edition not in BOT_EDITIONS:
        raise UnknownOptionError(
            f"the compiled bots play {', '.join(BOT_EDITIONS)}, not {edition!r}; the Python bots play it"
        )
    return state


def _check_seed(seed: int) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**62:
        raise SetupError(f"seed must be an integer from 0 to 2**62 - 1, not {seed!r}")


def play_bots_games(
    games: int,
    players: int = 4,
    rules: Rules | None = None,
    *,
    seed: int = 0,
    first: int = 0,
    heuristic_seats: Sequence[int] | None = None,
    threads: int | None = None,
    limit: int = 1_000_000,
    edition: str = "classic",
) -> dict[str, IntArray]:
    """Play games ``first`` … ``first + games - 1`` of ``seed`` of ``edition``, the seats in
    ``heuristic_seats`` (default: every seat) played by the heuristic bot and the others by the
    random bot, on ``threads`` cores (default: all numba may use).  Each game depends only on
    ``seed`` and its number, never on the threads.  Returns per game ``decisions``, ``winner``,
    ``rounds`` and the final ``scores`` (games × players).  An edition or rule option the compiled
    engine does not play is refused (:class:`~unokit.errors.UnknownOptionError`)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise SetupError(f"games must be a number of games, not {games!r}")
    _check_seed(seed)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < 2**31:
        raise SetupError(f"first must be a game number from 0 to 2**31 - 1, not {first!r}")
    template = bots_template(players, rules, edition)
    kinds = _kinds(players, heuristic_seats)
    decisions = np.zeros(games, dtype=np.int64)
    winners = np.zeros(games, dtype=np.int64)
    rounds = np.zeros(games, dtype=np.int64)
    scores = np.zeros((games, players), dtype=np.int64)
    if games:
        previous = nb.get_num_threads()
        if threads is not None:
            nb.set_num_threads(max(1, min(threads, MAX_THREADS)))
        try:
            _play_bots_batch(template, kinds, seed, first, decisions, winners, rounds, scores, limit)
        finally:
            nb.set_num_threads(previous)
    return {"decisions": decisions, "winner": winners, "rounds": rounds, "scores": scores}


def play_heuristic_games(
    games: int,
    players: int = 4,
    rules: Rules | None = None,
    *,
    seed: int = 0,
    first: int = 0,
    threads: int | None = None,
    limit: int = 1_000_000,
    edition: str = "classic",
) -> dict[str, IntArray]:
    """:func:`play_bots_games` with every seat played by the heuristic bot."""
    return play_bots_games(games, players, rules, seed=seed, first=first, threads=threads, limit=limit, edition=edition)


# ---------------------------------------------------------------- a stale cache

_CLASSIC_STAMP = int(hashlib.sha256(Path(engine.__file__).read_bytes()).hexdigest()[:15], 16)
"""A digest of the compiled engine's source: numba's cache of this module keeps the engine's code
and constants as they were when it was compiled, and knows only this file's date."""


@_jit
def _compiled_stamp() -> int:
    return _CLASSIC_STAMP


def _refresh_cache() -> None:
    """Drop this module's cached machine code when it was compiled against another version of
    :mod:`unokit.fast.engine` (each function then compiles again on its first call)."""
    if _compiled_stamp() == _CLASSIC_STAMP:
        return
    for value in list(globals().values()):
        cache = getattr(value, "_cache", None)
        mine = getattr(getattr(value, "py_func", None), "__module__", None) == __name__
        if mine and cache is not None:
            cache.flush()
    _compiled_stamp.recompile()


_refresh_cache()


# ---------------------------------------------------------------- playouts of a search


def memory_for_position(state: IntArray, lacked: Sequence[set[int]] | None = None) -> IntArray:
    """A memory for a position made by :func:`engine.state_from_game` (whose event log is empty):
    the discard pile as the cards known to be in it, the top card and colour in play, and the
    colours each player seems to lack (``lacked``, per seat, as :func:`unokit.determinize.lacked_colours`
    gives them to one viewer; taken as every viewer's)."""
    memory = np.zeros(MEMORY_SIZE, dtype=np.int64)
    reset_memory(memory)
    memory[M_READ] = state[EVENT_TOTAL]
    faces = int(state[NF])
    memory[M_PILE : M_PILE + faces] = state[engine.DISCARD_FACES : engine.DISCARD_FACES + faces]
    if state[engine.DISCARD_COUNT]:
        memory[M_TOP] = state[engine.DISCARD_PILE + state[engine.DISCARD_COUNT] - 1]
    memory[M_COLOUR] = state[engine.COLOUR_IN_PLAY]
    n = int(state[N])
    for seat, colours in enumerate(lacked or ()):
        bits = sum(1 << colour for colour in colours if 0 <= colour < NO_COL)
        for viewer in range(n):
            memory[M_LACKS + viewer * MAX_PLAYERS + seat] = bits
    return memory


@_jit
def heuristic_playout(s: IntArray, memory: IntArray, rngs: IntArray, limit: int) -> int:
    """Finish the round in ``s`` with a heuristic bot at every seat (the table of a search that
    expects its opponents to play as the heuristic does); the seat that wins the round, or after
    ``limit`` decisions the first seat holding the fewest cards."""
    ended = s[engine.ROUNDS_ENDED]
    for _ in range(limit):
        if s[PHASE] == OVER or s[engine.ROUNDS_ENDED] != ended:
            break
        seat, action = heuristic_decision(s, memory, rngs)
        _apply_legal(s, seat, action)
        update_memory(s, memory)
    if s[engine.ROUNDS_ENDED] != ended:
        return s[engine.ROUND_WINNER]  # type: ignore[no-any-return]
    fewest = 0
    for seat in range(s[N]):
        if s[engine.SIZES + seat] < s[engine.SIZES + fewest]:
            fewest = seat
    return fewest


def new_generators() -> IntArray:
    """Room for every seat's generator (seed each with :func:`mt_seed_later` before use)."""
    return np.zeros((MAX_PLAYERS, RNG_WORDS), dtype=np.int64)


# ---------------------------------------------------------------- statistics of whole matches

STATS_ROUNDS = 64
"""Rounds a match may last for :func:`play_stats_games` (a longer match is left out, as unfinished)."""
KINDS = max(int(kind) for kind in Kind) + 1
"""Card kinds counted in the plays (``unokit.cards.Kind``)."""


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
) -> bool:
    """Play game ``index`` as :func:`play_bots_game` does, writing per round (rows: decisions,
    dealer, first player, winner, points left in the other hands) into ``per_round`` and the cards
    played by kind into ``plays``; whether it finished within ``limit`` decisions and
    :data:`STATS_ROUNDS` rounds."""
    new_bots_game(s, template, memory, rngs, seed, index)
    per_round[:] = 0
    per_round[1:4] = -1
    plays[:] = 0
    read = 0
    in_hands = 0
    decisions = 0
    while True:
        total = s[engine.EVENT_TOTAL]
        for event in range(read, total):  # the events of the last decision (the ring keeps them all)
            at = engine.EVENTS + 4 * (event % EVENT_CAP)
            kind = s[at]
            if kind == engine.E_DEALER:
                if s[at + 2] <= STATS_ROUNDS:
                    per_round[1, s[at + 2] - 1] = s[at + 1]
                in_hands = 0
            elif kind == engine.E_HAND:
                in_hands += s[at + 2]
            elif kind == engine.E_ROUND_END:
                r = s[ROUND] - 1 if s[PHASE] == OVER else s[ROUND] - 2
                if 0 <= r < STATS_ROUNDS:
                    per_round[3, r] = s[at + 1]
                    per_round[4, r] = in_hands
            elif kind == engine.E_PLAY:
                plays[KIND_OF[s[EDITION], s[at + 3]]] += 1
        read = total
        if s[PHASE] == OVER:
            return bool(s[ROUND] <= STATS_ROUNDS)
        if decisions >= limit or s[ROUND] > STATS_ROUNDS:
            return False
        r = s[ROUND] - 1
        seat, action = bot_decision(s, memory, rngs, kinds)
        per_round[0, r] += 1
        if action < s[ID_CALL_UNO] and s[PHASE] == TURN and per_round[2, r] < 0:
            per_round[2, r] = seat
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
    scores: IntArray,
    winners: IntArray,
    rounds: IntArray,
) -> None:
    games = len(finished)
    chunks = min(games, 64)
    n = template[N]
    for chunk in nb.prange(chunks):
        s = template.copy()
        memory = np.zeros(MEMORY_SIZE, dtype=np.int64)
        rngs = np.zeros((MAX_PLAYERS, RNG_WORDS), dtype=np.int64)
        for game in range(chunk * games // chunks, (chunk + 1) * games // chunks):
            done = _play_stats_game(
                s, template, memory, rngs, kinds, seed, first + game, limit, per_round[game], plays[game]
            )
            finished[game] = 1 if done else 0
            winners[game] = s[WINNER]
            rounds[game] = s[ROUND]
            for seat in range(n):
                scores[game, seat] = s[SCORES + seat]


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
) -> dict[str, IntArray]:
    """:func:`play_bots_games` keeping what ``unokit stats`` reports of each match: ``finished``
    (within ``limit`` decisions and :data:`STATS_ROUNDS` rounds), ``per_round`` (games × 5 ×
    rounds: decisions, dealer, first player, winner, points left in the other hands), ``plays``
    (games × card kinds), ``scores``, ``winner`` and ``rounds``."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise SetupError(f"games must be a number of games, not {games!r}")
    _check_seed(seed)
    template = bots_template(players, rules, edition)
    kinds = _kinds(players, heuristic_seats)
    out = {
        "finished": np.zeros(games, dtype=np.int64),
        "per_round": np.zeros((games, 5, STATS_ROUNDS), dtype=np.int64),
        "plays": np.zeros((games, KINDS), dtype=np.int64),
        "scores": np.zeros((games, players), dtype=np.int64),
        "winner": np.zeros(games, dtype=np.int64),
        "rounds": np.zeros(games, dtype=np.int64),
    }
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
                out["scores"],
                out["winner"],
                out["rounds"],
            )
        finally:
            nb.set_num_threads(previous)
    return out
