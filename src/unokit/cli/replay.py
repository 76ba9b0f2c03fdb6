"""``unokit replay``: replay a game record action by action, every card in the open."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from unokit.cli.common import Screen
from unokit.engine.record import load, replay
from unokit.narrate import Narrator, plural

if TYPE_CHECKING:
    from unokit.cli.common import Commands


def add_parser(commands: Commands) -> None:
    """The ``replay`` command and its options."""
    parser = commands.add_parser(
        "replay",
        help="replay a game record action by action",
        description="Replay a record, printing each action in notation and what happened in words. "
        "A record is reviewed in the open: every card is shown, including hands, draws and revealed cards.",
    )
    parser.add_argument("file", metavar="FILE", help="a record saved by 'unokit play --record'")
    parser.add_argument("--step", action="store_true", help="wait for Enter between actions")


def cmd_replay(args: argparse.Namespace, screen: Screen) -> int:
    record = load(args.file)
    replay(record)  # checks the whole record before showing anything
    game = replay(record, upto=0)
    names_value = record.get("names")
    names = [f"Seat {s}" for s in range(game.n)]
    if isinstance(names_value, list) and len(names_value) == game.n:
        names = [str(name) for name in names_value]
    narrator = Narrator(names, scoring=game.scoring, edition=game.edition.name)
    screen.line((f"Replay of {game.edition.title}, {game.n} players, seed {game.seed}.", "bold"))
    if game.rules.to_dict():
        screen.line("Rules: " + ", ".join(f"{k}={v}" for k, v in game.rules.to_dict().items()))
    seen = 0

    def show_events() -> None:
        nonlocal seen
        if any(event[0] == "dispense" for event in game.events[seen:]):
            narrator.learn(game.view(None).public)
        for event in game.events[seen:]:
            line = narrator.event(event)
            if line is not None:
                screen.line(*line)
        seen = len(game.events)

    show_events()
    actions = record["actions"]
    for index, (seat, text) in enumerate(actions, 1):
        if args.step:
            answer = screen.ask(f"[Enter: action {index} of {len(actions)}, q: stop] ")
            if answer is None or answer.strip().lower() in ("q", "quit"):
                return 0
        game.apply_notation(seat, text)
        screen.line((f"#{index} {names[seat]}: {text}", "bold"))
        show_events()
    if not game.is_over:
        screen.line(f"End of record after {plural(len(actions), 'action')}: the match is not finished.")
    return 0
