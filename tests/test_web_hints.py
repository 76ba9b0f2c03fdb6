"""Hints over real WebSockets: the heuristic bot's move for the asking seat's own decision.

A hint answers only a seated player whose decision it is, at the room's version, at most a few
times in a few seconds; it carries the move (one of the seat's own legal actions, as the update
lists them) and a sentence, nothing else.  It depends on the asking seat's view only: changing
the other hands and the draw pile's order behind the seat's back changes no hint.
"""

from __future__ import annotations

import random
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from unokit.engine.cards import card_name
from unokit.engine.deck import stacked_deck
from unokit.engine.game import Game
from unokit.engine.rules import Rules
from unokit.web.hints import HINT_BURST, WHY, hint_for, hint_seed
from unokit.web.rooms import FixedSetup, Member, RoomSettings
from unokit.web.settings import TUTORIAL_PACE
from web_support import Client, RunningServer, fast_settings

RULES = {"hand_size": 3, "scoring": "single-round"}
ANN, BOB = ["R7", "G3", "W"], ["B5", "Y9", "B2"]
MOVE_FIELDS = {"action", "label", "type", "card", "seat", "colour"}


def deal(dealer: int) -> FixedSetup:
    """Ann (seat 0) holds Red 7, Green 3 and a Wild, Bob Blue 5, Yellow 9 and Blue 2, on a Red 5."""
    deck = stacked_deck("classic", [ANN, BOB], "R5", ["B1", "Y2"], dealer=dealer, rules=Rules.from_dict(RULES))
    return FixedSetup(2**40 + 31, tuple(card_name(card) for card in deck), dealer=dealer)


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with RunningServer(":memory:", fast_settings(bot_delay=30.0)) as running:
        yield running


def started(server: RunningServer, dealer: int) -> tuple[Client, str, dict[str, Any]]:
    """A started two-seat room: Ann (seat 0) and a bot (which waits 30 s before each move)."""
    code, secret = server.create_fixed_room(deal(dealer), "classic", seats=2, rules=RULES)
    ann = Client(server.url)
    ann.send(type="resume", code=code, secret=secret)
    ann.expect("lobby")
    ann.send(type="seat", seat=1, bot=True)
    ann.expect("lobby", where=lambda m: m["seats"][1]["kind"] == "bot")
    ann.send(type="start")
    return ann, code, ann.expect("update")


def test_a_hint_on_your_turn_is_one_of_your_legal_moves_with_a_reason(server: RunningServer) -> None:
    ann, _, update = started(server, dealer=1)
    assert update["view"]["actor"] == 0
    ann.send(type="hint", version=update["version"])
    hint = ann.expect("hint")
    assert set(hint) == {"type", "version", "move", "why"}
    assert hint["version"] == update["version"]
    assert set(hint["move"]) == MOVE_FIELDS
    assert hint["move"] in update["legal"]
    assert hint["why"] in WHY.values()
    ann.send(type="hint", version=update["version"])
    assert ann.expect("hint") == hint, "the same question gets the same answer"
    ann.close()


def test_no_hint_when_it_is_not_your_decision_for_a_spectator_or_at_an_old_version(server: RunningServer) -> None:
    ann, code, update = started(server, dealer=0)
    assert update["view"]["actor"] == 1, "the bot plays first and takes its time"
    ann.send(type="hint", version=update["version"])
    assert ann.expect("error")["code"] == "not-your-turn"
    watcher = Client(server.url)
    watcher.send(type="spectate", code=code)
    watched = watcher.expect("update")
    watcher.send(type="hint", version=watched["version"])
    assert watcher.expect("error")["code"] == "forbidden"
    ann.send(type="hint", version=update["version"] + 5)
    assert ann.expect("error")["code"] == "stale"
    assert not [m for m in ann.quiet(0.2) + watcher.quiet(0.1) if m["type"] == "hint"]
    lobby = Client(server.url)
    lobby.send(type="create", name="Cy", edition="classic", seats=2)
    lobby.expect("lobby")
    lobby.send(type="hint", version=0)
    assert lobby.expect("error")["code"] == "forbidden"
    for client in (ann, watcher, lobby):
        client.close()


def test_hints_are_rate_limited(server: RunningServer) -> None:
    ann, _, update = started(server, dealer=1)
    for _ in range(HINT_BURST):
        ann.send(type="hint", version=update["version"])
        ann.expect("hint")
    ann.send(type="hint", version=update["version"])
    refused = ann.expect("error")
    assert refused["code"] == "rate-limited"
    ann.close()


