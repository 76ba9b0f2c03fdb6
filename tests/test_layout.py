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


# ---------------------------------------------------------------- the web package: a core without I/O

WEB = PACKAGE / "web"
WEB_MODULES = {
    "unokit." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts).removesuffix(".__init__"): path
    for path in sorted(WEB.rglob("*.py"))
}
CORE = sorted(name for name in WEB_MODULES if name == "unokit.web.core" or name.startswith("unokit.web.core."))
CORE_MAY_USE = ("unokit.web.core", "unokit.web.settings", "unokit.web.messages", "unokit.web.timers")
"""The only modules of the web package the room core may import (none of them does I/O)."""
NO_IO = ("asyncio", "threading", "concurrent", "socket", "time", "random", "secrets", "sqlite3", "starlette")
NO_IO += ("uvicorn", "websockets", "psycopg", "psycopg_pool", "redis", "logging")


def module_level_imports(path: Path) -> set[str]:
    """What :func:`imported_modules` finds outside function bodies (a function's own import loads an
    optional extra when it is needed: it is no part of the module's place in the layers)."""
    names: set[str] = set()
    todo: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            todo.extend(ast.iter_child_nodes(node))
    return names


def web_imports(name: str, in_functions: bool = False) -> set[str]:
    """The modules of the web package that module ``name`` imports (type-checking imports included;
    those in a function's body only if ``in_functions``)."""
    found = set()
    path = WEB_MODULES[name]
    for imported in imported_modules(path) if in_functions else module_level_imports(path):
        while imported and imported not in WEB_MODULES:
            imported = imported.rpartition(".")[0]
        if imported and imported != name and imported != "unokit.web":
            found.add(imported)
    return found


def test_the_room_core_is_found() -> None:
    assert {"unokit.web.core.room", "unokit.web.core.seats", "unokit.web.core.writes"} <= set(CORE)


@pytest.mark.parametrize("name", CORE)
def test_the_room_core_does_no_io(name: str) -> None:
    """No event loop, clock, randomness, socket, store, log or server of its own: the shell around it
    (:mod:`unokit.web.rooms`) does all of that."""
    direct = imported_modules(WEB_MODULES[name])
    assert reaches(direct, NO_IO) == []
    reached, todo = set(), [name]
    while todo:
        for imported in web_imports(todo.pop()):
            if imported not in reached:
                reached.add(imported)
                todo.append(imported)
    assert sorted(m for m in reached if not reaches({m}, CORE_MAY_USE)) == []


def test_the_web_package_imports_in_one_direction() -> None:
    """No circle among the web package's modules (type-checking imports and a function's own imports
    of an optional extra included): the transport and the hub import the rooms, the rooms import the
    core, the cluster imports the transport and the hub, never the other way; the app puts them together."""
    graph = {name: web_imports(name, in_functions=True) for name in WEB_MODULES}
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        path.append(name)
        for imported in sorted(graph[name]):
            if state.get(imported) == 1:
                raise AssertionError("an import circle: " + " -> ".join([*path[path.index(imported) :], imported]))
            if imported not in state:
                visit(imported)
        path.pop()
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    assert "unokit.web.hub" not in graph["unokit.web.rooms"] and "unokit.web.app" not in graph["unokit.web.hub"]


def test_the_circle_check_sees_a_type_checking_import(tmp_path: Path) -> None:
    module = tmp_path / "module.py"
    module.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from unokit.web.hub import Hub\nimport asyncio\n",
        encoding="utf-8",
    )
    names = module_level_imports(module)
    assert reaches(names, ("unokit.web.hub",)) == ["unokit.web.hub", "unokit.web.hub.Hub"]
    assert reaches(names, NO_IO) == ["asyncio"]
    module.write_text("def extra() -> None:\n    from unokit.web.hub import Hub\n", encoding="utf-8")
    assert module_level_imports(module) == set() and "unokit.web.hub" in imported_modules(module)
