"""Classic UNO, UNO Space Jam, UNO All Wild and UNO Wild Jackpot compiled: a game is one ``int64``
array, its transitions numba functions.

The rules are those of :class:`unokit.Game` for these editions (:data:`EDITIONS`) with the options
of :data:`SUPPORTED_OPTIONS`: the sheets' (``scoring`` winner-collects, running-tally or
single-round, ``target_score``, ``hand_size``, ``allow_bluff``,
``challenger_plays_after_catching_bluff``, ``two_player_reverse_skips``, ``uno_penalty``; Space
Jam's ``jam_slam_chance``, ``jam_discard``, ``jam_draw``; All Wild's ``forced_swap_final_card``;
Wild Jackpot's ``lever_weights`` and ``rule_card_count``, its rule cards written or drawn from the
sheet's suggestions) and the house rules ``call_uno``, ``force_play``, ``must_play``, ``hand_limit``,
``no_action_finish``, ``no_wild_finish``, ``wild_draw_four_challenge``, ``draw_to_match``,
``seven_swap``, ``zero_pass``, ``stacking`` (draw-two, same, cross, up), ``stack_deflect``,
``stack_revenge``, ``multi_play`` (identical, number), ``multi_play_bomb``, ``teams`` and
``jump_in``, ``mercy``; knockout scoring (the players out of the round or the match are stepped
over: :data:`OUT`); a changed ``deck`` (up to :data:`MAX_DECK` cards).  Anything else is refused
with :class:`~unokit.engine.errors.UnknownOptionError` naming it; the Python engine plays it.

An edition is tables read from the Python edition into the state: its faces, kinds and points,
what may be played on what, the cards' effects, the start card's rules and the action ids; so
both engines share one definition of the deck and the action space.  ``tests/test_fast_engine.py``
replays compiled games through ``Game`` and compares every step (:mod:`unokit.fast.differential`).
The functions allocate nothing (a state carries its own scratch space) and run without numba's
reference counting.

Randomness comes from a xorshift128 generator kept in the state: the same seed gives the same
game here, though not the same game as ``Game`` with that seed (the Python engine uses
:class:`random.Random`).

>>> game = FastGame(players=3, seed=7)
>>> seat, out_of_turn = game.asked()
>>> game.act(seat, game.legal_actions(seat)[0])
>>> game.is_over
False
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from unokit.fast import MISSING_EXTRA
from unokit.fast.compiling import jit
from unokit.fast.order import mix32 as _mix32  # the seeds' hash, shared with the fair order
from unokit.fast.order import next_by_rank, order_key

try:
    import numba as nb
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(MISSING_EXTRA) from error

from unokit.bots.playout import PLAYOUT_ATTACKS
from unokit.editions import AllWild, Edition, get_edition
from unokit.editions import house as house_rules
from unokit.editions import rulecards as rc
from unokit.editions.wild_jackpot import WildJackpot, rule_cards_per_player
from unokit.engine.actions import MAX_PLAYERS, ActionType
from unokit.engine.cards import CARD_COLOUR, CARD_KIND, CARD_NUMBER, NO_COLOUR, WILD_DRAW_FOUR, Kind
from unokit.engine.errors import GameOverError, IllegalActionError, SetupError, UnknownOptionError, WrongPlayerError
from unokit.engine.game import check_teams
from unokit.engine.order import order_key as _order_key
from unokit.engine.phases import PHASE_NAMES
from unokit.engine.rules import MULTI_PLAY_MODES, STACKING_MODES, Rules

__all__ = [
    "EVENT_NAMES",
    "SUPPORTED_OPTIONS",
    "FastGame",
    "check_rules",
    "new_state",
]

IntArray = npt.NDArray[np.int64]

# ---------------------------------------------------------------- tables read from the editions

EDITIONS: tuple[str, ...] = ("classic", "space-jam", "all-wild", "wild-jackpot")
"""The editions the compiled engine plays, by code (``s[EDITION]``)."""
_EDITIONS = tuple(get_edition(name) for name in EDITIONS)
CLASSIC = 0
MAX_FACES = max(len(edition.faces) for edition in _EDITIONS)
"""Faces of the edition with the most (face indices are the PLAY action ids; hands are counted per face)."""
MAX_DECK = 256
"""The most cards a deck holds in the compiled engine (an edition's own has 108 or 112; the rule
option ``deck`` may change it)."""
assert all(len(edition.standard_cards) <= MAX_DECK for edition in _EDITIONS)
assert MAX_FACES <= 62, "faces are bits of an int64"


def _table(values: Any, fill: int) -> IntArray:
    """Per-edition rows padded with ``fill`` into one array (rows: editions)."""
    width = max(len(row) for row in values)
    return np.array([list(row) + [fill] * (width - len(row)) for row in values], dtype=np.int64)


def _bits(flags: Any) -> int:
    return sum(1 << f for f, flag in enumerate(flags) if flag)


KIND_OF = _table([[CARD_KIND[c] for c in e.faces] for e in _EDITIONS], -1)
"""``KIND_OF[edition, face]``: the face's kind (as :class:`unokit.engine.cards.Kind` numbers it)."""
COLOUR_OF = _table([[CARD_COLOUR[c] for c in e.faces] for e in _EDITIONS], NO_COLOUR)
NUMBER_OF = _table([[CARD_NUMBER[c] for c in e.faces] for e in _EDITIONS], -1)
POINTS_OF = _table([[e.card_points[c] for c in e.faces] for e in _EDITIONS], 0)
PLAYABLE_OF = _table([[_bits(table[c] for c in e.faces) for table in e.playable_tables] for e in _EDITIONS], 0)
"""``PLAYABLE_OF[edition, colour * 32 + top kind]``: the faces that may be played there, as a bit set."""
COLOUR_FACES = _table([[_bits(CARD_COLOUR[c] == k for c in e.faces) for k in range(6)] for e in _EDITIONS], 0)
"""``COLOUR_FACES[edition, colour]``: the faces of that colour, as a bit set."""
DECK_OF = _table([[e.faces.index(c) for c in e.standard_cards] for e in _EDITIONS], -1)
DECK_SIZE_OF = np.array([len(e.standard_cards) for e in _EDITIONS], dtype=np.int64)
COLOURS_OF = _table([e.actions.colours for e in _EDITIONS], NO_COLOUR)
"""``COLOURS_OF[edition, i]``: the colour that colour action ``i`` names."""
COLOUR_INDEX_OF = _table(
    [
        [e.actions.colours.index(k) if k in e.actions.colours else len(e.actions.colours) for k in range(6)]
        for e in _EDITIONS
    ],
    0,
)
"""``COLOUR_INDEX_OF[edition, colour]``: its place among the edition's colours (the count: none of them)."""
WD4_OF = np.array([e.faces.index(WILD_DRAW_FOUR) if WILD_DRAW_FOUR in e.faces else -1 for e in _EDITIONS])
"""The face of the Wild Draw Four in each edition (-1: none)."""

# what a card does when played (its kind's effect in the edition), and when it was the last card
FX_NONE, FX_SKIP, FX_SKIP_TWO, FX_REVERSE, FX_DRAW_TWO, FX_DRAW_FOUR, FX_COLOUR, FX_CHALLENGE = range(8)
FX_JAM, FX_TARGET, FX_DRAW_FOUR_COLOUR, FX_SEVEN, FX_ZERO, FX_STACK, FX_JACKPOT, FX_WILD_JACKPOT = range(8, 16)
FINAL_NONE, FINAL_DRAW_TWO, FINAL_DRAW_FOUR, FINAL_TARGET, FINAL_SWAP, FINAL_STACK = range(6)
_EFFECT_CODES = {
    "skip_effect": FX_SKIP,
    "skip_two_effect": FX_SKIP_TWO,
    "reverse_effect": FX_REVERSE,
    "draw_two_effect": FX_DRAW_TWO,
    "draw_four_effect": FX_DRAW_FOUR,
    "wild_effect": FX_COLOUR,
    "wild_draw_four_effect": FX_CHALLENGE,
    "jam_effect": FX_JAM,
    "targeted_effect": FX_TARGET,
    "jackpot_effect": FX_JACKPOT,
    "wild_jackpot_effect": FX_WILD_JACKPOT,
}
_FINAL_CODES = {
    "final_draw_two": FINAL_DRAW_TWO,
    "final_draw_four": FINAL_DRAW_FOUR,
    "final_targeted": FINAL_TARGET,
    "final_forced_swap": FINAL_SWAP,
}
EFFECT_OF = _table([[_EFFECT_CODES[f.__name__] if f else FX_NONE for f in e.effects] for e in _EDITIONS], 0)
"""``EFFECT_OF[edition, kind]``: the effect of a card of ``kind`` (read from the edition's effect table)."""
FINAL_OF = _table([[_FINAL_CODES[f.__name__] if f else FINAL_NONE for f in e.final_effects] for e in _EDITIONS], 0)
"""``FINAL_OF[edition, kind]``: what a card of ``kind`` does as the player's last card."""
START_CLASSIC, START_ALL_WILD = 0, 1
START_OF = np.array([START_ALL_WILD if not e.colours_matter else START_CLASSIC for e in _EDITIONS], dtype=np.int64)
"""How a round starts: the Classic sheet's dealer draw and start card, or All Wild's (a dealer at
random; the start card's action ignored)."""
for _edition in _EDITIONS:
    _own = WildJackpot if isinstance(_edition, WildJackpot) else Edition  # its start card and targets are read below
    assert type(_edition).choose_dealer is (Edition.choose_dealer if _edition.colours_matter else AllWild.choose_dealer)
    assert type(_edition).start_round is (_own.start_round if _edition.colours_matter else AllWild.start_round)
    assert type(_edition).targets is _own.targets
JACKPOT_CODE = EDITIONS.index("wild-jackpot")
K_JACKPOT = int(Kind.JACKPOT)
K_WILD_JACKPOT = int(Kind.WILD_JACKPOT)
MAX_RULES = 100
"""The most rule cards a Wild Jackpot game holds (``jackpot.WildJackpot.setup`` refuses more)."""
VERB_CODES = {verb: code for code, verb in enumerate(rc.VERBS)}
VERB_COUNT = len(rc.VERBS)
(V_DRAW, V_DRAW_TO, V_DISCARD, V_DISCARD_TO, V_PLAY_RUN, V_PLAY_WILDS, V_SKIP_TURN, V_REVERSE) = range(8)
V_GIVE, V_TAKE, V_SWAP, V_EVERYONE_DRAWS, V_EVERYONE_DISCARDS = range(8, 13)
V_HONOUR = -1
"""A rule card read as an honour task (no enforced verb)."""
assert tuple(rc.VERBS[v] for v in (V_DRAW, V_DRAW_TO, V_PLAY_WILDS, V_GIVE, V_EVERYONE_DISCARDS)) == (
    rc.DRAW,
    rc.DRAW_TO,
    rc.PLAY_WILDS,
    rc.GIVE,
    rc.EVERYONE_DISCARDS,
)
T_SELF, T_LEFT, T_RIGHT, T_NEXT, T_PREVIOUS, T_MOST, T_FEWEST, T_CHOICE = range(8)
assert rc.TARGETS == (rc.SELF, rc.LEFT, rc.RIGHT, rc.NEXT, rc.PREVIOUS, rc.MOST, rc.FEWEST, rc.CHOICE)


@lru_cache(maxsize=1024)
def rule_code(text: str) -> tuple[int, int, int]:
    """A rule card's text as the compiled engine reads it: (verb code or ``V_HONOUR``, count, target code)."""
    effect = rc.read_rule(text).effect
    if effect is None:
        return V_HONOUR, 0, T_SELF
    return VERB_CODES[effect.verb], effect.count, rc.TARGETS.index(effect.target)


SUGGESTION_CODES = np.array([rule_code(text) for text in rc.SUGGESTIONS], dtype=np.int64)
"""The rule sheet's suggestions (``rulecards.SUGGESTIONS``), read: a game without written cards draws from them."""

_DE_BRUIJN = np.array(
    [
        0,
        1,
        28,
        2,
        29,
        14,
        24,
        3,
        30,
        22,
        20,
        15,
        25,
        17,
        4,
        8,
        31,
        27,
        13,
        23,
        21,
        19,
        16,
        7,
        26,
        12,
        18,
        6,
        11,
        5,
        10,
        9,
    ],
    dtype=np.int64,
)
NO_COL = NO_COLOUR
K_SKIP = int(Kind.SKIP)
K_REVERSE = int(Kind.REVERSE)
K_DRAW_TWO = int(Kind.DRAW_TWO)
K_WILD = int(Kind.WILD)
K_WD4 = int(Kind.WILD_DRAW_FOUR)
K_TARGETED = int(Kind.WILD_TARGETED_DRAW_TWO)
ATTACKS = _bits(k in PLAYOUT_ATTACKS for k in range(32))
"""The kinds the search's quick playout policy attacks with, as a bit set."""

# Classic's tables and action ids by name (the compiled heuristic bot plays Classic)
_CLASSIC = _EDITIONS[CLASSIC]
_SPACE = _CLASSIC.actions
FACES: tuple[int, ...] = _CLASSIC.faces
"""Classic's card of each face index."""
F = len(FACES)
FACE_COLOUR = np.ascontiguousarray(COLOUR_OF[CLASSIC, :F])
FACE_KIND = np.ascontiguousarray(KIND_OF[CLASSIC, :F])
FACE_POINTS = np.ascontiguousarray(POINTS_OF[CLASSIC, :F])
DECK = np.ascontiguousarray(DECK_OF[CLASSIC, : DECK_SIZE_OF[CLASSIC]])
WD4 = FACES.index(WILD_DRAW_FOUR)
A_PLAY_UNO = _SPACE.play_uno_id[FACES[0]]
A_DRAW = _SPACE.draw
A_PASS = _SPACE.pass_
A_COLOUR = _SPACE.id(ActionType.COLOUR, _SPACE.colours[0])
A_CHALLENGE = _SPACE.challenge
A_ACCEPT = _SPACE.accept
A_CALL_UNO = _SPACE.call_uno
A_CATCH = _SPACE.id(ActionType.CATCH, 0)
SIZE = _SPACE.size
"""Classic's action ids; ``SIZE`` is "wait" (a decision out of turn declined)."""
WAIT = SIZE
COLOURS = len(_SPACE.colours)
MAX_SIZE = max(e.actions.size for e in _EDITIONS)
"""The most action ids of an edition ("wait" is one more)."""

# ---------------------------------------------------------------- phases, scoring, events

TURN, DRAWN, COLOUR, CHALLENGE, DISCARD, TARGET, OVER = 0, 1, 2, 3, 4, 5, 6
STACK = 40
"""The house rules' phase of a pending total of draw cards (``unokit.editions.house.STACK``)."""
MULTI = 41
"""The house rules' phase of a set of number cards (``unokit.editions.house.MULTI``)."""
RULE_RUN, LEVER_DISCARD, HONOUR, GIVE = 7, 8, 9, 10
"""Wild Jackpot's phases (``unokit.editions.wild_jackpot``): a run of plays, the lever's discards, an honour
task, cards to give."""
TARGET_PERFORMER, TARGET_OF_RULE = 100, 101
"""What a Wild Jackpot target decision is for: who performs a rule card, whom a rule card aims at."""
"""The phases, numbered as :mod:`unokit.engine.game` numbers them."""
WINNER_COLLECTS, RUNNING_TALLY, SINGLE_ROUND, KNOCKOUT = 0, 1, 2, 3
SCORINGS = {
    "winner-collects": WINNER_COLLECTS,
    "running-tally": RUNNING_TALLY,
    "single-round": SINGLE_ROUND,
    "knockout": KNOCKOUT,
}

EVENT_NAMES: tuple[str, ...] = (
    "dealer_draw",
    "dealer",
    "deal",
    "flip",
    "return",
    "play",
    "draw",
    "pass",
    "colour",
    "skip",
    "reverse",
    "challenge",
    "reveal",
    "verdict",
    "accept",
    "uno",
    "catch",
    "reshuffle",
    "hand",
    "round_end",
    "match_end",
    "jam",
    "discard",
    "target",
    "swap",
    "pass_hands",
    "stack",
    "stack_draw",
    "deflect",
    "bomb",
    "team_win",
    "jump",
    "lever",
    "dispense",
    "rule",
    "rule_reshuffle",
    "run_end",
    "lose_turn",
    "done",
    "take",
    "give",
    "knockout",
    "mercy",
    "blocked",
)
"""The kinds of event the compiled engine reports, by code (the names of :mod:`unokit.engine.events`)."""
(
    E_DEALER_DRAW,
    E_DEALER,
    E_DEAL,
    E_FLIP,
    E_RETURN,
    E_PLAY,
    E_DRAW,
    E_PASS,
    E_COLOUR,
    E_SKIP,
    E_REVERSE,
    E_CHALLENGE,
    E_REVEAL,
    E_VERDICT,
    E_ACCEPT,
    E_UNO,
    E_CATCH,
    E_RESHUFFLE,
    E_HAND,
    E_ROUND_END,
    E_MATCH_END,
    E_JAM,
    E_DISCARD,
    E_TARGET,
    E_SWAP,
    E_PASS_HANDS,
    E_STACK,
    E_STACK_DRAW,
    E_DEFLECT,
    E_BOMB,
    E_TEAM_WIN,
    E_JUMP,
    E_LEVER,
    E_DISPENSE,
    E_RULE,
    E_RULE_RESHUFFLE,
    E_RUN_END,
    E_LOSE_TURN,
    E_DONE,
    E_TAKE,
    E_GIVE,
    E_KNOCKOUT,
    E_MERCY,
    E_BLOCKED,
) = range(len(EVENT_NAMES))

SEAT_EVENTS = sum(
    1 << code for code in (E_CHALLENGE, E_REVEAL, E_ACCEPT, E_CATCH, E_TARGET, E_SWAP, E_JUMP, E_TAKE, E_GIVE)
)
"""The events whose value is a seat (``unokit.rl.encoding.EVENT_SEAT_KINDS``), as a bit set."""

# pending operations, as in unokit.engine.game
OP_END_TURN, OP_COLOUR, OP_DRAW, OP_CHALLENGE, OP_DISCARD, OP_TARGET, OP_END_ROUND, OP_BEGIN, OP_JAM = range(9)
OP_STACK = 40
"""Offer the pending total to the player after the operation's seat (``unokit.editions.house.OP_STACK``)."""
OP_LEVER, OP_LEVER_END, OP_START_RULE, OP_PERFORM, OP_RETIRE, OP_RUN, OP_GIVE = range(20, 27)
OP_LEVER_DISCARD, OP_HONOUR, OP_RULE_TARGET = range(27, 30)
"""Wild Jackpot's operations, numbered as :mod:`unokit.editions.wild_jackpot` numbers them."""
POSITIONAL_OPS = _bits(op in house_rules.POSITIONAL_OPS for op in range(64))
"""The operations that go on when their seat is put out of the round
(``unokit.editions.house.POSITIONAL_OPS``), as bits."""

# ---------------------------------------------------------------- the state's layout

N = 0
PHASE = 1
ACTOR = 2
TURN_SEAT = 3
DEALER = 4
DIRECTION = 5
COLOUR_IN_PLAY = 6
DRAWN_FACE = 7
BLUFFER = 8
BLUFF = 9
BLUFF_COLOUR = 10
ROUND = 11
WINNER = 12
ARMED = 13
EXPOSED_COUNT = 14
DRAW_COUNT = 15
DISCARD_COUNT = 16
OPS_COUNT = 17
RNG = 18  # four words
TARGET_SCORE = 22
HAND_SIZE = 23
ALLOW_BLUFF = 24
CHALLENGER_PLAYS = 25
REVERSE_SKIPS = 26
UNO_PENALTY = 27
SCORING = 28
EVENT_TOTAL = 29
WAITED = 30
"""Bit mask of the seats that waited since the last action (the decision cycle)."""
MOVES = 31
ROUNDS_ENDED = 32
ROUND_WINNER = 33
TRACE_ON = 34
TRACE_COUNT = 35
DEAL_DUE = 36
"""A round ended and the match goes on: the next deal is due (dealt at the end of the action)."""
ROUNDS_REWARDED = 37
"""Rounds whose rewards a batched environment has given."""
DEALER_AT_RANDOM = 38
"""1 when the deck's cards all count alike for the dealer draw: the dealer is chosen at random
(``Edition.choose_dealer``)."""
POLICY_RNG = 40
"""Four words of a second generator, for the compiled random policy (the game's own stays the rules')."""
EDITION = 44
"""The edition's code (its place in :data:`EDITIONS`)."""
DISCARDS_LEFT = 45
TARGET_KIND = 46
"""The kind of the card whose target is being chosen (phase target)."""
JAM_LAST = 47
"""The last Wild Welcome to the Jam drop of the round: 1 Slam side up, 0 UNO side up, -1 none."""
JAM_SLAM = 48
"""``jam_slam_chance`` as a bound on 32-bit numbers."""
JAM_DISCARD = 49
JAM_DRAW = 50
SWAP_FINAL = 51
"""``forced_swap_final_card`` is ``swaps``."""
NF = 52
"""The edition's number of faces."""
NCOL = 53
DECK_N = 54
ID_PLAY_UNO = 55
ID_DRAW = 56
ID_PASS = 57
ID_COLOUR = 58
ID_CHALLENGE = 59
ID_ACCEPT = 60
ID_TARGET = 61
ID_DISCARD = 62
ID_CALL_UNO = 63
ID_CATCH = 64
ID_WAIT = 65
"""The first id of each type of action in the edition's action space (``ID_WAIT``: its size, "wait")."""
STACK_MODES = STACKING_MODES
STACK_OFF, STACK_DRAW_TWO, STACK_SAME, STACK_CROSS, STACK_UP = range(len(STACK_MODES))
assert STACK_MODES == ("off", "draw-two", "same", "cross", "up")
MULTI_OFF, MULTI_IDENTICAL, MULTI_NUMBER = range(len(MULTI_PLAY_MODES))
assert MULTI_PLAY_MODES == ("off", "identical", "number")

