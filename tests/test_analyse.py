"""Rating moves (:mod:`unokit.analysis.ratings`, ``unokit analyse``): a move that wins at once comes
first, exact ratings agree with the solver, only the seat's knowledge is read, records are rated
decision by decision, and the command line reads positions and records."""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from rules_support import stacked_game
from unokit import Game
from unokit.analysis.ratings import SOLVE_NODES, AnalysisError, analyse, analyse_record
from unokit.analysis.solve import SolveError, solve_round
from unokit.bots import make_bot
from unokit.bots.base import interrupt_actions
from unokit.bots.runner import play_match
from unokit.cli import main
from unokit.cli.analyse import read_target
from unokit.engine.deck import stacked_deck
from unokit.engine.positions import public_position
from unokit.engine.record import replay, to_record

POOL = ["R1", "R2", "R7", "RS", "RR", "R+2", "B1", "B2", "B7", "BS", "G1", "G7", "Y2", "W", "W+4"]


def endgame(hands: Sequence[Sequence[str]], start: str, draw: Sequence[str] = (), **options: Any) -> Game:
    """A game whose deck is exactly ``hands``, ``start`` and ``draw`` (the last seat deals)."""
    deck = Counter([*(card for hand in hands for card in hand), start, *draw])
    return stacked_game("classic", hands, start, draw, deck=dict(deck), **options)


def notations(analysis: Any) -> list[str]:
    return [move.notation for move in analysis.moves]


def ratings(analysis: Any) -> list[tuple[str, float, float, float, float]]:
    return [(m.notation, m.win, m.low, m.high, m.loss) for m in analysis.moves]


# ---------------------------------------------------------------- one decision


def test_a_move_that_wins_at_once_is_ranked_first_by_rollouts() -> None:
    # A whole deck: seat 0's last card is playable; drawing instead rarely wins.
    game = stacked_game("classic", [["R7"], ["G2"], ["B4"]], "R9", scoring="single-round")
    for playouts in ("fast", "python"):
        analysis = analyse(game, rollouts=48, playouts=playouts)
        assert not analysis.exact and analysis.rollouts == 48
        assert analysis.method == ("rollouts" if playouts == "fast" else "python")
        assert notations(analysis) == ["R7", "draw"]
        best, draw = analysis.moves
        assert (best.win, best.high, best.loss) == (1.0, 1.0, 0.0) and best.low > 0.9
        assert draw.win < 0.6 and draw.loss == 1.0 - draw.win
        assert draw.low <= draw.win <= draw.high


def test_a_move_that_wins_at_once_is_ranked_first_exactly() -> None:
    game = endgame([["B7"], ["G1"], ["Y2"]], "B2")
    analysis = analyse(game, exact=True)
    assert analysis.exact and analysis.method == "exact" and analysis.rollouts == 0
    assert analysis.best.notation == "B7" and analysis.best.win == 1.0
    assert all(m.low == m.win == m.high and m.win in (0.0, 1.0) for m in analysis.moves)
    # from its own view seat 0 does not know who holds G1 and who Y2: not exact
    assert not analyse(game, rollouts=16).exact


def test_the_end_of_a_round_where_the_seat_knows_every_card_is_exact() -> None:
    """Seat 0 holds R7 and R5, seat 1 the two cards seat 0 has not seen, and the draw pile is
    empty: seat 0 knows every card, so its own view is solved exactly."""
    game = endgame([["R7", "R5"], ["G1", "B3"]], "R2")
    analysis = analyse(game, rollouts=16)
    assert analysis.exact
    assert {"R7!", "R5!"} <= {m.notation for m in analysis.moves if m.win == 1.0}
    solution = solve_round(game)
    assert {m.action: m.win for m in analysis.moves} == {a: v[0] for a, v in solution.action_values.items()}
    assert not analyse(game, rollouts=16, exact=False).exact


def random_endgame(rng: random.Random) -> Game:
    players, size = rng.choice(((2, 1), (2, 2), (2, 2), (3, 1)))
    start = rng.choice([card for card in POOL if card[1:].isdigit()])
    cards = rng.sample([card for card in POOL if card != start], players * size + rng.randint(0, 2))
    hands = [cards[seat * size : (seat + 1) * size] for seat in range(players)]
    return endgame(hands, start, cards[players * size :], dealer=rng.randrange(players), call_uno=rng.random() < 0.5)


