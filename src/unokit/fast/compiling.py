"""numba's cache of the compiled engine: where it is, a writable one when numba has none, and a word
when the engine compiles.

The compiled functions are compiled the first time a run calls them (each entry point compiles its
own call tree: random games compile no bot) and kept in numba's cache (``NUMBA_CACHE_DIR``, else
``__pycache__`` beside the modules, else the user's cache directory), so that later processes load
them in a moment.  :func:`prepare`, run when :mod:`unokit.fast` is imported, makes sure there is a
cache: when none of numba's directories is writable (a read-only installation and home directory),
it caches in ``$XDG_CACHE_HOME/unokit/numba`` or a private directory under the temporary directory,
and when none of those is writable either it compiles in memory, for the process alone; each says so
in one line on stderr.  The first compilation in a process says on stderr what it compiles and about
how long it takes (:data:`COMPILE_SECONDS`).  ``python -m unokit.fast`` compiles everything ahead.
"""

from __future__ import annotations

import getpass
import os
import pickle
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

__all__ = [
    "COMPILED_MODULES",
    "COMPILE_SECONDS",
    "CacheNotWritable",
    "cache_dir",
    "in_memory",
    "is_warm",
    "jit",
    "prepare",
]

COMPILED_MODULES = ("order", "engine", "heuristic", "stats", "batch")
"""The modules of :mod:`unokit.fast` whose functions numba compiles and caches."""

COMPILE_SECONDS: dict[str, tuple[str, int]] = {
    "start": ("one game stepped from Python", 30),
    "_play_random_chunk": ("random games", 30),
    "playout": ("the search's playouts", 30),
    "_play_bots_chunk": ("the bots' games", 45),
    "_play_stats_batch": ("the bots' matches kept round by round", 50),
    "_play_stats_chunk": ("the bots' matches kept round by round", 45),
    "heuristic_playout": ("the search's heuristic playouts", 45),
    "rollout_wins": ("the search's rollouts", 45),
    "record_random_game": ("recorded games", 30),
    "record_bots_game": ("the bots' recorded matches", 45),
    "batch_reset_bots": ("the batched environments", 60),
    "batch_step_bots": ("the batched environments", 60),
    "batch_bot_actions": ("the batched environments", 60),
    "observe": ("the PettingZoo environment", 30),
}
"""Per entry point (the compiled function a run compiles first): what it is and about how many
seconds of one core it takes to compile with its call tree on a cold cache (``python
bench/compile_time.py --isolated``: 28 s for one game stepped from Python, 30 s for random games,
43 s for the bots' games, 52 s for the stats matches, 56 s for the batched environments); the
first-use notice quotes them.  A busy machine takes longer."""

AHEAD_SECONDS = 100
"""About how many seconds of one core ``python -m unokit.fast`` takes on a cold cache (every entry
point: 94 s measured)."""

QUIET = "UNOKIT_QUIET_COMPILE"
"""The environment variable that silences the first-use notice when set to ``1``."""

_state: dict[str, Any] = {"where": None, "announced": False, "prepared": False}


def jit(**options: Any) -> Callable[[F], F]:
    """numba's ``njit(**options)`` for a function compiled once per type signature of its arguments:
    called from compiled code with constant arguments (``_event(s, PLAYED, seat, 0, face)``), numba
    would compile it again for each value (``Literal[int](3)``), for the same machine code once
    inlined; the constants are typed as their plain types instead (as they are when called from
    Python), unless the function does not compile so (then as numba would)."""
    import numba as nb
    from numba.core import errors, types

    def decorate(function: F) -> F:
        dispatcher = nb.njit(**options)(function)
        template = dispatcher.get_call_template

        def get_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
            plain = tuple(types.unliteral(arg) for arg in args)  # type: ignore[no-untyped-call]
            if plain == tuple(args) and not kws:
                return template(args, kws)
            try:
                return template(plain, {key: types.unliteral(value) for key, value in kws.items()})  # type: ignore[no-untyped-call]
            except errors.TypingError:
                return template(args, kws)

        dispatcher.get_call_template = get_call_template
        return dispatcher  # type: ignore[no-any-return]

    return decorate


class CacheNotWritable(ImportError):
    """No directory numba may cache the compiled engine in is writable (``python -m unokit.fast``
    has nothing to compile into)."""


