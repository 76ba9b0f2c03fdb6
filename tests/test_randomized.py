"""Randomized properties every edition must satisfy.

Over a thousand seeded games are played by a uniformly random policy (a seat picked
uniformly from ``deciders()``, then one of its legal actions uniformly), and these
invariants are checked at every step:

* every card of the deck is somewhere, exactly once;
* the action mask equals the legal list for every seat, only deciders have legal
  actions, and every legal action is possible (cards held, seats that exist);
* a seat that may not act is refused with :class:`WrongPlayerError`, an illegal id
  with :class:`IllegalActionError`, and neither changes anything;
* a clone given the same action reaches an equal state (sampled);
* the events describe every change of every hand; the hands counted at a round's
  end carry the edition's points and move the scores by the scoring method;
* views never show another player's cards (sampled, and in full at the end);
* every round ends within a generous bound, and the record replays to the game.

New editions in :data:`unokit.editions.EDITIONS` join automatically.

The checks run millions of times, so this module opts out of pytest's assertion
rewriting (PYTEST_DONT_REWRITE); its assertions carry explicit messages instead.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unokit.editions import EDITIONS
from unokit.editions.wild_jackpot import TARGET_PERFORMER
from unokit.engine.actions import JUMP_TYPES, ActionType
from unokit.engine.errors import GameOverError, IllegalActionError, WrongPlayerError
from unokit.engine.events import SECRET_KINDS, SHARED_SECRET_KINDS, Event
from unokit.engine.game import Game
from unokit.engine.phases import HOUSE_PHASE_NAMES, PHASE_NAMES
from unokit.engine.record import replay, to_record
from unokit.engine.rules import FORCED_SWAP_FINAL, SCORING_METHODS

EDITION_NAMES = sorted(EDITIONS)
PLAYER_COUNTS = (2, 3, 4, 7, 10)
SINGLE_ROUND = {"scoring": "single-round"}

CHUNKS = 4
CHUNK_STEPS = 12_000
"""A chunk of single-round games plays seeded games until it has made this many decisions..."""
CHUNK_MIN_GAMES = 5
"""... and at least this many games."""

ROUND_STEP_LIMIT = 250_000
"""No round of a random game may take more decisions than this."""
ROUND_LIMIT = 2_000
"""No match of a random game may take more rounds than this."""


class EventFollower:
    """Rebuilds every hand from the event stream alone and checks round and match ends."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.n = game.n
        self.seen = 0
        self.hands: list[list[int]] = [[] for _ in range(game.n)]
        self.scores = [0] * game.n
        self.counted: list[Event] = []
        self.round_winner = -1
        self.rounds_ended = 0
        self.last_dealer = -1
        self.due: list[Event | str] = []
        """The events due after a round end (house rule teams: ``team_win``; knockout scoring: each
        ``knockout``), then the kind of the event that follows them."""
        self.knocked: list[int] = []
        """Seats out of the match (knockout scoring), from the ``knockout`` events."""
        self.mercied: dict[int, tuple[int, ...]] = {}
        """Seats out of the round (house rule mercy), from the ``mercy`` events: the cards they held."""
        self.blocked = False
        """The round is blocked (event ``blocked``): the lowest hand wins it."""

    def follow(self, compare_cards: bool = True) -> None:
        """Check the events added since the last call, and that they account for
        every hand: its size always, its cards when ``compare_cards``."""
        events = self.game.events
        new = events[self.seen :]
        self.seen = len(events)
        for index, event in enumerate(new):
            self._event(event, new[index + 1] if index + 1 < len(new) else None)
        assert not self.due, f"a round end is not followed by {self.due}: {new}"
        if self.game.is_over:
            return
        hands = self.game.hands
        assert list(map(len, self.hands)) == list(map(len, hands)), f"the events miss a change of hand: {new}"
        if compare_cards:
            for seat in range(self.n):
                assert sorted(self.hands[seat]) == sorted(hands[seat]), (
                    f"the events miss a change of hand {seat}: {new}"
                )

    def _event(self, event: Event, following: Event | None) -> None:
        kind, seat, value, data = event
        assert kind in self.game.edition.event_kinds, f"unknown event {event}"
        assert isinstance(seat, int) and isinstance(value, int) and type(data) is tuple, f"malformed event {event}"
        assert all(isinstance(x, int) for x in data), f"malformed event {event}"
        hands = self.hands
        if self.due:
            due = self.due.pop(0)
            assert (kind == due) if isinstance(due, str) else (event == due), f"{event} where {due} was due"
        if kind == "dealer":
            for out in self.knocked:
                hands[out] = []
            self.mercied = {}
            if self.last_dealer >= 0:
                assert seat == self.game.left_of(self.last_dealer), f"the next dealer is not left of the last: {event}"
            self.last_dealer = seat
            assert value == self.rounds_ended + 1, f"round number {event}"
        elif kind == "deal":
            assert len(data) == value == self.game.rules.hand_size, f"deal {event}"
            hands[seat] = list(data)
        elif kind == "draw":
            assert len(data) == value > 0, f"draw {event}"
            hands[seat].extend(data)
        elif kind in ("play", "discard"):
            assert len(data) == 1 and data[0] in hands[seat], f"{event}: the card is not in the hand"
            hands[seat].remove(data[0])
        elif kind == "take":
            for card in data:
                assert card in hands[value], f"{event}: {card} is not in hand {value}"
                hands[value].remove(card)
            hands[seat].extend(data)
        elif kind == "give":
            assert len(data) == 1 and data[0] in hands[seat], f"{event}: the card is not in the hand"
            hands[seat].remove(data[0])
            hands[value].append(data[0])
        elif kind == "swap":
            assert seat != value, f"swap with oneself {event}"
            hands[seat], hands[value] = hands[value], hands[seat]
        elif kind == "pass_hands":
            self.hands = hands = [hands[self._before(s, value)] for s in range(self.n)]
        elif kind == "reveal":
            assert seat != value, f"reveal to oneself {event}"
            assert list(data) == sorted(hands[seat]), f"{event} is not the whole hand {sorted(hands[seat])}"
        elif kind == "hand":
            playing = [s for s in range(self.n) if s not in self.knocked and s not in self.mercied]
            assert seat == playing[len(self.counted)], f"hands are not counted in seat order: {event}"
            assert list(data) == sorted(hands[seat]), f"{event} is not the hand held {sorted(hands[seat])}"
            points = self.game.edition.hand_points(list(data))
            assert value == points, f"{event} should count {points} points"
            self.counted.append(event)
        elif kind == "blocked":
            playing = self.n - len(self.knocked) - len(self.mercied)
            assert value == playing and not self.counted, f"{event}: not a full round of turns before the hands"
            self.blocked = True
        elif kind == "round_end":
            self._round_end(seat, value, data, following)
        elif kind == "knockout":
            self.knocked.append(seat)
        elif kind == "mercy":
            assert seat not in self.knocked and seat not in self.mercied, f"{event}: the seat is out already"
            assert sorted(data) == sorted(hands[seat]) and value == len(data), f"{event} is not the hand {hands[seat]}"
            assert value >= self.game.rules.mercy_limit, f"{event}: under the limit"
            hands[seat] = []  # the cards go face up under the discard pile
            self.mercied[seat] = data
        elif kind == "match_end":
            self._match_end(seat, value, data)

    def _before(self, seat: int, step: int) -> int:
        """The player before ``seat`` going ``step`` (a seat out of the match keeps its empty hand)."""
        if seat in self.knocked or seat in self.mercied:
            return seat
        before = (seat - step) % self.n
        while before in self.knocked or before in self.mercied:
            before = (before - step) % self.n
        return before

    def _round_end(self, winner: int, gained: int, scores: tuple[int, ...], following: Event | None) -> None:
        playing = self.n - len(self.knocked) - len(self.mercied)
        assert len(self.counted) == playing, f"not every hand is counted at a round's end: {self.counted}"
        points = [0] * self.n
        sizes = [0] * self.n
        for seat, cards in self.mercied.items():  # scored as held when put out of the round
            points[seat] = self.game.edition.hand_points(list(cards))
            sizes[seat] = len(cards)
        for event in self.counted:
            points[event[1]] = event[2]
            sizes[event[1]] = len(event[3])
        teams = self.game.teams
        side = [teams[s] if teams else s for s in range(self.n)]  # a seat's team (house rule teams), or itself
        empty = [event[1] for event in self.counted if not event[3]]
        if self.blocked:  # the lowest hand wins (points, then cards)
            held = [(points[e[1]], sizes[e[1]]) for e in self.counted]
            assert not empty and (points[winner], sizes[winner]) == min(held), f"blocked round won by {winner}"
            self.blocked = False
        elif empty or not self.mercied:
            assert empty == [winner], f"round winner {winner}, empty hands {empty}"
        else:  # the last player (team) left wins (house rule mercy)
            left = [event[1] for event in self.counted]
            assert {side[s] for s in left} == {side[winner]} and winner == left[0], (
                f"round winner {winner}, left {left}"
            )
        self.counted = []
        self.rounds_ended += 1
        rules = self.game.rules
        method = self.game.scoring
        expected = list(self.scores)
        if method == "winner-collects":
            won = sum(p for s, p in enumerate(points) if side[s] != side[winner])
            expected = [score + (won if side[s] == side[winner] else 0) for s, score in enumerate(expected)]
            assert gained == won, f"winner gains {gained}, the other side's hands hold {points}"
            over = expected[winner] >= rules.target_score
        elif method == "running-tally":
            own = [sum(p for t, p in enumerate(points) if side[t] == side[s]) for s in range(self.n)]
            expected = [score + p for score, p in zip(expected, own, strict=True)]
            assert gained == 0, f"running tally: round_end value {gained}"
            lowest = min(expected)
            over = (
                max(expected) >= rules.target_score
                and len({side[s] for s in range(self.n) if expected[s] == lowest}) == 1
            )
        elif method == "knockout":
            assert gained == 0, f"knockout: round_end value {gained}"
            rivals = [s for s in range(self.n) if s not in self.knocked and side[s] != side[winner]]
            most = max((sizes[s], points[s]) for s in rivals)
            leavers = [s for s in rivals if (sizes[s], points[s]) == most]
            knocked = {*self.knocked, *leavers}
            over = len({side[s] for s in range(self.n) if s not in knocked}) == 1
        else:
            assert gained == 0, f"single round: round_end value {gained}"
            over = True
        assert list(scores) == expected, f"{method}: {self.scores} + hands {points} gave {scores}"
        self.scores = expected
        self.round_winner = winner
        want = "match_end" if over else "dealer"
        self.due = []
        if teams:  # the winning team is told first (house rule teams)
            self.due.append(("team_win", winner, teams[winner], self.game.team_seats(winner)))
        if method == "knockout":
            self.due += [("knockout", s, sizes[s], ()) for s in leavers]
        self.due.append(want)

    def _match_end(self, winner: int, round_number: int, scores: tuple[int, ...]) -> None:
        game = self.game
        assert list(scores) == self.scores == game.scores, f"match_end scores {scores}, {self.scores}, {game.scores}"
        assert round_number == self.rounds_ended == game.round, f"match_end round {round_number}"
        assert winner == game.winner, f"match_end winner {winner}, game.winner {game.winner}"
        if game.scoring == "running-tally":
            assert scores[winner] == min(scores), f"running tally: {winner} does not have the lowest of {scores}"
        else:
            assert winner == self.round_winner, f"match winner {winner} did not win the last round"
        # The match is over: no new deal, so the hands are the ones counted.
        for seat in range(self.n):
            assert sorted(game.hands[seat]) == sorted(self.hands[seat]), f"hand {seat} after the match end"