def test_exact_ratings_agree_with_the_solver() -> None:
    rng = random.Random(5)
    compared = 0
    for _ in range(30):
        game = random_endgame(rng)
        try:
            solution = solve_round(game, max_nodes=SOLVE_NODES)
        except SolveError:
            continue
        if solution.out_of_turn:
            continue
        analysis = analyse(game, exact=True)
        assert analysis.exact, analysis.note
        seat = solution.seat
        assert analysis.seat == seat
        rated = {m.action: m.win for m in analysis.moves}
        assert set(rated) == set(game.legal_actions(seat)) - set(
            interrupt_actions(game.actions, game.legal_actions(seat))
        )
        assert rated == {a: solution.action_values[a][seat] for a in rated}
        assert analysis.best.action in solution.best
        compared += 1
    assert compared >= 5


def test_a_position_with_hidden_cards_is_never_exact() -> None:
    game = endgame([["R7"], ["G1"], ["B3"]], "R2")
    assert not analyse(game, rollouts=16).exact  # seat 0 does not know who holds G1 and who B3
    public = public_position(game, 0)
    assert "?" in public
    assert not analyse(public, rollouts=16).exact
    full = analyse(game.position(), rollouts=16)  # a full position: every card known
    assert full.exact and full.best.win == 1.0 and full.knowledge == "full"
    own = analyse(game.position(), rollouts=16, exact=False)  # the deciding seat's view of it
    assert not own.exact and own.knowledge == "seat" and own.best.notation == "R7"


def test_too_large_a_full_position_falls_back_to_rollouts() -> None:
    game = Game("classic", 3, seed=5)
    analysis = analyse(game, rollouts=24, exact=True)
    assert not analysis.exact and analysis.rollouts == 24 and "cards in the hands" in analysis.note
    small = endgame([["R1", "R2", "B7", "G7", "Y2"], ["B1", "B2", "G1", "RS", "BS"]], "R7", ["RR", "W"])
    analysis = analyse(small, rollouts=24, exact=True, max_nodes=50)
    assert not analysis.exact and "max_nodes" in analysis.note


def test_only_the_seats_knowledge_is_read() -> None:
    mine = ["R1", "R2", "R3", "G4", "B5", "Y6", "W"]
    one = stacked_deck("classic", [mine, ["B1"] * 2 + ["B2"] * 2 + ["B3"] * 2 + ["Y9"]], "R9", ["G7"], dealer=1)
    two = stacked_deck("classic", [mine, ["Y1"] * 2 + ["Y2"] * 2 + ["Y3"] * 2 + ["G9"]], "R9", ["B7"], dealer=1)
    games = [Game("classic", 2, seed=3, deck=deck, dealer=1) for deck in (one, two)]
    assert games[0].view(0) == games[1].view(0) and games[0].hands[1] != games[1].hands[1]
    results = [ratings(analyse(game, rollouts=64, seed=2)) for game in games]
    assert results[0] == results[1]
    assert results[0] != ratings(analyse(games[0], rollouts=64, seed=2, exact=True))  # all cards: other ratings


def test_deterministic_for_a_seed_with_rollouts() -> None:
    game = Game("classic", 4, seed=8)
    first = analyse(game, rollouts=40, seed=6)
    assert ratings(first) == ratings(analyse(game, rollouts=40, seed=6))
    assert first.to_dict()["moves"] == analyse(game, rollouts=40, seed=6).to_dict()["moves"]
    public = public_position(game, game.actor)
    assert ratings(analyse(public, rollouts=40, seed=6)) == ratings(analyse(public, rollouts=40, seed=6))


def test_a_time_budget_bounds_the_analysis() -> None:
    game = Game("classic", 3, seed=2)
    analysis = analyse(game, seconds=0.2)
    assert analysis.seconds < 1.5 and analysis.rollouts >= 8


