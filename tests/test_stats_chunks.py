"""``stats`` in chunks: the sums of chunks equal the sums of all matches, and nothing grows per match."""

from __future__ import annotations

from collections import Counter
from dataclasses import fields

from unokit.analysis.measures import play_matches
from unokit.analysis.stats import ChunkSpec, EditionStats, _setup, collect, play_chunk, render_markdown
from unokit.engine.rules import Rules

RULES = Rules(target_score=150)


def test_chunks_add_up_to_the_matches_one_by_one() -> None:
    """Whatever the chunks and workers, the statistics are those of adding every match in turn."""
    setup = _setup("classic", 3, "heuristic", RULES, None, "python")
    one_by_one = EditionStats.empty("classic", 3, 12, "heuristic", 4, RULES)
    for match in play_matches(setup, seed=4, start=0, count=12):
        one_by_one.add(match)  # type: ignore[arg-type]
    chunked = EditionStats.empty("classic", 3, 12, "heuristic", 4, RULES)
    for start, count in ((0, 5), (5, 1), (6, 6)):
        part, rows = play_chunk(ChunkSpec(setup, 4, start, count))
        assert rows == [] and part.played == count
        chunked.merge(part)
    for workers in (1, 2):
        gathered = collect("classic", 3, 12, seed=4, bot="heuristic", workers=workers, rules=RULES)
        assert gathered.to_dict() | {"elapsed_s": 0} == one_by_one.to_dict() | {"elapsed_s": 0}
    assert chunked.to_dict() == one_by_one.to_dict()
    assert chunked.tally.sums == one_by_one.tally.sums
    assert render_markdown(chunked) == render_markdown(one_by_one)


def test_no_figure_is_kept_per_match() -> None:
    """Every container in the statistics is a histogram (value → count) or has one entry per seat
    or per kind: ten times the matches do not make ten times the entries."""
    small = collect("classic", 2, 10, seed=1, bot="random", workers=1, rules=Rules(scoring="single-round"))
    large = collect("classic", 2, 100, seed=1, bot="random", workers=1, rules=Rules(scoring="single-round"))
    for f in fields(EditionStats):
        value = getattr(large, f.name)
        if isinstance(value, Counter):
            assert sum(value.values()) in (0, large.rounds, large.finished), f.name  # counts, not entries
            assert len(value) <= max(value, default=0) + 1, f.name  # at most one entry per distinct value
        elif isinstance(value, list):
            assert len(value) == len(getattr(small, f.name)) <= 6, f.name
        elif isinstance(value, dict):
            assert len(value) <= 20, f.name
    assert large.finished == 100 and large.rounds == 100
    assert len(large.tally.sums) == len(small.tally.sums)


def test_compiled_chunks_counted_on_their_arrays_equal_the_matches_one_by_one() -> None:
    """On the compiled engine a chunk is counted at once from its arrays (rows aside): the
    statistics equal those of adding each match's summary in turn, capped matches included."""
    for edition, players, rules in (
        ("classic", 4, Rules(teams=True, stacking="cross", target_score=200)),
        ("wild-jackpot", 3, Rules()),
        ("all-wild", 2, Rules(scoring="winner-collects", target_score=150)),
    ):
        setup = _setup(edition, players, "heuristic", rules, None, "fast", 400)
        one_by_one = EditionStats.empty(edition, players, 50, "heuristic", 6, rules, "fast")
        for match in play_matches(setup, seed=6, start=10, count=50):
            one_by_one.add(match)  # type: ignore[arg-type]
        chunked, rows = play_chunk(ChunkSpec(setup, 6, 10, 50))
        assert rows == [] and chunked.played == 50
        assert chunked.unfinished > 0 or edition == "all-wild"  # capped matches among them
        assert chunked.to_dict() == one_by_one.to_dict()
        assert chunked.tally.sums == one_by_one.tally.sums
        assert render_markdown(chunked) == render_markdown(one_by_one)
        assert [f.name for f in fields(EditionStats) if getattr(chunked, f.name) != getattr(one_by_one, f.name)] == [
            "tally"  # (sums compared above: a tally has no ==)
        ]
