"""Where the compiled engine's compile time goes: per entry point, cold and warm.

Each entry point of ``unokit.fast.__main__.ENTRY_POINTS`` (random games, the heuristic bots' games,
the stats matches, the batched environments, ...) is called once in a fresh process with
``NUMBA_CACHE_DIR`` pointed at an empty directory (cold: it compiles), then again in another fresh
process per entry point on that directory (warm: it loads from the cache).  Cold, the entry points
run one after the other in one process, so each pays only for what the ones before it did not
compile (numba compiles a function once per process and signature); ``--isolated`` gives each its
own process and empty cache, its whole call tree's cost (what a run needing only it pays).

numba's compile events give each compiled function's own seconds (its callees' compiles taken off)
and its signatures: ``--functions N`` lists the N costliest, with the functions compiled for more
than one signature.  Run from the repository root (``python bench/compile_time.py``); one compile
at a time, as it measures CPU time on a shared machine as wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _child(names: list[str]) -> dict[str, Any]:
    """In this process: import the engine, run each entry point; seconds, and numba's compiles."""
    import numba.core.event as ev

    compiles: dict[str, dict[str, Any]] = defaultdict(lambda: {"seconds": 0.0, "signatures": 0})
    stack: list[list[Any]] = []
    order: list[str] = []

    class Recorder(ev.Listener):  # type: ignore[misc]
        def on_start(self, event: Any) -> None:
            stack.append([time.perf_counter(), 0.0])
            order.append(event.data["dispatcher"].py_func.__name__)

        def on_end(self, event: Any) -> None:
            began, inner = stack.pop()
            total = time.perf_counter() - began
            if stack:
                stack[-1][1] += total
            dispatcher = event.data["dispatcher"]
            name = f"{dispatcher.py_func.__module__.rsplit('.', 1)[-1]}.{dispatcher.py_func.__name__}"
            compiles[name]["seconds"] += total - inner
            compiles[name]["signatures"] += 1

    ev.register("numba:compile", Recorder())
    began = time.perf_counter()
    import unokit.fast.engine
    import unokit.fast.heuristic
    from unokit.fast.__main__ import ENTRY_POINTS, NEEDS_RL

    result: dict[str, Any] = {"import": time.perf_counter() - began, "entries": {}, "cpu": {}, "first": {}}
    result["compiles"] = compiles
    for name in names:
        if name in NEEDS_RL:
            try:
                import unokit.rl.batched  # noqa: F401
            except ImportError:
                continue
        began, used, compiled = time.perf_counter(), time.process_time(), len(order)
        ENTRY_POINTS[name][1]()
        result["entries"][name] = time.perf_counter() - began
        result["cpu"][name] = time.process_time() - used
        if len(order) > compiled:
            result["first"][name] = order[compiled]
    return result


def _run(names: list[str], cache: Path, source: Path) -> dict[str, Any]:
    """Run ``names`` in a fresh process caching in ``cache``, importing unokit from ``source``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "UNOKIT_QUIET_COMPILE": "1"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(source), env.get("PYTHONPATH", "")]))
    command = [sys.executable, __file__, "--child", *names]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"{' '.join(names)} failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("entries", nargs="*", help="entry points to measure (default: all)")
    parser.add_argument("--isolated", action="store_true", help="compile each entry point in its own cold cache")
    parser.add_argument("--functions", type=int, default=15, help="list the N costliest compiled functions")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--source", type=Path, default=ROOT / "src", help="the tree to import unokit from")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        print(json.dumps(_child(options.entries)))
        return
    sys.path.insert(0, str(options.source))
    from unokit.fast.__main__ import ENTRY_POINTS

    names = options.entries or list(ENTRY_POINTS)
    cold: dict[str, float] = {}
    cpu: dict[str, float] = {}
    first: dict[str, str] = {}
    warm: dict[str, float] = {}
    compiles: dict[str, dict[str, Any]] = defaultdict(lambda: {"seconds": 0.0, "signatures": 0})
    imports: list[float] = []
    with tempfile.TemporaryDirectory(prefix="unokit-numba-") as where:
        groups = [[name] for name in names] if options.isolated else [names]
        for index, group in enumerate(groups):
            cache = Path(where) / str(index)
            result = _run(group, cache, options.source)
            cold.update(result["entries"])
            cpu.update(result["cpu"])
            first.update(result["first"])
            imports.append(result["import"])
            for function, figures in result["compiles"].items():
                compiles[function]["seconds"] += figures["seconds"]
                compiles[function]["signatures"] = max(compiles[function]["signatures"], figures["signatures"])
            for name in group:
                if name in result["entries"]:
                    warm[name] = _run([name], cache, options.source)["entries"][name]
    how = "each in its own cold cache" if options.isolated else "cold: in order, in one process"
    print(f"{'entry point':18} {'cold s':>8} {'cold cpu':>8} {'warm s':>8}  first compiled ({how})")
    for name in names:
        if name in cold:
            print(f"{name:18} {cold[name]:8.1f} {cpu[name]:8.1f} {warm[name]:8.2f}  {first.get(name, '-')}")
        else:
            print(f"{name:18} {'skipped (no rl extra)':>17}")
    totals = f"{sum(cold.values()):8.1f} {sum(cpu.values()):8.1f} {sum(warm.values()):8.2f}"
    print(f"{'total':18} {totals}  (import, cold: {max(imports):.1f} s)")
    costly = sorted(compiles.items(), key=lambda item: -item[1]["seconds"])
    total = sum(figures["seconds"] for figures in compiles.values())
    print(f"\n{len(compiles)} functions compiled, {total:.1f} s; the costliest (own seconds, signatures):")
    for function, figures in costly[: options.functions]:
        print(f"  {function:42} {figures['seconds']:7.1f} s  {figures['signatures']}")
    several = [f"{function} ({figures['signatures']})" for function, figures in costly if figures["signatures"] > 1]
    print("compiled for several signatures:", ", ".join(several) or "none")
    if options.json:
        figures = {"isolated": options.isolated, "cold": cold, "cpu": cpu, "warm": warm, "compiles": compiles}
        options.json.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