def test_a_hint_message_is_checked_like_every_other() -> None:
    from unokit.web.protocol import ProtocolError, parse_message

    assert parse_message('{"type": "hint", "version": 3}') == {"type": "hint", "version": 3}
    for bad in ('{"type": "hint"}', '{"type": "hint", "version": "3"}', '{"type": "hint", "version": 1, "seat": 1}'):
        with pytest.raises(ProtocolError):
            parse_message(bad)


def _hide_differently(game: Game, seat: int, rng: random.Random) -> None:
    """Change what ``seat`` cannot see: trade cards between the other hands and the draw pile (sizes
    kept), then shuffle the draw pile."""
    for other in range(game.n):
        if other == seat:
            continue
        hand = game.hands[other]
        for index in range(len(hand)):
            if game.draw_pile and rng.random() < 0.7:
                pick = rng.randrange(len(game.draw_pile))
                hand[index], game.draw_pile[pick] = game.draw_pile[pick], hand[index]
    rng.shuffle(game.draw_pile)


@pytest.mark.parametrize("edition", ["classic", "space-jam", "all-wild", "wild-jackpot"])
def test_a_hint_depends_only_on_the_asking_seats_view(edition: str) -> None:
    """Over many decisions of seeded games, the hidden cards are dealt differently behind the
    asking seat's back: its view is the same, and so is the hint (the same bot seed)."""
    rng = random.Random(edition)
    checked = changed = 0
    for game_seed in range(6):
        game = Game(edition, 3, seed=game_seed)
        steps = 0
        while not game.is_over and steps < 120:
            steps += 1
            seat = game.actor
            if seat in game.deciders() and checked < 400:
                before_view = game.view(seat).to_dict(history=False)
                seed = hint_seed(game_seed, seat, len(game.events))
                before = hint_for(game.view(seat), seed)
                other = game.clone()
                hidden = [list(h) for i, h in enumerate(other.hands) if i != seat], list(other.draw_pile)
                _hide_differently(other, seat, rng)
                if hidden != ([list(h) for i, h in enumerate(other.hands) if i != seat], list(other.draw_pile)):
                    changed += 1
                assert other.view(seat).to_dict(history=False) == before_view
                assert hint_for(other.view(seat), seed) == before
                checked += 1
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert checked > 100 and changed > 50


def test_the_rooms_hint_reads_the_view_only(server: RunningServer) -> None:
    """The room's answer, not only the function's: the other hand and the draw pile changed on the
    server behind Ann's back give Ann the same hint message."""
    ann, code, update = started(server, dealer=1)
    room = server.hub.rooms[code]
    member = Member(lambda _message: None, seat=0)
    first = server.call(lambda: room.hint(member, update["version"]))
    rng = random.Random(5)

    def shuffle_hidden() -> None:
        assert room.game is not None
        _hide_differently(room.game, 0, rng)

    for _ in range(5):
        server.call(shuffle_hidden)
        assert server.call(lambda: room.hint(member, update["version"])) == first
    ann.send(type="hint", version=update["version"])
    assert ann.expect("hint") == first
    ann.close()


def test_a_guided_first_game_has_no_timer_is_unlisted_and_its_bots_take_their_time(server: RunningServer) -> None:
    """``create`` with ``tutorial``: no turn timer, not listed, no late arrivals, whatever else is
    asked; its bots wait ``TUTORIAL_PACE`` times ``bot_delay`` before a move."""
    cy = Client(server.url)
    cy.send(type="create", name="Cy", edition="classic", seats=3, timer=30, public=True, tutorial=True)
    lobby = cy.expect("lobby")
    assert lobby["options"] == {"timer": 0, "public": False, "late_join": False, "tutorial": True}
    with urllib.request.urlopen(f"{server.http}/api/rooms", timeout=10) as response:
        assert lobby["code"] not in response.read().decode()
    cy.close()
    settings = RoomSettings("classic", 2, RULES, "heuristic", 0, tutorial=True)
    room, _ = server.call(lambda: server.hub.create(settings, "Ann", deal(dealer=0)))
    server.call(lambda: room.seats[1].empty("bot"))
    server.call(room.start_match)
    assert room.game is not None and room.game.actor == 1
    due = server.call(room.due_step)
    assert due is not None and due[1] == "turn"
    assert due[0] - room.last_change == pytest.approx(30.0 * TUTORIAL_PACE)
