"""The full-screen table (``unokit play`` on a terminal), driven by Textual's pilot pressing keys."""

from __future__ import annotations

import asyncio
import contextlib
import html
import io
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from unokit.bots.base import make_bot
from unokit.cli import build_parser, main
from unokit.cli.common import Screen, UsageError
from unokit.cli.tui.app import DIALOG_PHASES, TableApp
from unokit.cli.tui.cards import COLOUR_MARKS
from unokit.cli.tui.dialogs import ChoiceScreen, ConfirmScreen, MessageScreen, RuleCardsScreen
from unokit.cli.tui.launch import build_table, wants_table
from unokit.cli.tui.session import LocalSession, TableSession
from unokit.cli.tui.widgets import HandPanel
from unokit.engine.actions import ActionType
from unokit.engine.cards import CARD_COLOUR, CARD_KIND, Kind
from unokit.engine.game import Game
from unokit.engine.record import load, replay

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


def table(argv: list[str], delay: float = 0.0) -> TableApp:
    app = build_table(build_parser().parse_args(["play", *argv]), delay=delay)
    assert isinstance(app, TableApp)
    return app


def screen_text(app: TableApp) -> str:
    """The screen's text, from its SVG screenshot."""
    return html.unescape(app.export_screenshot()).replace("\xa0", " ")


def session_of(app: TableApp) -> LocalSession:
    assert isinstance(app.session, LocalSession)
    return app.session


async def settle(pilot: Pilot[int], app: TableApp, seconds: float = 0.02) -> None:
    await pilot.pause(seconds)


async def take_turn(pilot: Pilot[int], app: TableApp) -> None:
    """One decision of yours, made with keys as a player would: a dialog's first choice, a card you
    can play (selected with the arrows, played with Enter), else draw, keep or be done."""
    screen = app.screen
    if isinstance(screen, (MessageScreen, RuleCardsScreen)):
        await pilot.press("enter")
        return
    if isinstance(screen, ChoiceScreen):
        await pilot.press("enter")
        return
    session = session_of(app)
    view = session.view()
    space = session.edition().actions
    kinds = {space.types[a] for a in view.legal_actions}
    if ActionType.CALL_UNO in kinds:
        await pilot.press("u")
        return
    if view.actor != session.seat:
        return
    if view.phase in DIALOG_PHASES:
        await pilot.press("m")  # the dialog again
        return
    hand = app.query_one(HandPanel)
    playable = [i for i, card in enumerate(hand.cards) if card in hand.playable]
    if playable:
        steps = playable[0] - hand.selected
        for _ in range(abs(steps)):
            await pilot.press("right" if steps > 0 else "left")
        await pilot.press("enter")
    elif ActionType.DRAW in kinds:
        await pilot.press("d")
    else:
        await pilot.press("p")


async def play_until(pilot: Pilot[int], app: TableApp, done: Callable[[], bool], moves: int = 3000) -> None:
    for _ in range(moves):
        if done():
            return
        await take_turn(pilot, app)
        await settle(pilot, app)
    raise AssertionError("the game did not get there")


@pytest.mark.parametrize("edition", ["classic", "all-wild", "space-jam", "wild-jackpot"])
def test_a_whole_round_in_each_edition_played_with_keys(edition: str, tmp_path: Path) -> None:
    path = tmp_path / "round.json"
    app = table(
        [
            "--edition",
            edition,
            "--players",
            "3",
            "--seed",
            "7",
            "--scoring",
            "single-round",
            "--bot",
            "heuristic",
            "--record",
            str(path),
        ]
    )

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app, 0.1)
            if edition == "wild-jackpot":
                assert isinstance(app.screen, RuleCardsScreen)  # you write your rule cards first
            await play_until(pilot, app, lambda: app.session is not None and app.session.view().winner >= 0)
            await settle(pilot, app, 0.1)
            assert isinstance(app.screen, MessageScreen)  # the match's end is told
            assert app.finished
            app.save_screenshot(str(ARTIFACTS / f"tui-{edition}-end-120x40.svg"))

    asyncio.run(run())
    record = load(path)
    game = replay(record)
    assert game.is_over and record["names"][0] == "Player"
    assert len(record["actions"]) > 3


