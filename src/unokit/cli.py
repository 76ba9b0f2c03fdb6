"""The ``unokit`` command: simulate random matches, play against bots, replay records.

The command only renders views and forwards actions; every rule lives in the engine.

>>> main(["simulate", "--edition", "classic", "--players", "3", "--games", "1", "--seed", "1", "--json"])
... # doctest: +ELLIPSIS
{"edition": "classic", "players": 3, "games": 1, "seed": 1, ...}
0
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import shlex
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO

from rich.console import Console
from rich.text import Text

from unokit import rulecards
from unokit.cards import COLOUR_NAMES, NO_COLOUR, card_name
from unokit.editions import EDITIONS, get_edition
from unokit.errors import UnoError
from unokit.game import Game
from unokit.jackpot import TARGET_OF_RULE, TARGET_PERFORMER, WildJackpot, rule_cards_per_player
from unokit.narrate import (
    Narrator,
    Part,
    card_words,
    cards_parts,
    describe_action,
    direction_words,
    plural,
)
from unokit.record import load, replay, save
from unokit.rules import Rules
from unokit.simulate import simulate
from unokit.tournament import MAX_DECISIONS

PLAY_HELP = """\
How to play
  Each prompt lists your legal moves.  Type the number of a move, or the move
  itself in notation:
    R7        play the red 7          R7!     play it and call UNO (next-to-last card)
    draw      draw a card             pass    keep the card you just drew
    =G        choose green            @2      choose seat 2 (targeted cards)
    challenge / accept                a Wild Draw Four played on you
    -R7       discard R7 (Slam; Wild Jackpot lever or rule card)
    >R7       give R7 (rule card)     done    confirm an honour task, or stop the lever's discards
    uno       call UNO (when holding one card)
    catch@2   catch seat 2, who has one card and did not call UNO
  Colours: R red, Y yellow, G green, B blue, O orange.  Wild cards: W, W+4, WJ
  (Wild Welcome to the Jam), WR, WS, WS2, W+2, WT2 (Targeted Draw Two), WX (Forced Swap),
  W$ (Wild Jackpot).  R$ is the red Jackpot: a Jackpot or Wild Jackpot pulls the lever.
  When someone forgets to call UNO you are offered to catch them; press Enter to let play go on.
Commands
  help      this text
  status    show the table again
  quit      leave the game (the record is still saved with --record)"""


# ---------------------------------------------------------------- output


class Screen:
    """Writes to the terminal: colour when it is one, plain text otherwise."""

    def __init__(self, out: TextIO, inp: TextIO) -> None:
        self.console = Console(file=out, highlight=False, soft_wrap=True, emoji=False)
        self.out = out
        self.inp = inp
        self.echo = _is_tty(inp)
        """Whether the terminal shows what is typed (otherwise the answer is written out)."""

    def line(self, *parts: Part) -> None:
        self.console.print(Text.assemble(*parts))

    def ask(self, prompt: str) -> str | None:
        """Show ``prompt`` and read one line; ``None`` at the end of input."""
        if self.echo and self.inp is sys.stdin and _is_tty(self.out):
            try:
                return input(prompt)  # a terminal: line editing
            except EOFError:
                self.console.print()
                return None
        self.console.print(prompt, end="", markup=False)
        self.out.flush()
        text = self.inp.readline()
        if not text:
            self.console.print()
            return None
        text = text.rstrip("\r\n")
        if not self.echo:
            self.console.print(text, markup=False)
        return text


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------- rule options


class UsageError(Exception):
    """Bad command-line input."""


def parse_rule_values(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--rule takes NAME=VALUE, not {pair!r}")
        try:
            value: Any = json.loads(text)
        except json.JSONDecodeError:
            value = text
        options[name.strip()] = value
    return options


def build_rules(args: argparse.Namespace) -> Rules:
    options = parse_rule_values(args.rule or [])
    if args.target is not None:
        options["target_score"] = args.target
    if args.scoring is not None:
        options["scoring"] = args.scoring
    return Rules.from_dict(options)


_CONTROL_SPACES = frozenset("\x1c\x1d\x1e\x1f\x85")
"""Characters Python counts as blank but a rule card refuses (control characters)."""


def read_rules_file(path: str) -> list[str]:
    """The rule texts of a file: one per line; blank lines and lines starting with ``#`` are skipped.

    Each text is cleaned (:func:`unokit.rulecards.clean_rule_text`); a bad line is a
    :class:`UsageError` that names it."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as file:
            content = file.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read rules file {path}: {exc}") from None
    texts: list[str] = []
    for number, line in enumerate(content.split("\n"), 1):
        stripped = line.strip()
        if stripped.startswith("#") or not (stripped or _CONTROL_SPACES.intersection(line)):
            continue
        try:
            texts.append(rulecards.clean_rule_text(line))
        except rulecards.RuleTextError as exc:
            raise UsageError(f"rules file {path}, line {number}: {exc}") from None
    if not texts:
        raise UsageError(f"rules file {path} holds no rule text")
    return texts


