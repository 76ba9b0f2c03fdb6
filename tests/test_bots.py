"""Bots and the match runner.

* In many seeded games of every edition, mixed tables of random and heuristic bots only
  ever choose legal actions (the runner refuses anything else), and every kind of
  decision an edition asks comes up.
* Bots are deterministic for a seed; the runner refuses an illegal choice; bots are only
  ever given views, and the heuristic's choices do not change when an opponent's hidden
  cards do.
* The heuristic's rules of thumb, each in a scenario built from a stacked deck, and its
  strength against the random bot.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from unokit.bots import BOT_KINDS, Bot, GameResult, HeuristicBot, RandomBot, make_bot, play_game, play_match
from unokit.bots import base as bots_base
from unokit.bots.base import bot_kinds, register_bot
from unokit.bots.heuristic import read_round
from unokit.editions import EDITIONS, get_edition
from unokit.engine.actions import ActionType
from unokit.engine.cards import card_name
from unokit.engine.deck import stacked_deck
from unokit.engine.errors import SetupError, UnknownOptionError
from unokit.engine.game import Game
from unokit.engine.order import fair_order
from unokit.engine.rules import Rules
from unokit.engine.views import View

SINGLE = {"scoring": "single-round"}
GAMES_PER_EDITION = 150

# Every verb and target the rule-card language enforces, plus an honour task.
JACKPOT_TEXTS = [
    "Draw 2 cards",
    "Draw until you have 7 cards in your hand",
    "Discard 1 card",
    "Discard until you have 3 cards in your hand",
    "Play as many cards in a row as you can",
    "Play all of your Wild cards",
    "Skip your next turn",
    "Reverse the direction of play",
    "Give 2 cards to the player on your left",
    "Give 1 card to a player of your choice",
    "Take 1 card from the player with the most cards",
    "Take 2 cards from a player of your choice",
    "Swap hands with the player with the fewest cards",
    "Swap hands with another player",
    "Everyone draws 1 card",
    "Everyone discards 1 card",
    "Make chicken noises until your next turn.",
]

# What each edition must ask the bots at least once in the legality sweep.
PHASES = {
    "classic": {"turn", "drawn", "colour", "challenge"},
    "space-jam": {"turn", "drawn", "colour", "challenge", "discard"},
    "all-wild": {"turn", "drawn", "target"},
    "wild-jackpot": {"turn", "drawn", "colour", "challenge", "discard", "target", "rule-run"}
    | {"lever-discard", "honour", "give"},
}


class Checked:
    """Wraps a bot: checks every answer is legal and records the phases and argument types."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.phases: Counter[str] = Counter()
        self.received: set[type] = set()

    def choose(self, view: View) -> int:
        self.received.add(type(view))
        action = self.inner.choose(view)
        assert action in view.legal_actions, f"{self.name} chose {action} in phase {view.phase}"
        self.phases[view.phase] += 1
        return action

    def wants_interrupt(self, view: View) -> int | None:
        self.received.add(type(view))
        action = self.inner.wants_interrupt(view)
        assert action is None or action in view.legal_actions
        self.phases["interrupt"] += 1
        return action


def table(edition: str, players: int, seed: int) -> list[Checked]:
    """A mixed table: seats alternate heuristic and random, the first chosen by the seed."""
    kinds = ("heuristic", "random")
    return [
        Checked(make_bot(kinds[(seat + seed) % 2], seed=seed * 31 + seat, edition=edition)) for seat in range(players)
    ]


def result_key(result: GameResult) -> tuple[Any, ...]:
    """Everything in a result except the timing."""
    return (
        result.edition,
        result.players,
        result.seed,
        result.winner,
        result.rounds,
        result.round_winners,
        result.scores,
        result.decisions,
        result.events,
    )


# ---------------------------------------------------------------- legality in many games


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_bots_only_choose_legal_actions_in_many_games(edition: str) -> None:
    phases: Counter[str] = Counter()
    decisions = 0
    rounds = 0
    for index in range(GAMES_PER_EDITION):
        players = 2 + index % 5
        bots = table(edition, players, index)
        rules: dict[str, Any] = dict(SINGLE)
        rule_cards = None
        if edition == "space-jam":
            rules["jam_slam_chance"] = 0.8
        if edition == "all-wild" and index % 2:
            rules["forced_swap_final_card"] = "swaps"
        if edition == "wild-jackpot":
            rng = random.Random(index)
            rule_cards = rng.sample(JACKPOT_TEXTS, rng.randint(3, len(JACKPOT_TEXTS)))
        if index % 10 == 9:  # now and then a match of several rounds
            rules = {"target_score": 3000 if edition == "all-wild" else 1000, "scoring": "winner-collects"}
        result = play_game(edition, bots, seed=index, rules=rules, rule_cards=rule_cards)
        assert 0 <= result.winner < players
        assert len(result.round_winners) == result.rounds
        decisions += sum(result.decisions)
        rounds += result.rounds
        for bot in bots:
            phases.update(bot.phases)
    assert decisions > 10_000
    assert rounds > GAMES_PER_EDITION
    missing = PHASES[edition] - set(phases)
    assert not missing, f"never asked: {missing}"
    assert phases["interrupt"] > 0


