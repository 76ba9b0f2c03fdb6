"""The heuristic bot compiled: :class:`unokit.bots.HeuristicBot`'s policy for Classic UNO on the
compiled engine of :mod:`unokit.fast.engine`, so that whole games of heuristic bots run compiled.

Classic UNO with the sheet's options only (the compiled engine's; no house rule, no other
edition).  Three arrays per game, besides the game's state ``s``:

* ``memory`` (``int64``, :data:`MEMORY_SIZE`): what :class:`~unokit.bots.heuristic.RoundMemory`
  derives from the current round's public history: the cards known to be in the discard pile,
  the colours each player seemed not to hold (:func:`unokit.determinize.lacked_colours`, per
  viewer: a hand shown in a challenge is seen by the bluffer and the challenger only), who set
  the colour in play and how, the colour and its setter before each player's latest Wild Draw
  Four, each player's last three plays.  :func:`update_memory` reads the events added to the
  engine's ring since its last call and must run after every action (as :func:`play_bots_game`
  does): a hand shown in a challenge is read from the state as that action leaves it.
* ``rngs`` (``int64``, ``MAX_PLAYERS`` rows of :data:`RNG_WORDS`): each seat's generator, the
  Mersenne Twister of :class:`random.Random` (its words, its index, its seed), seeded as
  ``random.Random(seed)`` is (when first drawn from).  The Python bots draw from their
  ``random.Random(seed)``: the heuristic to break a tie between the best-scoring cards
  (``rng.choice`` of the tied cards in card order), the random bot for every decision.  Drawing
  the same numbers the same way, the compiled bots make exactly the Python bots' choices, ties
  included.
* ``kinds`` (``int64`` per seat): :data:`HEURISTIC` or :data:`RANDOM` (the policy of
  :class:`unokit.bots.RandomBot`: a uniform legal move; each call or catch on offer taken with
  probability 1/2).

:func:`bot_decision` is one step of :func:`unokit.bots.runner.play_match`: while someone may be
caught, every seat in seat order is asked ``wants_interrupt`` (the first call or catch returned
is applied), else the actor is asked ``choose``.  :func:`play_bots_games` plays numbered games of
a seed over numba's threads (each game independent of the threads), every seat heuristic or the
given seats heuristic and the others random.  ``tests/test_fast_heuristic.py`` replays compiled
games through :class:`unokit.Game` and checks every decision against the Python bots.

A seat's decisions read only what its view shows: its own hand (and the card it drew), the hand
sizes, the table (colour, direction, draw pile size, the bluffer), its legal actions and its
memory of the round's public events.

>>> result = play_bots_games(4, 4, Rules(scoring="single-round"), seed=1)
>>> sorted(result), bool((result["winner"] >= 0).all())
(['decisions', 'rounds', 'scores', 'winner'], True)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from unokit.fast import MISSING_EXTRA

try:
    import numba as nb
    import numpy as np
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(MISSING_EXTRA) from error

from unokit.actions import MAX_PLAYERS
from unokit.errors import SetupError, UnknownOptionError
from unokit.fast import engine
from unokit.fast.engine import (
    A_ACCEPT,
    A_CALL_UNO,
    A_CATCH,
    A_CHALLENGE,
    A_COLOUR,
    A_DRAW,
    A_PASS,
    A_PLAY_UNO,
    ACTOR,
    BLUFFER,
    CHALLENGE,
    COLOUR,
    COLOUR_IN_PLAY,
    COLOURS,
    DECK,
    DIRECTION,
    DRAW_COUNT,
    DRAWN,
    DRAWN_FACE,
    E_COLOUR,
    E_DEALER,
    E_DRAW,
    E_FLIP,
    E_PASS,
    E_PLAY,
    E_RESHUFFLE,
    E_RETURN,
    E_REVEAL,
    EVENT_CAP,
    EVENT_TOTAL,
    EVENTS,
    EXPOSED,
    EXPOSED_COUNT,
    FACE_COLOUR,
    FACE_KIND,
    FACE_POINTS,
    HANDS,
    K_DRAW_TWO,
    K_REVERSE,
    K_SKIP,
    K_WD4,
    LEGAL,
    MAX_FACES,
    MAX_THREADS,
    NO_COL,
    OVER,
    PHASE,
    POLICY_RNG,
    RNG,
    ROUND,
    SCORES,
    SCORING,
    SINGLE_ROUND,
    SIZE,
    SIZES,
    TRACE_ON,
    TURN,
    WD4,
    WINNER,
    F,
    IntArray,
    N,
    _apply_legal,
    _mix32,
    _seed_words,
    legal_ids,
    start,
    template_state,
)
from unokit.rules import HOUSE_OPTIONS, Rules

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
M_WD4_COLOUR = M_PILE + F
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
M_TIES = M_IDS + SIZE
"""Scratch: the cards tied for the best score."""
M_COUNTS = M_TIES + F
"""Scratch: per colour (wild cards as ``NO_COL``), the cards and the points in the hand."""
M_POINTS = M_COUNTS + NO_COL + 1
MEMORY_SIZE = M_POINTS + NO_COL + 1

# ---------------------------------------------------------------- the Mersenne Twister of random.Random

MT_N = 624
MT_M = 397
RNG_WORDS = MT_N + 2
"""A generator's words, its index (-1: not seeded yet), and the seed it is to be seeded with."""
_MASK32 = 0xFFFFFFFF