def check_view(game: Game, seat: int | None) -> None:
    """The view of ``seat`` shows its own hand and nobody else's cards."""
    view = game.view(seat)
    where = f"view of {seat}"
    assert view.seat == seat, where
    assert view.hand_sizes == tuple(len(h) for h in game.hands), f"{where}: hand sizes"
    # the view shows the deciders whose reason is public (Game.deciders: the actor, and everyone
    # while a call is missing), and the viewer if it may decide for a private reason (a jump-in)
    public = set(Game.deciders(game))
    if seat is not None and seat in game.deciders():
        public.add(seat)
    assert view.deciders == tuple(sorted(public)), f"{where}: deciders {view.deciders} of {game.deciders()}"
    if seat is None:
        assert view.hand == () and view.legal_actions == (), f"{where}: {view.hand} {view.legal_actions}"
    else:
        assert view.hand == tuple(sorted(game.hands[seat])), f"{where}: hand {view.hand}"
        assert view.legal_actions == game.legal_actions(seat), f"{where}: legal actions"
    assert len(view.history) == len(game.events), f"{where}: history length"
    for shown, event in zip(view.history, game.events, strict=True):
        kind, owner, value, data = event
        if kind not in SECRET_KINDS:
            assert shown == event, f"{where}: {shown} for {event}"
            continue
        visible = seat is not None and (owner == seat or (kind in SHARED_SECRET_KINDS and value == seat))
        assert shown == (kind, owner, value, data if visible else ()), f"{where}: {shown} for {event}"