def reach(edition: str, players: int, wanted: Callable[[Game], bool], rules: dict[str, object] | None = None) -> Game:
    """A game of random moves that has got where ``wanted`` says, seat 0 to decide."""
    for seed in range(500):
        game = Game(edition, players, seed=seed, rules={"scoring": "single-round", **(rules or {})})
        rng = random.Random(seed)
        for _ in range(400):
            if game.is_over:
                break
            if wanted(game):
                return game
            seat = game.actor
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    raise AssertionError("no game got there")


def at_table(game: Game, delay: float = 0.0, record: str | None = None) -> TableApp:
    bots = {seat: make_bot("heuristic", seed=seat, edition=game.edition.name) for seat in range(1, game.n)}
    names = ["Ann", *(f"Bot {seat}" for seat in range(1, game.n))]
    return TableApp(LocalSession(game, bots, seat=0, names=names, delay=delay), record_path=record)


def holds_playable(game: Game, kinds: set[int]) -> bool:
    if game.actor != 0 or game.phase_name != "turn":
        return False
    space = game.actions
    return any(
        space.types[a] == ActionType.PLAY and CARD_KIND[space.decode(a)[1]] in kinds for a in game.legal_actions(0)
    )


async def select(pilot: Pilot[int], app: TableApp, card_kinds: set[int]) -> int:
    hand = app.query_one(HandPanel)
    index = next(i for i, c in enumerate(hand.cards) if CARD_KIND[c] in card_kinds and c in hand.playable)
    if index < 9:
        await pilot.press(str(index + 1))
    else:
        while hand.selected != index:
            await pilot.press("right")
    return hand.cards[index]


def test_colour_dialog_after_a_wild() -> None:
    game = reach("classic", 2, lambda g: holds_playable(g, {Kind.WILD}))
    app = at_table(game, delay=30)

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app, 0.1)
            await select(pilot, app, {Kind.WILD})
            await pilot.press("enter")
            await settle(pilot, app, 0.1)
            assert isinstance(app.screen, ChoiceScreen)
            assert app.screen.title_text == "Choose a colour"
            app.save_screenshot(str(ARTIFACTS / "tui-colour-dialog.svg"))
            await pilot.press("3")  # the third colour in order: green
            await settle(pilot, app, 0.1)
            assert game.colour == 2
            assert not isinstance(app.screen, ChoiceScreen)

    asyncio.run(run())


def test_challenge_dialog_on_a_wild_draw_four() -> None:
    game = reach("classic", 2, lambda g: g.phase_name == "challenge" and g.actor == 0)
    app = at_table(game, delay=30)

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app, 0.1)
            assert isinstance(app.screen, ChoiceScreen)
            assert "challenge or accept" in app.screen.title_text
            labels = [str(label) for _, label in app.screen.choices]
            assert any("challenge" in label.lower() for label in labels)
            before = len(game.history)
            await pilot.press("enter")
            await settle(pilot, app, 0.1)
            assert len(game.history) > before and game.phase_name != "challenge"

    asyncio.run(run())


def test_stacking_asks_to_add_or_accept_in_a_dialog() -> None:
    game = reach("classic", 3, lambda g: g.phase_name == "stack" and g.actor == 0, {"stacking": "same"})
    app = at_table(game, delay=30)

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app, 0.1)
            assert isinstance(app.screen, ChoiceScreen)
            assert app.screen.title_text.startswith("A penalty of")
            labels = " ".join(str(label) for _, label in app.screen.choices)
            assert "accept" in labels
            await pilot.press("escape")  # back to the table: the hand may add the card too
            await settle(pilot, app)
            assert not isinstance(app.screen, ChoiceScreen)
            await pilot.press("p")  # accept
            await settle(pilot, app, 0.1)
            assert game.phase_name != "stack" or game.actor != 0

    asyncio.run(run())


def test_target_dialog_names_the_players() -> None:
    game = reach("classic", 3, lambda g: g.phase_name == "target" and g.actor == 0, {"seven_swap": True})
    app = at_table(game, delay=30)

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app, 0.1)
            assert isinstance(app.screen, ChoiceScreen)
            assert app.screen.title_text == "Choose whom to swap hands with"
            labels = " ".join(str(label) for _, label in app.screen.choices)
            assert "Bot 1" in labels and "Bot 2" in labels
            await pilot.press("2")
            await settle(pilot, app, 0.1)
            assert game.phase_name != "target" or game.actor != 0

    asyncio.run(run())


