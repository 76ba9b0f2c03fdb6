"""The compiled engine (the ``fast`` extra: numba and numpy).

:mod:`unokit.fast.engine` plays all four editions, with their sheets' rule options and the
house rules (``engine.SUPPORTED_OPTIONS``), as arrays and functions compiled by numba: whole games
at a time for simulations, or one decision at a time behind :class:`~unokit.fast.engine.FastGame`
and the reinforcement-learning environments.  A deck of more than ``engine.MAX_DECK`` cards is
refused; the Python engine plays it.  It is a second implementation of the rules, held identical
to :class:`unokit.Game` by a differential test (:mod:`unokit.fast.differential`): the same deals
replayed through ``Game`` give the same legal actions, the same events and the same hands and
scores at every step.

Importing it without numba raises :class:`ImportError` naming the extra.  The functions compile at
their first call into numba's cache: the first use after an installation or an upgrade takes
minutes, which a line on stderr announces (:mod:`unokit.fast.compiling`; ``python -m unokit.fast``
compiles ahead of time), and a cache directory that is not writable raises an
:class:`ImportError` saying so and how to set ``NUMBA_CACHE_DIR``.
"""

from __future__ import annotations

MISSING_EXTRA = "the compiled engine needs the fast extra: pip install 'unokit[fast]'"
"""The message of the :class:`ImportError` raised when numba or numpy is missing."""


def _prepare() -> None:
    """Check numba's cache directory and announce a compilation (when numba is installed)."""
    import importlib.util

    if importlib.util.find_spec("numba") is not None:
        from unokit.fast.compiling import prepare

        prepare()


_prepare()