def test_calls_and_catches_are_not_rated_and_a_forgotten_call_is() -> None:
    game = stacked_game("classic", [["B1", "B2"], ["R1", "R2"]], "R9", ["G7", "G8"], dealer=1)
    game.apply_notation(0, "draw")
    game.apply_notation(1, "R1")  # next-to-last card, no call: seat 0 may catch
    analysis = analyse(game, rollouts=16)
    assert analysis.unrated == ("catch@1",)
    assert "catch@1" not in notations(analysis)
    fresh = stacked_game("classic", [["R5", "B2"], ["G1", "G2"]], "R9", ["G7", "G8"], dealer=1)
    assert {"R5", "R5!"} <= set(notations(analyse(fresh, rollouts=16)))


def test_bad_requests_are_refused() -> None:
    game = Game("classic", 3, seed=2)
    other = (game.actor + 1) % 3
    with pytest.raises(AnalysisError, match=f"seat {other} is not deciding"):
        analyse(game, other)
    with pytest.raises(AnalysisError, match="seat must be"):
        analyse(game, 3)
    with pytest.raises(AnalysisError, match="rollouts"):
        analyse(game, rollouts=0)
    with pytest.raises(AnalysisError, match="seconds"):
        analyse(game, seconds=-1)
    with pytest.raises(AnalysisError, match="hand"):
        analyse(public_position(game, None))  # a spectator's position: the deciding seat's moves are unknown
    with pytest.raises(ValueError, match="position"):
        analyse("unopos=1 edition=nope")


# ---------------------------------------------------------------- records


def short_record(seed: int = 7) -> dict[str, Any]:
    game = Game("classic", 2, seed=seed, rules={"scoring": "single-round"})
    play_match(game, [make_bot("random", seed=1, edition="classic"), make_bot("heuristic", seed=2, edition="classic")])
    return to_record(game)


def decisions_of(record: dict[str, Any], seat: int) -> list[int]:
    """The steps where ``seat`` decided in turn (not a call or a catch)."""
    game = replay(record, upto=0)
    steps = []
    for index, (who, text) in enumerate(record["actions"]):
        action = game.parse_action(text)
        if who == seat and game.actor == seat and not interrupt_actions(game.actions, (action,)):
            steps.append(index)
        game.apply(who, action)
    return steps


def test_every_decision_of_the_seat_is_rated_and_mistakes_name_a_better_move() -> None:
    record = short_record()
    result = analyse_record(record, 0, rollouts=24, threshold=0.05)
    assert [d.step for d in result.decisions] == decisions_of(record, 0)
    assert result.decisions and result.mistakes
    for decision in result.decisions:
        assert decision.played == record["actions"][decision.step][1]
        assert decision.played in notations(decision.analysis)
        assert decision.win == decision.analysis.rating(decision.analysis.moves[0].action).win - decision.loss
        assert decision.mistake == (decision.loss > 0.05)
        assert decision.round == 1
    for mistake in result.mistakes:
        assert mistake.loss > 0.05 and mistake.better is not None
        assert mistake.better.notation != mistake.played and mistake.better.win > mistake.win
    data = json.loads(json.dumps(result.to_dict()))
    assert data["mistakes"] == [d.step for d in result.mistakes]
    assert [d["better"] is not None for d in data["decisions"]] == [d.mistake for d in result.decisions]


def test_chosen_steps_are_rated_alike() -> None:
    record = short_record()
    steps = decisions_of(record, 1)[:3]
    some = analyse_record(record, 1, rollouts=16, steps=steps[1:])
    every = analyse_record(record, 1, rollouts=16, steps=steps)
    assert [d.step for d in some.decisions] == steps[1:]
    assert [ratings(d.analysis) for d in some.decisions] == [ratings(d.analysis) for d in every.decisions[1:]]
    not_hers = decisions_of(record, 0)[0]
    with pytest.raises(AnalysisError, match=f"step {not_hers}"):
        analyse_record(record, 1, rollouts=16, steps=[not_hers])
    with pytest.raises(AnalysisError, match="step"):
        analyse_record(record, 1, rollouts=16, steps=[10_000])
    with pytest.raises(AnalysisError, match="seat"):
        analyse_record(record, 2, rollouts=16)