def _probe() -> None:
    """A stand-in function, for numba's cache locators (they read its first line number only)."""


def _source(module: str) -> str:
    return str(Path(__file__).with_name(f"{module}.py"))


def _locator_kinds() -> list[type] | None:
    """numba's cache locator classes, in the order numba tries them (``None``: this numba keeps
    them elsewhere, or a custom list is configured: nothing is checked)."""
    from numba.core import caching, config

    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    kinds = getattr(impl, "_locator_classes", None)
    if getattr(config, "CACHE_LOCATOR_CLASSES", None) or not isinstance(kinds, list):
        return None
    return kinds


PACKAGE = Path(__file__).parent
"""The directory of :mod:`unokit.fast`, whose modules' functions are cached."""
CONSTANT_SOURCES = ("analysis/rounds.py", "engine/actions.py", "engine/cards.py", "engine/phases.py")
"""Modules outside :mod:`unokit.fast` whose constants the compiled code holds (paths under ``unokit``)."""


def _package_stamp() -> tuple[tuple[str, float, int], ...]:
    """The name, time and size of every module of :mod:`unokit.fast` and of :data:`CONSTANT_SOURCES`."""
    stamps = []
    for path in sorted(PACKAGE.glob("*.py")) + [PACKAGE.parent / name for name in CONSTANT_SOURCES]:
        status = path.stat()
        stamps.append((path.name, status.st_mtime, status.st_size))
    return tuple(stamps)


def _stamped(kind: type) -> type:
    """numba's locator ``kind`` for :mod:`unokit.fast`'s modules, whose cached code is stale when any
    module of the package changes: numba stamps a function's cache with its own module's file only,
    but its machine code holds the functions it calls from the other modules (the bots hold the
    engine, the batches both) as they were compiled."""

    class Stamped(kind):  # type: ignore[misc]
        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if Path(py_file).parent != PACKAGE:
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self) -> Any:
            return (super().get_source_stamp(), _package_stamp())

    Stamped.__name__ = Stamped.__qualname__ = f"Stamped{kind.__name__}"
    return Stamped


def _stamp_package(kinds: list[type]) -> None:
    """Put :func:`_stamped` locators before numba's own, for each of those that cache files on disk."""
    disk = [kind for kind in kinds if kind.__name__.lstrip("_") in _DISK_LOCATORS]
    kinds[:0] = [_stamped(kind) for kind in disk]


_DISK_LOCATORS = ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator")


def _locator(module: str) -> object | None:
    """numba's cache locator for ``module``'s functions, as numba picks it (``None``: no writable one)."""
    for kind in _locator_kinds() or []:
        locator: object | None = kind.from_function(_probe, _source(module))  # type: ignore[attr-defined]
        if locator is not None:
            return locator
    return None


def _private_dir(path: Path) -> bool:
    """Make ``path`` a directory of this user's that others cannot write (numba loads what it finds
    there); whether that worked."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        status = path.stat()
        if hasattr(os, "getuid") and (status.st_uid != os.getuid() or status.st_mode & 0o022):
            return False
        tempfile.TemporaryFile(dir=path).close()
    except OSError:
        return False
    return True


def _fallbacks() -> list[Path]:
    """The directories tried, in order, when none of numba's is writable."""
    home = os.environ.get("XDG_CACHE_HOME") or str(Path("~").expanduser() / ".cache")
    user = os.getuid() if hasattr(os, "getuid") else getpass.getuser()
    return [Path(home) / "unokit" / "numba", Path(tempfile.gettempdir()) / f"unokit-numba-{user}"]


def _tried() -> str:
    from numba.core import config

    chosen = getattr(config, "CACHE_DIR", "")
    tried = [f"NUMBA_CACHE_DIR={chosen}"] if chosen else []
    tried += [str(Path(_source("engine")).with_name("__pycache__")), "numba's user cache directory"]
    return ", ".join(tried)


def _compile_in_memory() -> None:
    """Leave :mod:`unokit.fast`'s functions uncached: numba's decorators would refuse them otherwise."""
    from numba.core.dispatcher import Dispatcher

    enable = Dispatcher.enable_caching

    def enable_caching(self: Any) -> None:
        if not str(getattr(self.py_func, "__module__", "")).startswith(f"{__package__}."):
            enable(self)

    Dispatcher.enable_caching = enable_caching  # type: ignore[method-assign]


