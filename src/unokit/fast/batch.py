"""Batches of games stepped for a learner, with compiled bots in the seats it does not hold.

:class:`unokit.rl.batched.BatchedEnv` drives these kernels: one row of ``states`` per game; each
row's seats are held by the caller (:data:`PYTHON`, or any negative code) or by a compiled bot
(:data:`~unokit.fast.heuristic.HEURISTIC`, :data:`~unokit.fast.heuristic.RANDOM`).  A step applies
the caller's action in each row it steps, then lets the row's bots answer, each as the decision
cycle asks it (:func:`unokit.fast.engine.asked`: out of turn too), until a seat of the caller is
asked; a game that ends is replaced by the next game of the seed, whose bots play at once up to the
caller's first decision.  Besides the states, per row: the game's number (its deal and its bots'
generators: :func:`unokit.fast.heuristic.bot_seed`, as :func:`~unokit.fast.heuristic.play_bots_games`
seeds them), the decisions taken in the current round (every seat's, "wait" included: a round that
reaches ``cap`` is truncated), the heuristic's memory of the round (kept when ``track``) and each
seat's generator.

A bot answers the cycle with the Python bots' own choices: asked out of turn, ``wants_interrupt``
(none: "wait"); asked in turn while someone may be caught, ``wants_interrupt`` first (a call or a
catch is taken), then ``choose``; otherwise ``choose``.  The order in which seats are asked out of
turn is the decision cycle's, not the bots' runner's (:func:`unokit.fast.heuristic.bot_decision`):
tables of heuristic bots, which never miss an UNO call, play the runner's games exactly; a random
bot's missed call may be answered in another order.
"""

from __future__ import annotations

from typing import Any

from unokit.fast import MISSING_EXTRA

try:
    import numpy as np  # noqa: F401 (numba needs numpy)
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(MISSING_EXTRA) from error

from unokit.fast.engine import (
    EXPOSED_COUNT,
    ID_CALL_UNO,
    ID_DONE,
    ID_JUMP,
    ID_WAIT,
    OVER,
    PHASE,
    ROUNDS_ENDED,
    ROUNDS_REWARDED,
    IntArray,
    N,
    _copy,
    _jit,
    _new_game,
    _observe_asked,
    _step_rewards,
    act,
    asked,
    encode,
)
from unokit.fast.heuristic import (
    HEURISTIC,
    _bot_seed,
    _offers,
    heuristic_choose,
    heuristic_interrupt,
    mt_seed_later,
    random_choose,
    random_interrupt,
    reset_memory,
    update_memory,
)

__all__ = [
    "GAME_DECISIONS",
    "LAST_GAME_DECISIONS",
    "PYTHON",
    "ROUND_DECISIONS",
    "batch_bot_actions",
    "batch_reset_bots",
    "batch_step_bots",
    "bot_answer",
]

ROUND_DECISIONS, GAME_DECISIONS, LAST_GAME_DECISIONS = 0, 1, 2
"""The columns of ``counts``, per row: the decisions of the current round, of the current game, and
of the last game that stopped in the row."""

PYTHON = -1
"""A seat held by the caller (its actions are given to each step); so is any negative code (the
caller may tell apart the players it holds: a learner and the opponents it steps itself)."""


@_jit
def bot_answer(s: IntArray, memory: IntArray, rng: IntArray, kind: int, seat: int, out_of_turn: bool) -> int:
    """The action of a bot of ``kind`` at ``seat``, asked now by the decision cycle (``memory`` up
    to date, ``rng`` that seat's generator): "wait" (``s[ID_WAIT]``) when asked out of turn and it
    wants nothing."""
    heuristic = kind == HEURISTIC
    if out_of_turn:
        wanted = heuristic_interrupt(s, seat) if heuristic else random_interrupt(s, rng, seat)
        return wanted if wanted >= 0 else s[ID_WAIT]
    if s[EXPOSED_COUNT] and _offers(s, seat, s[ID_CALL_UNO], s[ID_DONE]):
        wanted = heuristic_interrupt(s, seat) if heuristic else random_interrupt(s, rng, seat)
        if 0 <= wanted < s[ID_JUMP]:
            return wanted
    if heuristic:
        return heuristic_choose(s, memory, rng, seat)
    return random_choose(s, memory, rng, seat)


