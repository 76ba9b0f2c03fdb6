"""The package's layout: the engine imports no edition and no adapter; the editions import no adapter."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import unokit

PACKAGE = Path(unokit.__file__).parent
ADAPTERS = ("unokit.bots", "unokit.fast", "unokit.rl", "unokit.analysis", "unokit.cli", "unokit.web")


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, type-checking imports included (``from unokit import x``
    counts as ``unokit.x``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def reaches(names: set[str], packages: tuple[str, ...]) -> list[str]:
    return sorted(name for name in names if any(name == p or name.startswith(p + ".") for p in packages))


@pytest.mark.parametrize("path", sorted((PACKAGE / "engine").glob("*.py")), ids=lambda p: p.name)
def test_the_engine_imports_no_edition_and_no_adapter(path: Path) -> None:
    assert reaches(imported_modules(path), ("unokit.editions", *ADAPTERS)) == []


@pytest.mark.parametrize("path", sorted((PACKAGE / "editions").glob("*.py")), ids=lambda p: p.name)
def test_the_editions_import_no_adapter(path: Path) -> None:
    assert reaches(imported_modules(path), ADAPTERS) == []


def test_the_check_sees_an_import_of_an_edition(tmp_path: Path) -> None:
    module = tmp_path / "module.py"
    module.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from unokit.editions import house\n"
        "from unokit import fast\n",
        encoding="utf-8",
    )
    assert reaches(imported_modules(module), ("unokit.editions", *ADAPTERS)) == [
        "unokit.editions",
        "unokit.editions.house",
        "unokit.fast",
    ]


def test_every_edition_and_the_house_rules_are_registered_on_import() -> None:
    assert list(unokit.EDITIONS) == ["classic", "space-jam", "all-wild", "wild-jackpot"]
    assert type(unokit.Game("classic", 2, seed=1, rules={"call_uno": False})).__name__ == "HouseGame"
