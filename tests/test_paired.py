"""The paired statistics: exact sums, ratio intervals, paired differences, t distribution, Holm."""

from __future__ import annotations

import doctest
import math
import random
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unokit.analysis import paired
from unokit.analysis.paired import (
    Accumulator,
    Sums,
    critical,
    difference,
    estimate,
    holm,
    incomplete_beta,
    t_cdf,
    two_sided_p,
)


def test_doctests() -> None:
    assert doctest.testmod(paired).failed == 0


def _sums(pairs: list[tuple[int, int]], base: list[tuple[int, int]]) -> Sums:
    s = Sums()
    for (y, x), (y0, x0) in zip(pairs, base, strict=True):
        s.add(y, x, y0, x0)
    return s


def _plain_ratio_interval(pairs: list[tuple[int, int]]) -> tuple[float, float, float]:
    """The delta-method interval of Σy/Σx computed the textbook way, from the per-match list."""
    n = len(pairs)
    r = sum(y for y, _ in pairs) / sum(x for _, x in pairs)
    mean_x = sum(x for _, x in pairs) / n
    residuals = [(y - r * x) / mean_x for y, x in pairs]
    se = statistics.stdev(residuals) / math.sqrt(n)
    half = critical(n - 1) * se
    return r, r - half, r + half