@_jit
def _after(
    s: IntArray, row: int, track: bool, memories: IntArray, reward_kind: int, rewards: Any, counts: IntArray
) -> None:
    """Book an action just applied in ``row``: the memory, the rewards, the decisions counted."""
    if track:
        update_memory(s, memories[row])
    counts[row, ROUND_DECISIONS] += 1
    counts[row, GAME_DECISIONS] += 1
    if s[ROUNDS_ENDED] != s[ROUNDS_REWARDED]:  # a round ended: the next one counts from 0
        counts[row, ROUND_DECISIONS] = 0
    _step_rewards(s, reward_kind, rewards)


@_jit
def _over(s: IntArray, row: int, counts: IntArray, cap: int) -> int:
    """0 while ``row``'s game goes on, 1 when it ended, 2 when its round reached ``cap`` decisions."""
    if s[PHASE] == OVER:
        return 1
    if cap > 0 and counts[row, ROUND_DECISIONS] >= cap:
        return 2
    return 0


@_jit
def _play_bots(
    s: IntArray,
    row: int,
    kinds: IntArray,
    track: bool,
    memories: IntArray,
    rngs: IntArray,
    reward_kind: int,
    rewards: Any,
    counts: IntArray,
    cap: int,
) -> int:
    """Let ``row``'s bots answer until a seat of the caller is asked or the game stops (see :func:`_over`)."""
    while True:
        over = _over(s, row, counts, cap)
        if over:
            return over
        seat, out_of_turn = asked(s)
        kind = kinds[row, seat]
        if kind < 0:
            return 0
        act(s, seat, bot_answer(s, memories[row], rngs[row, seat], kind, seat, out_of_turn))
        _after(s, row, track, memories, reward_kind, rewards, counts)


@_jit
def _deal(
    states: IntArray,
    row: int,
    template: IntArray,
    seed: int,
    game: int,
    rotate: bool,
    kinds: IntArray,
    next_kinds: IntArray,
    games: IntArray,
    track: bool,
    memories: IntArray,
    rngs: IntArray,
    reward_kind: int,
    pending: Any,
    counts: IntArray,
    cap: int,
) -> int:
    """Deal game ``game`` (and on, while one stops before the caller is asked) in ``row``, seated as
    ``next_kinds[row]`` says (then turned one seat on when ``rotate``), and let its bots play up to
    the caller's first decision (their rewards into ``pending[row]``); returns the next game's number."""
    s = states[row]
    n = template[N]
    while True:
        for seat in range(n):
            kinds[row, seat] = next_kinds[row, seat]
        if rotate:
            last = next_kinds[row, n - 1]
            for seat in range(n - 1, 0, -1):
                next_kinds[row, seat] = next_kinds[row, seat - 1]
            next_kinds[row, 0] = last
        games[row] = game
        _new_game(s, template, seed, game)
        game += 1
        for seat in range(n):
            mt_seed_later(rngs[row, seat], _bot_seed(seed, games[row], seat))
        if track:
            reset_memory(memories[row])
            update_memory(s, memories[row])
        counts[row, ROUND_DECISIONS] = 0
        counts[row, GAME_DECISIONS] = 0
        pending[row] = 0
        if not _play_bots(s, row, kinds, track, memories, rngs, reward_kind, pending[row], counts, cap):
            return game