def rule_cards_option(args: argparse.Namespace, edition: str) -> list[str] | None:
    """The texts of ``--rules-file`` (``None`` without it); only UNO Wild Jackpot has rule cards."""
    if args.rules_file is None:
        return None
    if not isinstance(get_edition(edition), WildJackpot):
        raise UsageError(f"--rules-file is for wild-jackpot; {edition} has no rule cards")
    return read_rules_file(args.rules_file)


def add_rule_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", type=int, metavar="T", help="score that wins the match (default 500)")
    parser.add_argument(
        "--scoring",
        metavar="M",
        help="winner-collects (default), running-tally or single-round",
    )
    parser.add_argument(
        "--rule",
        action="append",
        metavar="NAME=VALUE",
        help="any rule option, e.g. --rule allow_bluff=false (repeatable)",
    )


# ---------------------------------------------------------------- simulate


def cmd_simulate(args: argparse.Namespace, screen: Screen) -> int:
    edition = get_edition(args.edition).name
    rules = build_rules(args)
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    rule_cards = rule_cards_option(args, edition)
    show_bar = not args.json and sys.stderr.isatty()
    if show_bar:
        from rich.progress import Progress

        with Progress(console=Console(file=sys.stderr), transient=True) as bar:
            task = bar.add_task(f"{edition}, {args.players} players", total=args.games)

            def advance(done: int, total: int) -> None:
                bar.update(task, completed=done)

            result = simulate(edition, args.players, args.games, args.seed, rules, advance, rule_cards)
    else:
        result = simulate(edition, args.players, args.games, args.seed, rules, rule_cards=rule_cards)
    if args.json:
        screen.out.write(json.dumps(result) + "\n")
        return 0
    rules_text = ", ".join(f"{k}={v}" for k, v in result["rules"].items()) or "default rules"
    screen.line(f"Simulated {plural(result['games'], 'game')} of {edition}, {result['players']} players, ", rules_text)
    screen.line(f"  seed                      {result['seed']}")
    screen.line(f"  rounds                    {result['rounds']}")
    screen.line(f"  decisions                 {result['decisions']}")
    screen.line(f"  mean decisions per game   {result['mean_decisions_per_game']}")
    screen.line("  seat   wins   points")
    for seat in range(result["players"]):
        screen.line(f"  {seat:>4} {result['wins_by_seat'][seat]:>6} {result['points_by_seat'][seat]:>8}")
    if "lever_outcomes" in result:
        written = result["rule_cards"]
        source = "the rule sheet's suggestions" if written is None else f"{len(written)} from {args.rules_file}"
        screen.line(f"  rule cards                {source}")
        levers = result["lever_outcomes"]
        screen.line(f"  lever pulls               {sum(levers.values())}")
        for name, count in levers.items():
            screen.line(f"    {name:<24}{count}")
        performed = result["rule_cards_performed"]
        screen.line(f"  rule cards performed      {sum(performed.values())}")
        screen.line(f"    enforced                {performed['enforced']}")
        screen.line(f"    honour tasks            {performed['honour']}")
    screen.line(f"  elapsed                   {result['elapsed_s']} s")
    return 0


# ---------------------------------------------------------------- play


QUIT = "quit"
DONE = "done"
DECLINED = "declined"