# house rules (see unokit.editions.house)
CALLS_UNO = 66
"""0 under ``call_uno`` off (silent UNO: no calls, no catches)."""
FORCE_PLAY = 67
MUST_PLAY = 68
HAND_LIMIT = 69
FINISH_FORBIDDEN = 70
"""The faces that may not be a player's last card (``no_action_finish``, ``no_wild_finish``), as a bit set."""
DRAW_TO_MATCH = 71
STACKING = 72
"""The ``stacking`` mode (``STACK_MODES``; 0: off)."""
STACK_TOTAL = 73
STACK_KIND = 74
"""The kind of the last card added to the pending total (-1: none)."""
REVENGE = 75
DEFLECT_KINDS = 76
"""The kinds that deflect a pending total (``stack_deflect``), as a bit set."""
WD4_CHALLENGE = 77
REVERSE_KIND = 78
""":attr:`unokit.engine.edition.Edition.reverse_kind`."""
MULTI_MODE = 79
"""``multi_play``: 0 off, ``MULTI_IDENTICAL``, ``MULTI_NUMBER``."""
BOMB = 80
MULTI_COUNT = 81
"""Cards played so far in the current set of one number (0: no set)."""
TEAMS = 82
"""House rule ``teams``: partners (seats of one parity) score together and do not catch each other."""
JUMPING = 83
"""House rule ``jump_in``."""
JUMP_CARD = 84
"""The card an open Jump-In window may be answered on (-1: closed), and its player."""
JUMP_FROM = 85
JUMP_NEXT = 86
"""The card whose play is being resolved (the window opens on it when the play ends in a turn), and its player."""
JUMP_NEXT_FROM = 87
JUMP_PLAY = 88
"""1 while a jump-in's card is played (it never starts a set of cards)."""
ID_JUMP = 89
ID_JUMP_UNO = 90
ID_DONE = 91
ID_GIVE = 92
"""Wild Jackpot's "done" and first "give" ids (other editions: ``ID_JUMP``, as they have none)."""
PENDING_SKIPS = 93
"""Turns still to be lost, all seats together (a rule card's "skip your next turn")."""

# UNO Wild Jackpot (see unokit.editions.wild_jackpot)
JACKPOT = 94
"""1 in a game of UNO Wild Jackpot."""
LEVER_LAST = 95
"""The last lever outcome of the round (1-6; -1: none yet)."""
LEVER_COLOURS = 96
"""The lever's discards: colours discarded (bits), cards the next player is to draw, whether they are skipped."""
LEVER_DRAW = 97
LEVER_SKIP = 98
GIVE_TO = 99
"""Who receives the cards a rule card gives, and how many are still to give."""
GIVE_LEFT = 100
PERFORMING = 101
"""The rule card being performed (-1: none)."""
TARGET_RULE = 102
"""The rule card whose target is being chosen (-1: none), and its possible targets (seat bits)."""
TARGET_CHOICES = 103
RULE_TOTAL = 104
"""How many rule cards the game holds."""
DISPENSER_COUNT = 105
"""Rule cards in the dispenser, behind the unit (used) and dispensed but not yet finished (in play)."""
USED_COUNT = 106
IN_PLAY_COUNT = 107
RULES_WRITTEN = 108
"""1 when the players wrote the rule cards (else they are drawn from the sheet's suggestions at set-up)."""
LEVER_AT = 109
"""Five thresholds: a 32-bit random number ``u`` pulls outcome ``1 + #{j: u >= s[LEVER_AT + j]}``, as
``random.choices`` with ``lever_weights`` picks from ``u / 2**32`` (see :func:`lever_thresholds`)."""
LEVER_PULLS = 114
"""Six counts: the lever's outcomes pulled in the match so far; then the rule cards performed,
enforced and honour tasks (for reports such as ``unokit simulate``'s)."""
RULES_ENFORCED = LEVER_PULLS + 6
RULES_HONOURED = RULES_ENFORCED + 1
LAST_PLAY = 122
OUT = 123
"""The seats out of the round, as bits: out of the match (``knockout``) or put out by ``mercy``;
dealt nothing or holding nothing, stepped over."""
PLAYERS_IN = 124
"""How many players take part in the round (``N`` less those out)."""
KNOCKED = 126
"""The seats out of the match (``knockout`` scoring), as bits; ``OUT`` holds them and those out of the round."""
MERCY = 127
"""House rule ``mercy``: the ``mercy_limit`` (0: off); a player holding that many cards is out of the round."""
ROUND_SEATS = 125
"""The seats that played the round last ended, as bits (not those already out of the match): its
rewards are theirs."""
"""Under ``jump_in``: ``seat * 64 + face`` of the last card played, -1 once a start card or a lever's
discard covered it (a Jump-In window opens only on the last card played, by its player)."""
SCORES = 128
EXPOSED = SCORES + MAX_PLAYERS
CALLED = EXPOSED + MAX_PLAYERS
"""Per seat: its last play carried the UNO call (or it called since), and its hand has not changed."""
SIZES = CALLED + MAX_PLAYERS
ROUND_POINTS = SIZES + MAX_PLAYERS
"""Points each seat held when the last round ended."""
TURN_SKIPS = ROUND_POINTS + MAX_PLAYERS
"""Per seat: turns it is still to lose in this round."""
HAND_BITS = TURN_SKIPS + MAX_PLAYERS
"""Per seat: bit ``f`` set when the hand holds face ``f`` (kept with the counts, for fast look-ups)."""
HANDS = HAND_BITS + MAX_PLAYERS
DRAW_PILE = HANDS + MAX_PLAYERS * MAX_FACES
DISCARD_PILE = DRAW_PILE + MAX_DECK
DISCARD_FACES = DISCARD_PILE + MAX_DECK
EFFECTS = DISCARD_FACES + MAX_FACES
"""Per card kind: what playing it does in this game (``FX_*``: the edition's effect, or a house rule's)."""
FINALS = EFFECTS + 32
"""Per card kind: what it does as the player's last card (``FINAL_*``)."""
DRAW_VALUES = FINALS + 32
"""Per card kind: what it adds to a pending total under ``stacking`` (0: it does not stack)."""
RULE_VERB = DRAW_VALUES + 32
"""Per rule card: its verb (``V_*``, ``V_HONOUR`` for an honour task), count and target (``T_*``)."""
RULE_COUNT = RULE_VERB + MAX_RULES
RULE_AIM = RULE_COUNT + MAX_RULES
DISPENSER = RULE_AIM + MAX_RULES
"""The rule cards in the dispenser (the next dispensed last), behind the unit and in play, in order."""
USED = DISPENSER + MAX_RULES
IN_PLAY = USED + MAX_RULES
LEVER_RIDS = IN_PLAY + MAX_RULES
"""The rule cards dispensed to everyone by one pull of the lever, in order."""
LEVER_SEATS = LEVER_RIDS + MAX_PLAYERS
"""Their performers, in order."""
OUT_POINTS = LEVER_SEATS + MAX_PLAYERS
"""Per seat: the points and the number of the cards ``mercy`` took out of the round with it."""
OUT_CARDS = OUT_POINTS + MAX_PLAYERS
DECK_CARDS = OUT_CARDS + MAX_PLAYERS
"""The deck's ``DECK_N`` faces, sorted (the edition's, or the rule option ``deck``'s)."""
OPS = DECK_CARDS + MAX_DECK
OPS_CAP = 32
SCRATCH = OPS + 3 * OPS_CAP
"""Room for the dealer draw, a shuffle's order and a legal-action mask."""
LEGAL = SCRATCH + max(MAX_DECK, 2 * MAX_RULES) + 3 * MAX_PLAYERS
"""Room for a list of legal action ids."""
EVENTS = LEGAL + MAX_SIZE + 1
EVENT_CAP = 256
assert EVENT_CAP & (EVENT_CAP - 1) == 0
"""Events kept, newest last (a ring): the observation's window reads the most recent."""
TRACE = EVENTS + 4 * EVENT_CAP
TRACE_CAP = 8 * (MAX_DECK + 4)
"""The shuffles and dealer draws of the last action, when tracing (for the differential test)."""
STALLS = TRACE + TRACE_CAP
"""Turns in a row whose draw found no card, none played since: at ``PLAYERS_IN`` the round is blocked
(``unokit.engine.game.BLOCKED_RULE``)."""
ORDER_KEY = STALLS + 1
"""The game's order key: ranks the seats asked to call or catch UNO (:mod:`unokit.fast.order`)."""
STATE_SIZE = ORDER_KEY + 1
TRACE_SHUFFLE, TRACE_SAMPLE, TRACE_RANDRANGE, TRACE_RANDOM, TRACE_UNIFORM, TRACE_ORDER = 1, 2, 3, 4, 5, 6
_TRACE_NAMES = {TRACE_RANDRANGE: "randrange", TRACE_RANDOM: "random", TRACE_UNIFORM: "uniform", TRACE_ORDER: "order"}

SUPPORTED_OPTIONS = frozenset(
    {
        "scoring",
        "target_score",
        "hand_size",
        "allow_bluff",
        "challenger_plays_after_catching_bluff",
        "two_player_reverse_skips",
        "uno_penalty",
        "jam_slam_chance",
        "jam_discard",
        "jam_draw",
        "forced_swap_final_card",
        "lever_weights",
        "rule_card_count",
        "deck",
        "call_uno",
        "force_play",
        "must_play",
        "hand_limit",
        "no_action_finish",
        "no_wild_finish",
        "wild_draw_four_challenge",
        "draw_to_match",
        "seven_swap",
        "zero_pass",
        "stacking",
        "stack_deflect",
        "stack_revenge",
        "multi_play",
        "multi_play_bomb",
        "teams",
        "jump_in",
        "mercy",
        "mercy_limit",
    }
)
"""The rule options the compiled engine plays; any other must stay at its default."""

if TYPE_CHECKING:  # numba's type hints do not name the option
    _jit = nb.njit(cache=True, nogil=True)
else:
    _jit = jit(cache=True, nogil=True, _nrt=False)
"""The engine's functions allocate nothing (a state carries its own scratch space), so they run
without numba's reference counting: counting the state array in and out of every call that is not
inlined cost about 40% of a random game's time.  Each compiles once per type signature, not once
per constant argument (:func:`unokit.fast.compiling.jit`)."""
MAX_THREADS: int = nb.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
"""The most threads numba may run (its ``NUMBA_NUM_THREADS``)."""

# ---------------------------------------------------------------- randomness


@_jit
def _xorshift(s: IntArray, at: int) -> int:
    """The next 32-bit number of the xorshift128 generator whose four words stand at ``at``."""
    x = s[at]
    t = x ^ ((x << 11) & 0xFFFFFFFF)
    s[at] = s[at + 1]
    s[at + 1] = s[at + 2]
    w = s[at + 3]
    s[at + 2] = w
    w = (w ^ (w >> 19)) ^ (t ^ (t >> 8))
    s[at + 3] = w
    return w  # type: ignore[no-any-return]


@_jit
def _next32(s: IntArray) -> int:
    return _xorshift(s, RNG)


@_jit
def _below(s: IntArray, n: int) -> int:
    return (_next32(s) * n) >> 32


@_jit
def _policy_below(s: IntArray, n: int) -> int:
    """A number below ``n`` from the policy's generator (the second xorshift128, at ``POLICY_RNG``)."""
    return (_xorshift(s, POLICY_RNG) * n) >> 32


@_jit
def _seed_words(s: IntArray, at: int, seed: int, index: int) -> None:
    """Four non-zero generator words at ``at`` from ``seed`` (below 2**62) and a game's ``index``."""
    for k in range(4):
        w = _mix32(_mix32(_mix32(seed & 0xFFFFFFFF) ^ (seed >> 32) ^ (k * 0x3C6EF372)) ^ index)
        s[at + k] = w if w else 1 + k
    if at == RNG:  # the game's generator: its order key too (``unokit.engine.order.order_key(seed, index)``)
        s[ORDER_KEY] = order_key(seed, index)


@_jit
def _shuffle(s: IntArray, start: int, length: int) -> None:
    for i in range(length - 1, 0, -1):
        j = start + _below(s, i + 1)
        s[start + i], s[j] = s[j], s[start + i]
    if s[TRACE_ON]:
        _trace(s, TRACE_SHUFFLE, start, length)


@_jit
def _permute(s: IntArray, start: int, length: int) -> None:
    """Shuffle the ``length`` values from ``start`` (rule cards, not faces), tracing the order drawn
    (``TRACE_ORDER``: position ``i`` now holds what stood at position ``order[i]``)."""
    order = SCRATCH
    values = SCRATCH + MAX_RULES
    for i in range(length):
        s[order + i] = i
        s[values + i] = s[start + i]
    for i in range(length - 1, 0, -1):
        j = order + _below(s, i + 1)
        s[order + i], s[j] = s[j], s[order + i]
    for i in range(length):
        s[start + i] = s[values + s[order + i]]
    if s[TRACE_ON]:
        _trace(s, TRACE_ORDER, order, length)


@_jit
def _trace(s: IntArray, kind: int, start: int, length: int) -> None:
    at = TRACE + s[TRACE_COUNT]
    if s[TRACE_COUNT] + length + 2 > TRACE_CAP:
        return
    s[at] = kind
    s[at + 1] = length
    for i in range(length):
        s[at + 2 + i] = s[start + i]
    s[TRACE_COUNT] += length + 2


@_jit
def _trace_value(s: IntArray, kind: int, value: int) -> None:
    """Record a random number drawn (a dealer chosen at random, a card dropped), when tracing."""
    at = TRACE + s[TRACE_COUNT]
    if s[TRACE_ON] and s[TRACE_COUNT] + 3 <= TRACE_CAP:
        s[at] = kind
        s[at + 1] = 1
        s[at + 2] = value
        s[TRACE_COUNT] += 3


# ---------------------------------------------------------------- events and small helpers


@_jit
def _copy(source: Any, target: Any) -> None:
    """``target[:] = source`` for two arrays of one length (element by element: no temporary copy)."""
    for i in range(len(source)):
        target[i] = source[i]


@_jit
def _event(s: IntArray, kind: int, seat: int, value: int, face: int) -> None:
    at = EVENTS + 4 * (s[EVENT_TOTAL] & (EVENT_CAP - 1))  # EVENT_CAP is a power of two
    s[at] = kind
    s[at + 1] = seat
    s[at + 2] = value
    s[at + 3] = face
    s[EVENT_TOTAL] += 1


@_jit
def _push(s: IntArray, op: int, seat: int, arg: int) -> None:
    at = OPS + 3 * s[OPS_COUNT]
    s[at] = op
    s[at + 1] = seat
    s[at + 2] = arg
    s[OPS_COUNT] += 1


@_jit
def _holds_colour(s: IntArray, seat: int, colour: int) -> bool:
    if colour == NO_COL:
        return False
    return (s[HAND_BITS + seat] & COLOUR_FACES[s[EDITION], colour]) != 0  # type: ignore[no-any-return]


@_jit
def _unexpose(s: IntArray, seat: int) -> None:
    if s[EXPOSED + seat]:
        s[EXPOSED + seat] = 0
        s[EXPOSED_COUNT] -= 1


@_jit
def _reshuffle(s: IntArray) -> bool:
    count = s[DISCARD_COUNT]
    if count <= 1:
        return False
    top = s[DISCARD_PILE + count - 1]
    _shuffle(s, DISCARD_PILE, count - 1)
    for i in range(count - 1):
        face = s[DISCARD_PILE + i]
        s[DRAW_PILE + s[DRAW_COUNT]] = face
        s[DRAW_COUNT] += 1
        s[DISCARD_FACES + face] -= 1
    s[DISCARD_PILE] = top
    s[DISCARD_COUNT] = 1
    _event(s, E_RESHUFFLE, -1, count - 1, -1)
    return True


@_jit
def _draw_cards(s: IntArray, seat: int, count: int) -> int:
    """``seat`` draws up to ``count`` cards (reshuffling when needed); returns the last drawn or -1."""
    got = 0
    last = -1
    hand = HANDS + seat * MAX_FACES
    for _ in range(count):
        if s[DRAW_COUNT] == 0 and not _reshuffle(s):
            break
        s[DRAW_COUNT] -= 1
        last = s[DRAW_PILE + s[DRAW_COUNT]]
        s[hand + last] += 1
        s[HAND_BITS + seat] |= 1 << last
        got += 1
    if got:
        s[SIZES + seat] += got
        s[CALLED + seat] = 0
        _event(s, E_DRAW, seat, got, -1)
        if s[EXPOSED + seat] and s[SIZES + seat] != 1:
            _unexpose(s, seat)
    return last


@_jit
def _discard_top(s: IntArray) -> int:
    return s[DISCARD_PILE + s[DISCARD_COUNT] - 1]  # type: ignore[no-any-return]


@_jit
def _hand_points(s: IntArray, seat: int) -> int:
    total = 0
    e = s[EDITION]
    hand = HANDS + seat * MAX_FACES
    for f in range(s[NF]):
        total += s[hand + f] * POINTS_OF[e, f]
    return total


# ---------------------------------------------------------------- turns and rounds


@_jit
def _step_seat(seat: int, step: int, n: int) -> int:
    """``(seat + step) % n`` for a step of -1 or 1, without a division."""
    seat += step
    if seat >= n:
        return seat - n
    if seat < 0:
        return seat + n
    return seat


@_jit
def _next_in(s: IntArray, seat: int, step: int) -> int:
    """The seat after ``seat`` going ``step`` (1: left, -1: right) among those in the match."""
    n = s[N]
    seat = _step_seat(seat, step, n)
    while (s[OUT] >> seat) & 1:
        seat = _step_seat(seat, step, n)
    return seat


@_jit
def _end_turn(s: IntArray, seat: int, skip: int) -> None:
    step = s[DIRECTION]
    nxt = _next_in(s, seat, step)
    for _ in range(skip):
        _event(s, E_SKIP, nxt, 0, -1)
        nxt = _next_in(s, nxt, step)
    if s[PENDING_SKIPS]:
        nxt = _lose_pending_turns(s, nxt)
    s[OPS_COUNT] = 0
    s[TURN_SEAT] = nxt
    s[ACTOR] = nxt
    s[PHASE] = TURN
    if s[EXPOSED_COUNT]:
        s[ARMED] = 1


@_jit
def _lose_pending_turns(s: IntArray, seat: int) -> int:
    """Seats that are to lose their next turn lose it; the first that is not begins."""
    while s[TURN_SKIPS + seat]:
        s[TURN_SKIPS + seat] -= 1
        s[PENDING_SKIPS] -= 1
        _event(s, E_SKIP, seat, 0, -1)
        seat = _next_in(s, seat, s[DIRECTION])
    return seat


@_jit
def _choose_dealer(s: IntArray) -> int:
    n = s[N]
    e = s[EDITION]
    if START_OF[e] == START_ALL_WILD or s[DEALER_AT_RANDOM]:  # every card counts alike: a dealer at random
        dealer = _below(s, n)
        _trace_value(s, TRACE_RANDRANGE, dealer)
        return dealer
    pool = SCRATCH
    cand = SCRATCH + s[DECK_N]
    values = cand + MAX_PLAYERS
    remaining = s[DECK_N]
    for i in range(s[DECK_N]):
        s[pool + i] = s[DECK_CARDS + i]
    k = n
    for i in range(n):
        s[cand + i] = i
    while True:
        if remaining < k:
            remaining = s[DECK_N]
            for i in range(s[DECK_N]):
                s[pool + i] = s[DECK_CARDS + i]
        for i in range(k):  # k distinct cards: a partial Fisher-Yates
            j = i + _below(s, remaining - i)
            s[pool + i], s[pool + j] = s[pool + j], s[pool + i]
        if s[TRACE_ON]:
            _trace(s, TRACE_SAMPLE, pool, k)
        best = -1
        for i in range(k):
            face = s[pool + i]
            value = max(NUMBER_OF[e, face], 0)
            s[values + i] = value
            best = max(best, value)
            _event(s, E_DEALER_DRAW, s[cand + i], value, face)
        for i in range(remaining - k):  # the drawn cards leave the pool
            s[pool + i] = s[pool + k + i]
        remaining -= k
        left = 0
        for i in range(k):
            if s[values + i] == best:
                s[cand + left] = s[cand + i]
                left += 1
        if left == 1:
            return s[cand]  # type: ignore[no-any-return]
        k = left


