"""Rule sets compared on the same seeds: every measure with its interval and the paired difference.

:func:`run_study` plays every :class:`~unokit.analysis.measures.Setup` on matches ``0 … games - 1``
of one seed (match ``i`` is dealt from the same seed in every set-up: common random numbers) and
keeps, per measure and set-up, the exact sums of :mod:`unokit.analysis.paired`. Chunks of match
numbers run in worker processes; each plays every set-up on its matches and returns its sums, and
integer sums merge to the same totals in any order, so the result is the same for any number of
workers. :func:`study_result` turns the sums into a JSON-ready table: each set-up's estimate with
its 95% interval, and each set-up's difference to the baseline with its interval, p-value,
Holm-corrected p-value and the pairing's gain. :func:`write_compare_report` writes it as Markdown
with plots (matplotlib) that name every rule set. Given a :class:`~unokit.analysis.rows.RowWriter`,
:func:`run_study` also writes every match's rows under every set-up (``setup`` names it), in match
order and then set-up order, whatever the number of workers.

The measures are whatever :func:`unokit.analysis.measures.measures_for` returns for each set-up.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from unokit.analysis.measures import (
    Measure,
    Setup,
    chunk_values,
    match_values,
    measures_for,
    play_fast_arrays,
    play_matches,
)
from unokit.analysis.paired import ALPHA, NORMAL_FROM, Accumulator, Difference, Estimate, holm
from unokit.analysis.tournament import Interrupted, Progress, default_workers, require_matplotlib, run_parallel

if TYPE_CHECKING:
    from unokit.analysis.rows import Row, RowWriter

__all__ = [
    "ChunkSpec",
    "Study",
    "chunk_size",
    "plan_chunks",
    "play_chunk",
    "play_chunk_rows",
    "run_study",
    "study_result",
    "write_compare_report",
]


@dataclass(frozen=True)
class ChunkSpec:
    """Matches ``start`` … ``start + count - 1`` of ``seed``, to play under every set-up."""

    setups: tuple[Setup, ...]
    seed: int
    start: int
    count: int
    baseline: int = 0


def play_chunk(spec: ChunkSpec) -> Accumulator:
    """Play the chunk's matches under every set-up and return their sums (runs in a worker). On the
    compiled engine the values of the whole chunk are computed at once, on its arrays."""
    sums = Accumulator(len(spec.setups), spec.baseline)
    if all(setup.engine == "fast" for setup in spec.setups):
        sums.add_chunk([chunk_values(s, play_fast_arrays(s, spec.seed, spec.start, spec.count)) for s in spec.setups])
        return sums
    return play_chunk_rows(spec, rows=False)[0]


def play_chunk_rows(spec: ChunkSpec, rows: bool = True) -> tuple[Accumulator, list[Row]]:
    """Play the chunk's matches under every set-up, match by match (each match's
    :class:`~unokit.analysis.stats.MatchSummary`, on either engine), and return their sums, the same
    as :func:`play_chunk`'s, and (``rows``) their rows: match by match, each under every set-up in
    turn (runs in a worker)."""
    from unokit.analysis.rows import match_rows

    sums = Accumulator(len(spec.setups), spec.baseline)
    played = [play_matches(setup, spec.seed, spec.start, spec.count) for setup in spec.setups]
    sums.add_matches(
        [[match_values(setup, match) for match in matches] for setup, matches in zip(spec.setups, played, strict=True)]
    )
    out: list[Row] = []
    if rows:
        for offset in range(spec.count):
            for setup, matches in zip(spec.setups, played, strict=True):
                out += match_rows(setup, spec.seed, spec.start + offset, matches[offset])
    return sums, out


WAVE = 256
"""Chunks handed out per worker at a time: their sums are merged before the next wave, so that
memory stays flat in the number of matches."""

ROWS_WAVE = 32
"""Chunks handed out per worker at a time when their rows are written (the rows of a wave are held
until written): 128 matches per worker on the Python engine, whose process pool starts once per
wave (256 matches of 4 players on 2 workers with rows: 23 s in one wave, 28 s in two; 22 s without)."""

ROWS_WAVE_FAST = 2
"""The same on the compiled engine, whose chunks of :data:`ROWS_CHUNK` matches play in this process
(the rows of 8 such chunks held at once took 640 MB against 360 MB for 2, in the same time)."""

ROWS_CHUNK = 50
"""The most matches of a compiled-engine chunk whose rows are written."""


def chunk_size(setups: Sequence[Setup], games: int, workers: int, rows: bool = False) -> int:
    """Matches per chunk: about eight chunks per worker, at most 4 matches (Python engine: a worker
    takes up to 16 chunks at a time) or 1,000 (compiled engine; :data:`ROWS_CHUNK` with ``rows``),
    so that progress shows and Ctrl-C stops soon and loses little."""
    largest = (ROWS_CHUNK if rows else 1000) if all(s.engine == "fast" for s in setups) else 4
    return max(1, min(largest, math.ceil(games / (8 * workers))))


def plan_chunks(
    setups: Sequence[Setup],
    games: int,
    seed: int,
    workers: int,
    baseline: int = 0,
    first: int = 0,
    last: int = -1,
    rows: bool = False,
) -> list[ChunkSpec]:
    """The chunks numbered ``first`` to ``last`` (excluded; -1: every one) of a study's matches."""
    size = chunk_size(setups, games, workers, rows)
    starts = range(0, games, size)[first : None if last < 0 else last]
    return [ChunkSpec(tuple(setups), seed, start, min(size, games - start), baseline) for start in starts]


