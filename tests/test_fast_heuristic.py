"""The compiled heuristic bot against the Python bots: a differential test.

Each compiled game is dealt with its shuffles and random draws traced and replayed through
:class:`unokit.Game` with a generator that hands it those results.  At every decision the
compiled runner's step (:func:`unokit.fast.heuristic.bot_decision`) must equal what
:func:`unokit.bots.runner.play_match` would do with Python bots seeded alike: the seat that acts
and its action, whether a call or catch out of turn, a jump-in (``wants_interrupt``, asked as
the runner asks) or the actor's ``choose``.  The heuristic's ties between equally scored cards
are broken by its ``random.Random``; the compiled bot draws the same numbers from the same
Mersenne Twister, so no decision is exempt.  The compiled memory of the round is also compared
with :func:`unokit.bots.heuristic.read_round` of each deciding seat's view.  Every edition and
option mix the compiled engine plays (:data:`unokit.fast.differential.OPTION_MIXES`) is played;
UNO Wild Jackpot's games alternate the sheet's suggested rule cards and
:data:`unokit.fast.differential.WRITTEN_RULE_CARDS` (every verb and target).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba", reason="the compiled engine needs the fast extra (numba)")

from unokit import Game, Rules
from unokit.bots import HeuristicBot, RandomBot
from unokit.bots.heuristic import read_round
from unokit.bots.runner import play_match
from unokit.editions import get_edition
from unokit.engine.actions import INTERRUPT_TYPES, JUMP_TYPES, MAX_PLAYERS
from unokit.engine.cards import NO_COLOUR
from unokit.engine.errors import SetupError, UnknownOptionError
from unokit.engine.order import fair_order
from unokit.fast import engine
from unokit.fast import heuristic as fh
from unokit.fast import stats as fstats
from unokit.fast.differential import OPTION_MIXES, WRITTEN_RULE_CARDS, python_events, replay_game
from unokit.fast.engine import FastGame
from unokit.fast.heuristic import BOT_EDITIONS


class CountingHeuristic(HeuristicBot):
    """The Python heuristic, counting the ties its generator breaks and the jump-ins it declines."""

    ties = 0
    declined_jumps = 0

    def _best(self, scores: dict[int, float]) -> int:
        top = max(scores.values())
        if sum(1 for v in scores.values() if v == top) > 1:
            CountingHeuristic.ties += 1
        return super()._best(scores)

    def _jump(self, view: Any, jumps: tuple[int, ...]) -> int | None:
        action = super()._jump(view, jumps)
        if action is None:
            CountingHeuristic.declined_jumps += 1
        return action


def python_bots(players: int, seed: int, index: int, kinds: Any, edition: str) -> list[Any]:
    out: list[Any] = []
    for seat in range(players):
        bot_seed = fh.bot_seed(seed, index, seat)
        kind = CountingHeuristic if kinds[seat] == fh.HEURISTIC else RandomBot
        out.append(kind(seed=bot_seed, edition=edition))
    return out


def python_decision(game: Game, bots: Sequence[Any]) -> tuple[int, int, str]:
    """What :func:`unokit.bots.runner.play_match` applies next: ``(seat, action, what was asked)``
    (``test_whole_games_are_the_runners`` holds this step to the runner itself)."""
    space = game.actions
    interrupts = {a for a in range(space.size) if space.types[a] in INTERRUPT_TYPES}
    jumps = {a for a in range(space.size) if space.types[a] in JUMP_TYPES}
    jumping = bool(getattr(game, "jumping", False))
    deciders = game.deciders()
    if game.exposed:
        for seat in fair_order(game.order_key, len(game.history), deciders):
            if interrupts.isdisjoint(game.legal_actions(seat)):
                continue
            action = bots[seat].wants_interrupt(game.view(seat))
            if action is not None and not (jumping and action in jumps):
                return seat, action, "interrupt"
    if jumping and len(deciders) > 1:
        for step in range(1, game.n):
            seat = (game.actor + game.direction * step) % game.n  # every other seat once, in play order
            if seat not in deciders or jumps.isdisjoint(game.legal_actions(seat)):
                continue
            action = bots[seat].wants_interrupt(game.view(seat))
            if action is not None:
                return seat, action, "jump" if action in jumps else "interrupt"
    seat = game.actor
    view = game.view(seat)
    asked = view.phase
    if asked == "target" and view.decision["target_kind"] in TARGET_NAMES:
        asked = TARGET_NAMES[view.decision["target_kind"]]
    return seat, bots[seat].choose(view), asked


TARGET_NAMES = {engine.TARGET_PERFORMER: "performer", engine.TARGET_OF_RULE: "rule-target"}
"""Wild Jackpot's target decisions, counted apart: who performs a rule card, whom a rule card names."""