@_jit
def _start_round(s: IntArray, dealer: int) -> None:
    n = s[N]
    e = s[EDITION]
    s[ROUND] += 1
    s[DEALER] = dealer
    s[DIRECTION] = 1
    s[COLOUR_IN_PLAY] = NO_COL
    for seat in range(n):
        s[EXPOSED + seat] = 0
        s[CALLED + seat] = 0
    s[EXPOSED_COUNT] = 0
    s[ARMED] = 0
    s[OPS_COUNT] = 0
    s[DRAWN_FACE] = -1
    s[JAM_LAST] = -1
    s[STALLS] = 0
    s[STACK_TOTAL] = 0
    s[STACK_KIND] = -1
    s[MULTI_COUNT] = 0
    for slot in (JUMP_CARD, JUMP_FROM, JUMP_NEXT, JUMP_NEXT_FROM):
        s[slot] = -1
    s[LEVER_LAST] = -1
    s[PENDING_SKIPS] = 0
    for seat in range(n):
        s[OUT_POINTS + seat] = 0
        s[OUT_CARDS + seat] = 0
    for seat in range(n):
        s[TURN_SKIPS + seat] = 0
    _event(s, E_DEALER, dealer, s[ROUND], -1)
    # the shuffled deck, top card first, is laid bottom first into the draw pile
    for i in range(s[DECK_N]):
        s[SCRATCH + i] = s[DECK_CARDS + i]
    _shuffle(s, SCRATCH, s[DECK_N])
    for i in range(s[DECK_N]):
        s[DRAW_PILE + i] = s[SCRATCH + s[DECK_N] - 1 - i]
    s[DRAW_COUNT] = s[DECK_N]
    s[DISCARD_COUNT] = 0
    for f in range(s[NF]):
        s[DISCARD_FACES + f] = 0
    for i in range(n * MAX_FACES):
        s[HANDS + i] = 0
    for seat in range(n):
        s[SIZES + seat] = 0
        s[HAND_BITS + seat] = 0
    for _ in range(s[HAND_SIZE]):
        for offset in range(1, n + 1):
            seat = (dealer + offset) % n
            if (s[OUT] >> seat) & 1:  # knockout scoring: nothing for the players out of the match
                continue
            s[DRAW_COUNT] -= 1
            face = s[DRAW_PILE + s[DRAW_COUNT]]
            s[HANDS + seat * MAX_FACES + face] += 1
            s[HAND_BITS + seat] |= 1 << face
            s[SIZES + seat] += 1
    for seat in range(n):
        if not (s[OUT] >> seat) & 1:
            _event(s, E_DEAL, seat, s[SIZES + seat], -1)
    # the start card
    card = _flip(s)
    left = _next_in(s, dealer, 1)
    if START_OF[e] == START_ALL_WILD:  # its action is ignored; the dealer's left begins
        _push(s, OP_BEGIN, left, 0)
        _run_ops(s)
        return
    while KIND_OF[e, card] == K_WD4 and _holds_other_than(s, e, K_WD4):
        s[DISCARD_COUNT] -= 1
        s[DISCARD_FACES + card] -= 1
        s[DRAW_PILE + s[DRAW_COUNT]] = card
        s[DRAW_COUNT] += 1
        _shuffle(s, DRAW_PILE, s[DRAW_COUNT])
        _event(s, E_RETURN, -1, 0, card)
        card = _flip(s)
    kind = KIND_OF[e, card]
    wild = COLOUR_OF[e, card] == NO_COL
    if not wild:
        s[COLOUR_IN_PLAY] = COLOUR_OF[e, card]
    if kind == K_DRAW_TWO:
        _draw_cards(s, left, 2)
        _event(s, E_SKIP, left, 0, -1)
        _push(s, OP_BEGIN, _next_in(s, left, 1), 0)
    elif kind == K_SKIP:
        _event(s, E_SKIP, left, 0, -1)
        _push(s, OP_BEGIN, _next_in(s, left, 1), 0)
    elif kind == K_REVERSE:
        s[DIRECTION] = -1
        _event(s, E_REVERSE, dealer, -1, -1)
        _push(s, OP_BEGIN, dealer, 0)
    elif wild:
        _push(s, OP_BEGIN, left, 0)
        _push(s, OP_COLOUR, left, 0)
    else:
        _push(s, OP_BEGIN, left, 0)
    if s[JACKPOT] and (kind == K_JACKPOT or kind == K_WILD_JACKPOT):  # noqa: SIM109 - left of the dealer chooses
        _push(s, OP_START_RULE, left, 0)
    _run_ops(s)


@_jit
def _holds_other_than(s: IntArray, e: int, kind: int) -> bool:
    """Whether the draw pile holds a card of another kind than ``kind``."""
    for i in range(s[DRAW_COUNT]):  # noqa: SIM110 - a loop numba compiles
        if KIND_OF[e, s[DRAW_PILE + i]] != kind:
            return True
    return False


@_jit
def _flip(s: IntArray) -> int:
    s[DRAW_COUNT] -= 1
    card = s[DRAW_PILE + s[DRAW_COUNT]]
    s[DISCARD_PILE + s[DISCARD_COUNT]] = card
    s[DISCARD_COUNT] += 1
    s[DISCARD_FACES + card] += 1
    _event(s, E_FLIP, -1, 0, card)
    if s[JUMPING]:
        s[LAST_PLAY] = -1
    return card  # type: ignore[no-any-return]


@_jit
def _end_round(s: IntArray) -> None:
    n = s[N]
    winner = -1
    total = 0
    for seat in range(n):
        if (s[OUT] >> seat) & 1:  # out of the match (no points), or put out of the round by Mercy
            s[ROUND_POINTS + seat] = s[OUT_POINTS + seat]
            total += s[OUT_POINTS + seat]
            continue
        if s[SIZES + seat] == 0 and winner < 0:
            winner = seat
        points = _hand_points(s, seat)
        s[ROUND_POINTS + seat] = points
        total += points
        _event(s, E_HAND, seat, points, -1)
    if s[STALLS] >= s[PLAYERS_IN]:  # a blocked round: the lowest hand wins it
        winner = _lowest_hand(s)
    elif winner < 0:  # Mercy: the first of the last player (team) left
        winner = _next_in(s, n - 1, 1)
    method = s[SCORING]
    gained = 0
    teams = s[TEAMS]
    if method == WINNER_COLLECTS:
        if teams:  # the winning team scores the other team's hands, every partner alike
            for seat in range(n):
                if (seat - winner) % 2:
                    gained += s[ROUND_POINTS + seat]
            for seat in range(winner % 2, n, 2):
                s[SCORES + seat] += gained
        else:
            gained = total - s[ROUND_POINTS + winner]
            s[SCORES + winner] += gained
    elif method == RUNNING_TALLY:
        for seat in range(n):
            if teams:  # each seat adds its team's hands
                for partner in range(seat % 2, n, 2):
                    s[SCORES + seat] += s[ROUND_POINTS + partner]
            else:
                s[SCORES + seat] += s[ROUND_POINTS + seat]
    if s[JACKPOT]:  # rule cards dispensed but not finished go behind the unit
        for i in range(s[IN_PLAY_COUNT]):
            s[USED + s[USED_COUNT]] = s[IN_PLAY + i]
            s[USED_COUNT] += 1
        s[IN_PLAY_COUNT] = 0
        s[PERFORMING] = -1
    _event(s, E_ROUND_END, winner, gained, -1)
    if teams:
        _event(s, E_TEAM_WIN, winner, winner % 2, -1)
    s[ROUND_SEATS] = ((1 << n) - 1) & ~s[KNOCKED]
    if method == KNOCKOUT:
        _knock_out(s, winner)
    s[ROUNDS_ENDED] += 1
    s[ROUND_WINNER] = winner
    for seat in range(n):
        s[EXPOSED + seat] = 0
    s[EXPOSED_COUNT] = 0
    s[ARMED] = 0
    s[OPS_COUNT] = 0
    s[DRAWN_FACE] = -1
    match_winner = -1
    if method == SINGLE_ROUND:
        match_winner = winner
    elif method == KNOCKOUT:  # one player (team) left in the match
        sides = 0
        for seat in range(n):
            if not (s[KNOCKED] >> seat) & 1:
                sides |= 1 << (seat % 2 if teams else seat)
        if sides & (sides - 1) == 0:
            match_winner = winner
    elif method == WINNER_COLLECTS:
        if s[SCORES + winner] >= s[TARGET_SCORE]:
            match_winner = winner
    else:
        highest = s[SCORES]
        lowest = s[SCORES]
        for seat in range(n):
            highest = max(highest, s[SCORES + seat])
            lowest = min(lowest, s[SCORES + seat])
        if highest >= s[TARGET_SCORE]:
            leaders = 0
            first = -1
            sides = 0  # the teams (as bits) among the leaders
            for seat in range(n):
                if s[SCORES + seat] == lowest:
                    leaders += 1
                    first = seat if first < 0 else first
                    sides |= 1 << (seat % 2)
            if leaders == 1:
                match_winner = first
            elif teams and sides != 3:  # partners share a score: the team wins, named by the round's winner if in it
                match_winner = winner if s[SCORES + winner] == lowest else first
    if match_winner >= 0:
        s[WINNER] = match_winner
        s[PHASE] = OVER
        s[ACTOR] = -1
        s[TURN_SEAT] = -1
        _event(s, E_MATCH_END, match_winner, s[ROUND], -1)
        return
    s[OUT] = s[KNOCKED]  # everyone put out of the round by Mercy deals and plays again
    s[PLAYERS_IN] = n
    for seat in range(n):
        s[PLAYERS_IN] -= (s[KNOCKED] >> seat) & 1
    s[DEAL_DUE] = 1  # the dealer's left deals next (see apply: no recursion, so the code caches)


@_jit
def _lowest_hand(s: IntArray) -> int:
    """The winner of a blocked round (``Game._lowest_hand``): the fewest points in hand, then the
    fewest cards, then the first in play order from the player after the one whose turn it is."""
    seat = s[TURN_SEAT]
    best = -1
    for _ in range(s[PLAYERS_IN]):
        seat = _next_in(s, seat, s[DIRECTION])
        if (
            best < 0
            or s[ROUND_POINTS + seat] < s[ROUND_POINTS + best]
            or (s[ROUND_POINTS + seat] == s[ROUND_POINTS + best] and s[SIZES + seat] < s[SIZES + best])
        ):
            best = seat
    return best


@_jit
def _knock_out(s: IntArray, winner: int) -> None:
    """Knockout scoring: the player on the losing side with the most cards leaves the match (ties:
    the most points; still tied: all of them)."""
    n = s[N]
    most_cards = -1
    most_points = -1
    for seat in range(n):
        if (s[KNOCKED] >> seat) & 1 or (s[TEAMS] and (seat - winner) % 2 == 0) or seat == winner:
            continue
        held = s[SIZES + seat] + s[OUT_CARDS + seat]
        points = s[ROUND_POINTS + seat]
        if held > most_cards or (held == most_cards and points > most_points):
            most_cards = held
            most_points = points
    leavers = 0
    for seat in range(n):
        if (s[KNOCKED] >> seat) & 1 or (s[TEAMS] and (seat - winner) % 2 == 0) or seat == winner:
            continue
        if s[SIZES + seat] + s[OUT_CARDS + seat] == most_cards and s[ROUND_POINTS + seat] == most_points:
            _event(s, E_KNOCKOUT, seat, most_cards, -1)
            leavers |= 1 << seat
    s[KNOCKED] |= leavers
    s[OUT] |= leavers


@_jit
def _ask(s: IntArray, phase: int, seat: int) -> None:
    """Ask ``seat`` the decision of ``phase``."""
    s[PHASE] = phase
    s[ACTOR] = seat


@_jit
def _run_ops(s: IntArray) -> None:
    while s[OPS_COUNT]:
        s[OPS_COUNT] -= 1
        at = OPS + 3 * s[OPS_COUNT]
        op = s[at]
        seat = s[at + 1]
        arg = s[at + 2]
        if op == OP_END_TURN:
            _end_turn(s, seat, arg)
            return
        if op == OP_DRAW:
            _draw_cards(s, seat, arg)
        elif op == OP_COLOUR:
            _ask(s, COLOUR, seat)
            return
        elif op == OP_CHALLENGE:
            s[BLUFFER] = arg
            _ask(s, CHALLENGE, seat)
            return
        elif op == OP_BEGIN:
            s[OPS_COUNT] = 0
            if s[PENDING_SKIPS]:
                seat = _lose_pending_turns(s, seat)
            s[TURN_SEAT] = seat
            s[ACTOR] = seat
            s[PHASE] = TURN
            return
        elif op == OP_END_ROUND:
            _end_round(s)
            return
        elif op == OP_DISCARD:
            count = min(arg, s[SIZES + seat])
            if count:
                s[DISCARDS_LEFT] = count
                _ask(s, DISCARD, seat)
                return
        elif op == OP_TARGET:
            s[TARGET_KIND] = arg
            _ask(s, TARGET, seat)
            return
        elif op == OP_STACK:
            _offer_stack(s, seat)
            return
        elif op == OP_JAM:  # the Wild Welcome to the Jam card is dropped
            slam = 1 if _next32(s) < s[JAM_SLAM] else 0
            _trace_value(s, TRACE_RANDOM, slam)
            s[JAM_LAST] = slam
            _event(s, E_JAM, seat, slam, -1)
            if slam:
                _push(s, OP_DISCARD, seat, s[JAM_DISCARD])
            else:
                _draw_cards(s, seat, s[JAM_DRAW])
        elif not _jackpot_op(s, op, seat, arg):
            return


# ---------------------------------------------------------------- acting


@_jit
def _play_last_card(s: IntArray, seat: int, kind: int, deflects: bool) -> None:
    """A card of ``kind`` was ``seat``'s last: the round ends, after what the card does as a last card."""
    _push(s, OP_END_ROUND, seat, 0)
    final = s[FINALS + kind]
    if deflects:
        _deflect(s, seat, kind)
    nxt = _next_in(s, seat, s[DIRECTION])
    if deflects:
        _hand_over_stack(s, nxt)
    elif final == FINAL_STACK:
        _add_to_stack(s, seat, kind)
        _hand_over_stack(s, nxt)
    elif final == FINAL_DRAW_TWO:
        _draw_cards(s, nxt, 2)
    elif final == FINAL_DRAW_FOUR:
        _draw_cards(s, nxt, 4)
    elif final == FINAL_TARGET or (final == FINAL_SWAP and s[SWAP_FINAL]):
        _push(s, OP_TARGET, seat, kind)
    _run_ops(s)


@_jit
def _play_card(s: IntArray, seat: int, card: int, called: bool) -> None:
    e = s[EDITION]
    if s[JUMPING]:
        s[JUMP_NEXT] = card
        s[JUMP_NEXT_FROM] = seat
    _take_card(s, seat, card)
    s[DISCARD_PILE + s[DISCARD_COUNT]] = card
    s[DISCARD_COUNT] += 1
    s[DISCARD_FACES + card] += 1
    s[STALLS] = 0
    _event(s, E_PLAY, seat, 1 if called else 0, card)
    if s[JUMPING]:
        s[LAST_PLAY] = seat * 64 + card
    s[CALLED + seat] = 1 if called else 0
    if COLOUR_OF[e, card] != NO_COL:
        s[COLOUR_IN_PLAY] = COLOUR_OF[e, card]
    left = s[SIZES + seat]
    if left == 1 and not called and not s[EXPOSED + seat] and s[CALLS_UNO]:
        s[EXPOSED + seat] = 1
        s[EXPOSED_COUNT] += 1
    kind = KIND_OF[e, card]
    nxt = _next_in(s, seat, s[DIRECTION])
    deflects = s[STACK_TOTAL] and (s[DEFLECT_KINDS] >> kind) & 1
    if left == 0:
        _play_last_card(s, seat, kind, deflects)
        return
    effect = s[EFFECTS + kind]
    if effect == FX_NONE and not s[MULTI_MODE]:  # a card without action: the turn passes on
        if s[PENDING_SKIPS]:
            _end_turn(s, seat, 0)
            return
        s[TURN_SEAT] = nxt
        s[ACTOR] = nxt
        s[PHASE] = TURN
        if s[EXPOSED_COUNT]:
            s[ARMED] = 1
        return
    phase = s[PHASE]
    if s[MULTI_MODE] and NUMBER_OF[e, card] >= 0 and ((phase == TURN and not s[JUMP_PLAY]) or phase == MULTI):
        s[MULTI_COUNT] += 1  # a set of one number: the player may add another card of it
        if _set_faces(s, seat):
            _ask(s, MULTI, seat)
            return
        _end_set(s, seat)
    _card_effect(s, seat, card, deflects)


@_jit
def _set_faces(s: IntArray, seat: int) -> int:
    """The faces ``seat`` may add to the set of number cards whose last one is on top, as a bit set."""
    e = s[EDITION]
    top = _discard_top(s)
    if s[MULTI_MODE] == MULTI_IDENTICAL:
        return s[HAND_BITS + seat] & (1 << top)  # type: ignore[no-any-return]
    faces = 0
    for f in range(s[NF]):
        if (s[HAND_BITS + seat] >> f) & 1 and NUMBER_OF[e, f] == NUMBER_OF[e, top]:
            faces |= 1 << f
    return faces


@_jit
def _end_set(s: IntArray, seat: int) -> None:
    """A set of number cards ends: three or more make every other player draw one (``multi_play_bomb``,
    the next player first); the number's own effect follows."""
    count = s[MULTI_COUNT]
    s[MULTI_COUNT] = 0
    if count >= 3 and s[BOMB]:
        _event(s, E_BOMB, seat, count, -1)
        other = seat
        for _ in range(1, s[PLAYERS_IN]):  # every other player in the match, the next first
            other = _next_in(s, other, s[DIRECTION])
            _draw_cards(s, other, 1)


@_jit
def _card_effect(s: IntArray, seat: int, card: int, deflects: bool) -> None:
    """What ``card``, just played by ``seat`` (not their last card), does in this game."""
    e = s[EDITION]
    kind = KIND_OF[e, card]
    nxt = _next_in(s, seat, s[DIRECTION])
    effect = s[EFFECTS + kind]
    if deflects:
        _deflect(s, seat, kind)
        _offer_stack(s, seat)
    elif effect == FX_STACK:
        starting = s[STACK_TOTAL] == 0
        _add_to_stack(s, seat, kind)
        if COLOUR_OF[e, card] != NO_COL or START_OF[e] == START_ALL_WILD:
            _offer_stack(s, seat)
        else:  # a wild draw card names the colour first; a Wild Draw Four starting a total may be challenged
            if starting and s[ALLOW_BLUFF] and s[WD4_CHALLENGE]:
                s[BLUFF_COLOUR] = s[COLOUR_IN_PLAY]
                s[BLUFF] = 1 if _holds_colour(s, seat, s[COLOUR_IN_PLAY]) else 0
                _push(s, OP_CHALLENGE, nxt, seat)
            else:
                _push(s, OP_STACK, seat, 0)
            _push(s, OP_COLOUR, seat, 0)
    elif effect == FX_SKIP:
        _end_turn(s, seat, 1)
    elif effect == FX_REVERSE:
        s[DIRECTION] = -s[DIRECTION]
        _event(s, E_REVERSE, seat, s[DIRECTION], -1)
        _end_turn(s, seat, 1 if s[PLAYERS_IN] == 2 and s[REVERSE_SKIPS] else 0)
    elif effect == FX_DRAW_TWO:
        _draw_cards(s, nxt, 2)
        _end_turn(s, seat, 1)
    elif effect == FX_COLOUR:
        _push(s, OP_END_TURN, seat, 0)
        _push(s, OP_COLOUR, seat, 0)
    elif effect == FX_SKIP_TWO:
        _end_turn(s, seat, min(2, s[PLAYERS_IN] - 1))
    elif effect == FX_DRAW_FOUR:
        _draw_cards(s, nxt, 4)
        _end_turn(s, seat, 1)
    elif effect == FX_JAM:
        _push(s, OP_END_TURN, seat, 0)
        _push(s, OP_COLOUR, seat, 0)
        _push(s, OP_JAM, seat, 0)
    elif effect == FX_TARGET or effect == FX_SEVEN:  # noqa: SIM109
        _push(s, OP_END_TURN, seat, 0)
        _push(s, OP_TARGET, seat, kind)
    elif effect == FX_ZERO:
        _pass_hands(s, seat)
        _end_turn(s, seat, 0)
    elif effect == FX_DRAW_FOUR_COLOUR:  # a Wild Draw Four without the challenge
        _push(s, OP_END_TURN, seat, 1)
        _push(s, OP_DRAW, nxt, 4)
        _push(s, OP_COLOUR, seat, 0)
    elif effect == FX_JACKPOT:
        _push(s, OP_LEVER_END, seat, 0)
        _push(s, OP_LEVER, seat, 0)
    elif effect == FX_WILD_JACKPOT:  # the colour is named once the lever's action is done
        _push(s, OP_LEVER_END, seat, 0)
        _push(s, OP_COLOUR, seat, 0)
        _push(s, OP_LEVER, seat, 0)
    elif effect == FX_CHALLENGE:
        if s[ALLOW_BLUFF]:
            s[BLUFF_COLOUR] = s[COLOUR_IN_PLAY]
            s[BLUFF] = 1 if _holds_colour(s, seat, s[COLOUR_IN_PLAY]) else 0
            _push(s, OP_CHALLENGE, nxt, seat)
        else:
            _push(s, OP_END_TURN, seat, 1)
            _push(s, OP_DRAW, nxt, 4)
        _push(s, OP_COLOUR, seat, 0)
    else:  # a card without action: the turn passes on
        if s[PENDING_SKIPS]:
            _end_turn(s, seat, 0)
            return
        s[TURN_SEAT] = nxt
        s[ACTOR] = nxt
        s[PHASE] = TURN
        if s[EXPOSED_COUNT]:
            s[ARMED] = 1
        return
    _run_ops(s)


@_jit
def _playable_now(s: IntArray, seat: int, face: int) -> bool:
    e = s[EDITION]
    top = _discard_top(s)
    if not (PLAYABLE_OF[e, s[COLOUR_IN_PLAY] * 32 + KIND_OF[e, top]] >> face) & 1:
        return False
    if face == WD4_OF[e] and not s[ALLOW_BLUFF]:
        return not _holds_colour(s, seat, s[COLOUR_IN_PLAY])
    return True


