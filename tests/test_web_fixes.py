"""Regression tests of bugs found in play: rule cards drawn for seats, the serve command's errors,
and the words of a player's own decision."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import random
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from unokit.editions import get_edition, rulecards
from unokit.editions.wild_jackpot import suggested_rule_cards
from unokit.engine import game as game_module
from unokit.engine.cards import CARD_KIND, card_name, parse_card
from unokit.engine.deck import stacked_deck
from unokit.engine.game import Game
from unokit.engine.phases import EDITION_PHASES
from unokit.engine.rules import Rules
from unokit.web.rooms import FixedSetup
from unokit.web.server import listening_socket
from web_support import Client, RunningServer, fast_settings, play_to_end


def test_suggested_rule_cards_draw_anew_from_the_generator() -> None:
    rng = random.Random(5)
    draws = [tuple(suggested_rule_cards(2, rng)) for _ in range(20)]
    assert len(set(draws)) > 1, "the same generator must not give the same cards every time"
    assert all(text in rulecards.SUGGESTIONS for draw in draws for text in draw)
    # one draw for several seats repeats a suggestion only once they are all used
    eight = suggested_rule_cards(len(rulecards.SUGGESTIONS), random.Random(1))
    assert sorted(eight) == sorted(rulecards.SUGGESTIONS)
    assert suggested_rule_cards(3, random.Random(9)) == suggested_rule_cards(3, random.Random(9))


def test_bots_of_a_wild_jackpot_room_write_different_rule_cards() -> None:
    with RunningServer(":memory:", fast_settings()) as server:
        for _ in range(3):
            host = Client(server.url)
            host.send(type="create", name="Ann", edition="wild-jackpot", seats=4, rules={"scoring": "single-round"})
            code = host.expect("welcome")["code"]
            host.expect("lobby")
            host.send(type="rule_cards", texts=["Draw 1 card.", "Make a wish."])
            host.expect("lobby", where=lambda m: m["seats"][0]["ready"])
            for seat in (1, 2, 3):
                host.send(type="seat", seat=seat, bot=True)
                host.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
            host.send(type="start")
            host.expect("update")
            texts = server.call(lambda code=code: list(server.hub.rooms[code].game.extra["texts"]))
            bots = [text for text in texts if text not in ("Draw 1 card.", "Make a wish.")]
            assert len(texts) == 8 and len(bots) == 6
            assert len(set(bots)) == 6, f"the bots wrote the same card twice: {bots}"
            host.close()


PLAY_RUN = rulecards.SUGGESTIONS[1]  # "Play as many cards in a row as you can."


@pytest.mark.parametrize("edition", ["classic", "space-jam", "all-wild", "wild-jackpot"])
def test_a_decision_is_asked_of_you_in_the_second_person(edition: str) -> None:
    game = Game(edition, 3, seed=4)
    phases = [*range(len(game_module._PHASE_ASKS)), *(EDITION_PHASES + i for i in range(len(game.edition.phase_asks)))]
    for phase in phases:
        game.phase = phase
        spoken_to, spoken_of = game.asks(you=True), game.asks()
        assert not re.search(r"\b(they|their|them)\b", spoken_to), spoken_to
        assert not re.search(r"\b(you|your)\b", spoken_of), spoken_of
        assert "{" not in spoken_to + spoken_of


def test_the_update_asks_the_actor_with_you_and_the_others_with_they() -> None:
    rules = {"hand_size": 3, "scoring": "single-round", "lever_weights": [0, 1, 0, 0, 0, 0]}
    ann, bob = ["R$", "B1", "B2"], ["R3", "R4", "Y9"]
    deck = stacked_deck("wild-jackpot", [ann, bob], "R7", dealer=1, rules=Rules.from_dict(rules))
    setup = FixedSetup(2**40 + 9, tuple(card_name(card) for card in deck), dealer=1)
    with RunningServer(":memory:", fast_settings()) as server:
        code, secret = server.create_fixed_room(setup, "wild-jackpot", seats=2, rules=rules)
        host = Client(server.url)
        host.send(type="resume", code=code, secret=secret)
        host.expect("lobby")
        guest = Client(server.url)
        guest.send(type="join", code=code, name="Bob")
        guest.expect("welcome")
        for seat, client in enumerate((host, guest)):  # every card in the dispenser is the run
            client.send(type="rule_cards", texts=[PLAY_RUN] * 4)
            client.expect("lobby", where=lambda m, seat=seat: m["seats"][seat]["ready"])
        host.send(type="start")
        first = host.expect("update")
        host.send(type="act", action="R$", version=first["version"])
        # the lever's "the player on your right": Bob runs
        bob_sees = guest.expect("update", where=lambda m: m["view"]["phase"] == "rule-run")
        ann_sees = host.expect("update", where=lambda m: m["view"]["phase"] == "rule-run")
        assert bob_sees["view"]["actor"] == 1
        assert bob_sees["asks"] == "play as many cards in a row as you can"
        assert ann_sees["asks"] == "play as many cards in a row as they can"
        host.close()
        guest.close()


def run_serve(*arguments: str) -> subprocess.CompletedProcess[str]:
    """``unokit serve`` in a process of its own (it would serve forever if it started)."""
    command = [sys.executable, "-c", "import sys; from unokit.cli import main; sys.exit(main())", "serve", *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)


def test_serve_on_a_port_in_use_says_so_and_exits_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_serve("--port", str(port), "--db", ":memory:")
    assert done.returncode == 2
    assert done.stderr.strip() == f"unokit: error: cannot listen on 127.0.0.1:{port}: the port is in use"
    assert "Traceback" not in done.stderr + done.stdout


def test_serve_with_a_database_that_cannot_be_opened_says_so_and_exits_2(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "games.sqlite3"
    done = run_serve("--port", "0", "--db", str(missing))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("unokit: error: cannot open the database"), done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert not missing.parent.exists()


def test_the_servers_connections_send_at_once() -> None:
    """Connections accepted from the socket ``unokit serve`` listens on have Nagle's algorithm off:
    left on, each response after a connection's first waited ~40 ms for the client's delayed ACK."""

    async def accepted_nodelay() -> int:
        listener = listening_socket("127.0.0.1", 0)
        flags: list[int] = []

        async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            flags.append(writer.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(accept, sock=listener)
        async with server:
            _, writer = await asyncio.open_connection(*listener.getsockname()[:2])
            while not flags:
                await asyncio.sleep(0.01)
            writer.close()
        return flags[0]

    assert asyncio.run(accepted_nodelay()) != 0


def get_json(url: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_a_room_says_where_it_stands_to_the_join_page_and_nothing_secret() -> None:
    with RunningServer(":memory:", fast_settings()) as server:
        assert get_json(f"{server.http}/api/rooms/ABCDEFGH")[0] == 404
        assert get_json(f"{server.http}/api/rooms/short")[0] == 404
        host = Client(server.url)
        host.send(type="create", name="Ann", edition="space-jam", seats=3, rules={"scoring": "single-round"})
        welcome = host.expect("welcome")
        code = welcome["code"]
        host.expect("lobby")
        status, room = get_json(f"{server.http}/api/rooms/{code.lower()}")
        assert status == 200
        assert room == {
            "code": code,
            "status": "lobby",
            "edition": "space-jam",
            "players": 3,
            "open": 2,
            "late_seats": 0,
            "options": {"timer": 30, "public": False, "late_join": True},
        }
        host.send(type="seat", seat=1, bot=True)
        host.send(type="seat", seat=2, bot=True)
        host.expect("lobby", where=lambda m: m["seats"][2]["kind"] == "bot")
        host.send(type="start")
        host.expect("update")
        room = get_json(f"{server.http}/api/rooms/{code}")[1]
        assert (room["status"], room["open"], room["late_seats"]) == ("playing", 0, 2)
        late = Client(server.url)
        late.send(type="join", code=code, name="Cy")
        assert late.expect("welcome")["claimed"] is True
        assert get_json(f"{server.http}/api/rooms/{code}")[1]["late_seats"] == 1
        hand = host.update["view"]["hand"] if host.update else []
        text = json.dumps(get_json(f"{server.http}/api/rooms/{code}")[1])
        assert welcome["secret"] not in text and "Ann" not in text and "Cy" not in text
        assert not any(f'"{card}"' in text for card in hand)
        late.close()
        host.close()


def test_the_options_give_the_servers_own_shortest_timer() -> None:
    with RunningServer(":memory:", fast_settings(min_timer=2)) as server:
        assert get_json(f"{server.http}/api/options")[1]["limits"]["timer"] == [2, 300]
    with RunningServer(":memory:", fast_settings()) as server:
        assert get_json(f"{server.http}/api/options")[1]["limits"]["timer"] == [5, 300]


def test_a_hand_counted_at_a_rounds_end_carries_each_cards_points() -> None:
    """The points of each card come from the edition, through the server: the client counts none."""
    with RunningServer(":memory:", fast_settings()) as server:
        for edition in ("classic", "all-wild", "wild-jackpot"):
            host = Client(server.url)
            host.send(type="create", name="Ann", edition=edition, seats=3, rules={"scoring": "winner-collects"})
            host.expect("welcome")
            host.expect("lobby")
            for seat in (1, 2):
                host.send(type="seat", seat=seat, bot=True)
                host.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
            if edition == "wild-jackpot":
                host.send(type="rule_cards", texts=["Draw 1 card.", "Make a wish."])
                host.expect("lobby", where=lambda m: m["seats"][0]["ready"])
            host.send(type="start")
            play_to_end(
                host,
                random.Random(3),
                stop=lambda c: any(
                    e["kind"] == "hand" for m in c.received if m["type"] == "update" for e in m["events"]
                ),
            )
            hands = [e for m in host.received if m["type"] == "update" for e in m["events"] if e["kind"] == "hand"]
            card_points = get_edition(edition).card_points
            assert hands
            for hand in hands:
                assert len(hand["points"]) == len(hand["cards"]) and sum(hand["points"]) == hand["value"]
                assert hand["points"] == [card_points[parse_card(card)] for card in hand["cards"]]
            host.close()


# ---------------------------------------------------------------- reading a round's results


def round_ended(client: Client) -> bool:
    """Whether a round has ended (not the match) in what the client received."""
    return any(
        e["kind"] == "round_end"
        for m in client.received
        if m["type"] == "update" and not m["finished"]
        for e in m["events"]
    )


def room_with_bots(server: RunningServer, seats: int = 2, **create: Any) -> tuple[Client, str, str]:
    """Ann's room of ``seats`` with bots in the other seats, begun: her client, the code and her secret."""
    rules = {"hand_size": 3, "scoring": "winner-collects", "target_score": 300}
    ann = Client(server.url)
    ann.send(type="create", name="Ann", edition="classic", seats=seats, rules=rules, **create)
    welcome = ann.expect("welcome")
    ann.expect("lobby")
    for seat in range(1, seats):
        ann.send(type="seat", seat=seat, bot=True)
        ann.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
    ann.send(type="start")
    ann.expect("update")
    return ann, welcome["code"], welcome["secret"]


