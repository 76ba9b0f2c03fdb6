"""The room core without I/O (:mod:`unokit.web.core`): its rules and messages, called directly,
with the time passed in and no server, store or socket."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from unokit.engine.game import Game
from unokit.i18n import Translator, catalog
from unokit.web.core.changes import EVERYONE, Change, Send
from unokit.web.core.chat import SPECTATOR_NAME, chat_history, chat_row, reaction_text
from unokit.web.core.rematch import moved_message, rematch_ready, rematch_status, seat_rematch
from unokit.web.core.room import RoomCore
from unokit.web.core.seats import (
    Seat,
    check_host,
    copy_seats,
    fill_seat,
    kick_seat,
    next_human,
    seat_late_arrivals,
    seats_message,
    take_seat,
)
from unokit.web.core.social import BOT_AVATAR, check_signal, new_look
from unokit.web.core.writes import AppendAction, AppendChat, SaveSeats, SetHost, StartGame
from unokit.web.settings import RoomError, RoomSettings, ServerSettings


def table(*kinds: str) -> list[Seat]:
    """Seats of the given kinds, the humans named A, B, ... by seat."""
    return [Seat(i, chr(65 + i) if kind == "human" else "", kind) for i, kind in enumerate(kinds)]


def refused(code: str, message_id: str) -> pytest.RaisesExc[RoomError]:
    return pytest.raises(RoomError, check=lambda exc: (exc.code, exc.message_id) == (code, message_id))


# ---------------------------------------------------------------- seats


def test_a_newcomer_takes_the_lowest_open_seat_with_their_look() -> None:
    seats = table("human", "bot", "open", "open")
    assert take_seat(seats, "lobby", True, "Cleo", "h", ("owl", "teal")) == (2, False)
    assert (seats[2].kind, seats[2].name, seats[2].secret_hash, seats[2].avatar, seats[2].colour) == (
        "human",
        "Cleo",
        "h",
        "owl",
        "teal",
    )
    assert seats[3].kind == "open"


def test_a_full_lobby_and_a_begun_match_refuse_a_seat() -> None:
    with refused("full", "error.seats_taken"):
        take_seat(table("human", "bot"), "lobby", True, "Cleo", "h")
    with refused("started", "error.begun_watch"):
        take_seat(table("human", "open"), "playing", False, "Cleo", "h")


def test_a_late_arrival_claims_the_lowest_unclaimed_bot_seat() -> None:
    seats = table("human", "bot", "bot")
    seats[1].claim_name = "Dan"
    assert take_seat(seats, "playing", True, "Cleo", "h") == (2, True)
    assert (seats[2].kind, seats[2].claim_name, seats[2].claim_hash) == ("bot", "Cleo", "h")
    seated = seat_late_arrivals(seats, now=7.0)
    assert [(s.kind, s.name, s.away_since, s.claim_name) for s in seated[1:]] == [
        ("human", "Dan", 7.0, None),
        ("human", "Cleo", 7.0, None),
    ]
    assert seats[2].kind == "bot", "the seats given are unchanged"


def test_only_the_host_changes_the_lobby() -> None:
    check_host(0, 0, "lobby")
    with refused("forbidden", "error.host_only"):
        check_host(1, 0, "lobby")
    with refused("forbidden", "error.host_only"):
        check_host(None, None, "lobby")
    with refused("started", "error.begun"):
        check_host(0, 0, "playing")


def test_the_host_fills_an_open_or_away_seat_with_a_bot_and_empties_a_bots() -> None:
    seats = table("human", "human", "open", "bot")
    with refused("forbidden", "error.seat_taken"):
        fill_seat(seats, 1, True, 0, away=lambda seat: False)
    fill_seat(seats, 1, True, 0, away=lambda seat: seat == 1)
    fill_seat(seats, 2, True, 0, away=lambda seat: False)
    fill_seat(seats, 3, False, 0, away=lambda seat: False)
    assert [(s.kind, s.name) for s in seats] == [("human", "A"), ("bot", "Bot 1"), ("bot", "Bot 2"), ("open", "")]
    for index in (0, 9):
        with refused("forbidden", "error.seat_fixed"):
            fill_seat(seats, index, True, 0, away=lambda seat: True)
    with refused("forbidden", "error.seat_no_bot"):
        fill_seat(seats, 3, False, 0, away=lambda seat: True)


def test_the_host_kicks_a_player_but_not_themselves_nor_a_bot() -> None:
    seats = table("human", "human", "bot")
    seats[1].secret_hash = "h"
    kick_seat(seats, 1, 0)
    assert (seats[1].kind, seats[1].secret_hash) == ("open", None)
    for index in (0, 1, 2, 5):
        with refused("forbidden", "error.seat_no_player"):
            kick_seat(seats, index, 0)


def test_the_next_human_wraps_and_may_skip_those_away() -> None:
    seats = table("human", "bot", "human", "human")
    assert next_human(seats, 3) == 0
    assert next_human(seats, 0) == 2
    assert next_human(seats, 0, away=lambda seat: seat == 2) == 3
    assert next_human(seats, 0, away=lambda seat: seat != 0) is None


def test_the_seats_message_shows_looks_bots_and_voice() -> None:
    seats = table("human", "bot", "open")
    seats[0].avatar, seats[0].colour, seats[0].auto = "fox", "red", True
    shown = seats_message(seats, away=lambda seat: seat == 0, voice={0})
    assert [(s["name"], s["avatar"], s["colour"], s["away"], s["auto"], s["voice"]) for s in shown] == [
        ("A", "fox", "red", True, True, True),
        ("Seat 1", BOT_AVATAR, None, False, False, False),
        ("Seat 2", None, None, False, False, False),
    ]


# ---------------------------------------------------------------- chat, look, voice, rematch


def test_a_chat_line_is_named_by_its_seat_or_as_a_spectator() -> None:
    seats = table("human", "bot")
    assert chat_row(3, seats, 0, "hi", 12.34567).name == "A"
    spectator = chat_row(4, seats, None, "hello", 1.0)
    assert (spectator.name, spectator.time) == (SPECTATOR_NAME, 1.0)
    assert chat_history([spectator])["messages"] == [
        {"type": "chat", "id": 4, "seat": None, "name": SPECTATOR_NAME, "text": "hello", "time": 1.0}
    ]


def test_a_reaction_aims_at_a_taken_seat_other_than_the_senders() -> None:
    seats = table("human", "bot", "open")
    assert reaction_text(seats, 0, "GG", None) == "GG"
    with refused("malformed", "error.react_self"):
        reaction_text(seats, 0, "GG", 0)
    for to in (2, 7):
        with refused("malformed", "error.react_nobody"):
            reaction_text(seats, 0, "GG", to)


def test_a_look_changes_only_what_is_given() -> None:
    assert new_look((None, None), "cat", None) == ("cat", None)
    assert new_look(("cat", "red"), None, None) is None


def test_a_signal_goes_between_two_seats_in_voice() -> None:
    check_signal({0, 1}, 0, True, 1)
    with refused("forbidden", "error.voice_first"):
        check_signal({0, 1}, 0, False, 1)
    with refused("forbidden", "error.signal_self"):
        check_signal({0, 1}, 0, True, 0)
    with refused("forbidden", "error.signal_not_in_voice"):
        check_signal({0, 1}, 0, True, 2)


def test_the_rematch_begins_when_every_connected_player_voted() -> None:
    assert rematch_status(False, set(), [0]) is None
    assert rematch_status(True, {1}, [0, 1]) == {"votes": [1], "waiting": [0]}
    assert not rematch_ready(True, False, {1}, [0, 1])
    assert rematch_ready(True, False, {0, 1}, [0, 1])
    assert not rematch_ready(True, True, {0, 1}, [0, 1]), "begun already"
    assert not rematch_ready(True, False, {0}, []), "nobody connected"
    assert not rematch_ready(False, False, {0}, [0])
    assert moved_message("ABCDEFGH", 1, "s") == {"type": "moved", "code": "ABCDEFGH", "seat": 1, "secret": "s"}


def test_the_rematch_keeps_the_connected_players_and_seats_bots_elsewhere() -> None:
    old = table("human", "human", "bot")
    old[1].rule_cards, old[1].avatar = ["Sevens swap"], "owl"
    new = [Seat(i) for i in range(3)]
    host = seat_rematch(old, new, [1], {1: "h1"}, host=0, now=5.0)
    assert host == 1, "the old host left: the first player kept hosts"
    assert [(s.kind, s.name, s.secret_hash) for s in new] == [
        ("bot", "Bot 0", None),
        ("human", "B", "h1"),
        ("bot", "Bot 2", None),
    ]
    assert (new[1].rule_cards, new[1].avatar, new[1].away_since) == (["Sevens swap"], "owl", 5.0)
    assert new[1].rule_cards is not old[1].rule_cards


# ---------------------------------------------------------------- the room core


@dataclass
class Viewer:
    seat: int | None
    claim: int | None = None

    @property
    def t(self) -> Translator:
        return catalog("en")


class Table(RoomCore):
    """The core with its connections given as the seats connected: what a shell answers."""

    def __init__(self, players: int = 3, timer: int = 30, server: ServerSettings | None = None) -> None:
        settings = RoomSettings("classic", players, {}, timer=timer)
        super().__init__("ABCDEFGH", settings, created=0.0, seed=1, server=server or ServerSettings(), now=100.0)
        self.present: set[int] = set()

    def connected(self, seat: int) -> bool:
        return seat in self.present


def test_a_lobby_whose_host_is_gone_passes_the_host_after_the_grace() -> None:
    room = Table(server=ServerSettings(host_grace=15.0))
    room.seats = table("human", "human", "open")
    room.present = {1}
    assert room.due_step() == (room.seats[0].away_since + 15.0, "host")
    room.present = {0, 1}
    assert room.due_step() is None
    message = room.lobby_message(Viewer(1))
    assert (message["you"], message["host"], [s["ready"] for s in message["seats"]]) == (1, 0, [True, True, False])


def test_the_match_waits_for_the_players_reading_the_results() -> None:
    room = Table(server=ServerSettings(results_seconds=12.0))
    room.seats = table("human", "human", "bot")
    room.present = {0, 1}
    room.begin(Game("classic", 3, seed=4), now=100.0)
    room.start_reading(now=110.0)
    assert room.due_step() == (122.0, "read")
    assert room.reading_message(now=116.0) == {"waiting": [0, 1], "remaining": 6.0, "total": 12.0}
    assert room.timer_message(now=116.0) is None, "no turn is timed while the results are read"
    room.read(0, now=117.0)
    assert room.reading == {1}
    room.read(1, now=118.0)
    assert room.reading_message(now=118.0) is None
    assert (room.last_change, room.decision_since) == (118.0, 118.0)


def test_a_human_turn_is_timed_from_its_decision() -> None:
    room = Table(timer=30)
    room.seats = table("human", "human", "human")
    room.present = {0, 1, 2}
    game = Game("classic", 3, seed=4)
    room.begin(game, now=100.0)
    actor = game.actor
    assert room.timer_message(now=110.0) == {"seat": actor, "remaining": 20.0, "total": 30}
    assert room.due_step() == (130.0, "timeout")
    room.present.discard(actor)
    room.seats[actor].away_since = 101.0
    assert room.due_step() == (121.0, "timeout"), "an away player's turn is played after away_seconds"


def test_the_rematch_message_lists_the_connected_players_still_to_vote() -> None:
    room = Table(players=2)
    room.seats = table("human", "human")
    room.present = {0, 1}
    assert room.rematch_message() is None
    game = Game("classic", 2, seed=4)
    while not game.is_over:
        game.apply(game.actor, game.legal_actions(game.actor)[0])
    room.begin(game, now=100.0)
    room.votes = {1}
    assert room.rematch_message() == {"votes": [1], "waiting": [0]}
    assert room.welcome(Viewer(None, claim=1))["claimed"] is True


def test_a_write_is_data_the_shell_performs() -> None:
    seats = copy_seats(table("human", "bot"))
    write = SaveSeats([seat.row("heuristic") for seat in seats])
    assert [(row.kind, row.bot) for row in write.seats] == [("human", None), ("bot", "heuristic")]
    assert AppendAction(0, 1, "r5") == AppendAction(0, 1, "r5")


# ---------------------------------------------------------------- commands: a change decided, not made


def test_a_join_asks_to_store_the_seats_and_changes_nothing_yet() -> None:
    room = Table()
    room.seats = table("human", "open", "open")
    change, seat, claimed = room.decide_join("Cleo", "h", ("owl", None))
    assert (seat, claimed, change.show) == (1, False, False)
    assert isinstance(change.writes[0], SaveSeats) and change.writes[0].seats[1].name == "Cleo"
    assert room.seats[1].kind == "open", "the room changes only once the store took the seats"
    room.take(change.writes[0], change)
    assert (room.seats[1].kind, room.seats[1].avatar) == ("human", "owl")


def test_the_host_leaving_the_lobby_hands_the_host_on_before_the_seat_opens() -> None:
    room = Table()
    room.seats = table("human", "bot", "human")
    change = room.decide_leave(0)
    assert [type(write) for write in change.writes] == [SetHost, SaveSeats]
    assert change.writes[0] == SetHost(2)
    assert (change.sends, change.release, change.show) == ([Send(0, {"type": "left"})], 0, False)


def test_a_kick_tells_the_seat_it_was_removed_in_its_own_words() -> None:
    room = Table()
    room.seats = table("human", "human", "open")
    change = room.decide_kick(0, 1)
    assert change.sends == [Send(1, {"type": "removed"}, "room.removed")] and change.release == 1
    with refused("forbidden", "error.host_only"):
        room.decide_kick(1, 0)


def test_a_bot_seat_asked_for_again_changes_nothing() -> None:
    room = Table()
    room.seats = table("human", "bot", "open")
    assert room.decide_set_seat(0, 1, True).empty
    assert not room.decide_set_seat(0, 2, True).empty


def test_a_chat_line_goes_to_everyone_once_stored() -> None:
    room = Table()
    room.seats = table("human", "open", "open")
    room.chat_next = 7
    change = room.decide_chat(0, "hi", 50.0, {"reaction": "GG"})
    (write,) = change.writes
    assert isinstance(write, AppendChat) and write.row.id == 7
    assert change.sends[0].to == EVERYONE and change.sends[0].message["reaction"] == "GG"
    room.take(write, change)
    assert (room.chat_next, [row.text for row in room.chat_log]) == (8, ["hi"])


def test_a_lobby_nobody_hosts_is_hosted_by_the_next_player_in() -> None:
    room = Table()
    room.seats = table("human", "human", "open")
    assert room.decide_claim_host(1) is None, "seat 0 hosts"
    room.host = None
    assert room.decide_claim_host(1) == Change([SetHost(1)], show=False)
    room.host, room.present = 0, {1}
    assert room.decide_pass_host() == Change([SetHost(1)])


def test_an_action_is_decided_on_a_copy_of_the_match_and_made_once_stored() -> None:
    room = Table(players=2)
    room.seats = table("human", "human")
    room.present = {0, 1}
    game = Game("classic", 2, seed=4)
    room.begin(game, now=100.0)
    actor, other = game.actor, 1 - game.actor
    legal = game.actions.format(game.legal_actions(actor)[0])
    with refused("stale", "error.stale"):
        room.decide_act(actor, legal, 99, now=101.0)
    with refused("not-your-turn", "error.not_your_turn"):
        room.decide_act(other, legal, room.version, now=101.0)
    with refused("illegal", "error.detail"):
        room.decide_act(actor, "not an action", room.version, now=101.0)
    change = room.decide_act(actor, legal, room.version, now=101.0)
    (write,) = change.writes
    assert isinstance(write, AppendAction) and (write.index, write.seat, write.notation) == (0, actor, legal)
    assert room.game is game and len(game.history) == 0, "the room's match is unchanged until stored"
    room.take(write, change)
    assert room.game is not game and room.version > 0 and room.last_change == 101.0
    with refused("forbidden", "error.spectator_play"):
        room.player(None)


def test_the_match_begins_once_its_deal_is_stored() -> None:
    room = Table(players=2)
    room.seats = table("human", "bot")
    change = room.decide_start(Game("classic", 2, seed=4), now=120.0)
    (write,) = change.writes
    assert isinstance(write, StartGame) and write.setup["players"] == 2
    assert room.status == "lobby"
    room.take(write, change)
    assert (room.status, room.decision_since) == ("playing", 120.0)


def test_the_results_are_closed_by_the_players_reading_them_only() -> None:
    room = Table(players=2, server=ServerSettings(results_seconds=30.0))
    room.seats = table("human", "human")
    with refused("forbidden", "error.not_begun"):
        room.close_results(0, now=1.0)
    room.present = {0, 1}
    room.begin(Game("classic", 2, seed=4), now=100.0)
    room.start_reading(now=100.0)
    assert not room.close_results(None, now=101.0)
    assert room.close_results(0, now=101.0) and not room.close_results(0, now=102.0)
    room.seats[1].auto = True
    assert room.take_back(1) and not room.take_back(1)


def test_a_seat_change_made_after_the_store_keeps_what_happened_meanwhile() -> None:
    """The store writes while the room goes on: a player who left meanwhile stays away."""
    room = Table()
    room.seats = table("human", "open", "open")
    change, _, _ = room.decide_join("Bob", "h", (None, None))
    room.seats[0].away_since = 55.0  # the host's connection closed while the seats were written
    room.take(change.writes[0], change)
    assert (room.seats[0].away_since, room.seats[1].name) == (55.0, "Bob")


def test_a_seats_last_connection_leaving_makes_it_away_and_done_reading() -> None:
    room = Table(players=2, server=ServerSettings(results_seconds=30.0))
    room.seats = table("human", "human")
    room.present = {0, 1}
    room.begin(Game("classic", 2, seed=4), now=100.0)
    room.start_reading(now=100.0)
    room.present = {0}
    room.depart(1, now=104.0)
    assert (room.seats[1].away_since, room.reading) == (104.0, {0})
    room.hand_to_bot(1)
    room.present = {0, 1}
    room.arrive(1)
    assert (room.seats[1].away_since, room.seats[1].auto) == (0.0, False)


def test_only_the_players_of_a_finished_match_vote_for_its_rematch() -> None:
    room = Table(players=2)
    room.seats = table("human", "bot")
    room.present = {0}
    with refused("forbidden", "error.rematch_over"):
        room.vote(0)
    game = Game("classic", 2, seed=4)
    while not game.is_over:
        game.apply(game.actor, game.legal_actions(game.actor)[0])
    room.begin(game, now=100.0)
    for seat in (None, 1):
        with refused("forbidden", "error.rematch_players"):
            room.vote(seat)
    assert not room.rematch_due()
    assert room.vote(0) and room.rematch_due()
    room.moved_to = "ABCDEFGH"
    assert not room.vote(0) and not room.rematch_due()