@_jit
def _draw_on_turn(s: IntArray, seat: int) -> None:
    """The turn's draw; under ``draw_to_match`` one card at a time until one may be played (at most
    to ``hand_limit``)."""
    drew = False
    while True:
        card = _draw_cards(s, seat, 1)
        if card < 0:
            break
        drew = True
        s[STALLS] = 0
        if _playable_now(s, seat, card):
            s[PHASE] = DRAWN
            s[DRAWN_FACE] = card
            return
        if not s[DRAW_TO_MATCH] or (s[HAND_LIMIT] and s[SIZES + seat] >= s[HAND_LIMIT]):
            break
        if s[MERCY] and s[SIZES + seat] >= s[MERCY]:
            break
    _event(s, E_PASS, seat, 0, -1)
    if not drew:  # a turn without a card: a full round of them blocks the round
        s[STALLS] += 1
        if s[STALLS] >= s[PLAYERS_IN]:
            _event(s, E_BLOCKED, seat, s[STALLS], -1)
            _end_round(s)
            return
    _end_turn(s, seat, 0)


@_jit
def _resolve_challenge(s: IntArray, victim: int, challenged: bool) -> None:
    s[STACK_TOTAL] = 0  # a total a Wild Draw Four started ends with the challenge or its acceptance
    s[STACK_KIND] = -1
    bluffer = s[BLUFFER]
    if not challenged:
        _event(s, E_ACCEPT, victim, bluffer, -1)
        _draw_cards(s, victim, 4)
        _end_turn(s, bluffer, 1)
        return
    _event(s, E_CHALLENGE, victim, bluffer, -1)
    _event(s, E_REVEAL, bluffer, victim, -1)
    _event(s, E_VERDICT, bluffer, s[BLUFF], -1)
    if s[BLUFF]:
        _draw_cards(s, bluffer, 4)
        _end_turn(s, bluffer, 0 if s[CHALLENGER_PLAYS] else 1)
    else:
        _draw_cards(s, victim, 6)
        _end_turn(s, bluffer, 1)


@_jit
def _expose_if_single(s: IntArray, seat: int) -> None:
    """A player newly holding one card without a call may be caught; with more, no longer."""
    if not s[CALLS_UNO]:
        return
    if s[SIZES + seat] == 1:
        if not s[EXPOSED + seat]:
            s[EXPOSED + seat] = 1
            s[EXPOSED_COUNT] += 1
    else:
        _unexpose(s, seat)


@_jit
def _answers(s: IntArray, face: int) -> bool:
    """Whether ``face`` may answer the pending total: stack on it (as ``stacking`` says) or deflect it."""
    e = s[EDITION]
    kind = KIND_OF[e, face]
    value = s[DRAW_VALUES + kind]
    if not value:
        if not (s[DEFLECT_KINDS] >> kind) & 1:
            return False
        return (PLAYABLE_OF[e, s[COLOUR_IN_PLAY] * 32 + KIND_OF[e, _discard_top(s)]] >> face) & 1 == 1  # type: ignore[no-any-return]
    last = s[STACK_KIND]
    mode = s[STACKING]
    if mode == STACK_UP:
        return value >= s[DRAW_VALUES + last]  # type: ignore[no-any-return]
    if kind == last:
        return True
    if mode != STACK_CROSS:
        return False
    if START_OF[e] == START_ALL_WILD:  # no colours
        return True
    return value > s[DRAW_VALUES + last] or COLOUR_OF[e, face] == s[COLOUR_IN_PLAY]  # type: ignore[no-any-return]


@_jit
def _stack_faces(s: IntArray, seat: int) -> int:
    """The faces ``seat`` may answer the pending total with, as a bit set (a last card only if it may finish)."""
    held = s[HAND_BITS + seat]
    if s[SIZES + seat] == 1:
        held &= ~s[FINISH_FORBIDDEN]
    faces = 0
    for f in range(s[NF]):
        if (held >> f) & 1 and _answers(s, f):
            faces |= 1 << f
    return faces


@_jit
def _add_to_stack(s: IntArray, seat: int, kind: int) -> None:
    """A draw card's value joins the pending total (twice it on a running total under ``stack_revenge``)."""
    value = s[DRAW_VALUES + kind]
    if s[STACK_TOTAL] and s[REVENGE]:
        value *= 2
    s[STACK_TOTAL] += value
    s[STACK_KIND] = kind
    _event(s, E_STACK, seat, s[STACK_TOTAL], -1)


@_jit
def _hand_over_stack(s: IntArray, victim: int) -> None:
    """``victim`` draws the pending total (which ends)."""
    total = s[STACK_TOTAL]
    s[STACK_TOTAL] = 0
    s[STACK_KIND] = -1
    _event(s, E_STACK_DRAW, victim, total, -1)
    _draw_cards(s, victim, total)


@_jit
def _offer_stack(s: IntArray, seat: int) -> None:
    """Aim the pending total at the player after ``seat``: asked if they can answer it, else they
    draw it and lose the turn."""
    victim = _next_in(s, seat, s[DIRECTION])
    s[OPS_COUNT] = 0
    if _stack_faces(s, victim):
        s[TURN_SEAT] = victim
        s[ACTOR] = victim
        s[PHASE] = STACK
        if s[EXPOSED_COUNT]:
            s[ARMED] = 1
        return
    _take_stack(s, victim)


@_jit
def _take_stack(s: IntArray, victim: int) -> None:
    """``victim`` draws the pending total and loses the turn."""
    _hand_over_stack(s, victim)
    _event(s, E_SKIP, victim, 0, -1)
    _end_turn(s, victim, 0)


@_jit
def _deflect(s: IntArray, seat: int, kind: int) -> None:
    """A Reverse or Skip turns the pending total (a Reverse turns the direction of play first)."""
    if kind == s[REVERSE_KIND]:
        s[DIRECTION] = -s[DIRECTION]
        _event(s, E_REVERSE, seat, s[DIRECTION], -1)
    _event(s, E_DEFLECT, seat, s[STACK_TOTAL], -1)


@_jit
def _move_hand(s: IntArray, to: int, source: int) -> None:
    """Seat ``to`` takes the hand of seat ``source`` (its counts, face bits and size); the seat -1
    is a spare row in the scratch space."""
    spare = SCRATCH + MAX_FACES
    for f in range(s[NF]):
        s[(HANDS + to * MAX_FACES if to >= 0 else SCRATCH) + f] = s[
            (HANDS + source * MAX_FACES if source >= 0 else SCRATCH) + f
        ]
    s[HAND_BITS + to if to >= 0 else spare] = s[HAND_BITS + source if source >= 0 else spare]
    s[SIZES + to if to >= 0 else spare + 1] = s[SIZES + source if source >= 0 else spare + 1]


@_jit
def _pass_hands(s: IntArray, seat: int) -> None:
    """Every hand moves on to the next player in the direction of play (a 0 under ``zero_pass``)."""
    n = s[N]
    step = s[DIRECTION]
    _move_hand(s, -1, seat)  # the passer's hand waits in the scratch row
    seat_to = seat
    for _ in range(s[PLAYERS_IN] - 1):  # each player in takes the hand of the one before
        source = _next_in(s, seat_to, -step)
        _move_hand(s, seat_to, source)
        seat_to = source
    _move_hand(s, seat_to, -1)
    _event(s, E_PASS_HANDS, seat, step, -1)
    for other in range(n):
        s[CALLED + other] = 0
        _expose_if_single(s, other)


@_jit
def _take_card(s: IntArray, seat: int, face: int) -> None:
    """Take one ``face`` out of ``seat``'s hand."""
    hand = HANDS + seat * MAX_FACES
    s[hand + face] -= 1
    if s[hand + face] == 0:
        s[HAND_BITS + seat] &= ~(1 << face)
    s[SIZES + seat] -= 1


@_jit
def _discard(s: IntArray, seat: int, face: int) -> None:
    """``seat`` discards ``face`` (a Slam): it goes under the top card of the discard pile."""
    _take_card(s, seat, face)
    top = _discard_top(s)
    s[DISCARD_PILE + s[DISCARD_COUNT] - 1] = face
    s[DISCARD_PILE + s[DISCARD_COUNT]] = top
    s[DISCARD_COUNT] += 1
    s[DISCARD_FACES + face] += 1
    s[CALLED + seat] = 0
    _event(s, E_DISCARD, seat, 0, face)
    s[DISCARDS_LEFT] -= 1
    if s[SIZES + seat] == 0:
        s[OPS_COUNT] = 0
        _push(s, OP_END_ROUND, seat, 0)
        _run_ops(s)
        return
    _expose_if_single(s, seat)
    if s[DISCARDS_LEFT] == 0:
        _run_ops(s)


@_jit
def _on_target(s: IntArray, seat: int, target: int) -> None:
    """The chosen player draws two (Wild Targeted Draw Two) or swaps hands with ``seat`` (Wild Forced Swap)."""
    _event(s, E_TARGET, seat, target, -1)
    if s[TARGET_KIND] == K_TARGETED:
        _draw_cards(s, target, 2)
        return
    _swap_hands(s, seat, target)


# ---------------------------------------------------------------- UNO Wild Jackpot


@_jit
def _jackpot_op(s: IntArray, op: int, seat: int, arg: int) -> bool:
    """Run one of Wild Jackpot's operations; False when it asks a decision or ends the turn."""
    if op == OP_LEVER:
        return _pull_lever(s, seat)
    if op == OP_LEVER_END:
        skip = s[LEVER_SKIP]
        if s[LEVER_DRAW]:
            _draw_cards(s, _next_in(s, seat, s[DIRECTION]), s[LEVER_DRAW])
        s[LEVER_COLOURS] = 0
        s[LEVER_DRAW] = 0
        s[LEVER_SKIP] = 0
        _end_turn(s, seat, skip)
        return False
    if op == OP_START_RULE:
        s[TARGET_KIND] = TARGET_PERFORMER
        _ask(s, TARGET, seat)
        return False
    if op == OP_PERFORM:
        return _perform(s, seat, arg)
    if op == OP_RETIRE:
        s[PERFORMING] = -1
        for i in range(s[IN_PLAY_COUNT]):
            if s[IN_PLAY + i] == arg:
                for j in range(i, s[IN_PLAY_COUNT] - 1):
                    s[IN_PLAY + j] = s[IN_PLAY + j + 1]
                s[IN_PLAY_COUNT] -= 1
                s[USED + s[USED_COUNT]] = arg
                s[USED_COUNT] += 1
                break
        return True
    if op == OP_HONOUR:
        _ask(s, HONOUR, seat)
        return False
    if op == OP_RUN:
        if _run_faces(s, seat):
            _ask(s, RULE_RUN, seat)
            return False
        _event(s, E_RUN_END, seat, 0, -1)
        return True
    if op == OP_GIVE:
        if arg > 0 and s[SIZES + seat]:
            s[GIVE_LEFT] = min(arg, s[SIZES + seat])
            _ask(s, GIVE, seat)
            return False
        return True
    if op == OP_LEVER_DISCARD:
        if _lever_discard_faces(s, seat):
            _ask(s, LEVER_DISCARD, seat)
            return False
        return True
    if op == OP_RULE_TARGET:
        choices = _rule_targets(s, seat, arg)
        if choices & (choices - 1) == 0:  # one possible target
            target = 0
            while not (choices >> target) & 1:
                target += 1
            _apply_rule_target(s, seat, arg, target)
            return True
        s[TARGET_RULE] = arg
        s[TARGET_CHOICES] = choices
        s[TARGET_KIND] = TARGET_OF_RULE
        _ask(s, TARGET, seat)
        return False
    return True


@_jit
def _pull_lever(s: IntArray, seat: int) -> bool:
    """``seat`` pulls the lever: one of six outcomes, as ``lever_weights`` weighs them."""
    u = _next32(s)
    _trace_value(s, TRACE_UNIFORM, u)
    outcome = 1
    for j in range(5):
        if u >= s[LEVER_AT + j]:
            outcome += 1
    _event(s, E_LEVER, seat, outcome, -1)
    s[LEVER_LAST] = outcome
    s[LEVER_PULLS + outcome - 1] += 1
    s[LEVER_COLOURS] = 0
    s[LEVER_DRAW] = 0
    s[LEVER_SKIP] = 0
    if outcome == 1:  # the puller chooses who performs a rule card
        s[TARGET_KIND] = TARGET_PERFORMER
        _ask(s, TARGET, seat)
        return False
    if outcome == 2 or outcome == 3:  # the player on the right, or on the left
        performer = _next_in(s, seat, -1 if outcome == 2 else 1)
        rid = _dispense(s, performer)
        if rid >= 0:
            _push(s, OP_PERFORM, performer, rid)
    elif outcome == 4:  # everyone, the puller first, in the direction of play
        performer = seat
        for k in range(s[PLAYERS_IN]):
            s[LEVER_SEATS + k] = performer
            s[LEVER_RIDS + k] = _dispense(s, performer)
            performer = _next_in(s, performer, s[DIRECTION])
        for k in range(s[PLAYERS_IN] - 1, -1, -1):
            if s[LEVER_RIDS + k] >= 0:
                _push(s, OP_PERFORM, s[LEVER_SEATS + k], s[LEVER_RIDS + k])
    elif outcome == 5:
        _push(s, OP_LEVER_DISCARD, seat, 0)
    else:
        _draw_cards(s, seat, 4)
    return True


@_jit
def _dispense(s: IntArray, seat: int) -> int:
    """Press the button: a rule card for ``seat`` (-1 if the unit is empty; the used cards are
    shuffled back in first when the dispenser is empty)."""
    if s[DISPENSER_COUNT] == 0 and s[USED_COUNT]:
        for i in range(s[USED_COUNT]):
            s[DISPENSER + i] = s[USED + i]
        s[DISPENSER_COUNT] = s[USED_COUNT]
        s[USED_COUNT] = 0
        _permute(s, DISPENSER, s[DISPENSER_COUNT])
        _event(s, E_RULE_RESHUFFLE, -1, s[DISPENSER_COUNT], -1)
    if s[DISPENSER_COUNT] == 0:
        _event(s, E_DISPENSE, seat, -1, -1)
        return -1
    s[DISPENSER_COUNT] -= 1
    rid = s[DISPENSER + s[DISPENSER_COUNT]]
    s[IN_PLAY + s[IN_PLAY_COUNT]] = rid
    s[IN_PLAY_COUNT] += 1
    _event(s, E_DISPENSE, seat, rid, -1)
    return rid  # type: ignore[no-any-return]


@_jit
def _out(s: IntArray, seat: int) -> bool:
    """If ``seat`` has no cards left, the round ends now (the operations pending are dropped)."""
    if s[SIZES + seat]:
        return False
    s[OPS_COUNT] = 0
    _push(s, OP_END_ROUND, seat, 0)
    return True


@_jit
def _perform(s: IntArray, seat: int, rid: int) -> bool:
    """``seat`` performs rule card ``rid``: its enforced effect, or its honour task."""
    e = s[EDITION]
    _event(s, E_RULE, seat, rid, -1)
    s[PERFORMING] = rid
    _push(s, OP_RETIRE, seat, rid)
    verb = s[RULE_VERB + rid]
    count = s[RULE_COUNT + rid]
    size = s[SIZES + seat]
    if verb == V_HONOUR:
        s[RULES_HONOURED] += 1
        _push(s, OP_HONOUR, seat, rid)
        return True
    s[RULES_ENFORCED] += 1
    if verb == V_DRAW:
        _draw_cards(s, seat, count)
    elif verb == V_DRAW_TO:
        _draw_cards(s, seat, max(0, count - size))
    elif verb == V_DISCARD:
        _push(s, OP_DISCARD, seat, count)
    elif verb == V_DISCARD_TO:
        if size > count:
            _push(s, OP_DISCARD, seat, size - count)
    elif verb == V_PLAY_RUN:
        _push(s, OP_RUN, seat, 0)
    elif verb == V_PLAY_WILDS:
        hand = HANDS + seat * MAX_FACES
        played = 0
        for f in range(s[NF]):
            if COLOUR_OF[e, f] == NO_COL:
                while s[hand + f]:
                    _take_card(s, seat, f)
                    s[DISCARD_PILE + s[DISCARD_COUNT]] = f
                    s[DISCARD_COUNT] += 1
                    s[DISCARD_FACES + f] += 1
                    s[CALLED + seat] = 0
                    _event(s, E_PLAY, seat, 0, f)
                    if s[JUMPING]:
                        s[LAST_PLAY] = seat * 64 + f
                    played += 1
        if played:
            if _out(s, seat):
                return True
            _expose_if_single(s, seat)
            _push(s, OP_COLOUR, seat, 0)
    elif verb == V_SKIP_TURN:
        s[TURN_SKIPS + seat] += 1
        s[PENDING_SKIPS] += 1
        _event(s, E_LOSE_TURN, seat, 0, -1)
    elif verb == V_REVERSE:
        s[DIRECTION] = -s[DIRECTION]
        _event(s, E_REVERSE, seat, s[DIRECTION], -1)
    elif verb == V_GIVE or verb == V_TAKE or verb == V_SWAP:  # noqa: SIM109
        _push(s, OP_RULE_TARGET, seat, rid)
    elif verb == V_EVERYONE_DRAWS:
        player = seat
        for _ in range(s[PLAYERS_IN]):
            _draw_cards(s, player, count)
            player = _next_in(s, player, s[DIRECTION])
    elif verb == V_EVERYONE_DISCARDS:  # pushed last player first: the performer discards first
        player = _next_in(s, seat, -s[DIRECTION])
        for _ in range(s[PLAYERS_IN]):
            _push(s, OP_DISCARD, player, count)
            player = _next_in(s, player, -s[DIRECTION])
    return True


@_jit
def _rule_targets(s: IntArray, seat: int, rid: int) -> int:
    """The players rule card ``rid`` performed by ``seat`` may aim at, as seat bits."""
    n = s[N]
    aim = s[RULE_AIM + rid]
    if aim == T_LEFT:
        return 1 << _next_in(s, seat, 1)
    if aim == T_RIGHT:
        return 1 << _next_in(s, seat, -1)
    if aim == T_NEXT:
        return 1 << _next_in(s, seat, s[DIRECTION])
    if aim == T_PREVIOUS:
        return 1 << _next_in(s, seat, -s[DIRECTION])
    most = -1
    fewest = 1 << 30
    for other in range(n):
        if other != seat and not (s[OUT] >> other) & 1:
            most = max(most, s[SIZES + other])
            fewest = min(fewest, s[SIZES + other])
    choices = 0
    for other in range(n):
        if other == seat or (s[OUT] >> other) & 1:
            continue
        size = s[SIZES + other]
        if (aim == T_MOST and size == most) or (aim == T_FEWEST and size == fewest) or aim == T_CHOICE:
            choices |= 1 << other
    return choices


@_jit
def _apply_rule_target(s: IntArray, seat: int, rid: int, target: int) -> None:
    """Rule card ``rid`` performed by ``seat`` reaches ``target``: cards to give, cards taken at
    random, or hands swapped."""
    verb = s[RULE_VERB + rid]
    if verb == V_GIVE:
        s[GIVE_TO] = target
        _push(s, OP_GIVE, seat, s[RULE_COUNT + rid])
    elif verb == V_TAKE:
        held = s[SIZES + target]
        take = min(s[RULE_COUNT + rid], held)
        pool = SCRATCH
        theirs = HANDS + target * MAX_FACES
        at = 0
        for f in range(s[NF]):
            for _ in range(s[theirs + f]):
                s[pool + at] = f
                at += 1
        for i in range(take):  # ``take`` distinct cards of the hand: a partial Fisher-Yates
            j = i + _below(s, held - i)
            s[pool + i], s[pool + j] = s[pool + j], s[pool + i]
        if s[TRACE_ON]:
            _trace(s, TRACE_SAMPLE, pool, take)
        mine = HANDS + seat * MAX_FACES
        for i in range(take):
            f = s[pool + i]
            _take_card(s, target, f)
            s[mine + f] += 1
            s[HAND_BITS + seat] |= 1 << f
            s[SIZES + seat] += 1
        s[CALLED + seat] = 0
        s[CALLED + target] = 0
        _event(s, E_TAKE, seat, target, -1)
        _expose_if_single(s, seat)
        _expose_if_single(s, target)
        _out(s, target)
    else:
        _swap_hands(s, seat, target)


@_jit
def _swap_hands(s: IntArray, seat: int, target: int) -> None:
    """``seat`` and ``target`` swap hands."""
    mine = HANDS + seat * MAX_FACES
    theirs = HANDS + target * MAX_FACES
    for f in range(s[NF]):
        s[mine + f], s[theirs + f] = s[theirs + f], s[mine + f]
    s[HAND_BITS + seat], s[HAND_BITS + target] = s[HAND_BITS + target], s[HAND_BITS + seat]
    s[SIZES + seat], s[SIZES + target] = s[SIZES + target], s[SIZES + seat]
    s[CALLED + seat] = 0
    s[CALLED + target] = 0
    _event(s, E_SWAP, seat, target, -1)
    _expose_if_single(s, seat)
    _expose_if_single(s, target)


@_jit
def _run_faces(s: IntArray, seat: int) -> int:
    """The faces ``seat`` may play in a run of plays (as on a turn), as a bit set."""
    faces = 0
    held = s[HAND_BITS + seat]
    for f in range(s[NF]):
        if (held >> f) & 1 and _playable_now(s, seat, f):
            faces |= 1 << f
    return faces


@_jit
def _lever_discard_faces(s: IntArray, seat: int) -> int:
    """The faces ``seat`` may discard after the lever: coloured, of a colour not yet discarded."""
    e = s[EDITION]
    faces = 0
    held = s[HAND_BITS + seat]
    for f in range(s[NF]):
        colour = COLOUR_OF[e, f]
        if (held >> f) & 1 and colour != NO_COL and not (s[LEVER_COLOURS] >> colour) & 1:
            faces |= 1 << f
    return faces