def test_reading_a_rounds_results_holds_the_next_round_until_the_player_continues() -> None:
    """The turn timer (1 s here) and the bots wait while the player reads the results."""
    with RunningServer(":memory:", fast_settings(min_timer=1, results_seconds=30)) as server:
        ann, code, _ = room_with_bots(server, timer=1)
        watcher = Client(server.url)
        watcher.send(type="spectate", code=code)
        watcher.expect("update")
        ended = play_to_end(ann, random.Random(2), stop=round_ended)
        assert not ended["finished"]
        assert ended["reading"]["waiting"] == [0], "the spectator does not hold the table"
        assert ended["timer"] is None and ended["legal"] == []
        version = ended["version"]
        later = ann.quiet(2.5)  # past the 1 s turn timer
        assert all(m["version"] == version for m in later if m["type"] == "update"), "nobody moved"
        assert not server.call(lambda: server.hub.rooms[code].seats[0].auto), "the bot did not take Ann's seat"
        ann.send(type="act", action="draw", version=version)
        assert ann.expect("error")["code"] == "forbidden"
        watcher.send(type="continue")  # a spectator's changes nothing
        assert server.call(lambda: sorted(server.hub.rooms[code].reading)) == [0]
        ann.send(type="continue")
        going = ann.expect("update", where=lambda m: m["reading"] is None)
        assert going["legal"] or going["view"]["actor"] != 0
        if going["view"]["actor"] == 0:
            assert going["timer"]["seat"] == 0 and going["timer"]["remaining"] > 0.5, "the timer counts from now"
        final = play_to_end(ann, random.Random(3))
        assert final["finished"] and final["reading"] is None, "the match ends as it did"
        watcher.close()
        ann.close()


