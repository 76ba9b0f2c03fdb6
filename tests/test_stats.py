"""Statistics reports: what is counted, the Markdown, the plots and the command line."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from unokit.analysis.stats import (
    COMPARED_EDITIONS,
    MatchSpec,
    collect,
    match_seed,
    percentile,
    play_stats_match,
    render_markdown,
    special_kinds,
)
from unokit.bots import GameResult, make_bot, play_game
from unokit.cli import main
from unokit.engine.cards import CARD_KIND, KIND_NAMES, Kind
from unokit.engine.errors import SetupError, UnknownOptionError
from unokit.engine.rules import Rules

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SINGLE = {"scoring": "single-round"}
SECTIONS = (
    "## Game length",
    "## First player and seat advantage",
    "## Points",
    "## Special cards",
)
JACKPOT_SECTION = "## Wild Jackpot: lever and rule cards"
COMPARE_SECTION = "## Editions compared"
BASE_PLOTS = ("length.png", "seats.png", "points.png", "cards.png", "attribution.png")


def total(histogram: Counter[int]) -> int:
    """The sum of the values a histogram (value → count) counts."""
    return sum(value * count for value, count in histogram.items())


def mean(histogram: Counter[int]) -> float:
    return total(histogram) / histogram.total()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def spec(
    edition: str,
    players: int,
    seed: int,
    rules: dict[str, object] | None = None,
    rule_cards: tuple[str, ...] | None = None,
) -> MatchSpec:
    return MatchSpec(
        edition=edition,
        players=players,
        bot="heuristic",
        seed=seed,
        bot_seeds=tuple(range(100, 100 + players)),
        rules=Rules.from_dict(rules) if rules else None,
        rule_cards=rule_cards,
    )


def replay_spec(s: MatchSpec) -> GameResult:
    """The same match played without the statistics' watchers."""
    bots = [make_bot(s.bot, seed=b, edition=s.edition) for b in s.bot_seeds]
    cards = list(s.rule_cards) if s.rule_cards is not None else None
    return play_game(s.edition, bots, s.seed, rules=s.rules, rule_cards=cards)


def points_by_round(result: GameResult) -> list[int]:
    """The points of the ``hand`` events of each round."""
    out: list[int] = []
    total = 0
    for kind, _, value, _ in result.events:
        if kind == "hand":
            total += value
        elif kind == "round_end":
            out.append(total)
            total = 0
    return out


def assert_png(path: Path) -> None:
    data = path.read_bytes()
    assert data.startswith(PNG_SIGNATURE), path
    assert len(data) > 5000, path


# ---------------------------------------------------------------- one match


def test_match_summary_counts_what_the_match_did() -> None:
    s = spec("classic", 3, seed=11, rules={"target_score": 120})
    summary = play_stats_match(s)
    assert summary is not None
    result = replay_spec(s)  # watching changes nothing: the same match
    rounds = result.rounds
    assert rounds >= 2
    assert sum(summary.decisions_per_round) == sum(result.decisions)
    assert len(summary.decisions_per_round) == rounds and min(summary.decisions_per_round) > 0
    assert summary.round_winners == result.round_winners
    assert summary.scores == result.scores and summary.winner == result.winner
    assert summary.dealers == [e[1] for e in result.events if e[0] == "dealer"]
    assert summary.round_points == points_by_round(result)
    assert max(summary.round_points) > 0
    plays = Counter(int(CARD_KIND[e[3][0]]) for e in result.events if e[0] == "play")
    assert summary.plays == dict(plays)
    assert summary.levers == [0] * 6 and summary.rules_enforced == summary.rules_honour == 0