@_jit
def _jackpot_target(s: IntArray, seat: int, target: int) -> None:
    """The target chosen: the performer of a dispensed rule card, or the player a rule card aims at."""
    _event(s, E_TARGET, seat, target, -1)
    if s[TARGET_KIND] == TARGET_PERFORMER:
        rid = _dispense(s, target)
        if rid >= 0:
            _push(s, OP_PERFORM, target, rid)
        return
    rid = s[TARGET_RULE]
    s[TARGET_RULE] = -1
    s[TARGET_CHOICES] = 0
    _apply_rule_target(s, seat, rid, target)


@_jit
def _jackpot_action(s: IntArray, seat: int, action: int) -> None:
    """Apply a legal action of one of Wild Jackpot's phases."""
    e = s[EDITION]
    phase = s[PHASE]
    if phase == RULE_RUN:  # one more card of the run: no action, the colour named after a wild
        called = action >= s[ID_PLAY_UNO]
        face = action - s[ID_PLAY_UNO] if called else action
        _take_card(s, seat, face)
        s[DISCARD_PILE + s[DISCARD_COUNT]] = face
        s[DISCARD_COUNT] += 1
        s[DISCARD_FACES + face] += 1
        _event(s, E_PLAY, seat, 1 if called else 0, face)
        if s[JUMPING]:
            s[LAST_PLAY] = seat * 64 + face
        s[CALLED + seat] = 1 if called else 0
        wild = COLOUR_OF[e, face] == NO_COL
        if not wild:
            s[COLOUR_IN_PLAY] = COLOUR_OF[e, face]
        if not _out(s, seat):
            if s[SIZES + seat] == 1 and not called:
                _expose_if_single(s, seat)
            _push(s, OP_RUN, seat, 0)
            if wild:
                _push(s, OP_COLOUR, seat, 0)
    elif phase == LEVER_DISCARD:
        if action == s[ID_DONE]:
            _event(s, E_DONE, seat, 0, -1)
        else:
            face = action - s[ID_DISCARD]
            colour = COLOUR_OF[e, face]
            _take_card(s, seat, face)
            s[DISCARD_PILE + s[DISCARD_COUNT]] = face
            s[DISCARD_COUNT] += 1
            s[DISCARD_FACES + face] += 1
            s[COLOUR_IN_PLAY] = colour
            s[CALLED + seat] = 0
            _event(s, E_DISCARD, seat, 1, face)
            if s[JUMPING]:
                s[LAST_PLAY] = -1
            s[LEVER_COLOURS] |= 1 << colour
            kind = KIND_OF[e, face]
            if kind == K_REVERSE:
                s[DIRECTION] = -s[DIRECTION]
                _event(s, E_REVERSE, seat, s[DIRECTION], -1)
            elif kind == K_SKIP:
                s[LEVER_SKIP] = 1
            elif kind == K_DRAW_TWO:
                s[LEVER_DRAW] += 2
                s[LEVER_SKIP] = 1
            if s[SIZES + seat] == 0:
                if s[LEVER_DRAW]:  # a final Draw Two is still drawn
                    _draw_cards(s, _next_in(s, seat, s[DIRECTION]), s[LEVER_DRAW])
                _out(s, seat)
            else:
                _expose_if_single(s, seat)
                _push(s, OP_LEVER_DISCARD, seat, 0)
    elif phase == HONOUR:
        _event(s, E_DONE, seat, 0, -1)
    else:  # GIVE
        target = s[GIVE_TO]
        face = action - s[ID_GIVE]
        _take_card(s, seat, face)
        s[HANDS + target * MAX_FACES + face] += 1
        s[HAND_BITS + target] |= 1 << face
        s[SIZES + target] += 1
        s[CALLED + seat] = 0
        s[CALLED + target] = 0
        _event(s, E_GIVE, seat, target, -1)
        s[GIVE_LEFT] -= 1
        _expose_if_single(s, target)
        if not _out(s, seat):
            _expose_if_single(s, seat)
            if s[GIVE_LEFT] > 0:
                return
    _run_ops(s)


@_jit
def _write_faces(s: IntArray, bits: int, count: int) -> int:
    """Append the faces of the bit set ``bits`` to the ``LEGAL`` area from ``count``, lowest first
    (a de Bruijn look-up per 32-bit half); returns the new count."""
    while bits:
        low = bits & 0xFFFFFFFF
        if low:
            lowest = low & -low
            s[LEGAL + count] = _DE_BRUIJN[((lowest * 0x077CB531) & 0xFFFFFFFF) >> 27]
        else:
            lowest = (bits >> 32) & -(bits >> 32)
            s[LEGAL + count] = 32 + _DE_BRUIJN[((lowest * 0x077CB531) & 0xFFFFFFFF) >> 27]
            lowest <<= 32
        bits ^= lowest
        count += 1
    return count


@_jit
def _write_plays(s: IntArray, bits: int, size: int) -> int:
    """The plays of the faces ``bits`` into the ``LEGAL`` area (with UNO called, too, from a hand of
    two while players call UNO); returns their count."""
    count = _write_faces(s, bits, 0)
    if size == 2 and s[CALLS_UNO]:
        for i in range(count):
            s[LEGAL + count + i] = s[ID_PLAY_UNO] + s[LEGAL + i]
        count += count
    return count


@_jit
def _decision_ids(s: IntArray, seat: int, phase: int, size: int) -> int:
    """The actor's legal action ids in the phases other than a turn and a drawn card (see :func:`legal_ids`)."""
    count = 0
    if phase == COLOUR:
        for c in range(s[NCOL]):
            s[LEGAL + c] = s[ID_COLOUR] + c
        count = s[NCOL]
    elif phase == CHALLENGE:
        if s[STACK_TOTAL]:  # the Wild Draw Four started a total: it may be stacked on, too
            count = _write_plays(s, _stack_faces(s, seat), size)
        s[LEGAL + count] = s[ID_CHALLENGE]
        s[LEGAL + count + 1] = s[ID_ACCEPT]
        count += 2
    elif phase == STACK:
        count = _write_plays(s, _stack_faces(s, seat), size)
        s[LEGAL + count] = s[ID_ACCEPT]
        count += 1
    elif phase == MULTI:
        count = _write_plays(s, _set_faces(s, seat), size)
        s[LEGAL + count] = s[ID_PASS]
        count += 1
    elif phase == DISCARD:
        count = _write_faces(s, s[HAND_BITS + seat], 0)
        for i in range(count):
            s[LEGAL + i] += s[ID_DISCARD]
    elif phase == TARGET:  # every other player (a rule card's performer: anyone; its target: its choices)
        kind = s[TARGET_KIND]
        for other in range(s[N]):
            if (s[OUT] >> other) & 1:
                continue
            if (
                (kind == TARGET_OF_RULE and (s[TARGET_CHOICES] >> other) & 1)
                or kind == TARGET_PERFORMER
                or (kind < TARGET_PERFORMER and other != seat)
            ):
                s[LEGAL + count] = s[ID_TARGET] + other
                count += 1
    elif phase == RULE_RUN:
        count = _write_plays(s, _run_faces(s, seat), size)
    elif phase == LEVER_DISCARD:
        count = _write_faces(s, _lever_discard_faces(s, seat), 0)
        for i in range(count):
            s[LEGAL + i] += s[ID_DISCARD]
        s[LEGAL + count] = s[ID_DONE]
        count += 1
    elif phase == HONOUR:
        s[LEGAL] = s[ID_DONE]
        count = 1
    elif phase == GIVE:
        count = _write_faces(s, s[HAND_BITS + seat], 0)
        for i in range(count):
            s[LEGAL + i] += s[ID_GIVE]
    return count


@_jit
def _actor_ids(s: IntArray, seat: int) -> int:
    """The legal action ids of the actor ``seat`` in its phase (no call, catch or jump-in), into the
    ``LEGAL`` area; their count."""
    count = 0
    phase = s[PHASE]
    size = s[SIZES + seat]
    if phase == TURN:
        e = s[EDITION]
        bits = s[HAND_BITS + seat] & PLAYABLE_OF[e, s[COLOUR_IN_PLAY] * 32 + KIND_OF[e, _discard_top(s)]]
        wd4 = WD4_OF[e]
        if not s[ALLOW_BLUFF] and wd4 >= 0 and (bits >> wd4) & 1 and _holds_colour(s, seat, s[COLOUR_IN_PLAY]):
            bits &= ~(1 << wd4)
        if size == 1:
            bits &= ~s[FINISH_FORBIDDEN]
        count = _write_plays(s, bits, size)
        if not (count and (s[MUST_PLAY] or (s[HAND_LIMIT] and size >= s[HAND_LIMIT]))):
            s[LEGAL + count] = s[ID_DRAW]
            count += 1
    elif phase == DRAWN:
        s[LEGAL + 0] = s[DRAWN_FACE]
        count = 1
        if size == 2 and s[CALLS_UNO]:
            s[LEGAL + 1] = s[ID_PLAY_UNO] + s[DRAWN_FACE]
            count = 2
        if not s[FORCE_PLAY]:
            s[LEGAL + count] = s[ID_PASS]
            count += 1
    else:
        count = _decision_ids(s, seat, phase, size)
    return count


@_jit
def legal_ids(s: IntArray, seat: int) -> int:
    """Write the legal action ids of ``seat`` into the state's ``LEGAL`` area (``s[LEGAL + i]``), in
    increasing order; returns their count.  The one definition of what is legal in the compiled engine."""
    count = 0
    phase = s[PHASE]
    if phase == OVER or seat < 0 or seat >= s[N]:
        return 0
    if seat == s[ACTOR]:
        count = _actor_ids(s, seat)
    if s[EXPOSED_COUNT] and not (s[OUT] >> seat) & 1:
        if s[EXPOSED + seat]:
            s[LEGAL + count] = s[ID_CALL_UNO]
            count += 1
        for other in range(s[N]):
            if other != seat and s[EXPOSED + other] and not (s[TEAMS] and (other - seat) % 2 == 0):
                s[LEGAL + count] = s[ID_CATCH] + other  # (partners do not catch each other)
                count += 1
    if s[JUMP_CARD] >= 0 and seat != s[ACTOR] and seat != s[JUMP_FROM]:  # a jump-in on the identical card
        card = s[JUMP_CARD]
        size = s[SIZES + seat]
        if s[HANDS + seat * MAX_FACES + card] and not (size == 1 and (s[FINISH_FORBIDDEN] >> card) & 1):
            s[LEGAL + count] = s[ID_JUMP] + card
            count += 1
            if size == 2 and s[CALLS_UNO]:
                s[LEGAL + count] = s[ID_JUMP_UNO] + card
                count += 1
    return count


@_jit
def _may_interrupt(s: IntArray, seat: int) -> bool:
    """Whether ``seat`` may call or catch UNO now."""
    if (s[OUT] >> seat) & 1:
        return False
    if s[EXPOSED + seat]:
        return True
    for other in range(s[N]):
        if other != seat and s[EXPOSED + other] and not (s[TEAMS] and (other - seat) % 2 == 0):
            return True
    return False


@_jit
def legal_mask(s: IntArray, seat: int, mask: Any) -> int:
    """Set ``mask[a]`` to 1 for each legal action id of ``seat`` (the rest untouched); returns their count."""
    count = legal_ids(s, seat)
    ids = s[LEGAL : LEGAL + s[ID_WAIT]]
    for i in range(count):
        mask[ids[i]] = 1
    return count


@_jit
def asked(s: IntArray) -> tuple[int, bool]:
    """The seat asked now by the decision cycle and whether out of turn (``(-1, False)`` when over):
    while someone may be caught, every other seat that may call or catch, in the fair order of
    :mod:`unokit.fast.order` (each may wait), then the actor."""
    if s[PHASE] == OVER:
        return -1, False
    actor = s[ACTOR]
    waited = s[WAITED]
    if s[EXPOSED_COUNT]:
        candidates = 0
        for seat in range(s[N]):
            if seat != actor and not (waited >> seat) & 1 and (not (s[TEAMS] or s[OUT]) or _may_interrupt(s, seat)):
                candidates |= 1 << seat
        if candidates:
            return next_by_rank(s[ORDER_KEY], s[MOVES], candidates, -1), True
    if s[JUMP_CARD] >= 0:  # an open Jump-In window: every other seat in play order, holding the card or not
        seat = actor
        for _ in range(s[PLAYERS_IN] - 1):
            seat = _next_in(s, seat, s[DIRECTION])
            if seat != s[JUMP_FROM] and not (waited >> seat) & 1:
                return seat, True
    return actor, False


@_jit
def apply(s: IntArray, seat: int, action: int) -> int:
    """Apply a legal ``action`` of ``seat`` (checked: returns 1 and changes nothing if it is not legal)."""
    count = legal_ids(s, seat)
    ids = s[LEGAL : LEGAL + s[ID_WAIT]]
    for i in range(count):
        if ids[i] == action:
            _apply_legal(s, seat, action)
            return 0
    return 1


@_jit
def _apply_decision(s: IntArray, seat: int, action: int) -> None:
    """Apply a legal action of the phases other than a turn and a drawn card (see :func:`_apply_legal`)."""
    if action < s[ID_CHALLENGE]:
        colour = COLOURS_OF[s[EDITION], action - s[ID_COLOUR]]
        s[COLOUR_IN_PLAY] = colour
        _event(s, E_COLOUR, seat, colour, -1)
        _run_ops(s)
    elif action == s[ID_ACCEPT] and s[PHASE] == STACK:
        _take_stack(s, seat)
    elif action < s[ID_TARGET]:
        _resolve_challenge(s, seat, action == s[ID_CHALLENGE])
    elif action < s[ID_DISCARD]:
        if s[TARGET_KIND] >= TARGET_PERFORMER:
            _jackpot_target(s, seat, action - s[ID_TARGET])
        else:
            _on_target(s, seat, action - s[ID_TARGET])
        _run_ops(s)
    else:
        _discard(s, seat, action - s[ID_DISCARD])


@_jit
def _apply_legal(s: IntArray, seat: int, action: int) -> None:
    """Apply ``action`` of ``seat``, known to be legal."""
    s[MOVES] += 1
    s[WAITED] = 0
    if s[ID_CALL_UNO] <= action < s[ID_DONE]:  # a call or a catch
        if action == s[ID_CALL_UNO]:
            _unexpose(s, seat)
            s[CALLED + seat] = 1
            _event(s, E_UNO, seat, 0, -1)
        else:
            caught = action - s[ID_CATCH]
            _unexpose(s, caught)
            s[CALLED + caught] = 0
            _event(s, E_CATCH, seat, caught, -1)
            _draw_cards(s, caught, s[UNO_PENALTY])
        if not s[EXPOSED_COUNT]:
            s[ARMED] = 0
        if s[MERCY]:
            _settle_mercy(s)
        return
    if s[ARMED]:
        for other in range(s[N]):
            s[EXPOSED + other] = 0
        s[EXPOSED_COUNT] = 0
        s[ARMED] = 0
    if RULE_RUN <= s[PHASE] <= GIVE:
        _jackpot_action(s, seat, action)
    elif action < s[ID_DRAW]:
        s[DRAWN_FACE] = -1
        if action >= s[ID_PLAY_UNO]:
            _play_card(s, seat, action - s[ID_PLAY_UNO], True)
        else:
            _play_card(s, seat, action, False)
    elif action >= s[ID_JUMP]:  # a jump-in: the jumper's turn, from their card
        _event(s, E_JUMP, seat, s[ACTOR], -1)
        s[TURN_SEAT] = seat
        s[ACTOR] = seat
        s[DRAWN_FACE] = -1
        s[JUMP_PLAY] = 1
        if action >= s[ID_JUMP_UNO]:
            _play_card(s, seat, action - s[ID_JUMP_UNO], True)
        else:
            _play_card(s, seat, action - s[ID_JUMP], False)
        s[JUMP_PLAY] = 0
    elif action == s[ID_DRAW]:
        _draw_on_turn(s, seat)
    elif action == s[ID_PASS]:
        s[DRAWN_FACE] = -1
        _event(s, E_PASS, seat, 0, -1)
        if s[PHASE] == MULTI:  # the set ends: the number's effect, once
            _end_set(s, seat)
            _card_effect(s, seat, _discard_top(s), False)
        else:
            _end_turn(s, seat, 0)
    else:
        _apply_decision(s, seat, action)
    if s[DEAL_DUE]:
        s[DEAL_DUE] = 0
        _start_round(s, _next_in(s, s[DEALER], 1))
    if s[JUMPING]:  # any action but a call or a catch closes the window; a play resolved into a turn opens one
        s[JUMP_CARD] = -1
        s[JUMP_FROM] = -1
        if s[JUMP_NEXT] >= 0 and s[PHASE] == TURN:
            _open_jump_window(s)
    if s[MERCY]:
        _settle_mercy(s)


@_jit
def _settle_mercy(s: IntArray) -> None:
    """Mercy, after an action is resolved: put out of the round whoever holds the limit, until
    nobody does (a round that ends is dealt anew first)."""
    while s[PHASE] != OVER:
        again = _put_out(s)
        if s[DEAL_DUE]:
            s[DEAL_DUE] = 0
            _start_round(s, _next_in(s, s[DEALER], 1))
        if not again:
            break


@_jit
def _put_out(s: IntArray) -> bool:
    """Every player in the round holding ``mercy_limit`` cards or more is out of it (if that would
    leave nobody, those with the fewest cards among them are spared): their cards go face up under
    the top card, their pending decisions are cancelled; one player (team) left wins the round.
    Whether to look again."""
    n = s[N]
    limit = s[MERCY]
    over = 0
    playing = 0
    fewest = 1 << 30
    for seat in range(n):
        if not (s[OUT] >> seat) & 1:
            playing |= 1 << seat
            if s[SIZES + seat] >= limit:
                over |= 1 << seat
                fewest = min(fewest, s[SIZES + seat])
    if not over:
        return False
    if over == playing:
        for seat in range(n):
            if (over >> seat) & 1 and s[SIZES + seat] == fewest:
                over &= ~(1 << seat)
        if not over:
            return False
    for seat in range(n):
        if (over >> seat) & 1:
            _lay_under_top(s, seat)
    s[OUT] |= over
    for seat in range(n):
        s[PLAYERS_IN] -= (over >> seat) & 1
    if not s[EXPOSED_COUNT]:
        s[ARMED] = 0
    sides = 0
    for seat in range(n):
        if not (s[OUT] >> seat) & 1:
            sides |= 1 << (seat % 2 if s[TEAMS] else seat)
    if sides & (sides - 1) == 0:  # one player (team) left: the round ends
        s[OPS_COUNT] = 0
        _push(s, OP_END_ROUND, _next_in(s, n - 1, 1), 0)
        _run_ops(s)
        return False
    _cancel(s, over)
    return True


@_jit
def _lay_under_top(s: IntArray, seat: int) -> None:
    """``seat``'s cards go face up under the top card (in face order) and it is out of the round."""
    hand = HANDS + seat * MAX_FACES
    count = s[SIZES + seat]
    _event(s, E_MERCY, seat, count, -1)
    s[OUT_POINTS + seat] = _hand_points(s, seat)
    top = _discard_top(s)
    at = s[DISCARD_COUNT] - 1
    for f in range(s[NF]):
        for _ in range(s[hand + f]):
            s[DISCARD_PILE + at] = f
            s[DISCARD_FACES + f] += 1
            at += 1
        s[hand + f] = 0
    s[DISCARD_PILE + at] = top
    s[DISCARD_COUNT] = at + 1
    s[OUT_CARDS + seat] = count
    s[HAND_BITS + seat] = 0
    s[SIZES + seat] = 0
    s[CALLED + seat] = 0
    _unexpose(s, seat)
    s[PENDING_SKIPS] -= s[TURN_SKIPS + seat]
    s[TURN_SKIPS + seat] = 0


@_jit
def _cancel(s: IntArray, gone: int) -> None:
    """Drop what the players just put out of the round were still to do (decisions, draws, Jackpot
    tasks: a task's rule card is retired); if one of them was to decide, the turn passes to the
    next player still in."""
    kept = 0
    for i in range(s[OPS_COUNT]):
        op = s[OPS + 3 * i]
        seat = s[OPS + 3 * i + 1]
        arg = s[OPS + 3 * i + 2]
        if op == OP_CHALLENGE and (gone >> arg) & 1:
            continue  # the Wild Draw Four of a player out: no challenge, no penalty
        if not (gone >> seat) & 1 or (POSITIONAL_OPS >> op) & 1:
            pass
        elif op == OP_PERFORM:
            op = OP_RETIRE
        else:
            continue
        s[OPS + 3 * kept] = op
        s[OPS + 3 * kept + 1] = seat
        s[OPS + 3 * kept + 2] = arg
        kept += 1
    s[OPS_COUNT] = kept
    actor = s[ACTOR]
    phase = s[PHASE]
    gift = RULE_RUN <= phase < STACK and s[GIVE_TO] >= 0 and (gone >> s[GIVE_TO]) & 1
    if phase == CHALLENGE and (gone >> s[BLUFFER]) & 1:
        actor = s[BLUFFER]  # their Wild Draw Four is dropped: its victim plays
    elif not (gone >> actor) & 1 and not gift and _actor_ids(s, actor):
        return
    s[DRAWN_FACE] = -1
    s[DISCARDS_LEFT] = 0
    s[MULTI_COUNT] = 0
    s[STACK_TOTAL] = 0
    s[STACK_KIND] = -1
    s[JUMP_NEXT] = -1
    s[JUMP_NEXT_FROM] = -1
    if phase == CHALLENGE:  # the penalty is dropped with the victim
        kept = 0
        for i in range(s[OPS_COUNT]):
            if s[OPS + 3 * i] != OP_END_TURN:
                for k in range(3):
                    s[OPS + 3 * kept + k] = s[OPS + 3 * i + k]
                kept += 1
        s[OPS_COUNT] = kept
    if s[OPS_COUNT]:
        s[PHASE] = TURN
        s[ACTOR] = -1  # set again by an operation that asks a player or ends the turn
        _run_ops(s)
        if s[PHASE] == OVER or s[DEAL_DUE] or (s[ACTOR] >= 0 and not (s[OUT] >> s[ACTOR]) & 1):
            return
        if s[ACTOR] >= 0:
            actor = s[ACTOR]
    _end_turn(s, actor, 0)