# ---------------------------------------------------------------- the runner


def test_a_result_describes_the_match() -> None:
    bots = [make_bot("heuristic", seed=1, edition="classic"), make_bot("random", seed=2, edition="classic")]
    bots.append(make_bot("random", seed=3, edition="classic"))
    game = Game("classic", 3, seed=11, rules={"target_score": 200})
    result = play_match(game, bots)
    assert result.edition == "classic" and result.players == 3 and result.seed == 11
    assert result.winner == game.winner >= 0
    assert result.scores == game.scores and result.scores[result.winner] >= 200
    assert result.rounds == game.round > 1
    assert result.round_winners == [e[1] for e in game.events if e[0] == "round_end"]
    assert sum(result.decisions) == len(game.history)
    assert result.decisions == [sum(1 for seat, _ in game.history if seat == s) for s in range(3)]
    assert all(t > 0 for t in result.think_seconds)
    assert result.events == game.events


def test_same_seeds_give_the_same_result() -> None:
    for edition in sorted(EDITIONS):
        first = play_game(edition, [make_bot(k, seed=7, edition=edition) for k in ("heuristic", "random", "random")], 5)
        again = play_game(edition, [make_bot(k, seed=7, edition=edition) for k in ("heuristic", "random", "random")], 5)
        assert result_key(first) == result_key(again)
        other = play_game(edition, [make_bot(k, seed=8, edition=edition) for k in ("heuristic", "random", "random")], 5)
        assert other.events != first.events


def test_random_bots_with_other_seeds_play_otherwise() -> None:
    one = play_game("classic", [RandomBot(seed=1), RandomBot(seed=2)], seed=3, rules=SINGLE)
    two = play_game("classic", [RandomBot(seed=4), RandomBot(seed=5)], seed=3, rules=SINGLE)
    assert one.events != two.events


class Broken:
    """Returns a fixed (illegal) answer."""

    name = "broken"

    def __init__(self, answer: Any, interrupt: Any = None) -> None:
        self.answer = answer
        self.interrupt = interrupt

    def choose(self, view: View) -> int:
        answer: int = self.answer
        return answer

    def wants_interrupt(self, view: View) -> int | None:
        interrupt: int | None = self.interrupt
        return interrupt


@pytest.mark.parametrize("answer", [10_000, -1, "draw", None, 1.0])
def test_the_runner_refuses_an_illegal_choice(answer: Any) -> None:
    game = Game("classic", 2, seed=1)
    before = game.clone()
    bots: list[Any] = [Broken(answer), Broken(answer)]
    with pytest.raises(RuntimeError, match="bot 'broken' at seat"):
        play_match(game, bots)
    assert game == before


def test_the_runner_refuses_a_legal_looking_action_of_another_phase() -> None:
    space = get_edition("classic").actions
    challenge = space.challenge  # never legal on a first turn
    with pytest.raises(RuntimeError, match="challenge"):
        play_game("classic", [Broken(challenge), Broken(challenge)], seed=2)


def test_the_runner_refuses_an_interrupt_that_is_not_a_call_or_catch() -> None:
    # Seat 0 plays R1 without calling UNO; seat 1 answers the window with a turn action.
    order = stacked_deck("classic", hands=[["R1", "R2"], ["B1", "B2"]], start="R5", dealer=1, rules=Rules(hand_size=2))
    game = Game("classic", 2, seed=1, deck=order, dealer=1, rules=Rules(hand_size=2))
    game.apply_notation(0, "R1")
    draw = game.actions.draw
    bots: list[Any] = [Silent(1), Broken(draw, interrupt=draw)]
    with pytest.raises(RuntimeError, match="not an interrupt"):
        play_match(game, bots)


def test_the_runner_needs_one_bot_per_seat_and_a_decision_limit() -> None:
    with pytest.raises(SetupError):
        play_match(Game("classic", 3, seed=1), [RandomBot(), RandomBot()])
    with pytest.raises(RuntimeError, match="more than 10 decisions"):
        play_game("classic", [RandomBot(), RandomBot()], seed=1, max_decisions=10)


class Silent:
    """A bot without ``wants_interrupt``: it never calls nor catches out of turn."""

    name = "silent"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> int:
        space = get_edition(view.edition).actions
        moves = [a for a in view.legal_actions if space.types[a] not in (ActionType.CALL_UNO, ActionType.CATCH)]
        plays = [a for a in moves if space.types[a] == ActionType.PLAY]  # never "R7!"
        return self.rng.choice(plays or moves)


