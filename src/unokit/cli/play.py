"""``unokit play``: you against bots (random by default) in the terminal, and the rule cards you write first."""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from unokit.bots.base import Bot, bot_kinds, make_bot
from unokit.cli.common import (
    Screen,
    UsageError,
    add_rule_options,
    build_rules,
    check_output_file,
    edition_names,
    rule_cards_option,
    said_to,
)
from unokit.editions import rulecards
from unokit.editions.wild_jackpot import TARGET_OF_RULE, TARGET_PERFORMER, WildJackpot, rule_cards_per_player
from unokit.engine.actions import ActionType
from unokit.engine.cards import COLOUR_NAMES, NO_COLOUR, card_name
from unokit.engine.errors import UnoError
from unokit.engine.events import Event
from unokit.engine.game import Game
from unokit.engine.positions import determinize, is_public, public_position
from unokit.engine.record import save
from unokit.engine.rules import Rules
from unokit.narrate import (
    Narrator,
    Part,
    card_part,
    card_words,
    cards_parts,
    colour_style,
    describe_action,
    direction_words,
    plural,
)

if TYPE_CHECKING:
    from unokit.cli.common import Commands

PLAY_HELP = """\
How to play
  Each prompt lists your legal moves. Type the number of a move, or the move itself in notation:
    R7         play the red 7
    R7!        play it and call UNO (next-to-last card)
    draw       draw a card
    pass       keep the card you just drew
    =G         choose green
    @2         choose seat 2 (targeted cards)
    challenge  challenge a Wild Draw Four played on you
    accept     accept it, or draw a stacked penalty instead of adding to it (house rule stacking)
    -R7        discard R7 (Slam; Wild Jackpot lever or rule card)
    >R7        give R7 (rule card)
    done       confirm an honour task, or stop the lever's discards
    uno        call UNO (when holding one card)
    catch@2    catch seat 2, who has one card and did not call UNO
    ^R7        jump in with R7 out of turn (house rule Jump-In: the same card is on top)
  Colours: R red, Y yellow, G green, B blue, O orange. Wild cards: W, W+4, WJ (Wild Welcome to the Jam), \
WR, WS, WS2, W+2, WT2 (Targeted Draw Two), WX (Forced Swap), W$ (Wild Jackpot). R$ is the red Jackpot: \
a Jackpot or Wild Jackpot pulls the lever.
  When someone forgets to call UNO you are offered to catch them, and when you may jump in you are asked \
too; press Enter to let play go on.
Commands
  help      this text
  status    show the table and your moves again
  hint      rate your legal moves from what you know (games started with --hints)
  position  print the game as you may know it, as one line of text (a public position: unokit play \
--position and unokit analyse read it)
  quit      leave the game, once you confirm (the record is still saved with --record)"""


def add_parser(commands: Commands) -> None:
    """The ``play`` command and its options."""
    editions = edition_names()
    parser = commands.add_parser(
        "play",
        help="play in the terminal against bots",
        description="You (seat 0) against bots (--bot: their level). Type help during the game for the notation.",
    )
    parser.add_argument("--edition", default="classic", help=f"edition: {editions} (default classic)")
    parser.add_argument("--players", type=int, default=4, metavar="N", help="players, 2 to 10 (default 4)")
    parser.add_argument("--seed", type=int, metavar="S", help="seed of the deal and of the bots (default random)")
    parser.add_argument("--record", metavar="FILE", help="save the game record to FILE at the end")
    parser.add_argument(
        "--position",
        metavar="TEXT",
        help="start from a position (full, or public: the cards you cannot see dealt at random from --seed); "
        "its edition, players and rules are played, and you take seat 0",
    )
    parser.add_argument("--name", default="Player", help="your name in the record (default Player)")
    parser.add_argument(
        "--bot",
        default="random",
        metavar="LEVEL",
        help=f"the bots' level: {', '.join(bot_kinds())} (default random)",
    )
    parser.add_argument(
        "--rules-file",
        metavar="FILE",
        help="wild-jackpot: your rule-card texts, one per line, instead of writing them at the start",
    )
    parser.add_argument(
        "--hints",
        action="store_true",
        help="allow the hint command: your moves rated by your chance to win the round (off by default)",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="play as a transcript, not on the full-screen table (screen readers, pipes)",
    )
    add_rule_options(parser)


HINT_SECONDS = 0.5
"""The time a hint spends rating your moves."""

QUIT = "quit"
DONE = "done"
DECLINED = "declined"


