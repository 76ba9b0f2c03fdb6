"""Sweeps: a grid over rule options, editions, player counts and bots, every cell compared with a
baseline cell on the same seeds.

A grid is a list of axes, each a name and its values (strings, as typed on the command line):
``edition``, ``players``, ``bots`` (one kind for every seat, or one per seat joined by ``/``),
``engine``, ``preset``, ``scoring``, ``target`` or any rule option (``stacking``, ``seven_o``, ...).
:func:`cells` lists every combination (the first axis varies slowest) and :func:`cell_tokens`
turns one into command-line options, which the caller reads with the same option parser as the
rest of the rule set. The baseline cell is the first value of each axis unless stated.

The study itself is :func:`unokit.analysis.compare.run_study` over the cells; :func:`sweep_rows`
makes one row per cell of its result, written as Markdown, CSV and plots.
"""

from __future__ import annotations

import csv
import json
import math
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from unokit.analysis.compare import (
    format_difference,
    format_estimate,
    format_p,
    format_value,
    method_lines,
    shared_settings,
)
from unokit.engine.errors import SetupError, UnknownOptionError
from unokit.engine.rules import OPTIONS

SETUP_AXES = ("edition", "players", "bots", "engine", "preset", "scoring", "target")
"""Axes that are options of the rule set itself; every other axis is a rule option (``--rule``)."""

DEFAULT_MEASURES = (
    "capped",
    "decisions_per_round",
    "decisions_per_match",
    "rounds_per_match",
    "first_player_win_rate",
    "points_per_round",
)
"""The measures a sweep shows unless told otherwise."""

MAX_CELLS = 256

Grid = list[tuple[str, list[str]]]
Cell = dict[str, str]


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int)):
        return str(value)
    raise SetupError(f"a grid value is a string, a number or true/false, not {value!r}")


def check_axis(name: str, values: Sequence[str]) -> None:
    if name not in SETUP_AXES and name not in OPTIONS:
        raise UnknownOptionError(
            f"unknown grid axis {name!r}: use {', '.join(SETUP_AXES)} or a rule option ({', '.join(sorted(OPTIONS))})"
        )
    if not values or any(not v.strip() for v in values):
        raise SetupError(f"grid axis {name!r} needs values separated by commas, none empty")
    if len(set(values)) != len(values):
        raise SetupError(f"grid axis {name!r} repeats a value")


def parse_grid(texts: Sequence[str]) -> Grid:
    """``["stacking=off,cross", "players=2,4"]`` → the axes."""
    grid: Grid = []
    for text in texts:
        name, sep, rest = text.partition("=")
        name = name.strip()
        if not sep or not name:
            raise SetupError(f"--grid takes NAME=VALUE,VALUE,..., not {text!r}")
        values = [v.strip() for v in rest.split(",")]
        check_axis(name, values)
        grid.append((name, values))
    _check_grid(grid)
    return grid


def parse_baseline(texts: Sequence[str], grid: Grid) -> Cell:
    """``["stacking=off"]`` → the baseline cell (the first value of every axis not named)."""
    chosen: dict[str, Any] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep:
            raise SetupError(f"--baseline takes NAME=VALUE, not {text!r}")
        chosen[name.strip()] = value.strip()
    return baseline_cell(grid, chosen)


def baseline_cell(grid: Grid, chosen: Mapping[str, Any]) -> Cell:
    axes = dict(grid)
    cell = {name: values[0] for name, values in grid}
    for name, value in chosen.items():
        if name not in axes:
            raise SetupError(f"the baseline names {name!r}, which is not an axis of the grid")
        text = _value_text(value)
        if text not in axes[name]:
            raise SetupError(f"the baseline's {name}={text} is not among the grid's values {', '.join(axes[name])}")
        cell[name] = text
    return cell


def _check_grid(grid: Grid) -> None:
    names = [name for name, _ in grid]
    if not grid:
        raise SetupError("a sweep needs a grid: --grid NAME=VALUE,VALUE (or a --config file)")
    if len(set(names)) != len(names):
        raise SetupError("a grid axis is given twice")
    size = math.prod(len(values) for _, values in grid)
    if size < 2:
        raise SetupError("a grid needs at least two cells")
    if size > MAX_CELLS:
        raise SetupError(f"the grid has {size} cells; at most {MAX_CELLS}")