def test_interrupts_are_offered_in_seat_order_and_the_heuristic_catches() -> None:
    asked: list[tuple[int, int]] = []  # (seat, decision number)

    class Spy(HeuristicBot):
        def wants_interrupt(self, view: View) -> int | None:
            assert view.seat is not None
            space = get_edition(view.edition).actions
            assert any(space.types[a] in (ActionType.CALL_UNO, ActionType.CATCH) for a in view.legal_actions)
            asked.append((view.seat, len(view.history)))
            return super().wants_interrupt(view)

    catches = []
    for seed in range(10):
        silent: Any = Silent(seed)
        result = play_game("classic", [silent, Spy(seed=1), Spy(seed=2)], seed=seed, rules=SINGLE)
        catches += [e for e in result.events if e[0] == "catch"]
    # Seat 0 never calls; seat 1 is asked before seat 2 and always catches.
    assert catches and all(e[1:3] == (1, 0) for e in catches)
    assert not any(seat == 0 for seat, _ in asked)  # a bot without wants_interrupt is not asked
    # Within one step the seats are asked in seat order; a catch ends the step.
    by_step: dict[int, list[int]] = {}
    for seat, step in asked:
        by_step.setdefault(step, []).append(seat)
    assert all(seats == sorted(seats) for seats in by_step.values())


def test_a_bot_without_wants_interrupt_still_plays() -> None:
    bots: list[Any] = [Silent(1), Silent(2), Silent(3)]
    result = play_game("classic", bots, seed=9, rules=SINGLE)
    assert not any(e[0] in ("uno", "catch") for e in result.events)
    assert any(e[0] == "play" and e[2] == 0 for e in result.events)


# ---------------------------------------------------------------- hidden information


def test_bots_are_only_given_views() -> None:
    for edition in sorted(EDITIONS):
        bots = table(edition, 4, 3)
        play_game(edition, bots, seed=3, rules=SINGLE, rule_cards=JACKPOT_TEXTS if edition == "wild-jackpot" else None)
        for bot in bots:
            assert bot.received == {View}


def hidden_info_games(edition: str) -> tuple[Game, Game, int]:
    """Two 2-player games that differ only in seat 1's hand and the cards deep in the draw
    pile (under 40 cards that are the same); also how many cards may be drawn safely."""
    ed = get_edition(edition)
    cards = list(ed.deck_cards(Rules()))
    random.Random(edition).shuffle(cards)
    start = next(c for c in cards if card_name(c) not in ("W+4", "WJ", "W$") and not card_name(c).endswith("$"))
    cards.remove(start)
    mine, draw = cards[:7], cards[7:47]
    theirs_a, theirs_b = cards[47:54], cards[54:61]
    assert Counter(theirs_a) != Counter(theirs_b)
    texts = ["Draw 1 card", "Reverse", "Skip your next turn", "Make chicken noises until your next turn."]
    games = []
    for theirs in (theirs_a, theirs_b):
        order = stacked_deck(edition, hands=[mine, theirs], start=start, draw=draw, dealer=1)
        rule_cards = texts if edition == "wild-jackpot" else None
        games.append(Game(edition, 2, seed=5, deck=order, dealer=1, rules=SINGLE, rule_cards=rule_cards))
    return games[0], games[1], len(draw)


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_the_heuristic_does_not_see_an_opponents_hidden_cards(edition: str) -> None:
    a, b, safe = hidden_info_games(edition)
    floor = len(a.draw_pile) - safe
    bot_a, bot_b = HeuristicBot(seed=3), HeuristicBot(seed=3)
    compared = 0
    while not a.is_over and len(a.draw_pile) > floor + 4:
        assert b.actor == a.actor
        if a.actor == 1:  # the opponent only ever draws, passes or takes its first option: its hand stays hidden
            for game in (a, b):
                space = game.actions
                legal = game.legal_actions(1)
                game.apply(1, space.draw if space.draw in legal else space.pass_ if space.pass_ in legal else legal[0])
            continue
        view_a, view_b = a.view(0), b.view(0)
        assert view_a == view_b
        assert a.hands[1] != b.hands[1]
        interrupt_a, interrupt_b = bot_a.wants_interrupt(view_a), bot_b.wants_interrupt(view_b)
        assert interrupt_a == interrupt_b
        choice_a = interrupt_a if interrupt_a is not None else bot_a.choose(view_a)
        choice_b = interrupt_b if interrupt_b is not None else bot_b.choose(view_b)
        assert choice_a == choice_b
        a.apply(0, choice_a)
        b.apply(0, choice_b)
        compared += 1
    assert compared >= 5


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_the_round_memory_knows_the_discard_pile_from_the_history(edition: str) -> None:
    rule_cards = JACKPOT_TEXTS if edition == "wild-jackpot" else None
    reshuffled = checked = 0
    for seed in range(20):
        game = Game(edition, 3, seed=seed, rules=SINGLE, rule_cards=rule_cards)
        rng = random.Random(seed)
        while not game.is_over:
            seat = rng.choice(game.deciders())
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            if game.is_over:
                break
            memory = read_round(game.view(rng.randrange(3)).history, 3)
            assert memory.pile == Counter(game.discard_pile)
            if game.phase_name != "colour":
                assert memory.colour == game.colour
            checked += 1
        reshuffled += any(e[0] == "reshuffle" for e in game.events)
        if reshuffled >= 2 and checked > 500:
            break
    assert reshuffled >= 2


# ---------------------------------------------------------------- making bots