# ---------------------------------------------------------------- the command line


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cli_rates_a_position(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = stacked_game("classic", [["R7"], ["G2"], ["B4"]], "R9", scoring="single-round")
    line = public_position(game, 0)
    code, out, err = run(capsys, "analyse", line, "--rollouts", "16")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Seat 0 to decide") and "16 compiled heuristic rollouts" in lines[0]
    assert lines[1].split() == ["move", "win", "95%", "interval", "loss"]
    assert lines[2].split()[:2] == ["R7", "100.0%"] and lines[2].split()[-1] == "best"
    assert lines[3].split()[0] == "draw"
    assert "Best: R7" in out
    path = tmp_path / "position.txt"
    path.write_text(line + "\n")
    code, out, _ = run(capsys, "analyse", str(path), "--rollouts", "16", "--json")
    data = json.loads(out)
    assert code == 0 and data["best"] == "R7" and data["moves"][0]["win"] == 1.0 and data["rollouts"] == 16
    kind, text = read_target("-", io.StringIO(line + "\n"))
    assert (kind, text) == ("position", line)
    code, out, _ = run(capsys, "analyse", game.position(), "--rollouts", "16")
    assert code == 0 and out.startswith("Seat 0 to decide, every card known (a full position): ")
    code, out, _ = run(capsys, "analyse", game.position(), "--rollouts", "16", "--own-view")
    assert code == 0 and out.startswith("Seat 0 to decide, from its own knowledge: 16 compiled")


def test_cli_rates_a_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = short_record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    code, out, err = run(capsys, "analyse", str(path), "--seat", "1", "--rollouts", "8", "--threshold", "0.05")
    assert code == 0 and err == ""
    assert out.startswith(f"Seat 1: {len(decisions_of(record, 1))} decisions rated")
    assert "action  round  played" in out
    code, out, _ = run(capsys, "analyse", str(path), "--rollouts", "8", "--json")
    data = json.loads(out)
    assert code == 0 and data["seat"] == 0 and len(data["decisions"]) == len(decisions_of(record, 0))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing/game.json"], "no such file"),
        (["unopos=1 edition=classic"], "position"),
        (["RECORD", "--seat", "5"], "seat must be"),
        (["POSITION", "--seat", "1"], "seat 1 is not deciding"),
        (["POSITION", "--rollouts", "0"], "--rollouts"),
        (["POSITION", "--seconds", "0"], "--seconds"),
        (["RECORD", "--threshold", "2"], "--threshold"),
    ],
)
def test_cli_bad_arguments_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], message: str
) -> None:
    record = tmp_path / "game.json"
    record.write_text(json.dumps(short_record()))
    position = public_position(Game("classic", 2, seed=1, dealer=1), 0)
    argv = [{"RECORD": str(record), "POSITION": position}.get(arg, arg) for arg in args]
    code, out, err = run(capsys, "analyse", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "unokit: error:" in err and message in err
    assert "Traceback" not in err


# ---------------------------------------------------------------- the terminal game's hint


def test_play_hint_rates_your_moves_only_when_asked_for(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["play", "--players", "2", "--seed", "4", "--bot", "heuristic"]
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\nquit\n"))
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "Hints are off: start the game with --hints" in out
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\nquit\n"))
    code, out, _ = run(capsys, *argv, "--hints")
    assert code == 0 and "Your chance to win the round after each move" in out
    table = out.split("Your chance to win the round after each move")[1].splitlines()
    assert table[1].split() == ["move", "win", "95%", "interval", "loss"]
    assert table[2].split()[-1] == "best"
    hint = next(line for line in table if line.startswith("Hint: "))
    assert hint.split()[1] == table[2].split()[0]


def test_a_record_that_starts_from_a_position_is_rated() -> None:
    from unokit.engine.setup import set_up

    game = set_up(
        "classic",
        2,
        hands=[["R7", "B2", "G5"], ["G1", "Y3", "B9"]],
        top="R2",
        seed=3,
        rules={"scoring": "single-round"},
    )
    play_match(
        game, [make_bot("heuristic", seed=1, edition="classic"), make_bot("heuristic", seed=2, edition="classic")]
    )
    record = to_record(game)
    assert "position" in record
    result = analyse_record(record, 0, rollouts=16)
    assert [d.step for d in result.decisions] == decisions_of(record, 0)
    assert result.decisions[0].played == record["actions"][0][1]
