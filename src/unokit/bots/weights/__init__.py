"""The learned bot's weights (``EDITION-Np.npz``, each with its ``EDITION-Np.json``: the command and
seed that trained it, and its evaluation), read with the standard library alone to know what ships.

>>> all(isinstance(players, int) for _, players in learned_tables())
True
"""

from __future__ import annotations

from importlib import resources

__all__ = ["learned_tables"]


def learned_tables() -> tuple[tuple[str, int], ...]:
    """The (edition, players) the shipped weights play, sorted; empty when none ship."""
    tables = []
    for entry in resources.files(__name__).iterdir():
        name = entry.name
        if name.endswith("p.npz") and "-" in name:
            edition, _, players = name.removesuffix("p.npz").rpartition("-")
            if players.isdigit():
                tables.append((edition, int(players)))
    return tuple(sorted(tables))