def test_make_bot_knows_the_kinds_and_refuses_others() -> None:
    assert BOT_KINDS[:2] == ("random", "heuristic")
    assert bot_kinds() == bots_base.BOT_KINDS
    assert isinstance(make_bot("random", seed=1, edition="all-wild"), RandomBot)
    assert isinstance(make_bot("heuristic", seed=1, edition="space-jam"), HeuristicBot)
    with pytest.raises(UnknownOptionError, match="unknown bot kind 'genius'; known: random, heuristic"):
        make_bot("genius", seed=1, edition="classic")
    with pytest.raises(UnknownOptionError):
        make_bot("random", seed=1, edition="uno-flip")
    with pytest.raises(UnknownOptionError, match="depth"):
        make_bot("heuristic", seed=1, edition="classic", depth=3)
    assert make_bot("heuristic", seed=1, edition="classic", name="Ann").name == "Ann"


def test_a_registered_kind_appears_in_the_kinds() -> None:
    def factory(seed: int, edition: str, **options: Any) -> Bot:
        return RandomBot(seed=seed, edition=edition, name="echo")

    register_bot("echo-test", factory)
    try:
        import unokit.bots

        assert "echo-test" in bot_kinds()
        assert "echo-test" in unokit.bots.BOT_KINDS
        assert make_bot("echo-test", seed=1, edition="classic").name == "echo"
    finally:
        bots_base._FACTORIES.pop("echo-test")
        bots_base.BOT_KINDS = tuple(bots_base._FACTORIES)


# ---------------------------------------------------------------- the heuristic's rules of thumb


def scenario(
    hands: Sequence[Sequence[str]],
    start: str,
    draw: Sequence[str] = (),
    edition: str = "classic",
    dealer: int | None = None,
    **options: Any,
) -> Game:
    """A game dealing exactly ``hands`` (any hand size), seat 0 to play first by default."""
    n = len(hands)
    rules = Rules.from_dict({"hand_size": len(hands[0]), **options})
    dealer = n - 1 if dealer is None else dealer
    order = stacked_deck(edition, hands=hands, start=start, draw=draw, dealer=dealer, rules=rules)
    texts = ["Make chicken noises until your next turn."] if edition == "wild-jackpot" else None
    return Game(edition, n, seed=1, deck=order, dealer=dealer, rules=rules, rule_cards=texts)


def heuristic_move(game: Game, seat: int | None = None) -> str:
    seat = game.actor if seat is None else seat
    return game.actions.format(HeuristicBot(seed=0).choose(game.view(seat)))


def test_heuristic_matches_a_colour_rather_than_playing_a_wild() -> None:
    game = scenario([["W", "R2", "B7", "G3", "Y4"], ["B1", "B2", "B3", "B4", "B6"]], start="R5")
    assert heuristic_move(game) == "R2"


def test_heuristic_switches_into_the_colour_it_holds_most() -> None:
    game = scenario([["R2", "B5", "B7", "B3", "Y4"], ["G1", "G2", "G3", "G4", "G6"]], start="R5")
    assert heuristic_move(game) == "B5"


def test_heuristic_calls_uno_on_its_next_to_last_card() -> None:
    game = scenario([["R2", "B7"], ["G1", "G2"]], start="R5")
    assert heuristic_move(game) == "R2!"


def test_heuristic_hits_an_opponent_close_to_going_out() -> None:
    # Seat 1 plays first and goes down to two cards.
    game = scenario([["R2", "R+2", "R9"], ["R7", "G1", "G2"]], start="R5", dealer=0)
    game.apply_notation(1, "R7")
    assert heuristic_move(game) == "R+2"
    game = scenario([["R2", "RS", "R9"], ["R7", "G1", "G2"], ["Y1", "Y2", "Y3"]], start="R5", dealer=2)
    game.apply_notation(0, "R9")
    game.apply_notation(1, "R7")
    game.apply_notation(2, "draw")
    if game.actor == 2:
        game.apply_notation(2, "pass")
    assert game.actor == 0 and len(game.hands[1]) == 2
    assert heuristic_move(game) == "RS!"  # seat 1 is next: skip it (and call UNO)


def test_heuristic_does_not_reverse_the_turn_to_a_player_close_to_going_out() -> None:
    # Seat 2 (previous to seat 0) holds two cards; seat 1 (next) holds three.
    game = scenario([["RR", "R2", "B9"], ["Y1", "Y2", "Y3"], ["R7", "G1", "G2"]], start="R5", dealer=1)
    game.apply_notation(2, "R7")
    assert game.actor == 0
    assert heuristic_move(game) == "R2"


def test_heuristic_names_the_colour_it_holds_most() -> None:
    game = scenario([["W", "B5", "B7", "G3", "Y4"], ["G1", "G2", "G3", "G4", "G6"]], start="R5")
    game.apply_notation(0, "W")
    assert heuristic_move(game) == "=B"


def test_heuristic_names_by_points_when_counts_tie() -> None:
    game = scenario([["W", "B1", "G+2", "B2", "G3"], ["R1", "R2", "R3", "R4", "R6"]], start="Y5")
    game.apply_notation(0, "W")
    assert heuristic_move(game) == "=G"


def test_heuristic_keeps_its_only_wild_and_draws_when_nobody_is_close() -> None:
    game = scenario([["W", "B6", "B7", "G3", "Y4"], ["G1", "G2", "G4", "G6", "G7"]], start="R5")
    assert heuristic_move(game) == "draw"