DECK_COUNTS = np.bincount(DECK, minlength=F).astype(np.int64)
"""Copies of each face in the deck."""

_jit = nb.njit(cache=True, nogil=True)


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
            memory[M_COLOUR] = FACE_COLOUR[face]
        elif kind == E_RETURN:
            memory[M_PILE + face] -= 1
        elif kind == E_PLAY:
            memory[M_TOP] = face
            memory[M_PILE + face] += 1
            memory[M_PLAYS + 3 * seat + memory[M_PLAY_COUNT + seat] % 3] = face
            memory[M_PLAY_COUNT + seat] += 1
            if face == WD4:
                memory[M_WD4_COLOUR + seat] = memory[M_COLOUR]
                memory[M_WD4_SETTER + seat] = memory[M_SETTER]
                memory[M_WD4_BY_CHOICE + seat] = memory[M_BY_CHOICE]
            if FACE_COLOUR[face] != NO_COL:
                memory[M_COLOUR] = FACE_COLOUR[face]
                memory[M_SETTER] = seat
                memory[M_BY_CHOICE] = 0
        elif kind == E_COLOUR:
            memory[M_COLOUR] = value
            memory[M_SETTER] = seat
            memory[M_BY_CHOICE] = 1
        elif kind == E_RESHUFFLE:
            for f in range(F):
                memory[M_PILE + f] = 0
            if memory[M_TOP] >= 0:
                memory[M_PILE + memory[M_TOP]] = 1
        elif kind == E_DRAW:
            for viewer in range(n):
                memory[M_LACKS + viewer * MAX_PLAYERS + seat] = 0
            if value == 1:
                memory[M_PENDING_SEAT] = seat
                memory[M_PENDING_COLOUR] = memory[M_COLOUR]
        elif kind == E_REVEAL:
            # The bluffer's hand, shown to the challenger (``value``) and known to the bluffer:
            # read as the challenge leaves it (the bluffer's draw, if any, comes next and clears this).
            hand = HANDS + seat * MAX_FACES
            shown = 0
            for f in range(F):
                if s[hand + f]:
                    shown |= 1 << FACE_COLOUR[f]
            lacked = ~shown & ((1 << NO_COL) - 1)  # every colour but those shown (as lacked_colours counts them)
            memory[M_LACKS + value * MAX_PLAYERS + seat] = lacked
            memory[M_LACKS + seat * MAX_PLAYERS + seat] = lacked
    memory[M_READ] = total
    return -1 if lost else total - first


# ---------------------------------------------------------------- the heuristic's decisions


@_jit
def _count_hand(s: IntArray, memory: IntArray, me: int) -> None:
    """Per colour (``NO_COL``: wild cards), the cards and points in ``me``'s hand, into the scratch."""
    for c in range(NO_COL + 1):
        memory[M_COUNTS + c] = 0
        memory[M_POINTS + c] = 0
    hand = HANDS + me * MAX_FACES
    for f in range(F):
        k = s[hand + f]
        if k:
            memory[M_COUNTS + FACE_COLOUR[f]] += k
            memory[M_POINTS + FACE_COLOUR[f]] += k * FACE_POINTS[f]


@_jit
def _closest(s: IntArray, me: int) -> int:
    closest = 1 << 30
    for seat in range(s[N]):
        if seat != me:
            closest = min(closest, s[SIZES + seat])
    return closest