class PlaySession:
    """You at seat 0 against uniformly random bots."""

    def __init__(self, game: Game, names: list[str], screen: Screen, rng: random.Random) -> None:
        self.game = game
        self.names = names
        self.screen = screen
        self.rng = rng
        self.narrator = Narrator(names, you=0, scoring=game.rules.scoring, edition=game.edition.name)
        self.seen = 0
        self.declined_at = -1

    def run(self) -> bool:
        """Play until the match ends (True) or you leave (False)."""
        game = self.game
        while True:
            self.narrate()
            if game.is_over:
                return True
            deciders = game.deciders()
            pick = deciders[0] if len(deciders) == 1 else self.rng.choice(deciders)
            you_may_act = 0 in deciders
            if you_may_act and game.actor != 0 and self.declined_at == len(game.history):
                you_may_act = False
                pick = self.rng.choice([s for s in deciders if s != 0])
            # Anyone may call or catch first; you are always asked before the next turn begins.
            if you_may_act and (pick == 0 or pick == game.actor):
                answer = self.ask_you()
                if answer == QUIT:
                    return False
                if answer == DECLINED:
                    self.declined_at = len(game.history)
                continue
            legal = game.legal_actions(pick)
            game.apply(pick, self.rng.choice(legal))

    def narrate(self) -> None:
        view = self.game.view(0)
        history = view.history
        self.narrator.learn(view.public)
        for event in history[self.seen :]:
            line = self.narrator.event(event)
            if line is not None:
                self.screen.line(*line)
        self.seen = len(history)

    def show_table(self) -> None:
        game = self.game
        view = game.view(0)
        screen = self.screen
        screen.line()
        colour = ""
        if view.colour != NO_COLOUR:
            colour = f", colour {COLOUR_NAMES[view.colour]}"
        screen.line("Top card: ", *card_words(view.top_card), colour)
        who = self.narrator.who
        screen.line(
            f"Round {view.round}, dealer {who(view.dealer)}, play goes {direction_words(view.direction)}, "
            f"draw pile {view.draw_pile_size}, turn: {who(view.turn)}"
        )
        others = []
        for seat in range(view.players):
            if seat == 0:
                continue
            note = " (no UNO called!)" if seat in view.uncalled else ""
            others.append(f"{self.names[seat]} {plural(view.hand_sizes[seat], 'card')}{note}")
        screen.line("Others: ", "; ".join(others))
        if view.scoring == "single-round":
            screen.line("Single round: the first player out wins.")
        else:
            screen.line(f"Scores: {self.narrator.scores(view.scores)} (target {view.target_score}, {view.scoring})")
        if "rule_cards_in_dispenser" in view.public:
            screen.line(
                f"Rule cards: {view.public['rule_cards_in_dispenser']} in the dispenser, "
                f"{view.public['rule_cards_used']} used"
            )
        screen.line(f"Your hand ({len(view.hand)}): ", *cards_parts(view.hand))

    def your_rule_text(self) -> str:
        """The text of the rule card you are performing (UNO Wild Jackpot)."""
        rid = self.game.view(0).decision.get("rule", -1)
        if rid < 0:
            return "the rule card"
        return self.narrator.rule_texts.get(rid, f"rule card {rid}")

    def situation(self) -> list[Part]:
        game = self.game
        view = game.view(0)
        phase = view.phase
        decision = view.decision
        if view.actor != 0:
            exposed = [self.names[s] for s in view.uncalled if s != 0]
            parts = []
            if 0 in view.uncalled:
                parts.append("You hold one card and have not called UNO")
            if exposed:
                parts.append(f"{' and '.join(exposed)} did not call UNO")
            return ["; ".join(parts) + ". Choose a move, or press Enter to let play go on."]
        if phase == "turn":
            return ["Your turn: play a card or draw."]
        if phase == "drawn":
            return [f"You drew {card_name(view.drawn)}: play it or pass."]
        if phase == "colour":
            return ["Choose a colour."]
        if phase == "challenge":
            return [f"{self.names[decision['bluffer']]} played a Wild Draw Four on you: challenge or accept?"]
        if phase == "discard":
            if view.edition == "space-jam":
                return [f"Slam! Discard {plural(decision['discards_left'], 'more card')}."]
            left = plural(decision["discards_left"], "card")
            return [f"Rule card: discard a card of your choice, under the top card ({left} to discard)."]
        if phase == "target":
            if decision["target_kind"] == TARGET_PERFORMER:
                return ["Jackpot: choose who performs a rule card (anyone, you included)."]
            if decision["target_kind"] == TARGET_OF_RULE:
                return ["Rule card: choose the player it applies to."]
            return ["Choose a player."]
        if phase == "rule-run":
            return ["Rule card: play as many cards in a row as you can. Play a card that matches the top card."]
        if phase == "lever-discard":
            return ["Lever: discard up to one card of each colour on top of the pile, or say done."]
        if phase == "honour":
            return ['Honour task: carry out "', self.your_rule_text(), '", then confirm with done.']
        if phase == "give":
            target = self.names[decision["give_to"]]
            left = plural(decision["give_left"], "card")
            return [f"Rule card: give a card of your choice to {target} ({left} to give)."]
        return ["Your move."]

    def ask_you(self) -> str:
        game = self.game
        screen = self.screen
        view = game.view(0)
        in_turn = view.actor == 0
        self.show_table()
        legal = view.legal_actions
        screen.line(*self.situation())
        width = max(len(game.actions.format(a)) for a in legal)
        for number, action in enumerate(legal, 1):
            text = game.actions.format(action)
            screen.line(f"  {number:>2}) {text:<{width}}  {describe_action(game, view, action, self.names)}")
        numbers = "1" if len(legal) == 1 else f"1-{len(legal)}"
        prompt = f"Move ({numbers}, notation, help, quit{', Enter to wait' if not in_turn else ''}): "
        while True:
            answer = screen.ask(prompt)
            if answer is None:
                screen.line("End of input: leaving the game.")
                return QUIT
            text = answer.strip()
            word = text.lower()
            if not text:
                if not in_turn:
                    return DECLINED
                screen.line("Type the number of a move or the move itself (help lists them).")
                continue
            if word in ("quit", "exit", "q"):
                screen.line("You leave the game.")
                return QUIT
            if word in ("help", "h", "?"):
                screen.line(PLAY_HELP)
                continue
            if word in ("status", "table", "hand"):
                self.show_table()
                screen.line(*self.situation())
                continue
            try:
                if text.isdigit():
                    number = int(text)
                    if not 1 <= number <= len(legal):
                        screen.line(f"No move {number}: choose from 1 to {len(legal)}.")
                        continue
                    action = legal[number - 1]
                else:
                    action = game.actions.parse(text)
                game.apply(0, action)
            except UnoError as exc:
                screen.line(f"Not possible: {exc}")
                continue
            return DONE