def test_heuristic_plays_its_wild_when_an_opponent_is_close() -> None:
    # Seat 1 plays first: a Skip (it plays again), then a 7; it holds three cards.
    game = scenario([["W", "B6", "B8", "G3", "Y4"], ["RS", "R7", "G1", "G2", "G4"]], start="R5", dealer=0)
    game.apply_notation(1, "RS")
    game.apply_notation(1, "R7")
    assert game.actor == 0 and len(game.hands[1]) == 3
    assert heuristic_move(game) == "W"


def test_heuristic_plays_a_wild_rather_than_hoard_two() -> None:
    game = scenario([["W", "W+4", "B7", "G3", "Y4"], ["G1", "G2", "G4", "G6", "G7"]], start="R5")
    assert heuristic_move(game) == "W"  # the Wild Draw Four is kept for when it hurts


def test_heuristic_never_draws_while_a_coloured_card_matches() -> None:
    for seed in range(30):
        game = Game("classic", 3, seed=seed)
        view = game.view(game.actor)
        space = game.actions
        coloured = [a for a in view.legal_actions if space.types[a] == ActionType.PLAY and "W" not in space.format(a)]
        if coloured and game.phase_name == "turn":
            assert heuristic_move(game) != "draw"


def test_heuristic_plays_the_drawn_card() -> None:
    game = scenario([["B6", "B7", "G3", "Y4"], ["G1", "G2", "G4", "G6"]], start="R5", draw=["R7"])
    assert heuristic_move(game) == "draw"
    game.apply_notation(0, "draw")
    assert game.phase_name == "drawn"
    assert heuristic_move(game) == "R7"


def test_heuristic_always_calls_for_itself_and_catches_others() -> None:
    game = scenario([["R1", "R2"], ["B1", "B2"], ["Y1", "Y2"]], start="R5")
    bot = HeuristicBot(seed=0)
    assert bot.wants_interrupt(game.view(1)) is None  # nothing to call or catch
    game.apply_notation(0, "R1")  # no call: seat 0 is exposed
    space = game.actions
    assert bot.wants_interrupt(game.view(0)) == space.call_uno
    assert bot.wants_interrupt(game.view(1)) == space.parse("catch@0")
    assert bot.wants_interrupt(game.view(2)) == space.parse("catch@0")


def test_heuristic_challenges_a_likely_bluff() -> None:
    # Seat 1 names green with a Wild, then plays a Wild Draw Four on green.
    hands = [["R1", "R2", "R3", "R4", "R6", "Y1", "Y2"], ["W", "W+4", "G1", "G2", "G3", "G4", "B9"]]
    game = scenario(hands, start="R5", draw=["Y9"], dealer=1)
    game.apply_notation(0, "R1")
    game.apply_notation(1, "W")
    game.apply_notation(1, "=G")
    game.apply_notation(0, "draw")  # Y9: not playable, the turn passes
    game.apply_notation(1, "W+4")
    game.apply_notation(1, "=R")
    assert game.phase_name == "challenge" and game.actor == 0
    assert heuristic_move(game) == "challenge"


def test_heuristic_accepts_after_the_bluffer_drew_on_that_colour() -> None:
    # Seat 1 drew on green (so it seemed to hold none), then played a Wild Draw Four on green.
    hands = [["G1", "R2", "R3", "R4", "R6", "Y3", "Y2"], ["W+4", "B1", "B2", "B3", "Y4", "Y6", "Y7"]]
    game = scenario(hands, start="G5", draw=["R9", "B9"], dealer=1)
    game.apply_notation(0, "G1")
    game.apply_notation(1, "draw")  # R9: not playable, the turn passes
    game.apply_notation(0, "draw")  # B9: not playable, the turn passes
    game.apply_notation(1, "W+4")
    game.apply_notation(1, "=B")
    assert game.phase_name == "challenge" and game.actor == 0
    assert heuristic_move(game) == "accept"


def test_heuristic_slams_its_least_useful_cards() -> None:
    hands = [["WJ", "B5", "B7", "B3", "Y9", "R+2", "W"], ["R1", "R2", "R3", "R4", "R6", "Y1", "Y2"]]
    game = scenario(hands, start="B1", edition="space-jam", jam_slam_chance=1.0)
    game.apply_notation(0, "WJ")
    assert game.phase_name == "discard"
    assert heuristic_move(game) == "-R+2"  # 20 points, alone in its colour
    game.apply_notation(0, "-R+2")
    assert heuristic_move(game) == "-Y9"  # then the lone yellow 9; the Wild and the blues are kept


def test_heuristic_plays_a_jam_that_can_end_the_round() -> None:
    game = scenario([["WJ", "B5", "Y9"], ["R1", "R2", "R3"]], start="B1", edition="space-jam")
    assert heuristic_move(game) == "WJ"