def test_the_lever_and_the_rule_cards_in_dialogs() -> None:
    game = reach("wild-jackpot", 2, lambda g: holds_playable(g, {Kind.JACKPOT, Kind.WILD_JACKPOT}))
    app = at_table(game, delay=30)

    async def run() -> None:
        async with app.run_test(size=(110, 34)) as pilot:
            await settle(pilot, app, 0.1)
            await select(pilot, app, {Kind.JACKPOT, Kind.WILD_JACKPOT})
            await pilot.press("enter")
            await settle(pilot, app, 0.2)
            assert isinstance(app.screen, MessageScreen) and app.screen.title_text == "The lever"
            assert "pull the lever" in str(app.screen.body)
            app.save_screenshot(str(ARTIFACTS / "tui-lever-dialog.svg"))
            await pilot.press("enter")  # the message read: the lever's decision, if it asks one, comes next
            await settle(pilot, app, 0.2)
            if game.actor == 0 and game.phase_name in DIALOG_PHASES:
                assert isinstance(app.screen, ChoiceScreen)

    asyncio.run(run())


def test_writing_rule_cards_refuses_bad_text_and_reads_the_good(tmp_path: Path) -> None:
    app = table(["--edition", "wild-jackpot", "--players", "2", "--seed", "3"], delay=30)

    async def run() -> None:
        async with app.run_test(size=(110, 34)) as pilot:
            await settle(pilot, app, 0.1)
            screen = app.screen
            assert isinstance(screen, RuleCardsScreen)
            screen.query_one(Input).value = "x" * 130  # too long
            await pilot.press("enter")
            await settle(pilot, app)
            said = str(screen.query_one("#rule-said").render())
            assert "Not possible" in said and screen.texts == []
            screen.query_one(Input).value = ""
            await pilot.press(*"Draw 2 cards", "enter")
            await settle(pilot, app)
            assert screen.texts == ["Draw 2 cards"]
            while isinstance(app.screen, RuleCardsScreen):
                await pilot.press("enter")  # the suggestions
                await settle(pilot, app)
            assert app.session is not None
            assert "Draw 2 cards" in session_of(app).game.setup_rule_cards

    asyncio.run(run())


def test_a_refused_move_shows_its_reason_in_your_words() -> None:
    game = reach("classic", 3, lambda g: g.actor == 1 and g.phase_name == "turn")
    app = at_table(game, delay=30)

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app, 0.1)
            await pilot.press("d")
            await settle(pilot, app, 0.1)
            assert app.reason is not None
            assert app.reason.startswith("You may not act now: Bot 1 is to"), app.reason
            assert "seat 0" not in app.reason
            situation = str(app.query_one("#situation").render())
            assert "Not possible: You may not act now" in situation

    asyncio.run(run())


def test_an_unplayable_card_is_dimmed_and_refused_with_the_engines_reason() -> None:
    def unplayable(g: Game) -> bool:
        if g.actor != 0 or g.phase_name != "turn":
            return False
        legal = {g.actions.decode(a)[1] for a in g.legal_actions(0)}
        return any(card not in legal for card in g.hands[0])

    game = reach("classic", 2, unplayable)
    app = at_table(game, delay=30)

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app, 0.1)
            hand = app.query_one(HandPanel)
            index = next(i for i, c in enumerate(hand.cards) if c not in hand.playable)
            while hand.selected != index:
                await pilot.press("right")
            await pilot.press("enter")
            await settle(pilot, app, 0.1)
            assert app.reason is not None and "is not legal" in app.reason
            assert "does not match" in app.reason or "may not be played" in app.reason

    asyncio.run(run())


@pytest.mark.parametrize(("width", "height"), [(80, 24), (120, 40), (160, 48)])
@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
def test_the_table_fits_and_shows_the_colour_blind_marks(width: int, height: int, theme: str) -> None:
    game = reach("classic", 4, lambda g: g.actor == 0 and g.phase_name == "turn" and len(g.hands[0]) >= 7)
    app = at_table(game, delay=30)
    app.theme = theme

    async def run() -> None:
        async with app.run_test(size=(width, height)) as pilot:
            await settle(pilot, app, 0.6)
            text = screen_text(app)
            app.save_screenshot(str(ARTIFACTS / f"tui-table-{width}x{height}-{theme}.svg"))
            hand = app.query_one(HandPanel)
            for card in hand.cards:
                assert COLOUR_MARKS[CARD_COLOUR[card]] in text
            table_box = app.query_one("#table")
            log = app.query_one("#log")
            assert table_box.max_scroll_x == 0  # nothing cut on the right
            assert hand.region.right <= width and hand.region.height >= 3
            assert table_box.region.height > 0 and log.region.height >= 5
            if width < 110:
                assert log.region.y >= table_box.region.bottom  # the log under the table
            else:
                assert log.region.x >= table_box.region.right  # the log beside it
                assert table_box.max_scroll_y == 0
            assert "Catch" in text and "F1 help" in text  # the keys at the foot, the help at the top
            region = hand.region
            assert table_box.region.contains_region(region)  # your hand in sight

    asyncio.run(run())