def test_first_player_follows_the_start_card() -> None:
    """Left of the dealer plays first, except after a start Skip / Draw Two (the next one) or
    Reverse (the dealer); the statistics must find that player."""
    checked = Counter[str]()
    for seed in range(40):
        s = spec("classic", 4, seed=seed, rules=SINGLE)
        summary = play_stats_match(s)
        assert summary is not None
        flips = [e[3][0] for e in replay_spec(s).events if e[0] == "flip"]
        kind = CARD_KIND[flips[-1]]
        dealer = summary.dealers[0]
        expected = {Kind.SKIP: dealer + 2, Kind.DRAW_TWO: dealer + 2, Kind.REVERSE: dealer}.get(kind, dealer + 1)
        assert summary.first_players == [expected % 4], (seed, KIND_NAMES[kind])
        checked["action" if kind in (Kind.SKIP, Kind.DRAW_TWO, Kind.REVERSE) else "other"] += 1
    assert checked["other"] > 20 and checked["action"] > 0


def test_jackpot_levers_and_rule_cards_are_counted() -> None:
    texts = ["Draw 2 cards", "Sing a song", "Discard 1 card"]  # enforced, honour, enforced
    seen_rules = 0
    for seed in range(6):
        s = spec("wild-jackpot", 3, seed=seed, rules={"target_score": 100}, rule_cards=tuple(texts))
        summary = play_stats_match(s)
        assert summary is not None
        events = replay_spec(s).events
        levers = Counter(e[2] for e in events if e[0] == "lever")
        assert summary.levers == [levers[v] for v in range(1, 7)]
        performed = [e[2] for e in events if e[0] == "rule"]
        assert summary.rules_honour == performed.count(1)
        assert summary.rules_enforced == len(performed) - performed.count(1)
        jackpots = summary.plays.get(int(Kind.JACKPOT), 0) + summary.plays.get(int(Kind.WILD_JACKPOT), 0)
        assert jackpots >= sum(summary.levers)  # only a Jackpot played pulls the lever
        seen_rules += len(performed)
    assert seen_rules > 0


def test_stuck_matches_are_left_out() -> None:
    from dataclasses import replace

    assert play_stats_match(replace(spec("classic", 2, seed=1), max_decisions=5)) is None
    stats = collect("classic", 2, 2, seed=0, bot="random", workers=1, rules=SINGLE, max_decisions=5)
    assert stats.unfinished == 2 and stats.rounds == 0
    text = render_markdown(stats)
    assert "## Matches stopped at the cap" in text and "**2 of 2 matches (100.0%" in text


# ---------------------------------------------------------------- many matches


def test_collect_is_reproducible_and_consistent() -> None:
    one = collect("space-jam", 3, 4, seed=7, bot="heuristic", workers=1, rules={"target_score": 100})
    two = collect("space-jam", 3, 4, seed=7, bot="heuristic", workers=2, rules={"target_score": 100})
    a, b = one.to_dict(), two.to_dict()
    a.pop("elapsed_s")
    b.pop("elapsed_s")
    assert a == b
    assert one.rounds == total(one.rounds_per_match) == one.round_points.total()
    assert one.rounds_per_match.total() == 4
    assert sum(one.wins_by_position) == one.rounds == one.first_player_rounds
    assert one.winner_scores.total() == 4 and min(one.winner_scores) >= 100
    assert set(a["plays_per_round"]) == {
        "Skip",
        "Reverse",
        "Draw Two",
        "Wild",
        "Wild Draw Four",
        "Wild Welcome to the Jam",
    }
    other = collect("space-jam", 3, 4, seed=8, bot="heuristic", workers=1, rules={"target_score": 100})
    assert other.decisions_per_round != one.decisions_per_round


def test_every_edition_uses_the_same_match_seeds() -> None:
    assert match_seed(3, 0) == match_seed(3, 0) != match_seed(3, 1)
    assert special_kinds("classic") == [Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO, Kind.WILD, Kind.WILD_DRAW_FOUR]
    assert Kind.WILD_JAM in special_kinds("space-jam")
    assert Kind.SKIP not in special_kinds("all-wild") and Kind.WILD_FORCED_SWAP in special_kinds("all-wild")
    assert special_kinds("wild-jackpot")[-2:] == [Kind.JACKPOT, Kind.WILD_JACKPOT]