def test_all_wild_swaps_with_and_targets_the_fewest_cards() -> None:
    # Seat 1 only draws; seat 2 skips seat 0 three times and goes down to two cards.
    hands = [
        ["WT2", "WX", "W", "W", "W", "W"],
        ["W", "W", "W", "W", "W", "W"],
        ["WS", "WS", "WS", "W", "W", "W"],
    ]
    for own, first, target in (("WX", "WX", "@2"), ("W", "WT2", "@2")):
        game = scenario([[own if c == "WX" else c for c in hands[0]], hands[1], hands[2]], "W", edition="all-wild")
        game.apply_notation(0, "W")
        for card in ("WS", "WS", "WS", "W"):
            game.apply_notation(1, "draw")
            game.apply_notation(1, "pass")
            game.apply_notation(2, card)
        assert game.actor == 0 and [len(h) for h in game.hands] == [5, 10, 2]
        assert heuristic_move(game) == first
        game.apply_notation(0, first)
        assert heuristic_move(game) == target


def test_all_wild_keeps_a_forced_swap_that_would_not_help() -> None:
    game = scenario([["WX", "W", "W"], ["W", "W", "W"]], start="W", edition="all-wild")
    assert heuristic_move(game) == "W"


def test_all_wild_never_draws() -> None:
    for seed in range(20):
        game = Game("all-wild", 3, seed=seed)
        assert heuristic_move(game) != "draw"


def jackpot_game(hands: Sequence[Sequence[str]], texts: Sequence[str], outcome: int, draw: Sequence[str] = ()) -> Game:
    """Seat 0 plays first; the lever always gives ``outcome``."""
    n = len(hands)
    weights = [0] * 6
    weights[outcome - 1] = 1
    rules = Rules.from_dict({"hand_size": len(hands[0]), "lever_weights": weights})
    order = stacked_deck("wild-jackpot", hands=hands, start="R5", draw=draw, dealer=n - 1, rules=rules)
    return Game("wild-jackpot", n, seed=1, deck=order, dealer=n - 1, rules=rules, rule_cards=list(texts))


def test_jackpot_lever_discard_takes_one_card_of_each_colour_action_cards_first() -> None:
    hands = [["R$", "R+2", "R1", "B7", "BS", "G2", "W"], ["Y1", "Y2", "Y3", "Y4", "Y6", "Y7", "Y8"]]
    game = jackpot_game(hands, ["Make chicken noises until your next turn."], outcome=5)
    game.apply_notation(0, "R$")
    assert game.phase_name == "lever-discard"
    moves = []
    while game.phase_name == "lever-discard":
        move = heuristic_move(game)
        moves.append(move)
        game.apply_notation(0, move)
    # The lone green first; then red and blue, each's action card; blue (more points kept) last.
    assert moves == ["-G2", "-R+2", "-BS"]
    assert sorted(card_name(c) for c in game.hands[0]) == ["B7", "R1", "W"]
    assert len(game.hands[1]) == 9  # the Draw Two hit the next player


def test_jackpot_honour_task_is_done_at_once() -> None:
    game = jackpot_game([["R$", "R1", "B7"], ["Y1", "Y2", "Y3"]], ["Make chicken noises until your next turn."], 2)
    game.apply_notation(0, "R$")
    assert game.phase_name == "honour" and game.actor == 1
    assert heuristic_move(game) == "done"


JACKPOT_HANDS = [
    ["R1", "R$", "B7", "BS", "G1", "W"],
    ["Y1", "Y2", "Y3", "Y4", "Y6", "Y7"],
    ["R2", "Y8", "Y9", "G3", "G4", "G6"],
]


def jackpot_lever(texts: Sequence[str]) -> Game:
    """Three players; seat 1 draws once, so at seat 0's lever the hands hold 4, 7 and 5 cards."""
    game = jackpot_game(JACKPOT_HANDS, texts, outcome=1, draw=["B9"])
    game.apply_notation(0, "R1")
    game.apply_notation(1, "draw")  # B9: not playable, the turn passes
    game.apply_notation(2, "R2")
    game.apply_notation(0, "R$")
    assert game.phase_name == "target" and [len(h) for h in game.hands] == [4, 7, 5]
    return game


def performer_choice(game: Game, texts: Sequence[str] | None) -> str:
    """The heuristic's performer, as if ``texts`` were the rule cards shown so far (None: as the view says)."""
    view = game.view(game.actor)
    if texts is not None:
        shown = [[rid, text, "enforced"] for rid, text in enumerate(texts)]
        view = dataclasses.replace(view, public={**view.public, "rule_cards_shown": shown})
    return game.actions.format(HeuristicBot(seed=0).choose(view))


def test_jackpot_performer_is_the_opponent_a_harmful_rule_hurts_most() -> None:
    game = jackpot_lever(["Make chicken noises until your next turn."])
    # Seat 1 already holds 7 cards: drawing up to 7 would cost seat 2 two cards, itself three.
    assert performer_choice(game, ["Draw until you have 7 cards in your hand"]) == "@2"
    # Drawing two hurts everyone alike: seat 2, closer to going out, is hurt where it counts.
    assert performer_choice(game, ["Draw 2 cards"]) == "@2"
    # Discarding helps the performer: itself, then.
    assert performer_choice(game, ["Discard 2 cards"]) == "@0"
    # An honour task changes nothing; then the opponent with the fewest cards.
    assert performer_choice(game, ["Make chicken noises until your next turn."]) == "@2"