def test_ctrl_c_saves_the_record_and_exits_130(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    app = table(["--seed", "5", "--record", str(path)], delay=0.01)

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app, 0.2)
            await pilot.press("ctrl+c")
            await settle(pilot, app)

    asyncio.run(run())
    assert app.return_value == 130
    record = load(path)
    assert record["seed"] == 5 and replay(record).history == session_of(app).game.history


def test_quit_asks_first_and_saves_the_record(tmp_path: Path) -> None:
    path = tmp_path / "quit.json"
    app = table(["--seed", "6", "--record", str(path)], delay=30)

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app, 0.1)
            await pilot.press("q")
            await settle(pilot, app)
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("n")
            await settle(pilot, app)
            assert not isinstance(app.screen, ConfirmScreen) and app.is_running
            assert not path.exists()
            await pilot.press("q")
            await settle(pilot, app)
            await pilot.press("y")
            await settle(pilot, app)

    asyncio.run(run())
    assert app.return_value == 0
    assert load(path)["seed"] == 6


def test_theme_key_switches_dark_and_light() -> None:
    game = reach("classic", 3, lambda g: g.actor == 0)
    app = at_table(game, delay=30)

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            assert app.current_theme.dark
            await pilot.press("t")
            await settle(pilot, app)
            assert not app.current_theme.dark

    asyncio.run(run())


def test_help_screen() -> None:
    game = reach("classic", 3, lambda g: g.actor == 0)
    app = at_table(game, delay=30)

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            await pilot.press("f1")
            await settle(pilot, app)
            assert "HelpScreen" in type(app.screen).__name__
            assert "catch" in screen_text(app)
            await pilot.press("escape")
            await settle(pilot, app)
            assert "HelpScreen" not in type(app.screen).__name__

    asyncio.run(run())


def test_a_bot_may_catch_you_first_when_you_forget_uno() -> None:
    """The UNO race: you play your next-to-last card without calling; the bots catch you after their delay."""

    def two_cards(g: Game) -> bool:
        return holds_playable(g, set(Kind)) and len(g.hands[0]) == 2

    game = reach("classic", 2, two_cards)
    app = at_table(game, delay=0.3)

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app, 0.05)
            hand = app.query_one(HandPanel)
            index = next(i for i, c in enumerate(hand.cards) if c in hand.playable)
            await pilot.press(str(index + 1), "enter")
            await settle(pilot, app, 0.05)
            if game.phase_name == "colour":
                await pilot.press("1")
            for _ in range(60):
                await settle(pilot, app, 0.05)
                if any(e[0] == "catch" for e in game.events):
                    break
            assert any(e[0] == "catch" for e in game.events)

    asyncio.run(run())


def test_record_to_an_unwritable_path_is_refused_before_the_game(tmp_path: Path) -> None:
    target = str(tmp_path / "missing" / "folder" / "x.json")
    with pytest.raises(UsageError, match="--record"):
        build_table(build_parser().parse_args(["play", "--record", target]))
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["play", "--record", target]) == 2
    assert err.getvalue().count("\n") == 1 and "--record" in err.getvalue()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_plain_and_pipes_keep_the_transcript() -> None:
    parser = build_parser()
    terminal = Screen(_Terminal(), _Terminal())
    assert wants_table(parser.parse_args(["play"]), terminal)
    assert not wants_table(parser.parse_args(["play", "--plain"]), terminal)
    assert not wants_table(parser.parse_args(["play"]), Screen(io.StringIO(), _Terminal()))  # output piped
    assert not wants_table(parser.parse_args(["play"]), Screen(_Terminal(), io.StringIO()))  # input piped


def test_local_session_is_a_table_session() -> None:
    game = Game("classic", 2, seed=1)
    session = LocalSession(game, {1: make_bot("random", seed=1, edition="classic")})
    assert isinstance(session, TableSession)
    assert session.record() is not None