def refused(game: Game, seat: Any, action: Any) -> IllegalActionError:
    """Apply an action that must be refused; return the error."""
    try:
        game.apply(seat, action)
    except IllegalActionError as exc:
        return exc
    raise AssertionError(f"seat {seat!r} was allowed {action!r} in phase {game.phase_name}")


def state_without_rng(game: Game) -> tuple[Any, ...]:
    """The state without the random generator's (costly to read) internal state."""
    return (
        game.phase,
        game.actor,
        game.turn,
        game.colour,
        game.direction,
        game.round,
        game.dealer,
        game.winner,
        game.drawn,
        game.bluffer,
        game.bluff,
        game.discards_left,
        game.target_kind,
        game.window_armed,
        len(game.events),
        len(game.history),
        tuple(game.draw_pile),
        tuple(game.discard_pile),
        tuple(map(tuple, game.hands)),
        tuple(game.exposed),
        tuple(game.ops),
        tuple(game.scores),
    )


def check_legal(game: Game, seat: int, legal: tuple[int, ...]) -> None:
    """Every legal action of ``seat`` can be carried out."""
    space = game.actions
    hand = game.hands[seat]

    def where() -> str:
        return f"seat {seat} in phase {game.phase_name}"

    for action in legal:
        kind, arg = space.decode(action)
        if kind in (ActionType.PLAY, ActionType.PLAY_UNO, ActionType.DISCARD, *JUMP_TYPES):
            assert arg in hand, f"{where()} may play or discard {space.format(action)}, not in hand {hand}"
        if kind in (ActionType.PLAY_UNO, ActionType.JUMP_UNO):
            assert len(hand) == 2, f"{where()} may call UNO holding {len(hand)} cards"
        if kind in JUMP_TYPES:
            assert seat != game.actor and arg == game.top_card, f"{where()} may jump in with {space.format(action)}"
        elif kind == ActionType.TARGET:
            assert 0 <= arg < game.n, f"{where()} may target {arg}"
            # Only a rule card's performer may be oneself ("choose any player, even yourself").
            assert arg != seat or game.target_kind == TARGET_PERFORMER, f"{where()} may target {arg}"
        elif kind == ActionType.CALL_UNO:
            assert seat in game.exposed and len(hand) == 1, f"{where()} may call UNO: {game.exposed}"
        elif kind == ActionType.CATCH:
            assert arg != seat and arg in game.exposed, f"{where()} may catch {arg}: {game.exposed}"
        elif kind not in (ActionType.PLAY, ActionType.DISCARD, *JUMP_TYPES):
            assert seat == game.actor, f"{where()} may {space.format(action)} out of turn"
    if seat == game.actor and game.phase_name == "turn" and not game.rules.house_on:
        assert space.draw in legal, f"{where()} may not draw"
        if not game.edition.colours_matter:
            # Every card is wild: every card held may be played.
            playable = {space.play_id[card] for card in hand}
            assert playable <= set(legal), f"{where()} may not play {playable - set(legal)} (hand {hand})"