def test_jackpot_performer_before_any_rule_card_is_shown() -> None:
    # Nothing shown yet: the rule sheet's suggestions are the likely cards, and most of them help
    # whoever performs them ("discard until you have 2 cards"): not the player with the most
    # cards, who would gain most.
    game = jackpot_lever(["Make chicken noises until your next turn."])
    assert game.view(0).public["rule_cards_shown"] == []
    assert performer_choice(game, None) != "@1"
    hands = [
        ["R$", "R1", "B7", "B8", "G1", "G2", "G3", "G4", "G6"],
        ["Y1", "Y2", "Y3", "Y4", "Y6", "Y7", "Y8", "Y9", "B1"],
    ]
    game = jackpot_game(hands, ["Make chicken noises until your next turn."], outcome=1)
    game.apply_notation(0, "R$")
    assert performer_choice(game, None) == "@0"  # holding eight cards, it discards down to two itself


def test_jackpot_gives_its_highest_scoring_cards_to_the_leader() -> None:
    game = jackpot_lever(["Give 1 card to a player of your choice"])
    game.apply_notation(0, "@0")
    assert game.phase_name == "target"
    assert heuristic_move(game) == "@2"
    game.apply_notation(0, "@2")
    assert game.phase_name == "give"
    assert heuristic_move(game) == ">BS"


def test_jackpot_takes_from_the_player_with_the_most_cards() -> None:
    game = jackpot_lever(["Take 1 card from a player of your choice"])
    game.apply_notation(0, "@0")
    assert heuristic_move(game) == "@1"


def test_jackpot_swaps_with_the_player_with_the_fewest_cards() -> None:
    game = jackpot_lever(["Swap hands with another player"])
    game.apply_notation(0, "@1")  # seat 1 (7 cards) performs: it swaps with seat 0 (4 cards)
    assert game.phase_name == "target" and game.actor == 1
    assert heuristic_move(game) == "@0"


def test_jackpot_run_plays_the_longest_run() -> None:
    # On the red Jackpot: R3, R1, B1, B2 plays all four; R1 first strands a card.
    hands = [["R$", "R1", "R3", "B1", "B2"], ["Y1", "Y2", "Y3", "Y4", "Y6"]]
    game = jackpot_game(hands, ["Play as many cards in a row as you can"], outcome=1)
    game.apply_notation(0, "R$")
    game.apply_notation(0, "@0")
    assert game.phase_name == "rule-run"
    played = []
    while game.phase_name == "rule-run":
        move = heuristic_move(game)
        played.append(move)
        game.apply_notation(0, move)
    assert played == ["R3", "R1", "B1!", "B2"]
    assert game.round == 2 and game.scores[0] > 0


# ---------------------------------------------------------------- strength


def test_heuristic_beats_random_at_two_player_classic() -> None:
    games = 300
    wins = 0
    for index in range(games):
        seat = index % 2
        bots = [make_bot("heuristic" if s == seat else "random", seed=index * 2 + s, edition="classic") for s in (0, 1)]
        result = play_game("classic", bots, seed=10_000 + index, rules=SINGLE)
        wins += result.winner == seat
    assert wins / games > 0.55


# ---------------------------------------------------------------- house rules Jump-In and sets of one number


JUMP_RULES = {"scoring": "single-round", "jump_in": True, "multi_play": "number", "multi_play_bomb": True}


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_bots_jump_in_and_play_sets(edition: str) -> None:
    jumps = sets = 0
    for seed in range(6):
        players = 2 + seed % 4
        bots = table(edition, players, seed)
        result = play_game(edition, bots, seed=seed, rules=JUMP_RULES)
        assert 0 <= result.winner < players
        jumps += sum(1 for e in result.events if e[0] == "jump")
        sets += sum(bot.phases["multi"] for bot in bots)
    assert jumps > 0
    assert sets > 0 or edition == "all-wild"


def test_jump_ins_are_offered_after_calls_and_catches_in_play_order() -> None:
    rules = Rules(hand_size=2, jump_in=True)
    hands = [["R5", "B1"], ["B6", "B7"], ["R5", "Y1"]]
    deck = stacked_deck("classic", hands, "R0", ["G1", "G2", "G3"], dealer=2, rules=rules)
    game = Game("classic", 3, seed=1, deck=deck, dealer=2, rules=rules)
    game.apply_notation(0, "R5")  # uncalled: an UNO window and a jump window at once
    asked: list[tuple[int, bool]] = []

    class Jumper(HeuristicBot):
        def wants_interrupt(self, view: View) -> int | None:
            assert view.seat is not None
            space = get_edition(view.edition).actions
            catching = any(space.types[a] == ActionType.CATCH for a in view.legal_actions)
            asked.append((view.seat, catching))
            jumps = [a for a in view.legal_actions if space.types[a] == ActionType.JUMP_UNO]
            return jumps[0] if jumps else None

    bots: list[Any] = [Silent(1), Jumper(seed=2), Jumper(seed=3)]
    catchers = [seat for seat in fair_order(game.order_key, len(game.history), range(3)) if seat != 0]
    with pytest.raises(RuntimeError, match="more than 2 decisions"):
        play_match(game, bots, max_decisions=2)  # the first steps are enough
    # the catchers in the fair order; seat 2's jump waits for the jump-ins' pass
    assert asked[:3] == [(catchers[0], True), (catchers[1], True), (2, True)]
    assert game.history[1] == (2, game.actions.parse("^R5!"))


