"""The measures of a chunk of compiled matches computed on arrays (``chunk_values``) equal
``match_values`` of each match, numerator by numerator and denominator by denominator, and the sums
fed from the arrays equal the sums fed match by match."""

from __future__ import annotations

from typing import Any

import pytest

from unokit.analysis.measures import Setup, Tally, chunk_values, marks, match_values, measures_for
from unokit.analysis.paired import Accumulator, exact_dot
from unokit.engine.rules import Rules

np = pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the compiled engine needs the fast extra (numba)")

from unokit.analysis.stats import EditionStats, fast_match_summary  # noqa: E402
from unokit.fast.differential import OPTION_MIXES, WRITTEN_RULE_CARDS  # noqa: E402
from unokit.fast.stats import play_stats_games  # noqa: E402

MARK_MIXES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("classic", {"stacking": "cross", "stack_deflect": "both", "seven_swap": True, "zero_pass": True}),
    ("classic", {"jump_in": True, "multi_play": "number", "multi_play_bomb": True, "mercy": True, "mercy_limit": 10}),
    ("all-wild", {"stacking": "cross", "jump_in": True}),
    ("wild-jackpot", {"scoring": "single-round"}),
    ("classic", {"deck": {"B9": 2, "G9": 2, "B1": 2, "G2": 2, "Y1": 2, "B2": 2, "R5": 2, "W": 1}, "hand_size": 2}),
    ("classic", {"teams": True, "scoring": "winner-collects", "target_score": 300}),
)
"""Rule sets under which every mark happens, besides the engine's differential mixes (a deck
spent at once, so that rounds are blocked, with random bots)."""


def _cases() -> list[Any]:
    cases = []
    for number, (edition, options) in enumerate(OPTION_MIXES + MARK_MIXES):
        players = 4 if options.get("teams") or number % 3 else 3
        cases.append(pytest.param(edition, options, players, number, id=f"{edition}-{number}-{players}p"))
    return cases


def _setup(edition: str, options: dict[str, Any], players: int, number: int, limit: int) -> Setup:
    bots = tuple("heuristic" if number % 2 or seat == 0 else "random" for seat in range(players))
    cards = tuple(WRITTEN_RULE_CARDS) if edition == "wild-jackpot" and number % 2 else None
    return Setup(edition, players, bots, Rules.from_dict(options), cards, engine="fast", max_decisions=limit)


def _play(setup: Setup, seed: int, count: int) -> dict[str, Any]:
    return play_stats_games(
        count,
        setup.players,
        setup.rules,
        seed=seed,
        heuristic_seats=[seat for seat, bot in enumerate(setup.bots) if bot == "heuristic"],
        limit=setup.max_decisions,
        edition=setup.edition,
        rule_cards=setup.rule_cards,
    )


def _as_ints(values: dict[str, tuple[Any, Any]], game: int) -> dict[str, tuple[int, int]]:
    return {key: (int(tops[game]), int(bottoms[game])) for key, (tops, bottoms) in values.items()}


SEEN: dict[str, int] = {}
"""Measure key → matches that counted in it (``KEY (numerator)``: with a numerator above 0), over
every case (checked by the next test)."""


@pytest.mark.parametrize(("edition", "options", "players", "number"), _cases())
def test_the_arrays_give_every_match_its_values(
    edition: str, options: dict[str, Any], players: int, number: int
) -> None:
    for limit, count in ((30_000, 24), (400, 8)):  # finished matches, then matches stopped at a low cap
        setup = _setup(edition, options, players, number, limit)
        out = _play(setup, seed=number, count=count)
        values = chunk_values(setup, out)
        assert list(values) == [m.key for m in measures_for(setup)]
        for game in range(count):
            expected = match_values(setup, fast_match_summary(out, game))
            assert _as_ints(values, game) == expected, (setup.label, limit, game)
            for key, (top, bottom) in expected.items():
                SEEN[key] = SEEN.get(key, 0) + (bottom != 0)
                SEEN[f"{key} (numerator)"] = SEEN.get(f"{key} (numerator)", 0) + (top != 0)
        SEEN["capped (matches)"] = SEEN.get("capped (matches)", 0) + int((out["finished"] == 0).sum())


def test_every_measure_was_compared_on_matches_that_count_in_it() -> None:
    """The cases above met every mark, a capped match and each measure with a denominator."""
    if not SEEN:
        pytest.skip("run with the cases above")
    assert SEEN["capped (matches)"] > 0
    every = {f"mark_{m.key}" for edition, options in MARK_MIXES for m in marks(_setup(edition, options, 4, 1, 1))}
    every |= {"comeback_match", "lead_changes_per_match", "comeback_round", "blocked_share", "lever_draw_four"}
    every |= {f"{key} (numerator)" for key in every}
    missing = sorted(key for key in every if not SEEN.get(key))
    assert not missing, missing


def test_the_sums_from_arrays_equal_the_sums_match_by_match() -> None:
    options = {"stacking": "cross", "seven_swap": True}
    setups = [_setup("classic", {}, 4, 1, 1_000), _setup("classic", options, 4, 1, 1_000)]
    outs = [_play(setup, seed=3, count=40) for setup in setups]
    pairs = list(zip(setups, outs, strict=True))
    per_match = [[match_values(s, fast_match_summary(out, g)) for g in range(40)] for s, out in pairs]
    arrays = [chunk_values(s, out) for s, out in pairs]
    assert any(not out["finished"].all() for out in outs)  # capped matches among them

    one, other = Tally(), Tally()
    for values in per_match[1]:
        one.add(values)
    other.add_chunk(arrays[1])
    assert other.sums == one.sums

    by_match, by_chunk = Accumulator(2), Accumulator(2)
    by_match.add_matches(per_match)
    by_chunk.add_chunk(arrays)
    assert by_chunk.sums == by_match.sums

    stats_one = EditionStats.empty("classic", 4, 40, "heuristic", 3, setups[1].rules, "fast")
    stats_chunk = EditionStats.empty("classic", 4, 40, "heuristic", 3, setups[1].rules, "fast")
    for g in range(40):
        stats_one.add(fast_match_summary(outs[1], g))
    stats_chunk.add_chunk(outs[1])
    assert stats_chunk.to_dict() == stats_one.to_dict()
    assert {**vars(stats_chunk), "tally": stats_chunk.tally.sums} == {**vars(stats_one), "tally": stats_one.tally.sums}


def test_exact_sums_leave_int64_where_it_would_overflow() -> None:
    big = np.array([3 * 2**31, 3 * 2**31, 5], dtype=np.int64)
    assert exact_dot(big, big) == 2 * (3 * 2**31) ** 2 + 25
    assert exact_dot(big, None) == 6 * 2**31 + 5
    assert exact_dot(np.zeros(0, dtype=np.int64), None) == 0
    tally = Tally()
    tally.add_chunk({"m": (big, np.array([1, 0, 1], dtype=np.int64))})
    assert tally.sums["m"] == [2, 3 * 2**31 + 5, 2, (3 * 2**31) ** 2 + 25, 2, 3 * 2**31 + 5]