def test_the_results_hold_the_table_only_for_connected_players_and_a_bounded_time() -> None:
    with RunningServer(":memory:", fast_settings(results_seconds=1.0)) as server:
        ann, _, _ = room_with_bots(server)
        ended = play_to_end(ann, random.Random(5), stop=round_ended)
        began = time.monotonic()
        assert ended["reading"]["waiting"] == [0] and 0 < ended["reading"]["remaining"] <= 1.0
        going = ann.expect("update", timeout=5, where=lambda m: m["reading"] is None)
        assert time.monotonic() - began >= 0.8, "play went on only once the bound passed"
        assert going["legal"] or going["view"]["actor"] != 0
        ann.close()
    with RunningServer(":memory:", fast_settings(results_seconds=30)) as server:
        ann, code, _ = room_with_bots(server)
        play_to_end(ann, random.Random(5), stop=round_ended)
        ann.close()  # gone while reading: play goes on without waiting for the bound
        deadline = time.monotonic() + 5
        while server.call(lambda: bool(server.hub.rooms[code].reading)):
            assert time.monotonic() < deadline, "a player who left still holds the table"
            time.sleep(0.05)


def test_every_player_at_the_table_closes_the_results_before_the_next_round() -> None:
    with RunningServer(":memory:", fast_settings(results_seconds=30)) as server:
        ann = Client(server.url)
        ann.send(type="create", name="Ann", edition="classic", seats=3, rules={"hand_size": 3, "target_score": 300})
        code = ann.expect("welcome")["code"]
        bob = Client(server.url)
        bob.send(type="join", code=code, name="Bob")
        bob.expect("welcome")
        ann.send(type="seat", seat=2, bot=True)
        ann.expect("lobby", where=lambda m: m["seats"][2]["kind"] == "bot")
        ann.send(type="start")
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            ends = list(
                pool.map(
                    lambda pair: play_to_end(pair[0], random.Random(pair[1]), stop=round_ended), [(ann, 1), (bob, 2)]
                )
            )
        assert all(sorted(end["reading"]["waiting"]) == [0, 1] for end in ends)
        ann.send(type="continue")
        assert ann.expect("update", where=lambda m: m["reading"] is not None and m["reading"]["waiting"] == [1])
        assert bob.expect("update", where=lambda m: m["reading"]["waiting"] == [1])["legal"] == [], "Bob reads on"
        bob.send(type="continue")
        assert bob.expect("update", where=lambda m: m["reading"] is None)
        ann.expect("update", where=lambda m: m["reading"] is None)
        ann.close()
        bob.close()