@_jit
def _keeps_wild(s: IntArray, memory: IntArray, me: int, closest: int) -> bool:
    """``HeuristicBot._keeps_wild`` (the hand counted by :func:`_count_hand`)."""
    return memory[M_COUNTS + NO_COL] == 1 and closest > CLOSE + 1 and s[SIZES + me] >= 4 and s[DRAW_COUNT] > 0


@_jit
def _coloured_score(s: IntArray, memory: IntArray, me: int, face: int, closest: int, coloured_plays: bool) -> float:
    """``HeuristicBot._coloured_score`` for Classic (the same operations in the same order, so the
    same floating-point numbers and the same ties)."""
    n = s[N]
    direction = s[DIRECTION]
    kind = FACE_KIND[face]
    left = s[SIZES + me] - 1
    threat = closest <= CLOSE
    nxt = (me + direction) % n
    next_size = s[SIZES + nxt]
    dump = FACE_POINTS[face] * (0.3 if threat and s[SCORING] != SINGLE_ROUND else 0.05)
    wilds = memory[M_COUNTS + NO_COL]
    if FACE_COLOUR[face] == NO_COL:
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
        return score + dump  # type: ignore[no-any-return]
    colour = FACE_COLOUR[face]
    same = memory[M_COUNTS + colour] - 1
    score = 10.0 + 3 * same + dump
    skips = kind in (K_SKIP, K_DRAW_TWO) or (kind == K_REVERSE and n == 2)
    if skips:
        if next_size <= CLOSE:
            score += 30 if kind == K_DRAW_TWO else 25
        elif n == 2 and (same > 0 or wilds > 0):
            score += 2
    if kind == K_DRAW_TWO and n > 2 and next_size <= CLOSE + 1:
        score += 10
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
def _play_action(s: IntArray, me: int, face: int) -> int:
    """The action playing ``face``: its UNO-calling variant when that is legal (two cards held)."""
    return A_PLAY_UNO + face if s[SIZES + me] == 2 else face


@_jit
def _turn(s: IntArray, memory: IntArray, rng: IntArray, me: int, moves: int) -> int:
    """``HeuristicBot._turn``: the best-scoring playable card (ties: ``rng.choice`` of the tied cards
    in card order), or draw when no card plays or only its one wild card, kept in reserve."""
    ids = memory[M_IDS : M_IDS + SIZE]
    plays = 0
    coloured = False
    for i in range(moves):
        if ids[i] < F:
            plays += 1
            if FACE_COLOUR[ids[i]] != NO_COL:
                coloured = True
    if plays == 0:
        return A_DRAW
    closest = _closest(s, me)
    _count_hand(s, memory, me)
    if not coloured and _keeps_wild(s, memory, me, closest):
        return A_DRAW
    top = -1e300
    ties = 0
    for i in range(plays):
        face = ids[i]
        score = _coloured_score(s, memory, me, face, closest, coloured)
        if score > top:
            top = score
            ties = 0
        if score == top:
            memory[M_TIES + ties] = face
            ties += 1
    face = memory[M_TIES] if ties == 1 else memory[M_TIES + mt_below(rng, ties)]
    return _play_action(s, me, face)


@_jit
def _colour(s: IntArray, memory: IntArray, me: int) -> int:
    """``HeuristicBot._colour``: the colour held most; ties: most points, a colour the next player
    seems to lack, the fewest cards unseen, then the lowest colour."""
    _count_hand(s, memory, me)
    nxt = (me + s[DIRECTION]) % s[N]
    lacks = memory[M_LACKS + me * MAX_PLAYERS + nxt]
    hand = HANDS + me * MAX_FACES
    best = -1
    best_count = 0
    best_points = 0
    best_lack = 0
    best_free = 0
    for colour in range(COLOURS):
        free = 0
        for f in range(F):
            if FACE_COLOUR[f] == colour:
                free += max(0, DECK_COUNTS[f] - s[hand + f] - memory[M_PILE + f])
        count = memory[M_COUNTS + colour]
        points = memory[M_POINTS + colour]
        lack = (lacks >> colour) & 1
        if best < 0 or (count, points, lack, -free) > (best_count, best_points, best_lack, -best_free):
            best = colour
            best_count = count
            best_points = points
            best_lack = lack
            best_free = free
    return A_COLOUR + best