def load_config(path: str) -> tuple[Grid, dict[str, Any], list[str] | None, str]:
    """A TOML sweep: ``options`` (the rule set's options shared by every cell, as on the command
    line), ``[grid]`` (each axis a list of values), ``[baseline]`` (optional: a value per axis) and
    ``measures`` (optional list). Returns the grid, the baseline's values, the measures and the options."""
    try:
        with open(path, "rb") as file:
            data = tomllib.load(file)
    except OSError as exc:
        raise SetupError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SetupError(f"{path} is not valid TOML: {exc}") from None
    unknown = set(data) - {"grid", "baseline", "measures", "options"}
    if unknown:
        raise SetupError(f"{path}: unknown key {sorted(unknown)[0]!r}; known: options, grid, baseline, measures")
    table = data.get("grid")
    if not isinstance(table, dict) or not table:
        raise SetupError(f"{path}: needs a [grid] table, each axis a list of values")
    grid: Grid = []
    for name, values in table.items():
        if not isinstance(values, list):
            raise SetupError(f"{path}: grid axis {name!r} must be a list of values")
        texts = [_value_text(v) for v in values]
        check_axis(name, texts)
        grid.append((name, texts))
    _check_grid(grid)
    baseline = data.get("baseline", {})
    if not isinstance(baseline, dict):
        raise SetupError(f"{path}: [baseline] must be a table of axis = value")
    measures = data.get("measures")
    if measures is not None and (not isinstance(measures, list) or not all(isinstance(m, str) for m in measures)):
        raise SetupError(f"{path}: measures must be a list of measure names")
    options = data.get("options", "")
    if not isinstance(options, str):
        raise SetupError(f"{path}: options must be a string of command-line options")
    return grid, baseline, measures, options


def cells(grid: Grid) -> list[Cell]:
    """Every combination of the axes' values, the first axis varying slowest."""
    out: list[Cell] = [{}]
    for name, values in grid:
        out = [{**cell, name: value} for cell in out for value in values]
    return out


def cell_name(cell: Cell) -> str:
    return ", ".join(f"{name}={value}" for name, value in cell.items())


def cell_tokens(cell: Cell) -> list[str]:
    """The command-line options of one cell."""
    tokens: list[str] = []
    for name, value in cell.items():
        if name == "bots":
            tokens += ["--bots", value.replace("/", ",")]
        elif name in SETUP_AXES:
            tokens += [f"--{name}", value]
        else:
            tokens += ["--rule", f"{name}={value}"]
    return tokens


# ---------------------------------------------------------------- the rows


def sweep_rows(result: dict[str, Any], grid: Grid) -> list[dict[str, Any]]:
    """One flat row per cell of a study's result: the axes' values, then for each measure its
    value, interval and difference to the baseline (with ``p``, ``holm_p``, ``significant`` and the
    pairing's ``gain``)."""
    rows: list[dict[str, Any]] = []
    for i, setup in enumerate(result["setups"]):
        row: dict[str, Any] = {"cell": setup["name"], "baseline": i == result["baseline"]}
        row.update(setup.get("cell", {}))
        row["matches"] = result["games"]
        for m in result["measures"]:
            e, d = m["estimates"][i], m["differences"][i]
            key = m["key"]
            row[key] = e["value"] if e else None
            row[f"{key}_low"] = e["low"] if e else None
            row[f"{key}_high"] = e["high"] if e else None
            row[f"{key}_diff"] = d["value"] if d else None
            row[f"{key}_diff_low"] = d["low"] if d else None
            row[f"{key}_diff_high"] = d["high"] if d else None
            row[f"{key}_p"] = d["p"] if d else None
            row[f"{key}_holm_p"] = d["holm_p"] if d else None
            row[f"{key}_significant"] = d["significant"] if d else None
            row[f"{key}_gain"] = d["gain"] if d else None
        rows.append(row)
    return rows


