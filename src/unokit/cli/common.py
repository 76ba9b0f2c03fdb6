"""What the commands share: the terminal screen, usage errors, rule options and progress bars."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import sys
import tempfile
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeAlias

from rich.console import Console
from rich.text import Text

from unokit.editions import EDITIONS, get_edition, rulecards
from unokit.editions.wild_jackpot import WildJackpot
from unokit.engine.rules import PRESETS, Rules
from unokit.narrate import Part

if TYPE_CHECKING:
    from unokit.engine.game import Game

    Commands: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]
    """What ``add_subparsers`` returns: each command module adds its parser to it."""


def edition_names() -> str:
    """The editions, for the ``--edition`` help."""
    return ", ".join(sorted(EDITIONS))


# ---------------------------------------------------------------- output


class Screen:
    """Writes to the terminal: colour when it is one, plain text otherwise."""

    def __init__(self, out: TextIO, inp: TextIO, width: int | None = None) -> None:
        self.console = Console(file=out, highlight=False, soft_wrap=True, emoji=False)
        self.out = out
        self.inp = inp
        self.echo = _is_tty(inp)
        """Whether the terminal shows what is typed (otherwise the answer is written out)."""
        self.width = width
        """The columns lines are wrapped to; ``None``: the terminal's width (read at each line, so that a
        resized window is followed), and no wrapping when the output is not a terminal (a pipe, a file)."""

    def columns(self) -> int | None:
        """The width lines are wrapped to now (``None``: lines are written whole)."""
        if self.width is not None:
            return self.width
        if not _is_tty(self.out):
            return None
        return shutil.get_terminal_size().columns

    def rows(self, parts: Sequence[Part], hang: int | None = None) -> list[Text]:
        """``parts`` as the rows the screen shows: each line wrapped at word boundaries to :meth:`columns`,
        the rows after its first indented by ``hang`` (by default under the line's second column, as in
        ``  R7    play the red 7``, or its own indentation), so that a list's entries stay readable."""
        text = Text.assemble(*parts)
        width = self.columns()
        if width is None:
            return [text]
        rows: list[Text] = []
        for line in text.split("\n", allow_blank=True):
            wrapped = list(line.wrap(self.console, width, overflow="fold"))
            indent = hanging_indent(line.plain) if hang is None else hang
            if indent and len(wrapped) > 1 and width - indent >= MIN_HANGING_COLUMNS:
                rest = Text(" ").join(wrapped[1:]).wrap(self.console, width - indent, overflow="fold")
                wrapped = [wrapped[0], *(Text(" " * indent) + row for row in rest)]
            for row in wrapped:
                if len(wrapped) > 1:
                    row.rstrip()  # (the space a row was broken at)
                rows.append(row)
        return rows

    def line(self, *parts: Part, hang: int | None = None) -> None:
        for row in self.rows(parts, hang):
            self.console.print(row)

    def ask(self, prompt: str) -> str | None:
        """Show ``prompt`` and read one line; ``None`` at the end of input."""
        *above, last = self.rows([prompt])
        for row in above:
            self.console.print(row)
        prompt = last.plain + " " if prompt.endswith(" ") and not last.plain.endswith(" ") else last.plain
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


MIN_HANGING_COLUMNS = 20
"""The fewest columns a hanging indent leaves; a narrower screen wraps without it."""

_SECOND_COLUMN = re.compile(r" *\S+(?: \S+)*  +(?=\S)")
"""A line's first column and the spaces after it (two at least), the second column's start after them."""
MAX_FIRST_COLUMN = 24
"""The widest first column whose second one the wrapped rows line up under."""


def hanging_indent(line: str) -> int:
    """Where the rows of ``line`` after its first start: under its second column if it has one near
    the start, else under its own indentation."""
    column = _SECOND_COLUMN.match(line)
    if column is not None and column.end() <= MAX_FIRST_COLUMN:
        return column.end()
    return len(line) - len(line.lstrip(" "))


_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def printable(text: str) -> str:
    """``text`` without control characters (escape codes, bidirectional overrides), safe to print."""
    return "".join(c for c in text if unicodedata.category(c) != "Cc" and c not in _BIDI_CONTROLS)


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------- rule options


class UsageError(Exception):
    """Bad command-line input."""


def check_output_file(path: str, option: str) -> None:
    """Refuse now, before any game, a file ``path`` that could not be written at the end."""
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{option} {path}: is a folder, not a file")
    _check_writable_folder(target.parent, option, path)
    if target.exists() and not os.access(target, os.W_OK):
        raise UsageError(f"{option} {path}: the file is not writable")