@_jit
def _challenge(s: IntArray, memory: IntArray, me: int) -> int:
    """``HeuristicBot._challenge``: challenge when the estimated chance that the bluffer held the
    colour in play, weighed by how often a holder plays a Wild Draw Four anyway, is above 0.3."""
    bluffer = s[BLUFFER]
    if bluffer < 0:
        return A_ACCEPT
    colour = memory[M_WD4_COLOUR + bluffer]
    if colour == NO_COL:
        return A_ACCEPT
    hand = HANDS + me * MAX_FACES
    total = 0
    of_colour = 0
    for f in range(F):
        free = max(0, DECK_COUNTS[f] - s[hand + f] - memory[M_PILE + f])
        total += free
        if FACE_COLOUR[f] == colour:
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
            if FACE_COLOUR[card] == colour:
                holds = max(holds, 0.6)
    if (memory[M_LACKS + me * MAX_PLAYERS + bluffer] >> colour) & 1:
        holds = min(holds, 0.1)
    guilty = holds * 0.5 / (holds * 0.5 + (1 - holds))
    return A_CHALLENGE if guilty > 0.3 else A_ACCEPT


@_jit
def heuristic_interrupt(s: IntArray, me: int) -> int:
    """``HeuristicBot.wants_interrupt``: call UNO for itself, else catch the lowest seat that did
    not call; -1 when neither is on offer."""
    if s[PHASE] == OVER or not s[EXPOSED_COUNT]:
        return -1
    if s[EXPOSED + me]:
        return A_CALL_UNO
    for seat in range(s[N]):
        if s[EXPOSED + seat]:
            return A_CATCH + seat
    return -1


@_jit
def heuristic_choose(s: IntArray, memory: IntArray, rng: IntArray, me: int) -> int:
    """``HeuristicBot.choose`` for ``me`` (its memory up to date, ``rng`` its generator)."""
    ids = memory[M_IDS : M_IDS + SIZE]
    count = legal_ids(s, me)
    ids[:count] = s[LEGAL : LEGAL + count]
    moves = 0
    while moves < count and ids[moves] < A_CALL_UNO:  # the moves come first, calls and catches last
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
        face = s[DRAWN_FACE]
        if FACE_COLOUR[face] == NO_COL:
            _count_hand(s, memory, me)
            if _keeps_wild(s, memory, me, _closest(s, me)):
                return A_PASS
        return _play_action(s, me, face)
    if phase == COLOUR:
        return _colour(s, memory, me)
    if phase == CHALLENGE:
        return _challenge(s, memory, me)
    return ids[0]  # type: ignore[no-any-return]


# ---------------------------------------------------------------- the random bot, the runner's step


@_jit
def random_choose(s: IntArray, memory: IntArray, rng: IntArray, me: int) -> int:
    """``RandomBot.choose``: a uniformly random move (calls and catches only when nothing else)."""
    ids = memory[M_IDS : M_IDS + SIZE]
    count = legal_ids(s, me)
    ids[:count] = s[LEGAL : LEGAL + count]
    moves = 0
    while moves < count and ids[moves] < A_CALL_UNO:
        moves += 1
    if moves == 0:
        moves = count
    return ids[0] if moves == 1 else ids[mt_below(rng, moves)]  # type: ignore[no-any-return]


@_jit
def random_interrupt(s: IntArray, memory: IntArray, rng: IntArray, me: int) -> int:
    """``RandomBot.wants_interrupt``: each call or catch on offer taken with probability 1/2."""
    if s[PHASE] == OVER or not s[EXPOSED_COUNT]:
        return -1
    ids = memory[M_IDS : M_IDS + SIZE]
    count = legal_ids(s, me)
    ids[:count] = s[LEGAL : LEGAL + count]
    for i in range(count):
        if ids[i] >= A_CALL_UNO and mt_random(rng) < 0.5:
            return ids[i]  # type: ignore[no-any-return]
    return -1


@_jit
def bot_decision(s: IntArray, memory: IntArray, rngs: IntArray, kinds: IntArray) -> tuple[int, int]:
    """One step of :func:`unokit.bots.runner.play_match`: ``(seat, action)``.  While someone may be
    caught, each seat in seat order is asked whether it calls or catches (the first that does
    acts); otherwise the actor chooses."""
    if s[EXPOSED_COUNT]:
        for seat in range(s[N]):
            if kinds[seat] == HEURISTIC:
                wanted = heuristic_interrupt(s, seat)
            else:
                wanted = random_interrupt(s, memory, rngs[seat], seat)
            if wanted >= 0:
                return seat, wanted
    seat = s[ACTOR]
    if kinds[seat] == HEURISTIC:
        return seat, heuristic_choose(s, memory, rngs[seat], seat)
    return seat, random_choose(s, memory, rngs[seat], seat)