def test_a_restart_while_the_players_read_the_results_does_not_stall_the_room(tmp_path: Path) -> None:
    db = str(tmp_path / "rooms.sqlite3")
    with RunningServer(db, fast_settings(results_seconds=600)) as server:
        ann, code, secret = room_with_bots(server)
        ended = play_to_end(ann, random.Random(11), stop=round_ended)
        assert ended["reading"]["waiting"] == [0]
        ann.close()
    with RunningServer(db, fast_settings(results_seconds=600)) as server:
        ann = Client(server.url)
        ann.send(type="resume", code=code, secret=secret, version=ended["version"])
        back = ann.expect("update")
        assert back["reading"] is None, "the wait is not kept across a restart"
        final = play_to_end(ann, random.Random(12))
        assert final["finished"]
        ann.close()


# ---------------------------------------------------------------- cards by name in the words people read

ALL_CODES = {card_name(card) for card in range(len(CARD_KIND)) if CARD_KIND[card] >= 0}
"""Every card's notation, in every edition."""


@pytest.mark.parametrize("edition", ["classic", "space-jam", "all-wild", "wild-jackpot"])
@pytest.mark.parametrize("scoring", ["single-round", "winner-collects"])
def test_the_words_the_server_sends_name_cards_and_never_show_codes(edition: str, scoring: str) -> None:
    rules: dict[str, Any] = {"scoring": scoring, "target_score": 60, "hand_size": 5}
    with RunningServer(":memory:", fast_settings(results_seconds=0)) as server:
        ann = Client(server.url)
        ann.send(type="create", name="Ann", edition=edition, seats=3, rules=rules)
        code = ann.expect("welcome")["code"]
        for seat in (1, 2):
            ann.send(type="seat", seat=seat, bot=True)
            ann.expect("lobby", where=lambda m, s=seat: m["seats"][s]["kind"] == "bot")
        if edition == "wild-jackpot":
            ann.send(type="rule_cards", texts=["Draw 1 card.", "Make a wish."])
            ann.expect("lobby", where=lambda m: m["seats"][0]["ready"])
        watcher = Client(server.url)
        watcher.send(type="spectate", code=code)
        ann.send(type="start")
        play_to_end(ann, random.Random(8))
        watcher.expect("update", where=lambda m: m["finished"])
        for client in (ann, watcher):
            texts = [e["text"] for m in client.received if m["type"] == "update" for e in m["events"]]
            assert any("dealt" in text for text in texts)
            for text in texts:
                shown = ALL_CODES.intersection(re.findall(r"[A-Za-z0-9$+]+", text))
                assert not shown, f"{text!r} shows {shown}"
                if scoring == "single-round":
                    assert "point" not in text, f"{text!r}: no points are counted in a single round"
            if client is ann:  # her own hand, by name: "You are dealt 5 cards: red 7, ..."
                assert any(re.match(r"You are dealt \d+ cards: [a-zW]", text) for text in texts)
        watcher.close()
        ann.close()