RULES_INTRO = """\
Write your rule cards.  Type the text of each card (up to {limit} characters), or press Enter
to take the suggestion shown.  Text in one of the forms the game reads is enforced; anything
else is an honour task: everyone sees it, and you confirm when you have done it.
Type ? for the forms the game reads, quit to leave."""


def write_rule_cards(screen: Screen, count: int, suggestions: Sequence[str]) -> list[str] | None:
    """Ask for ``count`` rule texts, offering ``suggestions`` in turn; ``None`` if you leave."""
    screen.line(RULES_INTRO.format(limit=rulecards.MAX_RULE_LENGTH))
    texts: list[str] = []
    for index in range(count):
        suggestion = suggestions[index % len(suggestions)]
        screen.line()
        screen.line(f"Suggestion: {suggestion}")
        while True:
            answer = screen.ask(f"Rule card {index + 1} of {count} (text, or Enter for the suggestion): ")
            if answer is None:
                screen.line("End of input: leaving the game.")
                return None
            word = answer.strip().lower()
            if word in ("quit", "exit"):
                screen.line("You leave the game.")
                return None
            if word == "?":
                screen.line(rulecards.GRAMMAR)
                continue
            try:
                card = rulecards.read_rule(answer if answer.strip() else suggestion)
            except rulecards.RuleTextError as exc:
                screen.line(f"Not possible: {exc}. Write it again.")
                continue
            show_rule_card(screen, index + 1, card)
            texts.append(card.text)
            break
    return texts


def show_rule_card(screen: Screen, number: int, card: rulecards.RuleCard) -> None:
    screen.line(f"Rule card {number}: ", card.text)
    screen.line(f"  read as {card.reading()}")