def test_percentile_and_bad_set_ups() -> None:
    assert percentile([], 0.5) == 0
    assert percentile(list(range(1, 11)), 0.1) == 1
    assert percentile(list(range(1, 11)), 0.9) == 9
    assert percentile(list(range(1, 11)), 1.0) == 10
    with pytest.raises(SetupError):
        collect("classic", 3, 0, seed=0)
    with pytest.raises(SetupError):
        collect("classic", 1, 2, seed=0)
    with pytest.raises(UnknownOptionError, match="nobody"):
        collect("classic", 3, 2, seed=0, bot="nobody")


# ---------------------------------------------------------------- report and command line


def test_cli_writes_the_report_with_every_section_and_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_dir = tmp_path / "report"
    code, out, err = run(
        capsys, "stats", "--edition", "wild-jackpot", "--players", "3", "--games", "2", "--bots", "heuristic",
        "--scoring", "single-round", "--compare", "--seed", "1", "--out", str(out_dir),
    )  # fmt: skip
    assert code == 0, err
    assert f"Report written to {out_dir / 'report.md'}, with 7 plots." in out
    text = (out_dir / "report.md").read_text(encoding="utf-8")
    command = (
        f"unokit stats --edition wild-jackpot --players 3 --games 2 --seed 1 --bots heuristic --out {out_dir} "
        "--compare --scoring single-round"
    )
    assert f"Made with `{command}`." in text
    positions = [text.index(section) for section in (*SECTIONS, JACKPOT_SECTION, COMPARE_SECTION)]
    assert positions == sorted(positions)
    for name in (*BASE_PLOTS, "jackpot.png", "compare.png"):
        assert f"]({name})" in text
        assert_png(out_dir / name)
    for edition in COMPARED_EDITIONS:
        assert f"| {edition} | 2 | 2 | 1.00 |" in text  # matches finished, rounds, rounds per match
    for outcome in ("choose-player", "right", "left", "everyone", "discard-colours", "draw-four"):
        assert f"| {outcome} |" in text
    assert "| enforced |" in text and "| honour task |" in text
    for card in ("Skip", "Jackpot", "Wild Jackpot", "Wild Draw Four"):
        assert f"| {card} |" in text
    assert "| dealer +1 |" in text and "| dealer +2 |" in text and "| dealer |" in text
    assert "| first player |" in text


def test_report_without_compare_or_jackpot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(
        capsys, "stats", "--edition", "all-wild", "--players", "2", "--games", "2", "--bots", "heuristic",
        "--scoring", "winner-collects", "--out", str(tmp_path), "--workers", "1", "--json",
    )  # fmt: skip
    assert code == 0, err
    summary = json.loads(out)
    assert summary["report"] == str(tmp_path / "report.md")
    assert sorted(Path(p).name for p in summary["plots"]) == sorted(BASE_PLOTS)
    data = summary["editions"]["all-wild"]
    assert data["games"] == 2 and data["players"] == 2 and data["bot"] == "heuristic"
    assert "lever_outcomes" not in data
    assert set(data["plays_per_round"]) == {KIND_NAMES[k] for k in special_kinds("all-wild")}
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    for section in SECTIONS:
        assert section in text
    assert JACKPOT_SECTION not in text and COMPARE_SECTION not in text
    assert "| Wild Forced Swap |" in text and "| Skip |" not in text
    assert "| match winner's final score |" in text  # scored matches (All Wild's optional method)
    for name in BASE_PLOTS:
        assert_png(tmp_path / name)
    assert not (tmp_path / "jackpot.png").exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "nobody"], "unknown bot kind 'nobody'"),
        (["--bots", "random,heuristic"], "one bot kind"),
        (["--games", "0"], "--games"),
        (["--players", "1"], "players"),
        (["--workers", "0"], "--workers"),
        (["--edition", "mystery"], "mystery"),
        (["--scoring", "never"], "scoring"),
    ],
)
def test_cli_refuses_bad_arguments(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, "stats", "--games", "1", "--out", str(tmp_path / "r"), *argv)
    assert code == 2
    assert message in err
    assert out == ""
    assert not (tmp_path / "r").exists()


