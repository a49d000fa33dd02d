"""Imports run one way, toward the engine: web -> storage -> rooms -> bots -> rules."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "server" / "eights"
MAY_IMPORT = {
    "rules": {"rules"},
    "bots": {"rules", "bots"},
    "rooms": {"rules", "bots", "rooms"},
    "storage": {"rules", "bots", "rooms", "storage"},
    "web": {"rules", "bots", "rooms", "storage", "web"},
}
NO_IO_IN = {"rules", "rooms"}
IO_MODULES = {"asyncio", "aiohttp", "redis", "socket", "subprocess", "os", "time", "random"}


def imports_of(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("layer", sorted(MAY_IMPORT))
def test_a_layer_imports_only_the_layers_beneath_it(layer: str) -> None:
    for path in (PACKAGE / layer).rglob("*.py"):
        for name in imports_of(path):
            parts = name.split(".")
            if parts[0] == "eights" and len(parts) > 1:
                assert parts[1] in MAY_IMPORT[layer], f"{path.name} imports {name}"
            if layer in NO_IO_IN:
                assert parts[0] not in IO_MODULES, f"{path.name} imports {name}"


def module_name(path: Path) -> str:
    """``eights.bots.hard`` for server/eights/bots/hard.py; a package for its __init__.py."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def top_level_imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports a module runs as it loads, those under ``if TYPE_CHECKING:`` (or any
    ``if``/``try``) included; those inside a function or class body are not."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            yield from top_level_imports(node.body)
            yield from top_level_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody):
                yield from top_level_imports(block)


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of server/eights it imports at its top level. ``from p import
    m`` names the module ``p.m`` when there is one, else ``p`` (a package's own parents are
    loaded first anyway, so they are no edge)."""
    paths = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in top_level_imports(ast.parse(path.read_text()).body):
            if isinstance(node, ast.Import):
                edges |= {alias.name for alias in node.names}
                continue
            base = node.module or ""
            if node.level:
                parents = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parents, *([node.module] if node.module else [])])
            for alias in node.names:
                edges.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base)
        graph[name] = {e for e in edges if e in paths and e != name}
    return graph


def a_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """Some cycle of ``graph`` as the modules along it (the first repeated at the end)."""
    done: set[str] = set()

    def walk(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        for nxt in sorted(graph[node]):
            found = walk(nxt, [*path, node])
            if found:
                return found
        done.add(node)
        return None

    return next((c for c in (walk(n, []) for n in sorted(graph)) if c), None)


def test_no_two_modules_import_each_other() -> None:
    cycle = a_cycle(import_graph())
    assert cycle is None, "modules import each other: " + " -> ".join(cycle or [])


def test_a_cycle_is_found_where_there_is_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert a_cycle(graph) == ["a", "b", "c", "a"]
    assert a_cycle({"a": {"b"}, "b": set()}) is None