def check_output_folder(path: str, option: str) -> None:
    """Refuse now, before any game, a folder ``path`` that could not be made or written in."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise UsageError(f"{option} {path}: is not a folder")
    existing = target
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent  # the folders that do not exist yet are made
    _check_writable_folder(existing, option, path)


def _check_writable_folder(folder: Path, option: str, path: str) -> None:
    if not folder.exists():
        raise UsageError(f"{option} {path}: the folder {folder} does not exist")
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: {folder} is not a folder")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass  # a file that has no name (or is removed at once): only the test of writing
    except OSError as exc:
        raise UsageError(f"{option} {path}: cannot write in {folder} ({exc.strerror or exc})") from None


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
    if args.preset is not None:
        options = {"preset": args.preset, **options}  # the preset first, then each --rule
    if args.target is not None:
        options["target_score"] = args.target
    if args.scoring is not None:
        options["scoring"] = args.scoring
    return Rules.from_dict(options)


_CONTROL_SPACES = frozenset("\x1c\x1d\x1e\x1f\x85")
"""Characters Python counts as blank but a rule card refuses (control characters)."""


def read_rules_file(path: str) -> list[str]:
    """The rule texts of a file: one per line; blank lines and lines starting with ``#`` are skipped.

    Each text is cleaned (:func:`unokit.editions.rulecards.clean_rule_text`); a bad line is a
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
        help="edition (default: the edition's own; single-round in all-wild, else winner-collects), "
        "winner-collects, running-tally, single-round or knockout",
    )
    parser.add_argument(
        "--preset",
        metavar="NAME",
        help=f"start from a set of house rules: {', '.join(PRESETS)} (then --rule changes it)",
    )
    parser.add_argument(
        "--rule",
        action="append",
        metavar="NAME=VALUE",
        help="any rule option, e.g. --rule allow_bluff=false (repeatable)",
    )


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


def add_ray_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--ray [ADDRESS]``: the games run as Ray tasks, on a Ray instance started on this machine
    (no address) or on the cluster at ADDRESS (``ray://head:10001`` or ``head:6379``). Its value,
    ``args.ray``, is ``None`` without the option, else ``"local"`` or the address: pass it on as the
    ``ray`` keyword of :func:`unokit.analysis.parallel.run_parallel` and the functions built on it."""
    parser.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="run the games as Ray tasks: on a Ray instance started here (no ADDRESS) or on the cluster "
        "at ADDRESS (ray://HOST:10001 or HOST:6379); the same seed gives the same result (the cluster extra)",
    )


def check_ray(args: argparse.Namespace) -> None:
    """With ``--ray``, refuse now, before any game, when Ray is not installed (one line naming the extra)."""
    if getattr(args, "ray", None) is not None:
        from unokit.analysis.parallel import RayUnavailableError, import_ray

        try:
            import_ray()
        except RayUnavailableError as exc:
            raise UsageError(str(exc)) from None


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


def check_rows_file(path: str) -> None:
    """Refuse now, before any game, a ``--rows`` file that cannot be written or a Parquet file
    without pyarrow (one line naming the extra)."""
    from unokit.analysis.rows import require_pyarrow, row_format
    from unokit.engine.errors import SetupError

    check_output_file(path, "--rows")
    try:
        if row_format(path) == "parquet":
            require_pyarrow()
    except SetupError as exc:
        raise UsageError(f"--rows: {exc}") from None


_SEAT_WORDS = re.compile(r"\bseat (\d+)('s| is| holds| has| was| may| plays| played)?\b")
_TO_YOU = {
    "'s": "your",
    " is": "you are",
    " holds": "you hold",
    " has": "you have",
    " was": "you were",
    " may": "you may",
    " plays": "you play",
    " played": "you played",
}


def said_to(reason: str, seat: int | None, names: Sequence[str], game: Game | None = None) -> str:
    """The engine's ``reason`` (which speaks of every player as "seat N") as the player at ``seat`` reads
    it: that seat is "you", the others are named (``seat`` ``None``: a spectator, every seat named).  With
    ``game``, what the actor is asked is said to them as :meth:`Game.asks` says it (``you=True``).

    >>> said_to("R7 is not legal: seat 0 holds no red 7; legal: draw", 0, ["Ann", "Bot 1"])
    'R7 is not legal: you hold no red 7; legal: draw'
    >>> said_to("seat 0 may not act now: seat 1 is to play", 0, ["Ann", "Bot 1"])
    'you may not act now: Bot 1 is to play'
    >>> said_to("seat 1 is seat 0's partner", 0, ["Ann", "Bot 1"])
    'Bot 1 is your partner'
    """
    if game is not None and seat is not None and game.actor == seat:
        reason = reason.replace(f"seat {seat} is to {game.asks()}", f"you are to {game.asks(you=True)}")
        reason = reason.replace(f"seat {seat} is to play: they play", "you are to play: play")

    def words(match: re.Match[str]) -> str:
        number, verb = int(match[1]), match[2] or ""
        if number == seat:
            return _TO_YOU.get(verb, "you")
        if number >= len(names):
            return match[0]
        return names[number] + verb

    return _SEAT_WORDS.sub(words, reason)
