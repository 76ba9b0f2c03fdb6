"""The heuristic bot compiled: :class:`unokit.bots.HeuristicBot`'s policy on the compiled engine of
:mod:`unokit.fast.engine`, so that whole games of heuristic bots run compiled.

Classic UNO, UNO Space Jam, UNO All Wild and UNO Wild Jackpot (:data:`BOT_EDITIONS`) under every
rule option the compiled engine plays (:data:`engine.SUPPORTED_OPTIONS`: the sheets' options and
the house rules), every decision as the Python bot takes it: turns (All Wild's own scoring), the
drawn card, colours, challenges, pending totals (``stacking``), sets of one number
(``multi_play``), Space Jam's Slam discards, targets (All Wild's cards, ``seven_swap``), Wild
Jackpot's runs of plays (the same bounded search), lever discards, gifts, rule discards, honour
tasks, rule-card performers and targets, UNO calls and catches, Jump-In interrupts, partners
(``teams``), seats out of the round (``mercy``) or of the match (knockout scoring: no opponents,
stepped over where the Python bot steps over them).  Three arrays per game, besides the game's
state ``s``:

* ``memory`` (``int64``, :func:`memory_words` long): what :class:`~unokit.bots.heuristic.RoundMemory`
  derives from the current round's public history: the cards known to be in the discard pile,
  the colours each player seemed not to hold (:func:`unokit.determinize.lacked_colours`, per
  viewer: a hand shown in a challenge is seen by the bluffer and the challenger only; swapped and
  passed on with the hands; forgotten when a rule gives or takes cards), who set the colour in
  play and how (a lever's discard too), the colour and its setter before each player's latest
  Wild Draw Four, each player's last three plays; Wild Jackpot's rule cards dispensed in the match
  (the view's ``rule_cards_shown``); then scratch space, and in Wild Jackpot the run's search.
  :func:`update_memory` reads the events added to the engine's ring since its last call and must
  run after every action (as :func:`play_bots_game` does): a hand shown in a challenge is read
  from the state as that action leaves it.  Rule cards are read from the state's codes
  (``RULE_VERB``, ``RULE_COUNT``, ``RULE_AIM``: :func:`engine.rule_code`, the Python bot's reading
  of their texts).
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
caught, every seat that may call or catch is asked ``wants_interrupt`` in the fair order of
:mod:`unokit.fast.order` (the first call or catch returned is applied); then, while a Jump-In
window is open, every seat that may jump in, in play order from the actor; else the actor is
asked ``choose``.
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
>>> pot = play_bots_games(4, 4, Rules(scoring="single-round"), seed=1, edition="wild-jackpot")
>>> sorted(pot)
['decisions', 'levers', 'rounds', 'rules_performed', 'scores', 'winner']
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

from unokit.editions import get_edition
from unokit.engine.actions import MAX_PLAYERS
from unokit.engine.cards import Kind
from unokit.engine.errors import SetupError, UnknownOptionError
from unokit.engine.rules import Rules
from unokit.fast import engine
from unokit.fast.engine import (
    _DE_BRUIJN,
    ACTOR,
    BLUFFER,
    CALLS_UNO,
    CHALLENGE,
    COLOUR,
    COLOUR_FACES,
    COLOUR_IN_PLAY,
    COLOUR_OF,
    COLOURS_OF,
    DECK_N,
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
    E_DISPENSE,
    E_DRAW,
    E_FLIP,
    E_GIVE,
    E_PASS,
    E_PASS_HANDS,
    E_PLAY,
    E_RESHUFFLE,
    E_RETURN,
    E_REVEAL,
    E_SWAP,
    E_TAKE,
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
    GIVE,
    HAND_BITS,
    HANDS,
    ID_ACCEPT,
    ID_CALL_UNO,
    ID_CHALLENGE,
    ID_COLOUR,
    ID_DISCARD,
    ID_DONE,
    ID_DRAW,
    ID_GIVE,
    ID_JUMP,
    ID_JUMP_UNO,
    ID_PASS,
    ID_PLAY_UNO,
    ID_TARGET,
    ID_WAIT,
    JACKPOT,
    JUMP_CARD,
    KIND_OF,
    LEGAL,
    LEVER_COLOURS,
    LEVER_DISCARD,
    LEVER_PULLS,
    MAX_DECK,
    MAX_FACES,
    MAX_RULES,
    MAX_SIZE,
    MAX_THREADS,
    MOVES,
    MULTI,
    MULTI_IDENTICAL,
    MULTI_MODE,
    MULTI_OFF,
    NCOL,
    NF,
    NO_COL,
    NUMBER_OF,
    ORDER_KEY,
    OUT,
    OVER,
    PERFORMING,
    PHASE,
    POINTS_OF,
    POLICY_RNG,
    RNG,
    ROUND,
    RULE_AIM,
    RULE_COUNT,
    RULE_RUN,
    RULE_TOTAL,
    RULE_VERB,
    SCORES,
    SCORING,
    SINGLE_ROUND,
    SIZES,
    STACK,
    SUGGESTION_CODES,
    T_FEWEST,
    T_LEFT,
    T_MOST,
    T_NEXT,
    T_PREVIOUS,
    T_RIGHT,
    TARGET,
    TARGET_CHOICES,
    TARGET_KIND,
    TARGET_OF_RULE,
    TARGET_PERFORMER,
    TARGET_RULE,
    TEAMS,
    TRACE_ON,
    TURN,
    V_DISCARD,
    V_DISCARD_TO,
    V_DRAW,
    V_DRAW_TO,
    V_EVERYONE_DISCARDS,
    V_EVERYONE_DRAWS,
    V_GIVE,
    V_HONOUR,
    V_PLAY_RUN,
    V_PLAY_WILDS,
    V_SKIP_TURN,
    V_SWAP,
    V_TAKE,
    WINNER,
    IntArray,
    N,
    _apply_legal,
    _copy,
    _next_in,
    _seed_words,
    legal_ids,
    start,
    template_state,
)
from unokit.fast.order import mix32 as _mix32
from unokit.fast.order import next_by_rank, order_rank

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
K_WILD_JACKPOT = int(Kind.WILD_JACKPOT)

DECK_COUNTS_OF = np.array(
    [np.bincount(DECK_OF[e, : DECK_SIZE_OF[e]], minlength=MAX_FACES) for e in range(len(EDITIONS))], dtype=np.int64
)
"""``DECK_COUNTS_OF[edition, face]``: copies of the face in the edition's deck."""
CARD_OF = np.array(
    [list(get_edition(name).faces) + [-1] * (MAX_FACES - len(get_edition(name).faces)) for name in EDITIONS],
    dtype=np.int64,
)
"""``CARD_OF[edition, face]``: the card (:mod:`unokit.engine.cards`' integer, its hash in a Python set)."""
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
M_ROUND_END = M_LACKS + MAX_PLAYERS * MAX_PLAYERS
"""The end of what a new round clears; what follows is kept for the match or is scratch."""
M_SHOWN_COUNT = M_ROUND_END
"""Wild Jackpot: how many rule cards were dispensed so far in the match (their texts are public)."""
M_SHOWN = M_SHOWN_COUNT + 1
"""Per rule card: 1 once dispensed in the match (``rule_cards_shown`` of the view)."""
M_IDS = M_SHOWN + MAX_RULES
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
"""The memory of Classic, Space Jam and All Wild (Wild Jackpot's adds the run's search: :func:`memory_words`)."""

