"""``unokit join``: the terminal as a player in a web room, against the real server (and a real browser)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser_support import (  # noqa: F401  (fixtures, used by their names)
    DESKTOP,
    browser_fixture,
    live_server_fixture,
    open_page_fixture,
    playwright_instance_fixture,
    try_click,
    wait_for_my_move,
)
from unokit.cli import main
from unokit.cli.common import Screen
from unokit.cli.join import play_plain
from unokit.cli.remote import RemoteSession, parse_target
from web_support import Client, RunningServer, fast_settings


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with RunningServer(settings=fast_settings()) as running:
        yield running


def host_room(server: RunningServer, seats: int, bots: tuple[int, ...], **create: Any) -> tuple[Client, str]:
    """A room hosted by a scripted "Ann" in seat 0, the seats ``bots`` given to bots; returns the host and the code."""
    host = Client(server.url)
    host.send(type="create", name="Ann", edition="classic", seats=seats, **create)
    code = host.expect("welcome")["code"]
    for seat in bots:
        host.send(type="seat", seat=seat, bot=True)
        host.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
    return host, code


def start_when(host: Client, ready: Callable[[dict[str, Any]], bool], leave: bool = True) -> threading.Thread:
    """In the background: the host starts the match once its lobby is ``ready``, wishes good luck in the
    chat, then (``leave``) leaves its seat to the room's bot."""

    def run() -> None:
        host.expect("lobby", timeout=30, where=ready)
        host.send(type="start")
        host.expect("update")
        host.send(type="chat", text="Good luck!")
        host.expect("chat")
        if leave:
            host.send(type="leave")
            host.expect("left")

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def play_in_room(
    server: Any,
    code: str,
    answers: str,
    *,
    name: str = "Bob",
    spectate: bool = False,
    during: Callable[[RemoteSession], Any] | None = None,
    opened: Callable[[RemoteSession], None] | None = None,
    limit: float = 60.0,
) -> tuple[RemoteSession, int, str]:
    """``unokit join --plain`` in this process, typing ``answers``, in room ``code`` (or at an invite link)
    of ``server``; returns the session (every view it got), the exit status and the transcript.
    ``during``: a coroutine run beside it with the session; ``opened``: told the session before it connects;
    ``limit``: the seconds the match may last."""
    out = io.StringIO()
    screen = Screen(out, io.StringIO(answers))
    target = parse_target(code, None) if "://" in code else parse_target(code, server.http)
    session = RemoteSession(target, name, spectate=spectate)
    if opened is not None:
        opened(session)

    async def run() -> int:
        await session.open()
        side = asyncio.get_running_loop().create_task(during(session)) if during is not None else None
        try:
            return await asyncio.wait_for(play_plain(session, screen), limit)
        finally:
            if side is not None:
                side.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await side
            await session.close()

    status = run_apart(run)
    return session, status, out.getvalue()