def test_a_jump_in_window_asks_each_player_once_with_seats_out() -> None:
    """With seats out of the round (Mercy), ``next_seat`` steps over them and comes round to the
    players already asked: each is still asked once a window (a random bot asked again could
    jump in after letting the window pass)."""
    asked: Counter[tuple[int, int, int]] = Counter()
    game_number = 0

    class Asked(RandomBot):
        def wants_interrupt(self, view: View) -> int | None:
            assert view.seat is not None
            space = get_edition(view.edition).actions
            calls = any(space.types[a] in (ActionType.CALL_UNO, ActionType.CATCH) for a in view.legal_actions)
            if view.state.get("out") and not calls:  # asked about jumping in only, seats out
                asked[(game_number, len(view.history), view.seat)] += 1
            return super().wants_interrupt(view)

    rules = {"scoring": "single-round", "jump_in": True, "mercy": True, "mercy_limit": 9}
    for game_number in range(30):
        play_game("classic", [Asked(seed=game_number * 5 + s) for s in range(5)], seed=game_number, rules=rules)
    assert len(asked) > 15 and max(asked.values()) == 1, asked.most_common(3)


def zero_pass_window() -> tuple[Game, View]:
    """Classic with Jump-In and ``zero_pass``, 3 players: seat 0 has played a red 0, the hands have
    passed, and seat 2 (four cards, the other red 0 among them) may jump in."""
    counts = Counter(card_name(c) for c in get_edition("classic").deck_cards(Rules()))
    rules = {
        "jump_in": True,
        "zero_pass": True,
        "deck": [[card, 2 if card == "R0" else k] for card, k in counts.items()],
    }
    hands = [["R0", "B1", "B2", "B3"], ["R0", "B6", "B7", "B8"], ["Y1", "Y2", "Y3", "Y4"]]
    deck = stacked_deck(
        "classic", hands, "R4", ["G1", "G2", "G3"], dealer=2, rules=Rules.from_dict({"hand_size": 4, **rules})
    )
    game = Game("classic", 3, seed=1, deck=deck, dealer=2, rules={"hand_size": 4, **rules})
    game.apply_notation(0, "R0")  # seat 2 now holds seat 1's hand, with the other red 0
    return game, game.view(2)


def test_heuristic_shuns_a_zero_pass_that_brings_a_bigger_hand() -> None:
    game, view = zero_pass_window()
    assert game.actions.format(view.legal_actions[0]) == "^R0"
    # a jump would leave seat 2 three cards and bring it seat 1's three: it lets the window pass
    assert HeuristicBot(seed=1).wants_interrupt(view) is None


def test_heuristic_weighs_a_zero_pass_from_the_seats_still_in() -> None:
    """With a seat out of the round (Mercy) or of the match (knockout scoring), the hands pass among
    the seats still in: the hand a 0 would bring is the nearest such seat's, not the empty one's."""
    game, view = zero_pass_window()
    assert view.hand_sizes == (4, 3, 4)
    bot = HeuristicBot(seed=1)
    # seat 1 out (no cards): seat 0's four cards would come, more than the three kept: no jump
    seat_out = dataclasses.replace(view, hand_sizes=(4, 0, 4), state={**view.state, "out": (1,)})
    assert bot.wants_interrupt(seat_out) is None
    knocked = dataclasses.replace(view, hand_sizes=(4, 0, 4), state={**view.state, "knocked": (1,)})
    assert bot.wants_interrupt(knocked) is None
    # seat 0 holding two: the pass brings fewer, so it jumps in
    fewer = dataclasses.replace(view, hand_sizes=(2, 0, 4), state={**view.state, "out": (1,)})
    assert game.actions.format(bot.wants_interrupt(fewer) or -1) == "^R0"


def test_the_runner_takes_numpy_integer_ids_from_a_bot() -> None:
    """A policy's bot returns ``np.int64`` ids (``argmax``, ``np.flatnonzero``): the runner plays them
    as the same ids, and the match is the one plain ints give."""
    np = pytest.importorskip("numpy", reason="the check needs NumPy (the rl extra)")

    class NumpyIds(RandomBot):
        def choose(self, view: Any) -> Any:
            return np.int64(super().choose(view))

        def wants_interrupt(self, view: Any) -> Any:
            action = super().wants_interrupt(view)
            return None if action is None else np.int64(action)

    rules = {"scoring": "single-round"}
    numpy_ids = play_game("classic", [NumpyIds(seed=1), NumpyIds(seed=2)], seed=9, rules=rules)
    plain = play_game("classic", [RandomBot(seed=1), RandomBot(seed=2)], seed=9, rules=rules)
    assert numpy_ids.events == plain.events and numpy_ids.winner == plain.winner