@dataclass
class Study:
    """The sums of a study and how it was played."""

    setups: tuple[Setup, ...]
    seed: int
    games_planned: int
    sums: Accumulator
    workers: int
    elapsed_s: float
    partial: bool = False
    rows_written: int | None = None
    """Rows written to a ``--rows`` file (``None``: none asked for)."""

    @property
    def games(self) -> int:
        """Matches played under every set-up."""
        return self.sums.matches


def run_study(
    setups: Sequence[Setup],
    games: int,
    seed: int,
    workers: int | None = None,
    progress: Progress | None = None,
    baseline: int = 0,
    *,
    ray: str | None = None,
    rows: RowWriter | None = None,
) -> Study:
    """Play ``games`` matches of ``seed`` under every set-up (``setups[baseline]`` is the baseline).

    The sums follow from ``seed`` whatever the number of ``workers`` (processes for the Python
    engine; the compiled engine plays in this process, on every core). ``rows``: every match's rows
    under every set-up are written there (:func:`play_chunk_rows`), chunk by chunk in match order,
    the same for any number of workers; the sums stay the same. Ctrl-C stops every worker and
    raises :class:`~unokit.analysis.tournament.Interrupted` whose ``partial`` is the
    :class:`Study` of the chunks finished (``partial`` true; their rows written)."""
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if len(setups) < 1 or not 0 <= baseline < len(setups):
        raise ValueError("a study needs set-ups and a baseline among them")
    workers = default_workers() if workers is None else workers
    if ray is None and any(setup.engine == "fast" for setup in setups):
        workers = 1  # the compiled engine plays each chunk on every core itself (and its threads forbid forks)
    with_rows = rows is not None
    size = chunk_size(setups, games, workers, with_rows)
    count = math.ceil(games / size)
    fast = all(setup.engine == "fast" for setup in setups)
    step = ((ROWS_WAVE_FAST if fast else ROWS_WAVE) if with_rows else WAVE) * workers
    sums = Accumulator(len(setups), baseline)
    started = time.perf_counter()
    interrupted = False
    try:
        for first in range(0, count, step):
            wave = plan_chunks(setups, games, seed, workers, baseline, first, first + step, with_rows)

            def advance(done: int, _total: int, offset: int = first * size) -> None:
                if progress is not None:
                    progress(min(games, offset + done * size), games)

            play: Any = play_chunk_rows if with_rows else play_chunk
            try:
                parts = run_parallel(play, wave, workers, advance if progress is not None else None, ray=ray)
            except Interrupted as stop:
                parts, interrupted = stop.partial, True
            for part in parts:
                if part is None:
                    continue
                if rows is not None:
                    part, chunk_rows = part
                    rows.write(chunk_rows)
                sums.merge(part)
            if interrupted:
                break
    except KeyboardInterrupt:  # between two waves
        interrupted = True
    if interrupted:
        elapsed = time.perf_counter() - started
        raise Interrupted(Study(tuple(setups), seed, games, sums, workers, elapsed, partial=True))
    return Study(tuple(setups), seed, games, sums, workers, time.perf_counter() - started)