def _plain_paired_difference(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> tuple[float, float, float, float]:
    """The paired difference R_a - R_b the textbook way: a one-sample t test on the linearised
    per-match differences."""
    n = len(a)
    ra = sum(y for y, _ in a) / sum(x for _, x in a)
    rb = sum(y for y, _ in b) / sum(x for _, x in b)
    ma = sum(x for _, x in a) / n
    mb = sum(x for _, x in b) / n
    z = [(ya - ra * xa) / ma - (yb - rb * xb) / mb for (ya, xa), (yb, xb) in zip(a, b, strict=True)]
    se = statistics.stdev(z) / math.sqrt(n)
    d = ra - rb
    half = critical(n - 1) * se
    return d, d - half, d + half, two_sided_p(d / se, n - 1)


def test_ratio_interval_matches_the_formula_on_the_per_match_list() -> None:
    rng = random.Random(3)
    for n in (5, 40, 1500):
        pairs = [(rng.randint(0, 30), rng.randint(1, 6)) for _ in range(n)]
        e = estimate(_sums(pairs, pairs))
        value, low, high = _plain_ratio_interval(pairs)
        assert e.value == pytest.approx(value, rel=1e-12)
        assert e.low == pytest.approx(low, rel=1e-9)
        assert e.high == pytest.approx(high, rel=1e-9)
        assert e.n == n


def test_paired_difference_matches_the_formula_on_the_per_match_list() -> None:
    rng = random.Random(4)
    for n in (6, 80, 2000):
        base = [(rng.randint(0, 20), rng.randint(1, 5)) for _ in range(n)]
        other = [(y + rng.randint(-2, 3), x) for y, x in base]  # correlated with the baseline
        d = difference(_sums(other, base), _sums(base, base))
        assert d is not None
        value, low, high, p = _plain_paired_difference(other, base)
        assert d.value == pytest.approx(value, rel=1e-12, abs=1e-15)
        assert d.low == pytest.approx(low, rel=1e-9)
        assert d.high == pytest.approx(high, rel=1e-9)
        assert d.p == pytest.approx(p, rel=1e-7, abs=1e-15)
        assert d.gain is not None and d.gain > 1, "positively correlated pairs gain from pairing"


def test_the_paired_t_test_equals_the_textbook_one_for_plain_means() -> None:
    """With every denominator 1 the ratio is a mean and the paired difference is the paired t test
    (values from the t distribution: t = -3 on 3 degrees of freedom)."""
    base = [(3, 1), (5, 1), (4, 1), (6, 1)]
    other = [(2, 1), (4, 1), (4, 1), (5, 1)]
    d = difference(_sums(other, base), _sums(base, base))
    assert d is not None
    assert d.value == -0.75
    assert d.se == pytest.approx(0.25)
    assert d.p == pytest.approx(0.0576688856224373, rel=1e-9)  # 2 * P(T_3 < -3)


def test_unpaired_variance_is_the_sum_of_the_two() -> None:
    rng = random.Random(5)
    base = [(rng.randint(0, 9), rng.randint(1, 3)) for _ in range(50)]
    other = [(rng.randint(0, 9), rng.randint(1, 3)) for _ in range(50)]
    a, b = estimate(_sums(other, other)), estimate(_sums(base, base))
    d = difference(_sums(other, base), _sums(base, base))
    assert d is not None and a.se is not None and b.se is not None
    assert d.unpaired_se == pytest.approx(math.hypot(a.se, b.se), rel=1e-12)


def test_identical_set_ups_give_exactly_zero_with_p_one() -> None:
    pairs = [(7, 2), (3, 1), (0, 0), (9, 3), (4, 2)]
    s = _sums(pairs, pairs)
    d = difference(s, _sums(pairs, pairs))
    assert d is not None
    assert (d.value, d.low, d.high, d.p, d.se) == (0.0, 0.0, 0.0, 1.0, 0.0)
    assert d.gain is None


def test_a_constant_shift_has_no_spread_and_p_zero() -> None:
    base = [(y, 1) for y in (3, 8, 1, 5)]
    other = [(y + 2, 1) for y, _ in base]
    d = difference(_sums(other, base), _sums(base, base))
    assert d is not None
    assert (d.value, d.low, d.high, d.p) == (2.0, 2.0, 2.0, 0.0)


def test_no_denominator_or_one_match_gives_no_interval() -> None:
    empty = _sums([(0, 0), (0, 0)], [(0, 0), (0, 0)])
    assert estimate(empty).value is None
    assert difference(empty, empty) is None
    one = _sums([(3, 2)], [(3, 2)])
    assert estimate(one).value == 1.5 and estimate(one).low is None
    d = difference(one, one)
    assert d is not None and d.value == 0.0 and d.p is None


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 50), st.integers(0, 8), st.integers(0, 50), st.integers(0, 8)), min_size=2, max_size=40
    ),
    st.integers(1, 39),
)
def test_sums_merge_in_any_order_to_the_same_integers(rows: list[tuple[int, int, int, int]], cut: int) -> None:
    whole = Sums()
    for y, x, y0, x0 in rows:
        whole.add(y, x, y0, x0)
    cut = min(cut, len(rows) - 1)
    first, second = Sums(), Sums()
    first.add_many(*(list(c) for c in zip(*rows[:cut], strict=True)))
    second.add_many(*(list(c) for c in zip(*rows[cut:], strict=True)))
    second.merge(first)
    assert second == whole


def test_accumulators_merge_in_any_order() -> None:
    rng = random.Random(6)
    matches = [
        [{"m": (rng.randint(0, 9), rng.randint(0, 3)), "only_a": (1, 1)} for _ in range(30)],
        [{"m": (rng.randint(0, 9), rng.randint(0, 3))} for _ in range(30)],
    ]
    whole = Accumulator(2)
    whole.add_matches(matches)
    parts = []
    for start in range(0, 30, 7):
        part = Accumulator(2)
        part.add_matches([rows[start : start + 7] for rows in matches])
        parts.append(part)
    merged = Accumulator(2)
    for part in reversed(parts):
        merged.merge(part)
    assert merged == whole
    assert whole.matches == 30
    assert whole.difference(1, "only_a") is None, "a measure only one set-up has is not compared"
    assert whole.difference(0, "m") is None, "the baseline is not compared with itself"


