"""A room's state and everything decided from it alone: its queries, the messages it is shown as,
the results read between rounds, and when its next automatic step is due.

:class:`RoomCore` holds what a room is (settings, seats, host, match, votes, chat log, who is
reading the results) and never reads a clock nor touches a connection or the store: the time is
passed in (monotonic seconds), and whether a seat is connected is asked of :meth:`RoomCore.connected`
and who is in the voice chat of :meth:`RoomCore.voice_seats`, which the shell answers from its
connections (local sockets, or members relayed from other processes).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection
from typing import Any, Protocol

from unokit.editions import rulecards
from unokit.editions.wild_jackpot import rule_cards_per_player
from unokit.engine.actions import INTERRUPT_TYPES, JUMP_TYPES
from unokit.engine.errors import NotationError, UnoError, WrongPlayerError
from unokit.engine.game import Game
from unokit.engine.record import to_record
from unokit.engine.rules import Rules
from unokit.i18n import Translator
from unokit.web.core.changes import EVERYONE, Change, Deal, Play, Send
from unokit.web.core.chat import CHAT_HISTORY, chat_message, chat_row
from unokit.web.core.rematch import rematch_ready, rematch_status
from unokit.web.core.rows import ChatRow
from unokit.web.core.seats import (
    Seat,
    check_host,
    copy_seats,
    empty_player_seat,
    fill_seat,
    kick_seat,
    next_human,
    seat_late_arrivals,
    seat_names,
    seats_message,
    take_seat,
)
from unokit.web.core.social import new_look
from unokit.web.core.writes import AppendAction, AppendChat, SaveSeats, SetHost, StartGame, Write
from unokit.web.messages import reading_entry
from unokit.web.settings import TUTORIAL_PACE, FixedSetup, RoomError, RoomSettings, ServerSettings
from unokit.web.timers import DEAL_PAUSE, JUMP_GRACE, pause_for, reaction_times

__all__ = ["OUT_OF_TURN", "RoomCore", "Viewer"]

OUT_OF_TURN = INTERRUPT_TYPES | JUMP_TYPES
"""What a bot may do out of turn: call UNO, catch, jump in (house rule)."""


class Viewer(Protocol):
    """Whoever a message is made for: a seat's player (``seat``), a spectator (``None``), or a late
    arrival watching until their ``claim``ed seat is theirs, in their language (``t``)."""

    @property
    def seat(self) -> int | None: ...

    @property
    def claim(self) -> int | None: ...

    @property
    def t(self) -> Translator: ...


class RoomCore:
    """A lobby, then a match: the state and the rules, without I/O."""

    def __init__(
        self,
        code: str,
        settings: RoomSettings,
        created: float,
        seed: int,
        server: ServerSettings,
        now: float,
        setup: FixedSetup | None = None,
    ) -> None:
        self.code = code
        self.settings = settings
        self.server = server
        """The server's settings (delays, graces, limits)."""
        self.setup = setup
        """The game fixed in advance (tests only), else ``None``: everything is drawn at random."""
        self.seed = seed
        """The room's seed: settles the bots' UNO races (:func:`unokit.web.timers.reaction_times`)."""
        self.rules = Rules.from_dict(settings.rules)
        self.created = created
        self.seats = [Seat(index) for index in range(settings.players)]
        self.host: int | None = 0
        """The host's seat (``None``: nobody hosts now; the next player to join or come back will)."""
        self.game: Game | None = None
        self.status = "lobby"
        self.last_change = now
        self.pause = 0.0
        """The extra pause after the last change, in units of ``bot_delay`` (:func:`pause_for`)."""
        self.decision_since = now
        """When the pending turn decision began (the turn timer counts from it)."""
        self.declined_at = -1
        """The version at which the bots last let an UNO window pass."""
        self.raced: tuple[int, set[int]] = (-1, set())
        """The version of the UNO window and the bots that let it pass so far."""
        self.votes: set[int] = set()
        """The seats that voted for a rematch."""
        self.moved_to: str | None = None
        """The rematch room's code, once the rematch began."""
        self.chat_log: deque[ChatRow] = deque(maxlen=CHAT_HISTORY)
        self.chat_next = 1
        self.reading: set[int] = set()
        """After a round (not the match): the connected players still reading its results.  Until
        they have all sent ``continue`` (or ``results_seconds`` pass) nobody's decision is timed or
        made by a bot, and no one plays."""
        self.reading_until = 0.0
        """When play goes on without the players still reading (monotonic clock)."""

    # ------------------------------------------------------------ what the shell answers

    def connected(self, seat: int) -> bool:
        """Whether a connection holds ``seat`` now."""
        raise NotImplementedError

    def voice_seats(self) -> Collection[int]:
        """The seats in the room's voice chat."""
        return ()

    # ------------------------------------------------------------ queries

    @property
    def version(self) -> int:
        """The number of events of the match so far (0 in the lobby)."""
        return len(self.game.events) if self.game is not None else 0

    @property
    def jackpot(self) -> bool:
        return self.settings.edition == "wild-jackpot"

    def rule_card_count(self) -> int:
        """Rule cards each seat writes (Wild Jackpot)."""
        return rule_cards_per_player(self.rules.rule_card_count, self.settings.players)

    def names(self) -> list[str]:
        """The seats' names (:func:`~unokit.web.core.seats.seat_names`)."""
        return seat_names(self.seats)

    def is_away(self, seat: int) -> bool:
        """A human seat without a connection."""
        return self.seats[seat].kind == "human" and not self.connected(seat)

    def connected_humans(self) -> list[int]:
        return [seat.index for seat in self.seats if seat.kind == "human" and not self.is_away(seat.index)]

    def seated_late_arrivals(self, now: float) -> list[Seat]:
        """The seats once the late arrivals' claims are theirs (copies: the room's are unchanged)."""
        return seat_late_arrivals(self.seats, now)

    def begin(self, game: Game, now: float) -> None:
        """The match (dealt, or replayed from the store) is the room's."""
        self.game = game
        self.status = "finished" if game.is_over else "playing"
        self.last_change = self.decision_since = now

    # ------------------------------------------------------------ who is there

    def arrive(self, seat: int | None) -> None:
        """A connection holds ``seat`` now (``None``: a spectator): it is no longer away, nor played by the bot."""
        if seat is not None:
            self.seats[seat].away_since = 0.0
            self.seats[seat].auto = False

    def depart(self, seat: int | None, now: float) -> None:
        """A connection of ``seat`` left: if it was the seat's last, the seat is away from ``now`` and
        done reading the results."""
        if seat is not None and self.is_away(seat):
            self.seats[seat].away_since = now
            if seat in self.reading:
                self.read(seat, now)

    def hand_to_bot(self, seat: int) -> None:
        """The room's bot plays ``seat`` from now on, until its player acts (its player left the match,
        or their turn timed out)."""
        self.seats[seat].auto = True

    def vote(self, seat: int | None) -> bool:
        """``rematch``: a player of the finished match votes for it; ``False`` if it already began
        without them."""
        if self.game is None or not self.game.is_over:
            raise RoomError("forbidden", "error.rematch_over")
        if seat is None or self.seats[seat].kind != "human":
            raise RoomError("forbidden", "error.rematch_players")
        if self.moved_to is not None:
            return False
        self.votes.add(seat)
        return True

    def rematch_due(self) -> bool:
        """Whether the rematch begins now (:func:`~unokit.web.core.rematch.rematch_ready`)."""
        over = self.game is not None and self.game.is_over
        return rematch_ready(over, self.moved_to is not None, self.votes, self.connected_humans() if over else [])

    # ------------------------------------------------------------ commands: what each asks, not yet made

    def seats_changed(self, change: Callable[[list[Seat]], object], **rest: Any) -> Change:
        """``change`` made to copies of the seats (it raises :class:`RoomError` to refuse), stored."""
        base, trial = copy_seats(self.seats), copy_seats(self.seats)
        change(trial)
        return Change([SaveSeats([seat.row(self.settings.bot) for seat in trial])], trial, base=base, **rest)

    def decide_join(self, name: str, secret_hash: str, look: tuple[str | None, str | None]) -> tuple[Change, int, bool]:
        """``join``: a seat of the lobby, or a claim on a bot's seat during a match
        (:func:`~unokit.web.core.seats.take_seat`); the change, the seat and whether it is a claim.
        The room is shown once the newcomer is in."""
        taken: list[tuple[int, bool]] = []
        status, late_join = self.status, self.settings.late_join
        change = self.seats_changed(
            lambda seats: taken.append(take_seat(seats, status, late_join, name, secret_hash, look)), show=False
        )
        return change, *taken[0]

    def decide_set_seat(self, seat: int | None, index: int, bot: bool) -> Change:
        """``seat``: the host puts a bot in an open (or away) seat, or empties a bot's seat."""
        check_host(seat, self.host, self.status)
        if bot and index < len(self.seats) and self.seats[index].kind == "bot":
            return Change(show=False)
        return self.seats_changed(lambda seats: fill_seat(seats, index, bot, self.host, self.is_away))

    def decide_rule_cards(self, seat: int | None, texts: list[str]) -> Change:
        """``rule_cards``: a seat's rule cards (Wild Jackpot lobby), each cleaned."""
        if not self.jackpot:
            raise RoomError("forbidden", "error.jackpot_only")
        if seat is None:
            raise RoomError("forbidden", "error.spectator_rule_cards")
        count = self.rule_card_count()
        if len(texts) != count:
            raise RoomError("bad-rule-card", "error.rule_card_count", count=count, given=len(texts))
        cleaned = []
        for number, text in enumerate(texts, 1):
            try:
                cleaned.append(rulecards.clean_rule_text(text))
            except rulecards.RuleTextError as exc:
                raise RoomError("bad-rule-card", "error.rule_card", number=number, detail=exc.words) from None
        if self.status != "lobby":
            raise RoomError("started", "error.rule_cards_late")

        def write(seats: list[Seat]) -> None:
            seats[seat].rule_cards = cleaned

        return self.seats_changed(write)

    def decide_kick(self, seat: int | None, index: int) -> Change:
        """``kick``: the host empties a player's seat (lobby only); its connections are told ``removed``
        and let go."""
        check_host(seat, self.host, self.status)
        return self.seats_changed(
            lambda seats: kick_seat(seats, index, self.host),
            sends=[Send(index, {"type": "removed"}, words="room.removed")],
            release=index,
        )

    def decide_leave(self, seat: int) -> Change:
        """``leave`` in the lobby: the seat opens (the host passes to the next player), its connections
        are told ``left`` and let go."""
        change = self.seats_changed(
            lambda seats: empty_player_seat(seats, seat), sends=[Send(seat, {"type": "left"})], release=seat, show=False
        )
        if self.host == seat:
            change.writes.insert(0, SetHost(next_human(self.seats, seat)))
        return change

    def decide_claim_host(self, seat: int) -> Change | None:
        """A player arrives in a lobby nobody hosts: they host it (shown as they enter)."""
        if self.host is not None or self.status != "lobby":
            return None
        return Change([SetHost(seat)], show=False)

    def decide_pass_host(self) -> Change | None:
        """The host has been gone ``host_grace`` seconds: the next connected player hosts."""
        if self.status != "lobby" or self.host is None or not self.is_away(self.host):
            return None
        heir = next_human(self.seats, self.host, self.is_away)
        return Change([SetHost(heir)]) if heir is not None else None

    def decide_look(self, seat: int, avatar: str | None, colour: str | None) -> Change | None:
        """``look``: the seat's player's avatar and colour (those left ``None`` stay); ``None`` if
        nothing changes."""
        current = self.seats[seat]
        look = new_look((current.avatar, current.colour), avatar, colour)
        if look is None:
            return None

        def change(seats: list[Seat]) -> None:
            if seats[seat].kind != "human":
                raise RoomError("forbidden", "error.look_own")
            seats[seat].avatar, seats[seat].colour = look

        return self.seats_changed(change)

    def decide_chat(self, seat: int | None, text: str, now: float, extra: dict[str, Any] | None = None) -> Change:
        """``chat`` (or a reaction: its ``extra`` fields go with the live message only): the line, stored,
        then sent to everyone; ``now`` is the wall clock."""
        row = chat_row(self.chat_next, self.seats, seat, text, now)
        return Change([AppendChat(row)], sends=[Send(EVERYONE, chat_message(row) | (extra or {}))], show=False)

    def check_start(self, seat: int | None) -> None:
        """``start``: only the host, with every seat taken (by a player or a bot)."""
        check_host(seat, self.host, self.status)
        empty = [s.index for s in self.seats if s.kind == "open"]
        if empty:
            raise RoomError("forbidden", "error.open_seats", seats=", ".join(map(str, empty)))  # i18n: seat numbers

    def decide_start(self, game: Game, now: float) -> Change:
        """The match dealt (by the shell: the deal draws at random), its set-up to be stored first."""
        return Change([StartGame(to_record(game, self.names()))], deal=Deal(game, now))

    def take_back(self, seat: int) -> bool:
        """A player takes their seat back from the room's bot (any action of theirs, or ``back``);
        whether it was the bot's."""
        if not self.seats[seat].auto:
            return False
        self.seats[seat].auto = False
        return True

    def close_results(self, seat: int | None, now: float) -> bool:
        """``continue``: the seat's player has closed the round's results (anyone else's, or a late
        one, changes nothing); whether it changed anything."""
        if self.game is None:
            raise RoomError("forbidden", "error.not_begun")
        if seat is None or seat not in self.reading:
            return False
        self.read(seat, now)
        return True

    def player(self, seat: int | None) -> int:
        """The seat of whoever plays (``act``): a match must have begun, and they must hold a seat."""
        if self.game is None:
            raise RoomError("forbidden", "error.not_begun")
        if seat is None:
            raise RoomError("forbidden", "error.spectator_play")
        return seat

    def decide_act(self, seat: int, text: str, version: int, now: float) -> Change:
        """``act``: a player's action in notation, if the room is at ``version``, nobody is reading
        the results, and the engine finds it legal for ``seat``."""
        game = self.game
        assert game is not None
        if version != self.version:
            raise RoomError("stale", "error.stale", version=self.version, given=version)
        if self.reading:
            raise RoomError("forbidden", "error.reading")
        try:
            action = game.actions.parse(text)
        except NotationError as exc:
            raise RoomError("illegal", "error.detail", detail=str(exc)) from None
        try:
            return self.decide_play(seat, action, now)
        except WrongPlayerError as exc:  # the engine's: not this seat's decision
            raise RoomError(
                "not-your-turn", "error.not_your_turn", detail=str(exc), name=self.names()[game.actor]
            ) from None
        except UnoError as exc:  # the engine's reason, GameOverError included
            raise RoomError("illegal", "error.detail", detail=str(exc)) from None

    def decide_play(self, seat: int, action: int, now: float) -> Change:
        """An action applied to a copy of the match through the engine (which raises, changing
        nothing, if it is illegal), to be stored with what it changed: the seats once a round's end
        seats the late arrivals, the result once the match is over."""
        game = self.game
        assert game is not None
        trial = game.clone()
        trial.apply(seat, action)
        new = trial.events[len(game.events) :]
        new_round = any(event[0] == "round_end" for event in new) and not trial.is_over
        seats = self.seated_late_arrivals(now) if new_round else None
        result = None
        if trial.is_over:
            scores = list(trial.scores)
            result = {"winner": trial.winner, "scores": scores, "rounds": trial.round, "names": self.names()}
        write = AppendAction(
            len(trial.history) - 1,
            seat,
            trial.actions.format(action),
            seats=[seat.row(self.settings.bot) for seat in seats] if seats is not None else None,
            result=result,
        )
        return Change([write], seats, play=Play(trial, action, new, new_round, now))

    def take(self, write: Write, change: Change) -> bool:
        """Make a stored write's part of a change (:class:`~unokit.web.core.changes.Change`) the room's;
        whether the seats changed."""
        seats = change.seats
        if isinstance(write, SaveSeats | AppendAction) and seats is not None and seats != self.seats:
            before = change.base if change.base is not None else copy_seats(self.seats)
            for seat, new, old in zip(self.seats, seats, before, strict=True):
                seat.take(new, old)
            changed = True
        else:
            changed = False
        if isinstance(write, AppendAction) and change.play is not None:
            play = change.play
            self.game = play.game
            self.last_change = play.now
            self.pause = pause_for(play.events)
            if play.game.actions.types[play.action] not in INTERRUPT_TYPES:
                self.decision_since = play.now
            if play.game.is_over:
                self.status = "finished"
        elif isinstance(write, StartGame) and change.deal is not None:
            self.begin(change.deal.game, change.deal.now)
        elif isinstance(write, SetHost):
            self.host = write.host
        elif isinstance(write, AppendChat):
            self.chat_log.append(write.row)
            self.chat_next = write.row.id + 1
        return changed

    # ------------------------------------------------------------ the results between rounds

    def start_reading(self, now: float) -> None:
        """A round has ended and the next is dealt: its first decision waits for the connected
        players (not played by the bot) to close the results, ``results_seconds`` at most."""
        limit = self.server.results_seconds
        self.reading = {s.index for s in self.seats if s.index in self.connected_humans() and not s.auto}
        if limit <= 0:
            self.reading.clear()
        self.reading_until = now + limit

    def read(self, seat: int, now: float) -> None:
        """``seat`` has closed the results (or left): once nobody is reading, play goes on, its
        turn timer counting from ``now``."""
        self.reading.discard(seat)
        if not self.reading:
            self.end_reading(now)

    def end_reading(self, now: float) -> None:
        self.reading.clear()
        self.last_change = self.decision_since = now
        self.pause = DEAL_PAUSE

    # ------------------------------------------------------------ messages

    def welcome(self, viewer: Viewer, secret: str | None = None) -> dict[str, Any]:
        message: dict[str, Any] = {
            "type": "welcome",
            "code": self.code,
            "seat": viewer.seat if viewer.claim is None else viewer.claim,
            "host": viewer.seat is not None
            and (viewer.seat == self.host or (self.host is None and self.status == "lobby")),
            "invite": f"/r/{self.code}",
        }
        if secret is not None:
            message["secret"] = secret
        if viewer.claim is not None:
            message["claimed"] = True
        return message

    def seats_message(self) -> list[dict[str, Any]]:
        """Every seat as the members see it (:func:`~unokit.web.core.seats.seats_message`)."""
        return seats_message(self.seats, self.is_away, self.voice_seats())

    def lobby_message(self, viewer: Viewer) -> dict[str, Any]:
        seats = self.seats_message()
        for entry, seat in zip(seats, self.seats, strict=True):
            entry["ready"] = seat.kind == "bot" or (
                seat.kind == "human" and (not self.jackpot or seat.rule_cards is not None)
            )
        rule_cards: dict[str, Any] | None = None
        if self.jackpot:
            mine = self.seats[viewer.seat].rule_cards if viewer.seat is not None else None
            rule_cards = {
                "count": self.rule_card_count(),
                "mine": [reading_entry(text, viewer.t) for text in mine or ()],
                "suggestions": list(rulecards.SUGGESTIONS),
            }
        return {
            "type": "lobby",
            "code": self.code,
            "edition": self.settings.edition,
            "rules": self.rules.to_dict(only_changed=False),
            "players": self.settings.players,
            "bot": self.settings.bot,
            "seats": seats,
            "host": self.host,
            "you": viewer.seat,
            "rule_cards": rule_cards,
            "options": self.settings.options(),
        }

    def timer_message(self, now: float) -> dict[str, Any] | None:
        """The turn timer of the human seat deciding now, if it is timed."""
        deadline = self.turn_deadline()
        if deadline is None or not self.settings.timer:
            return None
        assert self.game is not None
        remaining = max(0.0, deadline - now)
        return {"seat": self.game.actor, "remaining": round(remaining, 2), "total": self.settings.timer}

    def reading_message(self, now: float) -> dict[str, Any] | None:
        """``update.reading``: the players still reading the results and the seconds before play
        goes on without them (``None``: nobody holds the table)."""
        if not self.reading:
            return None
        remaining = max(0.0, self.reading_until - now)
        return {
            "waiting": sorted(self.reading),
            "remaining": round(remaining, 2),
            "total": self.server.results_seconds,
        }

    def rematch_message(self) -> dict[str, Any] | None:
        """``update.rematch`` (:func:`~unokit.web.core.rematch.rematch_status`)."""
        over = self.game is not None and self.game.is_over
        return rematch_status(over, self.votes, self.connected_humans() if over else [])

    # ------------------------------------------------------------ the next automatic step

    def turn_deadline(self) -> float | None:
        """When the room's bot makes the pending decision of the human seat deciding now (its
        turn timer, or ``away_seconds`` after it left), if it is not already played as ``auto``."""
        game = self.game
        if game is None or game.is_over or self.reading:
            return None
        seat = self.seats[game.actor]
        if seat.kind != "human" or seat.auto:
            return None
        deadlines = []
        if self.settings.timer:
            deadlines.append(self.decision_since + self.settings.timer)
        if self.is_away(seat.index):
            deadlines.append(max(self.last_change, seat.away_since) + self.server.away_seconds)
        return min(deadlines) if deadlines else None

    def racers(self) -> list[tuple[int, bool]]:
        """The bots that may act out of turn now (call UNO for themselves, catch, jump in) and have
        not let it pass."""
        game = self.game
        assert game is not None
        version, passed = self.raced
        if version != self.version:
            passed = set()
            self.raced = (self.version, passed)
        space = game.actions
        found = []
        for seat in game.deciders():
            if self.seats[seat].kind != "bot" or seat in passed:
                continue
            legal = game.legal_actions(seat)
            if any(space.types[a] in OUT_OF_TURN for a in legal):
                found.append((seat, space.call_uno in legal))
        return found

    def first_racer(self) -> tuple[int, float] | None:
        """The bot that reacts first to the open UNO window or jump-in, and its reaction time (in units
        of ``bot_delay``)."""
        racers = self.racers()
        if not racers:
            return None
        times = reaction_times(self.seed, self.version, racers)
        seat = min(times, key=lambda s: (times[s], s))
        return seat, times[seat]

    def due_step(self) -> tuple[float, str] | None:
        """When the next automatic step is due (monotonic clock) and what it is: ``interrupt`` (a
        bot's UNO call, catch or jump-in), ``turn`` (a bot's, or an ``auto`` seat's), ``timeout``
        (a human's decision made by the room's bot), ``read`` (play goes on without the players
        still reading), ``host`` (the lobby's host has been gone too long); ``None``: none."""
        game = self.game
        settings = self.server
        if game is None:
            if self.status == "lobby" and self.host is not None and self.is_away(self.host):
                return self.seats[self.host].away_since + settings.host_grace, "host"
            return None
        if game.is_over:
            return None
        if self.reading:
            return self.reading_until, "read"
        delay = settings.bot_delay * (TUTORIAL_PACE if self.settings.tutorial else 1.0)
        paused = self.last_change + delay * self.pause
        if self.declined_at != self.version and (game.exposed or len(game.deciders()) > 1):
            first = self.first_racer()
            if first is not None:
                return paused + delay * first[1], "interrupt"
        seat = self.seats[game.actor]
        if seat.kind == "bot" or seat.auto:
            if self.jump_in_watched():
                paused += delay * JUMP_GRACE
            return paused + delay, "turn"
        deadline = self.turn_deadline()
        return (deadline, "timeout") if deadline is not None else None

    def jump_in_watched(self) -> bool:
        """Whether a Jump-In window is open (house rule) while a connected player, not played by the
        bot, other than the actor and the card's player sits at the table.  Whether anyone holds the
        card is not asked: the wait must not tell the table that someone does."""
        game = self.game
        assert game is not None
        state = game.house_state()
        if state.get("jump_card", -1) < 0:
            return False
        return any(
            seat.kind == "human" and not seat.auto and not self.is_away(seat.index)
            for seat in self.seats
            if seat.index not in (game.actor, state["jump_from"])
        )