RUN_BUDGET = 4000
"""Search nodes for the longest run of plays (``unokit.bots.heuristic._RUN_BUDGET``)."""
M_RUN = MEMORY_SIZE
"""Wild Jackpot: the search of ``HeuristicBot._run``, from here to the memory's end."""
R_BUDGET = M_RUN
"""Nodes the search may still expand."""
R_GEN = M_RUN + 1
"""The search's number: table entries of another number are empty (so the table is never cleared)."""
R_KW = M_RUN + 2
"""Words of a key (a hand as bits over the sorted hand's positions) and the table's capacity."""
R_CAP = M_RUN + 3
R_LEFT = M_RUN + 4
"""Cards left in the hand of the search's current node, and its faces (a bit set)."""
R_PRESENT = M_RUN + 5
R_REM = M_RUN + 8
"""Per face: copies left in the current node's hand (they hold the first positions of the face's)."""
R_FIRST = R_REM + MAX_FACES
"""Per face: its first position in the sorted hand."""
R_MASK = R_FIRST + MAX_FACES
"""The current node's hand: bit ``p`` of word ``p // 64`` for each position ``p`` left."""
KEY_WORDS = MAX_DECK // 64
R_SCORES = R_MASK + KEY_WORDS
"""Per face: the score of the run it starts in the last search (-1: not a first card)."""
R_FRAMES = R_SCORES + MAX_FACES
FRAME = 8
"""A node being expanded: its colour and top kind, the face tried, the next colour for a wild face,
its best run so far, the best over the wild face's colours."""
F_COLOUR, F_TOP, F_FACE, F_CI, F_BEST, F_WILD = range(6)
R_TABLE = R_FRAMES + FRAME * (MAX_DECK + 1)
"""The memo: ``cap`` packed words (search number, colour, top kind, run length, points), then their keys."""
PACK_POINTS = 15
"""A run's value packed as ``length << 15 | points`` (compared as ``(length, points)`` tuples)."""

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
    for i in range(M_ROUND_END):
        memory[i] = 0
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
    memory[M_SHOWN_COUNT] = 0
    for rid in range(MAX_RULES):
        memory[M_SHOWN + rid] = 0


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
    :func:`~unokit.determinize.lacked_colours` read a round's history, and the rule cards dispensed
    in the match); returns how many, or -1 when more than the engine's ring keeps were added (the
    memory is then incomplete)."""
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
        elif kind == E_DISCARD:  # under the top card (a Slam's, a rule's), or on top (the lever's)
            memory[M_PILE + face] += 1
            if value == 1:  # sets the colour
                memory[M_TOP] = face
                memory[M_COLOUR] = COLOUR_OF[e, face]
                memory[M_SETTER] = seat
                memory[M_BY_CHOICE] = 0
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
        elif kind == E_TAKE or kind == E_GIVE:  # noqa: SIM109 - the cards' receiver: nothing known of its hand
            receiver = seat if kind == E_TAKE else value
            for viewer in range(n):
                memory[M_LACKS + viewer * MAX_PLAYERS + receiver] = 0
        elif kind == E_DISPENSE:
            if value >= 0 and not memory[M_SHOWN + value]:
                memory[M_SHOWN + value] = 1
                memory[M_SHOWN_COUNT] += 1
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
def _opponent(s: IntArray, me: int, seat: int) -> bool:
    """Whether ``seat`` is one of ``me``'s opponents (``_Context.opponents``): not itself, not a
    partner, not out of the round (``mercy``) or of the match (``knockout`` scoring)."""
    return seat != me and not _partner(s, me, seat) and not (s[OUT] >> seat) & 1


@_jit
def _closest(s: IntArray, me: int) -> int:
    """The fewest cards an opponent of ``me`` holds."""
    closest = 1 << 30
    for seat in range(s[N]):
        if _opponent(s, me, seat):
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
        if not _opponent(s, me, seat):
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
    nxt = _next_in(s, me, direction)  # (``_Context.next``: over the seats out)
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
        elif kind == K_WILD_JACKPOT:
            score -= 1
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
        after = (me + 2 * direction) % n  # (as the Python bot: two seats on, out or not)
        if _partner(s, me, after) and s[SIZES + after] <= CLOSE:
            score += 20  # the partner close to going out plays next
    if kind == K_REVERSE and n > 2:
        prev_size = s[SIZES + _next_in(s, me, -direction)]
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
    """All Wild: how much harm to ``seat`` counts (``weight`` in ``HeuristicBot._all_wild_score``: a
    partner counts, out of the round or not; a seat out that is not a partner does not)."""
    size = s[SIZES + seat]
    if seat == me:
        return 0.0
    if _partner(s, me, seat):  # harm to a partner counts against the card
        return -3.0 if size <= CLOSE else -1.0
    if (s[OUT] >> seat) & 1:
        return 0.0
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
    nxt = _next_in(s, me, direction)
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
    elif kind == K_WILD_SKIP_TWO:  # (as the Python bot: the next two seats, out or not)
        seat = me
        for _ in range(min(2, n - 1)):
            seat = (seat + direction) % n
            effect += _weight(s, me, seat, closest)
        potential = 2.0
    elif kind == K_WILD_REVERSE:
        next_size = s[SIZES + nxt]
        prev_size = s[SIZES + _next_in(s, me, -direction)]
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
    """``HeuristicBot._colour``: in a Wild Jackpot run, the colour held most (the run goes on longest);
    then not a colour a partner close to going out lacks, then the colour held most; ties: most
    points, a colour the next player seems to lack, the fewest cards unseen, then the first colour
    action."""
    e = s[EDITION]
    n = s[N]
    _count_hand(s, memory, me)
    lacks = memory[M_LACKS + me * MAX_PLAYERS + _next_in(s, me, s[DIRECTION])]
    rid = s[PERFORMING]
    running = s[JACKPOT] != 0 and rid >= 0 and s[RULE_VERB + rid] == V_PLAY_RUN
    best = -1
    best_key = (0, 0, 0, 0, 0, 0)
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
            memory[M_COUNTS + colour] if running else 0,  # ``_run_length``: the cards of the colour, one by one
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
def _shed_first(s: IntArray, memory: IntArray, me: int) -> int:
    """The first card of ``HeuristicBot._shed_order``: wild cards last, then the most points, a lone
    card of a colour counting 8 more, 16 with no other of it; ties in the order ``set(hand)``
    iterates (``sorted`` keeps it)."""
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
    return best


@_jit
def _discard(s: IntArray, memory: IntArray, me: int) -> int:
    """``HeuristicBot._discard`` (Space Jam's Slam, a Wild Jackpot rule's discards): shed the least
    useful card (:func:`_shed_first`)."""
    return s[ID_DISCARD] + _shed_first(s, memory, me)  # type: ignore[no-any-return]


@_jit
def _give(s: IntArray, memory: IntArray, me: int) -> int:
    """``HeuristicBot._give`` (Wild Jackpot "give N cards"): the card it would shed first."""
    return s[ID_GIVE] + _shed_first(s, memory, me)  # type: ignore[no-any-return]


@_jit
def _lever_discard(s: IntArray, memory: IntArray, me: int) -> int:
    """``HeuristicBot._lever_discard`` (Wild Jackpot's lever outcome 5): a card of the colour it keeps
    fewest of (then fewest points; ties: the colour met first in card order), so the colour it keeps
    most of goes last; of that colour a Draw Two, else a Skip, else the most points (then the highest
    card)."""
    e = s[EDITION]
    hand = HANDS + me * MAX_FACES
    _count_hand(s, memory, me)
    used = s[LEVER_COLOURS]
    seen = 0
    colour = -1
    for f in range(s[NF]):
        c = COLOUR_OF[e, f]
        if not s[hand + f] or c == NO_COL or (used >> c) & 1 or (seen >> c) & 1:
            continue
        seen |= 1 << c
        if colour < 0 or (memory[M_COUNTS + c], memory[M_POINTS + c]) < (
            memory[M_COUNTS + colour],
            memory[M_POINTS + colour],
        ):
            colour = c
    if colour < 0:
        return s[ID_DONE]  # type: ignore[no-any-return]
    best = -1
    best_key = (0, 0)
    for f in range(s[NF]):
        if not s[hand + f] or COLOUR_OF[e, f] != colour:
            continue
        kind = KIND_OF[e, f]
        key = (2 if kind == K_DRAW_TWO else 1 if kind == K_SKIP else 0, POINTS_OF[e, f])
        if best < 0 or key >= best_key:  # (the highest card among equals)
            best = f
            best_key = key
    return s[ID_DISCARD] + best  # type: ignore[no-any-return]


# ---------------------------------------------------------------- Wild Jackpot's targets


@_jit
def _victim(s: IntArray, verb: int, aim: int, performer: int) -> int:
    """``unokit.bots.heuristic._rule_victim``: the player a give / take / swap rule would name."""
    n = s[N]
    direction = s[DIRECTION]
    if aim == T_LEFT:
        return (performer + 1) % n  # type: ignore[no-any-return]
    if aim == T_RIGHT:
        return (performer - 1) % n  # type: ignore[no-any-return]
    if aim == T_NEXT:
        return (performer + direction) % n  # type: ignore[no-any-return]
    if aim == T_PREVIOUS:
        return (performer - direction) % n  # type: ignore[no-any-return]
    most = -1
    fewest = -1
    for seat in range(n):
        if seat == performer:
            continue
        if most < 0 or s[SIZES + seat] > s[SIZES + most]:
            most = seat
        if fewest < 0 or s[SIZES + seat] < s[SIZES + fewest]:
            fewest = seat
    if aim == T_MOST:
        return most
    if aim == T_FEWEST:
        return fewest
    return most if verb == V_TAKE else fewest  # a player of the performer's choice


@_jit
def _delta(s: IntArray, me: int, verb: int, count: int, performer: int, victim: int, seat: int) -> float:
    """``unokit.bots.heuristic._rule_delta`` for ``seat``: the expected change in its hand size if
    ``performer`` carries out the rule (``victim``: whom a give / take / swap names)."""
    held = s[SIZES + performer]
    if verb == V_EVERYONE_DRAWS:
        return float(count)
    if verb == V_EVERYONE_DISCARDS:
        return -float(min(count, s[SIZES + seat]))
    if verb == V_GIVE or verb == V_TAKE or verb == V_SWAP:  # noqa: SIM109
        other = s[SIZES + victim]
        if seat == performer:
            if verb == V_GIVE:
                return 0.0 - min(count, held)  # type: ignore[no-any-return]
            if verb == V_TAKE:
                return 0.0 + min(count, other)  # type: ignore[no-any-return]
            return 0.0 + (other - held)  # type: ignore[no-any-return]
        if seat == victim:
            if verb == V_GIVE:
                return 0.0 + min(count, held)  # type: ignore[no-any-return]
            if verb == V_TAKE:
                return 0.0 - min(count, other)  # type: ignore[no-any-return]
            return 0.0 + (held - other)  # type: ignore[no-any-return]
        return 0.0
    if seat != performer:
        return 0.0
    if verb == V_DRAW:
        return float(count)
    if verb == V_DRAW_TO:
        return float(max(0, count - held))
    if verb == V_DISCARD:
        return float(-min(count, held))
    if verb == V_DISCARD_TO:
        return float(-max(0, held - count))
    if verb == V_PLAY_RUN:
        return -min(float(held), 1.5)
    if verb == V_PLAY_WILDS:
        if performer == me:
            wilds = 0
            hand = HANDS + me * MAX_FACES
            for f in range(s[NF]):
                if COLOUR_OF[s[EDITION], f] == NO_COL:
                    wilds += s[hand + f]
            return float(-wilds)
        return -held * 8 / 108  # type: ignore[no-any-return]
    if verb == V_SKIP_TURN:
        return 1.0
    return 0.0


@_jit
def _utility(s: IntArray, me: int, verb: int, count: int, aim: int, performer: int, closest: int) -> float:
    """``HeuristicBot._utility`` of the rule's deltas: its own and its partners' hands shrinking, the
    opponents' growing (the closest to going out counting double), summed in the same order."""
    n = s[N]
    victim = _victim(s, verb, aim, performer) if verb == V_GIVE or verb == V_TAKE or verb == V_SWAP else -1  # noqa: SIM109
    partners = 0.0
    for seat in range(n):
        if _partner(s, me, seat):
            partners += _delta(s, me, verb, count, performer, victim, seat)
    total = -_delta(s, me, verb, count, performer, victim, me) - partners
    for seat in range(n):
        if _opponent(s, me, seat):
            total += _delta(s, me, verb, count, performer, victim, seat) * (1.0 if s[SIZES + seat] == closest else 0.5)
    return total


@_jit
def _performer(s: IntArray, memory: IntArray, me: int) -> int:
    """``HeuristicBot._performer``: the player whose performing the rule cards shown so far (before
    any, the sheet's suggestions) helps it most on average (ties: not itself, then the fewest cards,
    then the lowest seat)."""
    n = s[N]
    closest = _closest(s, me)
    shown = memory[M_SHOWN_COUNT]
    best = -1
    best_value = 0.0
    best_other = 0
    best_size = 0
    for performer in range(n):
        if (s[OUT] >> performer) & 1:
            continue  # (not a choice)
        total = 0.0
        if shown:
            for rid in range(s[RULE_TOTAL]):
                if memory[M_SHOWN + rid] and s[RULE_VERB + rid] != V_HONOUR:
                    total += _utility(
                        s, me, s[RULE_VERB + rid], s[RULE_COUNT + rid], s[RULE_AIM + rid], performer, closest
                    )
            value = total / shown
        else:
            for i in range(len(SUGGESTION_CODES)):
                verb = SUGGESTION_CODES[i, 0]
                if verb != V_HONOUR:
                    total += _utility(s, me, verb, SUGGESTION_CODES[i, 1], SUGGESTION_CODES[i, 2], performer, closest)
            value = total / len(SUGGESTION_CODES)
        other = 1 if performer != me else 0
        size = -s[SIZES + performer]
        if (
            best < 0
            or value > best_value
            or (value == best_value and (other > best_other or (other == best_other and size > best_size)))
        ):
            best = performer
            best_value = value
            best_other = other
            best_size = size
    return s[ID_TARGET] + best  # type: ignore[no-any-return]


@_jit
def _rule_target(s: IntArray, me: int) -> int:
    """``HeuristicBot._rule_target``: a take rule takes from the player with the most cards; give and
    swap go to the opponent with the fewest (any player when no opponent may be chosen); ties: the
    one who plays soonest."""
    n = s[N]
    direction = s[DIRECTION]
    choices = s[TARGET_CHOICES]
    take = s[RULE_VERB + s[TARGET_RULE]] == V_TAKE
    opponents = 0
    for seat in range(n):
        if (choices >> seat) & 1 and _opponent(s, me, seat):
            opponents |= 1 << seat
    among = choices if take or not opponents else opponents
    best = -1
    best_size = 0
    best_distance = 0
    for seat in range(n):
        if not (among >> seat) & 1:
            continue
        size = s[SIZES + seat]
        distance = ((seat - me) * direction) % n
        if take:
            better = size > best_size or (size == best_size and distance < best_distance)
        else:
            better = size < best_size or (size == best_size and distance < best_distance)
        if best < 0 or better:
            best = seat
            best_size = size
            best_distance = distance
    return s[ID_TARGET] + best  # type: ignore[no-any-return]


# ---------------------------------------------------------------- Wild Jackpot's run of plays

KIND_FACES = np.array(
    [
        [sum(1 << f for f in range(MAX_FACES) if KIND_OF[e, f] == kind) for kind in range(32)]
        for e in range(len(EDITIONS))
    ],
    dtype=np.int64,
)
"""``KIND_FACES[edition, kind]``: the faces of that kind, as a bit set."""


@_jit
def _lowest(bits: int) -> int:
    """The lowest bit set in ``bits`` (not 0): a de Bruijn look-up per 32-bit half."""
    low = bits & 0xFFFFFFFF
    if low:
        return _DE_BRUIJN[(((low & -low) * 0x077CB531) & 0xFFFFFFFF) >> 27]  # type: ignore[no-any-return]
    high = (bits >> 32) & 0xFFFFFFFF
    return 32 + _DE_BRUIJN[(((high & -high) * 0x077CB531) & 0xFFFFFFFF) >> 27]  # type: ignore[no-any-return]


@_jit
def _run_take(memory: IntArray, face: int) -> None:
    """The current node's hand loses a copy of ``face`` (its last position left)."""
    memory[R_REM + face] -= 1
    position = memory[R_FIRST + face] + memory[R_REM + face]
    memory[R_MASK + (position >> 6)] &= ~(1 << (position & 63))
    memory[R_LEFT] -= 1
    if memory[R_REM + face] == 0:
        memory[R_PRESENT] &= ~(1 << face)


@_jit
def _run_put_back(memory: IntArray, face: int) -> None:
    position = memory[R_FIRST + face] + memory[R_REM + face]
    memory[R_MASK + (position >> 6)] |= 1 << (position & 63)
    memory[R_REM + face] += 1
    memory[R_LEFT] += 1
    memory[R_PRESENT] |= 1 << face


@_jit
def _run_slot(memory: IntArray, colour: int, top: int) -> int:
    """The memo's slot of the current hand with ``colour`` and ``top``: its entry, or the free slot
    where it goes (linear probing)."""
    words = memory[R_KW]
    cap = memory[R_CAP]
    keys = R_TABLE + cap
    tag = (memory[R_GEN] << 8) | (colour << 5) | top
    h = _mix32(tag)
    for j in range(words):
        word = memory[R_MASK + j]
        h = _mix32(_mix32(h ^ (word & 0xFFFFFFFF)) ^ ((word >> 32) & 0xFFFFFFFF))
    i = h & (cap - 1)
    for _ in range(cap):
        packed = memory[R_TABLE + i]
        if (packed >> 24) != tag:
            if (packed >> 32) != memory[R_GEN]:
                return i  # type: ignore[no-any-return]  # free (empty, or of an earlier search)
        else:
            same = True
            for j in range(words):
                if memory[keys + i * words + j] != memory[R_MASK + j]:
                    same = False
                    break
            if same:
                return i  # type: ignore[no-any-return]
        i = (i + 1) & (cap - 1)
    return i  # type: ignore[no-any-return]  # (a full table: cannot happen with a memory of memory_words)


@_jit
def _run_store(memory: IntArray, colour: int, top: int, value: int) -> None:
    """``memo[(hand, colour, top)] = value`` for the current hand."""
    i = _run_slot(memory, colour, top)
    words = memory[R_KW]
    memory[R_TABLE + i] = (((memory[R_GEN] << 8) | (colour << 5) | top) << 24) | value
    for j in range(words):
        memory[R_TABLE + memory[R_CAP] + i * words + j] = memory[R_MASK + j]


@_jit
def _run_call(memory: IntArray, depth: int, colour: int, top: int) -> int:
    """Call ``best(hand, colour, top)`` for the current hand: its value (packed) when known at once
    (from the memo, or ``(0, 0)`` once the budget is spent), else -1 with a node pushed at ``depth``
    to expand.  (The Python search memoises the ``(0, 0)`` of a spent budget too; as the budget
    stays spent, a later call finds ``(0, 0)`` either way, so it is not stored.)"""
    i = _run_slot(memory, colour, top)
    packed = memory[R_TABLE + i]
    if (packed >> 32) == memory[R_GEN]:
        return packed & 0xFFFFFF  # type: ignore[no-any-return]
    if memory[R_BUDGET] <= 0:
        return 0
    memory[R_BUDGET] -= 1
    frame = R_FRAMES + FRAME * depth
    memory[frame + F_COLOUR] = colour
    memory[frame + F_TOP] = top
    memory[frame + F_FACE] = -1
    memory[frame + F_BEST] = 0
    return -1


@_jit
def _run_best(s: IntArray, memory: IntArray, colour: int, top: int) -> int:
    """``best(hand, colour, top)`` of ``HeuristicBot._run`` for the current hand, on an explicit stack:
    the longest run of plays (then the most points) as ``length << 15 | points``.  Each node tries
    the hand's faces in card order (a wild face with every colour named, a coloured one if it
    matches the colour or the top kind), expands only while the budget lasts, and memoises its
    value, exactly as the Python search does, so the same budget runs out at the same node."""
    value = _run_call(memory, 0, colour, top)
    if value >= 0:
        return value
    e = s[EDITION]
    nf = s[NF]
    ncol = s[NCOL]
    wilds = COLOUR_FACES[e, NO_COL]
    depth = 1
    returned = -1
    while True:
        frame = R_FRAMES + FRAME * (depth - 1)
        if returned >= 0:  # a child's value for the face being tried
            face = memory[frame + F_FACE]
            if COLOUR_OF[e, face] == NO_COL:
                memory[frame + F_WILD] = max(memory[frame + F_WILD], returned)
                ci = memory[frame + F_CI]
                if ci < ncol:  # the next colour named
                    memory[frame + F_CI] = ci + 1
                    returned = _run_call(memory, depth, COLOURS_OF[e, ci], KIND_OF[e, face])
                    if returned < 0:
                        depth += 1
                    continue
                returned = memory[frame + F_WILD]
            _run_put_back(memory, face)
            memory[frame + F_BEST] = max(memory[frame + F_BEST], returned + (1 << PACK_POINTS) + POINTS_OF[e, face])
            returned = -1
        after = memory[frame + F_FACE] + 1
        face = nf
        while after < nf:  # the next face to try: held, and wild or of the colour or the top kind
            faces = (
                memory[R_PRESENT]
                & (-1 << after)
                & (wilds | COLOUR_FACES[e, memory[frame + F_COLOUR]] | KIND_FACES[e, memory[frame + F_TOP]])
            )
            if not faces:
                break
            face = _lowest(faces)
            memory[frame + F_FACE] = face
            _run_take(memory, face)
            if COLOUR_OF[e, face] != NO_COL:
                returned = _run_call(memory, depth, COLOUR_OF[e, face], KIND_OF[e, face])
                break
            if memory[R_LEFT]:
                memory[frame + F_WILD] = -1
                memory[frame + F_CI] = 1
                returned = _run_call(memory, depth, COLOURS_OF[e, 0], KIND_OF[e, face])
                break
            _run_put_back(memory, face)  # the last card: nothing follows
            memory[frame + F_BEST] = max(memory[frame + F_BEST], (1 << PACK_POINTS) + POINTS_OF[e, face])
            after = face + 1
            face = nf
        if face < nf:
            if returned < 0:
                depth += 1
            continue
        value = memory[frame + F_BEST]  # every face tried: the node's value is known
        _run_store(memory, memory[frame + F_COLOUR], memory[frame + F_TOP], value)
        depth -= 1
        if depth == 0:
            return value  # type: ignore[no-any-return]
        returned = value


@_jit
def _run(s: IntArray, memory: IntArray, rng: IntArray, me: int, moves: int) -> int:
    """``HeuristicBot._run`` (Wild Jackpot "play as many cards in a row as you can"): the card that
    starts the longest run found by the bounded search (:func:`_run_best`; ties: most points, then
    ``rng.choice`` of the tied cards in card order)."""
    e = s[EDITION]
    ids = memory[M_IDS : M_IDS + moves]
    hand = HANDS + me * MAX_FACES
    gen = memory[R_GEN] + 1
    if gen >= 1 << 31:  # (never in practice) a new count: empty the table first
        for i in range(len(memory) - R_TABLE):
            memory[R_TABLE + i] = 0
        gen = 1
    memory[R_GEN] = gen
    memory[R_BUDGET] = RUN_BUDGET
    held = 0
    for f in range(s[NF]):
        memory[R_FIRST + f] = held
        memory[R_REM + f] = s[hand + f]
        held += s[hand + f]
    memory[R_LEFT] = held
    memory[R_PRESENT] = s[HAND_BITS + me]
    words = (held + 63) >> 6
    memory[R_KW] = words
    cap = 1
    while cap * 2 * (1 + (s[DECK_N] + 63) // 64) <= len(memory) - R_TABLE:
        cap *= 2
    memory[R_CAP] = cap
    for j in range(words):
        memory[R_MASK + j] = 0
    for position in range(held):
        memory[R_MASK + (position >> 6)] |= 1 << (position & 63)
    for f in range(s[NF]):
        memory[R_SCORES + f] = -1
    top = -1
    ties = 0
    for i in range(moves):
        face = ids[i]
        if face >= s[NF]:
            break  # the plays calling UNO: the same cards
        _run_take(memory, face)
        if COLOUR_OF[e, face] != NO_COL:
            after = _run_best(s, memory, COLOUR_OF[e, face], KIND_OF[e, face])
        elif memory[R_LEFT]:
            after = -1
            for ci in range(s[NCOL]):
                after = max(after, _run_best(s, memory, COLOURS_OF[e, ci], KIND_OF[e, face]))
        else:
            after = 0
        _run_put_back(memory, face)
        score = ((after >> PACK_POINTS) + 1) * 1000 + (after & ((1 << PACK_POINTS) - 1)) + POINTS_OF[e, face]
        memory[R_SCORES + face] = score
        if score > top:
            top = score
            ties = 0
        if score == top:
            memory[M_TIES + ties] = face
            ties += 1
    face = memory[M_TIES] if ties == 1 else memory[M_TIES + mt_below(rng, ties)]
    return _play_action(s, me, face)


@_jit
def _target(s: IntArray, me: int) -> int:
    """``HeuristicBot._target``: the opponent with the fewest cards (then the one who plays soonest)."""
    return s[ID_TARGET] + _leader(s, me)  # type: ignore[no-any-return]


@_jit
def _jumps(s: IntArray, me: int, action: int) -> bool:
    """``HeuristicBot._jump``: jump in, unless a Seven-O card would then give it a bigger hand (a 7
    swapped for the smallest other hand, a 0 bringing it the previous player's; of the seats in)."""
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
            if seat != me and not (s[OUT] >> seat) & 1:
                smallest = min(smallest, s[SIZES + seat])
        return smallest < left  # type: ignore[no-any-return]
    if kind == K_ZERO and s[EFFECTS + K_ZERO] == FX_ZERO:
        return s[SIZES + _next_in(s, me, -s[DIRECTION])] < left  # type: ignore[no-any-return]
    return True


@_jit
def heuristic_interrupt(s: IntArray, me: int) -> int:
    """``HeuristicBot.wants_interrupt``: call UNO for itself, else catch the lowest seat it may catch;
    else jump in (calling UNO when it may) when :func:`_jumps` says so; -1 for nothing."""
    count = legal_ids(s, me)
    jump = -1
    for i in range(count):
        action = s[LEGAL + i]
        if s[ID_CALL_UNO] <= action < s[ID_DONE]:
            return action  # type: ignore[no-any-return]
        if action >= s[ID_JUMP]:
            jump = action  # the highest: the jump-in calling UNO when offered
    if jump >= 0 and _jumps(s, me, jump):
        return jump
    return -1


@_jit
def _is_move(s: IntArray, action: int) -> bool:
    """Whether ``action`` is a move (not a call, catch or jump-in; Wild Jackpot's "done" and gifts
    have ids between the catches and the jump-ins)."""
    return action < s[ID_CALL_UNO] or s[ID_DONE] <= action < s[ID_JUMP]  # type: ignore[no-any-return]


@_jit
def _legal_moves(s: IntArray, memory: IntArray, me: int) -> tuple[int, int]:
    """``me``'s legal actions into the scratch ``M_IDS`` (the moves come first; calls, catches and
    jump-ins last): ``(count, moves)``."""
    count = legal_ids(s, me)
    moves = 0
    for i in range(count):
        memory[M_IDS + i] = s[LEGAL + i]
        if _is_move(s, s[LEGAL + i]):
            moves += 1
    return count, moves


@_jit
def heuristic_choose(s: IntArray, memory: IntArray, rng: IntArray, me: int) -> int:
    """``HeuristicBot.choose`` for ``me`` (its memory up to date, ``rng`` its generator)."""
    ids = memory[M_IDS : M_IDS + MAX_SIZE + 1]
    _, moves = _legal_moves(s, memory, me)
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
        if s[TARGET_KIND] == TARGET_PERFORMER:
            return _performer(s, memory, me)
        if s[TARGET_KIND] == TARGET_OF_RULE:
            return _rule_target(s, me)
        return _target(s, me)
    if phase == RULE_RUN:
        return _run(s, memory, rng, me, moves)
    if phase == LEVER_DISCARD:
        return _lever_discard(s, memory, me)
    if phase == GIVE:
        return _give(s, memory, me)
    return ids[0]  # type: ignore[no-any-return]  # (honour: "done" alone)


# ---------------------------------------------------------------- the random bot, the runner's step


@_jit
def random_choose(s: IntArray, memory: IntArray, rng: IntArray, me: int) -> int:
    """``RandomBot.choose``: a uniformly random move (calls and catches only when nothing else)."""
    ids = memory[M_IDS : M_IDS + MAX_SIZE + 1]
    count, moves = _legal_moves(s, memory, me)
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
        if not _is_move(s, action) and mt_random(rng) < 0.5:  # calls and catches, then jump-ins
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
    caught, each seat that may call or catch is asked, in the fair order of :mod:`unokit.fast.order`,
    whether it calls or catches (the first that does acts; a jump-in answered then waits); then,
    while a Jump-In window is open, each seat that may jump in, in play order from the actor;
    otherwise the actor chooses."""
    n = s[N]
    if s[EXPOSED_COUNT]:
        rank = -1
        for _ in range(n):
            seat = next_by_rank(s[ORDER_KEY], s[MOVES], (1 << n) - 1, rank)
            rank = order_rank(s[ORDER_KEY], s[MOVES], seat)
            if not _offers(s, seat, s[ID_CALL_UNO], s[ID_DONE]):
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


@_jit
def record_bots_game(
    s: IntArray,
    template: IntArray,
    memory: IntArray,
    rngs: IntArray,
    kinds: IntArray,
    seed: int,
    index: int,
    moves: IntArray,
    events: IntArray,
    trace: IntArray,
) -> tuple[int, int, int]:
    """:func:`play_bots_game` recorded as :func:`engine.record_random_game` records (``template``
    with its trace on): every decision, every event and the trace's words; how many of each."""
    new_bots_game(s, template, memory, rngs, seed, index)
    written, traced = engine.record_output(s, events, trace, 0, 0)
    decisions = 0
    while written >= 0 and s[PHASE] != OVER and decisions < len(moves):
        seat, action = bot_decision(s, memory, rngs, kinds)
        engine.record_move(moves, decisions, seat, action, engine.legal_ids(s, seat))
        decisions += 1
        _apply_legal(s, seat, action)
        update_memory(s, memory)
        written, traced = engine.record_output(s, events, trace, written, traced)
    if written < 0:
        return -1, -1, -1
    return decisions, written, traced


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
    jackpot: IntArray,
    limit: int,
    words: int,
) -> None:
    games = len(decisions)
    chunks = min(games, 64)
    n = template[N]
    for chunk in nb.prange(chunks):
        s = template.copy()
        memory = np.zeros(words, dtype=np.int64)
        rngs = np.zeros((MAX_PLAYERS, RNG_WORDS), dtype=np.int64)
        for game in range(chunk * games // chunks, (chunk + 1) * games // chunks):
            decisions[game] = play_bots_game(s, template, memory, rngs, kinds, seed, first + game, limit)
            winners[game] = s[WINNER]
            rounds[game] = s[ROUND]
            for seat in range(n):
                scores[game, seat] = s[SCORES + seat]
            for k in range(8):  # Wild Jackpot: the lever's outcomes, the rule cards performed
                jackpot[game, k] = s[LEVER_PULLS + k]


def _kinds(players: int, heuristic_seats: Sequence[int] | None) -> IntArray:
    kinds = np.full(MAX_PLAYERS, HEURISTIC, dtype=np.int64)
    if heuristic_seats is not None:
        seats = list(heuristic_seats)
        if any(isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players for seat in seats):
            raise SetupError(f"heuristic seats must be seats from 0 to {players - 1}, not {seats!r}")
        kinds[:] = RANDOM
        kinds[seats] = HEURISTIC
    return kinds


def memory_words(state: IntArray) -> int:
    """The length of a memory for games of ``state``'s template: :data:`MEMORY_SIZE`, and in Wild
    Jackpot room for the run's search: its stack, and a memo of twice the entries it may hold (one
    per node expanded, at most :data:`RUN_BUDGET`), each keyed by a hand of up to the whole deck."""
    if not state[JACKPOT]:
        return MEMORY_SIZE
    cap = 1 << (2 * RUN_BUDGET).bit_length()
    return R_TABLE + cap * (1 + (int(state[DECK_N]) + 63) // 64)


def new_memory(state: IntArray) -> IntArray:
    """An empty memory (:func:`memory_words` long) for games of ``state``'s template."""
    memory = np.zeros(memory_words(state), dtype=np.int64)
    reset_memory(memory)
    return memory


def new_table(
    players: int,
    rules: Rules | None = None,
    *,
    seed: int = 0,
    index: int = 0,
    heuristic_seats: Sequence[int] | None = None,
    trace: bool = False,
    edition: str = "classic",
    rule_cards: Sequence[str] | None = None,
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Game ``index`` of ``seed`` of ``edition`` dealt as :func:`play_bots_games` deals it, for stepping
    with :func:`bot_decision`: ``(state, memory, rngs, kinds)``.  ``trace``: the state records its
    shuffles and random draws (see :meth:`engine.FastGame.trace`).  Wild Jackpot: ``rule_cards`` are
    the texts written (default: drawn from the sheet's suggestions)."""
    template = bots_template(players, rules, edition, rule_cards)
    template[TRACE_ON] = 1 if trace else 0
    _check_seed(seed)
    s = template.copy()
    memory = new_memory(template)
    rngs = np.zeros((MAX_PLAYERS, RNG_WORDS), dtype=np.int64)
    new_bots_game(s, template, memory, rngs, seed, index)
    return s, memory, rngs, _kinds(players, heuristic_seats)


BOT_EDITIONS = ("classic", "space-jam", "all-wild", "wild-jackpot")
"""The editions the compiled bots play: every edition of the compiled engine."""
assert set(BOT_EDITIONS) <= set(EDITIONS)


def bots_template(players: int, rules: Rules | None, edition: str, rule_cards: Sequence[str] | None = None) -> IntArray:
    """The template state of ``edition`` under ``rules`` (Wild Jackpot: with ``rule_cards``) for the
    compiled bots (:class:`~unokit.engine.errors.UnknownOptionError` for an edition or option they do not play)."""
    state = template_state(players, rules, edition, rule_cards)  # refuses what the engine does not play
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
    rule_cards: Sequence[str] | None = None,
) -> dict[str, IntArray]:
    """Play games ``first`` … ``first + games - 1`` of ``seed`` of ``edition``, the seats in
    ``heuristic_seats`` (default: every seat) played by the heuristic bot and the others by the
    random bot, on ``threads`` cores (default: all numba may use).  Each game depends only on
    ``seed`` and its number, never on the threads.  Returns per game ``decisions``, ``winner``,
    ``rounds`` and the final ``scores`` (games × players); Wild Jackpot's also ``levers`` (games × 6)
    and ``rules_performed`` (enforced and honour tasks, games × 2), as
    :func:`engine.play_random_games` does, and takes ``rule_cards``, the texts every game plays with.
    An edition or rule option the compiled engine does not play is refused
    (:class:`~unokit.engine.errors.UnknownOptionError`)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise SetupError(f"games must be a number of games, not {games!r}")
    _check_seed(seed)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < 2**31:
        raise SetupError(f"first must be a game number from 0 to 2**31 - 1, not {first!r}")
    template = bots_template(players, rules, edition, rule_cards)
    kinds = _kinds(players, heuristic_seats)
    decisions = np.zeros(games, dtype=np.int64)
    winners = np.zeros(games, dtype=np.int64)
    rounds = np.zeros(games, dtype=np.int64)
    scores = np.zeros((games, players), dtype=np.int64)
    jackpot = np.zeros((games, 8), dtype=np.int64)
    if games:
        previous = nb.get_num_threads()
        if threads is not None:
            nb.set_num_threads(max(1, min(threads, MAX_THREADS)))
        try:
            _play_bots_batch(
                template, kinds, seed, first, decisions, winners, rounds, scores, jackpot, limit, memory_words(template)
            )
        finally:
            nb.set_num_threads(previous)
    result = {"decisions": decisions, "winner": winners, "rounds": rounds, "scores": scores}
    if template[JACKPOT]:
        result.update(levers=jackpot[:, :6], rules_performed=jackpot[:, 6:])
    return result


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
    rule_cards: Sequence[str] | None = None,
) -> dict[str, IntArray]:
    """:func:`play_bots_games` with every seat played by the heuristic bot."""
    return play_bots_games(
        games,
        players,
        rules,
        seed=seed,
        first=first,
        threads=threads,
        limit=limit,
        edition=edition,
        rule_cards=rule_cards,
    )


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


def memory_for_position(
    state: IntArray, lacked: Sequence[set[int]] | None = None, shown: Sequence[int] = ()
) -> IntArray:
    """A memory for a position made by :func:`engine.state_from_game` (whose event log is empty):
    the discard pile as the cards known to be in it, the top card and colour in play, the colours
    each player seems to lack (``lacked``, per seat, as :func:`unokit.determinize.lacked_colours`
    gives them to one viewer; taken as every viewer's) and Wild Jackpot's rule cards shown so far
    (``shown``: their numbers)."""
    memory = new_memory(state)
    for rid in set(shown):
        memory[M_SHOWN + rid] = 1
    memory[M_SHOWN_COUNT] = len(set(shown))
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
    ``limit`` decisions the first seat in the round holding the fewest cards."""
    return _finish_round(s, memory, rngs, s[engine.ROUNDS_ENDED], limit)


@_jit
def _finish_round(s: IntArray, memory: IntArray, rngs: IntArray, ended: int, limit: int) -> int:
    """:func:`heuristic_playout` of the round after ``ended`` rounds (which may have just ended)."""
    for _ in range(limit):
        if s[PHASE] == OVER or s[engine.ROUNDS_ENDED] != ended:
            break
        seat, action = heuristic_decision(s, memory, rngs)
        _apply_legal(s, seat, action)
        update_memory(s, memory)
    if s[engine.ROUNDS_ENDED] != ended:
        return s[engine.ROUND_WINNER]  # type: ignore[no-any-return]
    fewest = -1
    for seat in range(s[N]):
        if not (s[OUT] >> seat) & 1 and (fewest < 0 or s[engine.SIZES + seat] < s[engine.SIZES + fewest]):
            fewest = seat
    return fewest


@_jit
def rollout_wins(
    s: IntArray,
    memory: IntArray,
    rngs: IntArray,
    seat: int,
    actions: IntArray,
    seeds: IntArray,
    limit: int,
    work: IntArray,
    work_memory: IntArray,
    wins: IntArray,
) -> None:
    """Rollouts of the heuristic policy after each of ``actions`` (legal for ``seat`` in ``s``).

    ``len(seeds) // s[N]`` times the draw pile of ``s`` is shuffled anew (from ``s``'s generator);
    then for each action a copy of that position (``work``, ``work_memory``) takes it and heuristic
    bots at every seat finish the round, their generators seeded from that row of ``seeds`` alike
    for every action (so that the actions are compared on the same deals and the same tie-breaks).
    ``wins[r, i]`` is set to 1 when the round after action ``i`` in repetition ``r`` is won by
    ``seat`` or its partner (after ``limit`` decisions: the first seat in the round holding the fewest cards),
    else 0."""
    n = s[N]
    for r in range(len(seeds) // n):
        engine._shuffle(s, engine.DRAW_PILE, s[DRAW_COUNT])
        for i in range(len(actions)):
            engine._copy(s, work)
            engine._copy(memory, work_memory)
            for other in range(n):
                mt_seed_later(rngs[other], seeds[r * n + other])
            ended = work[engine.ROUNDS_ENDED]
            _apply_legal(work, seat, actions[i])
            update_memory(work, work_memory)
            winner = _finish_round(work, work_memory, rngs, ended, limit)
            same = winner == seat or (s[TEAMS] != 0 and (winner - seat) % 2 == 0)
            wins[r, i] = 1 if same else 0


def new_generators() -> IntArray:
    """Room for every seat's generator (seed each with :func:`mt_seed_later` before use)."""
    return np.zeros((MAX_PLAYERS, RNG_WORDS), dtype=np.int64)


# ---------------------------------------------------------------- moved


_MOVED = frozenset({"play_stats_games", "STATS_ROUNDS", "KINDS"})
"""Names of the statistics of whole matches, now in :mod:`unokit.fast.stats` (kept here for a release)."""


def __getattr__(name: str) -> object:
    if name in _MOVED:
        import warnings

        from unokit.fast import stats

        warnings.warn(
            f"unokit.fast.heuristic.{name} moved to unokit.fast.stats.{name}", DeprecationWarning, stacklevel=2
        )
        return getattr(stats, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