def written_cards(edition: str, index: int) -> tuple[str, ...] | None:
    """The rule cards of game ``index``: in Wild Jackpot every other game plays the written cards."""
    return WRITTEN_RULE_CARDS if edition == "wild-jackpot" and index % 2 else None


def check_memory(memory: Any, game: Game, seat: int) -> None:
    """The compiled memory, as ``seat`` holds it, against ``read_round`` of its view."""
    faces = game.edition.faces
    view = game.view(seat)
    expected = read_round(view.history, game.n)
    pile = {faces[f]: int(memory[fh.M_PILE + f]) for f in range(len(faces)) if memory[fh.M_PILE + f]}
    assert pile == +expected.pile
    for other in range(game.n):
        bits = int(memory[fh.M_LACKS + seat * MAX_PLAYERS + other])
        assert {c for c in range(NO_COLOUR) if bits >> c & 1} == expected.lacks[other], other
        assert int(memory[fh.M_WD4_COLOUR + other]) == expected.wd4_colour.get(other, NO_COLOUR)
        setter, by_choice = expected.wd4_setter.get(other, (-1, False))
        assert int(memory[fh.M_WD4_SETTER + other]) == setter
        if setter >= 0:
            assert bool(memory[fh.M_WD4_BY_CHOICE + other]) == by_choice
        plays = expected.plays[other]
        count = int(memory[fh.M_PLAY_COUNT + other])
        assert count == len(plays)
        kept = [faces[int(memory[fh.M_PLAYS + 3 * other + k % 3])] for k in range(max(0, count - 3), count)]
        assert kept == plays[-3:]
    assert int(memory[fh.M_COLOUR]) == expected.colour
    assert int(memory[fh.M_SETTER]) == expected.setter
    if expected.setter >= 0:
        assert bool(memory[fh.M_BY_CHOICE]) == expected.set_by_choice
    shown = [entry[0] for entry in view.public.get("rule_cards_shown", ())]
    assert [rid for rid in range(engine.MAX_RULES) if memory[fh.M_SHOWN + rid]] == shown
    assert int(memory[fh.M_SHOWN_COUNT]) == len(shown)


def play_both(
    players: int,
    rules: Rules,
    seed: int,
    index: int,
    heuristic_seats: Sequence[int] | None = None,
    edition: str = "classic",
    rule_cards: Sequence[str] | None = None,
) -> tuple[Counter[str], int]:
    """Step game ``index`` of ``seed`` compiled and in Python side by side; the decisions compared
    (by what was asked; ``run-budget-spent``: Wild Jackpot runs whose search spent its budget;
    ``seats-out``: the heuristic's decisions while a seat was out of the round or the match) and
    the compiled game's decision count."""
    s, memory, rngs, kinds = fh.new_table(
        players,
        rules,
        seed=seed,
        index=index,
        heuristic_seats=heuristic_seats,
        trace=True,
        edition=edition,
        rule_cards=rule_cards,
    )
    fast = FastGame.of_state(s, rules)
    game, scripted = replay_game(fast, players, rules, rule_cards)
    bots = python_bots(players, seed, index, kinds, edition)
    compared: Counter[str] = Counter()
    steps = 0
    while not game.is_over:
        seat, action, asked = python_decision(game, bots)
        if kinds[seat] == fh.HEURISTIC and asked not in ("interrupt", "jump"):
            check_memory(memory, game, seat)
        got = fh.bot_decision(s, memory, rngs, kinds)
        assert got == (seat, action), (steps, asked, got, (seat, action), game.view(seat).legal_actions)
        compared[asked if kinds[seat] == fh.HEURISTIC else "random"] += 1
        if kinds[seat] == fh.HEURISTIC and s[engine.OUT]:
            compared["seats-out"] += 1  # decided while a seat is out of the round or the match
        if asked == "rule-run" and kinds[seat] == fh.HEURISTIC and len(memory) > fh.R_BUDGET:
            compared["run-budget-spent"] += int(memory[fh.R_BUDGET] == 0)
        assert engine.apply(s, seat, action) == 0
        scripted.script.extend(fast.trace())
        game.apply(seat, action)
        assert not scripted.script, "the Python engine drew less randomness"
        assert fh.update_memory(s, memory) >= 0
        steps += 1
    assert s[engine.PHASE] == engine.OVER and int(s[engine.WINNER]) == game.winner
    return compared, steps