# ---------------------------------------------------------------- the table


def study_measures(setups: Sequence[Setup]) -> list[Measure]:
    """Every measure of any set-up, in report order (the baseline's first, then the others' own)."""
    seen: dict[str, Measure] = {}
    for setup in setups:
        for measure in measures_for(setup):
            seen.setdefault(measure.key, measure)
    return list(seen.values())


def _estimate_dict(e: Estimate | None) -> dict[str, Any] | None:
    if e is None or e.value is None:
        return None
    return {"value": e.value, "low": e.low, "high": e.high, "se": e.se, "matches": e.n}


def _difference_dict(d: Difference | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {
        "value": d.value,
        "low": d.low,
        "high": d.high,
        "p": d.p,
        "se": d.se,
        "unpaired_se": d.unpaired_se,
        "gain": d.gain,
    }


def setup_dict(setup: Setup) -> dict[str, Any]:
    """A set-up's settings, JSON-ready."""
    return {
        "name": setup.label,
        "edition": setup.edition,
        "players": setup.players,
        "bots": list(setup.bots),
        "rules": setup.rules.to_dict(),
        "rule_cards": list(setup.rule_cards) if setup.rule_cards is not None else None,
        "engine": setup.engine,
        "max_decisions": setup.max_decisions,
    }


def study_result(study: Study, keys: Sequence[str] | None = None) -> dict[str, Any]:
    """The study as a JSON-ready dict: ``setups`` (settings, ``name`` first), ``baseline`` (its
    index), ``games`` (matches played under each), ``games_planned``, ``seed``, ``partial``,
    ``elapsed_s``, ``alpha`` and ``measures``: one entry per measure (``keys``: only those, in that
    order) with ``key``, ``label``, ``kind`` (rate or mean), ``group``, ``estimates`` (per set-up:
    ``value``, ``low``, ``high``, ``se``, ``matches``, or ``None`` where it does not apply) and
    ``differences`` (per set-up, ``None`` for the baseline: ``value``, ``low``, ``high``, ``p``,
    ``holm_p`` (corrected over every difference of the table), ``significant``, ``se``,
    ``unpaired_se`` and ``gain``, the unpaired variance over the paired one)."""
    sums = study.sums
    measures = study_measures(study.setups)
    if keys is not None:
        known = {m.key: m for m in measures}
        measures = [known[key] for key in keys if key in known]
    rows: list[dict[str, Any]] = []
    for m in measures:
        estimates = [_estimate_dict(sums.estimate(i, m.key)) for i in range(len(study.setups))]
        differences = [_difference_dict(sums.difference(i, m.key)) for i in range(len(study.setups))]
        rows.append(
            {
                "key": m.key,
                "label": m.label,
                "kind": m.kind,
                "group": m.group,
                "estimates": estimates,
                "differences": differences,
            }
        )
    cells = [d for row in rows for d in row["differences"] if d is not None]
    for d, adjusted in zip(cells, holm([d["p"] for d in cells]), strict=True):
        d["holm_p"] = adjusted
        d["significant"] = adjusted is not None and adjusted < ALPHA
    return {
        "setups": [setup_dict(s) for s in study.setups],
        "baseline": sums.baseline,
        "games": study.games,
        "games_planned": study.games_planned,
        "seed": study.seed,
        "partial": study.partial,
        "workers": study.workers,
        "elapsed_s": round(study.elapsed_s, 3),
        "alpha": ALPHA,
        "tests": len(cells),
        "measures": rows,
    }


# ---------------------------------------------------------------- text


def decimals(kind: str, half_width: float | None) -> int:
    """Decimals that show an interval of ``half_width`` with two significant digits (2 to 5)."""
    if not half_width:
        return 2
    scaled = 100 * half_width if kind == "rate" else half_width
    return max(2, min(5, 1 - math.floor(math.log10(scaled))))


def format_value(kind: str, value: float | None, places: int = 2) -> str:
    """A rate as a percentage, a mean as a number, with ``places`` decimals."""
    if value is None:
        return "–"
    return f"{100 * value:.{places}f}%" if kind == "rate" else f"{value:.{places}f}"


def format_estimate(kind: str, e: dict[str, Any] | None) -> str:
    """``value [low, high]``."""
    if e is None:
        return "–"
    if e["low"] is None:
        return format_value(kind, e["value"])
    places = decimals(kind, (e["high"] - e["low"]) / 2)
    value, low, high = (format_value(kind, e[k], places) for k in ("value", "low", "high"))
    return f"{value} [{low}, {high}]"


def format_difference(kind: str, d: dict[str, Any] | None) -> str:
    """``+value [low, high]``, in percentage points for a rate; bold and starred when significant."""
    if d is None:
        return "–"
    places = decimals(kind, (d["high"] - d["low"]) / 2 if d["low"] is not None else None)

    def show(v: float) -> str:
        return f"{100 * v:+.{places}f} pp" if kind == "rate" else f"{v:+.{places}f}"

    text = show(d["value"]) if d["low"] is None else f"{show(d['value'])} [{show(d['low'])}, {show(d['high'])}]"
    return f"**{text}** \\*" if d.get("significant") else text


def format_p(p: float | None) -> str:
    if p is None:
        return "–"
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


def format_gain(d: dict[str, Any] | None) -> str:
    if d is None or d["gain"] is None:
        return "–"
    return f"{d['gain']:.1f}×"


def method_lines(result: dict[str, Any]) -> list[str]:
    """How the intervals and p-values were made, for a report."""
    reference = (
        "the normal distribution"
        if result["games"] >= NORMAL_FROM
        else f"Student's t with {result['games'] - 1} degrees of freedom"
    )
    return [
        f"Every rule set played the same {result['games']} match seeds (common random numbers: the same deals "
        "as far as the rules allow), so the differences are paired match by match. Each figure is a ratio "
        "over matches (e.g. rounds won over rounds played); its 95% interval treats the match as the unit "
        f"(delta method), with {reference}. A difference's interval and two-sided p-value come from the "
        "per-match difference of the two ratio estimators; *gain* is how many times smaller the paired "
        "variance is than it would be on independent seeds.",
        "",
        f"The {result['tests']} differences of the table are corrected for multiple comparisons with Holm's "
        f"method: a difference marked **bold \\*** is significant at {int(100 * (1 - ALPHA))}% family-wise "
        "(Holm-adjusted p below 0.05). Rates are shown in percent, their differences in percentage points (pp).",
    ]


def _capped_lines(result: dict[str, Any]) -> list[str]:
    capped = next((row for row in result["measures"] if row["key"] == "capped"), None)
    if capped is None:
        return []
    names = [s["name"] for s in result["setups"]]
    lines = ["## Matches stopped at the cap on decisions", ""]
    lines.append("| rule set | capped matches | share |")
    lines.append("| --- | --- | --- |")
    for name, e in zip(names, capped["estimates"], strict=True):
        count = round(e["value"] * e["matches"]) if e else 0
        lines.append(f"| {name} | {count} of {e['matches'] if e else 0} | {format_estimate('rate', e)} |")
    lines += [
        "",
        "A capped match counts only here: every other figure is over the finished matches.",
        "",
    ]
    return lines


def render_compare_markdown(result: dict[str, Any], command: str | None = None, plots: Sequence[str] = ()) -> str:
    """The report of :func:`study_result` as Markdown (plots referenced by file name)."""
    setups = result["setups"]
    names = [s["name"] for s in setups]
    base = result["baseline"]
    title = " vs ".join(f"{name}" for name in names)
    lines = [f"# Comparing rule sets: {title}", ""]
    if result["partial"]:
        lines += [
            f"**PARTIAL**: interrupted after {result['games']} of {result['games_planned']} matches; the "
            "figures are over the matches finished.",
            "",
        ]
    if command:
        lines += [f"Made with `{command}`.", ""]
    lines += ["| rule set | edition | players | bots | rules | engine |", "| --- | --- | --- | --- | --- | --- |"]
    for i, s in enumerate(setups):
        rules = ", ".join(f"{k}={json.dumps(v)}" for k, v in s["rules"].items()) or "default rules"
        role = " (baseline)" if i == base else ""
        lines.append(
            f"| **{s['name']}**{role} | {s['edition']} | {s['players']} | {', '.join(s['bots'])} | {rules} "
            f"| {s['engine']} |"
        )
    lines += [
        "",
        f"{result['games']} matches per rule set, seed {result['seed']}, {result['elapsed_s']:.1f} s on "
        f"{result['workers']} worker{'s' if result['workers'] != 1 else ''}.",
        "",
    ]
    lines += _capped_lines(result)
    lines += ["## Measures", ""]
    lines += method_lines(result)
    lines.append("")
    others = [i for i in range(len(setups)) if i != base]
    head = ["measure"] + [names[i] for i in range(len(setups))]
    for i in others:
        head += [f"{names[i]} − {names[base]}", "p", "Holm p", "gain"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("| " + " | ".join("---" for _ in head) + " |")
    for row in result["measures"]:
        if row["key"] == "capped":
            continue
        cells = [row["label"]] + [format_estimate(row["kind"], e) for e in row["estimates"]]
        for i in others:
            d = row["differences"][i]
            cells += [
                format_difference(row["kind"], d),
                format_p(d["p"] if d else None),
                format_p(d.get("holm_p") if d else None),
                format_gain(d),
            ]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    for plot in plots:
        lines += [f"![{Path(plot).stem}]({Path(plot).name})", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------- plots


def new_figure(width: float, height: float) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig


def save_figure(fig: Any, path: Path, title: str, names: Sequence[str]) -> Path:
    """Write ``fig`` as PNG, its ``title`` and the rule sets' ``names`` also in the file's text fields."""
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=100, metadata={"Title": title, "Description": "; ".join(names)})
    return path


def plot_differences(result: dict[str, Any], path: Path) -> Path:
    """A forest plot: each rule set's difference to the baseline on every measure, as a percentage
    of the baseline's value, with its 95% interval; significant ones filled."""
    names = [s["name"] for s in result["setups"]]
    base = result["baseline"]
    rows = [
        r
        for r in result["measures"]
        if r["key"] != "capped" and r["estimates"][base] is not None and r["estimates"][base]["value"]
    ]
    others = [i for i in range(len(names)) if i != base]
    legends = setup_legends(result)
    fig = new_figure(9, max(3.0, 0.32 * len(rows) * max(1, len(others)) ** 0.5 + 1.6))
    ax = fig.add_subplot()
    step = 0.8 / max(1, len(others))
    for number, i in enumerate(others):
        ys, xs, lows, highs, filled = [], [], [], [], []
        for position, row in enumerate(rows):
            d = row["differences"][i]
            if d is None:
                continue
            scale = 100 / abs(row["estimates"][base]["value"])
            low = d["low"] if d["low"] is not None else d["value"]
            high = d["high"] if d["high"] is not None else d["value"]
            ys.append(position + (number - (len(others) - 1) / 2) * step)
            xs.append(d["value"] * scale)
            lows.append((d["value"] - low) * scale)
            highs.append((high - d["value"]) * scale)
            filled.append(bool(d.get("significant")))
        colour = f"C{number}"
        ax.errorbar(xs, ys, xerr=[lows, highs], fmt="none", ecolor=colour, capsize=3)
        ax.scatter(
            xs,
            ys,
            color=[colour if f else "white" for f in filled],
            edgecolors=colour,
            zorder=3,
            label=f"{legends[i]} − {legends[base]}",
        )
    ax.axvline(0, color="grey", linestyle="--")
    ax.set_yticks(range(len(rows)), [r["label"] for r in rows])
    ax.invert_yaxis()
    ax.set_xlabel(f"difference to {names[base]}, % of {names[base]}'s value (95% CI; filled: significant, Holm)")
    shared = shared_settings(result["setups"])
    shared = "" if shared == "nothing" else shared
    title = f"{', '.join(names[i] for i in others)} vs {names[base]} ({result['games']} paired matches"
    title += f")\n{shared}" if shared else ")"
    ax.set_title(title)
    ax.legend(loc="best", fontsize="small")
    return save_figure(fig, path, title, names)


def setup_legends(result: dict[str, Any]) -> list[str]:
    """Each rule set's name with what sets it apart from the others (``cross (stacking=cross)``)."""
    setups = result["setups"]

    def facts(setup: dict[str, Any]) -> dict[str, str]:
        out = {"edition": setup["edition"], "players": f"{setup['players']}p", "engine": setup["engine"]}
        bots = setup["bots"]
        out["bots"] = bots[0] if len(set(bots)) == 1 else "/".join(bots)
        out.update({key: f"{key}={value}" for key, value in setup["rules"].items()})
        return out

    described = [facts(setup) for setup in setups]
    keys = {key for d in described for key in d}
    differing = [k for k in sorted(keys) if len({d.get(k) for d in described}) > 1]
    legends = []
    for setup, d in zip(setups, described, strict=True):
        parts = [d[k] for k in differing if k in d]
        if not parts and any(k not in d for k in differing):
            parts = ["default rules"]
        text = ", ".join(parts)
        legends.append(f"{setup['name']} ({text})" if text and text != setup["name"] else setup["name"])
    return legends


def shared_settings(setups: Sequence[dict[str, Any]]) -> str:
    """The settings every cell has alike, in words."""
    first = setups[0]
    words = [
        text
        for key, text in (
            ("edition", f"edition {first['edition']}"),
            ("players", f"{first['players']} players"),
            ("bots", f"{', '.join(dict.fromkeys(first['bots']))} bots"),
            ("engine", f"the {first['engine']} engine"),
        )
        if all(_alike(key, s[key]) == _alike(key, first[key]) for s in setups)
    ]
    rules = [(k, v) for k, v in setups[0]["rules"].items() if all(s["rules"].get(k) == v for s in setups)]
    words += [f"{k}={json.dumps(v)}" for k, v in rules]
    return ", ".join(words) or "nothing"


def _alike(key: str, value: Any) -> Any:
    return list(dict.fromkeys(value)) if key == "bots" else value  # the same kinds, whatever the players


def plot_seats(result: dict[str, Any], path: Path) -> Path:
    """The round win rate of each seat (relative to the dealer) and of the first player, for every
    rule set side by side, with 95% intervals."""
    names = [s["name"] for s in result["setups"]]
    legends = setup_legends(result)
    rows = [r for r in result["measures"] if r["group"] == "seats"]
    fig = new_figure(max(6.0, 1.1 * len(rows) + 2), 4.2)
    ax = fig.add_subplot()
    width = 0.8 / len(names)
    for i in range(len(names)):
        xs, ys, errors_low, errors_high = [], [], [], []
        for position, row in enumerate(rows):
            e = row["estimates"][i]
            if e is None:
                continue
            xs.append(position + (i - (len(names) - 1) / 2) * width)
            ys.append(100 * e["value"])
            errors_low.append(100 * (e["value"] - (e["low"] if e["low"] is not None else e["value"])))
            errors_high.append(100 * ((e["high"] if e["high"] is not None else e["value"]) - e["value"]))
        ax.bar(xs, ys, width, yerr=[errors_low, errors_high], capsize=3, label=legends[i], color=f"C{i}", alpha=0.85)
    labels = [_seat_label(r["label"]) for r in rows]
    ax.set_xticks(range(len(rows)), labels, rotation=20)
    ax.set_ylabel("round win rate, % (95% CI)")
    shared = shared_settings(result["setups"])
    shared = "" if shared == "nothing" else shared
    title = "Seat edges: " + " vs ".join(names) + (f"\n{shared}" if shared else "")
    ax.set_title(title)
    ax.legend(loc="best", fontsize="small")
    return save_figure(fig, path, title, names)


def _seat_label(label: str) -> str:
    return label.replace("first player's round win rate", "first player").replace("round win rate, ", "")


DIFFERENCES_PLOT = "differences.png"
SEATS_PLOT = "seats.png"


def write_compare_report(out: str | Path, result: dict[str, Any], command: str | None = None) -> dict[str, Any]:
    """Write ``out/report.md``, ``out/result.json`` and the plots; returns ``{"report", "json", "plots"}``."""
    require_matplotlib()
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    plots: list[str] = []
    if result["games"] > 0:
        if len(result["setups"]) > 1:
            plots.append(str(plot_differences(result, folder / DIFFERENCES_PLOT)))
        plots.append(str(plot_seats(result, folder / SEATS_PLOT)))
    report = folder / "report.md"
    report.write_text(render_compare_markdown(result, command, plots), encoding="utf-8")
    data = folder / "result.json"
    data.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return {"report": str(report), "json": str(data), "plots": plots}