@_jit
def _open_jump_window(s: IntArray) -> None:
    """Open the window on the card just played, if it is still on top and has identical copies (a
    coloured edition's wild cards do not)."""
    card = s[JUMP_NEXT]
    seat = s[JUMP_NEXT_FROM]
    s[JUMP_NEXT] = -1
    s[JUMP_NEXT_FROM] = -1
    e = s[EDITION]
    if _discard_top(s) != card or (COLOUR_OF[e, card] == NO_COL and START_OF[e] != START_ALL_WILD):
        return
    if s[LAST_PLAY] != seat * 64 + card:  # another card was played since (a run, a rule's wild cards)
        return
    s[JUMP_CARD] = card
    s[JUMP_FROM] = seat


@_jit
def act(s: IntArray, seat: int, action: int) -> int:
    """The decision cycle's step: ``seat`` must be the seat asked; "wait" (``s[ID_WAIT]``) declines a
    decision out of turn.  Returns 0, 1 for an illegal action, 2 for a seat not asked (nothing changed)."""
    asked_seat, out_of_turn = asked(s)
    if seat != asked_seat:
        return 2
    if action == s[ID_WAIT]:
        if not out_of_turn:
            return 1
        s[WAITED] |= 1 << seat
        return 0
    return apply(s, seat, action)


@_jit
def start(s: IntArray, dealer: int) -> None:
    """Choose the dealer (``dealer`` < 0: each player draws a card, as the sheet says), load Wild
    Jackpot's rule cards into the dispenser, and deal."""
    if dealer < 0:
        dealer = _choose_dealer(s)
    if s[JACKPOT]:
        _load_rule_cards(s)
    _start_round(s, dealer)


@_jit
def _load_rule_cards(s: IntArray) -> None:
    """The rule cards (unless written, drawn from the sheet's suggestions, as
    ``jackpot.suggested_rule_cards`` draws them) go into the dispenser, shuffled."""
    total = s[RULE_TOTAL]
    if not s[RULES_WRITTEN]:
        suggestions = len(SUGGESTION_CODES)
        for i in range(suggestions):
            s[DISPENSER + i] = i
        _permute(s, DISPENSER, suggestions)
        for rid in range(total):
            text = s[DISPENSER + rid % suggestions]
            s[RULE_VERB + rid] = SUGGESTION_CODES[text, 0]
            s[RULE_COUNT + rid] = SUGGESTION_CODES[text, 1]
            s[RULE_AIM + rid] = SUGGESTION_CODES[text, 2]
    for rid in range(total):
        s[DISPENSER + rid] = rid
    s[DISPENSER_COUNT] = total
    s[USED_COUNT] = 0
    s[IN_PLAY_COUNT] = 0
    _permute(s, DISPENSER, total)


# ---------------------------------------------------------------- set-up from Python


def _set_house_rules(s: IntArray, edition: Edition, rules: Rules) -> None:
    """The card effects of ``edition`` under ``rules`` (house rules change some, as
    :class:`unokit.editions.house.HouseGame` does) and the house rules' switches, into state ``s``."""
    from unokit.editions.house import forbidden_as_last_card

    code = EDITIONS.index(edition.name)
    effects = list(EFFECT_OF[code])
    finals = list(FINAL_OF[code])
    values = [0] * 32
    if rules.stacking != "off":
        for kind, value in edition.draw_values.items():
            if rules.stacking != "draw-two" or value == 2:
                values[kind] = value
                effects[kind] = FX_STACK
                finals[kind] = FINAL_STACK
    wd4 = edition.wild_draw_four_kind
    if not rules.wild_draw_four_challenge and wd4 >= 0 and not values[wd4]:
        effects[wd4] = FX_DRAW_FOUR_COLOUR
    deflect = rules.stack_deflect if any(values) else "off"
    deflectors = (edition.reverse_kind,) * (deflect in ("reverse", "both")) + (edition.skip_kind,) * (
        deflect in ("skip", "both")
    )
    s[DRAW_VALUES : DRAW_VALUES + 32] = values
    s[STACKING] = STACK_MODES.index(rules.stacking)
    s[STACK_KIND] = -1
    s[REVENGE] = rules.stack_revenge
    s[DEFLECT_KINDS] = _bits(kind in deflectors for kind in range(32))
    s[WD4_CHALLENGE] = rules.wild_draw_four_challenge
    s[REVERSE_KIND] = edition.reverse_kind
    numbered = any(CARD_NUMBER[card] >= 0 for card in edition.faces)
    s[MULTI_MODE] = MULTI_PLAY_MODES.index(rules.multi_play) if numbered else MULTI_OFF
    s[BOMB] = rules.multi_play_bomb
    s[TEAMS] = rules.teams
    s[JUMPING] = rules.jump_in
    for slot in (JUMP_CARD, JUMP_FROM, JUMP_NEXT, JUMP_NEXT_FROM):
        s[slot] = -1
    if rules.seven_swap:
        effects[Kind.SEVEN] = FX_SEVEN
    if rules.zero_pass:
        effects[Kind.ZERO] = FX_ZERO
    s[EFFECTS : EFFECTS + len(effects)] = effects
    s[FINALS : FINALS + len(finals)] = finals
    s[CALLS_UNO] = rules.call_uno
    s[FORCE_PLAY] = rules.force_play
    s[MUST_PLAY] = rules.must_play
    s[HAND_LIMIT] = rules.hand_limit
    s[DRAW_TO_MATCH] = rules.draw_to_match
    s[FINISH_FORBIDDEN] = _bits(forbidden_as_last_card(card, rules, edition) for card in edition.faces)


def _first_ids(space: Any) -> dict[int, int]:
    """The state's slots of the first id of each type of action, and those ids in ``space``
    (checked to be laid out as the compiled engine reads them)."""
    faces = len(space.faces)
    first = {
        ID_PLAY_UNO: space.play_uno_id[space.faces[0]],
        ID_DRAW: space.draw,
        ID_PASS: space.pass_,
        ID_COLOUR: space.pass_ + 1,
        ID_CHALLENGE: space.challenge,
        ID_ACCEPT: space.accept,
        ID_TARGET: space.id(ActionType.TARGET, 0),
        ID_DISCARD: space.discard_id[space.faces[0]],
        ID_CALL_UNO: space.call_uno,
        ID_CATCH: space.id(ActionType.CATCH, 0),
        ID_JUMP: space.jump_id[space.faces[0]],
        ID_JUMP_UNO: space.jump_uno_id[space.faces[0]],
        ID_WAIT: space.size,
    }
    jump = first[ID_JUMP]
    first[ID_DONE] = space.id(ActionType.DONE, 0) if ActionType.DONE in space.extra else jump
    first[ID_GIVE] = space.id(ActionType.GIVE, space.faces[0]) if ActionType.GIVE in space.extra else jump
    assert ActionType.GIVE not in space.extra or all(
        space.id(ActionType.GIVE, c) == first[ID_GIVE] + i for i, c in enumerate(space.faces)
    )
    assert first[ID_CATCH] + MAX_PLAYERS == first[ID_DONE] <= first[ID_GIVE] <= jump
    assert all(space.play_id[c] == i and space.play_uno_id[c] == faces + i for i, c in enumerate(space.faces))
    assert all(space.discard_id[c] == first[ID_DISCARD] + i for i, c in enumerate(space.faces))
    assert all(space.id(ActionType.COLOUR, c) == first[ID_COLOUR] + i for i, c in enumerate(space.colours))
    assert all(space.id(ActionType.TARGET, t) == first[ID_TARGET] + t for t in range(MAX_PLAYERS))
    assert all(space.id(ActionType.CATCH, t) == first[ID_CATCH] + t for t in range(MAX_PLAYERS))
    assert first[ID_CHALLENGE] == first[ID_COLOUR] + len(space.colours) and first[ID_CATCH] == first[ID_CALL_UNO] + 1
    return first


def edition_code(edition: str) -> int:
    """The code of ``edition`` (:class:`UnknownOptionError` naming the editions played, if not one)."""
    if edition not in EDITIONS:
        get_edition(edition)  # an unknown edition is refused as Game refuses it
        raise UnknownOptionError(
            f"the compiled engine plays {', '.join(EDITIONS)}, not {edition!r}; the Python engine plays it"
        )
    return EDITIONS.index(edition)


def check_rules(rules: Rules, edition: str = "classic") -> None:
    """Refuse (:class:`UnknownOptionError`) an edition or options the compiled engine does not play."""
    code = edition_code(edition)
    for name, value in rules.to_dict().items():
        if name not in SUPPORTED_OPTIONS:
            raise UnknownOptionError(
                f"the compiled engine does not play rule option {name!r} (= {value!r}); the Python engine does"
            )
    deck_size = len(_EDITIONS[code].deck_cards(rules))
    if deck_size > MAX_DECK:
        raise UnknownOptionError(f"the compiled engine holds decks of up to {MAX_DECK} cards, not {deck_size}")
    scoring = _EDITIONS[code].scoring_method(rules)
    if scoring not in SCORINGS:
        raise UnknownOptionError(f"the compiled engine does not play {scoring!r} scoring; the Python engine does")


