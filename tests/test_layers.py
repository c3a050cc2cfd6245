"""The layers of the design page, read from the source: imports point downward only.

``cogs -> services -> (rules, storage) ; render -> (rules, i18n)``, with ``bot.app`` (the
composition root) above everything. Every import counts, those under ``TYPE_CHECKING`` too: a
type is a dependency, and a cycle hidden from the interpreter is still one for the reader.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs")

# What each layer may import from the project (itself included), by module prefix.
ALLOWED: dict[str, frozenset[str]] = {
    "bot": frozenset(),  # a new module beside app.py imports nothing until it is given a layer
    "bot.rules": frozenset({"bot.rules"}),
    "bot.i18n": frozenset({"bot.i18n"}),
    "bot.config": frozenset({"bot.config", "bot.shards", "bot.storage.dialect"}),
    "bot.shards": frozenset({"bot.shards"}),
    "bot.endpoints": frozenset({"bot.endpoints", "bot.config"}),
    "bot.storage": frozenset({"bot.storage"}),
    "bot.services": frozenset({"bot.services", "bot.rules", "bot.storage", "bot.shards"}),
    "bot.render": frozenset({"bot.render", "bot.rules", "bot.i18n"}),
    "bot.ai": frozenset({"bot.ai", "bot.rules"}),
    "bot.loop": frozenset({"bot.loop", "bot.services"}),
    "bot.timers": frozenset({"bot.timers", "bot.loop", "bot.services"}),
    "bot.npcs": frozenset({"bot.npcs", "bot.loop", "bot.services", "bot.ai", "bot.rules"}),
    "bot.collector": frozenset({"bot.collector"}),
    "bot.in_flight": frozenset({"bot.in_flight"}),
    "bot.app": frozenset({"bot", "cogs"}),
    "bot.__main__": frozenset(
        {"bot.__main__", "bot.app", "bot.collector", "bot.config", "bot.endpoints", "bot.storage"}
    ),
    "cogs": frozenset(
        {
            "cogs",
            "bot.services",
            "bot.rules",
            "bot.render",
            "bot.i18n",
            "bot.timers",
            "bot.ai",
            "bot.app",
        }
    ),
}
TYPE_ONLY = {"cogs": frozenset({"bot.app"})}
"""Imports a layer may make only for its annotations: a cog names the bot's class."""

# Libraries a layer must not import (the top-level name).
FORBIDDEN_LIBRARIES: dict[str, frozenset[str]] = {
    "bot.rules": frozenset({"discord", "aiosqlite", "sqlite3", "asyncio", "aiohttp"}),
    "bot.ai": frozenset({"discord", "aiosqlite", "sqlite3", "asyncio", "aiohttp"}),
    "bot.storage": frozenset({"discord", "aiohttp"}),
    "bot.services": frozenset({"discord", "aiohttp", "aiosqlite", "sqlite3"}),
}


@dataclass(frozen=True, slots=True)
class Import:
    target: str
    """A project module, or a library's top-level name."""
    line: int
    type_only: bool


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = modules()


def _resolve(name: str) -> str | None:
    """The project module that ``name`` (a module, or a name in one) lives in."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(nodes: list[ast.stmt], type_only: bool) -> Iterator[tuple[ast.stmt, bool]]:
    """Every statement, nested ones too (imports inside functions count), with whether it sits
    under ``if TYPE_CHECKING:``."""
    for node in nodes:
        if isinstance(node, ast.If) and _is_type_checking(node):
            yield from _walk(node.body, True)
            yield from _walk(node.orelse, type_only)
            continue
        yield node, type_only
        for field in ("body", "orelse", "finalbody"):
            yield from _walk(getattr(node, field, []), type_only)
        for handler in getattr(node, "handlers", []):
            yield from _walk(handler.body, type_only)


def imports_of(module: str) -> list[Import]:
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node, type_only in _walk(ast.parse(path.read_text(encoding="utf-8")).body, False):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            names = [f"{base}.{alias.name}" for alias in node.names] if _resolve(base) else [base]
        for name in names:
            target = _resolve(name) or name.split(".")[0]
            found.append(Import(target, node.lineno, type_only))
    return found


def _layer(module: str) -> str:
    return max((key for key in ALLOWED if module == key or module.startswith(key + ".")), key=len)


def _within(target: str, prefixes: frozenset[str]) -> bool:
    return any(target == p or target.startswith(p + ".") for p in prefixes)


def _in_bot(module: str) -> bool:
    return module == "bot" or module.startswith("bot.")


def graph() -> dict[str, list[Import]]:
    return {module: imports_of(module) for module in MODULES}


def test_the_walker_sees_imports_of_every_kind() -> None:
    """A walker that found nothing would pass everything below."""
    edges = {m: {i.target for i in found} for m, found in graph().items()}
    assert "bot.app" in edges["bot.__main__"]  # from bot.app import SzulerniaBot
    assert "bot.rules.money" in edges["bot.rules.pegaz.state"]
    assert "discord" in edges["bot.app"]  # a library
    cog_types = [i for i in imports_of("cogs.kit.cog") if i.target == "bot.app"]
    assert cog_types and all(i.type_only for i in cog_types)  # under TYPE_CHECKING


def test_every_module_imports_only_from_its_own_layer_or_below() -> None:
    upward = []
    for module, found in graph().items():
        layer = _layer(module)
        for imported in found:
            if imported.target not in MODULES:
                continue
            if not _within(imported.target, ALLOWED[layer]):
                upward.append(f"{module}:{imported.line} imports {imported.target}")
            elif not imported.type_only and _within(
                imported.target, TYPE_ONLY.get(layer, frozenset())
            ):
                upward.append(f"{module}:{imported.line} imports {imported.target} at run time")
    assert upward == []


def test_the_pure_layers_keep_away_from_io_libraries() -> None:
    found = []
    for module, imports in graph().items():
        forbidden = FORBIDDEN_LIBRARIES.get(_layer(module), frozenset())
        found += [f"{module}:{i.line} imports {i.target}" for i in imports if i.target in forbidden]
    assert found == []


def test_no_import_cycle_among_the_bot_modules() -> None:
    """``cogs`` name the bot's class for their annotations, so they are left out here (the
    layer test above keeps those imports to annotations)."""
    edges = {
        module: sorted({i.target for i in found if _in_bot(i.target) and i.target != module})
        for module, found in graph().items()
        if _in_bot(module)
    }
    cycles = []
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for target in edges.get(module, []):
            if state.get(target) == 1:
                cycles.append(" -> ".join([*path[path.index(target) :], target]))
            elif target not in state:
                visit(target)
        path.pop()
        state[module] = 2

    for module in edges:
        if module not in state:
            visit(module)
    assert cycles == []