def in_memory() -> bool:
    """Whether the compiled engine compiles in memory, for this process alone (no writable cache)."""
    return bool(_state["prepared"]) and _state["where"] is None


def cache_dir(module: str = "engine") -> str:
    """The directory numba caches ``module``'s compiled functions in; :class:`CacheNotWritable` when
    it compiles in memory."""
    locator = _locator(module)
    if locator is None:
        raise CacheNotWritable(
            f"no cache directory is writable (tried {_tried()}, "
            + ", ".join(map(str, _fallbacks()))
            + "): the compiled engine compiles in memory, in each process; set NUMBA_CACHE_DIR to a writable directory",
            name=__package__,  # the package that cannot keep its code (python -m then prints one line)
        )
    return str(locator.get_cache_path())  # type: ignore[attr-defined]


def is_warm(module: str) -> bool:
    """Whether numba's cache holds compiled functions of ``module`` fresh for its source (and this numba)."""
    import numba

    locator = _locator(module)
    if locator is None:
        return False
    stamp = locator.get_source_stamp()  # type: ignore[attr-defined]
    for index in Path(locator.get_cache_path()).glob(f"{module}.*.nbi"):  # type: ignore[attr-defined]
        try:
            with index.open("rb") as file:
                if pickle.load(file) != numba.__version__:
                    continue
                fresh, _ = pickle.loads(file.read())
        except (OSError, ValueError, EOFError, pickle.UnpicklingError, TypeError):
            continue
        if fresh == stamp:
            return True
    return False


def _notice(function: str) -> str:
    what, seconds = COMPILE_SECONDS.get(function, ("the compiled engine", 30))
    about = f"{seconds} s" if seconds < 60 else f"{seconds / 60:.0f} minute{'s' if seconds >= 90 else ''}"
    where = f"numba's cache ({_state['where']})" if _state["where"] else "memory, for this process only"
    return (
        f"unokit.fast: compiling {what} ({function}) into {where}: about {about} of one core, once; "
        "later runs load it at once (python -m unokit.fast compiles every part ahead)"
    )


def _announce(event: Any) -> None:
    """On the first compilation of a function of :mod:`unokit.fast` in this process, say what compiles."""
    if _state["announced"] or not event.is_start:
        return
    function = event.data["dispatcher"].py_func
    if not str(function.__module__).startswith(f"{__package__}."):
        return
    _state["announced"] = True
    if os.environ.get(QUIET) != "1":
        print(_notice(function.__name__), file=sys.stderr, flush=True)


def quiet() -> None:
    """Say nothing at the first compilation in this process (``python -m unokit.fast`` says more)."""
    _state["announced"] = True


def prepare() -> None:
    """Make sure numba has a writable cache for the compiled engine (one of ours, or none: in memory,
    each said in one line on stderr), and have the first compilation in this process announced."""
    if _state["prepared"]:
        return
    _state["prepared"] = True
    kinds = _locator_kinds()
    if kinds is None:
        return
    from numba.core import config, event

    _stamp_package(kinds)
    locator = _locator("engine")
    if locator is None:
        tried = _tried()
        for path in _fallbacks():
            if _private_dir(path):
                os.environ["NUMBA_CACHE_DIR"] = str(path)  # processes started later too
                config.CACHE_DIR = str(path)  # type: ignore[attr-defined]
                locator = _locator("engine")
                print(f"unokit.fast: no writable cache directory ({tried}): caching in {path}", file=sys.stderr)
                break
        else:
            _compile_in_memory()
            print(
                f"unokit.fast: no writable cache directory ({tried}, {', '.join(map(str, _fallbacks()))}): "
                "compiling in memory, for this process only (set NUMBA_CACHE_DIR to a writable directory)",
                file=sys.stderr,
            )
    if locator is not None:
        _state["where"] = str(locator.get_cache_path())  # type: ignore[attr-defined]

    class Announcer(event.Listener):
        def on_start(self, event: Any) -> None:
            _announce(event)

        def on_end(self, event: Any) -> None:
            pass

    event.register("numba:compile", Announcer())  # type: ignore[no-untyped-call]