@_jit
def batch_reset_bots(
    states: IntArray,
    template: IntArray,
    seed: int,
    rotate: bool,
    kinds: IntArray,
    next_kinds: IntArray,
    games: IntArray,
    track: bool,
    memories: IntArray,
    rngs: IntArray,
    reward_kind: int,
    pending: Any,
    counts: IntArray,
    cap: int,
    layout: IntArray,
    high: Any,
    obs: Any,
    masks: Any,
    seats: IntArray,
    legal: Any,
) -> int:
    """Deal game ``i`` of ``seed`` in row ``i`` (see :func:`_deal`: later games where one stops
    before the caller is asked), with the first observation and mask of the caller's seat asked;
    returns the next game's number."""
    game = 0
    for i in range(len(states)):
        game = _deal(
            states,
            i,
            template,
            seed,
            game,
            rotate,
            kinds,
            next_kinds,
            games,
            track,
            memories,
            rngs,
            reward_kind,
            pending,
            counts,
            cap,
        )
        obs[i] = 0
        masks[i] = 0
        seats[i] = _observe_asked(states[i], layout, high, obs[i], masks[i])
        _copy(masks[i], legal[i])
    return game


@_jit
def batch_step_bots(
    states: IntArray,
    template: IntArray,
    seed: int,
    next_game: int,
    actions: IntArray,
    active: Any,
    rotate: bool,
    kinds: IntArray,
    next_kinds: IntArray,
    games: IntArray,
    track: bool,
    memories: IntArray,
    rngs: IntArray,
    reward_kind: int,
    pending: Any,
    counts: IntArray,
    cap: int,
    layout: IntArray,
    high: Any,
    obs: Any,
    masks: Any,
    seats: IntArray,
    legal: Any,
    rewards: Any,
    terminated: Any,
    truncated: Any,
    final_obs: Any,
    final_seats: IntArray,
) -> int:
    """Apply ``actions[i]`` of the seat asked in each row ``i`` where ``active[i]``, then the row's
    bots' actions until a seat of the caller is asked; set each row's rewards (every seat: those
    of the bots' actions before the caller's first decision of a game included, kept in
    ``pending`` until then), whether its game ended or was truncated (its round reached ``cap``
    decisions; ``cap`` 0: no cap) and then that game's last observation for the seat
    ``final_seats[i]`` (negative: the seat the caller acted for) into ``final_obs``, its decisions
    into ``counts``, and the next game dealt, and the observation and mask of the caller's
    seat asked next.  Rows not active are left as they are (no reward).  Returns the next game's
    number, or ``-1 - i`` when ``actions[i]`` is not legal (then nothing has changed)."""
    wait = template[ID_WAIT]
    for i in range(len(states)):
        if active[i] and (not 0 <= actions[i] <= wait or not legal[i, actions[i]]):
            return -1 - i
    for i in range(len(states)):
        rewards[i] = 0
        terminated[i] = False
        truncated[i] = False
        if not active[i]:
            continue
        s = states[i]
        seat = seats[i]
        _copy(pending[i], rewards[i])
        pending[i] = 0
        act(s, seat, actions[i])
        _after(s, i, track, memories, reward_kind, rewards[i], counts)
        over = _play_bots(s, i, kinds, track, memories, rngs, reward_kind, rewards[i], counts, cap)
        if over:
            terminated[i] = over == 1
            truncated[i] = over == 2
            final_obs[i] = 0
            encode(s, final_seats[i] if final_seats[i] >= 0 else seat, layout, high, final_obs[i])
            counts[i, LAST_GAME_DECISIONS] = counts[i, GAME_DECISIONS]
            next_game = _deal(
                states,
                i,
                template,
                seed,
                next_game,
                rotate,
                kinds,
                next_kinds,
                games,
                track,
                memories,
                rngs,
                reward_kind,
                pending,
                counts,
                cap,
            )
        obs[i] = 0
        masks[i] = 0
        seats[i] = _observe_asked(s, layout, high, obs[i], masks[i])
        _copy(masks[i], legal[i])
    return next_game


@_jit
def batch_bot_actions(states: IntArray, memories: IntArray, rngs: IntArray, kind: int, out: IntArray) -> None:
    """What a bot of ``kind`` would answer for the seat asked in each row (its memory kept up to
    date; it draws from that seat's generator, as the bot seated there would)."""
    for i in range(len(states)):
        s = states[i]
        seat, out_of_turn = asked(s)
        out[i] = bot_answer(s, memories[i], rngs[i, seat], kind, seat, out_of_turn)
