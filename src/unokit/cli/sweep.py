"""``unokit sweep``: a grid of rule sets played on the same seeds, one row per cell with intervals,
each cell compared with the baseline cell; matplotlib for the report's plot."""

from __future__ import annotations

import argparse
import json
import shlex
from typing import TYPE_CHECKING, Any

from unokit.cli.common import Screen, UsageError
from unokit.cli.compare import (
    add_rows_note,
    add_setup_options,
    add_study_options,
    check_study_options,
    make_setups,
    run_with_progress,
    show_result,
    with_options,
)
from unokit.engine.errors import UnoError

if TYPE_CHECKING:
    from unokit.cli.common import Commands


def add_parser(commands: Commands) -> None:
    """The ``sweep`` command and its options."""
    from unokit.analysis.sweep import DEFAULT_MEASURES, SETUP_AXES

    parser = commands.add_parser(
        "sweep",
        help="play a grid of rule sets on the same seeds, one row per cell, each compared with the baseline",
        description="Play every cell of a grid over rule options, editions, player counts and bots on the "
        "same match seeds, and report chosen measures of each cell with 95% intervals and its "
        "difference to the baseline cell (the first value of each axis unless --baseline says), the "
        "significant ones marked (Holm). The other options are shared by every cell. Example: "
        "unokit sweep --grid stacking=off,cross --grid players=2,4 --games 400 --out sweep",
    )
    add_setup_options(parser)
    parser.add_argument(
        "--grid",
        action="append",
        metavar="NAME=V1,V2",
        help=f"an axis of the grid (repeatable): {', '.join(SETUP_AXES)} or any rule option; bots per "
        "seat joined by '/', e.g. bots=heuristic,heuristic/random/random/random",
    )
    parser.add_argument(
        "--baseline", action="append", metavar="NAME=VALUE", help="the baseline cell's value of an axis"
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help='a TOML file with options = "..." (shared options), [grid], [baseline] and measures = [...]',
    )
    parser.add_argument(
        "--measures",
        metavar="KEYS",
        help=f"measures to show, separated by commas, or all (default {','.join(DEFAULT_MEASURES)})",
    )
    add_study_options(parser, "cell", "report.md, result.json, cells.csv")


def sweep_command_line(args: argparse.Namespace) -> str:
    from unokit.cli.compare import compare_command_line

    words = shlex.split(compare_command_line(argparse.Namespace(**{**vars(args), "vs": []})))
    words[1] = "sweep"
    for option in ("grid", "baseline"):
        for text in getattr(args, option) or []:
            words += [f"--{option}", text]
    if args.config:
        words += ["--config", args.config]
    if args.measures:
        words += ["--measures", args.measures]
    return shlex.join(words)


def cmd_sweep(args: argparse.Namespace, screen: Screen) -> int:
    from unokit.analysis.compare import study_measures, study_result
    from unokit.analysis.sweep import (
        DEFAULT_MEASURES,
        baseline_cell,
        cell_name,
        cell_tokens,
        cells,
        load_config,
        parse_baseline,
        parse_grid,
        render_sweep_markdown,
        write_sweep_report,
    )

    try:
        measures: list[str] | None = None
        base = args
        if args.config:
            if args.grid:
                raise UsageError("give the grid with --grid or in --config, not both")
            grid, chosen, measures, options = load_config(args.config)
            try:
                base = with_options(args, shlex.split(options), f"{args.config}: options")
            except ValueError as exc:
                raise UsageError(f"{args.config}: options: {exc}") from None
            base.name = None
            baseline = baseline_cell(grid, {**chosen, **dict(b.partition("=")[::2] for b in args.baseline or [])})
        else:
            grid = parse_grid(args.grid or [])
            baseline = parse_baseline(args.baseline or [], grid)
    except UnoError as exc:
        raise UsageError(str(exc)) from None
    if args.measures:
        measures = [m.strip() for m in args.measures.split(",")]
    check_study_options(args)
    grid_cells = cells(grid)
    rule_sets = []
    for cell in grid_cells:
        rule_set = with_options(base, cell_tokens(cell), f"cell {cell_name(cell)}")
        rule_set.name = cell_name(cell)
        rule_sets.append(rule_set)
    setups, engine_note = make_setups(rule_sets)
    keys = list(DEFAULT_MEASURES) if measures is None else measures
    known = [m.key for m in study_measures(setups)]
    if keys == ["all"]:
        keys = known
    unknown = [key for key in keys if key not in known]
    if unknown:
        raise UsageError(f"unknown measure {unknown[0]!r}; known: {', '.join(known)}")
    index = grid_cells.index(baseline)
    study = run_with_progress(setups, args, f"sweep of {len(setups)} cells", baseline=index)
    result = study_result(study, keys)
    result["grid"] = [{"axis": name, "values": values} for name, values in grid]
    result["engine_note"] = engine_note
    add_rows_note(result, args, study)
    for setup, cell in zip(result["setups"], grid_cells, strict=True):
        setup["cell"] = cell
    command = sweep_command_line(args)
    written: dict[str, Any] | None = None
    if args.out and study.games:
        try:
            written = write_sweep_report(args.out, result, grid, command)
        except OSError as exc:
            raise UsageError(f"cannot write to {args.out}: {exc}") from None
    status = 130 if study.partial else 0
    if args.json:
        screen.out.write(json.dumps(result) + "\n")
        return status
    show_result(screen, result, render_sweep_markdown(result, grid), written, engine_note)
    return status
