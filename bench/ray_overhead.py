"""What Ray costs against the local pool: the same games on 1 and 2 workers, both ways.

Workloads (each the same games both ways, checked equal):

* ``fast-random``: ``simulate --engine fast`` (random policy), the local run on W threads of this
  process, the Ray run as tasks of blocks of games on a local Ray instance with W CPUs;
* ``fast-heuristic``: the same with the compiled heuristic bot at every seat;
* ``ismcts``: a tournament of ismcts against heuristic (the search bounded by iterations, so that
  both runs do the same work), local processes against Ray tasks.

Each is timed ``--repeats`` times both ways (after one untimed run that starts the workers and loads
the compiled code); the report gives the times, their median, and the ratio Ray / local with its
spread (the lowest and highest ratio of one repeat's pair). Ray's own start (once per worker count)
is reported apart, as is the first (cold) Ray run.

Usage: ``python bench/ray_overhead.py [--games 20000] [--ismcts-games 8] [--ismcts-iterations 100]
[--repeats 3] [--workers 1,2]``. Prints one JSON object; progress on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from unokit.analysis import parallel
from unokit.analysis.simulate import simulate
from unokit.analysis.tournament import run_tournament

SINGLE = {"scoring": "single-round"}


def steady(result: dict[str, Any]) -> dict[str, Any]:
    """A result without its timings (the ismcts bots' decision times vary; their choices do not)."""
    out = {key: value for key, value in result.items() if key not in ("elapsed_s", "workers")}
    if "results" in out:
        out["results"] = {
            kind: {key: value for key, value in entry.items() if key != "mean_decision_s"}
            for kind, entry in out["results"].items()
        }
    return out


def workloads(args: argparse.Namespace) -> dict[str, Callable[[int, str | None], dict[str, Any]]]:
    """Each workload as ``run(workers, ray)``."""
    ismcts = {"ismcts": {"iterations": args.ismcts_iterations, "ms": 200.0, "method": "tree"}}

    def fast(policy: str) -> Callable[[int, str | None], dict[str, Any]]:
        def run(workers: int, ray: str | None) -> dict[str, Any]:
            return simulate("classic", 4, args.games, 1, SINGLE, engine="fast", policy=policy, workers=workers, ray=ray)

        return run

    def search(workers: int, ray: str | None) -> dict[str, Any]:
        return run_tournament(
            "classic",
            ["ismcts", "heuristic"],
            args.ismcts_games,
            1,
            workers=workers,
            rules=SINGLE,
            bot_options=ismcts,
            ray=ray,
        )

    return {"fast-random": fast("random"), "fast-heuristic": fast("heuristic"), "ismcts": search}


def timed(run: Callable[[int, str | None], dict[str, Any]], workers: int, ray: str | None) -> tuple[float, Any]:
    started = time.perf_counter()
    result = run(workers, ray)
    return time.perf_counter() - started, steady(result)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20_000, help="games of each compiled workload (default 20000)")
    parser.add_argument("--ismcts-games", type=int, default=8, help="ismcts matches (default 8)")
    parser.add_argument("--ismcts-iterations", type=int, default=100, help="ismcts iterations a decision (default 100)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs each way (default 3)")
    parser.add_argument("--workers", default="1,2", help="worker counts, separated by commas (default 1,2)")
    args = parser.parse_args(argv)
    counts = [int(text) for text in args.workers.split(",")]
    runs = workloads(args)
    report: dict[str, Any] = {
        "benchmark": "Ray tasks on a local Ray instance against the local pool, the same games both ways",
        "settings": {
            "games": args.games,
            "ismcts_games": args.ismcts_games,
            "ismcts_iterations": args.ismcts_iterations,
            "repeats": args.repeats,
        },
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "results": [],
    }
    for workers in counts:
        parallel.stop_ray()
        clock = time.perf_counter()
        parallel.connect_ray("local", workers)
        ray_start = time.perf_counter() - clock
        for name, run in runs.items():
            cold, on_ray = timed(run, workers, "local")
            _, local = timed(run, workers, None)
            same = on_ray == local
            local_s, ray_s = [], []
            for _ in range(args.repeats):
                seconds, result = timed(run, workers, None)
                local_s.append(seconds)
                same = same and result == local
                seconds, result = timed(run, workers, "local")
                ray_s.append(seconds)
                same = same and result == local
            ratios = [r / loc for r, loc in zip(ray_s, local_s, strict=True)]
            entry = {
                "workload": name,
                "workers": workers,
                "ray_start_s": round(ray_start, 2),
                "ray_cold_s": round(cold, 3),
                "local_s": [round(x, 3) for x in local_s],
                "ray_s": [round(x, 3) for x in ray_s],
                "local_median_s": round(statistics.median(local_s), 3),
                "ray_median_s": round(statistics.median(ray_s), 3),
                "ratio_median": round(statistics.median(ratios), 2),
                "ratio_range": [round(min(ratios), 2), round(max(ratios), 2)],
                "same_result": same,
            }
            report["results"].append(entry)
            print(
                f"{name} on {workers}: local {entry['local_median_s']} s, Ray {entry['ray_median_s']} s, "
                f"ratio {entry['ratio_median']} [{entry['ratio_range'][0]}, {entry['ratio_range'][1]}], "
                f"same result: {same}",
                file=sys.stderr,
            )
    parallel.stop_ray()
    print(json.dumps(report, indent=2))
    return 0 if all(entry["same_result"] for entry in report["results"]) else 1


if __name__ == "__main__":
    sys.exit(main())