@_jit
def heuristic_decision(s: IntArray, memory: IntArray, rngs: IntArray) -> tuple[int, int]:
    """:func:`bot_decision` at a table of heuristic bots."""
    kinds = np.full(MAX_PLAYERS, HEURISTIC, dtype=np.int64)
    return bot_decision(s, memory, rngs, kinds)


# ---------------------------------------------------------------- whole games


@_jit
def new_bots_game(s: IntArray, template: IntArray, memory: IntArray, rngs: IntArray, seed: int, index: int) -> None:
    """Deal game ``index`` of ``seed`` in ``s`` (the same deal as :func:`engine.play_random_game`'s),
    seed each seat's generator with :func:`bot_seed` and read the deal into ``memory``."""
    s[:] = template
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
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Game ``index`` of ``seed`` dealt as :func:`play_bots_games` deals it, for stepping with
    :func:`bot_decision`: ``(state, memory, rngs, kinds)``.  ``trace``: the state records its
    shuffles and dealer draws (see :meth:`engine.FastGame.trace`)."""
    template = _bots_template(players, rules)
    template[TRACE_ON] = 1 if trace else 0
    _check_seed(seed)
    s = template.copy()
    memory = np.zeros(MEMORY_SIZE, dtype=np.int64)
    rngs = np.zeros((MAX_PLAYERS, RNG_WORDS), dtype=np.int64)
    new_bots_game(s, template, memory, rngs, seed, index)
    return s, memory, rngs, _kinds(players, heuristic_seats)


def _bots_template(players: int, rules: Rules | None) -> IntArray:
    """The template state of Classic UNO under ``rules``, which the compiled bots play: the sheet's
    options (no house rule: their decisions are the Python bots' alone)."""
    rules = rules if rules is not None else Rules()
    house = sorted(set(rules.to_dict()) & set(HOUSE_OPTIONS))
    if house:
        raise UnknownOptionError(
            f"the compiled bots play Classic UNO with the sheet's options, not house rule {house[0]!r}; "
            "the Python bots do"
        )
    return template_state(players, rules)


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
) -> dict[str, IntArray]:
    """Play games ``first`` … ``first + games - 1`` of ``seed``, the seats in ``heuristic_seats``
    (default: every seat) played by the heuristic bot and the others by the random bot, on
    ``threads`` cores (default: all numba may use).  Each game depends only on ``seed`` and its
    number, never on the threads.  Returns per game ``decisions``, ``winner``, ``rounds`` and the
    final ``scores`` (games × players)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise SetupError(f"games must be a number of games, not {games!r}")
    _check_seed(seed)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < 2**31:
        raise SetupError(f"first must be a game number from 0 to 2**31 - 1, not {first!r}")
    template = _bots_template(players, rules)
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
) -> dict[str, IntArray]:
    """:func:`play_bots_games` with every seat played by the heuristic bot."""
    return play_bots_games(games, players, rules, seed=seed, first=first, threads=threads, limit=limit)


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
    memory[M_PILE : M_PILE + F] = state[engine.DISCARD_FACES : engine.DISCARD_FACES + F]
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
KINDS = 24
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
                plays[FACE_KIND[s[at + 3]]] += 1
        read = total
        if s[PHASE] == OVER:
            return bool(s[ROUND] <= STATS_ROUNDS)
        if decisions >= limit or s[ROUND] > STATS_ROUNDS:
            return False
        r = s[ROUND] - 1
        seat, action = bot_decision(s, memory, rngs, kinds)
        per_round[0, r] += 1
        if action < A_CALL_UNO and s[PHASE] == TURN and per_round[2, r] < 0:
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
) -> dict[str, IntArray]:
    """:func:`play_bots_games` keeping what ``unokit stats`` reports of each match: ``finished``
    (within ``limit`` decisions and :data:`STATS_ROUNDS` rounds), ``per_round`` (games × 5 ×
    rounds: decisions, dealer, first player, winner, points left in the other hands), ``plays``
    (games × card kinds), ``scores``, ``winner`` and ``rounds``."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise SetupError(f"games must be a number of games, not {games!r}")
    _check_seed(seed)
    template = _bots_template(players, rules)
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