def play_and_check(
    edition: str,
    players: int,
    seed: int,
    rules: dict[str, Any] | None = None,
    *,
    clone_every: int = 16,
    view_every: int = 150,
    full_key_every: int = 4,
    step_limit: int | None = None,
) -> Game:
    """Play one random game to its end (or ``step_limit`` decisions, then its record is checked
    unfinished), checking every invariant along the way."""
    game = Game(edition, players, seed=seed, rules=rules)
    policy = random.Random(f"{edition}/{players}/{seed}")
    follower = EventFollower(game)
    follower.follow()
    deck = dict(Counter(game.deck_cards))
    size = game.actions.size
    seats = range(players)
    no_actions = [0] * size
    steps = round_steps = 0
    current_round = game.round
    viewer = next_view = next_clone = 0
    label = f"{edition}, {players} players, seed {seed}"
    while not game.is_over and steps != step_limit:
        assert dict(game.all_cards()) == deck, f"{label}, step {steps}: cards lost or duplicated"
        phases = (*PHASE_NAMES[:-1], *game.edition.phase_names, *HOUSE_PHASE_NAMES)
        assert game.phase_name in phases, f"{label}, step {steps}: phase"
        deciders = game.deciders()
        assert deciders and game.actor in deciders and len(set(deciders)) == len(deciders), (
            f"{label}, step {steps}: {deciders}"
        )
        for seat in seats:
            legal = game.legal_actions(seat)
            mask = game.action_mask(seat)
            if seat in deciders:
                assert legal and len(set(legal)) == len(legal), f"{label}, step {steps}: seat {seat} legal {legal}"
                expected = list(no_actions)
                for action in legal:
                    expected[action] = 1
                assert mask == expected, f"{label}, step {steps}: the mask of seat {seat} differs from {legal}"
            else:
                assert legal == () and mask == no_actions, f"{label}, step {steps}: waiting seat {seat} has {legal}"

        seat = policy.choice(deciders)
        legal = game.legal_actions(seat)
        check_legal(game, seat, legal)
        action = policy.choice(legal)

        # Refused actions change nothing: the state at every step, the full key (with the rng) now and then.
        full = steps % full_key_every == 0
        key = game.state_key() if full else state_without_rng(game)
        last_event = game.events[-1]
        waiting = [other for other in seats if other not in deciders]
        if waiting:
            other = policy.choice(waiting)
            error = refused(game, other, action)
            assert isinstance(error, WrongPlayerError), f"{label}, step {steps}: waiting seat {other} got {error!r}"
            if full:
                error = refused(game, other, policy.randrange(size))
                assert isinstance(error, WrongPlayerError), f"{label}, step {steps}: waiting seat {other} got {error!r}"
        bad = policy.randrange(-1, size + 1)
        if bad not in legal:
            error = refused(game, seat, bad)
            assert seat != game.actor or not isinstance(error, WrongPlayerError), (
                f"{label}, step {steps}: actor got {error!r}"
            )
        if full:
            error = refused(game, players, action)
            assert isinstance(error, WrongPlayerError), f"{label}, step {steps}: seat {players} got {error!r}"
        after = game.state_key() if full else state_without_rng(game)
        assert after == key, f"{label}, step {steps}: a refused action changed the state"
        assert game.events[-1] is last_event and len(game.history) == steps, (
            f"{label}, step {steps}: a refused action was recorded"
        )

        # Views and clone comparisons cost time in proportion to the event list:
        # in long rounds they are spaced out so that their cost per step stays bounded.
        if steps == next_view:
            check_view(game, viewer if viewer < players else None)
            viewer = (viewer + 1) % (players + 1)
            next_view += max(view_every, len(game.events) // 8)

        if steps == next_clone:
            next_clone += max(clone_every, len(game.events) // 100)
            twin = game.clone()
            twin_key = twin.state_key()
            game.apply(seat, action)
            assert twin.state_key() == twin_key, f"{label}, step {steps}: a clone shares state with its original"
            twin.apply(seat, action)
            assert twin == game, f"{label}, step {steps}: a clone given the same action differs"
        else:
            game.apply(seat, action)
        steps += 1
        follower.follow(compare_cards=full)

        if game.round != current_round:
            current_round = game.round
            round_steps = 0
            assert game.round <= ROUND_LIMIT, f"{label}, step {steps}: the match does not end"
        round_steps += 1
        assert round_steps <= ROUND_STEP_LIMIT, f"{label}, step {steps}: round {game.round} does not end"

    where = f"{label}, over"
    assert dict(game.all_cards()) == deck, f"{where}: cards lost or duplicated"
    if not game.is_over:  # stopped at step_limit
        where = f"{label}, stopped"
        record = json.loads(json.dumps(to_record(game)))
        assert replay(record) == game, f"{where}: the record does not replay to the game"
        return game
    assert game.deciders() == () and game.phase_name == "over", f"{where}: {game.deciders()}"
    assert 0 <= game.winner < players, f"{where}: winner {game.winner}"
    for seat in seats:
        assert game.legal_actions(seat) == () and game.action_mask(seat) == no_actions, f"{where}: seat {seat}"
        error = refused(game, seat, game.actions.draw)
        assert isinstance(error, GameOverError), f"{where}: {error!r}"
        check_view(game, seat)
    check_view(game, None)

    record = to_record(game)
    loaded = json.loads(json.dumps(record))
    assert loaded == record, f"{where}: the record does not survive JSON"
    again = replay(loaded)
    assert again == game and again.history == game.history, f"{where}: the record does not replay to the game"
    return game


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_random_single_rounds(edition: str, players: int, chunk: int) -> None:
    seed = (chunk * 100 + players) * 100_000
    games = steps = 0
    while steps < CHUNK_STEPS or games < CHUNK_MIN_GAMES:
        game = play_and_check(edition, players, seed + games, SINGLE_ROUND)
        assert game.round == 1, f"seed {seed + games}: a single-round game played {game.round} rounds"
        assert not game.hands[game.winner], f"seed {seed + games}: the winner holds cards"
        assert game.scores == [0] * players, f"seed {seed + games}: a single round scored {game.scores}"
        games += 1
        steps += len(game.history)


@pytest.mark.parametrize("scoring", ["winner-collects", "running-tally"])
@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_random_full_matches(edition: str, players: int, scoring: str) -> None:
    game = play_and_check(edition, players, 1, {"scoring": scoring}, clone_every=32, view_every=400)
    scores = game.scores
    if scoring == "winner-collects":
        assert scores[game.winner] >= 500, f"the winner has {scores}"
    else:
        assert max(scores) >= 500 and scores[game.winner] == min(scores), f"the winner of {scores}"


RULE_OPTIONS = st.fixed_dictionaries(
    {
        "scoring": st.sampled_from(SCORING_METHODS),
        "target_score": st.integers(1, 500),
        "allow_bluff": st.booleans(),
        "challenger_plays_after_catching_bluff": st.booleans(),
        "two_player_reverse_skips": st.booleans(),
        "jam_slam_chance": st.sampled_from([0.0, 0.5, 1.0]) | st.floats(0.0, 1.0),
        "forced_swap_final_card": st.sampled_from(FORCED_SWAP_FINAL),
        "uno_penalty": st.integers(0, 4),
        "hand_size": st.integers(1, 9),
        "jam_discard": st.integers(0, 3),
        "jam_draw": st.integers(0, 3),
    }
)


@pytest.mark.parametrize("edition", EDITION_NAMES)
@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(players=st.sampled_from(PLAYER_COUNTS), seed=st.integers(0, 2**32), options=RULE_OPTIONS)
def test_random_rule_options(edition: str, players: int, seed: int, options: dict[str, Any]) -> None:
    game = play_and_check(edition, players, seed, options, clone_every=16, view_every=200)
    for name, value in options.items():
        assert getattr(game.rules, name) == value, f"rule option {name} was not applied"