# ---------------------------------------------------------------- a rematch keeps the chat and the links


def test_a_rematch_keeps_the_rooms_chat_and_its_old_links_lead_there(tmp_path: Path) -> None:
    db = str(tmp_path / "rooms.sqlite3")
    with RunningServer(db, fast_settings()) as server:
        ann = Client(server.url)
        ann.send(type="create", name="Ann", edition="classic", seats=2, rules={"scoring": "single-round"})
        welcome = ann.expect("welcome")
        code = welcome["code"]
        ann.send(type="seat", seat=1, bot=True)
        ann.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "bot")
        ann.send(type="chat", text="good luck")
        ann.expect("chat")
        ann.send(type="start")
        ann.send(type="chat", text="nice one")
        ann.expect("chat")
        play_to_end(ann, random.Random(4))
        ann.send(type="rematch")
        moved = ann.expect("moved")
        new = moved["code"]
        ann.close()
        ann = Client(server.url)
        ann.send(type="resume", code=new, secret=moved["secret"])
        history = ann.expect("chat_history")
        assert [m["text"] for m in history["messages"]] == ["good luck", "nice one"], "the chat came along"
        ann.send(type="chat", text="again!")
        assert ann.expect("chat")["id"] > max(m["id"] for m in history["messages"])
        ann.close()
        for ask in (
            {"type": "resume", "secret": welcome["secret"]},
            {"type": "spectate"},
            {"type": "join", "name": "Cy"},
        ):
            old = Client(server.url)
            old.send(code=code, **ask)
            assert old.expect("moved") == {"type": "moved", "code": new, "seat": None}, ask
            old.close()
    with RunningServer(db, fast_settings()) as server:  # stored: after a restart too
        old = Client(server.url)
        old.send(type="spectate", code=code)
        assert old.expect("moved") == {"type": "moved", "code": new, "seat": None}
        old.close()
        ann = Client(server.url)
        ann.send(type="resume", code=new, secret=moved["secret"])
        assert [m["text"] for m in ann.expect("chat_history")["messages"]] == ["good luck", "nice one", "again!"]
        ann.close()