def test_a_spectator_watches_the_bots_to_the_end() -> None:
    game = Game("classic", 3, seed=4, rules={"scoring": "single-round"})
    bots = {seat: make_bot("heuristic", seed=seat, edition="classic") for seat in range(3)}
    # the bots not at once: the round lasts past the first look
    app = TableApp(LocalSession(game, bots, seat=None, names=["Ann", "Bob", "Cy"], delay=0.02))

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app, 0.1)
            assert "You are watching." in screen_text(app)
            for _ in range(200):
                if game.is_over and isinstance(app.screen, MessageScreen):
                    break
                await settle(pilot, app, 0.05)
            assert isinstance(app.screen, MessageScreen)
            assert f"{['Ann', 'Bob', 'Cy'][game.winner]} wins the match." in str(app.screen.body)

    asyncio.run(run())


def test_in_a_real_terminal_ctrl_c_saves_the_record(tmp_path: Path) -> None:
    """``unokit play`` on a pseudo-terminal opens the table; Ctrl-C leaves it with the record saved."""
    import os
    import pty
    import select
    import sys
    import time

    path = tmp_path / "terminal.json"
    src = str(Path(__file__).resolve().parent.parent / "src")
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command on the terminal
        os.environ.update(PYTHONPATH=src, TERM="xterm-256color", COLUMNS="100", LINES="30")
        os.execv(sys.executable, [sys.executable, "-m", "unokit.cli", "play", "--seed", "2", "--record", str(path)])
    out = b""

    def read_for(seconds: float) -> None:
        nonlocal out
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    return

    for _ in range(100):
        read_for(0.2)
        if b"Your hand" in out:
            break
    assert b"Your hand" in out  # the full-screen table, not the transcript
    os.write(fd, b"\x03")
    read_for(3)
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 130
    assert b"Record saved to" in out
    assert load(path)["seed"] == 2


def test_resizing_moves_the_log_under_the_table_and_back() -> None:
    game = reach("classic", 3, lambda g: g.actor == 0)
    app = at_table(game, delay=30)

    async def run() -> None:
        async with app.run_test(size=(160, 48)) as pilot:
            await settle(pilot, app, 0.3)
            table_box, log = app.query_one("#table"), app.query_one("#log")
            assert log.region.x >= table_box.region.right
            await pilot.resize_terminal(80, 24)
            await settle(pilot, app, 0.3)
            assert log.region.y >= table_box.region.bottom and table_box.max_scroll_x == 0
            await pilot.resize_terminal(120, 40)
            await settle(pilot, app, 0.3)
            assert log.region.x >= table_box.region.right

    asyncio.run(run())


def test_hint_rates_your_moves_with_hints_on() -> None:
    game = reach("classic", 3, lambda g: g.actor == 0 and g.phase_name == "turn")
    app = at_table(game, delay=30)
    app.hints = True

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app, 0.1)
            await pilot.press("h")
            for _ in range(1500):  # the first rating ever compiles the search (about 45 s, once)
                await settle(pilot, app, 0.1)
                if isinstance(app.screen, MessageScreen):
                    break
            assert isinstance(app.screen, MessageScreen)
            assert "Hint: " in str(app.screen.body)

    asyncio.run(run())


def test_hint_is_refused_without_hints() -> None:
    game = reach("classic", 3, lambda g: g.actor == 0 and g.phase_name == "turn")
    app = at_table(game, delay=30)

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app, 0.1)
            await pilot.press("h")
            await settle(pilot, app, 0.1)
            assert app.reason is not None and "--hints" in app.reason

    asyncio.run(run())


def test_a_position_is_played_on_the_table() -> None:
    from unokit.engine.positions import public_position

    game = reach("all-wild", 3, lambda g: g.actor == 0 and g.phase_name == "turn")
    app = table(["--position", public_position(game, 0), "--seed", "1"], delay=30)

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app, 0.1)
            played = session_of(app).game
            assert played.edition.name == "all-wild" and played.n == 3
            assert sorted(app.query_one(HandPanel).cards) == sorted(game.hands[0])

    asyncio.run(run())


def test_without_textual_play_says_so_and_plays_the_transcript(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "textual", None)  # as if the terminal extra were not installed
    out = _Terminal()
    assert not wants_table(build_parser().parse_args(["play"]), Screen(out, _Terminal()))
    assert out.getvalue().count("\n") == 1 and "unokit[terminal]" in out.getvalue()