def rule_cards_for_play(
    screen: Screen, game: Game, seed: int, from_file: list[str] | None, path: str | None
) -> list[str] | None:
    """UNO Wild Jackpot: your rule cards (written now, or ``from_file``) and the bots'
    (drawn from the rule sheet's suggestions, seeded by ``seed``); ``None`` if you leave."""
    per_player = rule_cards_per_player(game.rules.rule_card_count, game.n)
    rng = random.Random(f"unokit-play-rules/{seed}")
    bots: list[str] = []
    for _ in range(1, game.n):
        pool = list(rulecards.SUGGESTIONS)
        rng.shuffle(pool)
        bots += [pool[i % len(pool)] for i in range(per_player)]
    yours = from_file
    if yours is None:
        pool = list(rulecards.SUGGESTIONS)
        rng.shuffle(pool)
        written = write_rule_cards(screen, per_player, pool)
        if written is None:
            return None
        yours = written
    else:
        screen.line(f"Your rule cards, from {path}:")
        for number, text in enumerate(yours, 1):
            show_rule_card(screen, number, rulecards.read_rule(text))
    screen.line()
    screen.line(
        f"The bots write {plural(per_player, 'rule card')} each. "
        f"All {len(yours) + len(bots)} rule cards are shuffled into the dispenser."
    )
    return yours + bots


