"""A two-node Ray cluster on loopback: ``--ray ADDRESS`` gives the local run's results.

Starts a head node (``ray start --head --port P``) and a second node (``ray start --address
127.0.0.1:P``), each with its own temporary folder, its own ports and ``--num-cpus`` CPUs; waits
until the cluster has both; runs ``unokit simulate`` (the Python engine and the compiled one) and
``unokit tournament`` (the Python bots, and the compiled ones) with ``--ray 127.0.0.1:P`` and
without it, and checks that each pair of results is the same; interrupts a long ``simulate --ray``
with Ctrl-C and checks that it exits 130 with partial results and that its tasks stop; then stops both nodes (the ``ray
start --block`` processes it started, and whatever they left: never ``ray stop``, which would end
every Ray instance of the machine). The nodes import unokit from this source tree (``PYTHONPATH``),
as an installed package would be found on a real cluster's nodes.

Usage: ``python bench/ray_two_nodes.py [--games 400] [--num-cpus 1]``. Prints one JSON object;
exits 1 when a result differs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RAY = str(Path(sys.executable).with_name("ray"))
TIMINGS = ("elapsed_s", "mean_decision_s", "workers")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def node_ports() -> list[str]:
    """The ports of one node, each free now (two nodes on one machine must not share any)."""
    options = (
        "--node-manager-port",
        "--object-manager-port",
        "--dashboard-agent-listen-port",
        "--dashboard-agent-grpc-port",
        "--runtime-env-agent-port",
        "--metrics-export-port",
    )
    return [f"{option}={free_port()}" for option in options]


def marked(mark: str) -> list[int]:
    needle = f"UNOKIT_BENCH_MARK={mark}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if needle in (entry / "environ").read_bytes().split(b"\0"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def steady(result: dict[str, Any]) -> dict[str, Any]:
    out = {key: value for key, value in result.items() if key not in TIMINGS}
    if "results" in out:
        out["results"] = {
            kind: {key: value for key, value in entry.items() if key not in TIMINGS}
            for kind, entry in out["results"].items()
        }
    return out


def unokit(env: dict[str, str], *argv: str) -> tuple[dict[str, Any], float]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "unokit.cli", *argv, "--json"], capture_output=True, text=True, env=env, timeout=900
    )
    if done.returncode != 0:
        raise SystemExit(f"unokit {' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout), time.perf_counter() - started


def running_chunks(mark: str) -> int:
    """The cluster's worker processes running a chunk now (Ray titles them after the task)."""
    count = 0
    for pid in marked(mark):
        try:
            count += Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"ray::_run_chunk")
        except OSError:
            continue
    return count


def ctrl_c(env: dict[str, str], address: str, mark: str) -> dict[str, Any]:
    """Ctrl-C on a long ``simulate --ray ADDRESS`` once its tasks run: the exit status, whether it
    printed partial results, the seconds it took to exit, and the chunks still running 3 s later
    (the command cancels its tasks; the cluster itself goes on)."""
    argv = ["simulate", "--engine", "python", "--players", "2", "--scoring", "single-round", "--games", "1000000"]
    command = [sys.executable, "-m", "unokit.cli", *argv, "--ray", address, "--json"]
    deadline = time.monotonic() + 30
    while running_chunks(mark) and time.monotonic() < deadline:
        time.sleep(0.1)  # (the workers of the runs before, back to idle)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 120
    while not running_chunks(mark) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    time.sleep(1.5)
    process.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, err = process.communicate(timeout=60)
    took = time.monotonic() - sent
    time.sleep(3)
    result = json.loads(out) if out.strip() else {}
    errors = [line for line in err.splitlines() if "Check failed" in line or "Error" in line][:3]
    return {
        "exit_status": process.returncode,
        "partial": bool(result.get("partial")),
        "games_done": result.get("games"),
        "exit_s": round(took, 2),
        "chunks_running_3_s_later": running_chunks(mark),
        **({"stderr": errors} if process.returncode != 130 else {}),
    }