class PlaySession:
    """You at seat 0 against ``bots`` (seats 1 and on; none: uniformly random moves)."""

    hints = False
    """Whether the hint command rates your moves (``unokit play --hints``)."""
    record: str | None = None
    """Where the record is saved when the game ends or you leave (``unokit play --record``)."""

    def __init__(
        self, game: Game, names: list[str], screen: Screen, rng: random.Random, bots: dict[int, Bot] | None = None
    ) -> None:
        self.game = game
        self.names = names
        self.screen = screen
        self.rng = rng
        self.bots = bots
        self.passed: set[tuple[int, int]] = set()
        """(seat, events so far) of the bots that let a call, a catch or a jump-in pass then."""
        self.narrator = Narrator(names, you=0, scoring=game.scoring, edition=game.edition.name)
        self.seen = 0
        self.declined_at = -1

    def run(self) -> bool:
        """Play until the match ends (True) or you leave (False)."""
        game = self.game
        while True:
            self.narrate()
            if game.is_over:
                return True
            moment = len(game.history)
            deciders = [seat for seat in game.deciders() if (seat, moment) not in self.passed]
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
            if self.bots is None:
                game.apply(pick, self.rng.choice(legal))
                continue
            bot, view = self.bots[pick], game.view(pick)
            if pick == game.actor:
                game.apply(pick, bot.choose(view))
                continue
            wanted = bot.wants_interrupt(view)
            if wanted is None or wanted not in legal:
                self.passed.add((pick, moment))
            else:
                game.apply(pick, wanted)

    def narrate(self) -> None:
        view = self.game.view(0)
        history = view.history
        self.narrator.learn(view.public)
        events = history[self.seen :]
        for line in self.narrator.lines(events, view.round_results):
            self.screen.line(*line)
        self.seen = len(history)
        if hands_changed(events, 0):
            self.screen.line("You now hold: ", *cards_parts(view.hand))

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
            if view.teams:
                note += " (partner)" if view.teams[seat] == view.teams[0] else " (other team)"
            if seat in view.state.get("knocked", ()):
                note += " (out of the match)"
            elif seat in view.state.get("out", ()):
                note += " (out of the round)"
            others.append(f"{self.names[seat]} {plural(view.hand_sizes[seat], 'card')}{note}")
        screen.line("Others: ", "; ".join(others))
        if view.scoring == "single-round":
            screen.line("Single round: the first player out wins.")
        elif view.scoring == "knockout":
            out = view.state.get("knocked", ())
            gone = f"; out of the match: {', '.join(self.names[s] for s in out)}" if out else ""
            screen.line(f"Knockout: after each round the player with the most cards leaves{gone}.")
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
            jumps = [a for a in game.legal_actions(0) if game.actions.types[a] is ActionType.JUMP]
            if jumps:
                cards = " or ".join(game.actions.format(a) for a in jumps)
                parts.append(f"You hold the card on top: jump in with {cards} before {self.names[view.actor]} plays")
            return ["; ".join(parts) + ". Choose a move, or press Enter to let play go on."]
        if phase == "turn":
            return ["Your turn: play a card or draw."]
        if phase == "drawn":
            return [f"You drew {card_name(view.drawn)}: play it or pass."]
        if phase == "colour":
            return ["Choose a colour."]
        if phase == "stack":
            total = plural(view.state.get("stack_total", 0), "card")
            return [f"A penalty of {total} is aimed at you: add a draw card to pass it on, or accept and draw it."]
        if phase == "multi":
            return ["Play another card of the same number, or pass to end your turn."]
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

    def show_moves(self) -> None:
        """Your legal moves, numbered, each in notation (in its card's colour) and in words."""
        game = self.game
        view = game.view(0)
        legal = view.legal_actions
        width = max(len(game.actions.format(a)) for a in legal)
        for number, action in enumerate(legal, 1):
            text = game.actions.format(action)
            self.screen.line(
                f"  {number:>2}) ",
                (text, action_style(game, action)),
                " " * (width - len(text) + 2),
                describe_action(game, view, action, self.names),
            )

    def ask_you(self) -> str:
        game = self.game
        screen = self.screen
        view = game.view(0)
        in_turn = view.actor == 0
        self.show_table()
        legal = view.legal_actions
        screen.line(*self.situation())
        self.show_moves()
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
                if not self.confirm_quit():
                    continue
                screen.line("You leave the game.")
                return QUIT
            if word in ("help", "h", "?"):
                screen.line(PLAY_HELP)
                continue
            if word == "hint":
                self.hint()
                continue
            if word == "position":
                screen.line(public_position(game, 0))
                continue
            if word in ("status", "table", "hand"):
                self.show_table()
                screen.line(*self.situation())
                self.show_moves()
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
                screen.line(f"Not possible: {said_to(str(exc), 0, self.names, game)}")
                continue
            return DONE

    def confirm_quit(self) -> bool:
        """Ask before leaving: ``y`` (or the end of input) leaves, anything else plays on."""
        saved = " (the record is saved)" if self.record else ""
        while True:
            answer = self.screen.ask(f"Quit the game{saved}? (y/n) ")
            if answer is None:
                return True
            word = answer.strip().lower()
            if word in ("y", "yes"):
                return True
            if word in ("n", "no", ""):
                self.screen.line("You play on.")
                return False
            self.screen.line("Type y to leave the game or n to play on.")

    def hint(self) -> None:
        """Your legal moves rated from your own knowledge (:func:`unokit.analysis.analyse`)."""
        if not self.hints:
            self.screen.line("Hints are off: start the game with --hints to rate your moves.")
            return
        if self.game.actor != 0:
            self.screen.line("A hint rates your moves on your turn: calls and catches are always worth making.")
            return
        from unokit.analysis.ratings import analyse
        from unokit.cli.analyse import analysis_lines, how, percent

        analysis = analyse(self.game, 0, seconds=HINT_SECONDS, seed=len(self.game.history))
        self.screen.line(f"Your chance to win the round after each move ({how(analysis)}):")
        for line in analysis_lines(analysis):
            self.screen.line(line)
        self.screen.line(f"Hint: {analysis.best.notation} ({percent(analysis.best.win)}).")