def write_csv(path: Path, rows: Sequence[dict[str, Any]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def render_sweep_markdown(
    result: dict[str, Any], grid: Grid, command: str | None = None, plots: Sequence[str] = ()
) -> str:
    """The sweep's report: one row per cell, each measure with its interval and its difference to
    the baseline cell (significant ones marked)."""
    names = [s["name"] for s in result["setups"]]
    base = result["baseline"]
    axes = ", ".join(f"{name} ({', '.join(values)})" for name, values in grid)
    lines = [f"# Sweep over {axes}", ""]
    if result["partial"]:
        lines += [
            f"**PARTIAL**: interrupted after {result['games']} of {result['games_planned']} matches per cell; "
            "the figures are over the matches finished.",
            "",
        ]
    if command:
        lines += [f"Made with `{command}`.", ""]
    lines += [
        f"{len(names)} cells, {result['games']} matches each, seed {result['seed']}; baseline cell: "
        f"**{names[base]}**. Shared by every cell: {shared_settings(result['setups'])}. "
        f"{result['elapsed_s']:.1f} s.",
        "",
    ]
    lines += method_lines(result)
    lines.append("")
    measures = result["measures"]
    head = [name for name, _ in grid]
    for m in measures:
        head += ["capped"] if m["key"] == "capped" else [m["label"], "Δ, p"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("| " + " | ".join("---" for _ in head) + " |")
    for i, setup in enumerate(result["setups"]):
        cell = setup.get("cell", {})
        values = [f"**{cell.get(name, '')}**" if i == base else cell.get(name, "") for name, _ in grid]
        for m in measures:
            e, d = m["estimates"][i], m["differences"][i]
            if m["key"] == "capped":
                values.append(f"{round(e['value'] * e['matches'])} ({format_value('rate', e['value'])})" if e else "–")
                continue
            delta = "baseline" if i == base else format_difference(m["kind"], d)
            if d is not None and i != base:
                delta += f" (p {format_p(d['p'])})"
            values += [format_estimate(m["kind"], e), delta]
        lines.append("| " + " | ".join(values) + " |")
    lines += ["", "Rows: the cells; Δ: the cell minus the baseline cell on the same seeds.", ""]
    for plot in plots:
        lines += [f"![{Path(plot).stem}]({Path(plot).name})", ""]
    return "\n".join(lines)


def plot_sweep(result: dict[str, Any], path: Path) -> Path:
    """One panel per measure: every cell's value with its 95% interval, named, the baseline cell's
    value as a dashed line; filled dots differ significantly from it (Holm)."""
    from unokit.analysis.compare import new_figure, save_figure

    names = [s["name"] for s in result["setups"]]
    base = result["baseline"]
    measures = [m for m in result["measures"] if m["key"] != "capped" or any(e and e["value"] for e in m["estimates"])]
    columns = min(3, len(measures))
    rows = math.ceil(len(measures) / columns)
    fig = new_figure(5.2 * columns, max(2.6, 0.35 * len(names) + 1.4) * rows)
    for number, m in enumerate(measures):
        ax = fig.add_subplot(rows, columns, number + 1)
        scale = 100 if m["kind"] == "rate" else 1
        for i, e in enumerate(m["estimates"]):
            if e is None:
                continue
            d = m["differences"][i]
            low = e["low"] if e["low"] is not None else e["value"]
            high = e["high"] if e["high"] is not None else e["value"]
            colour = "black" if i == base else ("tab:red" if d and d["significant"] else "tab:blue")
            ax.errorbar(
                [scale * e["value"]],
                [i],
                xerr=[[scale * (e["value"] - low)], [scale * (high - e["value"])]],
                fmt="o",
                color=colour,
                mfc=colour if i == base or (d and d["significant"]) else "white",
                capsize=3,
            )
        baseline = m["estimates"][base]
        if baseline is not None:
            ax.axvline(scale * baseline["value"], color="grey", linestyle="--")
        ax.set_yticks(range(len(names)), names if number % columns == 0 else [""] * len(names), fontsize="small")
        ax.invert_yaxis()
        ax.set_title(m["label"] + (" (%)" if m["kind"] == "rate" else ""), fontsize="medium")
    shared = shared_settings(result["setups"])
    title = f"Sweep{f' of {shared}' if shared != 'nothing' else ''}, {result['games']} matches per cell; "
    title += f"baseline {names[base]} (dashed); red: differs (Holm)"
    fig.suptitle(title, fontsize="medium")
    return save_figure(fig, path, title, names)


def write_sweep_report(out: str | Path, result: dict[str, Any], grid: Grid, command: str | None) -> dict[str, Any]:
    """Write ``out/report.md``, ``out/result.json``, ``out/cells.csv`` and ``out/sweep.png``."""
    from unokit.analysis.tournament import require_matplotlib

    require_matplotlib()
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    plots = [str(plot_sweep(result, folder / "sweep.png"))] if result["games"] else []
    report = folder / "report.md"
    report.write_text(render_sweep_markdown(result, grid, command, plots), encoding="utf-8")
    data = folder / "result.json"
    data.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    table = write_csv(folder / "cells.csv", sweep_rows(result, grid))
    return {"report": str(report), "json": str(data), "csv": str(table), "plots": plots}