def test_cli_needs_out(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "stats", "--games", "1")
    assert code == 2
    assert "--out" in err


def test_cli_without_matplotlib_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, out, err = run(capsys, "stats", "--games", "1", "--out", str(tmp_path / "r"))
    assert code == 2
    assert out == ""
    assert "matplotlib" in err and "unokit[plot]" in err
    assert not (tmp_path / "r").exists()


def test_comparison_brings_the_jackpot_section_to_other_editions() -> None:
    classic = collect("classic", 3, 2, seed=0, bot="heuristic", workers=1, rules=SINGLE)
    jackpot = collect("wild-jackpot", 3, 2, seed=0, bot="heuristic", workers=1, rules=SINGLE)
    assert sum(jackpot.levers) > 0
    text = render_markdown(classic, [classic, jackpot], command="unokit stats --compare")
    assert "Made with `unokit stats --compare`." in text
    assert JACKPOT_SECTION in text and COMPARE_SECTION in text
    pulls = sum(jackpot.levers)
    assert f"In the wild-jackpot matches of the comparison below, the lever was pulled {pulls} times" in text
    assert f"| draw-four | {jackpot.levers[5]} |" in text
    alone = render_markdown(classic)
    assert JACKPOT_SECTION not in alone and COMPARE_SECTION not in alone and "Made with" not in alone


# ---------------------------------------------------------------- the compiled engine


def test_the_compiled_engine_gathers_the_same_statistics() -> None:
    """``engine="fast"``: the compiled engine and bots play other deals of the same rules, so their
    statistics agree with the Python engine's within sampling error, and every count is consistent."""
    fast = collect("classic", 3, 600, seed=2, bot="heuristic", engine="fast")
    python = collect("classic", 3, 60, seed=2, bot="heuristic", workers=1, engine="python")
    assert (fast.engine, python.engine) == ("fast", "python")
    assert fast.unfinished == 0 and fast.to_dict()["engine"] == "fast"
    assert total(fast.rounds_per_match) == fast.rounds == fast.round_points.total()
    assert sum(fast.wins_by_position) == fast.rounds  # one winner per round
    assert min(fast.winner_scores) >= 500  # every match played to the target
    assert 0 < fast.first_player_rounds <= fast.rounds
    ratio = mean(fast.decisions_per_round) / mean(python.decisions_per_round)
    assert 0.85 < ratio < 1.15, ratio
    ratio = mean(fast.rounds_per_match) / mean(python.rounds_per_match)
    assert 0.8 < ratio < 1.25, ratio
    first_fast = fast.first_player_wins / fast.first_player_rounds
    first_python = python.first_player_wins / python.first_player_rounds
    assert abs(first_fast - first_python) < 0.08
    assert set(fast.plays) <= {int(k) for k in Kind}
    randomly = collect("classic", 3, 40, seed=2, bot="random", engine="fast")
    assert mean(randomly.decisions_per_round) > 3 * mean(fast.decisions_per_round)
    # the same seed gives the same statistics
    again = collect("classic", 3, 600, seed=2, bot="heuristic", engine="fast")
    assert (again.decisions_per_round, again.wins_by_position) == (fast.decisions_per_round, fast.wins_by_position)


