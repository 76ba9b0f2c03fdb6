"""numba's cache of the compiled engine: where it is, whether it is warm, and a word when it is not.

The compiled functions are compiled the first time they are called and kept in numba's cache
(``__pycache__`` beside the modules, else the user's cache directory, or ``NUMBA_CACHE_DIR``), so
that later processes load them in a moment.  Compiling takes minutes, so :func:`prepare` (run when
:mod:`unokit.fast` is imported) says so once on stderr when the cache holds nothing fresh for the
modules, and raises :class:`CacheNotWritable` (an :class:`ImportError`, as a missing extra is) with
the remedy when no cache directory is writable, instead of numba's error at the first decorator.
``python -m unokit.fast`` compiles everything ahead of time.
"""

from __future__ import annotations

import os
import pickle
import sys
from pathlib import Path

__all__ = ["COMPILED_MODULES", "CacheNotWritable", "cache_dir", "is_warm", "prepare"]

COMPILED_MODULES = ("engine", "heuristic", "stats")
"""The modules of :mod:`unokit.fast` whose functions numba compiles and caches."""

COLD_NOTICE = (
    "unokit.fast: compiling the compiled engine into numba's cache ({where}); the first games take a "
    "few minutes, later processes start at once (python -m unokit.fast compiles ahead of time)"
)
"""The line printed on stderr when the cache is cold."""

_announced = False


class CacheNotWritable(ImportError):
    """No directory numba may cache the compiled engine in is writable."""


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


def _locator(module: str) -> object | None:
    """numba's cache locator for ``module``'s functions, as numba picks it (``None``: no writable one)."""
    for kind in _locator_kinds() or []:
        locator: object | None = kind.from_function(_probe, _source(module))  # type: ignore[attr-defined]
        if locator is not None:
            return locator
    return None


def cache_dir(module: str = "engine") -> str:
    """The directory numba caches ``module``'s compiled functions in; :class:`CacheNotWritable` if none is writable."""
    locator = _locator(module)
    if locator is None:
        from numba.core import config

        chosen = getattr(config, "CACHE_DIR", "")
        tried = [f"NUMBA_CACHE_DIR={chosen}"] if chosen else []
        tried += [str(Path(_source(module)).with_name("__pycache__")), "the user cache directory (numba's)"]
        raise CacheNotWritable(
            "the compiled engine cannot keep its compiled code: no cache directory is writable (tried "
            + ", ".join(tried)
            + "); set NUMBA_CACHE_DIR to a writable directory",
            name=__package__,  # the package that cannot be imported (python -m then prints one line)
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


def prepare() -> None:
    """Check the cache directory (:class:`CacheNotWritable` if there is none) and, once per process,
    say on stderr that the engine is about to compile when the cache is cold.  ``UNOKIT_QUIET_COMPILE=1``
    silences the notice."""
    global _announced
    if _locator_kinds() is None:
        return
    where = cache_dir()
    if _announced or os.environ.get("UNOKIT_QUIET_COMPILE") == "1":
        return
    _announced = True
    if not all(is_warm(module) for module in COMPILED_MODULES):
        print(COLD_NOTICE.format(where=where), file=sys.stderr)