def action_style(game: Game, action: int) -> str:
    """The colour a move is shown in: its card's, or the colour it chooses ("" for the others)."""
    kind, arg = game.actions.decode(action)
    if kind in CARD_ACTIONS:
        return card_part(arg)[1]
    if kind is ActionType.COLOUR:
        return colour_style(arg)
    return ""


CARD_ACTIONS = frozenset(
    {ActionType.PLAY, ActionType.PLAY_UNO, ActionType.DISCARD, ActionType.GIVE, ActionType.JUMP, ActionType.JUMP_UNO}
)
"""The moves whose argument is a card of the hand."""


def hands_changed(events: Sequence[Event], seat: int) -> bool:
    """Whether ``events`` swapped ``seat``'s hand (Seven-O, Wild Forced Swap, a rule card) or passed
    every hand on (a 0, Seven-O) and no new round was dealt after it."""
    changed = False
    for kind, who, other, _data in events:
        if kind == "pass_hands" or (kind == "swap" and seat in (who, other)):
            changed = True
        elif kind in ("deal", "round_end", "match_end"):
            changed = False
    return changed


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


def game_from_position(text: str, seed: int) -> Game:
    """The game of ``--position``: a full position as it is, a public one with the cards it hides
    dealt at random from ``seed``; it keeps the position it starts from (a record starts there)."""
    if is_public(text):
        game = determinize(text, seed)
        game.start_position = game.position()
    else:
        game = Game.from_position(text)
        game.start_position = text
    return game


def game_of_options(args: argparse.Namespace, rules: Rules, seed: int) -> Game:
    """The game ``unokit play``'s options set up: dealt from them, or loaded from ``--position`` (which
    then refuses the options it sets itself, :class:`UsageError`)."""
    if args.position is None:
        return Game(args.edition, args.players, seed=seed, rules=rules)
    given = [
        option
        for option, value in (
            ("--edition", args.edition != "classic"),
            ("--players", args.players != 4),
            ("--rules-file", args.rules_file is not None),
            ("rule options", rules != Rules()),
        )
        if value
    ]
    if given:
        raise UsageError(f"--position plays the position's edition, players and rules: leave out {', '.join(given)}")
    return game_from_position(args.position, seed)


def cmd_play(args: argparse.Namespace, screen: Screen) -> int:
    from unokit.cli.tui.launch import play_on_table, wants_table

    if wants_table(args, screen):
        return play_on_table(args, screen)
    rules = build_rules(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    game = game_of_options(args, rules, seed)  # checks the set-up before any question
    from_file = rule_cards_option(args, game.edition.name)
    if args.record:
        check_output_file(args.record, "--record")
    bots = None
    if args.bot != "random":
        try:
            options = {"players": game.n} if args.bot == "learned" else {}  # refuses a table it was not trained for
            bots = {
                seat: make_bot(args.bot, seed=game.seed + seat, edition=game.edition.name, **options)
                for seat in range(1, game.n)
            }
        except UnoError as exc:
            raise UsageError(str(exc)) from None
    names = [args.name, *(f"Bot {seat}" for seat in range(1, game.n))]
    screen.line((f"{game.edition.title}: you ({args.name}, seat 0) against {plural(game.n - 1, 'bot')}.", "bold"))
    screen.line(f"Seed {game.seed}. Type help for the notation, quit to leave.")
    if isinstance(game.edition, WildJackpot) and args.position is None:
        try:
            rule_cards = rule_cards_for_play(screen, game, seed, from_file, args.rules_file)
        except KeyboardInterrupt:
            screen.line()
            screen.line("Interrupted" + (": no record saved, the match had not begun." if args.record else "."))
            return 130
        if rule_cards is None:
            if args.record:
                screen.line("No record saved: the match had not begun.")
            return 0
        game = Game(args.edition, args.players, seed=seed, rules=rules, rule_cards=rule_cards)
    rng = random.Random(f"unokit-play/{game.seed}")
    session = PlaySession(game, names, screen, rng, bots)
    session.hints = args.hints
    session.record = args.record
    try:
        finished = session.run()
    except KeyboardInterrupt:
        screen.line()  # after the prompt Ctrl-C cut short
        if not args.record:
            screen.line("Interrupted.")
            return 130
        save_record(game, args.record, names)
        screen.line(
            f"Interrupted: record saved to {args.record}" + ("" if game.is_over else " (match not finished)") + "."
        )
        return 130
    if args.record:
        save_record(game, args.record, names)
        screen.line(f"Record saved to {args.record}" + ("" if finished else " (match not finished)") + ".")
    return 0


def save_record(game: Game, path: str, names: list[str]) -> None:
    try:
        save(game, path, names)
    except OSError as exc:
        raise UsageError(f"cannot write record {path}: {exc}") from None