def wait_for_nodes(env: dict[str, str], address: str, count: int) -> None:
    code = (
        "import ray, sys; ray.init(address=sys.argv[1], logging_level='ERROR'); "
        "print(sum(1 for node in ray.nodes() if node['Alive']))"
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        done = subprocess.run([sys.executable, "-c", code, address], capture_output=True, text=True, env=env)
        if done.returncode == 0 and done.stdout.strip() == str(count):
            return
        time.sleep(1)
    raise RuntimeError(f"the cluster at {address} did not reach {count} nodes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=400, help="games of each run (default 400)")
    parser.add_argument("--num-cpus", type=int, default=1, help="CPUs of each node (default 1)")
    args = parser.parse_args(argv)
    mark = uuid.uuid4().hex
    folder = Path(tempfile.mkdtemp(prefix="unokit-ray-"))
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH")) if p),
        "UNOKIT_BENCH_MARK": mark,
        "RAY_USAGE_STATS_ENABLED": "0",
        # `ray start` turns on Ray's token authentication: the nodes and every driver use the token
        # of ~/.ray/auth_token (or RAY_AUTH_TOKEN), as a real cluster's machines would.
        "RAY_AUTH_MODE": "token",
    }
    port = free_port()
    address = f"127.0.0.1:{port}"
    common = ["--block", f"--num-cpus={args.num_cpus}", "--disable-usage-stats"]
    nodes: list[subprocess.Popen[bytes]] = []
    report: dict[str, Any] = {"benchmark": "a two-node Ray cluster on loopback", "address": address, "runs": []}
    try:
        head = [RAY, "start", "--head", f"--port={port}", "--node-ip-address=127.0.0.1", "--include-dashboard=false"]
        head += common
        nodes.append(
            subprocess.Popen(
                [*head, f"--temp-dir={folder / 'head'}", *node_ports()],
                env=env,
                stdout=(folder / "head.log").open("wb"),
                stderr=subprocess.STDOUT,
            )
        )
        wait_for_nodes(env, address, 1)
        second = [RAY, "start", f"--address={address}", "--node-ip-address=127.0.0.1", *common]
        nodes.append(
            subprocess.Popen(
                [*second, f"--temp-dir={folder / 'second'}", *node_ports()],
                env=env,
                stdout=(folder / "second.log").open("wb"),
                stderr=subprocess.STDOUT,
            )
        )
        wait_for_nodes(env, address, 2)
        report["nodes"] = 2
        games = str(args.games)
        single = ["--scoring", "single-round", "--seed", "7", "--games", games]
        runs = {
            "simulate, Python engine": ["simulate", "--engine", "python", "--players", "3", *single],
            "simulate, compiled engine": ["simulate", "--engine", "fast", "--policy", "heuristic", *single],
            "tournament, Python bots": ["tournament", "--bots", "heuristic,random,random", *single],
            "tournament, compiled bots": ["tournament", "--engine", "fast", "--bots", "heuristic,random", *single],
        }
        for name, words in runs.items():
            local, local_s = unokit(env, *words)
            on_cluster, cluster_s = unokit(env, *words, "--ray", address)
            same = steady(local) == steady(on_cluster)
            report["runs"].append(
                {"run": name, "same_result": same, "local_s": round(local_s, 2), "ray_s": round(cluster_s, 2)}
            )
            print(f"{name}: same result {same}, local {local_s:.1f} s, two nodes {cluster_s:.1f} s", file=sys.stderr)
        report["ctrl_c"] = ctrl_c(env, address, mark)
        print(f"Ctrl-C on the cluster: {report['ctrl_c']}", file=sys.stderr)
        # the worker processes each node started (Ray writes one log per worker): both nodes did work
        report["workers_started"] = {
            node: len(list((folder / node).glob("session_*/logs/worker-*.out"))) for node in ("head", "second")
        }
    except RuntimeError as exc:
        report["error"] = str(exc)
        for log in sorted(folder.glob("*.log")):
            print(f"--- {log.name}\n" + "\n".join(log.read_text(errors="replace").splitlines()[-15:]), file=sys.stderr)
    finally:
        for node in nodes:
            node.send_signal(signal.SIGTERM)  # `ray start --block` stops its node's processes
        for node in nodes:
            try:
                node.wait(60)
            except subprocess.TimeoutExpired:
                node.kill()
        time.sleep(1)
        left = marked(mark)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        report["processes_left_then_killed"] = len(left)
        shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(report, indent=2))
    both = all(report.get("workers_started", {"": 0}).values())
    stop = report.get("ctrl_c", {})
    stopped = stop.get("exit_status") == 130 and stop.get("partial") and not stop.get("chunks_running_3_s_later")
    return 0 if both and stopped and report["runs"] and all(run["same_result"] for run in report["runs"]) else 1


if __name__ == "__main__":
    sys.exit(main())
