"""``unokit compare``: rule sets on the same seeds, paired differences, reports, workers and Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from interrupt_support import processes_with_argument
from unokit.analysis import compare
from unokit.analysis.compare import plan_chunks, play_chunk, run_study, study_result
from unokit.analysis.measures import Setup
from unokit.analysis.paired import Accumulator
from unokit.cli import main
from unokit.engine.rules import Rules

ROOT = Path(__file__).resolve().parent.parent


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def row(result: dict[str, Any], key: str) -> dict[str, Any]:
    return next(m for m in result["measures"] if m["key"] == key)


def png_text(path: Path) -> dict[str, str]:
    with Image.open(path) as image:
        return dict(image.text)  # type: ignore[attr-defined]


def test_a_rule_that_cannot_matter_gives_exactly_zero_difference(capsys: pytest.CaptureFixture[str]) -> None:
    """A single-round match ends with its round, so the target score changes nothing: on the same
    seeds every figure is the same, the differences exactly 0 with p = 1."""
    code, out, err = run(
        capsys,
        "compare", "--engine", "python", "--players", "3", "--bots", "heuristic", "--scoring", "single-round",
        "--games", "30", "--seed", "5", "--workers", "1", "--name", "target 500",
        "--vs", "target 200: --target 200", "--json",
    )  # fmt: skip
    assert code == 0, err
    result = json.loads(out)
    assert [s["name"] for s in result["setups"]] == ["target 500", "target 200"]
    assert result["setups"][1]["rules"] == {"scoring": "single-round", "target_score": 200}
    assert result["games"] == 30
    compared = 0
    for m in result["measures"]:
        assert m["estimates"][0] == m["estimates"][1], m["key"]
        d = m["differences"][1]
        if d is None:  # no match gave it a denominator (a mark nobody made, e.g. a catch among bots that call UNO)
            assert m["estimates"][0] is None, m["key"]
            continue
        assert d["value"] == 0.0 and d["low"] == d["high"] == 0.0, m["key"]
        if m["key"] != "capped":
            assert d["p"] == 1.0 and not d["significant"]
            compared += 1
    assert compared >= 10


def test_stacking_cross_makes_rounds_shorter_with_more_wild_draw_fours(capsys: pytest.CaptureFixture[str]) -> None:
    """Stacking +4 on +2 and +4 (cross) in a 4-player heuristic game: more Wild Draw Fours are
    played and rounds take fewer decisions, significantly after Holm's correction, on 600 paired
    matches of the compiled engine."""
    code, out, err = run(
        capsys,
        "compare", "--engine", "fast", "--players", "4", "--bots", "heuristic", "--games", "600", "--seed", "3",
        "--name", "plain", "--vs", "cross: --rule stacking=cross", "--json",
    )  # fmt: skip
    assert code == 0, err
    result = json.loads(out)
    assert all(s["engine"] == "fast" for s in result["setups"])
    wd4 = row(result, "plays_wild_draw_four")["differences"][1]
    assert wd4["value"] > 0 and wd4["low"] > 0 and wd4["significant"] and wd4["holm_p"] < 0.05
    length = row(result, "decisions_per_round")["differences"][1]
    assert length["value"] < 0 and length["high"] < 0 and length["significant"]
    assert length["gain"] > 1, "the same deals make the paired interval narrower"
    seats = [m for m in result["measures"] if m["group"] == "seats"]
    assert [m["key"] for m in seats][-1] == "win_rate_dealer"


def test_the_number_of_workers_does_not_change_the_result(monkeypatch: pytest.MonkeyPatch) -> None:
    setups = [
        Setup("classic", 2, ("heuristic", "random"), Rules(scoring="single-round"), name="plain"),
        Setup("classic", 2, ("heuristic", "random"), Rules(scoring="single-round", stacking="cross"), name="cross"),
    ]
    one = run_study(setups, 40, seed=9, workers=1)
    three = run_study(setups, 40, seed=9, workers=3)
    monkeypatch.setattr(compare, "WAVE", 1)  # one chunk per worker at a time: many waves
    waves = run_study(setups, 40, seed=9, workers=2)
    assert one.sums == three.sums == waves.sums
    assert one.games == three.games == 40
    a, b = study_result(one), study_result(three)
    for result in (a, b):
        del result["elapsed_s"], result["workers"]
    assert a == b


def test_chunks_of_any_size_merge_to_the_same_sums_on_the_compiled_engine() -> None:
    setups = [
        Setup("classic", 4, ("heuristic",) * 4, engine="fast"),
        Setup("classic", 4, ("heuristic",) * 4, Rules(stacking="cross"), engine="fast"),
    ]
    sums = []
    for workers in (1, 5):
        chunks = plan_chunks(setups, 300, 2, workers)
        assert sum(c.count for c in chunks) == 300
        total = Accumulator(2)
        for chunk in reversed(chunks):
            total.merge(play_chunk(chunk))
        sums.append(total)
    assert len(plan_chunks(setups, 300, 2, 1)) != len(plan_chunks(setups, 300, 2, 5))
    assert sums[0] == sums[1]
    assert sums[0].matches == 300


def test_report_files_name_every_rule_set(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "report"
    code, text, err = run(
        capsys,
        "compare", "--engine", "python", "--players", "3", "--bots", "heuristic", "--scoring", "single-round",
        "--games", "25", "--workers", "1", "--name", "no stacking", "--out", str(out),
        "--vs", "stack all: --rule stacking=cross", "--vs", "all-wild: --edition all-wild",
    )  # fmt: skip
    assert code == 0, err
    assert f"Report written to {out / 'report.md'}, with 2 plots." in text
    report = (out / "report.md").read_text()
    assert report.startswith("# Comparing rule sets: no stacking vs stack all vs all-wild")
    assert "| **no stacking** (baseline) | classic |" in report
    assert "| **all-wild** | all-wild |" in report
    assert report.index("## Matches stopped at the cap") < report.index("## Measures")
    assert "| measure | no stacking | stack all | all-wild | stack all − no stacking | p | Holm p | gain |" in report
    assert "Holm" in report and "Student's t with 24 degrees of freedom" in report
    result = json.loads((out / "result.json").read_text())
    assert [s["name"] for s in result["setups"]] == ["no stacking", "stack all", "all-wild"]
    assert row(result, "plays_wild")["estimates"][2] is not None, "the All Wild deck's own cards are measured"
    assert row(result, "plays_skip")["differences"][2] is None, "All Wild has no plain Skip to compare"
    for name in ("differences.png", "seats.png"):
        fields = png_text(out / name)
        assert fields["Description"] == "no stacking; stack all; all-wild"
        assert "no stacking" in fields["Title"] and "all-wild" in fields["Title"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--vs", "x: --bogus 3"], "--vs 'x: --bogus 3': unrecognized arguments: --bogus 3"),
        (["--vs", "x: --rule stacking=sideways"], "stacking"),
        (["--vs", "x: --players 3", "--vs", "x: --players 2"], "two rule sets have the same name"),
        (["--vs", "--players 3", "--vs", "--players 3"], "two rule sets have the same name"),
        (["--vs", "x: --engine fast --bots ismcts"], "--engine fast: the compiled engine has random and heuristic"),
        (["--vs", "x: --players 4 --bots heuristic,random"], "--bots names 2 bots for 4 players"),
        (["--vs", "x: --bots nobody"], "unknown bot kind 'nobody'"),
        (["--vs", "x: --rules-file rules.txt"], "--rules-file is for wild-jackpot"),
        (["--vs", "x: --edition nowhere"], "nowhere"),
        (["--vs", "x: --players 3", "--games", "0"], "--games must be at least 1"),
        (["--vs", "x: --players 3", "--out", "README.md"], "--out README.md: is not a folder"),
        (["--vs", "x: 'unclosed"], "No closing quotation"),
    ],
)
def test_bad_command_lines_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str], message: str
) -> None:
    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, "compare", "--engine", "python", "--games", "2", *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("unokit: error: ") and err.count("\n") == 1, err
    assert message in err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the processes in /proc")
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
def test_ctrl_c_or_sigterm_writes_the_partial_report_and_exits_130(tmp_path: Path, stop: signal.Signals) -> None:
    seed = str(910_000_000 + os.getpid())  # marks this run's processes
    out = tmp_path / "partial"
    argv = ["compare", "--engine", "python", "--players", "2", "--bots", "heuristic", "--scoring", "single-round"]
    argv += ["--games", "1000000", "--workers", "2", "--seed", seed, "--out", str(out)]
    argv += ["--vs", "cross: --rule stacking=cross"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    child = subprocess.Popen(
        [sys.executable, "-m", "unokit.cli", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    deadline = time.monotonic() + 60
    while len(processes_with_argument(seed)) < 3 and time.monotonic() < deadline:  # the command and its two workers
        time.sleep(0.1)
    time.sleep(3)  # some chunks finish
    child.send_signal(stop)
    stopped = time.monotonic()
    try:
        text, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        for pid in processes_with_argument(seed):
            os.kill(pid, signal.SIGKILL)
        raise
    assert time.monotonic() - stopped < 5, "Ctrl-C must stop the comparison within seconds"
    assert child.returncode == 130, err
    assert "Traceback" not in err
    match = re.search(r"^PARTIAL: interrupted after (\d+) of 1000000 matches\.$", text, re.M)
    assert match and 0 < int(match[1]) < 1_000_000
    report = (out / "report.md").read_text()
    assert f"**PARTIAL**: interrupted after {match[1]} of 1000000 matches" in report
    result = json.loads((out / "result.json").read_text())
    assert result["partial"] and result["games"] == int(match[1])
    time.sleep(0.5)
    left = processes_with_argument(seed)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], "no worker process is left behind"


def test_capped_matches_are_counted_first_and_left_out_of_every_other_figure(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "capped"
    code, _, err = run(
        capsys,
        "compare", "--engine", "python", "--players", "2", "--bots", "heuristic", "--scoring", "single-round",
        "--games", "40", "--workers", "1", "--max-decisions", "40", "--name", "short cap",
        "--vs", "long cap: --max-decisions 1000", "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    result = json.loads((out / "result.json").read_text())
    capped = row(result, "capped")
    short, long = (round(e["value"] * e["matches"]) for e in capped["estimates"])
    assert 0 < short < 40 and long == 0
    decisions = row(result, "decisions_per_match")["estimates"]
    assert decisions[0]["value"] <= 40, "the finished matches only: none over the cap"
    assert decisions[0]["value"] < decisions[1]["value"], "the long matches are left out under the short cap"
    report = (out / "report.md").read_text()
    assert f"| short cap | {short} of 40 |" in report
    assert report.index("## Matches stopped at the cap") < report.index("| decisions per match |")


def test_chunks_and_their_sums_travel_between_processes() -> None:
    """A chunk is a picklable spec for a module-level function, and its sums pickle too, so chunks
    can run in any pool of processes or on other machines."""
    import pickle

    setups = [
        Setup("wild-jackpot", 3, ("heuristic",) * 3, Rules(stacking="cross"), rule_cards=("Draw 2 cards",)),
        Setup("classic", 3, ("heuristic", "random", "heuristic"), Rules.from_dict({"preset": "house"})),
    ]
    chunk = plan_chunks(setups, 10, 4, 2)[0]
    assert pickle.loads(pickle.dumps(chunk)) == chunk
    assert pickle.loads(pickle.dumps(play_chunk)) is play_chunk
    sums = play_chunk(chunk)
    assert pickle.loads(pickle.dumps(sums)) == sums


def test_a_compiled_chunk_gives_the_sums_of_its_matches_one_by_one() -> None:
    """The compiled engine's chunks are counted on their arrays at once: the sums equal those of
    every match's ``match_values``, capped matches and a measure only one set-up has included."""
    from unokit.analysis.measures import match_values, play_matches

    setups = [
        Setup("wild-jackpot", 3, ("heuristic",) * 3, engine="fast", max_decisions=400),
        Setup("wild-jackpot", 3, ("heuristic",) * 3, Rules(scoring="single-round"), engine="fast", max_decisions=400),
        Setup("classic", 3, ("random",) * 3, Rules(stacking="cross", jump_in=True), engine="fast", max_decisions=400),
    ]
    spec = compare.ChunkSpec(tuple(setups), seed=5, start=40, count=60, baseline=1)
    one_by_one = Accumulator(3, baseline=1)
    one_by_one.add_matches([[match_values(s, m) for m in play_matches(s, 5, 40, 60)] for s in setups])
    chunked = play_chunk(spec)
    assert chunked.sums == one_by_one.sums
    assert 0 < chunked.sums[0]["capped"].y < 60  # some matches capped, some finished
    assert "lever_draw_four" in chunked.sums[0] and "lever_draw_four" not in chunked.sums[2]