def cmd_play(args: argparse.Namespace, screen: Screen) -> int:
    rules = build_rules(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    game = Game(args.edition, args.players, seed=seed, rules=rules)  # checks the set-up before any question
    from_file = rule_cards_option(args, game.edition.name)
    names = [args.name, *(f"Bot {seat}" for seat in range(1, game.n))]
    screen.line((f"{game.edition.title}: you ({args.name}, seat 0) against {plural(game.n - 1, 'bot')}.", "bold"))
    screen.line(f"Seed {game.seed}. Type help for the notation, quit to leave.")
    if isinstance(game.edition, WildJackpot):
        rule_cards = rule_cards_for_play(screen, game, seed, from_file, args.rules_file)
        if rule_cards is None:
            if args.record:
                screen.line("No record saved: the match had not begun.")
            return 0
        game = Game(args.edition, args.players, seed=seed, rules=rules, rule_cards=rule_cards)
    rng = random.Random(f"unokit-play/{game.seed}")
    session = PlaySession(game, names, screen, rng)
    finished = session.run()
    if args.record:
        try:
            save(game, args.record, names)
        except OSError as exc:
            raise UsageError(f"cannot write record {args.record}: {exc}") from None
        screen.line(f"Record saved to {args.record}" + ("" if finished else " (match not finished)") + ".")
    return 0


# ---------------------------------------------------------------- replay


def cmd_replay(args: argparse.Namespace, screen: Screen) -> int:
    record = load(args.file)
    replay(record)  # checks the whole record before showing anything
    game = replay(record, upto=0)
    names_value = record.get("names")
    names = [f"Seat {s}" for s in range(game.n)]
    if isinstance(names_value, list) and len(names_value) == game.n:
        names = [str(name) for name in names_value]
    narrator = Narrator(names, scoring=game.rules.scoring, edition=game.edition.name)
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


# ---------------------------------------------------------------- serve


def cmd_serve(args: argparse.Namespace, screen: Screen) -> int:
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be from 0 to 65535, not {args.port}")
    if not 0 <= args.bot_delay <= 60:
        raise UsageError(f"--bot-delay must be from 0 to 60 seconds, not {args.bot_delay}")
    if not 0 <= args.away_seconds <= 3600:
        raise UsageError(f"--away-seconds must be from 0 to 3600 seconds, not {args.away_seconds}")
    try:
        from unokit.web.rooms import ServerSettings
        from unokit.web.server import ServeError, serve
    except ImportError as exc:
        raise UsageError(f"serve needs the web extra (pip install 'unokit[web]'): {exc}") from None
    try:
        serve(args.host, args.port, args.db, ServerSettings(bot_delay=args.bot_delay, away_seconds=args.away_seconds))
    except ServeError as exc:
        raise UsageError(str(exc)) from None
    return 0


# ---------------------------------------------------------------- tournament and stats


@contextlib.contextmanager
def progress_bar(label: str, total: int, show: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on stderr (``None`` when not shown). It refreshes only when called, from
    this thread, so no other thread runs while games are handed to worker processes."""
    if not show:
        yield None
        return
    from rich.progress import Progress

    with Progress(console=Console(file=sys.stderr), transient=True, auto_refresh=False) as bar:
        task = bar.add_task(label, total=total)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total, refresh=True)

        yield advance


def bot_list(text: str) -> list[str]:
    """``ismcts,heuristic,random`` -> the kinds, one per seat."""
    kinds = [kind.strip() for kind in text.split(",")]
    if any(not kind for kind in kinds):
        raise UsageError(f"--bots takes bot kinds separated by commas, not {text!r}")
    if not 2 <= len(kinds) <= 10:
        raise UsageError(f"--bots needs 2 to 10 bot kinds, one per seat, not {len(kinds)}")
    return kinds


def check_counts(args: argparse.Namespace) -> None:
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be at least 1, not {args.workers}")
    if args.max_decisions < 1:
        raise UsageError(f"--max-decisions must be at least 1, not {args.max_decisions}")


def cmd_tournament(args: argparse.Namespace, screen: Screen) -> int:
    from unokit.tournament import PlotUnavailableError, plot_tournament, require_matplotlib, run_tournament

    kinds = bot_list(args.bots)
    edition = get_edition(args.edition).name
    rules = build_rules(args)
    check_counts(args)
    if args.plot:
        try:
            require_matplotlib()
        except PlotUnavailableError as exc:
            raise UsageError(f"--plot: {exc}") from None
    show = not args.json and sys.stderr.isatty()
    with progress_bar(f"{edition}: {', '.join(kinds)}", args.games, show) as advance:
        result = run_tournament(
            edition,
            kinds,
            args.games,
            args.seed,
            workers=args.workers,
            rules=rules,
            progress=advance,
            max_decisions=args.max_decisions,
        )
    if args.plot:
        try:
            plot_tournament(result, args.plot)
        except OSError as exc:
            raise UsageError(f"cannot write plot {args.plot}: {exc}") from None
    if args.json:
        screen.out.write(json.dumps(result) + "\n")
        return 0
    rules_text = ", ".join(f"{k}={v}" for k, v in result["rules"].items()) or "default rules"
    screen.line(
        f"Tournament of {edition}, {result['players']} players, {plural(result['games'], 'game')}, "
        f"seed {result['seed']}, {rules_text}"
    )
    screen.line("Seats rotate every game and each deal is played from every seat.")
    single = result["scoring"] == "single-round"
    head = f"  {'bot':<12}{'seats':>6}{'rounds':>8}{'wins':>7}{'win rate':>10}  {'95% CI':<17}"
    head += f"{'mean points':>12}" if not single else ""
    head += f"{'match wins':>12}" if not single else ""
    screen.line(head + f"{'ms/decision':>13}")
    for kind, entry in result["results"].items():
        low, high = entry["round_win_ci95"]
        row = f"  {kind:<12}{entry['seats']:>6}{entry['rounds']:>8}{entry['round_wins']:>7}"
        row += f"{100 * entry['round_win_rate']:>9.1f}%  {f'{100 * low:.1f}% to {100 * high:.1f}%':<17}"
        if not single:
            row += f"{entry['mean_points']:>12.1f}{entry['match_wins']:>12}"
        screen.line(row + f"{1000 * entry['mean_decision_s']:>13.3f}")
    screen.line(f"Equal bots would each win {100 * result['expected_win_rate']:.1f}% of the rounds.")
    if result["unfinished"]:
        screen.line(
            f"{plural(result['unfinished'], 'game')} stopped after {args.max_decisions} decisions "
            "and left out of the counts."
        )
    elif not result["seat_balanced"]:
        screen.line(f"Seats are not balanced: use a multiple of {result['players']} games.")
    if args.plot:
        screen.line(f"Plot written to {args.plot}")
    screen.line(f"Elapsed {result['elapsed_s']} s on {plural(result['workers'], 'worker')}.")
    return 0


def stats_command_line(args: argparse.Namespace) -> str:
    """The command that makes the same report (every setting spelled out)."""
    words = ["unokit", "stats", "--edition", get_edition(args.edition).name, "--players", str(args.players)]
    words += ["--games", str(args.games), "--seed", str(args.seed), "--bots", args.bots, "--out", args.out]
    if args.compare:
        words.append("--compare")
    if args.target is not None:
        words += ["--target", str(args.target)]
    if args.scoring is not None:
        words += ["--scoring", args.scoring]
    for pair in args.rule or []:
        words += ["--rule", pair]
    if args.max_decisions != MAX_DECISIONS:
        words += ["--max-decisions", str(args.max_decisions)]
    return shlex.join(words)


def cmd_stats(args: argparse.Namespace, screen: Screen) -> int:
    from unokit.stats import make_report
    from unokit.tournament import PlotUnavailableError, require_matplotlib

    edition = get_edition(args.edition).name
    rules = build_rules(args)
    check_counts(args)
    if args.bots.strip() != args.bots or not args.bots or "," in args.bots:
        raise UsageError(f"--bots takes one bot kind, for every seat, not {args.bots!r}")
    try:
        require_matplotlib()
    except PlotUnavailableError as exc:
        raise UsageError(f"stats: {exc}") from None
    editions = 4 if args.compare else 1
    show = not args.json and sys.stderr.isatty()
    with progress_bar(f"{edition}, {args.players} players", args.games * editions, show) as advance:
        summary = make_report(
            args.out,
            edition,
            args.players,
            args.games,
            args.seed,
            bot=args.bots,
            workers=args.workers,
            rules=rules,
            compare=args.compare,
            command=stats_command_line(args),
            progress=advance,
            max_decisions=args.max_decisions,
        )
    if args.json:
        screen.out.write(json.dumps(summary) + "\n")
        return 0
    screen.line(f"Report written to {summary['report']}, with {plural(len(summary['plots']), 'plot')}.")
    for name, data in summary["editions"].items():
        first = data["first_player_win_rate"]
        screen.line(
            f"  {name:<13} {plural(data['rounds'], 'round')}, {data['mean_decisions_per_round']} decisions per "
            f"round, first player wins {100 * first:.1f}%"
            + (f", {data['unfinished']} unfinished" if data["unfinished"] else "")
        )
    return 0


def add_bot_commands(commands: Any, editions: str) -> None:
    """The ``tournament`` and ``stats`` commands."""
    tour = commands.add_parser(
        "tournament",
        help="compare bots over many matches, seats rotated",
        description="Play matches between bots and compare their round win rates (with 95% confidence "
        "intervals). Seats rotate every game and each deal is played from every seat, so use a multiple "
        "of the number of bots as the number of games. The same seed gives the same results.",
    )
    tour.add_argument("--edition", default="classic", help=f"edition: {editions} (default classic)")
    tour.add_argument(
        "--bots",
        required=True,
        metavar="KINDS",
        help="bot kinds, one per seat, separated by commas, e.g. heuristic,random,random",
    )
    tour.add_argument("--games", type=int, default=100, metavar="N", help="matches to play (default 100)")
    tour.add_argument("--workers", type=int, metavar="W", help="processes (default: one per CPU)")
    tour.add_argument("--seed", type=int, default=0, metavar="S", help="seed (default 0)")
    tour.add_argument("--json", action="store_true", help="print one JSON object and nothing else")
    tour.add_argument("--plot", metavar="FILE", help="draw the win rates to a PNG file (needs matplotlib)")
    tour.add_argument(
        "--max-decisions",
        type=int,
        default=MAX_DECISIONS,
        metavar="D",
        help=f"stop a match after D decisions and leave it out (default {MAX_DECISIONS})",
    )
    add_rule_options(tour)

    st = commands.add_parser(
        "stats",
        help="write a report on matches between bots (Markdown and plots)",
        description="Play matches with the same kind of bot in every seat and write DIR/report.md with PNG "
        "plots (needs matplotlib): game length, first-player and seat advantage, points, special cards "
        "and, for wild-jackpot, the lever and rule cards.",
    )
    st.add_argument("--edition", default="classic", help=f"edition: {editions} (default classic)")
    st.add_argument("--players", type=int, default=4, metavar="N", help="players, 2 to 10 (default 4)")
    st.add_argument("--games", type=int, default=100, metavar="K", help="matches to play (default 100)")
    st.add_argument("--out", required=True, metavar="DIR", help="directory for report.md and the plots")
    st.add_argument("--seed", type=int, default=0, metavar="S", help="seed (default 0)")
    st.add_argument("--bots", default="random", metavar="KIND", help="bot kind in every seat (default random)")
    st.add_argument("--compare", action="store_true", help="also play every other edition and compare them")
    st.add_argument("--workers", type=int, metavar="W", help="processes (default: one per CPU)")
    st.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    st.add_argument(
        "--max-decisions",
        type=int,
        default=MAX_DECISIONS,
        metavar="D",
        help=f"stop a match after D decisions and leave it out (default {MAX_DECISIONS})",
    )
    add_rule_options(st)


# ---------------------------------------------------------------- entry point


def build_parser() -> argparse.ArgumentParser:
    editions = ", ".join(sorted(EDITIONS))
    parser = argparse.ArgumentParser(
        prog="unokit",
        description="Rules engine, bots and tools for the UNO family of card games.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    sim = commands.add_parser(
        "simulate",
        help="play random matches and count what happened",
        description="Play matches with a uniformly random legal policy and print counts. "
        "The same seed gives the same counts.",
    )
    sim.add_argument("--edition", default="classic", help=f"edition: {editions} (default classic)")
    sim.add_argument("--players", type=int, default=4, metavar="N", help="players, 2 to 10 (default 4)")
    sim.add_argument("--games", type=int, default=100, metavar="K", help="matches to play (default 100)")
    sim.add_argument("--seed", type=int, default=0, metavar="S", help="seed (default 0)")
    sim.add_argument("--json", action="store_true", help="print one JSON object and nothing else")
    sim.add_argument(
        "--rules-file",
        metavar="FILE",
        help="wild-jackpot: the rule-card texts of every game, one per line (default: the sheet's suggestions)",
    )
    add_rule_options(sim)

    play = commands.add_parser(
        "play",
        help="play in the terminal against random bots",
        description="You (seat 0) against random bots. Type help during the game for the notation.",
    )
    play.add_argument("--edition", default="classic", help=f"edition: {editions} (default classic)")
    play.add_argument("--players", type=int, default=4, metavar="N", help="players, 2 to 10 (default 4)")
    play.add_argument("--seed", type=int, metavar="S", help="seed of the deal and of the bots (default random)")
    play.add_argument("--record", metavar="FILE", help="save the game record to FILE at the end")
    play.add_argument("--name", default="Player", help="your name in the record (default Player)")
    play.add_argument(
        "--rules-file",
        metavar="FILE",
        help="wild-jackpot: your rule-card texts, one per line, instead of writing them at the start",
    )
    add_rule_options(play)

    rep = commands.add_parser(
        "replay",
        help="replay a game record action by action",
        description="Replay a record, printing each action in notation and what happened in words. "
        "A record is reviewed in the open: every card is shown, including hands, draws and revealed cards.",
    )
    rep.add_argument("file", metavar="FILE", help="a record saved by 'unokit play --record'")
    rep.add_argument("--step", action="store_true", help="wait for Enter between actions")
    add_bot_commands(commands, editions)

    srv = commands.add_parser(
        "serve",
        help="serve the game to browsers",
        description="Run the web game: open the address it prints in a browser, create a room and invite "
        "friends with its link. Rooms are stored in an SQLite file; a restart resumes every game in progress. "
        "Needs the web extra (pip install 'unokit[web]').",
    )
    srv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    srv.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free port)")
    srv.add_argument("--db", default="unokit.sqlite3", metavar="FILE", help="SQLite file (default unokit.sqlite3)")
    srv.add_argument(
        "--bot-delay", type=float, default=0.7, metavar="S", help="seconds a bot waits before acting (default 0.7)"
    )
    srv.add_argument(
        "--away-seconds",
        type=float,
        default=20.0,
        metavar="S",
        help="seconds before a bot plays for a disconnected player (default 20)",
    )
    return parser


Command = Callable[[argparse.Namespace, Screen], int]
_COMMANDS: dict[str, Command] = {
    "simulate": cmd_simulate,
    "play": cmd_play,
    "replay": cmd_replay,
    "serve": cmd_serve,
    "tournament": cmd_tournament,
    "stats": cmd_stats,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    if args.command is None:
        parser.print_usage(sys.stderr)
        print(
            "unokit: error: choose a command: simulate, play, replay, serve, tournament or stats (see unokit --help)",
            file=sys.stderr,
        )
        return 2
    screen = Screen(sys.stdout, sys.stdin)
    try:
        return _COMMANDS[args.command](args, screen)
    except (UnoError, UsageError) as exc:
        print(f"unokit: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