def test_intervals_cover_the_truth_about_95_percent_of_the_time() -> None:
    """Simulated studies on a known truth: matches of 1 to 6 rounds, each won with probability
    0.3 in the baseline and 0.35 in the other set-up, paired by a shared luck."""
    rng = random.Random(7)
    studies, n = 600, 60
    covered_estimate = covered_difference = 0
    for _ in range(studies):
        base, other = Sums(), Sums()
        for _ in range(n):
            rounds = rng.randint(1, 6)
            luck = [rng.random() for _ in range(rounds)]
            y0 = sum(u < 0.30 for u in luck)
            y1 = sum(u < 0.35 for u in luck)
            base.add(y0, rounds, y0, rounds)
            other.add(y1, rounds, y0, rounds)
        e = estimate(base)
        d = difference(other, base)
        assert e.low is not None and e.high is not None and d is not None and d.low is not None and d.high is not None
        covered_estimate += e.low <= 0.30 <= e.high
        covered_difference += d.low <= 0.05 <= d.high
    assert 0.92 <= covered_estimate / studies <= 0.975
    assert 0.92 <= covered_difference / studies <= 0.975


def test_p_values_are_uniform_under_the_null() -> None:
    """Two set-ups with the same law (independent draws, paired by match): p-values spread evenly."""
    rng = random.Random(8)
    ps = []
    for _ in range(500):
        base, other = Sums(), Sums()
        for _ in range(30):
            rounds = rng.randint(1, 4)
            y0 = sum(rng.random() < 0.4 for _ in range(rounds))
            y1 = sum(rng.random() < 0.4 for _ in range(rounds))
            base.add(y0, rounds, y0, rounds)
            other.add(y1, rounds, y0, rounds)
        d = difference(other, base)
        assert d is not None and d.p is not None
        ps.append(d.p)
    rejected = sum(p < 0.05 for p in ps) / len(ps)
    assert 0.025 <= rejected <= 0.08
    for cut in (0.25, 0.5, 0.75):
        assert abs(sum(p < cut for p in ps) / len(ps) - cut) < 0.07


@pytest.mark.parametrize(
    ("t", "df", "cdf"),
    [
        (2.228138851986, 10, 0.975),
        (12.7062047361747, 1, 0.975),
        (-2.570581835636, 5, 0.025),
        (0.0, 7, 0.5),
        (1.0, 1, 0.75),
        (3.0, 2, 0.952267016866645),
    ],
)
def test_t_cdf_against_known_values(t: float, df: int, cdf: float) -> None:
    assert t_cdf(t, df) == pytest.approx(cdf, abs=1e-10)


def test_t_quantiles_and_normal_for_large_samples() -> None:
    assert critical(10) == pytest.approx(2.228138851986, rel=1e-9)
    assert critical(30) == pytest.approx(2.042272456301, rel=1e-9)
    assert critical(500) == pytest.approx(1.964719837467, rel=1e-9)
    assert critical(paired.NORMAL_FROM) == pytest.approx(1.959963984540054)
    assert two_sided_p(1.959963984540054, 5000) == pytest.approx(0.05, rel=1e-9)


def test_incomplete_beta_edges_and_symmetry() -> None:
    assert incomplete_beta(2, 3, 0.0) == 0.0 and incomplete_beta(2, 3, 1.0) == 1.0
    assert incomplete_beta(2.5, 0.5, 0.3) == pytest.approx(1 - incomplete_beta(0.5, 2.5, 0.7), abs=1e-13)
    assert incomplete_beta(1, 1, 0.37) == pytest.approx(0.37, abs=1e-13)  # the uniform distribution
    with pytest.raises(ValueError):
        incomplete_beta(1, 1, 1.5)


def test_holm_adjusts_step_down_and_keeps_order() -> None:
    assert holm([0.01, 0.04, None, 0.03]) == [0.03, 0.06, None, 0.06]
    assert holm([0.5, 0.001]) == [0.5, 0.002]
    assert holm([]) == []
    assert holm([0.9, 0.8, 0.2]) == [1.0, 1.0, 0.6]