@pytest.mark.parametrize(
    ("edition", "rules", "python_games"),
    [
        ("space-jam", {"target_score": 200}, 40),
        ("all-wild", {}, 200),
        ("classic", {"preset": "house"}, 30),
        ("wild-jackpot", {"target_score": 200}, 40),
        ("classic", {"scoring": "knockout", "mercy": True, "mercy_limit": 12}, 100),  # seats out
    ],
)
def test_the_compiled_engine_gathers_the_same_statistics_in_every_edition_it_plays(
    edition: str, rules: dict[str, Any], python_games: int
) -> None:
    """The other editions and house rules: counts consistent, agreeing with the Python engine's
    within sampling error (the special cards played per round too)."""
    fast = collect(edition, 3, 400, seed=2, bot="heuristic", engine="fast", rules=rules)
    python = collect(edition, 3, python_games, seed=2, bot="heuristic", workers=1, engine="python", rules=rules)
    assert (fast.engine, python.engine, fast.unfinished) == ("fast", "python", 0)
    assert total(fast.rounds_per_match) == fast.rounds == fast.round_points.total() == sum(fast.wins_by_position)
    ratio = mean(fast.decisions_per_round) / mean(python.decisions_per_round)
    assert 0.85 < ratio < 1.15, ratio
    ratio = mean(fast.rounds_per_match) / mean(python.rounds_per_match)
    assert 0.8 < ratio < 1.25, ratio
    first_fast = fast.first_player_wins / fast.first_player_rounds
    first_python = python.first_player_wins / python.first_player_rounds
    assert abs(first_fast - first_python) < 0.1
    fast_plays, python_plays = fast.to_dict()["plays_per_round"], python.to_dict()["plays_per_round"]
    assert set(fast_plays) == set(python_plays) == {KIND_NAMES[kind] for kind in special_kinds(edition)}
    for name, rate in fast_plays.items():
        assert 0.8 < rate / python_plays[name] < 1.25, name
    if fast.jackpot:  # the lever's outcomes and the rule cards performed, per round, as in Python
        for count_fast, count_python in (
            (sum(fast.levers), sum(python.levers)),
            (fast.rules_enforced, python.rules_enforced),
            (fast.rules_honour, python.rules_honour),
        ):
            assert 0.75 < (count_fast / fast.rounds) / (count_python / python.rounds) < 1.33
        jackpots = fast.plays[int(Kind.JACKPOT)] + fast.plays[int(Kind.WILD_JACKPOT)]
        assert jackpots >= sum(fast.levers) > 0  # only a Jackpot played pulls the lever
        assert fast.to_dict()["rule_cards_performed"] == {"enforced": fast.rules_enforced, "honour": fast.rules_honour}


def test_the_compiled_engine_plays_wild_jackpot_with_written_rule_cards() -> None:
    """``rule_cards`` play on the compiled engine too: no honour task among enforced cards."""
    cards = ("Draw 2 cards.", "Swap hands with the player with the fewest cards.")
    fast = collect("wild-jackpot", 3, 200, seed=1, bot="heuristic", engine="fast", rules=SINGLE, rule_cards=cards)
    assert fast.engine == "fast" and fast.rules_enforced > 0 == fast.rules_honour
    plain = collect("wild-jackpot", 3, 200, seed=1, bot="heuristic", engine="fast", rules=SINGLE)
    assert plain.rules_honour > 0
    assert collect("wild-jackpot", 3, 2, seed=0, rules=SINGLE, engine="auto").engine == "fast"


def test_the_compiled_engine_refuses_what_it_does_not_play(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(UnknownOptionError, match="random and heuristic bots"):
        collect("classic", 3, 2, seed=0, bot="ismcts", engine="fast")
    assert collect("all-wild", 3, 2, seed=0, engine="auto").engine == "fast"
    big = Rules.from_dict({"deck": {"R1": 300}})
    with pytest.raises(UnknownOptionError, match="decks of up to 256 cards"):
        collect("classic", 3, 2, seed=0, engine="fast", rules=big)
    for rules in (Rules(mercy=True, mercy_limit=12), Rules(scoring="knockout")):  # seats out: compiled too
        for bot in ("random", "heuristic"):
            assert collect("classic", 4, 3, seed=0, bot=bot, engine="auto", rules=rules).engine == "fast"
    code, out, err = run(
        capsys, "stats", "--games", "2", "--engine", "fast", "--rule", 'deck={"R1": 300}', "--out", str(tmp_path)
    )
    assert code == 2 and out == "" and "decks of up to 256 cards" in err
    code, out, err = run(capsys, "stats", "--games", "30", "--bots", "heuristic", "--out", str(tmp_path))
    assert code == 0, err
    assert "| engine | the compiled engine (unokit.fast), heuristic bots |" in (tmp_path / "report.md").read_text()