def table_size(index: int, rules: Rules, edition: str) -> int:
    """Players for game ``index`` of a mix: 2 to 6 (teams: 4 or 6), as many as the deck deals to."""
    players = 4 + 2 * (index % 2) if rules.teams else 2 + index % 5
    while players * rules.hand_size + 1 > len(get_edition(edition).standard_cards):
        players -= 2
    return players


def phases_due(edition: str, rules: Rules) -> set[str]:
    """The decisions a mix's games of heuristic bots must come to (a rule that asks none is untested)."""
    due = {"turn"}
    coloured = edition != "all-wild"
    if edition == "wild-jackpot":  # (the written rule cards hold every verb, an honour task, a choice of target)
        due |= {"rule-run", "give", "honour", "discard", "rule-target"}
        weights = rules.lever_weights
        if weights[0]:
            due.add("performer")
        if weights[4]:
            due.add("lever-discard")
    if coloured:
        due.add("colour")
    if coloured and rules.allow_bluff and rules.wild_draw_four_challenge:
        due.add("challenge")
    if edition == "space-jam" and rules.jam_slam_chance > 0:
        due.add("discard")
    if edition == "all-wild" or rules.seven_swap:
        due.add("target")
    if rules.stacking != "off":
        due.add("stack")
    if rules.multi_play != "off":
        due.add("multi")
    if rules.jump_in:
        due.add("jump")
    if coloured and not rules.must_play and not rules.force_play and not rules.draw_to_match:
        due.add("drawn")  # (All Wild: every card plays, so it draws only to avoid a useless Forced Swap)
    return due


GAMES_PER_MIX = 24
"""Games of heuristic bots per mix (whole matches where the mix scores them)."""


def seats_go_out(rules: Rules) -> bool:
    """Whether seats leave the round or the match under ``rules`` (knockout scoring, ``mercy``)."""
    return rules.mercy or rules.scoring == "knockout"


BOT_MIXES = [i for i, (edition, _) in enumerate(OPTION_MIXES) if edition in BOT_EDITIONS]
"""The mixes the compiled bots play: all of them."""
assert any(seats_go_out(Rules.from_dict(OPTION_MIXES[i][1])) for i in BOT_MIXES)


@pytest.mark.parametrize("mix", BOT_MIXES)
def test_every_compiled_decision_is_the_python_heuristics(mix: int) -> None:
    """Tables of heuristic bots in every edition and option mix: every decision compared, nothing exempt."""
    edition, options = OPTION_MIXES[mix]
    rules = Rules.from_dict(options)
    total: Counter[str] = Counter()
    ties = CountingHeuristic.ties
    for index in range(GAMES_PER_MIX):
        players = table_size(index, rules, edition)
        cards = written_cards(edition, index)
        compared, _ = play_both(players, rules, 1000 + mix, index, edition=edition, rule_cards=cards)
        total += compared
    missing = phases_due(edition, rules) - {asked for asked, count in total.items() if count}
    assert not missing, (missing, total)
    assert total["turn"] > 2 * GAMES_PER_MIX
    if seats_go_out(rules) and (rules.scoring == "knockout" or rules.mercy_limit < 25):
        # seats knocked out or put out by Mercy, and the bots deciding after that (No Mercy's 25
        # cards are rare among heuristic bots: see test_seats_out_decide_alike_at_mixed_tables)
        assert total["seats-out"] > 2 * GAMES_PER_MIX, total
    if rules.hand_size >= 5:
        assert CountingHeuristic.ties > ties  # ties broken by the generator


