"""Paired comparisons of set-ups played on the same seeds: exact streaming sums, intervals, p-values.

Every measure of a match is a pair of integers ``(y, x)`` (:mod:`unokit.analysis.measures`) and
its estimate over ``n`` matches is the ratio ``R = Σy / Σx``. The match is the cluster: its
rounds are not independent, so the spread comes from the per-match residuals ``e = y - R x``
(the delta method for a ratio estimator): ``Var(R) = n / (n - 1) · Σe² / (Σx)²``.

Two set-ups ``a`` and ``b`` played on the same match seeds are paired: the difference of their
estimates linearises to the mean of the per-match ``z = e_a / x̄_a - e_b / x̄_b``, whose variance
``n / (n - 1) · Σz² / n²`` holds the covariance of the two set-ups' residuals. Common random
numbers make that covariance positive, so the paired interval is narrower than the unpaired one
(``gain``: the unpaired variance over the paired one).

:class:`Sums` keeps only integer sums (``Σy``, ``Σx``, ``Σy²``, ``Σx²``, ``Σxy`` and the cross
sums with the baseline's ``y`` and ``x`` of the same match), so merging partial sums gives the
same numbers in any order and memory stays flat in the number of matches. Everything up to the
final division is exact (rational arithmetic): two identical set-ups give a difference of exactly
zero with zero variance, which reads as ``p = 1``.

Intervals and p-values use Student's t with ``n - 1`` degrees of freedom for fewer than
:data:`NORMAL_FROM` matches and the normal distribution from there on; :func:`holm` corrects the
p-values of a table for its many comparisons.

>>> a, b = Sums(), Sums()
>>> for ya, yb in [(3, 2), (5, 4), (4, 4), (6, 5)]:
...     a.add(ya, 1, ya, 1)
...     b.add(yb, 1, ya, 1)
>>> e = estimate(a)
>>> e.value, round(e.low, 3), round(e.high, 3)
(4.5, 2.446, 6.554)
>>> d = difference(b, a)
>>> d.value, round(d.low, 3), round(d.high, 3), round(d.p, 4)
(-0.75, -1.546, 0.046, 0.0577)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any

from unokit.analysis.tournament import Z95

NORMAL_FROM = 1000
"""From this many matches on, intervals and p-values use the normal distribution (else Student's t)."""

ALPHA = 0.05
"""The significance level of the Holm-corrected comparisons (and 95% intervals)."""


# ---------------------------------------------------------------- the sums


@dataclass
class Sums:
    """Exact integer sums of one measure of one set-up over matches, with the cross sums with
    the baseline set-up's values of the same matches (``y0``, ``x0``)."""

    n: int = 0
    y: int = 0
    x: int = 0
    yy: int = 0
    xx: int = 0
    xy: int = 0
    y_y0: int = 0
    y_x0: int = 0
    x_y0: int = 0
    x_x0: int = 0

    def add(self, y: int, x: int, y0: int, x0: int) -> None:
        """Count one match: this set-up's ``(y, x)`` and the baseline's ``(y0, x0)``."""
        self.n += 1
        self.y += y
        self.x += x
        self.yy += y * y
        self.xx += x * x
        self.xy += x * y
        self.y_y0 += y * y0
        self.y_x0 += y * x0
        self.x_y0 += x * y0
        self.x_x0 += x * x0

    def add_many(self, ys: Sequence[int], xs: Sequence[int], y0s: Sequence[int], x0s: Sequence[int]) -> None:
        """Count many matches at once (the same as :meth:`add` for each, faster)."""
        self.n += len(ys)
        self.y += sum(ys)
        self.x += sum(xs)
        self.yy += sum(y * y for y in ys)
        self.xx += sum(x * x for x in xs)
        self.xy += sum(map(int.__mul__, xs, ys))
        self.y_y0 += sum(map(int.__mul__, ys, y0s))
        self.y_x0 += sum(map(int.__mul__, ys, x0s))
        self.x_y0 += sum(map(int.__mul__, xs, y0s))
        self.x_x0 += sum(map(int.__mul__, xs, x0s))

    def add_arrays(self, ys: Any, xs: Any, y0s: Any, x0s: Any) -> None:
        """Count many matches given as integer numpy arrays (the same sums as :meth:`add` for each)."""
        self.n += len(ys)
        self.y += exact_dot(ys, None)
        self.x += exact_dot(xs, None)
        self.yy += exact_dot(ys, ys)
        self.xx += exact_dot(xs, xs)
        self.xy += exact_dot(xs, ys)
        self.y_y0 += exact_dot(ys, y0s)
        self.y_x0 += exact_dot(ys, x0s)
        self.x_y0 += exact_dot(xs, y0s)
        self.x_x0 += exact_dot(xs, x0s)

    def merge(self, other: Sums) -> None:
        """Add ``other``'s matches (disjoint from these) to these sums."""
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def residual_square(self) -> Fraction:
        """``Σe²`` with ``e = y - R x`` (exact; ``Σe = 0`` by the choice of ``R``)."""
        r = Fraction(self.y, self.x)
        return self.yy - 2 * r * self.xy + r * r * self.xx


@dataclass(frozen=True)
class Estimate:
    """One set-up's estimate of a measure with its 95% interval (``None`` without enough matches)."""

    value: float | None
    low: float | None
    high: float | None
    n: int
    """Matches counted."""
    se: float | None = None


@dataclass(frozen=True)
class Difference:
    """A set-up's estimate minus the baseline's, paired on the same matches."""

    value: float
    low: float | None
    high: float | None
    p: float | None
    """Two-sided p-value of "no difference" (before the correction for many comparisons)."""
    se: float | None
    unpaired_se: float | None
    """The standard error had the set-ups been played on independent seeds."""
    n: int

    @property
    def gain(self) -> float | None:
        """How many times smaller the paired variance is than the unpaired one (``None``: undefined)."""
        if self.se is None or self.unpaired_se is None or self.se == 0:
            return None
        return (self.unpaired_se / self.se) ** 2


def exact_dot(a: Any, b: Any | None) -> int:
    """``Σ a·b`` (``b`` ``None``: ``Σ a``) of two integer numpy arrays, as a Python int: in int64
    where no sum can overflow it, else in Python's integers.

    >>> import numpy as np
    >>> big = np.array([2**40, 2**40], dtype=np.int64)
    >>> exact_dot(big, big) == 2 * 2**80, exact_dot(big, None)
    (True, 2199023255552)
    """
    import numpy as np

    if len(a) == 0:
        return 0
    top = int(np.abs(a).max())
    other = 1 if b is None else int(np.abs(b).max())
    if top * other * len(a) < 2**63:
        return int(a.sum()) if b is None else int(np.dot(a, b))
    return sum(map(int.__mul__, a.tolist(), [1] * len(a) if b is None else b.tolist()))


def _ratio(s: Sums) -> Fraction:
    return Fraction(s.y, s.x)


def estimate(s: Sums) -> Estimate:
    """The ratio estimate of ``s`` with its 95% interval (delta method, match as cluster)."""
    if s.x == 0:
        return Estimate(None, None, None, s.n)
    r = _ratio(s)
    if s.n < 2:
        return Estimate(float(r), None, None, s.n)
    variance = Fraction(s.n, s.n - 1) * s.residual_square() / (s.x * s.x)
    se = math.sqrt(variance)
    half = critical(s.n - 1) * se
    return Estimate(float(r), float(r) - half, float(r) + half, s.n, se)


def difference(s: Sums, base: Sums) -> Difference | None:
    """``s``'s estimate minus ``base``'s (the baseline, whose values fed ``s``'s cross sums), paired
    match by match, with its 95% interval and p-value; ``None`` when either has no denominator."""
    if s.x == 0 or base.x == 0:
        return None
    if s.n != base.n:
        raise ValueError(f"paired sums need the same matches, not {s.n} and {base.n}")
    n = s.n
    r, r0 = _ratio(s), _ratio(base)
    value = float(r - r0)
    if n < 2:
        return Difference(value, None, None, None, None, None, n)
    ee = s.residual_square()
    ee0 = base.residual_square()
    cross = s.y_y0 - r0 * s.y_x0 - r * s.x_y0 + r * r0 * s.x_x0
    scale = Fraction(n, n - 1)
    own = ee / (s.x * s.x)
    theirs = ee0 / (base.x * base.x)
    paired = scale * (own + theirs - 2 * cross / (s.x * base.x))
    unpaired = scale * (own + theirs)
    se = math.sqrt(max(paired, Fraction(0)))
    unpaired_se = math.sqrt(unpaired)
    df = n - 1
    if paired <= 0:  # every match gave the same difference: no spread at all
        return Difference(value, value, value, 1.0 if r == r0 else 0.0, 0.0, unpaired_se, n)
    half = critical(df) * se
    return Difference(value, value - half, value + half, two_sided_p(value / se, df), se, unpaired_se, n)


# ---------------------------------------------------------------- the t and normal distributions


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function ``I_x(a, b)`` (continued fraction, Lentz's method)."""
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"x must be in [0, 1], not {x}")
    if x in (0.0, 1.0):
        return x
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x > (a + 1) / (a + b + 2):  # the fraction converges fast on this side only: use the symmetry
        return 1.0 - incomplete_beta(b, a, 1.0 - x)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 10_000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return front * result / a


def t_cdf(t: float, df: float) -> float:
    """Student's t distribution's cdf with ``df`` degrees of freedom."""
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def normal_cdf(z: float) -> float:
    return 0.5 * math.erfc(-z / math.sqrt(2))


def two_sided_p(statistic: float, df: int) -> float:
    """The two-sided p-value of ``statistic`` (t with ``df`` degrees of freedom; normal from
    :data:`NORMAL_FROM` matches on)."""
    if df + 1 >= NORMAL_FROM:
        return min(1.0, math.erfc(abs(statistic) / math.sqrt(2)))
    return min(1.0, 2 * t_cdf(-abs(statistic), df))


def critical(df: int) -> float:
    """The quantile of a two-sided 95% interval: Student's t with ``df`` degrees of freedom, normal
    from :data:`NORMAL_FROM` matches on.

    >>> round(critical(10), 4), round(critical(1), 3), round(critical(5000), 4)
    (2.2281, 12.706, 1.96)
    """
    if df + 1 >= NORMAL_FROM:
        return Z95
    low, high = Z95, 1e6
    for _ in range(200):  # bisection on the cdf
        middle = (low + high) / 2
        if t_cdf(middle, df) < 1 - ALPHA / 2:
            low = middle
        else:
            high = middle
        if high - low < 1e-12 * high:
            break
    return (low + high) / 2


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjustment of ``p_values`` (``None`` entries are not tests and stay ``None``):
    an adjusted value under :data:`ALPHA` is significant with the family-wise error rate held at ALPHA.

    >>> holm([0.01, 0.04, None, 0.03])
    [0.03, 0.06, None, 0.06]
    """
    tests = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    m = len(tests)
    out: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(tests):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = round(running, 12)
    return out


# ---------------------------------------------------------------- every measure of every set-up


@dataclass
class Accumulator:
    """The sums of every measure of every set-up of a study, paired with the set-up ``baseline``
    (an index). Accumulators of disjoint matches :meth:`merge` in any order to the same sums."""

    setups: int
    baseline: int = 0
    sums: list[dict[str, Sums]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.sums:
            self.sums = [{} for _ in range(self.setups)]

    @property
    def matches(self) -> int:
        return max((s.n for table in self.sums for s in table.values()), default=0)

    def add_matches(self, values: Sequence[Sequence[Mapping[str, tuple[int, int]]]]) -> None:
        """Count matches: ``values[s][j]`` is set-up ``s``'s values of the ``j``-th match (the same
        matches, in the same order, for every set-up)."""
        base = values[self.baseline]
        for setup, rows in enumerate(values):
            if len(rows) != len(base):
                raise ValueError("every set-up needs the values of the same matches")
            if not rows:
                continue
            table = self.sums[setup]
            for key in rows[0]:
                ys = [row[key][0] for row in rows]
                xs = [row[key][1] for row in rows]
                if key in base[0]:
                    y0s = [row[key][0] for row in base]
                    x0s = [row[key][1] for row in base]
                else:  # a measure the baseline has not: nothing to pair with
                    y0s = x0s = [0] * len(rows)
                table.setdefault(key, Sums()).add_many(ys, xs, y0s, x0s)

    def add_chunk(self, values: Sequence[Mapping[str, tuple[Any, Any]]]) -> None:
        """Count a chunk of matches: ``values[s]`` is set-up ``s``'s
        :func:`~unokit.analysis.measures.chunk_values` (numpy arrays over the same matches, in the
        same order, for every set-up); the same sums as :meth:`add_matches` of the matches' values."""
        import numpy as np

        base = values[self.baseline]
        size = len(base["capped"][0])
        for setup, columns in enumerate(values):
            if len(columns["capped"][0]) != size:
                raise ValueError("every set-up needs the values of the same matches")
            if not size:
                continue
            table = self.sums[setup]
            for key, (ys, xs) in columns.items():
                y0s, x0s = base.get(key, (np.zeros(size, dtype=np.int64),) * 2)  # (nothing to pair with)
                table.setdefault(key, Sums()).add_arrays(ys, xs, y0s, x0s)

    def merge(self, other: Accumulator) -> None:
        if (other.setups, other.baseline) != (self.setups, self.baseline):
            raise ValueError("only the sums of the same study merge")
        for mine, theirs in zip(self.sums, other.sums, strict=True):
            for key, s in theirs.items():
                mine.setdefault(key, Sums()).merge(s)

    def estimate(self, setup: int, key: str) -> Estimate | None:
        s = self.sums[setup].get(key)
        return None if s is None else estimate(s)

    def difference(self, setup: int, key: str) -> Difference | None:
        """Set-up ``setup`` minus the baseline on measure ``key`` (``None``: not both measure it)."""
        s, base = self.sums[setup].get(key), self.sums[self.baseline].get(key)
        if s is None or base is None or setup == self.baseline:
            return None
        return difference(s, base)


def merged(parts: Iterable[Accumulator], setups: int, baseline: int = 0) -> Accumulator:
    """One accumulator with the sums of ``parts``."""
    out = Accumulator(setups, baseline)
    for part in parts:
        out.merge(part)
    return out