def new_state(
    players: int,
    seed: int,
    rules: Rules | None = None,
    *,
    edition: str = "classic",
    dealer: int = -1,
    trace: bool = False,
    rule_cards: Sequence[str] | None = None,
) -> IntArray:
    """A dealt game: the state array of ``edition`` at a table of ``players``.  ``dealer`` -1:
    chosen as the sheet says; ``trace``: record the shuffles and random draws (see
    :meth:`FastGame.trace`); ``rule_cards``: Wild Jackpot's written rule cards (default: the sheet's
    suggestions)."""
    s = template_state(players, rules, edition, rule_cards)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError(f"seed must be an integer, not {seed!r}")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not -1 <= dealer < players:
        raise SetupError(f"dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
    seeder = _random.Random(seed)
    for i in range(4):
        s[RNG + i] = seeder.getrandbits(32)
    if not s[RNG : RNG + 4].any():
        s[RNG] = 1
    s[TRACE_ON] = 1 if trace else 0
    s[ORDER_KEY] = _order_key(seed)
    start(s, dealer)
    return s


class FastGame:
    """A compiled game behind a small Python interface (as :class:`unokit.Game` names things).

    ``asked()`` and ``act()`` follow the decision cycle of :mod:`unokit.rl.cycle` (out-of-turn
    seats first, each may wait); ``apply()`` takes any decider's legal action as ``Game.apply`` does."""

    def __init__(
        self,
        players: int = 4,
        seed: int = 0,
        rules: Rules | None = None,
        *,
        edition: str = "classic",
        dealer: int = -1,
        trace: bool = False,
        rule_cards: Sequence[str] | None = None,
    ) -> None:
        rules = rules if rules is not None else Rules()
        state = new_state(players, seed, rules, edition=edition, dealer=dealer, trace=trace, rule_cards=rule_cards)
        self._hold(state, rules)

    def _hold(self, state: IntArray, rules: Rules) -> None:
        self.rules = rules
        self.state = state
        self.edition: str = EDITIONS[int(state[EDITION])]
        self.actions = _EDITIONS[int(state[EDITION])].actions
        self.faces: tuple[int, ...] = self.actions.faces
        self.wait: int = self.actions.size
        """The id of "wait" (a decision out of turn declined)."""
        self.n = int(state[N])
        self._events_read = 0

    @classmethod
    def of_state(cls, state: IntArray, rules: Rules) -> FastGame:
        """The game held in ``state`` (a compiled state, as :func:`state_from_game` makes), played
        under ``rules`` (those the state was made with)."""
        game = cls.__new__(cls)
        game._hold(state, rules)
        return game

    @property
    def is_over(self) -> bool:
        return bool(self.state[PHASE] == OVER)

    @property
    def actor(self) -> int:
        return int(self.state[ACTOR])

    @property
    def phase(self) -> int:
        return int(self.state[PHASE])

    @property
    def winner(self) -> int:
        return int(self.state[WINNER])

    @property
    def scores(self) -> list[int]:
        return [int(v) for v in self.state[SCORES : SCORES + self.n]]

    def hands(self) -> list[list[int]]:
        """Each seat's cards (card integers, sorted)."""
        s = self.state
        out = []
        faces = self.faces
        for seat in range(self.n):
            counts = s[HANDS + seat * MAX_FACES : HANDS + seat * MAX_FACES + len(faces)]
            out.append([faces[f] for f in range(len(faces)) for _ in range(int(counts[f]))])
        return out

    def hand_sizes(self) -> list[int]:
        return [int(v) for v in self.state[SIZES : SIZES + self.n]]

    def draw_pile(self) -> list[int]:
        """The draw pile, bottom first."""
        return [self.faces[int(f)] for f in self.state[DRAW_PILE : DRAW_PILE + self.state[DRAW_COUNT]]]

    def discard_pile(self) -> list[int]:
        """The discard pile, bottom first."""
        return [self.faces[int(f)] for f in self.state[DISCARD_PILE : DISCARD_PILE + self.state[DISCARD_COUNT]]]

    def legal_actions(self, seat: int) -> tuple[int, ...]:
        """The legal action ids of ``seat`` (as :meth:`unokit.Game.legal_actions`)."""
        mask = np.zeros(self.wait + 1, dtype=np.int8)
        legal_mask(self.state, seat, mask)
        return tuple(int(a) for a in np.flatnonzero(mask))

    def deciders(self) -> tuple[int, ...]:
        """Every seat with a legal action now (as :meth:`unokit.Game.deciders`)."""
        if self.is_over:
            return ()
        if self.state[EXPOSED_COUNT] or self.state[JUMP_CARD] >= 0:
            return tuple(seat for seat in range(self.n) if seat == self.actor or self.legal_actions(seat))
        return (self.actor,)

    def asked(self) -> tuple[int, bool]:
        seat, out_of_turn = asked(self.state)
        return int(seat), bool(out_of_turn)

    def apply(self, seat: int, action: int) -> None:
        """Apply ``action`` of ``seat``; raises (changing nothing) if it is not legal."""
        if apply(self.state, seat, action):
            raise self._refusal(seat, action)

    def act(self, seat: int, action: int) -> None:
        """One step of the decision cycle (``wait`` declines a decision out of turn)."""
        code = act(self.state, seat, action)
        if code == 2:
            raise WrongPlayerError(f"seat {seat} is not asked now; seat {self.asked()[0]} is")
        if code:
            raise self._refusal(seat, action)

    def _refusal(self, seat: int, action: int) -> IllegalActionError:
        if self.is_over:
            return GameOverError("the match is over; no action is legal")
        legal = self.legal_actions(seat)
        if not legal:
            return WrongPlayerError(f"seat {seat} may not act now")
        space = self.actions
        text = space.format(action) if 0 <= action < space.size else str(action)
        return IllegalActionError(
            f"{text} is not legal for seat {seat}; legal: {', '.join(space.format(a) for a in legal)}"
        )

    def new_events(self) -> list[tuple[str, int, int, int]]:
        """The events since the last call, as ``(kind, seat, value, card or -1)``."""
        s = self.state
        total = int(s[EVENT_TOTAL])
        if total - self._events_read > EVENT_CAP:
            raise RuntimeError("more events than the ring keeps were added since the last read")
        out = []
        for index in range(self._events_read, total):
            at = EVENTS + 4 * (index % EVENT_CAP)
            kind, seat, value, face = (int(v) for v in s[at : at + 4])
            out.append((EVENT_NAMES[kind], seat, value, self.faces[face] if face >= 0 else -1))
        self._events_read = total
        return out

    def trace(self) -> list[tuple[str, list[int]]]:
        """The random results since the last call (the game must have been made with ``trace=True``):
        shuffles (``"shuffle"``: the cards in their new order) and dealer draws (``"sample"``), as
        card integers; a dealer chosen at random (``"randrange"``: ``[seat]``), Jam drops
        (``"random"``: ``[1]`` Slam side up, ``[0]`` UNO side up), lever pulls (``"uniform"``:
        ``[u]``, the number ``u / 2**32`` drawn) and shuffles of rule cards (``"order"``: position
        ``i`` takes what stood at position ``order[i]``)."""
        s = self.state
        out = read_trace(s[TRACE : TRACE + s[TRACE_COUNT]], self.faces)
        s[TRACE_COUNT] = 0
        return out


def read_trace(words: Any, faces: Sequence[int]) -> list[tuple[str, list[int]]]:
    """Trace ``words`` (as the state's trace holds them) as :meth:`FastGame.trace` gives them,
    face indices as the cards ``faces`` names."""
    out = []
    at = 0
    while at < len(words):
        kind, length = int(words[at]), int(words[at + 1])
        values = [int(v) for v in words[at + 2 : at + 2 + length]]
        if kind in (TRACE_SHUFFLE, TRACE_SAMPLE):
            out.append(("shuffle" if kind == TRACE_SHUFFLE else "sample", [faces[f] for f in values]))
        else:
            out.append((_TRACE_NAMES[kind], values))
        at += length + 2
    return out


# ---------------------------------------------------------------- observations


O_HAND, O_DRAWN, O_TOP, O_DISCARDS, O_COLOUR, O_DIRECTION, O_PHASE, O_ACTOR, O_TURN, O_DEALER = range(10)
O_SIZES, O_UNCALLED, O_CALLED, O_SCORES, O_DRAW_PILE, O_DISCARD_SIZE, O_BLUFFER, O_BLUFF_COLOUR = range(10, 18)
O_EVENTS, O_SLOT, O_S_KIND, O_S_SEAT, O_S_OTHER, O_S_CARD, O_S_COLOUR, O_S_VALUE, O_HISTORY = range(18, 27)
O_DISCARDS_LEFT, O_PURPOSE, O_JAM, O_STACK_TOTAL, O_STACK_KIND, O_MULTI, O_TEAM = range(27, 34)
O_JUMP_CARD, O_JUMP_FROM, O_SKIPS, O_HOUSE_PHASE = 34, 35, 36, 37
O_LEVER, O_LEVER_COLOURS, O_LEVER_DRAW, O_LEVER_SKIP, O_RULE_VERB, O_RULE_COUNT, O_RULE_AIM = range(38, 45)
O_GIVE_TO, O_GIVE_LEFT, O_CHOICES, O_DISPENSER, O_RULES_USED, O_RULES_IN_PLAY = range(45, 51)
O_PURPOSE_PERFORMER, O_PURPOSE_RULE, O_OUT, O_KNOCKED = 51, 52, 53, 54
"""The indexes of Wild Jackpot's target purposes (who performs a rule card, whom it aims at)."""
O_PURPOSE_OF = 64
"""``layout[O_PURPOSE_OF + kind]``: the index of a target decision's card kind among the encoding's purposes."""
O_STACK_KIND_OF = O_PURPOSE_OF + 32
"""``layout[O_STACK_KIND_OF + kind]``: the index of a draw card's kind among the encoding's stack kinds."""
O_KIND_INDEX = O_STACK_KIND_OF + 32
"""``layout[O_KIND_INDEX + code]``: the index of event kind ``code`` among the encoding's kinds."""
_FIELD_SLOTS = {
    "hand": O_HAND,
    "drawn": O_DRAWN,
    "top_card": O_TOP,
    "discard_pile": O_DISCARDS,
    "colour": O_COLOUR,
    "direction": O_DIRECTION,
    "phase": O_PHASE,
    "actor": O_ACTOR,
    "turn": O_TURN,
    "dealer": O_DEALER,
    "hand_sizes": O_SIZES,
    "uncalled": O_UNCALLED,
    "called": O_CALLED,
    "scores": O_SCORES,
    "draw_pile_size": O_DRAW_PILE,
    "discard_pile_size": O_DISCARD_SIZE,
    "bluffer": O_BLUFFER,
    "bluff_colour": O_BLUFF_COLOUR,
    "events": O_EVENTS,
    "discards_left": O_DISCARDS_LEFT,
    "target_purpose": O_PURPOSE,
    "stack_total": O_STACK_TOTAL,
    "stack_kind": O_STACK_KIND,
    "multi_count": O_MULTI,
    "team": O_TEAM,
    "jump_card": O_JUMP_CARD,
    "jump_from": O_JUMP_FROM,
    "turns_to_lose": O_SKIPS,
    "out": O_OUT,
    "knocked": O_KNOCKED,
}
_JACKPOT_SLOTS = {
    "lever": O_LEVER,
    "lever_colours": O_LEVER_COLOURS,
    "lever_draw": O_LEVER_DRAW,
    "lever_skip": O_LEVER_SKIP,
    "rule": O_RULE_VERB,
    "rule_count": O_RULE_COUNT,
    "rule_target": O_RULE_AIM,
    "give_to": O_GIVE_TO,
    "give_left": O_GIVE_LEFT,
    "target_choices": O_CHOICES,
    "rule_cards_in_dispenser": O_DISPENSER,
    "rule_cards_used": O_RULES_USED,
    "rule_cards_in_play": O_RULES_IN_PLAY,
}
_SLOT_SLOTS = {
    "kind": O_S_KIND,
    "seat": O_S_SEAT,
    "other": O_S_OTHER,
    "card": O_S_CARD,
    "colour": O_S_COLOUR,
    "value": O_S_VALUE,
}


def encoding_layout(encoder: Any) -> IntArray:
    """The offsets the compiled :func:`encode` writes at, read from an
    :class:`unokit.rl.encoding.Encoder` (one definition of the layout)."""
    from unokit.rl.encoding import TARGET_PURPOSES

    code = edition_code(encoder.edition.name)
    if encoder.history > EVENT_CAP:
        raise UnknownOptionError(f"the compiled engine keeps {EVENT_CAP} events: history must be at most that")
    phases = (TURN, DRAWN, COLOUR, CHALLENGE, DISCARD, TARGET, OVER)
    if tuple(encoder.faces) != _EDITIONS[code].faces or [encoder.phases[p] for p in phases] != list(PHASE_NAMES):
        raise AssertionError("the encoding's faces or phases differ from the compiled engine's")
    layout = np.zeros(O_KIND_INDEX + len(EVENT_NAMES), dtype=np.int64)
    for name, slot in _FIELD_SLOTS.items():
        layout[slot] = encoder.field(name).offset
    for index, kind in enumerate(TARGET_PURPOSES):
        if kind < 32:
            layout[O_PURPOSE_OF + kind] = index
    layout[O_PURPOSE_PERFORMER] = TARGET_PURPOSES.index(TARGET_PERFORMER)
    layout[O_PURPOSE_RULE] = TARGET_PURPOSES.index(TARGET_OF_RULE)
    for index, kind in enumerate(encoder.stack_kinds):
        layout[O_STACK_KIND_OF + kind] = index
    layout[O_HOUSE_PHASE] = encoder.phase_index["stack"]
    assert layout[O_HOUSE_PHASE] == len(PHASE_NAMES) + len(_EDITIONS[code].phase_names)
    assert all(encoder.phase_index[name] == RULE_RUN + i for i, name in enumerate(_EDITIONS[code].phase_names))
    layout[O_JAM] = encoder.field("jam").offset if _EDITIONS[code].name == "space-jam" else -1
    jackpot = code == JACKPOT_CODE
    for name, slot in _JACKPOT_SLOTS.items():
        layout[slot] = encoder.field(name).offset if jackpot else -1
    slot_fields = {field.name: field.offset for field in encoder.slot_fields}
    for name, slot in _SLOT_SLOTS.items():
        layout[slot] = slot_fields[name]
    layout[O_SLOT] = encoder.slot_size
    layout[O_HISTORY] = encoder.history
    for code, name in enumerate(EVENT_NAMES):  # (an edition's own kinds only in that edition)
        layout[O_KIND_INDEX + code] = encoder.event_kind_index.get(name, -1)
    return layout


@_jit
def _seat_flag(out: Any, offset: int, seat: int, me: int, n: int) -> None:
    if 0 <= seat < n:
        out[offset + (seat - me) % n] = 1


@_jit
def _put(out: Any, high: Any, at: int, value: int) -> None:
    """``out[at] = value``, clipped to the field's bound as the Python encoder clips it."""
    out[at] = value if value < high[at] else high[at]


@_jit
def encode(s: IntArray, me: int, layout: IntArray, high: Any, out: Any) -> None:
    """Write ``me``'s observation into ``out`` (zeros, float32), exactly as
    :meth:`unokit.rl.encoding.Encoder.encode` writes it from ``me``'s view (values clipped to the
    layout's bounds; flags are 1 and no bound is below 1)."""
    n = s[N]
    e = s[EDITION]
    phase = s[PHASE]
    hand = HANDS + me * MAX_FACES
    hand_at = layout[O_HAND]
    discards_at = layout[O_DISCARDS]
    for f in range(s[NF]):
        if s[hand + f]:
            _put(out, high, hand_at + f, s[hand + f])
        if s[DISCARD_FACES + f]:
            _put(out, high, discards_at + f, s[DISCARD_FACES + f])
    if me == s[ACTOR] and phase == DRAWN:
        out[layout[O_DRAWN] + s[DRAWN_FACE]] = 1
    out[layout[O_TOP] + _discard_top(s)] = 1
    out[layout[O_COLOUR] + COLOUR_INDEX_OF[e, s[COLOUR_IN_PLAY]]] = 1
    out[layout[O_DIRECTION]] = 1 if s[DIRECTION] > 0 else 0
    out[layout[O_PHASE] + (phase if phase < STACK else phase - STACK + layout[O_HOUSE_PHASE])] = 1
    _seat_flag(out, layout[O_ACTOR], s[ACTOR], me, n)
    _seat_flag(out, layout[O_TURN], s[TURN_SEAT], me, n)
    _seat_flag(out, layout[O_DEALER], s[DEALER], me, n)
    for seat in range(n):
        rel = (seat - me) % n
        _put(out, high, layout[O_SIZES] + rel, s[SIZES + seat])
        _put(out, high, layout[O_SCORES] + rel, s[SCORES + seat])
        if s[EXPOSED + seat]:
            out[layout[O_UNCALLED] + rel] = 1
        elif s[SIZES + seat] == 1 and s[CALLED + seat]:
            out[layout[O_CALLED] + rel] = 1
    _put(out, high, layout[O_DRAW_PILE], s[DRAW_COUNT])
    _put(out, high, layout[O_DISCARD_SIZE], s[DISCARD_COUNT])
    if phase == CHALLENGE:
        _seat_flag(out, layout[O_BLUFFER], s[BLUFFER], me, n)
        if s[BLUFFER] >= 0:
            out[layout[O_BLUFF_COLOUR] + COLOUR_INDEX_OF[e, s[BLUFF_COLOUR]]] = 1
    elif phase == DISCARD:
        _put(out, high, layout[O_DISCARDS_LEFT], s[DISCARDS_LEFT])
    elif phase == TARGET:
        kind = s[TARGET_KIND]
        purpose = layout[O_PURPOSE_OF + kind] if kind < TARGET_PERFORMER else layout[O_PURPOSE_PERFORMER + kind - 100]
        out[layout[O_PURPOSE] + purpose] = 1
    if s[PENDING_SKIPS]:
        for seat in range(n):
            _put(out, high, layout[O_SKIPS] + (seat - me) % n, s[TURN_SKIPS + seat])
    if s[JACKPOT]:
        _encode_jackpot(s, me, layout, high, out)
    if s[MULTI_COUNT]:
        _put(out, high, layout[O_MULTI], s[MULTI_COUNT])
    if s[TEAMS]:
        for partner in range(me % 2, n, 2):
            _seat_flag(out, layout[O_TEAM], partner, me, n)
    if s[OUT]:  # out of the round (Mercy), or of the match (knockout scoring)
        for seat in range(n):
            if (s[OUT] >> seat) & 1:
                _seat_flag(out, layout[O_OUT], seat, me, n)
            if (s[KNOCKED] >> seat) & 1:
                _seat_flag(out, layout[O_KNOCKED], seat, me, n)
    if s[JUMP_CARD] >= 0:
        out[layout[O_JUMP_CARD] + s[JUMP_CARD]] = 1
        _seat_flag(out, layout[O_JUMP_FROM], s[JUMP_FROM], me, n)
    if s[STACK_TOTAL]:
        _put(out, high, layout[O_STACK_TOTAL], s[STACK_TOTAL])
        out[layout[O_STACK_KIND] + layout[O_STACK_KIND_OF + s[STACK_KIND]]] = 1
    if layout[O_JAM] >= 0 and s[JAM_LAST] >= 0:
        out[layout[O_JAM] + 1 - s[JAM_LAST]] = 1  # Slam side up first
    total = s[EVENT_TOTAL]
    for slot in range(min(layout[O_HISTORY], total)):
        at = EVENTS + 4 * ((total - 1 - slot) % EVENT_CAP)
        kind = s[at]
        seat = s[at + 1]
        value = s[at + 2]
        base = layout[O_EVENTS] + slot * layout[O_SLOT]
        if layout[O_KIND_INDEX + kind] >= 0:  # (a blocked round is not among the observed kinds)
            out[base + layout[O_S_KIND] + layout[O_KIND_INDEX + kind]] = 1
        _seat_flag(out, base + layout[O_S_SEAT], seat, me, n)
        if (SEAT_EVENTS >> kind) & 1:
            _seat_flag(out, base + layout[O_S_OTHER], value, me, n)
        elif s[at + 3] >= 0:  # an event with a public card: play, flip, return, discard, dealer draw
            out[base + layout[O_S_CARD] + s[at + 3]] = 1
        elif kind == E_COLOUR:
            index = COLOUR_INDEX_OF[e, value]
            if index < s[NCOL]:
                out[base + layout[O_S_COLOUR] + index] = 1
        elif value > 0:
            _put(out, high, base + layout[O_S_VALUE], value)


@_jit
def _encode_jackpot(s: IntArray, me: int, layout: IntArray, high: Any, out: Any) -> None:
    """Wild Jackpot's part of ``me``'s observation (``Encoder._encode_jackpot``)."""
    n = s[N]
    e = s[EDITION]
    if s[LEVER_LAST] > 0:
        out[layout[O_LEVER] + s[LEVER_LAST] - 1] = 1
    for index in range(s[NCOL]):
        if (s[LEVER_COLOURS] >> COLOURS_OF[e, index]) & 1:
            out[layout[O_LEVER_COLOURS] + index] = 1
    _put(out, high, layout[O_LEVER_DRAW], s[LEVER_DRAW])
    _put(out, high, layout[O_LEVER_SKIP], s[LEVER_SKIP])
    rid = s[PERFORMING]
    if rid >= 0:
        verb = s[RULE_VERB + rid]
        if verb == V_HONOUR:
            out[layout[O_RULE_VERB] + VERB_COUNT] = 1  # the honour task, after the verbs
        else:
            out[layout[O_RULE_VERB] + verb] = 1
            _put(out, high, layout[O_RULE_COUNT], s[RULE_COUNT + rid])
            out[layout[O_RULE_AIM] + s[RULE_AIM + rid]] = 1
    if s[PHASE] == GIVE:
        _seat_flag(out, layout[O_GIVE_TO], s[GIVE_TO], me, n)
        _put(out, high, layout[O_GIVE_LEFT], s[GIVE_LEFT])
    if s[TARGET_KIND] == TARGET_OF_RULE and s[TARGET_RULE] >= 0:
        for seat in range(n):
            if (s[TARGET_CHOICES] >> seat) & 1:
                _seat_flag(out, layout[O_CHOICES], seat, me, n)
    _put(out, high, layout[O_DISPENSER], s[DISPENSER_COUNT])
    _put(out, high, layout[O_RULES_USED], s[USED_COUNT])
    _put(out, high, layout[O_RULES_IN_PLAY], s[IN_PLAY_COUNT])


@_jit
def observe(s: IntArray, me: int, selected: bool, layout: IntArray, high: Any, out: Any, mask: Any) -> None:
    """``me``'s observation into ``out`` and, when ``selected`` (the seat asked now), its legal
    actions into ``mask`` (with "wait" when asked out of turn)."""
    encode(s, me, layout, high, out)
    if selected:
        legal_mask(s, me, mask)
        if me != s[ACTOR]:  # asked out of turn
            mask[s[ID_WAIT]] = 1


def table_text(s: IntArray, names: list[str]) -> str:
    """The table in words, for an environment's ``render``."""
    from unokit.engine.cards import COLOUR_NAMES, card_long_name

    n = int(s[N])
    space = _EDITIONS[int(s[EDITION])].actions
    if s[PHASE] == OVER:
        return f"The match is over: {names[int(s[WINNER])]} wins. Scores: " + ", ".join(
            f"{names[seat]} {int(s[SCORES + seat])}" for seat in range(n)
        )
    colour = int(s[COLOUR_IN_PLAY])
    lines = [
        f"Round {int(s[ROUND])}. Top card: {card_long_name(space.faces[int(_discard_top(s))])}"
        + (f", colour {COLOUR_NAMES[colour]}" if colour != NO_COL else "")
        + f"; play goes {'clockwise' if s[DIRECTION] > 0 else 'counter-clockwise'}.",
        f"Draw pile: {int(s[DRAW_COUNT])} cards; discard pile: {int(s[DISCARD_COUNT])} cards.",
    ]
    for seat in range(n):
        hand = HANDS + seat * MAX_FACES
        cards = ", ".join(space.format(f) for f in range(len(space.faces)) for _ in range(int(s[hand + f])))
        marks = " (to act)" if seat == s[ACTOR] else ""
        marks += " (UNO not called)" if s[EXPOSED + seat] else ""
        lines.append(f"{names[seat]}{marks}: {int(s[SIZES + seat])} cards [{cards}], score {int(s[SCORES + seat])}")
    return "\n".join(lines)


# ---------------------------------------------------------------- whole games, batched


@_jit
def random_decision(s: IntArray) -> int:
    """One decision of the uniformly random policy (as ``bench/vs_rlcard.py`` plays): a seat drawn
    among the deciders, then one of its legal actions; returns 0."""
    seat, action, _ = _random_move(s)
    _apply_legal(s, seat, action)
    return 0


@_jit
def _random_move(s: IntArray) -> tuple[int, int, int]:
    """:func:`random_decision`'s choice: the seat, its action and how many legal actions it had."""
    n = s[N]
    seat = s[ACTOR]
    if s[EXPOSED_COUNT] or s[JUMP_CARD] >= 0:
        deciders = 0  # the seats with a legal action, in seat order (every seat while someone may be caught)
        for other in range(n):
            if other == seat or legal_ids(s, other):
                s[SCRATCH + deciders] = other
                deciders += 1
        seat = s[SCRATCH + _policy_below(s, deciders)]
    count = legal_ids(s, seat)
    return seat, s[LEGAL + _policy_below(s, count)], count


@_jit
def record_random_game(
    s: IntArray, template: IntArray, seed: int, index: int, moves: IntArray, events: IntArray, trace: IntArray
) -> tuple[int, int, int]:
    """Play game ``index`` of ``seed`` as :func:`play_random_game` does, its shuffles and random
    draws traced, recording every decision (``moves``: seat, action, how many legal actions that
    seat had), every event (``events``: kind, seat, value, face) and the trace's words (``trace``,
    as :meth:`FastGame.trace` reads them).  Returns how many rows of each were written; stops at
    ``len(moves)`` decisions, and returns ``(-1, -1, -1)`` when ``events`` or ``trace`` is full."""
    _copy(template, s)
    _seed_words(s, RNG, seed, 2 * index)
    _seed_words(s, POLICY_RNG, seed, 2 * index + 1)
    s[TRACE_ON] = 1
    s[TRACE_COUNT] = 0
    start(s, -1)
    written, traced = record_output(s, events, trace, 0, 0)
    decisions = 0
    while written >= 0 and s[PHASE] != OVER and decisions < len(moves):
        seat, action, count = _random_move(s)
        record_move(moves, decisions, seat, action, count)
        decisions += 1
        _apply_legal(s, seat, action)
        written, traced = record_output(s, events, trace, written, traced)
    if written < 0:
        return -1, -1, -1
    return decisions, written, traced


@_jit
def record_move(moves: IntArray, row: int, seat: int, action: int, count: int) -> None:
    """Row ``row`` of a recording's decisions: the seat, its action and how many it had."""
    moves[row, 0] = seat
    moves[row, 1] = action
    moves[row, 2] = count


@_jit
def record_output(s: IntArray, events: IntArray, trace: IntArray, written: int, traced: int) -> tuple[int, int]:
    """Copy the events after the first ``written`` into ``events`` and the trace's words after
    ``traced`` into ``trace`` (emptying the state's trace); the new counts, ``(-1, -1)`` when full."""
    total = s[EVENT_TOTAL]
    if total - written > EVENT_CAP or total > len(events) or traced + s[TRACE_COUNT] > len(trace):
        return -1, -1
    for i in range(written, total):
        at = EVENTS + 4 * (i % EVENT_CAP)
        for k in range(4):
            events[i, k] = s[at + k]
    for i in range(s[TRACE_COUNT]):
        trace[traced + i] = s[TRACE + i]
    traced += s[TRACE_COUNT]
    s[TRACE_COUNT] = 0
    return total, traced


@_jit
def play_random_game(s: IntArray, template: IntArray, seed: int, index: int, limit: int) -> int:
    """Play game ``index`` of ``seed`` to its end in ``s`` (from ``template``: rules set, nothing
    dealt) with the random policy; returns the decisions taken (stops after ``limit``)."""
    _copy(template, s)
    _seed_words(s, RNG, seed, 2 * index)
    _seed_words(s, POLICY_RNG, seed, 2 * index + 1)
    start(s, -1)
    decisions = 0
    while s[PHASE] != OVER and decisions < limit:
        random_decision(s)
        decisions += 1
    return decisions


@_jit
def _play_random_chunk(
    s: IntArray,
    template: IntArray,
    seed: int,
    first: int,
    low: int,
    high: int,
    decisions: IntArray,
    winners: IntArray,
    rounds: IntArray,
    scores: IntArray,
    jackpot: IntArray,
    limit: int,
) -> None:
    """Games ``low`` … ``high - 1`` of a batch (numbered from ``first``), played in ``s``."""
    n = template[N]
    for game in range(low, high):
        decisions[game] = play_random_game(s, template, seed, first + game, limit)
        winners[game] = s[WINNER]
        rounds[game] = s[ROUND]
        for seat in range(n):
            scores[game, seat] = s[SCORES + seat]
        for k in range(8):  # Wild Jackpot: the lever's outcomes, the rule cards performed
            jackpot[game, k] = s[LEVER_PULLS + k]


def play_in_chunks(games: int, threads: int | None, play: Callable[[int, int], None]) -> None:
    """Call ``play(low, high)`` for the (at most 64) chunks ``games`` are cut into, on ``threads``
    threads (default: numba's number of threads), the compiled functions releasing the GIL (Ctrl-C
    stops after the chunks under way).  Plain
    threads over a compiled loop, not numba's ``parallel=True``: that compiles the loop's whole call
    tree once more, for the same machine code."""
    chunks = min(games, 64)
    bounds = [(chunk * games // chunks, (chunk + 1) * games // chunks) for chunk in range(chunks)]
    workers = max(1, min(threads if threads is not None else nb.get_num_threads(), MAX_THREADS, chunks))
    if workers == 1:
        for low, high in bounds:
            play(low, high)
        return
    pool = ThreadPoolExecutor(workers, thread_name_prefix="unokit-fast")
    try:
        for done in [pool.submit(play, low, high) for low, high in bounds]:
            done.result()
    finally:  # on an error or Ctrl-C, the chunks not started are not played
        pool.shutdown(wait=True, cancel_futures=True)


def lever_thresholds(weights: tuple[int, ...]) -> list[int]:
    """The five thresholds of ``LEVER_AT``: the least 32-bit ``u`` for which ``random.choices`` with
    ``weights``, given ``random() == u / 2**32``, pulls past outcome ``j + 1`` (``2**32``: never).

    >>> lever_thresholds((1, 1, 1, 1, 1, 1))[:2]
    [715827883, 1431655766]
    """
    cumulative = list(accumulate(weights))
    total = cumulative[-1] + 0.0
    thresholds = []
    for bound in cumulative[:5]:
        low, high = 0, 2**32
        while low < high:  # choices counts the cumulative weights at or below random() * total
            middle = (low + high) // 2
            if (middle / 2**32) * total >= bound:
                high = middle
            else:
                low = middle + 1
        thresholds.append(low)
    return thresholds


def _set_rule_cards(s: IntArray, rules: Rules, rule_cards: Sequence[str] | None) -> None:
    """Wild Jackpot's lever and rule cards into state ``s`` (as ``jackpot.WildJackpot.setup`` reads them)."""
    s[JACKPOT] = 1
    s[LEVER_AT : LEVER_AT + 5] = lever_thresholds(rules.lever_weights)
    for slot in (LEVER_LAST, GIVE_TO, PERFORMING, TARGET_RULE):
        s[slot] = -1
    if rule_cards is None:
        s[RULE_TOTAL] = rule_cards_per_player(rules.rule_card_count, int(s[N])) * int(s[N])
        return
    if isinstance(rule_cards, str) or not isinstance(rule_cards, Sequence):
        raise SetupError("rule_cards must be a list of texts")
    codes = [rule_code(rc.clean_rule_text(text)) for text in rule_cards]
    if not 1 <= len(codes) <= MAX_RULES:
        raise SetupError(f"write from 1 to {MAX_RULES} rule cards")
    s[RULES_WRITTEN] = 1
    s[RULE_TOTAL] = len(codes)
    for rid, (verb, count, aim) in enumerate(codes):
        s[RULE_VERB + rid] = verb
        s[RULE_COUNT + rid] = count
        s[RULE_AIM + rid] = aim


def template_state(
    players: int, rules: Rules | None = None, edition: str = "classic", rule_cards: Sequence[str] | None = None
) -> IntArray:
    """A state of ``edition`` with ``rules`` set and nothing dealt, for :func:`play_random_game` to
    start from (Wild Jackpot: with ``rule_cards``, the texts written; by default drawn from the
    sheet's suggestions as the game starts)."""
    rules = rules if rules is not None else Rules()
    check_rules(rules, edition)
    code = EDITIONS.index(edition)
    deck = [_FACE_INDEX[code][card] for card in _EDITIONS[code].deck_cards(rules)]
    deck_size = len(deck)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
        raise SetupError(f"players must be from 2 to {MAX_PLAYERS}, not {players!r}")
    if rules.teams:
        check_teams(players)
    if players * rules.hand_size + 1 > deck_size:
        raise SetupError(f"{deck_size} cards cannot deal {rules.hand_size} to {players} players")
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[N] = players
    s[EDITION] = code
    space = _EDITIONS[code].actions
    s[NF] = len(space.faces)
    s[NCOL] = len(space.colours)
    s[DECK_N] = deck_size
    s[DECK_CARDS : DECK_CARDS + deck_size] = deck
    s[DEALER_AT_RANDOM] = len({max(int(NUMBER_OF[code, face]), 0) for face in deck}) < 2
    for slot, first in _first_ids(space).items():
        s[slot] = first
    s[JAM_SLAM] = min(round(rules.jam_slam_chance * 2**32), 2**32)
    s[JAM_DISCARD] = rules.jam_discard
    s[JAM_DRAW] = rules.jam_draw
    s[SWAP_FINAL] = rules.forced_swap_final_card == "swaps"
    s[JAM_LAST] = -1
    s[TARGET_KIND] = -1
    _set_house_rules(s, _EDITIONS[code], rules)
    s[TARGET_SCORE] = rules.target_score
    s[HAND_SIZE] = rules.hand_size
    s[ALLOW_BLUFF] = rules.allow_bluff
    s[CHALLENGER_PLAYS] = rules.challenger_plays_after_catching_bluff
    s[REVERSE_SKIPS] = rules.two_player_reverse_skips
    s[UNO_PENALTY] = rules.uno_penalty
    s[SCORING] = SCORINGS[_EDITIONS[code].scoring_method(rules)]
    s[WINNER] = -1
    s[PLAYERS_IN] = players
    s[MERCY] = rules.mercy_limit if rules.mercy else 0
    s[BLUFFER] = -1
    s[BLUFF_COLOUR] = NO_COL
    s[DRAWN_FACE] = -1
    s[ROUND_WINNER] = -1
    if code == JACKPOT_CODE:
        _set_rule_cards(s, rules, rule_cards)
    return s


def play_random_games(
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
    """Play games ``first`` … ``first + games - 1`` of ``seed`` of ``edition`` with the random
    policy, on ``threads`` cores (default: all numba may use).  Each game depends only on ``seed`` and its
    number, never on the threads.  Returns per game ``decisions``, ``winner``, ``rounds`` and the
    final ``scores`` (games × players); Wild Jackpot's also ``levers``, the outcomes pulled (games ×
    6), and ``rules_performed``, enforced and honour tasks (games × 2).  Wild Jackpot: ``rule_cards``
    are the texts every game plays with (default: each game draws its own from the sheet's suggestions).

    >>> result = play_random_games(10, 4, Rules(scoring="single-round"), seed=1)
    >>> sorted(result), bool((result["winner"] >= 0).all())
    (['decisions', 'rounds', 'scores', 'winner'], True)
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise SetupError(f"games must be a number of games, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**62:
        raise SetupError(f"seed must be an integer from 0 to 2**62 - 1, not {seed!r}")
    template = template_state(players, rules, edition, rule_cards)
    decisions = np.zeros(games, dtype=np.int64)
    winners = np.zeros(games, dtype=np.int64)
    rounds = np.zeros(games, dtype=np.int64)
    scores = np.zeros((games, players), dtype=np.int64)
    jackpot = np.zeros((games, 8), dtype=np.int64)

    def play(low: int, high: int) -> None:
        state = template.copy()
        _play_random_chunk(state, template, seed, first, low, high, decisions, winners, rounds, scores, jackpot, limit)

    if games:
        play_in_chunks(games, threads, play)
    result = {"decisions": decisions, "winner": winners, "rounds": rounds, "scores": scores}
    if template[JACKPOT]:
        result.update(levers=jackpot[:, :6], rules_performed=jackpot[:, 6:])
    return result


# ---------------------------------------------------------------- batched steps (the batched environment)

REWARD_KINDS = {"win": 0, "points": 1, "match": 2}


@_jit
def _share(s: IntArray, rewards: Any, winner: int, seats: int) -> None:
    """+1 shared among ``winner`` and (house rule ``teams``) its partners, -1 among the others, of
    the ``seats`` (bits)."""
    n = s[N]
    side = 0
    rivals = 0
    for seat in range(n):
        if (seats >> seat) & 1:
            if seat == winner or (s[TEAMS] and (seat - winner) % 2 == 0):
                side += 1
            else:
                rivals += 1
    if not side or not rivals:
        return
    for seat in range(n):
        if (seats >> seat) & 1:
            if seat == winner or (s[TEAMS] and (seat - winner) % 2 == 0):
                rewards[seat] += 1.0 / side
            else:
                rewards[seat] -= 1.0 / rivals


@_jit
def _step_rewards(s: IntArray, kind: int, rewards: Any) -> None:
    """Add the rewards of what the last action ended (a round, the match) to ``rewards``, as
    :class:`unokit.rl.rewards.RewardKeeper` gives them."""
    n = s[N]
    if s[ROUNDS_ENDED] != s[ROUNDS_REWARDED]:
        s[ROUNDS_REWARDED] = s[ROUNDS_ENDED]
        winner = s[ROUND_WINNER]
        dealt = s[ROUND_SEATS]  # the round's players (not those already out of the match)
        if kind == 0:
            _share(s, rewards, winner, dealt)
        elif kind == 1:  # the winner (its team, shared) gets the points the others held
            total = 0
            side = 0
            rivals = 0
            for seat in range(n):
                if (dealt >> seat) & 1:
                    if seat == winner or (s[TEAMS] and (seat - winner) % 2 == 0):
                        side += 1
                    else:
                        rivals += 1
            if side and rivals:
                for seat in range(n):
                    if (dealt >> seat) & 1 and seat != winner and not (s[TEAMS] and (seat - winner) % 2 == 0):
                        rewards[seat] -= s[ROUND_POINTS + seat]
                        total += s[ROUND_POINTS + seat]
                for seat in range(n):
                    if (dealt >> seat) & 1 and (seat == winner or (s[TEAMS] and (seat - winner) % 2 == 0)):
                        rewards[seat] += total / side
    if kind == 2 and s[PHASE] == OVER:
        _share(s, rewards, s[WINNER], (1 << n) - 1)


@_jit
def _observe_asked(s: IntArray, layout: IntArray, high: Any, out: Any, mask: Any) -> int:
    """The observation and mask of the seat asked now, into zeroed ``out`` and ``mask``; that seat."""
    seat, out_of_turn = asked(s)
    encode(s, seat, layout, high, out)
    legal_mask(s, seat, mask)
    if out_of_turn:
        mask[s[ID_WAIT]] = 1
    return seat


@_jit
def _new_game(s: IntArray, template: IntArray, seed: int, index: int) -> None:
    _copy(template, s)
    _seed_words(s, RNG, seed, 2 * index)
    _seed_words(s, POLICY_RNG, seed, 2 * index + 1)
    start(s, -1)


@_jit
def batch_reset(
    states: IntArray,
    template: IntArray,
    seed: int,
    layout: IntArray,
    high: Any,
    obs: Any,
    masks: Any,
    seats: IntArray,
    legal: Any,
) -> None:
    """Deal game ``i`` of ``seed`` in row ``i`` of ``states``, with its first observation and mask."""
    obs[:] = 0
    masks[:] = 0
    for i in range(len(states)):
        _new_game(states[i], template, seed, i)
        seats[i] = _observe_asked(states[i], layout, high, obs[i], masks[i])
    for i in range(len(states)):
        _copy(masks[i], legal[i])


@_jit
def batch_step(
    states: IntArray,
    template: IntArray,
    seed: int,
    next_game: int,
    actions: IntArray,
    seats: IntArray,
    reward_kind: int,
    layout: IntArray,
    high: Any,
    obs: Any,
    masks: Any,
    rewards: Any,
    terminated: Any,
    legal: Any,
) -> int:
    """Apply ``actions[i]`` of the seat asked in game ``i`` (``seats[i]``) in every game; set each
    game's rewards (every seat), whether it ended, and the observation and mask of the seat asked
    next.  A game that ends is replaced by game ``next_game`` of ``seed`` (and on), dealt at once.
    ``legal`` is the batch's own copy of the masks (the caller may change the ones it was given).
    Returns the next game's number, or ``-1 - i`` when ``actions[i]`` is not legal (then nothing
    has changed)."""
    for i in range(len(states)):
        if not 0 <= actions[i] <= template[ID_WAIT] or not legal[i, actions[i]]:
            return -1 - i
    for i in range(len(states)):  # row by row, so that each row is cleared and written while in cache
        s = states[i]
        act(s, seats[i], actions[i])
        rewards[i] = 0
        _step_rewards(s, reward_kind, rewards[i])
        terminated[i] = s[PHASE] == OVER
        if terminated[i]:
            _new_game(s, template, seed, next_game)
            next_game += 1
        obs[i] = 0
        masks[i] = 0
        seats[i] = _observe_asked(s, layout, high, obs[i], masks[i])
        _copy(masks[i], legal[i])
    return next_game


@_jit
def batch_random_actions(states: IntArray, seats: IntArray, out: IntArray) -> None:
    """A uniformly random legal action of the seat asked in each game (with "wait" when out of
    turn), drawn from each game's policy generator."""
    for i in range(len(states)):
        s = states[i]
        seat = seats[i]
        count = legal_ids(s, seat)
        ids = s[LEGAL : LEGAL + s[ID_WAIT] + 1]
        if seat != s[ACTOR]:  # asked out of turn
            ids[count] = s[ID_WAIT]
            count += 1
        out[i] = ids[_policy_below(s, count)]


# ---------------------------------------------------------------- positions from the Python engine, and playouts


def state_from_game(game: Any, seed: int) -> IntArray:
    """The compiled state of a :class:`unokit.Game` (an edition and options the compiled engine
    plays) at its current position, its generators seeded from ``seed`` (below 2**62).  The event
    log starts empty: the state plays on, as for a search's playouts; it does not observe the past."""
    from unokit.engine.game import Game

    if not isinstance(game, Game) or not (0 <= game.phase <= GIVE or game.phase in (STACK, MULTI)):
        raise UnknownOptionError("the compiled engine does not play this position")
    if len(game.ops) > OPS_CAP or any(
        OP_JAM < op < OP_LEVER or OP_RULE_TARGET < op != OP_STACK for op, _, _ in game.ops
    ):
        raise UnknownOptionError("the position has operations the compiled engine does not run")
    key = (game.edition.name, game.n, game.rules)
    template = _TEMPLATES.get(key)
    if template is None:
        template = _TEMPLATES[key] = template_state(game.n, game.rules, game.edition.name)  # checks them
    face = _FACE_INDEX[int(template[EDITION])]
    s = template.copy()
    _seed_words(s, RNG, seed, 0)
    _seed_words(s, POLICY_RNG, seed, 1)
    s[ORDER_KEY] = game.order_key
    s[MOVES] = game.moves
    s[STALLS] = game.stalls
    s[PHASE] = game.phase
    s[ACTOR] = game.actor
    s[TURN_SEAT] = game.turn
    s[DEALER] = game.dealer
    s[DIRECTION] = game.direction
    s[COLOUR_IN_PLAY] = game.colour
    s[DRAWN_FACE] = face[game.drawn] if game.drawn >= 0 else -1
    s[BLUFFER] = game.bluffer
    s[BLUFF] = 1 if game.bluff else 0
    s[BLUFF_COLOUR] = game.bluff_colour
    s[DISCARDS_LEFT] = game.discards_left
    s[TARGET_KIND] = game.target_kind
    s[ROUND] = game.round
    s[WINNER] = game.winner
    s[ARMED] = 1 if game.window_armed else 0
    for seat in game.exposed:
        s[EXPOSED + seat] = 1
    s[EXPOSED_COUNT] = len(game.exposed)
    for seat, hand in enumerate(game.hands):
        s[SIZES + seat] = len(hand)
        s[SCORES + seat] = game.scores[seat]
        for card in hand:
            s[HANDS + seat * MAX_FACES + face[card]] += 1
            s[HAND_BITS + seat] |= 1 << face[card]
    s[DRAW_COUNT] = len(game.draw_pile)
    s[DRAW_PILE : DRAW_PILE + len(game.draw_pile)] = [face[c] for c in game.draw_pile]
    s[DISCARD_COUNT] = len(game.discard_pile)
    s[DISCARD_PILE : DISCARD_PILE + len(game.discard_pile)] = [face[c] for c in game.discard_pile]
    for card in game.discard_pile:
        s[DISCARD_FACES + face[card]] += 1
    for index, (op, seat, arg) in enumerate(game.ops):
        s[OPS + 3 * index : OPS + 3 * index + 3] = (op, seat, arg)
    s[OPS_COUNT] = len(game.ops)
    house = game.house_state()  # the house rules' public state (none without house rules)
    s[STACK_TOTAL] = house.get("stack_total", 0)
    s[STACK_KIND] = house.get("stack_kind", -1)
    s[MULTI_COUNT] = house.get("multi_count", 0)
    for slot, name in ((JUMP_CARD, "jump_card"), (JUMP_NEXT, "jump_next")):
        card = house.get(name, -1)
        s[slot] = face[card] if card >= 0 else -1
    s[JUMP_FROM] = house.get("jump_from", -1)
    s[JUMP_NEXT_FROM] = house.get("jump_next_from", -1)
    s[TURN_SKIPS : TURN_SKIPS + game.n] = game.turn_skips
    s[PENDING_SKIPS] = game.pending_skips
    s[KNOCKED] = sum(1 << seat for seat in game.knocked)
    s[OUT] = s[KNOCKED] | sum(1 << seat for seat in house.get("out", ()))
    s[PLAYERS_IN] = game.players_in
    for seat, (points, cards) in enumerate(zip(house.get("out_points", ()), house.get("out_cards", ()), strict=True)):
        s[OUT_POINTS + seat] = points
        s[OUT_CARDS + seat] = cards
    if s[JUMPING]:  # the last card played, unless a start card or a lever's discard covered it since
        s[LAST_PLAY] = -1
        for kind, seat, value, data in reversed(game.events):
            if kind == "play":
                s[LAST_PLAY] = seat * 64 + face[data[0]]
            if kind in ("play", "flip") or (kind == "discard" and value == 1):
                break
        else:  # a game loaded from a position (unokit.engine.positions): it says whether the play resolved was last
            if getattr(game, "jump_seen_at_load", False) and s[JUMP_NEXT] >= 0:
                s[LAST_PLAY] = s[JUMP_NEXT_FROM] * 64 + s[JUMP_NEXT]
    if s[JACKPOT]:
        _jackpot_from_game(s, game)
    return s


def _jackpot_from_game(s: IntArray, game: Any) -> None:
    """Wild Jackpot's state of ``game`` (its rule cards, dispenser, lever and rule in progress) into ``s``."""
    extra = game.extra
    texts = extra["texts"]
    if len(texts) > MAX_RULES:
        raise UnknownOptionError(f"the compiled engine holds at most {MAX_RULES} rule cards, not {len(texts)}")
    s[RULES_WRITTEN] = 1
    s[RULE_TOTAL] = len(texts)
    for rid, text in enumerate(texts):
        s[RULE_VERB + rid], s[RULE_COUNT + rid], s[RULE_AIM + rid] = rule_code(text)
    for region, count, name in (
        (DISPENSER, DISPENSER_COUNT, "dispenser"),
        (USED, USED_COUNT, "used"),
        (IN_PLAY, IN_PLAY_COUNT, "in_play"),
    ):
        cards = extra[name]
        s[region : region + len(cards)] = cards
        s[count] = len(cards)
    for slot, name in (
        (LEVER_COLOURS, "lever_colours"),
        (LEVER_DRAW, "lever_draw"),
        (LEVER_SKIP, "lever_skip"),
        (GIVE_TO, "give_to"),
        (GIVE_LEFT, "give_left"),
        (PERFORMING, "performing"),
        (TARGET_RULE, "target_rule"),
    ):
        s[slot] = extra[name]
    s[TARGET_CHOICES] = sum(1 << seat for seat in extra["target_choices"])
    for kind, _, value, _ in reversed(game.events):  # the round's last lever outcome
        if kind in ("lever", "dealer"):
            s[LEVER_LAST] = value if kind == "lever" else -1
            break


_FACE_INDEX = [{card: index for index, card in enumerate(edition.faces)} for edition in _EDITIONS]
_TEMPLATES: dict[tuple[str, int, Rules], IntArray] = {}
"""Template states by edition, table size and rules, for :func:`state_from_game`."""


@_jit
def _policy_unit(s: IntArray) -> float:
    return _policy_below(s, 1 << 24) / float(1 << 24)


@_jit
def playout_action(s: IntArray, seat: int) -> int:
    """The search's quick policy (``unokit.bots.playout.playout_action``): play a card when
    possible (calling UNO), a coloured card of the colour held most, keeping wild cards for when
    nothing else plays, and an attacking card when the next player is close to going out; name
    the colour held most; accept a Wild Draw Four; otherwise one of the legal actions at random."""
    e = s[EDITION]
    count = legal_ids(s, seat)
    ids = s[LEGAL : LEGAL + s[ID_WAIT]]
    play_uno = s[ID_PLAY_UNO]
    draw = s[ID_DRAW]
    plays = 0
    calls = 0
    for i in range(count):
        if ids[i] < draw:
            plays += 1
            if ids[i] >= play_uno:
                calls += 1
    hand = HANDS + seat * MAX_FACES
    if plays:
        counts = SCRATCH  # cards held of each colour
        for colour in range(6):
            s[counts + colour] = 0
        for f in range(s[NF]):
            s[counts + COLOUR_OF[e, f]] += s[hand + f]
        close = s[SIZES + _next_in(s, seat, s[DIRECTION])] <= 2
        best = -1.0
        chosen = ids[0]
        pool = calls if calls else plays
        for i in range(count):
            action = ids[i]
            if action >= draw or (calls and action < play_uno):
                continue
            if pool == 1:
                return action  # type: ignore[no-any-return]
            card = action - play_uno if action >= play_uno else action
            score = 0.0 if COLOUR_OF[e, card] == NO_COL else 10.0 + s[counts + COLOUR_OF[e, card]]
            if close and (ATTACKS >> KIND_OF[e, card]) & 1:
                score += 20.0
            score += _policy_unit(s)
            if score > best:
                best = score
                chosen = action
        return chosen  # type: ignore[no-any-return]
    first_colour = s[ID_COLOUR]
    if first_colour <= ids[0] < first_colour + s[NCOL]:
        best_colour = 0
        most = -1
        for c in range(s[NCOL]):
            held = 0
            for f in range(s[NF]):
                if COLOUR_OF[e, f] == COLOURS_OF[e, c]:
                    held += s[hand + f]
            if held > most:
                most = held
                best_colour = c
        return first_colour + best_colour  # type: ignore[no-any-return]
    if ids[0] == s[ID_CHALLENGE]:
        return s[ID_ACCEPT]  # type: ignore[no-any-return]
    if count == 1:
        return ids[0]  # type: ignore[no-any-return]
    return ids[_policy_below(s, count)]  # type: ignore[no-any-return]


@_jit
def playout(s: IntArray, limit: int) -> int:
    """Finish the round in ``s`` with :func:`playout_action`, as the search's Python playouts
    settle what may happen out of turn: an open UNO window at random (the player calls, or the next
    seat (with teams: the first rival) catches them), then an open Jump-In window half the time (the
    nearest player who may jump in does, calling UNO); the seat that wins the round, or after
    ``limit`` decisions the first seat holding the fewest cards."""
    start_round = s[ROUND]
    ended = s[ROUNDS_ENDED]
    n = s[N]
    for _ in range(limit):
        while s[PHASE] != OVER:
            if s[EXPOSED_COUNT]:
                target = 0
                while not s[EXPOSED + target]:
                    target += 1
                if _policy_below(s, 2) == 0:
                    _apply_legal(s, target, s[ID_CALL_UNO])
                else:  # the next seat, or (with teams or seats out) the first that may catch
                    catcher = (target + 1) % n
                    if s[TEAMS] or s[OUT]:
                        catcher = 0
                        while catcher == target or (s[OUT] >> catcher) & 1 or (s[TEAMS] and (catcher - target) % 2 < 1):
                            catcher += 1
                    _apply_legal(s, catcher, s[ID_CATCH] + target)
                continue
            jumper = -1
            if s[JUMP_CARD] >= 0:
                seat = s[ACTOR]
                for _ in range(s[PLAYERS_IN] - 1):
                    seat = _next_in(s, seat, s[DIRECTION])
                    if legal_ids(s, seat):
                        jumper = seat
                        break
            if jumper < 0 or _policy_below(s, 2) == 1:
                break
            count = legal_ids(s, jumper)
            _apply_legal(s, jumper, s[LEGAL + count - 1])  # the highest: a jump-in, with UNO when it may
        if s[PHASE] == OVER or s[ROUNDS_ENDED] != ended:
            break
        seat = s[ACTOR]
        _apply_legal(s, seat, playout_action(s, seat))
    if s[ROUNDS_ENDED] != ended or s[ROUND] != start_round:
        return s[ROUND_WINNER]  # type: ignore[no-any-return]
    fewest = -1
    for seat in range(n):
        if not (s[OUT] >> seat) & 1 and (fewest < 0 or s[SIZES + seat] < s[SIZES + fewest]):
            fewest = seat
    return fewest


@_jit
def env_act(s: IntArray, seat: int, action: int, reward_kind: int, rewards: Any) -> tuple[int, bool, bool, int, bool]:
    """One step of an environment: :func:`act`, the step's rewards of every seat into ``rewards``
    (zeroed; as :func:`_step_rewards` gives them), then ``(code, over, whether a reward was given,
    the seat asked next, whether out of turn)`` (code as :func:`act` returns it; nothing changed
    unless 0)."""
    code = act(s, seat, action)
    rewards[:] = 0
    _step_rewards(s, reward_kind, rewards)
    given = False
    for i in range(s[N]):
        if rewards[i] != 0:
            given = True
    nxt, out_of_turn = asked(s)
    return code, s[PHASE] == OVER, given, nxt, out_of_turn