def test_single_rounds_of_every_edition_compare_many_decisions() -> None:
    """Many short games: the rarer decisions (challenges, drawn wild cards, Slams, Wild Jackpot's runs,
    lever discards, gifts and targets) come up often."""
    total: Counter[str] = Counter()
    for index in range(320):
        edition = BOT_EDITIONS[index % 4]
        rules = Rules(scoring="single-round")
        cards = written_cards(edition, index // 4)
        compared, _ = play_both(2 + index % 5, rules, seed=1000, index=index, edition=edition, rule_cards=cards)
        total += compared
    assert min(total[phase] for phase in ("turn", "drawn", "colour", "challenge", "discard", "target")) > 20, total
    jackpot = ("rule-run", "lever-discard", "give", "honour", "performer", "rule-target")
    assert min(total[phase] for phase in jackpot) > 10, total


def test_jump_ins_that_would_bring_a_bigger_hand_are_declined_alike() -> None:
    """Seven-O with Jump-In at big tables: the bots let pass the 7s and 0s that would hand them more
    cards (``HeuristicBot._jump``), the compiled bots at the same moments."""
    rules = Rules.from_dict({"preset": "house", "scoring": "single-round"})
    declined = CountingHeuristic.declined_jumps
    total: Counter[str] = Counter()
    for index in range(60):
        compared, _ = play_both(5 + index % 2, rules, seed=31, index=index)
        total += compared
    assert CountingHeuristic.declined_jumps - declined >= 10 and total["jump"] > 100


@pytest.mark.parametrize("edition", BOT_EDITIONS)
def test_heuristic_against_random_seats_decides_as_the_python_bots(edition: str) -> None:
    """Mixed tables under the edition's option mixes: the heuristic seats as HeuristicBot, the others
    as RandomBot (same generators); random players forget to call UNO, so the heuristic catches."""
    mixes = [
        Rules.from_dict({**OPTION_MIXES[i][1], "scoring": "single-round"})
        for i in BOT_MIXES
        if OPTION_MIXES[i][0] == edition
    ]
    total: Counter[str] = Counter()
    for index in range(120):
        rules = mixes[index % len(mixes)]
        players = table_size(index, rules, edition)
        seats = [seat for seat in range(players) if (seat + index) % 2 == 0]
        cards = written_cards(edition, index)
        compared, _ = play_both(
            players, rules, seed=77, index=index, heuristic_seats=seats, edition=edition, rule_cards=cards
        )
        total += compared
    assert total["random"] > 1000 and total["turn"] > 1000 and total["interrupt"] > 10, total
    if any(rules.jump_in for rules in mixes):
        assert total["jump"] > 0


@pytest.mark.parametrize("edition", BOT_EDITIONS)
def test_seats_out_decide_alike_at_mixed_tables(edition: str) -> None:
    """Seats out at tables of heuristic and random bots: No Mercy's 25 cards (the preset; one
    heuristic seat, random players hoard cards) and knockout matches with Mercy, Jump-In and Seven-O
    (half the seats heuristic); the heuristic seats' decisions once a seat is out (stepped over, no
    longer an opponent; a 7 or 0 jumped in or not as the seats still in hold) and the runner's
    jump-ins with seats out, compared."""
    total: Counter[str] = Counter()
    mixes = (
        Rules.from_dict({"preset": "no-mercy"}),
        Rules.from_dict(
            {
                "scoring": "knockout",
                "jump_in": True,
                "mercy": True,
                "mercy_limit": 15,
                "seven_swap": True,
                "zero_pass": True,
            }
        ),
    )
    out = [0, 0]
    for index in range(16):
        rules = mixes[index % 2]
        players = 3 + index % 4
        seats = [index % players] if index % 2 == 0 else [seat for seat in range(players) if seat % 2]
        cards = written_cards(edition, index)
        compared, _ = play_both(
            players, rules, seed=41, index=index, heuristic_seats=seats, edition=edition, rule_cards=cards
        )
        total += compared
        out[index % 2] += compared["seats-out"]
    assert min(out) > 10 and total["random"] > 100 and total["jump"] > 0, (out, total)


RUNNER_MIXES = sorted(
    {next(i for i, (e, _) in enumerate(OPTION_MIXES) if e == edition) for edition in BOT_EDITIONS}
    | {
        i
        for i, (e, options) in enumerate(OPTION_MIXES)
        if i in BOT_MIXES and {"jump_in", "teams"} & set(Rules.from_dict(options).to_dict())
    }
)
"""The first mix of each edition, and every mix with Jump-In or teams (the runner's subtler steps)."""


@pytest.mark.parametrize("mix", RUNNER_MIXES)
def test_whole_games_are_the_runners(mix: int) -> None:
    """Whole compiled games of heuristic and random bots are the games :func:`play_match` plays with the
    Python bots on the same deals: the same events, one after the other (the runner itself, not
    ``python_decision``, orders the calls, catches and jump-ins).  Single rounds, but knockout
    matches (seats knocked out, then Jump-In windows among the seats left)."""
    edition, options = OPTION_MIXES[mix]
    knockout = options.get("scoring") == "knockout"
    rules = Rules.from_dict(options if knockout else {**options, "scoring": "single-round"})
    for index in range(12):
        players = table_size(index, rules, edition)
        seats = None if index % 3 else [0]
        cards = written_cards(edition, index)
        s, memory, rngs, kinds = fh.new_table(
            players, rules, seed=9, index=index, heuristic_seats=seats, trace=True, edition=edition, rule_cards=cards
        )
        fast = FastGame.of_state(s, rules)
        game, scripted = replay_game(fast, players, rules, cards)
        events = fast.new_events()
        while not fast.is_over:
            seat, action = fh.bot_decision(s, memory, rngs, kinds)
            fast.apply(seat, action)
            assert fh.update_memory(s, memory) >= 0
            scripted.script.extend(fast.trace())
            events += fast.new_events()
        result = play_match(game, python_bots(players, 9, index, kinds, edition))
        assert not scripted.script, "the Python engine drew less randomness"
        assert python_events(game, 0) == events
        assert result.winner == fast.winner


@pytest.mark.parametrize("edition", BOT_EDITIONS)
def test_batches_are_seeded_and_independent_of_the_threads(edition: str) -> None:
    rules = Rules(scoring="single-round")
    one = fh.play_heuristic_games(60, 4, rules, seed=11, threads=1, edition=edition)
    two = fh.play_heuristic_games(60, 4, rules, seed=11, threads=2, edition=edition)
    for key in one:
        assert (one[key] == two[key]).all(), key
    tail = fh.play_heuristic_games(20, 4, rules, seed=11, first=40, threads=2, edition=edition)
    assert (tail["decisions"] == one["decisions"][40:]).all()
    other = fh.play_heuristic_games(60, 4, rules, seed=12, threads=1, edition=edition)
    assert (other["decisions"] != one["decisions"]).any()
    assert (one["winner"] >= 0).all() and (one["winner"] < 4).all() and (one["rounds"] == 1).all()
    house = Rules.from_dict({"preset": "chaos", "scoring": "single-round", "teams": True})
    mixed = fh.play_bots_games(60, 4, house, seed=11, heuristic_seats=[1], threads=1, edition=edition)
    mixed_two = fh.play_bots_games(60, 4, house, seed=11, heuristic_seats=[1], threads=2, edition=edition)
    for key in mixed:
        assert (mixed[key] == mixed_two[key]).all(), key
    if edition == "wild-jackpot":  # the lever and rule cards counted; written rule cards, seeded alike
        assert sorted(one) == ["decisions", "levers", "rounds", "rules_performed", "scores", "winner"]
        assert one["levers"].sum() > 0 and one["rules_performed"].sum() > 0
        cards = WRITTEN_RULE_CARDS
        written = fh.play_heuristic_games(60, 4, rules, seed=11, threads=1, edition=edition, rule_cards=cards)
        written_two = fh.play_heuristic_games(60, 4, rules, seed=11, threads=2, edition=edition, rule_cards=cards)
        for key in written:
            assert (written[key] == written_two[key]).all(), key
        assert (written["decisions"] != one["decisions"]).any()
        assert written["rules_performed"][:, 0].sum() > 0  # (one honour task among twenty cards)


@pytest.mark.parametrize(
    ("edition", "rules", "seats"),
    [
        ("classic", {"target_score": 100}, None),
        ("classic", {"scoring": "single-round"}, [0, 2]),
        ("space-jam", {"preset": "party", "target_score": 100}, None),
        ("all-wild", {"stacking": "cross", "jump_in": True, "scoring": "single-round"}, [1]),
        ("wild-jackpot", {"target_score": 100}, None),
        ("wild-jackpot", {"preset": "chaos", "scoring": "single-round"}, [0, 2]),
        ("classic", {"scoring": "knockout", "mercy": True, "mercy_limit": 12}, None),
        ("all-wild", {"preset": "no-mercy", "mercy_limit": 12, "jump_in": True}, [1]),
    ],
)
def test_a_batch_plays_the_games_stepped_one_decision_at_a_time(
    edition: str, rules: dict[str, Any], seats: Any
) -> None:
    """The batch's games are those :func:`play_both` checks against the Python bots."""
    rules_ = Rules.from_dict(rules)
    result = fh.play_bots_games(6, 3, rules_, seed=5, first=10, heuristic_seats=seats, threads=2, edition=edition)
    for game in range(6):
        _, steps = play_both(3, rules_, seed=5, index=10 + game, heuristic_seats=seats, edition=edition)
        assert steps == result["decisions"][game]


def test_heuristic_decision_is_the_step_of_a_table_of_heuristic_bots() -> None:
    rules = Rules.from_dict({"preset": "house", "scoring": "single-round"})
    s, memory, rngs, kinds = fh.new_table(3, rules, seed=3)
    other = (s.copy(), memory.copy(), rngs.copy())
    while s[engine.PHASE] != engine.OVER:
        seat, action = fh.heuristic_decision(s, memory, rngs)
        assert (seat, action) == fh.bot_decision(other[0], other[1], other[2], kinds)
        for state, known in ((s, memory), other[:2]):
            assert engine.apply(state, seat, action) == 0
            fh.update_memory(state, known)


@pytest.mark.parametrize("edition", BOT_EDITIONS)
def test_the_set_order_is_pythons(edition: str) -> None:
    """The Slam's discard breaks ties in the order ``set(hand)`` iterates: CPython's hash table, rebuilt."""
    faces = get_edition(edition).faces
    rng = random.Random(edition)
    s = engine.template_state(2, Rules(), edition)
    memory = np.zeros(fh.MEMORY_SIZE, dtype=np.int64)
    for _ in range(400):
        hand = sorted(rng.choices(faces, k=rng.randint(1, 80)))
        s[engine.HANDS : engine.HANDS + engine.MAX_FACES] = [hand.count(card) for card in faces] + [0] * (
            engine.MAX_FACES - len(faces)
        )
        count = fh.python_set_order(s, memory, 0)
        assert [faces[f] for f in memory[fh.M_SET : fh.M_SET + count]] == list(set(hand))


def test_the_generator_is_random_randoms() -> None:
    rng = np.zeros(fh.RNG_WORDS, dtype=np.int64)
    for seed in (0, 1, 2**32 - 1, 2**32, 2**62 + 12345):
        fh.mt_seed(rng, seed)
        python = random.Random(seed)
        assert [fh.mt_next(rng) for _ in range(1300)] == [python.getrandbits(32) for _ in range(1300)]
        sizes = [1, 2, 3, 7, 54, 1000] * 20
        assert [fh.mt_below(rng, n) for n in sizes] == [python._randbelow(n) for n in sizes]  # type: ignore[attr-defined]
        assert [fh.mt_random(rng) for _ in range(50)] == [python.random() for _ in range(50)]


def test_bad_input_is_refused() -> None:
    with pytest.raises(SetupError):
        fh.play_heuristic_games(-1, 4)
    with pytest.raises(SetupError):
        fh.play_heuristic_games(2, 4, seed=-1)
    with pytest.raises(SetupError):
        fh.play_bots_games(2, 3, heuristic_seats=[3])
    with pytest.raises(SetupError):
        fh.play_bots_games(2, 11)
    with pytest.raises(SetupError):
        fh.play_bots_games(2, 3, Rules(teams=True))  # teams need an even table of 4 or more
    refused = [  # what the compiled engine does not play (the bots play everything it plays)
        ({"edition": "flip"}, "unknown edition 'flip'"),
        ({"rules": Rules.from_dict({"deck": {"R1": 300}})}, "decks of up to 256 cards"),
    ]
    for arguments, named in refused:
        with pytest.raises(UnknownOptionError, match=named):
            fh.play_heuristic_games(2, 4, **arguments)
        with pytest.raises(UnknownOptionError, match=named):
            fstats.play_stats_games(2, 4, **arguments)
        with pytest.raises(UnknownOptionError, match=named):
            fh.new_table(4, **arguments)


def test_the_run_search_spends_its_budget_as_pythons() -> None:
    """Wild Jackpot's "play as many cards in a row as you can" from big hands: the Python search
    (``HeuristicBot._run``) runs out of its budget of nodes, and what it found by then (its memo
    included) decides; the compiled search must stop at the same node and choose the same card."""
    from unokit.bots.heuristic import _RUN_BUDGET
    from unokit.editions.wild_jackpot import RULE_RUN

    assert fh.RUN_BUDGET == _RUN_BUDGET

    class Scoring(HeuristicBot):
        scores: dict[int, float] = {}

        def _best(self, scores: dict[int, float]) -> int:
            Scoring.scores = dict(scores)
            return super()._best(scores)

    rng = random.Random(8)
    faces = get_edition("wild-jackpot").faces
    spent = 0
    deciding = 0
    for trial in range(80):
        game = Game("wild-jackpot", 3, seed=trial, rule_cards=["Play as many cards in a row as you can."])
        hand = rng.choices(faces, k=rng.randint(3, 13) if trial % 4 == 0 else rng.randint(14, 45))
        game.hands[0] = hand
        game.ask(RULE_RUN, 0)
        game._legal = None
        moves = game.legal_actions(0)
        if len(moves) < 2:
            continue
        deciding += 1
        state = engine.state_from_game(game, trial)
        memory = fh.memory_for_position(state)
        rngs = fh.new_generators()
        fh.mt_seed_later(rngs[0], trial)
        got = fh.heuristic_choose(state, memory, rngs[0], 0)
        assert got == Scoring(seed=trial, edition="wild-jackpot").choose(game.view(0)), (trial, sorted(hand))
        scores = {faces[f]: int(memory[fh.R_SCORES + f]) for f in range(len(faces)) if memory[fh.R_SCORES + f] >= 0}
        assert scores == Scoring.scores, trial  # every first card's run: its length and points as found
        spent += int(memory[fh.R_BUDGET] == 0)
    assert deciding > 50 and spent > 20, (deciding, spent)


def test_a_jackpot_memory_has_room_for_the_run_search() -> None:
    """The run's memo never fills up: an entry per node expanded, keys as long as a whole deck's hand."""
    decks = [options for edition, options in OPTION_MIXES if edition == "wild-jackpot" and "deck" in options]
    for rules in (Rules(), *(Rules.from_dict(options) for options in decks)):
        template = engine.template_state(4, rules, "wild-jackpot")
        words = fh.memory_words(template)
        deck = int(template[engine.DECK_N])
        cap = (words - fh.R_TABLE) // (1 + (deck + 63) // 64)
        assert cap & (cap - 1) == 0 and cap >= 2 * fh.RUN_BUDGET
    assert fh.memory_words(engine.template_state(4, Rules(), "classic")) == fh.MEMORY_SIZE


def _rollouts(game: Game, seat: int, actions: Sequence[int], repeats: int, seed: int) -> Any:
    """:func:`fh.rollout_wins` from ``game``'s position, every move ``repeats`` times."""
    state = engine.state_from_game(game, seed)
    memory = fh.memory_for_position(state)
    seeds = np.array([random.Random(seed).getrandbits(32) + k for k in range(repeats * game.n)], dtype=np.int64)
    wins = np.full((repeats, len(actions)), -1, dtype=np.int64)
    fh.rollout_wins(
        state,
        memory,
        fh.new_generators(),
        seat,
        np.array(actions, dtype=np.int64),
        seeds,
        400,
        np.empty_like(state),
        np.empty_like(memory),
        wins,
    )
    return wins


def test_rollouts_compare_every_move_on_the_same_deals() -> None:
    """A move listed twice gets the same outcome in every repetition (same deal, same draws, same
    tie-breaks); repetitions differ (the draw pile is shuffled anew); a seed repeats them."""
    for seed in range(6):
        game = Game("classic", 3, seed=seed, rules={"scoring": "single-round"})
        rng = random.Random(seed)
        for _ in range(3 + seed):
            actor = game.actor
            game.apply(actor, rng.choice(game.legal_actions(actor)))
            while game.exposed:
                game.apply(game.exposed[0], game.actions.call_uno)
        seat = game.actor
        legal = game.legal_actions(seat)
        actions = [legal[0], legal[-1], legal[0]]
        wins = _rollouts(game, seat, actions, 24, seed)
        assert set(wins.ravel()) <= {0, 1}
        assert (wins[:, 0] == wins[:, 2]).all()
        assert 0 < wins[:, 0].sum() < 24 or 0 < wins[:, 1].sum() < 24  # the deals differ
        assert (wins == _rollouts(game, seat, actions, 24, seed)).all()


def test_a_move_that_wins_the_round_wins_every_rollout() -> None:
    from unokit.engine.deck import stacked_deck

    rules = Rules(hand_size=1, scoring="single-round")
    deck = stacked_deck("classic", [["R5"], ["G1"], ["Y1"]], "R9", dealer=2, rules=rules)
    game = Game("classic", 3, seed=1, deck=deck, dealer=2, rules=rules)
    space = game.actions
    win, draw = space.parse("R5"), space.parse("draw")
    assert game.actor == 0 and game.legal_actions(0) == (win, draw)
    wins = _rollouts(game, 0, [draw, win], 16, 3)
    assert (wins[:, 1] == 1).all() and wins[:, 0].sum() < 16


def test_a_playout_stopped_counts_only_the_seats_in_the_round() -> None:
    """A heuristic playout stopped before the round ends names the first seat in the round holding the
    fewest cards, as the Python playouts do: not a seat Mercy put out (its hand of none) nor one
    knocked out of the match."""
    rules = Rules(mercy=True, mercy_limit=9, scoring="knockout")
    checked = 0
    for seed in range(40):
        game = Game("classic", 4, seed=seed, rules=rules)
        rng = random.Random(seed)
        while not game.is_over and not game.out:  # type: ignore[attr-defined]
            seat = game.actor
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            while game.exposed and not game.is_over:
                game.apply(game.exposed[0], game.actions.call_uno)
        if game.is_over:
            continue
        state = engine.state_from_game(game, seed)
        memory = fh.memory_for_position(state)
        fewest = min(game.seats_in(), key=lambda s: len(game.hands[s]))
        assert fh.heuristic_playout(state, memory, fh.new_generators(), 0) == fewest
        checked += 1
    assert checked > 20