def run_apart(coroutine: Callable[[], Any]) -> Any:
    """``asyncio.run(coroutine())`` in a thread of its own (Playwright's synchronous API keeps a loop running
    in this one once a browser test has run)."""
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result["value"] = asyncio.run(coroutine())
        except BaseException as exc:
            result["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result["value"]


def seats_filled(lobby: dict[str, Any]) -> bool:
    return all(seat["kind"] != "open" for seat in lobby["seats"])


# ---------------------------------------------------------------- a whole round


def test_the_terminal_plays_a_whole_round_against_bots(server: RunningServer) -> None:
    host, code = host_room(server, 3, (2,), rules={"scoring": "single-round"})
    starter = start_when(host, seats_filled)
    session, status, transcript = play_in_room(server, code, "1\n" * 400)
    starter.join(10)
    host.close()
    assert status == 0, transcript
    assert session.seat == 1
    assert session.finished
    views = session.views
    assert len(views) > 5
    for view in views:
        assert view.seat == 1 and view.players == 3
        assert len(view.hand) == view.hand_sizes[1]
        assert set(view.legal_actions) <= set(range(len(session.edition().actions.types)))
    last = views[-1]
    assert last.winner >= 0 and last.round_results and last.round_results[-1].match_over
    assert len(session.events) == session.version == len(last.history)
    room = server.call(lambda: server.hub.fetch(code))
    assert server.call(lambda: room.game.view(1).to_dict(history=False)) == last.to_dict(history=False)
    assert list(server.call(lambda: room.game.view(1).history)) == list(last.history)
    assert "Your hand (7): " in transcript
    assert "The match is over: " in transcript
    assert "Move (1-" in transcript
    assert "Ann: Good luck!" in transcript


def test_a_dropped_socket_is_resumed_and_the_round_goes_on(server: RunningServer) -> None:
    host, code = host_room(server, 3, (2,), rules={"scoring": "single-round"})
    starter = start_when(host, seats_filled)
    dropped_at: list[int] = []

    async def drop_mid_round(session: RemoteSession) -> None:
        while session.version < 12:
            await asyncio.sleep(0.005)
        dropped_at.append(session.version)
        await session.drop()

    session, status, transcript = play_in_room(server, code, "1\n" * 400, during=drop_mid_round)
    starter.join(10)
    host.close()
    assert status == 0, transcript
    assert dropped_at and session.reconnections == 1
    assert "Connection lost: reconnecting…" in transcript and "Reconnected: the game goes on." in transcript
    assert session.finished and session.views[-1].winner >= 0
    assert any(view.history and len(view.history) > dropped_at[0] for view in session.views)
    room = server.call(lambda: server.hub.fetch(code))
    assert list(server.call(lambda: room.game.view(1).history)) == list(session.views[-1].history)


def test_a_spectator_follows_the_room_without_a_seat(server: RunningServer) -> None:
    host, code = host_room(server, 2, (1,), rules={"scoring": "single-round"})
    starter = start_when(host, seats_filled)
    session, status, transcript = play_in_room(server, code, "", name="", spectate=True)
    starter.join(10)
    host.close()
    assert status == 0, transcript
    assert session.seat is None and session.finished
    assert session.views and all(
        view.seat is None and view.hand == () and not view.legal_actions for view in session.views
    )
    assert "Move (" not in transcript
    assert "The match is over: " in transcript
    assert "(watching)" in transcript


def join_command(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """``unokit join ARGV`` as typed; its exit status and what it wrote on stderr."""
    status = main(["join", *argv])
    return status, capsys.readouterr().err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("unokit: error: ")
    return lines[0]


def test_each_refused_join_exits_with_one_line(server: RunningServer, capsys: pytest.CaptureFixture[str]) -> None:
    status, err = join_command(capsys, "ZZZZ2345", "--server", server.http, "--name", "Bob")
    assert status == 2 and "no room ZZZZ2345" in one_line(err)

    host, code = host_room(server, 2, (1,))
    status, err = join_command(capsys, f"{server.http}/r/{code}", "--name", "Bob")
    assert status == 2 and f"room {code} is full" in one_line(err)
    host.close()

    host, code = host_room(server, 2, (1,), late_join=False)
    host.send(type="start")
    host.expect("update")
    status, err = join_command(capsys, code, "--server", server.http, "--name", "Bob")
    assert status == 2 and "takes no late arrivals" in one_line(err)
    host.close()


def test_bad_input_and_an_unreachable_server_exit_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, err = join_command(capsys, "ABCD2345", "--server", "http://127.0.0.1:9", "--name", "Bob")
    assert status == 1 and "cannot reach the server at ws://127.0.0.1:9/ws" in one_line(err)
    cases = [
        (["http://127.0.0.1:9/rooms/ABCD2345", "--name", "Bob"], "is no invite link"),
        (["ABCD2345", "--name", "Bob"], "needs the server's address"),
        (["ABCD2345", "--server", "ftp://127.0.0.1:9", "--name", "Bob"], "is no server address"),
        (["ABCD2345", "--server", "http://127.0.0.1:9/some/path", "--name", "Bob"], "has no path"),
        (["not a code!", "--server", "http://127.0.0.1:9", "--name", "Bob"], "neither an invite link"),
        (["http://127.0.0.1:9/r/ABCD2345"], "--name NAME"),
    ]
    for argv, words in cases:
        status, err = join_command(capsys, *argv)
        assert status == 2 and words in one_line(err), (argv, err)


# ---------------------------------------------------------------- the full-screen table


def test_the_full_screen_table_plays_a_whole_round_online(server: RunningServer) -> None:
    """The table of ``unokit play`` over the room's session: moves by keys reach the server, the hand shown
    is the seat's, and the round ends on the table."""
    from textual.widgets import RichLog

    from unokit.cli.join import tell_table, until_started
    from unokit.cli.tui.app import TableApp
    from unokit.cli.tui.widgets import HandPanel

    host, code = host_room(server, 3, (2,), rules={"scoring": "single-round"})
    starter = start_when(host, seats_filled)
    out = io.StringIO()

    async def run() -> tuple[RemoteSession, int]:
        session = RemoteSession(parse_target(f"{server.http}/r/{code}", None), "Bob")
        await session.open()
        assert await until_started(session, Screen(out, io.StringIO("")))
        session.auto_continue = True
        app = TableApp(session)
        moves = 0
        async with app.run_test(size=(100, 32)) as pilot:
            teller = asyncio.get_running_loop().create_task(tell_table(session, app))
            deadline = time.monotonic() + 40
            while not session.finished and time.monotonic() < deadline:
                await pilot.pause(0.05)
                view = session.view()
                if view.actor != 1 or not view.legal_actions or session.finished:
                    continue
                assert sorted(app.query_one(HandPanel).cards) == sorted(view.hand)
                if moves == 2:
                    app.save_screenshot("join-table-playing.svg", path="test-artifacts")
                if moves == 3 and not session.reconnections:
                    await session.drop()  # the connection drops under the table: it comes back, play goes on
                    for _ in range(200):
                        if session.reconnections and session.connected:
                            break
                        await pilot.pause(0.02)
                    continue
                before = session.version
                if len(app.screen_stack) > 1:
                    await pilot.press("1")  # a dialog: its first choice
                elif view.phase == "turn":
                    await pilot.press("enter" if app.playable(view) else "d")
                elif view.phase == "drawn":
                    await pilot.press("enter")
                else:
                    await pilot.press("p")
                for _ in range(100):
                    if session.version != before:
                        moves += 1
                        break
                    await pilot.pause(0.02)
            assert session.finished, "the round did not end on the table"
            await pilot.pause(0.2)
            app.save_screenshot("join-table.svg", path="test-artifacts")
            log = "\n".join(line.text for line in app.query_one("#log", RichLog).lines)
            assert "Ann: Good luck!" in log
            assert "Reconnected: the game goes on." in log and session.reconnections == 1
            teller.cancel()
            await pilot.press("enter")
            await pilot.press("q")
        await session.close()
        return session, moves

    session, moves = run_apart(run)
    starter.join(10)
    host.close()
    assert moves >= 3
    assert session.views[-1].winner >= 0
    own = [event for event in session.events if event[1] == 1 and event[0] in ("play", "draw")]
    assert len(own) >= moves - 1


def test_the_terminal_writes_its_rule_cards_in_a_wild_jackpot_room(server: RunningServer) -> None:
    host = Client(server.url)
    host.send(type="create", name="Ann", edition="wild-jackpot", seats=3, rules={"scoring": "single-round"})
    code = host.expect("welcome")["code"]
    host.send(type="seat", seat=2, bot=True)
    cards = host.expect("lobby", where=lambda m: m["seats"][2]["kind"] == "bot")["rule_cards"]
    host.send(type="rule_cards", texts=cards["suggestions"][: cards["count"]])
    starter = start_when(host, lambda lobby: all(seat["ready"] for seat in lobby["seats"]))
    # the first card refused (too long) and written again; the others the suggestions
    answers = "x" * 130 + "\n" + "Everyone draws a card\n" + "\n" * (cards["count"] - 1) + "1\n" * 600
    session, status, transcript = play_in_room(server, code, answers)
    starter.join(10)
    host.close()
    assert status == 0, transcript[-3000:]
    assert "Not possible: " in transcript.split("Rule card 1: ")[0]
    assert "Rule card 1: Everyone draws a card" in transcript
    assert f"Rule card {cards['count']}: " in transcript
    assert "Your rule cards are in." in transcript
    assert session.lobby is not None
    assert session.lobby["rule_cards"]["mine"][0]["text"] == "Everyone draws a card"
    assert session.finished and session.views[-1].edition == "wild-jackpot"


def test_a_late_arrival_watches_until_the_seat_it_claimed_is_its_own(server: RunningServer) -> None:
    host, code = host_room(server, 2, (1,), rules={"scoring": "single-round", "hand_size": 20})
    host.send(type="start")
    host.expect("update")
    host.send(type="leave")  # the room's bot plays Ann's seat
    host.expect("left")
    session, status, transcript = play_in_room(server, code, "1\n" * 50)
    host.close()
    assert status == 0, transcript
    assert "The seat you claimed is yours at the next round: watching until then." in transcript
    assert session.finished and session.seat is None
    assert all(not view.legal_actions and view.hand == () for view in session.views)


def test_a_seat_given_away_while_the_socket_was_down_ends_the_room_in_one_line(server: RunningServer) -> None:
    host, code = host_room(server, 3, (2,))

    async def kicked_while_away(session: RemoteSession) -> None:
        while session.lobby is None or session.lobby["seats"][1]["kind"] != "human":
            await asyncio.sleep(0.01)
        await session.drop()
        await asyncio.to_thread(host.send, type="kick", seat=1)
        await asyncio.to_thread(host.expect, "lobby", 10, lambda m: m["seats"][1]["kind"] == "open")

    session, status, transcript = play_in_room(server, code, "", during=kicked_while_away)
    host.close()
    assert status == 0, transcript
    assert session.ended is not None and session.ended.startswith("The room cannot be resumed: ")
    assert transcript.rstrip().splitlines()[-1] == session.ended


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_at_a_question_leaves_the_seat_to_the_bot_at_once(server: RunningServer, signum: int) -> None:
    """``unokit join`` as a process, stopped while it waits for a move: it exits 130 at once (the question's
    thread does not hold it) and the room's bot plays the seat."""
    host, code = host_room(server, 2, ())
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "src")}
    command = [sys.executable, "-m", "unokit.cli", "join", f"{server.http}/r/{code}", "--name", "Bob", "--plain"]
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        host.expect("lobby", timeout=30, where=seats_filled)
        host.send(type="start")
        update = host.expect("update")
        if update["view"]["actor"] == 0:  # Ann's turn first: she draws (and keeps the card if asked)
            host.send(type="act", action="draw", version=update["version"])
            drawn = host.expect("update", where=lambda m: m["version"] > update["version"])
            if drawn["view"]["actor"] == 0:
                host.send(type="act", action="pass", version=drawn["version"])
        assert process.stdout is not None
        while not process.stdout.readline().startswith("   1) "):  # the moves listed: the question follows
            assert process.poll() is None, process.communicate()
        time.sleep(0.3)
        process.send_signal(signum)
        sent = time.monotonic()
        process.wait(timeout=20)  # the input left open: the question's thread still waits for a line
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130
    assert took < 5
    auto = host.expect("update", where=lambda m: m["seats"][1]["auto"])
    assert auto["seats"][1]["kind"] == "human"
    host.close()


