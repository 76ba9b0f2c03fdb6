"""``unokit play`` on the full-screen table: the same set-up as the plain transcript (editions, players,
options, presets, rules, bots, seed, position, rule cards), then the table."""

from __future__ import annotations

import argparse
import random
import sys

from unokit.bots.base import Bot, make_bot
from unokit.cli.common import Screen, UsageError, build_rules, check_output_file, rule_cards_option
from unokit.cli.tui.session import BOT_DELAY, LocalSession
from unokit.editions import rulecards
from unokit.editions.wild_jackpot import WildJackpot, rule_cards_per_player
from unokit.engine.errors import UnoError
from unokit.engine.game import Game

__all__ = ["build_table", "play_on_table", "wants_table"]


def wants_table(args: argparse.Namespace, screen: Screen) -> bool:
    """Whether ``unokit play`` opens the full-screen table: not with ``--plain``, nor when the output or
    the input is not a terminal; without Textual it says so in one line and plays the transcript."""
    if getattr(args, "plain", False) or not (screen.out.isatty() and screen.inp.isatty()):
        return False
    try:
        import textual  # noqa: F401
    except ImportError:
        screen.line("Plain play: the full-screen table needs the extra unokit[terminal].")
        return False
    return True


def table_bots(game: Game, level: str) -> dict[int, Bot]:
    """The bots of seats 1 and on, at ``level`` (each seeded from the game's seed and its seat)."""
    try:
        options = {"players": game.n} if level == "learned" else {}  # refuses a table it was not trained for
        return {
            seat: make_bot(level, seed=game.seed + seat, edition=game.edition.name, **options)
            for seat in range(1, game.n)
        }
    except UnoError as exc:
        raise UsageError(str(exc)) from None


def bots_rule_cards(game: Game, seed: int) -> tuple[int, list[str], list[str]]:
    """UNO Wild Jackpot: how many rule cards you write, the suggestions offered you in turn, and the
    bots' cards (drawn from the rule sheet's suggestions, seeded by ``seed``, as the plain game draws them)."""
    per_player = rule_cards_per_player(game.rules.rule_card_count, game.n)
    rng = random.Random(f"unokit-play-rules/{seed}")
    bots: list[str] = []
    for _ in range(1, game.n):
        pool = list(rulecards.SUGGESTIONS)
        rng.shuffle(pool)
        bots += [pool[i % len(pool)] for i in range(per_player)]
    pool = list(rulecards.SUGGESTIONS)
    rng.shuffle(pool)
    return per_player, pool, bots


def build_table(args: argparse.Namespace, *, delay: float = BOT_DELAY) -> object:
    """The :class:`~unokit.cli.tui.app.TableApp` of ``args`` (``unokit play``'s options); raises
    :class:`UsageError` for bad options before any game, ``--record`` included."""
    from unokit.cli.play import game_of_options
    from unokit.cli.tui.app import TableApp

    rules = build_rules(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    if args.record:
        check_output_file(args.record, "--record")
    game = game_of_options(args, rules, seed)  # checks the set-up first
    from_file = rule_cards_option(args, game.edition.name)
    bots = table_bots(game, args.bot)
    names = [args.name, *(f"Bot {seat}" for seat in range(1, game.n))]
    hints = bool(getattr(args, "hints", False))
    if isinstance(game.edition, WildJackpot) and args.position is None:
        count, suggestions, theirs = bots_rule_cards(game, seed)

        def start(texts: list[str] | None) -> LocalSession:
            yours = texts if texts is not None else list(from_file or [])
            played = Game(args.edition, args.players, seed=seed, rules=rules, rule_cards=yours + theirs)
            return LocalSession(played, table_bots(played, args.bot), seat=0, names=names, delay=delay)

        if from_file is not None:
            return TableApp(start(from_file), record_path=args.record, hints=hints)
        return TableApp(start=start, rule_cards=(count, suggestions), record_path=args.record, hints=hints)
    session = LocalSession(game, bots, seat=0, names=names, delay=delay)
    return TableApp(session, record_path=args.record, hints=hints)


def play_on_table(args: argparse.Namespace, screen: Screen) -> int:
    """``unokit play`` on the full-screen table; the record is saved on leaving, on Ctrl-C and at the end."""
    from unokit.cli.tui.app import TableApp

    app = build_table(args)
    assert isinstance(app, TableApp)
    try:
        status = app.run()
    except KeyboardInterrupt:
        app.save()
        status = 130
    if app.return_code and app.return_code != 0 and status is None:
        return app.return_code
    if app.saved_to:
        done = app.session is not None and app.session.view().winner >= 0
        screen.line(f"Record saved to {app.saved_to}" + ("" if done else " (match not finished)") + ".")
    if status == 130:
        print("Interrupted.", file=sys.stderr)
    return status if status is not None else 0