# ---------------------------------------------------------------- beside a browser


def browser_move(page: Page) -> str | None:
    """One move of the page's player if one is asked, by clicking: a dialog's first option, a playable card,
    else draw or pass (``None``: nothing to do yet; ``results``: the results show)."""
    if page.locator("#results:not([hidden])").count():
        return "results"
    if try_click(page, "#decision:not([hidden]) #decision-options button.option:not([disabled])"):
        return "dialog"
    if try_click(page, "#hand button.card.playable:not([disabled])"):
        return "card"
    for action in ("draw", "pass"):
        if try_click(page, f'#actions button[data-action="{action}"]:not([disabled])'):
            return action
    return None


def test_a_terminal_and_a_browser_play_a_whole_round_at_one_table(live_server: Any, open_page: Any) -> None:
    """Ann creates a room in the browser; Bob joins it from the terminal with the invite link; they play a
    round, Ann by clicking, Bob typing moves; both see the same table all along."""
    watch = open_page(DESKTOP)
    page = watch.page
    page.emulate_media(reduced_motion="reduce")  # every update drawn at once: the browser keeps the terminal's pace
    page.goto(live_server.url + "/")
    page.wait_for_selector("#create-form [name=edition] option", state="attached")
    page.fill("#create-form [name=name]", "Ann")
    page.fill("#create-form [name=seats]", "2")
    page.fill("#create-form [name=target_score]", "1")
    page.click("#more-rules summary")
    page.fill('#create-form [name="rule.hand_size"]', "2")  # a short round
    page.click("#create-form button[type=submit]")
    expect(page.locator("#lobby")).to_be_visible()
    invite = page.input_value("#invite-link")

    played: dict[str, Any] = {}

    def terminal() -> None:
        try:
            played["result"] = play_in_room(
                live_server, invite, "1\n" * 400, opened=lambda s: played.update(session=s), limit=200
            )
        except BaseException as exc:
            played["error"] = exc

    thread = threading.Thread(target=terminal, daemon=True)
    thread.start()
    expect(page.locator("#lobby-seats li").nth(1)).to_contain_text("Bob")
    expect(page.locator("#start-game")).to_be_enabled()
    page.click("#start-game")
    expect(page.locator("#table")).to_be_visible()

    compared = 0
    moves: list[str] = []
    deadline = time.monotonic() + 180  # a round's length varies with the deal: most take seconds, some a minute
    while time.monotonic() < deadline:
        wait_for_my_move(page)
        if page.locator("#results:not([hidden])").count():
            break
        updates = watch.messages("update")
        if updates and compared < 3 and updates[-1]["legal"]:  # Ann's decision: the table stands still
            version = updates[-1]["version"]
            while "session" not in played and time.monotonic() < deadline:
                time.sleep(0.01)
            session: RemoteSession | None = played.get("session")
            if session is not None:
                for _ in range(500):
                    if session.version >= version:
                        break
                    time.sleep(0.01)
                if session.version == version:
                    view = session.view()  # the terminal's table, and the page's once drawn
                    top = view.to_dict(history=False)["top_card"]
                    assert top == updates[-1]["view"]["top_card"]
                    assert view.hand_sizes == tuple(updates[-1]["view"]["hand_sizes"])
                    expect(page.locator("#top-card .card").first).to_have_attribute("data-card", top)
                    expect(page.locator("#hand .card")).to_have_count(view.hand_sizes[0])
                    shown = page.locator('.seat[data-seat="1"] .count').first
                    expect(shown).to_have_text(str(len(view.hand)))
                    assert len(view.hand) == view.hand_sizes[1]
                    if compared == 0:
                        watch.screenshot("join-browser-beside-terminal")
                    compared += 1
        done = browser_move(page)
        if done == "results":
            break
        if done is not None:
            moves.append(done)
            page.wait_for_timeout(30)
    else:
        raise AssertionError(f"the round did not end; the browser's moves: {moves}")
    thread.join(30)
    assert "error" not in played, played["error"]
    session, status, transcript = played["result"]
    assert status == 0, transcript
    assert compared >= 1 and moves
    assert session.finished and session.seat == 1
    expect(page.locator("#results-title")).to_have_text(re.compile(r"(You win|Bob wins) the match!"))
    final = watch.messages("update")[-1]["view"]
    assert final["hand_sizes"] == list(session.views[-1].hand_sizes)
    assert final["winner"] == session.views[-1].winner
    assert "Your hand (2): " in transcript and "The match is over: " in transcript
    assert not watch.real_errors(), watch.errors
